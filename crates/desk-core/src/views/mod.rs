//! Quotes and orders as the window shows them: token symbols and human amounts (exact decimals), USD values, fee
//! lines, the order's timeline, its next step and explorer links. Built from what the gateway sent (kept raw
//! beside) and the journal; the TypeScript twins are generated.
//!
//! The quote card is in `quote_card`; the order view in `order`, with what an order asks to pay or sign in `to_sign`
//! and how it ended in `outcome` and `receipt`; what both show of an amount or a token is here.

use gateway_client::TokenRegistry;
use gateway_client::display::amount_text;
use gateway_client::wire::TokenAmount;
use serde::Serialize;
use ts_rs::TS;

use crate::api::TokenView;

#[cfg(test)]
pub(crate) mod fixtures;
mod order;
mod outcome;
mod own_fee;
mod quote_card;
mod receipt;
mod to_sign;

pub use gateway_client::wire::status_text;
pub(crate) use order::stage_text;
pub use order::{
    NextStepView, OrderView, TimelineEntry, TransferView, explorer_url, is_explorer_url,
};
pub use outcome::{AttentionAction, ExecutionPhase, Outcome};
pub use own_fee::{
    OwnFeeKind, OwnFeeReading, OwnFeeView, coin_price, coin_up_text, coin_usd_up, own_fee_view,
};
pub use quote_card::{AffiliateView, FeeLine, ImpactView, LARGE_IMPACT_BPS, QuoteCard};
pub use receipt::{ReceiptKind, ReceiptLine, ReceiptView};
pub use to_sign::{CallToSign, ContractCall, DepositToPay};

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

    pub(super) fn of(amount: &TokenAmount) -> Self {
        Self::new(
            &amount.chain,
            &amount.address,
            &amount.amount,
            amount.usd.as_deref(),
        )
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
