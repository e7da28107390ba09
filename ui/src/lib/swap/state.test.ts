import { describe, expect, it, vi } from "vitest";
import type { DeskApi } from "../ipc";
import type { QuoteResult } from "../bindings/QuoteResult";
import type { SwapForm } from "../bindings/SwapForm";
import { stubApi } from "../testing";
import { REFRESH_SECS, SwapState } from "./state.svelte";
import { RouteChoice } from "./chosen-route.svelte";
import {
  BTC,
  BTC_ADDRESS,
  USDT_TRON,
  EVM_ADDRESS,
  ROUTES,
  USDC_BASE,
  WBTC_BOB,
  offrampCard,
  onrampCard,
  onrampOrder,
} from "./testdata";

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

function setup(overrides: Partial<DeskApi> = {}) {
  let now = 1_000_000;
  const api = stubApi({
    listRoutes: vi.fn(async () => ROUTES),
    requestQuote: vi.fn(async (): Promise<QuoteResult> => ({ type: "quote", card: onrampCard() })),
    ...overrides,
  });
  const s = new SwapState(api, () => now);
  const advance = (secs: number) => {
    now += secs * 1000;
  };
  return { s, api, advance };
}

async function ready(s: SwapState) {
  s.useNetwork("sandbox|v3", "Sandbox", "v3");
  await flush();
}

function fillOnramp(s: SwapState) {
  s.chooseSrcChain("bitcoin");
  s.chooseDstChain("base");
  s.fields.amount = "0.0025";
  s.fields.recipient = EVM_ADDRESS;
}

const ONRAMP_FORM: SwapForm = {
  srcChain: "bitcoin",
  srcToken: BTC.address,
  dstChain: "base",
  dstToken: USDC_BASE.address,
  amount: "0.0025",
  // The route's default (BTC to USDC: 1%), which the form takes until the person chooses one.
  slippageBps: 100,
  recipient: EVM_ADDRESS,
};

describe("SwapState: the route's slippage", () => {
  it("follows the chosen route's default until the person chooses a slippage", async () => {
    const { s } = setup();
    await ready(s);
    s.chooseSrcChain("bitcoin");
    s.chooseDstChain("bob");
    // BTC to WBTC hold one value: the 0.5% floor.
    expect(s.fields.slippagePreset).toBe(50);
    s.chooseDstChain("base");
    // BTC to USDC: 1%.
    expect(s.fields.slippagePreset).toBe(100);
    // Chosen by the person, it stays whatever the route.
    s.choosePreset(300);
    s.chooseDstChain("bob");
    expect(s.fields.slippagePreset).toBe(300);
  });
});

describe("SwapState: choosing the route", () => {
  it("loads the routes of the network once, and fills in choices that have one option", async () => {
    const { s, api } = setup();
    s.useNetwork(null, null, null);
    expect(api.listRoutes).not.toHaveBeenCalled();
    await ready(s);
    s.useNetwork("sandbox|v3", "Sandbox", "v3");
    expect(api.listRoutes).toHaveBeenCalledTimes(1);
    expect(s.picked.srcChains).toEqual(["bitcoin", "bob", "solana", "tron"]);

    s.chooseSrcChain("bitcoin");
    expect(s.fields.srcToken).toBe(BTC.address);
    expect(s.picked.dstChains).toEqual(["base", "bob"]);
    expect(s.fields.dstChain).toBe("");
    s.chooseDstChain("bob");
    expect(s.fields.dstToken).toBe(WBTC_BOB.address);
    expect(s.picked.route?.kind).toBe("onramp");

    // Another source: the destination no longer reachable is cleared; the only one left is chosen.
    s.chooseSrcChain("bob");
    expect(s.fields.srcToken).toBe(WBTC_BOB.address);
    expect(s.fields.dstChain).toBe("bitcoin");
    expect(s.fields.dstToken).toBe(BTC.address);
    expect(s.picked.route?.kind).toBe("offramp");
    expect(s.rules.ownerRequired).toBe(true);
  });

  it("shows a routes failure as the swap error", async () => {
    const { s } = setup({
      listRoutes: async () => Promise.reject({ kind: "transport", message: "No answer. Try again." }),
    });
    await ready(s);
    expect(s.error).toEqual({ source: "routes", error: { kind: "transport", message: "No answer. Try again." } });
    expect(s.routesLoading).toBe(false);
  });
});

