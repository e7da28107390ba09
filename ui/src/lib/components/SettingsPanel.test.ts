// @vitest-environment happy-dom
// The Settings view with a stand-in for the Rust side: the API key (masked status, length as typed, save, remove
// with a confirm step, no keychain), the API version, the theme and where the files are.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { SettingsView } from "../bindings/SettingsView";
import type { DeskApi } from "../ipc";
import { desk } from "../stores.svelte";
import { byId, click, settle, stubApi, text, type, chainFacts } from "../testing";
import SettingsPanel from "./SettingsPanel.svelte";

function settings(overrides: Partial<SettingsView> = {}): SettingsView {
  return {
    network: {
      kind: "staging",
      label: "Staging",
      baseUrl: "https://gateway-api-staging.gobob.xyz",
      apiVersion: "v3",
      ...chainFacts("staging"),
    },
    customUrl: null,
    settingsPath: "/home/me/.config/gateway-desk/settings.json",
    journalPath: "/home/me/.local/share/gateway-desk/journal.sqlite3",
    keychainAvailable: true,
    watched: [],
    theme: "system",
    notices: [],
    affiliates: [],
    ...overrides,
  };
}

const KEY = "0123456789abcdef0123456789abcdef";

let app: Record<string, unknown> | null = null;

function start(api: DeskApi) {
  app = mount(SettingsPanel, { target: document.getElementById("app")!, props: { api } });
  flushSync();
}

beforeEach(() => {
  document.body.innerHTML = '<div id="app"></div>';
  delete document.documentElement.dataset.theme;
  localStorage.clear();
  sessionStorage.clear();
  desk.settings = settings();
  desk.settingsStatus = "ready";
});

afterEach(() => {
  if (app) unmount(app);
  app = null;
});

