//! The dashboard's time buckets (days, ISO weeks, months in UTC) on the one calendar, and its USD helpers.

use super::*;
use crate::calendar::{DAY_SECS, civil_from_days, days_from_civil, iso_week};
use crate::usd::Usd;

// Exact USD is `crate::usd::Usd`; the dashboard sums its micro-dollars as `u128`.

/// A USD text in micro-dollars ([`Usd::parse`]).
pub(crate) fn parse_usd(text: &str) -> Option<u128> {
    Usd::parse(text).map(Usd::micros)
}

/// Micro-dollars as dollars and cents, rounded down ([`Usd::cents_text`]).
pub(crate) fn format_usd(micro: u128) -> String {
    Usd::from_micros(micro).cents_text()
}

/// Micro-dollars with all six decimals ([`Usd::exact_text`]).
pub(crate) fn format_usd_micro(micro: u128) -> String {
    Usd::from_micros(micro).exact_text()
}

/// `bps` of `usd_micro`, rounded down to the micro-dollar ([`Usd::bps`]).
pub(crate) fn bps_of_usd(usd_micro: u128, bps: u32) -> u128 {
    Usd::from_micros(usd_micro).bps(bps).micros()
}

// ---------------------------------------------------------------------------------------------------------------
// The dashboard's buckets, on the one calendar (`crate::calendar`).

/// The earliest date the dashboard places an order at: 2009-01-01 (before any Bitcoin order could exist).
pub const EARLIEST_DATE: i64 = 1_230_768_000;
/// The latest: 9999-12-31T23:59:59Z. A date outside (a gateway's `i64::MAX`) is placed at the nearer end, so the
/// calendar and the chart's span stay bounded.
pub const LATEST_DATE: i64 = 253_402_300_799;

/// The start (unix seconds) of the bucket of `period` holding `unix_secs` (clamped to
/// [`EARLIEST_DATE`]..=[`LATEST_DATE`]).
pub fn bucket_start(period: Period, unix_secs: i64) -> i64 {
    let days = unix_secs
        .clamp(EARLIEST_DATE, LATEST_DATE)
        .div_euclid(DAY_SECS);
    let first_day = match period {
        Period::Day => days,
        Period::Week => iso_week(days).2,
        Period::Month => {
            let (y, m, _) = civil_from_days(days);
            days_from_civil(y, m, 1)
        }
    };
    first_day * DAY_SECS
}

/// The start of the bucket after the one starting at `start`.
pub(crate) fn next_bucket(period: Period, start: i64) -> i64 {
    match period {
        Period::Day => start + DAY_SECS,
        Period::Week => start + 7 * DAY_SECS,
        Period::Month => {
            let (y, m, _) = civil_from_days(start.div_euclid(DAY_SECS));
            let (y, m) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
            days_from_civil(y, m, 1) * DAY_SECS
        }
    }
}

/// The name of the bucket starting at `start`: `2026-11-21`, `2026-W47` (ISO week) or `2026-11`.
pub fn bucket_label(period: Period, start: i64) -> String {
    let days = start.div_euclid(DAY_SECS);
    match period {
        Period::Day => {
            let (y, m, d) = civil_from_days(days);
            format!("{y:04}-{m:02}-{d:02}")
        }
        Period::Week => {
            let (y, w, _) = iso_week(days);
            format!("{y:04}-W{w:02}")
        }
        Period::Month => {
            let (y, m, _) = civil_from_days(days);
            format!("{y:04}-{m:02}")
        }
    }
}
