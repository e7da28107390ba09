//! The order tracker: one tokio task per network keeps every unfinished order and every watched address up to date.
//!
//! It reads get-orders per watched address, page by page, rather than one request per order; an order that a
//! listing holds is "covered" and never read on its own. Only tracked orders that no listing covers are read with
//! get-order (a 404 there means the gateway does not know the order yet, and is waited out quietly).
//!
//! Each address and each directly read order has its own due time:
//!
//! - after a read that showed a change, the next read is [`Timing::normal`] later; each unchanged read doubles the
//!   interval up to [`Timing::slow_max`]; an address whose listed orders are all finished waits `slow_max`;
//! - for [`Timing::fast_window`] after a registration, the order (or the address covering it) is read every
//!   [`Timing::fast`] until the gateway shows something new about it;
//! - near the quote's estimate of an order ([`schedule::near_window`]: from a quarter of the estimate before it until
//!   the estimate again after it, 5 to 30 min), the order (or the address covering it) is read at least every [`Timing::near`], so
//!   that its ending is noticed within that time; before the window the wait never runs past its opening;
//! - a finished order (success, failed, refunded) is not read again;
//! - a new address, a new order, a registration and [`TrackerHandle::refresh_now`] make a read due at once.
//!
//! A failed read changes nothing the tracker knows about any order; it is published as
//! [`TrackerEvent::ReadFailed`] with the time to the next attempt, never as a failed swap. A failure of the gateway
//! as a whole (timeout, refused connection, 5xx, 429, an HTML page) pauses every read, backing off exponentially
//! from [`Timing::error_base`] to [`Timing::error_max`] and for at least as long as a `Retry-After` asks; a failure
//! of one read (a coded error, an unreadable order) backs off that read alone.
//!
//! [`TrackerEvent::OrderChanged`] is published only when an order's JSON differs from the last one seen, for
//! tracked orders and for every order a watched address lists. The tracker keeps nothing on disk: the caller passes
//! each order's last seen JSON to [`TrackerHandle::track`] so that a restart does not report old news.

pub mod schedule;
mod state;

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use gateway_client::Client;
use gateway_client::wire::OrderInfo;
use serde_json::Value;
use tokio::sync::{Mutex, broadcast, mpsc};
use tokio::task::JoinHandle;
use tracing::{Instrument, debug, error, info_span, warn};

use crate::ids::short_id;
use state::{Job, Next, Outcome, State};

/// The page size asked of get-orders (the most the gateway serves).
pub const PAGE_LIMIT: u32 = 100;

/// Events kept for a slow subscriber; one that falls further behind gets `RecvError::Lagged`.
const EVENT_CAPACITY: usize = 4096;

/// An order to keep up to date.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackedOrder {
    /// The gateway's order id.
    pub order_id: String,
    /// The addresses the gateway lists the order under (recipient, sender, owner). When one is watched, the order is
    /// read through that address's listing.
    pub addresses: Vec<String>,
    /// When its transaction was registered; `None` while it is not. A registration less than
    /// [`Timing::fast_window`] ago makes the tracker read fast.
    pub registered_at: Option<SystemTime>,
    /// The order's JSON as last seen (by an earlier run), so that only real changes are published.
    pub last_seen: Option<Value>,
    /// When the quote expects the order to end: read at least every [`Timing::near`] around then. `None` without an
    /// estimate, or before the order's transaction is registered.
    pub expected: Option<Expected>,
}

/// When an order is expected to end: its clock's start and the quote's estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expected {
    /// When the order's clock started (its registration).
    pub since: SystemTime,
    /// The quote's estimate of how long the order takes from then.
    pub estimate: Duration,
}

/// How an order's new state was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Via {
    /// In the get-orders listing of this watched address.
    Address(String),
    /// With get-order.
    Direct,
}

