import { afterEach, describe, expect, it, vi } from "vitest";
import type { Dashboard } from "../bindings/Dashboard";
import type { DeskApi } from "../ipc";
import { stubApi } from "../testing";
import { dashboard, emptyDashboard } from "./fixtures";
import { PartnerState } from "./state.svelte";

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

function setup(overrides: Partial<DeskApi> = {}) {
  const api = stubApi({ partnerDashboard: vi.fn(async () => dashboard()), ...overrides });
  return { api, state: new PartnerState(api, { reloadDelayMs: 500 }) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("PartnerState", () => {
  it("reads the dashboard for the period and route chosen", async () => {
    const { api, state } = setup();
    await state.show("sandbox");
    expect(api.partnerDashboard).toHaveBeenLastCalledWith({ period: "day" });
    expect(state.dashboard?.orders).toBe(7);
    await state.setPeriod("month");
    expect(api.partnerDashboard).toHaveBeenLastCalledWith({ period: "month" });
    await state.setRoute("tokenSwap");
    expect(api.partnerDashboard).toHaveBeenLastCalledWith({ period: "month", route: "tokenSwap" });
    await state.setRoute("tokenSwap");
    expect(api.partnerDashboard).toHaveBeenCalledTimes(3);
    await state.setRoute("all");
    expect(api.partnerDashboard).toHaveBeenLastCalledWith({ period: "month" });
  });

  it("shows only the latest answer when choices change quickly", async () => {
    const first = deferred<Dashboard>();
    const { api, state } = setup();
    await state.show("sandbox");
    vi.mocked(api.partnerDashboard)
      .mockReturnValueOnce(first.promise)
      .mockResolvedValueOnce(dashboard({ period: "month", orders: 9 }));
    const slow = state.setPeriod("week");
    const fast = state.setPeriod("month");
    await fast;
    expect(state.dashboard).toMatchObject({ period: "month", orders: 9 });
    expect(state.loading).toBe(false);
    first.resolve(emptyDashboard({ period: "week" }));
    await slow;
    expect(state.dashboard).toMatchObject({ period: "month", orders: 9 });
  });

  it("keeps the dashboard and says why when it cannot be read, and forgets it on a network change", async () => {
    const { api, state } = setup();
    await state.show("sandbox");
    vi.mocked(api.partnerDashboard).mockRejectedValueOnce({
      kind: "journal",
      message: "The journal is locked. Restart.",
    });
    await state.load();
    expect(state.error?.message).toBe("The journal is locked. Restart.");
    expect(state.dashboard?.orders).toBe(7);
    const answer = deferred<Dashboard>();
    vi.mocked(api.partnerDashboard).mockReturnValueOnce(answer.promise);
    const shown = state.show("production");
    expect(state.dashboard).toBeNull();
    expect(state.error).toBeNull();
    answer.resolve(emptyDashboard());
    await shown;
    expect(state.dashboard?.orders).toBe(0);
  });

  it("reads again once after a burst of order changes", async () => {
    vi.useFakeTimers();
    const { api, state } = setup();
    state.ordersChanged(); // before the view was ever shown: nothing to refresh
    await state.show("sandbox");
    expect(api.partnerDashboard).toHaveBeenCalledTimes(1);
    state.ordersChanged();
    state.ordersChanged();
    state.ordersChanged();
    await vi.advanceTimersByTimeAsync(499);
    expect(api.partnerDashboard).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(api.partnerDashboard).toHaveBeenCalledTimes(2);
    state.ordersChanged();
    state.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(api.partnerDashboard).toHaveBeenCalledTimes(2);
  });

  it("exports the rows as CSV: the path, a cancelled dialog, or the reason", async () => {
    const { api, state } = setup({ saveDashboardCsv: vi.fn(async () => "/home/me/partner.csv") });
    await state.show("sandbox");
    await state.setPeriod("week");
    await state.exportCsv();
    expect(api.saveDashboardCsv).toHaveBeenCalledWith({ period: "week" });
    expect(state.csvPath).toBe("/home/me/partner.csv");
    vi.mocked(api.saveDashboardCsv).mockResolvedValueOnce(null);
    await state.exportCsv();
    expect(state.csvCancelled).toBe(true);
    vi.mocked(api.saveDashboardCsv).mockRejectedValueOnce({ kind: "journal", message: "Disk full. Free space." });
    await state.exportCsv();
    expect(state.exportError?.message).toBe("Disk full. Free space.");
    expect(state.exporting).toBe(false);
  });
});
