//! Solana's facts in the chain table's terms: how its addresses and transaction signatures are written, valid
//! addresses to stand in for shortened ones, and the gateway's Solana transaction as the create-order answer carries
//! it. Decoding that transaction, the keys and the local chain live in the crates that use them (desk-wallet's rail
//! and verifier, gateway-payload, gateway-sim).

use super::{Base58Rule, TxIdShape};

/// A Solana address: a 32-byte public key in Base58, with no checksum, 32 to 44 characters.
pub const ADDRESS_RULE: Base58Rule = Base58Rule {
    prefix: None,
    min_len: 32,
    max_len: 44,
    bytes: 32,
    version: None,
};

/// A transaction is identified by its first signature: 64 bytes in Base58, 87 or 88 characters as a rule, fewer with
/// leading zero bytes (each is one `1` rather than about 1.37 characters: 64 when all are zero).
pub const SIGNATURE_SHAPE: TxIdShape = TxIdShape::Base58 {
    min_len: 64,
    max_len: 88,
};

/// Valid addresses to stand in for unknown ones: the System Program and USDC's mint.
pub const STAND_INS: [&str; 2] = [
    "11111111111111111111111111111111",
    "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
];

/// A Solana key: ed25519 at `m/44'/501'/0'/0'` (SLIP-10), exported by Solana wallets as a Base58 keypair of 64 bytes.
pub const KEY_RULE: super::KeyRule = super::KeyRule {
    scheme: super::KeyScheme::Ed25519 {
        path: "m/44'/501'/0'/0'",
    },
    import_label: "Solana (Base58 keypair)",
    account_label: "Solana",
};

/// The gateway's Solana transaction (`GatewaySolanaTx`, the `solana` entry of the V3 transaction union).
///
/// `transaction` is base64 of an unsigned, bincode-serialized `VersionedTransaction`: decode it, sign the message,
/// re-serialize and broadcast; never sign the base64 text itself.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SolanaTx {
    /// Numeric chain id the gateway assigns to Solana.
    #[serde(rename = "chainId")]
    pub chain_id: u64,
    /// Base64 of the unsigned `VersionedTransaction`.
    pub transaction: String,
}

impl SolanaTx {
    /// What is asked to be signed, in lines for a terminal.
    pub fn lines_to_sign(&self) -> Vec<String> {
        vec![
            format!(
                "Sign on solana (chain id {}): decode, sign and broadcast this unsigned transaction",
                self.chain_id
            ),
            format!("  transaction (base64): {}", self.transaction),
        ]
    }
}
