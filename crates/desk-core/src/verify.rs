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

mod call;
pub(crate) mod calldata;
mod onramp;
pub mod request;
mod solana;
#[cfg(test)]
mod tests;

use std::fmt;

use alloy_primitives::U256;
use gateway_client::address::BitcoinNetwork;
use gateway_client::amount::format_with_symbol;
use gateway_client::tokens::TokenRegistry;
use gateway_client::wire::{
    CreateOrderResponse, NATIVE_TOKEN, OrderTx, Quote, QuoteView, RouteKind, TxData,
};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub use calldata::{DecodedCall, EXEC_SELECTOR, EntryCall};
pub use onramp::check_signed_onramp_tx;

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

/// Which gateway contracts and programs the network's calls must go to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GatewayContracts {
    /// The Sandbox's contract on every chain (`gateway_payload::sandbox::gateway_contract`): pinned.
    Sandbox,
    /// The real service's published entry contract of each chain (`gateway_client::chains`, `approval_spender`: the
    /// AllowanceHolder the gateway's SDK pins), the same on Production, Staging and a custom URL: an EVM or Tron call
    /// must go to its chain's, and a chain without one is refused. Solana has none published (not pinned).
    Published,
    /// The Sandbox in the real service's shape (its `production shape` setting): EVM and Tron calls pinned to each
    /// chain's published entry contract, as [`GatewayContracts::Published`]; Solana's to the Sandbox's program, as
    /// [`GatewayContracts::Sandbox`].
    SandboxProductionShape,
    /// Not known to the app: the quote's `txTo` is followed (tests of the decoding alone).
    Unknown,
}

/// How strictly a network's answers are checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerifyPolicy {
    /// The Bitcoin network of the deployment (addresses of other networks are refused).
    pub bitcoin: BitcoinNetwork,
    /// The contracts calls must go to.
    pub contracts: GatewayContracts,
    /// Calls the app cannot decode are let through, shown as not checked, instead of refused (Settings, per network;
    /// off by default, as on hardware wallets).
    pub blind_signing: bool,
    /// The highest fee rate an onramp PSBT may pay, in sat/vB.
    pub max_fee_rate_sat_vb: u64,
    /// What is signed is run on the chain before the signature ([`crate::simulate`]): the app's own wallet signs it.
    /// False where the call is handed to another wallet unrun (`gateway create-order`): then a call whose inner part
    /// is not decoded (AllowanceHolder's `exec`, a Solana gateway instruction of no public layout) needs blind
    /// signing, since nothing would check what it moves.
    pub simulated: bool,
}

impl VerifyPolicy {
    /// The strict policy of the real service (Production, Staging, a custom URL): each chain's published entry
    /// contract pinned ([`GatewayContracts::Published`]), calls must decode, fees are capped at
    /// [`DEFAULT_MAX_FEE_RATE_SAT_VB`].
    pub fn strict(bitcoin: BitcoinNetwork) -> Self {
        Self {
            bitcoin,
            contracts: GatewayContracts::Published,
            blind_signing: false,
            max_fee_rate_sat_vb: DEFAULT_MAX_FEE_RATE_SAT_VB,
            simulated: true,
        }
    }

    /// The Sandbox's policy in the real service's shape ([`GatewayContracts::SandboxProductionShape`]), its own fee
    /// rate as [`VerifyPolicy::sandbox`].
    pub fn sandbox_production_shape(bitcoin: BitcoinNetwork) -> Self {
        Self {
            contracts: GatewayContracts::SandboxProductionShape,
            ..Self::sandbox(bitcoin)
        }
    }

