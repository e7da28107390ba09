//! The Support view's lookup and quote reproduction, against the embedded Sandbox and separately started gateway-sims
//! over loopback, with a temporary data folder.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::Path;
use std::time::Duration;

use desk_core::api::NetworkChoice;
use desk_core::error::ErrorKind;
use desk_core::journal::{Journal, JournalEvent, JournalOrder};
use desk_core::settings::NetworkKind;
use desk_core::support::{
    BundleOptions, LookupKind, LookupQuery, LookupResult, QuoteDiff, ReproduceSource,
};
use desk_core::views::QuoteCard;
use desk_core::{Desk, JOURNAL_FILE};
use gateway_client::wire::NATIVE_TOKEN as NATIVE;
use gateway_client::{ApiVersion, QuoteRequest};
use gateway_sim::Sim;
use gateway_sim::payload::testkit::TestWallet;
use serde_json::{Value, json};

use crate::common;

use common::{
    EVM, OWNER, WBTC_BOB, advance, card, client, complete_onramp, create_order_directly,
    onramp_form, open, psbt, swap_request,
};

const AFFILIATE: &str = "0x1111111111111111111111111111111111111111";

fn query(network: NetworkKind, version: &str, text: &str) -> LookupQuery {
    LookupQuery {
        network,
        custom_url: None,
        api_version: version.into(),
        query: text.into(),
    }
}

/// Everything the journal holds: every order and every event.
fn journal_contents(home: &Path) -> (Vec<JournalOrder>, Vec<JournalEvent>) {
    let journal = Journal::open(&home.join("data").join(JOURNAL_FILE)).unwrap();
    let orders = journal.orders(None).unwrap();
    let events = orders
        .iter()
        .flat_map(|o| journal.events(o.local_id).unwrap())
        .collect();
    (orders, events)
}

/// The body the gateway answers a GET of `url` with, as text.
async fn body_of(url: &str) -> String {
    reqwest::get(url).await.unwrap().text().await.unwrap()
}

/// The only order of a lookup.
fn only(result: &LookupResult) -> &desk_core::support::LookedUpOrder {
    assert_eq!(result.orders.len(), 1, "{:?}", result.orders);
    &result.orders[0]
}

