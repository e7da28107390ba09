//! The order view: an order as the window shows it, from the gateway's answer or the app's journal (its timeline,
//! next step, transfers and explorer links).

use gateway_client::wire::{OrderInfo, OrderStatus, Quote, status_text};
use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use super::{
    AmountView, AttentionAction, CallToSign, DepositToPay, ExecutionPhase, Outcome, outcome,
    to_sign,
};
use crate::api::RouteKind;
use crate::journal::{HandedIn, JournalEvent, JournalOrder, NextStep, Stage};

/// The next step of an unfinished order, with its sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "NextStepView.ts")]
pub struct NextStepView {
    /// What the order needs next.
    pub step: NextStep,
    /// The step explained for the person ([`NextStep::sentence`]).
    pub sentence: String,
}

/// A settled (or pending) transfer: what moved, in which transaction, and where to see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "TransferView.ts")]
pub struct TransferView {
    /// What moved.
    pub amount: AmountView,
    /// The transaction that moved it (a txid on Bitcoin).
    pub tx_hash: String,
    /// The transaction's page on a block explorer; absent on the Sandbox and for chains without a known explorer.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub explorer_url: Option<String>,
}

/// One entry of an order's timeline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "TimelineEntry.ts")]
pub struct TimelineEntry {
    /// `created`, `registered`, `inProgress`, `pendingBtcPayment`, `success`, `failed`, `refunded`.
    pub key: String,
    /// The entry in words for a person ("Order created", "Completed", …).
    pub text: String,
    /// Unix seconds when the app saw it, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub at: Option<i64>,
}

/// An order as the Orders view shows it: from the journal (the app's own orders) and/or as read from the gateway
/// (the orders of watched addresses).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "OrderView.ts")]
pub struct OrderView {
    /// The journal's id; absent for an order known only from the gateway.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub local_id: Option<i64>,
    /// The gateway's order id; absent for the app's own order until create-order has answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub order_id: Option<String>,
    /// The network the order is on (`production`, `staging`, `sandbox`, `custom:<url>`).
    pub network: String,
    /// Which kind of order it is.
    pub route: RouteKind,
    /// Where the app's own order is in the flow.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stage: Option<Stage>,
    /// What the app's own unfinished order needs next; absent when nothing is left to do.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub next_step: Option<NextStepView>,
    /// What is paid in.
    pub send: AmountView,
    /// The expected output.
    pub receive: AmountView,
    /// The status as a word (`inProgress`, `pendingBtcPayment`, `success`, `failed`, `refunded`, `unknown`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status: Option<String>,
    /// The status in words for a person.
    pub status_text: String,
    /// What happened to the order so far, in the order of the flow (created, registered, in progress, payout, end).
    pub timeline: Vec<TimelineEntry>,
    /// What reached the recipient, once the order succeeded.
    pub received: Vec<TransferView>,
    /// What came back, once the order was refunded.
    pub refunded: Vec<TransferView>,
    /// An offramp's Bitcoin payout while it confirms (the order is still in progress).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub pending_btc_payment: Option<TransferView>,
    /// The source transaction, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub source_tx: Option<TransferView>,
    /// The Bitcoin address an onramp is paid at, when the gateway gave one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub deposit_address: Option<String>,
    /// What was handed in for registration (the app's own orders).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub handed_in: Option<HandedIn>,
    /// The last failure of the app's own order, as a sentence.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub last_error: Option<String>,
    /// When the order was made, in unix seconds (the journal's time for the app's own orders, else the gateway's).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub created_at: Option<i64>,
    /// When the journal last changed the app's own order, in unix seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub updated_at: Option<i64>,
    /// What verification found (the PSBT's or call's summary), as journaled; `None` before verification (or for a
    /// journal record of another shape, written by an older app).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub verified: Option<crate::verify::Verified>,
    /// The create-order answer, as received (any JSON: it is shown as the gateway sent it).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub created: Option<Value>,
    /// The order as last read from the gateway, as received (any JSON: it is shown as the gateway sent it).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub raw: Option<Value>,
    /// For the app's own order that failed or was refunded: whether the person read what happened ("I've read
    /// this"); until then it needs their attention. Absent for every other order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub acknowledged: Option<bool>,
    /// For the app's own unfinished order: whether the person may abandon it now (nothing signed or handed in that
    /// could move money). Absent for every other order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub can_abandon: Option<bool>,
    /// For the app's own order whose transaction was left to the gateway to find on its chain (API V4's offramps and
    /// token swaps register nothing): that chain's name. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub read_from_chain: Option<String>,
    /// The refund address the quote named (`refundAddress`: V3 an onramp's Bitcoin address, V4 an address on the
    /// source chain), when it named one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub refund_address: Option<String>,
    /// The EVM owner the quote named (`ownerAddress`: the order's refund claimant), when it named one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub owner_address: Option<String>,
    /// The transactions the app's wallet signed for the order, each journaled before it was broadcast.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub wallet_txs: Option<Vec<crate::journal::WalletTx>>,
    /// The quote's estimate of how long the order takes, in seconds (the app's own orders).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub estimated_secs: Option<u64>,
    /// What an onramp asks to be paid (its deposit address, exact amount, OP_RETURN, PSBT); absent for other
    /// routes and when the gateway gave no deposit address.
    pub to_pay: Option<DepositToPay>,
    /// The call an offramp or token swap asks to be signed; absent for onramps and when the create-order answer
    /// carries none.
    pub to_sign: Option<CallToSign>,
    /// Which part of the Swap view's Sign step applies (the app's own orders); absent for watched orders.
    pub execution: Option<ExecutionPhase>,
    /// Nothing more will happen to the order: the app's flow ended (finished or given up) or the gateway reports an
    /// ending (success, failed, refunded). A refused order is not finished (it waits to be discarded).
    pub finished: bool,
    /// What the person can do about the app's own order from "Needs your attention"; absent when nothing.
    pub attention: Option<AttentionAction>,
    /// The question asked before the order is abandoned from the Orders view; absent when it may not be.
    pub abandon_question: Option<String>,
    /// What a failed or refunded order means for the person; absent for every other order (and an abandoned one).
    pub outcome: Option<Outcome>,
    /// The receipt of an order that ended (completed, refunded, failed): what arrived or came back, how long it took,
    /// and [`Self::outcome`] as its explanation; absent for every other order (and an abandoned one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub receipt: Option<super::ReceiptView>,
}

