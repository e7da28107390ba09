//! Orders: create-order, register-tx, get-order and get-orders over the simulated gateway's order book, with solver
//! liquidity, deterministic endings and an optional state file.
//!
//! # Life of an order
//!
//! create-order checks the quote (the onramp's `signedQuoteData`; for offramp and token swap, that this gateway issued
//! exactly this quote), refuses a second order from the same quote, reserves the output on the destination chain
//! from the solver's liquidity, and builds what the user must sign (see [`crate::payload`]).
//!
//! | time | status |
//! |---|---|
//! | created, no transaction registered | `inProgress` (no fields) |
//! | [`REGISTRATION_WINDOW_SECS`] after creation with nothing registered | `failed`; the reservation is released; register-tx answers `ORDER_EXPIRED` |
//! | registered at *r* | `inProgress` |
//! | offramp that will succeed, from *r* + T/2 | `inProgress` with `pending_btc_payment` (the Bitcoin payout, its txid and amount) |
//! | ending `success`, from *r* + T | `success` with `received_tokens` (the quoted output); the reservation is paid out of the pool |
//! | ending `failed`, from *r* + T/2 | `failed`; the reservation is released |
//! | ending `refunded`, from *r* + T | `refunded` with `refunded_tokens` (the input, back on the source chain); released |
//!
//! # Delivery
//!
//! When an order settles with `success` its output is owed to the recipient on the destination chain; when it settles
//! `refunded`, its input is owed back on the source chain (to the onramp's refund address or sender; to an offramp's
//! or token swap's owner, else its sender). A failed order moves nothing (the published status has no refund there).
//! A Bitcoin payment is made at once in the ledger below: a coin of the recipient's script worth the amount. Another
//! chain's is kept as owed until that chain has a node, then minted there ([`crate::delivery`]) and moved to
//! `delivered`. Settling happens once per order, so each order is delivered at most once; both lists are in the state
//! file.
//!
//! T is the quote's `estimatedTimeInSecs`. The ending is chosen by the last three digits of the input amount in
//! smallest units: `…404` fails, `…808` is refunded, anything else succeeds ([`Ending::for_amount`]).
//!
//! # Liquidity
//!
//! Each (chain, token) pool starts with [`DEFAULT_POOL_USD`] dollars' worth of the token. get-quote and create-order
//! refuse an output larger than the pool's unreserved balance with `INSUFFICIENT_SOLVER_BALANCE`
//! `{limit, token, chain_id}` (`limit` is the unreserved balance in smallest units; `chain_id` the chain's numeric id).
//!
//! # Where each part is
//!
//! The book and its records are here; what the book does is in one file per idea: `create` (create-order), `register`
//! (register-tx), `lookup` (its indexes, get-order and get-orders), `liquidity` (the pools and settling), `issued`
//! (the quotes it remembers), `ledger` (the simulated Bitcoin chain's coins), `delivery` (what settled orders owe
//! and what was delivered) and `state` (the state file).

mod create;
mod delivery;
mod issued;
mod ledger;
mod liquidity;
mod lookup;
mod register;
mod state;

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use alloy_primitives::{U256, hex};
use gateway_client::ApiVersion;
use gateway_client::address::chain_family;
use gateway_client::wire::RouteKind;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::catalogue::Catalogue;
use crate::payload;
use crate::pricing;
use crate::quote::QuoteError;
use crate::signing::{QUOTE_TTL_SECS, QuoteSigner};

pub use delivery::{Delivery, DeliveryKind, Pending, Settled};
pub use state::{Restored, StateError, StateFile};

