// Typed wrappers around the Tauri commands. Every rejection comes back as a DeskError,
// so the window only ever shows a sentence for a person, never raw JSON or a stack.
import { invoke, isTauri } from "@tauri-apps/api/core";
import { listen } from "@tauri-apps/api/event";
import type { AffiliateEntry } from "./bindings/AffiliateEntry";
import type { BundleOptions } from "./bindings/BundleOptions";
import type { BundlePreview } from "./bindings/BundlePreview";
import type { Dashboard } from "./bindings/Dashboard";
import type { DashboardQuery } from "./bindings/DashboardQuery";
import type { DeskError } from "./bindings/DeskError";
import type { DeskEvent } from "./bindings/DeskEvent";
import type { ErrorKind } from "./bindings/ErrorKind";
import type { ImportedBundle } from "./bindings/ImportedBundle";
import type { LookupQuery } from "./bindings/LookupQuery";
import type { LookupResult } from "./bindings/LookupResult";
import type { NetworkChoice } from "./bindings/NetworkChoice";
import type { NetworkView } from "./bindings/NetworkView";
import type { OrderView } from "./bindings/OrderView";
import type { PsbtExport } from "./bindings/PsbtExport";
import type { QuoteDiff } from "./bindings/QuoteDiff";
import type { QuoteResult } from "./bindings/QuoteResult";
import type { ReproduceSource } from "./bindings/ReproduceSource";
import type { RouteView } from "./bindings/RouteView";
import type { SandboxClockView } from "./bindings/SandboxClockView";
import type { SettingsView } from "./bindings/SettingsView";
import type { SwapForm } from "./bindings/SwapForm";
import type { Theme } from "./bindings/Theme";
import type { NewPhrase } from "./bindings/NewPhrase";
import type { WalletView } from "./bindings/WalletView";
import type { WalletBalance } from "./bindings/WalletBalance";
import type { WalletPlan } from "./bindings/WalletPlan";
import type { WalletPlanArgs } from "./bindings/args/WalletPlanArgs";
import type { WalletStepArgs } from "./bindings/args/WalletStepArgs";
import type { EndpointCheck } from "./bindings/EndpointCheck";
import type { WalletTxKind } from "./bindings/WalletTxKind";
import type { KeyFamily } from "./bindings/KeyFamily";
import type { JsonValue } from "./bindings/serde_json/JsonValue";
import type { AbandonOrderArgs } from "./bindings/args/AbandonOrderArgs";
import type { AcknowledgeOrderArgs } from "./bindings/args/AcknowledgeOrderArgs";
import type { BundlePreviewArgs } from "./bindings/args/BundlePreviewArgs";
import type { CheckChainEndpointArgs } from "./bindings/args/CheckChainEndpointArgs";
import type { DiscardOrderArgs } from "./bindings/args/DiscardOrderArgs";
import type { HandInArgs } from "./bindings/args/HandInArgs";
import type { ImportBundleArgs } from "./bindings/args/ImportBundleArgs";
import type { OpenExplorerArgs } from "./bindings/args/OpenExplorerArgs";
import type { OrderNextCheckArgs } from "./bindings/args/OrderNextCheckArgs";
import type { PartnerDashboardArgs } from "./bindings/args/PartnerDashboardArgs";
import type { PsbtExportArgs } from "./bindings/args/PsbtExportArgs";
import type { QrSvgArgs } from "./bindings/args/QrSvgArgs";
import type { ReproduceQuoteArgs } from "./bindings/args/ReproduceQuoteArgs";
import type { RequestQuoteArgs } from "./bindings/args/RequestQuoteArgs";
import type { ResumeOrderArgs } from "./bindings/args/ResumeOrderArgs";
import type { RevealPathArgs } from "./bindings/args/RevealPathArgs";
import type { SandboxAdvanceArgs } from "./bindings/args/SandboxAdvanceArgs";
import type { SaveBundleArgs } from "./bindings/args/SaveBundleArgs";
import type { SaveDashboardCsvArgs } from "./bindings/args/SaveDashboardCsvArgs";
import type { SavePsbtArgs } from "./bindings/args/SavePsbtArgs";
import type { SelectNetworkArgs } from "./bindings/args/SelectNetworkArgs";
import type { SetAffiliatesArgs } from "./bindings/args/SetAffiliatesArgs";
import type { SetApiKeyArgs } from "./bindings/args/SetApiKeyArgs";
import type { SetApiVersionArgs } from "./bindings/args/SetApiVersionArgs";
import type { SetBitcoinNetworkArgs } from "./bindings/args/SetBitcoinNetworkArgs";
import type { SetBlindSigningArgs } from "./bindings/args/SetBlindSigningArgs";
import type { SetSandboxProductionShapeArgs } from "./bindings/args/SetSandboxProductionShapeArgs";
import type { SetChainEndpointsArgs } from "./bindings/args/SetChainEndpointsArgs";
import type { SetThemeArgs } from "./bindings/args/SetThemeArgs";
import type { StartOrderArgs } from "./bindings/args/StartOrderArgs";
import type { SupportLookupArgs } from "./bindings/args/SupportLookupArgs";
import type { UnwatchAddressArgs } from "./bindings/args/UnwatchAddressArgs";
import type { WalletBalanceArgs } from "./bindings/args/WalletBalanceArgs";
import type { WalletConfirmNewArgs } from "./bindings/args/WalletConfirmNewArgs";
import type { WalletImportArgs } from "./bindings/args/WalletImportArgs";
import type { WalletImportKeyArgs } from "./bindings/args/WalletImportKeyArgs";
import type { WalletNewArgs } from "./bindings/args/WalletNewArgs";
import type { WalletRevealArgs } from "./bindings/args/WalletRevealArgs";
import type { WalletUnlockArgs } from "./bindings/args/WalletUnlockArgs";
import type { WatchAddressArgs } from "./bindings/args/WatchAddressArgs";