/// A block explorer's page for transaction `hash` on `chain`; `None` for the Sandbox (its transactions exist only
/// there) and for chains without a known explorer.
pub fn explorer_url(chain: &str, hash: &str, sandbox: bool) -> Option<String> {
    if sandbox {
        return None;
    }
    let base = gateway_client::chains::chain(chain)?.explorer_tx?;
    Some(format!("{base}{hash}"))
}

/// True for a link the app itself makes with [`explorer_url`]: a known explorer's prefix followed by a hash of
/// letters and digits only (so the window can ask to open nothing else).
pub fn is_explorer_url(url: &str) -> bool {
    gateway_client::chains::CHAINS
        .iter()
        .filter_map(|c| c.explorer_tx)
        .any(|base| {
            url.strip_prefix(base).is_some_and(|hash| {
                !hash.is_empty()
                    && hash.len() <= 100
                    && hash.chars().all(|c| c.is_ascii_alphanumeric())
            })
        })
}

/// A stage of the app's own order in words: the one word list of the stages (the order list and the partner
/// dashboard both show it).
pub(crate) fn stage_text(stage: Stage) -> &'static str {
    match stage {
        Stage::Quoted => "Quote accepted; no order yet",
        Stage::Creating | Stage::CreateUnknown => "Creating the order",
        Stage::Created | Stage::Verified => "Waiting for your signature",
        Stage::Refused => "Refused: the gateway's transaction did not match the quote",
        Stage::TxHandedIn | Stage::Registering => "Registering your transaction",
        Stage::Registered => "Registered; waiting for the gateway",
        Stage::Finished => "Finished",
        Stage::Abandoned => "Given up",
    }
}

/// The chain's name when the order's transaction was left to the gateway to find there (API V4's offramps and token
/// swaps: [`crate::journal::Journal::left_to_the_chain`]).
fn read_from_chain(order: &JournalOrder) -> Option<&str> {
    let chain = order
        .registration
        .as_ref()?
        .get("readFromChain")?
        .get("chain")?
        .as_str()?;
    Some(gateway_client::chains::chain_name(chain))
}

/// Where a timeline entry sits: created, registered, in progress, payout, then the ending.
fn timeline_rank(key: &str) -> u8 {
    match key {
        "created" => 0,
        "registered" => 1,
        "inProgress" => 2,
        "pendingBtcPayment" => 3,
        _ => 4,
    }
}

