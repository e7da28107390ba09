//! desk-core against the embedded gateway-sim over loopback, with a temporary data folder.

use std::net::{Ipv4Addr, SocketAddr};

use desk_core::api::{NetworkChoice, RouteKind};
use desk_core::settings::NetworkKind;
use desk_core::{AppPaths, Desk, ErrorKind};
use gateway_sim::Sim;

fn mock_keychain() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| keyring_core::set_default_store(keyring_core::mock::Store::new().unwrap()));
}

fn choice(kind: NetworkKind, url: Option<&str>) -> NetworkChoice {
    NetworkChoice {
        kind,
        custom_url: url.map(str::to_owned),
    }
}

#[tokio::test]
async fn a_fresh_install_runs_on_the_sandbox_and_lists_its_routes() {
    mock_keychain();
    let home = tempfile::tempdir().unwrap();
    let desk = Desk::open(AppPaths::under(home.path())).await.unwrap();
    let view = desk.settings().await;
    assert_eq!(view.network.kind, NetworkKind::Sandbox);
    assert!(
        view.network.base_url.starts_with("http://127.0.0.1:"),
        "{}",
        view.network.base_url
    );
    assert_eq!(view.network.api_version, "v3");
    assert!(view.notices.is_empty(), "{:?}", view.notices);

    let routes = desk.routes().await.unwrap();
    let expected = Sim::new()
        .catalogue()
        .routes(gateway_client::ApiVersion::V3)
        .len();
    assert_eq!(routes.len(), expected);
    let onramp = routes
        .iter()
        .find(|r| {
            r.kind == RouteKind::Onramp
                && r.dst.chain == "bsc"
                && r.dst.symbol.as_deref() == Some("USDC")
        })
        .expect("bitcoin to USDC on BSC");
    assert_eq!(onramp.src.symbol.as_deref(), Some("BTC"));
    assert_eq!(onramp.dst.decimals, Some(18), "BSC's USDC has 18 decimals");
    assert!(
        routes
            .iter()
            .any(|r| r.kind == RouteKind::Offramp && r.src.chain == "tron")
    );
    assert!(routes.iter().any(|r| r.kind == RouteKind::TokenSwap));
    assert!(
        routes
            .iter()
            .all(|r| r.src.symbol.is_some() && r.dst.symbol.is_some())
    );
    desk.shutdown().await;
}

#[tokio::test]
async fn the_network_choice_is_remembered_and_bad_input_changes_nothing() {
    mock_keychain();
    let other = Sim::new()
        .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    let paths = AppPaths::under(home.path());
    let desk = Desk::open(paths.clone()).await.unwrap();

    let err = desk
        .select_network(choice(NetworkKind::Custom, Some("not a url")))
        .await
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput);
    assert_eq!(
        desk.settings().await.network.kind,
        NetworkKind::Sandbox,
        "a refused choice keeps the network"
    );
    assert!(!paths.settings_file().exists(), "nothing was written");

    let err = desk
        .select_network(choice(NetworkKind::Custom, None))
        .await
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput);

    let view = desk
        .select_network(choice(NetworkKind::Custom, Some(&other.base_url())))
        .await
        .unwrap();
    assert_eq!(view.network.kind, NetworkKind::Custom);
    assert_eq!(view.network.label, "Custom URL");
    assert_eq!(view.network.base_url, other.base_url());
    assert!(
        !desk.routes().await.unwrap().is_empty(),
        "routes come from the custom gateway"
    );
    desk.shutdown().await;
    drop(desk);

    let reopened = Desk::open(paths.clone()).await.unwrap();
    let view = reopened.settings().await;
    assert_eq!(
        view.network.kind,
        NetworkKind::Custom,
        "the choice survived a restart"
    );
    assert_eq!(view.custom_url.as_deref(), Some(other.base_url().as_str()));

    let view = reopened
        .select_network(choice(NetworkKind::Staging, None))
        .await
        .unwrap();
    assert_eq!(view.network.label, "Staging");
    assert_eq!(view.network.base_url, gateway_client::deployments::STAGING);
    assert_eq!(
        view.custom_url.as_deref(),
        Some(other.base_url().as_str()),
        "the custom URL is kept for later"
    );
    let view = reopened
        .select_network(choice(NetworkKind::Sandbox, None))
        .await
        .unwrap();
    assert_eq!(view.network.kind, NetworkKind::Sandbox);
    assert!(!reopened.routes().await.unwrap().is_empty());
    reopened.shutdown().await;
}

