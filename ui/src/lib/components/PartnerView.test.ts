// @vitest-environment happy-dom
// The Partner view with a stand-in for the Rust side: the figures of a fixture dashboard, the chart, the tables,
// the bounded rows table, reading again on a period, route or order change, CSV export and failures.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { DeskEvent } from "../bindings/DeskEvent";
import type { SettingsView } from "../bindings/SettingsView";
import type { DeskApi } from "../ipc";
import { own } from "../orders/fixtures";
import { OrdersState } from "../orders/state.svelte";
import { bar, dashboard, emptyDashboard, row } from "../partner/fixtures";
import { PartnerState } from "../partner/state.svelte";
import { desk } from "../stores.svelte";
import { allById, byId, choose, settle, stubApi, text, chainFacts } from "../testing";
import PartnerView from "./PartnerView.svelte";

const AFFILIATE = "0x1111111111111111111111111111111111111111";

function settings(over: Partial<SettingsView> = {}): SettingsView {
  return {
    network: {
      kind: "sandbox",
      label: "Sandbox",
      baseUrl: "http://127.0.0.1:9999",
      apiVersion: "v3",
      ...chainFacts("sandbox"),
    },
    customUrl: null,
    settingsPath: "/tmp/settings.json",
    keychainAvailable: true,
    watched: [],
    theme: "system",
    notices: [],
    affiliates: [{ address: AFFILIATE, bps: 50 }],
    tokenSwapAffiliate: { address: "0x2222222222222222222222222222222222222222", bps: 30 },
    ...over,
  };
}

let app: Record<string, unknown> | null = null;
let emit: (event: DeskEvent) => void = () => {};

function start(api: DeskApi) {
  const store = new PartnerState(api, { reloadDelayMs: 0 });
  const ordersStore = new OrdersState(api, {
    subscribe: async (handler) => {
      emit = handler;
      return () => {};
    },
  });
  app = mount(PartnerView, { target: document.getElementById("app")!, props: { store, ordersStore } });
  return store;
}

beforeEach(() => {
  document.body.innerHTML = '<div id="app"></div>';
  desk.settings = settings();
  desk.activeView = "partner";
  emit = () => {};
});

afterEach(() => {
  if (app) unmount(app);
  app = null;
  vi.useRealTimers();
});

