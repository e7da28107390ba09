//! The spec's order rules as integration tests through `gateway-client`: signed quotes (tampering, expiry,
//! duplicates), solver liquidity (refusal, release, payout), real payloads (a PSBT signed by a test wallet and handed
//! back), register-tx checks, the deterministic endings with their status bodies, the clock (Rust API and admin
//! endpoint), and the state file.

use crate::support;

use alloy_primitives::U256;
use gateway_client::address::BitcoinNetwork;
use gateway_client::wire::{
    CreateOrderResponse, NATIVE_TOKEN, OrderStatus, RegisterTx, RegisterTxResponse,
};
use gateway_client::{ApiVersion, ClientError, ErrorCode, ErrorDetails, QuoteRequest};
use gateway_sim::orders::REGISTRATION_WINDOW_SECS;
use gateway_sim::payload::testkit::TestWallet;
use gateway_sim::signing::QUOTE_TTL_SECS;
use gateway_sim::{Sim, SimConfig};
use serde_json::{Value, json};
use support::{client, start, start_with};

const EVM: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const OWNER: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
const BTC_ADDR: &str = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";
const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
const USDT_BOB: &str = "0x05D032ac25d322df992303dCa074EE7392C117b9";
const USDT_ETH: &str = "0xdac17f958d2ee523a2206206994597c13d831ec7";

fn wallet() -> TestWallet {
    TestWallet::from_seed([7; 32])
}

fn onramp(amount: &str, sender: Option<&str>) -> QuoteRequest {
    let mut r = QuoteRequest::new(("bitcoin", NATIVE_TOKEN), ("bob", WBTC_BOB), amount, EVM);
    r.sender = sender.map(str::to_owned);
    r
}

fn offramp(amount: &str) -> QuoteRequest {
    let mut r = QuoteRequest::new(
        ("bob", WBTC_BOB),
        ("bitcoin", NATIVE_TOKEN),
        amount,
        BTC_ADDR,
    );
    r.owner_address = Some(OWNER.into());
    r.sender = Some(EVM.into());
    r
}

fn swap(amount: &str) -> QuoteRequest {
    let mut r = QuoteRequest::new(("bob", USDT_BOB), ("ethereum", USDT_ETH), amount, EVM);
    r.slippage_bps = 100;
    r.owner_address = Some(OWNER.into());
    r
}

fn gateway_error(err: ClientError) -> (ErrorCode, Option<ErrorDetails>, String) {
    match err {
        ClientError::Gateway { status, body } => {
            assert_eq!(status, 400, "{}", body.error);
            let details = body.typed_details();
            (body.code, details, body.error)
        }
        other => panic!("expected a gateway error, got {other:?}"),
    }
}

fn evm_hash(n: u8) -> String {
    format!("0x{}", hex_of(n))
}

fn hex_of(n: u8) -> String {
    format!("{n:02x}").repeat(32)
}

#[tokio::test]
async fn an_onramp_psbt_signed_by_a_wallet_is_accepted_and_the_order_completes() {
    let (sim, running) = start().await;
    let v3 = client(&running, ApiVersion::V3);
    let sender = wallet().address(bitcoin::Network::Bitcoin);
    let quote = v3
        .get_quote(&onramp("250000", Some(&sender)))
        .await
        .unwrap()
        .value;
    let created = v3.create_order(&quote).await.unwrap().value;
    let CreateOrderResponse::Onramp(order) = created else {
        panic!("onramp")
    };
    assert!(
        order.address.starts_with("bc1q"),
        "a mainnet deposit address: {}",
        order.address
    );
    let psbt = order
        .psbt_hex
        .as_deref()
        .expect("a PSBT when the quote has a sender");
    let op_return = order.op_return_data.clone().unwrap();
    assert_eq!(op_return.len(), 64, "32 bytes committing to the order");

    // The wallet signs; the gateway takes the transaction.
    let signed = wallet().sign_psbt(psbt).unwrap();
    let answer = v3
        .register_tx(&RegisterTx::onramp(&order.order_id, Some(&signed), None))
        .await
        .unwrap()
        .value;
    let RegisterTxResponse::Onramp { txid } = answer else {
        panic!("{answer:?}")
    };

    // Found by id and by txid; in progress, then (600 s later) settled with the quoted output and its USD value.
    let by_txid = v3.get_order(&txid).await.unwrap().value;
    assert_eq!(by_txid.id, order.order_id);
    assert_eq!(by_txid.src_info.tx_hash.as_deref(), Some(txid.as_str()));
    assert!(matches!(by_txid.status, OrderStatus::InProgress { .. }));
    sim.clock().advance(600);
    let done = v3.get_order(&order.order_id).await.unwrap().value;
    let OrderStatus::Success { received_tokens } = &done.status else {
        panic!("{:?}", done.status)
    };
    assert_eq!(received_tokens.len(), 1);
    assert_eq!(
        received_tokens[0].amount,
        quote.view().output_amount().amount
    );
    assert_eq!(received_tokens[0].chain, "bob");
    assert!(received_tokens[0].usd.is_some());
    assert!(received_tokens[0].tx_hash.starts_with("0x"));

    // Registering the same transaction again is harmless; another one is refused.
    v3.register_tx(&RegisterTx::onramp(&order.order_id, Some(&signed), None))
        .await
        .unwrap();
    let err = v3
        .register_tx(&RegisterTx::onramp(&order.order_id, None, Some(&hex_of(9))))
        .await
        .unwrap_err();
    assert_eq!(gateway_error(err).0, ErrorCode::InvalidRequest);
    running.shutdown().await.unwrap();
}

