//! The journal as the wallet's ledger ([`crate::execute::Ledger`]): desk-wallet reads the order it pays and keeps
//! each transaction it signs here, before it is broadcast.

use super::{Journal, JournalError, WalletTx, WalletTxState};

/// The journal is the wallet's ledger: each signed transaction is written here before it is broadcast.
impl crate::execute::Ledger for Journal {
    fn order_to_pay(
        &self,
        local_id: i64,
    ) -> Result<crate::execute::OrderToPay, crate::execute::LedgerError> {
        Ok(self.order(local_id).map_err(ledger_error)?.to_pay())
    }

    fn wallet_tx_signed(
        &self,
        local_id: i64,
        signed: &WalletTx,
    ) -> Result<(), crate::execute::LedgerError> {
        Journal::wallet_tx_signed(self, local_id, signed)
            .map(|_| ())
            .map_err(ledger_error)
    }

    fn wallet_tx_moved(
        &self,
        local_id: i64,
        hash: &str,
        state: WalletTxState,
        block: Option<u64>,
        reason: Option<&str>,
    ) -> Result<(), crate::execute::LedgerError> {
        self.wallet_tx_update(local_id, hash, state, block, reason)
            .map(|_| ())
            .map_err(ledger_error)
    }
}

fn ledger_error(e: JournalError) -> crate::execute::LedgerError {
    crate::execute::LedgerError(Box::new(e))
}
