//! The person's own network fee: what paying the order costs on the source chain (gas × price on an EVM chain, the
//! fee limit and bandwidth on Tron, the fee and a token account's rent on Solana, vsize × rate on Bitcoin), in the
//! chain's coin and in USD where the quote itself prices that coin. The quote card shows it beside the gateway's fees,
//! with the total cost; the Sign step writes USD beside each fee from the same price.
//!
//! USD is never guessed: the gateway has no price endpoint, so a coin's price is the one the quote gives for some
//! amount of that very coin (the input of an ETH → BTC swap, the BTC of an onramp). When the quote prices no amount of
//! the coin (paying WBTC, whose gas is ETH), the USD is absent and the card says so.

use alloy_primitives::U256;
use gateway_client::TokenRegistry;
use gateway_client::chains::chain_name;
use gateway_client::usd::Usd;
use gateway_client::wire::{NATIVE_TOKEN, QuoteView, TokenAmount, is_native_token};
use serde::Serialize;
use ts_rs::TS;

/// How sure the figure is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "OwnFeeKind.ts")]
pub enum OwnFeeKind {
    /// The most the fee can cost (what the app lets a transaction use): EVM, Tron, Solana.
    AtMost,
    /// An estimate: Bitcoin's, for a payment from one coin at the current rate (the gateway builds the PSBT).
    About,
}

/// The person's own network fee on the source chain, for the quote card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "OwnFeeView.ts")]
pub struct OwnFeeView {
    /// The source chain as a person names it (`BOB`, `Bitcoin`).
    pub place: String,
    /// The figure's kind; absent when it could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub kind: Option<OwnFeeKind>,
    /// The fee in the chain's coin as a person reads it, rounded up (`0.000501 ETH`); absent when it could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub text: Option<String>,
    /// The same in the chain's smallest unit (decimal), exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub amount: Option<String>,
    /// Its USD value rounded up to the cent (`"2.41"`), when the quote prices the chain's coin.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub usd: Option<String>,
    /// How the figure was counted, or why there is none, in a sentence.
    pub basis: String,
    /// The gateway's fees and this fee together in USD (`"14.53"`), when both are priced.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub total_usd: Option<String>,
    /// What the swap costs in all, as a sentence.
    pub total_text: String,
}

/// What reading the source chain gave: the fee in its coin's smallest unit and how it was counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnFeeReading {
    /// A most or an estimate.
    pub kind: OwnFeeKind,
    /// The fee in the smallest unit of the chain's coin.
    pub amount: U256,
    /// How it was counted, a sentence.
    pub basis: String,
}

/// The price of `chain`'s own coin as the quote gives it: the USD value of some positive amount of that coin in the
/// quote (its input, output, fee total or a fee line), as `(usd, amount)`.
pub fn coin_price(quote: &QuoteView, chain: &str) -> Option<(Usd, U256)> {
    let mut amounts: Vec<&TokenAmount> = vec![quote.input_amount(), quote.output_amount()];
    amounts.extend(quote.total_fees());
    amounts.extend(quote.fee_lines().into_iter().map(|(_, amount)| amount));
    amounts.into_iter().find_map(|a| {
        if !a.chain.eq_ignore_ascii_case(chain) || !is_native_token(&a.chain, &a.address) {
            return None;
        }
        let whole: U256 = a.amount.parse().ok().filter(|v: &U256| !v.is_zero())?;
        let usd = Usd::parse(a.usd.as_deref()?).filter(|usd| *usd != Usd::ZERO)?;
        Some((usd, whole))
    })
}

/// The USD value of `amount` of `chain`'s coin at the quote's price, rounded up to the cent (`"2.41"`).
pub fn coin_usd_up(quote: &QuoteView, chain: &str, amount: U256) -> Option<String> {
    let (usd, whole) = coin_price(quote, chain)?;
    usd.share_up(whole, amount).map(Usd::cents_up_text)
}

/// `amount` of `chain`'s coin, three significant digits rounded up, with its ticker (`0.000501 ETH`).
pub fn coin_up_text(chain: &str, amount: U256) -> String {
    match TokenRegistry::builtin().get(chain, NATIVE_TOKEN) {
        Some(info) => format!(
            "{} {}",
            gateway_client::amount::format_units_up(amount, info.decimals, 3),
            info.symbol
        ),
        None => format!("{amount} of {}'s smallest unit", chain_name(chain)),
    }
}

/// The ticker of `chain`'s coin (`ETH`), or "its coin".
fn coin_symbol(chain: &str) -> String {
    TokenRegistry::builtin()
        .get(chain, NATIVE_TOKEN)
        .map_or_else(
            || format!("{}'s coin", chain_name(chain)),
            |i| i.symbol.clone(),
        )
}

