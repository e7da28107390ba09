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

use crate::error::DeskError;
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
    /// Which field of the swap form the answer goes into.
    pub field: QuestionField,
    /// The question, as a sentence.
    pub message: String,
    /// A value that would be accepted (the minimum amount in smallest units, say).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub suggestion: Option<String>,
    /// The gateway's code that raised it.
    pub code: String,
    /// The most slippage this route takes, in bps, when the gateway said (`MAX_SLIPPAGE_EXCEEDED`, or
    /// `SLIPPAGE_TOO_HIGH` with its `required_bps`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_bps: Option<u32>,
    /// The least slippage this route takes, in bps, when the gateway said (`SLIPPAGE_TOO_LOW` with its
    /// `required_bps`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub min_bps: Option<u32>,
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
    /// The journal could not record the step, or refused it for this order.
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

/// Where an order stands after a step: the journal's view, plus the verified summary when there is one.
#[derive(Debug, Clone)]
pub struct Step {
    /// The order as the journal now holds it.
    pub order: JournalOrder,
    /// What verification found of what is to be signed, when the order has been verified.
    pub verified: Option<Verified>,
}

/// The swap flow on one network.
#[derive(Debug, Clone, Copy)]
pub struct Flow<'a> {
    /// The network's gateway client.
    pub client: &'a Client,
    /// Where every step is written before it is sent and after it answers.
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

/// The quote's object inside its route key (`{"onramp": {…}}` → `{…}`); `Null` when there is none.
pub fn quote_inner(quote: &Quote) -> Value {
    quote
        .raw()
        .as_object()
        .and_then(|m| m.values().next())
        .cloned()
        .unwrap_or_default()
}

/// The addresses the gateway lists an order under: recipient, sender, owner.
pub fn quote_addresses(quote: &Quote) -> Vec<String> {
    let inner = quote_inner(quote);
    let mut list: Vec<String> = ["recipient", "sender", "ownerAddress"]
        .iter()
        .filter_map(|f| inner.get(*f).and_then(Value::as_str))
        .filter(|a| !a.is_empty())
        .map(str::to_owned)
        .collect();
    list.dedup();
    list
}

/// How much earlier than the attempt's start (by the app's clock) an order found by listing may be dated: the
/// gateway's clock may be a little behind the app's.
pub const CLOCK_SKEW_SECS: i64 = 120;

/// The address whose orders are listed to find the order of `quote` after create-order's answer was lost: the sender
/// when it is an EVM address, else the owner (the gateway indexes orders by the EVM owner address), else the
/// recipient when it is an EVM address (only the V3 offramp quote carries its `ownerAddress`; an onramp's or a token
/// swap's owner is not in the quote, and the EVM side of an onramp is its recipient). `None` when the quote names no
/// EVM address at all: the order cannot be looked up.
pub fn lookup_address(quote: &Quote) -> Option<String> {
    let inner = quote_inner(quote);
    ["sender", "ownerAddress", "recipient"]
        .iter()
        .find_map(|field| {
            let address = inner.get(*field)?.as_str()?;
            gateway_client::address::validate_evm(address)
                .ok()
                .map(|v| v.canonical)
        })
}

/// The same token on the same chain: compared as addresses by the chain's rules (EVM in any case, Tron as Base58,
/// `41…` or `0x41…`), the native asset in any of its spellings.
fn same_token(chain: &str, token: &str, other_chain: &str, other_token: &str) -> bool {
    let (token, other_token) = (token.trim(), other_token.trim());
    chain.eq_ignore_ascii_case(other_chain)
        && (token == other_token
            || crate::verify::request::addresses_equal(chain, token, other_token)
            || (gateway_client::wire::is_native_token(chain, token)
                && gateway_client::wire::is_native_token(other_chain, other_token)))
}

/// The same whole amount in smallest units (leading zeros aside).
fn same_amount(amount: &str, other: &str) -> bool {
    let digits = |a: &str| a.trim().trim_start_matches('0').to_owned();
    !amount.trim().is_empty() && digits(amount) == digits(other)
}

/// True when `info` (as get-orders lists it) is the order `quote` makes: the same chains and tokens both ways (so
/// the same route) and exactly the same amounts in and out, created no earlier than `since` (unix seconds, less
/// [`CLOCK_SKEW_SECS`]).
pub fn matches_quote(quote: &Quote, info: &OrderInfo, since: i64) -> bool {
    let view = quote.view();
    let (input, output) = (view.input_amount(), view.output_amount());
    let src = &info.src_info;
    let dst = &info.dst_info;
    same_token(&input.chain, &input.address, &src.chain, &src.token)
        && same_token(&output.chain, &output.address, &dst.chain, &dst.token)
        && RouteKind::between(&src.chain, &dst.chain) == view.route()
        && same_amount(&input.amount, &src.amount)
        && same_amount(&output.amount, &dst.amount)
        && info.timestamp >= since.saturating_sub(CLOCK_SKEW_SECS)
}

