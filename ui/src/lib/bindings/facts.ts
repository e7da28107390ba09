// Generated from the Rust constants by `cargo xtask gen-types` (desk-core's bindings test). Do not edit.

export type ChainFamily = "bitcoin" | "evm" | "tron" | "solana";

/** Each chain the app knows, by slug, with its family (gateway_client::chains::CHAINS). */
export const CHAIN_FAMILIES: Readonly<Record<string, ChainFamily>> = {
  "bitcoin": "bitcoin",
  "bob": "evm",
  "ethereum": "evm",
  "base": "evm",
  "bsc": "evm",
  "arbitrum": "evm",
  "avalanche": "evm",
  "bera": "evm",
  "sei": "evm",
  "soneium": "evm",
  "sonic": "evm",
  "unichain": "evm",
  "optimism": "evm",
  "plasma": "evm",
  "polygon": "evm",
  "hyperevm": "evm",
  "bob-sepolia": "evm",
  "sepolia": "evm",
  "swellchain": "evm",
  "telos": "evm",
  "tron": "tron",
  "solana": "solana",
};

/** The EVM chains' slugs, in the table's order. */
export const EVM_CHAINS: readonly string[] = [
  "bob",
  "ethereum",
  "base",
  "bsc",
  "arbitrum",
  "avalanche",
  "bera",
  "sei",
  "soneium",
  "sonic",
  "unichain",
  "optimism",
  "plasma",
  "polygon",
  "hyperevm",
  "bob-sepolia",
  "sepolia",
  "swellchain",
  "telos",
];

/** The gateway's limits on onramp and offramp affiliates: entries, and their total in bps. */
export const MAX_AFFILIATES = 5;
export const MAX_TOTAL_AFFILIATE_BPS = 1000;

/** Slippage bounds in bps: the default, the documented floors (routes, cross-chain token swaps), 100%. */
export const DEFAULT_SLIPPAGE_BPS = 300;
export const DOCUMENTED_MIN_SLIPPAGE_BPS = 50;
export const DOCUMENTED_MIN_TOKEN_SWAP_SLIPPAGE_BPS = 100;
export const MAX_SLIPPAGE_BPS = 10000;