#[tokio::test]
async fn an_order_is_found_by_id_txid_and_address_on_every_version_without_touching_the_journal() {
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let mut events = desk.subscribe();
    let wallet = TestWallet::from_seed([7; 32]);
    let form = onramp_form(Some(wallet.address(bitcoin::Network::Regtest)));
    let card = card(&desk, &form).await;
    let order = desk.start_order(card.raw.clone(), None).await.unwrap();
    let order = desk
        .hand_in(
            order.local_id.unwrap(),
            &wallet.sign_psbt(&psbt(&order)).unwrap(),
        )
        .await
        .unwrap();
    let order_id = order.order_id.clone().unwrap();
    let txid = order.source_tx.as_ref().unwrap().tx_hash.clone();
    let base = desk.settings().await.network.base_url;
    complete_onramp(&desk, &mut events, order.local_id.unwrap()).await;
    // The tracker is done with the finished order; from here on nothing should write to the journal.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = journal_contents(home.path());

    for version in [
        ApiVersion::V4,
        ApiVersion::V3,
        ApiVersion::V2,
        ApiVersion::V1,
    ] {
        let v = version.as_str();
        let direct = client(&base, version);

        let by_id = desk
            .lookup(&query(NetworkKind::Sandbox, v, &format!("  {order_id}\n")))
            .await
            .unwrap();
        assert_eq!(by_id.kind, LookupKind::Order);
        assert_eq!(
            (
                by_id.network_label.as_str(),
                by_id.base_url.as_str(),
                by_id.api_version.as_str()
            ),
            ("Sandbox", base.as_str(), v)
        );
        let found = only(&by_id);
        assert_eq!(found.order.order_id.as_deref(), Some(order_id.as_str()));
        assert_eq!(
            found.order.local_id, None,
            "shown as read from the gateway, not from the journal"
        );
        assert_eq!(found.order.network, "sandbox");
        assert_eq!(found.order.status.as_deref(), Some("success"));
        assert_eq!(found.explanation.status, "success");
        assert!(
            found.explanation.meaning.contains("complete"),
            "{:?}",
            found.explanation
        );
        let raw = direct.get_order(&order_id).await.unwrap().raw;
        assert_eq!(
            serde_json::from_str::<Value>(&found.raw_text).unwrap(),
            raw,
            "{v}"
        );
        assert_eq!(found.raw_text, by_id.raw_text, "one order: the whole body");
        let body = body_of(&format!("{base}/{v}/get-order/{order_id}")).await;
        assert_eq!(by_id.raw_text, body, "byte for byte");
        assert_eq!(found.order.raw.as_ref(), Some(&raw));
        if version == ApiVersion::V1 {
            assert_eq!(raw["status"], "success", "V1's plain status");
        } else {
            assert_eq!(found.order.received.len(), 1);
            assert!(
                found
                    .explanation
                    .meaning
                    .contains(&found.order.received[0].tx_hash)
            );
        }

        let by_txid = desk
            .lookup(&query(NetworkKind::Sandbox, v, &txid))
            .await
            .unwrap();
        assert_eq!(by_txid.kind, LookupKind::Order);
        assert_eq!(
            only(&by_txid).order.order_id.as_deref(),
            Some(order_id.as_str())
        );
        assert_eq!(
            only(&by_txid)
                .order
                .source_tx
                .as_ref()
                .map(|t| t.tx_hash.as_str()),
            Some(txid.as_str())
        );

        let by_address = desk
            .lookup(&query(NetworkKind::Sandbox, v, &EVM.to_lowercase()))
            .await
            .unwrap();
        assert_eq!(by_address.kind, LookupKind::Address);
        let listed = only(&by_address);
        assert_eq!(listed.order.order_id.as_deref(), Some(order_id.as_str()));
        let page = direct.get_orders(EVM, None, None).await.unwrap().raw;
        let element = match &page {
            Value::Array(list) => list[0].clone(),
            _ => page["orders"][0].clone(),
        };
        assert_eq!(
            serde_json::from_str::<Value>(&listed.raw_text).unwrap(),
            element,
            "{v}"
        );
        assert_eq!(
            serde_json::from_str::<Value>(&by_address.raw_text).unwrap(),
            page,
            "{v}"
        );
        let body = body_of(&format!("{base}/{v}/get-orders/{EVM}")).await;
        assert_eq!(by_address.raw_text, body, "byte for byte");
        assert!(body.contains(&listed.raw_text));
        assert_eq!(listed.explanation, found.explanation);
    }

    assert_eq!(
        journal_contents(home.path()),
        before,
        "the journal is untouched"
    );
    assert_eq!(
        desk.settings().await.network.api_version,
        "v4",
        "the app's own version stays"
    );
    desk.shutdown().await;
}

