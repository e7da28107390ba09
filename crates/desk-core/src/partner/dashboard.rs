//! Building the dashboard: rows per bucket and route, the chart, totals and what they are based on.

use std::collections::{BTreeMap, HashMap, VecDeque};

use alloy_primitives::U256;
use gateway_client::TokenRegistry;
use gateway_client::display::amount_text;

use super::*;
use crate::calendar::DAY_SECS;
use crate::views::token_view;

// ---------------------------------------------------------------------------------------------------------------
// Building the dashboard.

#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Totals {
    orders: u64,
    completed: u64,
    volume: u128,
    exact: u128,
    estimated: u128,
    /// Whether a USD sum reached `u128::MAX` micro-dollars and stopped there ([`add_capped`]).
    capped: bool,
}

/// Adds `value` to `sum`, stopping at the largest value the type holds instead of wrapping (release) or panicking
/// (debug); `capped` is set when it stops, so that the dashboard can say the total is less than the true sum.
fn add_capped<T: CappedSum>(sum: &mut T, value: T, capped: &mut bool) {
    match sum.checked(value) {
        Some(total) => *sum = total,
        None => {
            *sum = T::MAX;
            *capped = true;
        }
    }
}

/// The sums the dashboard caps: USD micro-dollars and token smallest units.
trait CappedSum: Sized + Copy {
    const MAX: Self;
    fn checked(self, other: Self) -> Option<Self>;
}

impl CappedSum for u128 {
    const MAX: Self = u128::MAX;
    fn checked(self, other: Self) -> Option<Self> {
        self.checked_add(other)
    }
}

impl CappedSum for U256 {
    const MAX: Self = U256::MAX;
    fn checked(self, other: Self) -> Option<Self> {
        self.checked_add(other)
    }
}

impl Totals {
    pub(crate) fn add(&mut self, facts: &OrderFacts) {
        self.orders += 1;
        if !facts.completed() {
            return;
        }
        self.completed += 1;
        // Capped: a gateway's absurd USD value must not wrap (release) or panic (debug), and the dashboard says so.
        let capped = &mut self.capped;
        add_capped(&mut self.volume, facts.src_usd_micro.unwrap_or(0), capped);
        match facts.earnings {
            Earnings::Exact(usd) => add_capped(&mut self.exact, usd, capped),
            Earnings::Estimated(usd) => add_capped(&mut self.estimated, usd, capped),
            Earnings::None => {}
        }
    }

    /// Adds another set of totals' USD sums (one bucket's routes into the chart's bar).
    fn add_sums(&mut self, other: &Totals) {
        let capped = &mut self.capped;
        add_capped(&mut self.volume, other.volume, capped);
        add_capped(&mut self.exact, other.exact, capped);
        add_capped(&mut self.estimated, other.estimated, capped);
        self.capped |= other.capped;
    }
}

pub(crate) struct TokenTotals {
    chain: String,
    token: String,
    amount: U256,
    usd: Option<u128>,
    orders: u64,
    capped: bool,
}

/// The chart shows at most this many buckets (the newest); the table lists every one.
pub const MAX_CHART_BARS: usize = 400;

/// The orders `query` selects, in the order the CSV lists them (newest first).
pub(crate) fn selected<'a>(facts: &'a [OrderFacts], query: &DashboardQuery) -> Vec<&'a OrderFacts> {
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
                capped: false,
            });
        let amount = f.src.amount.parse::<U256>().unwrap_or(U256::ZERO);
        add_capped(&mut entry.amount, amount, &mut entry.capped);
        entry.usd = match (entry.usd, f.src_usd_micro) {
            (Some(mut sum), Some(usd)) => {
                add_capped(&mut sum, usd, &mut entry.capped);
                Some(sum)
            }
            _ => None,
        };
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
                capped: t.capped,
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
        per_bucket.entry(start).or_default().add_sums(t);
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
    let capped = capped_notice(
        &all,
        &by_route,
        rows.values().chain(per_bucket.values()),
        &by_token,
    );
    if let Some(notice) = &capped {
        basis.push(notice.clone());
    }

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
        capped,
    }
}

/// The sentence saying which totals stopped at the largest sum the app counts, if any did. Only a gateway's absurd
/// values get there: the largest is about 3.4 × 10³² dollars.
fn capped_notice<'a>(
    all: &Totals,
    by_route: &[Totals],
    periods: impl Iterator<Item = &'a Totals>,
    by_token: &[TokenVolume],
) -> Option<String> {
    let mut which: Vec<String> = Vec::new();
    if all.capped {
        which.push("the overall volume and earnings".into());
    }
    if by_route.iter().any(|t| t.capped) {
        which.push("the totals per route".into());
    }
    if periods.into_iter().any(|t| t.capped) {
        which.push("the rows and chart bars of some periods".into());
    }
    let tokens: Vec<String> = by_token
        .iter()
        .filter(|t| t.capped)
        .map(|t| {
            let symbol = t.token.symbol.as_deref().unwrap_or(&t.token.address);
            format!(
                "{} on {}",
                gateway_client::display::clipped(symbol),
                t.token.chain
            )
        })
        .collect();
    if !tokens.is_empty() {
        which.push(format!("the volume of {}", tokens.join(", ")));
    }
    if which.is_empty() {
        return None;
    }
    Some(format!(
        "Some totals reached the largest sum the app can count ({}) and stopped there, so they are less than the \
         gateway's figures add up to: {}. No real orders are worth this much: the gateway sent impossible values; \
         look the orders up in Support.",
        crate::usd::Usd::from_micros(u128::MAX).grouped_text(),
        which.join("; ")
    ))
}

pub(crate) fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
