// @vitest-environment happy-dom
// The Swap view rendered with a stand-in API: the whole onramp flow, questions, errors, the Sign step of an
// offramp, and coming back to the view.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import { deskApi, type DeskApi } from "../ipc";
import type { OrderView } from "../bindings/OrderView";
import type { Verified } from "../bindings/Verified";
import type { QuoteResult } from "../bindings/QuoteResult";
import type { SwapForm } from "../bindings/SwapForm";
import type { SettingsView } from "../bindings/SettingsView";
import { allById, byId, choose, click, settle, stubApi, text, type, chainFacts } from "../testing";
import { desk } from "../stores.svelte";
import { SwapState } from "../swap/state.svelte";
import SwapView from "./SwapView.svelte";
import { wallet } from "../wallet/state.svelte";
import {
  BTC,
  DEPOSIT,
  EVM_ADDRESS,
  OP_RETURN,
  PSBT_HEX,
  ROUTES,
  USDC_BASE,
  offrampCard,
  offrampOrder,
  onrampCard,
  onrampOrder,
  SENDER_BTC,
  WBTC_BOB,
} from "../swap/testdata";

const SETTINGS: SettingsView = {
  network: {
    kind: "sandbox",
    label: "Sandbox",
    baseUrl: "http://127.0.0.1:1",
    apiVersion: "v3",
    ...chainFacts("sandbox"),
  },
  customUrl: null,
  settingsPath: "/tmp/settings.json",
  keychainAvailable: true,
  watched: [],
  theme: "system",
  notices: [],
  affiliates: [],
};

let view: Record<string, unknown> | null = null;

function render(flow: SwapState) {
  view = mount(SwapView, { target: document.getElementById("app")!, props: { flow } });
  flushSync();
}

function leave() {
  if (view) unmount(view);
  view = null;
  flushSync();
}

function api(overrides: Partial<DeskApi> = {}) {
  return stubApi({
    listRoutes: vi.fn(async () => ROUTES),
    requestQuote: vi.fn(async (): Promise<QuoteResult> => ({ type: "quote", card: onrampCard() })),
    ...overrides,
  });
}

async function fillOnramp() {
  choose("swap-src-chain", "bitcoin");
  expect(byId<HTMLSelectElement>("swap-src-token")!.value).toBe(BTC.address);
  choose("swap-dst-chain", "base");
  expect(byId<HTMLSelectElement>("swap-dst-token")!.value).toBe(USDC_BASE.address);
  type("swap-amount", "0.0025");
  type("swap-recipient", EVM_ADDRESS);
  await settle();
}

/** The onramp's signing step, with `order` as what desk-core starts. */
async function signingStepOf(order: OrderView): Promise<SwapState> {
  const flow = new SwapState(api({ startOrder: async () => order }));
  render(flow);
  await settle();
  await fillOnramp();
  await click("swap-get-quote");
  await click("swap-confirm");
  await click("confirm-go");
  return flow;
}

beforeEach(() => {
  document.body.innerHTML = '<div id="app"></div>';
  desk.settings = SETTINGS;
  desk.settingsStatus = "ready";
  desk.showView("swap");
});

afterEach(() => {
  leave();
  wallet.view = null;
  wallet.balance = null;
  localStorage.clear();
  vi.restoreAllMocks();
});

