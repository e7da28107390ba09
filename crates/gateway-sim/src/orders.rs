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
//! T is the quote's `estimatedTimeInSecs`. The ending is chosen by the last three digits of the input amount in
//! smallest units: `…404` fails, `…808` is refunded, anything else succeeds ([`Ending::for_amount`]).
//!
//! # Liquidity
//!
//! Each (chain, token) pool starts with [`DEFAULT_POOL_USD`] dollars' worth of the token. get-quote and create-order
//! refuse an output larger than the pool's unreserved balance with `INSUFFICIENT_SOLVER_BALANCE`
//! `{limit, token, chain_id}` (`limit` is the unreserved balance in smallest units; `chain_id` the chain's numeric id).

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use alloy_primitives::{U256, hex};
use gateway_client::ApiVersion;
use gateway_client::address::{ChainFamily, chain_family};
use gateway_client::txhash;
use gateway_client::wire::RouteKind;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::catalogue::Catalogue;
use crate::integrity;
use crate::payload;
use crate::pricing;
use crate::quote::{self, QuoteError};
use crate::signing::{QUOTE_TTL_SECS, QuoteSigner, SignatureError};

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
    fn settles_at(&self) -> u64 {
        match &self.registration {
            None => self.created_at + REGISTRATION_WINDOW_SECS,
            Some(reg) if self.ending == Ending::Failed => reg.at + self.estimated_secs / 2,
            Some(reg) => reg.at + self.estimated_secs,
        }
    }

    /// The order as get-order shows it under `version` at `now`.
    pub fn to_json(&self, version: ApiVersion, now: u64) -> Value {
        let usd = version == ApiVersion::V3;
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
    match chain_family(chain) {
        Some(ChainFamily::Evm) => format!("0x{}", hex::encode(digest)),
        Some(ChainFamily::Solana) => {
            let mut signature = digest.to_vec();
            signature.extend_from_slice(&Sha256::digest(digest));
            bs58::encode(signature).into_string()
        }
        // Bitcoin txids and Tron transaction ids: 64 hex characters.
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
    /// The latest blockhash of the Solana node behind the gateway, when there is one ([`crate::solana_node`]): a
    /// Solana transaction is built on it so that it can be executed as returned. Without a node, a made-up one.
    pub solana_blockhash: Option<[u8; 32]>,
}

/// The route key of a quote or register-tx body under `version`.
fn route_of_key(key: &str, version: ApiVersion) -> Option<RouteKind> {
    match (key, version) {
        ("onramp", _) => Some(RouteKind::Onramp),
        ("offramp", _) => Some(RouteKind::Offramp),
        ("layerZero", ApiVersion::V1) => Some(RouteKind::TokenSwap),
        ("tokenSwap", ApiVersion::V2 | ApiVersion::V3) => Some(RouteKind::TokenSwap),
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

impl Book {
    /// Rebuilds the indexes after loading.
    fn reindex(&mut self) {
        let mut index = Index::default();
        for (i, order) in self.orders.iter().enumerate() {
            index.by_id.insert(order.id.clone(), i);
            index.by_quote.insert(order.quote_digest.clone(), i);
            if let Some(reg) = &order.registration {
                index.by_tx.insert(normalize_tx(&reg.tx_hash), i);
            }
            for address in &order.addresses {
                index.by_address.entry(address.clone()).or_default().push(i);
            }
            if !order.settled {
                index.open.insert((order.settles_at(), i));
            }
        }
        self.index = index;
    }

    /// The pool of (chain, token), made with its default balance on first use.
    fn pool_mut(&mut self, catalogue: &Catalogue, chain: &str, token: &str) -> &mut Pool {
        self.pools.entry(pool_key(chain, token)).or_insert_with(|| {
            let balance = catalogue
                .find(chain, token)
                .and_then(pricing::price_of)
                .map_or(U256::ZERO, |p| {
                    pricing::amount_for_usd_micro(DEFAULT_POOL_USD * pricing::MICRO_PER_USD, p)
                });
            Pool {
                balance,
                reserved: U256::ZERO,
            }
        })
    }

    /// The pool of (chain, token) as it stands.
    pub fn pool(&mut self, catalogue: &Catalogue, chain: &str, token: &str) -> Pool {
        *self.pool_mut(catalogue, chain, token)
    }

    /// Sets the balance of a pool (what is reserved stays reserved).
    pub fn set_pool_balance(
        &mut self,
        catalogue: &Catalogue,
        chain: &str,
        token: &str,
        balance: U256,
    ) {
        self.pool_mut(catalogue, chain, token).balance = balance;
    }

    /// Pays out or releases the reservations of orders that have reached an ending by `now`.
    pub fn settle(&mut self, now: u64) {
        while let Some(&(at, i)) = self.index.open.first() {
            if at > now {
                break;
            }
            self.index.open.pop_first();
            let order = &self.orders[i];
            let paid = order.registration.is_some() && order.ending == Ending::Success;
            let (chain, token) = (order.dst.chain.clone(), order.dst.token.clone());
            let amount: U256 = order.dst.amount.parse().unwrap_or_default();
            let pool = self.pools.entry(pool_key(&chain, &token)).or_insert(Pool {
                balance: U256::ZERO,
                reserved: U256::ZERO,
            });
            pool.reserved = pool.reserved.saturating_sub(amount);
            if paid {
                pool.balance = pool.balance.saturating_sub(amount);
            }
            self.orders[i].settled = true;
        }
    }

    /// Checks that a quote's output can be delivered (get-quote's liquidity check).
    pub fn check_liquidity(
        &mut self,
        catalogue: &Catalogue,
        quote: &Value,
        now: u64,
    ) -> Result<(), QuoteError> {
        self.settle(now);
        let Some((_, inner)) = quote.as_object().and_then(|m| m.iter().next()) else {
            return Ok(());
        };
        let Some(inner) = inner.as_object() else {
            return Ok(());
        };
        let (chain, token, amount) = amount_of(inner, "outputAmount")?;
        let pool = self.pool(catalogue, &chain, &token);
        if pool.available() < amount {
            return Err(insufficient(&chain, &token, pool));
        }
        Ok(())
    }

    /// Remembers an offramp or token-swap quote this gateway issued, so create-order can tell it from a forgery,
    /// with the `owner` it was asked for (kept here when the quote variant has no owner field).
    pub fn remember_quote(&mut self, quote: &Value, owner: Option<&str>, now: u64) {
        let Some((key, inner)) = quote.as_object().and_then(|m| m.iter().next()) else {
            return;
        };
        let Some(route) = [ApiVersion::V3, ApiVersion::V1]
            .into_iter()
            .find_map(|v| route_of_key(key, v))
        else {
            return;
        };
        let Some(inner) = inner.as_object().filter(|_| route != RouteKind::Onramp) else {
            return; // onramps are signed instead
        };
        let digest = integrity::digest(route, inner);
        if !self.issued.contains_key(&digest) && self.issued.len() >= MAX_REMEMBERED_QUOTES {
            self.forget_oldest_quotes(now);
        }
        let issued = self.issued.entry(digest).or_insert(Issued {
            at: now,
            unused: 0,
            owners: VecDeque::new(),
        });
        issued.at = now;
        if issued.unused < MAX_UNUSED_ISSUES {
            issued.unused += 1;
            issued.owners.push_back(owner.map(normalize_address));
        }
        // Forget old quotes at most once a minute, so a busy gateway does not scan the map on every quote.
        if now.saturating_sub(self.index.pruned_at) >= 60 {
            self.index.pruned_at = now;
            self.issued
                .retain(|_, i| now.saturating_sub(i.at) <= ISSUED_MEMORY_SECS);
        }
    }

    /// The coin `script` holds on the simulated chain now: the ledger's, or its first one; worth 0 once spent.
    pub fn coin(&self, script: &bitcoin::Script) -> payload::Coin {
        let mut coin = self
            .coins
            .get(&script.to_hex_string())
            .and_then(|c| {
                let txid = c.txid.parse().ok()?;
                let previous_tx = match &c.tx_hex {
                    Some(hex) => Some(bitcoin::consensus::encode::deserialize_hex(hex).ok()?),
                    None => None,
                };
                Some(payload::Coin {
                    outpoint: bitcoin::OutPoint::new(txid, c.vout),
                    value: c.value,
                    previous_tx,
                })
            })
            .unwrap_or_else(|| payload::initial_coin(script));
        if self.spent.contains(&coin.outpoint.to_string()) {
            coin.value = 0;
        }
        coin
    }

    /// What a deposit from `script` can pay now (get-max-spendable), in sats.
    pub fn max_spendable(&self, script: &bitcoin::Script) -> u64 {
        payload::max_spendable(&self.coin(script), script)
    }

    /// Records a registered onramp transaction on the simulated chain: its inputs are spent, and each output to
    /// another script than the deposit (the change) becomes that script's coin.
    fn record_bitcoin_tx(&mut self, tx: &bitcoin::Transaction, deposit_address: &str) {
        let deposit = deposit_address
            .parse::<bitcoin::Address<bitcoin::address::NetworkUnchecked>>()
            .ok()
            .map(|a| a.assume_checked().script_pubkey());
        for input in &tx.input {
            self.spent.insert(input.previous_output.to_string());
        }
        let txid = tx.compute_txid().to_string();
        for (vout, output) in tx.output.iter().enumerate() {
            let script = &output.script_pubkey;
            if script.is_op_return()
                || Some(script) == deposit.as_ref()
                || output.value.to_sat() == 0
            {
                continue;
            }
            let tx_hex = (!script.is_witness_program())
                .then(|| bitcoin::consensus::encode::serialize_hex(tx));
            self.coins.insert(
                script.to_hex_string(),
                LedgerCoin {
                    txid: txid.clone(),
                    vout: u32::try_from(vout).unwrap_or(u32::MAX),
                    value: output.value.to_sat(),
                    tx_hex,
                },
            );
        }
    }

    /// Makes room in the remembered quotes: forgets those past their memory, then, if that is not enough, the oldest
    /// tenth.
    fn forget_oldest_quotes(&mut self, now: u64) {
        self.index.pruned_at = now;
        self.issued
            .retain(|_, i| now.saturating_sub(i.at) <= ISSUED_MEMORY_SECS);
        if self.issued.len() < MAX_REMEMBERED_QUOTES {
            return;
        }
        let mut times: Vec<u64> = self.issued.values().map(|i| i.at).collect();
        times.sort_unstable();
        let cut = times[MAX_REMEMBERED_QUOTES / 10];
        self.issued.retain(|_, i| i.at > cut);
    }

    /// How many offramp and token-swap quotes are remembered now.
    pub fn remembered_quotes(&self) -> usize {
        self.issued.len()
    }

    /// create-order: checks the quote, reserves liquidity, builds the payload. Gives the 201 body.
    pub fn create_order(
        &mut self,
        ctx: &CreateContext<'_>,
        body: &Value,
    ) -> Result<Value, QuoteError> {
        let now = ctx.now;
        self.settle(now);
        let (key, quote) = single_entry(body, "onramp, offramp or tokenSwap")?;
        let route = route_of_key(&key, ctx.version).ok_or_else(|| {
            err(
                "INVALID_REQUEST",
                format!("{key:?} is not a route of {}", ctx.version.as_str()),
            )
        })?;
        let quote_value = Value::Object(quote.clone());
        let material = integrity::digest(route, &quote);

        // Genuine, unexpired, unused. `digest` names this issue of the quote: an onramp's material and its signed
        // nonce; another route's material (each issue allows one order).
        let (digest, kept_owner) = if route == RouteKind::Onramp {
            let signed = ctx
                .signer
                .verify_signed_quote(&quote_value, now, QUOTE_TTL_SECS)
                .map_err(|e| match e {
                    SignatureError::Expired { .. } => err(
                        "ORDER_EXPIRED",
                        format!("the quote is more than {QUOTE_TTL_SECS} seconds old; ask for a new quote"),
                    ),
                    other => err("INVALID_ORDER_ARGS", format!("the quote was refused: {other}; ask for a new quote and send it back unchanged")),
                })?;
            (format!("{material}:{}", signed.nonce), signed.kept.owner)
        } else {
            let issued = self.issued.get(&material).ok_or_else(|| {
                err(
                    "INVALID_ORDER_ARGS",
                    "this gateway did not issue this quote, or its amounts, tokens, chains or addresses were changed after it was issued; ask for a new quote and send it back unchanged",
                )
            })?;
            if now.saturating_sub(issued.at) > QUOTE_TTL_SECS {
                return Err(err(
                    "ORDER_EXPIRED",
                    format!(
                        "the quote is more than {QUOTE_TTL_SECS} seconds old; ask for a new quote"
                    ),
                ));
            }
            (material, issued.owners.front().cloned().flatten())
        };
        let unused = self.issued.get(&digest).map_or(0, |i| i.unused);
        let duplicate = if route == RouteKind::Onramp {
            self.index.by_quote.get(&digest)
        } else {
            self.index.by_quote.get(&digest).filter(|_| unused == 0)
        };
        if let Some(&i) = duplicate {
            return Err(err(
                "DUPLICATE_ORDER",
                format!(
                    "an order was already created from this quote ({}); ask for a new quote for another order",
                    self.orders[i].id
                ),
            ));
        }

        // What goes in and out.
        let (src_chain, src_token, input) = amount_of(&quote, "inputAmount")?;
        let (dst_chain, dst_token, output) = amount_of(&quote, "outputAmount")?;
        let recipient = text(&quote, "recipient")?;
        let sender = opt_text(&quote, "sender");
        // The V3 offramp carries its owner; the others' was kept beside the quote.
        let owner = opt_text(&quote, "ownerAddress")
            .filter(|_| route == RouteKind::Offramp)
            .map(str::to_owned)
            .or(kept_owner);
        // The timeline follows the route, not the quote's `estimatedTimeInSecs` (a display value a client may drop).
        let estimated_secs = match route {
            RouteKind::Onramp => quote::ONRAMP_SECS,
            RouteKind::Offramp => quote::OFFRAMP_SECS,
            RouteKind::TokenSwap => quote::TOKEN_SWAP_SECS,
        };

        let pool = self.pool(ctx.catalogue, &dst_chain, &dst_token);
        if pool.available() < output {
            return Err(insufficient(&dst_chain, &dst_token, pool));
        }

        let id = uuid::Uuid::new_v4().to_string();
        let min_out = output * U256::from(10_000u32.saturating_sub(slippage_of(&quote)))
            / U256::from(10_000u32);
        let (deposit_address, op_return_data, created) = match route {
            RouteKind::Onramp => {
                let sats: u64 = input.try_into().map_err(|_| {
                    err(
                        "INVALID_ORDER_ARGS",
                        "the input amount is too large for Bitcoin",
                    )
                })?;
                let mut digest_bytes = [0u8; 32];
                digest_bytes.copy_from_slice(&Sha256::digest(digest.as_bytes()));
                let p = payload::onramp_payload_from(
                    ctx.signer.secret(),
                    &id,
                    &digest_bytes,
                    ctx.network,
                    sats,
                    sender,
                    |script| self.coin(script),
                )
                .map_err(|e| match e {
                    payload::PayloadError::InsufficientFunds { spendable, needed, .. } => err(
                        "INSUFFICIENT_CONFIRMED_FUNDS",
                        format!(
                            "sender: the address can spend {spendable} sats after the network fee; this deposit needs {needed} with the fee; ask for a quote of at most {spendable} sats"
                        ),
                    ),
                    other => err("INVALID_ORDER_ARGS", other.to_string()),
                })?;
                let mut inner = json!({"order_id": id, "address": p.address, "op_return_data": p.op_return_data});
                if let Some(psbt) = &p.psbt_hex {
                    inner["psbt_hex"] = json!(psbt);
                }
                (
                    p.address.clone(),
                    Some(p.op_return_data.clone()),
                    json!({ "onramp": inner }),
                )
            }
            RouteKind::Offramp | RouteKind::TokenSwap => {
                // V1's layerZero quote names the contract in its `tx`, later versions in `txTo`.
                let tx_to = match quote
                    .get("tx")
                    .and_then(|tx| tx.get("to"))
                    .and_then(Value::as_str)
                {
                    Some(to) if opt_text(&quote, "txTo").is_none() => to,
                    _ => text(&quote, "txTo")?,
                };
                let tx = build_tx(
                    ctx.version,
                    route,
                    &id,
                    tx_to,
                    &src_chain,
                    &src_token,
                    input,
                    &dst_chain,
                    &dst_token,
                    recipient,
                    sender,
                    min_out,
                    ctx.solana_blockhash,
                )?;
                (
                    tx_to.to_owned(),
                    None,
                    json!({ route_key(route, ctx.version): {"order_id": id, "tx": tx} }),
                )
            }
        };

        let mut addresses: Vec<String> = [Some(recipient), sender, owner.as_deref()]
            .into_iter()
            .flatten()
            .map(normalize_address)
            .collect();
        addresses.sort();
        addresses.dedup();
        let order = Order {
            id: id.clone(),
            route,
            created_at: now,
            src: Leg {
                usd: usd_of(ctx.catalogue, &src_chain, &src_token, input),
                chain: src_chain,
                token: src_token,
                amount: input.to_string(),
            },
            dst: Leg {
                usd: usd_of(ctx.catalogue, &dst_chain, &dst_token, output),
                chain: dst_chain.clone(),
                token: dst_token.clone(),
                amount: output.to_string(),
            },
            deposit_address,
            op_return_data,
            estimated_secs,
            addresses,
            quote_digest: digest,
            ending: Ending::for_amount(&input.to_string()),
            registration: None,
            settled: false,
            created: created.clone(),
        };
        self.pool_mut(ctx.catalogue, &dst_chain, &dst_token)
            .reserved += output;
        if let Some(issued) = self.issued.get_mut(&order.quote_digest) {
            issued.unused = issued.unused.saturating_sub(1);
            issued.owners.pop_front();
        }
        self.insert(order);
        Ok(created)
    }

    fn insert(&mut self, order: Order) {
        let i = self.orders.len();
        self.index.by_id.insert(order.id.clone(), i);
        self.index.by_quote.insert(order.quote_digest.clone(), i);
        for address in &order.addresses {
            self.index
                .by_address
                .entry(address.clone())
                .or_default()
                .push(i);
        }
        self.index.open.insert((order.settles_at(), i));
        self.orders.push(order);
    }

    /// register-tx: checks the transaction and records it. Gives the 200 body.
    pub fn register_tx(
        &mut self,
        version: ApiVersion,
        network: payload::Network,
        body: &Value,
        now: u64,
    ) -> Result<Value, QuoteError> {
        self.settle(now);
        let (key, fields) = single_entry(body, "onramp, offramp or tokenSwap")?;
        let route = route_of_key(&key, version).ok_or_else(|| {
            err(
                "INVALID_REQUEST",
                format!(
                    "the body's key {key:?} is not a route of {}: use {}",
                    version.as_str(),
                    match version {
                        ApiVersion::V1 => "onramp, offramp or layerZero",
                        _ => "onramp, offramp or tokenSwap",
                    }
                ),
            )
        })?;
        let order_id = fields
            .get("order_id")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .ok_or_else(|| {
                err(
                    "INVALID_REQUEST",
                    "order_id is missing: give the order_id create-order answered",
                )
            })?;
        let &i = self.index.by_id.get(order_id).ok_or_else(|| {
            err(
                "ORDER_NOT_FOUND",
                format!(
                    "order_id {order_id:?}: no such order; check the order id create-order answered"
                ),
            )
        })?;
        let order = &self.orders[i];
        if order.route != route {
            return Err(err(
                "INVALID_REQUEST",
                format!(
                    "order_id {order_id}: an {} order; register it under the key {:?}, not {key:?}",
                    order.route.as_str(),
                    route_key(order.route, version)
                ),
            ));
        }

        let mut ledger_tx: Option<String> = None;
        let tx_hash = match route {
            RouteKind::Onramp => {
                let hex_tx = fields
                    .get("bitcoin_tx_hex")
                    .and_then(Value::as_str)
                    .filter(|s| !s.is_empty());
                let txid = fields
                    .get("bitcoin_txid")
                    .and_then(Value::as_str)
                    .filter(|s| !s.is_empty());
                let from_hex = match hex_tx {
                    Some(tx) if looks_like_txid(tx) => {
                        return Err(err(
                            "INVALID_REQUEST",
                            "bitcoin_tx_hex: this looks like a transaction id, not a signed transaction: send it as bitcoin_txid",
                        ));
                    }
                    Some(tx) if looks_like_psbt(tx) => {
                        return Err(err(
                            "INVALID_REQUEST",
                            "bitcoin_tx_hex: this is a PSBT, not a finalized transaction: finalize it in your wallet and send the transaction hex",
                        ));
                    }
                    Some(tx) => {
                        ledger_tx = Some(tx.trim().to_owned());
                        let amount: u64 = order.src.amount.parse().unwrap_or(u64::MAX);
                        let op_return = order.op_return_data.as_deref().unwrap_or_default();
                        Some(
                            payload::check_onramp_tx(
                                tx,
                                &order.deposit_address,
                                network,
                                amount,
                                op_return,
                            )
                            .map_err(|e| bitcoin_tx_error(&e))?,
                        )
                    }
                    None => None,
                };
                let given = match txid {
                    Some(t)
                        if t.trim().len() > 64
                            && t.trim().bytes().all(|b| b.is_ascii_hexdigit()) =>
                    {
                        return Err(err(
                            "INVALID_REQUEST",
                            "bitcoin_txid: this looks like a whole transaction, not its id: send it as bitcoin_tx_hex",
                        ));
                    }
                    Some(t) => Some(
                        txhash::validate_bitcoin_txid(t)
                            .map_err(|e| err("INVALID_REQUEST", format!("bitcoin_txid: {e}")))?
                            .to_string(),
                    ),
                    None => None,
                };
                match (from_hex, given) {
                    (Some(a), Some(b)) if a != b => {
                        return Err(err(
                            "INVALID_REQUEST",
                            format!(
                                "bitcoin_txid: {b} is not the id of the transaction in bitcoin_tx_hex ({a}); send one of them, or both of the same transaction"
                            ),
                        ));
                    }
                    (Some(a), _) | (None, Some(a)) => a,
                    (None, None) => {
                        return Err(err(
                            "INVALID_REQUEST",
                            "bitcoin_tx_hex and bitcoin_txid are both missing: give bitcoin_tx_hex (the signed transaction, which the gateway broadcasts) or bitcoin_txid (of a transaction you broadcast)",
                        ));
                    }
                }
            }
            RouteKind::Offramp | RouteKind::TokenSwap => {
                let (hash, chain) = if version == ApiVersion::V3 {
                    let hash = fields
                        .get("src_tx_hash")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    let chain = fields
                        .get("src_chain")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    if hash.is_empty() {
                        return Err(err(
                            "INVALID_REQUEST",
                            "src_tx_hash is missing: give the hash (on Solana, the signature) of the transaction you broadcast",
                        ));
                    }
                    if chain.is_empty() {
                        return Err(err(
                            "INVALID_REQUEST",
                            format!(
                                "src_chain is missing: give the chain the transaction was broadcast on ({})",
                                order.src.chain
                            ),
                        ));
                    }
                    (hash, chain)
                } else {
                    let hash = fields
                        .get("evm_txhash")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    if hash.is_empty() {
                        return Err(err(
                            "INVALID_REQUEST",
                            "evm_txhash is missing: give the 0x hash of the transaction you broadcast",
                        ));
                    }
                    if chain_family(&order.src.chain) != Some(ChainFamily::Evm) {
                        return Err(err(
                            "INVALID_REQUEST",
                            format!(
                                "evm_txhash: order {order_id} starts on {}, which is not an EVM chain; register it through V3 with src_tx_hash and src_chain",
                                order.src.chain
                            ),
                        ));
                    }
                    (hash, order.src.chain.as_str())
                };
                if chain != order.src.chain {
                    return Err(err(
                        "INVALID_REQUEST",
                        format!(
                            "src_chain: order {order_id} starts on {}, not {chain}; give the chain the transaction was broadcast on",
                            order.src.chain
                        ),
                    ));
                }
                let field = if version == ApiVersion::V3 {
                    "src_tx_hash"
                } else {
                    "evm_txhash"
                };
                txhash::validate_src_tx_hash(chain, hash).map_err(|e| {
                    err(
                        "INVALID_REQUEST",
                        format!("{field}: {}{e}", wrong_kind_of_hash(chain, hash)),
                    )
                })?
            }
        };

        let field = match (route, version) {
            (RouteKind::Onramp, _)
                if fields
                    .get("bitcoin_tx_hex")
                    .is_some_and(|v| v.as_str().is_some_and(|s| !s.is_empty())) =>
            {
                "bitcoin_tx_hex"
            }
            (RouteKind::Onramp, _) => "bitcoin_txid",
            (_, ApiVersion::V3) => "src_tx_hash",
            _ => "evm_txhash",
        };
        match (&order.registration, order.phase(now)) {
            (Some(reg), _) if normalize_tx(&reg.tx_hash) == normalize_tx(&tx_hash) => {
                return Ok(register_answer(route, &tx_hash));
            }
            (Some(reg), _) => {
                return Err(err(
                    "INVALID_REQUEST",
                    format!(
                        "{field}: order {order_id} already has the transaction {} registered; a second one cannot be",
                        reg.tx_hash
                    ),
                ));
            }
            (None, Phase::Expired) => {
                return Err(err(
                    "ORDER_EXPIRED",
                    format!(
                        "order_id {order_id}: the order waited more than {REGISTRATION_WINDOW_SECS} seconds for its transaction and has expired; create a new order"
                    ),
                ));
            }
            _ => {}
        }
        if let Some(&other) = self.index.by_tx.get(&normalize_tx(&tx_hash)) {
            return Err(err(
                "INVALID_REQUEST",
                format!(
                    "{field}: the transaction {tx_hash} is already registered for order {}; each transaction pays one order",
                    self.orders[other].id
                ),
            ));
        }

        let old = (self.orders[i].settles_at(), i);
        let order = &mut self.orders[i];
        order.registration = Some(Registration {
            at: now,
            tx_hash: tx_hash.clone(),
        });
        let new = (order.settles_at(), i);
        self.index.open.remove(&old);
        self.index.open.insert(new);
        self.index.by_tx.insert(normalize_tx(&tx_hash), i);
        if let Some(tx) = ledger_tx.as_deref().and_then(|hex| {
            bitcoin::consensus::encode::deserialize_hex::<bitcoin::Transaction>(hex).ok()
        }) {
            let deposit = self.orders[i].deposit_address.clone();
            self.record_bitcoin_tx(&tx, &deposit);
        }
        Ok(register_answer(route, &tx_hash))
    }

    /// get-order: by order id, source Bitcoin txid or source transaction hash.
    pub fn get_order(&mut self, id: &str, version: ApiVersion, now: u64) -> Option<Value> {
        self.settle(now);
        let i = self
            .index
            .by_id
            .get(id)
            .or_else(|| self.index.by_tx.get(&normalize_tx(id)))?;
        Some(self.orders[*i].to_json(version, now))
    }

    /// The order with id `id`.
    pub fn order(&self, id: &str) -> Option<&Order> {
        self.index.by_id.get(id).map(|&i| &self.orders[i])
    }

    /// Every order, oldest first.
    pub fn orders(&self) -> &[Order] {
        &self.orders
    }

    /// get-orders: the orders of `address`, newest first; V1 gets them all as an array, V2/V3 a page.
    pub fn get_orders(
        &mut self,
        signer: &QuoteSigner,
        address: &str,
        version: ApiVersion,
        cursor: Option<&str>,
        limit: Option<&str>,
        now: u64,
    ) -> Result<Value, QuoteError> {
        self.settle(now);
        let key = normalize_address(address);
        let list: &[usize] = self.index.by_address.get(&key).map_or(&[], Vec::as_slice);
        if version == ApiVersion::V1 {
            return Ok(Value::Array(
                list.iter()
                    .rev()
                    .map(|&i| self.orders[i].to_json(version, now))
                    .collect(),
            ));
        }
        let limit = match limit {
            None => DEFAULT_PAGE_SIZE,
            Some(text) => match text.parse::<usize>() {
                Ok(n) if n >= 1 => n.min(MAX_PAGE_SIZE),
                _ => {
                    return Err(err(
                        "INVALID_REQUEST",
                        format!("limit {text:?} must be a whole number of at least 1"),
                    ));
                }
            },
        };
        let before = match cursor.filter(|c| !c.is_empty()) {
            None => usize::MAX,
            Some(c) => open_cursor(signer, c, &key)
                .ok_or_else(|| err("INVALID_CURSOR", "this cursor was not issued for this address by this gateway; start again without a cursor"))?,
        };
        let mut page: Vec<usize> = list
            .iter()
            .rev()
            .copied()
            .filter(|&i| i < before)
            .take(limit + 1)
            .collect();
        let more = page.len() > limit;
        page.truncate(limit);
        let next = match (more, page.last()) {
            (true, Some(&last)) => json!(seal_cursor(signer, &key, last)),
            _ => Value::Null,
        };
        Ok(json!({
            "orders": page.iter().map(|&i| self.orders[i].to_json(version, now)).collect::<Vec<_>>(),
            "nextCursor": next,
        }))
    }
}

fn register_answer(route: RouteKind, tx_hash: &str) -> Value {
    match route {
        RouteKind::Onramp => json!({"onramp": {"txid": tx_hash}}),
        _ => json!("ok"),
    }
}

fn bitcoin_tx_error(e: &payload::BitcoinTxError) -> QuoteError {
    match e {
        payload::BitcoinTxError::Underpaid { expected, actual } => err(
            "INSUFFICIENT_PAYMENT_AMOUNT",
            format!("bitcoin_tx_hex: the transaction pays {actual} sats to the order's address; the order needs {expected}"),
        )
        .with(json!({"expected": expected.to_string(), "actual": actual.to_string()})),
        other => err("INVALID_REQUEST", format!("bitcoin_tx_hex: the Bitcoin transaction was refused: {other}")),
    }
}

/// 64 hex characters (optionally `0x`): a transaction id, not a transaction.
fn looks_like_txid(text: &str) -> bool {
    let t = text.trim();
    let t = t.strip_prefix("0x").unwrap_or(t);
    t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A PSBT, in hex (`70736274ff`, "psbt" and 0xff) or base64 (`cHNidP`).
fn looks_like_psbt(text: &str) -> bool {
    let t = text.trim();
    t.get(..10)
        .is_some_and(|p| p.eq_ignore_ascii_case("70736274ff"))
        || t.starts_with("cHNidP")
}

/// A hint when a source hash is of another chain's kind: an EVM hash given for Solana, a Solana signature for an EVM
/// chain (empty otherwise).
fn wrong_kind_of_hash(chain: &str, hash: &str) -> &'static str {
    let hash = hash.trim();
    let evm_like = hash.starts_with("0x");
    match chain_family(chain) {
        Some(ChainFamily::Solana) if evm_like => {
            "this is an EVM transaction hash; a Solana transaction is named by its Base58 signature. "
        }
        Some(ChainFamily::Evm) if !evm_like && hash.len() > 80 => {
            "this looks like a Solana signature; an EVM transaction hash is 0x and 64 hexadecimal characters. "
        }
        _ => "",
    }
}

/// The transaction of an offramp or token swap, as `version` writes it.
#[allow(clippy::too_many_arguments)]
fn build_tx(
    version: ApiVersion,
    route: RouteKind,
    order_id: &str,
    tx_to: &str,
    src_chain: &str,
    src_token: &str,
    amount: U256,
    dst_chain: &str,
    dst_token: &str,
    recipient: &str,
    sender: Option<&str>,
    min_out: U256,
    solana_blockhash: Option<[u8; 32]>,
) -> Result<Value, QuoteError> {
    let bad = |e: payload::PayloadError| err("INVALID_ORDER_ARGS", e.to_string());
    if chain_family(src_chain) == Some(ChainFamily::Solana) {
        let sender = sender.ok_or_else(|| {
            err("INVALID_ORDER_ARGS", "a Solana transaction needs the quote's sender (the fee payer); ask for a quote with sender set")
        })?;
        let transaction = payload::solana_tx(
            order_id,
            tx_to,
            sender,
            src_token,
            amount,
            dst_chain,
            dst_token,
            recipient,
            min_out,
            solana_blockhash,
        )
        .map_err(bad)?;
        return Ok(json!({
            "type": "solana",
            "chainId": payload::chain_id("solana").unwrap_or_default(),
            "transaction": transaction,
        }));
    }
    // A quote in the real service's shape names the chain's entry contract: the call is the gateway contract's, wrapped
    // in the entry's `exec` (quote::production_shape).
    let entry = crate::quote::entry_of(src_chain).filter(|entry| {
        chain_family(src_chain)
            .is_some_and(|family| gateway_client::address::same_account(family, entry, tx_to))
    });
    let gateway = entry.map(|_| crate::quote::gateway_contract(src_chain));
    let to = gateway.as_deref().unwrap_or(tx_to);
    let call = match route {
        RouteKind::Offramp => {
            payload::offramp_call(order_id, to, src_token, amount, min_out, recipient)
        }
        _ => payload::swap_call(
            order_id, to, src_token, amount, dst_chain, dst_token, recipient, min_out,
        ),
    }
    .map_err(bad)?;
    let call = match entry {
        Some(entry) => payload::production_shaped(&call, entry, src_token, amount).map_err(bad)?,
        None => call,
    };
    let mut tx = json!({"to": call.to, "data": call.data, "value": call.value, "chain": src_chain});
    if version == ApiVersion::V3 {
        if src_chain == "tron" {
            tx["type"] = json!("tron");
            tx["feeLimit"] = json!(payload::TRON_FEE_LIMIT_SUN.to_string());
        } else {
            tx["type"] = json!("evm");
        }
    }
    Ok(tx)
}

fn seal_cursor(signer: &QuoteSigner, address: &str, before: usize) -> String {
    signer.seal(&json!({"a": address, "b": before}))
}

fn open_cursor(signer: &QuoteSigner, cursor: &str, address: &str) -> Option<usize> {
    let payload = signer.open(cursor)?;
    if payload["a"].as_str() != Some(address) {
        return None;
    }
    payload["b"].as_u64().and_then(|b| usize::try_from(b).ok())
}

/// What a state file restores: the signing key and the book.
pub type Restored = ([u8; 32], Book);

/// The book kept in a file: written after every change, read at start.
#[derive(Debug)]
pub struct StateFile {
    path: PathBuf,
    write: Mutex<u64>,
}

#[derive(Serialize, Deserialize)]
struct Saved {
    format: u32,
    key: String,
    book: Book,
}

/// Why a state file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// The file exists but could not be read.
    #[error("cannot read the gateway-sim state file {path}: {source}")]
    Read {
        /// The state file.
        path: PathBuf,
        /// Why reading it failed.
        source: std::io::Error,
    },
    /// The file is not a state file's JSON, has another format version, or its key is not 32 bytes of hex.
    #[error(
        "the gateway-sim state file {path} is not a state file this version can read: {reason}"
    )]
    Unreadable {
        /// The state file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A snapshot could not be written (its directory, the temporary file, or replacing the file).
    #[error("cannot write the gateway-sim state file {path}: {source}")]
    Write {
        /// The state file.
        path: PathBuf,
        /// Why writing it failed.
        source: std::io::Error,
    },
}

impl StateFile {
    /// Opens `path`: gives the saved key and book, or `None` when the file does not exist yet.
    pub fn open(path: &Path) -> Result<(Self, Option<Restored>), StateError> {
        let file = Self {
            path: path.to_owned(),
            write: Mutex::new(0),
        };
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((file, None)),
            Err(source) => {
                return Err(StateError::Read {
                    path: path.to_owned(),
                    source,
                });
            }
        };
        let unreadable = |reason: String| StateError::Unreadable {
            path: path.to_owned(),
            reason,
        };
        let saved: Saved = serde_json::from_slice(&bytes).map_err(|e| unreadable(e.to_string()))?;
        if saved.format != STATE_FORMAT {
            return Err(unreadable(format!(
                "format {} (this version reads {STATE_FORMAT})",
                saved.format
            )));
        }
        let key: [u8; 32] = hex::decode(&saved.key)
            .ok()
            .and_then(|k| k.try_into().ok())
            .ok_or_else(|| unreadable("the key is not 32 bytes of hex".into()))?;
        let mut book = saved.book;
        book.reindex();
        Ok((file, Some((key, book))))
    }

    /// The bytes to write for `book` (taken under the book's lock, so they are consistent).
    pub fn snapshot(signer: &QuoteSigner, book: &Book) -> Vec<u8> {
        #[derive(Serialize)]
        struct SavedRef<'a> {
            format: u32,
            key: String,
            book: &'a Book,
        }
        serde_json::to_vec(&SavedRef {
            format: STATE_FORMAT,
            key: hex::encode(signer.secret()),
            book,
        })
        .expect("the book serializes")
    }

    /// Writes snapshot number `generation` unless a newer one has been written; replaces the file atomically.
    pub fn write(&self, generation: u64, bytes: &[u8]) -> Result<(), StateError> {
        let mut written = self.write.lock().unwrap_or_else(|p| p.into_inner());
        if generation <= *written && *written != 0 {
            return Ok(());
        }
        let failed = |source| StateError::Write {
            path: self.path.clone(),
            source,
        };
        let dir = self
            .path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(failed)?;
        let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(failed)?;
        tmp.write_all(bytes).map_err(failed)?;
        tmp.as_file().sync_all().map_err(failed)?;
        tmp.persist(&self.path).map_err(|e| failed(e.error))?;
        *written = generation;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offramp_quote(n: usize) -> Value {
        json!({"offramp": {
            "srcChain": "bob",
            "inputAmount": {"address": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "amount": n.to_string(), "chain": "bob"},
            "recipient": "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh",
            "slippage": 300,
        }})
    }

    #[test]
    fn the_remembered_quotes_are_bounded_and_the_newest_kept() {
        let mut book = Book::default();
        let start = 1_700_000_000;
        let total = MAX_REMEMBERED_QUOTES + 2_500;
        for n in 0..total {
            // Ten new quotes a second, all within their memory time.
            book.remember_quote(&offramp_quote(n), None, start + (n / 10) as u64);
        }
        assert!(book.remembered_quotes() <= MAX_REMEMBERED_QUOTES);
        assert!(book.remembered_quotes() >= MAX_REMEMBERED_QUOTES * 8 / 10);
        let newest = offramp_quote(total - 1);
        let inner = newest["offramp"].as_object().unwrap();
        assert!(
            book.issued
                .contains_key(&integrity::digest(RouteKind::Offramp, inner))
        );
        // Quotes past their memory are forgotten as time goes on.
        book.remember_quote(&offramp_quote(total), None, start + 100_000);
        assert_eq!(book.remembered_quotes(), 1);
    }
}
