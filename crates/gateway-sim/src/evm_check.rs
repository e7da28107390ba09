//! register-tx on an EVM chain that has a real node behind it (the Sandbox's anvil, [`crate::evm_node`]): the
//! registered `src_tx_hash` (V1/V2: `evm_txhash`) is accepted only when that node has the transaction's receipt, the
//! transaction succeeded, it called the order's contract with the order's calldata and value, and the order's tokens
//! moved to the contract (an ERC-20 `Transfer` of the quoted amount from the sender, or the native amount as value).
//! Only then does the order go to inProgress. Chains without a node keep the published service's hash-shape check.

use std::time::Duration;

use alloy_primitives::{Address, B256, U256, hex, keccak256};
use serde_json::{Value, json};

use crate::orders::Order;

/// What the order's source transaction must be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectedCall {
    /// The contract the transaction must call: the `to` of the transaction create-order returned.
    pub to: Address,
    /// The calldata create-order returned; the transaction must carry exactly these bytes.
    pub data: Vec<u8>,
    /// The native value, in wei, the transaction must send (zero when create-order gave none).
    pub value: U256,
    /// The source token (the zero address for the native coin) and the quoted amount that must move.
    pub token: Address,
    /// The quoted input in the token's smallest unit. For an ERC-20 source, the receipt must show a `Transfer` of
    /// exactly this from the sender to `receiver`; a native source is checked through `value` instead.
    pub amount: U256,
    /// Who receives the token: the contract called, or, when it is an entry contract's `exec` (the production
    /// shape), the gateway contract it calls.
    pub receiver: Address,
}

impl ExpectedCall {
    /// The call create-order handed out for `order` (an offramp or token swap on an EVM chain).
    pub fn of(order: &Order) -> Option<Self> {
        let tx = order.created.as_object()?.values().next()?.get("tx")?;
        let to: Address = tx.get("to")?.as_str()?.parse().ok()?;
        let data = hex::decode(tx.get("data")?.as_str()?).ok()?;
        let receiver = exec_target(&data).unwrap_or(to);
        Some(Self {
            to,
            receiver,
            data,
            value: tx
                .get("value")
                .and_then(Value::as_str)
                .map_or(Some(U256::ZERO), |v| v.parse().ok())?,
            token: order.src.token.parse().ok()?,
            amount: order.src.amount.parse().ok()?,
        })
    }
}

/// The contract an entry contract's `exec` calls, when `data` is one.
fn exec_target(data: &[u8]) -> Option<Address> {
    use alloy_sol_types::SolCall;
    crate::payload::evm::IAllowanceHolderExec::execCall::abi_decode(data)
        .ok()
        .map(|c| c.target)
}

/// `Transfer(address,address,uint256)`.
fn transfer_topic() -> B256 {
    keccak256("Transfer(address,address,uint256)")
}

async fn rpc(
    http: &reqwest::Client,
    url: &str,
    method: &str,
    params: Value,
) -> Result<Value, String> {
    crate::jsonrpc::call(http, url, method, params)
        .await
        .map_err(|failure| match failure {
            crate::jsonrpc::RpcFailure::Transport(e) => {
                format!("the chain's node could not be reached ({e}); try again in a moment")
            }
            crate::jsonrpc::RpcFailure::Refused { method, error } => {
                format!("the chain's node refused {method}: {error}")
            }
        })
}

fn quantity(value: &Value) -> Option<U256> {
    value
        .as_str()
        .and_then(|s| U256::from_str_radix(s.trim_start_matches("0x"), 16).ok())
}

