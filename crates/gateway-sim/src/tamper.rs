//! A hostile gateway on demand: when a tamper is switched on (admin interface or [`TamperSwitch::set`]), the sim
//! rewrites its own get-quote or create-order answers the way a compromised gateway would, so that a client's checks
//! before signing can be tested against every kind of lie.
//!
//! A tampered quote is what this gateway then issues: an onramp quote is signed again and an offramp or token-swap
//! quote remembered as it was sent, so a client that checks nothing could go on to create the order (and the tamper of
//! the order's answer shows what it would have signed). Each tamper applies to some routes only; where it does not
//! apply, the answer is left as it is and a debug line says so.
//!
//! What no client can detect is deliberately not here: a gateway that consistently names a deposit address (or an
//! OP_RETURN commitment) of its own choosing everywhere looks exactly like an honest one.

use std::str::FromStr;
use std::sync::{Arc, Mutex};

use alloy_primitives::{Address, B256, U256};
use alloy_sol_types::SolCall;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bincode::Options as _;
use bitcoin::psbt::Psbt;
use bitcoin::{Amount, ScriptBuf};
use gateway_client::ApiVersion;
use gateway_client::address::{ChainFamily, chain_family};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use solana_instruction::{AccountMeta, Instruction};
use solana_message::{VersionedMessage, v0};
use solana_pubkey::Pubkey;
use solana_signature::Signature;
use solana_transaction::versioned::VersionedTransaction;
use tracing::debug;

use crate::payload::Network;
use crate::payload::evm::IGatewaySim;
use crate::payload::testkit::TestWallet;

alloy_sol_types::sol! {
    /// The ERC-20 calls a hostile gateway might slip in as the main call.
    interface IErc20Tamper {
        function approve(address spender, uint256 amount) external returns (bool);
    }
}

/// An EVM address that receives what a tampered answer diverts.
pub const ATTACKER_EVM: &str = "0xbad0bad0bad0bad0bad0bad0bad0bad0bad0bad0";
/// A Tron address that receives what a tampered answer diverts.
pub const ATTACKER_TRON: &str = "TSzYNvgo9jvrEkQrouWHntXVuocnpXHQbW";
/// A Solana account that receives what a tampered answer diverts.
pub const ATTACKER_SOLANA: &str = "DZuyd1ctzUF8wqXQ8Zfu7pYtQY8SGphWvty3qhLRxxzV";
/// Lamports of the transfer a tampered Solana transaction adds (1 SOL).
const STOLEN_LAMPORTS: u64 = 1_000_000_000;
/// Bitcoin's dust limit for a P2WPKH output, in sats: a tampered change output stays above it.
const DUST_SATS: u64 = 294;
/// A Tron fee limit far above any sensible cap: 10,000 TRX, in sun.
pub const ABSURD_TRON_FEE_LIMIT_SUN: u64 = 10_000_000_000;

/// The attacker's Bitcoin address on `network`.
pub fn attacker_bitcoin(network: Network) -> String {
    TestWallet::from_seed([0xBA; 32]).address(network)
}

