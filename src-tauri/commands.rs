//! The Tauri commands: each hands its work to `desk-core` and returns its typed result or structured error.
//!
//! Each command that takes arguments reads them through one `<Command>Args` struct, its one parameter besides what
//! Tauri hands in (state, window, app handle): the window sends `{ args: { … } }`, with the fields under the camelCase
//! names the window uses (`localId` for `local_id`), and nothing else (`deny_unknown_fields`). In tests the structs
//! also derive `ts_rs::TS`, and `ui/src/lib/bindings/args/` holds their TypeScript types, which `ui/src/lib/ipc.ts`
//! sends: the window cannot send a shape Rust would refuse without `npm run check` failing (see `args_bindings.rs`).

use desk_core::api::{NetworkChoice, RouteView, SettingsView};
use desk_core::desk::SandboxClockView;
use desk_core::files;
use desk_core::partner::{Dashboard, DashboardQuery};
use desk_core::settings::{AffiliateEntry, Theme};
use desk_core::support::{
    BundleOptions, BundlePreview, ImportedBundle, LookupQuery, LookupResult, QuoteDiff,
    ReproduceSource,
};
use desk_core::views::OrderView;
use desk_core::{Desk, DeskError, QuoteResult, SwapForm};
use gateway_client::ApiVersion;
use serde::Deserialize;
use serde_json::Value;
use tauri::{Runtime, State, WebviewWindow};
use tracing::info;

use crate::{dialogs, opener};

/// The window painted its first view with the routes: logged once, with the time since the app started.
#[tauri::command]
pub fn window_painted() {
    crate::painted();
}

/// The settings and the network in use.
#[tauri::command]
pub async fn get_settings(desk: State<'_, Desk>) -> Result<SettingsView, DeskError> {
    Ok(desk.settings().await)
}

/// The arguments of the `select_network` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct SelectNetworkArgs {
    /// The network to use from now on.
    choice: NetworkChoice,
}

/// Switches network (starting the Sandbox gateway when it is chosen) and remembers the choice.
#[tauri::command]
pub async fn select_network(
    desk: State<'_, Desk>,
    args: SelectNetworkArgs,
) -> Result<SettingsView, DeskError> {
    desk.select_network(args.choice).await
}

/// Every route of the network in use, with token facts.
#[tauri::command]
pub async fn list_routes(desk: State<'_, Desk>) -> Result<Vec<RouteView>, DeskError> {
    desk.routes().await
}

/// The arguments of the `request_quote` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct RequestQuoteArgs {
    /// What the swap form says.
    form: SwapForm,
}

/// A quote for what the swap form says, or a question to ask first.
#[tauri::command]
pub async fn request_quote(
    desk: State<'_, Desk>,
    args: RequestQuoteArgs,
) -> Result<QuoteResult, DeskError> {
    desk.quote(&args.form).await
}

/// The arguments of the `start_order` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct StartOrderArgs {
    /// The quote exactly as the gateway sent it (the card's `raw`).
    quote: Value,
    /// The loss (in bps) the person confirmed, when the card says it needs confirming.
    accepted_loss_bps: Option<u32>,
}

/// Starts an order from a quote exactly as the gateway sent it (the card's `raw`).
#[tauri::command]
pub async fn start_order(
    desk: State<'_, Desk>,
    args: StartOrderArgs,
) -> Result<OrderView, DeskError> {
    desk.start_order(args.quote, args.accepted_loss_bps).await
}

/// The arguments of the `hand_in` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct HandInArgs {
    /// The journal's id of the order.
    #[cfg_attr(test, ts(type = "number"))]
    local_id: i64,
    /// The signed transaction (hex) or its id/hash.
    text: String,
}

/// Hands in the signed transaction (hex) or its id/hash for an order.
#[tauri::command]
pub async fn hand_in(desk: State<'_, Desk>, args: HandInArgs) -> Result<OrderView, DeskError> {
    desk.hand_in(args.local_id, &args.text).await
}

/// The arguments of the `resume_order` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct ResumeOrderArgs {
    /// The journal's id of the order.
    #[cfg_attr(test, ts(type = "number"))]
    local_id: i64,
}

/// Takes an unfinished order one step on.
#[tauri::command]
pub async fn resume_order(
    desk: State<'_, Desk>,
    args: ResumeOrderArgs,
) -> Result<OrderView, DeskError> {
    desk.resume(args.local_id).await
}

