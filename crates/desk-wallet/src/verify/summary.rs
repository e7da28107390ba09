//! What passed the check, summarized for the window to show next to the "sign" button.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{DecodedCall, EntryCall, FamilySummary, VerifyError};
#[cfg(doc)]
use super::{FEE_CONFIRM_BPS, check_signed_onramp_tx};

/// A create-order answer that matches its quote: what the user is about to sign, for the window to show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "Verified.ts")]
pub struct Verified {
    /// The order's identifier.
    pub order_id: String,
    /// One line for a person, e.g. "Pays 0.00250000 BTC to bc1q… with OP_RETURN 3f2a…, change … back to you, fee
    /// 1000 sats".
    pub sentence: String,
    /// The checked facts, by kind of transaction.
    pub payload: VerifiedPayload,
}

impl Verified {
    /// Refuses when the PSBT's network fee is above [`FEE_CONFIRM_BPS`] of the amount and `accepted_sats` (what the
    /// person accepted) does not cover it. Whatever signs a PSBT must ask this first.
    pub fn fee_confirmed(&self, accepted_sats: Option<u64>) -> Result<(), VerifyError> {
        match self.onramp().and_then(|o| o.psbt.as_ref()) {
            Some(psbt)
                if psbt.fee_needs_confirmation && accepted_sats.unwrap_or(0) < psbt.fee_sats =>
            {
                Err(VerifyError::FeeNotConfirmed {
                    fee_sats: psbt.fee_sats,
                    percent: psbt.fee_share_percent.clone(),
                })
            }
            _ => Ok(()),
        }
    }

    /// The onramp facts, when this is an onramp (what [`check_signed_onramp_tx`] needs after signing).
    pub fn onramp(&self) -> Option<&OnrampSummary> {
        match &self.payload {
            VerifiedPayload::Onramp(summary) => Some(summary),
            _ => None,
        }
    }
}

/// The checked facts of one kind of transaction, tagged by `type`, and read by that tag first, so that a damaged
/// journal entry names what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
#[ts(export_to = "VerifiedPayload.ts")]
pub enum VerifiedPayload {
    /// A Bitcoin payment to the deposit address (a PSBT to sign, or a payment to make by hand).
    Onramp(OnrampSummary),
    /// An EVM contract call.
    Evm(EvmCallSummary),
    /// A transaction of a family the gateway added after EVM (a Tron call, a Solana transaction), tagged by the
    /// family's own `type` ([`FamilySummary`]).
    #[serde(untagged)]
    Family(FamilySummary),
}

impl<'de> Deserialize<'de> for VerifiedPayload {
    /// Reads the entry its `type` names: `onramp`, `evm`, or an added family's ([`FamilySummary`], whose error names
    /// a tag no family has). An entry of a known tag that is damaged is refused with its own error (a missing field,
    /// a wrong type), not serde's "did not match any variant".
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        let value = serde_json::Value::deserialize(deserializer)?;
        let read = match value.get("type").and_then(serde_json::Value::as_str) {
            Some("onramp") => OnrampSummary::deserialize(&value).map(Self::Onramp),
            Some("evm") => EvmCallSummary::deserialize(&value).map(Self::Evm),
            _ => FamilySummary::deserialize(&value).map(Self::Family),
        };
        read.map_err(D::Error::custom)
    }
}

/// A verified onramp: where the Bitcoin goes, how much, with which OP_RETURN, and the PSBT when there is one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "OnrampSummary.ts")]
pub struct OnrampSummary {
    /// The deposit address, in its canonical form.
    pub address: String,
    /// The amount to pay, in sats: exactly the quote's input amount.
    #[serde(with = "u64_string")]
    #[ts(type = "string")]
    pub amount_sats: u64,
    /// Lower-case hex of the OP_RETURN data the payment must carry, when the gateway gave some.
    pub op_return_hex: Option<String>,
    /// The PSBT the gateway built, when the quote named a sender; `None` means the user pays from their own wallet.
    pub psbt: Option<PsbtSummary>,
}

