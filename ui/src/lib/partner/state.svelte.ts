// The Partner view's state, kept for the whole window (Svelte 5 runes): the period and route chosen, the dashboard
// as last read (only the latest read may change it), reading it again when the orders change (at most once per
// `reloadDelayMs`, so a burst of updates costs one read), and the CSV export. One instance, `partner`; tests make
// their own with a stand-in API.
import type { DeskError } from "../bindings/DeskError";
import type { Dashboard } from "../bindings/Dashboard";
import type { DashboardQuery } from "../bindings/DashboardQuery";
import type { Period } from "../bindings/Period";
import { deskApi, toDeskError, type DeskApi } from "../ipc";
import { queryOf, type RouteFilter } from "./model";

export interface PartnerOptions {
  /** How long after an order change the dashboard is read again (updates meanwhile join that read). Milliseconds. */
  reloadDelayMs?: number;
}

export class PartnerState {
  period = $state<Period>("day");
  route = $state<RouteFilter>("all");
  /** The dashboard as last read for the current network; null until read (or after a network change). */
  dashboard = $state<Dashboard | null>(null);
  loading = $state(false);
  /** Why the dashboard could not be read, if it could not. */
  error = $state<DeskError | null>(null);
  /** The rows table shows every row, not only the newest ones. */
  showAllRows = $state(false);
  exporting = $state(false);
  /** Where the latest CSV export was saved. */
  csvPath = $state<string | null>(null);
  /** The latest export's save dialog was cancelled. */
  csvCancelled = $state(false);
  exportError = $state<DeskError | null>(null);

  readonly query: DashboardQuery = $derived(queryOf(this.period, this.route));

  readonly api: DeskApi;
  #delay: number;
  #latest = 0;
  #network: string | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(api: DeskApi = deskApi, options: PartnerOptions = {}) {
    this.api = api;
    this.#delay = options.reloadDelayMs ?? 1000;
  }

  /** Reads the dashboard for the network `key`; a different network first forgets what was shown. */
  show(key: string): Promise<void> {
    if (key !== this.#network) {
      this.#network = key;
      this.#latest++;
      this.dashboard = null;
      this.error = null;
      this.csvPath = null;
      this.csvCancelled = false;
      this.exportError = null;
      this.showAllRows = false;
    }
    return this.load();
  }

  /** Reads the dashboard for the current query; only the latest read may change what is shown. */
  async load(): Promise<void> {
    this.#cancelReload();
    const id = ++this.#latest;
    const query = this.query;
    this.loading = true;
    try {
      const answer = await this.api.partnerDashboard(query);
      if (id !== this.#latest) return;
      this.dashboard = answer;
      this.error = null;
    } catch (err) {
      if (id !== this.#latest) return;
      this.error = toDeskError(err);
    } finally {
      if (id === this.#latest) this.loading = false;
    }
  }

  setPeriod(period: Period): Promise<void> {
    if (period === this.period) return Promise.resolve();
    this.period = period;
    this.showAllRows = false;
    return this.load();
  }

  setRoute(route: RouteFilter): Promise<void> {
    if (route === this.route) return Promise.resolve();
    this.route = route;
    this.showAllRows = false;
    return this.load();
  }

  /** An order changed: read the dashboard again soon (once for a burst of changes). */
  ordersChanged(): void {
    if (this.#network === null || this.#timer !== null) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.load();
    }, this.#delay);
  }

  /** Stops a pending re-read (the view is gone). */
  stop(): void {
    this.#cancelReload();
  }

  /** Asks where to save the rows behind the dashboard as CSV, and saves them. */
  async exportCsv(): Promise<void> {
    if (this.exporting) return;
    this.exporting = true;
    this.exportError = null;
    this.csvCancelled = false;
    const network = this.#network;
    try {
      const path = await this.api.saveDashboardCsv(this.query);
      if (network !== this.#network) return;
      if (path === null) this.csvCancelled = true;
      else this.csvPath = path;
    } catch (err) {
      if (network === this.#network) this.exportError = toDeskError(err);
    } finally {
      this.exporting = false;
    }
  }

  #cancelReload(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}

export const partner = new PartnerState();
