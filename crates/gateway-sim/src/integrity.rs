//! What create-order holds a quote to: the quote's *material* — the fields that decide what moves, to whom and on
//! what terms — read only from properties the published document defines for that quote variant.
//!
//! A client generated from the published document keeps only the properties its schema defines, may reorder keys,
//! and may write an absent optional field as `null` or drop a `null`. None of that may make a genuine quote look
//! tampered, while any changed amount, token, chain, address, slippage or affiliate must. So the integrity check
//! works on a projection, not on the bytes:
//!
//! - token amounts (`inputAmount`, `outputAmount`, `fees`, `executionFees`, every fee line of `feeBreakdown`) keep
//!   `address`, `amount` and `chain` (their `usd` is a display value);
//! - addresses (`recipient`, `sender`, `token`, `tokenAddress`, `dstToken`, `txTo`, `affiliateAddress`, the V3
//!   offramp's `ownerAddress`, affiliates' addresses) are compared per chain's rules: `0x…` and Bech32 without case,
//!   Base58 exactly;
//! - `slippage` is a number whether sent as `"300"` or `300`;
//! - a `null` is the same as an absent field; unknown properties, USD values, `priceImpact*`, `totalFeeUsd` and
//!   `estimatedTimeInSecs` are left out (the sim takes the order's timeline from the route, not from the quote).
//!
//! What a variant cannot carry on the wire (the owner of a V3 onramp or token swap, the refund address of a V3
//! onramp) is kept by the gateway beside the quote: inside the onramp's signed token, and with the remembered issue
//! of a token swap.

use gateway_client::wire::RouteKind;
use serde_json::{Map, Value, json};

/// Fields of a quote that are token amounts.
const AMOUNT_FIELDS: [&str; 4] = ["inputAmount", "outputAmount", "fees", "executionFees"];
/// Fields of a quote that are chain slugs.
const CHAIN_FIELDS: [&str; 2] = ["srcChain", "dstChain"];
/// Lines of `feeBreakdown` (onramp and offramp; the onramp's fifth line has two names, see `wire-facts.md`).
const FEE_LINES: [&str; 7] = [
    "solverFee",
    "protocolFee",
    "affiliateFee",
    "executionFee",
    "layerzeroFee",
    "messagingFee",
    "inclusionFee",
];

/// The address fields that matter for `route` (the owner only where the published variant defines it: V3 offramp).
fn address_fields(route: RouteKind) -> &'static [&'static str] {
    match route {
        RouteKind::Onramp => &[
            "recipient",
            "sender",
            "token",
            "dstToken",
            "affiliateAddress",
        ],
        RouteKind::Offramp => &[
            "recipient",
            "sender",
            "tokenAddress",
            "txTo",
            "affiliateAddress",
            "ownerAddress",
            "refundAddress",
        ],
        RouteKind::TokenSwap => &["recipient", "sender", "txTo", "refundAddress"],
    }
}

/// An address as compared: EVM hex and Bech32 (`bc1`, `tb1`, `bcrt1`) without case, anything else as given.
pub fn normalize_address(address: &str) -> String {
    let a = address.trim();
    let lower = a.to_ascii_lowercase();
    if lower.starts_with("0x")
        || lower.starts_with("bc1")
        || lower.starts_with("tb1")
        || lower.starts_with("bcrt1")
    {
        lower
    } else {
        a.to_owned()
    }
}

/// A present, non-null value.
fn present<'a>(map: &'a Map<String, Value>, field: &str) -> Option<&'a Value> {
    map.get(field).filter(|v| !v.is_null())
}

/// A string or a whole number, as text (amounts are strings on the wire; a client might write a number).
fn scalar_text(value: &Value) -> Value {
    match value {
        Value::String(s) => json!(s.trim()),
        Value::Number(n) => json!(n.to_string()),
        other => other.clone(),
    }
}

fn address_value(value: &Value) -> Value {
    match value {
        Value::String(s) => json!(normalize_address(s)),
        other => other.clone(),
    }
}

