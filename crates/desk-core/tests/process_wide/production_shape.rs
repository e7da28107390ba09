//! The Sandbox in the real service's shape (issue 30, item 6): offramps and token swaps from an EVM chain go to the
//! chain's published entry contract (an AllowanceHolder-style contract placed on the local anvil at its real address)
//! as its `exec`, whose inner call the app does not decode. They are checked as on Production (the pinned entry, the
//! decoded `exec`), simulated on the chain, approved, signed, registered and completed without blind signing; and the
//! production-shaped lies are each refused, by the decoding or by the simulation, before anything is signed.

use crate::common;

use alloy_primitives::U256;
use desk_core::ErrorKind;
use desk_core::desk::SwapForm;
use desk_core::journal::{Stage, WalletTxKind};
use desk_core::simulate::SimulationStatus;
use gateway_client::wire::NATIVE_TOKEN;
use gateway_sim::evm_node::EvmNode;

use common::{USDT_BOB, USDT_ETH, WBTC_BOB, card, desk_with_wallet, set_tamper, verified_order};

const USDT_TRON: &str = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";

use crate::TURN;

/// bob's and ethereum's nodes with the Sandbox's contracts (the entry contracts among them), named to the Sandbox.
async fn nodes() -> Vec<EvmNode> {
    common::sandbox_nodes(&["bob", "ethereum"]).await
}

fn offramp(evm: &str, btc: &str) -> SwapForm {
    SwapForm {
        src_chain: "bob".into(),
        src_token: WBTC_BOB.into(),
        dst_chain: "bitcoin".into(),
        dst_token: NATIVE_TOKEN.into(),
        amount: "0.001".into(),
        slippage_bps: 300,
        recipient: btc.into(),
        sender: Some(evm.into()),
        owner: None,
        refund: None,
    }
}

fn token_swap(evm: &str) -> SwapForm {
    SwapForm {
        src_chain: "bob".into(),
        src_token: USDT_BOB.into(),
        dst_chain: "ethereum".into(),
        dst_token: USDT_ETH.into(),
        amount: "25".into(),
        slippage_bps: 300,
        recipient: evm.into(),
        sender: Some(evm.into()),
        owner: None,
        refund: None,
    }
}

fn entry(chain: &str) -> String {
    gateway_client::chains::chain(chain)
        .and_then(|c| c.approval_spender)
        .unwrap()
        .parse::<alloy_primitives::Address>()
        .unwrap()
        .to_checksum(None)
}

/// Signs the plan's first step (an approval), as confirmed.
async fn sign_first_step(
    desk: &desk_core::Desk,
    local_id: i64,
    plan: &desk_core::execute::rail::WalletPlan,
) {
    let step = &plan.steps[0];
    desk.wallet_step(local_id, Some(step.kind), Some(&step.max_fee), false)
        .await
        .unwrap();
}

