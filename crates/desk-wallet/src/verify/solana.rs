//! Offramp and token-swap transactions from Solana: their check, what passed ([`SolanaTxSummary`]) and what the
//! window shows to sign ([`SolanaCall`]).

use std::str::FromStr;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bincode::Options as _;
use gateway_client::address::{ChainFamily, chain_family};
use gateway_client::chains::solana::SolanaTx;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use solana_message::VersionedMessage;
use solana_pubkey::Pubkey;
use solana_transaction::versioned::VersionedTransaction;
use ts_rs::TS;

use super::calldata::floor_out;
use super::to_sign::{number_text, text};
use super::{
    MAX_COMPUTE_UNIT_PRICE, MAX_PRIORITY_FEE_LAMPORTS, QuotedSource, VerifyError, VerifyPolicy,
};

/// The Compute Budget program.
const COMPUTE_BUDGET_PROGRAM: Pubkey =
    solana_pubkey::pubkey!("ComputeBudget111111111111111111111111111111");
/// The Associated Token Account program.
const ASSOCIATED_TOKEN_PROGRAM: Pubkey =
    solana_pubkey::pubkey!("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");
/// The compute-unit limit Solana applies per instruction when a transaction sets none.
const DEFAULT_UNITS_PER_INSTRUCTION: u64 = 200_000;
/// The most compute units a transaction may use.
const MAX_COMPUTE_UNITS: u64 = 1_400_000;

/// Solana's packet size: the largest serialized transaction the network accepts.
const PACKET_DATA_SIZE: u64 = 1232;

/// bincode as Solana uses it: fixed-width integers, little-endian, the packet size as limit, nothing left over.
pub(super) fn wire_options() -> impl bincode::Options {
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .with_limit(PACKET_DATA_SIZE)
        .reject_trailing_bytes()
}

/// A verified Solana transaction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "SolanaTxSummary.ts")]
pub struct SolanaTxSummary {
    /// Whether the gateway's own instruction was decoded and compared with the quote (always on the Sandbox); false
    /// when its layout is not public and blind signing let it through, labelled not decoded.
    #[serde(default = "decoded_before_issue_30")]
    pub gateway_decoded: bool,
    /// The fee payer and only signer: the quote's sender.
    pub fee_payer: String,
    /// The programs invoked, each once, in order of first use.
    pub programs: Vec<String>,
    /// How many instructions the transaction carries.
    pub instruction_count: u32,
    /// The recent blockhash (base58); a wallet may replace it before signing.
    pub recent_blockhash: String,
    /// The message version: `legacy`, `v0` or `v1`.
    pub version: String,
}

/// A Solana summary journaled before issue 30 was of a decoded instruction (nothing else passed then).
fn decoded_before_issue_30() -> bool {
    true
}

/// A Solana transaction to sign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "SolanaCall.ts")]
pub struct SolanaCall {
    /// The chain's slug (the order's source chain).
    pub chain: String,
    /// The chain id the gateway named, as text.
    pub chain_id: Option<String>,
    /// The unsigned transaction, base64, as the gateway sent it.
    pub transaction: String,
    /// Who pays the fee (verified).
    pub fee_payer: Option<String>,
    /// The programs the transaction calls (verified); empty when not verified.
    pub programs: Vec<String>,
    /// How many instructions it has (verified).
    pub instruction_count: Option<u32>,
    /// The blockhash it was built on (verified).
    pub recent_blockhash: Option<String>,
    /// Its message version (`legacy`, `v0`) (verified).
    pub version: Option<String>,
    /// Whether the gateway's own instruction was decoded and compared with the quote (verified); false when its
    /// layout is not public and blind signing let it through.
    pub gateway_decoded: Option<bool>,
}

/// The Solana transaction `tx` (the create-order answer's `tx` object) asks to be signed on `send_chain`, with what
/// verification found (`summary`).
pub(super) fn call_to_sign(
    tx: &Map<String, Value>,
    summary: Option<&SolanaTxSummary>,
    send_chain: &str,
) -> Option<SolanaCall> {
    let transaction = text(tx.get("transaction"))?;
    let s = summary;
    Some(SolanaCall {
        chain: send_chain.to_owned(),
        chain_id: number_text(tx.get("chainId")),
        transaction,
        fee_payer: s.map(|s| s.fee_payer.clone()),
        programs: s.map(|s| s.programs.clone()).unwrap_or_default(),
        instruction_count: s.map(|s| s.instruction_count),
        recent_blockhash: s.map(|s| s.recent_blockhash.clone()),
        version: s.map(|s| s.version.clone()),
        gateway_decoded: s.map(|s| s.gateway_decoded),
    })
}

