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

/// The most a chain node's answer may be, in bytes. It leaves room for the largest the wallet asks for: a Tron node's
/// latest block with its transactions (a block of up to about 2 MB, a few MiB as JSON), or a Solana simulation whose
/// accounts include one of the largest size (10 MiB, 13.4 MiB in base64). An endpoint sending more is refused before
/// it costs more memory.
pub(crate) const MAX_NODE_ANSWER_BYTES: usize = 32 * 1024 * 1024;

/// `body` POSTed as JSON to `url` (a chain node that is not EVM's, whose client is alloy's), and its answer as
/// JSON, read at most [`MAX_NODE_ANSWER_BYTES`].
pub(crate) async fn post_json(
    http: &reqwest::Client,
    url: &str,
    body: &serde_json::Value,
) -> Result<serde_json::Value, ChainError> {
    let rpc = |e: &dyn std::fmt::Display| ChainError::Rpc(e.to_string());
    let response = http
        .post(url)
        .json(body)
        .send()
        .await
        .map_err(|e| rpc(&e))?
        .error_for_status()
        .map_err(|e| rpc(&e))?;
    let bytes = gateway_client::capped::read_capped(response, MAX_NODE_ANSWER_BYTES)
        .await
        .map_err(|e| match e {
            gateway_client::capped::CappedError::TooLarge => ChainError::Rpc(format!(
                "{url} answered more than {} MiB, more than any answer of a chain node; it was not read",
                MAX_NODE_ANSWER_BYTES / (1024 * 1024)
            )),
            gateway_client::capped::CappedError::Transport(e) => rpc(&e),
        })?;
    serde_json::from_slice(&bytes).map_err(|e| rpc(&format!("error decoding response body: {e}")))
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

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;

    use super::*;

    /// A node on loopback that takes one request and hands the connection to `answer`.
    async fn node<F, Fut>(answer: F) -> String
    where
        F: FnOnce(TcpStream) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = ()> + Send,
    {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut request = vec![0u8; 64 * 1024];
            let _ = socket.read(&mut request).await;
            answer(socket).await;
        });
        url
    }

    /// A node that answers with a body larger than [`MAX_NODE_ANSWER_BYTES`]: saying so in its `Content-Length` and
    /// hanging up, or chunked without one, a few MiB more than the bound (read whole, it would fail as JSON with
    /// another sentence, so the tests also fail without the bound).
    async fn oversized_node(chunked: bool) -> String {
        node(move |mut socket| async move {
            if chunked {
                let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
                if socket.write_all(head.as_bytes()).await.is_err() {
                    return;
                }
                let chunk = vec![b' '; 1024 * 1024];
                for _ in 0..MAX_NODE_ANSWER_BYTES / chunk.len() + 4 {
                    let mut piece = format!("{:x}\r\n", chunk.len()).into_bytes();
                    piece.extend_from_slice(&chunk);
                    piece.extend_from_slice(b"\r\n");
                    if socket.write_all(&piece).await.is_err() {
                        return;
                    }
                }
                let _ = socket.write_all(b"0\r\n\r\n").await;
            } else {
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n[",
                    MAX_NODE_ANSWER_BYTES + 1
                );
                let _ = socket.write_all(head.as_bytes()).await;
            }
        })
        .await
    }

    /// Asks an oversized node, sending its length and then not (chunked), through `ask`, and checks each refusal
    /// says `sentence` with the bound in MiB after it.
    async fn refused_both_ways<F, Fut>(ask: F, sentence: &str)
    where
        F: Fn(String) -> Fut,
        Fut: std::future::Future<Output = String>,
    {
        for chunked in [false, true] {
            let err = ask(oversized_node(chunked).await).await;
            assert!(
                err.contains(&format!(
                    "{sentence} {} MiB, more than any answer of a chain node",
                    MAX_NODE_ANSWER_BYTES >> 20
                )),
                "chunked {chunked}: {err}"
            );
        }
    }

    #[tokio::test]
    async fn a_node_answer_larger_than_the_bound_is_refused_with_or_without_its_length() {
        refused_both_ways(
            |url| async move {
                post_json(
                    &http_client().unwrap(),
                    &url,
                    &json!({"method": "getHealth"}),
                )
                .await
                .unwrap_err()
                .to_string()
            },
            "answered more than",
        )
        .await;
    }

    #[tokio::test]
    async fn an_evm_node_answer_larger_than_the_bound_is_refused_too() {
        refused_both_ways(
            |url| async move {
                evm::connect("bob", std::slice::from_ref(&url))
                    .await
                    .unwrap_err()
                    .to_string()
            },
            "larger than",
        )
        .await;
    }

    #[tokio::test]
    async fn a_node_answer_within_the_bound_is_read_as_json() {
        let url = node(|mut socket| async move {
            let body = r#"{"result":"ok"}"#;
            let answer = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            );
            let _ = socket.write_all(answer.as_bytes()).await;
        })
        .await;
        let answer = post_json(&http_client().unwrap(), &url, &json!({}))
            .await
            .unwrap();
        assert_eq!(answer, json!({"result": "ok"}));
    }
}
