//! `gateway`: the gateway's six endpoints from a terminal, for support staff and scripts, plus an order lookup on
//! any network and the reading of Gateway Desk support bundles.
//!
//! Exit status: 0 success; 2 usage or validation error (nothing was sent), or an unreadable support bundle; 3 the
//! gateway answered with an error; 4 transport failure.

mod swap;
mod view;
mod wallet;

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use desk_core::DeskError;
use desk_core::error::ErrorKind;
use gateway_client::address::{BitcoinNetwork, validate_address};
use gateway_client::params::parse_affiliates;
use gateway_client::txhash::{
    validate_bitcoin_tx_hex, validate_bitcoin_txid, validate_src_tx_hash,
};
use gateway_client::wire::{Quote, RegisterTx};
use gateway_client::{
    ApiKey, ApiVersion, Client, ClientConfig, ClientError, QuoteRequest, deployments,
};
use serde_json::Value;
use url::Url;

/// The environment variable that holds the API key (never a command-line flag: it would show in process lists).
const API_KEY_ENV: &str = "GATEWAY_API_KEY";

#[derive(Debug, Parser)]
#[command(
    name = "gateway",
    version,
    about = "Talk to a cross-chain swap gateway (V4, V3, V2, V1)."
)]
#[command(after_help = "The API key, if any, is read from GATEWAY_API_KEY.\n\
    Exit status: 0 success, 2 usage or validation error (nothing sent) or an unreadable bundle, 3 gateway error, \
    4 transport failure, 5 refused by the app's checks (a quote that is not what was asked, or a transaction that is \
    not the quote's: nothing to sign is printed).")]
