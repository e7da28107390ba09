//! desk-core against the embedded gateway-sim over loopback, with a temporary data folder.

use std::net::{Ipv4Addr, SocketAddr};

use desk_core::api::{NetworkChoice, RouteKind};
use desk_core::settings::NetworkKind;
use desk_core::{AppPaths, ErrorKind};
use gateway_sim::Sim;

use crate::common;

use common::{create_order_directly, mock_keychain, swap_request};

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
    let desk = desk_sandbox::open_desk(AppPaths::under(home.path()))
        .await
        .unwrap();
    let view = desk.settings().await;
    assert_eq!(view.network.kind, NetworkKind::Sandbox);
    assert!(
        view.network.base_url.starts_with("http://127.0.0.1:"),
        "{}",
        view.network.base_url
    );
    assert_eq!(
        view.network.api_version, "v4",
        "the service's current version is the default"
    );
    assert!(view.notices.is_empty(), "{:?}", view.notices);

    let routes = desk.routes().await.unwrap();
    let expected = Sim::new()
        .catalogue()
        .routes(gateway_client::ApiVersion::V4)
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
    let desk = desk_sandbox::open_desk(paths.clone()).await.unwrap();

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

    let reopened = desk_sandbox::open_desk(paths.clone()).await.unwrap();
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
    // A gateway that answered when it was chosen, then stopped: nothing listens there now.
    let gone = Sim::new()
        .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    let desk = desk_sandbox::open_desk(AppPaths::under(home.path()))
        .await
        .unwrap();
    desk.select_network(choice(NetworkKind::Custom, Some(&gone.base_url())))
        .await
        .unwrap();
    gone.shutdown().await.unwrap();
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
    let desk = desk_sandbox::open_desk(paths.clone()).await.unwrap();
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

#[tokio::test]
async fn the_sandbox_keeps_its_orders_across_restarts_and_sets_a_damaged_state_aside() {
    mock_keychain();
    let home = tempfile::tempdir().unwrap();
    let paths = AppPaths::under(home.path());
    let desk = desk_sandbox::open_desk(paths.clone()).await.unwrap();
    let url = desk.settings().await.network.base_url;
    let id = create_order_directly(&url, &swap_request()).await;
    desk.shutdown().await;
    let state = paths.data_dir.join(desk_core::SANDBOX_STATE_FILE);
    assert!(
        state.exists(),
        "the Sandbox's orders are in the data folder"
    );

    // A new app session: a new port, the same orders.
    let desk = desk_sandbox::open_desk(paths.clone()).await.unwrap();
    let url = desk.settings().await.network.base_url;
    let order = common::client(&url, gateway_client::ApiVersion::V3)
        .get_order(&id)
        .await
        .unwrap()
        .value;
    assert_eq!(order.id, id);
    desk.shutdown().await;

    // A damaged state file is renamed, not overwritten, and the Sandbox starts empty.
    std::fs::write(&state, b"not json").unwrap();
    let desk = desk_sandbox::open_desk(paths.clone()).await.unwrap();
    let url = desk.settings().await.network.base_url;
    create_order_directly(&url, &swap_request()).await;
    desk.shutdown().await;
    let aside: Vec<_> = std::fs::read_dir(&paths.data_dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(".unreadable-"))
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(std::fs::read(aside[0].path()).unwrap(), b"not json");
}

mod flow {
    use std::time::Duration;

    use desk_core::DeskEvent;
    use desk_core::desk::{QuoteResult, SwapForm};
    use desk_core::error::ErrorKind;
    use desk_core::flow::QuestionField;
    use desk_core::journal::Stage;
    use gateway_client::ApiVersion;
    use gateway_sim::payload::testkit::TestWallet;

    use crate::common::{
        EVM, OWNER, WBTC_BOB, card, complete_onramp, create_order_directly, onramp_form, open, psbt,
    };

