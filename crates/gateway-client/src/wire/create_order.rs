//! create-order answers, V1 to V3: what the client must pay or sign.

use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;

use super::common::{RouteKind, pick_key, read_inner};
use super::tx::OrderTx;

/// A created onramp order: the Bitcoin address to pay, and a PSBT when the quote named a sender.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OnrampOrder {
    /// The order's identifier.
    pub order_id: String,
    /// Bitcoin address to pay.
    pub address: String,
    /// Data for an OP_RETURN output, hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op_return_data: Option<String>,
    /// An unsigned PSBT in hex; only present when the quote had a `sender`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub psbt_hex: Option<String>,
}

/// A created offramp or token-swap order: the transaction the user signs and broadcasts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TxOrder {
    /// The order's identifier.
    pub order_id: String,
    /// The transaction: tagged in V3, a plain EVM call in V1/V2.
    pub tx: OrderTx,
}

/// The typed content of a create-order answer: one variant per union key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", try_from = "Value")]
pub enum CreateOrderResponse {
    /// `onramp`: pay a Bitcoin address (or sign the PSBT).
    Onramp(OnrampOrder),
    /// `offramp`: sign the transaction.
    Offramp(TxOrder),
    /// `tokenSwap` (V2, V3): sign the transaction.
    TokenSwap(TxOrder),
    /// `layerZero`: V1's token swap.
    LayerZero(TxOrder),
}

impl CreateOrderResponse {
    /// Reads the route-keyed answer; unknown keys beside the route key are ignored.
    pub fn from_value(value: &Value) -> Result<Self, serde_json::Error> {
        let (key, inner) = pick_key(
            value,
            "create-order answer",
            &["onramp", "offramp", "tokenSwap", "layerZero"],
        )?;
        Ok(match key {
            "onramp" => Self::Onramp(read_inner(inner, "onramp order")?),
            "offramp" => Self::Offramp(read_inner(inner, "offramp order")?),
            "tokenSwap" => Self::TokenSwap(read_inner(inner, "tokenSwap order")?),
            _ => Self::LayerZero(read_inner(inner, "layerZero order")?),
        })
    }

    /// The identifier of the created order.
    pub fn order_id(&self) -> &str {
        match self {
            Self::Onramp(o) => &o.order_id,
            Self::Offramp(o) | Self::TokenSwap(o) | Self::LayerZero(o) => &o.order_id,
        }
    }

    /// The kind of order created; V1's `layerZero` is a token swap.
    pub fn route(&self) -> RouteKind {
        match self {
            Self::Onramp(_) => RouteKind::Onramp,
            Self::Offramp(_) => RouteKind::Offramp,
            Self::TokenSwap(_) | Self::LayerZero(_) => RouteKind::TokenSwap,
        }
    }

    /// The transaction to sign, for offramp and token-swap orders.
    pub fn tx(&self) -> Option<&OrderTx> {
        match self {
            Self::Onramp(_) => None,
            Self::Offramp(o) | Self::TokenSwap(o) | Self::LayerZero(o) => Some(&o.tx),
        }
    }
}

impl TryFrom<Value> for CreateOrderResponse {
    type Error = serde_json::Error;

    fn try_from(value: Value) -> Result<Self, Self::Error> {
        Self::from_value(&value)
    }
}

/// A create-order answer as received, with its typed view; the app journals [`CreateOrderResult::raw`].
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "Value")]
pub struct CreateOrderResult {
    raw: Value,
    view: CreateOrderResponse,
}

impl CreateOrderResult {
    /// Reads a create-order answer, keeping the JSON value as is.
    pub fn from_json(raw: Value) -> Result<Self, serde_json::Error> {
        let view = CreateOrderResponse::from_value(&raw)?;
        Ok(Self { raw, view })
    }

    /// The answer exactly as received.
    pub fn raw(&self) -> &Value {
        &self.raw
    }

    /// The typed reading of the answer.
    pub fn view(&self) -> &CreateOrderResponse {
        &self.view
    }

