//! Tron's facts in the chain table's terms, the gateway's Tron call as the create-order answer carries it
//! ([`TronTx`]), and Tron's transaction wire form: the protobuf messages of java-tron's `Tron.proto` and `smart_contract.proto` that a
//! contract call needs, with prost (no code generation: the few messages are declared here, field numbers as in
//! java-tron), and what a wallet and a node check of them.
//!
//! - A transaction's id is SHA-256 of its `raw_data` bytes; the owner signs that hash (secp256k1, 65 bytes
//!   `r || s || v`).
//! - [`decode_raw_exact`] reads `raw_data` strictly: prost skips unknown fields, so the bytes are encoded again and
//!   must come out identical. Nothing the reader did not understand can hide in them.

use alloy_primitives::keccak256;
use prost::Message;
use sha2::{Digest, Sha256};

/// `TriggerSmartContract`'s `ContractType`.
pub const TRIGGER_SMART_CONTRACT: i32 = 31;
/// The `type_url` of a `TriggerSmartContract` parameter.
pub const TRIGGER_TYPE_URL: &str = "type.googleapis.com/protocol.TriggerSmartContract";
/// A Tron account's address prefix byte.
pub const ADDRESS_PREFIX: u8 = 0x41;

/// `protocol.Transaction`.
#[derive(Clone, PartialEq, Message)]
pub struct Transaction {
    /// The part that is hashed into the id and signed.
    #[prost(message, optional, tag = "1")]
    pub raw_data: Option<Raw>,
    /// One signature per signer, 65 bytes each (`r || s || v`) over the id.
    #[prost(bytes = "vec", repeated, tag = "2")]
    pub signature: Vec<Vec<u8>>,
}

/// `protocol.Transaction.raw`.
#[derive(Clone, PartialEq, Message)]
pub struct Raw {
    /// TaPoS: bytes 6..8 of the reference block's number.
    #[prost(bytes = "vec", tag = "1")]
    pub ref_block_bytes: Vec<u8>,
    /// The reference block's number; java-tron checks `ref_block_bytes` and `ref_block_hash` instead, and calls built
    /// here leave it 0.
    #[prost(int64, tag = "3")]
    pub ref_block_num: i64,
    /// TaPoS: bytes 8..16 of the reference block's id.
    #[prost(bytes = "vec", tag = "4")]
    pub ref_block_hash: Vec<u8>,
    /// When the transaction stops being valid, in milliseconds since the Unix epoch.
    #[prost(int64, tag = "8")]
    pub expiration: i64,
    /// A free-form memo; a call this app checks carries none.
    #[prost(bytes = "vec", tag = "10")]
    pub data: Vec<u8>,
    /// The operations the transaction performs; Tron accepts exactly one.
    #[prost(message, repeated, tag = "11")]
    pub contract: Vec<Contract>,
    /// Unused by Tron; a call this app checks carries none.
    #[prost(bytes = "vec", tag = "12")]
    pub scripts: Vec<u8>,
    /// When the transaction was made, in milliseconds since the Unix epoch.
    #[prost(int64, tag = "14")]
    pub timestamp: i64,
    /// The most TRX the transaction may burn for energy, in sun.
    #[prost(int64, tag = "18")]
    pub fee_limit: i64,
}

/// `protocol.Transaction.Contract`.
#[derive(Clone, PartialEq, Message)]
pub struct Contract {
    /// The `ContractType`: which operation this is ([`TRIGGER_SMART_CONTRACT`] for a contract call).
    #[prost(int32, tag = "1")]
    pub r#type: i32,
    /// The operation's message, encoded and named by its type URL.
    #[prost(message, optional, tag = "2")]
    pub parameter: Option<Any>,
    /// Unused by ordinary transactions; empty in a call this app checks.
    #[prost(bytes = "vec", tag = "3")]
    pub provider: Vec<u8>,
    /// Unused by ordinary transactions; empty in a call this app checks.
    #[prost(bytes = "vec", tag = "4")]
    pub contract_name: Vec<u8>,
    /// Which of the owner's permissions signs: 0 is the owner permission, the default.
    #[prost(int32, tag = "5")]
    pub permission_id: i32,
}

/// `google.protobuf.Any`.
#[derive(Clone, PartialEq, Message)]
pub struct Any {
    /// Names the message type of `value`, such as [`TRIGGER_TYPE_URL`].
    #[prost(string, tag = "1")]
    pub type_url: String,
    /// The message, protobuf-encoded.
    #[prost(bytes = "vec", tag = "2")]
    pub value: Vec<u8>,
}

