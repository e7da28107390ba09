import { describe, expect, it } from "vitest";
import {
  PAGE_SIZE,
  abandonQuestion,
  amountText,
  attentionAction,
  mayAbandon,
  outcomeOf,
  currentStepIndex,
  filterOrders,
  isFinished,
  isOrderFilter,
  mergeOrder,
  needsAttention,
  orderCount,
  orderKey,
  orderRouteText,
  pageLabel,
  paginate,
  readFailedText,
  shortenMiddle,
  usdText,
} from "./model";
import { amount, own, watched } from "./fixtures";

const sign = { step: "signAndHandIn", sentence: "Sign it." } as const;

describe("finished or not", () => {
  it("follows the app's stage first, then the gateway's status", () => {
    expect(isFinished(own(1, { stage: "finished" }))).toBe(true);
    expect(isFinished(own(1, { stage: "abandoned", status: undefined }))).toBe(true);
    expect(isFinished(own(1, { stage: "refused", status: undefined }))).toBe(false);
    expect(isFinished(own(1, { stage: "registered", status: "success" }))).toBe(true);
    expect(isFinished(own(1, { stage: "registered", status: "inProgress" }))).toBe(false);
    expect(isFinished(watched("a", 1, { status: "refunded" }))).toBe(true);
    expect(isFinished(watched("a", 1, { status: "failed" }))).toBe(true);
    expect(isFinished(watched("a", 1, { status: "pendingBtcPayment" }))).toBe(false);
    expect(isFinished(watched("a", 1, { status: "somethingNew" }))).toBe(false);
    expect(isFinished(watched("a", 1, { status: undefined }))).toBe(false);
  });

  it("filters all, unfinished and finished, keeping the order", () => {
    const list = [own(3, { stage: "finished", status: "success" }), own(2), watched("w", 5, { status: "failed" })];
    expect(filterOrders(list, "all")).toEqual(list);
    expect(filterOrders(list, "unfinished").map(orderKey)).toEqual(["local:2"]);
    expect(filterOrders(list, "finished").map(orderKey)).toEqual(["local:3", "order:w"]);
    expect(isOrderFilter("finished")).toBe(true);
    expect(isOrderFilter("done")).toBe(false);
  });
});

describe("needs attention", () => {
  it("offers one action per next step, and discard for refused orders", () => {
    expect(
      attentionAction(own(1, { stage: "createUnknown", nextStep: { step: "confirmCreation", sentence: "" } })),
    ).toBe("continue");
    expect(attentionAction(own(1, { stage: "registering", nextStep: { step: "register", sentence: "" } }))).toBe(
      "continue",
    );
    expect(attentionAction(own(1, { stage: "verified", nextStep: sign }))).toBe("goSign");
    expect(attentionAction(own(1, { stage: "refused", nextStep: undefined }))).toBe("discard");
  });

  it("leaves out orders that only need watching and orders of watched addresses", () => {
    expect(needsAttention(own(1))).toBe(false);
    expect(needsAttention(own(1, { stage: "finished", nextStep: undefined }))).toBe(false);
    expect(needsAttention(watched("a", 1, { nextStep: sign }))).toBe(false);
  });

  it("asks to read a failed or refunded order until it is acknowledged", () => {
    const ended = { stage: "finished", nextStep: undefined } as const;
    expect(attentionAction(own(1, { ...ended, status: "failed", acknowledged: false }))).toBe("acknowledge");
    expect(attentionAction(own(1, { ...ended, status: "refunded", acknowledged: false }))).toBe("acknowledge");
    expect(needsAttention(own(1, { ...ended, status: "refunded", acknowledged: true }))).toBe(false);
    expect(needsAttention(own(1, { ...ended, status: "success" }))).toBe(false);
    // A watched address's failed order is not the app's to acknowledge.
    expect(needsAttention(watched("a", 1, { status: "failed", acknowledged: false }))).toBe(false);
  });
});

