//! The HTTP service: an axum router over the simulated gateway's state.

mod settling;

pub use settling::{ClockMoved, ClockReading, Delivered};

use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use alloy_primitives::U256;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, patch, post};
use axum::{Json, Router, middleware};
use gateway_client::ApiVersion;
use gateway_client::address::BitcoinNetwork;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tracing::{debug, info, warn};

use crate::access::{Access, AccessConfig, InvalidKeyConfig};
use crate::catalogue::Catalogue;
use crate::chain_node::ChainNodes;
use crate::clock::Clock;
use crate::faults::{self, Faults};
use crate::orders::{Book, CreateContext, Order, Pool, StateError, StateFile};
use crate::quote::{self, QuoteError};
use crate::signing::QuoteSigner;
use crate::tamper::{self, Tamper, TamperSwitch};

/// How a simulated gateway is set up.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// The Bitcoin network its addresses and transactions belong to (mainnet, as the production gateway).
    pub network: BitcoinNetwork,
    /// API keys and rate limits.
    pub access: AccessConfig,
    /// Serve the admin interface (`/admin/...`: clock, liquidity, faults) to loopback callers. Off by default.
    pub admin: bool,
    /// Keep the orders (and the signing key) in this file, so they survive a restart.
    pub state_file: Option<PathBuf>,
    /// How long a client may take to send a request's head ([`HEADER_READ_TIMEOUT`] by default).
    pub header_read_timeout: Duration,
    /// How many connections may be open at once ([`MAX_CONNECTIONS`] by default).
    pub max_connections: usize,
    /// The chains with a real node behind them (of any family), whose registered transactions are checked, and whose
    /// unregistered payments found and owed outputs delivered, on that node ([`crate::local_chain`]); empty by
    /// default.
    pub chain_nodes: ChainNodes,
    /// Orders from EVM chains and Tron take the real service's shape ([`crate::quote::production_shape`]): the
    /// quote's `txTo` is the chain's published entry contract and the transaction its `exec`, which lets the gateway
    /// contract pull the amount. Off by default.
    pub production_shape: bool,
}

impl Default for SimConfig {
    fn default() -> Self {
        Self {
            network: BitcoinNetwork::Mainnet,
            access: AccessConfig::default(),
            admin: false,
            state_file: None,
            header_read_timeout: HEADER_READ_TIMEOUT,
            max_connections: MAX_CONNECTIONS,
            chain_nodes: ChainNodes::default(),
            production_shape: false,
        }
    }
}

/// The simulated gateway: its catalogue, its signing key (random, made with the `Sim`, or read from the state
/// file), its clock and its order book.
#[derive(Debug, Clone)]
pub struct Sim {
    catalogue: Arc<Catalogue>,
    signer: Arc<QuoteSigner>,
    clock: Clock,
    book: Arc<Mutex<Book>>,
    state: Option<Arc<StateFile>>,
    generation: Arc<AtomicU64>,
    access: Access,
    faults: Faults,
    tamper: TamperSwitch,
    config: Arc<SimConfig>,
    /// Delivery passes take turns ([`Sim::deliver_owed`]), so that no delivery is made twice.
    delivering: Arc<tokio::sync::Mutex<()>>,
    /// Chains whose node last refused a delivery, and when.
    failed: Arc<Mutex<HashMap<String, Instant>>>,
}

impl Default for Sim {
    fn default() -> Self {
        Self::with_config(SimConfig::default()).expect("no state file to read, no keys to check")
    }
}

