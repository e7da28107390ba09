//! The one exact-USD type: a US dollar value as whole micro-dollars ([`Usd`]). The gateway writes USD values as
//! decimal strings; the partner dashboard sums them, the verifier checks a quote's fee total and price impact with
//! them, support's reproduction derives fee rates from them. All read and write them here, never as floats.

use std::fmt;

use alloy_primitives::U256;

/// Micro-dollars in one dollar.
const MICRO: u128 = 1_000_000;

/// A non-negative USD value in whole micro-dollars (exact; a gateway writes two decimals, six are kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Usd(u128);

impl Usd {
    /// Nothing.
    pub const ZERO: Self = Self(0);

    /// `micros` micro-dollars.
    pub const fn from_micros(micros: u128) -> Self {
        Self(micros)
    }

    /// The value in micro-dollars.
    pub const fn micros(self) -> u128 {
        self.0
    }

    /// A USD value written as a decimal (`"96.12"`, `"3"`, `".5"`); digits past the sixth decimal are dropped (the
    /// gateway writes two). `None` for anything else (a sign, letters, an empty string, more than fits).
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        let (int, frac) = text.split_once('.').unwrap_or((text, ""));
        if (int.is_empty() && frac.is_empty())
            || !int.bytes().all(|b| b.is_ascii_digit())
            || !frac.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let whole: u128 = if int.is_empty() { 0 } else { int.parse().ok()? };
        let mut micro: u128 = 0;
        for digit in frac.bytes().chain(std::iter::repeat(b'0')).take(6) {
            micro = micro * 10 + u128::from(digit - b'0');
        }
        whole.checked_mul(MICRO)?.checked_add(micro).map(Self)
    }

    /// Dollars and cents, rounded down to the cent: `"96.12"` (never rounded up).
    pub fn cents_text(self) -> String {
        format!("{}.{:02}", self.0 / MICRO, (self.0 % MICRO) / 10_000)
    }

    /// Dollars and cents, rounded **up** to the cent: `"2.41"`, the USD beside a most (a network fee's), which must
    /// never understate.
    pub fn cents_up_text(self) -> String {
        let cents = self.0.div_ceil(10_000);
        format!("{}.{:02}", cents / 100, cents % 100)
    }

    /// The value of `part` smallest units of a token of which `whole` are worth `self` (a quote's own price), rounded
    /// up to the micro-dollar; `None` when `whole` is zero or the figures are beyond reason.
    pub fn share_up(self, whole: U256, part: U256) -> Option<Self> {
        if whole.is_zero() {
            return None;
        }
        let micros = part.checked_mul(U256::from(self.0))?.div_ceil(whole);
        u128::try_from(micros).ok().map(Self)
    }

    /// All six decimals: `"0.123456"` (the CSV's earnings, so that its column adds up exactly).
    pub fn exact_text(self) -> String {
        format!("{}.{:06}", self.0 / MICRO, self.0 % MICRO)
    }

    /// As a person writes dollars, rounded down to the cent, thousands grouped: `$1,234.56` (the window's format).
    pub fn grouped_text(self) -> String {
        format!(
            "${}.{:02}",
            crate::display::grouped(self.0 / MICRO),
            (self.0 % MICRO) / 10_000
        )
    }

    /// `bps` basis points of this value, rounded down to the micro-dollar.
    pub fn bps(self, bps: u32) -> Self {
        Self(self.0.saturating_mul(u128::from(bps)) / 10_000)
    }

    /// The sum, or `None` past `u128`.
    pub fn checked_add(self, other: Self) -> Option<Self> {
        self.0.checked_add(other.0).map(Self)
    }
}

impl fmt::Display for Usd {
    /// `$96.12`, rounded down to the cent.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.cents_text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Option<u128> {
        Usd::parse(text).map(Usd::micros)
    }

    #[test]
    fn a_share_of_a_priced_amount_is_rounded_up_and_never_understates() {
        let u = |v: u128| U256::from(v);
        let share = |usd: &str, whole: u128, part: U256| {
            Usd::parse(usd)
                .unwrap()
                .share_up(u(whole), part)
                .map(Usd::cents_up_text)
        };
        // 1 ETH at $3,000.00: 0.00082 ETH is $2.46.
        assert_eq!(
            share("3000.00", 10u128.pow(18), u(820_000_000_000_000)).as_deref(),
            Some("2.46")
        );
        // A third of a cent shows as a cent: never less than the value.
        assert_eq!(share("1", 300, u(1)).as_deref(), Some("0.01"));
        assert_eq!(
            share("96.125", 250_000, u(250_000)).as_deref(),
            Some("96.13")
        );
        assert_eq!(share("96.12", 250_000, u(0)).as_deref(), Some("0.00"));
        assert_eq!(share("1", 0, u(1)), None);
        assert_eq!(share("1", 1, U256::MAX), None, "beyond reason");
        assert_eq!(Usd::from_micros(1_990_001).cents_up_text(), "2.00");
        assert_eq!(Usd::from_micros(1_990_000).cents_up_text(), "1.99");
    }

    #[test]
    fn usd_values_are_exact_micro_dollars_shown_rounded_down() {
        assert_eq!(parse("96.12"), Some(96_120_000));
        assert_eq!(parse("3"), Some(3_000_000));
        assert_eq!(parse(".5"), Some(500_000));
        assert_eq!(parse(" 0.000001 "), Some(1));
        assert_eq!(
            parse("1.2345678"),
            Some(1_234_567),
            "past micro-dollars: dropped"
        );
        for bad in ["", ".", "-1.00", "1e3", "1,00", "$5", "1.2.3"] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
        assert_eq!(Usd::ZERO.cents_text(), "0.00");
        assert_eq!(
            Usd::from_micros(1_999_999).cents_text(),
            "1.99",
            "rounded down, never up"
        );
        assert_eq!(
            Usd::from_micros(123_456_789_000_000).cents_text(),
            "123456789.00"
        );
        assert_eq!(Usd::from_micros(6_666).exact_text(), "0.006666");
        assert_eq!(Usd::parse("33.33").unwrap().bps(2).micros(), 6_666);
        assert_eq!(Usd::from_micros(1_999_999).to_string(), "$1.99");
        assert_eq!(Usd::from_micros(1_999_999).grouped_text(), "$1.99");
        assert_eq!(
            Usd::from_micros(999_999_000_000).grouped_text(),
            "$999,999.00"
        );
        assert_eq!(
            Usd::from_micros(1_234_567_890_000).grouped_text(),
            "$1,234,567.89"
        );
    }
}
