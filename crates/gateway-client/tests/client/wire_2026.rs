//! The typed wire against the service's current document (September 2026,
//! `tests/fixtures/published-openapi-2026-09.json`): V3 as it is now published, and V4.

use std::sync::LazyLock;

use gateway_client::ApiVersion;
use gateway_client::wire::{
    CreateOrderResult, OrderInfo, OrderStatus, OrdersPage, Quote, QuoteView, RegisterTx,
    RegisterTxResponse, RouteInfo,
};
use serde_json::{Value, json};

use crate::wire_schema::{
    EXAMPLES, compile, create_order_path, example, fixtures, missing_examples, register_path,
    rejected, request_schema, response_validator, violations,
};

/// The service's current document (September 2026, `tests/fixtures/published-openapi-2026-09.json`): V3 and V4 only.
static DOC_2026: LazyLock<Value> = LazyLock::new(|| {
    let text = std::fs::read_to_string(fixtures().join("published-openapi-2026-09.json"))
        .expect("the September 2026 document");
    serde_json::from_str(&text).expect("the September 2026 document is JSON")
});

/// Answers only the September 2026 document describes: the slippage refusal's new details, and an offramp paying out
/// with no `pending_btc_payment` ("no longer populated").
const EXAMPLES_2026: &[(&str, &str, &str, &str)] = &[
    (
        "v3-2026/error-slippage-too-low.json",
        "get",
        "/v3/get-quote",
        "400",
    ),
    (
        "v3-2026/get-order-paying-out.json",
        "get",
        "/v3/get-order/{id}",
        "200",
    ),
];

#[test]
fn v3_answers_match_the_current_document_too_and_its_new_shapes_are_read() {
    // Every V3 example of the 2025 document, and the new ones, against the September 2026 document's V3 schemas.
    let v3 = EXAMPLES.iter().filter(|e| e.0.starts_with("v3/"));
    let failures = rejected(&DOC_2026, v3.chain(EXAMPLES_2026));
    assert!(
        failures.is_empty(),
        "V3 examples rejected by the September 2026 document:\n{}",
        failures.join("\n")
    );

    // The slippage refusal's details read as their own shape.
    let body: gateway_client::GatewayErrorBody =
        serde_json::from_value(example("v3-2026/error-slippage-too-low.json")).unwrap();
    assert_eq!(body.code, gateway_client::ErrorCode::SlippageTooLow);
    assert_eq!(
        body.typed_details(),
        Some(gateway_client::ErrorDetails::SlippageBounds {
            required_bps: "50".into(),
            requested_bps: "20".into(),
        })
    );
    // An offramp paying out without `pending_btc_payment` is in progress, with nothing pending to show.
    let order: OrderInfo =
        serde_json::from_value(example("v3-2026/get-order-paying-out.json")).unwrap();
    assert!(
        matches!(
            &order.status,
            OrderStatus::InProgress {
                pending_btc_payment: None,
                ..
            }
        ),
        "{:?}",
        order.status
    );

    // The validation can fail: bps written as numbers are not the document's strings.
    let mut broken = example("v3-2026/error-slippage-too-low.json");
    broken["details"]["required_bps"] = json!(50);
    broken["details"]["requested_bps"] = json!(20);
    broken["code"] = json!("NOT_A_CODE");
    let validator = response_validator(&DOC_2026, "get", "/v3/get-quote", "400");
    assert!(!violations(&validator, &broken).is_empty());
}

