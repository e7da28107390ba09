import { describe, expect, it, vi } from "vitest";
import type { BundlePreview } from "../bindings/BundlePreview";
import type { LookupResult } from "../bindings/LookupResult";
import { own } from "../orders/fixtures";
import { stubApi } from "../testing";
import { BUNDLE_TEXT, imported, lookupResult, preview, quoteDiff } from "./fixtures";
import { bundleOrderLabel, diffSummary, journalOrders, lookupQueryOf, payloadText, statusWords } from "./model";
import { SupportState } from "./state.svelte";

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

describe("the Support view's rules", () => {
  it("builds the lookup from the form, and refuses empty fields", () => {
    expect(lookupQueryOf({ network: "sandbox", customUrl: "ignored", apiVersion: "v3", query: " ab12 " })).toEqual({
      ok: true,
      query: { network: "sandbox", apiVersion: "v3", query: "ab12" },
    });
    expect(
      lookupQueryOf({ network: "custom", customUrl: " https://gw.example ", apiVersion: "v1", query: "bc1q" }),
    ).toEqual({
      ok: true,
      query: { network: "custom", customUrl: "https://gw.example", apiVersion: "v1", query: "bc1q" },
    });
    expect(lookupQueryOf({ network: "custom", customUrl: " ", apiVersion: "v3", query: "x" })).toMatchObject({
      ok: false,
      field: "customUrl",
    });
    const empty = lookupQueryOf({ network: "production", customUrl: "", apiVersion: "v2", query: "  " });
    expect(empty).toMatchObject({ ok: false, field: "query" });
    if (!empty.ok) expect(empty.error.message).toMatch(/then choose Look up\.$/);
  });

  it("names journal orders, events and diffs for a person", () => {
    expect(bundleOrderLabel(own(12, { statusText: "Completed" }))).toBe(
      "#12 · Onramp: BTC on bitcoin → USDC on base · 0.0025 BTC ($96.12) · Completed",
    );
    expect(journalOrders([own(2), { ...own(1), localId: undefined }]).map((o) => o.localId)).toEqual([2]);
    expect(journalOrders(null)).toEqual([]);
    expect(payloadText({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(payloadText("plain")).toBe("plain");
    expect(diffSummary(quoteDiff().fields)).toBe("3 of 6 fields changed");
    expect(diffSummary([{ field: "x", before: "1", after: "1", changed: false }])).toBe(
      "Nothing changed (1 field compared)",
    );
    expect(statusWords("inProgress")).toBe("in progress");
    expect(statusWords("pendingBtcPayment")).toBe("pending BTC payment");
  });
});

describe("SupportState", () => {
  it("keeps only the latest lookup's answer, and says why one failed", async () => {
    const first = deferred<LookupResult>();
    const supportLookup = vi
      .fn()
      .mockReturnValueOnce(first.promise)
      .mockResolvedValueOnce(lookupResult({ kind: "address" }));
    const state = new SupportState(stubApi({ supportLookup }));
    const slow = state.lookup({ network: "sandbox", apiVersion: "v3", query: "a" });
    await state.lookup({ network: "sandbox", apiVersion: "v3", query: "b" });
    first.resolve(lookupResult());
    await slow;
    expect(state.result?.kind).toBe("address");
    expect(state.looking).toBe(false);

    supportLookup.mockRejectedValueOnce({
      kind: "not_found",
      message: "No order has that id. Check it and try again.",
    });
    await state.lookup({ network: "staging", apiVersion: "v2", query: "zz" });
    expect(state.result).toBeNull();
    expect(state.lookupError?.message).toBe("No order has that id. Check it and try again.");
  });

  it("previews, then saves exactly the bundle previewed", async () => {
    const bundlePreview = vi.fn(async () => preview());
    const saveBundle = vi.fn(async () => "/data/support-bundles/order.json");
    const state = new SupportState(stubApi({ bundlePreview, saveBundle }));
    await state.previewBundle();
    expect(bundlePreview).not.toHaveBeenCalled();
    state.chooseBundleOrder(3);
    await state.previewBundle();
    expect(bundlePreview).toHaveBeenCalledWith(3, { includeIdentifiers: false });
    expect(state.preview?.preview.text).toBe(BUNDLE_TEXT);
    await state.saveBundle();
    expect(saveBundle).toHaveBeenCalledWith(3, { includeIdentifiers: false });
    expect(state.savedPath).toBe("/data/support-bundles/order.json");

    // Another choice puts the preview (and what was saved from it) away.
    state.setIncludeIdentifiers(true);
    expect(state.preview).toBeNull();
    expect(state.savedPath).toBeNull();
    await state.saveBundle();
    expect(saveBundle).toHaveBeenCalledTimes(1);
  });

  it("drops a preview whose choice changed while it was made", async () => {
    const answer = deferred<BundlePreview>();
    const state = new SupportState(stubApi({ bundlePreview: vi.fn(() => answer.promise) }));
    state.chooseBundleOrder(3);
    const made = state.previewBundle();
    state.chooseBundleOrder(4);
    answer.resolve(preview());
    await made;
    expect(state.preview).toBeNull();
  });

  it("imports a pasted bundle or a file, and keeps the last when the dialog is cancelled", async () => {
    const importBundle = vi.fn(async () => imported());
    const openBundleFile = vi.fn(async () => null);
    const state = new SupportState(stubApi({ importBundle, openBundleFile }));
    await state.importPasted();
    expect(importBundle).not.toHaveBeenCalled();
    expect(state.importError?.message).toMatch(/^Paste the text of a support bundle first/);
    state.importText = BUNDLE_TEXT;
    await state.importPasted();
    expect(importBundle).toHaveBeenCalledWith(BUNDLE_TEXT);
    expect(state.imported).toEqual({ bundle: imported(), text: BUNDLE_TEXT });
    expect(state.importError).toBeNull();
    await state.openFile();
    expect(state.imported?.text).toBe(BUNDLE_TEXT);
    const fromFile = imported({ os: "macos aarch64", text: '{"read": "from the file"}' });
    openBundleFile.mockResolvedValueOnce(fromFile as never);
    await state.openFile();
    expect(state.imported).toEqual({ bundle: fromFile, text: '{"read": "from the file"}' });
  });

  it("reproduces a pasted bundle's quote or a pasted quote", async () => {
    const reproduceQuote = vi.fn(async () => quoteDiff());
    const state = new SupportState(stubApi({ importBundle: async () => imported(), reproduceQuote }));
    await state.reproduceBundle();
    expect(reproduceQuote).not.toHaveBeenCalled();
    state.importText = BUNDLE_TEXT;
    await state.importPasted();
    await state.reproduceBundle();
    expect(reproduceQuote).toHaveBeenCalledWith({ kind: "bundle", text: BUNDLE_TEXT });
    expect(state.diff?.fields).toHaveLength(6);

    await state.reproducePasted();
    expect(state.reproduceError?.message).toMatch(/^Paste a quote/);
    expect(state.diff).toBeNull();
    state.quoteText = '{"onramp":{}}';
    await state.reproducePasted();
    expect(reproduceQuote).toHaveBeenLastCalledWith({ kind: "quote", text: '{"onramp":{}}' });
    expect(state.reproduceError).toBeNull();
    expect(state.reproducing).toBeNull();
  });
});
