// @vitest-environment happy-dom
// Paying an order with the app's wallet, on an EVM chain and on Tron: the plan's steps, one confirmation per step with
// its fee cap passed to desk-core, the next step read again after a signature, a shortfall with no button, progress
// and refusals in the words desk-core sends.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mount, unmount } from "svelte";
import type { DeskEvent } from "../../bindings/DeskEvent";
import type { OrderView } from "../../bindings/OrderView";
import type { PlannedTx } from "../../bindings/PlannedTx";
import type { Simulation } from "../../bindings/Simulation";
import type { WalletPlan } from "../../bindings/WalletPlan";
import type { WalletView as View } from "../../bindings/WalletView";
import { SwapState } from "../../swap/state.svelte";
import { WalletStore } from "../../wallet/state.svelte";
import { WalletPlanSigner } from "../../wallet/plan-sign.svelte";
import { byId, click, settle, stubApi, text, type } from "../../testing";
import PlanSign from "./PlanSign.svelte";

const EVM = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94";
const ACCOUNTS = {
  bitcoin: { address: "bcrt1qours", path: "m/84'/1'/0'/0/0" },
  evm: { address: EVM, path: "m/44'/60'/0'/0/0" },
  tron: { address: "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH", path: "m/44'/195'/0'/0/0" },
  solana: { address: "HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk", path: "m/44'/501'/0'/0'" },
};
const UNLOCKED: View = { state: "unlocked", idleLockSecs: 300, accounts: ACCOUNTS };

const APPROVE: PlannedTx = {
  kind: "approve",
  sentence: "Approve 0.001 WBTC to the gateway's contract 0x6761 on bob: exactly this order's amount, no more.",
  to: "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c",
  value: "0",
  gasLimit: 346000,
  maxFee: "692000000000000",
  maxFeeText: "0.000692 ETH",
  maxFeeUsd: null,
  feeSentence: "Network fee at most 0.000692 ETH.",
  rentText: null,
  feeNeedsAcceptance: false,
};
/** What the order sends, as desk-core writes it from the quote. */
const SEND = {
  token: {
    chain: "bob",
    address: "0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3",
    symbol: "WBTC",
    name: null,
    decimals: 8,
  },
  amount: "100000",
  text: "0.001 WBTC",
  usd: "96.12",
};
const PAY: PlannedTx = {
  kind: "pay",
  sentence: "Send 0.001 WBTC to the gateway's contract 0x6761 on bob for order ord-1.",
  to: "0x6761",
  value: "0",
  gasLimit: null,
  maxFee: "1000000000000000",
  maxFeeText: "0.001 ETH",
  maxFeeUsd: "3.01",
  feeSentence: "Network fee at most 0.001 ETH.",
  rentText: null,
  feeNeedsAcceptance: false,
};

const GATEWAY = "0x6761C1C9bB7F3aF8E4B8b4fD1b9B2a1f1c3D7a70";
const SIMULATED: Simulation = {
  status: "simulated",
  moves: [{ leaves: true, text: "−0.001 WBTC", token: "0x0555", amount: "100000", counterparty: GATEWAY }],
  sentence: `−0.001 WBTC to ${GATEWAY}, network fee at most 0.0017 ETH; nothing else leaves the wallet.`,
  source: "eth_simulateV1 on http://127.0.0.1:8545",
};
const UNAVAILABLE: Simulation = {
  status: "unavailable",
  moves: [],
  sentence:
    "Not simulated: https://rpc.example answered eth_simulateV1 with error -32601 (the method does not exist). What this order's transaction moves cannot be shown; it is signed only if you accept that for this order, with blind signing on for this network.",
  source: "eth_simulateV1 on https://rpc.example",
};

function plan(steps: PlannedTx[], shortfall: string | null = null, simulation: Simulation = SIMULATED): WalletPlan {
  return {
    chain: "bob",
    owner: EVM,
    holdings: `Your wallet ${EVM} holds 10 ETH and 1 WBTC on bob.`,
    steps,
    expired: null,
    nativeBalanceText: "10 ETH",
    tokenBalanceText: "1 WBTC",
    shortfall,
    simulation: shortfall
      ? { status: "notRun", moves: [], sentence: "Not simulated: the balances do not cover the order.", source: "" }
      : simulation,
  };
}

