//! The network in use: its base URL, its client, and for the Sandbox the embedded gateway-sim itself.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use gateway_client::address::BitcoinNetwork;
use gateway_client::{ApiKey, ApiVersion, Client, ClientConfig, ClientError, deployments};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use gateway_sim::evm_check::EvmChains;
use gateway_sim::evm_node::EvmNode;
use gateway_sim::solana_node::SolanaNode;
use gateway_sim::tron_node::TronNode;
use gateway_sim::{RunningSim, Sim, SimConfig};
use tracing::{info, warn};
use url::Url;

use crate::api::{DeskError, ErrorKind, NetworkView};
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
    pub kind: NetworkKind,
    pub client: Client,
    /// The Bitcoin network of this gateway's addresses and transactions (regtest on the Sandbox).
    pub bitcoin: BitcoinNetwork,
    /// The embedded gateway when the network is the Sandbox; dropping it stops the server.
    sandbox: Option<RunningSim>,
    /// The Sandbox's local EVM chains (started when first used); `None` off the Sandbox.
    pub sandbox_chains: Option<SandboxChains>,
}

/// The environment variable naming EVM nodes the Sandbox uses instead of starting its own
/// (`bob=http://127.0.0.1:8545,ethereum=…`): for tests whose nodes must outlive the process under test.
pub const SANDBOX_EVM_NODES_ENV: &str = "GATEWAY_DESK_SANDBOX_EVM_NODES";

/// The Sandbox's EVM chains: a real anvil node per chain, started when the chain is first used, with the
/// Sandbox's gateway contract and test tokens placed; the embedded gateway checks registered transactions on it.
#[derive(Debug, Clone, Default)]
pub struct SandboxChains {
    nodes: Arc<tokio::sync::Mutex<BTreeMap<String, Arc<EvmNode>>>>,
    /// The Solana chain (LiteSVM behind JSON-RPC), started when first used.
    solana: Arc<tokio::sync::Mutex<Option<Arc<SolanaNode>>>>,
    /// The Tron chain (the HTTP API stand-in over a real EVM), started when first used.
    tron: Arc<tokio::sync::Mutex<Option<Arc<TronNode>>>>,
    funded: Arc<std::sync::Mutex<BTreeSet<(String, String)>>>,
    sim_chains: EvmChains,
}

/// The URL [`SANDBOX_EVM_NODES_ENV`] names for `chain`, if any.
fn external_node(chain: &str) -> Option<String> {
    std::env::var(SANDBOX_EVM_NODES_ENV).ok().and_then(|all| {
        all.split(',')
            .filter_map(|pair| pair.split_once('='))
            .find(|(c, _)| c.trim() == chain)
            .map(|(_, url)| url.trim().to_owned())
    })
}

impl SandboxChains {
    /// The node of `chain`, started (or attached, see [`SANDBOX_EVM_NODES_ENV`]) on first use.
    pub async fn node(&self, chain: &str) -> Result<Arc<EvmNode>, DeskError> {
        let mut nodes = self.nodes.lock().await;
        if let Some(node) = nodes.get(chain) {
            return Ok(node.clone());
        }
        let external = external_node(chain);
        let failed = |e: gateway_sim::evm_node::NodeError| {
            DeskError::new(
                ErrorKind::Sandbox,
                format!(
                    "The Sandbox's local {chain} chain could not start ({e}). Run `cargo xtask setup`, then try again."
                ),
            )
        };
        let node = match external {
            Some(url) => EvmNode::attach(chain, &url).await.map_err(failed)?,
            None => {
                let node = EvmNode::start(chain).await.map_err(failed)?;
                node.place_sandbox_contracts().await.map_err(failed)?;
                node
            }
        };
        info!(chain, url = node.url(), "Sandbox chain started");
        self.sim_chains.set(chain, node.url());
        let node = Arc::new(node);
        nodes.insert(chain.to_owned(), node.clone());
        Ok(node)
    }