/// One way of lying, named as the admin interface takes it (`"calldataAmountTimesTen"`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Tamper {
    // get-quote answers.
    /// The quote names another recipient than the one asked for.
    QuoteRecipient,
    /// The quote names another sender than the one asked for (where a sender was given).
    QuoteSender,
    /// The V3 offramp quote names another owner than the one asked for.
    QuoteOwner,
    /// The V4 offramp or token-swap quote names another refund address than the one asked for.
    QuoteRefund,
    /// The quote delivers another token than the one asked for.
    QuoteToken,
    /// The quote takes a larger input than the amount asked for.
    QuoteInputAmount,
    /// The quote's output is 1 % of the fair output.
    QuoteOutputOnePercent,
    /// The quote's slippage is higher than the one asked for.
    QuoteSlippage,
    /// An affiliate the person did not ask for takes a fee.
    QuoteAffiliate,
    // create-order answers, Bitcoin in.
    /// The PSBT pays the input amount to a stranger instead of the deposit address it names.
    PsbtPaysStranger,
    /// The PSBT drops its change output: the change silently becomes fee.
    PsbtChangeToFee,
    /// The PSBT takes an extra fee of a fifth of the amount (or all the change above dust) out of the change.
    PsbtHugeFee,
    /// The PSBT's OP_RETURN carries other bytes than `op_return_data`.
    OpReturnMismatch,
    // create-order answers, EVM and Tron calls.
    /// The calldata moves ten times the quoted amount.
    CalldataAmountTimesTen,
    /// The calldata delivers to another recipient than the quote's.
    CalldataRecipient,
    /// The main call is `approve(attacker, max)` to the quote's `txTo`.
    ApproveAttacker,
    /// The call goes to the source token's contract instead of the gateway's.
    TxToTokenContract,
    /// The calldata is of no function the gateway's contract has.
    UndecodableCalldata,
    /// The call sends native value the quote does not state.
    NativeValueAdded,
    /// The Tron call allows a fee limit of 10,000 TRX.
    TronFeeLimit,
    /// The call goes to another contract than the chain's entry contract (the production shape's
    /// AllowanceHolder), or than the gateway's contract.
    EntrySwapped,
    /// The calldata has an odd number of hexadecimal digits (the real service has answered so).
    OddLengthCalldata,
    // create-order answers of the production shape (`exec` of the entry contract), caught only by the simulation.
    /// The gateway's inner call pulls one unit more than `exec` allows (the entry contract refuses it: a revert).
    ExecPullsMore,
    /// The gateway's inner call also takes all it may of another token straight from the payer (what an allowance
    /// the person gave the gateway's contract earlier lets it).
    ExecSecondToken,
    /// `exec` lets a stranger pull the amount (its `operator`), and the inner call hands the pull to it.
    ExecStrangerPulls,
    // create-order answers, Solana transactions.
    /// The transaction also transfers 1 SOL from the sender to a stranger.
    SolanaExtraTransfer,
    /// Another account pays the fee (and must sign).
    SolanaFeePayer,
    /// The gateway's instruction requires a second signer.
    SolanaExtraSigner,
    /// The transaction also calls a program the quote does not name.
    SolanaUnknownProgram,
}

impl Tamper {
    /// Every tamper that any shape of order can be refused for before anything is shown to sign, quote tampers
    /// first ([`Tamper::SIMULATED`] are not among them).
    pub const ALL: [Tamper; 26] = [
        Self::QuoteRecipient,
        Self::QuoteSender,
        Self::QuoteOwner,
        Self::QuoteRefund,
        Self::QuoteToken,
        Self::QuoteInputAmount,
        Self::QuoteOutputOnePercent,
        Self::QuoteSlippage,
        Self::QuoteAffiliate,
        Self::PsbtPaysStranger,
        Self::PsbtChangeToFee,
        Self::PsbtHugeFee,
        Self::OpReturnMismatch,
        Self::CalldataAmountTimesTen,
        Self::CalldataRecipient,
        Self::ApproveAttacker,
        Self::TxToTokenContract,
        Self::UndecodableCalldata,
        Self::NativeValueAdded,
        Self::TronFeeLimit,
        Self::SolanaExtraTransfer,
        Self::SolanaFeePayer,
        Self::SolanaExtraSigner,
        Self::SolanaUnknownProgram,
        Self::EntrySwapped,
        Self::OddLengthCalldata,
    ];

    /// The production shape's lies inside `exec`, which the decoding cannot see (the inner call is the gateway's
    /// own): the chain's simulation refuses them before anything is signed. They apply only to `exec` answers.
    pub const SIMULATED: [Tamper; 3] = [
        Self::ExecPullsMore,
        Self::ExecSecondToken,
        Self::ExecStrangerPulls,
    ];

    /// True for the tampers of get-quote answers; the others rewrite create-order answers.
    pub fn is_quote_tamper(self) -> bool {
        matches!(
            self,
            Self::QuoteRecipient
                | Self::QuoteSender
                | Self::QuoteOwner
                | Self::QuoteRefund
                | Self::QuoteToken
                | Self::QuoteInputAmount
                | Self::QuoteOutputOnePercent
                | Self::QuoteSlippage
                | Self::QuoteAffiliate
        )
    }

