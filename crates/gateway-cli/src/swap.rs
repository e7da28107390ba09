//! `gateway swap`: a whole swap from a terminal on desk-core's engine, the one the window uses: quote (checked against
//! the request), confirm, create (what is to be signed verified), approve and sign with the wallet, broadcast,
//! register, and follow the order to its end. Sender, recipient and owner default to the wallet's addresses.
//!
//! The desk keeps its journal and settings in a folder of its own (`cli` under the app's data folder), so a swap from
//! the terminal never changes the window's settings. `--network sandbox` runs the Sandbox inside the command: the
//! simulated gateway and its local chains (anvil), the wallet funded on first use.

use std::time::{Duration, Instant};

use alloy_primitives::U256;
use clap::Args;
use desk_core::api::NetworkChoice;
use desk_core::desk::{DeskOptions, QuoteResult, SwapForm};
use desk_core::journal::Stage;
use desk_core::settings::NetworkKind;
use desk_core::views::OrderView;
use desk_core::wallet::{Accounts, Seed};
use desk_core::{AppPaths, Desk, DeskError, ErrorKind};
use gateway_client::{ApiVersion, TokenRegistry};

use crate::Failure;

#[derive(Debug, Args)]
pub struct SwapArgs {
    #[command(flatten)]
    route: crate::RouteFlags,
    /// Default: the wallet's address on the destination chain
    #[arg(long)]
    recipient: Option<String>,
    /// Default: the wallet's address on the source chain
    #[arg(long)]
    sender: Option<String>,
    /// V3: the EVM owner and refund claimant. Default: the wallet's EVM address (V4 has no owner)
    #[arg(long)]
    owner: Option<String>,
    /// V4: the address on the source chain a refund goes to. Default: the sender
    #[arg(long)]
    refund_address: Option<String>,
    /// Confirm the quote and every signature without asking
    #[arg(long)]
    yes: bool,
    /// Accept a loss of up to this many basis points, when it is above 5 %
    #[arg(long, value_name = "BPS")]
    accept_loss_bps: Option<u32>,
    /// Accept a Bitcoin network fee of up to this many sats, when it is above 2 % of the amount
    #[arg(long, value_name = "SATS")]
    accept_fee: Option<u64>,
    /// Stop once the gateway has the transaction, instead of following the order to its end
    #[arg(long)]
    no_follow: bool,
    /// Sign even when the chain's endpoint cannot simulate the transaction (only with --blind-signing; `--yes` never
    /// implies it)
    #[arg(long)]
    accept_unsimulated: bool,
    /// Turn blind signing on for this network in the command line's own settings (kept for later swaps; the window's
    /// settings are not changed): a call the app cannot decode is then shown as NOT CHECKED instead of refused
    #[arg(long)]
    blind_signing: bool,
    /// On the Sandbox: its orders on a chain with a published entry contract take the real service's shape (that
    /// contract, an AllowanceHolder placed at its real address, and its exec), checked as on Production
    #[arg(long)]
    production_shape: bool,
}

/// desk-core's refusals are the app's checks (exit 5); everything else keeps its kind (gateway 3, transport 4).
fn failure(e: DeskError) -> Failure {
    match e.kind {
        ErrorKind::Refused => Failure::Refused(e.message),
        _ => Failure::Desk(Box::new(e)),
    }
}

fn desk_failure(kind: ErrorKind, message: impl Into<String>) -> Failure {
    Failure::Desk(Box::new(DeskError::new(kind, message)))
}

/// The wallet's address on `chain`'s family.
fn wallet_address(accounts: &Accounts, chain: &str) -> Option<String> {
    accounts.for_chain(chain).map(|a| a.address.clone())
}

/// Asks yes or no on the terminal (standard input when it is not one); `--yes` answers yes.
///
/// The question waits on a blocking thread, so the runtime (and the Sandbox running inside the command) keeps
/// serving while the person reads.
async fn confirm(yes: bool, question: &str) -> Result<bool, Failure> {
    if yes {
        eprintln!("{question} yes (--yes)");
        return Ok(true);
    }
    let prompt = format!("{question} [y/N] ");
    let answer = crate::wallet::blocking(move || crate::wallet::ask_line(&prompt)).await?;
    Ok(matches!(answer.as_str(), "y" | "Y" | "yes"))
}

