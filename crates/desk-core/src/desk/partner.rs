//! The desk's partner facet: the current network's affiliate entries, and the dashboard and CSV built from its
//! journal and watched orders (the figures themselves are `crate::partner`'s).

use std::collections::HashSet;

use super::Desk;
use crate::api::SettingsView;
use crate::error::{DeskError, ErrorKind};
use crate::partner::*;
use crate::settings::AffiliateEntry;
use crate::views::OrderView;

impl Desk {
    /// Keeps the current network's affiliate entries (checked against the gateway's limits, addresses in their
    /// canonical form) for every quote from now on. Nothing is saved when an entry is refused.
    pub async fn set_affiliates(
        &self,
        affiliates: Vec<AffiliateEntry>,
        token_swap: Option<AffiliateEntry>,
    ) -> Result<SettingsView, DeskError> {
        let (list, swap) = validate_affiliates(&affiliates, token_swap.as_ref())?;
        let mut state = self.state.lock().await;
        let kind = state.network.kind;
        let prefs = state.settings.prefs_mut(kind);
        prefs.affiliates = list;
        prefs.token_swap_affiliate = swap;
        crate::settings::save(&self.paths.settings_file(), &state.settings)?;
        tracing::info!(
            network = kind.slug(),
            entries = state.settings.affiliates(kind).len(),
            token_swap = state.settings.token_swap_affiliate(kind).is_some(),
            "affiliates set"
        );
        Ok(self.view(&state))
    }
}

impl Desk {
    /// The facts of every order the app knows on the current network: its journal's (those the gateway has) and
    /// the watched addresses' orders it did not make, read on a blocking thread; and sentences about what could
    /// not be read.
    async fn partner_facts(&self) -> Result<(Vec<OrderFacts>, Vec<String>), DeskError> {
        let state = self.state.lock().await;
        let key = Self::network_key_of(&state);
        let rates = AffiliateRates::of(
            &state.settings,
            state.network.kind,
            state.network.client.config().version,
        );
        drop(state);
        let watched: Vec<OrderView> = self
            .seen
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
            .map(|seen| seen.values().cloned().collect())
            .unwrap_or_default();
        let journal = self.journal.clone();
        let cache = self.partner_cache.clone();
        let read = tokio::task::spawn_blocking(move || {
            let mut notes = Vec::new();
            let mut facts = Vec::new();
            match &journal {
                Some(journal) => {
                    let mut cache = cache.lock().unwrap_or_else(|p| p.into_inner());
                    facts.extend(cache.read(journal, &key)?);
                }
                None => notes.push(
                    "The order journal cannot be used (see the notice in Settings), so only watched addresses' \
                     orders are counted."
                        .to_owned(),
                ),
            }
            let own: HashSet<String> = facts.iter().map(|f| f.order_id.clone()).collect();
            facts.extend(
                watched
                    .iter()
                    .filter(|v| v.order_id.as_ref().is_some_and(|id| !own.contains(id)))
                    .filter_map(|v| facts_from_view(v, &rates)),
            );
            Ok::<_, DeskError>((facts, notes))
        });
        read.await.map_err(|e| {
            DeskError::new(
                ErrorKind::Journal,
                format!("Reading the orders for the dashboard failed ({e}). Try again."),
            )
        })?
    }

    /// The partner dashboard of the current network's orders, as `query` asks.
    pub async fn dashboard(&self, query: &DashboardQuery) -> Result<Dashboard, DeskError> {
        let (facts, notes) = self.partner_facts().await?;
        let query = query.clone();
        let mut dashboard = tokio::task::spawn_blocking(move || build(&facts, &query))
            .await
            .map_err(|e| {
                DeskError::new(
                    ErrorKind::Journal,
                    format!("Building the dashboard failed ({e}). Try again."),
                )
            })?;
        dashboard.basis.extend(notes);
        Ok(dashboard)
    }

    /// The rows behind the dashboard `query` asks for, one per order, as CSV text (see [`csv_text`]).
    pub async fn dashboard_csv(&self, query: &DashboardQuery) -> Result<String, DeskError> {
        let (facts, _) = self.partner_facts().await?;
        Ok(csv_text(&facts, query)?)
    }
}
