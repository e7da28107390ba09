//! The app's own check of what the gateway asks the user to sign, made **before** anything is signed.
//!
//! The official SDK trusts the create-order answer blindly. Gateway Desk does not: [`verify_order`] compares the
//! answer with the quote the user accepted and refuses, with a sentence a person understands ([`VerifyError`]'s
//! `Display`), anything that does not match. What passes comes back as a [`Verified`] summary for the window to show
//! next to the "sign" button.
//!
//! # The rules
//!
//! **Onramp** (Bitcoin in):
//! - the deposit `address` is a valid Bitcoin address of the gateway's network;
//! - `op_return_data`, when given, is hex of at most [`MAX_OP_RETURN_BYTES`] bytes (an empty string counts as absent);
//! - a quote with a `sender` must come back with a PSBT, and a PSBT without a `sender` is refused (nothing says whose
//!   coins it spends); without either the user pays the address from their own wallet;
//! - the PSBT (version 0, hex) pays the deposit address in exactly one output of exactly the quoted `inputAmount`
//!   (sats); carries exactly one OP_RETURN output, of value 0, whose single push is `op_return_data` (when given;
//!   otherwise only zero-value OP_RETURN outputs are tolerated); every other output pays the sender's own script
//!   (change); every input's previous output (from `witness_utxo`, or `non_witness_utxo` whose txid must be the
//!   outpoint's) pays the sender's script; no input asks for a sighash type other than `ALL` (or Taproot's default),
//!   since `NONE` or `SINGLE` would let the outputs be changed after signing; and the fee (inputs − outputs) is
//!   neither negative nor above [`fee_cap_sats`]: the larger of [`FEE_CAP_FLOOR_SATS`] and [`FEE_CAP_PERCENT`] % of
//!   the amount. An input whose previous output is not given is refused: the fee could not be known.
//!
//! **Offramp and token swap** (a call to sign):
//! - the transaction kind fits the quote's source chain (an EVM call for an EVM chain, a Tron call for Tron, a Solana
//!   transaction for Solana), and an EVM or Tron call names the quote's source chain;
//! - EVM and Tron: `to` is the quote's `txTo` (V1: its `tx.to`), compared as addresses (EVM without regard to case;
//!   Tron Base58Check, or the `41…` hex form of the same account); `value` is exactly the quoted input amount when
//!   the source token is the chain's native token and `0` otherwise; `data` is `0x` hex of at least one byte (Tron's
//!   may omit the `0x`);
//! - Tron: `feeLimit` is a whole number of sun no larger than [`TRON_FEE_LIMIT_CAP_SUN`];
//! - Solana: the base64 bincode `VersionedTransaction` passes Solana's sanity checks; its fee payer (account key 0)
//!   is the quote's `sender`; it requires exactly one signature (the sender's); every signature slot is empty; and
//!   the quote's `txTo` is among the programs it invokes; besides the gateway's one instruction it may hold only
//!   compute-budget instructions, the idempotent creation of a token account the order uses, and at most one deposit
//!   of exactly the quoted amount from the sender to the gateway's vault (an SPL `Transfer` between their token
//!   accounts, or a System `Transfer` of SOL).
//!
//! After signing, [`check_signed_onramp_tx`] checks that the Bitcoin transaction the user pastes back is the one that
//! was verified.
//!
//! # Limits of the check
//!
//! The amounts inside calldata (ERC-20 and Tron token amounts, minimum outputs, recipients) and inside Solana
//! instruction data are contract-specific and not decoded: for those, the check is that the call goes to the quoted
//! contract or program and moves no native value the quote does not state.
//!
//! # Where each part is
//!
//! The rules of each kind of payload: `onramp` (the Bitcoin deposit and its PSBT), `call` (EVM and Tron calls, with
//! `calldata` decoding what they call), `solana` (a Solana transaction), each checked against the quote's source side
//! (`source`); `request` checks the quote against what was asked. What passed is summarized in `summary`, refused
//! with a sentence in `error`, amounts written as text by `text`; `policy` says how strict a network is.

mod call;
pub(crate) mod calldata;
mod error;
mod onramp;
mod policy;
pub mod request;
mod solana;
mod source;
mod summary;
#[cfg(test)]
mod tests;
mod text;
pub mod to_sign;
mod tron;

