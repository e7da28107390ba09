// Amounts as the swap screens show them at a glance: significant digits instead of 18 decimals, thousands separators
// written the same way everywhere, small Bitcoin amounts in sats, and exchange rates both ways. The exact value is
// never lost: `short` goes on the screen, `full` in the title (hover) and in what Copy copies. BigInt only, never
// floats; digits are cut (toward zero), never rounded up, so a shown amount never overstates.
import type { AmountView } from "../bindings/AmountView";
import type { TokenView } from "../bindings/TokenView";
import { formatUnits } from "./amounts";

/** Digits kept after the leading zeros. */
export const SIGNIFICANT = 6;
/** Below this many sats (0.001 BTC), Bitcoin amounts read better in sats. */
export const SATS_BELOW = 100_000n;

/** `1234567` → `1,234,567`; the one thousands separator of the app. */
export function groupThousands(whole: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A decimal string (`"96120.123456"`) with at most `significant` significant digits, cut, and grouped thousands. */
export function shortDecimal(decimal: string, significant: number = SIGNIFICANT): string {
  const [whole, fraction = ""] = decimal.split(".");
  let kept: string;
  if (whole !== "0") {
    kept = fraction.slice(0, Math.max(0, significant - whole.length));
  } else {
    const zeros = fraction.length - fraction.replace(/^0+/, "").length;
    kept = fraction.slice(0, zeros + significant);
  }
  kept = kept.replace(/0+$/, "");
  return kept === "" ? groupThousands(whole) : `${groupThousands(whole)}.${kept}`;
}

function isBitcoin(token: TokenView): boolean {
  return token.chain === "bitcoin" && token.symbol === "BTC" && token.decimals === 8;
}

export interface ShownAmount {
  /** What the screen shows: `96,120.1 USDC`, `12,345 sats`. */
  short: string;
  /** The exact value: `96120.123456 USDC` (the title, and what is copied). */
  full: string;
}

/**
 * How Bitcoin amounts read in one context (a quote card, a step): in `sats` or in `btc`. One context shows every
 * Bitcoin amount in one unit, so a fee in sats never sits beside a send in BTC.
 */
export type BitcoinUnit = "sats" | "btc";

/** The Bitcoin unit of a context holding `views`: sats when every Bitcoin amount in it is small, BTC otherwise. */
export function bitcoinUnitOf(views: readonly (AmountView | null | undefined)[]): BitcoinUnit {
  const sats = views
    .filter((v): v is AmountView => !!v && isBitcoin(v.token) && /^[0-9]+$/.test(v.amount.trim()))
    .map((v) => BigInt(v.amount.trim()));
  return sats.length > 0 && sats.every((s) => s < SATS_BELOW) ? "sats" : "btc";
}

/**
 * Smallest units of `token` as a person reads them at a glance, and exactly. A Bitcoin amount is in `unit` when one
 * is given (the context's, [`bitcoinUnitOf`]), else in sats when small.
 */
export function showUnits(units: bigint | string, token: TokenView, unit?: BitcoinUnit): ShownAmount {
  const value = typeof units === "bigint" ? units : /^[0-9]+$/.test(units.trim()) ? BigInt(units.trim()) : null;
  const symbol = token.symbol?.trim() || "";
  if (value === null || token.decimals === null || token.decimals === undefined) {
    const raw = String(units);
    const text = `${raw} smallest units of ${symbol || token.address} on ${token.chain}`;
    return { short: text, full: text };
  }
  const exact = formatUnits(value, token.decimals);
  const full = symbol ? `${exact} ${symbol}` : exact;
  if (isBitcoin(token) && (unit === "sats" || (unit === undefined && value > 0n && value < SATS_BELOW))) {
    return { short: `${groupThousands(value.toString())} sats`, full };
  }
  const short = shortDecimal(exact);
  return { short: symbol ? `${short} ${symbol}` : short, full };
}

/** An amount of the gateway's as a person reads it at a glance, and exactly. */
export function showAmount(view: AmountView, unit?: BitcoinUnit): ShownAmount {
  return showUnits(view.amount, view.token, unit);
}

/** How much of `to` one whole `from` buys at this quote: `1 BTC = 96,120.1 USDC`. Null when it cannot be said. */
function oneFor(fromUnits: bigint, from: TokenView, toUnits: bigint, to: TokenView): string | null {
  if (fromUnits <= 0n || from.decimals === null || to.decimals === null || !from.symbol || !to.symbol) return null;
  // rate = (to / 10^toDec) / (from / 10^fromDec), computed with 24 extra digits of fixed point.
  const SCALE = 24;
  const numerator = toUnits * 10n ** BigInt(from.decimals + SCALE);
  const denominator = fromUnits * 10n ** BigInt(to.decimals);
  const rate = formatUnits(numerator / denominator, SCALE);
  return `1 ${from.symbol} = ${shortDecimal(rate)} ${to.symbol}`;
}

/** The quote's exchange rate both ways (what is received per unit sent, and back), or null without decimals. */
export function rateBothWays(send: AmountView, receive: AmountView): { forward: string; backward: string } | null {
  if (!/^[0-9]+$/.test(send.amount) || !/^[0-9]+$/.test(receive.amount)) return null;
  const s = BigInt(send.amount);
  const r = BigInt(receive.amount);
  const forward = oneFor(s, send.token, r, receive.token);
  const backward = oneFor(r, receive.token, s, send.token);
  return forward && backward ? { forward, backward } : null;
}