/// The network `--network` names, as the desk chooses it.
fn choice(network: &str) -> NetworkChoice {
    let kind = match network {
        "sandbox" => NetworkKind::Sandbox,
        "production" => NetworkKind::Production,
        "staging" => NetworkKind::Staging,
        _ => NetworkKind::Custom,
    };
    NetworkChoice {
        kind,
        custom_url: (kind == NetworkKind::Custom).then(|| network.to_owned()),
    }
}

/// The command line's desk (its own folder, `cli` under the app's data folder).
async fn open_desk() -> Result<Desk, Failure> {
    let base = AppPaths::from_env()
        .ok_or_else(|| Failure::Usage("no home folder to keep the swap's journal in".into()))?;
    let paths = AppPaths::under(&base.data_dir.join("cli"));
    Desk::open_with(
        paths,
        DeskOptions {
            // The embedded Sandbox only in a build with the `sandbox` feature; without it `--network sandbox` says so.
            #[cfg(feature = "sandbox")]
            sandbox: Some(desk_sandbox::EmbeddedSandbox::port()),
            sandbox_admin: std::env::var("GATEWAY_DESK_SANDBOX_ADMIN").is_ok_and(|v| v == "1"),
            ..DeskOptions::default()
        },
    )
    .await
    .map_err(failure)
}

/// Connects the desk to `network` on `version` (the Sandbox announced on standard error) with the wallet `seed`.
async fn connect(
    desk: &Desk,
    network: &str,
    version: ApiVersion,
    seed: Seed,
) -> Result<(), Failure> {
    select(desk, network, version).await?;
    desk.wallet_use_seed(seed);
    Ok(())
}

/// Selects `network` on `version` (the Sandbox announced on standard error) and gives the gateway's base URL.
async fn select(desk: &Desk, network: &str, version: ApiVersion) -> Result<String, Failure> {
    // The version first: changing it reconnects, and the Sandbox announced must be the one that stays.
    desk.set_api_version(version).await.map_err(failure)?;
    let settings = desk
        .select_network(choice(network))
        .await
        .map_err(failure)?;
    if settings.network.simulated.is_some() {
        eprintln!(
            "Sandbox gateway on {} — simulated, no real money moves.",
            settings.network.base_url
        );
    }
    Ok(settings.network.base_url)
}

/// Starts the Sandbox inside the command (announced on standard error) on API `version`, for a command that talks to
/// a gateway by URL: the desk that runs it (keep it until the command is done, then shut it down) and the URL.
pub async fn start_sandbox(version: ApiVersion) -> Result<(Desk, url::Url), Failure> {
    let desk = open_desk().await?;
    let started = async {
        let base_url = select(&desk, "sandbox", version).await?;
        url::Url::parse(&base_url).map_err(|e| {
            desk_failure(
                ErrorKind::Sandbox,
                format!("the Sandbox's URL {base_url:?} is not a URL: {e}"),
            )
        })
    }
    .await;
    match started {
        Ok(url) => Ok((desk, url)),
        Err(e) => {
            desk.shutdown().await;
            Err(e)
        }
    }
}

pub async fn run(
    args: &SwapArgs,
    network: &str,
    version: ApiVersion,
    seed: Seed,
) -> Result<(), Failure> {
    let desk = open_desk().await?;
    // Before the network is chosen, so that the Sandbox announced is the one that stays.
    if let Err(e) = desk
        .set_sandbox_production_shape(args.production_shape)
        .await
    {
        desk.shutdown().await;
        return Err(failure(e));
    }
    let outcome = match connect(&desk, network, version, seed).await {
        Ok(()) => swap(&desk, args).await,
        Err(e) => Err(e),
    };
    desk.shutdown().await;
    outcome
}

/// `wallet balance --chain CHAIN [--token TOKEN]`: the wallet's balance of a token (default: the chain's coin) on a
/// chain the wallet pays on, read from the chain's endpoint (on the Sandbox its local node), and what Max would send.
pub async fn balance(
    network: &str,
    version: ApiVersion,
    seed: Seed,
    chain: &str,
    token: Option<&str>,
    json: bool,
) -> Result<(), Failure> {
    let registry = TokenRegistry::builtin();
    let token = match token {
        None => gateway_client::wire::NATIVE_TOKEN.to_owned(),
        Some(t) => registry
            .all()
            .iter()
            .find(|i| i.chain == chain && i.symbol.eq_ignore_ascii_case(t))
            .map_or_else(|| t.to_owned(), |i| i.address.clone()),
    };
    let desk = open_desk().await?;
    let outcome = async {
        connect(&desk, network, version, seed).await?;
        desk.wallet_balance(chain, &token).await.map_err(failure)
    }
    .await;
    desk.shutdown().await;
    let balance = outcome?;
    if json {
        crate::print_json(&serde_json::to_value(&balance).unwrap_or_default());
    } else {
        println!("{} {} on {}", balance.units, balance.symbol, balance.chain);
        println!(
            "Max {} {} (what a swap can send)",
            balance.max_units, balance.symbol
        );
        println!("{}", balance.source);
    }
    Ok(())
}