    /// Its name on the admin interface.
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    }
}

/// The tamper in force, shared by the handlers (none by default).
#[derive(Debug, Clone, Default)]
pub struct TamperSwitch(Arc<Mutex<Option<Tamper>>>);

impl TamperSwitch {
    /// The tamper in force.
    pub fn get(&self) -> Option<Tamper> {
        *self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Switches `tamper` on (`None`: an honest gateway again).
    pub fn set(&self, tamper: Option<Tamper>) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = tamper;
    }
}

/// Another address of `chain`'s family than any the person would give: the attacker's.
fn attacker_on(chain: &str, network: Network) -> String {
    match chain_family(chain) {
        Some(ChainFamily::Bitcoin) => attacker_bitcoin(network),
        Some(ChainFamily::Tron) => ATTACKER_TRON.to_owned(),
        Some(ChainFamily::Solana) => ATTACKER_SOLANA.to_owned(),
        _ => ATTACKER_EVM.to_owned(),
    }
}

/// A USD decimal string in whole cents (further digits dropped).
fn usd_cents(text: &str) -> Option<u128> {
    let (whole, frac) = text.trim().split_once('.').unwrap_or((text.trim(), ""));
    let cents: String = frac.chars().chain("00".chars()).take(2).collect();
    whole
        .parse::<u128>()
        .ok()?
        .checked_mul(100)?
        .checked_add(cents.parse().ok()?)
}

fn times(amount: &Value, numerator: u64, denominator: u64) -> Option<Value> {
    let amount: U256 = amount.as_str()?.parse().ok()?;
    let scaled = amount.checked_mul(U256::from(numerator))? / U256::from(denominator.max(1));
    Some(json!(scaled.to_string()))
}

