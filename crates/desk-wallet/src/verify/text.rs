//! Amounts as the refusals and summaries write them (BTC, a chain's native token, TRX, percentages).

use alloy_primitives::U256;
use gateway_client::amount::format_with_symbol;
use gateway_client::tokens::TokenRegistry;
use gateway_client::wire::NATIVE_TOKEN;

/// Basis points as a percentage with two decimals, no sign: 750 → `7.50`.
pub fn percent(bps: u32) -> String {
    format!("{}.{:02}", bps / 100, bps % 100)
}

/// Sats as BTC with all eight decimals: `0.00250000 BTC`.
pub(crate) fn btc_text(sats: u64) -> String {
    format!("{}.{:08} BTC", sats / 100_000_000, sats % 100_000_000)
}

/// An amount of `chain`'s native token, smallest units given as decimal text: `0.01 ETH`, or the raw number when the
/// chain's native token is unknown.
pub(super) fn native_text(chain: &str, amount: &str) -> String {
    let registry = TokenRegistry::builtin();
    match (
        registry.get(chain, NATIVE_TOKEN),
        gateway_client::amount::parse_base_units(amount),
    ) {
        (Some(info), Ok(value)) => format_with_symbol(value, info.decimals, &info.symbol),
        _ => format!("{amount} smallest units of the native token of {chain}"),
    }
}

/// Sun (decimal text) as TRX.
pub(crate) fn trx_text(sun: &str) -> String {
    match gateway_client::amount::parse_base_units(sun) {
        Ok(value) => format_with_symbol(value, 6, "TRX"),
        Err(_) => format!("{sun} sun"),
    }
}

/// Native value as a person reads it, from a parsed amount.
pub(super) fn native_value_text(chain: &str, amount: U256) -> String {
    native_text(chain, &amount.to_string())
}
