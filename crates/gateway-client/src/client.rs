//! The HTTP client: one base URL, one API version, an optional API key.

use std::collections::HashSet;
use std::fmt;
use std::time::Duration;

use reqwest::header::{AUTHORIZATION, HeaderValue, RETRY_AFTER};
use reqwest::{Method, StatusCode};
use serde::de::DeserializeOwned;
use serde_json::Value;
use tracing::{Instrument, debug, info_span, warn};
use url::Url;

use crate::address::{BitcoinNetwork, validate_bitcoin};
use crate::capped::CappedError;
use crate::display::clipped;
use crate::error::{ClientError, GatewayErrorBody};
use crate::params::{ParamError, QuoteRequest};
use crate::wire::{
    CreateOrderResponse, MaxSpendable, OrderInfo, OrdersPage, Quote, QuoteView, RegisterTx,
    RegisterTxResponse, RouteInfo,
};

pub use crate::version::ApiVersion;

/// The length every gateway API key has.
pub const API_KEY_LEN: usize = 32;

/// A gateway API key: exactly 32 printable ASCII characters. Never shown by `Debug` or `Display`.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

/// Why a string is not an API key. Never carries the key itself.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidApiKey {
    /// The key does not have exactly [`API_KEY_LEN`] characters; holds how many it has.
    #[error("an API key has exactly {API_KEY_LEN} characters; this one has {0}")]
    Length(usize),
    /// The key holds a space, a control character or a non-ASCII character.
    #[error("an API key holds only visible ASCII characters (no spaces)")]
    Characters,
}

impl ApiKey {
    /// Checks and wraps a key.
    pub fn new(key: &str) -> Result<Self, InvalidApiKey> {
        let count = key.chars().count();
        if count != API_KEY_LEN {
            return Err(InvalidApiKey::Length(count));
        }
        if !key.chars().all(|c| c.is_ascii_graphic()) {
            return Err(InvalidApiKey::Characters);
        }
        Ok(Self(key.to_owned()))
    }

    /// The key itself, for the Authorization header or the keychain.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// A masked form safe to show: the first and last two characters.
    pub fn masked(&self) -> String {
        format!("{}…{}", &self.0[..2], &self.0[API_KEY_LEN - 2..])
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted API key>")
    }
}

/// What a [`Client`] is made from.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// The gateway's address (for example [`crate::deployments::PRODUCTION`]); every endpoint is this URL with the
    /// version and the endpoint's segments appended to its path.
    pub base_url: Url,
    /// The API version every request speaks: the first path segment, and which parameters and answer shapes apply.
    pub version: ApiVersion,
    /// The key sent as `Authorization: Bearer …` on every request, if any. With a key, a plain `http://` base URL is
    /// refused unless it is loopback.
    pub api_key: Option<ApiKey>,
    /// Time allowed for one request, connection included.
    pub timeout: Duration,
    /// How many times a read is tried in all when it fails transiently.
    pub read_attempts: u32,
    /// The first pause between read attempts; it doubles each time.
    pub initial_backoff: Duration,
}

impl ClientConfig {
    /// A configuration with the defaults: V3, no key, 30 s timeout, 3 read attempts from 500 ms backoff.
    pub fn new(base_url: Url) -> Self {
        Self {
            base_url,
            version: ApiVersion::V3,
            api_key: None,
            timeout: Duration::from_secs(30),
            read_attempts: 3,
            initial_backoff: Duration::from_millis(500),
        }
    }
}

/// An async client of one gateway.
#[derive(Debug, Clone)]
pub struct Client {
    http: reqwest::Client,
    config: ClientConfig,
}

/// The longest pause a Retry-After header may impose on a read before the client gives up instead.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);

/// The largest answer the client reads from a gateway, in bytes. A page of 100 orders is about 60 KiB; a gateway that
/// sends more is broken or hostile, and reading it whole would cost memory without bound.
pub const MAX_ANSWER_BYTES: usize = 4 * 1024 * 1024;

/// The most redirects followed for one request (each to the same origin).
const MAX_REDIRECTS: usize = 5;

/// The most get-orders pages one walk reads ([`OrdersPager`]): a gateway that hands out a fresh cursor on every page
/// must not keep the client reading until memory runs out. At 100 orders a page that is 20,000 orders.
pub const MAX_PAGES: usize = 200;

/// Why a redirect was not followed: it leads to another origin (or from https to http), where the API key must not go.
#[derive(Debug)]
struct RedirectRefused {
    from: String,
    to: String,
}

impl fmt::Display for RedirectRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the gateway at {} redirected to {}, another origin; the redirect was not followed, so nothing (and no API \
             key) was sent there. Check the gateway address in Settings",
            self.from, self.to
        )
    }
}

impl std::error::Error for RedirectRefused {}

/// Scheme, host and port: what a redirect must keep.
fn origin(url: &Url) -> (String, Option<String>, Option<u16>) {
    (
        url.scheme().to_owned(),
        url.host_str().map(str::to_ascii_lowercase),
        url.port_or_known_default(),
    )
}

