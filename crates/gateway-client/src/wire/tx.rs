//! Transactions the gateway hands back for the client to sign: the V3 tagged union and the V1/V2 plain EVM call. The
//! entries of the families added after EVM are the chain table's ([`FamilyTx`]), each in its family's file.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::common::read_inner;
use crate::chains::ChainFamily;
pub use crate::chains::FamilyTx;

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

/// The V3 transaction union (`GatewayTxData`), tagged by the field `type`: `evm`, or the slug of a family the gateway
/// added ([`FamilyTx`], which the chain table lists: `tron`, `solana`).
///
/// It is written as the gateway writes it (the family's entry carries its own `type`), and read by its tag: `evm` is
/// an [`EvmTx`], any other tag is read as a [`FamilyTx`], whose error names the tag it does not know.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", try_from = "Value")]
pub enum TxData {
    /// A call on an EVM chain.
    Evm(EvmTx),
    /// A transaction on a family the gateway added after EVM.
    #[serde(untagged)]
    Family(FamilyTx),
}

impl TryFrom<Value> for TxData {
    type Error = serde_json::Error;

    fn try_from(value: Value) -> Result<Self, Self::Error> {
        if value.get("type").and_then(Value::as_str) == Some("evm") {
            read_inner(&value, "evm transaction").map(Self::Evm)
        } else {
            FamilyTx::deserialize(&value).map(Self::Family)
        }
    }
}

impl TxData {
    /// The contract the transaction calls and the family whose address it is, for a call; `None` for a whole
    /// transaction (Solana's), whose program is read from its instructions.
    pub fn contract_called(&self) -> Option<(ChainFamily, &str)> {
        match self {
            Self::Evm(call) => Some((ChainFamily::Evm, call.to.as_str())),
            Self::Family(tx) => tx.contract_called(),
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
            Self::Family(tx) => tx.lines_to_sign(),
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

    /// The chain slug the transaction is for (an entry that names none, as Solana's, is its family's chain).
    pub fn chain(&self) -> &str {
        match self {
            Self::Plain(tx) | Self::Tagged(TxData::Evm(tx)) => &tx.chain,
            Self::Tagged(TxData::Family(tx)) => tx.chain(),
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
    use crate::chains::solana::SolanaTx;
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
        let OrderTx::Tagged(TxData::Family(FamilyTx::Tron(t))) =
            serde_json::from_value::<OrderTx>(tron).unwrap()
        else {
            panic!("not tron")
        };
        assert_eq!(t.fee_limit, "150000000");

        let sol = json!({"type": "solana", "chainId": 101, "transaction": "AQAAAA=="});
        let tx: OrderTx = serde_json::from_value(sol.clone()).unwrap();
        assert_eq!(
            tx,
            OrderTx::Tagged(TxData::Family(FamilyTx::Solana(SolanaTx {
                chain_id: 101,
                transaction: "AQAAAA==".into()
            })))
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
