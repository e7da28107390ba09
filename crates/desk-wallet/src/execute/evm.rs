//! Offramps and token swaps from an EVM chain, signed and broadcast by the app's wallet (alloy: local signer, HTTP
//! provider, `sol!` calls).
//!
//! The order's call was verified against the quote before anything here runs ([`crate::verify`]); this module
//! only signs that call and the approval it needs:
//! - the endpoint must answer `eth_chainId` with the chain's id before anything is signed ([`crate::chains::evm::connect`]);
//! - the token's allowance to the call's contract (the quote's `txTo`, the gateway's contract) is read; when short,
//!   an exact approval of the quoted amount comes first, never an unlimited one; a token that refuses to change a
//!   non-zero allowance (USDT on Ethereum) gets its allowance reset to zero first (found by simulating the approval);
//! - the native balance must cover the value and the most the gas can cost, the token balance the amount, or the
//!   person is told the numbers before anything is signed ([`plan`]);
//! - every transaction is simulated (`eth_call`) and its gas estimated from the owner with the gateway SDK's margin,
//!   max(1.2×, +300,000); an estimate that reverts stops with the reason; fees are EIP-1559 from the node, the nonce
//!   is the node's;
//! - each signed transaction is journaled (raw bytes and hash) **before** it is broadcast, then sent, then its
//!   receipt awaited ([`execute_next`]); after a restart a journaled transaction without a receipt is re-sent as it
//!   is (same hash) or its receipt read: never a second, different transaction for the same step. No step is retried
//!   automatically after its signature.

use std::time::{Duration, Instant};

use alloy::consensus::TxEnvelope;
use alloy::eips::eip2718::Encodable2718;
use alloy::network::{EthereumWallet, TransactionBuilder};
use alloy::primitives::{Address, B256, Bytes, U256};
use alloy::providers::Provider;
use alloy::rpc::types::TransactionRequest;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::SolCall;
use gateway_client::wire::NATIVE_TOKEN;
use tracing::info;

use super::WalletTxProgress;
use super::ledger::{Ledger, OrderToPay, WalletTx, WalletTxKind, WalletTxState};
use super::rail::{
    BoxFuture, EndpointCheck, FeeReserve, PlannedTx, Reach, StepContext, WalletBalance, WalletPlan,
    WalletRail, check_sender, check_signer, confirmed_fee, unpayable,
};
pub use super::{CrashHook, ExecError, Executed, Unsimulated};
use super::{Journaled, journaled, locked};
use crate::chains::erc20::approveCall;
use crate::chains::evm::{EvmEndpoint, connect, known_gateway_spender, revert_reason};
use crate::chains::{ChainError, coin_most_text, coin_text as native_text, token_text};
use crate::simulate::{CallExpectation, SimCall, Simulation};
use crate::verify::{Verified, VerifiedPayload};
use crate::wallet::{Account, Accounts};
use gateway_client::address::ChainFamily;
use gateway_client::wire::RouteKind;

/// The gas the order's call is assumed to need while it cannot be estimated yet (before its approval is mined), in
/// the check that the native balance covers every step.
pub const PAY_GAS_ASSUMED: u64 = 500_000;
/// The gas an approval is assumed to need while it cannot be estimated yet (after a reset to zero).
pub const APPROVE_GAS_ASSUMED: u64 = 400_000;
/// How long a broadcast transaction's receipt is awaited before the order is left to be resumed.
pub const RECEIPT_WAIT: Duration = Duration::from_secs(600);

fn rpc_error(e: impl std::fmt::Display) -> ExecError {
    ExecError::Chain(ChainError::Rpc(e.to_string()))
}

/// The order's call, as verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayCall {
    /// The gateway's order id (empty when the journal has none).
    pub order_id: String,
    /// The contract the call goes to: the quote's `txTo`, the gateway's contract.
    pub to: Address,
    /// The calldata, as create-order returned it.
    pub data: Bytes,
    /// The native value sent with the call, in wei.
    pub value: U256,
    /// The source token (the zero address for the native coin) and the quoted amount.
    pub token: Address,
    /// The quoted amount of the source token, in its smallest unit: what an approval covers exactly.
    pub amount: U256,
    /// The gateway contract the app knows on this network and chain, the only spender it approves to; `None` when it
    /// knows none (then nothing is approved).
    pub known_spender: Option<Address>,
}

