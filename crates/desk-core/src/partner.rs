//! Partner: affiliate entries applied to quotes, and the dashboard of volume and affiliate earnings.
//!
//! The entries are kept per network in the settings ([`AffiliateEntry`]): a list for onramps and offramps (at most
//! [`MAX_AFFILIATES`], at most [`MAX_TOTAL_BPS`] in total, no address twice) and one entry for V3 token swaps.
//! [`affiliates_for`] decides what a quote request carries; [`Desk::quote`] shows it on the card.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use alloy_primitives::U256;
use gateway_client::address::{BitcoinNetwork, validate_address};
use gateway_client::display::amount_text;
use gateway_client::wire::{OrderInfo, QuoteView};
use gateway_client::{ApiVersion, TokenRegistry};
use serde::{Deserialize, Serialize};
use serde_json::json;
use ts_rs::TS;

use crate::api::{DeskError, ErrorKind, RouteKind, SettingsView, TokenView};
use crate::calendar::{DAY_SECS, civil_from_days, days_from_civil, iso_week, utc_text};
use crate::desk::{Desk, token_view};
use crate::journal::{Journal, JournalError, JournalOrder, Stage};
use crate::settings::{self, AffiliateEntry, NetworkKind, Settings};
use crate::usd::Usd;
use crate::views::{OrderView, status_text};

/// The gateway's limits on onramp and offramp affiliates.
pub const MAX_AFFILIATES: usize = 5;
/// The largest total of the affiliate entries' bps (10%).
pub const MAX_TOTAL_BPS: u32 = 1_000;

/// The chains whose addresses can receive an affiliate fee.
const AFFILIATE_CHAINS: [&str; 3] = ["ethereum", "tron", "solana"];

fn refused(details: serde_json::Value, message: String) -> DeskError {
    let mut error = DeskError::new(ErrorKind::InvalidInput, message);
    error.details = Some(Box::new(details));
    error
}

/// The canonical form of an affiliate address (EVM, Tron or Solana), or why it is not one.
fn canonical_address(address: &str) -> Result<String, String> {
    let address = address.trim();
    if address.is_empty() {
        return Err("has no address".into());
    }
    AFFILIATE_CHAINS
        .iter()
        .find_map(|chain| validate_address(chain, address, BitcoinNetwork::Mainnet).ok())
        .map(|valid| valid.canonical)
        .ok_or_else(|| format!("{address:?} is not an EVM, Tron or Solana address"))
}

/// Checks the affiliate entries against the gateway's limits and gives them back with canonical addresses.
///
/// The list (onramps, offramps): each address valid, bps above 0, at most [`MAX_AFFILIATES`] entries, at most
/// [`MAX_TOTAL_BPS`] in total, no address twice (EVM addresses compared without case). The token-swap entry: a
/// valid address and 1 to [`MAX_TOTAL_BPS`] bps. An error names the entry (`{"field": "affiliates", "index": i}`,
/// or `{"field": "tokenSwapAffiliate"}`) and says what to change.
pub fn validate_affiliates(
    affiliates: &[AffiliateEntry],
    token_swap: Option<&AffiliateEntry>,
) -> Result<(Vec<AffiliateEntry>, Option<AffiliateEntry>), DeskError> {
    let at = |index: usize, message: String| {
        refused(json!({"field": "affiliates", "index": index}), message)
    };
    if affiliates.len() > MAX_AFFILIATES {
        return Err(at(
            MAX_AFFILIATES,
            format!(
                "{} affiliate entries were given; the gateway takes at most {MAX_AFFILIATES}. Remove one and save \
                 again.",
                affiliates.len()
            ),
        ));
    }
    let mut list: Vec<AffiliateEntry> = Vec::with_capacity(affiliates.len());
    let mut total: u32 = 0;
    for (index, entry) in affiliates.iter().enumerate() {
        let n = index + 1;
        let address = canonical_address(&entry.address).map_err(|why| {
            at(
                index,
                format!("Affiliate entry {n} {why}. Correct the address and save again."),
            )
        })?;
        if entry.bps == 0 {
            return Err(at(
                index,
                format!(
                    "Affiliate entry {n} ({address}) has 0 bps; each entry needs more than 0 basis points. Enter its \
                     share or remove it."
                ),
            ));
        }
        if let Some(first) = list.iter().position(|e| e.address == address) {
            return Err(at(
                index,
                format!(
                    "Affiliate entry {n} repeats the address of entry {} ({address}); the gateway takes each \
                     address once. Remove one of them.",
                    first + 1
                ),
            ));
        }
        total = total.saturating_add(entry.bps);
        if total > MAX_TOTAL_BPS {
            return Err(at(
                index,
                format!(
                    "The affiliate entries add up to {total} bps with entry {n}; the gateway takes at most \
                     {MAX_TOTAL_BPS} bps (10%) in total. Lower some shares and save again."
                ),
            ));
        }
        list.push(AffiliateEntry {
            address,
            bps: entry.bps,
        });
    }
    let swap = token_swap
        .map(|entry| {
            let at = |message: String| refused(json!({"field": "tokenSwapAffiliate"}), message);
            let address = canonical_address(&entry.address).map_err(|why| {
                at(format!(
                    "The token-swap affiliate {why}. Correct the address and save again."
                ))
            })?;
            if !(1..=MAX_TOTAL_BPS).contains(&entry.bps) {
                return Err(at(format!(
                    "The token-swap affiliate has {} bps; it must be 1 to {MAX_TOTAL_BPS} bps. Enter its share \
                     again.",
                    entry.bps
                )));
            }
            Ok(AffiliateEntry {
                address,
                bps: entry.bps,
            })
        })
        .transpose()?;
    Ok((list, swap))
}

/// What a quote request carries for the partner, and why when some configured entry was not sent.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AppliedAffiliates {
    pub entries: Vec<AffiliateEntry>,
    pub note: Option<String>,
}

/// The affiliate entries of `kind` a quote from `src_chain` to `dst_chain` carries on API `version`:
/// onramps and offramps (V2, V3) the list; V3 token swaps the token-swap entry, when its address is one of the
/// source chain (the fee is charged there); V2 token swaps and V1 none, with a note saying why.
pub fn affiliates_for(
    settings: &Settings,
    kind: NetworkKind,
    version: ApiVersion,
    src_chain: &str,
    dst_chain: &str,
) -> AppliedAffiliates {
    let list = settings.affiliates(kind);
    let swap = settings.token_swap_affiliate(kind);
    if list.is_empty() && swap.is_none() {
        return AppliedAffiliates::default();
    }
    let route = gateway_client::wire::RouteKind::between(src_chain, dst_chain);
    let none = |note: String| AppliedAffiliates {
        entries: Vec::new(),
        note: Some(note),
    };
    match (version, route) {
        (ApiVersion::V1, _) => none(
            "API V1 takes no affiliate list (only a single affiliate id), so no affiliate entry was sent with \
             this quote. Choose V3 or V2 in Settings to earn affiliate fees."
                .into(),
        ),
        (_, gateway_client::wire::RouteKind::Onramp | gateway_client::wire::RouteKind::Offramp) => {
            if list.is_empty() {
                AppliedAffiliates::default()
            } else {
                AppliedAffiliates {
                    entries: list.to_vec(),
                    note: None,
                }
            }
        }
        (ApiVersion::V2, gateway_client::wire::RouteKind::TokenSwap) => none(
            "V2 token swaps take no affiliate fee (the gateway refuses one), so no affiliate was sent with this \
             quote. Choose V3 in Settings to earn a fee on token swaps."
                .into(),
        ),
        (_, gateway_client::wire::RouteKind::TokenSwap) => match swap {
            Some(entry)
                if validate_address(src_chain, &entry.address, BitcoinNetwork::Mainnet)
                    .is_ok() =>
            {
                AppliedAffiliates {
                    entries: vec![entry.clone()],
                    note: None,
                }
            }
            Some(entry) => none(format!(
                "The token-swap affiliate {} is not an address of {src_chain}, where a token swap's affiliate \
                 fee is paid, so no affiliate was sent with this quote. Set a {src_chain} address as the \
                 token-swap affiliate to earn a fee on swaps from {src_chain}.",
                entry.address
            )),
            None => none(
                "A token swap takes one affiliate entry of its own (the token-swap affiliate in Settings); none \
                 is set, so no affiliate was sent with this quote."
                    .into(),
            ),
        },
    }
}

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
        settings::save(&self.paths.settings_file(), &state.settings)?;
        tracing::info!(
            network = kind.slug(),
            entries = state.settings.affiliates(kind).len(),
            token_swap = state.settings.token_swap_affiliate(kind).is_some(),
            "affiliates set"
        );
        Ok(self.view(&state))
    }
}