async fn swap(desk: &Desk, args: &SwapArgs) -> Result<(), Failure> {
    if args.blind_signing {
        desk.set_blind_signing(true).await.map_err(failure)?;
        eprintln!(
            "Blind signing is on for this network in the command line's settings: a call the app cannot decode is shown as NOT CHECKED."
        );
    }
    // On the network's Bitcoin network (regtest on the Sandbox).
    let accounts = desk.wallet_accounts().await.map_err(failure)?;
    let v3 = desk.settings().await.network.api_version == ApiVersion::V3.as_str();

    let registry = TokenRegistry::builtin();
    let decimals = registry
        .get(&args.route.src_chain, &args.route.src_token)
        .map(|t| t.decimals)
        .ok_or_else(|| {
            Failure::Usage(format!(
                "--src-token {} on {} is not a token the app knows; it cannot say what {} smallest units are",
                args.route.src_token, args.route.src_chain, args.route.amount
            ))
        })?;
    let amount: U256 = args.route.amount.trim().parse().map_err(|_| {
        Failure::Usage(format!(
            "--amount {:?} is not a whole number of smallest units",
            args.route.amount
        ))
    })?;
    let recipient = match &args.recipient {
        Some(r) => r.clone(),
        None => wallet_address(&accounts, &args.route.dst_chain).ok_or_else(|| {
            Failure::Usage(format!(
                "give --recipient: the wallet has no address on {}",
                args.route.dst_chain
            ))
        })?,
    };
    let form = SwapForm {
        src_chain: args.route.src_chain.clone(),
        src_token: args.route.src_token.clone(),
        dst_chain: args.route.dst_chain.clone(),
        dst_token: args.route.dst_token.clone(),
        amount: gateway_client::amount::format_units(amount, decimals),
        slippage_bps: args.route.slippage_bps(),
        recipient,
        sender: args
            .sender
            .clone()
            .or_else(|| wallet_address(&accounts, &args.route.src_chain)),
        // V4 has no owner (its refund address, on the source chain, defaults to the sender in desk-core).
        owner: args.owner.clone().or_else(|| {
            v3.then(|| accounts.evm().ok().map(|a| a.address.clone()))
                .flatten()
        }),
        refund: args.refund_address.clone(),
    };
    let card = match desk.quote(&form).await.map_err(failure)? {
        QuoteResult::Quote { card } => card,
        QuoteResult::Ask { question } => return Err(Failure::Usage(question.message)),
    };
    println!("You send     {}", card.send.text);
    println!("You receive  {} (about, after fees)", card.receive.text);
    for line in &card.fee_lines {
        println!("  {:<12} {}", line.name, line.amount.text);
    }
    // The person's own network fee on the source chain, read from it, and what the swap costs in all (issue 31).
    if let Some(own) = &card.own_fee {
        match (&own.text, own.kind) {
            (Some(text), Some(kind)) => println!(
                "Your fee     {} {text}{} on {}",
                match kind {
                    desk_core::views::OwnFeeKind::AtMost => "at most",
                    desk_core::views::OwnFeeKind::About => "about",
                },
                own.usd
                    .as_deref()
                    .map_or_else(String::new, |usd| format!(" (≈ ${usd})")),
                own.place
            ),
            _ => println!("Your fee     not known now: {}", own.basis),
        }
        println!("Total cost   {}", own.total_text);
    }
    if let Some(check) = &card.check {
        println!("{}", check.loss_sentence);
    }
    println!("Recipient    {}", card.recipient);
    if let Some(sender) = &card.sender {
        println!("Sender       {sender}");
    }
    if !confirm(args.yes, "Create this order?").await? {
        return Err(Failure::Usage("not confirmed; nothing was created".into()));
    }
    let order = desk
        .start_order(card.raw.clone(), args.accept_loss_bps)
        .await
        .map_err(failure)?;
    let local_id = order.local_id.unwrap_or_default();
    if order.stage != Some(Stage::Verified) {
        return Err(Failure::Refused(
            order
                .last_error
                .clone()
                .unwrap_or_else(|| "the order is not ready to be signed".into()),
        ));
    }
    println!(
        "Order {} created and checked.",
        order.order_id.as_deref().unwrap_or("?")
    );

    let order = execute(
        desk,
        local_id,
        args.yes,
        args.accept_unsimulated,
        args.accept_fee,
    )
    .await?;
    println!(
        "Registered: the gateway has the transaction. {}",
        order.status_text
    );
    if args.no_follow {
        return Ok(());
    }
    follow(desk, local_id).await
}