describe("SwapState: the quote", () => {
  it("does not ask while the form is incomplete, and names the first field to fix", async () => {
    const { s, api } = setup();
    await ready(s);
    s.chooseSrcChain("bitcoin");
    expect(await s.submit()).toBe("dstToken");
    s.chooseDstChain("base");
    s.fields.amount = "0.000000001";
    expect(await s.submit()).toBe("amount");
    expect(s.errors.amount).toMatch(/at most 8 decimals/);
    expect(api.requestQuote).not.toHaveBeenCalled();
  });

  it("asks with the exact form, counts down and refreshes every 30 s", async () => {
    const { s, api, advance } = setup();
    await ready(s);
    fillOnramp(s);
    expect(await s.submit()).toBeNull();
    expect(api.requestQuote).toHaveBeenCalledWith(ONRAMP_FORM);
    expect(s.card?.receive.text).toBe("238.5 USDC");
    expect(s.secondsLeft).toBe(REFRESH_SECS);

    advance(7);
    s.tick();
    expect(s.secondsLeft).toBe(23);
    expect(api.requestQuote).toHaveBeenCalledTimes(1);

    advance(23);
    s.tick();
    await flush();
    expect(api.requestQuote).toHaveBeenCalledTimes(2);
    expect(api.requestQuote).toHaveBeenLastCalledWith(ONRAMP_FORM);
    expect(s.secondsLeft).toBe(REFRESH_SECS);
  });

  it("stops refreshing a card the form no longer matches", async () => {
    const { s, api, advance } = setup();
    await ready(s);
    fillOnramp(s);
    await s.submit();
    s.fields.amount = "0.003";
    expect(s.cardOutdated).toBe(true);
    advance(60);
    s.tick();
    await flush();
    expect(api.requestQuote).toHaveBeenCalledTimes(1);
    s.proceed();
    expect(s.step).toBe("form");
  });

  it("keeps a card whose refresh failed, marked stale, and does not let it be confirmed", async () => {
    const requestQuote = vi.fn(async (): Promise<QuoteResult> => ({ type: "quote", card: onrampCard() }));
    const { s } = setup({ requestQuote });
    await ready(s);
    fillOnramp(s);
    await s.submit();
    requestQuote.mockRejectedValueOnce({ kind: "transport", message: "The gateway did not answer. Try again." });
    await s.refresh();
    expect(s.card).not.toBeNull();
    expect(s.cardStale).toBe(true);
    expect(s.error?.error.message).toBe("The gateway did not answer. Try again.");
    s.proceed();
    expect(s.step).toBe("form");
    await s.refresh();
    expect(s.cardStale).toBe(false);
    s.proceed();
    expect(s.step).toBe("confirm");
  });

  it("drops an answer that a newer request overtook", async () => {
    const answers: ((r: QuoteResult) => void)[] = [];
    const { s } = setup({ requestQuote: () => new Promise<QuoteResult>((resolve) => answers.push(resolve)) });
    await ready(s);
    fillOnramp(s);
    const first = s.submit();
    s.fields.amount = "0.003";
    const second = s.submit();
    answers[1]({ type: "quote", card: onrampCard({ receive: { ...onrampCard().receive, text: "286 USDC" } }) });
    answers[0]({ type: "quote", card: onrampCard() });
    await Promise.all([first, second]);
    expect(s.card?.receive.text).toBe("286 USDC");
    expect(s.cardForm?.amount).toBe("0.003");
  });

  it("puts an invalid_input error at its field until the field is edited", async () => {
    const { s } = setup({
      requestQuote: async () =>
        Promise.reject({
          kind: "invalid_input",
          message: "The recipient is not a valid base address: bad checksum.",
          details: { field: "recipient" },
        }),
    });
    await ready(s);
    fillOnramp(s);
    expect(await s.submit()).toBe("recipient");
    expect(s.errors.recipient).toBe("The recipient is not a valid base address: bad checksum.");
    expect(s.card).toBeNull();
    s.edited("recipient");
    expect(s.errors.recipient).toBeUndefined();
  });
});

