//! get-quote answers, V1 to V3: the quote envelope kept as received, and a typed view of it.
//!
//! One struct per route covers every version: fields some versions lack are `Option`s, lists default to empty.

use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;

use super::common::{
    ResolvedAffiliate, RouteKind, Slippage, TokenAmount, TokenSwapAffiliate, null_as_default,
    pick_key, read_inner,
};
use super::tx::EvmTx;

/// A quote as the gateway sent it, with a typed view.
///
/// create-order must receive the quote exactly as returned, unknown fields included: [`Quote::raw`] is that value,
/// and serializing a `Quote` writes it unchanged. The view is only for reading.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "Value")]
pub struct Quote {
    raw: Value,
    view: QuoteView,
}

impl Quote {
    /// Reads a quote envelope (`{ "onramp": … }` and so on), keeping the JSON value as is.
    pub fn from_json(raw: Value) -> Result<Self, serde_json::Error> {
        let view = QuoteView::from_value(&raw)?;
        Ok(Self { raw, view })
    }

    /// The envelope exactly as received: the body create-order must send.
    pub fn raw(&self) -> &Value {
        &self.raw
    }

    /// The typed reading of the envelope.
    pub fn view(&self) -> &QuoteView {
        &self.view
    }

    /// Gives back the raw envelope, e.g. to journal it.
    pub fn into_raw(self) -> Value {
        self.raw
    }
}

impl TryFrom<Value> for Quote {
    type Error = serde_json::Error;

    fn try_from(raw: Value) -> Result<Self, Self::Error> {
        Self::from_json(raw)
    }
}

impl Serialize for Quote {
    /// Writes the raw envelope, never the view, so nothing the gateway sent is lost or reordered.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.raw.serialize(serializer)
    }
}

/// The typed content of a quote envelope: one variant per union key.
// One quote is read per request; boxing the variants would only make matching on them clumsier.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", try_from = "Value")]
pub enum QuoteView {
    /// `onramp`: Bitcoin to a token.
    Onramp(OnrampQuote),
    /// `offramp`: a token to Bitcoin.
    Offramp(OfframpQuote),
    /// `tokenSwap` (V2, V3): token to token.
    TokenSwap(TokenSwapQuote),
    /// `layerZero`: V1's token swap.
    LayerZero(LayerZeroQuote),
}

impl TryFrom<Value> for QuoteView {
    type Error = serde_json::Error;

    fn try_from(value: Value) -> Result<Self, Self::Error> {
        Self::from_value(&value)
    }
}

/// Fee-line labels (lower case), shared so that the CLI and the app say the same thing.
const SOLVER_FEE: &str = "solver fee";
const PROTOCOL_FEE: &str = "protocol fee";
const AFFILIATE_FEE: &str = "affiliate fee";
const EXECUTION_FEE: &str = "execution fee";
const MESSAGING_FEE: &str = "messaging fee";
const INCLUSION_FEE: &str = "inclusion fee";
const FEES: &str = "fees";

impl QuoteView {
    /// Reads the envelope; unknown top-level keys next to the route key are ignored.
    pub fn from_value(value: &Value) -> Result<Self, serde_json::Error> {
        let (key, inner) = pick_key(
            value,
            "quote",
            &["onramp", "offramp", "tokenSwap", "layerZero"],
        )?;
        Ok(match key {
            "onramp" => Self::Onramp(read_inner(inner, "onramp quote")?),
            "offramp" => Self::Offramp(read_inner(inner, "offramp quote")?),
            "tokenSwap" => Self::TokenSwap(read_inner(inner, "tokenSwap quote")?),
            _ => Self::LayerZero(read_inner(inner, "layerZero quote")?),
        })
    }

    /// The kind of order this quote is for; V1's `layerZero` is a token swap.
    pub fn route(&self) -> RouteKind {
        match self {
            Self::Onramp(_) => RouteKind::Onramp,
            Self::Offramp(_) => RouteKind::Offramp,
            Self::TokenSwap(_) | Self::LayerZero(_) => RouteKind::TokenSwap,
        }
    }

