//! Closed-loop throughput of get-quote, get-order and create-order over loopback, against a bare axum handler in the
//! same run. The create-order case is a pair per request, as a client makes it: a get-quote, then create-order with
//! the quote as the body (so it includes the quote's integrity check, the liquidity reservation and the payload).
//!
//! Run with `cargo xtask bench` (or `cargo bench -p gateway-sim --bench throughput`). One process starts:
//!
//! - the real `Sim` router (rate limits off, no faults, no state file) on `127.0.0.1:0`;
//! - a bare axum server on `127.0.0.1:0` whose handlers answer a fixed body captured from the sim at start (one
//!   quote, one order, one create-order answer) as `application/json` bytes, so each pair differs only in the sim's
//!   own work.
//!
//! Both servers run on one multi-thread tokio runtime, the load generator on another; they share the machine's cores.
//! Each of C workers holds one keep-alive HTTP/1.1 connection (a bare hyper client) and sends its next request when
//! the previous answer is read in full. After a warm-up, it counts the 200 answers completed in the measured window
//! and records each one's latency. Each case's window is cut into slices that alternate between the sim and the
//! bare server, so that whatever else the machine is doing weighs on both sides of a ratio alike.
//!
//! Environment: `BENCH_SECS` (measured seconds per case, default 5; warm-up is 1 s, or `BENCH_SECS` if shorter),
//! `BENCH_CONCURRENCY` (comma-separated worker counts, default `16,1`), `GATEWAY_SIM_THROUGHPUT_JSON` (where the
//! figures are written, default `target/bench/gateway-sim-throughput.json` in the workspace).

use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::http::header;
use axum::routing::get;
use gateway_sim::access::AccessConfig;
use gateway_sim::{Sim, SimConfig};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::{Method, Request, StatusCode, Uri};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio::runtime::Runtime;

const NATIVE: &str = "0x0000000000000000000000000000000000000000";
const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
const RECIPIENT: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
/// Orders created and registered before the get-order runs; the workers cycle through their ids.
const ORDERS: usize = 100;
const SERVER_THREADS: usize = 2;
const CLIENT_THREADS: usize = 2;
/// Each case's measured time is split into this many slices, alternating between the sim and the bare server.
const ROUNDS: u32 = 5;
/// The warm-up of every slice after the first (new connections; the servers are warm already).
const REWARM: Duration = Duration::from_millis(200);

fn quote_query(amount: u64) -> String {
    format!(
        "srcChain=bitcoin&srcToken={NATIVE}&dstChain=bob&dstToken={WBTC_BOB}&amount={amount}\
         &recipient={RECIPIENT}&slippage=300"
    )
}

fn runtime(name: &str, threads: usize) -> Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .thread_name(name)
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

fn env_secs() -> f64 {
    match std::env::var("BENCH_SECS") {
        Ok(text) => text
            .parse::<f64>()
            .ok()
            .filter(|s| *s > 0.0 && s.is_finite())
            .unwrap_or_else(|| panic!("BENCH_SECS={text:?} is not a positive number of seconds")),
        Err(_) => 5.0,
    }
}

fn env_concurrency() -> Vec<usize> {
    match std::env::var("BENCH_CONCURRENCY") {
        Ok(text) => text
            .split(',')
            .map(|c| {
                c.trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|&c| c > 0)
                    .unwrap_or_else(|| {
                        panic!("BENCH_CONCURRENCY={text:?}: expected worker counts like 16,1")
                    })
            })
            .collect(),
        Err(_) => vec![16, 1],
    }
}

fn output_path() -> PathBuf {
    std::env::var_os("GATEWAY_SIM_THROUGHPUT_JSON")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let crates = Path::new(env!("CARGO_MANIFEST_DIR"))
                .parent()
                .expect("crates/");
            let root = crates.parent().expect("the workspace root");
            root.join("target/bench/gateway-sim-throughput.json")
        })
}

