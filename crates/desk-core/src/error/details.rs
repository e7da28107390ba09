//! The typed `details` of a [`DeskError`](super::DeskError): what the window learns about a failure beyond its
//! sentence. Three shapes, as the window has always received them: the app's refusal of a field (`{ field, index? }`),
//! an order of the journal (`{ localId }`), or the gateway's details, read into one of the interface's shapes
//! (`{ shape, field?, … }`). Which swap-form field a gateway refusal is about is decided here, from its code and
//! details, so that the window does not map the gateway's words to its fields.

use gateway_client::{ErrorCode, ErrorDetails as SentDetails};
use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

/// A field of the swap form, named as the window names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "SwapField.ts")]
pub enum SwapField {
    /// The source token (and its chain).
    SrcToken,
    /// The destination token (and its chain).
    DstToken,
    /// The amount to send.
    Amount,
    /// The slippage tolerance.
    Slippage,
    /// The recipient's address.
    Recipient,
    /// The sending address.
    Sender,
    /// The owner's EVM address (V3 offramps).
    Owner,
    /// The Bitcoin refund address (V3 onramps).
    Refund,
}

impl SwapField {
    /// Every field of the swap form, in the form's order (the window's list of them is generated from this one).
    pub const ALL: [Self; 8] = [
        Self::SrcToken,
        Self::DstToken,
        Self::Amount,
        Self::Slippage,
        Self::Recipient,
        Self::Sender,
        Self::Owner,
        Self::Refund,
    ];

    /// The field's name, as the window and the app's own refusals (`invalid`) write it.
    pub fn name(self) -> &'static str {
        match self {
            Self::SrcToken => "srcToken",
            Self::DstToken => "dstToken",
            Self::Amount => "amount",
            Self::Slippage => "slippage",
            Self::Recipient => "recipient",
            Self::Sender => "sender",
            Self::Owner => "owner",
            Self::Refund => "refund",
        }
    }
}

/// Structured facts about a failure. Not serde-tagged at this level: each shape is told apart by its members
/// (`field` alone, `localId`, `shape`), so the app's own shapes stay `{ "field": "amount" }` and `{ "localId": 3 }`
/// on the wire; the gateway's are a union tagged by `shape`.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(untagged)]
#[ts(export_to = "ErrorDetails.ts")]
pub enum ErrorDetails {
    /// The app refused what a person entered in a field.
    Field(FieldDetails),
    /// The failure concerns an order of the journal.
    Order(OrderDetails),
    /// The gateway's refusal, its details in a typed shape.
    Gateway(GatewayDetails),
}

/// The field the app refused: `{ field, index? }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[ts(export_to = "FieldDetails.ts")]
pub struct FieldDetails {
    /// The form field at fault, as the window names it (`amount`, `recipient`, `customUrl`, `affiliates`…).
    pub field: String,
    /// Which entry of a list field (`affiliates`) is at fault, from 0; absent when the list as a whole is.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub index: Option<usize>,
}

/// The order of the journal a failure is about: `{ localId, cause? }`.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "OrderDetails.ts")]
pub struct OrderDetails {
    /// The order's number in the journal.
    #[ts(type = "number")]
    pub local_id: i64,
    /// The details the failure had before the order was named (none, in practice: a lost creation carries none).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub cause: Option<Box<ErrorDetails>>,
}

/// The gateway's details of a refusal: `{ shape, field?, … }`, the shape's members named as the gateway names them.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export_to = "GatewayDetails.ts")]
pub struct GatewayDetails {
    /// The swap-form field the refusal is about, from its code (and details), when it is about one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub field: Option<SwapField>,
    /// The details, in one of the interface's shapes.
    #[serde(flatten)]
    pub shape: ShapeOrNone,
    /// The details exactly as the gateway sent them (`null` for none), for the journal and the command line.
    #[serde(skip)]
    #[ts(skip)]
    pub sent: Value,
}