const ERROR_KINDS: readonly ErrorKind[] = [
  "invalid_input",
  "gateway",
  "transport",
  "rate_limited",
  "not_found",
  "keychain",
  "settings",
  "sandbox",
  "journal",
  "refused",
  "wallet",
];

const MAX_REASON = 200;

function isErrorKind(value: unknown): value is ErrorKind {
  return typeof value === "string" && (ERROR_KINDS as readonly string[]).includes(value);
}

/** True when `value` has the shape the Rust side rejects with. */
export function isDeskError(value: unknown): value is DeskError {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    isErrorKind(v.kind) &&
    typeof v.message === "string" &&
    v.message.trim() !== "" &&
    (v.code === undefined || v.code === null || typeof v.code === "string")
  );
}

/** A short, single-line reason taken from a non-DeskError rejection, or null. */
function reasonOf(value: unknown): string | null {
  let text: string | null = null;
  if (typeof value === "string") text = value;
  else if (value instanceof Error) text = value.message;
  if (text === null) return null;
  text = text.replace(/\s+/g, " ").trim();
  if (text === "") return null;
  return text.length > MAX_REASON ? `${text.slice(0, MAX_REASON - 1)}…` : text;
}

function runningInTauri(): boolean {
  try {
    return isTauri();
  } catch {
    return false;
  }
}

/** Turns any rejection into a DeskError; DeskError-shaped values pass through unchanged. */
export function toDeskError(value: unknown): DeskError {
  if (isDeskError(value)) {
    const out: DeskError = { kind: value.kind, message: value.message };
    if (typeof value.code === "string") out.code = value.code;
    if (value.details !== undefined) out.details = value.details;
    return out;
  }
  if (!runningInTauri() && typeof window !== "undefined") {
    return {
      kind: "transport",
      message:
        "This window is not running inside Gateway Desk, so it cannot reach the app. Open it from the Gateway Desk app.",
    };
  }
  const reason = reasonOf(value);
  return {
    kind: "transport",
    message: reason
      ? `Gateway Desk could not complete the request (${reason}). Try again; if it keeps failing, restart the app.`
      : "Gateway Desk could not complete the request. Try again; if it keeps failing, restart the app.",
  };
}