/// Why a simulated gateway could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The state file exists and cannot be read.
    #[error(transparent)]
    State(#[from] StateError),
    /// A configured API key is not a key a request could present.
    #[error(transparent)]
    Keys(#[from] InvalidKeyConfig),
}

impl Sim {
    /// A gateway with the default catalogue and configuration.
    pub fn new() -> Self {
        Self::default()
    }

    /// A gateway set up by `config`; fails when its state file exists and cannot be read, or a configured key is
    /// not 32 characters.
    pub fn with_config(config: SimConfig) -> Result<Self, SimError> {
        let access = Access::new(config.access.clone())?;
        let (state, saved) = match &config.state_file {
            Some(path) => {
                let (file, saved) = StateFile::open(path)?;
                (Some(Arc::new(file)), saved)
            }
            None => (None, None),
        };
        let (signer, book) = match saved {
            Some((key, book)) => (QuoteSigner::from_key(key), book),
            None => {
                let (signer, book) = (QuoteSigner::random(), Book::default());
                // A new state file is written at once, not at the first order, so that the signing key outlives
                // this run: a quote signed now is still this gateway's after a restart (the command line starts the
                // Sandbox once per command, so a quote and the order made from it meet two runs).
                if let Some(file) = &state
                    && let Err(e) = file.write(0, &StateFile::snapshot(&signer, &book))
                {
                    warn!(error = %e, "gateway-sim state not saved");
                }
                (signer, book)
            }
        };
        // The clock where it was left: an order that ended before a restart stays ended.
        let clock = Clock::new();
        clock.advance(book.clock_offset());
        Ok(Self {
            catalogue: Arc::default(),
            signer: Arc::new(signer),
            clock,
            book: Arc::new(Mutex::new(book)),
            state,
            generation: Arc::default(),
            access,
            faults: Faults::default(),
            tamper: TamperSwitch::default(),
            config: Arc::new(config),
            delivering: Arc::default(),
            failed: Arc::default(),
        })
    }

    /// The catalogue this gateway offers.
    pub fn catalogue(&self) -> &Catalogue {
        &self.catalogue
    }

    /// The key that signs onramp quotes (`signedQuoteData`) and get-orders cursors.
    pub fn signer(&self) -> &QuoteSigner {
        &self.signer
    }

    /// The clock every quote and order reads; advance it to move orders along.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The fault rules applied to API requests (tests add rules here directly, or through `/admin/faults`).
    pub fn faults(&self) -> &Faults {
        &self.faults
    }

    /// The tamper in force: a hostile gateway's lies on demand (tests switch it here or through `/admin/tamper`).
    pub fn tamper(&self) -> &TamperSwitch {
        &self.tamper
    }

    /// The configuration.
    pub fn config(&self) -> &SimConfig {
        &self.config
    }

    fn lock(&self) -> MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A copy of the order `id`.
    pub fn order(&self, id: &str) -> Option<Order> {
        self.lock().order(id).cloned()
    }

    /// Every order, oldest first.
    pub fn orders(&self) -> Vec<Order> {
        self.lock().orders().to_vec()
    }

    /// The solver pool of `token` on `chain`, after settling what has ended by now.
    pub fn pool(&self, chain: &str, token: &str) -> Pool {
        let now = self.clock.now();
        let mut book = self.lock();
        book.settle(now);
        book.pool(&self.catalogue, chain, token)
    }

    /// Sets the solver's balance of `token` on `chain` (reservations stay).
    pub async fn set_liquidity(&self, chain: &str, token: &str, balance: U256) -> Pool {
        let (pool, snapshot) = self.change(|book, catalogue| {
            book.set_pool_balance(catalogue, chain, token, balance);
            book.pool(catalogue, chain, token)
        });
        self.save(snapshot).await;
        pool
    }

    /// Runs a change of the book; gives its result and, with a state file, the snapshot to write.
    fn change<T>(&self, f: impl FnOnce(&mut Book, &Catalogue) -> T) -> (T, Option<(u64, Vec<u8>)>) {
        let mut book = self.lock();
        let result = f(&mut book, &self.catalogue);
        let snapshot = self.state.as_ref().map(|_| {
            let generation = self.generation.fetch_add(1, Ordering::Relaxed) + 1;
            (generation, StateFile::snapshot(&self.signer, &book))
        });
        (result, snapshot)
    }

    /// Runs a change of the book that may do nothing (`f` says whether it changed anything); a snapshot to write only
    /// when it did.
    fn change_if(&self, f: impl FnOnce(&mut Book) -> bool) -> (bool, Option<(u64, Vec<u8>)>) {
        let mut book = self.lock();
        let changed = f(&mut book);
        let snapshot = self.state.as_ref().filter(|_| changed).map(|_| {
            let generation = self.generation.fetch_add(1, Ordering::Relaxed) + 1;
            (generation, StateFile::snapshot(&self.signer, &book))
        });
        (changed, snapshot)
    }

    /// Writes a snapshot to the state file (off the async threads). A failed write is logged; the gateway keeps
    /// serving from memory.
    async fn save(&self, snapshot: Option<(u64, Vec<u8>)>) {
        let (Some(file), Some((generation, bytes))) = (self.state.clone(), snapshot) else {
            return;
        };
        match tokio::task::spawn_blocking(move || file.write(generation, &bytes)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => warn!(error = %e, "gateway-sim state not saved"),
            Err(e) => warn!(error = %e, "gateway-sim state writer failed"),
        }
    }

    /// The HTTP interface: the endpoints under `/v1`, `/v2` and `/v3` behind the API-key and fault layers, plus
    /// `/admin/...` for loopback callers when enabled; anything else is 404 with no body.
    pub fn router(&self) -> Router {
        let api = Router::new()
            .route("/{version}/get-routes", get(get_routes))
            .route("/{version}/get-quote", get(get_quote))
            // The JSON-body rule on the two methods that take a body, so that another method is still a 405.
            .route(
                "/{version}/create-order",
                post(create_order).route_layer(middleware::from_fn(json_bodies_only)),
            )
            .route(
                "/{version}/register-tx",
                patch(register_tx).route_layer(middleware::from_fn(json_bodies_only)),
            )
            .route("/{version}/get-order/{id}", get(get_order))
            .route("/{version}/get-orders/{user_address}", get(get_orders))
            .route(
                "/{version}/get-max-spendable/{address}",
                get(get_max_spendable),
            )
            .with_state(self.clone())
            // Faults outermost: an injected fault answers before (and without counting against) the rate limit.
            .layer(middleware::from_fn_with_state(
                self.access.clone(),
                crate::access::middleware,
            ))
            .layer(middleware::from_fn_with_state(
                self.faults.clone(),
                faults::middleware,
            ));
        let mut router = api;
        if self.config.admin {
            let admin = Router::new()
                .route("/admin/clock", get(admin_clock))
                .route("/admin/clock/advance", post(admin_advance))
                .route("/admin/liquidity", get(admin_pools).put(admin_set_pool))
                .route("/admin/tamper", get(admin_tamper).put(admin_set_tamper))
                .with_state(self.clone())
                .merge(faults::admin_router(self.faults.clone()))
                .route_layer(middleware::from_fn(json_bodies_only))
                .layer(middleware::from_fn(faults::loopback_only));
            router = router.merge(admin);
        }
        router
            .fallback(|| async { StatusCode::NOT_FOUND })
            .layer(middleware::from_fn(loopback_hosts_only))
    }

    /// Serves on `listener` until `shutdown` resolves.
    ///
    /// Each connection is HTTP/1.1 through hyper with a header-read timeout ([`SimConfig::header_read_timeout`]: a
    /// client that opens a connection and never finishes a request's head, the first or a later one on a kept-alive
    /// connection, is cut off) and a lifetime cap ([`CONNECTION_LIFETIME`]); at most [`SimConfig::max_connections`]
    /// are open at once, and one more is closed at once (the Sandbox runs inside the app: held connections must not exhaust its file
    /// descriptors).
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> io::Result<()> {
        let router = self.router();
        let max_connections = self.config.max_connections.max(1);
        let header_read_timeout = self.config.header_read_timeout;
        let permits = Arc::new(tokio::sync::Semaphore::new(max_connections));
        tokio::pin!(shutdown);
        loop {
            let (stream, peer) = tokio::select! {
                () = &mut shutdown => return Ok(()),
                accepted = listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        // Out of file descriptors, or a connection reset before accept: wait a little, go on.
                        warn!(error = %e, "accept failed");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                },
            };
            let Ok(permit) = permits.clone().try_acquire_owned() else {
                warn!(%peer, limit = max_connections, "too many open connections; closing a new one");
                drop(stream);
                continue;
            };
            let router = router.clone();
            tokio::spawn(async move {
                let _permit = permit;
                let service = hyper::service::service_fn(
                    move |mut request: hyper::Request<hyper::body::Incoming>| {
                        request
                            .extensions_mut()
                            .insert(axum::extract::ConnectInfo(peer));
                        tower::ServiceExt::oneshot(router.clone(), request)
                    },
                );
                let connection = hyper::server::conn::http1::Builder::new()
                    .timer(hyper_util::rt::TokioTimer::new())
                    .header_read_timeout(header_read_timeout)
                    .keep_alive(true)
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service);
                match tokio::time::timeout(CONNECTION_LIFETIME, connection).await {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) => debug!(%peer, error = %e, "connection ended with an error"),
                    Err(_) => debug!(%peer, "connection closed at the end of its lifetime"),
                }
            });
        }
    }

    /// Binds `addr` (port 0 picks a free port) and serves in a background task.
    pub async fn spawn(self, addr: SocketAddr) -> io::Result<RunningSim> {
        let listener = TcpListener::bind(addr).await?;
        let addr = listener.local_addr()?;
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(self.serve(listener, async {
            let _ = stopped.await;
        }));
        info!(%addr, "gateway-sim listening");
        Ok(RunningSim {
            addr,
            stop: Some(stop),
            task,
        })
    }
}

