// Typed wrappers around the Tauri commands. Every rejection comes back as a DeskError,
// so the window only ever shows a sentence for a person, never raw JSON or a stack.
import { invoke, isTauri } from "@tauri-apps/api/core";
import type { DeskError } from "./bindings/DeskError";
import type { ErrorKind } from "./bindings/ErrorKind";
import type { NetworkChoice } from "./bindings/NetworkChoice";
import type { RouteView } from "./bindings/RouteView";
import type { SettingsView } from "./bindings/SettingsView";

const ERROR_KINDS: readonly ErrorKind[] = [
  "invalid_input",
  "gateway",
  "transport",
  "rate_limited",
  "not_found",
  "keychain",
  "settings",
  "sandbox",
];

const MAX_REASON = 200;

function isErrorKind(value: unknown): value is ErrorKind {
  return typeof value === "string" && (ERROR_KINDS as readonly string[]).includes(value);
}

/** True when `value` has the shape the Rust side rejects with. */
export function isDeskError(value: unknown): value is DeskError {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    isErrorKind(v.kind) &&
    typeof v.message === "string" &&
    v.message.trim() !== "" &&
    (v.code === undefined || v.code === null || typeof v.code === "string")
  );
}

/** A short, single-line reason taken from a non-DeskError rejection, or null. */
function reasonOf(value: unknown): string | null {
  let text: string | null = null;
  if (typeof value === "string") text = value;
  else if (value instanceof Error) text = value.message;
  if (text === null) return null;
  text = text.replace(/\s+/g, " ").trim();
  if (text === "") return null;
  return text.length > MAX_REASON ? `${text.slice(0, MAX_REASON - 1)}…` : text;
}

function runningInTauri(): boolean {
  try {
    return isTauri();
  } catch {
    return false;
  }
}

/** Turns any rejection into a DeskError; DeskError-shaped values pass through unchanged. */
export function toDeskError(value: unknown): DeskError {
  if (isDeskError(value)) {
    const out: DeskError = { kind: value.kind, message: value.message };
    if (typeof value.code === "string") out.code = value.code;
    if (value.details !== undefined) out.details = value.details;
    return out;
  }
  if (!runningInTauri() && typeof window !== "undefined") {
    return {
      kind: "transport",
      message:
        "This window is not running inside Gateway Desk, so it cannot reach the app. Open it from the Gateway Desk app.",
    };
  }
  const reason = reasonOf(value);
  return {
    kind: "transport",
    message: reason
      ? `Gateway Desk could not complete the request (${reason}). Try again; if it keeps failing, restart the app.`
      : "Gateway Desk could not complete the request. Try again; if it keeps failing, restart the app.",
    details: reason ?? undefined,
  };
}

async function call<T>(command: string, args?: Record<string, unknown>): Promise<T> {
  try {
    return await invoke<T>(command, args);
  } catch (err) {
    throw toDeskError(err);
  }
}

/** The settings as the window shows them. Rejects with a DeskError. */
export function getSettings(): Promise<SettingsView> {
  return call<SettingsView>("get_settings");
}

/** Switches network and returns the new settings. Rejects with a DeskError. */
export function selectNetwork(choice: NetworkChoice): Promise<SettingsView> {
  return call<SettingsView>("select_network", { choice });
}

/** The routes of the current network. Rejects with a DeskError. */
export function listRoutes(): Promise<RouteView[]> {
  return call<RouteView[]>("list_routes");
}

/** The commands as one object, so stores can be given a stand-in in tests. */
export interface DeskApi {
  getSettings(): Promise<SettingsView>;
  selectNetwork(choice: NetworkChoice): Promise<SettingsView>;
  listRoutes(): Promise<RouteView[]>;
}

export const deskApi: DeskApi = { getSettings, selectNetwork, listRoutes };