describe("the Settings view", () => {
  it("shows the network, the key's status and where the files are", () => {
    start(stubApi());
    expect(byId("settings-view")).not.toBeNull();
    expect(text("settings-network-current")).toBe("In use: Staging https://gateway-api-staging.gobob.xyz · API v3");
    expect((byId("settings-network-staging") as HTMLInputElement).checked).toBe(true);
    expect(text("api-key-status")).toBe("No key");
    expect(byId("api-key-remove")).toBeNull();
    expect(text("settings-path")).toBe("/home/me/.config/gateway-desk/settings.json");
    expect(text("journal-path")).toBe("/home/me/.local/share/gateway-desk/journal.sqlite3");
    expect((byId("api-version-select") as HTMLSelectElement).value).toBe("v3");
    expect(byId("watched-list")).not.toBeNull();
    expect(byId("settings-error")).toBeNull();
  });

  it("groups every setting under Network, Wallet and signing, Partner and Advanced", async () => {
    desk.settings = settings({
      network: {
        kind: "sandbox",
        label: "Sandbox",
        baseUrl: "http://127.0.0.1:1",
        apiVersion: "v3",
        ...chainFacts("sandbox"),
      },
      chainEndpoints: [{ chain: "ethereum", urls: ["https://a.example"], custom: false }],
    });
    start(stubApi());
    const groups = ["network", "wallet", "partner", "advanced"].map((g) => byId(`settings-group-${g}`)!);
    expect(groups.map((g) => g.querySelector("h2")?.textContent)).toEqual([
      "Network",
      "Wallet and signing",
      "Partner",
      "Advanced",
    ]);
    expect(groups.map((g) => g.getAttribute("aria-labelledby"))).toEqual(groups.map((g) => g.querySelector("h2")?.id));
    const inGroup: Record<string, string[]> = {
      network: [
        "settings-network-current",
        "settings-network-custom",
        "api-version-select",
        "api-key-input",
        "bitcoin-network-select",
      ],
      wallet: ["settings-open-wallet", "blind-signing", "chain-endpoints"],
      partner: ["affiliate-add", "affiliates-save", "watched-list", "watch-input"],
      advanced: ["theme-dark", "sandbox-production-shape", "settings-path", "journal-path"],
    };
    for (const [group, ids] of Object.entries(inGroup)) {
      for (const id of ids) {
        expect(byId(id)?.closest("[data-testid^=settings-group-]")?.getAttribute("data-testid"), id).toBe(
          `settings-group-${group}`,
        );
      }
    }
    // One outline: the view's h1, a group's h2, a section's h3.
    const view = byId("settings-view")!;
    expect([...view.querySelectorAll("h1, h2, h3")].map((h) => `${h.tagName} ${h.textContent?.trim()}`)).toEqual([
      "H1 Settings",
      "H2 Network",
      "H3 Gateway",
      "H3 API version",
      "H3 API key",
      "H3 Bitcoin network",
      "H2 Wallet and signing",
      "H3 The app's wallet",
      "H3 Checks before signing",
      "H3 Chain endpoints",
      "H2 Partner",
      "H3 Affiliates (partner)",
      "H3 Watched addresses",
      "H2 Advanced",
      "H3 Sandbox",
      "H3 Where things are kept",
    ]);
    await click("settings-open-wallet");
    expect(desk.activeView).toBe("wallet");
  });

  it("shows a stored key masked", () => {
    desk.settings = settings({ apiKey: "01…ef" });
    start(stubApi());
    expect(text("api-key-status")).toBe("Key in use: 01…ef");
    expect(byId("api-key-remove")).not.toBeNull();
  });

  it("counts the key's characters as they are typed", () => {
    start(stubApi());
    const input = byId("api-key-input") as HTMLInputElement;
    expect(input.type).toBe("password");
    expect(document.querySelector(`label[for="${input.id}"]`)?.textContent).toBe("Key");
    const save = byId("api-key-save") as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    type("api-key-input", "abcde");
    expect(text("api-key-hint")).toBe("32 characters needed, 5 typed.");
    expect(input.getAttribute("aria-describedby")).toContain("api-key-hint");
    expect(save.disabled).toBe(true);
    type("api-key-input", `${KEY}x`);
    expect(text("api-key-hint")).toBe("32 characters needed, 33 typed.");
    expect(save.disabled).toBe(true);
    type("api-key-input", KEY);
    expect(text("api-key-hint")).toBe("32 characters: ready to save.");
    expect(save.disabled).toBe(false);
  });

  it("saves the key, clears the field and keeps it nowhere else", async () => {
    const api = stubApi({ setApiKey: vi.fn(async () => settings({ apiKey: "01…ef" })) });
    start(api);
    type("api-key-input", ` ${KEY} `);
    (byId("api-key-save") as HTMLButtonElement).click();
    await settle();
    expect(api.setApiKey).toHaveBeenCalledWith(KEY);
    expect((byId("api-key-input") as HTMLInputElement).value).toBe("");
    expect(text("api-key-status")).toBe("Key in use: 01…ef");
    expect(desk.settings?.apiKey).toBe("01…ef");
    expect(text("api-key-done")).toMatch(/stored in the keychain/);
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
    expect(document.body.innerHTML).not.toContain(KEY);
  });

  it("says why a key was not stored and keeps what was typed", async () => {
    const message = "The keychain refused the key. Unlock it and try again.";
    start(stubApi({ setApiKey: vi.fn(async () => Promise.reject({ kind: "keychain", message })) }));
    type("api-key-input", KEY);
    (byId("api-key-save") as HTMLButtonElement).click();
    await settle();
    expect(text("settings-error")).toBe(message);
    expect(byId("settings-error")?.getAttribute("role")).toBe("alert");
    expect((byId("api-key-input") as HTMLInputElement).value).toBe(KEY);
    expect(byId("api-key-input")?.getAttribute("aria-invalid")).toBe("true");
  });

  it("asks before removing the key", async () => {
    desk.settings = settings({ apiKey: "01…ef" });
    const api = stubApi({ removeApiKey: vi.fn(async () => settings()) });
    start(api);
    (byId("api-key-remove") as HTMLButtonElement).click();
    await settle();
    expect(api.removeApiKey).not.toHaveBeenCalled();
    expect(byId("api-key-remove-confirm")).not.toBeNull();
    expect(document.activeElement).toBe(byId("api-key-remove-confirm"));

    (byId("api-key-remove-cancel") as HTMLButtonElement).click();
    await settle();
    expect(byId("api-key-remove-confirm")).toBeNull();
    expect(api.removeApiKey).not.toHaveBeenCalled();

    (byId("api-key-remove") as HTMLButtonElement).click();
    await settle();
    (byId("api-key-remove-confirm") as HTMLButtonElement).click();
    await settle();
    expect(api.removeApiKey).toHaveBeenCalledTimes(1);
    expect(text("api-key-status")).toBe("No key");
    expect(byId("api-key-remove-confirm")).toBeNull();
  });

  it("says that no keychain is reachable and disables the key field", () => {
    desk.settings = settings({ keychainAvailable: false });
    start(stubApi());
    expect(text("api-key-no-keychain")).toMatch(
      /^No keychain is reachable on this computer, so a key cannot be stored\./,
    );
    expect((byId("api-key-input") as HTMLInputElement).disabled).toBe(true);
    expect((byId("api-key-save") as HTMLButtonElement).disabled).toBe(true);
  });

  it("applies a theme at once and saves it", async () => {
    const api = stubApi({ setTheme: vi.fn(async (theme) => settings({ theme })) });
    start(api);
    expect((byId("theme-system") as HTMLInputElement).checked).toBe(true);
    const dark = byId("theme-dark") as HTMLInputElement;
    expect(dark.closest("label")?.textContent?.trim()).toBe("Dark");
    dark.checked = true;
    dark.dispatchEvent(new Event("change", { bubbles: true }));
    flushSync();
    expect(document.documentElement.dataset.theme).toBe("dark");
    await settle();
    expect(api.setTheme).toHaveBeenCalledWith("dark");
    expect(desk.settings?.theme).toBe("dark");
    expect((byId("theme-dark") as HTMLInputElement).checked).toBe(true);
  });

  it("puts the theme back when it cannot be saved", async () => {
    desk.settings = settings({ theme: "light" });
    start(
      stubApi({
        setTheme: vi.fn(async () => Promise.reject({ kind: "settings", message: "Could not save. Check the disk." })),
      }),
    );
    const dark = byId("theme-dark") as HTMLInputElement;
    dark.checked = true;
    dark.dispatchEvent(new Event("change", { bubbles: true }));
    await settle();
    expect(document.documentElement.dataset.theme).toBe("light");
    expect((byId("theme-light") as HTMLInputElement).checked).toBe(true);
    expect(text("settings-error")).toBe("Could not save. Check the disk.");
  });

  it("sets the API version, and says why when it cannot", async () => {
    const api = stubApi({
      setApiVersion: vi.fn(async (version) =>
        version === "v1"
          ? Promise.reject({ kind: "gateway", message: "V1 is not offered here. Choose another version." })
          : settings({ network: { ...settings().network, apiVersion: version } }),
      ),
    });
    // On Staging (the published service) the versions it removed cannot be chosen.
    start(api);
    let select = byId("api-version-select") as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(["v4", "v3", "v2", "v1"]);
    expect([...select.options].map((o) => o.text)).toContain("V2 (removed from the service)");
    expect([...select.options].map((o) => o.disabled)).toEqual([false, false, true, true]);
    unmount(app!);
    app = null;
    // On the Sandbox, which still serves them, they can.
    const sandbox = { ...settings().network, kind: "sandbox" as const, label: "Sandbox" };
    desk.settings = settings({ network: sandbox });
    api.setApiVersion = vi.fn(async (version) =>
      version === "v1"
        ? Promise.reject({ kind: "gateway", message: "V1 is not offered here. Choose another version." })
        : settings({ network: { ...sandbox, apiVersion: version } }),
    );
    start(api);
    select = byId("api-version-select") as HTMLSelectElement;
    expect([...select.options].map((o) => o.disabled)).toEqual([false, false, false, false]);
    select.value = "v2";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    await settle();
    expect(api.setApiVersion).toHaveBeenCalledWith("v2");
    expect(desk.settings?.network.apiVersion).toBe("v2");

    select.value = "v1";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    await settle();
    expect(text("settings-error")).toBe("V1 is not offered here. Choose another version.");
    expect(select.value).toBe("v2");
  });

  it("turns blind signing on and off for the network, with a warning while it is on", async () => {
    const api = stubApi({
      setBlindSigning: vi.fn(async (on: boolean) => settings({ blindSigning: on })),
    });
    start(api);
    const box = byId("blind-signing") as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(byId("blind-signing-on")).toBeNull();
    box.click();
    await settle();
    expect(api.setBlindSigning).toHaveBeenCalledWith(true);
    expect(desk.settings?.blindSigning).toBe(true);
    expect(byId("blind-signing-on")?.textContent).toContain("may move any amount to anyone");
    (byId("blind-signing") as HTMLInputElement).click();
    await settle();
    expect(api.setBlindSigning).toHaveBeenLastCalledWith(false);
    expect(byId("blind-signing-on")).toBeNull();
  });

  it("offers the Sandbox's production shape on the Sandbox only, and turns it on", async () => {
    const sandbox = (over: Partial<SettingsView> = {}) =>
      settings({
        network: {
          ...settings().network,
          kind: "sandbox",
          label: "Sandbox",
          baseUrl: "http://127.0.0.1:4000",
          ...chainFacts("sandbox"),
        },
        ...over,
      });
    start(stubApi());
    expect(byId("sandbox-production-shape")).toBeNull();
    if (app) unmount(app);
    document.body.innerHTML = '<div id="app"></div>';
    const api = stubApi({
      getSettings: vi.fn(async () => sandbox()),
      setSandboxProductionShape: vi.fn(async (on: boolean) => sandbox({ sandboxProductionShape: on })),
    });
    desk.settings = sandbox();
    start(api);
    const box = byId("sandbox-production-shape") as HTMLInputElement;
    expect(box.checked).toBe(false);
    box.click();
    await settle();
    expect(api.setSandboxProductionShape).toHaveBeenCalledWith(true);
    expect(desk.settings?.sandboxProductionShape).toBe(true);
    expect((byId("sandbox-production-shape") as HTMLInputElement).checked).toBe(true);
  });

  it("sets the Bitcoin network where it may be chosen, and says it is fixed on the Sandbox", async () => {
    const api = stubApi({
      setBitcoinNetwork: vi.fn(async (network) =>
        settings({ network: { ...settings().network, bitcoinNetwork: network } }),
      ),
    });
    start(api);
    const select = byId("bitcoin-network-select") as HTMLSelectElement;
    expect(select.value).toBe("mainnet");
    expect(select.disabled).toBe(false);
    select.value = "signet";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    await settle();
    expect(api.setBitcoinNetwork).toHaveBeenCalledWith("signet");
    expect(desk.settings?.network.bitcoinNetwork).toBe("signet");

    desk.settings = settings({
      network: {
        kind: "sandbox",
        label: "Sandbox",
        baseUrl: "http://127.0.0.1:1",
        apiVersion: "v3",
        ...chainFacts("sandbox"),
      },
    });
    await settle();
    expect(select.value).toBe("regtest");
    expect(select.disabled).toBe(true);
    expect(text("bitcoin-network-fixed")).toContain("always uses regtest");
  });

  it("says when the settings are not read yet", () => {
    desk.settings = null;
    desk.settingsStatus = "loading";
    start(stubApi());
    expect(text("settings-view")).toContain("Loading…");
    expect(byId("api-key-input")).toBeNull();
  });
});