/// Follows redirects only within the origin the request went to (never from https to http, never to another host or
/// port), and at most [`MAX_REDIRECTS`] of them.
fn redirect_policy() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let Some(first) = attempt.previous().first() else {
            return attempt.follow();
        };
        if origin(first) != origin(attempt.url()) {
            let refused = RedirectRefused {
                from: first.origin().ascii_serialization(),
                to: attempt.url().origin().ascii_serialization(),
            };
            attempt.error(refused)
        } else if attempt.previous().len() > MAX_REDIRECTS {
            attempt.error(format!("more than {MAX_REDIRECTS} redirects"))
        } else {
            attempt.follow()
        }
    })
}

impl Client {
    /// Makes a client; fails only if the TLS stack cannot be set up.
    ///
    /// A client with an API key refuses a plain `http://` base URL unless it is on loopback, so the key is never sent
    /// unencrypted over a network.
    pub fn new(config: ClientConfig) -> Result<Self, ClientError> {
        if config.api_key.is_some()
            && config.base_url.scheme() != "https"
            && !is_loopback(&config.base_url)
        {
            let host = config.base_url.host_str().unwrap_or("?").to_owned();
            return Err(ClientError::Invalid(ParamError::InsecureKey(host)));
        }
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(config.timeout)
            .user_agent(concat!("gateway-desk/", env!("CARGO_PKG_VERSION")))
            .redirect(redirect_policy())
            .build()
            .map_err(|e| ClientError::Transport(e.to_string()))?;
        Ok(Self { http, config })
    }

    /// The configuration this client was made from.
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// `GET /{version}/get-routes`: every supported route.
    pub async fn get_routes(&self) -> Result<Answer<Vec<RouteInfo>>, ClientError> {
        let raw = self.read(&["get-routes"], &[]).await?;
        Answer::decode(raw)
    }

    /// `GET /{version}/get-quote`: a quote, kept exactly as received. The request is checked first; an invalid one is
    /// [`ClientError::Invalid`] and nothing is sent.
    pub async fn get_quote(&self, request: &QuoteRequest) -> Result<Answer<Quote>, ClientError> {
        request.validate(self.config.version)?;
        let query = request.query_pairs(self.config.version);
        let raw = self.read(&["get-quote"], &query).await?;
        let value = Quote::from_json(raw.clone()).map_err(|e| unexpected(&raw, e))?;
        Ok(Answer { value, raw })
    }

    /// `POST /{version}/create-order` with the quote exactly as get-quote returned it.
    ///
    /// Never retried: a second attempt could create a second order. When the answer is lost, unreadable or a 5xx,
    /// it is unknown whether the order exists ([`ClientError::is_ambiguous_write`]). An answer for another route than
    /// the quote's, or whose transaction does not go to the quote's `txTo`, is refused ([`ClientError::Mismatch`]).
    pub async fn create_order(
        &self,
        quote: &Quote,
    ) -> Result<Answer<CreateOrderResponse>, ClientError> {
        let raw = self
            .write(Method::POST, &["create-order"], quote.raw())
            .await?;
        let answer: Answer<CreateOrderResponse> = Answer::decode_write(raw)?;
        check_created_order(quote.view(), &answer.value)?;
        Ok(answer)
    }

    /// `PATCH /{version}/register-tx`: hands the gateway the signed transaction (or its hash). Never retried.
    pub async fn register_tx(
        &self,
        body: &RegisterTx,
    ) -> Result<Answer<RegisterTxResponse>, ClientError> {
        body.validate(self.config.version)?;
        let raw = self
            .write(
                Method::PATCH,
                &["register-tx"],
                &body.to_json(self.config.version),
            )
            .await?;
        Answer::decode_write(raw)
    }

    /// `GET /{version}/get-order/{id}`: one order by order id, source Bitcoin txid or source transaction hash.
    /// Unknown ids are [`ClientError::NotFound`].
    pub async fn get_order(&self, id: &str) -> Result<Answer<OrderInfo>, ClientError> {
        let id = id.trim();
        if id.is_empty() {
            return Err(ClientError::Invalid(ParamError::Missing("the order id")));
        }
        let raw = self.read(&["get-order", id], &[]).await?;
        Answer::decode(raw)
    }

    /// `GET /{version}/get-max-spendable/{address}`: what a deposit from the Bitcoin `address` (of `network`) can pay
    /// now, after the network fee. The address is checked first; an invalid one is [`ClientError::Invalid`] and
    /// nothing is sent.
    pub async fn get_max_spendable(
        &self,
        address: &str,
        network: BitcoinNetwork,
    ) -> Result<Answer<MaxSpendable>, ClientError> {
        let valid = validate_bitcoin(address, network)
            .map_err(|e| ClientError::Invalid(ParamError::Address(format!("address: {e}"))))?;
        let raw = self
            .read(&["get-max-spendable", &valid.canonical], &[])
            .await?;
        let answer: Answer<MaxSpendable> = Answer::decode(raw)?;
        if answer.value.sats().is_none()
            || !answer.value.amount.chain.eq_ignore_ascii_case("bitcoin")
        {
            return Err(ClientError::UnexpectedBody {
                status: 200,
                snippet: format!(
                    "get-max-spendable answered {} on {}, not a whole number of sats on bitcoin",
                    answer.value.amount.amount, answer.value.amount.chain
                ),
            });
        }
        Ok(answer)
    }

