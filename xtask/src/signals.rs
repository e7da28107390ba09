//! Stopping `cargo xtask run` on a signal: SIGINT (Ctrl-C), SIGTERM or SIGHUP set a flag that the run's waiting loops
//! read, so that they stop the app, the private D-Bus and Xvfb (in that order, by dropping them) before xtask exits.
//! A second SIGINT or SIGTERM while stopping ends xtask at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

/// Whether a stop was asked for by a signal.
#[derive(Clone)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// Installs the handlers (once per process).
    pub fn install() -> Result<Self> {
        let flag = Arc::new(AtomicBool::new(false));
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            // A signal that finds the flag already set (a second Ctrl-C) exits at once; the first sets it.
            signal_hook::flag::register_conditional_shutdown(signal, 130, flag.clone())
                .context("could not install the signal handler")?;
            signal_hook::flag::register(signal, flag.clone())
                .context("could not install the signal handler")?;
        }
        Ok(Self(flag))
    }

    /// True once a signal asked xtask to stop.
    pub fn requested(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// Sleeps for `wait`, or less if a stop is asked for meanwhile; true when it was.
    pub fn sleep(&self, wait: Duration) -> bool {
        let until = Instant::now() + wait;
        while Instant::now() < until {
            if self.requested() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50).min(until - Instant::now()));
        }
        self.requested()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A signal ends the wait at once and is remembered. (One signal only: a second would end the test process, as it
    /// ends xtask.)
    #[test]
    fn a_signal_ends_the_wait_and_stays_asked() {
        let stop = Stop::install().unwrap();
        assert!(!stop.requested());
        assert!(!stop.sleep(Duration::from_millis(20)));
        let raiser = std::thread::spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            signal_hook::low_level::raise(SIGHUP).unwrap();
        });
        assert!(stop.sleep(Duration::from_secs(600)));
        raiser.join().unwrap();
        assert!(stop.requested());
        assert!(
            stop.sleep(Duration::from_secs(600)),
            "already asked: no wait"
        );
    }
}