describe("the Partner view", () => {
  it("shows the headline figures, exact to the cent, with both kinds of earnings labelled", async () => {
    const api = stubApi({ partnerDashboard: vi.fn(async () => dashboard()) });
    start(api);
    await settle();
    expect(api.partnerDashboard).toHaveBeenCalledWith({ period: "day" });
    expect(text("partner-orders")).toBe("7");
    expect(text("partner-completed")).toBe("4");
    expect(text("partner-volume-usd")).toBe("$12,345.67");
    expect(text("partner-earnings-exact")).toBe("$56.73");
    expect(text("partner-earnings-estimated")).toBe("$3.00");
    expect(text("partner-earnings-total")).toBe("$59.73");
    const labels = [...document.querySelectorAll(".figures dt")].map((dt) => dt.textContent);
    expect(labels).toContain("Earnings, exact");
    expect(labels).toContain("Earnings, estimated");
    expect(byId("partner-without-usd")).toBeNull();
    expect(byId("partner-capped")).toBeNull();
    expect(byId("partner-token-capped")).toBeNull();
    expect(text("partner-affiliates")).toContain("0x1111…1111 50 bps (0.5%)");
    expect(text("partner-affiliates")).toContain("30 bps (0.3%)");
  });

  it("counts by status, per route and per token", async () => {
    start(stubApi({ partnerDashboard: async () => dashboard() }));
    await settle();
    expect(text("partner-status-success")).toBe("4");
    expect(text("partner-status-inProgress")).toBe("2");
    expect(text("partner-status-refunded")).toBe("1");
    expect(byId("partner-status-success")?.closest("tr")?.querySelector("th")?.textContent).toBe("Completed");

    const onramp = byId("partner-route-total-onramp")!;
    expect([...onramp.children].map((c) => c.textContent?.trim())).toEqual([
      "Onramp",
      "5",
      "3",
      "$11,345.60",
      "$56.73",
      "$0.00",
    ]);
    expect(byId("partner-route-total-tokenSwap")).not.toBeNull();

    const wbtc = byId("partner-token-bob-0x03c7054bcb39f7b2e5b2c7acb37583e32d70cfa3")!;
    expect([...wbtc.children].map((c) => c.textContent?.trim())).toEqual([
      "WBTC on bob",
      "1",
      "0.01 WBTC",
      "$1,000.07",
    ]);
    expect(byId("partner-token-bitcoin-native")).not.toBeNull();
  });

  it("draws one bar per bucket with axis labels, titles and a description", async () => {
    start(stubApi({ partnerDashboard: async () => dashboard() }));
    await settle();
    const chart = byId("partner-chart")!;
    const svg = chart.querySelector("svg")!;
    expect(svg.getAttribute("role")).toBe("img");
    const labelledBy = svg.getAttribute("aria-labelledby")!.split(" ");
    expect(labelledBy.map((id) => document.getElementById(id)?.textContent)).toEqual([
      "Volume and affiliate earnings per week",
      "3 weeks from 2026-W45 to 2026-W47: volume $12,345.67 in all, highest $6,000.07 in 2026-W47; earnings $59.73 in all (exact and estimated).",
    ]);
    const bars = allById("partner-chart-bar", chart);
    expect(bars).toHaveLength(3);
    expect(bars.map((b) => b.dataset.bucket)).toEqual(["2026-W45", "2026-W46", "2026-W47"]);
    expect(bars[2].querySelector("title")?.textContent).toBe(
      "2026-W47: volume $6,000.07; earnings $25.00 exact, $3.00 estimated",
    );
    expect(bars[0].querySelectorAll("rect")).toHaveLength(3);
    expect(allById("partner-chart-label", chart).map((l) => l.textContent)).toEqual(["W45", "W46", "W47"]);
    const volumeAxis = [...byId("partner-chart-volume-axis", chart)!.querySelectorAll("text")].map(
      (t) => t.textContent,
    );
    expect(volumeAxis).toEqual(["$0.00", "$2,000.00", "$4,000.00", "$6,000.00", "$8,000.00", "Volume"]);
    const earningsAxis = [...byId("partner-chart-earnings-axis", chart)!.querySelectorAll("text")].map(
      (t) => t.textContent,
    );
    expect(earningsAxis.at(-1)).toBe("Earnings");
    expect(earningsAxis[0]).toBe("$0.00");
    expect(text("partner-basis")).toContain("Volume and earnings count completed orders only");
  });

  it("says so instead of an empty chart, and when completed orders had no USD value", async () => {
    start(stubApi({ partnerDashboard: async () => emptyDashboard({ completedWithoutUsd: 2 }) }));
    await settle();
    expect(byId("partner-chart")?.querySelector("svg")).toBeNull();
    expect(text("partner-chart-empty")).toBe("No completed orders to chart.");
    expect(text("partner-empty")).toMatch(/^No orders to count yet/);
    expect(text("partner-without-usd")).toMatch(/^2 completed orders have no USD value/);
  });

  it("says which totals were capped, and marks a capped token volume", async () => {
    const capped = dashboard();
    const max = "340282366920938463463374607431768.21";
    capped.byToken = [{ ...capped.byToken[0], usd: max, capped: true }];
    capped.capped = "Some totals reached the largest sum the app can count ($340282366920938463463374607431768.21).";
    start(stubApi({ partnerDashboard: async () => capped }));
    await settle();
    expect(text("partner-capped")).toContain("reached the largest sum the app can count");
    expect(text("partner-token-capped")).toMatch(/^at least \$340,282,366,920/);
  });

  it("shows the newest 100 rows of many, and all on request", async () => {
    const rows = Array.from({ length: 365 }, (_, i) =>
      row(`2026-${String(i).padStart(3, "0")}`, 1_700_000_000 - i * 86_400, "onramp", 1, 1, "10.00", "0.05", "0.00"),
    );
    const chart = rows
      .map((r) => bar(r.bucket, r.start, r.volumeUsd, r.earningsExactUsd, r.earningsEstimatedUsd))
      .reverse();
    start(stubApi({ partnerDashboard: async () => dashboard({ period: "day", rows, chart }) }));
    await settle();
    expect(allById("partner-row")).toHaveLength(100);
    expect(allById("partner-row")[0].dataset.bucket).toBe("2026-000");
    expect(text("partner-rows-count")).toBe("Newest 100 of 365 rows");
    expect(allById("partner-chart-bar")).toHaveLength(365);
    const toggle = byId("partner-rows-toggle") as HTMLButtonElement;
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    toggle.click();
    flushSync();
    expect(allById("partner-row")).toHaveLength(365);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
  });

  it("reads again for another period or route, and when an order changes", async () => {
    const partnerDashboard = vi.fn(async () => dashboard());
    start(stubApi({ partnerDashboard, listOrders: async () => [] }));
    await settle();
    choose("partner-period", "month");
    await settle();
    expect(partnerDashboard).toHaveBeenLastCalledWith({ period: "month" });
    choose("partner-route", "tokenSwap");
    await settle();
    expect(partnerDashboard).toHaveBeenLastCalledWith({ period: "month", route: "tokenSwap" });
    expect(partnerDashboard).toHaveBeenCalledTimes(3);

    partnerDashboard.mockResolvedValueOnce(dashboard({ orders: 8 }));
    emit({ type: "orderChanged", order: own(9, { status: "success" }) });
    flushSync();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await settle();
    expect(partnerDashboard).toHaveBeenCalledTimes(4);
    expect(partnerDashboard).toHaveBeenLastCalledWith({ period: "month", route: "tokenSwap" });
    expect(text("partner-orders")).toBe("8");

    emit({ type: "readFailed", message: "Timed out.", retryInSecs: 5 });
    flushSync();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await settle();
    expect(partnerDashboard).toHaveBeenCalledTimes(4);
  });

  it("exports the rows as CSV and shows where", async () => {
    const saveDashboardCsv = vi.fn(async () => "/home/me/gateway-desk-partner-orders.csv");
    start(stubApi({ partnerDashboard: async () => dashboard(), saveDashboardCsv }));
    await settle();
    choose("partner-period", "week");
    await settle();
    (byId("partner-export-csv") as HTMLButtonElement).click();
    await settle();
    expect(saveDashboardCsv).toHaveBeenCalledWith({ period: "week" });
    expect(text("partner-csv-saved")).toBe("Saved to /home/me/gateway-desk-partner-orders.csv");
  });

  it("says why the dashboard could not be read", async () => {
    const message = "The order journal cannot be read. Restart the app.";
    start(stubApi({ partnerDashboard: async () => Promise.reject({ kind: "journal", message }) }));
    await settle();
    expect(text("partner-error")).toBe(message);
    expect(byId("partner-error")?.getAttribute("role")).toBe("alert");
    expect(byId("partner-orders")).toBeNull();
  });
});