/// What the tracker publishes.
///
/// Nearly every event is an [`TrackerEvent::OrderChanged`], so the order is held inline rather than boxed.
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum TrackerEvent {
    /// An order differs from the last time it was seen (or is seen for the first time).
    OrderChanged {
        /// The gateway's order id.
        order_id: String,
        /// The order as read (boxed: the channel allocates every one of its [`EVENT_CAPACITY`] slots at start, at the
        /// size of the largest event).
        order: Box<OrderInfo>,
        /// The order exactly as the gateway sent it.
        raw: Value,
        /// Whether it came from a watched address's listing or from get-order.
        via: Via,
    },
    /// A read failed. Nothing about any order changed: this is about reading, not about the swap.
    ReadFailed {
        /// What was being read: "the orders of ADDRESS" or "order ID".
        what: String,
        /// One sentence saying what went wrong.
        error: String,
        /// When it is tried again.
        retry_in: Duration,
    },
    /// A watched address's listing was read in full and holds a different number of orders than before.
    AddressListed {
        /// The watched address.
        address: String,
        /// How many orders its listing holds now.
        orders: usize,
    },
    /// The tracker stopped on an error and was restarted: a sentence saying so.
    Restarted {
        /// The sentence for the person: what stopped, and that no order changed.
        error: String,
    },
}

/// The tracker's pace. [`Timing::default`] is for people; [`Timing::scaled`] shrinks it for tests and benchmarks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// The interval just after a registration (default 5 s).
    pub fast: Duration,
    /// How long after a registration the fast interval applies, at most (default 2 min).
    pub fast_window: Duration,
    /// The interval after a change (default 15 s, as the official client polls).
    pub normal: Duration,
    /// The longest interval near an order's estimate ([`schedule::near_window`]; default 10 s): how soon an ending
    /// is noticed then.
    pub near: Duration,
    /// The longest interval; each unchanged read doubles the interval up to this (default 60 s).
    pub slow_max: Duration,
    /// The first wait after a failed read; it doubles with each failure in a row (default 15 s).
    pub error_base: Duration,
    /// The longest wait after failures, unless a `Retry-After` asks for more (default 5 min).
    pub error_max: Duration,
    /// How long an offramp's success is still read (default 30 min): the service's September 2026 document says a
    /// success "can briefly revert to inProgress if the payout is evicted from the mempool".
    pub settle: Duration,
}

impl Default for Timing {
    fn default() -> Self {
        Self {
            fast: Duration::from_secs(5),
            fast_window: Duration::from_secs(120),
            normal: Duration::from_secs(15),
            near: Duration::from_secs(10),
            slow_max: Duration::from_secs(60),
            error_base: Duration::from_secs(15),
            error_max: Duration::from_secs(300),
            settle: Duration::from_secs(1800),
        }
    }
}

impl Timing {
    /// Every interval multiplied by `factor` (`1.0 / 60.0`: a minute lasts a second). A gateway's `Retry-After` is
    /// still honoured in full.
    pub fn scaled(&self, factor: f64) -> Self {
        let scale = |d: Duration| d.mul_f64(factor.max(0.0));
        Self {
            fast: scale(self.fast),
            fast_window: scale(self.fast_window),
            normal: scale(self.normal),
            near: scale(self.near),
            slow_max: scale(self.slow_max),
            error_base: scale(self.error_base),
            error_max: scale(self.error_max),
            settle: scale(self.settle),
        }
    }
}

/// The tracker task has ended (shut down, or its runtime is gone).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the order tracker has stopped")]
pub struct TrackerStopped;

#[derive(Debug)]
enum Command {
    Track(TrackedOrder),
    Untrack(String),
    Watch(String),
    Unwatch(String),
    RefreshNow,
    /// When the order is next read (see [`State::next_check`]).
    NextCheck(String, tokio::sync::oneshot::Sender<Option<Duration>>),
    Shutdown,
    /// Makes the tracker task panic, to test that it is restarted.
    #[cfg(test)]
    Crash,
}

/// Starts trackers.
#[derive(Debug)]
pub struct Tracker;

