import { describe, expect, it, vi } from "vitest";
import type { DeskApi } from "./ipc";
import { stubApi, chainFacts } from "./testing";
import type { SettingsView } from "./bindings/SettingsView";
import { DeskState } from "./stores.svelte";

function view(kind: SettingsView["network"]["kind"], label: string, notices: string[] = []): SettingsView {
  return {
    network: { kind, label, baseUrl: `https://${kind}.example`, apiVersion: "v2", ...chainFacts(kind) },
    customUrl: null,
    settingsPath: "/tmp/settings.toml",
    keychainAvailable: true,
    watched: [],
    theme: "system",
    notices,
    affiliates: [],
  };
}

function api(overrides: Partial<DeskApi> = {}): DeskApi {
  return stubApi({
    getSettings: vi.fn(async () => view("sandbox", "Sandbox", ["Settings file was set aside."])),
    selectNetwork: vi.fn(async (c) => view(c.kind, c.kind === "production" ? "Production" : "Other")),
    listRoutes: vi.fn(async () => []),
    ...overrides,
  });
}

describe("DeskState", () => {
  it("starts on the Swap view, then on the view the person left", () => {
    const kept = new Map<string, string>();
    const storage = { getItem: (k: string) => kept.get(k) ?? null, setItem: (k: string, v: string) => kept.set(k, v) };
    const first = new DeskState(api(), storage);
    expect(first.activeView).toBe("swap");
    first.showView("orders");
    expect(kept.get("gateway-desk.view.v1")).toBe("orders");
    expect(new DeskState(api(), storage).activeView).toBe("orders");
    // Without a storage (or one that refuses), every start is a first one.
    expect(new DeskState(api(), null).activeView).toBe("swap");
    const refusing = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    const desk = new DeskState(api(), refusing);
    expect(desk.activeView).toBe("swap");
    desk.showView("wallet");
    expect(desk.activeView).toBe("wallet");
  });

  it("loads settings and their notices", async () => {
    const desk = new DeskState(api());
    expect(desk.networkKey).toBeNull();
    await desk.loadSettings();
    expect(desk.settingsStatus).toBe("ready");
    expect(desk.settings?.network.label).toBe("Sandbox");
    expect(desk.notices).toEqual(["Settings file was set aside."]);
    expect(desk.networkKey).toContain("sandbox");
    desk.dismissNotice(0);
    expect(desk.notices).toEqual([]);
  });

  it("switches network", async () => {
    const a = api();
    const desk = new DeskState(a);
    await desk.loadSettings();
    expect(await desk.switchNetwork({ kind: "production" })).toBe(true);
    expect(a.selectNetwork).toHaveBeenCalledWith({ kind: "production" });
    expect(desk.settings?.network.label).toBe("Production");
    expect(desk.switching).toBe(false);
  });

  it("keeps the previous network and shows the message when a switch fails", async () => {
    const message = "The custom URL did not answer. Check it and choose Connect again.";
    const desk = new DeskState(
      api({ selectNetwork: vi.fn(async () => Promise.reject({ kind: "transport", message })) }),
    );
    await desk.loadSettings();
    expect(await desk.switchNetwork({ kind: "custom", customUrl: "https://nope.example" })).toBe(false);
    expect(desk.settings?.network.label).toBe("Sandbox");
    expect(desk.error).toEqual({ source: "network", error: { kind: "transport", message } });
    expect(desk.switching).toBe(false);
  });

  it("reports a failed settings load and still gives views a key", async () => {
    const desk = new DeskState(api({ getSettings: vi.fn(async () => Promise.reject("boom")) }));
    await desk.loadSettings();
    expect(desk.settingsStatus).toBe("failed");
    expect(desk.error?.source).toBe("settings");
    expect(desk.error?.error.kind).toBe("transport");
    expect(desk.networkKey).toBe("unknown");
  });

  it("clears only errors of the given source", () => {
    const desk = new DeskState(api());
    desk.showError("routes", { kind: "gateway", message: "Down. Try later." });
    desk.clearError("network");
    expect(desk.error).not.toBeNull();
    desk.clearError("routes");
    expect(desk.error).toBeNull();
  });
});
