//! Offramps and token swaps from Tron signed and broadcast by the app's wallet on the Sandbox, whose Tron chain is
//! the loopback stand-in of the Tron HTTP API (`chains/tron-node.mjs`: protobuf decoded, signature, TaPoS,
//! expiration and fee limit checked, contract calls run on a real EVM) started by this test and named to the
//! Sandbox through `GATEWAY_DESK_SANDBOX_NODES` (`tron=URL`). The app builds each transaction's protobuf itself;
//! the embedded gateway registers a transaction id only when the node executed the order's own call, signed by its
//! sender, moving its tokens.

use crate::common;

use desk_core::ErrorKind;
use desk_core::desk::SwapForm;
use desk_core::journal::{Journal, Stage, WalletTxKind, WalletTxState};
use gateway_client::wire::NATIVE_TOKEN;
use gateway_sim::local_chain::tron_node::TronNode;

use common::{
    ABANDON, USDT_BOB, card, complete_onramp, desk_with_wallet, set_tamper, verified_order,
};

const USDT_TRON: &str = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";

use crate::TURN;

/// A Tron node named to the Sandbox, so the desk uses it instead of starting its own.
async fn tron_node() -> TronNode {
    let node = TronNode::start().await.unwrap();
    common::name_nodes_to_sandbox(&[("tron", node.url())]);
    node
}

fn swap_form(accounts: &desk_core::wallet::Accounts, amount: &str) -> SwapForm {
    let evm = accounts.evm().ok().unwrap().address.clone();
    SwapForm {
        src_chain: "tron".into(),
        src_token: USDT_TRON.into(),
        dst_chain: "bob".into(),
        dst_token: USDT_BOB.into(),
        amount: amount.into(),
        slippage_bps: 300,
        recipient: evm.clone(),
        sender: Some(accounts.for_chain("tron").unwrap().address.clone()),
        owner: None,
        refund: None,
    }
}

