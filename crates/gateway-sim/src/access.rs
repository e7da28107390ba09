//! API keys and rate limits: an axum middleware for the API router.
//!
//! The specification makes keys optional, sent as `Authorization: Bearer <KEY>`, exactly 32 characters long, and says a
//! key gives higher rate limits than keyless use. It leaves the answer to a bad key open; this gateway chooses:
//!
//! | request | answer |
//! |---|---|
//! | no `Authorization` header | keyless: limited per client IP address |
//! | `Authorization: Bearer K`, `K` one of the configured keys | keyed: limited per key, with the higher limit |
//! | `K` not exactly 32 characters, or a header that is not `Bearer <token>` | 401, `INVALID_REQUEST`, malformed key |
//! | `K` of 32 characters that is not configured | 401, `INVALID_REQUEST`, unknown key |
//! | a caller over its limit | 429, `EXCEEDED_LIMIT` with `details: {limit: "<N> requests per minute"}`, `Retry-After` |
//!
//! Every refusal carries the published error body `{code, error, details?}`; a 401 also carries
//! `WWW-Authenticate: Bearer error="invalid_token"`. A refused key is never logged: only its length (malformed) or the
//! first 8 hex digits of its SHA-256 (unknown).
//!
//! Limits are token buckets ([`governor`]'s GCRA): `N` per minute allows a burst of `N` requests, then one more every
//! `60/N` seconds. A keyless caller is identified by the peer IP address from [`ConnectInfo<SocketAddr>`] (every
//! loopback address, `127.0.0.0/8` and `::1`, is one caller: a local process cannot dodge the limit by cycling its
//! source address), so the
//! server must be started with `into_make_service_with_connect_info::<SocketAddr>()`; without it (e.g. a test that
//! drives the router with `oneshot`) every keyless caller shares one "unknown" bucket.
//!
//! The `/admin` paths are exempt: this layer is meant for the API router only, and it lets `/admin` and `/admin/...`
//! through untouched even when it is applied to a router that contains them.
//!
//! ```ignore
//! let access = Access::new(AccessConfig::default())?;
//! let api = api.layer(axum::middleware::from_fn_with_state(access, access::middleware));
//! ```

use std::collections::HashMap;
use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::Json;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::header::{AUTHORIZATION, RETRY_AFTER, WWW_AUTHENTICATE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};
use serde_json::json;
use sha2::{Digest, Sha256};
use tracing::{info, warn};

/// The length of an API key, in characters (the specification's "exactly 32 characters").
pub const KEY_LENGTH: usize = 32;

/// Keyless requests allowed per minute from one IP address by default.
pub const DEFAULT_KEYLESS_PER_MINUTE: u32 = 120;

/// Requests allowed per minute with one API key by default.
pub const DEFAULT_KEYED_PER_MINUTE: u32 = 1200;

/// The sentence of the 401 answer to a malformed key.
pub const MALFORMED_KEY_MESSAGE: &str = "The API key is malformed: it must be exactly 32 characters, sent as \
     `Authorization: Bearer <key>`; check the key, or leave the header out to use the gateway without one.";

/// The sentence of the 401 answer to a well-formed key that is not configured.
pub const UNKNOWN_KEY_MESSAGE: &str = "The API key is not recognised by this gateway; check the key, or leave the \
     `Authorization` header out to use the gateway without one.";

/// How many limiter checks pass between two sweeps of idle buckets.
const SWEEP_EVERY: u64 = 4096;

/// Which keys are accepted and how many requests per minute each kind of caller may make.
///
/// A limit of 0 means "no limit" (see [`AccessConfig::unlimited`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessConfig {
    /// The accepted API keys, each exactly [`KEY_LENGTH`] characters. Default: none.
    pub keys: Vec<String>,
    /// Requests per minute from one IP address without a key (also the burst). Default:
    /// [`DEFAULT_KEYLESS_PER_MINUTE`] (120). 0: no limit.
    pub keyless_per_minute: u32,
    /// Requests per minute with one key (also the burst). Default: [`DEFAULT_KEYED_PER_MINUTE`] (1200). 0: no limit.
    pub keyed_per_minute: u32,
}

