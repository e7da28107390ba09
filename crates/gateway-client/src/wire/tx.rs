//! Transactions the gateway hands back for the client to sign: the V3 tagged union and the V1/V2 plain EVM call.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::common::read_inner;

/// An EVM contract call (the document's `TxInfo`): what V1/V2 create-order return, and V3's `evm` variant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvmTx {
    /// Contract to call.
    pub to: String,
    /// `0x…` calldata.
    pub data: String,
    /// Native value to send, decimal string in wei.
    pub value: String,
    /// Chain slug the call goes to.
    pub chain: String,
}

/// A Tron contract call (`TronTxData`): the EVM call fields plus the energy budget.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TronTx {
    /// Contract to call (Base58).
    pub to: String,
    /// Calldata.
    pub data: String,
    /// TRX value, decimal string in sun.
    pub value: String,
    /// Chain slug, `tron`.
    pub chain: String,
    /// Maximum TRX in sun the wallet may burn on energy and bandwidth, as a decimal string.
    #[serde(rename = "feeLimit")]
    pub fee_limit: String,
}

/// A Solana transaction (`GatewaySolanaTx`).
///
/// `transaction` is base64 of an unsigned, bincode-serialized `VersionedTransaction`: decode it, sign the message,
/// re-serialize and broadcast; never sign the base64 text itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolanaTx {
    /// Numeric chain id the gateway assigns to Solana.
    #[serde(rename = "chainId")]
    pub chain_id: u64,
    /// Base64 of the unsigned `VersionedTransaction`.
    pub transaction: String,
}

/// The V3 transaction union (`GatewayTxData`), tagged by the field `type`: `evm`, `tron` or `solana`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum TxData {
    /// A call on an EVM chain.
    Evm(EvmTx),
    /// A call on Tron.
    Tron(TronTx),
    /// A Solana transaction.
    Solana(SolanaTx),
}

impl TxData {
    /// The contract the transaction calls and the family whose address it is, for a call; `None` for a whole
    /// transaction (Solana's), whose program is read from its instructions.
    pub fn contract_called(&self) -> Option<(crate::chains::ChainFamily, &str)> {
        match self {
            Self::Evm(call) => Some((crate::chains::ChainFamily::Evm, call.to.as_str())),
            Self::Tron(call) => Some((crate::chains::ChainFamily::Tron, call.to.as_str())),
            Self::Solana(_) => None,
        }
    }

    /// What is asked to be signed, in lines for a terminal: the chain, the contract or transaction, and each amount
    /// in the chain's smallest unit with the unit named.
    pub fn lines_to_sign(&self) -> Vec<String> {
        match self {
            Self::Evm(call) => vec![
                format!("Sign on {}: call {}", call.chain, call.to),
                format!("  value: {} wei", call.value),
                format!("  data:  {}", call.data),
            ],
            Self::Tron(call) => vec![
                format!("Sign on {}: call {}", call.chain, call.to),
                format!("  value:    {} sun", call.value),
                format!(
                    "  feeLimit: {} sun (the most TRX the wallet may burn)",
                    call.fee_limit
                ),
                format!("  data:     {}", call.data),
            ],
            Self::Solana(sol) => vec![
                format!(
                    "Sign on solana (chain id {}): decode, sign and broadcast this unsigned transaction",
                    sol.chain_id
                ),
                format!("  transaction (base64): {}", sol.transaction),
            ],
        }
    }
}

/// The transaction of an offramp or token-swap order, whichever version sent it.
///
/// V3 sends the tagged [`TxData`]; V1 and V2 send a plain [`EvmTx`] without `type`. An object with a `type` this
/// client does not know is an error rather than being mistaken for an EVM call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged, try_from = "Value")]
pub enum OrderTx {
    /// V3: tagged by `type`.
    Tagged(TxData),
    /// V1/V2: a plain EVM call.
    Plain(EvmTx),
}

impl OrderTx {
    /// Reads either form from a JSON value.
    pub fn from_value(value: &Value) -> Result<Self, serde_json::Error> {
        if value.get("type").is_some() {
            read_inner(value, "tagged transaction").map(Self::Tagged)
        } else {
            read_inner(value, "plain EVM transaction").map(Self::Plain)
        }
    }