describe("SwapState: questions", () => {
  it("shows the minimum amount in the token's units and retries with it", async () => {
    const requestQuote = vi
      .fn<DeskApi["requestQuote"]>()
      .mockResolvedValueOnce({
        type: "ask",
        question: {
          field: "amount",
          message: "The amount is below the minimum for this route. Enter at least the minimum.",
          suggestion: "10000",
          code: "AMOUNT_TOO_LOW",
        },
      })
      .mockResolvedValueOnce({ type: "quote", card: onrampCard() });
    const { s } = setup({ requestQuote });
    await ready(s);
    fillOnramp(s);
    s.fields.amount = "0.00001";
    await s.submit();
    expect(s.question?.code).toBe("AMOUNT_TOO_LOW");
    expect(s.suggestedAmount()).toBe("0.0001");
    expect(s.answer).toBe("0.0001");

    s.answer = "0.000000001";
    await s.retry();
    expect(s.answerError).toMatch(/at most 8 decimals/);
    expect(requestQuote).toHaveBeenCalledTimes(1);

    s.answer = "0.0001";
    await s.retry();
    expect(s.fields.amount).toBe("0.0001");
    expect(requestQuote).toHaveBeenLastCalledWith({ ...ONRAMP_FORM, amount: "0.0001" });
    expect(s.question).toBeNull();
    expect(s.card).not.toBeNull();
  });

  it("asks for the owner and the slippage", async () => {
    const requestQuote = vi
      .fn<DeskApi["requestQuote"]>()
      .mockResolvedValueOnce({
        type: "ask",
        question: {
          field: "ownerAddress",
          message: "This offramp needs an owner address.",
          code: "MISSING_OWNER_ADDRESS",
        },
      })
      .mockResolvedValueOnce({
        type: "ask",
        question: {
          field: "slippage",
          message: "Slippage too low. Choose another slippage tolerance.",
          suggestion: "75",
          code: "SLIPPAGE",
        },
      })
      .mockResolvedValueOnce({ type: "quote", card: offrampCard() });
    const { s } = setup({ requestQuote });
    await s.useNetwork("sandbox|v2", "Sandbox", "v2");
    await flush();
    s.chooseSrcChain("bob");
    s.fields.amount = "0.01";
    s.fields.recipient = BTC_ADDRESS;
    await s.submit();
    expect(s.question?.field).toBe("ownerAddress");
    s.answer = "0x1234";
    await s.retry();
    expect(s.answerError).toMatch(/EVM address/);
    s.answer = EVM_ADDRESS;
    s.apiVersion = "v3";
    await s.retry();
    expect(s.fields.owner).toBe(EVM_ADDRESS);
    expect(s.question?.field).toBe("slippage");
    expect(s.answer).toBe("75");
    await s.retry();
    expect(s.fields.slippagePreset).toBeNull();
    expect(s.fields.slippageCustom).toBe("75");
    expect(requestQuote).toHaveBeenLastCalledWith(expect.objectContaining({ slippageBps: 75, owner: EVM_ADDRESS }));
    expect(s.card?.route).toBe("offramp");
  });
});

