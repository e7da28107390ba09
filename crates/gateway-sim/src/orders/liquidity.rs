//! The solver's liquidity: each (chain, token) pool, what orders reserve from it, and settling orders as time
//! passes.

use alloy_primitives::U256;
use serde_json::Value;

use super::{Book, DEFAULT_POOL_USD, Ending, Pool, Settled, amount_of, insufficient, pool_key};
use crate::catalogue::Catalogue;
use crate::pricing;
use crate::quote::QuoteError;

impl Book {
    /// The pool of (chain, token), made with its default balance on first use.
    pub(super) fn pool_mut(
        &mut self,
        catalogue: &Catalogue,
        chain: &str,
        token: &str,
    ) -> &mut Pool {
        self.pools.entry(pool_key(chain, token)).or_insert_with(|| {
            let balance = catalogue
                .find(chain, token)
                .and_then(pricing::price_of)
                .map_or(U256::ZERO, |p| {
                    pricing::amount_for_usd_micro(DEFAULT_POOL_USD * pricing::MICRO_PER_USD, p)
                });
            Pool {
                balance,
                reserved: U256::ZERO,
            }
        })
    }

    /// The pool of (chain, token) as it stands.
    pub fn pool(&mut self, catalogue: &Catalogue, chain: &str, token: &str) -> Pool {
        *self.pool_mut(catalogue, chain, token)
    }

    /// Sets the balance of a pool (what is reserved stays reserved).
    pub fn set_pool_balance(
        &mut self,
        catalogue: &Catalogue,
        chain: &str,
        token: &str,
        balance: U256,
    ) {
        self.pool_mut(catalogue, chain, token).balance = balance;
    }

    /// Pays out or releases the reservations of orders that have reached an ending by `now`, and records what each
    /// owes ([`Book::owe`]: a Bitcoin payment is made in the ledger at once). Says how many settled.
    pub fn settle(&mut self, now: u64) -> Settled {
        let mut settled = Settled::default();
        while let Some(&(at, i)) = self.index.open.first() {
            if at > now {
                break;
            }
            self.index.open.pop_first();
            let order = &self.orders[i];
            let paid = order.registration.is_some() && order.ending == Ending::Success;
            let (chain, token) = (order.dst.chain.clone(), order.dst.token.clone());
            let amount: U256 = order.dst.amount.parse().unwrap_or_default();
            let pool = self.pools.entry(pool_key(&chain, &token)).or_insert(Pool {
                balance: U256::ZERO,
                reserved: U256::ZERO,
            });
            pool.reserved = pool.reserved.saturating_sub(amount);
            if paid {
                pool.balance = pool.balance.saturating_sub(amount);
            }
            self.orders[i].settled = true;
            if self.orders[i].registration.is_some() {
                settled.finished += 1;
            } else {
                settled.expired += 1;
            }
            self.owe(i);
        }
        settled
    }

    /// Checks that a quote's output can be delivered (get-quote's liquidity check).
    pub fn check_liquidity(
        &mut self,
        catalogue: &Catalogue,
        quote: &Value,
        now: u64,
    ) -> Result<(), QuoteError> {
        self.settle(now);
        let Some((_, inner)) = quote.as_object().and_then(|m| m.iter().next()) else {
            return Ok(());
        };
        let Some(inner) = inner.as_object() else {
            return Ok(());
        };
        let (chain, token, amount) = amount_of(inner, "outputAmount")?;
        let pool = self.pool(catalogue, &chain, &token);
        if pool.available() < amount {
            return Err(insufficient(&chain, &token, pool));
        }
        Ok(())
    }
}
