//! The network in use: its base URL, its client, and for the Sandbox the local gateway started through
//! [`crate::sandbox`]'s port.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use gateway_client::address::BitcoinNetwork;
use gateway_client::{ApiKey, ApiVersion, Client, ClientConfig, ClientError, deployments};

use tracing::{info, warn};
use url::Url;

use crate::api::{DeskError, ErrorKind, NetworkView};
use crate::sandbox::{LocalChains, RunningGateway, SandboxAccess, SandboxStart};
use crate::settings::NetworkKind;

/// Checks a custom gateway URL: absolute, http or https, with a host, and no query or credentials.
pub fn parse_custom_url(text: &str) -> Result<Url, DeskError> {
    let invalid = |why: &str| {
        DeskError::new(
            ErrorKind::InvalidInput,
            format!(
                "{text:?} is not a usable gateway URL: {why}. Enter an address like https://gateway.example.com."
            ),
        )
    };
    let url = Url::parse(text.trim()).map_err(|e| invalid(&e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(invalid("it must start with http:// or https://"));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(invalid("it has no host"));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(invalid("it must not have a query or fragment"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(invalid("it must not carry a user name or password"));
    }
    Ok(url)
}

/// How long the check of a custom gateway waits for its route list (one attempt, no retry).
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(8);

/// Asks the gateway `client` points at for its routes (get-routes, with the client's API version and key), once,
/// within [`CHECK_TIMEOUT`]: a custom URL is used only when it answers with the interface's route list. Gives the
/// number of routes, or why the address cannot be used, in words ([`check_failure`]).
pub async fn check_gateway(client: &Client) -> Result<usize, DeskError> {
    let mut config = client.config().clone();
    config.timeout = CHECK_TIMEOUT;
    config.read_attempts = 1;
    let url = config.base_url.as_str().trim_end_matches('/').to_owned();
    let version = config.version;
    let probe = Client::new(config)?;
    match probe.get_routes().await {
        Ok(answer) => {
            info!(%url, %version, routes = answer.value.len(), "custom gateway checked");
            Ok(answer.value.len())
        }
        Err(e) => {
            warn!(%url, %version, error = %e, "custom gateway refused");
            Err(check_failure(&url, version, &e))
        }
    }
}

/// Why the gateway at `url` cannot be used, from what its get-routes gave: a sentence for a person that names the
/// address and what to check, never the body's markup. `details.field` is `customUrl`.
pub fn check_failure(url: &str, version: ApiVersion, err: &ClientError) -> DeskError {
    let endpoint = format!("{version}/get-routes");
    let check_address =
        "Check the address: it should be the gateway's API base URL (without /v1, /v2 or /v3).";
    let nothing = |why: &str| {
        format!(
            "Nothing answers at {url} ({why}): check the address and that the gateway is running."
        )
    };
    let (kind, message) = match err {
        ClientError::Connect(_) if err.is_tls() => (
            ErrorKind::Transport,
            format!(
                "No secure connection could be made to {url} ({}). Check the address (https:// for a gateway with \
                 a certificate, http:// for one without) and that the gateway's certificate is valid.",
                tls_reason(err)
            ),
        ),
        ClientError::Connect(words) => (
            ErrorKind::Transport,
            nothing(
                words
                    .strip_prefix("nothing answers at ")
                    .map_or(words.as_str(), |_| "the connection was refused"),
            ),
        ),
        ClientError::Timeout(after) => (
            ErrorKind::Transport,
            nothing(&format!("no answer within {} seconds", after.as_secs())),
        ),
        ClientError::Transport(words) => (
            ErrorKind::Transport,
            format!("{url} could not be asked for its routes ({words}). {check_address}"),
        ),
        _ if err.is_web_page() => {
            let title = match err {
                ClientError::UnexpectedBody { snippet, .. }
                | ClientError::Server { snippet, .. } => snippet
                    .strip_prefix(gateway_client::client::WEB_PAGE)
                    .and_then(|rest| rest.strip_prefix(", "))
                    .map(|rest| format!(" ({rest})"))
                    .unwrap_or_default(),
                _ => String::new(),
            };
            (
                ErrorKind::Transport,
                format!("{url} returned a web page{title}, not the gateway. {check_address}"),
            )
        }
        ClientError::UnexpectedBody { status, snippet } if (200..300).contains(status) => (
            ErrorKind::Transport,
            format!(
                "{url} answered, but not with the gateway's route list ({endpoint} gave: {snippet}). {check_address} \
                 Also check the API version ({version})."
            ),
        ),
        ClientError::NotFound | ClientError::UnexpectedBody { status: 404, .. } => (
            ErrorKind::Transport,
            format!(
                "{url} has no {endpoint}: it answered {}. {check_address} Also check the API version ({version}).",
                gateway_client::error::http_status(404)
            ),
        ),
        ClientError::UnexpectedBody { status, .. } => (
            ErrorKind::Transport,
            format!(
                "{url} answered {} when asked for its routes, not the gateway's route list. {check_address}",
                gateway_client::error::http_status(*status)
            ),
        ),
        ClientError::Server { status, .. } => (
            ErrorKind::Transport,
            format!(
                "{url} failed with {} when asked for its routes: the gateway there is not working now. Try again \
                 later, or check the address.",
                gateway_client::error::http_status(*status)
            ),
        ),
        ClientError::Gateway { status, body } => (
            ErrorKind::Gateway,
            format!(
                "The gateway at {url} refused to list its routes ({}, {}): {}. {}",
                gateway_client::error::http_status(*status),
                body.code,
                body.error.trim_end_matches('.'),
                body.code.next_step()
            ),
        ),
        ClientError::RateLimited { .. } => (
            ErrorKind::RateLimited,
            format!(
                "The gateway at {url} is receiving too many requests from this app. Wait a minute and try again."
            ),
        ),
        other => {
            let error = DeskError::from(clone_error(other));
            (
                error.kind,
                format!("{url} cannot be used: {}", error.message),
            )
        }
    };
    let mut error = DeskError::new(kind, message);
    error.details = Some(Box::new(serde_json::json!({ "field": "customUrl" })));
    error
}

/// A refused choice, saying that nothing changed (for [`check_failure`]'s errors when a network is chosen).
pub fn not_saved(mut error: DeskError) -> DeskError {
    error
        .message
        .push_str(" Nothing was saved; the network in use stays.");
    error
}

/// What went wrong with TLS, after the words the client puts first.
fn tls_reason(err: &ClientError) -> String {
    match err {
        ClientError::Connect(words) => words
            .split_once(": ")
            .map_or(words.as_str(), |(_, reason)| reason)
            .to_owned(),
        other => other.to_string(),
    }
}

/// The few errors [`check_failure`] hands to [`DeskError::from`] (which takes them by value), rebuilt.
fn clone_error(err: &ClientError) -> ClientError {
    match err {
        ClientError::Invalid(problem) => ClientError::Invalid(problem.clone()),
        other => ClientError::Transport(other.to_string()),
    }
}

/// A network the app is connected to.
#[derive(Debug)]
pub struct ActiveNetwork {
    /// Which network it is.
    pub kind: NetworkKind,
    /// The gateway client for this network, with its base URL, API version and API key.
    pub client: Client,
    /// The Bitcoin network of this gateway's addresses and transactions (regtest on the Sandbox).
    pub bitcoin: BitcoinNetwork,
    /// The local gateway when the network is the Sandbox; dropping it stops the server.
    sandbox: Option<Box<dyn RunningGateway>>,
    /// The Sandbox's local chains (each started when first used); `None` off the Sandbox.
    pub sandbox_chains: Option<Arc<dyn LocalChains>>,
}

impl ActiveNetwork {
    /// Connects to `kind`, whose Bitcoin network is `bitcoin` (the Sandbox's is always regtest): for the Sandbox
    /// this starts the local gateway `sandbox` has (on a free loopback port), keeping its orders in `sandbox_state`
    /// when given.
    pub async fn connect(
        kind: NetworkKind,
        custom_url: Option<&str>,
        version: ApiVersion,
        api_key: Option<ApiKey>,
        sandbox_state: Option<&Path>,
        sandbox: &SandboxAccess,
        bitcoin: BitcoinNetwork,
    ) -> Result<Self, DeskError> {
        let bitcoin = if kind == NetworkKind::Sandbox {
            BitcoinNetwork::Regtest
        } else {
            bitcoin
        };
        let (base_url, running) = match kind {
            NetworkKind::Production => (Url::parse(deployments::PRODUCTION).expect("valid"), None),
            NetworkKind::Staging => (Url::parse(deployments::STAGING).expect("valid"), None),
            NetworkKind::Custom => {
                let text = custom_url.ok_or_else(|| {
                    DeskError::new(
                        ErrorKind::InvalidInput,
                        "The custom network needs a URL. Enter the gateway's address, then choose Custom URL.",
                    )
                })?;
                (parse_custom_url(text)?, None)
            }
            NetworkKind::Sandbox => {
                let running = sandbox
                    .start(SandboxStart {
                        state_file: sandbox_state.map(Path::to_path_buf),
                        admin: sandbox.admin,
                        api_key: api_key.clone(),
                    })
                    .await?;
                (running.base_url(), Some(running))
            }
        };
        let mut config = ClientConfig::new(base_url);
        config.version = version;
        config.api_key = api_key;
        if kind == NetworkKind::Sandbox {
            config.timeout = Duration::from_secs(10);
        }
        let client = Client::new(config)?;
        info!(network = kind.slug(), url = %client.config().base_url, %version, "network connected");
        let sandbox_chains = running.as_ref().map(|running| running.chains());
        Ok(Self {
            kind,
            client,
            bitcoin,
            sandbox: running,
            sandbox_chains,
        })
    }

    /// This network, once a custom URL has answered [`check_gateway`] (the other networks are not asked).
    pub async fn checked(self) -> Result<Self, DeskError> {
        if self.kind == NetworkKind::Custom {
            check_gateway(&self.client).await?;
        }
        Ok(self)
    }

    /// The network as the header shows it.
    pub fn view(&self) -> NetworkView {
        let config = self.client.config();
        NetworkView {
            kind: self.kind,
            label: self.kind.label().to_owned(),
            base_url: config.base_url.as_str().trim_end_matches('/').to_owned(),
            api_version: config.version.as_str().to_owned(),
            bitcoin_network: self.bitcoin.to_string(),
            bitcoin_network_settable: crate::settings::Settings::bitcoin_network_is_settable(
                self.kind,
            ),
            simulated: (self.kind == NetworkKind::Sandbox).then(|| SANDBOX_MARK.to_owned()),
        }
    }

    /// Stops the embedded gateway, if this is the Sandbox.
    pub async fn close(&mut self) {
        if let Some(sim) = self.sandbox.take() {
            sim.stop().await;
        }
    }
}

/// The mark on everything the Sandbox shows or writes (every view, the signing step, QR captions, support bundles):
/// it is simulated, and no real money moves.
pub const SANDBOX_MARK: &str = "Sandbox — simulated, no real money moves";

/// How the names of files the Sandbox's orders export begin (PSBTs, support bundles).
pub const SANDBOX_FILE_PREFIX: &str = "sandbox-SIMULATED-";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_urls_are_checked() {
        assert!(parse_custom_url("https://gw.example.com").is_ok());
        assert!(parse_custom_url(" http://127.0.0.1:8787/base ").is_ok());
        for bad in [
            "gw.example.com",
            "ftp://gw.example.com",
            "https://user:pw@gw.example",
            "https://gw.example/?a=1",
            "",
        ] {
            let err = parse_custom_url(bad).unwrap_err();
            assert_eq!(err.kind, ErrorKind::InvalidInput, "{bad}");
            assert!(err.message.contains("Enter an address"), "{}", err.message);
        }
    }

    #[test]
    fn a_failed_check_says_why_in_words() {
        use gateway_client::{ErrorCode, GatewayErrorBody};
        let url = "https://gw.example";
        let said = |err: ClientError| {
            let error = check_failure(url, ApiVersion::V2, &err);
            assert_eq!(
                error.details.as_deref(),
                Some(&serde_json::json!({"field": "customUrl"}))
            );
            assert!(!error.message.contains('<'), "{}", error.message);
            (error.kind, error.message)
        };
        let nothing = "Nothing answers at https://gw.example (";
        let running = "): check the address and that the gateway is running.";
        let (kind, message) = said(ClientError::Connect(
            "nothing answers at gw.example:443 (the connection was refused)".into(),
        ));
        assert_eq!(kind, ErrorKind::Transport);
        assert_eq!(
            message,
            format!("{nothing}the connection was refused{running}")
        );
        let (_, message) = said(ClientError::Connect(
            "the name gw.example was not found (DNS)".into(),
        ));
        assert_eq!(
            message,
            format!("{nothing}the name gw.example was not found (DNS){running}")
        );
        let (_, message) = said(ClientError::Timeout(Duration::from_secs(8)));
        assert_eq!(
            message,
            format!("{nothing}no answer within 8 seconds{running}")
        );
        let (_, message) = said(ClientError::Connect(format!(
            "{} with gw.example:443: invalid peer certificate: UnknownIssuer",
            gateway_client::client::TLS_FAILED
        )));
        assert!(
            message.starts_with(
                "No secure connection could be made to https://gw.example (invalid peer certificate: \
                 UnknownIssuer)."
            ),
            "{message}"
        );
        let (_, message) = said(ClientError::UnexpectedBody {
            status: 200,
            snippet: format!("{}, titled “Sign in”", gateway_client::client::WEB_PAGE),
        });
        assert!(
            message.starts_with(
                "https://gw.example returned a web page (titled “Sign in”), not the gateway. Check the address: it \
                 should be the gateway's API base URL"
            ),
            "{message}"
        );
        let (_, message) = said(ClientError::UnexpectedBody {
            status: 200,
            snippet: "invalid type: map, expected a sequence; body: {}".into(),
        });
        assert!(
            message.starts_with("https://gw.example answered, but not with the gateway's route list (v2/get-routes gave: invalid type"),
            "{message}"
        );
        assert!(message.contains("API version (v2)"), "{message}");
        let (_, message) = said(ClientError::NotFound);
        assert!(
            message.starts_with(
                "https://gw.example has no v2/get-routes: it answered HTTP 404 (Not Found)."
            ),
            "{message}"
        );
        let (_, message) = said(ClientError::Server {
            status: 503,
            snippet: "down".into(),
        });
        assert!(
            message.starts_with("https://gw.example failed with HTTP 503 (Service Unavailable)"),
            "{message}"
        );
        let (kind, message) = said(ClientError::Gateway {
            status: 401,
            body: GatewayErrorBody {
                code: ErrorCode::InvalidRequest,
                error: "unknown API key".into(),
                details: None,
            },
        });
        assert_eq!(kind, ErrorKind::Gateway);
        assert!(
            message.starts_with(
                "The gateway at https://gw.example refused to list its routes (HTTP 401 (Unauthorized), \
                 INVALID_REQUEST): unknown API key."
            ),
            "{message}"
        );
        let (kind, _) = said(ClientError::RateLimited { retry_after: None });
        assert_eq!(kind, ErrorKind::RateLimited);
        let (kind, message) = said(ClientError::Invalid(
            gateway_client::ParamError::InsecureKey("gw.example".into()),
        ));
        assert_eq!(kind, ErrorKind::InvalidInput);
        assert!(
            message.starts_with("https://gw.example cannot be used: Nothing was sent"),
            "{message}"
        );
    }
}
