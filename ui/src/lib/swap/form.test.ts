import { describe, expect, it } from "vitest";
import {
  checkFields,
  choices,
  emptyFields,
  fieldOfError,
  fieldRules,
  parseBps,
  sameForm,
  slippageWarning,
  toSwapForm,
  tokenMatches,
  tokenOptionLabel,
  type FormFields,
} from "./form";
import { BTC, BTC_ADDRESS, EVM_ADDRESS, ROUTES, USDC_BASE, USDC_SOL, USDT_TRON, WBTC_BOB } from "./testdata";
import type { ErrorDetails } from "../bindings/ErrorDetails";

function fields(over: Partial<FormFields> = {}): FormFields {
  return { ...emptyFields(), ...over };
}

const onramp = fields({
  srcChain: "bitcoin",
  srcToken: BTC.address,
  dstChain: "base",
  dstToken: USDC_BASE.address,
  amount: "0.0025",
  recipient: EVM_ADDRESS,
});

describe("choices", () => {
  it("offers source chains and tokens, and only reachable destinations", () => {
    const none = choices(ROUTES, fields());
    expect(none.srcChains).toEqual(["bitcoin", "bob", "solana", "tron"]);
    expect(none.srcTokens).toEqual([]);
    expect(none.dstChains).toEqual([]);

    const btc = choices(ROUTES, fields({ srcChain: "bitcoin", srcToken: BTC.address }));
    expect(btc.src).toEqual(BTC);
    expect(btc.srcTokens.map(tokenOptionLabel)).toEqual(["BTC on bitcoin"]);
    expect(btc.dstChains).toEqual(["base", "bob"]);

    const picked = choices(ROUTES, { ...onramp });
    expect(picked.dstTokens.map(tokenOptionLabel)).toEqual(["USDC on base"]);
    expect(picked.route?.kind).toBe("onramp");

    const wbtc = choices(ROUTES, fields({ srcChain: "bob", srcToken: WBTC_BOB.address.toLowerCase() }));
    expect(wbtc.src).toEqual(WBTC_BOB);
    expect(wbtc.dstChains).toEqual(["bitcoin"]);
  });

  it("filters by symbol, name, chain or address and keeps the chosen token", () => {
    expect(choices(ROUTES, fields({ query: "usdt" })).srcChains).toEqual(["tron"]);
    expect(choices(ROUTES, fields({ query: "EPjFW" })).srcChains).toEqual(["solana"]);
    expect(choices(ROUTES, fields({ query: "wrapped" })).srcChains).toEqual(["bob"]);
    const kept = choices(ROUTES, fields({ query: "nothing-matches", srcChain: "bob", srcToken: WBTC_BOB.address }));
    expect(kept.srcChains).toEqual(["bob"]);
    expect(kept.srcTokens).toEqual([WBTC_BOB]);
    expect(tokenMatches(USDT_TRON, "tether tron")).toBe(true);
    expect(tokenMatches(USDT_TRON, "tether base")).toBe(false);
  });
});

describe("slippage", () => {
  it("reads whole bps from 1 to 10000", () => {
    expect(parseBps("75")).toEqual({ ok: true, bps: 75 });
    expect(parseBps(" 10000 ")).toEqual({ ok: true, bps: 10000 });
    expect(parseBps("0").ok).toBe(false);
    expect(parseBps("10001").ok).toBe(false);
    expect(parseBps("1.5").ok).toBe(false);
    expect(parseBps("").ok).toBe(false);
  });

  it("warns below 50 and above 300 bps", () => {
    expect(slippageWarning(49)).toMatch(/Below 0.5%/);
    expect(slippageWarning(50)).toBeNull();
    expect(slippageWarning(300)).toBeNull();
    expect(slippageWarning(301)).toMatch(/Above 3%/);
  });
});

