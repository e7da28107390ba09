import { beforeEach, describe, expect, it, vi } from "vitest";

const invoke = vi.fn();
vi.mock("@tauri-apps/api/core", () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  isTauri: () => true,
}));

const { getSettings, listRoutes, selectNetwork, toDeskError, isDeskError } = await import("./ipc");

const settings = {
  network: { kind: "sandbox", label: "Sandbox", baseUrl: "https://sandbox.example", apiVersion: "v2" },
  customUrl: null,
  settingsPath: "/tmp/settings.toml",
  keychainAvailable: true,
  watched: [],
  theme: "system",
  notices: [],
};

beforeEach(() => {
  invoke.mockClear();
});

describe("commands", () => {
  it("calls get_settings without arguments", async () => {
    invoke.mockImplementation(async () => settings);
    await expect(getSettings()).resolves.toEqual(settings);
    expect(invoke).toHaveBeenCalledWith("get_settings", undefined);
  });

  it("passes the choice to select_network", async () => {
    invoke.mockImplementation(async () => settings);
    await selectNetwork({ kind: "custom", customUrl: "https://gw.example" });
    expect(invoke).toHaveBeenCalledWith("select_network", {
      choice: { kind: "custom", customUrl: "https://gw.example" },
    });
  });

  it("returns the routes of list_routes", async () => {
    invoke.mockImplementation(async () => []);
    await expect(listRoutes()).resolves.toEqual([]);
    expect(invoke).toHaveBeenCalledWith("list_routes", undefined);
  });

  it("passes a DeskError rejection through", async () => {
    const err = { kind: "rate_limited", message: "The gateway is busy. Wait a minute and try again.", code: "429" };
    invoke.mockImplementation(() => Promise.reject(err));
    const caught = await listRoutes().catch((e: unknown) => e);
    expect(caught).toEqual(err);
  });

  it("wraps a string rejection as a transport DeskError", async () => {
    invoke.mockImplementation(() => Promise.reject("command list_routes not found"));
    const err = await listRoutes().catch((e: unknown) => e);
    expect(isDeskError(err)).toBe(true);
    expect(err).toMatchObject({ kind: "transport" });
    expect((err as { message: string }).message).toContain("command list_routes not found");
  });
});

describe("toDeskError", () => {
  it("keeps kind, message, code and details of a DeskError", () => {
    const e = toDeskError({ kind: "gateway", message: "No. Try later.", code: "X1", details: { a: 1 } });
    expect(e).toEqual({ kind: "gateway", message: "No. Try later.", code: "X1", details: { a: 1 } });
  });

  it("never shows JSON or a stack for odd rejections", () => {
    const odd: unknown[] = [
      { foo: 1, bar: [2, 3] },
      { kind: "made_up", message: "x" },
      { kind: "gateway", message: "" },
      null,
      undefined,
      42,
      new TypeError("boom"),
    ];
    for (const value of odd) {
      const e = toDeskError(value);
      expect(e.kind).toBe("transport");
      expect(e.message).not.toMatch(/[{}[\]]/);
      expect(e.message).not.toMatch(/\bat\s+\S+\s+\(/);
      expect(e.message).toMatch(/restart the app\.$/);
    }
    expect(toDeskError(new TypeError("boom")).message).toContain("boom");
  });

  it("keeps long reasons short", () => {
    expect(toDeskError("x".repeat(1000)).message.length).toBeLessThan(320);
  });
});
