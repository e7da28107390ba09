//! The Sandbox's Tron chain: no Tron node runs on these machines, so `chains/tron-node.mjs` stands in for java-tron's
//! HTTP API on loopback. It really decodes each broadcast transaction's protobuf, checks its signature against the
//! owner, its TaPoS block, expiration, fee limit and bandwidth, and refuses anything else with java-tron's codes; the
//! contract calls it accepts run on a real EVM (an anvil it starts), where the Sandbox's gateway contract and a test
//! TRC-20 token sit at the catalogue's Tron addresses. Energy is the EVM's gas. Every call here goes to that node.

use std::time::Duration;

use gateway_client::TokenRegistry;
use gateway_client::chains::tron;
use serde_json::{Value, json};

use crate::catalogue::{AssetClass, Catalogue};
use crate::local_chain::FamilyTamper;

pub use crate::payload::sandbox::SANDBOX_GENESIS_BLOCK;

/// A Tron address that receives what a tampered answer diverts.
pub const ATTACKER: &str = "TSzYNvgo9jvrEkQrouWHntXVuocnpXHQbW";

/// A Tron fee limit far above any sensible cap: 10,000 TRX, in sun.
pub const ABSURD_FEE_LIMIT_SUN: u64 = 10_000_000_000;

/// TRX's decimals (a sun is a millionth).
pub const NATIVE_DECIMALS: u8 = 6;

/// The fee limit the simulated gateway puts on a Tron call, in sun: 100 TRX, the most the wallet may burn for
/// energy (the verifier accepts up to 300 TRX).
pub const FEE_LIMIT_SUN: u64 = 100_000_000;

/// Tron's own lie: the call allows a fee limit of 10,000 TRX. `false` for a lie of another family.
pub(crate) fn tamper(tamper: FamilyTamper, tx: &mut Value) -> bool {
    if tamper != FamilyTamper::TronFeeLimit {
        return false;
    }
    tx["feeLimit"] = json!(ABSURD_FEE_LIMIT_SUN.to_string());
    true
}

/// Why the node could not be started or used.
#[derive(Debug, thiserror::Error)]
pub enum TronNodeError {
    /// The stand-in's script could not be started (or its HTTP client built), or the node answered a block 0 that is
    /// not the Sandbox's.
    #[error(
        "the Tron stand-in could not be started ({0}); run `cargo xtask setup` (it installs its packages in chains/)"
    )]
    Start(String),
    /// The node answered an HTTP API call with an `Error` field.
    #[error("the local Tron node answered {path} with an error: {error}")]
    Api {
        /// The API path that was called, such as `/wallet/gettransactionbyid`.
        path: String,
        /// The node's `Error` value, as JSON text.
        error: String,
    },
    /// The node could not be reached, or its answer was not JSON.
    #[error("the local Tron node could not be reached: {0}")]
    Transport(String),
}

/// A running (or attached) Sandbox Tron node.
pub struct TronNode {
    url: String,
    http: reqwest::Client,
    _lifeline: Option<tokio::process::ChildStdin>,
    _child: Option<tokio::process::Child>,
}

impl std::fmt::Debug for TronNode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TronNode").field("url", &self.url).finish()
    }
}

fn client() -> Result<reqwest::Client, TronNodeError> {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .map_err(|e| TronNodeError::Start(e.to_string()))
}

/// The node's configuration: the Sandbox's gateway contract, the production shape's entry contract (at the address
/// the real service pins on Tron) with a stranger's contract for its tampers, and a test token at each catalogue
/// TRC-20.
fn config() -> Value {
    let registry = TokenRegistry::builtin();
    let tokens: Vec<Value> = Catalogue::default()
        .tokens()
        .iter()
        .filter(|t| t.chain == "tron" && t.class != AssetClass::Native)
        .map(|t| {
            let info = registry.get(t.chain, t.address);
            json!({
                "address": t.address,
                "symbol": info.map_or("TEST", |i| i.symbol.as_str()),
                "name": info.map_or("Test token", |i| i.name.as_str()),
                "decimals": info.map_or(18, |i| i.decimals),
            })
        })
        .collect();
    json!({
        "gateway": crate::quote::gateway_contract("tron"),
        "entry": crate::quote::entry_of("tron"),
        "thief": ATTACKER,
        "tokens": tokens,
    })
}

