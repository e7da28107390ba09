// The swap form's choices and checks, as pure functions: which chains and tokens can be chosen from the routes,
// the search over them, slippage, and what the form sends (SwapForm) once every field reads right.
import type { ErrorDetails } from "../bindings/ErrorDetails";
import type { RouteKind } from "../bindings/RouteKind";
import type { RouteView } from "../bindings/RouteView";
import type { SwapField } from "../bindings/SwapField";
import type { SwapForm } from "../bindings/SwapForm";
import type { TokenView } from "../bindings/TokenView";
import { swapFieldOf } from "../error-details";
import { tokenLabel } from "../routes";
import { checkAmount } from "./amounts";
import { chainFamily, checkAddress } from "./addresses";

const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });

/** Slippage presets, in bps: 0.5%, 1%, 3%. */
export const SLIPPAGE_PRESETS: readonly number[] = [50, 100, 300];
/** The official client's default (3%). */
export { DEFAULT_SLIPPAGE_BPS } from "../bindings/facts";
import { DEFAULT_SLIPPAGE_BPS, MAX_SLIPPAGE_BPS, SENDER_REQUIRED_FAMILIES } from "../bindings/facts";
/** Below this, a quote may fail to fill; above the other, the person may get much less than quoted. */
export const SLIPPAGE_LOW_BPS = 50;
export const SLIPPAGE_HIGH_BPS = 300;
/** 100%: gateway-client's maximum, generated into the bindings. */
export const SLIPPAGE_MAX_BPS = MAX_SLIPPAGE_BPS;

/** Token addresses compare exactly, except hex (0x…) ones, whose case carries only a checksum. */
export function sameAddress(a: string, b: string): boolean {
  if (a.startsWith("0x") && b.startsWith("0x")) return a.toLowerCase() === b.toLowerCase();
  return a === b;
}

export function sameToken(a: TokenView, b: TokenView): boolean {
  return a.chain === b.chain && sameAddress(a.address, b.address);
}

/** `USDC on ethereum`, or the shortened address when the symbol is unknown. */
export function tokenOptionLabel(token: TokenView): string {
  return `${tokenLabel(token)} on ${token.chain}`;
}

/** True when every whitespace-separated term of `query` occurs in the token's chain, symbol, name or address. */
export function tokenMatches(token: TokenView, query: string): boolean {
  const terms = query
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t !== "");
  if (terms.length === 0) return true;
  const text = [token.chain, token.address, token.symbol ?? "", token.name ?? ""].join("\n").toLowerCase();
  return terms.every((t) => text.includes(t));
}

function uniqueTokens(tokens: TokenView[]): TokenView[] {
  const out: TokenView[] = [];
  for (const t of tokens) if (!out.some((o) => sameToken(o, t))) out.push(t);
  return out.sort((a, b) => collator.compare(tokenLabel(a), tokenLabel(b)) || collator.compare(a.address, b.address));
}

function uniqueSorted(values: string[]): string[] {
  return [...new Set(values)].sort((a, b) => collator.compare(a, b));
}

export function findToken(tokens: readonly TokenView[], chain: string, address: string): TokenView | null {
  return tokens.find((t) => t.chain === chain && sameAddress(t.address, address)) ?? null;
}

/** What the form can offer from the routes, given what has been chosen and searched for. */
export interface Choices {
  srcChains: string[];
  srcTokens: TokenView[];
  dstChains: string[];
  dstTokens: TokenView[];
  /** The chosen source token, when it is one the routes have. */
  src: TokenView | null;
  /** The chosen destination token, when it is reachable from the source. */
  dst: TokenView | null;
  /** The route between them. */
  route: RouteView | null;
}

export interface Selection {
  srcChain: string;
  srcToken: string;
  dstChain: string;
  dstToken: string;
  query: string;
}

/**
 * The chains and tokens to offer. Tokens are filtered by the search (the chosen one always stays, so a select
 * never loses its value); chains are those with a token matching the search (plus the chosen one). Destinations
 * are only those reachable from the chosen source token.
 */
