//! No dead ends (issue 16): an unfinished order can be abandoned while no money can have moved; an order whose
//! create-order answer was lost is looked up among the owner's orders (and never made twice); no second order is
//! started while one is uncertain; a failed or refunded order needs the person's attention until they acknowledge it.
//! Against the desk's own Sandbox (gateway-sim over loopback, its admin interface on for fault injection).

use gateway_sim::admin_client::AdminClient;
use std::time::Duration;

use desk_core::desk::{JOURNAL_FILE, SwapForm};
use desk_core::error::ErrorKind;
use desk_core::journal::{Journal, Stage};
use desk_core::views::OrderView;
use desk_core::{AppPaths, Desk};
use gateway_client::ApiVersion;
use serde_json::{Value, json};

use crate::common;

use common::{EVM, OWNER, USDT_BOB, USDT_ETH, advance, card, onramp_form, open};

/// A token swap on the Sandbox of `amount` USDT from BOB to Ethereum for `EVM`, paid from `OWNER`. The Sandbox ends an
/// order by the amount's last three smallest-unit digits: …404 fails, …808 is refunded, anything else succeeds.
fn swap_form(amount: &str) -> SwapForm {
    SwapForm {
        src_chain: "bob".into(),
        src_token: USDT_BOB.into(),
        dst_chain: "ethereum".into(),
        dst_token: USDT_ETH.into(),
        amount: amount.into(),
        slippage_bps: 100,
        recipient: EVM.into(),
        // Paid from `OWNER` on BOB, where API V4 (the default) sends a refund back.
        sender: Some(OWNER.into()),
        owner: None,
        refund: None,
    }
}

/// Adds a fault rule to the Sandbox at `base` (its admin interface).
async fn fault(base: &str, rule: Value) {
    AdminClient::new(base).add_fault(&rule).await.unwrap();
}

async fn clear_faults(base: &str) {
    AdminClient::new(base).clear_faults().await.unwrap();
}

async fn base_of(desk: &Desk) -> String {
    desk.settings().await.network.base_url
}

/// The ids of every order the Sandbox lists under `address`, read directly (not through the app).
async fn gateway_orders(base: &str, address: &str) -> Vec<String> {
    common::client(base, ApiVersion::V3)
        .orders_pager(address, None)
        .collect_all()
        .await
        .unwrap()
        .into_iter()
        .map(|o| o.id)
        .collect()
}

/// The journal the desk under `home` writes, opened beside it (SQLite in WAL mode: readers do not block it).
fn journal(home: &std::path::Path) -> Journal {
    Journal::open(&AppPaths::under(home).data_dir.join(JOURNAL_FILE)).unwrap()
}

fn kinds(journal: &Journal, local_id: i64) -> Vec<String> {
    journal
        .events(local_id)
        .unwrap()
        .into_iter()
        .map(|e| e.kind)
        .collect()
}

/// The desk's Orders list entry of `local_id`.
async fn listed(desk: &Desk, local_id: i64) -> OrderView {
    desk.orders()
        .await
        .unwrap()
        .into_iter()
        .find(|o| o.local_id == Some(local_id))
        .expect("the order is in Orders")
}

