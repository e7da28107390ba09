//! Offramps and token swaps from Tron, signed and broadcast by the app's wallet.
//!
//! The order's call (`to`, `data`, `value`, `feeLimit`) was verified against the quote before anything here runs
//! ([`crate::verify`]: the gateway's contract, the amounts in the calldata, a fee limit no larger than
//! [`crate::verify::TRON_FEE_LIMIT_CAP_SUN`]). Here it becomes a `TriggerSmartContract` transaction that the app
//! builds itself ([`gateway_client::chains::tron`], protobuf): only the latest block's reference comes from the node, and
//! the encoded `raw_data` is decoded again and checked to carry exactly the verified contract, data, value and fee
//! limit before it is signed (secp256k1 over SHA-256 of `raw_data`, k256, RFC 6979). As on EVM:
//! - the endpoint must answer the network's block 0 first ([`node::connect`]);
//! - a TRC-20's allowance to the gateway's contract is read; when short, an exact approval comes first (to the
//!   contract the app knows on this network only), with a fee limit the app sets from the estimated energy;
//! - the energy (estimated by a read-only run of the same call) and bandwidth (the transaction's size, free while
//!   the account's daily allowance lasts) are priced at the network's rates and shown; the TRX balance must cover
//!   the fee limits, the bandwidth and the value ([`plan`]);
//! - each signed transaction is journaled **before** it is broadcast, then broadcast, then its receipt awaited;
//!   after a restart a journaled transaction is re-broadcast as it is (same id) or its receipt read. One that
//!   expired before it reached Tron can never be executed: it is marked so, and the step can be signed anew.

use std::time::{Duration, Instant};

use alloy::primitives::{Address, U256};
use alloy::sol_types::SolCall;
use gateway_client::chains::tron::{self, TronCall};
use gateway_client::wire::{NATIVE_TOKEN, RouteKind};
use prost::Message;
use tracing::info;

pub mod node;

use self::node::{BANDWIDTH_OVERHEAD, Broadcast, TronEndpoint, TronPrices, trc20_text, trx_text};
use crate::chains::erc20::approveCall;
use crate::execute::ledger::{Ledger, OrderToPay, WalletTx, WalletTxKind, WalletTxState};
use crate::execute::rail::{
    BoxFuture, EndpointCheck, FeeReserve, PlannedTx, Reach, StepContext, WalletBalance, WalletPlan,
    WalletRail, check_sender, check_signer, confirmed_fee, unpayable,
};
use crate::execute::{
    CrashHook, ExecError, Executed, Journaled, WalletTxProgress, journaled, locked,
};
use crate::simulate::{CallExpectation, SimCall, SimLog, Simulation, SimulationStatus};
use crate::verify::{FamilySummary, TRON_FEE_LIMIT_CAP_SUN, Verified, VerifiedPayload};
use crate::wallet::{Account, Accounts, KeyFamily};

use gateway_client::address::ChainFamily;

/// The wallet's Tron keys.
const TRON_KEYS: KeyFamily = KeyFamily(ChainFamily::Tron);

/// How long a transaction stays valid after the block it refers to (TronWeb's default).
pub const LIFETIME_MS: i64 = 60_000;
/// How long a broadcast transaction's receipt is awaited before the order is left to be resumed.
pub const RECEIPT_WAIT: Duration = Duration::from_secs(120);
/// The energy the order's call is assumed to need while it cannot be estimated (before its approval is mined).
pub const PAY_ENERGY_ASSUMED: u64 = 200_000;
/// The size of a signed TriggerSmartContract transaction assumed for its bandwidth before it is built, in bytes.
pub const TX_BYTES_ASSUMED: u64 = 350;

/// The order's call on Tron, as verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TronPay {
    /// The gateway's order id (empty when the journal has none).
    pub order_id: String,
    /// The contract called (the gateway's), as a Tron account (`0x41` and 20 bytes).
    pub contract: [u8; 21],
    /// The calldata, as create-order returned it.
    pub data: Vec<u8>,
    /// The TRX sent with the call, in sun.
    pub call_value: i64,
    /// The most the call may burn for energy, in sun, as verified (at most
    /// [`crate::verify::TRON_FEE_LIMIT_CAP_SUN`]).
    pub fee_limit: i64,
    /// The source TRC-20 (`None` for TRX) and the quoted amount.
    pub token: Option<[u8; 21]>,
    /// The quoted amount of the source token, in its smallest unit: what an approval covers exactly.
    pub amount: U256,
    /// The gateway contract the app knows on this network, the only spender it approves to.
    pub known_spender: Option<[u8; 21]>,
}

