// The Orders view's list rules: filtering (desk-core says which orders are finished and which need the person),
// paging, merging an update into the list, and the words shown for amounts, ids and times. Pure functions, no Svelte.
import type { AmountView } from "../bindings/AmountView";
import type { OrderView } from "../bindings/OrderView";
import { kindLabel, tokenOnChain } from "../routes";
import { usdText } from "../usd";

/** Orders per page. */
export const PAGE_SIZE = 20;

export type OrderFilter = "all" | "unfinished" | "finished";

export const ORDER_FILTERS: readonly { value: OrderFilter; label: string }[] = [
  { value: "all", label: "All orders" },
  { value: "unfinished", label: "Unfinished" },
  { value: "finished", label: "Finished" },
];

export function isOrderFilter(value: string): value is OrderFilter {
  return ORDER_FILTERS.some((f) => f.value === value);
}

export function filterOrders(orders: readonly OrderView[], filter: OrderFilter): OrderView[] {
  if (filter === "all") return [...orders];
  const finished = filter === "finished";
  return orders.filter((o) => o.finished === finished);
}

/** True when the order asks something of the person (desk-core names the action: `OrderView.attention`). */
export function needsAttention(order: OrderView): boolean {
  return order.attention != null;
}

export interface Page<T> {
  items: T[];
  /** 1-based, within 1..pageCount. */
  page: number;
  /** At least 1, even for an empty list. */
  pageCount: number;
  total: number;
}

/** One page of `items`; a page number out of range is brought within it. */
export function paginate<T>(items: readonly T[], page: number, size: number = PAGE_SIZE): Page<T> {
  const pageCount = Math.max(1, Math.ceil(items.length / size));
  const wanted = Number.isFinite(page) ? Math.trunc(page) : 1;
  const current = Math.min(Math.max(1, wanted), pageCount);
  const start = (current - 1) * size;
  return { items: items.slice(start, start + size), page: current, pageCount, total: items.length };
}

/** `Page 2 of 5` */
export function pageLabel(page: number, pageCount: number): string {
  return `Page ${page} of ${pageCount}`;
}

/** `1 order`, `N orders` */
export function orderCount(n: number): string {
  return `${n} ${n === 1 ? "order" : "orders"}`;
}

/** A key that names one order in the list: the journal's id, else the gateway's. */
export function orderKey(order: OrderView): string | null {
  if (order.localId !== undefined) return `local:${order.localId}`;
  if (order.orderId !== undefined) return `order:${order.orderId}`;
  return null;
}

/**
 * The list with `incoming` in it: it replaces the order it matches (by local id when it has one, else by order id),
 * or is inserted where the list would have it: the app's own orders first, newest (highest local id) first, then
 * the watched addresses' orders, newest (by creation time) first. An order of a watched address that is one of the
 * app's own orders is left to the app's own row. The input is not modified.
 */
export function mergeOrder(orders: readonly OrderView[], incoming: OrderView): OrderView[] {
  const next = [...orders];
  if (incoming.localId !== undefined) {
    const same = next.findIndex((o) => o.localId === incoming.localId);
    if (same >= 0) {
      next[same] = incoming;
      return next;
    }
    // Known until now only as a watched address's order: it becomes the app's own row.
    const rest =
      incoming.orderId === undefined
        ? next
        : next.filter((o) => o.localId !== undefined || o.orderId !== incoming.orderId);
    let at = rest.findIndex((o) => o.localId === undefined || o.localId < (incoming.localId as number));
    if (at < 0) at = rest.length;
    rest.splice(at, 0, incoming);
    return rest;
  }
  if (incoming.orderId === undefined) return next;
  if (next.some((o) => o.localId !== undefined && o.orderId === incoming.orderId)) return next;
  const same = next.findIndex((o) => o.localId === undefined && o.orderId === incoming.orderId);
  if (same >= 0) {
    next[same] = incoming;
    return next;
  }
  const created = incoming.createdAt ?? Number.NEGATIVE_INFINITY;
  let at = next.findIndex((o) => o.localId === undefined && (o.createdAt ?? Number.NEGATIVE_INFINITY) < created);
  if (at < 0) at = next.length;
  next.splice(at, 0, incoming);
  return next;
}

/** A USD value as a person writes it (the window's one formatter, `../usd`). */
export { usdText };

/** `0.0025 BTC ($96.12)`, or the amount alone when the gateway gave no USD value. */
export function amountText(amount: AmountView): string {
  return amount.usd && amount.usd.trim() !== "" ? `${amount.text} (${usdText(amount.usd)})` : amount.text;
}

/** `Onramp: BTC on bitcoin → USDC on base` */
export function orderRouteText(order: OrderView): string {
  return `${kindLabel(order.route)}: ${tokenOnChain(order.send.token)} → ${tokenOnChain(order.receive.token)}`;
}

/** Unix seconds as a local date and time, in the person's own format. */
export function dateTimeText(unixSecs: number, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium" }).format(
    new Date(unixSecs * 1000),
  );
}

/** Unix seconds as the machine-readable value of a <time> element. */
export function isoTime(unixSecs: number): string {
  return new Date(unixSecs * 1000).toISOString();
}

/** The timeline entry the order is at: the latest one (the timeline is in order). -1 when there is none. */
export function currentStepIndex(order: OrderView): number {
  return order.timeline.length - 1;
}

/** The quiet line shown while the gateway cannot be read. */
export function readFailedText(message: string, retryInSecs: number): string {
  const reason = message.trim().replace(/[.\s]+$/, "");
  return `Could not reach the gateway: ${reason}; retrying in ${retryInSecs} s`;
}
