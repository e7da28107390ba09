// @vitest-environment happy-dom
// Paying a Solana order with the app's wallet (the same panel as every family's): the transaction in words with its
// fee, one confirmation whose fee cap goes to desk-core, an expired blockhash or a shortfall explained with no button,
// another fee payer not offered, progress and refusals in the words desk-core sends.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mount, unmount } from "svelte";
import type { DeskEvent } from "../../bindings/DeskEvent";
import type { OrderView } from "../../bindings/OrderView";
import type { PlannedTx } from "../../bindings/PlannedTx";
import type { WalletPlan } from "../../bindings/WalletPlan";
import type { WalletView as View } from "../../bindings/WalletView";
import { SwapState } from "../../swap/state.svelte";
import { WalletStore } from "../../wallet/state.svelte";
import { WalletPlanSigner } from "../../wallet/plan-sign.svelte";
import { byId, click, settle, stubApi, text } from "../../testing";
import PlanSign from "./PlanSign.svelte";

const SOL = "HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk";
const ACCOUNTS = {
  bitcoin: { address: "bcrt1qours", path: "m/84'/1'/0'/0/0" },
  evm: { address: "0x9858EfFD232B4033E47d90003D41EC34EcaEda94", path: "m/44'/60'/0'/0/0" },
  tron: { address: "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH", path: "m/44'/195'/0'/0/0" },
  solana: { address: SOL, path: "m/44'/501'/0'/0'" },
};
const UNLOCKED: View = { state: "unlocked", idleLockSecs: 300, accounts: ACCOUNTS };

const SENTENCE = `Send 25 USDC to the gateway's Solana program for order ord-1, signed by ${SOL} (the fee payer and only signer).`;

/** desk-core's plan of a Solana order: one step, the order's transaction. */
function plan(overrides: Partial<WalletPlan> = {}, step: Partial<PlannedTx> = {}): WalletPlan {
  return {
    chain: "solana",
    owner: SOL,
    holdings: `Your wallet ${SOL} holds 10 SOL and 10000 USDC on Solana.`,
    steps: [
      {
        kind: "pay",
        sentence: SENTENCE,
        to: "GatewayProgram",
        value: "0",
        gasLimit: null,
        maxFee: "5000",
        maxFeeText: "0.000005 SOL",
        maxFeeUsd: null,
        feeSentence: "Network fee 0.000005 SOL.",
        rentText: null,
        feeNeedsAcceptance: false,
        ...step,
      },
    ],
    nativeBalanceText: "10 SOL",
    tokenBalanceText: "10000 USDC",
    expired: null,
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

async function start(plans: WalletPlan[], overrides = {}, sender: string | null = null) {
  const walletPlan = vi.fn(async () => plans.shift() ?? plan());
  const walletStep = vi.fn(async () => ({ localId: 1, stage: "registered" }) as unknown as OrderView);
  const api = stubApi({ walletStatus: async () => UNLOCKED, walletPlan, walletStep, ...overrides });
  const flow = new SwapState(api);
  flow.order = { localId: 1, stage: "verified", route: "tokenSwap" } as unknown as OrderView;
  const store = new WalletStore(api);
  store.connect(async () => () => {});
  const signer = new WalletPlanSigner(api);
  signer.connect(async (handler) => {
    emit = handler;
    return () => {};
  });
  app = mount(PlanSign, {
    target: document.getElementById("app")!,
    props: { flow, sender, family: "solana", store, signer },
  });
  await settle();
  return { flow, walletPlan, walletStep };
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
    const { flow, walletStep } = await start([plan({}, { rentText: "0.00203928 SOL" })]);
    expect(text("plan-sign-balances")).toBe(`Your wallet ${SOL} holds 10 SOL and 10000 USDC on Solana.`);
    expect(text("plan-sign-sentence")).toBe(
      `${SENTENCE} Network fee 0.000005 SOL, and up to 0.00203928 SOL of rent for a new token account.`,
    );
    expect(byId("plan-sign-simulation")?.dataset.status).toBe("simulated");
    expect(text("plan-sign-simulation-sentence")).toBe(
      "−25 USDC, network fee 0.000005 SOL; nothing else leaves the wallet.",
    );
    await click("plan-sign-button");
    expect(walletStep).toHaveBeenCalledWith(1, "pay", "5000", false);
    expect(flow.order?.stage).toBe("registered");
  });

  it("signs what its endpoint cannot simulate only with this order's acceptance", async () => {
    const { walletStep } = await start([
      plan({
        simulation: {
          status: "unavailable",
          moves: [],
          sentence: "Not simulated: https://rpc.example answered simulateTransaction with an error.",
          source: "simulateTransaction on https://rpc.example",
        },
      }),
    ]);
    const button = byId("plan-sign-button") as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    await click("plan-sign-accept-unsimulated");
    expect(button.disabled).toBe(false);
    await click("plan-sign-button");
    expect(walletStep).toHaveBeenCalledWith(1, "pay", "5000", true);
  });

  it("explains an expired blockhash and a shortfall, and offers nothing to sign", async () => {
    await start([
      plan({
        expired:
          "The gateway built this transaction on the blockhash CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3PECGUCAEMbky, which Solana no longer accepts (a blockhash lasts about a minute). It cannot be executed: nothing is signed. Ask for a new quote and create a new order.",
      }),
    ]);
    expect(text("plan-sign-expired")).toContain("no longer accepts");
    expect(text("plan-sign-expired")).toContain("Ask for a new quote and create a new order.");
    expect(byId("plan-sign-button")).toBeNull();
    unmount(app!);
    app = null;
    document.body.innerHTML = '<div id="app"></div>';
    await start([
      plan({ shortfall: "The order pays 25 USDC but the wallet holds 1 USDC on Solana: add at least 24 USDC." }),
    ]);
    expect(text("plan-sign-shortfall")).toBe(
      "The order pays 25 USDC but the wallet holds 1 USDC on Solana: add at least 24 USDC. Nothing is signed.",
    );
    expect(byId("plan-sign-button")).toBeNull();
  });

  it("does not offer another fee payer's order; says what desk-core refused; shows progress", async () => {
    const other = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
    const { walletPlan } = await start([plan()], {}, other);
    expect(text("plan-sign-not-ours")).toContain(other);
    expect(walletPlan).not.toHaveBeenCalled();
    unmount(app!);
    app = null;
    document.body.innerHTML = '<div id="app"></div>';
    const walletStep = vi.fn(async () => {
      throw {
        kind: "refused",
        message: "What is to be signed changed since you read it (its fee is now 0.00001 SOL).",
      };
    });
    await start([plan()], { walletStep });
    await click("plan-sign-button");
    expect(text("plan-sign-error")).toContain("its fee is now 0.00001 SOL");
    emit({
      type: "walletTx",
      progress: {
        localId: 1,
        kind: "pay",
        hash: "5sig",
        state: "sent",
        confirmations: 0,
        text: "The transaction 5sig is sent; waiting for Solana to confirm it…",
      },
    });
    await settle();
    expect(text("plan-sign-progress")).toBe("The transaction 5sig is sent; waiting for Solana to confirm it…");
  });
});