/// The order's Tron call ([`TronPay`]); the error says why there is none.
pub fn tron_pay_of(order: &OrderToPay, known_spender: Option<[u8; 21]>) -> Result<TronPay, String> {
    let refused = |why: &str| why.to_owned();
    if !matches!(order.route, RouteKind::Offramp | RouteKind::TokenSwap) {
        return Err(refused("This order is not paid with a Tron transaction."));
    }
    let verified: Verified = order
        .verified()
        .ok_or_else(|| refused("This order has no verified transaction."))?;
    let VerifiedPayload::Family(FamilySummary::Tron(summary)) = &verified.payload else {
        return Err(refused("This order's transaction is not a Tron call."));
    };
    let created = order
        .created()
        .ok_or_else(|| refused("This order's create-order answer is unreadable."))?;
    let Some(gateway_client::wire::OrderTx::Tagged(gateway_client::wire::TxData::Family(
        gateway_client::chains::FamilyTx::Tron(tx),
    ))) = created.tx()
    else {
        return Err(refused("This order carries no Tron call."));
    };
    let contract = tron::parse_account(&tx.to)
        .ok_or_else(|| refused("The call's contract is not a Tron address."))?;
    if tron::parse_account(&summary.call.to) != Some(contract)
        || tx.value != summary.call.value
        || tx.fee_limit != summary.fee_limit_sun
    {
        return Err(refused(
            "The transaction differs from the one the app verified.",
        ));
    }
    let fee_limit: i64 = tx
        .fee_limit
        .parse()
        .map_err(|_| refused("The fee limit is not a number of sun."))?;
    if fee_limit < 0 || fee_limit.unsigned_abs() > TRON_FEE_LIMIT_CAP_SUN {
        return Err(refused("The fee limit is above what this app accepts."));
    }
    let quote = gateway_client::wire::Quote::from_json(order.quote.clone())
        .map_err(|_| refused("This order's quote is unreadable."))?;
    let input = quote.view().input_amount().clone();
    let token = if input.address == NATIVE_TOKEN || input.address.is_empty() {
        None
    } else {
        Some(
            tron::parse_account(&input.address)
                .ok_or_else(|| refused("The source token is not a Tron address."))?,
        )
    };
    let data = tx.data.trim();
    Ok(TronPay {
        order_id: order.order_id.clone().unwrap_or_default(),
        contract,
        data: alloy::primitives::hex::decode(data.strip_prefix("0x").unwrap_or(data))
            .map_err(|_| refused("The calldata is not hex."))?,
        call_value: tx
            .value
            .parse()
            .map_err(|_| refused("The value is not a number of sun."))?,
        fee_limit,
        token,
        amount: input
            .amount
            .parse()
            .map_err(|_| refused("The amount is not a number."))?,
        known_spender,
    })
}

/// One step to sign: the call and its words.
struct Draft {
    kind: WalletTxKind,
    call: TronCall,
    sentence: String,
    /// Estimated energy (`None` while it cannot be estimated).
    energy: Option<u64>,
}

/// The bandwidth cost of a transaction of `bytes` (signed), in sun, when `free` bytes are left today.
fn bandwidth_cost(bytes: u64, free: u64, prices: &TronPrices) -> u64 {
    let used = bytes + BANDWIDTH_OVERHEAD;
    if used <= free {
        0
    } else {
        used * prices.bandwidth_fee
    }
}

/// The fee limit the app gives its own approvals: the estimated energy's price and half again, at least 5 TRX, at
/// most the cap.
fn approval_fee_limit(energy: u64, prices: &TronPrices) -> i64 {
    let limit = energy.saturating_mul(prices.energy_fee).saturating_mul(3) / 2;
    let limit = limit.clamp(5_000_000, TRON_FEE_LIMIT_CAP_SUN);
    i64::try_from(limit).unwrap_or(i64::MAX)
}

