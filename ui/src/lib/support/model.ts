// The Support view's rules: the lookup form's choices and checks, the words for the journal's orders in the bundle
// picker, events and the quote comparison. Pure functions, no Svelte.
import type { DeskError } from "../bindings/DeskError";
import type { NetworkKind } from "../bindings/NetworkKind";
import type { OrderView } from "../bindings/OrderView";
import type { FieldDiff } from "../bindings/FieldDiff";
import type { LookupQuery } from "../bindings/LookupQuery";
import { amountText, orderRouteText } from "../orders/model";

export type ApiVersion = LookupQuery["apiVersion"];

/** V1 and V2 stay for reading old orders; the published service removed them in September 2026. */
export const API_VERSIONS: readonly { value: ApiVersion; label: string }[] = [
  { value: "v4", label: "V4 (current)" },
  { value: "v3", label: "V3" },
  { value: "v2", label: "V2 (removed from the service)" },
  { value: "v1", label: "V1 (removed from the service)" },
];

export function isApiVersion(value: string): value is ApiVersion {
  return API_VERSIONS.some((v) => v.value === value);
}

/** The lookup form as typed. */
export interface LookupForm {
  network: NetworkKind;
  customUrl: string;
  apiVersion: ApiVersion;
  query: string;
}

export type LookupCheck =
  { ok: true; query: LookupQuery } | { ok: false; field: "query" | "customUrl"; error: DeskError };

/**
 * The lookup to send, or what is missing. What the query is (an order id, a txid, a hash or an address) and whether
 * the URL is usable is desk-core's to decide; this only spares a round trip for empty fields.
 */
export function lookupQueryOf(form: LookupForm): LookupCheck {
  const query = form.query.trim();
  if (form.network === "custom") {
    const url = form.customUrl.trim();
    if (url === "") {
      return {
        ok: false,
        field: "customUrl",
        error: {
          kind: "invalid_input",
          message: "The custom gateway URL is empty. Enter a URL starting with https:// and look up again.",
        },
      };
    }
    if (query === "") return emptyQuery();
    return { ok: true, query: { network: "custom", customUrl: url, apiVersion: form.apiVersion, query } };
  }
  if (query === "") return emptyQuery();
  return { ok: true, query: { network: form.network, apiVersion: form.apiVersion, query } };
}

function emptyQuery(): LookupCheck {
  return {
    ok: false,
    field: "query",
    error: {
      kind: "invalid_input",
      message: "Enter an order id, a source transaction id or hash, or an address, then choose Look up.",
    },
  };
}

/** `#12 · Onramp: BTC on bitcoin → USDC on base · 0.0025 BTC ($96.12) · Completed` */
export function bundleOrderLabel(order: OrderView): string {
  return `#${order.localId ?? "?"} · ${orderRouteText(order)} · ${amountText(order.send)} · ${order.statusText}`;
}

/** The journal's own orders (those a bundle can be made of), newest first as listed. */
export function journalOrders(orders: readonly OrderView[] | null): OrderView[] {
  return (orders ?? []).filter((o) => o.localId !== undefined);
}

/** An event's payload for reading: indented JSON (a string payload as it is). */
export function payloadText(payload: unknown): string {
  if (typeof payload === "string") return payload;
  if (payload === undefined) return "";
  try {
    return JSON.stringify(payload, null, 2) ?? String(payload);
  } catch {
    return String(payload);
  }
}

/** `2 of 9 fields changed`, `Nothing changed (9 fields compared)` */
export function diffSummary(fields: readonly FieldDiff[]): string {
  const changed = fields.filter((f) => f.changed).length;
  const n = fields.length;
  if (changed === 0) return `Nothing changed (${n} ${n === 1 ? "field" : "fields"} compared)`;
  return `${changed} of ${n} ${n === 1 ? "field" : "fields"} changed`;
}

/** An explanation's status word for a person: `inProgress` → `in progress`. */
export function statusWords(status: string): string {
  return status
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .toLowerCase()
    .replace(/\bbtc\b/g, "BTC");
}
