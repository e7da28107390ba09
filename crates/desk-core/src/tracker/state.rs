//! What the tracker knows and when it reads next: watched addresses, tracked orders, the last answer seen for each
//! order, and a due time per resource. Pure bookkeeping with no I/O, so the schedule is tested with made-up clocks.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Duration, Instant, SystemTime};

use gateway_client::ClientError;
use gateway_client::wire::{OrderInfo, OrderStatus};
use serde_json::Value;

use super::{Timing, TrackedOrder, TrackerEvent, Via, schedule};

/// One read the tracker makes next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Job {
    /// Every page of get-orders for the watched address with this key.
    Address(String),
    /// get-order for one tracked order.
    Order(String),
}

/// What the tracker does next.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Next {
    Read(Job),
    /// Nothing is due: wait for a command, or until this time.
    Sleep(Option<Instant>),
}

/// The result of a [`Job`]. (One exists at a time; boxing the single order would buy nothing.)
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub(crate) enum Outcome {
    /// The orders of every page read, each with its raw JSON; `Err` when a page failed (the pages before it count).
    Listing {
        orders: Vec<(OrderInfo, Value)>,
        end: Result<(), ClientError>,
    },
    Order(Result<(OrderInfo, Value), ClientError>),
}

#[derive(Debug)]
struct AddressState {
    /// As the caller wrote it: what is sent to the gateway and shown in events.
    address: String,
    due: Instant,
    /// The interval while orders are moving: `normal`, doubled by each unchanged read up to `slow_max`.
    calm: Duration,
    failures: u32,
    /// The order ids of the last listing; these orders are "covered" and never read one by one.
    listed: HashSet<String>,
    /// The size of the last complete listing.
    listed_count: Option<usize>,
}

#[derive(Debug)]
struct OrderState {
    /// Normalized keys of the addresses the gateway lists the order under.
    addresses: Vec<String>,
    registered_at: Option<SystemTime>,
    /// Fast reads until then, unless the gateway shows the registration (a change of the order) first.
    fast_until: Option<Instant>,
    terminal: bool,
    /// An offramp's success is final only after [`Timing::settle`]: until then it is read on (its payout may be
    /// evicted from the mempool and the order go back to in progress).
    settle_until: Option<Instant>,
    /// When to read it with get-order, if no watched address covers it by then.
    due: Instant,
    calm: Duration,
    failures: u32,
    /// A listing of one of its addresses was read for it; if that did not cover it, it is read directly.
    listing_tried: bool,
    /// When the quote expects it to end, as the tracker's clock has it.
    expected: Option<Expecting>,
}

/// An order's expected ending on the tracker's clock: its age when it was tracked, and the estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Expecting {
    /// When the age was taken.
    at: Instant,
    /// How long after its start the order was then.
    age_then: Duration,
    estimate: Duration,
}

impl Expecting {
    fn of(expected: super::Expected, now: Instant) -> Self {
        Self {
            at: now,
            age_then: SystemTime::now()
                .duration_since(expected.since)
                .unwrap_or_default(),
            estimate: expected.estimate,
        }
    }

    fn age(&self, now: Instant) -> Duration {
        self.age_then
            .saturating_add(now.saturating_duration_since(self.at))
    }
}

/// A pause of every read: after a transient failure, or as long as a 429 asked.
#[derive(Debug, Clone, Copy)]
struct Pause {
    until: Instant,
    rate_limited: bool,
}

/// The tracker's knowledge and schedule.
#[derive(Debug)]
pub(crate) struct State {
    timing: Timing,
    addresses: BTreeMap<String, AddressState>,
    orders: HashMap<String, OrderState>,
    /// The raw JSON last seen of every tracked order and every order a watched address lists.
    seen: HashMap<String, Value>,
    pause: Option<Pause>,
    /// Consecutive failures that paused every read (a gateway down, a 429): the exponent of the back-off.
    streak: u32,
}

/// The key an address is matched by: EVM hex and Bitcoin bech32 addresses ignore case; Base58 ones do not.
pub(crate) fn address_key(address: &str) -> String {
    let a = address.trim();
    let lower = a.to_ascii_lowercase();
    if lower.starts_with("0x") || ["bc1", "tb1", "bcrt1"].iter().any(|p| lower.starts_with(p)) {
        lower
    } else {
        a.to_owned()
    }
}

fn is_terminal(raw: &Value) -> bool {
    OrderStatus::from_value(&raw["status"]).is_ok_and(|s| s.is_terminal())
}

/// An offramp's success, which the service may still take back (its payout evicted from the mempool).
fn may_revert(order: &OrderInfo) -> bool {
    matches!(order.status, OrderStatus::Success { .. })
        && order.dst_info.chain.eq_ignore_ascii_case("bitcoin")
}

/// The longest wait a gateway's `Retry-After` can impose on the tracker.
pub(crate) const MAX_HONOURED_RETRY_AFTER: Duration = Duration::from_secs(15 * 60);

/// Whether a failure concerns the gateway as a whole (pause every read) or only the one read.
fn is_global(err: &ClientError) -> bool {
    err.is_transient()
        || matches!(err, ClientError::UnexpectedBody { status, .. } if *status >= 400)
}

