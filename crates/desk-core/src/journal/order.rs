//! What the journal holds of one order: its current view ([`JournalOrder`]), what was handed in, the wallet's
//! transactions for it, and its events.

use gateway_client::ApiVersion;
use gateway_client::wire::RouteKind;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use super::{NextStep, Stage};
use crate::execute::ledger::WalletTx;

/// What the user handed in for registration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[ts(export_to = "HandedIn.ts")]
pub enum HandedIn {
    /// A signed Bitcoin transaction, hex (the gateway broadcasts it), with its txid.
    BitcoinTx {
        /// The signed transaction, hex-encoded.
        hex: String,
        /// Its transaction id.
        txid: String,
    },
    /// The id of a Bitcoin transaction the user broadcast.
    BitcoinTxid {
        /// The transaction id handed in.
        txid: String,
    },
    /// The hash of a transaction on the source chain.
    SourceTx {
        /// The source chain's slug (`ethereum`, `tron`, `solana`, …).
        chain: String,
        /// The transaction's hash (on Solana, its signature).
        hash: String,
    },
}

impl HandedIn {
    /// The transaction id or hash this names.
    pub fn id(&self) -> &str {
        match self {
            Self::BitcoinTx { txid, .. } | Self::BitcoinTxid { txid } => txid,
            Self::SourceTx { hash, .. } => hash,
        }
    }
}

/// The current view of one journaled order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JournalOrder {
    /// The journal's own id (exists before the gateway's order id).
    pub local_id: i64,
    /// The network it was made on (`production`, `staging`, `sandbox`, `custom:<url>`).
    pub network: String,
    /// The version of the gateway's interface the order was made with.
    pub api_version: ApiVersion,
    /// Which kind of order it is.
    pub route: RouteKind,
    /// The gateway's order id, once known.
    pub order_id: Option<String>,
    /// Where the order is in the flow; it decides the one next step.
    pub stage: Stage,
    /// The addresses the gateway lists the order under (recipient, sender, owner).
    pub addresses: Vec<String>,
    /// The accepted quote, as received.
    pub quote: Value,
    /// The create-order answer, as received.
    pub created: Option<Value>,
    /// The verification's summary of what is to be signed.
    pub verified: Option<Value>,
    /// What the user handed in to be registered (a signed transaction or its id), once they have.
    pub handed_in: Option<HandedIn>,
    /// The register-tx answer, as received.
    pub registration: Option<Value>,
    /// The order as last seen (get-order / get-orders), as received.
    pub status: Option<Value>,
    /// The status in a word (`inProgress`, `success`, …).
    pub status_label: Option<String>,
    /// The last failure, as a sentence.
    pub last_error: Option<String>,
    /// When the order was first journaled, in unix seconds.
    pub created_at: i64,
    /// When the order last changed, in unix seconds.
    pub updated_at: i64,
    /// The transactions the app's wallet signed for this order (approvals, then the payment), each journaled
    /// before it was broadcast.
    pub wallet_txs: Vec<WalletTx>,
}

impl JournalOrder {
    /// The one next step, when the order is unfinished.
    pub fn next_step(&self) -> Option<NextStep> {
        self.stage.next_step()
    }

    /// The order as the wallet pays it.
    pub fn to_pay(&self) -> crate::execute::OrderToPay {
        crate::execute::OrderToPay {
            local_id: self.local_id,
            order_id: self.order_id.clone(),
            route: self.route,
            quote: self.quote.clone(),
            created: self.created.clone(),
            verified: self.verified.clone(),
            awaiting_payment: self.stage == Stage::Verified,
            wallet_txs: self.wallet_txs.clone(),
        }
    }
}

/// One entry of the append-only log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JournalEvent {
    /// The event's place in the whole log, increasing.
    pub seq: i64,
    /// The journal id of the order it belongs to.
    pub local_id: i64,
    /// When it was written, in unix seconds.
    pub at: i64,
    /// What happened, as a camelCase word (`createAnswered`, `registerAnswered`, `statusSeen`, …).
    pub kind: String,
    /// What goes with it (such as the gateway's answer), as JSON.
    pub payload: Value,
}