    /// What the user pays in.
    pub fn input_amount(&self) -> &TokenAmount {
        match self {
            Self::Onramp(q) => &q.input_amount,
            Self::Offramp(q) => &q.input_amount,
            Self::TokenSwap(q) => &q.input_amount,
            Self::LayerZero(q) => &q.input_amount,
        }
    }

    /// What the recipient gets, after fees.
    pub fn output_amount(&self) -> &TokenAmount {
        match self {
            Self::Onramp(q) => &q.output_amount,
            Self::Offramp(q) => &q.output_amount,
            Self::TokenSwap(q) => &q.output_amount,
            Self::LayerZero(q) => &q.output_amount,
        }
    }

    /// The total fee as one token amount, when the quote has one (V2/V3 offramp quotes only give `totalFeeUsd`).
    pub fn total_fees(&self) -> Option<&TokenAmount> {
        match self {
            Self::Onramp(q) => Some(&q.fees),
            Self::Offramp(q) => q.fees.as_ref(),
            Self::TokenSwap(q) => Some(&q.fees),
            Self::LayerZero(q) => Some(&q.fees),
        }
    }

    /// Every fee line with a readable label: the fee breakdown where there is one, else the single `fees` amount.
    ///
    /// The offramp's `fastestFeeRate` is a rate, not an amount, and is not listed.
    pub fn fee_lines(&self) -> Vec<(&'static str, &TokenAmount)> {
        match self {
            Self::Onramp(q) => {
                let b = &q.fee_breakdown;
                vec![
                    (SOLVER_FEE, &b.solver_fee),
                    (PROTOCOL_FEE, &b.protocol_fee),
                    (AFFILIATE_FEE, &b.affiliate_fee),
                    (EXECUTION_FEE, &b.execution_fee),
                    (MESSAGING_FEE, &b.messaging_fee),
                ]
            }
            Self::Offramp(q) => {
                let b = &q.fee_breakdown;
                vec![
                    (SOLVER_FEE, &b.solver_fee),
                    (INCLUSION_FEE, &b.inclusion_fee),
                    (PROTOCOL_FEE, &b.protocol_fee),
                    (AFFILIATE_FEE, &b.affiliate_fee),
                ]
            }
            Self::TokenSwap(q) => vec![(FEES, &q.fees)],
            Self::LayerZero(q) => vec![(FEES, &q.fees)],
        }
    }

    /// The address that receives the output.
    pub fn recipient(&self) -> &str {
        match self {
            Self::Onramp(q) => &q.recipient,
            Self::Offramp(q) => &q.recipient,
            Self::TokenSwap(q) => &q.recipient,
            Self::LayerZero(q) => &q.recipient,
        }
    }

    /// The address that pays, when the quote names one.
    pub fn sender(&self) -> Option<&str> {
        match self {
            Self::Onramp(q) => q.sender.as_deref(),
            Self::Offramp(q) => q.sender.as_deref(),
            Self::TokenSwap(q) => q.sender.as_deref(),
            Self::LayerZero(q) => q.sender.as_deref(),
        }
    }

    /// V4: the source-chain address a refund goes to, when the quote carries one (offramp and token swap; an onramp
    /// quote has no such field).
    pub fn refund_address(&self) -> Option<&str> {
        match self {
            Self::Offramp(q) => q.refund_address.as_deref(),
            Self::TokenSwap(q) => q.refund_address.as_deref(),
            Self::Onramp(_) | Self::LayerZero(_) => None,
        }
    }

    /// The estimated seconds until the order completes, when the gateway gave one.
    pub fn estimated_time_in_secs(&self) -> Option<u64> {
        match self {
            Self::Onramp(q) => q.estimated_time_in_secs,
            Self::Offramp(q) => q.estimated_time_in_secs,
            Self::TokenSwap(q) => q.estimated_time_in_secs,
            Self::LayerZero(q) => q.estimated_time_in_secs,
        }
    }
}

