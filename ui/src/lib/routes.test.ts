import { describe, expect, it } from "vitest";
import type { RouteView } from "./bindings/RouteView";
import type { TokenView } from "./bindings/TokenView";
import {
  countLabel,
  filterRoutes,
  compareNames,
  groupBySource,
  kindLabel,
  routeLabel,
  tokenLabel,
  tokenLabelIsAddress,
} from "./routes";

function token(chain: string, symbol: string | null, address: string, name: string | null = null): TokenView {
  return { chain, symbol, address, name, decimals: symbol ? 6 : null };
}

const USDC_ETH = token("ethereum", "USDC", "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", "USD Coin");
const WETH_ETH = token("ethereum", "WETH", "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2");
const BTC = token("bitcoin", "BTC", "native");
const USDT_TRON = token("tron", "USDT", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t");
const MYSTERY_ARB = token("arbitrum", null, "0x1234567890abcdef1234567890abcdef12345678", "Mystery Token");
const EUR = token("fiat", "EUR", "eur");

const routes: RouteView[] = [
  { kind: "tokenSwap", src: WETH_ETH, dst: BTC, defaultSlippageBps: 100 },
  { kind: "offramp", src: USDT_TRON, dst: EUR, defaultSlippageBps: 100 },
  { kind: "tokenSwap", src: USDC_ETH, dst: USDT_TRON, defaultSlippageBps: 100 },
  { kind: "onramp", src: EUR, dst: USDC_ETH, defaultSlippageBps: 100 },
  { kind: "tokenSwap", src: MYSTERY_ARB, dst: USDC_ETH, defaultSlippageBps: 100 },
  { kind: "tokenSwap", src: USDC_ETH, dst: BTC, defaultSlippageBps: 100 },
];

describe("labels", () => {
  it("names every route kind", () => {
    expect(kindLabel("onramp")).toBe("Onramp");
    expect(kindLabel("offramp")).toBe("Offramp");
    expect(kindLabel("tokenSwap")).toBe("Token swap");
  });

  it("uses the symbol when known", () => {
    expect(tokenLabel(USDC_ETH)).toBe("USDC");
    expect(tokenLabelIsAddress(USDC_ETH)).toBe(false);
  });

  it("falls back to the shortened address when the symbol is null, never the name", () => {
    expect(tokenLabel(MYSTERY_ARB)).toBe("0x1234…5678");
    expect(tokenLabel(MYSTERY_ARB)).not.toContain("Mystery");
    expect(tokenLabelIsAddress(MYSTERY_ARB)).toBe(true);
    expect(tokenLabel(token("x", "  ", "0xabcdefabcdefabcdef"))).toBe("0xabcd…cdef");
    expect(tokenLabel(token("x", null, ""))).toBe("Unknown token");
  });

  it("writes a route as SYMBOL on chain → SYMBOL on chain", () => {
    expect(routeLabel(routes[0]!)).toBe("WETH on ethereum → BTC on bitcoin");
    expect(routeLabel(routes[4]!)).toBe("0x1234…5678 on arbitrum → USDC on ethereum");
  });

  it("counts routes", () => {
    expect(countLabel(0)).toBe("0 routes");
    expect(countLabel(1)).toBe("1 route");
    expect(countLabel(12)).toBe("12 routes");
  });
});

describe("groupBySource", () => {
  it("groups by source chain in alphabetical order", () => {
    const groups = groupBySource(routes);
    expect(groups.map((g) => g.chain)).toEqual(["arbitrum", "ethereum", "fiat", "tron"]);
    expect(groups.map((g) => g.routes.length)).toEqual([1, 3, 1, 1]);
  });

  it("puts every route in exactly one group, under its source chain", () => {
    const groups = groupBySource(routes);
    expect(groups.reduce((n, g) => n + g.routes.length, 0)).toBe(routes.length);
    for (const g of groups) for (const r of g.routes) expect(r.src.chain).toBe(g.chain);
  });

  it("orders a group by source token, then destination chain, then destination token", () => {
    const eth = groupBySource(routes).find((g) => g.chain === "ethereum")!;
    expect(eth.routes.map(routeLabel)).toEqual([
      "USDC on ethereum → BTC on bitcoin",
      "USDC on ethereum → USDT on tron",
      "WETH on ethereum → BTC on bitcoin",
    ]);
  });

  it("does not reorder its input and handles no routes", () => {
    const copy = [...routes];
    groupBySource(routes);
    expect(routes).toEqual(copy);
    expect(groupBySource([])).toEqual([]);
  });

  it("sorts chain names case-insensitively", () => {
    const mixed: RouteView[] = [
      { kind: "tokenSwap", src: token("Solana", "SOL", "so1"), dst: BTC, defaultSlippageBps: 100 },
      { kind: "tokenSwap", src: token("avalanche", "AVAX", "av1"), dst: BTC, defaultSlippageBps: 100 },
      { kind: "tokenSwap", src: token("Bitcoin", "BTC", "bt1"), dst: USDC_ETH, defaultSlippageBps: 100 },
    ];
    expect(groupBySource(mixed).map((g) => g.chain)).toEqual(["avalanche", "Bitcoin", "Solana"]);
  });
});

describe("filterRoutes", () => {
  const labels = (q: string) => filterRoutes(routes, q).map(routeLabel);

  it("keeps everything for an empty or blank query", () => {
    expect(filterRoutes(routes, "")).toHaveLength(routes.length);
    expect(filterRoutes(routes, "   ")).toHaveLength(routes.length);
  });

  it("matches symbols case-insensitively", () => {
    expect(labels("weth")).toEqual(["WETH on ethereum → BTC on bitcoin"]);
    expect(filterRoutes(routes, "usdt")).toHaveLength(2);
  });

  it("matches chain names on either side", () => {
    expect(labels("TRON")).toEqual(["USDT on tron → EUR on fiat", "USDC on ethereum → USDT on tron"]);
    expect(filterRoutes(routes, "bitcoin")).toHaveLength(2);
  });

  it("matches addresses, including tokens without a symbol", () => {
    expect(labels("0X1234567890ABCDEF")).toEqual(["0x1234…5678 on arbitrum → USDC on ethereum"]);
    expect(filterRoutes(routes, "a0b86991")).toHaveLength(4);
  });

  it("matches the kind by its label or its name", () => {
    expect(labels("offramp")).toEqual(["USDT on tron → EUR on fiat"]);
    expect(labels("Onramp")).toEqual(["EUR on fiat → USDC on ethereum"]);
    expect(filterRoutes(routes, "token swap")).toHaveLength(4);
    expect(filterRoutes(routes, "tokenswap")).toHaveLength(4);
  });

  it("requires every term to match", () => {
    expect(labels("usdc bitcoin")).toEqual(["USDC on ethereum → BTC on bitcoin"]);
    expect(filterRoutes(routes, "usdc solana")).toEqual([]);
  });

  it("returns nothing when nothing matches, and the count follows", () => {
    const none = filterRoutes(routes, "dogecoin");
    expect(none).toEqual([]);
    expect(countLabel(none.length)).toBe("0 routes");
    expect(countLabel(filterRoutes(routes, "ethereum").length)).toBe("5 routes");
  });
});

describe("compareNames", () => {
  const sorted = (names: string[]) => [...names].sort(compareNames);

  it("orders letters without regard to case and digit runs by their value", () => {
    expect(sorted(["USDT10", "usdt2", "USDC", "Bitcoin", "avalanche", "USDT"])).toEqual([
      "avalanche",
      "Bitcoin",
      "USDC",
      "USDT",
      "usdt2",
      "USDT10",
    ]);
    expect(sorted(["a007", "a7", "a10", "a06"])).toEqual(["a06", "a007", "a7", "a10"]);
  });

  it("agrees with a locale's collator on ASCII chain names and symbols", () => {
    const names = [
      "bob",
      "BOB",
      "base",
      "bsc",
      "WBTC",
      "wBTC.OFT",
      "cbBTC",
      "USDC.e",
      "USDT0",
      "SolvBTC",
      "tBTC",
      "sei",
    ];
    const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });
    const byCollator = [...names].sort((a, b) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0));
    expect(sorted(names)).toEqual(byCollator);
  });

  it("puts a character beyond ASCII after the ASCII ones, where a collator would put a symbol first", () => {
    expect(sorted(["USD₮0", "USDC.e", "USDT"])).toEqual(["USDC.e", "USDT", "USD₮0"]);
  });

  it("is a total order: equal only for the same text", () => {
    expect(compareNames("Bob", "bob")).not.toBe(0);
    expect(Math.sign(compareNames("Bob", "bob"))).toBe(-Math.sign(compareNames("bob", "Bob")));
    expect(compareNames("x1", "x1")).toBe(0);
  });
});
