// @vitest-environment happy-dom
// The Settings view with a stand-in for the Rust side: the API key (masked status, length as typed, save, remove
// with a confirm step, no keychain), the API version, the theme and where the files are.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, tick, unmount } from "svelte";
import type { SettingsView } from "../bindings/SettingsView";
import type { DeskApi } from "../ipc";
import { desk } from "../stores.svelte";
import { stubApi } from "../testing";
import SettingsPanel from "./SettingsPanel.svelte";

function settings(overrides: Partial<SettingsView> = {}): SettingsView {
  return {
    network: { kind: "staging", label: "Staging", baseUrl: "https://gateway-api-staging.gobob.xyz", apiVersion: "v3" },
    customUrl: null,
    settingsPath: "/home/me/.config/gateway-desk/settings.json",
    journalPath: "/home/me/.local/share/gateway-desk/journal.sqlite3",
    keychainAvailable: true,
    watched: [],
    theme: "system",
    notices: [],
    ...overrides,
  };
}

const KEY = "0123456789abcdef0123456789abcdef";

const byId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const text = (id: string) => byId(id)?.textContent?.replace(/\s+/g, " ").trim();

async function settle() {
  for (let i = 0; i < 5; i++) {
    await Promise.resolve();
    await tick();
  }
  flushSync();
}

function type(id: string, value: string) {
  const input = byId(id) as HTMLInputElement;
  input.value = value;
  input.dispatchEvent(new Event("input", { bubbles: true }));
  flushSync();
}

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
    expect(text("api-key-no-keychain")).toMatch(/^No keychain is reachable on this computer, so a key cannot be stored\./);
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
    start(stubApi({ setTheme: vi.fn(async () => Promise.reject({ kind: "settings", message: "Could not save. Check the disk." })) }));
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
    start(api);
    const select = byId("api-version-select") as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(["v3", "v2", "v1"]);
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

  it("says when the settings are not read yet", () => {
    desk.settings = null;
    desk.settingsStatus = "loading";
    start(stubApi());
    expect(text("settings-view")).toContain("Loading…");
    expect(byId("api-key-input")).toBeNull();
  });
});
