//! Fault injection, for testing clients against a misbehaving gateway: slow answers, 5xx, rate limits, a CDN's HTML
//! page, a dropped connection, truncated JSON.
//!
//! Off unless enabled and bound to loopback: with no rules the [`middleware`] changes nothing, and rules can only be
//! added through the [`admin_router`] (mounted by the server only when enabled), which refuses every peer that is not
//! a loopback address ([`loopback_only`]).
//!
//! # Rules
//!
//! A rule is a JSON object; every field but `fault` may be left out:
//!
//! | field | values | default |
//! |---|---|---|
//! | `endpoint` | `"get-routes"`, `"get-quote"`, `"create-order"`, `"register-tx"`, `"get-order"`, `"get-orders"`, or `"*"` (any path under a version) | `"*"` |
//! | `version` | `"v1"`, `"v2"`, `"v3"`, `"v4"`, or `null` (any) | `null` |
//! | `fault` | see below | required |
//! | `times` | how many matching requests to hit, at least 1; `null`: until cleared | `null` |
//!
//! | `fault` | effect |
//! |---|---|
//! | `{"latency": {"ms": 1500}}` | waits, then runs the real handler (`ms` at most 600000) |
//! | `{"status": {"code": 503}}` | that status (500–599). 502 and 504 answer `text/plain` like a proxy in front of the service; every other code answers `{"code":"INTERNAL_ERROR","error":"injected fault"}` |
//! | `{"rateLimit": {"retryAfterSecs": 30, "limitPerMinute": 120}}` | 429 with `Retry-After` and the `EXCEEDED_LIMIT` body of [`crate::access`] (defaults 30 s, 120/min) |
//! | `{"html": {"status": 403}}` | that status (200–599, default 403 as the real CDN) with `content-type: text/html` and a small HTML page |
//! | `"drop"` | closes the connection without a complete response (in practice before the head is sent): the client sees a transport error such as "connection closed before message completed" |
//! | `{"delayAnswer": {"ms": 1500}}` | runs the real handler at once (the write takes effect), then holds its answer |
//! | `"dropAfter"` | runs the real handler (the order is created, the transaction registered), then closes the connection without its answer: an ambiguous write |
//! | `"malformedJson"` | 200, `content-type: application/json` and a truncated JSON body |
//!
//! A request `/{version}/{endpoint}[/...]` is matched against the rules in the order they were added; the first that
//! matches takes effect and uses up one of its `times`; a rule is removed when none are left. Other paths (`/admin`,
//! unknown versions) are never touched. The method is not considered.
//!
//! # Admin endpoints
//!
//! ```text
//! # every get-quote in any version answers 503, twice
//! curl -s --json '{"endpoint":"get-quote","fault":{"status":{"code":503}},"times":2}' localhost:8787/admin/faults
//! # V3 create-order drops the connection, until cleared
//! curl -s --json '{"endpoint":"create-order","version":"v3","fault":"drop"}' localhost:8787/admin/faults
//! # every endpoint is 2 s slower
//! curl -s --json '{"fault":{"latency":{"ms":2000}}}' localhost:8787/admin/faults
//! curl -s localhost:8787/admin/faults                 # list: [{"id":1,"endpoint":"get-quote",...,"times":2}, ...]
//! curl -s -X DELETE localhost:8787/admin/faults/1     # remove one: 204, or 404 when unknown
//! curl -s -X DELETE localhost:8787/admin/faults       # remove all: 204
//! ```
//!
//! `POST` answers 201 with the stored rule, its `id` added and the defaults filled in, or 400 with
//! `{"error":"<sentence>"}`; it reads the body as JSON whatever its `content-type` (curl's `-d` says form data).

use std::fmt;
use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Path, Request, State};
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::json;
use tracing::{info, warn};

use crate::access;

/// The longest injectable latency, in milliseconds (10 minutes).
pub const MAX_LATENCY_MS: u64 = 600_000;

/// The longest injectable `Retry-After`, in seconds (1 day).
pub const MAX_RETRY_AFTER_SECS: u64 = 86_400;

/// The body of a `malformedJson` fault: a quote cut off in the middle.
pub const MALFORMED_JSON_BODY: &str = r#"{"onramp": {"inputAmount":"#;

/// Which endpoint a rule applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum EndpointMatch {
    /// `/{version}/get-routes`: the route list.
    #[serde(rename = "get-routes")]
    GetRoutes,
    /// `/{version}/get-quote`.
    #[serde(rename = "get-quote")]
    GetQuote,
    /// `/{version}/create-order`.
    #[serde(rename = "create-order")]
    CreateOrder,
    /// `/{version}/register-tx`.
    #[serde(rename = "register-tx")]
    RegisterTx,
    /// `/{version}/get-order/{id}`: one order.
    #[serde(rename = "get-order")]
    GetOrder,
    /// `/{version}/get-orders/{user_address}`: the orders of an address.
    #[serde(rename = "get-orders")]
    GetOrders,
    /// Any path under a version.
    #[default]
    #[serde(rename = "*")]
    Any,
}

