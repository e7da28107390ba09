//! A Sandbox a person can learn on: the desk moves the Sandbox's clock on (by a step, or exactly as far as its paid
//! orders need to finish), the orders are read again at once, and what a finished order pays out arrives where the
//! wallet reads it: an offramp's BTC as a coin of the wallet's Bitcoin address (the next PSBT spends it), an
//! onramp's WBTC minted to the wallet on BOB. Once each. Off the Sandbox the clock is not the app's to move.

use crate::common;

use alloy_primitives::U256;
use desk_core::ErrorKind;
use desk_core::api::NetworkChoice;
use desk_core::desk::SwapForm;
use desk_core::journal::{Stage, WalletTxKind};
use desk_core::settings::NetworkKind;
use desk_core::{Desk, DeskEvent};
use gateway_client::wire::NATIVE_TOKEN;
use gateway_sim::payload::deposit_fee_sats_spending;
use std::str::FromStr;
use std::time::Duration;
use tokio::sync::broadcast;

use common::{WBTC_BOB, desk_with_wallet, verified_order};

use crate::TURN;

async fn balance(desk: &Desk, chain: &str, token: &str) -> u64 {
    desk.wallet_balance(chain, token)
        .await
        .unwrap()
        .amount
        .parse()
        .unwrap()
}

/// Signs each step of the wallet's plan for `local_id` in turn, at the fee the plan shows, until it is registered.
async fn pay_with_wallet(desk: &Desk, local_id: i64) {
    loop {
        let plan = desk.wallet_plan(local_id).await.unwrap();
        let Some(step) = plan.steps.first() else {
            break;
        };
        let order = desk
            .wallet_step(local_id, Some(step.kind), Some(&step.max_fee), false)
            .await
            .unwrap();
        if order.stage == Some(Stage::Registered) {
            break;
        }
        assert_ne!(
            step.kind,
            WalletTxKind::Pay,
            "paid but not registered: {order:?}"
        );
    }
    assert_eq!(
        desk.order_view(local_id).unwrap().stage,
        Some(Stage::Registered)
    );
}