describe("SwapState: confirm, sign, register", () => {
  it("creates the order from the quote as received and hands in what was pasted", async () => {
    const startOrder = vi.fn(async () => onrampOrder());
    const handIn = vi.fn(async () => onrampOrder({ stage: "registered", statusText: "In progress" }));
    const { s } = setup({ startOrder, handIn });
    await ready(s);
    fillOnramp(s);
    await s.submit();
    expect(s.flowStep).toBe("quote");
    s.proceed();
    expect(s.flowStep).toBe("confirm");
    s.back();
    expect(s.step).toBe("form");
    s.proceed();
    await s.confirm();
    expect(startOrder).toHaveBeenCalledWith(onrampCard().raw, null);
    expect(s.step).toBe("execute");
    expect(s.flowStep).toBe("sign");

    s.signed = "abc";
    await s.handIn();
    expect(s.signedError).toMatch(/even number/);
    expect(handIn).not.toHaveBeenCalled();

    const txid = "d".repeat(64);
    s.signed = ` ${txid}\n`;
    await s.handIn();
    expect(handIn).toHaveBeenCalledWith(7, txid);
    expect(s.order?.stage).toBe("registered");
    expect(s.flowStep).toBe("track");
  });

  it("keeps the pasted text and shows the error when registration fails", async () => {
    const { s } = setup({
      startOrder: async () => onrampOrder(),
      handIn: async () =>
        Promise.reject({
          kind: "gateway",
          message: "The gateway refused the transaction. Check it and try again.",
          code: "INVALID_REQUEST",
        }),
    });
    await ready(s);
    fillOnramp(s);
    await s.submit();
    s.proceed();
    await s.confirm();
    s.signed = "e".repeat(64);
    await s.handIn();
    expect(s.error?.source).toBe("handIn");
    expect(s.error?.error.code).toBe("INVALID_REQUEST");
    expect(s.signed).toBe("e".repeat(64));
    expect(s.order?.stage).toBe("verified");
  });

  it("shows a refused order and starts over keeping the form", async () => {
    const { s } = setup({
      startOrder: async () =>
        onrampOrder({ stage: "refused", lastError: "The PSBT pays another address. Do not sign it." }),
    });
    await ready(s);
    fillOnramp(s);
    await s.submit();
    s.proceed();
    await s.confirm();
    expect(s.order?.stage).toBe("refused");
    s.startOver();
    expect(s.step).toBe("form");
    expect(s.order).toBeNull();
    expect(s.card).toBeNull();
    expect(s.fields.amount).toBe("0.0025");
  });

  it("saves the PSBT and says where", async () => {
    const savePsbt = vi
      .fn<DeskApi["savePsbt"]>()
      .mockResolvedValueOnce("/home/me/order.psbt")
      .mockResolvedValueOnce(null);
    const { s } = setup({ startOrder: async () => onrampOrder(), savePsbt });
    await ready(s);
    fillOnramp(s);
    await s.submit();
    s.proceed();
    await s.confirm();
    await s.savePsbt();
    expect(savePsbt).toHaveBeenCalledWith(7);
    expect(s.savedPath).toBe("/home/me/order.psbt");
    await s.savePsbt();
    expect(s.savedPath).toBe("");
  });

  it("puts a quote and order away when the network changes", async () => {
    const { s, api } = setup({ startOrder: async () => onrampOrder() });
    await ready(s);
    fillOnramp(s);
    await s.submit();
    s.proceed();
    await s.confirm();
    s.useNetwork("production|v3", "Production", "v3");
    await flush();
    expect(s.order).toBeNull();
    expect(s.step).toBe("form");
    expect(s.notice).toMatch(/Its order is in Orders/);
    expect(api.listRoutes).toHaveBeenCalledTimes(2);
    expect(s.fields.srcChain).toBe("bitcoin");
  });
});

describe("SwapState: an order opened from the Orders view", () => {
  it("opens at the signing step and hands in for that order", async () => {
    const handIn = vi.fn(async () => onrampOrder({ stage: "registered" }));
    const s = new SwapState(stubApi({ handIn }), () => 0);
    s.openOrder(onrampOrder());
    expect(s.step).toBe("execute");
    expect(s.flowStep).toBe("sign");
    s.signed = "ab".repeat(32);
    await s.handIn();
    expect(handIn).toHaveBeenCalledWith(onrampOrder().localId, "ab".repeat(32));
    expect(s.order?.stage).toBe("registered");
  });
});