/// The arguments of the `discard_order` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct DiscardOrderArgs {
    /// The journal's id of the order.
    #[cfg_attr(test, ts(type = "number"))]
    local_id: i64,
}

/// Gives up an order that never reached the gateway, or one refused by verification.
#[tauri::command]
pub async fn discard_order(
    desk: State<'_, Desk>,
    args: DiscardOrderArgs,
) -> Result<OrderView, DeskError> {
    desk.discard(args.local_id).await
}

/// The arguments of the `abandon_order` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct AbandonOrderArgs {
    /// The journal's id of the order.
    #[cfg_attr(test, ts(type = "number"))]
    local_id: i64,
}

/// Abandons an unfinished order at the person's request: nothing is sent to the gateway, whose order expires unpaid.
/// Refused, with why and what to do instead, once money may have moved.
#[tauri::command]
pub async fn abandon_order(
    desk: State<'_, Desk>,
    args: AbandonOrderArgs,
) -> Result<OrderView, DeskError> {
    desk.abandon(args.local_id).await
}

/// The arguments of the `acknowledge_order` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct AcknowledgeOrderArgs {
    /// The journal's id of the order.
    #[cfg_attr(test, ts(type = "number"))]
    local_id: i64,
}

/// The person read what happened to a failed or refunded order; it no longer needs their attention.
#[tauri::command]
pub async fn acknowledge_order(
    desk: State<'_, Desk>,
    args: AcknowledgeOrderArgs,
) -> Result<OrderView, DeskError> {
    desk.acknowledge(args.local_id).await
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

/// The Sandbox's clock and its paid orders under way; refused off the Sandbox.
#[tauri::command]
pub async fn sandbox_clock(desk: State<'_, Desk>) -> Result<SandboxClockView, DeskError> {
    desk.sandbox_clock().await
}

/// The arguments of the `sandbox_advance` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct SandboxAdvanceArgs {
    /// How far to move the Sandbox's clock on, seconds.
    #[cfg_attr(test, ts(type = "number"))]
    secs: u64,
}

/// Moves the Sandbox's clock on by `secs`: its orders reach their endings, their outputs arrive on its chains, and
/// the orders are read again; refused off the Sandbox.
#[tauri::command]
pub async fn sandbox_advance(
    desk: State<'_, Desk>,
    args: SandboxAdvanceArgs,
) -> Result<SandboxClockView, DeskError> {
    desk.sandbox_advance(args.secs).await
}

/// Moves the Sandbox's clock on exactly as far as its paid orders under way need to finish; refused off the Sandbox.
#[tauri::command]
pub async fn sandbox_finish_pending(desk: State<'_, Desk>) -> Result<SandboxClockView, DeskError> {
    desk.sandbox_finish_pending().await
}

/// The arguments of the `order_next_check` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct OrderNextCheckArgs {
    /// The gateway's id of the order.
    order_id: String,
}

/// Seconds until the app next reads the gateway's order `order_id`; `None` when it is not followed.
#[tauri::command]
pub async fn order_next_check(
    desk: State<'_, Desk>,
    args: OrderNextCheckArgs,
) -> Result<Option<u64>, DeskError> {
    Ok(desk.next_check_secs(&args.order_id).await)
}

/// The arguments of the `watch_address` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct WatchAddressArgs {
    /// The address whose orders to follow.
    address: String,
}

/// Follows the orders of an address on the current network.
#[tauri::command]
pub async fn watch_address(
    desk: State<'_, Desk>,
    args: WatchAddressArgs,
) -> Result<SettingsView, DeskError> {
    desk.watch_address(&args.address).await
}

/// The arguments of the `unwatch_address` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct UnwatchAddressArgs {
    /// The address no longer to follow.
    address: String,
}

/// Stops following an address.
#[tauri::command]
pub async fn unwatch_address(
    desk: State<'_, Desk>,
    args: UnwatchAddressArgs,
) -> Result<SettingsView, DeskError> {
    desk.unwatch_address(&args.address).await
}

/// The arguments of the `set_api_key` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct SetApiKeyArgs {
    /// The API key (kept in the keychain, never in the settings file).
    key: String,
}