const A1 = "0x1111111111111111111111111111111111111111";
const A2 = "0x2222222222222222222222222222222222222222";
const SWAP = "0x3333333333333333333333333333333333333333";

describe("the affiliates section", () => {
  it("shows the saved entries, the limits and the running total", () => {
    desk.settings = settings({
      affiliates: [{ address: A1, bps: 50 }],
      tokenSwapAffiliate: { address: SWAP, bps: 30 },
    });
    start(stubApi());
    expect(document.getElementById("heading-affiliates")?.textContent).toBe("Affiliates (partner)");
    expect((byId("affiliate-address-0") as HTMLInputElement).value).toBe(A1);
    expect((byId("affiliate-bps-0") as HTMLInputElement).value).toBe("50");
    expect(document.querySelector('label[for="affiliate-address-0"]')?.textContent).toBe("Address 1");
    expect((byId("token-swap-affiliate-address") as HTMLInputElement).value).toBe(SWAP);
    expect((byId("token-swap-affiliate-bps") as HTMLInputElement).value).toBe("30");
    expect(text("affiliates-limits")).toBe("Up to 5 entries, 1000 bps (10%) in all, each address once.");
    expect(text("affiliates-total")).toBe("1 of 5 entries · 50 of 1000 bps");
    type("affiliate-bps-0", "1200");
    expect(text("affiliates-total")).toBe("1 of 5 entries · 1200 of 1000 bps — over the limit");
  });

  it("adds up to five entries and removes them", async () => {
    start(stubApi());
    expect(text("affiliates-empty")).toMatch(/^No entries/);
    for (let i = 0; i < 5; i++) await click("affiliate-add");
    expect(byId("affiliate-address-4")).not.toBeNull();
    expect(document.activeElement).toBe(byId("affiliate-address-4"));
    expect((byId("affiliate-add") as HTMLButtonElement).disabled).toBe(true);
    expect(text("affiliates-total")).toBe("5 of 5 entries · 0 of 1000 bps");
    type("affiliate-address-1", A2);
    await click("affiliate-remove-0");
    expect(byId("affiliate-address-4")).toBeNull();
    expect((byId("affiliate-address-0") as HTMLInputElement).value).toBe(A2);
    expect((byId("affiliate-add") as HTMLButtonElement).disabled).toBe(false);
    expect(byId("affiliate-remove-0")?.getAttribute("aria-label")).toBe("Remove entry 1");
  });

  it("saves through setAffiliates and says so", async () => {
    const setAffiliates = vi.fn(async (affiliates, tokenSwapAffiliate) =>
      settings({ affiliates, tokenSwapAffiliate: tokenSwapAffiliate ?? undefined }),
    );
    start(stubApi({ setAffiliates }));
    await click("affiliate-add");
    type("affiliate-address-0", ` ${A1} `);
    type("affiliate-bps-0", "50");
    type("token-swap-affiliate-address", SWAP);
    type("token-swap-affiliate-bps", "30");
    await click("affiliates-save");
    expect(setAffiliates).toHaveBeenCalledWith([{ address: A1, bps: 50 }], { address: SWAP, bps: 30 });
    expect(text("affiliates-saved")).toBe("Saved for Staging: applied to every quote from now on.");
    expect(desk.settings?.affiliates).toEqual([{ address: A1, bps: 50 }]);
    expect(byId("affiliates-error")).toBeNull();

    // Emptying everything sends no entries at all.
    await click("affiliate-remove-0");
    type("token-swap-affiliate-address", "");
    type("token-swap-affiliate-bps", "");
    expect(byId("affiliates-saved")).toBeNull();
    await click("affiliates-save");
    expect(setAffiliates).toHaveBeenLastCalledWith([], null);
    expect(text("affiliates-saved")).toMatch(/^No affiliate entries on Staging/);
  });

  it("checks the limits before sending and shows the problem at its field", async () => {
    const setAffiliates = vi.fn(async () => settings());
    start(stubApi({ setAffiliates }));
    await click("affiliate-add");
    await click("affiliate-add");
    type("affiliate-address-0", A1);
    type("affiliate-bps-0", "600");
    type("affiliate-address-1", A2);
    type("affiliate-bps-1", "2.5");
    await click("affiliates-save");
    expect(setAffiliates).not.toHaveBeenCalled();
    let errors = [...document.querySelectorAll('[data-testid="affiliates-error"]')];
    expect(errors).toHaveLength(1);
    expect(byId("affiliate-entry-1")?.contains(errors[0])).toBe(true);
    expect(byId("affiliate-bps-1")?.getAttribute("aria-invalid")).toBe("true");
    expect(byId("affiliate-bps-1")?.getAttribute("aria-describedby")).toBe(errors[0].id);
    expect(document.activeElement).toBe(byId("affiliate-address-1"));

    type("affiliate-bps-1", "401");
    await click("affiliates-save");
    expect(setAffiliates).not.toHaveBeenCalled();
    errors = [...document.querySelectorAll('[data-testid="affiliates-error"]')];
    expect(errors).toHaveLength(1);
    expect(errors[0].textContent?.trim()).toBe(
      "The entries add up to 1,001 bps; the gateway takes at most 1000 bps in all. Lower some shares.",
    );
    expect(byId("affiliate-entry-0")?.contains(errors[0])).toBe(false);
    expect(byId("affiliate-entry-1")?.contains(errors[0])).toBe(false);

    type("affiliate-bps-1", "400");
    type("token-swap-affiliate-address", SWAP);
    await click("affiliates-save");
    expect(setAffiliates).not.toHaveBeenCalled();
    expect(text("affiliates-error")).toMatch(/^The token-swap entry needs both an address and a share/);
    expect(byId("token-swap-affiliate-address")?.getAttribute("aria-invalid")).toBe("true");
  });

  it("shows the app's refusal next to the entry its details name", async () => {
    const message = "Entry 2 has the same address as entry 1. Remove one of them.";
    const setAffiliates = vi.fn(async () =>
      Promise.reject({
        kind: "invalid_input",
        message,
        code: "DUPLICATE_AFFILIATE",
        details: { field: "affiliates", index: 1 },
      }),
    );
    start(stubApi({ setAffiliates }));
    await click("affiliate-add");
    await click("affiliate-add");
    type("affiliate-address-0", A1);
    type("affiliate-bps-0", "10");
    type("affiliate-address-1", A1.toUpperCase().replace("0X", "0x"));
    type("affiliate-bps-1", "10");
    await click("affiliates-save");
    expect(setAffiliates).toHaveBeenCalledTimes(1);
    const error = byId("affiliates-error")!;
    expect(byId("affiliate-entry-1")?.contains(error)).toBe(true);
    expect(error.textContent).toContain(message);
    expect(error.textContent).toContain("DUPLICATE_AFFILIATE");
    expect(error.getAttribute("role")).toBe("alert");
    expect(byId("affiliates-saved")).toBeNull();
    // What was typed stays.
    expect((byId("affiliate-bps-1") as HTMLInputElement).value).toBe("10");

    setAffiliates.mockRejectedValueOnce({
      kind: "invalid_input",
      message: "Token swaps take an EVM address. Correct the token-swap entry.",
      details: { field: "tokenSwapAffiliate" },
    });
    type("affiliate-address-1", A2);
    type("token-swap-affiliate-address", "bc1qnotevm");
    type("token-swap-affiliate-bps", "5");
    await click("affiliates-save");
    const swapError = byId("affiliates-error")!;
    expect(swapError.id).toBe("token-swap-affiliate-error");
    expect(byId("token-swap-affiliate-bps")?.getAttribute("aria-describedby")).toBe("token-swap-affiliate-error");
    expect(byId("affiliate-entry-1")?.contains(swapError)).toBe(false);

    setAffiliates.mockRejectedValueOnce({
      kind: "settings",
      message: "The settings file could not be written. Check the disk.",
    });
    await click("affiliates-save");
    expect(byId("affiliates-error")?.id).toBe("affiliates-section-error");
  });

  it("shows the new network's entries after a switch", async () => {
    desk.settings = settings({ affiliates: [{ address: A1, bps: 50 }] });
    start(stubApi());
    type("affiliate-bps-0", "70");
    desk.settings = settings({
      network: {
        kind: "sandbox",
        label: "Sandbox",
        baseUrl: "http://127.0.0.1:1",
        apiVersion: "v3",
        ...chainFacts("sandbox"),
      },
      affiliates: [{ address: A2, bps: 20 }],
    });
    await settle();
    expect((byId("affiliate-address-0") as HTMLInputElement).value).toBe(A2);
    expect((byId("affiliate-bps-0") as HTMLInputElement).value).toBe("20");
  });
});
