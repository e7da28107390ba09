//! The facts of one order, read once from the journal or a watched order's view, and the cache that re-reads only
//! what changed.

use std::collections::{HashMap, HashSet};

use alloy_primitives::U256;
use gateway_client::TokenRegistry;
use gateway_client::wire::{OrderInfo, QuoteView};
use serde::Deserialize;

use super::*;
use crate::api::RouteKind;
use crate::journal::{Journal, JournalError, JournalOrder, Stage};
use crate::views::{OrderView, status_text};

// ---------------------------------------------------------------------------------------------------------------
// The facts of one order, read once.

/// Where an order is known from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KnownFrom {
    /// The app's own order, in its journal.
    Journal,
    /// An order of a watched address that the app did not make.
    Watched,
}

impl KnownFrom {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Journal => "journal",
            Self::Watched => "watched",
        }
    }
}

/// What an order earned the partner (completed orders only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Earnings {
    /// Nothing to count: not completed, no affiliate, or no USD value to count with.
    None,
    /// The USD values of the affiliate fees the gateway resolved on the accepted quote, in micro-dollars.
    Exact(u128),
    /// bps × the USD input, in micro-dollars (rounded down).
    Estimated(u128),
}

impl Earnings {
    pub(crate) fn kind(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Exact(_) => "exact",
            Self::Estimated(_) => "estimated",
        }
    }
}

/// One side of an order: chain, token and amount (smallest units), with the USD value as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Side {
    /// The chain's slug (`bitcoin`, `bob`, …); empty when the order's sides are unknown.
    pub chain: String,
    /// The token's address on its chain, as the gateway wrote it.
    pub token: String,
    /// The amount in the token's smallest unit, as a decimal string (`0` when unknown).
    pub amount: String,
    /// The USD value as a decimal string, when the gateway gave one (V1 and V2 quotes carry none).
    pub usd: Option<String>,
}

impl Side {
    pub(crate) fn of(amount: &gateway_client::wire::TokenAmount) -> Self {
        Self {
            chain: amount.chain.clone(),
            token: amount.address.clone(),
            amount: amount.amount.clone(),
            usd: amount.usd.clone().filter(|u| !u.is_empty()),
        }
    }

    pub(crate) fn unknown() -> Self {
        Self {
            chain: String::new(),
            token: String::new(),
            amount: "0".into(),
            usd: None,
        }
    }
}

/// What the dashboard needs of one order, read once from the journal or a watched address's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderFacts {
    /// Whether this is the app's own order or a watched address's; the basis and the CSV say which.
    pub known_from: KnownFrom,
    /// The order's id in the app's journal, when it has one (always for the app's own orders).
    pub local_id: Option<i64>,
    /// The gateway's id of the order; orders without one are not counted.
    pub order_id: String,
    /// The order's route kind, which the dashboard's filter and its per-route totals go by.
    pub route: RouteKind,
    /// See [`StatusCount::status`].
    pub status: String,
    /// Unix seconds: when the app accepted the quote (its own orders) or the gateway's creation time.
    pub created_at: i64,
    /// What the user sent (the accepted quote's input for the app's own orders).
    pub src: Side,
    /// What the recipient gets (the quoted output).
    pub dst: Side,
    /// `src.usd` in micro-dollars.
    pub src_usd_micro: Option<u128>,
    /// Counted for completed orders only.
    pub earnings: Earnings,
}

impl OrderFacts {
    pub(crate) fn completed(&self) -> bool {
        self.status == "success"
    }
}

/// The words for a status or stage key.
pub(crate) fn status_words(key: &str) -> &'static str {
    match key {
        "inProgress" | "pendingBtcPayment" | "success" | "failed" | "refunded" => status_text(key),
        stage => Stage::parse(stage).map_or("Unknown status", crate::views::stage_text),
    }
}

