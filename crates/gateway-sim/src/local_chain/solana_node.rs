//! A real local Solana chain behind the Sandbox: LiteSVM (the Solana runtime, npm `litesvm`, installed in `chains/`
//! by `cargo xtask setup`) behind the JSON-RPC methods a wallet uses, served by `chains/solana-node.mjs` on loopback.
//! Every transaction sent to it is simulated, then executed by the runtime (signatures, fee payer, blockhash,
//! programs); the Sandbox's gateway program is a real (minimal) program there. Never a mock of JSON-RPC: every call
//! here goes to the node.

use std::time::Duration;

use gateway_client::TokenRegistry;
use serde_json::{Value, json};

use crate::catalogue::Catalogue;

pub use crate::payload::sandbox::SANDBOX_GENESIS;
pub use crate::script_node::NODE_ENV;

mod tamper;
pub(crate) use tamper::tamper;

/// A Solana account that receives what a tampered answer diverts.
pub const ATTACKER: &str = "DZuyd1ctzUF8wqXQ8Zfu7pYtQY8SGphWvty3qhLRxxzV";

/// SOL's decimals (a lamport is a billionth).
pub const NATIVE_DECIMALS: u8 = 9;

/// The whole transaction of an order from `src_chain` (a Solana chain): an unsigned v0 transaction calling the
/// gateway program, paid for by the quote's sender ([`crate::payload::solana::solana_tx`]).
pub(crate) fn whole_order_tx(
    src_chain: &str,
    args: &crate::payload::OrderTxArgs<'_>,
) -> Result<crate::orders::WholeTx, crate::payload::PayloadError> {
    let sender = args
        .sender
        .ok_or_else(|| crate::payload::PayloadError::InvalidAddress {
            field: "sender",
            value: String::new(),
            reason: "a Solana transaction needs its fee payer".into(),
        })?;
    let transaction = crate::payload::solana::solana_tx(
        args.order_id,
        args.tx_to,
        sender,
        args.token,
        args.amount,
        args.dst_chain,
        args.dst_token,
        args.recipient,
        args.min_out,
        args.recent_blockhash,
    )?;
    Ok(crate::orders::WholeTx {
        chain_id: crate::payload::chain_id(src_chain).unwrap_or_default(),
        transaction,
    })
}

/// Why the node could not be started or used.
#[derive(Debug, thiserror::Error)]
pub enum SolanaNodeError {
    /// The node's script could not be started (or its HTTP client built), or the node answered a genesis hash that
    /// is not the Sandbox's.
    #[error(
        "the Solana node could not be started ({0}); run `cargo xtask setup` (it installs litesvm in chains/)"
    )]
    Start(String),
    /// The node answered a JSON-RPC call with an error object, or with a result that is not what was asked for.
    #[error("the local Solana node answered {method} with an error: {error}")]
    Rpc {
        /// The JSON-RPC method that was called.
        method: String,
        /// The node's error object as text, or what was wrong with its answer.
        error: String,
    },
    /// The node could not be reached, or its answer was not JSON.
    #[error("the local Solana node could not be reached: {0}")]
    Transport(String),
}

/// A running (or attached) Sandbox Solana node.
pub struct SolanaNode {
    url: String,
    http: reqwest::Client,
    /// The write end of the node's standard input: the node ends when it closes (this dropped, or this process
    /// ended however it ended).
    _lifeline: Option<tokio::process::ChildStdin>,
    _child: Option<tokio::process::Child>,
}

impl std::fmt::Debug for SolanaNode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolanaNode")
            .field("url", &self.url)
            .finish()
    }
}

fn client() -> Result<reqwest::Client, SolanaNodeError> {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .map_err(|e| SolanaNodeError::Start(e.to_string()))
}

impl SolanaNode {
    /// Starts the node on a free loopback port and waits until it says it listens.
    pub async fn start() -> Result<Self, SolanaNodeError> {
        let started = crate::script_node::start("solana-node.mjs", &["0".to_owned()])
            .await
            .map_err(SolanaNodeError::Start)?;
        let node = Self {
            url: started.url,
            http: client()?,
            _lifeline: started.lifeline,
            _child: Some(started.child),
        };
        node.check_genesis().await?;
        Ok(node)
    }

    /// A node already running at `url` (started by a test that outlives the process using it).
    pub async fn attach(url: &str) -> Result<Self, SolanaNodeError> {
        let node = Self {
            url: url.to_owned(),
            http: client()?,
            _lifeline: None,
            _child: None,
        };
        node.check_genesis().await?;
        Ok(node)
    }

