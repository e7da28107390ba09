//! register-tx: the user's transaction checked against the order and registered.

use gateway_client::ApiVersion;
use gateway_client::address::{ChainFamily, chain_family};
use gateway_client::txhash;
use gateway_client::wire::RouteKind;
use serde_json::{Value, json};

use super::{
    Book, Phase, REGISTRATION_WINDOW_SECS, Registration, err, normalize_tx, route_key,
    route_of_key, single_entry,
};
use crate::payload;
use crate::quote::QuoteError;

impl Book {
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
        if version == ApiVersion::V4 {
            v4_body(&key, &fields)?;
        }
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
                            "src_tx_hash is missing: give the hash (or the signature, on a chain whose transactions are named by one) of the transaction you broadcast",
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

        self.record_registration(i, &tx_hash, now);
        if let Some(tx) = ledger_tx.as_deref().and_then(|hex| {
            bitcoin::consensus::encode::deserialize_hex::<bitcoin::Transaction>(hex).ok()
        }) {
            let deposit = self.orders[i].deposit_address.clone();
            self.record_bitcoin_tx(&tx, &deposit);
        }
        Ok(register_answer(route, &tx_hash))
    }
}

impl Book {
    /// The orders the gateway reads from the chain (V4 offramps and token swaps) still waiting for their transaction
    /// at `now`: (order, the source chain).
    pub fn awaiting_chain_reading(&self, now: u64) -> Vec<crate::orders::Order> {
        self.orders
            .iter()
            .filter(|o| o.read_from_chain && o.phase(now) == Phase::AwaitingTx)
            .cloned()
            .collect()
    }

    /// Records `tx_hash`, found on the source chain, as the transaction of the order `order_id` (V4: nobody registers
    /// it). False when the order is gone, already has one, or the transaction pays another order.
    pub fn record_found(&mut self, order_id: &str, tx_hash: &str, now: u64) -> bool {
        self.settle(now);
        let Some(&i) = self.index.by_id.get(order_id) else {
            return false;
        };
        if self.orders[i].registration.is_some()
            || self.orders[i].phase(now) != Phase::AwaitingTx
            || self.index.by_tx.contains_key(&normalize_tx(tx_hash))
        {
            return false;
        }
        self.record_registration(i, tx_hash, now);
        true
    }

    /// Gives order `i` its transaction at `now` (its timeline starts), and indexes it.
    fn record_registration(&mut self, i: usize, tx_hash: &str, now: u64) {
        let old = (self.orders[i].settles_at(), i);
        let order = &mut self.orders[i];
        order.registration = Some(Registration {
            at: now,
            tx_hash: tx_hash.to_owned(),
        });
        let new = (order.settles_at(), i);
        self.index.open.remove(&old);
        self.index.open.insert(new);
        self.index.by_tx.insert(normalize_tx(tx_hash), i);
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

/// A hint when a source hash is of another chain's kind: an EVM hash given for a chain whose transactions are named
/// by a Base58 signature (Solana), such a signature for an EVM chain (empty otherwise).
fn wrong_kind_of_hash(chain: &str, hash: &str) -> String {
    use gateway_client::txhash::{TxIdShape, tx_id_shape};
    let hash = hash.trim();
    let evm_like = hash.starts_with("0x");
    let signed = |family: ChainFamily| matches!(tx_id_shape(family), TxIdShape::Base58 { .. });
    match chain_family(chain) {
        Some(family) if signed(family) && evm_like => format!(
            "this is an EVM transaction hash; a {family} transaction is named by its Base58 signature. "
        ),
        Some(ChainFamily::Evm) if !evm_like && hash.len() > 80 => {
            ChainFamily::ALL
                .into_iter()
                .find(|f| signed(*f))
                .map_or_else(String::new, |family| {
                    format!(
                        "this looks like a {family} signature; an EVM transaction hash is 0x and 64 hexadecimal \
                         characters. "
                    )
                })
        }
        _ => String::new(),
    }
}

/// V4's register-tx body (`RegisterTxV4`): an onramp's `order_id` and signed `bitcoin_tx_hex`, nothing else.
fn v4_body(key: &str, fields: &serde_json::Map<String, Value>) -> Result<(), QuoteError> {
    if key != "onramp" {
        return Err(err(
            "INVALID_REQUEST",
            format!(
                "V4 registers only onramps: the gateway reads {key} transactions from the chain; broadcast the transaction and follow the order by its id"
            ),
        ));
    }
    if fields.contains_key("bitcoin_txid") {
        return Err(err(
            "INVALID_REQUEST",
            "bitcoin_txid is not a V4 field: send the signed transaction as bitcoin_tx_hex; the gateway broadcasts it",
        ));
    }
    if fields
        .get("bitcoin_tx_hex")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        return Err(err(
            "INVALID_REQUEST",
            "bitcoin_tx_hex is missing: V4 takes the signed Bitcoin transaction as hex and broadcasts it",
        ));
    }
    Ok(())
}