export function choices(routes: readonly RouteView[], sel: Selection): Choices {
  const keep = (token: TokenView, chain: string, address: string) =>
    tokenMatches(token, sel.query) || (token.chain === chain && sameAddress(token.address, address));

  const allSrc = uniqueTokens(routes.map((r) => r.src));
  const src = findToken(allSrc, sel.srcChain, sel.srcToken);
  const srcChains = uniqueSorted(
    allSrc.filter((t) => tokenMatches(t, sel.query) || t.chain === sel.srcChain).map((t) => t.chain),
  );
  const srcTokens = allSrc.filter((t) => t.chain === sel.srcChain && keep(t, sel.srcChain, sel.srcToken));

  const reachable = src ? routes.filter((r) => sameToken(r.src, src)) : [];
  const allDst = uniqueTokens(reachable.map((r) => r.dst));
  const dst = findToken(allDst, sel.dstChain, sel.dstToken);
  const dstChains = uniqueSorted(
    allDst.filter((t) => tokenMatches(t, sel.query) || t.chain === sel.dstChain).map((t) => t.chain),
  );
  const dstTokens = allDst.filter((t) => t.chain === sel.dstChain && keep(t, sel.dstChain, sel.dstToken));
  const route = src && dst ? (reachable.find((r) => sameToken(r.dst, dst)) ?? null) : null;
  return { srcChains, srcTokens, dstChains, dstTokens, src, dst, route };
}

/** The custom slippage text read as whole bps (1 to 10000), or a sentence saying what to type. */
export function parseBps(text: string): { ok: true; bps: number } | { ok: false; message: string } {
  const t = text.trim();
  if (t === "") return { ok: false, message: "Enter a slippage tolerance in basis points (100 bps = 1%)." };
  if (!/^[0-9]+$/.test(t)) return { ok: false, message: "Enter whole basis points, such as 75 (0.75%)." };
  const bps = Number(t);
  if (bps < 1 || bps > SLIPPAGE_MAX_BPS) {
    return { ok: false, message: "Slippage must be between 1 and 10000 bps (0.01% to 100%)." };
  }
  return { ok: true, bps };
}

/** A warning for a valid but unusual slippage, or null. */
export function slippageWarning(bps: number): string | null {
  if (bps < SLIPPAGE_LOW_BPS) {
    return "Below 0.5%, prices may move past your tolerance before the swap fills; the order may fail or be refunded.";
  }
  if (bps > SLIPPAGE_HIGH_BPS) {
    return "Above 3%, you accept receiving noticeably less than quoted if the price moves.";
  }
  return null;
}

/** Everything the form holds, as typed. */
export interface FormFields extends Selection {
  amount: string;
  /** A preset in bps, or null when the custom field is used. */
  slippagePreset: number | null;
  slippageCustom: string;
  recipient: string;
  sender: string;
  owner: string;
  refund: string;
}

/** The form's fields, as desk-core names them in an error's details. */
export type FieldName = SwapField;

export type FieldErrors = Partial<Record<FieldName, string>>;

export interface FieldRules {
  /** The sender is needed (Solana sources sign with it). */
  senderRequired: boolean;
  /** The owner is needed (offramps, V3). */
  ownerRequired: boolean;
  /** The owner exists (V3 only: V4 dropped it). */
  v3: boolean;
  /** A refund address makes sense: V3's onramps (a Bitcoin address), every V4 route (on the source chain). */
  refundAllowed: boolean;
  /** The chain the refund address is on: Bitcoin in V3, the source chain in V4; null when none is taken. */
  refundChain: string | null;
}

/** A form with nothing typed or chosen yet (the default slippage preset). */
export function emptyFields(): FormFields {
  return {
    query: "",
    srcChain: "",
    srcToken: "",
    dstChain: "",
    dstToken: "",
    amount: "",
    slippagePreset: DEFAULT_SLIPPAGE_BPS,
    slippageCustom: "",
    recipient: "",
    sender: "",
    owner: "",
    refund: "",
  };
}

export function fieldRules(kind: RouteKind | null, srcChain: string, apiVersion: string | null): FieldRules {
  const v3 = apiVersion === "v3";
  // V4, the service's current version and the app's default (null: not known yet).
  const v4 = apiVersion === null || apiVersion === "v4";
  const refundAllowed = (v3 && kind === "onramp") || v4;
  return {
    senderRequired: SENDER_REQUIRED_FAMILIES.some((family) => family === chainFamily(srcChain)),
    ownerRequired: v3 && kind === "offramp",
    v3,
    refundAllowed,
    refundChain: !refundAllowed ? null : v4 ? srcChain || null : "bitcoin",
  };
}

