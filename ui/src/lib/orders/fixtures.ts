// Orders for tests: a complete OrderView with the fields a test cares about overridden. What desk-core reads from
// an order's facts (finished, attention, outcome, …) is tested in Rust (crates/desk-core/src/views); a test here sets
// those fields as desk-core would send them.
import type { AmountView } from "../bindings/AmountView";
import type { OrderView } from "../bindings/OrderView";
import type { ReceiptView } from "../bindings/ReceiptView";
import { EXECUTION_PHASES } from "../bindings/facts";

export function amount(text: string, usd?: string, chain = "bitcoin", symbol: string | null = "BTC"): AmountView {
  return {
    token: {
      chain,
      address: symbol === "BTC" ? "native" : "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
      symbol,
      name: null,
      decimals: 8,
    },
    amount: "250000",
    text,
    ...(usd === undefined ? {} : { usd }),
  };
}

export function order(overrides: Partial<OrderView> = {}): OrderView {
  return withPhase({
    network: "sandbox",
    route: "onramp",
    send: amount("0.0025 BTC", "96.12"),
    receive: amount("95.1 USDC", "95.10", "base", "USDC"),
    statusText: "In progress",
    status: "inProgress",
    timeline: [
      { key: "created", text: "Order created", at: 1_700_000_000 },
      { key: "inProgress", text: "In progress", at: 1_700_000_060 },
    ],
    received: [],
    refunded: [],
    createdAt: 1_700_000_000,
    toPay: null,
    toSign: null,
    execution: null,
    finished: false,
    attention: null,
    abandonQuestion: null,
    outcome: null,
    ...overrides,
  });
}

/** The order with the execution phase desk-core gives its stage (generated from Rust), unless a test set one. */
export function withPhase(view: OrderView): OrderView {
  if (view.stage === undefined || view.execution !== null) return view;
  return { ...view, execution: EXECUTION_PHASES[view.stage] };
}

/** An order of the app (with a journal id). */
export function own(localId: number, overrides: Partial<OrderView> = {}): OrderView {
  return order({
    localId,
    orderId: `order-${localId}-3f2a9c1077e1a0b2`,
    stage: "registered",
    nextStep: { step: "watch", sentence: "Nothing to do: the app is watching the order until it completes." },
    ...overrides,
  });
}

/** An order of a watched address (no journal id). */
export function watched(orderId: string, createdAt: number, overrides: Partial<OrderView> = {}): OrderView {
  return order({ orderId, createdAt, ...overrides });
}

const REFUND_TX = "3f2a9c1077e1a0b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a7b8c9d0";
const PAYOUT_TX = "0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789";

/** Receipts as desk-core writes them (crates/desk-core/src/views/receipt.rs), for an ended order. */
export const RECEIPTS = {
  /** 24.91 USDT arrived on BOB, 6 min 12 s after the registration, against a 10 min estimate. */
  arrived: {
    kind: "arrived",
    headline: "Completed",
    linesLabel: "Arrived",
    lines: [
      {
        text: "24.91 USDT on BOB",
        transfer: {
          amount: { ...amount("24.91 USDT", "24.91", "bob", "USDT"), amount: "24910000" },
          txHash: PAYOUT_TX,
          explorerUrl: `https://explorer.gobob.xyz/tx/${PAYOUT_TX}`,
        },
      },
    ],
    took: "Took 6 min 12 s, estimate 10 min",
    tookSecs: 372,
  },
  /** 0.0025 BTC came back on the Sandbox (no explorer), with the Orders view's explanation. */
  refunded: {
    kind: "refunded",
    headline: "Refunded",
    linesLabel: "Came back",
    lines: [
      {
        text: "0.0025 BTC on Bitcoin",
        transfer: { amount: amount("0.0025 BTC"), txHash: REFUND_TX },
      },
    ],
    took: "Took 10 min 40 s, estimate 10 min",
    tookSecs: 640,
    explanation: {
      happened: "The gateway reports this order refunded: the swap did not happen and what was sent came back.",
      where:
        "The gateway returned 0.0025 BTC on bitcoin (transaction 3f2a…c9d0). The quote named bcrt1qrefund as the Bitcoin refund address.",
      next: "Nothing more will happen to this order. Check that the refund arrived; if it did not, contact the gateway's support with the order id order-5-3f2a9c1077e1a0b2.",
    },
  },
  /** Failed before anything was paid in: no lines, the explanation. */
  failed: {
    kind: "failed",
    headline: "Failed",
    lines: [],
    took: "Took 5 min, estimate 10 min",
    tookSecs: 300,
    explanation: {
      happened:
        "The gateway reports this order failed before anything was paid in: it was not paid in time, or it could not be filled.",
      where: "Nothing left your wallet for this order.",
      next: "Nothing to do. Start a new swap if you still want one.",
    },
  },
  /** Completed without the gateway saying what arrived (a V1 gateway), for an order of a watched address. */
  unreported: {
    kind: "arrived",
    headline: "Completed",
    lines: [],
    unreported:
      "The gateway reports this order completed without saying what arrived; the order was for about 95.1 USDC on Base.",
  },
} satisfies Record<string, ReceiptView>;
