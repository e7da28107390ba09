//! The embedded Sandbox: gateway-sim on a free loopback port with its local chains (anvil per EVM chain, LiteSVM for
//! Solana, the Tron HTTP API over an EVM), handed to desk-core through its port ([`desk_core::sandbox`]).
//!
//! The app depends on this crate and desk-core's tests use it; desk-core itself and the `gateway` command line's
//! default build do not compile the simulated server.

#![warn(missing_docs)]

use std::collections::BTreeMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use desk_core::sandbox::{
    BoxFuture, ClockMoved, LocalChains, LocalClock, LocalGateway, RunningGateway, SandboxError,
    SandboxStart,
};
use gateway_client::ApiKey;
use gateway_client::address::{BitcoinNetwork, chain_family, same_account};
use gateway_sim::chain_node::ChainNodes;
use gateway_sim::local_chain::{self, RunningNode};
use gateway_sim::{RunningSim, Sim, SimConfig};
use tracing::{info, warn};
use url::Url;

/// The embedded Sandbox, as desk-core's [`LocalGateway`].
#[derive(Debug, Clone, Copy, Default)]
pub struct EmbeddedSandbox;

impl EmbeddedSandbox {
    /// The port, ready for [`desk_core::DeskOptions::sandbox`].
    pub fn port() -> Arc<dyn LocalGateway> {
        Arc::new(Self)
    }
}

impl LocalGateway for EmbeddedSandbox {
    fn start(
        &self,
        how: SandboxStart,
    ) -> BoxFuture<'_, Result<Box<dyn RunningGateway>, SandboxError>> {
        Box::pin(async move {
            let chains = SandboxChains::default();
            let sim = sandbox_sim(
                how.state_file.as_deref(),
                how.admin,
                how.api_key.as_ref(),
                chains.sim_chains.clone(),
                how.production_shape,
            );
            // The chains deliver what the gateway's finished orders owe there when they start.
            let _ = chains.sim.set(sim.clone());
            let running = sim
                .clone()
                .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
            .await
            .map_err(|e| {
                SandboxError(
                    format!(
                        "The Sandbox gateway could not start ({e}). Restart the app, or choose another network."
                    ),
                )
            })?;
            let base_url = Url::parse(&running.base_url()).expect("a socket address makes a URL");
            Ok(Box::new(Running {
                sim: Some(running),
                gateway: sim,
                base_url,
                chains: Arc::new(chains),
            }) as Box<dyn RunningGateway>)
        })
    }
}

/// gateway-sim serving, with its chains.
#[derive(Debug)]
struct Running {
    sim: Option<RunningSim>,
    /// The gateway itself (its clock and book), shared with the server.
    gateway: Sim,
    base_url: Url,
    chains: Arc<SandboxChains>,
}

impl RunningGateway for Running {
    fn base_url(&self) -> Url {
        self.base_url.clone()
    }

    fn chains(&self) -> Arc<dyn LocalChains> {
        self.chains.clone()
    }

    fn clock(&self) -> BoxFuture<'static, Result<LocalClock, SandboxError>> {
        let sim = self.gateway.clone();
        Box::pin(async move { Ok(local_clock(sim.read_clock().await)) })
    }

    fn advance_clock(&self, secs: u64) -> BoxFuture<'static, Result<ClockMoved, SandboxError>> {
        let sim = self.gateway.clone();
        Box::pin(async move {
            let moved = sim.advance_clock(secs).await;
            Ok(ClockMoved {
                moved_secs: moved.moved_secs,
                finished: count(moved.finished),
                expired: count(moved.expired),
                delivered: count(moved.delivered),
                after: local_clock(moved.after),
            })
        })
    }

    fn stop(mut self: Box<Self>) -> BoxFuture<'static, ()> {
        let sim = self.sim.take();
        Box::pin(async move {
            if let Some(sim) = sim {
                let _ = sim.shutdown().await;
            }
        })
    }
}

fn count(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

fn local_clock(reading: gateway_sim::ClockReading) -> LocalClock {
    LocalClock {
        now: reading.now,
        advanced_secs: reading.advanced_secs,
        pending: count(reading.pending),
        finish_in_secs: reading.finish_in_secs,
        awaiting_payment: count(reading.awaiting_payment),
        undelivered: count(reading.undelivered),
    }
}

impl LocalChains for SandboxChains {
    fn url_for<'a>(
        &'a self,
        chain: &'a str,
        owner: Option<&'a str>,
    ) -> BoxFuture<'a, Result<String, SandboxError>> {
        Box::pin(SandboxChains::url_for(self, chain, owner))
    }

    fn ready_before_order<'a>(
        &'a self,
        source_chain: &'a str,
    ) -> BoxFuture<'a, Result<(), SandboxError>> {
        Box::pin(async move {
            // Some chains' nodes run before an order from them is created: the gateway builds the order's transaction
            // on the chain's latest state, or checks its registered transaction there (LocalChain::runs_before_order).
            if local_chain::of(source_chain).is_some_and(|c| c.runs_before_order()) {
                SandboxChains::url_for(self, source_chain, None).await?;
            }
            Ok(())
        })
    }
}

