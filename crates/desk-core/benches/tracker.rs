//! Requests per minute of the order tracker keeping 1,000 orders over 10 addresses up to date (goal: at most 40).
//!
//! Run with `cargo xtask bench` (or `cargo bench -p desk-core --bench tracker`). One process starts a gateway-sim
//! (rate limits off) with two servers over loopback: one, uncounted, for setting the orders up, and one that counts
//! every request, for the tracker.
//!
//! - Setup: 10 EVM owner addresses; 1,000 orders created through HTTP (quote + create-order), 100 per owner, a third
//!   each of onramps (owner = recipient), offramps (ownerAddress and sender = owner) and token swaps (recipient and
//!   ownerAddress = owner); amounts ending in …404 (1 in 20) fail, …808 (1 in 20) are refunded, the rest succeed.
//!   900 are registered, one every 2 simulated seconds, so their endings spread over the 30 minutes that follow
//!   (onramps take 10 minutes, offramps 30, swaps 2); 100 wait for their transaction.
//! - The tracker watches the 10 owners and tracks the 1,000 orders, with `Timing::default().scaled(1/60)`: **one
//!   simulated minute lasts one real second**, and the sim's clock is advanced 3 s every 50 ms to keep in step. Each
//!   tracked order's `registered_at` is its registration time on that same scaled clock.
//! - During the run one more order is registered every 2 simulated minutes (a person using the app), tracked with
//!   `registered_at` = now, which makes the tracker read fast for a moment.
//! - Requests are counted per simulated minute and per endpoint. The first `WARMUP_MINUTES` (the first full read
//!   of every listing, the registrations of the last two minutes still reading fast) are reported apart; the figure
//!   is the mean and the maximum over the measured minutes after them. For comparison, the official client's way
//!   (get-order every 15 s per unfinished order) is given as 4 × the unfinished orders at each minute.
//!
//! Environment: `TRACKER_BENCH_MINUTES` (measured simulated minutes, default 20), `DESK_TRACKER_BENCH_JSON` (where
//! the figures are written, default `target/bench/tracker.json` in the workspace).

use std::collections::{BTreeMap, HashMap};
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use alloy_primitives::Address;
use axum::extract::Request;
use axum::middleware::Next;
use desk_core::tracker::{Timing, TrackedOrder, Tracker, TrackerEvent};
use gateway_client::wire::{NATIVE_TOKEN, RegisterTx};
use gateway_client::{ApiVersion, Client, ClientConfig, QuoteRequest};
use gateway_sim::{Sim, SimConfig};
use serde_json::{Value, json};
use tokio::sync::broadcast;

const OWNERS: usize = 10;
const ORDERS: usize = 1000;
/// Orders registered before the tracker starts; the others wait for their transaction.
const REGISTERED: usize = 900;
/// Simulated seconds between two registrations before the run.
const REGISTRATION_SPACING_SECS: u64 = 2;
/// The tracker's time scale: one simulated minute lasts one real second.
const SCALE: f64 = 1.0 / 60.0;
const TICK: Duration = Duration::from_millis(50);
/// Simulated seconds per tick (60 per real second).
const SIM_SECS_PER_TICK: u64 = 3;
const WARMUP_MINUTES: usize = 3;
/// The goal, requests per minute.
const GOAL: f64 = 40.0;
const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
const USDT_BOB: &str = "0x05D032ac25d322df992303dCa074EE7392C117b9";
const USDT_ETH: &str = "0xdac17f958d2ee523a2206206994597c13d831ec7";
const BTC_ADDR: &str = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route {
    Onramp,
    Offramp,
    Swap,
}

struct Order {
    id: String,
    route: Route,
    addresses: Vec<String>,
}

fn owners() -> Vec<String> {
    (0..OWNERS)
        .map(|i| Address::repeat_byte(0x10 + i as u8).to_checksum(None))
        .collect()
}