impl Tracker {
    /// Starts the tracker of the gateway `client` talks to, on the current tokio runtime. It reads nothing until an
    /// address is watched or an order tracked.
    ///
    /// The tracker schedules its own retries, so it reads through a copy of `client` that tries each request once.
    pub fn spawn(
        client: Client,
        timing: Timing,
    ) -> (TrackerHandle, broadcast::Receiver<TrackerEvent>) {
        let client = single_attempt(client);
        let (commands, receiver) = mpsc::channel(256);
        let (events, first) = broadcast::channel(EVENT_CAPACITY);
        let shared = Arc::new(Mutex::new(Owned {
            commands: receiver,
            state: State::new(timing),
        }));
        let task = tokio::spawn(supervise(client, shared, events.clone()));
        let handle = TrackerHandle {
            commands,
            events,
            task: Arc::new(Mutex::new(Some(task))),
        };
        (handle, first)
    }
}

fn single_attempt(client: Client) -> Client {
    let mut config = client.config().clone();
    if config.read_attempts == 1 {
        return client;
    }
    config.read_attempts = 1;
    // The configuration was accepted once; making the client again can fail only if TLS cannot be set up.
    Client::new(config).unwrap_or(client)
}

/// Talks to a running tracker. Cheap to clone; the tracker runs until [`TrackerHandle::shutdown`] or until every
/// handle is dropped.
#[derive(Debug, Clone)]
pub struct TrackerHandle {
    commands: mpsc::Sender<Command>,
    events: broadcast::Sender<TrackerEvent>,
    task: Arc<Mutex<Option<JoinHandle<()>>>>,
}

impl TrackerHandle {
    async fn send(&self, command: Command) -> Result<(), TrackerStopped> {
        self.commands
            .send(command)
            .await
            .map_err(|_| TrackerStopped)
    }

    /// How long until the order is next read; `None` when it is not tracked (or finished).
    pub async fn next_check(
        &self,
        order_id: impl Into<String>,
    ) -> Result<Option<Duration>, TrackerStopped> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.send(Command::NextCheck(order_id.into(), reply))
            .await?;
        answer.await.map_err(|_| TrackerStopped)
    }

    /// Keeps an order up to date (again, with new facts such as a registration, if it is tracked already).
    pub async fn track(&self, order: TrackedOrder) -> Result<(), TrackerStopped> {
        self.send(Command::Track(order)).await
    }

    /// Stops keeping an order up to date (a watched address still lists it).
    pub async fn untrack(&self, order_id: impl Into<String>) -> Result<(), TrackerStopped> {
        self.send(Command::Untrack(order_id.into())).await
    }

    /// Keeps every order the gateway lists for `address` up to date.
    pub async fn watch_address(&self, address: impl Into<String>) -> Result<(), TrackerStopped> {
        self.send(Command::Watch(address.into())).await
    }

    /// Stops watching `address`.
    pub async fn unwatch_address(&self, address: impl Into<String>) -> Result<(), TrackerStopped> {
        self.send(Command::Unwatch(address.into())).await
    }

    /// Reads every watched address and every unfinished order now (after any pause a `Retry-After` asked for).
    pub async fn refresh_now(&self) -> Result<(), TrackerStopped> {
        self.send(Command::RefreshNow).await
    }

    /// Another receiver of the events, from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<TrackerEvent> {
        self.events.subscribe()
    }

    /// Stops the tracker (a read in flight is abandoned) and waits for its task to end. Harmless when it has
    /// stopped already.
    pub async fn shutdown(&self) {
        let _ = self.commands.send(Command::Shutdown).await;
        let task = self.task.lock().await.take();
        if let Some(task) = task {
            let _ = task.await;
        }
    }
}

/// Applies a command; `false` when the tracker should stop.
fn apply(
    state: &mut State,
    command: Option<Command>,
    events: &broadcast::Sender<TrackerEvent>,
) -> bool {
    let now = Instant::now();
    match command {
        None | Some(Command::Shutdown) => return false,
        Some(Command::Track(order)) => publish(events, state.track(order, now)),
        Some(Command::Untrack(id)) => state.untrack(&id),
        Some(Command::Watch(address)) => state.watch(&address, now),
        Some(Command::Unwatch(address)) => state.unwatch(&address),
        Some(Command::RefreshNow) => state.refresh_now(now),
        Some(Command::NextCheck(id, reply)) => {
            let _ = reply.send(state.next_check(&id, now));
        }
        #[cfg(test)]
        Some(Command::Crash) => panic!("the tracker was asked to crash"),
    }
    true
}

