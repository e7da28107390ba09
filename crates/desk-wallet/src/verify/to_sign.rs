//! The call an offramp or a token swap asks to be signed, as the window shows it for another wallet: the family's
//! transaction (an EVM or Tron contract call, a Solana transaction) read from the create-order answer's `tx`, with
//! what verification found preferred where it says something of a field. Nothing is guessed: a field that is absent
//! stays absent.

use serde::Serialize;
use serde_json::{Map, Value};
use ts_rs::TS;

use super::text::trx_text;
use super::{DecodedCall, EntryCall, VerifiedPayload};

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
        let value = t
            .map(|t| t.value.clone())
            .or(value)
            .unwrap_or_else(|| "0".to_owned());
        let value_text = t.map(|t| t.value_text.clone());
        let fee_limit_sun = t
            .map(|t| t.fee_limit_sun.clone())
            .or_else(|| number_text(tx.get("feeLimit")));
        let fee_limit_text = t.map(|t| t.fee_limit_text.clone());
        return Some(CallToSign::Tron(TronCall {
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
        }));
    }
    let e = match payload {
        Some(VerifiedPayload::Evm(e)) => Some(e),
        _ => None,
    };
    let value = e
        .map(|e| e.value.clone())
        .or(value)
        .unwrap_or_else(|| "0".to_owned());
    let value_text = e.map(|e| e.value_text.clone());
    Some(CallToSign::Evm(ContractCall {
        chain: e
            .map(|e| e.chain.clone())
            .or_else(|| text(tx.get("chain")))
            .unwrap_or_else(|| send_chain.to_owned()),
        to: e.map_or(to, |e| e.to.clone()),
        value_shown: value_text
            .clone()
            .unwrap_or_else(|| native_coin_text(&value)),
        value,
        value_text,
        data,
        data_bytes: e.map(|e| e.data_bytes),
        selector: e.and_then(|e| e.selector.clone()),
        decoded: e.and_then(|e| e.decoded.clone()),
        entry: e.and_then(|e| e.entry.clone()),
    }))
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
        let CallToSign::Tron(tron) = read(json!({
            "type": "tron", "to": "T1", "value": "1500000", "feeLimit": 150000000, "chain": "tron"
        })) else {
            panic!("a Tron call")
        };
        assert_eq!(tron.call.value_text, None, "nothing is guessed");
        assert_eq!(tron.call.value_shown, "1.5 TRX");
        assert_eq!(tron.fee_limit_text, None);
        assert_eq!(tron.fee_limit_shown.as_deref(), Some("150 TRX"));

        let CallToSign::Tron(no_limit) = read(json!({"type": "tron", "to": "T1"})) else {
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
        let Some(CallToSign::Solana(solana)) =
            call_to_sign(tx.as_object().unwrap(), None, "solana")
        else {
            panic!("a Solana transaction")
        };
        assert_eq!(solana.chain, "solana", "named by the order's source chain");
    }
}