    /// `GET /{version}/get-orders/{address}`: one page of an address's orders. V1 has no paging: it answers every
    /// order at once and refuses a cursor or limit.
    pub async fn get_orders(
        &self,
        address: &str,
        cursor: Option<&str>,
        limit: Option<u32>,
    ) -> Result<Answer<OrdersPage>, ClientError> {
        let address = address.trim();
        if address.is_empty() {
            return Err(ClientError::Invalid(ParamError::Missing("the address")));
        }
        let query = self.orders_query(cursor, limit)?;
        let raw = self.read(&["get-orders", address], &query).await?;
        Answer::decode(raw)
    }

    /// The query of a get-orders page; V1 takes neither a cursor nor a limit.
    fn orders_query(
        &self,
        cursor: Option<&str>,
        limit: Option<u32>,
    ) -> Result<Vec<(&'static str, String)>, ClientError> {
        let mut query = Vec::new();
        if self.config.version == ApiVersion::V1 && (cursor.is_some() || limit.is_some()) {
            let name = if cursor.is_some() { "cursor" } else { "limit" };
            let why = "V1 answers every order at once";
            return Err(ClientError::Invalid(ParamError::NotInVersion {
                name,
                version: ApiVersion::V1,
                why,
            }));
        }
        if let Some(cursor) = cursor {
            query.push(("cursor", cursor.to_owned()));
        }
        match limit {
            Some(0) => {
                return Err(ClientError::Invalid(ParamError::Missing(
                    "a limit of at least 1",
                )));
            }
            Some(limit) => query.push(("limit", limit.to_string())),
            None => {}
        }
        Ok(query)
    }

    /// [`Self::get_order`], also giving the body exactly as received (for showing the raw answer byte for byte:
    /// re-serializing the parsed JSON may change spacing, number spelling or escapes).
    pub async fn get_order_text(&self, id: &str) -> Result<TextAnswer<OrderInfo>, ClientError> {
        let id = id.trim();
        if id.is_empty() {
            return Err(ClientError::Invalid(ParamError::Missing("the order id")));
        }
        let (raw, text) = self.read_text(&["get-order", id], &[]).await?;
        TextAnswer::decode(raw, text)
    }

    /// [`Self::get_orders`], also giving the body exactly as received.
    pub async fn get_orders_text(
        &self,
        address: &str,
        cursor: Option<&str>,
        limit: Option<u32>,
    ) -> Result<TextAnswer<OrdersPage>, ClientError> {
        let address = address.trim();
        if address.is_empty() {
            return Err(ClientError::Invalid(ParamError::Missing("the address")));
        }
        let query = self.orders_query(cursor, limit)?;
        let (raw, text) = self.read_text(&["get-orders", address], &query).await?;
        TextAnswer::decode(raw, text)
    }

