//! get-order and get-orders answers, V1 to V3: order records, their status, and pages of them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::common::{json_kind, null_as_default, pick_key, read_inner};

/// One order as get-order and get-orders return it (`GatewayOrderInfo`, `…V2`, `…V3`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OrderInfo {
    /// The order's identifier.
    pub id: String,
    /// Creation time, unix seconds.
    pub timestamp: i64,
    /// What the user sent.
    pub src_info: SrcInfo,
    /// What the recipient gets (the amount is the expected one).
    pub dst_info: DstInfo,
    /// Where the order stands.
    pub status: OrderStatus,
    /// The Bitcoin deposit address of an onramp, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deposit_address: Option<String>,
    /// Estimated seconds to complete.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_time_in_secs: Option<u64>,
}

/// The source side of an order (`ChainTxInfo`, V3: `ChainTxInfoV3`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SrcInfo {
    /// Source chain.
    pub chain: String,
    /// Source token address.
    pub token: String,
    /// Amount sent, smallest units.
    pub amount: String,
    /// The source transaction, once known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tx_hash: Option<String>,
    /// USD value at order time (V3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usd: Option<String>,
}

/// The destination side of an order (V1: `ChainTxInfo`; V2: `OrderDestinationInfo`; V3: `…V3`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DstInfo {
    /// Destination chain.
    pub chain: String,
    /// Destination token address.
    pub token: String,
    /// The expected amount, fixed at create-order.
    pub amount: String,
    /// The destination transaction: only V1 (which reuses `ChainTxInfo`) has this field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tx_hash: Option<String>,
    /// USD value of the expected amount at order time (V3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usd: Option<String>,
}

/// The outgoing Bitcoin payout of an offramp while it confirms (`PendingBtcPayment`, V3: `…V3`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingBtcPayment {
    /// The payout's txid.
    pub txid: String,
    /// The payout amount, sats.
    pub amount: String,
    /// USD value (V3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usd: Option<String>,
}

/// A settled token transfer to the user (`GatewayUserTokenTransfer`, V3: `…V3`).
///
/// The published document writes `txHash` here, inside a snake_case status body; `tx_hash` is read too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenTransfer {
    /// Token address.
    pub token: String,
    /// Amount, smallest units.
    pub amount: String,
    /// Chain slug.
    pub chain: String,
    /// The settling transaction.
    #[serde(rename = "txHash", alias = "tx_hash")]
    pub tx_hash: String,
    /// USD value when it settled (V3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usd: Option<String>,
}

/// Where an order stands.
///
/// Read from the V2/V3 objects keyed `inProgress`, `success`, `failed` or `refunded` (inner fields snake_case) and
/// from V1, whose `success` and `refunded` are plain strings. Written in the V2/V3 object form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", try_from = "Value")]
pub enum OrderStatus {
    /// Not settled yet.
    InProgress {
        /// The offramp's Bitcoin payout while it confirms (V2+).
        #[serde(skip_serializing_if = "Option::is_none")]
        pending_btc_payment: Option<PendingBtcPayment>,
        /// A refund transaction; the published service always sends `null`.
        #[serde(skip_serializing_if = "Option::is_none")]
        refund_tx: Option<Value>,
        /// V1 only: an EVM transaction that bumps the fee of the Bitcoin payout.
        #[serde(skip_serializing_if = "Option::is_none")]
        bump_fee_tx: Option<Value>,
    },
    /// Settled: the user received these tokens (empty when V1 said just `"success"`).
    Success {
        /// The settling transfers.
        received_tokens: Vec<TokenTransfer>,
    },
    /// The order failed.
    Failed {
        /// A refund transaction; the published service always sends `null`.
        #[serde(skip_serializing_if = "Option::is_none")]
        refund_tx: Option<Value>,
    },
    /// The user's funds were returned (empty when V1 said just `"refunded"`).
    Refunded {
        /// The refund transfers.
        refunded_tokens: Vec<TokenTransfer>,
    },
    /// A status this client does not know, kept as sent: not terminal (the order is still watched), and shown as
    /// received rather than guessed at. One new status must not make a whole page of orders unreadable.
    #[serde(untagged)]
    Unknown(Value),
}

/// Wire shapes of the four status bodies, read separately so that each error names its variant.
#[derive(Deserialize)]
struct InProgressBody {
    #[serde(default)]
    pending_btc_payment: Option<PendingBtcPayment>,
    #[serde(default)]
    refund_tx: Option<Value>,
    #[serde(default)]
    bump_fee_tx: Option<Value>,
}

#[derive(Deserialize)]
struct SuccessBody {
    #[serde(default, deserialize_with = "null_as_default")]
    received_tokens: Vec<TokenTransfer>,
}

