//! Crash safety of the order journal: a child process runs the swap flow against gateway-sim and is killed
//! (SIGKILL) at each step of each route — an onramp, an offramp and a token swap from BOB, a token swap from Solana
//! and one from Tron — between steps, in the middle of create-order and register-tx both before and after the
//! gateway acted, and at each step of the wallet's transactions (signed, journaled, sent, mined). A new child then opens the journal, takes each unfinished order from its one
//! next step, and finishes it. Nothing may be lost: every step's record is in the journal, the gateway holds one order
//! per swap, and each order ends registered and then completed (or, when the create-order answer itself was lost,
//! given up with the reason, nothing paid).
//!
//! The child is this test binary itself, re-run with `CRASH_CHILD=1` on the `crash_child` test.

use std::io::{BufRead, BufReader};
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use desk_core::flow::{Flow, QuoteOutcome};
use desk_core::journal::{Journal, NextStep, Stage};
use gateway_client::address::BitcoinNetwork;
use gateway_client::wire::NATIVE_TOKEN;
use gateway_client::{ApiVersion, Client, ClientConfig, QuoteRequest};
use gateway_sim::faults::{EndpointMatch, Fault, FaultRule};
use gateway_sim::{Sim, SimConfig};

const EVM: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const OWNER: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
const BTC_ADDR: &str = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";
const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
const USDT_BOB: &str = "0x05D032ac25d322df992303dCa074EE7392C117b9";
const USDT_ETH: &str = "0xdac17f958d2ee523a2206206994597c13d831ec7";
const USDC_SOL: &str = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const USDT_TRON: &str = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const NETWORK: &str = "sandbox";

/// The onramp's payer: the app's own wallet (the "abandon … about" phrase), signing with desk-core's signer.
fn app_wallet() -> desk_core::wallet::Seed {
    desk_core::wallet::Seed::from_phrase(
        "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
        "",
    )
    .unwrap()
}

/// The quote request of `route`, its amount raised by `step` smallest units: each point of the test makes an order of
/// its own amounts, so that an order of an earlier point (same addresses, same sim) never matches this one's quote
/// when an uncertain creation is looked up by listing.
fn request(route: &str, step: u64) -> QuoteRequest {
    let amount = |base: u64| (base + step).to_string();
    match route {
        "onramp" => {
            let mut r = QuoteRequest::new(
                ("bitcoin", NATIVE_TOKEN),
                ("bob", WBTC_BOB),
                &amount(250_000),
                EVM,
            );
            r.sender = Some(wallet_account(|a| a.bitcoin().ok().cloned()));
            r.owner_address = Some(OWNER.into());
            r
        }
        "offramp" => {
            let mut r = QuoteRequest::new(
                ("bob", WBTC_BOB),
                ("bitcoin", NATIVE_TOKEN),
                &amount(100_000),
                BTC_ADDR,
            );
            r.sender = Some(wallet_evm());
            r.owner_address = Some(OWNER.into());
            r
        }
        "solana" | "tron" => {
            let (token, base, sender) = if route == "solana" {
                (
                    USDC_SOL,
                    SOLANA_AMOUNT,
                    wallet_account(|a| a.for_chain("solana").cloned()),
                )
            } else {
                (
                    USDT_TRON,
                    TRON_AMOUNT,
                    wallet_account(|a| a.for_chain("tron").cloned()),
                )
            };
            let mut r = QuoteRequest::new((route, token), ("bob", USDT_BOB), &amount(base), EVM);
            r.sender = Some(sender);
            r.owner_address = Some(OWNER.into());
            r
        }
        _ => {
            let mut r = QuoteRequest::new(
                ("bob", USDT_BOB),
                ("ethereum", USDT_ETH),
                &amount(50_000_000),
                EVM,
            );
            r.slippage_bps = 100;
            r.sender = Some(wallet_evm());
            r.owner_address = Some(OWNER.into());
            r
        }
    }
}

