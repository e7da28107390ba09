//! The simulated gateway's clock: the system time plus an offset that tests (and the admin endpoint) advance.
//!
//! Quote lifetimes, order timelines and rate windows all read this clock, so advancing it moves an order from
//! `inProgress` to its ending without waiting.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// A clock in unix seconds that can only move forward.
#[derive(Debug, Clone, Default)]
pub struct Clock {
    offset: Arc<AtomicU64>,
}

impl Clock {
    /// The real time, not advanced.
    pub fn new() -> Self {
        Self::default()
    }

    /// Seconds since the Unix epoch, including every advance.
    pub fn now(&self) -> u64 {
        let real = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        real.saturating_add(self.offset.load(Ordering::Relaxed))
    }

    /// Moves the clock `secs` seconds forward (shared by every copy of this clock) and gives the new time. The offset
    /// saturates instead of wrapping, so no advance, however large, can move the clock back.
    pub fn advance(&self, secs: u64) -> u64 {
        let _ = self
            .offset
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |offset| {
                Some(offset.saturating_add(secs))
            });
        self.now()
    }

    /// How far the clock has been advanced in total, in seconds.
    pub fn offset(&self) -> u64 {
        self.offset.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advancing_moves_every_copy() {
        let clock = Clock::new();
        let copy = clock.clone();
        let before = copy.now();
        clock.advance(3_600);
        assert!(copy.now() >= before + 3_600);
        assert_eq!(copy.offset(), 3_600);
    }

    #[test]
    fn no_advance_moves_the_clock_back() {
        let clock = Clock::new();
        clock.advance(3_600);
        let before = clock.now();
        // A wrapping add would take the offset back to 3_599.
        clock.advance(u64::MAX);
        assert!(clock.now() >= before);
        assert_eq!(clock.offset(), u64::MAX);
        clock.advance(1);
        assert_eq!(clock.offset(), u64::MAX);
    }
}
