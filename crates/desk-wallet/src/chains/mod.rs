//! The chains the app reads and sends to itself, one room per family: EVM ([`evm`]), Solana ([`solana`]) and Tron
//! ([`tron`]); the ERC-20 calls the EVM chains and Tron share ([`erc20`]), and the error every family's read gives
//! ([`ChainError`]).

pub mod erc20;
pub mod evm;
pub mod simulated;

use std::time::Duration;

use alloy::primitives::{Address, U256};
use gateway_client::TokenRegistry;
use gateway_client::display::amount_text;
use gateway_client::wire::NATIVE_TOKEN;

/// Why a chain could not be read. Each message says what to do next.
#[derive(Debug, thiserror::Error)]
pub enum ChainError {
    /// No endpoint of an EVM chain answered with the chain's id: each was unreachable, not a URL, or another chain.
    #[error(
        "No endpoint of {chain} answered as {chain} (chain id {chain_id}): {tried}. Nothing was signed. Check the chain's RPC endpoints in Settings."
    )]
    NoEndpoint {
        /// The chain's slug.
        chain: String,
        /// The chain id an endpoint had to answer.
        chain_id: u64,
        /// Why each endpoint was passed over, in order ("none is set" when there were none).
        tried: String,
    },
    /// No endpoint of Solana or Tron answered as the expected network (Solana's genesis hash, Tron's block 0).
    #[error(
        "No endpoint of {chain} answered as the expected network ({expected}): {tried}. Nothing was signed. Check the chain's RPC endpoints in Settings."
    )]
    NoCluster {
        /// `solana` or `tron`.
        chain: String,
        /// What identifies the expected network, in words (`genesis hash …`, `block 0 …`).
        expected: String,
        /// Why each endpoint was passed over, in order ("none is set" when there were none).
        tried: String,
    },
    /// The slug names no EVM chain the app knows the chain id of.
    #[error("{0} is not an EVM chain the app knows; nothing was signed.")]
    UnknownChain(String),
    /// A node failed a request or gave an answer that cannot be read (or no HTTP client could be made), with what
    /// went wrong.
    #[error("The chain's node failed: {0}. Nothing new was signed; try again in a moment.")]
    Rpc(String),
}

/// `amount` (smallest units) of `chain`'s own coin as a person reads it.
pub(crate) fn coin_text(chain: &str, amount: U256) -> String {
    amount_text(
        TokenRegistry::builtin(),
        chain,
        NATIVE_TOKEN,
        &amount.to_string(),
    )
}

/// The most a network fee of `amount` of `chain`'s coin can cost, as a person reads it: three significant digits,
/// rounded up so that the figure never understates (`0.000501 ETH`, not `0.000500000003500000 ETH`). The exact value
/// stays in the smallest unit beside it (what a confirmation accepts).
pub(crate) fn coin_most_text(chain: &str, amount: U256) -> String {
    match TokenRegistry::builtin().get(chain, NATIVE_TOKEN) {
        Some(info) => format!(
            "{} {}",
            gateway_client::amount::format_units_up(amount, info.decimals, 3),
            info.symbol
        ),
        None => coin_text(chain, amount),
    }
}

/// `amount` of the ERC-20 (or TRC-20) `token` as a person reads it.
pub(crate) fn token_text(chain: &str, token: Address, amount: U256) -> String {
    amount_text(
        TokenRegistry::builtin(),
        chain,
        &token.to_checksum(None),
        &amount.to_string(),
    )
}

/// The HTTP client every chain endpoint is read through: 15 s per request.
pub(crate) fn http_client() -> Result<reqwest::Client, ChainError> {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(15))
        .build()
        .map_err(|e| ChainError::Rpc(e.to_string()))
}

/// Fails over through `urls` in order: the first that `probe` (given the URL as text and parsed) accepts, or why
/// each was passed over (one sentence each, joined), "none is set" when there were none.
pub(crate) async fn first_answering<T, F, Fut>(urls: &[String], mut probe: F) -> Result<T, String>
where
    F: FnMut(String, url::Url) -> Fut,
    Fut: std::future::Future<Output = Result<T, String>>,
{
    let mut tried = Vec::new();
    for url in urls {
        let Ok(parsed) = url::Url::parse(url) else {
            tried.push(format!("{url} is not a URL"));
            continue;
        };
        match probe(url.clone(), parsed).await {
            Ok(found) => return Ok(found),
            Err(why) => tried.push(why),
        }
    }
    if tried.is_empty() {
        tried.push("none is set".into());
    }
    Err(tried.join("; "))
}