/// Why a Solana transaction was refused, beyond what every family's call can be refused for ([`VerifyError`]): one
/// complete sentence per reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Off the Sandbox, the gateway's Solana instruction is of no layout the app knows, the transaction is not run on
    /// the chain here (another wallet signs it), and blind signing is off.
    #[error(
        "The gateway's Solana transaction calls its program {program} with an instruction the app cannot decode (the \
         program's layout is not public), and here nothing runs it on the chain before you sign. Sign it with the \
         app's wallet (which runs it first), or, if you trust this gateway, with blind signing turned on for this \
         network; the fee payer, the signer, the compute budget and every other instruction are checked either way."
    )]
    NotDecoded {
        /// The gateway's program.
        program: String,
    },
    /// The Solana transaction cannot be decoded or fails Solana's sanity checks.
    #[error(
        "The gateway's Solana transaction cannot be read ({reason}). Do not sign it; ask for a new quote."
    )]
    Unreadable {
        /// What went wrong.
        reason: String,
    },
    /// A Solana order without a sender in the quote: the fee payer cannot be checked.
    #[error(
        "The quote names no sender, so the fee payer of the gateway's Solana transaction cannot be checked. \
         Do not sign it; ask for a new quote with your address as sender."
    )]
    NoSender,
    /// The fee payer is not the quote's sender.
    #[error(
        "The gateway's Solana transaction is paid for by {fee_payer}, but the quote's sender is {sender}. \
         Do not sign it; ask for a new quote."
    )]
    WrongFeePayer {
        /// Account key 0 of the message.
        fee_payer: String,
        /// The quote's sender.
        sender: String,
    },
    /// The transaction requires more than one signature (or none).
    #[error(
        "The gateway's Solana transaction asks for {required} signatures ({}), not only yours. \
         Do not sign it; ask for a new quote.",
        signers.join(", ")
    )]
    ExtraSigner {
        /// How many signatures the message requires.
        required: u8,
        /// The accounts that must sign.
        signers: Vec<String>,
    },
    /// A signature slot is already filled.
    #[error(
        "The gateway's Solana transaction already carries a signature (slot {slot}); an order's transaction comes \
         unsigned. Do not sign it; ask for a new quote."
    )]
    PreSigned {
        /// The filled slot.
        slot: usize,
    },
    /// The quote's program is not invoked.
    #[error(
        "The gateway's Solana transaction does not call the quote's program {program} (it calls {}). \
         Do not sign it; ask for a new quote.",
        if called.is_empty() { "no program".to_owned() } else { called.join(", ") }
    )]
    ProgramNotQuoted {
        /// The quote's `txTo`.
        program: String,
        /// The programs the transaction invokes.
        called: Vec<String>,
    },
    /// An instruction of a program the order has no business calling, or of an unexpected kind.
    #[error(
        "The gateway's Solana transaction also carries an instruction the order does not need ({what}). \
         Do not sign it; ask for a new quote."
    )]
    UnexpectedInstruction {
        /// The instruction, described.
        what: String,
    },
    /// The transaction uses address lookup tables, whose accounts cannot be checked offline.
    #[error(
        "The gateway's Solana transaction names accounts through address lookup tables, which the app cannot resolve \
         to check them. Do not sign it; ask for a new quote."
    )]
    LookupTables,
    /// The gateway instruction differs from the quote.
    #[error(
        "The gateway's Solana instruction differs from the quote: {difference}. Do not sign it; ask for a new quote."
    )]
    InstructionDiffers {
        /// What differs, a clause.
        difference: String,
    },
    /// The priority fee is above the cap.
    #[error(
        "The gateway's Solana transaction sets a priority fee of up to {lamports} lamports, above the {cap} this app \
         accepts. Do not sign it; ask for a new quote."
    )]
    PriorityFeeTooHigh {
        /// The priority fee, lamports.
        lamports: u64,
        /// The cap.
        cap: u64,
    },
}

