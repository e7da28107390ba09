//! The swap flow, one state machine for every route:
//! quote → create order → verify what the gateway asks to be signed → external signing → register → track.
//!
//! Every step that creates state on the gateway is journaled before it is sent and after it answers ([`Journal`]),
//! so [`Flow::resume`] can finish any order after a crash. The app never signs: the person exports the PSBT or the
//! transaction, signs it with the wallet they trust, and hands back the signed transaction (or its id/hash).
//!
//! A refusal the person can fix (a missing owner address, an amount below the minimum, a slippage out of bounds)
//! comes back from [`Flow::quote`] as a [`Question`] to ask; the answer goes into the request and the quote is
//! asked for again.

use gateway_client::txhash;
use gateway_client::wire::{
    CreateOrderResponse, OrderInfo, Quote, RegisterTx, RegisterTxResponse, RouteKind,
};
use gateway_client::{Client, ClientError, ErrorCode, ErrorDetails, QuoteRequest};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tracing::{info, instrument, warn};
use ts_rs::TS;

use crate::api::{DeskError, ErrorKind};
use crate::journal::{HandedIn, Journal, JournalError, JournalOrder, NextStep, Stage};
use crate::verify::{self, Verified, VerifyPolicy};

/// What the person must supply before the quote can be asked for again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "QuestionField.ts")]
pub enum QuestionField {
    /// The EVM address that owns the order and may claim a refund (`ownerAddress`).
    OwnerAddress,
    /// The amount, at least the minimum.
    Amount,
    /// The slippage tolerance, in bps.
    Slippage,
}

/// A refusal turned into a question: what to ask, and a value the gateway suggested.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "Question.ts")]
pub struct Question {
    pub field: QuestionField,
    /// The question, as a sentence.
    pub message: String,
    /// A value that would be accepted (the minimum amount in smallest units, say).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub suggestion: Option<String>,
    /// The gateway's code that raised it.
    pub code: String,
    /// The most slippage this route takes, in bps, when the gateway said (`MAX_SLIPPAGE_EXCEEDED`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_bps: Option<u32>,
}

/// The answer of [`Flow::quote`].
#[derive(Debug, Clone)]
pub enum QuoteOutcome {
    /// A quote that matches its request, with what the app computed of it (the loss, the fee lines).
    Quote(Box<Quote>, verify::request::QuoteCheck),
    /// The gateway needs something from the person first.
    Ask(Question),
}

/// Why a step of the flow failed.
#[derive(Debug, thiserror::Error)]
pub enum FlowError {
    /// The gateway or the connection failed; nothing the journal did not record happened.
    #[error(transparent)]
    Desk(#[from] DeskError),
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// What the gateway asks to be signed does not match the quote: the order is refused, not to be signed.
    #[error("{0}")]
    Refused(String),
    /// What the person handed in is not acceptable (not sent to the gateway).
    #[error("{0}")]
    BadInput(String),
}

impl From<ClientError> for FlowError {
    fn from(err: ClientError) -> Self {
        Self::Desk(err.into())
    }
}

impl From<FlowError> for DeskError {
    fn from(err: FlowError) -> Self {
        match err {
            FlowError::Desk(e) => e,
            FlowError::Journal(e) => DeskError::new(ErrorKind::Journal, e.to_string()),
            FlowError::Refused(reason) => DeskError::new(ErrorKind::Refused, reason),
            FlowError::BadInput(reason) => DeskError::new(ErrorKind::InvalidInput, reason),
        }
    }
}

impl From<JournalError> for DeskError {
    fn from(err: JournalError) -> Self {
        FlowError::from(err).into()
    }
}

/// Where an order stands after a step: the journal's view, plus the verified summary when there is one.
#[derive(Debug, Clone)]
pub struct Step {
    pub order: JournalOrder,
    pub verified: Option<Verified>,
}

/// The swap flow on one network.
#[derive(Debug, Clone, Copy)]
pub struct Flow<'a> {
    pub client: &'a Client,
    pub journal: &'a Journal,
    /// The journal's name for the network (`sandbox`, `production`, `custom:<url>`, …).
    pub network: &'a str,
    /// How the network's answers are checked, its Bitcoin network included.
    pub policy: VerifyPolicy,
    /// Where the Bitcoin fast fee rate is read when an onramp PSBT is verified off the Sandbox
    /// ([`crate::fees`]); `None`: the policy's ceiling as it is.
    pub fee_source: Option<&'a str>,
}

