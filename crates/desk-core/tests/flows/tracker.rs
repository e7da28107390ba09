//! The order tracker against gateway-sim over loopback.
//!
//! The tracker reads through a server that counts every request (the sim's own router behind a counting layer);
//! orders are created and registered through a second, uncounted server of the same sim. The tracker runs with its
//! timing scaled down (a minute lasts 0.2 s) and the sim's clock is advanced by hand to move orders to their
//! endings. Nothing asserts how fast anything happens: the tests wait (generously) for events and request counts.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use alloy_primitives::Address;
use axum::extract::Request;
use axum::middleware::Next;
use desk_core::tracker::{
    Timing, TrackedOrder, Tracker, TrackerEvent, TrackerHandle, TrackerStopped, Via,
};
use gateway_client::wire::{OrderStatus, RegisterTx};
use gateway_client::{ApiVersion, Client, ClientConfig, QuoteRequest};
use gateway_sim::faults::{EndpointMatch, Fault, FaultRule};
use gateway_sim::{RunningSim, Sim, SimConfig};
use tokio::sync::broadcast;

const USDT_BOB: &str = "0x05D032ac25d322df992303dCa074EE7392C117b9";
const USDT_ETH: &str = "0xdac17f958d2ee523a2206206994597c13d831ec7";
/// A token swap's estimated time in the sim: after this many seconds a registered swap has ended.
const SWAP_SECS: u64 = 120;
/// How long a test waits for something that should happen within a fraction of a second.
const PATIENCE: Duration = Duration::from_secs(30);

/// A checksummed EVM address made from one byte.
fn owner(n: u8) -> String {
    Address::repeat_byte(n).to_checksum(None)
}

/// Default timing with a minute lasting 0.2 s: normal 50 ms, fast 17 ms, slow 200 ms, errors 50 ms … 1 s.
fn quick() -> Timing {
    Timing::default().scaled(1.0 / 300.0)
}

/// Timing so slow that nothing is read again by itself during a test.
fn glacial() -> Timing {
    Timing::default().scaled(100.0)
}

/// Every request the tracker's server received: when it arrived, its path and the status answered.
#[derive(Clone, Default)]
struct Requests(Arc<Mutex<Vec<(Instant, String, u16)>>>);

impl Requests {
    fn all(&self) -> Vec<(Instant, String, u16)> {
        self.0.lock().unwrap().clone()
    }

    fn count(&self, f: impl Fn(&str) -> bool) -> usize {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter(|(_, p, _)| f(p))
            .count()
    }

    fn listings(&self, address: &str) -> usize {
        self.count(|p| p.contains("/get-orders/") && p.ends_with(address))
    }

    fn reads_of(&self, order_id: &str) -> usize {
        self.count(|p| p.contains("/get-order/") && p.ends_with(order_id))
    }

