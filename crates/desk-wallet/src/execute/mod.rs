//! Executing an order with the app's own wallet, per chain family. Bitcoin onramps are signed in
//! [`crate::wallet::bitcoin_signer`] (the gateway broadcasts them); EVM offramps and token swaps are signed,
//! approved and broadcast in [`evm`], Solana ones signed and sent in [`rail::solana`], Tron ones approved, signed
//! and broadcast in [`rail::tron`]. Each family is a [`rail::WalletRail`], chosen by [`rail::rail_for`]; the rails of
//! the families added after the gateway's own (Bitcoin, EVM) are modules of [`rail`], declared there from
//! gateway-client's list of those families, so that adding one adds its rail's files and changes none here.

pub mod bitcoin;
pub mod evm;
pub mod ledger;
pub mod rail;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::chains::ChainError;
pub use ledger::{Ledger, LedgerError, OrderToPay, WalletTx, WalletTxKind, WalletTxState};

/// Why a wallet step (EVM, Solana or Tron) was not (or not fully) done. Each message says what happened and what to do next.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// The chain could not be reached or read (no endpoint that is the chain, a failing node).
    #[error(transparent)]
    Chain(#[from] ChainError),
    /// The wallet's balances do not cover the step (the amount, the value, the most the fees can cost): the
    /// shortfall in numbers.
    #[error("{0} Nothing was signed.")]
    NotEnough(String),
    /// An approval would go to a contract that is not the gateway contract the app knows (or it knows none): why.
    #[error(
        "No approval is given: {0}. Nothing was signed; do not approve this order's contract elsewhere either."
    )]
    Spender(String),
    /// The simulation or gas estimate of a transaction reverted, so it was not signed.
    #[error("The {what} would fail ({reason}), so it was not signed. {next}")]
    WouldRevert {
        /// Which transaction: "approval" or "order's transaction".
        what: &'static str,
        /// The revert reason, as the node gave it.
        reason: String,
        /// What to do next, as a sentence.
        next: &'static str,
    },
    /// The chain's own simulation shows what the quote does not allow (more leaving the wallet, another token, a third
    /// party, an approval to a stranger, an allowance that outlives the call): what, in words and numbers.
    #[error(
        "The simulation of this order ({node}) shows what its quote does not allow: {surprise}. Nothing was signed. Do not sign this order anywhere; discard it, and tell support its order id."
    )]
    Surprise {
        /// Where it ran: the method and the endpoint.
        node: String,
        /// What it showed, in words and numbers.
        surprise: String,
    },
    /// The endpoint cannot simulate, and signing without a simulation was not accepted for this order: why, and how
    /// to go on.
    #[error("{why} Nothing was signed. {next}")]
    NotSimulated {
        /// Why it could not be simulated, with the endpoint's words.
        why: String,
        /// What to do next, as a sentence.
        next: String,
    },
    /// A signed transaction was mined but reverted: it cost its fee and did nothing.
    #[error(
        "The transaction {hash} was mined but reverted ({reason}): it did nothing but cost its gas. The order was not registered; look at the reason, then sign again or discard the order."
    )]
    Reverted {
        /// The transaction's hash.
        hash: String,
        /// Why it reverted, as far as the chain tells.
        reason: String,
    },
    /// A signed transaction never reached the chain: the node refused it (or, on Tron, it expired unexecuted).
    #[error(
        "The node refused the signed transaction {hash} ({reason}); it never reached the chain. Try again."
    )]
    Refused {
        /// The transaction's hash.
        hash: String,
        /// The node's reason, or why it can never be executed.
        reason: String,
    },
    /// A sent transaction had no receipt within the wait; it stays journaled and is followed up when the order
    /// is resumed.
    #[error(
        "The transaction {hash} was sent but has no receipt after {secs} seconds. The app keeps it and reads its receipt when you resume the order; do not sign another one."
    )]
    NoReceiptYet {
        /// The transaction's hash.
        hash: String,
        /// How long the receipt was awaited, in seconds.
        secs: u64,
    },
    /// The step the person confirmed is no longer the one to sign (another step, a higher fee, another fee payer):
    /// what changed.
    #[error(
        "What is to be signed changed since you read it ({0}). Read the new step and confirm it again."
    )]
    Changed(String),
    /// The blockhash the order's transaction is built on has expired (Solana's), so it can never be executed.
    #[error(
        "The order's transaction is built on the blockhash {blockhash}, which {chain} no longer accepts (a blockhash lasts about a minute). It was {what}, and can never be executed now. Ask for a new quote and create a new order."
    )]
    Expired {
        /// The chain's name as a person reads it (`Solana`).
        chain: &'static str,
        /// The expired blockhash, Base58.
        blockhash: String,
        /// "not signed" or "signed but never executed".
        what: &'static str,
    },
    /// The wallet could not sign (it is locked, its key is not the transaction's signer, the signature failed): why.
    #[error("Signing failed: {0}.")]
    Sign(String),
    /// The journal could not record the transaction, or refused it for this order.
    #[error(transparent)]
    Journal(#[from] LedgerError),
    /// The wallet has no account of the family, or its key cannot be derived.
    #[error(transparent)]
    Wallet(#[from] crate::wallet::WalletError),
    /// The order was asked for with another sender than the wallet's address: the sentence, with what to do.
    #[error("{0}")]
    NotTheSender(String),
    /// The order cannot be signed by the app's wallet as it is: why, with what to do (a sentence).
    #[error("{0}")]
    Refusal(String),
    /// The wallet could not sign (locked, or its signature failed): why, with what to do (a sentence).
    #[error("{0}")]
    Unsigned(String),
    /// An answer could not be read: why, with what to do (a sentence).
    #[error("{0}")]
    Unreadable(String),
    /// The gateway refused or failed a request the rail made through it (Bitcoin's spendable amount).
    #[error(transparent)]
    Gateway(Box<gateway_client::ClientError>),
    /// What the window or the command line passed is not usable (`field`: which input).
    #[error("{message}")]
    Invalid {
        /// The input it is about (`fee`, `token`, `endpoint`).
        field: &'static str,
        /// Why, as a sentence with the next step.
        message: String,
    },
}

impl From<gateway_client::ClientError> for ExecError {
    fn from(e: gateway_client::ClientError) -> Self {
        Self::Gateway(Box::new(e))
    }
}

/// The refusal of a simulation's surprise (`source`: where it ran): a revert as [`ExecError::WouldRevert`], anything
/// else leaving the wallet as [`ExecError::Surprise`].
pub(crate) fn refused_by_simulation(
    surprise: crate::simulate::Surprise,
    source: String,
) -> ExecError {
    match surprise {
        crate::simulate::Surprise::Reverts { what, reason } => ExecError::WouldRevert {
            what,
            reason,
            next: "The chain's simulation shows it. Check the order and the balances, or discard the order.",
        },
        crate::simulate::Surprise::Leaves(surprise) => {
            tracing::warn!(surprise, source, "the simulation refused the order");
            ExecError::Surprise {
                node: source,
                surprise,
            }
        }
    }
}

/// Whether the person accepted signing this order's next step without the chain's simulation, when its endpoint
/// cannot simulate, and whether blind signing is on for the network (without it, no acceptance counts).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Unsimulated {
    /// The person accepted, for this order, signing without a simulation.
    pub accepted: bool,
    /// Blind signing is on for the network.
    pub blind_signing: bool,
}

