//! The simulated Bitcoin chain's ledger: which coins each script holds, as registered onramp transactions spend and
//! make them and the gateway pays out.

use super::{Book, LedgerCoin};
use crate::payload;

impl LedgerCoin {
    /// The coin as a PSBT spends it; `None` when what was kept does not parse.
    fn to_coin(&self) -> Option<payload::Coin> {
        let txid = self.txid.parse().ok()?;
        let previous_tx = match &self.tx_hex {
            Some(hex) => Some(bitcoin::consensus::encode::deserialize_hex(hex).ok()?),
            None => None,
        };
        Some(payload::Coin {
            outpoint: bitcoin::OutPoint::new(txid, self.vout),
            value: self.value,
            previous_tx,
        })
    }
}

impl Book {
    /// The coin `script` holds on the simulated chain from its own transactions: the ledger's (the change of its last
    /// registered deposit), or its first one; worth 0 once spent. Payments the gateway made to it are not included
    /// (see [`Self::coins`]).
    pub fn coin(&self, script: &bitcoin::Script) -> payload::Coin {
        let mut coin = self
            .coins
            .get(&script.to_hex_string())
            .and_then(LedgerCoin::to_coin)
            .unwrap_or_else(|| payload::initial_coin(script));
        if self.spent.contains(&coin.outpoint.to_string()) {
            coin.value = 0;
        }
        coin
    }

    /// Every unspent coin `script` holds now: its own ([`Self::coin`]), then those the gateway paid to it, oldest
    /// first. A deposit's PSBT spends them all.
    pub fn coins(&self, script: &bitcoin::Script) -> Vec<payload::Coin> {
        let own = self.coin(script);
        let received = self
            .received
            .get(&script.to_hex_string())
            .into_iter()
            .flatten()
            .filter_map(LedgerCoin::to_coin)
            .filter(|coin| !self.spent.contains(&coin.outpoint.to_string()));
        std::iter::once(own)
            .chain(received)
            .filter(|coin| coin.value > 0)
            .collect()
    }

    /// What a deposit from `script` can pay now (get-max-spendable), in sats: all its coins less the fee of spending
    /// them.
    pub fn max_spendable(&self, script: &bitcoin::Script) -> u64 {
        payload::max_spendable_all(&self.coins(script), script)
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
        // Payments received and now spent are no longer the script's.
        let spent = &self.spent;
        self.received.retain(|_, coins| {
            coins.retain(|c| !spent.contains(&format!("{}:{}", c.txid, c.vout)));
            !coins.is_empty()
        });
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

    /// Pays `sats` to the Bitcoin address `to` in the transaction `txid_hex` (a payout or refund the gateway sends):
    /// one more coin of its script. `false` when the address or the id does not parse (nothing is paid).
    pub(super) fn pay_bitcoin(&mut self, to: &str, sats: u64, txid_hex: &str) -> bool {
        let Ok(address) = to.parse::<bitcoin::Address<bitcoin::address::NetworkUnchecked>>() else {
            return false;
        };
        let Ok(txid) = txid_hex.parse::<bitcoin::Txid>() else {
            return false;
        };
        if sats == 0 {
            return false;
        }
        let script = address.assume_checked().script_pubkey();
        let coin = payload::payout_coin(&script, sats, txid);
        let tx_hex = coin
            .previous_tx
            .as_ref()
            .map(bitcoin::consensus::encode::serialize_hex);
        self.received
            .entry(script.to_hex_string())
            .or_default()
            .push(LedgerCoin {
                txid: coin.outpoint.txid.to_string(),
                vout: coin.outpoint.vout,
                value: sats,
                tx_hex,
            });
        true
    }
}
