//! The Tauri commands: each hands its work to `desk-core` and returns its typed result or structured error.
//!
//! Arguments arrive under the camelCase names the window uses (`localId` for `local_id`), Tauri 2's default.

use std::path::PathBuf;

use desk_core::api::{NetworkChoice, RouteView, SettingsView};
use desk_core::settings::Theme;
use desk_core::views::OrderView;
use desk_core::{Desk, DeskError, ErrorKind, QuoteResult, SwapForm};
use gateway_client::ApiVersion;
use serde_json::Value;
use tauri::{Runtime, State, WebviewWindow};
use tauri_plugin_dialog::DialogExt;
use tracing::info;

/// The settings and the network in use.
#[tauri::command]
pub async fn get_settings(desk: State<'_, Desk>) -> Result<SettingsView, DeskError> {
    Ok(desk.settings().await)
}

/// Switches network (starting the Sandbox gateway when it is chosen) and remembers the choice.
#[tauri::command]
pub async fn select_network(
    desk: State<'_, Desk>,
    choice: NetworkChoice,
) -> Result<SettingsView, DeskError> {
    desk.select_network(choice).await
}

/// Every route of the network in use, with token facts.
#[tauri::command]
pub async fn list_routes(desk: State<'_, Desk>) -> Result<Vec<RouteView>, DeskError> {
    desk.routes().await
}

/// A quote for what the swap form says, or a question to ask first.
#[tauri::command]
pub async fn request_quote(
    desk: State<'_, Desk>,
    form: SwapForm,
) -> Result<QuoteResult, DeskError> {
    desk.quote(&form).await
}

/// Starts an order from a quote exactly as the gateway sent it (the card's `raw`).
#[tauri::command]
pub async fn start_order(desk: State<'_, Desk>, quote: Value) -> Result<OrderView, DeskError> {
    desk.start_order(quote).await
}

/// Hands in the signed transaction (hex) or its id/hash for an order.
#[tauri::command]
pub async fn hand_in(
    desk: State<'_, Desk>,
    local_id: i64,
    text: String,
) -> Result<OrderView, DeskError> {
    desk.hand_in(local_id, &text).await
}

/// Takes an unfinished order one step on.
#[tauri::command]
pub async fn resume_order(desk: State<'_, Desk>, local_id: i64) -> Result<OrderView, DeskError> {
    desk.resume(local_id).await
}

/// Gives up an order that never reached the gateway, or one refused by verification.
#[tauri::command]
pub async fn discard_order(desk: State<'_, Desk>, local_id: i64) -> Result<OrderView, DeskError> {
    desk.discard(local_id).await
}

/// The app's own orders on the current network, then those of watched addresses.
#[tauri::command]
pub async fn list_orders(desk: State<'_, Desk>) -> Result<Vec<OrderView>, DeskError> {
    desk.orders().await
}

/// Reads every watched address and unfinished order now; the changes arrive as events.
#[tauri::command]
pub async fn refresh_orders(desk: State<'_, Desk>) -> Result<(), DeskError> {
    desk.refresh_now().await;
    Ok(())
}

/// Follows the orders of an address on the current network.
#[tauri::command]
pub async fn watch_address(
    desk: State<'_, Desk>,
    address: String,
) -> Result<SettingsView, DeskError> {
    desk.watch_address(&address).await
}

/// Stops following an address.
#[tauri::command]
pub async fn unwatch_address(
    desk: State<'_, Desk>,
    address: String,
) -> Result<SettingsView, DeskError> {
    desk.unwatch_address(&address).await
}

/// Stores (or replaces) the current network's API key in the keychain.
#[tauri::command]
pub async fn set_api_key(desk: State<'_, Desk>, key: String) -> Result<SettingsView, DeskError> {
    desk.set_api_key(&key).await
}

/// Removes the current network's API key from the keychain.
#[tauri::command]
pub async fn remove_api_key(desk: State<'_, Desk>) -> Result<SettingsView, DeskError> {
    desk.remove_api_key().await
}

