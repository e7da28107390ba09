//! What the commands open outside the app, from Rust (the window is granted none of the opener plugin's commands):
//! a block explorer's page in the system browser, and one of the app's own files in the file manager.

use std::path::Path;

use desk_core::{DeskError, ErrorKind};
use tauri::{AppHandle, Runtime};
use tauri_plugin_opener::OpenerExt;

/// Opens a block explorer's page in the system browser. Only links the app makes itself (a known explorer and a
/// transaction hash) are opened; anything else is refused.
pub(crate) fn open_explorer<R: Runtime>(app: &AppHandle<R>, url: String) -> Result<(), DeskError> {
    if !desk_core::views::is_explorer_url(&url) {
        return Err(DeskError::new(
            ErrorKind::InvalidInput,
            "Only block-explorer links the app made can be opened.",
        ));
    }
    app.opener().open_url(url, None::<&str>).map_err(|e| {
        DeskError::new(
            ErrorKind::Transport,
            format!("The browser could not be opened ({e}). Copy the transaction hash instead."),
        )
    })
}

/// Shows `file` (already checked to be one of the app's own, [`desk_core::files::own_file`]) in the system's file
/// manager.
pub(crate) fn reveal<R: Runtime>(app: &AppHandle<R>, file: &Path) -> Result<(), DeskError> {
    app.opener().reveal_item_in_dir(file).map_err(|e| {
        DeskError::new(
            ErrorKind::Transport,
            format!(
                "The file manager could not be opened ({e}). The file is at {}.",
                file.display()
            ),
        )
    })
}