struct Cli {
    /// production, staging, a gateway's base URL, or sandbox (the Sandbox inside the command, in a build with the
    /// `sandbox` feature)
    #[arg(long, global = true, default_value = "production")]
    network: String,
    /// The API version: v4 (the service's current), v3, or v2 and v1 (removed from the published service; a gateway of
    /// one's own or the Sandbox may still serve them)
    #[arg(long, global = true, default_value = "v4", value_parser = parse_version)]
    api_version: ApiVersion,
    /// Print the gateway's answer as received (pretty-printed JSON; `lookup`: the body exactly; `bundle`: the file)
    #[arg(long, global = true)]
    json: bool,
    /// The Bitcoin network addresses and transactions are checked against
    #[arg(long, global = true, value_enum, default_value = "mainnet")]
    bitcoin_network: BtcNet,
    /// The gateway is a Gateway Desk Sandbox (gateway-sim): its contracts are pinned and its fee rate is the ceiling's
    /// basis, as in the app
    #[arg(long, global = true)]
    sandbox: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum BtcNet {
    Mainnet,
    Testnet,
    Signet,
    Regtest,
}

impl From<BtcNet> for BitcoinNetwork {
    fn from(net: BtcNet) -> Self {
        match net {
            BtcNet::Mainnet => BitcoinNetwork::Mainnet,
            BtcNet::Testnet => BitcoinNetwork::Testnet,
            BtcNet::Signet => BitcoinNetwork::Signet,
            BtcNet::Regtest => BitcoinNetwork::Regtest,
        }
    }
}

fn parse_version(text: &str) -> Result<ApiVersion, String> {
    text.parse()
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Every supported route
    Routes,
    /// Ask for a quote
    Quote(QuoteArgs),
    /// Create an order from a quote printed by `gateway --json quote` (from FILE or standard input), and check what
    /// the gateway asks to be signed against the quote
    CreateOrder {
        #[arg(long, value_name = "FILE")]
        quote: Option<PathBuf>,
        /// Let a call the app cannot decode through, marked NOT CHECKED, instead of refusing it
        #[arg(long)]
        blind_signing: bool,
        /// Accept a PSBT network fee of up to this many sats, when it is above 2 % of the amount
        #[arg(long, value_name = "SATS")]
        accept_fee: Option<u64>,
        /// Where the Bitcoin fast fee rate is read (`…/api/v1/fees/recommended`; "" for none): by default
        /// mempool.space's for --bitcoin-network, none with --sandbox
        #[arg(long, value_name = "URL")]
        fee_source: Option<String>,
    },
    /// Hand the gateway the signed transaction of an order
    RegisterTx(RegisterArgs),
    /// One order, by order id, source Bitcoin txid or source transaction hash
    Order { id: String },
    /// The orders of an address
    Orders {
        address: String,
        #[arg(long)]
        cursor: Option<String>,
        #[arg(long)]
        limit: Option<u32>,
        /// Walk every page to the end
        #[arg(long, conflicts_with = "cursor")]
        all: bool,
    },
    /// What a deposit from a Bitcoin address can pay now, after the network fee (the gateway's get-max-spendable)
    MaxSpendable {
        /// A Bitcoin address of the gateway's network (see --bitcoin-network)
        address: String,
    },
    /// Look up an order id, source Bitcoin txid, source transaction hash, or every order of an address, with what
    /// each status means and what to do next
    Lookup {
        /// An order id, a txid or transaction hash, or an address
        query: String,
    },
    /// The app's wallet: create, import, its addresses and its Bitcoin balance (keys from the keychain or
    /// GATEWAY_MNEMONIC, never from an argument)
    Wallet {
        #[command(subcommand)]
        command: wallet::WalletCommand,
    },
    /// A whole swap with the app's wallet on desk-core's engine: quote, confirm, create, approve, sign, broadcast,
    /// register, and follow it to the end. Sender, recipient and owner default to the wallet's addresses; keys from
    /// GATEWAY_MNEMONIC or the keychain. `--network sandbox` runs the Sandbox (simulator and local chains) inside
    Swap(swap::SwapArgs),
    /// Read a Gateway Desk support bundle: where it was made, the order's timeline, its events and log lines
    Bundle {
        /// The bundle's .json file (`-` for standard input)
        file: PathBuf,
    },
}

/// The route and amount, as `quote` and `swap` both take them.
#[derive(Debug, Args)]
pub(crate) struct RouteFlags {
    #[arg(long)]
    pub src_chain: String,
    #[arg(long)]
    pub src_token: String,
    #[arg(long)]
    pub dst_chain: String,
    #[arg(long)]
    pub dst_token: String,
    /// In the smallest unit of the source token (sats, wei, ...)
    #[arg(long)]
    pub amount: String,
    /// Slippage tolerance in basis points (100 = 1%); by default the route's: 50 where both tokens hold the same value
    /// (BTC and WBTC, two dollar stablecoins), 100 otherwise and on every cross-chain token swap
    #[arg(long)]
    pub slippage: Option<u32>,
}

impl RouteFlags {
    /// The slippage asked for, or the route's default (`RouteKind::default_slippage_bps`).
    pub fn slippage_bps(&self) -> u32 {
        self.slippage.unwrap_or_else(|| {
            let registry = gateway_client::TokenRegistry::builtin();
            let symbol =
                |chain: &str, token: &str| registry.get(chain, token).map(|t| t.symbol.clone());
            let (src, dst) = (
                symbol(&self.src_chain, &self.src_token),
                symbol(&self.dst_chain, &self.dst_token),
            );
            gateway_client::wire::RouteKind::between(&self.src_chain, &self.dst_chain)
                .default_slippage_bps(src.as_deref(), dst.as_deref())
        })
    }
}

#[derive(Debug, Args)]
struct QuoteArgs {
    #[command(flatten)]
    route: RouteFlags,
    #[arg(long)]
    recipient: String,
    #[arg(long)]
    sender: Option<String>,
    /// Comma-separated address:bps entries (V2, V3)
    #[arg(long)]
    affiliates: Option<String>,
    /// The single affiliate id of V1
    #[arg(long)]
    affiliate_id: Option<String>,
    /// V3: the EVM owner and refund claimant (V4 has none)
    #[arg(long)]
    owner: Option<String>,
    /// V4: the address on the source chain a refund goes to (default: --sender; create-order needs one).
    /// V3: the Bitcoin refund address of an onramp
    #[arg(long)]
    refund_address: Option<String>,
    /// Accept a loss (what is received below what is sent) of up to this many percent, when it is above 5 %
    #[arg(long, value_name = "PERCENT")]
    accept_loss: Option<String>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
#[value(rename_all = "camelCase")]
enum RouteArg {
    Onramp,
    Offramp,
    TokenSwap,
}

#[derive(Debug, Args)]
struct RegisterArgs {
    #[arg(long)]
    order_id: String,
    #[arg(long, value_enum)]
    route: RouteArg,
    /// The signed Bitcoin transaction (onramp); the gateway broadcasts it
    #[arg(long, conflicts_with_all = ["src_tx_hash", "src_chain"])]
    bitcoin_tx_hex: Option<String>,
    /// The txid of a Bitcoin transaction already broadcast (onramp)
    #[arg(long, conflicts_with_all = ["src_tx_hash", "src_chain"])]
    bitcoin_txid: Option<String>,
    /// The hash of the source transaction (offramp, tokenSwap)
    #[arg(long, requires = "src_chain")]
    src_tx_hash: Option<String>,
    /// The chain the source transaction was broadcast on
    #[arg(long, requires = "src_tx_hash")]
    src_chain: Option<String>,
}

/// Why the command failed, and so its exit status.
enum Failure {
    /// Nothing was sent.
    Usage(String),
    Client(Box<ClientError>),
    /// desk-core's answer (a lookup, a bundle), already a sentence with the next step.
    Desk(Box<DeskError>),
    /// The app's checks refused what the gateway answered: a sentence; nothing to sign was printed.
    Refused(String),
}

impl From<DeskError> for Failure {
    fn from(err: DeskError) -> Self {
        Failure::Desk(Box::new(err))
    }
}

impl From<ClientError> for Failure {
    fn from(err: ClientError) -> Self {
        match err {
            ClientError::Invalid(e) => Failure::Usage(e.to_string()),
            // The answer contradicts the quote: a refusal like the app's own checks, nothing to sign.
            ClientError::Mismatch(m) => Failure::Refused(m),
            other => Failure::Client(Box::new(other)),
        }
    }
}

/// Output into a closed pipe (`gateway routes | head -1`) ends the command as it ends any Unix tool: killed by SIGPIPE,
/// quietly, with the shell's status for it (141). Rust ignores SIGPIPE by default, so that every `println!` after the
/// reader left would panic ("failed printing to stdout: Broken pipe") instead.
///
/// Sockets are unaffected: the standard library and tokio send on them with `MSG_NOSIGNAL`. The only pipes this
/// process writes are its standard output and error (the Sandbox's children are given pipes it never writes).
#[cfg(unix)]
#[allow(unsafe_code)]
fn end_quietly_on_a_closed_pipe() {
    // SAFETY: called first thing in `main`, before any other thread exists; it sets the disposition of one signal to
    // its default, which involves no handler code and no memory of this program.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    #[cfg(unix)]
    end_quietly_on_a_closed_pipe();
    let cli = Cli::parse();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            eprintln!("gateway: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Refused(message)) => {
            eprintln!("gateway: refused: {message}");
            ExitCode::from(5)
        }
        Err(Failure::Desk(err)) => {
            eprintln!("gateway: {}", err.message);
            // A gateway's refusal carries its code and details; desk-core's own field markers are not for people.
            if let Some(code) = &err.code {
                eprintln!("code: {code}");
                // As the gateway sent them, not the window's typed form.
                if let Some(details) = err.details.as_deref().and_then(|d| d.as_sent()) {
                    eprintln!("details: {details}");
                }
            }
            ExitCode::from(match err.kind {
                ErrorKind::Gateway | ErrorKind::NotFound | ErrorKind::Refused => 3,
                ErrorKind::Transport | ErrorKind::RateLimited => 4,
                _ => 2,
            })
        }
        Err(Failure::Client(err)) => {
            let status = match err.as_ref() {
                ClientError::Gateway { body, .. } => {
                    eprintln!("gateway: the gateway refused: {} {}", body.code, body.error);
                    if let Some(details) = &body.details {
                        eprintln!("details: {details}");
                    }
                    eprintln!("next step: {}", body.code.next_step());
                    3
                }
                ClientError::NotFound => {
                    eprintln!("gateway: the gateway found nothing by that identifier (HTTP 404)");
                    3
                }
                other => {
                    eprintln!("gateway: {other}");
                    4
                }
            };
            ExitCode::from(status)
        }
    }
}

fn base_url(network: &str) -> Result<Url, Failure> {
    let text = match network {
        "production" => deployments::PRODUCTION,
        "staging" => deployments::STAGING,
        url => url,
    };
    let url = Url::parse(text).map_err(|e| {
        Failure::Usage(format!(
            "--network {network:?} is neither production, staging, sandbox nor a URL: {}",
            desk_core::network::url_problem(e)
        ))
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(Failure::Usage(format!(
            "--network {network:?} must be an http:// or https:// URL"
        )));
    }
    Ok(url)
}

/// The journal's name of `--network`: `production`, `staging`, `sandbox` or `custom:<url>` (as Gateway Desk writes it).
fn network_key(network: &str, url: &Url) -> String {
    match network {
        "production" | "staging" | "sandbox" => network.to_owned(),
        _ => format!("custom:{}", url.as_str().trim_end_matches('/')),
    }
}

fn client(cli: &Cli, base: Url) -> Result<Client, Failure> {
    let mut config = ClientConfig::new(base);
    config.version = cli.api_version;
    if let Some(key) = std::env::var(API_KEY_ENV).ok().filter(|k| !k.is_empty()) {
        config.api_key =
            Some(ApiKey::new(&key).map_err(|e| Failure::Usage(format!("{API_KEY_ENV}: {e}")))?);
    }
    Ok(Client::new(config)?)
}

/// A percentage such as `7.5` or `12.25`, in bps.
fn percent_bps(text: &str) -> Option<u32> {
    // A percentage is a number with two decimals of bps: the client's exact decimal reader.
    let bps = gateway_client::amount::parse_units(text.trim().trim_end_matches('%'), 2).ok()?;
    u32::try_from(bps).ok()
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn print_json(raw: &Value) {
    println!(
        "{}",
        serde_json::to_string_pretty(raw).expect("JSON values print")
    );
}

fn check_address(
    chain: &str,
    address: &str,
    what: &str,
    net: BitcoinNetwork,
) -> Result<(), Failure> {
    validate_address(chain, address, net)
        .map(|_| ())
        .map_err(|e| Failure::Usage(format!("{what}: {e}")))
}

/// Reads a file, or standard input for `-`.
fn read_input(path: &std::path::Path) -> Result<String, Failure> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| Failure::Usage(format!("cannot read standard input: {e}")))?;
        return Ok(text);
    }
    std::fs::read_to_string(path)
        .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", path.display())))
}

