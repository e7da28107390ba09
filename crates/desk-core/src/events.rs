//! What the app tells the window without being asked: the events a [`crate::Desk`] sends to its subscribers.

use serde::Serialize;
use ts_rs::TS;

use crate::views::OrderView;

/// What the app tells the window without being asked.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
#[ts(export_to = "DeskEvent.ts")]
pub enum DeskEvent {
    /// An order changed (one of the app's own, or one of a watched address).
    OrderChanged {
        /// The order as it stands now.
        order: Box<OrderView>,
    },
    /// Reading the gateway failed; nothing about any order changed. Tried again in `retry_in_secs`.
    #[serde(rename_all = "camelCase")]
    ReadFailed {
        /// A sentence for the person saying what went wrong.
        message: String,
        /// Seconds until the next attempt; 0 when order updates stopped on an error in the app and were restarted.
        #[ts(type = "number")]
        retry_in_secs: u64,
    },
    /// The wallet locked (after its idle time, or when asked); its addresses are no longer shown.
    WalletLocked,
    /// A transaction the wallet signed moved on: signed, sent, mined (with confirmations) or reverted.
    WalletTx {
        /// Which order and transaction, its hash, its state and how many blocks confirm it.
        progress: crate::execute::WalletTxProgress,
    },
}