    #[tokio::test]
    async fn an_onramp_goes_from_the_form_to_completed_through_the_desk() {
        let home = tempfile::tempdir().unwrap();
        let desk = open(home.path()).await;
        let mut events = desk.subscribe();
        let wallet = TestWallet::from_seed([9; 32]);
        let form = onramp_form(Some(wallet.address(bitcoin::Network::Regtest)));
        let card = card(&desk, &form).await;
        assert_eq!(card.send.amount, "250000");
        assert_eq!(card.send.text, "0.0025 BTC");
        assert!(card.receive.text.ends_with("WBTC"), "{}", card.receive.text);
        assert_eq!(card.fee_lines.len(), 5);
        assert!(card.total_fees_usd.is_some());
        // The person's own Bitcoin fee: a one-coin deposit's size at the Sandbox's rate, priced at the send's own
        // BTC price, and the total cost beside the gateway's fees.
        let own = card.own_fee.as_ref().expect("the card's own fee");
        assert_eq!(own.kind, Some(desk_core::views::OwnFeeKind::About));
        assert_eq!(own.amount.as_deref(), Some("2352"), "196 vB at 12 sat/vB");
        assert_eq!(own.text.as_deref(), Some("0.0000236 BTC"), "rounded up");
        assert!(own.usd.is_some(), "the onramp's BTC is priced: {own:?}");
        assert!(own.total_usd.is_some(), "{own:?}");
        assert!(
            own.total_text.starts_with("About $") && own.total_text.contains("in all"),
            "{}",
            own.total_text
        );

        let order = desk.start_order(card.raw.clone(), None).await.unwrap();
        // The Sign step's fee in BTC, with its USD at the same price.
        let deposit = order.to_pay.as_ref().unwrap();
        assert!(
            deposit.fee_text.as_deref().unwrap().ends_with(" BTC"),
            "{deposit:?}"
        );
        assert!(deposit.fee_usd.is_some(), "{deposit:?}");
        assert_eq!(order.stage, Some(Stage::Verified));
        let verified = order.verified.clone().unwrap();
        assert!(verified.sentence.contains("0.0025"), "{verified:?}");
        let psbt = psbt(&order);

        // The Sandbox is regtest: its deposit address and every PSBT output are of regtest, payable by no real money,
        // and the same answer with a mainnet deposit address is refused by the check before signing.
        let created = order.created.clone().unwrap();
        let deposit = created["onramp"]["address"].as_str().unwrap();
        assert!(deposit.starts_with("bcrt1"), "{deposit}");
        let decoded =
            bitcoin::Psbt::deserialize(&alloy_primitives::hex::decode(&psbt).unwrap()).unwrap();
        for output in &decoded.unsigned_tx.output {
            if !output.script_pubkey.is_op_return() {
                let address =
                    bitcoin::Address::from_script(&output.script_pubkey, bitcoin::Network::Regtest)
                        .unwrap()
                        .to_string();
                assert!(address.starts_with("bcrt1"), "{address}");
            }
        }
        let quote = gateway_client::wire::Quote::from_json(card.raw.clone()).unwrap();
        let mut mainnet = created.clone();
        mainnet["onramp"]["address"] =
            serde_json::json!("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq");
        let mainnet = gateway_client::wire::CreateOrderResponse::from_value(&mainnet).unwrap();
        assert!(
            desk_core::verify::verify_order(
                &quote,
                &mainnet,
                gateway_client::address::BitcoinNetwork::Regtest
            )
            .is_err()
        );

        // A transaction that is not the PSBT's is refused before anything is sent.
        let err = desk
            .hand_in(order.local_id.unwrap(), "00")
            .await
            .unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidInput);

        let signed = wallet.sign_psbt(&psbt).unwrap();
        let order = desk
            .hand_in(order.local_id.unwrap(), &signed)
            .await
            .unwrap();
        assert_eq!(order.stage, Some(Stage::Registered));
        assert!(order.timeline.iter().any(|e| e.key == "registered"));

        let done = complete_onramp(&desk, &mut events, order.local_id.unwrap()).await;
        assert_eq!(done.stage, Some(Stage::Finished));
        assert_eq!(done.received.len(), 1);
        assert!(done.received[0].amount.usd.is_some());
        assert!(
            done.received[0].explorer_url.is_none(),
            "no explorer links for the Sandbox"
        );
        let keys: Vec<&str> = done.timeline.iter().map(|e| e.key.as_str()).collect();
        assert!(keys.starts_with(&["created", "registered"]), "{keys:?}");
        assert!(keys.contains(&"success"), "{keys:?}");

