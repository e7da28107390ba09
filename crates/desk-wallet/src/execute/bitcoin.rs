//! Onramps from Bitcoin, signed by the app's wallet: the gateway's PSBT, verified against the quote before anything
//! here runs ([`crate::verify`]), signed with the wallet's key ([`crate::wallet::bitcoin_signer`], which checks the
//! signed transaction once more with Bitcoin's own script check) and handed to the gateway, which broadcasts it.
//! Bitcoin is read through the gateway (`get-max-spendable`), not from an endpoint of the app's.

use alloy::primitives::U256;
use gateway_client::address::ChainFamily;
use gateway_client::amount::format_units;
use gateway_client::wire::RouteKind;
use tracing::info;

use super::ledger::{OrderToPay, WalletTxKind};
use super::rail::{
    BoxFuture, EndpointCheck, PlannedTx, RailSetup, Reach, StepContext, WalletBalance, WalletPlan,
    WalletRail,
};
use super::{ExecError, Executed};
use crate::simulate::Simulation;
use crate::verify::{OnrampSummary, Verified};
use crate::wallet::{Account, Accounts, bitcoin_signer};

/// Why an onramp without a PSBT cannot be paid by the app: the gateway builds one only for a quote with a sender,
/// and the order is matched by the OP_RETURN output the PSBT carries (a payment to the bare address is not).
pub const NO_PSBT: &str = "This order has no PSBT: the gateway prepares one only when the quote names a sender, and \
     only a transaction that carries the order's OP_RETURN output can pay it. Start over with your sending address \
     (or the wallet's) as the sender.";

/// Bitcoin's rail ([`WalletRail`]): read and registered through the gateway.
pub struct BitcoinRail {
    setup: RailSetup,
}

impl BitcoinRail {
    /// The rail on the network `setup` names.
    pub fn new(setup: RailSetup) -> Self {
        Self { setup }
    }
}

/// `sats` as a person reads them: `0.00012 BTC`.
fn btc_text(sats: u64) -> String {
    format!("{} BTC", format_units(U256::from(sats), 8))
}

/// The verified onramp of `order`, or why it cannot be signed by the app's wallet.
fn onramp_of(order: &OrderToPay) -> Result<(Verified, OnrampSummary), ExecError> {
    if order.route != RouteKind::Onramp {
        return Err(ExecError::Refusal(
            "The app's wallet signs Bitcoin onramps for now. Sign this order in your own wallet and hand in the \
             transaction hash."
                .into(),
        ));
    }
    let verified: Verified = order.verified().ok_or_else(|| {
        ExecError::Refusal(
            "This order has no verified payment, so nothing is signed. Discard it and start again."
                .into(),
        )
    })?;
    let onramp = verified.onramp().cloned().ok_or_else(|| {
        ExecError::Refusal(
            "This order's verified payment is not a Bitcoin payment, so nothing is signed. Discard it and start \
             again."
                .into(),
        )
    })?;
    Ok((verified, onramp))
}

/// The gateway's PSBT of an onramp order, as its bytes.
fn psbt_of(order: &OrderToPay) -> Result<Vec<u8>, ExecError> {
    let hex = order
        .created
        .as_ref()
        .and_then(|c| c.get("onramp"))
        .and_then(|o| o.get("psbt_hex"))
        .and_then(serde_json::Value::as_str)
        .ok_or_else(|| ExecError::Refusal(NO_PSBT.into()))?;
    alloy::primitives::hex::decode(hex).map_err(|e| {
        ExecError::Refusal(format!(
            "The gateway's PSBT is not hexadecimal ({e}); do not use this order."
        ))
    })
}

impl WalletRail for BitcoinRail {
    fn family(&self) -> ChainFamily {
        ChainFamily::Bitcoin
    }

    fn reads_chain(&self) -> bool {
        false
    }

