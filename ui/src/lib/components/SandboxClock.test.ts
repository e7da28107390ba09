// @vitest-environment happy-dom
// The Sandbox's clock control below the views: shown on the Sandbox only; "+10 minutes" moves the clock on by 600 s and
// "Finish pending orders now" asks desk-core to finish the paid orders under way; what happened is desk-core's
// sentence; a refusal is shown beside the control, and the buttons wait while a move is under way.
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { NetworkKind } from "../bindings/NetworkKind";
import type { SandboxClockView } from "../bindings/SandboxClockView";
import { desk } from "../stores.svelte";
import { WalletStore } from "../wallet/state.svelte";
import { byId, chainFacts, click, mountedPerTest, settle, stubApi, text } from "../testing";
import SandboxClock from "./SandboxClock.svelte";

const { show } = mountedPerTest();

function on(kind: NetworkKind) {
  desk.settings = {
    network: {
      kind,
      label: kind === "sandbox" ? "Sandbox" : "Production",
      baseUrl: "http://127.0.0.1:1",
      apiVersion: "v3",
      ...chainFacts(kind),
    },
    customUrl: null,
    settingsPath: "/s",
    journalPath: "/j",
    keychainAvailable: true,
    watched: [],
    theme: "system",
    notices: [],
    affiliates: [],
  };
}

function moved(status: string, extra: Partial<SandboxClockView> = {}): SandboxClockView {
  return {
    advancedSecs: 600,
    pending: 0,
    finishInSecs: 0,
    movedSecs: 600,
    finished: 2,
    expired: 0,
    delivered: 2,
    undelivered: 0,
    status,
    ...extra,
  };
}

beforeEach(() => on("sandbox"));

describe("SandboxClock", () => {
  it("is shown on the Sandbox only", async () => {
    show(SandboxClock, { api: stubApi() });
    expect(byId("sandbox-clock")).not.toBeNull();
    expect(text("sandbox-clock-plus10")).toBe("+10 minutes");
    expect(text("sandbox-clock-finish")).toBe("Finish pending orders now");
    expect(text("sandbox-clock-status")).toBe("");
    on("production");
    await settle();
    expect(byId("sandbox-clock")).toBeNull();
  });

  it("moves the clock on by ten minutes and says what happened", async () => {
    const said =
      "Moved the Sandbox's clock on by 10 min; 2 orders finished. 2 payments arrived on the Sandbox's chains.";
    const sandboxAdvance = vi.fn(async () => moved(said));
    show(SandboxClock, { api: stubApi({ sandboxAdvance }) });
    await click("sandbox-clock-plus10");
    expect(sandboxAdvance).toHaveBeenCalledWith(600);
    expect(text("sandbox-clock-status")).toBe(said);
    expect(byId("sandbox-clock-error")).toBeNull();
  });

  it("reads the wallet's shown balance again after a move", async () => {
    const walletBalance = vi
      .fn()
      .mockResolvedValueOnce({ units: "1", maxUnits: "1", symbol: "WBTC", source: "the chain" })
      .mockResolvedValueOnce({ units: "1.0024", maxUnits: "1.0024", symbol: "WBTC", source: "the chain" });
    const api = stubApi({
      walletBalance,
      sandboxAdvance: async () => moved("Moved the Sandbox's clock on by 10 min; 1 order finished."),
    });
    const wallet = new WalletStore(api);
    wallet.view = { state: "unlocked", idleLockSecs: 300, locksInSecs: 300, accounts: {} };
    await wallet.loadBalance("bob", "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c");
    expect(wallet.balance?.units).toBe("1");
    show(SandboxClock, { api, wallet });
    await click("sandbox-clock-plus10");
    expect(walletBalance).toHaveBeenLastCalledWith("bob", "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c");
    expect(wallet.balance?.units).toBe("1.0024");
  });

  it("finishes the paid orders under way, and waits while it does", async () => {
    let answer!: (view: SandboxClockView) => void;
    const sandboxFinishPending = vi.fn(
      () =>
        new Promise<SandboxClockView>((resolve) => {
          answer = resolve;
        }),
    );
    const sandboxAdvance = vi.fn();
    show(SandboxClock, { api: stubApi({ sandboxFinishPending, sandboxAdvance }) });
    await click("sandbox-clock-finish");
    expect(sandboxFinishPending).toHaveBeenCalledTimes(1);
    expect(byId<HTMLButtonElement>("sandbox-clock-finish")!.disabled).toBe(true);
    expect(byId<HTMLButtonElement>("sandbox-clock-plus10")!.disabled).toBe(true);
    expect(text("sandbox-clock-status")).toBe("Finishing the Sandbox's paid orders…");
    answer(moved("Moved the Sandbox's clock on by 29 min 50 s; 1 order finished.", { movedSecs: 1_790, finished: 1 }));
    await settle();
    expect(text("sandbox-clock-status")).toBe("Moved the Sandbox's clock on by 29 min 50 s; 1 order finished.");
    expect(byId<HTMLButtonElement>("sandbox-clock-finish")!.disabled).toBe(false);
    expect(sandboxAdvance).not.toHaveBeenCalled();
  });

  it("shows a refusal beside the control and can be used again", async () => {
    const sandboxAdvance = vi
      .fn()
      .mockRejectedValueOnce({
        kind: "sandbox",
        message: "Only the Sandbox's clock can be moved on, and the app is on Production.",
      })
      .mockResolvedValueOnce(moved("Moved the Sandbox's clock on by 10 min; no order finished."));
    show(SandboxClock, { api: stubApi({ sandboxAdvance }) });
    await click("sandbox-clock-plus10");
    expect(text("sandbox-clock-error")).toBe("Only the Sandbox's clock can be moved on, and the app is on Production.");
    expect(text("sandbox-clock-status")).toBe("");
    await click("sandbox-clock-plus10");
    expect(byId("sandbox-clock-error")).toBeNull();
    expect(text("sandbox-clock-status")).toBe("Moved the Sandbox's clock on by 10 min; no order finished.");
  });
});
