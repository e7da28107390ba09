//! Offramps and token swaps from Solana, signed and sent by the app's wallet.
//!
//! The order's `VersionedTransaction` was verified against the quote before anything here runs
//! ([`crate::verify`]: the wallet's account is the fee payer and only signer, the gateway program is called once
//! with the quoted amounts, nothing else but compute-budget and token-account creation). Here, as the interface
//! says, it is decoded, its message signed with the wallet's ed25519 key, the signature placed in the fee payer's
//! slot, the transaction re-serialized and sent; the base64 text itself is never signed, and the message is never
//! changed (not even its blockhash: a transaction whose blockhash expired is explained, and a new order is the
//! next step).
//! - the endpoint must answer the cluster's genesis hash first ([`node::connect`]);
//! - the plan reads the SOL balance (for the fee, the amount when it is SOL, and the rent of a token account the
//!   transaction creates), the token balance when the order pays an SPL token, the fee the cluster charges for
//!   this exact message, and whether its blockhash is still valid ([`plan`]);
//! - the signed transaction and its signature are journaled **before** it is sent; then sent, then its status
//!   followed until it is confirmed ([`execute`]). After a restart a journaled transaction is re-sent as it is
//!   (the same signature: Solana executes a signature once) or its status read.

use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bincode::Options as _;
use ed25519_dalek::{Signer as _, SigningKey};
use gateway_client::wire::{NATIVE_TOKEN, RouteKind};
use serde::{Deserialize, Serialize};
use solana_pubkey::Pubkey;
use solana_signature::Signature;
use solana_transaction::versioned::VersionedTransaction;
use tracing::info;

use self::node::{SendRefusal, SolanaEndpoint, sol_text, spl_text};
pub use crate::execute::Unsimulated;
use crate::execute::ledger::{Ledger, OrderToPay, WalletTx, WalletTxKind, WalletTxState};
use crate::execute::rail::{
    BoxFuture, EndpointCheck, FeeReserve, PlannedTx, Reach, StepContext, WalletBalance, WalletPlan,
    WalletRail, check_sender, check_signer, confirmed_fee, unpayable,
};
use crate::execute::{
    CrashHook, ExecError, Executed, Journaled, WalletTxProgress, journaled, locked,
};
use crate::simulate::{Simulation, SolAccount};

pub mod node;
pub mod simulation;
use crate::verify::{FamilySummary, Verified, VerifiedPayload};
use crate::wallet::{Account, Accounts, KeyFamily};

use gateway_client::address::ChainFamily;
use simulation::SolanaExpectation;

/// The wallet's Solana keys.
const SOLANA_KEYS: KeyFamily = KeyFamily(ChainFamily::Solana);

/// How long a sent transaction's confirmation is awaited before the order is left to be resumed.
pub const CONFIRMATION_WAIT: Duration = Duration::from_secs(120);
/// The rent a new SPL token account locks (165 bytes, rent-exempt), in lamports.
pub const TOKEN_ACCOUNT_RENT: u64 = 2_039_280;

/// The Associated Token Account program.
const ASSOCIATED_TOKEN_PROGRAM: Pubkey =
    solana_pubkey::pubkey!("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");

/// The order's transaction, as create-order returned it and verification checked it.
#[derive(Debug, Clone)]
pub struct SolanaPay {
    /// The gateway's order id (empty when the journal has none).
    pub order_id: String,
    /// The transaction as the gateway built it; only the fee payer's signature is added to it.
    pub transaction: VersionedTransaction,
    /// The account that pays the fee and signs: it must be the wallet's Solana account.
    pub fee_payer: Pubkey,
    /// The SPL mint paid, `None` for SOL.
    pub mint: Option<Pubkey>,
    /// The quoted amount, in the token's smallest unit.
    pub amount: u64,
}

impl SolanaPay {
    /// The transaction's recent blockhash, Base58.
    pub fn blockhash(&self) -> String {
        self.transaction.message.recent_blockhash().to_string()
    }

    /// The message as Solana signs it (its wire form), base64 for `getFeeForMessage`.
    fn message_bytes(&self) -> Vec<u8> {
        bincode::serialize(&self.transaction.message).unwrap_or_default()
    }

