//! V4's offramps and token swaps are not registered: the gateway reads their transactions from the source chain.
//! Here the simulated gateway does the same on the chains that have a node: it looks through the node's recent
//! transactions for one that pays the order, by the same checks register-tx applies ([`crate::evm_check`],
//! [`crate::tron_node::check_registered`], [`crate::solana_node::check_registered`]), and records it as the order's
//! transaction. A chain without a node has nothing to read: such an order waits, and expires as an unpaid one does.

use std::time::Duration;

use gateway_client::address::{ChainFamily, chain_family};
use serde_json::{Value, json};

use crate::evm_check::{self, ExpectedCall};
use crate::orders::Order;

/// How many of the newest blocks (on Solana, transactions) are looked through for an order's transaction.
pub const BLOCKS_READ: u64 = 256;

/// The transaction on the node at `url` that pays `order`, if there is one among the newest [`BLOCKS_READ`].
pub async fn find_payment(url: &str, order: &Order) -> Option<String> {
    match chain_family(&order.src.chain)? {
        ChainFamily::Evm => find_on_evm(url, order).await,
        ChainFamily::Tron => find_on_tron(url, order).await,
        ChainFamily::Solana => find_on_solana(url, order).await,
        ChainFamily::Bitcoin => None,
    }
}

fn http() -> Option<reqwest::Client> {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .ok()
}

async fn find_on_evm(url: &str, order: &Order) -> Option<String> {
    let expected = ExpectedCall::of(order)?;
    let http = http()?;
    let head = crate::jsonrpc::call(&http, url, "eth_blockNumber", json!([]))
        .await
        .ok()?;
    let head = u64::from_str_radix(head.as_str()?.trim_start_matches("0x"), 16).ok()?;
    for number in (head.saturating_sub(BLOCKS_READ)..=head).rev() {
        let block = crate::jsonrpc::call(
            &http,
            url,
            "eth_getBlockByNumber",
            json!([format!("0x{number:x}"), true]),
        )
        .await
        .ok()?;
        for tx in block["transactions"].as_array().into_iter().flatten() {
            let to: Option<alloy_primitives::Address> =
                tx["to"].as_str().and_then(|t| t.parse().ok());
            let (Some(hash), Some(to)) = (tx["hash"].as_str(), to) else {
                continue;
            };
            if to == expected.to
                && evm_check::check_registered(url, &expected, hash)
                    .await
                    .is_ok()
            {
                return Some(hash.to_owned());
            }
        }
    }
    None
}

async fn find_on_tron(url: &str, order: &Order) -> Option<String> {
    let expected = crate::tron_node::ExpectedTronCall::of(order)?;
    let http = http()?;
    let post = |path: &'static str, body: Value| {
        let http = http.clone();
        async move { crate::tron_node::post(&http, url, path, body).await.ok() }
    };
    let head = post("/wallet/getnowblock", json!({})).await?;
    let head = head["block_header"]["raw_data"]["number"]
        .as_u64()
        .unwrap_or(0);
    for number in (head.saturating_sub(BLOCKS_READ)..=head).rev() {
        let block = post("/wallet/getblockbynum", json!({"num": number})).await?;
        for tx in block["transactions"].as_array().into_iter().flatten() {
            let Some(id) = tx["txID"].as_str() else {
                continue;
            };
            if crate::tron_node::check_registered(url, &expected, id)
                .await
                .is_ok()
            {
                return Some(id.to_owned());
            }
        }
    }
    None
}

async fn find_on_solana(url: &str, order: &Order) -> Option<String> {
    let created = order
        .created
        .as_object()?
        .values()
        .next()?
        .get("tx")?
        .get("transaction")?
        .as_str()?;
    let http = http()?;
    for address in order
        .addresses
        .iter()
        .filter(|a| gateway_client::address::validate_solana(a).is_ok())
    {
        let signatures = crate::jsonrpc::call(
            &http,
            url,
            "getSignaturesForAddress",
            json!([address, {"limit": BLOCKS_READ}]),
        )
        .await
        .ok()?;
        for entry in signatures.as_array().into_iter().flatten() {
            let Some(signature) = entry["signature"].as_str() else {
                continue;
            };
            if crate::solana_node::check_registered(url, created, signature)
                .await
                .is_ok()
            {
                return Some(signature.to_owned());
            }
        }
    }
    None
}
