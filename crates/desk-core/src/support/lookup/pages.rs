//! An address's orders, every page of them, and the exact text of each order within its page.

use std::collections::HashMap;

use gateway_client::wire::OrdersPage;
use gateway_client::{ApiVersion, Client};
use serde_json::Value;
use serde_json::value::RawValue;

use super::LookupError;

/// Orders asked for per get-orders page (V2, V3; the gateway's largest page).
pub(crate) const PAGE_LIMIT: u32 = 100;
/// More pages than this is a gateway that does not stop.
pub(crate) const MAX_PAGES: usize = 1_000;

/// Every page of an address's orders: the typed page, its JSON and its text. A cursor the gateway repeats, or
/// more than [`MAX_PAGES`] pages, stops the walk with an error rather than looping.
pub(crate) async fn every_page(
    client: &Client,
    address: &str,
) -> Result<Vec<(OrdersPage, Value, String)>, LookupError> {
    let limit = (client.config().version != ApiVersion::V1).then_some(PAGE_LIMIT);
    let mut pages = Vec::new();
    let mut cursor: Option<String> = None;
    let mut seen: Vec<String> = Vec::new();
    loop {
        let answer = client
            .get_orders_text(address, cursor.as_deref(), limit)
            .await?;
        let next = answer.value.next_cursor.clone().filter(|c| !c.is_empty());
        pages.push((answer.value, answer.raw, answer.text));
        let Some(next) = next else {
            return Ok(pages);
        };
        if seen.contains(&next) || pages.len() >= MAX_PAGES {
            return Err(LookupError::EndlessPages { pages: pages.len() });
        }
        seen.push(next.clone());
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
