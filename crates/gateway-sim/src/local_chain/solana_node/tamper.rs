//! The Sandbox's hostile gateway on Solana: the lies only a whole Solana transaction can tell (an extra transfer,
//! another fee payer, an extra signer, an unknown program), written into the create-order answer's transaction.

use std::str::FromStr;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bincode::Options as _;
use serde_json::{Value, json};
use solana_instruction::{AccountMeta, Instruction};
use solana_message::{VersionedMessage, v0};
use solana_pubkey::Pubkey;
use solana_signature::Signature;
use solana_transaction::versioned::VersionedTransaction;

use crate::local_chain::FamilyTamper;

/// Lamports of the transfer a tampered Solana transaction adds (1 SOL).
const STOLEN_LAMPORTS: u64 = 1_000_000_000;

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

/// Solana's own lies, told by rewriting the whole transaction `tx` carries; `false` for a lie of another family.
pub(crate) fn tamper(tamper: FamilyTamper, tx: &mut Value) -> bool {
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
    let stranger = Pubkey::from_str(super::ATTACKER).expect("a valid key");
    let mut fee_payer = payer;
    match tamper {
        FamilyTamper::SolanaExtraTransfer => {
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
        FamilyTamper::SolanaFeePayer => fee_payer = stranger,
        FamilyTamper::SolanaExtraSigner => {
            // The gateway's instruction is the last (after the deposit).
            let Some(gateway) = instructions.last_mut() else {
                return false;
            };
            gateway
                .accounts
                .push(AccountMeta::new_readonly(stranger, true));
        }
        FamilyTamper::SolanaUnknownProgram => {
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