/// What a Solana swap sends before its step is added: 12 USDC.
const SOLANA_AMOUNT: u64 = 12_000_000;
/// What a Tron swap sends before its step is added: 30 USDT.
const TRON_AMOUNT: u64 = 30_000_000;

/// The app wallet's address of one family.
fn wallet_account(
    family: impl FnOnce(desk_core::wallet::Accounts) -> Option<desk_core::wallet::Account>,
) -> String {
    family(desk_core::wallet::accounts(&app_wallet(), BitcoinNetwork::Mainnet).unwrap())
        .unwrap()
        .address
}

/// The app wallet's EVM address, which pays offramps and token swaps on the test's anvil node.
fn wallet_evm() -> String {
    wallet_account(|a| a.evm().ok().cloned())
}

fn client(url: &str) -> Client {
    let mut config = ClientConfig::new(url.parse().unwrap());
    config.version = ApiVersion::V3;
    config.read_attempts = 1;
    config.timeout = Duration::from_secs(120);
    Client::new(config).unwrap()
}

/// What the person hands in after signing: the PSBT signed by the test wallet, or the source transaction's hash
/// (made from the order id, so each order's differs).
fn signed(order: &desk_core::journal::JournalOrder) -> String {
    let created = order.created.as_ref().expect("created");
    if let Some(psbt) = created["onramp"]["psbt_hex"].as_str() {
        let bytes = alloy_primitives::hex::decode(psbt).unwrap();
        let tx = desk_core::wallet::bitcoin_signer::sign_onramp_psbt(
            &app_wallet(),
            BitcoinNetwork::Mainnet,
            &bytes,
        )
        .unwrap();
        return bitcoin::consensus::encode::serialize_hex(&tx);
    }
    let id: String = order
        .order_id
        .as_deref()
        .unwrap()
        .chars()
        .filter(char::is_ascii_hexdigit)
        .collect();
    format!("0x{id}{id}")[..66].to_owned()
}

/// The EVM steps with the app wallet's signer on the node at `NODE_URL`, as the window confirms them one by one: a
/// journaled transaction is finished first (re-sent as it is, or its receipt read), then each planned step signed.
/// `pause` is the crash hook: `approve-signed`, `pay-journaled`, … Gives the payment's hash.
async fn pay_with_wallet(
    journal: &Journal,
    local_id: i64,
    pause: &(dyn Fn(&str) + Send + Sync),
) -> String {
    use desk_core::execute::evm;
    let node = std::env::var("NODE_URL").unwrap();
    let endpoint = desk_core::chains::evm::connect("bob", &[node])
        .await
        .unwrap();
    let signer = desk_core::wallet::evm_signer(&app_wallet()).unwrap();
    let (_, call) = evm::pay_call_of(&journal.order(local_id).unwrap().to_pay(), |chain| {
        gateway_sim::quote::gateway_contract(chain).parse().ok()
    })
    .unwrap();
    loop {
        let order = journal.order(local_id).unwrap();
        let confirmed = if desk_core::execute::has_unfinished_wallet_tx(&order.to_pay()) {
            None
        } else {
            let (plan, _) = evm::plan(&endpoint, signer.address(), &call).await.unwrap();
            assert_eq!(plan.shortfall, None);
            Some((plan.steps[0].kind, alloy_primitives::U256::MAX))
        };
        match evm::execute_next(
            journal,
            local_id,
            &endpoint,
            Some(&signer),
            &call,
            confirmed,
            evm::Unsimulated::default(),
            &|_| {},
            pause,
        )
        .await
        .unwrap()
        {
            evm::Executed::Approved { .. } => {}
            evm::Executed::Paid { hash } => return hash,
        }
    }
}

