//! What a family's local chain is to the simulated gateway and the Sandbox: the traits [`LocalChain`] (the gateway's
//! dealings with the chain, and starting its node) and [`RunningNode`] (a node started or attached to), the chains
//! whose nodes are read ([`ChainNodes`]), and what the implementations share (how far back a chain is read, the HTTP
//! client, a delivery's errors). The implementations are in their nodes' files and [`crate::local_chain::of`] chooses
//! one; this module uses neither, so nothing goes in a circle.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use alloy_primitives::U256;

use crate::orders::{Delivery, Order};

/// How many of the newest blocks (on Solana, transactions) are looked through for an order's transaction.
pub const BLOCKS_READ: u64 = 256;

/// The HTTP client the chain readings use (each call bounded to 10 s).
pub(crate) fn http() -> Option<reqwest::Client> {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .ok()
}

/// A boxed future, so that the trait can be used as `dyn LocalChain`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The chains whose nodes the gateway reads, of any family (anvil, the Tron stand-in, the Solana node): chain slug →
/// URL. Shared between the gateway and whoever starts the nodes (the Sandbox starts a chain's node when it is first
/// used).
#[derive(Debug, Clone, Default)]
pub struct ChainNodes(Arc<RwLock<BTreeMap<String, String>>>);

impl ChainNodes {
    /// `chain`'s transactions are checked on the node at `url` from now on.
    pub fn set(&self, chain: &str, url: &str) {
        self.0
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(chain.to_owned(), url.to_owned());
    }

    /// The node URL of `chain`, when it has one.
    pub fn url(&self, chain: &str) -> Option<String> {
        self.0
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(chain)
            .cloned()
    }

    /// The chains with a node.
    pub fn chains(&self) -> Vec<String> {
        self.0
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .keys()
            .cloned()
            .collect()
    }
}

/// A local chain's node that this process started (it stops when this is dropped, or when the process ends however
/// it ends) or attached to.
pub trait RunningNode: Send + Sync + std::fmt::Debug {
    /// The node's URL (JSON-RPC, or the base of the Tron HTTP API).
    fn url(&self) -> &str;

    /// Funds a Sandbox wallet's `address` with test money on the node: the chain's native coin (its balance set, not
    /// added to) and each catalogue token of the chain. `Err` is the node's error.
    fn fund_sandbox_wallet<'a>(&'a self, address: &'a str) -> BoxFuture<'a, Result<(), String>>;
}

/// A boxed [`RunningNode`], or why the node could not start.
pub type Started = Result<Box<dyn RunningNode>, String>;

/// A family's node as [`Started`]: boxed, or its error as text.
pub(crate) fn started<N: RunningNode + 'static, E: std::fmt::Display>(
    node: Result<N, E>,
) -> Started {
    node.map(|node| Box::new(node) as Box<dyn RunningNode>)
        .map_err(|e| e.to_string())
}

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

    /// The transaction among the node's newest ([`BLOCKS_READ`]) that passes
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

    /// Starts a node for `chain` on a free loopback port, with what the Sandbox places on it (its gateway and entry
    /// contracts and test tokens, where the family has them).
    fn start_node<'a>(&'a self, chain: &'a str) -> BoxFuture<'a, Started>;

    /// The node of `chain` already running at `url` (started by a test that outlives the process using it), checked
    /// to be the Sandbox's chain; with `place`, the Sandbox's contracts and tokens are placed on it too.
    fn attach_node<'a>(
        &'a self,
        chain: &'a str,
        url: &'a str,
        place: bool,
    ) -> BoxFuture<'a, Started>;

    /// The recent block hash an order's transaction is built on, for families whose transactions carry one; `None`
    /// for the others, `Some(Err(why))` when the node gave none.
    fn recent_blockhash<'a>(
        &'a self,
        _url: &'a str,
    ) -> BoxFuture<'a, Option<Result<[u8; 32], String>>> {
        Box::pin(async { None })
    }

    /// Whether the chain's node must run before an order from it is created: the gateway builds the order's
    /// transaction on the chain's latest state, or checks its registered transaction there from the first.
    fn runs_before_order(&self) -> bool {
        false
    }
}

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