/// Rewrites the quote object `quote` (the value under its route key) by `tamper`. `false` when it does not apply.
pub fn tamper_quote(
    tamper: Tamper,
    quote: &mut Value,
    version: ApiVersion,
    network: Network,
) -> bool {
    let Some(q) = quote.as_object_mut() else {
        return false;
    };
    let dst_chain = q
        .get("outputAmount")
        .and_then(|a| a["chain"].as_str())
        .unwrap_or_default()
        .to_owned();
    let src_chain = q
        .get("inputAmount")
        .and_then(|a| a["chain"].as_str())
        .unwrap_or_default()
        .to_owned();
    match tamper {
        Tamper::QuoteRecipient => {
            q.insert("recipient".into(), json!(attacker_on(&dst_chain, network)));
        }
        Tamper::QuoteSender => {
            if q.get("sender").is_none_or(Value::is_null) {
                return false;
            }
            q.insert("sender".into(), json!(attacker_on(&src_chain, network)));
        }
        Tamper::QuoteOwner => {
            if q.get("ownerAddress").is_none_or(Value::is_null) {
                return false;
            }
            q.insert("ownerAddress".into(), json!(ATTACKER_EVM));
        }
        Tamper::QuoteRefund => {
            if q.get("refundAddress").is_none_or(Value::is_null) {
                return false;
            }
            q.insert(
                "refundAddress".into(),
                json!(attacker_on(&src_chain, network)),
            );
        }
        Tamper::QuoteToken => {
            // Another token of the destination chain: an address nobody asked for.
            let other = match chain_family(&dst_chain) {
                Some(ChainFamily::Bitcoin) => return false,
                Some(ChainFamily::Tron) => ATTACKER_TRON.to_owned(),
                Some(ChainFamily::Solana) => ATTACKER_SOLANA.to_owned(),
                _ => ATTACKER_EVM.to_owned(),
            };
            q["outputAmount"]["address"] = json!(other);
            for field in ["dstToken", "token"] {
                if q.contains_key(field) {
                    q.insert(field.into(), json!(other));
                }
            }
        }
        Tamper::QuoteInputAmount => {
            let Some(more) = times(&q["inputAmount"]["amount"], 11, 10) else {
                return false;
            };
            q["inputAmount"]["amount"] = more;
        }
        Tamper::QuoteOutputOnePercent => {
            let Some(less) = times(&q["outputAmount"]["amount"], 1, 100) else {
                return false;
            };
            q["outputAmount"]["amount"] = less;
            // A consistent liar scales the USD value too, so a client reading USD sees the loss as well.
            if let Some(usd) = q["outputAmount"]["usd"].as_str().and_then(usd_cents) {
                let hundredth = usd / 100;
                q["outputAmount"]["usd"] =
                    json!(format!("{}.{:02}", hundredth / 100, hundredth % 100));
            }
        }
        Tamper::QuoteSlippage => {
            let raised = match q.get("slippage") {
                Some(Value::String(s)) => s.parse::<u64>().ok().map(|s| json!((s * 3).to_string())),
                Some(Value::Number(n)) => n.as_u64().map(|s| json!(s * 3)),
                _ => None,
            };
            let Some(raised) = raised else {
                return false;
            };
            q.insert("slippage".into(), raised);
        }
        Tamper::QuoteAffiliate => {
            // V1 quotes carry no affiliates; a V2 token swap has no affiliate field to lie in.
            let token_swap = q.contains_key("txTo") && !q.contains_key("tokenAddress");
            if version == ApiVersion::V1 || token_swap && version == ApiVersion::V2 {
                return false;
            }
            if token_swap {
                // A V3 token swap: its one affiliate, in bps, on the source chain.
                q.insert(
                    "affiliate".into(),
                    json!({"address": attacker_on(&src_chain, network), "bps": 500}),
                );
            } else {
                let Some(fee) = times(&q["inputAmount"]["amount"], 5, 100) else {
                    return false;
                };
                let mut amount = q["inputAmount"].clone();
                amount["amount"] = fee;
                q.insert("affiliateAddress".into(), json!(ATTACKER_EVM));
                q.insert(
                    "affiliates".into(),
                    json!([{"address": ATTACKER_EVM, "fee": amount}]),
                );
            }
        }
        _ => return false,
    }
    true
}

/// Rewrites the create-order answer `created` (`{route: {...}}`) by `tamper`. `quote` is the quote object it answers
/// (the source token and amount come from it). `false` when the tamper does not apply.
pub fn tamper_order(tamper: Tamper, created: &mut Value, quote: &Value, network: Network) -> bool {
    let Some((_, inner)) = created.as_object_mut().and_then(|m| m.iter_mut().next()) else {
        return false;
    };
    if inner.get("psbt_hex").is_some() || inner.get("address").is_some() {
        return tamper_onramp(tamper, inner, network);
    }
    let Some(tx) = inner.get_mut("tx") else {
        return false;
    };
    if tx.get("transaction").is_some() {
        return tamper_solana(tamper, tx);
    }
    tamper_call(tamper, tx, quote, network)
}

