//! Offramp and token-swap transactions from Solana.

use std::str::FromStr;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bincode::Options as _;
use gateway_client::address::{ChainFamily, chain_family};
use gateway_client::wire::SolanaTx;
use solana_message::VersionedMessage;
use solana_pubkey::Pubkey;
use solana_transaction::versioned::VersionedTransaction;

use super::{QuotedSource, SolanaTxSummary, VerifyError};

/// Solana's packet size: the largest serialized transaction the network accepts.
const PACKET_DATA_SIZE: u64 = 1232;

/// bincode as Solana uses it: fixed-width integers, little-endian, the packet size as limit, nothing left over.
pub(super) fn wire_options() -> impl bincode::Options {
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .with_limit(PACKET_DATA_SIZE)
        .reject_trailing_bytes()
}

/// Checks a Solana transaction against the quote's source side.
pub(super) fn verify(source: &QuotedSource, tx: &SolanaTx) -> Result<SolanaTxSummary, VerifyError> {
    if chain_family(&source.chain).is_some_and(|family| family != ChainFamily::Solana) {
        return Err(VerifyError::WrongTxKind {
            chain: source.chain.clone(),
            found: "a Solana transaction",
        });
    }
    let sender = source
        .sender
        .as_deref()
        .ok_or(VerifyError::SolanaNoSender)?;
    let sender_key = Pubkey::from_str(sender.trim()).map_err(|_| VerifyError::QuoteUnreadable {
        field: "sender",
        value: sender.to_owned(),
    })?;
    let program =
        Pubkey::from_str(source.tx_to.trim()).map_err(|_| VerifyError::QuoteUnreadable {
            field: "txTo",
            value: source.tx_to.clone(),
        })?;

    let unreadable = |reason: String| VerifyError::SolanaUnreadable { reason };
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
        return Err(VerifyError::WrongFeePayer {
            fee_payer: fee_payer.to_string(),
            sender: sender.to_owned(),
        });
    }
    let required = message.header().num_required_signatures;
    if required != 1 {
        return Err(VerifyError::ExtraSigner {
            required,
            signers: keys
                .iter()
                .take(usize::from(required))
                .map(ToString::to_string)
                .collect(),
        });
    }
    if let Some(slot) = decoded
        .signatures
        .iter()
        .position(|signature| signature.as_ref().iter().any(|&b| b != 0))
    {
        return Err(VerifyError::PreSigned { slot });
    }

    let mut programs: Vec<String> = Vec::new();
    for instruction in message.instructions() {
        let id = keys
            .get(usize::from(instruction.program_id_index))
            .ok_or_else(|| {
                unreadable("it calls a program named in an address lookup table".to_owned())
            })?
            .to_string();
        if !programs.contains(&id) {
            programs.push(id);
        }
    }
    if !programs.contains(&program.to_string()) {
        return Err(VerifyError::ProgramNotQuoted {
            program: source.tx_to.clone(),
            called: programs,
        });
    }
    Ok(SolanaTxSummary {
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

/// The sentence of a verified Solana transaction.
pub(super) fn sentence(summary: &SolanaTxSummary) -> String {
    let count = summary.instruction_count;
    format!(
        "A Solana {} transaction paid and signed by {} alone, calling {} in {count} instruction{}.",
        summary.version,
        summary.fee_payer,
        summary.programs.join(", "),
        if count == 1 { "" } else { "s" },
    )
}
