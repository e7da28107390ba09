//! The pace near an order's estimate. An order ends around the time its quote estimated, so that is when reading it
//! often pays: from a while before the estimate until well after it, the order is read every [`Timing::near`] (the
//! app then notices an ending within that time of the gateway reporting it); before that window it is read at the
//! calm pace but never later than the window's opening; after the window, at the calm pace again, which spares the
//! gateway's rate limit for an order that is simply late. Pure functions of the order's age and estimate.
//!
//! [`Timing::near`]: super::Timing::near

use std::time::Duration;

/// The near pace starts at least this long before the estimate.
pub const NEAR_LEAD_MIN: Duration = Duration::from_secs(60);
/// It ends at least this long after the estimate.
pub const NEAR_TAIL_MIN: Duration = Duration::from_secs(5 * 60);
/// And at most this long after it: an order this late is read at the calm pace (up to [`super::Timing::slow_max`]).
pub const NEAR_TAIL_MAX: Duration = Duration::from_secs(30 * 60);

/// The ages of an order between which it is read at the near pace, for an estimate of `estimate`: from a quarter of
/// the estimate before it (at least [`NEAR_LEAD_MIN`], not before the start) until as long again after it (between
/// [`NEAR_TAIL_MIN`] and [`NEAR_TAIL_MAX`]). `None` for a zero estimate (the gateway gave none).
pub fn near_window(estimate: Duration) -> Option<(Duration, Duration)> {
    if estimate.is_zero() {
        return None;
    }
    let lead = (estimate / 4).max(NEAR_LEAD_MIN);
    let tail = estimate.clamp(NEAR_TAIL_MIN, NEAR_TAIL_MAX);
    Some((estimate.saturating_sub(lead), estimate.saturating_add(tail)))
}

/// How long to wait before the next read of an order `age` after its start with the quote's `estimate`, when the
/// calm schedule (after a change, doubled while nothing changes) says `calm`: at most `near` inside the
/// [`near_window`], at most until the window opens before it, and `calm` after it or without an estimate.
pub fn wait(calm: Duration, near: Duration, age: Duration, estimate: Option<Duration>) -> Duration {
    let Some((opens, closes)) = estimate.and_then(near_window) else {
        return calm;
    };
    if age < opens {
        calm.min(opens - age)
    } else if age < closes {
        calm.min(near)
    } else {
        calm
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    const MIN: u64 = 60;

    #[test]
    fn the_window_opens_a_quarter_before_the_estimate_and_closes_as_long_after() {
        // An onramp's 10 min: from 7 min 30 s to 20 min.
        assert_eq!(
            near_window(secs(10 * MIN)),
            Some((secs(450), secs(20 * MIN)))
        );
        // A token swap's 2 min: from 1 min (the lead is at least a minute) to 7 min (the tail at least 5 min).
        assert_eq!(near_window(secs(2 * MIN)), Some((secs(MIN), secs(7 * MIN))));
        // An offramp's 30 min: from 22 min 30 s to 60 min.
        assert_eq!(
            near_window(secs(30 * MIN)),
            Some((secs(1350), secs(60 * MIN)))
        );
        // A 2 h estimate: the tail is at most 30 min.
        assert_eq!(
            near_window(secs(120 * MIN)),
            Some((secs(90 * MIN), secs(150 * MIN)))
        );
        // Shorter than the lead: from the start.
        assert_eq!(
            near_window(secs(30)),
            Some((Duration::ZERO, secs(30 + 5 * MIN)))
        );
        assert_eq!(near_window(Duration::ZERO), None);
        // An absurd estimate does not overflow.
        assert_eq!(
            near_window(Duration::MAX).map(|(_, closes)| closes),
            Some(Duration::MAX)
        );
    }

    #[test]
    fn near_the_estimate_an_order_is_read_every_ten_seconds_and_far_from_it_at_the_calm_pace() {
        let near = secs(10);
        let estimate = Some(secs(10 * MIN));
        let at = |calm: u64, age: u64| wait(secs(calm), near, secs(age), estimate).as_secs();
        // Long before the window: the calm pace (15 s after a change, doubled up to 60 s while nothing changes).
        assert_eq!(at(15, 0), 15);
        assert_eq!(at(60, 2 * MIN), 60);
        // Approaching it: not later than its opening at 7 min 30 s.
        assert_eq!(at(60, 400), 50);
        assert_eq!(at(60, 449), 1);
        // Inside: every 10 s, or sooner when the calm pace is faster (5 s after a registration).
        for age in [450, 9 * MIN, 10 * MIN, 15 * MIN, 20 * MIN - 1] {
            assert_eq!(at(60, age), 10, "at {age} s");
        }
        assert_eq!(at(5, 10 * MIN), 5);
        // Well after it: the calm pace again.
        assert_eq!(at(60, 20 * MIN), 60);
        assert_eq!(at(60, 3 * 60 * MIN), 60);
        // Without an estimate: the calm pace throughout.
        assert_eq!(wait(secs(60), near, secs(10 * MIN), None), secs(60));
        assert_eq!(
            wait(secs(60), near, secs(10 * MIN), Some(Duration::ZERO)),
            secs(60)
        );
    }

    #[test]
    fn the_longest_wait_inside_the_window_is_the_near_pace_at_every_second() {
        // The promise behind "noticed within 10 s": no age in the window, whatever the calm pace, waits longer.
        for estimate in [30, 2 * MIN, 10 * MIN, 30 * MIN] {
            let (opens, closes) = near_window(secs(estimate)).unwrap();
            for age in opens.as_secs()..closes.as_secs() {
                let waited = wait(secs(60), secs(10), secs(age), Some(secs(estimate)));
                assert!(
                    waited <= secs(10),
                    "estimate {estimate} s, age {age} s: {waited:?}"
                );
            }
        }
    }
}