fn transfers(list: &[gateway_client::wire::TokenTransfer], sandbox: bool) -> Vec<TransferView> {
    list.iter()
        .map(|t| TransferView {
            amount: AmountView::new(&t.chain, &t.token, &t.amount, t.usd.as_deref()),
            tx_hash: t.tx_hash.clone(),
            explorer_url: explorer_url(&t.chain, &t.tx_hash, sandbox),
        })
        .collect()
}

impl OrderView {
    /// An order known from the gateway only (a watched address's order).
    pub fn from_gateway(network: &str, info: &OrderInfo, raw: &Value, route: RouteKind) -> Self {
        Self::gateway_only(network, info, raw, route).settled()
    }

    /// A view of an order of `route` on `network` that knows only what it sends and receives: every other field
    /// empty, until the constructors fill in what they know.
    pub(crate) fn bare(
        network: &str,
        route: RouteKind,
        send: AmountView,
        receive: AmountView,
    ) -> Self {
        Self {
            local_id: None,
            order_id: None,
            network: network.to_owned(),
            route,
            stage: None,
            next_step: None,
            send,
            receive,
            status: None,
            status_text: String::new(),
            timeline: Vec::new(),
            received: Vec::new(),
            refunded: Vec::new(),
            pending_btc_payment: None,
            source_tx: None,
            deposit_address: None,
            handed_in: None,
            last_error: None,
            created_at: None,
            updated_at: None,
            acknowledged: None,
            can_abandon: None,
            refund_address: None,
            read_from_chain: None,
            owner_address: None,
            verified: None,
            created: None,
            wallet_txs: None,
            estimated_secs: None,
            raw: None,
            to_pay: None,
            to_sign: None,
            execution: None,
            finished: false,
            attention: None,
            abandon_question: None,
            outcome: None,
            receipt: None,
        }
    }

    /// [`Self::from_gateway`] before what is read from its facts ([`Self::settled`]).
    fn gateway_only(network: &str, info: &OrderInfo, raw: &Value, route: RouteKind) -> Self {
        let sandbox = network == "sandbox";
        let send = AmountView::new(
            &info.src_info.chain,
            &info.src_info.token,
            &info.src_info.amount,
            info.src_info.usd.as_deref(),
        );
        let receive = AmountView::new(
            &info.dst_info.chain,
            &info.dst_info.token,
            &info.dst_info.amount,
            info.dst_info.usd.as_deref(),
        );
        let mut view = Self::bare(network, route, send, receive);
        view.order_id = Some(info.id.clone());
        view.timeline = vec![TimelineEntry {
            key: "created".into(),
            text: "Order created".into(),
            at: Some(info.timestamp),
        }];
        view.source_tx = info.src_info.tx_hash.as_ref().map(|h| TransferView {
            amount: view.send.clone(),
            tx_hash: h.clone(),
            explorer_url: explorer_url(&info.src_info.chain, h, sandbox),
        });
        view.deposit_address = info.deposit_address.clone();
        view.created_at = Some(info.timestamp);
        view.raw = Some(raw.clone());
        view.apply_status(&info.status, None, sandbox);
        view
    }

    /// Sets the status, its transfers and the timeline's later entries from a status read from the gateway.
    fn apply_status(&mut self, status: &OrderStatus, at: Option<i64>, sandbox: bool) {
        let key = status.key();
        self.status = Some(key.to_owned());
        self.status_text = status_text(key).to_owned();
        match status {
            OrderStatus::InProgress {
                pending_btc_payment: Some(p),
                ..
            } => {
                self.pending_btc_payment = Some(TransferView {
                    amount: AmountView::new(
                        "bitcoin",
                        gateway_client::wire::NATIVE_TOKEN,
                        &p.amount,
                        p.usd.as_deref(),
                    ),
                    tx_hash: p.txid.clone(),
                    explorer_url: explorer_url("bitcoin", &p.txid, sandbox),
                });
            }
            OrderStatus::Success { received_tokens } => {
                self.received = transfers(received_tokens, sandbox)
            }
            OrderStatus::Refunded { refunded_tokens } => {
                self.refunded = transfers(refunded_tokens, sandbox)
            }
            _ => {}
        }
        if !self.timeline.iter().any(|e| e.key == key) {
            self.timeline.push(TimelineEntry {
                key: key.to_owned(),
                text: status_text(key).to_owned(),
                at,
            });
        }
    }