/// The gateway's details as the window reads them: gateway-client's shapes ([`SentDetails`], tagged by `shape`,
/// every amount a string in the token's smallest unit as the gateway sends it), or `{ shape: "none" }` when the
/// gateway sent no details but the refusal still names a field. Anything the gateway sent that is not an object (a
/// string, say) is kept as sent, as an unrecognised shape.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(untagged)]
#[ts(export_to = "ShapeOrNone.ts")]
pub enum ShapeOrNone {
    /// The gateway sent no details (`null`).
    None {
        /// Always `none`.
        shape: NoShape,
    },
    /// The details, in one of the interface's shapes.
    Sent(SentDetails),
}

/// The tag of details the gateway did not send.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "NoShape.ts")]
pub enum NoShape {
    /// No details.
    None,
}

impl ShapeOrNone {
    /// No details sent.
    pub const NONE: Self = Self::None {
        shape: NoShape::None,
    };

    /// The shape, when the gateway sent details.
    pub fn sent(&self) -> Option<&SentDetails> {
        match self {
            Self::Sent(details) => Some(details),
            Self::None { .. } => None,
        }
    }
}

impl GatewayDetails {
    /// The gateway's `code` and `details` as the window's: `None` when the gateway sent no details and the code
    /// names no field.
    pub fn of(code: &ErrorCode, sent: Option<&Value>) -> Option<Self> {
        let sent = sent.cloned().unwrap_or(Value::Null);
        let shape = match SentDetails::from_json(&sent) {
            Some(details) => ShapeOrNone::Sent(details),
            None if sent.is_null() => ShapeOrNone::NONE,
            // Not an object (a string, say): kept as sent.
            None => ShapeOrNone::Sent(SentDetails::Other {
                value: sent.clone(),
            }),
        };
        let field = field_of(code, shape.sent());
        if shape.sent().is_none() && field.is_none() {
            return None;
        }
        Some(Self { field, shape, sent })
    }
}

/// The swap-form field a gateway refusal is about: by its code, or, for a code this app does not know, by the shape of
/// its details.
fn field_of(code: &ErrorCode, shape: Option<&SentDetails>) -> Option<SwapField> {
    use ErrorCode as C;
    match code {
        C::InsufficientAmount
        | C::QuoteAmountTooLow
        | C::InsufficientSwapAmount
        | C::UnableToCoverFees
        | C::InsufficientSolverBalance => Some(SwapField::Amount),
        // The same code says "too many requests": only a limit that is an amount is about the amount.
        C::ExceededLimit => match shape {
            Some(SentDetails::Limit { limit } | SentDetails::SolverBalance { limit, .. })
                if !limit.is_empty() && limit.bytes().all(|b| b.is_ascii_digit()) =>
            {
                Some(SwapField::Amount)
            }
            _ => None,
        },
        C::SlippageTooLow | C::SlippageTooHigh | C::MaxSlippageExceeded => {
            Some(SwapField::Slippage)
        }
        C::MissingOwnerAddress => Some(SwapField::Owner),
        C::InvalidDestinationChainId => Some(SwapField::DstToken),
        C::Other(_) | C::Unknown => match shape {
            Some(SentDetails::MaxSlippage { .. } | SentDetails::SlippageBounds { .. }) => {
                Some(SwapField::Slippage)
            }
            Some(SentDetails::MinimumActual { .. }) => Some(SwapField::Amount),
            _ => None,
        },
        _ => None,
    }
}

impl ErrorDetails {
    /// `{ field }`: the form field a person's entry was refused in.
    pub fn field(field: &str) -> Self {
        Self::Field(FieldDetails {
            field: field.to_owned(),
            index: None,
        })
    }

    /// `{ field, index }`: entry `index` (from 0) of a list field.
    pub fn entry(field: &str, index: usize) -> Self {
        Self::Field(FieldDetails {
            field: field.to_owned(),
            index: Some(index),
        })
    }

    /// `{ localId }`: the journal's order the failure is about.
    pub fn order(local_id: i64) -> Self {
        Self::Order(OrderDetails {
            local_id,
            cause: None,
        })
    }