/// The card's own-fee line from what reading the source chain gave (`Err`: why it could not be read, a sentence), and
/// the gateway's fees in USD (`total_fees_usd`) for the total.
pub fn own_fee_view(
    quote: &QuoteView,
    total_fees_usd: Option<&str>,
    reading: Result<OwnFeeReading, String>,
) -> OwnFeeView {
    let chain = quote.input_amount().chain.clone();
    let place = chain_name(&chain).to_owned();
    let gateway = total_fees_usd.and_then(Usd::parse);
    let gateway_words = match gateway {
        Some(usd) => format!("the gateway's fees ({})", usd.grouped_text()),
        None => "the gateway's fees (listed below)".to_owned(),
    };
    let reading = match reading {
        Ok(reading) => reading,
        Err(why) => {
            return OwnFeeView {
                place: place.clone(),
                kind: None,
                text: None,
                amount: None,
                usd: None,
                basis: why,
                total_usd: None,
                total_text: format!(
                    "{} plus your own network fee on {place}, which could not be read now.",
                    capitalised(&gateway_words)
                ),
            };
        }
    };
    let text = coin_up_text(&chain, reading.amount);
    let usd = coin_usd_up(quote, &chain, reading.amount);
    let bound = match reading.kind {
        OwnFeeKind::AtMost => "at most",
        OwnFeeKind::About => "about",
    };
    let own_usd = usd.as_deref().and_then(Usd::parse);
    let total = gateway
        .zip(own_usd)
        .and_then(|(g, o)| g.checked_add(o))
        .map(Usd::cents_text);
    let total_text = match (&total, &usd) {
        (Some(total), Some(own)) => format!(
            "{bound_cap} {} in all: {gateway_words} and your network fee on {place} ({bound} {}).",
            Usd::parse(total).map_or_else(|| format!("${total}"), Usd::grouped_text),
            Usd::parse(own).map_or_else(|| format!("${own}"), Usd::grouped_text),
            bound_cap = capitalised(bound),
        ),
        (_, None) => format!(
            "{} plus your network fee on {place} of {bound} {text}; this quote gives no USD price for {} to add \
             them up.",
            capitalised(&gateway_words),
            coin_symbol(&chain)
        ),
        (None, Some(own)) => format!(
            "{} plus your network fee on {place} of {bound} {text} (${own}).",
            capitalised(&gateway_words)
        ),
    };
    OwnFeeView {
        place,
        kind: Some(reading.kind),
        text: Some(text),
        amount: Some(reading.amount.to_string()),
        usd,
        basis: reading.basis,
        total_usd: total,
        total_text,
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gateway_client::wire::Quote;
    use serde_json::json;

    const USDC: &str = "0x0b2C639c533813f4Aa9D7837cAf62653d097Ff85";

    fn token_swap(input: serde_json::Value) -> Quote {
        Quote::from_json(json!({"tokenSwap": {
            "srcChain": "optimism", "dstChain": "base",
            "inputAmount": input,
            "outputAmount": {"address": NATIVE_TOKEN, "chain": "base", "amount": "1", "usd": "0.00"},
            "estimatedTimeInSecs": 60, "recipient": "0x1111111111111111111111111111111111111111",
            "slippage": 50, "fees": {"address": USDC, "chain": "optimism", "amount": "10000", "usd": "0.01"},
            "txTo": "0x2222222222222222222222222222222222222222"
        }}))
        .unwrap()
    }

    fn at_most(wei: u128) -> Result<OwnFeeReading, String> {
        Ok(OwnFeeReading {
            kind: OwnFeeKind::AtMost,
            amount: U256::from(wei),
            basis: "500,000 gas at 1 gwei".into(),
        })
    }

    #[test]
    fn paying_the_coin_prices_its_fee_and_adds_up_the_total() {
        // 1 ETH worth $3,000.00 is paid: 0.00082 ETH of gas is at most $2.46.
        let quote = token_swap(json!({"address": NATIVE_TOKEN, "chain": "optimism",
            "amount": "1000000000000000000", "usd": "3000.00"}));
        let view = own_fee_view(quote.view(), Some("12.07"), at_most(820_000_000_000_000));
        assert_eq!(view.place, "Optimism");
        assert_eq!(view.text.as_deref(), Some("0.00082 ETH"));
        assert_eq!(view.amount.as_deref(), Some("820000000000000"));
        assert_eq!(view.usd.as_deref(), Some("2.46"));
        assert_eq!(view.total_usd.as_deref(), Some("14.53"));
        assert_eq!(
            view.total_text,
            "At most $14.53 in all: the gateway's fees ($12.07) and your network fee on Optimism (at most $2.46)."
        );
    }

    #[test]
    fn a_coin_the_quote_does_not_price_gets_no_usd_and_says_so() {
        let quote = token_swap(json!({"address": USDC, "chain": "optimism",
            "amount": "500000000", "usd": "500.00"}));
        let view = own_fee_view(quote.view(), Some("0.50"), at_most(501_000_000_000_000));
        assert_eq!(view.text.as_deref(), Some("0.000501 ETH"));
        assert_eq!(view.usd, None);
        assert_eq!(view.total_usd, None);
        assert_eq!(
            view.total_text,
            "The gateway's fees ($0.50) plus your network fee on Optimism of at most 0.000501 ETH; this quote \
             gives no USD price for ETH to add them up."
        );
    }

    #[test]
    fn a_fee_that_could_not_be_read_says_why_and_the_total_says_it_is_missing() {
        let quote =
            token_swap(json!({"address": USDC, "chain": "optimism", "amount": "1", "usd": "0.00"}));
        let view = own_fee_view(
            quote.view(),
            None,
            Err("The chain's node did not answer.".into()),
        );
        assert_eq!(view.kind, None);
        assert_eq!(view.text, None);
        assert_eq!(view.basis, "The chain's node did not answer.");
        assert_eq!(
            view.total_text,
            "The gateway's fees (listed below) plus your own network fee on Optimism, which could not be read now."
        );
    }

    #[test]
    fn a_price_is_only_taken_from_the_same_chains_coin() {
        // ETH on Base is not ETH on Optimism's price source here: each chain's coin is priced by its own amounts.
        let quote =
            token_swap(json!({"address": USDC, "chain": "optimism", "amount": "1", "usd": "1.00"}));
        assert_eq!(coin_price(quote.view(), "optimism"), None);
        assert!(
            coin_price(quote.view(), "base").is_none(),
            "an amount without value is no price"
        );
    }
}
