//! A local chain the simulated gateway reads and pays on, as a type: [`LocalChain`], implemented once per family whose
//! node the Sandbox runs (EVM's anvil in [`crate::evm_check`], the Tron stand-in in [`crate::tron_node`], the
//! Solana node in [`crate::solana_node`]) and chosen once from the chain's family by [`of`].
//!
//! What the gateway does on a source or destination chain goes through it: it checks a registered transaction
//! (register-tx on a chain with a node), finds an unregistered one (V4's offramps and token swaps,
//! [`crate::chain_read`]), delivers what a settled order owes ([`crate::delivery`]) and, where a transaction is built
//! on a recent block, reads that block's hash for create-order. The server, the chain reading and the delivery name
//! no family: adding one is its implementation and one line in [`of`].

use gateway_client::address::{ChainFamily, chain_family};

pub use crate::chain_node::{BoxFuture, LocalChain};

/// The local chain of `chain`'s family; `None` for Bitcoin (its payments are the gateway's own ledger) and for a
/// chain the client does not know.
pub fn of(chain: &str) -> Option<&'static dyn LocalChain> {
    match chain_family(chain)? {
        ChainFamily::Evm => Some(&crate::evm_check::EvmChain),
        ChainFamily::Tron => Some(&crate::tron_node::TronChain),
        ChainFamily::Solana => Some(&crate::solana_node::SolanaChain),
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
