import { describe, expect, it } from "vitest";
import { NETWORK_OPTIONS, customChoice, isNetworkKind, networkDetail, networkKey } from "./networks";
import { chainFacts } from "./testing";

describe("network options", () => {
  it("lists the four networks in order with their labels", () => {
    expect(NETWORK_OPTIONS.map((o) => [o.value, o.label])).toEqual([
      ["production", "Production"],
      ["staging", "Staging"],
      ["custom", "Custom URL"],
      ["sandbox", "Sandbox"],
    ]);
  });

  it("knows which strings are network kinds", () => {
    expect(isNetworkKind("sandbox")).toBe(true);
    expect(isNetworkKind("Sandbox")).toBe(false);
    expect(isNetworkKind("")).toBe(false);
  });
});

describe("customChoice", () => {
  it("trims and accepts http(s) URLs", () => {
    expect(customChoice("  https://gw.example.com/api ")).toEqual({
      ok: true,
      choice: { kind: "custom", customUrl: "https://gw.example.com/api" },
    });
    expect(customChoice("http://localhost:8080").ok).toBe(true);
  });

  it("refuses an empty field with a sentence that says what to do", () => {
    for (const input of ["", "   ", "\t\n"]) {
      const result = customChoice(input);
      expect(result.ok, input).toBe(false);
      if (!result.ok) {
        expect(result.error.kind).toBe("invalid_input");
        expect(result.error.message).toMatch(/Connect\.$/);
      }
    }
  });

  it("leaves every other judgement of the URL to desk-core", () => {
    expect(customChoice("gw.example.com")).toEqual({
      ok: true,
      choice: { kind: "custom", customUrl: "gw.example.com" },
    });
  });
});

describe("network text", () => {
  const network = {
    kind: "sandbox",
    label: "Sandbox",
    baseUrl: "https://sandbox.example",
    apiVersion: "v2",
    ...chainFacts("sandbox"),
  } as const;

  it("shows base URL and API version", () => {
    expect(networkDetail(network)).toBe("https://sandbox.example · API v2");
  });

  it("changes key when the network changes", () => {
    expect(networkKey(network)).not.toBe(networkKey({ ...network, apiVersion: "v3" }));
    expect(networkKey(network)).not.toBe(networkKey({ ...network, kind: "custom" }));
    expect(networkKey(network)).toBe(networkKey({ ...network }));
  });
});
