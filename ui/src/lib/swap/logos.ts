// Logos of chains and tokens, from the @web3icons/core icon set (MIT), bundled: only the files named here are in the
// app. Each is an SVG document as text, drawn inline (the window's content policy allows no data: images). A chain
// or token without a logo here gets a neutral disc with its initials (see TokenLogo.svelte), never a wrong logo.

import net_arbitrum_one from "@web3icons/core/svgs/networks/branded/arbitrum-one.svg.js";
import net_avalanche from "@web3icons/core/svgs/networks/branded/avalanche.svg.js";
import net_base from "@web3icons/core/svgs/networks/branded/base.svg.js";
import net_berachain from "@web3icons/core/svgs/networks/branded/berachain.svg.js";
import net_binance_smart_chain from "@web3icons/core/svgs/networks/branded/binance-smart-chain.svg.js";
import net_bitcoin from "@web3icons/core/svgs/networks/branded/bitcoin.svg.js";
import net_bob from "@web3icons/core/svgs/networks/branded/bob.svg.js";
import net_ethereum from "@web3icons/core/svgs/networks/branded/ethereum.svg.js";
import net_optimism from "@web3icons/core/svgs/networks/branded/optimism.svg.js";
import net_plasma from "@web3icons/core/svgs/networks/branded/plasma.svg.js";
import net_polygon from "@web3icons/core/svgs/networks/branded/polygon.svg.js";
import net_sei_network from "@web3icons/core/svgs/networks/branded/sei-network.svg.js";
import net_solana from "@web3icons/core/svgs/networks/branded/solana.svg.js";
import net_soneium from "@web3icons/core/svgs/networks/branded/soneium.svg.js";
import net_sonic from "@web3icons/core/svgs/networks/branded/sonic.svg.js";
import net_swell from "@web3icons/core/svgs/networks/branded/swell.svg.js";
import net_telos from "@web3icons/core/svgs/networks/branded/telos.svg.js";
import net_tron from "@web3icons/core/svgs/networks/branded/tron.svg.js";
import net_unichain from "@web3icons/core/svgs/networks/branded/unichain.svg.js";
import tok_AVAX from "@web3icons/core/svgs/tokens/branded/AVAX.svg.js";
import tok_BNB from "@web3icons/core/svgs/tokens/branded/BNB.svg.js";
import tok_BOB from "@web3icons/core/svgs/tokens/branded/BOB.svg.js";
import tok_BTC from "@web3icons/core/svgs/tokens/branded/BTC.svg.js";
import tok_DAI from "@web3icons/core/svgs/tokens/branded/DAI.svg.js";
import tok_ETH from "@web3icons/core/svgs/tokens/branded/ETH.svg.js";
import tok_FRAX from "@web3icons/core/svgs/tokens/branded/FRAX.svg.js";
import tok_FXS from "@web3icons/core/svgs/tokens/branded/FXS.svg.js";
import tok_PAXG from "@web3icons/core/svgs/tokens/branded/PAXG.svg.js";
import tok_POL from "@web3icons/core/svgs/tokens/branded/POL.svg.js";
import tok_RETH from "@web3icons/core/svgs/tokens/branded/RETH.svg.js";
import tok_SEI from "@web3icons/core/svgs/tokens/branded/SEI.svg.js";
import tok_SFRXETH from "@web3icons/core/svgs/tokens/branded/SFRXETH.svg.js";
import tok_SOL from "@web3icons/core/svgs/tokens/branded/SOL.svg.js";
import tok_TBTC from "@web3icons/core/svgs/tokens/branded/TBTC.svg.js";
import tok_TLOS from "@web3icons/core/svgs/tokens/branded/TLOS.svg.js";
import tok_TRB from "@web3icons/core/svgs/tokens/branded/TRB.svg.js";
import tok_TRX from "@web3icons/core/svgs/tokens/branded/TRX.svg.js";
import tok_UNI from "@web3icons/core/svgs/tokens/branded/UNI.svg.js";
import tok_USDC from "@web3icons/core/svgs/tokens/branded/USDC.svg.js";
import tok_USDT from "@web3icons/core/svgs/tokens/branded/USDT.svg.js";
import tok_WBTC from "@web3icons/core/svgs/tokens/branded/WBTC.svg.js";
import tok_XAUT from "@web3icons/core/svgs/tokens/branded/XAUT.svg.js";

const CHAINS: Record<string, string> = {
  arbitrum: net_arbitrum_one,
  avalanche: net_avalanche,
  base: net_base,
  bera: net_berachain,
  bitcoin: net_bitcoin,
  bob: net_bob,
  "bob-sepolia": net_bob,
  bsc: net_binance_smart_chain,
  ethereum: net_ethereum,
  sepolia: net_ethereum,
  optimism: net_optimism,
  plasma: net_plasma,
  polygon: net_polygon,
  sei: net_sei_network,
  solana: net_solana,
  soneium: net_soneium,
  sonic: net_sonic,
  swellchain: net_swell,
  telos: net_telos,
  tron: net_tron,
  unichain: net_unichain,
};

const TOKENS: Record<string, string> = {
  AVAX: tok_AVAX,
  BNB: tok_BNB,
  BOB: tok_BOB,
  BTC: tok_BTC,
  DAI: tok_DAI,
  ETH: tok_ETH,
  FRAX: tok_FRAX,
  FXS: tok_FXS,
  PAXG: tok_PAXG,
  POL: tok_POL,
  RETH: tok_RETH,
  SEI: tok_SEI,
  SFRXETH: tok_SFRXETH,
  SOL: tok_SOL,
  TBTC: tok_TBTC,
  TLOS: tok_TLOS,
  TRB: tok_TRB,
  TRX: tok_TRX,
  UNI: tok_UNI,
  USDC: tok_USDC,
  USDT: tok_USDT,
  WBTC: tok_WBTC,
  XAUT: tok_XAUT,
};

/** Symbols that are another token's logo: bridged and wrapped forms of the same coin. */
const SAME_AS: Record<string, string> = {
  "USDC.E": "USDC",
  USDT0: "USDT",
  "USD₮0": "USDT",
  OUSDT: "USDT",
  WETH: "ETH",
  WBNB: "BNB",
};

/** The logo of a chain (by the gateway's chain name), or null. */
export function chainLogo(chain: string | null | undefined): string | null {
  return chain ? (CHAINS[chain.toLowerCase()] ?? null) : null;
}

/** The logo of a token (by its symbol), or null. */
export function tokenLogo(symbol: string | null | undefined): string | null {
  if (!symbol) return null;
  const key = symbol.trim().toUpperCase();
  return TOKENS[SAME_AS[key] ?? key] ?? null;
}

/** The neutral fallback's letters: `USDC` → `US`, `cbBTC` → `CB`, a chain `bob-sepolia` → `BO`. */
export function initials(name: string | null | undefined): string {
  const letters = (name ?? "").replace(/[^\p{L}\p{N}]/gu, "");
  return letters.slice(0, 2).toUpperCase() || "?";
}
