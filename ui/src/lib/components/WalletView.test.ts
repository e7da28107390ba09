// @vitest-environment happy-dom
// The Wallet view with a stand-in for the Rust side: create (words shown once, "I wrote it down", three words
// typed back, the password twice), import, unlock, addresses, show the phrase behind the password, remove after a
// confirmation; no key ever reaches the window except the words shown on purpose.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { WalletView as View } from "../bindings/WalletView";
import type { DeskApi } from "../ipc";
import { desk } from "../stores.svelte";
import { WalletStore } from "../wallet/state.svelte";
import { byId, choose, click, settle, stubApi, text, type, chainFacts, SANDBOX_MARK } from "../testing";
import WalletView from "./WalletView.svelte";

const WORDS = "legal winner thank year wave sausage worth useful legal winner thank yellow".split(" ");
const ACCOUNTS = {
  bitcoin: { address: "bcrt1qexample", path: "m/84'/1'/0'/0/0" },
  evm: { address: "0x9858EfFD232B4033E47d90003D41EC34EcaEda94", path: "m/44'/60'/0'/0/0" },
  tron: { address: "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH", path: "m/44'/195'/0'/0/0" },
  solana: { address: "HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk", path: "m/44'/501'/0'/0'" },
};
const NONE: View = { state: "none", idleLockSecs: 300 };
const LOCKED: View = { state: "locked", idleLockSecs: 300 };
const UNLOCKED: View = { state: "unlocked", idleLockSecs: 300, locksInSecs: 300, accounts: ACCOUNTS };

let app: Record<string, unknown> | null = null;

async function start(api: DeskApi) {
  const store = new WalletStore(api);
  app = mount(WalletView, { target: document.getElementById("app")!, props: { store } });
  flushSync();
  await settle();
  return store;
}

beforeEach(() => {
  document.body.innerHTML = '<div id="app"></div>';
  desk.settings = {
    network: {
      kind: "sandbox",
      label: "Sandbox",
      baseUrl: "http://127.0.0.1:1",
      apiVersion: "v3",
      ...chainFacts("sandbox"),
    },
    customUrl: null,
    settingsPath: "/s",
    journalPath: "/j",
    keychainAvailable: true,
    watched: [],
    theme: "system",
    notices: [],
    affiliates: [],
  };
});

afterEach(() => {
  if (app) unmount(app);
  app = null;
});

