//! What a gateway asks a client to sign, built and read the same way on both sides: the real payloads the simulated
//! gateway hands back from create-order (and its check of a Bitcoin transaction handed in to register-tx), which
//! desk-core's verifier rebuilds and compares before anything is signed. A crate of its own so that the app and the
//! `gateway` command line verify against the same encoders without compiling the simulated server.
//!
//! - [`bitcoin`]: the onramp deposit address, the 32-byte OP_RETURN commitment to the order, a PSBT
//!   (v0) paying both when the quote named a sender, and [`check_onramp_tx`], which accepts a signed transaction
//!   only when it pays the deposit address enough and carries the commitment.
//! - [`evm`]: calldata of the simulated gateway contract (EVM chains and Tron), ABI-encoded with alloy's `sol!`,
//!   and the chain ids of the catalogue's chains.
//! - [`solana`]: an unsigned `VersionedTransaction` (v0 message) calling the simulated gateway program, base64 of
//!   its bincode form, and a decoder for it.
//! - [`sandbox`]: the Sandbox's gateway contracts and its local chains' genesis.
//! - `testkit` (feature `test-utils`): a fixed-key P2WPKH wallet that signs the onramp PSBT, **for tests and the
//!   sandbox only**.
//!
//! Everything here is deterministic: the same inputs give the same bytes. Amounts are integers throughout.

#![warn(missing_docs)]

pub mod bitcoin;
pub mod evm;
pub mod sandbox;
pub mod solana;
#[cfg(any(test, feature = "test-utils"))]
pub mod testkit;

/// Bitcoin network of the simulated gateway (mainnet, `Network::Bitcoin`, by default).
pub use ::bitcoin::Network;

pub use self::bitcoin::{
    BitcoinTxError, Coin, DUST_SATS, FEE_RATE_SAT_PER_VB, OnrampPayload, check_onramp_tx,
    deposit_address, deposit_fee_sats, deposit_fee_sats_spending, initial_coin, max_spendable,
    max_spendable_all, onramp_payload, onramp_payload_from, order_commitment, payout_coin,
};
pub use self::evm::{
    CallPayload, IGatewaySim, chain_id, offramp_call, order_id_hash, production_shaped, swap_call,
};

/// What the transaction of an offramp or token swap is built from, whichever family its source chain is.
#[derive(Debug, Clone, Copy)]
pub struct OrderTxArgs<'a> {
    /// The order's id.
    pub order_id: &'a str,
    /// The gateway's contract or program on the source chain (the quote's `txTo`).
    pub tx_to: &'a str,
    /// The quote's sender: the payer of the transaction, for a family whose order is a whole transaction.
    pub sender: Option<&'a str>,
    /// The token paid in on the source chain.
    pub token: &'a str,
    /// The amount paid in, in the token's smallest unit.
    pub amount: alloy_primitives::U256,
    /// The destination chain's slug.
    pub dst_chain: &'a str,
    /// The token paid out there.
    pub dst_token: &'a str,
    /// Who receives it.
    pub recipient: &'a str,
    /// The least the recipient must get, in the output token's smallest unit.
    pub min_out: alloy_primitives::U256,
    /// The source chain's recent block hash, for a family whose transactions are built on one.
    pub recent_blockhash: Option<[u8; 32]>,
}

/// Why a payload could not be built (or a whole transaction could not be read back).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PayloadError {
    /// An address argument is not a valid address of the kind (and, for Bitcoin, the network) required.
    #[error("{field} {value:?} is not valid: {reason}")]
    InvalidAddress {
        /// Which argument (`sender`, `tx_to`, `token`, `recipient`, `dst_token`, `btc_recipient`).
        field: &'static str,
        /// The value given.
        value: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A chain slug with no known family or chain id.
    #[error("unknown chain {0:?}")]
    UnknownChain(String),
    /// An amount outside what the payload can carry (zero, above `u64` for Solana, above 21 million BTC, ...).
    #[error("{field} {value} is out of range: {reason}")]
    AmountOutOfRange {
        /// Which amount (`amount`, `min_out`, `amount_sats`).
        field: &'static str,
        /// The amount given, in its smallest unit.
        value: String,
        /// The limit it broke.
        reason: String,
    },
    /// The sender's coins cannot pay the amount and the fee.
    #[error(
        "the sender's coins hold {balance} sats, {spendable} spendable after the fee; this deposit needs {needed}"
    )]
    InsufficientFunds {
        /// The coins' value, in sats.
        balance: u64,
        /// What a deposit could pay from it (see [`max_spendable`]).
        spendable: u64,
        /// The amount and the fee, in sats.
        needed: u64,
    },
    /// A whole transaction (a family's whose payload is one, as [`solana`]'s) could not be built: compiling its
    /// message, or its size limit.
    #[error("cannot build the {what}: {reason}")]
    TxBuild {
        /// The transaction, as a sentence names it (`Solana transaction`).
        what: &'static str,
        /// Why.
        reason: String,
    },
    /// A whole transaction handed to a family's decoder is not one it can read.
    #[error("not a readable {what}: {reason}")]
    TxDecode {
        /// The transaction, as a sentence names it (`Solana transaction`).
        what: &'static str,
        /// Why.
        reason: String,
    },
}
