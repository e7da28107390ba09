//! Delivering what a settled order owes on a local chain ([`crate::orders::Delivery`]): the test token minted to the
//! receiver (an ERC-20 on an EVM chain, an SPL token on Solana, a TRC-20 on Tron) or the native coin added to its
//! balance, on the node at a URL. Test money on the Sandbox's local chains only; every call goes to the node.
//! Bitcoin is not here: its payments are coins of the gateway's own ledger ([`crate::orders::Book::coins`]).

use alloy_primitives::U256;

use crate::orders::Delivery;

/// Why a delivery could not be made (it stays owed, and is tried again).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeliveryError {
    /// The amount is not a whole number of smallest units, or too large for the chain's calls.
    #[error("the amount {amount} cannot be delivered on {chain}: {reason}")]
    Amount {
        /// The chain's slug.
        chain: String,
        /// The amount as kept.
        amount: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The chain is not one whose node the Sandbox runs (Bitcoin's payments are the ledger's).
    #[error("{0} has no local node to deliver on")]
    NoNode(String),
    /// The node refused or could not be reached.
    #[error("the local {chain} node did not take the delivery: {reason}")]
    Node {
        /// The chain's slug.
        chain: String,
        /// The node's error.
        reason: String,
    },
}

/// Delivers `delivery` on its chain's node at `url`: mints the token to the receiver, or adds the native coin
/// ([`crate::local_chain::LocalChain::deliver`] of the chain's family).
pub async fn deliver(url: &str, delivery: &Delivery) -> Result<(), DeliveryError> {
    let amount: U256 = delivery
        .amount
        .parse()
        .map_err(|_| amount_error(delivery, "not a whole number"))?;
    let Some(chain) = crate::local_chain::of(&delivery.chain) else {
        return Err(DeliveryError::NoNode(delivery.chain.clone()));
    };
    chain.deliver(url, delivery, amount).await
}

/// The node's refusal of `delivery`, or its being out of reach.
pub(crate) fn node_error(delivery: &Delivery, e: &dyn std::fmt::Display) -> DeliveryError {
    DeliveryError::Node {
        chain: delivery.chain.clone(),
        reason: e.to_string(),
    }
}

/// The amount as a `u64`, which some nodes' calls take.
pub(crate) fn small(delivery: &Delivery, amount: U256) -> Result<u64, DeliveryError> {
    u64::try_from(amount).map_err(|_| amount_error(delivery, "larger than the chain's calls take"))
}

fn amount_error(delivery: &Delivery, reason: &str) -> DeliveryError {
    DeliveryError::Amount {
        chain: delivery.chain.clone(),
        amount: delivery.amount.clone(),
        reason: reason.to_owned(),
    }
}
