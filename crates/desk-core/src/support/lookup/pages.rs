//! An address's orders, every page of them, and the exact text of each order within its page.

use std::collections::{HashMap, HashSet};

use gateway_client::wire::OrdersPage;
use gateway_client::{ApiVersion, Client};
use serde_json::Value;
use serde_json::value::RawValue;

use super::LookupError;

/// Orders asked for per get-orders page (V2, V3; the gateway's largest page).
pub(crate) const PAGE_LIMIT: u32 = 100;
/// The most pages a lookup reads: as many as the client's own pager ([`gateway_client::MAX_PAGES`]).
pub const MAX_LOOKUP_PAGES: usize = gateway_client::MAX_PAGES;
/// The most page text a lookup keeps, in bytes. What a lookup holds grows with it (each page's text, the orders read
/// from it, their exact texts): about five times this at most. Two of the largest answers the client accepts
/// ([`gateway_client::MAX_ANSWER_BYTES`], 4 MiB) fill it; a genuine page of 100 orders is about 150 KB, so it keeps
/// some 5,000 orders.
pub const MAX_LOOKUP_BYTES: usize = 8 * 1024 * 1024;

/// What a lookup walked: the pages it kept, and why it stopped early, if it did.
#[derive(Debug)]
pub(crate) struct Walk {
    /// Each page kept: the typed page, its JSON and its text.
    pub pages: Vec<(OrdersPage, Value, String)>,
    /// Set when the gateway had more pages than the lookup keeps; the pages kept are the newest.
    pub cut: Option<Cut>,
}

/// Why a walk stopped before the gateway's last page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cut {
    /// [`MAX_LOOKUP_PAGES`] pages were read.
    Pages,
    /// The next page would have taken the text kept past [`MAX_LOOKUP_BYTES`]; it was read, then let go.
    Bytes,
}

/// An address's orders page by page, newest first, keeping at most [`MAX_LOOKUP_PAGES`] pages and
/// [`MAX_LOOKUP_BYTES`] of their text: past either, the walk stops and says it was cut. A cursor the gateway
/// repeats stops the walk with an error rather than looping.
pub(crate) async fn every_page(client: &Client, address: &str) -> Result<Walk, LookupError> {
    let limit = (client.config().version != ApiVersion::V1).then_some(PAGE_LIMIT);
    let mut pages = Vec::new();
    let mut held = 0usize;
    let mut cursor: Option<String> = None;
    let mut seen: HashSet<String> = HashSet::new();
    loop {
        let answer = client
            .get_orders_text(address, cursor.as_deref(), limit)
            .await?;
        if held.saturating_add(answer.text.len()) > MAX_LOOKUP_BYTES {
            return Ok(Walk {
                pages,
                cut: Some(Cut::Bytes),
            });
        }
        held += answer.text.len();
        let next = answer.value.next_cursor.clone().filter(|c| !c.is_empty());
        pages.push((answer.value, answer.raw, answer.text));
        let Some(next) = next else {
            return Ok(Walk { pages, cut: None });
        };
        if !seen.insert(next.clone()) {
            return Err(LookupError::EndlessPages { pages: pages.len() });
        }
        if pages.len() >= MAX_LOOKUP_PAGES {
            return Ok(Walk {
                pages,
                cut: Some(Cut::Pages),
            });
        }
        cursor = Some(next);
    }
}

/// The exact text of each order in a get-orders body: the elements of `orders` (V2, V3) or of the bare array (V1),
/// as `serde_json`'s [`RawValue`] finds them. `None` when the body is not shaped so (it parsed as JSON already; this
/// only finds where each element is). A repeated `orders` key: the last one is what the parser kept, so the last one
/// wins here too.
pub(crate) fn order_texts(body: &str) -> Option<Vec<&str>> {
    fn elements(list: &str) -> Option<Vec<&str>> {
        let list: Vec<&RawValue> = serde_json::from_str(list).ok()?;
        Some(list.into_iter().map(RawValue::get).collect())
    }
    match body.trim_start().as_bytes().first()? {
        b'[' => elements(body),
        b'{' => {
            let page: HashMap<String, &RawValue> = serde_json::from_str(body).ok()?;
            elements(page.get("orders")?.get())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_order_keeps_its_exact_text_within_the_page() {
        let body = "{ \"nextCursor\" : null,\n \"orders\": [\n  {\"id\": \"a\", \"n\": 1.50, \"s\": \"x]}\\\"\\u00e9\"},\n  \
                    {\"id\":\"b\",\"list\":[1,{\"k\":[]}]} ,[], \"tail\"\n ],\n\"more\": {\"orders\": 1}}";
        let texts = order_texts(body).unwrap();
        assert_eq!(
            texts,
            [
                "{\"id\": \"a\", \"n\": 1.50, \"s\": \"x]}\\\"\\u00e9\"}",
                "{\"id\":\"b\",\"list\":[1,{\"k\":[]}]}",
                "[]",
                "\"tail\""
            ]
        );
        let parsed: Value = serde_json::from_str(body).unwrap();
        for (text, element) in texts.iter().zip(parsed["orders"].as_array().unwrap()) {
            assert_eq!(&serde_json::from_str::<Value>(text).unwrap(), element);
        }
        assert_eq!(
            order_texts(" [ {\"id\":1} , 2 ] ").unwrap(),
            ["{\"id\":1}", "2"]
        );
        assert_eq!(order_texts("[]").unwrap(), Vec::<&str>::new());
        assert_eq!(order_texts("{\"orders\": []}").unwrap(), Vec::<&str>::new());
        assert_eq!(order_texts("{\"other\": []}"), None);
        assert_eq!(order_texts("\"orders\""), None);
    }
}