    fn account<'a>(&self, accounts: &'a Accounts) -> Result<&'a Account, ExecError> {
        Ok(accounts.bitcoin()?)
    }

    fn check_endpoint<'a>(
        &'a self,
        _reach: &'a Reach,
    ) -> BoxFuture<'a, Result<EndpointCheck, ExecError>> {
        Box::pin(async {
            Err(ExecError::Invalid {
                field: "chain",
                message: "Bitcoin is read through the gateway; it has no endpoint to set here."
                    .into(),
            })
        })
    }

    fn balance<'a>(
        &'a self,
        _reach: &'a Reach,
        owner: &'a str,
        token: &'a str,
    ) -> BoxFuture<'a, Result<WalletBalance, ExecError>> {
        Box::pin(async move {
            let answer = self
                .setup
                .client
                .get_max_spendable(owner, self.setup.bitcoin)
                .await?;
            let sats = answer.value.sats().ok_or_else(|| {
                ExecError::Unreadable(
                    "The gateway's spendable amount is not a whole number of sats. Try again later.".into(),
                )
            })?;
            let units = format_units(U256::from(sats), 8);
            Ok(WalletBalance {
                chain: "bitcoin".into(),
                token: token.to_owned(),
                amount: sats.to_string(),
                max: sats.to_string(),
                units: units.clone(),
                max_units: units,
                symbol: "BTC".into(),
                source:
                    "what the gateway says a payment from your wallet's address can spend after the network fee"
                        .into(),
                native: true,
                fee_reserve: "0".into(),
                fee_basis: "the gateway's spendable amount, already net of the network fee".into(),
            })
        })
    }

    fn plan<'a>(
        &'a self,
        _reach: &'a Reach,
        owner: &'a str,
        order: &'a OrderToPay,
    ) -> BoxFuture<'a, Result<WalletPlan, ExecError>> {
        Box::pin(async move {
            let (_, onramp) = onramp_of(order)?;
            let psbt = onramp
                .psbt
                .as_ref()
                .ok_or_else(|| ExecError::Refusal(NO_PSBT.into()))?;
            let order_id = order.order_id.as_deref().unwrap_or("?");
            Ok(WalletPlan {
                chain: "bitcoin".into(),
                owner: owner.to_owned(),
                holdings: format!(
                    "The gateway built this payment from the coins of your wallet {owner}; its change returns there."
                ),
                steps: vec![PlannedTx {
                    kind: WalletTxKind::Pay,
                    sentence: format!(
                        "Pay {} to the gateway's deposit address {} for order {order_id}{}.",
                        btc_text(onramp.amount_sats),
                        onramp.address,
                        if onramp.op_return_hex.is_some() {
                            ", with the order's OP_RETURN data"
                        } else {
                            ""
                        }
                    ),
                    to: onramp.address.clone(),
                    value: onramp.amount_sats.to_string(),
                    gas_limit: None,
                    max_fee: psbt.fee_sats.to_string(),
                    max_fee_text: btc_text(psbt.fee_sats),
                    max_fee_usd: None,
                    fee_sentence: format!(
                        "Network fee {} ({} of the amount).",
                        btc_text(psbt.fee_sats),
                        psbt.fee_share_percent
                    ),
                    rent_text: None,
                    fee_needs_acceptance: psbt.fee_needs_confirmation,
                }],
                native_balance_text: String::new(),
                token_balance_text: None,
                expired: None,
                shortfall: None,
                simulation: Simulation::not_run(
                    "a Bitcoin payment is checked against the quote before signing and by Bitcoin's script check after",
                ),
            })
        })
    }

    fn step<'a>(
        &'a self,
        _reach: &'a Reach,
        order: &'a OrderToPay,
        context: StepContext<'a>,
    ) -> BoxFuture<'a, Result<Executed, ExecError>> {
        Box::pin(async move {
            let (verified, _) = onramp_of(order)?;
            let accepted =
                super::rail::confirmed_fee::<u64>(context.confirmed.max_fee.as_deref(), "sats")?;
            verified
                .fee_confirmed(accepted)
                .map_err(|e| ExecError::Refusal(e.to_string()))?;
            let psbt = psbt_of(order)?;
            let signed = context
                .keeper
                .with_seed(|seed| bitcoin_signer::sign_onramp_psbt(seed, self.setup.bitcoin, &psbt))
                .ok_or_else(|| {
                    ExecError::Unsigned(
                        "The wallet is locked. Unlock it with its password, then try again.".into(),
                    )
                })?
                .map_err(|e| ExecError::Unsigned(e.to_string()))?;
            info!(local_id = context.local_id, txid = %signed.compute_txid(), "onramp signed with the wallet");
            Ok(Executed::Paid {
                hash: bitcoin::consensus::encode::serialize_hex(&signed),
            })
        })
    }
}
