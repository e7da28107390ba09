//! The end of a swap as a receipt: what arrived (or came back) with its transaction, how long the order took against
//! the quote's estimate, and for a failed or refunded order the explanation the Orders view gives ([`Outcome`],
//! the same value). The Sign step and the Orders view show the one receipt.

use gateway_client::chains::chain_name;
use gateway_client::display::{duration_text, elapsed_text};
use gateway_client::wire::status_text;
use serde::Serialize;
use ts_rs::TS;

use super::{AmountView, OrderView, Outcome, TransferView};
use crate::journal::Stage;

/// How an order ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "ReceiptKind.ts")]
pub enum ReceiptKind {
    /// The gateway reports it completed: the output reached the recipient.
    Arrived,
    /// The gateway reports it refunded: the swap did not happen and what was sent came back.
    Refunded,
    /// The gateway reports it failed.
    Failed,
}

/// One transfer of a receipt: what moved, on which chain, in which transaction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "ReceiptLine.ts")]
pub struct ReceiptLine {
    /// The amount in the token's units with its symbol and the chain's name: `0.00249 BTC on Bitcoin`,
    /// `24.91 USDC on BOB` (a token the app does not know is told in smallest units with its address and chain).
    pub text: String,
    /// The transfer itself: the exact amount in smallest units (`transfer.amount.amount`), the transaction id and its
    /// explorer page.
    pub transfer: TransferView,
}

/// The receipt of an order that ended (completed, refunded or failed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "ReceiptView.ts")]
pub struct ReceiptView {
    /// How it ended.
    pub kind: ReceiptKind,
    /// The ending in a word, from the one list of statuses: `Completed`, `Refunded`, `Failed`.
    pub headline: String,
    /// What the lines are: `Arrived`, `Came back`; absent when there are none.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub lines_label: Option<String>,
    /// What reached the recipient (completed) or came back (refunded), as the gateway reported it.
    pub lines: Vec<ReceiptLine>,
    /// A completed order whose transfers the gateway did not report: a sentence saying so and what was expected.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub unreported: Option<String>,
    /// `Took 6 min 12 s, estimate 10 min`: from the registration (or the order's creation) to when the app saw the
    /// ending; absent when the app does not know both times (an order of a watched address).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub took: Option<String>,
    /// The same time in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub took_secs: Option<u64>,
    /// For a failed or refunded order: what happened, where the money is and what to do (the Orders view's
    /// explanation of the order, [`OrderView::outcome`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub explanation: Option<Outcome>,
}

/// `24.91 USDC on BOB`: the amount as the order view writes it, and the chain's name. A token the app does not know
/// is already written with its chain (`42 smallest units of 0x… on bob`).
fn line_text(amount: &AmountView) -> String {
    if amount.token.symbol.is_some() {
        format!("{} on {}", amount.text, chain_name(&amount.token.chain))
    } else {
        amount.text.clone()
    }
}

fn line(transfer: &TransferView) -> ReceiptLine {
    ReceiptLine {
        text: line_text(&transfer.amount),
        transfer: transfer.clone(),
    }
}

/// When the order's clock started: its registration as the timeline has it, else its creation (the same start the
/// Sign step's progress bar counts from).
fn started_at(order: &OrderView) -> Option<i64> {
    order
        .timeline
        .iter()
        .find(|e| e.key == "registered")
        .and_then(|e| e.at)
        .or(order.created_at)
}

/// How long the order took: from its start to the timeline's ending (when the app saw it), in seconds.
fn took_secs(order: &OrderView, ending: &str) -> Option<u64> {
    let end = order
        .timeline
        .iter()
        .find(|e| e.key == ending)
        .and_then(|e| e.at)?;
    let start = started_at(order)?;
    u64::try_from(end.checked_sub(start)?).ok()
}

/// `Took 6 min 12 s, estimate 10 min`, or without the estimate when the quote gave none.
fn took_text(secs: u64, estimate: Option<u64>) -> String {
    match estimate.filter(|e| *e > 0) {
        Some(estimate) => format!(
            "Took {}, estimate {}",
            elapsed_text(secs),
            duration_text(estimate)
        ),
        None => format!("Took {}", elapsed_text(secs)),
    }
}

