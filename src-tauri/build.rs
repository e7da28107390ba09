//! Reads the root `tauri.conf.json`, generates the app's command permissions and checks the capabilities.

const COMMANDS: &[&str] = &["get_settings", "select_network", "list_routes"];

fn main() {
    let attributes = tauri_build::Attributes::new()
        .capabilities_path_pattern("./src-tauri/capabilities/**/*")
        .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS));
    tauri_build::try_build(attributes).expect("tauri-build failed");
}