    /// The Sandbox's Solana node (LiteSVM), started (or attached: `solana=URL` in [`SANDBOX_EVM_NODES_ENV`]) on first
    /// use; the embedded gateway builds Solana transactions on its blockhash and checks registered signatures on it.
    pub async fn solana_node(&self) -> Result<Arc<SolanaNode>, DeskError> {
        self.started(
            &self.solana,
            "Solana",
            SolanaNode::url,
            SolanaNode::start,
            |url| async move { SolanaNode::attach(&url).await },
        )
        .await
    }

    /// The Solana node, with `address` funded on it once (10 SOL and the catalogue's SPL tokens).
    pub async fn funded_solana(&self, address: &str) -> Result<Arc<SolanaNode>, DeskError> {
        let node = self.solana_node().await?;
        self.fund_once(
            ("solana".to_owned(), address.to_owned()),
            node.fund_sandbox_wallet(address),
        )
        .await?;
        Ok(node)
    }

    /// The Sandbox's Tron node (the HTTP API stand-in), started (or attached: `tron=URL` in
    /// [`SANDBOX_EVM_NODES_ENV`]) on first use; the embedded gateway checks registered Tron transactions on it.
    pub async fn tron_node(&self) -> Result<Arc<TronNode>, DeskError> {
        self.started(
            &self.tron,
            "Tron",
            TronNode::url,
            TronNode::start,
            |url| async move { TronNode::attach(&url).await },
        )
        .await
    }

    /// The node held in `slot` for the chain `name` (Solana, Tron): started, or attached to the URL
    /// [`SANDBOX_EVM_NODES_ENV`] names for it, on first use, and named to the embedded gateway.
    async fn started<N, E, S, SF, A, AF>(
        &self,
        slot: &tokio::sync::Mutex<Option<Arc<N>>>,
        name: &str,
        url_of: fn(&N) -> &str,
        start: S,
        attach: A,
    ) -> Result<Arc<N>, DeskError>
    where
        E: std::fmt::Display,
        S: FnOnce() -> SF,
        SF: std::future::Future<Output = Result<N, E>>,
        A: FnOnce(String) -> AF,
        AF: std::future::Future<Output = Result<N, E>>,
    {
        let mut held = slot.lock().await;
        if let Some(node) = held.as_ref() {
            return Ok(node.clone());
        }
        let chain = name.to_ascii_lowercase();
        let node = match external_node(&chain) {
            Some(url) => attach(url).await,
            None => start().await,
        }
        .map_err(|e| {
            DeskError::new(
                ErrorKind::Sandbox,
                format!(
                    "The Sandbox's local {name} chain could not start ({e}). Run `cargo xtask setup`, then try again."
                ),
            )
        })?;
        info!(chain, url = url_of(&node), "Sandbox chain started");
        self.sim_chains.set(&chain, url_of(&node));
        let node = Arc::new(node);
        *held = Some(node.clone());
        Ok(node)
    }

    /// The Tron node, with `address` funded on it once (1,000 TRX and the catalogue's TRC-20 tokens).
    pub async fn funded_tron(&self, address: &str) -> Result<Arc<TronNode>, DeskError> {
        let node = self.tron_node().await?;
        self.fund_once(
            ("tron".to_owned(), address.to_owned()),
            node.fund_sandbox_wallet(address),
        )
        .await?;
        Ok(node)
    }

    /// The URL of `chain`'s node (an EVM chain, `solana` or `tron`), started on first use; with `owner`, that address
    /// funded on it once.
    pub async fn url_for(&self, chain: &str, owner: Option<&str>) -> Result<String, DeskError> {
        Ok(match (chain, owner) {
            ("solana", Some(owner)) => self.funded_solana(owner).await?.url().to_owned(),
            ("solana", None) => self.solana_node().await?.url().to_owned(),
            ("tron", Some(owner)) => self.funded_tron(owner).await?.url().to_owned(),
            ("tron", None) => self.tron_node().await?.url().to_owned(),
            (_, Some(owner)) => self.funded_node(chain, owner).await?.url().to_owned(),
            (_, None) => self.node(chain).await?.url().to_owned(),
        })
    }

