import { describe, expect, it } from "vitest";
import { bip21 } from "./order";
import { DEPOSIT } from "./testdata";

// What to pay or sign is read by desk-core (tested in crates/desk-core/src/views/to_sign.rs).

describe("an onramp payment as a URI", () => {
  it("writes the BIP21 URI", () => {
    expect(bip21(DEPOSIT, "0.0025")).toBe(`bitcoin:${DEPOSIT}?amount=0.0025`);
    expect(bip21(DEPOSIT, null)).toBe(`bitcoin:${DEPOSIT}`);
  });
});