/// What is still to be signed for `pay` from `owner`, each step in words with its estimated energy and bandwidth
/// cost and its fee limit (the most it may burn), and whether the wallet's TRX and tokens cover it. The plan's
/// `max_fee` fields carry sun.
pub async fn plan(
    endpoint: &TronEndpoint,
    owner: [u8; 21],
    pay: &TronPay,
) -> Result<(WalletPlan, Vec<TronCall>), ExecError> {
    let spender = tron::base58(&pay.contract);
    let prices = endpoint.prices().await?;
    let trx = endpoint.trx_balance(&owner).await?;
    let mut free = endpoint.free_bandwidth(&owner).await?;
    let mut drafts = Vec::new();
    let mut shortfall = Vec::new();
    let mut token_balance = None;
    if let Some(token) = pay.token {
        let have = endpoint.token_balance(&token, &owner).await?;
        token_balance = Some(have);
        if have < pay.amount {
            shortfall.push(format!(
                "The order pays {} but the wallet {} holds {} on Tron: add at least {}.",
                trc20_text(&token, pay.amount),
                tron::base58(&owner),
                trc20_text(&token, have),
                trc20_text(&token, pay.amount - have),
            ));
        }
        let allowance = endpoint.allowance(&token, &owner, &pay.contract).await?;
        if allowance < pay.amount && endpoint.approval_required(&owner, &pay.contract).await {
            match pay.known_spender {
                Some(known) if known == pay.contract => {}
                Some(known) => {
                    return Err(ExecError::Spender(format!(
                        "the order's contract {spender} is not the gateway contract the app knows on tron ({})",
                        tron::base58(&known)
                    )));
                }
                None => {
                    return Err(ExecError::Spender(
                        "the app knows no gateway contract on tron to approve to".into(),
                    ));
                }
            }
            let approve = |amount: U256| {
                approveCall {
                    spender: Address::from_slice(&pay.contract[1..]),
                    amount,
                }
                .abi_encode()
            };
            let mut steps = Vec::new();
            if !allowance.is_zero() {
                // A token that refuses to change a non-zero allowance gets it reset to zero first.
                if let Err(_reason) = endpoint
                    .constant_call(&owner, &token, &approve(pay.amount), 0)
                    .await?
                {
                    steps.push((WalletTxKind::ResetApproval, approve(U256::ZERO)));
                }
            }
            steps.push((WalletTxKind::Approve, approve(pay.amount)));
            for (kind, data) in steps {
                let energy = match endpoint.constant_call(&owner, &token, &data, 0).await? {
                    Ok((_, energy)) => energy,
                    Err(reason) => {
                        return Err(ExecError::WouldRevert {
                            what: "approval",
                            reason,
                            next: "Check the token and the balances, then try again or discard the order.",
                        });
                    }
                };
                let sentence = if kind == WalletTxKind::Approve {
                    format!(
                        "Approve {} to the gateway's contract {spender} on tron: exactly this order's amount, no more.",
                        trc20_text(&token, pay.amount)
                    )
                } else {
                    format!(
                        "Set the allowance of {} to the gateway's contract {spender} back to zero (it now allows {}; this token refuses to change a non-zero allowance).",
                        trc20_text(&token, U256::ZERO)
                            .split_whitespace()
                            .last()
                            .unwrap_or("the token"),
                        trc20_text(&token, allowance),
                    )
                };
                drafts.push(Draft {
                    kind,
                    call: TronCall {
                        owner,
                        contract: token,
                        call_value: 0,
                        data,
                        fee_limit: approval_fee_limit(energy, &prices),
                    },
                    sentence,
                    energy: Some(energy),
                });
            }
        }
    }
    let paid = match pay.token {
        Some(token) => trc20_text(&token, pay.amount),
        None => trx_text(pay.call_value.unsigned_abs()),
    };
    // The order's call can be estimated only when nothing must be approved first.
    let mut run_logs = None;
    let energy = if drafts.is_empty() && shortfall.is_empty() {
        match endpoint
            .constant_run(&owner, &pay.contract, &pay.data, pay.call_value)
            .await?
        {
            Ok(run) => {
                let energy = run.energy;
                run_logs = run.logs;
                // Within its fee limit, or it would run out of energy on the chain and burn the limit for nothing.
                let cost = energy.saturating_mul(prices.energy_fee);
                if cost > pay.fee_limit.unsigned_abs() {
                    return Err(ExecError::WouldRevert {
                        what: "order's transaction",
                        reason: format!(
                            "the node's read-only run uses {energy} energy ({}), more than its fee limit of {}",
                            trx_text(cost),
                            trx_text(pay.fee_limit.unsigned_abs())
                        ),
                        next: "Nothing was signed. Try again later (energy prices change), or discard the order.",
                    });
                }
                Some(energy)
            }
            Err(reason) => {
                return Err(ExecError::WouldRevert {
                    what: "order's transaction",
                    reason,
                    next: "Check the balances and the order, then try again or discard the order.",
                });
            }
        }
    } else {
        None
    };
    drafts.push(Draft {
        kind: WalletTxKind::Pay,
        call: TronCall {
            owner,
            contract: pay.contract,
            call_value: pay.call_value,
            data: pay.data.clone(),
            fee_limit: pay.fee_limit,
        },
        sentence: format!(
            "Send {paid} to the gateway's contract {spender} on tron for order {}.",
            pay.order_id
        ),
        energy,
    });

    let simulation = tron_simulation(
        endpoint,
        &paid,
        energy,
        &shortfall,
        drafts.len(),
        run_logs.map(|logs| (logs, pay, &owner, trx_text(pay.fee_limit.unsigned_abs()))),
    )?;
    let mut steps = Vec::new();
    let mut calls = Vec::new();
    let mut total: u64 = pay.call_value.unsigned_abs();
    for draft in drafts {
        let bandwidth = bandwidth_cost(TX_BYTES_ASSUMED, free, &prices);
        free = free.saturating_sub(TX_BYTES_ASSUMED + BANDWIDTH_OVERHEAD);
        let limit = draft.call.fee_limit.unsigned_abs();
        let energy_text = match draft.energy {
            Some(energy) => format!(
                "about {energy} energy ({})",
                trx_text(energy.saturating_mul(prices.energy_fee).min(limit))
            ),
            None => format!(
                "energy not known until the step before is mined (assumed {PAY_ENERGY_ASSUMED}, {})",
                trx_text(
                    PAY_ENERGY_ASSUMED
                        .saturating_mul(prices.energy_fee)
                        .min(limit)
                )
            ),
        };
        let bandwidth_text = if bandwidth == 0 {
            "bandwidth from the free daily allowance".to_owned()
        } else {
            format!("about {} for bandwidth", trx_text(bandwidth))
        };
        let most = limit.saturating_add(bandwidth);
        total = total.saturating_add(most);
        steps.push(PlannedTx {
            kind: draft.kind,
            sentence: format!(
                "{} Estimated cost: {energy_text}, {bandwidth_text}; it may burn at most {} (its fee limit).",
                draft.sentence,
                trx_text(limit)
            ),
            to: tron::base58(&draft.call.contract),
            value: draft.call.call_value.to_string(),
            gas_limit: draft.energy,
            max_fee: most.to_string(),
            max_fee_text: crate::chains::coin_most_text("tron", U256::from(most)),
            max_fee_usd: None,
            fee_sentence: format!(
                "Network fee at most {}.",
                crate::chains::coin_most_text("tron", U256::from(most))
            ),
            rent_text: None,
            fee_needs_acceptance: false,
        });
        calls.push(draft.call);
    }
    if trx < total {
        shortfall.push(format!(
            "The fees{} may burn up to {} on Tron, but the wallet {} holds {}: add at least {}.",
            if pay.call_value > 0 {
                " and the value sent"
            } else {
                ""
            },
            trx_text(total),
            tron::base58(&owner),
            trx_text(trx),
            trx_text(total - trx),
        ));
    }
    Ok((
        {
            let native_balance_text = trx_text(trx);
            let token_balance_text = pay
                .token
                .zip(token_balance)
                .map(|(token, have)| trc20_text(&token, have));
            WalletPlan {
                chain: "tron".into(),
                owner: tron::base58(&owner),
                holdings: WalletPlan::holdings_of(
                    &tron::base58(&owner),
                    &native_balance_text,
                    token_balance_text.as_deref(),
                    "tron",
                ),
                steps,
                native_balance_text,
                token_balance_text,
                expired: None,
                shortfall: (!shortfall.is_empty()).then(|| shortfall.join(" ")),
                simulation,
            }
        },
        calls,
    ))
}