/// Seconds an order waits for its transaction before it expires.
pub const REGISTRATION_WINDOW_SECS: u64 = 3_600;
/// Dollars' worth of each token in a solver pool at start.
pub const DEFAULT_POOL_USD: u64 = 1_000_000;
/// Orders per get-orders page when `limit` is not given.
pub const DEFAULT_PAGE_SIZE: usize = 50;
/// The largest `limit` honoured; larger values are served as this many.
pub const MAX_PAGE_SIZE: usize = 100;
/// How long an issued offramp or token-swap quote is remembered, seconds: twice its lifetime, so that a quote a little
/// too old is told "expired" rather than "not issued here".
const ISSUED_MEMORY_SECS: u64 = 2 * QUOTE_TTL_SECS;
/// The most offramp and token-swap quotes remembered at once. A caller asking for many distinct quotes must not grow
/// the book (and the state file, written whole after each change) without bound; past this, the oldest are forgotten
/// first (their create-order is then refused as not issued here).
pub const MAX_REMEMBERED_QUOTES: usize = 10_000;
/// The state file's format version.
const STATE_FORMAT: u32 = 1;

/// How an order ends, fixed at creation from its input amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ending {
    /// The order completes T after registration and the quoted output is paid out of the solver pool.
    Success,
    /// An input ending in `404`: the order fails T/2 after registration and its reservation is released.
    Failed,
    /// An input ending in `808`: T after registration the input goes back on the source chain.
    Refunded,
}

impl Ending {
    /// `…404` → failed, `…808` → refunded, anything else → success (last three digits of the smallest-unit amount).
    pub fn for_amount(amount: &str) -> Self {
        if amount.ends_with("404") {
            Self::Failed
        } else if amount.ends_with("808") {
            Self::Refunded
        } else {
            Self::Success
        }
    }
}

/// One side of an order: what goes in or comes out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leg {
    /// The chain's slug.
    pub chain: String,
    /// The token's address on that chain, as the quote wrote it (the all-zero address for Bitcoin or a native coin).
    pub token: String,
    /// The amount in the token's smallest unit, as a decimal string.
    pub amount: String,
    /// USD value at order time, `"d.cc"`.
    pub usd: Option<String>,
}

/// The transaction registered for an order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Registration {
    /// When register-tx accepted it, unix seconds on the gateway's clock; the order's timeline counts from here.
    pub at: u64,
    /// The source transaction as registered: a Bitcoin txid (given, or of the `bitcoin_tx_hex` sent), an EVM hash,
    /// a Tron transaction id or a Solana signature.
    pub tx_hash: String,
}

/// An order of the simulated gateway.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Order {
    /// The id create-order gave it (a random UUID).
    pub id: String,
    /// Onramp, offramp or token swap.
    pub route: RouteKind,
    /// When create-order made it, unix seconds on the gateway's clock; the registration window counts from here.
    pub created_at: u64,
    /// What the user pays in, on the source chain.
    pub src: Leg,
    /// What the user gets, on the destination chain; this amount is reserved in the solver pool until the order
    /// settles.
    pub dst: Leg,
    /// Where the user sends: the onramp's Bitcoin address, or the contract/program (`txTo`).
    pub deposit_address: String,
    /// The onramp's OP_RETURN data (hex).
    pub op_return_data: Option<String>,
    /// T of the timeline in the module docs: the route's estimated time ([`quote::ONRAMP_SECS`] and its siblings),
    /// not the quote's `estimatedTimeInSecs`, which a client may drop.
    pub estimated_secs: u64,
    /// Normalized addresses the order is listed under (recipient, sender, owner).
    pub addresses: Vec<String>,
    /// Names the issue of the quote the order was made from (an onramp's quote material and signed nonce; another
    /// route's material), so that a second order from the same issue is refused as `DUPLICATE_ORDER`.
    pub quote_digest: String,
    /// How it ends, fixed at creation from the input amount ([`Ending::for_amount`]).
    pub ending: Ending,
    /// The source transaction; `None` until register-tx accepts one.
    pub registration: Option<Registration>,
    /// The liquidity reservation has been paid out or released.
    pub settled: bool,
    /// The create-order answer, as sent (so a repeated read is the same).
    pub created: Value,
    /// Who receives the output on the destination chain: the quote's recipient. `None` for orders kept before it was
    /// (their output is not delivered on the local chains).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recipient: Option<String>,
    /// Who gets the input back if the order is refunded: an onramp's refund address or else its sender; an offramp's
    /// or token swap's owner or else its sender. `None`: nobody to refund to is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refund_to: Option<String>,
    /// A V4 offramp or token swap: nobody registers its transaction; the gateway finds it on the source chain
    /// ([`crate::server`]'s chain reading, on the chains that have a node).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub read_from_chain: bool,
}

