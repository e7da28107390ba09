// Exact token amounts for the Swap view: a person's decimal text to smallest units and back, with BigInt only.
// Mirrors gateway-client's `amount.rs` (parse_units / format_units), so what the form accepts as it is typed is
// what the app accepts when the quote is asked for. Never floats.
import type { TokenView } from "../bindings/TokenView";

/** The result of reading an amount: the exact value in smallest units, or a sentence saying what to type. */
export type ParsedAmount = { ok: true; units: bigint } | { ok: false; message: string };

const DIGITS = /^[0-9]+$/;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function looksLikeExponent(input: string): boolean {
  return /^(?=.*[0-9])[0-9]*\.?[0-9]*[eE][+-]?[0-9]+$/.test(input);
}

/**
 * Reads what a person typed ("0.0025") as an exact number of smallest units for a token with `decimals` decimals.
 *
 * Accepted: digits with at most one `.` (either side may be empty, not both), surrounded by whitespace. Refused
 * with a message: signs, exponents, commas, other characters, more fractional digits than the token has (even
 * zeros). Zero is read (as 0n); whether zero is allowed is the caller's business (see `checkAmount`).
 */
export function parseUnits(text: string, decimals: number, symbol?: string | null): ParsedAmount {
  const input = text.trim();
  const fail = (message: string): ParsedAmount => ({ ok: false, message });
  if (input === "") return fail("Enter an amount, such as 0.5.");
  if (input.startsWith("-")) return fail("Amounts cannot be negative. Enter the amount without the minus sign.");
  if (input.startsWith("+")) return fail("Leave out the + sign and enter just the number, such as 0.5.");
  if (input.includes(",")) {
    return fail("Use a point for decimals and leave out thousands separators, such as 1000.5.");
  }
  if (looksLikeExponent(input)) {
    return fail("Scientific notation is not accepted. Write the number out in full, such as 0.00000001.");
  }
  const bad = [...input].find((c) => !(c >= "0" && c <= "9") && c !== ".");
  if (bad !== undefined) {
    const shown = /\s/.test(bad) ? "a space" : `“${bad}”`;
    return fail(`The amount contains ${shown}. Enter only digits and at most one decimal point, such as 0.5.`);
  }
  const point = input.indexOf(".");
  const whole = point < 0 ? input : input.slice(0, point);
  const fraction = point < 0 ? "" : input.slice(point + 1);
  if (fraction.includes(".")) return fail("Enter a number with at most one decimal point, such as 1.5.");
  if (whole === "" && fraction === "") return fail("Enter a number such as 0.5.");
  if (!Number.isInteger(decimals) || decimals < 0) {
    return fail("The app does not know this token's decimals, so it cannot read the amount exactly.");
  }
  if (fraction.length > decimals) {
    const token = symbol?.trim() || "This token";
    const found = plural(fraction.length, "digit");
    return fail(
      decimals === 0
        ? `${token} has no decimals; ${input} has ${found} after the point. Enter a whole number.`
        : `${token} has at most ${plural(decimals, "decimal")}; ${input} has ${found} after the point. ` +
            `Enter at most ${plural(decimals, "digit")} after the point.`,
    );
  }
  const digits = `${whole}${fraction}${"0".repeat(decimals - fraction.length)}`;
  return { ok: true, units: BigInt(digits === "" ? "0" : digits) };
}

/**
 * Writes smallest units as the shortest exact decimal: 100000n with 8 decimals is "0.001", zero is "0".
 * Takes a bigint or a string of ASCII digits (as the gateway writes amounts); throws on anything else.
 */
export function formatUnits(amount: bigint | string, decimals: number): string {
  let value: bigint;
  if (typeof amount === "bigint") {
    value = amount;
  } else {
    const text = amount.trim();
    if (!DIGITS.test(text)) throw new RangeError(`“${amount}” is not an amount in smallest units (digits only).`);
    value = BigInt(text);
  }
  if (value < 0n) throw new RangeError("Amounts cannot be negative.");
  if (!Number.isInteger(decimals) || decimals < 0) throw new RangeError(`Invalid number of decimals: ${decimals}.`);
  const digits = value.toString();
  if (decimals === 0) return digits;
  const padded = digits.padStart(decimals + 1, "0");
  const whole = padded.slice(0, padded.length - decimals);
  const fraction = padded.slice(padded.length - decimals).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}

/**
 * Smallest units of `token` as a person reads them: "0.0025 BTC". When the token's decimals are unknown, says so
 * instead of guessing: "250000 smallest units of 0x… on bob". Null when `amount` is not digits.
 */
export function formatTokenAmount(amount: bigint | string, token: TokenView): string | null {
  const symbol = token.symbol?.trim();
  try {
    if (token.decimals === null || token.decimals === undefined) {
      const units = typeof amount === "bigint" ? amount.toString() : formatUnits(amount, 0);
      return `${units} smallest units of ${symbol || token.address} on ${token.chain}`;
    }
    const number = formatUnits(amount, token.decimals);
    return symbol ? `${number} ${symbol}` : number;
  } catch {
    return null;
  }
}

/** Basis points as a percentage, exactly: 50 → "0.5%", 300 → "3%", 125 → "1.25%". */
export function bpsToPercent(bps: number): string {
  if (!Number.isInteger(bps) || bps < 0) return `${bps} bps`;
  return `${formatUnits(BigInt(bps), 2)}%`;
}

/** Sats as BTC, exactly, with all 8 decimals written out for a payment: 250000 → "0.00250000". */
export function satsToBtcFixed(sats: bigint | string): string {
  const value = typeof sats === "bigint" ? sats : BigInt(formatUnits(sats, 0));
  const digits = value.toString().padStart(9, "0");
  return `${digits.slice(0, -8)}.${digits.slice(-8)}`;
}

/**
 * Checks the form's amount for the source token: a number, no more decimals than the token has, above zero.
 * Null when it is fine.
 */
export function checkAmount(text: string, token: TokenView | null): string | null {
  if (!token) return "Choose the token you send first.";
  if (token.decimals === null || token.decimals === undefined) {
    return "The app does not know this token's decimals, so it cannot convert the amount exactly. Choose a listed token.";
  }
  const parsed = parseUnits(text, token.decimals, token.symbol);
  if (!parsed.ok) return parsed.message;
  if (parsed.units === 0n) return "Enter an amount above zero.";
  return null;
}
