// The Orders view's rules: which orders are finished or need the person, filtering, paging, merging an update
// into the list, and the words shown for amounts, ids and times. Pure functions, no Svelte.
import type { AmountView } from "../bindings/AmountView";
import type { OrderView } from "../bindings/OrderView";
import { kindLabel, tokenOnChain } from "../routes";

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

/** Statuses after which the gateway does nothing more with an order. */
const ENDINGS: ReadonlySet<string> = new Set(["success", "failed", "refunded"]);

/**
 * True when nothing more will happen to the order: the app's flow ended (finished, or given up), or the gateway
 * reports an ending. A refused order is not finished: it waits to be discarded. An unknown status is not finished.
 */
export function isFinished(order: OrderView): boolean {
  if (order.stage === "finished" || order.stage === "abandoned") return true;
  if (order.stage === "refused") return false;
  return order.status !== undefined && ENDINGS.has(order.status);
}

export function filterOrders(orders: readonly OrderView[], filter: OrderFilter): OrderView[] {
  if (filter === "all") return [...orders];
  const finished = filter === "finished";
  return orders.filter((o) => isFinished(o) === finished);
}

/** What the person can do about an order of the app from the "Needs your attention" section. */
export type AttentionAction = "continue" | "goSign" | "discard" | "acknowledge";

/**
 * The action an order of the app offers, or null. Orders the app only watches (next step `watch`) need nothing
 * from the person; orders of watched addresses (no local id) are not the app's to act on. A failed or refunded order
 * asks to be read ("I've read this") until the person acknowledges it.
 */
export function attentionAction(order: OrderView): AttentionAction | null {
  if (order.localId === undefined) return null;
  if (order.stage === "refused") return "discard";
  if (order.acknowledged === false) return "acknowledge";
  switch (order.nextStep?.step) {
    case "confirmCreation":
    case "register":
      return "continue";
    case "signAndHandIn":
      return "goSign";
    default:
      return null;
  }
}

export function needsAttention(order: OrderView): boolean {
  return attentionAction(order) !== null;
}

/**
 * True when the person may abandon this unfinished order of the app (desk-core says so: nothing was signed or
 * handed in that could move money). A refused order is given up with its own Discard button instead.
 */
export function mayAbandon(order: OrderView): boolean {
  return order.localId !== undefined && order.canAbandon === true && order.stage !== "refused";
}

/** True when the app's wallet signed a token approval for the order that was mined: it stays on chain. */
function approvedOnChain(order: OrderView): boolean {
  return (order.walletTxs ?? []).some((t) => t.kind !== "pay" && t.state === "mined");
}

/** The inline question before an order is abandoned. */
export function abandonQuestion(order: OrderView): string {
  const approval = approvedOnChain(order)
    ? " The token approval you signed stays on chain; you can set it back to zero from your wallet."
    : "";
  const gatewayOrder = order.orderId
    ? "The gateway's order will expire unpaid; nothing is sent to the gateway."
    : "If the gateway created the order, it will expire unpaid; nothing is sent to the gateway.";
  return `Abandon this order? ${gatewayOrder}${approval}`;
}

/** What happened to a failed or refunded order, where the money is, and what the person can do, in sentences. */
export interface Outcome {
  happened: string;
  where: string;
  next: string;
}

/** `0.0025 BTC on bitcoin (transaction 3f2a9c10…77e1)` */
function transferText(transfer: { amount: AmountView; txHash: string }): string {
  return `${transfer.amount.text} on ${transfer.amount.token.chain} (transaction ${shortenMiddle(transfer.txHash)})`;
}

/** The order's own transaction that paid it in, as the gateway or the app knows it. */
function paidWith(order: OrderView): string | null {
  if (order.sourceTx) return order.sourceTx.txHash;
  if (order.handedIn) return order.handedIn.kind === "sourceTx" ? order.handedIn.hash : order.handedIn.txid;
  const pay = (order.walletTxs ?? []).find((t) => t.kind === "pay" && t.state === "mined");
  return pay ? pay.hash : null;
}

/**
 * What a failed or refunded order means for the person, from what the gateway reported (its status and refunded
 * transfers) and what the quote named (the refund address, the owner); null for any other order, and for an order
 * the person abandoned (it was left to expire unpaid, which its reason says).
 */
export function outcomeOf(order: OrderView): Outcome | null {
  if (order.stage === "abandoned") return null;
  const id = order.orderId ? ` ${order.orderId}` : "";
  const named: string[] = [];
  if (order.route === "onramp" && order.refundAddress) {
    named.push(`The quote named ${order.refundAddress} as the Bitcoin refund address.`);
  }
  if (order.ownerAddress) {
    named.push(`The quote named ${order.ownerAddress} as the order's owner, who may claim a refund.`);
  }
  if (order.status === "refunded") {
    const where =
      order.refunded.length > 0
        ? `The gateway returned ${order.refunded.map(transferText).join(" and ")}.`
        : "The gateway did not say what it returned.";
    return {
      happened: "The gateway reports this order refunded: the swap did not happen and what was sent came back.",
      where: [where, ...(named.length > 0 ? named : ["The transaction shows the address it paid."])].join(" "),
      next: `Nothing more will happen to this order. Check that the refund arrived; if it did not, contact the gateway's support with the order id${id}.`,
    };
  }
  if (order.status !== "failed") return null;
  const paid = paidWith(order);
  if (paid === null) {
    const approval = approvedOnChain(order) ? " (a token approval you signed stays on chain)" : "";
    return {
      happened:
        "The gateway reports this order failed before anything was paid in: it was not paid in time, or it could not be filled.",
      where: `Nothing left your wallet for this order${approval}.`,
      next: "Nothing to do. Start a new swap if you still want one.",
    };
  }
  const sent = `${order.send.text} was sent (transaction ${shortenMiddle(paid)})`;
  const where =
    order.route === "onramp"
      ? "The gateway has not reported a refund of the bitcoin yet."
      : `The gateway has not reported a refund yet: the tokens went to the gateway's contract on ${order.send.token.chain}.`;
  return {
    happened: `The gateway reports this order failed after ${sent}.`,
    where: [where, ...named].join(" "),
    next: `Contact the gateway's support about the refund with the order id${id} and the transaction ${paid}. Support → Look up an order shows what the gateway says about it now.`,
  };
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

/** A USD value as a person writes it: `"2.30"` → `$2.30`, `"-2.30"` → `-$2.30` (never rounded). */
export function usdText(usd: string): string {
  const value = usd.trim();
  return value.startsWith("-") ? `-$${value.slice(1)}` : `$${value}`;
}

/** `0.0025 BTC ($96.12)`, or the amount alone when the gateway gave no USD value. */
export function amountText(amount: AmountView): string {
  return amount.usd && amount.usd.trim() !== "" ? `${amount.text} (${usdText(amount.usd)})` : amount.text;
}

/** `Onramp: BTC on bitcoin → USDC on base` */
export function orderRouteText(order: OrderView): string {
  return `${kindLabel(order.route)}: ${tokenOnChain(order.send.token)} → ${tokenOnChain(order.receive.token)}`;
}

/** A long id or hash with its middle left out (`3f2a9c10…77e1`); short ones whole. */
export function shortenMiddle(text: string, head = 8, tail = 6): string {
  const t = text.trim();
  if (t.length <= head + tail + 1) return t;
  return `${t.slice(0, head)}…${t.slice(-tail)}`;
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
