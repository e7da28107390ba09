// What the wallet's signing panels share: desk-core's plan of an order (read again after each signature), the
// signing in progress, the refusal in words, and the progress events of the order's transactions.
import type { DeskEvent } from "../bindings/DeskEvent";
import type { WalletTxProgress } from "../bindings/WalletTxProgress";
import { onDeskEvent, toDeskError } from "../ipc";

export class PlanSigner<P> {
  plan = $state<P | null>(null);
  loading = $state(false);
  signing = $state(false);
  error = $state<string | null>(null);
  /** The last progress of a transaction of this order (signed, sent, mined, reverted). */
  progress = $state<WalletTxProgress | null>(null);

  protected localId: number | null = null;
  #readPlan: (localId: number) => Promise<P>;
  #connection: Promise<() => void> | null = null;

  constructor(readPlan: (localId: number) => Promise<P>) {
    this.#readPlan = readPlan;
  }

  /** Listens for the progress of this order's transactions. */
  connect(subscribe: (handler: (event: DeskEvent) => void) => Promise<() => void> = onDeskEvent): void {
    if (this.#connection) return;
    this.#connection = subscribe((event) => {
      if (event.type === "walletTx" && event.progress.localId === this.localId) this.progress = event.progress;
    }).catch(() => () => {});
  }

  disconnect(): void {
    void this.#connection?.then((stop) => stop());
    this.#connection = null;
  }

  /** Reads what order `localId` still needs signed. */
  async load(localId: number): Promise<void> {
    this.localId = localId;
    this.loading = true;
    this.error = null;
    try {
      const plan = await this.#readPlan(localId);
      if (this.localId === localId) this.plan = plan;
    } catch (err) {
      if (this.localId === localId) {
        this.plan = null;
        this.error = toDeskError(err).message;
      }
    } finally {
      this.loading = false;
    }
  }

  /** Runs one signature (one at a time): its result, or null when it failed (the reason in `error`). */
  protected async runSigning<T>(action: () => Promise<T>): Promise<T | null> {
    if (this.signing) return null;
    this.signing = true;
    this.error = null;
    try {
      return await action();
    } catch (err) {
      this.error = toDeskError(err).message;
      return null;
    } finally {
      this.signing = false;
    }
  }
}