let app: Record<string, unknown> | null = null;
let emit: (event: DeskEvent) => void = () => {};

async function start(
  walletView: View,
  plans: WalletPlan[],
  overrides = {},
  sender: string | null = null,
  family: "evm" | "tron" | "solana" = "evm",
) {
  const walletPlan = vi.fn(async () => plans.shift() ?? plan([]));
  const walletStep = vi.fn(
    async () =>
      ({
        localId: 1,
        stage: plans.length > 0 ? "verified" : "registered",
        execution: plans.length > 0 ? "sign" : "registered",
        send: SEND,
      }) as unknown as OrderView,
  );
  const api = stubApi({ walletStatus: async () => walletView, walletPlan, walletStep, ...overrides });
  const flow = new SwapState(api);
  flow.order = {
    localId: 1,
    stage: "verified",
    execution: "sign",
    route: "offramp",
    send: SEND,
  } as unknown as OrderView;
  const store = new WalletStore(api);
  store.connect(async () => () => {});
  const signer = new WalletPlanSigner(api);
  signer.connect(async (handler) => {
    emit = handler;
    return () => {};
  });
  app = mount(PlanSign, {
    target: document.getElementById("app")!,
    props: { flow, sender, family, store, signer },
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

describe("paying an order from an EVM chain or Tron with the app's wallet", () => {
  it("confirms the approval, then the payment, each at its shown fee cap", async () => {
    const { flow, walletStep } = await start(UNLOCKED, [plan([APPROVE, PAY]), plan([PAY])]);
    expect(text("plan-sign-balances")).toBe(`Your wallet ${EVM} holds 10 ETH and 1 WBTC on bob.`);
    expect(byId("plan-sign-steps")?.querySelectorAll("li").length).toBe(2);
    expect(text("plan-sign-sentence")).toBe(`${APPROVE.sentence} Network fee at most 0.000692 ETH.`);
    // The approval moves nothing: its summary is its fee alone, without USD where the quote priced no ETH.
    expect(text("plan-sign-summary")).toBe("network fee at most 0.000692 ETH");
    expect(text("plan-sign-button")).toBe("Sign: approve");
    await click("plan-sign-button");
    expect(walletStep).toHaveBeenCalledWith(1, "approve", "692000000000000", false);
    expect(text("plan-sign-sentence")).toBe(`${PAY.sentence} Network fee at most 0.001 ETH.`);
    // The payment: what leaves the wallet and the fee, each with USD beside it, the exact fee on hover.
    expect(text("plan-sign-summary")).toBe("−0.001 WBTC (≈ $96.12) · network fee at most 0.001 ETH (≈ $3.01)");
    expect(byId("plan-sign-summary")?.querySelector("[title]")?.getAttribute("title")).toBe(
      "1000000000000000 of the chain's smallest unit",
    );
    expect(byId("plan-sign-steps")).toBeNull();
    expect(text("plan-sign-button")).toBe("Sign and send");
    await click("plan-sign-button");
    expect(walletStep).toHaveBeenLastCalledWith(1, "pay", "1000000000000000", false);
    expect(flow.order?.stage).toBe("registered");
  });

  it("shows what the chain's simulation moves, in the person's units, before the button", async () => {
    await start(UNLOCKED, [plan([APPROVE, PAY])]);
    const section = byId("plan-sign-simulation")!;
    expect(section.dataset.status).toBe("simulated");
    expect(section.querySelector("h4")?.textContent).toBe("Simulated on the chain: what leaves and enters your wallet");
    expect(byId("plan-sign-moves")?.textContent?.replace(/\s+/g, " ").trim()).toBe(`−0.001 WBTC to ${GATEWAY}`);
    expect(text("plan-sign-simulation-sentence")).toBe(SIMULATED.sentence);
    expect(byId("plan-sign-accept-unsimulated")).toBeNull();
  });

  it("says plainly when the endpoint cannot simulate, and signs only with this order's acceptance", async () => {
    const { walletStep } = await start(UNLOCKED, [plan([PAY], null, UNAVAILABLE)]);
    expect(byId("plan-sign-simulation")?.dataset.status).toBe("unavailable");
    expect(text("plan-sign-simulation-sentence")).toContain("error -32601");
    const button = byId("plan-sign-button") as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    await click("plan-sign-accept-unsimulated");
    expect(button.disabled).toBe(false);
    await click("plan-sign-button");
    expect(walletStep).toHaveBeenCalledWith(1, "pay", "1000000000000000", true);
  });

  it("shows a shortfall in numbers and offers nothing to sign", async () => {
    await start(UNLOCKED, [plan([APPROVE, PAY], "Gas needs up to 0.001 ETH on bob: add at least 0.0009 ETH.")]);
    expect(text("plan-sign-shortfall")).toBe(
      "Gas needs up to 0.001 ETH on bob: add at least 0.0009 ETH. Nothing is signed.",
    );
    expect(byId("plan-sign-button")).toBeNull();
  });

  it("says what desk-core refused and shows each transaction's progress", async () => {
    const walletStep = vi.fn(async () => {
      throw {
        kind: "refused",
        message: "The order's transaction would fail (order already paid), so it was not signed.",
      };
    });
    await start(UNLOCKED, [plan([PAY]), plan([PAY])], { walletStep });
    await click("plan-sign-button");
    expect(text("plan-sign-error")).toContain("order already paid");
    emit({
      type: "walletTx",
      progress: {
        localId: 1,
        kind: "pay",
        hash: "0xabc",
        state: "sent",
        confirmations: 0,
        text: "The payment 0xabc is sent; waiting for it to be mined…",
      },
    });
    await settle();
    expect(text("plan-sign-progress")).toBe("The payment 0xabc is sent; waiting for it to be mined…");
    emit({
      type: "walletTx",
      progress: {
        localId: 2,
        kind: "pay",
        hash: "0xother",
        state: "mined",
        confirmations: 1,
        text: "The payment 0xother is mined (1 confirmation).",
      },
    });
    await settle();
    expect(text("plan-sign-progress")).toContain("0xabc");
  });

  it("does not offer another sender's order, and unlocks on the spot", async () => {
    await start(UNLOCKED, [plan([PAY])], {}, "0x000000000000000000000000000000000000dEaD");
    expect(text("plan-sign-not-ours")).toContain("0x000000000000000000000000000000000000dEaD");
    expect(byId("plan-sign-button")).toBeNull();
    unmount(app!);
    document.body.innerHTML = '<div id="app"></div>';
    const walletUnlock = vi.fn(async () => UNLOCKED);
    app = null;
    await start({ state: "locked", idleLockSecs: 300 }, [plan([PAY])], { walletUnlock });
    expect(byId("plan-sign-button")).toBeNull();
    type("plan-sign-password", "a long app password");
    await click("plan-sign-unlock");
    expect(walletUnlock).toHaveBeenCalledWith("a long app password");
    expect(text("plan-sign-button")).toBe("Sign and send");
  });

  it("on Tron, takes the wallet's Tron account as its own, compared with its case", async () => {
    const { walletPlan } = await start(UNLOCKED, [plan([PAY])], {}, ACCOUNTS.tron.address, "tron");
    expect(byId("plan-sign-not-ours")).toBeNull();
    expect(walletPlan).toHaveBeenCalledWith(1);
    unmount(app!);
    app = null;
    document.body.innerHTML = '<div id="app"></div>';
    await start(UNLOCKED, [plan([PAY])], {}, ACCOUNTS.tron.address.toLowerCase(), "tron");
    expect(text("plan-sign-not-ours")).toContain(ACCOUNTS.tron.address);
  });
});
