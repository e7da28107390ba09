//! The window of Gateway Desk: Tauri commands and events that hand work to `desk-core`.
//!
//! Nothing here decides anything a test without a window could not reach: the logic lives in `desk-core`.
#![deny(unsafe_code)]

#[cfg(test)]
mod args_bindings;
#[cfg(test)]
mod command_list;
mod commands;
mod dialogs;
mod events;
#[cfg(test)]
mod ipc_tests;
mod logging;
mod opener;
mod wallet_commands;
mod webview;

use desk_core::{AppPaths, Desk};
use tauri::webview::PageLoadEvent;
use tauri::{Manager, RunEvent, Runtime};
use tracing::{error, info};

/// The line printed on standard output once the window's page has loaded (`cargo xtask run --xvfb` waits for it).
pub const READY_LINE: &str = "GATEWAY_DESK_READY";

/// The line printed on standard output once the window has painted its first view with the routes, followed by the
/// milliseconds since the app started (`cargo xtask bench` reads it).
pub const PAINTED_LINE: &str = "GATEWAY_DESK_PAINTED";

/// When the app started, for the start-up figure in the log.
static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// Logs, once, that the window painted its first view with the routes and how long after the start.
pub(crate) fn painted() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let ms = STARTED.get().map_or(0, |s| s.elapsed().as_millis());
        info!(ms, "the window painted its first view with the routes");
        println!("{PAINTED_LINE} {ms}");
        webview::after_first_paint();
    });
}

/// The plugins and every command the window may call, on any runtime (the tests use Tauri's mock runtime). Each
/// command is also listed in `command_list.rs` (read by `build.rs`) and allowed in `capabilities/main.json`; a command
/// with arguments takes one `<Command>Args` struct, whose TypeScript type the window sends (`args_bindings.rs`).
fn with_commands<R: Runtime>(builder: tauri::Builder<R>) -> tauri::Builder<R> {
    builder
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_notification::init())
        .plugin(tauri_plugin_opener::init())
        .invoke_handler(tauri::generate_handler![
            commands::get_settings,
            commands::window_painted,
            commands::select_network,
            commands::list_routes,
            commands::request_quote,
            commands::start_order,
            commands::hand_in,
            commands::resume_order,
            commands::discard_order,
            commands::abandon_order,
            commands::acknowledge_order,
            commands::list_orders,
            commands::refresh_orders,
            commands::order_next_check,
            commands::sandbox_clock,
            commands::sandbox_advance,
            commands::sandbox_finish_pending,
            commands::watch_address,
            commands::unwatch_address,
            commands::set_api_key,
            commands::remove_api_key,
            commands::set_api_version,
            commands::set_bitcoin_network,
            commands::set_blind_signing,
            commands::set_sandbox_production_shape,
            commands::set_chain_endpoints,
            commands::check_chain_endpoint,
            commands::set_theme,
            commands::save_psbt,
            commands::psbt_export,
            commands::open_explorer,
            commands::qr_svg,
            commands::set_affiliates,
            commands::partner_dashboard,
            commands::save_dashboard_csv,
            commands::support_lookup,
            commands::bundle_preview,
            commands::save_bundle,
            commands::import_bundle,
            commands::open_bundle_file,
            commands::reproduce_quote,
            commands::reveal_path,
            wallet_commands::wallet_status,
            wallet_commands::wallet_new,
            wallet_commands::wallet_confirm_new,
            wallet_commands::wallet_cancel_new,
            wallet_commands::wallet_import,
            wallet_commands::wallet_import_key,
            wallet_commands::wallet_unlock,
            wallet_commands::wallet_lock,
            wallet_commands::wallet_reveal,
            wallet_commands::wallet_remove,
            wallet_commands::wallet_balance,
            wallet_commands::wallet_plan,
            wallet_commands::wallet_step
        ])
}

/// Runs the application until its window is closed.
pub fn run() {
    STARTED.get_or_init(std::time::Instant::now);
    let webkit = webview::before_threads();
    let Some(paths) = AppPaths::from_env() else {
        eprintln!(
            "Gateway Desk cannot find a home folder for its settings; set GATEWAY_DESK_HOME to a folder."
        );
        std::process::exit(1);
    };
    logging::init(&paths.log_dir);
    info!(version = env!("CARGO_PKG_VERSION"), config = %paths.config_dir.display(), "starting Gateway Desk");
    info!("{webkit}");
    webview::before_window();

    let app = with_commands(tauri::Builder::default())
        .setup(move |app| {
            match app.get_webview_window("main") {
                Some(window) => webview::tune(&window),
                None => tracing::warn!("no main window at setup; WebKitGTK's defaults apply"),
            }
            // Statuses first seen from now on are news worth a desktop notification.
            let since = events::unix_now();
            // Tests move Sandbox orders along through gateway-sim's admin interface; off unless asked for.
            let options = desk_core::DeskOptions {
                sandbox_admin: std::env::var_os("GATEWAY_DESK_SANDBOX_ADMIN")
                    .is_some_and(|v| v == "1"),
                ..Default::default()
            };
            let desk =
                tauri::async_runtime::block_on(desk_sandbox::open_desk_with(paths, options))?;
            let updates = desk.subscribe();
            app.manage(desk);
            events::forward(app.handle().clone(), updates, since);
            Ok(())
        })
        .on_page_load(|_webview, payload| {
            if payload.event() == PageLoadEvent::Finished {
                info!("window loaded");
                println!("{READY_LINE}");
            }
        })
        .build(tauri::generate_context!());
    let app = match app {
        Ok(app) => app,
        Err(e) => {
            error!(error = %e, "the window could not be created");
            eprintln!("Gateway Desk could not start its window: {e}");
            logging::finish();
            std::process::exit(1);
        }
    };
    app.run(|handle, event| {
        if let RunEvent::Exit = event
            && let Some(desk) = handle.try_state::<Desk>()
        {
            tauri::async_runtime::block_on(desk.shutdown());
            info!("Gateway Desk stopped");
        }
        if let RunEvent::Exit = event {
            // The event loop ends the process itself, so the log is written out here.
            logging::finish();
        }
    });
}
