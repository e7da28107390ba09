//! Solana payloads: an unsigned `VersionedTransaction` calling the simulated gateway program, and its decoder.
//!
//! Crates: Anza's split SDK crates (`solana-transaction`, `solana-message`, `solana-pubkey`, `solana-hash`,
//! `solana-instruction`, `solana-signature`, with `serde`) and `bincode` 1, so the wire form is Solana's own rather
//! than a hand-written encoder. Measured when chosen: 34 new `Cargo.lock` entries, of which 23 small crates are
//! built on this platform (the rest are target-`solana` or optional), and about 11 s of cold build on this 2-core
//! machine, curve25519 (for program-derived addresses) included. Small enough: no reason to hand-write the format.
//!
//! # The transaction
//!
//! - A **v0 message** (no address lookup tables), one signature slot filled with zeros (the unsigned form), base64
//!   (standard alphabet, padded) of the bincode serialization. At most 1232 bytes (Solana's packet size).
//! - **Fee payer** and only signer: `sender` (account key 0, writable).
//! - **Recent blockhash**: the latest blockhash of the Solana node behind the gateway when it has one (the Sandbox's
//!   LiteSVM chain, `chains/solana-node.mjs`), so the transaction can be signed and executed as returned; without a
//!   node, `SHA-256("gateway-sim blockhash" || order_id)`, so the same order gives the same bytes (no cluster knows
//!   that blockhash: a wallet sees it as expired).
//! - **The deposit** first ([`deposit_instruction`]): the quoted amount moved by a real transfer from the sender to
//!   the gateway's vault, an SPL Token `Transfer` (tag 3) from the sender's associated token account to the vault's,
//!   or for SOL a System Program `Transfer` to the vault. A client may check it exactly (amount, source, destination,
//!   authority); the Sandbox's chain executes it, so the sender's balance really drops.
//! - **Then one instruction** to the gateway program `tx_to`, which records the order, its data Anchor-style: an 8-byte discriminator
//!   `SHA-256("global:<name>")[..8]`, then Borsh-encoded arguments (integers little-endian):
//!   - `swap_cross_chain`: `order_id: [u8; 32]` (SHA-256 of the order id string), `amount: u64`,
//!     `min_amount_out: [u8; 32]` (a little-endian 256-bit integer: the destination may be an 18-decimal EVM token
//!     whose amounts exceed u64), `dst_chain_id: u64` (see [`super::evm::chain_id`]), `dst_token: [u8; 32]`,
//!     `recipient: [u8; 32]` (destination addresses as 32 bytes, as on EVM: EVM/Tron left-padded, Solana as is,
//!     native token zero);
//!   - `offramp_to_bitcoin` (when `dst_chain` is `bitcoin`): `order_id: [u8; 32]`, `amount: u64`,
//!     `min_btc_out: u64` (sats), `btc_recipient: string` (u32 length, then UTF-8).
//! - **Accounts** of the instruction: native SOL (`token` is the zero EVM address or the System Program id):
//!   `[sender (signer, writable), vault (writable), System Program]`; an SPL token (`token` is its mint):
//!   `[sender (signer, writable), sender's associated token account (writable), vault, vault's associated token
//!   account (writable), mint, SPL Token program]`. The vault is the program-derived address of seeds `["vault"]`
//!   under the program; associated token accounts are derived the standard way under the classic SPL Token program.

use std::str::FromStr;

use alloy_primitives::U256;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bincode::Options as _;
use gateway_client::address::{ChainFamily, chain_family};
use sha2::{Digest, Sha256};
use solana_hash::Hash;
use solana_instruction::{AccountMeta, Instruction};
use solana_message::{VersionedMessage, v0};
use solana_pubkey::Pubkey;
use solana_signature::Signature;
use solana_transaction::versioned::VersionedTransaction;

use super::PayloadError;
use super::evm::{chain_id, destination_bytes32, order_id_hash, parse_evm};