/// A USDT swap from Tron: an exact approval, then the order's call, each shown with its estimated energy and
/// bandwidth and its fee limit, each confirmed at that most; a confirmation below what a step may burn signs
/// nothing; the node executes both; the gateway registers the call and the order completes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_usdt_swap_from_tron_is_approved_paid_registered_and_completed() {
    let _turn = TURN.lock().await;
    let _node = tron_node().await;
    let home = tempfile::tempdir().unwrap();
    let (desk, accounts) = desk_with_wallet(home.path()).await;
    let mut events = desk.subscribe();

    // The Sandbox funds the wallet's Tron account on first use: 1,000 TRX and 10,000 USDT.
    let usdt = desk.wallet_balance("tron", USDT_TRON).await.unwrap();
    assert_eq!(
        (usdt.amount.as_str(), usdt.symbol.as_str()),
        ("10000000000", "USDT")
    );
    let trx = desk.wallet_balance("tron", NATIVE_TOKEN).await.unwrap();
    assert_eq!(trx.amount, "1000000000");
    assert!(trx.max.parse::<u64>().unwrap() < 1_000_000_000, "{trx:?}");

    let local_id = verified_order(&desk, &swap_form(&accounts, "25")).await;
    let plan = desk.wallet_plan(local_id).await.unwrap();
    assert_eq!(plan.chain, "tron");
    assert_eq!(plan.shortfall, None, "{plan:?}");
    let kinds: Vec<_> = plan.steps.iter().map(|s| s.kind).collect();
    assert_eq!(kinds, [WalletTxKind::Approve, WalletTxKind::Pay]);
    let approve = &plan.steps[0];
    assert!(
        approve
            .sentence
            .starts_with("Approve 25 USDT to the gateway's contract")
            && approve.sentence.contains("Estimated cost: about ")
            && approve.sentence.contains(" energy (")
            && approve.sentence.contains("(its fee limit)"),
        "{}",
        approve.sentence
    );
    assert!(approve.gas_limit.is_some_and(|energy| energy > 20_000));

    // Confirmed below what the step may burn: nothing signed.
    let dear = desk
        .wallet_step(local_id, Some(WalletTxKind::Approve), Some("1"), false)
        .await
        .unwrap_err();
    assert_eq!(dear.kind, ErrorKind::Refused, "{}", dear.message);
    assert!(dear.message.contains("more than"), "{}", dear.message);

    let approved = desk
        .wallet_step(
            local_id,
            Some(WalletTxKind::Approve),
            Some(&approve.max_fee),
            false,
        )
        .await
        .unwrap();
    assert_eq!(approved.stage, Some(Stage::Verified));
    let plan = desk.wallet_plan(local_id).await.unwrap();
    assert_eq!(plan.steps.len(), 1, "{plan:?}");
    let pay = &plan.steps[0];
    assert!(
        pay.sentence
            .starts_with("Send 25 USDT to the gateway's contract")
            && pay.sentence.contains("at most 100 TRX (its fee limit)"),
        "{}",
        pay.sentence
    );
    let paid = desk
        .wallet_step(local_id, Some(WalletTxKind::Pay), Some(&pay.max_fee), false)
        .await
        .unwrap();
    assert_eq!(paid.stage, Some(Stage::Registered), "{paid:?}");
    let txs = paid.wallet_txs.clone().unwrap();
    assert_eq!(txs.len(), 2);
    assert!(
        txs.iter()
            .all(|t| t.state == WalletTxState::Mined && t.chain == "tron")
    );
    // The tokens really moved (the node ran the gateway contract): 25 USDT fewer.
    let after = desk.wallet_balance("tron", USDT_TRON).await.unwrap();
    assert_eq!(after.amount, "9975000000");

    let done = complete_onramp(&desk, &mut events, local_id).await;
    assert_eq!(done.status.as_deref(), Some("success"));

    // Neither the phrase nor the key is in any file the app wrote or in any event.
    let seed = desk_core::wallet::Seed::from_phrase(ABANDON, "").unwrap();
    let key = desk_core::wallet::secp_signing_key(
        &seed,
        desk_core::wallet::KeyFamily(gateway_client::chains::ChainFamily::Tron),
    )
    .unwrap();
    let secrets = [
        ABANDON.split(' ').take(4).collect::<Vec<_>>().join(" "),
        alloy_primitives::hex::encode(key.to_bytes()),
    ];
    desk.shutdown().await;
    common::assert_no_secret_written(home.path(), &mut events, &secrets);
}