impl Default for AccessConfig {
    fn default() -> Self {
        Self {
            keys: Vec::new(),
            keyless_per_minute: DEFAULT_KEYLESS_PER_MINUTE,
            keyed_per_minute: DEFAULT_KEYED_PER_MINUTE,
        }
    }
}

impl AccessConfig {
    /// No rate limits at all (for benchmarks); keys are still checked. No keys configured.
    pub fn unlimited() -> Self {
        Self {
            keys: Vec::new(),
            keyless_per_minute: 0,
            keyed_per_minute: 0,
        }
    }

    /// The same configuration accepting `keys` as well.
    pub fn with_keys<I, S>(mut self, keys: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.keys.extend(keys.into_iter().map(Into::into));
        self
    }
}

/// A configured key that could never be accepted. The key itself is not shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidKeyConfig {
    /// The position of the key in [`AccessConfig::keys`].
    pub index: usize,
    /// Its length in characters.
    pub length: usize,
}

impl fmt::Display for InvalidKeyConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "API key number {} in the configuration is {} characters long or contains white space; every key must \
             be exactly {KEY_LENGTH} characters without white space",
            self.index + 1,
            self.length
        )
    }
}

impl std::error::Error for InvalidKeyConfig {}

type Limiter<K> = RateLimiter<K, DefaultKeyedStateStore<K>, DefaultClock>;

/// One kind of caller's limit: the number for the messages, and the buckets (none when unlimited).
struct Limit<K: std::hash::Hash + Eq + Clone> {
    per_minute: u32,
    limiter: Option<Limiter<K>>,
}

impl<K: std::hash::Hash + Eq + Clone> Limit<K> {
    fn new(per_minute: u32) -> Self {
        Self {
            per_minute,
            limiter: NonZeroU32::new(per_minute).map(|n| RateLimiter::keyed(Quota::per_minute(n))),
        }
    }

    /// `Err(wait)` when the caller `key` is over the limit and may retry after `wait`.
    fn check(&self, key: &K) -> Result<(), Duration> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        limiter
            .check_key(key)
            .map_err(|not_until| not_until.wait_time_from(limiter.clock().now()))
    }

    fn sweep(&self) {
        if let Some(limiter) = &self.limiter {
            limiter.retain_recent();
        }
    }
}

struct Inner {
    /// Accepted key → its bucket number.
    keys: HashMap<String, usize>,
    /// Keyless buckets by peer IP address; `None` is the shared bucket of callers whose address is unknown.
    keyless: Limit<Option<IpAddr>>,
    keyed: Limit<usize>,
    checks: AtomicU64,
    /// The minute (since the Unix epoch) of the last logged rate-limit refusal: at most one line a minute.
    last_refusal_log: AtomicU64,
}

/// The keys and rate-limit buckets shared by every request (cheap to clone).
#[derive(Clone)]
pub struct Access {
    inner: Arc<Inner>,
}

impl fmt::Debug for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The keys are secrets: show only how many there are.
        f.debug_struct("Access")
            .field("keys", &self.inner.keys.len())
            .field("keyless_per_minute", &self.inner.keyless.per_minute)
            .field("keyed_per_minute", &self.inner.keyed.per_minute)
            .finish()
    }
}

impl Default for Access {
    /// [`AccessConfig::default`]: no keys, 120 keyless and 1200 keyed requests per minute.
    fn default() -> Self {
        Self::from_valid_config(AccessConfig::default())
    }
}

impl Access {
    /// Builds the buckets; refuses a configured key that is not exactly [`KEY_LENGTH`] characters without white
    /// space, since no request could ever present it.
    pub fn new(config: AccessConfig) -> Result<Self, InvalidKeyConfig> {
        for (index, key) in config.keys.iter().enumerate() {
            let length = key.chars().count();
            if length != KEY_LENGTH || key.chars().any(char::is_whitespace) {
                return Err(InvalidKeyConfig { index, length });
            }
        }
        Ok(Self::from_valid_config(config))
    }

    fn from_valid_config(config: AccessConfig) -> Self {
        let mut keys = HashMap::new();
        for key in config.keys {
            let next = keys.len();
            keys.entry(key).or_insert(next);
        }
        info!(
            keys = keys.len(),
            keyless_per_minute = config.keyless_per_minute,
            keyed_per_minute = config.keyed_per_minute,
            "API access configured (a limit of 0 means none)"
        );
        Self {
            inner: Arc::new(Inner {
                keys,
                keyless: Limit::new(config.keyless_per_minute),
                keyed: Limit::new(config.keyed_per_minute),
                checks: AtomicU64::new(0),
                last_refusal_log: AtomicU64::new(0),
            }),
        }
    }