/// Where a status sits in the list: the gateway's words first, then the app's stages in flow order.
pub(crate) fn status_rank(key: &str) -> usize {
    const ORDER: [&str; 17] = [
        "inProgress",
        "pendingBtcPayment",
        "success",
        "failed",
        "refunded",
        "unknown",
        "quoted",
        "creating",
        "createUnknown",
        "created",
        "verified",
        "txHandedIn",
        "registering",
        "registered",
        "finished",
        "refused",
        "abandoned",
    ];
    ORDER.iter().position(|k| *k == key).unwrap_or(ORDER.len())
}

pub(crate) fn route_rank(route: RouteKind) -> usize {
    match route {
        RouteKind::Onramp => 0,
        RouteKind::Offramp => 1,
        RouteKind::TokenSwap => 2,
    }
}

pub(crate) const ROUTES: [RouteKind; 3] = RouteKind::ALL;

/// The earnings of a completed order of the app's own, from its accepted quote.
pub(crate) fn quote_earnings(view: &QuoteView, input: &Side, input_usd: Option<u128>) -> Earnings {
    let resolved = match view {
        QuoteView::Onramp(q) => &q.affiliates,
        QuoteView::Offramp(q) => &q.affiliates,
        QuoteView::TokenSwap(q) => {
            return match (q.affiliate.as_ref(), input_usd) {
                (Some(a), Some(usd)) => Earnings::Estimated(bps_of_usd(usd, a.bps)),
                _ => Earnings::None,
            };
        }
        QuoteView::LayerZero(_) => return Earnings::None,
    };
    if resolved.is_empty() {
        return Earnings::None;
    }
    let mut exact = true;
    let mut total: u128 = 0;
    for affiliate in resolved {
        if let Some(usd) = affiliate.fee.usd.as_deref().and_then(parse_usd) {
            total += usd;
            continue;
        }
        // No USD value on the fee: its share of the input's USD value, when it is paid in the input token.
        exact = false;
        let same_token = affiliate.fee.chain == input.chain
            && token_key(&affiliate.fee.chain, &affiliate.fee.address)
                == token_key(&input.chain, &input.token);
        let (Ok(fee), Ok(whole)) = (
            affiliate.fee.amount.parse::<U256>(),
            input.amount.parse::<U256>(),
        ) else {
            continue;
        };
        if let (true, Some(usd)) = (same_token && !whole.is_zero(), input_usd) {
            let share = U256::from(usd) * fee / whole;
            total += u128::try_from(share).unwrap_or(0);
        }
    }
    if exact {
        Earnings::Exact(total)
    } else if input_usd.is_some() {
        Earnings::Estimated(total)
    } else {
        Earnings::None
    }
}

/// The facts of one of the app's own orders; `None` when the gateway does not have it (no order id).
pub fn facts_from_journal(order: &JournalOrder) -> Option<OrderFacts> {
    let order_id = order.order_id.clone()?;
    let quote = QuoteView::from_value(&order.quote).ok();
    let info = order
        .status
        .as_ref()
        .and_then(|raw| OrderInfo::deserialize(raw).ok());
    let (mut src, dst) = match (&quote, &info) {
        (Some(view), _) => (
            Side::of(view.input_amount()),
            Side::of(view.output_amount()),
        ),
        (None, Some(info)) => (
            Side {
                chain: info.src_info.chain.clone(),
                token: info.src_info.token.clone(),
                amount: info.src_info.amount.clone(),
                usd: info.src_info.usd.clone(),
            },
            Side {
                chain: info.dst_info.chain.clone(),
                token: info.dst_info.token.clone(),
                amount: info.dst_info.amount.clone(),
                usd: info.dst_info.usd.clone(),
            },
        ),
        (None, None) => (Side::unknown(), Side::unknown()),
    };
    if src.usd.is_none() {
        // A V1 quote has no USD values; the gateway's record of the order may (V3).
        src.usd = info.as_ref().and_then(|i| i.src_info.usd.clone());
    }
    let status = match (order.status_label.as_deref(), order.stage) {
        (_, stage @ (Stage::Refused | Stage::Abandoned)) => stage.as_str(),
        // The gateway says "in progress" while it waits for the transaction: say where the app is instead.
        (Some("inProgress" | "pendingBtcPayment"), stage)
            if !matches!(stage, Stage::Registered | Stage::Finished) =>
        {
            stage.as_str()
        }
        (Some(label), _) => label,
        (None, stage) => stage.as_str(),
    };
    let src_usd_micro = src.usd.as_deref().and_then(parse_usd);
    let earnings = match &quote {
        Some(view) if status == "success" => quote_earnings(view, &src, src_usd_micro),
        _ => Earnings::None,
    };
    Some(OrderFacts {
        known_from: KnownFrom::Journal,
        local_id: Some(order.local_id),
        order_id,
        route: order.route,
        status: status.to_owned(),
        created_at: order.created_at,
        src,
        dst,
        src_usd_micro,
        earnings,
    })
}

