//! Quotes and orders as the window shows them: token symbols and human amounts (exact decimals), USD values, fee
//! lines, the order's timeline, its next step and explorer links. Built from what the gateway sent (kept raw
//! beside) and the journal; the TypeScript twins are generated.

use gateway_client::TokenRegistry;
use gateway_client::display::{amount_text, duration_text, fraction_as_percent};
use gateway_client::wire::{OrderInfo, OrderStatus, Quote, QuoteView, TokenAmount};
use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use crate::api::{RouteKind, TokenView};
use crate::journal::{HandedIn, JournalEvent, JournalOrder, NextStep, Stage};
use crate::settings::AffiliateEntry;

#[cfg(test)]
pub(crate) mod fixtures;
mod outcome;
mod to_sign;

pub use outcome::{AttentionAction, ExecutionPhase, Outcome};
pub use to_sign::{CallToSign, ContractCall, DepositToPay, SolanaCall, TronCall};

/// An amount of a token: smallest units (exact, as a string), the same for a person, and its USD value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "AmountView.ts")]
pub struct AmountView {
    /// The token, with its symbol and decimals when the app knows it.
    pub token: TokenView,
    /// Smallest units, as the gateway wrote them.
    pub amount: String,
    /// `0.0025 BTC`, or `250000 smallest units of 0x… on bob` when the token is unknown.
    pub text: String,
    /// USD value, `"96.12"`, when the gateway gave one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub usd: Option<String>,
}

impl AmountView {
    /// From a chain, token, amount and optional USD value.
    pub fn new(chain: &str, token: &str, amount: &str, usd: Option<&str>) -> Self {
        let registry = TokenRegistry::builtin();
        Self {
            token: token_view(registry, chain, token),
            amount: amount.to_owned(),
            text: amount_text(registry, chain, token, amount),
            usd: usd.filter(|u| !u.is_empty()).map(str::to_owned),
        }
    }

    fn of(amount: &TokenAmount) -> Self {
        Self::new(
            &amount.chain,
            &amount.address,
            &amount.amount,
            amount.usd.as_deref(),
        )
    }
}

/// One line of a quote's fees.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "FeeLine.ts")]
pub struct FeeLine {
    /// `solver fee`, `protocol fee`, …
    pub name: String,
    /// What the fee costs, in the token it is charged in.
    pub amount: AmountView,
    /// A chain's cost the gateway passes on (execution, messaging, inclusion), not a fee the gateway keeps.
    pub network: bool,
}

/// The fee lines that pay a chain (gas on the destination, the cross-chain message, the Bitcoin inclusion fee) rather
/// than the gateway, its solver or an affiliate.
const NETWORK_FEE_LINES: &[&str] = &["execution fee", "messaging fee", "inclusion fee"];

/// The price impact the app computes from the quote's USD values, without the fees: how far the value of what is
/// received plus the fees falls short of (or exceeds) the value of what is sent. The gateway's own `priceImpact` counts
/// the fees as impact, so a small swap with fixed fees always looked like a bad price.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "ImpactView.ts")]
pub struct ImpactView {
    /// Whole basis points, negative for a loss, rounded toward zero.
    #[ts(type = "number")]
    pub bps: i64,
    /// `-0.12%`.
    pub text: String,
}

/// An affiliate on a quote: who, and what it earns (a resolved fee, or bps on a V3 token swap).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "AffiliateView.ts")]
pub struct AffiliateView {
    /// The address the affiliate is paid at.
    pub address: String,
    /// What it earns on this quote, as the gateway resolved it (onramps and offramps).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fee: Option<AmountView>,
    /// Its share in basis points (a V3 token swap, where the gateway gives no amount).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub bps: Option<u32>,
}

/// Price impact at or beyond this (in bps, as a loss) gets a warning.
pub const LARGE_IMPACT_BPS: i64 = 100;