    async fn wait(&self, what: &str, f: impl Fn(&Self) -> bool) {
        let start = Instant::now();
        while !f(self) {
            assert!(start.elapsed() < PATIENCE, "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

struct Gateway {
    sim: Sim,
    /// Serves the orders' creation and registration; not counted.
    setup: Client,
    _setup_server: RunningSim,
    /// The tracker's server: every request counted.
    url: String,
    requests: Requests,
}

impl Gateway {
    async fn start() -> Self {
        let sim = Sim::with_config(SimConfig {
            access: gateway_sim::access::AccessConfig::unlimited(),
            admin: false,
            ..Default::default()
        })
        .unwrap();
        let setup_server = sim
            .clone()
            .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
            .await
            .unwrap();
        let requests = Requests::default();
        let log = requests.clone();
        let router = sim.router().layer(axum::middleware::from_fn(
            move |request: Request, next: Next| {
                let log = log.clone();
                async move {
                    let (at, path) = (Instant::now(), request.uri().path().to_owned());
                    let response = next.run(request).await;
                    let status = response.status().as_u16();
                    log.0.lock().unwrap().push((at, path, status));
                    response
                }
            },
        ));
        let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .await
            .unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            axum::serve(
                listener,
                router.into_make_service_with_connect_info::<SocketAddr>(),
            )
            .await
        });
        Self {
            sim,
            setup: client(&setup_server.base_url(), ApiVersion::V3),
            _setup_server: setup_server,
            url,
            requests,
        }
    }

    fn tracker_client(&self, version: ApiVersion) -> Client {
        client(&self.url, version)
    }

    /// A token swap (bob USDT → ethereum USDT) for `owner`, its recipient and owner; the amount's last digits choose
    /// the ending (…404 fails, …808 is refunded, else it succeeds).
    async fn swap(&self, owner: &str, amount: &str) -> String {
        let mut request =
            QuoteRequest::new(("bob", USDT_BOB), ("ethereum", USDT_ETH), amount, owner);
        request.slippage_bps = 100;
        request.owner_address = Some(owner.to_owned());
        let quote = self.setup.get_quote(&request).await.unwrap().value;
        let created = self.setup.create_order(&quote).await.unwrap().value;
        created.order_id().to_owned()
    }

    async fn register(&self, order_id: &str, n: u8) {
        let hash = format!("0x{}", format!("{n:02x}").repeat(32));
        self.setup
            .register_tx(&RegisterTx::token_swap(order_id, hash, "bob"))
            .await
            .unwrap();
    }
}

fn client(url: &str, version: ApiVersion) -> Client {
    let mut config = ClientConfig::new(url.parse().unwrap());
    config.version = version;
    config.timeout = Duration::from_secs(10);
    Client::new(config).unwrap()
}

fn tracked(order_id: &str, owner: &str) -> TrackedOrder {
    TrackedOrder {
        order_id: order_id.to_owned(),
        addresses: vec![owner.to_owned()],
        registered_at: None,
        last_seen: None,
        expected: None,
    }
}

/// Every event received so far, and a way to wait for more.
struct Events {
    rx: broadcast::Receiver<TrackerEvent>,
    seen: Vec<TrackerEvent>,
}

impl Events {
    fn new(rx: broadcast::Receiver<TrackerEvent>) -> Self {
        Self {
            rx,
            seen: Vec::new(),
        }
    }

    fn drain(&mut self) {
        loop {
            match self.rx.try_recv() {
                Ok(event) => self.seen.push(event),
                Err(broadcast::error::TryRecvError::Empty) => return,
                Err(e) => panic!("events: {e}"),
            }
        }
    }

    async fn wait(&mut self, what: &str, f: impl Fn(&[TrackerEvent]) -> bool) {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        while !f(&self.seen) {
            match tokio::time::timeout_at(deadline, self.rx.recv()).await {
                Ok(Ok(event)) => self.seen.push(event),
                Ok(Err(e)) => panic!("events: {e}"),
                Err(_) => panic!("timed out waiting for {what}; events: {:#?}", self.seen),
            }
        }
    }

    /// The statuses published for `order_id`, in order.
    fn statuses(&self, order_id: &str) -> Vec<OrderStatus> {
        self.changes()
            .filter(|(id, _, _)| *id == order_id)
            .map(|(_, status, _)| status.clone())
            .collect()
    }

    fn changes(&self) -> impl Iterator<Item = (&str, &OrderStatus, &Via)> {
        self.seen.iter().filter_map(|e| match e {
            TrackerEvent::OrderChanged {
                order_id,
                order,
                via,
                ..
            } => Some((order_id.as_str(), &order.status, via)),
            _ => None,
        })
    }

    fn failures(&self) -> Vec<(String, String, Duration)> {
        self.seen
            .iter()
            .filter_map(|e| match e {
                TrackerEvent::ReadFailed {
                    what,
                    error,
                    retry_in,
                } => Some((what.clone(), error.clone(), *retry_in)),
                _ => None,
            })
            .collect()
    }
}

#[tokio::test]
async fn a_watched_address_lists_its_orders_and_only_uncovered_orders_are_read_alone() {
    let gateway = Gateway::start().await;
    let (a, b) = (owner(0xa1), owner(0xb2));
    let mut covered = Vec::new();
    for amount in ["50000123", "50000456", "50000789"] {
        covered.push(gateway.swap(&a, amount).await);
    }
    let alone = gateway.swap(&b, "50000321").await;
    // An order of the watched address that nobody tracks: the orders view shows it too.
    let untracked = gateway.swap(&a, "50000999").await;

    let (tracker, rx) = Tracker::spawn(gateway.tracker_client(ApiVersion::V3), quick());
    let mut events = Events::new(rx);
    tracker.watch_address(&a).await.unwrap();
    for id in &covered {
        tracker.track(tracked(id, &a)).await.unwrap();
    }
    tracker.track(tracked(&alone, &b)).await.unwrap();

    let mut everyone = covered.clone();
    everyone.extend([alone.clone(), untracked.clone()]);
    let expected = everyone.clone();
    events
        .wait("every order seen", move |seen| {
            expected.iter().all(|id| {
                seen.iter().any(
                    |e| matches!(e, TrackerEvent::OrderChanged { order_id, .. } if order_id == id),
                )
            })
        })
        .await;
    for (id, _, via) in events.changes() {
        if *id == alone {
            assert_eq!(*via, Via::Direct);
        } else {
            assert_eq!(*via, Via::Address(a.clone()), "{id}");
        }
    }
    assert!(
        events.seen.iter().any(
            |e| matches!(e, TrackerEvent::AddressListed { address, orders: 4 } if *address == a)
        )
    );

    // Several more rounds with nothing changing: no more events, and the covered orders are never read alone.
    let (listings, alone_reads) = (
        gateway.requests.listings(&a),
        gateway.requests.reads_of(&alone),
    );
    gateway
        .requests
        .wait(
            "five more listings and two more reads of the uncovered order",
            |r| r.listings(&a) >= listings + 5 && r.reads_of(&alone) >= alone_reads + 2,
        )
        .await;
    events.drain();
    for id in &everyone {
        assert_eq!(
            events.statuses(id).len(),
            1,
            "one event for {id}: {:#?}",
            events.seen
        );
    }
    for id in covered.iter().chain([&untracked]) {
        assert_eq!(
            gateway.requests.reads_of(id),
            0,
            "{id} is covered by the listing"
        );
    }
    assert_eq!(
        gateway
            .requests
            .count(|p| p.contains("/get-orders/") && !p.ends_with(&a)),
        0
    );

    // Untracked, the uncovered order is no longer read.
    tracker.untrack(&alone).await.unwrap();
    tracker.refresh_now().await.unwrap();
    let listings = gateway.requests.listings(&a);
    gateway
        .requests
        .wait("two more listings", |r| r.listings(&a) >= listings + 2)
        .await;
    let reads = gateway.requests.reads_of(&alone);
    gateway
        .requests
        .wait("two more listings", |r| r.listings(&a) >= listings + 4)
        .await;
    assert_eq!(gateway.requests.reads_of(&alone), reads);
    tracker.shutdown().await;
}

#[tokio::test]
async fn orders_reach_their_endings_once_and_finished_orders_are_not_read_again() {
    let gateway = Gateway::start().await;
    let (a, b) = (owner(0xa3), owner(0xb4));
    let mut endings = Vec::new();
    for (n, amount) in [(1u8, "50000123"), (2, "50000404"), (3, "50000808")] {
        let id = gateway.swap(&a, amount).await;
        gateway.register(&id, n).await;
        endings.push(id);
    }
    let alone = gateway.swap(&b, "50000555").await;
    gateway.register(&alone, 4).await;

    let (tracker, rx) = Tracker::spawn(gateway.tracker_client(ApiVersion::V3), quick());
    let mut events = Events::new(rx);
    tracker.watch_address(&a).await.unwrap();
    for id in &endings {
        tracker.track(tracked(id, &a)).await.unwrap();
    }
    tracker.track(tracked(&alone, &b)).await.unwrap();
    let all: Vec<String> = endings.iter().chain([&alone]).cloned().collect();
    let wanted = all.clone();
    events
        .wait("every order in progress", move |seen| {
            wanted.iter().all(|id| {
                seen.iter().any(
                    |e| matches!(e, TrackerEvent::OrderChanged { order_id, .. } if order_id == id),
                )
            })
        })
        .await;

    gateway.sim.clock().advance(SWAP_SECS);
    let wanted = all.clone();
    events
        .wait("every order finished", move |seen| {
            wanted.iter().all(|id| {
                seen.iter().any(|e| matches!(e, TrackerEvent::OrderChanged { order_id, order, .. } if order_id == id && order.status.is_terminal()))
            })
        })
        .await;
    let finals: Vec<&'static str> = endings
        .iter()
        .map(|id| events.statuses(id).last().unwrap().key())
        .collect();
    assert_eq!(finals, ["success", "failed", "refunded"]);
    assert_eq!(events.statuses(&alone).last().unwrap().key(), "success");

    // The finished uncovered order is not read again while the listing goes on; no event repeats.
    let reads = gateway.requests.reads_of(&alone);
    let listings = gateway.requests.listings(&a);
    gateway
        .requests
        .wait("three more listings", |r| r.listings(&a) >= listings + 3)
        .await;
    assert_eq!(gateway.requests.reads_of(&alone), reads);
    events.drain();
    for id in &all {
        assert_eq!(
            events.statuses(id).len(),
            2,
            "in progress, then the ending: {:#?}",
            events.seen
        );
    }
    tracker.shutdown().await;
}

#[tokio::test]
async fn failed_reads_are_reported_backed_off_and_never_shown_as_failed_swaps() {
    let gateway = Gateway::start().await;
    let (a, b) = (owner(0xa5), owner(0xb6));
    let watched = gateway.swap(&a, "50000123").await;
    gateway.register(&watched, 5).await;
    let alone = gateway.swap(&b, "50000777").await;
    gateway.register(&alone, 6).await;

    let (tracker, rx) = Tracker::spawn(gateway.tracker_client(ApiVersion::V3), quick());
    let mut events = Events::new(rx);
    tracker.watch_address(&a).await.unwrap();
    tracker.track(tracked(&watched, &a)).await.unwrap();
    tracker.track(tracked(&alone, &b)).await.unwrap();
    let (w, l) = (watched.clone(), alone.clone());
    events
        .wait("both orders in progress", move |seen| {
            [&w, &l].iter().all(|id| {
                seen.iter().any(
                    |e| matches!(e, TrackerEvent::OrderChanged { order_id, .. } if order_id == *id),
                )
            })
        })
        .await;

    // Two 503s on get-orders: two read failures, the second waiting twice as long as the first.
    let faults = gateway.sim.faults();
    faults
        .add(FaultRule::new(EndpointMatch::GetOrders, Fault::Status { code: 503 }).times(2))
        .unwrap();
    events
        .wait("two read failures", |seen| {
            seen.iter()
                .filter(|e| matches!(e, TrackerEvent::ReadFailed { .. }))
                .count()
                >= 2
        })
        .await;
    let failures = events.failures();
    assert!(failures[0].0.contains(&a), "{failures:?}");
    assert!(failures[0].1.contains("503"), "{failures:?}");
    assert_eq!(failures[0].2, quick().error_base);
    assert_eq!(
        failures[1].2,
        quick().error_base * 2,
        "exponential back-off"
    );

    // A 429 asking for 1 s: nothing at all is read for that second.
    faults
        .add(
            FaultRule::new(
                EndpointMatch::GetOrders,
                Fault::RateLimit {
                    retry_after_secs: 1,
                    limit_per_minute: 120,
                },
            )
            .times(1),
        )
        .unwrap();
    events
        .wait("the rate limit's read failure", |seen| {
            seen.iter().any(|e| matches!(e, TrackerEvent::ReadFailed { retry_in, .. } if *retry_in >= Duration::from_secs(1)))
        })
        .await;
    let listings = gateway.requests.listings(&a);
    gateway
        .requests
        .wait("reads after the rate limit", |r| {
            r.listings(&a) >= listings + 2
        })
        .await;
    let requests = gateway.requests.all();
    let limited_at = requests
        .iter()
        .find(|(_, _, status)| *status == 429)
        .unwrap()
        .0;
    let next = requests
        .iter()
        .filter(|(at, _, _)| *at > limited_at)
        .map(|(at, _, _)| *at)
        .min()
        .unwrap();
    assert!(
        next - limited_at >= Duration::from_millis(990),
        "the next read came {:?} after the 429",
        next - limited_at
    );

    // Tracking resumes: both orders complete, and no failure was ever published as a failed order.
    gateway.sim.clock().advance(SWAP_SECS);
    let (w, l) = (watched.clone(), alone.clone());
    events
        .wait("both orders completed", move |seen| {
            [&w, &l].iter().all(|id| {
                seen.iter().any(|e| matches!(e, TrackerEvent::OrderChanged { order_id, order, .. } if order_id == *id && order.status.is_terminal()))
            })
        })
        .await;
    for id in [&watched, &alone] {
        let keys: Vec<&str> = events.statuses(id).iter().map(|s| s.key()).collect();
        assert_eq!(keys, ["inProgress", "success"], "{id}");
    }
    for (_, error, _) in events.failures() {
        assert!(!error.to_lowercase().contains("swap"), "{error}");
    }
    tracker.shutdown().await;
}

#[tokio::test]
async fn new_addresses_new_orders_and_refresh_now_are_read_at_once() {
    let gateway = Gateway::start().await;
    let (a, b) = (owner(0xa7), owner(0xb8));
    let first = gateway.swap(&a, "50000123").await;
    gateway.register(&first, 7).await;
    let later = gateway.swap(&b, "50000123").await;
    gateway.register(&later, 8).await;

    // With this timing nothing is read again by itself for 25 minutes.
    let (tracker, rx) = Tracker::spawn(gateway.tracker_client(ApiVersion::V3), glacial());
    let mut events = Events::new(rx);
    tracker.watch_address(&a).await.unwrap();
    let id = first.clone();
    events
        .wait("the new address's order", move |seen| {
            seen.iter().any(
                |e| matches!(e, TrackerEvent::OrderChanged { order_id, .. } if *order_id == id),
            )
        })
        .await;
    tracker.track(tracked(&later, &b)).await.unwrap();
    let id = later.clone();
    events
        .wait("the new order", move |seen| {
            seen.iter().any(|e| matches!(e, TrackerEvent::OrderChanged { order_id, via: Via::Direct, .. } if *order_id == id))
        })
        .await;

    gateway.sim.clock().advance(SWAP_SECS);
    tracker.refresh_now().await.unwrap();
    let (f, l) = (first.clone(), later.clone());
    events
        .wait("both endings after refresh now", move |seen| {
            [&f, &l].iter().all(|id| {
                seen.iter().any(|e| matches!(e, TrackerEvent::OrderChanged { order_id, order, .. } if order_id == *id && order.status.is_terminal()))
            })
        })
        .await;
    assert_eq!(gateway.requests.listings(&a), 2);
    assert_eq!(gateway.requests.reads_of(&later), 2);
    tracker.shutdown().await;
}

#[tokio::test]
async fn near_its_estimate_an_ending_is_noticed_without_a_refresh_and_far_from_it_nothing_is_read()
{
    let gateway = Gateway::start().await;
    let (a, b) = (owner(0xa9), owner(0xba));
    let near = gateway.swap(&a, "50000123").await;
    gateway.register(&near, 9).await;
    let far = gateway.swap(&b, "50000123").await;
    gateway.register(&far, 10).await;

    // Nothing is read again by itself for 25 minutes, except near an order's estimate, where it is read every 20 ms.
    let timing = Timing {
        near: Duration::from_millis(20),
        ..glacial()
    };
    let (tracker, rx) = Tracker::spawn(gateway.tracker_client(ApiVersion::V3), timing);
    let mut events = Events::new(rx);
    let estimate = Duration::from_secs(SWAP_SECS);
    // The app registered one 2 min ago with a 2 min estimate (its window: from 1 min to 7 min after the
    // registration), the other just now with an hour's (its window opens in 45 min).
    tracker
        .track(TrackedOrder {
            expected: Some(desk_core::tracker::Expected {
                since: std::time::SystemTime::now() - estimate,
                estimate,
            }),
            ..tracked(&near, &a)
        })
        .await
        .unwrap();
    tracker
        .track(TrackedOrder {
            expected: Some(desk_core::tracker::Expected {
                since: std::time::SystemTime::now(),
                estimate: Duration::from_secs(3600),
            }),
            ..tracked(&far, &b)
        })
        .await
        .unwrap();
    let (n, f) = (near.clone(), far.clone());
    events
        .wait("both orders read once", move |seen| {
            [&n, &f].iter().all(|id| {
                seen.iter().any(
                    |e| matches!(e, TrackerEvent::OrderChanged { order_id, .. } if order_id == *id),
                )
            })
        })
        .await;
    // The one near its estimate is read again and again with nothing new; the other waits for its window.
    let n = near.clone();
    gateway
        .requests
        .wait("rereads of the order near its estimate", move |r| {
            r.reads_of(&n) >= 3
        })
        .await;
    assert!(tracker.next_check(&near).await.unwrap().unwrap() <= timing.near);
    assert!(tracker.next_check(&far).await.unwrap().unwrap() > timing.near);

    // The gateway ends both; no refresh is asked for. The one near its estimate is noticed.
    gateway.sim.clock().advance(SWAP_SECS);
    let n = near.clone();
    events
        .wait("the ending near the estimate, unasked", move |seen| {
            seen.iter().any(|e| matches!(e, TrackerEvent::OrderChanged { order_id, order, .. } if *order_id == n && order.status.is_terminal()))
        })
        .await;
    assert_eq!(
        gateway.requests.reads_of(&far),
        1,
        "far from its estimate: not read again"
    );
    assert_eq!(
        tracker.next_check(&near).await.unwrap(),
        None,
        "ended: not read again"
    );
    tracker.shutdown().await;
}

#[tokio::test]
async fn a_restart_with_last_seen_reports_only_real_changes() {
    let gateway = Gateway::start().await;
    let a = owner(0xa9);
    let (same, moved) = (
        gateway.swap(&a, "50000123").await,
        gateway.swap(&a, "50000456").await,
    );
    gateway.register(&same, 9).await;
    gateway.register(&moved, 10).await;
    let reader = gateway.tracker_client(ApiVersion::V3);
    let before_same = reader.get_order(&same).await.unwrap().raw;
    let before_moved = reader.get_order(&moved).await.unwrap().raw;
    gateway.sim.clock().advance(SWAP_SECS);
    // `same` finished before the restart and was seen finished; `moved` was last seen in progress.
    let after_same = reader.get_order(&same).await.unwrap().raw;
    assert_ne!(before_same, after_same);

    let (tracker, rx) = Tracker::spawn(reader, quick());
    let mut events = Events::new(rx);
    tracker.watch_address(&a).await.unwrap();
    tracker
        .track(TrackedOrder {
            last_seen: Some(after_same),
            ..tracked(&same, &a)
        })
        .await
        .unwrap();
    tracker
        .track(TrackedOrder {
            last_seen: Some(before_moved),
            ..tracked(&moved, &a)
        })
        .await
        .unwrap();
    let id = moved.clone();
    events
        .wait("the order that moved", move |seen| {
            seen.iter().any(
                |e| matches!(e, TrackerEvent::OrderChanged { order_id, .. } if *order_id == id),
            )
        })
        .await;
    let listings = gateway.requests.listings(&a);
    gateway
        .requests
        .wait("three more listings", |r| r.listings(&a) >= listings + 3)
        .await;
    events.drain();
    assert!(events.statuses(&same).is_empty(), "{:#?}", events.seen);
    assert_eq!(events.statuses(&moved).len(), 1);
    tracker.shutdown().await;
}

#[tokio::test]
async fn v1_listings_work_as_one_page() {
    let gateway = Gateway::start().await;
    let a = owner(0xaa);
    let ids = [
        gateway.swap(&a, "50000123").await,
        gateway.swap(&a, "50000456").await,
    ];
    let (tracker, rx) = Tracker::spawn(gateway.tracker_client(ApiVersion::V1), quick());
    let mut events = Events::new(rx);
    tracker.watch_address(&a).await.unwrap();
    let wanted = ids.clone();
    events
        .wait("both orders through the V1 listing", move |seen| {
            wanted.iter().all(|id| {
                seen.iter().any(|e| matches!(e, TrackerEvent::OrderChanged { order_id, via: Via::Address(_), .. } if order_id == id))
            })
        })
        .await;
    assert!(gateway.requests.count(|p| p.starts_with("/v1/get-orders/")) >= 1);
    tracker.shutdown().await;
}

#[tokio::test]
async fn shutdown_ends_the_task_and_its_reads() {
    let gateway = Gateway::start().await;
    let a = owner(0xab);
    gateway.swap(&a, "50000123").await;
    let (tracker, _rx) = Tracker::spawn(gateway.tracker_client(ApiVersion::V3), quick());
    tracker.watch_address(&a).await.unwrap();
    gateway
        .requests
        .wait("two listings", |r| r.listings(&a) >= 2)
        .await;
    let other: TrackerHandle = tracker.clone();
    tracker.shutdown().await;
    let after = gateway.requests.all().len();
    tokio::time::sleep(quick().slow_max * 3).await;
    assert_eq!(
        gateway.requests.all().len(),
        after,
        "no read after shutdown"
    );
    assert_eq!(other.refresh_now().await, Err(TrackerStopped));
    assert_eq!(other.track(tracked("x", &a)).await, Err(TrackerStopped));
    other.shutdown().await;
}