/**
 * Calls a command. A command with arguments names its generated `…Args` type (`A`, from Rust's own struct in
 * `bindings/args/`) and is sent `{ args }`, which is what its one Rust parameter `args` accepts; a command without
 * arguments is called with none. `A` is never inferred: a wrapper that does not name it cannot send arguments.
 */
async function call<T, A extends object = never>(
  command: string,
  ...args: [A] extends [never] ? [] : [args: A]
): Promise<T> {
  try {
    return await invoke<T>(command, args.length === 0 ? undefined : { args: args[0] });
  } catch (err) {
    throw toDeskError(err);
  }
}

/** The settings as the window shows them. Rejects with a DeskError. */
export function getSettings(): Promise<SettingsView> {
  return call<SettingsView>("get_settings");
}

/** Switches network and returns the new settings. Rejects with a DeskError. */
export function selectNetwork(choice: NetworkChoice): Promise<SettingsView> {
  return call<SettingsView, SelectNetworkArgs>("select_network", { choice });
}

/** Tells the app the window painted its first view with the routes (logged once with the start-up time). */
export function windowPainted(): Promise<null> {
  return call<null>("window_painted");
}

/** The routes of the current network. Rejects with a DeskError. */
export function listRoutes(): Promise<RouteView[]> {
  return call<RouteView[]>("list_routes");
}

/** A quote for what the swap form says, or a question to ask first. Rejects with a DeskError. */
export function requestQuote(form: SwapForm): Promise<QuoteResult> {
  return call<QuoteResult, RequestQuoteArgs>("request_quote", { form });
}

/**
 * Starts an order from a quote as received (the card's `raw`): journaled, created, verified. A loss the card says
 * needs confirmation must be confirmed in bps (`acceptedLossBps`), or desk-core refuses before anything is sent.
 */
export function startOrder(quote: JsonValue, acceptedLossBps: number | null = null): Promise<OrderView> {
  return call<OrderView, StartOrderArgs>("start_order", { quote, acceptedLossBps });
}

/** Hands in the signed transaction (hex) or its id/hash; checked, journaled, then registered. */
export function handIn(localId: number, text: string): Promise<OrderView> {
  return call<OrderView, HandInArgs>("hand_in", { localId, text });
}

/** Takes an unfinished order one step on (after a restart). */
export function resumeOrder(localId: number): Promise<OrderView> {
  return call<OrderView, ResumeOrderArgs>("resume_order", { localId });
}

/** Gives up an order that never reached the gateway, or one refused by verification. */
export function discardOrder(localId: number): Promise<OrderView> {
  return call<OrderView, DiscardOrderArgs>("discard_order", { localId });
}

/**
 * Abandons an unfinished order at the person's request (confirm first): nothing is sent to the gateway, whose order
 * is left to expire unpaid. Rejects with a DeskError of kind `refused` (its message says why and what to do instead,
 * its details carry `localId`) once money may have moved.
 */
export function abandonOrder(localId: number): Promise<OrderView> {
  return call<OrderView, AbandonOrderArgs>("abandon_order", { localId });
}

/** The person read what happened to a failed or refunded order ("I've read this"): it leaves "Needs your attention". */
export function acknowledgeOrder(localId: number): Promise<OrderView> {
  return call<OrderView, AcknowledgeOrderArgs>("acknowledge_order", { localId });
}

/** The app's own orders on the current network, then those of watched addresses. */
export function listOrders(): Promise<OrderView[]> {
  return call<OrderView[]>("list_orders");
}

/** Reads every watched address and unfinished order now. */
export function refreshOrders(): Promise<void> {
  return call<void>("refresh_orders");
}

