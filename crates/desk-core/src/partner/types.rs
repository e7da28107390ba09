//! The dashboard's types (the window's TypeScript twins are generated).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::api::{RouteKind, TokenView};

// ---------------------------------------------------------------------------------------------------------------
// The dashboard's types (the window's TypeScript twins are generated).

/// How the dashboard groups orders in time (UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export_to = "Period.ts")]
pub enum Period {
    /// UTC days, midnight to midnight (`2026-11-21`).
    #[default]
    Day,
    /// ISO 8601 weeks, Monday to Sunday (`2026-W53`).
    Week,
    /// UTC calendar months (`2026-11`).
    Month,
}

/// What the dashboard shows: the grouping, and one route kind or all.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "DashboardQuery.ts")]
pub struct DashboardQuery {
    /// How the orders are grouped into the table's rows and the chart's bars.
    pub period: Period,
    /// Only orders of this route kind; every kind when absent.
    #[serde(
        default,
        deserialize_with = "route_from_wire",
        skip_serializing_if = "Option::is_none"
    )]
    #[ts(optional)]
    pub route: Option<RouteKind>,
}

/// Reads `"onramp" | "offramp" | "tokenSwap"` (or null) with the gateway's own reading of route kinds.
pub(crate) fn route_from_wire<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<RouteKind>, D::Error> {
    Option::<RouteKind>::deserialize(deserializer)
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
    /// The status in words, for a person ("Waiting for your signature").
    pub text: String,
    /// How many of the selected orders have this status.
    #[ts(type = "number")]
    pub count: u64,
}

/// The volume of one input token over the completed orders.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "TokenVolume.ts")]
pub struct TokenVolume {
    /// The input token: its chain and address, with its symbol and decimals when the app knows it.
    pub token: TokenView,
    /// Smallest units, summed exactly.
    pub amount: String,
    /// The same for a person: `0.0125 BTC`.
    pub text: String,
    /// The USD total, when every one of these orders had a USD value.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub usd: Option<String>,
    /// How many completed orders sent this token.
    #[ts(type = "number")]
    pub orders: u64,
    /// Whether the amount or the USD total reached the largest sum the app counts and stopped there (only a
    /// gateway's impossible values get there): the true sum is larger.
    pub capped: bool,
}

/// The totals of one route kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "RouteTotals.ts")]
pub struct RouteTotals {
    /// The route kind these totals cover (onramp, offramp or token swap).
    pub route: RouteKind,
    /// Orders of this kind the gateway has, whatever their status.
    #[ts(type = "number")]
    pub orders: u64,
    /// How many of them completed; only these count towards volume and earnings.
    #[ts(type = "number")]
    pub completed: u64,
    /// The USD input volume of the completed ones.
    pub volume_usd: String,
    /// Their affiliate earnings in USD from the fee values the gateway resolved on the accepted quotes.
    pub earnings_exact_usd: String,
    /// Their affiliate earnings in USD estimated as bps × the USD input, where the gateway resolved no fee value.
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
    /// The route kind of this line; a bucket has one line for each kind with orders in it.
    pub route: RouteKind,
    /// Orders of this kind made in the bucket, whatever their status.
    #[ts(type = "number")]
    pub orders: u64,
    /// How many of them completed; only these count towards volume and earnings.
    #[ts(type = "number")]
    pub completed: u64,
    /// The USD input volume of the completed ones.
    pub volume_usd: String,
    /// Their affiliate earnings in USD from the fee values the gateway resolved on the accepted quotes.
    pub earnings_exact_usd: String,
    /// Their affiliate earnings in USD estimated as bps × the USD input, where the gateway resolved no fee value.
    pub earnings_estimated_usd: String,
}

/// One bar of the chart: a bucket of time (every bucket between the first and the last, empty ones too).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "ChartBar.ts")]
pub struct ChartBar {
    /// The bucket's label: `2026-11-21`, `2026-W47` (ISO week) or `2026-11`.
    pub bucket: String,
    /// The bucket's first second (unix, UTC), which places the bar in time.
    #[ts(type = "number")]
    pub start: i64,
    /// The USD input volume of the bucket's completed orders, the selected route kinds together.
    pub volume_usd: String,
    /// Their affiliate earnings in USD from the fee values the gateway resolved on the accepted quotes.
    pub earnings_exact_usd: String,
    /// Their affiliate earnings in USD estimated as bps × the USD input, where the gateway resolved no fee value.
    pub earnings_estimated_usd: String,
}

/// The partner dashboard over the orders the app knows on the current network. USD values have 2 decimals,
/// rounded down from exact sums.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "Dashboard.ts")]
pub struct Dashboard {
    /// The grouping the table and the chart use, as the query asked.
    pub period: Period,
    /// The one route kind shown, as the query asked; absent when every kind is.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub route: Option<RouteKind>,
    /// Orders the gateway has (with an order id).
    #[ts(type = "number")]
    pub orders: u64,
    /// How many orders have each status: the gateway's statuses first, then the app's own stages in flow order.
    pub by_status: Vec<StatusCount>,
    /// The USD input volume of the completed orders.
    pub volume_usd: String,
    /// How many of the orders completed; volume and earnings count only these.
    #[ts(type = "number")]
    pub completed: u64,
    /// Completed orders without a USD value (left out of the USD figures).
    #[ts(type = "number")]
    pub completed_without_usd: u64,
    /// The input volume of the completed orders per token, the largest USD volume first.
    pub by_token: Vec<TokenVolume>,
    /// Affiliate earnings in USD from the fee values the gateway resolved on the accepted quotes (onramps and
    /// offramps).
    pub earnings_exact_usd: String,
    /// Affiliate earnings in USD estimated as bps × the USD input, rounded down: for V3 token swaps the bps on the
    /// accepted quote, for watched addresses' orders the bps configured now for their route kind.
    pub earnings_estimated_usd: String,
    /// The totals per route kind (onramp, offramp, token swap); kinds without orders are left out.
    pub by_route: Vec<RouteTotals>,
    /// Newest bucket first; within a bucket onramp, offramp, token swap.
    pub rows: Vec<DashboardRow>,
    /// Oldest bucket first.
    pub chart: Vec<ChartBar>,
    /// Sentences saying what is counted and how the estimates are made.
    pub basis: Vec<String>,
    /// When a total reached the largest sum the app counts and stopped there: which ones, in a sentence (also the
    /// last of `basis`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub capped: Option<String>,
}
