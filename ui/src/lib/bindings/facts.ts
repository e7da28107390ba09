// Generated from the Rust constants by `cargo xtask gen-types` (desk-core's bindings test). Do not edit.

import type { ExecutionPhase } from "./ExecutionPhase";
import type { Stage } from "./Stage";
import type { SwapField } from "./SwapField";
import type { KeyFamily } from "./KeyFamily";

export type ChainFamily = "bitcoin" | "evm" | "tron" | "solana";

/** Each family's name in a sentence ("an EVM address"). */
export const FAMILY_NAMES: Readonly<Record<ChainFamily, string>> = {
  bitcoin: "Bitcoin",
  evm: "EVM",
  tron: "Tron",
  solana: "Solana",
};

/** How each family's addresses and source transaction ids look, for the checks as the person types (gateway_client::address::address_shape, txhash::tx_id_shape); the strict check is Rust's. */
export type AddressShape =
  | { kind: "evm" }
  | { kind: "bitcoin" }
  | { kind: "base58"; prefix: string | null; minLen: number; maxLen: number };
export type TxIdShape =
  | { kind: "hex"; adds0x: boolean }
  | { kind: "base58"; minLen: number; maxLen: number }
  | { kind: "unchecked" };
export const TYPING_SHAPES: Readonly<Record<ChainFamily, { address: AddressShape; txId: TxIdShape }>> = {
  bitcoin: { address: {"kind":"bitcoin"}, txId: {"kind":"unchecked"} },
  evm: { address: {"kind":"evm"}, txId: {"kind":"hex","adds0x":true} },
  tron: { address: {"kind":"base58","prefix":"T","minLen":34,"maxLen":34}, txId: {"kind":"hex","adds0x":false} },
  solana: { address: {"kind":"base58","prefix":null,"minLen":32,"maxLen":44}, txId: {"kind":"base58","minLen":64,"maxLen":88} },
};

/** The families whose quotes must name their sender (ChainFamily::quote_needs_sender). */
export const SENDER_REQUIRED_FAMILIES: readonly ChainFamily[] = [
  "solana",
];

/** The kinds of single key the wallet imports, in the order offered (desk_wallet KeyFamily::ALL). */
export const KEY_FAMILIES: readonly { family: KeyFamily; label: string }[] = [
  { family: "evm", label: "EVM chains (hex, 64 characters)" },
  { family: "bitcoin", label: "Bitcoin (WIF, compressed)" },
  { family: "tron", label: "Tron (hex, 64 characters)" },
  { family: "solana", label: "Solana (Base58 keypair)" },
];

/** The wallet's accounts, in the order listed (KeyFamily::LISTED), keyed as WalletAccounts is. */
export const ACCOUNT_LABELS: readonly { key: KeyFamily; label: string }[] = [
  { key: "bitcoin", label: "Bitcoin (native SegWit)" },
  { key: "evm", label: "EVM chains (Ethereum, BOB, Base, …)" },
  { key: "tron", label: "Tron" },
  { key: "solana", label: "Solana" },
];

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

/** The Swap view's phase of an order at each stage (desk_core::views::ExecutionPhase::of; `OrderView.execution`). */
export const EXECUTION_PHASES: Readonly<Record<Stage, ExecutionPhase>> = {
  quoted: "preparing",
  creating: "preparing",
  createUnknown: "preparing",
  created: "preparing",
  verified: "sign",
  refused: "stopped",
  txHandedIn: "handIn",
  registering: "handIn",
  registered: "registered",
  finished: "registered",
  abandoned: "stopped",
};

/** Ids and what desk_core::ids::short_id makes of them: the window's `shortId` must give the same. */
export const SHORT_ID_EXAMPLES: readonly (readonly [string, string])[] = [
  ["abc", "abc"],
  ["0x1234567890ab", "0x1234567890ab"],
  ["0x1234567890abcdef", "0x1234…cdef"],
  ["0X1234567890abcdef", "0X1234…cdef"],
  ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0x5aAe…eAed"],
  ["1234567890abcdef", "1234…cdef"],
  ["123456789012", "123456789012"],
  ["1234567890123", "1234…0123"],
  ["ééééé-ééééé-ééééé", "éééé…éééé"],
  ["bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h", "bc1q…7s3h"],
  ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "TR7N…Lj6t"],
  ["f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "f81d…6bf6"],
  ["", ""],
];

/** The swap form's fields (desk_core::error::SwapField::ALL): an error's `field` names one of them or another form's. */
export const SWAP_FIELDS: readonly SwapField[] = [
  "srcToken",
  "dstToken",
  "amount",
  "slippage",
  "recipient",
  "sender",
  "owner",
  "refund",
];
