// The window's one way of writing US dollars: `$1,234.56`, exact (a value is never rounded: digits past the cents
// that the gateway gave are kept), and exact sums in cents. Used by every view (swap, orders, partner).

const DECIMAL = /^(-)?(\d+)(?:\.(\d*))?$/;

function groupDigits(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * A USD decimal string (`"1234.56"`) in cents, exactly; null when it is not a decimal number. Digits past the cents
 * are cut off (the app sends exactly two).
 */
export function usdCents(value: string): bigint | null {
  const m = DECIMAL.exec(value.trim());
  if (!m) return null;
  const cents = BigInt(m[2]) * 100n + BigInt((m[3] ?? "").padEnd(2, "0").slice(0, 2));
  return m[1] ? -cents : cents;
}

/** Cents as a person writes dollars: `123456n` → `$1,234.56`, `-5n` → `-$0.05`. */
export function centsText(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const dollars = groupDigits((abs / 100n).toString());
  const rest = (abs % 100n).toString().padStart(2, "0");
  return `${negative ? "-" : ""}$${dollars}.${rest}`;
}

/**
 * A USD decimal string as a person writes it, with thousands separated and at least the cents, never rounded:
 * `"1234.56"` → `$1,234.56`, `"96120.5"` → `$96,120.50`, `"96.125"` → `$96.125`, `"-2.30"` → `-$2.30`. Text that is
 * no decimal number is shown as it is.
 */
export function usdText(value: string): string {
  const m = DECIMAL.exec(value.trim());
  if (!m) return value;
  const whole = groupDigits(m[2].replace(/^0+(?=\d)/, ""));
  const fraction = (m[3] ?? "").padEnd(2, "0");
  return `${m[1] ? "-" : ""}$${whole}.${fraction}`;
}

/** The exact sum of USD decimal strings, as text (`$…`). */
export function usdSumText(...values: string[]): string {
  let sum = 0n;
  for (const v of values) sum += usdCents(v) ?? 0n;
  return centsText(sum);
}