/// A token amount's material: where, which token, how much.
fn token_amount(value: &Value) -> Value {
    let Some(map) = value.as_object() else {
        return value.clone();
    };
    let mut out = Map::new();
    if let Some(chain) = present(map, "chain") {
        out.insert("chain".into(), chain.clone());
    }
    if let Some(address) = present(map, "address") {
        out.insert("address".into(), address_value(address));
    }
    if let Some(amount) = present(map, "amount") {
        out.insert("amount".into(), scalar_text(amount));
    }
    Value::Object(out)
}

/// The material of the quote object `quote` (the value under its route key) of `route`.
pub fn material(route: RouteKind, quote: &Map<String, Value>) -> Value {
    let mut out = Map::new();
    for field in AMOUNT_FIELDS {
        if let Some(v) = present(quote, field) {
            out.insert(field.into(), token_amount(v));
        }
    }
    for field in CHAIN_FIELDS {
        if let Some(v) = present(quote, field) {
            out.insert(field.into(), v.clone());
        }
    }
    for &field in address_fields(route) {
        if let Some(v) = present(quote, field) {
            out.insert(field.into(), address_value(v));
        }
    }
    if let Some(v) = present(quote, "slippage") {
        out.insert("slippage".into(), scalar_text(v));
    }
    if let Some(breakdown) = present(quote, "feeBreakdown").and_then(Value::as_object) {
        let mut lines = Map::new();
        for line in FEE_LINES {
            if let Some(v) = present(breakdown, line) {
                lines.insert(line.into(), token_amount(v));
            }
        }
        if let Some(rate) = present(breakdown, "fastestFeeRate") {
            lines.insert("fastestFeeRate".into(), scalar_text(rate));
        }
        out.insert("feeBreakdown".into(), Value::Object(lines));
    }
    if let Some(list) = present(quote, "affiliates").and_then(Value::as_array) {
        let resolved = list
            .iter()
            .map(|a| {
                let address = a.get("address").map(address_value).unwrap_or(Value::Null);
                let fee = a.get("fee").map(token_amount).unwrap_or(Value::Null);
                json!({"address": address, "fee": fee})
            })
            .collect();
        out.insert("affiliates".into(), Value::Array(resolved));
    }
    if route == RouteKind::TokenSwap {
        if let Some(a) = present(quote, "affiliate").and_then(Value::as_object) {
            let address = a.get("address").map(address_value).unwrap_or(Value::Null);
            let bps = a.get("bps").map(scalar_text).unwrap_or(Value::Null);
            out.insert("affiliate".into(), json!({"address": address, "bps": bps}));
        }
        // V1's layerZero quote names its call in `tx`.
        if let Some(tx) = present(quote, "tx").and_then(Value::as_object) {
            let mut call = Map::new();
            for (field, value) in tx {
                let value = match field.as_str() {
                    "to" => address_value(value),
                    "data" => value
                        .as_str()
                        .map_or_else(|| value.clone(), |d| json!(d.to_ascii_lowercase())),
                    "value" => scalar_text(value),
                    _ if value.is_null() => continue,
                    _ => value.clone(),
                };
                call.insert(field.clone(), value);
            }
            out.insert("tx".into(), Value::Object(call));
        }
    }
    Value::Object(out)
}

/// Hex SHA-256 of the quote's material (keys sorted): equal for the same quote however a client re-serialized it.
pub fn digest(route: RouteKind, quote: &Map<String, Value>) -> String {
    content_digest(&material(route, quote))
}

/// Sorts object keys at every level, so the serialization does not depend on field order.
fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let mut sorted = Map::new();
            for k in keys {
                sorted.insert(k.clone(), canonical(&map[k]));
            }
            Value::Object(sorted)
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