/// Every V4 example: file under `examples/v4/`, method, path of the September 2026 document, and response status.
/// get-routes, create-order's results, get-order, get-orders and get-max-spendable are the V3 models, so their V3
/// examples were copied; the quotes are V4's own (no `ownerAddress`, a source-chain `refundAddress`).
const EXAMPLES_V4: &[(&str, &str, &str, &str)] = &[
    ("v4/get-routes.json", "get", "/v4/get-routes", "200"),
    ("v4/get-quote-onramp.json", "get", "/v4/get-quote", "200"),
    ("v4/get-quote-offramp.json", "get", "/v4/get-quote", "200"),
    ("v4/get-quote-tokenswap.json", "get", "/v4/get-quote", "200"),
    (
        "v4/get-quote-tokenswap-solana.json",
        "get",
        "/v4/get-quote",
        "200",
    ),
    (
        "v4/create-order-onramp.json",
        "post",
        "/v4/create-order",
        "201",
    ),
    (
        "v4/create-order-offramp-evm.json",
        "post",
        "/v4/create-order",
        "201",
    ),
    (
        "v4/create-order-tokenswap-tron.json",
        "post",
        "/v4/create-order",
        "201",
    ),
    (
        "v4/create-order-tokenswap-solana.json",
        "post",
        "/v4/create-order",
        "201",
    ),
    (
        "v4/error-missing-refund-address.json",
        "post",
        "/v4/create-order",
        "400",
    ),
    (
        "v4/register-tx-onramp.json",
        "patch",
        "/v4/register-tx",
        "200",
    ),
    (
        "v4/get-order-in-progress.json",
        "get",
        "/v4/get-order/{id}",
        "200",
    ),
    (
        "v4/get-order-success.json",
        "get",
        "/v4/get-order/{id}",
        "200",
    ),
    (
        "v4/get-orders.json",
        "get",
        "/v4/get-orders/{user_address}",
        "200",
    ),
    (
        "v4/get-max-spendable.json",
        "get",
        "/v4/get-max-spendable/{address}",
        "200",
    ),
    (
        "v4/error-max-spendable-invalid-address.json",
        "get",
        "/v4/get-max-spendable/{address}",
        "400",
    ),
];

#[test]
fn every_v4_operation_has_an_example_that_the_current_document_accepts() {
    let missing = missing_examples(&DOC_2026, "/v4/", EXAMPLES_V4);
    assert!(missing.is_empty(), "no V4 example for: {missing:?}");
    let failures = rejected(&DOC_2026, EXAMPLES_V4);
    assert!(
        failures.is_empty(),
        "V4 examples rejected by the September 2026 document:\n{}",
        failures.join("\n")
    );
    // The validation can fail: a V4 quote's refund address is a string or null, never a number.
    let mut broken = example("v4/get-quote-offramp.json");
    broken["offramp"]["refundAddress"] = json!(7);
    let validator = response_validator(&DOC_2026, "get", "/v4/get-quote", "200");
    assert!(!violations(&validator, &broken).is_empty());
}

#[test]
fn the_typed_wire_reads_v4_and_its_quotes_are_create_order_bodies_of_v4() {
    let create = compile(
        &DOC_2026,
        request_schema(&DOC_2026, "post", &create_order_path(ApiVersion::V4)),
        false,
    );
    for &(file, _, path, status) in EXAMPLES_V4 {
        let raw = example(file);
        match (path.split('/').nth(2).unwrap(), status) {
            (_, "400") => {
                let body: gateway_client::GatewayErrorBody =
                    serde_json::from_value(raw).expect(file);
                assert!(
                    !matches!(body.code, gateway_client::ErrorCode::Other(_)),
                    "{file}: {:?}",
                    body.code
                );
            }
            ("get-routes", _) => {
                let routes: Vec<RouteInfo> = serde_json::from_value(raw).expect(file);
                assert!(!routes.is_empty(), "{file}");
            }
            ("get-quote", _) => {
                let quote = Quote::from_json(raw.clone()).expect(file);
                assert_eq!(
                    serde_json::to_value(&quote).unwrap(),
                    raw,
                    "{file}: unchanged"
                );
                assert!(
                    violations(&create, &serde_json::to_value(&quote).unwrap()).is_empty(),
                    "{file} as a V4 create-order body"
                );
                match quote.view() {
                    QuoteView::Onramp(q) => {
                        assert_eq!(quote.view().refund_address(), None, "{file}");
                        assert_eq!(q.owner_address, None, "{file}");
                    }
                    QuoteView::Offramp(q) => {
                        assert_eq!(q.owner_address, None, "{file}");
                        assert_eq!(quote.view().refund_address(), q.sender.as_deref(), "{file}");
                    }
                    QuoteView::TokenSwap(q) => {
                        assert_eq!(q.owner_address, None, "{file}");
                        assert_eq!(quote.view().refund_address(), q.sender.as_deref(), "{file}");
                    }
                    QuoteView::LayerZero(_) => panic!("{file}: V4 has no layerZero"),
                }
            }
            ("create-order", _) => {
                let result = CreateOrderResult::from_json(raw).expect(file);
                assert!(!result.view().order_id().is_empty(), "{file}");
            }
            ("register-tx", _) => {
                let answer = RegisterTxResponse::from_value(&raw).expect(file);
                assert!(
                    matches!(answer, RegisterTxResponse::Onramp { .. }),
                    "{file}"
                );
            }
            ("get-order", _) => {
                let _: OrderInfo = serde_json::from_value(raw).expect(file);
            }
            ("get-orders", _) => {
                let page: OrdersPage = serde_json::from_value(raw).expect(file);
                assert!(!page.orders.is_empty(), "{file}");
            }
            ("get-max-spendable", _) => {
                let max: gateway_client::wire::MaxSpendable =
                    serde_json::from_value(raw).expect(file);
                assert!(max.sats().is_some(), "{file}");
            }
            other => panic!("{file}: no reading for {other:?}"),
        }
    }
    // The V3 offramp quote, which names no refund address, is read and has none.
    let v3 = Quote::from_json(example("v3/get-quote-offramp.json")).unwrap();
    assert_eq!(v3.view().refund_address(), None);
}

