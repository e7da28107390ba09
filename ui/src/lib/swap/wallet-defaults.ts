// The swap form's addresses taken from the app's wallet by default: the recipient on the destination chain, the
// sender on the source chain, the EVM owner and the Bitcoin refund address (V3). A field the person typed something
// else into is left alone; a field holding one of the wallet's addresses follows the chains as they change.
import type { Accounts } from "../bindings/WalletAccounts";
import { chainFamily } from "./addresses";
import type { FieldRules, FormFields } from "./form";

/** The wallet's address on `chain`, or null for a chain the app does not know. */
export function walletAddressFor(chain: string, accounts: Accounts): string | null {
  const family = chainFamily(chain);
  return family === null ? null : (accounts[family]?.address ?? null);
}

type AddressField = "recipient" | "sender" | "owner" | "refund";

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
    refund: rules.refundAllowed ? (accounts.bitcoin?.address ?? null) : null,
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
