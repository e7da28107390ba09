//! A Tron call: an EVM call (the same calldata checks, in `call.rs`) to a Base58Check account, with the energy fee
//! limit the wallet may burn.

use alloy_primitives::{Address, U256};
use gateway_client::address::ChainFamily;
use gateway_client::amount::parse_base_units;
use gateway_client::chains::tron::TronTx;
use gateway_client::display::clipped;
use gateway_client::wire::is_native_token;

use super::call::{
    calldata, check_value, decoded_clause, not_a_token, pinned, require_family, same_chain,
    selector, selector_clause, split, value_clause,
};
use super::calldata as decoding;
use super::{
    QuotedSource, TRON_FEE_LIMIT_CAP_SUN, TronCallSummary, VerifyError, VerifyPolicy,
    native_value_text, trx_text,
};

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
    let fee_limit =
        parse_base_units(tx.fee_limit.trim()).map_err(|_| VerifyError::FeeLimitInvalid {
            value: tx.fee_limit.clone(),
        })?;
    if fee_limit > U256::from(TRON_FEE_LIMIT_CAP_SUN) {
        return Err(VerifyError::FeeLimitTooHigh {
            fee_limit_sun: fee_limit.to_string(),
            cap_sun: TRON_FEE_LIMIT_CAP_SUN,
        });
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
