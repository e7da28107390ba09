//! EVM offramps signed, approved and broadcast by the app's wallet on the Sandbox, whose chain is a real local anvil
//! node (started by this test and named to the Sandbox through `GATEWAY_DESK_SANDBOX_NODES`, so the test can
//! also change balances on it): an exact approval first, then the order's call, each only as confirmed; the
//! embedded gateway registers the payment only because the node has its receipt. Too little gas money and a call
//! that would revert are told before anything is signed.

use crate::common;

use alloy_primitives::U256;
use desk_core::ErrorKind;
use desk_core::desk::SwapForm;
use desk_core::journal::{HandedIn, Stage, WalletTxKind, WalletTxState};
use gateway_client::wire::NATIVE_TOKEN;
use gateway_sim::evm_node::EvmNode;

use common::{
    ABANDON, PASSWORD, USDT_BOB, USDT_ETH, WBTC_BOB, card, desk_with_wallet, open, verified_order,
};

use crate::TURN;

fn offramp_form(evm: &str, btc: &str, amount: &str) -> SwapForm {
    SwapForm {
        src_chain: "bob".into(),
        src_token: WBTC_BOB.into(),
        dst_chain: "bitcoin".into(),
        dst_token: NATIVE_TOKEN.into(),
        amount: amount.into(),
        slippage_bps: 300,
        recipient: btc.into(),
        sender: Some(evm.into()),
        owner: None,
        refund: None,
    }
}

async fn nodes(chains: &[&str]) -> Vec<EvmNode> {
    common::sandbox_nodes(chains).await
}

async fn bob_node() -> EvmNode {
    nodes(&["bob"]).await.remove(0)
}

fn swap_form(src: (&str, &str), dst: (&str, &str), amount: &str, evm: &str) -> SwapForm {
    SwapForm {
        src_chain: src.0.into(),
        src_token: src.1.into(),
        dst_chain: dst.0.into(),
        dst_token: dst.1.into(),
        amount: amount.into(),
        slippage_bps: 300,
        recipient: evm.into(),
        sender: Some(evm.into()),
        owner: None,
        refund: None,
    }
}

/// `owner` approves `amount` of `token` to the Sandbox's gateway contract on `node`, outside the app (an allowance
/// given earlier, or another payer's).
async fn approve_directly(node: &EvmNode, owner: &str, token: &str, amount: u64) {
    let data = alloy_sol_types::SolCall::abi_encode(&gateway_sim::evm_node::calls::approveCall {
        spender: gateway_sim::quote::gateway_contract(node.chain())
            .parse()
            .unwrap(),
        amount: U256::from(amount),
    });
    node.send_as(owner, token, &data, U256::ZERO).await.unwrap();
}

/// A token swap from BOB whose allowance is already in place signs the payment only; one from Ethereum's USDT with a
/// smaller allowance left over resets it to zero, approves exactly, then pays: three confirmations, three receipts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_swap_needs_no_approval_when_allowed_and_usdt_is_reset_to_zero_first() {
    let _turn = TURN.lock().await;
    let nodes = nodes(&["bob", "ethereum"]).await;
    let home = tempfile::tempdir().unwrap();
    let (desk, accounts) = desk_with_wallet(home.path()).await;
    let evm = accounts.evm().ok().unwrap().address.clone();
    // Funded on first use; then an allowance larger than the order, given earlier.
    desk.wallet_balance("bob", USDT_BOB).await.unwrap();
    approve_directly(&nodes[0], &evm, USDT_BOB, 1_000_000_000_000).await;

    let form = swap_form(("bob", USDT_BOB), ("ethereum", USDT_ETH), "25", &evm);
    let local_id = verified_order(&desk, &form).await;
    let plan = desk.wallet_plan(local_id).await.unwrap();
    let kinds: Vec<_> = plan.steps.iter().map(|s| s.kind).collect();
    assert_eq!(kinds, [WalletTxKind::Pay], "no approval needed: {plan:?}");
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

    // USDT on Ethereum with 1 USDT still allowed from before: reset, approve, pay.
    desk.wallet_balance("ethereum", USDT_ETH).await.unwrap();
    approve_directly(&nodes[1], &evm, USDT_ETH, 1_000_000).await;
    let form = swap_form(("ethereum", USDT_ETH), ("bob", USDT_BOB), "25", &evm);
    let local_id = verified_order(&desk, &form).await;
    let plan = desk.wallet_plan(local_id).await.unwrap();
    let kinds: Vec<_> = plan.steps.iter().map(|s| s.kind).collect();
    assert_eq!(
        kinds,
        [
            WalletTxKind::ResetApproval,
            WalletTxKind::Approve,
            WalletTxKind::Pay
        ]
    );
    assert!(
        plan.steps[0].sentence.contains("back to zero"),
        "{}",
        plan.steps[0].sentence
    );
    sign_steps(
        &desk,
        local_id,
        &[
            WalletTxKind::ResetApproval,
            WalletTxKind::Approve,
            WalletTxKind::Pay,
        ],
    )
    .await;
    let done = desk.order_view(local_id).unwrap();
    assert_eq!(done.stage, Some(Stage::Registered), "{done:?}");
    assert_eq!(done.wallet_txs.unwrap().len(), 3);
    desk.shutdown().await;
}

