//! The offramp and token-swap quotes this gateway issued, remembered (bounded) so create-order can tell one from a
//! forgery and refuse a second order from the same issue.

use std::collections::VecDeque;

use gateway_client::ApiVersion;
use gateway_client::wire::RouteKind;
use serde_json::Value;

use super::{
    Book, ISSUED_MEMORY_SECS, Issued, MAX_REMEMBERED_QUOTES, MAX_UNUSED_ISSUES, normalize_address,
    route_of_key,
};
use crate::integrity;

impl Book {
    /// Remembers an offramp or token-swap quote this gateway issued, so create-order can tell it from a forgery,
    /// with the `owner` it was asked for (kept here when the quote variant has no owner field).
    pub fn remember_quote(&mut self, quote: &Value, owner: Option<&str>, now: u64) {
        let Some((key, inner)) = quote.as_object().and_then(|m| m.iter().next()) else {
            return;
        };
        let Some(route) = [ApiVersion::V3, ApiVersion::V1]
            .into_iter()
            .find_map(|v| route_of_key(key, v))
        else {
            return;
        };
        let Some(inner) = inner.as_object().filter(|_| route != RouteKind::Onramp) else {
            return; // onramps are signed instead
        };
        let digest = integrity::digest(route, inner);
        if !self.issued.contains_key(&digest) && self.issued.len() >= MAX_REMEMBERED_QUOTES {
            self.forget_oldest_quotes(now);
        }
        let issued = self.issued.entry(digest).or_insert(Issued {
            at: now,
            unused: 0,
            owners: VecDeque::new(),
        });
        issued.at = now;
        if issued.unused < MAX_UNUSED_ISSUES {
            issued.unused += 1;
            issued.owners.push_back(owner.map(normalize_address));
        }
        // Forget old quotes at most once a minute, so a busy gateway does not scan the map on every quote.
        if now.saturating_sub(self.index.pruned_at) >= 60 {
            self.index.pruned_at = now;
            self.issued
                .retain(|_, i| now.saturating_sub(i.at) <= ISSUED_MEMORY_SECS);
        }
    }

    /// Makes room in the remembered quotes: forgets those past their memory, then, if that is not enough, the oldest
    /// tenth.
    pub(super) fn forget_oldest_quotes(&mut self, now: u64) {
        self.index.pruned_at = now;
        self.issued
            .retain(|_, i| now.saturating_sub(i.at) <= ISSUED_MEMORY_SECS);
        if self.issued.len() < MAX_REMEMBERED_QUOTES {
            return;
        }
        let mut times: Vec<u64> = self.issued.values().map(|i| i.at).collect();
        times.sort_unstable();
        let cut = times[MAX_REMEMBERED_QUOTES / 10];
        self.issued.retain(|_, i| i.at > cut);
    }

    /// How many offramp and token-swap quotes are remembered now.
    pub fn remembered_quotes(&self) -> usize {
        self.issued.len()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn offramp_quote(n: usize) -> Value {
        json!({"offramp": {
            "srcChain": "bob",
            "inputAmount": {"address": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "amount": n.to_string(), "chain": "bob"},
            "recipient": "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh",
            "slippage": 300,
        }})
    }

    #[test]
    fn the_remembered_quotes_are_bounded_and_the_newest_kept() {
        let mut book = Book::default();
        let start = 1_700_000_000;
        let total = MAX_REMEMBERED_QUOTES + 2_500;
        for n in 0..total {
            // Ten new quotes a second, all within their memory time.
            book.remember_quote(&offramp_quote(n), None, start + (n / 10) as u64);
        }
        assert!(book.remembered_quotes() <= MAX_REMEMBERED_QUOTES);
        assert!(book.remembered_quotes() >= MAX_REMEMBERED_QUOTES * 8 / 10);
        let newest = offramp_quote(total - 1);
        let inner = newest["offramp"].as_object().unwrap();
        assert!(
            book.issued
                .contains_key(&integrity::digest(RouteKind::Offramp, inner))
        );
        // Quotes past their memory are forgotten as time goes on.
        book.remember_quote(&offramp_quote(total), None, start + 100_000);
        assert_eq!(book.remembered_quotes(), 1);
    }
}
