//! Where an order stands for the person, decided once here for the window: whether it is finished, what it asks of
//! the person (its attention action), which part of the Swap view's Sign step applies, the question before it is
//! abandoned, and what a failed or refunded order means (what happened, where the money is, what to do).

use serde::Serialize;
use ts_rs::TS;

use super::{OrderView, TransferView};
use crate::api::RouteKind;
use crate::ids::short_id;
use crate::journal::{NextStep, Stage, WalletTxKind, WalletTxState};

/// Statuses after which the gateway does nothing more with an order.
const ENDINGS: [&str; 3] = ["success", "failed", "refunded"];

/// What the person can do about one of the app's orders from the Orders view's "Needs your attention" section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "AttentionAction.ts")]
pub enum AttentionAction {
    /// Continue the flow: find out whether the order was created, or register the transaction handed in.
    Continue,
    /// Go and sign (or pay) in the Swap view.
    GoSign,
    /// The order was refused: discard it.
    Discard,
    /// The order failed or was refunded: read what happened ("I've read this").
    Acknowledge,
}

/// Which part of the Swap view's Sign step applies to one of the app's orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "ExecutionPhase.ts")]
pub enum ExecutionPhase {
    /// Not created or not verified yet (or whether it was created is unknown): nothing to sign yet.
    Preparing,
    /// Verified: sign or pay now (the app's wallet may sign), then hand in the result.
    Sign,
    /// A transaction was handed in and is being registered; another may still be handed in.
    HandIn,
    /// The gateway has the transaction: follow the order.
    Registered,
    /// Refused or given up: nothing may be paid or signed.
    Stopped,
}

impl ExecutionPhase {
    /// The phase of a stage.
    pub fn of(stage: Stage) -> Self {
        match stage {
            Stage::Quoted | Stage::Creating | Stage::CreateUnknown | Stage::Created => {
                Self::Preparing
            }
            Stage::Verified => Self::Sign,
            Stage::TxHandedIn | Stage::Registering => Self::HandIn,
            Stage::Registered | Stage::Finished => Self::Registered,
            Stage::Refused | Stage::Abandoned => Self::Stopped,
        }
    }
}

/// What happened to a failed or refunded order, where the money is, and what the person can do, in sentences.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "Outcome.ts")]
pub struct Outcome {
    /// What happened.
    pub happened: String,
    /// Where the money is.
    pub r#where: String,
    /// What the person can do next.
    pub next: String,
}

/// True when nothing more will happen to the order: the app's flow ended (finished, or given up), or the gateway
/// reports an ending. A refused order is not finished: it waits to be discarded. An unknown status is not finished.
pub(super) fn is_finished(order: &OrderView) -> bool {
    match order.stage {
        Some(Stage::Finished | Stage::Abandoned) => true,
        Some(Stage::Refused) => false,
        _ => order
            .status
            .as_deref()
            .is_some_and(|s| ENDINGS.contains(&s)),
    }
}

/// The action one of the app's orders offers, or `None`. Orders the app only watches (next step `watch`) need
/// nothing from the person; orders of watched addresses (no local id) are not the app's to act on. A failed or
/// refunded order asks to be read until the person acknowledges it.
pub(super) fn attention_action(order: &OrderView) -> Option<AttentionAction> {
    order.local_id?;
    if order.stage == Some(Stage::Refused) {
        return Some(AttentionAction::Discard);
    }
    if order.acknowledged == Some(false) {
        return Some(AttentionAction::Acknowledge);
    }
    match order.next_step.as_ref()?.step {
        NextStep::ConfirmCreation | NextStep::Register => Some(AttentionAction::Continue),
        NextStep::SignAndHandIn => Some(AttentionAction::GoSign),
        NextStep::Watch => None,
    }
}

/// True when the person may abandon this unfinished order of the app from the Orders view (desk-core's journal
/// says nothing was signed or handed in that could move money). A refused order is discarded instead.
fn may_abandon(order: &OrderView) -> bool {
    order.local_id.is_some()
        && order.can_abandon == Some(true)
        && order.stage != Some(Stage::Refused)
}