/// Stores (or replaces) the current network's API key in the keychain.
#[tauri::command]
pub async fn set_api_key(
    desk: State<'_, Desk>,
    args: SetApiKeyArgs,
) -> Result<SettingsView, DeskError> {
    desk.set_api_key(&args.key).await
}

/// Removes the current network's API key from the keychain.
#[tauri::command]
pub async fn remove_api_key(desk: State<'_, Desk>) -> Result<SettingsView, DeskError> {
    desk.remove_api_key().await
}

/// The arguments of the `set_api_version` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct SetApiVersionArgs {
    /// The API version to use on the current network.
    #[cfg_attr(test, ts(type = "\"v1\" | \"v2\" | \"v3\" | \"v4\""))]
    version: ApiVersion,
}

/// Chooses the API version of the current network (`"v1"`, `"v2"` or `"v3"`).
#[tauri::command]
pub async fn set_api_version(
    desk: State<'_, Desk>,
    args: SetApiVersionArgs,
) -> Result<SettingsView, DeskError> {
    desk.set_api_version(args.version).await
}

/// The arguments of the `set_bitcoin_network` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct SetBitcoinNetworkArgs {
    /// `"mainnet"`, `"testnet"`, `"signet"` or `"regtest"` (desk-core refuses anything else, with a sentence).
    network: String,
}

/// Chooses the Bitcoin network of the current network (`"mainnet"`, `"testnet"`, `"signet"`, `"regtest"`), where the
/// person may (Staging, a custom URL).
#[tauri::command]
pub async fn set_bitcoin_network(
    desk: State<'_, Desk>,
    args: SetBitcoinNetworkArgs,
) -> Result<SettingsView, DeskError> {
    desk.set_bitcoin_network(&args.network).await
}

/// The arguments of the `set_blind_signing` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct SetBlindSigningArgs {
    /// Whether undecodable calls are shown as not checked rather than refused.
    on: bool,
}

/// Turns blind signing on or off for the current network.
#[tauri::command]
pub async fn set_blind_signing(
    desk: State<'_, Desk>,
    args: SetBlindSigningArgs,
) -> Result<SettingsView, DeskError> {
    desk.set_blind_signing(args.on).await
}

/// The arguments of the `set_sandbox_production_shape` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct SetSandboxProductionShapeArgs {
    /// Whether the Sandbox's EVM and Tron orders take the real service's shape.
    on: bool,
}

/// Turns the Sandbox's production shape on or off (restarting the Sandbox when it is in use).
#[tauri::command]
pub async fn set_sandbox_production_shape(
    desk: State<'_, Desk>,
    args: SetSandboxProductionShapeArgs,
) -> Result<SettingsView, DeskError> {
    desk.set_sandbox_production_shape(args.on).await
}

/// The arguments of the `set_chain_endpoints` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct SetChainEndpointsArgs {
    /// The chain's slug (an EVM chain, Solana or Tron).
    chain: String,
    /// Its JSON-RPC endpoints, in order of preference (empty: the public defaults).
    urls: Vec<String>,
}

/// Sets the endpoints of a chain (an EVM chain, Solana or Tron) on the current network (empty: the public defaults).
#[tauri::command]
pub async fn set_chain_endpoints(
    desk: State<'_, Desk>,
    args: SetChainEndpointsArgs,
) -> Result<SettingsView, DeskError> {
    desk.set_chain_endpoints(&args.chain, &args.urls).await
}

/// The arguments of the `check_chain_endpoint` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct CheckChainEndpointArgs {
    /// The chain's slug (an EVM chain, Solana or Tron).
    chain: String,
    /// The JSON-RPC endpoint to check.
    url: String,
}

/// Checks an endpoint: its chain id (which must be the chain's) and latest block.
#[tauri::command]
pub async fn check_chain_endpoint(
    desk: State<'_, Desk>,
    args: CheckChainEndpointArgs,
) -> Result<desk_core::api::EndpointCheck, DeskError> {
    desk.check_chain_endpoint(&args.chain, &args.url).await
}

/// The arguments of the `set_theme` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct SetThemeArgs {
    /// The window's colours.
    theme: Theme,
}

/// Chooses the window's colours.
#[tauri::command]
pub async fn set_theme(
    desk: State<'_, Desk>,
    args: SetThemeArgs,
) -> Result<SettingsView, DeskError> {
    desk.set_theme(args.theme).await
}

