//! What the Desk's integration tests share: a Desk on the embedded Sandbox in a temporary folder (the keychain is the
//! mock store), the Sandbox's clock, an onramp's form and its steps, and orders made on a gateway directly.
//!
//! Included with `mod common;` by each test binary that runs a Desk on the mock keychain; not every binary uses every
//! item. `tests/keychain.rs` (the real keychain) must not include it: the keyring's default store is global per
//! process.
#![allow(dead_code)]

use gateway_sim::admin_client::AdminClient;
use std::path::Path;
use std::time::Duration;

use desk_core::desk::{DeskOptions, QuoteResult, SwapForm};
use desk_core::tracker::Timing;
use desk_core::views::{OrderView, QuoteCard};
use desk_core::{AppPaths, Desk, DeskEvent};
use gateway_client::wire::NATIVE_TOKEN;
use gateway_client::{ApiVersion, Client, ClientConfig, QuoteRequest};
use tokio::sync::broadcast;

pub const EVM: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
pub const OWNER: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
pub const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
pub const USDT_BOB: &str = "0x05D032ac25d322df992303dCa074EE7392C117b9";
pub const USDT_ETH: &str = "0xdac17f958d2ee523a2206206994597c13d831ec7";

/// The keyring's mock store as the process's default (once: the default store is global per process).
pub fn mock_keychain() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| keyring_core::set_default_store(keyring_core::mock::Store::new().unwrap()));
}

/// A Desk on the Sandbox with its data under `home`: timings a hundredth of the real ones, the Sandbox's admin
/// endpoints on.
pub async fn open(home: &Path) -> Desk {
    mock_keychain();
    desk_sandbox::open_desk_with(
        AppPaths::under(home),
        DeskOptions {
            timing: Timing::default().scaled(0.01),
            sandbox_admin: true,
            kdf: Some(desk_core::wallet::vault::KdfProfile::TEST_ONLY),
            ..DeskOptions::default()
        },
    )
    .await
    .unwrap()
}

/// Moves the clock of the gateway-sim at `base` on by `secs` (its admin endpoint).
pub async fn advance(base: &str, secs: u64) {
    AdminClient::new(base).advance_clock(secs).await.unwrap();
}

/// A Bitcoin address of the Sandbox's (regtest) for refunds of onramps without a sender.
pub const BTC_REFUND: &str = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";

/// 0.0025 BTC from bitcoin to WBTC on BOB for `EVM`. API V4 (the default) has no owner: a refund goes to the sender,
/// or to [`BTC_REFUND`] when the form names no sender.
pub fn onramp_form(sender: Option<String>) -> SwapForm {
    SwapForm {
        src_chain: "bitcoin".into(),
        src_token: NATIVE_TOKEN.into(),
        dst_chain: "bob".into(),
        dst_token: WBTC_BOB.into(),
        amount: "0.0025".into(),
        slippage_bps: 300,
        recipient: EVM.into(),
        refund: sender.is_none().then(|| BTC_REFUND.into()),
        sender,
        owner: None,
    }
}

/// The desk's quote card for `form`; a question instead is a failure.
pub async fn card(desk: &Desk, form: &SwapForm) -> QuoteCard {
    match desk.quote(form).await.unwrap() {
        QuoteResult::Quote { card } => *card,
        QuoteResult::Ask { question } => panic!("asked {question:?} for {form:?}"),
    }
}

/// The PSBT a started onramp asks to be signed.
pub fn psbt(order: &OrderView) -> String {
    order.created.as_ref().unwrap()["onramp"]["psbt_hex"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Runs the Sandbox's clock past an onramp's end (600 s after registration) and waits until the desk reports the
/// order `local_id` completed: the view it reported.
pub async fn complete_onramp(
    desk: &Desk,
    events: &mut broadcast::Receiver<DeskEvent>,
    local_id: i64,
) -> Box<OrderView> {
    let base = desk.settings().await.network.base_url;
    advance(&base, 700).await;
    desk.refresh_now().await;
    tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            if let Ok(DeskEvent::OrderChanged { order: view }) = events.recv().await
                && view.local_id == Some(local_id)
                && view.status.as_deref() == Some("success")
            {
                return view;
            }
        }
    })
    .await
    .expect("the order completes")
}

/// A client of the gateway at `base_url` on `version`, reading once (no retries).
pub fn client(base_url: &str, version: ApiVersion) -> Client {
    let mut config = ClientConfig::new(base_url.parse().unwrap());
    config.version = version;
    config.read_attempts = 1;
    Client::new(config).unwrap()
}

/// 50 USDT on BOB to USDT on Ethereum for `EVM`, 1% slippage.
pub fn swap_request() -> QuoteRequest {
    let mut request = QuoteRequest::new(("bob", USDT_BOB), ("ethereum", USDT_ETH), "50000000", EVM);
    request.slippage_bps = 100;
    request
}

/// Creates an order on the gateway at `base_url` directly (not through the app), on V3 and unpaid: its id.
pub async fn create_order_directly(base_url: &str, request: &QuoteRequest) -> String {
    let client = client(base_url, ApiVersion::V3);
    let quote = client.get_quote(request).await.unwrap().value;
    client
        .create_order(&quote)
        .await
        .unwrap()
        .value
        .order_id()
        .to_owned()
}