impl TronNode {
    /// Starts the stand-in (and its anvil) on free loopback ports and waits until it says it listens.
    pub async fn start() -> Result<Self, TronNodeError> {
        let args = ["--config".to_owned(), config().to_string()];
        let started = crate::script_node::start("tron-node.mjs", &args)
            .await
            .map_err(TronNodeError::Start)?;
        let node = Self {
            url: started.url,
            http: client()?,
            _lifeline: started.lifeline,
            _child: Some(started.child),
        };
        node.check_genesis().await?;
        Ok(node)
    }

    /// A node already running at `url`.
    pub async fn attach(url: &str) -> Result<Self, TronNodeError> {
        let node = Self {
            url: url.trim_end_matches('/').to_owned(),
            http: client()?,
            _lifeline: None,
            _child: None,
        };
        node.check_genesis().await?;
        Ok(node)
    }

    async fn check_genesis(&self) -> Result<(), TronNodeError> {
        let block = self
            .post("/wallet/getblockbynum", json!({"num": 0}))
            .await?;
        if block["blockID"].as_str() != Some(SANDBOX_GENESIS_BLOCK) {
            return Err(TronNodeError::Start(format!(
                "{} answered block 0 {}, not the Sandbox's",
                self.url, block["blockID"]
            )));
        }
        Ok(())
    }

    /// The node's base URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// One call of the HTTP API; its JSON answer (an `Error` field is an error).
    pub async fn post(&self, path: &str, body: Value) -> Result<Value, TronNodeError> {
        post(&self.http, &self.url, path, body).await
    }

    /// Sets `address`'s TRX balance to `sun`.
    pub async fn fund(&self, address: &str, sun: u64) -> Result<(), TronNodeError> {
        self.post("/sandbox/fund", json!({"address": address, "sun": sun}))
            .await
            .map(drop)
    }

    /// Mints `amount` (smallest units) of the test token `token` to `address`.
    pub async fn mint(&self, token: &str, address: &str, amount: u64) -> Result<(), TronNodeError> {
        self.post(
            "/sandbox/mint",
            json!({"token": token, "address": address, "amount": amount.to_string()}),
        )
        .await
        .map(drop)
    }

    /// Moves the node's clock on by two minutes: an unsigned transaction's expiration passes.
    pub async fn expire(&self) -> Result<(), TronNodeError> {
        self.post("/sandbox/expire", json!({})).await.map(drop)
    }

    /// Funds a Sandbox wallet's address: 1,000 TRX, and of each catalogue TRC-20 10,000 (dollar tokens) or 1.
    pub async fn fund_sandbox_wallet(&self, address: &str) -> Result<(), TronNodeError> {
        self.fund(address, 1_000_000_000).await?;
        for funding in Catalogue::default().sandbox_funding("tron", 18) {
            self.mint(funding.token, address, funding.amount_u64())
                .await?;
        }
        Ok(())
    }
}

/// One call of the Tron HTTP API at `base`.
pub async fn post(
    http: &reqwest::Client,
    base: &str,
    path: &str,
    body: Value,
) -> Result<Value, TronNodeError> {
    let answer: Value = http
        .post(format!("{base}{path}"))
        .json(&body)
        .send()
        .await
        .map_err(|e| TronNodeError::Transport(e.to_string()))?
        .json()
        .await
        .map_err(|e| TronNodeError::Transport(e.to_string()))?;
    if let Some(error) = answer.get("Error") {
        return Err(TronNodeError::Api {
            path: path.to_owned(),
            error: error.to_string(),
        });
    }
    Ok(answer)
}