/// The bytes of the PSBT the gateway made for an onramp order, when it made one.
pub(crate) fn psbt_bytes_of(order: &JournalOrder) -> Option<Vec<u8>> {
    let hex = order
        .created
        .as_ref()?
        .get("onramp")?
        .get("psbt_hex")?
        .as_str()?;
    alloy_primitives::hex::decode(hex).ok()
}

/// The addresses the gateway lists an order under: recipient, sender, owner.
pub fn quote_addresses(quote: &Quote) -> Vec<String> {
    let inner = quote
        .raw()
        .as_object()
        .and_then(|m| m.values().next())
        .cloned()
        .unwrap_or_default();
    let mut list: Vec<String> = ["recipient", "sender", "ownerAddress"]
        .iter()
        .filter_map(|f| inner.get(*f).and_then(Value::as_str))
        .filter(|a| !a.is_empty())
        .map(str::to_owned)
        .collect();
    list.dedup();
    list
}

/// A failed write as the journal records it: the error for the person, its code and details, and whether the
/// gateway may have acted on it anyway.
fn failure(err: ClientError) -> (DeskError, Value, bool) {
    let ambiguous = err.is_ambiguous_write();
    let desk = DeskError::from(err);
    let details = desk.details.as_deref().cloned().unwrap_or(Value::Null);
    let record = json!({"code": desk.code, "details": details});
    (desk, record, ambiguous)
}

fn question(err: &ClientError) -> Option<Question> {
    let ClientError::Gateway { body, .. } = err else {
        return None;
    };
    let code = body.code.as_str().to_owned();
    let details = body.typed_details();
    match body.code {
        ErrorCode::MissingOwnerAddress => Some(Question {
            field: QuestionField::OwnerAddress,
            message: "This route needs an owner: the EVM address (0x…) that owns the order and can claim a refund. \
                      Which address should it be?"
                .into(),
            suggestion: None,
            code,
            max_bps: None,
        }),
        ErrorCode::QuoteAmountTooLow => {
            let minimum = match details {
                Some(ErrorDetails::MinimumActual { minimum, .. }) => Some(minimum),
                _ => None,
            };
            Some(Question {
                field: QuestionField::Amount,
                message: "The amount is below the gateway's minimum for this route. Enter at least the minimum."
                    .into(),
                suggestion: minimum,
                code,
                max_bps: None,
            })
        }
        ErrorCode::SlippageTooLow | ErrorCode::SlippageTooHigh => Some(Question {
            field: QuestionField::Slippage,
            message: format!(
                "The gateway refused this slippage tolerance ({}). Choose another one.",
                body.error.trim_end_matches('.')
            ),
            suggestion: None,
            code,
            max_bps: None,
        }),
        ErrorCode::MaxSlippageExceeded => {
            let (suggested, max) = match details {
                Some(ErrorDetails::MaxSlippage { suggested_bps, max_bps }) => {
                    (suggested_bps.parse::<u32>().ok(), max_bps.parse::<u32>().ok())
                }
                _ => (None, None),
            };
            let percent = |bps: u32| format!("{}.{:02}%", bps / 100, bps % 100);
            let message = match (max, suggested) {
                (Some(max), Some(s)) => format!(
                    "This route takes at most {} slippage ({max} bps); the gateway suggests {} ({s} bps). \
                     Choose a tolerance within the limit.",
                    percent(max),
                    percent(s)
                ),
                (Some(max), None) => format!(
                    "This route takes at most {} slippage ({max} bps). Choose a tolerance within the limit.",
                    percent(max)
                ),
                _ => "The slippage tolerance is above what this route takes. Choose a lower one.".to_owned(),
            };
            Some(Question {
                field: QuestionField::Slippage,
                message,
                suggestion: suggested.map(|s| s.to_string()),
                code,
                max_bps: max,
            })
        }
        _ => None,
    }
}