fn tamper_onramp(tamper: Tamper, inner: &mut Value, network: Network) -> bool {
    let Some(mut psbt) = inner["psbt_hex"]
        .as_str()
        .and_then(hex_bytes)
        .and_then(|b| Psbt::deserialize(&b).ok())
    else {
        return false;
    };
    let deposit = inner["address"].as_str().unwrap_or_default().to_owned();
    let deposit_script = bitcoin::Address::from_str(&deposit)
        .ok()
        .map(|a| a.assume_checked().script_pubkey());
    let outputs = &mut psbt.unsigned_tx.output;
    let pays_deposit = |script: &ScriptBuf| Some(script) == deposit_script.as_ref();
    let change = outputs
        .iter()
        .position(|o| !o.script_pubkey.is_op_return() && !pays_deposit(&o.script_pubkey));
    match tamper {
        Tamper::PsbtPaysStranger => {
            let Some(paid) = outputs.iter_mut().find(|o| pays_deposit(&o.script_pubkey)) else {
                return false;
            };
            let Ok(stranger) = bitcoin::Address::from_str(&attacker_bitcoin(network)) else {
                return false;
            };
            paid.script_pubkey = stranger.assume_checked().script_pubkey();
        }
        Tamper::PsbtChangeToFee => {
            let Some(i) = change else {
                return false;
            };
            outputs.remove(i);
            psbt.outputs.remove(i);
        }
        Tamper::PsbtHugeFee => {
            let Some(i) = change else {
                return false;
            };
            let amount = outputs
                .iter()
                .find(|o| pays_deposit(&o.script_pubkey))
                .map_or(0, |o| o.value.to_sat());
            // A fifth of the amount, or as much of the change as leaves it above the dust limit.
            let change_sats = outputs[i].value.to_sat();
            let extra = (amount / 5).min(change_sats.saturating_sub(DUST_SATS));
            if extra < 1_000 {
                return false;
            }
            outputs[i].value = Amount::from_sat(change_sats - extra);
        }
        Tamper::OpReturnMismatch => {
            let Some(op) = outputs.iter_mut().find(|o| o.script_pubkey.is_op_return()) else {
                return false;
            };
            op.script_pubkey = ScriptBuf::new_op_return([0xEE; 32]);
        }
        _ => return false,
    }
    inner["psbt_hex"] = json!(hex_string(&psbt.serialize()));
    true
}

/// An address of the calls' 20 bytes: EVM text, or a Tron address's body.
fn call_address(text: &str) -> Option<Address> {
    text.parse::<Address>().ok().or_else(|| {
        gateway_client::chains::tron::parse_account(text).map(|a| Address::from_slice(&a[1..]))
    })
}

/// The production shape's `exec` answers, rewritten: its amount ten times (the decoding refuses it), or its inner
/// call replaced by the gateway contract's `tampered` (the simulation refuses it).
fn tamper_exec(tamper: Tamper, data: &[u8], tron: bool, chain: &str) -> Option<Vec<u8>> {
    use crate::payload::evm::{IAllowanceHolderExec, IGatewaySimViaHolder};
    let mut exec = IAllowanceHolderExec::execCall::abi_decode(data).ok()?;
    let attacker = call_address(if tron { ATTACKER_TRON } else { ATTACKER_EVM })?;
    let (lie, other) = match tamper {
        Tamper::CalldataAmountTimesTen => {
            exec.amount = exec.amount.saturating_mul(U256::from(10u8));
            return Some(exec.abi_encode());
        }
        Tamper::ExecPullsMore => (1u8, Address::ZERO),
        Tamper::ExecSecondToken => {
            // Another token of the chain's catalogue than the one the order pays with.
            let other = crate::Catalogue::default()
                .tokens()
                .iter()
                .filter(|t| t.chain == chain)
                .filter_map(|t| call_address(t.address))
                .find(|t| !t.is_zero() && *t != exec.token)?;
            (2, other)
        }
        Tamper::ExecStrangerPulls => {
            exec.operator = attacker;
            (3, attacker)
        }
        _ => return None,
    };
    exec.data = IGatewaySimViaHolder::tamperedCall {
        lie,
        token: exec.token,
        amount: exec.amount,
        other,
        honest: exec.data.clone(),
    }
    .abi_encode()
    .into();
    Some(exec.abi_encode())
}