/// One sentence on a failed read, for a person. It names the read's problem, never the swap's.
pub(crate) fn describe(err: &ClientError) -> String {
    let text = match err {
        ClientError::RateLimited {
            retry_after: Some(wait),
        } => format!(
            "The gateway is rate limiting this app and asked it to wait {} s",
            wait.as_secs()
        ),
        ClientError::RateLimited { retry_after: None } => {
            "The gateway is rate limiting this app".to_owned()
        }
        ClientError::Server { status, .. } => {
            format!("The gateway answered HTTP {status}, a failure on its side")
        }
        ClientError::NotFound => "The gateway answered 404 Not Found".to_owned(),
        other => {
            let text = other.to_string();
            let mut chars = text.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => text,
            }
        }
    };
    let text = text.trim_end();
    if text.ends_with(['.', '!', '?']) {
        text.to_owned()
    } else {
        format!("{text}.")
    }
}

impl State {
    pub(crate) fn new(timing: Timing) -> Self {
        Self {
            timing,
            addresses: BTreeMap::new(),
            orders: HashMap::new(),
            seen: HashMap::new(),
            pause: None,
            streak: 0,
        }
    }

    /// The watched address (as written by the caller) with this key.
    pub(crate) fn address_of(&self, key: &str) -> Option<&str> {
        self.addresses.get(key).map(|a| a.address.as_str())
    }

    /// The key of a watched address whose last listing holds the order.
    fn covering(&self, order_id: &str) -> Option<&str> {
        self.addresses
            .iter()
            .find(|(_, a)| a.listed.contains(order_id))
            .map(|(k, _)| k.as_str())
    }

    fn backoff(&self, failures: u32) -> Duration {
        let doublings = failures.saturating_sub(1).min(20);
        self.timing
            .error_base
            .saturating_mul(1u32 << doublings)
            .min(self.timing.error_max)
    }

    fn is_fast(order: &OrderState, now: Instant) -> bool {
        !order.terminal && order.fast_until.is_some_and(|t| t > now)
    }

    /// `wait` shortened for an unfinished order near its estimate ([`schedule::wait`]).
    fn paced(timing: &Timing, order: &OrderState, wait: Duration, now: Instant) -> Duration {
        match &order.expected {
            Some(e) if !order.terminal => {
                schedule::wait(wait, timing.near, e.age(now), Some(e.estimate))
            }
            _ => wait,
        }
    }

    /// The next read, or how long to sleep. Addresses come before single orders, so that a listing due now covers
    /// what it can before any get-order; an uncovered order with a watched address first asks for that address's
    /// listing (once), and is read on its own only if the listing does not hold it.
    pub(crate) fn next(&mut self, now: Instant) -> Next {
        if let Some(pause) = self.pause {
            if pause.until > now {
                return Next::Sleep(Some(pause.until));
            }
            self.pause = None;
        }
        let due_address = self
            .addresses
            .iter()
            .filter(|(_, a)| a.due <= now)
            .min_by_key(|(k, a)| (a.due, k.as_str()))
            .map(|(k, _)| k.clone());
        if let Some(key) = due_address {
            return Next::Read(Job::Address(key));
        }
        let mut earliest: Option<Instant> = self.addresses.values().map(|a| a.due).min();
        let mut due_order: Option<(Instant, &String)> = None;
        for (id, order) in &self.orders {
            if order.terminal || self.covering(id).is_some() {
                continue;
            }
            if order.due <= now {
                if due_order.is_none_or(|(due, best)| (order.due, id) < (due, best)) {
                    due_order = Some((order.due, id));
                }
            } else {
                earliest = Some(earliest.map_or(order.due, |e| e.min(order.due)));
            }
        }
        let Some((_, id)) = due_order else {
            return Next::Sleep(earliest);
        };
        let id = id.clone();
        let order = self.orders.get_mut(&id).expect("the order just found");
        if !order.listing_tried {
            let listable = order.addresses.iter().find(|key| {
                self.addresses
                    .get(key.as_str())
                    .is_some_and(|a| a.failures == 0)
            });
            if let Some(key) = listable {
                order.listing_tried = true;
                return Next::Read(Job::Address(key.clone()));
            }
        }
        Next::Read(Job::Order(id))
    }

    /// Watches an address: its listing is due now.
    pub(crate) fn watch(&mut self, address: &str, now: Instant) {
        let key = address_key(address);
        if key.is_empty() {
            return;
        }
        self.addresses.entry(key).or_insert_with(|| AddressState {
            address: address.trim().to_owned(),
            due: now,
            calm: self.timing.normal,
            failures: 0,
            listed: HashSet::new(),
            listed_count: None,
        });
    }

    pub(crate) fn unwatch(&mut self, address: &str) {
        let Some(gone) = self.addresses.remove(&address_key(address)) else {
            return;
        };
        for id in gone.listed {
            if !self.orders.contains_key(&id) && self.covering(&id).is_none() {
                self.seen.remove(&id);
            }
        }
    }

