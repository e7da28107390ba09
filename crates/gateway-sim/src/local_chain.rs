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
//! own file: the account a tampered answer diverts to ([`attacker`]), its native coin's decimals, and the lies only
//! its transactions can tell ([`FamilyTamper`], told by [`tamper_tx`]).

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
}
