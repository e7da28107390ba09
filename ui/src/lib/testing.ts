// Test support: a DeskApi whose every command fails loudly unless a test gives it a stand-in, and what the views'
// tests do to the rendered page (find by test id, wait for it to settle, choose, type, click).
import { flushSync, mount, tick, unmount, type Component } from "svelte";
import { afterEach, beforeEach, expect } from "vitest";
import type { DeskApi } from "./ipc";
import type { NetworkKind } from "./bindings/NetworkKind";

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
    "abandonOrder",
    "acknowledgeOrder",
    "listOrders",
    "refreshOrders",
    "orderNextCheck",
    "sandboxClock",
    "sandboxAdvance",
    "sandboxFinishPending",
    "watchAddress",
    "unwatchAddress",
    "setApiKey",
    "removeApiKey",
    "setApiVersion",
    "setBitcoinNetwork",
    "setBlindSigning",
    "setSandboxProductionShape",
    "setTheme",
    "savePsbt",
    "psbtExport",
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
    "walletStatus",
    "walletNew",
    "walletConfirmNew",
    "walletCancelNew",
    "walletImport",
    "walletImportKey",
    "walletUnlock",
    "walletLock",
    "walletReveal",
    "walletRemove",
    "walletBalance",
    "walletPlan",
    "walletStep",
    "setChainEndpoints",
    "checkChainEndpoint",
  ];
  const base = Object.fromEntries(names.map((n) => [n, missing(n)])) as unknown as DeskApi;
  return { ...base, ...overrides };
}

/** Lets pending promises and the updates they cause run, then applies them to the page. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 6; i++) {
    await Promise.resolve();
    await tick();
  }
  flushSync();
}

/** The element with this data-testid. */
export const byId = <T extends HTMLElement = HTMLElement>(id: string, root: ParentNode = document) =>
  root.querySelector<T>(`[data-testid="${id}"]`);

/** Every element with this data-testid. */
export const allById = (id: string, root: ParentNode = document) => [
  ...root.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`),
];

/** The text of the element with this data-testid, white space folded. */
export const text = (id: string, root: ParentNode = document) =>
  byId(id, root)?.textContent?.replace(/\s+/g, " ").trim();

/** Chooses an option that the select offers. */
export function choose(id: string, value: string): void {
  const select = byId<HTMLSelectElement>(id)!;
  expect([...select.options].map((o) => o.value)).toContain(value);
  select.value = value;
  select.dispatchEvent(new Event("change", { bubbles: true }));
  flushSync();
}

/** Types into an input or a text area. */
export function type(id: string, value: string): void {
  const input = byId<HTMLInputElement | HTMLTextAreaElement>(id)!;
  input.value = value;
  input.dispatchEvent(new Event("input", { bubbles: true }));
  flushSync();
}

/** Clicks a button that is there and enabled, then lets the page settle. */
export async function click(id: string): Promise<void> {
  const button = byId<HTMLButtonElement>(id)!;
  expect(button, id).not.toBeNull();
  expect(button.disabled, `${id} is disabled`).toBe(false);
  button.click();
  await settle();
}

/** desk-core's Sandbox mark, as the settings carry it on the Sandbox. */
export const SANDBOX_MARK = "Sandbox — simulated, no real money moves";

/** The Bitcoin facts desk-core gives each kind of network in a `NetworkView`, for test fixtures. */
export function chainFacts(kind: NetworkKind) {
  return kind === "sandbox"
    ? ({ bitcoinNetwork: "regtest", bitcoinNetworkSettable: false, simulated: SANDBOX_MARK } as const)
    : ({ bitcoinNetwork: "mainnet", bitcoinNetworkSettable: kind === "staging" || kind === "custom" } as const);
}

/**
 * A fresh `#app` for each test of the file, and `show(component, props)` to mount one there (unmounting what the test
 * showed before); whatever is shown is unmounted after each test. Call once at the top of a test file.
 */
export function mountedPerTest() {
  let shown: Record<string, unknown> | null = null;
  const hide = () => {
    if (shown) unmount(shown);
    shown = null;
  };
  beforeEach(() => {
    document.body.innerHTML = '<div id="app"></div>';
  });
  afterEach(hide);
  return {
    show<Props extends Record<string, any>>(component: Component<Props>, props: Props): void {
      hide();
      shown = mount(component, { target: document.getElementById("app")!, props });
      flushSync();
    },
    hide,
  };
}
