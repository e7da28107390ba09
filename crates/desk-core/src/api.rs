//! What crosses into the window: results and the structured error. The TypeScript twins are generated (ts-rs).

use gateway_client::ClientError;
use serde::Serialize;
use ts_rs::TS;

use crate::settings::{AffiliateEntry, NetworkKind, Theme};

/// Broad classes of failure, so the window can choose how to present one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "ErrorKind.ts")]
pub enum ErrorKind {
    /// Something the person typed or chose is not acceptable; nothing was sent.
    InvalidInput,
    /// The gateway answered with a coded error (`code` and `details` say which).
    Gateway,
    /// The gateway could not be reached or answered with something that is not the interface.
    Transport,
    /// The gateway asked the app to slow down.
    RateLimited,
    /// Nothing was found.
    NotFound,
    /// The operating system's keychain could not be used.
    Keychain,
    /// The settings could not be saved.
    Settings,
    /// The embedded Sandbox gateway could not be started.
    Sandbox,
    /// The order journal could not be read or written.
    Journal,
    /// What the gateway asks to be signed does not match the quote: it must not be signed.
    Refused,
    /// The app's wallet is absent, locked, or could not sign.
    Wallet,
}

/// A failure as the window receives it: `{ kind, message, code?, details? }`.
///
/// `message` is a sentence for a person that ends with what to do next.
#[derive(Debug, Clone, PartialEq, Serialize, TS, thiserror::Error)]
#[error("{message}")]
#[ts(export_to = "DeskError.ts")]
pub struct DeskError {
    /// The class of failure, which decides how the window presents it.
    pub kind: ErrorKind,
    /// A sentence for a person that says what went wrong and ends with what to do next.
    pub message: String,
    /// The gateway's error code (such as `QUOTE_AMOUNT_TOO_LOW`) when the gateway refused; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub code: Option<String>,
    /// Structured facts about the failure: the gateway's `details` as it sent them, or the app's own (such as
    /// `{ "field": "customUrl" }`, naming the form field at fault).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub details: Option<Box<serde_json::Value>>,
}

impl DeskError {
    /// An error without a gateway code.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            code: None,
            details: None,
        }
    }
}

impl From<ClientError> for DeskError {
    fn from(err: ClientError) -> Self {
        match err {
            ClientError::Gateway { body, .. } => Self {
                kind: ErrorKind::Gateway,
                message: format!(
                    "The gateway refused the request: {}. {}",
                    body.error.trim_end_matches('.'),
                    body.code.next_step()
                ),
                code: Some(body.code.as_str().to_owned()),
                details: body.details.map(Box::new),
            },
            ClientError::RateLimited { retry_after } => Self::new(
                ErrorKind::RateLimited,
                match retry_after {
                    Some(wait) => format!(
                        "The gateway is receiving too many requests from this app. Wait {} seconds and try again.",
                        wait.as_secs()
                    ),
                    None => "The gateway is receiving too many requests from this app. Wait a minute and try again."
                        .to_owned(),
                },
            ),
            ClientError::NotFound => {
                Self::new(ErrorKind::NotFound, "The gateway has no such record. Check the identifier and try again.")
            }
            ClientError::Timeout(after) => Self::new(
                ErrorKind::Transport,
                format!(
                    "The gateway did not answer within {} seconds. Check your connection and try again.",
                    after.as_secs()
                ),
            ),
            ClientError::Connect(detail) => Self::new(
                ErrorKind::Transport,
                format!(
                    "Could not connect to the gateway ({detail}). Check your connection or the network's URL in \
                     Settings, or switch to the Sandbox."
                ),
            ),
            ClientError::Server { status, .. } => Self::new(
                ErrorKind::Transport,
                format!("The gateway failed with HTTP {status}. Try again in a minute."),
            ),
            ClientError::UnexpectedBody { status, snippet } => Self::new(
                ErrorKind::Transport,
                format!(
                    "The gateway's answer (HTTP {status}) is not what the interface describes, so it was not used: \
                     {snippet}. If this is a block page, your region may be refused; try another network."
                ),
            ),
            ClientError::Transport(detail) => Self::new(
                ErrorKind::Transport,
                format!("The request to the gateway failed ({detail}). Check your connection and try again."),
            ),
            ClientError::Invalid(problem) => Self::new(
                ErrorKind::InvalidInput,
                format!("Nothing was sent: {problem}. Correct it and try again."),
            ),
            ClientError::Mismatch(what) => Self::new(
                ErrorKind::Gateway,
                format!("The gateway's answer does not fit what was asked: {what}."),
            ),
            ClientError::AmbiguousWrite(inner) => Self::new(
                ErrorKind::Transport,
                format!(
                    "The request failed on the way ({inner}) after it may have reached the gateway. Look the \
                     order up before trying again, so that nothing is done twice."
                ),
            ),
        }
    }
}

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
    #[ts(type = "\"v1\" | \"v2\" | \"v3\"")]
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
    /// The EVM chains' JSON-RPC endpoints on this network, in the order they are tried (empty on the Sandbox, whose
    /// chains are its own local nodes; then absent).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<EvmEndpointsView>>", optional)]
    pub evm_endpoints: Vec<EvmEndpointsView>,
}

