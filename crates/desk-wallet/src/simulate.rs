//! The chain's own simulation of what is about to be signed, read as what leaves and enters the wallet (issue 30,
//! item 3).
//!
//! The real service's calls end in the gateway's own contract, whose code is not public: the decoding
//! ([`crate::verify`]) proves where the call goes and how much of which token the entry contract lets go, not what
//! the gateway's contract then does. So before the person confirms, the exact transactions (an approval, then the
//! order's call) are run by the person's own endpoint for that chain, from the wallet's current state, and every
//! asset that leaves or enters the wallet is read from what the node reports:
//! - EVM: one `eth_simulateV1` block with `traceTransfers` (the approval, the call, then a read of the allowance left
//!   to the entry contract); ERC-20 `Transfer` and `Approval` logs and the node's native-transfer logs (from
//!   `0xEeee…EeeE`) are compared with the quote in [`assess_calls`].
//! - Tron: a read-only run of the order's call (`triggerconstantcontract`) that must succeed within its fee limit;
//!   java-tron reports no transfers from it, so what moves is not read there ([`SimulationStatus::Partial`]).
//!
//! Anything beyond the quote's input leaving the wallet (another token, more of the same, a transfer to a third
//! party, an approval to anyone but the entry contract, an allowance that outlives the call, native value not asked
//! for), or a revert, refuses the order with a sentence. An endpoint that cannot simulate is said so plainly
//! ([`SimulationStatus::Unavailable`]); the order is then signed only when the person accepts, for that order,
//! signing without it, and only with blind signing on for the network.

pub use crate::chains::simulated::{SimCall, SimLog, SolAccount, SolSimulated, TokenAccount};
use alloy_primitives::{Address, B256, Bytes, U256};
use gateway_client::address::{ChainFamily, chain_family};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Whether the chain's node ran what is to be signed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "SimulationStatus.ts")]
pub enum SimulationStatus {
    /// Run, and every asset that leaves or enters the wallet read: nothing beyond the quote.
    Simulated,
    /// Run and it succeeds within its fee limit, but the node reports no transfers (Tron's read-only run), or only a
    /// later step could be run once an earlier one is mined.
    Partial,
    /// The endpoint cannot simulate (it has no `eth_simulateV1`, or refused it); nothing was run.
    Unavailable,
    /// Not run, because the balances do not cover the order (the shortfall says so).
    NotRun,
}

/// One asset that the simulation saw leave or enter the wallet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "AssetMove.ts")]
pub struct AssetMove {
    /// True when it leaves the wallet, false when it enters.
    pub leaves: bool,
    /// As a person reads it, signed: `−500 USDC`, `+0.01 ETH`.
    pub text: String,
    /// The token's contract, or `native`.
    pub token: String,
    /// The amount in the token's smallest unit (decimal).
    pub amount: String,
    /// Where it goes to (leaving) or comes from (entering).
    pub counterparty: String,
}

/// What the chain's own simulation showed of the transactions still to sign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "Simulation.ts")]
pub struct Simulation {
    /// Whether it ran, and how much it could show.
    pub status: SimulationStatus,
    /// Every asset that leaves or enters the wallet, in the person's units (empty unless simulated).
    pub moves: Vec<AssetMove>,
    /// The whole of it in a sentence: `−500 USDC, network fee at most 0.0008 ETH; nothing else leaves the wallet.`
    pub sentence: String,
    /// Where it ran: the method and the endpoint.
    pub source: String,
}

impl Simulation {
    /// Not run, for `why` (the balances do not cover the order, the blockhash has expired): the shortfall says more.
    pub fn not_run(why: &str) -> Self {
        Self {
            status: SimulationStatus::NotRun,
            moves: Vec::new(),
            sentence: format!("Not simulated: {why}."),
            source: String::new(),
        }
    }

    /// The endpoint (`source`) could not simulate, for `why` (its own words), said plainly.
    pub fn unavailable(why: String, source: String) -> Self {
        tracing::warn!(why, "no simulation");
        Self {
            status: SimulationStatus::Unavailable,
            moves: Vec::new(),
            sentence: format!(
                "Not simulated: {why}. What this order's transaction moves cannot be shown; it is signed only if you accept that for this order, with blind signing on for this network."
            ),
            source,
        }
    }

