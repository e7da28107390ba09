//! register-tx: telling the gateway which transaction pays an order, and its answer.

use crate::params::ParamError;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::common::{RouteKind, json_kind, pick_key, read_inner};
use crate::ApiVersion;

/// A register-tx request, independent of the version; [`RegisterTx::to_json`] writes the body a version expects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegisterTx {
    /// An onramp's Bitcoin payment: its full hex (the gateway broadcasts it) and/or its txid.
    Onramp {
        /// The order being paid.
        order_id: String,
        /// The signed transaction, hex.
        bitcoin_tx_hex: Option<String>,
        /// The transaction id, when it was broadcast elsewhere.
        bitcoin_txid: Option<String>,
    },
    /// An offramp's source-chain transaction.
    Offramp {
        /// The order being paid.
        order_id: String,
        /// `0x…` hash on EVM, Base58 signature on Solana.
        src_tx_hash: String,
        /// Chain the transaction was broadcast on (V3 only on the wire).
        src_chain: String,
    },
    /// A token swap's source-chain transaction.
    TokenSwap {
        /// The order being paid.
        order_id: String,
        /// `0x…` hash on EVM, Base58 signature on Solana.
        src_tx_hash: String,
        /// Chain the transaction was broadcast on (V3 only on the wire).
        src_chain: String,
    },
}

impl RegisterTx {
    /// Registers an onramp payment; give the hex (the gateway broadcasts it), the txid, or both.
    pub fn onramp(
        order_id: impl Into<String>,
        bitcoin_tx_hex: Option<&str>,
        bitcoin_txid: Option<&str>,
    ) -> Self {
        Self::Onramp {
            order_id: order_id.into(),
            bitcoin_tx_hex: bitcoin_tx_hex.map(str::to_owned),
            bitcoin_txid: bitcoin_txid.map(str::to_owned),
        }
    }

    /// Registers the source transaction of an offramp.
    pub fn offramp(
        order_id: impl Into<String>,
        src_tx_hash: impl Into<String>,
        src_chain: impl Into<String>,
    ) -> Self {
        Self::Offramp {
            order_id: order_id.into(),
            src_tx_hash: src_tx_hash.into(),
            src_chain: src_chain.into(),
        }
    }

    /// Registers the source transaction of a token swap.
    pub fn token_swap(
        order_id: impl Into<String>,
        src_tx_hash: impl Into<String>,
        src_chain: impl Into<String>,
    ) -> Self {
        Self::TokenSwap {
            order_id: order_id.into(),
            src_tx_hash: src_tx_hash.into(),
            src_chain: src_chain.into(),
        }
    }

    /// The order this registers a transaction for.
    pub fn order_id(&self) -> &str {
        match self {
            Self::Onramp { order_id, .. }
            | Self::Offramp { order_id, .. }
            | Self::TokenSwap { order_id, .. } => order_id,
        }
    }

    /// The kind of order.
    pub fn route(&self) -> RouteKind {
        match self {
            Self::Onramp { .. } => RouteKind::Onramp,
            Self::Offramp { .. } => RouteKind::Offramp,
            Self::TokenSwap { .. } => RouteKind::TokenSwap,
        }
    }

