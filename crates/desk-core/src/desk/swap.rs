//! The desk's swap facet: a quote for the form, and the start of an order from an accepted quote.

use gateway_client::wire::Quote;
use serde_json::Value;

use crate::error::ErrorDetails;

use super::*;

impl Desk {
    /// Asks for a quote for what the swap form says. Amounts and addresses are checked first; a refusal the person
    /// can fix comes back as a question.
    ///
    /// The network's affiliate entries go with it as the route and API version allow
    /// ([`crate::partner::affiliates_for`]); the card says what was asked for, and why when something was not.
    pub async fn quote(&self, form: &SwapForm) -> Result<QuoteResult, DeskError> {
        let state = self.state.lock().await;
        let bitcoin = state.network.bitcoin;
        let checks = Self::checks_of(&state);
        let client = state.network.client.clone();
        let mut request = request_from(form, bitcoin, client.config().version)?;
        let key = Self::network_key_of(&state);
        let applied = crate::partner::affiliates_for(
            &state.settings,
            state.network.kind,
            client.config().version,
            &request.src_chain,
            &request.dst_chain,
        );
        drop(state);
        request.affiliates = applied
            .entries
            .iter()
            .map(|a| gateway_client::Affiliate {
                address: a.address.clone(),
                bps: a.bps,
            })
            .collect();
        let journal = self.journal()?;
        let flow = flow_on(&client, journal, &key, &checks);
        let outcome = flow
            .quote(&request)
            .await
            .map_err(|e| crate::quote_errors::explain(super::errors::from_flow(e), &request))?;
        match outcome {
            QuoteOutcome::Quote(quote, check) => {
                let mut card = QuoteCard::new(&quote);
                card.check = Some(check);
                card.own_fee = Some(self.own_fee(&quote, card.total_fees_usd.as_deref()).await);
                card.affiliates_requested = applied.entries;
                card.affiliate_note = applied.note;
                Ok(QuoteResult::Quote {
                    card: Box::new(card),
                })
            }
            QuoteOutcome::Ask(question) => Ok(QuoteResult::Ask {
                question: crate::quote_errors::explain_question(question, &request),
            }),
        }
    }

    /// Starts an order from a quote as received (the card's `raw`): journals it, creates the order and verifies
    /// what the gateway asks to be signed. A refusal is recorded and shown on the order (it must not be signed).
    ///
    /// A loss above [`crate::verify::request::CONFIRM_LOSS_BPS`] must be confirmed: `accepted_loss_bps` is what the
    /// person confirmed, in bps; nothing is journaled or sent when it does not cover the loss.
    pub async fn start_order(
        &self,
        quote: Value,
        accepted_loss_bps: Option<u32>,
    ) -> Result<OrderView, DeskError> {
        let quote = Quote::from_json(quote).map_err(|e| {
            invalid(
                "quote",
                format!("This is not a quote the gateway sent ({e}). Ask for a new quote."),
            )
        })?;
        crate::verify::request::require_confirmed_loss(&quote, accepted_loss_bps)
            .map_err(|e| DeskError::new(ErrorKind::Refused, e.to_string()))?;
        self.refuse_while_uncertain().await?;
        // The Sandbox's chains that its gateway reads while making the order run first.
        let chains = self.state.lock().await.network.sandbox_chains.clone();
        if let Some(chains) = chains {
            chains
                .ready_before_order(&quote.view().input_amount().chain)
                .await?;
        }
        self.refuse_unpayable(&quote).await?;
        let (client, key, checks) = self.client_key_and_policy().await;
        let journal = self.journal()?;
        let flow = flow_on(&client, journal, &key, &checks);
        let order = flow.accept(&quote).map_err(super::errors::from_flow)?;
        match flow.create(order.local_id).await {
            Ok(_) | Err(FlowError::Refused(_)) => {}
            Err(e) if journal.order(order.local_id)?.stage == Stage::CreateUnknown => {
                // create-order's answer was lost: look for the order once before answering.
                if let Ok(Some(step)) = flow.find_created(order.local_id).await {
                    self.track(&step.order).await;
                    return self.order_view(order.local_id);
                }
                let mut error = super::errors::from_flow(e);
                error.message = format!(
                    "{} The app looked for the order among your orders and has not found it yet. It is in Orders: \
                     Continue looks again (and asks the gateway), Abandon gives it up; no other order can be started \
                     until then.",
                    error.message.trim_end()
                );
                // The window shows this order at the signing step, as Orders does.
                let details = error.details.take().map(|d| *d);
                error.details = Some(Box::new(ErrorDetails::about_order(details, order.local_id)));
                return Err(error);
            }
            Err(e) => return Err(super::errors::from_flow(e)),
        }
        let order = journal.order(order.local_id)?;
        self.track(&order).await;
        self.order_view(order.local_id)
    }

    /// Refuses to start an order while an order of the current network has an unresolved creation (being created,
    /// or create-order's answer lost): a second order could then pay for the same swap twice. The refusal names the
    /// order and what to do (look it up with Continue, or abandon it); its details carry `localId`.
    pub(crate) async fn refuse_while_uncertain(&self) -> Result<(), DeskError> {
        let key = self.client_and_key().await.1;
        let journal = self.journal()?;
        let Some(order) = journal.unresolved_creations(&key)?.into_iter().next() else {
            return Ok(());
        };
        let view = OrderView::from_journal(&order, &journal.events(order.local_id)?);
        let mut error = DeskError::new(
            ErrorKind::Refused,
            format!(
                "Order #{} ({} → {}) is unresolved: the app does not know whether the gateway created it (its answer \
                 was lost, or has not arrived). No other order is started until it is resolved. In Orders, choose \
                 Continue on it (the app looks it up among your orders), or Abandon it: nothing was paid.",
                order.local_id, view.send.text, view.receive.text
            ),
        );
        error.details = Some(Box::new(ErrorDetails::order(order.local_id)));
        Err(error)
    }
}