impl<'a> Flow<'a> {
    /// Asks for a quote. A refusal the person can fix comes back as [`QuoteOutcome::Ask`].
    #[instrument(skip_all, fields(network = self.network))]
    pub async fn quote(&self, request: &QuoteRequest) -> Result<QuoteOutcome, FlowError> {
        match self.client.get_quote(request).await {
            Ok(answer) => {
                // The quote must be the one asked for before anything shows it.
                let check =
                    verify::request::check_quote(request, &answer.value, self.policy.bitcoin)
                        .map_err(|reason| {
                            let reason = reason.to_string();
                            warn!(%reason, "the quote does not match the request");
                            FlowError::Refused(reason)
                        })?;
                Ok(QuoteOutcome::Quote(Box::new(answer.value), check))
            }
            Err(err) => match question(&err) {
                Some(q) => Ok(QuoteOutcome::Ask(q)),
                None => Err(err.into()),
            },
        }
    }

    /// Accepts a quote: the start of an order in the journal. Nothing is sent.
    pub fn accept(&self, quote: &Quote) -> Result<JournalOrder, FlowError> {
        let route = quote.view().route();
        let id = self.journal.accept_quote(
            self.network,
            self.client.config().version,
            route,
            &quote_addresses(quote),
            quote.raw(),
        )?;
        Ok(self.journal.order(id)?)
    }

    fn quote_of(order: &JournalOrder) -> Result<Quote, FlowError> {
        Quote::from_json(order.quote.clone()).map_err(|e| {
            FlowError::Journal(JournalError::Corrupt(format!(
                "order {}: quote {e}",
                order.local_id
            )))
        })
    }

    /// Sends create-order for an accepted quote (journaled before and after), then verifies the answer.
    #[instrument(skip_all, fields(local_id, network = self.network))]
    pub async fn create(&self, local_id: i64) -> Result<Step, FlowError> {
        let order = self.journal.create_started(local_id)?;
        let quote = Self::quote_of(&order)?;
        match self.client.create_order(&quote).await {
            Ok(answer) => {
                let order_id = answer.value.order_id().to_owned();
                info!(local_id, order_id, "order created");
                self.journal
                    .create_answered(local_id, &order_id, &answer.raw)?;
                self.verify(local_id).await
            }
            Err(err) => {
                let (desk, record, ambiguous) = failure(err);
                self.journal
                    .create_failed(local_id, &desk.message, &record, ambiguous)?;
                Err(desk.into())
            }
        }
    }

    /// Checks the journaled create-order answer against the accepted quote and records the verdict. Run again on
    /// resume, so what is shown for signing is always freshly checked.
    pub async fn verify(&self, local_id: i64) -> Result<Step, FlowError> {
        let order = self.journal.order(local_id)?;
        let quote = Self::quote_of(&order)?;
        let created = order.created.clone().ok_or(JournalError::WrongStage {
            local_id,
            stage: order.stage,
            action: "be verified",
        })?;
        let answer = CreateOrderResponse::from_value(&created).map_err(|e| {
            FlowError::Journal(JournalError::Corrupt(format!(
                "order {local_id}: create-order answer {e}"
            )))
        })?;
        let policy = crate::fees::policy_for(self.policy, &answer, self.fee_source).await;
        match verify::verify_order_with(&quote, &answer, &policy) {
            Ok(verified) => {
                let summary = serde_json::to_value(&verified).expect("summaries serialize");
                let order = self.journal.verified(local_id, &summary)?;
                Ok(Step {
                    order,
                    verified: Some(verified),
                })
            }
            Err(reason) => {
                let reason = reason.to_string();
                warn!(local_id, %reason, "the gateway's transaction does not match the quote");
                self.journal.verify_failed(local_id, &reason)?;
                Err(FlowError::Refused(reason))
            }
        }
    }

