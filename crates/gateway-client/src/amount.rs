//! Exact token amounts: a person's decimal text to base units (sats, wei) and back, never through floats.
//!
//! Amounts are unsigned integers of up to 256 bits in the token's smallest unit. What a person types
//! ("0.001") is read by [`parse_units`]; what the gateway sends ("100000") by [`parse_base_units`];
//! [`format_units`] writes base units back as the shortest exact decimal.
//!
//! Accepted by [`parse_units`]: digits with at most one `.`, surrounded by optional whitespace. Either side of
//! the point may be empty ("1." is 1, ".5" is 0.5) but not both. Signs, exponents, commas, inner spaces and more
//! fractional digits than the token has (even zeros) are refused with a message saying what to type instead.

use crate::text::describe_char;
use alloy_primitives::U256;

/// Why an amount could not be read; each message ends with what to do about it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AmountError {
    /// The text is empty or only whitespace.
    #[error("The amount is empty. Enter an amount such as 0.5.")]
    Empty,
    /// The text starts with a minus sign.
    #[error("Amounts cannot be negative. Enter the amount without the minus sign.")]
    Negative,
    /// The text starts with a plus sign.
    #[error("Leave out the + sign and enter just the number, such as 0.5.")]
    PlusSign,
    /// The text is in scientific notation, such as `1e-8`.
    #[error(
        "'{input}' uses scientific notation, which is not accepted. Write the number out in full, such as 0.00000001."
    )]
    Exponent {
        /// The text as read, without surrounding whitespace.
        input: String,
    },
    /// The text contains a comma: a decimal comma or a thousands separator.
    #[error(
        "'{input}' contains a comma. Use a point for decimals and leave out thousands separators, such as 1000.5."
    )]
    Comma {
        /// The text as read, without surrounding whitespace.
        input: String,
    },
    /// The text has more than one decimal point.
    #[error(
        "'{input}' has more than one decimal point. Enter a number with at most one point, such as 1.5."
    )]
    MultiplePoints {
        /// The text as read, without surrounding whitespace.
        input: String,
    },
    /// The text has no digit on either side of the point (it is just `.`).
    #[error("'{input}' has no digits. Enter a number such as 0.5.")]
    NoDigits {
        /// The text as read, without surrounding whitespace.
        input: String,
    },
    /// The text holds a character other than digits and the point (a letter, an inner space, a currency sign).
    #[error(
        "'{input}' contains {}, which is not a digit. Enter only digits and at most one decimal point, such as 0.5.",
        describe_char(*character)
    )]
    InvalidCharacter {
        /// The text as read, without surrounding whitespace.
        input: String,
        /// The first such character.
        character: char,
    },
    /// The text has more digits after the point than the token has decimals (even zeros), so it cannot be an exact
    /// number of base units.
    #[error("{}", too_many_decimals(input, *max, *found, token.as_deref()))]
    TooManyDecimals {
        /// The text as read, without surrounding whitespace.
        input: String,
        /// The token's number of decimals.
        max: u8,
        /// Digits found after the point.
        found: usize,
        /// The token's symbol, when known, for the message.
        token: Option<String>,
    },
    /// The amount does not fit in 256 bits, the most any token amount can hold.
    #[error("'{input}' is larger than any amount a token can hold. Check for extra digits.")]
    TooLarge {
        /// The text as read, without surrounding whitespace.
        input: String,
    },
    /// An amount in base units (as the gateway sends it) is not ASCII digits only.
    #[error(
        "'{input}' is not an amount in base units, which is digits only such as 100000. \
         The gateway's answer may be malformed; try again, and report it if it persists."
    )]
    InvalidBaseUnits {
        /// The text exactly as received.
        input: String,
    },
}

