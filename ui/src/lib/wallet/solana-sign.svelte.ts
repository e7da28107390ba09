// Signing an offramp or token swap from Solana with the app's wallet: desk-core's plan (what is sent, the fee of the
// exact message, the balances, whether the transaction's blockhash is still valid), one confirmation, and the
// progress of the transaction until Solana confirms it.
import type { OrderView } from "../bindings/OrderView";
import type { SolanaPlan } from "../bindings/SolanaPlan";
import type { WalletTxProgress } from "../bindings/WalletTxProgress";
import { deskApi, type DeskApi } from "../ipc";
import { PlanSigner } from "./plan-signer.svelte";

export class SolanaSigner extends PlanSigner<SolanaPlan> {
  #api: DeskApi;

  constructor(api: DeskApi = deskApi) {
    super((localId) => api.walletSolanaPlan(localId));
    this.#api = api;
  }

  /**
   * Signs and sends at no more than the shown fee; gives the order afterwards, or null (the reason in `error`).
   * `acceptUnsimulated`: the person accepted signing this order although its endpoint cannot simulate it.
   */
  sign(localId: number, plan: SolanaPlan, acceptUnsimulated = false): Promise<OrderView | null> {
    return this.runSigning(async () => {
      const order = await this.#api.walletSolanaStep(localId, plan.feeLamports, acceptUnsimulated);
      this.plan = null;
      return order;
    });
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