    /// The transaction as the V3 union; a plain V1/V2 call becomes [`TxData::Evm`].
    pub fn to_tx_data(&self) -> TxData {
        match self {
            Self::Tagged(tx) => tx.clone(),
            Self::Plain(tx) => TxData::Evm(tx.clone()),
        }
    }

    /// The EVM call, when this is one (plain, or tagged `evm`).
    pub fn as_evm(&self) -> Option<&EvmTx> {
        match self {
            Self::Plain(tx) | Self::Tagged(TxData::Evm(tx)) => Some(tx),
            Self::Tagged(_) => None,
        }
    }

    /// The chain slug the transaction is for; Solana's union entry names no slug, so it is `solana`.
    pub fn chain(&self) -> &str {
        match self {
            Self::Plain(tx) | Self::Tagged(TxData::Evm(tx)) => &tx.chain,
            Self::Tagged(TxData::Tron(tx)) => &tx.chain,
            Self::Tagged(TxData::Solana(_)) => "solana",
        }
    }
}

impl TryFrom<Value> for OrderTx {
    type Error = serde_json::Error;

    fn try_from(value: Value) -> Result<Self, Self::Error> {
        Self::from_value(&value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn evm_fields() -> Value {
        json!({"to": "0x1111111111111111111111111111111111111111", "data": "0xabcdef", "value": "0", "chain": "bob"})
    }

    #[test]
    fn reads_tagged_evm_tron_and_solana() {
        let mut evm = evm_fields();
        evm["type"] = json!("evm");
        let tx: OrderTx = serde_json::from_value(evm.clone()).unwrap();
        assert_eq!(
            tx,
            OrderTx::Tagged(TxData::Evm(serde_json::from_value(evm_fields()).unwrap()))
        );
        assert_eq!(tx.chain(), "bob");
        assert_eq!(
            serde_json::to_value(&tx).unwrap(),
            evm,
            "the tag is written back"
        );

        let tron = json!({"type": "tron", "to": "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf", "data": "0xa9059cbb",
            "value": "0", "chain": "tron", "feeLimit": "150000000", "unknown": 1});
        let OrderTx::Tagged(TxData::Tron(t)) = serde_json::from_value::<OrderTx>(tron).unwrap()
        else {
            panic!("not tron")
        };
        assert_eq!(t.fee_limit, "150000000");

        let sol = json!({"type": "solana", "chainId": 101, "transaction": "AQAAAA=="});
        let tx: OrderTx = serde_json::from_value(sol.clone()).unwrap();
        assert_eq!(
            tx,
            OrderTx::Tagged(TxData::Solana(SolanaTx {
                chain_id: 101,
                transaction: "AQAAAA==".into()
            }))
        );
        assert_eq!(tx.chain(), "solana");
        assert!(tx.as_evm().is_none());
        assert_eq!(serde_json::to_value(&tx).unwrap(), sol);
    }

    #[test]
    fn solana_chain_id_must_be_an_integer() {
        let sol = json!({"type": "solana", "chainId": "101", "transaction": "AQAAAA=="});
        assert!(serde_json::from_value::<OrderTx>(sol).is_err());
    }

    #[test]
    fn reads_v2_plain_tx_as_evm() {
        let tx: OrderTx = serde_json::from_value(evm_fields()).unwrap();
        assert!(matches!(tx, OrderTx::Plain(_)));
        assert_eq!(tx.as_evm().unwrap().data, "0xabcdef");
        assert!(matches!(tx.to_tx_data(), TxData::Evm(_)));
        assert_eq!(
            serde_json::to_value(&tx).unwrap(),
            evm_fields(),
            "no tag is invented"
        );
    }

    #[test]
    fn unknown_type_is_not_mistaken_for_evm() {
        let mut sui = evm_fields();
        sui["type"] = json!("sui");
        let err = serde_json::from_value::<OrderTx>(sui).unwrap_err();
        assert!(err.to_string().contains("sui"), "{err}");
        // A tron entry without its fee limit is incomplete, not a plain EVM call.
        let mut tron = evm_fields();
        tron["type"] = json!("tron");
        assert!(serde_json::from_value::<OrderTx>(tron).is_err());
    }
}
