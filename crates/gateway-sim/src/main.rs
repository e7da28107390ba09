//! `gateway-sim --listen 127.0.0.1:PORT`: the simulated gateway as a stand-alone server; with `--chain` or `--node`,
//! with local chains on which it checks registered transactions, as the app's Sandbox does.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use gateway_client::address::BitcoinNetwork;
use gateway_sim::access::{AccessConfig, DEFAULT_KEYED_PER_MINUTE, DEFAULT_KEYLESS_PER_MINUTE};
use gateway_sim::{Sim, SimConfig};
use tracing_subscriber::EnvFilter;

/// The Bitcoin network of the deposit addresses and transactions.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum Network {
    Mainnet,
    Testnet,
    Signet,
    Regtest,
}

impl From<Network> for BitcoinNetwork {
    fn from(network: Network) -> Self {
        match network {
            Network::Mainnet => Self::Mainnet,
            Network::Testnet => Self::Testnet,
            Network::Signet => Self::Signet,
            Network::Regtest => Self::Regtest,
        }
    }
}

/// A local gateway that implements the gateway interface (V1, V2, V3) for testing and the Sandbox network.
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// The address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:8787")]
    listen: SocketAddr,
    /// The Bitcoin network of deposit addresses, PSBTs and accepted sender addresses.
    #[arg(long, value_enum, default_value_t = Network::Mainnet)]
    network: Network,
    /// An API key to accept (exactly 32 characters); repeat for more. Comma-separated in the environment.
    #[arg(
        long = "api-key",
        env = "GATEWAY_SIM_API_KEYS",
        value_delimiter = ',',
        hide_env_values = true
    )]
    api_keys: Vec<String>,
    /// Requests per minute for each keyless caller (by IP address); 0 for no limit.
    #[arg(long, default_value_t = DEFAULT_KEYLESS_PER_MINUTE)]
    keyless_per_minute: u32,
    /// Requests per minute for each API key; 0 for no limit.
    #[arg(long, default_value_t = DEFAULT_KEYED_PER_MINUTE)]
    keyed_per_minute: u32,
    /// Serve the admin interface (/admin/clock, /admin/liquidity, /admin/faults) to loopback callers. Refused
    /// unless --listen is a loopback address.
    #[arg(long)]
    admin: bool,
    /// Keep orders (and the signing key) in this file across restarts.
    #[arg(long)]
    state_file: Option<PathBuf>,
    /// Start a local node for CHAIN (a chain of the catalogue but `bitcoin`: an EVM chain such as `bob`, or `solana`,
    /// or `tron`) as the app's Sandbox does: anvil with the Sandbox's contracts and tokens, LiteSVM, or the Tron
    /// stand-in. Then a registered transaction of that chain must be on it, the order's own call, or register-tx
    /// refuses it. Repeat for more.
    #[arg(long = "chain", value_name = "CHAIN")]
    chains: Vec<String>,
    /// The same with a node already running at URL (`bob=http://127.0.0.1:8545`); an EVM node gets the Sandbox's
    /// contracts and tokens placed on it. Repeat for more.
    #[arg(long = "node", value_name = "CHAIN=URL", value_parser = parse_node)]
    nodes: Vec<(String, String)>,
    /// Orders from EVM chains and Tron take the real service's shape: the quote's txTo is each chain's published
    /// entry contract (an AllowanceHolder, placed on the local nodes at its real address) and create-order answers
    /// with its exec, which lets the gateway contract pull the amount during the call.
    #[arg(long)]
    production_shape: bool,
}

/// `CHAIN=URL`.
fn parse_node(text: &str) -> Result<(String, String), String> {
    let (chain, url) = text
        .split_once('=')
        .ok_or_else(|| format!("{text:?} is not CHAIN=URL (such as bob=http://127.0.0.1:8545)"))?;
    Ok((chain.trim().to_owned(), url.trim().to_owned()))
}

/// Starts `chain`'s node by its family's local chain (`url`: attaches to the one running there instead, with the
/// Sandbox's contracts and tokens placed on it); a started one stops with the process.
async fn open_node(
    chain: &str,
    url: Option<&str>,
) -> Result<Box<dyn gateway_sim::local_chain::RunningNode>, String> {
    let local = gateway_sim::local_chain::of(chain)
        .ok_or_else(|| format!("{chain} is not a chain whose node gateway-sim runs"))?;
    match url {
        None => local.start_node(chain).await,
        Some(url) => local.attach_node(chain, url, true).await,
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
    let args = Args::parse();
    if args.admin && !args.listen.ip().is_loopback() {
        eprintln!(
            "gateway-sim: --admin is only allowed on a loopback address (127.0.0.1 or ::1), not {}",
            args.listen.ip()
        );
        return ExitCode::from(2);
    }
    let config = SimConfig {
        network: args.network.into(),
        access: AccessConfig {
            keys: args.api_keys,
            keyless_per_minute: args.keyless_per_minute,
            keyed_per_minute: args.keyed_per_minute,
        },
        admin: args.admin,
        state_file: args.state_file,
        production_shape: args.production_shape,
        ..SimConfig::default()
    };
    // The chains, before the server listens: each is named to the sim, which checks registered transactions on it.
    let mut nodes = Vec::new();
    let wanted = args
        .chains
        .iter()
        .map(|chain| (chain.clone(), None))
        .chain(args.nodes.iter().map(|(c, u)| (c.clone(), Some(u.clone()))));
    for (chain, url) in wanted {
        match open_node(&chain, url.as_deref()).await {
            Ok(node) => {
                config.chain_nodes.set(&chain, node.url());
                nodes.push((chain, node));
            }
            Err(e) => {
                eprintln!("gateway-sim: the {chain} chain could not start: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let sim = match Sim::with_config(config) {
        Ok(sim) => sim,
        Err(e) => {
            eprintln!("gateway-sim: {e}");
            return ExitCode::from(2);
        }
    };
    let listener = match tokio::net::TcpListener::bind(args.listen).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("gateway-sim: cannot listen on {}: {e}", args.listen);
            return ExitCode::from(2);
        }
    };
    match listener.local_addr() {
        Ok(addr) => println!("gateway-sim listening on http://{addr}"),
        Err(e) => eprintln!("gateway-sim: {e}"),
    }
    for (chain, node) in &nodes {
        println!("gateway-sim chain {chain} on {}", node.url());
    }
    let served = sim
        .serve(listener, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await;
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gateway-sim: {e}");
            ExitCode::FAILURE
        }
    }
}
