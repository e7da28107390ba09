//! The call an offramp or a token swap asks to be signed, as the window shows it for another wallet: the family's
//! transaction (an EVM contract call here; an added family's in its own file, [`FamilyCall`]) read from the
//! create-order answer's `tx`, with what verification found preferred where it says something of a field. Nothing is
//! guessed: a field that is absent stays absent.

use serde::Serialize;
use serde_json::{Map, Value};
use ts_rs::TS;

use super::{
    CallSummary, DecodedCall, EntryCall, FamilyCall, VerifiedPayload, family_call_to_sign,
};

/// Wei read as the chain's native coin when the chain's coin is not known (`0.0001 (the chain's native coin)`);
/// the text as given when it is not an amount.
fn native_coin_text(wei: &str) -> String {
    match gateway_client::amount::parse_base_units(wei) {
        Ok(value) => {
            gateway_client::amount::format_with_symbol(value, 18, "(the chain's native coin)")
        }
        Err(_) => wei.to_owned(),
    }
}

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
    /// The value as the window shows it: [`Self::value_text`], or without verification the smallest units read in
    /// the chain's native coin (`0.5 TRX`, `0.0001 (the chain's native coin)`).
    pub value_shown: String,
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

/// The transaction an offramp or a token swap asks to be signed, by kind of chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[ts(export_to = "CallToSign.ts")]
pub enum CallToSign {
    /// An EVM contract call.
    Evm(ContractCall),
    /// The transaction of a family the gateway added after EVM (a Tron call, a Solana transaction), tagged by the
    /// family's own `kind` ([`FamilyCall`]).
    #[serde(untagged)]
    Family(FamilyCall),
}

/// A non-empty string.
pub fn text(value: Option<&Value>) -> Option<String> {
    value
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// A string, or a number written as a decimal string (amounts may come either way).
pub(super) fn number_text(value: Option<&Value>) -> Option<String> {
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
            Some(VerifiedPayload::Family(family)) => family.kind(),
            _ => "evm",
        }
        .to_owned()
    });
    if let Some(call) = family_call_to_sign(&kind, tx, payload, send_chain) {
        return call.map(CallToSign::Family);
    }
    let e = match payload {
        Some(VerifiedPayload::Evm(e)) => Some(e),
        _ => None,
    };
    let chain = e
        .map(|e| e.chain.clone())
        .or_else(|| text(tx.get("chain")))
        .unwrap_or_else(|| send_chain.to_owned());
    ContractCall::read(tx, chain, e.map(|e| &e.call), native_coin_text).map(CallToSign::Evm)
}

impl ContractCall {
    /// The call `tx` (the create-order answer's `tx` object) asks to be signed on `chain`, with what verification
    /// found (`checked`) preferred where it says something of a field; `coin_text` reads an unverified value in the
    /// chain's native coin. `None` when `tx` names no contract.
    pub(super) fn read(
        tx: &Map<String, Value>,
        chain: String,
        checked: Option<&CallSummary>,
        coin_text: fn(&str) -> String,
    ) -> Option<Self> {
        let to = text(tx.get("to"))?;
        let data = text(tx.get("data")).unwrap_or_default();
        let value = checked
            .map(|c| c.value.clone())
            .or_else(|| number_text(tx.get("value")))
            .unwrap_or_else(|| "0".to_owned());
        let value_text = checked.map(|c| c.value_text.clone());
        Some(Self {
            chain,
            to: checked.map_or(to, |c| c.to.clone()),
            value_shown: value_text.clone().unwrap_or_else(|| coin_text(&value)),
            value,
            value_text,
            data,
            data_bytes: checked.map(|c| c.data_bytes),
            selector: checked.and_then(|c| c.selector.clone()),
            decoded: checked.and_then(|c| c.decoded.clone()),
            entry: checked.and_then(|c| c.entry.clone()),
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn read(tx: Value) -> CallToSign {
        call_to_sign(tx.as_object().unwrap(), None, "bob").unwrap()
    }

    #[test]
    fn without_verification_the_values_are_shown_in_the_chain_s_coin() {
        let CallToSign::Family(FamilyCall::Tron(tron)) = read(json!({
            "type": "tron", "to": "T1", "value": "1500000", "feeLimit": 150000000, "chain": "tron"
        })) else {
            panic!("a Tron call")
        };
        assert_eq!(tron.call.value_text, None, "nothing is guessed");
        assert_eq!(tron.call.value_shown, "1.5 TRX");
        assert_eq!(tron.fee_limit_text, None);
        assert_eq!(tron.fee_limit_shown.as_deref(), Some("150 TRX"));

        let CallToSign::Family(FamilyCall::Tron(no_limit)) =
            read(json!({"type": "tron", "to": "T1"}))
        else {
            panic!("a Tron call")
        };
        assert_eq!(no_limit.call.value_shown, "0 TRX");
        assert_eq!(no_limit.fee_limit_shown, None, "none stated");

        let CallToSign::Evm(evm) = read(json!({"to": "0xabc", "value": 184532011230000u64})) else {
            panic!("an EVM call")
        };
        assert_eq!(evm.value_text, None);
        assert_eq!(
            evm.value_shown,
            "0.00018453201123 (the chain's native coin)"
        );

        let tx = json!({"type": "solana", "chainId": 792703809, "transaction": "AQAAAA=="});
        let Some(CallToSign::Family(FamilyCall::Solana(solana))) =
            call_to_sign(tx.as_object().unwrap(), None, "solana")
        else {
            panic!("a Solana transaction")
        };
        assert_eq!(solana.chain, "solana", "named by the order's source chain");
    }
}
