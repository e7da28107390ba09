//! A local chain the simulated gateway reads and pays on, as a type: [`LocalChain`], implemented once per family whose
//! node the Sandbox runs (EVM's anvil in [`crate::evm_check`], the Tron stand-in in [`tron_node`], the Solana node in
//! [`solana_node`]) and chosen once from the chain's family by [`of`]. The families the gateway added after its own
//! (Bitcoin, EVM) have their modules here, so that adding one touches this file and none beside it in the crate.
//!
//! What the gateway does on a source or destination chain goes through it: it checks a registered transaction
//! (register-tx on a chain with a node), finds an unregistered one (V4's offramps and token swaps,
//! [`crate::chain_read`]), delivers what a settled order owes ([`crate::delivery`]) and, where a transaction is built
//! on a recent block, reads that block's hash for create-order. The Sandbox and `gateway-sim --chain` start and fund
//! a chain's node through it too ([`LocalChain::start_node`], [`crate::chain_node::RunningNode`]). The server, the
//! chain reading, the delivery and the Sandbox name no family: adding one is its implementation and one line in
//! [`of`].
//!
//! This is also the crate's one list of what else the Sandbox knows of each added family, each kept in the family's
//! own file: the account a tampered answer diverts to ([`attacker`]), its native coin's decimals, the lies only its
//! transactions can tell ([`FamilyTamper`], told by [`tamper_tx`]), and how create-order builds an order's
//! transaction on its chains where that differs from a call to the gateway's contract ([`call_fee_limit`],
//! [`whole_order_tx`]: the payload crate encodes, the simulated gateway decides what it hands back).

use gateway_client::address::{ChainFamily, chain_family};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use crate::chain_node::{BoxFuture, LocalChain, RunningNode};

pub mod solana_node;
pub mod tron_node;

/// The local chain of `chain`'s family; `None` for Bitcoin (its payments are the gateway's own ledger) and for a
/// chain the client does not know.
pub fn of(chain: &str) -> Option<&'static dyn LocalChain> {
    match chain_family(chain)? {
        ChainFamily::Evm => Some(&crate::evm_check::EvmChain),
        ChainFamily::Tron => Some(&tron_node::TronChain),
        ChainFamily::Solana => Some(&solana_node::SolanaChain),
        ChainFamily::Bitcoin => None,
    }
}

/// A lie only one added family's transactions can tell, named as the admin interface takes it (one of
/// [`crate::tamper::Tamper`]'s, after the lies every family can be told).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FamilyTamper {
    /// The Tron call allows a fee limit of 10,000 TRX.
    TronFeeLimit,
    /// The Solana transaction also transfers 1 SOL from the sender to a stranger.
    SolanaExtraTransfer,
    /// Another account pays the Solana transaction's fee (and must sign).
    SolanaFeePayer,
    /// The gateway's Solana instruction requires a second signer.
    SolanaExtraSigner,
    /// The Solana transaction also calls a program the quote does not name.
    SolanaUnknownProgram,
}

impl FamilyTamper {
    /// Every one, by family.
    pub const ALL: [FamilyTamper; 5] = [
        Self::TronFeeLimit,
        Self::SolanaExtraTransfer,
        Self::SolanaFeePayer,
        Self::SolanaExtraSigner,
        Self::SolanaUnknownProgram,
    ];
}

/// The account of `family` a tampered answer diverts to (EVM's for Bitcoin, whose attacker is a key of the network:
/// [`crate::tamper::attacker_bitcoin`]).
pub fn attacker(family: ChainFamily) -> &'static str {
    match family {
        ChainFamily::Tron => tron_node::ATTACKER,
        ChainFamily::Solana => solana_node::ATTACKER,
        ChainFamily::Evm | ChainFamily::Bitcoin => crate::evm_node::ATTACKER_EVM,
    }
}

/// The decimals of `family`'s native coin (what one whole coin added to a call's value is).
pub fn native_decimals(family: ChainFamily) -> u8 {
    match family {
        ChainFamily::Tron => tron_node::NATIVE_DECIMALS,
        ChainFamily::Solana => solana_node::NATIVE_DECIMALS,
        ChainFamily::Evm | ChainFamily::Bitcoin => 18,
    }
}

