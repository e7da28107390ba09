// @vitest-environment happy-dom
// The window's frame, rendered with a stand-in for the Rust side: test ids, default view,
// network switching (success and failure), notices and the Routes view.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SelectNetworkArgs } from "./lib/bindings/args/SelectNetworkArgs";
import type { RouteView } from "./lib/bindings/RouteView";
import type { SettingsView } from "./lib/bindings/SettingsView";
import { emptyDashboard } from "./lib/partner/fixtures";
import { chainFacts } from "./lib/testing";

type Handler = (args?: Record<string, unknown>) => Promise<unknown>;
const handlers: Record<string, Handler> = {};
const invoke = vi.fn((cmd: string, args?: Record<string, unknown>) => {
  const h = handlers[cmd];
  return h ? h(args) : Promise.reject(`command ${cmd} not found`);
});
vi.mock("@tauri-apps/api/core", () => ({
  invoke: (cmd: string, args?: Record<string, unknown>) => invoke(cmd, args),
  isTauri: () => true,
}));

const LABELS = { production: "Production", staging: "Staging", custom: "Custom URL", sandbox: "Sandbox" } as const;

function settings(kind: keyof typeof LABELS, notices: string[] = [], customUrl: string | null = null): SettingsView {
  return {
    network: {
      kind,
      label: LABELS[kind],
      baseUrl: customUrl ?? `https://${kind}.example`,
      apiVersion: "v2",
      ...chainFacts(kind),
    },
    customUrl,
    settingsPath: "/tmp/settings.toml",
    keychainAvailable: true,
    watched: [],
    theme: "system",
    notices,
    affiliates: [],
  };
}

const ROUTES: RouteView[] = [
  {
    kind: "tokenSwap",
    src: {
      chain: "ethereum",
      address: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
      symbol: "USDC",
      name: null,
      decimals: 6,
    },
    dst: { chain: "bitcoin", address: "native", symbol: "BTC", name: null, decimals: 8 },
    defaultSlippageBps: 100,
  },
  {
    kind: "offramp",
    src: {
      chain: "arbitrum",
      address: "0x1234567890abcdef1234567890abcdef12345678",
      symbol: null,
      name: null,
      decimals: null,
    },
    dst: { chain: "fiat", address: "eur", symbol: "EUR", name: null, decimals: 2 },
    defaultSlippageBps: 100,
  },
];

// Each test loads a fresh App (and so a fresh store) with vi.resetModules(), so Svelte's
// runtime is loaded afresh too and must be the same instance the components use.
let svelte: typeof import("svelte");
const flushSync = () => svelte.flushSync();
const tick = () => svelte.tick();

async function settle() {
  for (let i = 0; i < 5; i++) {
    await Promise.resolve();
    await tick();
  }
  flushSync();
}

const byId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const allById = (id: string) => [...document.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];
const text = (id: string) => byId(id)?.textContent?.replace(/\s+/g, " ").trim();

let app: Record<string, unknown> | null = null;

beforeEach(async () => {
  vi.resetModules();
  invoke.mockClear();
  for (const k of Object.keys(handlers)) delete handlers[k];
  handlers.get_settings = async () =>
    settings("sandbox", ["Your settings file was unreadable and was set aside. Check the settings."]);
  handlers.list_routes = async () => ROUTES;
  handlers.wallet_status = async () => ({ state: "none", idleLockSecs: 300 });
  // The window sends a command's arguments as its generated `…Args` under `args`.
  handlers.select_network = async (body) => {
    const { choice } = body?.args as SelectNetworkArgs;
    return settings(choice.kind, [], choice.customUrl ?? null);
  };
  document.body.innerHTML = '<div id="app"></div>';
  // A first start: no view remembered from a previous one.
  localStorage.clear();
});

afterEach(async () => {
  // Let the frames the window asked for run out, so no test sees the previous one's first-paint report.
  await new Promise((resolve) => setTimeout(resolve, 50));
  if (app) svelte.unmount(app);
  app = null;
});

