//! Genuine payloads from `gateway_sim::payload` pass; each tampering is refused with the right reason.

use alloy_primitives::U256;
use bincode::Options as _;
use bitcoin::hex::{DisplayHex, FromHex};
use bitcoin::psbt::{Psbt, PsbtSighashType};
use bitcoin::sighash::EcdsaSighashType;
use bitcoin::{Amount, ScriptBuf, TxOut};
use gateway_client::address::BitcoinNetwork;
use gateway_client::wire::{CreateOrderResponse, NATIVE_TOKEN, Quote, RouteKind};
use gateway_payload::sandbox::gateway_contract;
use gateway_payload::solana::solana_tx;
use gateway_payload::testkit::TestWallet;
use gateway_payload::{
    Network, OnrampPayload, deposit_fee_sats, initial_coin, offramp_call, onramp_payload, swap_call,
};
use serde_json::{Value, json};
use solana_message::VersionedMessage;
use solana_transaction::versioned::VersionedTransaction;

use super::*;
use super::{solana::Refusal as SolanaRefusal, tron::Refusal as TronRefusal};

/// The fee limit the Sandbox's gateway puts on a Tron call, in sun (gateway-sim's `tron_node::FEE_LIMIT_SUN`, which
/// this crate does not depend on): 100 TRX, under the verifier's cap.
const TRON_FEE_LIMIT_SUN: u64 = 100_000_000;

const MAINNET: BitcoinNetwork = BitcoinNetwork::Mainnet;
const SECRET: [u8; 32] = [1; 32];
const DIGEST: [u8; 32] = [2; 32];
const ORDER: &str = "3f2a9c1e-6b4d-4a8f-9e21-c05b7d3e8a64";
const AMOUNT: u64 = 250_000;
const EVM: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const OWNER: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
const BTC_ADDR: &str = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";
const LEGACY_SENDER: &str = "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa";
const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
const USDT_BOB: &str = "0x05D032ac25d322df992303dCa074EE7392C117b9";
const USDT_ETH: &str = "0xdac17f958d2ee523a2206206994597c13d831ec7";
const USDT_TRON: &str = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const SOL_SENDER: &str = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const USDC_SOL: &str = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";

fn wallet() -> TestWallet {
    TestWallet::from_seed([7; 32])
}

fn stranger() -> TestWallet {
    TestWallet::from_seed([8; 32])
}

fn amount(address: &str, amount: &str, chain: &str) -> Value {
    json!({"address": address, "amount": amount, "chain": chain})
}

fn quote(value: Value) -> Quote {
    Quote::from_json(value).unwrap()
}

fn answer(value: Value) -> CreateOrderResponse {
    CreateOrderResponse::from_value(&value).unwrap()
}

/// The strict policy with the contracts followed from the quote: what a call holds, checked apart from where it goes
/// (the payloads here are the Sandbox's, at its contracts; the pins have their own tests below).
fn decoding_only() -> VerifyPolicy {
    VerifyPolicy {
        contracts: GatewayContracts::Unknown,
        ..VerifyPolicy::strict(MAINNET)
    }
}

fn verify(quote: &Quote, created: &CreateOrderResponse) -> Result<Verified, VerifyError> {
    verify_order_with(quote, created, &decoding_only())
}

fn refused(quote: &Quote, created: &CreateOrderResponse) -> VerifyError {
    let err = verify(quote, created).unwrap_err();
    let message = err.to_string();
    assert!(
        message.ends_with('.') && message.contains("Do not"),
        "not a complete sentence with advice: {message}"
    );
    err
}

// ---------------------------------------------------------------- onramp

fn onramp_quote(amount_sats: u64, sender: Option<&str>) -> Quote {
    let btc = |a: &str| amount(NATIVE_TOKEN, a, "bitcoin");
    let mut q = json!({
        "inputAmount": btc(&amount_sats.to_string()),
        "outputAmount": amount(WBTC_BOB, "247000", "bob"),
        "fees": btc("3000"),
        "executionFees": btc("500"),
        "feeBreakdown": {
            "solverFee": btc("1000"), "protocolFee": btc("1000"), "affiliateFee": btc("0"),
            "executionFee": btc("500"), "layerzeroFee": btc("500")
        },
        "recipient": EVM,
        "token": WBTC_BOB,
        "slippage": "300",
        "dstChain": "bob",
        "dstToken": WBTC_BOB,
        "signedQuoteData": "0xsigned",
    });
    if let Some(sender) = sender {
        q["sender"] = json!(sender);
    }
    quote(json!({ "onramp": q }))
}

/// Sats as BTC with 8 decimals.
fn btc(sats: u64) -> String {
    format!("{}.{:08}", sats / 100_000_000, sats % 100_000_000)
}

/// The fee the Sandbox's PSBT of the test wallet pays (its size at the simulated chain's fee rate).
fn fee_sats() -> u64 {
    deposit_fee_sats(&wallet().script_pubkey(), true)
}

/// The change the Sandbox's PSBT of the test wallet returns: its coin less the amount and the fee.
fn change_sats() -> u64 {
    initial_coin(&wallet().script_pubkey()).value - AMOUNT - fee_sats()
}

fn payload(sender: Option<&str>) -> OnrampPayload {
    onramp_payload(&SECRET, ORDER, &DIGEST, Network::Bitcoin, AMOUNT, sender).unwrap()
}

fn onramp_answer(p: &OnrampPayload) -> Value {
    let mut o =
        json!({"order_id": ORDER, "address": p.address, "op_return_data": p.op_return_data});
    if let Some(psbt) = &p.psbt_hex {
        o["psbt_hex"] = json!(psbt);
    }
    json!({ "onramp": o })
}

fn with_psbt(p: &OnrampPayload, psbt_hex: String) -> CreateOrderResponse {
    let mut value = onramp_answer(p);
    value["onramp"]["psbt_hex"] = json!(psbt_hex);
    answer(value)
}

fn tamper(psbt_hex: &str, change: impl FnOnce(&mut Psbt)) -> String {
    let mut psbt = Psbt::deserialize(&Vec::<u8>::from_hex(psbt_hex).unwrap()).unwrap();
    change(&mut psbt);
    psbt.serialize_hex()
}

/// The genuine P2WPKH case: the quote, the sim's payload, and its PSBT.
fn genuine() -> (Quote, OnrampPayload, String) {
    let sender = wallet().address(Network::Bitcoin);
    let p = payload(Some(&sender));
    let psbt = p.psbt_hex.clone().unwrap();
    (onramp_quote(AMOUNT, Some(&sender)), p, psbt)
}

fn onramp_summary(verified: Verified) -> OnrampSummary {
    match verified.payload {
        VerifiedPayload::Onramp(summary) => summary,
        other => panic!("not an onramp: {other:?}"),
    }
}

#[test]
fn verify_genuine_onramp_psbt_passes() {
    let (q, p, _) = genuine();
    let verified = verify(&q, &answer(onramp_answer(&p))).unwrap();
    assert_eq!(verified.order_id, ORDER);
    let sentence = verified.sentence.clone();
    let summary = onramp_summary(verified.clone());
    assert_eq!(summary.address, p.address);
    assert_eq!(summary.amount_sats, AMOUNT);
    assert_eq!(
        summary.op_return_hex.as_deref(),
        Some(p.op_return_data.as_str())
    );
    let psbt = summary.psbt.as_ref().unwrap();
    assert_eq!(psbt.fee_sats, fee_sats());
    assert_eq!(
        psbt.outputs.iter().map(|o| o.kind).collect::<Vec<_>>(),
        [
            OutputKind::Payment,
            OutputKind::OpReturn,
            OutputKind::Change
        ]
    );
    assert_eq!(psbt.outputs[2].value_sats, change_sats());
    assert_eq!(
        psbt.outputs[2].address.as_deref(),
        Some(wallet().address(Network::Bitcoin).as_str())
    );
    assert_eq!(psbt.inputs.len(), 1);
    assert_eq!(
        psbt.inputs[0].value_sats,
        AMOUNT + fee_sats() + change_sats()
    );
    let vsize = psbt.vsize_estimate.unwrap();
    assert!((180..=190).contains(&vsize), "{vsize}");
    assert!(
        sentence.starts_with(&format!(
            "Pays 0.00250000 BTC to {} with OP_RETURN {}…, change {} BTC back to you, fee {} BTC (about",
            p.address,
            &p.op_return_data[..8],
            btc(change_sats()),
            btc(fee_sats())
        )),
        "{sentence}"
    );

    // What crosses to the window: amounts as strings, the payload tagged by type; and it reads back.
    let value = serde_json::to_value(&verified).unwrap();
    assert_eq!(value["payload"]["type"], "onramp");
    assert_eq!(value["payload"]["amountSats"], "250000");
    assert_eq!(value["payload"]["psbt"]["feeSats"], fee_sats().to_string());
    assert_eq!(value["payload"]["psbt"]["outputs"][1]["kind"], "opReturn");
    assert_eq!(serde_json::from_value::<Verified>(value).unwrap(), verified);
}

#[test]
fn verify_genuine_onramp_with_a_legacy_sender_passes_and_its_previous_tx_must_match() {
    let p = payload(Some(LEGACY_SENDER));
    let q = onramp_quote(AMOUNT, Some(LEGACY_SENDER));
    let summary = onramp_summary(verify(&q, &answer(onramp_answer(&p))).unwrap());
    let psbt = summary.psbt.unwrap();
    assert_eq!(psbt.inputs[0].address, LEGACY_SENDER);
    assert!(psbt.vsize_estimate.is_some());

    let hex = p.psbt_hex.clone().unwrap();
    let forged = tamper(&hex, |psbt| {
        let previous = psbt.inputs[0].non_witness_utxo.as_mut().unwrap();
        previous.output[0].value = Amount::from_sat(AMOUNT + fee_sats() + change_sats() + 1);
    });
    assert!(matches!(
        refused(&q, &with_psbt(&p, forged)),
        VerifyError::PrevoutMismatch { input_index: 0, .. }
    ));
}

#[test]
fn verify_onramp_without_sender_is_a_manual_payment() {
    let p = payload(None);
    let verified = verify(&onramp_quote(AMOUNT, None), &answer(onramp_answer(&p))).unwrap();
    assert_eq!(
        verified.sentence,
        format!(
            "Send exactly 0.00250000 BTC to {} from your own wallet, in a transaction that also has an OP_RETURN \
             output carrying {}.",
            p.address, p.op_return_data
        )
    );
    let summary = onramp_summary(verified);
    assert!(summary.psbt.is_none());

    // Without OP_RETURN data there is nothing to carry.
    let mut value = onramp_answer(&p);
    value["onramp"]
        .as_object_mut()
        .unwrap()
        .remove("op_return_data");
    let summary = onramp_summary(verify(&onramp_quote(AMOUNT, None), &answer(value)).unwrap());
    assert_eq!(summary.op_return_hex, None);
}

