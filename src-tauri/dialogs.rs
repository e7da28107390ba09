//! The file dialogs the commands open from Rust (the window is granted none of the dialog plugin's commands), each
//! attached to the window: where to save a file, and which support bundle to open.

use std::path::PathBuf;

use desk_core::{DeskError, ErrorKind};
use tauri::{Runtime, WebviewWindow};
use tauri_plugin_dialog::{DialogExt, FilePath};
use tokio::sync::oneshot;

/// What a save dialog offers: its title, the file name it proposes, and the one file type.
pub(crate) struct SaveAs<'a> {
    /// The dialog's title.
    pub(crate) title: &'a str,
    /// The file name it proposes.
    pub(crate) file_name: String,
    /// The one file type: its name and extensions.
    pub(crate) filter: (&'a str, &'a [&'a str]),
}

fn dialog_failed(reason: String) -> DeskError {
    DeskError::new(
        ErrorKind::InvalidInput,
        format!(
            "The file dialog could not be used ({reason}). Nothing was saved or read; try again, and restart the app if it keeps failing."
        ),
    )
}

/// The path a dialog answered, `None` when the person cancelled.
async fn chosen(rx: oneshot::Receiver<Option<FilePath>>) -> Result<Option<PathBuf>, DeskError> {
    let chosen = rx
        .await
        .map_err(|_| dialog_failed("it closed without an answer".to_owned()))?;
    chosen
        .map(|path| path.into_path().map_err(|e| dialog_failed(e.to_string())))
        .transpose()
}

/// The save dialog, attached to the window; `None` when the person cancels.
pub(crate) async fn ask_where<R: Runtime>(
    window: &WebviewWindow<R>,
    what: SaveAs<'_>,
) -> Result<Option<PathBuf>, DeskError> {
    let (tx, rx) = oneshot::channel();
    window
        .dialog()
        .file()
        .set_parent(window)
        .set_title(what.title)
        .set_file_name(what.file_name)
        .add_filter(what.filter.0, what.filter.1)
        .save_file(move |path| {
            let _ = tx.send(path);
        });
    chosen(rx).await
}

/// The open dialog for a support bundle, attached to the window; `None` when the person cancels.
pub(crate) async fn ask_for_bundle<R: Runtime>(
    window: &WebviewWindow<R>,
) -> Result<Option<PathBuf>, DeskError> {
    let (tx, rx) = oneshot::channel();
    window
        .dialog()
        .file()
        .set_parent(window)
        .set_title("Open a support bundle")
        .add_filter("Gateway Desk support bundle", &["json"])
        .pick_file(move |path| {
            let _ = tx.send(path);
        });
    chosen(rx).await
}