    /// After a create-order whose answer was lost: sends the same quote again. The gateway either creates the order
    /// now (it had not), or says it already exists (`DUPLICATE_ORDER`: it had, and what it asked to sign was lost, so
    /// the order is given up and will expire unpaid — nothing was paid), or refuses (the quote expired: given up).
    #[instrument(skip_all, fields(local_id, network = self.network))]
    pub async fn confirm_creation(&self, local_id: i64) -> Result<Step, FlowError> {
        let order = self.journal.order(local_id)?;
        if order.stage != Stage::CreateUnknown && order.stage != Stage::Creating {
            return Err(JournalError::WrongStage {
                local_id,
                stage: order.stage,
                action: "confirm its creation",
            }
            .into());
        }
        if order.stage == Stage::Creating {
            // The app stopped mid-request: record that the answer is unknown, then ask again.
            self.journal.create_failed(
                local_id,
                "The app stopped before create-order answered.",
                &Value::Null,
                true,
            )?;
        }
        let quote = Self::quote_of(&order)?;
        match self.client.create_order(&quote).await {
            Ok(answer) => {
                let order_id = answer.value.order_id().to_owned();
                info!(local_id, order_id, "order created on the second attempt");
                self.journal
                    .create_answered(local_id, &order_id, &answer.raw)?;
                self.verify(local_id).await
            }
            Err(err) if err.is_ambiguous_write() || err.is_transient() => Err(err.into()),
            Err(ClientError::Gateway { body, .. }) if body.code == ErrorCode::DuplicateOrder => {
                let reason = "The gateway created this order, but the app never received what to sign, so nothing \
                              was paid and the order will expire by itself. Ask for a new quote to swap.";
                let order = self.journal.abandon(local_id, reason)?;
                Ok(Step {
                    order,
                    verified: None,
                })
            }
            Err(err) => {
                let desk = DeskError::from(err);
                let reason = format!(
                    "No order was created from this quote ({}). Ask for a new quote to swap.",
                    desk.message.trim_end_matches('.')
                );
                let order = self.journal.abandon(local_id, &reason)?;
                Ok(Step {
                    order,
                    verified: None,
                })
            }
        }
    }

    /// Takes what the person hands in after signing: for an onramp the signed transaction hex (checked against the
    /// verified PSBT or deposit) or a Bitcoin txid; otherwise the source transaction's hash. Journaled, then
    /// registered at once.
    pub async fn hand_in(&self, local_id: i64, text: &str) -> Result<Step, FlowError> {
        let order = self.journal.order(local_id)?;
        let text = text.trim();
        if text.is_empty() {
            return Err(FlowError::BadInput(
                "Paste the signed transaction (hex) or its id first.".into(),
            ));
        }
        // A PSBT handed back (base64, hex or a .psbt file's bytes as base64) is finalized here into the transaction.
        let finalized;
        let text = match crate::wallet::bitcoin_signer::read_psbt(text) {
            Some(psbt) if order.route == RouteKind::Onramp => {
                let tx = psbt
                    .and_then(crate::wallet::bitcoin_signer::finalize_handed_back)
                    .map_err(|e| FlowError::BadInput(e.to_string()))?;
                finalized = bitcoin::consensus::encode::serialize_hex(&tx);
                finalized.as_str()
            }
            _ => text,
        };
        let handed = match order.route {
            RouteKind::Onramp => {
                if text.len() == 64 {
                    let txid = txhash::validate_bitcoin_txid(text)
                        .map_err(|e| FlowError::BadInput(format!("{e}.")))?;
                    HandedIn::BitcoinTxid {
                        txid: txid.to_string(),
                    }
                } else {
                    let summary: Verified = order
                        .verified
                        .clone()
                        .and_then(|v| serde_json::from_value(v).ok())
                        .ok_or_else(|| {
                            FlowError::BadInput(
                                "This order has no verified payment to check against.".into(),
                            )
                        })?;
                    let Some(onramp) = summary.onramp() else {
                        return Err(FlowError::BadInput("This order is not an onramp.".into()));
                    };
                    let txid = verify::check_signed_onramp_tx(onramp, text)
                        .map_err(|e| FlowError::BadInput(e.to_string()))?;
                    // Bitcoin's own script check against the coins the verified PSBT spends, before registering.
                    if let Some(psbt) = psbt_bytes_of(&order) {
                        let tx: bitcoin::Transaction = alloy_primitives::hex::decode(text)
                            .ok()
                            .and_then(|b| bitcoin::consensus::deserialize(&b).ok())
                            .ok_or_else(|| {
                                FlowError::BadInput(
                                    "The signed transaction does not decode.".into(),
                                )
                            })?;
                        crate::wallet::bitcoin_signer::check_against_psbt(&tx, &psbt)
                            .map_err(|e| FlowError::BadInput(e.to_string()))?;
                    }
                    HandedIn::BitcoinTx {
                        hex: text.to_owned(),
                        txid,
                    }
                }
            }
            RouteKind::Offramp | RouteKind::TokenSwap => {
                let chain = Self::quote_of(&order)?.view().input_amount().chain.clone();
                let hash = txhash::validate_src_tx_hash(&chain, text)
                    .map_err(|e| FlowError::BadInput(format!("{e}.")))?;
                HandedIn::SourceTx { chain, hash }
            }
        };
        self.journal.tx_handed_in(local_id, &handed)?;
        self.register(local_id).await
    }

