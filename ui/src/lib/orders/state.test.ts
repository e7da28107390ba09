import { afterEach, describe, expect, it, vi } from "vitest";
import type { DeskEvent } from "../bindings/DeskEvent";
import type { OrderView } from "../bindings/OrderView";
import type { DeskApi } from "../ipc";
import { stubApi } from "../testing";
import { own, watched } from "./fixtures";
import { orderKey } from "./model";
import { OrdersState, type Subscribe } from "./state.svelte";

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  let reject: (reason: unknown) => void = () => {};
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function setup(overrides: Partial<DeskApi> = {}, list: OrderView[] = [own(2), own(1), watched("w", 10)]) {
  let emit: (event: DeskEvent) => void = () => {};
  const unsubscribe = vi.fn();
  const subscribe: Subscribe = vi.fn(async (handler) => {
    emit = handler;
    return unsubscribe;
  });
  const api = stubApi({ listOrders: vi.fn(async () => list), ...overrides });
  const state = new OrdersState(api, { subscribe, readFailedGraceMs: 1000 });
  return { state, api, subscribe, unsubscribe, emit: (e: DeskEvent) => emit(e) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("OrdersState", () => {
  it("lists the orders and pages them", async () => {
    const many = Array.from({ length: 45 }, (_, i) => own(45 - i));
    const { state } = setup({}, many);
    await state.show("sandbox");
    expect(state.list).toHaveLength(45);
    expect(state.current).toMatchObject({ page: 1, pageCount: 3 });
    state.setPage(3);
    expect(state.current.items.map(orderKey)).toEqual(["local:5", "local:4", "local:3", "local:2", "local:1"]);
    state.setPage(7);
    expect(state.current.page).toBe(3);
    state.setFilter("finished");
    expect(state.page).toBe(1);
    expect(state.filtered).toEqual([]);
  });

  it("keeps the list and says why when it cannot be read", async () => {
    const { state, api } = setup();
    await state.show("sandbox");
    vi.mocked(api.listOrders).mockRejectedValueOnce({ kind: "journal", message: "The journal is locked. Restart." });
    await state.load();
    expect(state.error?.message).toBe("The journal is locked. Restart.");
    expect(state.list).toHaveLength(3);
    await state.load();
    expect(state.error).toBeNull();
  });

  it("forgets the previous network's orders on a network change", async () => {
    const { state, api } = setup();
    await state.show("sandbox");
    const answer = deferred<OrderView[]>();
    vi.mocked(api.listOrders).mockReturnValueOnce(answer.promise);
    const shown = state.show("production");
    expect(state.list).toBeNull();
    expect(state.loading).toBe(true);
    answer.resolve([]);
    await shown;
    expect(state.list).toEqual([]);
    expect(state.loading).toBe(false);
  });

  it("merges updates, also those that arrive while the list is read", async () => {
    const { state, api, emit } = setup();
    await state.connect();
    await state.show("sandbox");
    emit({ type: "orderChanged", order: own(1, { statusText: "Completed", status: "success" }) });
    expect(state.list?.[1].statusText).toBe("Completed");

    const answer = deferred<OrderView[]>();
    vi.mocked(api.listOrders).mockReturnValueOnce(answer.promise);
    const loading = state.load();
    emit({ type: "orderChanged", order: own(3) });
    answer.resolve([own(2), own(1)]);
    await loading;
    expect(state.list?.map(orderKey)).toEqual(["local:3", "local:2", "local:1"]);
  });

  it("counts the order changes reported, also before the list was read", async () => {
    const { state, emit } = setup();
    await state.connect();
    expect(state.revision).toBe(0);
    emit({ type: "orderChanged", order: own(7) });
    expect(state.list).toBeNull();
    expect(state.revision).toBe(1);
    emit({ type: "readFailed", message: "Timed out.", retryInSecs: 4 });
    expect(state.revision).toBe(1);
    emit({ type: "orderChanged", order: own(7, { status: "success" }) });
    expect(state.revision).toBe(2);
    state.disconnect();
  });

  it("keeps each own order's latest report before the list was read, and forgets them on a network change", async () => {
    const { state, emit } = setup();
    await state.connect();
    emit({ type: "orderChanged", order: own(7) });
    emit({ type: "orderChanged", order: own(7, { statusText: "Completed", status: "success" }) });
    expect(state.list).toBeNull();
    expect(state.latest(7)?.statusText).toBe("Completed");
    expect(state.latest(8)).toBeUndefined();
    await state.show("sandbox");
    expect(state.latest(7)).toBeUndefined();
    await state.show("sandbox");
    emit({ type: "orderChanged", order: own(7, { statusText: "Refunded" }) });
    expect(state.latest(7)?.statusText).toBe("Refunded");
    state.disconnect();
  });

  it("subscribes once and can stop", async () => {
    const { state, subscribe, unsubscribe } = setup();
    await state.connect();
    await state.connect();
    expect(subscribe).toHaveBeenCalledTimes(1);
    state.disconnect();
    await Promise.resolve();
    expect(unsubscribe).toHaveBeenCalledTimes(1);
  });

  it("shows a failed read quietly until an order changes or the retry is long past", async () => {
    vi.useFakeTimers();
    const { state, emit } = setup();
    await state.connect();
    await state.show("sandbox");
    emit({ type: "readFailed", message: "Timed out.", retryInSecs: 4 });
    expect(state.readFailed).toEqual({ message: "Timed out.", retryInSecs: 4 });
    expect(state.error).toBeNull();
    emit({ type: "orderChanged", order: own(2) });
    expect(state.readFailed).toBeNull();

    emit({ type: "readFailed", message: "Timed out.", retryInSecs: 4 });
    vi.advanceTimersByTime(4999);
    expect(state.readFailed).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(state.readFailed).toBeNull();
  });

  it("continues and discards orders, showing each running and each failure", async () => {
    const resumed = deferred<OrderView>();
    const { state, api } = setup({
      resumeOrder: vi.fn(() => resumed.promise),
      discardOrder: vi.fn(async () => Promise.reject({ kind: "journal", message: "Could not write. Try again." })),
    });
    await state.show("sandbox");
    const running = state.resume(2);
    expect(state.busy[2]).toBe(true);
    void state.resume(2);
    expect(api.resumeOrder).toHaveBeenCalledTimes(1);
    resumed.resolve(own(2, { statusText: "Registered; waiting for the gateway" }));
    await running;
    expect(state.busy[2]).toBeUndefined();
    expect(state.list?.[0].statusText).toBe("Registered; waiting for the gateway");

    await state.discard(1);
    expect(api.discardOrder).toHaveBeenCalledWith(1);
    expect(state.actionErrors[1]?.message).toBe("Could not write. Try again.");
  });

  it("abandons and acknowledges orders through their commands, showing a refusal on the order", async () => {
    const refusal = {
      kind: "refused",
      message: "The app's wallet signed this order's payment (0xpay), so money may have moved: it cannot be abandoned.",
      details: { localId: 2 },
    };
    const { state, api } = setup({
      abandonOrder: vi.fn(async () => Promise.reject(refusal)),
      acknowledgeOrder: vi.fn(async (id: number) =>
        own(id, { stage: "finished", status: "failed", acknowledged: true }),
      ),
    });
    await state.show("sandbox");
    await state.abandon(2);
    expect(api.abandonOrder).toHaveBeenCalledWith(2);
    expect(state.actionErrors[2]).toEqual(refusal);
    await state.acknowledge(1);
    expect(api.acknowledgeOrder).toHaveBeenCalledWith(1);
    expect(state.list?.find((o) => o.localId === 1)?.acknowledged).toBe(true);
    expect(state.busy).toEqual({});
  });

  it("refreshes by asking for reads, then listing again", async () => {
    const refreshed = deferred<void>();
    const { state, api } = setup({ refreshOrders: vi.fn(() => refreshed.promise) });
    await state.show("sandbox");
    const running = state.refresh();
    expect(state.refreshing).toBe(true);
    refreshed.resolve();
    await running;
    expect(state.refreshing).toBe(false);
    expect(api.listOrders).toHaveBeenCalledTimes(2);
  });
});