    /// Walks every page of an address's orders, in order, to the end.
    pub fn orders_pager(&self, address: &str, limit: Option<u32>) -> OrdersPager<'_> {
        OrdersPager {
            client: self,
            address: address.to_owned(),
            limit,
            cursor: None,
            done: false,
            seen: HashSet::new(),
            pages: 0,
        }
    }

    /// The URL of an endpoint; each segment is escaped on its own, so an id holding `/` stays one segment.
    fn endpoint(&self, segments: &[&str]) -> Url {
        let mut url = self.config.base_url.clone();
        url.path_segments_mut()
            .expect("an http(s) base URL has a path")
            .pop_if_empty()
            .push(self.config.version.as_str())
            .extend(segments);
        url
    }

    /// A GET that is safe to repeat: transient failures are retried with backoff, honouring Retry-After.
    async fn read(&self, path: &[&str], query: &[(&str, String)]) -> Result<Value, ClientError> {
        self.read_text(path, query).await.map(|(value, _)| value)
    }

    /// [`Self::read`], also giving the body's text exactly as received.
    async fn read_text(
        &self,
        path: &[&str],
        query: &[(&str, String)],
    ) -> Result<(Value, String), ClientError> {
        let url = self.endpoint(path);
        let span = info_span!("gateway.read", version = %self.config.version, endpoint = path[0]);
        async {
            let mut backoff = self.config.initial_backoff;
            let mut attempt = 1;
            loop {
                match self.send_text(self.http.get(url.clone()).query(query)).await {
                    Err(err) if err.is_transient() && attempt < self.config.read_attempts => {
                        let wait = match &err {
                            ClientError::RateLimited { retry_after: Some(after) } => {
                                if *after > MAX_RETRY_AFTER {
                                    return Err(err);
                                }
                                *after
                            }
                            _ => backoff,
                        };
                        warn!(attempt, wait_ms = wait.as_millis() as u64, error = %err, "read failed; retrying");
                        tokio::time::sleep(wait).await;
                        backoff *= 2;
                        attempt += 1;
                    }
                    other => return other,
                }
            }
        }
        .instrument(span)
        .await
    }

    /// A request that changes state on the gateway: sent once, never retried. A failure after the request may have
    /// reached the gateway (no answer, a 5xx, an unreadable success) is ambiguous: the state may have changed.
    async fn write(
        &self,
        method: Method,
        path: &[&str],
        body: &Value,
    ) -> Result<Value, ClientError> {
        let url = self.endpoint(path);
        let span = info_span!("gateway.write", version = %self.config.version, endpoint = path[0]);
        let result = self
            .send(self.http.request(method, url).json(body))
            .instrument(span)
            .await;
        result.map_err(|err| match err {
            ClientError::Timeout(_) | ClientError::Transport(_) | ClientError::Server { .. } => {
                ClientError::AmbiguousWrite(Box::new(err))
            }
            ClientError::UnexpectedBody { status, .. } if (200..300).contains(&status) => {
                ClientError::AmbiguousWrite(Box::new(err))
            }
            other => other,
        })
    }

    async fn send(&self, request: reqwest::RequestBuilder) -> Result<Value, ClientError> {
        self.send_text(request).await.map(|(value, _)| value)
    }

    /// Sends a request: the JSON of a success with the body's text as received, or the right kind of error.
    async fn send_text(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<(Value, String), ClientError> {
        let request = match &self.config.api_key {
            Some(key) => {
                let mut value = HeaderValue::from_str(&format!("Bearer {}", key.expose()))
                    .map_err(|_| {
                        ClientError::Transport("the API key cannot be sent as a header".into())
                    })?;
                value.set_sensitive(true);
                request.header(AUTHORIZATION, value)
            }
            None => request,
        };
        let response = request.send().await.map_err(|e| self.transport_error(e))?;
        let status = response.status();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let too_large = || ClientError::UnexpectedBody {
            status: status.as_u16(),
            snippet: format!(
                "the answer is larger than {} MiB, more than any answer of the interface; it was not read",
                MAX_ANSWER_BYTES / (1024 * 1024)
            ),
        };
        let bytes = match crate::capped::read_capped(response, MAX_ANSWER_BYTES).await {
            Ok(bytes) => bytes,
            Err(CappedError::TooLarge) => return Err(too_large()),
            Err(CappedError::Transport(e)) => return Err(self.transport_error(e)),
        };
        debug!(
            status = status.as_u16(),
            len = bytes.len(),
            "gateway answered"
        );
        let value = classify(status, retry_after, &bytes)?;
        // A JSON body that parsed is UTF-8, so this keeps every byte.
        Ok((value, String::from_utf8_lossy(&bytes).into_owned()))
    }

    fn transport_error(&self, err: reqwest::Error) -> ClientError {
        if err.is_timeout() {
            ClientError::Timeout(self.config.timeout)
        } else if err.is_connect() {
            ClientError::Connect(connect_words(&err))
        } else {
            ClientError::Transport(innermost(&err))
        }
    }
}

pub use crate::error::TLS_FAILED;

/// Why a connection could not be made, in words: refused, a name not found, TLS, or the system's own sentence.
fn connect_words(err: &reqwest::Error) -> String {
    let host = err
        .url()
        .map(|u| match (u.host_str(), u.port_or_known_default()) {
            (Some(host), Some(port)) => format!("{host}:{port}"),
            (Some(host), None) => host.to_owned(),
            _ => "the address".to_owned(),
        })
        .unwrap_or_else(|| "the address".to_owned());
    let chain = source_chain(err);
    let lower = chain.to_ascii_lowercase();
    let refused = {
        let mut source: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(err);
        let mut found = false;
        while let Some(inner) = source {
            if inner
                .downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::ConnectionRefused)
            {
                found = true;
            }
            source = inner.source();
        }
        found || lower.contains("connection refused")
    };
    if refused {
        format!("nothing answers at {host} (the connection was refused)")
    } else if lower.contains("dns error") || lower.contains("failed to lookup address") {
        let name = err.url().and_then(|u| u.host_str()).unwrap_or("the host");
        format!("the name {name} was not found (DNS)")
    } else if [
        "tls",
        "ssl",
        "certificate",
        "handshake",
        "corrupt message",
        "alert",
    ]
    .iter()
    .any(|word| lower.contains(word))
    {
        format!("{TLS_FAILED} with {host}: {}", innermost(err))
    } else {
        format!("no connection to {host}: {}", innermost(err))
    }
}

/// The deepest cause of an error (the system's or the TLS library's own sentence), on one line.
fn innermost(err: &dyn std::error::Error) -> String {
    let mut last = err.to_string();
    let mut source = err.source();
    while let Some(inner) = source {
        last = inner.to_string();
        source = inner.source();
    }
    one_line(&last, SNIPPET_CHARS)
}

fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}

fn source_chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(inner) = source {
        text.push_str(": ");
        text.push_str(&inner.to_string());
        source = inner.source();
    }
    text
}

/// How much of a body an error quotes, in characters.
const SNIPPET_CHARS: usize = 200;

/// What an error says of a body: a web page is named as one (with its title, or the start of its visible text, and
/// never its markup); other text is quoted, its first [`SNIPPET_CHARS`] characters on one line.
fn snippet(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    if looks_like_html(&text) {
        return web_page_words(&text);
    }
    let trimmed = one_line(&text, SNIPPET_CHARS);
    if trimmed.is_empty() {
        "(empty body)".into()
    } else {
        trimmed
    }
}

