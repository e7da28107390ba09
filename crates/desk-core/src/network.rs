//! The network in use: its base URL, its client, and for the Sandbox the local gateway started through
//! [`crate::sandbox`]'s port.

use std::sync::Arc;
use std::time::Duration;

use gateway_client::address::BitcoinNetwork;
use gateway_client::{ApiKey, ApiVersion, Client, ClientConfig, ClientError, deployments};

use tracing::{info, warn};
use url::Url;

use crate::api::NetworkView;
use crate::sandbox::{LocalChains, RunningGateway};
use crate::settings::NetworkKind;

/// Why a network cannot be used: its URL, its client, or what its gateway answered when checked. The window's words
/// for each are `crate::desk`'s.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    /// The custom gateway URL `text` is not usable, for the reason `why`.
    #[error("{text:?} is not a usable gateway URL: {why}")]
    BadUrl {
        /// The URL as typed.
        text: String,
        /// What is wrong with it, in words (such as "it has no host").
        why: String,
    },
    /// The custom network was chosen without a URL.
    #[error("the custom network needs a URL")]
    NoCustomUrl,
    /// The Sandbox was chosen but its local gateway was not handed over (it is started before it is connected).
    #[error("the Sandbox's local gateway was not started")]
    SandboxNotStarted,
    /// The gateway client could not be made.
    #[error(transparent)]
    Client(Box<ClientError>),
    /// The gateway at `url` did not answer its route list (get-routes, API `version`) as the interface describes.
    #[error("the gateway at {url} cannot be used ({version}/get-routes): {error}")]
    Check {
        /// The gateway's base URL, without a trailing slash.
        url: String,
        /// The API version it was asked with.
        version: ApiVersion,
        /// What asking it gave.
        error: Box<ClientError>,
    },
}

/// Why `url` could not read an address, as the end of a sentence a person can act on ("it does not start with
/// https://…"), rather than the parser's own words ("relative URL without a base").
pub fn url_problem(error: url::ParseError) -> String {
    use url::ParseError as P;
    match error {
        P::RelativeUrlWithoutBase => {
            "it does not start with https:// (write the whole address, such as https://example.com)"
                .to_owned()
        }
        P::EmptyHost => "it has no host after https://".to_owned(),
        P::InvalidPort => "its port (after the colon) is not a number from 1 to 65535".to_owned(),
        P::InvalidIpv4Address | P::InvalidIpv6Address => {
            "its IP address is not a valid one".to_owned()
        }
        P::InvalidDomainCharacter | P::IdnaError => {
            "its host name holds a character a host name cannot have (a space, say)".to_owned()
        }
        other => format!("it is not a web address ({other})"),
    }
}

/// Checks a custom gateway URL: absolute, http or https, with a host, and no query or credentials.
pub fn parse_custom_url(text: &str) -> Result<Url, NetworkError> {
    let invalid = |why: &str| NetworkError::BadUrl {
        text: text.to_owned(),
        why: why.to_owned(),
    };
    let url = Url::parse(text.trim()).map_err(|e| invalid(&url_problem(e)))?;
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
/// number of routes, or what asking gave ([`NetworkError::Check`]).
pub async fn check_gateway(client: &Client) -> Result<usize, NetworkError> {
    let mut config = client.config().clone();
    config.timeout = CHECK_TIMEOUT;
    config.read_attempts = 1;
    let url = config.base_url.as_str().trim_end_matches('/').to_owned();
    let version = config.version;
    let probe = Client::new(config).map_err(|e| NetworkError::Client(Box::new(e)))?;
    match probe.get_routes().await {
        Ok(answer) => {
            info!(%url, %version, routes = answer.value.len(), "custom gateway checked");
            Ok(answer.value.len())
        }
        Err(e) => {
            warn!(%url, %version, error = %e, "custom gateway refused");
            Err(NetworkError::Check {
                url,
                version,
                error: Box::new(e),
            })
        }
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
    /// Connects to `kind`, whose Bitcoin network is `bitcoin` (the Sandbox's is always regtest). For the Sandbox,
    /// `sandbox` is its local gateway, already started (`crate::desk` starts it through [`crate::sandbox`]'s port);
    /// the other networks take none.
    pub fn open(
        kind: NetworkKind,
        custom_url: Option<&str>,
        version: ApiVersion,
        api_key: Option<ApiKey>,
        sandbox: Option<Box<dyn RunningGateway>>,
        bitcoin: BitcoinNetwork,
    ) -> Result<Self, NetworkError> {
        let bitcoin = if kind == NetworkKind::Sandbox {
            BitcoinNetwork::Regtest
        } else {
            bitcoin
        };
        let (base_url, running) = match kind {
            NetworkKind::Production => (Url::parse(deployments::PRODUCTION).expect("valid"), None),
            NetworkKind::Staging => (Url::parse(deployments::STAGING).expect("valid"), None),
            NetworkKind::Custom => {
                let text = custom_url.ok_or(NetworkError::NoCustomUrl)?;
                (parse_custom_url(text)?, None)
            }
            NetworkKind::Sandbox => {
                let running = sandbox.ok_or(NetworkError::SandboxNotStarted)?;
                (running.base_url(), Some(running))
            }
        };
        let mut config = ClientConfig::new(base_url);
        config.version = version;
        config.api_key = api_key;
        if kind == NetworkKind::Sandbox {
            config.timeout = Duration::from_secs(10);
        }
        let client = Client::new(config).map_err(|e| NetworkError::Client(Box::new(e)))?;
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
    pub async fn check(self) -> Result<Self, NetworkError> {
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

    /// The local gateway, when this is the Sandbox (its clock is moved through it).
    pub fn sandbox_gateway(&self) -> Option<&dyn RunningGateway> {
        self.sandbox.as_deref()
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
    use crate::error::{DeskError, ErrorKind};

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
            let err = DeskError::from(parse_custom_url(bad).unwrap_err());
            assert_eq!(err.kind, ErrorKind::InvalidInput, "{bad}");
            assert!(err.message.contains("Enter an address"), "{}", err.message);
        }
    }

    #[test]
    fn a_url_the_parser_cannot_read_gets_a_sentence_not_the_parsers_words() {
        let cases = [
            ("gw.example.com", "it does not start with https://"),
            ("", "it does not start with https://"),
            ("https://", "it has no host"),
            ("https://gw.example.com:99999", "its port"),
            (
                "https://gw example.com",
                "a character a host name cannot have",
            ),
            ("http://[::1", "its IP address"),
        ];
        for (text, says) in cases {
            let message = DeskError::from(parse_custom_url(text).unwrap_err()).message;
            assert!(message.contains(says), "{text:?}: {message}");
            assert!(!message.contains("relative URL"), "{text:?}: {message}");
            assert!(!message.contains("without a base"), "{text:?}: {message}");
        }
    }
}
