// Signing an order with the app's wallet, whatever the source chain's family: desk-core's plan of what is still to
// be signed (an approval first when one is needed, then the order's payment), one confirmation per step in the
// chain's words and numbers, and the progress of each transaction. desk-core's rail of the family decides every
// word and number; the window does not switch on the family.
import type { OrderView } from "../bindings/OrderView";
import type { PlannedTx } from "../bindings/PlannedTx";
import type { WalletPlan } from "../bindings/WalletPlan";
import { deskApi, type DeskApi } from "../ipc";
import { PlanSigner } from "./plan-signer.svelte";

export class WalletPlanSigner extends PlanSigner<WalletPlan> {
  #api: DeskApi;

  constructor(api: DeskApi = deskApi) {
    super((localId) => api.walletPlan(localId));
    this.#api = api;
  }

  /**
   * Signs `step` (the one shown and confirmed) at no more than its shown network fee; gives the order afterwards, or
   * null when it failed (the reason in `error`). The plan is read again while the order still needs a signature.
   * `acceptUnsimulated`: the person accepted signing this order although its endpoint cannot simulate it.
   */
  sign(localId: number, step: PlannedTx, acceptUnsimulated = false): Promise<OrderView | null> {
    return this.runSigning(async () => {
      const order = await this.#api.walletStep(localId, step.kind, step.maxFee, acceptUnsimulated);
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
