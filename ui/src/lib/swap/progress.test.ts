import { describe, expect, it } from "vitest";
import type { OrderView } from "../bindings/OrderView";
import { progressOf } from "./progress";

const BTC = { chain: "bitcoin", address: "0x00", symbol: "BTC", name: null, decimals: 8 };
const base = (over: Partial<OrderView> = {}): OrderView => ({
  localId: 1,
  network: "sandbox",
  route: "onramp",
  stage: "registered",
  send: { token: BTC, amount: "1", text: "" },
  receive: { token: BTC, amount: "1", text: "" },
  statusText: "In progress",
  timeline: [
    { key: "created", text: "Order created", at: 1000 },
    { key: "registered", text: "Transaction registered", at: 1100 },
  ],
  received: [],
  refunded: [],
  createdAt: 1000,
  toPay: null,
  toSign: null,
  execution: "registered",
  finished: false,
  attention: null,
  abandonQuestion: null,
  outcome: null,
  ...over,
});

describe("progress", () => {
  it("measures from the registration against the quote's estimate", () => {
    const p = progressOf(base(), 600, 1100 + 150);
    expect(p.fraction).toBeCloseTo(0.25);
    expect(p.remaining).toBe("About 8 min left (estimate: 10 min)");
    expect(p.step).toBe("Transaction registered");
    expect(p.ended).toBe(false);
  });

  it("says when it is late instead of pretending", () => {
    const p = progressOf(base(), 600, 1100 + 700);
    expect(p.fraction).toBeLessThan(1);
    expect(p.remaining).toBe("Taking longer than the 10 min estimate; the gateway is still working on it");
  });

  it("is full and done when the order ended, and says how it ended", () => {
    expect(progressOf(base({ status: "success", stage: "finished", finished: true }), 600, 0)).toMatchObject({
      fraction: 1,
      remaining: "Done",
      succeeded: true,
    });
    const refunded = progressOf(
      base({ status: "refunded", stage: "finished", statusText: "Refunded", finished: true }),
      600,
      0,
    );
    expect(refunded).toMatchObject({ fraction: 1, remaining: "Refunded", succeeded: false, ended: true });
  });

  it("has no bar without an estimate", () => {
    expect(progressOf(base(), null, 2000).remaining).toBe("The gateway gave no time estimate");
  });
});
