// @vitest-environment happy-dom
// An onramp's PSBT for a wallet of the person's own: base64 by default or hex, shown and copied as chosen; the .psbt
// file; and the animated BC-UR QR code, whose frames come from the app and cycle with a pause.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { DeskApi } from "../../ipc";
import type { OrderView } from "../../bindings/OrderView";
import type { PsbtExport } from "../../bindings/PsbtExport";
import type { DepositToPay } from "../../bindings/DepositToPay";
import { SwapState } from "../../swap/state.svelte";
import { byId, click, settle, stubApi, text } from "../../testing";
import OnrampDetails from "./OnrampDetails.svelte";

// "psbt\xff" and a few bytes; its base64 worked out by hand: cHNidP8BAFICAAAAAao= .
const PSBT_HEX = "70736274ff0100520200000001aa";
const PSBT_BASE64 = "cHNidP8BAFICAAAAAao=";

const deposit: DepositToPay = {
  orderId: "ord-1",
  address: "bcrt1qgateway",
  amountSats: "250000",
  opReturnHex: "6a20aa",
  psbtHex: PSBT_HEX,
  feeText: "0.000018 BTC",
  feeUsd: "1.73",
  sentence: null,
  psbt: {
    unsignedTxid: "00",
    inputs: [{ outpoint: "aa:0", valueSats: "1000000", address: "bcrt1qours" }],
    outputs: [],
    feeSats: "1800",
    vsizeEstimate: 150,
    feeShareBps: 72,
    feeSharePercent: "0.72",
    feeNeedsConfirmation: false,
  },
};

/** An export of `frames` frames, each SVG naming its frame so the test can tell which is shown. */
function exportOf(frames: number, extra: Partial<PsbtExport> = {}): PsbtExport {
  const urFrames = Array.from({ length: frames }, (_, i) => `ur:crypto-psbt/${i + 1}-${frames}/lpad`);
  return {
    base64: PSBT_BASE64,
    hex: PSBT_HEX,
    urFrames,
    qrSvgs: urFrames.map((f) => `<svg xmlns="http://www.w3.org/2000/svg"><title>${f.toUpperCase()}</title></svg>`),
    urFragments: frames > 1 ? frames - 1 : frames,
    ...extra,
  };
}

let app: Record<string, unknown> | null = null;
let writeText: ReturnType<typeof vi.fn>;

async function start(psbtExport: DeskApi["psbtExport"], overrides: Partial<DeskApi> = {}) {
  const exporter = vi.fn(psbtExport);
  const flowApi = stubApi(overrides);
  const flow = new SwapState(flowApi);
  flow.order = { localId: 7, stage: "verified", route: "onramp" } as unknown as OrderView;
  app = mount(OnrampDetails, {
    target: document.getElementById("app")!,
    props: { flow, deposit, api: { psbtExport: exporter } },
  });
  await settle();
  return { exporter, flow };
}

/** The frame's own title: which of the export's frames is on the page. */
const shownFrame = () => byId("psbt-qr-frame")?.querySelector("title")?.textContent;

beforeEach(() => {
  document.body.innerHTML = '<div id="app"></div>';
  writeText = vi.fn(async () => {});
  Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText } });
});

afterEach(() => {
  if (app) unmount(app);
  app = null;
  vi.useRealTimers();
});

describe("the PSBT's text forms", () => {
  it("shows and copies base64 by default, and hex when chosen", async () => {
    await start(async () => exportOf(1));
    expect(byId<HTMLInputElement>("psbt-format-base64")!.checked).toBe(true);
    expect(byId<HTMLTextAreaElement>("psbt-base64")!.value).toBe(PSBT_BASE64);
    expect(byId<HTMLTextAreaElement>("psbt-base64")!.readOnly).toBe(true);
    expect(byId("psbt-hex")).toBeNull();
    expect(byId("psbt-copy")?.getAttribute("aria-label")).toBe("Copy the PSBT (base64)");
    await click("psbt-copy");
    expect(writeText).toHaveBeenLastCalledWith(PSBT_BASE64);

    await click("psbt-format-hex");
    expect(byId<HTMLTextAreaElement>("psbt-hex")!.value).toBe(PSBT_HEX);
    expect(byId("psbt-base64")).toBeNull();
    expect(byId("psbt-copy")?.getAttribute("aria-label")).toBe("Copy the PSBT (hex)");
    await click("psbt-copy");
    expect(writeText).toHaveBeenLastCalledWith(PSBT_HEX);

    await click("psbt-format-base64");
    expect(byId<HTMLTextAreaElement>("psbt-base64")!.value).toBe(PSBT_BASE64);
    expect(byId("psbt-hex")).toBeNull();
  });

  it("keeps the Save-as-file button, which saves this order's PSBT", async () => {
    const savePsbt = vi.fn(async () => "/home/me/order-7.psbt");
    await start(async () => exportOf(1), { savePsbt });
    await click("psbt-save");
    expect(savePsbt).toHaveBeenCalledWith(7);
    expect(text("psbt-saved")).toBe("Saved to /home/me/order-7.psbt.");
  });
});

