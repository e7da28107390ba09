// Reading an OrderView for the Swap view's Sign step: what to pay (onramp) or what call to sign (offramp, token
// swap), from the create-order answer as received (`created`, any JSON, so every field is checked before it is used)
// and what verification found (`verified`, typed: desk-core leaves it out when the journal's record has another
// shape). Nothing is guessed.
import type { DecodedCall } from "../bindings/DecodedCall";
import type { OrderView } from "../bindings/OrderView";
import type { PsbtSummary } from "../bindings/PsbtSummary";
import type { Stage } from "../bindings/Stage";
import type { Verified } from "../bindings/Verified";

type Obj = Record<string, unknown>;

function obj(value: unknown): Obj | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Obj) : null;
}

function str(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** A string, or a number written as a decimal string (amounts may come either way). */
function numText(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return str(value);
}

/** The order's Verified summary, when there is one. */
export function readVerified(order: OrderView): Verified | null {
  return order.verified ?? null;
}

/** The create-order answer's inner object and its route key (`onramp`, `offramp`, `tokenSwap`, V1's `layerZero`). */
function createdInner(order: OrderView): { key: string; inner: Obj } | null {
  const created = obj(order.created);
  if (!created) return null;
  for (const key of ["onramp", "offramp", "tokenSwap", "layerZero"]) {
    const inner = obj(created[key]);
    if (inner) return { key, inner };
  }
  return null;
}

export interface OnrampDeposit {
  orderId: string | null;
  /** The deposit address (the verified, canonical form when there is one). */
  address: string;
  /** The exact amount to pay, in sats. */
  amountSats: string | null;
  /** The OP_RETURN data the payment must carry (hex), when there is any. */
  opReturnHex: string | null;
  /** The unsigned PSBT, hex, when the quote named a sender. */
  psbtHex: string | null;
  /** What verification found in the PSBT. */
  psbt: PsbtSummary | null;
  /** The verified sentence ("Pays … to … with OP_RETURN …"). */
  sentence: string | null;
}

/** What an onramp order asks to be paid; null when the order is not an onramp or has no deposit address. */
export function readOnramp(order: OrderView): OnrampDeposit | null {
  if (order.route !== "onramp") return null;
  const verified = readVerified(order);
  const payload = verified && verified.payload.type === "onramp" ? verified.payload : null;
  const created = createdInner(order);
  const inner = created?.key === "onramp" ? created.inner : null;
  const address = payload?.address ?? str(inner?.address) ?? order.depositAddress ?? null;
  if (!address) return null;
  const sendUnits = order.send?.amount && /^[0-9]+$/.test(order.send.amount) ? order.send.amount : null;
  return {
    orderId: verified?.orderId ?? str(inner?.order_id) ?? order.orderId ?? null,
    address,
    amountSats: payload?.amountSats ?? sendUnits,
    opReturnHex: payload ? payload.opReturnHex : str(inner?.op_return_data),
    psbtHex: str(inner?.psbt_hex),
    psbt: payload?.psbt ?? null,
    sentence: verified?.sentence ?? null,
  };
}

export type TxCall =
  | {
      kind: "evm";
      chain: string;
      to: string;
      /** Native value in wei (decimal) and as a person reads it. */
      value: string;
      valueText: string | null;
      data: string;
      dataBytes: number | null;
      selector: string | null;
      /** The call as desk-core decoded it, each field equal to the quote's; null when not decoded. */
      decoded: DecodedCall | null;
    }
  | {
      kind: "tron";
      chain: string;
      to: string;
      value: string;
      valueText: string | null;
      data: string;
      dataBytes: number | null;
      selector: string | null;
      decoded: DecodedCall | null;
      feeLimitSun: string | null;
      feeLimitText: string | null;
    }
  | {
      kind: "solana";
      chainId: string | null;
      /** The unsigned transaction, base64, as the gateway sent it. */
      transaction: string;
      feePayer: string | null;
      programs: string[];
      instructionCount: number | null;
      recentBlockhash: string | null;
      version: string | null;
    };

/** The transaction an offramp or token-swap order asks to be signed; null when there is none to read. */
export function readTxCall(order: OrderView): TxCall | null {
  if (order.route === "onramp") return null;
  const created = createdInner(order);
  const tx = obj(created?.inner.tx);
  if (!tx) return null;
  const verified = readVerified(order);
  const payload = verified?.payload ?? null;
  const type = str(tx.type) ?? (payload?.type === "tron" || payload?.type === "solana" ? payload.type : "evm");
  if (type === "solana") {
    const transaction = str(tx.transaction);
    if (!transaction) return null;
    const s = payload?.type === "solana" ? payload : null;
    return {
      kind: "solana",
      chainId: numText(tx.chainId),
      transaction,
      feePayer: s?.feePayer ?? null,
      programs: s?.programs ?? [],
      instructionCount: s?.instructionCount ?? null,
      recentBlockhash: s?.recentBlockhash ?? null,
      version: s?.version ?? null,
    };
  }
  const to = str(tx.to);
  const data = str(tx.data) ?? "";
  if (!to) return null;
  if (type === "tron") {
    const t = payload?.type === "tron" ? payload : null;
    return {
      kind: "tron",
      chain: str(tx.chain) ?? "tron",
      to: t?.to ?? to,
      value: t?.value ?? numText(tx.value) ?? "0",
      valueText: t?.valueText ?? null,
      data,
      dataBytes: t?.dataBytes ?? null,
      selector: t?.selector ?? null,
      decoded: t?.decoded ?? null,
      feeLimitSun: t?.feeLimitSun ?? numText(tx.feeLimit),
      feeLimitText: t?.feeLimitText ?? null,
    };
  }
  const e = payload?.type === "evm" ? payload : null;
  return {
    kind: "evm",
    chain: e?.chain ?? str(tx.chain) ?? order.send.token.chain,
    to: e?.to ?? to,
    value: e?.value ?? numText(tx.value) ?? "0",
    valueText: e?.valueText ?? null,
    data,
    dataBytes: e?.dataBytes ?? null,
    selector: e?.selector ?? null,
    decoded: e?.decoded ?? null,
  };
}

/** Stages at which the order is refused or given up: nothing may be signed. */
export function isStopped(stage: Stage | undefined): boolean {
  return stage === "refused" || stage === "abandoned";
}

/** Stages after the transaction has been registered with the gateway. */
export function isRegistered(stage: Stage | undefined): boolean {
  return stage === "registered" || stage === "finished";
}

/** The BIP21 URI of an onramp payment: `bitcoin:<address>?amount=<btc>` (the amount exact, in BTC). */
export function bip21(address: string, amountBtc: string | null): string {
  return amountBtc ? `bitcoin:${address}?amount=${amountBtc}` : `bitcoin:${address}`;
}