/// The bps the app would send now with an order of each route kind (the basis of the estimates for orders of
/// watched addresses, whose affiliates the gateway does not report).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AffiliateRates {
    /// Onramps and offramps: the list's total, when there is a list.
    pub list_bps: Option<u32>,
    /// Token swaps: the token-swap entry's bps (V3 only).
    pub token_swap_bps: Option<u32>,
}

impl AffiliateRates {
    /// The rates of network `kind` on API `version`: none on V1 (no affiliate list), no token swaps on V2.
    pub fn of(settings: &Settings, kind: NetworkKind, version: ApiVersion) -> Self {
        if version == ApiVersion::V1 {
            return Self::default();
        }
        let list = settings.affiliates(kind);
        Self {
            list_bps: (!list.is_empty()).then(|| list.iter().map(|a| a.bps).sum()),
            token_swap_bps: (version == ApiVersion::V3)
                .then(|| settings.token_swap_affiliate(kind).map(|a| a.bps))
                .flatten(),
        }
    }

    /// The bps for an order of `route`.
    pub fn for_route(&self, route: RouteKind) -> Option<u32> {
        match route {
            RouteKind::Onramp | RouteKind::Offramp => self.list_bps,
            RouteKind::TokenSwap => self.token_swap_bps,
        }
    }
}

// Exact USD is `crate::usd::Usd`; the dashboard sums its micro-dollars as `u128`.

/// A USD text in micro-dollars ([`Usd::parse`]).
fn parse_usd(text: &str) -> Option<u128> {
    Usd::parse(text).map(Usd::micros)
}

/// Micro-dollars as dollars and cents, rounded down ([`Usd::cents_text`]).
fn format_usd(micro: u128) -> String {
    Usd::from_micros(micro).cents_text()
}

/// Micro-dollars with all six decimals ([`Usd::exact_text`]).
fn format_usd_micro(micro: u128) -> String {
    Usd::from_micros(micro).exact_text()
}

/// `bps` of `usd_micro`, rounded down to the micro-dollar ([`Usd::bps`]).
fn bps_of_usd(usd_micro: u128, bps: u32) -> u128 {
    Usd::from_micros(usd_micro).bps(bps).micros()
}

// ---------------------------------------------------------------------------------------------------------------
// The dashboard's buckets, on the one calendar (`crate::calendar`).

/// The earliest date the dashboard places an order at: 2009-01-01 (before any Bitcoin order could exist).
pub const EARLIEST_DATE: i64 = 1_230_768_000;
/// The latest: 9999-12-31T23:59:59Z. A date outside (a gateway's `i64::MAX`) is placed at the nearer end, so the
/// calendar and the chart's span stay bounded.
pub const LATEST_DATE: i64 = 253_402_300_799;

/// The start (unix seconds) of the bucket of `period` holding `unix_secs` (clamped to
/// [`EARLIEST_DATE`]..=[`LATEST_DATE`]).
pub fn bucket_start(period: Period, unix_secs: i64) -> i64 {
    let days = unix_secs
        .clamp(EARLIEST_DATE, LATEST_DATE)
        .div_euclid(DAY_SECS);
    let first_day = match period {
        Period::Day => days,
        Period::Week => iso_week(days).2,
        Period::Month => {
            let (y, m, _) = civil_from_days(days);
            days_from_civil(y, m, 1)
        }
    };
    first_day * DAY_SECS
}

/// The start of the bucket after the one starting at `start`.
fn next_bucket(period: Period, start: i64) -> i64 {
    match period {
        Period::Day => start + DAY_SECS,
        Period::Week => start + 7 * DAY_SECS,
        Period::Month => {
            let (y, m, _) = civil_from_days(start.div_euclid(DAY_SECS));
            let (y, m) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
            days_from_civil(y, m, 1) * DAY_SECS
        }
    }
}

/// The name of the bucket starting at `start`: `2026-11-21`, `2026-W47` (ISO week) or `2026-11`.
pub fn bucket_label(period: Period, start: i64) -> String {
    let days = start.div_euclid(DAY_SECS);
    match period {
        Period::Day => {
            let (y, m, d) = civil_from_days(days);
            format!("{y:04}-{m:02}-{d:02}")
        }
        Period::Week => {
            let (y, w, _) = iso_week(days);
            format!("{y:04}-W{w:02}")
        }
        Period::Month => {
            let (y, m, _) = civil_from_days(days);
            format!("{y:04}-{m:02}")
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The dashboard's types (the window's TypeScript twins are generated).

/// How the dashboard groups orders in time (UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export_to = "Period.ts")]
pub enum Period {
    #[default]
    Day,
    /// ISO 8601 weeks, Monday to Sunday (`2026-W53`).
    Week,
    Month,
}

/// What the dashboard shows: the grouping, and one route kind or all.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "DashboardQuery.ts")]
pub struct DashboardQuery {
    pub period: Period,
    #[serde(
        default,
        deserialize_with = "route_from_wire",
        skip_serializing_if = "Option::is_none"
    )]
    #[ts(optional)]
    pub route: Option<RouteKind>,
}

/// Reads `"onramp" | "offramp" | "tokenSwap"` (or null) with the gateway's own reading of route kinds.
fn route_from_wire<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<RouteKind>, D::Error> {
    Ok(Option::<gateway_client::wire::RouteKind>::deserialize(deserializer)?.map(RouteKind::from))
}

/// How many orders have one status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "StatusCount.ts")]
pub struct StatusCount {
    /// The gateway's status (`inProgress`, `pendingBtcPayment`, `success`, `failed`, `refunded`, `unknown`), or
    /// for one of the app's own orders that the gateway is still waiting on, where it is in the app's flow
    /// (`verified`: waiting for the signature, `registered`, `refused`, …).
    pub status: String,
    pub text: String,
    #[ts(type = "number")]
    pub count: u64,
}

/// The volume of one input token over the completed orders.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "TokenVolume.ts")]
pub struct TokenVolume {
    pub token: TokenView,
    /// Smallest units, summed exactly.
    pub amount: String,
    /// The same for a person: `0.0125 BTC`.
    pub text: String,
    /// The USD total, when every one of these orders had a USD value.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub usd: Option<String>,
    #[ts(type = "number")]
    pub orders: u64,
}

/// The totals of one route kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "RouteTotals.ts")]
pub struct RouteTotals {
    pub route: RouteKind,
    #[ts(type = "number")]
    pub orders: u64,
    #[ts(type = "number")]
    pub completed: u64,
    pub volume_usd: String,
    pub earnings_exact_usd: String,
    pub earnings_estimated_usd: String,
}