    async fn check_genesis(&self) -> Result<(), SolanaNodeError> {
        let genesis = self.rpc("getGenesisHash", json!([])).await?;
        if genesis.as_str() != Some(SANDBOX_GENESIS) {
            return Err(SolanaNodeError::Start(format!(
                "{} answered the genesis hash {genesis}, not the Sandbox's",
                self.url
            )));
        }
        Ok(())
    }

    /// The node's JSON-RPC URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// One JSON-RPC call; the result, or the node's error.
    pub async fn rpc(&self, method: &str, params: Value) -> Result<Value, SolanaNodeError> {
        rpc(&self.http, &self.url, method, params).await
    }

    /// Gives `owner` `lamports` of SOL.
    pub async fn airdrop(&self, owner: &str, lamports: u64) -> Result<(), SolanaNodeError> {
        self.rpc("sandbox_airdrop", json!([owner, lamports]))
            .await
            .map(drop)
    }

    /// Gives `owner` `amount` (smallest units) of the SPL token `mint` in its associated token account, creating the
    /// mint (with `decimals`) and the account when they do not exist. Returns the token account.
    pub async fn mint_token(
        &self,
        mint: &str,
        owner: &str,
        amount: u64,
        decimals: u8,
    ) -> Result<String, SolanaNodeError> {
        let account = self
            .rpc("sandbox_mintToken", json!([mint, owner, amount, decimals]))
            .await?;
        Ok(account.as_str().unwrap_or_default().to_owned())
    }

    /// Makes the latest blockhash expire (the next one differs): a transaction built on it is refused.
    pub async fn expire_blockhash(&self) -> Result<(), SolanaNodeError> {
        self.rpc("sandbox_expireBlockhash", json!([]))
            .await
            .map(drop)
    }

    /// Funds a Sandbox wallet's address: 10 SOL, and of each catalogue SPL token 10,000 (dollar tokens) or 1.
    pub async fn fund_sandbox_wallet(&self, owner: &str) -> Result<(), SolanaNodeError> {
        self.airdrop(owner, 10_000_000_000).await?;
        for funding in Catalogue::default().sandbox_funding("solana", 9) {
            self.mint_token(funding.token, owner, funding.amount_u64(), funding.decimals)
                .await?;
        }
        Ok(())
    }
}

/// One JSON-RPC call to the Solana node at `url`.
pub async fn rpc(
    http: &reqwest::Client,
    url: &str,
    method: &str,
    params: Value,
) -> Result<Value, SolanaNodeError> {
    crate::jsonrpc::call(http, url, method, params)
        .await
        .map_err(|failure| match failure {
            crate::jsonrpc::RpcFailure::Transport(e) => SolanaNodeError::Transport(e),
            crate::jsonrpc::RpcFailure::Refused { method, error } => {
                SolanaNodeError::Rpc { method, error }
            }
        })
}

/// The latest blockhash of the node at `url`, as 32 bytes.
pub async fn latest_blockhash(url: &str) -> Result<[u8; 32], SolanaNodeError> {
    let answer = rpc(&client()?, url, "getLatestBlockhash", json!([])).await?;
    let text = answer["value"]["blockhash"].as_str().unwrap_or_default();
    gateway_client::base58::decode(text, 32)
        .ok()
        .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
        .ok_or_else(|| SolanaNodeError::Rpc {
            method: "getLatestBlockhash".into(),
            error: format!("{text:?} is not a blockhash"),
        })
}

/// register-tx of an order paid from Solana when the gateway has a Solana node: the registered signature must be a
/// transaction the node executed without error, signed by the order's fee payer, whose message is exactly the one
/// create-order returned (the client signs it unchanged). The error is the sentence after the field name.
pub async fn check_registered(url: &str, created_b64: &str, signature: &str) -> Result<(), String> {
    use base64::Engine as _;
    use bincode::Options as _;
    use solana_transaction::versioned::VersionedTransaction;

    let decode = |b64: &str| -> Option<VersionedTransaction> {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(b64.trim())
            .ok()?;
        crate::payload::solana::wire_options()
            .deserialize(&bytes)
            .ok()
    };
    let http = client().map_err(|e| e.to_string())?;
    let answer = rpc(
        &http,
        url,
        "getTransaction",
        json!([signature, {"encoding": "base64", "maxSupportedTransactionVersion": 0}]),
    )
    .await
    .map_err(|e| format!("{e}; try again in a moment"))?;
    if answer.is_null() {
        return Err(format!(
            "Solana has no transaction {signature}; send it first and register it once it is confirmed"
        ));
    }
    if !answer["meta"]["err"].is_null() {
        return Err(format!(
            "the transaction {signature} failed on Solana ({}) and paid nothing",
            answer["meta"]["err"]
        ));
    }
    let executed = answer["transaction"][0]
        .as_str()
        .and_then(decode)
        .ok_or_else(|| format!("the node's copy of {signature} is unreadable"))?;
    let created = decode(created_b64)
        .ok_or_else(|| "the order's own transaction is unreadable".to_owned())?;
    if executed.message != created.message {
        return Err(format!(
            "the transaction {signature} is not the order's transaction: sign the transaction create-order returned, unchanged"
        ));
    }
    if executed
        .signatures
        .first()
        .map(ToString::to_string)
        .as_deref()
        != Some(signature)
    {
        return Err(format!(
            "{signature} is not the fee payer's signature of that transaction"
        ));
    }
    Ok(())
}

