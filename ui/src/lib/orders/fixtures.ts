// Orders for tests: a complete OrderView with the fields a test cares about overridden. What desk-core reads from
// an order's facts (finished, attention, outcome, …) is tested in Rust (crates/desk-core/src/views); a test here sets
// those fields as desk-core would send them.
import type { AmountView } from "../bindings/AmountView";
import type { OrderView } from "../bindings/OrderView";
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
