//! Token facts (symbol, name, decimals) per chain and address.
//!
//! The gateway's routes carry only addresses. The facts come from `data/tokens.json`, copied from the project's
//! shared data (gathered from the public BOB token registry, bob-collective/tokenlist, MIT, plus well-known native,
//! Tron and Solana stablecoin facts) and compiled into the binary.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::wire::{NATIVE_TOKEN, is_native_token};

/// What is known of one token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenInfo {
    /// The gateway's slug of the chain the token is on (`bitcoin`, `bob`, `tron`, …).
    pub chain: String,
    /// The token's address on that chain: the all-zero EVM address for BTC and native tokens, Base58 on Tron and
    /// Solana. EVM addresses match without regard to case.
    pub address: String,
    /// The ticker shown next to amounts, such as `BTC` or `USDT`.
    pub symbol: String,
    /// The token's full name, such as "Wrapped BTC".
    pub name: String,
    /// How many decimals the token has: one whole token is 10^decimals of its smallest unit (8 for BTC).
    pub decimals: u8,
}

/// Token facts keyed by chain and address.
#[derive(Debug, Clone)]
pub struct TokenRegistry {
    tokens: Vec<TokenInfo>,
    index: HashMap<(String, String), usize>,
}

#[derive(Deserialize)]
struct TokenFile {
    tokens: Vec<TokenInfo>,
}

/// EVM addresses compare without regard to case; Base58 addresses (Tron, Solana) are case-sensitive.
fn key(chain: &str, address: &str) -> (String, String) {
    let address = if is_native_token(chain, address) {
        NATIVE_TOKEN.to_owned()
    } else if address.starts_with("0x") || address.starts_with("0X") {
        address.to_ascii_lowercase()
    } else {
        address.to_owned()
    };
    (chain.to_ascii_lowercase(), address)
}

impl TokenRegistry {
    /// Builds a registry from a list; a later duplicate of the same chain and address is ignored.
    pub fn from_tokens(tokens: Vec<TokenInfo>) -> Self {
        let mut index = HashMap::with_capacity(tokens.len());
        for (i, token) in tokens.iter().enumerate() {
            index.entry(key(&token.chain, &token.address)).or_insert(i);
        }
        Self { tokens, index }
    }

    /// The registry compiled into the binary.
    pub fn builtin() -> &'static TokenRegistry {
        static REGISTRY: OnceLock<TokenRegistry> = OnceLock::new();
        REGISTRY.get_or_init(|| {
            let file: TokenFile = serde_json::from_str(include_str!("../data/tokens.json"))
                .expect("the compiled-in token file is valid JSON");
            Self::from_tokens(file.tokens)
        })
    }

    /// The token at `address` on `chain`, if known. `"BTC"` and the all-zero address name the native token.
    pub fn get(&self, chain: &str, address: &str) -> Option<&TokenInfo> {
        self.index
            .get(&key(chain, address))
            .map(|&i| &self.tokens[i])
    }

    /// Every known token.
    pub fn all(&self) -> &[TokenInfo] {
        &self.tokens
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_tokens_resolve_by_chain_and_address() {
        let registry = TokenRegistry::builtin();
        let btc = registry.get("bitcoin", "BTC").expect("bitcoin");
        assert_eq!((btc.symbol.as_str(), btc.decimals), ("BTC", 8));
        assert_eq!(registry.get("bitcoin", NATIVE_TOKEN), Some(btc));
        let wbtc = registry
            .get("bob", "0x03c7054bcb39f7b2e5b2c7acb37583e32d70cfa3")
            .expect("case-insensitive EVM");
        assert_eq!(wbtc.symbol, "WBTC");
        let usdt = registry
            .get("tron", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")
            .expect("tron usdt");
        assert_eq!(usdt.decimals, 6);
        assert!(
            registry
                .get("tron", "tr7nhqjekqxgtci8q8zy4pl8otszgjlj6t")
                .is_none(),
            "Base58 is case-sensitive"
        );
        assert!(
            registry
                .get("bob", "0x1111111111111111111111111111111111111111")
                .is_none()
        );
    }
}