/// A Solana transaction, as [`PayloadError`]'s sentences name it.
const WHAT: &str = "Solana transaction";
/// Solana's packet size: the largest serialized transaction the network accepts.
const PACKET_DATA_SIZE: u64 = 1232;
/// The System Program.
const SYSTEM_PROGRAM: Pubkey = solana_pubkey::pubkey!("11111111111111111111111111111111");
/// The classic SPL Token program.
const TOKEN_PROGRAM: Pubkey = solana_pubkey::pubkey!("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
/// The Associated Token Account program.
const ASSOCIATED_TOKEN_PROGRAM: Pubkey =
    solana_pubkey::pubkey!("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");

/// A Solana transaction as [`decode_solana_tx`] reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodedSolanaTx {
    /// `"legacy"`, `"v0"` or `"v1"`.
    pub version: &'static str,
    /// Account key 0, base58.
    pub fee_payer: String,
    /// How many signatures the message requires.
    pub num_required_signatures: u8,
    /// True when every signature slot is all zeros.
    pub unsigned: bool,
    /// The recent blockhash, base58.
    pub recent_blockhash: String,
    /// The instructions, in order.
    pub instructions: Vec<DecodedInstruction>,
}

impl DecodedSolanaTx {
    /// The program ids of the instructions, in order.
    pub fn program_ids(&self) -> Vec<&str> {
        self.instructions
            .iter()
            .map(|ix| ix.program_id.as_str())
            .collect()
    }
}

/// One instruction of a [`DecodedSolanaTx`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodedInstruction {
    /// The program called, base58.
    pub program_id: String,
    /// The accounts passed, base58, in order.
    pub accounts: Vec<String>,
    /// The instruction data.
    pub data: Vec<u8>,
}

/// The unsigned transaction of an offramp or token swap from Solana (see the module docs), as base64.
///
/// `tx_to` is the gateway program and `sender` the fee payer (both base58 32-byte keys); `token` is the source mint
/// or the zero EVM address for SOL; `dst_chain`, `dst_token` and `recipient` name the destination (for `bitcoin`:
/// an offramp to the Bitcoin address `recipient`, `dst_token` unused). `amount` and `min_out` must fit in `u64`.
#[allow(clippy::too_many_arguments)] // The quote's fields, one by one, as create-order reads them.
pub fn solana_tx(
    order_id: &str,
    tx_to: &str,
    sender: &str,
    token: &str,
    amount: U256,
    dst_chain: &str,
    dst_token: &str,
    recipient: &str,
    min_out: U256,
    blockhash: Option<[u8; 32]>,
) -> Result<String, PayloadError> {
    let payer = parse_pubkey(sender, "sender")?;
    let instruction = gateway_instruction(
        order_id, tx_to, sender, token, amount, dst_chain, dst_token, recipient, min_out,
    )?;
    let deposit = deposit_instruction(tx_to, sender, token, amount)?;
    let blockhash = Hash::new_from_array(blockhash.unwrap_or_else(|| {
        Sha256::new()
            .chain_update(b"gateway-sim blockhash")
            .chain_update(order_id.as_bytes())
            .finalize()
            .into()
    }));
    let message = v0::Message::try_compile(&payer, &[deposit, instruction], &[], blockhash)
        .map_err(|e| PayloadError::TxBuild {
            what: WHAT,
            reason: e.to_string(),
        })?;
    let signatures =
        vec![Signature::default(); usize::from(message.header.num_required_signatures)];
    let tx = VersionedTransaction {
        signatures,
        message: VersionedMessage::V0(message),
    };
    let bytes = wire_options()
        .serialize(&tx)
        .map_err(|e| PayloadError::TxBuild {
            what: WHAT,
            reason: e.to_string(),
        })?;
    Ok(STANDARD.encode(bytes))
}

