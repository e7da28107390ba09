//! V4's offramps and token swaps are not registered: the gateway reads their transactions from the source chain.
//! Here the simulated gateway does the same on the chains that have a node: it looks through the node's recent
//! transactions for one that pays the order, by the same checks register-tx applies
//! ([`crate::local_chain::LocalChain::find_payment`] of the chain's family), and records it as the order's
//! transaction. A chain without a node has nothing to read: such an order waits, and expires as an unpaid one does.

use crate::orders::Order;

pub use crate::chain_node::BLOCKS_READ;

/// The transaction on the node at `url` that pays `order`, if there is one among the newest [`BLOCKS_READ`].
pub async fn find_payment(url: &str, order: &Order) -> Option<String> {
    crate::local_chain::of(&order.src.chain)?
        .find_payment(url, order)
        .await
}