    /// Runs `fund` the first time `key` (chain, address) is seen; after a failure it is tried again next time.
    async fn fund_once<E: std::fmt::Display>(
        &self,
        key: (String, String),
        fund: impl std::future::Future<Output = Result<(), E>>,
    ) -> Result<(), DeskError> {
        let first = self
            .funded
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(key.clone());
        if first && let Err(e) = fund.await {
            self.funded
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .remove(&key);
            return Err(DeskError::new(
                ErrorKind::Sandbox,
                format!(
                    "The Sandbox could not fund {} on {} ({e}). Try again.",
                    key.1, key.0
                ),
            ));
        }
        Ok(())
    }

    /// The node of `chain`, with `address` funded on it once (test coins and tokens).
    pub async fn funded_node(&self, chain: &str, address: &str) -> Result<Arc<EvmNode>, DeskError> {
        let node = self.node(chain).await?;
        self.fund_once(
            (chain.to_owned(), address.to_ascii_lowercase()),
            node.fund_sandbox_wallet(address),
        )
        .await?;
        Ok(node)
    }
}

impl ActiveNetwork {
    /// Connects to `kind`, whose Bitcoin network is `bitcoin` (the Sandbox's is always regtest): for the Sandbox
    /// this starts gateway-sim on a free loopback port, keeping its orders in `sandbox_state` when given.
    pub async fn connect(
        kind: NetworkKind,
        custom_url: Option<&str>,
        version: ApiVersion,
        api_key: Option<ApiKey>,
        sandbox_state: Option<&Path>,
        sandbox_admin: bool,
        bitcoin: BitcoinNetwork,
    ) -> Result<Self, DeskError> {
        let bitcoin = if kind == NetworkKind::Sandbox {
            BitcoinNetwork::Regtest
        } else {
            bitcoin
        };
        let sandbox_chains = (kind == NetworkKind::Sandbox).then(SandboxChains::default);
        let (base_url, sandbox) = match kind {
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
                let running =
                    sandbox_sim(sandbox_state, sandbox_admin, api_key.as_ref(), sandbox_chains.as_ref().map(|c| c.sim_chains.clone()).unwrap_or_default()).spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0))).await.map_err(|e| {
                        DeskError::new(
                            ErrorKind::Sandbox,
                            format!("The Sandbox gateway could not start ({e}). Restart the app, or choose another network."),
                        )
                    })?;
                let url = Url::parse(&running.base_url()).expect("a socket address makes a URL");
                (url, Some(running))
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
        Ok(Self {
            kind,
            client,
            bitcoin,
            sandbox,
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
            let _ = sim.shutdown().await;
        }
    }
}

/// The mark on everything the Sandbox shows or writes (every view, the signing step, QR captions, support bundles):
/// it is simulated, and no real money moves.
pub const SANDBOX_MARK: &str = "Sandbox — simulated, no real money moves";

/// How the names of files the Sandbox's orders export begin (PSBTs, support bundles).
pub const SANDBOX_FILE_PREFIX: &str = "sandbox-SIMULATED-";

/// The Sandbox's gateway, its orders kept in `state` (when given). A state file that cannot be read is set aside
/// (renamed, never overwritten) and the Sandbox starts empty: a sandbox must not keep the app from starting.
fn sandbox_sim(
    state: Option<&Path>,
    admin: bool,
    key: Option<&ApiKey>,
    evm_chains: EvmChains,
) -> Sim {
    // The Sandbox accepts the key stored for it, so a partner can try their key's flow without a real gateway.
    let access = gateway_sim::access::AccessConfig {
        keys: key.map(|k| vec![k.expose().to_owned()]).unwrap_or_default(),
        ..gateway_sim::access::AccessConfig::default()
    };
    // Regtest: the Sandbox's deposit addresses, PSBTs and QR codes can never be paid with real money.
    let config = |state_file: Option<PathBuf>| SimConfig {
        state_file,
        admin,
        access: access.clone(),
        network: BitcoinNetwork::Regtest,
        evm_chains: evm_chains.clone(),
        ..SimConfig::default()
    };
    match Sim::with_config(config(state.map(Path::to_path_buf))) {
        Ok(sim) => sim,
        Err(e) => {
            let aside = state.map(crate::settings::set_aside);
            warn!(error = %e, aside = ?aside, "the Sandbox's saved state was set aside; starting empty");
            Sim::with_config(config(state.map(Path::to_path_buf))).unwrap_or_default()
        }
    }
}

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
