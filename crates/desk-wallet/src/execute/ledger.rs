//! What a wallet step reads of an order and writes of its transactions: the order as the wallet pays it
//! ([`OrderToPay`]), the wallet's transactions ([`WalletTx`]), and the [`Ledger`] that keeps them. The app's journal
//! is the ledger: each signed transaction is written there before it is broadcast, and every move after.

use gateway_client::wire::RouteKind;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What a transaction the app's wallet signed does for its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "WalletTxKind.ts")]
pub enum WalletTxKind {
    /// Sets a token's allowance to the gateway back to zero (tokens that refuse to change a non-zero allowance).
    ResetApproval,
    /// Approves exactly the order's amount of the token to the gateway's contract.
    Approve,
    /// The order's own transaction: pays the gateway.
    Pay,
}

impl WalletTxKind {
    /// A short name: `reset`, `approve`, `pay`.
    pub fn slug(self) -> &'static str {
        match self {
            Self::ResetApproval => "reset",
            Self::Approve => "approve",
            Self::Pay => "pay",
        }
    }
}

/// Where a signed transaction is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "WalletTxState.ts")]
pub enum WalletTxState {
    /// Signed and journaled; maybe not broadcast yet.
    Signed,
    /// Broadcast; no receipt yet.
    Sent,
    /// Mined and succeeded.
    Mined,
    /// Mined and reverted: it did nothing but cost its gas.
    Reverted,
}

/// A transaction the app's wallet signed, as journaled before it was broadcast.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "WalletTx.ts")]
pub struct WalletTx {
    /// What the transaction does for its order.
    pub kind: WalletTxKind,
    /// The slug of the chain it is sent on.
    pub chain: String,
    /// The transaction hash (`0x…`; on Solana the fee payer's signature, Base58).
    pub hash: String,
    /// The signed raw transaction (`0x…`; on Solana base64), re-sent as it is after a restart: never a second,
    /// different one.
    pub raw: String,
    /// The sender's nonce the transaction took (EVM); 0 on Solana and Tron, which have none.
    #[ts(type = "number")]
    pub nonce: u64,
    /// Where the transaction is: signed, sent, mined or reverted.
    pub state: WalletTxState,
    /// The block it was mined in (on Solana, the slot).
    #[ts(type = "number | null")]
    pub block: Option<u64>,
    /// Why it reverted, when known.
    pub reason: Option<String>,
}

/// The order as the wallet pays it: what create-order answered and verification kept, and the wallet's transactions
/// for it so far.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderToPay {
    /// The order's journal id.
    pub local_id: i64,
    /// The gateway's order id, once create-order answered.
    pub order_id: Option<String>,
    /// What kind of swap it is.
    pub route: RouteKind,
    /// The quote the order was created from, as the gateway sent it.
    pub quote: serde_json::Value,
    /// Create-order's answer, as the gateway sent it.
    pub created: Option<serde_json::Value>,
    /// What verification checked, when it passed.
    pub verified: Option<serde_json::Value>,
    /// Verified and not yet handed in: the wallet may still sign for it.
    pub awaiting_payment: bool,
    /// The wallet's transactions for it, in the order they were signed.
    pub wallet_txs: Vec<WalletTx>,
}

impl OrderToPay {
    /// What verification kept of the order, when it passed and reads back.
    pub fn verified(&self) -> Option<crate::verify::Verified> {
        serde_json::from_value(self.verified.clone()?).ok()
    }

    /// Create-order's answer, when there is one and it reads back.
    pub fn created(&self) -> Option<gateway_client::wire::CreateOrderResponse> {
        gateway_client::wire::CreateOrderResponse::from_value(self.created.as_ref()?).ok()
    }
}

/// Why the ledger refused or failed to keep a transaction, in its own words.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct LedgerError(pub Box<dyn std::error::Error + Send + Sync>);

/// Where a wallet step reads its order and keeps each transaction it signs: before it is broadcast, and every move
/// after (sent, mined, reverted). The app's journal.
pub trait Ledger: Send + Sync {
    /// The order `local_id`, as the wallet pays it.
    fn order_to_pay(&self, local_id: i64) -> Result<OrderToPay, LedgerError>;

    /// Keeps a transaction the wallet signed, before it is broadcast; refused while an earlier one of the order has no
    /// receipt.
    fn wallet_tx_signed(&self, local_id: i64, signed: &WalletTx) -> Result<(), LedgerError>;

    /// Records that the transaction `hash` moved on: broadcast, mined (in `block`) or reverted (`reason`).
    fn wallet_tx_moved(
        &self,
        local_id: i64,
        hash: &str,
        state: WalletTxState,
        block: Option<u64>,
        reason: Option<&str>,
    ) -> Result<(), LedgerError>;
}