    pub(crate) fn track(&mut self, tracked: TrackedOrder, now: Instant) -> Vec<TrackerEvent> {
        let TrackedOrder {
            order_id,
            addresses,
            registered_at,
            last_seen,
            expected,
        } = tracked;
        let expected = expected.map(|e| Expecting::of(e, now));
        let order_id = order_id.trim().to_owned();
        if order_id.is_empty() {
            return Vec::new();
        }
        let mut keys: Vec<String> = addresses
            .iter()
            .map(|a| address_key(a))
            .filter(|k| !k.is_empty())
            .collect();
        keys.sort();
        keys.dedup();

        // What the caller last saw against what this tracker has seen since: a difference is a change to report.
        let mut events = Vec::new();
        match (self.seen.get(&order_id), last_seen) {
            (Some(ours), theirs) if theirs.as_ref() != Some(ours) => {
                if let Ok(order) = serde_json::from_value::<OrderInfo>(ours.clone()) {
                    let via = match self.covering(&order_id).and_then(|k| self.address_of(k)) {
                        Some(address) => Via::Address(address.to_owned()),
                        None => Via::Direct,
                    };
                    events.push(TrackerEvent::OrderChanged {
                        order_id: order_id.clone(),
                        order: Box::new(order),
                        raw: ours.clone(),
                        via,
                    });
                }
            }
            (None, Some(theirs)) => {
                self.seen.insert(order_id.clone(), theirs);
            }
            _ => {}
        }
        // An offramp's success is left to `record`, which reads it on while it settles.
        let terminal = self.seen.get(&order_id).is_some_and(|raw| {
            is_terminal(raw)
                && !serde_json::from_value::<OrderInfo>(raw.clone()).is_ok_and(|o| may_revert(&o))
        });

        let fast_until = registered_at.and_then(|at| {
            let since = SystemTime::now().duration_since(at).unwrap_or_default();
            self.timing
                .fast_window
                .checked_sub(since)
                .filter(|left| !left.is_zero())
                .map(|left| now + left)
        });
        let normal = self.timing.normal;
        let fresh_registration = match self.orders.get_mut(&order_id) {
            Some(order) => {
                let fresh = order.registered_at != registered_at && fast_until.is_some();
                order.addresses = keys;
                order.terminal |= terminal;
                if order.registered_at != registered_at {
                    order.registered_at = registered_at;
                    order.fast_until = fast_until;
                }
                if fresh {
                    order.due = now;
                    order.calm = normal;
                    order.listing_tried = false;
                }
                order.expected = expected;
                fresh
            }
            None => {
                self.orders.insert(
                    order_id.clone(),
                    OrderState {
                        addresses: keys,
                        registered_at,
                        fast_until,
                        terminal,
                        settle_until: None,
                        due: now,
                        calm: normal,
                        failures: 0,
                        listing_tried: false,
                        expected,
                    },
                );
                false
            }
        };
        // An order now near its estimate is read within the near pace, itself or through the listing covering it.
        let timing = self.timing;
        let order = self.orders.get_mut(&order_id).expect("inserted above");
        if let Some(soon) = now.checked_add(Self::paced(&timing, order, Duration::MAX, now)) {
            order.due = order.due.min(soon);
            if let Some(key) = self.covering(&order_id).map(str::to_owned)
                && let Some(address) = self.addresses.get_mut(&key)
            {
                address.due = address.due.min(soon);
            }
        }
        // A registration makes the listing that already covers the order due now: the gateway may show it at once.
        if fresh_registration
            && !terminal
            && let Some(key) = self.covering(&order_id).map(str::to_owned)
            && let Some(address) = self.addresses.get_mut(&key)
        {
            address.due = address.due.min(now);
        }
        events
    }

    pub(crate) fn untrack(&mut self, order_id: &str) {
        if self.orders.remove(order_id.trim()).is_some() && self.covering(order_id.trim()).is_none()
        {
            self.seen.remove(order_id.trim());
        }
    }

    /// How long until the order is next read: its own read, or a listing of one of its watched addresses, whichever
    /// comes first, not before a pause ends. `None` for an order not tracked or finished.
    pub(crate) fn next_check(&self, order_id: &str, now: Instant) -> Option<Duration> {
        let order = self.orders.get(order_id)?;
        if order.terminal {
            return None;
        }
        // An order a watched address's listing covers is read with that listing (its own due time is then not
        // used); otherwise with get-order, or a listing of its address first.
        let covering = order
            .addresses
            .iter()
            .filter_map(|key| self.addresses.get(key))
            .filter(|a| a.listed.contains(order_id))
            .map(|a| a.due)
            .min();
        let mut due = match covering {
            Some(due) => due,
            None => order
                .addresses
                .iter()
                .filter_map(|key| self.addresses.get(key))
                .map(|a| a.due)
                .fold(order.due, Instant::min),
        };
        if let Some(pause) = &self.pause {
            due = due.max(pause.until);
        }
        Some(due.saturating_duration_since(now))
    }

    /// Makes every address and every unfinished uncovered order due now. A pause a 429 asked for stays.
    pub(crate) fn refresh_now(&mut self, now: Instant) {
        if self.pause.is_some_and(|p| !p.rate_limited) {
            self.pause = None;
        }
        for address in self.addresses.values_mut() {
            address.due = now;
        }
        for order in self.orders.values_mut() {
            order.due = order.due.min(now);
        }
    }