/// The arguments of the `save_psbt` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct SavePsbtArgs {
    /// The journal's id of the order.
    #[cfg_attr(test, ts(type = "number"))]
    local_id: i64,
}

/// Asks where to save an onramp order's PSBT and writes it there: the path, or `None` when the person cancels.
#[tauri::command]
pub async fn save_psbt<R: Runtime>(
    window: WebviewWindow<R>,
    desk: State<'_, Desk>,
    args: SavePsbtArgs,
) -> Result<Option<String>, DeskError> {
    let local_id = args.local_id;
    let bytes = desk.psbt(local_id)?;
    let what = dialogs::SaveAs {
        title: "Save the PSBT to sign",
        file_name: desk.psbt_file_name(local_id)?,
        filter: ("PSBT (BIP 174)", &["psbt"]),
    };
    let Some(path) = dialogs::ask_where(&window, what).await? else {
        return Ok(None);
    };
    let shown = files::write_file(path, bytes, "PSBT").await?;
    info!(local_id, path = %shown, "PSBT saved");
    Ok(Some(shown))
}

/// The arguments of the `psbt_export` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct PsbtExportArgs {
    /// The journal's id of the order.
    #[cfg_attr(test, ts(type = "number"))]
    local_id: i64,
}

/// An onramp order's PSBT as base64, hex and the frames of an animated BC-UR QR code (`ur:crypto-psbt`), each frame
/// also drawn as SVG, for a wallet of the person's own.
#[tauri::command]
pub async fn psbt_export(
    desk: State<'_, Desk>,
    args: PsbtExportArgs,
) -> Result<desk_core::psbt_export::PsbtExport, DeskError> {
    desk.psbt_export(args.local_id)
}

/// The arguments of the `open_explorer` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct OpenExplorerArgs {
    /// A block explorer's link the app made (a known explorer and a transaction hash).
    url: String,
}

/// Opens a block explorer's page in the system browser. Only links the app makes itself (a known explorer and a
/// transaction hash) are opened; anything else is refused.
#[tauri::command]
pub async fn open_explorer<R: Runtime>(
    app: tauri::AppHandle<R>,
    args: OpenExplorerArgs,
) -> Result<(), DeskError> {
    opener::open_explorer(&app, args.url)
}

/// The arguments of the `qr_svg` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct QrSvgArgs {
    /// An address or a BIP 21 payment URI, up to 512 characters.
    text: String,
}

/// A QR code of `text` (an address or a BIP 21 payment URI) as SVG markup, for the window to show inline.
#[tauri::command]
pub async fn qr_svg(args: QrSvgArgs) -> Result<String, DeskError> {
    desk_core::qr::payment_svg(&args.text)
}

// ---- Partner ----

/// The arguments of the `set_affiliates` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct SetAffiliatesArgs {
    /// The onramp and offramp affiliate entries.
    affiliates: Vec<AffiliateEntry>,
    /// The one token-swap affiliate entry, if any.
    token_swap_affiliate: Option<AffiliateEntry>,
}

/// Keeps the partner's affiliate entries for the current network (applied to every quote from now on).
#[tauri::command]
pub async fn set_affiliates(
    desk: State<'_, Desk>,
    args: SetAffiliatesArgs,
) -> Result<SettingsView, DeskError> {
    desk.set_affiliates(args.affiliates, args.token_swap_affiliate)
        .await
}

/// The arguments of the `partner_dashboard` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct PartnerDashboardArgs {
    /// The period and filters of the dashboard.
    query: DashboardQuery,
}

/// The partner dashboard over the orders the app knows on the current network.
#[tauri::command]
pub async fn partner_dashboard(
    desk: State<'_, Desk>,
    args: PartnerDashboardArgs,
) -> Result<Dashboard, DeskError> {
    desk.dashboard(&args.query).await
}

/// The arguments of the `save_dashboard_csv` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct SaveDashboardCsvArgs {
    /// The period and filters of the dashboard whose rows to export.
    query: DashboardQuery,
}