fn publish(events: &broadcast::Sender<TrackerEvent>, list: Vec<TrackerEvent>) {
    for event in list {
        // No receiver is not an error: the events of this moment are simply not wanted.
        let _ = events.send(event);
    }
}

/// What the tracker task works on, kept outside it so that a restart after a panic goes on with the same orders,
/// addresses and commands.
struct Owned {
    commands: mpsc::Receiver<Command>,
    state: State,
}

/// How many restarts in a row are made at once; after that each waits [`RESTART_PAUSE`].
const QUICK_RESTARTS: u32 = 3;
/// The pause before a restart after [`QUICK_RESTARTS`] quick ones.
const RESTART_PAUSE: Duration = Duration::from_secs(30);

/// Runs the tracker, and restarts it if it panics (a bug, or an answer nothing foresaw), saying so through a
/// [`TrackerEvent::Restarted`] and the log: order updates never stop silently.
async fn supervise(
    client: Client,
    shared: Arc<Mutex<Owned>>,
    events: broadcast::Sender<TrackerEvent>,
) {
    let mut restarts: u32 = 0;
    loop {
        let task = tokio::spawn(run(client.clone(), shared.clone(), events.clone()));
        match task.await {
            Ok(()) => return,
            Err(e) if e.is_panic() => {
                restarts = restarts.saturating_add(1);
                let payload = e.into_panic();
                let reason = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "an internal error".to_owned());
                error!(%reason, restarts, "the order tracker stopped on an error; restarting it");
                let _ = events.send(TrackerEvent::Restarted {
                    error: format!(
                        "Order updates stopped because of an error in the app ({reason}) and were restarted; \
                         nothing about your orders changed."
                    ),
                });
                if restarts > QUICK_RESTARTS {
                    tokio::time::sleep(RESTART_PAUSE).await;
                }
            }
            Err(_) => return,
        }
    }
}

async fn run(client: Client, shared: Arc<Mutex<Owned>>, events: broadcast::Sender<TrackerEvent>) {
    let mut owned = shared.lock().await;
    let Owned { commands, state } = &mut *owned;
    let gateway = client
        .config()
        .base_url
        .host_str()
        .unwrap_or("?")
        .to_owned();
    loop {
        match state.next(Instant::now()) {
            Next::Sleep(until) => {
                let wake = async {
                    match until {
                        Some(at) => tokio::time::sleep_until(at.into()).await,
                        None => std::future::pending().await,
                    }
                };
                tokio::select! {
                    command = commands.recv() => {
                        if !apply(state, command, &events) {
                            break;
                        }
                    }
                    () = wake => {}
                }
            }
            Next::Read(job) => {
                let what = match &job {
                    Job::Address(key) => {
                        format!(
                            "orders of {}",
                            short_id(state.address_of(key).unwrap_or(key))
                        )
                    }
                    Job::Order(id) => format!("order {id}"),
                };
                let span = info_span!("tracker.read", %gateway, what = %what);
                let read = perform(client.clone(), state, job.clone()).instrument(span.clone());
                tokio::pin!(read);
                // Commands keep being applied while the read is in flight; a shutdown abandons it.
                let outcome = loop {
                    tokio::select! {
                        biased;
                        outcome = &mut read => break Some(outcome),
                        command = commands.recv() => {
                            if !apply(state, command, &events) {
                                break None;
                            }
                        }
                    }
                };
                let Some(outcome) = outcome else { break };
                let list = state.finish(&job, outcome, Instant::now());
                span.in_scope(|| log(&list));
                publish(&events, list);
            }
        }
    }
    debug!(%gateway, "order tracker stopped");
}

