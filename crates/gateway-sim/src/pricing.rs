//! The simulated gateway's price table, in exact integers: no floats touch an amount.
//!
//! Each token has a price in micro-dollars (millionths of a USD) per whole token, chosen by the catalogue's
//! [`AssetClass`] and, for native tokens, the registry symbol:
//!
//! | asset | USD per whole token |
//! |---|---|
//! | BTC, WBTC, cbBTC (every `Bitcoin` class token) | 100000.00 |
//! | ETH | 3500 |
//! | BNB | 650 |
//! | USD stablecoins (`Usd` class) | 1.00 |
//!
//! Amounts are smallest units (`U256`); a token's decimals come from [`TokenRegistry::builtin`].

use alloy_primitives::U256;
use gateway_client::TokenRegistry;

use crate::catalogue::{AssetClass, ListedToken};

/// Micro-dollars in one dollar.
pub const MICRO_PER_USD: u64 = 1_000_000;

/// USD per whole BTC (and wrapped BTC), in micro-dollars.
pub const BTC_PRICE_MICRO: u64 = 100_000 * MICRO_PER_USD;
/// USD per ETH, in micro-dollars.
pub const ETH_PRICE_MICRO: u64 = 3_500 * MICRO_PER_USD;
/// USD per BNB, in micro-dollars.
pub const BNB_PRICE_MICRO: u64 = 650 * MICRO_PER_USD;
/// USD per stablecoin, in micro-dollars.
pub const USD_PRICE_MICRO: u64 = MICRO_PER_USD;

/// A token's price and decimals: everything needed to value or convert its amounts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Priced {
    /// Micro-dollars per whole token.
    pub price_micro: u64,
    /// Decimals of the smallest unit.
    pub decimals: u8,
}

/// The price of a listed token, from its class and (for native tokens) its symbol; `None` when it has no price
/// or no registry entry.
pub fn price_of(token: &ListedToken) -> Option<Priced> {
    let info = TokenRegistry::builtin().get(token.chain, token.address)?;
    let price_micro = match token.class {
        AssetClass::Bitcoin => BTC_PRICE_MICRO,
        AssetClass::Usd => USD_PRICE_MICRO,
        AssetClass::Native => match info.symbol.as_str() {
            "ETH" => ETH_PRICE_MICRO,
            "BNB" => BNB_PRICE_MICRO,
            _ => return None,
        },
    };
    Some(Priced {
        price_micro,
        decimals: info.decimals,
    })
}

fn pow10(exp: u8) -> U256 {
    U256::from(10u8).pow(U256::from(exp))
}

/// The value of `amount` in micro-dollars, rounded down.
pub fn usd_micro(amount: U256, token: Priced) -> U256 {
    amount * U256::from(token.price_micro) / pow10(token.decimals)
}

/// The value of `amount` in USD as a decimal string with 2 decimals (`"96.12"`), rounded down exactly (one
/// division of the exact product, no intermediate rounding).
pub fn usd_string(amount: U256, token: Priced) -> String {
    let cents =
        amount * U256::from(token.price_micro) / (pow10(token.decimals) * U256::from(10_000u64));
    cents_string(cents)
}

/// Writes a number of cents as `"d.cc"`.
pub fn cents_string(cents: U256) -> String {
    let hundred = U256::from(100u8);
    format!("{}.{:02}", cents / hundred, (cents % hundred).to::<u64>())
}

/// Converts `amount` of token `from` into token `to` through USD, rounded down (one division of the exact product).
pub fn convert(amount: U256, from: Priced, to: Priced) -> U256 {
    amount * U256::from(from.price_micro) * pow10(to.decimals)
        / (pow10(from.decimals) * U256::from(to.price_micro))
}

