// The app's views, in sidebar order, with what each holds (an unbuilt one shows its summary as a placeholder).

export type ViewId = "swap" | "orders" | "wallet" | "routes" | "partner" | "support" | "settings";

export interface ViewInfo {
  id: ViewId;
  label: string;
  /** False while the view is only described, not built. */
  built: boolean;
  /** What the view will hold, one short paragraph. */
  summary: string;
}

export const VIEWS: readonly ViewInfo[] = [
  {
    id: "swap",
    label: "Swap",
    built: true,
    summary:
      "Pick a route, read a quote with every fee spelled out, confirm it, sign the transaction with your own wallet, and register it with the gateway.",
  },
  {
    id: "orders",
    label: "Orders",
    built: true,
    summary:
      "The orders in this app's journal and those of your watched addresses, each with its status timeline and the next step to take.",
  },
  {
    id: "wallet",
    label: "Wallet",
    built: true,
    summary:
      "The app's own spending wallet: create or import it, unlock it, see its addresses, back up its recovery phrase; it signs the orders you confirm.",
  },
  {
    id: "routes",
    label: "Routes",
    built: true,
    summary: "Every route the current network offers, grouped by source chain; each opens Swap with its tokens chosen.",
  },
  {
    id: "partner",
    label: "Partner",
    built: true,
    summary:
      "The affiliate entries applied to your quotes, and the orders, volume and affiliate earnings over the orders this app knows about, per day, week or month, with a chart and CSV export.",
  },
  {
    id: "support",
    label: "Support",
    built: true,
    summary:
      "Look up any order by id, transaction id or address on any network and API version, put together a support bundle of an order, import one, and reproduce a quote.",
  },
  {
    id: "settings",
    label: "Settings",
    built: true,
    summary:
      "Grouped under Network (the gateway, API version, API key kept in the system keychain, Bitcoin network), Wallet and signing (blind signing, chain endpoints), Partner (affiliate entries, watched addresses) and Advanced (theme, the Sandbox, where files are kept).",
  },
];

/** The view of a first start: Swap, what the app is for. */
export const DEFAULT_VIEW: ViewId = "swap";

/** Where the view the person was on is kept between starts (the window's storage; not a secret). */
export const VIEW_STORAGE_KEY = "gateway-desk.view.v1";

export function isViewId(value: unknown): value is ViewId {
  return VIEWS.some((v) => v.id === value);
}

/** The window's storage, or null where there is none (or reading it is refused). */
function windowStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * The view to open with: the one the person was on when they left, else Swap (a first start, a storage that cannot be
 * read, or a stored value that is not a view of this version).
 */
export function firstView(storage: Pick<Storage, "getItem"> | null = windowStorage()): ViewId {
  try {
    const saved = storage?.getItem(VIEW_STORAGE_KEY);
    return isViewId(saved) ? saved : DEFAULT_VIEW;
  } catch {
    return DEFAULT_VIEW;
  }
}

/** Remembers the view shown, for the next start. */
export function rememberView(id: ViewId, storage: Pick<Storage, "setItem"> | null = windowStorage()): void {
  try {
    storage?.setItem(VIEW_STORAGE_KEY, id);
  } catch {
    // A full or unavailable storage only means the next start opens on Swap.
  }
}

export function viewInfo(id: ViewId): ViewInfo {
  const found = VIEWS.find((v) => v.id === id);
  if (!found) throw new Error(`unknown view ${id}`);
  return found;
}
