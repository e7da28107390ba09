//! Support: looking an order up on any network and API version — by order id, source Bitcoin txid, source
//! transaction hash, or all orders of an address — without touching the user's journal, with the answer exactly as
//! received and what each status means for the user.

use std::collections::HashMap;

use gateway_client::address::{BitcoinNetwork, ChainFamily, validate_address, validate_evm};
use gateway_client::display::{amount_text, duration_text};
use gateway_client::wire::{OrderInfo, OrderStatus, OrdersPage, TokenTransfer};
use gateway_client::{ApiKey, ApiVersion, Client, ClientError, TokenRegistry, txhash};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;
use tracing::{info, warn};
use ts_rs::TS;

use crate::api::{DeskError, ErrorKind, RouteKind};
use crate::api::{invalid, route_of};
use crate::secrets;
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
    #[ts(type = "\"v1\" | \"v2\" | \"v3\"")]
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
    #[ts(type = "\"v1\" | \"v2\" | \"v3\"")]
    pub api_version: String,
    /// Newest first, as the gateway lists them.
    pub orders: Vec<LookedUpOrder>,
    /// The whole body exactly as received. When an address's orders came in several pages: a JSON array of the
    /// pages' bodies, each exactly as received.
    pub raw_text: String,
}

/// Orders asked for per get-orders page (V2, V3; the gateway's largest page).
pub(crate) const PAGE_LIMIT: u32 = 100;
/// More pages than this is a gateway that does not stop.
pub(crate) const MAX_PAGES: usize = 1_000;

/// What the text of a lookup is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Classified {
    /// An address of one chain family, in its canonical form: all its orders.
    Address {
        family: ChainFamily,
        canonical: String,
    },
    /// Anything else, trimmed: an order id, a source Bitcoin txid or a source transaction hash (get-order takes all
    /// three). `looks_like` names it for messages.
    Identifier {
        id: String,
        looks_like: &'static str,
    },
}

/// Reads what the user typed: an address of any chain (EVM, Bitcoin on any network, Tron, Solana), else an order
/// identifier. An EVM-shaped address with a wrong checksum is refused rather than looked up as an id.
pub(crate) fn classify(query: &str) -> Result<Classified, DeskError> {
    let query = query.trim();
    if query.is_empty() {
        return Err(invalid(
            "query",
            "Enter an order id, a Bitcoin txid, a transaction hash or an address to look up.",
        ));
    }
    let evm_shaped = query.len() == 42
        && query.starts_with("0x")
        && query[2..].bytes().all(|b| b.is_ascii_hexdigit());
    if evm_shaped {
        return validate_evm(query)
            .map(|v| Classified::Address {
                family: v.family,
                canonical: v.canonical,
            })
            .map_err(|e| invalid("query", e.to_string()));
    }
    let bitcoin = [
        BitcoinNetwork::Mainnet,
        BitcoinNetwork::Testnet,
        BitcoinNetwork::Regtest,
    ]
    .into_iter()
    .find_map(|network| validate_address("bitcoin", query, network).ok());
    let found = bitcoin.or_else(|| {
        ["tron", "solana"]
            .into_iter()
            .find_map(|chain| validate_address(chain, query, BitcoinNetwork::Mainnet).ok())
    });
    if let Some(valid) = found {
        return Ok(Classified::Address {
            family: valid.family,
            canonical: valid.canonical,
        });
    }
    let looks_like = if txhash::validate_evm_tx_hash(query).is_ok() {
        "EVM transaction hash"
    } else if query.len() == 64 && query.bytes().all(|b| b.is_ascii_hexdigit()) {
        "Bitcoin txid"
    } else if txhash::validate_solana_signature(query).is_ok() {
        "Solana transaction signature"
    } else {
        "order id"
    };
    Ok(Classified::Identifier {
        id: query.to_owned(),
        looks_like,
    })
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
) -> DeskError {
    let label = network_label(network);
    let versions: Vec<&str> = [ApiVersion::V3, ApiVersion::V2, ApiVersion::V1]
        .into_iter()
        .filter(|v| *v != version)
        .map(ApiVersion::as_str)
        .collect();
    let networks: Vec<&str> = NetworkKind::ALL
        .into_iter()
        .map(NetworkKind::label)
        .filter(|l| *l != label)
        .collect();
    DeskError::new(
        ErrorKind::NotFound,
        format!(
            "Nothing was found for the {looks_like} {id} on {label} {version}. Check that it was copied whole, then \
             try API {} or another network ({}): a gateway knows only the orders made on it.",
            versions.join(" or "),
            networks.join(", ")
        ),
    )
}