/// Each step as the window shows it, confirmed one by one, until the payment is registered: the same for every
/// chain family (desk-core's rail of the source chain says what each step is). A fee the gateway's checks call high
/// (a Bitcoin fee that is a large share of the amount) is signed only when `--accept-fee` accepts at least it.
async fn execute(
    desk: &Desk,
    local_id: i64,
    yes: bool,
    accept_unsimulated: bool,
    accept_fee: Option<u64>,
) -> Result<OrderView, Failure> {
    loop {
        let plan = desk.wallet_plan(local_id).await.map_err(failure)?;
        if let Some(expired) = plan.expired {
            return Err(Failure::Refused(expired));
        }
        if let Some(short) = plan.shortfall {
            return Err(Failure::Refused(format!("{short} Nothing was signed.")));
        }
        let Some(step) = plan.steps.first() else {
            return Err(Failure::Refused("nothing is left to sign".into()));
        };
        println!("{} {}", step.sentence, step.fee_sentence);
        if let Some(rent) = &step.rent_text {
            println!("  It may also lock {rent} of rent in a new token account.");
        }
        print_simulation(&plan.simulation, accept_unsimulated)?;
        if !confirm(yes, "Sign and send it?").await? {
            return Err(Failure::Usage(
                "not confirmed; nothing more was signed".into(),
            ));
        }
        let fee = if step.fee_needs_acceptance {
            accept_fee.map(|sats| sats.to_string())
        } else {
            Some(step.max_fee.clone())
        };
        let order = desk
            .wallet_step(
                local_id,
                Some(step.kind),
                fee.as_deref(),
                accept_unsimulated,
            )
            .await
            .map_err(failure)?;
        if let Some(last) = order.wallet_txs.as_ref().and_then(|t| t.last()) {
            println!("  {}", desk.wallet_tx_line(last).await.map_err(failure)?);
        }
        if order.stage != Some(Stage::Verified) {
            return Ok(order);
        }
    }
}

/// The chain's simulation as the window shows it; an order that could not be simulated stops here unless
/// `--accept-unsimulated` was given.
fn print_simulation(
    simulation: &desk_core::simulate::Simulation,
    accept_unsimulated: bool,
) -> Result<(), Failure> {
    println!(
        "  Simulated ({}): {}",
        if simulation.source.is_empty() {
            "not run"
        } else {
            &simulation.source
        },
        simulation.sentence
    );
    if simulation.needs_acceptance() && !accept_unsimulated {
        return Err(Failure::Refused(format!(
            "{} Nothing was signed. Use an endpoint that simulates, or pass --accept-unsimulated --blind-signing to sign this order without a simulation.",
            simulation.sentence
        )));
    }
    Ok(())
}

/// Follows the order until it succeeds, fails or is refunded, printing each new status.
async fn follow(desk: &Desk, local_id: i64) -> Result<(), Failure> {
    let mut last = String::new();
    let started = Instant::now();
    loop {
        let order = desk.order_view(local_id).map_err(failure)?;
        if order.status_text != last {
            println!("{}", order.status_text);
            last = order.status_text.clone();
        }
        match order.status.as_deref() {
            Some("success") => return Ok(()),
            Some("failed" | "refunded") => {
                return Err(desk_failure(
                    ErrorKind::Gateway,
                    format!("the order ended: {}", order.status_text),
                ));
            }
            _ => {}
        }
        if started.elapsed() > Duration::from_secs(6 * 3600) {
            return Err(desk_failure(
                ErrorKind::Transport,
                "the order has not ended after 6 hours; `gateway order ID` shows it later",
            ));
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
}
