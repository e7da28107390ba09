// Test support: a DeskApi whose every command fails loudly unless a test gives it a stand-in.
import type { DeskApi } from "./ipc";

/** A DeskApi for tests: each command a test did not override rejects with a DeskError naming it. */
export function stubApi(overrides: Partial<DeskApi> = {}): DeskApi {
  const missing = (name: string) => () =>
    Promise.reject({ kind: "transport", message: `The test did not stub ${name}.` });
  const names: (keyof DeskApi)[] = [
    "getSettings",
    "selectNetwork",
    "listRoutes",
    "requestQuote",
    "startOrder",
    "handIn",
    "resumeOrder",
    "discardOrder",
    "listOrders",
    "refreshOrders",
    "watchAddress",
    "unwatchAddress",
    "setApiKey",
    "removeApiKey",
    "setApiVersion",
    "setTheme",
    "savePsbt",
    "openExplorer",
    "qrSvg",
    "setAffiliates",
    "partnerDashboard",
    "saveDashboardCsv",
    "supportLookup",
    "bundlePreview",
    "saveBundle",
    "importBundle",
    "openBundleFile",
    "reproduceQuote",
    "revealPath",
  ];
  const base = Object.fromEntries(names.map((n) => [n, missing(n)])) as unknown as DeskApi;
  return { ...base, ...overrides };
}
