//! Order views for the tests of what [`super::OrderView`] reads from its facts: a complete view with the fields a
//! test cares about set by the test, then [`super::OrderView::settled`].

use super::{AmountView, NextStepView, OrderView, TimelineEntry};
use crate::api::{RouteKind, TokenView};
use crate::journal::{NextStep, Stage};

/// An amount of `symbol` on `chain` written as `text` (250000 smallest units).
pub(crate) fn amount(text: &str, chain: &str, symbol: &str) -> AmountView {
    AmountView {
        token: TokenView {
            chain: chain.to_owned(),
            address: if symbol == "BTC" {
                "native"
            } else {
                "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"
            }
            .to_owned(),
            symbol: Some(symbol.to_owned()),
            name: None,
            decimals: Some(8),
        },
        amount: "250000".to_owned(),
        text: text.to_owned(),
        usd: Some("96.12".to_owned()),
    }
}

/// A watched address's onramp order, in progress (no journal id).
pub(crate) fn watched(order_id: &str) -> OrderView {
    let mut view = OrderView::bare(
        "sandbox",
        RouteKind::Onramp,
        amount("0.0025 BTC", "bitcoin", "BTC"),
        amount("95.1 USDC", "base", "USDC"),
    );
    view.order_id = Some(order_id.to_owned());
    view.status = Some("inProgress".to_owned());
    view.status_text = "In progress".to_owned();
    view.timeline = vec![TimelineEntry {
        key: "created".into(),
        text: "Order created".into(),
        at: Some(1_700_000_000),
    }];
    view.created_at = Some(1_700_000_000);
    view.settled()
}

/// The app's own onramp order `local_id`, registered and watched.
pub(crate) fn own(local_id: i64) -> OrderView {
    let mut view = watched(&format!("order-{local_id}-3f2a9c1077e1a0b2"));
    view.local_id = Some(local_id);
    view.stage = Some(Stage::Registered);
    view.next_step = Some(step(NextStep::Watch));
    view.settled()
}

/// A next step with its sentence.
pub(crate) fn step(step: NextStep) -> NextStepView {
    NextStepView {
        step,
        sentence: step.sentence().to_owned(),
    }
}