/** Seconds until the app next reads the gateway's order; null when it does not follow it. */
export function orderNextCheck(orderId: string): Promise<number | null> {
  return call<number | null, OrderNextCheckArgs>("order_next_check", { orderId });
}

/** The Sandbox's clock and its paid orders under way (refused off the Sandbox). */
export function sandboxClock(): Promise<SandboxClockView> {
  return call<SandboxClockView>("sandbox_clock");
}

/** Moves the Sandbox's clock on by `secs`: its orders reach their endings and their outputs arrive on its chains. */
export function sandboxAdvance(secs: number): Promise<SandboxClockView> {
  return call<SandboxClockView, SandboxAdvanceArgs>("sandbox_advance", { secs });
}

/** Moves the Sandbox's clock on exactly as far as its paid orders under way need to finish. */
export function sandboxFinishPending(): Promise<SandboxClockView> {
  return call<SandboxClockView>("sandbox_finish_pending");
}

/** Follows the orders of an address on the current network. */
export function watchAddress(address: string): Promise<SettingsView> {
  return call<SettingsView, WatchAddressArgs>("watch_address", { address });
}

/** Stops following an address. */
export function unwatchAddress(address: string): Promise<SettingsView> {
  return call<SettingsView, UnwatchAddressArgs>("unwatch_address", { address });
}

/** Stores (or replaces) the current network's API key in the keychain. */
export function setApiKey(key: string): Promise<SettingsView> {
  return call<SettingsView, SetApiKeyArgs>("set_api_key", { key });
}

/** Removes the current network's API key from the keychain. */
export function removeApiKey(): Promise<SettingsView> {
  return call<SettingsView>("remove_api_key");
}

/** Chooses the API version of the current network. */
export function setApiVersion(version: "v1" | "v2" | "v3" | "v4"): Promise<SettingsView> {
  return call<SettingsView, SetApiVersionArgs>("set_api_version", { version });
}

/** Turns blind signing on or off for the current network (undecodable calls shown as not checked, not refused). */
/** Turns the Sandbox's production shape on or off (it restarts when in use). */
export function setSandboxProductionShape(on: boolean): Promise<SettingsView> {
  return call<SettingsView, SetSandboxProductionShapeArgs>("set_sandbox_production_shape", { on });
}

export function setBlindSigning(on: boolean): Promise<SettingsView> {
  return call<SettingsView, SetBlindSigningArgs>("set_blind_signing", { on });
}

/** Chooses the Bitcoin network of the current network, where the person may (Staging, a custom URL). */
export function setBitcoinNetwork(network: NetworkView["bitcoinNetwork"]): Promise<SettingsView> {
  return call<SettingsView, SetBitcoinNetworkArgs>("set_bitcoin_network", { network });
}

/** Chooses the window's colours. */
export function setTheme(theme: Theme): Promise<SettingsView> {
  return call<SettingsView, SetThemeArgs>("set_theme", { theme });
}

/** Asks where to save an onramp order's PSBT (a `.psbt` file) and saves it; the path, or null when cancelled. */
export function savePsbt(localId: number): Promise<string | null> {
  return call<string | null, SavePsbtArgs>("save_psbt", { localId });
}

/**
 * An onramp order's PSBT as base64, hex and the frames of an animated BC-UR QR code (`ur:crypto-psbt`, each frame
 * also drawn as SVG by the app).
 */
export function psbtExport(localId: number): Promise<PsbtExport> {
  return call<PsbtExport, PsbtExportArgs>("psbt_export", { localId });
}

/** Opens a block explorer's page (a link the app made) in the system browser. */
export function openExplorer(url: string): Promise<void> {
  return call<void, OpenExplorerArgs>("open_explorer", { url });
}

/** A QR code of `text` as SVG markup, drawn by the app. */
export function qrSvg(text: string): Promise<string> {
  return call<string, QrSvgArgs>("qr_svg", { text });
}

