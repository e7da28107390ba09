//! Delivering what a settled order owes on a local chain ([`crate::orders::Delivery`]): the test token minted to the
//! receiver (an ERC-20 on an EVM chain, an SPL token on Solana, a TRC-20 on Tron) or the native coin added to its
//! balance, on the node at a URL. Test money on the Sandbox's local chains only; every call goes to the node.
//! Bitcoin is not here: its payments are coins of the gateway's own ledger ([`crate::orders::Book::coins`]).

use alloy_primitives::U256;

use crate::orders::Delivery;

pub use crate::chain_node::DeliveryError;

/// Delivers `delivery` on its chain's node at `url`: mints the token to the receiver, or adds the native coin
/// ([`crate::local_chain::LocalChain::deliver`] of the chain's family).
pub async fn deliver(url: &str, delivery: &Delivery) -> Result<(), DeliveryError> {
    let amount: U256 = delivery
        .amount
        .parse()
        .map_err(|_| crate::chain_node::amount_error(delivery, "not a whole number"))?;
    let Some(chain) = crate::local_chain::of(&delivery.chain) else {
        return Err(DeliveryError::NoNode(delivery.chain.clone()));
    };
    chain.deliver(url, delivery, amount).await
}