#[tokio::test]
async fn an_unreachable_gateway_is_a_transport_error_with_a_next_step() {
    mock_keychain();
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let home = tempfile::tempdir().unwrap();
    let desk = Desk::open(AppPaths::under(home.path())).await.unwrap();
    desk.select_network(choice(
        NetworkKind::Custom,
        Some(&format!("http://127.0.0.1:{port}")),
    ))
    .await
    .unwrap();
    let err = desk.routes().await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::Transport);
    assert!(err.message.contains("Could not connect"), "{}", err.message);
    assert!(
        err.message.contains("Sandbox"),
        "the message names a next step: {}",
        err.message
    );
    desk.shutdown().await;
}

#[tokio::test]
async fn a_corrupt_settings_file_is_reported_and_kept() {
    mock_keychain();
    let home = tempfile::tempdir().unwrap();
    let paths = AppPaths::under(home.path());
    std::fs::create_dir_all(&paths.config_dir).unwrap();
    std::fs::write(paths.settings_file(), "{ half a file").unwrap();
    let desk = Desk::open(paths.clone()).await.unwrap();
    let view = desk.settings().await;
    assert_eq!(view.network.kind, NetworkKind::Sandbox);
    assert_eq!(view.notices.len(), 1, "{:?}", view.notices);
    assert!(
        view.notices[0].contains("could not be used"),
        "{}",
        view.notices[0]
    );
    let kept: Vec<_> = std::fs::read_dir(&paths.config_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(kept.len(), 1);
    assert!(
        kept[0]
            .to_string_lossy()
            .starts_with("settings.json.unreadable-"),
        "{kept:?}"
    );
    desk.shutdown().await;
}

/// Creates one V3 token-swap order on the gateway at `base_url` and gives its id.
async fn create_swap_order(base_url: &str) -> String {
    let mut config = gateway_client::ClientConfig::new(base_url.parse().unwrap());
    config.read_attempts = 1;
    let client = gateway_client::Client::new(config).unwrap();
    let mut request = gateway_client::QuoteRequest::new(
        ("bob", "0x05D032ac25d322df992303dCa074EE7392C117b9"),
        ("ethereum", "0xdac17f958d2ee523a2206206994597c13d831ec7"),
        "50000000",
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    );
    request.slippage_bps = 100;
    let quote = client.get_quote(&request).await.unwrap().value;
    client
        .create_order(&quote)
        .await
        .unwrap()
        .value
        .order_id()
        .to_owned()
}

#[tokio::test]
async fn the_sandbox_keeps_its_orders_across_restarts_and_sets_a_damaged_state_aside() {
    mock_keychain();
    let home = tempfile::tempdir().unwrap();
    let paths = AppPaths::under(home.path());
    let desk = Desk::open(paths.clone()).await.unwrap();
    let url = desk.settings().await.network.base_url;
    let id = create_swap_order(&url).await;
    desk.shutdown().await;
    let state = paths.data_dir.join(desk_core::SANDBOX_STATE_FILE);
    assert!(
        state.exists(),
        "the Sandbox's orders are in the data folder"
    );

    // A new app session: a new port, the same orders.
    let desk = Desk::open(paths.clone()).await.unwrap();
    let url = desk.settings().await.network.base_url;
    let mut config = gateway_client::ClientConfig::new(url.parse().unwrap());
    config.read_attempts = 1;
    let order = gateway_client::Client::new(config)
        .unwrap()
        .get_order(&id)
        .await
        .unwrap()
        .value;
    assert_eq!(order.id, id);
    desk.shutdown().await;

    // A damaged state file is renamed, not overwritten, and the Sandbox starts empty.
    std::fs::write(&state, b"not json").unwrap();
    let desk = Desk::open(paths.clone()).await.unwrap();
    let url = desk.settings().await.network.base_url;
    create_swap_order(&url).await;
    desk.shutdown().await;
    let aside: Vec<_> = std::fs::read_dir(&paths.data_dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(".unreadable-"))
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(std::fs::read(aside[0].path()).unwrap(), b"not json");
}
