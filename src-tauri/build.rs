//! Reads the root `tauri.conf.json`, generates the app's command permissions and checks the capabilities.

// The one list of commands (also read by the app's test of its handler, capability and window calls).
#[path = "command_list.rs"]
mod command_list;
use command_list::COMMANDS;

fn main() {
    // The capabilities are compiled into the app (`generate_context!`); tauri-build does not watch this folder.
    println!("cargo:rerun-if-changed=src-tauri/capabilities");
    let attributes = tauri_build::Attributes::new()
        .capabilities_path_pattern("./src-tauri/capabilities/**/*")
        .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS));
    tauri_build::try_build(attributes).expect("tauri-build failed");
}