describe("abandoning", () => {
  it("is offered when desk-core allows it, except for refused orders (they are discarded)", () => {
    expect(mayAbandon(own(1, { stage: "verified", nextStep: sign, canAbandon: true }))).toBe(true);
    expect(mayAbandon(own(1, { stage: "verified", nextStep: sign, canAbandon: false }))).toBe(false);
    expect(mayAbandon(own(1, { stage: "verified", nextStep: sign }))).toBe(false);
    expect(mayAbandon(own(1, { stage: "refused", nextStep: undefined, canAbandon: true }))).toBe(false);
    expect(mayAbandon(watched("a", 1, { canAbandon: true }))).toBe(false);
  });

  it("asks first, saying the gateway's order expires unpaid and an approval stays", () => {
    expect(abandonQuestion(own(1, { stage: "verified" }))).toBe(
      "Abandon this order? The gateway's order will expire unpaid; nothing is sent to the gateway.",
    );
    expect(abandonQuestion(own(1, { stage: "createUnknown", orderId: undefined }))).toBe(
      "Abandon this order? If the gateway created the order, it will expire unpaid; nothing is sent to the gateway.",
    );
    const approved = own(1, {
      stage: "verified",
      walletTxs: [
        { kind: "approve", chain: "bob", hash: "0xa", raw: "0x02", nonce: 0, state: "mined", block: 3, reason: null },
      ],
    });
    expect(abandonQuestion(approved)).toContain("The token approval you signed stays on chain");
  });
});

describe("what happened to a failed or refunded order", () => {
  const refund = {
    amount: amount("0.0025 BTC", "96.12"),
    txHash: "3f2a9c1077e1a0b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a7b8c9d0",
  };
  const sourceTx = { ...refund, txHash: "aa".repeat(32) };

  it("says what a refund returned, in which transaction, and where it goes", () => {
    const onramp = own(1, {
      stage: "finished",
      status: "refunded",
      refunded: [refund],
      refundAddress: "bcrt1qrefund",
      ownerAddress: "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
    });
    expect(outcomeOf(onramp)).toEqual({
      happened: "The gateway reports this order refunded: the swap did not happen and what was sent came back.",
      where:
        "The gateway returned 0.0025 BTC on bitcoin (transaction 3f2a9c10…b8c9d0). The quote named bcrt1qrefund as the " +
        "Bitcoin refund address. The quote named 0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359 as the order's owner, " +
        "who may claim a refund.",
      next:
        "Nothing more will happen to this order. Check that the refund arrived; if it did not, contact the gateway's " +
        "support with the order id order-1-3f2a9c1077e1a0b2.",
    });
    const swap = own(2, { route: "tokenSwap", stage: "finished", status: "refunded", refunded: [] });
    expect(outcomeOf(swap)?.where).toBe(
      "The gateway did not say what it returned. The transaction shows the address it paid.",
    );
  });

  it("tells a failure before payment from one after, per route", () => {
    const unpaid = outcomeOf(own(1, { stage: "finished", status: "failed", sourceTx: undefined }));
    expect(unpaid?.happened).toContain("failed before anything was paid in");
    expect(unpaid?.where).toBe("Nothing left your wallet for this order.");
    expect(unpaid?.next).toBe("Nothing to do. Start a new swap if you still want one.");

    const onramp = outcomeOf(own(2, { stage: "finished", status: "failed", sourceTx, refundAddress: "bcrt1qrefund" }));
    expect(onramp?.happened).toBe(
      `The gateway reports this order failed after 0.0025 BTC was sent (transaction aaaaaaaa…aaaaaa).`,
    );
    expect(onramp?.where).toBe(
      "The gateway has not reported a refund of the bitcoin yet. The quote named bcrt1qrefund as the Bitcoin refund address.",
    );
    expect(onramp?.next).toContain(`order id order-2-3f2a9c1077e1a0b2 and the transaction ${"aa".repeat(32)}`);

    const offramp = outcomeOf(
      own(3, {
        route: "offramp",
        send: amount("0.001 WBTC", undefined, "bob", "WBTC"),
        stage: "finished",
        status: "failed",
        handedIn: { kind: "sourceTx", chain: "bob", hash: "0xbeef" },
        ownerAddress: "0xowner",
        refundAddress: "bcrt1qignored",
      }),
    );
    expect(offramp?.where).toBe(
      "The gateway has not reported a refund yet: the tokens went to the gateway's contract on bob. The quote named " +
        "0xowner as the order's owner, who may claim a refund.",
    );
  });

  it("has nothing to say of other orders, nor of an abandoned one", () => {
    expect(outcomeOf(own(1))).toBeNull();
    expect(outcomeOf(own(1, { stage: "finished", status: "success" }))).toBeNull();
    expect(outcomeOf(own(1, { stage: "abandoned", status: "failed" }))).toBeNull();
    expect(outcomeOf(watched("w", 1, { status: "refunded", refunded: [refund] }))?.where).toContain(
      "The gateway returned 0.0025 BTC on bitcoin",
    );
  });
});

