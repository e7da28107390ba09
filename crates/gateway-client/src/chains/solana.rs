//! Solana's facts in the chain table's terms: how its addresses and transaction signatures are written, and valid
//! addresses to stand in for shortened ones. Its transactions, keys and local chain live in the crates that use them
//! (desk-wallet's rail, gateway-payload, gateway-sim).

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
