//! Wire values as a person reads them: amounts with their token's decimals and symbol, fractions as percentages.
//!
//! Exact decimal arithmetic only; an amount whose token is unknown is shown in smallest units with its address,
//! never with a guessed symbol or decimals.

use crate::amount::{format_units, parse_base_units};
use crate::tokens::TokenRegistry;

/// `amount` of `token` on `chain`, e.g. `0.001 BTC`, or `123 smallest units of 0xabc… on bob` when the token is unknown.
pub fn amount_text(registry: &TokenRegistry, chain: &str, token: &str, amount: &str) -> String {
    match (registry.get(chain, token), parse_base_units(amount)) {
        (Some(info), Ok(value)) => {
            format!("{} {}", format_units(value, info.decimals), info.symbol)
        }
        (None, Ok(_)) => format!("{amount} smallest units of {token} on {chain}"),
        (_, Err(_)) => format!("{amount:?} (not an amount) of {token} on {chain}"),
    }
}

/// Texts up to this many characters are shown whole by [`clipped`]: every address, hash and amount a chain has.
pub const SHOWN_WHOLE_CHARS: usize = 120;

/// A value a gateway sent, as a sentence quotes it: whole when it is [`SHOWN_WHOLE_CHARS`] characters or fewer (every
/// genuine address, hash and amount), otherwise its first 60 characters and how long it was, so that a hostile
/// megabyte "address" does not become a megabyte sentence.
pub fn clipped(text: &str) -> String {
    let count = text.chars().count();
    if count <= SHOWN_WHOLE_CHARS {
        return text.to_owned();
    }
    let head: String = text.chars().take(60).collect();
    format!("{head}… ({count} characters in all)")
}

/// The same, followed by its USD value when the gateway gave one: `0.001 BTC ($96.50)`.
pub fn amount_with_usd(
    registry: &TokenRegistry,
    chain: &str,
    token: &str,
    amount: &str,
    usd: Option<&str>,
) -> String {
    let text = amount_text(registry, chain, token, amount);
    match usd {
        Some(usd) if !usd.is_empty() => format!("{text} ({})", usd_text(usd)),
        _ => text,
    }
}

/// A USD value as a person writes it: `"2.30"` → `$2.30`, `"-2.30"` → `-$2.30`.
pub fn usd_text(usd: &str) -> String {
    match usd.trim().strip_prefix('-') {
        Some(positive) => format!("-${positive}"),
        None => format!("${}", usd.trim()),
    }
}

/// A decimal fraction as a percentage, exactly: `"-0.0050"` → `"-0.50%"`. `None` when `fraction` is not a decimal.
pub fn fraction_as_percent(fraction: &str) -> Option<String> {
    let text = fraction.trim();
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    if (int.is_empty() && frac.is_empty())
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    // Multiplying by 100 moves the point two places to the right.
    let mut frac = frac.to_owned();
    while frac.len() < 2 {
        frac.push('0');
    }
    let (moved, rest) = frac.split_at(2);
    let whole = format!("{int}{moved}");
    let whole = whole.trim_start_matches('0');
    let whole = if whole.is_empty() { "0" } else { whole };
    let rest = if rest.len() < 2 {
        format!("{rest:0<2}")
    } else {
        rest.to_owned()
    };
    let is_zero = whole == "0" && rest.bytes().all(|b| b == b'0');
    let sign = if negative && !is_zero { "-" } else { "" };
    Some(format!("{sign}{whole}.{rest}%"))
}

/// A duration in seconds as a person says it: `45 s`, `12 min`, `1 h 30 min`.
pub fn duration_text(seconds: u64) -> String {
    match seconds {
        0..=89 => format!("{seconds} s"),
        90..=5399 => format!("{} min", (seconds + 30) / 60),
        // A gateway's absurd estimate (u64::MAX) must not overflow: saturating, then shown as it is.
        _ => {
            let minutes = seconds.saturating_add(30) / 60;
            format!("{} h {} min", minutes / 60, minutes % 60)
        }
    }
}

