//! Tron over its HTTP API (java-tron's `/wallet/…` endpoints, reqwest and serde_json). Every endpoint must answer
//! the network's block 0 before anything is read from it or sent to it ([`connect`]). The node is never trusted
//! with what is signed: the app builds the transaction's protobuf itself from the verified call and only takes the
//! latest block's reference (TaPoS) from the node ([`crate::execute::rail::tron`]).

use alloy::primitives::{Address, U256};
use alloy::sol_types::SolCall;
use gateway_client::TokenRegistry;
use gateway_client::chains::tron::{self, BlockRef};
use gateway_client::display::amount_text;
use gateway_client::wire::NATIVE_TOKEN;
use serde_json::{Value, json};
use tracing::warn;

use crate::chains::ChainError;
use crate::chains::erc20::{allowanceCall, approvalRequiredCall, balanceOfCall};

/// Tron mainnet's block 0.
pub const MAINNET_GENESIS_BLOCK: &str =
    "00000000000000001ebf88508a03865c71d452e25f4d51194196a1d22b6653dc";
/// Bandwidth a transaction uses beyond its bytes (java-tron counts the signed transaction plus 64).
pub const BANDWIDTH_OVERHEAD: u64 = 64;

/// A Tron HTTP API endpoint, checked to serve the expected network.
#[derive(Debug, Clone)]
pub struct TronEndpoint {
    /// The endpoint's URL.
    pub url: String,
    http: reqwest::Client,
}

/// A read-only run of a call: its return data, the energy it used, and its logs when the node gives them.
#[derive(Debug, Clone)]
pub struct ConstantRun {
    /// What it returned.
    pub output: Vec<u8>,
    /// The energy it used.
    pub energy: u64,
    /// Its event logs (`None`: the node's answer has none to give).
    pub logs: Option<Vec<crate::chains::simulated::SimLog>>,
}

/// What the network charges: sun per unit of energy and per byte of bandwidth beyond the free allowance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TronPrices {
    /// Sun per unit of energy (the chain parameter `getEnergyFee`).
    pub energy_fee: u64,
    /// Sun per byte of bandwidth (the chain parameter `getTransactionFee`).
    pub bandwidth_fee: u64,
}

/// The answer of a broadcast.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Broadcast {
    /// The node accepted the transaction and passes it on; it is not in a block yet.
    Accepted,
    /// java-tron's code (`SIGERROR`, `TAPOS_ERROR`, `TRANSACTION_EXPIRATION_ERROR`, `DUP_TRANSACTION_ERROR`, …) and
    /// message.
    Refused {
        /// java-tron's code for the refusal.
        code: String,
        /// The node's message, as text.
        message: String,
    },
}

/// A transaction's outcome on chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TronReceipt {
    /// The number of the block it was mined in.
    pub block: u64,
    /// `SUCCESS`, `REVERT`, `OUT_OF_ENERGY`, …
    pub result: String,
    /// Why it failed, when it did.
    pub reason: Option<String>,
    /// The TRX burned, in sun.
    pub fee: u64,
}

fn rpc_error(e: impl std::fmt::Display) -> ChainError {
    ChainError::Rpc(e.to_string())
}

fn number(value: &Value) -> u64 {
    // java-tron leaves zero values out.
    value.as_u64().unwrap_or(0)
}

/// Text of java-tron's hex-encoded messages (plain text is kept as it is).
fn message_text(value: &Value) -> String {
    let text = value.as_str().unwrap_or_default();
    alloy::primitives::hex::decode(text)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .unwrap_or_else(|| text.to_owned())
}

/// Connects to the first of `urls` whose block 0 is `genesis_block` (failing over in order).
pub async fn connect(urls: &[String], genesis_block: &str) -> Result<TronEndpoint, ChainError> {
    let http = crate::chains::http_client()?;
    crate::chains::first_answering(urls, |url, _| {
        let endpoint = TronEndpoint {
            url: url.trim_end_matches('/').to_owned(),
            http: http.clone(),
        };
        async move {
            match endpoint.post("/wallet/getblockbynum", json!({"num": 0})).await {
                Ok(block) if block["blockID"].as_str() == Some(genesis_block) => Ok(endpoint),
                Ok(block) => {
                    warn!(url = endpoint.url, block = %block["blockID"], "endpoint is another Tron network");
                    Err(format!("{} has block 0 {}", endpoint.url, block["blockID"]))
                }
                Err(e) => Err(format!("{} did not answer ({e})", endpoint.url)),
            }
        }
    })
    .await
    .map_err(|tried| ChainError::NoCluster {
        chain: "tron".into(),
        expected: format!("block 0 {genesis_block}"),
        tried,
    })
}

impl TronEndpoint {
    async fn post(&self, path: &str, body: Value) -> Result<Value, ChainError> {
        let answer =
            crate::chains::post_json(&self.http, &format!("{}{path}", self.url), &body).await?;
        if let Some(error) = answer.get("Error") {
            return Err(ChainError::Rpc(format!("{path}: {error}")));
        }
        Ok(answer)
    }