/// The five fee lines of an onramp (`GatewayOnrampFeeBreakdown`, V2+: `…V2`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OnrampFeeBreakdown {
    /// Paid to the solver.
    pub solver_fee: TokenAmount,
    /// Kept by the protocol.
    pub protocol_fee: TokenAmount,
    /// Paid to affiliates, all entries together.
    pub affiliate_fee: TokenAmount,
    /// The on-chain execution cost.
    pub execution_fee: TokenAmount,
    /// Cross-chain messaging: `layerzeroFee` on the published service, `messagingFee` in the specification.
    #[serde(rename = "layerzeroFee", alias = "messagingFee")]
    pub messaging_fee: TokenAmount,
}

/// An onramp quote, V1 to V3 (`GatewayOnrampQuote`, `GatewayOnrampQuoteV2`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OnrampQuote {
    /// The Bitcoin amount requested.
    pub input_amount: TokenAmount,
    /// The amount delivered after fees.
    pub output_amount: TokenAmount,
    /// Total fees of the swap.
    pub fees: TokenAmount,
    /// Cost of executing the onramp on-chain.
    pub execution_fees: TokenAmount,
    /// The fee lines.
    pub fee_breakdown: OnrampFeeBreakdown,
    /// Recipient address.
    pub recipient: String,
    /// Token address.
    pub token: String,
    /// Slippage tolerance; a string on the wire for onramps.
    #[serde(serialize_with = "Slippage::serialize_as_string")]
    pub slippage: Slippage,
    /// Destination chain.
    pub dst_chain: String,
    /// Destination token address.
    pub dst_token: String,
    /// The gateway's signature over the quote, checked by create-order (the specification says V1 lacks it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signed_quote_data: Option<String>,
    /// The first affiliate's address (V1-compatible).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affiliate_address: Option<String>,
    /// Resolved affiliates and their fees (V2+); empty when absent.
    #[serde(
        default,
        deserialize_with = "null_as_default",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub affiliates: Vec<ResolvedAffiliate>,
    /// Estimated seconds to complete.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_time_in_secs: Option<u64>,
    /// Price impact as a decimal fraction, e.g. `"-0.0050"` (V2+, with a price feed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_impact: Option<String>,
    /// Price impact in USD, excluding the execution fee (V2+, with a price feed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_impact_usd: Option<String>,
    /// Sender address; a PSBT is only returned when it is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sender: Option<String>,
    /// V3 EVM owner and refund claimant, when resolved onto the quote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner_address: Option<String>,
    /// Deprecated gas refill amount.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gas_refill: Option<String>,
    /// Deprecated strategy address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy_address: Option<String>,
    /// Deprecated strategy message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy_message: Option<String>,
}

/// The fee lines of an offramp (`GatewayOfframpFeeBreakdown`, V2+: `…V2`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OfframpFeeBreakdown {
    /// Paid to the solver.
    pub solver_fee: TokenAmount,
    /// Bitcoin inclusion (mining) fee of the payout.
    pub inclusion_fee: TokenAmount,
    /// Kept by the protocol.
    pub protocol_fee: TokenAmount,
    /// Paid to affiliates, all entries together.
    pub affiliate_fee: TokenAmount,
    /// The Bitcoin fee rate used, as a string (sat/vB).
    pub fastest_fee_rate: String,
}

/// An offramp quote, V1 to V3 (`GatewayOfframpQuote`, `…V2`, `…V3`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OfframpQuote {
    /// Source chain.
    pub src_chain: String,
    /// Source token address.
    pub token_address: String,
    /// What the user pays in.
    pub input_amount: TokenAmount,
    /// The Bitcoin delivered after fees.
    pub output_amount: TokenAmount,
    /// Total fees as a token amount: V1 only (V2/V3 give `totalFeeUsd`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fees: Option<TokenAmount>,
    /// Total fees in USD (V2+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_fee_usd: Option<String>,
    /// The fee lines.
    pub fee_breakdown: OfframpFeeBreakdown,
    /// Bitcoin recipient address.
    pub recipient: String,
    /// Slippage tolerance; an integer on the wire for offramps.
    pub slippage: Slippage,
    /// The contract the user's transaction goes to.
    pub tx_to: String,
    /// The first affiliate's address (V1-compatible).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affiliate_address: Option<String>,
    /// Resolved affiliates and their fees (V2+); empty when absent.
    #[serde(
        default,
        deserialize_with = "null_as_default",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub affiliates: Vec<ResolvedAffiliate>,
    /// Estimated seconds to complete.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_time_in_secs: Option<u64>,
    /// Price impact as a decimal fraction (V2+, with a price feed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_impact: Option<String>,
    /// Price impact in USD (V2+, with a price feed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_impact_usd: Option<String>,
    /// Sender address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sender: Option<String>,
    /// EVM owner and refund claimant (required in V3, absent before and in V4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner_address: Option<String>,
    /// V4: the address on the source chain a refund goes to; create-order refuses the quote without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refund_address: Option<String>,
}

