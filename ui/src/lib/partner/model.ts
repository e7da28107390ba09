// The Partner view's rules: the period and route choices, the words shown for USD values and counts (exact, from
// the decimal strings the app sends: never through floating point), the bounded rows table and the chart's
// geometry. Pure functions, no Svelte.
import type { RouteKind } from "../bindings/RouteKind";
import type { TokenView } from "../bindings/TokenView";
import type { ChartBar } from "../bindings/ChartBar";
import type { DashboardQuery } from "../bindings/DashboardQuery";
import type { DashboardRow } from "../bindings/DashboardRow";
import type { Period } from "../bindings/Period";
import { kindLabel } from "../routes";

export const PERIOD_OPTIONS: readonly { value: Period; label: string }[] = [
  { value: "day", label: "Per day" },
  { value: "week", label: "Per week" },
  { value: "month", label: "Per month" },
];

export type RouteFilter = "all" | RouteKind;

export const ROUTE_FILTERS: readonly { value: RouteFilter; label: string }[] = [
  { value: "all", label: "All routes" },
  { value: "onramp", label: kindLabel("onramp") },
  { value: "offramp", label: kindLabel("offramp") },
  { value: "tokenSwap", label: kindLabel("tokenSwap") },
];

export function isPeriod(value: string): value is Period {
  return PERIOD_OPTIONS.some((p) => p.value === value);
}

export function isRouteFilter(value: string): value is RouteFilter {
  return ROUTE_FILTERS.some((r) => r.value === value);
}

/** The dashboard query for a period and a route filter ("all" leaves the route out). */
export function queryOf(period: Period, route: RouteFilter): DashboardQuery {
  return route === "all" ? { period } : { period, route };
}

/** The word for a bucket's period: `day`, `week`, `month`. */
export function periodNoun(period: Period, count = 1): string {
  return count === 1 ? period : `${period}s`;
}

import { centsText, usdCents, usdSumText, usdText } from "../usd";

/** The window's one USD formatter and its exact sums (`../usd`), as the Partner view uses them. */
export { centsText, usdCents, usdSumText, usdText } from "../usd";

