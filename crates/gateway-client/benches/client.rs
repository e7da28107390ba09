//! How fast the client reads quotes and order pages, and what it costs over a bare HTTP request on loopback.
//!
//! Run with `cargo xtask bench` (or `cargo bench -p gateway-client`). The ratio of the quote round trip to the bare
//! request is the client's own overhead: building and checking the request, parsing and keeping the raw quote.

use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use criterion::{Criterion, criterion_group, criterion_main};
use gateway_client::wire::{OrdersPage, Quote};
use gateway_client::{Client, ClientConfig, QuoteRequest};
use serde_json::{Value, json};

const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
const NATIVE: &str = "0x0000000000000000000000000000000000000000";

fn amount(address: &str, chain: &str, amount: &str) -> Value {
    json!({"address": address, "amount": amount, "chain": chain, "usd": "96.12"})
}

fn onramp_quote() -> Value {
    json!({"onramp": {
        "inputAmount": amount(NATIVE, "bitcoin", "100000"),
        "outputAmount": amount(WBTC_BOB, "bob", "99000"),
        "fees": amount(NATIVE, "bitcoin", "1000"),
        "executionFees": amount(NATIVE, "bitcoin", "300"),
        "feeBreakdown": {
            "solverFee": amount(NATIVE, "bitcoin", "400"), "protocolFee": amount(NATIVE, "bitcoin", "200"),
            "affiliateFee": amount(NATIVE, "bitcoin", "0"), "executionFee": amount(NATIVE, "bitcoin", "300"),
            "layerzeroFee": amount(NATIVE, "bitcoin", "100")
        },
        "recipient": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "token": WBTC_BOB, "slippage": "300",
        "dstChain": "bob", "dstToken": WBTC_BOB, "signedQuoteData": "c2lnbmVkcXVvdGVkYXRh".repeat(8),
        "affiliates": [{"address": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "fee": amount(WBTC_BOB, "bob", "10")}],
        "priceImpact": "-0.0050", "priceImpactUsd": "-0.48", "estimatedTimeInSecs": 600
    }})
}

/// A page of `n` V3 orders in mixed states.
fn orders_page(n: usize) -> Value {
    let orders: Vec<Value> = (0..n)
        .map(|i| {
            let status = match i % 4 {
                0 => json!({"inProgress": {"pending_btc_payment": null, "refund_tx": null}}),
                1 => json!({"success": {"received_tokens": [
                    {"token": WBTC_BOB, "amount": "99000", "chain": "bob", "txHash": format!("0x{i:064x}"), "usd": "95.10"}]}}),
                2 => json!({"failed": {"refund_tx": null}}),
                _ => json!({"refunded": {"refunded_tokens": [
                    {"token": NATIVE, "amount": "100000", "chain": "bitcoin", "txHash": format!("{i:064x}")}]}}),
            };
            json!({"id": format!("order-{i}"), "timestamp": 1_763_700_000 + i as i64,
                   "srcInfo": {"chain": "bitcoin", "token": NATIVE, "amount": "100000", "usd": "96.12"},
                   "dstInfo": {"chain": "bob", "token": WBTC_BOB, "amount": "99000", "usd": "95.10"},
                   "status": status, "estimatedTimeInSecs": 600})
        })
        .collect();
    json!({"orders": orders, "nextCursor": "opaque-cursor"})
}

fn parsing(c: &mut Criterion) {
    let quote_text = onramp_quote().to_string();
    c.bench_function("parse onramp quote (raw kept + typed view)", |b| {
        b.iter(|| {
            Quote::from_json(serde_json::from_str(std::hint::black_box(&quote_text)).unwrap())
                .unwrap()
        })
    });
    let page_text = orders_page(100).to_string();
    c.bench_function("parse page of 100 orders", |b| {
        b.iter(|| serde_json::from_str::<OrdersPage>(std::hint::black_box(&page_text)).unwrap())
    });
}

fn round_trip(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let body = onramp_quote().to_string();
    let addr = runtime.block_on(async {
        let app = Router::new().route(
            "/v3/get-quote",
            get(move || {
                let body = body.clone();
                async move { ([(header::CONTENT_TYPE, "application/json")], body).into_response() }
            }),
        );
        let listener = tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
            .await
            .unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        addr
    });
    let base = format!("http://{addr}");
    let client = Client::new(ClientConfig::new(base.parse().unwrap())).unwrap();
    let request = QuoteRequest::new(
        ("bitcoin", NATIVE),
        ("bob", WBTC_BOB),
        "100000",
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    );
    let bare = reqwest::Client::new();
    let url = format!(
        "{base}/v3/get-quote?srcChain=bitcoin&dstChain=bob&recipient=0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed\
         &srcToken={NATIVE}&dstToken={WBTC_BOB}&amount=100000&slippage=300"
    );
    let mut group = c.benchmark_group("quote round trip over loopback");
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("gateway-client get_quote", |b| {
        b.to_async(&runtime)
            .iter(|| async { client.get_quote(&request).await.unwrap() })
    });
    group.bench_function("bare reqwest GET (bytes only)", |b| {
        b.to_async(&runtime)
            .iter(|| async { bare.get(&url).send().await.unwrap().bytes().await.unwrap() })
    });
    group.finish();
}

criterion_group!(benches, parsing, round_trip);
criterion_main!(benches);