/// The smallest amount of `token` worth at least `usd_micro` micro-dollars (rounded up).
pub fn amount_for_usd_micro(usd_micro: u64, token: Priced) -> U256 {
    let numerator = U256::from(usd_micro) * pow10(token.decimals);
    let price = U256::from(token.price_micro);
    numerator.div_ceil(price)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::Catalogue;

    fn priced(chain: &str, address: &str) -> Priced {
        let catalogue = Catalogue::default();
        let token = catalogue
            .tokens()
            .iter()
            .find(|t| t.chain == chain && t.address.eq_ignore_ascii_case(address))
            .expect("listed");
        price_of(token).expect("priced")
    }

    const BTC: Priced = Priced {
        price_micro: BTC_PRICE_MICRO,
        decimals: 8,
    };

    #[test]
    fn every_listed_token_has_a_price() {
        for token in Catalogue::default().tokens() {
            assert!(price_of(token).is_some(), "{token:?}");
        }
        assert_eq!(
            priced("tron", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t").price_micro,
            1_000_000
        );
        assert_eq!(
            priced("bsc", gateway_client::wire::NATIVE_TOKEN).price_micro,
            650_000_000
        );
        assert_eq!(
            priced("solana", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v").decimals,
            6
        );
        assert_eq!(
            priced("base", gateway_client::wire::NATIVE_TOKEN).price_micro,
            3_500_000_000
        );
        assert_eq!(
            priced("bsc", "0x55d398326f99059fF775485246999027B3197955").decimals,
            18
        );
    }

    #[test]
    fn usd_values_round_down_to_the_cent() {
        // 96123 sats at 100000 USD/BTC = 96.123 USD.
        assert_eq!(usd_string(U256::from(96_123u64), BTC), "96.12");
        assert_eq!(usd_string(U256::from(99_999u64), BTC), "99.99");
        assert_eq!(usd_string(U256::from(1u64), BTC), "0.00");
        assert_eq!(usd_string(U256::from(100_000_000u64), BTC), "100000.00");
        let usdt18 = priced("bsc", "0x55d398326f99059fF775485246999027B3197955");
        // 1.239999999999999999 USDT (18 decimals).
        assert_eq!(
            usd_string(U256::from(1_239_999_999_999_999_999u64), usdt18),
            "1.23"
        );
        let usdt_tron = priced("tron", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t");
        assert_eq!(usdt_tron.decimals, 6);
        assert_eq!(usd_string(U256::from(4_000_000u64), usdt_tron), "4.00");
        assert_eq!(
            usd_micro(U256::from(1_000u64), BTC),
            U256::from(1_000_000u64)
        );
    }

    #[test]
    fn conversions_use_each_tokens_decimals() {
        let usdc6 = priced("ethereum", "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48");
        let usdc18 = priced("bsc", "0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d");
        let eth = priced("ethereum", gateway_client::wire::NATIVE_TOKEN);
        // 0.001 BTC = 100 USD = 100 USDC.
        assert_eq!(
            convert(U256::from(100_000u64), BTC, usdc6),
            U256::from(100_000_000u64)
        );
        assert_eq!(
            convert(U256::from(100_000u64), BTC, usdc18),
            U256::from(100_000_000_000_000_000_000u128)
        );
        // 1 ETH = 3500 USD = 0.035 BTC.
        assert_eq!(
            convert(U256::from(1_000_000_000_000_000_000u128), eth, BTC),
            U256::from(3_500_000u64)
        );
        // 1 sat = 0.001 USD = 1000 USDC units; 1 USDC unit is 0.001 sat, rounded down to 0.
        assert_eq!(convert(U256::from(1u64), BTC, usdc6), U256::from(1_000u64));
        assert_eq!(convert(U256::from(1u64), usdc6, BTC), U256::ZERO);
        // 10 USD minimums, rounded up.
        assert_eq!(
            amount_for_usd_micro(10_000_000, usdc6),
            U256::from(10_000_000u64)
        );
        assert_eq!(amount_for_usd_micro(10_000_000, BTC), U256::from(10_000u64));
        let eth = priced("base", gateway_client::wire::NATIVE_TOKEN);
        // 10 USD of ETH at 3500 USD: 2857142857142857.14… wei, rounded up.
        assert_eq!(
            amount_for_usd_micro(10_000_000, eth),
            U256::from(2_857_142_857_142_858u64)
        );
        assert_eq!(amount_for_usd_micro(10_000_001, BTC), U256::from(10_001u64));
        assert_eq!(cents_string(U256::from(5u8)), "0.05");
    }
}
