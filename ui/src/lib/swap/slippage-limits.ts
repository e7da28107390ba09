// The slippage tolerance a route takes, known before asking where possible: the floors public clients document
// (50 bps, and 100 bps for cross-chain token swaps), then what the gateway said when it refused a tolerance
// (`MAX_SLIPPAGE_EXCEEDED` names the maximum; `SLIPPAGE_TOO_LOW` and `SLIPPAGE_TOO_HIGH` say the asked value was out),
// remembered per route in the window's storage (not a secret) so the presets follow the route next time too.
import type { Question } from "../bindings/Question";
import type { RouteKind } from "../bindings/RouteKind";
import type { RouteView } from "../bindings/RouteView";
import { bpsToPercent } from "./amounts";

export interface SlippageLimits {
  /** The lowest tolerance the route takes, in bps. */
  minBps: number;
  /** The highest, in bps. */
  maxBps: number;
  /** Why the minimum is what it is. */
  minWhy: string;
  maxWhy: string;
}

/** The floors and the maximum, generated from gateway-client's constants. */
export {
  DOCUMENTED_MIN_SLIPPAGE_BPS as DOCUMENTED_FLOOR_BPS,
  DOCUMENTED_MIN_TOKEN_SWAP_SLIPPAGE_BPS as TOKEN_SWAP_FLOOR_BPS,
  MAX_SLIPPAGE_BPS as ABSOLUTE_MAX_BPS,
} from "../bindings/facts";
import {
  DOCUMENTED_MIN_SLIPPAGE_BPS as DOCUMENTED_FLOOR_BPS,
  DOCUMENTED_MIN_TOKEN_SWAP_SLIPPAGE_BPS as TOKEN_SWAP_FLOOR_BPS,
  MAX_SLIPPAGE_BPS as ABSOLUTE_MAX_BPS,
} from "../bindings/facts";

/** What the gateway taught about one route. */
export interface Learned {
  minBps?: number;
  maxBps?: number;
}

const STORAGE_KEY = "gateway-desk.slippage-limits.v1";

/** A route's key: source and destination token on their chains. */
export function routeKey(route: Pick<RouteView, "src" | "dst">): string {
  const t = (chain: string, address: string) =>
    `${chain}:${address.startsWith("0x") ? address.toLowerCase() : address}`;
  return `${t(route.src.chain, route.src.address)}>${t(route.dst.chain, route.dst.address)}`;
}

/** The limits of a route of `kind`, with what was learned of it. */
export function limitsFor(kind: RouteKind | null, learned: Learned | undefined): SlippageLimits {
  const floor = kind === "tokenSwap" ? TOKEN_SWAP_FLOOR_BPS : DOCUMENTED_FLOOR_BPS;
  const floorWhy =
    kind === "tokenSwap"
      ? `Cross-chain token swaps take at least ${bpsToPercent(floor)}.`
      : `The gateway documents ${bpsToPercent(floor)} as the lowest tolerance.`;
  const min = learned?.minBps !== undefined && learned.minBps > floor ? learned.minBps : floor;
  const max = learned?.maxBps !== undefined ? Math.min(learned.maxBps, ABSOLUTE_MAX_BPS) : ABSOLUTE_MAX_BPS;
  return {
    minBps: min,
    maxBps: Math.max(max, min),
    minWhy: min === floor ? floorWhy : `The gateway refused less than ${bpsToPercent(min)} on this route.`,
    maxWhy:
      max === ABSOLUTE_MAX_BPS
        ? "100% is the most any tolerance can be."
        : `The gateway takes at most ${bpsToPercent(max)} on this route.`,
  };
}

/** What a slippage question teaches about the route, given the tolerance that was asked for. */
export function learnFrom(question: Question, askedBps: number, before: Learned | undefined): Learned | null {
  if (question.field !== "slippage") return null;
  const next: Learned = { ...before };
  const stated = (word: string) => {
    const m = new RegExp(`${word} of (\\d+) ?bps`, "i").exec(question.message);
    return m ? Number(m[1]) : null;
  };
  if (question.code === "MAX_SLIPPAGE_EXCEEDED" || question.code === "SLIPPAGE_TOO_HIGH") {
    const max = question.maxBps ?? stated("maximum") ?? askedBps - 1;
    next.maxBps = next.maxBps === undefined ? max : Math.min(next.maxBps, max);
  } else if (question.code === "SLIPPAGE_TOO_LOW") {
    const min = question.minBps ?? stated("minimum") ?? askedBps + 1;
    next.minBps = Math.max(next.minBps ?? 0, min);
  } else {
    return null;
  }
  return next;
}

/** A sentence when `bps` is outside the limits, else null. */
export function outsideLimits(bps: number, limits: SlippageLimits): string | null {
  if (bps < limits.minBps) {
    return `This route takes at least ${bpsToPercent(limits.minBps)} (${limits.minBps} bps). ${limits.minWhy}`;
  }
  if (bps > limits.maxBps) {
    return `This route takes at most ${bpsToPercent(limits.maxBps)} (${limits.maxBps} bps). ${limits.maxWhy}`;
  }
  return null;
}

/** The remembered limits of every route (empty when the storage cannot be read). */
export function loadLearned(
  storage: Pick<Storage, "getItem"> | null = globalThis.localStorage ?? null,
): Record<string, Learned> {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(STORAGE_KEY) ?? "{}");
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return {};
    const out: Record<string, Learned> = {};
    for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (value === null || typeof value !== "object") continue;
      const v = value as Record<string, unknown>;
      const ok = (n: unknown) =>
        typeof n === "number" && Number.isInteger(n) && n > 0 && n <= ABSOLUTE_MAX_BPS ? n : undefined;
      out[key] = { minBps: ok(v.minBps), maxBps: ok(v.maxBps) };
    }
    return out;
  } catch {
    return {};
  }
}

export function saveLearned(
  learned: Record<string, Learned>,
  storage: Pick<Storage, "setItem"> | null = globalThis.localStorage ?? null,
): void {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(learned));
  } catch {
    // A full or unavailable storage only means the limits are learned again next time.
  }
}