/**
 * Saves the partner's affiliate entries of the current network (onramp/offramp list, and the one token-swap entry);
 * the new settings. A refusal's `details` name the field: `{ field: "affiliates", index }` or
 * `{ field: "tokenSwapAffiliate" }`.
 */
export function setAffiliates(
  affiliates: AffiliateEntry[],
  tokenSwapAffiliate: AffiliateEntry | null,
): Promise<SettingsView> {
  return call<SettingsView, SetAffiliatesArgs>("set_affiliates", { affiliates, tokenSwapAffiliate });
}

/** The partner dashboard over the orders the app knows on the current network. */
export function partnerDashboard(query: DashboardQuery): Promise<Dashboard> {
  return call<Dashboard, PartnerDashboardArgs>("partner_dashboard", { query });
}

/** Asks where to save the rows behind the dashboard as CSV and saves them; the path, or null when cancelled. */
export function saveDashboardCsv(query: DashboardQuery): Promise<string | null> {
  return call<string | null, SaveDashboardCsvArgs>("save_dashboard_csv", { query });
}

/** Looks an order (or an address's orders) up on any network and API version; the journal is not touched. */
export function supportLookup(query: LookupQuery): Promise<LookupResult> {
  return call<LookupResult, SupportLookupArgs>("support_lookup", { query });
}

/** The support bundle of a journal order exactly as it would be written, with what was left out. */
export function bundlePreview(localId: number, options: BundleOptions): Promise<BundlePreview> {
  return call<BundlePreview, BundlePreviewArgs>("bundle_preview", { localId, options });
}

/** Writes the support bundle of a journal order; the path written. */
export function saveBundle(localId: number, options: BundleOptions): Promise<string> {
  return call<string, SaveBundleArgs>("save_bundle", { localId, options });
}

/** Reads a support bundle's text and gives its order as the user saw it. */
export function importBundle(text: string): Promise<ImportedBundle> {
  return call<ImportedBundle, ImportBundleArgs>("import_bundle", { text });
}

/** Asks for a support bundle file and reads it; null when the dialog is cancelled. */
export function openBundleFile(): Promise<ImportedBundle | null> {
  return call<ImportedBundle | null>("open_bundle_file");
}

/** Requests a bundle's (or a pasted) quote again on the same network and compares them field by field. */
export function reproduceQuote(source: ReproduceSource): Promise<QuoteDiff> {
  return call<QuoteDiff, ReproduceQuoteArgs>("reproduce_quote", { source });
}

/** Shows a file the app wrote (a support bundle) in the system's file manager. */
export function revealPath(path: string): Promise<void> {
  return call<void, RevealPathArgs>("reveal_path", { path });
}

/** The app's wallet as it stands (never a secret). */
export function walletStatus(): Promise<WalletView> {
  return call<WalletView>("wallet_status");
}

/** A new recovery phrase (12 or 24 words), shown once, with the positions of the words to type back. */
export function walletNew(words: number): Promise<NewPhrase> {
  return call<NewPhrase, WalletNewArgs>("wallet_new", { words });
}

/** Checks the typed-back words and keeps the new wallet under the app password. */
export function walletConfirmNew(answers: string[], password: string): Promise<WalletView> {
  return call<WalletView, WalletConfirmNewArgs>("wallet_confirm_new", { answers, password });
}

/** Forgets a new phrase that was not checked. */
export function walletCancelNew(): Promise<void> {
  return call<void>("wallet_cancel_new");
}

/** Imports a recovery phrase (and its optional passphrase) under the app password. */
export function walletImport(phrase: string, passphrase: string, password: string): Promise<WalletView> {
  return call<WalletView, WalletImportArgs>("wallet_import", { phrase, passphrase, password });
}

/** Imports a single private key of one chain family, sealed under the app password (the wallet then has that
 * family's account only). */
export function walletImportKey(family: KeyFamily, key: string, password: string): Promise<WalletView> {
  return call<WalletView, WalletImportKeyArgs>("wallet_import_key", { family, key, password });
}

