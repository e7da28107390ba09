//! Delivering what a settled order owes on a local chain ([`crate::orders::Delivery`]): the test token minted to the
//! receiver (an ERC-20 on an EVM chain, an SPL token on Solana, a TRC-20 on Tron) or the native coin added to its
//! balance, on the node at a URL. Test money on the Sandbox's local chains only; every call goes to the node.
//! Bitcoin is not here: its payments are coins of the gateway's own ledger ([`crate::orders::Book::coins`]).

use alloy_primitives::U256;
use gateway_client::TokenRegistry;
use gateway_client::address::{ChainFamily, chain_family};
use gateway_client::wire::is_native_token;
use serde_json::json;

use crate::evm_node::EvmNode;
use crate::orders::Delivery;
use crate::solana_node::SolanaNode;
use crate::tron_node::TronNode;

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

/// Delivers `delivery` on its chain's node at `url`: mints the token to the receiver, or adds the native coin.
pub async fn deliver(url: &str, delivery: &Delivery) -> Result<(), DeliveryError> {
    let chain = delivery.chain.as_str();
    let amount: U256 = delivery
        .amount
        .parse()
        .map_err(|_| amount_error(delivery, "not a whole number"))?;
    let node = |e: &dyn std::fmt::Display| DeliveryError::Node {
        chain: chain.to_owned(),
        reason: e.to_string(),
    };
    let native = is_native_token(chain, &delivery.token);
    match chain_family(chain) {
        Some(ChainFamily::Evm) => {
            let evm = EvmNode::attach(chain, url).await.map_err(|e| node(&e))?;
            if native {
                let answer = evm
                    .rpc("eth_getBalance", json!([delivery.to, "latest"]))
                    .await
                    .map_err(|e| node(&e))?;
                let held = answer
                    .as_str()
                    .and_then(|hex| U256::from_str_radix(hex.trim_start_matches("0x"), 16).ok())
                    .ok_or_else(|| node(&format!("eth_getBalance answered {answer}")))?;
                evm.set_native_balance(&delivery.to, held.saturating_add(amount))
                    .await
                    .map_err(|e| node(&e))
            } else {
                evm.mint(&delivery.token, &delivery.to, amount)
                    .await
                    .map_err(|e| node(&e))
            }
        }
        Some(ChainFamily::Solana) => {
            let units = small(delivery, amount)?;
            let solana = SolanaNode::attach(url).await.map_err(|e| node(&e))?;
            if native {
                solana
                    .airdrop(&delivery.to, units)
                    .await
                    .map_err(|e| node(&e))
            } else {
                let decimals = TokenRegistry::builtin()
                    .get(chain, &delivery.token)
                    .map_or(9, |t| t.decimals);
                solana
                    .mint_token(&delivery.token, &delivery.to, units, decimals)
                    .await
                    .map(drop)
                    .map_err(|e| node(&e))
            }
        }
        Some(ChainFamily::Tron) => {
            let units = small(delivery, amount)?;
            let tron = TronNode::attach(url).await.map_err(|e| node(&e))?;
            if native {
                let account = tron
                    .post(
                        "/wallet/getaccount",
                        json!({"address": delivery.to, "visible": true}),
                    )
                    .await
                    .map_err(|e| node(&e))?;
                let held = account["balance"].as_u64().unwrap_or(0);
                tron.fund(&delivery.to, held.saturating_add(units))
                    .await
                    .map_err(|e| node(&e))
            } else {
                tron.mint(&delivery.token, &delivery.to, units)
                    .await
                    .map_err(|e| node(&e))
            }
        }
        Some(ChainFamily::Bitcoin) | None => Err(DeliveryError::NoNode(chain.to_owned())),
    }
}

/// The amount as a `u64`, which the Solana and Tron nodes' calls take.
fn small(delivery: &Delivery, amount: U256) -> Result<u64, DeliveryError> {
    u64::try_from(amount).map_err(|_| amount_error(delivery, "larger than the chain's calls take"))
}

fn amount_error(delivery: &Delivery, reason: &str) -> DeliveryError {
    DeliveryError::Amount {
        chain: delivery.chain.clone(),
        amount: delivery.amount.clone(),
        reason: reason.to_owned(),
    }
}