/// Starts the bare server: the captured bodies behind the same paths, nothing else.
async fn bare_server(quote: Bytes, order: Bytes, created: Bytes) -> SocketAddr {
    let app = Router::new()
        .route(
            "/v3/create-order",
            axum::routing::post(move || {
                let body = created.clone();
                async move {
                    (
                        StatusCode::CREATED,
                        [(header::CONTENT_TYPE, "application/json")],
                        body,
                    )
                }
            }),
        )
        .route(
            "/v3/get-quote",
            get(move || {
                let body = quote.clone();
                async move { ([(header::CONTENT_TYPE, "application/json")], body) }
            }),
        )
        .route(
            "/v3/get-order/{id}",
            get(move || {
                let body = order.clone();
                async move { ([(header::CONTENT_TYPE, "application/json")], body) }
            }),
        );
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .expect("bind the bare server");
    let addr = listener.local_addr().expect("its address");
    tokio::spawn(async move { axum::serve(listener, app).await.expect("bare server") });
    addr
}

/// Creates and registers `n` V3 onramp orders through HTTP; gives their ids.
async fn make_orders(base: &str, n: usize) -> Vec<String> {
    let http = reqwest::Client::new();
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        // A different amount each time, so no two quotes are the same quote.
        let quote: Value = http
            .get(format!(
                "{base}/v3/get-quote?{}",
                quote_query(100_000 + i as u64)
            ))
            .send()
            .await
            .and_then(|r| r.error_for_status())
            .expect("get-quote")
            .json()
            .await
            .expect("a quote");
        let created: Value = http
            .post(format!("{base}/v3/create-order"))
            .json(&quote)
            .send()
            .await
            .and_then(|r| r.error_for_status())
            .expect("create-order")
            .json()
            .await
            .expect("a created order");
        let id = created["onramp"]["order_id"]
            .as_str()
            .expect("an order id")
            .to_owned();
        let register =
            json!({"onramp": {"order_id": id, "bitcoin_txid": format!("{:064x}", i + 1)}});
        http.patch(format!("{base}/v3/register-tx"))
            .json(&register)
            .send()
            .await
            .and_then(|r| r.error_for_status())
            .expect("register-tx");
        ids.push(id);
    }
    ids
}

/// One GET through a plain reqwest client: the body as served.
async fn fetch(url: &str) -> Bytes {
    reqwest::get(url)
        .await
        .and_then(|r| r.error_for_status())
        .unwrap_or_else(|e| panic!("GET {url}: {e}"))
        .bytes()
        .await
        .expect("a body")
}

/// What one worker saw in the measured window.
#[derive(Default)]
struct Sample {
    latencies_ns: Vec<u64>,
    errors: u64,
    body_bytes: usize,
}

/// What a worker sends each time round.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Plan {
    /// One GET of the next path.
    Get,
    /// A GET of the next path (a get-quote), then `POST /v3/create-order` with the quote as the body.
    QuoteThenCreate,
}

/// One request on `sender`: its status and body.
async fn send(
    sender: &mut hyper::client::conn::http1::SendRequest<Full<Bytes>>,
    host: &str,
    method: Method,
    uri: Uri,
    body: Bytes,
) -> (StatusCode, Bytes) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, host)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Full::new(body))
        .expect("a request");
    let response = sender.send_request(request).await.expect("an answer");
    let status = response.status();
    let body = response
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    (status, body)
}

