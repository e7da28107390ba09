// Signing an offramp or token swap from Solana with the app's wallet: desk-core's plan (what is sent, the fee of the
// exact message, the balances, whether the transaction's blockhash is still valid), one confirmation, and the
// progress of the transaction until Solana confirms it.
import type { DeskEvent } from "../bindings/DeskEvent";
import type { OrderView } from "../bindings/OrderView";
import type { SolanaPlan } from "../bindings/SolanaPlan";
import type { WalletTxProgress } from "../bindings/WalletTxProgress";
import { deskApi, onDeskEvent, toDeskError, type DeskApi } from "../ipc";

export class SolanaSigner {
  plan = $state<SolanaPlan | null>(null);
  loading = $state(false);
  signing = $state(false);
  error = $state<string | null>(null);
  /** The last progress of this order's transaction (signed, sent, confirmed, failed). */
  progress = $state<WalletTxProgress | null>(null);

  #api: DeskApi;
  #localId: number | null = null;
  #connection: Promise<() => void> | null = null;

  constructor(api: DeskApi = deskApi) {
    this.#api = api;
  }

  /** Listens for the progress of this order's transaction. */
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

  /** Reads what signing order `localId` sends and costs. */
  async load(localId: number): Promise<void> {
    this.#localId = localId;
    this.loading = true;
    this.error = null;
    try {
      const plan = await this.#api.walletSolanaPlan(localId);
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

  /** Signs and sends at no more than the shown fee; gives the order afterwards, or null (the reason in `error`). */
  async sign(localId: number, plan: SolanaPlan): Promise<OrderView | null> {
    if (this.signing) return null;
    this.signing = true;
    this.error = null;
    try {
      const order = await this.#api.walletSolanaStep(localId, plan.feeLamports);
      this.plan = null;
      return order;
    } catch (err) {
      this.error = toDeskError(err).message;
      return null;
    } finally {
      this.signing = false;
    }
  }
}

/** The transaction's progress in words. */
export function solanaProgressText(p: WalletTxProgress): string {
  switch (p.state) {
    case "signed":
      return `The transaction ${p.hash} is signed and kept; sending it…`;
    case "sent":
      return `The transaction ${p.hash} is sent; waiting for Solana to confirm it…`;
    case "mined":
      return `The transaction ${p.hash} is confirmed on Solana.`;
    default:
      return `The transaction ${p.hash} failed or was never executed; nothing was paid.`;
  }
}