/// `text` on one line (control characters and runs of white space become one space), at most `max` characters
/// (then `…`).
fn one_line(text: &str, max: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    for word in text
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push(' ');
            count += 1;
        }
        for c in word.chars() {
            if count >= max {
                out.push('…');
                return out;
            }
            out.push(c);
            count += 1;
        }
    }
    out
}

/// True when a body is a web page (an HTML document or fragment) rather than the JSON of the interface.
pub(crate) fn looks_like_html(text: &str) -> bool {
    let start: String = text
        .trim_start_matches('\u{feff}')
        .trim_start()
        .chars()
        .take(512)
        .collect::<String>()
        .to_ascii_lowercase();
    start.starts_with("<!doctype")
        || start.starts_with("<html")
        || start.starts_with("<head")
        || start.starts_with("<body")
        || start.starts_with("<?xml")
        || (start.starts_with('<')
            && [
                "<title", "<div", "<p>", "<h1", "<center", "<meta", "<script",
            ]
            .iter()
            .any(|tag| start.contains(tag)))
}

pub use crate::error::WEB_PAGE;

/// "a web page (HTML), not JSON, titled “Access denied”": what a person may read of a page, without its markup.
fn web_page_words(html: &str) -> String {
    let lower = html.to_ascii_lowercase();
    let title = lower.find("<title").and_then(|open| {
        let start = open + lower[open..].find('>')? + 1;
        let end = start + lower[start..].find("</title")?;
        Some(html[start..end].to_owned())
    });
    let (label, text) = match title.map(|t| one_line(&entities(&t), 80)) {
        Some(title) if !title.is_empty() => ("titled", title),
        _ => ("reading", one_line(&visible_text(html), 80)),
    };
    if text.is_empty() {
        WEB_PAGE.to_owned()
    } else {
        format!("{WEB_PAGE}, {label} “{text}”")
    }
}

/// The text of a page without its tags, scripts, styles and comments.
fn visible_text(html: &str) -> String {
    let lower = html.to_ascii_lowercase();
    let mut out = String::new();
    let mut at = 0;
    while at < html.len() {
        let Some(open) = html[at..].find('<').map(|i| at + i) else {
            out.push_str(&html[at..]);
            break;
        };
        out.push_str(&html[at..open]);
        out.push(' ');
        let skip_to = |closing: &str| {
            lower[open..]
                .find(closing)
                .map_or(html.len(), |i| open + i + closing.len())
        };
        at = if lower[open..].starts_with("<!--") {
            skip_to("-->")
        } else if lower[open..].starts_with("<script") {
            skip_to("</script>")
        } else if lower[open..].starts_with("<style") {
            skip_to("</style>")
        } else {
            skip_to(">")
        };
    }
    entities(&out)
}