/// `gateway bundle FILE`: checks the bundle (format, version, records) and prints it.
fn bundle(path: &std::path::Path, json: bool) -> Result<(), Failure> {
    let text = read_input(path)?;
    let imported = desk_core::support::read_bundle(&text).map_err(DeskError::from)?;
    let file = desk_core::support::parse_bundle(&text).map_err(DeskError::from)?;
    if json {
        // The file exactly as saved (it was checked above).
        print!("{text}");
        if !text.ends_with('\n') {
            println!();
        }
    } else {
        view::bundle(&file, &imported);
    }
    Ok(())
}

async fn run(cli: Cli) -> Result<(), Failure> {
    if let Command::Bundle { file } = &cli.command {
        // Nothing is sent: no gateway and no key are needed.
        return bundle(file, cli.json);
    }
    if let Command::Swap(args) = &cli.command {
        // desk-core connects on its own (the Sandbox inside the command with `--network sandbox`).
        let seed = wallet::blocking(wallet::seed).await?;
        return swap::run(args, &cli.network, cli.api_version, seed).await;
    }
    if let Command::Wallet {
        command:
            wallet::WalletCommand::Balance {
                chain: Some(chain),
                token,
            },
    } = &cli.command
        && chain != "bitcoin"
    {
        // A chain's balance is read through desk-core, from the chain itself (the Sandbox's chains inside the command).
        let seed = wallet::blocking(wallet::seed).await?;
        return swap::balance(
            &cli.network,
            cli.api_version,
            seed,
            chain,
            token.as_deref(),
            cli.json,
        )
        .await;
    }
    if cli.network == "sandbox" {
        return on_the_sandbox(cli).await;
    }
    let base = base_url(&cli.network)?;
    gateway_command(&cli, base).await
}

