import { describe, expect, it } from "vitest";
import { bar, dashboard, row } from "./fixtures";
import {
  CHART_HEIGHT,
  MAX_LABELS,
  axisText,
  bucketShort,
  centsText,
  chartLayout,
  chartSummary,
  countText,
  isPeriod,
  isRouteFilter,
  niceScale,
  queryOf,
  tokenTestId,
  usdCents,
  usdSumText,
  usdText,
  visibleRows,
} from "./model";

describe("USD values", () => {
  it("reads decimal strings into exact cents", () => {
    expect(usdCents("1234.56")).toBe(123456n);
    expect(usdCents("0.05")).toBe(5n);
    expect(usdCents("7")).toBe(700n);
    expect(usdCents("7.5")).toBe(750n);
    expect(usdCents("-2.30")).toBe(-230n);
    // Far past what a float holds exactly.
    expect(usdCents("90071992547409931.99")).toBe(9007199254740993199n);
    expect(usdCents("12,00")).toBeNull();
    expect(usdCents("")).toBeNull();
  });

  it("writes them with thousands separated and every cent kept", () => {
    expect(usdText("1234.56")).toBe("$1,234.56");
    expect(usdText("0.00")).toBe("$0.00");
    expect(usdText("1000000.10")).toBe("$1,000,000.10");
    expect(usdText("-0.05")).toBe("-$0.05");
    expect(usdText("90071992547409931.99")).toBe("$90,071,992,547,409,931.99");
    expect(centsText(100n)).toBe("$1.00");
    expect(usdText("n/a")).toBe("n/a");
  });

  it("adds them exactly", () => {
    // 0.1 + 0.2 in floating point is 0.30000000000000004.
    expect(usdSumText("0.10", "0.20")).toBe("$0.30");
    expect(usdSumText("56.73", "3.00")).toBe("$59.73");
    expect(usdSumText()).toBe("$0.00");
  });
});

describe("choices and labels", () => {
  it("knows the periods and route filters", () => {
    expect(isPeriod("week")).toBe(true);
    expect(isPeriod("year")).toBe(false);
    expect(isRouteFilter("tokenSwap")).toBe(true);
    expect(isRouteFilter("swap")).toBe(false);
    expect(queryOf("month", "all")).toEqual({ period: "month" });
    expect(queryOf("day", "offramp")).toEqual({ period: "day", route: "offramp" });
  });

  it("counts with separators and names token rows by chain and lower-cased address", () => {
    expect(countText(10000)).toBe("10,000");
    expect(countText(7)).toBe("7");
    expect(tokenTestId(dashboard().byToken[1].token)).toBe(
      "partner-token-bob-0x03c7054bcb39f7b2e5b2c7acb37583e32d70cfa3",
    );
  });

  it("shortens bucket names under the chart", () => {
    expect(bucketShort("2026-11-21")).toBe("21 Nov");
    expect(bucketShort("2026-W07")).toBe("W7");
    expect(bucketShort("2026-01")).toBe("Jan 2026");
    expect(bucketShort("other")).toBe("other");
  });

  it("keeps the rows table bounded unless all are asked for", () => {
    const rows = Array.from({ length: 250 }, (_, i) => row(`b${i}`, i, "onramp", 1, 1, "1.00", "0.00", "0.00"));
    expect(visibleRows(rows, false)).toHaveLength(100);
    expect(visibleRows(rows, false)[0].bucket).toBe("b0");
    expect(visibleRows(rows, true)).toHaveLength(250);
    expect(visibleRows(rows.slice(0, 3), false)).toHaveLength(3);
  });
});

