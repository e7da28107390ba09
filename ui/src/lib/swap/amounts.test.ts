import { describe, expect, it } from "vitest";
import type { TokenView } from "../bindings/TokenView";
import { bpsToPercent, checkAmount, formatTokenAmount, formatUnits, parseUnits, satsToBtcFixed } from "./amounts";

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
const UNKNOWN: TokenView = {
  chain: "bob",
  address: "0x1234567890abcdef1234567890abcdef12345678",
  symbol: null,
  name: null,
  decimals: null,
};

const units = (text: string, decimals: number) => {
  const r = parseUnits(text, decimals);
  if (!r.ok) throw new Error(r.message);
  return r.units;
};

describe("formatUnits", () => {
  it("writes the shortest exact decimal", () => {
    expect(formatUnits("100000", 8)).toBe("0.001");
    expect(formatUnits("250000", 8)).toBe("0.0025");
    expect(formatUnits("0", 8)).toBe("0");
    expect(formatUnits("100000000", 8)).toBe("1");
    expect(formatUnits("123456789", 8)).toBe("1.23456789");
    expect(formatUnits("1", 18)).toBe("0.000000000000000001");
    expect(formatUnits("5", 0)).toBe("5");
    expect(formatUnits(1500000n, 6)).toBe("1.5");
    expect(formatUnits("007", 2)).toBe("0.07");
  });

  it("is exact far beyond floating point", () => {
    const big = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
    expect(formatUnits(big, 18)).toBe(
      "115792089237316195423570985008687907853269984665640564039457.584007913129639935",
    );
    expect(formatUnits("9007199254740993", 0)).toBe("9007199254740993");
    expect(formatUnits("10000000000000000001", 18)).toBe("10.000000000000000001");
  });

  it("refuses what is not smallest units", () => {
    expect(() => formatUnits("1.5", 8)).toThrow(RangeError);
    expect(() => formatUnits("-1", 8)).toThrow(RangeError);
    expect(() => formatUnits("", 8)).toThrow(RangeError);
    expect(() => formatUnits("1e5", 8)).toThrow(RangeError);
    expect(() => formatUnits(-1n, 8)).toThrow(RangeError);
    expect(() => formatUnits("1", -1)).toThrow(RangeError);
  });
});

describe("parseUnits", () => {
  it("reads decimals exactly", () => {
    expect(units("0.0025", 8)).toBe(250000n);
    expect(units(" 1 ", 8)).toBe(100000000n);
    expect(units("1.", 8)).toBe(100000000n);
    expect(units(".5", 8)).toBe(50000000n);
    expect(units("0.00000001", 8)).toBe(1n);
    expect(units("0", 8)).toBe(0n);
    expect(units("1.000000000000000001", 18)).toBe(1000000000000000001n);
    expect(units("12345678901234567890.5", 6)).toBe(12345678901234567890500000n);
  });

  it("round-trips with formatUnits", () => {
    for (const text of ["0.001", "1", "1.23456789", "0.00000001", "21000000"]) {
      expect(formatUnits(units(text, 8), 8)).toBe(text);
    }
  });

  it("refuses what is not a plain number, with a sentence", () => {
    const message = (text: string, decimals = 8) => {
      const r = parseUnits(text, decimals, "BTC");
      return r.ok ? null : r.message;
    };
    expect(message("")).toMatch(/Enter an amount/);
    expect(message("-1")).toMatch(/negative/);
    expect(message("+1")).toMatch(/\+ sign/);
    expect(message("1,5")).toMatch(/point for decimals/);
    expect(message("1e-8")).toMatch(/Scientific notation/);
    expect(message("1.2.3")).toMatch(/at most one decimal point/);
    expect(message(".")).toMatch(/Enter a number/);
    expect(message("abc")).toMatch(/“a”/);
    expect(message("1 000")).toMatch(/a space/);
    expect(message("0.000000001")).toBe(
      "BTC has at most 8 decimals; 0.000000001 has 9 digits after the point. Enter at most 8 digits after the point.",
    );
    expect(message("1.0", 0)).toMatch(/BTC has no decimals/);
    expect(message("1.10", 1)).toMatch(/at most 1 decimal;/);
  });
});

describe("checkAmount", () => {
  it("needs a token with known decimals and an amount above zero", () => {
    expect(checkAmount("1", null)).toMatch(/Choose the token/);
    expect(checkAmount("1", UNKNOWN)).toMatch(/does not know this token's decimals/);
    expect(checkAmount("0", BTC)).toBe("Enter an amount above zero.");
    expect(checkAmount("0.000", BTC)).toBe("Enter an amount above zero.");
    expect(checkAmount("1.0000001", USDC)).toMatch(/USDC has at most 6 decimals/);
    expect(checkAmount("0.0025", BTC)).toBeNull();
  });
});

describe("formatting helpers", () => {
  it("names the token, or says its decimals are unknown", () => {
    expect(formatTokenAmount("250000", BTC)).toBe("0.0025 BTC");
    expect(formatTokenAmount(1500000n, USDC)).toBe("1.5 USDC");
    expect(formatTokenAmount("250000", UNKNOWN)).toBe(
      "250000 smallest units of 0x1234567890abcdef1234567890abcdef12345678 on bob",
    );
    expect(formatTokenAmount("x", BTC)).toBeNull();
  });

  it("writes bps as an exact percentage", () => {
    expect(bpsToPercent(50)).toBe("0.5%");
    expect(bpsToPercent(100)).toBe("1%");
    expect(bpsToPercent(300)).toBe("3%");
    expect(bpsToPercent(125)).toBe("1.25%");
    expect(bpsToPercent(1)).toBe("0.01%");
    expect(bpsToPercent(10000)).toBe("100%");
  });

  it("writes sats as BTC with 8 decimals", () => {
    expect(satsToBtcFixed("250000")).toBe("0.00250000");
    expect(satsToBtcFixed(100000000n)).toBe("1.00000000");
    expect(satsToBtcFixed("1")).toBe("0.00000001");
    expect(satsToBtcFixed("2100000000000000")).toBe("21000000.00000000");
  });
});
