// @vitest-environment happy-dom
// Paying a Solana order with the app's wallet: the transaction in words with its fee, one confirmation whose fee cap
// goes to desk-core, an expired blockhash or a shortfall explained with no button, another fee payer not offered,
// progress and refusals in words.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mount, unmount } from "svelte";
import type { DeskEvent } from "../../bindings/DeskEvent";
import type { OrderView } from "../../bindings/OrderView";
import type { SolanaPlan } from "../../bindings/SolanaPlan";
import type { WalletView as View } from "../../bindings/WalletView";
import { SwapState } from "../../swap/state.svelte";
import { WalletStore } from "../../wallet/state.svelte";
import { SolanaSigner, solanaProgressText } from "../../wallet/solana-sign.svelte";
import { byId, click, settle, stubApi, text } from "../../testing";
import SolanaWalletSign from "./SolanaWalletSign.svelte";

const SOL = "HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk";
const ACCOUNTS = {
  bitcoin: { address: "bcrt1qours", path: "m/84'/1'/0'/0/0" },
  evm: { address: "0x9858EfFD232B4033E47d90003D41EC34EcaEda94", path: "m/44'/60'/0'/0/0" },
  tron: { address: "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH", path: "m/44'/195'/0'/0/0" },
  solana: { address: SOL, path: "m/44'/501'/0'/0'" },
};
const UNLOCKED: View = { state: "unlocked", idleLockSecs: 300, accounts: ACCOUNTS };

function plan(overrides: Partial<SolanaPlan> = {}): SolanaPlan {
  return {
    owner: SOL,
    sentence: `Send 25 USDC to the gateway's Solana program for order ord-1, signed by ${SOL} (the fee payer and only signer).`,
    feeLamports: "5000",
    feeText: "0.000005 SOL",
    rentText: null,
    solBalanceText: "10 SOL",
    tokenBalanceText: "10000 USDC",
    blockhash: "CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3PECGUCAEMbky",
    blockhashValid: true,
    shortfall: null,
    simulation: {
      status: "simulated",
      moves: [
        { leaves: true, text: "−25 USDC", token: "EPjF", amount: "25000000", counterparty: "the gateway's program" },
      ],
      sentence: "−25 USDC, network fee 0.000005 SOL; nothing else leaves the wallet.",
      source: "simulateTransaction on http://127.0.0.1:8899",
    },
    ...overrides,
  };
}

let app: Record<string, unknown> | null = null;
let emit: (event: DeskEvent) => void = () => {};

async function start(plans: SolanaPlan[], overrides = {}, sender: string | null = null) {
  const walletSolanaPlan = vi.fn(async () => plans.shift() ?? plan());
  const walletSolanaStep = vi.fn(async () => ({ localId: 1, stage: "registered" }) as unknown as OrderView);
  const api = stubApi({ walletStatus: async () => UNLOCKED, walletSolanaPlan, walletSolanaStep, ...overrides });
  const flow = new SwapState(api);
  flow.order = { localId: 1, stage: "verified", route: "tokenSwap" } as unknown as OrderView;
  const store = new WalletStore(api);
  store.connect(async () => () => {});
  const signer = new SolanaSigner(api);
  signer.connect(async (handler) => {
    emit = handler;
    return () => {};
  });
  app = mount(SolanaWalletSign, {
    target: document.getElementById("app")!,
    props: { flow, sender, store, signer },
  });
  await settle();
  return { flow, walletSolanaPlan, walletSolanaStep };
}

beforeEach(() => {
  document.body.innerHTML = '<div id="app"></div>';
});

afterEach(() => {
  if (app) unmount(app);
  app = null;
});

describe("paying a Solana order with the app's wallet", () => {
  it("shows the transaction with its fee and signs at that fee", async () => {
    const { flow, walletSolanaStep } = await start([plan({ rentText: "0.00203928 SOL" })]);
    expect(text("solana-sign-balances")).toBe(`Your wallet ${SOL} holds 10 SOL and 10000 USDC on Solana.`);
    expect(text("solana-sign-sentence")).toBe(
      `${plan().sentence} Network fee 0.000005 SOL, and up to 0.00203928 SOL of rent for a new token account.`,
    );
    expect(byId("solana-sign-simulation")?.dataset.status).toBe("simulated");
    expect(text("solana-sign-simulation-sentence")).toBe(
      "−25 USDC, network fee 0.000005 SOL; nothing else leaves the wallet.",
    );
    await click("solana-sign-button");
    expect(walletSolanaStep).toHaveBeenCalledWith(1, "5000", false);
    expect(flow.order?.stage).toBe("registered");
  });

  it("signs what its endpoint cannot simulate only with this order's acceptance", async () => {
    const { walletSolanaStep } = await start([
      plan({
        simulation: {
          status: "unavailable",
          moves: [],
          sentence: "Not simulated: https://rpc.example answered simulateTransaction with an error.",
          source: "simulateTransaction on https://rpc.example",
        },
      }),
    ]);
    const button = byId("solana-sign-button") as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    await click("solana-sign-accept-unsimulated");
    expect(button.disabled).toBe(false);
    await click("solana-sign-button");
    expect(walletSolanaStep).toHaveBeenCalledWith(1, "5000", true);
  });

  it("explains an expired blockhash and a shortfall, and offers nothing to sign", async () => {
    await start([plan({ blockhashValid: false })]);
    expect(text("solana-sign-expired")).toContain("no longer accepts");
    expect(text("solana-sign-expired")).toContain("Ask for a new quote and create a new order.");
    expect(byId("solana-sign-button")).toBeNull();
    unmount(app!);
    app = null;
    document.body.innerHTML = '<div id="app"></div>';
    await start([
      plan({ shortfall: "The order pays 25 USDC but the wallet holds 1 USDC on Solana: add at least 24 USDC." }),
    ]);
    expect(text("solana-sign-shortfall")).toBe(
      "The order pays 25 USDC but the wallet holds 1 USDC on Solana: add at least 24 USDC. Nothing is signed.",
    );
    expect(byId("solana-sign-button")).toBeNull();
  });

  it("does not offer another fee payer's order; says what desk-core refused; shows progress", async () => {
    const other = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
    const { walletSolanaPlan } = await start([plan()], {}, other);
    expect(text("solana-sign-not-ours")).toContain(other);
    expect(walletSolanaPlan).not.toHaveBeenCalled();
    unmount(app!);
    app = null;
    document.body.innerHTML = '<div id="app"></div>';
    const walletSolanaStep = vi.fn(async () => {
      throw {
        kind: "refused",
        message: "What is to be signed changed since you read it (its fee is now 0.00001 SOL).",
      };
    });
    await start([plan()], { walletSolanaStep });
    await click("solana-sign-button");
    expect(text("solana-sign-error")).toContain("its fee is now 0.00001 SOL");
    emit({ type: "walletTx", progress: { localId: 1, kind: "pay", hash: "5sig", state: "sent", confirmations: 0 } });
    await settle();
    expect(text("solana-sign-progress")).toBe("The transaction 5sig is sent; waiting for Solana to confirm it…");
  });

  it("puts progress in words", () => {
    const p = { localId: 1, kind: "pay", hash: "5sig", confirmations: 1 } as const;
    expect(solanaProgressText({ ...p, state: "mined" })).toBe("The transaction 5sig is confirmed on Solana.");
    expect(solanaProgressText({ ...p, state: "reverted" })).toContain("nothing was paid");
  });
});
