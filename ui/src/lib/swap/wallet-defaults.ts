// The swap form's addresses taken from the app's wallet by default: the recipient on the destination chain, the
// sender on the source chain, the EVM owner and the Bitcoin refund address (V3; V4's refund address defaults to the
// sender's in desk-core). A field the person typed something
// else into is left alone; a field holding one of the wallet's addresses follows the chains as they change.
// While the wallet is locked its addresses are not used: a field it filled keeps its address as long as the chains
// still fit it, is emptied (never refilled) when they change, and the empty fields it would fill wait for it.
import type { Accounts } from "../bindings/WalletAccounts";
import { ACCOUNT_LABELS } from "../bindings/facts";
import { chainFamily } from "./addresses";
import type { FieldRules, FormFields } from "./form";

/** The wallet's address on `chain`, or null for a chain the app does not know. */
export function walletAddressFor(chain: string, accounts: Accounts): string | null {
  const family = chainFamily(chain);
  return family === null ? null : (accounts[family]?.address ?? null);
}

export type AddressField = "recipient" | "sender" | "owner" | "refund";

export const ADDRESS_FIELDS: readonly AddressField[] = ["recipient", "sender", "owner", "refund"];

/** The changes that fill the form's address fields from the wallet; empty when nothing changes. */
export function walletFill(
  fields: FormFields,
  rules: FieldRules,
  accounts: Accounts,
): Partial<Pick<FormFields, AddressField>> {
  const ours = new Set(
    Object.values(accounts)
      .filter((a) => a !== undefined)
      .map((a) => a.address),
  );
  const wanted: Record<AddressField, string | null> = {
    recipient: fields.dstChain ? walletAddressFor(fields.dstChain, accounts) : null,
    sender: fields.srcChain ? walletAddressFor(fields.srcChain, accounts) : null,
    owner: rules.v3 ? (accounts.evm?.address ?? null) : null,
    // V4's refund address is left empty: desk-core then uses the sender's, which the field shows as its placeholder.
    refund: rules.v3 && rules.refundChain ? walletAddressFor(rules.refundChain, accounts) : null,
  };
  const patch: Partial<Pick<FormFields, AddressField>> = {};
  for (const field of Object.keys(wanted) as AddressField[]) {
    const current = fields[field].trim();
    const want = wanted[field];
    const ownedByUs = current === "" || ours.has(current);
    if (!ownedByUs) continue;
    const next = want ?? "";
    if (current !== next) patch[field] = next;
  }
  return patch;
}

/**
 * The changes while the wallet is locked, given the addresses it had when last unlocked (`known`): a field holding
 * one of them that the chains no longer fit is emptied (a wrong family's address would only be an error the person
 * did not cause); nothing is filled. Empty when nothing changes.
 */
export function lockedFill(
  fields: FormFields,
  rules: FieldRules,
  known: Accounts,
): Partial<Pick<FormFields, AddressField>> {
  const patch: Partial<Pick<FormFields, AddressField>> = {};
  // walletFill changes a filled field only when it holds one of the wallet's addresses.
  for (const field of Object.keys(walletFill(fields, rules, known)) as AddressField[]) {
    if (fields[field].trim() !== "") patch[field] = "";
  }
  return patch;
}

/**
 * The empty address fields that the wallet would fill once unlocked: with the addresses it had when last unlocked
 * (`known`), exactly those; without them (not unlocked since the app started), every field the chains give a family.
 */
export function waitingForWallet(fields: FormFields, rules: FieldRules, known: Accounts | null): AddressField[] {
  // A stand-in account of every kind the wallet holds, its address the account's key.
  const every: Accounts = Object.fromEntries(ACCOUNT_LABELS.map(({ key }) => [key, { address: key, path: "" }]));
  const patch = walletFill(fields, rules, known ?? every);
  return ADDRESS_FIELDS.filter((field) => fields[field].trim() === "" && (patch[field] ?? "") !== "");
}
