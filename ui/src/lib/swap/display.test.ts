import { describe, expect, it } from "vitest";
import type { AmountView } from "../bindings/AmountView";
import type { TokenView } from "../bindings/TokenView";
import { bitcoinUnitOf, groupThousands, rateBothWays, shortDecimal, showAmount, showUnits } from "./display";
import { usdText } from "../usd";

const BTC: TokenView = {
  chain: "bitcoin",
  address: "0x0000000000000000000000000000000000000000",
  symbol: "BTC",
  name: "Bitcoin",
  decimals: 8,
};
const USDC: TokenView = {
  chain: "base",
  address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  symbol: "USDC",
  name: null,
  decimals: 6,
};
const ETH: TokenView = {
  chain: "ethereum",
  address: "0x0000000000000000000000000000000000000000",
  symbol: "ETH",
  name: null,
  decimals: 18,
};
const UNKNOWN: TokenView = { chain: "bob", address: "0x12345678", symbol: null, name: null, decimals: null };

const amount = (token: TokenView, units: string): AmountView => ({ token, amount: units, text: "" });

describe("display", () => {
  it("groups thousands the one way", () => {
    expect(groupThousands("1")).toBe("1");
    expect(groupThousands("1234")).toBe("1,234");
    expect(groupThousands("1234567")).toBe("1,234,567");
  });

  it("keeps six significant digits, cut and never rounded up", () => {
    expect(shortDecimal("96120.123456")).toBe("96,120.1");
    expect(shortDecimal("0.000012345678")).toBe("0.0000123456");
    expect(shortDecimal("1.999999999")).toBe("1.99999");
    expect(shortDecimal("1234567.89")).toBe("1,234,567");
    expect(shortDecimal("0.5")).toBe("0.5");
    expect(shortDecimal("7")).toBe("7");
  });

  it("shows 18-decimal ETH short and keeps the exact value", () => {
    const shown = showUnits("1234567890123456789", ETH);
    expect(shown.short).toBe("1.23456 ETH");
    expect(shown.full).toBe("1.234567890123456789 ETH");
  });

  it("shows small Bitcoin amounts in sats, larger ones in BTC", () => {
    expect(showUnits("12345", BTC)).toEqual({ short: "12,345 sats", full: "0.00012345 BTC" });
    expect(showUnits("250000", BTC).short).toBe("0.0025 BTC");
    expect(showUnits("0", BTC).short).toBe("0 BTC");
  });

  it("says smallest units of an unknown token rather than guessing", () => {
    expect(showUnits("500", UNKNOWN).short).toBe("500 smallest units of 0x12345678 on bob");
  });

  it("writes USD with separators and two decimals", () => {
    expect(usdText("96120.5")).toBe("$96,120.50");
    expect(usdText("-0.80")).toBe("-$0.80");
    expect(usdText("3")).toBe("$3.00");
  });

  it("gives the rate both ways from exact amounts", () => {
    const rate = rateBothWays(amount(BTC, "100000"), amount(USDC, "96120123456"));
    expect(rate).toEqual({ forward: "1 BTC = 96,120,123 USDC", backward: "1 USDC = 0.0000000104036 BTC" });
    const small = rateBothWays(amount(BTC, "250000"), amount(USDC, "240300000"));
    expect(small?.forward).toBe("1 BTC = 96,120 USDC");
    expect(small?.backward).toBe("1 USDC = 0.0000104036 BTC");
    expect(rateBothWays(amount(BTC, "0"), amount(USDC, "1"))).toBeNull();
    expect(rateBothWays(amount(UNKNOWN, "5"), amount(USDC, "1"))).toBeNull();
    expect(showAmount(amount(USDC, "240300000")).short).toBe("240.3 USDC");
  });

  it("shows every Bitcoin amount of one context in one unit", () => {
    const send = amount(BTC, "250000");
    const fee = amount(BTC, "1000");
    // A send in BTC puts the fees in BTC too; a context of small amounts only reads in sats.
    expect(bitcoinUnitOf([send, fee, amount(USDC, "1")])).toBe("btc");
    expect(bitcoinUnitOf([amount(BTC, "50000"), fee])).toBe("sats");
    expect(bitcoinUnitOf([amount(USDC, "1"), null, undefined])).toBe("btc");
    expect(showAmount(fee, "btc").short).toBe("0.00001 BTC");
    expect(showAmount(fee, "sats").short).toBe("1,000 sats");
    expect(showAmount(send, "sats").short).toBe("250,000 sats");
    // Alone, a small amount still reads in sats; the exact value is the same either way.
    expect(showAmount(fee).short).toBe("1,000 sats");
    expect(showAmount(fee, "btc").full).toBe(showAmount(fee, "sats").full);
    // Other tokens are not touched by the unit.
    expect(showAmount(amount(USDC, "240300000"), "sats").short).toBe("240.3 USDC");
  });
});