/// One keep-alive connection sending `paths` in turn (starting at `offset`) by `plan` until `end`; answers completed
/// between `measure_from` and `end` are kept.
async fn worker(
    addr: SocketAddr,
    plan: Plan,
    paths: Arc<Vec<Uri>>,
    offset: usize,
    measure_from: Instant,
    end: Instant,
) -> Sample {
    let stream = TcpStream::connect(addr).await.expect("connect");
    stream.set_nodelay(true).expect("TCP_NODELAY");
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("HTTP/1.1 handshake");
    let driver = tokio::spawn(connection);
    let host = addr.to_string();
    let mut sample = Sample::default();
    let mut next = offset;
    loop {
        let started = Instant::now();
        if started >= end {
            break;
        }
        let uri = paths[next % paths.len()].clone();
        next += 1;
        let (mut status, mut body) = send(&mut sender, &host, Method::GET, uri, Bytes::new()).await;
        if plan == Plan::QuoteThenCreate && status == StatusCode::OK {
            let create = Uri::from_static("/v3/create-order");
            (status, body) = send(&mut sender, &host, Method::POST, create, body).await;
            if status == StatusCode::CREATED {
                status = StatusCode::OK;
            }
        }
        let done = Instant::now();
        if started < measure_from || done > end {
            continue;
        }
        if status == StatusCode::OK {
            sample
                .latencies_ns
                .push(u64::try_from((done - started).as_nanos()).unwrap_or(u64::MAX));
            sample.body_bytes = body.len();
        } else {
            sample.errors += 1;
        }
    }
    drop(sender);
    let _ = driver.await;
    sample
}

/// One measured case: endpoint × server × concurrency.
struct Case {
    endpoint: &'static str,
    server: &'static str,
    concurrency: usize,
    requests: u64,
    errors: u64,
    rps: f64,
    p50_us: f64,
    p99_us: f64,
    mean_us: f64,
    body_bytes: usize,
}

impl Case {
    fn to_json(&self) -> Value {
        json!({
            "endpoint": self.endpoint, "server": self.server, "concurrency": self.concurrency,
            "requests": self.requests, "errors": self.errors, "rps": round(self.rps, 1),
            "p50_us": round(self.p50_us, 1), "p99_us": round(self.p99_us, 1), "mean_us": round(self.mean_us, 1),
            "body_bytes": self.body_bytes,
        })
    }
}

fn round(x: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (x * scale).round() / scale
}

/// The `q` quantile (nearest rank) of sorted values, in microseconds.
fn quantile_us(sorted_ns: &[u64], q: f64) -> f64 {
    if sorted_ns.is_empty() {
        return f64::NAN;
    }
    let rank = ((q * sorted_ns.len() as f64).ceil() as usize).clamp(1, sorted_ns.len());
    sorted_ns[rank - 1] as f64 / 1e3
}

/// One slice: `concurrency` fresh connections to `addr`, warmed up for `warmup`, measured for `window`.
async fn slice(
    addr: SocketAddr,
    plan: Plan,
    paths: &Arc<Vec<Uri>>,
    concurrency: usize,
    warmup: Duration,
    window: Duration,
) -> Sample {
    let measure_from = Instant::now() + warmup;
    let end = measure_from + window;
    let step = (paths.len() / concurrency).max(1);
    let workers: Vec<_> = (0..concurrency)
        .map(|w| {
            tokio::spawn(worker(
                addr,
                plan,
                paths.clone(),
                w * step,
                measure_from,
                end,
            ))
        })
        .collect();
    let mut all = Sample::default();
    for w in workers {
        let sample = w.await.expect("a worker");
        all.latencies_ns.extend(sample.latencies_ns);
        all.errors += sample.errors;
        all.body_bytes = all.body_bytes.max(sample.body_bytes);
    }
    all
}