/// `protocol.TriggerSmartContract`.
#[derive(Clone, PartialEq, Message)]
pub struct TriggerSmartContract {
    /// The caller, who signs and pays (`0x41` and 20 bytes).
    #[prost(bytes = "vec", tag = "1")]
    pub owner_address: Vec<u8>,
    /// The contract called (`0x41` and 20 bytes).
    #[prost(bytes = "vec", tag = "2")]
    pub contract_address: Vec<u8>,
    /// TRX sent with the call, in sun.
    #[prost(int64, tag = "3")]
    pub call_value: i64,
    /// The ABI-encoded call: the 4-byte function selector and its arguments.
    #[prost(bytes = "vec", tag = "4")]
    pub data: Vec<u8>,
    /// The amount of a TRC-10 token sent with the call; 0 in a call this app checks.
    #[prost(int64, tag = "5")]
    pub call_token_value: i64,
    /// The id of that TRC-10 token; 0 in a call this app checks.
    #[prost(int64, tag = "6")]
    pub token_id: i64,
}

/// A contract call as the wallet means to sign it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TronCall {
    /// The signer (`0x41` and 20 bytes).
    pub owner: [u8; 21],
    /// The contract called.
    pub contract: [u8; 21],
    /// TRX sent, in sun.
    pub call_value: i64,
    /// The ABI-encoded call: the 4-byte function selector and its arguments.
    pub data: Vec<u8>,
    /// The most the call may burn, in sun.
    pub fee_limit: i64,
}

/// The block a transaction refers to (TaPoS): its number and id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockRef {
    /// The block's height.
    pub number: i64,
    /// The 32-byte block id.
    pub id: [u8; 32],
    /// The block's timestamp, in milliseconds.
    pub timestamp: i64,
}

/// Why a transaction's bytes are not what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TronTxError {
    /// The bytes are not a valid protobuf encoding of the expected message; holds the decoder's reason.
    #[error("its raw_data is not a Tron transaction ({0})")]
    Decode(String),
    /// The bytes decode, but do not encode back to the same bytes: they carry fields this app does not read, or are not
    /// in canonical form.
    #[error("its raw_data carries fields this app does not read, or is not encoded as written")]
    NotExact,
    /// The transaction carries no contract or several; holds how many.
    #[error("it carries {0} contracts, not exactly one")]
    ContractCount(usize),
    /// The contract is not a `TriggerSmartContract` (by type, or by its parameter's type URL); holds its type.
    #[error("its contract is of type {0}, not TriggerSmartContract")]
    ContractType(i32),
    /// The call differs from the one that was checked; holds what differs.
    #[error("its contract differs from the call that was checked: {0}")]
    Differs(String),
}

impl TronCall {
    /// The unsigned `raw_data` of this call on `block`: TaPoS from the block (bytes 6..8 of its number, bytes 8..16 of
    /// its id), expiring `lifetime_ms` after the block's time, stamped `now_ms`.
    pub fn raw(&self, block: &BlockRef, lifetime_ms: i64, now_ms: i64) -> Raw {
        let parameter = TriggerSmartContract {
            owner_address: self.owner.to_vec(),
            contract_address: self.contract.to_vec(),
            call_value: self.call_value,
            data: self.data.clone(),
            call_token_value: 0,
            token_id: 0,
        };
        Raw {
            ref_block_bytes: block.number.to_be_bytes()[6..8].to_vec(),
            ref_block_num: 0,
            ref_block_hash: block.id[8..16].to_vec(),
            expiration: block.timestamp + lifetime_ms,
            data: Vec::new(),
            contract: vec![Contract {
                r#type: TRIGGER_SMART_CONTRACT,
                parameter: Some(Any {
                    type_url: TRIGGER_TYPE_URL.to_owned(),
                    value: parameter.encode_to_vec(),
                }),
                provider: Vec::new(),
                contract_name: Vec::new(),
                permission_id: 0,
            }],
            scripts: Vec::new(),
            timestamp: now_ms,
            fee_limit: self.fee_limit,
        }
    }

    /// Checks that `raw` carries exactly this call (contract, owner, data, value, fee limit) and nothing else: one
    /// contract, no memo, no scripts, no TRC-10 token, the default permission.
    pub fn check(&self, raw: &Raw) -> Result<(), TronTxError> {
        let found = trigger_of(raw)?;
        let differs = |what: &str| Err(TronTxError::Differs(what.to_owned()));
        if found.owner_address != self.owner {
            return differs("another owner");
        }
        if found.contract_address != self.contract {
            return differs("another contract");
        }
        if found.data != self.data {
            return differs("other calldata");
        }
        if found.call_value != self.call_value {
            return differs("another TRX value");
        }
        if found.call_token_value != 0 || found.token_id != 0 {
            return differs("a TRC-10 token sent with it");
        }
        if raw.fee_limit != self.fee_limit {
            return differs("another fee limit");
        }
        if !raw.data.is_empty() || !raw.scripts.is_empty() {
            return differs("a memo or scripts");
        }
        let contract = &raw.contract[0];
        if contract.permission_id != 0
            || !contract.provider.is_empty()
            || !contract.contract_name.is_empty()
        {
            return differs("another permission or provider");
        }
        Ok(())
    }
}