/// The order's call, as create-order returned it and verification checked it, with the chain it is on; the error
/// says why there is none.
pub fn pay_call_of(
    order: &OrderToPay,
    known_spender: impl FnOnce(&str) -> Option<Address>,
) -> Result<(String, PayCall), String> {
    let refused = |why: &str| why.to_owned();
    if !matches!(order.route, RouteKind::Offramp | RouteKind::TokenSwap) {
        return Err(refused("This order is not paid with an EVM transaction."));
    }
    let verified: Verified = order
        .verified()
        .ok_or_else(|| refused("This order has no verified transaction."))?;
    let VerifiedPayload::Evm(summary) = &verified.payload else {
        return Err(refused("This order's transaction is not an EVM call."));
    };
    let created = order
        .created()
        .ok_or_else(|| refused("This order's create-order answer is unreadable."))?;
    let tx = created
        .tx()
        .and_then(|t| t.as_evm())
        .ok_or_else(|| refused("This order carries no EVM transaction."))?;
    let to: Address = tx
        .to
        .parse()
        .map_err(|_| refused("The call's contract is not an address."))?;
    if to.to_checksum(None) != summary.call.to || tx.value != summary.call.value {
        return Err(refused(
            "The transaction differs from the one the app verified.",
        ));
    }
    let quote = gateway_client::wire::Quote::from_json(order.quote.clone())
        .map_err(|_| refused("This order's quote is unreadable."))?;
    let input = quote.view().input_amount().clone();
    let token: Address = if input.address == NATIVE_TOKEN || input.address.is_empty() {
        Address::ZERO
    } else {
        input
            .address
            .parse()
            .map_err(|_| refused("The source token is not an address."))?
    };
    Ok((
        input.chain.clone(),
        PayCall {
            order_id: order.order_id.clone().unwrap_or_default(),
            to,
            data: Bytes::from(
                alloy::primitives::hex::decode(&tx.data)
                    .map_err(|_| refused("The calldata is not hex."))?,
            ),
            value: tx
                .value
                .parse()
                .map_err(|_| refused("The value is not a number."))?,
            token,
            amount: input
                .amount
                .parse()
                .map_err(|_| refused("The amount is not a number."))?,
            known_spender: known_spender(&input.chain),
        },
    ))
}

/// A transaction to be planned: kind, call, value.
struct Draft {
    kind: WalletTxKind,
    to: Address,
    data: Bytes,
    value: U256,
    sentence: String,
}