/// The sim and the bare server on one endpoint at one concurrency, measured in alternating slices (`ROUNDS` of
/// each, the first one after the full warm-up) so that anything else the machine does weighs on both alike.
async fn measure_pair(
    endpoint: &'static str,
    plan: Plan,
    servers: [(&'static str, SocketAddr); 2],
    paths: &Arc<Vec<Uri>>,
    concurrency: usize,
    warmup: Duration,
    window: Duration,
) -> [Case; 2] {
    let part = window / ROUNDS;
    let mut samples = [Sample::default(), Sample::default()];
    for round in 0..ROUNDS {
        let warm = if round == 0 { warmup } else { REWARM.min(part) };
        // Alternate which goes first.
        let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for i in order {
            let sample = slice(servers[i].1, plan, paths, concurrency, warm, part).await;
            samples[i].latencies_ns.extend(sample.latencies_ns);
            samples[i].errors += sample.errors;
            samples[i].body_bytes = samples[i].body_bytes.max(sample.body_bytes);
        }
    }
    let measured = part * ROUNDS;
    let [a, b] = samples;
    [
        Case::new(endpoint, servers[0].0, concurrency, a, measured),
        Case::new(endpoint, servers[1].0, concurrency, b, measured),
    ]
}

impl Case {
    fn new(
        endpoint: &'static str,
        server: &'static str,
        concurrency: usize,
        sample: Sample,
        measured: Duration,
    ) -> Self {
        let mut latencies = sample.latencies_ns;
        latencies.sort_unstable();
        let requests = latencies.len() as u64;
        let mean_us = if latencies.is_empty() {
            f64::NAN
        } else {
            latencies.iter().map(|&ns| ns as f64).sum::<f64>() / latencies.len() as f64 / 1e3
        };
        Case {
            endpoint,
            server,
            concurrency,
            requests,
            errors: sample.errors,
            rps: requests as f64 / measured.as_secs_f64(),
            p50_us: quantile_us(&latencies, 0.50),
            p99_us: quantile_us(&latencies, 0.99),
            mean_us,
            body_bytes: sample.body_bytes,
        }
    }
}

fn print_table(cases: &[Case]) {
    println!(
        "\n{:<10} {:<5} {:>4} {:>11} {:>10} {:>10} {:>7} {:>14} {:>14}",
        "endpoint",
        "srv",
        "C",
        "req/s",
        "p50 µs",
        "p99 µs",
        "bytes",
        "req/s sim/bare",
        "p50 sim/bare"
    );
    for case in cases {
        let bare = cases.iter().find(|b| {
            b.server == "bare" && b.endpoint == case.endpoint && b.concurrency == case.concurrency
        });
        let (rps_ratio, p50_ratio) = match (case.server, bare) {
            ("sim", Some(bare)) => (
                format!("{:.2}×", case.rps / bare.rps),
                format!("{:.2}×", case.p50_us / bare.p50_us),
            ),
            _ => (String::new(), String::new()),
        };
        println!(
            "{:<10} {:<5} {:>4} {:>11.0} {:>10.1} {:>10.1} {:>7} {:>14} {:>14}",
            case.endpoint,
            case.server,
            case.concurrency,
            case.rps,
            case.p50_us,
            case.p99_us,
            case.body_bytes,
            rps_ratio,
            p50_ratio
        );
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a filter or other flags mean nothing here.
    let secs = env_secs();
    let window = Duration::from_secs_f64(secs);
    let warmup = Duration::from_secs_f64(secs.min(1.0));
    let concurrency = env_concurrency();
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());

    let server_rt = runtime("server", SERVER_THREADS);
    let client_rt = runtime("client", CLIENT_THREADS);

    let sim = Sim::with_config(SimConfig {
        access: AccessConfig::unlimited(),
        ..Default::default()
    })
    .expect("a sim without a state file");
    let running = server_rt
        .block_on(
            sim.clone()
                .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0))),
        )
        .expect("start the sim");
    let sim_addr = running.addr();
    let base = running.base_url();

    // Orders to read, and one answer of each endpoint for the bare server to repeat.
    let (ids, quote_body, order_body, created_body) = client_rt.block_on(async {
        let ids = make_orders(&base, ORDERS).await;
        let quote = fetch(&format!("{base}/v3/get-quote?{}", quote_query(100_000))).await;
        let order = fetch(&format!("{base}/v3/get-order/{}", ids[0])).await;
        let created = reqwest::Client::new()
            .post(format!("{base}/v3/create-order"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(quote.clone())
            .send()
            .await
            .and_then(|r| r.error_for_status())
            .expect("create-order")
            .bytes()
            .await
            .expect("a created order");
        (ids, quote, order, created)
    });
    // Every create-order reserves its output: a pool deep enough that the run never meets INSUFFICIENT_SOLVER_BALANCE.
    server_rt.block_on(sim.set_liquidity("bob", WBTC_BOB, alloy_primitives::U256::from(u64::MAX)));
    let bare_addr = server_rt.block_on(bare_server(
        quote_body.clone(),
        order_body.clone(),
        created_body.clone(),
    ));

    let quote_paths: Arc<Vec<Uri>> = Arc::new(vec![
        format!("/v3/get-quote?{}", quote_query(100_000))
            .parse()
            .expect("a path"),
    ]);
    let order_paths: Arc<Vec<Uri>> = Arc::new(
        ids.iter()
            .map(|id| format!("/v3/get-order/{id}").parse().expect("a path"))
            .collect(),
    );

    println!(
        "gateway-sim throughput over loopback: {cores} cores shared by the servers ({SERVER_THREADS} threads) and \
         the load generator ({CLIENT_THREADS} threads); warm-up {:.1} s, measured {:.1} s per case \
         in {ROUNDS} slices alternating sim and bare; {ORDERS} registered orders; quote body {} B, order body {} B",
        warmup.as_secs_f64(),
        window.as_secs_f64(),
        quote_body.len(),
        order_body.len()
    );

    let mut cases = Vec::new();
    let servers = [("sim", sim_addr), ("bare", bare_addr)];
    for (endpoint, plan, paths) in [
        ("get-quote", Plan::Get, &quote_paths),
        ("get-order", Plan::Get, &order_paths),
        ("create", Plan::QuoteThenCreate, &quote_paths),
    ] {
        for &c in &concurrency {
            let pair = client_rt.block_on(measure_pair(
                endpoint, plan, servers, paths, c, warmup, window,
            ));
            for case in pair {
                println!(
                    "  {endpoint:<10} {:<5} C={c:<3} {:>9.0} req/s  p50 {:>8.1} µs  p99 {:>8.1} µs",
                    case.server, case.rps, case.p50_us, case.p99_us
                );
                cases.push(case);
            }
        }
    }
    print_table(&cases);

    let ratios: Vec<Value> = cases
        .iter()
        .filter(|c| c.server == "sim")
        .filter_map(|sim| {
            let bare = cases.iter().find(|b| {
                b.server == "bare" && b.endpoint == sim.endpoint && b.concurrency == sim.concurrency
            })?;
            Some(json!({
                "endpoint": sim.endpoint, "concurrency": sim.concurrency,
                "rps_sim_over_bare": round(sim.rps / bare.rps, 3),
                "p50_sim_over_bare": round(sim.p50_us / bare.p50_us, 3),
                "p99_sim_over_bare": round(sim.p99_us / bare.p99_us, 3),
            }))
        })
        .collect();
    let report = json!({
        "bench": "gateway-sim throughput over loopback (closed loop, HTTP/1.1 keep-alive)",
        "cores": cores,
        "server_threads": SERVER_THREADS,
        "client_threads": CLIENT_THREADS,
        "warmup_secs": warmup.as_secs_f64(),
        "measure_secs": window.as_secs_f64(),
        "rounds": ROUNDS,
        "orders": ORDERS,
        "quote_query": quote_query(100_000),
        "results": cases.iter().map(Case::to_json).collect::<Vec<_>>(),
        "ratios": ratios,
    });
    let path = output_path();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("creating {}: {e}", dir.display()));
    }
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&report).expect("JSON") + "\n",
    )
    .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
    println!("\nwrote {}", path.display());

    let errors: u64 = cases.iter().map(|c| c.errors).sum();
    drop(running);
    drop(client_rt);
    drop(server_rt);
    if errors > 0 {
        eprintln!("{errors} answers were not 200: the figures above are not comparable");
        std::process::exit(1);
    }
}