    /// Checks the registration before it is sent: an onramp needs the transaction hex or its txid (and when both are
    /// given, the txid must be the hex's); a source hash must be well-formed for its chain; V1 and V2 carry only
    /// `evm_txhash`, so their source chain must be an EVM chain. V4 takes only an onramp's signed transaction: a txid
    /// alone, an offramp and a token swap are refused there.
    pub fn validate(&self, version: ApiVersion) -> Result<(), ParamError> {
        use crate::address::{ChainFamily, chain_family};
        use crate::txhash::{validate_bitcoin_tx_hex, validate_bitcoin_txid, validate_src_tx_hash};
        if self.order_id().trim().is_empty() {
            return Err(ParamError::Missing("the order id"));
        }
        let bad = |e: crate::txhash::TxHashError| ParamError::Transaction(e.to_string());
        match self {
            Self::Onramp {
                bitcoin_tx_hex,
                bitcoin_txid,
                ..
            } => {
                let from_hex = bitcoin_tx_hex
                    .as_deref()
                    .map(validate_bitcoin_tx_hex)
                    .transpose()
                    .map_err(bad)?;
                let given = bitcoin_txid
                    .as_deref()
                    .map(validate_bitcoin_txid)
                    .transpose()
                    .map_err(bad)?;
                match (from_hex, given) {
                    (None, _) if !version.registers_source_transactions() => {
                        Err(ParamError::NotInVersion {
                            name: "an onramp registered without its signed transaction",
                            version,
                            why: "V4 takes the signed Bitcoin transaction as hex (bitcoin_tx_hex) and broadcasts it \
                                  itself; a txid alone is not accepted there",
                        })
                    }
                    (None, None) => Err(ParamError::Missing(
                        "the Bitcoin transaction hex or its txid",
                    )),
                    (Some(computed), Some(given)) if computed != given => {
                        Err(ParamError::Transaction(format!(
                            "the txid {given} is not the txid of the transaction hex given ({computed}); give one of \
                         them, or the matching pair"
                        )))
                    }
                    _ => Ok(()),
                }
            }
            Self::Offramp {
                src_tx_hash,
                src_chain,
                ..
            }
            | Self::TokenSwap {
                src_tx_hash,
                src_chain,
                ..
            } => {
                if !version.registers_source_transactions() {
                    return Err(ParamError::NotInVersion {
                        name: "an offramp or token-swap registration",
                        version,
                        why: "the gateway reads offramp and token-swap transactions from the chain; broadcast the \
                              transaction and follow the order by its id",
                    });
                }
                validate_src_tx_hash(src_chain, src_tx_hash).map_err(bad)?;
                if version < ApiVersion::V3 && chain_family(src_chain) != Some(ChainFamily::Evm) {
                    return Err(ParamError::NotInVersion {
                        name: "a non-EVM source chain",
                        version,
                        why: "V1 and V2 register only EVM transactions (evm_txhash); use V3",
                    });
                }
                Ok(())
            }
        }
    }

    /// The request body for `version` (`RegisterTx`, `RegisterTxV2`, `RegisterTxV3`, `RegisterTxV4` of the published
    /// documents).
    ///
    /// The onramp body is the same everywhere (absent hex or txid are left out). Offramp and token swap send
    /// `src_tx_hash` and `src_chain` in V3, `evm_txhash` alone in V1/V2; V1 keys the token swap `layerZero`.
    pub fn to_json(&self, version: ApiVersion) -> Value {
        match self {
            Self::Onramp {
                order_id,
                bitcoin_tx_hex,
                bitcoin_txid,
            } => {
                let mut body = Map::new();
                body.insert("order_id".into(), json!(order_id));
                if let Some(hex) = bitcoin_tx_hex {
                    body.insert("bitcoin_tx_hex".into(), json!(hex));
                }
                // V4 has no txid field (`RegisterTxV4`): the hex alone, which validate() requires there.
                if let Some(txid) = bitcoin_txid
                    .as_ref()
                    .filter(|_| version.registers_source_transactions())
                {
                    body.insert("bitcoin_txid".into(), json!(txid));
                }
                json!({ "onramp": body })
            }
            Self::Offramp {
                order_id,
                src_tx_hash,
                src_chain,
            }
            | Self::TokenSwap {
                order_id,
                src_tx_hash,
                src_chain,
            } => {
                let key = match (self, version) {
                    (Self::Offramp { .. }, _) => "offramp",
                    (_, ApiVersion::V1) => "layerZero",
                    _ => "tokenSwap",
                };
                // V4 has no such body; validate() refuses it, and V3's is written should it be sent anyway.
                let body = match version {
                    ApiVersion::V3 | ApiVersion::V4 => {
                        json!({ "order_id": order_id, "src_tx_hash": src_tx_hash, "src_chain": src_chain })
                    }
                    ApiVersion::V1 | ApiVersion::V2 => {
                        json!({ "order_id": order_id, "evm_txhash": src_tx_hash })
                    }
                };
                json!({ key: body })
            }
        }
    }
}

/// A successful register-tx answer (`RegisterTxSuccess`): the bare string `"ok"`, or an onramp's broadcast txid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Value", into = "Value")]
pub enum RegisterTxResponse {
    /// The JSON string `"ok"`.
    Ok,
    /// `{ "onramp": { "txid" } }`: the gateway broadcast the onramp's Bitcoin transaction under this txid.
    Onramp {
        /// The Bitcoin transaction id.
        txid: String,
    },
}

/// The inner object of `{ "onramp": { "txid" } }`.
#[derive(Deserialize)]
struct OnrampRegistered {
    txid: String,
}