    /// One of the app's own orders, from its journal record and log.
    pub fn from_journal(order: &JournalOrder, events: &[JournalEvent]) -> Self {
        let sandbox = order.network == "sandbox";
        let quote = Quote::from_json(order.quote.clone()).ok();
        let (send, receive) = match quote.as_ref().map(Quote::view) {
            Some(view) => (
                AmountView::of(view.input_amount()),
                AmountView::of(view.output_amount()),
            ),
            None => (
                AmountView::new("?", "?", "0", None),
                AmountView::new("?", "?", "0", None),
            ),
        };
        let route: RouteKind = order.route;
        let mut view = match order.status.as_ref().and_then(|raw| {
            serde_json::from_value::<OrderInfo>(raw.clone())
                .ok()
                .map(|info| (raw, info))
        }) {
            Some((raw, info)) => {
                let mut v = Self::gateway_only(&order.network, &info, raw, route);
                v.timeline.clear();
                v.received.clear();
                v.refunded.clear();
                v
            }
            None => Self::bare(&order.network, route, send.clone(), receive.clone()),
        };
        view.local_id = Some(order.local_id);
        view.order_id = order.order_id.clone();
        view.stage = Some(order.stage);
        view.next_step = order.next_step().map(|step| NextStepView {
            step,
            sentence: step.sentence().to_owned(),
        });
        view.send = send;
        view.receive = receive;
        view.handed_in = order.handed_in.clone();
        view.last_error = order.last_error.clone();
        view.created_at = Some(order.created_at);
        view.updated_at = Some(order.updated_at);
        view.verified = order.verified.as_ref().and_then(verified_of);
        view.created = order.created.clone();
        view.wallet_txs = (!order.wallet_txs.is_empty()).then(|| order.wallet_txs.clone());
        let ended = matches!(order.status_label.as_deref(), Some("failed" | "refunded"));
        view.acknowledged = (order.stage == Stage::Finished && ended)
            .then(|| crate::journal::is_acknowledged(events));
        view.can_abandon = order
            .next_step()
            .map(|_| crate::journal::may_abandon(order))
            .or_else(|| {
                (order.stage == Stage::Refused).then(|| crate::journal::may_abandon(order))
            });
        let named = |field: &str| {
            order
                .quote
                .as_object()
                .and_then(|m| m.values().next())
                .and_then(|q| q.get(field))
                .and_then(Value::as_str)
                .filter(|a| !a.trim().is_empty())
                .map(str::to_owned)
        };
        view.refund_address = named("refundAddress");
        view.owner_address = named("ownerAddress");
        view.estimated_secs = quote
            .as_ref()
            .and_then(|q| q.view().estimated_time_in_secs());
        if view.deposit_address.is_none() {
            view.deposit_address = order
                .created
                .as_ref()
                .and_then(|c| c.get("onramp"))
                .and_then(|o| o.get("address"))
                .and_then(Value::as_str)
                .map(str::to_owned);
        }
        if view.source_tx.is_none()
            && let Some(handed) = &order.handed_in
        {
            let chain = match handed {
                HandedIn::SourceTx { chain, .. } => chain.as_str(),
                _ => "bitcoin",
            };
            view.source_tx = Some(TransferView {
                amount: view.send.clone(),
                tx_hash: handed.id().to_owned(),
                explorer_url: explorer_url(chain, handed.id(), sandbox),
            });
        }

        view.read_from_chain = read_from_chain(order).map(str::to_owned);
        // The timeline from the log: when each step happened, as the app saw it. A status read before the
        // transaction was registered ("in progress" while the gateway waits for it) is not progress.
        let mut registered = false;
        for event in events {
            registered |= matches!(event.kind.as_str(), "registerAnswered" | "leftToTheChain");
            let entry = match event.kind.as_str() {
                "createAnswered" => Some(("created", "Order created".to_owned())),
                "orderFound" => Some((
                    "created",
                    "Order created (its answer was lost; found among the address's orders)"
                        .to_owned(),
                )),
                "registerAnswered" => Some(("registered", "Transaction registered".to_owned())),
                // API V4: nothing is registered for an offramp or token swap; the gateway reads the chain.
                "leftToTheChain" => Some((
                    "registered",
                    format!(
                        "Transaction sent; the gateway finds it on {}",
                        read_from_chain(order).unwrap_or("its chain")
                    ),
                )),
                "statusSeen" => {
                    let status = event
                        .payload
                        .get("status")
                        .and_then(|s| OrderStatus::from_value(s).ok());
                    status.map(|s| {
                        let key = s.key();
                        (key, status_text(key).to_owned())
                    })
                }
                _ => None,
            };
            let early =
                !registered && matches!(entry, Some(("inProgress" | "pendingBtcPayment", _)));
            if let Some((key, text)) = entry
                && !early
                && !view.timeline.iter().any(|e| e.key == key)
            {
                view.timeline.push(TimelineEntry {
                    key: key.to_owned(),
                    text,
                    at: Some(event.at),
                });
            }
        }
        match order
            .status
            .as_ref()
            .and_then(|raw| serde_json::from_value::<OrderInfo>(raw.clone()).ok())
        {
            Some(info) => {
                let at = view
                    .timeline
                    .iter()
                    .find(|e| Some(e.key.as_str()) == Some(info.status.key()))
                    .and_then(|e| e.at);
                view.apply_status(&info.status, at, sandbox);
            }
            None => {
                view.status_text = match read_from_chain(order) {
                    Some(chain) if order.stage == Stage::Registered => {
                        format!("Sent; waiting for the gateway to find it on {chain}")
                    }
                    _ => stage_text(order.stage).to_owned(),
                }
            }
        }
        let in_progress = matches!(
            view.status.as_deref(),
            Some("inProgress" | "pendingBtcPayment")
        );
        if in_progress && order.stage != Stage::Registered && order.stage != Stage::Finished {
            // The gateway is waiting for the transaction: say what the app knows instead.
            view.timeline
                .retain(|e| e.key != "inProgress" && e.key != "pendingBtcPayment");
            view.status_text = stage_text(order.stage).to_owned();
        }
        view.timeline.sort_by_key(|e| timeline_rank(&e.key));
        if matches!(order.stage, Stage::Refused | Stage::Abandoned) {
            view.status_text = stage_text(order.stage).to_owned();
        }
        view.settled()
    }

