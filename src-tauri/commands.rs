//! The Tauri commands: each hands its work to `desk-core` and returns its typed result or structured error.

use desk_core::api::{NetworkChoice, RouteView, SettingsView};
use desk_core::{Desk, DeskError};
use tauri::State;

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
