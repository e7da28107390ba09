//! The quote card: what a quote sends and receives, its fees, price impact, minimum received and affiliates.

use gateway_client::display::{duration_text, fraction_as_percent};
use gateway_client::wire::{Quote, QuoteView};
use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use super::AmountView;
use crate::api::RouteKind;
use crate::settings::AffiliateEntry;

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
    /// The person's own network fee on the source chain and the total cost, read from the chain when the quote was
    /// shown (absent on a card built without reading, such as support's comparison).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub own_fee: Option<super::OwnFeeView>,
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
    /// The refund address a V4 offramp or token-swap quote names (on the source chain: where the input goes back if
    /// the swap fails), checked to be the one asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub refund_address: Option<String>,
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
            own_fee: None,
            slippage_bps,
            recipient: view.recipient().to_owned(),
            sender: text("sender"),
            owner: text("ownerAddress"),
            refund_address: view.refund_address().map(str::to_owned),
            affiliates,
            affiliates_requested: Vec::new(),
            affiliate_note: None,
            tx_to,
            raw: quote.raw().clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