/// The environment variable naming nodes the Sandbox uses instead of starting its own
/// (`bob=http://127.0.0.1:8545,solana=…`): for tests whose nodes must outlive the process under test.
pub const SANDBOX_NODES_ENV: &str = "GATEWAY_DESK_SANDBOX_NODES";

/// The Sandbox's chains: a real node per chain (anvil per EVM chain with the Sandbox's gateway contract and test
/// tokens placed, LiteSVM for Solana, the Tron HTTP API over an EVM), each started when its chain is first used, by
/// its family's [`LocalChain`](local_chain::LocalChain); the embedded gateway checks registered transactions on them.
#[derive(Debug, Clone, Default)]
pub struct SandboxChains {
    nodes: Arc<tokio::sync::Mutex<BTreeMap<String, NodeSlot>>>,
    /// The addresses funded on each chain.
    funded: Arc<std::sync::Mutex<BTreeMap<String, Vec<String>>>>,
    sim_chains: ChainNodes,
    /// The gateway whose finished orders' outputs are delivered on these chains (set once it is made).
    sim: Arc<OnceLock<Sim>>,
}

/// A chain's node once it has started (a failed start leaves it empty, to be tried again).
type NodeSlot = Arc<tokio::sync::OnceCell<Arc<dyn RunningNode>>>;

/// The URL [`SANDBOX_NODES_ENV`] names for `chain`, if any.
fn external_node(chain: &str) -> Option<String> {
    std::env::var(SANDBOX_NODES_ENV).ok().and_then(|all| {
        all.split(',')
            .filter_map(|pair| pair.split_once('='))
            .find(|(c, _)| c.trim() == chain)
            .map(|(_, url)| url.trim().to_owned())
    })
}

impl SandboxChains {
    /// The node of `chain`, started (or attached, see [`SANDBOX_NODES_ENV`]) on first use by its family's
    /// [`LocalChain`](local_chain::LocalChain), and named to the embedded gateway.
    pub async fn node(&self, chain: &str) -> Result<Arc<dyn RunningNode>, SandboxError> {
        // Each chain has its own slot, so one chain's node starting keeps no other chain waiting.
        let slot = self
            .nodes
            .lock()
            .await
            .entry(chain.to_owned())
            .or_default()
            .clone();
        slot.get_or_try_init(|| self.start(chain)).await.cloned()
    }

    async fn start(&self, chain: &str) -> Result<Arc<dyn RunningNode>, SandboxError> {
        let name = gateway_client::chains::chain_name(chain);
        let local = local_chain::of(chain).ok_or_else(|| {
            SandboxError(format!(
                "The Sandbox runs no local {name} chain. Choose another chain."
            ))
        })?;
        let node = match external_node(chain) {
            // A node named from outside holds what the Sandbox places already (its owner placed it).
            Some(url) => local.attach_node(chain, &url, false).await,
            None => local.start_node(chain).await,
        }
        .map_err(|e| {
            SandboxError(format!(
                "The Sandbox's local {name} chain could not start ({e}). Run `cargo xtask setup`, then try again."
            ))
        })?;
        info!(chain, url = node.url(), "Sandbox chain started");
        self.sim_chains.set(chain, node.url());
        Ok(Arc::from(node))
    }

    /// The node of `chain`, with `address` funded on it once (test coins and tokens; see
    /// [`RunningNode::fund_sandbox_wallet`]); after a failure it is tried again next time.
    pub async fn funded_node(
        &self,
        chain: &str,
        address: &str,
    ) -> Result<Arc<dyn RunningNode>, SandboxError> {
        let node = self.node(chain).await?;
        let family = chain_family(chain);
        // One account has several spellings on some chains (an EVM address in any case): compared as accounts.
        let same = |a: &String| family.is_some_and(|f| same_account(f, a, address)) || a == address;
        let first = {
            let mut funded = self
                .funded
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let on_chain = funded.entry(chain.to_owned()).or_default();
            let first = !on_chain.iter().any(same);
            if first {
                on_chain.push(address.to_owned());
            }
            first
        };
        if first && let Err(e) = node.fund_sandbox_wallet(address).await {
            if let Some(on_chain) = self
                .funded
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .get_mut(chain)
            {
                on_chain.retain(|a| !same(a));
            }
            return Err(SandboxError(format!(
                "The Sandbox could not fund {address} on {chain} ({e}). Try again."
            )));
        }
        Ok(node)
    }

