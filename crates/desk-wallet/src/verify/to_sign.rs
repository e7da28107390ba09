//! The call an offramp or a token swap asks to be signed, as the window shows it for another wallet: the family's
//! transaction (an EVM or Tron contract call, a Solana transaction) read from the create-order answer's `tx`, with
//! what verification found preferred where it says something of a field. Nothing is guessed: a field that is absent
//! stays absent.

use serde::Serialize;
use serde_json::{Map, Value};
use ts_rs::TS;

use super::{DecodedCall, EntryCall, VerifiedPayload};

/// A contract call to sign on an EVM chain or on Tron.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "ContractCall.ts")]
pub struct ContractCall {
    /// The chain's slug.
    pub chain: String,
    /// The contract called.
    pub to: String,
    /// The native value sent, in the chain's smallest unit (decimal).
    pub value: String,
    /// The value as a person reads it (`0.0001 ETH`), when verification wrote it.
    pub value_text: Option<String>,
    /// The call data, hex (`0x…`), as the gateway sent it.
    pub data: String,
    /// The call data's length in bytes, when verification counted it.
    pub data_bytes: Option<u32>,
    /// The function selector, when the call has one.
    pub selector: Option<String>,
    /// The call as desk-core decoded it, each field equal to the quote's; absent when not decoded.
    pub decoded: Option<DecodedCall>,
    /// The real service's entry call (AllowanceHolder's `exec`) decoded, its token and amount equal to the quote's;
    /// its inner call built by the gateway and not decoded (blind signing). Absent otherwise.
    pub entry: Option<EntryCall>,
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
}

/// A Solana transaction to sign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "SolanaCall.ts")]
pub struct SolanaCall {
    /// The chain's slug (the order's source chain).
    pub chain: String,
    /// The chain id the gateway named, as text.
    pub chain_id: Option<String>,
    /// The unsigned transaction, base64, as the gateway sent it.
    pub transaction: String,
    /// Who pays the fee (verified).
    pub fee_payer: Option<String>,
    /// The programs the transaction calls (verified); empty when not verified.
    pub programs: Vec<String>,
    /// How many instructions it has (verified).
    pub instruction_count: Option<u32>,
    /// The blockhash it was built on (verified).
    pub recent_blockhash: Option<String>,
    /// Its message version (`legacy`, `v0`) (verified).
    pub version: Option<String>,
    /// Whether the gateway's own instruction was decoded and compared with the quote (verified); false when its
    /// layout is not public and blind signing let it through.
    pub gateway_decoded: Option<bool>,
}

/// The transaction an offramp or a token swap asks to be signed, by kind of chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[ts(export_to = "CallToSign.ts")]
pub enum CallToSign {
    /// An EVM contract call.
    Evm(ContractCall),
    /// A Tron contract call.
    Tron(TronCall),
    /// A Solana transaction.
    Solana(SolanaCall),
}

/// A non-empty string.
pub fn text(value: Option<&Value>) -> Option<String> {
    value
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// A string, or a number written as a decimal string (amounts may come either way).
fn number_text(value: Option<&Value>) -> Option<String> {
    match value {
        Some(Value::Number(n)) => Some(n.to_string()),
        other => text(other),
    }
}

/// The transaction `tx` (the create-order answer's `tx` object) asks to be signed, by its `type` or, without one,
/// by what verification found (`payload`); `send_chain` names an EVM call's chain when neither does.
pub fn call_to_sign(
    tx: &Map<String, Value>,
    payload: Option<&VerifiedPayload>,
    send_chain: &str,
) -> Option<CallToSign> {
    let kind = text(tx.get("type")).unwrap_or_else(|| {
        match payload {
            Some(VerifiedPayload::Tron(_)) => "tron",
            Some(VerifiedPayload::Solana(_)) => "solana",
            _ => "evm",
        }
        .to_owned()
    });
    if kind == "solana" {
        let transaction = text(tx.get("transaction"))?;
        let s = match payload {
            Some(VerifiedPayload::Solana(s)) => Some(s),
            _ => None,
        };
        return Some(CallToSign::Solana(SolanaCall {
            chain: send_chain.to_owned(),
            chain_id: number_text(tx.get("chainId")),
            transaction,
            fee_payer: s.map(|s| s.fee_payer.clone()),
            programs: s.map(|s| s.programs.clone()).unwrap_or_default(),
            instruction_count: s.map(|s| s.instruction_count),
            recent_blockhash: s.map(|s| s.recent_blockhash.clone()),
            version: s.map(|s| s.version.clone()),
            gateway_decoded: s.map(|s| s.gateway_decoded),
        }));
    }
    let to = text(tx.get("to"))?;
    let data = text(tx.get("data")).unwrap_or_default();
    let value = number_text(tx.get("value"));
    if kind == "tron" {
        let t = match payload {
            Some(VerifiedPayload::Tron(t)) => Some(t),
            _ => None,
        };
        return Some(CallToSign::Tron(TronCall {
            call: ContractCall {
                chain: text(tx.get("chain")).unwrap_or_else(|| "tron".to_owned()),
                to: t.map_or(to, |t| t.to.clone()),
                value: t
                    .map(|t| t.value.clone())
                    .or(value)
                    .unwrap_or_else(|| "0".to_owned()),
                value_text: t.map(|t| t.value_text.clone()),
                data,
                data_bytes: t.map(|t| t.data_bytes),
                selector: t.and_then(|t| t.selector.clone()),
                decoded: t.and_then(|t| t.decoded.clone()),
                entry: t.and_then(|t| t.entry.clone()),
            },
            fee_limit_sun: t
                .map(|t| t.fee_limit_sun.clone())
                .or_else(|| number_text(tx.get("feeLimit"))),
            fee_limit_text: t.map(|t| t.fee_limit_text.clone()),
        }));
    }
    let e = match payload {
        Some(VerifiedPayload::Evm(e)) => Some(e),
        _ => None,
    };
    Some(CallToSign::Evm(ContractCall {
        chain: e
            .map(|e| e.chain.clone())
            .or_else(|| text(tx.get("chain")))
            .unwrap_or_else(|| send_chain.to_owned()),
        to: e.map_or(to, |e| e.to.clone()),
        value: e
            .map(|e| e.value.clone())
            .or(value)
            .unwrap_or_else(|| "0".to_owned()),
        value_text: e.map(|e| e.value_text.clone()),
        data,
        data_bytes: e.map(|e| e.data_bytes),
        selector: e.and_then(|e| e.selector.clone()),
        decoded: e.and_then(|e| e.decoded.clone()),
        entry: e.and_then(|e| e.entry.clone()),
    }))
}
