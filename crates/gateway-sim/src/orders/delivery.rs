//! What settled orders owe and what was delivered: a successful order's output to its recipient, a refunded order's
//! input back to whoever gets the refund; and the orders still under way, for moving the clock just far enough.

use serde::{Deserialize, Serialize};

use super::{Book, Ending, Leg, Order, synthetic_tx_hash};

/// Why something is delivered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum DeliveryKind {
    /// The output of an order that succeeded, to its recipient on the destination chain.
    Output,
    /// The input of an order that was refunded, back on the source chain.
    Refund,
}

/// A payment the gateway makes when an order settles: what, to whom, on which chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delivery {
    /// The order it settles.
    pub order_id: String,
    /// An output or a refund.
    pub kind: DeliveryKind,
    /// The chain's slug.
    pub chain: String,
    /// The token's address on that chain (the all-zero address for Bitcoin or a native coin).
    pub token: String,
    /// Who receives it.
    pub to: String,
    /// The amount in the token's smallest unit, as a decimal string.
    pub amount: String,
    /// The transaction the order's status names for it (its payout's or refund's hash).
    pub tx_hash: String,
}

/// What one settling did: how many orders reached their ending.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Settled {
    /// Registered orders that ended (success, failed or refunded).
    pub finished: usize,
    /// Orders whose transaction was never registered, expired.
    pub expired: usize,
}

impl Settled {
    /// Whether anything settled.
    pub fn any(&self) -> bool {
        self.finished + self.expired > 0
    }
}

/// The orders under way at a time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pending {
    /// Registered orders that have not reached their ending.
    pub registered: usize,
    /// When the last of them ends, unix seconds on the gateway's clock (`None` when there are none).
    pub last_end: Option<u64>,
    /// Orders still waiting for their transaction to be registered (they expire when the clock passes their window).
    pub awaiting_payment: usize,
}

impl Delivery {
    fn of(order: &Order, kind: DeliveryKind, leg: &Leg, to: &str, label: &str) -> Self {
        Self {
            order_id: order.id.clone(),
            kind,
            chain: leg.chain.clone(),
            token: leg.token.clone(),
            to: to.to_owned(),
            amount: leg.amount.clone(),
            tx_hash: synthetic_tx_hash(&leg.chain, label, &order.id),
        }
    }
}

impl Book {
    /// Records what the order at `i`, just settled, owes: nothing when it was never registered or failed, or when
    /// nobody to pay is known. A Bitcoin payment is made at once in the ledger; another chain's waits for its node.
    pub(super) fn owe(&mut self, i: usize) {
        let order = &self.orders[i];
        if order.registration.is_none()
            || self.delivered.contains_key(&order.id)
            || self.owed.values().any(|owed| owed.contains_key(&order.id))
        {
            return;
        }
        let delivery = match (order.ending, &order.recipient, &order.refund_to) {
            (Ending::Success, Some(to), _) => {
                Delivery::of(order, DeliveryKind::Output, &order.dst, to, "payout")
            }
            (Ending::Refunded, _, Some(to)) => {
                Delivery::of(order, DeliveryKind::Refund, &order.src, to, "refund")
            }
            _ => return,
        };
        if delivery.chain == "bitcoin" {
            let sats = delivery.amount.parse().unwrap_or(0);
            if self.pay_bitcoin(&delivery.to, sats, &delivery.tx_hash) {
                self.delivered.insert(delivery.order_id.clone(), delivery);
            }
            return;
        }
        self.owed
            .entry(delivery.chain.clone())
            .or_default()
            .insert(delivery.order_id.clone(), delivery);
    }

    /// What is owed on `chain`, oldest order id first.
    pub fn owed_on(&self, chain: &str) -> Vec<Delivery> {
        self.owed
            .get(chain)
            .map(|owed| owed.values().cloned().collect())
            .unwrap_or_default()
    }

    /// How many deliveries are owed on all chains (waiting for a node, or for the next try).
    pub fn owed_count(&self) -> usize {
        self.owed.values().map(|owed| owed.len()).sum()
    }

    /// Records that the owed `delivery` was made: it moves from owed to delivered. `false` when it was not owed
    /// (already delivered, or never owed).
    pub fn mark_delivered(&mut self, delivery: &Delivery) -> bool {
        let Some(owed) = self.owed.get_mut(&delivery.chain) else {
            return false;
        };
        let Some(made) = owed.remove(&delivery.order_id) else {
            return false;
        };
        if owed.is_empty() {
            self.owed.remove(&delivery.chain);
        }
        self.delivered.insert(made.order_id.clone(), made);
        true
    }

    /// How many outputs and refunds have been delivered in all.
    pub fn delivered_count(&self) -> usize {
        self.delivered.len()
    }

    /// What was delivered for the order `order_id`, if anything.
    pub fn delivery(&self, order_id: &str) -> Option<&Delivery> {
        self.delivered.get(order_id)
    }

    /// What is owed for the order `order_id`, if anything (waiting for its chain's node).
    pub fn owed_for(&self, order_id: &str) -> Option<&Delivery> {
        self.owed.values().find_map(|owed| owed.get(order_id))
    }

    /// The orders under way at `now` (call after [`Self::settle`] at `now`): the registered ones not ended, and when
    /// the last of them ends; and those still waiting for their transaction.
    pub fn pending(&self, now: u64) -> Pending {
        let mut pending = Pending::default();
        for &(at, i) in &self.index.open {
            if at <= now {
                continue;
            }
            if self.orders[i].registration.is_some() {
                pending.registered += 1;
                pending.last_end = pending.last_end.max(Some(at));
            } else {
                pending.awaiting_payment += 1;
            }
        }
        pending
    }

    /// How far the gateway's clock has been moved on, seconds, as last recorded.
    pub fn clock_offset(&self) -> u64 {
        self.clock_offset
    }

    /// Records how far the gateway's clock has been moved on (kept in the state file).
    pub fn set_clock_offset(&mut self, secs: u64) {
        self.clock_offset = self.clock_offset.max(secs);
    }
}