    /// These details naming the journal's order `local_id` as well (an order already named is named anew).
    pub fn about_order(details: Option<Self>, local_id: i64) -> Self {
        let cause = match details {
            None | Some(Self::Order(OrderDetails { cause: None, .. })) => None,
            Some(Self::Order(OrderDetails { cause, .. })) => cause,
            Some(other) => Some(Box::new(other)),
        };
        Self::Order(OrderDetails { local_id, cause })
    }

    /// The gateway's details of a refusal, when these are the gateway's.
    pub fn gateway(&self) -> Option<&GatewayDetails> {
        match self {
            Self::Gateway(details) => Some(details),
            _ => None,
        }
    }

    /// The gateway's details exactly as it sent them, when these are the gateway's and it sent any.
    pub fn as_sent(&self) -> Option<&Value> {
        self.gateway()
            .map(|g| &g.sent)
            .filter(|sent| !sent.is_null())
    }

    /// The details as the window receives them (JSON).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn window(code: &str, sent: Value) -> Value {
        let details =
            GatewayDetails::of(&ErrorCode::parse(code), Some(&sent)).map(ErrorDetails::Gateway);
        details.map_or(Value::Null, |d| d.to_json())
    }

    #[test]
    fn the_gateways_details_keep_their_members_and_gain_their_shape_and_field() {
        assert_eq!(
            window(
                "QUOTE_AMOUNT_TOO_LOW",
                json!({"minimum": "10000", "actual": "5000"})
            ),
            json!({"field": "amount", "shape": "minimumActual", "minimum": "10000", "actual": "5000"})
        );
        assert_eq!(
            window(
                "INSUFFICIENT_AMOUNT",
                json!({"expected": "7000", "actual": "5000"})
            ),
            json!({"field": "amount", "shape": "expectedActual", "expected": "7000", "actual": "5000"})
        );
        assert_eq!(
            window(
                "INSUFFICIENT_SWAP_AMOUNT",
                json!({"required": "7000", "available": "5000"})
            )["field"],
            "amount"
        );
        assert_eq!(
            window(
                "UNABLE_TO_COVER_FEES",
                json!({"total_fees": "6000", "available_amount": "5000"})
            ),
            json!({"field": "amount", "shape": "feesExceedAmount", "total_fees": "6000", "available_amount": "5000"})
        );
        assert_eq!(
            window(
                "INSUFFICIENT_SOLVER_BALANCE",
                json!({"limit": "25", "token": "0xabc", "chain_id": "8453"})
            ),
            json!({"field": "amount", "shape": "solverBalance", "limit": "25", "token": "0xabc", "chain_id": "8453"})
        );
        assert_eq!(
            window(
                "NO_ROUTE",
                json!({"src_chain": "a", "src_token": "b", "dst_chain": "c", "dst_token": "d"})
            ),
            json!({"shape": "route", "src_chain": "a", "src_token": "b", "dst_chain": "c", "dst_token": "d"}),
            "a route is about the pair, no one field"
        );
        assert_eq!(
            window("SIMULATION_FAILED", json!({"tenderly_url": "https://t"})),
            json!({"shape": "simulation", "url": "https://t"})
        );
        assert_eq!(
            window("NON_COMPLIANT_ADDRESSES", json!({"addresses": ["0x1"]})),
            json!({"shape": "addresses", "addresses": ["0x1"]})
        );
        assert_eq!(
            window("SERVICE_UNAVAILABLE", json!({"message": "down"})),
            json!({"shape": "message", "message": "down"})
        );
        assert_eq!(
            window("BRAND_NEW", json!({"brand": "new"})),
            json!({"shape": "unrecognised", "value": {"brand": "new"}})
        );
        assert_eq!(
            window("BRAND_NEW", json!("words")),
            json!({"shape": "unrecognised", "value": "words"}),
            "details that are no object are kept as sent"
        );
    }

    #[test]
    fn a_limit_is_about_the_amount_only_when_it_is_one() {
        assert_eq!(
            window("EXCEEDED_LIMIT", json!({"limit": "100000000"}))["field"],
            "amount"
        );
        assert_eq!(
            window("EXCEEDED_LIMIT", json!({"limit": "3 requests per minute"})),
            json!({"shape": "limit", "limit": "3 requests per minute"})
        );
    }

    #[test]
    fn slippage_refusals_name_the_slippage_field_in_every_shape() {
        // The 2025 shape, under its code and under a code this app does not know.
        let old = json!({"suggested_bps": "120", "max_bps": "100"});
        assert_eq!(
            window("MAX_SLIPPAGE_EXCEEDED", old.clone()),
            json!({"field": "slippage", "shape": "maxSlippage", "suggested_bps": "120", "max_bps": "100"})
        );
        assert_eq!(window("SLIPPAGE_LIMIT", old)["field"], "slippage");
        // The September 2026 shape, read as its own: the bound the route requires and the tolerance asked, under
        // every slippage code and under one this app does not know.
        let new = json!({"required_bps": "100", "requested_bps": "300"});
        for code in [
            "MAX_SLIPPAGE_EXCEEDED",
            "SLIPPAGE_TOO_HIGH",
            "SLIPPAGE_TOO_LOW",
            "SLIPPAGE_LIMIT",
        ] {
            assert_eq!(
                window(code, new.clone()),
                json!({"field": "slippage", "shape": "slippageBounds", "required_bps": "100", "requested_bps": "300"}),
                "{code}"
            );
        }
        assert_eq!(
            window("SLIPPAGE_TOO_LOW", Value::Null),
            json!({"field": "slippage", "shape": "none"})
        );
    }

    #[test]
    fn codes_without_details_or_field_give_no_details() {
        assert_eq!(window("INTERNAL_ERROR", Value::Null), Value::Null);
        assert_eq!(GatewayDetails::of(&ErrorCode::OrderExpired, None), None);
        assert_eq!(
            window("MISSING_OWNER_ADDRESS", Value::Null),
            json!({"field": "owner", "shape": "none"})
        );
        assert_eq!(
            window("INVALID_DESTINATION_CHAIN_ID", Value::Null),
            json!({"field": "dstToken", "shape": "none"})
        );
    }

    #[test]
    fn the_sent_details_are_kept_for_the_journal() {
        let sent = json!({"tenderly_url": "https://t", "extra": 1});
        let details = ErrorDetails::Gateway(
            GatewayDetails::of(&ErrorCode::SimulationFailed, Some(&sent)).unwrap(),
        );
        assert_eq!(details.as_sent(), Some(&sent));
        let none =
            ErrorDetails::Gateway(GatewayDetails::of(&ErrorCode::SlippageTooLow, None).unwrap());
        assert_eq!(none.as_sent(), None);
        assert_eq!(ErrorDetails::field("amount").as_sent(), None);
    }

    #[test]
    fn every_swap_field_is_named_as_serde_names_it() {
        for field in SwapField::ALL {
            assert_eq!(serde_json::to_value(field).unwrap(), field.name());
        }
    }

    #[test]
    fn the_apps_own_details_keep_their_wire_shape() {
        assert_eq!(
            ErrorDetails::field("amount").to_json(),
            json!({"field": "amount"})
        );
        assert_eq!(
            ErrorDetails::entry("affiliates", 2).to_json(),
            json!({"field": "affiliates", "index": 2})
        );
        assert_eq!(ErrorDetails::order(7).to_json(), json!({"localId": 7}));
        assert_eq!(
            ErrorDetails::about_order(Some(ErrorDetails::order(3)), 7).to_json(),
            json!({"localId": 7})
        );
        assert_eq!(
            ErrorDetails::about_order(Some(ErrorDetails::field("quote")), 7).to_json(),
            json!({"localId": 7, "cause": {"field": "quote"}})
        );
    }
}