/// What Tron's read-only run (`triggerconstantcontract`) showed: the order's call succeeds within its fee limit
/// (`energy`, when it could be run now), or it is run when the approval before it is mined. java-tron's run reports
/// no transfers, so what moves is not read: [`SimulationStatus::Partial`].
fn tron_simulation(
    endpoint: &TronEndpoint,
    paid: &str,
    energy: Option<u64>,
    shortfall: &[String],
    approvals: usize,
    logs: Option<(Vec<SimLog>, &TronPay, &[u8; 21], String)>,
) -> Result<Simulation, ExecError> {
    let source = format!("triggerconstantcontract on {}", endpoint.url);
    // The node gave the run's logs: what it moves is read as on an EVM chain (no allowance read: one call only).
    if let (Some((logs, pay, owner, fee_text)), true) = (logs, shortfall.is_empty()) {
        let body = |account: &[u8; 21]| Address::from_slice(&account[1..]);
        let mut recipients = vec![body(&pay.contract)];
        recipients.extend(crate::verify::calldata::exec_target(&pay.data));
        let expect = CallExpectation {
            chain: "tron".into(),
            owner: body(owner),
            token: pay.token.as_ref().map_or(Address::ZERO, body),
            amount: pay.amount,
            value: U256::from(pay.call_value.unsigned_abs()),
            entry: body(&pay.contract),
            recipients,
            granted: pay.amount,
            max_fee_text: fee_text,
        };
        let call = SimCall {
            ok: true,
            error: None,
            output: Default::default(),
            logs,
        };
        return match crate::simulate::assess_calls(
            &expect,
            &[call],
            &["order's transaction"],
            false,
        ) {
            Ok(simulation) => Ok(Simulation {
                source,
                sentence: format!(
                    "{} (Tron's read-only run: TRX moved inside the call and the allowance left after it are not reported.)",
                    simulation.sentence
                ),
                ..simulation
            }),
            Err(surprise) => Err(crate::execute::refused_by_simulation(surprise, source)),
        };
    }
    let (status, sentence) = match energy {
        _ if !shortfall.is_empty() => (
            SimulationStatus::NotRun,
            "Not simulated: the balances do not cover the order.".to_owned(),
        ),
        Some(energy) => (
            SimulationStatus::Partial,
            format!(
                "The node ran the order's call read-only: it succeeds, with about {energy} energy, within its fee limit. Tron's read-only run reports no transfers, so what the gateway's contract moves is not shown; the entry contract lets it take {paid} and no more."
            ),
        ),
        None => (
            SimulationStatus::Partial,
            format!(
                "The approval{} ran read-only and succeeds{}; the order's call is run the same way once the approval is mined, before you confirm it.",
                if approvals > 1 { "s" } else { "" },
                if approvals > 1 { " in turn" } else { "" }
            ),
        ),
    };
    Ok(Simulation {
        status,
        moves: Vec::new(),
        sentence,
        source,
    })
}