    /// The latest block: the reference a new transaction is built on.
    pub async fn now_block(&self) -> Result<BlockRef, ChainError> {
        let block = self.post("/wallet/getnowblock", json!({})).await?;
        let id: [u8; 32] = block["blockID"]
            .as_str()
            .and_then(|id| alloy::primitives::hex::decode(id).ok())
            .and_then(|bytes| bytes.try_into().ok())
            .ok_or_else(|| rpc_error("getnowblock gave no block id"))?;
        let header = &block["block_header"]["raw_data"];
        Ok(BlockRef {
            number: i64::try_from(number(&header["number"])).map_err(rpc_error)?,
            id,
            timestamp: i64::try_from(number(&header["timestamp"])).map_err(rpc_error)?,
        })
    }

    /// The TRX balance of `account`, in sun (0 for an account never funded).
    pub async fn trx_balance(&self, account: &[u8; 21]) -> Result<u64, ChainError> {
        let answer = self
            .post(
                "/wallet/getaccount",
                json!({"address": tron::base58(account), "visible": true}),
            )
            .await?;
        Ok(number(&answer["balance"]))
    }

    /// A read-only call: its return data and the energy it used; a revert is an error with its reason.
    pub async fn constant_call(
        &self,
        owner: &[u8; 21],
        contract: &[u8; 21],
        data: &[u8],
        call_value: i64,
    ) -> Result<Result<(Vec<u8>, u64), String>, ChainError> {
        Ok(self
            .constant_run(owner, contract, data, call_value)
            .await?
            .map(|run| (run.output, run.energy)))
    }

    /// [`TronEndpoint::constant_call`] with the run's event logs, when the node's answer carries them (`logs`, as
    /// java-tron's `TransactionExtention` may): `None` when it does not.
    pub async fn constant_run(
        &self,
        owner: &[u8; 21],
        contract: &[u8; 21],
        data: &[u8],
        call_value: i64,
    ) -> Result<Result<ConstantRun, String>, ChainError> {
        let answer = self
            .post(
                "/wallet/triggerconstantcontract",
                json!({
                    "owner_address": tron::base58(owner),
                    "contract_address": tron::base58(contract),
                    "data": alloy::primitives::hex::encode(data),
                    "call_value": call_value,
                    "visible": true,
                }),
            )
            .await?;
        let out = answer["constant_result"][0]
            .as_str()
            .and_then(|hex| alloy::primitives::hex::decode(hex).ok())
            .unwrap_or_default();
        let failed = answer["transaction"]["ret"][0]["ret"].as_str() == Some("FAILED")
            || answer["result"]["result"].as_bool() != Some(true);
        if failed {
            let reason = alloy::sol_types::decode_revert_reason(&out)
                .unwrap_or_else(|| message_text(&answer["result"]["message"]));
            return Ok(Err(reason));
        }
        let logs = answer["logs"].as_array().map(|logs| {
            logs.iter()
                .filter_map(|log| {
                    let hex = |v: &Value| -> Option<Vec<u8>> {
                        alloy::primitives::hex::decode(v.as_str()?.trim_start_matches("0x")).ok()
                    };
                    let address = hex(&log["address"])?;
                    // 20 bytes, or 21 with Tron's 0x41 in front.
                    let body = match address.len() {
                        20 => address.as_slice(),
                        21 if address[0] == 0x41 => &address[1..],
                        _ => return None,
                    };
                    Some(crate::chains::simulated::SimLog {
                        address: Address::from_slice(body),
                        topics: log["topics"]
                            .as_array()?
                            .iter()
                            .map(|t| {
                                hex(t)
                                    .filter(|t| t.len() == 32)
                                    .map(|t| alloy::primitives::B256::from_slice(&t))
                            })
                            .collect::<Option<Vec<_>>>()?,
                        data: hex(&log["data"]).unwrap_or_default().into(),
                    })
                })
                .collect()
        });
        Ok(Ok(ConstantRun {
            output: out,
            energy: number(&answer["energy_used"]),
            logs,
        }))
    }

    /// `token.balanceOf(owner)`.
    pub async fn token_balance(
        &self,
        token: &[u8; 21],
        owner: &[u8; 21],
    ) -> Result<U256, ChainError> {
        let data = balanceOfCall {
            owner: Address::from_slice(&owner[1..]),
        }
        .abi_encode();
        let (out, _) = self
            .constant_call(owner, token, &data, 0)
            .await?
            .map_err(ChainError::Rpc)?;
        balanceOfCall::abi_decode_returns(&out).map_err(rpc_error)
    }

    /// `token.allowance(owner, spender)`.
    pub async fn allowance(
        &self,
        token: &[u8; 21],
        owner: &[u8; 21],
        spender: &[u8; 21],
    ) -> Result<U256, ChainError> {
        let data = allowanceCall {
            owner: Address::from_slice(&owner[1..]),
            spender: Address::from_slice(&spender[1..]),
        }
        .abi_encode();
        let (out, _) = self
            .constant_call(owner, token, &data, 0)
            .await?
            .map_err(ChainError::Rpc)?;
        allowanceCall::abi_decode_returns(&out).map_err(rpc_error)
    }

