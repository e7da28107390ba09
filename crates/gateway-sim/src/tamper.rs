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
use bitcoin::psbt::Psbt;
use bitcoin::{Amount, ScriptBuf};
use gateway_client::ApiVersion;
use gateway_client::address::{ChainFamily, chain_family};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tracing::debug;

use crate::local_chain;
pub use crate::local_chain::FamilyTamper;
use crate::payload::Network;
use crate::payload::evm::IGatewaySim;
use crate::payload::testkit::TestWallet;

alloy_sol_types::sol! {
    /// The ERC-20 calls a hostile gateway might slip in as the main call.
    interface IErc20Tamper {
        function approve(address spender, uint256 amount) external returns (bool);
    }
}

pub use crate::evm_node::ATTACKER_EVM;
/// Bitcoin's dust limit for a P2WPKH output, in sats: a tampered change output stays above it.
const DUST_SATS: u64 = 294;

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
    /// A lie only one added family's transactions can tell (its fee limit, its whole transaction), named as the
    /// admin interface takes it: the Sandbox's family registry lists them ([`FamilyTamper`]).
    #[serde(untagged)]
    Family(FamilyTamper),
}

/// The tampers every family's answers can carry, quote tampers first; [`Tamper::ALL`] adds the families' own.
const GENERAL: [Tamper; 21] = [
    Tamper::QuoteRecipient,
    Tamper::QuoteSender,
    Tamper::QuoteOwner,
    Tamper::QuoteRefund,
    Tamper::QuoteToken,
    Tamper::QuoteInputAmount,
    Tamper::QuoteOutputOnePercent,
    Tamper::QuoteSlippage,
    Tamper::QuoteAffiliate,
    Tamper::PsbtPaysStranger,
    Tamper::PsbtChangeToFee,
    Tamper::PsbtHugeFee,
    Tamper::OpReturnMismatch,
    Tamper::CalldataAmountTimesTen,
    Tamper::CalldataRecipient,
    Tamper::ApproveAttacker,
    Tamper::TxToTokenContract,
    Tamper::UndecodableCalldata,
    Tamper::NativeValueAdded,
    Tamper::EntrySwapped,
    Tamper::OddLengthCalldata,
];

/// [`GENERAL`], then every family's own.
const fn all() -> [Tamper; GENERAL.len() + FamilyTamper::ALL.len()] {
    let mut all = [Tamper::QuoteRecipient; GENERAL.len() + FamilyTamper::ALL.len()];
    let mut i = 0;
    while i < GENERAL.len() {
        all[i] = GENERAL[i];
        i += 1;
    }
    let mut j = 0;
    while j < FamilyTamper::ALL.len() {
        all[GENERAL.len() + j] = Tamper::Family(FamilyTamper::ALL[j]);
        j += 1;
    }
    all
}

impl Tamper {
    /// Every tamper that any shape of order can be refused for before anything is shown to sign, quote tampers
    /// first ([`Tamper::SIMULATED`] are not among them).
    pub const ALL: [Tamper; GENERAL.len() + FamilyTamper::ALL.len()] = all();

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
        family => local_chain::attacker(family.unwrap_or(ChainFamily::Evm)).to_owned(),
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
                family => local_chain::attacker(family.unwrap_or(ChainFamily::Evm)).to_owned(),
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
    let own = match tamper {
        Tamper::Family(own) => Some(own),
        _ => None,
    };
    if let Some(applied) = local_chain::tamper_tx(own, tx) {
        return applied;
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

/// An address of the calls' 20 bytes: EVM text, or the 20-byte body of an account of a family whose calls are EVM
/// calls (Tron's).
fn call_address(text: &str) -> Option<Address> {
    text.parse::<Address>().ok().or_else(|| {
        ChainFamily::ALL
            .into_iter()
            .find_map(|f| f.call_body(text))
            .map(Address::from)
    })
}

/// The production shape's `exec` answers, rewritten: its amount ten times (the decoding refuses it), or its inner
/// call replaced by the gateway contract's `tampered` (the simulation refuses it).
fn tamper_exec(tamper: Tamper, data: &[u8], attacker: &str, chain: &str) -> Option<Vec<u8>> {
    use crate::payload::evm::{IAllowanceHolderExec, IGatewaySimViaHolder};
    let mut exec = IAllowanceHolderExec::execCall::abi_decode(data).ok()?;
    let attacker = call_address(attacker)?;
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
    let chain = local_chain::tx_chain(tx)
        .or_else(|| quote.get("inputAmount").and_then(|a| a["chain"].as_str()))
        .unwrap_or_default()
        .to_owned();
    let family = chain_family(&chain).unwrap_or(ChainFamily::Evm);
    let attacker = local_chain::attacker(family);
    let is_exec =
        data.get(..4) == Some(&crate::payload::evm::IAllowanceHolderExec::execCall::SELECTOR[..]);
    if is_exec && let Some(new_data) = tamper_exec(tamper, &data, attacker, &chain) {
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
            tx["to"] = json!(attacker);
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
            let added = U256::from(10u64).pow(U256::from(local_chain::native_decimals(family)));
            tx["value"] = json!(value.saturating_add(added).to_string());
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
        for family in ChainFamily::ALL {
            if family != ChainFamily::Bitcoin {
                let attacker = local_chain::attacker(family);
                validate_address(family.first_chain(), attacker, BitcoinNetwork::Mainnet).unwrap();
            }
        }
        validate_address(
            "bitcoin",
            &attacker_bitcoin(Network::Regtest),
            BitcoinNetwork::Regtest,
        )
        .unwrap();
    }
}