/// True when the app's wallet signed a token approval for the order that was mined: it stays on chain.
fn approved_on_chain(order: &OrderView) -> bool {
    order
        .wallet_txs
        .iter()
        .flatten()
        .any(|t| t.kind != WalletTxKind::Pay && t.state == WalletTxState::Mined)
}

/// The question asked before the order is abandoned from the Orders view; `None` when it may not be abandoned.
pub(super) fn abandon_question(order: &OrderView) -> Option<String> {
    if !may_abandon(order) {
        return None;
    }
    let approval = if approved_on_chain(order) {
        " The token approval you signed stays on chain; you can set it back to zero from your wallet."
    } else {
        ""
    };
    let gateway_order = if order.order_id.is_some() {
        "The gateway's order will expire unpaid; nothing is sent to the gateway."
    } else {
        "If the gateway created the order, it will expire unpaid; nothing is sent to the gateway."
    };
    Some(format!("Abandon this order? {gateway_order}{approval}"))
}

/// `0.0025 BTC on bitcoin (transaction 3f2a…c9d0)`
fn transfer_text(transfer: &TransferView) -> String {
    format!(
        "{} on {} (transaction {})",
        transfer.amount.text,
        transfer.amount.token.chain,
        short_id(&transfer.tx_hash)
    )
}

/// The order's own transaction that paid it in, as the gateway or the app knows it.
fn paid_with(order: &OrderView) -> Option<String> {
    if let Some(source) = &order.source_tx {
        return Some(source.tx_hash.clone());
    }
    if let Some(handed) = &order.handed_in {
        return Some(handed.id().to_owned());
    }
    order
        .wallet_txs
        .iter()
        .flatten()
        .find(|t| t.kind == WalletTxKind::Pay && t.state == WalletTxState::Mined)
        .map(|t| t.hash.clone())
}