/// A token-swap quote, V2 and V3 (`GatewayTokenSwapQuoteV2`, `…V3`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenSwapQuote {
    /// Source chain.
    pub src_chain: String,
    /// Destination chain.
    pub dst_chain: String,
    /// What the user pays in.
    pub input_amount: TokenAmount,
    /// What the recipient gets.
    pub output_amount: TokenAmount,
    /// Total fees; often zero in V3, where the aggregator's cost is in the rate.
    pub fees: TokenAmount,
    /// Recipient address.
    pub recipient: String,
    /// Slippage tolerance; an integer on the wire for token swaps.
    pub slippage: Slippage,
    /// The contract the user's transaction goes to.
    pub tx_to: String,
    /// Estimated seconds to complete.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_time_in_secs: Option<u64>,
    /// Price impact as a decimal fraction, with a price feed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_impact: Option<String>,
    /// Price impact in USD, with a price feed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_impact_usd: Option<String>,
    /// Sender address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sender: Option<String>,
    /// The one affiliate of a V3 swap, charged on the source chain; `None` when absent or null.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affiliate: Option<TokenSwapAffiliate>,
    /// V3 EVM owner, when resolved onto the quote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner_address: Option<String>,
    /// V4: the address on the source chain a refund goes to; create-order refuses the quote without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refund_address: Option<String>,
}