    /// Whether signing needs the person's explicit acceptance of signing without a simulation.
    pub fn needs_acceptance(&self) -> bool {
        self.status == SimulationStatus::Unavailable
    }
}

/// ERC-20 (and ERC-721) `Transfer(address,address,uint256)`.
pub const TRANSFER_TOPIC: B256 =
    alloy_primitives::b256!("ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef");
/// ERC-20 `Approval(address,address,uint256)`.
pub const APPROVAL_TOPIC: B256 =
    alloy_primitives::b256!("8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925");
/// ERC-721/1155 `ApprovalForAll(address,address,bool)`.
pub const APPROVAL_FOR_ALL_TOPIC: B256 =
    alloy_primitives::b256!("17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31");
/// The address `eth_simulateV1` with `traceTransfers` logs native-coin transfers from (ERC-7528's native token).
pub const NATIVE_LOG_ADDRESS: Address = Address::new([0xee; 20]);

/// At most this many moves are listed, and this many surprises said: the gateway's contract decides how many logs a
/// run emits (any contract may emit `Transfer` events), so the lists are bounded and say how many were left out.
pub const MAX_LISTED: usize = 12;

/// The surprises in one sentence, at most [`MAX_LISTED`] of them and how many more.
pub(crate) fn surprises(mut wrong: Vec<String>) -> Surprise {
    let more = wrong.len().saturating_sub(MAX_LISTED);
    wrong.truncate(MAX_LISTED);
    let mut said = wrong.join("; ");
    if more > 0 {
        said.push_str(&format!("; and {more} more"));
    }
    Surprise::Leaves(said)
}

/// `moves` cut to [`MAX_LISTED`]; how many were left out.
pub(crate) fn bounded(moves: &mut Vec<AssetMove>) -> usize {
    let more = moves.len().saturating_sub(MAX_LISTED);
    moves.truncate(MAX_LISTED);
    more
}

/// What the quote lets leave the wallet, against which a simulation of contract calls (an EVM chain's, or Tron's,
/// whose contracts run the same machine and logs) is read.
#[derive(Debug, Clone)]
pub struct CallExpectation {
    /// The chain's slug (for the amounts' texts).
    pub chain: String,
    /// The wallet.
    pub owner: Address,
    /// The quote's input token (the zero address for the native coin).
    pub token: Address,
    /// The quote's input amount, smallest unit.
    pub amount: U256,
    /// The native value the order's call sends.
    pub value: U256,
    /// The contract the order's call goes to (the entry contract): the only spender an approval may name.
    pub entry: Address,
    /// Who may receive what leaves: the entry contract and, for `exec`, its target.
    pub recipients: Vec<Address>,
    /// The allowance to the entry contract the order's steps leave before the call: the approved amount when an
    /// approval is among the steps, the existing allowance otherwise. What the call does not pull of it outlives the
    /// call.
    pub granted: U256,
    /// The network fee the steps can cost at most, as a person reads it.
    pub max_fee_text: String,
}

/// A simulation that shows something the quote does not allow: the sentence says what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Surprise {
    /// One of the transactions reverts.
    #[error("the {what} reverts in the simulation ({reason})")]
    Reverts {
        /// "approval" or "order's transaction".
        what: &'static str,
        /// Why, as the node said.
        reason: String,
    },
    /// More leaves the wallet than the quote's input, or it goes somewhere else: every such move, in words.
    #[error("{0}")]
    Leaves(String),
}

/// An account as `chain` writes it from its 20 bytes ([`ChainFamily::account_from_body`]: Base58Check of `0x41` and
/// the bytes on Tron, EIP-55 on EVM chains).
fn word_on(chain: &str, address: Address) -> String {
    chain_family(chain)
        .and_then(|family| family.account_from_body(address.0.0))
        .unwrap_or_else(|| address.to_checksum(None))
}