/// Signs each of `kinds` in turn, each the plan's next step, confirmed at the fee the plan shows.
async fn sign_steps(desk: &desk_core::Desk, local_id: i64, kinds: &[WalletTxKind]) {
    for expected in kinds {
        let plan = desk.wallet_plan(local_id).await.unwrap();
        assert_eq!(plan.steps[0].kind, *expected);
        desk.wallet_step(
            local_id,
            Some(*expected),
            Some(&plan.steps[0].max_fee),
            false,
        )
        .await
        .unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_offramp_is_approved_exactly_paid_and_registered_by_the_wallet() {
    let _turn = TURN.lock().await;
    let node = bob_node().await;
    let home = tempfile::tempdir().unwrap();
    let (desk, accounts) = desk_with_wallet(home.path()).await;
    let evm = accounts.evm().ok().unwrap().address.clone();

    // The Sandbox funds the wallet on its local chain: 1 WBTC and 10 ETH.
    let balance = desk.wallet_balance("bob", WBTC_BOB).await.unwrap();
    assert_eq!(balance.amount, "100000000", "{balance:?}");
    let eth = desk.wallet_balance("bob", NATIVE_TOKEN).await.unwrap();
    assert_eq!(eth.amount, "10000000000000000000");
    let max: U256 = eth.max.parse().unwrap();
    assert!(
        max < U256::from(10u64).pow(U256::from(19u64)),
        "Max of the native coin keeps the gas"
    );

    let form = offramp_form(&evm, &accounts.bitcoin().ok().unwrap().address, "0.001");
    let local_id = verified_order(&desk, &form).await;

    // First an exact approval, then the order's call.
    let plan = desk.wallet_plan(local_id).await.unwrap();
    assert_eq!(plan.shortfall, None, "{plan:?}");
    let kinds: Vec<_> = plan.steps.iter().map(|s| s.kind).collect();
    assert_eq!(kinds, [WalletTxKind::Approve, WalletTxKind::Pay]);
    assert!(
        plan.steps[0]
            .sentence
            .starts_with("Approve 0.001 WBTC to the gateway's contract"),
        "{}",
        plan.steps[0].sentence
    );
    assert!(plan.steps[0].gas_limit.is_some());
    // The chain (anvil) ran the approval and the call together: exactly the quote's amount leaves, to the gateway's
    // contract, and nothing else.
    let gateway = gateway_sim::quote::gateway_contract("bob");
    assert_eq!(
        plan.simulation.status,
        desk_core::simulate::SimulationStatus::Simulated
    );
    assert!(
        plan.simulation
            .source
            .starts_with("eth_simulateV1 on http://127.0.0.1:")
    );
    assert_eq!(plan.simulation.moves.len(), 1, "{:?}", plan.simulation);
    assert!(
        plan.simulation
            .sentence
            .starts_with(&format!("−0.001 WBTC to {gateway}, network fee at most "))
            && plan
                .simulation
                .sentence
                .ends_with("; nothing else leaves the wallet."),
        "{}",
        plan.simulation.sentence
    );
    assert!(
        plan.steps[1].sentence.contains(
            desk.order_view(local_id)
                .unwrap()
                .order_id
                .as_deref()
                .unwrap()
        )
    );

    // Only the step confirmed is signed: confirming the payment while the approval is next signs nothing.
    let wrong = desk
        .wallet_step(
            local_id,
            Some(WalletTxKind::Pay),
            Some(&plan.steps[1].max_fee),
            false,
        )
        .await
        .unwrap_err();
    assert_eq!(wrong.kind, ErrorKind::Refused, "{}", wrong.message);
    assert!(wrong.message.contains("Approve"), "{}", wrong.message);
    // Nor at a fee above what was accepted.
    let dear = desk
        .wallet_step(local_id, Some(WalletTxKind::Approve), Some("1"), false)
        .await
        .unwrap_err();
    assert!(dear.message.contains("more than"), "{}", dear.message);
    assert!(common::wallet_txs(&desk, local_id).is_empty());

    let approved = desk
        .wallet_step(
            local_id,
            Some(WalletTxKind::Approve),
            Some(&plan.steps[0].max_fee),
            false,
        )
        .await
        .unwrap();
    assert_eq!(approved.stage, Some(Stage::Verified));
    let journaled = desk
        .order_view(local_id)
        .unwrap()
        .wallet_txs
        .unwrap_or_default();
    assert_eq!(journaled.len(), 1);
    assert_eq!(
        (journaled[0].kind, journaled[0].state),
        (WalletTxKind::Approve, WalletTxState::Mined)
    );
    let allowance = node
        .call(
            WBTC_BOB,
            &alloy_sol_types::SolCall::abi_encode(&gateway_sim::evm_node::calls::allowanceCall {
                owner: evm.parse().unwrap(),
                spender: gateway_sim::quote::gateway_contract("bob").parse().unwrap(),
            }),
        )
        .await
        .unwrap();
    assert_eq!(
        U256::from_be_slice(&allowance),
        U256::from(100_000u64),
        "exactly the amount"
    );

    let plan = desk.wallet_plan(local_id).await.unwrap();
    assert_eq!(plan.steps.len(), 1);
    assert_eq!(plan.steps[0].kind, WalletTxKind::Pay);
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
    let journaled = desk.order_view(local_id).unwrap();
    let pay = &journaled.wallet_txs.as_ref().unwrap()[1];
    assert_eq!(
        (pay.kind, pay.state),
        (WalletTxKind::Pay, WalletTxState::Mined)
    );
    assert_eq!(
        journaled.handed_in,
        Some(HandedIn::SourceTx {
            chain: "bob".into(),
            hash: pay.hash.clone()
        })
    );
    assert_eq!(
        node.token_balance(WBTC_BOB, &evm).await.unwrap(),
        U256::from(100_000_000u64 - 100_000)
    );
    // API V4 (the default) registers no offramp: the journal says so, and the gateway finds the payment on BOB by
    // itself (read directly, by its hash).
    let journal = desk_core::journal::Journal::open(
        &desk_core::AppPaths::under(home.path())
            .data_dir
            .join(desk_core::JOURNAL_FILE),
    )
    .unwrap();
    let kinds: Vec<String> = journal
        .events(local_id)
        .unwrap()
        .into_iter()
        .map(|e| e.kind)
        .collect();
    assert!(kinds.iter().any(|k| k == "leftToTheChain"), "{kinds:?}");
    assert!(!kinds.iter().any(|k| k == "registerStarted"), "{kinds:?}");
    assert!(
        journaled
            .timeline
            .iter()
            .any(|e| e.text == "Transaction sent; the gateway finds it on BOB"),
        "{:?}",
        journaled.timeline
    );
    let base = desk.settings().await.network.base_url;
    let found = common::client(&base, gateway_client::ApiVersion::V4)
        .get_order(&pay.hash)
        .await
        .unwrap()
        .value;
    assert_eq!(found.id, journaled.order_id.clone().unwrap());
    // The latch: nothing more is signed for this order.
    assert!(
        desk.wallet_step(
            local_id,
            Some(WalletTxKind::Pay),
            Some(&plan.steps[0].max_fee),
            false
        )
        .await
        .is_err()
    );
    assert_eq!(common::wallet_txs(&desk, local_id).len(), 2);
    desk.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn too_little_gas_money_and_a_call_that_would_revert_are_told_before_anything_is_signed() {
    let _turn = TURN.lock().await;
    let node = bob_node().await;
    let home = tempfile::tempdir().unwrap();
    let (desk, accounts) = desk_with_wallet(home.path()).await;
    let evm = accounts.evm().ok().unwrap().address.clone();
    let form = offramp_form(&evm, &accounts.bitcoin().ok().unwrap().address, "0.001");
    let order = desk
        .start_order(card(&desk, &form).await.raw, None)
        .await
        .unwrap();
    let local_id = order.local_id.unwrap();
    let plan = desk.wallet_plan(local_id).await.unwrap();
    assert_eq!(plan.shortfall, None);

    // No gas money: the numbers, and nothing signed.
    node.set_native_balance(&evm, U256::from(1_000u64))
        .await
        .unwrap();
    let short = desk.wallet_plan(local_id).await.unwrap();
    let why = short.shortfall.clone().expect("a shortfall");
    assert!(why.contains("add at least") && why.contains(&evm), "{why}");
    let refused = desk
        .wallet_step(
            local_id,
            Some(WalletTxKind::Approve),
            Some(&plan.steps[0].max_fee),
            false,
        )
        .await
        .unwrap_err();
    assert_eq!(refused.kind, ErrorKind::Refused);
    assert!(
        refused.message.contains("Nothing was signed"),
        "{}",
        refused.message
    );
    assert!(common::wallet_txs(&desk, local_id).is_empty());

    // Someone else pays this very order first: the app's call would revert, and says why.
    node.set_native_balance(&evm, U256::from(10u64).pow(U256::from(19u64)))
        .await
        .unwrap();
    let stranger = "0x00000000000000000000000000000000000000aa";
    node.set_native_balance(stranger, U256::from(10u64).pow(U256::from(18u64)))
        .await
        .unwrap();
    node.mint(WBTC_BOB, stranger, U256::from(100_000u64))
        .await
        .unwrap();
    let gateway = gateway_sim::quote::gateway_contract("bob");
    approve_directly(&node, stranger, WBTC_BOB, 100_000).await;
    let created = desk.order_view(local_id).unwrap().created.unwrap();
    let data =
        alloy_primitives::hex::decode(created["offramp"]["tx"]["data"].as_str().unwrap()).unwrap();
    node.send_as(stranger, &gateway, &data, U256::ZERO)
        .await
        .unwrap();
    // The chain's simulation of the approval and the call together refuses it before even the approval.
    let reverts = desk.wallet_plan(local_id).await.unwrap_err();
    assert!(
        reverts.message.contains("order already paid"),
        "{}",
        reverts.message
    );
    assert!(
        reverts.message.contains("it was not signed"),
        "{}",
        reverts.message
    );
    let txs = desk
        .order_view(local_id)
        .unwrap()
        .wallet_txs
        .unwrap_or_default();
    assert!(txs.is_empty(), "not even the approval was signed");
    desk.shutdown().await;
}

/// Before Confirm creates an order the wallet is to pay, the amount and the network fees are checked against what it
/// holds on the source chain: an order it cannot pay is not created, and the refusal, about the amount, says what is
/// missing in numbers (issue 31). An order another wallet pays is not the app's to check.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_order_the_wallet_cannot_pay_is_not_created_and_the_refusal_says_what_is_missing() {
    let _turn = TURN.lock().await;
    let node = bob_node().await;
    let home = tempfile::tempdir().unwrap();
    let (desk, accounts) = desk_with_wallet(home.path()).await;
    let evm = accounts.evm().ok().unwrap().address.clone();
    let btc = accounts.bitcoin().ok().unwrap().address.clone();
    // Funded on first use with 1 WBTC and 10 ETH.
    desk.wallet_balance("bob", WBTC_BOB).await.unwrap();
    let before = desk.orders().await.unwrap().len();

    // Two WBTC from a wallet that holds one.
    let card_2 = card(&desk, &offramp_form(&evm, &btc, "2")).await;
    let refused = desk.start_order(card_2.raw, None).await.unwrap_err();
    assert_eq!(refused.kind, ErrorKind::InvalidInput, "{refused:?}");
    assert_eq!(
        refused
            .details
            .as_ref()
            .map(|d| d.to_json()["field"].clone()),
        Some(serde_json::json!("amount"))
    );
    for said in [
        "holds 1 WBTC",
        "needs 2 WBTC",
        "1 WBTC short",
        "No order was created",
        &evm,
    ] {
        assert!(
            refused.message.contains(said),
            "{said}: {}",
            refused.message
        );
    }

    // Enough WBTC, but no ETH for the network fees.
    node.set_native_balance(&evm, U256::from(1_000u64))
        .await
        .unwrap();
    let card_small = card(&desk, &offramp_form(&evm, &btc, "0.001")).await;
    // The card counts the person's own network fee, read from the chain: the same most the refusal counts.
    let own = card_small.own_fee.as_ref().expect("the card's own fee");
    let reserve = desk.wallet_balance("bob", NATIVE_TOKEN).await.unwrap();
    assert_eq!(
        own.kind,
        Some(desk_core::views::OwnFeeKind::AtMost),
        "{own:?}"
    );
    assert_eq!(own.amount.as_deref(), Some(reserve.fee_reserve.as_str()));
    assert!(own.text.as_deref().unwrap().ends_with(" ETH"), "{own:?}");
    assert!(own.basis.contains("500,000 gas"), "{}", own.basis);
    // A WBTC offramp prices no ETH: no USD is made up, and the total says why it is not added up.
    assert_eq!(own.usd, None);
    assert!(
        own.total_text.contains("no USD price for ETH"),
        "{}",
        own.total_text
    );
    let refused = desk
        .start_order(card_small.raw.clone(), None)
        .await
        .unwrap_err();
    assert!(
        refused
            .message
            .contains("for the network fees, which can cost up to")
            && refused.message.contains("ETH short"),
        "{}",
        refused.message
    );
    assert_eq!(
        desk.orders().await.unwrap().len(),
        before,
        "no order was created"
    );

    // Another sender's order is not the app's to check: it is created.
    let stranger = "0x00000000000000000000000000000000000000aa";
    let theirs = card(&desk, &offramp_form(stranger, &btc, "2")).await;
    desk.start_order(theirs.raw, None).await.unwrap();

    // With gas money back, the wallet's own order is created.
    node.set_native_balance(&evm, U256::from(10u64).pow(U256::from(19u64)))
        .await
        .unwrap();
    verified_order(&desk, &offramp_form(&evm, &btc, "0.001")).await;
    desk.shutdown().await;
}

/// Off the Sandbox each EVM chain's endpoints are the public defaults until Settings chooses others; a chosen endpoint
/// is checked (chain id and latest block) and one of another chain is refused, by the check and before signing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn endpoints_are_chosen_per_network_and_checked_to_be_their_chain() {
    let _turn = TURN.lock().await;
    let node = EvmNode::start("bob").await.unwrap();
    node.place_sandbox_contracts().await.unwrap();
    let sim = gateway_sim::Sim::new()
        .spawn(std::net::SocketAddr::from((
            std::net::Ipv4Addr::LOCALHOST,
            0,
        )))
        .await
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    assert!(
        desk.settings().await.chain_endpoints.is_empty(),
        "the Sandbox's chains are its own"
    );
    let custom = desk
        .select_network(desk_core::api::NetworkChoice {
            kind: desk_core::settings::NetworkKind::Custom,
            custom_url: Some(sim.base_url()),
        })
        .await
        .unwrap();
    let bob = custom
        .chain_endpoints
        .iter()
        .find(|e| e.chain == "bob")
        .unwrap();
    assert!(!bob.custom && bob.urls.len() >= 2, "{bob:?}");
    assert!(custom.chain_endpoints.iter().all(|e| e.urls.len() >= 2));
    // Every EVM chain the gateway names has its defaults.
    for chain in gateway_client::chains::evm_chains() {
        assert!(
            custom.chain_endpoints.iter().any(|e| e.chain == *chain),
            "{chain}"
        );
    }

    let checked = desk.check_chain_endpoint("bob", node.url()).await.unwrap();
    assert_eq!(checked.chain_id, 60808);
    assert_eq!(
        checked.answered,
        format!("chain id 60808, latest block {}", checked.latest_block)
    );
    let other = desk
        .check_chain_endpoint("ethereum", node.url())
        .await
        .unwrap_err();
    assert!(
        other.message.contains("is chain 60808"),
        "{}",
        other.message
    );
    let bad = desk
        .check_chain_endpoint("bob", "ftp://x")
        .await
        .unwrap_err();
    assert_eq!(bad.kind, ErrorKind::InvalidInput);

    let set = desk
        .set_chain_endpoints("bob", &[node.url().to_owned(), " ".into()])
        .await
        .unwrap();
    let bob = set
        .chain_endpoints
        .iter()
        .find(|e| e.chain == "bob")
        .unwrap();
    assert_eq!(
        (bob.custom, bob.urls.clone()),
        (true, vec![node.url().to_owned()])
    );
    // The chosen endpoint is the one used: the wallet's balance is read from it.
    let _ = desk.wallet_remove().await;
    desk.wallet_import(ABANDON, "", PASSWORD).await.unwrap();
    let evm = desk
        .wallet_accounts()
        .await
        .unwrap()
        .evm()
        .unwrap()
        .address
        .clone();
    node.mint(WBTC_BOB, &evm, U256::from(4_242u64))
        .await
        .unwrap();
    let balance = desk.wallet_balance("bob", WBTC_BOB).await.unwrap();
    assert_eq!(balance.amount, "4242");
    // An endpoint of another chain is never used.
    desk.set_chain_endpoints("ethereum", &[node.url().to_owned()])
        .await
        .unwrap();
    let refused = desk.wallet_balance("ethereum", USDT_ETH).await.unwrap_err();
    assert!(
        refused.message.contains("is chain 60808")
            && refused.message.contains("Nothing was signed"),
        "{}",
        refused.message
    );
    let back = desk.set_chain_endpoints("bob", &[]).await.unwrap();
    assert!(
        !back
            .chain_endpoints
            .iter()
            .find(|e| e.chain == "bob")
            .unwrap()
            .custom
    );
    desk.shutdown().await;
    sim.shutdown().await.unwrap();
}

/// A wallet of a single imported EVM key (no phrase): its one account, the Bitcoin balance refused in words, an
/// offramp from BOB to a Bitcoin address typed in, approved and paid with that key; shown again behind the password.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_single_imported_evm_key_pays_an_offramp() {
    let _turn = TURN.lock().await;
    let _node = bob_node().await;
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let _ = desk.wallet_remove().await;
    let key = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
    let bad = desk
        .wallet_import_key(desk_core::wallet::KeyFamily::EVM, "0x1234", PASSWORD)
        .await
        .unwrap_err();
    assert!(
        bad.message.starts_with("The EVM private key is not valid"),
        "{}",
        bad.message
    );
    let view = desk
        .wallet_import_key(desk_core::wallet::KeyFamily::EVM, key, PASSWORD)
        .await
        .unwrap();
    let accounts = view.accounts.unwrap();
    let evm = accounts.evm().ok().unwrap().address.clone();
    assert_eq!(evm, "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23");
    assert!(accounts.bitcoin().is_err());
    let no_btc = desk.wallet_balance("bitcoin", "").await.unwrap_err();
    assert!(
        no_btc.message.contains("no Bitcoin account"),
        "{}",
        no_btc.message
    );

    let form = offramp_form(
        &evm,
        "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080",
        "0.001",
    );
    let local_id = verified_order(&desk, &form).await;
    sign_steps(&desk, local_id, &[WalletTxKind::Approve, WalletTxKind::Pay]).await;
    assert_eq!(
        desk.order_view(local_id).unwrap().stage,
        Some(Stage::Registered)
    );
    assert_eq!(
        desk.wallet_reveal(PASSWORD).await.unwrap(),
        vec![key.to_owned()]
    );
    desk.wallet_lock().await;
    let unlocked = desk.wallet_unlock(PASSWORD).await.unwrap();
    assert_eq!(
        unlocked.accounts.unwrap().evm().unwrap().address.clone(),
        evm
    );
    desk.shutdown().await;
}