fn tamper_call(tamper: Tamper, tx: &mut Value, quote: &Value, network: Network) -> bool {
    let data_text = tx["data"].as_str().unwrap_or_default().to_owned();
    let Some(data) = hex_bytes(data_text.trim_start_matches("0x")) else {
        return false;
    };
    let tron = tx["type"] == "tron" || tx["chain"] == "tron";
    let chain = tx["chain"]
        .as_str()
        .or_else(|| quote.get("inputAmount").and_then(|a| a["chain"].as_str()))
        .unwrap_or(if tron { "tron" } else { "" })
        .to_owned();
    let is_exec =
        data.get(..4) == Some(&crate::payload::evm::IAllowanceHolderExec::execCall::SELECTOR[..]);
    if is_exec && let Some(new_data) = tamper_exec(tamper, &data, tron, &chain) {
        let prefix = if data_text.starts_with("0x") {
            "0x"
        } else {
            ""
        };
        tx["data"] = json!(format!("{prefix}{}", hex_string(&new_data)));
        return true;
    }
    let new_data: Vec<u8> = match tamper {
        Tamper::EntrySwapped => {
            tx["to"] = json!(if tron { ATTACKER_TRON } else { ATTACKER_EVM });
            return true;
        }
        Tamper::OddLengthCalldata => {
            tx["data"] = json!(format!("{data_text}0"));
            return true;
        }
        Tamper::ExecPullsMore | Tamper::ExecSecondToken | Tamper::ExecStrangerPulls => {
            return false;
        }
        Tamper::CalldataAmountTimesTen | Tamper::CalldataRecipient => {
            if let Ok(mut call) = IGatewaySim::offrampToBitcoinCall::abi_decode(&data) {
                if tamper == Tamper::CalldataAmountTimesTen {
                    call.amount = call.amount.saturating_mul(U256::from(10u8));
                } else {
                    call.btcRecipient = attacker_bitcoin(network);
                }
                call.abi_encode()
            } else if let Ok(mut call) = IGatewaySim::swapCrossChainCall::abi_decode(&data) {
                if tamper == Tamper::CalldataAmountTimesTen {
                    call.amount = call.amount.saturating_mul(U256::from(10u8));
                } else {
                    call.recipient = B256::left_padding_from(
                        &ATTACKER_EVM.parse::<Address>().expect("a valid address")[..],
                    );
                }
                call.abi_encode()
            } else {
                return false;
            }
        }
        Tamper::ApproveAttacker => IErc20Tamper::approveCall {
            spender: ATTACKER_EVM.parse().expect("a valid address"),
            amount: U256::MAX,
        }
        .abi_encode(),
        Tamper::UndecodableCalldata => {
            let mut data = vec![0xde, 0xad, 0xbe, 0xef];
            data.extend_from_slice(&[0x11; 64]);
            data
        }
        Tamper::TxToTokenContract => {
            let token = quote
                .get("inputAmount")
                .and_then(|a| a["address"].as_str())
                .unwrap_or_default();
            if token.is_empty() || token.eq_ignore_ascii_case(gateway_client::wire::NATIVE_TOKEN) {
                return false;
            }
            tx["to"] = json!(token);
            return true;
        }
        Tamper::NativeValueAdded => {
            let value: U256 = tx["value"]
                .as_str()
                .and_then(|v| v.parse().ok())
                .unwrap_or_default();
            let added = U256::from(10u64).pow(U256::from(if tron { 6u8 } else { 18u8 }));
            tx["value"] = json!(value.saturating_add(added).to_string());
            return true;
        }
        Tamper::TronFeeLimit => {
            if !tron {
                return false;
            }
            tx["feeLimit"] = json!(ABSURD_TRON_FEE_LIMIT_SUN.to_string());
            return true;
        }
        _ => return false,
    };
    let prefix = if data_text.starts_with("0x") {
        "0x"
    } else {
        ""
    };
    tx["data"] = json!(format!("{prefix}{}", hex_string(&new_data)));
    true
}

/// The instructions of a compiled v0 message, with each account's signer and writable flags.
fn instructions_of(message: &v0::Message) -> Vec<Instruction> {
    let header = message.header;
    let keys = &message.account_keys;
    let signed = usize::from(header.num_required_signatures);
    let readonly_signed = usize::from(header.num_readonly_signed_accounts);
    let readonly_unsigned = usize::from(header.num_readonly_unsigned_accounts);
    let meta = |i: usize| {
        let is_signer = i < signed;
        let is_writable = if is_signer {
            i < signed.saturating_sub(readonly_signed)
        } else {
            i < keys.len().saturating_sub(readonly_unsigned)
        };
        AccountMeta {
            pubkey: keys[i],
            is_signer,
            is_writable,
        }
    };
    message
        .instructions
        .iter()
        .map(|ix| Instruction {
            program_id: keys[usize::from(ix.program_id_index)],
            accounts: ix.accounts.iter().map(|&a| meta(usize::from(a))).collect(),
            data: ix.data.clone(),
        })
        .collect()
}

