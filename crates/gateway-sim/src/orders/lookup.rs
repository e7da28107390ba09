//! The reads of the book: its indexes (by id, transaction, address, quote), get-order and get-orders with their
//! sealed cursors.

use gateway_client::ApiVersion;
use serde_json::{Value, json};

use super::{
    Book, DEFAULT_PAGE_SIZE, Index, MAX_PAGE_SIZE, Order, err, normalize_address, normalize_tx,
};
use crate::quote::QuoteError;
use crate::signing::QuoteSigner;

impl Book {
    /// Rebuilds the indexes after loading.
    pub(super) fn reindex(&mut self) {
        let mut index = Index::default();
        for (i, order) in self.orders.iter().enumerate() {
            index.by_id.insert(order.id.clone(), i);
            index.by_quote.insert(order.quote_digest.clone(), i);
            if let Some(reg) = &order.registration {
                index.by_tx.insert(normalize_tx(&reg.tx_hash), i);
            }
            for address in &order.addresses {
                index.by_address.entry(address.clone()).or_default().push(i);
            }
            if !order.settled {
                index.open.insert((order.settles_at(), i));
            }
        }
        self.index = index;
    }

    pub(super) fn insert(&mut self, order: Order) {
        let i = self.orders.len();
        self.index.by_id.insert(order.id.clone(), i);
        self.index.by_quote.insert(order.quote_digest.clone(), i);
        for address in &order.addresses {
            self.index
                .by_address
                .entry(address.clone())
                .or_default()
                .push(i);
        }
        self.index.open.insert((order.settles_at(), i));
        self.orders.push(order);
    }

    /// get-order: by order id, source Bitcoin txid or source transaction hash.
    pub fn get_order(&mut self, id: &str, version: ApiVersion, now: u64) -> Option<Value> {
        self.settle(now);
        let i = self
            .index
            .by_id
            .get(id)
            .or_else(|| self.index.by_tx.get(&normalize_tx(id)))?;
        Some(self.orders[*i].to_json(version, now))
    }

    /// The order with id `id`.
    pub fn order(&self, id: &str) -> Option<&Order> {
        self.index.by_id.get(id).map(|&i| &self.orders[i])
    }

    /// Every order, oldest first.
    pub fn orders(&self) -> &[Order] {
        &self.orders
    }

    /// get-orders: the orders of `address`, newest first; V1 gets them all as an array, V2/V3 a page.
    pub fn get_orders(
        &mut self,
        signer: &QuoteSigner,
        address: &str,
        version: ApiVersion,
        cursor: Option<&str>,
        limit: Option<&str>,
        now: u64,
    ) -> Result<Value, QuoteError> {
        self.settle(now);
        let key = normalize_address(address);
        let list: &[usize] = self.index.by_address.get(&key).map_or(&[], Vec::as_slice);
        if version == ApiVersion::V1 {
            return Ok(Value::Array(
                list.iter()
                    .rev()
                    .map(|&i| self.orders[i].to_json(version, now))
                    .collect(),
            ));
        }
        let limit = match limit {
            None => DEFAULT_PAGE_SIZE,
            Some(text) => match text.parse::<usize>() {
                Ok(n) if n >= 1 => n.min(MAX_PAGE_SIZE),
                _ => {
                    return Err(err(
                        "INVALID_REQUEST",
                        format!("limit {text:?} must be a whole number of at least 1"),
                    ));
                }
            },
        };
        let before = match cursor.filter(|c| !c.is_empty()) {
            None => usize::MAX,
            Some(c) => open_cursor(signer, c, &key)
                .ok_or_else(|| err("INVALID_CURSOR", "this cursor was not issued for this address by this gateway; start again without a cursor"))?,
        };
        let mut page: Vec<usize> = list
            .iter()
            .rev()
            .copied()
            .filter(|&i| i < before)
            .take(limit + 1)
            .collect();
        let more = page.len() > limit;
        page.truncate(limit);
        let next = match (more, page.last()) {
            (true, Some(&last)) => json!(seal_cursor(signer, &key, last)),
            _ => Value::Null,
        };
        Ok(json!({
            "orders": page.iter().map(|&i| self.orders[i].to_json(version, now)).collect::<Vec<_>>(),
            "nextCursor": next,
        }))
    }
}

fn seal_cursor(signer: &QuoteSigner, address: &str, before: usize) -> String {
    signer.seal(&json!({"a": address, "b": before}))
}

fn open_cursor(signer: &QuoteSigner, cursor: &str, address: &str) -> Option<usize> {
    let payload = signer.open(cursor)?;
    if payload["a"].as_str() != Some(address) {
        return None;
    }
    payload["b"].as_u64().and_then(|b| usize::try_from(b).ok())
}