/// `--network sandbox` for a command that talks to a gateway: the Sandbox (the simulated gateway and its local
/// chains, as in the app) runs inside the command for as long as it takes, then stops. Its gateway is a Gateway Desk
/// Sandbox (`--sandbox`) on Bitcoin's regtest network, whatever `--bitcoin-network` says; its orders are kept in the
/// command line's own data folder between commands. A build without the `sandbox` feature says how to get one (both
/// paths are compiled in every build, so the one CI does not build is not left unchecked).
async fn on_the_sandbox(mut cli: Cli) -> Result<(), Failure> {
    if !cfg!(feature = "sandbox") {
        return Err(Failure::Usage(SANDBOX_LEFT_OUT.into()));
    }
    let (desk, base) = swap::start_sandbox(cli.api_version).await?;
    cli.sandbox = true;
    cli.bitcoin_network = BtcNet::Regtest;
    let outcome = gateway_command(&cli, base).await;
    desk.shutdown().await;
    outcome
}

/// What a `gateway` built without the Sandbox says to `--network sandbox`.
const SANDBOX_LEFT_OUT: &str = "--network sandbox runs the Sandbox inside the command, and this `gateway` was \
    built without it: build it with `cargo build --release -p gateway-cli --features sandbox`, or start the \
    simulator (`cargo run -p gateway-sim --bin gateway-sim`) and give its URL as --network";