#[test]
fn verify_onramp_psbt_presence_must_follow_the_sender() {
    let (q, p, _) = genuine();
    let without = payload(None);
    assert_eq!(
        refused(&q, &answer(onramp_answer(&without))),
        VerifyError::MissingPsbt {
            sender: wallet().address(Network::Bitcoin)
        }
    );
    assert_eq!(
        refused(&onramp_quote(AMOUNT, None), &answer(onramp_answer(&p))),
        VerifyError::UnexpectedPsbt
    );
    let testnet_sender = wallet().address(Network::Testnet);
    assert!(matches!(
        refused(
            &onramp_quote(AMOUNT, Some(&testnet_sender)),
            &answer(onramp_answer(&p))
        ),
        VerifyError::SenderInvalid { .. }
    ));
}

#[test]
fn verify_onramp_amount_one_sat_short_or_over_is_refused() {
    let (q, p, hex) = genuine();
    for (paid, change) in [
        (AMOUNT - 1, change_sats() + 1),
        (AMOUNT + 1, change_sats() - 1),
    ] {
        let forged = tamper(&hex, |psbt| {
            psbt.unsigned_tx.output[0].value = Amount::from_sat(paid);
            psbt.unsigned_tx.output[2].value = Amount::from_sat(change);
        });
        let err = refused(&q, &with_psbt(&p, forged));
        assert_eq!(
            err,
            VerifyError::WrongDepositAmount {
                subject: TxSubject::Gateway,
                paid_sats: paid,
                quoted_sats: AMOUNT
            }
        );
        if paid < AMOUNT {
            assert_eq!(
                err.to_string(),
                "The gateway's transaction pays 0.00249999 BTC to the deposit address, but the quote says \
                 0.00250000 BTC. Do not sign it; ask for a new quote."
            );
        }
    }
    // The quote's own amount must be readable.
    let sender = wallet().address(Network::Bitcoin);
    let mut raw = onramp_quote(AMOUNT, Some(&sender)).into_raw();
    raw["onramp"]["inputAmount"]["amount"] = json!("2.5");
    assert!(matches!(
        refused(&quote(raw), &answer(onramp_answer(&p))),
        VerifyError::QuoteUnreadable {
            field: "inputAmount.amount",
            ..
        }
    ));
}

#[test]
fn verify_onramp_another_deposit_address_is_refused() {
    let (q, p, hex) = genuine();
    // The answer names another address than the PSBT pays.
    let mut value = onramp_answer(&p);
    value["onramp"]["address"] = json!(BTC_ADDR);
    assert_eq!(
        refused(&q, &answer(value)),
        VerifyError::NoDepositOutput {
            subject: TxSubject::Gateway,
            address: BTC_ADDR.into()
        }
    );
    // The PSBT pays someone else instead of the deposit address.
    let forged = tamper(&hex, |psbt| {
        psbt.unsigned_tx.output[0].script_pubkey = stranger().script_pubkey();
    });
    assert!(matches!(
        refused(&q, &with_psbt(&p, forged)),
        VerifyError::NoDepositOutput { .. }
    ));
    // The deposit address of another network.
    let mut value = onramp_answer(&p);
    value["onramp"]["address"] = json!("tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx");
    let err = refused(&q, &answer(value));
    assert!(
        matches!(err, VerifyError::DepositAddressInvalid { .. }),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "The gateway's deposit address \"tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx\" is not a valid Bitcoin address \
         here: This is a testnet or signet address; the gateway needs a mainnet address. Do not pay it; ask for a new \
         quote."
    );
    // The deposit paid in two outputs.
    let forged = tamper(&hex, |psbt| {
        let extra = psbt.unsigned_tx.output[0].clone();
        psbt.unsigned_tx.output.push(extra);
        psbt.outputs.push(Default::default());
    });
    assert!(matches!(
        refused(&q, &with_psbt(&p, forged)),
        VerifyError::DepositPaidInSeveralOutputs { count: 2, .. }
    ));
}

#[test]
fn verify_onramp_op_return_changed_or_missing_is_refused() {
    let (q, p, hex) = genuine();
    // The answer's OP_RETURN data differs from what the PSBT carries.
    let mut value = onramp_answer(&p);
    let other = "00".repeat(32);
    value["onramp"]["op_return_data"] = json!(other);
    assert_eq!(
        refused(&q, &answer(value)),
        VerifyError::OpReturnMismatch {
            subject: TxSubject::Gateway,
            expected: other,
            found: p.op_return_data.clone()
        }
    );
    // The PSBT carries other data.
    let forged = tamper(&hex, |psbt| {
        psbt.unsigned_tx.output[1].script_pubkey = ScriptBuf::new_op_return([9u8; 32]);
    });
    assert!(matches!(
        refused(&q, &with_psbt(&p, forged)),
        VerifyError::OpReturnMismatch { .. }
    ));
    // The PSBT has no OP_RETURN.
    let forged = tamper(&hex, |psbt| {
        psbt.unsigned_tx.output.remove(1);
        psbt.outputs.remove(1);
    });
    assert_eq!(
        refused(&q, &with_psbt(&p, forged)),
        VerifyError::OpReturnMissing {
            subject: TxSubject::Gateway,
            expected: p.op_return_data.clone()
        }
    );
    // Two OP_RETURNs; one that burns money.
    let forged = tamper(&hex, |psbt| {
        let extra = psbt.unsigned_tx.output[1].clone();
        psbt.unsigned_tx.output.push(extra);
        psbt.outputs.push(Default::default());
    });
    assert!(matches!(
        refused(&q, &with_psbt(&p, forged)),
        VerifyError::SeveralOpReturns { count: 2, .. }
    ));
    let forged = tamper(&hex, |psbt| {
        psbt.unsigned_tx.output[1].value = Amount::from_sat(500);
        psbt.unsigned_tx.output[2].value = Amount::from_sat(change_sats() - 500);
    });
    assert!(matches!(
        refused(&q, &with_psbt(&p, forged)),
        VerifyError::OpReturnBurns { sats: 500, .. }
    ));
    // Data too long for an OP_RETURN, or not hex.
    for bad in ["ab".repeat(81), "xyz".to_owned()] {
        let mut value = onramp_answer(&p);
        value["onramp"]["op_return_data"] = json!(bad);
        assert!(matches!(
            refused(&q, &answer(value)),
            VerifyError::OpReturnDataInvalid { .. }
        ));
    }
}

#[test]
fn verify_onramp_output_to_a_stranger_is_refused() {
    let (q, p, hex) = genuine();
    let forged = tamper(&hex, |psbt| {
        psbt.unsigned_tx.output[2].value = Amount::from_sat(change_sats() - 5_000);
        psbt.unsigned_tx.output.push(TxOut {
            value: Amount::from_sat(5_000),
            script_pubkey: stranger().script_pubkey(),
        });
        psbt.outputs.push(Default::default());
    });
    assert_eq!(
        refused(&q, &with_psbt(&p, forged)),
        VerifyError::PaysStranger {
            output_index: 3,
            recipient: stranger().address(Network::Bitcoin),
            value_sats: 5_000
        }
    );
    // The change itself sent elsewhere.
    let forged = tamper(&hex, |psbt| {
        psbt.unsigned_tx.output[2].script_pubkey = stranger().script_pubkey();
    });
    assert!(matches!(
        refused(&q, &with_psbt(&p, forged)),
        VerifyError::PaysStranger {
            output_index: 2,
            ..
        }
    ));
}

#[test]
fn verify_onramp_inputs_must_be_the_senders_and_known() {
    let (q, p, hex) = genuine();
    let forged = tamper(&hex, |psbt| {
        psbt.inputs[0].witness_utxo.as_mut().unwrap().script_pubkey = stranger().script_pubkey();
    });
    let err = refused(&q, &with_psbt(&p, forged));
    assert!(
        matches!(&err, VerifyError::InputNotSender { input_index: 0, owner, .. }
            if *owner == stranger().address(Network::Bitcoin)),
        "{err:?}"
    );
    let forged = tamper(&hex, |psbt| psbt.inputs[0].witness_utxo = None);
    let err = refused(&q, &with_psbt(&p, forged));
    assert!(matches!(
        err,
        VerifyError::UnknownPrevout { input_index: 0, .. }
    ));
    assert!(
        err.to_string().contains("cannot tell what this spends"),
        "{err}"
    );
    let forged = tamper(&hex, |psbt| {
        psbt.inputs[0].sighash_type = Some(PsbtSighashType::from(EcdsaSighashType::None));
    });
    assert!(matches!(
        refused(&q, &with_psbt(&p, forged)),
        VerifyError::UnsafeSighash { input_index: 0, .. }
    ));
    // SIGHASH_ALL spelled out is fine.
    let explicit = tamper(&hex, |psbt| {
        psbt.inputs[0].sighash_type = Some(PsbtSighashType::from(EcdsaSighashType::All));
    });
    verify(&q, &with_psbt(&p, explicit)).unwrap();
}

#[test]
fn verify_onramp_absurd_or_negative_fee_is_refused() {
    let (q, p, hex) = genuine();
    let forged = tamper(&hex, |psbt| {
        psbt.inputs[0].witness_utxo.as_mut().unwrap().value =
            Amount::from_sat(AMOUNT + fee_sats() + change_sats() + 100_000);
    });
    let err = refused(&q, &with_psbt(&p, forged.clone()));
    assert!(
        matches!(err, VerifyError::FeeRateTooHigh { fee_sats: f, ceiling: DEFAULT_MAX_FEE_RATE_SAT_VB, .. }
            if f == fee_sats() + 100_000),
        "{err:?}"
    );
    // Without a rate ceiling to speak of, the share of the amount still caps the fee.
    let mut loose = VerifyPolicy::strict(MAINNET);
    loose.max_fee_rate_sat_vb = u64::MAX;
    assert_eq!(
        verify_order_with(&q, &with_psbt(&p, forged), &loose).unwrap_err(),
        VerifyError::AbsurdFee {
            fee_sats: fee_sats() + 100_000,
            cap_sats: FEE_CAP_FLOOR_SATS
        }
    );
    // The share of the amount the fee takes is said; above 2 % it must be accepted in numbers.
    let genuine = onramp_summary(verify(&q, &with_psbt(&p, hex.clone())).unwrap());
    let share = genuine.psbt.as_ref().unwrap().fee_share_bps;
    assert_eq!(u64::from(share), fee_sats() * 10_000 / AMOUNT);
    assert!(!genuine.psbt.unwrap().fee_needs_confirmation);
    let costly = tamper(&hex, |psbt| {
        let change = psbt.unsigned_tx.output[2].value.to_sat();
        psbt.unsigned_tx.output[2].value = Amount::from_sat(change - AMOUNT * 3 / 100);
    });
    let summary = onramp_summary(verify_order_with(&q, &with_psbt(&p, costly), &loose).unwrap());
    assert!(summary.psbt.unwrap().fee_needs_confirmation);
    // On the Sandbox the ceiling is a few times its own fast rate: the genuine PSBT passes, a doubled fee does not.
    let sandbox = VerifyPolicy::sandbox(MAINNET);
    verify_order_with(&q, &with_psbt(&p, hex.clone()), &sandbox).unwrap();
    let greedy = tamper(&hex, |psbt| {
        let change = psbt.unsigned_tx.output[2].value.to_sat();
        psbt.unsigned_tx.output[2].value = Amount::from_sat(change - 3 * fee_sats());
    });
    assert!(matches!(
        verify_order_with(&q, &with_psbt(&p, greedy), &sandbox).unwrap_err(),
        VerifyError::FeeRateTooHigh { .. }
    ));
    let forged = tamper(&hex, |psbt| {
        psbt.inputs[0].witness_utxo.as_mut().unwrap().value = Amount::from_sat(AMOUNT);
    });
    assert!(matches!(
        refused(&q, &with_psbt(&p, forged)),
        VerifyError::FeeNegative { .. }
    ));
    assert_eq!(fee_cap_sats(AMOUNT), 50_000);
    assert_eq!(fee_cap_sats(10_000_000), 1_000_000);
    assert!(matches!(
        refused(&q, &with_psbt(&p, "zz".into())),
        VerifyError::PsbtUnreadable { .. }
    ));
}