/// Builds `call` on the node's latest block, checks the encoded `raw_data` carries exactly `call`, and signs it:
/// the whole signed transaction (protobuf) and its id (hex).
pub async fn build_and_sign(
    endpoint: &TronEndpoint,
    call: &TronCall,
    key: &k256::ecdsa::SigningKey,
) -> Result<(Vec<u8>, String), ExecError> {
    let block = endpoint.now_block().await?;
    let now = i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_millis(),
    )
    .unwrap_or(i64::MAX);
    let raw_bytes = call.raw(&block, LIFETIME_MS, now).encode_to_vec();
    // What is signed is read back from its own bytes, not from the value it was made from.
    let raw = tron::decode_raw_exact(&raw_bytes).map_err(|e| ExecError::Sign(e.to_string()))?;
    call.check(&raw)
        .map_err(|e| ExecError::Sign(e.to_string()))?;
    let signature = sign_raw(&raw_bytes, key)?;
    if tron::signer_of(&raw_bytes, &signature) != Some(call.owner) {
        return Err(ExecError::Sign(
            "the signature does not recover to the wallet's Tron account".into(),
        ));
    }
    let transaction = tron::Transaction {
        raw_data: Some(raw),
        signature: vec![signature],
    };
    Ok((
        transaction.encode_to_vec(),
        alloy::primitives::hex::encode(tron::txid(&raw_bytes)),
    ))
}

/// The 65-byte signature (`r || s || v`, v = 27 + recovery id, as TronWeb writes it) of `raw_bytes`' id.
pub fn sign_raw(raw_bytes: &[u8], key: &k256::ecdsa::SigningKey) -> Result<Vec<u8>, ExecError> {
    let (signature, recovery) = key
        .sign_prehash_recoverable(&tron::txid(raw_bytes))
        .map_err(|e| ExecError::Sign(e.to_string()))?;
    let mut bytes = signature.to_bytes().to_vec();
    bytes.push(27 + recovery.to_byte());
    Ok(bytes)
}

