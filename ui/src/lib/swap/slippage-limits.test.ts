import { describe, expect, it } from "vitest";
import type { Question } from "../bindings/Question";
import { learnFrom, limitsFor, loadLearned, outsideLimits, routeKey, saveLearned } from "./slippage-limits";

const q = (code: string, message: string, maxBps?: number): Question => ({ field: "slippage", code, message, maxBps });

describe("slippage limits", () => {
  it("knows the documented floors before asking", () => {
    expect(limitsFor("tokenSwap", undefined).minBps).toBe(100);
    expect(limitsFor("onramp", undefined).minBps).toBe(50);
    expect(outsideLimits(50, limitsFor("tokenSwap", undefined))).toMatch(/at least 1% \(100 bps\)/);
    expect(outsideLimits(300, limitsFor("tokenSwap", undefined))).toBeNull();
  });

  it("learns the maximum MAX_SLIPPAGE_EXCEEDED names", () => {
    const learned = learnFrom(
      q("MAX_SLIPPAGE_EXCEEDED", "This route takes at most 10.00% slippage", 1000),
      2000,
      undefined,
    );
    expect(learned).toEqual({ maxBps: 1000 });
    const limits = limitsFor("offramp", learned ?? undefined);
    expect(outsideLimits(1500, limits)).toMatch(/at most 10% \(1000 bps\)/);
    expect(outsideLimits(1000, limits)).toBeNull();
  });

  it("learns from a too-low refusal, from its stated minimum or else from the value asked", () => {
    expect(
      learnFrom(q("SLIPPAGE_TOO_LOW", "refused (slippage 20 bps is below the minimum of 75 bps)"), 20, undefined),
    ).toEqual({
      minBps: 75,
    });
    expect(learnFrom(q("SLIPPAGE_TOO_LOW", "too low"), 60, undefined)).toEqual({ minBps: 61 });
    expect(learnFrom(q("SLIPPAGE_TOO_HIGH", "too high"), 900, { minBps: 61 })).toEqual({ minBps: 61, maxBps: 899 });
    expect(learnFrom({ ...q("X", ""), field: "amount" }, 1, undefined)).toBeNull();
  });

  it("learns the bound the September 2026 refusals name in their details (required_bps)", () => {
    // desk-core puts a too-low refusal's required_bps in minBps, a too-high one's in maxBps.
    const low: Question = {
      ...q("SLIPPAGE_TOO_LOW", "This route takes at least 0.75% slippage (75 bps)."),
      minBps: 75,
    };
    expect(learnFrom(low, 20, undefined)).toEqual({ minBps: 75 });
    expect(learnFrom(q("SLIPPAGE_TOO_HIGH", "This route takes at most 8.00% slippage", 800), 900, undefined)).toEqual({
      maxBps: 800,
    });
  });

  it("remembers per route in storage and survives a broken store", () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    const key = routeKey({
      src: { chain: "bitcoin", address: "0x00", symbol: "BTC", name: null, decimals: 8 },
      dst: { chain: "base", address: "0xABC", symbol: "USDC", name: null, decimals: 6 },
    });
    expect(key).toBe("bitcoin:0x00>base:0xabc");
    saveLearned({ [key]: { maxBps: 1000 } }, storage);
    expect(loadLearned(storage)).toEqual({ [key]: { maxBps: 1000, minBps: undefined } });
    store.set("gateway-desk.slippage-limits.v1", "not json");
    expect(loadLearned(storage)).toEqual({});
    store.set("gateway-desk.slippage-limits.v1", JSON.stringify({ [key]: { maxBps: -5, minBps: "x" } }));
    expect(loadLearned(storage)).toEqual({ [key]: { maxBps: undefined, minBps: undefined } });
  });
});
