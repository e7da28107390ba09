// @vitest-environment happy-dom
// Signing an onramp with the app's wallet: the one confirmation in words and numbers, the unlock on the spot, a PSBT
// of another wallet told apart, and the accepted high fee passed to desk-core.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { OrderView } from "../../bindings/OrderView";
import type { WalletView as View } from "../../bindings/WalletView";
import type { DepositToPay } from "../../bindings/DepositToPay";
import { SwapState } from "../../swap/state.svelte";
import { WalletStore } from "../../wallet/state.svelte";
import { byId, click, settle, stubApi, text, type } from "../../testing";
import WalletSign from "./WalletSign.svelte";

const OURS = "bcrt1qours";
const ACCOUNTS = {
  bitcoin: { address: OURS, path: "m/84'/1'/0'/0/0" },
  evm: { address: "0x9858EfFD232B4033E47d90003D41EC34EcaEda94", path: "m/44'/60'/0'/0/0" },
  tron: { address: "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH", path: "m/44'/195'/0'/0/0" },
  solana: { address: "HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk", path: "m/44'/501'/0'/0'" },
};
const UNLOCKED: View = { state: "unlocked", idleLockSecs: 300, accounts: ACCOUNTS };

function deposit(spender: string, feeNeedsConfirmation = false): DepositToPay {
  return {
    orderId: "ord-1",
    address: "bcrt1qgateway",
    amountSats: "250000",
    opReturnHex: "6a20aa",
    psbtHex: "70736274ff",
    feeText: "0.000018 BTC",
    feeUsd: null,
    sentence: null,
    psbt: {
      unsignedTxid: "00",
      inputs: [{ outpoint: "aa:0", valueSats: "1000000", address: spender }],
      outputs: [],
      feeSats: "1800",
      vsizeEstimate: 150,
      feeShareBps: feeNeedsConfirmation ? 720 : 72,
      feeSharePercent: feeNeedsConfirmation ? "7.20" : "0.72",
      feeNeedsConfirmation,
    },
  };
}

let app: Record<string, unknown> | null = null;

async function start(walletView: View, dep: DepositToPay, overrides = {}) {
  const walletStep = vi.fn(async () => ({ localId: 1, stage: "registered" }) as unknown as OrderView);
  const api = stubApi({ walletStatus: async () => walletView, walletStep, ...overrides });
  const flow = new SwapState(api);
  flow.order = { localId: 1, stage: "verified", route: "onramp" } as unknown as OrderView;
  const store = new WalletStore(api);
  store.connect(async () => () => {});
  app = mount(WalletSign, { target: document.getElementById("app")!, props: { flow, deposit: dep, store } });
  await settle();
  return { flow, walletStep };
}

beforeEach(() => {
  document.body.innerHTML = '<div id="app"></div>';
});

afterEach(() => {
  if (app) unmount(app);
  app = null;
});

describe("signing with the app's wallet", () => {
  it("says what the signature does, then asks desk-core to sign the order", async () => {
    const { walletStep } = await start(UNLOCKED, deposit(OURS));
    expect(text("wallet-sign-sentence")).toBe(
      "Send 0.0025 BTC from your wallet bcrt1qours to the gateway's address bcrt1qgateway for order ord-1, network fee 0.000018 BTC, with the order's OP_RETURN data. Change comes back to the same address.",
    );
    // The summary: what leaves the wallet and the fee, in BTC (the sats on hover); no USD where the quote gave none.
    expect(text("wallet-sign-summary")).toBe("−0.0025 BTC · network fee 0.000018 BTC");
    await click("wallet-sign-button");
    expect(walletStep).toHaveBeenCalledWith(1, "pay", null);
  });

  it("passes the high fee the person accepted", async () => {
    const { flow, walletStep } = await start(UNLOCKED, deposit(OURS, true));
    flow.feeAccepted = true;
    flushSync();
    await click("wallet-sign-button");
    expect(walletStep).toHaveBeenCalledWith(1, "pay", "1800");
  });

  it("does not offer to sign another wallet's PSBT", async () => {
    await start(UNLOCKED, deposit("bcrt1qsomeoneelse"));
    expect(byId("wallet-sign-button")).toBeNull();
    expect(text("wallet-sign-not-ours")).toContain("bcrt1qsomeoneelse");
  });

  it("unlocks on the spot", async () => {
    const walletUnlock = vi.fn(async () => UNLOCKED);
    await start({ state: "locked", idleLockSecs: 300 }, deposit(OURS), { walletUnlock });
    expect(byId("wallet-sign-button")).toBeNull();
    type("wallet-sign-password", "a long app password");
    await click("wallet-sign-unlock");
    expect(walletUnlock).toHaveBeenCalledWith("a long app password");
    expect(byId("wallet-sign-button")).not.toBeNull();
  });
});
