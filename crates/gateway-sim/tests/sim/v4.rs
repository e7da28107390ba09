//! V4, by the service's current document (September 2026): get-quote takes a source-chain `refundAddress` and no
//! `ownerAddress`, create-order refuses a quote without a refund address (`MISSING_REFUND_ADDRESS`), register-tx
//! takes only an onramp's signed transaction, and an offramp's or token swap's transaction is found on its chain.
//! The official SDK 6.0's V4 behaviour (`wire-facts.md`) is what these requests do: the sender's own address as
//! `refundAddress`, the onramp's signed hex handed to register-tx, nothing registered for the other routes.

use alloy_primitives::U256;
use gateway_client::ApiVersion;
use gateway_client::wire::RouteKind;
use gateway_sim::payload::testkit::TestWallet;
use serde_json::json;

use crate::support::{
    self, amount_for, assert_conforms, http, openapi_2026, request_schema, schema_errors,
    start_with, unlimited_sim,
};

/// The test wallet: an onramp's sender and refund address, so its PSBT can be signed.
fn wallet() -> TestWallet {
    TestWallet::from_seed([7; 32])
}

/// A V4 get-quote query for `route`, paid by `sender`, with `refund` as its refund address when given.
fn query(
    route: &gateway_client::wire::RouteInfo,
    amount: &str,
    sender: &str,
    refund: Option<&str>,
) -> Vec<(&'static str, String)> {
    let mut q = vec![
        ("srcChain", route.src_chain.clone()),
        ("srcToken", route.src_token.clone()),
        ("dstChain", route.dst_chain.clone()),
        ("dstToken", route.dst_token.clone()),
        ("amount", amount.to_owned()),
        (
            "recipient",
            support::address_on(&route.dst_chain).to_owned(),
        ),
        ("slippage", "300".to_owned()),
        ("sender", sender.to_owned()),
    ];
    if let Some(refund) = refund {
        q.push(("refundAddress", refund.to_owned()));
    }
    q
}