#[tokio::test]
async fn an_unfinished_order_is_abandoned_with_nothing_sent_and_a_paid_one_is_not() {
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let base = base_of(&desk).await;

    // Verified, nothing signed: abandoned. The gateway's order is left as it was, to expire unpaid.
    let order = desk
        .start_order(card(&desk, &swap_form("20")).await.raw, None)
        .await
        .unwrap();
    assert_eq!(order.stage, Some(Stage::Verified), "{order:?}");
    assert_eq!(order.can_abandon, Some(true));
    let local_id = order.local_id.unwrap();
    let order_id = order.order_id.clone().unwrap();
    let abandoned = desk.abandon(local_id).await.unwrap();
    assert_eq!(abandoned.stage, Some(Stage::Abandoned));
    assert_eq!(abandoned.next_step, None);
    assert_eq!(abandoned.can_abandon, None, "nothing left to abandon");
    let reason = abandoned.last_error.clone().unwrap();
    assert!(reason.starts_with("Abandoned by you"), "{reason}");
    assert!(
        reason.contains(&format!(
            "the gateway's order {order_id} will expire unpaid"
        )),
        "{reason}"
    );
    let on_gateway = common::client(&base, ApiVersion::V3)
        .get_order(&order_id)
        .await
        .unwrap()
        .value;
    assert_eq!(on_gateway.src_info.tx_hash, None, "nothing was registered");
    assert_eq!(on_gateway.status.key(), "inProgress");
    let j = journal(home.path());
    let events = j.events(local_id).unwrap();
    let last = events.last().unwrap();
    assert_eq!(
        (last.kind.as_str(), last.payload["by"].as_str()),
        ("abandoned", Some("person"))
    );
    assert_eq!(last.payload["reason"], reason.as_str());
    // Again (a second click): the same order, nothing more journaled. `discard` is the same command.
    assert_eq!(desk.discard(local_id).await.unwrap(), abandoned);
    assert_eq!(j.events(local_id).unwrap().len(), events.len());
    assert_eq!(listed(&desk, local_id).await, abandoned);

    // A transaction handed in and registered: refused, with why and what to do instead; nothing changes.
    let paid = desk
        .start_order(card(&desk, &swap_form("21")).await.raw, None)
        .await
        .unwrap();
    let paid_id = paid.local_id.unwrap();
    let registered = desk
        .hand_in(paid_id, &format!("0x{:064x}", 77))
        .await
        .unwrap();
    assert_eq!(registered.stage, Some(Stage::Registered));
    assert_eq!(registered.can_abandon, Some(false));
    let err = desk.abandon(paid_id).await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::Refused, "{err:?}");
    assert!(err.message.contains("money moved"), "{}", err.message);
    assert!(err.message.contains("keeps watching"), "{}", err.message);
    assert_eq!(
        err.details_json().as_ref(),
        Some(&json!({ "localId": paid_id }))
    );
    assert_eq!(
        desk.order_view(paid_id).unwrap().stage,
        Some(Stage::Registered)
    );
    // API V4 registers no token swap: the gateway reads the transaction from the chain.
    assert_eq!(kinds(&j, paid_id).last().unwrap(), "leftToTheChain");
    desk.shutdown().await;
}

#[tokio::test]
async fn an_order_whose_creation_answer_was_lost_is_found_by_listing_and_not_made_twice() {
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let base = base_of(&desk).await;
    assert!(gateway_orders(&base, EVM).await.is_empty());

    // The gateway creates the order, then the connection drops before its answer: an ambiguous write. The desk
    // looks the order up among the owner's orders before answering.
    fault(
        &base,
        json!({"endpoint": "create-order", "fault": "dropAfter", "times": 1}),
    )
    .await;
    let quote = card(&desk, &onramp_form(None)).await;
    let order = desk.start_order(quote.raw.clone(), None).await.unwrap();
    let on_gateway = gateway_orders(&base, EVM).await;
    assert_eq!(on_gateway.len(), 1, "the gateway holds the one order");
    let found = &on_gateway[0];
    assert_eq!(order.order_id.as_ref(), Some(found), "{order:?}");
    assert_eq!(order.stage, Some(Stage::Abandoned), "{order:?}");
    let reason = order.last_error.clone().unwrap();
    assert!(reason.contains(&format!("({found})")), "{reason}");
    assert!(reason.contains("nothing was paid"), "{reason}");
    assert!(reason.contains("will expire unpaid"), "{reason}");
    assert!(
        order
            .timeline
            .iter()
            .any(|e| e.key == "created" && e.text.contains("found among")),
        "{:?}",
        order.timeline
    );

    // The journal and the Orders view agree.
    let local_id = order.local_id.unwrap();
    let j = journal(home.path());
    let journaled = j.order(local_id).unwrap();
    assert_eq!(journaled.stage, Stage::Abandoned);
    assert_eq!(journaled.order_id.as_ref(), Some(found));
    assert_eq!(journaled.last_error.as_ref(), Some(&reason));
    assert_eq!(
        kinds(&j, local_id),
        [
            "quoteAccepted",
            "createStarted",
            "createFailed",
            "orderFound",
            "abandoned"
        ]
    );
    let found_event = &j.events(local_id).unwrap()[3];
    assert_eq!(found_event.payload["orderId"], found.as_str());
    assert_eq!(found_event.payload["paid"], false);
    assert_eq!(found_event.payload["order"]["id"], found.as_str());
    assert_eq!(listed(&desk, local_id).await, order);

    // Resuming it later sends nothing again, and a second order can be started.
    assert_eq!(desk.resume(local_id).await.unwrap(), order);
    assert_eq!(gateway_orders(&base, EVM).await.len(), 1, "no second order");
    let next = desk
        .start_order(card(&desk, &onramp_form(None)).await.raw, None)
        .await
        .unwrap();
    assert_eq!(next.stage, Some(Stage::Verified), "{next:?}");
    assert_eq!(gateway_orders(&base, EVM).await.len(), 2);
    desk.shutdown().await;
}