describe("the chart", () => {
  it("picks nice scales that hold the largest value", () => {
    expect(niceScale(0)).toEqual({ max: 100, step: 25 });
    expect(niceScale(600_007)).toEqual({ max: 800_000, step: 200_000 });
    expect(niceScale(2_800)).toEqual({ max: 3_000, step: 1_000 });
    const s = niceScale(123_456_789);
    expect(s.max).toBeGreaterThanOrEqual(123_456_789);
    expect(s.max / s.step).toBeLessThanOrEqual(5);
    // The window's one USD format on the axes too, never "$1.5k" (issue 31).
    expect(axisText(0)).toBe("$0.00");
    expect(axisText(25)).toBe("$0.25");
    expect(axisText(25_000)).toBe("$250.00");
    expect(axisText(150_000)).toBe("$1,500.00");
    expect(axisText(200_000_000)).toBe("$2,000,000.00");
  });

  it("leaves each axis the room its widest label needs", () => {
    // The fixture's volume axis tops at "$8,000.00" (9 characters: 12 + 63 = 75 px); its earnings' "$30.00" keeps 64.
    const small = chartLayout(dashboard().chart);
    expect(small.plot.x).toBe(75);
    expect(small.plot.x + small.plot.width).toBe(small.width - 64);
    const big = chartLayout([
      {
        bucket: "2026-W47",
        start: 1_763_337_600,
        volumeUsd: "2000000.00",
        earningsExactUsd: "10.00",
        earningsEstimatedUsd: "0",
      },
    ]);
    // "$2,000,000.00" is 13 characters: 12 + 7 × 13 = 103 px on the left; the earnings' "$10.00" keeps 64.
    expect(big.plot.x).toBe(103);
    expect(big.plot.x + big.plot.width).toBe(big.width - 64);
  });

  it("draws one bar group per bucket, taller for more volume, earnings stacked on the right axis", () => {
    const layout = chartLayout(dashboard().chart);
    expect(layout.bars).toHaveLength(3);
    const [w45, w46, w47] = layout.bars;
    expect(w47.volume.height).toBeGreaterThan(w46.volume.height);
    expect(w46.volume.height).toBeGreaterThan(w45.volume.height);
    // Bars stand on the same baseline, left to right in time.
    const bottom = layout.plot.y + layout.plot.height;
    for (const b of layout.bars) {
      expect(b.volume.y + b.volume.height).toBeCloseTo(bottom);
      expect(b.exact.y + b.exact.height).toBeCloseTo(bottom);
      expect(b.estimated.y + b.estimated.height).toBeCloseTo(b.exact.y);
    }
    expect(w45.volume.x).toBeLessThan(w46.volume.x);
    expect(w45.estimated.height).toBe(0);
    expect(w47.estimated.height).toBeGreaterThan(0);
    // The axes: $0 at the bottom, the top above the largest value.
    expect(layout.volumeTicks[0]).toEqual({ y: bottom, text: "$0.00" });
    expect(layout.volumeTicks.at(-1)?.text).toBe("$8,000.00");
    expect(layout.earningsTicks.at(-1)?.text).toBe("$30.00");
    expect(w47.title).toBe("2026-W47: volume $6,000.07; earnings $25.00 exact, $3.00 estimated");
    expect(w45.label).toBe("W45");
    expect(layout.height).toBe(CHART_HEIGHT);
  });

  it("labels only a few buckets when there are many, and never more bars than buckets", () => {
    const many = Array.from({ length: 365 }, (_, i) =>
      bar(`2026-01-${String((i % 28) + 1).padStart(2, "0")}`, i * 86_400, `${i}.00`, "0.00", "0.00"),
    );
    const layout = chartLayout(many);
    expect(layout.bars).toHaveLength(365);
    const labelled = layout.bars.filter((b) => b.label !== null);
    expect(labelled.length).toBeLessThanOrEqual(MAX_LABELS);
    expect(labelled.length).toBeGreaterThan(1);
    for (const b of layout.bars)
      expect(b.volume.x + b.volume.width).toBeLessThanOrEqual(layout.plot.x + layout.plot.width + 1e-9);
  });

  it("sums the chart up in a sentence", () => {
    expect(chartSummary(dashboard().chart, "week")).toBe(
      "3 weeks from 2026-W45 to 2026-W47: volume $12,345.67 in all, highest $6,000.07 in 2026-W47; earnings $59.73 in all (exact and estimated).",
    );
    expect(chartSummary([], "day")).toBe("No completed orders to chart.");
  });
});
