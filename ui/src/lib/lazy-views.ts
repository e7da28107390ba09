// The views a person has not opened yet are not loaded with the window: each is its own file of the bundle (with
// what only it uses: Swap's logo set, Partner's chart, Support's viewers), read the first time its view opens and
// kept after. Only Routes, the smallest, comes with the window; the first view (Swap on a first start, else the view
// the person left) is read as the window opens. What the window does not load costs the web process nothing at rest
// (docs/MEASURED.md: the figure per change).

import type { Component } from "svelte";
import type { ViewId } from "./views";

/** A view's component module, as a dynamic import gives it. */
export type ViewModule = { default: Component };

/** The loaders of the views loaded on demand. Each `import()` names its file, so Vite makes it a chunk of its own. */
export const VIEW_LOADERS: Partial<Record<ViewId, () => Promise<ViewModule>>> = {
  swap: () => import("./components/SwapView.svelte"),
  orders: () => import("./components/OrdersView.svelte"),
  wallet: () => import("./components/WalletView.svelte"),
  partner: () => import("./components/PartnerView.svelte"),
  support: () => import("./components/SupportView.svelte"),
  settings: () => import("./components/SettingsPanel.svelte"),
};

/** The views loaded so far, so that opening one again shows it at once, without a frame of "Opening…". */
const loaded = new Map<ViewId, Component>();

/** The view's component when it has been loaded already. */
export function loadedView(id: ViewId): Component | undefined {
  return loaded.get(id);
}

/**
 * Loads a view's file (once; a failed load is tried again on the next call). Throws when `id` is not a view loaded
 * on demand, or when its file cannot be read (an install missing a file): the caller says so and offers a retry.
 */
export async function loadView(id: ViewId, loaders = VIEW_LOADERS): Promise<Component> {
  const known = loaded.get(id);
  if (known) return known;
  const loader = loaders[id];
  if (!loader) throw new Error(`the ${id} view is not loaded on demand`);
  const module = await loader();
  loaded.set(id, module.default);
  return module.default;
}

/** Forgets what was loaded (tests). */
export function forgetLoadedViews(): void {
  loaded.clear();
}