/// Checks a Solana transaction against the quote's source side.
pub(super) fn verify(
    source: &QuotedSource,
    tx: &SolanaTx,
    policy: &VerifyPolicy,
) -> Result<SolanaTxSummary, VerifyError> {
    if chain_family(&source.chain).is_some_and(|family| family != ChainFamily::Solana) {
        return Err(VerifyError::WrongTxKind {
            chain: source.chain.clone(),
            found: "a Solana transaction",
        });
    }
    let sender = source
        .sender
        .as_deref()
        .ok_or(VerifyError::from(Refusal::NoSender))?;
    let sender_key = Pubkey::from_str(sender.trim()).map_err(|_| VerifyError::QuoteUnreadable {
        field: "sender",
        value: sender.to_owned(),
    })?;
    let program =
        Pubkey::from_str(source.tx_to.trim()).map_err(|_| VerifyError::QuoteUnreadable {
            field: "txTo",
            value: source.tx_to.clone(),
        })?;

    let unreadable = |reason: String| VerifyError::from(Refusal::Unreadable { reason });
    let bytes = STANDARD
        .decode(tx.transaction.trim())
        .map_err(|e| unreadable(format!("not base64: {e}")))?;
    let decoded: VersionedTransaction = wire_options()
        .deserialize(&bytes)
        .map_err(|e| unreadable(format!("not a Solana transaction: {e}")))?;
    decoded
        .sanitize()
        .map_err(|e| unreadable(format!("it fails Solana's sanity checks: {e}")))?;

    let message = &decoded.message;
    let keys = message.static_account_keys();
    let fee_payer = keys
        .first()
        .ok_or_else(|| unreadable("it names no account".to_owned()))?;
    if *fee_payer != sender_key {
        return Err(VerifyError::from(Refusal::WrongFeePayer {
            fee_payer: fee_payer.to_string(),
            sender: sender.to_owned(),
        }));
    }
    let required = message.header().num_required_signatures;
    if required != 1 {
        return Err(VerifyError::from(Refusal::ExtraSigner {
            required,
            signers: keys
                .iter()
                .take(usize::from(required))
                .map(ToString::to_string)
                .collect(),
        }));
    }
    if let Some(slot) = decoded
        .signatures
        .iter()
        .position(|signature| signature.as_ref().iter().any(|&b| b != 0))
    {
        return Err(VerifyError::from(Refusal::PreSigned { slot }));
    }

    if message
        .address_table_lookups()
        .is_some_and(|lookups| !lookups.is_empty())
    {
        return Err(VerifyError::from(Refusal::LookupTables));
    }
    if matches!(
        policy.contracts,
        super::GatewayContracts::Sandbox | super::GatewayContracts::SandboxProductionShape
    ) {
        let expected = gateway_payload::sandbox::gateway_contract("solana");
        if program.to_string() != expected {
            return Err(VerifyError::NotTheGatewayContract {
                found: program.to_string(),
                expected,
            });
        }
    }
    let instructions = resolve(message)?;
    let mut programs: Vec<String> = Vec::new();
    for ix in &instructions {
        let id = ix.program.to_string();
        if !programs.contains(&id) {
            programs.push(id);
        }
    }
    let gateway: Vec<&Resolved> = instructions
        .iter()
        .filter(|ix| ix.program == program)
        .collect();
    let [gateway] = gateway.as_slice() else {
        if gateway.is_empty() {
            return Err(VerifyError::from(Refusal::ProgramNotQuoted {
                program: source.tx_to.clone(),
                called: programs,
            }));
        }
        return Err(VerifyError::from(Refusal::UnexpectedInstruction {
            what: format!("{} calls of the gateway program", gateway.len()),
        }));
    };
    // Off the Sandbox the gateway's program and its instruction layout are not public: an instruction of no layout
    // the app knows is let through labelled not decoded, and then nothing else may move anything (no deposit of the
    // Sandbox's layout, no other program but the compute budget and the creation of a token account the gateway's
    // instruction itself names). What it moves is for the chain's simulation before signing (crate::simulate), which
    // refuses anything beyond the quote's input, the fee and the rent leaving the wallet. The Sandbox's own
    // instruction is always decoded.
    let not_public = policy.contracts == super::GatewayContracts::Published
        && gateway_payload::solana::gateway_instruction_min_out(&gateway.data).is_none();
    let (expected, deposit, decoded) = if not_public {
        if !policy.simulated && !policy.blind_signing {
            return Err(VerifyError::from(Refusal::NotDecoded {
                program: source.tx_to.trim().to_owned(),
            }));
        }
        let accounts: Vec<Pubkey> = gateway.accounts.iter().map(|(key, _, _)| *key).collect();
        (accounts, None, false)
    } else {
        (
            expected_instruction(source, sender, gateway)?,
            expected_deposit(source, sender)?,
            true,
        )
    };
    let mut deposited = false;
    let mut units: Option<u64> = None;
    let mut price: u64 = 0;
    for ix in &instructions {
        if ix.program == program {
            continue;
        }
        // At most one deposit, exactly the quoted amount from the sender to the gateway's vault.
        if !deposited && deposit.as_ref() == Some(ix) {
            deposited = true;
            continue;
        }
        if ix.program == COMPUTE_BUDGET_PROGRAM {
            match ix.data.split_first() {
                Some((2, rest)) if rest.len() == 4 => {
                    let limit = u32::from_le_bytes(rest.try_into().expect("4 bytes"));
                    units = Some(u64::from(limit).min(MAX_COMPUTE_UNITS));
                }
                Some((3, rest)) if rest.len() == 8 => {
                    price = u64::from_le_bytes(rest.try_into().expect("8 bytes"));
                }
                _ => {
                    return Err(VerifyError::from(Refusal::UnexpectedInstruction {
                        what: "a compute-budget instruction other than a unit limit or price"
                            .into(),
                    }));
                }
            }
            continue;
        }
        if ix.program == ASSOCIATED_TOKEN_PROGRAM {
            // Only the idempotent creation of a token account the gateway instruction itself uses, paid by the
            // sender, for the source mint.
            let expected_accounts = &expected;
            let ok = ix.data == [1]
                && ix.accounts.len() == 6
                && ix.accounts[0].0 == sender_key
                && expected_accounts.contains(&ix.accounts[1].0)
                && ix.accounts[1].0 != sender_key
                && expected_accounts.contains(&ix.accounts[3].0);
            if !ok {
                return Err(VerifyError::from(Refusal::UnexpectedInstruction {
                    what: "an associated-token-account instruction that is not the idempotent creation of an account \
                           the order uses"
                        .into(),
                }));
            }
            continue;
        }
        return Err(VerifyError::from(Refusal::UnexpectedInstruction {
            what: format!("a call of the program {}", ix.program),
        }));
    }
    let count = u64::try_from(instructions.len()).unwrap_or(u64::MAX);
    let units = units.unwrap_or(
        DEFAULT_UNITS_PER_INSTRUCTION
            .saturating_mul(count)
            .min(MAX_COMPUTE_UNITS),
    );
    let lamports =
        u64::try_from(u128::from(units) * u128::from(price) / 1_000_000).unwrap_or(u64::MAX);
    if price > MAX_COMPUTE_UNIT_PRICE || lamports > MAX_PRIORITY_FEE_LAMPORTS {
        return Err(VerifyError::from(Refusal::PriorityFeeTooHigh {
            lamports,
            cap: MAX_PRIORITY_FEE_LAMPORTS,
        }));
    }
    Ok(SolanaTxSummary {
        gateway_decoded: decoded,
        fee_payer: fee_payer.to_string(),
        programs,
        instruction_count: u32::try_from(message.instructions().len()).unwrap_or(u32::MAX),
        recent_blockhash: message.recent_blockhash().to_string(),
        version: match message {
            VersionedMessage::Legacy(_) => "legacy",
            VersionedMessage::V0(_) => "v0",
            VersionedMessage::V1(_) => "v1",
        }
        .to_owned(),
    })
}

