//! Every endpoint of every version, over loopback, checked against the published service's OpenAPI document:
//! get-routes, get-quote, create-order (request and 201 answer), register-tx (request and 200 answer), get-order
//! in every status, get-orders (pages in V2/V3, a bare array in V1), and the 400 error bodies of each endpoint.
//! Every route of the catalogue goes through the whole flow in every version.

use crate::support;

use std::collections::HashMap;

use alloy_primitives::U256;
use gateway_client::wire::RouteKind;
use gateway_client::{ApiVersion, RouteInfo};
use serde_json::{Value, json};
use support::{
    BTC_ADDR, EVM, OWNER, VERSIONS, amount_for, assert_conforms, http, openapi, quote_query,
    request_schema, schema_errors, slug, start_with, unlimited_sim,
};

/// A source transaction hash in `chain`'s format, different for each `n`.
fn src_hash(chain: &str, n: usize) -> String {
    let hex = format!("{n:064x}");
    match chain {
        "bitcoin" | "tron" => hex,
        "solana" => bs58::encode([n as u8 + 1; 64]).into_string(),
        _ => format!("0x{hex}"),
    }
}

/// A registration body for `route` under `version`.
fn register_body(
    version: ApiVersion,
    kind: RouteKind,
    order_id: &str,
    chain: &str,
    n: usize,
) -> Value {
    match (kind, version) {
        (RouteKind::Onramp, _) => {
            json!({"onramp": {"order_id": order_id, "bitcoin_txid": src_hash("bitcoin", n)}})
        }
        (_, ApiVersion::V3) => {
            json!({kind.as_str(): {"order_id": order_id, "src_tx_hash": src_hash(chain, n), "src_chain": chain}})
        }
        (RouteKind::TokenSwap, ApiVersion::V1) => {
            json!({"layerZero": {"order_id": order_id, "evm_txhash": src_hash(chain, n)}})
        }
        _ => json!({kind.as_str(): {"order_id": order_id, "evm_txhash": src_hash(chain, n)}}),
    }
}