#[derive(Deserialize)]
struct FailedBody {
    #[serde(default)]
    refund_tx: Option<Value>,
}

#[derive(Deserialize)]
struct RefundedBody {
    #[serde(default, deserialize_with = "null_as_default")]
    refunded_tokens: Vec<TokenTransfer>,
}

impl OrderStatus {
    /// Reads a V2/V3 status object or a V1 plain string.
    pub fn from_value(value: &Value) -> Result<Self, serde_json::Error> {
        use serde::de::Error as _;
        if let Value::String(s) = value {
            return match s.as_str() {
                "success" => Ok(Self::Success {
                    received_tokens: Vec::new(),
                }),
                "refunded" => Ok(Self::Refunded {
                    refunded_tokens: Vec::new(),
                }),
                "inProgress" => Ok(Self::InProgress {
                    pending_btc_payment: None,
                    refund_tx: None,
                    bump_fee_tx: None,
                }),
                "failed" => Ok(Self::Failed { refund_tx: None }),
                _ => Ok(Self::Unknown(value.clone())),
            };
        }
        if !value.is_object() {
            return Err(serde_json::Error::custom(format!(
                "order status: expected a string or an object, found {}",
                json_kind(value)
            )));
        }
        const KNOWN: [&str; 4] = ["inProgress", "success", "failed", "refunded"];
        if value
            .as_object()
            .is_some_and(|o| !o.keys().any(|k| KNOWN.contains(&k.as_str())))
        {
            return Ok(Self::Unknown(value.clone()));
        }
        let (key, inner) = pick_key(value, "order status", &KNOWN)?;
        // `{ "failed": null }` is read like `{ "failed": {} }`.
        let empty = Value::Object(Default::default());
        let inner = if inner.is_null() { &empty } else { inner };
        Ok(match key {
            "inProgress" => {
                let b: InProgressBody = read_inner(inner, "inProgress")?;
                Self::InProgress {
                    pending_btc_payment: b.pending_btc_payment,
                    refund_tx: b.refund_tx,
                    bump_fee_tx: b.bump_fee_tx,
                }
            }
            "success" => {
                let b: SuccessBody = read_inner(inner, "success")?;
                Self::Success {
                    received_tokens: b.received_tokens,
                }
            }
            "failed" => {
                let b: FailedBody = read_inner(inner, "failed")?;
                Self::Failed {
                    refund_tx: b.refund_tx,
                }
            }
            _ => {
                let b: RefundedBody = read_inner(inner, "refunded")?;
                Self::Refunded {
                    refunded_tokens: b.refunded_tokens,
                }
            }
        })
    }

    /// True once the order has left `inProgress`: a poller can stop.
    pub fn is_terminal(&self) -> bool {
        !matches!(self, Self::InProgress { .. } | Self::Unknown(_))
    }

    /// The status as a stable word for journals and windows: `inProgress`, `pendingBtcPayment` (an offramp's
    /// Bitcoin payout under way), `success`, `failed`, `refunded`, or `unknown`.
    pub fn key(&self) -> &'static str {
        match self {
            Self::InProgress {
                pending_btc_payment: Some(_),
                ..
            } => "pendingBtcPayment",
            Self::InProgress { .. } => "inProgress",
            Self::Success { .. } => "success",
            Self::Failed { .. } => "failed",
            Self::Refunded { .. } => "refunded",
            Self::Unknown(_) => "unknown",
        }
    }

    /// The status in words for a person ([`status_text`] of its [`key`](Self::key)).
    pub fn text(&self) -> &'static str {
        status_text(self.key())
    }
}

/// A status, by its key ([`OrderStatus::key`]), in words for a person: the one word list of the statuses (the
/// window, the partner dashboard and the command line all show it).
pub fn status_text(key: &str) -> &'static str {
    match key {
        "inProgress" => "In progress",
        "pendingBtcPayment" => "Bitcoin payout on its way",
        "success" => "Completed",
        "failed" => "Failed",
        "refunded" => "Refunded",
        _ => "Unknown status (see the raw answer)",
    }
}

impl TryFrom<Value> for OrderStatus {
    type Error = serde_json::Error;

    fn try_from(value: Value) -> Result<Self, Self::Error> {
        Self::from_value(&value)
    }
}

/// One page of a user's orders.
///
/// Read from V2/V3 `{ orders, nextCursor }` (null or absent `nextCursor` is the last page) and from V1's bare
/// array (always the only page). Written in the V2/V3 form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", try_from = "Value")]
pub struct OrdersPage {
    /// The orders of this page.
    pub orders: Vec<OrderInfo>,
    /// The cursor of the next page; `None` on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// The V2/V3 object form of a page.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PageObject {
    orders: Vec<OrderInfo>,
    #[serde(default)]
    next_cursor: Option<String>,
}

