//! Solana over plain JSON-RPC (reqwest and serde_json): the Solana RPC client crates are heavy and conflict with the
//! lock file, and a wallet needs only a handful of methods. Every endpoint must answer the cluster's genesis hash
//! before anything is read from it or sent to it ([`connect`]).

use gateway_client::TokenRegistry;
use gateway_client::display::amount_text;
use gateway_client::wire::NATIVE_TOKEN;
use serde_json::{Value, json};
use solana_pubkey::Pubkey;
use tracing::warn;

use crate::chains::ChainError;

/// Solana mainnet-beta's genesis hash: what an endpoint of the real network answers.
pub const MAINNET_GENESIS: &str = "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d";
/// The fee of one signature, in lamports (Solana's base fee per signature).
pub const LAMPORTS_PER_SIGNATURE: u64 = 5_000;

/// A Solana JSON-RPC endpoint, checked to serve the expected cluster.
#[derive(Debug, Clone)]
pub struct SolanaEndpoint {
    /// The endpoint's URL.
    pub url: String,
    http: reqwest::Client,
}

/// A transaction's status as `getSignatureStatuses` gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureStatus {
    /// The slot the transaction was processed in.
    pub slot: u64,
    /// The transaction's error, when it failed on chain.
    pub err: Option<String>,
    /// "processed", "confirmed" or "finalized".
    pub confirmation: String,
}

/// Why the node refused a transaction at `sendTransaction`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendRefusal {
    /// The transaction was executed before (the node says so): not an error for a re-send.
    AlreadyProcessed,
    /// Its blockhash is not one the cluster knows any more.
    BlockhashNotFound,
    /// Anything else, as the node said it (its simulation's error and last log lines).
    Other(String),
}

fn rpc_error(e: impl std::fmt::Display) -> ChainError {
    ChainError::Rpc(e.to_string())
}

/// Connects to the first of `urls` whose `getGenesisHash` is `genesis` (failing over in order).
pub async fn connect(urls: &[String], genesis: &str) -> Result<SolanaEndpoint, ChainError> {
    let http = crate::chains::http_client()?;
    crate::chains::first_answering(urls, |url, _| {
        let endpoint = SolanaEndpoint {
            url,
            http: http.clone(),
        };
        async move {
            match endpoint.rpc("getGenesisHash", json!([])).await {
                Ok(Value::String(answered)) if answered == genesis => Ok(endpoint),
                Ok(other) => {
                    warn!(url = endpoint.url, %other, genesis, "endpoint is another Solana cluster");
                    Err(format!("{} is the cluster with genesis hash {other}", endpoint.url))
                }
                Err(e) => Err(format!("{} did not answer ({e})", endpoint.url)),
            }
        }
    })
    .await
    .map_err(|tried| ChainError::NoCluster {
        chain: "solana".into(),
        expected: format!("genesis hash {genesis}"),
        tried,
    })
}

impl SolanaEndpoint {
    /// One JSON-RPC call: its result, or the node's error (code, message and data) as text.
    async fn call(&self, method: &str, params: Value) -> Result<Result<Value, Value>, ChainError> {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let answer = crate::chains::post_json(&self.http, &self.url, &body).await?;
        Ok(match answer.get("error") {
            Some(error) => Err(error.clone()),
            None => Ok(answer.get("result").cloned().unwrap_or(Value::Null)),
        })
    }

    async fn rpc(&self, method: &str, params: Value) -> Result<Value, ChainError> {
        self.call(method, params)
            .await?
            .map_err(|error| ChainError::Rpc(format!("{method}: {error}")))
    }

    /// The latest blockhash and the slot the node answered at.
    pub async fn latest_blockhash(&self) -> Result<(String, u64), ChainError> {
        let answer = self
            .rpc("getLatestBlockhash", json!([{"commitment": "confirmed"}]))
            .await?;
        let hash = answer["value"]["blockhash"]
            .as_str()
            .ok_or_else(|| rpc_error("getLatestBlockhash gave no blockhash"))?;
        Ok((
            hash.to_owned(),
            answer["context"]["slot"].as_u64().unwrap_or(0),
        ))
    }

    /// Whether `blockhash` is still one the cluster takes a transaction on.
    pub async fn blockhash_valid(&self, blockhash: &str) -> Result<bool, ChainError> {
        let answer = self
            .rpc(
                "isBlockhashValid",
                json!([blockhash, {"commitment": "processed"}]),
            )
            .await?;
        answer["value"]
            .as_bool()
            .ok_or_else(|| rpc_error("isBlockhashValid gave no answer"))
    }

