//! How long the partner dashboard takes over 10,000 orders (issue 7: it stays fast with 10,000 orders).
//!
//! Run with `cargo xtask bench` (or `cargo bench -p desk-core --bench partner`). A custom harness like the tracker's
//! bench: each case runs a few times to warm up, then `SAMPLES` times; the figure is the median (with the fastest and
//! slowest), written as JSON for `cargo xtask bench` to print.
//!
//! - Setup: a real journal file (SQLite, WAL, as the app opens it) in a temporary folder, filled through the
//!   journal's public API with 10,000 orders made by the Sandbox gateway's own code in-process: each order's quote
//!   (`gateway_sim::quote::get_quote`), create-order answer (`Book::create_order`), the app's verification of it
//!   (`verify::verify_order`), the registration, and the order as get-order reads it later — a third each of
//!   onramps, offramps and token swaps; 1 in 10 on API V2; 3 in 4 with affiliates (onramps and offramps one to three
//!   entries, V3 token swaps one); amounts ending in …404 (1 in 20) fail and …808 (1 in 20) are refunded; 1 in 20 is
//!   an accepted quote that never became an order, 1 in 20 waits for its signature, 1 in 10 is in progress.
//! - `journal read + dashboard`: the work of `Desk::dashboard` — `Journal::order_summaries` for the network, the facts of
//!   each order, `partner::build` (daily buckets).
//! - `dashboard build alone`: `partner::build` over the 10,000 facts already read, their dates spread over two years
//!   (the journal stamps every order with the time it was written, so the file's orders all fall on one day), for
//!   days, ISO weeks and months.
//! - `CSV of every row`: `partner::csv_text` over the same facts.
//!
//! Environment: `PARTNER_BENCH_SAMPLES` (default 20), `DESK_PARTNER_BENCH_JSON` (where the figures are written,
//! default `target/bench/partner.json` in the workspace).

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use alloy_primitives::U256;
use desk_core::journal::{HandedIn, Journal};
use desk_core::partner::{self, DashboardQuery, OrderFacts, Period};
use gateway_client::ApiVersion;
use gateway_client::address::BitcoinNetwork;
use gateway_client::wire::{CreateOrderResponse, NATIVE_TOKEN, Quote, RegisterTx, RouteKind};
use gateway_sim::orders::{Book, CreateContext};
use gateway_sim::{Catalogue, QuoteSigner};
use serde_json::{Value, json};

const ORDERS: usize = 10_000;
const NETWORK: &str = "sandbox";
const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
const USDT_BOB: &str = "0x05D032ac25d322df992303dCa074EE7392C117b9";
const USDT_ETH: &str = "0xdac17f958d2ee523a2206206994597c13d831ec7";
const BTC_ADDR: &str = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";
const EVM: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const AFFILIATES: [&str; 3] = [
    "0x1111111111111111111111111111111111111111:50",
    "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7:25",
    "0x2222222222222222222222222222222222222222:10",
];
const SWAP_AFFILIATE: &str = "0x3333333333333333333333333333333333333333:30";

/// Where an order of the mix stops.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// An accepted quote, never sent.
    Quoted,
    /// Created and verified; the gateway waits for the transaction (status read soon after).
    Unpaid,
    /// Registered; status read at `secs` after creation.
    Read { secs: u64 },
}

fn stop_of(i: usize) -> Stop {
    match i % 20 {
        0 => Stop::Quoted,
        1 => Stop::Unpaid,
        2 | 3 => Stop::Read { secs: 10 },
        4 => Stop::Read { secs: 1_000 },
        _ => Stop::Read { secs: 2_000 },
    }
}

/// The get-quote parameters of order `i`: unique amounts whose last three digits choose the ending.
fn params(i: usize) -> (ApiVersion, HashMap<String, String>) {
    let version = if i % 10 == 5 {
        ApiVersion::V2
    } else {
        ApiVersion::V3
    };
    let ending = match i % 20 {
        7 => 404,
        13 => 808,
        _ => 123,
    };
    let unique = (i as u64) * 1_000 + ending;
    let affiliated = !i.is_multiple_of(4);
    let mut p: Vec<(&str, String)> = match i % 3 {
        0 => vec![
            ("srcChain", "bitcoin".into()),
            ("srcToken", NATIVE_TOKEN.into()),
            ("dstChain", "bob".into()),
            ("dstToken", WBTC_BOB.into()),
            ("amount", (20_000 + unique).to_string()),
            ("recipient", EVM.into()),
            ("sender", BTC_ADDR.into()),
            ("slippage", "300".into()),
        ],
        1 => vec![
            ("srcChain", "bob".into()),
            ("srcToken", WBTC_BOB.into()),
            ("dstChain", "bitcoin".into()),
            ("dstToken", NATIVE_TOKEN.into()),
            ("amount", (20_000 + unique).to_string()),
            ("recipient", BTC_ADDR.into()),
            ("sender", EVM.into()),
            ("ownerAddress", EVM.into()),
            ("slippage", "300".into()),
        ],
        _ => vec![
            ("srcChain", "bob".into()),
            ("srcToken", USDT_BOB.into()),
            ("dstChain", "ethereum".into()),
            ("dstToken", USDT_ETH.into()),
            ("amount", (20_000_000 + unique).to_string()),
            ("recipient", EVM.into()),
            ("ownerAddress", EVM.into()),
            ("slippage", "100".into()),
        ],
    };
    if version == ApiVersion::V2 {
        p.retain(|(k, _)| *k != "ownerAddress");
    }
    if affiliated {
        match i % 3 {
            2 if version == ApiVersion::V3 => p.push(("affiliates", SWAP_AFFILIATE.into())),
            2 => {}
            _ => p.push(("affiliates", AFFILIATES[..=(i % 3)].join(","))),
        }
    }
    (
        version,
        p.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
    )
}