/// The Solana family's local chain (the LiteSVM node): [`crate::chain_node::LocalChain`].
pub struct SolanaChain;

crate::chain_node::local_chain!(SolanaChain, recent_blockhash: recent_blockhash, runs_before_order: true);
crate::chain_node::running_node!(SolanaNode);

/// The Sandbox's node (one serves the family's one chain).
async fn start_node(_chain: &str) -> Result<SolanaNode, SolanaNodeError> {
    SolanaNode::start().await
}

/// The Sandbox's node at `url` (it holds what the Sandbox places from its start).
async fn attach_node(_chain: &str, url: &str, _place: bool) -> Result<SolanaNode, SolanaNodeError> {
    SolanaNode::attach(url).await
}

/// register-tx's check on the Solana node of the transaction create-order handed out for `order` (none: `Ok`).
async fn check_paid(url: &str, order: &crate::orders::Order, hash: &str) -> Result<(), String> {
    match created_transaction(order) {
        Some(created) => check_registered(url, created, hash).await,
        None => Ok(()),
    }
}

/// The node's latest blockhash, which create-order builds a Solana transaction on.
async fn recent_blockhash(url: &str) -> Result<[u8; 32], String> {
    latest_blockhash(url).await.map_err(|e| e.to_string())
}

/// The base64 transaction create-order handed out for `order`.
fn created_transaction(order: &crate::orders::Order) -> Option<&str> {
    order
        .created
        .as_object()?
        .values()
        .next()?
        .get("tx")?
        .get("transaction")?
        .as_str()
}

/// The order's transaction among the newest signatures of its addresses: the one that passes [`check_registered`].
async fn find_payment(url: &str, order: &crate::orders::Order) -> Option<String> {
    let created = created_transaction(order)?;
    let http = crate::chain_node::http()?;
    for address in order.addresses.iter().filter(|a| {
        gateway_client::address::validate_address(
            "solana",
            a,
            gateway_client::address::BitcoinNetwork::Mainnet,
        )
        .is_ok()
    }) {
        let signatures = crate::jsonrpc::call(
            &http,
            url,
            "getSignaturesForAddress",
            json!([address, {"limit": crate::chain_node::BLOCKS_READ}]),
        )
        .await
        .ok()?;
        for entry in signatures.as_array().into_iter().flatten() {
            let Some(signature) = entry["signature"].as_str() else {
                continue;
            };
            if check_registered(url, created, signature).await.is_ok() {
                return Some(signature.to_owned());
            }
        }
    }
    None
}

/// The SPL token minted to the receiver, or SOL airdropped to it.
async fn deliver(
    url: &str,
    delivery: &crate::orders::Delivery,
    amount: alloy_primitives::U256,
) -> Result<(), crate::chain_node::DeliveryError> {
    let node = |e: &dyn std::fmt::Display| crate::chain_node::node_error(delivery, e);
    let units = crate::chain_node::small(delivery, amount)?;
    let solana = SolanaNode::attach(url).await.map_err(|e| node(&e))?;
    if gateway_client::wire::is_native_token(&delivery.chain, &delivery.token) {
        solana
            .airdrop(&delivery.to, units)
            .await
            .map_err(|e| node(&e))
    } else {
        let decimals = TokenRegistry::builtin()
            .get(&delivery.chain, &delivery.token)
            .map_or(9, |t| t.decimals);
        solana
            .mint_token(&delivery.token, &delivery.to, units, decimals)
            .await
            .map(drop)
            .map_err(|e| node(&e))
    }
}