use gateway_client::address::BitcoinNetwork;
use gateway_client::chains::FamilyTx;
use gateway_client::wire::{CreateOrderResponse, OrderTx, Quote, QuoteView, TxData};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub use calldata::{DecodedCall, EXEC_SELECTOR, EntryCall};
use error::first_sentence;
pub use error::{TxSubject, VerifyError};
pub use onramp::{check_signed_onramp_tx, wallet_deposit_vsize};
pub use policy::{GatewayContracts, SANDBOX_FEE_RATE_SAT_VB, VerifyPolicy};
pub use solana::{SolanaCall, SolanaTxSummary};
use source::QuotedSource;
pub use summary::{
    CallSummary, EvmCallSummary, OnrampSummary, OutputKind, PsbtInputSummary, PsbtOutputSummary,
    PsbtSummary, Verified, VerifiedPayload,
};
pub(crate) use text::btc_text;
pub use text::percent;
use text::{native_value_text, trx_text};
pub use tron::{TronCall, TronCallSummary};

/// The largest OP_RETURN payload accepted, in bytes (Bitcoin Core's standardness limit for the pushed data).
pub const MAX_OP_RETURN_BYTES: usize = 80;
/// The fee cap of an onramp PSBT never goes below this many sats.
pub const FEE_CAP_FLOOR_SATS: u64 = 50_000;
/// The fee cap of an onramp PSBT is at least this percentage of the quoted amount.
pub const FEE_CAP_PERCENT: u64 = 10;
/// The highest Tron `feeLimit` accepted, in sun: 300 TRX. A gateway call burns energy for one token transfer and
/// the contract's bookkeeping (the Sandbox asks for 100 TRX, roughly three times what such a call costs at today's
/// energy price); more is never needed for this call and is what a hostile gateway would ask to drain TRX.
pub const TRON_FEE_LIMIT_CAP_SUN: u64 = 300_000_000;
/// A PSBT fee above this share of the amount, in bps (2 %), must be accepted in numbers before signing.
pub const FEE_CONFIRM_BPS: u64 = 200;
/// The highest Bitcoin fee rate accepted in an onramp PSBT is this many times the network's current fast rate.
pub const FEE_RATE_HEADROOM: u64 = 3;
/// The fee rate ceiling, in sat/vB, on a network with no fee source the app reads (production, staging, custom).
pub const DEFAULT_MAX_FEE_RATE_SAT_VB: u64 = 500;
/// The highest compute-unit price a Solana transaction may set, in micro-lamports per compute unit.
pub const MAX_COMPUTE_UNIT_PRICE: u64 = 5_000_000;
/// The highest priority fee a Solana transaction may pay (compute-unit limit × price), in lamports: 0.005 SOL.
pub const MAX_PRIORITY_FEE_LAMPORTS: u64 = 5_000_000;

/// What passed the check of a transaction of a family the gateway added after EVM: the family's own summary, tagged
/// by `type` as the other entries of [`VerifiedPayload`] are (and journaled so). A family added is one more variant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
#[ts(export_to = "FamilySummary.ts")]
#[allow(clippy::large_enum_variant)] // one per order, by value as VerifiedPayload's other entries (whose sizes match)
pub enum FamilySummary {
    /// A Tron contract call.
    Tron(TronCallSummary),
    /// A Solana transaction.
    Solana(SolanaTxSummary),
}

impl FamilySummary {
    /// The family's `type` in the gateway's transaction union (and [`to_sign::CallToSign`]'s `kind`).
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Tron(_) => "tron",
            Self::Solana(_) => "solana",
        }
    }
}

/// Why a transaction of a family the gateway added after EVM was refused, beyond what every family's can be: the
/// family's own reasons, each a complete sentence ([`VerifyError::Family`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FamilyRefusal {
    /// Tron's: its fee limit.
    #[error(transparent)]
    Tron(tron::Refusal),
    /// Solana's: its fee payer, signers, programs and instructions.
    #[error(transparent)]
    Solana(solana::Refusal),
}

impl From<tron::Refusal> for VerifyError {
    fn from(refusal: tron::Refusal) -> Self {
        Self::Family(FamilyRefusal::Tron(refusal))
    }
}

impl From<solana::Refusal> for VerifyError {
    fn from(refusal: solana::Refusal) -> Self {
        Self::Family(FamilyRefusal::Solana(refusal))
    }
}

/// The transaction of a family the gateway added after EVM, as the window shows it to sign with another wallet,
/// tagged by `kind` as [`to_sign::CallToSign`]'s other entries are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[ts(export_to = "FamilyCall.ts")]
#[allow(clippy::large_enum_variant)] // one per order shown, by value as CallToSign's other entry (its size)
pub enum FamilyCall {
    /// A Tron contract call.
    Tron(TronCall),
    /// A Solana transaction.
    Solana(SolanaCall),
}