impl AmountError {
    /// Names the token in the message (for example "BTC has at most 8 decimals") instead of "this token".
    #[must_use]
    pub fn for_token(mut self, symbol: &str) -> Self {
        if let Self::TooManyDecimals { token, .. } = &mut self {
            *token = Some(symbol.to_owned());
        }
        self
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn too_many_decimals(input: &str, max: u8, found: usize, token: Option<&str>) -> String {
    let token = token.unwrap_or("This token");
    let found = plural(found, "digit");
    if max == 0 {
        format!(
            "{token} has no decimals; {input} has {found} after the point. Enter a whole number."
        )
    } else {
        let decimals = plural(usize::from(max), "decimal");
        let digits = plural(usize::from(max), "digit");
        format!(
            "{token} has at most {decimals}; {input} has {found} after the point. Enter at most {digits} after the point."
        )
    }
}

/// Reads a person's decimal amount as an exact number of base units, for a token with `decimals` decimals.
///
/// "0.001" with 8 decimals is 100000. See the module documentation for what is accepted.
pub fn parse_units(text: &str, decimals: u8) -> Result<U256, AmountError> {
    let input = text.trim();
    let (whole, fraction) = split_decimal(input)?;
    if fraction.len() > usize::from(decimals) {
        return Err(AmountError::TooManyDecimals {
            input: input.to_owned(),
            max: decimals,
            found: fraction.len(),
            token: None,
        });
    }
    let padding = usize::from(decimals) - fraction.len();
    let digits = whole
        .bytes()
        .chain(fraction.bytes())
        .chain(std::iter::repeat_n(b'0', padding));
    accumulate(digits).ok_or_else(|| AmountError::TooLarge {
        input: input.to_owned(),
    })
}

/// [`parse_units`] with the token's symbol in the error message ("BTC has at most 8 decimals; ...").
pub fn parse_units_with_symbol(
    text: &str,
    decimals: u8,
    symbol: &str,
) -> Result<U256, AmountError> {
    parse_units(text, decimals).map_err(|e| e.for_token(symbol))
}

/// Reads an amount in base units as the gateway writes it: ASCII digits only, no sign, point or whitespace.
///
/// Leading zeros are accepted ("007" is 7) since they do not change the value.
pub fn parse_base_units(text: &str) -> Result<U256, AmountError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(AmountError::InvalidBaseUnits {
            input: text.to_owned(),
        });
    }
    accumulate(text.bytes()).ok_or_else(|| AmountError::TooLarge {
        input: text.to_owned(),
    })
}

/// Writes base units as the shortest exact decimal: 100000 with 8 decimals is "0.001", zero is "0".
pub fn format_units(amount: U256, decimals: u8) -> String {
    let digits = amount.to_string();
    let decimals = usize::from(decimals);
    let (whole, fraction) = if digits.len() > decimals {
        let (whole, fraction) = digits.split_at(digits.len() - decimals);
        (whole.to_owned(), fraction.to_owned())
    } else {
        ("0".to_owned(), format!("{digits:0>decimals$}"))
    };
    let fraction = fraction.trim_end_matches('0');
    if fraction.is_empty() {
        whole
    } else {
        format!("{whole}.{fraction}")
    }
}

/// Base units as a decimal of at most `significant` significant digits, **rounded up**: the figure a person reads for a
/// most, such as a network fee's ("at most 0.00051 ETH" for 500000003500000 wei), which must never understate. An
/// amount with no more digits than that is written exactly.
pub fn format_units_up(amount: U256, decimals: u8, significant: usize) -> String {
    let digits = amount.to_string();
    let significant = significant.max(1);
    if digits.len() <= significant {
        return format_units(amount, decimals);
    }
    let dropped = digits.len() - significant;
    let scale = U256::from(10u8).pow(U256::from(dropped));
    let kept = amount / scale;
    let kept = if amount % scale == U256::ZERO {
        kept
    } else {
        kept + U256::from(1u8)
    };
    format_units(kept.saturating_mul(scale), decimals)
}

/// [`format_units`] followed by the token's symbol: "0.001 BTC".
pub fn format_with_symbol(amount: U256, decimals: u8, symbol: &str) -> String {
    let number = format_units(amount, decimals);
    if symbol.is_empty() {
        number
    } else {
        format!("{number} {symbol}")
    }
}

/// Folds ASCII digits into a number, or `None` on overflow.
fn accumulate(mut digits: impl Iterator<Item = u8>) -> Option<U256> {
    let ten = U256::from(10u8);
    digits.try_fold(U256::ZERO, |value, digit| {
        value
            .checked_mul(ten)?
            .checked_add(U256::from(digit - b'0'))
    })
}

