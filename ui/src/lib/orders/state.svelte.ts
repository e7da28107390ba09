// The Orders view's state, kept for the whole window (Svelte 5 runes): the list as last read, updates merged in
// as the app sends them, the filter and page, the quiet "could not reach the gateway" line, and the actions on
// the app's unfinished orders. One instance, `orders`; tests make their own with a stand-in API.
import type { DeskError } from "../bindings/DeskError";
import type { DeskEvent } from "../bindings/DeskEvent";
import type { OrderView } from "../bindings/OrderView";
import { deskApi, onDeskEvent, toDeskError, type DeskApi } from "../ipc";
import { filterOrders, mergeOrder, needsAttention, paginate, PAGE_SIZE, type OrderFilter } from "./model";

export type Subscribe = (handler: (event: DeskEvent) => void) => Promise<() => void>;

export interface ReadFailure {
  message: string;
  retryInSecs: number;
}

export interface OrdersOptions {
  /** How events are subscribed to; `onDeskEvent` by default. */
  subscribe?: Subscribe;
  /**
   * How long the "could not reach the gateway" line stays after the next attempt is due, when no further
   * failure is reported (the app tells the window about failed reads only). Milliseconds.
   */
  readFailedGraceMs?: number;
}

function without<T>(record: Record<number, T>, key: number): Record<number, T> {
  const next = { ...record };
  delete next[key];
  return next;
}

export class OrdersState {
  /** The orders as listed, with updates merged in; null until first read (or after a network change). */
  /** Replaced whole on each change (`mergeOrder` gives a new list): raw, not a deep proxy of every order. */
  list = $state.raw<OrderView[] | null>(null);
  /** True while the list is being read. */
  loading = $state(false);
  /** True while Refresh runs (asking the app to read now, then listing). */
  refreshing = $state(false);
  /** Why the list could not be read, if it could not. */
  error = $state<DeskError | null>(null);
  /** The latest failed read of the gateway, while it stands. */
  readFailed = $state<ReadFailure | null>(null);
  filter = $state<OrderFilter>("all");
  /** The page asked for; `current.page` is the one shown (kept within range). */
  page = $state(1);
  /** Local ids of orders whose action (continue, discard, abandon, acknowledge) is running. */
  busy = $state<Record<number, true>>({});
  /** The failure of the latest action on an order, by local id. */
  actionErrors = $state<Record<number, DeskError>>({});
  /**
   * The order the person chose to sign from the "Needs your attention" section (set before switching to the Swap
   * view, which may pick it up and set it back to null).
   */
  signingLocalId = $state<number | null>(null);
  /**
   * Counts the order changes the app reported (each `orderChanged` event), so views built on the orders (the
   * Partner dashboard) know when to read theirs again.
   */
  revision = $state(0);
  /**
   * The latest state the app reported of each of its own orders (by local id), kept even before the list is first
   * read: the Swap view's Sign step follows its order by it when Orders was never opened.
   */
  reported = $state.raw<Record<number, OrderView>>({});

  readonly filtered = $derived(this.list ? filterOrders(this.list, this.filter) : []);
  readonly current = $derived(paginate(this.filtered, this.page, PAGE_SIZE));
  readonly attention = $derived(this.list ? this.list.filter(needsAttention) : []);

  readonly api: DeskApi;
  #subscribe: Subscribe;
  #graceMs: number;
  #connection: Promise<() => void> | null = null;
  #latest = 0;
  /** Updates that arrived while the list was being read, to apply on top of the answer. */
  #queue: OrderView[] | null = null;
  #readFailedTimer: ReturnType<typeof setTimeout> | null = null;
  #network: string | null = null;

  constructor(api: DeskApi = deskApi, options: OrdersOptions = {}) {
    this.api = api;
    this.#subscribe = options.subscribe ?? onDeskEvent;
    this.#graceMs = options.readFailedGraceMs ?? 60_000;
  }

  /** Subscribes to the app's updates, once; later calls do nothing. */
  connect(): Promise<void> {
    if (!this.#connection) {
      this.#connection = this.#subscribe((event) => this.handleEvent(event)).catch(() => () => {});
    }
    return this.#connection.then(() => undefined);
  }

  /** Stops listening to updates. */
  disconnect(): void {
    const connection = this.#connection;
    this.#connection = null;
    void connection?.then((unsubscribe) => unsubscribe());
    this.#clearReadFailed();
  }