    /// The Sandbox's policy: its contracts pinned, its own fast fee rate (`gateway_sim`'s) with
    /// [`FEE_RATE_HEADROOM`].
    pub fn sandbox(bitcoin: BitcoinNetwork) -> Self {
        Self {
            bitcoin,
            contracts: GatewayContracts::Sandbox,
            blind_signing: false,
            max_fee_rate_sat_vb: gateway_payload::bitcoin::FEE_RATE_SAT_PER_VB
                .saturating_mul(FEE_RATE_HEADROOM),
            simulated: true,
        }
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
                OrderTx::Tagged(TxData::Tron(tx)) => {
                    let summary = call::verify_tron(&source, tx, policy)?;
                    let sentence = call::tron_sentence(&summary);
                    (VerifiedPayload::Tron(summary), sentence)
                }
                OrderTx::Tagged(TxData::Solana(tx)) => {
                    let summary = solana::verify(&source, tx, policy)?;
                    let sentence = solana::sentence(&summary);
                    (VerifiedPayload::Solana(summary), sentence)
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

/// What the quote says about the source side of an offramp or token swap.
#[derive(Debug, Clone)]
struct QuotedSource {
    /// The source chain slug.
    chain: String,
    /// The contract or program the transaction must go to.
    tx_to: String,
    /// The source token (its address; native tokens are the zero address).
    token: String,
    /// The quoted input amount, smallest units, as the quote wrote it.
    amount: String,
    /// The sender, when the quote names one.
    sender: Option<String>,
    /// The route: offramp or token swap.
    route: RouteKind,
    /// The order id the answer gave (the calls commit to it).
    order_id: String,
    /// The destination chain slug (`bitcoin` for an offramp).
    dst_chain: String,
    /// The destination token.
    dst_token: String,
    /// The quoted output, smallest units of the destination token.
    output: String,
    /// Who receives.
    recipient: String,
    /// The quoted slippage, bps (V1 quotes state none: 0).
    slippage_bps: u32,
}

impl QuotedSource {
    /// The source side of an offramp or token-swap quote; `None` for an onramp.
    fn of(view: &QuoteView, order_id: &str) -> Option<Self> {
        let (chain, tx_to, input, sender, slippage) = match view {
            QuoteView::Onramp(_) => return None,
            QuoteView::Offramp(q) => (
                &q.src_chain,
                &q.tx_to,
                &q.input_amount,
                &q.sender,
                q.slippage.bps(),
            ),
            QuoteView::TokenSwap(q) => (
                &q.src_chain,
                &q.tx_to,
                &q.input_amount,
                &q.sender,
                q.slippage.bps(),
            ),
            // V1 names the contract and chain in the quote's own transaction, and states no slippage.
            QuoteView::LayerZero(q) => (&q.tx.chain, &q.tx.to, &q.input_amount, &q.sender, 0),
        };
        let output = view.output_amount();
        Some(Self {
            chain: chain.clone(),
            tx_to: tx_to.clone(),
            token: input.address.clone(),
            amount: input.amount.clone(),
            sender: sender.clone(),
            route: view.route(),
            order_id: order_id.to_owned(),
            dst_chain: output.chain.clone(),
            dst_token: output.address.clone(),
            output: output.amount.clone(),
            recipient: view.recipient().to_owned(),
            slippage_bps: slippage,
        })
    }
}

/// A create-order answer that matches its quote: what the user is about to sign, for the window to show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "Verified.ts")]
pub struct Verified {
    /// The order's identifier.
    pub order_id: String,
    /// One line for a person, e.g. "Pays 0.00250000 BTC to bc1q… with OP_RETURN 3f2a…, change … back to you, fee
    /// 1000 sats".
    pub sentence: String,
    /// The checked facts, by kind of transaction.
    pub payload: VerifiedPayload,
}

impl Verified {
    /// Refuses when the PSBT's network fee is above [`FEE_CONFIRM_BPS`] of the amount and `accepted_sats` (what the
    /// person accepted) does not cover it. Whatever signs a PSBT must ask this first.
    pub fn fee_confirmed(&self, accepted_sats: Option<u64>) -> Result<(), VerifyError> {
        match self.onramp().and_then(|o| o.psbt.as_ref()) {
            Some(psbt)
                if psbt.fee_needs_confirmation && accepted_sats.unwrap_or(0) < psbt.fee_sats =>
            {
                Err(VerifyError::FeeNotConfirmed {
                    fee_sats: psbt.fee_sats,
                    percent: psbt.fee_share_percent.clone(),
                })
            }
            _ => Ok(()),
        }
    }

    /// The onramp facts, when this is an onramp (what [`check_signed_onramp_tx`] needs after signing).
    pub fn onramp(&self) -> Option<&OnrampSummary> {
        match &self.payload {
            VerifiedPayload::Onramp(summary) => Some(summary),
            _ => None,
        }
    }
}

/// The checked facts of one kind of transaction, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
#[ts(export_to = "VerifiedPayload.ts")]
pub enum VerifiedPayload {
    /// A Bitcoin payment to the deposit address (a PSBT to sign, or a payment to make by hand).
    Onramp(OnrampSummary),
    /// An EVM contract call.
    Evm(EvmCallSummary),
    /// A Tron contract call.
    Tron(TronCallSummary),
    /// A Solana transaction.
    Solana(SolanaTxSummary),
}

/// A verified onramp: where the Bitcoin goes, how much, with which OP_RETURN, and the PSBT when there is one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "OnrampSummary.ts")]
pub struct OnrampSummary {
    /// The deposit address, in its canonical form.
    pub address: String,
    /// The amount to pay, in sats: exactly the quote's input amount.
    #[serde(with = "u64_string")]
    #[ts(type = "string")]
    pub amount_sats: u64,
    /// Lower-case hex of the OP_RETURN data the payment must carry, when the gateway gave some.
    pub op_return_hex: Option<String>,
    /// The PSBT the gateway built, when the quote named a sender; `None` means the user pays from their own wallet.
    pub psbt: Option<PsbtSummary>,
}

/// A verified PSBT: every input and output, and the fee.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "PsbtSummary.ts")]
pub struct PsbtSummary {
    /// The txid of the unsigned transaction (the signed one has the same txid when every input is SegWit).
    pub unsigned_txid: String,
    /// The coins spent, all the sender's.
    pub inputs: Vec<PsbtInputSummary>,
    /// The outputs, in order.
    pub outputs: Vec<PsbtOutputSummary>,
    /// Inputs minus outputs, in sats.
    #[serde(with = "u64_string")]
    #[ts(type = "string")]
    pub fee_sats: u64,
    /// The size the signed transaction will have, in virtual bytes, when the sender's address type allows an
    /// estimate (P2WPKH, P2TR key path, P2PKH).
    pub vsize_estimate: Option<u32>,
    /// The fee as a share of the amount paid, in bps.
    pub fee_share_bps: u32,
    /// The same as a person reads it, two decimals: `3.00` (percent).
    pub fee_share_percent: String,
    /// The fee is above [`FEE_CONFIRM_BPS`] of the amount: the person must accept it in numbers before the PSBT is
    /// offered for signing.
    pub fee_needs_confirmation: bool,
}

/// One coin a PSBT spends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "PsbtInputSummary.ts")]
pub struct PsbtInputSummary {
    /// `txid:vout`.
    pub outpoint: String,
    /// The coin's value, in sats.
    #[serde(with = "u64_string")]
    #[ts(type = "string")]
    pub value_sats: u64,
    /// The address that owns the coin: the sender's.
    pub address: String,
}

/// One output of a PSBT.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "PsbtOutputSummary.ts")]
pub struct PsbtOutputSummary {
    /// What the output is for.
    pub kind: OutputKind,
    /// The address paid (payment and change).
    pub address: Option<String>,
    /// The value, in sats.
    #[serde(with = "u64_string")]
    #[ts(type = "string")]
    pub value_sats: u64,
    /// Lower-case hex of what an OP_RETURN output carries.
    pub data_hex: Option<String>,
}

/// What a PSBT output is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "OutputKind.ts")]
pub enum OutputKind {
    /// The payment to the order's deposit address.
    Payment,
    /// The data output that ties the payment to the order.
    OpReturn,
    /// Change back to the sender.
    Change,
}

/// A verified EVM contract call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "EvmCallSummary.ts")]
pub struct EvmCallSummary {
    /// The chain slug.
    pub chain: String,
    /// The contract called (EIP-55), the quote's `txTo`.
    pub to: String,
    /// Native value sent with the call, in wei (decimal).
    pub value: String,
    /// The same value as a person reads it, e.g. `0.01 ETH`.
    pub value_text: String,
    /// Length of the calldata, in bytes.
    pub data_bytes: u32,
    /// The 4-byte function selector (`0x` and 8 hex characters), when the calldata has one.
    pub selector: Option<String>,
    /// The call decoded against the gateway contract, every field equal to the quote's; `None` when the app could
    /// not decode it and blind signing let it through (then nothing in the data was checked).
    pub decoded: Option<DecodedCall>,
    /// The real service's entry call (AllowanceHolder's `exec`), decoded and equal to the quote, when the gateway's
    /// inner call was not decoded and blind signing let it through.
    #[serde(default)]
    #[ts(optional)]
    pub entry: Option<EntryCall>,
    /// The raw calldata, shown when the call was not decoded (blind signing).
    pub raw_data: Option<String>,
}

/// A verified Tron contract call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "TronCallSummary.ts")]
pub struct TronCallSummary {
    /// The contract called (Base58Check), the quote's `txTo`.
    pub to: String,
    /// TRX sent with the call, in sun (decimal).
    pub value: String,
    /// The same value as a person reads it, e.g. `10 TRX`.
    pub value_text: String,
    /// Length of the calldata, in bytes.
    pub data_bytes: u32,
    /// The 4-byte function selector (`0x` and 8 hex characters), when the calldata has one.
    pub selector: Option<String>,
    /// The call decoded against the gateway contract (see [`EvmCallSummary::decoded`]).
    pub decoded: Option<DecodedCall>,
    /// The entry call, decoded, its inner call not (see [`EvmCallSummary::entry`]).
    #[serde(default)]
    #[ts(optional)]
    pub entry: Option<EntryCall>,
    /// The raw calldata, shown when the call was not decoded (blind signing).
    pub raw_data: Option<String>,
    /// The most the call may burn in fees, in sun (decimal).
    pub fee_limit_sun: String,
    /// The same limit as a person reads it, e.g. `100 TRX`.
    pub fee_limit_text: String,
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

/// Which transaction a Bitcoin payment problem was found in: the gateway's PSBT, or what the user signed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TxSubject {
    /// The PSBT of the create-order answer.
    Gateway,
    /// The signed transaction the user handed back.
    Signed,
}

impl TxSubject {
    /// What to do about a problem in this transaction.
    fn advice(self) -> &'static str {
        match self {
            Self::Gateway => "Do not sign it; ask for a new quote.",
            Self::Signed => {
                "Do not send it; sign the transaction the app checked, without changing it, and paste that one."
            }
        }
    }
}

impl fmt::Display for TxSubject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Gateway => "The gateway's transaction",
            Self::Signed => "The signed transaction",
        })
    }
}