/// The single `TriggerSmartContract` of `raw`.
pub fn trigger_of(raw: &Raw) -> Result<TriggerSmartContract, TronTxError> {
    let [contract] = raw.contract.as_slice() else {
        return Err(TronTxError::ContractCount(raw.contract.len()));
    };
    if contract.r#type != TRIGGER_SMART_CONTRACT {
        return Err(TronTxError::ContractType(contract.r#type));
    }
    let parameter = contract
        .parameter
        .as_ref()
        .filter(|p| p.type_url == TRIGGER_TYPE_URL)
        .ok_or(TronTxError::ContractType(contract.r#type))?;
    let trigger = TriggerSmartContract::decode(parameter.value.as_slice())
        .map_err(|e| TronTxError::Decode(e.to_string()))?;
    if trigger.encode_to_vec() != parameter.value {
        return Err(TronTxError::NotExact);
    }
    Ok(trigger)
}

/// Reads `raw_data` bytes strictly: they must decode, and encode back to the very same bytes.
pub fn decode_raw_exact(bytes: &[u8]) -> Result<Raw, TronTxError> {
    let raw = Raw::decode(bytes).map_err(|e| TronTxError::Decode(e.to_string()))?;
    if raw.encode_to_vec() != bytes {
        return Err(TronTxError::NotExact);
    }
    Ok(raw)
}

/// A transaction's id: SHA-256 of its `raw_data` bytes.
pub fn txid(raw_bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(raw_bytes).into()
}

/// The Tron account of an uncompressed secp256k1 public key (65 bytes, `0x04` first): `0x41` and the last 20 bytes
/// of Keccak-256 of the 64 key bytes.
pub fn account_of_public_key(uncompressed: &[u8; 65]) -> [u8; 21] {
    let hash = keccak256(&uncompressed[1..]);
    let mut out = [0u8; 21];
    out[0] = ADDRESS_PREFIX;
    out[1..].copy_from_slice(&hash[12..]);
    out
}

/// The account whose key made `signature` (65 bytes `r || s || v`, v 0/1 or 27/28) over `raw_bytes`' id.
pub fn signer_of(raw_bytes: &[u8], signature: &[u8]) -> Option<[u8; 21]> {
    use k256::ecdsa::{RecoveryId, Signature, VerifyingKey};
    let (rs, v) = signature.split_at_checked(64)?;
    let v = *v.first()?;
    let recovery = RecoveryId::from_byte(if v >= 27 { v - 27 } else { v })?;
    let signature = Signature::from_slice(rs).ok()?;
    let key = VerifyingKey::recover_from_prehash(&txid(raw_bytes), &signature, recovery).ok()?;
    let point = key.to_encoded_point(false);
    let bytes: [u8; 65] = point.as_bytes().try_into().ok()?;
    Some(account_of_public_key(&bytes))
}

/// A Tron account as Base58Check (`T…`).
pub fn base58(account: &[u8; 21]) -> String {
    bitcoin::base58::encode_check(account)
}

/// The Tron account whose 20-byte body is `body` (an EVM address's bytes): [`ADDRESS_PREFIX`] and the body.
pub fn account_of_body(body: [u8; 20]) -> [u8; 21] {
    let mut account = [ADDRESS_PREFIX; 21];
    account[1..].copy_from_slice(&body);
    account
}

/// A Tron key: secp256k1 at `m/44'/195'/0'/0/0`, exported by Tron wallets as 64 hexadecimal characters; its account
/// is Base58Check of `0x41` and the EVM-style 20 bytes.
pub const KEY_RULE: super::KeyRule = super::KeyRule {
    scheme: super::KeyScheme::Secp256k1 {
        path: "m/44'/195'/0'/0/0",
    },
    import_label: "Tron (hex, 64 characters)",
    account_label: "Tron",
};

/// The gateway's Tron contract call (`TronTxData`, the `tron` entry of the V3 transaction union): the EVM call
/// fields plus the energy budget.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TronTx {
    /// Contract to call (Base58).
    pub to: String,
    /// Calldata.
    pub data: String,
    /// TRX value, decimal string in sun.
    pub value: String,
    /// Chain slug, `tron`.
    pub chain: String,
    /// Maximum TRX in sun the wallet may burn on energy and bandwidth, as a decimal string.
    #[serde(rename = "feeLimit")]
    pub fee_limit: String,
}

impl TronTx {
    /// What is asked to be signed, in lines for a terminal: each amount in sun, with the unit named.
    pub fn lines_to_sign(&self) -> Vec<String> {
        vec![
            format!("Sign on {}: call {}", self.chain, self.to),
            format!("  value:    {} sun", self.value),
            format!(
                "  feeLimit: {} sun (the most TRX the wallet may burn)",
                self.fee_limit
            ),
            format!("  data:     {}", self.data),
        ]
    }
}

/// A Tron address written in Base58Check (`T…`) has exactly this many characters.
pub const BASE58_ADDRESS_CHARS: usize = 34;

/// A Tron address as the chain table's rule: Base58Check of [`ADDRESS_PREFIX`] and 20 bytes, 34 characters from `T`.
pub const ADDRESS_RULE: super::Base58Rule = super::Base58Rule {
    prefix: Some("T"),
    min_len: BASE58_ADDRESS_CHARS,
    max_len: BASE58_ADDRESS_CHARS,
    bytes: 21,
    version: Some(ADDRESS_PREFIX),
};

/// A transaction id is 64 hexadecimal characters (SHA-256 of its raw data), written without `0x`.
pub const TX_ID_SHAPE: super::TxIdShape = super::TxIdShape::Hex { adds_0x: false };

/// Valid accounts to stand in for unknown ones.
pub const STAND_INS: [&str; 2] = [
    "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7",
    "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
];

/// Tron's all-zero account (`0x41` and 20 zero bytes, Base58Check), which some producers write for TRX.
pub const ZERO_ACCOUNT: &str = "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb";

/// A Tron address written in hex (`41…`, without `0x`) has exactly this many characters.
pub const HEX_ADDRESS_CHARS: usize = 42;

/// Why a text is not a Tron account.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AccountError {
    /// Not the length of any spelling of a Tron address; refused before anything was decoded.
    #[error(
        "it has {chars} characters, but a Tron address has {BASE58_ADDRESS_CHARS} (Base58, `T…`) or \
         {HEX_ADDRESS_CHARS} (hex, `41…`, with or without `0x`)"
    )]
    WrongLength {
        /// The text's length in bytes, after trimming.
        chars: usize,
    },
    /// The right length, but not Base58Check (a wrong character or checksum).
    #[error("it is not Base58Check: {0}")]
    NotBase58Check(crate::base58::Base58Error),
    /// It decodes, but not to `0x41` and 20 bytes.
    #[error("it is not a Tron account (0x41 and 20 bytes)")]
    NotAnAccount,
}