impl EndpointMatch {
    fn matches(self, segment: &str) -> bool {
        match self {
            Self::Any => true,
            Self::GetRoutes => segment == "get-routes",
            Self::GetQuote => segment == "get-quote",
            Self::CreateOrder => segment == "create-order",
            Self::RegisterTx => segment == "register-tx",
            Self::GetOrder => segment == "get-order",
            Self::GetOrders => segment == "get-orders",
        }
    }
}

/// An API version a rule is limited to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Version {
    /// Requests under `/v1/`.
    V1,
    /// Requests under `/v2/`.
    V2,
    /// Requests under `/v3/`.
    V3,
    /// Requests under `/v4/`.
    V4,
}

impl Version {
    fn parse(segment: &str) -> Option<Self> {
        match segment {
            "v1" => Some(Self::V1),
            "v2" => Some(Self::V2),
            "v3" => Some(Self::V3),
            "v4" => Some(Self::V4),
            _ => None,
        }
    }
}

fn default_retry_after_secs() -> u64 {
    30
}

fn default_limit_per_minute() -> u32 {
    access::DEFAULT_KEYLESS_PER_MINUTE
}

fn default_html_status() -> u16 {
    403
}

fn default_status_code() -> u16 {
    500
}

/// What a matching request gets instead of (or, for latency, before) the real answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Fault {
    /// Wait `ms` milliseconds, then run the real handler.
    Latency {
        /// How long to wait before the handler runs, at most [`MAX_LATENCY_MS`].
        ms: u64,
    },
    /// Run the real handler at once (the write takes effect), then hold its answer for `ms` milliseconds.
    DelayAnswer {
        /// How long to hold the answer, at most [`MAX_LATENCY_MS`].
        ms: u64,
    },
    /// Answer with status `code` (500–599).
    Status {
        /// The status to answer (default 500); 502 and 504 answer plain text, as a proxy in front of the service.
        #[serde(default = "default_status_code")]
        code: u16,
    },
    /// 429 with `Retry-After: retry_after_secs` and the `EXCEEDED_LIMIT` body.
    RateLimit {
        /// The `Retry-After` to send, in seconds: 1 to [`MAX_RETRY_AFTER_SECS`], default 30.
        #[serde(default = "default_retry_after_secs")]
        retry_after_secs: u64,
        /// The limit the body's message and `details` name, requests per minute (default: the keyless limit of
        /// [`crate::access`]). Only the wording; nothing is counted.
        #[serde(default = "default_limit_per_minute")]
        limit_per_minute: u32,
    },
    /// Status `status` (default 403) with an HTML page, as a CDN in front of the service answers.
    Html {
        /// The status of the HTML page, 200–599.
        #[serde(default = "default_html_status")]
        status: u16,
    },
    /// Close the connection before the response is complete.
    Drop,
    /// Run the real handler (an order is created, a transaction registered), then close the connection without
    /// its answer: the client cannot know whether its write took effect (an ambiguous write).
    DropAfter,
    /// 200 with a truncated JSON body.
    MalformedJson,
}

impl Fault {
    fn kind(&self) -> &'static str {
        match self {
            Self::Latency { .. } => "latency",
            Self::DelayAnswer { .. } => "delayAnswer",
            Self::Status { .. } => "status",
            Self::RateLimit { .. } => "rateLimit",
            Self::Html { .. } => "html",
            Self::Drop => "drop",
            Self::DropAfter => "dropAfter",
            Self::MalformedJson => "malformedJson",
        }
    }
}

/// One rule as written by a client (the body of `POST /admin/faults`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultRule {
    /// The endpoint whose requests it hits; every endpoint (`"*"`) when left out.
    #[serde(default)]
    pub endpoint: EndpointMatch,
    /// The API version it is limited to; `None`: every version.
    #[serde(default)]
    pub version: Option<Version>,
    /// What a matching request gets.
    pub fault: Fault,
    /// How many more matching requests this rule hits; `None`: until cleared.
    #[serde(default)]
    pub times: Option<u32>,
}

impl FaultRule {
    /// A rule for every version of `endpoint`, until cleared.
    pub fn new(endpoint: EndpointMatch, fault: Fault) -> Self {
        Self {
            endpoint,
            version: None,
            fault,
            times: None,
        }
    }

    /// Limited to `version`.
    pub fn in_version(mut self, version: Version) -> Self {
        self.version = Some(version);
        self
    }

    /// Hits only the next `times` matching requests.
    pub fn times(mut self, times: u32) -> Self {
        self.times = Some(times);
        self
    }

