//! Reads the root `tauri.conf.json`, generates the app's command permissions and checks the capabilities.

const COMMANDS: &[&str] = &[
    "get_settings",
    "select_network",
    "list_routes",
    "request_quote",
    "start_order",
    "hand_in",
    "resume_order",
    "discard_order",
    "abandon_order",
    "acknowledge_order",
    "list_orders",
    "refresh_orders",
    "order_next_check",
    "watch_address",
    "unwatch_address",
    "set_api_key",
    "remove_api_key",
    "set_api_version",
    "set_bitcoin_network",
    "set_blind_signing",
    "set_evm_endpoints",
    "check_evm_endpoint",
    "set_theme",
    "save_psbt",
    "psbt_export",
    "open_explorer",
    "qr_svg",
    "set_affiliates",
    "partner_dashboard",
    "save_dashboard_csv",
    "support_lookup",
    "bundle_preview",
    "save_bundle",
    "import_bundle",
    "open_bundle_file",
    "reproduce_quote",
    "reveal_path",
    "wallet_status",
    "wallet_new",
    "wallet_confirm_new",
    "wallet_cancel_new",
    "wallet_import",
    "wallet_import_key",
    "wallet_unlock",
    "wallet_lock",
    "wallet_reveal",
    "wallet_remove",
    "sign_with_wallet",
    "wallet_balance",
    "wallet_evm_balance",
    "wallet_evm_plan",
    "wallet_solana_plan",
    "wallet_solana_step",
    "wallet_evm_step",
];

fn main() {
    // The capabilities are compiled into the app (`generate_context!`); tauri-build does not watch this folder.
    println!("cargo:rerun-if-changed=src-tauri/capabilities");
    let attributes = tauri_build::Attributes::new()
        .capabilities_path_pattern("./src-tauri/capabilities/**/*")
        .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS));
    tauri_build::try_build(attributes).expect("tauri-build failed");
}