  /**
   * Reads the list for the network `key` (from `desk.networkKey`). A different network than last time first
   * forgets everything shown about the previous one.
   */
  show(key: string): Promise<void> {
    if (key !== this.#network) {
      this.#network = key;
      this.#latest++;
      this.list = null;
      this.error = null;
      this.page = 1;
      this.busy = {};
      this.actionErrors = {};
      this.reported = {};
      this.#clearReadFailed();
    }
    return this.load();
  }

  /** Reads the list; only the latest read may change it. */
  async load(): Promise<void> {
    const id = ++this.#latest;
    this.loading = true;
    this.#queue = [];
    try {
      const answer = await this.api.listOrders();
      if (id !== this.#latest) return;
      let list = answer;
      for (const order of this.#queue ?? []) list = mergeOrder(list, order);
      this.list = list;
      this.error = null;
    } catch (err) {
      if (id !== this.#latest) return;
      this.error = toDeskError(err);
    } finally {
      if (id === this.#latest) {
        this.loading = false;
        this.#queue = null;
      }
    }
  }

  /** Asks the app to read every watched address and unfinished order now, then lists again. */
  async refresh(): Promise<void> {
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      await this.api.refreshOrders();
    } catch (err) {
      this.error = toDeskError(err);
      this.refreshing = false;
      return;
    }
    try {
      await this.load();
    } finally {
      this.refreshing = false;
    }
  }

  setFilter(filter: OrderFilter): void {
    this.filter = filter;
    this.page = 1;
  }

  setPage(page: number): void {
    this.page = Math.min(Math.max(1, page), this.current.pageCount);
  }

  /** Takes an unfinished order of the app one step on. */
  resume(localId: number): Promise<void> {
    return this.#act(localId, () => this.api.resumeOrder(localId));
  }

  /** Gives up an order of the app (one refused by verification). */
  discard(localId: number): Promise<void> {
    return this.#act(localId, () => this.api.discardOrder(localId));
  }

  /**
   * Abandons an unfinished order of the app, after the person confirmed: nothing is sent to the gateway, whose order
   * expires unpaid. A refusal (money may have moved) is shown on the order's row.
   */
  abandon(localId: number): Promise<void> {
    return this.#act(localId, () => this.api.abandonOrder(localId));
  }

  /** The person read what happened to a failed or refunded order: it leaves "Needs your attention". */
  acknowledge(localId: number): Promise<void> {
    return this.#act(localId, () => this.api.acknowledgeOrder(localId));
  }

  /** Puts an order the app sent (or returned from an action) into the list. */
  put(order: OrderView): void {
    if (this.#queue) this.#queue.push(order);
    if (this.list) this.list = mergeOrder(this.list, order);
    if (order.localId !== undefined) this.reported = { ...this.reported, [order.localId]: order };
  }

  /** One of the app's own orders as last listed or reported, if it was. */
  latest(localId: number): OrderView | undefined {
    return this.list?.find((o) => o.localId === localId) ?? this.reported[localId];
  }

  handleEvent(event: DeskEvent): void {
    if (event.type === "orderChanged") {
      // A read went through: the gateway is reachable again.
      this.#clearReadFailed();
      this.put(event.order);
      this.revision++;
    } else if (event.type === "readFailed") {
      this.readFailed = { message: event.message, retryInSecs: event.retryInSecs };
      this.#clearTimer();
      this.#readFailedTimer = setTimeout(
        () => {
          this.#readFailedTimer = null;
          this.readFailed = null;
        },
        Math.max(0, event.retryInSecs) * 1000 + this.#graceMs,
      );
    }
  }

  async #act(localId: number, run: () => Promise<OrderView>): Promise<void> {
    if (this.busy[localId]) return;
    this.busy = { ...this.busy, [localId]: true };
    if (this.actionErrors[localId]) this.actionErrors = without(this.actionErrors, localId);
    const network = this.#network;
    try {
      const order = await run();
      if (network === this.#network) this.put(order);
    } catch (err) {
      if (network === this.#network) this.actionErrors = { ...this.actionErrors, [localId]: toDeskError(err) };
    } finally {
      this.busy = without(this.busy, localId);
    }
  }

  #clearTimer(): void {
    if (this.#readFailedTimer !== null) clearTimeout(this.#readFailedTimer);
    this.#readFailedTimer = null;
  }

  #clearReadFailed(): void {
    this.#clearTimer();
    this.readFailed = null;
  }
}

export const orders = new OrdersState();

/**
 * Subscribes the window's orders state to the app's updates (call once, from App's onMount); gives the
 * unsubscribe function. The Orders view also subscribes when first shown, so this only makes updates arrive
 * before then.
 */
export function initOrders(): () => void {
  void orders.connect();
  return () => orders.disconnect();
}