/// The Solana transaction with the app wallet's key on the node at `NODE_URL`, as the window sends it: a journaled
/// one finished (re-sent as it is, or its status read), else the order's transaction signed. Gives its signature.
async fn pay_from_solana(
    journal: &Journal,
    local_id: i64,
    pause: &(dyn Fn(&str) + Send + Sync),
) -> String {
    let node = std::env::var("NODE_URL").unwrap();
    let endpoint = desk_core::execute::rail::solana::node::connect(
        &[node],
        gateway_sim::local_chain::solana_node::SANDBOX_GENESIS,
    )
    .await
    .unwrap();
    let key = desk_core::wallet::ed25519_signer(
        &app_wallet(),
        desk_core::wallet::KeyFamily(gateway_client::chains::ChainFamily::Solana),
    )
    .unwrap();
    let pay =
        desk_core::execute::rail::solana::solana_pay_of(&journal.order(local_id).unwrap().to_pay())
            .unwrap();
    desk_core::execute::rail::solana::execute(
        journal,
        local_id,
        &endpoint,
        Some(&key),
        &pay,
        Some(u64::MAX),
        desk_core::execute::rail::solana::Unsimulated::default(),
        &|_| {},
        pause,
    )
    .await
    .unwrap()
}

/// The Tron steps (an exact approval, then the order's call) with the app wallet's key on the node at `NODE_URL`, as
/// the window confirms them one by one; a journaled transaction is finished first. Gives the call's id.
async fn pay_from_tron(
    journal: &Journal,
    local_id: i64,
    pause: &(dyn Fn(&str) + Send + Sync),
) -> String {
    use desk_core::execute::{Executed, has_unfinished_wallet_tx, rail::tron};
    let node = std::env::var("NODE_URL").unwrap();
    let endpoint = desk_core::execute::rail::tron::node::connect(
        &[node],
        gateway_sim::local_chain::tron_node::SANDBOX_GENESIS_BLOCK,
    )
    .await
    .unwrap();
    let key = desk_core::wallet::secp_signing_key(
        &app_wallet(),
        desk_core::wallet::KeyFamily(gateway_client::chains::ChainFamily::Tron),
    )
    .unwrap();
    let owner = gateway_client::chains::tron::parse_account(&wallet_account(|a| {
        a.for_chain("tron").cloned()
    }))
    .unwrap();
    let pay = tron::tron_pay_of(
        &journal.order(local_id).unwrap().to_pay(),
        gateway_client::chains::tron::parse_account(&gateway_sim::quote::gateway_contract("tron")),
    )
    .unwrap();
    loop {
        let order = journal.order(local_id).unwrap();
        let confirmed = if has_unfinished_wallet_tx(&order.to_pay()) {
            None
        } else {
            let (plan, _) = tron::plan(&endpoint, owner, &pay).await.unwrap();
            assert_eq!(plan.shortfall, None);
            Some((plan.steps[0].kind, u64::MAX))
        };
        match tron::execute_next(
            journal,
            local_id,
            &endpoint,
            Some(&key),
            &pay,
            confirmed,
            &|_| {},
            pause,
        )
        .await
        .unwrap()
        {
            Executed::Approved { .. } => {}
            Executed::Paid { hash } => return hash,
        }
    }
}

