// @vitest-environment happy-dom
// The network in Settings: a custom URL is checked by desk-core before it is saved ("Checking <url>…" meanwhile), and
// a refusal is said beside the address (announced, the field marked invalid) until the address is edited.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mount, unmount } from "svelte";
import type { NetworkChoice } from "../../bindings/NetworkChoice";
import type { SettingsView } from "../../bindings/SettingsView";
import { DeskState } from "../../stores.svelte";
import { byId, chainFacts, click, settle, stubApi, text, type } from "../../testing";
import NetworkSettings from "./NetworkSettings.svelte";

function settings(kind: "sandbox" | "custom", customUrl: string | null = null): SettingsView {
  return {
    network: {
      kind,
      label: kind === "custom" ? "Custom URL" : "Sandbox",
      baseUrl: customUrl ?? "http://127.0.0.1:4000",
      apiVersion: "v3",
      ...chainFacts(kind),
    },
    customUrl,
    settingsPath: "/s.json",
    keychainAvailable: true,
    watched: [],
    theme: "system",
    notices: [],
    affiliates: [],
  };
}

const REFUSAL =
  "https://wrong.example returned a web page (titled “Welcome to nginx!”), not the gateway. Check the address: it " +
  "should be the gateway's API base URL (without /v4, /v3, /v2 or /v1). Nothing was saved; the network in use stays.";

let app: Record<string, unknown> | null = null;

beforeEach(() => {
  document.body.innerHTML = '<div id="app"></div>';
});

afterEach(() => {
  if (app) unmount(app);
  app = null;
});

function chooseCustom() {
  const radio = byId<HTMLInputElement>("settings-network-custom")!;
  radio.checked = true;
  radio.dispatchEvent(new Event("change", { bubbles: true }));
}

describe("the network in Settings", () => {
  it("says which address it is checking, and why one is refused, beside the field", async () => {
    let answer: (view: SettingsView) => void = () => {};
    let refuse: (err: unknown) => void = () => {};
    const selectNetwork = vi.fn(
      (choice: NetworkChoice) =>
        new Promise<SettingsView>((resolve, reject) => {
          answer = resolve;
          refuse = reject;
          void choice;
        }),
    );
    const desk = new DeskState(stubApi({ selectNetwork }));
    desk.settings = settings("sandbox");
    desk.settingsStatus = "ready";
    app = mount(NetworkSettings, { target: document.getElementById("app")!, props: { desk } });
    await settle();

    chooseCustom();
    await settle();
    const input = byId<HTMLInputElement>("settings-custom-url-input")!;
    expect(input.getAttribute("aria-invalid")).toBeNull();
    expect(byId("settings-custom-url-reason")?.getAttribute("aria-live")).toBe("polite");
    expect(input.getAttribute("aria-describedby")).toBe("settings-custom-url-reason");

    // Refused: the reason beside the field, not in the window's alert; the network in use stays.
    type("settings-custom-url-input", " https://wrong.example ");
    byId<HTMLButtonElement>("settings-custom-url-apply")!.click();
    await settle();
    expect(selectNetwork).toHaveBeenCalledWith({ kind: "custom", customUrl: "https://wrong.example" });
    expect(text("settings-network-busy")).toBe("Checking https://wrong.example…");
    expect(input.disabled).toBe(true);
    refuse({ kind: "transport", message: REFUSAL, details: { field: "customUrl" } });
    await settle();
    expect(byId("settings-network-busy")).toBeNull();
    expect(text("settings-custom-url-reason")).toBe(REFUSAL);
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(desk.error).toBeNull();
    expect(desk.settings?.network.kind).toBe("sandbox");
    expect(text("settings-network-current")).toContain("Sandbox");

    // Editing the address clears the reason.
    type("settings-custom-url-input", "http://127.0.0.1:8787");
    expect(text("settings-custom-url-reason")).toBe("");
    expect(input.getAttribute("aria-invalid")).toBeNull();

    // Accepted: the custom network is in use.
    await click("settings-custom-url-apply");
    expect(text("settings-network-busy")).toBe("Checking http://127.0.0.1:8787…");
    answer(settings("custom", "http://127.0.0.1:8787"));
    await settle();
    expect(byId("settings-network-busy")).toBeNull();
    expect(text("settings-network-current")).toContain("Custom URL");
    expect(text("settings-custom-url-reason")).toBe("");
  });

  it("says Switching… for a fixed network", async () => {
    let answer: (view: SettingsView) => void = () => {};
    const desk = new DeskState(
      stubApi({ selectNetwork: () => new Promise<SettingsView>((resolve) => (answer = resolve)) }),
    );
    desk.settings = settings("custom", "http://127.0.0.1:8787");
    desk.settingsStatus = "ready";
    app = mount(NetworkSettings, { target: document.getElementById("app")!, props: { desk } });
    await settle();
    const radio = byId<HTMLInputElement>("settings-network-sandbox")!;
    radio.checked = true;
    radio.dispatchEvent(new Event("change", { bubbles: true }));
    await settle();
    expect(text("settings-network-busy")).toBe("Switching…");
    answer(settings("sandbox"));
    await settle();
    expect(byId("settings-network-busy")).toBeNull();
  });
});
