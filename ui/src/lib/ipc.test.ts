import { beforeEach, describe, expect, it, vi } from "vitest";
import type { HandInArgs } from "./bindings/args/HandInArgs";
import type { StartOrderArgs } from "./bindings/args/StartOrderArgs";

const invoke = vi.fn();
vi.mock("@tauri-apps/api/core", () => ({
  invoke: (...args: unknown[]) => invoke(...args),
  isTauri: () => true,
}));

const listen = vi.fn();
vi.mock("@tauri-apps/api/event", () => ({
  listen: (...args: unknown[]) => listen(...args),
}));

const ipc = await import("./ipc");
const { stubApi } = await import("./testing");
const { getSettings, listRoutes, selectNetwork, toDeskError, isDeskError } = ipc;

const settings = {
  network: { kind: "sandbox", label: "Sandbox", baseUrl: "https://sandbox.example", apiVersion: "v2" },
  customUrl: null,
  settingsPath: "/tmp/settings.toml",
  keychainAvailable: true,
  watched: [],
  theme: "system",
  notices: [],
  affiliates: [],
};

beforeEach(() => {
  invoke.mockReset();
  listen.mockReset();
});

describe("commands", () => {
  it("calls get_settings without arguments", async () => {
    invoke.mockImplementation(async () => settings);
    await expect(getSettings()).resolves.toEqual(settings);
    expect(invoke).toHaveBeenCalledWith("get_settings", undefined);
  });

  it("passes the choice to select_network", async () => {
    invoke.mockImplementation(async () => settings);
    await selectNetwork({ kind: "custom", customUrl: "https://gw.example" });
    expect(invoke).toHaveBeenCalledWith("select_network", {
      args: { choice: { kind: "custom", customUrl: "https://gw.example" } },
    });
  });

  it("returns the routes of list_routes", async () => {
    invoke.mockImplementation(async () => []);
    await expect(listRoutes()).resolves.toEqual([]);
    expect(invoke).toHaveBeenCalledWith("list_routes", undefined);
  });

  it("passes a DeskError rejection through", async () => {
    const err = { kind: "rate_limited", message: "The gateway is busy. Wait a minute and try again.", code: "429" };
    invoke.mockImplementation(() => Promise.reject(err));
    const caught = await listRoutes().catch((e: unknown) => e);
    expect(caught).toEqual(err);
  });

  it("wraps a string rejection as a transport DeskError", async () => {
    invoke.mockImplementation(() => Promise.reject("command list_routes not found"));
    const err = await listRoutes().catch((e: unknown) => e);
    expect(isDeskError(err)).toBe(true);
    expect(err).toMatchObject({ kind: "transport" });
    expect((err as { message: string }).message).toContain("command list_routes not found");
  });
});

const form = {
  srcChain: "bitcoin",
  srcToken: "BTC",
  dstChain: "bob",
  dstToken: "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c",
  amount: "0.0025",
  slippageBps: 300,
  recipient: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
};

// A quote goes back exactly as it came, unknown fields included.
const quote = { onramp: { quoteId: "q1", unknownField: [1] } };
const btcAddress = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";

