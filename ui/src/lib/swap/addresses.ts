// Address and transaction-id format checks for the Swap view, as the person types. These are early checks (shape
// and alphabet, and an EVM address's EIP-55 checksum when its letters are mixed case); the app checks every address
// strictly again before anything is sent (gateway-client's address.rs and txhash.rs), and its message is shown if it
// disagrees. Each family's shapes come from Rust (`TYPING_SHAPES`, generated beside the strict checks), so a family
// added there is checked here without a change: only the gateway's own two shapes (EVM's hex, Bitcoin's) have code of
// their own below.

import { keccak_256 } from "@noble/hashes/sha3.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { CHAIN_FAMILIES, FAMILY_NAMES, TYPING_SHAPES, type AddressShape, type ChainFamily } from "../bindings/facts";

/** The family of each chain and the EVM chains come from Rust's one table of chains, generated into the bindings. */
export type { ChainFamily } from "../bindings/facts";
export { EVM_CHAINS } from "../bindings/facts";

/** The family of a chain slug, or null for a chain the app does not know. */
export function chainFamily(chain: string): ChainFamily | null {
  const slug = chain.trim().toLowerCase();
  return Object.hasOwn(CHAIN_FAMILIES, slug) ? CHAIN_FAMILIES[slug] : null;
}

export function familyName(family: ChainFamily): string {
  return FAMILY_NAMES[family];
}

/** Every family the app knows, in the generated table's order. */
export const ALL_FAMILIES: readonly ChainFamily[] = Object.keys(FAMILY_NAMES) as ChainFamily[];

/** `items` as a sentence lists them: "a, b or c" (`serial`: with a comma before the last word, "a, b, or c"); the
 * window's twin of gateway-client's `in_a_sentence`. */
function inASentence(items: readonly string[], joined: "or" | "and", serial = false): string {
  if (items.length < 2) return items.join("");
  return `${items.slice(0, -1).join(", ")}${serial ? "," : ""} ${joined} ${items[items.length - 1]}`;
}

/** The families' names as a sentence lists them: "Bitcoin, EVM, Tron or Solana" (`joined` "and" for a sum). */
export function familiesListed(families: readonly ChainFamily[] = ALL_FAMILIES, joined: "or" | "and" = "or"): string {
  return inASentence(
    families.map((f) => FAMILY_NAMES[f]),
    joined,
  );
}

/** How an address of each family starts, for a field that takes any ("0x…, bc1…, T…, or a Solana address"): the
 * family's shape's first characters, or its name where its addresses have none in common. */
export function addressPlaceholder(families: readonly ChainFamily[] = ALL_FAMILIES): string {
  const starts = families.map((family) => {
    const shape = TYPING_SHAPES[family].address;
    if (shape.kind === "evm") return "0x…";
    if (shape.kind === "bitcoin") return "bc1…";
    return shape.prefix ? `${shape.prefix}…` : anAddress(family);
  });
  return inASentence(starts, "or", true);
}

/** "an EVM", "a Bitcoin": the family's name with its article. */
function withArticle(family: ChainFamily): string {
  const name = FAMILY_NAMES[family];
  return `${/^[AEIOU]/i.test(name) ? "an" : "a"} ${name}`;
}

/** "An EVM", "A Bitcoin", to start a sentence. */
function startWithArticle(family: ChainFamily): string {
  const text = withArticle(family);
  return text[0].toUpperCase() + text.slice(1);
}

/** "an EVM address", "a Bitcoin address". */
export function anAddress(family: ChainFamily): string {
  return `${withArticle(family)} address`;
}

type Base58Shape = Extract<AddressShape, { kind: "base58" }>;

/** "34", "32 to 44": a length or a range of lengths, in characters. */
function lengths(shape: { minLen: number; maxLen: number }): string {
  return shape.minLen === shape.maxLen ? `${shape.minLen}` : `${shape.minLen} to ${shape.maxLen}`;
}