#[test]
fn verify_check_signed_onramp_tx_accepts_the_signed_psbt_and_refuses_another() {
    let (q, p, hex) = genuine();
    let summary = onramp_summary(verify(&q, &answer(onramp_answer(&p))).unwrap());
    let signed = wallet().sign_psbt(&hex).unwrap();
    let txid = check_signed_onramp_tx(&summary, &format!(" {signed}\n")).unwrap();
    assert_eq!(txid, summary.psbt.as_ref().unwrap().unsigned_txid);

    // The wallet signed another transaction: one more sat of fee.
    let other = tamper(&hex, |psbt| {
        psbt.unsigned_tx.output[2].value = Amount::from_sat(change_sats() - 1);
    });
    let err = check_signed_onramp_tx(&summary, &wallet().sign_psbt(&other).unwrap()).unwrap_err();
    assert_eq!(
        err,
        VerifyError::SignedTxNotApproved {
            difference: format!(
                "output 2 pays {} BTC instead of {} BTC",
                btc(change_sats() - 1),
                btc(change_sats())
            )
        }
    );
    // ... or a replaced sequence number.
    let other = tamper(&hex, |psbt| {
        psbt.unsigned_tx.input[0].sequence = bitcoin::Sequence::MAX;
    });
    let err = check_signed_onramp_tx(&summary, &wallet().sign_psbt(&other).unwrap()).unwrap_err();
    assert!(
        matches!(err, VerifyError::SignedTxNotApproved { .. }),
        "{err:?}"
    );
    // ... or one paying less to the deposit address.
    let other = tamper(&hex, |psbt| {
        psbt.unsigned_tx.output[0].value = Amount::from_sat(AMOUNT - 1);
    });
    assert_eq!(
        check_signed_onramp_tx(&summary, &wallet().sign_psbt(&other).unwrap()).unwrap_err(),
        VerifyError::WrongDepositAmount {
            subject: TxSubject::Signed,
            paid_sats: AMOUNT - 1,
            quoted_sats: AMOUNT
        }
    );
    // The unsigned transaction, and garbage.
    let psbt = Psbt::deserialize(&Vec::<u8>::from_hex(&hex).unwrap()).unwrap();
    let unsigned = bitcoin::consensus::encode::serialize_hex(&psbt.unsigned_tx);
    assert_eq!(
        check_signed_onramp_tx(&summary, &unsigned).unwrap_err(),
        VerifyError::NotSigned { input_index: 0 }
    );
    let err = check_signed_onramp_tx(&summary, "00ff").unwrap_err();
    assert!(
        matches!(err, VerifyError::SignedTxUnreadable { .. }),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .starts_with("The signed transaction cannot be used. The raw transaction"),
        "{err}"
    );
}

#[test]
fn verify_check_signed_onramp_tx_of_a_manual_payment() {
    let p = payload(None);
    let summary =
        onramp_summary(verify(&onramp_quote(AMOUNT, None), &answer(onramp_answer(&p))).unwrap());
    // The user's own wallet paid: any coins, but exactly the amount with the OP_RETURN.
    let own = payload(Some(&wallet().address(Network::Bitcoin)));
    let own_psbt = own.psbt_hex.unwrap();
    check_signed_onramp_tx(&summary, &wallet().sign_psbt(&own_psbt).unwrap()).unwrap();
    let without_op_return = tamper(&own_psbt, |psbt| {
        psbt.unsigned_tx.output.remove(1);
        psbt.outputs.remove(1);
    });
    assert!(matches!(
        check_signed_onramp_tx(&summary, &wallet().sign_psbt(&without_op_return).unwrap()),
        Err(VerifyError::OpReturnMissing {
            subject: TxSubject::Signed,
            ..
        })
    ));
}

// ---------------------------------------------------------------- EVM

fn offramp_quote(src_chain: &str, token: &str, input: &str, tx_to: &str) -> Quote {
    let fee = |a: &str| amount(token, a, src_chain);
    quote(json!({"offramp": {
        "srcChain": src_chain,
        "tokenAddress": token,
        "inputAmount": amount(token, input, src_chain),
        "outputAmount": amount(NATIVE_TOKEN, "90000", "bitcoin"),
        "totalFeeUsd": "1.00",
        "feeBreakdown": {"solverFee": fee("1"), "inclusionFee": fee("1"), "protocolFee": fee("1"),
                         "affiliateFee": fee("0"), "fastestFeeRate": "5"},
        "recipient": BTC_ADDR,
        "slippage": 300,
        "txTo": tx_to,
        "ownerAddress": OWNER,
        "sender": EVM,
    }}))
}

#[allow(clippy::too_many_arguments)]
fn swap_quote(
    src_chain: &str,
    token: &str,
    input: &str,
    dst_chain: &str,
    dst_token: &str,
    recipient: &str,
    tx_to: &str,
    sender: Option<&str>,
) -> Quote {
    let mut q = json!({
        "srcChain": src_chain,
        "dstChain": dst_chain,
        "inputAmount": amount(token, input, src_chain),
        "outputAmount": amount(dst_token, "1", dst_chain),
        "fees": amount(token, "0", src_chain),
        "recipient": recipient,
        "slippage": 100,
        "txTo": tx_to,
        "ownerAddress": OWNER,
    });
    if let Some(sender) = sender {
        q["sender"] = json!(sender);
    }
    quote(json!({ "tokenSwap": q }))
}

fn tx_answer(route: &str, tx: Value) -> CreateOrderResponse {
    answer(json!({ route: {"order_id": ORDER, "tx": tx} }))
}

fn evm_offramp() -> (Quote, Value) {
    let contract = gateway_contract("bob");
    let call = offramp_call(
        ORDER,
        &contract,
        WBTC_BOB,
        U256::from(100_000u64),
        U256::from(90_000u64),
        BTC_ADDR,
    )
    .unwrap();
    let tx = json!({"type": "evm", "to": call.to, "data": call.data, "value": call.value, "chain": "bob"});
    (offramp_quote("bob", WBTC_BOB, "100000", &contract), tx)
}

fn evm_summary(verified: Verified) -> EvmCallSummary {
    match verified.payload {
        VerifiedPayload::Evm(summary) => summary,
        other => panic!("not an EVM call: {other:?}"),
    }
}

#[test]
fn verify_genuine_evm_offramp_passes_tagged_and_plain() {
    let (q, tx) = evm_offramp();
    let verified = verify(&q, &tx_answer("offramp", tx.clone())).unwrap();
    let summary = evm_summary(verified.clone());
    assert_eq!(summary.call.to, gateway_contract("bob"));
    assert_eq!(summary.call.value, "0");
    assert_eq!(summary.chain, "bob");
    let data_len = (tx["data"].as_str().unwrap().len() - 2) / 2;
    assert_eq!(summary.call.data_bytes as usize, data_len);
    assert_eq!(
        summary.call.selector.as_deref(),
        Some(&tx["data"].as_str().unwrap()[..10])
    );
    assert!(
        verified.sentence.starts_with(&format!(
            "Calls {} on bob, sending no native value, with {data_len} bytes of data (function 0x",
            gateway_contract("bob")
        )),
        "{}",
        verified.sentence
    );
    // V2: the same call without the tag; and the contract written in lower case.
    let mut plain = tx.clone();
    plain.as_object_mut().unwrap().remove("type");
    plain["to"] = json!(gateway_contract("bob").to_ascii_lowercase());
    verify(&q, &tx_answer("offramp", plain)).unwrap();
}

#[test]
fn verify_genuine_evm_token_swaps_pass_native_and_erc20() {
    let contract = gateway_contract("ethereum");
    let wei = U256::from(10_000_000_000_000_000u64);
    let call = swap_call(
        ORDER,
        &contract,
        NATIVE_TOKEN,
        wei,
        "bob",
        WBTC_BOB,
        EVM,
        U256::from(1u8),
    )
    .unwrap();
    let q = swap_quote(
        "ethereum",
        NATIVE_TOKEN,
        &wei.to_string(),
        "bob",
        WBTC_BOB,
        EVM,
        &contract,
        None,
    );
    let tx = json!({"type": "evm", "to": call.to, "data": call.data, "value": call.value, "chain": "ethereum"});
    let verified = verify(&q, &tx_answer("tokenSwap", tx.clone())).unwrap();
    assert!(
        verified.sentence.contains("sending 0.01 ETH,"),
        "{}",
        verified.sentence
    );
    let summary = evm_summary(verified);
    assert_eq!(summary.call.value, wei.to_string());
    assert_eq!(summary.call.value_text, "0.01 ETH");

    // Native: one wei more or less is refused.
    let mut more = tx.clone();
    more["value"] = json!((wei + U256::from(1u8)).to_string());
    let err = refused(&q, &tx_answer("tokenSwap", more));
    assert!(
        matches!(err, VerifyError::WrongNativeValue { .. }),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("but the quote says 0.01 ETH"),
        "{err}"
    );
    let mut hex_value = tx;
    hex_value["value"] = json!("0x2386f26fc10000");
    assert!(matches!(
        refused(&q, &tx_answer("tokenSwap", hex_value)),
        VerifyError::BadValue { .. }
    ));

    // ERC-20: no native value at all.
    let contract = gateway_contract("bob");
    let call = swap_call(
        ORDER,
        &contract,
        USDT_BOB,
        U256::from(5_000_000u64),
        "ethereum",
        USDT_ETH,
        EVM,
        U256::from(4_900_000u64),
    )
    .unwrap();
    let q = swap_quote(
        "bob", USDT_BOB, "5000000", "ethereum", USDT_ETH, EVM, &contract, None,
    );
    let tx = json!({"type": "evm", "to": call.to, "data": call.data, "value": call.value, "chain": "bob"});
    assert_eq!(
        evm_summary(verify(&q, &tx_answer("tokenSwap", tx.clone())).unwrap())
            .call
            .value,
        "0"
    );
    let mut with_value = tx;
    with_value["value"] = json!("1");
    assert_eq!(
        refused(&q, &tx_answer("tokenSwap", with_value)),
        VerifyError::UnquotedNativeValue {
            chain: "bob".into(),
            found: "1".into()
        }
    );
}