async function start() {
  svelte = await import("svelte");
  const { default: App } = await import("./App.svelte");
  app = svelte.mount(App, { target: document.getElementById("app")! });
  await settle();
  await loaded("the first view");
}

/** Waits until the view shown has finished loading (views other than Routes load on first opening). */
async function loaded(what: string) {
  for (let i = 0; i < 500 && byId("view-loading"); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    await settle();
  }
  expect(byId("view-loading"), `${what} finished loading`).toBeNull();
}

/** Opens a view from the sidebar and waits until it is shown (views other than Routes load on first opening). */
async function open(id: string) {
  (byId(`nav-${id}`) as HTMLButtonElement).click();
  await settle();
  await loaded(id);
}

function choose(value: string) {
  const select = byId("network-select") as HTMLSelectElement;
  select.value = value;
  select.dispatchEvent(new Event("change", { bubbles: true }));
}

// The first start reads the Swap view's file, which the first test of a run transforms: minutes on a busy machine
// would be too long, seconds are not.
describe("the window", { timeout: 20_000 }, () => {
  it("shows the header, the sidebar in order and the Swap view on a first start", async () => {
    await start();
    expect(text("current-network")).toBe("Sandbox");
    expect(text("current-network-url")).toBe("https://sandbox.example · API v2");
    const nav = document.querySelector('nav[aria-label="Views"]')!;
    expect([...nav.querySelectorAll("button")].map((b) => b.dataset.testid)).toEqual([
      "nav-swap",
      "nav-orders",
      "nav-wallet",
      "nav-routes",
      "nav-partner",
      "nav-support",
      "nav-settings",
    ]);
    expect(byId("nav-swap")?.getAttribute("aria-current")).toBe("page");
    expect(byId("nav-routes")?.hasAttribute("aria-current")).toBe(false);
    expect(byId("view-swap")).not.toBeNull();
    const select = byId("network-select") as HTMLSelectElement;
    expect([...select.options].map((o) => [o.value, o.text])).toEqual([
      ["production", "Production"],
      ["staging", "Staging"],
      ["custom", "Custom URL"],
      ["sandbox", "Sandbox"],
    ]);
    expect(select.value).toBe("sandbox");
    expect(document.querySelector('label[for="network-select"]')?.textContent).toBe("Network");
  });

  it("opens on the view the person left, and on Swap when what was kept is not a view", async () => {
    await start();
    await open("settings");
    expect(localStorage.getItem("gateway-desk.view.v1")).toBe("settings");
    // The app is started again.
    svelte.unmount(app!);
    app = null;
    vi.resetModules();
    document.body.innerHTML = '<div id="app"></div>';
    await start();
    expect(byId("nav-settings")?.getAttribute("aria-current")).toBe("page");
    expect(byId("settings-view")).not.toBeNull();
    // A value this version does not know (an older view's name, a damaged entry) falls back to Swap.
    svelte.unmount(app!);
    app = null;
    vi.resetModules();
    document.body.innerHTML = '<div id="app"></div>';
    localStorage.setItem("gateway-desk.view.v1", "dashboard");
    await start();
    expect(byId("nav-swap")?.getAttribute("aria-current")).toBe("page");
    expect(byId("view-swap")).not.toBeNull();
  });

  it("opens Swap from a route's row with its tokens chosen and the amount empty, before Swap was ever opened", async () => {
    localStorage.setItem("gateway-desk.view.v1", "routes");
    await start();
    expect(byId("view-routes")).not.toBeNull();
    // One button per row, numbered in the order shown, each naming its route.
    expect(allById("route-row").map((_, i) => byId(`route-swap-${i}`)?.tagName)).toEqual(["BUTTON", "BUTTON"]);
    const button = byId("route-swap-1") as HTMLButtonElement;
    expect(button.getAttribute("aria-label")).toBe(
      "Swap USDC on ethereum to BTC on bitcoin: open Swap with this route",
    );
    button.click();
    await settle();
    await loaded("swap");
    await settle();
    expect(byId("nav-swap")?.getAttribute("aria-current")).toBe("page");
    expect((byId("swap-src-chain") as HTMLSelectElement).value).toBe("ethereum");
    expect((byId("swap-src-token") as HTMLSelectElement).value).toBe(ROUTES[0].src.address);
    expect((byId("swap-dst-chain") as HTMLSelectElement).value).toBe("bitcoin");
    expect((byId("swap-dst-token") as HTMLSelectElement).value).toBe("native");
    expect((byId("swap-amount") as HTMLInputElement).value).toBe("");
    expect(document.activeElement?.id).toBe("swap-amount");
    expect(text("swap-route-kind")).toBe("Token swap");
    // Another route, from Routes again: the form follows it.
    await open("routes");
    (byId("route-swap-0") as HTMLButtonElement).click();
    await settle();
    await loaded("swap");
    expect((byId("swap-src-chain") as HTMLSelectElement).value).toBe("arbitrum");
    expect((byId("swap-dst-chain") as HTMLSelectElement).value).toBe("fiat");
  });

  it("tells the app once that its first view is painted with the routes", async () => {
    handlers.window_painted = async () => null;
    await start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(invoke.mock.calls.filter(([c]) => c === "window_painted")).toEqual([["window_painted", undefined]]);
    choose("production");
    await settle();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(invoke.mock.calls.filter(([c]) => c === "list_routes").length).toBe(2);
    expect(invoke.mock.calls.filter(([c]) => c === "window_painted").length).toBe(1);
  });

  it("lists routes grouped by source chain, with count and filter", async () => {
    await start();
    await open("routes");
    expect(invoke).toHaveBeenCalledWith("list_routes", undefined);
    expect(allById("route-group").map((g) => g.querySelector("h2")?.textContent)).toEqual(["arbitrum", "ethereum"]);
    const rows = allById("route-row").map((r) => r.textContent?.replace(/\s+/g, " ").trim());
    expect(rows).toEqual([
      "Offramp 0x1234…5678 on arbitrum → EUR on fiat",
      "Token swap USDC on ethereum → BTC on bitcoin",
    ]);
    expect(text("routes-count")).toBe("2 routes");

    const filter = byId("routes-filter") as HTMLInputElement;
    filter.value = "btc";
    filter.dispatchEvent(new Event("input", { bubbles: true }));
    flushSync();
    expect(allById("route-row")).toHaveLength(1);
    expect(text("routes-count")).toBe("1 route");
  });

  it("shows the loading state while routes are asked for", async () => {
    let release: (routes: RouteView[]) => void = () => {};
    handlers.list_routes = () => new Promise((resolve) => (release = resolve));
    await start();
    await open("routes");
    expect(byId("routes-loading")).not.toBeNull();
    release(ROUTES);
    await settle();
    expect(byId("routes-loading")).toBeNull();
    expect(allById("route-row")).toHaveLength(2);
  });

  it("switches network at once and reloads routes", async () => {
    await start();
    await open("routes");
    const before = invoke.mock.calls.filter(([c]) => c === "list_routes").length;
    choose("production");
    flushSync();
    expect((byId("network-select") as HTMLSelectElement).disabled).toBe(true);
    expect(byId("network-busy")).not.toBeNull();
    await settle();
    expect(invoke).toHaveBeenCalledWith("select_network", { args: { choice: { kind: "production" } } });
    expect(text("current-network")).toBe("Production");
    expect((byId("network-select") as HTMLSelectElement).disabled).toBe(false);
    expect(invoke.mock.calls.filter(([c]) => c === "list_routes").length).toBe(before + 1);
  });

  it("keeps the previous network and shows the message when a switch fails", async () => {
    const message = "The staging gateway did not answer. Try again in a minute.";
    handlers.select_network = async () => Promise.reject({ kind: "gateway", message });
    await start();
    choose("staging");
    await settle();
    expect(text("error")).toBe(message);
    expect(byId("error")?.getAttribute("role")).toBe("alert");
    expect(text("current-network")).toBe("Sandbox");
    expect((byId("network-select") as HTMLSelectElement).value).toBe("sandbox");
  });

  it("asks for a URL before switching to a custom gateway", async () => {
    await start();
    expect(byId("custom-url-input")).toBeNull();
    choose("custom");
    await settle();
    expect(invoke).not.toHaveBeenCalledWith("select_network", expect.anything());
    const input = byId("custom-url-input") as HTMLInputElement;
    expect(document.querySelector('label[for="custom-url-input"]')?.textContent).toBe("Custom gateway URL");
    input.value = " https://gw.example.org ";
    input.dispatchEvent(new Event("input", { bubbles: true }));
    (byId("custom-url-apply") as HTMLButtonElement).click();
    await settle();
    expect(invoke).toHaveBeenCalledWith("select_network", {
      args: { choice: { kind: "custom", customUrl: "https://gw.example.org" } },
    });
    expect(text("current-network")).toBe("Custom URL");
  });

  it("shows notices and lets them be dismissed", async () => {
    await start();
    expect(allById("notice")).toHaveLength(1);
    (byId("notice")!.querySelector("button") as HTMLButtonElement).click();
    flushSync();
    expect(allById("notice")).toHaveLength(0);
  });

  it("shows a routes error without raw JSON", async () => {
    handlers.list_routes = async () => Promise.reject({ weird: true });
    await start();
    await open("routes");
    expect(text("error")).toMatch(/restart the app\.$/);
    expect(text("error")).not.toContain("{");
  });

  it("has every view built: each sidebar button opens its own view, none a placeholder", async () => {
    handlers.list_orders = async () => [];
    handlers.partner_dashboard = async () => emptyDashboard({ period: "day", basis: [] });
    const { VIEWS } = await import("./lib/views");
    expect(VIEWS.filter((v) => !v.built).map((v) => v.id)).toEqual([]);
    await start();
    const views: Record<string, string> = {
      swap: "view-swap",
      orders: "orders-view",
      wallet: "wallet-view",
      routes: "view-routes",
      partner: "partner-view",
      support: "support-view",
      settings: "settings-view",
    };
    expect(VIEWS.map((v) => v.id)).toEqual(Object.keys(views));
    for (const view of VIEWS) {
      await open(view.id);
      expect(byId(`nav-${view.id}`)?.getAttribute("aria-current")).toBe("page");
      const shown = byId(views[view.id]);
      expect(shown, view.id).not.toBeNull();
      expect(shown?.querySelector("h1")?.textContent).toBe(view.label);
      expect(document.querySelector("main")?.textContent).not.toContain("Not built yet");
      expect(byId("nav-" + view.id)?.textContent).not.toContain("soon");
    }
    expect(invoke).toHaveBeenCalledWith("partner_dashboard", { args: { query: { period: "day" } } });
  });

  it("opens each view at its top", async () => {
    handlers.list_orders = async () => [];
    handlers.partner_dashboard = async () => emptyDashboard({ period: "day", basis: [] });
    await start();
    const main = document.querySelector<HTMLElement>("main#content")!;
    for (const id of ["settings", "partner", "routes"]) {
      main.scrollTop = 480;
      expect(main.scrollTop).toBe(480);
      await open(id);
      expect(byId(`nav-${id}`)?.getAttribute("aria-current")).toBe("page");
      expect(main.scrollTop, id).toBe(0);
    }
  });

  it("marks every view on the Sandbox as simulated, and none on Production", async () => {
    handlers.list_orders = async () => [];
    handlers.partner_dashboard = async () => emptyDashboard({ period: "day", basis: [] });
    const { VIEWS } = await import("./lib/views");
    await start();
    for (const view of VIEWS) {
      await open(view.id);
      expect(text("sandbox-mark"), view.id).toBe("Sandbox — simulated, no real money moves");
    }
    choose("production");
    await settle();
    for (const view of VIEWS) {
      await open(view.id);
      expect(byId("sandbox-mark"), view.id).toBeNull();
    }
  });
});