/// How long a client may take to send a request's head (its first, or the next on a kept-alive connection).
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one connection may stay open, however busy.
pub const CONNECTION_LIFETIME: Duration = Duration::from_secs(300);
/// How many connections may be open at once.
pub const MAX_CONNECTIONS: usize = 256;

/// A simulated gateway serving in the background. Dropping it stops the server.
#[derive(Debug)]
pub struct RunningSim {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<io::Result<()>>,
}

impl RunningSim {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Its base URL, `http://127.0.0.1:PORT`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops serving and waits for open connections to finish.
    pub async fn shutdown(mut self) -> io::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        (&mut self.task)
            .await
            .unwrap_or_else(|e| Err(io::Error::other(e)))
    }
}

impl Drop for RunningSim {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

fn parse_version(version: &str) -> Option<ApiVersion> {
    match version {
        "v1" => Some(ApiVersion::V1),
        "v2" => Some(ApiVersion::V2),
        "v3" => Some(ApiVersion::V3),
        "v4" => Some(ApiVersion::V4),
        _ => None,
    }
}

fn refused(error: &QuoteError) -> Response {
    (StatusCode::BAD_REQUEST, Json(error.body())).into_response()
}

/// Refuses a request from a loopback peer whose `Host` is not a loopback name (DNS rebinding: a page of
/// `attacker.example` resolved to 127.0.0.1 by the browser on this computer), with 400 and the published error body,
/// before any handler runs.
async fn loopback_hosts_only(req: axum::extract::Request, next: middleware::Next) -> Response {
    let peer_is_loopback = req
        .extensions()
        .get::<axum::extract::ConnectInfo<SocketAddr>>()
        .is_none_or(|info| info.0.ip().to_canonical().is_loopback());
    if peer_is_loopback {
        let host = req
            .headers()
            .get(axum::http::header::HOST)
            .and_then(|h| h.to_str().ok())
            .or_else(|| req.uri().host());
        if let Some(host) = host
            && !is_loopback_host(host)
        {
            return invalid_request(format!(
                "Host: this gateway answers only to a loopback name (127.0.0.1, localhost, [::1]), not {host:?}"
            ));
        }
    }
    next.run(req).await
}

/// Refuses a body-carrying request (POST, PUT, PATCH) whose `Content-Type` is not JSON, with 400 and the published
/// error body: a cross-site form or `text/plain` post needs no preflight, a JSON one does. Layered on the method
/// routes that take a body, so a method the path does not take is still answered 405.
async fn json_bodies_only(req: axum::extract::Request, next: middleware::Next) -> Response {
    let has_body = matches!(
        *req.method(),
        axum::http::Method::POST | axum::http::Method::PUT | axum::http::Method::PATCH
    );
    if has_body {
        let json = req
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return invalid_request("Content-Type: the body must be sent as application/json");
        }
    }
    next.run(req).await
}

