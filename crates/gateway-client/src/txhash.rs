//! Transaction identifiers a person pastes to register a source transaction with the gateway.
//!
//! Every validator trims surrounding whitespace and returns the identifier in the form the gateway expects: hex in
//! lower case (EVM with `0x`, Bitcoin and Tron without), Solana signatures as the Base58 text.

use crate::text::describe_char;
use std::fmt;
use std::str::FromStr;

use bitcoin::hex::FromHex;
use bitcoin::{Transaction, Txid};

use crate::address::{ChainFamily, chain_family, first_non_base58};
pub use crate::chains::TxIdShape;

/// What kind of identifier was expected, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TxKind {
    /// A Bitcoin transaction id: 64 hexadecimal characters, no `0x`.
    BitcoinTxid,
    /// A whole raw Bitcoin transaction, in hexadecimal.
    BitcoinTxHex,
    /// An EVM transaction hash: `0x` and 64 hexadecimal characters.
    EvmHash,
    /// A transaction id of a family added after Bitcoin and EVM, written in hex (Tron's: 64 hexadecimal
    /// characters, the SHA-256 of its raw data).
    HexId(ChainFamily),
    /// A transaction's first signature, which identifies it on a family whose ids are signatures (Solana's): 64
    /// bytes in Base58.
    Signature(ChainFamily),
}

impl fmt::Display for TxKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BitcoinTxid => f.write_str("Bitcoin transaction id"),
            Self::BitcoinTxHex => f.write_str("raw Bitcoin transaction"),
            Self::EvmHash => f.write_str("EVM transaction hash"),
            Self::HexId(family) => write!(f, "{family} transaction id"),
            Self::Signature(family) => write!(f, "{family} transaction signature"),
        }
    }
}

/// Why a transaction identifier was refused; each message ends with what to do about it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TxHashError {
    /// The chain slug is not one of the app's chains, so no validator applies.
    #[error(
        "'{chain}' is not a chain this app knows, so its transactions cannot be checked. Pick another chain or update the app."
    )]
    UnknownChain {
        /// The slug as given.
        chain: String,
    },
    /// Nothing but whitespace was given.
    #[error("The {kind} is empty. Paste it from your wallet or a block explorer.")]
    Empty {
        /// What kind of identifier was expected.
        kind: TxKind,
    },
    /// A hexadecimal identifier holds a character that is not hexadecimal.
    #[error(
        "The {kind} contains {}, which is not a hexadecimal character (0-9, a-f). \
         Copy it again from your wallet or a block explorer.",
        describe_char(*character)
    )]
    InvalidHexCharacter {
        /// What kind of identifier was expected.
        kind: TxKind,
        /// The first such character.
        character: char,
    },
    /// A hexadecimal identifier does not have exactly 64 characters.
    #[error(
        "{}; this one has {found}. A character may be missing or extra: copy it again from your wallet or a block explorer.",
        expected_shape(*kind)
    )]
    WrongHexLength {
        /// What kind of identifier was expected.
        kind: TxKind,
        /// How many characters it has, after any `0x`.
        found: usize,
    },
    /// An EVM transaction hash does not start with `0x`.
    #[error(
        "An EVM transaction hash starts with 0x followed by 64 hexadecimal characters. \
         Add 0x at the start if it is missing, or copy it again from your wallet or a block explorer."
    )]
    EvmMissingPrefix,
    /// A Bitcoin transaction id was written with `0x`, as EVM chains write hashes: perhaps the wrong chain is chosen.
    #[error(
        "A Bitcoin transaction id is 64 hexadecimal characters without 0x; 0x is how EVM chains write hashes. \
         Remove the 0x, or check that the right chain is chosen."
    )]
    BitcoinTxidWithPrefix,
    /// A raw transaction's hex has an odd number of characters, so it cannot be whole bytes.
    #[error(
        "A raw transaction has two hexadecimal characters per byte, but this one has an odd number ({found}). \
         Copy the whole transaction again."
    )]
    TxHexOddLength {
        /// How many characters it has.
        found: usize,
    },
    /// 64 hexadecimal characters that do not decode as a transaction were given as a raw transaction: most likely a
    /// transaction id.
    #[error(
        "This is a transaction id, not a raw transaction. \
         Enter it as a transaction id, or paste the whole raw transaction in hex."
    )]
    TxHexIsTxid,
    /// The raw transaction's bytes end before the transaction does.
    #[error("The raw transaction ends before it is complete. Copy the whole transaction again.")]
    TxHexTruncated,
    /// Bytes follow the end of the raw transaction.
    #[error(
        "The raw transaction has {extra} extra bytes after its end. \
         Paste exactly one transaction, copied again from your wallet."
    )]
    TxHexTrailingBytes {
        /// How many bytes follow it.
        extra: usize,
    },
    /// The hex does not decode as a Bitcoin transaction.
    #[error(
        "This hex does not decode as a Bitcoin transaction. Copy the whole raw transaction again from your wallet."
    )]
    TxHexMalformed,
    /// A signature (Solana's transaction id) holds a character outside the Base58 alphabet.
    #[error(
        "The {family} transaction signature contains {}, which {family} signatures never use (0, O, I and l are left out). \
         Copy it again from your wallet or a block explorer.",
        describe_char(*character)
    )]
    SignatureInvalidCharacter {
        /// The family of the chain.
        family: ChainFamily,
        /// The first such character.
        character: char,
    },
    /// A signature does not decode to exactly 64 bytes.
    #[error(
        "A {family} transaction signature is 64 bytes, written as 87 or 88 characters; this one is {bytes} bytes. \
         A character may be missing or extra: copy it again from your wallet or a block explorer."
    )]
    SignatureWrongLength {
        /// The family of the chain.
        family: ChainFamily,
        /// How many bytes it decodes to (estimated, for a text far too long to decode).
        bytes: usize,
    },
}

