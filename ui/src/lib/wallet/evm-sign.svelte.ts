// Signing an offramp or token swap from an EVM chain with the app's wallet: desk-core's plan of what is still to be
// signed (approval, then the order's call), one confirmation per step, and the progress of each transaction.
import type { EvmPlan } from "../bindings/EvmPlan";
import type { OrderView } from "../bindings/OrderView";
import type { PlannedTx } from "../bindings/PlannedTx";
import type { WalletTxProgress } from "../bindings/WalletTxProgress";
import { deskApi, type DeskApi } from "../ipc";
import { PlanSigner } from "./plan-signer.svelte";

export class EvmSigner extends PlanSigner<EvmPlan> {
  #api: DeskApi;

  constructor(api: DeskApi = deskApi) {
    super((localId) => api.walletEvmPlan(localId));
    this.#api = api;
  }

  /**
   * Signs `step` (the one shown and confirmed) at no more than its shown gas fee; gives the order afterwards, or null
   * when it failed (the reason in `error`). The plan is read again for the next step. `acceptUnsimulated`: the person
   * accepted signing this order although its endpoint cannot simulate it.
   */
  sign(localId: number, step: PlannedTx, acceptUnsimulated = false): Promise<OrderView | null> {
    return this.runSigning(async () => {
      const order = await this.#api.walletEvmStep(localId, step.kind, step.maxFeeWei, acceptUnsimulated);
      if (order.execution === "sign") await this.load(localId);
      else this.plan = null;
      return order;
    });
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