function inLength(shape: { minLen: number; maxLen: number }, text: string): boolean {
  return text.length >= shape.minLen && text.length <= shape.maxLen;
}

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const HEX = /^[0-9a-fA-F]+$/;
const BECH32_CHARSET = /^[qpzry9x8gf2tvdw0s3jn54khce6mua7l]+$/;

function looksEvm(a: string): boolean {
  return /^0x[0-9a-fA-F]{40}$/.test(a);
}

function looksBitcoin(a: string): boolean {
  const lower = a.toLowerCase();
  const hrp = ["bcrt1", "bc1", "tb1"].find((p) => lower.startsWith(p));
  if (hrp) {
    const data = lower.slice(hrp.length);
    return (a === lower || a === a.toUpperCase()) && data.length >= 6 && data.length <= 87 && BECH32_CHARSET.test(data);
  }
  return /^[13mn2]/.test(a) && a.length >= 26 && a.length <= 35 && BASE58.test(a);
}

function looksBase58(shape: Base58Shape, a: string): boolean {
  return (shape.prefix === null || a.startsWith(shape.prefix)) && inLength(shape, a) && BASE58.test(a);
}

function looks(shape: AddressShape, a: string): boolean {
  switch (shape.kind) {
    case "evm":
      return looksEvm(a);
    case "bitcoin":
      return looksBitcoin(a);
    case "base58":
      return looksBase58(shape, a);
  }
}

/** How specific a shape is: EVM's hex first, then Base58 with a prefix, then Bitcoin's, then Base58 without. */
function specificity(shape: AddressShape): number {
  if (shape.kind === "evm") return 0;
  if (shape.kind === "bitcoin") return 2;
  return shape.prefix === null ? 3 : 1;
}

/** The families in the order their shapes are tried, the most specific first (a stable sort of Rust's order). */
const GUESS_ORDER: readonly ChainFamily[] = (Object.keys(TYPING_SHAPES) as ChainFamily[]).sort(
  (x, y) => specificity(TYPING_SHAPES[x].address) - specificity(TYPING_SHAPES[y].address),
);

/** The family an address looks like, trying the most specific shapes first; null when none fits. */
export function guessFamily(address: string): ChainFamily | null {
  const a = address.trim();
  return GUESS_ORDER.find((family) => looks(TYPING_SHAPES[family].address, a)) ?? null;
}

/** What is said of an EVM address whose mixed-case letters do not match its EIP-55 checksum. */
export const EIP55_MISMATCH =
  "This EVM address's capital letters do not match its checksum (EIP-55): one character may be mistyped. Copy it again from its source.";

/**
 * The EIP-55 form of an EVM address (`0x` + 40 hexadecimal characters): each letter is a capital where the same
 * position of the keccak-256 hash of the lowercase hex is 8 or more.
 */
export function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(utf8ToBytes(hex));
  let out = "0x";
  for (let i = 0; i < hex.length; i++) {
    const nibble = i % 2 === 0 ? hash[i >> 1] >> 4 : hash[i >> 1] & 0x0f;
    out += nibble >= 8 ? hex[i].toUpperCase() : hex[i];
  }
  return out;
}

/**
 * True when an EVM address's case carries a checksum that does not match (EIP-55). All lowercase or all uppercase
 * hex carries none, and is taken as it is.
 */
export function evmChecksumWrong(address: string): boolean {
  const hex = address.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return false;
  return toChecksumAddress(address) !== address;
}

function checkEvm(a: string): string | null {
  if (!a.startsWith("0x")) {
    return /^[0-9a-fA-F]{40}$/.test(a)
      ? "An EVM address starts with 0x. Add 0x in front."
      : "An EVM address is 0x followed by 40 hexadecimal characters.";
  }
  const hex = a.slice(2);
  const bad = [...hex].find((c) => !/[0-9a-fA-F]/.test(c));
  if (bad !== undefined) return `An EVM address has only hexadecimal characters after 0x; “${bad}” is not one.`;
  if (hex.length !== 40) return `An EVM address has 40 hexadecimal characters after 0x; this one has ${hex.length}.`;
  if (evmChecksumWrong(a)) return EIP55_MISMATCH;
  return null;
}