#[test]
fn verify_evm_tampering_is_refused() {
    let (q, tx) = evm_offramp();
    let mut other_to = tx.clone();
    other_to["to"] = json!(OWNER);
    assert_eq!(
        refused(&q, &tx_answer("offramp", other_to)),
        VerifyError::WrongContract {
            quoted: gateway_contract("bob"),
            found: OWNER.into()
        }
    );
    let mut bad_to = tx.clone();
    bad_to["to"] = json!("0x1234");
    assert!(matches!(
        refused(&q, &tx_answer("offramp", bad_to)),
        VerifyError::BadTxAddress { family: "EVM", .. }
    ));
    let mut other_chain = tx.clone();
    other_chain["chain"] = json!("base");
    assert_eq!(
        refused(&q, &tx_answer("offramp", other_chain)),
        VerifyError::WrongChain {
            quoted: "bob".into(),
            found: "base".into()
        }
    );
    let mut value = tx.clone();
    value["value"] = json!("100000");
    assert!(matches!(
        refused(&q, &tx_answer("offramp", value)),
        VerifyError::UnquotedNativeValue { .. }
    ));
    for data in ["0x", "abcd", "0xabc", "0xzz"] {
        let mut bad = tx.clone();
        bad["data"] = json!(data);
        assert!(
            matches!(
                refused(&q, &tx_answer("offramp", bad)),
                VerifyError::BadCalldata { .. }
            ),
            "{data}"
        );
    }
    // A Tron call for an EVM quote.
    let mut tron = tx.clone();
    tron["type"] = json!("tron");
    tron["feeLimit"] = json!("1");
    assert_eq!(
        refused(&q, &tx_answer("offramp", tron)),
        VerifyError::WrongTxKind {
            chain: "bob".into(),
            found: "a Tron call"
        }
    );
}

#[test]
fn verify_route_mismatch_is_refused() {
    let (q, tx) = evm_offramp();
    let err = refused(&q, &tx_answer("tokenSwap", tx));
    assert_eq!(
        err,
        VerifyError::RouteMismatch {
            quoted: RouteKind::Offramp,
            answered: RouteKind::TokenSwap
        }
    );
    assert_eq!(
        err.to_string(),
        "The gateway created a token swap order, but the quote you accepted is for an offramp (a token to Bitcoin). \
         Do not sign anything; ask for a new quote."
    );
    let (onramp, p, _) = genuine();
    assert!(matches!(
        refused(&q, &answer(onramp_answer(&p))),
        VerifyError::RouteMismatch {
            quoted: RouteKind::Offramp,
            answered: RouteKind::Onramp
        }
    ));
    let (_, tx) = evm_offramp();
    assert!(matches!(
        refused(&onramp, &tx_answer("offramp", tx)),
        VerifyError::RouteMismatch { .. }
    ));
}

#[test]
fn verify_v1_layer_zero_uses_the_quotes_own_tx() {
    let contract = gateway_contract("bob");
    let call = swap_call(
        ORDER,
        &contract,
        USDT_BOB,
        U256::from(5_000_000u64),
        "ethereum",
        USDT_ETH,
        EVM,
        U256::from(4_990_000u64),
    )
    .unwrap();
    let q = quote(json!({"layerZero": {
        "tx": {"to": contract, "data": "0x", "value": "0", "chain": "bob"},
        "fees": amount(USDT_BOB, "0", "bob"),
        "inputAmount": amount(USDT_BOB, "5000000", "bob"),
        "outputAmount": amount(USDT_ETH, "4990000", "ethereum"),
        "recipient": EVM,
    }}));
    let tx = json!({"to": call.to, "data": call.data, "value": call.value, "chain": "bob"});
    verify(&q, &tx_answer("layerZero", tx.clone())).unwrap();
    let mut other = tx;
    other["to"] = json!(OWNER);
    assert!(matches!(
        refused(&q, &tx_answer("layerZero", other)),
        VerifyError::WrongContract { .. }
    ));
}

// ---------------------------------------------------------------- Tron

fn tron_swap(token: &str, input: u64) -> (Quote, Value) {
    let contract = gateway_contract("tron");
    let call = swap_call(
        ORDER,
        &contract,
        token,
        U256::from(input),
        "bob",
        WBTC_BOB,
        EVM,
        U256::from(1u8),
    )
    .unwrap();
    let q = swap_quote(
        "tron",
        token,
        &input.to_string(),
        "bob",
        WBTC_BOB,
        EVM,
        &contract,
        None,
    );
    let tx = json!({"type": "tron", "to": call.to, "data": call.data, "value": call.value, "chain": "tron",
                    "feeLimit": TRON_FEE_LIMIT_SUN.to_string()});
    (q, tx)
}

#[test]
fn verify_genuine_tron_calls_pass() {
    let (q, tx) = tron_swap(NATIVE_TOKEN, 25_000_000);
    let verified = verify(&q, &tx_answer("tokenSwap", tx.clone())).unwrap();
    let VerifiedPayload::Family(FamilySummary::Tron(summary)) = &verified.payload else {
        panic!("not tron: {verified:?}")
    };
    assert_eq!(summary.call.to, gateway_contract("tron"));
    assert_eq!(summary.call.value, "25000000");
    assert_eq!(summary.call.value_text, "25 TRX");
    assert_eq!(summary.fee_limit_text, "100 TRX");
    assert!(
        verified
            .sentence
            .contains("; it may burn up to 100 TRX in fees. Decoded as swapCrossChain"),
        "{}",
        verified.sentence
    );
    // The 0x41 hex form of the same contract.
    let body = bitcoin::base58::decode_check(&gateway_contract("tron")).unwrap();
    for form in [
        body.to_lower_hex_string(),
        format!("0x{}", body.to_lower_hex_string()),
    ] {
        let mut hex_to = tx.clone();
        hex_to["to"] = json!(form);
        let verified = verify(&q, &tx_answer("tokenSwap", hex_to)).unwrap();
        // Summarized as Tron writes an account, whichever form the gateway sent.
        assert!(
            matches!(&verified.payload, VerifiedPayload::Family(FamilySummary::Tron(s))
                if s.call.to == gateway_contract("tron")),
            "{verified:?}"
        );
    }

    let (q, tx) = tron_swap(USDT_TRON, 5_000_000);
    let verified = verify(&q, &tx_answer("tokenSwap", tx)).unwrap();
    assert!(
        matches!(&verified.payload, VerifiedPayload::Family(FamilySummary::Tron(s)) if s.call.value == "0"),
        "{verified:?}"
    );
}

#[test]
fn verify_tron_tampering_is_refused() {
    let (q, tx) = tron_swap(NATIVE_TOKEN, 25_000_000);
    let mut limit = tx.clone();
    limit["feeLimit"] = json!((TRON_FEE_LIMIT_CAP_SUN + 1).to_string());
    let err = refused(&q, &tx_answer("tokenSwap", limit));
    assert_eq!(
        err,
        VerifyError::Family(FamilyRefusal::Tron(TronRefusal::FeeLimitTooHigh {
            fee_limit_sun: "300000001".into(),
            cap_sun: TRON_FEE_LIMIT_CAP_SUN
        }))
    );
    assert!(
        err.to_string()
            .contains("could burn up to 300.000001 TRX in fees"),
        "{err}"
    );
    let mut at_cap = tx.clone();
    at_cap["feeLimit"] = json!(TRON_FEE_LIMIT_CAP_SUN.to_string());
    verify(&q, &tx_answer("tokenSwap", at_cap)).unwrap();
    let mut not_number = tx.clone();
    not_number["feeLimit"] = json!("100 TRX");
    assert!(matches!(
        refused(&q, &tx_answer("tokenSwap", not_number)),
        VerifyError::Family(FamilyRefusal::Tron(TronRefusal::FeeLimitInvalid { .. }))
    ));
    let mut other_to = tx.clone();
    other_to["to"] = json!(USDT_TRON);
    assert!(matches!(
        refused(&q, &tx_answer("tokenSwap", other_to)),
        VerifyError::WrongContract { .. }
    ));
    let mut value = tx.clone();
    value["value"] = json!("24999999");
    assert!(matches!(
        refused(&q, &tx_answer("tokenSwap", value)),
        VerifyError::WrongNativeValue { .. }
    ));
    // An EVM call for a Tron quote.
    let mut evm = tx;
    evm["type"] = json!("evm");
    assert!(matches!(
        refused(&q, &tx_answer("tokenSwap", evm)),
        VerifyError::WrongTxKind { .. }
    ));
}

/// A 100,000-character Base58 "address" where a Tron quote or call has one (its `txTo`, the call's `to`, the source
/// token) is refused with the usual sentence, which quotes it clipped. Each is measured before it is decoded
/// (`tron::read_account`); decoding one would take seconds, several times per answer.
#[test]
fn a_huge_tron_address_anywhere_is_refused_unread_with_a_short_sentence() {
    let huge: String = gateway_contract("tron")
        .chars()
        .cycle()
        .take(100_000)
        .collect();
    assert_eq!(
        gateway_client::chains::tron::read_account(&huge),
        Err(gateway_client::chains::tron::AccountError::WrongLength { chars: 100_000 }),
        "measured, not decoded"
    );
    let (q, tx) = tron_swap(USDT_TRON, 5_000_000);
    let short = |err: &VerifyError| {
        let sentence = err.to_string();
        assert!(
            sentence.contains("… (100000 characters in all)"),
            "{sentence}"
        );
        assert!(sentence.len() < 400, "{} characters", sentence.len());
    };

    // The call's `to`.
    let mut to = tx.clone();
    to["to"] = json!(huge);
    let err = refused(&q, &tx_answer("tokenSwap", to));
    assert!(
        matches!(err, VerifyError::BadTxAddress { family: "Tron", .. }),
        "{err:?}"
    );
    short(&err);

    // The quote's `txTo`, then its source token.
    let contract = gateway_contract("tron");
    let hostile = |token: &str, tx_to: &str| {
        swap_quote("tron", token, "5000000", "bob", WBTC_BOB, EVM, tx_to, None)
    };
    let err = refused(
        &hostile(USDT_TRON, &huge),
        &tx_answer("tokenSwap", tx.clone()),
    );
    assert!(
        matches!(err, VerifyError::QuoteUnreadable { field: "txTo", .. }),
        "{err:?}"
    );
    short(&err);
    let err = refused(&hostile(&huge, &contract), &tx_answer("tokenSwap", tx));
    assert!(
        matches!(
            err,
            VerifyError::QuoteUnreadable {
                field: "inputAmount.address",
                ..
            }
        ),
        "{err:?}"
    );
    short(&err);
}

// ---------------------------------------------------------------- Solana

fn solana_swap(sender: Option<&str>) -> (Quote, String) {
    let program = gateway_contract("solana");
    let b64 = solana_tx(
        ORDER,
        &program,
        SOL_SENDER,
        USDC_SOL,
        U256::from(5_000_000u64),
        "bob",
        WBTC_BOB,
        EVM,
        U256::from(1u8),
        None,
    )
    .unwrap();
    let q = swap_quote(
        "solana", USDC_SOL, "5000000", "bob", WBTC_BOB, EVM, &program, sender,
    );
    (q, b64)
}

fn solana_answer(b64: &str) -> CreateOrderResponse {
    tx_answer(
        "tokenSwap",
        json!({"type": "solana", "chainId": 792703809u64, "transaction": b64}),
    )
}

