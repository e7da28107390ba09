//! The wallet while the app runs: locked, or unlocked into zeroizing memory and locked again after idle minutes; and
//! a new recovery phrase waiting for the person to prove they wrote it down.
//!
//! The keeper holds no file, no log line and no event: the seed is dropped (and wiped) when the wallet locks, when the
//! idle time passes (checked on every use and by the desk's clock), and when the app ends.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use zeroize::Zeroizing;

use super::{Seed, WalletError};

/// How long an unlocked wallet stays unlocked without being used.
pub const DEFAULT_IDLE: Duration = Duration::from_secs(5 * 60);
/// How many words of a new phrase the person types back.
pub const CHECKED_WORDS: usize = 3;
/// How long a new phrase waits for its check.
pub const PENDING_FOR: Duration = Duration::from_secs(30 * 60);

struct Unlocked {
    seed: Seed,
    last_used: Instant,
}

/// A new phrase shown once, not yet stored.
struct Pending {
    phrase: Zeroizing<String>,
    /// 0-based positions the person must type back.
    positions: [usize; CHECKED_WORDS],
    created: Instant,
}

#[derive(Default)]
struct State {
    unlocked: Option<Unlocked>,
    pending: Option<Pending>,
}

/// The unlocked wallet, if it is, and the new phrase being checked.
pub struct Keeper {
    idle: Duration,
    state: Mutex<State>,
}

impl std::fmt::Debug for Keeper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Keeper")
            .field("idle", &self.idle)
            .field("unlocked", &self.is_unlocked())
            .finish()
    }
}

impl Keeper {
    /// A locked keeper that locks again after `idle` without use.
    pub fn new(idle: Duration) -> Self {
        Self {
            idle,
            state: Mutex::default(),
        }
    }

    /// The idle time after which the wallet locks.
    pub fn idle(&self) -> Duration {
        self.idle
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while holding the lock leaves nothing half-written worth refusing over.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Keeps `seed` unlocked from now.
    pub fn unlock(&self, seed: Seed) {
        self.state().unlocked = Some(Unlocked {
            seed,
            last_used: Instant::now(),
        });
    }

    /// Locks (wipes the seed). Gives whether it was unlocked.
    pub fn lock(&self) -> bool {
        self.state().unlocked.take().is_some()
    }

    /// Locks when the idle time has passed; gives whether it locked now. The desk's clock calls this.
    pub fn expire(&self, now: Instant) -> bool {
        let mut state = self.state();
        let idle = state
            .unlocked
            .as_ref()
            .is_some_and(|u| now.saturating_duration_since(u.last_used) >= self.idle);
        if idle {
            state.unlocked = None;
        }
        if state
            .pending
            .as_ref()
            .is_some_and(|p| now.saturating_duration_since(p.created) >= PENDING_FOR)
        {
            state.pending = None;
        }
        idle
    }

    /// Whether the wallet is unlocked (and not idle past its time).
    pub fn is_unlocked(&self) -> bool {
        self.expire(Instant::now());
        self.state().unlocked.is_some()
    }

    /// How long until it locks, when unlocked.
    pub fn locks_in(&self) -> Option<Duration> {
        self.expire(Instant::now());
        self.state()
            .unlocked
            .as_ref()
            .map(|u| self.idle.saturating_sub(u.last_used.elapsed()))
    }

    /// Runs `f` with the seed and counts it as use; `None` when the wallet is locked.
    pub fn with_seed<R>(&self, f: impl FnOnce(&Seed) -> R) -> Option<R> {
        self.expire(Instant::now());
        let mut state = self.state();
        let unlocked = state.unlocked.as_mut()?;
        unlocked.last_used = Instant::now();
        Some(f(&unlocked.seed))
    }

    /// Makes a new phrase of `words` words and keeps it for the check; gives the phrase and the 1-based positions of
    /// the words to type back. A new call replaces a phrase not yet checked.
    pub fn begin_new(
        &self,
        words: usize,
    ) -> Result<(Zeroizing<String>, [usize; CHECKED_WORDS]), WalletError> {
        let phrase = super::new_phrase(words)?;
        let positions = pick_positions(words);
        self.state().pending = Some(Pending {
            phrase: phrase.clone(),
            positions,
            created: Instant::now(),
        });
        Ok((phrase, positions.map(|p| p + 1)))
    }

    /// Checks the typed-back words against the waiting phrase (case and spacing ignored) and, when they match, gives
    /// the phrase and forgets it here. A wrong word keeps the phrase waiting.
    pub fn finish_new(&self, answers: &[String]) -> Result<Zeroizing<String>, CheckError> {
        let mut state = self.state();
        let pending = state.pending.as_ref().ok_or(CheckError::NothingPending)?;
        if pending.created.elapsed() >= PENDING_FOR {
            state.pending = None;
            return Err(CheckError::NothingPending);
        }
        let words: Vec<&str> = pending.phrase.split(' ').collect();
        if answers.len() != CHECKED_WORDS {
            return Err(CheckError::Wrong {
                positions: pending.positions.map(|p| p + 1).to_vec(),
            });
        }
        let wrong: Vec<usize> = pending
            .positions
            .iter()
            .zip(answers)
            .filter(|(position, answer)| !answer.trim().eq_ignore_ascii_case(words[**position]))
            .map(|(position, _)| position + 1)
            .collect();
        if !wrong.is_empty() {
            return Err(CheckError::Wrong { positions: wrong });
        }
        let pending = state.pending.take().ok_or(CheckError::NothingPending)?;
        Ok(pending.phrase)
    }

    /// Forgets a new phrase that was not checked.
    pub fn cancel_new(&self) {
        self.state().pending = None;
    }
}

/// Why the typed-back words were not taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// No new phrase is waiting: none was made, or it was forgotten ([`PENDING_FOR`] passed, or the app restarted).
    #[error(
        "There is no new recovery phrase waiting to be checked (it is forgotten after 30 minutes or when the app \
         restarts). Start again with \"Create a wallet\"."
    )]
    NothingPending,
    /// Some typed-back words do not match; the phrase keeps waiting.
    #[error(
        "Word{} {} do{} not match the recovery phrase. Look at what you wrote down and type {} again; nothing was \
         stored yet.",
        if positions.len() == 1 { "" } else { "s" },
        list(positions),
        if positions.len() == 1 { "es" } else { "" },
        if positions.len() == 1 { "it" } else { "them" }
    )]
    Wrong {
        /// The positions of the words that do not match, from 1, as the phrase was shown.
        positions: Vec<usize>,
    },
}

