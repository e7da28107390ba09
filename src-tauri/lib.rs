//! The window of Gateway Desk: Tauri commands and events that hand work to `desk-core`.
//!
//! Nothing here decides anything a test without a window could not reach: the logic lives in `desk-core`.
#![deny(unsafe_code)]

mod commands;
mod logging;

use desk_core::{AppPaths, Desk};
use tauri::webview::PageLoadEvent;
use tauri::{Manager, RunEvent};
use tracing::{error, info};

/// The line printed on standard output once the window's page has loaded (`cargo xtask run --xvfb` waits for it).
pub const READY_LINE: &str = "GATEWAY_DESK_READY";

/// Runs the application until its window is closed.
pub fn run() {
    let Some(paths) = AppPaths::from_env() else {
        eprintln!(
            "Gateway Desk cannot find a home folder for its settings; set GATEWAY_DESK_HOME to a folder."
        );
        std::process::exit(1);
    };
    let _log_guard = logging::init(&paths.log_dir);
    info!(version = env!("CARGO_PKG_VERSION"), config = %paths.config_dir.display(), "starting Gateway Desk");

    let app = tauri::Builder::default()
        .setup(move |app| {
            // Tests move Sandbox orders along through gateway-sim's admin interface; off unless asked for.
            let options = desk_core::DeskOptions {
                sandbox_admin: std::env::var_os("GATEWAY_DESK_SANDBOX_ADMIN")
                    .is_some_and(|v| v == "1"),
                ..Default::default()
            };
            let desk = tauri::async_runtime::block_on(Desk::open_with(paths, options))?;
            app.manage(desk);
            Ok(())
        })
        .on_page_load(|_webview, payload| {
            if payload.event() == PageLoadEvent::Finished {
                info!("window loaded");
                println!("{READY_LINE}");
            }
        })
        .invoke_handler(tauri::generate_handler![
            commands::get_settings,
            commands::select_network,
            commands::list_routes
        ])
        .build(tauri::generate_context!());
    let app = match app {
        Ok(app) => app,
        Err(e) => {
            error!(error = %e, "the window could not be created");
            eprintln!("Gateway Desk could not start its window: {e}");
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
    });
}