function checkBitcoin(a: string): string | null {
  const lower = a.toLowerCase();
  const hrp = ["bcrt1", "bc1", "tb1"].find((p) => lower.startsWith(p));
  if (hrp) {
    if (a !== lower && a !== a.toUpperCase()) return "A bech32 Bitcoin address is all lower case (or all upper case).";
    const data = lower.slice(hrp.length);
    const bad = [...data].find((c) => !BECH32_CHARSET.test(c));
    if (bad !== undefined) return `“${bad}” cannot appear in a bech32 Bitcoin address (after ${hrp}). Check for typos.`;
    if (data.length < 6 || data.length > 87)
      return "This bech32 Bitcoin address has the wrong length. Check that it is complete.";
    return null;
  }
  if (/^[13mn2]/.test(a)) {
    const bad = [...a].find((c) => !BASE58.test(c));
    if (bad !== undefined)
      return `“${bad}” cannot appear in a Bitcoin address (0, O, I and l are never used). Check for typos.`;
    if (a.length < 26 || a.length > 35) return "This Bitcoin address has the wrong length. Check that it is complete.";
    return null;
  }
  return "A Bitcoin address starts with bc1, 1 or 3 (tb1, m, n or 2 on test networks).";
}

function checkBase58(family: ChainFamily, shape: Base58Shape, a: string): string | null {
  if (shape.prefix !== null && !a.startsWith(shape.prefix))
    return `${startWithArticle(family)} address starts with ${shape.prefix} and has ${lengths(shape)} characters.`;
  const bad = [...a].find((c) => !BASE58.test(c));
  if (bad !== undefined)
    return `“${bad}” cannot appear in ${anAddress(family)} (0, O, I and l are never used). Check for typos.`;
  if (!inLength(shape, a))
    return `${startWithArticle(family)} address has ${lengths(shape)} characters; this one has ${a.length}.`;
  return null;
}

function checkShape(family: ChainFamily, a: string): string | null {
  const shape = TYPING_SHAPES[family].address;
  switch (shape.kind) {
    case "evm":
      return checkEvm(a);
    case "bitcoin":
      return checkBitcoin(a);
    case "base58":
      return checkBase58(family, shape, a);
  }
}

/** Whether `a` starts the way the family's addresses do (a family whose addresses have no such start: never). */
function startsLike(family: ChainFamily, a: string): boolean {
  const shape = TYPING_SHAPES[family].address;
  switch (shape.kind) {
    case "evm":
      return a.startsWith("0x");
    case "bitcoin":
      return /^(bc1|tb1|bcrt1|[13mn2])/i.test(a);
    case "base58":
      return shape.prefix !== null && a.startsWith(shape.prefix);
  }
}

/**
 * Checks the shape of an address for a chain. Null when it looks right (or when the chain is one the app does not
 * know: the app's own check then has the last word); otherwise a sentence saying what is wrong. Empty text is the
 * caller's business (required or not): it is reported as "Enter …".
 */
export function checkAddress(chain: string, address: string): string | null {
  const family = chainFamily(chain);
  const a = address.trim();
  if (family === null) return null;
  if (a === "") return `Enter ${anAddress(family)}.`;
  if (/\s/.test(a)) return "An address has no spaces inside. Check what you pasted.";
  const problem = checkShape(family, a);
  if (problem === null) return null;
  // Another family's address is named as such, unless the text starts the way this family's addresses do (then
  // the specific problem, a missing character say, is more useful than a guess).
  const looks = guessFamily(a);
  if (looks !== null && looks !== family && !startsLike(family, a)) {
    return `This looks like ${anAddress(looks)}, but ${chain} needs ${anAddress(family)}.`;
  }
  return problem;
}

/** What the person hands in after signing, checked: the text to send, or why it cannot be right. */
export type HandInCheck =
  { ok: true; text: string; kind: "bitcoinTx" | "bitcoinTxid" | "psbt" | "txHash" } | { ok: false; message: string };

