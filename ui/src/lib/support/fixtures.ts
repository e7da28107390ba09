// Support answers for tests, shaped like desk-core's. Used only by tests.
import type { ImportedBundle } from "../bindings/ImportedBundle";
import type { BundlePreview } from "../bindings/BundlePreview";
import type { LookupResult } from "../bindings/LookupResult";
import type { QuoteDiff } from "../bindings/QuoteDiff";
import { order, own } from "../orders/fixtures";
import { onrampCard } from "../swap/testdata";

export const ORDER_ID = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6";
export const TXID = "9c8b7a6f5e4d3c2b1a09f8e7d6c5b4a39c8b7a6f5e4d3c2b1a09f8e7d6c5b4a3";

/** The order's JSON as the gateway wrote it: odd spacing, key order and markup-like text kept. */
export const ORDER_RAW =
  '{"id":"f81d4fae-7dec-11d0-a765-00a0c91e6bf6",  "status":"inProgress",\n  "srcInfo":{"txHash":null},"memo":"<b>a & b</b>"}';

export function lookupResult(over: Partial<LookupResult> = {}): LookupResult {
  return {
    kind: "order",
    networkLabel: "Sandbox",
    baseUrl: "http://127.0.0.1:9999",
    apiVersion: "v3",
    orders: [
      {
        order: order({ orderId: ORDER_ID, statusText: "In progress", status: "inProgress" }),
        explanation: {
          status: "inProgress",
          meaning: "The gateway has the order but has not seen its source transaction yet.",
          nextStep: "Check that the Bitcoin transaction was broadcast; it needs one confirmation.",
        },
        rawText: ORDER_RAW,
      },
    ],
    rawText: ORDER_RAW,
    ...over,
  };
}

export const BUNDLE_TEXT = `{
  "format": "gateway-desk-support-bundle",
  "version": 1,
  "appVersion": "0.7.0",
  "network": "sandbox",
  "order": { "localId": 3, "recipient": "0x5aAe…eAed" }
}
`;

export function preview(over: Partial<BundlePreview> = {}): BundlePreview {
  return {
    fileName: "order-f81d4fae-20261121-101500.json",
    text: BUNDLE_TEXT,
    redactions: [
      "The API key is never included.",
      "12 addresses and transaction ids were shortened to their first and last 4 characters.",
    ],
    logLines: 14,
    events: 6,
    ...over,
  };
}

export function imported(over: Partial<ImportedBundle> = {}): ImportedBundle {
  return {
    appVersion: "0.7.0",
    os: "linux x86_64",
    network: "sandbox",
    createdAt: 1_763_720_100,
    identifiersIncluded: false,
    apiVersion: "v3",
    redactions: ["3 addresses shortened to first4…last4."],
    text: BUNDLE_TEXT,
    order: own(3, {
      orderId: "f81d…6bf6",
      statusText: "Registered; waiting for the gateway",
      timeline: [
        { key: "created", text: "Order created", at: 1_763_719_000 },
        { key: "registered", text: "Transaction registered", at: 1_763_719_100 },
      ],
    }),
    events: [
      { seq: 1, at: 1_763_718_900, kind: "quoteAccepted", payload: { onramp: { quoteId: "q-1" } } },
      { seq: 2, at: 1_763_719_000, kind: "createAnswered", payload: { id: "f81d…6bf6" } },
    ],
    logLines: [
      "2026-11-21T10:01:40Z INFO desk_core::flow: order created local_id=3",
      "2026-11-21T10:03:20Z INFO desk_core::flow: registered local_id=3",
    ],
    ...over,
  };
}

export function quoteDiff(over: Partial<QuoteDiff> = {}): QuoteDiff {
  return {
    networkLabel: "Sandbox",
    before: onrampCard(),
    after: onrampCard({ priceImpact: "-0.70%" }),
    fields: [
      { field: "input amount", before: "0.0025 BTC", after: "0.0025 BTC", changed: false },
      { field: "output amount", before: "238.5 USDC", after: "238.1 USDC", changed: true },
      { field: "fee: solver fee", before: "0.00001 BTC", after: "0.00001 BTC", changed: false },
      { field: "fee: affiliate", after: "0.0000125 BTC", changed: true },
      { field: "price impact", before: "-0.66%", after: "-0.70%", changed: true },
      { field: "estimated time", before: "about 10 minutes", after: "about 10 minutes", changed: false },
    ],
    notes: ["The bundle shortened the recipient, so a stand-in address of the same kind was used."],
    ...over,
  };
}