/// What the order's source transaction on Tron must be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectedTronCall {
    /// The Tron accounts the order is listed under (its sender among them): the signer must be one.
    pub owners: Vec<[u8; 21]>,
    /// The contract the transaction must call (the `to` create-order returned), as a 21-byte Tron account.
    pub contract: [u8; 21],
    /// The call data create-order returned; the transaction must carry exactly these bytes.
    pub data: Vec<u8>,
    /// The TRX the call must send, in sun (0 when create-order gave no value).
    pub call_value: i64,
    /// The source token (`None` for TRX) and the quoted amount that must move to the contract.
    pub token: Option<[u8; 21]>,
    /// The quoted input in the token's smallest unit. For a TRC-20 source, the receipt must show a `Transfer` of
    /// exactly this from the signer to the contract; a TRX source is checked through `call_value` instead.
    pub amount: alloy_primitives::U256,
    /// Who receives the token: the contract called, or, when it is the entry contract's `exec` (the production
    /// shape), the gateway contract it calls.
    pub receiver: [u8; 21],
}

/// register-tx of an order paid from Tron when the gateway has a Tron node: the registered id must be a transaction
/// the node executed successfully, signed by the order's sender, whose single contract calls the order's contract
/// with the order's data and value, and whose receipt shows the order's tokens moving from the sender to the
/// contract. The error is the sentence after the field name.
pub async fn check_registered(
    url: &str,
    expected: &ExpectedTronCall,
    id: &str,
) -> Result<(), String> {
    let id = id.trim().trim_start_matches("0x").to_ascii_lowercase();
    let http = client().map_err(|e| e.to_string())?;
    let api = |e: TronNodeError| format!("{e}; try again in a moment");
    let tx = post(
        &http,
        url,
        "/wallet/gettransactionbyid",
        json!({"value": id}),
    )
    .await
    .map_err(api)?;
    if tx.get("txID").is_none() {
        return Err(format!(
            "Tron has no transaction {id}; broadcast it first and register it once it is confirmed"
        ));
    }
    let raw_hex = tx["raw_data_hex"].as_str().unwrap_or_default();
    let raw_bytes = alloy_primitives::hex::decode(raw_hex)
        .map_err(|_| format!("the node's copy of {id} is unreadable"))?;
    let raw = tron::decode_raw_exact(&raw_bytes)
        .map_err(|e| format!("the transaction {id} is not the order's: {e}"))?;
    let trigger = tron::trigger_of(&raw)
        .map_err(|e| format!("the transaction {id} is not the order's: {e}"))?;
    if trigger.contract_address != expected.contract
        || trigger.data != expected.data
        || trigger.call_value != expected.call_value
    {
        return Err(format!(
            "the transaction {id} does not call the order's contract with the order's data and value; send the call create-order returned, unchanged"
        ));
    }
    let signature = tx["signature"][0]
        .as_str()
        .and_then(|s| alloy_primitives::hex::decode(s).ok())
        .unwrap_or_default();
    let owner: Option<[u8; 21]> = trigger.owner_address.as_slice().try_into().ok();
    let signed_by_sender = owner.is_some_and(|owner| {
        expected.owners.contains(&owner) && tron::signer_of(&raw_bytes, &signature) == Some(owner)
    });
    let Some(owner) = owner.filter(|_| signed_by_sender) else {
        return Err(format!(
            "the transaction {id} is not signed by the order's sender"
        ));
    };
    if tx["ret"][0]["contractRet"].as_str() != Some("SUCCESS") {
        return Err(format!(
            "the transaction {id} failed on Tron ({}) and paid nothing",
            tx["ret"][0]["contractRet"]
        ));
    }
    let Some(token) = expected.token else {
        return Ok(());
    };
    let info = post(
        &http,
        url,
        "/wallet/gettransactioninfobyid",
        json!({"value": id}),
    )
    .await
    .map_err(api)?;
    let topic =
        |account: &[u8; 21]| format!("{:0>64}", alloy_primitives::hex::encode(&account[1..]));
    let transfer = alloy_primitives::hex::encode(alloy_primitives::keccak256(
        "Transfer(address,address,uint256)",
    ));
    let moved = info["log"].as_array().into_iter().flatten().any(|log| {
        let topics: Vec<&str> = log["topics"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let amount = log["data"]
            .as_str()
            .and_then(|d| alloy_primitives::U256::from_str_radix(d, 16).ok());
        log["address"].as_str() == Some(&alloy_primitives::hex::encode(&token[1..]))
            && topics.len() == 3
            && topics[0] == transfer
            && topics[1] == topic(&owner)
            && topics[2] == topic(&expected.receiver)
            && amount == Some(expected.amount)
    });
    if moved {
        Ok(())
    } else {
        Err(format!(
            "the transaction {id} succeeded but moved no {} of the order's token to the gateway",
            expected.amount
        ))
    }
}

impl ExpectedTronCall {
    /// The call create-order handed out for `order` (an offramp or token swap from Tron).
    pub fn of(order: &crate::orders::Order) -> Option<Self> {
        let tx = order.created.as_object()?.values().next()?.get("tx")?;
        let token = match tron::parse_account(&order.src.token) {
            Some(token) => Some(token),
            None if order
                .src
                .token
                .trim_start_matches("0x")
                .bytes()
                .all(|b| b == b'0') =>
            {
                None
            }
            None => return None,
        };
        let contract = tron::parse_account(tx.get("to")?.as_str()?)?;
        let data = alloy_primitives::hex::decode(tx.get("data")?.as_str()?).ok()?;
        let receiver = {
            use alloy_sol_types::SolCall;
            crate::payload::evm::IAllowanceHolderExec::execCall::abi_decode(&data)
                .ok()
                .map_or(contract, |c| tron::account_of_body(c.target.0.0))
        };
        Some(Self {
            owners: order
                .addresses
                .iter()
                .filter_map(|a| tron::parse_account(a))
                .collect(),
            contract,
            receiver,
            data,
            call_value: tx
                .get("value")
                .and_then(Value::as_str)
                .map_or(Some(0), |v| v.parse().ok())?,
            token,
            amount: order.src.amount.parse().ok()?,
        })
    }
}

/// The Tron family's local chain (the stand-in node): [`crate::chain_node::LocalChain`].
pub struct TronChain;

crate::chain_node::local_chain!(TronChain, runs_before_order: true);
crate::chain_node::running_node!(TronNode);

/// The Sandbox's node (one serves the family's one chain).
async fn start_node(_chain: &str) -> Result<TronNode, TronNodeError> {
    TronNode::start().await
}

/// The Sandbox's node at `url` (it holds what the Sandbox places from its start).
async fn attach_node(_chain: &str, url: &str, _place: bool) -> Result<TronNode, TronNodeError> {
    TronNode::attach(url).await
}

/// register-tx's check on the Tron node of the call create-order handed out for `order` (none to check: `Ok`).
async fn check_paid(url: &str, order: &crate::orders::Order, hash: &str) -> Result<(), String> {
    match ExpectedTronCall::of(order) {
        Some(expected) => check_registered(url, &expected, hash).await,
        None => Ok(()),
    }
}

/// The order's transaction among the node's newest blocks: one that passes [`check_registered`].
async fn find_payment(url: &str, order: &crate::orders::Order) -> Option<String> {
    let expected = ExpectedTronCall::of(order)?;
    let http = crate::chain_node::http()?;
    let call = |path: &'static str, body: Value| {
        let http = http.clone();
        async move { post(&http, url, path, body).await.ok() }
    };
    let head = call("/wallet/getnowblock", json!({})).await?;
    let head = head["block_header"]["raw_data"]["number"]
        .as_u64()
        .unwrap_or(0);
    let blocks = crate::chain_node::BLOCKS_READ;
    for number in (head.saturating_sub(blocks)..=head).rev() {
        let block = call("/wallet/getblockbynum", json!({"num": number})).await?;
        for tx in block["transactions"].as_array().into_iter().flatten() {
            let Some(id) = tx["txID"].as_str() else {
                continue;
            };
            if check_registered(url, &expected, id).await.is_ok() {
                return Some(id.to_owned());
            }
        }
    }
    None
}

/// The TRC-20 token minted to the receiver, or TRX added to its balance.
async fn deliver(
    url: &str,
    delivery: &crate::orders::Delivery,
    amount: alloy_primitives::U256,
) -> Result<(), crate::chain_node::DeliveryError> {
    let node = |e: &dyn std::fmt::Display| crate::chain_node::node_error(delivery, e);
    let units = crate::chain_node::small(delivery, amount)?;
    let tron = TronNode::attach(url).await.map_err(|e| node(&e))?;
    if gateway_client::wire::is_native_token(&delivery.chain, &delivery.token) {
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