#[tokio::test]
async fn every_route_of_every_version_conforms_through_the_whole_flow() {
    let (sim, running) = start_with(unlimited_sim()).await;
    let doc = openapi();
    let http = http(&running);
    let mut n = 0;
    // (version, order id, source tx hash) of every order made.
    let mut made: Vec<(ApiVersion, String, String)> = Vec::new();
    let mut statuses: HashMap<&'static str, usize> = HashMap::new();

    for version in VERSIONS {
        let v = slug(version);
        let (status, routes) = http.get(&format!("/{v}/get-routes"), &[]).await;
        assert_eq!(status, 200);
        assert_conforms(&doc, "get", &format!("/{v}/get-routes"), 200, &routes);
        let create_schema = request_schema(&doc, "post", &format!("/{v}/create-order"));
        let register_schema = request_schema(&doc, "patch", &format!("/{v}/register-tx"));

        for route in sim.catalogue().routes(version) {
            n += 1;
            let what = format!("{v} {route:?}");
            let amount = amount_for(&sim, &route, n);
            let (status, quote) = http
                .get(
                    &format!("/{v}/get-quote"),
                    &quote_query(version, &route, &amount),
                )
                .await;
            assert_eq!(status, 200, "{what}: {quote}");
            assert_conforms(&doc, "get", &format!("/{v}/get-quote"), 200, &quote);

            // The quote goes back unchanged as the create-order body.
            let errors = schema_errors(&create_schema, &quote);
            assert!(errors.is_empty(), "{what}: create-order body {errors:?}");
            let (status, created) = http.post(&format!("/{v}/create-order"), &quote).await;
            assert_eq!(status, 201, "{what}: {created}");
            assert_conforms(&doc, "post", &format!("/{v}/create-order"), 201, &created);
            let (key, inner) = created.as_object().unwrap().iter().next().unwrap();
            assert_eq!(key, quote.as_object().unwrap().keys().next().unwrap());
            let order_id = inner["order_id"].as_str().unwrap().to_owned();
            if version == ApiVersion::V3 && route.kind() != RouteKind::Onramp {
                let expected = match route.src_chain.as_str() {
                    "tron" => "tron",
                    "solana" => "solana",
                    _ => "evm",
                };
                assert_eq!(inner["tx"]["type"], expected, "{what}");
            }

            // Registration.
            let body = register_body(version, route.kind(), &order_id, &route.src_chain, n);
            let errors = schema_errors(&register_schema, &body);
            assert!(errors.is_empty(), "{what}: register-tx body {errors:?}");
            let (status, answer) = http.patch(&format!("/{v}/register-tx"), &body).await;
            assert_eq!(status, 200, "{what}: {answer}");
            assert_conforms(&doc, "patch", &format!("/{v}/register-tx"), 200, &answer);
            let hash = if route.kind() == RouteKind::Onramp {
                assert_eq!(answer["onramp"]["txid"], src_hash("bitcoin", n));
                src_hash("bitcoin", n)
            } else {
                assert_eq!(answer, json!("ok"));
                src_hash(&route.src_chain, n)
            };
            made.push((version, order_id, hash));
        }
    }

    // Every order in each phase: right after registration, half-way (offramp payouts pending), and at the end.
    for advance in [0, 1_000, 1_000] {
        sim.clock().advance(advance);
        for (version, id, hash) in &made {
            let v = slug(*version);
            let (status, by_id) = http.get(&format!("/{v}/get-order/{id}"), &[]).await;
            assert_eq!(status, 200);
            assert_conforms(&doc, "get", &format!("/{v}/get-order/{{id}}"), 200, &by_id);
            let (status, by_hash) = http.get(&format!("/{v}/get-order/{hash}"), &[]).await;
            assert_eq!(status, 200, "found by its source transaction {hash}");
            assert_eq!(by_hash, by_id);
            let label = match &by_id["status"] {
                Value::String(s) if s == "success" => "success",
                Value::String(_) => "refunded",
                Value::Object(m) if m.contains_key("inProgress") => {
                    if m["inProgress"].get("pending_btc_payment").is_some() {
                        "pending_btc_payment"
                    } else {
                        "inProgress"
                    }
                }
                Value::Object(m) if m.contains_key("failed") => "failed",
                Value::Object(m) if m.contains_key("success") => "success",
                _ => "refunded",
            };
            *statuses.entry(label).or_default() += 1;
        }
    }
    for label in [
        "inProgress",
        "pending_btc_payment",
        "success",
        "failed",
        "refunded",
    ] {
        assert!(
            statuses.get(label).is_some_and(|&c| c > 0),
            "{label} seen: {statuses:?}"
        );
    }

    // get-orders: every version's shape; pages cover each order once.
    for version in VERSIONS {
        let v = slug(version);
        let path = format!("/{v}/get-orders/{{user_address}}");
        let mine = made.iter().filter(|(ver, ..)| *ver == version).count();
        if version == ApiVersion::V1 {
            let (status, all) = http.get(&format!("/{v}/get-orders/{EVM}"), &[]).await;
            assert_eq!(status, 200);
            assert_conforms(&doc, "get", &path, 200, &all);
            assert!(all.as_array().unwrap().len() >= mine);
            continue;
        }
        let mut seen = std::collections::HashSet::new();
        let mut cursor: Option<String> = None;
        loop {
            let mut query = vec![("limit", "7".to_owned())];
            if let Some(c) = &cursor {
                query.push(("cursor", c.clone()));
            }
            let (status, page) = http.get(&format!("/{v}/get-orders/{OWNER}"), &query).await;
            assert_eq!(status, 200, "{page}");
            assert_conforms(&doc, "get", &path, 200, &page);
            let orders = page["orders"].as_array().unwrap();
            assert!(orders.len() <= 7);
            for order in orders {
                assert!(
                    seen.insert(order["id"].as_str().unwrap().to_owned()),
                    "no order twice"
                );
            }
            match page["nextCursor"].as_str() {
                Some(next) => cursor = Some(next.to_owned()),
                None => break,
            }
        }
        // The owner is on every V3 order; V2 quotes carry no owner, so V2 pages list the V3 orders only.
        let owned = made
            .iter()
            .filter(|(ver, ..)| *ver == ApiVersion::V3)
            .count();
        assert_eq!(seen.len(), owned, "{v}");
    }
    running.shutdown().await.unwrap();
}