/// The app stopped after journaling a signed approval, before broadcasting it: resuming broadcasts the same
/// transaction (same id); one whose expiration passed before it reached Tron is marked never executed, and the
/// step is signed anew.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_journaled_transaction_is_sent_as_it_is_and_an_expired_one_is_signed_anew() {
    let _turn = TURN.lock().await;
    let node = tron_node().await;
    let home = tempfile::tempdir().unwrap();
    let (desk, accounts) = desk_with_wallet(home.path()).await;
    desk.wallet_balance("tron", USDT_TRON).await.unwrap();
    // The settings' check of an endpoint is written by the family's rail.
    let checked = common::endpoint_check(
        &desk_core::execute::rail::tron::TronRail,
        "tron",
        node.url(),
    )
    .await;
    assert_eq!(
        checked.answered,
        format!("the chain itself, latest block {}", checked.latest_block)
    );
    let local_id = verified_order(&desk, &swap_form(&accounts, "30")).await;

    let journal =
        Journal::open(&home.path().join("data").join(desk_core::desk::JOURNAL_FILE)).unwrap();
    let pay = desk_core::execute::rail::tron::tron_pay_of(
        &journal.order(local_id).unwrap().to_pay(),
        gateway_client::chains::tron::parse_account(&gateway_sim::quote::gateway_contract("tron")),
    )
    .unwrap();
    let endpoint = desk_core::execute::rail::tron::node::connect(
        &[node.url().to_owned()],
        gateway_sim::local_chain::tron_node::SANDBOX_GENESIS_BLOCK,
    )
    .await
    .unwrap();
    let key = desk_core::wallet::secp_signing_key(
        &desk_core::wallet::Seed::from_phrase(ABANDON, "").unwrap(),
        desk_core::wallet::KeyFamily(gateway_client::chains::ChainFamily::Tron),
    )
    .unwrap();
    let stopped = tokio::spawn(async move {
        desk_core::execute::rail::tron::execute_next(
            &journal,
            local_id,
            &endpoint,
            Some(&key),
            &pay,
            Some((WalletTxKind::Approve, u64::MAX)),
            &|_| {},
            &|point| assert_ne!(point, "approve-journaled", "stopped here"),
        )
        .await
    })
    .await;
    assert!(stopped.is_err(), "stopped after the journal write");
    let journaled = desk.order_view(local_id).unwrap().wallet_txs.unwrap();
    assert_eq!(journaled[0].state, WalletTxState::Signed);

    // Its expiration passes before it is broadcast: it can never be executed.
    node.expire().await.unwrap();
    let refused = desk.resume(local_id).await.unwrap_err();
    assert!(
        refused.message.contains("expired before it reached Tron"),
        "{}",
        refused.message
    );
    let txs = desk.order_view(local_id).unwrap().wallet_txs.unwrap();
    assert_eq!(txs[0].state, WalletTxState::Reverted);

    // Signed anew, on a fresh block; then paid.
    let plan = desk.wallet_plan(local_id).await.unwrap();
    assert_eq!(plan.steps[0].kind, WalletTxKind::Approve);
    desk.wallet_step(
        local_id,
        Some(WalletTxKind::Approve),
        Some(&plan.steps[0].max_fee),
        false,
    )
    .await
    .unwrap();
    let plan = desk.wallet_plan(local_id).await.unwrap();
    let paid = desk
        .wallet_step(
            local_id,
            Some(WalletTxKind::Pay),
            Some(&plan.steps[0].max_fee),
            false,
        )
        .await
        .unwrap();
    assert_eq!(paid.stage, Some(Stage::Registered), "{paid:?}");
}

/// Too few tokens is told with the numbers; another sender's order is not signed; an id Tron never executed is not
/// registered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shortfalls_other_senders_and_unknown_ids_are_refused() {
    let _turn = TURN.lock().await;
    let _node = tron_node().await;
    let home = tempfile::tempdir().unwrap();
    let (desk, accounts) = desk_with_wallet(home.path()).await;
    // Confirm refuses an order the unlocked wallet cannot pay, with the numbers (issue 31)…
    common::refused_as_unpayable(
        &desk,
        &swap_form(&accounts, "20000"),
        "10000 USDT",
        "20000 USDT",
    )
    .await;
    // …but an order made while the wallet was locked is not the app's to check then: its plan tells the shortfall
    // once the wallet is unlocked, and nothing is signed.
    desk.wallet_lock().await;
    let local_id = verified_order(&desk, &swap_form(&accounts, "20000")).await;
    desk.wallet_unlock(common::PASSWORD).await.unwrap();
    let plan = desk.wallet_plan(local_id).await.unwrap();
    let short = plan.shortfall.unwrap();
    assert!(
        short.contains("holds 10000 USDT") && short.contains("add at least 10000 USDT"),
        "{short}"
    );

    let mut form = swap_form(&accounts, "40");
    let mut other = [0x11u8; 21];
    other[0] = 0x41;
    form.sender = Some(gateway_client::chains::tron::base58(&other));
    let local_id = verified_order(&desk, &form).await;
    let refused = desk.wallet_plan(local_id).await.unwrap_err();
    assert!(
        refused.message.contains("not this app's wallet"),
        "{}",
        refused.message
    );

    // V3's register-tx checks a handed-in id on the chain (V4 registers none: the gateway finds the payment itself).
    desk.set_api_version(gateway_client::ApiVersion::V3)
        .await
        .unwrap();
    let local_id = verified_order(&desk, &swap_form(&accounts, "40")).await;
    let refused = desk.hand_in(local_id, &"ab".repeat(32)).await.unwrap_err();
    assert!(
        refused.message.contains("Tron has no transaction"),
        "{}",
        refused.message
    );
}