/// Hex SHA-256 of any JSON value with object keys sorted at every level.
pub(crate) fn content_digest(value: &Value) -> String {
    let text = serde_json::to_string(&canonical(value)).expect("JSON values serialize");
    use sha2::Digest as _;
    alloy_primitives::hex::encode(sha2::Sha256::digest(text.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offramp() -> Map<String, Value> {
        json!({
            "srcChain": "bob",
            "tokenAddress": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c",
            "inputAmount": {"address": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "amount": "100000", "chain": "bob", "usd": "100.00"},
            "outputAmount": {"address": "0x0000000000000000000000000000000000000000", "amount": "97000", "chain": "bitcoin", "usd": "97.00"},
            "totalFeeUsd": "3.00",
            "feeBreakdown": {
                "solverFee": {"address": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "amount": "200", "chain": "bob", "usd": "0.20"},
                "inclusionFee": {"address": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "amount": "2000", "chain": "bob"},
                "protocolFee": {"address": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "amount": "100", "chain": "bob"},
                "affiliateFee": {"address": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "amount": "0", "chain": "bob"},
                "fastestFeeRate": "12"
            },
            "recipient": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
            "slippage": 300,
            "txTo": "0x676174657761792d73696d2d636f6e7472616374",
            "ownerAddress": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "estimatedTimeInSecs": 1800,
            "priceImpact": "-0.0300",
            "sender": null
        })
        .as_object()
        .unwrap()
        .clone()
    }

    #[test]
    fn what_a_typed_client_may_do_keeps_the_digest() {
        let quote = offramp();
        let d = digest(RouteKind::Offramp, &quote);
        let mut typed = quote.clone();
        typed.remove("sender"); // null → absent
        typed.remove("priceImpact"); // an optional display field dropped
        typed.insert("affiliates".into(), Value::Null); // absent → null
        typed.insert("someUnknownField".into(), json!(1));
        typed["inputAmount"]["usd"] = Value::Null;
        typed["ownerAddress"] = json!("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed");
        typed["recipient"] = json!("BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ");
        typed["slippage"] = json!("300");
        typed.insert("estimatedTimeInSecs".into(), Value::Null);
        // Another key order.
        let reordered: Map<String, Value> = typed.into_iter().rev().collect();
        assert_eq!(digest(RouteKind::Offramp, &reordered), d);
    }

    #[test]
    fn every_change_that_matters_changes_the_digest() {
        let quote = offramp();
        let d = digest(RouteKind::Offramp, &quote);
        type Change = Box<dyn Fn(&mut Map<String, Value>)>;
        let changes: Vec<(&str, Change)> = vec![
            (
                "input amount",
                Box::new(|q| q["inputAmount"]["amount"] = json!("100001")),
            ),
            (
                "output amount",
                Box::new(|q| q["outputAmount"]["amount"] = json!("97001")),
            ),
            (
                "output chain",
                Box::new(|q| q["outputAmount"]["chain"] = json!("bob")),
            ),
            (
                "token",
                Box::new(|q| {
                    q["tokenAddress"] = json!("0x0000000000000000000000000000000000000001")
                }),
            ),
            (
                "recipient",
                Box::new(|q| q["recipient"] = json!("bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh")),
            ),
            (
                "owner",
                Box::new(|q| {
                    q["ownerAddress"] = json!("0x0000000000000000000000000000000000000001")
                }),
            ),
            (
                "owner dropped",
                Box::new(|q| {
                    q.remove("ownerAddress");
                }),
            ),
            (
                "contract",
                Box::new(|q| q["txTo"] = json!("0x0000000000000000000000000000000000000002")),
            ),
            ("slippage", Box::new(|q| q["slippage"] = json!(301))),
            (
                "fee line",
                Box::new(|q| q["feeBreakdown"]["solverFee"]["amount"] = json!("1")),
            ),
            (
                "fee rate",
                Box::new(|q| q["feeBreakdown"]["fastestFeeRate"] = json!("1")),
            ),
            (
                "sender added",
                Box::new(|q| q["sender"] = json!("0x0000000000000000000000000000000000000003")),
            ),
            (
                "affiliate added",
                Box::new(|q| {
                    q.insert("affiliates".into(), json!([{"address": "0x0000000000000000000000000000000000000004", "fee": {"address": "0x0", "amount": "1", "chain": "bob"}}]));
                }),
            ),
        ];
        for (what, change) in changes {
            let mut changed = quote.clone();
            change(&mut changed);
            assert_ne!(digest(RouteKind::Offramp, &changed), d, "{what}");
        }
    }

    #[test]
    fn base58_addresses_keep_their_case() {
        assert_eq!(
            normalize_address("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"),
            "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
        );
        assert_eq!(normalize_address(" 0xAbC "), "0xabc");
        assert_eq!(normalize_address("BCRT1QXYZ"), "bcrt1qxyz");
    }
}