fn tamper_solana(tamper: Tamper, tx: &mut Value) -> bool {
    let options = bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .reject_trailing_bytes();
    let Some(mut decoded) = tx["transaction"]
        .as_str()
        .and_then(|b| STANDARD.decode(b).ok())
        .and_then(|bytes| options.deserialize::<VersionedTransaction>(&bytes).ok())
    else {
        return false;
    };
    let VersionedMessage::V0(message) = &decoded.message else {
        return false;
    };
    let payer = message.account_keys[0];
    let mut instructions = instructions_of(message);
    let stranger = Pubkey::from_str(ATTACKER_SOLANA).expect("a valid key");
    let mut fee_payer = payer;
    match tamper {
        Tamper::SolanaExtraTransfer => {
            let mut data = 2u32.to_le_bytes().to_vec(); // SystemInstruction::Transfer
            data.extend_from_slice(&STOLEN_LAMPORTS.to_le_bytes());
            instructions.push(Instruction::new_with_bytes(
                Pubkey::default(), // the System Program, 1111…
                &data,
                vec![
                    AccountMeta::new(payer, true),
                    AccountMeta::new(stranger, false),
                ],
            ));
        }
        Tamper::SolanaFeePayer => fee_payer = stranger,
        Tamper::SolanaExtraSigner => {
            // The gateway's instruction is the last (after the deposit).
            let Some(gateway) = instructions.last_mut() else {
                return false;
            };
            gateway
                .accounts
                .push(AccountMeta::new_readonly(stranger, true));
        }
        Tamper::SolanaUnknownProgram => {
            instructions.push(Instruction::new_with_bytes(
                Pubkey::new_from_array([0x42; 32]),
                &[1, 2, 3],
                vec![AccountMeta::new(payer, false)],
            ));
        }
        _ => return false,
    }
    let Ok(message) = v0::Message::try_compile(
        &fee_payer,
        &instructions,
        &[],
        message.recent_blockhash.clone(),
    ) else {
        return false;
    };
    decoded.signatures =
        vec![Signature::default(); usize::from(message.header.num_required_signatures)];
    decoded.message = VersionedMessage::V0(message);
    let Ok(bytes) = options.serialize(&decoded) else {
        return false;
    };
    tx["transaction"] = json!(STANDARD.encode(bytes));
    true
}

fn hex_bytes(text: &str) -> Option<Vec<u8>> {
    alloy_primitives::hex::decode(text).ok()
}

fn hex_string(bytes: &[u8]) -> String {
    alloy_primitives::hex::encode(bytes)
}

/// Logs a tamper that did not apply to an answer (so a test can tell "refused" from "nothing was tampered").
pub(crate) fn not_applied(tamper: Tamper, what: &str) {
    debug!(tamper = %tamper.name(), what, "tamper does not apply to this answer");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tamper_has_a_name_that_reads_back() {
        for tamper in Tamper::ALL {
            let name = tamper.name();
            assert!(!name.is_empty());
            let back: Tamper = serde_json::from_value(json!(name)).unwrap();
            assert_eq!(back, tamper);
        }
        let quote_tampers = Tamper::ALL.iter().filter(|t| t.is_quote_tamper()).count();
        assert_eq!(quote_tampers, 9);
    }

    #[test]
    fn the_attackers_addresses_are_valid() {
        use gateway_client::address::{BitcoinNetwork, validate_address};
        validate_address("bob", ATTACKER_EVM, BitcoinNetwork::Mainnet).unwrap();
        validate_address("tron", ATTACKER_TRON, BitcoinNetwork::Mainnet).unwrap();
        validate_address("solana", ATTACKER_SOLANA, BitcoinNetwork::Mainnet).unwrap();
        validate_address(
            "bitcoin",
            &attacker_bitcoin(Network::Regtest),
            BitcoinNetwork::Regtest,
        )
        .unwrap();
    }
}