/// The app's Tron signature is byte for byte TronWeb's (npm `tronweb`, offline: `chains/tron-sign.mjs`) for the
/// same key and raw_data: both are secp256k1 with RFC 6979 nonces and low S over SHA-256 of raw_data.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_signature_is_tronwebs_for_the_same_raw_data() {
    use gateway_client::chains::tron::{BlockRef, TronCall};
    use prost::Message;
    let key = desk_core::wallet::secp_signing_key(
        &desk_core::wallet::Seed::from_phrase(ABANDON, "").unwrap(),
        desk_core::wallet::KeyFamily(gateway_client::chains::ChainFamily::Tron),
    )
    .unwrap();
    let owner =
        gateway_client::chains::tron::parse_account("TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH").unwrap();
    let call = TronCall {
        owner,
        contract: gateway_client::chains::tron::parse_account(USDT_TRON).unwrap(),
        call_value: 0,
        data: alloy_primitives::hex::decode("095ea7b3000000000000000000000000000000000000000000000000000000000000000100000000000000000000000000000000000000000000000000000000000003e8").unwrap(),
        fee_limit: 20_000_000,
    };
    let mut id = [7u8; 32];
    id[..8].copy_from_slice(&1234i64.to_be_bytes());
    let raw = call
        .raw(
            &BlockRef {
                number: 1234,
                id,
                timestamp: 1_764_000_000_000,
            },
            60_000,
            1_764_000_000_123,
        )
        .encode_to_vec();
    let ours = desk_core::execute::rail::tron::sign_raw(&raw, &key).unwrap();
    let secret = alloy_primitives::hex::encode(key.to_bytes());
    let out = std::process::Command::new("node")
        .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../chains/tron-sign.mjs"))
        .args([&secret, &alloy_primitives::hex::encode(&raw), "--address"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        theirs["signature"].as_str().unwrap().to_lowercase(),
        alloy_primitives::hex::encode(&ours)
    );
    assert_eq!(
        theirs["txID"].as_str().unwrap(),
        alloy_primitives::hex::encode(gateway_client::chains::tron::txid(&raw))
    );
    assert_eq!(
        theirs["address"].as_str().unwrap(),
        "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH"
    );
}

/// A hostile gateway's Tron call that may burn 10,000 TRX: refused at verification (over the app's cap), and the
/// wallet signs nothing for it, not even an approval.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fee_limit_over_the_cap_is_refused_before_anything_is_signed() {
    let _turn = TURN.lock().await;
    let _node = tron_node().await;
    let home = tempfile::tempdir().unwrap();
    let (desk, accounts) = desk_with_wallet(home.path()).await;
    let quote = card(&desk, &swap_form(&accounts, "12")).await;
    set_tamper(&desk, Some("tronFeeLimit")).await;
    let order = desk.start_order(quote.raw, None).await.unwrap();
    set_tamper(&desk, None).await;
    assert_eq!(order.stage, Some(Stage::Refused), "{order:?}");
    assert!(
        order
            .last_error
            .as_deref()
            .unwrap_or_default()
            .contains("10000 TRX"),
        "{:?}",
        order.last_error
    );
    let local_id = order.local_id.unwrap();
    let refused = desk
        .wallet_step(
            local_id,
            Some(WalletTxKind::Approve),
            Some("1000000000"),
            false,
        )
        .await
        .unwrap_err();
    assert_eq!(refused.kind, ErrorKind::Refused, "{}", refused.message);
    assert!(common::wallet_txs(&desk, local_id).is_empty());
}