fn edit_solana(b64: &str, change: impl FnOnce(&mut VersionedTransaction)) -> String {
    use base64::Engine as _;
    let engine = base64::engine::general_purpose::STANDARD;
    let mut tx: VersionedTransaction = super::solana::wire_options()
        .deserialize(&engine.decode(b64).unwrap())
        .unwrap();
    change(&mut tx);
    engine.encode(super::solana::wire_options().serialize(&tx).unwrap())
}

#[test]
fn verify_genuine_solana_transaction_passes() {
    let (q, b64) = solana_swap(Some(SOL_SENDER));
    let verified = verify(&q, &solana_answer(&b64)).unwrap();
    let VerifiedPayload::Family(FamilySummary::Solana(summary)) = &verified.payload else {
        panic!("not solana: {verified:?}")
    };
    assert_eq!(summary.fee_payer, SOL_SENDER);
    // The deposit (an SPL Token transfer to the gateway's vault), then the gateway's instruction.
    assert_eq!(
        summary.programs,
        [
            "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA".to_owned(),
            gateway_contract("solana")
        ]
    );
    assert_eq!(summary.instruction_count, 2);
    assert_eq!(summary.version, "v0");
    assert_eq!(
        verified.sentence,
        format!(
            "A Solana v0 transaction paid and signed by {SOL_SENDER} alone, calling \
             TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA, {} in 2 instructions.",
            gateway_contract("solana")
        )
    );
}

#[test]
fn verify_solana_tampering_is_refused() {
    let (q, b64) = solana_swap(Some(SOL_SENDER));
    // Another fee payer than the quote's sender.
    let (other_sender, _) = solana_swap(Some(USDC_SOL));
    assert_eq!(
        refused(&other_sender, &solana_answer(&b64)),
        VerifyError::Family(FamilyRefusal::Solana(SolanaRefusal::WrongFeePayer {
            fee_payer: SOL_SENDER.into(),
            sender: USDC_SOL.into()
        }))
    );
    let (no_sender, _) = solana_swap(None);
    assert_eq!(
        refused(&no_sender, &solana_answer(&b64)),
        VerifyError::Family(FamilyRefusal::Solana(SolanaRefusal::NoSender))
    );
    // A second signer.
    let two = edit_solana(&b64, |tx| {
        match &mut tx.message {
            VersionedMessage::V0(message) => message.header.num_required_signatures = 2,
            other => panic!("not v0: {other:?}"),
        }
        tx.signatures.extend_from_within(..1);
    });
    assert!(matches!(
        refused(&q, &solana_answer(&two)),
        VerifyError::Family(FamilyRefusal::Solana(SolanaRefusal::ExtraSigner { required: 2, ref signers })) if signers.len() == 2 && signers[0] == SOL_SENDER
    ));
    // A signature already in place (the first slot follows the one-byte count).
    let presigned = {
        use base64::Engine as _;
        let engine = base64::engine::general_purpose::STANDARD;
        let mut bytes = engine.decode(&b64).unwrap();
        assert_eq!(bytes[0], 1);
        bytes[1..65].fill(7);
        engine.encode(bytes)
    };
    assert_eq!(
        refused(&q, &solana_answer(&presigned)),
        VerifyError::Family(FamilyRefusal::Solana(SolanaRefusal::PreSigned { slot: 0 }))
    );
    // The quote's program is not called.
    let other_program = swap_quote(
        "solana",
        USDC_SOL,
        "5000000",
        "bob",
        WBTC_BOB,
        EVM,
        USDC_SOL,
        Some(SOL_SENDER),
    );
    assert_eq!(
        refused(&other_program, &solana_answer(&b64)),
        VerifyError::Family(FamilyRefusal::Solana(SolanaRefusal::ProgramNotQuoted {
            program: USDC_SOL.into(),
            called: vec![
                "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA".to_owned(),
                gateway_contract("solana")
            ]
        }))
    );
    // Not a transaction; a Solana transaction for an EVM quote.
    assert!(matches!(
        refused(&q, &solana_answer("AQAAAA==")),
        VerifyError::Family(FamilyRefusal::Solana(SolanaRefusal::Unreadable { .. }))
    ));
    let (evm_quote, _) = evm_offramp();
    assert!(matches!(
        refused(
            &evm_quote,
            &tx_answer(
                "offramp",
                json!({"type": "solana", "chainId": 1, "transaction": b64})
            )
        ),
        VerifyError::WrongTxKind { .. }
    ));
}

#[test]
fn verify_every_message_is_a_sentence_with_what_to_do() {
    let s = |text: &str| text.to_owned();
    let errors = [
        VerifyError::RouteMismatch {
            quoted: RouteKind::Onramp,
            answered: RouteKind::Offramp,
        },
        VerifyError::QuoteUnreadable {
            field: "txTo",
            value: s("x"),
        },
        VerifyError::DepositAddressInvalid {
            address: s("x"),
            reason: s("It is not an address."),
        },
        VerifyError::SenderInvalid {
            address: s("x"),
            reason: s("It is not an address."),
        },
        VerifyError::OpReturnDataInvalid {
            data: s("xyz"),
            reason: s("it is not hexadecimal bytes"),
        },
        VerifyError::MissingPsbt {
            sender: s(BTC_ADDR),
        },
        VerifyError::UnexpectedPsbt,
        VerifyError::PsbtUnreadable { reason: s("bad") },
        VerifyError::NoDepositOutput {
            subject: TxSubject::Gateway,
            address: s(BTC_ADDR),
        },
        VerifyError::DepositPaidInSeveralOutputs {
            subject: TxSubject::Signed,
            address: s(BTC_ADDR),
            count: 2,
        },
        VerifyError::WrongDepositAmount {
            subject: TxSubject::Signed,
            paid_sats: 1,
            quoted_sats: 2,
        },
        VerifyError::OpReturnMissing {
            subject: TxSubject::Gateway,
            expected: s("ab"),
        },
        VerifyError::OpReturnMismatch {
            subject: TxSubject::Gateway,
            expected: s("ab"),
            found: s("cd"),
        },
        VerifyError::SeveralOpReturns {
            subject: TxSubject::Gateway,
            count: 2,
        },
        VerifyError::OpReturnBurns {
            subject: TxSubject::Gateway,
            sats: 5,
        },
        VerifyError::PaysStranger {
            output_index: 3,
            recipient: s(BTC_ADDR),
            value_sats: 5_000,
        },
        VerifyError::NoInputs,
        VerifyError::UnknownPrevout {
            input_index: 0,
            outpoint: s("aa:0"),
        },
        VerifyError::PrevoutMismatch {
            input_index: 0,
            outpoint: s("aa:0"),
        },
        VerifyError::InputNotSender {
            input_index: 0,
            outpoint: s("aa:0"),
            owner: s(BTC_ADDR),
            sender: s(LEGACY_SENDER),
        },
        VerifyError::UnsafeSighash {
            input_index: 0,
            sighash: s("SIGHASH_NONE"),
        },
        VerifyError::FeeNegative {
            inputs_sats: 1,
            outputs_sats: 2,
        },
        VerifyError::AbsurdFee {
            fee_sats: 60_000,
            cap_sats: 50_000,
        },
        VerifyError::FeeRateTooHigh {
            fee_sats: 60_000,
            vsize: 150,
            rate: 400,
            ceiling: 36,
        },
        VerifyError::TokenCallAsMain {
            function: "approve",
        },
        VerifyError::CallsTokenContract {
            contract: s(USDT_BOB),
            symbol: s("USDT"),
        },
        VerifyError::NotTheGatewayContract {
            found: s(EVM),
            expected: s(OWNER),
        },
        VerifyError::UndecodableCall {
            selector: s("0xdeadbeef"),
        },
        VerifyError::WrongFunction {
            function: "swapCrossChain",
            route: RouteKind::Offramp,
        },
        VerifyError::CallDiffers {
            what: "takes",
            found: s("10"),
            quoted: s("1"),
        },
        VerifyError::MinimumBelowQuote {
            found: s("1"),
            floor: s("2"),
        },
        VerifyError::Family(FamilyRefusal::Solana(
            SolanaRefusal::UnexpectedInstruction {
                what: s("a call of the program 1111"),
            },
        )),
        VerifyError::Family(FamilyRefusal::Solana(SolanaRefusal::LookupTables)),
        VerifyError::Family(FamilyRefusal::Solana(SolanaRefusal::InstructionDiffers {
            difference: s("its accounts differ"),
        })),
        VerifyError::Family(FamilyRefusal::Solana(SolanaRefusal::PriorityFeeTooHigh {
            lamports: 10,
            cap: 5,
        })),
        VerifyError::FeeNotConfirmed {
            fee_sats: 7_500,
            percent: s("3.00"),
        },
        VerifyError::LossNotConfirmed { percent: s("7.50") },
        VerifyError::SignedTxUnreadable {
            reason: s("It is not hex. Copy it again."),
        },
        VerifyError::NotSigned { input_index: 0 },
        VerifyError::SignedTxNotApproved {
            difference: s("it has 2 outputs instead of 3"),
        },
        VerifyError::WrongTxKind {
            chain: s("bob"),
            found: "a Solana transaction",
        },
        VerifyError::WrongChain {
            quoted: s("bob"),
            found: s("base"),
        },
        VerifyError::BadTxAddress {
            value: s("0x1"),
            family: "EVM",
        },
        VerifyError::WrongContract {
            quoted: s(EVM),
            found: s(OWNER),
        },
        VerifyError::BadValue { value: s("1.5") },
        VerifyError::WrongNativeValue {
            chain: s("bob"),
            found: s("2"),
            quoted: s("1"),
        },
        VerifyError::UnquotedNativeValue {
            chain: s("unknownchain"),
            found: s("2"),
        },
        VerifyError::BadCalldata {
            reason: s("it is empty"),
        },
        VerifyError::Family(FamilyRefusal::Tron(TronRefusal::FeeLimitInvalid {
            value: s("x"),
        })),
        VerifyError::Family(FamilyRefusal::Tron(TronRefusal::FeeLimitTooHigh {
            fee_limit_sun: s("2000000000"),
            cap_sun: TRON_FEE_LIMIT_CAP_SUN,
        })),
        VerifyError::Family(FamilyRefusal::Solana(SolanaRefusal::Unreadable {
            reason: s("bad"),
        })),
        VerifyError::Family(FamilyRefusal::Solana(SolanaRefusal::NoSender)),
        VerifyError::Family(FamilyRefusal::Solana(SolanaRefusal::WrongFeePayer {
            fee_payer: s(USDC_SOL),
            sender: s(SOL_SENDER),
        })),
        VerifyError::Family(FamilyRefusal::Solana(SolanaRefusal::ExtraSigner {
            required: 2,
            signers: vec![s(SOL_SENDER), s(USDC_SOL)],
        })),
        VerifyError::Family(FamilyRefusal::Solana(SolanaRefusal::PreSigned { slot: 0 })),
        VerifyError::Family(FamilyRefusal::Solana(SolanaRefusal::ProgramNotQuoted {
            program: s(USDC_SOL),
            called: vec![],
        })),
    ];
    for err in errors {
        let message = err.to_string();
        println!("{message}");
        assert!(message.ends_with('.'), "{message}");
        assert!(!message.contains(".."), "{message}");
        assert!(
            message.contains("Do not")
                || message.contains("Copy it again")
                || message.contains("Sign it in your wallet"),
            "{message}"
        );
    }
}