    /// How many token accounts the transaction creates (idempotent creations: each may lock rent).
    fn creates_token_accounts(&self) -> u64 {
        let keys = self.transaction.message.static_account_keys();
        let count = self
            .transaction
            .message
            .instructions()
            .iter()
            .filter(|ix| {
                keys.get(usize::from(ix.program_id_index)) == Some(&ASSOCIATED_TOKEN_PROGRAM)
            })
            .count();
        u64::try_from(count).unwrap_or(u64::MAX)
    }
}

/// The order's Solana transaction ([`SolanaPay`]); the error says why there is none.
pub fn solana_pay_of(order: &OrderToPay) -> Result<SolanaPay, String> {
    let refused = |why: &str| why.to_owned();
    if !matches!(order.route, RouteKind::Offramp | RouteKind::TokenSwap) {
        return Err(refused("This order is not paid with a Solana transaction."));
    }
    let verified: Verified = order
        .verified()
        .ok_or_else(|| refused("This order has no verified transaction."))?;
    let VerifiedPayload::Family(FamilySummary::Solana(summary)) = &verified.payload else {
        return Err(refused(
            "This order's transaction is not a Solana transaction.",
        ));
    };
    let created = order
        .created()
        .ok_or_else(|| refused("This order's create-order answer is unreadable."))?;
    let b64 = match created.tx() {
        Some(gateway_client::wire::OrderTx::Tagged(gateway_client::wire::TxData::Family(
            gateway_client::chains::FamilyTx::Solana(tx),
        ))) => tx.transaction.clone(),
        _ => return Err(refused("This order carries no Solana transaction.")),
    };
    let bytes = STANDARD
        .decode(b64.trim())
        .map_err(|_| refused("The order's Solana transaction is not base64."))?;
    let transaction: VersionedTransaction = crate::verify::solana_wire_options()
        .deserialize(&bytes)
        .map_err(|_| refused("The order's Solana transaction is unreadable."))?;
    let fee_payer = *transaction
        .message
        .static_account_keys()
        .first()
        .ok_or_else(|| refused("The order's Solana transaction names no account."))?;
    if fee_payer.to_string() != summary.fee_payer
        || transaction.message.recent_blockhash().to_string() != summary.recent_blockhash
    {
        return Err(refused(
            "The transaction differs from the one the app verified.",
        ));
    }
    let quote = gateway_client::wire::Quote::from_json(order.quote.clone())
        .map_err(|_| refused("This order's quote is unreadable."))?;
    let input = quote.view().input_amount().clone();
    let mint = if input.address == NATIVE_TOKEN
        || input.address.is_empty()
        || input.address == "11111111111111111111111111111111"
    {
        None
    } else {
        Some(
            input
                .address
                .parse::<Pubkey>()
                .map_err(|_| refused("The source token is not a Solana mint."))?,
        )
    };
    Ok(SolanaPay {
        order_id: order.order_id.clone().unwrap_or_default(),
        transaction,
        fee_payer,
        mint,
        amount: input.amount.parse().map_err(|_| {
            refused("The amount is not a whole number of the token's smallest unit.")
        })?,
    })
}

/// What signing the order's Solana transaction will do and cost, read before anything is signed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SolanaPlan {
    /// The wallet's Solana account that signs and pays the fee, Base58.
    pub owner: String,
    /// The step in words: what is sent where, for which order.
    pub sentence: String,
    /// The fee the cluster charges for this exact message (base and priority fee), in lamports, and as text.
    pub fee_lamports: String,
    /// The same fee in SOL, as a person reads it.
    pub fee_text: String,
    /// Rent a token account the transaction creates may lock, as text (`None` when it creates none).
    pub rent_text: Option<String>,
    /// The wallet's SOL balance, as a person reads it.
    pub sol_balance_text: String,
    /// The wallet's balance of the SPL token paid, as a person reads it (`None` when the order pays SOL).
    pub token_balance_text: Option<String>,
    /// The transaction's blockhash, and whether Solana still takes it.
    pub blockhash: String,
    /// Whether Solana still takes the blockhash; once it does not, the transaction can never be executed.
    pub blockhash_valid: bool,
    /// What is missing, in words, when the wallet cannot pay.
    pub shortfall: Option<String>,
    /// What the chain's own run of the transaction (`simulateTransaction`) showed leaving and entering the wallet.
    pub simulation: Simulation,
}