/// A payment that passed its simulation but reverts when mined (someone else's payment of the same order lands first
/// in the same block): the receipt's failure is reported with the contract's reason, journaled as reverted, and the
/// order is not registered; nothing is signed again by itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payment_that_reverts_when_mined_is_reported_and_never_registered() {
    use serde_json::json;
    let _turn = TURN.lock().await;
    let node = bob_node().await;
    let home = tempfile::tempdir().unwrap();
    let desk = std::sync::Arc::new(open(home.path()).await);
    let _ = desk.wallet_remove().await;
    let accounts = desk
        .wallet_import(ABANDON, "", PASSWORD)
        .await
        .unwrap()
        .accounts
        .unwrap();
    let evm = accounts.evm().ok().unwrap().address.clone();
    let form = offramp_form(&evm, &accounts.bitcoin().ok().unwrap().address, "0.001");
    let order = desk
        .start_order(card(&desk, &form).await.raw, None)
        .await
        .unwrap();
    let local_id = order.local_id.unwrap();
    let plan = desk.wallet_plan(local_id).await.unwrap();
    desk.wallet_step(
        local_id,
        Some(WalletTxKind::Approve),
        Some(&plan.steps[0].max_fee),
        false,
    )
    .await
    .unwrap();

    // A stranger ready to pay the same order, funded and approved while blocks are still mined at once.
    let stranger = "0x00000000000000000000000000000000000000bb";
    let gateway = gateway_sim::quote::gateway_contract("bob");
    node.set_native_balance(stranger, U256::from(10u64).pow(U256::from(19u64)))
        .await
        .unwrap();
    node.mint(WBTC_BOB, stranger, U256::from(100_000u64))
        .await
        .unwrap();
    approve_directly(&node, stranger, WBTC_BOB, 100_000).await;
    let created = desk.order_view(local_id).unwrap().created.unwrap();
    let data = created["offramp"]["tx"]["data"]
        .as_str()
        .unwrap()
        .to_owned();

    // Blocks by hand from now on: the app's payment waits in the pool.
    node.rpc("evm_setAutomine", json!([false])).await.unwrap();
    let plan = desk.wallet_plan(local_id).await.unwrap();
    let fee = plan.steps[0].max_fee.clone();
    let paying = {
        let desk = desk.clone();
        tokio::spawn(async move {
            desk.wallet_step(local_id, Some(WalletTxKind::Pay), Some(&fee), false)
                .await
        })
    };
    let started = std::time::Instant::now();
    loop {
        let sent = desk
            .order_view(local_id)
            .unwrap()
            .wallet_txs
            .unwrap_or_default()
            .iter()
            .any(|t| t.kind == WalletTxKind::Pay && t.state == WalletTxState::Sent);
        if sent {
            break;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "the payment was not sent"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // The stranger's payment, with a far higher tip, goes first in the next block.
    node.rpc("anvil_impersonateAccount", json!([stranger]))
        .await
        .unwrap();
    node.rpc(
        "eth_sendTransaction",
        json!([{
            "from": stranger,
            "to": gateway,
            "data": data,
            "gas": "0x7a120",
            "maxFeePerGas": "0xe8d4a51000",
            "maxPriorityFeePerGas": "0xe8d4a51000",
        }]),
    )
    .await
    .unwrap();
    node.rpc("evm_mine", json!([])).await.unwrap();
    node.rpc("evm_setAutomine", json!([true])).await.unwrap();

    let reverted = paying.await.unwrap().unwrap_err();
    assert!(
        reverted.message.contains("reverted"),
        "{}",
        reverted.message
    );
    assert!(
        reverted.message.contains("order already paid"),
        "{}",
        reverted.message
    );
    let view = desk.order_view(local_id).unwrap();
    assert_eq!(view.stage, Some(Stage::Verified), "not registered");
    let pay = view
        .wallet_txs
        .unwrap()
        .into_iter()
        .find(|t| t.kind == WalletTxKind::Pay)
        .unwrap();
    assert_eq!(pay.state, WalletTxState::Reverted);
    assert!(pay.reason.unwrap().contains("order already paid"));
    assert!(view.last_error.unwrap().contains("reverted"));
    assert!(view.handed_in.is_none());
    desk.shutdown().await;
}

/// Nothing is ever approved to a contract that is not the gateway contract the app knows for the chain: another
/// spender, or a chain without a known one, stops the plan before anything is signed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn approvals_go_only_to_the_known_gateway_contract() {
    use desk_core::execute::evm::{ExecError, PayCall, plan};
    let _turn = TURN.lock().await;
    let node = bob_node().await;
    let owner: alloy_primitives::Address = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
        .parse()
        .unwrap();
    node.fund_sandbox_wallet(&owner.to_checksum(None))
        .await
        .unwrap();
    let endpoint = desk_core::chains::evm::connect("bob", &[node.url().to_owned()])
        .await
        .unwrap();
    let gateway: alloy_primitives::Address =
        gateway_sim::quote::gateway_contract("bob").parse().unwrap();
    let call = |to: alloy_primitives::Address, known: Option<alloy_primitives::Address>| PayCall {
        order_id: "o-1".into(),
        to,
        data: vec![0u8; 4].into(),
        value: U256::ZERO,
        token: WBTC_BOB.parse().unwrap(),
        amount: U256::from(100_000u64),
        known_spender: known,
    };
    let stranger: alloy_primitives::Address = "0x00000000000000000000000000000000000000cc"
        .parse()
        .unwrap();
    for (to, known, words) in [
        (
            stranger,
            Some(gateway),
            "is not the gateway contract the app knows on bob",
        ),
        (gateway, None, "knows no gateway contract on bob"),
    ] {
        match plan(&endpoint, owner, &call(to, known)).await {
            Err(ExecError::Spender(why)) => assert!(why.contains(words), "{why}"),
            other => panic!("expected a refused spender, got {other:?}"),
        }
    }
    // The known contract passes the spender check; then the chain's simulation of its approval and this call (of no
    // function the contract has) refuses the order, before anything is signed.
    match plan(&endpoint, owner, &call(gateway, Some(gateway))).await {
        Err(ExecError::WouldRevert { what, .. }) => assert_eq!(what, "order's transaction"),
        other => panic!("expected the simulation to refuse the call, got {other:?}"),
    }
}