/// A Tron account from Base58Check or hex `41…` (with or without `0x`).
pub fn parse_account(text: &str) -> Option<[u8; 21]> {
    read_account(text).ok()
}

/// A Tron account from Base58Check or hex `41…` (with or without `0x`), or why not. The length is checked first: a
/// text that is not 34 (Base58) or 42 (hex) characters long is refused without being decoded, so a gateway's
/// megabyte "address" costs no more than measuring it.
pub fn read_account(text: &str) -> Result<[u8; 21], AccountError> {
    let text = text.trim();
    let hex = text.strip_prefix("0x").unwrap_or(text);
    let bytes = if hex.len() == HEX_ADDRESS_CHARS && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        alloy_primitives::hex::decode(hex).map_err(|_| AccountError::NotAnAccount)?
    } else if text.len() == BASE58_ADDRESS_CHARS {
        crate::base58::decode_check(text, 21).map_err(AccountError::NotBase58Check)?
    } else {
        return Err(AccountError::WrongLength { chars: text.len() });
    };
    let account: [u8; 21] = bytes.try_into().map_err(|_| AccountError::NotAnAccount)?;
    if account[0] != ADDRESS_PREFIX {
        return Err(AccountError::NotAnAccount);
    }
    Ok(account)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call() -> TronCall {
        TronCall {
            owner: parse_account("TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH").unwrap(),
            contract: parse_account("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t").unwrap(),
            call_value: 0,
            data: vec![0x09, 0x5e, 0xa7, 0xb3, 1, 2, 3],
            fee_limit: 100_000_000,
        }
    }

    fn block() -> BlockRef {
        let mut id = [0u8; 32];
        id[..8].copy_from_slice(&0x0102_0304_i64.to_be_bytes());
        id[8..16].copy_from_slice(&[9, 8, 7, 6, 5, 4, 3, 2]);
        BlockRef {
            number: 0x0102_0304,
            id,
            timestamp: 1_700_000_000_000,
        }
    }

    #[test]
    fn raw_data_carries_the_call_and_the_tapos_of_the_block() {
        let raw = call().raw(&block(), 60_000, 1_700_000_000_500);
        assert_eq!(raw.ref_block_bytes, [0x03, 0x04]);
        assert_eq!(raw.ref_block_hash, [9, 8, 7, 6, 5, 4, 3, 2]);
        assert_eq!(raw.expiration, 1_700_000_060_000);
        let bytes = raw.encode_to_vec();
        let back = decode_raw_exact(&bytes).unwrap();
        call().check(&back).unwrap();
        assert_eq!(trigger_of(&back).unwrap().data, call().data);
    }

    #[test]
    fn anything_else_in_the_raw_data_is_refused() {
        let raw = call().raw(&block(), 60_000, 0);
        let mut other = call();
        other.fee_limit += 1;
        assert!(matches!(other.check(&raw), Err(TronTxError::Differs(_))));
        let mut two = raw.clone();
        two.contract.push(two.contract[0].clone());
        assert_eq!(call().check(&two), Err(TronTxError::ContractCount(2)));
        let mut memo = raw.clone();
        memo.data = b"hi".to_vec();
        assert!(matches!(call().check(&memo), Err(TronTxError::Differs(_))));
        // An unknown field (number 30, varint 1) appended: decodes, but is not read exactly.
        let mut bytes = raw.encode_to_vec();
        bytes.extend_from_slice(&[0xf0, 0x01, 0x01]);
        assert_eq!(decode_raw_exact(&bytes), Err(TronTxError::NotExact));
    }

    #[test]
    fn the_signer_is_recovered_from_the_signature() {
        use k256::ecdsa::SigningKey;
        let key = SigningKey::from_slice(&[0x11; 32]).unwrap();
        let point = key.verifying_key().to_encoded_point(false);
        let account = account_of_public_key(point.as_bytes().try_into().unwrap());
        let raw = call().raw(&block(), 60_000, 0).encode_to_vec();
        let (signature, recovery) = key.sign_prehash_recoverable(&txid(&raw)).unwrap();
        let mut bytes = signature.to_bytes().to_vec();
        bytes.push(recovery.to_byte() + 27);
        assert_eq!(signer_of(&raw, &bytes), Some(account));
        let mut other = raw.clone();
        other[5] ^= 1;
        assert_ne!(signer_of(&other, &bytes), Some(account));
        assert_eq!(
            parse_account(&base58(&account)),
            Some(account),
            "Base58Check round trip"
        );
    }

    #[test]
    fn every_spelling_of_an_account_is_read_and_any_other_length_is_refused_unread() {
        let base58 = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
        let account = read_account(base58).unwrap();
        let hex = alloy_primitives::hex::encode(account);
        assert!(hex.starts_with("41"));
        for spelling in [
            hex.clone(),
            format!("0x{hex}"),
            hex.to_ascii_uppercase(),
            format!(" {base58}\n"),
        ] {
            assert_eq!(read_account(&spelling), Ok(account), "{spelling}");
        }
        // A 100,000-character Base58 "address" (what a hostile quote's txTo can hold) is measured, not decoded: the
        // refusal is the length's, which is checked before any decoding. Base58-decoding it would take seconds.
        let huge: String = base58.chars().cycle().take(100_000).collect();
        assert_eq!(
            read_account(&huge),
            Err(AccountError::WrongLength { chars: 100_000 })
        );
        assert_eq!(parse_account(&huge), None);
        let huge_hex = format!("0x{}", "41".repeat(50_000));
        assert_eq!(
            read_account(&huge_hex),
            Err(AccountError::WrongLength { chars: 100_002 })
        );
        // One character off either way, in each spelling.
        for near in [
            &base58[1..],
            &format!("{base58}1"),
            &hex[1..],
            &format!("{hex}0"),
        ] {
            assert!(
                matches!(read_account(near), Err(AccountError::WrongLength { .. })),
                "{near}"
            );
        }
        // The right lengths with the wrong content.
        let mut bad_check = base58.to_owned();
        bad_check.replace_range(33.., "u");
        assert!(matches!(
            read_account(&bad_check),
            Err(AccountError::NotBase58Check(_))
        ));
        assert_eq!(
            read_account(&format!("42{}", &hex[2..])),
            Err(AccountError::NotAnAccount)
        );
        assert!(
            read_account(&huge)
                .unwrap_err()
                .to_string()
                .contains("has 100000 characters, but a Tron address has 34")
        );
    }
}