/// Reads the plan of `pay` for the wallet account `owner` (which must be its fee payer).
pub async fn plan(
    endpoint: &SolanaEndpoint,
    owner: &Pubkey,
    pay: &SolanaPay,
) -> Result<SolanaPlan, ExecError> {
    if *owner != pay.fee_payer {
        return Err(ExecError::Changed(format!(
            "the order's transaction is paid for by {}, not this wallet's Solana account {owner}",
            pay.fee_payer
        )));
    }
    let blockhash = pay.blockhash();
    let blockhash_valid = endpoint.blockhash_valid(&blockhash).await?;
    let fee = if blockhash_valid {
        endpoint
            .fee_for_message(&STANDARD.encode(pay.message_bytes()))
            .await?
    } else {
        None
    };
    let fee = fee.unwrap_or_else(|| {
        self::node::LAMPORTS_PER_SIGNATURE
            * u64::from(pay.transaction.message.header().num_required_signatures)
    });
    let rent = TOKEN_ACCOUNT_RENT.saturating_mul(pay.creates_token_accounts());
    let sol = endpoint.balance(owner).await?;
    let mut shortfall = Vec::new();
    let mut token_balance = None;
    let paid = match &pay.mint {
        Some(mint) => {
            let have = endpoint.token_balance(owner, mint).await?;
            token_balance = Some(spl_text(mint, have));
            if have < pay.amount {
                shortfall.push(format!(
                    "The order pays {} but the wallet {owner} holds {} on Solana: add at least {}.",
                    spl_text(mint, pay.amount),
                    spl_text(mint, have),
                    spl_text(mint, pay.amount - have),
                ));
            }
            spl_text(mint, pay.amount)
        }
        None => sol_text(pay.amount),
    };
    let native_out = if pay.mint.is_none() { pay.amount } else { 0 };
    let needed = fee.saturating_add(rent).saturating_add(native_out);
    if sol < needed {
        shortfall.push(format!(
            "The fee{} needs {} on Solana, but the wallet {owner} holds {}: add at least {}.",
            if native_out > 0 {
                " and the amount sent"
            } else {
                ""
            },
            sol_text(needed),
            sol_text(sol),
            sol_text(needed - sol),
        ));
    }
    let simulation = if !shortfall.is_empty() || !blockhash_valid {
        Simulation::not_run(if blockhash_valid {
            "the balances do not cover the order"
        } else {
            "the transaction's blockhash has expired"
        })
    } else {
        simulate(endpoint, owner, pay, fee, rent).await?
    };
    Ok(SolanaPlan {
        simulation,
        owner: owner.to_string(),
        sentence: format!(
            "Send {paid} to the gateway's Solana program for order {}, signed by {owner} (the fee payer and only signer).",
            pay.order_id
        ),
        fee_lamports: fee.to_string(),
        fee_text: sol_text(fee),
        rent_text: (rent > 0).then(|| sol_text(rent)),
        sol_balance_text: sol_text(sol),
        token_balance_text: token_balance,
        blockhash,
        blockhash_valid,
        shortfall: (!shortfall.is_empty()).then(|| shortfall.join(" ")),
    })
}

/// The accounts of the message the transaction may write, in order.
fn writable_keys(pay: &SolanaPay) -> Vec<Pubkey> {
    let message = &pay.transaction.message;
    let keys = message.static_account_keys();
    let header = message.header();
    let signed = usize::from(header.num_required_signatures);
    let readonly_signed = usize::from(header.num_readonly_signed_accounts);
    let readonly_unsigned = usize::from(header.num_readonly_unsigned_accounts);
    keys.iter()
        .enumerate()
        .filter(|(i, _)| {
            if *i < signed {
                *i < signed.saturating_sub(readonly_signed)
            } else {
                *i < keys.len().saturating_sub(readonly_unsigned)
            }
        })
        .map(|(_, k)| *k)
        .collect()
}