describe("paging", () => {
  const items = Array.from({ length: 45 }, (_, i) => i);

  it("cuts pages of twenty", () => {
    expect(PAGE_SIZE).toBe(20);
    const first = paginate(items, 1);
    expect(first).toMatchObject({ page: 1, pageCount: 3, total: 45 });
    expect(first.items).toEqual(items.slice(0, 20));
    expect(paginate(items, 3).items).toEqual(items.slice(40));
  });

  it("keeps the page within range", () => {
    expect(paginate(items, 9).page).toBe(3);
    expect(paginate(items, 0).page).toBe(1);
    expect(paginate(items, Number.NaN).page).toBe(1);
    expect(paginate([], 4)).toEqual({ items: [], page: 1, pageCount: 1, total: 0 });
    expect(paginate(items.slice(0, 20), 2).pageCount).toBe(1);
  });

  it("labels the page and counts orders", () => {
    expect(pageLabel(2, 5)).toBe("Page 2 of 5");
    expect(orderCount(1)).toBe("1 order");
    expect(orderCount(0)).toBe("0 orders");
  });
});

describe("merging an update into the list", () => {
  const list = [own(5), own(3), watched("w-new", 300), watched("w-old", 100)];

  it("replaces the app's order with the same local id, in place", () => {
    const update = own(3, { statusText: "Completed", status: "success" });
    const next = mergeOrder(list, update);
    expect(next.map(orderKey)).toEqual(list.map(orderKey));
    expect(next[1].statusText).toBe("Completed");
    expect(list[1].statusText).toBe("In progress");
  });

  it("puts a new order of the app among the app's own, newest first", () => {
    expect(mergeOrder(list, own(9)).map(orderKey)[0]).toBe("local:9");
    expect(mergeOrder(list, own(4)).map(orderKey)).toEqual([
      "local:5",
      "local:4",
      "local:3",
      "order:w-new",
      "order:w-old",
    ]);
    expect(mergeOrder([watched("w", 1)], own(1)).map(orderKey)).toEqual(["local:1", "order:w"]);
  });

  it("replaces a watched address's order by order id, in place", () => {
    const next = mergeOrder(list, watched("w-old", 100, { statusText: "Refunded" }));
    expect(next.map(orderKey)).toEqual(list.map(orderKey));
    expect(next[3].statusText).toBe("Refunded");
  });

  it("inserts a new watched address's order by creation time", () => {
    expect(mergeOrder(list, watched("w-mid", 200)).map(orderKey)).toEqual([
      "local:5",
      "local:3",
      "order:w-new",
      "order:w-mid",
      "order:w-old",
    ]);
    expect(mergeOrder(list, watched("w-first", 0)).map(orderKey).at(-1)).toBe("order:w-first");
    expect(mergeOrder([own(1)], watched("w", 9)).map(orderKey)).toEqual(["local:1", "order:w"]);
  });

  it("leaves the app's own row to the app when a watched address lists the same order", () => {
    const mine = own(3);
    const next = mergeOrder(list, watched(mine.orderId as string, 999, { statusText: "Other" }));
    expect(next).toEqual(list);
  });

  it("turns a watched row into the app's own when the app's update names it", () => {
    const next = mergeOrder(list, own(7, { orderId: "w-old" }));
    expect(next.map(orderKey)).toEqual(["local:7", "local:5", "local:3", "order:w-new"]);
  });

  it("ignores an update that names no order", () => {
    expect(mergeOrder(list, watched("x", 1, { orderId: undefined }))).toEqual(list);
  });
});

describe("words", () => {
  it("writes amounts with their USD value, never rounded", () => {
    expect(usdText("96.125")).toBe("$96.125");
    expect(usdText("-2.30")).toBe("-$2.30");
    expect(amountText(amount("0.0025 BTC", "96.12"))).toBe("0.0025 BTC ($96.12)");
    expect(amountText(amount("0.0025 BTC"))).toBe("0.0025 BTC");
    expect(amountText(amount("0.0025 BTC", ""))).toBe("0.0025 BTC");
  });

  it("names the route and shortens ids", () => {
    expect(orderRouteText(own(1))).toBe("Onramp: BTC on bitcoin → USDC on base");
    expect(shortenMiddle("0123456789abcdef0123456789")).toBe("01234567…456789");
    expect(shortenMiddle("short-id")).toBe("short-id");
  });

  it("marks the latest timeline entry as the current step", () => {
    expect(currentStepIndex(own(1))).toBe(1);
    expect(currentStepIndex(own(1, { timeline: [] }))).toBe(-1);
  });

  it("says quietly that the gateway could not be reached", () => {
    expect(readFailedText("The gateway did not answer within 30 s.", 20)).toBe(
      "Could not reach the gateway: The gateway did not answer within 30 s; retrying in 20 s",
    );
  });
});