    /// The SOL balance of `owner`, in lamports.
    pub async fn balance(&self, owner: &Pubkey) -> Result<u64, ChainError> {
        let answer = self
            .rpc(
                "getBalance",
                json!([owner.to_string(), {"commitment": "confirmed"}]),
            )
            .await?;
        answer["value"]
            .as_u64()
            .ok_or_else(|| rpc_error("getBalance gave no number"))
    }

    /// The balance of the SPL token `mint` in `owner`'s associated token account (0 when it has none).
    pub async fn token_balance(&self, owner: &Pubkey, mint: &Pubkey) -> Result<u64, ChainError> {
        let account = gateway_payload::solana::associated_token_account(owner, mint);
        match self
            .call(
                "getTokenAccountBalance",
                json!([account.to_string(), {"commitment": "confirmed"}]),
            )
            .await?
        {
            Ok(answer) => answer["value"]["amount"]
                .as_str()
                .and_then(|a| a.parse().ok())
                .ok_or_else(|| rpc_error("getTokenAccountBalance gave no amount")),
            // The account does not exist: nothing of that token is held.
            Err(error) if error["code"].as_i64() == Some(-32602) => Ok(0),
            Err(error) => Err(ChainError::Rpc(format!("getTokenAccountBalance: {error}"))),
        }
    }

    /// The accounts `addresses` as they are now (`getMultipleAccounts`, base64): `None` for one that does not
    /// exist.
    pub async fn accounts(
        &self,
        addresses: &[Pubkey],
    ) -> Result<Vec<Option<crate::chains::simulated::SolAccount>>, ChainError> {
        let list: Vec<String> = addresses.iter().map(ToString::to_string).collect();
        let answer = self
            .rpc(
                "getMultipleAccounts",
                json!([list, {"encoding": "base64", "commitment": "confirmed"}]),
            )
            .await?;
        let values = answer["value"]
            .as_array()
            .filter(|v| v.len() == addresses.len())
            .ok_or_else(|| {
                ChainError::Rpc("getMultipleAccounts gave another number of accounts".into())
            })?;
        Ok(values
            .iter()
            .map(crate::chains::simulated::SolAccount::from_rpc)
            .collect())
    }

