// @vitest-environment happy-dom
// The EVM endpoints of Settings: the defaults shown per chain, the person's own saved (one per line), each checked
// for its chain id and latest block (a refusal in words), and back to the defaults.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mount, unmount } from "svelte";
import type { SettingsView } from "../../bindings/SettingsView";
import type { ChainEndpointsView } from "../../bindings/ChainEndpointsView";
import { desk } from "../../stores.svelte";
import { byId, chainFacts, choose, click, settle, stubApi, text } from "../../testing";
import ChainEndpoints from "./ChainEndpoints.svelte";

function settings(chainEndpoints: ChainEndpointsView[]): SettingsView {
  return {
    network: {
      kind: "production",
      label: "Production",
      baseUrl: "https://gateway.example",
      apiVersion: "v3",
      ...chainFacts("production"),
    },
    customUrl: null,
    settingsPath: "/s.json",
    keychainAvailable: true,
    watched: [],
    theme: "system",
    notices: [],
    affiliates: [],
    chainEndpoints,
  };
}

const DEFAULTS: ChainEndpointsView[] = [
  { chain: "ethereum", urls: ["https://a.example", "https://b.example"], custom: false },
  { chain: "bob", urls: ["https://rpc.gobob.xyz", "https://bob.example"], custom: false },
];

let app: Record<string, unknown> | null = null;

beforeEach(() => {
  document.body.innerHTML = '<div id="app"></div>';
});

afterEach(() => {
  if (app) unmount(app);
  app = null;
});

function edit(value: string) {
  const area = byId<HTMLTextAreaElement>("chain-endpoints-urls")!;
  area.value = value;
  area.dispatchEvent(new Event("input", { bubbles: true }));
}

describe("EVM endpoints in Settings", () => {
  it("saves the person's endpoints for a chain, checks them, and goes back to the defaults", async () => {
    desk.settings = settings(DEFAULTS);
    const setChainEndpoints = vi.fn(async (chain: string, urls: string[]) =>
      settings(
        DEFAULTS.map((e) =>
          e.chain === chain ? { chain, urls: urls.length ? urls : e.urls, custom: urls.length > 0 } : e,
        ),
      ),
    );
    const checkChainEndpoint = vi.fn(async (chain: string, url: string) => {
      if (url.includes("wrong")) throw { kind: "transport", message: `${url} is chain 1, not ${chain}.` };
      return { url, chainId: 60808, latestBlock: 123, answered: "chain id 60808, latest block 123" };
    });
    const api = stubApi({ setChainEndpoints, checkChainEndpoint });
    app = mount(ChainEndpoints, { target: document.getElementById("app")!, props: { api } });
    await settle();
    expect(byId<HTMLTextAreaElement>("chain-endpoints-urls")!.value).toBe("https://a.example\nhttps://b.example");
    choose("chain-endpoints-chain", "bob");
    await settle();
    expect(byId<HTMLTextAreaElement>("chain-endpoints-urls")!.value).toBe("https://rpc.gobob.xyz\nhttps://bob.example");
    expect(byId<HTMLButtonElement>("chain-endpoints-save")!.disabled).toBe(true);

    edit("https://mine.example\n\nhttps://wrong.example ");
    await settle();
    await click("chain-endpoints-check");
    expect(checkChainEndpoint).toHaveBeenCalledWith("bob", "https://mine.example");
    expect(text("chain-endpoints-checks")).toContain("https://mine.example: chain id 60808, latest block 123");
    expect(text("chain-endpoints-checks")).toContain("https://wrong.example is chain 1, not bob.");

    await click("chain-endpoints-save");
    expect(setChainEndpoints).toHaveBeenCalledWith("bob", ["https://mine.example", "https://wrong.example"]);
    expect(byId<HTMLTextAreaElement>("chain-endpoints-urls")!.value).toBe(
      "https://mine.example\nhttps://wrong.example",
    );
    await click("chain-endpoints-reset");
    expect(setChainEndpoints).toHaveBeenLastCalledWith("bob", []);
    expect(byId("chain-endpoints-reset")).toBeNull();
  });

  it("is not shown on the Sandbox, whose chains are its own nodes", async () => {
    desk.settings = { ...settings([]), chainEndpoints: undefined };
    app = mount(ChainEndpoints, { target: document.getElementById("app")!, props: { api: stubApi() } });
    await settle();
    expect(byId("chain-endpoints")).toBeNull();
  });
});