/// The child: runs (or resumes) one swap to registration, pausing at `PAUSE_AT` when asked.
#[test]
fn crash_child() {
    if std::env::var_os("CRASH_CHILD").is_none() {
        return;
    }
    let journal_path = PathBuf::from(std::env::var("JOURNAL").unwrap());
    let url = std::env::var("SIM_URL").unwrap();
    let route = std::env::var("ROUTE").unwrap();
    let step: u64 = std::env::var("STEP").unwrap().parse().unwrap();
    let pause_at = std::env::var("PAUSE_AT").unwrap_or_default();
    let pause = move |stage: &str| {
        if pause_at == stage {
            println!("PAUSED {stage}");
            loop {
                std::thread::sleep(Duration::from_secs(60));
            }
        }
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let journal = Journal::open(&journal_path).unwrap();
        let client = client(&url);
        let flow = Flow {
            client: &client,
            journal: &journal,
            network: NETWORK,
            policy: desk_core::verify::VerifyPolicy::sandbox(BitcoinNetwork::Mainnet),
            fee_source: None,
        };
        let existing = journal.orders(Some(NETWORK)).unwrap();
        let local_id = match existing.first() {
            Some(order) => order.local_id,
            None => {
                let QuoteOutcome::Quote(quote, _) =
                    flow.quote(&request(&route, step)).await.unwrap()
                else {
                    panic!("a question")
                };
                let id = flow.accept(&quote).unwrap().local_id;
                pause("quoted");
                id
            }
        };
        loop {
            let order = journal.order(local_id).unwrap();
            match order.stage {
                Stage::Quoted => flow.create(local_id).await.map(drop).unwrap(),
                Stage::Creating | Stage::CreateUnknown => {
                    flow.confirm_creation(local_id).await.map(drop).unwrap()
                }
                Stage::Created => flow.verify(local_id).await.map(drop).unwrap(),
                Stage::Verified if route != "onramp" => {
                    pause("verified");
                    let hash = match route.as_str() {
                        "solana" => pay_from_solana(&journal, local_id, &pause).await,
                        "tron" => pay_from_tron(&journal, local_id, &pause).await,
                        _ => pay_with_wallet(&journal, local_id, &pause).await,
                    };
                    flow.hand_in(local_id, &hash).await.map(drop).unwrap();
                }
                Stage::Verified => {
                    pause("verified");
                    // Signed, not yet journaled: a crash here must lead to the same transaction, never another.
                    let signed = signed(&order);
                    println!("SIGNED {signed}");
                    pause("signed");
                    flow.hand_in(local_id, &signed).await.map(drop).unwrap();
                }
                Stage::TxHandedIn | Stage::Registering => {
                    flow.register(local_id).await.map(drop).unwrap()
                }
                Stage::Registered => {
                    pause("registered");
                    println!("DONE registered");
                    return;
                }
                other => {
                    println!("DONE {other:?}");
                    return;
                }
            }
        }
    });
}

/// Where the child is killed.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Point {
    /// Between steps: paused at a stage.
    Paused(&'static str),
    /// Inside create-order, before the gateway acted.
    CreateSent,
    /// Inside create-order, after the gateway created the order (its answer held back).
    CreateActed,
    /// Inside register-tx, before the gateway acted.
    RegisterSent,
    /// Inside register-tx, after the gateway registered the transaction (its answer held back).
    RegisterActed,
}

const POINTS: [Point; 8] = [
    Point::Paused("quoted"),
    Point::CreateSent,
    Point::CreateActed,
    Point::Paused("verified"),
    Point::Paused("signed"),
    Point::RegisterSent,
    Point::RegisterActed,
    Point::Paused("registered"),
];

/// The kill points of an order paid from the app's EVM wallet: each wallet step signed (not journaled), journaled
/// (not broadcast), broadcast (no receipt read) and mined (not handed in), for the approval and the payment.
const EVM_POINTS: [Point; 8] = [
    Point::Paused("approve-signed"),
    Point::Paused("approve-journaled"),
    Point::Paused("approve-sent"),
    Point::Paused("approve-mined"),
    Point::Paused("pay-signed"),
    Point::Paused("pay-journaled"),
    Point::Paused("pay-sent"),
    Point::Paused("pay-mined"),
];

/// The points a route is killed at: the flow's, and for a route paid from the wallet, the wallet's steps instead of
/// the hand-in: an approval and the payment on EVM chains and Tron, the one transaction on Solana.
fn points(route: &str) -> Vec<Point> {
    if route == "onramp" {
        return POINTS.to_vec();
    }
    let wallet = EVM_POINTS.iter().copied().filter(|p| {
        route != "solana" || !matches!(p, Point::Paused(s) if s.starts_with("approve"))
    });
    POINTS
        .iter()
        .copied()
        .filter(|p| *p != Point::Paused("signed"))
        .chain(wallet)
        .collect()
}