/// Plans what `call` still needs from `owner` on `endpoint`: the approval steps and the call itself, each simulated
/// and estimated, and whether the balances cover them. Reads only; signs nothing.
pub async fn plan(
    endpoint: &EvmEndpoint,
    owner: Address,
    call: &PayCall,
) -> Result<(WalletPlan, Vec<(TransactionRequest, u128)>), ExecError> {
    let chain = endpoint.chain.as_str();
    let spender = call.to.to_checksum(None);
    let base = |to: Address, data: &Bytes, value: U256| {
        TransactionRequest::default()
            .with_from(owner)
            .with_to(to)
            .with_input(data.clone())
            .with_value(value)
            .with_chain_id(endpoint.chain_id)
    };
    let native = endpoint.native_balance(owner).await?;
    let mut drafts = Vec::new();
    let mut token_balance = None;
    let mut shortfall = Vec::new();
    // The allowance to the call's contract the steps leave before the call (see `CallExpectation::granted`).
    let mut granted = U256::ZERO;
    if !call.token.is_zero() {
        let have = endpoint.token_balance(call.token, owner).await?;
        token_balance = Some(have);
        if have < call.amount {
            shortfall.push(format!(
                "The order pays {} but the wallet {} holds {} on {chain}: add at least {}.",
                token_text(chain, call.token, call.amount),
                owner.to_checksum(None),
                token_text(chain, call.token, have),
                token_text(chain, call.token, call.amount - have),
            ));
        }
        let allowance = endpoint.allowance(call.token, owner, call.to).await?;
        let required = endpoint.approval_required(call.to).await;
        granted = allowance;
        if required && allowance < call.amount {
            granted = call.amount;
            // Only ever to the gateway contract the app knows for this chain (the gateway's own SDK refuses any
            // other spender too): a hostile `txTo` must not collect an allowance.
            match call.known_spender {
                Some(known) if known == call.to => {}
                Some(known) => {
                    return Err(ExecError::Spender(format!(
                        "the order's contract {spender} is not the gateway contract the app knows on {chain} ({})",
                        known.to_checksum(None)
                    )));
                }
                None => {
                    return Err(ExecError::Spender(format!(
                        "the app knows no gateway contract on {chain} to approve to"
                    )));
                }
            }
            let approve: Bytes = approveCall {
                spender: call.to,
                amount: call.amount,
            }
            .abi_encode()
            .into();
            // Tokens that refuse to change a non-zero allowance (USDT on Ethereum) need it set to zero first.
            if !allowance.is_zero()
                && endpoint
                    .simulate(&base(call.token, &approve, U256::ZERO))
                    .await
                    .is_err()
            {
                drafts.push(Draft {
                    kind: WalletTxKind::ResetApproval,
                    to: call.token,
                    data: approveCall { spender: call.to, amount: U256::ZERO }.abi_encode().into(),
                    value: U256::ZERO,
                    sentence: format!(
                        "Set the allowance of {} to the gateway's contract {spender} back to zero (it now allows {}; this token refuses to change a non-zero allowance).",
                        token_text(chain, call.token, U256::ZERO).split_whitespace().last().unwrap_or("the token"),
                        token_text(chain, call.token, allowance),
                    ),
                });
            }
            drafts.push(Draft {
                kind: WalletTxKind::Approve,
                to: call.token,
                data: approve,
                value: U256::ZERO,
                sentence: format!(
                    "Approve {} to the gateway's contract {spender} on {chain}: exactly this order's amount, no more.",
                    token_text(chain, call.token, call.amount),
                ),
            });
        }
    }
    let paid = if call.token.is_zero() {
        native_text(chain, call.value)
    } else {
        token_text(chain, call.token, call.amount)
    };
    drafts.push(Draft {
        kind: WalletTxKind::Pay,
        to: call.to,
        data: call.data.clone(),
        value: call.value,
        sentence: format!(
            "Send {paid} to the gateway's contract {spender} on {chain} for order {}.",
            call.order_id
        ),
    });

    let fees = endpoint
        .provider
        .estimate_eip1559_fees()
        .await
        .map_err(rpc_error)?;
    let max_fee = fees.max_fee_per_gas;
    let mut steps = Vec::new();
    let mut requests = Vec::new();
    let mut total = U256::ZERO;
    // Only the first step can be estimated now: each later one depends on the state the earlier ones leave.
    for (index, draft) in drafts.into_iter().enumerate() {
        // Estimated without fee fields: the node would otherwise refuse an estimate the balance cannot pay, and the
        // balance is checked below with the numbers.
        let bare = base(draft.to, &draft.data, draft.value);
        let tx = bare
            .clone()
            .with_max_fee_per_gas(max_fee)
            .with_max_priority_fee_per_gas(fees.max_priority_fee_per_gas);
        let gas =
            if index > 0 {
                None
            } else if shortfall.is_empty() {
                let what = match draft.kind {
                    WalletTxKind::Pay => "order's transaction",
                    _ => "approval",
                };
                let gas = endpoint.gas_for(&bare).await.map_err(|reason| ExecError::WouldRevert {
                what,
                reason,
                next: "Check the balances and the order, then try again or discard the order.",
            })?;
                Some(gas)
            } else {
                None
            };
        let limit = gas.unwrap_or(match draft.kind {
            WalletTxKind::Pay => PAY_GAS_ASSUMED,
            _ => APPROVE_GAS_ASSUMED,
        });
        let cost = U256::from(limit) * U256::from(max_fee);
        total += cost + draft.value;
        steps.push(PlannedTx {
            kind: draft.kind,
            sentence: draft.sentence,
            to: draft.to.to_checksum(None),
            value: draft.value.to_string(),
            gas_limit: gas,
            max_fee: cost.to_string(),
            max_fee_text: coin_most_text(chain, cost),
            max_fee_usd: None,
            fee_sentence: format!("Network fee at most {}.", coin_most_text(chain, cost)),
            rent_text: None,
            fee_needs_acceptance: false,
        });
        requests.push((tx.with_gas_limit(limit), max_fee));
    }
    let shortfall_now = !shortfall.is_empty() || native < total;
    let simulation = if shortfall_now {
        Simulation::not_run("the balances do not cover the order")
    } else {
        let kinds: Vec<WalletTxKind> = steps.iter().map(|s| s.kind).collect();
        let fee_text = native_text(chain, total.saturating_sub(call.value));
        simulate(endpoint, owner, call, &requests, &kinds, granted, fee_text).await?
    };
    if native < total {
        shortfall.push(format!(
            "Gas{} needs up to {} on {chain}, but the wallet {} holds {}: add at least {}.",
            if call.value.is_zero() {
                ""
            } else {
                " and the value sent"
            },
            native_text(chain, total),
            owner.to_checksum(None),
            native_text(chain, native),
            native_text(chain, total - native),
        ));
    }
    Ok((
        {
            let native_balance_text = native_text(chain, native);
            let token_balance_text = token_balance.map(|b| token_text(chain, call.token, b));
            WalletPlan {
                chain: chain.to_owned(),
                owner: owner.to_checksum(None),
                holdings: WalletPlan::holdings_of(
                    &owner.to_checksum(None),
                    &native_balance_text,
                    token_balance_text.as_deref(),
                    chain,
                ),
                steps,
                native_balance_text,
                token_balance_text,
                expired: None,
                shortfall: (!shortfall.is_empty()).then(|| shortfall.join(" ")),
                simulation,
            }
        },
        requests,
    ))
}

