// @vitest-environment happy-dom
// The Orders view with a stand-in for the Rust side: rows, the "Needs your attention" section and its actions,
// updates arriving as events, paging, filtering, the quiet failed-read line and the watched addresses.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, tick, unmount } from "svelte";
import type { DeskEvent } from "../bindings/DeskEvent";
import type { OrderView } from "../bindings/OrderView";
import type { SettingsView } from "../bindings/SettingsView";
import type { DeskApi } from "../ipc";
import { RECEIPTS, own, watched } from "../orders/fixtures";
import { OrdersState } from "../orders/state.svelte";
import { desk } from "../stores.svelte";
import { stubApi, chainFacts } from "../testing";
import OrdersView from "./OrdersView.svelte";

function settings(watchedAddresses: string[] = []): SettingsView {
  return {
    network: {
      kind: "sandbox",
      label: "Sandbox",
      baseUrl: "http://127.0.0.1:9999",
      apiVersion: "v3",
      ...chainFacts("sandbox"),
    },
    customUrl: null,
    settingsPath: "/tmp/settings.json",
    keychainAvailable: true,
    watched: watchedAddresses,
    theme: "system",
    notices: [],
    affiliates: [],
  };
}

const byId = (id: string, root: ParentNode = document) => root.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const allById = (id: string, root: ParentNode = document) => [
  ...root.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`),
];
const text = (el: Element | null | undefined) => el?.textContent?.replace(/\s+/g, " ").trim();

async function settle() {
  for (let i = 0; i < 5; i++) {
    await Promise.resolve();
    await tick();
  }
  flushSync();
}

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

const ATTENTION: OrderView[] = [
  own(4, {
    stage: "createUnknown",
    status: undefined,
    statusText: "Creating the order",
    nextStep: { step: "confirmCreation", sentence: "Check whether the gateway created it." },
    attention: "continue",
  }),
  own(3, {
    stage: "verified",
    status: undefined,
    statusText: "Waiting for your signature",
    nextStep: { step: "signAndHandIn", sentence: "Sign the transaction the gateway prepared." },
    attention: "goSign",
  }),
  own(2, {
    stage: "refused",
    status: undefined,
    statusText: "Refused: the gateway's transaction did not match the quote",
    nextStep: undefined,
    attention: "discard",
  }),
];

let app: Record<string, unknown> | null = null;
let emit: (event: DeskEvent) => void = () => {};

function start(api: DeskApi) {
  const store = new OrdersState(api, {
    subscribe: async (handler) => {
      emit = handler;
      return () => {};
    },
  });
  app = mount(OrdersView, { target: document.getElementById("app")!, props: { store } });
  return store;
}

beforeEach(() => {
  document.body.innerHTML = '<div id="app"></div>';
  desk.settings = settings(["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"]);
  desk.activeView = "orders";
  emit = () => {};
});

afterEach(() => {
  if (app) unmount(app);
  app = null;
});

describe("the Orders view", () => {
  it("lists the orders with their facts and puts the app's unfinished ones first", async () => {
    const list = [...ATTENTION, own(1, { statusText: "Registered; waiting for the gateway" }), watched("gw-77", 50)];
    start(stubApi({ listOrders: vi.fn(async () => list) }));
    await settle();

    const rows = allById("order-row");
    expect(rows).toHaveLength(5);
    expect(rows.map((r) => r.dataset.localId)).toEqual(["4", "3", "2", "1", undefined]);
    expect(rows[4].dataset.orderId).toBe("gw-77");
    expect(text(byId("order-status", rows[3]))).toBe("Registered; waiting for the gateway");
    expect(text(rows[3])).toContain("Onramp: BTC on bitcoin → USDC on base");
    expect(text(rows[3])).toContain("0.0025 BTC ($96.12)");
    expect(text(rows[3])).toContain("95.1 USDC ($95.10)");
    expect(text(rows[4])).toContain("Watched address");
    expect(byId("order-copy-id", rows[3])?.getAttribute("aria-label")).toBe(`Copy order id ${list[3].orderId}`);
    expect(text(byId("orders-count"))).toBe("5 orders");

    const section = byId("attention-section")!;
    expect(section.querySelector("h2")?.textContent).toBe("Needs your attention");
    const attention = allById("attention-row");
    expect(attention.map((r) => r.dataset.localId)).toEqual(["4", "3", "2"]);
    expect(text(attention[0])).toContain("Check whether the gateway created it.");
    expect(byId("attention-continue", attention[0])).not.toBeNull();
    expect(byId("attention-go-sign", attention[1])).not.toBeNull();
    expect(byId("attention-discard", attention[2])).not.toBeNull();
    expect(byId("attention-continue", attention[1])).toBeNull();
  });

  it("has no attention section when nothing needs the person", async () => {
    start(stubApi({ listOrders: vi.fn(async () => [own(1)]) }));
    await settle();
    expect(byId("attention-section")).toBeNull();
    expect(allById("order-row")).toHaveLength(1);
  });

  it("continues, discards and goes to signing", async () => {
    const resumed = deferred<OrderView>();
    const api = stubApi({
      listOrders: vi.fn(async () => ATTENTION),
      resumeOrder: vi.fn(() => resumed.promise),
      discardOrder: vi.fn(async (id: number) =>
        own(id, { stage: "abandoned", nextStep: undefined, statusText: "Given up", finished: true }),
      ),
    });
    const store = start(api);
    await settle();

    (byId("attention-continue") as HTMLButtonElement).click();
    flushSync();
    expect(api.resumeOrder).toHaveBeenCalledWith(4);
    const row = allById("attention-row")[0];
    expect(row.getAttribute("aria-busy")).toBe("true");
    expect(text(row)).toContain("Loading…");
    expect((byId("attention-continue") as HTMLButtonElement).disabled).toBe(true);
    resumed.resolve(own(4, { stage: "registered", statusText: "Registered; waiting for the gateway" }));
    await settle();
    expect(allById("attention-row").map((r) => r.dataset.localId)).toEqual(["3", "2"]);
    expect(text(byId("order-status", allById("order-row")[0]))).toBe("Registered; waiting for the gateway");

    (byId("attention-discard") as HTMLButtonElement).click();
    await settle();
    expect(api.discardOrder).toHaveBeenCalledWith(2);
    expect(allById("attention-row").map((r) => r.dataset.localId)).toEqual(["3"]);

    (byId("attention-go-sign") as HTMLButtonElement).click();
    flushSync();
    expect(desk.activeView).toBe("swap");
    expect(store.signingLocalId).toBe(3);
  });

  it("abandons an unfinished order only after the person confirms, and keeps it when they do not", async () => {
    const verified = own(3, {
      stage: "verified",
      status: undefined,
      statusText: "Waiting for your signature",
      nextStep: { step: "signAndHandIn", sentence: "Sign the transaction the gateway prepared." },
      canAbandon: true,
      attention: "goSign",
      abandonQuestion: "Abandon this order? The gateway's order will expire unpaid; nothing is sent to the gateway.",
    });
    const reason =
      "Abandoned by you: nothing was paid, and the gateway's order order-3-3f2a9c1077e1a0b2 will expire unpaid.";
    const api = stubApi({
      listOrders: vi.fn(async () => [verified, own(1)]),
      abandonOrder: vi.fn(async (id: number) =>
        own(id, {
          stage: "abandoned",
          nextStep: undefined,
          status: undefined,
          statusText: "Given up",
          lastError: reason,
          finished: true,
        }),
      ),
    });
    start(api);
    await settle();
    // Only the order that may be abandoned offers it.
    expect(allById("attention-abandon")).toHaveLength(1);
    expect(byId("attention-abandon-question")).toBeNull();

    (byId("attention-abandon") as HTMLButtonElement).click();
    flushSync();
    const question = byId("attention-abandon-question")!;
    expect(text(question)).toBe(
      "Abandon this order? The gateway's order will expire unpaid; nothing is sent to the gateway. Abandon Keep it",
    );
    expect(api.abandonOrder).not.toHaveBeenCalled();
    (byId("attention-abandon-keep") as HTMLButtonElement).click();
    flushSync();
    expect(byId("attention-abandon-question")).toBeNull();
    expect(api.abandonOrder).not.toHaveBeenCalled();

    (byId("attention-abandon") as HTMLButtonElement).click();
    flushSync();
    (byId("attention-abandon-confirm") as HTMLButtonElement).click();
    await settle();
    expect(api.abandonOrder).toHaveBeenCalledTimes(1);
    expect(api.abandonOrder).toHaveBeenCalledWith(3);
    expect(byId("attention-section")).toBeNull();
    const row = allById("order-row").find((r) => r.dataset.localId === "3")!;
    expect(text(byId("order-status", row))).toBe("Given up");
    (byId("order-toggle", row) as HTMLButtonElement).click();
    flushSync();
    expect(text(byId("order-last-error", row))).toBe(`Why it was given up ${reason}`);
  });

  it("shows why abandoning was refused on the order's row", async () => {
    const message =
      "The app's wallet signed this order's payment (0xpay), so money may have moved: it cannot be abandoned. Choose Continue to finish and register it.";
    start(
      stubApi({
        listOrders: vi.fn(async () => [
          own(3, {
            stage: "verified",
            nextStep: { step: "signAndHandIn", sentence: "Sign." },
            canAbandon: true,
            attention: "goSign",
            abandonQuestion:
              "Abandon this order? The gateway's order will expire unpaid; nothing is sent to the gateway.",
          }),
        ]),
        abandonOrder: vi.fn(async () => Promise.reject({ kind: "refused", message, details: { localId: 3 } })),
      }),
    );
    await settle();
    (byId("attention-abandon") as HTMLButtonElement).click();
    flushSync();
    (byId("attention-abandon-confirm") as HTMLButtonElement).click();
    await settle();
    expect(text(byId("attention-error"))).toBe(message);
    expect(allById("attention-row")).toHaveLength(1);
  });

  it("explains a failed or refunded order and keeps it under attention until it is read", async () => {
    const refunded = own(5, {
      stage: "finished",
      nextStep: undefined,
      status: "refunded",
      statusText: "Refunded",
      acknowledged: false,
      refunded: [
        {
          amount: { ...own(5).send, text: "0.0025 BTC" },
          txHash: "3f2a9c1077e1a0b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a7b8c9d0",
        },
      ],
      refundAddress: "bcrt1qrefund",
      finished: true,
      attention: "acknowledge",
      outcome: {
        happened: "The gateway reports this order refunded: the swap did not happen and what was sent came back.",
        where:
          "The gateway returned 0.0025 BTC on bitcoin (transaction 3f2a…c9d0). The quote named bcrt1qrefund as the " +
          "Bitcoin refund address.",
        next:
          "Nothing more will happen to this order. Check that the refund arrived; if it did not, contact the " +
          "gateway's support with the order id order-5-3f2a9c1077e1a0b2.",
      },
    });
    const failed = own(4, {
      stage: "finished",
      nextStep: undefined,
      status: "failed",
      statusText: "Failed",
      acknowledged: false,
      sourceTx: { amount: own(4).send, txHash: "aa".repeat(32) },
      finished: true,
      attention: "acknowledge",
      outcome: {
        happened: "The gateway reports this order failed after 0.0025 BTC was sent (transaction aaaa…aaaa).",
        where: "The gateway has not reported a refund of the bitcoin yet.",
        next: `Contact the gateway's support about the refund with the order id order-4-3f2a9c1077e1a0b2 and the transaction ${"aa".repeat(32)}. Support → Look up an order shows what the gateway says about it now.`,
      },
    });
    const api = stubApi({
      listOrders: vi.fn(async () => [refunded, failed]),
      acknowledgeOrder: vi.fn(async (id: number) => ({
        ...(id === 5 ? refunded : failed),
        acknowledged: true,
        attention: null,
      })),
    });
    start(api);
    await settle();
    const rows = allById("attention-row");
    expect(rows.map((r) => r.dataset.localId)).toEqual(["5", "4"]);
    expect(text(byId("attention-outcome-happened", rows[0]))).toBe(
      "The gateway reports this order refunded: the swap did not happen and what was sent came back.",
    );
    expect(text(byId("attention-outcome-where", rows[0]))).toBe(
      "Where the money is: The gateway returned 0.0025 BTC on bitcoin (transaction 3f2a…c9d0). The quote named " +
        "bcrt1qrefund as the Bitcoin refund address.",
    );
    expect(text(byId("attention-outcome-next", rows[0]))).toContain(
      "What to do: Nothing more will happen to this order.",
    );
    expect(text(byId("attention-outcome-happened", rows[1]))).toBe(
      "The gateway reports this order failed after 0.0025 BTC was sent (transaction aaaa…aaaa).",
    );
    expect(text(byId("attention-outcome-next", rows[1]))).toContain("Contact the gateway's support about the refund");
    expect(byId("attention-abandon")).toBeNull();

    (byId("attention-acknowledge", rows[0]) as HTMLButtonElement).click();
    await settle();
    expect(api.acknowledgeOrder).toHaveBeenCalledWith(5);
    expect(allById("attention-row").map((r) => r.dataset.localId)).toEqual(["4"]);
    // Still listed, with its explanation in the details.
    const row = allById("order-row").find((r) => r.dataset.localId === "5")!;
    expect(text(byId("order-status", row))).toBe("Refunded");
    (byId("order-toggle", row) as HTMLButtonElement).click();
    flushSync();
    expect(text(byId("order-outcome-happened", row))).toContain("The gateway reports this order refunded");

    emit({ type: "orderChanged", order: { ...failed, acknowledged: true, attention: null } });
    flushSync();
    expect(byId("attention-section")).toBeNull();
    expect(allById("order-row")).toHaveLength(2);
  });

  it("shows an action's failure on its row", async () => {
    start(
      stubApi({
        listOrders: vi.fn(async () => ATTENTION),
        resumeOrder: vi.fn(async () => Promise.reject({ kind: "transport", message: "No answer. Try again." })),
      }),
    );
    await settle();
    (byId("attention-continue") as HTMLButtonElement).click();
    await settle();
    const error = byId("attention-error", allById("attention-row")[0]);
    expect(text(error)).toBe("No answer. Try again.");
    expect(error?.getAttribute("role")).toBe("alert");
  });

  it("updates a row's status when an order changes", async () => {
    start(stubApi({ listOrders: vi.fn(async () => [own(2), own(1), watched("gw-1", 5)]) }));
    await settle();
    emit({
      type: "orderChanged",
      order: own(1, { status: "success", statusText: "Completed", stage: "finished", finished: true }),
    });
    flushSync();
    expect(text(byId("order-status", allById("order-row")[1]))).toBe("Completed");

    emit({ type: "orderChanged", order: watched("gw-1", 5, { status: "refunded", statusText: "Refunded" }) });
    emit({ type: "orderChanged", order: watched("gw-2", 9) });
    flushSync();
    const rows = allById("order-row");
    expect(rows.map((r) => r.dataset.orderId)).toEqual([own(2).orderId, own(1).orderId, "gw-2", "gw-1"]);
    expect(text(byId("order-status", rows[3]))).toBe("Refunded");
  });

  it("pages twenty orders at a time", async () => {
    const many = Array.from({ length: 45 }, (_, i) => own(45 - i));
    start(stubApi({ listOrders: vi.fn(async () => many) }));
    await settle();
    const prev = byId("orders-page-prev") as HTMLButtonElement;
    const next = byId("orders-page-next") as HTMLButtonElement;
    expect(allById("order-row")).toHaveLength(20);
    expect(text(byId("orders-page-label"))).toBe("Page 1 of 3");
    expect(prev.disabled).toBe(true);
    next.click();
    flushSync();
    expect(text(byId("orders-page-label"))).toBe("Page 2 of 3");
    expect(allById("order-row")[0].dataset.localId).toBe("25");
    next.click();
    flushSync();
    expect(allById("order-row")).toHaveLength(5);
    expect(next.disabled).toBe(true);
    prev.click();
    flushSync();
    expect(text(byId("orders-page-label"))).toBe("Page 2 of 3");
  });

  it("filters finished and unfinished orders", async () => {
    start(
      stubApi({
        listOrders: vi.fn(async () => [
          own(2),
          own(1, { stage: "finished", status: "success", finished: true }),
          watched("w", 1, { status: "failed", finished: true }),
        ]),
      }),
    );
    await settle();
    const filter = byId("orders-filter") as HTMLSelectElement;
    expect(document.querySelector(`label[for="${filter.id}"]`)?.textContent).toBe("Show");
    filter.value = "finished";
    filter.dispatchEvent(new Event("change", { bubbles: true }));
    flushSync();
    expect(allById("order-row").map((r) => r.dataset.orderId)).toEqual([own(1).orderId, "w"]);
    filter.value = "unfinished";
    filter.dispatchEvent(new Event("change", { bubbles: true }));
    flushSync();
    expect(allById("order-row").map((r) => r.dataset.localId)).toEqual(["2"]);
  });

  it("shows a failed read as a quiet line, not as an error", async () => {
    start(stubApi({ listOrders: vi.fn(async () => [own(1)]) }));
    await settle();
    emit({ type: "readFailed", message: "The gateway did not answer.", retryInSecs: 30 });
    flushSync();
    const line = byId("orders-read-failed");
    expect(text(line)).toBe("Could not reach the gateway: The gateway did not answer; retrying in 30 s");
    expect(line?.getAttribute("role")).toBe("status");
    expect(byId("orders-error")).toBeNull();
    expect(text(byId("order-status"))).toBe("In progress");
    emit({ type: "orderChanged", order: own(1) });
    flushSync();
    expect(byId("orders-read-failed")).toBeNull();
  });

  it("shows that the list is being read, and the empty state", async () => {
    const answer = deferred<OrderView[]>();
    start(stubApi({ listOrders: vi.fn(() => answer.promise) }));
    await settle();
    expect(byId("orders-view")?.getAttribute("aria-busy")).toBe("true");
    expect(text(byId("orders-loading"))).toBe("Loading…");
    answer.resolve([]);
    await settle();
    expect(byId("orders-view")?.getAttribute("aria-busy")).toBe("false");
    expect(byId("orders-loading")).toBeNull();
    expect(text(byId("orders-empty"))).toMatch(/^No orders on this network yet\./);
    expect(byId("orders-page-label")).toBeNull();
  });

  it("refreshes: asks for reads, then lists again", async () => {
    const refreshed = deferred<void>();
    const api = stubApi({ listOrders: vi.fn(async () => [own(1)]), refreshOrders: vi.fn(() => refreshed.promise) });
    start(api);
    await settle();
    const button = byId("orders-refresh") as HTMLButtonElement;
    button.click();
    flushSync();
    expect(button.disabled).toBe(true);
    expect(button.getAttribute("aria-busy")).toBe("true");
    expect(byId("orders-loading")).not.toBeNull();
    refreshed.resolve();
    await settle();
    expect(api.listOrders).toHaveBeenCalledTimes(2);
    expect(button.disabled).toBe(false);
  });

  it("shows why the list cannot be read", async () => {
    start(
      stubApi({
        listOrders: vi.fn(async () =>
          Promise.reject({ kind: "journal", message: "The journal cannot be used. Restart the app." }),
        ),
      }),
    );
    await settle();
    expect(text(byId("orders-error"))).toBe("The journal cannot be used. Restart the app.");
    expect(byId("orders-error")?.getAttribute("role")).toBe("alert");
  });

  it("expands an order's details: timeline, transfers, links", async () => {
    const done = own(1, {
      stage: "finished",
      status: "success",
      statusText: "Completed",
      timeline: [
        { key: "created", text: "Order created", at: 1_700_000_000 },
        { key: "registered", text: "Transaction registered", at: 1_700_000_030 },
        { key: "success", text: "Completed", at: 1_700_000_600 },
      ],
      received: [
        {
          amount: { ...own(1).receive, text: "95.2 USDC", usd: "95.20" },
          txHash: "0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789",
          explorerUrl: "https://basescan.org/tx/0xabcdef",
        },
      ],
      refunded: [],
      depositAddress: "bc1qexampleaddress0000000000000000000000",
      lastError: "The first registration timed out.",
    });
    start(stubApi({ listOrders: vi.fn(async () => [done]) }));
    await settle();
    const toggle = byId("order-toggle") as HTMLButtonElement;
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(byId("order-timeline")).toBeNull();
    toggle.click();
    flushSync();
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    expect(document.getElementById(toggle.getAttribute("aria-controls")!)).not.toBeNull();

    const timeline = byId("order-timeline")!;
    expect(timeline.tagName).toBe("OL");
    const steps = [...timeline.querySelectorAll("li")];
    expect(steps).toHaveLength(3);
    expect(steps.map((s) => s.getAttribute("aria-current"))).toEqual([null, null, "step"]);
    expect(steps[0].querySelector("time")?.getAttribute("datetime")).toBe("2023-11-14T22:13:20.000Z");

    const received = byId("order-received")!;
    expect(text(received)).toContain("95.2 USDC ($95.20)");
    const link = received.querySelector("a")!;
    expect(link.getAttribute("href")).toBe("https://basescan.org/tx/0xabcdef");
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("rel")).toBe("noreferrer");
    expect(received.querySelector("button")?.getAttribute("aria-label")).toMatch(/^Copy transaction hash 0xabcdef/);
    expect(byId("order-refunded")).toBeNull();
    expect(text(byId("order-deposit-address"))).toContain("bc1qexampleaddress");
    expect(text(byId("order-last-error"))).toContain("The first registration timed out.");
  });

  it("shows an ended order's receipt in its details, in place of the separate transfers", async () => {
    const done = own(1, {
      stage: "finished",
      status: "success",
      statusText: "Completed",
      finished: true,
      received: [RECEIPTS.arrived.lines[0].transfer],
      receipt: RECEIPTS.arrived,
    });
    const refunded = own(5, {
      stage: "finished",
      status: "refunded",
      statusText: "Refunded",
      finished: true,
      acknowledged: true,
      refunded: [RECEIPTS.refunded.lines[0].transfer],
      outcome: RECEIPTS.refunded.explanation,
      receipt: RECEIPTS.refunded,
    });
    start(stubApi({ listOrders: vi.fn(async () => [refunded, done]) }));
    await settle();
    const rows = allById("order-row");
    for (const row of rows) (byId("order-toggle", row) as HTMLButtonElement).click();
    flushSync();
    const [refundRow, doneRow] = rows;

    const receipt = byId("receipt", doneRow)!;
    expect(text(byId("receipt-amount", receipt))).toBe("24.91 USDT on BOB ($24.91)");
    expect(byId("receipt-tx-link", receipt)?.getAttribute("href")).toContain("https://explorer.gobob.xyz/tx/0x");
    expect(text(byId("receipt-took", receipt))).toBe("Took 6 min 12 s, estimate 10 min");
    expect(doneRow.textContent).toContain("Receipt: Completed");
    expect(byId("order-received", doneRow)).toBeNull();

    // The refund's explanation is the one Orders gives, under its own test ids, once.
    const explanation = byId("receipt-explanation", refundRow)!;
    expect(text(byId("order-outcome-happened", explanation))).toBe(RECEIPTS.refunded.explanation.happened);
    expect(allById("order-outcome", refundRow)).toHaveLength(1);
    expect(text(byId("receipt-amount", refundRow))).toBe("0.0025 BTC on Bitcoin");
    expect(byId("order-refunded", refundRow)).toBeNull();
  });

  it("copies the order id", async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    start(stubApi({ listOrders: vi.fn(async () => [own(1)]) }));
    await settle();
    (byId("order-copy-id") as HTMLButtonElement).click();
    await settle();
    expect(writeText).toHaveBeenCalledWith(own(1).orderId);
    expect(text(byId("order-copy-id"))).toBe("Copied");
  });

  it("watches and unwatches addresses, and says why an address is refused", async () => {
    const address = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    const other = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
    const api = stubApi({
      listOrders: vi.fn(async () => []),
      watchAddress: vi.fn(async (a: string) =>
        a === "nope"
          ? Promise.reject({
              kind: "invalid_input",
              message: '"nope" is not an address. Check it.',
              details: { field: "address" },
            })
          : settings([address, a]),
      ),
      unwatchAddress: vi.fn(async () => settings([other])),
    });
    start(api);
    await settle();
    expect(allById("watched-item").map(text)).toEqual([`${address} Remove`]);

    const input = byId("watch-input") as HTMLInputElement;
    expect(document.querySelector(`label[for="${input.id}"]`)?.textContent).toBe("Address to watch");
    input.value = "nope";
    input.dispatchEvent(new Event("input", { bubbles: true }));
    (byId("watch-add") as HTMLButtonElement).click();
    await settle();
    expect(text(byId("watch-error"))).toBe('"nope" is not an address. Check it.');
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(input.value).toBe("nope");

    input.value = ` ${other} `;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    (byId("watch-add") as HTMLButtonElement).click();
    await settle();
    expect(api.watchAddress).toHaveBeenLastCalledWith(other);
    expect(byId("watch-error")).toBeNull();
    expect(input.value).toBe("");
    expect(allById("watched-item")).toHaveLength(2);
    expect(desk.settings?.watched).toEqual([address, other]);

    const remove = byId("watch-remove", allById("watched-item")[0]) as HTMLButtonElement;
    expect(remove.getAttribute("aria-label")).toBe(`Stop watching ${address}`);
    remove.click();
    await settle();
    expect(api.unwatchAddress).toHaveBeenCalledWith(address);
    expect(allById("watched-item").map(text)).toEqual([`${other} Remove`]);
    // The list is read again, so the orders of an address no longer watched go away.
    expect(api.listOrders).toHaveBeenCalledTimes(3);
  });
});