#[tokio::test]
async fn an_unpaid_onramp_is_explained_and_an_unknown_id_is_not_found() {
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let base = desk.settings().await.network.base_url;
    let mut request = QuoteRequest::new(("bitcoin", NATIVE), ("bob", WBTC_BOB), "100000", EVM);
    request.owner_address = Some(OWNER.into());
    let id = create_order_directly(&base, &request).await;

    let result = desk
        .lookup(&query(NetworkKind::Sandbox, "v3", &id))
        .await
        .unwrap();
    let found = only(&result);
    assert_eq!(found.order.status.as_deref(), Some("inProgress"));
    assert!(found.order.source_tx.is_none());
    let explanation = &found.explanation;
    assert!(
        explanation
            .meaning
            .contains("has not seen a Bitcoin payment"),
        "{explanation:?}"
    );
    let deposit = found.order.deposit_address.clone().unwrap();
    assert!(explanation.next_step.contains(&deposit), "{explanation:?}");
    assert!(
        explanation.next_step.contains("0.001 BTC"),
        "{explanation:?}"
    );
    assert!(explanation.next_step.contains("txid"), "{explanation:?}");

    // An hour later the gateway gives up on it: failed, with nothing taken.
    advance(&base, 3_700).await;
    let result = desk
        .lookup(&query(NetworkKind::Sandbox, "v2", &id))
        .await
        .unwrap();
    let explanation = &only(&result).explanation;
    assert_eq!(explanation.status, "failed");
    assert!(
        explanation.next_step.contains("Nothing was taken"),
        "{explanation:?}"
    );

    let err = desk
        .lookup(&query(NetworkKind::Sandbox, "v3", "no-such-order"))
        .await
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotFound);
    assert!(
        err.message
            .starts_with("Nothing was found for the order id no-such-order on Sandbox v3."),
        "{}",
        err.message
    );
    assert!(
        err.message.contains("API v4 or v2 or v1"),
        "{}",
        err.message
    );
    assert!(
        err.message.contains("Production, Staging, Custom URL"),
        "{}",
        err.message
    );
    let err = desk
        .lookup(&query(NetworkKind::Sandbox, "v1", &"ab".repeat(32)))
        .await
        .unwrap_err();
    assert!(
        err.message.contains("the Bitcoin txid abab"),
        "{}",
        err.message
    );

    let err = desk
        .lookup(&query(NetworkKind::Sandbox, "v9", &id))
        .await
        .unwrap_err();
    assert_eq!(
        err.details_json().as_ref(),
        Some(&json!({"field": "apiVersion"}))
    );
    let err = desk
        .lookup(&query(NetworkKind::Custom, "v3", &id))
        .await
        .unwrap_err();
    assert_eq!(
        err.details_json().as_ref(),
        Some(&json!({"field": "customUrl"}))
    );

    // An address with no orders is an empty list, not an error.
    let result = desk
        .lookup(&query(
            NetworkKind::Sandbox,
            "v3",
            "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7",
        ))
        .await
        .unwrap();
    assert_eq!(result.kind, LookupKind::Address);
    assert!(result.orders.is_empty());
    assert_eq!(
        serde_json::from_str::<Value>(&result.raw_text).unwrap(),
        json!({"orders": [], "nextCursor": null})
    );
    desk.shutdown().await;
}

#[tokio::test]
async fn lookups_reach_a_custom_url_and_the_sandbox_from_another_network() {
    let other = Sim::new()
        .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let other_url = other.base_url();
    let other_id = create_order_directly(&other_url, &swap_request()).await;
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let sandbox_url = desk.settings().await.network.base_url;
    let sandbox_id = create_order_directly(&sandbox_url, &swap_request()).await;

    let custom = |text: &str, version: &str| LookupQuery {
        custom_url: Some(format!("{other_url}/")),
        ..query(NetworkKind::Custom, version, text)
    };
    let result = desk.lookup(&custom(&other_id, "v3")).await.unwrap();
    assert_eq!(result.network_label, "Custom URL");
    assert_eq!(result.base_url, other_url);
    let found = only(&result);
    assert_eq!(found.order.order_id.as_deref(), Some(other_id.as_str()));
    assert_eq!(found.order.network, format!("custom:{other_url}"));
    assert!(
        found
            .explanation
            .meaning
            .contains("has not seen your bob transaction")
    );
    let err = desk.lookup(&custom(&sandbox_id, "v2")).await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotFound);
    assert!(err.message.contains("on Custom URL v2"), "{}", err.message);
    // Two orders of the same address on two gateways: each gateway lists its own.
    let listed = desk.lookup(&custom(EVM, "v2")).await.unwrap();
    assert_eq!(
        only(&listed).order.order_id.as_deref(),
        Some(other_id.as_str())
    );
    assert_eq!(desk.settings().await.network.kind, NetworkKind::Sandbox);

    // On another network, a Sandbox lookup starts the Sandbox from its saved orders just for the lookup.
    desk.select_network(NetworkChoice {
        kind: NetworkKind::Custom,
        custom_url: Some(other_url.clone()),
    })
    .await
    .unwrap();
    let result = desk
        .lookup(&query(NetworkKind::Sandbox, "v2", &sandbox_id))
        .await
        .unwrap();
    assert_eq!(result.api_version, "v2");
    assert_eq!(
        only(&result).order.order_id.as_deref(),
        Some(sandbox_id.as_str())
    );
    assert_ne!(result.base_url, other_url);
    let gone = reqwest::get(format!("{}/v3/get-routes", result.base_url)).await;
    assert!(gone.is_err(), "the lookup's Sandbox was stopped afterwards");
    let view = desk.settings().await;
    assert_eq!(
        (view.network.kind, view.network.base_url.as_str()),
        (NetworkKind::Custom, other_url.as_str())
    );
    // Without a URL in the query, the custom network of the settings is used.
    let result = desk
        .lookup(&query(NetworkKind::Custom, "v1", &other_id))
        .await
        .unwrap();
    assert_eq!(
        only(&result).order.order_id.as_deref(),
        Some(other_id.as_str())
    );
    desk.shutdown().await;
}