/// Runs `pay`'s unsigned transaction on the node (`simulateTransaction`) and compares the wallet's account and its
/// token accounts before and after with the quote ([`simulation::assess_solana`]). A surprise or a failed run
/// refuses the order; an endpoint that cannot simulate gives [`crate::simulate::SimulationStatus::Unavailable`].
async fn simulate(
    endpoint: &SolanaEndpoint,
    owner: &Pubkey,
    pay: &SolanaPay,
    fee: u64,
    rent: u64,
) -> Result<Simulation, ExecError> {
    let mut watched = vec![*owner];
    watched.extend(writable_keys(pay).into_iter().filter(|k| k != owner));
    let source = format!("simulateTransaction on {}", endpoint.url);
    let before = endpoint.accounts(&watched).await?;
    let wire = crate::verify::solana_wire_options()
        .serialize(&pay.transaction)
        .map_err(|e| ExecError::Sign(e.to_string()))?;
    let after = match endpoint.simulate(&STANDARD.encode(wire), &watched).await? {
        Ok(after) => after,
        Err(why) => return Ok(Simulation::unavailable(why, source)),
    };
    let rows: Vec<([u8; 32], Option<SolAccount>, Option<SolAccount>)> = watched
        .iter()
        .zip(before)
        .zip(after.accounts.into_iter().chain(std::iter::repeat(None)))
        .map(|((k, b), a)| (k.to_bytes(), b, a))
        .collect();
    let expect = SolanaExpectation {
        owner: owner.to_bytes(),
        mint: pay.mint.map(|m| m.to_bytes()),
        amount: pay.amount,
        fee,
        rent,
    };
    match simulation::assess_solana(&expect, &rows, after.err.as_deref()) {
        Ok(simulation) => {
            info!(sentence = simulation.sentence, "simulated on Solana");
            Ok(Simulation {
                source,
                ..simulation
            })
        }
        Err(surprise) => Err(crate::execute::refused_by_simulation(surprise, source)),
    }
}

/// Signs `pay`'s transaction with `key` (only the message; the fee payer's slot), as Solana's wire form in base64,
/// with its signature (Base58).
pub fn sign(pay: &SolanaPay, key: &SigningKey) -> Result<(String, String), ExecError> {
    if Pubkey::new_from_array(key.verifying_key().to_bytes()) != pay.fee_payer {
        return Err(ExecError::Sign(
            "the wallet's Solana key is not the transaction's fee payer".into(),
        ));
    }
    let mut tx = pay.transaction.clone();
    let message = pay.message_bytes();
    let signed = key.sign(&message);
    key.verifying_key()
        .verify_strict(&message, &signed)
        .map_err(|e| ExecError::Sign(format!("the signature does not verify ({e})")))?;
    let signature = Signature::from(signed.to_bytes());
    let slot = tx
        .signatures
        .first_mut()
        .ok_or_else(|| ExecError::Sign("the transaction has no signature slot".into()))?;
    *slot = signature;
    let wire = crate::verify::solana_wire_options()
        .serialize(&tx)
        .map_err(|e| ExecError::Sign(e.to_string()))?;
    Ok((STANDARD.encode(wire), signature.to_string()))
}

/// Signs and sends the order's transaction — only if its fee is at most `accepted_fee` lamports (what the person
/// confirmed) — and follows it until it is confirmed; a journaled one is finished instead (re-sent as it is, or its
/// status read). Returns the signature.
#[allow(clippy::too_many_arguments)]
pub async fn execute(
    journal: &dyn Ledger,
    local_id: i64,
    endpoint: &SolanaEndpoint,
    key: Option<&SigningKey>,
    pay: &SolanaPay,
    accepted_fee: Option<u64>,
    unsimulated: crate::execute::Unsimulated,
    progress: &(dyn Fn(WalletTxProgress) + Send + Sync),
    crash: CrashHook<'_>,
) -> Result<String, ExecError> {
    match journaled(&journal.order_to_pay(local_id)?) {
        Journaled::Pending(pending) => {
            info!(
                local_id,
                signature = pending.hash,
                "resuming a journaled Solana transaction"
            );
            return finish(journal, local_id, endpoint, pay, &pending, progress, crash).await;
        }
        Journaled::Paid(signature) => return Ok(signature),
        Journaled::Nothing => {}
    }
    let key = key.ok_or_else(locked)?;
    let owner = Pubkey::new_from_array(key.verifying_key().to_bytes());
    let plan = plan(endpoint, &owner, pay).await?;
    if !plan.blockhash_valid {
        return Err(ExecError::Expired {
            chain: ChainFamily::Solana.name(),
            blockhash: plan.blockhash,
            what: "not signed",
        });
    }
    if let Some(short) = plan.shortfall {
        return Err(ExecError::NotEnough(short));
    }
    unsimulated.check(&plan.simulation)?;
    let Some(accepted) = accepted_fee else {
        return Err(ExecError::Changed("no fee was confirmed".into()));
    };
    // A fee that does not read as lamports is above any accepted one, as the other rails' (`confirmed_step`).
    if !plan
        .fee_lamports
        .parse::<u64>()
        .is_ok_and(|fee| fee <= accepted)
    {
        return Err(ExecError::Changed(format!(
            "its fee is now {}, more than the {} accepted",
            plan.fee_text,
            sol_text(accepted)
        )));
    }
    let (raw, signature) = sign(pay, key)?;
    crash("pay-signed");
    let signed = WalletTx {
        kind: WalletTxKind::Pay,
        chain: "solana".into(),
        hash: signature.clone(),
        raw,
        nonce: 0,
        state: WalletTxState::Signed,
        block: None,
        reason: None,
    };
    let in_words = |p: WalletTxProgress| progress(in_solana_words(p));
    super::journal_signed(journal, local_id, &signed, &in_words, crash)?;
    finish(journal, local_id, endpoint, pay, &signed, progress, crash).await
}

