//! The chains the app reads and sends to itself, one room per family: EVM ([`evm`]), Solana ([`solana`]) and Tron
//! ([`tron`]).

pub mod evm;
pub mod solana;
pub mod tron;

use std::time::Duration;

/// The HTTP client every chain endpoint is read through: 15 s per request.
pub(crate) fn http_client() -> Result<reqwest::Client, evm::ChainError> {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(15))
        .build()
        .map_err(|e| evm::ChainError::Rpc(e.to_string()))
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