#[tokio::test]
async fn error_bodies_of_every_endpoint_conform_and_unknown_orders_are_404_without_a_body() {
    let (sim, running) = start_with(unlimited_sim()).await;
    let doc = openapi();
    let http = http(&running);
    for version in VERSIONS {
        let v = slug(version);
        let route = sim.catalogue().routes(version)[0].clone();
        let (_, quote) = http
            .get(
                &format!("/{v}/get-quote"),
                &quote_query(version, &route, &amount_for(&sim, &route, 0)),
            )
            .await;
        let (status, _) = http.post(&format!("/{v}/create-order"), &quote).await;
        assert_eq!(status, 201);
        let cases = [
            ("post", "create-order", http.post(&format!("/{v}/create-order"), &quote).await, "DUPLICATE_ORDER"),
            ("post", "create-order", http.post(&format!("/{v}/create-order"), &json!({"onramp": 1})).await, "INVALID_REQUEST"),
            (
                "patch",
                "register-tx",
                http.patch(&format!("/{v}/register-tx"), &json!({"onramp": {"order_id": "nope", "bitcoin_txid": src_hash("bitcoin", 1)}}))
                    .await,
                "ORDER_NOT_FOUND",
            ),
            (
                "get",
                "get-orders/{user_address}",
                http.get(&format!("/{v}/get-orders/{EVM}"), &[("cursor", "forged".into())]).await,
                if version == ApiVersion::V1 { "" } else { "INVALID_CURSOR" },
            ),
        ];
        for (method, endpoint, (status, body), code) in cases {
            if code.is_empty() {
                continue; // V1 has no cursor
            }
            assert_eq!(status, 400, "{v} {endpoint}: {body}");
            assert_eq!(body["code"], code, "{v} {endpoint}");
            assert_conforms(&doc, method, &format!("/{v}/{endpoint}"), 400, &body);
        }
        let (status, body) = http
            .get(&format!("/{v}/get-order/unknown-order"), &[])
            .await;
        assert_eq!((status, body), (404, Value::Null));
    }
    running.shutdown().await.unwrap();
}

#[tokio::test]
async fn the_client_reads_the_routes_and_unknown_paths_are_404_without_a_body() {
    let (sim, running) = support::start().await;
    for version in VERSIONS {
        let routes = support::client(&running, version)
            .get_routes()
            .await
            .unwrap()
            .value;
        assert_eq!(routes, sim.catalogue().routes(version));
    }
    let response = reqwest::get(format!("{}/v5/get-routes", running.base_url()))
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
    assert!(response.bytes().await.unwrap().is_empty());

    let mut config = gateway_client::ClientConfig::new(
        format!("{}/nowhere", running.base_url()).parse().unwrap(),
    );
    config.read_attempts = 1;
    let err = gateway_client::Client::new(config)
        .unwrap()
        .get_routes()
        .await
        .unwrap_err();
    assert!(
        matches!(err, gateway_client::ClientError::NotFound),
        "{err:?}"
    );

    // The schema can fail: a route missing a field is refused.
    let doc = openapi();
    let schema = support::response_schema(&doc, "get", "/v3/get-routes", "200").unwrap();
    let broken = json!([{ "srcChain": "bitcoin", "srcToken": "BTC", "dstChain": "bob" }]);
    assert!(!schema_errors(&schema, &broken).is_empty());
    running.shutdown().await.unwrap();
}

/// `schema` with its `$ref` followed (to `#/components/schemas/…` of `doc`).
fn resolved<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => {
            let name = reference
                .strip_prefix("#/components/schemas/")
                .unwrap_or_else(|| panic!("a local schema reference: {reference}"));
            resolved(doc, &doc["components"]["schemas"][name])
        }
        None => schema,
    }
}

/// Whether the object `map` can be of the (resolved) object schema `schema`: it has every required property.
fn fits(schema: &Value, map: &serde_json::Map<String, Value>) -> bool {
    let is_object = match &schema["type"] {
        Value::String(t) => t == "object",
        Value::Array(types) => types.iter().any(|t| t == "object"),
        _ => schema.get("properties").is_some(),
    };
    is_object
        && schema["required"].as_array().is_none_or(|required| {
            required
                .iter()
                .all(|r| map.contains_key(r.as_str().unwrap()))
        })
}