/// The gateway program's instruction of [`solana_tx`] (see the module docs): what a client compares the instruction
/// of a create-order answer with, field by field and account by account.
#[allow(clippy::too_many_arguments)] // The quote's fields, one by one, as create-order reads them.
pub fn gateway_instruction(
    order_id: &str,
    tx_to: &str,
    sender: &str,
    token: &str,
    amount: U256,
    dst_chain: &str,
    dst_token: &str,
    recipient: &str,
    min_out: U256,
) -> Result<Instruction, PayloadError> {
    let program = parse_pubkey(tx_to, "tx_to")?;
    let payer = parse_pubkey(sender, "sender")?;
    let mint = match parse_evm(token, "token") {
        Ok(address) if address.is_zero() => None,
        _ => Some(parse_pubkey(token, "token")?).filter(|key| *key != SYSTEM_PROGRAM),
    };
    let amount_u64 = to_u64(amount, "amount")?;
    if amount_u64 == 0 {
        return Err(PayloadError::AmountOutOfRange {
            field: "amount",
            value: "0".into(),
            reason: "must be above 0".into(),
        });
    }
    let order = order_id_hash(order_id);
    let data = match chain_family(dst_chain) {
        Some(ChainFamily::Bitcoin) => {
            bitcoin::Address::from_str(recipient).map_err(|e| PayloadError::InvalidAddress {
                field: "recipient",
                value: recipient.into(),
                reason: e.to_string(),
            })?;
            let length = u32::try_from(recipient.len()).expect("a Bitcoin address is short");
            let mut data = discriminator("offramp_to_bitcoin").to_vec();
            data.extend_from_slice(&order);
            data.extend_from_slice(&amount_u64.to_le_bytes());
            data.extend_from_slice(&to_u64(min_out, "min_out")?.to_le_bytes());
            data.extend_from_slice(&length.to_le_bytes());
            data.extend_from_slice(recipient.as_bytes());
            data
        }
        _ => {
            let dst_chain_id =
                chain_id(dst_chain).ok_or_else(|| PayloadError::UnknownChain(dst_chain.into()))?;
            let mut data = discriminator("swap_cross_chain").to_vec();
            data.extend_from_slice(&order);
            data.extend_from_slice(&amount_u64.to_le_bytes());
            data.extend_from_slice(&min_out.to_le_bytes::<32>());
            data.extend_from_slice(&dst_chain_id.to_le_bytes());
            data.extend_from_slice(&destination_bytes32(dst_chain, dst_token, "dst_token")?);
            data.extend_from_slice(&destination_bytes32(dst_chain, recipient, "recipient")?);
            data
        }
    };

    let (vault, _) = Pubkey::find_program_address(&[b"vault"], &program);
    let accounts = match mint {
        None => vec![
            AccountMeta::new(payer, true),
            AccountMeta::new(vault, false),
            AccountMeta::new_readonly(SYSTEM_PROGRAM, false),
        ],
        Some(mint) => vec![
            AccountMeta::new(payer, true),
            AccountMeta::new(associated_token_account(&payer, &mint), false),
            AccountMeta::new_readonly(vault, false),
            AccountMeta::new(associated_token_account(&vault, &mint), false),
            AccountMeta::new_readonly(mint, false),
            AccountMeta::new_readonly(TOKEN_PROGRAM, false),
        ],
    };
    Ok(Instruction::new_with_bytes(program, &data, accounts))
}

/// The deposit of [`solana_tx`]: `amount` of `token` (an SPL mint; the zero EVM address or the System Program id
/// for SOL) moved from `sender` to the vault of the gateway program `tx_to` (the program-derived address of seeds
/// `["vault"]`): an SPL Token `Transfer` from the sender's associated token account to the vault's (authority: the
/// sender), or a System Program `Transfer` of lamports to the vault.
pub fn deposit_instruction(
    tx_to: &str,
    sender: &str,
    token: &str,
    amount: U256,
) -> Result<Instruction, PayloadError> {
    let program = parse_pubkey(tx_to, "tx_to")?;
    let payer = parse_pubkey(sender, "sender")?;
    let amount = to_u64(amount, "amount")?;
    let (vault, _) = Pubkey::find_program_address(&[b"vault"], &program);
    let mint = match parse_evm(token, "token") {
        Ok(address) if address.is_zero() => None,
        _ => Some(parse_pubkey(token, "token")?).filter(|key| *key != SYSTEM_PROGRAM),
    };
    Ok(match mint {
        None => {
            let mut data = 2u32.to_le_bytes().to_vec();
            data.extend_from_slice(&amount.to_le_bytes());
            Instruction::new_with_bytes(
                SYSTEM_PROGRAM,
                &data,
                vec![
                    AccountMeta::new(payer, true),
                    AccountMeta::new(vault, false),
                ],
            )
        }
        Some(mint) => {
            let mut data = vec![3u8];
            data.extend_from_slice(&amount.to_le_bytes());
            Instruction::new_with_bytes(
                TOKEN_PROGRAM,
                &data,
                vec![
                    AccountMeta::new(associated_token_account(&payer, &mint), false),
                    AccountMeta::new(associated_token_account(&vault, &mint), false),
                    // The authority; writable as the fee payer is in any case, so the instruction reads the same as
                    // in the compiled message.
                    AccountMeta::new(payer, true),
                ],
            )
        }
    })
}