impl OrdersPage {
    /// Reads a V2/V3 page object or a V1 bare array.
    pub fn from_value(value: &Value) -> Result<Self, serde_json::Error> {
        use serde::de::Error as _;
        match value {
            Value::Array(_) => Ok(Self {
                orders: read_inner(value, "orders")?,
                next_cursor: None,
            }),
            Value::Object(_) => {
                let page: PageObject = read_inner(value, "orders page")?;
                Ok(Self {
                    orders: page.orders,
                    next_cursor: page.next_cursor,
                })
            }
            other => Err(serde_json::Error::custom(format!(
                "orders page: expected an object or an array, found {}",
                json_kind(other)
            ))),
        }
    }

    /// True when there is no further page.
    pub fn is_last(&self) -> bool {
        self.next_cursor.is_none()
    }
}

impl TryFrom<Value> for OrdersPage {
    type Error = serde_json::Error;

    fn try_from(value: Value) -> Result<Self, Self::Error> {
        Self::from_value(&value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn v3_order(status: Value) -> Value {
        json!({
            "id": "f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
            "timestamp": 1767225600,
            "srcInfo": {"chain": "bitcoin", "token": "BTC", "amount": "100000",
                        "txHash": "ab".repeat(32), "usd": "97.10"},
            "dstInfo": {"chain": "bob", "token": "0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3", "amount": "99000",
                        "usd": null},
            "status": status,
            "depositAddress": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
            "estimatedTimeInSecs": 1800,
            "newField": [1]
        })
    }

    #[test]
    fn v3_order_in_progress_with_pending_payment() {
        let status = json!({"inProgress": {"pending_btc_payment": {"txid": "cd".repeat(32), "amount": "98000",
            "usd": "95.16"}, "refund_tx": null}});
        let order: OrderInfo = serde_json::from_value(v3_order(status)).unwrap();
        assert_eq!(order.timestamp, 1767225600);
        assert_eq!(order.src_info.tx_hash, Some("ab".repeat(32)));
        assert_eq!(order.src_info.usd.as_deref(), Some("97.10"));
        assert_eq!(order.dst_info.usd, None);
        assert_eq!(
            order.deposit_address.as_deref(),
            Some("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq")
        );
        assert_eq!(order.estimated_time_in_secs, Some(1800));
        let OrderStatus::InProgress {
            pending_btc_payment: Some(p),
            refund_tx: None,
            bump_fee_tx: None,
        } = &order.status
        else {
            panic!("{:?}", order.status)
        };
        assert_eq!(p.amount, "98000");
        assert_eq!(p.usd.as_deref(), Some("95.16"));
        assert!(!order.status.is_terminal());
        assert_eq!(order.status.text(), "Bitcoin payout on its way");
    }

    #[test]
    fn success_and_refunded_read_tx_hash_in_camel_case() {
        let status = json!({"success": {"received_tokens": [{"token": "0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3",
            "amount": "99000", "chain": "bob", "txHash": "0xfeed", "usd": "96.13"}]}});
        let order: OrderInfo = serde_json::from_value(v3_order(status.clone())).unwrap();
        let OrderStatus::Success { received_tokens } = &order.status else {
            panic!()
        };
        assert_eq!(received_tokens[0].tx_hash, "0xfeed");
        assert_eq!(received_tokens[0].usd.as_deref(), Some("96.13"));
        assert!(order.status.is_terminal());
        assert_eq!(order.status.text(), "Completed");
        // Written back in the same V3 form.
        assert_eq!(serde_json::to_value(&order.status).unwrap(), status);

        let refunded = json!({"refunded": {"refunded_tokens": [{"token": "BTC", "amount": "1", "chain": "bitcoin",
            "tx_hash": "ef"}]}});
        let status: OrderStatus = serde_json::from_value(refunded).unwrap();
        let OrderStatus::Refunded { refunded_tokens } = &status else {
            panic!()
        };
        assert_eq!(
            refunded_tokens[0].tx_hash, "ef",
            "snake_case spelling accepted too"
        );
        assert_eq!(refunded_tokens[0].usd, None);
        assert_eq!(status.text(), "Refunded");

        let missing = json!({"success": {"received_tokens": [{"token": "BTC", "amount": "1", "chain": "bitcoin"}]}});
        assert!(
            serde_json::from_value::<OrderStatus>(missing).is_err(),
            "txHash is required"
        );
    }

    #[test]
    fn failed_with_and_without_refund_tx() {
        let status: OrderStatus =
            serde_json::from_value(json!({"failed": {"refund_tx": null}})).unwrap();
        assert_eq!(status, OrderStatus::Failed { refund_tx: None });
        assert!(status.is_terminal());
        assert_eq!(status.text(), "Failed");
        let tx = json!({"to": "0x1", "data": "0x", "value": "0", "chain": "bob"});
        let status: OrderStatus =
            serde_json::from_value(json!({"failed": {"refund_tx": tx.clone()}})).unwrap();
        assert_eq!(
            status,
            OrderStatus::Failed {
                refund_tx: Some(tx)
            }
        );
        assert_eq!(
            serde_json::from_value::<OrderStatus>(json!({"failed": {}})).unwrap(),
            OrderStatus::Failed { refund_tx: None }
        );
    }

    #[test]
    fn v1_plain_string_statuses_and_bump_fee_tx() {
        let s: OrderStatus = serde_json::from_value(json!("success")).unwrap();
        assert_eq!(
            s,
            OrderStatus::Success {
                received_tokens: vec![]
            }
        );
        let r: OrderStatus = serde_json::from_value(json!("refunded")).unwrap();
        assert_eq!(
            r,
            OrderStatus::Refunded {
                refunded_tokens: vec![]
            }
        );
        let tx = json!({"to": "0x1", "data": "0x2", "value": "0", "chain": "bob"});
        let p: OrderStatus =
            serde_json::from_value(json!({"inProgress": {"bump_fee_tx": tx.clone()}})).unwrap();
        assert_eq!(
            p,
            OrderStatus::InProgress {
                pending_btc_payment: None,
                refund_tx: None,
                bump_fee_tx: Some(tx)
            }
        );
        for unknown in [json!("done"), json!({"pending": {}})] {
            let status: OrderStatus = serde_json::from_value(unknown.clone()).unwrap();
            assert_eq!(
                status,
                OrderStatus::Unknown(unknown.clone()),
                "kept as sent"
            );
            assert!(!status.is_terminal());
            assert_eq!(
                serde_json::to_value(&status).unwrap(),
                unknown,
                "written back as received"
            );
        }
        for bad in [json!(3), json!({"success": {}, "failed": {}})] {
            assert!(
                serde_json::from_value::<OrderStatus>(bad.clone()).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn v1_order_has_dst_tx_hash_and_no_usd() {
        let order = json!({"id": "1", "timestamp": 1700000000,
            "srcInfo": {"chain": "bob", "token": "0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3", "amount": "5",
                        "txHash": null},
            "dstInfo": {"chain": "bitcoin", "token": "0x0000000000000000000000000000000000000000", "amount": "4",
                        "txHash": "ab"},
            "status": "success"});
        let order: OrderInfo = serde_json::from_value(order).unwrap();
        assert_eq!(order.src_info.tx_hash, None);
        assert_eq!(order.dst_info.tx_hash.as_deref(), Some("ab"));
        assert_eq!(order.deposit_address, None);
        assert_eq!(order.estimated_time_in_secs, None);
        assert_eq!(order.status.text(), "Completed");
    }

    #[test]
    fn pages_from_objects_and_v1_bare_arrays() {
        let one = v3_order(json!({"failed": {}}));
        let page: OrdersPage =
            serde_json::from_value(json!({"orders": [one.clone()], "nextCursor": "c2"})).unwrap();
        assert_eq!(page.orders.len(), 1);
        assert_eq!(page.next_cursor.as_deref(), Some("c2"));
        assert!(!page.is_last());
        let page: OrdersPage =
            serde_json::from_value(json!({"orders": [], "nextCursor": null})).unwrap();
        assert!(page.is_last() && page.orders.is_empty());
        let page: OrdersPage = serde_json::from_value(json!({"orders": [one.clone()]})).unwrap();
        assert!(page.is_last());
        let page: OrdersPage = serde_json::from_value(json!([one.clone(), one])).unwrap();
        assert_eq!(page.orders.len(), 2);
        assert!(page.is_last(), "a V1 array is the only page");
        assert!(serde_json::from_value::<OrdersPage>(json!({"nextCursor": "x"})).is_err());
        assert!(serde_json::from_value::<OrdersPage>(json!("orders")).is_err());
        // A broken order names itself in the error instead of an opaque untagged failure.
        let err = serde_json::from_value::<OrdersPage>(json!([{"id": "1"}])).unwrap_err();
        assert!(err.to_string().contains("timestamp"), "{err}");
    }

    #[test]
    fn page_writes_the_v2_v3_form() {
        let page = OrdersPage {
            orders: vec![],
            next_cursor: Some("n".into()),
        };
        assert_eq!(
            serde_json::to_value(&page).unwrap(),
            json!({"orders": [], "nextCursor": "n"})
        );
    }
}
