import { describe, expect, it } from "vitest";
import type { ErrorDetails } from "./bindings/ErrorDetails";
import { fieldDetailsOf, gatewayDetailsOf, orderDetailsOf, swapFieldOf } from "./error-details";

describe("an error's typed details", () => {
  it("tells the app's field, an order and the gateway's details apart", () => {
    const field: ErrorDetails = { field: "affiliates", index: 1 };
    const order: ErrorDetails = { localId: 3 };
    const gateway: ErrorDetails = { shape: "minimumActual", field: "amount", minimum: "10000", actual: "5000" };
    expect(fieldDetailsOf(field)).toEqual(field);
    expect(fieldDetailsOf(gateway)).toBeNull();
    expect(orderDetailsOf(order)?.localId).toBe(3);
    expect(orderDetailsOf(field)).toBeNull();
    expect(gatewayDetailsOf(gateway)).toEqual(gateway);
    expect(gatewayDetailsOf(order)).toBeNull();
    expect(gatewayDetailsOf(undefined)).toBeNull();
  });

  it("names the swap field desk-core decided, and no other form's", () => {
    expect(swapFieldOf({ shape: "maxSlippage", field: "slippage", suggested_bps: "120", max_bps: "100" })).toBe(
      "slippage",
    );
    expect(swapFieldOf({ shape: "route", src_chain: "a", src_token: "b", dst_chain: "c", dst_token: "d" })).toBeNull();
    expect(swapFieldOf({ field: "recipient" })).toBe("recipient");
    expect(swapFieldOf({ field: "customUrl" })).toBeNull();
    expect(swapFieldOf({ localId: 2 })).toBeNull();
    expect(swapFieldOf(undefined)).toBeNull();
  });
});