    /// The view with what is read from its facts filled in: what to pay or sign, the execution phase, whether it
    /// is finished, its attention action, the abandon question, the outcome and the receipt.
    pub(super) fn settled(mut self) -> Self {
        let facts = to_sign::OrderFacts {
            route: self.route,
            verified: self.verified.as_ref(),
            created: self.created.as_ref(),
            order_id: self.order_id.as_deref(),
            deposit_address: self.deposit_address.as_deref(),
            send_units: &self.send.amount,
            send_usd: self.send.usd.as_deref(),
            send_chain: &self.send.token.chain,
        };
        self.to_pay = to_sign::deposit_to_pay(&facts);
        self.to_sign = to_sign::call_to_sign(&facts);
        self.execution = self.stage.map(ExecutionPhase::of);
        self.finished = outcome::is_finished(&self);
        self.attention = outcome::attention_action(&self);
        self.abandon_question = outcome::abandon_question(&self);
        self.outcome = outcome::outcome_of(&self);
        self.receipt = super::receipt::receipt_of(&self);
        self
    }
}

/// The journal's record of what verification found, when it has the shape this app writes ([`Verified`]); a record of
/// another shape (an older app's) is left out rather than shown half-read.
///
/// [`Verified`]: crate::verify::Verified
fn verified_of(record: &Value) -> Option<crate::verify::Verified> {
    serde_json::from_value(record.clone()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verified_record_of_another_shape_is_left_out() {
        for record in [
            serde_json::json!({"sentence": "x"}),
            serde_json::json!({"orderId": "o", "sentence": "x", "payload": {"type": "mystery"}}),
            serde_json::json!("nope"),
        ] {
            assert_eq!(verified_of(&record), None, "{record}");
        }
    }

    #[test]
    fn explorer_links_are_per_chain_and_never_for_the_sandbox() {
        assert_eq!(
            explorer_url("bitcoin", "ab", false).as_deref(),
            Some("https://mempool.space/tx/ab")
        );
        assert_eq!(explorer_url("bitcoin", "ab", true), None);
        assert_eq!(explorer_url("nowhere", "ab", false), None);
        assert!(is_explorer_url("https://mempool.space/tx/ab12"));
        assert!(!is_explorer_url("https://mempool.space/tx/"));
        assert!(!is_explorer_url("https://mempool.space/tx/ab?x=1"));
        assert!(!is_explorer_url("https://evil.example/tx/ab"));
        assert!(!is_explorer_url("file:///etc/passwd"));
    }
}