impl Unsimulated {
    /// Refuses a step whose simulation could not run unless both hold.
    pub fn check(self, simulation: &crate::simulate::Simulation) -> Result<(), ExecError> {
        if !simulation.needs_acceptance() {
            return Ok(());
        }
        let why = simulation.sentence.clone();
        match (self.blind_signing, self.accepted) {
            (true, true) => {
                tracing::warn!("signing without a simulation, accepted for this order");
                Ok(())
            }
            (false, _) => Err(ExecError::NotSimulated {
                why,
                next: "Set an RPC endpoint for this chain that supports eth_simulateV1 in Settings (geth, reth, besu, nethermind and anvil do), or turn on blind signing for this network and accept signing this one order without a simulation.".into(),
            }),
            (true, false) => Err(ExecError::NotSimulated {
                why,
                next: "Set an RPC endpoint that simulates in Settings, or accept signing this one order without a simulation.".into(),
            }),
        }
    }
}

/// What the journal already holds of an order's wallet transactions.
pub(crate) enum Journaled {
    /// A transaction signed (maybe sent) without an outcome yet: to be finished before anything new is signed.
    Pending(WalletTx),
    /// The order's own transaction, executed: its hash.
    Paid(String),
    /// Nothing unfinished; the next step is to be signed.
    Nothing,
}

/// What the journal holds for `order` ([`Journaled`]).
pub(crate) fn journaled(order: &OrderToPay) -> Journaled {
    if let Some(pending) = order
        .wallet_txs
        .iter()
        .find(|t| matches!(t.state, WalletTxState::Signed | WalletTxState::Sent))
    {
        return Journaled::Pending(pending.clone());
    }
    match order
        .wallet_txs
        .iter()
        .find(|t| t.kind == WalletTxKind::Pay && t.state == WalletTxState::Mined)
    {
        Some(paid) => Journaled::Paid(paid.hash.clone()),
        None => Journaled::Nothing,
    }
}