#[tokio::test]
async fn no_second_order_is_started_while_a_creation_is_uncertain_and_resume_resolves_it() {
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let base = base_of(&desk).await;

    // The answer is lost and the listing cannot be read for now: the order stays uncertain.
    fault(
        &base,
        json!({"endpoint": "create-order", "fault": "dropAfter", "times": 1}),
    )
    .await;
    fault(
        &base,
        json!({"endpoint": "get-orders", "fault": {"status": {"code": 503}}}),
    )
    .await;
    let err = desk
        .start_order(card(&desk, &swap_form("30")).await.raw, None)
        .await
        .unwrap_err();
    assert!(
        err.message.contains("has not found it yet") && err.message.contains("Continue"),
        "{}",
        err.message
    );
    let j = journal(home.path());
    let uncertain = j.unresolved_creations("sandbox").unwrap();
    assert_eq!(uncertain.len(), 1);
    let local_id = uncertain[0].local_id;
    // The error names the order, so that the window shows it at the signing step as Orders does.
    assert_eq!(
        err.details_json().as_ref().and_then(|d| d.get("localId")),
        Some(&json!(local_id)),
        "{err:?}"
    );
    assert_eq!(uncertain[0].stage, Stage::CreateUnknown);
    let view = listed(&desk, local_id).await;
    assert_eq!(view.can_abandon, Some(true));
    assert_eq!(
        view.next_step.map(|s| s.step),
        Some(desk_core::journal::NextStep::ConfirmCreation)
    );

    // Confirm cannot create a second order: refused before anything is journaled or sent, naming the order and
    // the next step.
    let orders_before = j.orders(None).unwrap().len();
    let second = card(&desk, &swap_form("31")).await;
    let err = desk
        .start_order(second.raw.clone(), None)
        .await
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Refused, "{err:?}");
    assert!(
        err.message.starts_with(&format!("Order #{local_id} (")),
        "{}",
        err.message
    );
    for words in ["unresolved", "Continue", "Abandon", "nothing was paid"] {
        assert!(err.message.contains(words), "{words}: {}", err.message);
    }
    assert_eq!(
        err.details_json().as_ref(),
        Some(&json!({ "localId": local_id }))
    );
    assert_eq!(j.orders(None).unwrap().len(), orders_before);
    clear_faults(&base).await;
    assert_eq!(
        gateway_orders(&base, EVM).await.len(),
        1,
        "only the first order reached the gateway"
    );

    // Continue (resume): found among the owner's orders, recorded, given up; the gateway still has one order.
    let resolved = desk.resume(local_id).await.unwrap();
    let on_gateway = gateway_orders(&base, EVM).await;
    assert_eq!(on_gateway.len(), 1, "no second order");
    assert_eq!(resolved.order_id.as_ref(), Some(&on_gateway[0]));
    assert_eq!(resolved.stage, Some(Stage::Abandoned));
    assert!(j.unresolved_creations("sandbox").unwrap().is_empty());
    assert!(kinds(&j, local_id).ends_with(&["orderFound".into(), "abandoned".into()]));

    // Now a new order starts.
    let next = desk.start_order(second.raw, None).await.unwrap();
    assert_eq!(next.stage, Some(Stage::Verified), "{next:?}");
    desk.shutdown().await;
}

