// What an error's details say, read from desk-core's typed union (ErrorDetails): the field the app refused, the order
// an error is about, the gateway's details. desk-core decides which field a refusal belongs to (the gateway's codes
// included); these only tell the union's three members apart: the gateway's carry `shape`, an order's `localId`, the
// app's own refusal a `field` alone.
import type { ErrorDetails } from "./bindings/ErrorDetails";
import type { FieldDetails } from "./bindings/FieldDetails";
import type { GatewayDetails } from "./bindings/GatewayDetails";
import type { OrderDetails } from "./bindings/OrderDetails";
import type { SwapField } from "./bindings/SwapField";
import { SWAP_FIELDS } from "./bindings/facts";

/** Details are an object when they come from desk-core; anything else (a test's, a stray rejection's) names nothing. */
function present(details: ErrorDetails | undefined): details is ErrorDetails {
  return typeof details === "object" && details !== null;
}

/** The gateway's details (`{ shape, field?, … }`), or null. */
export function gatewayDetailsOf(details: ErrorDetails | undefined): GatewayDetails | null {
  return present(details) && "shape" in details ? details : null;
}

/** The app's refusal of a field (`{ field, index? }`), or null. */
export function fieldDetailsOf(details: ErrorDetails | undefined): FieldDetails | null {
  return present(details) && !("shape" in details) && "field" in details ? details : null;
}

/** The order an error is about (`{ localId }`), or null. */
export function orderDetailsOf(details: ErrorDetails | undefined): OrderDetails | null {
  return present(details) && "localId" in details ? details : null;
}

/** The swap-form field an error names: the gateway's (typed by desk-core), or the app's when it is the swap form's. */
export function swapFieldOf(details: ErrorDetails | undefined): SwapField | null {
  const gateway = gatewayDetailsOf(details);
  if (gateway) return gateway.field ?? null;
  const field = fieldDetailsOf(details)?.field;
  return SWAP_FIELDS.find((f) => f === field) ?? null;
}