/// The quote request of order `i`: unique amounts whose last three digits choose the ending.
fn request(i: usize, owner: &str) -> (Route, QuoteRequest, Vec<String>) {
    let ending = match i % 20 {
        7 => 404,
        13 => 808,
        _ => 123,
    };
    let unique = (i as u64) * 1000 + ending;
    match i % 3 {
        0 => {
            let amount = (100_000 + unique).to_string();
            let r = QuoteRequest::new(("bitcoin", NATIVE_TOKEN), ("bob", WBTC_BOB), &amount, owner);
            (Route::Onramp, r, vec![owner.to_owned()])
        }
        1 => {
            let amount = (100_000 + unique).to_string();
            let mut r = QuoteRequest::new(
                ("bob", WBTC_BOB),
                ("bitcoin", NATIVE_TOKEN),
                &amount,
                BTC_ADDR,
            );
            r.owner_address = Some(owner.to_owned());
            r.sender = Some(owner.to_owned());
            (
                Route::Offramp,
                r,
                vec![owner.to_owned(), BTC_ADDR.to_owned()],
            )
        }
        _ => {
            let amount = (50_000_000 + unique).to_string();
            let mut r =
                QuoteRequest::new(("bob", USDT_BOB), ("ethereum", USDT_ETH), &amount, owner);
            r.slippage_bps = 100;
            r.owner_address = Some(owner.to_owned());
            (Route::Swap, r, vec![owner.to_owned()])
        }
    }
}

fn client(url: &str) -> Client {
    let mut config = ClientConfig::new(url.parse().expect("a URL"));
    config.version = ApiVersion::V3;
    Client::new(config).expect("a client")
}

async fn create_all(setup: &Client, owners: &[String]) -> Vec<Order> {
    let workers = 8;
    let mut set = tokio::task::JoinSet::new();
    for w in 0..workers {
        let setup = setup.clone();
        let owners = owners.to_vec();
        set.spawn(async move {
            let mut made = Vec::new();
            for i in (w..ORDERS).step_by(workers) {
                let owner = &owners[i % OWNERS];
                let (route, request, addresses) = request(i, owner);
                let quote = setup.get_quote(&request).await.expect("a quote").value;
                let created = setup.create_order(&quote).await.expect("an order").value;
                made.push((
                    i,
                    Order {
                        id: created.order_id().to_owned(),
                        route,
                        addresses,
                    },
                ));
            }
            made
        });
    }
    let mut all = Vec::new();
    while let Some(made) = set.join_next().await {
        all.extend(made.expect("a setup worker"));
    }
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, order)| order).collect()
}

async fn register(setup: &Client, order: &Order, n: usize) {
    let hex = format!("{:064x}", n + 1);
    let body = match order.route {
        Route::Onramp => RegisterTx::onramp(&order.id, None, Some(&hex)),
        Route::Offramp => RegisterTx::offramp(&order.id, format!("0x{hex}"), "bob"),
        Route::Swap => RegisterTx::token_swap(&order.id, format!("0x{hex}"), "bob"),
    };
    setup.register_tx(&body).await.expect("registered");
}

/// Requests per simulated minute (= real second since the tracker started) and endpoint.
#[derive(Clone, Default)]
struct Counts {
    start: Arc<Mutex<Option<Instant>>>,
    minutes: Arc<Mutex<BTreeMap<usize, BTreeMap<String, u64>>>>,
}

impl Counts {
    fn record(&self, path: &str) {
        let Some(start) = *self.start.lock().unwrap() else {
            return;
        };
        let minute = start.elapsed().as_secs() as usize;
        let endpoint = path.split('/').nth(2).unwrap_or("?").to_owned();
        *self
            .minutes
            .lock()
            .unwrap()
            .entry(minute)
            .or_default()
            .entry(endpoint)
            .or_default() += 1;
    }
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

fn max(values: &[f64]) -> f64 {
    values.iter().copied().fold(0.0, f64::max)
}

fn measured_minutes() -> usize {
    match std::env::var("TRACKER_BENCH_MINUTES") {
        Ok(text) => text
            .parse::<usize>()
            .ok()
            .filter(|&m| m > 0)
            .unwrap_or_else(|| {
                panic!("TRACKER_BENCH_MINUTES={text:?} is not a positive whole number")
            }),
        Err(_) => 20,
    }
}

fn json_path() -> PathBuf {
    std::env::var_os("DESK_TRACKER_BENCH_JSON")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let crate_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
            let workspace = crate_dir.ancestors().nth(2).unwrap_or(crate_dir);
            workspace.join("target/bench/tracker.json")
        })
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument that does not name this bench skips it.
    if let Some(filter) = std::env::args().skip(1).find(|a| !a.starts_with('-'))
        && !"tracker".contains(&filter)
    {
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let report = runtime.block_on(run(measured_minutes()));
    let path = json_path();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("the bench folder");
    }
    std::fs::write(&path, serde_json::to_string_pretty(&report).unwrap() + "\n")
        .expect("the bench JSON written");
    println!("tracker bench: figures written to {}", path.display());
}