/// Looks `query` up through `client` (a network and API version), reading nothing from and writing nothing to the
/// journal. `network` is the journal's name for the network (`sandbox` shows no explorer links).
pub async fn lookup_on(
    client: &Client,
    network: &str,
    query: &str,
) -> Result<LookupResult, DeskError> {
    let config = client.config();
    let version = config.version;
    let base_url = config.base_url.as_str().trim_end_matches('/').to_owned();
    let result = |kind, orders, raw_text| LookupResult {
        kind,
        network_label: network_label(network),
        base_url: base_url.clone(),
        api_version: version.as_str().to_owned(),
        orders,
        raw_text,
    };
    match classify(query)? {
        Classified::Identifier { id, looks_like } => {
            let answer = client.get_order_text(&id).await.map_err(|e| match e {
                ClientError::NotFound => not_found(looks_like, &id, network, version),
                other => other.into(),
            })?;
            info!(network, %version, "support lookup: one order");
            let order = looked_up(network, &answer.value, &answer.raw, answer.text.clone());
            Ok(result(LookupKind::Order, vec![order], answer.text))
        }
        Classified::Address { canonical, .. } => {
            let pages = every_page(client, &canonical).await?;
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
            info!(network, %version, pages = pages.len(), orders = orders.len(), "support lookup: an address");
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
            Ok(result(LookupKind::Address, orders, raw_text))
        }
    }
}

/// Every page of an address's orders: the typed page, its JSON and its text. A cursor the gateway repeats, or
/// more than [`MAX_PAGES`] pages, stops the walk with an error rather than looping.
pub(crate) async fn every_page(
    client: &Client,
    address: &str,
) -> Result<Vec<(OrdersPage, Value, String)>, DeskError> {
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
            return Err(DeskError::new(
                ErrorKind::Transport,
                format!(
                    "The gateway kept sending more pages of orders ({} so far) without an end, so the lookup \
                     stopped. Try again later, or look the orders up one by one by order id.",
                    pages.len()
                ),
            ));
        }
        seen.push(next.clone());
        cursor = Some(next);
    }
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