/// Sends a journaled transaction (again: the same bytes, so the same signature) unless the cluster has it, then
/// follows its status until it is confirmed or fails.
async fn finish(
    journal: &dyn Ledger,
    local_id: i64,
    endpoint: &SolanaEndpoint,
    pay: &SolanaPay,
    tx: &WalletTx,
    progress: &(dyn Fn(WalletTxProgress) + Send + Sync),
    crash: CrashHook<'_>,
) -> Result<String, ExecError> {
    let progress_at = |state: WalletTxState, confirmations: u64| {
        progress(in_solana_words(WalletTxProgress::of(
            local_id,
            tx,
            state,
            confirmations,
        )));
    };
    let never = |journal: &dyn Ledger, reason: &str| -> Result<(), ExecError> {
        journal.wallet_tx_moved(
            local_id,
            &tx.hash,
            WalletTxState::Reverted,
            None,
            Some(reason),
        )?;
        progress_at(WalletTxState::Reverted, 0);
        Ok(())
    };
    if endpoint.status(&tx.hash).await?.is_none() {
        match endpoint.send(&tx.raw).await? {
            Ok(_) | Err(SendRefusal::AlreadyProcessed) => {}
            Err(SendRefusal::BlockhashNotFound) => {
                never(journal, "its blockhash expired before it reached Solana")?;
                return Err(ExecError::Expired {
                    chain: ChainFamily::Solana.name(),
                    blockhash: pay.blockhash(),
                    what: "signed but never executed",
                });
            }
            Err(SendRefusal::Other(reason)) => {
                never(journal, &format!("refused by the node: {reason}"))?;
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
    progress_at(WalletTxState::Sent, 0);
    crash("pay-sent");
    let started = Instant::now();
    loop {
        match endpoint.status(&tx.hash).await? {
            Some(status) if status.err.is_some() => {
                let reason = status.err.unwrap_or_default();
                journal.wallet_tx_moved(
                    local_id,
                    &tx.hash,
                    WalletTxState::Reverted,
                    Some(status.slot),
                    Some(&reason),
                )?;
                progress_at(WalletTxState::Reverted, 0);
                return Err(ExecError::Reverted {
                    hash: tx.hash.clone(),
                    reason,
                });
            }
            Some(status) if status.confirmation != "processed" => {
                journal.wallet_tx_moved(
                    local_id,
                    &tx.hash,
                    WalletTxState::Mined,
                    Some(status.slot),
                    None,
                )?;
                progress_at(WalletTxState::Mined, 1);
                info!(
                    local_id,
                    signature = tx.hash,
                    slot = status.slot,
                    confirmation = status.confirmation,
                    "confirmed"
                );
                crash("pay-mined");
                return Ok(tx.hash.clone());
            }
            Some(_) => {}
            None => {
                // Not seen, and its blockhash gone: it can never be executed now.
                if !endpoint.blockhash_valid(&pay.blockhash()).await? {
                    never(journal, "its blockhash expired before Solana executed it")?;
                    return Err(ExecError::Expired {
                        chain: ChainFamily::Solana.name(),
                        blockhash: pay.blockhash(),
                        what: "signed but never executed",
                    });
                }
            }
        }
        if started.elapsed() > CONFIRMATION_WAIT {
            return Err(ExecError::NoReceiptYet {
                hash: tx.hash.clone(),
                secs: CONFIRMATION_WAIT.as_secs(),
            });
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}
impl SolanaPlan {
    /// The plan as the window and the command line read every family's: one step, the order's transaction.
    pub fn into_wallet_plan(self, pay: &SolanaPay) -> WalletPlan {
        let message = &pay.transaction.message;
        let program = message
            .instructions()
            .last()
            .and_then(|ix| {
                message
                    .static_account_keys()
                    .get(usize::from(ix.program_id_index))
            })
            .map(ToString::to_string)
            .unwrap_or_default();
        let expired = (!self.blockhash_valid).then(|| {
            format!(
                "The gateway built this transaction on the blockhash {}, which Solana no longer accepts (a blockhash \
                 lasts about a minute). It cannot be executed: nothing is signed. Ask for a new quote and create a new \
                 order.",
                self.blockhash
            )
        });
        WalletPlan {
            chain: "solana".into(),
            holdings: WalletPlan::holdings_of(
                &self.owner,
                &self.sol_balance_text,
                self.token_balance_text.as_deref(),
                "Solana",
            ),
            owner: self.owner,
            steps: vec![PlannedTx {
                kind: WalletTxKind::Pay,
                sentence: self.sentence,
                to: program,
                value: if pay.mint.is_none() { pay.amount } else { 0 }.to_string(),
                gas_limit: None,
                max_fee: self.fee_lamports,
                fee_sentence: format!("Network fee {}.", self.fee_text),
                max_fee_text: self.fee_text,
                max_fee_usd: None,
                rent_text: self.rent_text,
                fee_needs_acceptance: false,
            }],
            native_balance_text: self.sol_balance_text,
            token_balance_text: self.token_balance_text,
            expired,
            shortfall: self.shortfall,
            simulation: self.simulation,
        }
    }
}

/// The order's Solana transaction, or the refusal saying nothing is signed.
fn pay_on(order: &OrderToPay) -> Result<SolanaPay, ExecError> {
    solana_pay_of(order).map_err(unpayable)
}

/// An endpoint of Solana checked to be the network's cluster (its genesis hash): the Sandbox's own, or mainnet-beta.
async fn endpoint_of(reach: &Reach) -> Result<SolanaEndpoint, ExecError> {
    let genesis = if reach.sandbox_nodes {
        gateway_payload::sandbox::SANDBOX_GENESIS
    } else {
        self::node::MAINNET_GENESIS
    };
    Ok(self::node::connect(&reach.urls, genesis).await?)
}

fn solana_account(text: &str) -> Result<Pubkey, ExecError> {
    text.parse().map_err(|_| {
        ExecError::Unsigned(format!(
            "The wallet's Solana address {text} does not read back."
        ))
    })
}

/// Solana's rail ([`WalletRail`]): one transaction, built by the gateway, signed by the wallet as its fee payer.
pub struct SolanaRail;

/// This family's rail as the list of rails names it (`rail_for`).
pub use SolanaRail as Rail;

impl WalletRail for SolanaRail {
    fn family(&self) -> ChainFamily {
        ChainFamily::Solana
    }

    fn account<'a>(&self, accounts: &'a Accounts) -> Result<&'a Account, ExecError> {
        Ok(accounts.required(SOLANA_KEYS)?)
    }

    fn done_line(&self, tx: &WalletTx) -> String {
        format!(
            "confirmed: {} (slot {})",
            tx.hash,
            tx.block.unwrap_or_default()
        )
    }

    fn check_endpoint<'a>(
        &'a self,
        reach: &'a Reach,
    ) -> BoxFuture<'a, Result<EndpointCheck, ExecError>> {
        Box::pin(async move {
            let endpoint = endpoint_of(reach).await?;
            let (_, slot) = endpoint.latest_blockhash().await?;
            Ok(EndpointCheck {
                url: endpoint.url.clone(),
                chain_id: 0,
                latest_block: slot,
                answered: format!("the chain itself, latest slot {slot}"),
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
            let owner = solana_account(owner)?;
            let endpoint = endpoint_of(reach).await?;
            let native = token.is_empty()
                || token == NATIVE_TOKEN
                || token == "11111111111111111111111111111111";
            // The fee of a transaction and the rent of one token account: what Max of SOL keeps, and what paying a
            // token needs in SOL.
            let keep = self::node::LAMPORTS_PER_SIGNATURE + TOKEN_ACCOUNT_RENT;
            let (amount, max) = if native {
                let have = endpoint.balance(&owner).await?;
                (have, have.saturating_sub(keep))
            } else {
                let mint: Pubkey = token.parse().map_err(|_| ExecError::Invalid {
                    field: "token",
                    message: format!("{token:?} is not a Solana mint."),
                })?;
                let have = endpoint.token_balance(&owner, &mint).await?;
                (have, have)
            };
            WalletBalance::of(
                "solana",
                token,
                native,
                alloy::primitives::U256::from(amount),
                alloy::primitives::U256::from(max),
                FeeReserve {
                    amount: alloy::primitives::U256::from(keep),
                    basis: "one signature's fee and the rent of one new token account".into(),
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
            let pay = pay_on(order)?;
            let owner = solana_account(owner)?;
            let endpoint = endpoint_of(reach).await?;
            check_sender(order, &owner.to_string())?;
            Ok(plan(&endpoint, &owner, &pay).await?.into_wallet_plan(&pay))
        })
    }

    fn step<'a>(
        &'a self,
        reach: &'a Reach,
        order: &'a OrderToPay,
        context: StepContext<'a>,
    ) -> BoxFuture<'a, Result<Executed, ExecError>> {
        Box::pin(async move {
            let pay = pay_on(order)?;
            let key = context
                .keeper
                .with_seed(|seed| crate::wallet::ed25519_signer(seed, SOLANA_KEYS))
                .transpose()?;
            let owner = key
                .as_ref()
                .map(|k| Pubkey::new_from_array(k.verifying_key().to_bytes()).to_string());
            check_signer(order, owner.as_deref())?;
            let endpoint = endpoint_of(reach).await?;
            let accepted = confirmed_fee::<u64>(context.confirmed.max_fee.as_deref(), "lamports")?;
            let signature = execute(
                context.journal,
                context.local_id,
                &endpoint,
                key.as_ref(),
                &pay,
                accepted,
                context.unsimulated,
                context.progress,
                &|_| {},
            )
            .await?;
            Ok(Executed::Paid { hash: signature })
        })
    }
}

/// `progress` in Solana's words: one transaction, confirmed by the cluster rather than mined.
fn in_solana_words(mut progress: WalletTxProgress) -> WalletTxProgress {
    let hash = &progress.hash;
    progress.text = match progress.state {
        WalletTxState::Signed => {
            format!("The transaction {hash} is signed and kept; sending it…")
        }
        WalletTxState::Sent => {
            format!("The transaction {hash} is sent; waiting for Solana to confirm it…")
        }
        WalletTxState::Mined => format!("The transaction {hash} is confirmed on Solana."),
        WalletTxState::Reverted => {
            format!("The transaction {hash} failed or was never executed; nothing was paid.")
        }
    };
    progress
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_is_put_in_solanas_words() {
        let pay = WalletTx {
            kind: WalletTxKind::Pay,
            chain: "solana".into(),
            hash: "5sig".into(),
            raw: String::new(),
            nonce: 0,
            state: WalletTxState::Signed,
            block: None,
            reason: None,
        };
        assert_eq!(
            in_solana_words(WalletTxProgress::of(1, &pay, WalletTxState::Mined, 1)).text,
            "The transaction 5sig is confirmed on Solana."
        );
        assert!(
            in_solana_words(WalletTxProgress::of(1, &pay, WalletTxState::Reverted, 0))
                .text
                .contains("nothing was paid")
        );
        assert_eq!(
            in_solana_words(WalletTxProgress::of(1, &pay, WalletTxState::Sent, 0)).text,
            "The transaction 5sig is sent; waiting for Solana to confirm it…"
        );
    }
}