/// Where an order is at a given time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Created; no transaction registered yet.
    AwaitingTx,
    /// Not registered in time.
    Expired,
    /// Registered; its ending is not reached yet.
    InProgress,
    /// An offramp whose Bitcoin payout is under way.
    PayingOut,
    /// Done: the output was delivered on the destination chain.
    Success,
    /// Registered but failed ([`Ending::Failed`]); nothing is paid out.
    Failed,
    /// The input was sent back on the source chain.
    Refunded,
}

impl Order {
    /// The phase at `now`.
    pub fn phase(&self, now: u64) -> Phase {
        let Some(reg) = &self.registration else {
            return if now >= self.created_at + REGISTRATION_WINDOW_SECS {
                Phase::Expired
            } else {
                Phase::AwaitingTx
            };
        };
        let half = reg.at + self.estimated_secs / 2;
        let full = reg.at + self.estimated_secs;
        match self.ending {
            Ending::Failed if now >= half => Phase::Failed,
            Ending::Refunded if now >= full => Phase::Refunded,
            Ending::Success if now >= full => Phase::Success,
            Ending::Success if self.route == RouteKind::Offramp && now >= half => Phase::PayingOut,
            _ => Phase::InProgress,
        }
    }

    /// When the order next becomes terminal (the liquidity is settled then).
    pub fn settles_at(&self) -> u64 {
        match &self.registration {
            None => self.created_at + REGISTRATION_WINDOW_SECS,
            Some(reg) if self.ending == Ending::Failed => reg.at + self.estimated_secs / 2,
            Some(reg) => reg.at + self.estimated_secs,
        }
    }

    /// The order as get-order shows it under `version` at `now`.
    pub fn to_json(&self, version: ApiVersion, now: u64) -> Value {
        let usd = version >= ApiVersion::V3;
        let leg = |leg: &Leg, tx_hash: Option<&str>| {
            let mut m = Map::new();
            m.insert("chain".into(), json!(leg.chain));
            m.insert("token".into(), json!(leg.token));
            m.insert("amount".into(), json!(leg.amount));
            if let Some(hash) = tx_hash {
                m.insert("txHash".into(), json!(hash));
            }
            if usd && let Some(value) = &leg.usd {
                m.insert("usd".into(), json!(value));
            }
            Value::Object(m)
        };
        let src_hash = self.registration.as_ref().map(|r| r.tx_hash.as_str());
        let payout_hash = synthetic_tx_hash(&self.dst.chain, "payout", &self.id);
        let refund_hash = synthetic_tx_hash(&self.src.chain, "refund", &self.id);
        let status = match (self.phase(now), version) {
            (Phase::AwaitingTx | Phase::InProgress, ApiVersion::V1) => {
                json!({"inProgress": {"bump_fee_tx": null, "refund_tx": null}})
            }
            (Phase::AwaitingTx | Phase::InProgress, _) => {
                json!({"inProgress": {"refund_tx": null}})
            }
            (Phase::PayingOut, ApiVersion::V1) => {
                json!({"inProgress": {"bump_fee_tx": null, "refund_tx": null}})
            }
            (Phase::PayingOut, _) => {
                let mut payment = json!({"txid": payout_hash, "amount": self.dst.amount});
                if usd && let Some(value) = &self.dst.usd {
                    payment["usd"] = json!(value);
                }
                json!({"inProgress": {"pending_btc_payment": payment, "refund_tx": null}})
            }
            (Phase::Expired | Phase::Failed, _) => json!({"failed": {"refund_tx": null}}),
            (Phase::Success, ApiVersion::V1) => json!("success"),
            (Phase::Refunded, ApiVersion::V1) => json!("refunded"),
            (Phase::Success, _) => {
                json!({"success": {"received_tokens": [transfer(&self.dst, &payout_hash, usd)]}})
            }
            (Phase::Refunded, _) => {
                json!({"refunded": {"refunded_tokens": [transfer(&self.src, &refund_hash, usd)]}})
            }
        };
        let dst_hash = (version == ApiVersion::V1 && self.phase(now) == Phase::Success)
            .then_some(payout_hash.as_str());
        json!({
            "id": self.id,
            "timestamp": self.created_at,
            "srcInfo": leg(&self.src, src_hash),
            "dstInfo": leg(&self.dst, dst_hash),
            "status": status,
            "depositAddress": self.deposit_address,
            "estimatedTimeInSecs": self.estimated_secs,
        })
    }
}