/// The receipt of an order the gateway reports ended (completed, refunded, failed); `None` for any other order and
/// for an order the person abandoned (left to expire unpaid: its reason says so, and there is nothing to receipt).
pub(super) fn receipt_of(order: &OrderView) -> Option<ReceiptView> {
    if order.stage == Some(Stage::Abandoned) {
        return None;
    }
    let key = order.status.as_deref()?;
    let (kind, lines_label, transfers): (_, _, &[TransferView]) = match key {
        "success" => (ReceiptKind::Arrived, "Arrived", &order.received),
        "refunded" => (ReceiptKind::Refunded, "Came back", &order.refunded),
        "failed" => (ReceiptKind::Failed, "", &[]),
        _ => return None,
    };
    let lines: Vec<ReceiptLine> = transfers.iter().map(line).collect();
    let unreported = (kind == ReceiptKind::Arrived && lines.is_empty()).then(|| {
        format!(
            "The gateway reports this order completed without saying what arrived; the order was for about {}.",
            line_text(&order.receive)
        )
    });
    let took_secs = took_secs(order, key);
    Some(ReceiptView {
        kind,
        headline: status_text(key).to_owned(),
        lines_label: (!lines.is_empty() && !lines_label.is_empty()).then(|| lines_label.to_owned()),
        lines,
        unreported,
        took: took_secs.map(|secs| {
            let text = took_text(secs, order.estimated_secs);
            // The Sandbox's clock may have been moved on ("Finish pending orders now"): its orders end in less time
            // than the real service's, and the receipt must not suggest otherwise.
            if order.network == "sandbox" && order.estimated_secs.is_some_and(|e| secs < e) {
                format!(
                    "{text}. Sandbox time: its clock can be moved on; a real order takes its time."
                )
            } else {
                text
            }
        }),
        took_secs,
        explanation: order.outcome.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::RouteKind;
    use crate::views::TimelineEntry;
    use crate::views::fixtures::own;

    const BTC_TX: &str = "3f2a9c1077e1a0b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a7b8c9d0";
    const USDT_BOB: &str = "0x05D032ac25d322df992303dCa074EE7392C117b9";

    fn at(key: &str, at: i64) -> TimelineEntry {
        TimelineEntry {
            key: key.into(),
            text: status_text(key).into(),
            at: Some(at),
        }
    }

    /// The app's own order `local_id`, registered at 1 700 000 030 and ended with `status` at `ended` (seconds after
    /// the registration), with a 10 min estimate.
    fn ended(
        local_id: i64,
        status: &str,
        ended: i64,
        change: impl FnOnce(&mut OrderView),
    ) -> OrderView {
        let mut view = own(local_id);
        // On a real network: the Sandbox's receipts say their clock can be moved on (tested apart).
        view.network = "production".into();
        view.stage = Some(Stage::Finished);
        view.next_step = None;
        view.status = Some(status.into());
        view.estimated_secs = Some(600);
        view.timeline = vec![
            at("created", 1_700_000_000),
            at("registered", 1_700_000_030),
            at(status, 1_700_000_030 + ended),
        ];
        change(&mut view);
        view.settled()
    }

    fn transfer(chain: &str, token: &str, amount: &str, hash: &str, sandbox: bool) -> TransferView {
        TransferView {
            amount: AmountView::new(chain, token, amount, None),
            tx_hash: hash.into(),
            explorer_url: super::super::explorer_url(chain, hash, sandbox),
        }
    }

    #[test]
    fn a_completed_order_says_what_arrived_in_the_tokens_units_on_the_named_chain() {
        let view = ended(1, "success", 372, |v| {
            v.route = RouteKind::Offramp;
            v.received = vec![transfer("bitcoin", "BTC", "249000", BTC_TX, false)];
        });
        let receipt = view.receipt.expect("a receipt");
        assert_eq!(receipt.kind, ReceiptKind::Arrived);
        assert_eq!(receipt.headline, "Completed");
        assert_eq!(receipt.lines_label.as_deref(), Some("Arrived"));
        let [line] = receipt.lines.as_slice() else {
            panic!("{:?}", receipt.lines)
        };
        assert_eq!(line.text, "0.00249 BTC on Bitcoin");
        assert_eq!(
            line.transfer.amount.amount, "249000",
            "the exact amount is kept"
        );
        assert_eq!(line.transfer.tx_hash, BTC_TX);
        assert_eq!(
            line.transfer.explorer_url.as_deref(),
            Some(format!("https://mempool.space/tx/{BTC_TX}").as_str())
        );
        assert_eq!(
            receipt.took.as_deref(),
            Some("Took 6 min 12 s, estimate 10 min")
        );
        assert_eq!(receipt.took_secs, Some(372));
        assert_eq!(
            receipt.explanation, None,
            "a completed order needs no explanation"
        );
        assert_eq!(receipt.unreported, None);

        let usdt = ended(2, "success", 61, |v| {
            v.received = vec![transfer("bob", USDT_BOB, "24910000", "0xbeef", true)];
            v.estimated_secs = None;
        })
        .receipt
        .unwrap();
        assert_eq!(usdt.lines[0].text, "24.91 USDT on BOB");
        assert_eq!(
            usdt.lines[0].transfer.explorer_url, None,
            "no explorer for the Sandbox"
        );
        assert_eq!(
            usdt.took.as_deref(),
            Some("Took 1 min 1 s"),
            "no estimate: none is named"
        );
    }

    #[test]
    fn a_token_the_app_does_not_know_is_told_in_smallest_units_once_with_its_chain() {
        let odd = "0x1111111111111111111111111111111111111111";
        let receipt = ended(1, "success", 30, |v| {
            v.received = vec![transfer("bob", odd, "42", "0xbeef", false)]
        })
        .receipt
        .unwrap();
        assert_eq!(
            receipt.lines[0].text,
            format!("42 smallest units of {odd} on bob")
        );
    }

    #[test]
    fn a_completion_without_transfers_says_so_and_what_was_expected() {
        let receipt = ended(1, "success", 600, |_| {}).receipt.unwrap();
        assert!(receipt.lines.is_empty());
        assert_eq!(receipt.lines_label, None);
        assert_eq!(
            receipt.unreported.as_deref(),
            Some(
                "The gateway reports this order completed without saying what arrived; the order was for about \
                 95.1 USDC on Base."
            )
        );
        assert_eq!(
            receipt.took.as_deref(),
            Some("Took 10 min, estimate 10 min")
        );
    }

    #[test]
    fn a_refund_shows_what_came_back_and_the_same_explanation_as_orders() {
        let view = ended(1, "refunded", 640, |v| {
            v.refunded = vec![transfer("bitcoin", "BTC", "250000", BTC_TX, false)];
            v.refund_address = Some("bcrt1qrefund".into());
        });
        let receipt = view.receipt.clone().unwrap();
        assert_eq!(receipt.kind, ReceiptKind::Refunded);
        assert_eq!(receipt.headline, "Refunded");
        assert_eq!(receipt.lines_label.as_deref(), Some("Came back"));
        assert_eq!(receipt.lines[0].text, "0.0025 BTC on Bitcoin");
        assert_eq!(
            receipt.took.as_deref(),
            Some("Took 10 min 40 s, estimate 10 min")
        );
        let explanation = receipt.explanation.expect("explained");
        assert_eq!(
            Some(&explanation),
            view.outcome.as_ref(),
            "the Orders view's own words"
        );
        assert_eq!(
            explanation.happened,
            "The gateway reports this order refunded: the swap did not happen and what was sent came back."
        );
        assert!(
            explanation
                .r#where
                .starts_with("The gateway returned 0.0025 BTC on bitcoin (transaction 3f2a…c9d0)."),
            "{}",
            explanation.r#where
        );
    }

    #[test]
    fn a_sandbox_order_faster_than_its_estimate_says_the_sandbox_clock_can_be_moved() {
        let view = ended(1, "failed", 0, |view| view.network = "sandbox".into());
        assert_eq!(
            view.receipt.unwrap().took.as_deref(),
            Some(
                "Took 0 s, estimate 10 min. Sandbox time: its clock can be moved on; a real order takes its time."
            )
        );
        // As long as its estimate or longer: nothing to explain.
        let view = ended(2, "failed", 600, |view| view.network = "sandbox".into());
        assert_eq!(
            view.receipt.unwrap().took.as_deref(),
            Some("Took 10 min, estimate 10 min")
        );
    }

    #[test]
    fn a_failure_has_no_lines_and_the_orders_explanation() {
        let view = ended(1, "failed", 300, |_| {});
        let receipt = view.receipt.clone().unwrap();
        assert_eq!(receipt.kind, ReceiptKind::Failed);
        assert_eq!(receipt.headline, "Failed");
        assert!(receipt.lines.is_empty());
        assert_eq!(receipt.lines_label, None);
        assert_eq!(receipt.unreported, None);
        assert_eq!(receipt.took.as_deref(), Some("Took 5 min, estimate 10 min"));
        assert_eq!(receipt.explanation, view.outcome);
        assert!(
            receipt
                .explanation
                .unwrap()
                .happened
                .contains("failed before anything was paid in")
        );
    }

    #[test]
    fn orders_that_have_not_ended_or_were_abandoned_have_no_receipt() {
        assert_eq!(own(1).receipt, None);
        let abandoned = ended(1, "failed", 10, |v| v.stage = Some(Stage::Abandoned));
        assert_eq!(abandoned.receipt, None);
        let payout = ended(1, "pendingBtcPayment", 10, |_| {});
        assert_eq!(payout.receipt, None);
    }

    #[test]
    fn the_time_taken_needs_both_ends_and_counts_from_the_registration() {
        // A watched address's order: the gateway gives its creation, not when it ended.
        let mut watched = crate::views::fixtures::watched("w");
        watched.status = Some("success".into());
        watched.timeline.push(TimelineEntry {
            key: "success".into(),
            text: "Completed".into(),
            at: None,
        });
        let receipt = watched.settled().receipt.unwrap();
        assert_eq!((receipt.took, receipt.took_secs), (None, None));
        // Not registered (the gateway found the payment itself): from the creation.
        let unregistered = ended(1, "success", 100, |v| {
            v.timeline.retain(|e| e.key != "registered");
        });
        assert_eq!(unregistered.receipt.unwrap().took_secs, Some(130));
        // An ending seen before the start (a clock set back) is not a time taken.
        let backwards = ended(1, "success", -5, |_| {});
        assert_eq!(backwards.receipt.unwrap().took, None);
    }
}