describe("the Swap view", () => {
  it("labels every control of the form", async () => {
    render(new SwapState(api()));
    await settle();
    for (const id of [
      "swap-token-search",
      "swap-src-chain",
      "swap-src-token",
      "swap-dst-chain",
      "swap-dst-token",
      "swap-amount",
      "swap-slippage-custom",
      "swap-recipient",
      "swap-sender",
      "swap-owner",
      "swap-refund",
    ]) {
      const control = byId(id)!;
      expect(control, id).not.toBeNull();
      const label = document.querySelector(`label[for="${control.id}"]`);
      expect(label?.textContent?.trim() || control.getAttribute("aria-label"), id).toBeTruthy();
    }
    expect(byId("step-indicator")?.querySelector('[aria-current="step"]')?.textContent).toContain("Quote");
    expect(byId("swap-get-quote")?.tagName).toBe("BUTTON");
  });

  it("filters tokens with the search box and checks fields as they are typed", async () => {
    render(new SwapState(api()));
    await settle();
    type("swap-token-search", "tether");
    const chains = [...byId<HTMLSelectElement>("swap-src-chain")!.options].map((o) => o.value);
    expect(chains).toEqual(["", "tron"]);
    type("swap-token-search", "");
    await fillOnramp();
    type("swap-amount", "0.000000001");
    expect(document.getElementById("swap-amount-error")?.textContent).toMatch(/BTC has at most 8 decimals/);
    expect(byId("swap-amount")?.getAttribute("aria-invalid")).toBe("true");
    type("swap-recipient", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq");
    expect(document.getElementById("swap-recipient-error")?.textContent).toMatch(/needs an EVM address/);
    type("swap-slippage-custom", "20");
    // Below the route's documented floor: an error beside the field, not just a warning.
    expect(text("swap-slippage-error")).toMatch(/This route takes at least 0.5% \(50 bps\)/);
    expect(byId("swap-slippage-warning")).toBeNull();
    expect(text("swap-slippage-hint")).toContain("This route takes 0.5% to 100%");
    type("swap-slippage-custom", "500");
    expect(text("swap-slippage-warning")).toMatch(/Above 3%/);
    await click("swap-slippage-100");
    expect(byId("swap-slippage-warning")).toBeNull();
    expect(byId("swap-slippage-100")?.getAttribute("aria-pressed")).toBe("true");
  });

  it("flags a mistyped EIP-55 checksum in an address as it is typed, and takes the address in lower case", async () => {
    render(new SwapState(api()));
    await settle();
    await fillOnramp();
    // EVM_ADDRESS with one capital made small.
    type("swap-recipient", EVM_ADDRESS.replace("aAeb", "aaeb"));
    expect(document.getElementById("swap-recipient-error")?.textContent).toBe(
      "This EVM address's capital letters do not match its checksum (EIP-55): one character may be mistyped. Copy it again from its source.",
    );
    expect(byId("swap-recipient")?.getAttribute("aria-invalid")).toBe("true");
    type("swap-owner", "0xfB6916095cA1df60bB79Ce92cE3Ea74c37c5d359");
    expect(document.getElementById("swap-owner-error")?.textContent).toMatch(/checksum \(EIP-55\)/);
    type("swap-recipient", EVM_ADDRESS.toLowerCase());
    type("swap-owner", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359");
    expect(document.getElementById("swap-recipient-error")).toBeNull();
    expect(document.getElementById("swap-owner-error")).toBeNull();
  });

  it("shows the loss the app computed and fee lines that do not add up on the card", async () => {
    const check = {
      loss: { bps: 120, percent: "1.20", basis: "usd" },
      lossSentence: "You receive 1.20 % less than you send (by the quote's own USD values), computed by the app.",
      needsConfirmation: false,
      feesMismatch:
        "The quote's fee lines add up to $1.60, but its total fee says $9.00: the gateway's figures are inconsistent. Check what you receive before you go on.",
    };
    render(new SwapState(api({ requestQuote: async () => ({ type: "quote", card: onrampCard({ check }) }) })));
    await settle();
    await fillOnramp();
    await click("swap-get-quote");
    await settle();
    expect(text("quote-loss")).toBe(check.lossSentence);
    expect(text("quote-fees-mismatch")).toBe(check.feesMismatch);
  });

  it("shows a PSBT with a high network fee only after the fee is accepted in numbers", async () => {
    const order = onrampOrder();
    const verified = structuredClone(order.verified) as unknown as Verified;
    if (verified.payload.type !== "onramp" || !verified.payload.psbt) throw new Error("an onramp PSBT");
    verified.payload.psbt.feeSats = "7500";
    verified.payload.psbt.feeShareBps = 300;
    verified.payload.psbt.feeSharePercent = "3.00";
    verified.payload.psbt.feeNeedsConfirmation = true;
    const toPay =
      order.toPay && verified.payload.type === "onramp"
        ? { ...order.toPay, psbt: verified.payload.psbt, feeText: "0.000075 BTC", feeUsd: "7.21" }
        : null;
    render(new SwapState(api({ startOrder: async () => onrampOrder({ verified, toPay }) })));
    await settle();
    await fillOnramp();
    await click("swap-get-quote");
    await click("swap-confirm");
    await click("confirm-go");
    // In BTC with its USD at the quote's price, never in sats (the sats are on hover).
    expect(text("psbt-fee-warning")).toContain("a network fee of 0.000075 BTC (≈ $7.21), 3.00 % of the 0.00250000 BTC");
    expect(byId("psbt-base64")).toBeNull();
    await click("psbt-accept-fee");
    expect(byId("psbt-base64")).not.toBeNull();
  });

  it("asks the person to confirm a large loss in numbers before the order is created", async () => {
    const check = {
      loss: { bps: 750, percent: "7.50", basis: "usd" },
      lossSentence: "You receive 7.50 % less than you send (by the quote's own USD values), computed by the app.",
      needsConfirmation: true,
    };
    const requestQuote = vi.fn(async (): Promise<QuoteResult> => ({ type: "quote", card: onrampCard({ check }) }));
    const startOrder = vi.fn(async () => onrampOrder());
    render(new SwapState(api({ requestQuote, startOrder })));
    await settle();
    await fillOnramp();
    await click("swap-get-quote");
    await settle();
    await click("swap-confirm");
    expect(text("confirm-loss")).toBe(check.lossSentence);
    expect(byId("quote-fees-mismatch")).toBeNull();
    const go = byId("confirm-go") as HTMLButtonElement;
    expect(go.disabled).toBe(true);
    await click("confirm-accept-loss");
    expect(go.disabled).toBe(false);
    await click("confirm-go");
    expect(startOrder).toHaveBeenCalledWith(onrampCard().raw, 750);
  });

  it("goes from quote to card to confirm to the onramp's PSBT, and registers the pasted transaction", async () => {
    let releaseQuote: (r: QuoteResult) => void = () => {};
    const requestQuote = vi.fn(() => new Promise<QuoteResult>((resolve) => (releaseQuote = resolve)));
    const startOrder = vi.fn(async () => onrampOrder());
    const handIn = vi.fn(async () => onrampOrder({ stage: "registered", statusText: "Waiting for confirmations." }));
    const savePsbt = vi.fn(async () => "/home/me/order.psbt");
    render(new SwapState(api({ requestQuote, startOrder, handIn, savePsbt })));
    await settle();
    await fillOnramp();
    await click("swap-get-quote");
    expect(text("swap-quoting")).toBe("Getting a quote…");
    expect(byId("view-swap")?.getAttribute("aria-busy")).toBe("true");
    releaseQuote({ type: "quote", card: onrampCard() });
    await settle();

    expect(requestQuote).toHaveBeenCalledWith(
      // The route's default slippage (desk-core's: BTC to USDC, 1%), not one figure for every route.
      expect.objectContaining({ srcChain: "bitcoin", dstChain: "base", amount: "0.0025", slippageBps: 100 }),
    );
    expect(byId("quote-card")).not.toBeNull();
    expect(text("quote-send")).toBe("0.0025 BTC ≈ $240.10");
    // The person's own network fee beside the gateway's, with USD, and the total cost (issue 31).
    expect(text("quote-own-fee-amount")).toBe("about 0.00002352 BTC ≈ $2.26");
    expect(text("quote-own-fee-basis")).toContain("About 196 vB");
    expect(text("quote-total-cost")).toBe(
      "Total cost. About $3.86 in all: the gateway's fees ($1.60) and your network fee on Bitcoin (about $2.26).",
    );
    expect(byId("quote-own-network-fee")).toBeNull();
    expect(text("quote-receive")).toBe("238.5 USDC ≈ $238.50");
    // One Bitcoin unit on the card: the send is in BTC, so the fees are too, each with its USD beside.
    expect(allById("quote-fee-line").map((l) => l.textContent?.replace(/\s+/g, " ").trim())).toEqual([
      "solver fee 0.00001 BTC ≈ $0.97",
      "protocol fee 0.0000065 BTC ≈ $0.63",
    ]);
    // One price-impact figure, the app's (fees left out); the gateway's own (-0.66%, fees counted) is not shown.
    expect(text("quote-price-impact")).toContain("0.00% (fees not counted)");
    expect(byId("quote-gateway-impact")).toBeNull();
    expect(text("quote-card")).not.toContain("-0.66%");
    expect(byId("quote-impact-warning")).toBeNull();
    expect(text("quote-min-receive")).toContain("231.345 USDC");
    // Beside the slippage too: what it means in the token.
    expect(text("swap-min-receive")).toBe("Minimum received at this tolerance: 231.345 USDC");
    expect(text("quote-rate")).toContain("1 BTC = 95,400 USDC");
    expect(text("quote-rate")).toContain("1 USDC = 0.0000104821 BTC");
    expect(byId("quote-receive")?.getAttribute("title")).toBe("238.5 USDC");
    expect(text("swap-receive-amount")).toBe("238.5 USDC");
    expect(text("quote-countdown")).toBe("refreshes in 30 s");
    expect(byId("quote-refresh")).not.toBeNull();
    expect(document.activeElement?.id).toBe("quote-heading");

    await click("swap-confirm");
    expect(byId("quote-card")).toBeNull();
    expect(text("confirm-summary")).toBe(
      `You send 0.0025 BTC from bitcoin; you receive about 238.5 USDC on base at ${EVM_ADDRESS}; fees 0.0000165 BTC (≈ $1.60); this creates an order on Sandbox.`,
    );
    expect(byId("step-indicator")?.querySelector('[aria-current="step"]')?.textContent).toContain("Confirm");

    await click("confirm-go");
    expect(startOrder).toHaveBeenCalledWith(onrampCard().raw, null);
    expect(byId("step-indicator")?.querySelector('[aria-current="step"]')?.textContent).toContain("Sign");
    expect(text("deposit-address")).toBe(DEPOSIT);
    expect(text("deposit-amount")).toBe("0.00250000 BTC");
    expect(byId("deposit-amount")?.querySelector("[title]")?.getAttribute("title")).toBe("250000 sats");
    expect(text("op-return")).toBe(OP_RETURN);
    expect(text("verified-sentence")).toContain(`Pays 0.00250000 BTC to ${DEPOSIT}`);
    await click("psbt-format-hex");
    const psbt = byId<HTMLTextAreaElement>("psbt-hex")!;
    expect(psbt.value).toBe(PSBT_HEX);
    expect(psbt.readOnly).toBe(true);
    expect(byId("psbt-copy")?.getAttribute("aria-label")).toBe("Copy the PSBT (hex)");
    await click("psbt-save");
    expect(savePsbt).toHaveBeenCalledWith(7);
    expect(text("psbt-saved")).toBe("Saved to /home/me/order.psbt.");

    type("signed-input", "abc");
    expect(document.getElementById("signed-input-error")?.textContent).toMatch(/even number of characters/);
    await click("register-button");
    expect(handIn).not.toHaveBeenCalled();

    const signed = `02000000${"ab".repeat(120)}`;
    type("signed-input", signed);
    expect(document.getElementById("signed-input-error")).toBeNull();
    await click("register-button");
    expect(handIn).toHaveBeenCalledWith(7, signed);
    expect(text("registered")).toContain("Registered — follow it in Orders");
    expect(byId("step-indicator")?.querySelector('[aria-current="step"]')?.textContent).toContain("Track");
    await click("go-orders");
    expect(desk.activeView).toBe("orders");
  });

  it("shows the affiliates asked for and what the quote carries, or none at all", async () => {
    const partner = "0x1111111111111111111111111111111111111111";
    const requestQuote = vi.fn(async (): Promise<QuoteResult> => ({ type: "quote", card: onrampCard() }));
    render(new SwapState(api({ requestQuote })));
    await settle();
    await fillOnramp();
    await click("swap-get-quote");
    expect(byId("quote-card")).not.toBeNull();
    expect(byId("quote-affiliates")).toBeNull();

    requestQuote.mockResolvedValueOnce({
      type: "quote",
      card: onrampCard({
        affiliatesRequested: [{ address: partner, bps: 50 }],
        affiliates: [{ address: partner, fee: { token: BTC, amount: "1250", text: "0.0000125 BTC", usd: "1.20" } }],
      }),
    });
    await click("quote-refresh");
    expect(text("quote-affiliates-requested")).toBe(`${partner}: 0.5% (50 bps)`);
    expect(text("quote-affiliates-carried")).toBe(`${partner}: 0.0000125 BTC ≈ $1.20`);
    expect(byId("quote-affiliate-note")).toBeNull();

    requestQuote.mockResolvedValueOnce({
      type: "quote",
      card: onrampCard({
        affiliatesRequested: [{ address: partner, bps: 50 }],
        affiliates: [],
        affiliateNote: "API V1 takes a single affiliate id, so no affiliate was sent. Use V2 or V3 to apply yours.",
      }),
    });
    await click("quote-refresh");
    expect(text("quote-affiliates-requested")).toBe(`${partner}: 0.5% (50 bps)`);
    expect(text("quote-affiliates-carried")).toBe("None");
    expect(text("quote-affiliate-note")).toBe(
      "API V1 takes a single affiliate id, so no affiliate was sent. Use V2 or V3 to apply yours.",
    );
    expect(byId("quote-affiliates")?.contains(byId("quote-affiliate-note"))).toBe(true);
  });

  it("counts down while the card is shown and asks again every 30 s", async () => {
    let now = 5_000_000;
    const requestQuote = vi.fn(async (): Promise<QuoteResult> => ({ type: "quote", card: onrampCard() }));
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const flow = new SwapState(api({ requestQuote }), () => now);
      render(flow);
      await settle();
      await fillOnramp();
      await click("swap-get-quote");
      expect(text("quote-countdown")).toBe("refreshes in 30 s");
      now += 7000;
      vi.advanceTimersByTime(1000);
      flushSync();
      expect(text("quote-countdown")).toBe("refreshes in 23 s");
      now += 23000;
      vi.advanceTimersByTime(1000);
      await settle();
      expect(requestQuote).toHaveBeenCalledTimes(2);
      expect(text("quote-countdown")).toBe("refreshes in 30 s");
      await click("quote-refresh");
      expect(requestQuote).toHaveBeenCalledTimes(3);

      // Away from the view nothing is asked; coming back to a due card asks at once.
      leave();
      now += 120000;
      vi.advanceTimersByTime(120000);
      await settle();
      expect(requestQuote).toHaveBeenCalledTimes(3);
      render(flow);
      await settle();
      expect(requestQuote).toHaveBeenCalledTimes(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it("draws the QR codes as inline SVG when the payment needs no OP_RETURN data", async () => {
    // The app (Rust) draws them; here a stand-in answers for it.
    const drawn = vi
      .spyOn(deskApi, "qrSvg")
      .mockImplementation(
        async (text) => `<svg xmlns="http://www.w3.org/2000/svg"><title>${text.length}</title></svg>`,
      );
    const plain = onrampOrder();
    plain.toPay = { ...plain.toPay!, opReturnHex: null, psbtHex: null, psbt: null };
    const flow = new SwapState(api({ startOrder: async () => plain }));
    render(flow);
    await settle();
    await fillOnramp();
    await click("swap-get-quote");
    await click("swap-confirm");
    await click("confirm-go");
    await vi.waitFor(() => expect(byId("qr-payment")?.querySelector("svg")).not.toBeNull());
    expect(byId("qr-address")?.querySelector("svg")).not.toBeNull();
    expect(byId("qr-payment")?.querySelector('[role="img"]')?.getAttribute("aria-label")).toMatch(/BIP21/);
    expect(drawn.mock.calls.some(([text]) => text.startsWith("bitcoin:"))).toBe(true);
    expect(byId("deposit-address-copy")).not.toBeNull();
    // On the Sandbox, the signing step and each QR code's caption say that nothing here is real money.
    expect(text("signing-sandbox-mark")).toBe("Sandbox — simulated, no real money moves");
    expect(text("qr-payment-sandbox-mark")).toBe("Sandbox — simulated, no real money moves");
    expect(text("qr-address-sandbox-mark")).toBe("Sandbox — simulated, no real money moves");
    drawn.mockRestore();
  });

  it("offers no way to pay that loses the OP_RETURN match: no QR code, the address for reference only", async () => {
    const drawn = vi.spyOn(deskApi, "qrSvg").mockImplementation(async () => "<svg></svg>");
    await signingStepOf(onrampOrder());
    await vi.waitFor(() => expect(byId("deposit-reference-note")).not.toBeNull());
    // The address is shown, labelled for reference, with nothing to copy or scan it by.
    expect(text("deposit-address")).toBe(DEPOSIT);
    expect(document.body.textContent).toContain("(for reference only)");
    expect(byId("deposit-address-copy")).toBeNull();
    expect(byId("qr-payment")).toBeNull();
    expect(byId("qr-address")).toBeNull();
    expect(drawn.mock.calls.some(([t]) => t.startsWith("bitcoin:") || t === DEPOSIT)).toBe(false);
    // The ways that carry the output are named: the app's wallet and the PSBT.
    expect(text("deposit-reference-note")).toMatch(/cannot be matched to this order/);
    expect(text("deposit-reference-note")).toMatch(/app's wallet, or sign the PSBT/);
    expect(byId("psbt-base64")).not.toBeNull();
    expect(byId("deposit-no-psbt")).toBeNull();
    drawn.mockRestore();
  });

  it("without a PSBT, an order that needs OP_RETURN data says how to get one and offers to start over", async () => {
    const noPsbt = onrampOrder();
    noPsbt.toPay = { ...noPsbt.toPay!, psbtHex: null, psbt: null };
    const flow = await signingStepOf(noPsbt);
    await vi.waitFor(() => expect(byId("deposit-no-psbt")).not.toBeNull());
    expect(text("deposit-no-psbt")).toMatch(/names the Bitcoin address you pay from/);
    expect(byId("qr-payment")).toBeNull();
    expect(byId("deposit-address-copy")).toBeNull();
    await click("deposit-start-over");
    expect(flow.order).toBeNull();
  });

  it("shows a question with the minimum in the token's units, and retries", async () => {
    const requestQuote = vi
      .fn<DeskApi["requestQuote"]>()
      .mockResolvedValueOnce({
        type: "ask",
        question: {
          field: "amount",
          message: "The amount is below this route's minimum. Enter at least the minimum.",
          suggestion: "10000",
          code: "AMOUNT_TOO_LOW",
        },
      })
      .mockResolvedValueOnce({ type: "quote", card: onrampCard() });
    render(new SwapState(api({ requestQuote })));
    await settle();
    await fillOnramp();
    type("swap-amount", "0.00001");
    await click("swap-get-quote");
    expect(text("question")).toContain("The amount is below this route's minimum.");
    expect(text("question")).toContain("The minimum is 0.0001 BTC.");
    expect(byId<HTMLInputElement>("question-input")!.value).toBe("0.0001");
    expect(document.querySelector('label[for="question-input"]')?.textContent).toBe("Amount (BTC)");
    expect(document.activeElement?.id).toBe("question-input");
    await click("question-retry");
    expect(requestQuote).toHaveBeenLastCalledWith(expect.objectContaining({ amount: "0.0001" }));
    expect(byId("question")).toBeNull();
    expect(byId<HTMLInputElement>("swap-amount")!.value).toBe("0.0001");
    expect(byId("quote-card")).not.toBeNull();
  });

  it("keeps everything when the view is left and shown again", async () => {
    const flow = new SwapState(api());
    render(flow);
    await settle();
    await fillOnramp();
    type("swap-sender", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4");
    await click("swap-get-quote");
    expect(byId("quote-card")).not.toBeNull();
    leave();
    expect(byId("view-swap")).toBeNull();

    render(flow);
    await settle();
    expect(byId<HTMLSelectElement>("swap-src-chain")!.value).toBe("bitcoin");
    expect(byId<HTMLSelectElement>("swap-dst-token")!.value).toBe(USDC_BASE.address);
    expect(byId<HTMLInputElement>("swap-amount")!.value).toBe("0.0025");
    expect(byId<HTMLInputElement>("swap-sender")!.value).toBe("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4");
    expect(text("quote-receive")).toBe("238.5 USDC ≈ $238.50");

    // And in the middle of signing, with what was pasted.
    flow.setApi(api({ startOrder: async () => onrampOrder() }));
    await click("swap-confirm");
    await click("confirm-go");
    type("signed-input", "ff00");
    leave();
    render(flow);
    await settle();
    expect(byId<HTMLTextAreaElement>("signed-input")!.value).toBe("ff00");
    expect(text("deposit-address")).toBe(DEPOSIT);
  });

  it("shows the error's sentence, never raw JSON", async () => {
    render(
      new SwapState(
        api({
          requestQuote: async () =>
            Promise.reject({
              kind: "gateway",
              message: "The gateway has no liquidity for this route right now. Try a smaller amount.",
              code: "INSUFFICIENT_LIQUIDITY",
              details: { raw: { a: 1 } },
            }),
        }),
      ),
    );
    await settle();
    await fillOnramp();
    await click("swap-get-quote");
    expect(text("swap-error")).toContain(
      "The gateway has no liquidity for this route right now. Try a smaller amount.",
    );
    expect(byId("swap-error")?.getAttribute("role")).toBe("alert");
    expect(document.body.textContent).not.toContain('{"');
  });

  it("quotes again after a refused quote, a refused order and Start over", async () => {
    let calls = 0;
    const requestQuote = vi.fn(async (): Promise<QuoteResult> => {
      calls += 1;
      if (calls === 1)
        throw { kind: "refused", message: "The gateway's quote has another recipient. Do not accept it." };
      return { type: "quote", card: onrampCard() };
    });
    const reason = "The gateway's transaction takes 10 times the amount. Do not sign it.";
    render(
      new SwapState(
        api({
          requestQuote,
          startOrder: async () => onrampOrder({ stage: "refused", lastError: reason, verified: undefined }),
        }),
      ),
    );
    await settle();
    await fillOnramp();
    await click("swap-get-quote");
    await settle();
    expect(text("swap-error")).toContain("another recipient");
    await click("swap-get-quote");
    await settle();
    await click("swap-confirm");
    await click("confirm-go");
    await settle();
    expect(text("order-refused")).toContain(reason);
    await click("swap-start-over");
    await settle();
    await click("swap-get-quote");
    await settle();
    expect(requestQuote).toHaveBeenCalledTimes(3);
    expect(byId("quote-card")).not.toBeNull();
  });

  it("shows a refused order prominently, with Start over", async () => {
    const reason = "The PSBT pays another address than the order's. Do not sign it.";
    render(
      new SwapState(
        api({ startOrder: async () => onrampOrder({ stage: "refused", lastError: reason, verified: undefined }) }),
      ),
    );
    await settle();
    await fillOnramp();
    await click("swap-get-quote");
    await click("swap-confirm");
    await click("confirm-go");
    expect(text("order-refused")).toContain(reason);
    expect(byId("psbt-base64")).toBeNull();
    expect(byId("signed-input")).toBeNull();
    await click("swap-start-over");
    expect(byId("swap-get-quote")).not.toBeNull();
    expect(byId<HTMLInputElement>("swap-amount")!.value).toBe("0.0025");
    // Get quote works again at once.
    await click("swap-get-quote");
    await settle();
    expect(byId("quote-card")).not.toBeNull();
  });

  it("abandons an unfinished order after a confirm step, and shows it as abandoned", async () => {
    const reason = "Abandoned by you. The gateway's order expires unpaid; nothing was paid.";
    const abandonOrder = vi.fn(async () => onrampOrder({ stage: "abandoned", lastError: reason, canAbandon: false }));
    render(new SwapState(api({ startOrder: async () => onrampOrder({ canAbandon: true }), abandonOrder })));
    await settle();
    await fillOnramp();
    await click("swap-get-quote");
    await click("swap-confirm");
    await click("confirm-go");
    await click("swap-abandon");
    expect(abandonOrder).not.toHaveBeenCalled();
    expect(text("swap-abandon-area")).toContain("its order expires unpaid");
    await click("swap-abandon-keep");
    expect(byId("swap-abandon-confirm")).toBeNull();
    await click("swap-abandon");
    await click("swap-abandon-confirm");
    expect(abandonOrder).toHaveBeenCalledWith(7);
    expect(text("order-refused")).toContain(reason);
    expect(byId("swap-abandon")).toBeNull();
  });

  it("shows an order whose creation was lost at the step, with Continue, as Orders does", async () => {
    const lost =
      "The connection dropped before the gateway answered. The app looked for the order among your orders and has " +
      "not found it yet. It is in Orders: Continue looks again (and asks the gateway), Abandon gives it up; no other " +
      "order can be started until then.";
    const unresolved = onrampOrder({
      stage: "createUnknown",
      nextStep: { step: "confirmCreation", sentence: "The gateway's answer to creating this order was lost." },
      orderId: undefined,
      verified: undefined,
      created: undefined,
      depositAddress: undefined,
      canAbandon: true,
      toPay: null,
    });
    const found =
      "The gateway created this order (ord-1), but its answer with what to sign was lost, so it cannot be signed.";
    const resumeOrder = vi.fn(async () => onrampOrder({ stage: "abandoned", lastError: found, canAbandon: false }));
    render(
      new SwapState(
        api({
          startOrder: async () => {
            throw { kind: "transport", message: lost, details: { localId: 7 } };
          },
          listOrders: async () => [unresolved],
          resumeOrder,
        }),
      ),
    );
    await settle();
    await fillOnramp();
    await click("swap-get-quote");
    await click("swap-confirm");
    await click("confirm-go");
    await settle();
    // The step shows the unresolved order with the error beside Continue and Abandon; nothing to sign or pay.
    expect(document.getElementById("execute-heading")?.textContent).toContain("answer was lost");
    expect(text("swap-error")).toContain("has not found it yet");
    expect(byId("swap-abandon")).not.toBeNull();
    expect(byId("signed-input")).toBeNull();
    expect(byId("psbt-base64")).toBeNull();
    await click("swap-resume");
    expect(resumeOrder).toHaveBeenCalledWith(7);
    expect(text("order-refused")).toContain(found);
    expect(byId("swap-resume")).toBeNull();
  });

  it("keeps an error without an order beside Confirm", async () => {
    render(
      new SwapState(
        api({
          startOrder: async () => {
            throw { kind: "refused", message: "The quote has expired." };
          },
        }),
      ),
    );
    await settle();
    await fillOnramp();
    await click("swap-get-quote");
    await click("swap-confirm");
    await click("confirm-go");
    await settle();
    expect(byId("confirm-go")).not.toBeNull();
    expect(text("swap-error")).toContain("The quote has expired.");
  });

  it("says beside Abandon why an order can no longer be abandoned", async () => {
    const abandonOrder = vi.fn(async () => {
      throw {
        kind: "refused",
        message: "A payment for this order was already sent, so it cannot be abandoned: follow it in Orders.",
      };
    });
    render(new SwapState(api({ startOrder: async () => onrampOrder({ canAbandon: true }), abandonOrder })));
    await settle();
    await fillOnramp();
    await click("swap-get-quote");
    await click("swap-confirm");
    await click("confirm-go");
    await click("swap-abandon");
    await click("swap-abandon-confirm");
    expect(byId("swap-abandon-area")?.querySelector("[data-testid=swap-error]")?.textContent).toContain(
      "cannot be abandoned",
    );
  });

  it("on API V4 asks no owner, shows the sender as the refund address and the quote's refund address", async () => {
    desk.settings = { ...SETTINGS, network: { ...SETTINGS.network, apiVersion: "v4" } };
    const requestQuote = vi.fn(async (_form: SwapForm): Promise<QuoteResult> => ({
      type: "quote",
      card: offrampCard({ refundAddress: EVM_ADDRESS }),
    }));
    render(new SwapState(api({ requestQuote })));
    await settle();
    choose("swap-src-chain", "bob");
    expect(byId<HTMLInputElement>("swap-owner")!.disabled).toBe(true);
    expect(document.querySelector('label[for="swap-refund"]')?.textContent).toContain("(EVM)");
    type("swap-amount", "0.01");
    type("swap-recipient", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq");
    type("swap-sender", EVM_ADDRESS);
    expect(byId<HTMLInputElement>("swap-refund")!.placeholder).toBe(EVM_ADDRESS);
    await click("swap-get-quote");
    const form = requestQuote.mock.calls[0]![0];
    expect(form.owner).toBeUndefined();
    expect(form.refund).toBeUndefined();
    expect(text("quote-refund-address")).toBe(EVM_ADDRESS);
    // A Bitcoin address is not one of BOB's: flagged as typed.
    type("swap-refund", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq");
    expect(document.getElementById("swap-refund-error")).not.toBeNull();
  });

  it("shows an offramp's call to sign and checks the transaction hash", async () => {
    const handIn = vi.fn(async () => offrampOrder({ stage: "registered" }));
    render(
      new SwapState(
        api({
          requestQuote: async () => ({ type: "quote", card: offrampCard() }),
          startOrder: async () => offrampOrder(),
          handIn,
        }),
      ),
    );
    await settle();
    choose("swap-src-chain", "bob");
    expect(byId<HTMLSelectElement>("swap-dst-chain")!.value).toBe("bitcoin");
    expect(document.querySelector('label[for="swap-owner"]')?.textContent).not.toContain("optional");
    type("swap-amount", "0.01");
    type("swap-recipient", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq");
    await click("swap-get-quote");
    expect(document.getElementById("swap-owner-error")?.textContent).toMatch(/Enter the EVM address/);
    expect(document.activeElement?.id).toBe("swap-owner");
    type("swap-owner", EVM_ADDRESS);
    await click("swap-get-quote");
    expect(text("quote-impact-warning")).toMatch(/Large price impact/);
    expect(text("quote-owner")).toBe(EVM_ADDRESS);
    expect(text("quote-affiliates")).toContain("0.25% (25 bps)");
    await click("swap-confirm");
    await click("confirm-go");
    const call = byId("tx-call")!;
    expect(call.textContent).toContain("0x5C1F7f15A8fc15AcE2b8C1bC1fF4E0c5aA5E1a4D");
    expect(text("tx-value")).toBe("0 ETH");
    expect(byId<HTMLTextAreaElement>("tx-data")!.value).toMatch(/^0x095ea7b3/);
    // desk-core did not decode this call (blind signing): the window says so rather than "checked".
    expect(text("tx-not-checked")).toMatch(/^Not checked: the app could not decode this call/);
    expect(byId("tx-decoded")).toBeNull();
    expect(byId("tx-data-copy")?.getAttribute("aria-label")).toBe("Copy the call data");
    type("signed-input", "0x1234");
    expect(document.getElementById("signed-input-error")?.textContent).toMatch(/64 hexadecimal characters; this has 4/);
    type("signed-input", "f".repeat(64));
    await click("register-button");
    expect(handIn).toHaveBeenCalledWith(8, `0x${"f".repeat(64)}`);
    expect(byId("registered")).not.toBeNull();
  });

  it("says how to copy by hand when the clipboard fails", async () => {
    Object.defineProperty(navigator, "clipboard", {
      configurable: true,
      value: { writeText: vi.fn(async () => Promise.reject(new Error("denied"))) },
    });
    render(new SwapState(api({ startOrder: async () => onrampOrder() })));
    await settle();
    await fillOnramp();
    await click("swap-get-quote");
    await click("swap-confirm");
    await click("confirm-go");
    await click("psbt-copy");
    expect(byId("psbt-copy")?.parentElement?.textContent).toContain(
      "Could not copy: select the text and press Ctrl+C.",
    );
  });

  it("is one card: logos, the quote's amount in “You receive”, a flip to the reverse route, and the wallet's Max", async () => {
    wallet.view = {
      state: "unlocked",
      idleLockSecs: 300,
      accounts: {
        bitcoin: { address: SENDER_BTC, path: "m/84'/0'/0'/0/0" },
        evm: { address: EVM_ADDRESS, path: "m/44'/60'/0'/0/0" },
      },
    };
    const flow = new SwapState(api());
    render(flow);
    await settle();
    choose("swap-src-chain", "bitcoin");
    choose("swap-dst-chain", "bob");
    await settle();
    // The logos: bundled SVGs for BTC and WBTC on their chains.
    const logos = allById("token-logo");
    expect(logos.length).toBeGreaterThanOrEqual(2);
    expect(logos[0].querySelector("svg")).not.toBeNull();
    expect(logos[0].getAttribute("data-fallback")).toBeNull();
    // The addresses come from the wallet and stay folded away.
    expect(byId<HTMLInputElement>("swap-recipient")!.value).toBe(EVM_ADDRESS);
    expect(byId<HTMLInputElement>("swap-sender")!.value).toBe(SENDER_BTC);
    expect(text("swap-addresses-summary")).toContain("To your wallet 0x5aAe…eAed");
    expect(document.getElementById("swap-address-fields")?.hidden).toBe(true);
    await click("swap-addresses-change");
    expect(document.getElementById("swap-address-fields")?.hidden).toBe(false);
    // Max fills what the wallet can spend.
    wallet.balance = { units: "0.5", maxUnits: "0.49990000", symbol: "BTC", source: "after the network fee" };
    flushSync();
    await click("swap-max");
    expect(byId<HTMLInputElement>("swap-amount")!.value).toBe("0.49990000");
    // BTC → WBTC on bob has a route back, so the card flips; the wallet's addresses follow the chains.
    expect(byId<HTMLButtonElement>("swap-flip")!.disabled).toBe(false);
    await click("swap-flip");
    expect(byId<HTMLSelectElement>("swap-src-chain")!.value).toBe("bob");
    expect(byId<HTMLSelectElement>("swap-dst-chain")!.value).toBe("bitcoin");
    await settle();
    expect(byId<HTMLInputElement>("swap-recipient")!.value).toBe(SENDER_BTC);
    // BTC → USDC on base has none: the flip says so instead of doing nothing.
    await click("swap-flip");
    choose("swap-dst-chain", "base");
    await settle();
    expect(byId<HTMLButtonElement>("swap-flip")!.disabled).toBe(true);
    expect(byId("swap-flip")?.getAttribute("title")).toBe("The gateway offers no route back");
  });

  it("keeps the form when the wallet locks: what was typed stays, untouched fields show no error, a line says so", async () => {
    const unlocked = {
      state: "unlocked" as const,
      idleLockSecs: 300,
      accounts: {
        bitcoin: { address: SENDER_BTC, path: "m/84'/0'/0'/0/0" },
        evm: { address: EVM_ADDRESS, path: "m/44'/60'/0'/0/0" },
      },
    };
    wallet.view = unlocked;
    const flow = new SwapState(api());
    render(flow);
    await settle();
    choose("swap-src-chain", "bitcoin");
    choose("swap-dst-chain", "bob");
    type("swap-amount", "0.0025");
    type("swap-slippage-custom", "75");
    await settle();
    await click("swap-get-quote");
    expect(byId("quote-card")).not.toBeNull();
    expect(byId("swap-wallet-locked")).toBeNull();
    const formErrors = () => [...document.querySelectorAll("form .error")].map((e) => e.textContent?.trim());

    // The wallet locks by itself (idle) while the quote is read.
    wallet.view = { state: "locked", idleLockSecs: 300 };
    flushSync();
    await settle();
    expect(text("swap-wallet-locked")).toContain("Wallet locked: unlock to use its addresses");
    expect(byId("swap-wallet-locked")?.getAttribute("role")).toBe("status");
    expect(byId<HTMLInputElement>("swap-amount")!.value).toBe("0.0025");
    expect(byId<HTMLInputElement>("swap-slippage-custom")!.value).toBe("75");
    expect(byId<HTMLSelectElement>("swap-src-chain")!.value).toBe("bitcoin");
    expect(byId<HTMLSelectElement>("swap-dst-token")!.value).toBe(WBTC_BOB.address);
    // The addresses it filled are public and stay: the quote still answers the form.
    expect(byId<HTMLInputElement>("swap-recipient")!.value).toBe(EVM_ADDRESS);
    expect(byId("quote-outdated")).toBeNull();
    expect(text("swap-addresses-summary")).toContain("To your wallet 0x5aAe…eAed");
    expect(formErrors()).toEqual([]);

    // Turned around while locked: the wallet's addresses no longer fit the chains and wait for it, without an error.
    await click("swap-flip");
    await settle();
    expect(byId<HTMLSelectElement>("swap-src-chain")!.value).toBe("bob");
    expect(byId<HTMLInputElement>("swap-amount")!.value).toBe("0.0025");
    expect(byId<HTMLInputElement>("swap-recipient")!.value).toBe("");
    expect(byId<HTMLInputElement>("swap-sender")!.value).toBe("");
    expect(byId<HTMLInputElement>("swap-owner")!.value).toBe(EVM_ADDRESS);
    expect(formErrors()).toEqual([]);
    expect(text("swap-wallet-locked")).toContain("Wallet locked: unlock to use its addresses");

    // Asking for a quote says what the empty recipient needs.
    await click("swap-get-quote");
    expect(document.getElementById("swap-recipient-error")?.textContent).toBe(
      "Unlock the wallet to use its address, or enter the address that receives the tokens.",
    );

    // Unlocked again: its addresses fill the fields for the new direction, and the line goes.
    wallet.view = unlocked;
    flushSync();
    await settle();
    expect(byId<HTMLInputElement>("swap-recipient")!.value).toBe(SENDER_BTC);
    expect(byId<HTMLInputElement>("swap-sender")!.value).toBe(EVM_ADDRESS);
    expect(byId("swap-wallet-locked")).toBeNull();
    expect(formErrors()).toEqual([]);
  });

  it("offers to unlock the wallet from the locked line, and keeps what the person typed through the lock", async () => {
    wallet.view = { state: "locked", idleLockSecs: 300 };
    render(new SwapState(api()));
    await settle();
    choose("swap-src-chain", "bitcoin");
    choose("swap-dst-chain", "base");
    type("swap-amount", "0.0025");
    type("swap-recipient", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359");
    await settle();
    expect(text("swap-wallet-locked")).toContain("Wallet locked: unlock to use its addresses");
    expect([...document.querySelectorAll("form .error")]).toEqual([]);
    await click("swap-wallet-unlock");
    expect(desk.activeView).toBe("wallet");
    // Unlocked elsewhere: what the person typed stays; the wallet fills only what was left empty.
    wallet.view = {
      state: "unlocked",
      idleLockSecs: 300,
      accounts: { bitcoin: { address: SENDER_BTC, path: "m/84'/0'/0'/0/0" }, evm: { address: EVM_ADDRESS, path: "" } },
    };
    flushSync();
    await settle();
    expect(byId<HTMLInputElement>("swap-recipient")!.value).toBe("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359");
    expect(byId<HTMLInputElement>("swap-sender")!.value).toBe(SENDER_BTC);
    expect(byId("swap-wallet-locked")).toBeNull();
  });

  it("learns a route's slippage limit from the gateway and keeps its presets within it; the question clears on edit", async () => {
    let asks = 0;
    const requestQuote = vi.fn(async (): Promise<QuoteResult> => {
      asks++;
      return asks === 1
        ? {
            type: "ask",
            question: {
              field: "slippage",
              message: "This route takes at most 1.00% slippage (100 bps); the gateway suggests 0.50% (50 bps).",
              suggestion: "50",
              code: "MAX_SLIPPAGE_EXCEEDED",
              maxBps: 100,
            },
          }
        : { type: "quote", card: onrampCard() };
    });
    render(new SwapState(api({ requestQuote })));
    await settle();
    await fillOnramp();
    // The person asks for 3% rather than the route's default.
    await click("swap-slippage-300");
    await click("swap-get-quote");
    expect(text("question")).toContain("at most 1.00% slippage");
    // 3% is now known to be too much for this route: the preset is off, and the chosen one is flagged beside the field.
    expect(byId<HTMLButtonElement>("swap-slippage-300")!.disabled).toBe(true);
    expect(byId("swap-slippage-300")?.getAttribute("title")).toMatch(/at most 1%/);
    expect(text("swap-slippage-error")).toMatch(/This route takes at most 1% \(100 bps\)/);
    // Editing the slippage clears the stale question.
    await click("swap-slippage-100");
    expect(byId("question")).toBeNull();
    expect(byId("swap-slippage-error")).toBeNull();
    await click("swap-get-quote");
    expect(byId("quote-card")).not.toBeNull();
    // Remembered for the route in the window's storage.
    expect(localStorage.getItem("gateway-desk.slippage-limits.v1")).toContain('"maxBps":100');
  });

  it("shows a quote error beside Get quote, scrolled into view and announced", async () => {
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    const requestQuote = vi.fn(async (): Promise<QuoteResult> => {
      throw {
        kind: "gateway",
        message: "The gateway lacks liquidity for this amount now: it can pay out at most 2,500 USDC on base.",
        code: "INSUFFICIENT_SOLVER_BALANCE",
      };
    });
    render(new SwapState(api({ requestQuote })));
    await settle();
    await fillOnramp();
    await click("swap-get-quote");
    const error = byId("swap-error")!;
    expect(error.getAttribute("role")).toBe("alert");
    expect(error.closest("form")?.getAttribute("aria-labelledby")).toBe("swap-form-heading");
    expect(scrolled).toHaveBeenCalled();
    // Editing the amount makes the error stale: it goes.
    type("swap-amount", "0.001");
    flushSync();
    expect(byId("swap-error")).toBeNull();
  });
});
