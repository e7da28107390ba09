//! What an order asks the person to pay or sign, read once here for the window: an onramp's deposit (address,
//! exact amount, OP_RETURN, PSBT) or the call an offramp or token swap asks to be signed (EVM, Tron, Solana).
//!
//! Read from what verification found (the typed [`Verified`], preferred: canonical forms and decoded calls) and,
//! where verification has not run or says nothing of a field, from the create-order answer as received (any JSON,
//! so every field is checked before it is used). Nothing is guessed: a field that is absent stays absent.

use serde::Serialize;
use serde_json::{Map, Value};
use ts_rs::TS;

use crate::api::RouteKind;
use crate::verify::to_sign::text;
pub use crate::verify::to_sign::{CallToSign, ContractCall};
use crate::verify::{PsbtSummary, Verified};

/// What an onramp asks to be paid: the deposit address, the exact amount, the OP_RETURN, the PSBT when there is one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "DepositToPay.ts")]
pub struct DepositToPay {
    /// The gateway's order id, when known.
    pub order_id: Option<String>,
    /// The deposit address (the verified, canonical form when there is one).
    pub address: String,
    /// The exact amount to pay, in sats (decimal).
    pub amount_sats: Option<String>,
    /// The OP_RETURN data the payment must carry (hex), when there is any.
    pub op_return_hex: Option<String>,
    /// The unsigned PSBT, hex, when the quote named a sender.
    pub psbt_hex: Option<String>,
    /// What verification found in the PSBT.
    pub psbt: Option<PsbtSummary>,
    /// The PSBT's network fee in BTC (`0.00002352 BTC`).
    pub fee_text: Option<String>,
    /// The same in USD at the quote's own BTC price, rounded up to the cent (`"2.26"`), when the quote priced it.
    pub fee_usd: Option<String>,
    /// The verified sentence ("Pays … to … with OP_RETURN …").
    pub sentence: Option<String>,
}

/// The create-order answer's inner object and its route key (`onramp`, `offramp`, `tokenSwap`, V1's `layerZero`).
fn created_inner(created: Option<&Value>) -> Option<(&'static str, &Map<String, Value>)> {
    let created = created?.as_object()?;
    ["onramp", "offramp", "tokenSwap", "layerZero"]
        .into_iter()
        .find_map(|key| {
            created
                .get(key)
                .and_then(Value::as_object)
                .map(|inner| (key, inner))
        })
}

/// The facts [`deposit_to_pay`] and [`call_to_sign`] read, borrowed from an order view.
pub(super) struct OrderFacts<'a> {
    pub route: RouteKind,
    pub verified: Option<&'a Verified>,
    pub created: Option<&'a Value>,
    pub order_id: Option<&'a str>,
    pub deposit_address: Option<&'a str>,
    /// What is paid in, in smallest units.
    pub send_units: &'a str,
    /// Its USD value, when the quote gave one (the price of the PSBT's fee).
    pub send_usd: Option<&'a str>,
    /// The chain paid from.
    pub send_chain: &'a str,
}