/// Runs the steps still to sign (`requests`, of `kinds`) in one simulated block on `endpoint`, then reads the
/// allowance left to the call's contract, and compares what leaves and enters the wallet with the quote
/// ([`crate::simulate::assess_calls`]). A surprise or a revert refuses the order; an endpoint that cannot simulate
/// gives [`crate::simulate::SimulationStatus::Unavailable`].
async fn simulate(
    endpoint: &EvmEndpoint,
    owner: Address,
    call: &PayCall,
    requests: &[(TransactionRequest, u128)],
    kinds: &[WalletTxKind],
    granted: U256,
    max_fee_text: String,
) -> Result<Simulation, ExecError> {
    let mut calls: Vec<TransactionRequest> = requests.iter().map(|(r, _)| r.clone()).collect();
    let token_in = !call.token.is_zero();
    if token_in {
        calls.push(
            TransactionRequest::default()
                .with_from(owner)
                .with_to(call.token)
                .with_input(Bytes::from(
                    crate::chains::evm::allowanceCall {
                        owner,
                        spender: call.to,
                    }
                    .abi_encode(),
                )),
        );
    }
    let source = format!("eth_simulateV1 on {}", endpoint.url);
    let simulated: Vec<SimCall> = match endpoint.simulate_block(&calls).await? {
        Ok(simulated) if simulated.len() == calls.len() => simulated,
        Ok(simulated) => {
            return Ok(Simulation::unavailable(
                format!(
                    "{} simulated {} of the {} calls it was given",
                    endpoint.url,
                    simulated.len(),
                    calls.len()
                ),
                source,
            ));
        }
        Err(why) => return Ok(Simulation::unavailable(why, source)),
    };
    let mut recipients = vec![call.to];
    recipients.extend(crate::verify::calldata::exec_target(&call.data));
    let expect = CallExpectation {
        chain: endpoint.chain.clone(),
        owner,
        token: call.token,
        amount: call.amount,
        value: call.value,
        entry: call.to,
        recipients,
        granted,
        max_fee_text,
    };
    let what: Vec<&'static str> = kinds
        .iter()
        .map(|k| match k {
            WalletTxKind::Pay => "order's transaction",
            WalletTxKind::ResetApproval => "reset of the allowance",
            _ => "approval",
        })
        .collect();
    match crate::simulate::assess_calls(&expect, &simulated, &what, token_in) {
        Ok(simulation) => {
            info!(
                chain = endpoint.chain,
                sentence = simulation.sentence,
                "simulated"
            );
            Ok(Simulation {
                source,
                ..simulation
            })
        }
        Err(surprise) => Err(super::refused_by_simulation(surprise, source)),
    }
}