/// What a failed or refunded order means for the person, from what the gateway reported (its status and refunded
/// transfers) and what the quote named (the refund address, the owner); `None` for any other order, and for an
/// order the person abandoned (it was left to expire unpaid, which its reason says).
pub(super) fn outcome_of(order: &OrderView) -> Option<Outcome> {
    if order.stage == Some(Stage::Abandoned) {
        return None;
    }
    let id = order
        .order_id
        .as_deref()
        .map(|id| format!(" {id}"))
        .unwrap_or_default();
    let mut named = Vec::new();
    if order.route == RouteKind::Onramp
        && let Some(refund) = &order.refund_address
    {
        named.push(format!(
            "The quote named {refund} as the Bitcoin refund address."
        ));
    }
    if let Some(owner) = &order.owner_address {
        named.push(format!(
            "The quote named {owner} as the order's owner, who may claim a refund."
        ));
    }
    match order.status.as_deref() {
        Some("refunded") => {
            let returned = if order.refunded.is_empty() {
                "The gateway did not say what it returned.".to_owned()
            } else {
                let list: Vec<String> = order.refunded.iter().map(transfer_text).collect();
                format!("The gateway returned {}.", list.join(" and "))
            };
            if named.is_empty() {
                named.push("The transaction shows the address it paid.".to_owned());
            }
            Some(Outcome {
                happened: "The gateway reports this order refunded: the swap did not happen and what was sent came back.".to_owned(),
                r#where: std::iter::once(returned).chain(named).collect::<Vec<_>>().join(" "),
                next: format!(
                    "Nothing more will happen to this order. Check that the refund arrived; if it did not, contact the gateway's support with the order id{id}."
                ),
            })
        }
        Some("failed") => {
            let Some(paid) = paid_with(order) else {
                let approval = if approved_on_chain(order) {
                    " (a token approval you signed stays on chain)"
                } else {
                    ""
                };
                return Some(Outcome {
                    happened: "The gateway reports this order failed before anything was paid in: it was not paid in time, or it could not be filled.".to_owned(),
                    r#where: format!("Nothing left your wallet for this order{approval}."),
                    next: "Nothing to do. Start a new swap if you still want one.".to_owned(),
                });
            };
            let refund = if order.route == RouteKind::Onramp {
                "The gateway has not reported a refund of the bitcoin yet.".to_owned()
            } else {
                format!(
                    "The gateway has not reported a refund yet: the tokens went to the gateway's contract on {}.",
                    order.send.token.chain
                )
            };
            Some(Outcome {
                happened: format!(
                    "The gateway reports this order failed after {} was sent (transaction {}).",
                    order.send.text,
                    short_id(&paid)
                ),
                r#where: std::iter::once(refund)
                    .chain(named)
                    .collect::<Vec<_>>()
                    .join(" "),
                next: format!(
                    "Contact the gateway's support about the refund with the order id{id} and the transaction {paid}. Support → Look up an order shows what the gateway says about it now."
                ),
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::{HandedIn, WalletTx};
    use crate::views::fixtures::{amount, own, step, watched};

    /// `view` changed by `change`, then read again.
    fn with(mut view: OrderView, change: impl FnOnce(&mut OrderView)) -> OrderView {
        change(&mut view);
        view.settled()
    }

    fn stage(view: OrderView, stage: Stage, next: Option<NextStep>) -> OrderView {
        with(view, |v| {
            v.stage = Some(stage);
            v.next_step = next.map(step);
        })
    }

    fn status(view: OrderView, status: Option<&str>) -> OrderView {
        with(view, |v| v.status = status.map(str::to_owned))
    }

    fn approval_mined() -> WalletTx {
        WalletTx {
            kind: WalletTxKind::Approve,
            chain: "bob".into(),
            hash: "0xa".into(),
            raw: "0x02".into(),
            nonce: 0,
            state: WalletTxState::Mined,
            block: Some(3),
            reason: None,
        }
    }

    #[test]
    fn finished_follows_the_apps_stage_first_then_the_gateways_status() {
        let finished = |v: OrderView| v.finished;
        assert!(finished(stage(own(1), Stage::Finished, None)));
        assert!(finished(status(
            stage(own(1), Stage::Abandoned, None),
            None
        )));
        assert!(!finished(status(stage(own(1), Stage::Refused, None), None)));
        assert!(finished(status(own(1), Some("success"))));
        assert!(!finished(status(own(1), Some("inProgress"))));
        assert!(finished(status(watched("a"), Some("refunded"))));
        assert!(finished(status(watched("a"), Some("failed"))));
        assert!(!finished(status(watched("a"), Some("pendingBtcPayment"))));
        assert!(!finished(status(watched("a"), Some("somethingNew"))));
        assert!(!finished(status(watched("a"), None)));
    }

    #[test]
    fn one_attention_action_per_next_step_and_discard_for_refused_orders() {
        use AttentionAction::*;
        let action = |v: OrderView| v.attention;
        assert_eq!(
            action(stage(
                own(1),
                Stage::CreateUnknown,
                Some(NextStep::ConfirmCreation)
            )),
            Some(Continue)
        );
        assert_eq!(
            action(stage(own(1), Stage::Registering, Some(NextStep::Register))),
            Some(Continue)
        );
        assert_eq!(
            action(stage(
                own(1),
                Stage::Verified,
                Some(NextStep::SignAndHandIn)
            )),
            Some(GoSign)
        );
        assert_eq!(action(stage(own(1), Stage::Refused, None)), Some(Discard));
        // Orders that only need watching, finished ones and watched addresses' orders need nothing.
        assert_eq!(action(own(1)), None);
        assert_eq!(action(stage(own(1), Stage::Finished, None)), None);
        assert_eq!(
            action(with(watched("a"), |v| v.next_step =
                Some(step(NextStep::SignAndHandIn)))),
            None
        );
    }

    #[test]
    fn a_failed_or_refunded_order_asks_to_be_read_until_acknowledged() {
        let ended = |s: &str, acknowledged: Option<bool>| {
            with(stage(own(1), Stage::Finished, None), |v| {
                v.status = Some(s.into());
                v.acknowledged = acknowledged;
            })
        };
        assert_eq!(
            ended("failed", Some(false)).attention,
            Some(AttentionAction::Acknowledge)
        );
        assert_eq!(
            ended("refunded", Some(false)).attention,
            Some(AttentionAction::Acknowledge)
        );
        assert_eq!(ended("refunded", Some(true)).attention, None);
        assert_eq!(ended("success", None).attention, None);
        // A watched address's failed order is not the app's to acknowledge.
        let theirs = with(watched("a"), |v| {
            v.status = Some("failed".into());
            v.acknowledged = Some(false);
        });
        assert_eq!(theirs.attention, None);
    }

    #[test]
    fn abandoning_is_asked_when_desk_core_allows_it_except_for_refused_orders() {
        let verified = |can: Option<bool>| {
            with(
                stage(own(1), Stage::Verified, Some(NextStep::SignAndHandIn)),
                |v| v.can_abandon = can,
            )
        };
        assert_eq!(
            verified(Some(true)).abandon_question.as_deref(),
            Some(
                "Abandon this order? The gateway's order will expire unpaid; nothing is sent to the gateway."
            )
        );
        assert_eq!(verified(Some(false)).abandon_question, None);
        assert_eq!(verified(None).abandon_question, None);
        let refused = with(stage(own(1), Stage::Refused, None), |v| {
            v.can_abandon = Some(true)
        });
        assert_eq!(refused.abandon_question, None);
        assert_eq!(
            with(watched("a"), |v| v.can_abandon = Some(true)).abandon_question,
            None
        );

        let unknown = with(
            stage(
                own(1),
                Stage::CreateUnknown,
                Some(NextStep::ConfirmCreation),
            ),
            |v| {
                v.order_id = None;
                v.can_abandon = Some(true);
            },
        );
        assert_eq!(
            unknown.abandon_question.as_deref(),
            Some(
                "Abandon this order? If the gateway created the order, it will expire unpaid; nothing is sent to the gateway."
            )
        );
        let approved = with(verified(Some(true)), |v| {
            v.wallet_txs = Some(vec![approval_mined()])
        });
        assert!(
            approved
                .abandon_question
                .unwrap()
                .contains("The token approval you signed stays on chain")
        );
    }

    fn transfer(hash: &str) -> TransferView {
        TransferView {
            amount: amount("0.0025 BTC", "bitcoin", "BTC"),
            tx_hash: hash.to_owned(),
            explorer_url: None,
        }
    }

    const REFUND_TX: &str = "3f2a9c1077e1a0b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a7b8c9d0";

    #[test]
    fn a_refund_says_what_came_back_in_which_transaction_and_where_it_goes() {
        let onramp = with(stage(own(1), Stage::Finished, None), |v| {
            v.status = Some("refunded".into());
            v.refunded = vec![transfer(REFUND_TX)];
            v.refund_address = Some("bcrt1qrefund".into());
            v.owner_address = Some("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359".into());
        });
        assert_eq!(
            onramp.outcome,
            Some(Outcome {
                happened: "The gateway reports this order refunded: the swap did not happen and what was sent came back.".into(),
                r#where: "The gateway returned 0.0025 BTC on bitcoin (transaction 3f2a…c9d0). The quote named bcrt1qrefund as the \
                    Bitcoin refund address. The quote named 0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359 as the order's owner, \
                    who may claim a refund."
                    .into(),
                next: "Nothing more will happen to this order. Check that the refund arrived; if it did not, contact the \
                    gateway's support with the order id order-1-3f2a9c1077e1a0b2."
                    .into(),
            })
        );
        let swap = with(stage(own(2), Stage::Finished, None), |v| {
            v.route = RouteKind::TokenSwap;
            v.status = Some("refunded".into());
        });
        assert_eq!(
            swap.outcome.unwrap().r#where,
            "The gateway did not say what it returned. The transaction shows the address it paid."
        );
    }

    #[test]
    fn a_failure_before_payment_is_told_from_one_after_per_route() {
        let failed = |id: i64| {
            with(stage(own(id), Stage::Finished, None), |v| {
                v.status = Some("failed".into())
            })
        };
        let unpaid = failed(1).outcome.unwrap();
        assert!(
            unpaid
                .happened
                .contains("failed before anything was paid in")
        );
        assert_eq!(unpaid.r#where, "Nothing left your wallet for this order.");
        assert_eq!(
            unpaid.next,
            "Nothing to do. Start a new swap if you still want one."
        );
        let approved = with(failed(1), |v| v.wallet_txs = Some(vec![approval_mined()]));
        assert_eq!(
            approved.outcome.unwrap().r#where,
            "Nothing left your wallet for this order (a token approval you signed stays on chain)."
        );

        let source = "aa".repeat(32);
        let onramp = with(failed(2), |v| {
            v.source_tx = Some(transfer(&source));
            v.refund_address = Some("bcrt1qrefund".into());
        })
        .outcome
        .unwrap();
        assert_eq!(
            onramp.happened,
            "The gateway reports this order failed after 0.0025 BTC was sent (transaction aaaa…aaaa)."
        );
        assert_eq!(
            onramp.r#where,
            "The gateway has not reported a refund of the bitcoin yet. The quote named bcrt1qrefund as the Bitcoin refund address."
        );
        assert!(onramp.next.contains(&format!(
            "order id order-2-3f2a9c1077e1a0b2 and the transaction {source}"
        )));

        let offramp = with(failed(3), |v| {
            v.route = RouteKind::Offramp;
            v.send = amount("0.001 WBTC", "bob", "WBTC");
            v.handed_in = Some(HandedIn::SourceTx {
                chain: "bob".into(),
                hash: "0xbeef".into(),
            });
            v.owner_address = Some("0xowner".into());
            v.refund_address = Some("bcrt1qignored".into());
        })
        .outcome
        .unwrap();
        assert_eq!(
            offramp.r#where,
            "The gateway has not reported a refund yet: the tokens went to the gateway's contract on bob. The quote named \
             0xowner as the order's owner, who may claim a refund."
        );
        assert!(
            offramp
                .happened
                .contains("0.001 WBTC was sent (transaction 0xbeef)")
        );
    }

    #[test]
    fn other_orders_and_abandoned_ones_have_no_outcome() {
        assert_eq!(own(1).outcome, None);
        assert_eq!(
            status(stage(own(1), Stage::Finished, None), Some("success")).outcome,
            None
        );
        assert_eq!(
            status(stage(own(1), Stage::Abandoned, None), Some("failed")).outcome,
            None
        );
        let theirs = with(watched("w"), |v| {
            v.status = Some("refunded".into());
            v.refunded = vec![transfer(REFUND_TX)];
        });
        assert!(
            theirs
                .outcome
                .unwrap()
                .r#where
                .contains("The gateway returned 0.0025 BTC on bitcoin")
        );
    }

    #[test]
    fn the_execution_phase_tells_stopped_signable_and_registered_orders_apart() {
        use ExecutionPhase::*;
        let phase = |s: Stage| stage(own(1), s, None).execution;
        assert_eq!(phase(Stage::Refused), Some(Stopped));
        assert_eq!(phase(Stage::Abandoned), Some(Stopped));
        assert_eq!(phase(Stage::Verified), Some(Sign));
        assert_eq!(phase(Stage::TxHandedIn), Some(HandIn));
        assert_eq!(phase(Stage::Registering), Some(HandIn));
        assert_eq!(phase(Stage::Registered), Some(Registered));
        assert_eq!(phase(Stage::Finished), Some(Registered));
        assert_eq!(phase(Stage::CreateUnknown), Some(Preparing));
        assert_eq!(watched("a").execution, None);
    }
}