/// A transaction signature has this many bytes (ed25519's, Solana's).
const SIGNATURE_BYTES: usize = 64;

fn expected_shape(kind: TxKind) -> String {
    match kind {
        TxKind::BitcoinTxid => "A Bitcoin transaction id is 64 hexadecimal characters".to_owned(),
        TxKind::EvmHash => {
            "An EVM transaction hash is 0x followed by 64 hexadecimal characters".to_owned()
        }
        TxKind::HexId(family) => format!("A {family} transaction id is 64 hexadecimal characters"),
        TxKind::BitcoinTxHex | TxKind::Signature(_) => "It has the wrong length".to_owned(),
    }
}

/// Checks that `hex` is exactly 64 hexadecimal characters and returns it in lower case.
fn hex64(hex: &str, kind: TxKind) -> Result<String, TxHashError> {
    if let Some(character) = hex.chars().find(|c| !c.is_ascii_hexdigit()) {
        return Err(TxHashError::InvalidHexCharacter { kind, character });
    }
    if hex.len() != 64 {
        return Err(TxHashError::WrongHexLength {
            kind,
            found: hex.len(),
        });
    }
    Ok(hex.to_ascii_lowercase())
}

/// Validates a Bitcoin transaction id: 64 hexadecimal characters, as block explorers show it (no 0x).
pub fn validate_bitcoin_txid(s: &str) -> Result<Txid, TxHashError> {
    let kind = TxKind::BitcoinTxid;
    let s = s.trim();
    if s.is_empty() {
        return Err(TxHashError::Empty { kind });
    }
    if s.starts_with("0x") || s.starts_with("0X") {
        return Err(TxHashError::BitcoinTxidWithPrefix);
    }
    let hex = hex64(s, kind)?;
    Txid::from_str(&hex).map_err(|_| TxHashError::WrongHexLength {
        kind,
        found: s.len(),
    })
}

/// Decodes a raw Bitcoin transaction from hex and returns its txid, so the user can see which transaction it is.
///
/// The whole input must be exactly one consensus-encoded transaction (legacy or SegWit).
pub fn validate_bitcoin_tx_hex(s: &str) -> Result<Txid, TxHashError> {
    let kind = TxKind::BitcoinTxHex;
    let s = s.trim();
    if s.is_empty() {
        return Err(TxHashError::Empty { kind });
    }
    if let Some(character) = s.chars().find(|c| !c.is_ascii_hexdigit()) {
        return Err(TxHashError::InvalidHexCharacter { kind, character });
    }
    if !s.len().is_multiple_of(2) {
        return Err(TxHashError::TxHexOddLength { found: s.len() });
    }
    let bytes = Vec::<u8>::from_hex(s).map_err(|_| TxHashError::TxHexMalformed)?;
    match bitcoin::consensus::deserialize_partial::<Transaction>(&bytes) {
        Ok((tx, consumed)) if consumed == bytes.len() => Ok(tx.compute_txid()),
        _ if s.len() == 64 => Err(TxHashError::TxHexIsTxid),
        Ok((_, consumed)) => Err(TxHashError::TxHexTrailingBytes {
            extra: bytes.len() - consumed,
        }),
        Err(bitcoin::consensus::encode::Error::Io(_)) => Err(TxHashError::TxHexTruncated),
        Err(_) => Err(TxHashError::TxHexMalformed),
    }
}

