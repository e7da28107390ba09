// App-wide state: the settings (and so the current network), the active view, notices and
// the error shown in the alert region. Svelte 5 runes; one instance, `desk`, for the window.
import type { DeskError } from "./bindings/DeskError";
import type { NetworkChoice } from "./bindings/NetworkChoice";
import type { SettingsView } from "./bindings/SettingsView";
import { deskApi, toDeskError, type DeskApi } from "./ipc";
import { networkKey } from "./networks";
import { DEFAULT_VIEW, firstView, rememberView, type ViewId } from "./views";

export type ErrorSource = "settings" | "network" | "routes";

export interface ShownError {
  source: ErrorSource;
  error: DeskError;
}

export type SettingsStatus = "loading" | "ready" | "failed";

export class DeskState {
  /** Replaced whole with each answer of the Rust side: raw, not a deep proxy. */
  settings = $state.raw<SettingsView | null>(null);
  settingsStatus = $state<SettingsStatus>("loading");
  /** Swap on a first start, then the view the person was on when they left (remembered in the window's storage). */
  activeView = $state<ViewId>(DEFAULT_VIEW);
  /** True while select_network is running. */
  switching = $state(false);
  /** Notices of the latest settings that the person has not dismissed. */
  notices = $state<string[]>([]);
  /** The error in the alert region; the latest failure wins. */
  error = $state<ShownError | null>(null);

  /**
   * Changes when the network in use changes; null until the settings have been asked for.
   * Views that depend on the network reload when it changes.
   */
  networkKey = $derived.by((): string | null => {
    if (this.settings) return networkKey(this.settings.network);
    return this.settingsStatus === "failed" ? "unknown" : null;
  });

  #api: DeskApi;
  #storage: Pick<Storage, "getItem" | "setItem"> | null | undefined;

  /** `storage`: where the view shown is remembered (the window's when not given; null for nowhere). */
  constructor(api: DeskApi = deskApi, storage?: Pick<Storage, "getItem" | "setItem"> | null) {
    this.#api = api;
    this.#storage = storage;
    // An undefined storage lets firstView and rememberView use the window's.
    this.activeView = firstView(storage);
  }

  showView(id: ViewId): void {
    this.activeView = id;
    rememberView(id, this.#storage);
  }

  showError(source: ErrorSource, err: unknown): void {
    this.error = { source, error: toDeskError(err) };
  }

  /** Clears the shown error; with a source, only when it came from there. */
  clearError(source?: ErrorSource): void {
    if (this.error && (source === undefined || this.error.source === source)) this.error = null;
  }

  dismissNotice(index: number): void {
    this.notices = this.notices.filter((_, i) => i !== index);
  }

  #applySettings(view: SettingsView): void {
    this.settings = view;
    this.settingsStatus = "ready";
    this.notices = [...view.notices];
  }

  async loadSettings(): Promise<void> {
    this.settingsStatus = "loading";
    try {
      this.#applySettings(await this.#api.getSettings());
      this.clearError("settings");
    } catch (err) {
      this.settingsStatus = this.settings ? "ready" : "failed";
      this.showError("settings", err);
    }
  }

  /**
   * Switches network. On failure the previous settings stay in place, the error is shown,
   * and false is returned.
   */
  async switchNetwork(choice: NetworkChoice): Promise<boolean> {
    if (this.switching) return false;
    this.switching = true;
    this.clearError("network");
    try {
      this.#applySettings(await this.#api.selectNetwork(choice));
      this.clearError("settings");
      return true;
    } catch (err) {
      this.showError("network", err);
      return false;
    } finally {
      this.switching = false;
    }
  }
}

export const desk = new DeskState();