fn list(positions: &[usize]) -> String {
    let numbers: Vec<String> = positions.iter().map(|p| format!("#{p}")).collect();
    numbers.join(", ")
}

/// Three distinct positions among `words`, in increasing order, from the operating system's randomness.
fn pick_positions(words: usize) -> [usize; CHECKED_WORDS] {
    let mut chosen: Vec<usize> = Vec::with_capacity(CHECKED_WORDS);
    while chosen.len() < CHECKED_WORDS.min(words) {
        let mut byte = [0u8; 2];
        // The OS source the vault uses; a failure is practically impossible, and the positions then fall back to
        // the first free ones, which is still a check.
        let candidate = if super::vault::getrandom(&mut byte).is_ok() {
            usize::from(u16::from_le_bytes(byte)) % words
        } else {
            chosen.len()
        };
        if !chosen.contains(&candidate) {
            chosen.push(candidate);
        }
    }
    chosen.sort_unstable();
    let mut out = [0usize; CHECKED_WORDS];
    out.copy_from_slice(&chosen[..CHECKED_WORDS]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const ABANDON: &str = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

    fn seed() -> Seed {
        Seed::from_phrase(ABANDON, "").unwrap()
    }

    #[test]
    fn an_unlocked_wallet_locks_after_its_idle_time_and_use_keeps_it_open() {
        let keeper = Keeper::new(Duration::from_secs(60));
        assert!(!keeper.is_unlocked());
        assert_eq!(keeper.with_seed(|_| ()), None);
        keeper.unlock(seed());
        assert!(keeper.is_unlocked());
        let start = Instant::now();
        assert!(!keeper.expire(start + Duration::from_secs(30)));
        assert!(keeper.with_seed(|s| s.bytes().map(|b| b[0])).is_some());
        assert!(keeper.expire(Instant::now() + Duration::from_secs(61)));
        assert!(!keeper.is_unlocked());
        assert_eq!(keeper.with_seed(|_| ()), None);
        keeper.unlock(seed());
        assert!(keeper.lock());
        assert!(!keeper.lock());
    }

    #[test]
    fn a_new_phrase_is_kept_until_three_of_its_words_are_typed_back() {
        let keeper = Keeper::new(DEFAULT_IDLE);
        assert_eq!(
            keeper.finish_new(&["a".into(), "b".into(), "c".into()]),
            Err(CheckError::NothingPending)
        );
        let (phrase, positions) = keeper.begin_new(12).unwrap();
        let words: Vec<&str> = phrase.split(' ').collect();
        assert_eq!(words.len(), 12);
        assert!(positions.windows(2).all(|w| w[0] < w[1]));
        assert!(positions.iter().all(|p| (1..=12).contains(p)));
        let right: Vec<String> = positions
            .iter()
            .map(|p| words[p - 1].to_uppercase())
            .collect();
        let mut wrong = right.clone();
        wrong[1] = "zzz".into();
        let refused = keeper.finish_new(&wrong).unwrap_err();
        assert_eq!(
            refused,
            CheckError::Wrong {
                positions: vec![positions[1]]
            }
        );
        assert!(refused.to_string().contains("nothing was stored"));
        // Still waiting after a wrong word; the right words give the phrase once.
        assert_eq!(keeper.finish_new(&right).unwrap().as_str(), phrase.as_str());
        assert_eq!(keeper.finish_new(&right), Err(CheckError::NothingPending));
    }

    #[test]
    fn the_keeper_never_prints_its_seed() {
        let keeper = Keeper::new(DEFAULT_IDLE);
        keeper.unlock(seed());
        let shown = format!("{keeper:?}");
        assert!(shown.contains("unlocked: true"));
        assert!(!shown.contains("5eb00b"));
    }
}
