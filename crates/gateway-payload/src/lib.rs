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
pub use self::solana::{
    DecodedInstruction, DecodedSolanaTx, decode_solana_tx, gateway_instruction,
    gateway_instruction_min_out, solana_tx,
};

/// Fee limit of a Tron call, in sun: 100 TRX, the most the wallet may burn for energy.
pub const TRON_FEE_LIMIT_SUN: u64 = 100_000_000;

/// The fee limit a call on a chain of `family` carries, in the chain's smallest unit (Tron's
/// [`TRON_FEE_LIMIT_SUN`]); `None` for a family whose calls carry none.
pub fn call_fee_limit(family: gateway_client::chains::ChainFamily) -> Option<u64> {
    (family == gateway_client::chains::ChainFamily::Tron).then_some(TRON_FEE_LIMIT_SUN)
}

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

/// An order's whole transaction, for a family whose order is a transaction the gateway builds rather than a call to
/// its contract: what create-order puts in `tx` beside its `type`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WholeTx {
    /// The chain id the service writes in it.
    pub chain_id: u64,
    /// The unsigned transaction, base64.
    pub transaction: String,
}

/// The whole transaction of an order from `src_chain`, for a family whose order is one (Solana's: an unsigned v0
/// transaction calling the gateway program, [`solana_tx`]); `None` for a family whose order is a call to the
/// gateway's contract ([`offramp_call`], [`swap_call`]), and for a chain the client does not know.
pub fn whole_order_tx(
    src_chain: &str,
    args: &OrderTxArgs<'_>,
) -> Option<Result<WholeTx, PayloadError>> {
    use gateway_client::chains::ChainFamily;
    match gateway_client::address::chain_family(src_chain)? {
        ChainFamily::Solana => {}
        ChainFamily::Bitcoin | ChainFamily::Evm | ChainFamily::Tron => return None,
    }
    let sender = args.sender.ok_or_else(|| PayloadError::InvalidAddress {
        field: "sender",
        value: String::new(),
        reason: "a Solana transaction needs its fee payer".into(),
    });
    let built = sender.and_then(|sender| {
        solana_tx(
            args.order_id,
            args.tx_to,
            sender,
            args.token,
            args.amount,
            args.dst_chain,
            args.dst_token,
            args.recipient,
            args.min_out,
            args.recent_blockhash,
        )
    });
    Some(built.map(|transaction| WholeTx {
        chain_id: chain_id(src_chain).unwrap_or_default(),
        transaction,
    }))
}

/// Why a payload could not be built (or a Solana transaction could not be read back).
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
    /// A Solana transaction could not be built (compiling the message, or the packet size limit).
    #[error("cannot build the Solana transaction: {0}")]
    SolanaBuild(String),
    /// A Solana transaction handed to [`decode_solana_tx`] is not one this module can read.
    #[error("not a readable Solana transaction: {0}")]
    SolanaDecode(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::U256;

    fn args(sender: Option<&str>) -> OrderTxArgs<'_> {
        OrderTxArgs {
            order_id: "5d1b7a2e-8c3f-4e6a-b0d9-7f2c4a1e3b58",
            tx_to: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
            sender,
            token: "0x0000000000000000000000000000000000000000",
            amount: U256::from(1_000_000_000u64),
            dst_chain: "base",
            dst_token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
            recipient: "0x1111111111111111111111111111111111111111",
            min_out: U256::from(24_000_000u64),
            recent_blockhash: Some([7; 32]),
        }
    }

    #[test]
    fn only_a_family_whose_order_is_a_whole_transaction_builds_one() {
        let sender = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
        let a = args(Some(sender));
        let whole = whole_order_tx("solana", &a).unwrap().unwrap();
        assert_eq!(whole.chain_id, 792_703_809);
        let direct = solana_tx(
            a.order_id,
            a.tx_to,
            sender,
            a.token,
            a.amount,
            a.dst_chain,
            a.dst_token,
            a.recipient,
            a.min_out,
            a.recent_blockhash,
        )
        .unwrap();
        assert_eq!(whole.transaction, direct);
        assert_eq!(
            decode_solana_tx(&whole.transaction).unwrap().fee_payer,
            sender
        );
        assert!(matches!(
            whole_order_tx("solana", &args(None)),
            Some(Err(PayloadError::InvalidAddress {
                field: "sender",
                ..
            }))
        ));
        for call_family in ["bob", "ethereum", "tron", "bitcoin", "not-a-chain"] {
            assert!(whole_order_tx(call_family, &a).is_none(), "{call_family}");
        }
    }

    #[test]
    fn only_tron_calls_carry_a_fee_limit() {
        use gateway_client::chains::ChainFamily;
        assert_eq!(call_fee_limit(ChainFamily::Tron), Some(TRON_FEE_LIMIT_SUN));
        for family in [ChainFamily::Evm, ChainFamily::Solana, ChainFamily::Bitcoin] {
            assert_eq!(call_fee_limit(family), None, "{family}");
        }
    }
}