/// A command that talks to the gateway at `base`.
async fn gateway_command(cli: &Cli, base: Url) -> Result<(), Failure> {
    let client = client(cli, base)?;
    let net = BitcoinNetwork::from(cli.bitcoin_network);
    match &cli.command {
        Command::Routes => {
            let answer = client.get_routes().await?;
            if cli.json {
                print_json(&answer.raw)
            } else {
                view::routes(&answer.value)
            }
        }
        Command::Quote(args) => {
            let mut request = QuoteRequest::new(
                (&args.route.src_chain, &args.route.src_token),
                (&args.route.dst_chain, &args.route.dst_token),
                &args.route.amount,
                &args.recipient,
            );
            request.slippage_bps = args.route.slippage_bps();
            request.sender = args.sender.clone();
            request.affiliate_id = args.affiliate_id.clone();
            request.owner_address = args.owner.clone();
            request.refund_address = args.refund_address.clone();
            request.refund_defaults_to_sender(cli.api_version);
            if let Some(list) = &args.affiliates {
                request.affiliates =
                    parse_affiliates(list).map_err(|e| Failure::Usage(e.to_string()))?;
            }
            check_address(&args.route.dst_chain, &args.recipient, "--recipient", net)?;
            if let Some(sender) = &args.sender {
                check_address(&args.route.src_chain, sender, "--sender", net)?;
            }
            if let Some(owner) = &args.owner {
                check_address("ethereum", owner, "--owner (an EVM address)", net)?;
            }
            if let Some(refund) = &args.refund_address {
                let chain = if cli.api_version == ApiVersion::V4 {
                    args.route.src_chain.as_str()
                } else {
                    "bitcoin"
                };
                check_address(chain, refund, "--refund-address", net)?;
            }
            let answer = client.get_quote(&request).await?;
            let check = desk_core::verify::request::check_quote(&request, &answer.value, net)
                .map_err(|e| Failure::Refused(e.to_string()))?;
            if check.needs_confirmation {
                let accepted = match args.accept_loss.as_deref() {
                    Some(text) => Some(percent_bps(text).ok_or_else(|| {
                        Failure::Usage(format!(
                            "--accept-loss {text:?} is not a percentage such as 7.5"
                        ))
                    })?),
                    None => None,
                };
                check.confirmed(accepted).map_err(|_| {
                    let shown = check.loss.as_ref().map_or("0.00", |loss| loss.percent.as_str());
                    Failure::Refused(format!(
                        "{} That is more than 5 %; if you accept it, ask again with --accept-loss {shown}.",
                        check.loss_sentence
                    ))
                })?;
            }
            if cli.json {
                print_json(&answer.raw)
            } else {
                view::quote(answer.value.view());
                println!("{}", check.loss_sentence);
                if let Some(mismatch) = &check.fees_mismatch {
                    println!("warning: {mismatch}");
                }
            }
        }
        Command::CreateOrder {
            quote,
            blind_signing,
            accept_fee,
            fee_source,
        } => {
            let text = match quote {
                Some(path) => std::fs::read_to_string(path)
                    .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", path.display())))?,
                None => {
                    let mut text = String::new();
                    std::io::stdin()
                        .read_to_string(&mut text)
                        .map_err(|e| Failure::Usage(format!("cannot read standard input: {e}")))?;
                    text
                }
            };
            let raw: Value = serde_json::from_str(&text).map_err(|e| {
                Failure::Usage(format!(
                    "the quote is not JSON ({e}); use `gateway --json quote …`"
                ))
            })?;
            let quote = Quote::from_json(raw).map_err(|e| {
                Failure::Usage(format!(
                    "this JSON is not a quote envelope of onramp, offramp or tokenSwap ({e})"
                ))
            })?;
            let answer = client.create_order(&quote).await?;
            let mut policy = if cli.sandbox {
                desk_core::verify::VerifyPolicy::sandbox(net)
            } else {
                desk_core::verify::VerifyPolicy::strict(net)
            };
            policy.blind_signing = *blind_signing;
            // The call is printed for another wallet to sign: nothing here runs it on the chain first.
            policy.simulated = false;
            // The same fee-rate ceiling as the window: the network's current fast rate, off the Sandbox.
            let fee_source = match fee_source.as_deref() {
                Some(url) => Some(url.trim()).filter(|u| !u.is_empty()),
                None if cli.sandbox => None,
                None => desk_core::fees::default_source(net),
            };
            let policy = desk_core::fees::policy_for(policy, &answer.value, fee_source).await;
            let verified = desk_core::verify::verify_order_with(&quote, &answer.value, &policy)
                .map_err(|e| {
                    Failure::Refused(format!(
                        "the gateway created order {}, but {} Nothing was paid; the order expires by itself.",
                        answer.value.order_id(),
                        lowercase_first(&e.to_string())
                    ))
                })?;
            verified.fee_confirmed(*accept_fee).map_err(|e| {
                Failure::Refused(format!(
                    "the gateway created order {}, but {} If you accept it, run create-order again with \
                     --accept-fee N (N at least the fee) on a new quote. Nothing was paid; the order expires by \
                     itself.",
                    answer.value.order_id(),
                    lowercase_first(&e.to_string())
                ))
            })?;
            if cli.json {
                print_json(&answer.raw)
            } else {
                view::created(&answer.value);
                println!("checked: {}", verified.sentence);
            }
        }
        Command::MaxSpendable { address } => {
            let answer = client.get_max_spendable(address, net).await?;
            if cli.json {
                print_json(&answer.raw)
            } else {
                view::max_spendable(&answer.value)
            }
        }
        Command::RegisterTx(args) => {
            let body = register_body(args, cli.api_version)?;
            let answer = client.register_tx(&body).await?;
            if cli.json {
                print_json(&answer.raw)
            } else {
                view::registered(&answer.value)
            }
        }
        Command::Order { id } => {
            let answer = client.get_order(id).await?;
            if cli.json {
                print_json(&answer.raw)
            } else {
                view::order(&answer.value)
            }
        }
        Command::Orders {
            address,
            cursor,
            limit,
            all,
        } => {
            if *all {
                let mut pager = client.orders_pager(address, *limit);
                let mut pages = Vec::new();
                let mut count = 0;
                while let Some(page) = pager.next_page().await {
                    let page = page?;
                    count += page.value.orders.len();
                    if cli.json {
                        pages.push(page.raw);
                    } else {
                        view::orders(&page.value.orders);
                    }
                }
                if cli.json {
                    print_json(&Value::Array(pages));
                } else {
                    println!("{count} orders in all");
                }
            } else {
                let answer = client
                    .get_orders(address, cursor.as_deref(), *limit)
                    .await?;
                if cli.json {
                    print_json(&answer.raw);
                } else {
                    view::orders(&answer.value.orders);
                    match &answer.value.next_cursor {
                        Some(next) => println!("more: --cursor {next}"),
                        None => println!("last page"),
                    }
                }
            }
        }
        Command::Wallet { command } => {
            wallet::run(command, &client, net, cli.json).await?;
        }
        Command::Lookup { query } => {
            let key = network_key(&cli.network, &client.config().base_url);
            let result = desk_core::support::lookup_on(&client, &key, query)
                .await
                .map_err(DeskError::from)?;
            if cli.json {
                print!("{}", result.raw_text);
                if !result.raw_text.ends_with('\n') {
                    println!();
                }
                // The JSON stays the gateway's own; that the list was cut goes to standard error.
                if let Some(cut) = &result.cut {
                    eprintln!("{cut}");
                }
            } else {
                view::lookup(&result);
            }
        }
        Command::Bundle { file } => bundle(file, cli.json)?,
        Command::Swap(_) => unreachable!("handled before a client is made"),
    }
    Ok(())
}