/// What an onramp order asks to be paid; `None` when the order is not an onramp or has no deposit address.
pub(super) fn deposit_to_pay(order: &OrderFacts<'_>) -> Option<DepositToPay> {
    if order.route != RouteKind::Onramp {
        return None;
    }
    let summary = order.verified.and_then(Verified::onramp);
    let inner = created_inner(order.created)
        .filter(|(key, _)| *key == "onramp")
        .map(|(_, inner)| inner);
    let field = |name: &str| text(inner.and_then(|i| i.get(name)));
    let address = summary
        .map(|s| s.address.clone())
        .or_else(|| field("address"))
        .or_else(|| order.deposit_address.map(str::to_owned))?;
    let psbt = summary.and_then(|s| s.psbt.as_ref());
    let send_units = (!order.send_units.is_empty()
        && order.send_units.bytes().all(|b| b.is_ascii_digit()))
    .then(|| order.send_units.to_owned());
    Some(DepositToPay {
        order_id: order
            .verified
            .map(|v| v.order_id.clone())
            .or_else(|| field("order_id"))
            .or_else(|| order.order_id.map(str::to_owned)),
        address,
        amount_sats: summary.map(|s| s.amount_sats.to_string()).or(send_units),
        op_return_hex: match summary {
            Some(s) => s.op_return_hex.clone(),
            None => field("op_return_data"),
        },
        psbt_hex: field("psbt_hex"),
        fee_text: psbt.map(|p| {
            gateway_client::amount::format_with_symbol(
                alloy_primitives::U256::from(p.fee_sats),
                8,
                "BTC",
            )
        }),
        fee_usd: psbt.and_then(|p| {
            let usd = gateway_client::usd::Usd::parse(order.send_usd?)?;
            let whole: alloy_primitives::U256 = order.send_units.parse().ok()?;
            usd.share_up(whole, alloy_primitives::U256::from(p.fee_sats))
                .map(gateway_client::usd::Usd::cents_up_text)
        }),
        psbt: psbt.cloned(),
        sentence: order.verified.map(|v| v.sentence.clone()),
    })
}

