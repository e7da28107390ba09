//! Support: looking an order up on any network and API version — by order id, source Bitcoin txid, source
//! transaction hash, or all orders of an address — without touching the user's journal, with the answer exactly as
//! received and what each status means for the user.
//!
//! Rooms: `classify` (what the text is), `pages` (an address's orders, page by page), `explain` (what a status
//! means), `error` ([`LookupError`], what is refused; its window's form is `crate::desk`'s).

mod classify;
mod error;
mod explain;
mod pages;

pub(crate) use classify::*;
pub use error::*;
pub use explain::*;
pub(crate) use pages::*;
pub use pages::{MAX_LOOKUP_BYTES, MAX_LOOKUP_PAGES};

use gateway_client::wire::OrderInfo;
use gateway_client::{ApiVersion, Client, ClientError};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tracing::{info, warn};
use ts_rs::TS;

use crate::api::route_of;
use crate::settings::NetworkKind;
use crate::views::OrderView;

/// What to look up, and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "LookupQuery.ts")]
pub struct LookupQuery {
    /// The network to ask, which need not be the one the app is using (its stored API key, if any, is used).
    pub network: NetworkKind,
    /// The custom network's URL; the one in Settings when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub custom_url: Option<String>,
    /// The gateway API version to ask with; an order may be found, or described more fully, under another one.
    #[ts(type = "\"v1\" | \"v2\" | \"v3\" | \"v4\"")]
    pub api_version: String,
    /// An order id, a source Bitcoin txid, a source transaction hash, or an address (EVM, Bitcoin, Tron, Solana).
    pub query: String,
}

/// What was looked up: one order (get-order), or every order of an address (get-orders, all pages).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "LookupKind.ts")]
pub enum LookupKind {
    /// The query was an order id, a source Bitcoin txid or a source transaction hash: one order, from get-order.
    Order,
    /// The query was an address: every order the gateway lists for it, from get-orders (all pages).
    Address,
}

/// What an order's status means, and what the user can do next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "Explanation.ts")]
pub struct Explanation {
    /// `inProgress`, `pendingBtcPayment`, `success`, `failed`, `refunded` or `unknown`.
    pub status: String,
    /// One or two sentences on what the status means for this order and its route (what the gateway has seen, where
    /// the funds are).
    pub meaning: String,
    /// What the user can do next, such as waiting, registering a transaction, or contacting support with the
    /// order id.
    pub next_step: String,
}

/// One order found by a lookup.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "LookedUpOrder.ts")]
pub struct LookedUpOrder {
    /// As the Orders view shows an order known only from the gateway.
    pub order: OrderView,
    /// What the order's status means and what to do next ([`explain`]).
    pub explanation: Explanation,
    /// The order's JSON exactly as received (for get-orders: its element of the page, byte for byte).
    pub raw_text: String,
}

/// The answer to a lookup.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "LookupResult.ts")]
pub struct LookupResult {
    /// Whether one order or an address's orders were looked up.
    pub kind: LookupKind,
    /// The name of the network that answered, as a person reads it ([`network_label`]).
    pub network_label: String,
    /// The gateway URL that answered, without a trailing `/`.
    pub base_url: String,
    /// The API version the gateway was asked with.
    #[ts(type = "\"v1\" | \"v2\" | \"v3\" | \"v4\"")]
    pub api_version: String,
    /// Newest first, as the gateway lists them.
    pub orders: Vec<LookedUpOrder>,
    /// The whole body exactly as received. When an address's orders came in several pages: a JSON array of the
    /// pages' bodies, each exactly as received.
    pub raw_text: String,
    /// Set when the gateway lists more of an address's orders than a lookup keeps ([`MAX_LOOKUP_PAGES`] pages or
    /// [`MAX_LOOKUP_BYTES`] of text): a sentence saying so, how many are shown, and how to find the others.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub cut: Option<String>,
}

/// The name a person reads for a journal network key (`production`, `staging`, `sandbox`, `custom:<url>`).
pub fn network_label(network: &str) -> String {
    match network {
        "production" => NetworkKind::Production.label().to_owned(),
        "staging" => NetworkKind::Staging.label().to_owned(),
        "sandbox" => NetworkKind::Sandbox.label().to_owned(),
        other if other.starts_with("custom:") => NetworkKind::Custom.label().to_owned(),
        other => other.to_owned(),
    }
}

/// The refusal for an identifier no order has, naming where else to look.
pub(crate) fn not_found(
    looks_like: &str,
    id: &str,
    network: &str,
    version: ApiVersion,
) -> LookupError {
    LookupError::NotFound {
        looks_like: looks_like.to_owned(),
        id: id.to_owned(),
        network: network.to_owned(),
        version,
    }
}