/// What a client generated from the published document sends back of `value`, read by `schema`: only the properties
/// the schema defines (following `$ref`, and the branch of a `oneOf`/`anyOf` the value fits), every `null` left out,
/// and the keys of every object in sorted order.
fn as_a_typed_client_sends(doc: &Value, schema: &Value, value: &Value) -> Value {
    let schema = resolved(doc, schema);
    match value {
        Value::Object(map) => {
            for combinator in ["oneOf", "anyOf"] {
                if let Some(branches) = schema[combinator].as_array() {
                    let branch = branches
                        .iter()
                        .map(|b| resolved(doc, b))
                        .find(|b| fits(b, map))
                        .unwrap_or_else(|| panic!("no branch of {schema} fits {value}"));
                    return as_a_typed_client_sends(doc, branch, value);
                }
            }
            let properties = schema["properties"].as_object();
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let mut kept = serde_json::Map::new();
            for key in keys {
                let Some(property) = properties.and_then(|p| p.get(key)) else {
                    continue; // not in the schema: a generated type has no field for it
                };
                if map[key].is_null() {
                    continue; // an absent optional field
                }
                kept.insert(
                    key.clone(),
                    as_a_typed_client_sends(doc, property, &map[key]),
                );
            }
            Value::Object(kept)
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| as_a_typed_client_sends(doc, &schema["items"], item))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Another valid address on `chain` than [`address_on`]'s.
fn other_address_on(chain: &str) -> &'static str {
    match chain {
        "bitcoin" => "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        "tron" => "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
        "solana" => "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
        _ => "0x0000000000000000000000000000000000000001",
    }
}

/// A client generated from the published document (as the service's own SDK is) keeps only what the schema
/// defines, may reorder keys and drops nulls: its create-order must be accepted for every route of every version,
/// the V3 owner must still be the order's, and a changed amount or recipient must still be refused.
#[tokio::test]
async fn a_typed_clients_round_trip_is_accepted_and_a_changed_quote_is_not() {
    let (sim, running) = start_with(unlimited_sim()).await;
    let doc = openapi();
    let http = http(&running);
    let mut n = 0;
    for version in VERSIONS {
        let v = slug(version);
        let quote_schema = support::quote_schema(&doc, version, "200");
        for route in sim.catalogue().routes(version) {
            n += 1;
            let what = format!("{v} {route:?}");
            let amount = amount_for(&sim, &route, n);
            let mut query = quote_query(version, &route, &amount);
            if version == ApiVersion::V3 && route.kind() == RouteKind::Onramp {
                query.push(("refundAddress", BTC_ADDR.to_owned()));
            }
            let fetch = || async {
                let (status, quote) = http.get(&format!("/{v}/get-quote"), &query).await;
                assert_eq!(status, 200, "{what}: {quote}");
                as_a_typed_client_sends(&doc, &quote_schema, &quote)
            };

            let typed = fetch().await;
            let (status, created) = http.post(&format!("/{v}/create-order"), &typed).await;
            assert_eq!(status, 201, "{what}: {created}\nsent {typed:#}");
            let (_, inner) = created.as_object().unwrap().iter().next().unwrap();
            let order_id = inner["order_id"].as_str().unwrap().to_owned();
            if version == ApiVersion::V3 {
                // The owner is the order's even where the quote variant has no field for it.
                let (status, page) = http
                    .get(
                        &format!("/{v}/get-orders/{OWNER}"),
                        &[("limit", "100".into())],
                    )
                    .await;
                assert_eq!(status, 200, "{what}: {page}");
                assert!(
                    page["orders"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|o| o["id"] == order_id.as_str()),
                    "{what}: the order is not listed under its owner"
                );
            }

            // The same round trip, then one changed field: refused, and no order made.
            type Change = fn(&mut Value, &RouteInfo);
            let changes: [(&str, Change); 3] = [
                ("input amount", |q, _| {
                    let amount = &mut q["inputAmount"]["amount"];
                    let more = amount.as_str().unwrap().parse::<U256>().unwrap() + U256::from(1u8);
                    *amount = json!(more.to_string());
                }),
                ("output amount", |q, _| {
                    let amount = &mut q["outputAmount"]["amount"];
                    let more = amount.as_str().unwrap().parse::<U256>().unwrap() + U256::from(1u8);
                    *amount = json!(more.to_string());
                }),
                ("recipient", |q, route| {
                    q["recipient"] = json!(other_address_on(&route.dst_chain));
                }),
            ];
            for (field, change) in changes {
                let mut changed = fetch().await;
                let (_, inner) = changed.as_object_mut().unwrap().iter_mut().next().unwrap();
                change(inner, &route);
                let (status, refused) = http.post(&format!("/{v}/create-order"), &changed).await;
                assert_eq!(
                    status, 400,
                    "{what}: changed {field} was accepted: {refused}"
                );
                assert_eq!(
                    refused["code"], "INVALID_ORDER_ARGS",
                    "{what}: {field}: {refused}"
                );
            }
        }
    }
}

/// get-max-spendable in every version: the 200 answer and the 400 of an address that is not one, against the
/// published document.
#[tokio::test]
async fn max_spendable_conforms_in_every_version() {
    let (_sim, running) = start_with(unlimited_sim()).await;
    let doc = openapi();
    let http = http(&running);
    for version in VERSIONS {
        let v = slug(version);
        let path = format!("/{v}/get-max-spendable/{{address}}");
        let (status, body) = http
            .get(&format!("/{v}/get-max-spendable/{BTC_ADDR}"), &[])
            .await;
        assert_eq!(status, 200, "{v}: {body}");
        assert_conforms(&doc, "get", &path, 200, &body);
        let (status, body) = http
            .get(&format!("/{v}/get-max-spendable/not-an-address"), &[])
            .await;
        assert_eq!(status, 400, "{v}: {body}");
        assert_conforms(&doc, "get", &path, 400, &body);
    }
}

/// What the document does not list but the sim must answer (401 for an unknown key, 429 over the limit, an injected
/// 500) is still the document's error object, as JSON.
#[tokio::test]
async fn answers_the_document_does_not_list_are_still_its_error_object() {
    let sim = gateway_sim::Sim::with_config(gateway_sim::SimConfig {
        access: gateway_sim::access::AccessConfig {
            keyless_per_minute: 1,
            ..gateway_sim::access::AccessConfig::default()
        },
        ..Default::default()
    })
    .unwrap();
    let (sim, running) = start_with(sim).await;
    let doc = openapi();
    let error_schema = support::response_schema(&doc, "get", "/v3/get-quote", "400").unwrap();
    let client = reqwest::Client::new();
    let get = |key: Option<&str>| {
        let mut request = client.get(format!("{}/v3/get-routes", running.base_url()));
        if let Some(key) = key {
            request = request.bearer_auth(key);
        }
        request.send()
    };
    let mut bodies = Vec::new();
    let unknown = get(Some("0123456789abcdef0123456789abcdef")).await.unwrap();
    bodies.push((
        unknown.status().as_u16(),
        unknown.headers().clone(),
        unknown.bytes().await.unwrap(),
    ));
    let _ = get(None).await.unwrap(); // uses the one request a minute
    let limited = get(None).await.unwrap();
    bodies.push((
        limited.status().as_u16(),
        limited.headers().clone(),
        limited.bytes().await.unwrap(),
    ));
    sim.faults()
        .add(
            serde_json::from_value(
                json!({"endpoint": "get-routes", "fault": {"status": {"code": 500}}}),
            )
            .unwrap(),
        )
        .unwrap();
    let failed = client
        .get(format!("{}/v3/get-routes", running.base_url()))
        .send()
        .await
        .unwrap();
    bodies.push((
        failed.status().as_u16(),
        failed.headers().clone(),
        failed.bytes().await.unwrap(),
    ));
    let statuses: Vec<u16> = bodies.iter().map(|(s, _, _)| *s).collect();
    assert_eq!(statuses, [401, 429, 500]);
    for (status, headers, bytes) in bodies {
        assert!(
            headers["content-type"]
                .to_str()
                .unwrap()
                .starts_with("application/json"),
            "{status}"
        );
        let body: Value = serde_json::from_slice(&bytes).unwrap();
        let errors = schema_errors(&error_schema, &body);
        assert!(errors.is_empty(), "{status}: {errors:?} {body}");
    }
}
