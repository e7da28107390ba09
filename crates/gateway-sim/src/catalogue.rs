//! The routes the simulated gateway offers, built from the token facts of `gateway-client`.

use std::collections::HashMap;

use alloy_primitives::U256;

use gateway_client::wire::{NATIVE_TOKEN, RouteKind};
use gateway_client::{ApiVersion, RouteInfo, TokenRegistry};

/// What kind of asset a token is; it decides which routes it takes part in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssetClass {
    /// Bitcoin itself, or a wrapped Bitcoin token.
    Bitcoin,
    /// A USD stablecoin.
    Usd,
    /// A chain's native gas token (ETH, BNB, TRX, SOL).
    Native,
}

/// One token the simulated gateway trades.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedToken {
    /// The chain's slug as the interface writes it (`bitcoin`, `ethereum`, `tron`, `solana`, …).
    pub chain: &'static str,
    /// The token's address on that chain, spelled as in the token file; the all-zero address for Bitcoin and for a
    /// chain's native coin.
    pub address: &'static str,
    /// Its kind of asset, which decides the routes it takes part in.
    pub class: AssetClass,
}

const fn listed(chain: &'static str, address: &'static str, class: AssetClass) -> ListedToken {
    ListedToken {
        chain,
        address,
        class,
    }
}

use AssetClass::{Bitcoin as Btc, Native, Usd};