/// Validates an EVM transaction hash: `0x` and 64 hexadecimal characters; returned in lower case.
pub fn validate_evm_tx_hash(s: &str) -> Result<String, TxHashError> {
    let kind = TxKind::EvmHash;
    let s = s.trim();
    if s.is_empty() {
        return Err(TxHashError::Empty { kind });
    }
    let hex = s.strip_prefix("0x").ok_or(TxHashError::EvmMissingPrefix)?;
    Ok(format!("0x{}", hex64(hex, kind)?))
}

/// Validates a transaction id written in hex on a family added after Bitcoin and EVM (Tron's): 64 hexadecimal
/// characters, returned in lower case without a prefix.
///
/// Tron writes ids without `0x`, but some tools add it; an optional leading `0x` is accepted and removed.
fn validate_hex_id(family: ChainFamily, s: &str) -> Result<String, TxHashError> {
    let kind = TxKind::HexId(family);
    let s = s.trim();
    if s.is_empty() {
        return Err(TxHashError::Empty { kind });
    }
    hex64(s.strip_prefix("0x").unwrap_or(s), kind)
}

/// Validates a transaction signature (Solana's transaction id): Base58 that decodes to exactly 64 bytes.
fn validate_signature(family: ChainFamily, s: &str) -> Result<String, TxHashError> {
    let s = s.trim();
    if s.is_empty() {
        return Err(TxHashError::Empty {
            kind: TxKind::Signature(family),
        });
    }
    if let Some(character) = first_non_base58(s) {
        return Err(TxHashError::SignatureInvalidCharacter { family, character });
    }
    let bytes = crate::address::base58_len(s, SIGNATURE_BYTES);
    if bytes != SIGNATURE_BYTES {
        return Err(TxHashError::SignatureWrongLength { family, bytes });
    }
    Ok(s.to_owned())
}

/// The shape of `family`'s source transaction ids ([`ChainFamily::tx_id_shape`]).
pub fn tx_id_shape(family: ChainFamily) -> TxIdShape {
    family.tx_id_shape()
}

/// Validates the source transaction identifier for `chain` as `register-tx` needs it, in canonical form.
///
/// Bitcoin takes a txid (not raw transaction hex), EVM chains a 0x hash; a family added after them by its
/// [`TxIdShape`]: Tron a hex id, Solana a signature.
pub fn validate_src_tx_hash(chain: &str, hash: &str) -> Result<String, TxHashError> {
    let Some(family) = chain_family(chain) else {
        return Err(TxHashError::UnknownChain {
            chain: chain.to_owned(),
        });
    };
    match family {
        ChainFamily::Bitcoin => validate_bitcoin_txid(hash).map(|txid| txid.to_string()),
        ChainFamily::Evm => validate_evm_tx_hash(hash),
        added => match added.tx_id_shape() {
            TxIdShape::Base58 { .. } => validate_signature(added, hash),
            TxIdShape::Hex { .. } | TxIdShape::Unchecked => validate_hex_id(added, hash),
        },
    }
}

