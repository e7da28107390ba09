// Dashboards for tests, shaped like desk-core's answers. Used only by tests.
import type { ChartBar } from "../bindings/ChartBar";
import type { Dashboard } from "../bindings/Dashboard";
import type { DashboardRow } from "../bindings/DashboardRow";
import type { RouteKind } from "../bindings/RouteKind";

export const WBTC_BOB = {
  chain: "bob",
  address: "0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3",
  symbol: "WBTC",
  name: "Wrapped BTC",
  decimals: 8,
};
export const BTC = { chain: "bitcoin", address: "native", symbol: "BTC", name: "Bitcoin", decimals: 8 };

/** A dashboard of three weeks: 7 orders, 4 completed, onramp and token swap. */
export function dashboard(over: Partial<Dashboard> = {}): Dashboard {
  return {
    period: "week",
    orders: 7,
    byStatus: [
      { status: "success", text: "Completed", count: 4 },
      { status: "inProgress", text: "In progress", count: 2 },
      { status: "refunded", text: "Refunded", count: 1 },
    ],
    volumeUsd: "12345.67",
    completed: 4,
    completedWithoutUsd: 0,
    byToken: [
      { token: BTC, amount: "12000000", text: "0.12 BTC", usd: "11345.60", orders: 3, capped: false },
      { token: WBTC_BOB, amount: "1000000", text: "0.01 WBTC", usd: "1000.07", orders: 1, capped: false },
    ],
    earningsExactUsd: "56.73",
    earningsEstimatedUsd: "3.00",
    byRoute: [
      {
        route: "onramp",
        orders: 5,
        completed: 3,
        volumeUsd: "11345.60",
        earningsExactUsd: "56.73",
        earningsEstimatedUsd: "0.00",
      },
      {
        route: "tokenSwap",
        orders: 2,
        completed: 1,
        volumeUsd: "1000.07",
        earningsExactUsd: "0.00",
        earningsEstimatedUsd: "3.00",
      },
    ],
    rows: [
      row("2026-W47", 1_763_337_600, "onramp", 2, 1, "5000.00", "25.00", "0.00"),
      row("2026-W47", 1_763_337_600, "tokenSwap", 2, 1, "1000.07", "0.00", "3.00"),
      row("2026-W46", 1_762_732_800, "onramp", 2, 1, "4000.00", "20.00", "0.00"),
      row("2026-W45", 1_762_128_000, "onramp", 1, 1, "2345.60", "11.73", "0.00"),
    ],
    chart: [
      bar("2026-W45", 1_762_128_000, "2345.60", "11.73", "0.00"),
      bar("2026-W46", 1_762_732_800, "4000.00", "20.00", "0.00"),
      bar("2026-W47", 1_763_337_600, "6000.07", "25.00", "3.00"),
    ],
    basis: [
      "Volume and earnings count completed orders only; the counts by status count every order.",
      "Estimated earnings are the bps configured × the USD volume where the quote stated no fee.",
    ],
    ...over,
  };
}

export function row(
  bucket: string,
  start: number,
  route: RouteKind,
  orders: number,
  completed: number,
  volumeUsd: string,
  earningsExactUsd: string,
  earningsEstimatedUsd: string,
): DashboardRow {
  return { bucket, start, route, orders, completed, volumeUsd, earningsExactUsd, earningsEstimatedUsd };
}

export function bar(
  bucket: string,
  start: number,
  volumeUsd: string,
  earningsExactUsd: string,
  earningsEstimatedUsd: string,
): ChartBar {
  return { bucket, start, volumeUsd, earningsExactUsd, earningsEstimatedUsd };
}

/** An empty dashboard for a period. */
export function emptyDashboard(over: Partial<Dashboard> = {}): Dashboard {
  return dashboard({
    orders: 0,
    byStatus: [],
    volumeUsd: "0.00",
    completed: 0,
    byToken: [],
    earningsExactUsd: "0.00",
    earningsEstimatedUsd: "0.00",
    byRoute: [],
    rows: [],
    chart: [],
    ...over,
  });
}