    /// Splits into the raw answer and its view.
    pub fn into_parts(self) -> (Value, CreateOrderResponse) {
        (self.raw, self.view)
    }
}

impl TryFrom<Value> for CreateOrderResult {
    type Error = serde_json::Error;

    fn try_from(raw: Value) -> Result<Self, Self::Error> {
        Self::from_json(raw)
    }
}

impl Serialize for CreateOrderResult {
    /// Writes the raw answer, unknown fields included.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.raw.serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::tx::{EvmTx, TxData};
    use serde_json::json;

    const ORDER_ID: &str = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6";

    #[test]
    fn onramp_with_and_without_psbt() {
        let raw = json!({"onramp": {"order_id": ORDER_ID, "address": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
            "op_return_data": "6a20abcd", "psbt_hex": "70736274ff01", "later": 1}});
        let result = CreateOrderResult::from_json(raw.clone()).unwrap();
        let CreateOrderResponse::Onramp(order) = result.view() else {
            panic!()
        };
        assert_eq!(order.psbt_hex.as_deref(), Some("70736274ff01"));
        assert_eq!(order.op_return_data.as_deref(), Some("6a20abcd"));
        assert_eq!(result.view().order_id(), ORDER_ID);
        assert_eq!(result.view().route(), RouteKind::Onramp);
        assert!(result.view().tx().is_none());
        assert_eq!(
            serde_json::to_value(&result).unwrap(),
            raw,
            "the journal gets the raw answer"
        );

        let bare = json!({"onramp": {"order_id": ORDER_ID, "address": "bc1q", "psbt_hex": null}});
        let view: CreateOrderResponse = serde_json::from_value(bare).unwrap();
        let CreateOrderResponse::Onramp(order) = view else {
            panic!()
        };
        assert_eq!((order.op_return_data, order.psbt_hex), (None, None));
    }

    #[test]
    fn v3_offramp_tagged_and_v2_token_swap_plain() {
        let v3 = json!({"offramp": {"order_id": ORDER_ID, "tx": {"type": "evm", "to": "0x44", "data": "0x12",
            "value": "0", "chain": "bob"}}});
        let view: CreateOrderResponse = serde_json::from_value(v3).unwrap();
        assert_eq!(view.route(), RouteKind::Offramp);
        assert!(matches!(view.tx(), Some(OrderTx::Tagged(TxData::Evm(_)))));

        let v2 = json!({"tokenSwap": {"order_id": ORDER_ID, "tx": {"to": "0x44", "data": "0x12", "value": "5",
            "chain": "base"}}});
        let view: CreateOrderResponse = serde_json::from_value(v2).unwrap();
        assert_eq!(view.route(), RouteKind::TokenSwap);
        let expected = EvmTx {
            to: "0x44".into(),
            data: "0x12".into(),
            value: "5".into(),
            chain: "base".into(),
        };
        assert_eq!(view.tx(), Some(&OrderTx::Plain(expected)));
    }

    #[test]
    fn v3_token_swap_solana_and_v1_layer_zero() {
        let sol = json!({"tokenSwap": {"order_id": ORDER_ID, "tx": {"type": "solana", "chainId": 792703809,
            "transaction": "AQIDBA=="}}});
        let view: CreateOrderResponse = serde_json::from_value(sol).unwrap();
        assert_eq!(view.tx().unwrap().chain(), "solana");

        let v1 = json!({"layerZero": {"order_id": ORDER_ID, "tx": {"to": "0x44", "data": "0x12", "value": "0",
            "chain": "bob"}}});
        let view: CreateOrderResponse = serde_json::from_value(v1).unwrap();
        assert!(matches!(view, CreateOrderResponse::LayerZero(_)));
        assert_eq!(view.route(), RouteKind::TokenSwap);
        assert_eq!(view.order_id(), ORDER_ID);
    }

    #[test]
    fn missing_tx_is_an_error() {
        let err = serde_json::from_value::<CreateOrderResponse>(
            json!({"offramp": {"order_id": ORDER_ID}}),
        )
        .unwrap_err();
        assert!(err.to_string().contains("tx"), "{err}");
    }
}
