import { describe, expect, it } from "vitest";
import {
  PAGE_SIZE,
  amountText,
  currentStepIndex,
  filterOrders,
  isOrderFilter,
  mergeOrder,
  needsAttention,
  orderCount,
  orderKey,
  orderRouteText,
  pageLabel,
  paginate,
  readFailedText,
  usdText,
} from "./model";
import { amount, own, watched } from "./fixtures";

// Which orders are finished, what each asks of the person, the abandon question and the outcome of a failed or
// refunded order are read by desk-core (tested in crates/desk-core/src/views/outcome.rs); the list only uses them.

describe("filtering", () => {
  it("filters all, unfinished and finished by desk-core's word, keeping the order", () => {
    const list = [
      own(3, { stage: "finished", status: "success", finished: true }),
      own(2),
      watched("w", 5, { status: "failed", finished: true }),
    ];
    expect(filterOrders(list, "all")).toEqual(list);
    expect(filterOrders(list, "unfinished").map(orderKey)).toEqual(["local:2"]);
    expect(filterOrders(list, "finished").map(orderKey)).toEqual(["local:3", "order:w"]);
    expect(isOrderFilter("finished")).toBe(true);
    expect(isOrderFilter("done")).toBe(false);
  });

  it("lists the orders desk-core names an action for as needing attention", () => {
    expect(needsAttention(own(1))).toBe(false);
    expect(needsAttention(own(1, { attention: "goSign" }))).toBe(true);
    expect(needsAttention(own(1, { attention: "acknowledge" }))).toBe(true);
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

  it("names the route", () => {
    expect(orderRouteText(own(1))).toBe("Onramp: BTC on bitcoin → USDC on base");
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