/// Fills `journal` with the mix of orders; gives how many the gateway has.
fn fill(journal: &Journal) -> usize {
    let catalogue = Catalogue::default();
    let signer = QuoteSigner::from_key([42; 32]);
    let mut book = Book::default();
    for (chain, token) in [
        ("bob", WBTC_BOB),
        ("bitcoin", NATIVE_TOKEN),
        ("ethereum", USDT_ETH),
    ] {
        book.set_pool_balance(
            &catalogue,
            chain,
            token,
            U256::from(10u64).pow(U256::from(30)),
        );
    }
    let t0 = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    // (local id, order id, version, when to read) of the orders the gateway has.
    let mut to_read: Vec<(i64, String, ApiVersion, u64)> = Vec::new();
    for i in 0..ORDERS {
        let (version, p) = params(i);
        let raw = gateway_sim::quote::get_quote(
            &catalogue,
            &signer,
            version,
            BitcoinNetwork::Mainnet,
            &p,
            t0,
        )
        .unwrap_or_else(|e| panic!("order {i}: {}", e.body()));
        book.remember_quote(&raw, None, t0);
        let quote = Quote::from_json(raw.clone()).expect("the sim's quote reads");
        let route = quote.view().route();
        let addresses = desk_core::flow::quote_addresses(&quote);
        let id = journal
            .accept_quote(NETWORK, version, route, &addresses, &raw)
            .expect("journaled");
        if stop_of(i) == Stop::Quoted {
            continue;
        }
        journal.create_started(id).unwrap();
        let ctx = CreateContext {
            catalogue: &catalogue,
            signer: &signer,
            network: bitcoin::Network::Bitcoin,
            version,
            now: t0,
            recent_blockhash: None,
            order_tx: gateway_sim::local_chain::ORDER_TX,
        };
        let created = book
            .create_order(&ctx, &raw)
            .unwrap_or_else(|e| panic!("order {i}: {}", e.body()));
        let answer = CreateOrderResponse::from_value(&created).expect("the sim's answer reads");
        let order_id = answer.order_id().to_owned();
        journal.create_answered(id, &order_id, &created).unwrap();
        // The sim's orders call its contracts: verified as the Sandbox verifies them.
        let verified = desk_core::verify::verify_order_with(
            &quote,
            &answer,
            &desk_core::verify::VerifyPolicy::sandbox(BitcoinNetwork::Mainnet),
        )
        .unwrap_or_else(|e| panic!("order {i}: {e}"));
        journal
            .verified(id, &serde_json::to_value(&verified).unwrap())
            .unwrap();
        match stop_of(i) {
            Stop::Quoted => unreachable!(),
            Stop::Unpaid => to_read.push((id, order_id, version, 10)),
            Stop::Read { secs } => {
                let hash = format!("{:064x}", i + 1);
                let (handed, body) = match route {
                    RouteKind::Onramp => (
                        HandedIn::BitcoinTxid { txid: hash.clone() },
                        RegisterTx::onramp(&order_id, None, Some(&hash)),
                    ),
                    RouteKind::Offramp => (
                        HandedIn::SourceTx {
                            chain: "bob".into(),
                            hash: format!("0x{hash}"),
                        },
                        RegisterTx::offramp(&order_id, format!("0x{hash}"), "bob"),
                    ),
                    RouteKind::TokenSwap => (
                        HandedIn::SourceTx {
                            chain: "bob".into(),
                            hash: format!("0x{hash}"),
                        },
                        RegisterTx::token_swap(&order_id, format!("0x{hash}"), "bob"),
                    ),
                };
                journal.tx_handed_in(id, &handed).unwrap();
                let body = body.to_json(version);
                journal.register_started(id, &body).unwrap();
                let registered = book
                    .register_tx(version, bitcoin::Network::Bitcoin, &body, t0)
                    .unwrap_or_else(|e| panic!("order {i}: {}", e.body()));
                journal.register_answered(id, &registered).unwrap();
                to_read.push((id, order_id, version, secs));
            }
        }
    }
    // The gateway's clock only moves forward: read the orders in time order.
    to_read.sort_by_key(|(.., secs)| *secs);
    for (id, order_id, version, secs) in &to_read {
        let order = book
            .get_order(order_id, *version, t0 + secs)
            .expect("the sim has the order");
        let status = gateway_client::wire::OrderStatus::from_value(&order["status"]).unwrap();
        journal
            .status_seen(*id, &order, status.key(), status.is_terminal())
            .unwrap();
    }
    to_read.len()
}