/// Chooses the API version of the current network (`"v1"`, `"v2"` or `"v3"`).
#[tauri::command]
pub async fn set_api_version(
    desk: State<'_, Desk>,
    version: ApiVersion,
) -> Result<SettingsView, DeskError> {
    desk.set_api_version(version).await
}

/// Chooses the window's colours.
#[tauri::command]
pub async fn set_theme(desk: State<'_, Desk>, theme: Theme) -> Result<SettingsView, DeskError> {
    desk.set_theme(theme).await
}

/// Asks where to save an onramp order's PSBT and writes it there: the path, or `None` when the person cancels.
#[tauri::command]
pub async fn save_psbt<R: Runtime>(
    window: WebviewWindow<R>,
    desk: State<'_, Desk>,
    local_id: i64,
) -> Result<Option<String>, DeskError> {
    let bytes = desk.psbt(local_id)?;
    let Some(path) = ask_where(&window, local_id).await? else {
        return Ok(None);
    };
    let shown = path.display().to_string();
    tokio::task::spawn_blocking(move || std::fs::write(&path, &bytes))
        .await
        .map_err(|e| e.to_string())
        .and_then(|r| r.map_err(|e| e.to_string()))
        .map_err(|e| {
            DeskError::new(
                ErrorKind::InvalidInput,
                format!(
                    "The PSBT could not be written to {shown} ({e}). Choose another folder and try again."
                ),
            )
        })?;
    info!(local_id, path = %shown, "PSBT saved");
    Ok(Some(shown))
}

/// The save dialog, attached to the window; `None` when the person cancels.
async fn ask_where<R: Runtime>(
    window: &WebviewWindow<R>,
    local_id: i64,
) -> Result<Option<PathBuf>, DeskError> {
    let failed = |reason: String| {
        DeskError::new(
            ErrorKind::InvalidInput,
            format!(
                "The save dialog could not be used ({reason}). Nothing was saved; try again, and restart the app if it keeps failing."
            ),
        )
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    window
        .dialog()
        .file()
        .set_parent(window)
        .set_title("Save the PSBT to sign")
        .set_file_name(format!("order-{local_id}.psbt"))
        .add_filter("PSBT (BIP 174)", &["psbt"])
        .save_file(move |path| {
            let _ = tx.send(path);
        });
    let chosen = rx
        .await
        .map_err(|_| failed("it closed without an answer".to_owned()))?;
    chosen
        .map(|path| path.into_path().map_err(|e| failed(e.to_string())))
        .transpose()
}

/// Opens a block explorer's page in the system browser. Only links the app makes itself (a known explorer and a
/// transaction hash) are opened; anything else is refused.
#[tauri::command]
pub async fn open_explorer<R: Runtime>(
    app: tauri::AppHandle<R>,
    url: String,
) -> Result<(), DeskError> {
    use tauri_plugin_opener::OpenerExt;
    if !desk_core::views::is_explorer_url(&url) {
        return Err(DeskError::new(
            desk_core::ErrorKind::InvalidInput,
            "Only block-explorer links the app made can be opened.",
        ));
    }
    app.opener().open_url(url, None::<&str>).map_err(|e| {
        DeskError::new(
            desk_core::ErrorKind::Transport,
            format!("The browser could not be opened ({e}). Copy the transaction hash instead."),
        )
    })
}

/// A QR code of `text` (an address or a BIP 21 payment URI) as SVG markup, for the window to show inline.
#[tauri::command]
pub async fn qr_svg(text: String) -> Result<String, DeskError> {
    if text.is_empty() || text.len() > 512 {
        return Err(DeskError::new(
            desk_core::ErrorKind::InvalidInput,
            "A QR code holds an address or payment request of up to 512 characters.",
        ));
    }
    let code = qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::M)
        .map_err(|e| {
            DeskError::new(
                desk_core::ErrorKind::InvalidInput,
                format!("No QR code can hold this ({e})."),
            )
        })?;
    let svg = code
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(140, 140)
        .quiet_zone(true)
        .build();
    // Inline in the page: the `<svg>` element alone, without the XML declaration.
    Ok(svg
        .find("<svg")
        .map_or(svg.clone(), |start| svg[start..].to_owned()))
}