describe("the Wallet view", () => {
  it("creates a wallet: the words once, three typed back, the password twice", async () => {
    const walletConfirmNew = vi.fn(async () => UNLOCKED);
    const walletNew = vi.fn(async () => ({ words: WORDS, checkPositions: [2, 5, 12] }));
    await start(stubApi({ walletStatus: async () => NONE, walletNew, walletConfirmNew }));
    expect(text("wallet-sandbox-mark")).toContain(SANDBOX_MARK);
    await click("wallet-create-12");
    expect(walletNew).toHaveBeenCalledWith(12);
    expect(text("wallet-new-words")).toContain("1. legal");
    expect(byId<HTMLButtonElement>("wallet-to-check")!.disabled).toBe(true);
    byId<HTMLInputElement>("wallet-wrote-it-down")!.click();
    flushSync();
    await click("wallet-to-check");
    // The words are no longer on screen while they are checked.
    expect(byId("wallet-new-words")).toBeNull();
    expect(text("wallet-create-check")).toContain("Word #2");
    type("wallet-check-0", "winner");
    type("wallet-check-1", "wave");
    type("wallet-check-2", "yellow");
    type("wallet-password", "short");
    type("wallet-password-again", "short");
    expect(text("wallet-password-problem")).toContain("at least 10");
    expect(byId<HTMLButtonElement>("wallet-create-confirm")!.disabled).toBe(true);
    type("wallet-password", "a long app password");
    type("wallet-password-again", "a long app password!");
    expect(text("wallet-password-problem")).toContain("differ");
    type("wallet-password-again", "a long app password");
    await click("wallet-create-confirm");
    expect(walletConfirmNew).toHaveBeenCalledWith(["winner", "wave", "yellow"], "a long app password");
    expect(text("wallet-address-bitcoin")).toBe("bcrt1qexample");
    expect(text("wallet-address-evm")).toBe(ACCOUNTS.evm.address);
  });

  it("says why the check failed and keeps the words to try again", async () => {
    const refusal = { kind: "invalid_input", message: "Word #5 does not match the recovery phrase." };
    await start(
      stubApi({
        walletStatus: async () => NONE,
        walletNew: async () => ({ words: WORDS, checkPositions: [2, 5, 12] }),
        walletConfirmNew: () => Promise.reject(refusal),
      }),
    );
    await click("wallet-create-24");
    byId<HTMLInputElement>("wallet-wrote-it-down")!.click();
    flushSync();
    await click("wallet-to-check");
    type("wallet-check-0", "winner");
    type("wallet-check-1", "wrong");
    type("wallet-check-2", "yellow");
    type("wallet-password", "a long app password");
    type("wallet-password-again", "a long app password");
    await click("wallet-create-confirm");
    expect(text("wallet-error")).toContain("Word #5");
    expect(byId("wallet-create-check")).not.toBeNull();
  });

  it("imports a phrase with a passphrase, unlocks, locks, reveals behind the password and removes after a tick", async () => {
    const walletImport = vi.fn(async () => UNLOCKED);
    const walletUnlock = vi.fn(async () => UNLOCKED);
    const walletLock = vi.fn(async () => LOCKED);
    const walletReveal = vi.fn(async () => WORDS);
    const walletRemove = vi.fn(async () => NONE);
    await start(
      stubApi({ walletStatus: async () => NONE, walletImport, walletUnlock, walletLock, walletReveal, walletRemove }),
    );
    await click("wallet-import-start");
    type("wallet-phrase", WORDS.join(" "));
    type("wallet-passphrase", "TREZOR");
    type("wallet-password", "a long app password");
    type("wallet-password-again", "a long app password");
    await click("wallet-import-confirm");
    expect(walletImport).toHaveBeenCalledWith(WORDS.join(" "), "TREZOR", "a long app password");
    expect(text("wallet-address-tron")).toBe(ACCOUNTS.tron.address);

    await click("wallet-lock");
    expect(byId("wallet-address-tron")).toBeNull();
    type("wallet-unlock-password", "a long app password");
    await click("wallet-unlock");
    expect(walletUnlock).toHaveBeenCalledWith("a long app password");
    expect(byId<HTMLInputElement>("wallet-unlock-password")).toBeNull();

    expect(byId("wallet-revealed-words")).toBeNull();
    type("wallet-reveal-password", "a long app password");
    await click("wallet-reveal");
    expect(text("wallet-revealed-words")).toContain("12. yellow");
    await click("wallet-hide");
    expect(byId("wallet-revealed-words")).toBeNull();

    expect(byId<HTMLButtonElement>("wallet-remove")!.disabled).toBe(true);
    byId<HTMLInputElement>("wallet-remove-confirm")!.click();
    flushSync();
    await click("wallet-remove");
    expect(walletRemove).toHaveBeenCalledTimes(1);
    expect(byId("wallet-none")).not.toBeNull();
  });

  it("imports a single EVM private key and shows its one account", async () => {
    const evmOnly: View = {
      state: "unlocked",
      idleLockSecs: 300,
      accounts: { evm: { address: "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23", path: "imported key" } },
    };
    const walletImportKey = vi.fn(async () => evmOnly);
    await start(stubApi({ walletStatus: async () => NONE, walletImportKey }));
    await click("wallet-import-start");
    choose("wallet-import-kind", "evm");
    await settle();
    expect(byId("wallet-phrase")).toBeNull();
    expect(byId<HTMLButtonElement>("wallet-import-confirm")!.disabled).toBe(true);
    type("wallet-key", "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318");
    type("wallet-password", "a long app password");
    type("wallet-password-again", "a long app password");
    await click("wallet-import-confirm");
    expect(walletImportKey).toHaveBeenCalledWith(
      "evm",
      "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
      "a long app password",
    );
    expect(text("wallet-address-evm")).toBe("0x2c7536E3605D9C16a7a3D7b1898e529396a65c23");
    expect(byId("wallet-address-bitcoin")).toBeNull();
    expect(byId("wallet-address-solana")).toBeNull();
  });

  it("hides the addresses when desk-core says the wallet locked", async () => {
    let handler: ((e: { type: "walletLocked" }) => void) | null = null;
    let state: View = UNLOCKED;
    const store = new WalletStore(stubApi({ walletStatus: async () => state }));
    store.connect(async (h) => {
      handler = h as typeof handler;
      return () => {};
    });
    app = mount(WalletView, { target: document.getElementById("app")!, props: { store } });
    await settle();
    expect(text("wallet-address-bitcoin")).toBe("bcrt1qexample");
    state = LOCKED;
    handler!({ type: "walletLocked" });
    await settle();
    expect(byId("wallet-address-bitcoin")).toBeNull();
    expect(byId("wallet-locked")).not.toBeNull();
  });
});