    /// Runs the unsigned `wire_b64` transaction on the node (`simulateTransaction`, signatures not verified) and
    /// gives `addresses` as it leaves them: `Ok(Err(why))` when the endpoint cannot simulate (an error answer), with
    /// its words.
    pub async fn simulate(
        &self,
        wire_b64: &str,
        addresses: &[Pubkey],
    ) -> Result<Result<crate::chains::simulated::SolSimulated, String>, ChainError> {
        let list: Vec<String> = addresses.iter().map(ToString::to_string).collect();
        let answer = self
            .call(
                "simulateTransaction",
                json!([wire_b64, {
                    "encoding": "base64",
                    "sigVerify": false,
                    "commitment": "confirmed",
                    "accounts": {"encoding": "base64", "addresses": list},
                }]),
            )
            .await?;
        let value = match answer {
            Ok(value) => value,
            Err(error) => {
                return Ok(Err(format!(
                    "{} answered simulateTransaction with {}",
                    self.url,
                    gateway_client::display::clipped(&error.to_string())
                )));
            }
        };
        let value = &value["value"];
        let err = value.get("err").filter(|e| !e.is_null()).map(|e| {
            let logs: Vec<&str> = value["logs"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .filter(|l| l.contains("failed") || l.contains("Error") || l.contains("error"))
                .collect();
            gateway_client::display::clipped(&format!(
                "{}{}",
                e.as_str().map_or_else(|| e.to_string(), str::to_owned),
                if logs.is_empty() {
                    String::new()
                } else {
                    format!(": {}", logs.join("; "))
                }
            ))
        });
        let accounts = match value["accounts"].as_array() {
            Some(list) if list.len() == addresses.len() => list
                .iter()
                .map(crate::chains::simulated::SolAccount::from_rpc)
                .collect(),
            _ if err.is_some() => Vec::new(),
            _ => {
                return Ok(Err(format!(
                    "{}'s simulateTransaction gave no accounts after the run",
                    self.url
                )));
            }
        };
        Ok(Ok(crate::chains::simulated::SolSimulated { err, accounts }))
    }

    /// What the cluster charges for a message (base64), in lamports; `None` when it no longer knows its blockhash.
    pub async fn fee_for_message(&self, message_b64: &str) -> Result<Option<u64>, ChainError> {
        let answer = self
            .rpc(
                "getFeeForMessage",
                json!([message_b64, {"commitment": "processed"}]),
            )
            .await?;
        Ok(answer["value"].as_u64())
    }

    /// Sends a signed transaction (base64) with the node's preflight simulation; its signature, or why not.
    pub async fn send(&self, wire_b64: &str) -> Result<Result<String, SendRefusal>, ChainError> {
        let answer = self
            .call(
                "sendTransaction",
                json!([wire_b64, {"encoding": "base64", "preflightCommitment": "confirmed", "maxRetries": 0}]),
            )
            .await?;
        Ok(match answer {
            Ok(signature) => signature
                .as_str()
                .map(str::to_owned)
                .ok_or(SendRefusal::Other("no signature in the answer".into())),
            Err(error) => Err(refusal(&error)),
        })
    }

    /// The status of `signature`, `None` when the cluster has not seen it.
    pub async fn status(&self, signature: &str) -> Result<Option<SignatureStatus>, ChainError> {
        let answer = self
            .rpc(
                "getSignatureStatuses",
                json!([[signature], {"searchTransactionHistory": true}]),
            )
            .await?;
        let status = &answer["value"][0];
        if status.is_null() {
            return Ok(None);
        }
        Ok(Some(SignatureStatus {
            slot: status["slot"].as_u64().unwrap_or(0),
            err: (!status["err"].is_null()).then(|| status["err"].to_string()),
            confirmation: status["confirmationStatus"]
                .as_str()
                .unwrap_or("processed")
                .to_owned(),
        }))
    }
}

/// Reads a `sendTransaction` error: the known refusals by name, else the node's message and the simulation's last
/// log line.
fn refusal(error: &Value) -> SendRefusal {
    let text = error.to_string();
    if text.contains("AlreadyProcessed") || text.contains("already been processed") {
        return SendRefusal::AlreadyProcessed;
    }
    if text.contains("BlockhashNotFound") || text.contains("Blockhash not found") {
        return SendRefusal::BlockhashNotFound;
    }
    let message = error["message"].as_str().unwrap_or("refused").to_owned();
    let last_log = error["data"]["logs"]
        .as_array()
        .and_then(|logs| logs.iter().rev().find_map(Value::as_str))
        .map(str::to_owned);
    SendRefusal::Other(match last_log {
        Some(log) => format!("{message}; {log}"),
        None => message,
    })
}

/// `lamports` of SOL as a person reads it.
pub(crate) fn sol_text(lamports: u64) -> String {
    amount_text(
        TokenRegistry::builtin(),
        "solana",
        NATIVE_TOKEN,
        &lamports.to_string(),
    )
}

/// `amount` of the SPL token `mint` as a person reads it.
pub(crate) fn spl_text(mint: &Pubkey, amount: u64) -> String {
    amount_text(
        TokenRegistry::builtin(),
        "solana",
        &mint.to_string(),
        &amount.to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn send_refusals_are_read_by_name() {
        let already =
            json!({"code": -32002, "message": "Transaction simulation failed: AlreadyProcessed"});
        assert_eq!(refusal(&already), SendRefusal::AlreadyProcessed);
        let expired = json!({"code": -32002, "message": "Transaction simulation failed: Blockhash not found"});
        assert_eq!(refusal(&expired), SendRefusal::BlockhashNotFound);
        let custom = json!({"code": -32002, "message": "Transaction simulation failed: custom program error: 0x1",
            "data": {"logs": ["Program X invoke [1]", "Program X failed: custom program error: 0x1"]}});
        assert_eq!(
            refusal(&custom),
            SendRefusal::Other(
                "Transaction simulation failed: custom program error: 0x1; Program X failed: custom program error: 0x1"
                    .into()
            )
        );
    }

    #[test]
    fn amounts_read_in_the_tokens_units() {
        assert_eq!(sol_text(1_500_000_000), "1.5 SOL");
        let usdc: Pubkey = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
            .parse()
            .unwrap();
        assert_eq!(spl_text(&usdc, 25_000_000), "25 USDC");
    }
}