    /// Whether `contract` asks for an approval before it takes a token (as on EVM; true when it cannot say).
    pub async fn approval_required(&self, owner: &[u8; 21], contract: &[u8; 21]) -> bool {
        match self
            .constant_call(owner, contract, &approvalRequiredCall {}.abi_encode(), 0)
            .await
        {
            Ok(Ok((out, _))) => approvalRequiredCall::abi_decode_returns(&out).unwrap_or(true),
            _ => true,
        }
    }

    /// The network's prices: `getEnergyFee` and `getTransactionFee` of its chain parameters.
    pub async fn prices(&self) -> Result<TronPrices, ChainError> {
        let answer = self.post("/wallet/getchainparameters", json!({})).await?;
        let param = |key: &str| {
            answer["chainParameter"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|p| p["key"].as_str() == Some(key))
                .map(|p| number(&p["value"]))
        };
        Ok(TronPrices {
            energy_fee: param("getEnergyFee").ok_or_else(|| rpc_error("no getEnergyFee"))?,
            bandwidth_fee: param("getTransactionFee")
                .ok_or_else(|| rpc_error("no getTransactionFee"))?,
        })
    }

    /// The free bandwidth `account` has left today, in bytes (its own staked bandwidth included).
    pub async fn free_bandwidth(&self, account: &[u8; 21]) -> Result<u64, ChainError> {
        let answer = self
            .post(
                "/wallet/getaccountresource",
                json!({"address": tron::base58(account), "visible": true}),
            )
            .await?;
        let free = number(&answer["freeNetLimit"]).saturating_sub(number(&answer["freeNetUsed"]));
        let staked = number(&answer["NetLimit"]).saturating_sub(number(&answer["NetUsed"]));
        Ok(free + staked)
    }

    /// Broadcasts a signed transaction (the whole `Transaction` protobuf).
    pub async fn broadcast(&self, transaction: &[u8]) -> Result<Broadcast, ChainError> {
        let answer = self
            .post(
                "/wallet/broadcasthex",
                json!({"transaction": alloy::primitives::hex::encode(transaction)}),
            )
            .await?;
        if answer["result"].as_bool() == Some(true) {
            return Ok(Broadcast::Accepted);
        }
        Ok(Broadcast::Refused {
            code: answer["code"].as_str().unwrap_or("OTHER_ERROR").to_owned(),
            message: message_text(&answer["message"]),
        })
    }

    /// Whether the node knows the transaction `id` (hex), executed or pending.
    pub async fn known(&self, id: &str) -> Result<bool, ChainError> {
        let answer = self
            .post("/wallet/gettransactionbyid", json!({"value": id}))
            .await?;
        Ok(answer.get("txID").is_some())
    }

    /// The outcome of transaction `id` once it is in a block; `None` before.
    pub async fn receipt(&self, id: &str) -> Result<Option<TronReceipt>, ChainError> {
        let info = self
            .post("/wallet/gettransactioninfobyid", json!({"value": id}))
            .await?;
        if info.get("id").is_none() {
            return Ok(None);
        }
        let result = info["receipt"]["result"]
            .as_str()
            .unwrap_or(if info["result"].as_str() == Some("FAILED") {
                "FAILED"
            } else {
                "SUCCESS"
            })
            .to_owned();
        let reason = (result != "SUCCESS").then(|| {
            let data = info["contractResult"][0]
                .as_str()
                .and_then(|hex| alloy::primitives::hex::decode(hex).ok())
                .unwrap_or_default();
            let why = alloy::sol_types::decode_revert_reason(&data)
                .unwrap_or_else(|| message_text(&info["resMessage"]));
            if why.is_empty() {
                result.clone()
            } else {
                format!("{result}: {why}")
            }
        });
        Ok(Some(TronReceipt {
            block: number(&info["blockNumber"]),
            result,
            reason,
            fee: number(&info["fee"]),
        }))
    }
}

/// `sun` of TRX as a person reads it.
pub(crate) fn trx_text(sun: u64) -> String {
    amount_text(
        TokenRegistry::builtin(),
        "tron",
        NATIVE_TOKEN,
        &sun.to_string(),
    )
}

/// `amount` of the TRC-20 `token` as a person reads it.
pub(crate) fn trc20_text(token: &[u8; 21], amount: U256) -> String {
    amount_text(
        TokenRegistry::builtin(),
        "tron",
        &tron::base58(token),
        &amount.to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_and_messages_read_as_a_person_reads_them() {
        assert_eq!(trx_text(1_500_000), "1.5 TRX");
        let usdt = tron::parse_account("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t").unwrap();
        assert_eq!(trc20_text(&usdt, U256::from(25_000_000u64)), "25 USDT");
        assert_eq!(
            message_text(&json!("5472616e73616374696f6e2065787069726564")),
            "Transaction expired"
        );
        assert_eq!(message_text(&json!("Dup transaction.")), "Dup transaction.");
    }
}