// Each wrapper: the command it calls and its arguments, the command's generated `…Args` (bindings/args/), which
// Tauri hands to the command's one parameter `args` (serde maps the camelCase fields, `localId` to `local_id`).
const calls: [string, () => Promise<unknown>, string, Record<string, unknown> | undefined][] = [
  ["requestQuote", () => ipc.requestQuote(form), "request_quote", { form }],
  ["startOrder", () => ipc.startOrder(quote), "start_order", { quote, acceptedLossBps: null }],
  ["startOrder", () => ipc.startOrder(quote, 750), "start_order", { quote, acceptedLossBps: 750 }],
  ["handIn", () => ipc.handIn(7, "02000000ff"), "hand_in", { localId: 7, text: "02000000ff" }],
  ["resumeOrder", () => ipc.resumeOrder(7), "resume_order", { localId: 7 }],
  ["discardOrder", () => ipc.discardOrder(7), "discard_order", { localId: 7 }],
  ["abandonOrder", () => ipc.abandonOrder(7), "abandon_order", { localId: 7 }],
  ["acknowledgeOrder", () => ipc.acknowledgeOrder(7), "acknowledge_order", { localId: 7 }],
  ["listOrders", () => ipc.listOrders(), "list_orders", undefined],
  ["refreshOrders", () => ipc.refreshOrders(), "refresh_orders", undefined],
  ["orderNextCheck", () => ipc.orderNextCheck("o1"), "order_next_check", { orderId: "o1" }],
  ["sandboxClock", () => ipc.sandboxClock(), "sandbox_clock", undefined],
  ["sandboxAdvance", () => ipc.sandboxAdvance(600), "sandbox_advance", { secs: 600 }],
  ["sandboxFinishPending", () => ipc.sandboxFinishPending(), "sandbox_finish_pending", undefined],
  ["watchAddress", () => ipc.watchAddress(btcAddress), "watch_address", { address: btcAddress }],
  ["unwatchAddress", () => ipc.unwatchAddress(btcAddress), "unwatch_address", { address: btcAddress }],
  ["setApiKey", () => ipc.setApiKey("k".repeat(32)), "set_api_key", { key: "k".repeat(32) }],
  ["removeApiKey", () => ipc.removeApiKey(), "remove_api_key", undefined],
  ["setApiVersion", () => ipc.setApiVersion("v2"), "set_api_version", { version: "v2" }],
  ["setBitcoinNetwork", () => ipc.setBitcoinNetwork("signet"), "set_bitcoin_network", { network: "signet" }],
  ["setBlindSigning", () => ipc.setBlindSigning(true), "set_blind_signing", { on: true }],
  [
    "setSandboxProductionShape",
    () => ipc.setSandboxProductionShape(true),
    "set_sandbox_production_shape",
    { on: true },
  ],
  ["setTheme", () => ipc.setTheme("dark"), "set_theme", { theme: "dark" }],
  ["savePsbt", () => ipc.savePsbt(7), "save_psbt", { localId: 7 }],
  ["psbtExport", () => ipc.psbtExport(7), "psbt_export", { localId: 7 }],
  [
    "openExplorer",
    () => ipc.openExplorer("https://mempool.space/tx/ab"),
    "open_explorer",
    { url: "https://mempool.space/tx/ab" },
  ],
  ["qrSvg", () => ipc.qrSvg("bc1qxy"), "qr_svg", { text: "bc1qxy" }],
  [
    "setAffiliates",
    () => ipc.setAffiliates([{ address: "0x1111111111111111111111111111111111111111", bps: 50 }], null),
    "set_affiliates",
    { affiliates: [{ address: "0x1111111111111111111111111111111111111111", bps: 50 }], tokenSwapAffiliate: null },
  ],
  [
    "partnerDashboard",
    () => ipc.partnerDashboard({ period: "week", route: "onramp" }),
    "partner_dashboard",
    { query: { period: "week", route: "onramp" } },
  ],
  [
    "saveDashboardCsv",
    () => ipc.saveDashboardCsv({ period: "month" }),
    "save_dashboard_csv",
    { query: { period: "month" } },
  ],
  [
    "supportLookup",
    () => ipc.supportLookup({ network: "custom", customUrl: "https://gw.example", apiVersion: "v2", query: "ab12" }),
    "support_lookup",
    { query: { network: "custom", customUrl: "https://gw.example", apiVersion: "v2", query: "ab12" } },
  ],
  [
    "bundlePreview",
    () => ipc.bundlePreview(7, { includeIdentifiers: false }),
    "bundle_preview",
    { localId: 7, options: { includeIdentifiers: false } },
  ],
  [
    "saveBundle",
    () => ipc.saveBundle(7, { includeIdentifiers: true }),
    "save_bundle",
    { localId: 7, options: { includeIdentifiers: true } },
  ],
  ["importBundle", () => ipc.importBundle('{"format":1}'), "import_bundle", { text: '{"format":1}' }],
  ["openBundleFile", () => ipc.openBundleFile(), "open_bundle_file", undefined],
  [
    "reproduceQuote",
    () => ipc.reproduceQuote({ kind: "quote", text: "{}" }),
    "reproduce_quote",
    { source: { kind: "quote", text: "{}" } },
  ],
  [
    "revealPath",
    () => ipc.revealPath("/data/support-bundles/b.json"),
    "reveal_path",
    { path: "/data/support-bundles/b.json" },
  ],
  ["walletStatus", () => ipc.walletStatus(), "wallet_status", undefined],
  ["walletNew", () => ipc.walletNew(24), "wallet_new", { words: 24 }],
  [
    "walletConfirmNew",
    () => ipc.walletConfirmNew(["a", "b", "c"], "a long password"),
    "wallet_confirm_new",
    { answers: ["a", "b", "c"], password: "a long password" },
  ],
  ["walletCancelNew", () => ipc.walletCancelNew(), "wallet_cancel_new", undefined],
  [
    "walletImport",
    () => ipc.walletImport("abandon about", "TREZOR", "a long password"),
    "wallet_import",
    { phrase: "abandon about", passphrase: "TREZOR", password: "a long password" },
  ],
  [
    "walletImportKey",
    () => ipc.walletImportKey("evm", "0x01", "a long password"),
    "wallet_import_key",
    { family: "evm", key: "0x01", password: "a long password" },
  ],
  ["walletUnlock", () => ipc.walletUnlock("a long password"), "wallet_unlock", { password: "a long password" }],
  ["walletLock", () => ipc.walletLock(), "wallet_lock", undefined],
  ["walletReveal", () => ipc.walletReveal("a long password"), "wallet_reveal", { password: "a long password" }],
  ["walletRemove", () => ipc.walletRemove(), "wallet_remove", undefined],
  ["walletBalance", () => ipc.walletBalance("bitcoin"), "wallet_balance", { chain: "bitcoin", token: "" }],
  [
    "walletBalance",
    () => ipc.walletBalance("bob", "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c"),
    "wallet_balance",
    { chain: "bob", token: "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c" },
  ],
  ["walletPlan", () => ipc.walletPlan(7), "wallet_plan", { localId: 7 }],
  [
    "walletStep",
    () => ipc.walletStep(7, "pay", "1500"),
    "wallet_step",
    { localId: 7, kind: "pay", acceptedMaxFee: "1500", acceptUnsimulated: false },
  ],
  [
    "setChainEndpoints",
    () => ipc.setChainEndpoints("bob", ["https://rpc.gobob.xyz"]),
    "set_chain_endpoints",
    { chain: "bob", urls: ["https://rpc.gobob.xyz"] },
  ],
  [
    "checkChainEndpoint",
    () => ipc.checkChainEndpoint("bob", "https://rpc.gobob.xyz"),
    "check_chain_endpoint",
    { chain: "bob", url: "https://rpc.gobob.xyz" },
  ],
  [
    "walletStep",
    () => ipc.walletStep(7, "approve", "42000"),
    "wallet_step",
    { localId: 7, kind: "approve", acceptedMaxFee: "42000", acceptUnsimulated: false },
  ],
];

