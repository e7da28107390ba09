//! A real local EVM chain behind the Sandbox: an anvil node (Foundry's, from the npm package `@foundry-rs/anvil`
//! that `cargo xtask setup` installs in `chains/`) on loopback, with the chain's real chain id, the Sandbox's gateway
//! contract placed at [`crate::quote::gateway_contract`] and a test ERC-20 at each catalogue token's address
//! (`anvil_setCode`: the catalogue's addresses stay the real ones). Never a mock of JSON-RPC: every call here goes to
//! the node.
//!
//! The contracts are `chains/contracts/*.sol`, compiled by `chains/build.mjs` (solc-js, exact version pinned) into
//! `chains/compiled/contracts.json`, which is committed and checked against its sources by `cargo xtask test`.

use std::net::{Ipv4Addr, TcpListener};
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use alloy_primitives::{Address, U256};
use alloy_sol_types::{SolCall, sol};
use gateway_client::TokenRegistry;
use serde_json::{Value, json};

use crate::catalogue::{AssetClass, Catalogue};
use crate::payload::evm::chain_id;

/// An EVM address that receives what a tampered answer diverts (where the production shape runs, the Sandbox's thief
/// contract sits there).
pub const ATTACKER_EVM: &str = "0xbad0bad0bad0bad0bad0bad0bad0bad0bad0bad0";

/// The compiled contracts (ABI and runtime bytecode), from `chains/compiled/contracts.json`.
pub const CONTRACTS_JSON: &str = include_str!("../../../chains/compiled/contracts.json");
/// The environment variable naming the anvil binary to run (else the one `chains/node_modules` holds).
pub const ANVIL_ENV: &str = "GATEWAY_ANVIL";

sol! {
    function initialize(string name_, string symbol_, uint8 decimals_, bool resetToZero_);
    function mint(address to, uint256 amount);
    function balanceOf(address owner) returns (uint256);
    function allowance(address owner, address spender) returns (uint256);
    function approve(address spender, uint256 amount) returns (bool);
    function approvalRequired() returns (bool);
}

/// Why the node could not be started or used.
#[derive(Debug, thiserror::Error)]
pub enum NodeError {
    /// Neither [`ANVIL_ENV`] nor `chains/node_modules` gives an anvil binary to run.
    #[error(
        "no anvil binary: run `cargo xtask setup` (it installs @foundry-rs/anvil in chains/), or set {ANVIL_ENV}"
    )]
    NoBinary,
    /// Starting or attaching failed: no free port, the process did not spawn, the node answered another chain id,
    /// or a set-up step around it failed (its HTTP client, its development account, an address that does not parse).
    #[error("anvil could not be started: {0}")]
    Start(String),
    /// The node answered a JSON-RPC call with an error object.
    #[error("the local EVM node answered {method} with an error: {error}")]
    Rpc {
        /// The JSON-RPC method that was called.
        method: String,
        /// The node's error object, as text.
        error: String,
    },
    /// The node could not be reached, or its answer was not the JSON expected.
    #[error("the local EVM node could not be reached: {0}")]
    Transport(String),
    /// [`EvmNode::send_as`] simulated the transaction first and it reverted, so it was not sent.
    #[error("the transaction would revert ({reason}); it was not sent")]
    Reverted {
        /// The node's error for the simulated call (the revert reason, when it gives one).
        reason: String,
    },
    /// The transaction was mined but its receipt's status is not success; carries the receipt.
    #[error("the transaction was mined but failed: {0}")]
    Failed(String),
    /// The chain slug has no chain id the Sandbox knows, so no node can be started for it.
    #[error("{0} is not an EVM chain the Sandbox knows")]
    UnknownChain(String),
    /// The embedded [`CONTRACTS_JSON`] does not parse, or lacks a contract the Sandbox places.
    #[error("the compiled contracts are unreadable: {0}")]
    Contracts(String),
}