/// A quote as the quote card shows it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "QuoteCard.ts")]
pub struct QuoteCard {
    /// Which kind of order the quote makes.
    pub route: RouteKind,
    /// What the user sends.
    pub send: AmountView,
    /// What the user receives (after fees).
    pub receive: AmountView,
    /// Every fee, when the quote states a total in a token.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub total_fees: Option<AmountView>,
    /// The fees' USD total (`totalFeeUsd`, or the sum of the lines' USD values).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub total_fees_usd: Option<String>,
    /// Each fee the quote names, with its amount.
    pub fee_lines: Vec<FeeLine>,
    /// `-0.50%`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub price_impact: Option<String>,
    /// The gateway's own price impact in USD (`priceImpactUsd`), as it wrote it (V2 and later, with a price feed).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub price_impact_usd: Option<String>,
    /// The price impact without the fees, computed by the app from the USD values (absent when the quote has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub impact: Option<ImpactView>,
    /// The app's impact is a loss of at least [`LARGE_IMPACT_BPS`].
    pub large_impact: bool,
    /// The least the recipient gets if the price moves by the whole slippage tolerance: the output less
    /// `slippage_bps`, rounded down.
    pub min_receive: AmountView,
    /// The loss as the app computed it from the quote's amounts (never the gateway's `priceImpact`), and whether
    /// the person must confirm it before the order is created.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub check: Option<crate::verify::request::QuoteCheck>,
    /// The gateway's estimate of how long the order takes, in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub estimated_secs: Option<u64>,
    /// `about 10 minutes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub estimated_text: Option<String>,
    /// The slippage tolerance the quote states, in basis points (0 when it states none).
    pub slippage_bps: u32,
    /// The address that receives the output.
    pub recipient: String,
    /// The address that pays, when the quote names one (an onramp with a sender gets a PSBT to sign).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub sender: Option<String>,
    /// The EVM owner the quote names (`ownerAddress`: who may claim a refund), when it names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub owner: Option<String>,
    /// The affiliates the gateway put on the quote, with what each earns.
    pub affiliates: Vec<AffiliateView>,
    /// The affiliate entries the app asked for (from the network's settings).
    pub affiliates_requested: Vec<AffiliateEntry>,
    /// Why no affiliate (or not every configured one) was sent: API V1, a V2 token swap, …
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub affiliate_note: Option<String>,
    /// The contract or program the user's transaction goes to (offramp, token swap).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tx_to: Option<String>,
    /// The quote exactly as received: what create-order is sent (any JSON).
    pub raw: Value,
}

/// Adds USD values written with at most 2 decimals, exactly (in cents); `None` if any is missing or unreadable.
fn sum_usd<'a>(values: impl IntoIterator<Item = Option<&'a str>>) -> Option<String> {
    let mut cents: i128 = 0;
    for value in values {
        let text = value?.trim();
        let (int, frac) = text.split_once('.').unwrap_or((text, ""));
        if frac.len() > 2 {
            return None;
        }
        let int: i128 = int.parse().ok()?;
        let frac: i128 = format!("{frac:0<2}").parse().ok()?;
        // Checked: a gateway's absurd value gives no total rather than a wrapped one (or a panic in debug builds).
        cents = cents.checked_add(int.checked_mul(100)?.checked_add(frac)?)?;
    }
    Some(format!("{}.{:02}", cents / 100, cents % 100))
}

/// USD text with at most 2 decimals (`"96.5"`, `"-0.80"`) in cents; `None` when it is not such a number.
fn usd_cents(text: &str) -> Option<i128> {
    sum_usd([Some(text.trim().trim_start_matches('-'))])
        .and_then(|total| total.replace('.', "").parse::<i128>().ok())
        .map(|cents| {
            if text.trim().starts_with('-') {
                -cents
            } else {
                cents
            }
        })
}

/// The price impact without fees: (received + fees − sent) / sent, in bps toward zero. `None` without USD values on
/// both sides and for the fees (V1 quotes, tokens the gateway has no price for) or when nothing is sent.
fn impact_without_fees(
    send: &AmountView,
    receive: &AmountView,
    fees_usd: Option<&str>,
) -> Option<ImpactView> {
    let sent = usd_cents(send.usd.as_deref()?)?;
    let received = usd_cents(receive.usd.as_deref()?)?;
    let fees = usd_cents(fees_usd?)?;
    if sent <= 0 {
        return None;
    }
    let bps = i64::try_from((received + fees - sent) * 10_000 / sent).ok()?;
    let sign = if bps < 0 { "-" } else { "" };
    let magnitude = bps.unsigned_abs();
    Some(ImpactView {
        bps,
        text: format!("{sign}{}.{:02}%", magnitude / 100, magnitude % 100),
    })
}