#[tokio::test]
async fn an_uncertain_creation_not_found_is_sent_again_or_abandoned_by_the_person() {
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let base = base_of(&desk).await;
    let j = journal(home.path());

    // The connection drops before the gateway acts: nothing is listed, so Continue asks the gateway again.
    fault(
        &base,
        json!({"endpoint": "create-order", "fault": "drop", "times": 1}),
    )
    .await;
    let err = desk
        .start_order(card(&desk, &swap_form("40")).await.raw, None)
        .await
        .unwrap_err();
    assert!(
        err.message.contains("has not found it yet"),
        "{}",
        err.message
    );
    let local_id = j.unresolved_creations("sandbox").unwrap()[0].local_id;
    assert!(gateway_orders(&base, EVM).await.is_empty());
    let resumed = desk.resume(local_id).await.unwrap();
    assert_eq!(resumed.stage, Some(Stage::Verified), "{resumed:?}");
    assert_eq!(gateway_orders(&base, EVM).await.len(), 1);
    assert!(!kinds(&j, local_id).contains(&"orderFound".to_owned()));

    // Or the person abandons an uncertain order: nothing is sent, and orders can be started again.
    fault(
        &base,
        json!({"endpoint": "create-order", "fault": "drop", "times": 1}),
    )
    .await;
    desk.start_order(card(&desk, &swap_form("41")).await.raw, None)
        .await
        .unwrap_err();
    let uncertain = j.unresolved_creations("sandbox").unwrap()[0].local_id;
    let abandoned = desk.abandon(uncertain).await.unwrap();
    assert_eq!(abandoned.stage, Some(Stage::Abandoned));
    let reason = abandoned.last_error.unwrap();
    assert!(
        reason.contains("unknown whether the gateway had created the order"),
        "{reason}"
    );
    let next = desk
        .start_order(card(&desk, &swap_form("42")).await.raw, None)
        .await
        .unwrap();
    assert_eq!(next.stage, Some(Stage::Verified));
    desk.shutdown().await;
}

#[tokio::test]
async fn a_failed_or_refunded_order_needs_attention_until_it_is_acknowledged() {
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    // The swaps are paid by made-up hashes (no chain runs here), which only V3's register-tx takes: V4 finds a
    // payment on its chain.
    desk.set_api_version(ApiVersion::V3).await.unwrap();
    let base = base_of(&desk).await;
    let mut ids = Vec::new();
    for (n, amount) in [(1u64, "25.000808"), (2, "25.000404"), (3, "25")] {
        let order = desk
            .start_order(card(&desk, &swap_form(amount)).await.raw, None)
            .await
            .unwrap();
        let local_id = order.local_id.unwrap();
        let order = desk
            .hand_in(local_id, &format!("0x{n:064x}"))
            .await
            .unwrap();
        assert_eq!(order.stage, Some(Stage::Registered), "{order:?}");
        assert_eq!(order.acknowledged, None, "nothing to acknowledge yet");
        // Still running: acknowledging is refused.
        assert_eq!(
            desk.acknowledge(local_id).await.unwrap_err().kind,
            ErrorKind::Refused
        );
        ids.push(local_id);
    }
    let [refunded, failed, completed] = ids[..] else {
        unreachable!()
    };
    advance(&base, 3_600).await;
    tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            desk.refresh_now().await;
            let statuses: Vec<Option<String>> = [refunded, failed, completed]
                .iter()
                .map(|id| desk.order_view(*id).unwrap().status)
                .collect();
            if statuses
                == [
                    Some("refunded".to_owned()),
                    Some("failed".to_owned()),
                    Some("success".to_owned()),
                ]
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the orders end");

    let j = journal(home.path());
    let view = listed(&desk, refunded).await;
    assert_eq!(view.stage, Some(Stage::Finished));
    assert_eq!(
        view.acknowledged,
        Some(false),
        "needs the person's attention"
    );
    assert_eq!(
        view.refunded.len(),
        1,
        "what the gateway returned, and where"
    );
    assert_eq!(view.refunded[0].amount.token.chain, "bob");
    assert_eq!(listed(&desk, failed).await.acknowledged, Some(false));
    assert_eq!(
        listed(&desk, completed).await.acknowledged,
        None,
        "a success needs no acknowledgement"
    );
    assert_eq!(
        desk.acknowledge(completed).await.unwrap_err().kind,
        ErrorKind::Refused
    );

    // "I've read this": journaled once; the order stays in Orders, no longer awaiting the person.
    let mut events = desk.subscribe();
    let read = desk.acknowledge(refunded).await.unwrap();
    assert_eq!(read.acknowledged, Some(true));
    assert_eq!(read.status.as_deref(), Some("refunded"));
    assert_eq!(kinds(&j, refunded).last().unwrap(), "acknowledged");
    let Ok(desk_core::DeskEvent::OrderChanged { order }) = events.try_recv() else {
        panic!("the window hears of it")
    };
    assert_eq!(*order, read);
    assert_eq!(desk.acknowledge(refunded).await.unwrap(), read);
    assert_eq!(
        kinds(&j, refunded)
            .iter()
            .filter(|k| *k == "acknowledged")
            .count(),
        1
    );
    assert_eq!(listed(&desk, refunded).await, read);
    assert_eq!(listed(&desk, failed).await.acknowledged, Some(false));
    // An ended order is never abandoned.
    let err = desk.abandon(failed).await.unwrap_err();
    assert!(err.message.contains("finished"), "{}", err.message);
    desk.shutdown().await;
}

