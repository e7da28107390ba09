//! A Tron call: an EVM call (the same calldata checks, in `call.rs`) to a Base58Check account, with the energy fee
//! limit the wallet may burn; what passed ([`TronCallSummary`]) and what the window shows to sign ([`TronCall`]).

use alloy_primitives::{Address, U256};
use gateway_client::address::ChainFamily;
use gateway_client::amount::parse_base_units;
use gateway_client::chains::tron::TronTx;
use gateway_client::display::clipped;
use gateway_client::wire::is_native_token;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

use super::call::{
    calldata, check_value, decoded_clause, not_a_token, pinned, require_family, same_chain,
    selector, selector_clause, split, value_clause,
};
use super::calldata as decoding;
use super::to_sign::{ContractCall, number_text, text};
use super::{
    DecodedCall, EntryCall, QuotedSource, TRON_FEE_LIMIT_CAP_SUN, VerifyError, VerifyPolicy,
    native_value_text, trx_text,
};

/// A verified Tron contract call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "TronCallSummary.ts")]
pub struct TronCallSummary {
    /// The contract called (Base58Check), the quote's `txTo`.
    pub to: String,
    /// TRX sent with the call, in sun (decimal).
    pub value: String,
    /// The same value as a person reads it, e.g. `10 TRX`.
    pub value_text: String,
    /// Length of the calldata, in bytes.
    pub data_bytes: u32,
    /// The 4-byte function selector (`0x` and 8 hex characters), when the calldata has one.
    pub selector: Option<String>,
    /// The call decoded against the gateway contract (see [`EvmCallSummary::decoded`]).
    pub decoded: Option<DecodedCall>,
    /// The entry call, decoded, its inner call not (see [`EvmCallSummary::entry`]).
    #[serde(default)]
    #[ts(optional)]
    pub entry: Option<EntryCall>,
    /// The raw calldata, shown when the call was not decoded (blind signing).
    pub raw_data: Option<String>,
    /// The most the call may burn in fees, in sun (decimal).
    pub fee_limit_sun: String,
    /// The same limit as a person reads it, e.g. `100 TRX`.
    pub fee_limit_text: String,
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
    let t = summary;
    let to = text(tx.get("to"))?;
    let data = text(tx.get("data")).unwrap_or_default();
    let value = t
        .map(|t| t.value.clone())
        .or_else(|| number_text(tx.get("value")))
        .unwrap_or_else(|| "0".to_owned());
    let value_text = t.map(|t| t.value_text.clone());
    let fee_limit_sun = t
        .map(|t| t.fee_limit_sun.clone())
        .or_else(|| number_text(tx.get("feeLimit")));
    let fee_limit_text = t.map(|t| t.fee_limit_text.clone());
    Some(TronCall {
        call: ContractCall {
            chain: text(tx.get("chain")).unwrap_or_else(|| "tron".to_owned()),
            to: t.map_or(to, |t| t.to.clone()),
            value_shown: value_text.clone().unwrap_or_else(|| trx_text(&value)),
            value,
            value_text,
            data,
            data_bytes: t.map(|t| t.data_bytes),
            selector: t.and_then(|t| t.selector.clone()),
            decoded: t.and_then(|t| t.decoded.clone()),
            entry: t.and_then(|t| t.entry.clone()),
        },
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
    require_family(source, ChainFamily::Tron, "a Tron call")?;
    same_chain(source, &tx.chain)?;
    // Each address is measured before it is decoded (`tron::read_account`), and quoted clipped: a gateway's
    // megabyte "address" costs neither time nor a megabyte sentence.
    let quoted = gateway_client::chains::tron::parse_account(&source.tx_to).ok_or_else(|| {
        VerifyError::QuoteUnreadable {
            field: "txTo",
            value: clipped(&source.tx_to),
        }
    })?;
    let to = gateway_client::chains::tron::parse_account(&tx.to).ok_or_else(|| {
        VerifyError::BadTxAddress {
            value: clipped(&tx.to),
            family: "Tron",
        }
    })?;
    if to != quoted {
        return Err(VerifyError::WrongContract {
            quoted: clipped(&source.tx_to),
            found: clipped(&tx.to),
        });
    }
    let to_text = bitcoin::base58::encode_check(&to);
    not_a_token(source, &to_text)?;
    pinned(
        source,
        &to_text,
        |pinned| gateway_client::chains::tron::parse_account(pinned).is_some_and(|p| p == to),
        policy,
    )?;
    let value = check_value(source, &tx.value)?;
    let data = calldata(&tx.data, true)?;
    let token = if is_native_token(&source.chain, &source.token) {
        Address::ZERO
    } else {
        gateway_client::chains::tron::parse_account(&source.token)
            .map(|account| Address::from_slice(&account[1..]))
            .ok_or_else(|| VerifyError::QuoteUnreadable {
                field: "inputAmount.address",
                value: clipped(&source.token),
            })?
    };
    let checked = decoding::check(source, ChainFamily::Tron, token, &data, policy)?;
    let (decoded, entry, raw_data) = split(checked, &data);
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
        to: to_text,
        value: value.to_string(),
        value_text: native_value_text("tron", value),
        data_bytes: u32::try_from(data.len()).unwrap_or(u32::MAX),
        selector: selector(&data),
        decoded,
        entry,
        raw_data,
        fee_limit_text: trx_text(&fee_limit_sun),
        fee_limit_sun,
    })
}

/// The sentence of a verified Tron call.
pub(super) fn sentence(summary: &TronCallSummary) -> String {
    format!(
        "Calls {} on Tron, sending {}, with {} bytes of data{}; it may burn up to {} in fees. {}",
        summary.to,
        value_clause(&summary.value, &summary.value_text),
        summary.data_bytes,
        selector_clause(summary.selector.as_deref()),
        summary.fee_limit_text,
        decoded_clause("tron", summary.decoded.as_ref(), summary.entry.as_ref()),
    )
}