        let listed = desk.orders().await.unwrap();
        assert_eq!(listed[0].local_id, order.local_id);
        assert!(
            home.path()
                .join("data")
                .join(desk_core::JOURNAL_FILE)
                .exists()
        );
        desk.shutdown().await;
    }

    #[tokio::test]
    async fn a_fixable_refusal_comes_back_as_a_question_and_bad_input_names_its_field() {
        let home = tempfile::tempdir().unwrap();
        let desk = open(home.path()).await;
        // V3's offramp asks for its owner; V4 has none (its refund address defaults to the sender).
        desk.set_api_version(ApiVersion::V3).await.unwrap();
        let form = SwapForm {
            src_chain: "bob".into(),
            src_token: WBTC_BOB.into(),
            dst_chain: "bitcoin".into(),
            dst_token: "0x0000000000000000000000000000000000000000".into(),
            amount: "0.001".into(),
            slippage_bps: 300,
            recipient: "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080".into(),
            sender: Some(EVM.into()),
            owner: None,
            refund: None,
        };
        let QuoteResult::Ask { question } = desk.quote(&form).await.unwrap() else {
            panic!("expected a question")
        };
        assert_eq!(question.field, QuestionField::OwnerAddress);
        let answered = SwapForm {
            owner: Some(OWNER.into()),
            ..form.clone()
        };
        assert!(matches!(
            desk.quote(&answered).await.unwrap(),
            QuoteResult::Quote { .. }
        ));

        let small = SwapForm {
            amount: "0.00001".into(),
            ..answered.clone()
        };
        let QuoteResult::Ask { question } = desk.quote(&small).await.unwrap() else {
            panic!("expected the minimum")
        };
        assert_eq!(question.field, QuestionField::Amount);
        assert!(question.suggestion.is_some());

        // A tolerance below the route's floor: the gateway names the floor in its details ({required_bps,
        // requested_bps}, as the September 2026 document has them), and the question carries it.
        let tight = SwapForm {
            slippage_bps: 20,
            ..answered
        };
        let QuoteResult::Ask { question } = desk.quote(&tight).await.unwrap() else {
            panic!("expected the slippage floor")
        };
        assert_eq!(question.field, QuestionField::Slippage);
        assert_eq!(question.code, "SLIPPAGE_TOO_LOW");
        assert_eq!((question.min_bps, question.max_bps), (Some(50), None));
        assert_eq!(question.suggestion.as_deref(), Some("50"));
        assert!(
            question
                .message
                .starts_with("This route takes at least 0.50% slippage (50 bps)"),
            "{}",
            question.message
        );

        let err = desk
            .quote(&SwapForm {
                recipient: "not an address".into(),
                ..form
            })
            .await
            .unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidInput);
        assert_eq!(err.details_json().unwrap()["field"], "recipient");
        desk.shutdown().await;
    }

    #[tokio::test]
    async fn watched_addresses_bring_in_orders_the_app_did_not_make_and_keys_are_set_and_removed() {
        let home = tempfile::tempdir().unwrap();
        let desk = open(home.path()).await;
        let mut events = desk.subscribe();
        let owner = "0x1111111111111111111111111111111111111111";
        let view = desk.watch_address(owner).await.unwrap();
        assert_eq!(view.watched, vec![owner.to_owned()]);
        assert!(desk.watch_address("nonsense").await.is_err());

        // Someone else's order for the watched owner, made directly on the gateway.
        let base = desk.settings().await.network.base_url;
        let mut request = gateway_client::QuoteRequest::new(
            ("bitcoin", gateway_client::wire::NATIVE_TOKEN),
            ("bob", WBTC_BOB),
            "100000",
            EVM,
        );
        request.owner_address = Some(owner.into());
        let id = create_order_directly(&base, &request).await;
        desk.refresh_now().await;
        tokio::time::timeout(Duration::from_secs(30), async {
            loop {
                if let Ok(DeskEvent::OrderChanged { order }) = events.recv().await
                    && order.order_id.as_deref() == Some(id.as_str())
                {
                    assert_eq!(order.local_id, None);
                    return;
                }
            }
        })
        .await
        .expect("the watched address's order arrives");
        assert!(
            desk.orders()
                .await
                .unwrap()
                .iter()
                .any(|o| o.order_id.as_deref() == Some(id.as_str()))
        );
        let view = desk.unwatch_address(owner).await.unwrap();
        assert!(view.watched.is_empty());

        // The API key: checked, kept in the keychain (the mock here), shown masked, removable.
        let err = desk.set_api_key("too-short").await.unwrap_err();
        assert_eq!(err.details_json().unwrap()["field"], "apiKey");
        let view = desk
            .set_api_key("0123456789abcdef0123456789abcdef")
            .await
            .unwrap();
        assert_eq!(view.api_key.as_deref(), Some("01…ef"));
        desk.routes()
            .await
            .expect("the Sandbox accepts the stored key");
        let settings_file =
            std::fs::read_to_string(home.path().join("config/settings.json")).unwrap();
        assert!(
            !settings_file.contains("0123456789abcdef"),
            "the key never reaches the settings file"
        );
        let view = desk.remove_api_key().await.unwrap();
        assert_eq!(view.api_key, None);
        desk.shutdown().await;
    }
}
