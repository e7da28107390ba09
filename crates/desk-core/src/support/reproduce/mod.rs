//! Support: reproducing a quote. From a pasted quote or a support bundle, the same get-quote request is made again on
//! the same network, and the two quotes are compared field by field (amounts, each fee line, price impact, estimated
//! time, slippage, affiliates).
//!
//! Rooms: `source` (the quote and where it was made), `request` (the request built again), `compare` (field by
//! field), `error` ([`ReproduceError`], what is refused; its window's form is `crate::desk`'s).

mod compare;
mod error;
mod request;
mod source;

pub(crate) use compare::*;
pub use error::*;
pub(crate) use request::*;
pub(crate) use source::*;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::views::QuoteCard;

/// Where the quote to reproduce comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[ts(export_to = "ReproduceSource.ts")]
pub enum ReproduceSource {
    /// A support bundle's text: its order's accepted quote, on the bundle's network and API version.
    Bundle {
        /// The bundle file's whole text, as saved or pasted.
        text: String,
    },
    /// A quote as the gateway sent it (`{"onramp": {…}}` …), or a quote card's JSON (its `raw`).
    Quote {
        /// The pasted text, read as JSON: the gateway's envelope, a quote card, or the envelope's inner object.
        text: String,
    },
}

/// One compared field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "FieldDiff.ts")]
pub struct FieldDiff {
    /// `input amount`, `output amount`, `fee: solver fee`, `total fees`, `price impact`, `estimated time`, …
    pub field: String,
    /// The field's text in the original quote (an amount with its USD value when given); absent when that quote
    /// does not have the field.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub before: Option<String>,
    /// The field's text in the quote asked for again; absent when the new quote does not have the field.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub after: Option<String>,
    /// The two texts differ.
    pub changed: bool,
}

/// A quote and the same quote asked for again, compared.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "QuoteDiff.ts")]
pub struct QuoteDiff {
    /// The name of the network the quote was asked for again on (the one the app is using).
    pub network_label: String,
    /// The original quote (pasted, or the bundle's accepted quote), as a quote card.
    pub before: QuoteCard,
    /// The quote the gateway gave for the same request now, as a quote card.
    pub after: QuoteCard,
    /// Every field either quote has, in the original's order and then the new one's additions.
    pub fields: Vec<FieldDiff>,
    /// Sentences: where it was asked, stand-in addresses used for shortened ones, affiliates that could not be
    /// reproduced exactly, …
    pub notes: Vec<String>,
}

#[cfg(test)]
pub(crate) mod tests {
    use gateway_client::wire::Quote;
    use serde_json::{Value, json};

    /// An onramp quote for `recipient` with `affiliates`, as the gateway sends one.
    pub(crate) fn onramp(recipient: &str, affiliates: Value) -> Quote {
        let btc = |a: &str| json!({"address": gateway_client::wire::NATIVE_TOKEN, "amount": a, "chain": "bitcoin", "usd": "1.00"});
        Quote::from_json(json!({"onramp": {
            "inputAmount": btc("250000"),
            "outputAmount": {"address": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "amount": "246000",
                "chain": "bob", "usd": "246.00"},
            "fees": btc("4000"), "executionFees": btc("1500"),
            "feeBreakdown": {"solverFee": btc("500"), "protocolFee": btc("250"), "affiliateFee": btc("1250"),
                "executionFee": btc("1500"), "layerzeroFee": btc("0")},
            "recipient": recipient, "token": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "slippage": "300",
            "dstChain": "bob", "dstToken": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c",
            "affiliates": affiliates, "estimatedTimeInSecs": 600, "priceImpact": "-0.0160",
            "ownerAddress": "0xfB69…d359",
        }}))
        .unwrap()
    }
}