// ---------------------------------------------------------------- strict decoding (issue 15)

/// An instruction to add: its program, its accounts (key, writable) and its data.
type ExtraInstruction = (
    solana_pubkey::Pubkey,
    Vec<(solana_pubkey::Pubkey, bool)>,
    Vec<u8>,
);

/// The gateway instruction of [`solana_swap`]'s transaction.
fn usdc_swap_instruction() -> solana_instruction::Instruction {
    gateway_payload::solana::gateway_instruction(
        ORDER,
        &gateway_contract("solana"),
        SOL_SENDER,
        USDC_SOL,
        U256::from(5_000_000u64),
        "bob",
        WBTC_BOB,
        EVM,
        U256::from(1u8),
    )
    .unwrap()
}

/// The Solana transaction of [`solana_swap`] with `extra` instructions placed before the gateway's.
fn solana_with(extra: &[ExtraInstruction]) -> String {
    let gateway = usdc_swap_instruction();
    let mut instructions = Vec::new();
    for (program_id, accounts, data) in extra {
        let mut ix = gateway.clone();
        ix.program_id = *program_id;
        ix.accounts = accounts
            .iter()
            .map(|(key, writable)| {
                let mut meta = gateway.accounts[0].clone();
                meta.pubkey = *key;
                meta.is_signer = *key == gateway.accounts[0].pubkey;
                meta.is_writable = *writable;
                meta
            })
            .collect();
        ix.data = data.clone();
        instructions.push(ix);
    }
    instructions.push(gateway.clone());
    let payer = gateway.accounts[0].pubkey;
    let message = solana_message::v0::Message::try_compile(
        &payer,
        &instructions,
        &[],
        solana_message::Hash::new_from_array([9; 32]),
    )
    .unwrap();
    let tx = VersionedTransaction {
        signatures: vec![Default::default(); usize::from(message.header.num_required_signatures)],
        message: VersionedMessage::V0(message),
    };
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .encode(super::solana::wire_options().serialize(&tx).unwrap())
}

#[test]
fn verify_solana_allows_a_capped_compute_budget_and_the_orders_token_account_only() {
    let (q, _) = solana_swap(Some(SOL_SENDER));
    let budget = solana_pubkey::pubkey!("ComputeBudget111111111111111111111111111111");
    let limit = |units: u32| {
        (
            budget,
            vec![],
            [vec![2], units.to_le_bytes().to_vec()].concat(),
        )
    };
    let price = |micro: u64| {
        (
            budget,
            vec![],
            [vec![3], micro.to_le_bytes().to_vec()].concat(),
        )
    };
    verify(
        &q,
        &solana_answer(&solana_with(&[limit(200_000), price(1_000)])),
    )
    .unwrap();
    assert!(matches!(
        refused(
            &q,
            &solana_answer(&solana_with(&[limit(1_400_000), price(5_000_000)]))
        ),
        VerifyError::Family(FamilyRefusal::Solana(
            SolanaRefusal::PriorityFeeTooHigh { .. }
        ))
    ));
    assert!(matches!(
        refused(
            &q,
            &solana_answer(&solana_with(&[(budget, vec![], vec![1, 0, 0, 0, 0])]))
        ),
        VerifyError::Family(FamilyRefusal::Solana(
            SolanaRefusal::UnexpectedInstruction { .. }
        ))
    ));
    // Creating the sender's own token account for the mint, idempotently, is what a wallet expects.
    let gateway = usdc_swap_instruction();
    let ata_program = solana_pubkey::pubkey!("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");
    let system = solana_pubkey::pubkey!("11111111111111111111111111111111");
    let token_program = solana_pubkey::pubkey!("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
    let sender = gateway.accounts[0].pubkey;
    let sender_ata = gateway.accounts[1].pubkey;
    let mint = gateway.accounts[4].pubkey;
    let create = |ata: solana_pubkey::Pubkey, data: Vec<u8>| {
        (
            ata_program,
            vec![
                (sender, true),
                (ata, true),
                (sender, false),
                (mint, false),
                (system, false),
                (token_program, false),
            ],
            data,
        )
    };
    verify(
        &q,
        &solana_answer(&solana_with(&[create(sender_ata, vec![1])])),
    )
    .unwrap();
    let stranger = solana_pubkey::Pubkey::new_from_array([5; 32]);
    for bad in [create(stranger, vec![1]), create(sender_ata, vec![0])] {
        assert!(matches!(
            refused(&q, &solana_answer(&solana_with(&[bad]))),
            VerifyError::Family(FamilyRefusal::Solana(
                SolanaRefusal::UnexpectedInstruction { .. }
            ))
        ));
    }
}

/// The deposit before the gateway's instruction may be there once, and only as the quote calls for it: exactly the
/// quoted amount, from the sender's token account to the vault's, the sender signing.
#[test]
fn verify_solana_takes_one_exact_deposit_to_the_vault_only() {
    let (q, _) = solana_swap(Some(SOL_SENDER));
    let deposit = |amount: u64| {
        gateway_payload::solana::deposit_instruction(
            &gateway_contract("solana"),
            SOL_SENDER,
            USDC_SOL,
            U256::from(amount),
        )
        .unwrap()
    };
    let as_extra = |ix: solana_instruction::Instruction| -> ExtraInstruction {
        (
            ix.program_id,
            ix.accounts
                .iter()
                .map(|m| (m.pubkey, m.is_writable))
                .collect(),
            ix.data,
        )
    };
    // Without a deposit, with the exact one: both pass.
    verify(&q, &solana_answer(&solana_with(&[]))).unwrap();
    verify(
        &q,
        &solana_answer(&solana_with(&[as_extra(deposit(5_000_000))])),
    )
    .unwrap();
    // One lamport more, twice, or into a stranger's token account: refused.
    let mut to_stranger = deposit(5_000_000);
    to_stranger.accounts[1].pubkey = solana_pubkey::Pubkey::new_from_array([5; 32]);
    for bad in [
        vec![as_extra(deposit(5_000_001))],
        vec![as_extra(deposit(5_000_000)), as_extra(deposit(5_000_000))],
        vec![as_extra(to_stranger)],
    ] {
        assert!(
            matches!(
                refused(&q, &solana_answer(&solana_with(&bad))),
                VerifyError::Family(FamilyRefusal::Solana(
                    SolanaRefusal::UnexpectedInstruction { .. }
                ))
            ),
            "{bad:?}"
        );
    }
}

#[test]
fn verify_solana_instruction_must_be_the_quotes() {
    let (q, _) = solana_swap(Some(SOL_SENDER));
    // Another amount in the gateway's own instruction.
    let b64 = solana_tx(
        ORDER,
        &gateway_contract("solana"),
        SOL_SENDER,
        USDC_SOL,
        U256::from(50_000_000u64),
        "bob",
        WBTC_BOB,
        EVM,
        U256::from(1u8),
        None,
    )
    .unwrap();
    assert!(matches!(
        refused(&q, &solana_answer(&b64)),
        VerifyError::Family(FamilyRefusal::Solana(
            SolanaRefusal::InstructionDiffers { .. }
        ))
    ));
}

/// The EVM offramp call of 100,000 WBTC units on BOB to `contract`, paying at least `min_out` sats to `BTC_ADDR`.
fn wbtc_offramp_tx(contract: &str, min_out: u64) -> Value {
    let call = offramp_call(
        ORDER,
        contract,
        WBTC_BOB,
        U256::from(100_000u64),
        U256::from(min_out),
        BTC_ADDR,
    )
    .unwrap();
    json!({"type": "evm", "to": call.to, "data": call.data, "value": call.value, "chain": "bob"})
}

#[test]
fn verify_calls_to_a_known_token_or_an_unpinned_contract_are_refused() {
    // A quote whose txTo is itself the source token's contract.
    let tx = wbtc_offramp_tx(WBTC_BOB, 90_000);
    let q = offramp_quote("bob", WBTC_BOB, "100000", WBTC_BOB);
    assert!(matches!(
        refused(&q, &tx_answer("offramp", tx)),
        VerifyError::CallsTokenContract { ref symbol, .. } if symbol == "WBTC"
    ));
    // On the Sandbox, another contract than its own is refused even when the quote names it.
    let other = "0x1111111111111111111111111111111111111111";
    let tx = wbtc_offramp_tx(other, 90_000);
    let q = offramp_quote("bob", WBTC_BOB, "100000", other);
    verify(&q, &tx_answer("offramp", tx.clone())).unwrap();
    assert!(matches!(
        verify_order_with(
            &q,
            &tx_answer("offramp", tx),
            &VerifyPolicy::sandbox(MAINNET)
        )
        .unwrap_err(),
        VerifyError::NotTheGatewayContract { .. }
    ));
}

#[test]
fn verify_blind_signing_lets_an_undecodable_call_through_marked_not_checked() {
    let (q, mut tx) = evm_offramp();
    tx["data"] = json!("0xdeadbeef00");
    assert!(matches!(
        refused(&q, &tx_answer("offramp", tx.clone())),
        VerifyError::UndecodableCall { ref selector } if selector == "0xdeadbeef"
    ));
    let mut blind = decoding_only();
    blind.blind_signing = true;
    let verified = verify_order_with(&q, &tx_answer("offramp", tx), &blind).unwrap();
    let summary = evm_summary(verified.clone());
    assert_eq!(summary.call.decoded, None);
    assert_eq!(summary.call.raw_data.as_deref(), Some("0xdeadbeef00"));
    assert!(
        verified.sentence.contains("NOT CHECKED"),
        "{}",
        verified.sentence
    );
    // Blind signing never lets a token call through.
    let (q, mut tx) = evm_offramp();
    tx["data"] = json!(format!("0x095ea7b3{}", "00".repeat(64)));
    assert!(matches!(
        verify_order_with(&q, &tx_answer("offramp", tx), &blind).unwrap_err(),
        VerifyError::TokenCallAsMain {
            function: "approve"
        }
    ));
}

#[test]
fn verify_decoded_calls_name_what_they_move() {
    let (q, tx) = evm_offramp();
    let summary = evm_summary(verify(&q, &tx_answer("offramp", tx)).unwrap());
    let decoded = summary.call.decoded.unwrap();
    assert_eq!(decoded.function, "offrampToBitcoin");
    assert_eq!(decoded.amount, "100000");
    assert_eq!(decoded.recipient, BTC_ADDR);
    assert_eq!(decoded.token, WBTC_BOB);
    // A minimum below the quote's output less slippage (90000 − 3 %) is refused.
    let tx = wbtc_offramp_tx(&gateway_contract("bob"), 87_299);
    assert_eq!(
        refused(&q, &tx_answer("offramp", tx)),
        VerifyError::MinimumBelowQuote {
            found: "87299".into(),
            floor: "87300".into()
        }
    );
}

#[test]
fn verify_a_high_psbt_fee_must_be_accepted_in_sats_before_signing() {
    let (q, p, hex) = genuine();
    let mut loose = VerifyPolicy::strict(MAINNET);
    loose.max_fee_rate_sat_vb = u64::MAX;
    let genuine = verify_order_with(&q, &with_psbt(&p, hex.clone()), &loose).unwrap();
    assert_eq!(genuine.fee_confirmed(None), Ok(()));
    let costly = tamper(&hex, |psbt| {
        let change = psbt.unsigned_tx.output[2].value.to_sat();
        psbt.unsigned_tx.output[2].value = Amount::from_sat(change - AMOUNT * 3 / 100);
    });
    let verified = verify_order_with(&q, &with_psbt(&p, costly), &loose).unwrap();
    let fee = verified.onramp().unwrap().psbt.as_ref().unwrap().fee_sats;
    assert!(matches!(
        verified.fee_confirmed(None),
        Err(VerifyError::FeeNotConfirmed { fee_sats, .. }) if fee_sats == fee
    ));
    assert!(verified.fee_confirmed(Some(fee - 1)).is_err());
    assert_eq!(verified.fee_confirmed(Some(fee)), Ok(()));
}

// ---------------------------------------------------------------- the real service's entry contracts (issue 30)

/// The published entry contract of `chain` (`gateway_client::chains`).
fn published_entry(chain: &str) -> &'static str {
    gateway_client::chains::chain(chain)
        .and_then(|c| c.approval_spender)
        .unwrap()
}