/// One EVM chain's endpoints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "EvmEndpointsView.ts")]
pub struct EvmEndpointsView {
    /// The chain's slug (`ethereum`, `bob`, …; Solana's and Tron's endpoints are listed here too).
    pub chain: String,
    /// The endpoint URLs in use, in the order they are tried.
    pub urls: Vec<String>,
    /// Chosen in Settings (else the public defaults).
    pub custom: bool,
}

/// What an endpoint answered when checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "EndpointCheck.ts")]
pub struct EndpointCheck {
    /// The endpoint checked, as typed without surrounding spaces.
    pub url: String,
    /// The chain id the endpoint answered (0 for Solana and Tron, which have none).
    #[ts(type = "number")]
    pub chain_id: u64,
    /// The newest block the endpoint knows (on Solana, its slot): a stale endpoint shows an old one.
    #[ts(type = "number")]
    pub latest_block: u64,
}

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

/// Which kind of order a route makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "RouteKind.ts")]
pub enum RouteKind {
    /// Bitcoin to a token on another chain.
    Onramp,
    /// A token on another chain to Bitcoin.
    Offramp,
    /// One token to another, neither of them Bitcoin itself.
    TokenSwap,
}

/// The one word list of the routes: every place in Rust that names a route in text takes its words from here.
impl RouteKind {
    /// The three, in the order the app lists them.
    pub const ALL: [Self; 3] = [Self::Onramp, Self::Offramp, Self::TokenSwap];

    /// The interface's key: `onramp`, `offramp`, `tokenSwap` (the CSV's route column, the command line's output).
    pub fn key(self) -> &'static str {
        match self {
            Self::Onramp => "onramp",
            Self::Offramp => "offramp",
            Self::TokenSwap => "tokenSwap",
        }
    }

    /// The route in a sentence: `onramp`, `offramp`, `token swap`.
    pub fn noun(self) -> &'static str {
        match self {
            Self::Onramp => "onramp",
            Self::Offramp => "offramp",
            Self::TokenSwap => "token swap",
        }
    }

    /// The route in a sentence, with its article and what it does: `an onramp (Bitcoin to a token)`.
    pub fn described(self) -> &'static str {
        match self {
            Self::Onramp => "an onramp (Bitcoin to a token)",
            Self::Offramp => "an offramp (a token to Bitcoin)",
            Self::TokenSwap => "a token swap",
        }
    }
}

impl From<gateway_client::wire::RouteKind> for RouteKind {
    fn from(kind: gateway_client::wire::RouteKind) -> Self {
        match kind {
            gateway_client::wire::RouteKind::Onramp => Self::Onramp,
            gateway_client::wire::RouteKind::Offramp => Self::Offramp,
            gateway_client::wire::RouteKind::TokenSwap => Self::TokenSwap,
        }
    }
}

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
}

/// The kind of an order known only from the gateway, from its chains.
pub fn route_of(info: &gateway_client::wire::OrderInfo) -> RouteKind {
    gateway_client::wire::RouteKind::between(&info.src_info.chain, &info.dst_info.chain).into()
}

/// A refusal of what a person entered in `field` (the window marks that field): an `InvalidInput` error.
pub fn invalid(field: &str, message: impl Into<String>) -> DeskError {
    let mut error = DeskError::new(ErrorKind::InvalidInput, message);
    error.details = Some(Box::new(serde_json::json!({ "field": field })));
    error
}

#[cfg(test)]
mod tests {
    use super::*;
    use gateway_client::GatewayErrorBody;
    use serde_json::json;

    #[test]
    fn a_gateway_error_keeps_its_structure_and_says_what_to_do() {
        let body: GatewayErrorBody = serde_json::from_value(json!({
            "code": "QUOTE_AMOUNT_TOO_LOW", "error": "amount below minimum.",
            "details": {"minimum": "10000", "actual": "5000"}
        }))
        .unwrap();
        let error = DeskError::from(ClientError::Gateway { status: 400, body });
        assert_eq!(error.kind, ErrorKind::Gateway);
        assert_eq!(error.code.as_deref(), Some("QUOTE_AMOUNT_TOO_LOW"));
        assert!(
            error
                .message
                .contains("amount below minimum. Increase the amount"),
            "{}",
            error.message
        );
        let wire = serde_json::to_value(&error).unwrap();
        assert_eq!(wire["kind"], "gateway");
        assert_eq!(wire["details"]["minimum"], "10000");
    }

    #[test]
    fn errors_without_a_code_serialize_without_one() {
        let wire = serde_json::to_value(DeskError::from(ClientError::NotFound)).unwrap();
        assert_eq!(wire["kind"], "not_found");
        assert!(
            wire.get("code").is_none() && wire.get("details").is_none(),
            "{wire}"
        );
    }
}