/// Signs and broadcasts the next step for `pay` — only the step the person confirmed, and only if it may burn at
/// most what they accepted (sun) — and awaits its receipt; a journaled transaction is finished first.
#[allow(clippy::too_many_arguments)]
pub async fn execute_next(
    journal: &dyn Ledger,
    local_id: i64,
    endpoint: &TronEndpoint,
    key: Option<&k256::ecdsa::SigningKey>,
    pay: &TronPay,
    confirmed: Option<(WalletTxKind, u64)>,
    progress: &(dyn Fn(WalletTxProgress) + Send + Sync),
    crash: CrashHook<'_>,
) -> Result<Executed, ExecError> {
    match journaled(&journal.order_to_pay(local_id)?) {
        Journaled::Pending(pending) => {
            info!(
                local_id,
                id = pending.hash,
                "resuming a journaled Tron transaction"
            );
            return finish(journal, local_id, endpoint, &pending, progress, crash).await;
        }
        Journaled::Paid(hash) => return Ok(Executed::Paid { hash }),
        Journaled::Nothing => {}
    }
    let key = key.ok_or_else(locked)?;
    let point = key.verifying_key().to_encoded_point(false);
    let owner = tron::account_of_public_key(
        point
            .as_bytes()
            .try_into()
            .map_err(|_| ExecError::Sign("the wallet's Tron key is unreadable".into()))?,
    );
    let (plan, calls) = plan(endpoint, owner, pay).await?;
    if let Some(short) = plan.shortfall {
        return Err(ExecError::NotEnough(short));
    }
    let (call, kind) =
        super::confirmed_step(plan.steps, calls, confirmed, |step, accepted: u64| {
            format!(
                "it may now burn up to {}, more than the {} accepted",
                step.max_fee_text,
                trx_text(accepted)
            )
        })?;
    let (transaction, id) = build_and_sign(endpoint, &call, key).await?;
    crash(&format!("{}-signed", kind.slug()));
    let signed = WalletTx {
        kind,
        chain: "tron".into(),
        hash: id.clone(),
        raw: alloy::primitives::hex::encode(&transaction),
        nonce: 0,
        state: WalletTxState::Signed,
        block: None,
        reason: None,
    };
    super::journal_signed(journal, local_id, &signed, progress, crash)?;
    finish(journal, local_id, endpoint, &signed, progress, crash).await
}

