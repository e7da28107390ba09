//! What an order's status means for the user, and what they can do next, for its route.

use gateway_client::TokenRegistry;
use gateway_client::display::{amount_text, duration_text};
use gateway_client::wire::{OrderInfo, OrderStatus, TokenTransfer};

use super::Explanation;
use crate::api::RouteKind;

pub(crate) fn transfers_text(list: &[TokenTransfer]) -> String {
    let registry = TokenRegistry::builtin();
    list.iter()
        .map(|t| {
            format!(
                "{} on {} in transaction {}",
                amount_text(registry, &t.chain, &t.token, &t.amount),
                t.chain,
                t.tx_hash
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// What an order's status means for the user, and what they can do next, for its route.
pub fn explain(order: &OrderInfo, route: RouteKind) -> Explanation {
    let registry = TokenRegistry::builtin();
    let src = &order.src_info;
    let dst = &order.dst_info;
    let send = amount_text(registry, &src.chain, &src.token, &src.amount);
    let receive = amount_text(registry, &dst.chain, &dst.token, &dst.amount);
    let id = &order.id;
    let name = RouteKind::noun(route);
    let source_tx = src.tx_hash.as_deref().filter(|h| !h.trim().is_empty());
    let typical = order
        .estimated_time_in_secs
        .map(|secs| format!("about {}", duration_text(secs)))
        .unwrap_or_else(|| "the time the quote estimated".to_owned());
    let deposit = order.deposit_address.as_deref().map_or_else(
        || "the order's deposit address".to_owned(),
        |a| format!("the deposit address {a}"),
    );
    let (meaning, next_step) = match &order.status {
        OrderStatus::InProgress {
            pending_btc_payment: Some(payment),
            ..
        } => {
            let amount = amount_text(
                registry,
                "bitcoin",
                gateway_client::wire::NATIVE_TOKEN,
                &payment.amount,
            );
            (
                format!(
                    "The gateway has sent the Bitcoin payout of {amount} in transaction {}; it is waiting for the \
                     Bitcoin network to confirm it.",
                    payment.txid
                ),
                format!(
                    "Wait for the payout {} to confirm (usually 10 to 60 minutes); follow it in a Bitcoin block \
                     explorer or the recipient's wallet. Nothing else is needed for this {name}.",
                    payment.txid
                ),
            )
        }
        OrderStatus::InProgress { .. } => match (route, source_tx) {
            (RouteKind::Onramp, None) => (
                format!(
                    "The gateway has not seen a Bitcoin payment for this onramp yet: it is waiting for {send} to \
                     arrive at {deposit}."
                ),
                format!(
                    "If you already paid, give the gateway your payment's Bitcoin txid (register it on the order, \
                     or send it to the gateway's support with the order id {id}) so it can match the payment. If you \
                     have not paid, send exactly {send} to {deposit} before the order expires: an unpaid order fails \
                     after a while and then needs a new quote."
                ),
            ),
            (RouteKind::Onramp, Some(tx)) => (
                format!(
                    "The gateway has seen your Bitcoin payment {tx} and is processing the onramp: once the payment \
                     is confirmed, {receive} is sent to the recipient on {}.",
                    dst.chain
                ),
                format!(
                    "Nothing to do but wait: an onramp typically takes {typical} once the payment confirms (a \
                     Bitcoin block comes about every 10 minutes). If nothing changes long after that, contact the \
                     gateway's support with the order id {id}."
                ),
            ),
            (_, None) => (
                format!(
                    "The gateway has not seen your {} transaction for this {name} yet: it is waiting for {send} to \
                     be sent.",
                    src.chain
                ),
                format!(
                    "If you signed and sent the {name}'s transaction, register its transaction hash (on the order, \
                     or with the gateway's support, quoting the order id {id}) so the gateway can follow it. If you \
                     have not, sign and send it on {} before the order expires, or ask for a new {name} quote.",
                    src.chain
                ),
            ),
            (_, Some(tx)) => (
                format!(
                    "The gateway has your {} transaction {tx} and is processing the {name}: {receive} is then \
                     delivered to the recipient on {}.",
                    src.chain, dst.chain
                ),
                format!(
                    "Nothing to do but wait: a{} {name} typically takes {typical}{}. If nothing changes long after \
                     that, contact the gateway's support with the order id {id}.",
                    if route == RouteKind::Offramp { "n" } else { "" },
                    if route == RouteKind::Offramp {
                        "; the Bitcoin payout's txid shows here as soon as it is sent"
                    } else {
                        ""
                    }
                ),
            ),
        },
        OrderStatus::Success { received_tokens } => {
            let what = if received_tokens.is_empty() {
                match dst.tx_hash.as_deref() {
                    Some(tx) => format!(
                        "{receive} was delivered on {} in transaction {tx}",
                        dst.chain
                    ),
                    None => format!(
                        "{receive} was delivered on {} (this API version does not name the transaction; look the \
                         order up with V3 to see it)",
                        dst.chain
                    ),
                }
            } else {
                format!("the recipient received {}", transfers_text(received_tokens))
            };
            let next = match route {
                RouteKind::Onramp => format!(
                    "Nothing to do: the bitcoin you paid became {receive} on {}. If the tokens do not show in the \
                     recipient's wallet, add the token to the wallet, then check the transaction in a {} block \
                     explorer.",
                    dst.chain, dst.chain
                ),
                RouteKind::Offramp => "Nothing to do: the bitcoin is at the recipient's Bitcoin address. A wallet \
                     shows it once it has synchronized; check the transaction in a Bitcoin block explorer if it \
                     does not."
                    .to_owned(),
                RouteKind::TokenSwap => format!(
                    "Nothing to do: the swap from {} to {} is settled. If the tokens do not show in the recipient's \
                     wallet on {}, add that token to the wallet.",
                    src.chain, dst.chain, dst.chain
                ),
            };
            (format!("The {name} is complete: {what}."), next)
        }
        OrderStatus::Failed { refund_tx } => {
            let prepared = if refund_tx.as_ref().is_some_and(|t| !t.is_null()) {
                " The gateway's answer includes a refund transaction (see the raw answer)."
            } else {
                ""
            };
            match (route, source_tx) {
                (RouteKind::Onramp, None) => (
                    format!(
                        "The onramp failed before any Bitcoin payment was seen (most likely it expired unpaid): no \
                         funds went through the gateway.{prepared}"
                    ),
                    format!(
                        "Nothing was taken. Do not pay this order's deposit address now; ask for a new quote to try \
                         again. If you did pay it, contact the gateway's support with the order id {id} and your \
                         payment's Bitcoin txid."
                    ),
                ),
                (RouteKind::Onramp, Some(tx)) => (
                    format!(
                        "The onramp failed after the gateway saw your Bitcoin payment {tx}: no tokens were \
                         delivered, and the bitcoin stays with the gateway until it is refunded (the order then \
                         shows Refunded).{prepared}"
                    ),
                    format!(
                        "Contact the gateway's support with the order id {id} and the txid {tx} to have the bitcoin \
                         refunded; a refund address given on the quote (V3) is where it goes."
                    ),
                ),
                (_, None) => (
                    format!(
                        "The {name} failed before your {} transaction was seen (most likely it expired): no tokens \
                         left your wallet through the gateway.{prepared}",
                        src.chain
                    ),
                    format!(
                        "Nothing was taken. Do not send this order's transaction now; ask for a new {name} quote \
                         to try again."
                    ),
                ),
                (_, Some(tx)) => (
                    format!(
                        "The {name} failed after your {} transaction {tx}: {send} did not reach the recipient and \
                         is returned to you (in V3 the owner address on the quote can claim it).{prepared}",
                        src.chain
                    ),
                    format!(
                        "If the {send} has not come back, contact the gateway's support with the order id {id} and \
                         the transaction {tx}; keep the {name}'s owner wallet at hand to claim the refund."
                    ),
                ),
            }
        }
        OrderStatus::Refunded { refunded_tokens } => {
            let what = if refunded_tokens.is_empty() {
                "this API version does not list the refund (look the order up with V3 to see it)"
                    .to_owned()
            } else {
                transfers_text(refunded_tokens)
            };
            let tx = refunded_tokens.first().map_or_else(
                || "the refund transaction".to_owned(),
                |t| format!("transaction {}", t.tx_hash),
            );
            let next = match route {
                RouteKind::Onramp => format!(
                    "Nothing to do: the bitcoin went back to your refund address (or the address it came from). \
                     Check {tx} in your Bitcoin wallet; ask for a new quote to try the onramp again."
                ),
                _ => format!(
                    "Nothing to do: the tokens went back on {} to the address that sent them (in V3, the owner). \
                     Check {tx} in that wallet; ask for a new quote to try the {name} again.",
                    src.chain
                ),
            };
            (
                format!("The {name} did not complete and the gateway returned your funds: {what}."),
                next,
            )
        }
        OrderStatus::Unknown(raw) => (
            format!(
                "The gateway answered with a status this app does not know: {raw}. It is shown exactly as received."
            ),
            format!(
                "Read the raw answer below, and look the {name} up again later or with another API version; if it \
                 stays like this, contact the gateway's support with the order id {id}."
            ),
        ),
    };
    Explanation {
        status: order.status.key().to_owned(),
        meaning,
        next_step,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn order(status: Value, route: RouteKind, source_tx: bool) -> OrderInfo {
        let (src, dst) = match route {
            RouteKind::Onramp => (
                ("bitcoin", gateway_client::wire::NATIVE_TOKEN, "250000"),
                (
                    "bob",
                    "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c",
                    "245000",
                ),
            ),
            RouteKind::Offramp => (
                (
                    "bob",
                    "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c",
                    "250000",
                ),
                ("bitcoin", gateway_client::wire::NATIVE_TOKEN, "245000"),
            ),
            RouteKind::TokenSwap => (
                (
                    "bob",
                    "0x05D032ac25d322df992303dCa074EE7392C117b9",
                    "50000000",
                ),
                (
                    "ethereum",
                    "0xdac17f958d2ee523a2206206994597c13d831ec7",
                    "49875000",
                ),
            ),
        };
        let mut src_info = json!({"chain": src.0, "token": src.1, "amount": src.2});
        if source_tx {
            src_info["txHash"] = json!("ab".repeat(32));
        }
        serde_json::from_value(json!({
            "id": "order-1", "timestamp": 1_767_225_600,
            "srcInfo": src_info,
            "dstInfo": {"chain": dst.0, "token": dst.1, "amount": dst.2},
            "status": status,
            "depositAddress": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
            "estimatedTimeInSecs": 600,
        }))
        .unwrap()
    }

    fn statuses() -> Vec<(&'static str, Value)> {
        let transfer = json!([{"token": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "amount": "245000",
            "chain": "bob", "txHash": "0xfeed"}]);
        vec![
            ("inProgress", json!({"inProgress": {"refund_tx": null}})),
            (
                "pendingBtcPayment",
                json!({"inProgress": {"pending_btc_payment": {"txid": "cd".repeat(32), "amount": "245000"}}}),
            ),
            ("success", json!({"success": {"received_tokens": transfer}})),
            ("success", json!("success")),
            ("failed", json!({"failed": {"refund_tx": null}})),
            (
                "refunded",
                json!({"refunded": {"refunded_tokens": transfer}}),
            ),
            ("refunded", json!("refunded")),
            ("unknown", json!({"paused": {}})),
        ]
    }

    #[test]
    fn every_status_and_route_has_its_own_meaning_and_next_step() {
        use std::collections::{BTreeMap, BTreeSet};
        // (status, route, source transaction seen where it matters) → the next steps given for it.
        let mut groups: BTreeMap<(&str, &str, bool), BTreeSet<String>> = BTreeMap::new();
        for (key, status) in statuses() {
            for route in [RouteKind::Onramp, RouteKind::Offramp, RouteKind::TokenSwap] {
                for source_tx in [false, true] {
                    let info = order(status.clone(), route, source_tx);
                    let e = explain(&info, route);
                    assert_eq!(e.status, key);
                    assert!(e.meaning.ends_with('.') && e.meaning.len() > 40, "{e:?}");
                    assert!(
                        e.next_step.ends_with('.') && e.next_step.len() > 40,
                        "{e:?}"
                    );
                    assert_ne!(e.meaning, e.next_step);
                    // The source transaction changes what to do only while in progress or after a failure.
                    let varies = matches!(key, "inProgress" | "failed");
                    groups
                        .entry((key, RouteKind::noun(route), varies && source_tx))
                        .or_default()
                        .insert(e.next_step);
                }
            }
        }
        // 6 statuses × 3 routes, plus the source-transaction variants of inProgress and failed.
        assert_eq!(groups.len(), 6 * 3 + 2 * 3);
        let mut owner: BTreeMap<&String, (&str, &str, bool)> = BTreeMap::new();
        for (slot, steps) in &groups {
            for step in steps {
                if let Some(other) = owner.insert(step, *slot) {
                    panic!("{slot:?} and {other:?} give the same next step: {step}");
                }
            }
        }
    }

    #[test]
    fn an_unpaid_onramp_says_the_payment_is_not_seen_and_what_to_do() {
        let info = order(
            json!({"inProgress": {"refund_tx": null}}),
            RouteKind::Onramp,
            false,
        );
        let e = explain(&info, RouteKind::Onramp);
        assert_eq!(e.status, "inProgress");
        assert!(
            e.meaning.contains("has not seen a Bitcoin payment"),
            "{}",
            e.meaning
        );
        assert!(e.meaning.contains("0.0025 BTC"), "{}", e.meaning);
        assert!(
            e.next_step.contains("If you already paid"),
            "{}",
            e.next_step
        );
        assert!(e.next_step.contains("txid"), "{}", e.next_step);
        assert!(
            e.next_step
                .contains("send exactly 0.0025 BTC to the deposit address bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"),
            "{}",
            e.next_step
        );
        assert!(
            e.next_step.contains("before the order expires"),
            "{}",
            e.next_step
        );

        let paid = order(
            json!({"inProgress": {"refund_tx": null}}),
            RouteKind::Onramp,
            true,
        );
        let e = explain(&paid, RouteKind::Onramp);
        assert!(e.meaning.contains(&"ab".repeat(32)), "{}", e.meaning);
        assert!(e.next_step.contains("about 10 min"), "{}", e.next_step);

        let done = order(statuses()[2].1.clone(), RouteKind::Onramp, true);
        let e = explain(&done, RouteKind::Onramp);
        assert!(e.meaning.contains("in transaction 0xfeed"), "{}", e.meaning);
        let unknown = order(json!({"paused": {"why": "x"}}), RouteKind::Offramp, true);
        assert!(
            explain(&unknown, RouteKind::Offramp)
                .meaning
                .contains(r#"{"paused":{"why":"x"}}"#)
        );
    }
}
