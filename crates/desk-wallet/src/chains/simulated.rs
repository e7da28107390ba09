//! What a node's run of unsigned transactions gave, as read from its answer: an EVM call's outcome and logs
//! (`eth_simulateV1`, Tron's `triggerconstantcontract`), Solana's accounts (`getMultipleAccounts`,
//! `simulateTransaction`). What they mean for the person is [`crate::simulate`]'s.

use alloy::primitives::{Address, B256, Bytes};

/// One log of a simulated call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimLog {
    /// The contract that emitted it ([`crate::simulate::NATIVE_LOG_ADDRESS`] for a native transfer).
    pub address: Address,
    /// Its topics.
    pub topics: Vec<B256>,
    /// Its data.
    pub data: Bytes,
}

/// One simulated call's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimCall {
    /// Whether it succeeded.
    pub ok: bool,
    /// Its revert reason (or the node's error) when it did not.
    pub error: Option<String>,
    /// What it returned.
    pub output: Bytes,
    /// Its logs.
    pub logs: Vec<SimLog>,
}

/// An account as Solana's RPC gives it (base64 data).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolAccount {
    /// Its lamports.
    pub lamports: u64,
    /// The program that owns it, Base58.
    pub owner: String,
    /// Its data.
    pub data: Vec<u8>,
}

impl SolAccount {
    /// One account of a `getMultipleAccounts` or `simulateTransaction` answer (`null`: it does not exist).
    pub fn from_rpc(value: &serde_json::Value) -> Option<Self> {
        use base64::Engine as _;
        let data = value["data"][0].as_str()?;
        Some(Self {
            lamports: value["lamports"].as_u64()?,
            owner: value["owner"].as_str()?.to_owned(),
            data: base64::engine::general_purpose::STANDARD
                .decode(data)
                .ok()?,
        })
    }

    /// Read as an SPL token account (Token or Token-2022): mint, owner, amount, delegate and its amount.
    pub fn token(&self) -> Option<TokenAccount> {
        const TOKEN: &str = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
        const TOKEN_2022: &str = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PNnBkgTMMtDzn5";
        if (self.owner != TOKEN && self.owner != TOKEN_2022) || self.data.len() < 165 {
            return None;
        }
        let d = &self.data;
        let u64_at = |at: usize| u64::from_le_bytes(d[at..at + 8].try_into().unwrap_or([0; 8]));
        let key = |at: usize| <[u8; 32]>::try_from(&d[at..at + 32]).unwrap_or([0; 32]);
        let delegate = (d[72..76] != [0, 0, 0, 0]).then(|| key(76));
        Some(TokenAccount {
            mint: key(0),
            owner: key(32),
            amount: u64_at(64),
            delegate,
            delegated: u64_at(121),
        })
    }
}

/// The fields of an SPL token account the simulation compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenAccount {
    /// Its mint.
    pub mint: [u8; 32],
    /// Its owner (who may move it).
    pub owner: [u8; 32],
    /// What it holds.
    pub amount: u64,
    /// Who else may move it, if anyone.
    pub delegate: Option<[u8; 32]>,
    /// How much the delegate may move.
    pub delegated: u64,
}

/// What `simulateTransaction` gave: the error when the run fails, else the requested accounts after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolSimulated {
    /// Why the run failed, with the program's log lines that say so.
    pub err: Option<String>,
    /// The requested accounts after the run, in order.
    pub accounts: Vec<Option<SolAccount>>,
}
