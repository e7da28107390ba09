// Signing an offramp or token swap from an EVM chain with the app's wallet: desk-core's plan of what is still to be
// signed (approval, then the order's call), one confirmation per step, and the progress of each transaction.
import type { DeskEvent } from "../bindings/DeskEvent";
import type { EvmPlan } from "../bindings/EvmPlan";
import type { OrderView } from "../bindings/OrderView";
import type { PlannedTx } from "../bindings/PlannedTx";
import type { WalletTxProgress } from "../bindings/WalletTxProgress";
import { deskApi, onDeskEvent, toDeskError, type DeskApi } from "../ipc";

export class EvmSigner {
  plan = $state<EvmPlan | null>(null);
  loading = $state(false);
  signing = $state(false);
  error = $state<string | null>(null);
  /** The last progress of a transaction of this order (signed, sent, mined, reverted). */
  progress = $state<WalletTxProgress | null>(null);

  #api: DeskApi;
  #localId: number | null = null;
  #connection: Promise<() => void> | null = null;

  constructor(api: DeskApi = deskApi) {
    this.#api = api;
  }

  /** Listens for the progress of this order's transactions. */
  connect(subscribe: (handler: (event: DeskEvent) => void) => Promise<() => void> = onDeskEvent): void {
    if (this.#connection) return;
    this.#connection = subscribe((event) => {
      if (event.type === "walletTx" && event.progress.localId === this.#localId) this.progress = event.progress;
    }).catch(() => () => {});
  }

  disconnect(): void {
    void this.#connection?.then((stop) => stop());
    this.#connection = null;
  }

  /** Reads what order `localId` still needs signed. */
  async load(localId: number): Promise<void> {
    this.#localId = localId;
    this.loading = true;
    this.error = null;
    try {
      const plan = await this.#api.walletEvmPlan(localId);
      if (this.#localId === localId) this.plan = plan;
    } catch (err) {
      if (this.#localId === localId) {
        this.plan = null;
        this.error = toDeskError(err).message;
      }
    } finally {
      this.loading = false;
    }
  }

  /**
   * Signs `step` (the one shown and confirmed) at no more than its shown gas fee; gives the order afterwards, or null
   * when it failed (the reason in `error`). The plan is read again for the next step.
   */
  async sign(localId: number, step: PlannedTx): Promise<OrderView | null> {
    if (this.signing) return null;
    this.signing = true;
    this.error = null;
    try {
      const order = await this.#api.walletEvmStep(localId, step.kind, step.maxFeeWei);
      if (order.stage === "verified") await this.load(localId);
      else this.plan = null;
      return order;
    } catch (err) {
      this.error = toDeskError(err).message;
      return null;
    } finally {
      this.signing = false;
    }
  }
}

/** What a step's button says. */
export function stepButton(step: PlannedTx): string {
  switch (step.kind) {
    case "resetApproval":
      return "Sign: reset the allowance";
    case "approve":
      return "Sign: approve";
    default:
      return "Sign and send";
  }
}

/** A transaction's progress in words. */
export function progressText(p: WalletTxProgress): string {
  const what = p.kind === "pay" ? "The payment" : p.kind === "approve" ? "The approval" : "The allowance reset";
  switch (p.state) {
    case "signed":
      return `${what} ${p.hash} is signed and kept; sending it…`;
    case "sent":
      return `${what} ${p.hash} is sent; waiting for it to be mined…`;
    case "mined":
      return `${what} ${p.hash} is mined (${p.confirmations} confirmation${p.confirmations === 1 ? "" : "s"}).`;
    default:
      return `${what} ${p.hash} reverted: it did nothing but cost its gas.`;
  }
}
