// The network switch's options and the checks made before asking the Rust side to switch.
import type { DeskError } from "./bindings/DeskError";
import type { NetworkChoice } from "./bindings/NetworkChoice";
import type { NetworkKind } from "./bindings/NetworkKind";
import type { NetworkView } from "./bindings/NetworkView";

export interface NetworkOption {
  value: NetworkKind;
  label: string;
}

/** The options of the header's network switch, in the order they are listed. */
export const NETWORK_OPTIONS: readonly NetworkOption[] = [
  { value: "production", label: "Production" },
  { value: "staging", label: "Staging" },
  { value: "custom", label: "Custom URL" },
  { value: "sandbox", label: "Sandbox" },
];

export function isNetworkKind(value: string): value is NetworkKind {
  return NETWORK_OPTIONS.some((o) => o.value === value);
}

export type CustomChoiceResult = { ok: true; choice: NetworkChoice } | { ok: false; error: DeskError };

/**
 * The choice for a custom gateway URL, or a DeskError when the field is plainly unusable.
 * The rule for what makes a usable URL lives in desk-core; this only spares a round trip for an
 * empty field.
 */
export function customChoice(rawUrl: string): CustomChoiceResult {
  const url = rawUrl.trim();
  if (url === "") {
    return {
      ok: false,
      error: {
        kind: "invalid_input",
        message: "The custom gateway URL is empty. Enter a URL starting with https:// and choose Connect.",
      },
    };
  }
  return { ok: true, choice: { kind: "custom", customUrl: url } };
}

/** A choice for one of the fixed networks (everything but custom). */
export function fixedChoice(kind: Exclude<NetworkKind, "custom">): NetworkChoice {
  return { kind };
}

/** Smaller header text: the base URL and the API version. */
export function networkDetail(network: NetworkView): string {
  return `${network.baseUrl} · API ${network.apiVersion}`;
}

/** Changes whenever the network in use changes; views reload their data on a new key. */
export function networkKey(network: NetworkView): string {
  return `${network.kind}|${network.baseUrl}|${network.apiVersion}`;
}
