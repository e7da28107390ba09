//! Logs: standard error and a daily file in the platform's log folder, redacted (`desk_core::logs`).

use std::path::Path;

use desk_core::logs::{self, LogGuard};

/// Starts logging; keep the guard alive until exit so the file is flushed. When the log folder cannot be used the
/// app logs to standard error only and says why.
pub fn init(log_dir: &Path) -> Option<LogGuard> {
    match logs::init(log_dir, logs::FILTER_ENV) {
        Ok(guard) => Some(guard),
        Err(e) => {
            if logs::init_stderr(logs::FILTER_ENV).is_ok() {
                tracing::warn!(error = %e, "logging to standard error only");
            }
            None
        }
    }
}