    /// Checks the values that the JSON shape cannot.
    pub fn validate(&self) -> Result<(), InvalidRule> {
        let fail = |message: String| Err(InvalidRule(message));
        if self.times == Some(0) {
            return fail(
                "`times` must be at least 1, or null for a rule that lasts until it is cleared"
                    .into(),
            );
        }
        match self.fault {
            Fault::Latency { ms } | Fault::DelayAnswer { ms } if ms > MAX_LATENCY_MS => fail(
                format!("the latency of {ms} ms is too long: at most {MAX_LATENCY_MS} ms"),
            ),
            Fault::Status { code } if !(500..=599).contains(&code) => fail(format!(
                "the status fault takes a code from 500 to 599, not {code}; use `rateLimit` for 429 and `html` \
                 for any other status"
            )),
            Fault::RateLimit {
                retry_after_secs, ..
            } if !(1..=MAX_RETRY_AFTER_SECS).contains(&retry_after_secs) => fail(format!(
                "`retryAfterSecs` must be from 1 to {MAX_RETRY_AFTER_SECS}, not {retry_after_secs}"
            )),
            Fault::RateLimit {
                limit_per_minute: 0,
                ..
            } => fail("`limitPerMinute` must be at least 1".into()),
            Fault::Html { status } if !(200..=599).contains(&status) => fail(format!(
                "the html fault takes a status from 200 to 599, not {status}"
            )),
            _ => Ok(()),
        }
    }

    fn matches(&self, version: Version, endpoint: &str) -> bool {
        self.version.is_none_or(|v| v == version) && self.endpoint.matches(endpoint)
    }
}

/// A rule that the JSON shape allows but whose values are out of range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidRule(pub String);

impl fmt::Display for InvalidRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InvalidRule {}

/// A rule as stored: with its id, and `times` counting down.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StoredRule {
    /// Given by [`Faults::add`], counting from 1 and never reused; `DELETE /admin/faults/{id}` removes the rule.
    pub id: u64,
    /// The rule as added (written beside `id` in JSON); its `times` counts down as requests match.
    #[serde(flatten)]
    pub rule: FaultRule,
}

#[derive(Debug, Default)]
struct Rules {
    next_id: u64,
    rules: Vec<StoredRule>,
}

/// The fault rules, shared by the middleware and the admin endpoints (cheap to clone).
#[derive(Debug, Clone, Default)]
pub struct Faults {
    state: Arc<Mutex<Rules>>,
}

impl Faults {
    /// No rules.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, Rules> {
        // A panic while the lock was held cannot leave the rule list half-changed: keep using it.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Adds `rule` after the existing ones; returns it as stored, with its id.
    pub fn add(&self, rule: FaultRule) -> Result<StoredRule, InvalidRule> {
        rule.validate()?;
        let mut state = self.lock();
        state.next_id += 1;
        let stored = StoredRule {
            id: state.next_id,
            rule,
        };
        state.rules.push(stored.clone());
        info!(id = stored.id, rule = ?stored.rule, "fault rule added");
        Ok(stored)
    }

    /// The rules in the order they apply.
    pub fn rules(&self) -> Vec<StoredRule> {
        self.lock().rules.clone()
    }

    /// Removes the rule `id`; false when there is none.
    pub fn remove(&self, id: u64) -> bool {
        let mut state = self.lock();
        let before = state.rules.len();
        state.rules.retain(|r| r.id != id);
        let removed = state.rules.len() != before;
        if removed {
            info!(id, "fault rule removed");
        }
        removed
    }

    /// Removes every rule.
    pub fn clear(&self) {
        let mut state = self.lock();
        if !state.rules.is_empty() {
            info!(count = state.rules.len(), "fault rules cleared");
        }
        state.rules.clear();
    }

    /// The fault for a request to `path`, using up one of the matching rule's `times`.
    fn take(&self, path: &str) -> Option<(u64, Fault)> {
        let mut segments = path.strip_prefix('/')?.split('/');
        let version = Version::parse(segments.next()?)?;
        let endpoint = segments.next()?;
        let mut state = self.lock();
        let index = state
            .rules
            .iter()
            .position(|r| r.rule.matches(version, endpoint))?;
        let stored = &mut state.rules[index];
        let taken = (stored.id, stored.rule.fault.clone());
        if let Some(times) = &mut stored.rule.times {
            *times = times.saturating_sub(1);
            if *times == 0 {
                state.rules.remove(index);
            }
        }
        Some(taken)
    }
}