/// Calldata the app cannot decode: the earlier Ethereum offramps' `swapAndCreateOfframpOrder` selector (public issue
/// threads of bob-collective/bob) with arguments of the gateway's own.
fn undecodable_data() -> String {
    format!("0xa993cd99{}", "00".repeat(160))
}

/// An offramp from BOB whose quote and call name `to`, with calldata the app cannot decode.
fn offramp_to(to: &str) -> (Quote, Value) {
    let q = offramp_quote("bob", WBTC_BOB, "100000", to);
    let tx =
        json!({"type": "evm", "to": to, "data": undecodable_data(), "value": "0", "chain": "bob"});
    (q, tx)
}

#[test]
fn off_the_sandbox_a_call_must_go_to_its_chains_published_entry_even_blind() {
    let strict = VerifyPolicy::strict(MAINNET);
    assert_eq!(strict.contracts, GatewayContracts::Published);
    let mut blind = strict;
    blind.blind_signing = true;

    // The published entry on BOB: past the pin, then the undecodable call is refused, or let through blind.
    for spelling in [
        published_entry("bob").to_owned(),
        published_entry("bob")
            .to_ascii_uppercase()
            .replace("0X", "0x"),
    ] {
        let (q, tx) = offramp_to(&spelling);
        assert!(matches!(
            verify_order_with(&q, &tx_answer("offramp", tx.clone()), &strict).unwrap_err(),
            VerifyError::UndecodableCall { ref selector } if selector == "0xa993cd99"
        ));
        let verified = verify_order_with(&q, &tx_answer("offramp", tx), &blind).unwrap();
        assert!(
            verified.sentence.contains("NOT CHECKED"),
            "{}",
            verified.sentence
        );
    }

    // Anywhere else — the Sandbox's contract, another chain's entry — is refused before the calldata, blind or not.
    for elsewhere in [
        gateway_contract("bob"),
        published_entry("ethereum").to_owned(),
    ] {
        let (q, tx) = offramp_to(&elsewhere);
        for policy in [&strict, &blind] {
            let err = verify_order_with(&q, &tx_answer("offramp", tx.clone()), policy).unwrap_err();
            assert!(
                matches!(&err, VerifyError::NotTheGatewayContract { found, expected }
                    if found.eq_ignore_ascii_case(&elsewhere) && expected == published_entry("bob")),
                "{err:?}"
            );
            assert!(err.to_string().contains("Do not sign it"), "{err}");
        }
    }
}

#[test]
fn off_the_sandbox_a_chain_without_a_published_entry_is_refused() {
    let mut blind = VerifyPolicy::strict(MAINNET);
    blind.blind_signing = true;
    let to = "0x4444444444444444444444444444444444444444";
    let q = offramp_quote(
        "optimism",
        "0x68f180fcCe6836688e9084f035309E29Bf0A2095",
        "100000",
        to,
    );
    let tx =
        json!({"type": "evm", "to": to, "data": "0x2213bc0b", "value": "0", "chain": "optimism"});
    let err = verify_order_with(&q, &tx_answer("offramp", tx), &blind).unwrap_err();
    assert_eq!(
        err,
        VerifyError::NoPublishedEntry {
            chain: "optimism".into(),
            found: "0x4444444444444444444444444444444444444444".into()
        }
    );
    assert!(
        err.to_string()
            .ends_with("Do not sign it; choose a route from another chain."),
        "{err}"
    );
}

#[test]
fn off_the_sandbox_a_tron_call_to_the_published_entry_passes_in_the_services_hex() {
    let entry = published_entry("tron");
    let hex = "0x4107a39ae4c49dee86e892450b20881f32cd5d500d";
    let q = swap_quote(
        "tron", USDT_TRON, "1000000", "bob", WBTC_BOB, EVM, entry, None,
    );
    let tx = |to: &str| {
        json!({"type": "tron", "to": to, "data": undecodable_data(), "value": "0",
               "chain": "tron", "feeLimit": TRON_FEE_LIMIT_SUN.to_string()})
    };
    let mut blind = VerifyPolicy::strict(MAINNET);
    blind.blind_signing = true;
    for to in [entry, hex, &hex[2..]] {
        let verified = verify_order_with(&q, &tx_answer("tokenSwap", tx(to)), &blind)
            .unwrap_or_else(|e| panic!("{to}: {e}"));
        let VerifiedPayload::Family(FamilySummary::Tron(summary)) = &verified.payload else {
            panic!("not tron")
        };
        assert_eq!(summary.call.to, entry, "shown in Base58");
    }
    let err = verify_order_with(
        &q,
        &tx_answer("tokenSwap", tx(&gateway_contract("tron"))),
        &blind,
    )
    .unwrap_err();
    assert!(matches!(err, VerifyError::WrongContract { .. }), "{err:?}");
    let elsewhere = swap_quote(
        "tron",
        USDT_TRON,
        "1000000",
        "bob",
        WBTC_BOB,
        EVM,
        &gateway_contract("tron"),
        None,
    );
    let err = verify_order_with(
        &elsewhere,
        &tx_answer("tokenSwap", tx(&gateway_contract("tron"))),
        &blind,
    )
    .unwrap_err();
    assert!(
        matches!(&err, VerifyError::NotTheGatewayContract { expected, .. } if expected == entry),
        "{err:?}"
    );
}

// ---------------------------------------------------------------- the entry call, AllowanceHolder's exec (issue 30)

/// `exec(operator, token, amount, target, data)` calldata, the gateway's inner call `inner`.
fn exec_data(token: &str, amount: u64, target: &str, inner: &[u8]) -> String {
    use alloy_sol_types::SolCall;
    let target: alloy_primitives::Address = target.parse().unwrap();
    let call = calldata::IAllowanceHolder::execCall {
        operator: target,
        token: token.parse().unwrap(),
        amount: U256::from(amount),
        target,
        data: inner.to_vec().into(),
    };
    format!("0x{}", alloy_primitives::hex::encode(call.abi_encode()))
}

/// The gateway's own contract an entry call names (not public: any address that is no token).
const INNER_TARGET: &str = "0x7777777777777777777777777777777777777777";

fn blind_strict() -> VerifyPolicy {
    let mut policy = VerifyPolicy::strict(MAINNET);
    policy.blind_signing = true;
    policy
}

#[test]
fn the_entry_calls_selector_is_0x_settlers() {
    use alloy_sol_types::SolCall;
    assert_eq!(
        calldata::IAllowanceHolder::execCall::SELECTOR,
        EXEC_SELECTOR
    );
    assert_eq!(EXEC_SELECTOR, [0x22, 0x13, 0xbc, 0x0b]);
}

#[test]
fn an_entry_call_for_the_quotes_token_and_amount_is_decoded_and_its_inner_call_marked_not_decoded()
{
    let entry = published_entry("bob");
    let q = offramp_quote("bob", WBTC_BOB, "100000", entry);
    let tx = |data: String| json!({"type": "evm", "to": entry, "data": data, "value": "0", "chain": "bob"});
    let genuine = exec_data(
        WBTC_BOB,
        100_000,
        INNER_TARGET,
        &[0xa9, 0x93, 0xcd, 0x99, 1, 2, 3],
    );

    let verified = verify_order_with(
        &q,
        &tx_answer("offramp", tx(genuine.clone())),
        &blind_strict(),
    )
    .unwrap();
    let summary = evm_summary(verified.clone());
    assert_eq!(
        summary.call.decoded, None,
        "the gateway's own call is not decoded"
    );
    let shown = summary.call.entry.unwrap();
    assert_eq!(shown.function, "exec");
    assert_eq!(shown.token, WBTC_BOB);
    assert_eq!(shown.amount, "100000");
    assert_eq!(
        shown.target,
        INNER_TARGET
            .parse::<alloy_primitives::Address>()
            .unwrap()
            .to_checksum(None)
    );
    assert_eq!(shown.inner_bytes, 7);
    assert_eq!(shown.inner_selector.as_deref(), Some("0xa993cd99"));
    assert!(
        summary.call.raw_data.is_some(),
        "the raw calldata is shown beside"
    );
    assert!(
        verified.sentence.contains("exec")
            && verified.sentence.contains("NOT DECODED")
            && verified.sentence.contains("simulation"),
        "{}",
        verified.sentence
    );

    // Without blind signing it verifies the same: the inner call is for the chain's simulation before signing
    // (crate::simulate), not for blind signing.
    let strict = verify_order_with(
        &q,
        &tx_answer("offramp", tx(genuine.clone())),
        &VerifyPolicy::strict(MAINNET),
    )
    .unwrap();
    assert_eq!(evm_summary(strict).call.entry, Some(shown));

    // Handed to another wallet unrun (`gateway create-order`), it needs blind signing, and says what was checked.
    let unrun = VerifyPolicy {
        simulated: false,
        ..VerifyPolicy::strict(MAINNET)
    };
    let err =
        verify_order_with(&q, &tx_answer("offramp", tx(genuine.clone())), &unrun).unwrap_err();
    assert!(
        matches!(&err, VerifyError::InnerCallNotDecoded { amount, .. } if amount == "100000"),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("nothing runs it on the chain"),
        "{err}"
    );
    let blind_unrun = VerifyPolicy {
        blind_signing: true,
        ..unrun
    };
    assert!(verify_order_with(&q, &tx_answer("offramp", tx(genuine)), &blind_unrun).is_ok());
}

