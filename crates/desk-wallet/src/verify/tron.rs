//! A Tron call: an EVM call (the same calldata checks, in `call.rs`) to a Base58Check account, with the energy fee
//! limit the wallet may burn; what passed ([`TronCallSummary`]) and what the window shows to sign ([`TronCall`]).

use alloy_primitives::{Address, U256};
use gateway_client::address::ChainFamily;
use gateway_client::amount::parse_base_units;
use gateway_client::chains::tron::{self, TronTx};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

use super::call::{CallRules, call_clause, decoded_clause, verify_call};
use super::to_sign::{ContractCall, number_text, text};
use super::{
    CallSummary, QuotedSource, TRON_FEE_LIMIT_CAP_SUN, VerifyError, VerifyPolicy, trx_text,
};

/// A verified Tron contract call: the call, checked as every call to the gateway's contract is
/// ([`CallSummary`], its contract in Base58Check and its value in sun), and the most it may burn in fees.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "TronCallSummary.ts")]
pub struct TronCallSummary {
    /// The call.
    #[serde(flatten)]
    pub call: CallSummary,
    /// The most the call may burn in fees, in sun (decimal).
    pub fee_limit_sun: String,
    /// The same limit as a person reads it, e.g. `100 TRX`.
    pub fee_limit_text: String,
}

/// Tron's call: Base58Check accounts (or their `41…` hex form), calldata with or without `0x`, a value in sun.
const TRON_CALL: CallRules = CallRules {
    family: ChainFamily::Tron,
    what: "a Tron call",
    read: account_body,
    write: account_text,
    bare_calldata: true,
    value_chain: Some("tron"),
};

/// A Tron account's 20-byte body (its `0x41` prefix checked), each address measured before it is decoded
/// (`tron::read_account`).
fn account_body(text: &str) -> Option<Address> {
    tron::parse_account(text).map(|account| Address::from_slice(&account[1..]))
}

/// The account of a 20-byte body, in Base58Check.
fn account_text(body: Address) -> String {
    tron::base58(&tron::account_of_body(body.into_array()))
}

/// A Tron contract call: the call, and the most it may burn in fees.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "TronCall.ts")]
pub struct TronCall {
    /// The call.
    #[serde(flatten)]
    pub call: ContractCall,
    /// The fee limit, in sun (decimal).
    pub fee_limit_sun: Option<String>,
    /// The fee limit as a person reads it.
    pub fee_limit_text: Option<String>,
    /// The fee limit as the window shows it: [`Self::fee_limit_text`], or without verification the sun read in TRX;
    /// none when the gateway stated none.
    pub fee_limit_shown: Option<String>,
}

/// The Tron call `tx` (the create-order answer's `tx` object) asks to be signed, with what verification found
/// (`summary`) preferred where it says something of a field.
pub(super) fn call_to_sign(
    tx: &Map<String, Value>,
    summary: Option<&TronCallSummary>,
) -> Option<TronCall> {
    let chain = text(tx.get("chain")).unwrap_or_else(|| "tron".to_owned());
    let call = ContractCall::read(tx, chain, summary.map(|t| &t.call), trx_text)?;
    let fee_limit_sun = summary
        .map(|t| t.fee_limit_sun.clone())
        .or_else(|| number_text(tx.get("feeLimit")));
    let fee_limit_text = summary.map(|t| t.fee_limit_text.clone());
    Some(TronCall {
        call,
        fee_limit_shown: fee_limit_text
            .clone()
            .or_else(|| fee_limit_sun.as_deref().map(trx_text)),
        fee_limit_sun,
        fee_limit_text,
    })
}

/// Why a Tron call was refused, beyond what every EVM-style call can be refused for ([`VerifyError`]): its fee limit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The Tron fee limit is not a whole number of sun.
    #[error(
        "The gateway's Tron fee limit {value:?} is not a whole number of sun. Do not sign it; ask for a new quote."
    )]
    FeeLimitInvalid {
        /// The value given.
        value: String,
    },
    /// The Tron fee limit is above [`TRON_FEE_LIMIT_CAP_SUN`].
    #[error(
        "The gateway's Tron transaction could burn up to {} in fees, more than the {} this app accepts. \
         Do not sign it; ask for a new quote.",
        trx_text(fee_limit_sun), trx_text(&cap_sun.to_string())
    )]
    FeeLimitTooHigh {
        /// The fee limit, in sun (decimal).
        fee_limit_sun: String,
        /// The cap, in sun.
        cap_sun: u64,
    },
}

/// Checks a Tron call against the quote's source side.
pub(super) fn verify(
    source: &QuotedSource,
    tx: &TronTx,
    policy: &VerifyPolicy,
) -> Result<TronCallSummary, VerifyError> {
    let call = verify_call(
        source, &TRON_CALL, &tx.chain, &tx.to, &tx.value, &tx.data, policy,
    )?;
    let fee_limit = parse_base_units(tx.fee_limit.trim()).map_err(|_| {
        VerifyError::from(Refusal::FeeLimitInvalid {
            value: tx.fee_limit.clone(),
        })
    })?;
    if fee_limit > U256::from(TRON_FEE_LIMIT_CAP_SUN) {
        return Err(VerifyError::from(Refusal::FeeLimitTooHigh {
            fee_limit_sun: fee_limit.to_string(),
            cap_sun: TRON_FEE_LIMIT_CAP_SUN,
        }));
    }
    let fee_limit_sun = fee_limit.to_string();
    Ok(TronCallSummary {
        call,
        fee_limit_text: trx_text(&fee_limit_sun),
        fee_limit_sun,
    })
}

/// The sentence of a verified Tron call.
pub(super) fn sentence(summary: &TronCallSummary) -> String {
    let call = &summary.call;
    format!(
        "{}; it may burn up to {} in fees. {}",
        call_clause(call, "Tron"),
        summary.fee_limit_text,
        decoded_clause("tron", call.decoded.as_ref(), call.entry.as_ref()),
    )
}