/// One line of the dashboard's table: a bucket of time and a route kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "DashboardRow.ts")]
pub struct DashboardRow {
    /// `2026-11-21`, `2026-W47` (ISO week) or `2026-11`.
    pub bucket: String,
    /// The bucket's first second (unix, UTC).
    #[ts(type = "number")]
    pub start: i64,
    pub route: RouteKind,
    #[ts(type = "number")]
    pub orders: u64,
    #[ts(type = "number")]
    pub completed: u64,
    pub volume_usd: String,
    pub earnings_exact_usd: String,
    pub earnings_estimated_usd: String,
}

/// One bar of the chart: a bucket of time (every bucket between the first and the last, empty ones too).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "ChartBar.ts")]
pub struct ChartBar {
    pub bucket: String,
    #[ts(type = "number")]
    pub start: i64,
    pub volume_usd: String,
    pub earnings_exact_usd: String,
    pub earnings_estimated_usd: String,
}

/// The partner dashboard over the orders the app knows on the current network. USD values have 2 decimals,
/// rounded down from exact sums.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "Dashboard.ts")]
pub struct Dashboard {
    pub period: Period,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub route: Option<RouteKind>,
    /// Orders the gateway has (with an order id).
    #[ts(type = "number")]
    pub orders: u64,
    pub by_status: Vec<StatusCount>,
    /// The USD input volume of the completed orders.
    pub volume_usd: String,
    #[ts(type = "number")]
    pub completed: u64,
    /// Completed orders without a USD value (left out of the USD figures).
    #[ts(type = "number")]
    pub completed_without_usd: u64,
    pub by_token: Vec<TokenVolume>,
    pub earnings_exact_usd: String,
    pub earnings_estimated_usd: String,
    pub by_route: Vec<RouteTotals>,
    /// Newest bucket first; within a bucket onramp, offramp, token swap.
    pub rows: Vec<DashboardRow>,
    /// Oldest bucket first.
    pub chart: Vec<ChartBar>,
    /// Sentences saying what is counted and how the estimates are made.
    pub basis: Vec<String>,
}

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
    fn as_str(self) -> &'static str {
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
    fn kind(self) -> &'static str {
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
    pub chain: String,
    pub token: String,
    pub amount: String,
    pub usd: Option<String>,
}

impl Side {
    fn of(amount: &gateway_client::wire::TokenAmount) -> Self {
        Self {
            chain: amount.chain.clone(),
            token: amount.address.clone(),
            amount: amount.amount.clone(),
            usd: amount.usd.clone().filter(|u| !u.is_empty()),
        }
    }

    fn unknown() -> Self {
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
    pub known_from: KnownFrom,
    pub local_id: Option<i64>,
    pub order_id: String,
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
    fn completed(&self) -> bool {
        self.status == "success"
    }
}

/// The journal's word for a stage (as it is written on the wire).
fn stage_key(stage: Stage) -> &'static str {
    match stage {
        Stage::Quoted => "quoted",
        Stage::Creating => "creating",
        Stage::CreateUnknown => "createUnknown",
        Stage::Created => "created",
        Stage::Verified => "verified",
        Stage::Refused => "refused",
        Stage::TxHandedIn => "txHandedIn",
        Stage::Registering => "registering",
        Stage::Registered => "registered",
        Stage::Finished => "finished",
        Stage::Abandoned => "abandoned",
    }
}

/// The words for a status or stage key.
fn status_words(key: &str) -> &'static str {
    match key {
        "inProgress" | "pendingBtcPayment" | "success" | "failed" | "refunded" => status_text(key),
        "quoted" => "Quote accepted; no order yet",
        "creating" | "createUnknown" => "Being created",
        "created" | "verified" => "Waiting for the signature",
        "refused" => "Refused: the gateway's transaction did not match the quote",
        "txHandedIn" | "registering" => "Transaction being registered",
        "registered" => "Registered; waiting for the gateway",
        "finished" => "Finished",
        "abandoned" => "Given up",
        _ => "Unknown status",
    }
}

