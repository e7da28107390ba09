// @vitest-environment happy-dom
// The Sign step after registration: the progress while the order runs, and the receipt in its place once the
// tracker reports the ending (an `orderChanged` event), with the way to Orders and to a new swap kept.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync } from "svelte";
import type { OrderView } from "../../bindings/OrderView";
import { RECEIPTS } from "../../orders/fixtures";
import { orders } from "../../orders/state.svelte";
import { SwapState } from "../../swap/state.svelte";
import { onrampOrder } from "../../swap/testdata";
import { byId, mountedPerTest, stubApi, text } from "../../testing";
import ExecutePanel from "./ExecutePanel.svelte";

const { show } = mountedPerTest();

const registered = onrampOrder({
  stage: "registered",
  status: "inProgress",
  statusText: "In progress",
  attention: null,
  estimatedSecs: 600,
  timeline: [
    { key: "created", text: "Order created", at: 1_700_000_000 },
    { key: "registered", text: "Transaction registered", at: 1_700_000_030 },
  ],
});

function ended(over: Partial<OrderView>): OrderView {
  return { ...registered, stage: "finished", finished: true, nextStep: undefined, ...over };
}

function showFlow(order: OrderView): SwapState {
  const flow = new SwapState(stubApi({ orderNextCheck: vi.fn(async () => 8), refreshOrders: vi.fn(async () => {}) }));
  flow.order = order;
  orders.list = [order];
  show(ExecutePanel, { flow });
  return flow;
}

afterEach(() => {
  orders.list = null;
});

describe("ExecutePanel after registration", () => {
  it("follows the order, then shows its receipt in place when the ending is reported", () => {
    showFlow(registered);
    expect(text("registered")).toContain("Registered — follow it in Orders");
    expect(byId("order-progress")).not.toBeNull();
    expect(byId("receipt")).toBeNull();

    orders.handleEvent({
      type: "orderChanged",
      order: ended({ status: "success", statusText: "Completed", receipt: RECEIPTS.arrived }),
    });
    flushSync();
    expect(byId("order-progress")).toBeNull();
    const panel = byId("registered")!;
    expect(panel.getAttribute("role")).toBe("status");
    expect(panel.querySelector("h2")?.textContent).toBe("Completed");
    expect(panel.textContent).toContain(`Order ${registered.orderId}: you sent 0.0025 BTC.`);
    expect(text("receipt-amount", panel)).toBe("24.91 USDT on BOB ($24.91)");
    expect(byId("receipt-tx-link", panel)?.getAttribute("href")).toMatch(/^https:\/\/explorer\.gobob\.xyz\/tx\/0x/);
    expect(text("receipt-took", panel)).toBe("Took 6 min 12 s, estimate 10 min");
    expect(byId("go-orders")).not.toBeNull();
    expect(byId("swap-new")).not.toBeNull();
  });

  it("says a V4 offramp's transaction is found on its chain, not registered, and still follows it", () => {
    showFlow({
      ...registered,
      route: "offramp",
      readFromChain: "BOB",
      status: undefined,
      statusText: "Sent; waiting for the gateway to find it on BOB",
      timeline: [
        { key: "created", text: "Order created", at: 1_700_000_000 },
        { key: "registered", text: "Transaction sent; the gateway finds it on BOB", at: 1_700_000_030 },
      ],
    });
    expect(byId("registered")?.querySelector("h2")?.textContent).toBe("Sent — follow it in Orders");
    expect(text("read-from-chain")).toContain("The gateway finds your transaction on BOB by itself");
    expect(text("read-from-chain")).toContain("API V4 registers none.");
    expect(text("registered")).not.toContain("The gateway has your transaction");
    expect(byId("order-progress")).not.toBeNull();
  });

  it("explains a refund in place with the Orders view's words", () => {
    showFlow(
      ended({
        status: "refunded",
        statusText: "Refunded",
        receipt: RECEIPTS.refunded,
        outcome: RECEIPTS.refunded.explanation,
      }),
    );
    expect(byId("registered")?.querySelector("h2")?.textContent).toBe("Refunded");
    expect(byId("order-progress")).toBeNull();
    expect(text("receipt-outcome-happened", byId("receipt-explanation")!)).toBe(RECEIPTS.refunded.explanation.happened);
    expect(text("receipt-amount")).toBe("0.0025 BTC on Bitcoin");
  });
});