/// Takes the order one wallet step on: finishes a journaled transaction that has no receipt yet (re-sent as it is),
/// or, when none is pending, signs the first step of a fresh [`plan`] — only when it is the step the person confirmed
/// (`confirmed`) and its gas costs at most what they accepted (`accepted_max_fee_wei, wei`), and only when the chain's
/// simulation of it shows nothing beyond the quote, or it cannot simulate and the person accepted signing without
/// (`unsimulated`, [`Unsimulated`]).
#[allow(clippy::too_many_arguments)]
pub async fn execute_next(
    journal: &dyn Ledger,
    local_id: i64,
    endpoint: &EvmEndpoint,
    signer: Option<&PrivateKeySigner>,
    call: &PayCall,
    confirmed: Option<(WalletTxKind, U256)>,
    unsimulated: Unsimulated,
    progress: &(dyn Fn(WalletTxProgress) + Send + Sync),
    crash: CrashHook<'_>,
) -> Result<Executed, ExecError> {
    match journaled(&journal.order_to_pay(local_id)?) {
        Journaled::Pending(pending) => {
            info!(
                local_id,
                hash = pending.hash,
                "resuming a journaled transaction"
            );
            return finish(journal, local_id, endpoint, &pending, progress, crash).await;
        }
        Journaled::Paid(hash) => return Ok(Executed::Paid { hash }),
        Journaled::Nothing => {}
    }
    let signer = signer.ok_or_else(locked)?;
    let owner = signer.address();
    let (plan, requests) = plan(endpoint, owner, call).await?;
    if let Some(short) = plan.shortfall {
        return Err(ExecError::NotEnough(short));
    }
    unsimulated.check(&plan.simulation)?;
    let ((request, _), kind) =
        super::rail::confirmed_step(plan.steps, requests, confirmed, |step, accepted: U256| {
            format!(
                "its gas may now cost up to {}, more than the {} accepted",
                step.max_fee_text,
                native_text(&endpoint.chain, accepted)
            )
        })?;
    // The simulation again, right before signing, from the same state the nonce is read from.
    endpoint
        .simulate(&request)
        .await
        .map_err(|reason| ExecError::WouldRevert {
            what: if kind == WalletTxKind::Pay {
                "order's transaction"
            } else {
                "approval"
            },
            reason,
            next: "Nothing was signed; check the order and the balances.",
        })?;
    let nonce = endpoint
        .provider
        .get_transaction_count(owner)
        .pending()
        .await
        .map_err(rpc_error)?;
    let envelope: TxEnvelope = request
        .with_nonce(nonce)
        .build(&EthereumWallet::from(signer.clone()))
        .await
        .map_err(|e| ExecError::Sign(e.to_string()))?;
    let hash = format!("{:#x}", envelope.tx_hash());
    let raw = format!(
        "0x{}",
        alloy::primitives::hex::encode(envelope.encoded_2718())
    );
    crash(&format!("{}-signed", kind.slug()));
    let signed = WalletTx {
        kind,
        chain: endpoint.chain.clone(),
        hash: hash.clone(),
        raw,
        nonce,
        state: WalletTxState::Signed,
        block: None,
        reason: None,
    };
    super::rail::journal_signed(journal, local_id, &signed, progress, crash)?;
    finish(journal, local_id, endpoint, &signed, progress, crash).await
}