/// The transaction an offramp or token-swap order asks to be signed; `None` when there is none to read.
pub(super) fn call_to_sign(order: &OrderFacts<'_>) -> Option<CallToSign> {
    if order.route == RouteKind::Onramp {
        return None;
    }
    let (_, inner) = created_inner(order.created)?;
    let tx = inner.get("tx")?.as_object()?;
    crate::verify::to_sign::call_to_sign(tx, order.verified.map(|v| &v.payload), order.send_chain)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::journal::Stage;
    use crate::verify::FamilyCall;
    use crate::views::OrderView;
    use crate::views::fixtures::{amount, own};

    const ORDER_ID: &str = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6";
    const DEPOSIT: &str = "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h";
    const OP_RETURN: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    const PSBT_HEX: &str = "70736274ff0100520200000001aa";
    const GATEWAY: &str = "0x5C1F7f15A8fc15AcE2b8C1bC1fF4E0c5aA5E1a4D";

    fn verified(value: Value) -> Option<Verified> {
        Some(serde_json::from_value(value).expect("a Verified record"))
    }

    fn onramp(change: impl FnOnce(&mut OrderView)) -> OrderView {
        let mut view = own(7);
        view.order_id = Some(ORDER_ID.into());
        view.stage = Some(Stage::Verified);
        view.deposit_address = Some(DEPOSIT.into());
        view.verified = verified(json!({
            "orderId": ORDER_ID,
            "sentence": format!("Pays 0.00250000 BTC to {DEPOSIT} with OP_RETURN e3b0…b855, fee 0.00001000 BTC"),
            "payload": {
                "type": "onramp", "address": DEPOSIT, "amountSats": "250000", "opReturnHex": OP_RETURN,
                "psbt": {
                    "unsignedTxid": "b".repeat(64),
                    "inputs": [{"outpoint": format!("{}:0", "c".repeat(64)), "valueSats": "261000", "address": "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"}],
                    "outputs": [{"kind": "payment", "address": DEPOSIT, "valueSats": "250000", "dataHex": null}],
                    "feeSats": "1000", "vsizeEstimate": 153, "feeShareBps": 40, "feeSharePercent": "0.40",
                    "feeNeedsConfirmation": false
                }
            }
        }));
        view.created = Some(json!({
            "onramp": {"order_id": ORDER_ID, "address": DEPOSIT, "op_return_data": format!("6a20{OP_RETURN}"), "psbt_hex": PSBT_HEX}
        }));
        change(&mut view);
        view.settled()
    }

    fn offramp(change: impl FnOnce(&mut OrderView)) -> OrderView {
        let mut view = own(8);
        view.route = RouteKind::Offramp;
        view.order_id = Some(ORDER_ID.into());
        view.stage = Some(Stage::Verified);
        view.send = amount("0.01 WBTC", "bob", "WBTC");
        view.verified = verified(json!({
            "orderId": ORDER_ID,
            "sentence": "Calls 0x5C1F…1a4D on bob with no value (36 bytes of data, function 0x095ea7b3)",
            "payload": {
                "type": "evm", "chain": "bob", "to": GATEWAY, "value": "0", "valueText": "0 ETH", "dataBytes": 36,
                "selector": "0x095ea7b3", "decoded": null, "rawData": null
            }
        }));
        view.created = Some(json!({
            "offramp": {"order_id": ORDER_ID, "tx": {
                "type": "evm", "to": GATEWAY, "value": "0", "chain": "bob",
                "data": "0x095ea7b3000000000000000000000000000000000000000000000000000000000000000a"
            }}
        }));
        change(&mut view);
        view.settled()
    }

    #[test]
    fn an_onramp_is_paid_from_the_verified_facts_and_the_psbt() {
        let view = onramp(|_| {});
        let deposit = view.to_pay.expect("a deposit to pay");
        assert_eq!(deposit.order_id.as_deref(), Some(ORDER_ID));
        assert_eq!(deposit.address, DEPOSIT);
        assert_eq!(deposit.amount_sats.as_deref(), Some("250000"));
        assert_eq!(deposit.op_return_hex.as_deref(), Some(OP_RETURN));
        assert_eq!(deposit.psbt_hex.as_deref(), Some(PSBT_HEX));
        assert!(deposit.sentence.unwrap().starts_with("Pays 0.00250000 BTC"));
        assert_eq!(deposit.psbt.unwrap().fee_sats, 1000);
        // The fee in BTC, and in USD at the send's own price (0.0025 BTC for $96.12: 1,000 sats are $0.3845, up).
        assert_eq!(deposit.fee_text.as_deref(), Some("0.00001 BTC"));
        assert_eq!(deposit.fee_usd.as_deref(), Some("0.39"));
        let unpriced = onramp(|view| view.send.usd = None);
        assert_eq!(unpriced.to_pay.unwrap().fee_usd, None);
        // At the quote's own price (0.0025 BTC for $240.00): 1,000 sats are $0.96.
        let priced = onramp(|view| {
            view.send.amount = "250000".into();
            view.send.usd = Some("240.00".into());
        });
        assert_eq!(priced.to_pay.unwrap().fee_usd.as_deref(), Some("0.96"));
        assert_eq!(view.to_sign, None);
    }

    #[test]
    fn without_verification_the_create_order_answer_is_read_and_nothing_is_guessed() {
        let view = onramp(|v| {
            v.verified = None;
            v.created = Some(
                json!({"onramp": {"order_id": "x", "address": "bc1qdeposit", "op_return_data": null}}),
            );
        });
        assert_eq!(
            view.to_pay,
            Some(DepositToPay {
                order_id: Some("x".into()),
                address: "bc1qdeposit".into(),
                amount_sats: Some("250000".into()),
                op_return_hex: None,
                psbt_hex: None,
                psbt: None,
                fee_text: None,
                fee_usd: None,
                sentence: None,
            })
        );
        let nothing = onramp(|v| {
            v.verified = None;
            v.created = None;
            v.deposit_address = None;
        });
        assert_eq!(nothing.to_pay, None);
        // An amount that is not whole smallest units is not offered as the amount to pay.
        let odd = onramp(|v| {
            v.verified = None;
            v.send.amount = "0.0025".into();
        });
        assert_eq!(odd.to_pay.unwrap().amount_sats, None);
    }

    #[test]
    fn an_evm_call_is_read_with_its_verified_summary() {
        let view = offramp(|_| {});
        let Some(CallToSign::Evm(call)) = view.to_sign else {
            panic!("an EVM call: {:?}", view.to_sign)
        };
        assert_eq!(call.chain, "bob");
        assert_eq!(call.to, GATEWAY);
        assert_eq!(call.value, "0");
        assert_eq!(call.value_text.as_deref(), Some("0 ETH"));
        assert_eq!(call.data_bytes, Some(36));
        assert_eq!(call.selector.as_deref(), Some("0x095ea7b3"));
        assert!(call.data.starts_with("0x095ea7b3"));
        assert_eq!(view.to_pay, None);
    }

    #[test]
    fn a_v1_call_without_a_type_a_tron_call_and_a_solana_transaction_are_read() {
        let v2 = offramp(|v| {
            v.verified = None;
            v.created = Some(
                json!({"layerZero": {"order_id": "x", "tx": {"to": "0xabc", "data": "0x", "value": 184532011230000u64, "chain": "bob"}}}),
            );
        });
        let Some(CallToSign::Evm(call)) = v2.to_sign else {
            panic!("an EVM call")
        };
        assert_eq!(
            (call.to.as_str(), call.value.as_str(), call.value_text),
            ("0xabc", "184532011230000", None)
        );

        let tron = offramp(|v| {
            v.route = RouteKind::TokenSwap;
            v.verified = None;
            v.created = Some(json!({"tokenSwap": {"order_id": "x", "tx": {
                "type": "tron", "to": "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf", "data": "0xa9059cbb", "value": "0",
                "chain": "tron", "feeLimit": "150000000"
            }}}));
        });
        let Some(CallToSign::Family(FamilyCall::Tron(call))) = tron.to_sign else {
            panic!("a Tron call")
        };
        assert_eq!(call.fee_limit_sun.as_deref(), Some("150000000"));
        assert_eq!(call.call.to, "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf");

        let solana = offramp(|v| {
            v.route = RouteKind::TokenSwap;
            v.verified = verified(json!({
                "orderId": "x", "sentence": "Solana transaction paid and signed by 9Wz…",
                "payload": {"type": "solana", "feePayer": "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
                    "programs": ["11111111111111111111111111111111"], "instructionCount": 2,
                    "recentBlockhash": "EETubP5AKHgjPAhzPAFcb8BAY1hMH639CWCFTqi3hq1k", "version": "v0"}
            }));
            v.created = Some(
                json!({"tokenSwap": {"order_id": "x", "tx": {"type": "solana", "chainId": 792703809, "transaction": "AQAAAA=="}}}),
            );
        });
        let Some(CallToSign::Family(FamilyCall::Solana(tx))) = solana.to_sign else {
            panic!("a Solana transaction")
        };
        assert_eq!(tx.chain_id.as_deref(), Some("792703809"));
        assert_eq!(tx.transaction, "AQAAAA==");
        assert_eq!(tx.instruction_count, Some(2));
        assert_eq!(tx.programs, ["11111111111111111111111111111111"]);
    }

    #[test]
    fn nothing_to_sign_is_read_when_the_answer_has_no_call() {
        assert_eq!(offramp(|v| v.created = None).to_sign, None);
        assert_eq!(
            offramp(|v| v.created = Some(json!({"offramp": {"order_id": "x"}}))).to_sign,
            None
        );
        assert_eq!(
            offramp(|v| v.created = Some(json!({"offramp": {"tx": {"data": "0x"}}}))).to_sign,
            None
        );
        assert_eq!(
            offramp(|v| v.created = Some(json!(["not", "an", "answer"]))).to_sign,
            None
        );
    }

    #[test]
    fn the_window_receives_the_kind_and_camel_case_fields() {
        let call = serde_json::to_value(offramp(|_| {}).to_sign).unwrap();
        assert_eq!(call["kind"], "evm");
        assert_eq!(call["valueText"], "0 ETH");
        let tron = offramp(|v| {
            v.verified = None;
            v.created =
                Some(json!({"offramp": {"tx": {"type": "tron", "to": "T1", "feeLimit": 5}}}));
        });
        let tron = serde_json::to_value(tron.to_sign).unwrap();
        assert_eq!(
            (
                tron["kind"].as_str(),
                tron["to"].as_str(),
                tron["feeLimitSun"].as_str()
            ),
            (Some("tron"), Some("T1"), Some("5"))
        );
    }
}