#[tokio::test]
async fn every_v4_route_conforms_to_the_current_document_and_follows_v4s_rules() {
    let (sim, running) = start_with(unlimited_sim()).await;
    let doc = openapi_2026();
    let http = http(&running);
    let btc_sender = wallet().address(gateway_sim::payload::Network::Bitcoin);
    let (status, routes) = http.get("/v4/get-routes", &[]).await;
    assert_eq!(status, 200);
    assert_conforms(&doc, "get", "/v4/get-routes", 200, &routes);
    let create_schema = request_schema(&doc, "post", "/v4/create-order");
    let register_schema = request_schema(&doc, "patch", "/v4/register-tx");
    let mut kinds = std::collections::HashSet::new();

    for (n, route) in sim
        .catalogue()
        .routes(ApiVersion::V4)
        .into_iter()
        .enumerate()
    {
        let what = format!("{route:?}");
        let sender = if route.src_chain == "bitcoin" {
            btc_sender.clone()
        } else {
            support::address_on(&route.src_chain).to_owned()
        };
        // A modest onramp, so the test wallet's one coin pays every one of them.
        let amount = if route.kind() == RouteKind::Onramp {
            "20000".to_owned()
        } else {
            amount_for(&sim, &route, n)
        };

        // Without a refund address: a quote, but no order.
        let (status, bare) = http
            .get("/v4/get-quote", &query(&route, &amount, &sender, None))
            .await;
        assert_eq!(status, 200, "{what}: {bare}");
        assert_conforms(&doc, "get", "/v4/get-quote", 200, &bare);
        let (status, refused) = http.post("/v4/create-order", &bare).await;
        assert_eq!(status, 400, "{what}: {refused}");
        assert_eq!(refused["code"], "MISSING_REFUND_ADDRESS", "{what}");
        assert_conforms(&doc, "post", "/v4/create-order", 400, &refused);

        // With the sender's own address as the refund address, as the official SDK sends it.
        let (status, quote) = http
            .get(
                "/v4/get-quote",
                &query(&route, &amount, &sender, Some(&sender)),
            )
            .await;
        assert_eq!(status, 200, "{what}: {quote}");
        assert_conforms(&doc, "get", "/v4/get-quote", 200, &quote);
        let (key, inner) = quote.as_object().unwrap().iter().next().unwrap();
        assert!(
            inner.get("ownerAddress").is_none(),
            "{what}: V4 has no owner"
        );
        if key != "onramp" {
            assert_eq!(inner["refundAddress"], json!(sender), "{what}");
            // The refund address is part of the quote: changed, the quote is not this gateway's.
            let mut changed = quote.clone();
            changed[key]["refundAddress"] = json!(btc_sender);
            let (status, refused) = http.post("/v4/create-order", &changed).await;
            assert_eq!(
                (status, &refused["code"]),
                (400, &json!("INVALID_ORDER_ARGS")),
                "{what}"
            );
        }
        assert!(schema_errors(&create_schema, &quote).is_empty(), "{what}");
        let (status, created) = http.post("/v4/create-order", &quote).await;
        assert_eq!(status, 201, "{what}: {created}");
        assert_conforms(&doc, "post", "/v4/create-order", 201, &created);
        let order_id = created[key]["order_id"].as_str().unwrap().to_owned();

        if route.kind() == RouteKind::Onramp {
            // A txid alone is not V4's; the signed hex is, and the gateway answers its txid.
            let txid = json!({"onramp": {"order_id": order_id, "bitcoin_txid": "ab".repeat(32)}});
            assert!(!schema_errors(&register_schema, &txid).is_empty());
            let (status, refused) = http.patch("/v4/register-tx", &txid).await;
            assert_eq!(status, 400, "{what}: {refused}");
            assert!(
                refused["error"]
                    .as_str()
                    .unwrap()
                    .contains("bitcoin_tx_hex"),
                "{refused}"
            );
            assert_conforms(&doc, "patch", "/v4/register-tx", 400, &refused);
            let signed = wallet()
                .sign_psbt(created["onramp"]["psbt_hex"].as_str().unwrap())
                .unwrap();
            let body = json!({"onramp": {"order_id": order_id, "bitcoin_tx_hex": signed}});
            assert!(schema_errors(&register_schema, &body).is_empty());
            let (status, answer) = http.patch("/v4/register-tx", &body).await;
            assert_eq!(status, 200, "{what}: {answer}");
            assert_conforms(&doc, "patch", "/v4/register-tx", 200, &answer);
        } else {
            // Nothing to register: the gateway reads these from the chain.
            let body = json!({key: {"order_id": order_id, "src_tx_hash": format!("0x{}", "cd".repeat(32)), "src_chain": route.src_chain}});
            assert!(!schema_errors(&register_schema, &body).is_empty(), "{what}");
            let (status, refused) = http.patch("/v4/register-tx", &body).await;
            assert_eq!(status, 400, "{what}: {refused}");
            assert!(
                refused["error"].as_str().unwrap().contains("reads"),
                "{what}: {refused}"
            );
        }
        let (status, order) = http.get(&format!("/v4/get-order/{order_id}"), &[]).await;
        assert_eq!(status, 200, "{what}: {order}");
        assert_conforms(&doc, "get", "/v4/get-order/{id}", 200, &order);
        kinds.insert(route.kind());
    }
    assert_eq!(kinds.len(), 3, "every kind of route was tried: {kinds:?}");

    // get-orders lists V4 orders under their refund address (the sender's own), in the V3 model.
    let evm = support::address_on("bob");
    let (status, page) = http.get(&format!("/v4/get-orders/{evm}"), &[]).await;
    assert_eq!(status, 200, "{page}");
    assert_conforms(&doc, "get", "/v4/get-orders/{user_address}", 200, &page);
    assert!(!page["orders"].as_array().unwrap().is_empty());

    // A refund address on another chain than the source is refused at the quote.
    let offramp = sim
        .catalogue()
        .routes(ApiVersion::V4)
        .into_iter()
        .find(|r| r.kind() == RouteKind::Offramp)
        .unwrap();
    let (status, refused) = http
        .get(
            "/v4/get-quote",
            &query(
                &offramp,
                "100000",
                support::address_on(&offramp.src_chain),
                Some(&btc_sender),
            ),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused["error"].as_str().unwrap().contains("refundAddress"),
        "{refused}"
    );
    assert_conforms(&doc, "get", "/v4/get-quote", 400, &refused);
    running.shutdown().await.unwrap();
}

