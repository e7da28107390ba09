//! One EVM chain over JSON-RPC (alloy's HTTP provider on the tree's one reqwest): an endpoint checked to be the
//! chain (`eth_chainId`) before anything else, failing over through the chain's endpoints in order; balances,
//! allowances, simulation and gas estimates. What is signed and sent is [`crate::execute::evm`]'s.

use alloy::network::TransactionBuilder;
use alloy::primitives::{Address, Bytes, U256};
use alloy::providers::{Provider, RootProvider};
use alloy::rpc::client::RpcClient;
use alloy::rpc::json_rpc::{RequestPacket, ResponsePacket};
use alloy::rpc::types::TransactionRequest;
use alloy::sol_types::SolCall;
use alloy::transports::{TransportError, TransportErrorKind, TransportFut};
use gateway_client::capped::{CappedError, read_capped};
use tracing::warn;

pub use super::ChainError;
pub use super::erc20::{allowanceCall, approvalRequiredCall, approveCall, balanceOfCall};

fn rpc_error(e: impl std::fmt::Display) -> ChainError {
    ChainError::Rpc(e.to_string())
}

/// The chain id of an EVM chain slug (a chain the gateway names as EVM, [`gateway_client::address::chain_family`]).
pub fn chain_id_of(chain: &str) -> Option<u64> {
    (gateway_client::address::chain_family(chain)
        == Some(gateway_client::address::ChainFamily::Evm))
    .then(|| gateway_client::chains::chain_id(chain))
    .flatten()
}

/// A JSON-RPC endpoint of one chain, checked to be that chain.
#[derive(Debug, Clone)]
pub struct EvmEndpoint {
    /// The chain's slug.
    pub chain: String,
    /// The chain id the endpoint answered: always the chain's own.
    pub chain_id: u64,
    /// The endpoint's URL.
    pub url: String,
    pub(crate) provider: RootProvider,
}

/// Connects to the first of `urls` that answers `eth_chainId` with `chain`'s id (failing over in order). An endpoint
/// that answers another chain id is never used.
pub async fn connect(chain: &str, urls: &[String]) -> Result<EvmEndpoint, ChainError> {
    let expected = chain_id_of(chain).ok_or_else(|| ChainError::UnknownChain(chain.to_owned()))?;
    let http = super::http_client()?;
    super::first_answering(urls, |url, parsed| {
        let local = parsed
            .host_str()
            .is_some_and(|h| h == "127.0.0.1" || h == "localhost" || h == "[::1]");
        let provider = RootProvider::new(RpcClient::new(
            CappedHttp {
                client: http.clone(),
                url: parsed,
            },
            local,
        ));
        async move {
            match provider.get_chain_id().await {
                Ok(id) if id == expected => Ok(EvmEndpoint {
                    chain: chain.to_owned(),
                    chain_id: id,
                    url,
                    provider,
                }),
                Ok(id) => {
                    warn!(chain, url, id, expected, "endpoint is another chain");
                    Err(format!("{url} is chain {id}"))
                }
                Err(e) => Err(format!("{url} did not answer ({e})")),
            }
        }
    })
    .await
    .map_err(|tried| ChainError::NoEndpoint {
        chain: chain.to_owned(),
        chain_id: expected,
        tried,
    })
}

/// alloy's JSON-RPC over HTTP, with the answer read with a bound ([`super::MAX_NODE_ANSWER_BYTES`], as the Solana
/// and Tron nodes' are): alloy's own transport reads a body whole, however large an endpoint makes it.
#[derive(Debug, Clone)]
struct CappedHttp {
    client: reqwest::Client,
    url: url::Url,
}

impl tower_service::Service<RequestPacket> for CappedHttp {
    type Response = ResponsePacket;
    type Error = TransportError;
    type Future = TransportFut<'static>;

    fn poll_ready(
        &mut self,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: RequestPacket) -> Self::Future {
        let this = self.clone();
        Box::pin(async move {
            let response = this
                .client
                .post(this.url)
                .json(&request)
                .headers(request.headers())
                .send()
                .await
                .map_err(TransportErrorKind::custom)?;
            let status = response.status();
            let body = read_capped(response, super::MAX_NODE_ANSWER_BYTES)
                .await
                .map_err(|e| match e {
                    CappedError::TooLarge => TransportErrorKind::custom_str(&format!(
                        "the answer is larger than {} MiB, more than any answer of a chain node; it was not read",
                        super::MAX_NODE_ANSWER_BYTES / (1024 * 1024)
                    )),
                    CappedError::Transport(e) => TransportErrorKind::custom(e),
                })?;
            if !status.is_success() {
                return Err(TransportErrorKind::http_error(
                    status.as_u16(),
                    String::from_utf8_lossy(&body).into_owned(),
                ));
            }
            serde_json::from_slice(&body)
                .map_err(|err| TransportError::deser_err(err, String::from_utf8_lossy(&body)))
        })
    }
}