    /// Records order `id` as read; `Some(event)` when it differs from what was last seen.
    fn record(
        &mut self,
        id: &str,
        order: OrderInfo,
        raw: Value,
        via: &Via,
        now: Instant,
    ) -> Option<TrackerEvent> {
        let changed = self.seen.get(id) != Some(&raw);
        let settle = self.timing.settle;
        if let Some(tracked) = self.orders.get_mut(id) {
            if may_revert(&order) {
                // Read on until the success has held for the settling time.
                let until = *tracked.settle_until.get_or_insert(now + settle);
                tracked.terminal = until <= now;
            } else {
                tracked.settle_until = None;
                tracked.terminal = order.status.is_terminal();
            }
            if changed && tracked.fast_until.is_some_and(|t| t > now) {
                // The gateway shows something new since the registration: back to the normal pace.
                tracked.fast_until = None;
            }
        }
        if !changed {
            return None;
        }
        self.seen.insert(id.to_owned(), raw.clone());
        Some(TrackerEvent::OrderChanged {
            order_id: id.to_owned(),
            order: Box::new(order),
            raw,
            via: via.clone(),
        })
    }

    /// Applies the result of a read; gives the events to publish.
    pub(crate) fn finish(
        &mut self,
        job: &Job,
        outcome: Outcome,
        now: Instant,
    ) -> Vec<TrackerEvent> {
        match (job, outcome) {
            (Job::Address(key), Outcome::Listing { orders, end }) => {
                self.finish_listing(key, orders, end, now)
            }
            (Job::Order(id), Outcome::Order(result)) => self.finish_order(id, result, now),
            _ => Vec::new(),
        }
    }

    fn finish_listing(
        &mut self,
        key: &str,
        orders: Vec<(OrderInfo, Value)>,
        end: Result<(), ClientError>,
        now: Instant,
    ) -> Vec<TrackerEvent> {
        let Some(address) = self.addresses.get(key).map(|a| a.address.clone()) else {
            // Unwatched while it was being read.
            return Vec::new();
        };
        let via = Via::Address(address.clone());
        let mut events = Vec::new();
        let mut ids = HashSet::with_capacity(orders.len());
        let mut changed = false;
        let mut all_terminal = true;
        for (order, raw) in orders {
            all_terminal &= order.status.is_terminal();
            let id = order.id.clone();
            ids.insert(id.clone());
            if let Some(event) = self.record(&id, order, raw, &via, now) {
                changed = true;
                events.push(event);
            }
        }
        if !ids.is_empty() {
            self.streak = 0;
        }
        if let Err(err) = end {
            // The pages read count (their orders are covered too); the listing is read again after the back-off.
            self.addresses
                .get_mut(key)
                .expect("checked above")
                .listed
                .extend(ids);
            events.push(self.failed(
                format!("the orders of {address}"),
                &err,
                Some(key),
                None,
                now,
            ));
            return events;
        }
        self.streak = 0;

        // Orders it no longer lists: forget untracked ones no other listing holds; read tracked ones on their own.
        let previous = std::mem::take(&mut self.addresses.get_mut(key).expect("checked").listed);
        for id in previous.difference(&ids) {
            if let Some(order) = self.orders.get_mut(id) {
                order.listing_tried = true;
            } else if self.covering(id).is_none() {
                self.seen.remove(id);
            }
        }
        // A tracked order filed under this address that the listing lacks is read with get-order.
        for (id, order) in self.orders.iter_mut() {
            if !ids.contains(id) && order.addresses.iter().any(|k| k == key) {
                order.listing_tried = true;
            }
        }
        let timing = self.timing;
        let fast = self
            .orders
            .iter()
            .any(|(id, o)| ids.contains(id) && Self::is_fast(o, now));
        let entry = self.addresses.get_mut(key).expect("checked");
        entry.failures = 0;
        entry.calm = if changed {
            timing.normal
        } else {
            entry
                .calm
                .saturating_mul(2)
                .clamp(timing.normal, timing.slow_max)
        };
        let mut wait = if all_terminal {
            timing.slow_max
        } else {
            entry.calm
        };
        if fast {
            wait = wait.min(timing.fast);
        }
        // The listed orders near their estimates pace the listing that covers them.
        let wait = self
            .orders
            .iter()
            .filter(|(id, _)| ids.contains(*id))
            .fold(wait, |wait, (_, o)| Self::paced(&timing, o, wait, now));
        let entry = self.addresses.get_mut(key).expect("checked");
        let count = ids.len();
        entry.listed = ids;
        entry.due = now + wait;
        if entry.listed_count != Some(count) {
            entry.listed_count = Some(count);
            events.push(TrackerEvent::AddressListed {
                address,
                orders: count,
            });
        }
        events
    }

    fn finish_order(
        &mut self,
        id: &str,
        result: Result<(OrderInfo, Value), ClientError>,
        now: Instant,
    ) -> Vec<TrackerEvent> {
        if !self.orders.contains_key(id) {
            // Untracked while it was being read.
            return Vec::new();
        }
        let changed = match result {
            Ok((order, raw)) => {
                self.streak = 0;
                // Kept under the id it is tracked by (get-order also finds an order by its transaction hash).
                self.record(id, order, raw, &Via::Direct, now)
            }
            // The gateway does not know the order (yet): keep waiting quietly.
            Err(ClientError::NotFound) => {
                self.streak = 0;
                None
            }
            Err(err) => {
                return vec![self.failed(format!("order {id}"), &err, None, Some(id), now)];
            }
        };
        let timing = self.timing;
        let order = self.orders.get_mut(id).expect("checked above");
        order.failures = 0;
        order.calm = if changed.is_some() {
            timing.normal
        } else {
            order
                .calm
                .saturating_mul(2)
                .clamp(timing.normal, timing.slow_max)
        };
        let wait = if Self::is_fast(order, now) {
            timing.fast
        } else {
            order.calm
        };
        order.due = now + Self::paced(&timing, order, wait, now);
        changed.into_iter().collect()
    }