/// `amount` (smallest units) less `bps` basis points, rounded down; the amount itself when it is not digits.
fn less_slippage(amount: &str, bps: u32) -> String {
    let Ok(value) = gateway_client::amount::parse_base_units(amount) else {
        return amount.to_owned();
    };
    let kept = alloy_primitives::U256::from(10_000u32.saturating_sub(bps.min(10_000)));
    (value.saturating_mul(kept) / alloy_primitives::U256::from(10_000u32)).to_string()
}

/// Affiliates resolved by the gateway, each with its fee.
fn resolved(list: &[gateway_client::wire::ResolvedAffiliate]) -> Vec<AffiliateView> {
    list.iter()
        .map(|a| AffiliateView {
            address: a.address.clone(),
            fee: Some(AmountView::of(&a.fee)),
            bps: None,
        })
        .collect()
}

impl QuoteCard {
    /// The card of `quote`.
    pub fn new(quote: &Quote) -> Self {
        let view = quote.view();
        let inner = crate::flow::quote_inner(quote);
        let text = |field: &str| {
            inner
                .get(field)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
        };
        let fee_lines: Vec<FeeLine> = view
            .fee_lines()
            .into_iter()
            .map(|(name, amount)| FeeLine {
                name: name.to_owned(),
                amount: AmountView::of(amount),
                network: NETWORK_FEE_LINES.contains(&name),
            })
            .collect();
        let total_fees = view.total_fees().map(AmountView::of);
        let total_fees_usd = text("totalFeeUsd")
            .or_else(|| total_fees.as_ref().and_then(|t| t.usd.clone()))
            .or_else(|| sum_usd(fee_lines.iter().map(|l| l.amount.usd.as_deref())));
        let price_impact_raw = text("priceImpact");
        let send = AmountView::of(view.input_amount());
        let receive = AmountView::of(view.output_amount());
        let impact = impact_without_fees(&send, &receive, total_fees_usd.as_deref());
        let affiliates = match view {
            QuoteView::Onramp(q) => resolved(&q.affiliates),
            QuoteView::Offramp(q) => resolved(&q.affiliates),
            QuoteView::TokenSwap(q) => q
                .affiliate
                .iter()
                .map(|a| AffiliateView {
                    address: a.address.clone(),
                    fee: None,
                    bps: Some(a.bps),
                })
                .collect(),
            QuoteView::LayerZero(_) => Vec::new(),
        };
        let slippage_bps = match inner.get("slippage") {
            Some(Value::String(s)) => s.parse().unwrap_or(0),
            Some(Value::Number(n)) => n.as_u64().and_then(|n| u32::try_from(n).ok()).unwrap_or(0),
            _ => 0,
        };
        let tx_to = text("txTo").or_else(|| {
            inner
                .get("tx")
                .and_then(|t| t.get("to"))
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
        let output = view.output_amount();
        let min_receive = AmountView::new(
            &output.chain,
            &output.address,
            &less_slippage(&output.amount, slippage_bps),
            None,
        );
        Self {
            route: view.route(),
            send,
            receive,
            total_fees,
            total_fees_usd,
            fee_lines,
            large_impact: impact.as_ref().is_some_and(|i| i.bps <= -LARGE_IMPACT_BPS),
            impact,
            min_receive,
            check: None,
            price_impact: price_impact_raw.as_deref().and_then(fraction_as_percent),
            price_impact_usd: text("priceImpactUsd"),
            estimated_secs: view.estimated_time_in_secs(),
            estimated_text: view.estimated_time_in_secs().map(duration_text),
            slippage_bps,
            recipient: view.recipient().to_owned(),
            sender: text("sender"),
            owner: text("ownerAddress"),
            affiliates,
            affiliates_requested: Vec::new(),
            affiliate_note: None,
            tx_to,
            raw: quote.raw().clone(),
        }
    }
}

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
    /// The Bitcoin refund address the quote named (an onramp's `refundAddress`), when it named one.
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

pub use gateway_client::wire::status_text;

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

        // The timeline from the log: when each step happened, as the app saw it. A status read before the
        // transaction was registered ("in progress" while the gateway waits for it) is not progress.
        let mut registered = false;
        for event in events {
            registered |= event.kind == "registerAnswered";
            let entry = match event.kind.as_str() {
                "createAnswered" => Some(("created", "Order created".to_owned())),
                "orderFound" => Some((
                    "created",
                    "Order created (its answer was lost; found among the address's orders)"
                        .to_owned(),
                )),
                "registerAnswered" => Some(("registered", "Transaction registered".to_owned())),
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
            None => view.status_text = stage_text(order.stage).to_owned(),
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
    /// is finished, its attention action, the abandon question and the outcome.
    fn settled(mut self) -> Self {
        let facts = to_sign::OrderFacts {
            route: self.route,
            verified: self.verified.as_ref(),
            created: self.created.as_ref(),
            order_id: self.order_id.as_deref(),
            deposit_address: self.deposit_address.as_deref(),
            send_units: &self.send.amount,
            send_chain: &self.send.token.chain,
        };
        self.to_pay = to_sign::deposit_to_pay(&facts);
        self.to_sign = to_sign::call_to_sign(&facts);
        self.execution = self.stage.map(ExecutionPhase::of);
        self.finished = outcome::is_finished(&self);
        self.attention = outcome::attention_action(&self);
        self.abandon_question = outcome::abandon_question(&self);
        self.outcome = outcome::outcome_of(&self);
        self
    }
}

/// A token's facts from the registry, or only its address when it is unknown (never a guess).
pub fn token_view(registry: &TokenRegistry, chain: &str, address: &str) -> TokenView {
    let info = registry.get(chain, address);
    TokenView {
        chain: chain.to_owned(),
        address: address.to_owned(),
        symbol: info.map(|t| t.symbol.clone()),
        name: info.map(|t| t.name.clone()),
        decimals: info.map(|t| t.decimals),
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
    fn usd_sums_are_exact() {
        assert_eq!(
            sum_usd([Some("0.10"), Some("2.5"), Some("3")]),
            Some("5.60".into())
        );
        assert_eq!(sum_usd([Some("0.10"), None]), None);
        assert_eq!(sum_usd([Some("0.105")]), None, "never rounds");
    }

    fn usd_amount(usd: &str) -> AmountView {
        let mut view = AmountView::new(
            "bitcoin",
            "0x0000000000000000000000000000000000000000",
            "100000",
            None,
        );
        view.usd = Some(usd.to_owned());
        view
    }

    #[test]
    fn price_impact_leaves_the_fees_out() {
        // $100 sent, $97.50 received, $2.50 of fees: no impact at all (the gateway's figure would say -2.50%).
        let impact =
            impact_without_fees(&usd_amount("100.00"), &usd_amount("97.50"), Some("2.50")).unwrap();
        assert_eq!(
            impact,
            ImpactView {
                bps: 0,
                text: "0.00%".into()
            }
        );
        // $100 sent, $96 received, $2.50 of fees: $1.50 lost to the price, -1.50%.
        let impact =
            impact_without_fees(&usd_amount("100"), &usd_amount("96"), Some("2.5")).unwrap();
        assert_eq!(
            impact,
            ImpactView {
                bps: -150,
                text: "-1.50%".into()
            }
        );
        // A gain is positive; rounding is toward zero.
        let impact = impact_without_fees(&usd_amount("3"), &usd_amount("3.01"), Some("0")).unwrap();
        assert_eq!(
            impact,
            ImpactView {
                bps: 33,
                text: "0.33%".into()
            }
        );
        let impact = impact_without_fees(&usd_amount("3"), &usd_amount("2.99"), Some("0")).unwrap();
        assert_eq!(
            impact,
            ImpactView {
                bps: -33,
                text: "-0.33%".into()
            }
        );
        // Without USD values (V1, an unpriced token) it is not known, never guessed.
        let mut unpriced = usd_amount("1");
        unpriced.usd = None;
        assert_eq!(
            impact_without_fees(&unpriced, &usd_amount("1"), Some("0")),
            None
        );
        assert_eq!(
            impact_without_fees(&usd_amount("1"), &usd_amount("1"), None),
            None
        );
        assert_eq!(
            impact_without_fees(&usd_amount("0"), &usd_amount("1"), Some("0")),
            None
        );
    }

    #[test]
    fn the_minimum_received_is_the_output_less_the_slippage_rounded_down() {
        assert_eq!(less_slippage("1000000", 300), "970000");
        assert_eq!(less_slippage("999", 50), "994", "994.005 rounds down");
        assert_eq!(less_slippage("1", 1), "0");
        assert_eq!(less_slippage("5", 20_000), "0", "never below zero");
        assert_eq!(less_slippage("12", 0), "12");
        assert_eq!(less_slippage("nope", 50), "nope");
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