/// Asks where to save the rows behind the dashboard as CSV and writes them: the path, or `None` when cancelled.
#[tauri::command]
pub async fn save_dashboard_csv<R: Runtime>(
    window: WebviewWindow<R>,
    desk: State<'_, Desk>,
    args: SaveDashboardCsvArgs,
) -> Result<Option<String>, DeskError> {
    let csv = desk.dashboard_csv(&args.query).await?;
    let what = dialogs::SaveAs {
        title: "Export the partner dashboard's orders",
        file_name: "gateway-desk-partner-orders.csv".to_owned(),
        filter: ("CSV", &["csv"]),
    };
    let Some(path) = dialogs::ask_where(&window, what).await? else {
        return Ok(None);
    };
    let shown = files::write_file(path, csv.into_bytes(), "CSV file").await?;
    info!(path = %shown, "partner CSV saved");
    Ok(Some(shown))
}

// ---- Support ----

/// The arguments of the `support_lookup` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct SupportLookupArgs {
    /// What to look up, where.
    query: LookupQuery,
}

/// Looks up an order (id, txid, hash) or an address's orders on any network and API version; the journal is not
/// touched.
#[tauri::command]
pub async fn support_lookup(
    desk: State<'_, Desk>,
    args: SupportLookupArgs,
) -> Result<LookupResult, DeskError> {
    desk.lookup(&args.query).await
}

/// The arguments of the `bundle_preview` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct BundlePreviewArgs {
    /// The journal's id of the order.
    #[cfg_attr(test, ts(type = "number"))]
    local_id: i64,
    /// What the bundle includes.
    options: BundleOptions,
}

/// What a support bundle of one journal order would hold, exactly as it would be written.
#[tauri::command]
pub async fn bundle_preview(
    desk: State<'_, Desk>,
    args: BundlePreviewArgs,
) -> Result<BundlePreview, DeskError> {
    desk.bundle_preview(args.local_id, args.options)
}

/// The arguments of the `save_bundle` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct SaveBundleArgs {
    /// The journal's id of the order.
    #[cfg_attr(test, ts(type = "number"))]
    local_id: i64,
    /// What the bundle includes.
    options: BundleOptions,
}

/// Writes the support bundle (the preview's text) into the app's support-bundles folder: the path.
#[tauri::command]
pub async fn save_bundle(desk: State<'_, Desk>, args: SaveBundleArgs) -> Result<String, DeskError> {
    desk.save_bundle(args.local_id, args.options)
}

/// The arguments of the `import_bundle` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct ImportBundleArgs {
    /// The support bundle's text.
    text: String,
}

/// Reads a support bundle's text and shows its order as the user saw it (the journal is not touched).
#[tauri::command]
pub async fn import_bundle(
    desk: State<'_, Desk>,
    args: ImportBundleArgs,
) -> Result<ImportedBundle, DeskError> {
    desk.import_bundle(&args.text)
}

/// Asks for a bundle file and imports it; `None` when the person cancels.
#[tauri::command]
pub async fn open_bundle_file<R: Runtime>(
    window: WebviewWindow<R>,
    desk: State<'_, Desk>,
) -> Result<Option<ImportedBundle>, DeskError> {
    let Some(path) = dialogs::ask_for_bundle(&window).await? else {
        return Ok(None);
    };
    let text = files::read_bundle_file(path).await?;
    desk.import_bundle(&text).map(Some)
}

/// The arguments of the `reproduce_quote` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct ReproduceQuoteArgs {
    /// The bundle or the pasted quote whose quote to request again.
    source: ReproduceSource,
}

/// Requests a bundle's or a pasted quote's quote again on the same network and compares it field by field.
#[tauri::command]
pub async fn reproduce_quote(
    desk: State<'_, Desk>,
    args: ReproduceQuoteArgs,
) -> Result<QuoteDiff, DeskError> {
    desk.reproduce_quote(&args.source).await
}

/// The arguments of the `reveal_path` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct RevealPathArgs {
    /// A file the app wrote into its own data folder.
    path: String,
}

/// Shows a file the app wrote (a support bundle) in the system's file manager. Only files inside the app's data
/// folder are shown.
#[tauri::command]
pub async fn reveal_path<R: Runtime>(
    app: tauri::AppHandle<R>,
    desk: State<'_, Desk>,
    args: RevealPathArgs,
) -> Result<(), DeskError> {
    let wanted = files::own_file(&args.path, &desk.paths().data_dir)?;
    opener::reveal(&app, &wanted)
}