/** Unlocks the wallet with the app password. */
export function walletUnlock(password: string): Promise<WalletView> {
  return call<WalletView, WalletUnlockArgs>("wallet_unlock", { password });
}

/** Locks the wallet now. */
export function walletLock(): Promise<WalletView> {
  return call<WalletView>("wallet_lock");
}

/** The recovery phrase's words, behind the app password. */
export function walletReveal(password: string): Promise<string[]> {
  return call<string[], WalletRevealArgs>("wallet_reveal", { password });
}

/** Removes the wallet from this computer (after the window's confirmation). */
export function walletRemove(): Promise<WalletView> {
  return call<WalletView>("wallet_remove");
}

/** The wallet's balance of `token` on `chain` (any family; empty token: the chain's coin), with what Max puts in. */
export function walletBalance(chain: string, token = ""): Promise<WalletBalance> {
  return call<WalletBalance, WalletBalanceArgs>("wallet_balance", { chain, token });
}

/** Sets a chain's endpoints on the current network (an empty list: back to the public defaults). */
export function setChainEndpoints(chain: string, urls: string[]): Promise<SettingsView> {
  return call<SettingsView, SetChainEndpointsArgs>("set_chain_endpoints", { chain, urls });
}

/** Checks an endpoint: it must answer as the chain; its id and latest block. */
export function checkChainEndpoint(chain: string, url: string): Promise<EndpointCheck> {
  return call<EndpointCheck, CheckChainEndpointArgs>("check_chain_endpoint", { chain, url });
}

/** What a verified order still needs the wallet to sign, in words and numbers, simulated on the chain. */
export function walletPlan(localId: number): Promise<WalletPlan> {
  return call<WalletPlan, WalletPlanArgs>("wallet_plan", { localId });
}

/**
 * Signs and sends the step the person confirmed, at no more than the network fee they accepted (the smallest unit of
 * the chain's coin); `null` fee: none accepted (a Bitcoin fee needs one only when it is high).
 */
export function walletStep(
  localId: number,
  kind: WalletTxKind | null,
  acceptedMaxFee: string | null,
  acceptUnsimulated = false,
): Promise<OrderView> {
  return call<OrderView, WalletStepArgs>("wallet_step", {
    localId,
    kind,
    acceptedMaxFee,
    acceptUnsimulated,
  });
}

/** The name of the event the app sends desk-core's updates on. */
export const DESK_EVENT = "desk-event";

/** Calls `handler` with every update the app sends (changed orders, failed reads); gives the unsubscribe function. */
export async function onDeskEvent(handler: (event: DeskEvent) => void): Promise<() => void> {
  if (!runningInTauri()) return () => {};
  return listen<DeskEvent>(DESK_EVENT, (e) => handler(e.payload));
}