    /// Registers the transaction handed in (journaled before and after). A refusal gives the order back for another
    /// transaction; a lost answer leaves it to be registered again (the same transaction twice is harmless).
    #[instrument(skip_all, fields(local_id, network = self.network))]
    pub async fn register(&self, local_id: i64) -> Result<Step, FlowError> {
        let order = self.journal.order(local_id)?;
        let (Some(order_id), Some(handed)) = (order.order_id.clone(), order.handed_in.clone())
        else {
            return Err(JournalError::WrongStage {
                local_id,
                stage: order.stage,
                action: "be registered",
            }
            .into());
        };
        let body = match (&handed, order.route) {
            (HandedIn::BitcoinTx { hex, txid }, _) => {
                RegisterTx::onramp(&order_id, Some(hex), Some(txid))
            }
            (HandedIn::BitcoinTxid { txid }, _) => RegisterTx::onramp(&order_id, None, Some(txid)),
            (HandedIn::SourceTx { chain, hash }, RouteKind::Offramp) => {
                RegisterTx::offramp(&order_id, hash, chain)
            }
            (HandedIn::SourceTx { chain, hash }, _) => {
                RegisterTx::token_swap(&order_id, hash, chain)
            }
        };
        let version = self.client.config().version;
        self.journal
            .register_started(local_id, &body.to_json(version))?;
        match self.client.register_tx(&body).await {
            Ok(answer) => {
                if let RegisterTxResponse::Onramp { txid } = &answer.value {
                    info!(local_id, txid, "registered");
                }
                let order = self.journal.register_answered(local_id, &answer.raw)?;
                Ok(Step {
                    order,
                    verified: None,
                })
            }
            Err(err) => {
                let (desk, record, ambiguous) = failure(err);
                self.journal
                    .register_failed(local_id, &desk.message, &record, ambiguous)?;
                Err(desk.into())
            }
        }
    }

    /// Records an order as read from the gateway (the tracker's reads). Gives whether it changed.
    pub fn status_seen(
        &self,
        local_id: i64,
        raw: &Value,
        order: &OrderInfo,
    ) -> Result<bool, FlowError> {
        let (_, changed) = self.journal.status_seen(
            local_id,
            raw,
            order.status.key(),
            order.status.is_terminal(),
        )?;
        Ok(changed)
    }

    /// Takes one unfinished order one step on after a restart: confirms an uncertain creation, re-verifies what is
    /// to be signed, registers a transaction already handed in. Orders waiting for the person's signature or for the
    /// gateway are left as they are. Gives the order's next step afterwards.
    pub async fn resume(
        &self,
        local_id: i64,
    ) -> Result<(JournalOrder, Option<NextStep>), FlowError> {
        let order = self.journal.order(local_id)?;
        match order.next_step() {
            Some(NextStep::ConfirmCreation) => {
                self.confirm_creation(local_id).await?;
            }
            Some(NextStep::SignAndHandIn) if order.stage == Stage::Created => {
                // Refusal is recorded in the journal; the order then has no next step.
                let _ = self.verify(local_id).await;
            }
            Some(NextStep::Register) => {
                self.register(local_id).await?;
            }
            _ => {}
        }
        let order = self.journal.order(local_id)?;
        let step = order.next_step();
        Ok((order, step))
    }
}