impl EvmEndpoint {
    /// The latest block number (Settings' endpoint check).
    pub async fn latest_block(&self) -> Result<u64, ChainError> {
        self.provider.get_block_number().await.map_err(rpc_error)
    }

    /// The most a unit of gas may cost now (EIP-1559 max fee per gas), in wei.
    pub async fn gas_price(&self) -> Result<u128, ChainError> {
        self.provider
            .estimate_eip1559_fees()
            .await
            .map(|f| f.max_fee_per_gas)
            .map_err(rpc_error)
    }

    /// The native balance of `owner`, in wei.
    pub async fn native_balance(&self, owner: Address) -> Result<U256, ChainError> {
        self.provider.get_balance(owner).await.map_err(rpc_error)
    }

    /// `token.balanceOf(owner)`.
    pub async fn token_balance(&self, token: Address, owner: Address) -> Result<U256, ChainError> {
        let out = self
            .view(token, balanceOfCall { owner }.abi_encode())
            .await?;
        balanceOfCall::abi_decode_returns(&out).map_err(rpc_error)
    }

    /// `token.allowance(owner, spender)`.
    pub async fn allowance(
        &self,
        token: Address,
        owner: Address,
        spender: Address,
    ) -> Result<U256, ChainError> {
        let out = self
            .view(token, allowanceCall { owner, spender }.abi_encode())
            .await?;
        allowanceCall::abi_decode_returns(&out).map_err(rpc_error)
    }

    /// Whether `contract` wants tokens approved before its call, as the gateway's SDK asks it; a contract without
    /// `approvalRequired()` takes tokens by `transferFrom`, so yes.
    pub async fn approval_required(&self, contract: Address) -> bool {
        self.view(contract, approvalRequiredCall {}.abi_encode())
            .await
            .ok()
            .and_then(|out| approvalRequiredCall::abi_decode_returns(&out).ok())
            .unwrap_or(true)
    }

    pub(crate) async fn view(&self, to: Address, data: Vec<u8>) -> Result<Bytes, ChainError> {
        let tx = TransactionRequest::default().with_to(to).with_input(data);
        self.provider.call(tx).await.map_err(rpc_error)
    }

    /// Simulates `tx` (`eth_call` from its sender); the revert reason when it would fail.
    pub(crate) async fn simulate(&self, tx: &TransactionRequest) -> Result<(), String> {
        self.provider
            .call(tx.clone())
            .await
            .map(drop)
            .map_err(|e| revert_reason(&e.to_string()))
    }

    /// Runs `calls` in order, in one simulated block on top of the latest one (`eth_simulateV1` with
    /// `traceTransfers`, no validation: nothing is signed and fees are not charged). `Ok(Err(why))` when the endpoint
    /// cannot simulate (no such method, or it refused the request), with its words; `Err` when it could not be
    /// reached.
    pub(crate) async fn simulate_block(
        &self,
        calls: &[TransactionRequest],
    ) -> Result<Result<Vec<super::simulated::SimCall>, String>, ChainError> {
        use alloy::transports::RpcError;
        let latest = self
            .provider
            .get_block_by_number(alloy::eips::BlockNumberOrTag::Latest)
            .await
            .map_err(rpc_error)?
            .ok_or_else(|| ChainError::Rpc("the node has no latest block".into()))?;
        let calls: Vec<serde_json::Value> = calls
            .iter()
            .map(|tx| {
                let mut call = serde_json::json!({
                    "from": tx.from.unwrap_or_default(),
                    "input": tx.input.input().cloned().unwrap_or_default(),
                    "value": tx.value.unwrap_or_default(),
                });
                if let Some(alloy::primitives::TxKind::Call(to)) = tx.to {
                    call["to"] = serde_json::json!(to);
                }
                call
            })
            .collect();
        // The block's time is set to the next block's: some nodes otherwise simulate at time 1 and a deadline in
        // the call reverts.
        let payload = serde_json::json!({
            "blockStateCalls": [{
                "blockOverrides": { "time": format!("{:#x}", latest.header.timestamp + 12) },
                "calls": calls,
            }],
            "traceTransfers": true,
            "validation": false,
        });
        let answer: Result<serde_json::Value, _> = self
            .provider
            .raw_request("eth_simulateV1".into(), (payload, "latest"))
            .await;
        let answer = match answer {
            Ok(answer) => answer,
            Err(RpcError::ErrorResp(e)) => {
                warn!(chain = self.chain, code = e.code, message = %e.message, "eth_simulateV1 refused");
                return Ok(Err(format!(
                    "{} answered eth_simulateV1 with error {} ({})",
                    self.url,
                    e.code,
                    gateway_client::display::clipped(&e.message)
                )));
            }
            Err(e) => return Err(rpc_error(e)),
        };
        Ok(parse_simulated(&answer)
            .map_err(|why| format!("{}'s eth_simulateV1 answer is unreadable ({why})", self.url)))
    }

