//! Which updates deserve a desktop notification, and what it says: one per own order and terminal status, never
//! old news. The window side (`src-tauri`) only shows what this decides.

use crate::ids::short_id;
use std::collections::HashSet;

use crate::events::DeskEvent;
use crate::views::OrderView;

/// A desktop notification's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// What happened: "Swap completed", "Swap failed" or "Swap refunded".
    pub title: &'static str,
    /// The amounts and the order, such as `0.0025 BTC → 0.00246 WBTC (order 1234…abcd)`.
    pub body: String,
}

/// Decides which updates deserve a desktop notification: one per own order and terminal status, and only for a
/// status first seen during this session (an order that finished before the app started is not news, even when
/// a watched address's listing reports it again).
pub struct Notifier {
    since: i64,
    sent: HashSet<(i64, String)>,
}

impl Notifier {
    /// Notifies of statuses the journal first saw at or after `since` (unix seconds).
    pub fn new(since: i64) -> Self {
        Self {
            since,
            sent: HashSet::new(),
        }
    }

    /// The notification `event` calls for, if any (remembered, so it is given once).
    pub fn note_for(&mut self, event: &DeskEvent) -> Option<Note> {
        let DeskEvent::OrderChanged { order } = event else {
            return None;
        };
        let local_id = order.local_id?;
        let status = order.status.as_deref()?;
        let title = match status {
            "success" => "Swap completed",
            "failed" => "Swap failed",
            "refunded" => "Swap refunded",
            _ => return None,
        };
        let first_seen = order
            .timeline
            .iter()
            .find(|entry| entry.key == status)
            .and_then(|entry| entry.at);
        if first_seen.is_some_and(|at| at < self.since) {
            return None;
        }
        if !self.sent.insert((local_id, status.to_owned())) {
            return None;
        }
        Some(Note {
            title,
            body: body(order, status),
        })
    }
}

/// `0.0025 BTC → 0.00246 WBTC (order 1234…abcd)`: what arrived for a completed swap (else what was expected), what
/// came back for a refund.
fn body(order: &OrderView, status: &str) -> String {
    let order_ref = match (&order.order_id, order.local_id) {
        (Some(id), _) => format!("order {}", short_id(id)),
        (None, Some(local)) => format!("order #{local}"),
        (None, None) => "order".to_owned(),
    };
    let send = &order.send.text;
    let texts = |list: &[crate::views::TransferView]| {
        list.iter()
            .map(|t| t.amount.text.as_str())
            .collect::<Vec<_>>()
            .join(" + ")
    };
    match status {
        "success" if !order.received.is_empty() => {
            format!("{send} → {} ({order_ref})", texts(&order.received))
        }
        "refunded" if !order.refunded.is_empty() => {
            format!(
                "{send} refunded as {} ({order_ref})",
                texts(&order.refunded)
            )
        }
        _ => format!("{send} → {} ({order_ref})", order.receive.text),
    }
}

#[cfg(test)]
mod tests {
    use crate::views::{AmountView, TimelineEntry, TransferView};

    use super::*;

    const SINCE: i64 = 1_700_000_000;

    fn order(local_id: Option<i64>, status: &str, seen_at: i64) -> OrderView {
        let btc = |amount: &str| AmountView::new("bitcoin", "BTC", amount, None);
        let mut view = crate::views::fixtures::watched("1234567890abcdef1234567890abcdef");
        view.local_id = local_id;
        view.send = btc("250000");
        view.receive = btc("246000");
        view.status = Some(status.into());
        view.status_text = String::new();
        view.timeline = vec![
            TimelineEntry {
                key: "created".into(),
                text: String::new(),
                at: Some(SINCE - 600),
            },
            TimelineEntry {
                key: status.into(),
                text: String::new(),
                at: Some(seen_at),
            },
        ];
        view.received = vec![TransferView {
            amount: btc("245900"),
            tx_hash: "ab".repeat(32),
            explorer_url: None,
        }];
        view.created_at = None;
        view
    }

    fn changed(order: OrderView) -> DeskEvent {
        DeskEvent::OrderChanged {
            order: Box::new(order),
        }
    }

    #[test]
    fn one_notification_per_own_order_and_terminal_status() {
        let mut notifier = Notifier::new(SINCE);
        let note = notifier
            .note_for(&changed(order(Some(7), "success", SINCE + 5)))
            .expect("a finished own order is announced");
        assert_eq!(note.title, "Swap completed");
        assert_eq!(
            note.body, "0.0025 BTC → 0.002459 BTC (order 1234…cdef)",
            "the amount that arrived"
        );
        assert_eq!(
            notifier.note_for(&changed(order(Some(7), "success", SINCE + 5))),
            None
        );
        let failed = notifier
            .note_for(&changed(order(Some(8), "failed", SINCE + 9)))
            .unwrap();
        assert_eq!(failed.title, "Swap failed");
        assert!(
            failed.body.starts_with("0.0025 BTC → 0.00246 BTC"),
            "{}",
            failed.body
        );
    }

    #[test]
    fn no_notification_for_other_orders_unfinished_ones_or_old_news() {
        let mut notifier = Notifier::new(SINCE);
        let watched = order(None, "success", SINCE + 5);
        assert_eq!(notifier.note_for(&changed(watched)), None);
        assert_eq!(
            notifier.note_for(&changed(order(Some(1), "inProgress", SINCE + 5))),
            None
        );
        assert_eq!(
            notifier.note_for(&changed(order(Some(2), "refunded", SINCE - 3600))),
            None,
            "finished before this session"
        );
        assert_eq!(
            notifier.note_for(&DeskEvent::ReadFailed {
                message: "down".into(),
                retry_in_secs: 15
            }),
            None
        );
    }

    #[test]
    fn a_refund_says_what_came_back() {
        let mut refunded = order(Some(3), "refunded", SINCE);
        refunded.refunded = std::mem::take(&mut refunded.received);
        let note = Notifier::new(SINCE).note_for(&changed(refunded)).unwrap();
        assert_eq!(note.title, "Swap refunded");
        assert_eq!(
            note.body,
            "0.0025 BTC refunded as 0.002459 BTC (order 1234…cdef)"
        );
    }
}