    /// Backs off after a failed read and says so. Nothing is recorded about any order.
    ///
    /// The wait doubles with the failures in a row of this read and, for a failure of the whole gateway, with the
    /// failures in a row of every read, whichever is more; such a failure pauses every read.
    fn failed(
        &mut self,
        what: String,
        err: &ClientError,
        address: Option<&str>,
        order: Option<&str>,
        now: Instant,
    ) -> TrackerEvent {
        let own = if let Some(a) = address.and_then(|k| self.addresses.get_mut(k)) {
            a.failures = a.failures.saturating_add(1);
            a.failures
        } else if let Some(o) = order.and_then(|id| self.orders.get_mut(id)) {
            o.failures = o.failures.saturating_add(1);
            o.failures
        } else {
            1
        };
        let global = is_global(err);
        let failures = if global {
            self.streak = self.streak.saturating_add(1);
            own.max(self.streak)
        } else {
            own
        };
        let mut retry_in = self.backoff(failures);
        if let ClientError::RateLimited {
            retry_after: Some(after),
        } = err
        {
            // A gateway's Retry-After is honoured up to a bound: `Retry-After: 18446744073709551615` must neither
            // overflow the clock nor stop the polling for good.
            retry_in = retry_in.max((*after).min(MAX_HONOURED_RETRY_AFTER));
        }
        if global {
            self.pause = Some(Pause {
                until: now + retry_in,
                rate_limited: matches!(err, ClientError::RateLimited { .. }),
            });
        }
        // Also behind whatever else was due, so that one failing read does not hold up the others after a pause.
        if let Some(a) = address.and_then(|k| self.addresses.get_mut(k)) {
            a.due = now + retry_in;
        } else if let Some(o) = order.and_then(|id| self.orders.get_mut(id)) {
            o.due = now + retry_in;
        }
        TrackerEvent::ReadFailed {
            what,
            error: describe(err),
            retry_in,
        }
    }