/// The few character entities a block page's text uses.
fn entities(text: &str) -> String {
    text.replace("&nbsp;", " ")
        .replace("&lt;", "‹")
        .replace("&gt;", "›")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Turns a status and body into the JSON of a success or the right kind of error.
fn classify(
    status: StatusCode,
    retry_after: Option<Duration>,
    bytes: &[u8],
) -> Result<Value, ClientError> {
    if status.is_success() {
        return serde_json::from_slice(bytes).map_err(|e| ClientError::UnexpectedBody {
            status: status.as_u16(),
            snippet: if looks_like_html(&String::from_utf8_lossy(bytes)) {
                snippet(bytes)
            } else {
                format!("{e}; body: {}", snippet(bytes))
            },
        });
    }
    let coded = serde_json::from_slice::<GatewayErrorBody>(bytes).ok();
    match (status, coded) {
        // A rate limit or a server failure stays one (waited for, retried by reads) even when it carries a coded
        // body: the status decides what to do next; the body's sentence is kept for a 5xx.
        (StatusCode::TOO_MANY_REQUESTS, _) => Err(ClientError::RateLimited { retry_after }),
        (s, coded) if s.is_server_error() => Err(ClientError::Server {
            status: s.as_u16(),
            snippet: coded.map_or_else(|| snippet(bytes), |body| body.error),
        }),
        (s, Some(body)) => Err(ClientError::Gateway {
            status: s.as_u16(),
            body,
        }),
        (StatusCode::NOT_FOUND, None) if bytes.iter().all(u8::is_ascii_whitespace) => {
            Err(ClientError::NotFound)
        }
        (s, None) => Err(ClientError::UnexpectedBody {
            status: s.as_u16(),
            snippet: snippet(bytes),
        }),
    }
}

fn unexpected(raw: &Value, err: serde_json::Error) -> ClientError {
    ClientError::UnexpectedBody {
        status: 200,
        snippet: format!("{err}; body: {}", snippet(raw.to_string().as_bytes())),
    }
}

/// A gateway's answer: the typed view for reading, and the JSON exactly as received (for journals and `--json`).
#[derive(Debug, Clone, PartialEq)]
pub struct Answer<T> {
    /// The typed view of the answer, for reading.
    pub value: T,
    /// The JSON as received, before the typed view left anything out: what journals and `--json` keep.
    pub raw: Value,
}

impl<T: DeserializeOwned> Answer<T> {
    fn decode(raw: Value) -> Result<Self, ClientError> {
        let value = T::deserialize(&raw).map_err(|e| unexpected(&raw, e))?;
        Ok(Self { value, raw })
    }

    /// Like `decode`, for the answer of a write: the gateway acted, so an answer that cannot be read is ambiguous and
    /// keeps the whole body (it may hold the order id).
    fn decode_write(raw: Value) -> Result<Self, ClientError> {
        T::deserialize(&raw)
            .map(|value| Self {
                value,
                raw: raw.clone(),
            })
            .map_err(|e| {
                ClientError::AmbiguousWrite(Box::new(ClientError::UnexpectedBody {
                    status: 200,
                    snippet: format!("{e}; the whole answer: {raw}"),
                }))
            })
    }
}

/// A read's answer with the body's text exactly as received: the typed view, the parsed JSON, and the text (see
/// [`Client::get_order_text`]).
#[derive(Debug, Clone, PartialEq)]
pub struct TextAnswer<T> {
    /// The typed view of the answer, for reading.
    pub value: T,
    /// The body parsed as JSON, as [`Answer::raw`] holds it.
    pub raw: Value,
    /// The body's text exactly as received, byte for byte, for showing the raw answer.
    pub text: String,
}

impl<T: DeserializeOwned> TextAnswer<T> {
    fn decode(raw: Value, text: String) -> Result<Self, ClientError> {
        let value = T::deserialize(&raw).map_err(|e| unexpected(&raw, e))?;
        Ok(Self { value, raw, text })
    }
}

/// Refuses a create-order answer that cannot belong to the quote: another route, or a call to another contract than
/// the quote's `txTo`. (desk-core checks the payload itself in depth before anything is signed.)
fn check_created_order(quote: &QuoteView, order: &CreateOrderResponse) -> Result<(), ClientError> {
    let mismatch = |what: String| {
        Err(ClientError::Mismatch(format!(
            "{what}. Do not pay or sign anything for order {}; it may exist on the gateway",
            order.order_id()
        )))
    };
    if quote.route() != order.route() {
        return mismatch(format!(
            "the gateway answered a {} quote with a {} order",
            quote.route(),
            order.route()
        ));
    }
    let tx_to = match quote {
        QuoteView::Offramp(q) => Some(q.tx_to.as_str()),
        QuoteView::TokenSwap(q) => Some(q.tx_to.as_str()),
        QuoteView::Onramp(_) | QuoteView::LayerZero(_) => None,
    };
    let order_to = order.tx().and_then(|tx| {
        tx.to_tx_data()
            .contract_called()
            .map(|(family, to)| (family, to.to_owned()))
    });
    // Compared as addresses: the service writes a Tron `to` as `0x41…` hex where its quote may say `T…`.
    if let (Some(expected), Some((family, actual))) = (tx_to, order_to)
        && !crate::address::same_account(family, expected, &actual)
    {
        let (expected, actual) = (clipped(expected), clipped(&actual));
        return mismatch(format!(
            "the transaction goes to {actual}, but the quote names {expected}"
        ));
    }
    Ok(())
}

/// Walks get-orders page by page (see [`Client::orders_pager`]).
#[derive(Debug)]
pub struct OrdersPager<'a> {
    client: &'a Client,
    address: String,
    limit: Option<u32>,
    cursor: Option<String>,
    done: bool,
    seen: HashSet<String>,
    pages: usize,
}