impl From<crate::jsonrpc::RpcFailure> for NodeError {
    fn from(failure: crate::jsonrpc::RpcFailure) -> Self {
        match failure {
            crate::jsonrpc::RpcFailure::Transport(e) => Self::Transport(e),
            crate::jsonrpc::RpcFailure::Refused { method, error } => Self::Rpc { method, error },
        }
    }
}

/// The anvil binary: [`ANVIL_ENV`], else the platform package under `chains/node_modules/@foundry-rs/`.
pub fn anvil_binary() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(ANVIL_ENV) {
        return Some(PathBuf::from(path));
    }
    let modules =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../chains/node_modules/@foundry-rs");
    std::fs::read_dir(&modules)
        .ok()?
        .flatten()
        .map(|entry| entry.path().join("bin/anvil"))
        .find(|path| path.is_file())
}

/// The runtime bytecode of a compiled contract (`GatewaySim`, `TestToken`).
pub fn runtime_bytecode(contract: &str) -> Result<String, NodeError> {
    let all: Value =
        serde_json::from_str(CONTRACTS_JSON).map_err(|e| NodeError::Contracts(e.to_string()))?;
    all["contracts"][contract]["runtimeBytecode"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| NodeError::Contracts(format!("no {contract}")))
}

/// A running anvil node for one chain; stopped when dropped.
#[derive(Debug)]
pub struct EvmNode {
    chain: String,
    url: String,
    http: reqwest::Client,
    /// The write end of the node's standard input: closed when this is dropped or this process ends, however it
    /// ends, which stops the node ([`EvmNode::start`]). Dropped before the process handle.
    _lifeline: Option<tokio::process::ChildStdin>,
    /// The node process when this started it (`None` when attached to a node started elsewhere).
    _child: Option<tokio::process::Child>,
}

