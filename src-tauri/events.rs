//! Updates from `desk-core` to the window (the `desk-event` event) and to the desktop (a notification when one of
//! the app's own orders finishes).

use std::time::{SystemTime, UNIX_EPOCH};

use desk_core::DeskEvent;
use desk_core::notify::Notifier;
use tauri::{AppHandle, Emitter, Runtime};
use tauri_plugin_notification::NotificationExt;
use tokio::sync::broadcast::{self, error::RecvError};
use tracing::{debug, warn};

/// The event the window listens to (`DESK_EVENT` in `ui/src/lib/ipc.ts`).
pub const DESK_EVENT: &str = "desk-event";
/// The window the events go to.
const MAIN_WINDOW: &str = "main";

/// Unix seconds now.
pub fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// Sends every update to the window, and a desktop notification for each of the app's own orders that finishes
/// during this session (`since`: unix seconds, taken before `desk-core` started tracking).
pub fn forward<R: Runtime>(
    app: AppHandle<R>,
    mut events: broadcast::Receiver<DeskEvent>,
    since: i64,
) {
    tauri::async_runtime::spawn(async move {
        let mut notifier = Notifier::new(since);
        loop {
            let event = match events.recv().await {
                Ok(event) => event,
                Err(RecvError::Lagged(missed)) => {
                    warn!(missed, "updates to the window were missed");
                    continue;
                }
                Err(RecvError::Closed) => break,
            };
            if let Err(e) = app.emit_to(MAIN_WINDOW, DESK_EVENT, &event) {
                warn!(error = %e, "could not send an update to the window");
            }
            if let Some(note) = notifier.note_for(&event) {
                // Shown on a background task: without a notification server (under Xvfb, say) it is simply not
                // shown; only a notification that cannot even be prepared comes back as an error.
                match app
                    .notification()
                    .builder()
                    .title(note.title)
                    .body(&note.body)
                    .show()
                {
                    Ok(()) => {
                        debug!(title = note.title, body = %note.body, "desktop notification sent")
                    }
                    Err(e) => warn!(error = %e, "could not show a desktop notification"),
                }
            }
        }
    });
}
