//! The desk's orders facet: the orders the app knows and watches, the tracker that follows them, and what a person
//! does with one (hand a transaction in, continue, abandon, acknowledge, export its PSBT).

use gateway_client::address::{ChainFamily, validate_any};
use gateway_client::chains::any_family_address;
use serde_json::Value;
use tokio::sync::broadcast;
use tracing::warn;

use super::*;

impl Desk {
    /// Starts the tracker of the current network: its watched addresses and the journal's unfinished orders.
    pub(crate) async fn start_watching(&self, state: &mut State) {
        if let Some(old) = state.watch.take() {
            old.tracker.shutdown().await;
            old.glue.abort();
        }
        let (tracker, mut receiver) = Tracker::spawn(state.network.client.clone(), self.timing);
        let key = Self::network_key_of(state);
        for address in state.settings.watched(state.network.kind) {
            let _ = tracker.watch_address(address.clone()).await;
        }
        if let Some(journal) = &self.journal {
            for (order, _) in journal.unfinished(Some(&key)).unwrap_or_default() {
                let events = journal.events(order.local_id).unwrap_or_default();
                if let Some(tracked) = tracked(&order, &events) {
                    let _ = tracker.track(tracked).await;
                }
            }
        }
        let journal = self.journal.clone();
        let events = self.events.clone();
        let seen = self.seen.clone();
        let handle = tracker.clone();
        let glue = tokio::spawn(async move {
            loop {
                let event = match receiver.recv().await {
                    Ok(event) => event,
                    Err(broadcast::error::RecvError::Lagged(missed)) => {
                        warn!(missed, "order updates were missed; asking again");
                        let _ = handle.refresh_now().await;
                        continue;
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                match event {
                    TrackerEvent::OrderChanged {
                        order_id,
                        order,
                        raw,
                        ..
                    } => {
                        let view = apply_change(journal.as_deref(), &key, &order_id, &order, &raw);
                        if view.local_id.is_none() {
                            seen.lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .entry(key.clone())
                                .or_default()
                                .insert(order_id, view.clone());
                        }
                        let _ = events.send(DeskEvent::OrderChanged {
                            order: Box::new(view),
                        });
                    }
                    TrackerEvent::ReadFailed {
                        error, retry_in, ..
                    } => {
                        let _ = events.send(DeskEvent::ReadFailed {
                            message: error,
                            retry_in_secs: retry_in.as_secs(),
                        });
                    }
                    TrackerEvent::AddressListed { .. } => {}
                    TrackerEvent::Restarted { error } => {
                        let _ = events.send(DeskEvent::ReadFailed {
                            message: error,
                            retry_in_secs: 0,
                        });
                    }
                }
            }
        });
        state.watch = Some(Watch { tracker, glue });
    }

    /// The PSBT of an onramp order, as the bytes of a `.psbt` file (BIP 174), to save and sign elsewhere.
    pub fn psbt(&self, local_id: i64) -> Result<Vec<u8>, DeskError> {
        let order = self.journal()?.order(local_id)?;
        let hex = order
            .created
            .as_ref()
            .and_then(|c| c.get("onramp"))
            .and_then(|o| o.get("psbt_hex"))
            .and_then(Value::as_str)
            .ok_or_else(|| {
                DeskError::new(ErrorKind::InvalidInput, crate::execute::bitcoin::NO_PSBT)
            })?;
        alloy_primitives::hex::decode(hex).map_err(|e| {
            DeskError::new(
                ErrorKind::Gateway,
                format!("The gateway's PSBT is not hexadecimal ({e}); do not use this order."),
            )
        })
    }

    /// The PSBT of an onramp order as base64, hex and the frames of an animated BC-UR QR code, for a wallet of the
    /// person's own.
    pub fn psbt_export(&self, local_id: i64) -> Result<crate::psbt_export::PsbtExport, DeskError> {
        Ok(crate::psbt_export::forms(&self.psbt(local_id)?)?)
    }

    /// The name a save dialog proposes for an order's PSBT: `order-<local id>.psbt`, and on the Sandbox
    /// `sandbox-SIMULATED-order-<local id>.psbt`, so that a file in a wallet's folder still says it is not real money.
    pub fn psbt_file_name(&self, local_id: i64) -> Result<String, DeskError> {
        let order = self.journal()?.order(local_id)?;
        Ok(psbt_file_name(&order.network, local_id))
    }

    /// Follows the orders of `address` on the current network (checked as an address of any supported chain).
    pub async fn watch_address(&self, address: &str) -> Result<SettingsView, DeskError> {
        let address = address.trim();
        let bitcoin = self.state.lock().await.network.bitcoin;
        let valid = validate_any(&ChainFamily::ALL, address, bitcoin).ok_or_else(|| {
            invalid(
                "address",
                format!(
                    "{address:?} is not {}. Check it and try again.",
                    any_family_address(&ChainFamily::ALL)
                ),
            )
        })?;
        let mut state = self.state.lock().await;
        let kind = state.network.kind;
        let list = &mut state.settings.prefs_mut(kind).watched;
        if list
            .iter()
            .any(|a| a.eq_ignore_ascii_case(&valid.canonical))
        {
            return Ok(self.view(&state));
        }
        list.push(valid.canonical.clone());
        crate::settings::save(&self.paths.settings_file(), &state.settings)?;
        if let Some(watch) = &state.watch {
            let _ = watch.tracker.watch_address(valid.canonical).await;
        }
        Ok(self.view(&state))
    }

    /// Stops following `address`.
    pub async fn unwatch_address(&self, address: &str) -> Result<SettingsView, DeskError> {
        let mut state = self.state.lock().await;
        let kind = state.network.kind;
        let list = &mut state.settings.prefs_mut(kind).watched;
        let before = list.len();
        list.retain(|a| !a.eq_ignore_ascii_case(address.trim()));
        if list.len() != before {
            crate::settings::save(&self.paths.settings_file(), &state.settings)?;
            if let Some(watch) = &state.watch {
                let _ = watch
                    .tracker
                    .unwatch_address(address.trim().to_owned())
                    .await;
            }
            let key = Self::network_key_of(&state);
            let watched: Vec<String> = state.settings.watched(kind).to_vec();
            if let Some(seen) = self
                .seen
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get_mut(&key)
            {
                // Forget orders no remaining address lists (their raw answers say whose they are).
                seen.retain(|_, view| {
                    view.raw.as_ref().is_some_and(|raw| {
                        let text = raw.to_string().to_lowercase();
                        watched.iter().any(|a| text.contains(&a.to_lowercase()))
                    })
                });
            }
        }
        Ok(self.view(&state))
    }

    /// How many seconds until the tracker next reads the gateway's order `order_id` (rounded up); `None` when it is
    /// not followed (finished, or no tracker runs).
    pub async fn next_check_secs(&self, order_id: &str) -> Option<u64> {
        let tracker = self.state.lock().await.watch.as_ref()?.tracker.clone();
        let wait = tracker.next_check(order_id).await.ok()??;
        Some(wait.as_secs() + u64::from(wait.subsec_nanos() > 0))
    }

    /// Reads every watched address and unfinished order now.
    pub async fn refresh_now(&self) {
        if let Some(watch) = &self.state.lock().await.watch {
            let _ = watch.tracker.refresh_now().await;
        }
    }

    /// Takes the signed transaction (hex) or its id/hash for an order, checks it, journals it and registers it.
    pub async fn hand_in(&self, local_id: i64, text: &str) -> Result<OrderView, DeskError> {
        let (client, key, checks) = self.client_key_and_policy().await;
        let journal = self.journal()?;
        let flow = flow_on(&client, journal, &key, &checks);
        let handed = flow.hand_in(local_id, text).await;
        // Followed even when the registration's answer was lost (V4's onramp: the gateway may have broadcast it).
        let order = journal.order(local_id)?;
        if matches!(order.stage, Stage::Registering | Stage::Registered) {
            self.track(&order).await;
        }
        handed.map_err(super::errors::from_flow)?;
        self.order_view(local_id)
    }

    /// Takes an unfinished order one step on (after a restart): confirms an uncertain creation, re-verifies, finishes
    /// a wallet transaction journaled before a crash, or registers a transaction already handed in.
    pub async fn resume(&self, local_id: i64) -> Result<OrderView, DeskError> {
        let (client, key, checks) = self.client_key_and_policy().await;
        let journal = self.journal()?;
        // A transaction the wallet signed and journaled is finished first: re-sent as it is or its receipt read, and
        // the order's payment, once mined, registered. No new signature without the person.
        let order = journal.order(local_id)?;
        if crate::execute::has_unfinished_wallet_tx(&order.to_pay()) {
            return self.wallet_step(local_id, None, None, false).await;
        }
        let flow = flow_on(&client, journal, &key, &checks);
        let (order, _) = flow
            .resume(local_id)
            .await
            .map_err(super::errors::from_flow)?;
        self.track(&order).await;
        // Sent to the window as a change too: Swap and Orders both show the order as it now is.
        self.changed(local_id)
    }

    /// Abandons an unfinished order at the person's request: nothing is sent to the gateway, whose order (if there is
    /// one) is left to expire unpaid, and the journal records `abandoned` with that reason. Refused, with a sentence
    /// saying why and what to do instead, once money may have moved ([`crate::journal::abandon_refusal`]): the
    /// wallet signed the payment, a transaction was handed in, or the order is registered or finished.
    pub async fn abandon(&self, local_id: i64) -> Result<OrderView, DeskError> {
        let order = self.journal()?.abandon_by_person(local_id)?;
        if let (Some(order_id), Some(watch)) = (&order.order_id, &self.state.lock().await.watch) {
            let _ = watch.tracker.untrack(order_id.clone()).await;
        }
        self.changed(local_id)
    }

    /// [`Self::abandon`], under its first name (an order refused by verification was "discarded").
    pub async fn discard(&self, local_id: i64) -> Result<OrderView, DeskError> {
        self.abandon(local_id).await
    }

    /// The person read what happened to a failed or refunded order ("I've read this"): journaled as `acknowledged`
    /// (once), after which the order no longer needs their attention. Any other order is refused.
    pub async fn acknowledge(&self, local_id: i64) -> Result<OrderView, DeskError> {
        self.journal()?.acknowledge(local_id)?;
        self.changed(local_id)
    }

    /// The view of order `local_id`, also sent to the window as a change.
    pub(crate) fn changed(&self, local_id: i64) -> Result<OrderView, DeskError> {
        let view = self.order_view(local_id)?;
        let _ = self.events.send(DeskEvent::OrderChanged {
            order: Box::new(view.clone()),
        });
        Ok(view)
    }

    pub(crate) async fn track(&self, order: &JournalOrder) {
        let events = match &self.journal {
            Some(journal) => journal.events(order.local_id).unwrap_or_default(),
            None => Vec::new(),
        };
        if let (Some(tracked), Some(watch)) =
            (tracked(order, &events), &self.state.lock().await.watch)
        {
            let _ = watch.tracker.track(tracked).await;
        }
    }

    /// One of the app's own orders.
    pub fn order_view(&self, local_id: i64) -> Result<OrderView, DeskError> {
        let journal = self.journal()?;
        let order = journal.order(local_id)?;
        let events = journal.events(local_id)?;
        Ok(OrderView::from_journal(&order, &events))
    }

    /// The orders of the current network: the app's own (newest first), then those of watched addresses that the
    /// app did not make.
    pub async fn orders(&self) -> Result<Vec<OrderView>, DeskError> {
        let key = self.client_and_key().await.1;
        let journal = self.journal()?;
        let mut views = Vec::new();
        let mut own = std::collections::HashSet::new();
        for order in journal.orders(Some(&key))? {
            if order.stage == Stage::Quoted {
                continue; // a quote never sent: not an order
            }
            if let Some(id) = &order.order_id {
                own.insert(id.clone());
            }
            let events = journal.events(order.local_id)?;
            views.push(OrderView::from_journal(&order, &events));
        }
        if let Some(seen) = self
            .seen
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
        {
            let mut others: Vec<&OrderView> = seen
                .values()
                .filter(|v| v.order_id.as_ref().is_none_or(|id| !own.contains(id)))
                .collect();
            others.sort_by_key(|v| std::cmp::Reverse(v.created_at));
            views.extend(others.into_iter().cloned());
        }
        Ok(views)
    }
}