/// Signs every step the plan shows, each only as confirmed, without blind signing or any acceptance.
async fn pay(desk: &desk_core::Desk, local_id: i64) -> desk_core::views::OrderView {
    loop {
        let plan = desk.wallet_plan(local_id).await.unwrap();
        let step = plan.steps[0].clone();
        let order = desk
            .wallet_step(local_id, Some(step.kind), Some(&step.max_fee), false)
            .await
            .unwrap();
        if step.kind == WalletTxKind::Pay {
            return order;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn production_shaped_orders_are_checked_simulated_and_completed_without_blind_signing() {
    let _turn = TURN.lock().await;
    let _nodes = nodes().await;
    let home = tempfile::tempdir().unwrap();
    let (desk, accounts) = desk_with_wallet(home.path()).await;
    let settings = desk.set_sandbox_production_shape(true).await.unwrap();
    assert!(!settings.blind_signing);
    let mut events = desk.subscribe();
    let evm = accounts.evm().ok().unwrap().address.clone();
    let btc = accounts.bitcoin().ok().unwrap().address.clone();
    let gateway = gateway_sim::quote::gateway_contract("bob");

    for form in [offramp(&evm, &btc), token_swap(&evm)] {
        let quoted = card(&desk, &form).await;
        assert_eq!(
            quoted.tx_to.map(|t| t.to_lowercase()),
            Some(entry("bob").to_lowercase())
        );
        let local_id = verified_order(&desk, &form).await;
        let order = desk.order_view(local_id).unwrap();
        let verified = order.verified.clone().unwrap();
        // Checked as on Production: the entry pinned, exec decoded, its inner call labelled not decoded.
        assert!(
            verified.sentence.contains("exec") && verified.sentence.contains("NOT DECODED"),
            "{}",
            verified.sentence
        );
        let plan = desk.wallet_plan(local_id).await.unwrap();
        assert_eq!(
            plan.steps.iter().map(|s| s.kind).collect::<Vec<_>>(),
            [WalletTxKind::Approve, WalletTxKind::Pay]
        );
        assert!(
            plan.steps[0].sentence.contains(&entry("bob")),
            "{}",
            plan.steps[0].sentence
        );
        // The chain shows exactly the quote's input leaving, to the gateway's contract that exec calls.
        assert_eq!(
            plan.simulation.status,
            SimulationStatus::Simulated,
            "{:?}",
            plan.simulation
        );
        assert_eq!(plan.simulation.moves.len(), 1, "{:?}", plan.simulation);
        assert_eq!(plan.simulation.moves[0].counterparty, gateway);
        assert!(
            plan.simulation
                .sentence
                .ends_with("nothing else leaves the wallet."),
            "{}",
            plan.simulation.sentence
        );
        let done = pay(&desk, local_id).await;
        assert_eq!(done.stage, Some(Stage::Registered), "{done:?}");
        // An offramp takes longer than an onramp: the Sandbox's clock moved on first.
        common::advance(&desk.settings().await.network.base_url, 2_000).await;
        let done = common::complete_onramp(&desk, &mut events, local_id).await;
        assert_eq!(done.status.as_deref(), Some("success"));
    }
    desk.shutdown().await;
}

/// Starts an order from `form` with `tamper` in force, and gives the refusal (the quote's or create-order's).
async fn refused_at_create(desk: &desk_core::Desk, form: &SwapForm, tamper: &str) -> String {
    set_tamper(desk, Some(tamper)).await;
    let started = match desk.quote(form).await {
        Ok(desk_core::QuoteResult::Quote { card }) => desk.start_order(card.raw, None).await,
        Ok(other) => panic!("{tamper}: {other:?}"),
        Err(e) => Err(e),
    };
    set_tamper(desk, None).await;
    match started {
        Err(e) => e.message,
        Ok(order) => {
            assert_eq!(order.stage, Some(Stage::Refused), "{tamper}: {order:?}");
            order.last_error.unwrap_or_default()
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn production_shaped_lies_are_refused_by_the_decoding_or_the_simulation() {
    let _turn = TURN.lock().await;
    let nodes = nodes().await;
    let home = tempfile::tempdir().unwrap();
    let (desk, accounts) = desk_with_wallet(home.path()).await;
    desk.set_sandbox_production_shape(true).await.unwrap();
    let evm = accounts.evm().ok().unwrap().address.clone();
    let btc = accounts.bitcoin().ok().unwrap().address.clone();
    let form = offramp(&evm, &btc);
    desk.wallet_balance("bob", WBTC_BOB).await.unwrap();

    // The decoding (or the quote's own figures) refuses these before anything is shown to sign.
    for (tamper, words) in [
        ("entrySwapped", "0xbad0"),
        ("oddLengthCalldata", "odd number of hexadecimal characters"),
        ("calldataAmountTimesTen", "1000000"),
        ("nativeValueAdded", "also sends 1 ETH"),
        ("quoteOutputOnePercent", ""),
    ] {
        let why = refused_at_create(&desk, &form, tamper).await;
        println!("{tamper}: {why}");
        assert!(
            why.to_lowercase().contains(&words.to_lowercase()),
            "{tamper}: {why}"
        );
    }

    // The simulation refuses these: the decoding cannot see inside the gateway's own call.
    // (An allowance the wallet gave the gateway's contract earlier, which the second-token lie tries to use.)
    let gateway = gateway_sim::quote::gateway_contract("bob");
    let approve =
        alloy_sol_types::SolCall::abi_encode(&gateway_sim::evm_node::calls::approveCall {
            spender: gateway.parse().unwrap(),
            amount: U256::MAX,
        });
    desk.wallet_balance("bob", USDT_BOB).await.unwrap();
    nodes[0]
        .send_as(&evm, USDT_BOB, &approve, U256::ZERO)
        .await
        .unwrap();
    for (tamper, words) in [
        ("execPullsMore", "AllowanceHolder: allowance exceeded"),
        ("execSecondToken", "USDT leaves the wallet to"),
        ("execStrangerPulls", "a third party"),
    ] {
        set_tamper(&desk, Some(tamper)).await;
        let local_id = verified_order(&desk, &form).await;
        set_tamper(&desk, None).await;
        let refused = desk.wallet_plan(local_id).await.unwrap_err();
        println!("{tamper}: {}", refused.message);
        assert_eq!(refused.kind, ErrorKind::Refused, "{tamper}");
        assert!(
            refused.message.contains(words),
            "{tamper}: {}",
            refused.message
        );
        assert!(
            refused.message.contains("Nothing was signed")
                || refused.message.contains("it was not signed"),
            "{tamper}: {}",
            refused.message
        );
        assert!(common::wallet_txs(&desk, local_id).is_empty(), "{tamper}");
        // Asked to sign anyway, the same refusal: the plan is made again before any signature.
        let plan_fee = "1000000000000000000";
        let again = desk
            .wallet_step(local_id, Some(WalletTxKind::Approve), Some(plan_fee), true)
            .await
            .unwrap_err();
        assert!(again.message.contains(words), "{tamper}: {}", again.message);
        assert!(common::wallet_txs(&desk, local_id).is_empty(), "{tamper}");
        desk.discard(local_id).await.ok();
    }
    desk.shutdown().await;
}

/// A USDT swap from Tron in the real service's shape: approved to Tron's published entry contract (`TAfbit1…`, an
/// AllowanceHolder-style contract on the stand-in's chain), its `exec` run read-only on the node before it is
/// confirmed, then signed, registered, without blind signing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_production_shaped_trc20_swap_is_approved_to_trons_entry_run_read_only_and_registered() {
    let _turn = TURN.lock().await;
    let node = gateway_sim::local_chain::tron_node::TronNode::start()
        .await
        .unwrap();
    common::name_nodes_to_sandbox(&[("tron", node.url())]);
    let home = tempfile::tempdir().unwrap();
    let (desk, accounts) = desk_with_wallet(home.path()).await;
    desk.set_sandbox_production_shape(true).await.unwrap();
    desk.wallet_balance("tron", USDT_TRON).await.unwrap();
    let evm = accounts.evm().ok().unwrap().address.clone();
    let form = SwapForm {
        src_chain: "tron".into(),
        src_token: USDT_TRON.into(),
        dst_chain: "bob".into(),
        dst_token: USDT_BOB.into(),
        amount: "25".into(),
        slippage_bps: 300,
        recipient: evm.clone(),
        sender: Some(accounts.for_chain("tron").unwrap().address.clone()),
        owner: None,
        refund: None,
    };
    let local_id = verified_order(&desk, &form).await;
    let tron_entry = "TAfbit1ENsRmtZbPQfYU3srURpfYuWYS7K";
    let plan = desk.wallet_plan(local_id).await.unwrap();
    assert!(
        plan.steps[0].sentence.contains(tron_entry),
        "{}",
        plan.steps[0].sentence
    );
    assert_eq!(plan.simulation.status, SimulationStatus::Partial);
    sign_first_step(&desk, local_id, &plan).await;
    // The stand-in, like java-tron, gives the read-only run's logs: what the call moves is read from them.
    let plan = desk.wallet_plan(local_id).await.unwrap();
    assert_eq!(
        plan.simulation.status,
        SimulationStatus::Simulated,
        "{:?}",
        plan.simulation
    );
    assert!(
        plan.simulation.sentence.starts_with(&format!(
            "−25 USDT to {}, network fee at most ",
            gateway_sim::quote::gateway_contract("tron")
        )) && plan
            .simulation
            .sentence
            .contains("nothing else leaves the wallet"),
        "{}",
        plan.simulation.sentence
    );
    let pay = plan.steps[0].clone();
    assert_eq!(pay.kind, WalletTxKind::Pay);
    assert!(pay.sentence.contains(tron_entry), "{}", pay.sentence);
    let paid = desk
        .wallet_step(local_id, Some(pay.kind), Some(&pay.max_fee), false)
        .await
        .unwrap();
    assert_eq!(paid.stage, Some(Stage::Registered), "{paid:?}");

    // Inside Tron's exec, a pull beyond the amount: the read-only run reverts, and the call is not signed.
    set_tamper(&desk, Some("execPullsMore")).await;
    let local_id = verified_order(&desk, &form).await;
    set_tamper(&desk, None).await;
    let plan = desk.wallet_plan(local_id).await.unwrap();
    sign_first_step(&desk, local_id, &plan).await;
    let refused = desk.wallet_plan(local_id).await.unwrap_err();
    assert!(
        refused.message.contains("would fail"),
        "{}",
        refused.message
    );
    assert_eq!(
        common::wallet_txs(&desk, local_id).len(),
        1,
        "only the approval"
    );

    // A stranger as exec's operator, pulling the amount to itself: the run's logs show it going to a third party.
    // (The refused order's exact approval to the entry is still there, so this order's call is run at once.)
    set_tamper(&desk, Some("execStrangerPulls")).await;
    let local_id = verified_order(&desk, &form).await;
    set_tamper(&desk, None).await;
    let refused = desk.wallet_plan(local_id).await.unwrap_err();
    println!("tron execStrangerPulls: {}", refused.message);
    assert!(
        refused.message.contains("a third party")
            && refused
                .message
                .contains(gateway_sim::local_chain::tron_node::ATTACKER),
        "{}",
        refused.message
    );
    assert!(common::wallet_txs(&desk, local_id).is_empty());
    desk.shutdown().await;
}