    /// Gas for `tx` with the margin max(1.2×, +300,000); the revert reason when the estimate fails.
    pub(crate) async fn gas_for(&self, tx: &TransactionRequest) -> Result<u64, String> {
        let estimate = self
            .provider
            .estimate_gas(tx.clone())
            .await
            .map_err(|e| revert_reason(&e.to_string()))?;
        Ok((estimate.saturating_mul(12) / 10).max(estimate.saturating_add(300_000)))
    }
}

/// The calls of the one block of an `eth_simulateV1` answer.
fn parse_simulated(answer: &serde_json::Value) -> Result<Vec<super::simulated::SimCall>, String> {
    use super::simulated::{SimCall, SimLog};
    let calls = answer
        .get(0)
        .and_then(|b| b.get("calls"))
        .and_then(|c| c.as_array())
        .ok_or("no block with calls")?;
    let hex = |v: Option<&serde_json::Value>| -> Result<Bytes, String> {
        match v.and_then(|v| v.as_str()) {
            None => Ok(Bytes::new()),
            Some(s) => s.parse::<Bytes>().map_err(|e| format!("{s:?}: {e}")),
        }
    };
    calls
        .iter()
        .map(|c| {
            let ok = match c.get("status").and_then(|s| s.as_str()) {
                Some("0x1") => true,
                Some("0x0") => false,
                other => return Err(format!("status {other:?}")),
            };
            let error = c.get("error").map(|e| {
                let message = e.get("message").and_then(|m| m.as_str()).unwrap_or("");
                revert_reason(&gateway_client::display::clipped(message))
            });
            let logs = c
                .get("logs")
                .and_then(|l| l.as_array())
                .map(|logs| {
                    logs.iter()
                        .map(|l| {
                            Ok(SimLog {
                                address: l
                                    .get("address")
                                    .and_then(|a| a.as_str())
                                    .and_then(|a| a.parse().ok())
                                    .ok_or("a log without an address")?,
                                topics: l
                                    .get("topics")
                                    .and_then(|t| t.as_array())
                                    .map(|t| {
                                        t.iter().filter_map(|t| t.as_str()?.parse().ok()).collect()
                                    })
                                    .unwrap_or_default(),
                                data: hex(l.get("data"))?,
                            })
                        })
                        .collect::<Result<Vec<_>, String>>()
                })
                .transpose()?
                .unwrap_or_default();
            let output = hex(c.get("returnData"))?;
            // The revert's own reason, from its returned `Error(string)` or `Panic(uint256)`, before the node's words
            // (anvil says only "execution failed").
            let error = if ok {
                None
            } else {
                alloy::sol_types::decode_revert_reason(&output)
                    .map(|r| gateway_client::display::clipped(r.trim_start_matches("revert: ")))
                    .filter(|r| !r.trim().is_empty())
                    .or(error)
            };
            Ok(SimCall {
                ok,
                error,
                output,
                logs,
            })
        })
        .collect()
}

/// The reason in a node's error text (`execution reverted: allowance too low` → `allowance too low`).
pub(crate) fn revert_reason(text: &str) -> String {
    let reason = text
        .rsplit_once("execution reverted: ")
        .map_or(text, |(_, r)| r)
        .trim()
        .trim_end_matches([',', '"']);
    let reason = reason.split(", data:").next().unwrap_or(reason);
    if reason.is_empty() {
        "no reason given".into()
    } else {
        reason.to_owned()
    }
}

/// The gateway's approval spender (its AllowanceHolder contract) on each EVM chain of the production service, the
/// only address the app approves tokens to there. These are the addresses the gateway's own SDK pins for the same
/// check (bob-collective/bob, `sdk/src/gateway/allowance-holder.ts`): 0x Protocol's canonical AllowanceHolder where
/// it is deployed, the gateway's own deployment on BOB. A chain not listed has no known spender: nothing is approved
/// there.
pub fn known_gateway_spender(chain: &str) -> Option<Address> {
    gateway_client::chains::chain(chain)?
        .approval_spender?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revert_reasons_are_read_out_of_node_errors() {
        assert_eq!(
            revert_reason(
                "server returned an error response: error code 3: execution reverted: allowance too low, data: \"0x08c3\""
            ),
            "allowance too low"
        );
        assert_eq!(revert_reason("execution reverted: "), "no reason given");
        assert_eq!(revert_reason("nonce too low"), "nonce too low");
    }

    #[test]
    fn the_gateway_spenders_are_pinned_per_chain() {
        assert_eq!(
            format!("{:#x}", known_gateway_spender("bob").unwrap()),
            "0x8fd545b348e84deb145f0179a00c671f0b9519c3"
        );
        assert_eq!(
            known_gateway_spender("base"),
            known_gateway_spender("ethereum")
        );
        assert_eq!(known_gateway_spender("sepolia"), None);
        assert_eq!(known_gateway_spender("tron"), None);
    }

    #[test]
    fn only_evm_chains_have_an_id_here() {
        assert_eq!(chain_id_of("bob"), Some(60808));
        assert_eq!(chain_id_of("ethereum"), Some(1));
        assert_eq!(chain_id_of("tron"), None);
        assert_eq!(chain_id_of("bitcoin"), None);
    }
}