/// A `Host` header value naming this computer: `127.x.x.x`, `localhost` or `[::1]`, with any port.
fn is_loopback_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or_default(),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.to_canonical().is_loopback())
}

fn invalid_request(message: impl Into<String>) -> Response {
    refused(&QuoteError::new("INVALID_REQUEST", message))
}

async fn get_routes(State(sim): State<Sim>, Path(version): Path<String>) -> Response {
    match parse_version(&version) {
        Some(version) => Json(sim.catalogue.routes(version)).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn get_quote(
    State(sim): State<Sim>,
    Path(version): Path<String>,
    params: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Response {
    let Some(version) = parse_version(&version) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let params = match params {
        Ok(Query(params)) => params,
        Err(rejection) => return invalid_request(rejection.body_text()),
    };
    let now = sim.clock.now();
    let mut quote = match quote::get_quote(
        &sim.catalogue,
        &sim.signer,
        version,
        sim.config.network,
        &params,
        now,
    ) {
        Ok(quote) => quote,
        Err(err) => return refused(&err),
    };
    if sim.config.production_shape {
        quote::production_shape(&mut quote);
    }
    let mut book = sim.lock();
    if let Err(err) = book.check_liquidity(&sim.catalogue, &quote, now) {
        return refused(&err);
    }
    if let Some(lie) = sim.tamper.get().filter(|t| t.is_quote_tamper()) {
        tamper_quote(&sim, lie, &mut quote, version, &params, now);
    }
    book.remember_quote(&quote, quote::owner_param(version, &params), now);
    drop(book);
    Json(quote).into_response()
}

/// Reads a JSON body, or gives the INVALID_REQUEST refusal.
fn json_body(body: &Bytes) -> Result<Value, QuoteError> {
    serde_json::from_slice(body).map_err(|e| {
        QuoteError::new(
            "INVALID_REQUEST",
            format!("the body is not valid JSON: {e}"),
        )
    })
}

/// Whether a create-order body names `chain` anywhere (a quote's source chain is in its input amount).
fn names_chain(body: &Value, chain: &str) -> bool {
    match body {
        Value::String(text) => text == chain,
        Value::Array(items) => items.iter().any(|v| names_chain(v, chain)),
        Value::Object(fields) => fields.values().any(|v| names_chain(v, chain)),
        _ => false,
    }
}

async fn create_order(
    State(sim): State<Sim>,
    Path(version): Path<String>,
    body: Bytes,
) -> Response {
    let Some(version) = parse_version(&version) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let body = match json_body(&body) {
        Ok(body) => body,
        Err(err) => return refused(&err),
    };
    // An order whose chain builds transactions on a recent block (Solana's blockhash) is built on its node's latest,
    // when the gateway has a node of that chain.
    let mut recent_blockhash = None;
    for chain in sim.config.chain_nodes.chains() {
        let (Some(url), Some(local)) = (
            sim.config.chain_nodes.url(&chain),
            crate::local_chain::of(&chain),
        ) else {
            continue;
        };
        if !names_chain(&body, &chain) {
            continue;
        }
        match local.recent_blockhash(&url).await {
            Some(Ok(hash)) => {
                recent_blockhash = Some(hash);
                break;
            }
            Some(Err(e)) => {
                tracing::warn!(chain, error = %e, "the node gave no blockhash; the order's transaction gets none it knows");
            }
            None => {}
        }
    }
    let ctx = CreateContext {
        catalogue: &sim.catalogue,
        signer: &sim.signer,
        network: sim.config.network.into(),
        version,
        now: sim.clock.now(),
        recent_blockhash,
        order_tx: crate::local_chain::ORDER_TX,
    };
    let (result, snapshot) = sim.change(|book, _| book.create_order(&ctx, &body));
    match result {
        Ok(mut created) => {
            sim.save(snapshot).await;
            if let Some(lie) = sim.tamper.get().filter(|t| !t.is_quote_tamper()) {
                let quote = body.as_object().and_then(|m| m.values().next());
                let network = sim.config.network.into();
                if !quote.is_some_and(|q| tamper::tamper_order(lie, &mut created, q, network)) {
                    tamper::not_applied(lie, "create-order");
                }
            }
            info!(route = ?created.as_object().and_then(|m| m.keys().next()), "order created");
            (StatusCode::CREATED, Json(created)).into_response()
        }
        Err(err) => refused(&err),
    }
}

async fn register_tx(State(sim): State<Sim>, Path(version): Path<String>, body: Bytes) -> Response {
    let Some(version) = parse_version(&version) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let body = match json_body(&body) {
        Ok(body) => body,
        Err(err) => return refused(&err),
    };
    if let Err(err) = check_on_node(&sim, &body).await {
        return refused(&err);
    }
    let now = sim.clock.now();
    let network = sim.config.network.into();
    let (result, snapshot) = sim.change(|book, _| book.register_tx(version, network, &body, now));
    match result {
        Ok(answer) => {
            sim.save(snapshot).await;
            Json(answer).into_response()
        }
        Err(err) => refused(&err),
    }
}

/// An offramp or token swap whose source chain has a node: the registered hash must be a transaction on that node
/// that succeeded and paid the order ([`crate::local_chain::LocalChain::check_paid`] of its family). Anything else
/// is left to the book's own checks.
async fn check_on_node(sim: &Sim, body: &Value) -> Result<(), QuoteError> {
    let Some(fields) = body
        .as_object()
        .filter(|m| m.len() == 1)
        .and_then(|m| m.values().next())
    else {
        return Ok(());
    };
    let text = |key: &str| fields.get(key).and_then(Value::as_str).map(str::trim);
    let (Some(order_id), Some(hash)) = (
        text("order_id"),
        text("src_tx_hash").or_else(|| text("evm_txhash")),
    ) else {
        return Ok(());
    };
    let Some(order) = sim.order(order_id) else {
        return Ok(());
    };
    let field = if fields.get("src_tx_hash").is_some() {
        "src_tx_hash"
    } else {
        "evm_txhash"
    };
    let Some(url) = sim.config.chain_nodes.url(&order.src.chain) else {
        return Ok(());
    };
    if gateway_client::txhash::validate_src_tx_hash(&order.src.chain, hash).is_err() {
        return Ok(());
    }
    let Some(chain) = crate::local_chain::of(&order.src.chain) else {
        return Ok(());
    };
    chain
        .check_paid(&url, &order, hash)
        .await
        .map_err(|why| QuoteError::new("INVALID_REQUEST", format!("{field}: {why}")))
}

async fn get_order(
    State(sim): State<Sim>,
    Path((version, id)): Path<(String, String)>,
) -> Response {
    let Some(version) = parse_version(&version) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    sim.deliver_owed().await;
    let now = sim.clock.now();
    match sim.lock().get_order(&id, version, now) {
        Some(order) => Json(order).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn get_orders(
    State(sim): State<Sim>,
    Path((version, address)): Path<(String, String)>,
    params: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Response {
    let Some(version) = parse_version(&version) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let params = match params {
        Ok(Query(params)) => params,
        Err(rejection) => return invalid_request(rejection.body_text()),
    };
    sim.deliver_owed().await;
    let now = sim.clock.now();
    let result = sim.lock().get_orders(
        &sim.signer,
        &address,
        version,
        params.get("cursor").map(String::as_str),
        params.get("limit").map(String::as_str),
        now,
    );
    match result {
        Ok(page) => Json(page).into_response(),
        Err(err) => refused(&err),
    }
}

async fn admin_clock(State(sim): State<Sim>) -> Json<Value> {
    let reading = sim.read_clock().await;
    Json(
        json!({"now": reading.now, "advancedSecs": reading.advanced_secs,
        "pending": reading.pending, "finishInSecs": reading.finish_in_secs}),
    )
}

#[derive(Deserialize)]
struct Advance {
    secs: u64,
}

async fn admin_advance(State(sim): State<Sim>, body: Bytes) -> Response {
    match serde_json::from_slice::<Advance>(&body) {
        Ok(Advance { secs }) => {
            let moved = sim.advance_clock(secs).await;
            Json(json!({"now": moved.after.now, "advancedSecs": moved.after.advanced_secs,
                "finished": moved.finished, "expired": moved.expired, "delivered": moved.delivered}))
            .into_response()
        }
        Err(e) => (
            StatusCode::BAD_REQUEST,
            Json(json!({"error": format!("expected {{\"secs\": N}}: {e}")})),
        )
            .into_response(),
    }
}

async fn admin_pools(State(sim): State<Sim>) -> Json<Value> {
    let now = sim.clock.now();
    let mut book = sim.lock();
    book.settle(now);
    let pools: Vec<Value> = sim
        .catalogue
        .tokens()
        .iter()
        .map(|t| {
            let pool = book.pool(&sim.catalogue, t.chain, t.address);
            json!({"chain": t.chain, "token": t.address, "balance": pool.balance.to_string(),
                "reserved": pool.reserved.to_string(), "available": pool.available().to_string()})
        })
        .collect();
    Json(Value::Array(pools))
}

#[derive(Deserialize)]
struct SetPool {
    chain: String,
    token: String,
    balance: String,
}

async fn admin_set_pool(State(sim): State<Sim>, body: Bytes) -> Response {
    let bad = |message: String| {
        (StatusCode::BAD_REQUEST, Json(json!({"error": message}))).into_response()
    };
    let request = match serde_json::from_slice::<SetPool>(&body) {
        Ok(request) => request,
        Err(e) => {
            return bad(format!(
                "expected {{\"chain\", \"token\", \"balance\"}}: {e}"
            ));
        }
    };
    let Ok(balance) = request.balance.parse::<U256>() else {
        return bad(format!(
            "balance {:?} is not a whole number of smallest units",
            request.balance
        ));
    };
    if sim.catalogue.find(&request.chain, &request.token).is_none() {
        return bad(format!(
            "{} on {} is not a listed token",
            request.token, request.chain
        ));
    }
    let pool = sim
        .set_liquidity(&request.chain, &request.token, balance)
        .await;
    Json(
        json!({"chain": request.chain, "token": request.token, "balance": pool.balance.to_string(),
        "reserved": pool.reserved.to_string(), "available": pool.available().to_string()}),
    )
    .into_response()
}

/// Rewrites a genuine quote envelope by `lie`, then issues it as this gateway's own: an onramp quote is signed again
/// (an offramp or token-swap quote is remembered as sent by the caller).
fn tamper_quote(
    sim: &Sim,
    lie: Tamper,
    quote: &mut Value,
    version: ApiVersion,
    params: &HashMap<String, String>,
    now: u64,
) {
    let Some((key, inner)) = quote.as_object_mut().and_then(|m| m.iter_mut().next()) else {
        return;
    };
    if !tamper::tamper_quote(lie, inner, version, sim.config.network.into()) {
        tamper::not_applied(lie, "get-quote");
        return;
    }
    if key == "onramp"
        && let Some(map) = inner.as_object_mut()
    {
        map.remove("signedQuoteData");
        let token = sim.signer.sign(
            &Value::Object(map.clone()),
            now,
            &quote::kept(version, params),
        );
        map.insert("signedQuoteData".into(), json!(token));
    }
}

/// `GET /admin/tamper`: the tamper in force and every one there is.
async fn admin_tamper(State(sim): State<Sim>) -> Response {
    let all: Vec<String> = Tamper::ALL
        .iter()
        .chain(&Tamper::SIMULATED)
        .map(|t| t.name())
        .collect();
    Json(json!({"tamper": sim.tamper.get(), "available": all})).into_response()
}

/// `PUT /admin/tamper {"tamper": "<name>" | null}`: switches a tamper on, or off with `null`.
async fn admin_set_tamper(State(sim): State<Sim>, body: Bytes) -> Response {
    #[derive(Deserialize)]
    struct Body {
        tamper: Option<Tamper>,
    }
    match serde_json::from_slice::<Body>(&body) {
        Ok(Body { tamper }) => {
            sim.tamper.set(tamper);
            warn!(tamper = ?tamper.map(Tamper::name), "gateway-sim tamper switched");
            Json(json!({"tamper": tamper})).into_response()
        }
        Err(e) => invalid_request(format!(
            "the body must be {{\"tamper\": <name> | null}} with a name from GET /admin/tamper: {e}"
        )),
    }
}

/// `GET /{v}/get-max-spendable/{address}`: what a deposit from `address` can pay now, after the network fee (the
/// address's coin on the simulated chain; see `payload::bitcoin`), as `{userAddress, amount: {address, amount,
/// chain}}`.
async fn get_max_spendable(
    State(sim): State<Sim>,
    Path((version, address)): Path<(String, String)>,
) -> Response {
    if parse_version(&version).is_none() {
        return StatusCode::NOT_FOUND.into_response();
    }
    let script = match gateway_client::address::validate_bitcoin(&address, sim.config.network) {
        Ok(valid) => valid
            .canonical
            .parse::<bitcoin::Address<bitcoin::address::NetworkUnchecked>>()
            .map(|a| a.assume_checked().script_pubkey()),
        Err(e) => return invalid_request(format!("address: {e}")),
    };
    let Ok(script) = script else {
        return invalid_request(format!(
            "address: {address:?} is not a Bitcoin address this gateway can read"
        ));
    };
    // What ended by now is settled first: a Bitcoin payout is a coin of the recipient from then on.
    sim.deliver_owed().await;
    let sats = sim.lock().max_spendable(&script);
    Json(json!({
        "userAddress": address,
        "amount": {
            "address": gateway_client::wire::NATIVE_TOKEN,
            "amount": sats.to_string(),
            "chain": "bitcoin",
        },
    }))
    .into_response()
}