#[test]
fn an_entry_call_that_lets_the_gateway_take_other_than_the_quote_is_refused_even_blind() {
    let entry = published_entry("bob");
    let q = offramp_quote("bob", WBTC_BOB, "100000", entry);
    let answer = |data: String| {
        tx_answer(
            "offramp",
            json!({"type": "evm", "to": entry, "data": data, "value": "0", "chain": "bob"}),
        )
    };
    // More of the token, another token.
    for (data, what) in [
        (
            exec_data(WBTC_BOB, 100_001, INNER_TARGET, &[]),
            "lets the gateway take",
        ),
        (
            exec_data(USDT_BOB, 100_000, INNER_TARGET, &[]),
            "lets the gateway take the token",
        ),
    ] {
        let err = verify_order_with(&q, &answer(data), &blind_strict()).unwrap_err();
        assert!(
            matches!(&err, VerifyError::CallDiffers { what: w, .. } if *w == what),
            "{err:?}"
        );
    }
    // An inner call to a token contract (how allowances and transfers are handed out).
    let err = verify_order_with(
        &q,
        &answer(exec_data(WBTC_BOB, 100_000, USDT_BOB, &[])),
        &blind_strict(),
    )
    .unwrap_err();
    assert!(
        matches!(err, VerifyError::CallsTokenContract { ref symbol, .. } if symbol == "USDT"),
        "{err:?}"
    );
    // Arguments that are not exec's.
    let err = verify_order_with(&q, &answer("0x2213bc0b0000".into()), &blind_strict()).unwrap_err();
    assert!(matches!(err, VerifyError::BadCalldata { .. }), "{err:?}");
}

#[test]
fn an_entry_call_with_a_native_input_names_no_token_and_sends_the_amount() {
    let entry = published_entry("ethereum");
    let q = swap_quote(
        "ethereum",
        NATIVE_TOKEN,
        "1000",
        "bob",
        WBTC_BOB,
        EVM,
        entry,
        None,
    );
    let answer = |token: &str, value: &str| {
        tx_answer(
            "tokenSwap",
            json!({"type": "evm", "to": entry, "data": exec_data(token, 1000, INNER_TARGET, &[]), "value": value,
                   "chain": "ethereum"}),
        )
    };
    for token in [
        "0x0000000000000000000000000000000000000000",
        "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
    ] {
        let verified = verify_order_with(&q, &answer(token, "1000"), &blind_strict()).unwrap();
        assert_eq!(evm_summary(verified).call.entry.unwrap().token, "native");
    }
    assert!(verify_order_with(&q, &answer(USDT_ETH, "1000"), &blind_strict()).is_err());
    assert!(
        verify_order_with(
            &q,
            &answer("0x0000000000000000000000000000000000000000", "0"),
            &blind_strict()
        )
        .is_err(),
        "the value must be the amount"
    );
}

#[test]
fn a_tron_entry_call_is_decoded_with_the_token_in_base58() {
    let entry = published_entry("tron");
    let q = swap_quote(
        "tron", USDT_TRON, "1000000", "bob", WBTC_BOB, EVM, entry, None,
    );
    let usdt = gateway_client::chains::tron::parse_account(USDT_TRON).unwrap();
    let token = format!("0x{}", alloy_primitives::hex::encode(&usdt[1..]));
    let tx = json!({"type": "tron", "to": "0x4107a39ae4c49dee86e892450b20881f32cd5d500d",
                    "data": exec_data(&token, 1_000_000, INNER_TARGET, &[]), "value": "0", "chain": "tron",
                    "feeLimit": TRON_FEE_LIMIT_SUN.to_string()});
    let verified = verify_order_with(&q, &tx_answer("tokenSwap", tx), &blind_strict()).unwrap();
    let VerifiedPayload::Family(FamilySummary::Tron(summary)) = &verified.payload else {
        panic!("not tron")
    };
    let shown = summary.call.entry.as_ref().unwrap();
    assert_eq!(shown.token, USDT_TRON);
    assert_eq!(shown.amount, "1000000");
}

// ---------------------------------------------------------------- Solana on the real service (issue 30, item 5)

/// The Solana swap with the gateway's instruction in a layout the app does not know (the real service's is not
/// public); `keep_deposit` keeps the Sandbox's SPL transfer beside it.
fn solana_unknown_layout(keep_deposit: bool) -> (Quote, String) {
    let (q, b64) = solana_swap(Some(SOL_SENDER));
    let program: solana_pubkey::Pubkey = gateway_contract("solana").parse().unwrap();
    let edited = edit_solana(&b64, |tx| {
        let keys = tx.message.static_account_keys().to_vec();
        let VersionedMessage::V0(message) = &mut tx.message else {
            panic!("v0")
        };
        message
            .instructions
            .retain(|ix| keep_deposit || keys[usize::from(ix.program_id_index)] == program);
        for ix in &mut message.instructions {
            if keys[usize::from(ix.program_id_index)] == program {
                ix.data = vec![0xde, 0xad, 0xbe, 0xef, 1, 2, 3];
            }
        }
    });
    (q, edited)
}

#[test]
fn off_the_sandbox_a_solana_instruction_of_no_known_layout_is_labelled_not_decoded_and_left_to_the_simulation()
 {
    let strict = VerifyPolicy::strict(MAINNET);
    let (q, b64) = solana_unknown_layout(false);
    // No blind signing needed: what it moves is for the chain's simulation before signing (crate::simulate).
    let verified = verify_order_with(&q, &solana_answer(&b64), &strict).unwrap();
    // Handed to another wallet unrun, it needs blind signing.
    let unrun = VerifyPolicy {
        simulated: false,
        ..strict
    };
    assert!(matches!(
        verify_order_with(&q, &solana_answer(&b64), &unrun).unwrap_err(),
        VerifyError::Family(FamilyRefusal::Solana(SolanaRefusal::NotDecoded { program })) if program == gateway_contract("solana")
    ));
    assert_eq!(
        verify_order_with(&q, &solana_answer(&b64), &blind_strict()).unwrap(),
        verified
    );
    let VerifiedPayload::Family(FamilySummary::Solana(summary)) = &verified.payload else {
        panic!("not solana")
    };
    assert!(!summary.gateway_decoded);
    assert_eq!(summary.fee_payer, SOL_SENDER);
    assert!(
        verified
            .sentence
            .contains("NOT DECODED: the gateway's own instruction is not decoded"),
        "{}",
        verified.sentence
    );

    // The gateway's instruction is let through, nothing else: the Sandbox's SPL transfer beside it is refused, as any
    // other program would be.
    let (q, with_transfer) = solana_unknown_layout(true);
    let err = verify_order_with(&q, &solana_answer(&with_transfer), &blind_strict()).unwrap_err();
    assert!(
        matches!(&err, VerifyError::Family(FamilyRefusal::Solana(SolanaRefusal::UnexpectedInstruction { what })) if what.contains("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")),
        "{err:?}"
    );

    // On the Sandbox its own layout is always decoded: an unknown one is refused, blind or not.
    let mut sandbox = VerifyPolicy::sandbox(MAINNET);
    sandbox.blind_signing = true;
    assert!(matches!(
        verify_order_with(&q, &solana_answer(&b64), &sandbox).unwrap_err(),
        VerifyError::Family(FamilyRefusal::Solana(
            SolanaRefusal::InstructionDiffers { .. }
        ))
    ));
    // A decoded instruction says so.
    let (q, genuine) = solana_swap(Some(SOL_SENDER));
    let VerifiedPayload::Family(FamilySummary::Solana(summary)) =
        verify(&q, &solana_answer(&genuine)).unwrap().payload
    else {
        panic!("not solana")
    };
    assert!(summary.gateway_decoded);
}

#[test]
fn the_quote_cards_deposit_size_covers_what_the_sandbox_builds_for_one_coin() {
    use bitcoin::hashes::Hash as _;
    let vsize = super::wallet_deposit_vsize();
    // One P2WPKH input (68 vB), a 34-byte deposit script (43), the OP_RETURN (43), change (31) and the frame (10.5).
    assert_eq!(vsize, 196);
    // The Sandbox's PSBT from one coin of a P2WPKH wallet, at its rate, pays no more than this size at that rate (its
    // deposit address is P2WPKH, 12 vB smaller than the P2TR counted here).
    let wallet = ScriptBuf::new_p2wpkh(&bitcoin::WPubkeyHash::from_byte_array([7; 20]));
    let fee = gateway_payload::bitcoin::deposit_fee_sats(&wallet, true);
    assert!(fee <= vsize * super::SANDBOX_FEE_RATE_SAT_VB, "{fee}");
    assert!(
        fee >= (vsize - 12) * super::SANDBOX_FEE_RATE_SAT_VB,
        "{fee}"
    );
}

/// The journal keeps each order's `VerifiedPayload`: an added family's summary is read and written in the form it
/// had when the union named each family (tagged by `type`, its fields beside the tag), and a tag no family has is
/// refused rather than read as another kind.
#[test]
fn a_journaled_family_summary_reads_and_writes_in_its_tagged_form() {
    let tron = json!({
        "type": "tron", "to": "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf", "value": "0", "valueText": "0 TRX",
        "dataBytes": 68, "selector": "0xa9059cbb", "decoded": null, "entry": null, "rawData": null,
        "feeLimitSun": "150000000", "feeLimitText": "150 TRX"
    });
    let read: VerifiedPayload = serde_json::from_value(tron.clone()).unwrap();
    let VerifiedPayload::Family(FamilySummary::Tron(summary)) = &read else {
        panic!("not a Tron summary: {read:?}")
    };
    assert_eq!(summary.fee_limit_sun, "150000000");
    assert_eq!(
        serde_json::to_value(&read).unwrap(),
        tron,
        "written back as it was"
    );

    // Journaled before issue 30: no `gatewayDecoded`, which then meant decoded.
    let solana = json!({
        "type": "solana", "feePayer": SOL_SENDER, "programs": ["11111111111111111111111111111111"],
        "instructionCount": 2, "recentBlockhash": "11111111111111111111111111111111", "version": "v0"
    });
    let read: VerifiedPayload = serde_json::from_value(solana).unwrap();
    let VerifiedPayload::Family(FamilySummary::Solana(summary)) = &read else {
        panic!("not a Solana summary: {read:?}")
    };
    assert!(summary.gateway_decoded);
    assert_eq!(serde_json::to_value(&read).unwrap()["type"], "solana");

    let sui =
        serde_json::from_value::<VerifiedPayload>(json!({"type": "sui", "to": "x"})).unwrap_err();
    assert!(sui.to_string().contains("sui"), "{sui}");
    let evm_fields_under_tron_tag = json!({"type": "tron", "to": "0x11", "chain": "bob"});
    let damaged = serde_json::from_value::<VerifiedPayload>(evm_fields_under_tron_tag).unwrap_err();
    assert!(
        damaged.to_string().contains("missing field"),
        "names what is wrong: {damaged}"
    );
    let mut no_limit = tron.clone();
    no_limit.as_object_mut().unwrap().remove("feeLimitSun");
    let damaged = serde_json::from_value::<VerifiedPayload>(no_limit).unwrap_err();
    assert!(damaged.to_string().contains("feeLimitSun"), "{damaged}");
    let onramp_damaged =
        serde_json::from_value::<VerifiedPayload>(json!({"type": "onramp"})).unwrap_err();
    assert!(
        onramp_damaged.to_string().contains("missing field"),
        "{onramp_damaged}"
    );
}
