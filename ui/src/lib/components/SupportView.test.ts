// @vitest-environment happy-dom
// The Support view with a stand-in for the Rust side: a lookup on any network rendered as the Orders view renders
// orders, with the raw JSON verbatim and what to do next; a bundle previewed, saved and shown in its folder; a
// bundle imported with its timeline; a quote reproduced with the changed fields highlighted.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { SettingsView } from "../bindings/SettingsView";
import type { DeskApi } from "../ipc";
import { own, watched } from "../orders/fixtures";
import { OrdersState } from "../orders/state.svelte";
import { desk } from "../stores.svelte";
import {
  BUNDLE_TEXT,
  ORDER_ID,
  ORDER_RAW,
  TXID,
  imported,
  lookupResult,
  preview,
  quoteDiff,
} from "../support/fixtures";
import { SupportState } from "../support/state.svelte";
import { allById, byId, choose, click, settle, stubApi, text, type, chainFacts } from "../testing";
import SupportView from "./SupportView.svelte";

function settings(over: Partial<SettingsView> = {}): SettingsView {
  return {
    network: {
      kind: "staging",
      label: "Staging",
      baseUrl: "https://gateway-api-staging.gobob.xyz",
      apiVersion: "v2",
      ...chainFacts("staging"),
    },
    customUrl: "https://gw.example.org",
    settingsPath: "/tmp/settings.json",
    keychainAvailable: true,
    watched: [],
    theme: "system",
    notices: [],
    affiliates: [],
    ...over,
  };
}

let app: Record<string, unknown> | null = null;

function start(overrides: Partial<DeskApi> = {}) {
  const api = stubApi({ listOrders: vi.fn(async () => [own(3), own(2), watched("gw-9", 10)]), ...overrides });
  const store = new SupportState(api);
  const ordersStore = new OrdersState(api, { subscribe: async () => () => {} });
  app = mount(SupportView, { target: document.getElementById("app")!, props: { store, ordersStore } });
  return { api, store };
}

beforeEach(() => {
  document.body.innerHTML = '<div id="app"></div>';
  desk.settings = settings();
  desk.activeView = "support";
});

afterEach(() => {
  if (app) unmount(app);
  app = null;
});