/// Broadcasts a journaled transaction (again: the same bytes, so the same hash) unless the chain has it, and awaits
/// its receipt.
async fn finish(
    journal: &dyn Ledger,
    local_id: i64,
    endpoint: &EvmEndpoint,
    tx: &WalletTx,
    progress: &(dyn Fn(WalletTxProgress) + Send + Sync),
    crash: CrashHook<'_>,
) -> Result<Executed, ExecError> {
    let hash: B256 = tx.hash.parse().map_err(rpc_error)?;
    let known = endpoint
        .provider
        .get_transaction_by_hash(hash)
        .await
        .map_err(rpc_error)?
        .is_some();
    if !known {
        let raw = alloy::primitives::hex::decode(&tx.raw).map_err(rpc_error)?;
        if let Err(e) = endpoint.provider.send_raw_transaction(&raw).await {
            let text = e.to_string();
            // A node that already has it is fine; any other refusal means it never reached the chain.
            if !text.contains("already known") && !text.contains("AlreadyKnown") {
                let reason = revert_reason(&text);
                journal.wallet_tx_moved(
                    local_id,
                    &tx.hash,
                    WalletTxState::Reverted,
                    None,
                    Some(&format!("refused by the node: {reason}")),
                )?;
                return Err(ExecError::Refused {
                    hash: tx.hash.clone(),
                    reason,
                });
            }
        }
    }
    if tx.state == WalletTxState::Signed {
        journal.wallet_tx_moved(local_id, &tx.hash, WalletTxState::Sent, None, None)?;
    }
    progress(WalletTxProgress::of(local_id, tx, WalletTxState::Sent, 0));
    crash(&format!("{}-sent", tx.kind.slug()));
    let started = Instant::now();
    let receipt = loop {
        if let Some(receipt) = endpoint
            .provider
            .get_transaction_receipt(hash)
            .await
            .map_err(rpc_error)?
        {
            break receipt;
        }
        if started.elapsed() > RECEIPT_WAIT {
            return Err(ExecError::NoReceiptYet {
                hash: tx.hash.clone(),
                secs: RECEIPT_WAIT.as_secs(),
            });
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    let block = receipt.block_number;
    let latest = endpoint
        .latest_block()
        .await
        .unwrap_or(block.unwrap_or_default());
    let confirmations = block.map_or(0, |b| latest.saturating_sub(b) + 1);
    if receipt.status() {
        journal.wallet_tx_moved(local_id, &tx.hash, WalletTxState::Mined, block, None)?;
        progress(WalletTxProgress::of(
            local_id,
            tx,
            WalletTxState::Mined,
            confirmations,
        ));
        info!(local_id, hash = tx.hash, ?block, "mined");
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
        // The reason: the same call replayed on the state the block left (what made it fail is in that state, e.g.
        // a transaction before it in the same block).
        let reason = match endpoint.provider.get_transaction_by_hash(hash).await {
            Ok(Some(sent)) => {
                let replay = TransactionRequest::from_transaction(sent);
                match endpoint
                    .provider
                    .call(replay)
                    .block(block.map_or_else(Default::default, Into::into))
                    .await
                {
                    Err(e) => revert_reason(&e.to_string()),
                    Ok(_) => "no reason given".into(),
                }
            }
            _ => "no reason given".into(),
        };
        journal.wallet_tx_moved(
            local_id,
            &tx.hash,
            WalletTxState::Reverted,
            block,
            Some(&reason),
        )?;
        progress(WalletTxProgress::of(
            local_id,
            tx,
            WalletTxState::Reverted,
            confirmations,
        ));
        Err(ExecError::Reverted {
            hash: tx.hash.clone(),
            reason,
        })
    }
}
/// The order's call ([`pay_call_of`]) with the spender the app knows on this network: the Sandbox's pinned contract
/// (`sandbox_pins`), elsewhere the gateway's published approval spender ([`known_gateway_spender`]). A refusal says
/// nothing is signed.
pub fn pay_call_on(order: &OrderToPay, sandbox_pins: bool) -> Result<(String, PayCall), ExecError> {
    pay_call_of(order, |chain| {
        if sandbox_pins {
            gateway_payload::sandbox::gateway_contract(chain)
                .parse()
                .ok()
        } else {
            known_gateway_spender(chain)
        }
    })
    .map_err(unpayable)
}

/// The EVM chains' rail ([`WalletRail`]).
pub struct EvmRail;

fn evm_address(text: &str, what: &str) -> Result<Address, ExecError> {
    text.parse().map_err(|_| {
        ExecError::Unsigned(format!(
            "The wallet's EVM address {text} does not read back ({what})."
        ))
    })
}

impl WalletRail for EvmRail {
    fn family(&self) -> ChainFamily {
        ChainFamily::Evm
    }

    fn account<'a>(&self, accounts: &'a Accounts) -> Result<&'a Account, ExecError> {
        Ok(accounts.evm()?)
    }

    fn check_endpoint<'a>(
        &'a self,
        reach: &'a Reach,
    ) -> BoxFuture<'a, Result<EndpointCheck, ExecError>> {
        Box::pin(async move {
            let endpoint = connect(&reach.chain, &reach.urls).await?;
            let latest_block = endpoint.latest_block().await?;
            Ok(EndpointCheck {
                url: endpoint.url.clone(),
                chain_id: endpoint.chain_id,
                latest_block,
                answered: format!(
                    "chain id {}, latest block {latest_block}",
                    endpoint.chain_id
                ),
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
            let chain = reach.chain.as_str();
            let owner = evm_address(owner, "balance")?;
            let endpoint = connect(chain, &reach.urls).await?;
            let native = token.is_empty() || token == NATIVE_TOKEN;
            let gas_price = endpoint.gas_price().await?;
            let keep = U256::from(PAY_GAS_ASSUMED) * U256::from(gas_price);
            let basis = format!(
                "{} gas, the most the app lets an order's call use, at {} gwei, the chain's gas price now",
                gateway_client::display::grouped(PAY_GAS_ASSUMED),
                gateway_client::amount::format_units_up(U256::from(gas_price), 9, 3)
            );
            let (amount, max) = if native {
                let have = endpoint.native_balance(owner).await?;
                (have, have.saturating_sub(keep))
            } else {
                let token: Address = token.parse().map_err(|_| ExecError::Invalid {
                    field: "token",
                    message: format!("{token:?} is not a token address."),
                })?;
                let have = endpoint.token_balance(token, owner).await?;
                (have, have)
            };
            WalletBalance::of(
                chain,
                token,
                native,
                amount,
                max,
                FeeReserve {
                    amount: keep,
                    basis,
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
            let (chain, call) = pay_call_on(order, reach.sandbox_pins)?;
            let owner = evm_address(owner, "plan")?;
            check_sender(order, &owner.to_checksum(None))?;
            let endpoint = connect(&chain, &reach.urls).await?;
            let (plan, _) = plan(&endpoint, owner, &call).await?;
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
            let (chain, call) = pay_call_on(order, reach.sandbox_pins)?;
            let signer = context
                .keeper
                .with_seed(crate::wallet::evm_signer)
                .transpose()?;
            check_signer(
                order,
                signer
                    .as_ref()
                    .map(|s| s.address().to_checksum(None))
                    .as_deref(),
            )?;
            let endpoint = connect(&chain, &reach.urls).await?;
            let fee = confirmed_fee::<U256>(context.confirmed.max_fee.as_deref(), "wei")?;
            let accepted = context.confirmed.kind.zip(fee);
            execute_next(
                context.journal,
                context.local_id,
                &endpoint,
                signer.as_ref(),
                &call,
                accepted,
                context.unsimulated,
                context.progress,
                &|_| {},
            )
            .await
        })
    }
}