/// The heart of V4 for offramps and token swaps: nobody registers the transaction. The gateway finds it on the
/// source chain's node once it is mined, and only a transaction that pays the order counts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_v4_offramp_is_found_on_its_chain_without_being_registered() {
    use alloy_sol_types::SolCall;
    use gateway_client::wire::{NATIVE_TOKEN, OrderStatus};
    use gateway_client::{ClientError, QuoteRequest};
    use gateway_sim::evm_node::calls;

    const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
    const USER: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    const BTC: &str = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";
    let (node, sim, running, v4) = support::sim_on_a_bob_node(USER, WBTC_BOB, ApiVersion::V4).await;

    let mut request =
        QuoteRequest::new(("bob", WBTC_BOB), ("bitcoin", NATIVE_TOKEN), "100000", BTC);
    request.sender = Some(USER.into());
    // Without a refund address the order cannot be made, and the client reads the code.
    let bare = v4.get_quote(&request).await.unwrap().value;
    match v4.create_order(&bare).await {
        Err(ClientError::Gateway { body, .. }) => {
            assert_eq!(body.code, gateway_client::ErrorCode::MissingRefundAddress)
        }
        other => panic!("{other:?}"),
    }
    request.refund_address = Some(USER.into());
    let quote = v4.get_quote(&request).await.unwrap().value;
    assert_eq!(quote.view().refund_address(), Some(USER));
    let created = v4.create_order(&quote).await.unwrap().value;
    let id = created.order_id().to_owned();
    let tx = created.tx().unwrap().as_evm().unwrap().clone();
    let by_hash = |hash: String| {
        let v4 = v4.clone();
        async move { v4.get_order(&hash).await }
    };

    // An approval is mined first: a transaction of the sender, but not one that pays the order.
    let approve = calls::approveCall {
        spender: tx.to.parse().unwrap(),
        amount: U256::from(100_000u64),
    }
    .abi_encode();
    let approval = node
        .send_as(USER, WBTC_BOB, &approve, U256::ZERO)
        .await
        .unwrap();
    let approval_hash = approval["transactionHash"].as_str().unwrap().to_owned();
    let waiting = v4.get_order(&id).await.unwrap().value;
    assert!(
        matches!(waiting.status, OrderStatus::InProgress { .. }),
        "{:?}",
        waiting.status
    );
    assert!(matches!(
        by_hash(approval_hash).await,
        Err(ClientError::NotFound)
    ));

    // The order's own call, broadcast and never registered: found on the chain at the next read.
    let paid = node
        .send_as(
            USER,
            &tx.to,
            &alloy_primitives::hex::decode(&tx.data).unwrap(),
            U256::ZERO,
        )
        .await
        .unwrap();
    let paid_hash = paid["transactionHash"].as_str().unwrap().to_owned();
    let found = v4.get_order(&id).await.unwrap().value;
    let by_its_hash = by_hash(paid_hash.clone()).await.unwrap().value;
    assert_eq!(by_its_hash.id, found.id);
    assert_eq!(
        found
            .src_info
            .tx_hash
            .as_deref()
            .map(str::to_ascii_lowercase),
        Some(paid_hash.to_ascii_lowercase())
    );
    // And the order runs its course from there.
    let moved = sim.advance_clock(24 * 3600).await;
    assert_eq!(moved.finished, 1, "{moved:?}");
    let done = v4.get_order(&id).await.unwrap().value;
    assert!(
        !matches!(done.status, OrderStatus::InProgress { .. }),
        "{:?}",
        done.status
    );

    // A new order, approved and paid on the chain by its own call, and registered with nobody.
    let pay_a_new_order = || async {
        let created = v4
            .create_order(&v4.get_quote(&request).await.unwrap().value)
            .await
            .unwrap()
            .value;
        let tx = created.tx().unwrap().as_evm().unwrap().clone();
        node.send_as(USER, WBTC_BOB, &approve, U256::ZERO)
            .await
            .unwrap();
        let data = alloy_primitives::hex::decode(&tx.data).unwrap();
        node.send_as(USER, &tx.to, &data, U256::ZERO).await.unwrap();
        created
    };

    // Paid and read by nobody before the clock moves a day: found as it was before the move (the real gateway reads
    // its chains all along), so it runs its course instead of expiring unpaid on the way.
    let created = pay_a_new_order().await;
    let moved = sim.advance_clock(24 * 3600).await;
    assert_eq!((moved.finished, moved.expired), (1, 0), "{moved:?}");
    let done = v4.get_order(created.order_id()).await.unwrap().value;
    assert!(done.src_info.tx_hash.is_some(), "{done:?}");

    // The clock as the app's "Finish pending orders now" reads it counts an order paid and read by nobody as under
    // way, and moving it by what it says finishes that order.
    pay_a_new_order().await;
    let reading = sim.read_clock().await;
    assert_eq!(reading.pending, 1, "{reading:?}");
    let moved = sim.advance_clock(reading.finish_in_secs).await;
    assert_eq!((moved.finished, moved.expired), (1, 0), "{moved:?}");
    running.shutdown().await.unwrap();
}