fn transfer(leg: &Leg, tx_hash: &str, usd: bool) -> Value {
    let mut t =
        json!({"token": leg.token, "amount": leg.amount, "chain": leg.chain, "txHash": tx_hash});
    if usd && let Some(value) = &leg.usd {
        t["usd"] = json!(value);
    }
    t
}

/// A transaction hash in the format of `chain`, derived from a label and the order id (payouts and refunds the
/// simulated solver "sends").
pub fn synthetic_tx_hash(chain: &str, label: &str, order_id: &str) -> String {
    let digest = Sha256::digest(format!("gateway-sim {label} {order_id}").as_bytes());
    use gateway_client::txhash::{TxIdShape, tx_id_shape};
    match chain_family(chain).map(tx_id_shape) {
        Some(TxIdShape::Hex { adds_0x: true }) => format!("0x{}", hex::encode(digest)),
        // A signature: 64 bytes in Base58.
        Some(TxIdShape::Base58 { .. }) => {
            let mut signature = digest.to_vec();
            signature.extend_from_slice(&Sha256::digest(digest));
            bs58::encode(signature).into_string()
        }
        // Bitcoin txids and ids written without `0x`: 64 hex characters.
        _ => hex::encode(digest),
    }
}

/// A solver pool of one token on one chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pool {
    /// What the solver holds, in the token's smallest unit; a successful order's output leaves it when it settles.
    pub balance: U256,
    /// The part of `balance` promised to open orders, released or paid out as each settles.
    pub reserved: U256,
}

impl Pool {
    /// What can still be reserved.
    pub fn available(&self) -> U256 {
        self.balance.saturating_sub(self.reserved)
    }
}

/// A remembered offramp or token-swap quote. Their content has no nonce, so two identical requests can get the same
/// quote: each issue allows one order, so two identical quotes make two orders and a quote used once is a duplicate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Issued {
    /// When it was last issued.
    at: u64,
    /// Issues not yet used by an order.
    #[serde(default)]
    unused: u32,
    /// The `ownerAddress` of each unused issue, oldest first, for variants that have no owner field (the V3 token
    /// swap): two issues that differ only by owner are the same quote on the wire, so create-order takes the owners
    /// in the order they were issued.
    #[serde(default)]
    owners: VecDeque<Option<String>>,
}

/// The most unused issues of one quote remembered with their owners (a caller asking for the same quote again and
/// again must not grow the book without bound).
const MAX_UNUSED_ISSUES: u32 = 64;