/// The minimum output a gateway instruction of [`gateway_instruction`] asks for, read from its data: a 256-bit
/// little-endian integer after the order id and amount of `swap_cross_chain`, a `u64` of sats for
/// `offramp_to_bitcoin`. `None` for data of any other instruction or of the wrong length.
pub fn gateway_instruction_min_out(data: &[u8]) -> Option<U256> {
    let (head, rest) = data.split_at_checked(8)?;
    // order id (32) and amount (8) come first.
    let args = rest.get(40..)?;
    if head == discriminator("swap_cross_chain") {
        let bytes: [u8; 32] = args.get(..32)?.try_into().ok()?;
        Some(U256::from_le_bytes(bytes))
    } else if head == discriminator("offramp_to_bitcoin") {
        let bytes: [u8; 8] = args.get(..8)?.try_into().ok()?;
        Some(U256::from(u64::from_le_bytes(bytes)))
    } else {
        None
    }
}

/// Reads a base64 (standard alphabet) bincode-serialized `VersionedTransaction`: the whole input must be one
/// transaction of at most 1232 bytes that passes Solana's sanity checks, with as many signature slots as the message
/// requires. Instructions must refer to static account keys only (address lookup tables are not resolved).
pub fn decode_solana_tx(b64: &str) -> Result<DecodedSolanaTx, PayloadError> {
    let bad = |reason: String| PayloadError::TxDecode { what: WHAT, reason };
    let bytes = STANDARD
        .decode(b64.trim())
        .map_err(|e| bad(format!("not base64: {e}")))?;
    let tx: VersionedTransaction = wire_options()
        .deserialize(&bytes)
        .map_err(|e| bad(format!("not a bincode VersionedTransaction: {e}")))?;
    tx.sanitize()
        .map_err(|e| bad(format!("fails the sanity checks: {e}")))?;
    let header = tx.message.header();
    if tx.signatures.len() != usize::from(header.num_required_signatures) {
        return Err(bad(format!(
            "{} signature slots for {} required signatures",
            tx.signatures.len(),
            header.num_required_signatures
        )));
    }
    let keys = tx.message.static_account_keys();
    let key = |index: u8| {
        keys.get(usize::from(index))
            .map(|key| key.to_string())
            .ok_or_else(|| {
                bad(format!(
                    "account index {index} is in an address lookup table"
                ))
            })
    };
    let instructions = tx
        .message
        .instructions()
        .iter()
        .map(|ix| {
            Ok(DecodedInstruction {
                program_id: key(ix.program_id_index)?,
                accounts: ix
                    .accounts
                    .iter()
                    .map(|&i| key(i))
                    .collect::<Result<_, _>>()?,
                data: ix.data.clone(),
            })
        })
        .collect::<Result<Vec<_>, PayloadError>>()?;
    Ok(DecodedSolanaTx {
        version: match tx.message {
            VersionedMessage::Legacy(_) => "legacy",
            VersionedMessage::V0(_) => "v0",
            VersionedMessage::V1(_) => "v1",
        },
        fee_payer: keys
            .first()
            .ok_or_else(|| bad("no account keys".into()))?
            .to_string(),
        num_required_signatures: header.num_required_signatures,
        unsigned: tx
            .signatures
            .iter()
            .all(|signature| *signature == Signature::default()),
        recent_blockhash: tx.message.recent_blockhash().to_string(),
        instructions,
    })
}

/// bincode as Solana uses it: fixed-width integers, little-endian, the packet size as limit, nothing left over.
pub fn wire_options() -> impl bincode::Options {
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .with_limit(PACKET_DATA_SIZE)
        .reject_trailing_bytes()
}

/// An Anchor instruction discriminator: `SHA-256("global:<name>")[..8]`.
fn discriminator(name: &str) -> [u8; 8] {
    let hash = Sha256::new()
        .chain_update(b"global:")
        .chain_update(name.as_bytes())
        .finalize();
    hash[..8].try_into().expect("8 of 32 bytes")
}

/// The associated token account of `owner` for `mint` (classic SPL Token program).
/// The associated token account of `owner` for `mint` (classic SPL Token program).
pub fn associated_token_account(owner: &Pubkey, mint: &Pubkey) -> Pubkey {
    Pubkey::find_program_address(
        &[owner.as_ref(), TOKEN_PROGRAM.as_ref(), mint.as_ref()],
        &ASSOCIATED_TOKEN_PROGRAM,
    )
    .0
}