/// Broadcasts a journaled transaction (again: the same bytes, so the same id) unless the node has it, and awaits
/// its receipt.
async fn finish(
    journal: &dyn Ledger,
    local_id: i64,
    endpoint: &TronEndpoint,
    tx: &WalletTx,
    progress: &(dyn Fn(WalletTxProgress) + Send + Sync),
    crash: CrashHook<'_>,
) -> Result<Executed, ExecError> {
    let report = |state: WalletTxState, confirmations: u64| {
        progress(WalletTxProgress::of(local_id, tx, state, confirmations));
    };
    let expiration = alloy::primitives::hex::decode(&tx.raw)
        .ok()
        .and_then(|bytes| tron::Transaction::decode(bytes.as_slice()).ok())
        .and_then(|t| t.raw_data)
        .map_or(0, |raw| raw.expiration);
    if !endpoint.known(&tx.hash).await? {
        let bytes = alloy::primitives::hex::decode(&tx.raw).map_err(|e| {
            ExecError::Sign(format!("the journaled transaction is unreadable ({e})"))
        })?;
        if let Broadcast::Refused { code, message } = endpoint.broadcast(&bytes).await?
            && code != "DUP_TRANSACTION_ERROR"
        {
            let reason = if matches!(
                code.as_str(),
                "TRANSACTION_EXPIRATION_ERROR" | "TAPOS_ERROR"
            ) {
                format!(
                    "it expired before it reached Tron ({message}); it can never be executed, so the step can be signed again"
                )
            } else {
                format!("{code}: {message}")
            };
            journal.wallet_tx_moved(
                local_id,
                &tx.hash,
                WalletTxState::Reverted,
                None,
                Some(&format!("refused by the node: {reason}")),
            )?;
            report(WalletTxState::Reverted, 0);
            return Err(ExecError::Refused {
                hash: tx.hash.clone(),
                reason,
            });
        }
    }
    if tx.state == WalletTxState::Signed {
        journal.wallet_tx_moved(local_id, &tx.hash, WalletTxState::Sent, None, None)?;
    }
    report(WalletTxState::Sent, 0);
    crash(&format!("{}-sent", tx.kind.slug()));
    let started = Instant::now();
    let receipt = loop {
        if let Some(receipt) = endpoint.receipt(&tx.hash).await? {
            break receipt;
        }
        if !endpoint.known(&tx.hash).await? && endpoint.now_block().await?.timestamp > expiration {
            let reason = "it expired before Tron executed it; it can never be executed, so the step can be signed again";
            journal.wallet_tx_moved(
                local_id,
                &tx.hash,
                WalletTxState::Reverted,
                None,
                Some(reason),
            )?;
            report(WalletTxState::Reverted, 0);
            return Err(ExecError::Refused {
                hash: tx.hash.clone(),
                reason: reason.into(),
            });
        }
        if started.elapsed() > RECEIPT_WAIT {
            return Err(ExecError::NoReceiptYet {
                hash: tx.hash.clone(),
                secs: RECEIPT_WAIT.as_secs(),
            });
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    if receipt.result == "SUCCESS" {
        journal.wallet_tx_moved(
            local_id,
            &tx.hash,
            WalletTxState::Mined,
            Some(receipt.block),
            None,
        )?;
        report(WalletTxState::Mined, 1);
        info!(
            local_id,
            id = tx.hash,
            block = receipt.block,
            fee = receipt.fee,
            "executed"
        );
        crash(&format!("{}-mined", tx.kind.slug()));
        Ok(match tx.kind {
            WalletTxKind::Pay => Executed::Paid {
                hash: tx.hash.clone(),
            },
            _ => Executed::Approved {
                hash: tx.hash.clone(),
            },
        })
    } else {
        let reason = receipt.reason.unwrap_or(receipt.result);
        journal.wallet_tx_moved(
            local_id,
            &tx.hash,
            WalletTxState::Reverted,
            Some(receipt.block),
            Some(&reason),
        )?;
        report(WalletTxState::Reverted, 1);
        Err(ExecError::Reverted {
            hash: tx.hash.clone(),
            reason,
        })
    }
}

/// The order's Tron call with the spender the app knows on this network: the Sandbox's pinned contract
/// (`sandbox_pins`), elsewhere the gateway's published entry on Tron (its AllowanceHolder,
/// `gateway_client::chains`), the only contract a TRC-20 is approved to, for exactly the order's amount.
pub fn tron_pay_on(order: &OrderToPay, sandbox_pins: bool) -> Result<TronPay, ExecError> {
    let known = if sandbox_pins {
        tron::parse_account(&gateway_payload::sandbox::gateway_contract("tron"))
    } else {
        gateway_client::chains::chain("tron")
            .and_then(|c| c.approval_spender)
            .and_then(tron::parse_account)
    };
    tron_pay_of(order, known).map_err(unpayable)
}

/// An endpoint of Tron checked to be the network's (its block 0): the Sandbox's stand-in, or Tron's mainnet.
async fn endpoint_of(reach: &Reach) -> Result<TronEndpoint, ExecError> {
    let genesis = if reach.sandbox_nodes {
        gateway_payload::sandbox::SANDBOX_GENESIS_BLOCK
    } else {
        self::node::MAINNET_GENESIS_BLOCK
    };
    Ok(self::node::connect(&reach.urls, genesis).await?)
}

fn tron_account(text: &str) -> Result<[u8; 21], ExecError> {
    tron::parse_account(text).ok_or_else(|| {
        ExecError::Unsigned(format!(
            "The wallet's Tron address {text} does not read back."
        ))
    })
}

/// Tron's rail ([`WalletRail`]): the EVM's steps (an exact approval when short, then the call), each with its
/// estimated energy and bandwidth and its fee limit.
pub struct TronRail;

/// This family's rail as the list of rails names it (`rail_for`).
pub use TronRail as Rail;

impl WalletRail for TronRail {
    fn family(&self) -> ChainFamily {
        ChainFamily::Tron
    }

    fn account<'a>(&self, accounts: &'a Accounts) -> Result<&'a Account, ExecError> {
        Ok(accounts.required(TRON_KEYS)?)
    }

    fn check_endpoint<'a>(
        &'a self,
        reach: &'a Reach,
    ) -> BoxFuture<'a, Result<EndpointCheck, ExecError>> {
        Box::pin(async move {
            let endpoint = endpoint_of(reach).await?;
            let block = endpoint.now_block().await?;
            let latest_block = u64::try_from(block.number).unwrap_or(0);
            Ok(EndpointCheck {
                url: endpoint.url.clone(),
                chain_id: 0,
                latest_block,
                answered: format!("the chain itself, latest block {latest_block}"),
            })
        })
    }

    fn balance<'a>(
        &'a self,
        reach: &'a Reach,
        owner: &'a str,
        token: &'a str,
    ) -> BoxFuture<'a, Result<WalletBalance, ExecError>> {
        Box::pin(async move {
            let owner = tron_account(owner)?;
            let endpoint = endpoint_of(reach).await?;
            let native = token.is_empty() || token == NATIVE_TOKEN;
            // What an order's call may burn at most (the highest fee limit the app accepts) and its bandwidth:
            // what Max of TRX keeps, and what paying a token needs in TRX.
            let keep = TRON_FEE_LIMIT_CAP_SUN + 1_000_000;
            let (amount, max) = if native {
                let have = endpoint.trx_balance(&owner).await?;
                (U256::from(have), U256::from(have.saturating_sub(keep)))
            } else {
                let token_account =
                    tron::parse_account(token).ok_or_else(|| ExecError::Invalid {
                        field: "token",
                        message: format!("{token:?} is not a Tron token address."),
                    })?;
                let have = endpoint.token_balance(&token_account, &owner).await?;
                (have, have)
            };
            WalletBalance::of(
                "tron",
                token,
                native,
                amount,
                max,
                FeeReserve {
                    amount: U256::from(keep),
                    basis: format!(
                        "the {} fee limit, the most an order's call may burn, and 1 TRX of bandwidth",
                        crate::chains::coin_text("tron", U256::from(TRON_FEE_LIMIT_CAP_SUN))
                    ),
                },
                &endpoint.url,
            )
        })
    }

    fn plan<'a>(
        &'a self,
        reach: &'a Reach,
        owner: &'a str,
        order: &'a OrderToPay,
    ) -> BoxFuture<'a, Result<WalletPlan, ExecError>> {
        Box::pin(async move {
            let pay = tron_pay_on(order, reach.sandbox_pins)?;
            let owner = tron_account(owner)?;
            let endpoint = endpoint_of(reach).await?;
            check_sender(order, &tron::base58(&owner))?;
            let (plan, _) = plan(&endpoint, owner, &pay).await?;
            Ok(plan)
        })
    }

    fn step<'a>(
        &'a self,
        reach: &'a Reach,
        order: &'a OrderToPay,
        context: StepContext<'a>,
    ) -> BoxFuture<'a, Result<Executed, ExecError>> {
        Box::pin(async move {
            let pay = tron_pay_on(order, reach.sandbox_pins)?;
            let key = context
                .keeper
                .with_seed(|seed| crate::wallet::secp_signing_key(seed, TRON_KEYS))
                .transpose()?;
            let owner = key.as_ref().map(|k| {
                let point = k.verifying_key().to_encoded_point(false);
                let bytes: [u8; 65] = point.as_bytes().try_into().unwrap_or([0; 65]);
                tron::base58(&tron::account_of_public_key(&bytes))
            });
            check_signer(order, owner.as_deref())?;
            let endpoint = endpoint_of(reach).await?;
            let fee = confirmed_fee::<u64>(context.confirmed.max_fee.as_deref(), "sun")?;
            execute_next(
                context.journal,
                context.local_id,
                &endpoint,
                key.as_ref(),
                &pay,
                context.confirmed.kind.zip(fee),
                context.progress,
                &|_| {},
            )
            .await
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bandwidth_is_free_while_the_daily_allowance_lasts() {
        let prices = TronPrices {
            energy_fee: 420,
            bandwidth_fee: 1000,
        };
        assert_eq!(bandwidth_cost(300, 600, &prices), 0);
        assert_eq!(bandwidth_cost(300, 300, &prices), 364_000);
        assert_eq!(approval_fee_limit(30_000, &prices), 18_900_000);
        assert_eq!(approval_fee_limit(1, &prices), 5_000_000);
        assert_eq!(
            approval_fee_limit(10_000_000, &prices),
            i64::try_from(TRON_FEE_LIMIT_CAP_SUN).unwrap()
        );
    }
}