async fn run(measured: usize) -> Value {
    let sim = Sim::with_config(SimConfig {
        access: gateway_sim::access::AccessConfig::unlimited(),
        ..Default::default()
    })
    .expect("a sim");
    let setup_server = sim
        .clone()
        .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .expect("the setup server");
    let setup = client(&setup_server.base_url());

    let counts = Counts::default();
    let counter = counts.clone();
    let router = sim.router().layer(axum::middleware::from_fn(
        move |request: Request, next: Next| {
            counter.record(request.uri().path());
            next.run(request)
        },
    ));
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .expect("a port");
    let tracker_url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        axum::serve(
            listener,
            router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
    });

    // Set up: 1,000 orders, 900 registered over the 30 simulated minutes before the run.
    let owners = owners();
    let setup_started = Instant::now();
    let orders = create_all(&setup, &owners).await;
    let created_secs = setup_started.elapsed().as_secs_f64();
    let registered_order: Vec<usize> = (0..ORDERS).filter(|i| (i / 10) % 10 != 9).collect();
    assert_eq!(registered_order.len(), REGISTERED);
    let mut registered_at_sim = HashMap::new();
    for (n, &i) in registered_order.iter().enumerate() {
        register(&setup, &orders[i], n).await;
        registered_at_sim.insert(i, sim.clock().now());
        sim.clock().advance(REGISTRATION_SPACING_SECS);
    }
    let mut waiting: Vec<usize> = (0..ORDERS).filter(|i| (i / 10) % 10 == 9).collect();
    println!(
        "tracker bench: {ORDERS} orders created in {created_secs:.1} s, {REGISTERED} registered; starting the tracker"
    );

    // The tracker, on the scaled clock.
    let timing = Timing::default().scaled(SCALE);
    let (tracker, mut events) = Tracker::spawn(client(&tracker_url), timing);
    let status: Arc<Mutex<HashMap<String, bool>>> = Arc::default();
    let seen = status.clone();
    tokio::spawn(async move {
        loop {
            match events.recv().await {
                Ok(TrackerEvent::OrderChanged {
                    order_id, order, ..
                }) => {
                    seen.lock()
                        .unwrap()
                        .insert(order_id, order.status.is_terminal());
                }
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => break,
            }
        }
    });
    let start_real = SystemTime::now();
    let start_sim = sim.clock().now();
    *counts.start.lock().unwrap() = Some(Instant::now());
    let started = Instant::now();
    for owner in &owners {
        tracker.watch_address(owner).await.unwrap();
    }
    for (i, order) in orders.iter().enumerate() {
        let registered_at = registered_at_sim.get(&i).map(|&at| {
            let ago = Duration::from_secs(start_sim - at).mul_f64(SCALE);
            start_real - ago
        });
        tracker
            .track(TrackedOrder {
                order_id: order.id.clone(),
                addresses: order.addresses.clone(),
                registered_at,
                last_seen: None,
                expected: None,
            })
            .await
            .unwrap();
    }

    // Run: the sim's clock in step; a registration every 2 simulated minutes after the warm-up.
    let total = WARMUP_MINUTES + measured;
    let mut unfinished_at_minute = Vec::new();
    let mut registrations = 0;
    let mut next_minute = 0;
    let mut ticker = tokio::time::interval(TICK);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    while started.elapsed() < Duration::from_secs(total as u64) {
        ticker.tick().await;
        let target_sim = start_sim + (started.elapsed().as_secs_f64() * 60.0) as u64;
        while sim.clock().now() + SIM_SECS_PER_TICK <= target_sim {
            sim.clock().advance(SIM_SECS_PER_TICK);
        }
        let minute = started.elapsed().as_secs() as usize;
        if minute >= next_minute {
            next_minute = minute + 1;
            let finished = status.lock().unwrap().values().filter(|&&t| t).count();
            unfinished_at_minute.push(ORDERS - finished);
            if minute >= WARMUP_MINUTES
                && (minute - WARMUP_MINUTES).is_multiple_of(2)
                && let Some(i) = waiting.pop()
            {
                register(&setup, &orders[i], REGISTERED + registrations).await;
                registrations += 1;
                tracker
                    .track(TrackedOrder {
                        order_id: orders[i].id.clone(),
                        addresses: orders[i].addresses.clone(),
                        registered_at: Some(SystemTime::now()),
                        last_seen: None,
                        expected: None,
                    })
                    .await
                    .unwrap();
            }
        }
    }
    tracker.shutdown().await;
    let _ = setup_server.shutdown().await;

    // The figures.
    let minutes = counts.minutes.lock().unwrap().clone();
    let per_minute: Vec<Value> = (0..total)
        .map(|m| {
            let row = minutes.get(&m).cloned().unwrap_or_default();
            let total: u64 = row.values().sum();
            json!({
                "minute": m,
                "total": total,
                "get-orders": row.get("get-orders").copied().unwrap_or(0),
                "get-order": row.get("get-order").copied().unwrap_or(0),
                "other": total - row.get("get-orders").copied().unwrap_or(0) - row.get("get-order").copied().unwrap_or(0),
                "unfinished_orders": unfinished_at_minute.get(m).copied(),
            })
        })
        .collect();
    let steady = &per_minute[WARMUP_MINUTES..];
    let column = |key: &str| -> Vec<f64> {
        steady
            .iter()
            .map(|m| m[key].as_f64().unwrap_or(0.0))
            .collect()
    };
    let totals = column("total");
    let naive: Vec<f64> = steady
        .iter()
        .filter_map(|m| m["unfinished_orders"].as_f64())
        .map(|u| u * 4.0)
        .collect();
    let warmup: Vec<f64> = per_minute[..WARMUP_MINUTES]
        .iter()
        .map(|m| m["total"].as_f64().unwrap_or(0.0))
        .collect();
    let figure_mean = mean(&totals);
    let figure_max = max(&totals);
    let report = json!({
        "orders": ORDERS,
        "addresses": OWNERS,
        "registered_before_run": REGISTERED,
        "registrations_during_run": registrations,
        "time_scale": "Timing::default().scaled(1/60): one simulated minute lasts one real second",
        "timing_secs": {
            "fast": 5, "fast_window": 120, "normal": 15, "slow_max": 60, "error_base": 15, "error_max": 300,
        },
        "warmup_minutes": WARMUP_MINUTES,
        "measured_minutes": measured,
        "requests_per_minute": {
            "mean": figure_mean,
            "max": figure_max,
            "min": totals.iter().copied().fold(f64::INFINITY, f64::min),
        },
        "by_endpoint_mean_per_minute": {
            "get-orders": mean(&column("get-orders")),
            "get-order": mean(&column("get-order")),
            "other": mean(&column("other")),
        },
        "warmup_requests_per_minute": warmup,
        "official_client_equivalent_per_minute": mean(&naive),
        "goal_per_minute": GOAL,
        "goal_met": figure_max <= GOAL,
        "minutes": per_minute,
    });

    println!(
        "tracker bench: {ORDERS} orders over {OWNERS} addresses, one simulated minute = 1 s; {measured} measured minutes \
         after {WARMUP_MINUTES} of warm-up"
    );
    println!(
        "  requests per minute: mean {figure_mean:.1}, max {figure_max:.0} (goal ≤ {GOAL:.0}: {}); \
         get-orders {:.1}, get-order {:.1}",
        if figure_max <= GOAL { "met" } else { "NOT met" },
        mean(&column("get-orders")),
        mean(&column("get-order")),
    );
    println!(
        "  warm-up minutes: {warmup:?}; get-order every 15 s per unfinished order would be {:.0} per minute",
        mean(&naive)
    );
    let series: Vec<String> = totals.iter().map(|t| format!("{t:.0}")).collect();
    println!("  per measured minute: {}", series.join(" "));
    report
}
