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

/**
 * Orders names as a person reads them: letters without regard to case, runs of digits by their value ("USDT2" before
 * "USDT10"), then, for names equal that way, by their characters. Chain names and token symbols are short ASCII
 * words, which a locale's collator (`Intl.Collator`) sorts the same; it would cost the page ICU's collation tables
 * (about 1 MiB at rest, docs/MEASURED.md) for the first view alone. A character beyond ASCII (`USD₮0`) sorts after
 * the ASCII ones, by its code.
 */
export function compareNames(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    const cx = x.charCodeAt(i);
    const cy = y.charCodeAt(j);
    if (isDigit(cx) && isDigit(cy)) {
      const endX = digitsEnd(x, i);
      const endY = digitsEnd(y, j);
      const nx = x.slice(i, endX).replace(/^0+(?=\d)/, "");
      const ny = y.slice(j, endY).replace(/^0+(?=\d)/, "");
      if (nx.length !== ny.length) return nx.length - ny.length;
      if (nx !== ny) return nx < ny ? -1 : 1;
      i = endX;
      j = endY;
      continue;
    }
    if (cx !== cy) return cx - cy;
    i++;
    j++;
  }
  if (x.length - i !== y.length - j) return x.length - i - (y.length - j);
  return a < b ? -1 : a > b ? 1 : 0;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function digitsEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && isDigit(text.charCodeAt(end))) end++;
  return end;
}

function compareRoutes(a: RouteView, b: RouteView): number {
  return (
    compareNames(tokenLabel(a.src), tokenLabel(b.src)) ||
    compareNames(a.dst.chain, b.dst.chain) ||
    compareNames(tokenLabel(a.dst), tokenLabel(b.dst)) ||
    compareNames(kindLabel(a.kind), kindLabel(b.kind))
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
    .sort(([a], [b]) => compareNames(a, b))
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
