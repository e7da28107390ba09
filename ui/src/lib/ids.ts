// The one way the window shortens a long id, hash or address for display: the same rule as desk-core's
// `ids::short_id` (notifications, log lines, outcome sentences), checked against examples generated from Rust
// (`SHORT_ID_EXAMPLES` in bindings/facts.ts). The whole value stays in the element's title and in Copy.

/** Ids of this many characters or fewer (after a `0x`) are written whole. */
const WHOLE_UP_TO = 12;
/** Characters kept at each end. */
const KEPT = 4;

/** `id` with its middle left out (`1234…cdef`); a `0x` prefix stays (`0x5aAe…eAed`); short ids whole. */
export function shortId(id: string): string {
  const prefix = id.startsWith("0x") || id.startsWith("0X") ? id.slice(0, 2) : "";
  const chars = Array.from(id.slice(prefix.length));
  if (chars.length <= WHOLE_UP_TO) return id;
  return `${prefix}${chars.slice(0, KEPT).join("")}…${chars.slice(-KEPT).join("")}`;
}