/// The order book: everything create-order, register-tx and the reads share.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Book {
    orders: Vec<Order>,
    pools: BTreeMap<String, Pool>,
    issued: BTreeMap<String, Issued>,
    /// The simulated Bitcoin chain's ledger: each script's coin after its first was spent by a registered onramp
    /// transaction (by script hex). Scripts not here still hold their first coin ([`payload::initial_coin`]).
    #[serde(default)]
    coins: BTreeMap<String, LedgerCoin>,
    /// Outpoints (`txid:vout`) spent by registered onramp transactions.
    #[serde(default)]
    spent: BTreeSet<String>,
    /// Coins the gateway paid to a script besides its ledger coin (an offramp's payout, an onramp's refund), by script
    /// hex, oldest first; pruned once spent.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    received: BTreeMap<String, Vec<LedgerCoin>>,
    /// Outputs and refunds owed on a chain other than Bitcoin, by chain slug, then order id: delivered when that
    /// chain has a node.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    owed: BTreeMap<String, BTreeMap<String, Delivery>>,
    /// Outputs and refunds delivered, by order id (Bitcoin's into the ledger, the others' minted on their node).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    delivered: BTreeMap<String, Delivery>,
    /// How far the gateway's clock had been moved on, seconds: restored at start, so that an order that ended stays
    /// ended after a restart.
    #[serde(default)]
    clock_offset: u64,
    #[serde(skip)]
    index: Index,
}

/// A coin the ledger made: the change of a registered onramp transaction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct LedgerCoin {
    txid: String,
    vout: u32,
    value: u64,
    /// The whole transaction, for a legacy script whose PSBT input must carry it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tx_hex: Option<String>,
}

#[derive(Debug, Default)]
struct Index {
    by_id: HashMap<String, usize>,
    by_tx: HashMap<String, usize>,
    by_address: HashMap<String, Vec<usize>>,
    by_quote: HashMap<String, usize>,
    /// (settle time, order) of every order whose liquidity is still reserved.
    open: BTreeSet<(u64, usize)>,
    /// When the remembered quotes were last pruned.
    pruned_at: u64,
}

pub use crate::integrity::normalize_address;

fn pool_key(chain: &str, token: &str) -> String {
    format!("{}/{}", chain, normalize_address(token))
}

fn normalize_tx(hash: &str) -> String {
    if hash.starts_with("0x") || hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        hash.to_ascii_lowercase()
    } else {
        hash.to_owned()
    }
}

/// The numeric chain id shown in `INSUFFICIENT_SOLVER_BALANCE` details (the slug when the chain has none).
pub fn chain_id_text(chain: &str) -> String {
    payload::chain_id(chain).map_or_else(|| chain.to_owned(), |id| id.to_string())
}

fn err(code: &'static str, message: impl Into<String>) -> QuoteError {
    QuoteError::new(code, message)
}

fn insufficient(chain: &str, token: &str, pool: Pool) -> QuoteError {
    err(
        "INSUFFICIENT_SOLVER_BALANCE",
        format!(
            "the solver cannot deliver this much right now: at most {} of {token} on {chain} is available",
            pool.available()
        ),
    )
    .with(json!({"limit": pool.available().to_string(), "token": token, "chain_id": chain_id_text(chain)}))
}

/// What a create-order needs besides the body.
pub struct CreateContext<'a> {
    /// The listed tokens: the solver pools' starting balances and the USD values of the order's legs.
    pub catalogue: &'a Catalogue,
    /// The gateway's key: it verifies an onramp's `signedQuoteData`, and the onramp's deposit address is derived
    /// from its secret.
    pub signer: &'a QuoteSigner,
    /// The Bitcoin network an onramp's deposit address and PSBT are made for.
    pub network: payload::Network,
    /// The API version of the request: which route keys it takes and how the answer and transaction are shaped.
    pub version: ApiVersion,
    /// The gateway clock's time, unix seconds: the order's creation time, against which the quote's age is measured.
    pub now: u64,
    /// The latest block hash of the source chain's node behind the gateway, for families whose transactions are
    /// built on one ([`crate::local_chain::LocalChain::recent_blockhash`]), so that the transaction can be executed
    /// as returned. Without a node, a made-up one.
    pub recent_blockhash: Option<[u8; 32]>,
    /// How the transaction is built on the chains of a family whose order is not a plain call to the gateway's
    /// contract: the Sandbox's family list's [`crate::local_chain::ORDER_TX`].
    pub order_tx: OrderTxRules,
}

