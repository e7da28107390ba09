// Labels, grouping and filtering for the Routes view. Pure functions, no Svelte.
import type { RouteKind } from "./bindings/RouteKind";
import type { RouteView } from "./bindings/RouteView";
import type { TokenView } from "./bindings/TokenView";
import { shortId } from "./ids";

const KIND_LABELS: Record<RouteKind, string> = {
  onramp: "Onramp",
  offramp: "Offramp",
  tokenSwap: "Token swap",
};

export function kindLabel(kind: RouteKind): string {
  return KIND_LABELS[kind];
}

/** The token's symbol, or its shortened address when the symbol is unknown. Never a guess. */
export function tokenLabel(token: TokenView): string {
  const symbol = token.symbol?.trim();
  if (symbol) return symbol;
  const address = shortId(token.address.trim());
  return address === "" ? "Unknown token" : address;
}

/** True when the label is a shortened address rather than a symbol. */
export function tokenLabelIsAddress(token: TokenView): boolean {
  return !token.symbol?.trim();
}

/** `SYMBOL on chain` */
export function tokenOnChain(token: TokenView): string {
  return `${tokenLabel(token)} on ${token.chain}`;
}

/** `SYMBOL on chain → SYMBOL on chain` */
export function routeLabel(route: RouteView): string {
  return `${tokenOnChain(route.src)} → ${tokenOnChain(route.dst)}`;
}

export interface RouteGroup {
  /** The source chain, as the Rust side names it. */
  chain: string;
  routes: RouteView[];
}

const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });

function compareRoutes(a: RouteView, b: RouteView): number {
  return (
    collator.compare(tokenLabel(a.src), tokenLabel(b.src)) ||
    collator.compare(a.dst.chain, b.dst.chain) ||
    collator.compare(tokenLabel(a.dst), tokenLabel(b.dst)) ||
    collator.compare(kindLabel(a.kind), kindLabel(b.kind))
  );
}

/**
 * Routes grouped by source chain: groups in alphabetical order of chain name, and within
 * a group by source token, then destination chain, then destination token.
 * The input is not modified.
 */
export function groupBySource(routes: readonly RouteView[]): RouteGroup[] {
  const byChain = new Map<string, RouteView[]>();
  for (const route of routes) {
    const list = byChain.get(route.src.chain);
    if (list) list.push(route);
    else byChain.set(route.src.chain, [route]);
  }
  return [...byChain.entries()]
    .sort(([a], [b]) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([chain, list]) => ({ chain, routes: [...list].sort(compareRoutes) }));
}

function tokenText(token: TokenView): string[] {
  return [token.chain, token.address, token.symbol ?? "", token.name ?? ""];
}

/** Everything a filter term can match in a route, lower-cased. */
export function routeSearchText(route: RouteView): string {
  return [kindLabel(route.kind), route.kind, ...tokenText(route.src), ...tokenText(route.dst)].join("\n").toLowerCase();
}

/**
 * Routes matching the query: every whitespace-separated term must occur (case-insensitively)
 * in the route's chain names, symbols, token names, addresses or kind. An empty query keeps all.
 */
export function filterRoutes(routes: readonly RouteView[], query: string): RouteView[] {
  const terms = query
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t !== "");
  if (terms.length === 0) return [...routes];
  return routes.filter((route) => {
    const text = routeSearchText(route);
    return terms.every((term) => text.includes(term));
  });
}

/** `N routes`, or `1 route`. */
export function countLabel(n: number): string {
  return `${n} ${n === 1 ? "route" : "routes"}`;
}
