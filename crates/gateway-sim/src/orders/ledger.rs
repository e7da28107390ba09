//! The simulated Bitcoin chain's ledger: which coin each script holds, as registered onramp transactions spend and
//! make them.

use super::{Book, LedgerCoin};
use crate::payload;

impl Book {
    /// The coin `script` holds on the simulated chain now: the ledger's, or its first one; worth 0 once spent.
    pub fn coin(&self, script: &bitcoin::Script) -> payload::Coin {
        let mut coin = self
            .coins
            .get(&script.to_hex_string())
            .and_then(|c| {
                let txid = c.txid.parse().ok()?;
                let previous_tx = match &c.tx_hex {
                    Some(hex) => Some(bitcoin::consensus::encode::deserialize_hex(hex).ok()?),
                    None => None,
                };
                Some(payload::Coin {
                    outpoint: bitcoin::OutPoint::new(txid, c.vout),
                    value: c.value,
                    previous_tx,
                })
            })
            .unwrap_or_else(|| payload::initial_coin(script));
        if self.spent.contains(&coin.outpoint.to_string()) {
            coin.value = 0;
        }
        coin
    }

    /// What a deposit from `script` can pay now (get-max-spendable), in sats.
    pub fn max_spendable(&self, script: &bitcoin::Script) -> u64 {
        payload::max_spendable(&self.coin(script), script)
    }

    /// Records a registered onramp transaction on the simulated chain: its inputs are spent, and each output to
    /// another script than the deposit (the change) becomes that script's coin.
    pub(super) fn record_bitcoin_tx(&mut self, tx: &bitcoin::Transaction, deposit_address: &str) {
        let deposit = deposit_address
            .parse::<bitcoin::Address<bitcoin::address::NetworkUnchecked>>()
            .ok()
            .map(|a| a.assume_checked().script_pubkey());
        for input in &tx.input {
            self.spent.insert(input.previous_output.to_string());
        }
        let txid = tx.compute_txid().to_string();
        for (vout, output) in tx.output.iter().enumerate() {
            let script = &output.script_pubkey;
            if script.is_op_return()
                || Some(script) == deposit.as_ref()
                || output.value.to_sat() == 0
            {
                continue;
            }
            let tx_hex = (!script.is_witness_program())
                .then(|| bitcoin::consensus::encode::serialize_hex(tx));
            self.coins.insert(
                script.to_hex_string(),
                LedgerCoin {
                    txid: txid.clone(),
                    vout: u32::try_from(vout).unwrap_or(u32::MAX),
                    value: output.value.to_sat(),
                    tx_hex,
                },
            );
        }
    }
}