/// The facts of a watched address's order the app did not make, its earnings estimated with `rates` (the bps
/// configured now), when there are some for its route kind. `None` without an order id.
pub fn facts_from_view(view: &OrderView, rates: &AffiliateRates) -> Option<OrderFacts> {
    let order_id = view.order_id.clone()?;
    let side = |a: &crate::views::AmountView| Side {
        chain: a.token.chain.clone(),
        token: a.token.address.clone(),
        amount: a.amount.clone(),
        usd: a.usd.clone(),
    };
    let src = side(&view.send);
    let src_usd_micro = src.usd.as_deref().and_then(parse_usd);
    let status = view.status.clone().unwrap_or_else(|| "unknown".into());
    let earnings = match (rates.for_route(view.route), src_usd_micro) {
        (Some(bps), Some(usd)) if status == "success" => Earnings::Estimated(bps_of_usd(usd, bps)),
        _ => Earnings::None,
    };
    Some(OrderFacts {
        known_from: KnownFrom::Watched,
        local_id: view.local_id,
        order_id,
        route: view.route,
        status,
        created_at: view.created_at.unwrap_or(0),
        src,
        dst: side(&view.receive),
        src_usd_micro,
        earnings,
    })
}

/// One token's identity for summing: the registry's spelling of its address when it is known, else the address
/// (EVM addresses without case).
pub(crate) fn token_key(chain: &str, token: &str) -> String {
    match TokenRegistry::builtin().get(chain, token) {
        Some(info) => info.address.clone(),
        None if token.starts_with("0x") => token.to_ascii_lowercase(),
        None => token.to_owned(),
    }
}

/// The facts of one network's journaled orders as last read, each with the journal's stamp: reading the dashboard
/// again parses only the orders that changed since (the journal's quotes are the expensive part to read).
#[derive(Debug, Default)]
pub struct FactsCache {
    network: String,
    entries: HashMap<i64, (String, Option<OrderFacts>)>,
}

impl FactsCache {
    /// The facts of every order of `network` the gateway has, newest first, reading only what changed.
    pub fn read(
        &mut self,
        journal: &Journal,
        network: &str,
    ) -> Result<Vec<OrderFacts>, JournalError> {
        if self.network != network {
            self.network = network.to_owned();
            self.entries.clear();
        }
        let stamps = journal.order_stamps(Some(network))?;
        let current: HashSet<i64> = stamps.iter().map(|(id, _)| *id).collect();
        self.entries.retain(|id, _| current.contains(id));
        let changed: Vec<i64> = stamps
            .iter()
            .filter(|(id, stamp)| self.entries.get(id).is_none_or(|(seen, _)| seen != stamp))
            .map(|(id, _)| *id)
            .collect();
        if !changed.is_empty() {
            let stamp_of: HashMap<i64, &String> = stamps.iter().map(|(id, s)| (*id, s)).collect();
            for order in journal.order_summaries_of(&changed)? {
                let stamp = stamp_of
                    .get(&order.local_id)
                    .map(|s| (*s).clone())
                    .unwrap_or_default();
                self.entries
                    .insert(order.local_id, (stamp, facts_from_journal(&order)));
            }
        }
        let mut facts: Vec<OrderFacts> = self
            .entries
            .values()
            .filter_map(|(_, f)| f.clone())
            .collect();
        facts.sort_by_key(|f| std::cmp::Reverse(f.local_id));
        Ok(facts)
    }
}