describe("SwapState: the app's wallet locking", () => {
  const ACCOUNTS = {
    bitcoin: { address: BTC_ADDRESS, path: "m/84'/0'/0'/0/0" },
    evm: { address: EVM_ADDRESS, path: "m/44'/60'/0'/0/0" },
  };

  it("keeps the form and the card, flags nothing untouched, and fills again once unlocked", async () => {
    const { s } = setup();
    await ready(s);
    s.useWallet({ state: "unlocked", idleLockSecs: 300, accounts: ACCOUNTS });
    s.chooseSrcChain("bitcoin");
    s.chooseDstChain("bob");
    s.useWallet({ state: "unlocked", idleLockSecs: 300, accounts: ACCOUNTS });
    s.fields.amount = "0.0025";
    expect(s.fields.recipient).toBe(EVM_ADDRESS);
    expect(s.fields.sender).toBe(BTC_ADDRESS);
    expect(await s.submit()).toBeNull();
    expect(s.card).not.toBeNull();

    s.useWallet({ state: "locked", idleLockSecs: 300 });
    expect(s.walletLocked).toBe(true);
    expect(s.fields.amount).toBe("0.0025");
    expect(s.fields.recipient).toBe(EVM_ADDRESS);
    expect(s.cardOutdated).toBe(false);
    expect(s.errors).toEqual({});

    // The chains turn: the wallet's addresses that no longer fit go, and the empty fields wait without an error
    // (Get quote was chosen before the lock).
    s.flip();
    s.useWallet({ state: "locked", idleLockSecs: 300 });
    expect(s.fields.recipient).toBe("");
    expect(s.fields.sender).toBe("");
    expect(s.walletWaiting).toEqual(["recipient", "sender"]);
    expect(s.errors).toEqual({});
    expect(await s.submit()).toBe("recipient");
    expect(s.errors.recipient).toBe(
      "Unlock the wallet to use its address, or enter the address that receives the tokens.",
    );

    s.useWallet({ state: "unlocked", idleLockSecs: 300, accounts: ACCOUNTS });
    expect(s.walletLocked).toBe(false);
    expect(s.fields.recipient).toBe(BTC_ADDRESS);
    expect(s.fields.sender).toBe(EVM_ADDRESS);
    expect(s.errors).toEqual({});
  });

  it("keeps what the person typed through a lock, and forgets a removed wallet's addresses", async () => {
    const { s } = setup();
    await ready(s);
    s.useWallet({ state: "locked", idleLockSecs: 300 });
    fillOnramp(s);
    s.fields.recipient = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
    s.useWallet({ state: "locked", idleLockSecs: 300 });
    expect(s.walletWaiting).toEqual(["sender", "owner", "refund"]);
    s.useWallet({ state: "unlocked", idleLockSecs: 300, accounts: ACCOUNTS });
    expect(s.fields.recipient).toBe("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359");
    expect(s.fields.sender).toBe(BTC_ADDRESS);
    expect(s.knownAccounts).toEqual(ACCOUNTS);
    s.useWallet({ state: "none", idleLockSecs: 300 });
    expect(s.knownAccounts).toBeNull();
    expect(s.walletLocked).toBe(false);
  });
});

describe("SwapState: a route chosen in the Routes view", () => {
  function withChoice() {
    const choice = new RouteChoice();
    const api = stubApi({ listRoutes: vi.fn(async () => ROUTES) });
    return { choice, api, s: new SwapState(api, () => 0, choice) };
  }

  it("waits for the network's routes, then chooses its tokens with the amount empty", async () => {
    const { choice, s } = withChoice();
    // Chosen before the swap form exists (its routes are not even asked for).
    choice.choose(ROUTES[3]);
    expect(s.routes).toBeNull();
    s.fields.amount = "12";
    s.fields.query = "btc";
    s.useNetwork("sandbox|v3", "Sandbox", "v3");
    expect(s.fields.srcChain).toBe("");
    await flush();
    expect(choice.route).toBeNull();
    expect(s.fields).toMatchObject({
      srcChain: "tron",
      srcToken: USDT_TRON.address,
      dstChain: "base",
      dstToken: USDC_BASE.address,
      amount: "",
      query: "",
    });
    expect(s.picked.route?.kind).toBe("tokenSwap");
    expect(s.focusAmount).toBe(true);
    expect(s.notice).toBeNull();
  });

  it("takes it at once when the routes are here, dropping another route's quote and putting a swap in progress away", async () => {
    const { choice, s } = withChoice();
    await ready(s);
    fillOnramp(s);
    s.fields.recipient = EVM_ADDRESS;
    s.openOrder(onrampOrder());
    expect(s.step).toBe("execute");
    choice.choose(ROUTES[2]);
    s.useNetwork("sandbox|v3", "Sandbox", "v3");
    expect(s.step).toBe("form");
    expect(s.order).toBeNull();
    expect(s.fields.srcChain).toBe("bob");
    expect(s.fields.dstToken).toBe(BTC.address);
    expect(s.notice).toMatch(/put away for the route you chose\. Its order is in Orders/);
  });

  it("says when the network does not offer the route", async () => {
    const { choice, s } = withChoice();
    await ready(s);
    choice.choose({ src: { ...USDT_TRON, chain: "ethereum" }, dst: BTC });
    s.useNetwork("sandbox|v3", "Sandbox", "v3");
    expect(s.fields.srcChain).toBe("");
    expect(s.notice).toBe("This network does not offer USDT on ethereum → BTC on bitcoin now. Choose a route here.");
    expect(s.focusAmount).toBe(false);
  });
});