impl RegisterTxResponse {
    /// Reads either form; any other string is an error (accepting it would hide a changed answer).
    pub fn from_value(value: &Value) -> Result<Self, serde_json::Error> {
        use serde::de::Error as _;
        match value {
            Value::String(s) if s.eq_ignore_ascii_case("ok") => Ok(Self::Ok),
            Value::String(s) => Err(serde_json::Error::custom(format!(
                "register-tx answer: expected \"ok\", got {s:?}"
            ))),
            Value::Object(_) => {
                let (_, inner) = pick_key(value, "register-tx answer", &["onramp"])?;
                let OnrampRegistered { txid } = read_inner(inner, "register-tx onramp answer")?;
                Ok(Self::Onramp { txid })
            }
            other => Err(serde_json::Error::custom(format!(
                "register-tx answer: expected \"ok\" or an object, found {}",
                json_kind(other)
            ))),
        }
    }
}

impl TryFrom<Value> for RegisterTxResponse {
    type Error = serde_json::Error;

    fn try_from(value: Value) -> Result<Self, Self::Error> {
        Self::from_value(&value)
    }
}

impl From<RegisterTxResponse> for Value {
    fn from(response: RegisterTxResponse) -> Self {
        match response {
            RegisterTxResponse::Ok => json!("ok"),
            RegisterTxResponse::Onramp { txid } => json!({ "onramp": { "txid": txid } }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6";
    const HASH: &str = "0x9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    #[test]
    fn onramp_body_is_the_same_in_every_version() {
        let both = RegisterTx::onramp(ID, Some("0200aa"), Some(&"ab".repeat(32)));
        let hex_only = RegisterTx::onramp(ID, Some("0200aa"), None);
        for version in [ApiVersion::V1, ApiVersion::V2, ApiVersion::V3] {
            assert_eq!(
                both.to_json(version),
                json!({"onramp": {"order_id": ID, "bitcoin_tx_hex": "0200aa", "bitcoin_txid": "ab".repeat(32)}})
            );
            assert_eq!(
                hex_only.to_json(version),
                json!({"onramp": {"order_id": ID, "bitcoin_tx_hex": "0200aa"}})
            );
        }
        assert_eq!(both.route(), RouteKind::Onramp);
        assert_eq!(both.order_id(), ID);
    }

    #[test]
    fn v3_sends_src_tx_hash_and_src_chain() {
        let off = RegisterTx::offramp(ID, HASH, "bob");
        assert_eq!(
            off.to_json(ApiVersion::V3),
            json!({"offramp": {"order_id": ID, "src_tx_hash": HASH, "src_chain": "bob"}})
        );
        let sig = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW";
        let swap = RegisterTx::token_swap(ID, sig, "solana");
        assert_eq!(
            swap.to_json(ApiVersion::V3),
            json!({"tokenSwap": {"order_id": ID, "src_tx_hash": sig, "src_chain": "solana"}})
        );
    }

    #[test]
    fn v2_sends_evm_txhash_and_v1_keys_layer_zero() {
        let off = RegisterTx::offramp(ID, HASH, "bob");
        let swap = RegisterTx::token_swap(ID, HASH, "base");
        assert_eq!(
            off.to_json(ApiVersion::V2),
            json!({"offramp": {"order_id": ID, "evm_txhash": HASH}})
        );
        assert_eq!(
            off.to_json(ApiVersion::V1),
            json!({"offramp": {"order_id": ID, "evm_txhash": HASH}})
        );
        assert_eq!(
            swap.to_json(ApiVersion::V2),
            json!({"tokenSwap": {"order_id": ID, "evm_txhash": HASH}})
        );
        assert_eq!(
            swap.to_json(ApiVersion::V1),
            json!({"layerZero": {"order_id": ID, "evm_txhash": HASH}})
        );
        assert_eq!(swap.route(), RouteKind::TokenSwap);
    }

    #[test]
    fn response_ok_or_onramp_txid() {
        assert_eq!(
            serde_json::from_str::<RegisterTxResponse>(r#""ok""#).unwrap(),
            RegisterTxResponse::Ok
        );
        let txid = "ab".repeat(32);
        let onramp = json!({"onramp": {"txid": txid, "more": 1}});
        assert_eq!(
            serde_json::from_value::<RegisterTxResponse>(onramp).unwrap(),
            RegisterTxResponse::Onramp { txid: txid.clone() }
        );
        assert_eq!(
            serde_json::to_value(RegisterTxResponse::Ok).unwrap(),
            json!("ok")
        );
        assert_eq!(
            serde_json::to_value(RegisterTxResponse::Onramp { txid: txid.clone() }).unwrap(),
            json!({"onramp": {"txid": txid}})
        );
        for bad in [
            json!("done"),
            json!(true),
            json!({"onramp": {}}),
            json!({"offramp": {"txid": "x"}}),
        ] {
            assert!(
                serde_json::from_value::<RegisterTxResponse>(bad.clone()).is_err(),
                "{bad}"
            );
        }
    }
}