/// Waits until the desk reports order `local_id` with `status` (the tracker's read after the clock moved).
async fn reported(events: &mut broadcast::Receiver<DeskEvent>, local_id: i64, status: &str) {
    tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            if let Ok(DeskEvent::OrderChanged { order }) = events.recv().await
                && order.local_id == Some(local_id)
                && order.status.as_deref() == Some(status)
            {
                return;
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("order {local_id} is reported {status}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moving_the_sandboxs_clock_finishes_orders_and_their_output_reaches_the_wallet_once() {
    let _turn = TURN.lock().await;
    let node = common::sandbox_nodes(&["bob"]).await.remove(0);
    let home = tempfile::tempdir().unwrap();
    let (desk, accounts) = desk_with_wallet(home.path()).await;
    let mut events = desk.subscribe();
    let evm = accounts.evm().ok().unwrap().address.clone();
    let btc = accounts.bitcoin().ok().unwrap().address.clone();

    let idle = desk.sandbox_clock().await.unwrap();
    assert_eq!(idle.pending, 0);
    assert_eq!(idle.status, "No paid order of the Sandbox is under way.");
    let nothing = desk.sandbox_finish_pending().await.unwrap();
    assert_eq!((nothing.moved_secs, nothing.finished), (0, 0));
    assert!(
        nothing.status.contains("its clock was not moved"),
        "{}",
        nothing.status
    );

    // An offramp from the wallet's WBTC on BOB to the wallet's own Bitcoin address.
    let wbtc_start = balance(&desk, "bob", WBTC_BOB).await;
    let btc_start = balance(&desk, "bitcoin", "").await;
    let offramp = SwapForm {
        src_chain: "bob".into(),
        src_token: WBTC_BOB.into(),
        dst_chain: "bitcoin".into(),
        dst_token: NATIVE_TOKEN.into(),
        amount: "0.001".into(),
        slippage_bps: 300,
        recipient: btc.clone(),
        sender: Some(evm.clone()),
        owner: None,
        refund: None,
    };
    let local_id = verified_order(&desk, &offramp).await;
    let payout: u64 = desk
        .order_view(local_id)
        .unwrap()
        .receive
        .amount
        .parse()
        .unwrap();
    pay_with_wallet(&desk, local_id).await;
    assert_eq!(balance(&desk, "bob", WBTC_BOB).await, wbtc_start - 100_000);
    let clock = desk.sandbox_clock().await.unwrap();
    assert_eq!(clock.pending, 1);
    assert!(
        (1_700..=1_800).contains(&clock.finish_in_secs),
        "an offramp takes 30 minutes: {clock:?}"
    );

    // "Finish pending orders now": exactly as far as the order needs, and it is read again at once.
    let finished = desk.sandbox_finish_pending().await.unwrap();
    assert_eq!(finished.moved_secs, clock.finish_in_secs);
    assert_eq!(
        (finished.finished, finished.delivered, finished.pending),
        (1, 1, 0)
    );
    assert!(
        finished
            .status
            .starts_with("Moved the Sandbox's clock on by "),
        "{}",
        finished.status
    );
    assert!(
        finished.status.contains("; 1 order finished."),
        "{}",
        finished.status
    );
    reported(&mut events, local_id, "success").await;
    // The payout is a second coin of the wallet's address: what it can spend grows by the payout, less the fee of
    // spending one more input.
    let script = bitcoin::Address::from_str(&btc)
        .unwrap()
        .assume_checked()
        .script_pubkey();
    let btc_paid = balance(&desk, "bitcoin", "").await;
    assert_eq!(
        btc_paid,
        btc_start + payout
            - (deposit_fee_sats_spending(&script, 2, false)
                - deposit_fee_sats_spending(&script, 1, false))
    );

    // An onramp paid by the wallet (its PSBT spends both coins) to its own address on BOB, and "+10 minutes".
    let onramp = SwapForm {
        src_chain: "bitcoin".into(),
        src_token: NATIVE_TOKEN.into(),
        dst_chain: "bob".into(),
        dst_token: WBTC_BOB.into(),
        amount: "0.0025".into(),
        slippage_bps: 300,
        recipient: evm.clone(),
        sender: Some(btc.clone()),
        owner: None,
        refund: None,
    };
    let local_id = verified_order(&desk, &onramp).await;
    let output: u64 = desk
        .order_view(local_id)
        .unwrap()
        .receive
        .amount
        .parse()
        .unwrap();
    pay_with_wallet(&desk, local_id).await;
    let wbtc_paid = balance(&desk, "bob", WBTC_BOB).await;
    let ten = desk.sandbox_advance(600).await.unwrap();
    assert_eq!((ten.moved_secs, ten.finished, ten.delivered), (600, 1, 1));
    assert!(
        ten.status
            .starts_with("Moved the Sandbox's clock on by 10 min; 1 order finished."),
        "{}",
        ten.status
    );
    reported(&mut events, local_id, "success").await;
    assert_eq!(balance(&desk, "bob", WBTC_BOB).await, wbtc_paid + output);
    assert_eq!(
        node.token_balance(WBTC_BOB, &evm).await.unwrap(),
        U256::from(wbtc_paid + output),
        "minted on the chain itself"
    );

    // Once: the clock moves on, the orders are read again; nothing more arrives.
    let again = desk.sandbox_advance(600).await.unwrap();
    assert_eq!((again.finished, again.delivered), (0, 0));
    desk.refresh_now().await;
    assert_eq!(balance(&desk, "bob", WBTC_BOB).await, wbtc_paid + output);
    let btc_now = balance(&desk, "bitcoin", "").await;
    assert!(btc_now < btc_paid, "the onramp spent the coins: {btc_now}");
    assert_eq!(desk.sandbox_advance(60).await.unwrap().delivered, 0);
    assert_eq!(balance(&desk, "bitcoin", "").await, btc_now);

    // A step out of bounds is refused before anything moves.
    assert_eq!(
        desk.sandbox_advance(0).await.unwrap_err().kind,
        ErrorKind::InvalidInput
    );
    assert_eq!(
        desk.sandbox_advance(desk_core::desk::MAX_ADVANCE_SECS + 1)
            .await
            .unwrap_err()
            .kind,
        ErrorKind::InvalidInput
    );

    // Off the Sandbox (a gateway of the person's own at a custom URL), the clock is not the app's to move.
    let (_other, running) = {
        let sim = gateway_sim::Sim::new();
        let running = sim
            .clone()
            .spawn(std::net::SocketAddr::from((
                std::net::Ipv4Addr::LOCALHOST,
                0,
            )))
            .await
            .unwrap();
        (sim, running)
    };
    desk.select_network(NetworkChoice {
        kind: NetworkKind::Custom,
        custom_url: Some(running.base_url()),
    })
    .await
    .unwrap();
    let refused = desk.sandbox_advance(600).await.unwrap_err();
    assert_eq!(refused.kind, ErrorKind::Sandbox);
    assert!(
        refused
            .message
            .starts_with("Only the Sandbox's clock can be moved on, and the app is on Custom URL"),
        "{}",
        refused.message
    );
    assert_eq!(
        desk.sandbox_finish_pending().await.unwrap_err().kind,
        ErrorKind::Sandbox
    );
    desk.wallet_remove().await.unwrap();
    desk.shutdown().await;
    running.shutdown().await.unwrap();
}
