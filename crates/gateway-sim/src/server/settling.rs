//! The gateway's clock moved on in process (the app's Sandbox control, the admin endpoint), and what settled orders
//! owe delivered on the local chains that have a node.
//!
//! V4's offramps and token swaps are found on their chain first ([`Sim::read_chains`]), at the same moments.
//!
//! Delivery is tried whenever orders are read (get-order, get-orders: before the answer, so an order shown as
//! `success` has its output on the chain already), when the clock is moved, and when the Sandbox starts a chain's node
//! or hands its URL out ([`Sim::deliver_owed`]). What is owed on a chain without a node waits for it; a chain whose
//! node failed is left alone for [`RETRY_AFTER`] before the next try.

use std::time::{Duration, Instant};

use tracing::{info, warn};

use super::Sim;
use crate::orders::{Delivery, Settled};

/// How long a chain whose node refused or could not be reached is not tried again.
pub const RETRY_AFTER: Duration = Duration::from_secs(30);

/// The gateway's clock, and what its orders under way need.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClockReading {
    /// The gateway's time, unix seconds.
    pub now: u64,
    /// How far its clock has been moved on in all, seconds.
    pub advanced_secs: u64,
    /// Registered orders not yet at their ending.
    pub pending: usize,
    /// How far the clock must move for every one of them to end, seconds (0 when none is pending).
    pub finish_in_secs: u64,
    /// Orders still waiting for their transaction (they expire when the clock passes their window).
    pub awaiting_payment: usize,
    /// Outputs and refunds owed on chains whose node is not running yet (delivered when it starts).
    pub undelivered: usize,
}

/// What moving the clock did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClockMoved {
    /// How far it moved, seconds.
    pub moved_secs: u64,
    /// Registered orders that reached their ending on the way (success, failed or refunded).
    pub finished: usize,
    /// Unpaid orders whose window passed on the way.
    pub expired: usize,
    /// Outputs and refunds delivered on a local chain right after (Bitcoin's included).
    pub delivered: usize,
    /// The clock afterwards.
    pub after: ClockReading,
}

/// What a delivery pass did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Delivered {
    /// Deliveries made on a chain's node in this pass.
    pub minted: usize,
    /// Orders settled by this pass (Bitcoin payments among them are made in the ledger as they settle).
    pub settled: Settled,
}

impl Sim {
    /// The clock and the orders under way, after settling what has ended.
    pub fn clock_reading(&self) -> ClockReading {
        let now = self.clock.now();
        let mut book = self.lock();
        book.settle(now);
        let pending = book.pending(now);
        ClockReading {
            now,
            advanced_secs: self.clock.offset(),
            pending: pending.registered,
            finish_in_secs: pending.last_end.map_or(0, |end| end.saturating_sub(now)),
            awaiting_payment: pending.awaiting_payment,
            undelivered: book.owed_count(),
        }
    }

    /// The clock and the orders under way as a person or the admin endpoint asks for them: V4's chains read first, so
    /// that an order paid on its chain and not yet read by anyone counts as under way (and "finish pending orders"
    /// moves the clock far enough for it), as it would on the service, which reads its chains all along.
    pub async fn read_clock(&self) -> ClockReading {
        self.read_chains().await;
        self.clock_reading()
    }

    /// Moves the clock on by `secs`, kept in the state file (a restart does not move it back), settles what ends on
    /// the way, and delivers what they owe on the chains that have a node.
    ///
    /// V4's chains are read before the clock moves: a transaction already mined was there before the move, and the
    /// real gateway, which reads its chains all along, would have found it then. Read only after, an order paid but
    /// not yet read by anyone would start its timeline at the moved time, or expire unpaid on the way.
    pub async fn advance_clock(&self, secs: u64) -> ClockMoved {
        self.read_chains().await;
        // What had already ended is settled first, so that the counts are of this move.
        let before = self.clock.now();
        let (_, snapshot) = self.change_if(|book| book.settle(before).any());
        self.save(snapshot).await;
        let delivered_before = self.delivered_count();
        let now = self.clock.advance(secs);
        let offset = self.clock.offset();
        let (settled, snapshot) = self.change(|book, _| {
            book.set_clock_offset(offset);
            book.settle(now)
        });
        self.save(snapshot).await;
        info!(
            secs,
            now,
            finished = settled.finished,
            expired = settled.expired,
            "clock advanced"
        );
        self.deliver_owed().await;
        ClockMoved {
            moved_secs: now.saturating_sub(before),
            finished: settled.finished,
            expired: settled.expired,
            delivered: self.delivered_count().saturating_sub(delivered_before),
            after: self.clock_reading(),
        }
    }

