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

use gateway_client::address::{ChainFamily, chain_family};

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