impl EvmNode {
    /// Starts anvil for `chain` (its real chain id) on a free loopback port and waits until it answers.
    pub async fn start(chain: &str) -> Result<Self, NodeError> {
        let id = chain_id(chain).ok_or_else(|| NodeError::UnknownChain(chain.to_owned()))?;
        let binary = anvil_binary().ok_or(NodeError::NoBinary)?;
        let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .and_then(|l| l.local_addr())
            .map_err(|e| NodeError::Start(e.to_string()))?
            .port();
        let args = [
            "--host".to_owned(),
            "127.0.0.1".to_owned(),
            "--port".to_owned(),
            port.to_string(),
            "--chain-id".to_owned(),
            id.to_string(),
            "--silent".to_owned(),
        ];
        // On Unix anvil runs under a small shell that stops it when its standard input closes: this process holds
        // the pipe's other end, so the node ends with it even when it is killed (SIGKILL runs no destructor).
        #[cfg(unix)]
        let mut command = {
            let mut command = tokio::process::Command::new("sh");
            command
                .arg("-c")
                .arg("\"$0\" \"$@\" & node=$!; read _; kill \"$node\" 2>/dev/null; wait \"$node\"")
                .arg(&binary)
                .args(&args)
                .stdin(Stdio::piped());
            command
        };
        #[cfg(not(unix))]
        let mut command = {
            let mut command = tokio::process::Command::new(&binary);
            command.args(&args).stdin(Stdio::null()).kill_on_drop(true);
            command
        };
        let mut child = command
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| NodeError::Start(format!("{}: {e}", binary.display())))?;
        let lifeline = child.stdin.take();
        let node = Self {
            chain: chain.to_owned(),
            url: format!("http://127.0.0.1:{port}"),
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(10))
                .build()
                .map_err(|e| NodeError::Start(e.to_string()))?,
            _child: Some(child),
            _lifeline: lifeline,
        };
        let started = Instant::now();
        loop {
            match node.rpc("eth_chainId", json!([])).await {
                Ok(answer) if answer.as_str() == Some(&format!("{id:#x}")) => return Ok(node),
                Ok(other) => {
                    return Err(NodeError::Start(format!(
                        "it answered chain id {other}, not {id}"
                    )));
                }
                Err(_) if started.elapsed() < Duration::from_secs(30) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// A node of `chain` already running at `url` (started by a test that outlives the process using it); checked
    /// to answer the chain's id.
    pub async fn attach(chain: &str, url: &str) -> Result<Self, NodeError> {
        let id = chain_id(chain).ok_or_else(|| NodeError::UnknownChain(chain.to_owned()))?;
        let node = Self {
            chain: chain.to_owned(),
            url: url.to_owned(),
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(10))
                .build()
                .map_err(|e| NodeError::Start(e.to_string()))?,
            _child: None,
            _lifeline: None,
        };
        let answer = node.rpc("eth_chainId", json!([])).await?;
        if answer.as_str() != Some(&format!("{id:#x}")) {
            return Err(NodeError::Start(format!(
                "{url} answered chain id {answer}, not {id}"
            )));
        }
        Ok(node)
    }

    /// Funds a Sandbox wallet's address: 10 of the chain's native coin, and of each catalogue token 1 (Bitcoin
    /// tokens) or 10,000 (dollar tokens) minted by the test token contract. Test money on a local chain only.
    pub async fn fund_sandbox_wallet(&self, address: &str) -> Result<(), NodeError> {
        let ten = U256::from(10u64) * U256::from(10u64).pow(U256::from(18u64));
        self.set_native_balance(address, ten).await?;
        for funding in Catalogue::default().sandbox_funding(&self.chain, 18) {
            self.mint(funding.token, address, funding.amount).await?;
        }
        Ok(())
    }

    /// The node's JSON-RPC URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The chain it serves.
    pub fn chain(&self) -> &str {
        &self.chain
    }

    /// One JSON-RPC call; the result, or the node's error.
    pub async fn rpc(&self, method: &str, params: Value) -> Result<Value, NodeError> {
        crate::jsonrpc::call(&self.http, &self.url, method, params)
            .await
            .map_err(NodeError::from)
    }

    /// Places the gateway contract, the chain's entry contract of the production shape (an AllowanceHolder at its
    /// published address) with a stranger's contract for that shape's tampers, and a test token at every catalogue
    /// ERC-20 of this chain, initialized with the
    /// token file's symbol, name and decimals (USDT on Ethereum resets allowances to zero first, as the real one).
    pub async fn place_sandbox_contracts(&self) -> Result<(), NodeError> {
        let gateway = crate::quote::gateway_contract(&self.chain);
        self.rpc(
            "anvil_setCode",
            json!([gateway, runtime_bytecode("GatewaySim")?]),
        )
        .await?;
        // The real service's shape (SimConfig::production_shape): its entry contract at the address it has on this
        // chain, and a stranger's contract for the tampers of that shape.
        if let Some(entry) = crate::quote::entry_of(&self.chain) {
            self.rpc(
                "anvil_setCode",
                json!([entry, runtime_bytecode("SandboxAllowanceHolder")?]),
            )
            .await?;
            self.rpc(
                "anvil_setCode",
                json!([ATTACKER_EVM, runtime_bytecode("SandboxThief")?]),
            )
            .await?;
        }
        let token_code = runtime_bytecode("TestToken")?;
        let registry = TokenRegistry::builtin();
        for token in Catalogue::default()
            .tokens()
            .iter()
            .filter(|t| t.chain == self.chain && t.class != AssetClass::Native)
        {
            let info = registry.get(token.chain, token.address);
            let (symbol, name, decimals) = info.map_or(("TEST", "Test token", 18), |i| {
                (i.symbol.as_str(), i.name.as_str(), i.decimals)
            });
            self.rpc("anvil_setCode", json!([token.address, token_code]))
                .await?;
            let reset = self.chain == "ethereum" && symbol == "USDT";
            let data = initializeCall {
                name_: name.to_owned(),
                symbol_: symbol.to_owned(),
                decimals_: decimals,
                resetToZero_: reset,
            }
            .abi_encode();
            let from = self.dev_account().await?;
            self.send_as(&from, token.address, &data, U256::ZERO)
                .await?;
        }
        Ok(())
    }

    /// The node's first pre-funded development account.
    async fn dev_account(&self) -> Result<String, NodeError> {
        let accounts = self.rpc("eth_accounts", json!([])).await?;
        accounts[0]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| NodeError::Start("no development account".into()))
    }

    /// Gives `to` `amount` of the test token `token` (its smallest unit).
    pub async fn mint(&self, token: &str, to: &str, amount: U256) -> Result<(), NodeError> {
        let to = parse_address(to)?;
        let from = self.dev_account().await?;
        let data = mintCall { to, amount }.abi_encode();
        self.send_as(&from, token, &data, U256::ZERO).await?;
        Ok(())
    }

    /// Sets the native balance of `to` (wei).
    pub async fn set_native_balance(&self, to: &str, wei: U256) -> Result<(), NodeError> {
        self.rpc("anvil_setBalance", json!([to, format!("{wei:#x}")]))
            .await
            .map(drop)
    }

    /// `balanceOf(owner)` of `token`.
    pub async fn token_balance(&self, token: &str, owner: &str) -> Result<U256, NodeError> {
        let data = balanceOfCall {
            owner: parse_address(owner)?,
        }
        .abi_encode();
        let answer = self.call(token, &data).await?;
        Ok(U256::from_be_slice(&answer))
    }

    /// `eth_call` of `data` on `to`; the returned bytes.
    pub async fn call(&self, to: &str, data: &[u8]) -> Result<Vec<u8>, NodeError> {
        let answer = self
            .rpc(
                "eth_call",
                json!([{"to": to, "data": format!("0x{}", alloy_primitives::hex::encode(data))}, "latest"]),
            )
            .await?;
        answer
            .as_str()
            .and_then(|h| alloy_primitives::hex::decode(h).ok())
            .ok_or_else(|| NodeError::Transport(format!("eth_call answered {answer}")))
    }

    /// Sends a transaction from `from` without its key (anvil's impersonation; the Sandbox's own bookkeeping and
    /// tests only, never a user's transaction) after simulating it (`eth_call`: a call that would revert is not
    /// sent, and its reason comes back), and gives its receipt (anvil mines each transaction at once).
    pub async fn send_as(
        &self,
        from: &str,
        to: &str,
        data: &[u8],
        value: U256,
    ) -> Result<Value, NodeError> {
        let tx = json!({
            "from": from,
            "to": to,
            "data": format!("0x{}", alloy_primitives::hex::encode(data)),
            "value": format!("{value:#x}"),
        });
        if let Err(e) = self.rpc("eth_call", json!([tx, "latest"])).await {
            return Err(match e {
                NodeError::Rpc { error, .. } => NodeError::Reverted { reason: error },
                other => other,
            });
        }
        self.rpc("anvil_impersonateAccount", json!([from])).await?;
        let hash = self.rpc("eth_sendTransaction", json!([tx])).await?;
        let hash = hash.as_str().unwrap_or_default();
        // Mined at once, but the receipt may take a moment to be served.
        let started = Instant::now();
        let mut receipt = self.receipt(hash).await?;
        while receipt.is_null() && started.elapsed() < Duration::from_secs(10) {
            tokio::time::sleep(Duration::from_millis(20)).await;
            receipt = self.receipt(hash).await?;
        }
        if receipt["status"] != "0x1" {
            return Err(NodeError::Failed(receipt.to_string()));
        }
        Ok(receipt)
    }

    /// The receipt of `hash` (anvil mines each transaction at once); `Null` when the node does not know it.
    pub async fn receipt(&self, hash: &str) -> Result<Value, NodeError> {
        self.rpc("eth_getTransactionReceipt", json!([hash])).await
    }
}

fn parse_address(text: &str) -> Result<Address, NodeError> {
    text.parse()
        .map_err(|e| NodeError::Start(format!("{text} is not an EVM address ({e})")))
}

/// The ERC-20 calls the Sandbox's tests make (and the app's signer will build).
pub mod calls {
    pub use super::{allowanceCall, approvalRequiredCall, approveCall, balanceOfCall};
}