/// V1's token swap over LayerZero (`GatewayLayerZeroQuote`): it carries its transaction already.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LayerZeroQuote {
    /// The transaction to execute.
    pub tx: EvmTx,
    /// Total fees.
    pub fees: TokenAmount,
    /// What the user pays in.
    pub input_amount: TokenAmount,
    /// What the recipient gets.
    pub output_amount: TokenAmount,
    /// Recipient address.
    pub recipient: String,
    /// Sender address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sender: Option<String>,
    /// Estimated seconds to complete.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_time_in_secs: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn amount(address: &str, amount: &str, chain: &str, usd: Option<&str>) -> Value {
        let mut v = json!({"address": address, "amount": amount, "chain": chain});
        if let Some(usd) = usd {
            v["usd"] = json!(usd);
        }
        v
    }

    const WBTC_BOB: &str = "0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3";

    /// A V3 onramp quote as the published service writes it, plus one field this client does not know.
    fn v3_onramp() -> Value {
        json!({"onramp": {
            "inputAmount": amount("BTC", "100000", "bitcoin", Some("97.10")),
            "outputAmount": amount(WBTC_BOB, "99000", "bob", Some("96.13")),
            "fees": amount("BTC", "1000", "bitcoin", Some("0.97")),
            "executionFees": amount("BTC", "200", "bitcoin", None),
            "feeBreakdown": {
                "solverFee": amount("BTC", "300", "bitcoin", Some("0.29")),
                "protocolFee": amount("BTC", "100", "bitcoin", Some("0.10")),
                "affiliateFee": amount("BTC", "400", "bitcoin", Some("0.39")),
                "executionFee": amount("BTC", "200", "bitcoin", Some("0.19")),
                "layerzeroFee": {"address": "BTC", "amount": "0", "chain": "bitcoin", "usd": null}
            },
            "recipient": "0x2222222222222222222222222222222222222222",
            "token": WBTC_BOB,
            "slippage": "300",
            "dstChain": "bob",
            "dstToken": WBTC_BOB,
            "signedQuoteData": "0xsigned",
            "affiliateAddress": "0x3333333333333333333333333333333333333333",
            "affiliates": [{"address": "0x3333333333333333333333333333333333333333",
                            "fee": amount("0xusdt", "400000", "bob", Some("0.40"))}],
            "estimatedTimeInSecs": 1200,
            "priceImpact": "-0.0050",
            "ownerAddress": "0x2222222222222222222222222222222222222222",
            "futureField": {"nested": [1, 2, 3]}
        }, "envelopeExtra": "kept"})
    }

    #[test]
    fn onramp_reads_layerzero_fee_string_slippage_and_btc() {
        let quote = Quote::from_json(v3_onramp()).unwrap();
        let QuoteView::Onramp(q) = quote.view() else {
            panic!("not onramp")
        };
        assert_eq!(q.slippage, Slippage(300));
        assert_eq!(q.input_amount.address, "BTC");
        assert_eq!(q.fee_breakdown.messaging_fee.amount, "0");
        assert_eq!(q.fee_breakdown.messaging_fee.usd, None, "null usd");
        assert_eq!(q.execution_fees.usd, None, "absent usd");
        assert_eq!(q.fee_breakdown.solver_fee.usd.as_deref(), Some("0.29"));
        assert_eq!(q.affiliates.len(), 1);
        assert_eq!(q.affiliates[0].fee.amount, "400000");
        assert_eq!(q.signed_quote_data.as_deref(), Some("0xsigned"));
        assert_eq!(q.estimated_time_in_secs, Some(1200));
        assert_eq!(q.price_impact.as_deref(), Some("-0.0050"));
        assert_eq!(q.price_impact_usd, None);
        assert_eq!(quote.view().route(), RouteKind::Onramp);
        assert_eq!(quote.view().input_amount().amount, "100000");
        assert_eq!(quote.view().output_amount().amount, "99000");
        assert_eq!(quote.view().total_fees().unwrap().amount, "1000");
    }

    #[test]
    fn messaging_fee_spelling_of_the_specification_is_read_too() {
        let mut raw = v3_onramp();
        let breakdown = raw["onramp"]["feeBreakdown"].as_object_mut().unwrap();
        let fee = breakdown.remove("layerzeroFee").unwrap();
        breakdown.insert(
            "messagingFee".into(),
            json!({"address": "BTC", "amount": "7", "chain": "bitcoin"}),
        );
        assert!(fee.is_object());
        let quote = Quote::from_json(raw).unwrap();
        let QuoteView::Onramp(q) = quote.view() else {
            panic!()
        };
        assert_eq!(q.fee_breakdown.messaging_fee.amount, "7");
        let lines = quote.view().fee_lines();
        assert_eq!(
            lines
                .iter()
                .map(|(l, a)| (*l, a.amount.as_str()))
                .collect::<Vec<_>>(),
            [
                ("solver fee", "300"),
                ("protocol fee", "100"),
                ("affiliate fee", "400"),
                ("execution fee", "200"),
                ("messaging fee", "7")
            ]
        );
    }

    #[test]
    fn a_missing_fifth_fee_is_an_error() {
        let mut raw = v3_onramp();
        raw["onramp"]["feeBreakdown"]
            .as_object_mut()
            .unwrap()
            .remove("layerzeroFee");
        let err = Quote::from_json(raw).unwrap_err();
        assert!(err.to_string().contains("layerzeroFee"), "{err}");
    }

    #[test]
    fn unknown_fields_are_ignored_by_the_view_and_kept_in_raw() {
        let raw = v3_onramp();
        let quote: Quote = serde_json::from_value(raw.clone()).unwrap();
        assert_eq!(quote.raw(), &raw);
        // Serializing writes the raw envelope: unknown fields and the original key order survive.
        let written = serde_json::to_string(&quote).unwrap();
        assert_eq!(written, serde_json::to_string(&raw).unwrap());
        assert!(written.contains("futureField") && written.contains("envelopeExtra"));
        let back: Value = serde_json::from_str(&written).unwrap();
        assert_eq!(back, raw);
        // The view alone would lose them: that is why create-order sends `raw`.
        let view = serde_json::to_value(quote.view()).unwrap();
        assert!(view["onramp"].get("futureField").is_none());
        assert_eq!(
            view["onramp"]["slippage"],
            json!("300"),
            "onramp slippage is written back as a string"
        );
        assert_eq!(quote.into_raw(), raw);
    }

    #[test]
    fn v1_onramp_without_usd_signed_data_or_price_impact() {
        let raw = json!({"onramp": {
            "inputAmount": amount("0x0000000000000000000000000000000000000000", "50000", "bitcoin", None),
            "outputAmount": amount(WBTC_BOB, "49000", "bob", None),
            "fees": amount("0x0000000000000000000000000000000000000000", "1000", "bitcoin", None),
            "executionFees": amount("0x0000000000000000000000000000000000000000", "100", "bitcoin", None),
            "feeBreakdown": {
                "solverFee": amount("BTC", "1", "bitcoin", None),
                "protocolFee": amount("BTC", "2", "bitcoin", None),
                "affiliateFee": amount("BTC", "3", "bitcoin", None),
                "executionFee": amount("BTC", "4", "bitcoin", None),
                "layerzeroFee": amount("BTC", "5", "bitcoin", None)
            },
            "recipient": "0x2222222222222222222222222222222222222222",
            "token": WBTC_BOB, "slippage": "100", "dstChain": "bob", "dstToken": WBTC_BOB,
            "gasRefill": "0", "strategyAddress": null
        }});
        let quote = Quote::from_json(raw).unwrap();
        let QuoteView::Onramp(q) = quote.view() else {
            panic!()
        };
        assert_eq!(q.signed_quote_data, None);
        assert!(q.affiliates.is_empty());
        assert_eq!(q.price_impact, None);
        assert_eq!(q.gas_refill.as_deref(), Some("0"));
        assert_eq!(q.strategy_address, None);
        assert_eq!(q.estimated_time_in_secs, None);
        assert!(
            quote
                .view()
                .fee_lines()
                .iter()
                .all(|(_, a)| a.usd.is_none())
        );
    }

    fn v3_offramp() -> Value {
        json!({"offramp": {
            "srcChain": "bob", "tokenAddress": WBTC_BOB,
            "inputAmount": amount(WBTC_BOB, "100000", "bob", Some("97.10")),
            "outputAmount": amount("0x0000000000000000000000000000000000000000", "98000", "bitcoin", Some("95.16")),
            "totalFeeUsd": "1.94",
            "feeBreakdown": {
                "solverFee": amount(WBTC_BOB, "500", "bob", Some("0.48")),
                "inclusionFee": amount(WBTC_BOB, "1200", "bob", Some("1.16")),
                "protocolFee": amount(WBTC_BOB, "300", "bob", Some("0.29")),
                "affiliateFee": amount(WBTC_BOB, "0", "bob", Some("0")),
                "fastestFeeRate": "4"
            },
            "recipient": "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh",
            "slippage": 300,
            "txTo": "0x4444444444444444444444444444444444444444",
            "ownerAddress": "0x2222222222222222222222222222222222222222",
            "affiliates": null
        }})
    }

    #[test]
    fn v3_offramp_has_no_fees_and_integer_slippage() {
        let quote = Quote::from_json(v3_offramp()).unwrap();
        let QuoteView::Offramp(q) = quote.view() else {
            panic!()
        };
        assert_eq!(q.fees, None);
        assert_eq!(quote.view().total_fees(), None);
        assert_eq!(q.total_fee_usd.as_deref(), Some("1.94"));
        assert_eq!(q.slippage.bps(), 300);
        assert_eq!(
            q.owner_address.as_deref(),
            Some("0x2222222222222222222222222222222222222222")
        );
        assert!(q.affiliates.is_empty(), "null affiliates read as empty");
        assert_eq!(q.fee_breakdown.fastest_fee_rate, "4");
        let labels: Vec<_> = quote
            .view()
            .fee_lines()
            .into_iter()
            .map(|(l, _)| l)
            .collect();
        assert_eq!(
            labels,
            [
                "solver fee",
                "inclusion fee",
                "protocol fee",
                "affiliate fee"
            ]
        );
        assert_eq!(quote.view().route(), RouteKind::Offramp);
        // The view writes offramp slippage back as an integer.
        assert_eq!(
            serde_json::to_value(quote.view()).unwrap()["offramp"]["slippage"],
            json!(300)
        );
    }

    #[test]
    fn offramp_accepts_string_slippage_too() {
        let mut raw = v3_offramp();
        raw["offramp"]["slippage"] = json!("250");
        let quote = Quote::from_json(raw.clone()).unwrap();
        let QuoteView::Offramp(q) = quote.view() else {
            panic!()
        };
        assert_eq!(q.slippage, Slippage(250));
        assert_eq!(
            quote.raw()["offramp"]["slippage"],
            json!("250"),
            "raw is untouched"
        );
    }

    #[test]
    fn v3_token_swap_with_affiliate_and_v2_without() {
        let mut raw = json!({"tokenSwap": {
            "srcChain": "tron", "dstChain": "ethereum",
            "inputAmount": amount("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "1000000", "tron", Some("1.00")),
            "outputAmount": amount("0xdAC17F958D2ee523a2206206994597C13D831ec7", "990000", "ethereum", None),
            "estimatedTimeInSecs": 60,
            "recipient": "0x2222222222222222222222222222222222222222",
            "slippage": 100,
            "fees": amount("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "0", "tron", Some("0")),
            "txTo": "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
            "affiliate": {"address": "TAffi1iateAddre55xxxxxxxxxxxxxxxxx", "bps": 25}
        }});
        let quote = Quote::from_json(raw.clone()).unwrap();
        let QuoteView::TokenSwap(q) = quote.view() else {
            panic!()
        };
        assert_eq!(
            q.affiliate,
            Some(TokenSwapAffiliate {
                address: "TAffi1iateAddre55xxxxxxxxxxxxxxxxx".into(),
                bps: 25
            })
        );
        assert_eq!(q.slippage, Slippage(100));
        assert_eq!(quote.view().fee_lines(), vec![("fees", &q.fees)]);
        assert_eq!(quote.view().estimated_time_in_secs(), Some(60));

        raw["tokenSwap"]["affiliate"] = Value::Null;
        let QuoteView::TokenSwap(q) = Quote::from_json(raw.clone()).unwrap().view().clone() else {
            panic!()
        };
        assert_eq!(q.affiliate, None);
        raw["tokenSwap"]
            .as_object_mut()
            .unwrap()
            .remove("affiliate");
        raw["tokenSwap"]
            .as_object_mut()
            .unwrap()
            .remove("estimatedTimeInSecs");
        let QuoteView::TokenSwap(q) = Quote::from_json(raw).unwrap().view().clone() else {
            panic!()
        };
        assert_eq!(q.affiliate, None);
        assert_eq!(q.estimated_time_in_secs, None);
    }

    #[test]
    fn v1_layer_zero_is_a_token_swap() {
        let raw = json!({"layerZero": {
            "tx": {"to": "0x5555555555555555555555555555555555555555", "data": "0x01", "value": "1000", "chain": "bob"},
            "fees": amount(WBTC_BOB, "10", "bob", None),
            "inputAmount": amount(WBTC_BOB, "1000", "bob", None),
            "outputAmount": amount("0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599", "990", "ethereum", None),
            "recipient": "0x2222222222222222222222222222222222222222"
        }});
        let quote = Quote::from_json(raw).unwrap();
        assert_eq!(quote.view().route(), RouteKind::TokenSwap);
        let QuoteView::LayerZero(q) = quote.view() else {
            panic!()
        };
        assert_eq!(q.tx.value, "1000");
        assert_eq!(quote.view().output_amount().chain, "ethereum");
        assert_eq!(
            quote.view().recipient(),
            "0x2222222222222222222222222222222222222222"
        );
    }

    #[test]
    fn envelope_errors_are_clear() {
        let err = Quote::from_json(json!({"bridge": {}})).unwrap_err();
        assert!(
            err.to_string()
                .contains("onramp, offramp, tokenSwap, layerZero"),
            "{err}"
        );
        let err = Quote::from_json(json!({"offramp": {"srcChain": "bob"}})).unwrap_err();
        assert!(err.to_string().starts_with("offramp quote:"), "{err}");
        assert!(Quote::from_json(json!([])).is_err());
        assert!(serde_json::from_str::<Quote>(r#"{"onramp": {}, "offramp": {}}"#).is_err());
    }
}