/// The middleware, for `axum::middleware::from_fn_with_state(faults, faults::middleware)` on the API router: applies
/// the first matching rule (see the module documentation) and otherwise runs the handler unchanged.
pub async fn middleware(State(faults): State<Faults>, req: Request, next: Next) -> Response {
    let Some((id, fault)) = faults.take(req.uri().path()) else {
        return next.run(req).await;
    };
    info!(id, fault = fault.kind(), method = %req.method(), path = req.uri().path(), "injecting a fault");
    match fault {
        Fault::Latency { ms } => {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            next.run(req).await
        }
        Fault::DelayAnswer { ms } => {
            let acted = next.run(req).await;
            tokio::time::sleep(Duration::from_millis(ms)).await;
            acted
        }
        Fault::DropAfter => {
            let acted = next.run(req).await;
            info!(status = %acted.status(), "the handler acted; dropping its answer");
            fault_response(&Fault::Drop)
        }
        other => fault_response(&other),
    }
}

/// The answer of every fault but latency.
fn fault_response(fault: &Fault) -> Response {
    match *fault {
        Fault::Latency { .. } | Fault::DelayAnswer { .. } | Fault::DropAfter => {
            StatusCode::OK.into_response()
        }
        Fault::Status { code } => {
            let status = StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            if matches!(code, 502 | 504) {
                // What a reverse proxy says when the service behind it fails or times out.
                let reason = status.canonical_reason().unwrap_or("Error");
                (
                    status,
                    [(CONTENT_TYPE, "text/plain; charset=utf-8")],
                    format!("{code} {reason}\n"),
                )
                    .into_response()
            } else {
                (
                    status,
                    Json(json!({ "code": "INTERNAL_ERROR", "error": "injected fault" })),
                )
                    .into_response()
            }
        }
        Fault::RateLimit {
            retry_after_secs,
            limit_per_minute,
        } => {
            // `Retry-After` is exactly `retry_after_secs` (at least 1 by validation).
            access::exceeded_limit_response(
                limit_per_minute,
                false,
                Duration::from_secs(retry_after_secs),
            )
        }
        Fault::Html { status } => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::FORBIDDEN);
            let title = format!(
                "{} {}",
                status.as_u16(),
                status.canonical_reason().unwrap_or("Error")
            );
            let page = format!(
                "<!DOCTYPE html>\n<html><head><title>{title}</title></head>\n<body><h1>{title}</h1>\n\
                 <p>The request could not be satisfied. Request blocked.</p>\n<hr><p>cdn</p></body></html>\n"
            );
            (status, [(CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response()
        }
        Fault::Drop => {
            // The body fails at once: hyper aborts the connection without finishing the response (with hyper 1.x even
            // before the buffered head is flushed), and the client sees a transport error.
            let failing = futures_util::stream::iter([Err::<Bytes, io::Error>(io::Error::new(
                io::ErrorKind::ConnectionAborted,
                "injected fault: connection dropped",
            ))]);
            (
                StatusCode::OK,
                [(CONTENT_TYPE, "application/json")],
                Body::from_stream(failing),
            )
                .into_response()
        }
        Fault::MalformedJson => (
            StatusCode::OK,
            [(CONTENT_TYPE, "application/json")],
            MALFORMED_JSON_BODY,
        )
            .into_response(),
    }
}

fn admin_error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, Json(json!({ "error": message.into() }))).into_response()
}

/// Refuses (403 with `{"error": "<sentence>"}`) every request whose peer ([`ConnectInfo<SocketAddr>`]) is not a
/// loopback address, or is unknown because the server was not started with
/// `into_make_service_with_connect_info::<SocketAddr>()`. For `axum::middleware::from_fn(faults::loopback_only)` on
/// any admin route.
pub async fn loopback_only(req: Request, next: Next) -> Response {
    match req.extensions().get::<ConnectInfo<SocketAddr>>() {
        Some(ConnectInfo(peer)) if peer.ip().to_canonical().is_loopback() => next.run(req).await,
        Some(ConnectInfo(peer)) => {
            warn!(%peer, path = req.uri().path(), "refused an admin request from a non-loopback address");
            admin_error(
                StatusCode::FORBIDDEN,
                "The admin endpoints answer only requests from this machine (a loopback address such as 127.0.0.1).",
            )
        }
        None => {
            warn!(
                path = req.uri().path(),
                "refused an admin request from an unknown address"
            );
            admin_error(
                StatusCode::FORBIDDEN,
                "The admin endpoints answer only requests from this machine, and this request's address is unknown.",
            )
        }
    }
}

/// `GET`, `POST` and `DELETE /admin/faults`, and `DELETE /admin/faults/{id}`, behind [`loopback_only`].
pub fn admin_router(faults: Faults) -> Router {
    Router::new()
        .route(
            "/admin/faults",
            get(list_rules).post(add_rule).delete(clear_rules),
        )
        .route("/admin/faults/{id}", delete(remove_rule))
        .with_state(faults)
        .layer(axum::middleware::from_fn(loopback_only))
}

async fn list_rules(State(faults): State<Faults>) -> Json<Vec<StoredRule>> {
    Json(faults.rules())
}

const RULE_EXAMPLE: &str =
    r#"{"endpoint":"get-quote","version":"v3","fault":{"status":{"code":503}},"times":1}"#;