/// How create-order builds an order's transaction where its source chain's family differs from a call to the
/// gateway's contract, each family's way kept with its local chain ([`crate::local_chain::ORDER_TX`]).
#[derive(Debug, Clone, Copy)]
pub struct OrderTxRules {
    /// The whole transaction of an order from a chain (`None` for a family whose order is a call to the contract).
    pub whole_order_tx:
        fn(&str, &payload::OrderTxArgs<'_>) -> Option<Result<WholeTx, payload::PayloadError>>,
    /// The fee limit a call on a chain of the family carries, in its smallest unit (`None`: the call has none).
    pub call_fee_limit: fn(gateway_client::chains::ChainFamily) -> Option<u64>,
}

/// An order's whole transaction, for a family whose order is a transaction the gateway builds rather than a call to
/// its contract: what create-order puts in `tx` beside its `type`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WholeTx {
    /// The chain id the service writes in it.
    pub chain_id: u64,
    /// The unsigned transaction, base64.
    pub transaction: String,
}

/// The route key of a quote or register-tx body under `version`.
fn route_of_key(key: &str, version: ApiVersion) -> Option<RouteKind> {
    match (key, version) {
        ("onramp", _) => Some(RouteKind::Onramp),
        ("offramp", _) => Some(RouteKind::Offramp),
        ("layerZero", ApiVersion::V1) => Some(RouteKind::TokenSwap),
        ("tokenSwap", ApiVersion::V2 | ApiVersion::V3 | ApiVersion::V4) => {
            Some(RouteKind::TokenSwap)
        }
        _ => None,
    }
}

fn route_key(route: RouteKind, version: ApiVersion) -> &'static str {
    match (route, version) {
        (RouteKind::TokenSwap, ApiVersion::V1) => "layerZero",
        (route, _) => route.as_str(),
    }
}

/// The single `{key: object}` entry of a body.
fn single_entry(body: &Value, what: &str) -> Result<(String, Map<String, Value>), QuoteError> {
    let map = body.as_object().filter(|m| m.len() == 1).ok_or_else(|| {
        err(
            "INVALID_REQUEST",
            format!("the body must be one object keyed by route ({what})"),
        )
    })?;
    let (key, value) = map.iter().next().expect("one entry");
    let inner = value.as_object().ok_or_else(|| {
        err(
            "INVALID_REQUEST",
            format!("the value under {key:?} must be an object"),
        )
    })?;
    Ok((key.clone(), inner.clone()))
}

fn text<'a>(map: &'a Map<String, Value>, field: &str) -> Result<&'a str, QuoteError> {
    map.get(field)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| err("INVALID_ORDER_ARGS", format!("the quote has no {field}")))
}

fn opt_text<'a>(map: &'a Map<String, Value>, field: &str) -> Option<&'a str> {
    map.get(field)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

fn amount_of(map: &Map<String, Value>, field: &str) -> Result<(String, String, U256), QuoteError> {
    let bad = || {
        err(
            "INVALID_ORDER_ARGS",
            format!("the quote's {field} is not a token amount"),
        )
    };
    let obj = map.get(field).and_then(Value::as_object).ok_or_else(bad)?;
    let chain = obj.get("chain").and_then(Value::as_str).ok_or_else(bad)?;
    let address = obj.get("address").and_then(Value::as_str).ok_or_else(bad)?;
    let amount: U256 = obj
        .get("amount")
        .and_then(Value::as_str)
        .and_then(|a| a.parse().ok())
        .ok_or_else(bad)?;
    Ok((chain.to_owned(), address.to_owned(), amount))
}

fn slippage_of(map: &Map<String, Value>) -> u32 {
    match map.get("slippage") {
        Some(Value::String(s)) => s.parse().unwrap_or(0),
        Some(Value::Number(n)) => n.as_u64().and_then(|n| u32::try_from(n).ok()).unwrap_or(0),
        _ => 0,
    }
}

fn usd_of(catalogue: &Catalogue, chain: &str, token: &str, amount: U256) -> Option<String> {
    let listed = catalogue.find(chain, token)?;
    let priced = pricing::price_of(listed)?;
    Some(pricing::usd_string(amount, priced))
}