/// A time that has passed, in seconds, to the second under an hour: `45 s`, `6 min 12 s`, `10 min`, `1 h 2 min`.
/// [`duration_text`] rounds an estimate to the minute; this says how long something took.
pub fn elapsed_text(seconds: u64) -> String {
    let (minutes, secs) = (seconds / 60, seconds % 60);
    match (minutes, secs) {
        (0, _) => format!("{secs} s"),
        (1..=59, 0) => format!("{minutes} min"),
        (1..=59, _) => format!("{minutes} min {secs} s"),
        _ => format!("{} h {} min", minutes / 60, minutes % 60),
    }
}

/// A whole number with its thousands grouped as a person writes it: `500,000`.
pub fn grouped(number: impl std::fmt::Display) -> String {
    let digits = number.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elapsed_times_are_told_to_the_second_under_an_hour() {
        assert_eq!(elapsed_text(0), "0 s");
        assert_eq!(elapsed_text(59), "59 s");
        assert_eq!(elapsed_text(60), "1 min");
        assert_eq!(elapsed_text(372), "6 min 12 s");
        assert_eq!(elapsed_text(3599), "59 min 59 s");
        assert_eq!(elapsed_text(3600), "1 h 0 min");
        assert_eq!(elapsed_text(3725), "1 h 2 min");
        assert_eq!(elapsed_text(u64::MAX), "5124095576030431 h 0 min");
    }

    #[test]
    fn an_absurd_duration_does_not_overflow() {
        assert_eq!(duration_text(u64::MAX), "5124095576030431 h 0 min");
    }

    #[test]
    fn amounts_use_the_token_facts_or_say_they_are_unknown() {
        let registry = TokenRegistry::builtin();
        assert_eq!(
            amount_text(registry, "bitcoin", "BTC", "100000"),
            "0.001 BTC"
        );
        assert_eq!(
            amount_text(
                registry,
                "bsc",
                "0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d",
                "1500000000000000000"
            ),
            "1.5 USDC"
        );
        let unknown = amount_text(
            registry,
            "bob",
            "0x1111111111111111111111111111111111111111",
            "42",
        );
        assert_eq!(
            unknown,
            "42 smallest units of 0x1111111111111111111111111111111111111111 on bob"
        );
        assert_eq!(
            amount_with_usd(registry, "bitcoin", "BTC", "100000", Some("96.50")),
            "0.001 BTC ($96.50)"
        );
        assert_eq!(
            amount_with_usd(registry, "bitcoin", "BTC", "100000", None),
            "0.001 BTC"
        );
    }

    #[test]
    fn fractions_become_percentages_exactly() {
        assert_eq!(fraction_as_percent("-0.0050").as_deref(), Some("-0.50%"));
        assert_eq!(fraction_as_percent("0.1").as_deref(), Some("10.00%"));
        assert_eq!(fraction_as_percent("0.123456").as_deref(), Some("12.3456%"));
        assert_eq!(fraction_as_percent("1").as_deref(), Some("100.00%"));
        assert_eq!(fraction_as_percent("-0").as_deref(), Some("0.00%"));
        assert_eq!(fraction_as_percent("abc"), None);
        assert_eq!(fraction_as_percent("1e-3"), None);
    }

    #[test]
    fn usd_values_put_the_sign_first() {
        assert_eq!(usd_text("2.30"), "$2.30");
        assert_eq!(usd_text("-2.30"), "-$2.30");
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration_text(45), "45 s");
        assert_eq!(duration_text(600), "10 min");
        assert_eq!(duration_text(5400), "1 h 30 min");
    }

    #[test]
    fn a_long_value_is_quoted_by_its_start_and_length() {
        let address = "bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297";
        assert_eq!(clipped(address), address);
        assert_eq!(clipped(&"x".repeat(120)), "x".repeat(120));
        let huge = "T".repeat(100_000);
        let shown = clipped(&huge);
        assert_eq!(
            shown,
            format!("{}… (100000 characters in all)", "T".repeat(60))
        );
    }
}