fn parse_pubkey(value: &str, field: &'static str) -> Result<Pubkey, PayloadError> {
    Pubkey::from_str(value).map_err(|e| PayloadError::InvalidAddress {
        field,
        value: value.into(),
        reason: format!("not a base58 32-byte Solana key: {e}"),
    })
}

fn to_u64(amount: U256, field: &'static str) -> Result<u64, PayloadError> {
    u64::try_from(amount).map_err(|_| PayloadError::AmountOutOfRange {
        field,
        value: amount.to_string(),
        reason: "a Solana amount must fit in u64".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ORDER: &str = "5d1b7a2e-8c3f-4e6a-b0d9-7f2c4a1e3b58";
    const SENDER: &str = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
    const USDC: &str = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
    const NATIVE: &str = "0x0000000000000000000000000000000000000000";

    /// The simulated gateway program (the same bytes as the quote's `txTo` on Solana).
    fn program() -> String {
        let mut key = [0u8; 32];
        key[..20].copy_from_slice(b"gateway-sim-contract");
        key[20..].copy_from_slice(b"-solana-pub!");
        bs58::encode(key).into_string()
    }

    fn swap(token: &str, amount: U256) -> Result<String, PayloadError> {
        solana_tx(
            ORDER,
            &program(),
            SENDER,
            token,
            amount,
            "base",
            "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
            "0x1111111111111111111111111111111111111111",
            U256::from(24_000_000u64),
            None,
        )
    }

    #[test]
    fn decodes_with_the_crates_deserializer_unsigned_with_the_sender_as_fee_payer() {
        let b64 = swap(USDC, U256::from(25_000_000u64)).unwrap();
        let raw = STANDARD.decode(&b64).unwrap();
        // Wire layout: compact-u16 signature count 1, 64 zero bytes, then the v0 message prefix 0x80.
        assert_eq!(raw[0], 1);
        assert_eq!(raw[1..65], [0u8; 64]);
        assert_eq!(raw[65], 0x80);
        // Plain bincode 1 (Solana's own reading), independent of this module's options.
        let tx: VersionedTransaction =
            bincode::deserialize(&STANDARD.decode(&b64).unwrap()).unwrap();
        tx.sanitize().unwrap();
        let VersionedMessage::V0(message) = &tx.message else {
            panic!("a v0 message")
        };
        assert!(message.address_table_lookups.is_empty());
        assert_eq!(message.header.num_required_signatures, 1);
        assert_eq!(message.account_keys[0], Pubkey::from_str(SENDER).unwrap());
        assert_eq!(tx.signatures, vec![Signature::default()]);
        let ix = &message.instructions[1];
        assert_eq!(
            message.account_keys[usize::from(ix.program_id_index)],
            Pubkey::from_str(&program()).unwrap()
        );

        let decoded = decode_solana_tx(&b64).unwrap();
        assert_eq!(decoded.version, "v0");
        assert_eq!(decoded.fee_payer, SENDER);
        assert_eq!(decoded.num_required_signatures, 1);
        assert!(decoded.unsigned);
        assert_eq!(
            decoded.program_ids(),
            vec![TOKEN_PROGRAM.to_string(), program()]
        );
        // First the deposit: 25 USDC from the sender's token account to the vault's, the sender signing.
        let deposit = &decoded.instructions[0];
        let sender = Pubkey::from_str(SENDER).unwrap();
        let usdc = Pubkey::from_str(USDC).unwrap();
        let (vault, _) =
            Pubkey::find_program_address(&[b"vault"], &Pubkey::from_str(&program()).unwrap());
        assert_eq!(
            deposit.accounts,
            vec![
                associated_token_account(&sender, &usdc).to_string(),
                associated_token_account(&vault, &usdc).to_string(),
                SENDER.to_string()
            ]
        );
        assert_eq!(deposit.data[0], 3);
        assert_eq!(deposit.data[1..], 25_000_000u64.to_le_bytes());
        let ix = &decoded.instructions[1];
        assert_eq!(ix.accounts.len(), 6);
        assert_eq!(ix.accounts[0], SENDER);
        assert_eq!(ix.accounts[4], USDC);
        assert_eq!(ix.accounts[5], TOKEN_PROGRAM.to_string());

        // The documented data layout.
        let data = &ix.data;
        assert_eq!(data.len(), 8 + 32 + 8 + 32 + 8 + 32 + 32);
        assert_eq!(data[..8], discriminator("swap_cross_chain"));
        assert_eq!(data[8..40], order_id_hash(ORDER));
        assert_eq!(data[40..48], 25_000_000u64.to_le_bytes());
        assert_eq!(data[48..80], U256::from(24_000_000u64).to_le_bytes::<32>());
        assert_eq!(data[80..88], 8453u64.to_le_bytes());
        assert_eq!(data[120..132], [0u8; 12]);
        assert_eq!(data[132..], [0x11u8; 20]);
    }

    #[test]
    fn native_sol_passes_vault_and_system_program() {
        let decoded =
            decode_solana_tx(&swap(NATIVE, U256::from(1_000_000_000u64)).unwrap()).unwrap();
        let program = Pubkey::from_str(&program()).unwrap();
        let (vault, _) = Pubkey::find_program_address(&[b"vault"], &program);
        // The deposit: a System Program transfer of the lamports to the vault.
        let deposit = &decoded.instructions[0];
        assert_eq!(deposit.program_id, SYSTEM_PROGRAM.to_string());
        assert_eq!(
            deposit.accounts,
            vec![SENDER.to_string(), vault.to_string()]
        );
        assert_eq!(deposit.data[..4], 2u32.to_le_bytes());
        assert_eq!(deposit.data[4..], 1_000_000_000u64.to_le_bytes());
        let accounts = &decoded.instructions[1].accounts;
        assert_eq!(
            *accounts,
            vec![
                SENDER.to_string(),
                vault.to_string(),
                SYSTEM_PROGRAM.to_string()
            ]
        );
    }

    #[test]
    fn offramp_to_bitcoin_carries_the_address_as_text() {
        let recipient = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
        let b64 = solana_tx(
            ORDER,
            &program(),
            SENDER,
            USDC,
            U256::from(50_000_000u64),
            "bitcoin",
            NATIVE,
            recipient,
            U256::from(49_000u64),
            None,
        )
        .unwrap();
        let data = decode_solana_tx(&b64).unwrap().instructions.remove(1).data;
        assert_eq!(data[..8], discriminator("offramp_to_bitcoin"));
        assert_eq!(data[56..60], 42u32.to_le_bytes());
        assert_eq!(&data[60..], recipient.as_bytes());
    }

    #[test]
    fn amounts_beyond_u64_and_bad_keys_are_refused() {
        let big = U256::from(u64::MAX) + U256::from(1u64);
        assert!(matches!(
            swap(USDC, big),
            Err(PayloadError::AmountOutOfRange {
                field: "amount",
                ..
            })
        ));
        assert!(matches!(
            solana_tx(
                ORDER,
                &program(),
                "0x1111",
                USDC,
                U256::from(1u64),
                "base",
                NATIVE,
                NATIVE,
                U256::ZERO,
                None
            ),
            Err(PayloadError::InvalidAddress {
                field: "sender",
                ..
            })
        ));
        // 31 bytes is not a key.
        let short = bs58::encode([1u8; 31]).into_string();
        assert!(matches!(
            solana_tx(
                ORDER,
                &short,
                SENDER,
                USDC,
                U256::from(1u64),
                "base",
                NATIVE,
                NATIVE,
                U256::ZERO,
                None
            ),
            Err(PayloadError::InvalidAddress { field: "tx_to", .. })
        ));
    }

    #[test]
    fn deterministic_and_decoder_refuses_garbage() {
        assert_eq!(
            swap(USDC, U256::from(7u64)).unwrap(),
            swap(USDC, U256::from(7u64)).unwrap()
        );
        assert!(matches!(
            decode_solana_tx("!!"),
            Err(PayloadError::TxDecode { .. })
        ));
        assert!(matches!(
            decode_solana_tx("AQAAAA=="),
            Err(PayloadError::TxDecode { .. })
        ));
        let mut bytes = STANDARD
            .decode(swap(USDC, U256::from(7u64)).unwrap())
            .unwrap();
        bytes.push(0);
        assert!(matches!(
            decode_solana_tx(&STANDARD.encode(bytes)),
            Err(PayloadError::TxDecode { .. })
        ));
    }
}