/// A JSON-RPC endpoint in front of `upstream` that has no `eth_simulateV1` (as many public endpoints): it answers
/// that method with JSON-RPC's "method not found" and passes every other request through. Gives its URL.
async fn endpoint_without_simulation(upstream: &str) -> String {
    use axum::routing::post;
    let upstream = upstream.to_owned();
    let http = reqwest::Client::new();
    let app = axum::Router::new().route(
        "/",
        post(move |body: axum::body::Bytes| {
            let (upstream, http) = (upstream.clone(), http.clone());
            async move {
                let request: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
                if request["method"] == "eth_simulateV1" {
                    return axum::Json(serde_json::json!({
                        "jsonrpc": "2.0",
                        "id": request["id"],
                        "error": {"code": -32601, "message": "the method eth_simulateV1 does not exist/is not available"},
                    }));
                }
                let answer = http
                    .post(&upstream)
                    .header("content-type", "application/json")
                    .body(body.to_vec())
                    .send()
                    .await
                    .unwrap();
                axum::Json(answer.json::<serde_json::Value>().await.unwrap())
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

/// An endpoint that cannot simulate is said so plainly, and nothing is signed until the person accepts signing this
/// one order without a simulation, with blind signing on for the network; then it goes through.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endpoint_that_cannot_simulate_needs_this_orders_acceptance_and_blind_signing() {
    let _turn = TURN.lock().await;
    let node = EvmNode::start("bob").await.unwrap();
    node.place_sandbox_contracts().await.unwrap();
    let proxy = endpoint_without_simulation(node.url()).await;
    common::name_nodes_to_sandbox(&[("bob", &proxy)]);
    let home = tempfile::tempdir().unwrap();
    let (desk, accounts) = desk_with_wallet(home.path()).await;
    let evm = accounts.evm().ok().unwrap().address.clone();
    let form = offramp_form(&evm, &accounts.bitcoin().ok().unwrap().address, "0.001");
    let local_id = verified_order(&desk, &form).await;

    let plan = desk.wallet_plan(local_id).await.unwrap();
    assert_eq!(
        plan.simulation.status,
        desk_core::simulate::SimulationStatus::Unavailable
    );
    assert!(
        plan.simulation.sentence.starts_with("Not simulated: ")
            && plan.simulation.sentence.contains("error -32601"),
        "{}",
        plan.simulation.sentence
    );
    assert!(plan.simulation.moves.is_empty());
    let fee = plan.steps[0].max_fee.clone();

    // Blind signing off: even the person's acceptance does not count.
    for accepted in [false, true] {
        let refused = desk
            .wallet_step(local_id, Some(WalletTxKind::Approve), Some(&fee), accepted)
            .await
            .unwrap_err();
        assert_eq!(refused.kind, ErrorKind::Refused);
        assert!(
            refused.message.contains("Nothing was signed")
                && refused.message.contains("turn on blind signing"),
            "{}",
            refused.message
        );
    }
    // Blind signing on, not accepted for this order: still nothing.
    desk.set_blind_signing(true).await.unwrap();
    let refused = desk
        .wallet_step(local_id, Some(WalletTxKind::Approve), Some(&fee), false)
        .await
        .unwrap_err();
    assert!(
        refused
            .message
            .contains("accept signing this one order without a simulation"),
        "{}",
        refused.message
    );
    assert!(common::wallet_txs(&desk, local_id).is_empty());

    // Both: the approval, then the call, each accepted.
    for kind in [WalletTxKind::Approve, WalletTxKind::Pay] {
        let plan = desk.wallet_plan(local_id).await.unwrap();
        assert_eq!(plan.steps[0].kind, kind);
        desk.wallet_step(local_id, Some(kind), Some(&plan.steps[0].max_fee), true)
            .await
            .unwrap();
    }
    let done = desk.order_view(local_id).unwrap();
    assert_eq!(done.stage, Some(Stage::Registered), "{done:?}");
    desk.shutdown().await;
}