/// What an identifier of unknown kind looks like, as a person would name it ("EVM transaction hash", "Bitcoin
/// txid", "Solana transaction signature"), or `None` when it looks like none of the chains' transaction ids.
pub fn looks_like(query: &str) -> Option<String> {
    let query = query.trim();
    if validate_evm_tx_hash(query).is_ok() {
        Some("EVM transaction hash".to_owned())
    } else if query.len() == 64 && query.bytes().all(|b| b.is_ascii_hexdigit()) {
        Some("Bitcoin txid".to_owned())
    } else {
        ChainFamily::ALL
            .into_iter()
            .filter(|family| matches!(family.tx_id_shape(), TxIdShape::Base58 { .. }))
            .find(|&family| validate_signature(family, query).is_ok())
            .map(|family| TxKind::Signature(family).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Tron transaction id checked as the app checks one handed in on the chain `tron`.
    fn validate_tron_tx_hash(s: &str) -> Result<String, TxHashError> {
        validate_src_tx_hash("tron", s)
    }

    /// A Solana signature checked as the app checks one handed in on the chain `solana`.
    fn validate_solana_signature(s: &str) -> Result<String, TxHashError> {
        validate_src_tx_hash("solana", s)
    }

    #[test]
    fn every_id_the_strict_check_takes_has_its_family_s_typing_shape() {
        let hex = "ab".repeat(32);
        for (chain, id) in [
            ("ethereum", format!("0x{hex}")),
            ("tron", hex.clone()),
            ("tron", format!("0x{hex}")),
            ("solana", bs58::encode([0u8; 64]).into_string()),
            ("solana", bs58::encode([0xffu8; 64]).into_string()),
            ("solana", SOLANA_SIGNATURE.to_owned()),
        ] {
            let family = chain_family(chain).unwrap();
            let canonical = validate_src_tx_hash(chain, &id).unwrap();
            match tx_id_shape(family) {
                TxIdShape::Hex { adds_0x } => {
                    assert_eq!(id.trim_start_matches("0x").len(), 64, "{id}");
                    assert_eq!(canonical.starts_with("0x"), adds_0x, "{chain}: {canonical}");
                }
                TxIdShape::Base58 { min_len, max_len } => {
                    assert!((min_len..=max_len).contains(&id.len()), "{id}");
                    assert!(first_non_base58(&id).is_none(), "{id}");
                }
                TxIdShape::Unchecked => panic!("{chain} is checked as typed"),
            }
        }
        assert_eq!(tx_id_shape(ChainFamily::Bitcoin), TxIdShape::Unchecked);
    }

    const GENESIS_TXID: &str = "4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b";
    const GENESIS_COINBASE_HEX: &str = "01000000010000000000000000000000000000000000000000000000000000000000000000ffffffff\
        4d04ffff001d0104455468652054696d65732030332f4a616e2f32303039204368616e63656c6c6f72206f6e206272696e6b206f66\
        207365636f6e64206261696c6f757420666f722062616e6b73ffffffff0100f2052a01000000434104678afdb0fe5548271967f1a6\
        7130b7105cd6a828e03909a67962e0ea1f61deb649f6bc3f4cef38c4f35504e51ec112de5c384df7ba0b8d578a4c702b6bf11d5fac\
        00000000";
    const EVM_HASH: &str = "0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b";
    const SOLANA_SIGNATURE: &str =
        "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW";

    fn genesis_hex() -> String {
        GENESIS_COINBASE_HEX.split_whitespace().collect()
    }

    #[test]
    fn genesis_hex_is_the_genesis_coinbase() {
        let block = bitcoin::blockdata::constants::genesis_block(bitcoin::Network::Bitcoin);
        let serialized = bitcoin::consensus::serialize(&block.txdata[0]);
        assert_eq!(Vec::<u8>::from_hex(&genesis_hex()).unwrap(), serialized);
    }

    #[test]
    fn bitcoin_tx_hex_gives_its_txid() {
        let txid = validate_bitcoin_tx_hex(&genesis_hex()).unwrap();
        assert_eq!(txid.to_string(), GENESIS_TXID);
        assert_eq!(
            validate_bitcoin_tx_hex(&format!("  {}\n", genesis_hex().to_ascii_uppercase())),
            Ok(txid)
        );
    }

    #[test]
    fn bitcoin_segwit_tx_hex_gives_its_txid_not_wtxid() {
        use bitcoin::{
            Amount, OutPoint, ScriptBuf, Sequence, TxIn, TxOut, Witness, absolute, transaction,
        };
        let tx = Transaction {
            version: transaction::Version::TWO,
            lock_time: absolute::LockTime::ZERO,
            input: vec![TxIn {
                previous_output: OutPoint {
                    txid: validate_bitcoin_txid(GENESIS_TXID).unwrap(),
                    vout: 0,
                },
                script_sig: ScriptBuf::new(),
                sequence: Sequence::MAX,
                witness: Witness::from_slice(&[vec![1u8; 72], vec![2u8; 33]]),
            }],
            output: vec![TxOut {
                value: Amount::from_sat(50_000),
                script_pubkey: ScriptBuf::new(),
            }],
        };
        let hex: String = bitcoin::consensus::serialize(&tx)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(validate_bitcoin_tx_hex(&hex), Ok(tx.compute_txid()));
        assert_ne!(
            tx.compute_txid().to_string(),
            tx.compute_wtxid().to_string()
        );
    }

    #[test]
    fn malformed_tx_hex() {
        let hex = genesis_hex();
        assert_eq!(
            validate_bitcoin_tx_hex(""),
            Err(TxHashError::Empty {
                kind: TxKind::BitcoinTxHex
            })
        );
        assert_eq!(
            validate_bitcoin_tx_hex(&hex[..hex.len() - 1]),
            Err(TxHashError::TxHexOddLength {
                found: hex.len() - 1
            })
        );
        assert_eq!(
            validate_bitcoin_tx_hex(&hex[..hex.len() - 2]),
            Err(TxHashError::TxHexTruncated)
        );
        assert_eq!(
            validate_bitcoin_tx_hex(&format!("{hex}00")),
            Err(TxHashError::TxHexTrailingBytes { extra: 1 })
        );
        assert_eq!(
            validate_bitcoin_tx_hex(&format!("{}g", &hex[..hex.len() - 1])),
            Err(TxHashError::InvalidHexCharacter {
                kind: TxKind::BitcoinTxHex,
                character: 'g'
            })
        );
        assert_eq!(
            validate_bitcoin_tx_hex(&format!("0x{hex}")),
            Err(TxHashError::InvalidHexCharacter {
                kind: TxKind::BitcoinTxHex,
                character: 'x'
            })
        );
        assert_eq!(
            validate_bitcoin_tx_hex(GENESIS_TXID),
            Err(TxHashError::TxHexIsTxid)
        );
        assert_eq!(
            validate_bitcoin_tx_hex("0100000000"),
            Err(TxHashError::TxHexTruncated)
        );
    }

    #[test]
    fn bitcoin_txids() {
        let txid = validate_bitcoin_txid(GENESIS_TXID).unwrap();
        assert_eq!(txid.to_string(), GENESIS_TXID);
        assert_eq!(
            validate_bitcoin_txid(&format!(" {}\n", GENESIS_TXID.to_ascii_uppercase())),
            Ok(txid)
        );
        assert_eq!(
            validate_bitcoin_txid(&GENESIS_TXID[..62]),
            Err(TxHashError::WrongHexLength {
                kind: TxKind::BitcoinTxid,
                found: 62
            })
        );
        assert_eq!(
            validate_bitcoin_txid(&format!("{GENESIS_TXID}0")),
            Err(TxHashError::WrongHexLength {
                kind: TxKind::BitcoinTxid,
                found: 65
            })
        );
        assert_eq!(
            validate_bitcoin_txid(&format!("{}z", &GENESIS_TXID[..63])),
            Err(TxHashError::InvalidHexCharacter {
                kind: TxKind::BitcoinTxid,
                character: 'z'
            })
        );
        assert_eq!(
            validate_bitcoin_txid(&format!("0x{GENESIS_TXID}")),
            Err(TxHashError::BitcoinTxidWithPrefix)
        );
        assert_eq!(
            validate_bitcoin_txid(" "),
            Err(TxHashError::Empty {
                kind: TxKind::BitcoinTxid
            })
        );
    }

    #[test]
    fn evm_tx_hashes() {
        assert_eq!(validate_evm_tx_hash(EVM_HASH).as_deref(), Ok(EVM_HASH));
        let upper = format!("0x{}", EVM_HASH[2..].to_ascii_uppercase());
        assert_eq!(validate_evm_tx_hash(&upper).as_deref(), Ok(EVM_HASH));
        assert_eq!(
            validate_evm_tx_hash(&EVM_HASH[2..]),
            Err(TxHashError::EvmMissingPrefix)
        );
        let short = &EVM_HASH[..64];
        let err = validate_evm_tx_hash(short).unwrap_err();
        assert_eq!(
            err,
            TxHashError::WrongHexLength {
                kind: TxKind::EvmHash,
                found: 62
            }
        );
        assert_eq!(
            err.to_string(),
            "An EVM transaction hash is 0x followed by 64 hexadecimal characters; this one has 62. \
             A character may be missing or extra: copy it again from your wallet or a block explorer."
        );
        assert_eq!(
            validate_evm_tx_hash("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"),
            Err(TxHashError::WrongHexLength {
                kind: TxKind::EvmHash,
                found: 40
            })
        );
        assert_eq!(
            validate_evm_tx_hash(&format!("0x{}", "O".repeat(64))),
            Err(TxHashError::InvalidHexCharacter {
                kind: TxKind::EvmHash,
                character: 'O'
            })
        );
    }

    #[test]
    fn tron_tx_ids_accept_an_optional_0x() {
        let id = &EVM_HASH[2..];
        assert_eq!(validate_tron_tx_hash(id).as_deref(), Ok(id));
        assert_eq!(validate_tron_tx_hash(EVM_HASH).as_deref(), Ok(id));
        assert_eq!(
            validate_tron_tx_hash(&id.to_ascii_uppercase()).as_deref(),
            Ok(id)
        );
        assert_eq!(
            validate_tron_tx_hash(&id[..63]),
            Err(TxHashError::WrongHexLength {
                kind: TxKind::HexId(ChainFamily::Tron),
                found: 63
            })
        );
        assert_eq!(
            validate_tron_tx_hash(""),
            Err(TxHashError::Empty {
                kind: TxKind::HexId(ChainFamily::Tron)
            })
        );
    }

    #[test]
    fn solana_signatures() {
        assert_eq!(
            validate_solana_signature(SOLANA_SIGNATURE).as_deref(),
            Ok(SOLANA_SIGNATURE)
        );
        assert_eq!(
            validate_solana_signature(&format!("\t{SOLANA_SIGNATURE} ")).as_deref(),
            Ok(SOLANA_SIGNATURE)
        );
        assert_eq!(
            validate_solana_signature("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"),
            Err(TxHashError::SignatureWrongLength {
                family: ChainFamily::Solana,
                bytes: 32
            })
        );
        assert_eq!(
            validate_solana_signature(&format!("{}0", &SOLANA_SIGNATURE[1..])),
            Err(TxHashError::SignatureInvalidCharacter {
                family: ChainFamily::Solana,
                character: '0'
            })
        );
        assert!(matches!(
            validate_solana_signature(&SOLANA_SIGNATURE[..80]),
            Err(TxHashError::SignatureWrongLength { family: ChainFamily::Solana, bytes }) if bytes < 64
        ));
        assert!(matches!(
            validate_solana_signature(EVM_HASH),
            Err(TxHashError::SignatureInvalidCharacter {
                family: ChainFamily::Solana,
                character: '0'
            })
        ));
    }

    #[test]
    fn dispatches_by_chain() {
        assert_eq!(
            validate_src_tx_hash("bitcoin", GENESIS_TXID).as_deref(),
            Ok(GENESIS_TXID)
        );
        assert_eq!(
            validate_src_tx_hash("base", EVM_HASH).as_deref(),
            Ok(EVM_HASH)
        );
        assert_eq!(
            validate_src_tx_hash("bob", &EVM_HASH[2..]),
            Err(TxHashError::EvmMissingPrefix)
        );
        assert_eq!(
            validate_src_tx_hash("tron", EVM_HASH).as_deref(),
            Ok(&EVM_HASH[2..])
        );
        assert_eq!(
            validate_src_tx_hash("solana", SOLANA_SIGNATURE).as_deref(),
            Ok(SOLANA_SIGNATURE)
        );
        assert_eq!(
            validate_src_tx_hash("bitcoin", EVM_HASH),
            Err(TxHashError::BitcoinTxidWithPrefix)
        );
        assert_eq!(
            validate_src_tx_hash("dogecoin", GENESIS_TXID),
            Err(TxHashError::UnknownChain {
                chain: "dogecoin".into()
            })
        );
    }

    #[test]
    fn messages_end_with_what_to_do() {
        let errors = [
            validate_src_tx_hash("nope", "x").unwrap_err(),
            validate_bitcoin_txid("").unwrap_err(),
            validate_bitcoin_txid("0x12").unwrap_err(),
            validate_bitcoin_tx_hex("0").unwrap_err(),
            validate_bitcoin_tx_hex("00").unwrap_err(),
            validate_bitcoin_tx_hex(GENESIS_TXID).unwrap_err(),
            validate_evm_tx_hash("12").unwrap_err(),
            validate_tron_tx_hash("zz").unwrap_err(),
            validate_solana_signature("1").unwrap_err(),
        ];
        for err in errors {
            let message = err.to_string();
            assert!(message.ends_with('.'), "{message}");
            assert!(
                message
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_uppercase() || c == '\''),
                "{message}"
            );
        }
    }
}