impl OrdersPager<'_> {
    /// The next page, or `None` after the last one. A cursor the gateway repeats, or more than [`MAX_PAGES`] pages,
    /// end the walk with an error rather than reading forever.
    pub async fn next_page(&mut self) -> Option<Result<Answer<OrdersPage>, ClientError>> {
        if self.done {
            return None;
        }
        if self.pages >= MAX_PAGES {
            self.done = true;
            return Some(Err(ClientError::UnexpectedBody {
                status: 200,
                snippet: format!(
                    "the gateway offered more than {MAX_PAGES} pages of orders for {}; paging stopped there",
                    self.address
                ),
            }));
        }
        self.pages += 1;
        let limit = if self.client.config.version == ApiVersion::V1 {
            None
        } else {
            self.limit
        };
        let page = self
            .client
            .get_orders(&self.address, self.cursor.as_deref(), limit)
            .await;
        match &page {
            Ok(answer) => match answer.value.next_cursor.clone().filter(|c| !c.is_empty()) {
                Some(next) if self.seen.contains(&next) => {
                    self.done = true;
                    return Some(Err(ClientError::UnexpectedBody {
                        status: 200,
                        snippet: format!(
                            "the gateway repeated the cursor {next:?}; paging stopped"
                        ),
                    }));
                }
                Some(next) => {
                    self.seen.insert(next.clone());
                    self.cursor = Some(next);
                }
                None => self.done = true,
            },
            Err(_) => self.done = true,
        }
        Some(page)
    }

    /// Every order of the address, all pages.
    pub async fn collect_all(mut self) -> Result<Vec<OrderInfo>, ClientError> {
        let mut orders = Vec::new();
        while let Some(page) = self.next_page().await {
            orders.extend(page?.value.orders);
        }
        Ok(orders)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Tron token swap's quote (its `txTo` in Base58) and a create-order answer whose `to` is `to`.
    fn tron_swap(to: &str) -> (QuoteView, CreateOrderResponse) {
        let quote = crate::wire::Quote::from_json(serde_json::json!({"tokenSwap": {
            "srcChain": "tron", "dstChain": "ethereum",
            "inputAmount": {"address": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "amount": "1000000", "chain": "tron"},
            "outputAmount": {"address": "0xdAC17F958D2ee523a2206206994597C13D831ec7", "amount": "990000",
                             "chain": "ethereum"},
            "recipient": "0x2222222222222222222222222222222222222222",
            "slippage": 100,
            "fees": {"address": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "amount": "0", "chain": "tron"},
            "txTo": "TAfbit1ENsRmtZbPQfYU3srURpfYuWYS7K"
        }}))
        .unwrap();
        let order = CreateOrderResponse::from_value(&serde_json::json!({"tokenSwap": {
            "order_id": "o-1",
            "tx": {"type": "tron", "to": to, "data": "0x2213bc0b", "value": "0", "chain": "tron",
                   "feeLimit": "150000000"}
        }}))
        .unwrap();
        (quote.view().clone(), order)
    }

    #[test]
    fn a_tron_order_is_matched_to_its_quote_as_an_address_in_any_spelling() {
        for spelling in [
            "TAfbit1ENsRmtZbPQfYU3srURpfYuWYS7K",
            "4107a39ae4c49dee86e892450b20881f32cd5d500d",
            "0x4107a39ae4c49dee86e892450b20881f32cd5d500d",
        ] {
            let (quote, order) = tron_swap(spelling);
            assert!(check_created_order(&quote, &order).is_ok(), "{spelling}");
        }
        for other in [
            "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
            "0x41ffffffffffffffffffffffffffffffffffffff",
        ] {
            let (quote, order) = tron_swap(other);
            let err = check_created_order(&quote, &order).unwrap_err();
            assert!(
                matches!(&err, ClientError::Mismatch(m) if m.contains(other) && m.contains("Do not pay")),
                "{err:?}"
            );
        }
        let (quote, order) = tron_swap(&"T".repeat(100_000));
        let ClientError::Mismatch(m) = check_created_order(&quote, &order).unwrap_err() else {
            panic!("a mismatch")
        };
        assert!(
            m.len() < 400,
            "a hostile `to` is quoted clipped: {} characters",
            m.len()
        );
    }

    #[test]
    fn api_key_is_checked_and_never_shown() {
        assert_eq!(ApiKey::new("short"), Err(InvalidApiKey::Length(5)));
        assert_eq!(ApiKey::new(&" ".repeat(32)), Err(InvalidApiKey::Characters));
        let key = ApiKey::new("abcdefghijklmnopqrstuvwxyz012345").unwrap();
        assert_eq!(format!("{key:?}"), "ApiKey(<redacted>)");
        assert!(!format!("{key}").contains("abcdef"));
        assert_eq!(key.masked(), "ab…45");
    }

    #[test]
    fn endpoints_keep_the_base_path() {
        let mut config = ClientConfig::new(Url::parse("http://127.0.0.1:9/prefix/").unwrap());
        config.version = ApiVersion::V2;
        let client = Client::new(config).unwrap();
        assert_eq!(
            client.endpoint(&["get-routes"]).as_str(),
            "http://127.0.0.1:9/prefix/v2/get-routes"
        );
        assert_eq!(
            client.endpoint(&["get-order", "a b/c"]).as_str(),
            "http://127.0.0.1:9/prefix/v2/get-order/a%20b%2Fc"
        );
    }

    #[tokio::test]
    async fn text_reads_keep_the_body_exactly_as_received() {
        // Spacing, an escaped character and a number spelled `1.50`: re-serializing the parsed JSON changes all
        // three, the text keeps them.
        const ORDER: &str = "{\n  \"id\": \"o-1\",  \"timestamp\": 1767225600,\n  \"note\": \"caf\\u00e9\", \"score\": 1.50,\n  \
            \"srcInfo\": {\"chain\": \"bitcoin\", \"token\": \"BTC\", \"amount\": \"100000\"},\n  \
            \"dstInfo\": {\"chain\": \"bob\", \"token\": \"0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3\", \"amount\": \"99000\"},\n  \
            \"status\": {\"inProgress\": {\"refund_tx\": null}}\n}\n";
        let page = format!("{{ \"orders\": [ {ORDER} ], \"nextCursor\": null }}");
        let app = axum::Router::new()
            .route("/v3/get-order/{id}", axum::routing::get(|| async { ORDER }))
            .route(
                "/v3/get-orders/{address}",
                axum::routing::get(move || {
                    let page = page.clone();
                    async move { page }
                }),
            );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(async move { axum::serve(listener, app).await });
        let client = Client::new(ClientConfig::new(
            Url::parse(&format!("http://{addr}")).unwrap(),
        ))
        .unwrap();

        let answer = client.get_order_text("o-1").await.unwrap();
        assert_eq!(answer.text, ORDER, "byte for byte");
        assert_ne!(answer.raw.to_string(), ORDER.trim());
        assert_eq!(answer.raw["note"], "caf\u{e9}");
        assert_eq!(answer.value.id, "o-1");
        assert_eq!(client.get_order("o-1").await.unwrap().raw, answer.raw);

        let answer = client
            .get_orders_text("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", None, Some(10))
            .await
            .unwrap();
        assert!(answer.text.contains(ORDER), "{}", answer.text);
        assert_eq!(answer.value.orders.len(), 1);
        assert!(answer.value.is_last());

        // The same checks as the typed reads, before anything is sent.
        assert!(matches!(
            client.get_order_text(" ").await,
            Err(ClientError::Invalid(_))
        ));
        let mut v1 = client.config().clone();
        v1.version = ApiVersion::V1;
        let v1 = Client::new(v1).unwrap();
        assert!(matches!(
            v1.get_orders_text("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", None, Some(10))
                .await,
            Err(ClientError::Invalid(ParamError::NotInVersion { .. }))
        ));
        server.abort();
    }

    #[test]
    fn failures_are_classified() {
        let html = b"<html><body>403 Forbidden</body></html>";
        let err = classify(StatusCode::FORBIDDEN, None, html).unwrap_err();
        assert!(
            matches!(err, ClientError::UnexpectedBody { status: 403, .. }),
            "{err:?}"
        );
        let err = classify(StatusCode::NOT_FOUND, None, b"").unwrap_err();
        assert!(matches!(err, ClientError::NotFound));
        let err = classify(
            StatusCode::TOO_MANY_REQUESTS,
            Some(Duration::from_secs(7)),
            b"",
        )
        .unwrap_err();
        assert!(
            matches!(err, ClientError::RateLimited { retry_after: Some(d) } if d.as_secs() == 7)
        );
        let err = classify(StatusCode::GATEWAY_TIMEOUT, None, b"upstream timed out").unwrap_err();
        assert!(err.is_transient());
        // A coded body does not turn a rate limit or a server failure into a refusal.
        let limited = br#"{"code":"EXCEEDED_LIMIT","error":"slow down","details":{"limit":"3"}}"#;
        let err = classify(
            StatusCode::TOO_MANY_REQUESTS,
            Some(Duration::from_secs(20)),
            limited,
        )
        .unwrap_err();
        assert!(
            matches!(err, ClientError::RateLimited { retry_after: Some(d) } if d.as_secs() == 20)
        );
        let failed = br#"{"code":"INTERNAL_ERROR","error":"database unavailable"}"#;
        let err = classify(StatusCode::SERVICE_UNAVAILABLE, None, failed).unwrap_err();
        assert!(
            matches!(&err, ClientError::Server { status: 503, snippet } if snippet == "database unavailable")
        );
        assert!(err.is_transient());
        let body = br#"{"code":"NO_ROUTE","error":"no route","details":{"src_chain":"a","src_token":"b","dst_chain":"c","dst_token":"d"}}"#;
        let err = classify(StatusCode::BAD_REQUEST, None, body).unwrap_err();
        assert!(matches!(err, ClientError::Gateway { status: 400, .. }));
        assert!(!err.is_transient());
    }

    #[test]
    fn web_pages_are_named_never_quoted() {
        let page = br#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Welcome to
  nginx!</title><style>body { width: 35em; }</style></head>
<body><h1>Welcome to nginx!</h1><script>var secret = "x";</script></body></html>"#;
        for status in [
            StatusCode::OK,
            StatusCode::FORBIDDEN,
            StatusCode::BAD_GATEWAY,
        ] {
            let err = classify(status, None, page).unwrap_err();
            assert!(err.is_web_page(), "{err:?}");
            let text = err.to_string();
            assert!(
                status.is_server_error()
                    || text.contains("a web page (HTML), not JSON, titled “Welcome to nginx!”"),
                "{text}"
            );
            for markup in ["<", ">", "DOCTYPE", "style", "secret", "35em"] {
                assert!(!text.contains(markup), "{markup} in {text}");
            }
        }
        // Without a title: the start of the visible text, without scripts, styles or comments.
        let err = classify(
            StatusCode::FORBIDDEN,
            None,
            b"<html><body><!-- ray 8a1 --><div>Access&nbsp;denied</div>\n<p>Error 1020</p></body></html>",
        )
        .unwrap_err();
        let text = err.to_string();
        assert!(
            text.ends_with("a web page (HTML), not JSON, reading “Access denied Error 1020”"),
            "{text}"
        );
        assert!(text.contains("HTTP 403 (Forbidden)"), "{text}");
        // A page with nothing readable is still named as one.
        let err = classify(StatusCode::OK, None, b"<html><body></body></html>").unwrap_err();
        assert!(err.to_string().ends_with("not JSON"), "{err}");
        // Other text is quoted on one line and capped.
        let long = format!("not json\n\t{}", "x".repeat(500));
        let err = classify(StatusCode::OK, None, long.as_bytes()).unwrap_err();
        assert!(!err.is_web_page());
        let text = err.to_string();
        assert!(text.contains("body: not json xxx"), "{text}");
        assert!(text.ends_with("x…") && text.len() < 400, "{text}");
        assert!(!text.contains('\n'));
        // JSON of another shape is not a web page.
        assert!(!looks_like_html("{\"routes\": []}"));
        assert!(looks_like_html("\u{feff}  <HTML><p>hi</p></HTML>"));
        assert!(looks_like_html("<div><p>fragment</p></div>"));
        assert!(!looks_like_html("<not a tag at all"));
    }
}