describe("checkFields and toSwapForm", () => {
  const rules = (f: FormFields, version: string | null = "v3") =>
    fieldRules(choices(ROUTES, f).route?.kind ?? null, f.srcChain, version);

  it("builds the SwapForm from a complete onramp", () => {
    const f = { ...onramp, sender: " bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4 ", refund: BTC_ADDRESS };
    expect(toSwapForm(f, choices(ROUTES, f), rules(f))).toEqual({
      srcChain: "bitcoin",
      srcToken: BTC.address,
      dstChain: "base",
      dstToken: USDC_BASE.address,
      amount: "0.0025",
      slippageBps: 300,
      recipient: EVM_ADDRESS,
      sender: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
      refund: BTC_ADDRESS,
    });
  });

  it("leaves out owner and refund outside V3, and refund outside onramps", () => {
    const f = { ...onramp, owner: EVM_ADDRESS, refund: BTC_ADDRESS };
    const v2 = toSwapForm(f, choices(ROUTES, f), rules(f, "v2"));
    expect(v2?.owner).toBeUndefined();
    expect(v2?.refund).toBeUndefined();
    const off = fields({
      srcChain: "bob",
      srcToken: WBTC_BOB.address,
      dstChain: "bitcoin",
      dstToken: BTC.address,
      amount: "0.01",
      recipient: BTC_ADDRESS,
      owner: EVM_ADDRESS,
      refund: BTC_ADDRESS,
    });
    const form = toSwapForm(off, choices(ROUTES, off), rules(off));
    expect(form?.owner).toBe(EVM_ADDRESS);
    expect(form?.refund).toBeUndefined();
  });

  it("in V4 (the default) takes no owner and a refund address on the source chain, for every route", () => {
    const off = fields({
      srcChain: "bob",
      srcToken: WBTC_BOB.address,
      dstChain: "bitcoin",
      dstToken: BTC.address,
      amount: "0.01",
      recipient: BTC_ADDRESS,
      owner: EVM_ADDRESS,
      refund: EVM_ADDRESS,
    });
    for (const version of ["v4", null]) {
      const v4 = rules(off, version);
      expect(v4).toMatchObject({ v3: false, ownerRequired: false, refundAllowed: true, refundChain: "bob" });
      const form = toSwapForm(off, choices(ROUTES, off), v4);
      expect(form?.owner).toBeUndefined();
      expect(form?.refund).toBe(EVM_ADDRESS);
    }
    // A Bitcoin refund address for an offramp from BOB is refused as the wrong chain's.
    const wrong = { ...off, refund: BTC_ADDRESS };
    expect(checkFields(wrong, choices(ROUTES, wrong), rules(wrong, "v4"), true).refund).toBeDefined();
    // An onramp's is a Bitcoin address, as in V3.
    expect(rules(onramp, "v4").refundChain).toBe("bitcoin");
    expect(rules(onramp, "v3").refundChain).toBe("bitcoin");
    expect(rules(off, "v3").refundChain).toBeNull();
  });

  it("reports problems as typed, and empty required fields only when submitting", () => {
    const empty = fields();
    expect(checkFields(empty, choices(ROUTES, empty), rules(empty), false)).toEqual({});
    expect(Object.keys(checkFields(empty, choices(ROUTES, empty), rules(empty), true))).toEqual([
      "srcToken",
      "amount",
      "recipient",
    ]);

    const f = { ...onramp, amount: "0.000000001", recipient: BTC_ADDRESS, slippagePreset: null, slippageCustom: "x" };
    const errors = checkFields(f, choices(ROUTES, f), rules(f), false);
    expect(errors.amount).toMatch(/BTC has at most 8 decimals/);
    expect(errors.recipient).toMatch(/looks like a Bitcoin address, but base needs an EVM address/);
    expect(errors.slippage).toMatch(/whole basis points/);
    expect(toSwapForm(f, choices(ROUTES, f), rules(f))).toBeNull();
  });

  it("flags a wrong EIP-55 checksum in the recipient, the sender and the owner as typed", () => {
    // One letter of a checksummed address in the other case.
    const flip = (a: string) => a.replace("aAeb", "aaeb");
    const off = fields({
      srcChain: "bob",
      srcToken: WBTC_BOB.address,
      dstChain: "bitcoin",
      dstToken: BTC.address,
      amount: "0.01",
      recipient: BTC_ADDRESS,
      sender: flip(EVM_ADDRESS),
      owner: flip(EVM_ADDRESS),
    });
    const wrong = checkFields(off, choices(ROUTES, off), rules(off), false);
    expect(wrong.sender).toMatch(/capital letters do not match its checksum \(EIP-55\)/);
    expect(wrong.owner).toMatch(/Copy it again from its source/);
    expect(toSwapForm(off, choices(ROUTES, off), rules(off))).toBeNull();
    const on = { ...onramp, recipient: flip(EVM_ADDRESS) };
    expect(checkFields(on, choices(ROUTES, on), rules(on), false).recipient).toMatch(/checksum \(EIP-55\)/);
    // The same address in lower case carries no checksum, and is taken.
    const lower = { ...onramp, recipient: EVM_ADDRESS.toLowerCase() };
    expect(checkFields(lower, choices(ROUTES, lower), rules(lower), true)).toEqual({});
  });

  it("requires the owner for offramps (V3) and the sender for Solana sources", () => {
    const off = fields({
      srcChain: "bob",
      srcToken: WBTC_BOB.address,
      dstChain: "bitcoin",
      dstToken: BTC.address,
      amount: "0.01",
      recipient: BTC_ADDRESS,
    });
    expect(checkFields(off, choices(ROUTES, off), rules(off), true).owner).toMatch(/Enter the EVM address/);
    expect(checkFields(off, choices(ROUTES, off), rules(off, "v2"), true).owner).toBeUndefined();
    const sol = fields({
      srcChain: "solana",
      srcToken: USDC_SOL.address,
      dstChain: "base",
      dstToken: USDC_BASE.address,
      amount: "5",
      recipient: EVM_ADDRESS,
    });
    expect(checkFields(sol, choices(ROUTES, sol), rules(sol), true).sender).toMatch(/address you send from/);
    // A field the locked wallet would fill says that unlocking it is the other way.
    expect(checkFields(sol, choices(ROUTES, sol), rules(sol), true, ["sender"]).sender).toBe(
      "Unlock the wallet to use its address, or enter the address you send from.",
    );
  });

  it("compares forms and maps the app's field names", () => {
    const a = { ...onramp };
    const form = toSwapForm(a, choices(ROUTES, a), rules(a));
    expect(sameForm(form, { ...form! })).toBe(true);
    expect(sameForm(form, { ...form!, amount: "0.003" })).toBe(false);
    expect(sameForm(form, { ...form!, sender: "" })).toBe(true);
    expect(fieldOfError({ field: "recipient" })).toBe("recipient");
    expect(fieldOfError({ field: "srcToken" })).toBe("srcToken");
    // The gateway's MISSING_OWNER_ADDRESS, as desk-core types it (it names the field).
    expect(fieldOfError({ shape: "none", field: "owner" })).toBe("owner");
    expect(fieldOfError({ field: "quote" })).toBeNull();
    expect(fieldOfError("amount" as unknown as ErrorDetails)).toBeNull();
  });
});