struct Running {
    child: Child,
    lines: mpsc::Receiver<String>,
}

impl Drop for Running {
    /// A failing test must not leave a paused child behind.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spawn_child(
    journal: &Path,
    url: &str,
    node: &str,
    (route, step): (&str, u64),
    pause: Option<&str>,
) -> Running {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args([
            "crash::crash_child",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("CRASH_CHILD", "1")
        .env("JOURNAL", journal)
        .env("SIM_URL", url)
        .env("NODE_URL", node)
        .env("ROUTE", route)
        .env("STEP", step.to_string())
        .stdout(Stdio::piped());
    if let Some(stage) = pause {
        command.env("PAUSE_AT", stage);
    }
    let mut child = command.spawn().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (send, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    Running { child, lines }
}

/// Waits (up to a minute) for `ready`, polling.
fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !ready() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn stage_of(journal: &Journal) -> Option<Stage> {
    journal
        .orders(Some(NETWORK))
        .unwrap()
        .first()
        .map(|o| o.stage)
}

#[test]
fn a_kill_at_any_step_of_any_route_loses_nothing_and_every_order_can_be_finished() {
    if std::env::var_os("CRASH_CHILD").is_some() {
        return;
    }
    let runtime = tokio::runtime::Runtime::new().unwrap();
    // BOB is a real local chain: the wallet pays offramps and swaps there, and the gateway checks each registered
    // hash on the node.
    let node = runtime.block_on(async {
        let node = gateway_sim::evm_node::EvmNode::start("bob").await.unwrap();
        node.place_sandbox_contracts().await.unwrap();
        node.fund_sandbox_wallet(&wallet_evm()).await.unwrap();
        node
    });
    // Solana (LiteSVM behind JSON-RPC) and Tron (the HTTP API stand-in over a real EVM), the wallet funded on each:
    // it pays its swaps there, and the gateway checks each registered signature or id on them.
    let (solana, tron) = runtime.block_on(async {
        let solana = gateway_sim::local_chain::solana_node::SolanaNode::start()
            .await
            .unwrap();
        solana
            .fund_sandbox_wallet(&wallet_account(|a| a.for_chain("solana").cloned()))
            .await
            .unwrap();
        let tron = gateway_sim::local_chain::tron_node::TronNode::start()
            .await
            .unwrap();
        tron.fund_sandbox_wallet(&wallet_account(|a| a.for_chain("tron").cloned()))
            .await
            .unwrap();
        (solana, tron)
    });
    // What the wallet holds of the token a Solana or Tron swap sends: it must fall by exactly one payment.
    let source_balance = |route: &str| -> Option<u128> {
        runtime.block_on(async {
            match route {
                "solana" => {
                    let endpoint = desk_core::execute::rail::solana::node::connect(
                        &[solana.url().to_owned()],
                        gateway_sim::local_chain::solana_node::SANDBOX_GENESIS,
                    )
                    .await
                    .unwrap();
                    let owner: solana_pubkey::Pubkey =
                        wallet_account(|a| a.for_chain("solana").cloned())
                            .parse()
                            .unwrap();
                    let mint: solana_pubkey::Pubkey = USDC_SOL.parse().unwrap();
                    Some(u128::from(
                        endpoint.token_balance(&owner, &mint).await.unwrap(),
                    ))
                }
                "tron" => {
                    let endpoint = desk_core::execute::rail::tron::node::connect(
                        &[tron.url().to_owned()],
                        gateway_sim::local_chain::tron_node::SANDBOX_GENESIS_BLOCK,
                    )
                    .await
                    .unwrap();
                    let owner = gateway_client::chains::tron::parse_account(&wallet_account(|a| {
                        a.for_chain("tron").cloned()
                    }))
                    .unwrap();
                    let token = gateway_client::chains::tron::parse_account(USDT_TRON).unwrap();
                    let balance = endpoint.token_balance(&token, &owner).await.unwrap();
                    Some(u128::try_from(balance).unwrap())
                }
                _ => None,
            }
        })
    };
    let config = SimConfig {
        access: gateway_sim::access::AccessConfig::unlimited(),
        ..SimConfig::default()
    };
    config.chain_nodes.set("bob", node.url());
    config.chain_nodes.set("solana", solana.url());
    config.chain_nodes.set("tron", tron.url());
    let sim = Sim::with_config(config).unwrap();
    let nonce = || -> u64 {
        let answer = runtime
            .block_on(node.rpc(
                "eth_getTransactionCount",
                serde_json::json!([wallet_evm(), "latest"]),
            ))
            .unwrap();
        u64::from_str_radix(answer.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
    };
    let running = runtime
        .block_on(
            sim.clone()
                .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0))),
        )
        .unwrap();
    let url = running.base_url();
    let hold = 120_000; // ms a held request waits: far longer than the test needs to kill the child

    for route in ["onramp", "offramp", "swap", "solana", "tron"] {
        let chain_url = match route {
            "solana" => solana.url(),
            "tron" => tron.url(),
            _ => node.url(),
        };
        for (step, point) in (0u64..).zip(points(route)) {
            let what = format!("{route} killed at {point:?}");
            let balance_before = source_balance(route);
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("journal.sqlite3");
            let orders_before = sim.orders().len();
            let nonce_before = nonce();
            let faults = sim.faults();
            let (pause, fault) = match point {
                Point::Paused(stage) => (Some(stage), None),
                Point::CreateSent => (
                    None,
                    Some((EndpointMatch::CreateOrder, Fault::Latency { ms: hold })),
                ),
                Point::CreateActed => (
                    None,
                    Some((EndpointMatch::CreateOrder, Fault::DelayAnswer { ms: hold })),
                ),
                Point::RegisterSent => (
                    None,
                    Some((EndpointMatch::RegisterTx, Fault::Latency { ms: hold })),
                ),
                Point::RegisterActed => (
                    None,
                    Some((EndpointMatch::RegisterTx, Fault::DelayAnswer { ms: hold })),
                ),
            };
            if let Some((endpoint, fault)) = fault {
                faults
                    .add(FaultRule::new(endpoint, fault).times(1))
                    .unwrap();
            }
            let mut first = spawn_child(&path, &url, chain_url, (route, step), pause);
            // What the first child signed before it was killed, when it got that far.
            let mut signed_before: Option<String> = None;
            // Wait until the child is exactly at the point, then kill it.
            match point {
                Point::Paused(stage) => {
                    let expected = format!("PAUSED {stage}");
                    wait_for(&what, || {
                        first.lines.try_recv().is_ok_and(|l| {
                            if let Some(tx) = l.strip_prefix("SIGNED ") {
                                signed_before = Some(tx.to_owned());
                            }
                            l.contains(&expected)
                        })
                    });
                }
                Point::CreateSent | Point::RegisterSent => {
                    // The held request has reached the gateway (its rule is used up) and the gateway did nothing.
                    wait_for(&what, || faults.rules().is_empty());
                }
                Point::CreateActed => wait_for(&what, || sim.orders().len() > orders_before),
                Point::RegisterActed => wait_for(&what, || {
                    sim.orders()
                        .get(orders_before)
                        .is_some_and(|o| o.registration.is_some())
                }),
            }
            first.child.kill().unwrap();
            first.child.wait().unwrap();
            faults.clear();

            // The journal after the crash: the order is there with its one next step.
            let journal = Journal::open(&path).unwrap();
            let order = journal.orders(Some(NETWORK)).unwrap().remove(0);
            let expected_step = match point {
                Point::Paused("quoted") => None,
                Point::CreateSent | Point::CreateActed => Some(NextStep::ConfirmCreation),
                Point::Paused("verified") | Point::Paused("signed") => {
                    Some(NextStep::SignAndHandIn)
                }
                Point::Paused(p) if EVM_POINTS.contains(&Point::Paused(p)) => {
                    Some(NextStep::SignAndHandIn)
                }
                Point::RegisterSent | Point::RegisterActed => Some(NextStep::Register),
                _ => Some(NextStep::Watch),
            };
            assert_eq!(
                order.next_step(),
                expected_step,
                "{what}: {:?}",
                order.stage
            );
            let unfinished = journal.unfinished(Some(NETWORK)).unwrap();
            assert_eq!(
                unfinished.len(),
                usize::from(expected_step.is_some()),
                "{what}"
            );

            // Killed with a signed transaction pending (journaled, maybe broadcast, no receipt read), or just mined.
            if let Point::Paused(p) = point {
                use desk_core::journal::WalletTxState as S;
                let last = order.wallet_txs.last().map(|t| (t.kind.slug(), t.state));
                if let Some(kind) = p.strip_suffix("-journaled") {
                    assert_eq!(last, Some((kind, S::Signed)), "{what}");
                }
                if let Some(kind) = p.strip_suffix("-sent") {
                    assert_eq!(last, Some((kind, S::Sent)), "{what}");
                }
                if let Some(kind) = p.strip_suffix("-mined") {
                    assert_eq!(last, Some((kind, S::Mined)), "{what}");
                }
            }
            // What the wallet journaled before the kill: the resumed child must finish these very transactions.
            let journaled_before: Vec<(desk_core::journal::WalletTxKind, String)> = order
                .wallet_txs
                .iter()
                .map(|t| (t.kind, t.hash.clone()))
                .collect();

            // A new child finishes it.
            let mut second = spawn_child(&path, &url, chain_url, (route, step), None);
            let status = second.child.wait().unwrap();
            assert!(status.success(), "{what}: the resuming child failed");
            // Every line the child wrote: the reader thread ends (and the channel with it) at the pipe's end, which
            // may come a little after the child's exit, so read to the end rather than what has arrived so far.
            let done: Vec<String> = second.lines.iter().collect();
            let expected_end = if point == Point::CreateActed {
                // The order was created but what to sign was lost: given up, nothing paid.
                "DONE Abandoned"
            } else {
                "DONE registered"
            };
            assert!(
                done.iter().any(|l| l.contains(expected_end)),
                "{what}: {done:?}: {:?}",
                journal.orders(Some(NETWORK)).unwrap()[0].last_error
            );

            // Paid from the wallet: one approval and one payment, each mined (on Solana the one transaction), the ones
            // journaled before the kill among them (same hashes), the payment registered, and no other transaction
            // sent from the wallet (EVM: its nonce; Solana and Tron: the token sent fell by exactly one payment).
            if route != "onramp" && point != Point::CreateActed {
                let order = journal.orders(Some(NETWORK)).unwrap().remove(0);
                let txs: Vec<_> = order.wallet_txs.iter().map(|t| (t.kind, t.state)).collect();
                use desk_core::journal::{WalletTxKind as K, WalletTxState as S};
                if route == "solana" {
                    assert_eq!(txs, [(K::Pay, S::Mined)], "{what}");
                } else {
                    assert_eq!(txs, [(K::Approve, S::Mined), (K::Pay, S::Mined)], "{what}");
                }
                for (kind, hash) in &journaled_before {
                    assert!(
                        order
                            .wallet_txs
                            .iter()
                            .any(|t| t.kind == *kind && &t.hash == hash),
                        "{what}: the {kind:?} journaled before the kill was replaced"
                    );
                }
                assert_eq!(
                    order
                        .handed_in
                        .as_ref()
                        .map(|h| h.id().trim_start_matches("0x").to_lowercase()),
                    order
                        .wallet_txs
                        .last()
                        .map(|t| t.hash.trim_start_matches("0x").to_lowercase()),
                    "{what}"
                );
                match (balance_before, source_balance(route)) {
                    (Some(before), Some(after)) => {
                        let sent = match route {
                            "solana" => SOLANA_AMOUNT,
                            _ => TRON_AMOUNT,
                        } + step;
                        assert_eq!(
                            before - after,
                            u128::from(sent),
                            "{what}: exactly one payment left the wallet"
                        );
                    }
                    _ => assert_eq!(
                        nonce(),
                        nonce_before + 2,
                        "{what}: exactly two transactions from the wallet"
                    ),
                }
            }

            // One order on the gateway per swap; nothing lost from the journal.
            assert_eq!(
                sim.orders().len(),
                orders_before + 1,
                "{what}: one order on the gateway"
            );
            let order = journal.orders(Some(NETWORK)).unwrap().remove(0);
            let kinds: Vec<String> = journal
                .events(order.local_id)
                .unwrap()
                .into_iter()
                .map(|e| e.kind)
                .collect();
            assert_eq!(
                kinds.first().map(String::as_str),
                Some("quoteAccepted"),
                "{what}"
            );
            assert!(
                kinds.iter().any(|k| k == "createStarted"),
                "{what}: {kinds:?}"
            );
            if point == Point::CreateActed {
                assert_eq!(order.stage, Stage::Abandoned, "{what}");
                assert!(
                    order.last_error.as_deref().unwrap_or("").contains("expire"),
                    "{what}"
                );
                continue;
            }
            for kind in [
                "createAnswered",
                "verified",
                "txHandedIn",
                "registerStarted",
                "registerAnswered",
            ] {
                assert!(
                    kinds.iter().any(|k| k == kind),
                    "{what}: {kind} missing from {kinds:?}"
                );
            }
            assert!(
                order.created.is_some()
                    && order.handed_in.is_some()
                    && order.registration.is_some()
            );
            if let Some(before) = &signed_before {
                // Killed after signing, before journaling: the resumed child signed the very same transaction
                // (RFC 6979 signatures are deterministic), so the gateway never sees a second, different one.
                let handed = serde_json::to_value(order.handed_in.as_ref().unwrap()).unwrap();
                let handed_text = handed.to_string();
                assert!(
                    handed_text.contains(before.trim_start_matches("0x")),
                    "{what}: signed {before} before the crash, handed in {handed_text}"
                );
            }
            let on_gateway = sim.order(order.order_id.as_deref().unwrap()).unwrap();
            assert_eq!(
                on_gateway
                    .registration
                    .as_ref()
                    .map(|r| r.tx_hash.to_lowercase()),
                order.handed_in.as_ref().map(|h| h.id().to_lowercase()),
                "{what}: the gateway has the transaction the journal handed in"
            );

            // Watching takes it to the end.
            sim.clock().advance(2_000);
            let client = client(&url);
            let flow = Flow {
                client: &client,
                journal: &journal,
                network: NETWORK,
                policy: desk_core::verify::VerifyPolicy::sandbox(BitcoinNetwork::Mainnet),
                fee_source: None,
            };
            let answer = runtime
                .block_on(client.get_order(order.order_id.as_deref().unwrap()))
                .unwrap();
            flow.status_seen(order.local_id, &answer.raw, &answer.value)
                .unwrap();
            let order = journal.order(order.local_id).unwrap();
            assert_eq!(order.stage, Stage::Finished, "{what}");
            assert_eq!(order.status_label.as_deref(), Some("success"), "{what}");
            assert!(stage_of(&journal) == Some(Stage::Finished));
        }
    }
    runtime.block_on(running.shutdown()).unwrap();
}