function groupDigits(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A count with thousands separated: `10000` → `10,000`. */
export function countText(n: number): string {
  return groupDigits(String(Math.trunc(n)));
}

/** The data-testid of a token's row in the per-token table (the address lower-cased). */
export function tokenTestId(token: TokenView): string {
  return `partner-token-${token.chain}-${token.address.toLowerCase()}`;
}

/** How many rows the rows table shows until the person asks for all of them. */
export const ROWS_SHOWN = 100;

/** The rows to show: the first `limit` (the newest buckets, as the app orders them) unless all are asked for. */
export function visibleRows(rows: readonly DashboardRow[], showAll: boolean, limit = ROWS_SHOWN): DashboardRow[] {
  return showAll ? [...rows] : rows.slice(0, limit);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A bucket's short name under the chart: `21 Nov`, `W47`, `Nov 2026`; anything unexpected as it came. */
export function bucketShort(bucket: string): string {
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(bucket);
  if (m) return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1] ?? m[2]}`;
  m = /^(\d{4})-W(\d{2})$/.exec(bucket);
  if (m) return `W${Number(m[2])}`;
  m = /^(\d{4})-(\d{2})$/.exec(bucket);
  if (m) return `${MONTHS[Number(m[2]) - 1] ?? m[2]} ${m[1]}`;
  return bucket;
}

/** A value axis: its top and its tick step, in cents; "nice" steps (1, 2, 2.5 or 5 × a power of ten). */
export interface Scale {
  max: number;
  step: number;
}

/** A scale whose top is at least `maxCents` with about `ticks` steps; a zero chart gets a $1 scale. */
export function niceScale(maxCents: number, ticks = 4): Scale {
  if (!(maxCents > 0)) return { max: 100, step: 25 };
  const raw = maxCents / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * power).find((s) => s >= raw) ?? 10 * power;
  // Whole cents only.
  const whole = Math.max(1, Math.ceil(step));
  return { max: whole * Math.ceil(maxCents / whole), step: whole };
}

/** An axis label: the one USD format of the window (`$0.00`, `$2,500.00`), from whole cents, exactly. */
export function axisText(cents: number): string {
  return centsText(BigInt(Math.round(cents)));
}

/** Room for an axis's labels beside the plot: about 7 px a character of its widest label at 11 px, at least 64. */
function axisRoom(scale: Scale): number {
  return Math.max(64, 12 + 7 * axisText(scale.max).length);
}

export interface ChartBarLayout {
  bucket: string;
  /** The short label under the bar, or null when only every few bars are labelled. */
  label: string | null;
  /** The label's centre. */
  labelX: number;
  volume: Rect;
  /** The exact earnings (bottom) and the estimated ones stacked on top. */
  exact: Rect;
  estimated: Rect;
  /** What the bar says, for its title (and so for screen readers and a hovering pointer). */
  title: string;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Tick {
  /** Height on the chart. */
  y: number;
  text: string;
}

export interface ChartLayout {
  width: number;
  height: number;
  plot: Rect;
  bars: ChartBarLayout[];
  volumeTicks: Tick[];
  earningsTicks: Tick[];
}

export const CHART_WIDTH = 720;
export const CHART_HEIGHT = 260;
const MARGIN = { top: 14, bottom: 30 };
/** At most this many bucket labels under the chart, so they never overlap. */
export const MAX_LABELS = 8;

function cents(value: string): number {
  return Number(usdCents(value) ?? 0n);
}

function ticksOf(scale: Scale, plot: Rect): Tick[] {
  const out: Tick[] = [];
  for (let v = 0; v <= scale.max + 1e-9; v += scale.step) {
    out.push({ y: plot.y + plot.height - (v / scale.max) * plot.height, text: axisText(v) });
  }
  return out;
}

/**
 * The chart: one bar group per bucket (oldest first, as the app sends them): the volume on the left axis, the
 * earnings (exact, with the estimated stacked on top) on the right axis, each axis scaled to its own maximum so
 * small earnings stay visible next to large volumes.
 */
export function chartLayout(bars: readonly ChartBar[], width = CHART_WIDTH, height = CHART_HEIGHT): ChartLayout {
  const volumes = bars.map((b) => cents(b.volumeUsd));
  const exacts = bars.map((b) => cents(b.earningsExactUsd));
  const estimates = bars.map((b) => cents(b.earningsEstimatedUsd));
  const volumeScale = niceScale(Math.max(0, ...volumes));
  const earningsScale = niceScale(Math.max(0, ...exacts.map((e, i) => e + estimates[i])));
  // Each axis's labels in full ("$250,000.00"), so the plot leaves them the room they need.
  const leftRoom = axisRoom(volumeScale);
  const rightRoom = axisRoom(earningsScale);
  const plot: Rect = {
    x: leftRoom,
    y: MARGIN.top,
    width: width - leftRoom - rightRoom,
    height: height - MARGIN.top - MARGIN.bottom,
  };
  const slot = bars.length > 0 ? plot.width / bars.length : plot.width;
  const volumeWidth = Math.min(40, slot * 0.5);
  const earningsWidth = Math.min(18, slot * 0.25);
  const every = Math.max(1, Math.ceil(bars.length / MAX_LABELS));
  const bottom = plot.y + plot.height;
  const h = (v: number, scale: Scale) => (v / scale.max) * plot.height;

  const laid = bars.map((bar, i): ChartBarLayout => {
    const left = plot.x + i * slot + (slot - volumeWidth - earningsWidth) / 2;
    const vh = h(volumes[i], volumeScale);
    const xh = h(exacts[i], earningsScale);
    const eh = h(estimates[i], earningsScale);
    const ex = left + volumeWidth;
    return {
      bucket: bar.bucket,
      label: i % every === 0 ? bucketShort(bar.bucket) : null,
      labelX: plot.x + i * slot + slot / 2,
      volume: { x: left, y: bottom - vh, width: volumeWidth, height: vh },
      exact: { x: ex, y: bottom - xh, width: earningsWidth, height: xh },
      estimated: { x: ex, y: bottom - xh - eh, width: earningsWidth, height: eh },
      title:
        `${bar.bucket}: volume ${usdText(bar.volumeUsd)}; earnings ${usdText(bar.earningsExactUsd)} exact, ` +
        `${usdText(bar.earningsEstimatedUsd)} estimated`,
    };
  });

  return {
    width,
    height,
    plot,
    bars: laid,
    volumeTicks: ticksOf(volumeScale, plot),
    earningsTicks: ticksOf(earningsScale, plot),
  };
}

/** A sentence that sums the chart up, for its description. */
export function chartSummary(bars: readonly ChartBar[], period: Period): string {
  if (bars.length === 0) return "No completed orders to chart.";
  const first = bars[0].bucket;
  const last = bars[bars.length - 1].bucket;
  let top = bars[0];
  for (const b of bars) if ((usdCents(b.volumeUsd) ?? 0n) > (usdCents(top.volumeUsd) ?? 0n)) top = b;
  const span =
    bars.length === 1 ? `One ${period}, ${first}` : `${bars.length} ${periodNoun(period, 2)} from ${first} to ${last}`;
  const volume = usdSumText(...bars.map((b) => b.volumeUsd));
  const earnings = usdSumText(...bars.flatMap((b) => [b.earningsExactUsd, b.earningsEstimatedUsd]));
  return `${span}: volume ${volume} in all, highest ${usdText(top.volumeUsd)} in ${top.bucket}; earnings ${earnings} in all (exact and estimated).`;
}