    /// Keyless requests allowed per minute from one IP address (0: no limit).
    pub fn keyless_per_minute(&self) -> u32 {
        self.inner.keyless.per_minute
    }

    /// Requests allowed per minute with one key (0: no limit).
    pub fn keyed_per_minute(&self) -> u32 {
        self.inner.keyed.per_minute
    }

    /// Drops idle buckets now and then, so that many one-off callers do not grow the maps for ever.
    fn count_check(&self) {
        if self.inner.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            self.inner.keyless.sweep();
            self.inner.keyed.sweep();
        }
    }

    /// Whether a rate-limit refusal may be logged now: the first of each minute is, the rest are not (a flood of
    /// refused requests must not become a flood of log lines).
    fn log_refusal_now(&self) -> bool {
        let minute = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() / 60)
            .saturating_add(1);
        self.inner.last_refusal_log.swap(minute, Ordering::Relaxed) != minute
    }

    /// Decides about one request from its headers and peer address: `None` to let it through, or the refusal.
    fn refusal(&self, headers: &HeaderMap, peer: Option<IpAddr>) -> Option<Response> {
        match credential(headers) {
            Credential::Absent => {
                self.count_check();
                let peer = peer.map(caller_of);
                let wait = self.inner.keyless.check(&peer).err()?;
                if self.log_refusal_now() {
                    info!(peer = ?peer, "keyless caller over its rate limit (further refusals this minute not logged)");
                }
                Some(exceeded_limit_response(
                    self.inner.keyless.per_minute,
                    false,
                    wait,
                ))
            }
            Credential::Malformed { length } => {
                warn!(key_length = ?length, "refused a malformed API key");
                Some(unauthorized(MALFORMED_KEY_MESSAGE))
            }
            Credential::Key(key) => {
                let Some(bucket) = self.inner.keys.get(key) else {
                    warn!(key_sha256_prefix = %short_hash(key), "refused an unknown API key");
                    return Some(unauthorized(UNKNOWN_KEY_MESSAGE));
                };
                self.count_check();
                let wait = self.inner.keyed.check(bucket).err()?;
                if self.log_refusal_now() {
                    info!(key_sha256_prefix = %short_hash(key), "keyed caller over its rate limit (further refusals this minute not logged)");
                }
                Some(exceeded_limit_response(
                    self.inner.keyed.per_minute,
                    true,
                    wait,
                ))
            }
        }
    }
}

/// The caller a keyless peer address counts as: every loopback address is one caller.
fn caller_of(ip: IpAddr) -> IpAddr {
    if ip.is_loopback() {
        IpAddr::from([127, 0, 0, 1])
    } else {
        ip
    }
}

/// The middleware, for `axum::middleware::from_fn_with_state(access, access::middleware)` on the API router.
///
/// Lets `/admin` paths through untouched; otherwise checks the key (401 when malformed or unknown) and the caller's
/// rate limit (429 with `Retry-After` when over it) before running the handler.
pub async fn middleware(State(access): State<Access>, req: Request, next: Next) -> Response {
    if is_admin_path(req.uri().path()) {
        return next.run(req).await;
    }
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip().to_canonical());
    match access.refusal(req.headers(), peer) {
        None => next.run(req).await,
        Some(refusal) => refusal,
    }
}

fn is_admin_path(path: &str) -> bool {
    path == "/admin" || path.starts_with("/admin/")
}

/// What the `Authorization` header presents.
#[derive(Debug, PartialEq, Eq)]
enum Credential<'a> {
    Absent,
    /// Not `Bearer <token>` (`length` unknown), or a token that is not exactly 32 characters.
    Malformed {
        length: Option<usize>,
    },
    Key(&'a str),
}

