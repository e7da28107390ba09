//! Logs: to standard error and to a daily file in the platform's log folder.

use std::path::Path;

use tracing_appender::non_blocking::WorkerGuard;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt;
use tracing_subscriber::prelude::*;

/// Starts logging; keep the guard alive until exit so the file is flushed.
pub fn init(log_dir: &Path) -> Option<WorkerGuard> {
    let filter =
        || EnvFilter::try_from_env("GATEWAY_DESK_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    let stderr = fmt::layer()
        .with_writer(std::io::stderr)
        .with_filter(filter());
    let (file, guard) = match std::fs::create_dir_all(log_dir) {
        Ok(()) => {
            let appender = tracing_appender::rolling::Builder::new()
                .rotation(tracing_appender::rolling::Rotation::DAILY)
                .filename_prefix("gateway-desk")
                .filename_suffix("log")
                .max_log_files(14)
                .build(log_dir)
                .ok();
            match appender {
                Some(appender) => {
                    let (writer, guard) = tracing_appender::non_blocking(appender);
                    (
                        Some(
                            fmt::layer()
                                .with_ansi(false)
                                .with_writer(writer)
                                .with_filter(filter()),
                        ),
                        Some(guard),
                    )
                }
                None => (None, None),
            }
        }
        Err(_) => (None, None),
    };
    let _ = tracing_subscriber::registry()
        .with(stderr)
        .with(file)
        .try_init();
    guard
}
