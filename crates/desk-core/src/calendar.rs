//! The one calendar of the app: UTC days, ISO 8601 weeks and timestamps as text, over the `time` crate (already in the
//! tree through the log appender). The partner dashboard's buckets, the CSV's dates, support bundles' file names and the
//! log files' dates all read the calendar here; nothing else computes a civil date.
//!
//! Every function takes any `i64` (a hostile gateway's `i64::MAX` included) and answers within years -9999..=9999:
//! a moment outside is placed at the nearer end.

use time::{Date, Month, OffsetDateTime};

/// Seconds in a UTC day (no leap seconds, as unix time).
pub const DAY_SECS: i64 = 86_400;

/// The Julian day number of 1970-01-01.
const UNIX_EPOCH_JULIAN_DAY: i64 = 2_440_588;

/// The first representable moment: -9999-01-01T00:00:00Z.
const MIN_SECS: i64 = -377_705_116_800;
/// The last representable moment: 9999-12-31T23:59:59Z.
const MAX_SECS: i64 = 253_402_300_799;

/// `unix_secs` as a UTC moment, placed at the nearer end of years -9999..=9999 when outside.
pub fn utc(unix_secs: i64) -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(unix_secs.clamp(MIN_SECS, MAX_SECS))
        .unwrap_or(OffsetDateTime::UNIX_EPOCH)
}

/// The date of `days` since 1970-01-01 (clamped like [`utc`]).
fn date_of_day(days: i64) -> Date {
    utc(days.saturating_mul(DAY_SECS)).date()
}

/// The day number (days since 1970-01-01) of `date`.
fn day_of_date(date: Date) -> i64 {
    i64::from(date.to_julian_day()) - UNIX_EPOCH_JULIAN_DAY
}

/// Days since 1970-01-01 of the date `year`-`month`-`day` (an impossible date gives the first day of its month's
/// year; years are clamped to -9999..=9999).
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = i32::try_from(year.clamp(-9_999, 9_999)).unwrap_or(0);
    let month = u8::try_from(month)
        .ok()
        .and_then(|m| Month::try_from(m).ok())
        .unwrap_or(Month::January);
    let date = u8::try_from(day)
        .ok()
        .and_then(|d| Date::from_calendar_date(year, month, d).ok())
        .or_else(|| Date::from_calendar_date(year, Month::January, 1).ok())
        .unwrap_or(Date::MIN);
    day_of_date(date)
}

/// The date (`year`, `month`, `day`) of `days` since 1970-01-01.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let date = date_of_day(days);
    (
        i64::from(date.year()),
        u32::from(u8::from(date.month())),
        u32::from(date.day()),
    )
}

/// The ISO 8601 week of the day `days` since 1970-01-01: (ISO year, week 1..=53, the Monday's day number).
pub fn iso_week(days: i64) -> (i64, u32, i64) {
    let date = date_of_day(days);
    let (year, week, weekday) = date.to_iso_week_date();
    let monday = day_of_date(date) - i64::from(weekday.number_days_from_monday());
    (i64::from(year), u32::from(week), monday)
}

/// `(year, month, day, hour, minute, second)` of unix seconds, in UTC.
pub fn utc_parts(unix_secs: i64) -> (i64, u32, u32, u32, u32, u32) {
    let at = utc(unix_secs);
    (
        i64::from(at.year()),
        u32::from(u8::from(at.month())),
        u32::from(at.day()),
        u32::from(at.hour()),
        u32::from(at.minute()),
        u32::from(at.second()),
    )
}

/// A moment as `2026-11-21T14:03:05Z`.
pub fn utc_text(unix_secs: i64) -> String {
    let (y, mo, d, h, mi, s) = utc_parts(unix_secs);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}

/// The UTC date of `unix_secs` as `2026-11-21` (the name the log appender gives each day's file).
pub fn utc_date_text(unix_secs: i64) -> String {
    let (y, mo, d, ..) = utc_parts(unix_secs);
    format!("{y:04}-{mo:02}-{d:02}")
}

/// Now, in unix seconds.
pub fn now_secs() -> i64 {
    utc_now_secs(std::time::SystemTime::now())
}

/// `at` in unix seconds (0 before 1970, which a clock set that far back gives).
pub fn utc_now_secs(at: std::time::SystemTime) -> i64 {
    at.duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_calendar_is_utc_with_iso_weeks() {
        // Against known dates, including before 1970 and a leap day.
        for (date, days) in [
            ((1970, 1, 1), 0),
            ((1969, 12, 31), -1),
            ((2024, 2, 29), 19_782),
            ((2026, 12, 31), 20_818),
            ((2000, 3, 1), 11_017),
        ] {
            assert_eq!(days_from_civil(date.0, date.1, date.2), days, "{date:?}");
            assert_eq!(civil_from_days(days), date);
        }
        // Every day of 1600–2400 goes there and back, one day after another.
        let mut previous = days_from_civil(1600, 1, 1) - 1;
        for days in days_from_civil(1600, 1, 1)..days_from_civil(2400, 1, 1) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
            assert_eq!(days, previous + 1);
            previous = days;
        }
        // ISO weeks, against the definition: week 1 starts on the Monday on or before 4 January.
        let week_one = |year: i64| {
            let jan4 = days_from_civil(year, 1, 4);
            jan4 - (jan4 + 3).rem_euclid(7)
        };
        for days in days_from_civil(1990, 1, 1)..days_from_civil(2050, 1, 1) {
            let (y, _, _) = civil_from_days(days);
            let year = [y + 1, y, y - 1]
                .into_iter()
                .find(|&year| days >= week_one(year))
                .unwrap();
            let week = (days - week_one(year)) / 7 + 1;
            assert_eq!(iso_week(days).0, year);
            assert_eq!(i64::from(iso_week(days).1), week);
            assert_eq!(iso_week(days).2, days - (days + 3).rem_euclid(7));
        }
        assert_eq!(utc_text(1_795_269_785), "2026-11-21T14:03:05Z");
        assert_eq!(utc_text(-1), "1969-12-31T23:59:59Z");
    }

    #[test]
    fn utc_parts_are_calendar_dates() {
        assert_eq!(utc_parts(0), (1970, 1, 1, 0, 0, 0));
        assert_eq!(utc_parts(1_763_700_000), (2025, 11, 21, 4, 40, 0));
        assert_eq!(utc_parts(951_827_696), (2000, 2, 29, 12, 34, 56));
        assert_eq!(utc_date_text(951_827_696), "2000-02-29");
    }

    #[test]
    fn moments_a_gateway_cannot_mean_stay_in_the_calendar() {
        assert_eq!(utc_text(i64::MAX), "9999-12-31T23:59:59Z");
        assert_eq!(utc_text(i64::MIN), "-9999-01-01T00:00:00Z");
        assert_eq!(civil_from_days(i64::MAX), (9_999, 12, 31));
        assert_eq!(iso_week(i64::MIN).1, 1);
        assert_eq!(days_from_civil(2026, 2, 30), days_from_civil(2026, 1, 1));
    }
}
