//! Onramp: the deposit address, the OP_RETURN data, the PSBT, and the signed transaction handed back.

use std::str::FromStr;

use bitcoin::hex::{DisplayHex, FromHex};
use bitcoin::opcodes::all::OP_RETURN;
use bitcoin::psbt::Psbt;
use bitcoin::script::Instruction;
use bitcoin::transaction::{InputWeightPrediction, predict_weight};
use bitcoin::{Address, Amount, Script, ScriptBuf, Transaction, TxOut};
use gateway_client::address::{BitcoinNetwork, validate_bitcoin};
use gateway_client::txhash::validate_bitcoin_tx_hex;
use gateway_client::wire::{OnrampOrder, OnrampQuote};

use super::{
    MAX_OP_RETURN_BYTES, OnrampSummary, OutputKind, PsbtInputSummary, PsbtOutputSummary,
    PsbtSummary, TxSubject, VerifyError, btc_text, fee_cap_sats, first_sentence,
};

/// Checks an onramp answer against its quote (see the module docs of `verify` for the rules).
pub(super) fn verify(
    quote: &OnrampQuote,
    order: &OnrampOrder,
    network: BitcoinNetwork,
    max_fee_rate_sat_vb: u64,
) -> Result<OnrampSummary, VerifyError> {
    let amount_sats = quoted_sats(&quote.input_amount.amount)?;
    let deposit = validate_bitcoin(&order.address, network).map_err(|e| {
        VerifyError::DepositAddressInvalid {
            address: order.address.clone(),
            reason: first_sentence(&e.to_string()),
        }
    })?;
    let deposit_script = script_of(&deposit.canonical);
    let op_return = match order.op_return_data.as_deref() {
        None => None,
        Some(text) => op_return_bytes(text)?,
    };
    let sender = match quote.sender.as_deref() {
        None => None,
        Some(sender) => {
            Some(
                validate_bitcoin(sender, network).map_err(|e| VerifyError::SenderInvalid {
                    address: sender.to_owned(),
                    reason: first_sentence(&e.to_string()),
                })?,
            )
        }
    };
    let psbt = match (order.psbt_hex.as_deref(), sender) {
        (None, None) => None,
        (None, Some(sender)) => {
            return Err(VerifyError::MissingPsbt {
                sender: sender.canonical,
            });
        }
        (Some(_), None) => return Err(VerifyError::UnexpectedPsbt),
        (Some(hex), Some(sender)) => Some(check_psbt(
            hex,
            &Expected {
                deposit_script: &deposit_script,
                deposit_address: &deposit.canonical,
                amount_sats,
                op_return: op_return.as_deref(),
            },
            &sender.canonical,
            network,
        )?),
    };
    if let Some(psbt) = &psbt {
        // The rate first: it is the tighter bound and says the most; the share of the amount catches what has no
        // size estimate.
        check_fee_rate(psbt, max_fee_rate_sat_vb)?;
        let cap_sats = fee_cap_sats(amount_sats);
        if psbt.fee_sats > cap_sats {
            return Err(VerifyError::AbsurdFee {
                fee_sats: psbt.fee_sats,
                cap_sats,
            });
        }
    }
    Ok(OnrampSummary {
        address: deposit.canonical,
        amount_sats,
        op_return_hex: op_return.map(|data| data.to_lower_hex_string()),
        psbt,
    })
}

/// The one-line sentence of a verified onramp.
pub(super) fn sentence(summary: &OnrampSummary) -> String {
    let amount = btc_text(summary.amount_sats);
    let Some(psbt) = &summary.psbt else {
        return match &summary.op_return_hex {
            Some(data) => format!(
                "Send exactly {amount} to {} from your own wallet, in a transaction that also has an OP_RETURN \
                 output carrying {data}.",
                summary.address
            ),
            None => format!(
                "Send exactly {amount} to {} from your own wallet.",
                summary.address
            ),
        };
    };
    let mut text = format!("Pays {amount} to {}", summary.address);
    if let Some(data) = &summary.op_return_hex {
        let shown = if data.len() > 8 {
            format!("{}…", &data[..8])
        } else {
            data.clone()
        };
        text.push_str(&format!(" with OP_RETURN {shown}"));
    }
    let change: u64 = psbt
        .outputs
        .iter()
        .filter(|out| out.kind == OutputKind::Change)
        .map(|out| out.value_sats)
        .sum();
    if change > 0 {
        text.push_str(&format!(", change {} back to you", btc_text(change)));
    } else {
        text.push_str(", no change");
    }
    text.push_str(&format!(", fee {}", btc_text(psbt.fee_sats)));
    if let Some(vsize) = psbt.vsize_estimate.filter(|&v| v > 0) {
        let tenths = (u128::from(psbt.fee_sats) * 10 + u128::from(vsize) / 2) / u128::from(vsize);
        text.push_str(&format!(" (about {}.{} sat/vB)", tenths / 10, tenths % 10));
    }
    text.push('.');
    text
}