/// Splits trimmed text into the digits before and after the point, refusing anything else.
fn split_decimal(input: &str) -> Result<(&str, &str), AmountError> {
    let owned = || input.to_owned();
    if input.is_empty() {
        return Err(AmountError::Empty);
    }
    if input.starts_with('-') {
        return Err(AmountError::Negative);
    }
    if input.starts_with('+') {
        return Err(AmountError::PlusSign);
    }
    if input.contains(',') {
        return Err(AmountError::Comma { input: owned() });
    }
    if looks_like_exponent(input) {
        return Err(AmountError::Exponent { input: owned() });
    }
    if let Some(character) = input.chars().find(|c| !c.is_ascii_digit() && *c != '.') {
        return Err(AmountError::InvalidCharacter {
            input: owned(),
            character,
        });
    }
    let (whole, fraction) = input.split_once('.').unwrap_or((input, ""));
    if fraction.contains('.') {
        return Err(AmountError::MultiplePoints { input: owned() });
    }
    if whole.is_empty() && fraction.is_empty() {
        return Err(AmountError::NoDigits { input: owned() });
    }
    Ok((whole, fraction))
}

/// A decimal, then `e` or `E`, then an optionally signed integer: "1e-8", "2.5E3".
fn looks_like_exponent(input: &str) -> bool {
    let Some((mantissa, exponent)) = input.split_once(['e', 'E']) else {
        return false;
    };
    let exponent = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
    let mantissa_ok = mantissa.bytes().any(|b| b.is_ascii_digit())
        && mantissa.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && mantissa.bytes().filter(|&b| b == b'.').count() <= 1;
    mantissa_ok && !exponent.is_empty() && exponent.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_most_is_rounded_up_to_its_significant_digits_and_never_understated() {
        let u = |v: u128| U256::from(v);
        assert_eq!(format_units_up(u(500_000_003_500_000), 18, 2), "0.00051");
        assert_eq!(format_units_up(u(500_000_000_000_000), 18, 2), "0.0005");
        assert_eq!(format_units_up(u(691_999_999_999_999), 18, 3), "0.000692");
        assert_eq!(format_units_up(u(999_999), 6, 2), "1");
        assert_eq!(format_units_up(u(12), 6, 2), "0.000012");
        assert_eq!(format_units_up(u(0), 18, 2), "0");
        // Never less than the exact value.
        for v in [1u128, 19, 101, 123_456_789, 10u128.pow(18) + 1] {
            let shown = parse_units(&format_units_up(u(v), 18, 2), 18).unwrap();
            assert!(shown >= u(v), "{v}");
        }
    }

    use super::*;

    fn u(n: u64) -> U256 {
        U256::from(n)
    }

    #[test]
    fn parses_plain_decimals() {
        assert_eq!(parse_units("0.001", 8), Ok(u(100_000)));
        assert_eq!(parse_units("0.0001", 8), Ok(u(10_000)));
        assert_eq!(parse_units("1", 8), Ok(u(100_000_000)));
        assert_eq!(parse_units("21000000", 8), Ok(u(2_100_000_000_000_000)));
        assert_eq!(parse_units("0.00000001", 8), Ok(u(1)));
        assert_eq!(parse_units("1.5", 6), Ok(u(1_500_000)));
        assert_eq!(parse_units("0", 18), Ok(U256::ZERO));
        assert_eq!(parse_units("0.0", 18), Ok(U256::ZERO));
        assert_eq!(parse_units("000.10", 2), Ok(u(10)));
    }

    #[test]
    fn point_may_start_or_end_the_number() {
        assert_eq!(parse_units("1.", 8), Ok(u(100_000_000)));
        assert_eq!(parse_units(".5", 8), Ok(u(50_000_000)));
        assert_eq!(parse_units("1.", 0), Ok(u(1)));
        assert_eq!(
            parse_units(".", 8),
            Err(AmountError::NoDigits { input: ".".into() })
        );
    }

    #[test]
    fn surrounding_whitespace_is_ignored_inner_is_not() {
        assert_eq!(parse_units("  0.5\n", 1), Ok(u(5)));
        assert_eq!(parse_units("\t7 ", 0), Ok(u(7)));
        let err = parse_units("1 000", 0).unwrap_err();
        assert_eq!(
            err,
            AmountError::InvalidCharacter {
                input: "1 000".into(),
                character: ' '
            }
        );
        assert!(err.to_string().contains("contains a space"), "{err}");
    }

    #[test]
    fn decimals_zero_takes_whole_numbers() {
        assert_eq!(parse_units("42", 0), Ok(u(42)));
        let err = parse_units("1.0", 0).unwrap_err();
        assert_eq!(
            err.to_string(),
            "This token has no decimals; 1.0 has 1 digit after the point. Enter a whole number."
        );
    }

    #[test]
    fn too_many_decimals_names_the_maximum() {
        let err = parse_units("0.000000001", 8).unwrap_err();
        assert_eq!(
            err,
            AmountError::TooManyDecimals {
                input: "0.000000001".into(),
                max: 8,
                found: 9,
                token: None
            }
        );
        assert_eq!(
            err.to_string(),
            "This token has at most 8 decimals; 0.000000001 has 9 digits after the point. \
             Enter at most 8 digits after the point."
        );
        let err = parse_units_with_symbol("0.000000001", 8, "BTC").unwrap_err();
        assert_eq!(
            err.to_string(),
            "BTC has at most 8 decimals; 0.000000001 has 9 digits after the point. \
             Enter at most 8 digits after the point."
        );
        let err = parse_units_with_symbol("0.25", 1, "X").unwrap_err();
        assert_eq!(
            err.to_string(),
            "X has at most 1 decimal; 0.25 has 2 digits after the point. Enter at most 1 digit after the point."
        );
    }

    #[test]
    fn trailing_zeros_beyond_the_decimals_are_refused() {
        assert!(matches!(
            parse_units("1.000000000", 8),
            Err(AmountError::TooManyDecimals { found: 9, .. })
        ));
    }

    #[test]
    fn refuses_signs_exponents_commas_and_garbage() {
        assert_eq!(parse_units("", 8), Err(AmountError::Empty));
        assert_eq!(parse_units("   ", 8), Err(AmountError::Empty));
        assert_eq!(parse_units("-1", 8), Err(AmountError::Negative));
        assert_eq!(parse_units("+1", 8), Err(AmountError::PlusSign));
        assert_eq!(
            parse_units("1e-8", 8),
            Err(AmountError::Exponent {
                input: "1e-8".into()
            })
        );
        assert_eq!(
            parse_units("2.5E3", 8),
            Err(AmountError::Exponent {
                input: "2.5E3".into()
            })
        );
        assert_eq!(
            parse_units("1,000.5", 8),
            Err(AmountError::Comma {
                input: "1,000.5".into()
            })
        );
        assert_eq!(
            parse_units("0,5", 8),
            Err(AmountError::Comma {
                input: "0,5".into()
            })
        );
        assert_eq!(
            parse_units("1.2.3", 8),
            Err(AmountError::MultiplePoints {
                input: "1.2.3".into()
            })
        );
        assert_eq!(
            parse_units("one", 8),
            Err(AmountError::InvalidCharacter {
                input: "one".into(),
                character: 'o'
            })
        );
        assert_eq!(
            parse_units("1-2", 8),
            Err(AmountError::InvalidCharacter {
                input: "1-2".into(),
                character: '-'
            })
        );
        assert_eq!(
            parse_units("0x10", 8),
            Err(AmountError::InvalidCharacter {
                input: "0x10".into(),
                character: 'x'
            })
        );
        assert_eq!(
            parse_units("1_000", 8),
            Err(AmountError::InvalidCharacter {
                input: "1_000".into(),
                character: '_'
            })
        );
        assert_eq!(
            parse_units("١", 0),
            Err(AmountError::InvalidCharacter {
                input: "١".into(),
                character: '١'
            })
        );
        assert_eq!(
            parse_units("NaN", 8),
            Err(AmountError::InvalidCharacter {
                input: "NaN".into(),
                character: 'N'
            })
        );
        assert_eq!(
            parse_units("e5", 8),
            Err(AmountError::InvalidCharacter {
                input: "e5".into(),
                character: 'e'
            })
        );
    }

    #[test]
    fn overflow_is_an_error() {
        let max = U256::MAX.to_string();
        assert_eq!(parse_units(&max, 0), Ok(U256::MAX));
        let above =
            "115792089237316195423570985008687907853269984665640564039457584007913129639936";
        assert_eq!(
            parse_units(above, 0),
            Err(AmountError::TooLarge {
                input: above.into()
            })
        );
        assert_eq!(
            parse_units("1", 78),
            Err(AmountError::TooLarge { input: "1".into() })
        );
        assert_eq!(parse_units("0", 255), Ok(U256::ZERO));
        assert_eq!(
            parse_units("1", 77),
            Ok(U256::from(10u8).pow(U256::from(77u8)))
        );
    }

    #[test]
    fn formats_exactly_and_trims_zeros() {
        assert_eq!(format_units(u(100_000), 8), "0.001");
        assert_eq!(format_units(U256::ZERO, 8), "0");
        assert_eq!(format_units(U256::ZERO, 0), "0");
        assert_eq!(format_units(u(1), 8), "0.00000001");
        assert_eq!(format_units(u(100_000_000), 8), "1");
        assert_eq!(format_units(u(150_000_000), 8), "1.5");
        assert_eq!(format_units(u(12_345), 0), "12345");
        assert_eq!(format_units(u(12_345), 5), "0.12345");
        assert_eq!(format_units(u(12_345), 2), "123.45");
        assert_eq!(format_units(u(1), 255).len(), 257);
    }

    #[test]
    fn formats_the_largest_amount_with_18_decimals() {
        assert_eq!(
            format_units(U256::MAX, 18),
            "115792089237316195423570985008687907853269984665640564039457.584007913129639935"
        );
        assert_eq!(parse_units(&format_units(U256::MAX, 18), 18), Ok(U256::MAX));
    }

    #[test]
    fn parse_and_format_round_trip() {
        for (text, decimals) in [
            ("0.001", 8),
            ("123.456789", 6),
            ("1", 0),
            ("0.000000000000000001", 18),
        ] {
            let amount = parse_units(text, decimals).unwrap();
            assert_eq!(format_units(amount, decimals), text);
        }
    }

    #[test]
    fn base_units_are_digits_only() {
        assert_eq!(parse_base_units("0"), Ok(U256::ZERO));
        assert_eq!(parse_base_units("100000"), Ok(u(100_000)));
        assert_eq!(parse_base_units("007"), Ok(u(7)));
        assert_eq!(parse_base_units(&U256::MAX.to_string()), Ok(U256::MAX));
        for bad in ["", "+1", "-1", "1.0", " 1", "1 ", "0x1", "1e3", "1,000"] {
            assert_eq!(
                parse_base_units(bad),
                Err(AmountError::InvalidBaseUnits { input: bad.into() }),
                "{bad:?}"
            );
        }
        let above =
            "115792089237316195423570985008687907853269984665640564039457584007913129639936";
        assert_eq!(
            parse_base_units(above),
            Err(AmountError::TooLarge {
                input: above.into()
            })
        );
    }

    #[test]
    fn formats_with_symbol() {
        assert_eq!(format_with_symbol(u(100_000), 8, "BTC"), "0.001 BTC");
        assert_eq!(format_with_symbol(u(2_500_000), 6, "USDC"), "2.5 USDC");
        assert_eq!(format_with_symbol(u(5), 0, ""), "5");
    }

    #[test]
    fn messages_end_with_what_to_do() {
        let errors = [
            parse_units("", 8).unwrap_err(),
            parse_units("-1", 8).unwrap_err(),
            parse_units("+1", 8).unwrap_err(),
            parse_units("1e5", 8).unwrap_err(),
            parse_units("1,5", 8).unwrap_err(),
            parse_units("1..5", 8).unwrap_err(),
            parse_units(".", 8).unwrap_err(),
            parse_units("abc", 8).unwrap_err(),
            parse_units("1", 78).unwrap_err(),
            parse_base_units("x").unwrap_err(),
        ];
        for err in errors {
            let message = err.to_string();
            assert!(message.ends_with('.'), "{message}");
            assert!(
                message
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_uppercase() || c == '\''),
                "{message}"
            );
        }
    }
}