describe("signing without a simulation", () => {
  it("passes the person's acceptance for this order", async () => {
    invoke.mockResolvedValueOnce({ ok: "wallet_step" });
    await ipc.walletStep(7, "pay", "42000", true);
    expect(invoke).toHaveBeenLastCalledWith("wallet_step", {
      args: { localId: 7, kind: "pay", acceptedMaxFee: "42000", acceptUnsimulated: true },
    });
  });
});

describe("swap, order and settings commands", () => {
  it.each(calls)("%s calls its command with its argument names", async (_name, run, command, args) => {
    const answer = { ok: command };
    invoke.mockImplementation(async () => answer);
    await expect(run()).resolves.toBe(answer);
    expect(invoke).toHaveBeenCalledTimes(1);
    // No body for a command without arguments; otherwise its Args object under `args`.
    expect(invoke).toHaveBeenCalledWith(command, args === undefined ? undefined : { args });
  });

  it.each(calls)("%s passes a DeskError rejection through", async (_name, run) => {
    const err = { kind: "not_found", message: "There is no order 7. Refresh the list.", details: { a: 1 } };
    invoke.mockImplementation(() => Promise.reject(err));
    await expect(run()).rejects.toEqual(err);
  });

  it.each(calls)("%s turns any other rejection into a DeskError", async (_name, run, command) => {
    invoke.mockImplementation(() => Promise.reject(new Error(`${command} not allowed by ACL`)));
    const err = await run().catch((e: unknown) => e);
    expect(isDeskError(err)).toBe(true);
    expect(err).toMatchObject({ kind: "transport" });
    expect((err as { message: string }).message).toContain(`${command} not allowed`);
  });

  it("covers every command of the api object", () => {
    const covered = new Set(["getSettings", "selectNetwork", "listRoutes", ...calls.map(([name]) => name)]);
    expect(new Set(Object.keys(ipc.deskApi))).toEqual(covered);
  });

  it("has a stand-in for every command in the tests' stub", async () => {
    const stub = stubApi();
    expect(new Set(Object.keys(stub))).toEqual(new Set(Object.keys(ipc.deskApi)));
    await expect(stub.partnerDashboard({ period: "day" })).rejects.toMatchObject({
      kind: "transport",
      message: "The test did not stub partnerDashboard.",
    });
  });

  it("gives the path of a saved PSBT, or null when the dialog is cancelled", async () => {
    invoke.mockImplementation(async () => "/home/me/order-7.psbt");
    await expect(ipc.savePsbt(7)).resolves.toBe("/home/me/order-7.psbt");
    invoke.mockImplementation(async () => null);
    await expect(ipc.savePsbt(7)).resolves.toBeNull();
  });

  it("gives the path of a saved CSV, or null when the dialog is cancelled", async () => {
    invoke.mockImplementation(async () => "/home/me/partner.csv");
    await expect(ipc.saveDashboardCsv({ period: "day" })).resolves.toBe("/home/me/partner.csv");
    invoke.mockImplementation(async () => null);
    await expect(ipc.saveDashboardCsv({ period: "day" })).resolves.toBeNull();
  });

  it("gives null when the bundle file dialog is cancelled", async () => {
    invoke.mockImplementation(async () => null);
    await expect(ipc.openBundleFile()).resolves.toBeNull();
  });
});