pub(crate) fn transfers_text(list: &[TokenTransfer]) -> String {
    let registry = TokenRegistry::builtin();
    list.iter()
        .map(|t| {
            format!(
                "{} on {} in transaction {}",
                amount_text(registry, &t.chain, &t.token, &t.amount),
                t.chain,
                t.tx_hash
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// What an order's status means for the user, and what they can do next, for its route.
pub fn explain(order: &OrderInfo, route: RouteKind) -> Explanation {
    let registry = TokenRegistry::builtin();
    let src = &order.src_info;
    let dst = &order.dst_info;
    let send = amount_text(registry, &src.chain, &src.token, &src.amount);
    let receive = amount_text(registry, &dst.chain, &dst.token, &dst.amount);
    let id = &order.id;
    let name = RouteKind::noun(route);
    let source_tx = src.tx_hash.as_deref().filter(|h| !h.trim().is_empty());
    let typical = order
        .estimated_time_in_secs
        .map(|secs| format!("about {}", duration_text(secs)))
        .unwrap_or_else(|| "the time the quote estimated".to_owned());
    let deposit = order.deposit_address.as_deref().map_or_else(
        || "the order's deposit address".to_owned(),
        |a| format!("the deposit address {a}"),
    );
    let (meaning, next_step) = match &order.status {
        OrderStatus::InProgress {
            pending_btc_payment: Some(payment),
            ..
        } => {
            let amount = amount_text(
                registry,
                "bitcoin",
                gateway_client::wire::NATIVE_TOKEN,
                &payment.amount,
            );
            (
                format!(
                    "The gateway has sent the Bitcoin payout of {amount} in transaction {}; it is waiting for the \
                     Bitcoin network to confirm it.",
                    payment.txid
                ),
                format!(
                    "Wait for the payout {} to confirm (usually 10 to 60 minutes); follow it in a Bitcoin block \
                     explorer or the recipient's wallet. Nothing else is needed for this {name}.",
                    payment.txid
                ),
            )
        }
        OrderStatus::InProgress { .. } => match (route, source_tx) {
            (RouteKind::Onramp, None) => (
                format!(
                    "The gateway has not seen a Bitcoin payment for this onramp yet: it is waiting for {send} to \
                     arrive at {deposit}."
                ),
                format!(
                    "If you already paid, give the gateway your payment's Bitcoin txid (register it on the order, \
                     or send it to the gateway's support with the order id {id}) so it can match the payment. If you \
                     have not paid, send exactly {send} to {deposit} before the order expires: an unpaid order fails \
                     after a while and then needs a new quote."
                ),
            ),
            (RouteKind::Onramp, Some(tx)) => (
                format!(
                    "The gateway has seen your Bitcoin payment {tx} and is processing the onramp: once the payment \
                     is confirmed, {receive} is sent to the recipient on {}.",
                    dst.chain
                ),
                format!(
                    "Nothing to do but wait: an onramp typically takes {typical} once the payment confirms (a \
                     Bitcoin block comes about every 10 minutes). If nothing changes long after that, contact the \
                     gateway's support with the order id {id}."
                ),
            ),
            (_, None) => (
                format!(
                    "The gateway has not seen your {} transaction for this {name} yet: it is waiting for {send} to \
                     be sent.",
                    src.chain
                ),
                format!(
                    "If you signed and sent the {name}'s transaction, register its transaction hash (on the order, \
                     or with the gateway's support, quoting the order id {id}) so the gateway can follow it. If you \
                     have not, sign and send it on {} before the order expires, or ask for a new {name} quote.",
                    src.chain
                ),
            ),
            (_, Some(tx)) => (
                format!(
                    "The gateway has your {} transaction {tx} and is processing the {name}: {receive} is then \
                     delivered to the recipient on {}.",
                    src.chain, dst.chain
                ),
                format!(
                    "Nothing to do but wait: a{} {name} typically takes {typical}{}. If nothing changes long after \
                     that, contact the gateway's support with the order id {id}.",
                    if route == RouteKind::Offramp { "n" } else { "" },
                    if route == RouteKind::Offramp {
                        "; the Bitcoin payout's txid shows here as soon as it is sent"
                    } else {
                        ""
                    }
                ),
            ),
        },
        OrderStatus::Success { received_tokens } => {
            let what = if received_tokens.is_empty() {
                match dst.tx_hash.as_deref() {
                    Some(tx) => format!(
                        "{receive} was delivered on {} in transaction {tx}",
                        dst.chain
                    ),
                    None => format!(
                        "{receive} was delivered on {} (this API version does not name the transaction; look the \
                         order up with V3 to see it)",
                        dst.chain
                    ),
                }
            } else {
                format!("the recipient received {}", transfers_text(received_tokens))
            };
            let next = match route {
                RouteKind::Onramp => format!(
                    "Nothing to do: the bitcoin you paid became {receive} on {}. If the tokens do not show in the \
                     recipient's wallet, add the token to the wallet, then check the transaction in a {} block \
                     explorer.",
                    dst.chain, dst.chain
                ),
                RouteKind::Offramp => "Nothing to do: the bitcoin is at the recipient's Bitcoin address. A wallet \
                     shows it once it has synchronized; check the transaction in a Bitcoin block explorer if it \
                     does not."
                    .to_owned(),
                RouteKind::TokenSwap => format!(
                    "Nothing to do: the swap from {} to {} is settled. If the tokens do not show in the recipient's \
                     wallet on {}, add that token to the wallet.",
                    src.chain, dst.chain, dst.chain
                ),
            };
            (format!("The {name} is complete: {what}."), next)
        }
        OrderStatus::Failed { refund_tx } => {
            let prepared = if refund_tx.as_ref().is_some_and(|t| !t.is_null()) {
                " The gateway's answer includes a refund transaction (see the raw answer)."
            } else {
                ""
            };
            match (route, source_tx) {
                (RouteKind::Onramp, None) => (
                    format!(
                        "The onramp failed before any Bitcoin payment was seen (most likely it expired unpaid): no \
                         funds went through the gateway.{prepared}"
                    ),
                    format!(
                        "Nothing was taken. Do not pay this order's deposit address now; ask for a new quote to try \
                         again. If you did pay it, contact the gateway's support with the order id {id} and your \
                         payment's Bitcoin txid."
                    ),
                ),
                (RouteKind::Onramp, Some(tx)) => (
                    format!(
                        "The onramp failed after the gateway saw your Bitcoin payment {tx}: no tokens were \
                         delivered, and the bitcoin stays with the gateway until it is refunded (the order then \
                         shows Refunded).{prepared}"
                    ),
                    format!(
                        "Contact the gateway's support with the order id {id} and the txid {tx} to have the bitcoin \
                         refunded; a refund address given on the quote (V3) is where it goes."
                    ),
                ),
                (_, None) => (
                    format!(
                        "The {name} failed before your {} transaction was seen (most likely it expired): no tokens \
                         left your wallet through the gateway.{prepared}",
                        src.chain
                    ),
                    format!(
                        "Nothing was taken. Do not send this order's transaction now; ask for a new {name} quote \
                         to try again."
                    ),
                ),
                (_, Some(tx)) => (
                    format!(
                        "The {name} failed after your {} transaction {tx}: {send} did not reach the recipient and \
                         is returned to you (in V3 the owner address on the quote can claim it).{prepared}",
                        src.chain
                    ),
                    format!(
                        "If the {send} has not come back, contact the gateway's support with the order id {id} and \
                         the transaction {tx}; keep the {name}'s owner wallet at hand to claim the refund."
                    ),
                ),
            }
        }
        OrderStatus::Refunded { refunded_tokens } => {
            let what = if refunded_tokens.is_empty() {
                "this API version does not list the refund (look the order up with V3 to see it)"
                    .to_owned()
            } else {
                transfers_text(refunded_tokens)
            };
            let tx = refunded_tokens.first().map_or_else(
                || "the refund transaction".to_owned(),
                |t| format!("transaction {}", t.tx_hash),
            );
            let next = match route {
                RouteKind::Onramp => format!(
                    "Nothing to do: the bitcoin went back to your refund address (or the address it came from). \
                     Check {tx} in your Bitcoin wallet; ask for a new quote to try the onramp again."
                ),
                _ => format!(
                    "Nothing to do: the tokens went back on {} to the address that sent them (in V3, the owner). \
                     Check {tx} in that wallet; ask for a new quote to try the {name} again.",
                    src.chain
                ),
            };
            (
                format!("The {name} did not complete and the gateway returned your funds: {what}."),
                next,
            )
        }
        OrderStatus::Unknown(raw) => (
            format!(
                "The gateway answered with a status this app does not know: {raw}. It is shown exactly as received."
            ),
            format!(
                "Read the raw answer below, and look the {name} up again later or with another API version; if it \
                 stays like this, contact the gateway's support with the order id {id}."
            ),
        ),
    };
    Explanation {
        status: order.status.key().to_owned(),
        meaning,
        next_step,
    }
}

/// The API key stored for `account`, if any (the keychain is read on a blocking thread). A key that cannot be read
/// is logged and the lookup goes on without one.
pub(crate) async fn stored_key(account: String) -> Option<ApiKey> {
    tokio::task::spawn_blocking(move || secrets::load_key(&account))
        .await
        .unwrap_or_else(|e| Err(secrets::SecretsError::Keychain(e.to_string())))
        .unwrap_or_else(|e| {
            warn!(error = %e, "no API key available for the lookup; continuing keyless");
            None
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const EVM: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

    #[test]
    fn queries_are_told_apart() {
        for (query, family) in [
            (EVM, ChainFamily::Evm),
            (
                "  0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed ",
                ChainFamily::Evm,
            ),
            (
                "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
                ChainFamily::Bitcoin,
            ),
            (
                "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx",
                ChainFamily::Bitcoin,
            ),
            ("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", ChainFamily::Tron),
            (
                "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
                ChainFamily::Solana,
            ),
        ] {
            match classify(query).unwrap() {
                Classified::Address {
                    family: f,
                    canonical,
                } => {
                    assert_eq!(f, family, "{query}");
                    if family == ChainFamily::Evm {
                        assert_eq!(canonical, EVM, "checksummed");
                    }
                }
                other => panic!("{query}: {other:?}"),
            }
        }
        for (query, looks_like) in [
            ("f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "order id"),
            (&"ab".repeat(32) as &str, "Bitcoin txid"),
            (&format!("0x{}", "cd".repeat(32)), "EVM transaction hash"),
            (
                "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW",
                "Solana transaction signature",
            ),
        ] {
            assert_eq!(
                classify(&format!(" {query}\n")).unwrap(),
                Classified::Identifier {
                    id: query.to_owned(),
                    looks_like
                }
            );
        }
        // An EVM address with a broken checksum is refused, not looked up as an order id.
        let err = classify("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD").unwrap_err();
        assert_eq!(err.details.as_deref(), Some(&json!({"field": "query"})));
        assert!(err.message.contains("checksum"), "{}", err.message);
        let err = classify("   ").unwrap_err();
        assert!(err.message.contains("Enter an order id"), "{}", err.message);
    }

    #[test]
    fn not_found_names_the_place_and_the_other_places() {
        let err = not_found("order id", "abc", "staging", ApiVersion::V2);
        assert_eq!(err.kind, ErrorKind::NotFound);
        assert!(
            err.message
                .starts_with("Nothing was found for the order id abc on Staging v2."),
            "{}",
            err.message
        );
        assert!(err.message.contains("API v3 or v1"), "{}", err.message);
        assert!(
            err.message.contains("Production, Custom URL, Sandbox"),
            "{}",
            err.message
        );
        assert_eq!(network_label("custom:http://127.0.0.1:9"), "Custom URL");
    }

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

    fn order(status: Value, route: RouteKind, source_tx: bool) -> OrderInfo {
        let (src, dst) = match route {
            RouteKind::Onramp => (
                ("bitcoin", gateway_client::wire::NATIVE_TOKEN, "250000"),
                (
                    "bob",
                    "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c",
                    "245000",
                ),
            ),
            RouteKind::Offramp => (
                (
                    "bob",
                    "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c",
                    "250000",
                ),
                ("bitcoin", gateway_client::wire::NATIVE_TOKEN, "245000"),
            ),
            RouteKind::TokenSwap => (
                (
                    "bob",
                    "0x05D032ac25d322df992303dCa074EE7392C117b9",
                    "50000000",
                ),
                (
                    "ethereum",
                    "0xdac17f958d2ee523a2206206994597c13d831ec7",
                    "49875000",
                ),
            ),
        };
        let mut src_info = json!({"chain": src.0, "token": src.1, "amount": src.2});
        if source_tx {
            src_info["txHash"] = json!("ab".repeat(32));
        }
        serde_json::from_value(json!({
            "id": "order-1", "timestamp": 1_767_225_600,
            "srcInfo": src_info,
            "dstInfo": {"chain": dst.0, "token": dst.1, "amount": dst.2},
            "status": status,
            "depositAddress": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
            "estimatedTimeInSecs": 600,
        }))
        .unwrap()
    }

    fn statuses() -> Vec<(&'static str, Value)> {
        let transfer = json!([{"token": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "amount": "245000",
            "chain": "bob", "txHash": "0xfeed"}]);
        vec![
            ("inProgress", json!({"inProgress": {"refund_tx": null}})),
            (
                "pendingBtcPayment",
                json!({"inProgress": {"pending_btc_payment": {"txid": "cd".repeat(32), "amount": "245000"}}}),
            ),
            ("success", json!({"success": {"received_tokens": transfer}})),
            ("success", json!("success")),
            ("failed", json!({"failed": {"refund_tx": null}})),
            (
                "refunded",
                json!({"refunded": {"refunded_tokens": transfer}}),
            ),
            ("refunded", json!("refunded")),
            ("unknown", json!({"paused": {}})),
        ]
    }

    #[test]
    fn every_status_and_route_has_its_own_meaning_and_next_step() {
        use std::collections::{BTreeMap, BTreeSet};
        // (status, route, source transaction seen where it matters) → the next steps given for it.
        let mut groups: BTreeMap<(&str, &str, bool), BTreeSet<String>> = BTreeMap::new();
        for (key, status) in statuses() {
            for route in [RouteKind::Onramp, RouteKind::Offramp, RouteKind::TokenSwap] {
                for source_tx in [false, true] {
                    let info = order(status.clone(), route, source_tx);
                    let e = explain(&info, route);
                    assert_eq!(e.status, key);
                    assert!(e.meaning.ends_with('.') && e.meaning.len() > 40, "{e:?}");
                    assert!(
                        e.next_step.ends_with('.') && e.next_step.len() > 40,
                        "{e:?}"
                    );
                    assert_ne!(e.meaning, e.next_step);
                    // The source transaction changes what to do only while in progress or after a failure.
                    let varies = matches!(key, "inProgress" | "failed");
                    groups
                        .entry((key, RouteKind::noun(route), varies && source_tx))
                        .or_default()
                        .insert(e.next_step);
                }
            }
        }
        // 6 statuses × 3 routes, plus the source-transaction variants of inProgress and failed.
        assert_eq!(groups.len(), 6 * 3 + 2 * 3);
        let mut owner: BTreeMap<&String, (&str, &str, bool)> = BTreeMap::new();
        for (slot, steps) in &groups {
            for step in steps {
                if let Some(other) = owner.insert(step, *slot) {
                    panic!("{slot:?} and {other:?} give the same next step: {step}");
                }
            }
        }
    }

    #[test]
    fn an_unpaid_onramp_says_the_payment_is_not_seen_and_what_to_do() {
        let info = order(
            json!({"inProgress": {"refund_tx": null}}),
            RouteKind::Onramp,
            false,
        );
        let e = explain(&info, RouteKind::Onramp);
        assert_eq!(e.status, "inProgress");
        assert!(
            e.meaning.contains("has not seen a Bitcoin payment"),
            "{}",
            e.meaning
        );
        assert!(e.meaning.contains("0.0025 BTC"), "{}", e.meaning);
        assert!(
            e.next_step.contains("If you already paid"),
            "{}",
            e.next_step
        );
        assert!(e.next_step.contains("txid"), "{}", e.next_step);
        assert!(
            e.next_step
                .contains("send exactly 0.0025 BTC to the deposit address bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"),
            "{}",
            e.next_step
        );
        assert!(
            e.next_step.contains("before the order expires"),
            "{}",
            e.next_step
        );

        let paid = order(
            json!({"inProgress": {"refund_tx": null}}),
            RouteKind::Onramp,
            true,
        );
        let e = explain(&paid, RouteKind::Onramp);
        assert!(e.meaning.contains(&"ab".repeat(32)), "{}", e.meaning);
        assert!(e.next_step.contains("about 10 min"), "{}", e.next_step);

        let done = order(statuses()[2].1.clone(), RouteKind::Onramp, true);
        let e = explain(&done, RouteKind::Onramp);
        assert!(e.meaning.contains("in transaction 0xfeed"), "{}", e.meaning);
        let unknown = order(json!({"paused": {"why": "x"}}), RouteKind::Offramp, true);
        assert!(
            explain(&unknown, RouteKind::Offramp)
                .meaning
                .contains(r#"{"paused":{"why":"x"}}"#)
        );
    }
}