/** BIP-174's text form of a PSBT starts with these characters (base64 of `psbt\xff`). */
const PSBT_BASE64_START = "cHNidP8";
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The bytes as base64 (a `.psbt` file opened, a PSBT's hex shown in its text form). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A PSBT's hex as BIP-174's text form (base64); null when the text is not hex. */
export function psbtHexToBase64(hex: string): string | null {
  const body = hex.trim();
  if (!HEX.test(body) || body.length % 2 !== 0) return null;
  const bytes = new Uint8Array(body.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(body.slice(2 * i, 2 * i + 2), 16);
  return bytesToBase64(bytes);
}

/**
 * Checks the signed transaction or its id before it is handed in.
 *
 * Onramp: a Bitcoin txid (64 hex characters) or the signed transaction's hex (even length, longer than a txid);
 * spaces and line breaks inside are taken out. Otherwise the source transaction's id on `chain`, by its family's
 * shape (`TYPING_SHAPES[…].txId`): a hash of `0x` + 64 hex (or the 64 hex alone: `0x` is added where the app
 * requires it), or a base58 signature of the shape's lengths.
 */
export function checkHandIn(route: "onramp" | "offramp" | "tokenSwap", chain: string, text: string): HandInCheck {
  const fail = (message: string): HandInCheck => ({ ok: false, message });
  const input = text.trim();
  if (route === "onramp") {
    if (input === "") return fail("Paste the signed transaction (hex) or its transaction id first.");
    const hex = input.replace(/\s+/g, "");
    if (hex.startsWith(PSBT_BASE64_START)) {
      if (!BASE64.test(hex)) {
        return fail("A PSBT in its text form is base64 (A–Z, a–z, 0–9, + and /). Check that it is complete.");
      }
      return { ok: true, text: hex, kind: "psbt" };
    }
    const body = hex.startsWith("0x") ? hex.slice(2) : hex;
    if (!HEX.test(body)) {
      return fail("A signed Bitcoin transaction or txid is hexadecimal (0–9, a–f). Check what you pasted.");
    }
    if (body.length === 64) return { ok: true, text: body, kind: "bitcoinTxid" };
    if (body.length % 2 !== 0) {
      return fail(
        `Transaction hex has an even number of characters; this has ${body.length}. Check that it is complete.`,
      );
    }
    if (body.length < 64) {
      return fail("This is too short: a txid has 64 hexadecimal characters and a signed transaction is longer.");
    }
    return { ok: true, text: body, kind: body.toLowerCase().startsWith("70736274ff") ? "psbt" : "bitcoinTx" };
  }
  const family = chainFamily(chain);
  if (input === "") return fail("Paste the hash of the transaction you sent first.");
  if (/\s/.test(input)) return fail("A transaction hash has no spaces inside. Check what you pasted.");
  const shape = family === null ? null : TYPING_SHAPES[family].txId;
  if (family !== null && shape?.kind === "hex") {
    const body = input.startsWith("0x") ? input.slice(2) : input;
    if (!HEX.test(body) || body.length !== 64) {
      return fail(
        `${startWithArticle(family)} transaction hash is 0x followed by 64 hexadecimal characters` +
          (HEX.test(body) ? `; this has ${body.length}.` : "."),
      );
    }
    return { ok: true, text: shape.adds0x ? `0x${body}` : input, kind: "txHash" };
  }
  if (family !== null && shape?.kind === "base58") {
    if (!BASE58.test(input)) {
      return fail(
        `${startWithArticle(family)} transaction signature is base58 (no 0, O, I or l). Check what you pasted.`,
      );
    }
    if (!inLength(shape, input)) {
      return fail(
        `${startWithArticle(family)} transaction signature has ${lengths(shape)} characters; this has ${input.length}.`,
      );
    }
    return { ok: true, text: input, kind: "txHash" };
  }
  return { ok: true, text: input, kind: "txHash" };
}

/** Whether two addresses are the same account: exactly, or as hex addresses (`0x…`) without regard to case. */
export function sameAccount(a: string, b: string): boolean {
  return a === b || (a.startsWith("0x") && b.startsWith("0x") && a.toLowerCase() === b.toLowerCase());
}