    /// The URL of `chain`'s node, started on first use; with `owner`, that address funded on it once. Then what the
    /// gateway's finished orders owe on the chain is delivered there (after the funding, which sets a native balance
    /// rather than adding to it), so a balance read next shows it.
    pub async fn url_for(&self, chain: &str, owner: Option<&str>) -> Result<String, SandboxError> {
        let node = match owner {
            Some(owner) => self.funded_node(chain, owner).await?,
            None => self.node(chain).await?,
        };
        if let Some(sim) = self.sim.get() {
            sim.deliver_owed().await;
        }
        Ok(node.url().to_owned())
    }
}

/// The Sandbox's gateway, its orders kept in `state` (when given). A state file that cannot be read is set aside
/// (renamed, never overwritten) and the Sandbox starts empty: a sandbox must not keep the app from starting.
fn sandbox_sim(
    state: Option<&Path>,
    admin: bool,
    key: Option<&ApiKey>,
    chain_nodes: ChainNodes,
    production_shape: bool,
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
        chain_nodes: chain_nodes.clone(),
        production_shape,
        ..SimConfig::default()
    };
    match Sim::with_config(config(state.map(Path::to_path_buf))) {
        Ok(sim) => sim,
        Err(e) => {
            let aside = state.map(desk_core::settings::set_aside);
            warn!(error = %e, aside = ?aside, "the Sandbox's saved state was set aside; starting empty");
            Sim::with_config(config(state.map(Path::to_path_buf))).unwrap_or_default()
        }
    }
}

/// Opens a [`desk_core::Desk`] on `paths` with the embedded Sandbox and `options` otherwise (the app's way, and the
/// tests').
pub async fn open_desk_with(
    paths: desk_core::AppPaths,
    options: desk_core::DeskOptions,
) -> Result<desk_core::Desk, desk_core::DeskError> {
    desk_core::Desk::open_with(
        paths,
        desk_core::DeskOptions {
            sandbox: Some(EmbeddedSandbox::port()),
            ..options
        },
    )
    .await
}

/// [`open_desk_with`] with the default options.
pub async fn open_desk(
    paths: desk_core::AppPaths,
) -> Result<desk_core::Desk, desk_core::DeskError> {
    open_desk_with(paths, desk_core::DeskOptions::default()).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use gateway_client::wire::RegisterTx;
    use gateway_client::{ApiVersion, Client, ClientConfig, QuoteRequest};
    use gateway_sim::evm_node::EvmNode;

    const USDT_BOB: &str = "0x05D032ac25d322df992303dCa074EE7392C117b9";
    const USDT_ETH: &str = "0xdac17f958d2ee523a2206206994597c13d831ec7";
    const EVM: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    const OWNER: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";

    /// A token swap to Ethereum that finishes while the Sandbox's Ethereum node has not started: its output waits,
    /// and arrives when the app first reaches that chain (which starts its node), once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_output_owed_on_a_chain_not_started_arrives_when_the_app_reaches_it() {
        let running = EmbeddedSandbox
            .start(SandboxStart::default())
            .await
            .unwrap();
        let mut config = ClientConfig::new(running.base_url());
        config.version = ApiVersion::V3;
        let client = Client::new(config).unwrap();
        let mut request =
            QuoteRequest::new(("bob", USDT_BOB), ("ethereum", USDT_ETH), "50000123", EVM);
        request.slippage_bps = 100;
        request.owner_address = Some(OWNER.into());
        let quote = client.get_quote(&request).await.unwrap().value;
        let output = quote.view().output_amount().amount.clone();
        let id = client
            .create_order(&quote)
            .await
            .unwrap()
            .value
            .order_id()
            .to_owned();
        // BOB's node has not started either: the hash is checked by its shape.
        let hash = format!("0x{}", "ab".repeat(32));
        client
            .register_tx(&RegisterTx::token_swap(&id, hash, "bob"))
            .await
            .unwrap();

        let clock = running.clock().await.unwrap();
        assert_eq!(clock.pending, 1);
        let moved = running.advance_clock(clock.finish_in_secs).await.unwrap();
        assert_eq!(
            (moved.finished, moved.delivered, moved.after.undelivered),
            (1, 0, 1)
        );

        let url = running.chains().url_for("ethereum", None).await.unwrap();
        let node = EvmNode::attach("ethereum", &url).await.unwrap();
        let held = || async { node.token_balance(USDT_ETH, EVM).await.unwrap().to_string() };
        assert_eq!(held().await, output);
        assert_eq!(running.clock().await.unwrap().undelivered, 0);
        running.chains().url_for("ethereum", None).await.unwrap();
        running.advance_clock(600).await.unwrap();
        assert_eq!(held().await, output, "once");
        running.stop().await;
    }
}