/// Checks the signed transaction the user pastes back (hex) against a verified onramp, and returns its txid.
///
/// The transaction must decode as exactly one transaction whose inputs all carry a signature, pay the deposit
/// address exactly the amount in one output, and carry the OP_RETURN data when the order has some. When a PSBT was
/// verified, it must also be that PSBT's transaction: the same coins, outputs, version, lock time and sequence
/// numbers (only signatures added).
pub fn check_signed_onramp_tx(
    summary: &OnrampSummary,
    tx_hex: &str,
) -> Result<String, VerifyError> {
    let tx_hex = tx_hex.trim();
    validate_bitcoin_tx_hex(tx_hex).map_err(|e| VerifyError::SignedTxUnreadable {
        reason: e.to_string(),
    })?;
    let undecodable = |e: String| VerifyError::SignedTxUnreadable {
        reason: format!(
            "It does not decode as one Bitcoin transaction ({e}). Copy it again from your wallet."
        ),
    };
    let bytes = Vec::<u8>::from_hex(tx_hex).map_err(|e| undecodable(e.to_string()))?;
    let tx: Transaction =
        bitcoin::consensus::deserialize(&bytes).map_err(|e| undecodable(e.to_string()))?;
    let deposit = Address::from_str(&summary.address)
        .map_err(|e| VerifyError::DepositAddressInvalid {
            address: summary.address.clone(),
            reason: format!("{e}."),
        })?
        .assume_checked();
    let op_return = summary
        .op_return_hex
        .as_deref()
        .map(op_return_bytes)
        .transpose()?
        .flatten();
    check_payment(
        TxSubject::Signed,
        &tx.output,
        &Expected {
            deposit_script: &deposit.script_pubkey(),
            deposit_address: &summary.address,
            amount_sats: summary.amount_sats,
            op_return: op_return.as_deref(),
        },
    )?;
    if let Some(index) = tx
        .input
        .iter()
        .position(|input| input.script_sig.is_empty() && input.witness.is_empty())
    {
        return Err(VerifyError::NotSigned { input_index: index });
    }
    if let Some(psbt) = &summary.psbt {
        let mut stripped = tx.clone();
        for input in &mut stripped.input {
            input.script_sig = ScriptBuf::new();
            input.witness.clear();
        }
        if stripped.compute_txid().to_string() != psbt.unsigned_txid {
            return Err(VerifyError::SignedTxNotApproved {
                difference: difference(&tx, psbt),
            });
        }
    }
    Ok(tx.compute_txid().to_string())
}

/// What differs between a signed transaction and the verified PSBT, as a clause.
fn difference(tx: &Transaction, psbt: &PsbtSummary) -> String {
    let outpoints: Vec<String> = tx
        .input
        .iter()
        .map(|input| input.previous_output.to_string())
        .collect();
    let approved: Vec<&str> = psbt
        .inputs
        .iter()
        .map(|input| input.outpoint.as_str())
        .collect();
    if outpoints != approved {
        return format!(
            "it spends {} instead of {}",
            list_or_nothing(&outpoints),
            list_or_nothing(&approved)
        );
    }
    if tx.output.len() != psbt.outputs.len() {
        return format!(
            "it has {} outputs instead of {}",
            tx.output.len(),
            psbt.outputs.len()
        );
    }
    for (index, (out, approved)) in tx.output.iter().zip(&psbt.outputs).enumerate() {
        if out.value.to_sat() != approved.value_sats {
            return format!(
                "output {index} pays {} instead of {}",
                btc_text(out.value.to_sat()),
                btc_text(approved.value_sats)
            );
        }
        let same_target = match (&approved.address, &approved.data_hex) {
            (Some(address), _) => Address::from_str(address)
                .is_ok_and(|a| a.assume_checked().script_pubkey() == out.script_pubkey),
            (None, Some(data)) => op_return_content(&out.script_pubkey)
                .is_some_and(|(found, _)| found.to_lower_hex_string() == *data),
            (None, None) => false,
        };
        if !same_target {
            return format!("output {index} pays someone else than in the checked transaction");
        }
    }
    "its version, lock time or sequence numbers differ".to_owned()
}