    /// How many orders are read one by one now (tracked, unfinished, not covered by a listing).
    #[cfg(test)]
    fn direct(&self) -> usize {
        self.orders
            .iter()
            .filter(|(id, o)| !o.terminal && self.covering(id).is_none())
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const A: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    const B: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";

    fn timing() -> Timing {
        Timing::default()
    }

    fn raw(id: &str, status: Value) -> Value {
        json!({
            "id": id, "timestamp": 1,
            "srcInfo": {"chain": "bitcoin", "token": "0x0000000000000000000000000000000000000000", "amount": "1000"},
            "dstInfo": {"chain": "bob", "token": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "amount": "900"},
            "status": status,
        })
    }

    fn pending(id: &str) -> (OrderInfo, Value) {
        let raw = raw(id, json!({"inProgress": {"refund_tx": null}}));
        (serde_json::from_value(raw.clone()).unwrap(), raw)
    }

    fn done(id: &str) -> (OrderInfo, Value) {
        let raw = raw(id, json!({"success": {"received_tokens": []}}));
        (serde_json::from_value(raw.clone()).unwrap(), raw)
    }

    fn tracked(id: &str, addresses: &[&str]) -> TrackedOrder {
        TrackedOrder {
            order_id: id.into(),
            addresses: addresses.iter().map(|a| a.to_string()).collect(),
            registered_at: None,
            last_seen: None,
            expected: None,
        }
    }

    fn listing(orders: Vec<(OrderInfo, Value)>) -> Outcome {
        Outcome::Listing {
            orders,
            end: Ok(()),
        }
    }

    fn changes(events: &[TrackerEvent]) -> usize {
        events
            .iter()
            .filter(|e| matches!(e, TrackerEvent::OrderChanged { .. }))
            .count()
    }

    fn read_key(state: &mut State, now: Instant) -> Job {
        match state.next(now) {
            Next::Read(job) => job,
            other => panic!("expected a read, got {other:?}"),
        }
    }

    fn due_in(state: &mut State, now: Instant) -> Duration {
        match state.next(now) {
            Next::Sleep(Some(at)) => at - now,
            other => panic!("expected a sleep, got {other:?}"),
        }
    }

    #[test]
    fn an_unchanged_address_slows_down_and_a_change_brings_it_back() {
        let t = timing();
        let mut state = State::new(t);
        let mut now = Instant::now();
        state.watch(A, now);
        let key = address_key(A);
        assert_eq!(read_key(&mut state, now), Job::Address(key.clone()));
        let events = state.finish(
            &Job::Address(key.clone()),
            listing(vec![pending("o1")]),
            now,
        );
        assert_eq!(changes(&events), 1);
        assert_eq!(due_in(&mut state, now), t.normal);
        let mut waits = Vec::new();
        for _ in 0..4 {
            now += state.addresses[&key].due - now;
            let events = state.finish(
                &Job::Address(key.clone()),
                listing(vec![pending("o1")]),
                now,
            );
            assert_eq!(changes(&events), 0, "no event for an unchanged order");
            waits.push(due_in(&mut state, now).as_secs());
        }
        assert_eq!(waits, [30, 60, 60, 60]);
        let events = state.finish(&Job::Address(key.clone()), listing(vec![done("o1")]), now);
        assert_eq!(changes(&events), 1);
        assert_eq!(
            due_in(&mut state, now),
            t.slow_max,
            "all listed orders are finished"
        );
    }

    #[test]
    fn covered_orders_are_not_read_alone_and_uncovered_ones_are() {
        let mut state = State::new(timing());
        let now = Instant::now();
        state.watch(A, now);
        state.track(tracked("o1", &[A]), now);
        state.track(tracked("o2", &[A]), now);
        state.track(tracked("o3", &[B]), now);
        let key = address_key(A);
        assert_eq!(read_key(&mut state, now), Job::Address(key.clone()));
        state.finish(
            &Job::Address(key.clone()),
            listing(vec![pending("o1")]),
            now,
        );
        // o2 is filed under A but A does not list it; o3's address is not watched: both are read alone.
        assert_eq!(state.direct(), 2);
        let first = read_key(&mut state, now);
        assert_eq!(first, Job::Order("o2".into()));
        state.finish(&first, Outcome::Order(Err(ClientError::NotFound)), now);
        let second = read_key(&mut state, now);
        assert_eq!(second, Job::Order("o3".into()));
        let events = state.finish(&second, Outcome::Order(Ok(done("o3"))), now);
        assert_eq!(changes(&events), 1);
        // A 404 is waited out quietly, a finished order is never read again, and o1 stays covered.
        assert!(matches!(state.next(now), Next::Sleep(Some(_))));
        assert_eq!(state.direct(), 1);
    }

    #[test]
    fn an_uncovered_order_asks_for_its_address_listing_once() {
        let mut state = State::new(timing());
        let now = Instant::now();
        state.watch(A, now);
        let key = address_key(A);
        state.finish(&Job::Address(key.clone()), listing(vec![]), now);
        let later = now + Duration::from_secs(1);
        state.track(tracked("o9", &[A]), later);
        assert_eq!(read_key(&mut state, later), Job::Address(key.clone()));
        state.finish(
            &Job::Address(key.clone()),
            listing(vec![pending("o9")]),
            later,
        );
        assert_eq!(state.direct(), 0, "the listing covers it");
        assert!(matches!(state.next(later), Next::Sleep(_)));
    }

    #[test]
    fn failures_back_off_exponentially_and_a_rate_limit_is_honoured() {
        let t = timing();
        let mut state = State::new(t);
        let now = Instant::now();
        state.watch(A, now);
        let key = address_key(A);
        let job = Job::Address(key.clone());
        let mut waits = Vec::new();
        for _ in 0..6 {
            let server = ClientError::Server {
                status: 503,
                snippet: String::new(),
            };
            let events = state.finish(
                &job,
                Outcome::Listing {
                    orders: vec![],
                    end: Err(server),
                },
                now,
            );
            let [
                TrackerEvent::ReadFailed {
                    retry_in, error, ..
                },
            ] = events.as_slice()
            else {
                panic!("{events:?}")
            };
            assert!(!error.to_lowercase().contains("swap"), "{error}");
            waits.push(retry_in.as_secs());
        }
        assert_eq!(waits, [15, 30, 60, 120, 240, 300]);

        let limited = ClientError::RateLimited {
            retry_after: Some(Duration::from_secs(900)),
        };
        let events = state.finish(
            &job,
            Outcome::Listing {
                orders: vec![],
                end: Err(limited),
            },
            now,
        );
        assert!(
            matches!(&events[..], [TrackerEvent::ReadFailed { retry_in, .. }] if retry_in.as_secs() == 900)
        );
        state.refresh_now(now);
        assert_eq!(
            due_in(&mut state, now).as_secs(),
            900,
            "refresh does not cut a Retry-After short"
        );
        // A success resets the back-off.
        let after = now + Duration::from_secs(900);
        state.finish(&job, listing(vec![pending("o1")]), after);
        assert_eq!(due_in(&mut state, after), t.normal);
        let again = state.finish(
            &job,
            Outcome::Listing {
                orders: vec![],
                end: Err(ClientError::Timeout(Duration::from_secs(30))),
            },
            after,
        );
        assert!(
            matches!(&again[..], [TrackerEvent::ReadFailed { retry_in, .. }] if *retry_in == t.error_base)
        );

        // A Retry-After of u64::MAX seconds neither panics nor pauses longer than the bound.
        let absurd = ClientError::RateLimited {
            retry_after: Some(Duration::from_secs(u64::MAX)),
        };
        let events = state.finish(
            &job,
            Outcome::Listing {
                orders: vec![],
                end: Err(absurd),
            },
            after,
        );
        assert!(
            matches!(&events[..], [TrackerEvent::ReadFailed { retry_in, .. }] if *retry_in == MAX_HONOURED_RETRY_AFTER),
            "{events:?}"
        );
        assert_eq!(due_in(&mut state, after), MAX_HONOURED_RETRY_AFTER);
    }

    #[test]
    fn a_fresh_registration_reads_fast_until_the_gateway_shows_it() {
        let t = timing();
        let mut state = State::new(t);
        let now = Instant::now();
        state.watch(A, now);
        let key = address_key(A);
        let job = Job::Address(key.clone());
        state.track(tracked("o1", &[A]), now);
        state.finish(&job, listing(vec![pending("o1")]), now);
        assert_eq!(due_in(&mut state, now), t.normal);

        let mut registered = tracked("o1", &[A]);
        registered.registered_at = Some(SystemTime::now());
        state.track(registered, now);
        assert_eq!(
            read_key(&mut state, now),
            job,
            "a registration reads at once"
        );
        state.finish(&job, listing(vec![pending("o1")]), now);
        assert_eq!(due_in(&mut state, now), t.fast, "not shown yet: fast");
        assert_eq!(
            state.next_check("o1", now),
            Some(t.fast),
            "the window is told the same"
        );
        assert_eq!(
            state.next_check("o1", now + t.fast + t.fast),
            Some(Duration::ZERO),
            "due, not negative"
        );
        assert_eq!(state.next_check("nope", now), None);
        let (order, mut raw) = pending("o1");
        raw["srcInfo"]["txHash"] = json!("ab".repeat(32));
        state.finish(&job, listing(vec![(order, raw)]), now);
        assert_eq!(due_in(&mut state, now), t.normal, "shown: normal pace");
        assert_eq!(state.next_check("o1", now), Some(t.normal));

        // An old registration (a restart) is not fast.
        let mut old = tracked("o2", &[B]);
        old.registered_at = Some(SystemTime::now() - Duration::from_secs(3600));
        state.track(old, now);
        assert!(state.orders["o2"].fast_until.is_none());
    }

    /// `id` tracked under `addresses`, registered `age` ago with a 10 min estimate.
    fn expecting(id: &str, addresses: &[&str], age: Duration) -> TrackedOrder {
        TrackedOrder {
            expected: Some(super::super::Expected {
                since: SystemTime::now() - age,
                estimate: Duration::from_secs(600),
            }),
            ..tracked(id, addresses)
        }
    }

    #[test]
    fn near_its_estimate_an_order_is_read_at_the_near_pace_and_far_from_it_calmly() {
        let t = timing();
        let minute = Duration::from_secs(60);
        // Read on its own (no watched address), 9 min after its registration: inside the window (7.5 to 20 min).
        let mut state = State::new(t);
        let now = Instant::now();
        state.track(expecting("o1", &[B], 9 * minute), now);
        let job = read_key(&mut state, now);
        assert_eq!(job, Job::Order("o1".into()));
        state.finish(&job, Outcome::Order(Ok(pending("o1"))), now);
        assert_eq!(
            due_in(&mut state, now),
            t.near,
            "a change: 15 s, but near: 10 s"
        );
        let mut waits = Vec::new();
        let mut at = now;
        for _ in 0..4 {
            at += t.near;
            state.finish(&job, Outcome::Order(Ok(pending("o1"))), at);
            waits.push(due_in(&mut state, at).as_secs());
        }
        assert_eq!(
            waits,
            [10, 10, 10, 10],
            "unchanged reads do not slow down near the estimate"
        );
        assert_eq!(
            state.next_check("o1", at),
            Some(t.near),
            "the window is told the same"
        );
        // Past the window (20 min after the registration), the calm schedule comes back: 60 s.
        let late = at + 11 * minute;
        state.finish(&job, Outcome::Order(Ok(pending("o1"))), late);
        assert_eq!(due_in(&mut state, late), t.slow_max);

        // Far before the window (1 min after the registration): the calm pace, but not past the window's opening.
        let mut state = State::new(t);
        state.track(expecting("o2", &[B], minute), now);
        let job = read_key(&mut state, now);
        state.finish(&job, Outcome::Order(Ok(pending("o2"))), now);
        assert_eq!(due_in(&mut state, now), t.normal);
        let mut at = now;
        let mut waits = Vec::new();
        while at < now + 8 * minute {
            at += state.orders["o2"].due - at;
            state.finish(&job, Outcome::Order(Ok(pending("o2"))), at);
            waits.push(due_in(&mut state, at).as_secs());
        }
        // 1 min 15 s, 1 min 45 s, 2 min 45 s, … then up to 7 min 30 s and every 10 s from there.
        assert_eq!(&waits[..5], [30, 60, 60, 60, 60]);
        assert!(waits.ends_with(&[10, 10]), "{waits:?}");
        assert!(waits.iter().all(|w| *w <= 60), "{waits:?}");

        // Through a watched address's listing: the listing is paced by the order it covers.
        let mut state = State::new(t);
        state.watch(A, now);
        let key = address_key(A);
        state.track(expecting("o3", &[A], 9 * minute), now);
        state.track(tracked("o4", &[A]), now);
        let listing_job = Job::Address(key.clone());
        assert_eq!(read_key(&mut state, now), listing_job);
        state.finish(
            &listing_job,
            listing(vec![pending("o3"), pending("o4")]),
            now,
        );
        assert_eq!(due_in(&mut state, now), t.near);
        state.finish(
            &listing_job,
            listing(vec![pending("o3"), pending("o4")]),
            now + t.near,
        );
        assert_eq!(
            due_in(&mut state, now + t.near),
            t.near,
            "unchanged, still near"
        );
        // Once the order ended, the listing slows down as before.
        state.finish(
            &listing_job,
            listing(vec![done("o3"), pending("o4")]),
            now + t.near,
        );
        state.finish(
            &listing_job,
            listing(vec![done("o3"), pending("o4")]),
            now + t.near * 2,
        );
        assert_eq!(due_in(&mut state, now + t.near * 2), t.normal * 2);
    }

    #[test]
    fn an_order_tracked_again_near_its_estimate_is_read_within_the_near_pace() {
        let t = timing();
        let mut state = State::new(t);
        let now = Instant::now();
        state.track(tracked("o1", &[B]), now);
        let job = read_key(&mut state, now);
        state.finish(&job, Outcome::Order(Ok(pending("o1"))), now);
        assert_eq!(due_in(&mut state, now), t.normal);
        // The app learns the estimate (a restart, a registration seen late): no wait longer than the near pace.
        let later = now + Duration::from_secs(1);
        state.track(expecting("o1", &[B], Duration::from_secs(600)), later);
        assert_eq!(due_in(&mut state, later), t.near);
    }

    #[test]
    fn tracking_with_a_stale_last_seen_reports_what_the_listing_showed() {
        let mut state = State::new(timing());
        let now = Instant::now();
        state.watch(A, now);
        let key = address_key(A);
        state.finish(&Job::Address(key), listing(vec![done("o1")]), now);
        let mut stale = tracked("o1", &[A]);
        stale.last_seen = Some(pending("o1").1);
        let events = state.track(stale, now);
        assert!(
            matches!(&events[..], [TrackerEvent::OrderChanged { via: Via::Address(a), .. }] if a == A)
        );
        let mut current = tracked("o1", &[A]);
        current.last_seen = Some(done("o1").1);
        assert!(state.track(current, now).is_empty());
        assert!(state.orders["o1"].terminal);
    }

    /// An offramp (to Bitcoin) whose success is reported with `status`.
    fn offramp(id: &str, status: Value) -> (OrderInfo, Value) {
        let mut raw = raw(id, status);
        raw["dstInfo"] = json!({"chain": "bitcoin", "token": "0x0000000000000000000000000000000000000000",
            "amount": "900"});
        (serde_json::from_value(raw.clone()).unwrap(), raw)
    }

    #[test]
    fn an_offramps_success_is_read_on_while_it_settles_and_a_taken_back_one_is_reported() {
        let t = timing();
        let mut state = State::new(t);
        let now = Instant::now();
        state.track(tracked("o1", &[B]), now);
        let success = json!({"success": {"received_tokens": []}});
        let job = read_key(&mut state, now);
        state.finish(
            &job,
            Outcome::Order(Ok(offramp("o1", success.clone()))),
            now,
        );
        assert!(!state.orders["o1"].terminal, "read on while it settles");
        assert!(state.next_check("o1", now).is_some());
        // The payout was evicted: back in progress, reported as a change.
        let later = now + t.slow_max;
        let job = read_key(&mut state, later);
        let events = state.finish(
            &job,
            Outcome::Order(Ok(offramp(
                "o1",
                json!({"inProgress": {"refund_tx": null}}),
            ))),
            later,
        );
        assert!(
            matches!(&events[..], [TrackerEvent::OrderChanged { .. }]),
            "{events:?}"
        );
        assert!(state.orders["o1"].settle_until.is_none());
        // Success again, held past the settling time: final.
        let again = later + t.slow_max;
        let job = read_key(&mut state, again);
        state.finish(
            &job,
            Outcome::Order(Ok(offramp("o1", success.clone()))),
            again,
        );
        assert!(!state.orders["o1"].terminal);
        let settled = again + t.settle;
        let job = read_key(&mut state, settled);
        state.finish(&job, Outcome::Order(Ok(offramp("o1", success))), settled);
        assert!(state.orders["o1"].terminal);
        assert_eq!(state.next_check("o1", settled), None);
        // An onramp's success is final at once.
        state.track(tracked("o2", &[B]), settled);
        let job = read_key(&mut state, settled);
        state.finish(&job, Outcome::Order(Ok(done("o2"))), settled);
        assert!(state.orders["o2"].terminal);
    }

    #[test]
    fn addresses_match_without_case_for_hex_and_bech32_only() {
        assert_eq!(address_key(A), A.to_ascii_lowercase());
        assert_eq!(address_key(" BC1QXY2 "), "bc1qxy2");
        assert_eq!(address_key("TXYZabc"), "TXYZabc");
        assert_eq!(crate::ids::short_id(A), "0x5aAe…eAed");
    }

    #[test]
    fn failure_sentences_are_sentences() {
        let s = describe(&ClientError::Server {
            status: 503,
            snippet: "x".into(),
        });
        assert_eq!(s, "The gateway answered HTTP 503, a failure on its side.");
        let s = describe(&ClientError::Timeout(Duration::from_secs(30)));
        assert!(
            s.starts_with("The gateway did not answer") && s.ends_with('.'),
            "{s}"
        );
    }
}