#[tokio::test]
async fn register_tx_checks_the_bitcoin_transaction_the_hash_and_the_order() {
    let (_sim, running) = start().await;
    let v3 = client(&running, ApiVersion::V3);
    let sender = wallet().address(bitcoin::Network::Bitcoin);
    let quote = v3
        .get_quote(&onramp("250000", Some(&sender)))
        .await
        .unwrap()
        .value;
    let CreateOrderResponse::Onramp(order) = v3.create_order(&quote).await.unwrap().value else {
        panic!("onramp")
    };
    let psbt_hex = order.psbt_hex.clone().unwrap();

    // Underpaid by one sat: INSUFFICIENT_PAYMENT_AMOUNT with the amounts.
    let mut psbt: bitcoin::Psbt = bitcoin::Psbt::deserialize(&hex_decode(&psbt_hex)).unwrap();
    psbt.unsigned_tx.output[0].value = bitcoin::Amount::from_sat(249_999);
    let short = wallet().sign_psbt(&hex_encode(&psbt.serialize())).unwrap();
    let err = v3
        .register_tx(&RegisterTx::onramp(&order.order_id, Some(&short), None))
        .await
        .unwrap_err();
    let (code, details, _) = gateway_error(err);
    assert_eq!(code, ErrorCode::InsufficientPaymentAmount);
    assert_eq!(
        details,
        Some(ErrorDetails::ExpectedActual {
            expected: "250000".into(),
            actual: "249999".into()
        })
    );

    // Another OP_RETURN: refused with a sentence.
    let mut psbt: bitcoin::Psbt = bitcoin::Psbt::deserialize(&hex_decode(&psbt_hex)).unwrap();
    psbt.unsigned_tx.output[1].script_pubkey = bitcoin::ScriptBuf::new_op_return(
        bitcoin::script::PushBytesBuf::try_from(vec![0u8; 32]).unwrap(),
    );
    let wrong = wallet().sign_psbt(&hex_encode(&psbt.serialize())).unwrap();
    let err = v3
        .register_tx(&RegisterTx::onramp(&order.order_id, Some(&wrong), None))
        .await
        .unwrap_err();
    let (code, _, message) = gateway_error(err);
    assert_eq!(code, ErrorCode::InvalidRequest);
    assert!(message.to_lowercase().contains("op_return"), "{message}");

    // Unknown order.
    let err = v3
        .register_tx(&RegisterTx::onramp("no-such-order", None, Some(&hex_of(1))))
        .await
        .unwrap_err();
    assert_eq!(gateway_error(err).0, ErrorCode::OrderNotFound);

    // Malformed hashes reach the gateway only raw (the client validates them first): refused there too.
    let http = reqwest::Client::new();
    for body in [
        json!({"onramp": {"order_id": order.order_id, "bitcoin_txid": "0x1234"}}),
        json!({"onramp": {"order_id": order.order_id, "bitcoin_tx_hex": "00ff"}}),
        json!({"onramp": {"order_id": order.order_id}}),
    ] {
        let response = http
            .patch(format!("{}/v3/register-tx", running.base_url()))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 400, "{body}");
        let answer: Value = response.json().await.unwrap();
        assert_eq!(answer["code"], "INVALID_REQUEST", "{body}: {answer}");
    }

    // An offramp: the hash must be of its chain, the chain its source.
    let quote = v3.get_quote(&offramp("100000")).await.unwrap().value;
    let id = v3
        .create_order(&quote)
        .await
        .unwrap()
        .value
        .order_id()
        .to_owned();
    for body in [
        json!({"offramp": {"order_id": id, "src_tx_hash": hex_of(3), "src_chain": "bob"}}),
        json!({"offramp": {"order_id": id, "src_tx_hash": evm_hash(3), "src_chain": "ethereum"}}),
        json!({"tokenSwap": {"order_id": id, "src_tx_hash": evm_hash(3), "src_chain": "bob"}}),
    ] {
        let response = http
            .patch(format!("{}/v3/register-tx", running.base_url()))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 400, "{body}");
    }
    v3.register_tx(&RegisterTx::offramp(&id, evm_hash(3), "bob"))
        .await
        .unwrap();
    running.shutdown().await.unwrap();
}