fn list_or_nothing<S: AsRef<str>>(items: &[S]) -> String {
    if items.is_empty() {
        "nothing".to_owned()
    } else {
        items
            .iter()
            .map(AsRef::as_ref)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// What the payment must look like.
struct Expected<'a> {
    deposit_script: &'a Script,
    deposit_address: &'a str,
    amount_sats: u64,
    op_return: Option<&'a [u8]>,
}

/// The quote's input amount in sats; it must be a positive whole number that fits Bitcoin.
fn quoted_sats(text: &str) -> Result<u64, VerifyError> {
    let unreadable = || VerifyError::QuoteUnreadable {
        field: "inputAmount.amount",
        value: text.to_owned(),
    };
    let sats = gateway_client::amount::parse_base_units(text)
        .ok()
        .and_then(|value| u64::try_from(value).ok())
        .ok_or_else(unreadable)?;
    if sats == 0 || sats > Amount::MAX_MONEY.to_sat() {
        return Err(unreadable());
    }
    Ok(sats)
}

/// The output script of an address that already passed validation.
fn script_of(canonical: &str) -> ScriptBuf {
    Address::from_str(canonical)
        .expect("a validated Bitcoin address parses")
        .assume_checked()
        .script_pubkey()
}

/// Reads `op_return_data`: hex (an optional `0x` is tolerated) of 1 to [`MAX_OP_RETURN_BYTES`] bytes; an empty string
/// is no data.
fn op_return_bytes(text: &str) -> Result<Option<Vec<u8>>, VerifyError> {
    let trimmed = text.trim();
    let hex = trimmed
        .strip_prefix("0x")
        .or_else(|| trimmed.strip_prefix("0X"))
        .unwrap_or(trimmed);
    if hex.is_empty() {
        return Ok(None);
    }
    let invalid = |reason: String| VerifyError::OpReturnDataInvalid {
        data: text.to_owned(),
        reason,
    };
    let bytes =
        Vec::<u8>::from_hex(hex).map_err(|_| invalid("it is not hexadecimal bytes".to_owned()))?;
    if bytes.len() > MAX_OP_RETURN_BYTES {
        return Err(invalid(format!(
            "it is {} bytes, more than the {MAX_OP_RETURN_BYTES} an OP_RETURN output can carry",
            bytes.len()
        )));
    }
    Ok(Some(bytes))
}

/// What an OP_RETURN script carries: the pushed bytes and `true` when it is exactly one push, or everything after
/// `OP_RETURN` and `false` otherwise. `None` when the script is not an OP_RETURN script.
fn op_return_content(script: &Script) -> Option<(Vec<u8>, bool)> {
    let mut instructions = script.instructions();
    match instructions.next() {
        Some(Ok(Instruction::Op(op))) if op == OP_RETURN => {}
        _ => return None,
    }
    let rest: Vec<_> = instructions.collect();
    if let [Ok(Instruction::PushBytes(data))] = rest.as_slice() {
        return Some((data.as_bytes().to_vec(), true));
    }
    Some((script.as_bytes()[1..].to_vec(), false))
}

/// The payment rules shared by the PSBT and the signed transaction: one output of exactly the amount to the deposit
/// address, and the OP_RETURN.
fn check_payment(
    subject: TxSubject,
    outputs: &[TxOut],
    expected: &Expected<'_>,
) -> Result<(), VerifyError> {
    let paying: Vec<&TxOut> = outputs
        .iter()
        .filter(|out| out.script_pubkey.as_script() == expected.deposit_script)
        .collect();
    match paying.as_slice() {
        [] => {
            return Err(VerifyError::NoDepositOutput {
                subject,
                address: expected.deposit_address.to_owned(),
            });
        }
        [payment] => {
            let paid_sats = payment.value.to_sat();
            if paid_sats != expected.amount_sats {
                return Err(VerifyError::WrongDepositAmount {
                    subject,
                    paid_sats,
                    quoted_sats: expected.amount_sats,
                });
            }
        }
        several => {
            return Err(VerifyError::DepositPaidInSeveralOutputs {
                subject,
                address: expected.deposit_address.to_owned(),
                count: several.len(),
            });
        }
    }
    let op_returns: Vec<(&TxOut, Vec<u8>, bool)> = outputs
        .iter()
        .filter_map(|out| {
            op_return_content(&out.script_pubkey).map(|(data, single)| (out, data, single))
        })
        .collect();
    if let Some((out, _, _)) = op_returns.iter().find(|(out, _, _)| out.value.to_sat() > 0) {
        return Err(VerifyError::OpReturnBurns {
            subject,
            sats: out.value.to_sat(),
        });
    }
    let Some(wanted) = expected.op_return else {
        return Ok(());
    };
    match op_returns.as_slice() {
        [] => Err(VerifyError::OpReturnMissing {
            subject,
            expected: wanted.to_lower_hex_string(),
        }),
        [(_, data, single)] if *single && data.as_slice() == wanted => Ok(()),
        [(_, data, _)] => Err(VerifyError::OpReturnMismatch {
            subject,
            expected: wanted.to_lower_hex_string(),
            found: data.to_lower_hex_string(),
        }),
        several => Err(VerifyError::SeveralOpReturns {
            subject,
            count: several.len(),
        }),
    }
}

/// Who an output script pays, for messages: its address on `network`, or `script <hex>`.
fn describe_script(script: &Script, network: BitcoinNetwork) -> String {
    Address::from_script(script, bitcoin::Network::from(network)).map_or_else(
        |_| format!("script {}", script.as_bytes().to_lower_hex_string()),
        |address| address.to_string(),
    )
}

/// Decodes and checks the PSBT; `sender` is the quote's sender, validated for `network`.
fn check_psbt(
    hex: &str,
    expected: &Expected<'_>,
    sender: &str,
    network: BitcoinNetwork,
) -> Result<PsbtSummary, VerifyError> {
    let unreadable = |reason: String| VerifyError::PsbtUnreadable { reason };
    let bytes = Vec::<u8>::from_hex(hex.trim())
        .map_err(|_| unreadable("the PSBT is not hexadecimal bytes".to_owned()))?;
    let psbt = Psbt::deserialize(&bytes).map_err(|e| unreadable(format!("not a PSBT: {e}")))?;
    let tx = &psbt.unsigned_tx;
    check_payment(TxSubject::Gateway, &tx.output, expected)?;

    let sender_script = script_of(sender);
    let mut outputs = Vec::with_capacity(tx.output.len());
    let mut outputs_sats = 0u64;
    for (index, out) in tx.output.iter().enumerate() {
        let value_sats = out.value.to_sat();
        let script = out.script_pubkey.as_script();
        let (kind, address, data_hex) = if script == expected.deposit_script {
            (
                OutputKind::Payment,
                Some(expected.deposit_address.to_owned()),
                None,
            )
        } else if let Some((data, _)) = op_return_content(script) {
            (OutputKind::OpReturn, None, Some(data.to_lower_hex_string()))
        } else if script == sender_script.as_script() {
            (OutputKind::Change, Some(sender.to_owned()), None)
        } else {
            return Err(VerifyError::PaysStranger {
                output_index: index,
                recipient: describe_script(script, network),
                value_sats,
            });
        };
        outputs_sats = add_sats(outputs_sats, value_sats)?;
        outputs.push(PsbtOutputSummary {
            kind,
            address,
            value_sats,
            data_hex,
        });
    }

    if tx.input.is_empty() {
        return Err(VerifyError::NoInputs);
    }
    let mut inputs = Vec::with_capacity(tx.input.len());
    let mut inputs_sats = 0u64;
    for (index, (txin, input)) in tx.input.iter().zip(&psbt.inputs).enumerate() {
        let outpoint = txin.previous_output;
        let unknown = || VerifyError::UnknownPrevout {
            input_index: index,
            outpoint: outpoint.to_string(),
        };
        let mismatch = || VerifyError::PrevoutMismatch {
            input_index: index,
            outpoint: outpoint.to_string(),
        };
        let spent = match (&input.witness_utxo, &input.non_witness_utxo) {
            (witness_utxo, Some(previous)) => {
                if previous.compute_txid() != outpoint.txid {
                    return Err(mismatch());
                }
                let spent = usize::try_from(outpoint.vout)
                    .ok()
                    .and_then(|vout| previous.output.get(vout))
                    .ok_or_else(unknown)?;
                if witness_utxo.as_ref().is_some_and(|w| w != spent) {
                    return Err(mismatch());
                }
                spent.clone()
            }
            (Some(witness_utxo), None) => witness_utxo.clone(),
            (None, None) => return Err(unknown()),
        };
        if spent.script_pubkey != sender_script {
            return Err(VerifyError::InputNotSender {
                input_index: index,
                outpoint: outpoint.to_string(),
                owner: describe_script(&spent.script_pubkey, network),
                sender: sender.to_owned(),
            });
        }
        if let Some(sighash) = input.sighash_type {
            // 1 is SIGHASH_ALL; 0 is Taproot's default, which also signs everything.
            if !matches!(sighash.to_u32(), 0 | 1) {
                return Err(VerifyError::UnsafeSighash {
                    input_index: index,
                    sighash: sighash.to_string(),
                });
            }
        }
        let value_sats = spent.value.to_sat();
        inputs_sats = add_sats(inputs_sats, value_sats)?;
        inputs.push(PsbtInputSummary {
            outpoint: outpoint.to_string(),
            value_sats,
            address: sender.to_owned(),
        });
    }

    let Some(fee_sats) = inputs_sats.checked_sub(outputs_sats) else {
        return Err(VerifyError::FeeNegative {
            inputs_sats,
            outputs_sats,
        });
    };
    let fee_share_bps =
        u32::try_from(u128::from(fee_sats) * 10_000 / u128::from(expected.amount_sats.max(1)))
            .unwrap_or(u32::MAX);
    Ok(PsbtSummary {
        unsigned_txid: tx.compute_txid().to_string(),
        inputs,
        outputs,
        fee_sats,
        vsize_estimate: vsize_estimate(&sender_script, tx),
        fee_share_bps,
        fee_share_percent: super::percent(fee_share_bps),
        fee_needs_confirmation: u64::from(fee_share_bps) > super::FEE_CONFIRM_BPS,
    })
}

/// Refuses a PSBT whose fee, over the signed transaction's estimated virtual size, is above `ceiling` sat/vB. Without
/// an estimate (an address type whose signature size is unknown) the amount-based cap alone applies.
fn check_fee_rate(psbt: &PsbtSummary, ceiling: u64) -> Result<(), VerifyError> {
    let Some(vsize) = psbt.vsize_estimate.filter(|&v| v > 0) else {
        return Ok(());
    };
    let rate = psbt.fee_sats.div_ceil(u64::from(vsize));
    if rate > ceiling {
        return Err(VerifyError::FeeRateTooHigh {
            fee_sats: psbt.fee_sats,
            vsize,
            rate,
            ceiling,
        });
    }
    Ok(())
}

/// Adds sats, refusing totals beyond all the bitcoin there is.
fn add_sats(total: u64, value: u64) -> Result<u64, VerifyError> {
    total
        .checked_add(value)
        .filter(|&sum| sum <= Amount::MAX_MONEY.to_sat())
        .ok_or_else(|| VerifyError::PsbtUnreadable {
            reason: "its amounts add up to more than 21 million BTC".to_owned(),
        })
}

/// The signed size in vbytes of a deposit paid from one coin of this app's wallet (P2WPKH): to a deposit address of
/// the largest common kind (P2TR), with the order's 32-byte OP_RETURN and change back to the wallet. What the quote
/// card counts before the gateway builds the PSBT (more coins spent cost more: 68 vB each).
pub fn wallet_deposit_vsize() -> u64 {
    use bitcoin::hashes::Hash as _;
    // A P2WSH script is as long as a P2TR one (34 bytes) and needs no key to write.
    let p2tr = ScriptBuf::new_p2wsh(&bitcoin::WScriptHash::from_byte_array([0; 32]));
    let op_return = ScriptBuf::new_op_return([0u8; 32]);
    let p2wpkh = ScriptBuf::new_p2wpkh(&bitcoin::WPubkeyHash::from_byte_array([0; 20]));
    predict_weight(
        [InputWeightPrediction::P2WPKH_MAX],
        [p2tr.len(), op_return.len(), p2wpkh.len()],
    )
    .to_vbytes_ceil()
}

/// The signed size in vbytes, when every input spends `sender_script` of a type whose signature size is known.
fn vsize_estimate(sender_script: &Script, tx: &Transaction) -> Option<u32> {
    let prediction = if sender_script.is_p2wpkh() {
        InputWeightPrediction::P2WPKH_MAX
    } else if sender_script.is_p2tr() {
        InputWeightPrediction::P2TR_KEY_DEFAULT_SIGHASH
    } else if sender_script.is_p2pkh() {
        InputWeightPrediction::P2PKH_COMPRESSED_MAX
    } else {
        return None;
    };
    let weight = predict_weight(
        std::iter::repeat_n(prediction, tx.input.len()),
        tx.output.iter().map(|out| out.script_pubkey.len()),
    );
    u32::try_from(weight.to_vbytes_ceil()).ok()
}