fn samples() -> usize {
    match std::env::var("PARTNER_BENCH_SAMPLES") {
        Ok(text) => text
            .parse::<usize>()
            .ok()
            .filter(|&n| n > 0)
            .unwrap_or_else(|| {
                panic!("PARTNER_BENCH_SAMPLES={text:?} is not a positive whole number")
            }),
        Err(_) => 20,
    }
}

/// Runs `work` a few times, then `n` times measured: (median, min, max) in milliseconds.
fn measure<T>(n: usize, mut work: impl FnMut() -> T) -> Value {
    for _ in 0..3 {
        std::hint::black_box(work());
    }
    let mut ms: Vec<f64> = (0..n)
        .map(|_| {
            let started = Instant::now();
            std::hint::black_box(work());
            started.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    let median = if n % 2 == 1 {
        ms[n / 2]
    } else {
        (ms[n / 2 - 1] + ms[n / 2]) / 2.0
    };
    json!({"median_ms": median, "min_ms": ms[0], "max_ms": ms[n - 1], "samples": n})
}

fn json_path() -> PathBuf {
    std::env::var_os("DESK_PARTNER_BENCH_JSON")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let crate_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
            let workspace = crate_dir.ancestors().nth(2).unwrap_or(crate_dir);
            workspace.join("target/bench/partner.json")
        })
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument that does not name this bench skips it.
    if let Some(filter) = std::env::args().skip(1).find(|a| !a.starts_with('-'))
        && !"partner".contains(&filter)
    {
        return;
    }
    let n = samples();
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join(desk_core::JOURNAL_FILE);
    let journal = Journal::open(&path).expect("a journal");
    let started = Instant::now();
    let with_id = fill(&journal);
    let fill_secs = started.elapsed().as_secs_f64();
    let file_mb = std::fs::metadata(&path).map_or(0.0, |m| m.len() as f64 / 1e6);
    println!(
        "partner bench: {ORDERS} orders journaled in {fill_secs:.1} s ({with_id} with an order id, {file_mb:.1} MB); measuring {n} samples per case"
    );

    let day = DashboardQuery {
        period: Period::Day,
        route: None,
    };
    // What `Desk::dashboard` does the first time (nothing cached), and every later time (only changed orders are
    // read again; here none changed).
    let read_and_build = measure(n, || {
        let facts = partner::FactsCache::default()
            .read(&journal, NETWORK)
            .expect("read");
        partner::build(&facts, &day)
    });
    let mut warm_cache = partner::FactsCache::default();
    warm_cache.read(&journal, NETWORK).expect("read");
    let warm = measure(n, || {
        let facts = warm_cache.read(&journal, NETWORK).expect("read");
        partner::build(&facts, &day)
    });
    let read_only = measure(n, || journal.order_summaries(Some(NETWORK)).expect("read"));

    let orders = journal.order_summaries(Some(NETWORK)).expect("read");
    let mut facts: Vec<OrderFacts> = orders
        .iter()
        .filter_map(partner::facts_from_journal)
        .collect();
    assert_eq!(facts.len(), with_id);
    let extract = measure(n, || {
        orders
            .iter()
            .filter_map(partner::facts_from_journal)
            .collect::<Vec<_>>()
    });
    // Two years of orders, newest first, about one every 105 minutes.
    let newest = facts.iter().map(|f| f.created_at).max().unwrap_or(0);
    let spacing = 2 * 365 * 86_400 / facts.len().max(1) as i64;
    for (k, f) in facts.iter_mut().enumerate() {
        f.created_at = newest - k as i64 * spacing;
    }
    let check = partner::build(&facts, &day);
    assert_eq!(check.orders as usize, with_id);
    assert!(
        check.completed > 0
            && check.earnings_exact_usd != "0.00"
            && check.earnings_estimated_usd != "0.00"
    );
    let mut build = serde_json::Map::new();
    for (name, period) in [
        ("day", Period::Day),
        ("week", Period::Week),
        ("month", Period::Month),
    ] {
        let query = DashboardQuery {
            period,
            route: None,
        };
        build.insert(name.into(), measure(n, || partner::build(&facts, &query)));
    }
    let csv = measure(n, || partner::csv_text(&facts, &day).expect("CSV"));

    let report = json!({
        "orders": ORDERS,
        "orders_with_id": with_id,
        "completed": check.completed,
        "journal_mb": file_mb,
        "fill_secs": fill_secs,
        "read_and_build": read_and_build,
        "warm_read_and_build": warm,
        "journal_read": read_only,
        "facts_extraction": extract,
        "build": build,
        "csv": csv,
        "chart_bars_daily": check.chart.len(),
        "rows_daily": check.rows.len(),
    });
    let out = json_path();
    if let Some(parent) = out.parent() {
        std::fs::create_dir_all(parent).expect("the bench folder");
    }
    std::fs::write(&out, serde_json::to_string_pretty(&report).unwrap() + "\n")
        .expect("the bench JSON written");
    println!("{}", serde_json::to_string_pretty(&report).unwrap());
    println!("partner bench: figures written to {}", out.display());
}