describe("the Support view's lookup", () => {
  it("starts on the network and API version in use, and offers every network and version", async () => {
    start();
    await settle();
    const network = byId<HTMLSelectElement>("support-network")!;
    expect([...network.options].map((o) => o.value)).toEqual(["production", "staging", "custom", "sandbox"]);
    expect(network.value).toBe("staging");
    const version = byId<HTMLSelectElement>("support-version")!;
    expect([...version.options].map((o) => o.value)).toEqual(["v4", "v3", "v2", "v1"]);
    expect([...version.options].map((o) => o.text)).toContain("V2 (removed from the service)");
    expect(version.value).toBe("v2");
    expect(byId("support-custom-url")).toBeNull();
    choose("support-network", "custom");
    expect(byId<HTMLInputElement>("support-custom-url")!.value).toBe("https://gw.example.org");
    expect(document.querySelector('label[for="support-query"]')?.textContent).toBe(
      "Order id, transaction id or hash, or address",
    );
  });

  it("looks up by txid and shows the order as Orders does, what it means, and the JSON exactly as received", async () => {
    const supportLookup = vi.fn(async () => lookupResult());
    start({ supportLookup });
    await settle();
    choose("support-network", "sandbox");
    choose("support-version", "v3");
    type("support-query", ` ${TXID} `);
    await click("support-lookup");
    expect(supportLookup).toHaveBeenCalledWith({ network: "sandbox", apiVersion: "v3", query: TXID });

    const result = byId("support-result")!;
    expect(text("support-result-summary")).toBe("1 order on Sandbox (http://127.0.0.1:9999, API v3)");
    const row = byId("order-row", result)!;
    expect(row.dataset.orderId).toBe(ORDER_ID);
    expect(result.textContent).toContain(ORDER_ID.slice(0, 8));
    expect(text("order-status", row)).toBe("In progress");
    expect(row.textContent).not.toContain("Watched address");
    // A single order is shown with its details open: the timeline as in the Orders view.
    expect(byId("order-timeline", row)).not.toBeNull();
    expect(text("support-explanation")).toBe(
      "Status “in progress”: The gateway has the order but has not seen its source transaction yet. What to do next: Check that the Bitcoin transaction was broadcast; it needs one confirmation.",
    );
    const raw = byId("support-raw")!;
    expect(raw.tagName).toBe("PRE");
    expect(raw.textContent).toBe(ORDER_RAW);
    expect(raw.innerHTML).toContain("&lt;b&gt;a &amp; b&lt;/b&gt;");
    expect(raw.querySelector("b")).toBeNull();
    expect(raw.closest("details")?.open).toBe(false);
    expect(byId("support-raw-body")?.textContent).toBe(ORDER_RAW);
  });

  it("lists every order of an address, folded, each with its explanation and raw element", async () => {
    const base = lookupResult();
    const second = {
      ...base.orders[0],
      rawText: '{"id":"other"}',
      order: { ...base.orders[0].order, orderId: "other" },
    };
    const body = `[${ORDER_RAW},{"id":"other"}]`;
    start({
      supportLookup: async () => lookupResult({ kind: "address", orders: [base.orders[0], second], rawText: body }),
    });
    await settle();
    type("support-query", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed");
    await click("support-lookup");
    expect(text("support-result-summary")).toBe("2 orders for this address on Sandbox (http://127.0.0.1:9999, API v3)");
    expect(allById("order-row")).toHaveLength(2);
    expect(byId("order-timeline")).toBeNull();
    expect(allById("support-explanation")).toHaveLength(2);
    expect(allById("support-raw").map((r) => r.textContent)).toEqual([ORDER_RAW, '{"id":"other"}']);
    expect(byId("support-raw-body")?.textContent).toBe(body);
    expect(byId("support-result-cut")).toBeNull();
  });

  it("says when an address's list was cut, above the orders it kept", async () => {
    const cut =
      "The gateway lists more orders for this address than a lookup keeps (200 pages): the newest 1 order, from 1 page, are shown";
    start({ supportLookup: async () => lookupResult({ kind: "address", cut }) });
    await settle();
    type("support-query", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed");
    await click("support-lookup");
    expect(text("support-result-cut")).toBe(cut);
    expect(allById("order-row")).toHaveLength(1);
  });

  it("sends a custom URL, refuses empty fields, and shows the app's refusal", async () => {
    const message = "No order has that id on this gateway. Check the id, the network and the API version.";
    const supportLookup = vi.fn(async () => Promise.reject({ kind: "not_found", message }));
    start({ supportLookup });
    await settle();
    await click("support-lookup");
    expect(supportLookup).not.toHaveBeenCalled();
    expect(text("support-error")).toMatch(/^Enter an order id/);
    expect(byId("support-query")?.getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement).toBe(byId("support-query"));

    choose("support-network", "custom");
    type("support-custom-url", "https://other.example");
    type("support-query", "abc");
    await click("support-lookup");
    expect(supportLookup).toHaveBeenCalledWith({
      network: "custom",
      customUrl: "https://other.example",
      apiVersion: "v2",
      query: "abc",
    });
    expect(text("support-error")).toBe(message);
    expect(byId("support-error")?.getAttribute("role")).toBe("alert");
    expect(byId("support-result")).toBeNull();
  });
});

describe("the Support view's bundle", () => {
  it("offers the journal's orders, previews the exact text, then saves it and shows it in its folder", async () => {
    const bundlePreview = vi.fn(async () => preview());
    const saveBundle = vi.fn(async () => "/home/me/.local/share/gateway-desk/support-bundles/order-f81d4fae.json");
    const revealPath = vi.fn(async () => {});
    start({ bundlePreview, saveBundle, revealPath });
    await settle();
    const select = byId<HTMLSelectElement>("support-bundle-order")!;
    expect([...select.options].map((o) => o.value)).toEqual(["", "3", "2"]);
    expect(select.options[1].text).toBe(
      "#3 · Onramp: BTC on bitcoin → USDC on base · 0.0025 BTC ($96.12) · In progress",
    );
    expect(byId<HTMLButtonElement>("support-bundle-preview")!.disabled).toBe(true);
    expect(byId("support-bundle-save")).toBeNull();

    choose("support-bundle-order", "3");
    await click("support-bundle-preview");
    expect(bundlePreview).toHaveBeenCalledWith(3, { includeIdentifiers: false });
    const shown = byId("support-bundle-text")!;
    expect(shown.tagName).toBe("PRE");
    expect(shown.textContent).toBe(BUNDLE_TEXT);
    expect(allById("support-bundle-redactions")[0].querySelectorAll("li")).toHaveLength(2);
    expect(text("support-bundle-preview-panel")).toContain(
      "6 journal events, 14 log lines; addresses and transaction ids shortened.",
    );

    await click("support-bundle-save");
    expect(saveBundle).toHaveBeenCalledWith(3, { includeIdentifiers: false });
    expect(text("support-bundle-path")).toBe(
      "Saved to /home/me/.local/share/gateway-desk/support-bundles/order-f81d4fae.json",
    );
    await click("support-bundle-reveal");
    expect(revealPath).toHaveBeenCalledWith("/home/me/.local/share/gateway-desk/support-bundles/order-f81d4fae.json");

    // Opting in to full identifiers needs a new preview before anything is saved.
    const box = byId<HTMLInputElement>("support-bundle-identifiers")!;
    box.checked = true;
    box.dispatchEvent(new Event("change", { bubbles: true }));
    flushSync();
    expect(byId("support-bundle-text")).toBeNull();
    expect(byId("support-bundle-path")).toBeNull();
    await click("support-bundle-preview");
    expect(bundlePreview).toHaveBeenLastCalledWith(3, { includeIdentifiers: true });
  });

  it("says why a bundle could not be made", async () => {
    const message = "Order 3 is not in the journal any more. Refresh the list.";
    start({ bundlePreview: async () => Promise.reject({ kind: "not_found", message }) });
    await settle();
    choose("support-bundle-order", "3");
    await click("support-bundle-preview");
    expect(text("support-bundle-error")).toBe(message);
    expect(byId("support-bundle-text")).toBeNull();
  });
});

describe("the Support view's import and reproduce", () => {
  it("shows an imported bundle's order with its timeline as the Orders view does, its events and log lines", async () => {
    const importBundle = vi.fn(async () => imported());
    start({ importBundle });
    await settle();
    type("support-import-text", BUNDLE_TEXT);
    await click("support-import");
    expect(importBundle).toHaveBeenCalledWith(BUNDLE_TEXT);
    const shown = byId("support-imported")!;
    const header = text("support-imported-header")!;
    expect(header).toContain("App version 0.7.0");
    expect(header).toContain("Operating system linux x86_64");
    expect(header).toContain("Network sandbox");
    expect(header).toContain("Addresses and ids Shortened");
    const timeline = byId("order-timeline", shown)!;
    expect([...timeline.querySelectorAll("li .step")].map((s) => s.textContent)).toEqual([
      "Order created",
      "Transaction registered",
    ]);
    expect(timeline.querySelector('[aria-current="step"]')?.textContent).toContain("Transaction registered");
    expect(text("order-status", shown)).toBe("Registered; waiting for the gateway");
    const events = byId("support-imported-events")!;
    expect([...events.querySelectorAll(".kind")].map((k) => k.textContent)).toEqual([
      "quoteAccepted",
      "createAnswered",
    ]);
    expect(events.querySelector("pre")?.textContent).toBe('{\n  "onramp": {\n    "quoteId": "q-1"\n  }\n}');
    expect(byId("support-imported-logs")?.textContent).toBe(imported().logLines.join("\n"));
  });

  it("says why a bundle could not be read", async () => {
    const message = "This is not a Gateway Desk support bundle. Paste the whole file.";
    start({ importBundle: async () => Promise.reject({ kind: "invalid_input", message }) });
    await settle();
    type("support-import-text", "{}");
    await click("support-import");
    expect(text("support-import-error")).toBe(message);
    expect(byId("support-imported")).toBeNull();
  });

  it("reproduces the imported bundle's quote and highlights the fields that changed", async () => {
    const reproduceQuote = vi.fn(async () => quoteDiff());
    start({ importBundle: async () => imported(), reproduceQuote });
    await settle();
    type("support-import-text", BUNDLE_TEXT);
    await click("support-import");
    await click("support-reproduce");
    expect(reproduceQuote).toHaveBeenCalledWith({ kind: "bundle", text: BUNDLE_TEXT });
    expect(text("support-diff-summary")).toBe("The same quote requested again on Sandbox: 3 of 6 fields changed.");
    const rows = allById("support-diff-row", byId("support-diff")!);
    expect(rows.map((r) => r.querySelector("th")?.textContent?.replace(/\s+/g, " ").trim())).toEqual([
      "input amount",
      "output amount changed",
      "fee: solver fee",
      "fee: affiliate changed",
      "price impact changed",
      "estimated time",
    ]);
    expect(rows.map((r) => r.dataset.changed)).toEqual(["false", "true", "false", "true", "true", "false"]);
    expect(rows.map((r) => r.classList.contains("support-diff-row-changed"))).toEqual([
      false,
      true,
      false,
      true,
      true,
      false,
    ]);
    expect([...rows[4].querySelectorAll("td")].map((c) => c.textContent)).toEqual(["-0.66%", "-0.70%"]);
    expect([...rows[3].querySelectorAll("td")].map((c) => c.textContent)).toEqual(["Not stated", "0.0000125 BTC"]);
    expect(text("support-diff-notes")).toBe(
      "The bundle shortened the recipient, so a stand-in address of the same kind was used.",
    );
  });

  it("reproduces a bundle opened from a file, and a pasted quote", async () => {
    const reproduceQuote = vi.fn(async () => quoteDiff({ notes: [] }));
    const openBundleFile = vi.fn(async () => imported({ text: '{"from": "the file"}' }));
    start({ reproduceQuote, openBundleFile });
    await settle();
    await click("support-open-bundle");
    expect(byId("support-imported")).not.toBeNull();
    await click("support-reproduce");
    expect(reproduceQuote).toHaveBeenCalledWith({ kind: "bundle", text: '{"from": "the file"}' });

    type("support-quote-text", '{"onramp":{"quoteId":"q-1"}}');
    await click("support-reproduce-quote");
    expect(reproduceQuote).toHaveBeenCalledWith({ kind: "quote", text: '{"onramp":{"quoteId":"q-1"}}' });
    expect(allById("support-diff-row")).toHaveLength(6);
    expect(byId("support-diff-notes")).toBeNull();

    reproduceQuote.mockRejectedValueOnce({ kind: "gateway", message: "The gateway has no such route now. Try later." });
    await click("support-reproduce-quote");
    expect(text("support-reproduce-error")).toBe("The gateway has no such route now. Try later.");
    expect(byId("support-diff")).toBeNull();
  });
});
