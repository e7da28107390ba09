// The wallet store's balance beside the swap form: only the newest read counts.
import { describe, expect, it } from "vitest";
import type { WalletBalance } from "../bindings/WalletBalance";
import type { WalletView } from "../bindings/WalletView";
import { stubApi } from "../testing";
import { WalletStore } from "./state.svelte";

const UNLOCKED = { state: "unlocked", idleLockSecs: 300, accounts: {} } as unknown as WalletView;

function balance(symbol: string, units: string): WalletBalance {
  return { units, maxUnits: units, symbol, source: `on ${symbol}'s chain` } as unknown as WalletBalance;
}

describe("the balance of the form's source token", () => {
  it("drops an earlier token's balance that arrives after the newer one", async () => {
    const answers: Record<string, (b: WalletBalance) => void> = {};
    const api = stubApi({
      walletStatus: async () => UNLOCKED,
      walletBalance: (chain: string) => new Promise<WalletBalance>((resolve) => (answers[chain] = resolve)),
    });
    const store = new WalletStore(api);
    await store.load();
    const first = store.loadBalance("bob", "0xwbtc");
    const second = store.loadBalance("solana", "usdc");
    answers.solana(balance("USDC", "10000"));
    await second;
    answers.bob(balance("WBTC", "1"));
    await first;
    expect(store.balance?.symbol).toBe("USDC");
    expect(store.balance?.maxUnits).toBe("10000");
  });

  it("drops an earlier read's failure too", async () => {
    const answers: Record<string, { ok: (b: WalletBalance) => void; fail: (e: unknown) => void }> = {};
    const api = stubApi({
      walletStatus: async () => UNLOCKED,
      walletBalance: (chain: string) => new Promise<WalletBalance>((ok, fail) => (answers[chain] = { ok, fail })),
    });
    const store = new WalletStore(api);
    await store.load();
    const first = store.loadBalance("bob", "0xwbtc");
    const second = store.loadBalance("tron", "usdt");
    answers.tron.ok(balance("USDT", "10000"));
    await second;
    answers.bob.fail({ kind: "transport", message: "Nothing answers at the BOB node." });
    await first;
    expect(store.balance?.symbol).toBe("USDT");
    expect(store.balanceError).toBeNull();
  });
});