/// The registration with every value in its checked, canonical form (trimmed, lower-case hex, chain slug). V4 takes
/// only an onramp's signed transaction: anything else is refused here with what V4 expects.
fn register_body(args: &RegisterArgs, version: ApiVersion) -> Result<RegisterTx, Failure> {
    let usage = |m: String| Failure::Usage(m);
    let order_id = args.order_id.trim();
    if !version.registers_source_transactions() {
        match args.route {
            RouteArg::Onramp if args.bitcoin_tx_hex.is_none() => {
                return Err(usage(format!(
                    "API {version} takes the signed transaction, not its id: give --bitcoin-tx-hex (the gateway \
                     broadcasts it). A txid alone (--bitcoin-txid) is registered only with --api-version v3"
                )));
            }
            RouteArg::Onramp => {}
            _ => {
                return Err(usage(format!(
                    "API {version} registers no offramp or token swap: the gateway reads the transaction from the \
                     chain by itself. Broadcast it, then follow the order with `gateway order {order_id}`"
                )));
            }
        }
    }
    match args.route {
        RouteArg::Onramp => {
            let hex = args.bitcoin_tx_hex.as_deref().map(|hex| {
                validate_bitcoin_tx_hex(hex)
                    .map(|_| hex.trim().to_ascii_lowercase())
                    .map_err(|e| usage(format!("--bitcoin-tx-hex: {e}")))
            });
            let txid = args.bitcoin_txid.as_deref().map(|txid| {
                validate_bitcoin_txid(txid)
                    .map(|t| t.to_string())
                    .map_err(|e| usage(format!("--bitcoin-txid: {e}")))
            });
            if hex.is_none() && txid.is_none() {
                return Err(usage(
                    "an onramp needs --bitcoin-tx-hex or --bitcoin-txid".into(),
                ));
            }
            let (hex, txid) = (hex.transpose()?, txid.transpose()?);
            Ok(RegisterTx::onramp(
                order_id,
                hex.as_deref(),
                txid.as_deref(),
            ))
        }
        RouteArg::Offramp | RouteArg::TokenSwap => {
            let (Some(hash), Some(chain)) = (&args.src_tx_hash, &args.src_chain) else {
                return Err(usage(
                    "an offramp or tokenSwap needs --src-tx-hash and --src-chain".into(),
                ));
            };
            let chain = chain.trim().to_ascii_lowercase();
            let hash = validate_src_tx_hash(&chain, hash)
                .map_err(|e| usage(format!("--src-tx-hash: {e}")))?;
            Ok(match args.route {
                RouteArg::Offramp => RegisterTx::offramp(order_id, hash, chain),
                _ => RegisterTx::token_swap(order_id, hash, chain),
            })
        }
    }
}
