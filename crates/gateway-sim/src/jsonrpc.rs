//! One JSON-RPC 2.0 call over HTTP, as the Sandbox's chains answer it (anvil, the LiteSVM node): the result, or
//! why not. Each caller words the failure its own way.

use serde_json::{Value, json};

/// Why a call gave no result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RpcFailure {
    /// The node could not be reached, or its answer was not JSON.
    Transport(String),
    /// The node answered with an error object (as text).
    Refused { method: String, error: String },
}

/// Calls `method` with `params` on the node at `url`.
pub(crate) async fn call(
    http: &reqwest::Client,
    url: &str,
    method: &str,
    params: Value,
) -> Result<Value, RpcFailure> {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let answer: Value = http
        .post(url)
        .json(&body)
        .send()
        .await
        .map_err(|e| RpcFailure::Transport(e.to_string()))?
        .json()
        .await
        .map_err(|e| RpcFailure::Transport(e.to_string()))?;
    if let Some(error) = answer.get("error") {
        return Err(RpcFailure::Refused {
            method: method.to_owned(),
            error: error.to_string(),
        });
    }
    Ok(answer.get("result").cloned().unwrap_or(Value::Null))
}
