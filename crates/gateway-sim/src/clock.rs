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

    /// Moves the clock `secs` seconds forward (shared by every copy of this clock) and gives the new time.
    pub fn advance(&self, secs: u64) -> u64 {
        self.offset.fetch_add(secs, Ordering::Relaxed);
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
}