#[test]
fn v4_registers_only_an_onramps_signed_transaction() {
    let schema = compile(
        &DOC_2026,
        request_schema(&DOC_2026, "patch", &register_path(ApiVersion::V4)),
        false,
    );
    let id = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6";
    let hex = "02000000000101aa";
    let txid = "b6f6991d03df0e2e04dafffcd6bc418aac66049e2cd74b80f14ac86db1e3f0da";
    let hash = "0x9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    // The hex, alone or with a txid (which V4 has no field for and is left out), is V4's one body.
    for request in [
        RegisterTx::onramp(id, Some(hex), None),
        RegisterTx::onramp(id, Some(hex), Some(txid)),
    ] {
        let body = request.to_json(ApiVersion::V4);
        assert_eq!(
            body,
            json!({"onramp": {"order_id": id, "bitcoin_tx_hex": hex}})
        );
        assert!(violations(&schema, &body).is_empty(), "{body}");
    }
    // A txid alone, an offramp and a token swap are refused before anything is sent, with what V4 expects.
    let txid_only = RegisterTx::onramp(id, None, Some(txid))
        .validate(ApiVersion::V4)
        .unwrap_err()
        .to_string();
    assert!(
        txid_only.contains("signed Bitcoin transaction as hex"),
        "{txid_only}"
    );
    for request in [
        RegisterTx::offramp(id, hash, "bob"),
        RegisterTx::token_swap(id, hash, "base"),
    ] {
        let refused = request.validate(ApiVersion::V4).unwrap_err().to_string();
        assert!(
            refused.contains("reads offramp and token-swap transactions from the chain"),
            "{refused}"
        );
        request.validate(ApiVersion::V3).unwrap();
        // And the document agrees: V3's bodies are not V4's.
        assert!(!violations(&schema, &request.to_json(ApiVersion::V3)).is_empty());
    }
    assert!(
        !violations(
            &schema,
            &RegisterTx::onramp(id, None, Some(txid)).to_json(ApiVersion::V3)
        )
        .is_empty()
    );
}

#[test]
fn v4_knows_every_code_of_the_current_document() {
    // GatewayErrorCodeV4 is the earlier codes and V4's own; each is a known code with a next step.
    let schemas = &DOC_2026["components"]["schemas"];
    let mut codes = Vec::new();
    for variant in schemas["GatewayErrorCodeV4"]["oneOf"].as_array().unwrap() {
        let name = variant["$ref"]
            .as_str()
            .unwrap()
            .rsplit('/')
            .next()
            .unwrap();
        let listed = &schemas[name];
        let list = listed["enum"]
            .as_array()
            .or_else(|| listed["oneOf"].as_array())
            .unwrap_or_else(|| panic!("{name}: no codes listed"));
        for code in list {
            match code.as_str() {
                Some(code) => codes.push(code.to_owned()),
                None => codes.extend(
                    code["enum"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .map(str::to_owned),
                ),
            }
        }
    }
    assert!(
        codes.iter().any(|c| c == "MISSING_REFUND_ADDRESS"),
        "{codes:?}"
    );
    assert!(codes.len() > 20, "{codes:?}");
    for code in &codes {
        let parsed = gateway_client::ErrorCode::parse(code);
        assert!(
            !matches!(parsed, gateway_client::ErrorCode::Other(_)),
            "{code} is not known to the client"
        );
    }
}
