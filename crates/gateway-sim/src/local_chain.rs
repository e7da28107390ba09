//! A local chain the simulated gateway reads and pays on, as a type: [`LocalChain`], implemented once per family whose
//! node the Sandbox runs (EVM's anvil in [`crate::evm_check`], the Tron stand-in in [`crate::tron_node`], the
//! Solana node in [`crate::solana_node`]) and chosen once from the chain's family by [`of`].
//!
//! What the gateway does on a source or destination chain goes through it: it checks a registered transaction
//! (register-tx on a chain with a node), finds an unregistered one (V4's offramps and token swaps,
//! [`crate::chain_read`]), delivers what a settled order owes ([`crate::delivery`]) and, where a transaction is built
//! on a recent block, reads that block's hash for create-order. The server, the chain reading and the delivery name
//! no family: adding one is its implementation and one line in [`of`].

use std::future::Future;
use std::pin::Pin;

use alloy_primitives::U256;
use gateway_client::address::{ChainFamily, chain_family};

use crate::delivery::DeliveryError;
use crate::orders::{Delivery, Order};

/// A boxed future, so that the trait can be used as `dyn LocalChain`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The gateway's dealings with one family's local chain, through the node at a URL.
pub trait LocalChain: Send + Sync {
    /// Whether `hash` on the node at `url` is a transaction that succeeded and paid `order`: `Err` is the sentence
    /// after the field name. `Ok` too when the order carries nothing to check it against (the book's own checks
    /// then have the last word).
    fn check_paid<'a>(
        &'a self,
        url: &'a str,
        order: &'a Order,
        hash: &'a str,
    ) -> BoxFuture<'a, Result<(), String>>;

    /// The transaction among the node's newest ([`crate::chain_read::BLOCKS_READ`]) that passes
    /// [`LocalChain::check_paid`] for `order`, if there is one.
    fn find_payment<'a>(&'a self, url: &'a str, order: &'a Order) -> BoxFuture<'a, Option<String>>;

    /// Delivers `amount` (in the token's smallest unit) of what `delivery` owes on the node: the token minted to the
    /// receiver, or the native coin added to its balance.
    fn deliver<'a>(
        &'a self,
        url: &'a str,
        delivery: &'a Delivery,
        amount: U256,
    ) -> BoxFuture<'a, Result<(), DeliveryError>>;

    /// The recent block hash an order's transaction is built on, for families whose transactions carry one; `None`
    /// for the others, `Some(Err(why))` when the node gave none.
    fn recent_blockhash<'a>(
        &'a self,
        _url: &'a str,
    ) -> BoxFuture<'a, Option<Result<[u8; 32], String>>> {
        Box::pin(async { None })
    }
}

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