/// Checks `hash` on the node at `url` against `expected`. The error is the sentence after the field name.
pub async fn check_registered(
    url: &str,
    expected: &ExpectedCall,
    hash: &str,
) -> Result<(), String> {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .map_err(|e| e.to_string())?;
    let tx = rpc(&http, url, "eth_getTransactionByHash", json!([hash])).await?;
    if tx.is_null() {
        return Err(format!(
            "the chain has no transaction {hash}; broadcast it first and register it once it is mined"
        ));
    }
    let receipt = rpc(&http, url, "eth_getTransactionReceipt", json!([hash])).await?;
    if receipt.is_null() {
        return Err(format!(
            "the transaction {hash} is not mined yet; register it again once it has a receipt"
        ));
    }
    if receipt.get("status").and_then(Value::as_str) != Some("0x1") {
        return Err(format!(
            "the transaction {hash} failed on chain (it reverted) and paid nothing; the order still waits for a transaction that succeeds"
        ));
    }
    let to: Option<Address> = tx
        .get("to")
        .and_then(Value::as_str)
        .and_then(|t| t.parse().ok());
    if to != Some(expected.to) {
        return Err(format!(
            "the transaction {hash} called {}, not the order's contract {}; send the transaction create-order returned",
            to.map_or_else(|| "no contract".to_owned(), |a| a.to_checksum(None)),
            expected.to.to_checksum(None)
        ));
    }
    let input = tx
        .get("input")
        .and_then(Value::as_str)
        .and_then(|d| hex::decode(d).ok())
        .unwrap_or_default();
    if input != expected.data {
        return Err(format!(
            "the transaction {hash} does not carry the order's calldata; send the transaction create-order returned, unchanged"
        ));
    }
    if tx.get("value").and_then(quantity) != Some(expected.value) {
        return Err(format!(
            "the transaction {hash} sent a different native value than the order's ({} wei)",
            expected.value
        ));
    }
    if expected.token.is_zero() {
        return Ok(());
    }
    let from: Option<Address> = tx
        .get("from")
        .and_then(Value::as_str)
        .and_then(|t| t.parse().ok());
    let topic = |address: Address| B256::left_padding_from(address.as_slice());
    let moved = receipt
        .get("logs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|log| {
            let address: Option<Address> = log
                .get("address")
                .and_then(Value::as_str)
                .and_then(|a| a.parse().ok());
            let topics: Vec<B256> = log
                .get("topics")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|t| t.as_str()?.parse().ok())
                .collect();
            let amount = log
                .get("data")
                .and_then(Value::as_str)
                .and_then(|d| hex::decode(d).ok())
                .filter(|d| d.len() == 32)
                .map(|d| U256::from_be_slice(&d));
            address == Some(expected.token)
                && topics.len() == 3
                && topics[0] == transfer_topic()
                && from.is_some_and(|f| topics[1] == topic(f))
                && topics[2] == topic(expected.receiver)
                && amount == Some(expected.amount)
        });
    if moved {
        Ok(())
    } else {
        Err(format!(
            "the transaction {hash} succeeded but moved no {} of the order's token to the gateway",
            expected.amount
        ))
    }
}

/// The EVM family's local chain (anvil): [`crate::chain_node::LocalChain`].
pub struct EvmChain;

crate::chain_node::local_chain!(EvmChain);
crate::chain_node::running_node!(crate::evm_node::EvmNode);

/// anvil for `chain` with the Sandbox's contracts and tokens.
async fn start_node(chain: &str) -> Result<crate::evm_node::EvmNode, crate::evm_node::NodeError> {
    let node = crate::evm_node::EvmNode::start(chain).await?;
    node.place_sandbox_contracts().await?;
    Ok(node)
}

/// The anvil of `chain` at `url`; with `place`, the Sandbox's contracts and tokens placed on it.
async fn attach_node(
    chain: &str,
    url: &str,
    place: bool,
) -> Result<crate::evm_node::EvmNode, crate::evm_node::NodeError> {
    let node = crate::evm_node::EvmNode::attach(chain, url).await?;
    if place {
        node.place_sandbox_contracts().await?;
    }
    Ok(node)
}

/// register-tx's check on anvil of the call create-order handed out for `order` (none to check: `Ok`).
async fn check_paid(url: &str, order: &Order, hash: &str) -> Result<(), String> {
    match ExpectedCall::of(order) {
        Some(expected) => check_registered(url, &expected, hash).await,
        None => Ok(()),
    }
}

/// The order's call among the node's newest blocks: one to its contract that passes [`check_registered`].
async fn find_payment(url: &str, order: &Order) -> Option<String> {
    let expected = ExpectedCall::of(order)?;
    let http = crate::chain_node::http()?;
    let head = crate::jsonrpc::call(&http, url, "eth_blockNumber", json!([]))
        .await
        .ok()?;
    let head = u64::from_str_radix(head.as_str()?.trim_start_matches("0x"), 16).ok()?;
    let blocks = crate::chain_node::BLOCKS_READ;
    for number in (head.saturating_sub(blocks)..=head).rev() {
        let block = crate::jsonrpc::call(
            &http,
            url,
            "eth_getBlockByNumber",
            json!([format!("0x{number:x}"), true]),
        )
        .await
        .ok()?;
        for tx in block["transactions"].as_array().into_iter().flatten() {
            let to: Option<Address> = tx["to"].as_str().and_then(|t| t.parse().ok());
            let (Some(hash), Some(to)) = (tx["hash"].as_str(), to) else {
                continue;
            };
            if to == expected.to && check_registered(url, &expected, hash).await.is_ok() {
                return Some(hash.to_owned());
            }
        }
    }
    None
}

/// The token minted to the receiver, or the native coin added to its balance.
async fn deliver(
    url: &str,
    delivery: &crate::orders::Delivery,
    amount: U256,
) -> Result<(), crate::chain_node::DeliveryError> {
    let node = |e: &dyn std::fmt::Display| crate::chain_node::node_error(delivery, e);
    let chain = delivery.chain.as_str();
    let evm = crate::evm_node::EvmNode::attach(chain, url)
        .await
        .map_err(|e| node(&e))?;
    if gateway_client::wire::is_native_token(chain, &delivery.token) {
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
