//! The abandon policy: an order is given up only while no money can have moved for it, and what the person is told.

use serde_json::Value;

use super::{JournalEvent, JournalOrder, Stage, WalletTxKind, WalletTxState};

/// The stages at which an order may be abandoned (while [`abandon_refusal`] finds nothing against it): nothing was
/// signed or handed in for it yet.
pub const ABANDONABLE: &[Stage] = &[
    Stage::Quoted,
    Stage::CreateUnknown,
    Stage::Created,
    Stage::Verified,
    Stage::Refused,
];

/// The source transaction the gateway reports for an order (as read with get-order or get-orders), or a word for
/// a status that can only follow one (a payout under way, success, refunded): money moved for it. `None` while the
/// gateway shows no payment.
pub fn gateway_payment(status: Option<&Value>) -> Option<String> {
    let status = status?;
    if let Some(hash) = status
        .get("srcInfo")
        .and_then(|s| s.get("txHash"))
        .and_then(Value::as_str)
        .filter(|h| !h.is_empty())
    {
        return Some(hash.to_owned());
    }
    let state = status.get("status")?;
    let key = match state {
        Value::String(s) => s.clone(),
        Value::Object(m) => m.keys().next().cloned().unwrap_or_default(),
        _ => String::new(),
    };
    let paying_out = state
        .get("inProgress")
        .and_then(|p| p.get("pending_btc_payment"))
        .is_some_and(|p| !p.is_null());
    match key.as_str() {
        "success" | "refunded" => Some(format!("the order is {key}")),
        _ if paying_out => Some("a payout is under way".into()),
        _ => None,
    }
}

/// Why the person may not abandon `order` now, as a sentence that says what to do instead; `None` when they may
/// (it is at an [`ABANDONABLE`] stage and no money can have moved for it).
///
/// Money may have moved once the app's wallet signed the order's payment (unless it reverted), a transaction was
/// handed in, or the gateway shows a source transaction; then the order is followed to its end (the gateway completes
/// or refunds it). An approval moves no money and does not prevent it, unless it is still waiting for its receipt.
pub fn abandon_refusal(order: &JournalOrder) -> Option<String> {
    let handed = order
        .handed_in
        .as_ref()
        .map(|h| format!(" ({})", h.id()))
        .unwrap_or_default();
    match order.stage {
        Stage::Creating => {
            return Some(
                "This order is being created (or the app stopped while it was): choose Continue first, so the app \
                 finds out whether the gateway created it; then you can abandon it."
                    .into(),
            );
        }
        Stage::TxHandedIn | Stage::Registering => {
            return Some(format!(
                "A transaction was handed in for this order{handed}, so money may have moved: it cannot be \
                 abandoned. Choose Continue to register it; if the gateway cannot fill the order, it refunds it."
            ));
        }
        Stage::Registered => {
            return Some(format!(
                "The gateway has this order's transaction{handed}: money moved, so it cannot be abandoned. The app \
                 keeps watching it until it completes or is refunded."
            ));
        }
        Stage::Finished => {
            return Some("This order is finished; there is nothing to abandon.".into());
        }
        Stage::Abandoned => return Some("This order was already abandoned.".into()),
        Stage::Quoted
        | Stage::CreateUnknown
        | Stage::Created
        | Stage::Verified
        | Stage::Refused => {}
    }
    if let Some(pay) = order
        .wallet_txs
        .iter()
        .find(|t| t.kind == WalletTxKind::Pay && t.state != WalletTxState::Reverted)
    {
        return Some(format!(
            "The app's wallet signed this order's payment ({}), so money may have moved: it cannot be abandoned. \
             Choose Continue to finish and register it; if the gateway cannot fill the order, it refunds it.",
            pay.hash
        ));
    }
    if let Some(pending) = order
        .wallet_txs
        .iter()
        .find(|t| matches!(t.state, WalletTxState::Signed | WalletTxState::Sent))
    {
        return Some(format!(
            "The wallet's {} transaction {} is still waiting for its receipt: choose Continue to finish it first, \
             then abandon the order if you still want to.",
            pending.kind.slug(),
            pending.hash
        ));
    }
    if let Some(payment) = gateway_payment(order.status.as_ref()) {
        return Some(format!(
            "The gateway reports a payment for this order ({payment}): money moved, so it cannot be abandoned. \
             Hand in that transaction (Continue, or Go to signing) so the app follows the order to its end."
        ));
    }
    None
}

/// True when the person may abandon `order` now ([`abandon_refusal`] has nothing against it).
pub fn may_abandon(order: &JournalOrder) -> bool {
    abandon_refusal(order).is_none()
}

/// The reason recorded when the person abandons `order`: that they did, that nothing was paid, and that the
/// gateway's order (named when known) expires unpaid; an approval the wallet signed stays on chain, and it says so.
pub fn abandoned_by_person_reason(order: &JournalOrder) -> String {
    let mut reason = match (order.stage, order.order_id.as_deref()) {
        (Stage::Quoted, _) => {
            "Abandoned by you before the order was created: nothing was sent to the gateway.".to_owned()
        }
        (Stage::Refused, Some(id)) => format!(
            "Abandoned by you: the gateway's transaction did not match the quote, so nothing was signed or paid; \
             the gateway's order {id} will expire unpaid."
        ),
        (_, Some(id)) => format!(
            "Abandoned by you: nothing was paid, and the gateway's order {id} will expire unpaid."
        ),
        (_, None) => "Abandoned by you while it was unknown whether the gateway had created the order: nothing was \
                      paid, and if the gateway did create it, its order will expire unpaid."
            .to_owned(),
    };
    let approvals: Vec<&str> = order
        .wallet_txs
        .iter()
        .filter(|t| t.kind != WalletTxKind::Pay && t.state == WalletTxState::Mined)
        .map(|t| t.hash.as_str())
        .collect();
    if !approvals.is_empty() {
        reason.push_str(&format!(
            " The token approval you signed ({}) stays on chain; you can set the allowance back to zero from your \
             wallet.",
            approvals.join(", ")
        ));
    }
    reason
}

/// True when the log holds the person's `acknowledged` (they read what happened to a failed or refunded order).
pub fn is_acknowledged(events: &[JournalEvent]) -> bool {
    events.iter().any(|e| e.kind == "acknowledged")
}

/// When the gateway first answered the order's registration, in unix seconds (the order's timeline says
/// "Transaction registered" then, and its estimate counts from then); `None` before.
pub fn registered_at(events: &[JournalEvent]) -> Option<i64> {
    events
        .iter()
        .find(|e| e.kind == "registerAnswered")
        .map(|e| e.at)
}