/// API V4's onramp: the app hands the gateway the signed transaction and the gateway broadcasts it. When that answer
/// is lost, the payment may be on its way: the app says so, follows the order, never takes a second transaction for
/// it, and registering again sends the same one (the gateway takes it once).
#[tokio::test]
async fn a_v4_onramp_whose_registration_answer_is_lost_is_followed_and_never_paid_twice() {
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let mut events = desk.subscribe();
    assert_eq!(desk.settings().await.network.api_version, "v4");
    let base = base_of(&desk).await;
    let wallet = gateway_sim::payload::testkit::TestWallet::from_seed([9; 32]);
    let form = onramp_form(Some(wallet.address(bitcoin::Network::Regtest)));
    let order = desk
        .start_order(card(&desk, &form).await.raw, None)
        .await
        .unwrap();
    let local_id = order.local_id.unwrap();
    let signed = wallet.sign_psbt(&common::psbt(&order)).unwrap();

    // A txid alone is not V4's: said before anything is sent.
    let txid = bitcoin::consensus::encode::deserialize_hex::<bitcoin::Transaction>(&signed)
        .unwrap()
        .compute_txid()
        .to_string();
    let err = desk.hand_in(local_id, &txid).await.unwrap_err();
    assert!(err.message.contains("not its id"), "{}", err.message);
    assert_eq!(
        kinds(&journal(home.path()), local_id).last().unwrap(),
        "verified"
    );

    // The gateway takes the transaction, then the connection drops before its answer.
    fault(
        &base,
        json!({"endpoint": "register-tx", "fault": "dropAfter", "times": 1}),
    )
    .await;
    let err = desk.hand_in(local_id, &signed).await.unwrap_err();
    assert!(
        err.message.contains("may have broadcast your payment")
            && err.message.contains("will not sign a second payment"),
        "{}",
        err.message
    );
    let view = desk.order_view(local_id).unwrap();
    assert_eq!(view.stage, Some(Stage::Registering), "{view:?}");
    assert_eq!(view.can_abandon, Some(false), "money may have moved");
    // Nothing else is taken for it: another signed transaction is refused.
    let other = wallet.sign_psbt(&common::psbt(&order)).unwrap();
    assert!(desk.hand_in(local_id, &other).await.is_err());
    // Registering again (resume) sends the same transaction, which the gateway already holds.
    let resumed = desk.resume(local_id).await.unwrap();
    assert_eq!(resumed.stage, Some(Stage::Registered), "{resumed:?}");
    let sent: Vec<Value> = journal(home.path())
        .events(local_id)
        .unwrap()
        .into_iter()
        .filter(|e| e.kind == "registerStarted")
        .map(|e| e.payload)
        .collect();
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[0], sent[1], "the same body both times");
    assert_eq!(
        sent[0],
        json!({"onramp": {"order_id": order.order_id.clone().unwrap(), "bitcoin_tx_hex": signed}}),
        "V4's body: the hex alone"
    );
    // And the order is followed to its end.
    let done = common::complete_onramp(&desk, &mut events, local_id).await;
    assert_eq!(done.status.as_deref(), Some("success"));
    desk.shutdown().await;
}