/// How create-order builds an order's transaction on an added family's chains, handed to it by the server
/// ([`crate::orders::CreateContext::order_tx`]).
pub const ORDER_TX: crate::orders::OrderTxRules = crate::orders::OrderTxRules {
    whole_order_tx,
    call_fee_limit,
};

/// The fee limit the gateway puts on a call on a chain of `family`, in the chain's smallest unit (Tron's
/// [`tron_node::FEE_LIMIT_SUN`]); `None` for a family whose calls carry none.
pub fn call_fee_limit(family: ChainFamily) -> Option<u64> {
    match family {
        ChainFamily::Tron => Some(tron_node::FEE_LIMIT_SUN),
        ChainFamily::Solana | ChainFamily::Evm | ChainFamily::Bitcoin => None,
    }
}

/// The whole transaction of an order from `src_chain`, for a family whose order is one (Solana's:
/// [`solana_node::whole_order_tx`]); `None` for a family whose order is a call to the gateway's contract
/// ([`crate::payload::offramp_call`], [`crate::payload::swap_call`]), and for a chain the client does not know.
pub fn whole_order_tx(
    src_chain: &str,
    args: &crate::payload::OrderTxArgs<'_>,
) -> Option<Result<crate::orders::WholeTx, crate::payload::PayloadError>> {
    match chain_family(src_chain)? {
        ChainFamily::Solana => Some(solana_node::whole_order_tx(src_chain, args)),
        ChainFamily::Tron | ChainFamily::Evm | ChainFamily::Bitcoin => None,
    }
}

/// The chain a create-order answer's transaction `tx` is for: its `chain`, or else its `type` when that is a family's
/// slug rather than `evm` (Solana's entry names no chain).
pub(crate) fn tx_chain(tx: &Value) -> Option<&str> {
    tx["chain"]
        .as_str()
        .or_else(|| tx["type"].as_str().filter(|t| *t != "evm"))
}

/// Tells a lie in the transaction `tx` where its family tells it: `Some(applied)` when the family decides (a whole
/// transaction, as Solana's, decides every lie; a call decides its family's own, `own`), `None` when the lie is one
/// told of every family's calls alike.
pub(crate) fn tamper_tx(own: Option<FamilyTamper>, tx: &mut Value) -> Option<bool> {
    match tx_chain(tx).and_then(chain_family) {
        Some(ChainFamily::Solana) => Some(own.is_some_and(|t| solana_node::tamper(t, tx))),
        Some(ChainFamily::Tron) => own.map(|t| tron_node::tamper(t, tx)),
        Some(ChainFamily::Evm | ChainFamily::Bitcoin) | None => own.map(|_| false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_but_bitcoin_has_a_local_chain() {
        for family in ChainFamily::ALL {
            assert_eq!(
                of(family.first_chain()).is_some(),
                family != ChainFamily::Bitcoin,
                "{family}"
            );
        }
        assert!(of("not-a-chain").is_none());
    }

    fn args(sender: Option<&str>) -> crate::payload::OrderTxArgs<'_> {
        crate::payload::OrderTxArgs {
            order_id: "5d1b7a2e-8c3f-4e6a-b0d9-7f2c4a1e3b58",
            tx_to: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
            sender,
            token: "0x0000000000000000000000000000000000000000",
            amount: alloy_primitives::U256::from(1_000_000_000u64),
            dst_chain: "base",
            dst_token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
            recipient: "0x1111111111111111111111111111111111111111",
            min_out: alloy_primitives::U256::from(24_000_000u64),
            recent_blockhash: Some([7; 32]),
        }
    }

    #[test]
    fn only_a_family_whose_order_is_a_whole_transaction_builds_one() {
        use crate::payload::PayloadError;
        use crate::payload::solana::{decode_solana_tx, solana_tx};
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
    fn only_tron_calls_carry_a_fee_limit_of_100_trx() {
        assert_eq!(call_fee_limit(ChainFamily::Tron), Some(100 * 1_000_000));
        for family in [ChainFamily::Evm, ChainFamily::Solana, ChainFamily::Bitcoin] {
            assert_eq!(call_fee_limit(family), None, "{family}");
        }
    }
}