/// The call of an added family whose `kind` (the answer's `type`) is `kind`, read from the create-order answer's
/// `tx` with what verification found (`payload`); `None` when `kind` is no added family's (an EVM call), `Some(None)`
/// when the answer lacks what the family's call needs.
pub(crate) fn family_call_to_sign(
    kind: &str,
    tx: &serde_json::Map<String, serde_json::Value>,
    payload: Option<&VerifiedPayload>,
    send_chain: &str,
) -> Option<Option<FamilyCall>> {
    let summary = match payload {
        Some(VerifiedPayload::Family(summary)) => Some(summary),
        _ => None,
    };
    match kind {
        "tron" => {
            let summary = match summary {
                Some(FamilySummary::Tron(t)) => Some(t),
                _ => None,
            };
            Some(tron::call_to_sign(tx, summary).map(FamilyCall::Tron))
        }
        "solana" => {
            let summary = match summary {
                Some(FamilySummary::Solana(s)) => Some(s),
                _ => None,
            };
            Some(solana::call_to_sign(tx, summary, send_chain).map(FamilyCall::Solana))
        }
        _ => None,
    }
}

/// bincode as Solana's wire form uses it (fixed-width little-endian integers, at most a packet, nothing left over).
pub fn solana_wire_options() -> impl bincode::Options {
    solana::wire_options()
}

/// The highest Bitcoin fee accepted in the PSBT of an onramp of `amount_sats`: the larger of
/// [`FEE_CAP_FLOOR_SATS`] and [`FEE_CAP_PERCENT`] % of the amount.
pub fn fee_cap_sats(amount_sats: u64) -> u64 {
    let share = u128::from(amount_sats) * u128::from(FEE_CAP_PERCENT) / 100;
    FEE_CAP_FLOOR_SATS.max(u64::try_from(share).unwrap_or(u64::MAX))
}

/// Checks the create-order answer `created` against the accepted `quote`, before the user signs anything.
///
/// `network` is the Bitcoin network of the gateway deployment (addresses of other networks are refused). Returns
/// what the user is about to sign, summarized, or the reason not to sign it.
pub fn verify_order(
    quote: &Quote,
    created: &CreateOrderResponse,
    network: BitcoinNetwork,
) -> Result<Verified, VerifyError> {
    verify_order_with(quote, created, &VerifyPolicy::strict(network))
}

/// [`verify_order`] under a network's [`VerifyPolicy`] (pinned contracts, blind signing, fee-rate ceiling).
pub fn verify_order_with(
    quote: &Quote,
    created: &CreateOrderResponse,
    policy: &VerifyPolicy,
) -> Result<Verified, VerifyError> {
    let network = policy.bitcoin;
    let view = quote.view();
    let (quoted, answered) = (view.route(), created.route());
    let mismatch = || VerifyError::RouteMismatch { quoted, answered };
    if quoted != answered {
        return Err(mismatch());
    }
    let (payload, sentence) = match created {
        CreateOrderResponse::Onramp(order) => {
            let QuoteView::Onramp(q) = view else {
                return Err(mismatch());
            };
            let summary = onramp::verify(q, order, network, policy.max_fee_rate_sat_vb)?;
            let sentence = onramp::sentence(&summary);
            (VerifiedPayload::Onramp(summary), sentence)
        }
        CreateOrderResponse::Offramp(order)
        | CreateOrderResponse::TokenSwap(order)
        | CreateOrderResponse::LayerZero(order) => {
            let source = QuotedSource::of(view, &order.order_id).ok_or_else(mismatch)?;
            match &order.tx {
                OrderTx::Plain(tx) | OrderTx::Tagged(TxData::Evm(tx)) => {
                    let summary = call::verify_evm(&source, tx, policy)?;
                    let sentence = call::evm_sentence(&summary);
                    (VerifiedPayload::Evm(summary), sentence)
                }
                OrderTx::Tagged(TxData::Family(FamilyTx::Tron(tx))) => {
                    let summary = tron::verify(&source, tx, policy)?;
                    let sentence = tron::sentence(&summary);
                    (
                        VerifiedPayload::Family(FamilySummary::Tron(summary)),
                        sentence,
                    )
                }
                OrderTx::Tagged(TxData::Family(FamilyTx::Solana(tx))) => {
                    let summary = solana::verify(&source, tx, policy)?;
                    let sentence = solana::sentence(&summary);
                    (
                        VerifiedPayload::Family(FamilySummary::Solana(summary)),
                        sentence,
                    )
                }
            }
        }
    };
    Ok(Verified {
        order_id: created.order_id().to_owned(),
        sentence,
        payload,
    })
}