/// The refusal of a step while the wallet is locked.
pub(crate) fn locked() -> ExecError {
    ExecError::Sign("the wallet is locked; unlock it, then sign again".into())
}

/// Whether a verified order has a wallet transaction to finish without a new signature: one journaled without a
/// receipt, or the order's payment mined but not yet handed in.
pub fn has_unfinished_wallet_tx(order: &OrderToPay) -> bool {
    order.awaiting_payment
        && order.wallet_txs.iter().any(|t| {
            matches!(t.state, WalletTxState::Signed | WalletTxState::Sent)
                || (t.kind == WalletTxKind::Pay && t.state == WalletTxState::Mined)
        })
}

/// What one wallet step did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Executed {
    /// An approval (or its reset) was mined; the order's call is next.
    Approved {
        /// The approval's transaction hash.
        hash: String,
    },
    /// The order's payment is done: this is handed in and registered next.
    Paid {
        /// The order's transaction hash (on Solana its signature); on Bitcoin the signed transaction itself (hex),
        /// which the gateway broadcasts.
        hash: String,
    },
}

/// Progress of a broadcast transaction, for the window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "WalletTxProgress.ts")]
pub struct WalletTxProgress {
    /// The journal id of the order the transaction is for.
    #[ts(type = "number")]
    pub local_id: i64,
    /// What the transaction does for the order.
    pub kind: WalletTxKind,
    /// The transaction's hash (on Solana, its signature).
    pub hash: String,
    /// `signed`, `sent`, `mined` or `reverted`.
    pub state: WalletTxState,
    /// How many blocks confirm it, its own block counted (0 until it is mined).
    #[ts(type = "number")]
    pub confirmations: u64,
    /// The progress as a sentence, in the words of the transaction's chain.
    pub text: String,
}

/// Where the kill points of the crash test sit (the app passes a hook that may stop the process).
pub type CrashHook<'a> = &'a (dyn Fn(&str) + Send + Sync);

impl WalletTxProgress {
    /// The progress of the journaled transaction `tx` of order `local_id`.
    /// The progress of the journaled transaction `tx` of order `local_id`, on a chain of blocks that mine it.
    pub fn of(local_id: i64, tx: &WalletTx, state: WalletTxState, confirmations: u64) -> Self {
        let what = match tx.kind {
            WalletTxKind::Pay => "The payment",
            WalletTxKind::Approve => "The approval",
            WalletTxKind::ResetApproval => "The allowance reset",
        };
        let hash = &tx.hash;
        let text = match state {
            WalletTxState::Signed => format!("{what} {hash} is signed and kept; sending it…"),
            WalletTxState::Sent => format!("{what} {hash} is sent; waiting for it to be mined…"),
            WalletTxState::Mined => format!(
                "{what} {hash} is mined ({confirmations} confirmation{}).",
                if confirmations == 1 { "" } else { "s" }
            ),
            WalletTxState::Reverted => {
                format!("{what} {hash} reverted: it did nothing but cost its gas.")
            }
        };
        Self {
            local_id,
            kind: tx.kind,
            hash: tx.hash.clone(),
            state,
            confirmations,
            text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tx(kind: WalletTxKind, hash: &str) -> WalletTx {
        WalletTx {
            kind,
            chain: "bob".into(),
            hash: hash.into(),
            raw: String::new(),
            nonce: 0,
            state: WalletTxState::Signed,
            block: None,
            reason: None,
        }
    }

    #[test]
    fn progress_is_put_in_words_of_its_chain() {
        let approve = WalletTxProgress::of(
            1,
            &tx(WalletTxKind::Approve, "0x1"),
            WalletTxState::Mined,
            1,
        );
        assert_eq!(approve.text, "The approval 0x1 is mined (1 confirmation).");
        let reset = WalletTxProgress::of(
            1,
            &tx(WalletTxKind::ResetApproval, "0x1"),
            WalletTxState::Reverted,
            1,
        );
        assert_eq!(
            reset.text,
            "The allowance reset 0x1 reverted: it did nothing but cost its gas."
        );
        let sent = WalletTxProgress::of(1, &tx(WalletTxKind::Pay, "0xabc"), WalletTxState::Sent, 0);
        assert_eq!(
            sent.text,
            "The payment 0xabc is sent; waiting for it to be mined…"
        );
    }
}