/// The tokens listed on Bitcoin's and the EVM chains: Bitcoin; BOB, Ethereum, Base, BSC, Arbitrum. Addresses as in the
/// token file. The families added after them are listed by rule ([`added_families_tokens`]).
const LISTED: &[ListedToken] = &[
    listed("bitcoin", NATIVE_TOKEN, Btc),
    listed("bob", NATIVE_TOKEN, Native),
    listed("bob", "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", Btc),
    listed("bob", "0x05D032ac25d322df992303dCa074EE7392C117b9", Usd),
    listed("bob", "0xe75D0fB2C24A55cA1e3F96781a2bCC7bdba058F0", Usd),
    listed("ethereum", NATIVE_TOKEN, Native),
    listed(
        "ethereum",
        "0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599",
        Btc,
    ),
    listed(
        "ethereum",
        "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
        Usd,
    ),
    listed(
        "ethereum",
        "0xdac17f958d2ee523a2206206994597c13d831ec7",
        Usd,
    ),
    listed("base", NATIVE_TOKEN, Native),
    listed("base", "0xcbB7C0000aB88B473b1f5aFd9ef808440eed33Bf", Btc),
    listed("base", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", Usd),
    listed("bsc", NATIVE_TOKEN, Native),
    listed("bsc", "0x0555e30da8f98308edb960aa94c0db47230d2b9c", Btc),
    listed("bsc", "0x55d398326f99059fF775485246999027B3197955", Usd),
    listed("bsc", "0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d", Usd),
    listed("arbitrum", NATIVE_TOKEN, Native),
    listed(
        "arbitrum",
        "0x2f2a2543b76a4166549f7aab2e75bef0aefc5b0f",
        Btc,
    ),
    listed(
        "arbitrum",
        "0xaf88d065e77c8cc2239327c5edb3a432268e5831",
        Usd,
    ),
];

/// The tokens listed on the chains of the families added after Bitcoin and EVM (Tron's, Solana's), after
/// [`LISTED`]: every token of the token file there that is pegged to Bitcoin or the dollar (on Tron USDT, on Solana
/// USDC and USDT, which are what the published service routes there), by family and chain in the chain table's order
/// and by the token file's order on a chain. Their native coins (TRX, SOL) are not listed: the interface writes a
/// native token as the all-zero EVM address, which is no address on those chains, so a client that resolves a chain's
/// native token by the chain's own conventions (as the published service's own command-line client does) could not
/// read such a route.
fn added_families_tokens() -> impl Iterator<Item = ListedToken> {
    use gateway_client::chains::{CHAINS, ChainFamily};
    use gateway_client::params::{Peg, peg_of};
    let registry = TokenRegistry::builtin();
    ChainFamily::ALL
        .into_iter()
        .filter(|family| !matches!(family, ChainFamily::Bitcoin | ChainFamily::Evm))
        .flat_map(|family| CHAINS.iter().filter(move |c| c.family == family))
        .flat_map(move |chain| {
            registry
                .all()
                .iter()
                .filter(move |t| {
                    t.chain == chain.slug
                        && !gateway_client::wire::is_native_token(chain.slug, &t.address)
                })
                .filter_map(move |t| {
                    let class = match peg_of(&t.symbol)? {
                        Peg::Bitcoin => AssetClass::Bitcoin,
                        Peg::Dollar => AssetClass::Usd,
                        _ => return None,
                    };
                    Some(ListedToken {
                        chain: chain.slug,
                        address: t.address.as_str(),
                        class,
                    })
                })
        })
}

/// True for chains that only V3 serves: V1 and V2 answer create-order with a plain EVM call (no `type`), so they
/// serve Bitcoin's and the EVM chains, and a family added after them (Tron, Solana) is V3's.
fn v3_only(chain: &str) -> bool {
    use gateway_client::chains::ChainFamily;
    gateway_client::address::chain_family(chain)
        .is_some_and(|family| !matches!(family, ChainFamily::Bitcoin | ChainFamily::Evm))
}

/// The key of a route: version, source chain and token, destination chain and token.
type RouteKey = (
    ApiVersion,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

/// The routes of the simulated gateway, per API version (worked out once, at construction).
#[derive(Debug, Clone)]
pub struct Catalogue {
    tokens: Vec<ListedToken>,
    /// The routes of V1, V2 and V3, in that order.
    routes: [Vec<RouteInfo>; 4],
    /// Every route's kind by its key, for get-quote's look-up.
    kinds: HashMap<RouteKey, RouteKind>,
}

impl Default for Catalogue {
    fn default() -> Self {
        let tokens: Vec<ListedToken> = LISTED
            .iter()
            .cloned()
            .chain(added_families_tokens())
            .collect();
        let versions = [
            ApiVersion::V1,
            ApiVersion::V2,
            ApiVersion::V3,
            ApiVersion::V4,
        ];
        let routes = versions.map(|v| compute_routes(&tokens, v));
        let listed = |chain: &str, address: &str| {
            tokens
                .iter()
                .find(|t| t.chain == chain && t.address == address)
                .map(|t| (t.chain, t.address))
                .expect("routes are made of listed tokens")
        };
        let mut kinds = HashMap::new();
        for (version, list) in versions.iter().zip(&routes) {
            for r in list {
                let (sc, st) = listed(&r.src_chain, &r.src_token);
                let (dc, dt) = listed(&r.dst_chain, &r.dst_token);
                kinds.insert((*version, sc, st, dc, dt), r.kind());
            }
        }
        Self {
            tokens,
            routes,
            kinds,
        }
    }
}

fn version_index(version: ApiVersion) -> usize {
    match version {
        ApiVersion::V1 => 0,
        ApiVersion::V2 => 1,
        ApiVersion::V3 => 2,
        ApiVersion::V4 => 3,
    }
}

/// One token a Sandbox wallet is funded with ([`Catalogue::sandbox_funding`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Funding {
    /// The token's address on its chain.
    pub token: &'static str,
    /// Its decimals.
    pub decimals: u8,
    /// How much, in smallest units.
    pub amount: U256,
}

impl Funding {
    /// The amount as a `u64`, which some nodes' calls take (the largest one when it does not fit).
    pub fn amount_u64(&self) -> u64 {
        u64::try_from(self.amount).unwrap_or(u64::MAX)
    }
}

impl Catalogue {
    /// The tokens listed.
    pub fn tokens(&self) -> &[ListedToken] {
        &self.tokens
    }

    /// What a Sandbox wallet is funded with of each token listed on `chain` but its native coin: 10,000 of a dollar
    /// token, 1 of any other, in smallest units by the token file's decimals (`fallback_decimals` for a token it
    /// does not have). Each family's node mints these ([`crate::chain_node::RunningNode::fund_sandbox_wallet`]).
    pub fn sandbox_funding(&self, chain: &str, fallback_decimals: u8) -> Vec<Funding> {
        let registry = TokenRegistry::builtin();
        self.tokens
            .iter()
            .filter(|t| t.chain == chain && t.class != AssetClass::Native)
            .map(|token| {
                let decimals = registry
                    .get(token.chain, token.address)
                    .map_or(fallback_decimals, |i| i.decimals);
                let units: u64 = if token.class == AssetClass::Usd {
                    10_000
                } else {
                    1
                };
                Funding {
                    token: token.address,
                    decimals,
                    amount: U256::from(units) * U256::from(10u64).pow(U256::from(decimals)),
                }
            })
            .collect()
    }

    /// The listed token `address` on `chain` (EVM addresses compared without case; the all-zero address, or
    /// `BTC` on Bitcoin, names the native token).
    pub fn find(&self, chain: &str, address: &str) -> Option<&ListedToken> {
        let native = gateway_client::wire::is_native_token(chain, address);
        self.tokens.iter().find(|t| {
            t.chain == chain
                && if native {
                    t.address == NATIVE_TOKEN
                } else if address.starts_with("0x") || address.starts_with("0X") {
                    t.address.eq_ignore_ascii_case(address)
                } else {
                    t.address == address
                }
        })
    }

    /// Every route offered under `version`:
    /// onramp (Bitcoin to every listed token elsewhere), offramp (wrapped Bitcoin and stablecoins to Bitcoin), and
    /// tokenSwap between tokens of the same class on different chains. Tron and Solana appear in V3 only.
    pub fn routes(&self, version: ApiVersion) -> Vec<RouteInfo> {
        self.routes[version_index(version)].clone()
    }

    /// The kind of the route from `src` to `dst` under `version`, if it is offered.
    pub fn route_kind(
        &self,
        version: ApiVersion,
        src: &ListedToken,
        dst: &ListedToken,
    ) -> Option<RouteKind> {
        self.kinds
            .get(&(version, src.chain, src.address, dst.chain, dst.address))
            .copied()
    }

    /// Checks that every listed token is known to the token registry (so the app can show its symbol).
    pub fn unknown_tokens(&self, registry: &TokenRegistry) -> Vec<ListedToken> {
        self.tokens
            .iter()
            .filter(|t| registry.get(t.chain, t.address).is_none())
            .cloned()
            .collect()
    }
}

/// The routes of `version` among `tokens` (see [`Catalogue::routes`]).
fn compute_routes(tokens: &[ListedToken], version: ApiVersion) -> Vec<RouteInfo> {
    let served: Vec<&ListedToken> = tokens
        .iter()
        .filter(|t| version >= ApiVersion::V3 || !v3_only(t.chain))
        .collect();
    let bitcoin = served
        .iter()
        .find(|t| t.chain == "bitcoin")
        .expect("bitcoin is listed");
    let others: Vec<&&ListedToken> = served.iter().filter(|t| t.chain != "bitcoin").collect();
    let route = |src: &ListedToken, dst: &ListedToken| RouteInfo {
        src_chain: src.chain.to_owned(),
        src_token: src.address.to_owned(),
        dst_chain: dst.chain.to_owned(),
        dst_token: dst.address.to_owned(),
    };
    let mut routes = Vec::new();
    for dst in &others {
        routes.push(route(bitcoin, dst));
    }
    for src in others.iter().filter(|t| t.class != Native) {
        routes.push(route(src, bitcoin));
    }
    for src in others.iter().filter(|t| t.class != Native) {
        for dst in others
            .iter()
            .filter(|d| d.class == src.class && d.chain != src.chain)
        {
            routes.push(route(src, dst));
        }
    }
    routes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sandbox_wallet_gets_ten_thousand_of_a_dollar_token_and_one_of_any_other() {
        let catalogue = Catalogue::default();
        let bob = catalogue.sandbox_funding("bob", 18);
        let of = |token: &str| bob.iter().find(|f| f.token == token).copied().unwrap();
        // Wrapped BTC (8 decimals) and USDT (6) on BOB; the native coin is funded by the node, not minted.
        let wbtc = of("0x0555E30da8f98308EdB960aa94C0Db47230d2B9c");
        assert_eq!(
            (wbtc.decimals, wbtc.amount),
            (8, U256::from(100_000_000u64))
        );
        let usdt = of("0x05D032ac25d322df992303dCa074EE7392C117b9");
        assert_eq!(
            (usdt.decimals, usdt.amount),
            (6, U256::from(10_000_000_000u64))
        );
        assert!(bob.iter().all(|f| f.token != NATIVE_TOKEN));
        assert_eq!(bob.len(), 3);
        assert!(catalogue.sandbox_funding("not-a-chain", 8).is_empty());
        let too_large = Funding {
            token: NATIVE_TOKEN,
            decimals: 30,
            amount: U256::from(10u64).pow(U256::from(30u64)),
        };
        assert_eq!(too_large.amount_u64(), u64::MAX);
        assert_eq!(usdt.amount_u64(), 10_000_000_000);
    }

    #[test]
    fn every_listed_token_has_metadata() {
        assert_eq!(
            Catalogue::default().unknown_tokens(TokenRegistry::builtin()),
            vec![]
        );
    }

    #[test]
    fn routes_follow_the_versions() {
        let catalogue = Catalogue::default();
        let v3 = catalogue.routes(ApiVersion::V3);
        let v2 = catalogue.routes(ApiVersion::V2);
        assert!(
            v3.iter()
                .any(|r| r.src_chain == "bitcoin" && r.dst_chain == "tron")
        );
        assert!(
            v3.iter()
                .any(|r| r.src_chain == "solana" && r.dst_chain == "bitcoin")
        );
        assert!(
            v2.iter()
                .all(|r| !v3_only(&r.src_chain) && !v3_only(&r.dst_chain))
        );
        assert!(v2.len() < v3.len());
        let mut seen = std::collections::HashSet::new();
        assert!(
            v3.iter().all(|r| seen.insert(r.clone())),
            "no route is listed twice"
        );
        assert!(
            v3.iter().all(|r| r.src_chain != r.dst_chain),
            "every route crosses chains"
        );
    }

    /// The added families' tokens come from the token file by rule, and are exactly the rows the catalogue listed by
    /// hand before, in the same order (the routes are worked out in that order).
    #[test]
    fn the_added_families_tokens_are_the_token_files_pegged_ones_there() {
        let added: Vec<(&str, &str, AssetClass)> = added_families_tokens()
            .map(|t| (t.chain, t.address, t.class))
            .collect();
        assert_eq!(
            added,
            [
                (
                    "tron",
                    "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
                    AssetClass::Usd
                ),
                (
                    "solana",
                    "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
                    AssetClass::Usd
                ),
                (
                    "solana",
                    "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB",
                    AssetClass::Usd
                ),
            ]
        );
        let all = Catalogue::default();
        assert_eq!(
            &all.tokens()[LISTED.len()..],
            added_families_tokens().collect::<Vec<_>>()
        );
    }

    #[test]
    fn tron_and_solana_routes_name_tokens_by_their_chains_own_addresses() {
        use gateway_client::address::{BitcoinNetwork, validate_address};
        let catalogue = Catalogue::default();
        for route in catalogue.routes(ApiVersion::V3) {
            for (chain, token) in [
                (&route.src_chain, &route.src_token),
                (&route.dst_chain, &route.dst_token),
            ] {
                if v3_only(chain) {
                    assert!(
                        validate_address(chain, token, BitcoinNetwork::Mainnet).is_ok(),
                        "{chain} token {token} is not a {chain} address"
                    );
                }
            }
        }
        let on = |chain: &str| -> Vec<&str> {
            catalogue
                .tokens()
                .iter()
                .filter(|t| t.chain == chain)
                .map(|t| t.address)
                .collect()
        };
        assert_eq!(on("tron"), ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"]);
        assert_eq!(
            on("solana"),
            [
                "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
                "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"
            ]
        );
    }
}