/// An instruction with its accounts resolved to keys and their signer and writable flags.
#[derive(Debug, PartialEq, Eq)]
struct Resolved {
    program: Pubkey,
    /// (key, signer, writable)
    accounts: Vec<(Pubkey, bool, bool)>,
    data: Vec<u8>,
}

/// Every instruction of `message`, its accounts resolved (static keys only: lookup tables are refused before).
fn resolve(message: &VersionedMessage) -> Result<Vec<Resolved>, VerifyError> {
    let keys = message.static_account_keys();
    let header = message.header();
    let signed = usize::from(header.num_required_signatures);
    let readonly_signed = usize::from(header.num_readonly_signed_accounts);
    let readonly_unsigned = usize::from(header.num_readonly_unsigned_accounts);
    let writable = |i: usize| {
        if i < signed {
            i < signed.saturating_sub(readonly_signed)
        } else {
            i < keys.len().saturating_sub(readonly_unsigned)
        }
    };
    let key = |index: u8| {
        keys.get(usize::from(index)).copied().ok_or_else(|| {
            VerifyError::from(Refusal::Unreadable {
                reason: format!("account index {index} is beyond its account keys"),
            })
        })
    };
    message
        .instructions()
        .iter()
        .map(|ix| {
            Ok(Resolved {
                program: key(ix.program_id_index)?,
                accounts: ix
                    .accounts
                    .iter()
                    .map(|&i| Ok((key(i)?, usize::from(i) < signed, writable(usize::from(i)))))
                    .collect::<Result<_, VerifyError>>()?,
                data: ix.data.clone(),
            })
        })
        .collect()
}