/// `amount` of `token` (the zero address or [`NATIVE_LOG_ADDRESS`]: the native coin) on `chain`, as a person reads it:
/// on an EVM chain in the wallet's coin and token words, on another family's chain (Tron) by the token file, the
/// token written as that chain writes it.
fn amount_on(chain: &str, token: Address, amount: U256) -> String {
    let native = token == NATIVE_LOG_ADDRESS || token.is_zero();
    if chain_family(chain) != Some(ChainFamily::Evm) {
        let token = if native {
            gateway_client::wire::NATIVE_TOKEN.to_owned()
        } else {
            word_on(chain, token)
        };
        gateway_client::display::amount_text(
            gateway_client::TokenRegistry::builtin(),
            chain,
            &token,
            &amount.to_string(),
        )
    } else if native {
        crate::chains::coin_text(chain, amount)
    } else {
        crate::chains::token_text(chain, token, amount)
    }
}

fn topic_address(topic: &B256) -> Address {
    Address::from_slice(&topic[12..])
}

fn log_amount(data: &Bytes) -> U256 {
    data.get(..32)
        .map(U256::from_be_slice)
        .unwrap_or(U256::ZERO)
}

/// Reads a simulation of contract `calls` on an EVM chain or Tron (the steps still to sign in order, then, for a token input, `allowance(owner,
/// entry)`) against what the quote allows. `what` names each step ("approval", "order's transaction").
/// Returns every move in the person's units, or the surprise that refuses the order.
pub fn assess_calls(
    expect: &CallExpectation,
    calls: &[SimCall],
    what: &[&'static str],
    allowance_read: bool,
) -> Result<Simulation, Surprise> {
    let chain = expect.chain.as_str();
    let text = |token: Address, amount: U256| amount_on(chain, token, amount);
    let word = |address: Address| word_on(chain, address);
    let steps = calls.len().saturating_sub(usize::from(allowance_read));
    for (index, call) in calls.iter().enumerate().take(steps) {
        if !call.ok {
            return Err(Surprise::Reverts {
                what: what.get(index).copied().unwrap_or("transaction"),
                reason: call
                    .error
                    .clone()
                    .unwrap_or_else(|| "no reason given".into()),
            });
        }
    }
    let mut moves: Vec<AssetMove> = Vec::new();
    let mut wrong = Vec::new();
    let mut pulled = U256::ZERO;
    let mut native_out = U256::ZERO;
    for log in calls.iter().take(steps).flat_map(|c| &c.logs) {
        let Some(topic) = log.topics.first() else {
            continue;
        };
        if *topic == TRANSFER_TOPIC && log.topics.len() == 3 {
            let (from, to) = (topic_address(&log.topics[1]), topic_address(&log.topics[2]));
            let amount = log_amount(&log.data);
            let native = log.address == NATIVE_LOG_ADDRESS;
            let token = if native { Address::ZERO } else { log.address };
            if from == expect.owner && to != expect.owner {
                moves.push(AssetMove {
                    leaves: true,
                    text: format!("−{}", text(token, amount)),
                    token: if native { "native".into() } else { word(token) },
                    amount: amount.to_string(),
                    counterparty: word(to),
                });
                if token != expect.token {
                    wrong.push(format!(
                        "{} leaves the wallet to {}, but the quote takes only {}",
                        text(token, amount),
                        word(to),
                        text(expect.token, expect.amount)
                    ));
                } else if !expect.recipients.contains(&to) {
                    wrong.push(format!(
                        "{} goes to {}, a third party: neither the gateway's entry contract nor the contract it calls",
                        text(token, amount),
                        word(to)
                    ));
                }
                if native {
                    native_out = native_out.saturating_add(amount);
                } else if token == expect.token {
                    pulled = pulled.saturating_add(amount);
                }
            } else if to == expect.owner && from != expect.owner {
                moves.push(AssetMove {
                    leaves: false,
                    text: format!("+{}", text(token, amount)),
                    token: if native { "native".into() } else { word(token) },
                    amount: amount.to_string(),
                    counterparty: word(from),
                });
            }
        } else if *topic == TRANSFER_TOPIC
            && log.topics.len() == 4
            && topic_address(&log.topics[1]) == expect.owner
        {
            wrong.push(format!(
                "the token {} of the contract {} leaves the wallet to {}",
                U256::from_be_bytes(log.topics[3].0),
                word(log.address),
                word(topic_address(&log.topics[2]))
            ));
        } else if *topic == APPROVAL_TOPIC
            && log.topics.len() == 3
            && topic_address(&log.topics[1]) == expect.owner
        {
            let spender = topic_address(&log.topics[2]);
            let amount = log_amount(&log.data);
            if spender != expect.entry && !amount.is_zero() {
                wrong.push(format!(
                    "the wallet approves {} of its {} to {}, a stranger",
                    if amount == U256::MAX {
                        "all".to_owned()
                    } else {
                        text(log.address, amount)
                    },
                    text(log.address, U256::ZERO)
                        .split_whitespace()
                        .last()
                        .unwrap_or("tokens"),
                    word(spender)
                ));
            }
        } else if *topic == APPROVAL_FOR_ALL_TOPIC
            && log.topics.len() == 3
            && topic_address(&log.topics[1]) == expect.owner
            && log_amount(&log.data) != U256::ZERO
        {
            wrong.push(format!(
                "the wallet lets {} move all its tokens of {}",
                word(topic_address(&log.topics[2])),
                word(log.address)
            ));
        }
    }
    let native_in = expect.token.is_zero();
    if native_in {
        if native_out > expect.value || native_out > expect.amount {
            wrong.push(format!(
                "{} leaves the wallet, more than the quote's {}",
                text(Address::ZERO, native_out),
                text(Address::ZERO, expect.amount)
            ));
        }
    } else {
        if !native_out.is_zero() {
            wrong.push(format!(
                "{} leaves the wallet with a token order",
                text(Address::ZERO, native_out)
            ));
        }
        if pulled > expect.amount {
            wrong.push(format!(
                "{} leaves the wallet, more than the quote's {}",
                text(expect.token, pulled),
                text(expect.token, expect.amount)
            ));
        }
    }
    if allowance_read && !native_in {
        let left = calls
            .last()
            .filter(|c| c.ok)
            .and_then(|c| c.output.get(..32).map(U256::from_be_slice));
        // The order's own approval is for this call alone; of an allowance the person gave before, the quote's amount.
        let may = expect.granted.saturating_sub(expect.amount);
        match left {
            Some(left) if left > may => wrong.push(format!(
                "an allowance of {} to {} outlives the call",
                text(expect.token, left),
                word(expect.entry)
            )),
            Some(_) => {}
            None => wrong.push(format!(
                "the allowance to {} after the call could not be read",
                word(expect.entry)
            )),
        }
    }
    if !wrong.is_empty() {
        return Err(surprises(wrong));
    }
    let more = bounded(&mut moves);
    Ok(Simulation {
        status: SimulationStatus::Simulated,
        sentence: sentence(
            &moves,
            more,
            &format!("at most {}", expect.max_fee_text),
            true,
        ),
        moves,
        source: String::new(),
    })
}

/// `−500 USDC to 0x…, network fee at most 0.0008 ETH; nothing else leaves the wallet.` (and what enters): each move
/// with its counterparty when `with_counterparty` (EVM, Tron), without it on Solana, whose accounts are not a person's.
/// `more` moves were left out of `moves` ([`bounded`]).
pub(crate) fn sentence(
    moves: &[AssetMove],
    more: usize,
    fee: &str,
    with_counterparty: bool,
) -> String {
    let said = |m: &AssetMove| {
        if with_counterparty {
            format!(
                "{} {} {}",
                m.text,
                if m.leaves { "to" } else { "from" },
                m.counterparty
            )
        } else {
            m.text.clone()
        }
    };
    let out: Vec<String> = moves.iter().filter(|m| m.leaves).map(said).collect();
    let inn: Vec<String> = moves.iter().filter(|m| !m.leaves).map(said).collect();
    let mut s = if out.is_empty() {
        format!("Nothing leaves the wallet but the network fee, {fee}")
    } else {
        format!(
            "{}, network fee {fee}; nothing else leaves the wallet",
            out.join(", ")
        )
    };
    if !inn.is_empty() {
        s.push_str(&format!("; enters: {}", inn.join(", ")));
    }
    if more > 0 {
        s.push_str(&format!("; and {more} more moves"));
    }
    s.push('.');
    s
}

#[cfg(test)]
mod tests;