/// A verified PSBT: every input and output, and the fee.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "PsbtSummary.ts")]
pub struct PsbtSummary {
    /// The txid of the unsigned transaction (the signed one has the same txid when every input is SegWit).
    pub unsigned_txid: String,
    /// The coins spent, all the sender's.
    pub inputs: Vec<PsbtInputSummary>,
    /// The outputs, in order.
    pub outputs: Vec<PsbtOutputSummary>,
    /// Inputs minus outputs, in sats.
    #[serde(with = "u64_string")]
    #[ts(type = "string")]
    pub fee_sats: u64,
    /// The size the signed transaction will have, in virtual bytes, when the sender's address type allows an
    /// estimate (P2WPKH, P2TR key path, P2PKH).
    pub vsize_estimate: Option<u32>,
    /// The fee as a share of the amount paid, in bps.
    pub fee_share_bps: u32,
    /// The same as a person reads it, two decimals: `3.00` (percent).
    pub fee_share_percent: String,
    /// The fee is above [`FEE_CONFIRM_BPS`] of the amount: the person must accept it in numbers before the PSBT is
    /// offered for signing.
    pub fee_needs_confirmation: bool,
}

/// One coin a PSBT spends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "PsbtInputSummary.ts")]
pub struct PsbtInputSummary {
    /// `txid:vout`.
    pub outpoint: String,
    /// The coin's value, in sats.
    #[serde(with = "u64_string")]
    #[ts(type = "string")]
    pub value_sats: u64,
    /// The address that owns the coin: the sender's.
    pub address: String,
}

/// One output of a PSBT.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "PsbtOutputSummary.ts")]
pub struct PsbtOutputSummary {
    /// What the output is for.
    pub kind: OutputKind,
    /// The address paid (payment and change).
    pub address: Option<String>,
    /// The value, in sats.
    #[serde(with = "u64_string")]
    #[ts(type = "string")]
    pub value_sats: u64,
    /// Lower-case hex of what an OP_RETURN output carries.
    pub data_hex: Option<String>,
}

/// What a PSBT output is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "OutputKind.ts")]
pub enum OutputKind {
    /// The payment to the order's deposit address.
    Payment,
    /// The data output that ties the payment to the order.
    OpReturn,
    /// Change back to the sender.
    Change,
}

/// A verified EVM contract call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "EvmCallSummary.ts")]
pub struct EvmCallSummary {
    /// The chain slug.
    pub chain: String,
    /// The call, as every family whose order is a call to the gateway's contract has it checked.
    #[serde(flatten)]
    pub call: CallSummary,
}

/// A verified call to the gateway's contract, of any family whose order is one: what the one check of such a call
/// found, written in the family's own address form. Flattened into each family's summary (its TypeScript too).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CallSummary {
    /// The contract called, written as its family writes addresses (EIP-55 on an EVM chain), the quote's `txTo`.
    pub to: String,
    /// Native value sent with the call, in the chain's smallest unit (decimal).
    pub value: String,
    /// The same value as a person reads it, e.g. `0.01 ETH`.
    pub value_text: String,
    /// Length of the calldata, in bytes.
    pub data_bytes: u32,
    /// The 4-byte function selector (`0x` and 8 hex characters), when the calldata has one.
    pub selector: Option<String>,
    /// The call decoded against the gateway contract, every field equal to the quote's; `None` when the app could
    /// not decode it and blind signing let it through (then nothing in the data was checked).
    pub decoded: Option<DecodedCall>,
    /// The real service's entry call (AllowanceHolder's `exec`), decoded and equal to the quote, when the gateway's
    /// inner call was not decoded and blind signing let it through.
    #[serde(default)]
    #[ts(optional)]
    pub entry: Option<EntryCall>,
    /// The raw calldata, shown when the call was not decoded (blind signing).
    pub raw_data: Option<String>,
}

/// Serializes a `u64` as a decimal string (amounts cross to TypeScript as strings) and reads it back.
mod u64_string {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(value: &u64, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(value)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(|_| {
            D::Error::custom(format!("expected a whole number as a string, got {text:?}"))
        })
    }
}