export function slippageBps(fields: FormFields): number | null {
  if (fields.slippagePreset !== null) return fields.slippagePreset;
  const parsed = parseBps(fields.slippageCustom);
  return parsed.ok ? parsed.bps : null;
}

/**
 * Checks every field as typed. Empty optional fields are fine; empty required ones are reported only when
 * `submitting` (so a fresh form is not covered in red). `waiting`: address fields the app's wallet would fill but
 * cannot while locked; empty and required, they say so.
 */
export function checkFields(
  fields: FormFields,
  picked: Choices,
  rules: FieldRules,
  submitting: boolean,
  waiting: readonly FieldName[] = [],
): FieldErrors {
  const errors: FieldErrors = {};
  if (!picked.src) {
    if (submitting) errors.srcToken = "Choose the chain and token you send.";
  } else if (!picked.dst) {
    if (submitting) errors.dstToken = "Choose the chain and token you receive.";
  }
  if (fields.amount.trim() === "") {
    if (submitting) errors.amount = "Enter the amount you send.";
  } else if (picked.src) {
    const problem = checkAmount(fields.amount, picked.src);
    if (problem) errors.amount = problem;
  }
  if (fields.slippagePreset === null) {
    const parsed = parseBps(fields.slippageCustom);
    if (!parsed.ok && (fields.slippageCustom.trim() !== "" || submitting)) errors.slippage = parsed.message;
  }
  const address = (name: FieldName, chain: string | null, text: string, required: boolean, what: string) => {
    if (text.trim() === "") {
      if (required && submitting) {
        errors[name] = waiting.includes(name)
          ? `Unlock the wallet to use its address, or enter ${what}.`
          : `Enter ${what}.`;
      }
      return;
    }
    if (chain === null) return;
    const problem = checkAddress(chain, text);
    if (problem) errors[name] = problem;
  };
  address("recipient", picked.dst?.chain ?? null, fields.recipient, true, "the address that receives the tokens");
  address("sender", picked.src?.chain ?? null, fields.sender, rules.senderRequired, "the address you send from");
  if (rules.v3) address("owner", "ethereum", fields.owner, rules.ownerRequired, "the EVM address that owns the order");
  if (rules.refundAllowed) address("refund", rules.refundChain, fields.refund, false, "a refund address");
  return errors;
}

/** The SwapForm to send, when every field reads right; null otherwise. */
export function toSwapForm(fields: FormFields, picked: Choices, rules: FieldRules): SwapForm | null {
  if (Object.keys(checkFields(fields, picked, rules, true)).length > 0) return null;
  const bps = slippageBps(fields);
  if (!picked.src || !picked.dst || bps === null) return null;
  const form: SwapForm = {
    srcChain: picked.src.chain,
    srcToken: picked.src.address,
    dstChain: picked.dst.chain,
    dstToken: picked.dst.address,
    amount: fields.amount.trim(),
    slippageBps: bps,
    recipient: fields.recipient.trim(),
  };
  const given = (s: string) => (s.trim() === "" ? undefined : s.trim());
  const sender = given(fields.sender);
  if (sender) form.sender = sender;
  if (rules.v3) {
    const owner = given(fields.owner);
    if (owner) form.owner = owner;
  }
  const refund = rules.refundAllowed ? given(fields.refund) : undefined;
  if (refund) form.refund = refund;
  return form;
}

/** True when two forms ask for the same quote. */
export function sameForm(a: SwapForm | null, b: SwapForm | null): boolean {
  if (a === null || b === null) return a === b;
  const keys: (keyof SwapForm)[] = [
    "srcChain",
    "srcToken",
    "dstChain",
    "dstToken",
    "amount",
    "slippageBps",
    "recipient",
    "sender",
    "owner",
    "refund",
  ];
  return keys.every((k) => (a[k] ?? "") === (b[k] ?? ""));
}

/** The form field an error's details name: desk-core decides it (the gateway's codes included), typed. */
export function fieldOfError(details: ErrorDetails | undefined): FieldName | null {
  return swapFieldOf(details);
}
