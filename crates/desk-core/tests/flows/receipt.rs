//! The end of a swap is a receipt: an onramp through the desk against the embedded gateway-sim, completed and
//! refunded, and what the Sign step and the Orders view are given of it.

use std::time::Duration;

use desk_core::DeskEvent;
use desk_core::journal::Stage;
use desk_core::views::{OrderView, ReceiptKind};
use gateway_sim::payload::testkit::TestWallet;
use tokio::sync::broadcast;

use crate::common::{advance, card, complete_onramp, onramp_form, open, psbt};

/// An onramp of `amount` BTC made, signed and registered through the desk: its view.
async fn registered_onramp(desk: &desk_core::Desk, amount: &str) -> OrderView {
    let wallet = TestWallet::from_seed([9; 32]);
    let form = desk_core::desk::SwapForm {
        amount: amount.into(),
        ..onramp_form(Some(wallet.address(bitcoin::Network::Regtest)))
    };
    let card = card(desk, &form).await;
    let order = desk.start_order(card.raw.clone(), None).await.unwrap();
    let signed = wallet.sign_psbt(&psbt(&order)).unwrap();
    let order = desk
        .hand_in(order.local_id.unwrap(), &signed)
        .await
        .unwrap();
    assert_eq!(order.stage, Some(Stage::Registered));
    assert_eq!(order.receipt, None, "no receipt before the end");
    order
}

/// Waits until the desk reports order `local_id` with an ending status.
async fn ended(events: &mut broadcast::Receiver<DeskEvent>, local_id: i64) -> Box<OrderView> {
    tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            if let Ok(DeskEvent::OrderChanged { order: view }) = events.recv().await
                && view.local_id == Some(local_id)
                && view.finished
            {
                return view;
            }
        }
    })
    .await
    .expect("the order ends")
}

#[tokio::test]
async fn a_completed_onramp_has_a_receipt_of_what_arrived_in_swap_and_in_orders() {
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let mut events = desk.subscribe();
    let order = registered_onramp(&desk, "0.0025").await;
    let local_id = order.local_id.unwrap();

    let done = complete_onramp(&desk, &mut events, local_id).await;
    let receipt = done.receipt.clone().expect("a receipt");
    assert_eq!(receipt.kind, ReceiptKind::Arrived);
    assert_eq!(receipt.headline, "Completed");
    assert_eq!(receipt.lines_label.as_deref(), Some("Arrived"));
    let [line] = receipt.lines.as_slice() else {
        panic!("{receipt:?}")
    };
    // What the gateway reported arriving: the quoted WBTC on BOB, in the token's units and exactly in sats.
    assert_eq!(line.transfer.amount.amount, done.receive.amount);
    assert_eq!(line.text, format!("{} on BOB", done.receive.text));
    assert!(line.text.ends_with(" WBTC on BOB"), "{}", line.text);
    assert_eq!(line.transfer, done.received[0], "the transfer Orders lists");
    assert!(line.transfer.tx_hash.starts_with("0x"), "{line:?}");
    assert_eq!(
        line.transfer.explorer_url, None,
        "no explorer for the Sandbox"
    );
    // From the registration to when the app saw the ending (the Sandbox's clock was moved, the app's was not),
    // against the quote's 10 min.
    let took = receipt.took.clone().expect("both times are known");
    // Far less than the estimate in the app's time, which the receipt puts down to the Sandbox's clock.
    assert!(
        took.starts_with("Took ")
            && took.ends_with(
                ", estimate 10 min. Sandbox time: its clock can be moved on; a real order takes its time."
            ),
        "{took}"
    );
    assert!(receipt.took_secs.is_some());
    assert_eq!(receipt.explanation, None);

    // The Sign step reads the order from the same view as Orders: both give the same receipt.
    assert_eq!(
        desk.order_view(local_id).unwrap().receipt,
        Some(receipt.clone())
    );
    let listed = desk.orders().await.unwrap();
    let row = listed
        .iter()
        .find(|o| o.local_id == Some(local_id))
        .unwrap();
    assert_eq!(row.receipt, Some(receipt));
    desk.shutdown().await;
}

#[tokio::test]
async fn a_refunded_onramp_has_a_receipt_of_what_came_back_explained_as_orders_explains_it() {
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let mut events = desk.subscribe();
    // The Sandbox refunds an amount ending in 808 sats.
    let order = registered_onramp(&desk, "0.00250808").await;
    let local_id = order.local_id.unwrap();
    let base = desk.settings().await.network.base_url;
    advance(&base, 700).await;
    desk.refresh_now().await;
    let done = ended(&mut events, local_id).await;
    assert_eq!(done.status.as_deref(), Some("refunded"));

    let receipt = done.receipt.clone().expect("a receipt");
    assert_eq!(receipt.kind, ReceiptKind::Refunded);
    assert_eq!(receipt.lines_label.as_deref(), Some("Came back"));
    assert_eq!(receipt.lines[0].text, "0.00250808 BTC on Bitcoin");
    assert_eq!(receipt.lines[0].transfer.amount.amount, "250808");
    let explanation = receipt.explanation.clone().expect("explained");
    assert_eq!(
        Some(&explanation),
        done.outcome.as_ref(),
        "the Orders view's words"
    );
    assert!(explanation.happened.contains("refunded"), "{explanation:?}");
    assert!(receipt.took.is_some());
    desk.shutdown().await;
}