describe("the generated argument types", () => {
  // Checked by `npm run check`: an unused @ts-expect-error fails it, so each line below must stay a type error.
  it("refuse, when the window is type-checked, a shape Rust would refuse", () => {
    const handIn: HandInArgs = { localId: 7, text: "00" };
    // @ts-expect-error -- Rust's field is `localId`, not `local_id`.
    const snakeCase: HandInArgs = { local_id: 7, text: "00" };
    // @ts-expect-error -- `text` is required.
    const missing: HandInArgs = { localId: 7 };
    // @ts-expect-error -- a misspelt name is refused (by Rust too: deny_unknown_fields), not silently dropped.
    const misspelt: StartOrderArgs = { quote: {}, acceptedLossBps: null, acceptedLoss: 50 };
    // @ts-expect-error -- `localId` is a number.
    const wrongType: HandInArgs = { localId: "7", text: "00" };
    expect([handIn, snakeCase, missing, misspelt, wrongType]).toHaveLength(5);
  });
});

describe("onDeskEvent", () => {
  it("listens to desk-event and hands over each payload", async () => {
    const unlisten = vi.fn();
    listen.mockImplementation(async () => unlisten);
    const seen: unknown[] = [];
    const stop = await ipc.onDeskEvent((event) => seen.push(event));
    expect(ipc.DESK_EVENT).toBe("desk-event");
    expect(listen).toHaveBeenCalledWith("desk-event", expect.any(Function));
    const deliver = listen.mock.calls[0][1] as (e: { event: string; id: number; payload: unknown }) => void;
    const payload = { type: "readFailed", message: "The gateway did not answer. Trying again.", retryInSecs: 15 };
    deliver({ event: "desk-event", id: 1, payload });
    expect(seen).toEqual([payload]);
    stop();
    expect(unlisten).toHaveBeenCalledTimes(1);
  });
});

describe("toDeskError", () => {
  it("keeps kind, message, code and details of a DeskError", () => {
    const e = toDeskError({ kind: "gateway", message: "No. Try later.", code: "X1", details: { a: 1 } });
    expect(e).toEqual({ kind: "gateway", message: "No. Try later.", code: "X1", details: { a: 1 } });
  });

  it("never shows JSON or a stack for odd rejections", () => {
    const odd: unknown[] = [
      { foo: 1, bar: [2, 3] },
      { kind: "made_up", message: "x" },
      { kind: "gateway", message: "" },
      null,
      undefined,
      42,
      new TypeError("boom"),
    ];
    for (const value of odd) {
      const e = toDeskError(value);
      expect(e.kind).toBe("transport");
      expect(e.message).not.toMatch(/[{}[\]]/);
      expect(e.message).not.toMatch(/\bat\s+\S+\s+\(/);
      expect(e.message).toMatch(/restart the app\.$/);
    }
    expect(toDeskError(new TypeError("boom")).message).toContain("boom");
  });

  it("keeps long reasons short", () => {
    expect(toDeskError("x".repeat(1000)).message.length).toBeLessThan(320);
  });
});