/// The deposit the quote calls for (gateway-sim's layout: the quoted amount moved from the sender to the gateway's
/// vault, [`gateway_payload::solana::deposit_instruction`]), when it can be built.
fn expected_deposit(source: &QuotedSource, sender: &str) -> Result<Option<Resolved>, VerifyError> {
    let amount = gateway_client::amount::parse_base_units(source.amount.trim()).map_err(|_| {
        VerifyError::QuoteUnreadable {
            field: "inputAmount.amount",
            value: source.amount.clone(),
        }
    })?;
    Ok(gateway_payload::solana::deposit_instruction(
        source.tx_to.trim(),
        sender.trim(),
        source.token.trim(),
        amount,
    )
    .ok()
    .map(|ix| Resolved {
        program: ix.program_id,
        accounts: ix
            .accounts
            .iter()
            .map(|meta| (meta.pubkey, meta.is_signer, meta.is_writable))
            .collect(),
        data: ix.data,
    }))
}

/// The gateway instruction the quote calls for, built with the instruction's own minimum output once that is checked
/// to be at least the quote's output less slippage; then compared with the transaction's, account by account.
/// Returns the accounts the gateway instruction uses.
fn expected_instruction(
    source: &QuotedSource,
    sender: &str,
    found: &Resolved,
) -> Result<Vec<Pubkey>, VerifyError> {
    let differs =
        |difference: String| VerifyError::from(Refusal::InstructionDiffers { difference });
    let min_out = gateway_payload::solana::gateway_instruction_min_out(&found.data)
        .ok_or_else(|| differs("its data is of no gateway function the app knows".into()))?;
    let floor = floor_out(source)?;
    if min_out < floor {
        return Err(VerifyError::MinimumBelowQuote {
            found: min_out.to_string(),
            floor: floor.to_string(),
        });
    }
    let amount = gateway_client::amount::parse_base_units(source.amount.trim()).map_err(|_| {
        VerifyError::QuoteUnreadable {
            field: "inputAmount.amount",
            value: source.amount.clone(),
        }
    })?;
    let expected = gateway_payload::solana::gateway_instruction(
        &source.order_id,
        source.tx_to.trim(),
        sender.trim(),
        source.token.trim(),
        amount,
        &source.dst_chain,
        &source.dst_token,
        &source.recipient,
        min_out,
    )
    .map_err(|e| differs(format!("the quote's own instruction cannot be built ({e})")))?;
    if found.data != expected.data {
        return Err(differs(
            "its order id, amount, destination, token or recipient is not the quote's".into(),
        ));
    }
    let wanted: Vec<(Pubkey, bool, bool)> = expected
        .accounts
        .iter()
        .map(|meta| (meta.pubkey, meta.is_signer, meta.is_writable))
        .collect();
    if found.accounts != wanted {
        return Err(differs(
            "its accounts (who pays, the vault, the token accounts) are not the ones the quote calls for".into(),
        ));
    }
    Ok(wanted.into_iter().map(|(key, _, _)| key).collect())
}

/// The sentence of a verified Solana transaction.
pub(super) fn sentence(summary: &SolanaTxSummary) -> String {
    let count = summary.instruction_count;
    format!(
        "A Solana {} transaction paid and signed by {} alone, calling {} in {count} instruction{}.{}",
        summary.version,
        summary.fee_payer,
        summary.programs.join(", "),
        if count == 1 { "" } else { "s" },
        if summary.gateway_decoded {
            ""
        } else {
            " NOT DECODED: the gateway's own instruction is not decoded (its layout is not public); before the app's \
             wallet signs it, the chain's simulation shows what it moves, and anything beyond the quote refuses it."
        },
    )
}
