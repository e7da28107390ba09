import { describe, expect, it } from "vitest";
import type { Accounts } from "../bindings/WalletAccounts";
import { emptyFields, fieldRules, type FormFields } from "./form";
import { lockedFill, waitingForWallet, walletAddressFor, walletFill } from "./wallet-defaults";

const ACCOUNTS = {
  bitcoin: { address: "bcrt1qwallet", path: "m/84'/1'/0'/0/0" },
  evm: { address: "0x9858EfFD232B4033E47d90003D41EC34EcaEda94", path: "m/44'/60'/0'/0/0" },
  tron: { address: "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH", path: "m/44'/195'/0'/0/0" },
  solana: { address: "HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk", path: "m/44'/501'/0'/0'" },
} satisfies Accounts;

function fields(over: Partial<FormFields> = {}): FormFields {
  return { ...emptyFields(), slippagePreset: 50, ...over };
}

describe("the swap form's addresses from the wallet", () => {
  it("gives the wallet's address per chain family", () => {
    expect(walletAddressFor("bitcoin", ACCOUNTS)).toBe("bcrt1qwallet");
    expect(walletAddressFor("bob", ACCOUNTS)).toBe(ACCOUNTS.evm.address);
    expect(walletAddressFor("tron", ACCOUNTS)).toBe(ACCOUNTS.tron.address);
    expect(walletAddressFor("solana", ACCOUNTS)).toBe(ACCOUNTS.solana.address);
    expect(walletAddressFor("nowhere", ACCOUNTS)).toBeNull();
  });

  it("fills an onramp's empty fields: recipient on the destination, sender, owner and refund", () => {
    const form = fields({ srcChain: "bitcoin", dstChain: "bob" });
    expect(walletFill(form, fieldRules("onramp", "bitcoin", "v3"), ACCOUNTS)).toEqual({
      recipient: ACCOUNTS.evm.address,
      sender: "bcrt1qwallet",
      owner: ACCOUNTS.evm.address,
      refund: "bcrt1qwallet",
    });
    // V4 has no owner, and its refund address is left to default to the sender (desk-core's rule).
    expect(walletFill(form, fieldRules("onramp", "bitcoin", "v4"), ACCOUNTS)).toEqual({
      recipient: ACCOUNTS.evm.address,
      sender: "bcrt1qwallet",
    });
    // V2 has no owner nor refund.
    expect(walletFill(form, fieldRules("onramp", "bitcoin", "v2"), ACCOUNTS)).toEqual({
      recipient: ACCOUNTS.evm.address,
      sender: "bcrt1qwallet",
    });
  });

  it("leaves what the person typed, and follows the chains where it filled", () => {
    const typed = fields({
      srcChain: "bitcoin",
      dstChain: "bob",
      recipient: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    });
    expect(walletFill(typed, fieldRules("onramp", "bitcoin", "v2"), ACCOUNTS)).toEqual({ sender: "bcrt1qwallet" });
    // The route turned around: the fields the wallet filled follow it.
    const turned = fields({
      srcChain: "bob",
      dstChain: "bitcoin",
      recipient: ACCOUNTS.evm.address,
      sender: "bcrt1qwallet",
      refund: "bcrt1qwallet",
    });
    expect(walletFill(turned, fieldRules("offramp", "bob", "v3"), ACCOUNTS)).toEqual({
      recipient: "bcrt1qwallet",
      sender: ACCOUNTS.evm.address,
      owner: ACCOUNTS.evm.address,
      refund: "",
    });
    // Nothing left to change.
    const settled = fields({
      srcChain: "bob",
      dstChain: "bitcoin",
      recipient: "bcrt1qwallet",
      sender: ACCOUNTS.evm.address,
      owner: ACCOUNTS.evm.address,
    });
    expect(walletFill(settled, fieldRules("offramp", "bob", "v3"), ACCOUNTS)).toEqual({});
  });

  it("while locked, keeps its addresses where the chains fit them, empties the others and fills nothing", () => {
    const onramp = fields({
      srcChain: "bitcoin",
      dstChain: "bob",
      recipient: ACCOUNTS.evm.address,
      sender: "bcrt1qwallet",
      owner: ACCOUNTS.evm.address,
      refund: "bcrt1qwallet",
    });
    expect(lockedFill(onramp, fieldRules("onramp", "bitcoin", "v3"), ACCOUNTS)).toEqual({});
    // Turned around: the recipient and the sender no longer fit, the refund no longer applies; the owner stays.
    const turned = { ...onramp, srcChain: "bob", dstChain: "bitcoin" };
    expect(lockedFill(turned, fieldRules("offramp", "bob", "v3"), ACCOUNTS)).toEqual({
      recipient: "",
      sender: "",
      refund: "",
    });
    // What the person typed is never touched, and an empty field is not filled.
    const typed = fields({ srcChain: "bob", dstChain: "bitcoin", recipient: "bc1qtyped", sender: "" });
    expect(lockedFill(typed, fieldRules("offramp", "bob", "v3"), ACCOUNTS)).toEqual({});
  });

  it("names the empty fields that wait for the locked wallet", () => {
    const turned = fields({ srcChain: "bob", dstChain: "bitcoin", owner: ACCOUNTS.evm.address });
    const rules = fieldRules("offramp", "bob", "v3");
    expect(waitingForWallet(turned, rules, ACCOUNTS)).toEqual(["recipient", "sender"]);
    // A wallet of one imported EVM key would not fill a Bitcoin recipient.
    expect(waitingForWallet(turned, rules, { evm: ACCOUNTS.evm })).toEqual(["sender"]);
    // Not unlocked since the app started: every field the chains give a family.
    expect(
      waitingForWallet(fields({ srcChain: "bitcoin", dstChain: "bob" }), fieldRules("onramp", "bitcoin", "v3"), null),
    ).toEqual(["recipient", "sender", "owner", "refund"]);
    expect(waitingForWallet(fields(), fieldRules(null, "", "v2"), null)).toEqual([]);
  });
});