/// Where a status sits in the list: the gateway's words first, then the app's stages in flow order.
fn status_rank(key: &str) -> usize {
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

fn route_rank(route: RouteKind) -> usize {
    match route {
        RouteKind::Onramp => 0,
        RouteKind::Offramp => 1,
        RouteKind::TokenSwap => 2,
    }
}

const ROUTES: [RouteKind; 3] = RouteKind::ALL;

/// The earnings of a completed order of the app's own, from its accepted quote.
fn quote_earnings(view: &QuoteView, input: &Side, input_usd: Option<u128>) -> Earnings {
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
        (_, stage @ (Stage::Refused | Stage::Abandoned)) => stage_key(stage),
        // The gateway says "in progress" while it waits for the transaction: say where the app is instead.
        (Some("inProgress" | "pendingBtcPayment"), stage)
            if !matches!(stage, Stage::Registered | Stage::Finished) =>
        {
            stage_key(stage)
        }
        (Some(label), _) => label,
        (None, stage) => stage_key(stage),
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
        route: order.route.into(),
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
fn token_key(chain: &str, token: &str) -> String {
    match TokenRegistry::builtin().get(chain, token) {
        Some(info) => info.address.clone(),
        None if token.starts_with("0x") => token.to_ascii_lowercase(),
        None => token.to_owned(),
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Building the dashboard.

#[derive(Debug, Default, Clone, Copy)]
struct Totals {
    orders: u64,
    completed: u64,
    volume: u128,
    exact: u128,
    estimated: u128,
}

impl Totals {
    fn add(&mut self, facts: &OrderFacts) {
        self.orders += 1;
        if !facts.completed() {
            return;
        }
        self.completed += 1;
        // Saturating: a gateway's absurd USD value must not wrap (release) or panic (debug).
        self.volume = self.volume.saturating_add(facts.src_usd_micro.unwrap_or(0));
        match facts.earnings {
            Earnings::Exact(usd) => self.exact = self.exact.saturating_add(usd),
            Earnings::Estimated(usd) => self.estimated = self.estimated.saturating_add(usd),
            Earnings::None => {}
        }
    }
}

struct TokenTotals {
    chain: String,
    token: String,
    amount: U256,
    usd: Option<u128>,
    orders: u64,
}

/// The chart shows at most this many buckets (the newest); the table lists every one.
pub const MAX_CHART_BARS: usize = 400;

/// The orders `query` selects, in the order the CSV lists them (newest first).
fn selected<'a>(facts: &'a [OrderFacts], query: &DashboardQuery) -> Vec<&'a OrderFacts> {
    let mut list: Vec<&OrderFacts> = facts
        .iter()
        .filter(|f| query.route.is_none_or(|r| f.route == r))
        .collect();
    list.sort_by(|a, b| {
        b.created_at
            .cmp(&a.created_at)
            .then_with(|| a.order_id.cmp(&b.order_id))
    });
    list
}

/// The dashboard of `facts` (one per order the gateway has) as `query` asks: counts by status of every order;
/// volume and earnings of the completed ones, per token, per route, per bucket of time.
pub fn build(facts: &[OrderFacts], query: &DashboardQuery) -> Dashboard {
    let period = query.period;
    let mut all = Totals::default();
    let mut by_status: HashMap<&str, u64> = HashMap::new();
    let mut by_route = [Totals::default(); 3];
    let mut rows: BTreeMap<(i64, usize), Totals> = BTreeMap::new();
    let mut tokens: BTreeMap<(String, String), TokenTotals> = BTreeMap::new();
    let mut completed_without_usd = 0u64;
    let (mut from_journal, mut from_watched) = (0u64, 0u64);
    let (mut exact_orders, mut estimated_orders) = (0u64, 0u64);
    for f in facts
        .iter()
        .filter(|f| query.route.is_none_or(|r| f.route == r))
    {
        match f.known_from {
            KnownFrom::Journal => from_journal += 1,
            KnownFrom::Watched => from_watched += 1,
        }
        all.add(f);
        *by_status.entry(f.status.as_str()).or_default() += 1;
        by_route[route_rank(f.route)].add(f);
        rows.entry((bucket_start(period, f.created_at), route_rank(f.route)))
            .or_default()
            .add(f);
        if !f.completed() {
            continue;
        }
        match f.earnings {
            Earnings::Exact(_) => exact_orders += 1,
            Earnings::Estimated(_) => estimated_orders += 1,
            Earnings::None => {}
        }
        if f.src_usd_micro.is_none() {
            completed_without_usd += 1;
        }
        let entry = tokens
            .entry((f.src.chain.clone(), token_key(&f.src.chain, &f.src.token)))
            .or_insert_with(|| TokenTotals {
                chain: f.src.chain.clone(),
                token: f.src.token.clone(),
                amount: U256::ZERO,
                usd: Some(0),
                orders: 0,
            });
        entry.amount = entry
            .amount
            .saturating_add(f.src.amount.parse::<U256>().unwrap_or(U256::ZERO));
        entry.usd = entry.usd.zip(f.src_usd_micro).map(|(a, b)| a + b);
        entry.orders += 1;
    }

    let registry = TokenRegistry::builtin();
    let mut by_token: Vec<TokenVolume> = tokens
        .into_values()
        .map(|t| {
            let amount = t.amount.to_string();
            TokenVolume {
                token: token_view(registry, &t.chain, &t.token),
                text: amount_text(registry, &t.chain, &t.token, &amount),
                amount,
                usd: t.usd.map(format_usd),
                orders: t.orders,
            }
        })
        .collect();
    // Largest USD volume first; tokens without one after, by number of orders.
    by_token.sort_by(|a, b| {
        let usd = |t: &TokenVolume| t.usd.as_deref().and_then(parse_usd);
        usd(b)
            .cmp(&usd(a))
            .then_with(|| b.orders.cmp(&a.orders))
            .then_with(|| a.text.cmp(&b.text))
    });

    let mut statuses: Vec<StatusCount> = by_status
        .into_iter()
        .map(|(status, count)| StatusCount {
            status: status.to_owned(),
            text: status_words(status).to_owned(),
            count,
        })
        .collect();
    statuses.sort_by(|a, b| {
        status_rank(&a.status)
            .cmp(&status_rank(&b.status))
            .then_with(|| a.status.cmp(&b.status))
    });

    let route_totals: Vec<RouteTotals> = ROUTES
        .iter()
        .zip(by_route.iter())
        .filter(|(_, t)| t.orders > 0)
        .map(|(route, t)| RouteTotals {
            route: *route,
            orders: t.orders,
            completed: t.completed,
            volume_usd: format_usd(t.volume),
            earnings_exact_usd: format_usd(t.exact),
            earnings_estimated_usd: format_usd(t.estimated),
        })
        .collect();

    let table: Vec<DashboardRow> = rows
        .iter()
        .rev()
        .map(|(&(start, rank), t)| (start, ROUTES[rank], t))
        // Newest bucket first, and within it onramp, offramp, token swap.
        .collect::<Vec<_>>()
        .chunk_by(|a, b| a.0 == b.0)
        .flat_map(|bucket| bucket.iter().rev().copied())
        .map(|(start, route, t)| DashboardRow {
            bucket: bucket_label(period, start),
            start,
            route,
            orders: t.orders,
            completed: t.completed,
            volume_usd: format_usd(t.volume),
            earnings_exact_usd: format_usd(t.exact),
            earnings_estimated_usd: format_usd(t.estimated),
        })
        .collect();

    let mut chart: Vec<ChartBar> = Vec::new();
    let mut per_bucket: BTreeMap<i64, Totals> = BTreeMap::new();
    for (&(start, _), t) in &rows {
        let b = per_bucket.entry(start).or_default();
        b.volume = b.volume.saturating_add(t.volume);
        b.exact = b.exact.saturating_add(t.exact);
        b.estimated = b.estimated.saturating_add(t.estimated);
    }
    let mut chart_cut = false;
    if let (Some(&first), Some(&last)) = (per_bucket.keys().next(), per_bucket.keys().next_back()) {
        // Every bucket from the first to the last, empty ones too, so that the bars are evenly spaced in time; at most
        // the last MAX_CHART_BARS, so the walk starts no earlier than that many (31-day) months before the last.
        let span = i64::try_from(MAX_CHART_BARS + 1).unwrap_or(i64::MAX) * 31 * DAY_SECS;
        let earliest = bucket_start(period, last.saturating_sub(span));
        if first < earliest {
            chart_cut = true;
        }
        let first = first.max(earliest);
        let mut starts = VecDeque::from([first]);
        while let Some(&at) = starts.back()
            && at < last
        {
            starts.push_back(next_bucket(period, at));
            if starts.len() > MAX_CHART_BARS {
                starts.pop_front();
                chart_cut = true;
            }
        }
        chart = starts
            .into_iter()
            .map(|start| {
                let t = per_bucket.get(&start).copied().unwrap_or_default();
                ChartBar {
                    bucket: bucket_label(period, start),
                    start,
                    volume_usd: format_usd(t.volume),
                    earnings_exact_usd: format_usd(t.exact),
                    earnings_estimated_usd: format_usd(t.estimated),
                }
            })
            .collect();
    }

    let mut basis = vec![format!(
        "{} counted: every order the gateway has on this network ({from_journal} of the app's own from its journal, \
         {from_watched} of watched addresses that the app did not make); accepted quotes that never became an \
         order are left out.",
        plural(all.orders, "order", "orders")
    )];
    if let Some(route) = query.route {
        basis.push(format!("Only {} orders are shown.", route.noun()));
    }
    basis.push(
        "Volume and earnings count completed orders only. Volume is what the users sent: the input amount of the \
         accepted quote (for watched addresses' orders, the gateway's record), in USD as the gateway valued it, \
         and per token in exact smallest units."
            .into(),
    );
    if completed_without_usd > 0 {
        basis.push(format!(
            "{} without a USD value (API V1 and V2 orders carry none) are in the per-token volume but not in the \
             USD figures.",
            plural(completed_without_usd, "completed order", "completed orders")
        ));
    }
    basis.push(format!(
        "Exact earnings ({}) are the USD values of the affiliate fees the gateway resolved on the accepted quote \
         (onramps and offramps).",
        plural(exact_orders, "order", "orders")
    ));
    basis.push(format!(
        "Estimated earnings ({}) are bps × the USD input, rounded down: for V3 token swaps the bps on the accepted \
         quote (the gateway resolves no amount for them); for watched addresses' orders the bps configured now for \
         that route kind, since the gateway does not say which affiliates those orders carried.",
        plural(estimated_orders, "order", "orders")
    ));
    basis.push(match period {
        Period::Day => "Days are UTC days, by when the order was made.".to_owned(),
        Period::Week => {
            "Weeks are ISO 8601 weeks (Monday to Sunday, UTC; week 1 holds the year's first Thursday), by when \
             the order was made."
                .to_owned()
        }
        Period::Month => "Months are UTC calendar months, by when the order was made.".to_owned(),
    });
    if chart_cut {
        basis.push(format!(
            "The chart shows the latest {MAX_CHART_BARS} periods; the table lists every one."
        ));
    }
    basis.push(
        "USD sums are exact (integer micro-dollars) and shown rounded down to the cent.".to_owned(),
    );

    Dashboard {
        period,
        route: query.route,
        orders: all.orders,
        by_status: statuses,
        volume_usd: format_usd(all.volume),
        completed: all.completed,
        completed_without_usd,
        by_token,
        earnings_exact_usd: format_usd(all.exact),
        earnings_estimated_usd: format_usd(all.estimated),
        by_route: route_totals,
        rows: table,
        chart,
        basis,
    }
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The CSV's header.
pub const CSV_HEADER: [&str; 16] = [
    "date_utc",
    "bucket",
    "order_id",
    "route",
    "status",
    "source_chain",
    "source_token",
    "source_amount",
    "source_text",
    "source_usd",
    "destination_chain",
    "destination_token",
    "destination_amount",
    "earnings_usd",
    "earnings_kind",
    "known_from",
];

/// One CSV row per order behind the dashboard `query` asks for, newest first, after a header line. Amounts in
/// smallest units; earnings in USD to the micro-dollar (so the column adds up to the dashboard's figures before
/// their rounding to cents) for completed orders, `earnings_kind` `exact`, `estimated` or `none`.
pub fn csv_text(facts: &[OrderFacts], query: &DashboardQuery) -> Result<String, DeskError> {
    let failed = |e: csv::Error| {
        DeskError::new(
            ErrorKind::InvalidInput,
            format!("The CSV could not be written ({e}). Try again; if it persists, report it."),
        )
    };
    let registry = TokenRegistry::builtin();
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(CSV_HEADER).map_err(failed)?;
    for f in selected(facts, query) {
        let earnings = match f.earnings {
            Earnings::Exact(usd) | Earnings::Estimated(usd) => format_usd_micro(usd),
            Earnings::None => String::new(),
        };
        writer
            .write_record([
                utc_text(f.created_at).as_str(),
                &bucket_label(query.period, bucket_start(query.period, f.created_at)),
                &f.order_id,
                RouteKind::key(f.route),
                &f.status,
                &f.src.chain,
                &f.src.token,
                &f.src.amount,
                &amount_text(registry, &f.src.chain, &f.src.token, &f.src.amount),
                f.src.usd.as_deref().unwrap_or(""),
                &f.dst.chain,
                &f.dst.token,
                &f.dst.amount,
                &earnings,
                f.earnings.kind(),
                f.known_from.as_str(),
            ])
            .map_err(failed)?;
    }
    let bytes = writer
        .into_inner()
        .map_err(|e| failed(csv::Error::from(e.into_error())))?;
    Ok(String::from_utf8(bytes).expect("the CSV is written from strings"))
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

// ---------------------------------------------------------------------------------------------------------------
// The Desk's side: the current network's orders.

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
        csv_text(&facts, query)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use gateway_client::ApiVersion;
    use gateway_client::address::BitcoinNetwork;
    use gateway_client::wire::NATIVE_TOKEN;
    use serde_json::{Value, json};

    use super::*;
    use crate::journal::JournalOrder;

    const EVM: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    const EVM_2: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
    const TRON: &str = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7";
    const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
    const USDT_BOB: &str = "0x05D032ac25d322df992303dCa074EE7392C117b9";
    const USDT_ETH: &str = "0xdac17f958d2ee523a2206206994597c13d831ec7";
    const BTC_ADDRESS: &str = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";
    /// 2026-11-21T14:03:05Z.
    const NOV_21: i64 = 1_795_269_785;

    fn entry(address: &str, bps: u32) -> AffiliateEntry {
        AffiliateEntry {
            address: address.into(),
            bps,
        }
    }

    /// A quote exactly as the Sandbox gateway computes it.
    fn sim_quote(version: ApiVersion, pairs: &[(&str, &str)]) -> Value {
        let params: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        gateway_sim::quote::get_quote(
            &gateway_sim::Catalogue::default(),
            &gateway_sim::QuoteSigner::from_key([7; 32]),
            version,
            BitcoinNetwork::Mainnet,
            &params,
            1_700_000_000,
        )
        .unwrap_or_else(|e| panic!("{pairs:?}: {}", e.body()))
    }

    fn onramp(amount: &str, affiliates: &str) -> Value {
        sim_quote(
            ApiVersion::V3,
            &[
                ("srcChain", "bitcoin"),
                ("srcToken", NATIVE_TOKEN),
                ("dstChain", "bob"),
                ("dstToken", WBTC_BOB),
                ("amount", amount),
                ("recipient", EVM),
                ("slippage", "300"),
                ("affiliates", affiliates),
            ],
        )
    }

    fn offramp(amount: &str, affiliates: &str) -> Value {
        sim_quote(
            ApiVersion::V3,
            &[
                ("srcChain", "bob"),
                ("srcToken", WBTC_BOB),
                ("dstChain", "bitcoin"),
                ("dstToken", NATIVE_TOKEN),
                ("amount", amount),
                ("recipient", BTC_ADDRESS),
                ("ownerAddress", EVM),
                ("slippage", "300"),
                ("affiliates", affiliates),
            ],
        )
    }

    fn swap(version: ApiVersion, amount: &str, affiliates: &str) -> Value {
        sim_quote(
            version,
            &[
                ("srcChain", "bob"),
                ("srcToken", USDT_BOB),
                ("dstChain", "ethereum"),
                ("dstToken", USDT_ETH),
                ("amount", amount),
                ("recipient", EVM),
                ("slippage", "100"),
                ("affiliates", affiliates),
            ],
        )
    }

    fn order(id: i64, quote: Value, label: Option<&str>, stage: Stage, at: i64) -> JournalOrder {
        let route = QuoteView::from_value(&quote).unwrap().route();
        JournalOrder {
            local_id: id,
            network: "sandbox".into(),
            api_version: ApiVersion::V3,
            route,
            order_id: (stage != Stage::Quoted).then(|| format!("order-{id}")),
            stage,
            addresses: vec![EVM.into()],
            quote,
            created: None,
            verified: None,
            handed_in: None,
            registration: None,
            status: None,
            status_label: label.map(str::to_owned),
            last_error: None,
            created_at: at,
            updated_at: at,
            wallet_txs: Vec::new(),
        }
    }

    fn done(id: i64, quote: Value, at: i64) -> JournalOrder {
        order(id, quote, Some("success"), Stage::Finished, at)
    }

    fn usd(text: &str) -> u128 {
        parse_usd(text).unwrap()
    }

    fn day() -> DashboardQuery {
        DashboardQuery::default()
    }

    #[test]
    fn affiliate_entries_are_checked_against_the_gateways_limits() {
        let (list, swap) = validate_affiliates(
            &[
                entry(&EVM.to_lowercase(), 50),
                entry(&format!(" {TRON} "), 25),
            ],
            Some(&entry(&EVM_2.to_uppercase().replace("0X", "0x"), 30)),
        )
        .unwrap();
        assert_eq!(
            list,
            vec![entry(EVM, 50), entry(TRON, 25)],
            "canonical forms"
        );
        assert_eq!(swap, Some(entry(EVM_2, 30)));
        assert_eq!(validate_affiliates(&[], None).unwrap(), (vec![], None));

        let index = |e: DeskError| {
            assert_eq!(e.kind, ErrorKind::InvalidInput);
            assert!(e.message.ends_with('.'), "{}", e.message);
            let details = *e.details.unwrap();
            assert_eq!(details["field"], "affiliates", "{details}");
            (details["index"].as_u64().unwrap(), e.message)
        };
        let six: Vec<AffiliateEntry> = (1..=6u8)
            .map(|i| entry(&format!("0x{}", format!("{i:02x}").repeat(20)), 10))
            .collect();
        let (i, message) = index(validate_affiliates(&six, None).unwrap_err());
        assert_eq!(i, 5);
        assert!(message.contains("at most 5"), "{message}");
        assert!(validate_affiliates(&six[..5], None).is_ok());

        let (i, message) =
            index(validate_affiliates(&[entry(EVM, 600), entry(TRON, 401)], None).unwrap_err());
        assert_eq!(i, 1);
        assert!(message.contains("1001 bps"), "{message}");
        assert!(validate_affiliates(&[entry(EVM, 600), entry(TRON, 400)], None).is_ok());

        let (i, message) = index(
            validate_affiliates(
                &[
                    entry(EVM, 10),
                    entry(TRON, 10),
                    entry(&EVM.to_lowercase(), 5),
                ],
                None,
            )
            .unwrap_err(),
        );
        assert_eq!(i, 2, "an EVM address is the same without case");
        assert!(message.contains("entry 1"), "{message}");

        let (i, _) =
            index(validate_affiliates(&[entry(EVM, 10), entry(BTC_ADDRESS, 5)], None).unwrap_err());
        assert_eq!(i, 1, "a Bitcoin address cannot be paid an affiliate fee");
        let (i, _) = index(validate_affiliates(&[entry("0x1234", 5)], None).unwrap_err());
        assert_eq!(i, 0);
        let (i, message) = index(validate_affiliates(&[entry(EVM, 0)], None).unwrap_err());
        assert_eq!(i, 0);
        assert!(message.contains("0 bps"), "{message}");

        for bad in [entry(EVM, 1001), entry(EVM, 0), entry("nonsense", 10)] {
            let e = validate_affiliates(&[], Some(&bad)).unwrap_err();
            assert_eq!(
                e.details.as_deref(),
                Some(&json!({"field": "tokenSwapAffiliate"})),
                "{bad:?}"
            );
        }
        assert!(validate_affiliates(&[], Some(&entry(EVM, 1000))).is_ok());
    }

    #[test]
    fn quotes_carry_the_entries_their_route_and_version_take() {
        let mut settings = Settings::default();
        let kind = NetworkKind::Sandbox;
        let for_ = |s: &Settings, v, src, dst| affiliates_for(s, kind, v, src, dst);
        assert_eq!(
            for_(&settings, ApiVersion::V1, "bitcoin", "bob"),
            AppliedAffiliates::default(),
            "nothing configured: nothing to say"
        );
        settings.prefs_mut(kind).affiliates = vec![entry(EVM, 50), entry(TRON, 25)];
        let onramp = for_(&settings, ApiVersion::V3, "bitcoin", "bob");
        assert_eq!(onramp.entries.len(), 2);
        assert_eq!(onramp.note, None);
        assert_eq!(
            for_(&settings, ApiVersion::V2, "bob", "bitcoin")
                .entries
                .len(),
            2
        );

        let v1 = for_(&settings, ApiVersion::V1, "bitcoin", "bob");
        assert!(v1.entries.is_empty());
        assert!(v1.note.unwrap().contains("V1"));

        let swap = for_(&settings, ApiVersion::V3, "bob", "ethereum");
        assert!(swap.entries.is_empty());
        assert!(swap.note.unwrap().contains("none is set"));

        settings.prefs_mut(kind).token_swap_affiliate = Some(entry(EVM_2, 30));
        let swap = for_(&settings, ApiVersion::V3, "bob", "ethereum");
        assert_eq!((swap.entries, swap.note), (vec![entry(EVM_2, 30)], None));
        let v2 = for_(&settings, ApiVersion::V2, "bob", "ethereum");
        assert!(v2.entries.is_empty());
        assert!(
            v2.note
                .unwrap()
                .contains("V2 token swaps take no affiliate fee")
        );
        let from_tron = for_(&settings, ApiVersion::V3, "tron", "bob");
        assert!(from_tron.entries.is_empty());
        assert!(from_tron.note.unwrap().contains("not an address of tron"));

        let rates = AffiliateRates::of(&settings, kind, ApiVersion::V3);
        assert_eq!(rates.for_route(RouteKind::Onramp), Some(75));
        assert_eq!(rates.for_route(RouteKind::TokenSwap), Some(30));
        let v2 = AffiliateRates::of(&settings, kind, ApiVersion::V2);
        assert_eq!((v2.list_bps, v2.token_swap_bps), (Some(75), None));
        assert_eq!(
            AffiliateRates::of(&settings, kind, ApiVersion::V1),
            AffiliateRates::default()
        );
    }

    #[test]
    fn buckets_follow_the_calendar_in_utc_with_iso_weeks() {
        let at = |y, m, d, secs: i64| days_from_civil(y, m, d) * DAY_SECS + secs;
        let label = |p, t| bucket_label(p, bucket_start(p, t));
        let last_second = at(2026, 12, 31, DAY_SECS - 1);
        assert_eq!(last_second, 1_798_761_599);
        assert_eq!(label(Period::Day, last_second), "2026-12-31");
        assert_eq!(label(Period::Week, last_second), "2026-W53");
        assert_eq!(label(Period::Month, last_second), "2026-12");
        let new_year = last_second + 1;
        assert_eq!(label(Period::Day, new_year), "2027-01-01");
        assert_eq!(
            label(Period::Week, new_year),
            "2026-W53",
            "Friday of 2026's last week"
        );
        assert_eq!(label(Period::Month, new_year), "2027-01");
        assert_eq!(label(Period::Week, at(2027, 1, 3, 86_399)), "2026-W53");
        assert_eq!(label(Period::Week, at(2027, 1, 4, 0)), "2027-W01");
        assert_eq!(label(Period::Week, at(2024, 12, 30, 0)), "2025-W01");
        assert_eq!(label(Period::Week, at(2021, 1, 3, 0)), "2020-W53");
        assert_eq!(label(Period::Week, NOV_21), "2026-W47");
        assert_eq!(
            bucket_start(Period::Week, new_year),
            at(2026, 12, 28, 0),
            "weeks start on Monday 00:00 UTC"
        );
        assert_eq!(label(Period::Month, at(2026, 1, 31, 86_399)), "2026-01");
        assert_eq!(label(Period::Month, at(2026, 2, 1, 0)), "2026-02");
        assert_eq!(label(Period::Month, at(2024, 2, 29, 100)), "2024-02");
        assert_eq!(
            next_bucket(Period::Month, at(2026, 12, 1, 0)),
            at(2027, 1, 1, 0)
        );
        assert_eq!(
            next_bucket(Period::Week, at(2026, 12, 28, 0)),
            at(2027, 1, 4, 0)
        );
        assert_eq!(utc_text(NOV_21), "2026-11-21T14:03:05Z");
    }

    #[test]
    fn sums_are_exact_and_exact_earnings_are_kept_apart_from_estimates() {
        let onramp_1 = onramp("100000", &format!("{EVM}:50,{TRON}:25"));
        let onramp_2 = onramp("250000", &format!("{EVM}:50,{TRON}:25"));
        let off = offramp("100000", &format!("{EVM}:100"));
        let swap_1 = swap(ApiVersion::V3, "50000000", &format!("{EVM}:30"));
        let small = swap(ApiVersion::V3, "33330000", &format!("{EVM}:2"));
        // The quotes' own figures.
        assert_eq!(onramp_1["onramp"]["affiliates"][0]["fee"]["usd"], "0.50");
        assert_eq!(onramp_1["onramp"]["affiliates"][1]["fee"]["usd"], "0.25");
        assert_eq!(onramp_2["onramp"]["inputAmount"]["usd"], "250.00");
        assert_eq!(onramp_2["onramp"]["affiliates"][1]["fee"]["usd"], "0.62");
        assert_eq!(off["offramp"]["affiliates"][0]["fee"]["usd"], "1.00");
        assert_eq!(swap_1["tokenSwap"]["affiliate"]["bps"], 30);
        assert_eq!(small["tokenSwap"]["inputAmount"]["usd"], "33.33");

        let journal = [
            done(1, onramp_1.clone(), NOV_21),
            done(2, onramp_2, NOV_21 + 60),
            done(3, off, NOV_21 + 120),
            done(4, swap_1, NOV_21 + 180),
            done(5, small.clone(), NOV_21 + 240),
            done(6, small.clone(), NOV_21 + 300),
            done(7, small.clone(), NOV_21 + 360),
            order(
                8,
                onramp("100404", ""),
                Some("failed"),
                Stage::Finished,
                NOV_21,
            ),
            order(
                9,
                onramp_1.clone(),
                Some("inProgress"),
                Stage::Verified,
                NOV_21,
            ),
            order(
                10,
                onramp_1.clone(),
                Some("inProgress"),
                Stage::Registered,
                NOV_21,
            ),
            order(11, onramp_1.clone(), None, Stage::Quoted, NOV_21),
            done(12, onramp("300000", ""), NOV_21),
        ];
        let facts: Vec<OrderFacts> = journal.iter().filter_map(facts_from_journal).collect();
        assert_eq!(facts.len(), 11, "the quote never sent is not an order");
        assert_eq!(facts[0].earnings, Earnings::Exact(usd("0.75")));
        assert_eq!(facts[3].earnings, Earnings::Estimated(usd("0.15")));
        assert_eq!(facts[4].earnings, Earnings::Estimated(6_666));
        assert_eq!(
            facts[8].status, "verified",
            "the gateway waits for the signature"
        );
        assert_eq!(facts[9].status, "inProgress");
        assert_eq!(
            facts[10].earnings,
            Earnings::None,
            "no affiliate on the quote"
        );

        let d = build(&facts, &day());
        assert_eq!((d.orders, d.completed, d.completed_without_usd), (11, 8, 0));
        let status: Vec<(&str, u64)> = d
            .by_status
            .iter()
            .map(|s| (s.status.as_str(), s.count))
            .collect();
        assert_eq!(
            status,
            [
                ("inProgress", 1),
                ("success", 8),
                ("failed", 1),
                ("verified", 1)
            ]
        );
        assert_eq!(d.by_status[1].text, "Completed");
        // 100 + 250 + 100 + 50 + 3 × 33.33 + 300.
        assert_eq!(d.volume_usd, "899.99");
        // 0.50 + 0.25 (100000 sats), 1.25 + 0.62 (250000 sats: 625 sats are $0.625, written "0.62"), 1.00.
        assert_eq!(d.earnings_exact_usd, "3.62");
        // 0.15 + 3 × 0.006666 = 0.169998: three sub-cent estimates still add up to a cent.
        assert_eq!(d.earnings_estimated_usd, "0.16");
        let btc = d
            .by_token
            .iter()
            .find(|t| t.token.chain == "bitcoin")
            .unwrap();
        assert_eq!(
            (
                btc.amount.as_str(),
                btc.text.as_str(),
                btc.usd.as_deref(),
                btc.orders
            ),
            ("650000", "0.0065 BTC", Some("650.00"), 3)
        );
        let usdt = d
            .by_token
            .iter()
            .find(|t| t.token.symbol.as_deref() == Some("USDT"))
            .unwrap();
        assert_eq!((usdt.amount.as_str(), usdt.orders), ("149990000", 4));
        assert_eq!(
            d.by_token[0].token.chain, "bitcoin",
            "largest USD volume first"
        );
        let routes: Vec<(RouteKind, u64, &str, &str)> = d
            .by_route
            .iter()
            .map(|r| {
                (
                    r.route,
                    r.orders,
                    r.earnings_exact_usd.as_str(),
                    r.earnings_estimated_usd.as_str(),
                )
            })
            .collect();
        assert_eq!(
            routes,
            [
                (RouteKind::Onramp, 6, "2.62", "0.00"),
                (RouteKind::Offramp, 1, "1.00", "0.00"),
                (RouteKind::TokenSwap, 4, "0.00", "0.16"),
            ]
        );
        assert!(
            d.basis
                .iter()
                .any(|b| b.starts_with("Exact earnings (3 orders)")),
            "{:?}",
            d.basis
        );
        assert!(
            d.basis
                .iter()
                .any(|b| b.starts_with("Estimated earnings (4 orders)"))
        );
    }

    #[test]
    fn a_resolved_fee_without_a_usd_value_is_estimated_from_its_share_of_the_input() {
        let mut quote = onramp("100000", &format!("{EVM}:50,{TRON}:25"));
        quote["onramp"]["affiliates"][0]["fee"]
            .as_object_mut()
            .unwrap()
            .remove("usd");
        let f = facts_from_journal(&done(1, quote.clone(), NOV_21)).unwrap();
        // 500 of 100000 sats worth $100.00: $0.50, plus the $0.25 the gateway valued.
        assert_eq!(f.earnings, Earnings::Estimated(usd("0.75")));
        quote["onramp"]["inputAmount"]
            .as_object_mut()
            .unwrap()
            .remove("usd");
        let f = facts_from_journal(&done(1, quote, NOV_21)).unwrap();
        assert_eq!((f.earnings, f.src_usd_micro), (Earnings::None, None));
        let d = build(&[f], &day());
        assert_eq!((d.completed, d.completed_without_usd), (1, 1));
        assert_eq!(d.by_token[0].usd, None);
        assert_eq!(d.by_token[0].amount, "100000");
    }

    #[test]
    fn watched_orders_are_estimated_with_the_bps_configured_now() {
        let info: OrderInfo = serde_json::from_value(json!({
            "id": "w-1", "timestamp": NOV_21,
            "srcInfo": {"chain": "bob", "token": USDT_BOB, "amount": "20000000", "usd": "20.00"},
            "dstInfo": {"chain": "ethereum", "token": USDT_ETH, "amount": "19900000", "usd": "19.90"},
            "status": {"success": {"received_tokens": []}}
        }))
        .unwrap();
        let raw = serde_json::to_value(&info).unwrap();
        let view = OrderView::from_gateway("sandbox", &info, &raw, RouteKind::TokenSwap);
        let rates = AffiliateRates {
            list_bps: Some(75),
            token_swap_bps: Some(30),
        };
        let f = facts_from_view(&view, &rates).unwrap();
        assert_eq!(f.known_from, KnownFrom::Watched);
        assert_eq!(f.earnings, Earnings::Estimated(usd("0.06")));
        let none = facts_from_view(&view, &AffiliateRates::default()).unwrap();
        assert_eq!(
            none.earnings,
            Earnings::None,
            "no affiliates configured: no estimate"
        );
        let d = build(&[f], &day());
        assert_eq!(
            (
                d.earnings_exact_usd.as_str(),
                d.earnings_estimated_usd.as_str()
            ),
            ("0.00", "0.06")
        );
        assert!(
            d.basis[0].contains("1 of watched addresses"),
            "{}",
            d.basis[0]
        );
    }

    fn fact(
        id: &str,
        route: RouteKind,
        status: &str,
        at: i64,
        usd_text: Option<&str>,
    ) -> OrderFacts {
        OrderFacts {
            known_from: KnownFrom::Journal,
            local_id: None,
            order_id: id.into(),
            route,
            status: status.into(),
            created_at: at,
            src: Side {
                chain: "ethereum".into(),
                token: "0x1111111111111111111111111111111111111111".into(),
                amount: "900000000000000000000000000000000000".into(),
                usd: usd_text.map(str::to_owned),
            },
            dst: Side::unknown(),
            src_usd_micro: usd_text.and_then(parse_usd),
            earnings: if status == "success" {
                Earnings::Estimated(1)
            } else {
                Earnings::None
            },
        }
    }

    #[test]
    fn an_order_dated_at_the_end_of_time_keeps_the_calendar_and_the_chart_bounded() {
        let facts = vec![
            fact(
                "a",
                RouteKind::Onramp,
                "success",
                days_from_civil(2026, 12, 30) * DAY_SECS,
                Some("10.00"),
            ),
            fact("z", RouteKind::Onramp, "success", i64::MAX, Some("1.00")),
            fact("y", RouteKind::Onramp, "success", i64::MIN, Some("1.00")),
        ];
        for period in [Period::Day, Period::Week, Period::Month] {
            let dashboard = build(
                &facts,
                &DashboardQuery {
                    period,
                    route: None,
                },
            );
            assert!(dashboard.chart.len() <= MAX_CHART_BARS, "{period:?}");
            assert_eq!(dashboard.rows.iter().map(|r| r.orders).sum::<u64>(), 3);
            assert!(
                dashboard.rows.iter().any(|r| r.bucket.starts_with("9999")),
                "{period:?}: {:?}",
                dashboard.rows.iter().map(|r| &r.bucket).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn buckets_rows_and_chart_follow_the_period_and_the_route_filter() {
        let at = |y, m, d| days_from_civil(y, m, d) * DAY_SECS + 3_600;
        let facts = vec![
            fact(
                "a",
                RouteKind::Onramp,
                "success",
                at(2026, 12, 30),
                Some("10.00"),
            ),
            fact(
                "b",
                RouteKind::TokenSwap,
                "success",
                at(2027, 1, 2),
                Some("5.00"),
            ),
            fact(
                "c",
                RouteKind::Onramp,
                "failed",
                at(2027, 1, 4),
                Some("7.00"),
            ),
            fact("d", RouteKind::Offramp, "success", at(2027, 1, 20), None),
            fact(
                "e",
                RouteKind::Onramp,
                "success",
                at(2027, 1, 20),
                Some("1.00"),
            ),
        ];
        let week = build(
            &facts,
            &DashboardQuery {
                period: Period::Week,
                route: None,
            },
        );
        let rows: Vec<(&str, RouteKind, u64, &str)> = week
            .rows
            .iter()
            .map(|r| (r.bucket.as_str(), r.route, r.orders, r.volume_usd.as_str()))
            .collect();
        assert_eq!(
            rows,
            [
                ("2027-W03", RouteKind::Onramp, 1, "1.00"),
                ("2027-W03", RouteKind::Offramp, 1, "0.00"),
                ("2027-W01", RouteKind::Onramp, 1, "0.00"),
                ("2026-W53", RouteKind::Onramp, 1, "10.00"),
                ("2026-W53", RouteKind::TokenSwap, 1, "5.00"),
            ],
            "newest first; within a bucket onramp, offramp, token swap"
        );
        let chart: Vec<(&str, &str)> = week
            .chart
            .iter()
            .map(|b| (b.bucket.as_str(), b.volume_usd.as_str()))
            .collect();
        assert_eq!(
            chart,
            [
                ("2026-W53", "15.00"),
                ("2027-W01", "0.00"),
                ("2027-W02", "0.00"),
                ("2027-W03", "1.00")
            ],
            "oldest first, empty weeks included"
        );
        assert_eq!(week.completed_without_usd, 1);
        assert!(
            week.basis
                .iter()
                .any(|b| b.starts_with("1 completed order without a USD value"))
        );
        let big = week.by_token[0].amount.clone();
        assert_eq!(
            big, "3600000000000000000000000000000000000",
            "beyond u64 and f64, exact"
        );

        let month = build(
            &facts,
            &DashboardQuery {
                period: Period::Month,
                route: Some(RouteKind::Onramp),
            },
        );
        assert_eq!(month.orders, 3);
        assert!(month.rows.iter().all(|r| r.route == RouteKind::Onramp));
        let chart: Vec<&str> = month.chart.iter().map(|b| b.bucket.as_str()).collect();
        assert_eq!(chart, ["2026-12", "2027-01"]);
        assert_eq!(month.by_route.len(), 1);
        assert!(
            month
                .basis
                .iter()
                .any(|b| b == "Only onramp orders are shown.")
        );

        let empty = build(&[], &day());
        assert_eq!(
            (empty.orders, empty.rows.len(), empty.chart.len()),
            (0, 0, 0)
        );
        assert_eq!(empty.volume_usd, "0.00");

        // Years of daily buckets: the chart keeps the newest, the table every one.
        let spread = vec![
            fact(
                "old",
                RouteKind::Onramp,
                "success",
                at(2020, 1, 1),
                Some("1.00"),
            ),
            fact(
                "new",
                RouteKind::Onramp,
                "success",
                at(2026, 1, 1),
                Some("2.00"),
            ),
        ];
        let d = build(&spread, &day());
        assert_eq!(d.chart.len(), MAX_CHART_BARS);
        assert_eq!(d.chart.last().unwrap().bucket, "2026-01-01");
        assert_eq!(d.rows.len(), 2);
        assert!(d.basis.iter().any(|b| b.contains("latest 400 periods")));
    }

    #[test]
    fn the_csv_has_one_quoted_row_per_order_behind_the_dashboard() {
        let mut odd = fact(
            "id, with \"quotes\"",
            RouteKind::TokenSwap,
            "success",
            NOV_21,
            Some("5.00"),
        );
        odd.src.chain = "bob".into();
        odd.src.token = USDT_BOB.into();
        odd.src.amount = "5000000".into();
        let facts = vec![
            fact(
                "first",
                RouteKind::Onramp,
                "failed",
                NOV_21 - 10,
                Some("1.00"),
            ),
            odd,
        ];
        let all = csv_text(&facts, &day()).unwrap();
        assert!(all.contains("\"id, with \"\"quotes\"\"\""), "{all}");
        let mut reader = csv::Reader::from_reader(all.as_bytes());
        assert_eq!(
            reader.headers().unwrap().iter().collect::<Vec<_>>(),
            CSV_HEADER
        );
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 2);
        let field = |row: &csv::StringRecord, name: &str| {
            row[CSV_HEADER.iter().position(|h| *h == name).unwrap()].to_owned()
        };
        assert_eq!(
            field(&rows[0], "order_id"),
            "id, with \"quotes\"",
            "newest first"
        );
        assert_eq!(field(&rows[0], "date_utc"), "2026-11-21T14:03:05Z");
        assert_eq!(field(&rows[0], "bucket"), "2026-11-21");
        assert_eq!(field(&rows[0], "route"), "tokenSwap");
        assert_eq!(field(&rows[0], "source_text"), "5 USDT");
        assert_eq!(field(&rows[0], "source_usd"), "5.00");
        assert_eq!(field(&rows[0], "earnings_usd"), "0.000001");
        assert_eq!(field(&rows[0], "earnings_kind"), "estimated");
        assert_eq!(field(&rows[0], "known_from"), "journal");
        assert_eq!(field(&rows[1], "status"), "failed");
        assert_eq!(
            (
                field(&rows[1], "earnings_usd"),
                field(&rows[1], "earnings_kind")
            ),
            (String::new(), "none".into())
        );

        let swaps = csv_text(
            &facts,
            &DashboardQuery {
                period: Period::Month,
                route: Some(RouteKind::TokenSwap),
            },
        )
        .unwrap();
        assert_eq!(swaps.lines().count(), 2, "{swaps}");
        assert!(swaps.lines().nth(1).unwrap().contains(",2026-11,"));
    }

    #[test]
    fn the_query_reads_as_the_window_sends_it() {
        let q: DashboardQuery =
            serde_json::from_value(json!({"period": "week", "route": "tokenSwap"})).unwrap();
        assert_eq!(
            (q.period, q.route),
            (Period::Week, Some(RouteKind::TokenSwap))
        );
        let q: DashboardQuery =
            serde_json::from_value(json!({"period": "month", "route": null})).unwrap();
        assert_eq!((q.period, q.route), (Period::Month, None));
        let q: DashboardQuery = serde_json::from_value(json!({"period": "day"})).unwrap();
        assert_eq!(q.route, None);
        assert!(serde_json::from_value::<DashboardQuery>(json!({"period": "year"})).is_err());
        let d = serde_json::to_value(build(&[], &q)).unwrap();
        assert_eq!(d["period"], "day");
        assert!(d.get("route").is_none());
        assert_eq!(d["earningsEstimatedUsd"], "0.00");
    }
}
