// The Settings section's affiliate entries as typed: the limits the gateway enforces (shown before sending, and
// checked for what can be checked without the app: a share that is no whole number, an empty address, too many
// entries, too many bps in all), and where a refusal belongs (the field its details name). desk-core stays the
// judge of the rest (address formats, an address twice). Pure functions, no Svelte.
import type { DeskError } from "../bindings/DeskError";
import type { AffiliateEntry } from "../bindings/AffiliateEntry";
import type { FieldDetails } from "../bindings/FieldDetails";
import { fieldDetailsOf } from "../error-details";
import { countText } from "./model";

/** Onramp and offramp quotes take at most MAX_AFFILIATES affiliates, whose shares add up to at most MAX_TOTAL_BPS basis
 * points: desk-core's limits, generated into the bindings (the same check runs again in Rust when they are saved). */
export { MAX_AFFILIATES, MAX_TOTAL_AFFILIATE_BPS as MAX_TOTAL_BPS } from "../bindings/facts";
import { MAX_AFFILIATES, MAX_TOTAL_AFFILIATE_BPS as MAX_TOTAL_BPS } from "../bindings/facts";

/** One entry as typed (the share as text, so nothing typed is lost). */
export interface AffiliateDraft {
  address: string;
  bps: string;
}

export function draftOf(entry: AffiliateEntry | null | undefined): AffiliateDraft {
  return entry ? { address: entry.address, bps: String(entry.bps) } : { address: "", bps: "" };
}

/** Where an affiliate error belongs: one entry, the list as a whole, the token-swap entry, or the section. */
export type AffiliateField =
  | { field: "affiliates"; index: number }
  | { field: "affiliates"; index?: undefined }
  | { field: "tokenSwapAffiliate" }
  | { field: "section" };

/** The field a refusal's details name (`{ field: "affiliates", index }`, `{ field: "tokenSwapAffiliate" }`). */
export function fieldOf(error: DeskError): AffiliateField {
  const named = fieldDetailsOf(error.details);
  if (named?.field === "tokenSwapAffiliate") return { field: "tokenSwapAffiliate" };
  if (named?.field === "affiliates") {
    const index = named.index;
    return index !== undefined && Number.isInteger(index) && index >= 0
      ? { field: "affiliates", index }
      : { field: "affiliates" };
  }
  return { field: "section" };
}

/** A share as typed, as basis points; null unless it is a whole number above 0. */
export function parseBps(text: string): number | null {
  const t = text.trim();
  if (!/^\d{1,9}$/.test(t)) return null;
  const n = Number(t);
  return n > 0 ? n : null;
}

/** The shares typed so far, added up (those that are not yet whole numbers count as 0). */
export function totalBps(drafts: readonly AffiliateDraft[]): number {
  return drafts.reduce((sum, d) => sum + (parseBps(d.bps) ?? 0), 0);
}

export type AffiliateCheck =
  | { ok: true; affiliates: AffiliateEntry[]; tokenSwap: AffiliateEntry | null }
  | { ok: false; at: AffiliateField; error: DeskError };

/** The refused field as the error's details, as desk-core writes them (an absent index is left out, not undefined). */
function detailsOf(at: AffiliateField): FieldDetails {
  return "index" in at && at.index !== undefined ? { field: at.field, index: at.index } : { field: at.field };
}

function refuse(at: AffiliateField, message: string): AffiliateCheck {
  return { ok: false, at, error: { kind: "invalid_input", message, details: detailsOf(at) } };
}

/** The entries to send, or the first problem found and the field it belongs to. */
export function checkAffiliates(list: readonly AffiliateDraft[], tokenSwap: AffiliateDraft): AffiliateCheck {
  if (list.length > MAX_AFFILIATES) {
    return refuse(
      { field: "affiliates" },
      `There are ${list.length} entries; the gateway takes at most ${MAX_AFFILIATES}. Remove ${list.length - MAX_AFFILIATES}.`,
    );
  }
  const affiliates: AffiliateEntry[] = [];
  for (const [index, draft] of list.entries()) {
    const n = index + 1;
    const address = draft.address.trim();
    if (address === "") {
      return refuse(
        { field: "affiliates", index },
        `Entry ${n} has no address. Enter the affiliate's address, or remove the entry.`,
      );
    }
    const bps = parseBps(draft.bps);
    if (bps === null) {
      return refuse(
        { field: "affiliates", index },
        `Entry ${n}'s share must be a whole number of basis points above 0 (50 bps is 0.5%). Correct it.`,
      );
    }
    affiliates.push({ address, bps });
  }
  const total = affiliates.reduce((sum, a) => sum + a.bps, 0);
  if (total > MAX_TOTAL_BPS) {
    return refuse(
      { field: "affiliates" },
      `The entries add up to ${countText(total)} bps; the gateway takes at most ${MAX_TOTAL_BPS} bps in all. Lower some shares.`,
    );
  }

  const address = tokenSwap.address.trim();
  const bpsText = tokenSwap.bps.trim();
  if (address === "" && bpsText === "") return { ok: true, affiliates, tokenSwap: null };
  if (address === "" || bpsText === "") {
    return refuse(
      { field: "tokenSwapAffiliate" },
      "The token-swap entry needs both an address and a share. Fill in both, or empty both to send none.",
    );
  }
  const bps = parseBps(bpsText);
  if (bps === null) {
    return refuse(
      { field: "tokenSwapAffiliate" },
      "The token-swap share must be a whole number of basis points above 0 (50 bps is 0.5%). Correct it.",
    );
  }
  return { ok: true, affiliates, tokenSwap: { address, bps } };
}