fn hex_decode(text: &str) -> Vec<u8> {
    alloy_primitives::hex::decode(text).unwrap()
}

fn hex_encode(bytes: &[u8]) -> String {
    alloy_primitives::hex::encode(bytes)
}

#[tokio::test]
async fn tampered_expired_and_reused_quotes_are_refused() {
    let (sim, running) = start().await;
    let v3 = client(&running, ApiVersion::V3);
    for request in [onramp("100000", None), offramp("100000"), swap("50000000")] {
        let raw = v3.get_quote(&request).await.unwrap().value.into_raw();
        let key = raw.as_object().unwrap().keys().next().unwrap().clone();

        // One sat more output: not the quote the gateway issued.
        let mut tampered = raw.clone();
        let out: U256 = tampered[&key]["outputAmount"]["amount"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        tampered[&key]["outputAmount"]["amount"] = json!((out + U256::from(1u8)).to_string());
        let err = v3
            .create_order(&gateway_client::wire::Quote::from_json(tampered).unwrap())
            .await
            .unwrap_err();
        assert_eq!(gateway_error(err).0, ErrorCode::InvalidOrderArgs, "{key}");

        // Unchanged: accepted once, then DUPLICATE_ORDER.
        let quote = gateway_client::wire::Quote::from_json(raw).unwrap();
        v3.create_order(&quote).await.unwrap();
        let err = v3.create_order(&quote).await.unwrap_err();
        assert_eq!(gateway_error(err).0, ErrorCode::DuplicateOrder, "{key}");

        // A fresh quote kept past its lifetime: ORDER_EXPIRED.
        let late = v3.get_quote(&request).await.unwrap().value;
        sim.clock().advance(QUOTE_TTL_SECS + 1);
        let err = v3.create_order(&late).await.unwrap_err();
        assert_eq!(gateway_error(err).0, ErrorCode::OrderExpired, "{key}");
    }
    running.shutdown().await.unwrap();
}

#[tokio::test]
async fn liquidity_is_reserved_refused_released_and_paid_out() {
    let (sim, running) = start().await;
    let v3 = client(&running, ApiVersion::V3);
    // Room for one 100404-sat onramp's output (which will fail) and no more.
    let first = v3.get_quote(&onramp("100404", None)).await.unwrap().value;
    let out: U256 = first.view().output_amount().amount.parse().unwrap();
    sim.set_liquidity("bob", WBTC_BOB, out).await;
    let CreateOrderResponse::Onramp(order) = v3.create_order(&first).await.unwrap().value else {
        panic!("onramp")
    };
    assert_eq!(sim.pool("bob", WBTC_BOB).reserved, out);

    let err = v3.get_quote(&onramp("100000", None)).await.unwrap_err();
    let (code, details, _) = gateway_error(err);
    assert_eq!(code, ErrorCode::InsufficientSolverBalance);
    assert_eq!(
        details,
        Some(ErrorDetails::SolverBalance {
            limit: "0".into(),
            token: WBTC_BOB.into(),
            chain_id: "60808".into()
        })
    );

    // A quote made while there was room is refused at create-order too.
    sim.set_liquidity("bob", WBTC_BOB, out * U256::from(2u8))
        .await;
    let second = v3.get_quote(&onramp("100000", None)).await.unwrap().value;
    sim.set_liquidity("bob", WBTC_BOB, out).await;
    let err = v3.create_order(&second).await.unwrap_err();
    assert_eq!(gateway_error(err).0, ErrorCode::InsufficientSolverBalance);

    // The first order (…404) fails half-way through: its reservation is released, and the balance stays.
    v3.register_tx(&RegisterTx::onramp(&order.order_id, None, Some(&hex_of(5))))
        .await
        .unwrap();
    sim.clock().advance(300);
    let failed = v3.get_order(&order.order_id).await.unwrap().value;
    assert!(
        matches!(failed.status, OrderStatus::Failed { .. }),
        "{:?}",
        failed.status
    );
    let pool = sim.pool("bob", WBTC_BOB);
    assert_eq!((pool.balance, pool.reserved), (out, U256::ZERO));

    // A successful order is paid out of the pool.
    let third = v3.get_quote(&onramp("100123", None)).await.unwrap().value;
    let paid: U256 = third.view().output_amount().amount.parse().unwrap();
    let id = v3
        .create_order(&third)
        .await
        .unwrap()
        .value
        .order_id()
        .to_owned();
    v3.register_tx(&RegisterTx::onramp(&id, None, Some(&hex_of(6))))
        .await
        .unwrap();
    sim.clock().advance(600);
    assert!(matches!(
        v3.get_order(&id).await.unwrap().value.status,
        OrderStatus::Success { .. }
    ));
    let pool = sim.pool("bob", WBTC_BOB);
    assert_eq!((pool.balance, pool.reserved), (out - paid, U256::ZERO));

    // An order never registered expires: failed, released, and register-tx says ORDER_EXPIRED.
    sim.set_liquidity("bob", WBTC_BOB, U256::from(10_000_000u64))
        .await;
    let fourth = v3.get_quote(&onramp("100000", None)).await.unwrap().value;
    let id = v3
        .create_order(&fourth)
        .await
        .unwrap()
        .value
        .order_id()
        .to_owned();
    assert!(sim.pool("bob", WBTC_BOB).reserved > U256::ZERO);
    sim.clock().advance(REGISTRATION_WINDOW_SECS);
    assert!(matches!(
        v3.get_order(&id).await.unwrap().value.status,
        OrderStatus::Failed { .. }
    ));
    assert_eq!(sim.pool("bob", WBTC_BOB).reserved, U256::ZERO);
    let err = v3
        .register_tx(&RegisterTx::onramp(&id, None, Some(&hex_of(7))))
        .await
        .unwrap_err();
    assert_eq!(gateway_error(err).0, ErrorCode::OrderExpired);
    running.shutdown().await.unwrap();
}

#[tokio::test]
async fn endings_follow_the_amount_and_offramps_show_their_bitcoin_payout() {
    let (sim, running) = start().await;
    let v3 = client(&running, ApiVersion::V3);
    let v2 = client(&running, ApiVersion::V2);
    let v1 = client(&running, ApiVersion::V1);

    // 0.00100123 WBTC → BTC succeeds; …808 is refunded.
    let mut ids = Vec::new();
    for (n, amount) in [(1u8, "100123"), (2, "100808")] {
        let quote = v3.get_quote(&offramp(amount)).await.unwrap().value;
        let created = v3.create_order(&quote).await.unwrap().value;
        let tx = created.tx().unwrap();
        assert_eq!(
            tx.as_evm().unwrap().to,
            quote.raw()["offramp"]["txTo"].as_str().unwrap()
        );
        let id = created.order_id().to_owned();
        v3.register_tx(&RegisterTx::offramp(&id, evm_hash(n), "bob"))
            .await
            .unwrap();
        ids.push((id, quote));
    }
    sim.clock().advance(900);
    let paying = v3.get_order(&ids[0].0).await.unwrap().value;
    let OrderStatus::InProgress {
        pending_btc_payment: Some(payment),
        ..
    } = &paying.status
    else {
        panic!("{:?}", paying.status)
    };
    assert_eq!(payment.amount, ids[0].1.view().output_amount().amount);
    assert_eq!(payment.txid.len(), 64);
    assert!(payment.usd.is_some());
    let v2_view = v2.get_order(&ids[0].0).await.unwrap().value;
    assert!(v2_view.src_info.usd.is_none(), "V2 orders carry no usd");

    sim.clock().advance(900);
    let refunded = v3.get_order(&ids[1].0).await.unwrap().value;
    let OrderStatus::Refunded { refunded_tokens } = &refunded.status else {
        panic!("{:?}", refunded.status)
    };
    assert_eq!(refunded_tokens[0].amount, "100808");
    assert_eq!(refunded_tokens[0].chain, "bob");
    assert!(refunded_tokens[0].usd.is_some());
    let v1_view = v1.get_order(&ids[1].0).await.unwrap().value;
    assert!(matches!(v1_view.status, OrderStatus::Refunded { .. }));
    let done = v3.get_order(&ids[0].0).await.unwrap().value;
    let OrderStatus::Success { received_tokens } = &done.status else {
        panic!("{:?}", done.status)
    };
    assert_eq!(
        received_tokens[0].tx_hash, payment.txid,
        "the payout that was pending"
    );
    assert!(done.status.is_terminal());

    // Both are listed for the owner, newest first, and the pager walks them.
    let all = v3.orders_pager(OWNER, Some(1)).collect_all().await.unwrap();
    let listed: Vec<&str> = all.iter().map(|o| o.id.as_str()).collect();
    assert_eq!(listed, vec![ids[1].0.as_str(), ids[0].0.as_str()]);
    let v1_all = v1.get_orders(OWNER, None, None).await.unwrap().value;
    assert_eq!(v1_all.orders.len(), 2);
    running.shutdown().await.unwrap();
}

#[tokio::test]
async fn the_admin_clock_moves_orders_and_admin_is_off_unless_enabled() {
    let (_, plain) = start().await;
    let http = reqwest::Client::new();
    let response = http
        .post(format!("{}/admin/clock/advance", plain.base_url()))
        .json(&json!({"secs": 10}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404, "no admin interface unless enabled");

    let sim = Sim::with_config(SimConfig {
        admin: true,
        access: gateway_sim::access::AccessConfig::unlimited(),
        ..SimConfig::default()
    })
    .unwrap();
    let (sim, running) = start_with(sim).await;
    let v3 = client(&running, ApiVersion::V3);
    let quote = v3.get_quote(&swap("50000123")).await.unwrap().value;
    let id = v3
        .create_order(&quote)
        .await
        .unwrap()
        .value
        .order_id()
        .to_owned();
    v3.register_tx(&RegisterTx::token_swap(&id, evm_hash(4), "bob"))
        .await
        .unwrap();
    let before = sim.clock().now();
    let answer: Value = http
        .post(format!("{}/admin/clock/advance", running.base_url()))
        .json(&json!({"secs": 120}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(answer["now"].as_u64().unwrap() >= before + 120);
    assert!(matches!(
        v3.get_order(&id).await.unwrap().value.status,
        OrderStatus::Success { .. }
    ));
    running.shutdown().await.unwrap();
}

#[tokio::test]
async fn a_state_file_keeps_orders_keys_and_cursors_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sandbox.json");
    let config = SimConfig {
        state_file: Some(path.clone()),
        access: gateway_sim::access::AccessConfig::unlimited(),
        ..SimConfig::default()
    };
    let (order_id, quote, cursor) = {
        let (_sim, running) = start_with(Sim::with_config(config.clone()).unwrap()).await;
        let v3 = client(&running, ApiVersion::V3);
        let first = v3.get_quote(&swap("50000123")).await.unwrap().value;
        let id = v3
            .create_order(&first)
            .await
            .unwrap()
            .value
            .order_id()
            .to_owned();
        // An identical request gets the identical quote (token-swap quotes carry no nonce); each issue makes one
        // order.
        let second = v3.get_quote(&swap("50000123")).await.unwrap().value;
        v3.create_order(&second).await.unwrap();
        let page = v3.get_orders(OWNER, None, Some(1)).await.unwrap().value;
        let third = v3.get_quote(&onramp("100000", None)).await.unwrap().value;
        running.shutdown().await.unwrap();
        (id, third, page.next_cursor.unwrap())
    };
    assert!(path.exists());

    let (sim, running) = start_with(Sim::with_config(config.clone()).unwrap()).await;
    let v3 = client(&running, ApiVersion::V3);
    assert_eq!(sim.orders().len(), 2);
    assert_eq!(v3.get_order(&order_id).await.unwrap().value.id, order_id);
    let page = v3
        .get_orders(OWNER, Some(&cursor), Some(1))
        .await
        .unwrap()
        .value;
    assert_eq!(
        page.orders[0].id, order_id,
        "a cursor from before the restart still works"
    );
    v3.create_order(&quote)
        .await
        .expect("a quote signed before the restart is still genuine");
    running.shutdown().await.unwrap();

    // A damaged file is reported, not replaced.
    std::fs::write(&path, b"{ not json").unwrap();
    let err = Sim::with_config(config).unwrap_err();
    assert!(err.to_string().contains("sandbox.json"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), b"{ not json");
}

#[tokio::test]
async fn regtest_sims_hand_out_regtest_addresses_and_refuse_mainnet_senders() {
    let sim = Sim::with_config(SimConfig {
        network: BitcoinNetwork::Regtest,
        access: gateway_sim::access::AccessConfig::unlimited(),
        ..SimConfig::default()
    })
    .unwrap();
    let (_sim, running) = start_with(sim).await;
    let v3 = client(&running, ApiVersion::V3);
    let sender = wallet().address(bitcoin::Network::Regtest);
    let quote = v3
        .get_quote(&onramp("100000", Some(&sender)))
        .await
        .unwrap()
        .value;
    let CreateOrderResponse::Onramp(order) = v3.create_order(&quote).await.unwrap().value else {
        panic!("onramp")
    };
    assert!(order.address.starts_with("bcrt1"), "{}", order.address);
    let mainnet = wallet().address(bitcoin::Network::Bitcoin);
    let err = v3
        .get_quote(&onramp("100000", Some(&mainnet)))
        .await
        .unwrap_err();
    assert_eq!(gateway_error(err).0, ErrorCode::InvalidRequest);
    running.shutdown().await.unwrap();
}

/// Every refusal of register-tx names the field it is about and says what to do; a txid where the transaction is
/// expected, a PSBT where the finalized transaction is expected, and another chain's kind of hash each get their own
/// sentence.
#[tokio::test]
async fn register_tx_refusals_name_their_field() {
    let (_sim, running) = start().await;
    let http = support::http(&running);
    let quote_of = |pairs: &[(&'static str, &str)]| -> Vec<(&'static str, String)> {
        pairs.iter().map(|(k, v)| (*k, (*v).to_owned())).collect()
    };
    let (_, onramp) = http
        .get(
            "/v3/get-quote",
            &quote_of(&[
                ("srcChain", "bitcoin"),
                ("srcToken", "0x0000000000000000000000000000000000000000"),
                ("dstChain", "bob"),
                ("dstToken", WBTC_BOB),
                ("amount", "100000"),
                ("recipient", EVM),
                ("slippage", "300"),
                ("sender", BTC_ADDR),
            ]),
        )
        .await;
    let (status, created) = http.post("/v3/create-order", &onramp).await;
    assert_eq!(status, 201, "{created}");
    let onramp_id = created["onramp"]["order_id"].as_str().unwrap().to_owned();
    let psbt_hex = created["onramp"]["psbt_hex"].as_str().unwrap().to_owned();
    let (_, offramp) = http
        .get(
            "/v3/get-quote",
            &quote_of(&[
                ("srcChain", "bob"),
                ("srcToken", WBTC_BOB),
                ("dstChain", "bitcoin"),
                ("dstToken", "0x0000000000000000000000000000000000000000"),
                ("amount", "100000"),
                ("recipient", BTC_ADDR),
                ("slippage", "300"),
                ("ownerAddress", OWNER),
            ]),
        )
        .await;
    let (status, created) = http.post("/v3/create-order", &offramp).await;
    assert_eq!(status, 201, "{created}");
    let offramp_id = created["offramp"]["order_id"].as_str().unwrap().to_owned();

    let psbt_base64 = {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.encode(hex_decode(&psbt_hex))
    };
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        (
            "v3",
            json!({"swap": {"order_id": onramp_id}}),
            "INVALID_REQUEST",
            "the body's key \"swap\"",
        ),
        (
            "v3",
            json!({"onramp": {}}),
            "INVALID_REQUEST",
            "order_id is missing",
        ),
        (
            "v3",
            json!({"onramp": {"order_id": "nope", "bitcoin_txid": hex_of(1)}}),
            "ORDER_NOT_FOUND",
            "order_id \"nope\"",
        ),
        (
            "v3",
            json!({"offramp": {"order_id": onramp_id, "src_tx_hash": evm_hash(1), "src_chain": "bob"}}),
            "INVALID_REQUEST",
            "register it under the key \"onramp\"",
        ),
        (
            "v3",
            json!({"onramp": {"order_id": onramp_id, "bitcoin_tx_hex": hex_of(2)}}),
            "INVALID_REQUEST",
            "bitcoin_tx_hex: this looks like a transaction id, not a signed transaction: send it as bitcoin_txid",
        ),
        (
            "v3",
            json!({"onramp": {"order_id": onramp_id, "bitcoin_tx_hex": psbt_hex}}),
            "INVALID_REQUEST",
            "bitcoin_tx_hex: this is a PSBT, not a finalized transaction",
        ),
        (
            "v3",
            json!({"onramp": {"order_id": onramp_id, "bitcoin_tx_hex": psbt_base64}}),
            "INVALID_REQUEST",
            "bitcoin_tx_hex: this is a PSBT",
        ),
        (
            "v3",
            json!({"onramp": {"order_id": onramp_id, "bitcoin_tx_hex": "00ff"}}),
            "INVALID_REQUEST",
            "bitcoin_tx_hex: the Bitcoin transaction was refused",
        ),
        (
            "v3",
            json!({"onramp": {"order_id": onramp_id, "bitcoin_txid": "zz"}}),
            "INVALID_REQUEST",
            "bitcoin_txid:",
        ),
        (
            "v3",
            json!({"onramp": {"order_id": onramp_id, "bitcoin_txid": "00".repeat(100)}}),
            "INVALID_REQUEST",
            "bitcoin_txid: this looks like a whole transaction",
        ),
        (
            "v3",
            json!({"onramp": {"order_id": onramp_id}}),
            "INVALID_REQUEST",
            "bitcoin_tx_hex and bitcoin_txid are both missing",
        ),
        (
            "v3",
            json!({"offramp": {"order_id": offramp_id, "src_chain": "bob"}}),
            "INVALID_REQUEST",
            "src_tx_hash is missing",
        ),
        (
            "v3",
            json!({"offramp": {"order_id": offramp_id, "src_tx_hash": evm_hash(1)}}),
            "INVALID_REQUEST",
            "src_chain is missing",
        ),
        (
            "v3",
            json!({"offramp": {"order_id": offramp_id, "src_tx_hash": evm_hash(1), "src_chain": "base"}}),
            "INVALID_REQUEST",
            "src_chain: order",
        ),
        (
            "v3",
            json!({"offramp": {"order_id": offramp_id, "src_tx_hash": "0x12", "src_chain": "bob"}}),
            "INVALID_REQUEST",
            "src_tx_hash:",
        ),
        (
            "v3",
            json!({"offramp": {"order_id": offramp_id, "src_tx_hash": bs58::encode([7u8; 64]).into_string(), "src_chain": "bob"}}),
            "INVALID_REQUEST",
            "src_tx_hash: this looks like a Solana signature",
        ),
        (
            "v2",
            json!({"offramp": {"order_id": offramp_id}}),
            "INVALID_REQUEST",
            "evm_txhash is missing",
        ),
        (
            "v2",
            json!({"offramp": {"order_id": offramp_id, "evm_txhash": "0x12"}}),
            "INVALID_REQUEST",
            "evm_txhash:",
        ),
    ];
    for (version, body, code, sentence) in cases {
        let (status, answer) = http.patch(&format!("/{version}/register-tx"), &body).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["code"], code, "{body}: {answer}");
        let message = answer["error"].as_str().unwrap();
        assert!(
            message.contains(sentence),
            "{body}: {message:?} lacks {sentence:?}"
        );
    }

    // Registered once, a second transaction names the field; the same one again is fine.
    let first = json!({"offramp": {"order_id": offramp_id, "src_tx_hash": evm_hash(8), "src_chain": "bob"}});
    assert_eq!(http.patch("/v3/register-tx", &first).await.0, 200);
    assert_eq!(http.patch("/v3/register-tx", &first).await.0, 200);
    let second = json!({"offramp": {"order_id": offramp_id, "src_tx_hash": evm_hash(9), "src_chain": "bob"}});
    let (status, answer) = http.patch("/v3/register-tx", &second).await;
    assert_eq!(status, 400);
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .starts_with("src_tx_hash: order"),
        "{answer}"
    );
}

/// get-max-spendable answers what the address's coin can pay after the fee; an onramp PSBT spends that coin; once
/// the signed transaction is registered its change is the address's new coin; a deposit beyond the balance is refused
/// at create-order.
#[tokio::test]
async fn max_spendable_follows_the_coin_the_psbts_spend() {
    let (_sim, running) = start().await;
    let http = support::http(&running);
    let sender = wallet().address(gateway_sim::payload::Network::Bitcoin);
    let script = wallet().script_pubkey();
    let spendable = |page: &Value| -> u64 {
        assert_eq!(page["amount"]["chain"], "bitcoin");
        page["amount"]["amount"].as_str().unwrap().parse().unwrap()
    };
    let (status, first) = http
        .get(&format!("/v3/get-max-spendable/{sender}"), &[])
        .await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["userAddress"], sender.as_str());
    let before = spendable(&first);
    let coin = gateway_sim::payload::initial_coin(&script);
    assert_eq!(before, gateway_sim::payload::max_spendable(&coin, &script));
    for v in ["v1", "v2"] {
        let (status, same) = http
            .get(&format!("/{v}/get-max-spendable/{sender}"), &[])
            .await;
        assert_eq!((status, spendable(&same)), (200, before));
    }

    // Beyond the balance: refused at create-order, naming what can be spent.
    let query = |amount: u64| {
        vec![
            ("srcChain", "bitcoin".to_owned()),
            (
                "srcToken",
                "0x0000000000000000000000000000000000000000".to_owned(),
            ),
            ("dstChain", "bob".to_owned()),
            ("dstToken", WBTC_BOB.to_owned()),
            ("amount", amount.to_string()),
            ("recipient", EVM.to_owned()),
            ("slippage", "300".to_owned()),
            ("sender", sender.clone()),
        ]
    };
    let (_, too_much) = http.get("/v3/get-quote", &query(before + 1)).await;
    let (status, refused) = http.post("/v3/create-order", &too_much).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["code"], "INSUFFICIENT_CONFIRMED_FUNDS");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains(&before.to_string()),
        "{refused}"
    );

    // A deposit of a third: signed, registered, and the change is the new balance.
    let amount = before / 3;
    let (_, quote) = http.get("/v3/get-quote", &query(amount)).await;
    let (_, tx, change) = support::register_signed_onramp(&http, &quote, &wallet(), &script).await;
    let (_, after) = http
        .get(&format!("/v3/get-max-spendable/{sender}"), &[])
        .await;
    assert_eq!(
        spendable(&after),
        change - gateway_sim::payload::deposit_fee_sats(&script, false)
    );
    // The next PSBT spends that change.
    let (_, quote) = http.get("/v3/get-quote", &query(amount)).await;
    let (_, created) = http.post("/v3/create-order", &quote).await;
    let next = wallet()
        .sign_psbt(created["onramp"]["psbt_hex"].as_str().unwrap())
        .unwrap();
    let next: bitcoin::Transaction = bitcoin::consensus::encode::deserialize_hex(&next).unwrap();
    assert_eq!(next.input[0].previous_output.txid, tx.compute_txid());

    // Not an address of the sim's network: 400, naming the field.
    let (status, bad) = http.get("/v3/get-max-spendable/tb1qnotreally", &[]).await;
    assert_eq!(status, 400);
    assert_eq!(bad["code"], "INVALID_REQUEST");
    assert!(
        bad["error"].as_str().unwrap().starts_with("address:"),
        "{bad}"
    );
}
