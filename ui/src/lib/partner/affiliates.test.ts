import { describe, expect, it } from "vitest";
import { checkAffiliates, draftOf, fieldOf, parseBps, totalBps } from "./affiliates";
import type { ErrorDetails } from "../bindings/ErrorDetails";

const A = "0x1111111111111111111111111111111111111111";
const B = "0x2222222222222222222222222222222222222222";
const none = { address: "", bps: "" };

describe("affiliate entries as typed", () => {
  it("reads shares as whole basis points above 0", () => {
    expect(parseBps("50")).toBe(50);
    expect(parseBps(" 7 ")).toBe(7);
    expect(parseBps("0")).toBeNull();
    expect(parseBps("2.5")).toBeNull();
    expect(parseBps("-5")).toBeNull();
    expect(parseBps("")).toBeNull();
    expect(
      totalBps([
        { address: A, bps: "600" },
        { address: B, bps: "500" },
        { address: "", bps: "x" },
      ]),
    ).toBe(1100);
    expect(draftOf({ address: A, bps: 50 })).toEqual({ address: A, bps: "50" });
    expect(draftOf(undefined)).toEqual(none);
  });

  it("sends trimmed entries, and no token-swap entry when both its fields are empty", () => {
    expect(checkAffiliates([{ address: ` ${A} `, bps: " 50" }], none)).toEqual({
      ok: true,
      affiliates: [{ address: A, bps: 50 }],
      tokenSwap: null,
    });
    expect(checkAffiliates([], { address: B, bps: "30" })).toEqual({
      ok: true,
      affiliates: [],
      tokenSwap: { address: B, bps: 30 },
    });
  });

  it("puts each problem at the field it is about", () => {
    const emptyAddress = checkAffiliates(
      [
        { address: A, bps: "10" },
        { address: " ", bps: "10" },
      ],
      none,
    );
    expect(emptyAddress).toMatchObject({ ok: false, at: { field: "affiliates", index: 1 } });
    const badShare = checkAffiliates([{ address: A, bps: "1.5" }], none);
    expect(badShare).toMatchObject({ ok: false, at: { field: "affiliates", index: 0 } });
    if (!badShare.ok) expect(badShare.error.message).toMatch(/whole number of basis points.*Correct it\.$/);

    const tooMuch = checkAffiliates(
      [
        { address: A, bps: "600" },
        { address: B, bps: "401" },
      ],
      none,
    );
    expect(tooMuch).toMatchObject({ ok: false, at: { field: "affiliates" } });
    if (!tooMuch.ok) {
      expect(tooMuch.at).toEqual({ field: "affiliates" });
      expect(tooMuch.error.message).toBe(
        "The entries add up to 1,001 bps; the gateway takes at most 1000 bps in all. Lower some shares.",
      );
    }
    expect(
      checkAffiliates(
        [
          { address: A, bps: "600" },
          { address: B, bps: "400" },
        ],
        none,
      ).ok,
    ).toBe(true);

    const six = Array.from({ length: 6 }, (_, i) => ({ address: `0x${String(i).repeat(40)}`, bps: "1" }));
    expect(checkAffiliates(six, none)).toMatchObject({ ok: false, at: { field: "affiliates" } });

    expect(checkAffiliates([], { address: B, bps: "" })).toMatchObject({
      ok: false,
      at: { field: "tokenSwapAffiliate" },
    });
    expect(checkAffiliates([], { address: B, bps: "0" })).toMatchObject({
      ok: false,
      at: { field: "tokenSwapAffiliate" },
    });
  });

  it("finds the field a refusal's details name", () => {
    // Any value, as a stray rejection could carry; desk-core's are typed.
    const refusal = (details: unknown) => ({
      kind: "invalid_input" as const,
      message: "No. Fix it.",
      details: details as ErrorDetails | undefined,
    });
    expect(fieldOf(refusal({ field: "affiliates", index: 2 }))).toEqual({ field: "affiliates", index: 2 });
    expect(fieldOf(refusal({ field: "affiliates" }))).toEqual({ field: "affiliates" });
    expect(fieldOf(refusal({ field: "affiliates", index: -1 }))).toEqual({ field: "affiliates" });
    expect(fieldOf(refusal({ field: "tokenSwapAffiliate" }))).toEqual({ field: "tokenSwapAffiliate" });
    expect(fieldOf(refusal({ field: "theme" }))).toEqual({ field: "section" });
    expect(fieldOf(refusal(undefined))).toEqual({ field: "section" });
    expect(fieldOf(refusal("affiliates"))).toEqual({ field: "section" });
  });
});