pub(crate) fn amount_error(delivery: &Delivery, reason: &str) -> DeliveryError {
    DeliveryError::Amount {
        chain: delivery.chain.clone(),
        amount: delivery.amount.clone(),
        reason: reason.to_owned(),
    }
}

/// Implements [`LocalChain`] for the unit struct `$name` by the async functions of the module it is used in:
/// `check_paid(url, order, hash)`, `find_payment(url, order)` and `deliver(url, delivery, amount)`, with the trait's
/// arguments and answers; `start_node(chain)` and `attach_node(chain, url, place)`, answering the family's node type
/// (a [`RunningNode`]) or an error to show; and, when given, `recent_blockhash: f` by `f(url)` and
/// `runs_before_order: true`. The three families'
/// implementations differ only in those functions, so the boxing each needs for `dyn LocalChain` is written here
/// once.
macro_rules! local_chain {
    ($name:ident $(, recent_blockhash: $blockhash:path)? $(, runs_before_order: $before:literal)?) => {
        impl $crate::chain_node::LocalChain for $name {
            fn check_paid<'a>(
                &'a self,
                url: &'a str,
                order: &'a $crate::orders::Order,
                hash: &'a str,
            ) -> $crate::chain_node::BoxFuture<'a, Result<(), String>> {
                Box::pin(check_paid(url, order, hash))
            }

            fn find_payment<'a>(
                &'a self,
                url: &'a str,
                order: &'a $crate::orders::Order,
            ) -> $crate::chain_node::BoxFuture<'a, Option<String>> {
                Box::pin(find_payment(url, order))
            }

            fn deliver<'a>(
                &'a self,
                url: &'a str,
                delivery: &'a $crate::orders::Delivery,
                amount: alloy_primitives::U256,
            ) -> $crate::chain_node::BoxFuture<'a, Result<(), $crate::chain_node::DeliveryError>> {
                Box::pin(deliver(url, delivery, amount))
            }

            fn start_node<'a>(
                &'a self,
                chain: &'a str,
            ) -> $crate::chain_node::BoxFuture<'a, $crate::chain_node::Started> {
                Box::pin(async move { $crate::chain_node::started(start_node(chain).await) })
            }

            fn attach_node<'a>(
                &'a self,
                chain: &'a str,
                url: &'a str,
                place: bool,
            ) -> $crate::chain_node::BoxFuture<'a, $crate::chain_node::Started> {
                Box::pin(async move { $crate::chain_node::started(attach_node(chain, url, place).await) })
            }

            $(
                fn recent_blockhash<'a>(
                    &'a self,
                    url: &'a str,
                ) -> $crate::chain_node::BoxFuture<'a, Option<Result<[u8; 32], String>>> {
                    Box::pin(async move { Some($blockhash(url).await) })
                }
            )?

            $(
                fn runs_before_order(&self) -> bool {
                    $before
                }
            )?
        }
    };
}

pub(crate) use local_chain;

/// Implements [`RunningNode`] for the node type `$node` by its own `url()` and `fund_sandbox_wallet(address)` (whose
/// error shows as text).
macro_rules! running_node {
    ($node:ty) => {
        impl $crate::chain_node::RunningNode for $node {
            fn url(&self) -> &str {
                <$node>::url(self)
            }

            fn fund_sandbox_wallet<'a>(
                &'a self,
                address: &'a str,
            ) -> $crate::chain_node::BoxFuture<'a, Result<(), String>> {
                Box::pin(async move {
                    <$node>::fund_sandbox_wallet(self, address)
                        .await
                        .map_err(|e| e.to_string())
                })
            }
        }
    };
}

pub(crate) use running_node;