/// Looks `query` up through `client` (a network and API version), reading nothing from and writing nothing to the
/// journal. `network` is the journal's name for the network (`sandbox` shows no explorer links).
pub async fn lookup_on(
    client: &Client,
    network: &str,
    query: &str,
) -> Result<LookupResult, LookupError> {
    let config = client.config();
    let version = config.version;
    let base_url = config.base_url.as_str().trim_end_matches('/').to_owned();
    let result = |kind, orders, raw_text, cut| LookupResult {
        kind,
        network_label: network_label(network),
        base_url: base_url.clone(),
        api_version: version.as_str().to_owned(),
        orders,
        raw_text,
        cut,
    };
    match classify(query)? {
        Classified::Identifier { id, looks_like } => {
            let answer = client.get_order_text(&id).await.map_err(|e| match e {
                ClientError::NotFound => not_found(&looks_like, &id, network, version),
                other => LookupError::from(other),
            })?;
            info!(network, %version, "support lookup: one order");
            let order = looked_up(network, &answer.value, &answer.raw, answer.text.clone());
            Ok(result(LookupKind::Order, vec![order], answer.text, None))
        }
        Classified::Address { canonical, .. } => {
            let Walk { pages, cut } = every_page(client, &canonical).await?;
            let mut orders = Vec::new();
            for (page, raw, text) in &pages {
                let elements: &[Value] = match raw {
                    Value::Array(list) => list,
                    Value::Object(map) => map
                        .get("orders")
                        .and_then(Value::as_array)
                        .map_or(&[], Vec::as_slice),
                    _ => &[],
                };
                let texts = order_texts(text);
                for (i, (info, raw)) in page.orders.iter().zip(elements).enumerate() {
                    let exact = texts
                        .as_ref()
                        .and_then(|t| t.get(i))
                        .filter(|t| serde_json::from_str::<Value>(t).ok().as_ref() == Some(raw))
                        .map(|t| (*t).to_owned());
                    let raw_text = exact.unwrap_or_else(|| {
                        warn!(order = %info.id, "an order's exact text was not found in the page; shown re-serialized");
                        raw.to_string()
                    });
                    orders.push(looked_up(network, info, raw, raw_text));
                }
            }
            info!(network, %version, pages = pages.len(), orders = orders.len(), cut = ?cut, "support lookup: an address");
            let cut = cut.map(|cut| cut_sentence(cut, pages.len(), orders.len()));
            let raw_text = match pages.as_slice() {
                [(_, _, text)] => text.clone(),
                many => format!(
                    "[\n{}\n]",
                    many.iter()
                        .map(|(_, _, text)| text.as_str())
                        .collect::<Vec<_>>()
                        .join(",\n")
                ),
            };
            Ok(result(LookupKind::Address, orders, raw_text, cut))
        }
    }
}

/// What the person reads when an address's list was cut.
fn cut_sentence(cut: Cut, pages: usize, orders: usize) -> String {
    let limit = match cut {
        Cut::Pages => format!("{MAX_LOOKUP_PAGES} pages"),
        Cut::Bytes => format!("{} MiB of answers", MAX_LOOKUP_BYTES / (1024 * 1024)),
    };
    format!(
        "The gateway lists more orders for this address than a lookup keeps ({limit}): the newest {orders} {}, from \
         {pages} {}, are shown and the rest were not read. Look an older order up by its order id or its \
         transaction hash.",
        if orders == 1 { "order" } else { "orders" },
        if pages == 1 { "page" } else { "pages" },
    )
}

pub(crate) fn looked_up(
    network: &str,
    info: &OrderInfo,
    raw: &Value,
    raw_text: String,
) -> LookedUpOrder {
    let route = route_of(info);
    LookedUpOrder {
        order: OrderView::from_gateway(network, info, raw, route),
        explanation: explain(info, route),
        raw_text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{DeskError, ErrorKind};

    #[test]
    fn not_found_names_the_place_and_the_other_places() {
        let err = DeskError::from(not_found("order id", "abc", "staging", ApiVersion::V3));
        assert_eq!(err.kind, ErrorKind::NotFound);
        assert!(
            err.message
                .starts_with("Nothing was found for the order id abc on Staging v3."),
            "{}",
            err.message
        );
        // The published service has only V4 and V3: the versions it removed are not suggested there.
        assert!(
            err.message.contains("then try API v4 or another"),
            "{}",
            err.message
        );
        assert!(
            err.message.contains("Production, Custom URL, Sandbox"),
            "{}",
            err.message
        );
        assert_eq!(network_label("custom:http://127.0.0.1:9"), "Custom URL");

        // Asked there with a removed version, the answer says so.
        let removed = DeskError::from(not_found("order id", "abc", "production", ApiVersion::V2));
        assert!(
            removed
                .message
                .contains("API v2 was removed from the service")
                && removed.message.contains("Try API v4 or v3"),
            "{}",
            removed.message
        );
        // The Sandbox still serves every version.
        let sandbox = DeskError::from(not_found("order id", "abc", "sandbox", ApiVersion::V3));
        assert!(
            sandbox.message.contains("API v4 or v2 or v1"),
            "{}",
            sandbox.message
        );
    }
}