/// A failed write as the journal records it: the error for the person, its code and details, and whether the
/// gateway may have acted on it anyway.
fn failure(err: ClientError) -> (DeskError, Value, bool) {
    let ambiguous = err.is_ambiguous_write();
    let desk = DeskError::from(err);
    // The gateway's details as it sent them, not the window's typed form of them.
    let details = desk
        .details
        .as_deref()
        .and_then(|d| d.as_sent())
        .cloned()
        .unwrap_or(Value::Null);
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
            min_bps: None,
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
                min_bps: None,
            })
        }
        ErrorCode::SlippageTooLow | ErrorCode::SlippageTooHigh => {
            let low = body.code == ErrorCode::SlippageTooLow;
            let required = match details {
                Some(ErrorDetails::SlippageBounds { required_bps, .. }) => required_bps.parse::<u32>().ok(),
                _ => None,
            };
            let percent = |bps: u32| format!("{}%", verify::percent(bps));
            let message = match required {
                Some(bps) => format!(
                    "This route takes {} {} slippage ({bps} bps). Choose a tolerance within the limit.",
                    if low { "at least" } else { "at most" },
                    percent(bps)
                ),
                None => format!(
                    "The gateway refused this slippage tolerance ({}). Choose another one.",
                    body.error.trim_end_matches('.')
                ),
            };
            Some(Question {
                field: QuestionField::Slippage,
                message,
                suggestion: required.map(|bps| bps.to_string()),
                code,
                max_bps: if low { None } else { required },
                min_bps: if low { required } else { None },
            })
        }
        ErrorCode::MaxSlippageExceeded => {
            let (suggested, max) = match details {
                Some(ErrorDetails::MaxSlippage { suggested_bps, max_bps }) => {
                    (suggested_bps.parse::<u32>().ok(), max_bps.parse::<u32>().ok())
                }
                _ => (None, None),
            };
            let percent = |bps: u32| format!("{}%", verify::percent(bps));
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
                min_bps: None,
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

    /// After a create-order whose answer was lost: first looks for the order among the gateway's orders of the
    /// quote's address ([`Self::find_created`]); found, it is recorded (given up unpaid, or watched when paid).
    /// Otherwise sends the same quote again. The gateway either creates the order now (it had not), or says it
    /// already exists (`DUPLICATE_ORDER`: it had, and what it asked to sign was lost, so the order is given up and will
    /// expire unpaid — nothing was paid), or refuses (the quote expired: given up).
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
        if let Some(step) = self.find_created(local_id).await? {
            return Ok(step);
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

    /// After a create-order whose answer was lost (the order is at [`Stage::CreateUnknown`]): looks for the order
    /// among the gateway's orders of the quote's address ([`lookup_address`]). An order counts as this one only when
    /// exactly one listed order, not already in the journal, has the quote's route, tokens and amounts both ways and
    /// was created after the attempt started ([`matches_quote`]); and, when the recipient is another EVM address,
    /// is listed under the recipient too (the order record itself names no recipient).
    ///
    /// Found, it is recorded with its order id: what to sign was lost with the answer, so an unpaid order is given
    /// up, with a reason naming it, and left to expire; an order the listing shows paid is watched instead. Gives
    /// `None` when nothing was found, or when the quote names no address to list (then the caller asks the gateway
    /// again); a listing that failed for a while (timeout, 5xx, rate limit) is an error, so that nothing is sent
    /// again blindly.
    #[instrument(skip_all, fields(local_id, network = self.network))]
    pub async fn find_created(&self, local_id: i64) -> Result<Option<Step>, FlowError> {
        let order = self.journal.order(local_id)?;
        if order.stage != Stage::CreateUnknown {
            return Ok(None);
        }
        let quote = Self::quote_of(&order)?;
        let Some(address) = lookup_address(&quote) else {
            info!(
                local_id,
                "no EVM address to list orders by; asking again instead"
            );
            return Ok(None);
        };
        let since = self
            .journal
            .events(local_id)?
            .iter()
            .rev()
            .find(|e| e.kind == "createStarted")
            .map_or(order.created_at, |e| e.at);
        let Some(listed) = self.listed(&address).await? else {
            return Ok(None);
        };
        let mut candidates = Vec::new();
        for (info, raw) in listed {
            if matches_quote(&quote, &info, since)
                && self.journal.find(self.network, &info.id)?.is_none()
            {
                candidates.push((info, raw));
            }
        }
        let recipient = quote.view().recipient().trim().to_owned();
        if !candidates.is_empty()
            && gateway_client::address::validate_evm(&recipient).is_ok()
            && !recipient.eq_ignore_ascii_case(&address)
        {
            let Some(theirs) = self.listed(&recipient).await? else {
                return Ok(None);
            };
            candidates.retain(|(info, _)| theirs.iter().any(|(o, _)| o.id == info.id));
        }
        let (info, raw) = match candidates.len() {
            1 => candidates.remove(0),
            0 => {
                info!(
                    local_id,
                    address, "no order of this quote among the address's orders"
                );
                return Ok(None);
            }
            n => {
                warn!(
                    local_id,
                    n, "several orders match this quote; asking the gateway again instead"
                );
                return Ok(None);
            }
        };
        let reason = format!(
            "The gateway created this order ({}), but its answer with what to sign was lost, so it cannot be \
             signed: nothing was paid, and the order will expire unpaid. Ask for a new quote to swap.",
            info.id
        );
        let found = match crate::journal::gateway_payment(Some(&raw)) {
            Some(_) => crate::journal::Found::Paid {
                terminal: info.status.is_terminal(),
            },
            None => crate::journal::Found::Unpaid { reason: &reason },
        };
        info!(
            local_id,
            order_id = info.id,
            ?found,
            "order found among the address's orders"
        );
        let order = self
            .journal
            .order_found(local_id, &info.id, &raw, info.status.key(), found)?;
        Ok(Some(Step {
            order,
            verified: None,
        }))
    }

    /// Every order the gateway lists under `address`, each with its JSON as received. A coded refusal (the
    /// address is not one the gateway lists by, say) is `None`; a failure that may pass is an error.
    async fn listed(&self, address: &str) -> Result<Option<Vec<(OrderInfo, Value)>>, FlowError> {
        let mut pager = self
            .client
            .orders_pager(address, Some(crate::tracker::PAGE_LIMIT));
        let mut all = Vec::new();
        while let Some(page) = pager.next_page().await {
            let page = match page {
                Ok(page) => page,
                Err(err) if err.is_transient() => return Err(err.into()),
                Err(err) => {
                    warn!(error = %err, address, "the address's orders could not be listed");
                    return Ok(None);
                }
            };
            let raws = page
                .raw
                .get("orders")
                .unwrap_or(&page.raw)
                .as_array()
                .cloned()
                .unwrap_or_default();
            for info in page.value.orders {
                let raw = raws
                    .iter()
                    .find(|r| r.get("id").and_then(Value::as_str) == Some(info.id.as_str()))
                    .cloned()
                    .unwrap_or_else(|| serde_json::to_value(&info).unwrap_or(Value::Null));
                all.push((info, raw));
            }
        }
        Ok(Some(all))
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
        let version = self.client.config().version;
        let handed = match order.route {
            RouteKind::Onramp => {
                if text.len() == 64 && !version.registers_source_transactions() {
                    return Err(FlowError::BadInput(format!(
                        "API {version} takes the signed transaction itself, not its id: paste the signed \
                         transaction's hex (or the signed PSBT), and the gateway broadcasts it."
                    )));
                }
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
        if let (false, HandedIn::SourceTx { chain, hash }) =
            (version.registers_source_transactions(), &handed)
        {
            // V4: the gateway reads offramp and token-swap transactions from the chain; there is nothing to send.
            info!(
                local_id,
                chain, hash, "left to the gateway's chain reading ({version})"
            );
            let order = self.journal.left_to_the_chain(
                local_id,
                &serde_json::json!({"readFromChain": {"chain": chain, "hash": hash, "version": version}}),
            )?;
            return Ok(Step {
                order,
                verified: None,
            });
        }
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
                let (mut desk, record, ambiguous) = failure(err);
                if ambiguous && let HandedIn::BitcoinTx { txid, .. } = &handed {
                    // The gateway broadcasts what it is handed: a lost answer may hide a payment on its way.
                    desk.message = format!(
                        "The gateway may have broadcast your payment ({txid}): its answer was lost. Gateway Desk \
                         follows the order and will not sign a second payment; registering again sends the same \
                         transaction. {}",
                        desk.message
                    );
                }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listed_orders_token_is_matched_as_an_address_in_any_spelling() {
        let usdt = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
        let hex = "41a614f803b6fd780986a42c78ec9c7f77e6ded13c";
        for spelling in [
            usdt,
            hex,
            "0x41a614f803b6fd780986a42c78ec9c7f77e6ded13c",
            " 0x41A614F803B6FD780986A42C78EC9C7F77E6DED13C ",
        ] {
            assert!(same_token("tron", usdt, "tron", spelling), "{spelling}");
        }
        assert!(!same_token(
            "tron",
            usdt,
            "tron",
            "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"
        ));
        assert!(!same_token("tron", usdt, "bob", hex), "another chain");
        assert!(same_token(
            "bob",
            "0x05D032ac25d322df992303dCa074EE7392C117b9",
            "BOB",
            "0x05d032ac25d322df992303dca074ee7392c117b9"
        ));
    }

    const OWNER: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
    const RECIPIENT: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    const WBTC: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";

    fn amount(chain: &str, address: &str, amount: &str) -> Value {
        json!({"address": address, "amount": amount, "chain": chain})
    }

    fn offramp(sender: Option<&str>, owner: Option<&str>) -> Quote {
        let mut inner = json!({
            "inputAmount": amount("bob", WBTC, "100000"),
            "outputAmount": amount("bitcoin", "0x0000000000000000000000000000000000000000", "99000"),
            "srcChain": "bob",
            "tokenAddress": WBTC,
            "feeBreakdown": {
                "solverFee": amount("bob", WBTC, "1"),
                "inclusionFee": amount("bob", WBTC, "1"),
                "protocolFee": amount("bob", WBTC, "1"),
                "affiliateFee": amount("bob", WBTC, "0"),
                "fastestFeeRate": "2",
            },
            "recipient": "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh",
            "slippage": 300,
            "txTo": "0x1111111111111111111111111111111111111111",
        });
        if let Some(s) = sender {
            inner["sender"] = json!(s);
        }
        if let Some(o) = owner {
            inner["ownerAddress"] = json!(o);
        }
        Quote::from_json(json!({ "offramp": inner })).unwrap()
    }

    fn listed(src: (&str, &str, &str), dst: (&str, &str, &str), timestamp: i64) -> OrderInfo {
        serde_json::from_value(json!({
            "id": "g-1",
            "timestamp": timestamp,
            "srcInfo": {"chain": src.0, "token": src.1, "amount": src.2},
            "dstInfo": {"chain": dst.0, "token": dst.1, "amount": dst.2},
            "status": {"inProgress": {"refund_tx": null}},
        }))
        .unwrap()
    }

    #[test]
    fn the_lookup_lists_the_evm_sender_else_the_owner_else_an_evm_recipient() {
        let lower = RECIPIENT.to_lowercase();
        assert_eq!(
            lookup_address(&offramp(Some(&lower), Some(OWNER))).as_deref(),
            Some(RECIPIENT),
            "the sender, checksummed"
        );
        let tron_sender = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7";
        assert_eq!(
            lookup_address(&offramp(Some(tron_sender), Some(OWNER))).as_deref(),
            Some(OWNER)
        );
        // A Bitcoin recipient and no EVM sender or owner: nothing to list.
        assert_eq!(lookup_address(&offramp(Some(tron_sender), None)), None);
    }

    #[test]
    fn only_an_order_with_the_quote_s_route_tokens_and_amounts_made_after_the_attempt_matches() {
        let quote = offramp(Some(RECIPIENT), Some(OWNER));
        let since = 1_800_000_000;
        let src = ("bob", WBTC, "100000");
        let dst = ("bitcoin", "BTC", "99000");
        assert!(matches_quote(&quote, &listed(src, dst, since), since));
        // Token addresses in another case, amounts with leading zeros, a gateway clock a little behind.
        let lower = WBTC.to_lowercase();
        let same = listed(("bob", &lower, "0100000"), dst, since - CLOCK_SKEW_SECS);
        assert!(matches_quote(&quote, &same, since));
        for other in [
            listed(("bob", WBTC, "100001"), dst, since),
            listed(src, ("bitcoin", "BTC", "98999"), since),
            listed(("ethereum", WBTC, "100000"), dst, since),
            listed(src, ("bob", "BTC", "99000"), since),
            listed(
                (
                    "bob",
                    "0x05D032ac25d322df992303dCa074EE7392C117b9",
                    "100000",
                ),
                dst,
                since,
            ),
            listed(src, dst, since - CLOCK_SKEW_SECS - 1),
        ] {
            assert!(!matches_quote(&quote, &other, since), "{other:?}");
        }
    }
}