fn quote_text(card: &QuoteCard) -> ReproduceSource {
    ReproduceSource::Quote {
        text: serde_json::to_string_pretty(&card.raw).unwrap(),
    }
}

fn changed(diff: &QuoteDiff) -> Vec<&str> {
    diff.fields
        .iter()
        .filter(|f| f.changed)
        .map(|f| f.field.as_str())
        .collect()
}

/// The V3 quote the gateway at `base` gives for `request` with `AFFILIATE` at `bps`, pasted into the desk to be asked
/// for again.
async fn reproduce_with_affiliate(
    desk: &Desk,
    base: &str,
    mut request: QuoteRequest,
    bps: u32,
) -> QuoteDiff {
    request.affiliates = vec![gateway_client::Affiliate {
        address: AFFILIATE.into(),
        bps,
    }];
    let quote = client(base, ApiVersion::V3)
        .get_quote(&request)
        .await
        .unwrap()
        .value;
    desk.reproduce_quote(&ReproduceSource::Quote {
        text: quote.raw().to_string(),
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn a_quote_is_asked_for_again_and_compared_field_by_field() {
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let base = desk.settings().await.network.base_url;
    let card = card(&desk, &onramp_form(None)).await;

    // Nothing moved on the Sandbox: every field compares equal.
    let diff = desk.reproduce_quote(&quote_text(&card)).await.unwrap();
    assert_eq!(diff.network_label, "Sandbox");
    assert!(changed(&diff).is_empty(), "{:?}", diff.fields);
    let names: Vec<&str> = diff.fields.iter().map(|f| f.field.as_str()).collect();
    for name in [
        "input amount",
        "output amount",
        "fee: solver fee",
        "fee: protocol fee",
        "fee: affiliate fee",
        "fee: execution fee",
        "fee: messaging fee",
        "total fees",
        "price impact",
        "price impact USD",
        "estimated time",
        "slippage",
    ] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    let output = diff
        .fields
        .iter()
        .find(|f| f.field == "output amount")
        .unwrap();
    assert!(
        output.before.as_deref().unwrap().ends_with(')'),
        "with its USD value: {output:?}"
    );
    assert_eq!(diff.after.receive.amount, card.receive.amount);
    assert!(diff.notes[0].contains("Sandbox"), "{:?}", diff.notes);
    // The card's JSON pasted whole reads the same.
    let whole = ReproduceSource::Quote {
        text: serde_json::to_string(&card).unwrap(),
    };
    assert!(changed(&desk.reproduce_quote(&whole).await.unwrap()).is_empty());

    // A quote with an affiliate: its bps are worked out from its fee, and the quote comes back the same.
    let request = QuoteRequest::new(("bitcoin", NATIVE), ("bob", WBTC_BOB), "250000", EVM);
    let diff = reproduce_with_affiliate(&desk, &base, request, 50).await;
    assert!(changed(&diff).is_empty(), "{:?}", diff.fields);
    assert_eq!(diff.after.affiliates.len(), 1);
    assert!(diff.fields.iter().any(|f| f.field == "affiliate 1"));
    assert!(
        diff.notes
            .iter()
            .any(|n| n.contains(&format!("{AFFILIATE}: 50 bps"))),
        "{:?}",
        diff.notes
    );

    // A V3 token swap states its one affiliate's bps: reproduced as stated.
    let diff = reproduce_with_affiliate(&desk, &base, swap_request(), 30).await;
    assert!(changed(&diff).is_empty(), "{:?}", diff.fields);
    let affiliate = diff
        .fields
        .iter()
        .find(|f| f.field == "affiliate 1")
        .unwrap();
    assert_eq!(affiliate.after.as_deref(), Some("30 bps"));
    assert!(
        !diff.notes.iter().any(|n| n.contains("worked out")),
        "{:?}",
        diff.notes
    );

    // A quote made when prices were different (its output and one fee line are not what the gateway gives now):
    // exactly those fields show, with both values.
    let mut older = card.raw.clone();
    older["onramp"]["outputAmount"]["amount"] = json!("240000");
    older["onramp"]["feeBreakdown"]["solverFee"]["amount"] = json!("600");
    let diff = desk
        .reproduce_quote(&ReproduceSource::Quote {
            text: older.to_string(),
        })
        .await
        .unwrap();
    assert_eq!(changed(&diff), ["output amount", "fee: solver fee"]);
    let output = &diff.fields[1];
    assert!(
        output.before.as_deref().unwrap().starts_with("0.0024 WBTC"),
        "{output:?}"
    );
    assert_eq!(diff.after.receive.amount, card.receive.amount);

    // The solver's pool drained since: the gateway refuses, and the sentence says what to do.
    let pool = reqwest::Client::new()
        .put(format!("{base}/admin/liquidity"))
        .json(&json!({"chain": "bob", "token": WBTC_BOB, "balance": "1000"}))
        .send()
        .await
        .unwrap();
    assert!(pool.status().is_success());
    let err = desk.reproduce_quote(&quote_text(&card)).await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::Gateway);
    assert_eq!(err.code.as_deref(), Some("INSUFFICIENT_SOLVER_BALANCE"));

    let err = desk
        .reproduce_quote(&ReproduceSource::Quote {
            text: "{\"hello\": 1}".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput);
    desk.shutdown().await;
}

#[tokio::test]
async fn a_bundles_quote_is_reproduced_on_its_own_network_with_stand_ins_for_shortened_addresses() {
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let card = card(&desk, &onramp_form(None)).await;
    let order = desk.start_order(card.raw.clone(), None).await.unwrap();
    let local_id = order.local_id.unwrap();

    let shortened = desk
        .bundle_preview(
            local_id,
            BundleOptions {
                include_identifiers: false,
            },
        )
        .unwrap()
        .text;
    assert!(
        !shortened.contains(EVM),
        "the bundle shortened the recipient"
    );
    let diff = desk
        .reproduce_quote(&ReproduceSource::Bundle {
            text: shortened.clone(),
        })
        .await
        .unwrap();
    assert!(changed(&diff).is_empty(), "{:?}", diff.fields);
    assert!(
        diff.notes[0].contains("where the bundle's order was made"),
        "{:?}",
        diff.notes
    );
    let notes = diff.notes.join("\n");
    assert!(notes.contains("shortened the recipient"), "{notes}");
    // A V3 onramp quote carries no owner (the published schema has no such field), so there is none to stand in for.
    assert!(!notes.contains("owner"), "{notes}");
    assert_ne!(diff.after.recipient, EVM, "a stand-in");
    assert!(gateway_client::address::validate_evm(&diff.after.recipient).is_ok());

    let whole = desk
        .bundle_preview(
            local_id,
            BundleOptions {
                include_identifiers: true,
            },
        )
        .unwrap()
        .text;
    let diff = desk
        .reproduce_quote(&ReproduceSource::Bundle {
            text: whole.clone(),
        })
        .await
        .unwrap();
    assert!(changed(&diff).is_empty(), "{:?}", diff.fields);
    assert_eq!(diff.after.recipient, EVM);
    assert!(
        !diff.notes.join("\n").contains("stand-in"),
        "{:?}",
        diff.notes
    );
    // A bundle pasted as a quote is still read as a bundle.
    let diff = desk
        .reproduce_quote(&ReproduceSource::Quote {
            text: whole.clone(),
        })
        .await
        .unwrap();
    assert!(diff.notes[0].contains("bundle"), "{:?}", diff.notes);

    // On another network the bundle is refused, with where to go.
    let other = Sim::new()
        .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    desk.select_network(NetworkChoice {
        kind: NetworkKind::Custom,
        custom_url: Some(other.base_url()),
    })
    .await
    .unwrap();
    let err = desk
        .reproduce_quote(&ReproduceSource::Bundle { text: whole })
        .await
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidInput);
    assert!(
        err.message
            .contains("made on Sandbox, but the app is on the custom URL")
            && err.message.contains("switch to Sandbox in Settings"),
        "{}",
        err.message
    );
    desk.shutdown().await;
}

/// Serves `app` on a free loopback port: its URL, and the server's task (abort it when done).
async fn serve(app: axum::Router) -> (String, tokio::task::JoinHandle<std::io::Result<()>>) {
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    (
        url,
        tokio::spawn(async move { axum::serve(listener, app).await }),
    )
}

/// A V3 lookup of `text` on the custom gateway at `url`.
fn custom_query(url: &str, text: &str) -> LookupQuery {
    LookupQuery {
        custom_url: Some(url.to_owned()),
        ..query(NetworkKind::Custom, "v3", text)
    }
}

/// An order as a gateway might write it: spaced out, with an escaped character and a number spelled `1.50`.
fn spaced_order(id: &str) -> String {
    format!(
        "{{\n    \"id\": \"{id}\",\n    \"timestamp\": 1767225600,\n    \"note\": \"caf\\u00e9\", \"score\": 1.50,\n    \
         \"srcInfo\": {{ \"chain\": \"bitcoin\", \"token\": \"BTC\", \"amount\": \"100000\" }},\n    \
         \"dstInfo\": {{ \"chain\": \"bob\", \"token\": \"{WBTC_BOB}\", \"amount\": \"99000\" }},\n    \
         \"status\": {{ \"inProgress\": {{ \"refund_tx\": null }} }}\n  }}"
    )
}

#[tokio::test]
async fn pages_are_walked_and_every_answer_is_kept_byte_for_byte() {
    use axum::extract::{Path as UrlPath, Query};
    use std::collections::HashMap;

    let app = axum::Router::new()
        .route(
            "/v3/get-order/{id}",
            axum::routing::get(|UrlPath(id): UrlPath<String>| async move {
                format!("{}\n", spaced_order(&id))
            }),
        )
        .route(
            "/v3/get-orders/{address}",
            axum::routing::get(
                |UrlPath(address): UrlPath<String>, Query(q): Query<HashMap<String, String>>| async move {
                    let looping = address.starts_with('T');
                    match q.get("cursor").map(String::as_str) {
                        None => format!(
                            "{{\n  \"orders\": [\n  {},\n  {}\n  ],\n  \"nextCursor\": \"page-2\"\n}}",
                            spaced_order("first"),
                            spaced_order("second")
                        ),
                        Some(_) if looping => format!(
                            "{{\"orders\": [{}], \"nextCursor\": \"page-2\"}}",
                            spaced_order("again")
                        ),
                        Some(_) => format!(
                            "{{ \"nextCursor\": null, \"orders\" : [ {} ] }}",
                            spaced_order("third")
                        ),
                    }
                },
            ),
        );
    let (url, server) = serve(app).await;
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let custom = |text: &str| custom_query(&url, text);

    let one = desk.lookup(&custom("spaced")).await.unwrap();
    assert_eq!(one.raw_text, format!("{}\n", spaced_order("spaced")));
    assert_eq!(only(&one).raw_text, one.raw_text);
    assert_eq!(only(&one).order.raw.as_ref().unwrap()["note"], "caf\u{e9}");

    let all = desk.lookup(&custom(EVM)).await.unwrap();
    let ids: Vec<&str> = all
        .orders
        .iter()
        .map(|o| o.order.order_id.as_deref().unwrap())
        .collect();
    assert_eq!(ids, ["first", "second", "third"], "every page, in order");
    for (order, id) in all.orders.iter().zip(["first", "second", "third"]) {
        assert_eq!(order.raw_text, spaced_order(id), "each order byte for byte");
    }
    let pages: Vec<Value> = serde_json::from_str(&all.raw_text).unwrap();
    assert_eq!(pages.len(), 2, "two pages, kept side by side");
    assert!(all.raw_text.contains("\"nextCursor\": \"page-2\"\n}"));

    let err = desk
        .lookup(&custom("TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7"))
        .await
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Transport);
    assert!(err.message.contains("without an end"), "{}", err.message);
    server.abort();
    desk.shutdown().await;
}

/// A gateway that never stops listing an address's orders, with a fresh cursor on every page: pages of about 1 MiB
/// (for an EVM address) or of one small order (for a Tron address). The lookup keeps at most `MAX_LOOKUP_BYTES` of
/// page text or `MAX_LOOKUP_PAGES` pages, reads no further, and says the list was cut. (Before the bound, a thousand
/// 1 MiB pages took the heap to 3.2 GiB.) The bound is asserted on what was read and kept, never on time.
#[tokio::test]
async fn an_endless_list_of_orders_is_cut_at_the_lookups_bound_and_said_so() {
    use axum::extract::{Path as UrlPath, State};
    use desk_core::support::{MAX_LOOKUP_BYTES, MAX_LOOKUP_PAGES};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    const PAD: usize = 10 * 1024;
    let hits = Arc::new(AtomicUsize::new(0));
    let app = axum::Router::new()
        .route(
            "/v3/get-orders/{address}",
            axum::routing::get(
                |State(hits): State<Arc<AtomicUsize>>, UrlPath(address): UrlPath<String>| async move {
                    let n = hits.fetch_add(1, Ordering::SeqCst);
                    let big = address.starts_with("0x");
                    let orders: Vec<String> = (0..if big { 100 } else { 1 })
                        .map(|i| {
                            let mut text = spaced_order(&format!("o{n}-{i}"));
                            if big {
                                text.insert_str(1, &format!("\"pad\": \"{}\",", "x".repeat(PAD)));
                            }
                            text
                        })
                        .collect();
                    format!(
                        "{{\"orders\": [{}], \"nextCursor\": \"page-{}\"}}",
                        orders.join(","),
                        n + 1
                    )
                },
            ),
        )
        .with_state(hits.clone());
    let (url, server) = serve(app).await;
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let custom = |text: &str| custom_query(&url, text);

    // About 1 MiB a page: cut by the bytes kept.
    let big = desk.lookup(&custom(EVM)).await.unwrap();
    let read = hits.swap(0, Ordering::SeqCst);
    let pages: Vec<Value> = serde_json::from_str(&big.raw_text).unwrap();
    let page_bytes = (big.raw_text.len() - 4) / pages.len();
    assert!(page_bytes > 1_000_000, "{page_bytes} bytes a page");
    assert!(
        big.raw_text.len() <= MAX_LOOKUP_BYTES + 2 * pages.len() + 4,
        "{} bytes kept",
        big.raw_text.len()
    );
    assert_eq!(
        pages.len(),
        MAX_LOOKUP_BYTES / page_bytes,
        "as many pages as fit"
    );
    assert_eq!(read, pages.len() + 1, "one more page read, then let go");
    assert_eq!(big.orders.len(), pages.len() * 100);
    let cut = big.cut.as_deref().expect("the list was cut");
    assert!(
        cut.starts_with(&format!(
            "The gateway lists more orders for this address than a lookup keeps (8 MiB of answers): the newest {} \
             orders, from {} pages, are shown",
            big.orders.len(),
            pages.len()
        )),
        "{cut}"
    );

    // One small order a page: cut by the page count, like the client's own pager.
    let small = desk
        .lookup(&custom("TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7"))
        .await
        .unwrap();
    assert_eq!(hits.load(Ordering::SeqCst), MAX_LOOKUP_PAGES);
    assert_eq!(small.orders.len(), MAX_LOOKUP_PAGES);
    assert!(
        small
            .cut
            .as_deref()
            .is_some_and(|c| c.contains("than a lookup keeps (200 pages)")),
        "{:?}",
        small.cut
    );
    server.abort();
    desk.shutdown().await;
}

/// A Sandbox bundle whose Bitcoin sender was shortened is reproduced with a stand-in of the Sandbox's own network
/// (regtest): a mainnet stand-in would be refused by the regtest gateway.
#[tokio::test]
async fn a_sandbox_bundle_with_a_shortened_bitcoin_sender_is_reproduced() {
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let wallet = TestWallet::from_seed([11; 32]);
    let card = card(
        &desk,
        &onramp_form(Some(wallet.address(bitcoin::Network::Regtest))),
    )
    .await;
    let order = desk.start_order(card.raw.clone(), None).await.unwrap();
    let shortened = desk
        .bundle_preview(
            order.local_id.unwrap(),
            BundleOptions {
                include_identifiers: false,
            },
        )
        .unwrap()
        .text;
    let diff = desk
        .reproduce_quote(&ReproduceSource::Bundle { text: shortened })
        .await
        .unwrap();
    assert!(changed(&diff).is_empty(), "{:?}", diff.fields);
    let notes = diff.notes.join("\n");
    assert!(notes.contains("shortened the sender"), "{notes}");
    assert!(notes.contains("bcrt1"), "a regtest stand-in: {notes}");
    desk.shutdown().await;
}