/// The "abandon … about" test phrase and the app password the wallet tests seal it under.
pub const ABANDON: &str =
    "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
pub const PASSWORD: &str = "correct horse battery";

/// A Desk on the Sandbox under `home` with the "abandon … about" wallet imported and unlocked: the desk and the
/// wallet's accounts.
pub async fn desk_with_wallet(home: &Path) -> (Desk, desk_core::wallet::Accounts) {
    let desk = open(home).await;
    let _ = desk.wallet_remove().await;
    let accounts = desk
        .wallet_import(ABANDON, "", PASSWORD)
        .await
        .unwrap()
        .accounts
        .unwrap();
    (desk, accounts)
}

/// Sets the Sandbox's hostile mode (`None`: honest again).
pub async fn set_tamper(desk: &Desk, name: Option<&str>) {
    let base = desk.settings().await.network.base_url;
    AdminClient::new(&base).set_tamper(name).await.unwrap();
}

/// Names the nodes a test started to the Sandbox (`chain=URL,…`), so that it uses them instead of its own.
pub fn name_nodes_to_sandbox(nodes: &[(&str, &str)]) {
    let named: Vec<String> = nodes
        .iter()
        .map(|(chain, url)| format!("{chain}={url}"))
        .collect();
    // Edition 2024: setting the environment is unsafe because other threads may read it. One test of a binary that
    // names nodes runs at a time (its TURN lock), and the desk reads the variable only when it first uses a chain,
    // after this.
    #[allow(unsafe_code)]
    unsafe {
        std::env::set_var(desk_sandbox::SANDBOX_NODES_ENV, named.join(","));
    }
}

/// EVM nodes of `chains` with the Sandbox's contracts (its entry contracts among them), named to the Sandbox so it
/// uses them instead of its own.
pub async fn sandbox_nodes(chains: &[&str]) -> Vec<gateway_sim::evm_node::EvmNode> {
    let mut out = Vec::new();
    for chain in chains {
        let node = gateway_sim::evm_node::EvmNode::start(chain).await.unwrap();
        node.place_sandbox_contracts().await.unwrap();
        out.push(node);
    }
    let named: Vec<(&str, &str)> = out.iter().map(|n| (n.chain(), n.url())).collect();
    name_nodes_to_sandbox(&named);
    out
}

/// Starts an order from `form`'s quote; it must come back verified, ready to sign. Gives its local id.
pub async fn verified_order(desk: &Desk, form: &SwapForm) -> i64 {
    let order = desk
        .start_order(card(desk, form).await.raw, None)
        .await
        .unwrap();
    assert_eq!(
        order.stage,
        Some(desk_core::journal::Stage::Verified),
        "{order:?}"
    );
    order.local_id.unwrap()
}

/// Confirm of `form` is refused before any order is created: the wallet holds `holds` and the order needs `needs`.
pub async fn refused_as_unpayable(desk: &Desk, form: &SwapForm, holds: &str, needs: &str) {
    let refused = desk
        .start_order(card(desk, form).await.raw, None)
        .await
        .unwrap_err();
    for said in [
        format!("holds {holds}"),
        format!("needs {needs}"),
        "No order was created".to_owned(),
    ] {
        assert!(
            refused.message.contains(&said),
            "{said}: {}",
            refused.message
        );
    }
}

/// The wallet transactions journaled for order `local_id`.
pub fn wallet_txs(desk: &Desk, local_id: i64) -> Vec<desk_core::journal::WalletTx> {
    desk.order_view(local_id)
        .unwrap()
        .wallet_txs
        .unwrap_or_default()
}

/// Every file under `dir`, read as bytes.
pub fn files_under(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(bytes) = std::fs::read(&path) {
                out.push((path.display().to_string(), bytes));
            }
        }
    }
    out
}

pub fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle.as_bytes())
}

/// Fails when any of `secrets` (phrase words, key encodings) is in a file under `home` (the journal, settings,
/// logs) or in one of `events`.
pub fn assert_no_secret_written(
    home: &Path,
    events: &mut broadcast::Receiver<DeskEvent>,
    secrets: &[String],
) {
    for (path, bytes) in files_under(home) {
        for secret in secrets {
            assert!(!contains(&bytes, secret), "a secret is in {path}");
        }
    }
    while let Ok(event) = events.try_recv() {
        let text = serde_json::to_string(&event).unwrap();
        for secret in secrets {
            assert!(!text.contains(secret.as_str()), "a secret is in an event");
        }
    }
}

/// What `rail` answers when the settings check the Sandbox node at `url` as an endpoint of `chain`.
pub async fn endpoint_check(
    rail: &dyn desk_core::execute::rail::WalletRail,
    chain: &str,
    url: &str,
) -> desk_core::execute::rail::EndpointCheck {
    rail.check_endpoint(&desk_core::execute::rail::Reach {
        chain: chain.into(),
        urls: vec![url.to_owned()],
        sandbox_nodes: true,
        sandbox_pins: true,
    })
    .await
    .unwrap()
}