    /// Settles what has ended by now and delivers what is owed on every chain that has a node (a chain whose node
    /// failed lately waits [`RETRY_AFTER`]). Each delivery is made once: passes take turns, and a delivery leaves
    /// the owed list (into the state file) as soon as its node took it.
    pub async fn deliver_owed(&self) -> Delivered {
        self.read_chains().await;
        let now = self.clock.now();
        let mut settled = Settled::default();
        let (_, snapshot) = self.change_if(|book| {
            settled = book.settle(now);
            settled.any()
        });
        self.save(snapshot).await;
        let mut result = Delivered { minted: 0, settled };
        if self.due().is_empty() {
            return result;
        }
        let _turn = self.delivering.lock().await;
        // Read again in this turn: the pass before may have delivered them.
        let due = self.due();
        let mut made: Vec<Delivery> = Vec::new();
        for (url, delivery) in due {
            if self.resting(&delivery.chain) {
                continue;
            }
            match crate::delivery::deliver(&url, &delivery).await {
                Ok(()) => {
                    info!(order = %delivery.order_id, chain = %delivery.chain, to = %delivery.to,
                        amount = %delivery.amount, kind = ?delivery.kind, "delivered on the local chain");
                    made.push(delivery);
                }
                Err(e) => {
                    warn!(order = %delivery.order_id, chain = %delivery.chain, error = %e,
                        "not delivered; tried again later");
                    self.rest(&delivery.chain);
                }
            }
        }
        if !made.is_empty() {
            let (count, snapshot) =
                self.change(|book, _| made.iter().filter(|d| book.mark_delivered(d)).count());
            self.save(snapshot).await;
            result.minted = count;
        }
        result
    }

    /// V4: looks on each source chain that has a node for the transactions of the orders nobody registers (offramps
    /// and token swaps), and records those found ([`crate::chain_read`]). Returns how many were found.
    pub async fn read_chains(&self) -> usize {
        let now = self.clock.now();
        let waiting = self.lock().awaiting_chain_reading(now);
        let mut found = 0;
        for order in waiting {
            let Some(url) = self.config.chain_nodes.url(&order.src.chain) else {
                continue;
            };
            let Some(hash) = crate::chain_read::find_payment(&url, &order).await else {
                continue;
            };
            let (recorded, snapshot) =
                self.change(|book, _| book.record_found(&order.id, &hash, now));
            if recorded {
                self.save(snapshot).await;
                info!(order = %order.id, chain = %order.src.chain, tx = %hash,
                    "found the order's transaction on its chain (V4)");
                found += 1;
            }
        }
        found
    }

    /// What was delivered for the order `order_id` (an output or a refund), if anything.
    pub fn delivery(&self, order_id: &str) -> Option<Delivery> {
        self.lock().delivery(order_id).cloned()
    }

    /// What is owed for the order `order_id` and not delivered yet (its chain has no node).
    pub fn owed(&self, order_id: &str) -> Option<Delivery> {
        self.lock().owed_for(order_id).cloned()
    }

    /// The owed deliveries on chains that have a node, with that node's URL.
    fn due(&self) -> Vec<(String, Delivery)> {
        let chains = self.config.chain_nodes.chains();
        let book = self.lock();
        chains
            .into_iter()
            .filter_map(|chain| self.config.chain_nodes.url(&chain).map(|url| (chain, url)))
            .flat_map(|(chain, url)| {
                book.owed_on(&chain)
                    .into_iter()
                    .map(move |d| (url.clone(), d))
            })
            .collect()
    }

    fn delivered_count(&self) -> usize {
        self.lock().delivered_count()
    }

    /// Whether `chain` failed lately and is not tried yet.
    fn resting(&self, chain: &str) -> bool {
        self.failed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(chain)
            .is_some_and(|at| at.elapsed() < RETRY_AFTER)
    }

    fn rest(&self, chain: &str) {
        self.failed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(chain.to_owned(), Instant::now());
    }
}
