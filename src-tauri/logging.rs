//! Logs: standard error and a daily file in the platform's log folder, redacted (`desk_core::logs`); and what a panic
//! leaves behind.

use std::path::Path;
use std::sync::Mutex;

use desk_core::logs::{self, LogGuard};

/// The file log's guard: dropping it writes out what the log's writer thread still holds.
static GUARD: Mutex<Option<LogGuard>> = Mutex::new(None);

/// Starts logging until [`finish`]. When the log folder cannot be used the app logs to standard error only and says
/// why. A panic is logged (through the same redaction) and the file written out before the process ends: the release
/// build aborts on a panic (see the root Cargo.toml), which would otherwise lose the lines still in the writer.
pub fn init(log_dir: &Path) {
    match logs::init(log_dir, logs::FILTER_ENV) {
        Ok(guard) => *GUARD.lock().unwrap_or_else(|e| e.into_inner()) = Some(guard),
        Err(e) => {
            if logs::init_stderr(logs::FILTER_ENV).is_ok() {
                tracing::warn!(error = %e, "logging to standard error only");
            }
        }
    }
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // With logging on, the panic goes out only through the redacting log (its standard-error layer included):
        // the default hook would print the message to standard error unredacted. Without it, the default hook.
        if tracing::dispatcher::has_been_set() {
            tracing::error!(panic = %info, "Gateway Desk stopped on an internal error (a panic)");
            finish();
        } else {
            default_hook(info);
        }
    }));
}

/// Writes out the file log; the last thing before the process ends.
pub fn finish() {
    // `try_lock`: a panic while the guard is being set must not wait on itself.
    if let Ok(mut guard) = GUARD.try_lock() {
        drop(guard.take());
    }
}