/// Why a create-order answer (or a signed transaction) was refused. Each message is a complete sentence that tells
/// the user not to sign (or send) and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The answer is for another kind of order than the quote.
    #[error(
        "The gateway created {} order, but the quote you accepted is for {}. Do not sign anything; ask for a new quote.",
        answered.described(), quoted.described()
    )]
    RouteMismatch {
        /// The quote's route.
        quoted: RouteKind,
        /// The answer's route.
        answered: RouteKind,
    },
    /// A field of the quote itself cannot be read, so nothing can be compared with it.
    #[error(
        "The quote's {field} ({value:?}) cannot be read, so the gateway's transaction cannot be checked against it. \
         Do not sign anything; ask for a new quote."
    )]
    QuoteUnreadable {
        /// The quote field, e.g. `inputAmount.amount`, `txTo`, `sender`.
        field: &'static str,
        /// Its value.
        value: String,
    },

    // ---- the quote against the request ----
    /// The quote repeats something other than what was asked.
    #[error(
        "The gateway's quote has {what} {quoted:?}, but you asked for {asked:?}. Do not accept it; check the form and \
         ask again (if it happens again, the gateway cannot be trusted)."
    )]
    QuoteDiffersFromRequest {
        /// What differs, e.g. `recipient`.
        what: &'static str,
        /// What was asked.
        asked: String,
        /// What the quote says.
        quoted: String,
    },
    /// The quote charges an affiliate that was not asked for.
    #[error(
        "The gateway's quote pays an affiliate fee to {address}, which you did not ask for. Do not accept it; ask \
         again (if it happens again, the gateway cannot be trusted)."
    )]
    UnaskedAffiliate {
        /// The affiliate's address.
        address: String,
    },
    /// The quote's slippage is above the one asked for.
    #[error(
        "The gateway's quote allows a slippage of {quoted} bps, more than the {asked} bps you asked for. Do not accept \
         it; ask again."
    )]
    SlippageAboveAsked {
        /// Asked, bps.
        asked: u32,
        /// Quoted, bps.
        quoted: u32,
    },
    /// The quote's own figures contradict one another (issue 30): it could hide a loss behind them.
    #[error(
        "The quote contradicts itself: {what}. Its figures cannot all be right, so the loss the app computes from \
         them cannot be trusted. Do not accept it; ask for a new quote."
    )]
    QuoteContradicts {
        /// What disagrees, with the numbers.
        what: String,
    },
    /// What is received is less than half of what is sent.
    #[error(
        "With this quote you would receive {percent} % less than you send, computed by the app from the quote's own \
         amounts. The app refuses a loss over half. Do not accept it; ask for a new quote, or a larger amount if fees \
         are most of it."
    )]
    GrossLoss {
        /// The loss, percent with two decimals.
        percent: String,
    },

    /// A loss above the confirmation threshold was not confirmed.
    #[error(
        "With this quote you would receive {percent} % less than you send. Do not go on unless you confirm that loss \
         in numbers; otherwise ask for a new quote."
    )]
    LossNotConfirmed {
        /// The loss, percent with two decimals.
        percent: String,
    },

    /// A PSBT fee above the confirmation share was not accepted.
    #[error(
        "The gateway's transaction pays a network fee of {fee_sats} sats, {percent} % of the amount. Do not sign it \
         unless you accept that fee in numbers; otherwise ask for a new quote."
    )]
    FeeNotConfirmed {
        /// The fee, in sats.
        fee_sats: u64,
        /// Its share of the amount, percent with two decimals.
        percent: String,
    },

    // ---- onramp ----
    /// The deposit address is not a Bitcoin address of the gateway's network.
    #[error(
        "The gateway's deposit address {address:?} is not a valid Bitcoin address here: {reason} \
         Do not pay it; ask for a new quote."
    )]
    DepositAddressInvalid {
        /// The address given.
        address: String,
        /// Why it is not valid, a sentence.
        reason: String,
    },
    /// The quote's sender is not a Bitcoin address of the gateway's network.
    #[error(
        "The quote's sender {address:?} is not a valid Bitcoin address here: {reason} So the coins the gateway's \
         transaction spends cannot be checked. Do not sign it; ask for a new quote with your own address as sender."
    )]
    SenderInvalid {
        /// The sender given.
        address: String,
        /// Why it is not valid, a sentence.
        reason: String,
    },
    /// `op_return_data` is not hex of at most [`MAX_OP_RETURN_BYTES`] bytes.
    #[error(
        "The gateway's OP_RETURN data {data:?} is not usable: {reason}. Do not pay the order; ask for a new quote."
    )]
    OpReturnDataInvalid {
        /// The data given.
        data: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The quote named a sender but the answer carries no PSBT.
    #[error(
        "The quote names {sender} as the sender, but the gateway sent no transaction to sign. \
         Do not pay the order; ask for a new quote."
    )]
    MissingPsbt {
        /// The quote's sender.
        sender: String,
    },
    /// The answer carries a PSBT although the quote named no sender: nothing says whose coins it spends.
    #[error(
        "The gateway sent a transaction to sign although the quote names no sender, so nothing says whose coins it \
         spends. Do not sign it; ask for a new quote."
    )]
    UnexpectedPsbt,
    /// The PSBT cannot be decoded.
    #[error(
        "The gateway's transaction cannot be read ({reason}). Do not sign it; ask for a new quote."
    )]
    PsbtUnreadable {
        /// What went wrong.
        reason: String,
    },
    /// No output pays the deposit address.
    #[error("{subject} does not pay the deposit address {address}. {}", subject.advice())]
    NoDepositOutput {
        /// Which transaction.
        subject: TxSubject,
        /// The deposit address.
        address: String,
    },
    /// More than one output pays the deposit address.
    #[error(
        "{subject} pays the deposit address {address} in {count} outputs instead of one. {}",
        subject.advice()
    )]
    DepositPaidInSeveralOutputs {
        /// Which transaction.
        subject: TxSubject,
        /// The deposit address.
        address: String,
        /// How many outputs pay it.
        count: usize,
    },
    /// The deposit output's value is not the quoted amount.
    #[error(
        "{subject} pays {} to the deposit address, but the quote says {}. {}",
        btc_text(*paid_sats), btc_text(*quoted_sats), subject.advice()
    )]
    WrongDepositAmount {
        /// Which transaction.
        subject: TxSubject,
        /// What the output pays, in sats.
        paid_sats: u64,
        /// What the quote says, in sats.
        quoted_sats: u64,
    },
    /// No OP_RETURN output although the order has OP_RETURN data.
    #[error(
        "{subject} has no OP_RETURN output, so the payment would not be tied to your order (it should carry {expected}). {}",
        subject.advice()
    )]
    OpReturnMissing {
        /// Which transaction.
        subject: TxSubject,
        /// The order's OP_RETURN data, hex.
        expected: String,
    },
    /// The OP_RETURN output carries other data than the order's.
    #[error(
        "{subject} carries the OP_RETURN data {found}, but the order's is {expected}: the payment would not be tied to \
         your order. {}",
        subject.advice()
    )]
    OpReturnMismatch {
        /// Which transaction.
        subject: TxSubject,
        /// The order's OP_RETURN data, hex.
        expected: String,
        /// What the output carries, hex.
        found: String,
    },
    /// More than one OP_RETURN output.
    #[error("{subject} has {count} OP_RETURN outputs where the order expects one. {}", subject.advice())]
    SeveralOpReturns {
        /// Which transaction.
        subject: TxSubject,
        /// How many there are.
        count: usize,
    },
    /// An OP_RETURN output with a value: money burnt.
    #[error("{subject} burns {} in an OP_RETURN output. {}", btc_text(*sats), subject.advice())]
    OpReturnBurns {
        /// Which transaction.
        subject: TxSubject,
        /// The value burnt, in sats.
        sats: u64,
    },
    /// An output pays neither the deposit address nor the sender.
    #[error(
        "The gateway's transaction also pays {} to {recipient}, which is neither the order's deposit address nor your \
         own address. Do not sign it; ask for a new quote.",
        btc_text(*value_sats)
    )]
    PaysStranger {
        /// The output's index.
        output_index: usize,
        /// Who it pays: an address, or `script <hex>`.
        recipient: String,
        /// Its value, in sats.
        value_sats: u64,
    },
    /// The PSBT spends nothing.
    #[error(
        "The gateway's transaction spends no coins at all. Do not sign it; ask for a new quote."
    )]
    NoInputs,
    /// An input's previous output is not given, so what it spends (and the fee) cannot be known.
    #[error(
        "The gateway's transaction spends the coin {outpoint} (input {input_index}) without saying what that coin is, \
         so the app cannot tell what this spends or what fee it pays. Do not sign it; ask for a new quote."
    )]
    UnknownPrevout {
        /// The input's index.
        input_index: usize,
        /// `txid:vout` of the coin.
        outpoint: String,
    },
    /// An input's `non_witness_utxo` is not the transaction its outpoint names, or disagrees with its
    /// `witness_utxo`.
    #[error(
        "The gateway's transaction describes the coin {outpoint} (input {input_index}) with a previous transaction \
         that is not that coin's, so its value and owner cannot be trusted. Do not sign it; ask for a new quote."
    )]
    PrevoutMismatch {
        /// The input's index.
        input_index: usize,
        /// `txid:vout` of the coin.
        outpoint: String,
    },
    /// An input spends a coin that is not the sender's.
    #[error(
        "The gateway's transaction spends the coin {outpoint} of {owner}, which is not the quote's sender {sender}. \
         Do not sign it; ask for a new quote."
    )]
    InputNotSender {
        /// The input's index.
        input_index: usize,
        /// `txid:vout` of the coin.
        outpoint: String,
        /// Who owns the coin: an address, or `script <hex>`.
        owner: String,
        /// The quote's sender.
        sender: String,
    },
    /// An input asks for a sighash type that would let the transaction be changed after signing.
    #[error(
        "The gateway's transaction asks you to sign input {input_index} with sighash type {sighash}, which would let \
         its outputs be changed after you sign. Do not sign it; ask for a new quote."
    )]
    UnsafeSighash {
        /// The input's index.
        input_index: usize,
        /// The sighash type, as rust-bitcoin names it.
        sighash: String,
    },
    /// The outputs add up to more than the inputs: the transaction could never be valid.
    #[error(
        "The gateway's transaction pays out {} but spends only {}, so it can never be valid. \
         Do not sign it; ask for a new quote.",
        btc_text(*outputs_sats), btc_text(*inputs_sats)
    )]
    FeeNegative {
        /// Sum of the inputs, in sats.
        inputs_sats: u64,
        /// Sum of the outputs, in sats.
        outputs_sats: u64,
    },
    /// The fee is above the cap ([`fee_cap_sats`]).
    #[error(
        "The gateway's transaction pays a fee of {fee_sats} sats ({}), more than the {cap_sats} sats this app accepts \
         for this amount. Do not sign it; ask for a new quote.",
        btc_text(*fee_sats)
    )]
    AbsurdFee {
        /// The fee, in sats.
        fee_sats: u64,
        /// The cap, in sats.
        cap_sats: u64,
    },
    /// The signed transaction pasted back cannot be read.
    #[error("The signed transaction cannot be used. {reason}")]
    SignedTxUnreadable {
        /// What went wrong and what to do, in sentences.
        reason: String,
    },
    /// An input of the signed transaction carries no signature.
    #[error(
        "Input {input_index} of the transaction carries no signature: this is not the signed transaction. \
         Sign it in your wallet and paste the result."
    )]
    NotSigned {
        /// The input's index.
        input_index: usize,
    },
    /// The signed transaction is not the PSBT's transaction.
    #[error(
        "The signed transaction is not the one the app checked: {difference}. Do not send it; sign the transaction \
         the app checked, without changing it, and paste that one."
    )]
    SignedTxNotApproved {
        /// What differs, a clause.
        difference: String,
    },

    // ---- offramp and token swap ----
    /// The transaction is of a kind that cannot run on the quote's source chain.
    #[error(
        "The gateway sent {found}, but the quote pays from {chain}. Do not sign it; ask for a new quote."
    )]
    WrongTxKind {
        /// The quote's source chain.
        chain: String,
        /// What was sent, e.g. "an EVM call".
        found: &'static str,
    },
    /// The call is for another chain than the quote's source chain.
    #[error(
        "The gateway's transaction is for {found}, but the quote pays from {quoted}. Do not sign it; ask for a new quote."
    )]
    WrongChain {
        /// The quote's source chain.
        quoted: String,
        /// The transaction's chain.
        found: String,
    },
    /// The call's `to` is not a valid address of its chain.
    #[error(
        "The gateway's transaction calls {value:?}, which is not a valid {family} address. \
         Do not sign it; ask for a new quote."
    )]
    BadTxAddress {
        /// The `to` given.
        value: String,
        /// "EVM" or "Tron".
        family: &'static str,
    },
    /// The call goes to another contract than the quote's `txTo`.
    #[error(
        "The gateway's transaction calls {found}, but the quote says your funds go to {quoted}. \
         Do not sign it; ask for a new quote."
    )]
    WrongContract {
        /// The quote's `txTo`.
        quoted: String,
        /// The transaction's `to`.
        found: String,
    },
    /// The call's `value` is not a whole number.
    #[error(
        "The gateway's transaction sends a native value {value:?} that is not a whole number. \
         Do not sign it; ask for a new quote."
    )]
    BadValue {
        /// The value given.
        value: String,
    },
    /// The native value sent is not the quoted input amount.
    #[error(
        "The gateway's transaction sends {} with the call, but the quote says {}. Do not sign it; ask for a new quote.",
        native_text(chain, found),
        native_text(chain, quoted)
    )]
    WrongNativeValue {
        /// The chain.
        chain: String,
        /// The value sent, smallest units.
        found: String,
        /// The quoted input amount, smallest units.
        quoted: String,
    },
    /// The call sends native value although the quote pays in a token.
    #[error(
        "The gateway's transaction also sends {} with the call, which the quote does not mention (you pay in a \
         token). Do not sign it; ask for a new quote.",
        native_text(chain, found)
    )]
    UnquotedNativeValue {
        /// The chain.
        chain: String,
        /// The value sent, smallest units.
        found: String,
    },
    /// The calldata is not `0x` hex of at least one byte.
    #[error(
        "The gateway's transaction data is not usable: {reason}. Do not sign it; ask for a new quote."
    )]
    BadCalldata {
        /// What is wrong with it.
        reason: String,
    },
    /// The Tron fee limit is not a whole number of sun.
    #[error(
        "The gateway's Tron fee limit {value:?} is not a whole number of sun. Do not sign it; ask for a new quote."
    )]
    FeeLimitInvalid {
        /// The value given.
        value: String,
    },
    /// The Tron fee limit is above [`TRON_FEE_LIMIT_CAP_SUN`].
    #[error(
        "The gateway's Tron transaction could burn up to {} in fees, more than the {} this app accepts. \
         Do not sign it; ask for a new quote.",
        trx_text(fee_limit_sun), trx_text(&cap_sun.to_string())
    )]
    FeeLimitTooHigh {
        /// The fee limit, in sun (decimal).
        fee_limit_sun: String,
        /// The cap, in sun.
        cap_sun: u64,
    },

    /// A token function as the main call: it would hand over tokens or the right to move them.
    #[error(
        "The gateway's transaction is a token call, {function}, instead of the gateway's own function: it would hand \
         your tokens, or the right to move them, to whoever it names. Do not sign it; ask for a new quote."
    )]
    TokenCallAsMain {
        /// The function's name.
        function: &'static str,
    },
    /// The call goes to a token contract the app knows.
    #[error(
        "The gateway's transaction calls {contract}, the {symbol} token contract, not a gateway contract. \
         Do not sign it; ask for a new quote."
    )]
    CallsTokenContract {
        /// The contract called.
        contract: String,
        /// The token's symbol.
        symbol: String,
    },
    /// On a network whose gateway contracts are known, the call goes elsewhere.
    #[error(
        "The gateway's transaction calls {found}, which is not this network's gateway contract {expected}. \
         Do not sign it; ask for a new quote."
    )]
    NotTheGatewayContract {
        /// The contract called.
        found: String,
        /// The network's gateway contract.
        expected: String,
    },
    /// Off the Sandbox, the source chain has no published entry contract, so no call from it can be checked.
    #[error(
        "The gateway's transaction calls {found} on {chain}, but the app knows no published gateway contract on          {chain} (the gateway's own SDK pins one per chain, and none on {chain}), so it cannot tell the gateway's          contract from any other. Do not sign it; choose a route from another chain."
    )]
    NoPublishedEntry {
        /// The source chain.
        chain: String,
        /// The contract called.
        found: String,
    },
    /// The real service's entry call (AllowanceHolder's `exec`) matches the quote, but the gateway's inner call is
    /// not decoded, the call is not run on the chain here (another wallet signs it), and blind signing is off.
    #[error(
        "The gateway's transaction calls its entry contract's exec, which lets {target} take exactly {amount} of \
         {token} (the quote's amount and token: checked), but what {target} then does is the gateway's own call, \
         which is not public and was not decoded, and here nothing runs it on the chain before you sign. Sign it with \
         the app's wallet (which runs it first), or, if you trust this gateway, with blind signing turned on for this \
         network (`--blind-signing`)."
    )]
    InnerCallNotDecoded {
        /// The gateway's contract `exec` calls.
        target: String,
        /// The amount it may take, smallest units.
        amount: String,
        /// The token it may take.
        token: String,
    },
    /// Off the Sandbox, the gateway's Solana instruction is of no layout the app knows, the transaction is not run on
    /// the chain here (another wallet signs it), and blind signing is off.
    #[error(
        "The gateway's Solana transaction calls its program {program} with an instruction the app cannot decode (the \
         program's layout is not public), and here nothing runs it on the chain before you sign. Sign it with the \
         app's wallet (which runs it first), or, if you trust this gateway, with blind signing turned on for this \
         network; the fee payer, the signer, the compute budget and every other instruction are checked either way."
    )]
    SolanaNotDecoded {
        /// The gateway's program.
        program: String,
    },
    /// The calldata is of no function the app can decode, and blind signing is off.
    #[error(
        "The gateway's transaction calls a function the app cannot decode (selector {selector}), so what it moves and \
         to whom cannot be checked. Do not sign it; ask for a new quote. If you trust this gateway and check calls \
         yourself, blind signing can be turned on for this network in Settings."
    )]
    UndecodableCall {
        /// The 4-byte selector, or `none`.
        selector: String,
    },
    /// The decoded function is of another route.
    #[error(
        "The gateway's transaction calls {function}, which is not the function of {}. Do not sign it; ask for a new \
         quote.",
        route.described()
    )]
    WrongFunction {
        /// The function called.
        function: &'static str,
        /// The quote's route.
        route: RouteKind,
    },
    /// A decoded argument differs from the quote.
    #[error(
        "The gateway's transaction {what} {found}, but the quote says {quoted}. Do not sign it; ask for a new quote."
    )]
    CallDiffers {
        /// What the argument does, e.g. `takes`, `delivers to`.
        what: &'static str,
        /// The call's value.
        found: String,
        /// The quote's.
        quoted: String,
    },
    /// The call's minimum output is below the quote's output less its slippage.
    #[error(
        "The gateway's transaction accepts as little as {found} (smallest units) in return, below the {floor} the \
         quote promises after slippage. Do not sign it; ask for a new quote."
    )]
    MinimumBelowQuote {
        /// The call's minimum.
        found: String,
        /// The quote's output less slippage.
        floor: String,
    },
    /// The Bitcoin fee rate is above the network's ceiling.
    #[error(
        "The gateway's transaction pays {fee_sats} sats for about {vsize} vbytes, {rate} sat/vB, more than the \
         {ceiling} sat/vB this app accepts now (a few times the network's fast rate). Do not sign it; ask for a new \
         quote."
    )]
    FeeRateTooHigh {
        /// The fee, in sats.
        fee_sats: u64,
        /// The signed size estimate, in vbytes.
        vsize: u32,
        /// The fee rate, sat/vB, rounded up.
        rate: u64,
        /// The ceiling, sat/vB.
        ceiling: u64,
    },

    // ---- Solana ----
    /// The Solana transaction cannot be decoded or fails Solana's sanity checks.
    #[error(
        "The gateway's Solana transaction cannot be read ({reason}). Do not sign it; ask for a new quote."
    )]
    SolanaUnreadable {
        /// What went wrong.
        reason: String,
    },
    /// A Solana order without a sender in the quote: the fee payer cannot be checked.
    #[error(
        "The quote names no sender, so the fee payer of the gateway's Solana transaction cannot be checked. \
         Do not sign it; ask for a new quote with your address as sender."
    )]
    SolanaNoSender,
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
    SolanaUnexpectedInstruction {
        /// The instruction, described.
        what: String,
    },
    /// The transaction uses address lookup tables, whose accounts cannot be checked offline.
    #[error(
        "The gateway's Solana transaction names accounts through address lookup tables, which the app cannot resolve \
         to check them. Do not sign it; ask for a new quote."
    )]
    SolanaLookupTables,
    /// The gateway instruction differs from the quote.
    #[error(
        "The gateway's Solana instruction differs from the quote: {difference}. Do not sign it; ask for a new quote."
    )]
    SolanaInstructionDiffers {
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

/// The first sentence of a message (validation errors end with advice that does not fit here).
fn first_sentence(message: &str) -> String {
    match message.find(". ") {
        Some(end) => message[..=end].to_owned(),
        None => message.to_owned(),
    }
}

/// Basis points as a percentage with two decimals, no sign: 750 → `7.50`.
pub fn percent(bps: u32) -> String {
    format!("{}.{:02}", bps / 100, bps % 100)
}

/// Sats as BTC with all eight decimals: `0.00250000 BTC`.
pub(crate) fn btc_text(sats: u64) -> String {
    format!("{}.{:08} BTC", sats / 100_000_000, sats % 100_000_000)
}

/// An amount of `chain`'s native token, smallest units given as decimal text: `0.01 ETH`, or the raw number when the
/// chain's native token is unknown.
fn native_text(chain: &str, amount: &str) -> String {
    let registry = TokenRegistry::builtin();
    match (
        registry.get(chain, NATIVE_TOKEN),
        gateway_client::amount::parse_base_units(amount),
    ) {
        (Some(info), Ok(value)) => format_with_symbol(value, info.decimals, &info.symbol),
        _ => format!("{amount} smallest units of the native token of {chain}"),
    }
}

/// Sun (decimal text) as TRX.
fn trx_text(sun: &str) -> String {
    match gateway_client::amount::parse_base_units(sun) {
        Ok(value) => format_with_symbol(value, 6, "TRX"),
        Err(_) => format!("{sun} sun"),
    }
}

/// Native value as a person reads it, from a parsed amount.
fn native_value_text(chain: &str, amount: U256) -> String {
    native_text(chain, &amount.to_string())
}

/// Serializes a `u64` as a decimal string (amounts cross to TypeScript as strings) and reads it back.
mod u64_string {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(value: &u64, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(value)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(|_| {
            D::Error::custom(format!("expected a whole number as a string, got {text:?}"))
        })
    }
}
