//! What crosses into the window besides errors: the settings, the network, routes and tokens, and `RouteKind`'s words.
//! The window's error is in [`crate::error`]. The TypeScript twins are generated (ts-rs).

use serde::Serialize;
use ts_rs::TS;

use crate::settings::{AffiliateEntry, NetworkKind, Theme};

/// The network in use, as the header shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "NetworkView.ts")]
pub struct NetworkView {
    /// Which network it is.
    pub kind: NetworkKind,
    /// Its name for a person: "Production", "Staging", "Custom URL" or "Sandbox".
    pub label: String,
    /// The gateway's base URL, without a trailing slash (on the Sandbox, the local gateway's loopback address).
    pub base_url: String,
    /// The version of the gateway's interface the app speaks to this network, chosen per network.
    #[ts(type = "\"v1\" | \"v2\" | \"v3\" | \"v4\"")]
    pub api_version: String,
    /// The Bitcoin network of the gateway's addresses and transactions.
    #[ts(type = "\"mainnet\" | \"testnet\" | \"signet\" | \"regtest\"")]
    pub bitcoin_network: String,
    /// Whether the person may choose it in Settings (Staging and a custom URL; the Sandbox is regtest, Production
    /// mainnet).
    pub bitcoin_network_settable: bool,
    /// The mark every view shows when nothing here is real: "Sandbox — simulated, no real money moves" on the
    /// Sandbox, absent elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub simulated: Option<String>,
}

/// The settings as the window shows them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "SettingsView.ts")]
pub struct SettingsView {
    /// The network in use.
    pub network: NetworkView,
    /// The custom gateway URL last saved, kept when another network is chosen so it can be chosen again.
    pub custom_url: Option<String>,
    /// Where the settings file lives.
    pub settings_path: String,
    /// Something the person should know about the settings (a file set aside, a keychain that is unreachable).
    pub notices: Vec<String>,
    /// The network's API key, masked (`ab…yz`), when one is in use.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub api_key: Option<String>,
    /// A keychain is reachable, so a key can be stored.
    pub keychain_available: bool,
    /// The addresses whose orders are followed on this network.
    pub watched: Vec<String>,
    /// Where the order journal lives (absent when it cannot be used).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub journal_path: Option<String>,
    /// The window's colours as chosen.
    pub theme: Theme,
    /// The partner's affiliate entries on this network, sent with every onramp and offramp quote (V2, V3).
    pub affiliates: Vec<AffiliateEntry>,
    /// The one affiliate sent with V3 token-swap quotes on this network.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub token_swap_affiliate: Option<AffiliateEntry>,
    /// Calls the app cannot decode are let through on this network, shown as not checked, instead of refused
    /// (absent: off).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[ts(type = "boolean | undefined", optional = nullable)]
    pub blind_signing: bool,
    /// The Sandbox's orders take the real service's shape (each chain's published entry contract and its `exec`),
    /// checked as on Production (absent: off).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[ts(type = "boolean | undefined", optional = nullable)]
    pub sandbox_production_shape: bool,
    /// The endpoints of the chains the wallet reads itself (the EVM chains, Solana and Tron) on this network, in the
    /// order they are tried (empty on the Sandbox, whose
    /// chains are its own local nodes; then absent).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<ChainEndpointsView>>", optional)]
    pub chain_endpoints: Vec<ChainEndpointsView>,
}

/// One chain's endpoints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "ChainEndpointsView.ts")]
pub struct ChainEndpointsView {
    /// The chain's slug (`ethereum`, `bob`, …; Solana's and Tron's endpoints are listed here too).
    pub chain: String,
    /// The endpoint URLs in use, in the order they are tried.
    pub urls: Vec<String>,
    /// Chosen in Settings (else the public defaults).
    pub custom: bool,
}

pub use crate::execute::rail::EndpointCheck;

/// A network to switch to.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "NetworkChoice.ts")]
pub struct NetworkChoice {
    /// The network chosen.
    pub kind: NetworkKind,
    /// Required for the custom network: an http(s) URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub custom_url: Option<String>,
}

/// A token as the window shows it; `symbol` and `decimals` are absent when the token is unknown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "TokenView.ts")]
pub struct TokenView {
    /// The chain's slug (`bitcoin`, `ethereum`, `tron`, `solana`, …).
    pub chain: String,
    /// The token's address on its chain, as the gateway's route list gives it.
    pub address: String,
    /// The ticker, such as `WBTC`, from the app's list of known tokens.
    pub symbol: Option<String>,
    /// The token's full name, from the app's list of known tokens.
    pub name: Option<String>,
    /// How many decimal places the token has, needed to turn smallest units into whole tokens.
    pub decimals: Option<u8>,
}

/// Which kind of order a route makes: gateway-client's, the one list (its words: `key`, `noun`, `described`).
pub use gateway_client::wire::RouteKind;

/// One route with its tokens' facts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "RouteView.ts")]
pub struct RouteView {
    /// Which kind of order the route makes.
    pub kind: RouteKind,
    /// The token paid in.
    pub src: TokenView,
    /// The token received.
    pub dst: TokenView,
    /// The slippage tolerance the swap form starts with on this route, in bps
    /// ([`RouteKind::default_slippage_bps`]).
    pub default_slippage_bps: u32,
}

/// The kind of an order known only from the gateway, from its chains.
pub fn route_of(info: &gateway_client::wire::OrderInfo) -> RouteKind {
    gateway_client::wire::RouteKind::between(&info.src_info.chain, &info.dst_info.chain)
}