describe("the animated BC-UR QR code", () => {
  it("is asked for only when shown, then cycles its frames every 250 ms, with a pause", async () => {
    vi.useFakeTimers();
    const { exporter } = await start(async () => exportOf(3));
    expect(exporter).not.toHaveBeenCalled();
    expect(byId("psbt-qr")).toBeNull();
    const toggle = byId("psbt-qr-toggle")!;
    expect(toggle.textContent?.trim()).toBe("Show animated QR (BC-UR)");
    expect(toggle.getAttribute("aria-expanded")).toBe("false");

    await click("psbt-qr-toggle");
    expect(exporter).toHaveBeenCalledWith(7);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    expect(text("psbt-qr-counter")).toBe("Part 1 of 3");
    expect(shownFrame()).toBe("UR:CRYPTO-PSBT/1-3/LPAD");
    const frame = byId("psbt-qr-frame")!;
    expect(frame.getAttribute("role")).toBe("img");
    expect(frame.getAttribute("aria-label")).toBe("Animated QR code of the PSBT (BC-UR, ur:crypto-psbt), part 1 of 3");
    expect(text("psbt-qr-hint")).toContain(
      "Scan with Sparrow, Keystone, Passport, Jade or any wallet that reads BC-UR PSBTs",
    );

    vi.advanceTimersByTime(249);
    flushSync();
    expect(text("psbt-qr-counter")).toBe("Part 1 of 3");
    vi.advanceTimersByTime(1);
    flushSync();
    expect(text("psbt-qr-counter")).toBe("Part 2 of 3");
    expect(shownFrame()).toBe("UR:CRYPTO-PSBT/2-3/LPAD");
    expect(byId("psbt-qr-frame")!.getAttribute("aria-label")).toMatch(/part 2 of 3$/);
    vi.advanceTimersByTime(250);
    flushSync();
    expect(shownFrame()).toBe("UR:CRYPTO-PSBT/3-3/LPAD");
    // The loop comes round to the first frame.
    vi.advanceTimersByTime(250);
    flushSync();
    expect(text("psbt-qr-counter")).toBe("Part 1 of 3");
    expect(shownFrame()).toBe("UR:CRYPTO-PSBT/1-3/LPAD");

    // Paused, the frame stays; played again, it moves on from there.
    expect(byId("psbt-qr-play")?.getAttribute("aria-label")).toBe("Pause the animated QR code");
    await click("psbt-qr-play");
    expect(byId("psbt-qr-play")?.getAttribute("aria-label")).toBe("Play the animated QR code");
    expect(text("psbt-qr-play")).toBe("Play");
    vi.advanceTimersByTime(2000);
    flushSync();
    expect(text("psbt-qr-counter")).toBe("Part 1 of 3");
    await click("psbt-qr-play");
    expect(text("psbt-qr-play")).toBe("Pause");
    vi.advanceTimersByTime(250);
    flushSync();
    expect(text("psbt-qr-counter")).toBe("Part 2 of 3");

    // Hidden, the timer is gone with it.
    await click("psbt-qr-toggle");
    expect(byId("psbt-qr")).toBeNull();
    expect(toggle.textContent?.trim()).toBe("Show animated QR (BC-UR)");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("shows a small PSBT's single frame still, without a pause button", async () => {
    vi.useFakeTimers();
    await start(async () => exportOf(1));
    await click("psbt-qr-toggle");
    expect(text("psbt-qr-counter")).toBe("Part 1 of 1");
    expect(byId("psbt-qr-play")).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
    expect(shownFrame()).toBe("UR:CRYPTO-PSBT/1-1/LPAD");
  });

  it("says why there is no QR code for a PSBT too large for one, or why it could not be drawn", async () => {
    const tooLarge = "This PSBT (25000 bytes) is too large for QR codes; save it as a file or copy it instead.";
    await start(async () => exportOf(0, { qrUnavailable: tooLarge, urFragments: 0 }));
    await click("psbt-qr-toggle");
    expect(text("psbt-qr-unavailable")).toBe(tooLarge);
    expect(byId("psbt-qr-frame")).toBeNull();
    if (app) unmount(app);

    document.body.innerHTML = '<div id="app"></div>';
    await start(() => Promise.reject({ kind: "not_found", message: "No order 7 in the journal." }));
    await click("psbt-qr-toggle");
    expect(text("psbt-qr-error")).toBe("The QR code could not be drawn: No order 7 in the journal.");
    expect(byId("psbt-qr-error")?.getAttribute("role")).toBe("alert");
  });

  it("puts only SVG markup into the page", async () => {
    await start(async () => ({ ...exportOf(1), qrSvgs: ['<img src="x" onerror="alert(1)">'] }));
    await click("psbt-qr-toggle");
    expect(byId("psbt-qr-frame")!.innerHTML).not.toContain("<img");
  });
});