/** The commands as one object, so stores can be given a stand-in in tests. */
export interface DeskApi {
  getSettings(): Promise<SettingsView>;
  selectNetwork(choice: NetworkChoice): Promise<SettingsView>;
  listRoutes(): Promise<RouteView[]>;
  requestQuote(form: SwapForm): Promise<QuoteResult>;
  startOrder(quote: JsonValue, acceptedLossBps?: number | null): Promise<OrderView>;
  handIn(localId: number, text: string): Promise<OrderView>;
  resumeOrder(localId: number): Promise<OrderView>;
  discardOrder(localId: number): Promise<OrderView>;
  abandonOrder(localId: number): Promise<OrderView>;
  acknowledgeOrder(localId: number): Promise<OrderView>;
  listOrders(): Promise<OrderView[]>;
  refreshOrders(): Promise<void>;
  orderNextCheck(orderId: string): Promise<number | null>;
  sandboxClock(): Promise<SandboxClockView>;
  sandboxAdvance(secs: number): Promise<SandboxClockView>;
  sandboxFinishPending(): Promise<SandboxClockView>;
  watchAddress(address: string): Promise<SettingsView>;
  unwatchAddress(address: string): Promise<SettingsView>;
  setApiKey(key: string): Promise<SettingsView>;
  removeApiKey(): Promise<SettingsView>;
  setApiVersion(version: "v1" | "v2" | "v3" | "v4"): Promise<SettingsView>;
  setBitcoinNetwork(network: NetworkView["bitcoinNetwork"]): Promise<SettingsView>;
  setBlindSigning(on: boolean): Promise<SettingsView>;
  setSandboxProductionShape(on: boolean): Promise<SettingsView>;
  setTheme(theme: Theme): Promise<SettingsView>;
  savePsbt(localId: number): Promise<string | null>;
  psbtExport(localId: number): Promise<PsbtExport>;
  openExplorer(url: string): Promise<void>;
  qrSvg(text: string): Promise<string>;
  setAffiliates(affiliates: AffiliateEntry[], tokenSwapAffiliate: AffiliateEntry | null): Promise<SettingsView>;
  partnerDashboard(query: DashboardQuery): Promise<Dashboard>;
  saveDashboardCsv(query: DashboardQuery): Promise<string | null>;
  supportLookup(query: LookupQuery): Promise<LookupResult>;
  bundlePreview(localId: number, options: BundleOptions): Promise<BundlePreview>;
  saveBundle(localId: number, options: BundleOptions): Promise<string>;
  importBundle(text: string): Promise<ImportedBundle>;
  openBundleFile(): Promise<ImportedBundle | null>;
  reproduceQuote(source: ReproduceSource): Promise<QuoteDiff>;
  revealPath(path: string): Promise<void>;
  walletStatus(): Promise<WalletView>;
  walletNew(words: number): Promise<NewPhrase>;
  walletConfirmNew(answers: string[], password: string): Promise<WalletView>;
  walletCancelNew(): Promise<void>;
  walletImport(phrase: string, passphrase: string, password: string): Promise<WalletView>;
  walletImportKey(family: KeyFamily, key: string, password: string): Promise<WalletView>;
  walletUnlock(password: string): Promise<WalletView>;
  walletLock(): Promise<WalletView>;
  walletReveal(password: string): Promise<string[]>;
  walletRemove(): Promise<WalletView>;
  walletBalance(chain: string, token?: string): Promise<WalletBalance>;
  setChainEndpoints(chain: string, urls: string[]): Promise<SettingsView>;
  checkChainEndpoint(chain: string, url: string): Promise<EndpointCheck>;
  walletPlan(localId: number): Promise<WalletPlan>;
  walletStep(
    localId: number,
    kind: WalletTxKind | null,
    acceptedMaxFee: string | null,
    acceptUnsimulated?: boolean,
  ): Promise<OrderView>;
}

export const deskApi: DeskApi = {
  getSettings,
  selectNetwork,
  listRoutes,
  requestQuote,
  startOrder,
  handIn,
  resumeOrder,
  discardOrder,
  abandonOrder,
  acknowledgeOrder,
  listOrders,
  refreshOrders,
  orderNextCheck,
  sandboxClock,
  sandboxAdvance,
  sandboxFinishPending,
  watchAddress,
  unwatchAddress,
  setApiKey,
  removeApiKey,
  setApiVersion,
  setBitcoinNetwork,
  setBlindSigning,
  setSandboxProductionShape,
  setTheme,
  savePsbt,
  psbtExport,
  openExplorer,
  qrSvg,
  setAffiliates,
  partnerDashboard,
  saveDashboardCsv,
  supportLookup,
  bundlePreview,
  saveBundle,
  importBundle,
  openBundleFile,
  reproduceQuote,
  revealPath,
  walletStatus,
  walletNew,
  walletConfirmNew,
  walletCancelNew,
  walletImport,
  walletImportKey,
  walletUnlock,
  walletLock,
  walletReveal,
  walletRemove,
  walletBalance,
  setChainEndpoints,
  checkChainEndpoint,
  walletPlan,
  walletStep,
};