async fn add_rule(State(faults): State<Faults>, body: Bytes) -> Response {
    let rule: FaultRule = match serde_json::from_slice(&body) {
        Ok(rule) => rule,
        Err(error) => {
            return admin_error(
                StatusCode::BAD_REQUEST,
                format!("The fault rule is not valid: {error}. Example: {RULE_EXAMPLE}"),
            );
        }
    };
    match faults.add(rule) {
        Ok(stored) => (StatusCode::CREATED, Json(stored)).into_response(),
        Err(error) => admin_error(
            StatusCode::BAD_REQUEST,
            format!("The fault rule is not valid: {error}."),
        ),
    }
}

async fn clear_rules(State(faults): State<Faults>) -> StatusCode {
    faults.clear();
    StatusCode::NO_CONTENT
}

async fn remove_rule(State(faults): State<Faults>, Path(id): Path<String>) -> Response {
    match id.parse::<u64>() {
        Ok(number) if faults.remove(number) => StatusCode::NO_CONTENT.into_response(),
        _ => admin_error(
            StatusCode::NOT_FOUND,
            format!("There is no fault rule with id {id}."),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderMap;
    use axum::http::header::RETRY_AFTER;
    use axum::routing::{get, patch, post};
    use serde_json::Value;
    use std::time::Instant;
    use tower::ServiceExt;

    fn api(faults: &Faults) -> Router {
        Router::new()
            .route("/{version}/get-quote", get(|| async { "real quote" }))
            .route("/{version}/get-routes", get(|| async { "real routes" }))
            .route("/{version}/create-order", post(|| async { "real order" }))
            .route("/{version}/register-tx", patch(|| async { "real tx" }))
            .route(
                "/{version}/get-order/{id}",
                get(|| async { "real order info" }),
            )
            .route(
                "/{version}/get-orders/{user}",
                get(|| async { "real orders" }),
            )
            .route("/admin/other", get(|| async { "admin" }))
            .layer(axum::middleware::from_fn_with_state(
                faults.clone(),
                middleware,
            ))
    }

    async fn call(app: &Router, method: &str, path: &str) -> (StatusCode, HeaderMap, String) {
        let req = Request::builder()
            .method(method)
            .uri(path)
            .body(Body::empty())
            .unwrap();
        let response = app.clone().oneshot(req).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let body = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .unwrap();
        (status, headers, String::from_utf8(body.to_vec()).unwrap())
    }

    async fn get_(app: &Router, path: &str) -> (StatusCode, HeaderMap, String) {
        call(app, "GET", path).await
    }

    fn rule(json: Value) -> FaultRule {
        serde_json::from_value(json).expect("a valid rule")
    }

    #[test]
    fn rules_parse_from_pleasant_json_with_defaults() {
        assert_eq!(
            rule(json!({ "fault": "drop" })),
            FaultRule::new(EndpointMatch::Any, Fault::Drop)
        );
        assert_eq!(
            rule(json!({
                "endpoint": "get-quote", "version": "v3", "fault": { "status": { "code": 503 } }, "times": 2
            })),
            FaultRule::new(EndpointMatch::GetQuote, Fault::Status { code: 503 })
                .in_version(Version::V3)
                .times(2)
        );
        assert_eq!(
            rule(json!({ "endpoint": "*", "version": null, "fault": { "html": {} } })).fault,
            Fault::Html { status: 403 }
        );
        assert_eq!(
            rule(json!({ "fault": { "rateLimit": {} } })).fault,
            Fault::RateLimit {
                retry_after_secs: 30,
                limit_per_minute: 120
            }
        );
        assert_eq!(
            rule(json!({ "fault": { "rateLimit": { "retryAfterSecs": 7 } } })).fault,
            Fault::RateLimit {
                retry_after_secs: 7,
                limit_per_minute: 120
            }
        );
        assert_eq!(
            rule(json!({ "fault": "malformedJson" })).fault,
            Fault::MalformedJson
        );
        assert_eq!(
            rule(json!({ "fault": { "latency": { "ms": 5 } } })).fault,
            Fault::Latency { ms: 5 }
        );
        // Stored rules serialize with their id first and every field spelt out.
        let stored = StoredRule {
            id: 4,
            rule: FaultRule::new(
                EndpointMatch::GetOrder,
                Fault::RateLimit {
                    retry_after_secs: 9,
                    limit_per_minute: 60,
                },
            ),
        };
        assert_eq!(
            serde_json::to_value(&stored).unwrap(),
            json!({
                "id": 4, "endpoint": "get-order", "version": null,
                "fault": { "rateLimit": { "retryAfterSecs": 9, "limitPerMinute": 60 } }, "times": null
            })
        );
    }

    #[test]
    fn out_of_range_rules_are_refused() {
        let faults = Faults::new();
        for bad in [
            json!({ "fault": "drop", "times": 0 }),
            json!({ "fault": { "status": { "code": 404 } } }),
            json!({ "fault": { "status": { "code": 429 } } }),
            json!({ "fault": { "html": { "status": 100 } } }),
            json!({ "fault": { "latency": { "ms": 600_001 } } }),
            json!({ "fault": { "rateLimit": { "retryAfterSecs": 0 } } }),
            json!({ "fault": { "rateLimit": { "limitPerMinute": 0 } } }),
        ] {
            assert!(faults.add(rule(bad.clone())).is_err(), "{bad}");
        }
        assert!(faults.rules().is_empty());
    }

    #[tokio::test]
    async fn no_rules_change_nothing() {
        let app = api(&Faults::new());
        let (status, _, body) = get_(&app, "/v3/get-quote").await;
        assert_eq!((status, body.as_str()), (StatusCode::OK, "real quote"));
    }

    #[tokio::test]
    async fn latency_waits_then_runs_the_handler() {
        let faults = Faults::new();
        faults
            .add(FaultRule::new(EndpointMatch::GetQuote, Fault::Latency { ms: 150 }).times(1))
            .unwrap();
        let app = api(&faults);
        let start = Instant::now();
        let (status, _, body) = get_(&app, "/v3/get-quote").await;
        assert!(start.elapsed() >= Duration::from_millis(150));
        assert_eq!((status, body.as_str()), (StatusCode::OK, "real quote"));
    }

    #[tokio::test]
    async fn status_answers_json_or_proxy_text() {
        let faults = Faults::new();
        let app = api(&faults);
        for code in [500, 503, 599] {
            faults
                .add(FaultRule::new(EndpointMatch::GetQuote, Fault::Status { code }).times(1))
                .unwrap();
            let (status, headers, body) = get_(&app, "/v3/get-quote").await;
            assert_eq!(status.as_u16(), code);
            assert_eq!(headers[CONTENT_TYPE], "application/json");
            assert_eq!(
                serde_json::from_str::<Value>(&body).unwrap(),
                json!({ "code": "INTERNAL_ERROR", "error": "injected fault" })
            );
        }
        for (code, text) in [(502, "502 Bad Gateway\n"), (504, "504 Gateway Timeout\n")] {
            faults
                .add(FaultRule::new(EndpointMatch::GetQuote, Fault::Status { code }).times(1))
                .unwrap();
            let (status, headers, body) = get_(&app, "/v3/get-quote").await;
            assert_eq!(status.as_u16(), code);
            assert!(
                headers[CONTENT_TYPE]
                    .to_str()
                    .unwrap()
                    .starts_with("text/plain")
            );
            assert_eq!(body, text);
        }
    }

    #[tokio::test]
    async fn rate_limit_answers_429_with_retry_after() {
        let faults = Faults::new();
        faults
            .add(rule(
                json!({ "fault": { "rateLimit": { "retryAfterSecs": 7, "limitPerMinute": 60 } } }),
            ))
            .unwrap();
        let (status, headers, body) = get_(&api(&faults), "/v2/get-routes").await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(headers[RETRY_AFTER], "7");
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(body["code"], "EXCEEDED_LIMIT");
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("retry in 7 seconds")
        );
        assert_eq!(
            body["details"],
            json!({ "limit": "60 requests per minute" })
        );
    }

    #[tokio::test]
    async fn html_answers_a_cdn_page() {
        let faults = Faults::new();
        let app = api(&faults);
        faults
            .add(rule(json!({ "fault": { "html": {} }, "times": 1 })))
            .unwrap();
        let (status, headers, body) = get_(&app, "/v3/get-quote").await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert!(
            headers[CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with("text/html")
        );
        assert!(body.starts_with("<!DOCTYPE html>") && body.contains("403 Forbidden"));
        faults
            .add(rule(
                json!({ "fault": { "html": { "status": 504 } }, "times": 1 }),
            ))
            .unwrap();
        let (status, headers, body) = get_(&app, "/v3/get-quote").await;
        assert_eq!(status, StatusCode::GATEWAY_TIMEOUT);
        assert!(
            headers[CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with("text/html")
        );
        assert!(body.contains("504 Gateway Timeout"));
    }

    #[tokio::test]
    async fn malformed_json_is_truncated() {
        let faults = Faults::new();
        faults
            .add(rule(json!({ "fault": "malformedJson" })))
            .unwrap();
        let (status, headers, body) = get_(&api(&faults), "/v3/get-quote").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(headers[CONTENT_TYPE], "application/json");
        assert_eq!(body, MALFORMED_JSON_BODY);
        assert!(serde_json::from_str::<Value>(&body).is_err());
    }

    #[tokio::test]
    async fn drop_closes_the_connection_without_a_complete_response() {
        let faults = Faults::new();
        faults
            .add(rule(
                json!({ "endpoint": "get-quote", "fault": "drop", "times": 3 }),
            ))
            .unwrap();
        let app = api(&faults);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            axum::serve(
                listener,
                app.into_make_service_with_connect_info::<SocketAddr>(),
            )
            .await
        });
        let client = reqwest::Client::new();
        let url = format!("http://{addr}/v3/get-quote");
        // hyper aborts the connection before the head is flushed, so even `send` fails: no status, no headers.
        for _ in 0..3 {
            let error = client
                .get(&url)
                .send()
                .await
                .expect_err("a transport error, not a response");
            assert!(error.is_request() && !error.is_status(), "{error:?}");
        }
        // The rule is used up: the next request gets the real answer.
        let response = client.get(&url).send().await.unwrap();
        assert_eq!(response.status(), reqwest::StatusCode::OK);
        assert_eq!(response.text().await.unwrap(), "real quote");
        server.abort();
    }

    #[tokio::test]
    async fn times_count_down_and_the_rule_goes() {
        let faults = Faults::new();
        let stored = faults
            .add(FaultRule::new(EndpointMatch::GetQuote, Fault::Status { code: 500 }).times(2))
            .unwrap();
        let app = api(&faults);
        assert_eq!(
            get_(&app, "/v3/get-quote").await.0,
            StatusCode::INTERNAL_SERVER_ERROR
        );
        assert_eq!(faults.rules()[0].id, stored.id);
        assert_eq!(faults.rules()[0].rule.times, Some(1));
        assert_eq!(
            get_(&app, "/v1/get-quote").await.0,
            StatusCode::INTERNAL_SERVER_ERROR
        );
        assert!(faults.rules().is_empty());
        assert_eq!(get_(&app, "/v3/get-quote").await.0, StatusCode::OK);

        // Without `times` the rule stays until it is removed.
        let forever = faults
            .add(FaultRule::new(
                EndpointMatch::GetQuote,
                Fault::MalformedJson,
            ))
            .unwrap();
        for _ in 0..5 {
            assert_eq!(get_(&app, "/v3/get-quote").await.2, MALFORMED_JSON_BODY);
        }
        assert!(faults.remove(forever.id));
        assert!(!faults.remove(forever.id));
        assert_eq!(get_(&app, "/v3/get-quote").await.2, "real quote");
    }

    #[tokio::test]
    async fn version_and_endpoint_must_match() {
        let faults = Faults::new();
        faults
            .add(
                FaultRule::new(EndpointMatch::GetQuote, Fault::Status { code: 503 })
                    .in_version(Version::V2),
            )
            .unwrap();
        faults
            .add(FaultRule::new(
                EndpointMatch::GetOrder,
                Fault::Status { code: 500 },
            ))
            .unwrap();
        let app = api(&faults);
        assert_eq!(
            get_(&app, "/v2/get-quote").await.0,
            StatusCode::SERVICE_UNAVAILABLE
        );
        assert_eq!(get_(&app, "/v3/get-quote").await.0, StatusCode::OK);
        assert_eq!(get_(&app, "/v2/get-routes").await.0, StatusCode::OK);
        assert_eq!(
            get_(&app, "/v1/get-order/abc").await.0,
            StatusCode::INTERNAL_SERVER_ERROR
        );
        assert_eq!(
            get_(&app, "/v3/get-orders/0xabc").await.0,
            StatusCode::OK,
            "get-orders is not get-order"
        );
        assert_eq!(
            call(&app, "POST", "/v2/create-order").await.0,
            StatusCode::OK
        );

        // "*" hits every endpoint under a version, never other paths; the first matching rule wins.
        faults.clear();
        faults
            .add(FaultRule::new(EndpointMatch::RegisterTx, Fault::Status { code: 502 }).times(1))
            .unwrap();
        faults
            .add(
                FaultRule::new(EndpointMatch::Any, Fault::Status { code: 500 })
                    .in_version(Version::V3),
            )
            .unwrap();
        assert_eq!(
            call(&app, "PATCH", "/v3/register-tx").await.0,
            StatusCode::BAD_GATEWAY
        );
        assert_eq!(
            call(&app, "PATCH", "/v3/register-tx").await.0,
            StatusCode::INTERNAL_SERVER_ERROR
        );
        assert_eq!(
            call(&app, "POST", "/v3/create-order").await.0,
            StatusCode::INTERNAL_SERVER_ERROR
        );
        assert_eq!(
            get_(&app, "/v3/nothing-here").await.0,
            StatusCode::INTERNAL_SERVER_ERROR
        );
        assert_eq!(get_(&app, "/v2/get-quote").await.0, StatusCode::OK);
        assert_eq!(get_(&app, "/admin/other").await.0, StatusCode::OK);
    }

    fn admin_request(method: &str, path: &str, body: &str, peer: Option<&str>) -> Request {
        let mut req = Request::builder()
            .method(method)
            .uri(path)
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(body.to_owned()))
            .unwrap();
        if let Some(peer) = peer {
            let addr: SocketAddr = peer.parse().unwrap();
            req.extensions_mut().insert(ConnectInfo(addr));
        }
        req
    }

    async fn admin(
        app: &Router,
        method: &str,
        path: &str,
        body: &str,
        peer: Option<&str>,
    ) -> (StatusCode, String) {
        let response = app
            .clone()
            .oneshot(admin_request(method, path, body, peer))
            .await
            .unwrap();
        let status = response.status();
        let body = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .unwrap();
        (status, String::from_utf8(body.to_vec()).unwrap())
    }

    #[tokio::test]
    async fn admin_crud() {
        let faults = Faults::new();
        let app = admin_router(faults.clone());
        let local = Some("127.0.0.1:5000");

        let (status, body) = admin(&app, "GET", "/admin/faults", "", local).await;
        assert_eq!((status, body.as_str()), (StatusCode::OK, "[]"));

        let (status, body) = admin(
            &app,
            "POST",
            "/admin/faults",
            r#"{"endpoint":"get-quote","fault":{"status":{"code":503}},"times":2}"#,
            local,
        )
        .await;
        assert_eq!(status, StatusCode::CREATED);
        let first: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            first,
            json!({
                "id": 1, "endpoint": "get-quote", "version": null,
                "fault": { "status": { "code": 503 } }, "times": 2
            })
        );
        let (status, body) = admin(
            &app,
            "POST",
            "/admin/faults",
            r#"{"version":"v3","fault":"drop"}"#,
            Some("[::1]:5000"),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED);
        let second: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(second["id"], 2);
        assert_eq!(second["endpoint"], "*");

        let (status, body) = admin(&app, "GET", "/admin/faults", "", local).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            serde_json::from_str::<Value>(&body).unwrap(),
            json!([first, second])
        );

        let (status, _) = admin(&app, "DELETE", "/admin/faults/1", "", local).await;
        assert_eq!(status, StatusCode::NO_CONTENT);
        for unknown in ["/admin/faults/1", "/admin/faults/99", "/admin/faults/abc"] {
            let (status, body) = admin(&app, "DELETE", unknown, "", local).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{unknown}");
            assert!(serde_json::from_str::<Value>(&body).unwrap()["error"].is_string());
        }
        assert_eq!(faults.rules().len(), 1);
        let (status, _) = admin(&app, "DELETE", "/admin/faults", "", local).await;
        assert_eq!(status, StatusCode::NO_CONTENT);
        assert!(faults.rules().is_empty());
    }

    #[tokio::test]
    async fn admin_refuses_bad_rules_with_a_sentence() {
        let faults = Faults::new();
        let app = admin_router(faults.clone());
        for bad in [
            "",
            "not json",
            r#"{"endpoint":"get-qoute","fault":"drop"}"#,
            r#"{"version":"v5","fault":"drop"}"#,
            r#"{"fault":"explode"}"#,
            r#"{"fault":{"status":{"code":404}}}"#,
            r#"{"fault":{"latency":{}}}"#,
            r#"{"fault":"drop","times":0}"#,
            r#"{"fault":"drop","time":3}"#,
            r#"{"endpoint":"get-quote"}"#,
        ] {
            let (status, body) =
                admin(&app, "POST", "/admin/faults", bad, Some("127.0.0.1:1")).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
            let body: Value = serde_json::from_str(&body).unwrap();
            let message = body["error"].as_str().unwrap();
            assert!(
                message.starts_with("The fault rule is not valid: "),
                "{message}"
            );
        }
        assert!(faults.rules().is_empty());
    }

    #[tokio::test]
    async fn admin_refuses_non_loopback_peers() {
        let faults = Faults::new();
        let app = admin_router(faults.clone());
        for peer in [Some("192.0.2.1:5000"), Some("[2001:db8::1]:5000"), None] {
            for (method, path, body) in [
                ("GET", "/admin/faults", ""),
                ("POST", "/admin/faults", r#"{"fault":"drop"}"#),
                ("DELETE", "/admin/faults", ""),
            ] {
                let (status, body) = admin(&app, method, path, body, peer).await;
                assert_eq!(
                    status,
                    StatusCode::FORBIDDEN,
                    "{method} {path} from {peer:?}"
                );
                let body: Value = serde_json::from_str(&body).unwrap();
                assert!(body["error"].as_str().unwrap().contains("this machine"));
            }
        }
        assert!(faults.rules().is_empty());
        // An IPv4 loopback peer seen through an IPv6 socket is still loopback.
        let (status, _) = admin(
            &app,
            "GET",
            "/admin/faults",
            "",
            Some("[::ffff:127.0.0.1]:5000"),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
}