fn log(events: &[TrackerEvent]) {
    for event in events {
        match event {
            TrackerEvent::OrderChanged {
                order_id, order, ..
            } => {
                debug!(order = %order_id, status = order.status.key(), "order changed");
            }
            TrackerEvent::ReadFailed {
                error, retry_in, ..
            } => {
                warn!(%error, retry_in_ms = retry_in.as_millis() as u64, "read failed; the orders keep their last known state");
            }
            TrackerEvent::AddressListed { orders, .. } => debug!(orders, "listing read"),
            // Logged where it happens, in `supervise`.
            TrackerEvent::Restarted { .. } => {}
        }
    }
}

/// Makes the read. It owns what it needs, so commands can change the state while it is in flight.
fn perform(
    client: Client,
    state: &State,
    job: Job,
) -> impl Future<Output = Outcome> + Send + 'static {
    let address = match &job {
        Job::Address(key) => state.address_of(key).map(str::to_owned),
        Job::Order(_) => None,
    };
    async move {
        match job {
            Job::Address(key) => {
                let address = address.unwrap_or(key);
                let mut pager = client.orders_pager(&address, Some(PAGE_LIMIT));
                let mut orders = Vec::new();
                while let Some(page) = pager.next_page().await {
                    match page {
                        Ok(answer) => orders.extend(page_orders(answer.value.orders, &answer.raw)),
                        Err(end) => {
                            return Outcome::Listing {
                                orders,
                                end: Err(end),
                            };
                        }
                    }
                }
                Outcome::Listing {
                    orders,
                    end: Ok(()),
                }
            }
            Job::Order(id) => Outcome::Order(
                client
                    .get_order(&id)
                    .await
                    .map(|answer| (answer.value, answer.raw)),
            ),
        }
    }
}

/// Each order of a page with its own JSON as received (V2/V3 `{ orders: [...] }`, V1 a bare array).
fn page_orders(orders: Vec<OrderInfo>, raw: &Value) -> Vec<(OrderInfo, Value)> {
    let raws = raw
        .as_array()
        .or_else(|| raw.get("orders").and_then(Value::as_array));
    orders
        .into_iter()
        .enumerate()
        .map(|(i, order)| {
            let raw = raws
                .and_then(|r| r.get(i))
                .cloned()
                .unwrap_or_else(|| serde_json::to_value(&order).unwrap_or(Value::Null));
            (order, raw)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_event_channel_stays_small_at_rest() {
        // Every slot of the channel is allocated when the tracker starts, at the size of the largest event: an order
        // held inline made them 4096 × 672 bytes (2.75 MiB) of the app's memory before any order was read.
        let slot = std::mem::size_of::<TrackerEvent>();
        assert!(slot <= 128, "a TrackerEvent takes {slot} bytes");
        assert!(slot * EVENT_CAPACITY <= 512 * 1024);
    }

    #[tokio::test]
    async fn a_tracker_that_panics_is_restarted_says_so_and_keeps_its_orders() {
        let sim = gateway_sim::Sim::new()
            .spawn(std::net::SocketAddr::from((
                std::net::Ipv4Addr::LOCALHOST,
                0,
            )))
            .await
            .unwrap();
        let client = Client::new(gateway_client::ClientConfig::new(
            sim.base_url().parse().unwrap(),
        ))
        .unwrap();
        let (handle, mut events) = Tracker::spawn(client, Timing::default().scaled(0.01));
        handle
            .watch_address("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
            .await
            .unwrap();
        handle.send(Command::Crash).await.unwrap();
        let restarted = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                if let Ok(TrackerEvent::Restarted { error }) = events.recv().await {
                    return error;
                }
            }
        })
        .await
        .expect("a Restarted event");
        assert!(
            restarted.contains("asked to crash") && restarted.contains("restarted"),
            "{restarted}"
        );
        // Still running, with its commands and its watched address: it answers, and crashes are survived again.
        handle.refresh_now().await.unwrap();
        handle.send(Command::Crash).await.unwrap();
        tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                if let Ok(TrackerEvent::Restarted { .. }) = events.recv().await {
                    return;
                }
            }
        })
        .await
        .expect("a second Restarted event");
        handle.refresh_now().await.unwrap();
        handle.shutdown().await;
        assert!(handle.refresh_now().await.is_err(), "shut down for good");
    }
}