fn credential(headers: &HeaderMap) -> Credential<'_> {
    let mut values = headers.get_all(AUTHORIZATION).iter();
    let Some(value) = values.next() else {
        return Credential::Absent;
    };
    let malformed = Credential::Malformed { length: None };
    if values.next().is_some() {
        return malformed;
    }
    let Ok(value) = value.to_str() else {
        return malformed;
    };
    let Some((scheme, token)) = value.trim().split_once(' ') else {
        return malformed;
    };
    if !scheme.eq_ignore_ascii_case("bearer") {
        return malformed;
    }
    let token = token.trim_start();
    let length = token.chars().count();
    if length != KEY_LENGTH || token.chars().any(char::is_whitespace) {
        return Credential::Malformed {
            length: Some(length),
        };
    }
    Credential::Key(token)
}

/// The first 8 hex digits of the SHA-256 of `key`: enough to tell keys apart in a log, useless to an attacker.
fn short_hash(key: &str) -> String {
    Sha256::digest(key.as_bytes())[..4]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn unauthorized(message: &str) -> Response {
    let mut response = (
        StatusCode::UNAUTHORIZED,
        Json(json!({ "code": "INVALID_REQUEST", "error": message })),
    )
        .into_response();
    response.headers_mut().insert(
        WWW_AUTHENTICATE,
        HeaderValue::from_static("Bearer error=\"invalid_token\""),
    );
    response
}

/// `wait` in whole seconds, rounded up, at least 1 (the value of `Retry-After`).
pub fn retry_after_secs(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

/// The 429 answer to a caller over a limit of `per_minute` requests per minute (`keyed`: the limit of an API key,
/// otherwise of one address without a key): `Retry-After` in whole seconds (at least 1) and the body
/// `{"code":"EXCEEDED_LIMIT","error":"…","details":{"limit":"<N> requests per minute"}}`.
pub fn exceeded_limit_response(per_minute: u32, keyed: bool, wait: Duration) -> Response {
    let secs = retry_after_secs(wait);
    let whose = if keyed {
        "with this API key"
    } else {
        "from one address without an API key"
    };
    let unit = if secs == 1 { "second" } else { "seconds" };
    let message = format!(
        "Too many requests: the limit {whose} is {per_minute} requests per minute; retry in {secs} {unit}."
    );
    let mut response = (
        StatusCode::TOO_MANY_REQUESTS,
        Json(json!({
            "code": "EXCEEDED_LIMIT",
            "error": message,
            "details": { "limit": format!("{per_minute} requests per minute") },
        })),
    )
        .into_response();
    response
        .headers_mut()
        .insert(RETRY_AFTER, HeaderValue::from(secs));
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::Router;
    use axum::body::Body;
    use axum::http::header::CONTENT_TYPE;
    use axum::routing::get;
    use serde_json::Value;
    use tower::ServiceExt;

    const KEY_A: &str = "0123456789abcdef0123456789abcdef";
    const KEY_B: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";

    fn router(config: AccessConfig) -> Router {
        let access = Access::new(config).expect("valid config");
        Router::new()
            .route("/v3/get-quote", get(|| async { "quote" }))
            .route("/admin/faults", get(|| async { "admin" }))
            .layer(axum::middleware::from_fn_with_state(access, middleware))
    }

    fn small_limits() -> AccessConfig {
        AccessConfig {
            keys: vec![KEY_A.to_owned(), KEY_B.to_owned()],
            keyless_per_minute: 3,
            keyed_per_minute: 6,
        }
    }

    fn request(path: &str, authorization: Option<&str>, peer: Option<&str>) -> Request {
        let mut builder = Request::builder().uri(path);
        if let Some(value) = authorization {
            builder = builder.header(AUTHORIZATION, value);
        }
        let mut req = builder.body(Body::empty()).unwrap();
        if let Some(peer) = peer {
            let addr: SocketAddr = peer.parse().unwrap();
            req.extensions_mut().insert(ConnectInfo(addr));
        }
        req
    }

    async fn send(app: &Router, req: Request) -> (StatusCode, HeaderMap, Vec<u8>) {
        let response = app.clone().oneshot(req).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let body = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .unwrap();
        (status, headers, body.to_vec())
    }

    fn json_body(body: &[u8]) -> Value {
        serde_json::from_slice(body).expect("a JSON body")
    }

    #[test]
    fn defaults_are_documented_values() {
        let config = AccessConfig::default();
        assert!(config.keys.is_empty());
        assert_eq!(config.keyless_per_minute, 120);
        assert_eq!(config.keyed_per_minute, 1200);
        assert!(config.keyed_per_minute > config.keyless_per_minute);
        let unlimited = AccessConfig::unlimited();
        assert_eq!(
            (unlimited.keyless_per_minute, unlimited.keyed_per_minute),
            (0, 0)
        );
    }

    #[test]
    fn configured_keys_must_be_32_characters() {
        let error = Access::new(AccessConfig::default().with_keys([KEY_A, "short"])).unwrap_err();
        assert_eq!(
            error,
            InvalidKeyConfig {
                index: 1,
                length: 5
            }
        );
        assert!(!error.to_string().contains("short"));
        let spaced = format!("{} ", &KEY_A[..31]);
        assert!(Access::new(AccessConfig::default().with_keys([spaced])).is_err());
        // Debug output never shows a key.
        let access = Access::new(AccessConfig::default().with_keys([KEY_A])).unwrap();
        assert!(!format!("{access:?}").contains(KEY_A));
    }

    #[test]
    fn retry_after_rounds_up_to_at_least_one_second() {
        assert_eq!(retry_after_secs(Duration::ZERO), 1);
        assert_eq!(retry_after_secs(Duration::from_millis(1)), 1);
        assert_eq!(retry_after_secs(Duration::from_secs(20)), 20);
        assert_eq!(retry_after_secs(Duration::from_millis(19_001)), 20);
    }

    #[tokio::test]
    async fn keyless_requests_pass() {
        let app = router(AccessConfig::default());
        let (status, _, body) = send(&app, request("/v3/get-quote", None, None)).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, b"quote");
    }

    #[tokio::test]
    async fn configured_key_passes_and_gets_the_higher_limit() {
        let app = router(small_limits());
        let peer = Some("127.0.0.1:40000");
        for _ in 0..3 {
            let (status, _, _) = send(&app, request("/v3/get-quote", None, peer)).await;
            assert_eq!(status, StatusCode::OK);
        }
        let (status, headers, body) = send(&app, request("/v3/get-quote", None, peer)).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        let retry_after: u64 = headers[RETRY_AFTER].to_str().unwrap().parse().unwrap();
        assert!(
            (1..=20).contains(&retry_after),
            "3/min refills one every 20 s: {retry_after}"
        );
        assert_eq!(headers[CONTENT_TYPE], "application/json");
        let body = json_body(&body);
        let object = body.as_object().unwrap();
        assert_eq!(
            object.keys().collect::<Vec<_>>(),
            ["code", "error", "details"]
        );
        assert_eq!(body["code"], "EXCEEDED_LIMIT");
        assert_eq!(body["details"], json!({ "limit": "3 requests per minute" }));
        let message = body["error"].as_str().unwrap();
        assert!(message.contains("3 requests per minute"), "{message}");
        assert!(
            message.contains(&format!("retry in {retry_after} second")),
            "{message}"
        );

        // The same address with a key has its own, larger bucket.
        let bearer = format!("Bearer {KEY_A}");
        for n in 0..6 {
            let (status, _, body) = send(&app, request("/v3/get-quote", Some(&bearer), peer)).await;
            assert_eq!(status, StatusCode::OK, "keyed request {n}");
            assert_eq!(body, b"quote");
        }
        let (status, headers, body) =
            send(&app, request("/v3/get-quote", Some(&bearer), peer)).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        assert!(headers.contains_key(RETRY_AFTER));
        let body = json_body(&body);
        assert_eq!(body["details"], json!({ "limit": "6 requests per minute" }));
        assert!(body["error"].as_str().unwrap().contains("API key"));

        // Limits are per key: the other key still passes.
        let other = format!("Bearer {KEY_B}");
        let (status, _, _) = send(&app, request("/v3/get-quote", Some(&other), peer)).await;
        assert_eq!(status, StatusCode::OK);
    }

    #[tokio::test]
    async fn malformed_keys_are_refused_with_401() {
        let app = router(small_limits());
        let cases = [
            format!("Bearer {}", &KEY_A[..31]),
            format!("Bearer {KEY_A}x"),
            "Basic xyz".to_owned(),
            "Bearer".to_owned(),
            "Bearer ".to_owned(),
            KEY_A.to_owned(),
            format!("Token {KEY_A}"),
        ];
        for case in cases {
            let (status, headers, body) =
                send(&app, request("/v3/get-quote", Some(&case), None)).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{case:?}");
            assert!(
                headers[WWW_AUTHENTICATE]
                    .to_str()
                    .unwrap()
                    .starts_with("Bearer"),
                "{case:?}"
            );
            assert_eq!(
                json_body(&body),
                json!({ "code": "INVALID_REQUEST", "error": MALFORMED_KEY_MESSAGE }),
                "{case:?}"
            );
        }
        // The scheme is case-insensitive (RFC 9110).
        let (status, _, _) = send(
            &app,
            request("/v3/get-quote", Some(&format!("bearer {KEY_A}")), None),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }

    #[tokio::test]
    async fn unknown_key_is_refused_with_401() {
        let app = router(small_limits());
        let unknown = format!("Bearer {}", "z".repeat(32));
        let (status, headers, body) =
            send(&app, request("/v3/get-quote", Some(&unknown), None)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert!(headers.contains_key(WWW_AUTHENTICATE));
        assert_eq!(
            json_body(&body),
            json!({ "code": "INVALID_REQUEST", "error": UNKNOWN_KEY_MESSAGE })
        );
    }

    #[tokio::test]
    async fn each_address_has_its_own_keyless_bucket() {
        let app = router(small_limits());
        for peer in ["192.0.2.1:1000", "192.0.2.1:2000", "192.0.2.1:3000"] {
            let (status, _, _) = send(&app, request("/v3/get-quote", None, Some(peer))).await;
            assert_eq!(status, StatusCode::OK);
        }
        let (status, _, _) =
            send(&app, request("/v3/get-quote", None, Some("192.0.2.1:4000"))).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "same IP, other port");
        let (status, _, _) = send(
            &app,
            request("/v3/get-quote", None, Some("198.51.100.7:1000")),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "another IP");
        // Callers without a known address share one bucket of their own.
        let (status, _, _) = send(&app, request("/v3/get-quote", None, None)).await;
        assert_eq!(status, StatusCode::OK);
    }

    #[tokio::test]
    async fn every_loopback_address_is_one_keyless_caller() {
        let app = router(small_limits());
        for peer in ["127.0.0.1:1000", "127.0.0.2:1000", "127.8.9.10:1000"] {
            let (status, _, _) = send(&app, request("/v3/get-quote", None, Some(peer))).await;
            assert_eq!(status, StatusCode::OK);
        }
        for peer in ["127.0.0.99:1000", "[::1]:1000"] {
            let (status, _, _) = send(&app, request("/v3/get-quote", None, Some(peer))).await;
            assert_eq!(
                status,
                StatusCode::TOO_MANY_REQUESTS,
                "{peer}: another loopback address does not dodge the limit"
            );
        }
    }

    #[tokio::test]
    async fn admin_paths_are_exempt() {
        let app = router(AccessConfig {
            keys: Vec::new(),
            keyless_per_minute: 1,
            keyed_per_minute: 1,
        });
        for _ in 0..5 {
            let (status, _, body) = send(&app, request("/admin/faults", None, None)).await;
            assert_eq!(status, StatusCode::OK);
            assert_eq!(body, b"admin");
        }
        let (status, _, _) = send(&app, request("/v3/get-quote", None, None)).await;
        assert_eq!(status, StatusCode::OK);
        let (status, _, _) = send(&app, request("/v3/get-quote", None, None)).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    }

    #[tokio::test]
    async fn unlimited_still_checks_keys() {
        let app = router(AccessConfig::unlimited().with_keys([KEY_A]));
        for _ in 0..300 {
            let (status, _, _) = send(&app, request("/v3/get-quote", None, None)).await;
            assert_eq!(status, StatusCode::OK);
        }
        let (status, _, _) = send(
            &app,
            request("/v3/get-quote", Some(&format!("Bearer {KEY_A}")), None),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        let (status, _, _) = send(&app, request("/v3/get-quote", Some("Bearer short"), None)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }

    #[test]
    fn short_hash_is_eight_hex_digits() {
        let hash = short_hash(KEY_A);
        assert_eq!(hash.len(), 8);
        assert!(hash.chars().all(|c| c.is_ascii_hexdigit()));
    }
}
