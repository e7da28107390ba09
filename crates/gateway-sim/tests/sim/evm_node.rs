//! The Sandbox's local EVM chains are real: anvil (from `chains/node_modules`, installed by `cargo xtask setup`) with
//! the gateway contract and test tokens compiled from `chains/contracts`. The calls gateway-sim hands out for
//! offramps and token swaps execute against that contract exactly as an EVM chain runs them: refused without an
//! approval, taken once with it, never twice for one order; native-coin calls carry the amount as value; USDT on
//! Ethereum wants its allowance reset to zero first, as the real one does.

use alloy_primitives::U256;
use alloy_sol_types::SolCall;
use gateway_sim::evm_node::{EvmNode, NodeError, calls};
use gateway_sim::payload::evm::{offramp_call, swap_call};
use gateway_sim::quote::gateway_contract;

const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
const USDT_ETH: &str = "0xdac17f958d2ee523a2206206994597c13d831ec7";
const NATIVE: &str = "0x0000000000000000000000000000000000000000";
const USER: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const BTC: &str = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";

fn bytes(hex: &str) -> Vec<u8> {
    alloy_primitives::hex::decode(hex).unwrap()
}

fn reverted_with(result: Result<serde_json::Value, NodeError>, reason: &str) {
    match result {
        Err(NodeError::Reverted { reason: error }) => assert!(error.contains(reason), "{error}"),
        other => panic!("expected a revert with {reason:?}, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sims_offramp_and_swap_calls_run_on_a_real_node_with_an_exact_approval() {
    let node = EvmNode::start("bob").await.unwrap();
    node.place_sandbox_contracts().await.unwrap();
    let gateway = gateway_contract("bob");
    let approval = calls::approvalRequiredCall::abi_decode_returns(
        &node
            .call(&gateway, &calls::approvalRequiredCall {}.abi_encode())
            .await
            .unwrap(),
    )
    .unwrap();
    assert!(approval, "the contract says tokens are approved first");

    node.set_native_balance(USER, U256::from(10u64).pow(U256::from(18u64)))
        .await
        .unwrap();
    node.mint(WBTC_BOB, USER, U256::from(250_000u64))
        .await
        .unwrap();
    assert_eq!(
        node.token_balance(WBTC_BOB, USER).await.unwrap(),
        U256::from(250_000u64)
    );

    let amount = U256::from(100_000u64);
    let call = offramp_call(
        "order-1",
        &gateway,
        WBTC_BOB,
        amount,
        U256::from(95_000u64),
        BTC,
    )
    .unwrap();
    assert_eq!(call.value, "0");
    // Without an approval the contract cannot take the token.
    reverted_with(
        node.send_as(USER, &call.to, &bytes(&call.data), U256::ZERO)
            .await,
        "allowance too low",
    );

    // An exact approval for the quoted amount, then the call: the tokens move to the contract.
    let approve = calls::approveCall {
        spender: gateway.parse().unwrap(),
        amount,
    }
    .abi_encode();
    let receipt = node
        .send_as(USER, WBTC_BOB, &approve, U256::ZERO)
        .await
        .unwrap();
    assert_eq!(receipt["status"], "0x1");
    let receipt = node
        .send_as(USER, &call.to, &bytes(&call.data), U256::ZERO)
        .await
        .unwrap();
    assert_eq!(receipt["status"], "0x1", "{receipt}");
    assert_eq!(
        receipt["to"].as_str().unwrap().to_lowercase(),
        gateway.to_lowercase()
    );
    assert_eq!(
        node.token_balance(WBTC_BOB, &gateway).await.unwrap(),
        amount
    );
    assert_eq!(
        node.token_balance(WBTC_BOB, USER).await.unwrap(),
        U256::from(150_000u64)
    );
    // The node has the receipt by its hash, as gateway-sim will ask for it.
    let hash = receipt["transactionHash"].as_str().unwrap();
    assert_eq!(node.receipt(hash).await.unwrap()["status"], "0x1");

    // One order is paid once.
    node.send_as(USER, WBTC_BOB, &approve, U256::ZERO)
        .await
        .unwrap();
    reverted_with(
        node.send_as(USER, &call.to, &bytes(&call.data), U256::ZERO)
            .await,
        "order already paid",
    );

    // A token swap of the native coin carries the amount as value.
    let wei = U256::from(10u64).pow(U256::from(15u64));
    let swap = swap_call(
        "order-2",
        &gateway,
        NATIVE,
        wei,
        "ethereum",
        USDT_ETH,
        USER,
        U256::from(1u64),
    )
    .unwrap();
    assert_eq!(swap.value, wei.to_string());
    reverted_with(
        node.send_as(USER, &swap.to, &bytes(&swap.data), U256::ZERO)
            .await,
        "value is not the amount",
    );
    let receipt = node
        .send_as(USER, &swap.to, &bytes(&swap.data), wei)
        .await
        .unwrap();
    assert_eq!(receipt["status"], "0x1");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn usdt_on_ethereum_wants_its_allowance_reset_to_zero_first() {
    let node = EvmNode::start("ethereum").await.unwrap();
    assert_eq!(
        node.rpc("eth_chainId", serde_json::json!([]))
            .await
            .unwrap(),
        "0x1"
    );
    node.place_sandbox_contracts().await.unwrap();
    let gateway = gateway_contract("ethereum");
    node.set_native_balance(USER, U256::from(10u64).pow(U256::from(18u64)))
        .await
        .unwrap();
    let approve = |amount: u64| {
        calls::approveCall {
            spender: gateway.parse().unwrap(),
            amount: U256::from(amount),
        }
        .abi_encode()
    };
    node.send_as(USER, USDT_ETH, &approve(5), U256::ZERO)
        .await
        .unwrap();
    reverted_with(
        node.send_as(USER, USDT_ETH, &approve(6), U256::ZERO).await,
        "reset the allowance to zero first",
    );
    node.send_as(USER, USDT_ETH, &approve(0), U256::ZERO)
        .await
        .unwrap();
    node.send_as(USER, USDT_ETH, &approve(6), U256::ZERO)
        .await
        .unwrap();
    let allowance = calls::allowanceCall {
        owner: USER.parse().unwrap(),
        spender: gateway.parse().unwrap(),
    }
    .abi_encode();
    let left = node.call(USDT_ETH, &allowance).await.unwrap();
    assert_eq!(U256::from_be_slice(&left), U256::from(6u64));
}

/// gateway-sim with a node behind "bob" accepts a registered hash only when the node saw that transaction pay the
/// order: an unknown hash, another transaction of the sender (the approval) and a transaction of another order are
/// refused with their own sentence; the order's own call goes through and the order is in progress.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_registered_transaction_counts_only_when_the_node_saw_it_pay_the_order() {
    use gateway_client::wire::{NATIVE_TOKEN, OrderStatus, RegisterTx};
    use gateway_client::{ApiVersion, ClientError, QuoteRequest};

    let (node, _sim, running, v3) =
        crate::support::sim_on_a_bob_node(USER, WBTC_BOB, ApiVersion::V3).await;

    let mut request =
        QuoteRequest::new(("bob", WBTC_BOB), ("bitcoin", NATIVE_TOKEN), "100000", BTC);
    request.sender = Some(USER.into());
    request.owner_address = Some(USER.into());
    let order = |request: QuoteRequest| {
        let v3 = v3.clone();
        async move {
            let quote = v3.get_quote(&request).await.unwrap().value;
            let created = v3.create_order(&quote).await.unwrap().value;
            let tx = created.tx().unwrap().as_evm().unwrap().clone();
            (created.order_id().to_owned(), tx)
        }
    };
    let refused = |result: Result<_, ClientError>, words: &str| match result {
        Err(ClientError::Gateway { body, .. }) => {
            assert!(body.error.contains(words), "{}", body.error);
            assert!(body.error.starts_with("src_tx_hash: "), "{}", body.error);
        }
        Ok(_) => panic!("accepted, expected {words:?}"),
        Err(other) => panic!("{other}"),
    };
    let (id, tx) = order(request.clone()).await;
    let (other_id, other_tx) = order(request).await;

    let unknown = format!("0x{}", "ab".repeat(32));
    refused(
        v3.register_tx(&RegisterTx::offramp(&id, &unknown, "bob"))
            .await,
        "the chain has no transaction",
    );
    let approve = calls::approveCall {
        spender: tx.to.parse().unwrap(),
        amount: U256::from(200_000u64),
    }
    .abi_encode();
    let approval = node
        .send_as(USER, WBTC_BOB, &approve, U256::ZERO)
        .await
        .unwrap();
    let approval_hash = approval["transactionHash"].as_str().unwrap();
    refused(
        v3.register_tx(&RegisterTx::offramp(&id, approval_hash, "bob"))
            .await,
        "not the order's contract",
    );
    let paid_other = node
        .send_as(USER, &other_tx.to, &bytes(&other_tx.data), U256::ZERO)
        .await
        .unwrap();
    refused(
        v3.register_tx(&RegisterTx::offramp(
            &id,
            paid_other["transactionHash"].as_str().unwrap(),
            "bob",
        ))
        .await,
        "does not carry the order's calldata",
    );
    let paid = node
        .send_as(USER, &tx.to, &bytes(&tx.data), U256::ZERO)
        .await
        .unwrap();
    v3.register_tx(&RegisterTx::offramp(
        &id,
        paid["transactionHash"].as_str().unwrap(),
        "bob",
    ))
    .await
    .unwrap();
    let status = v3.get_order(&id).await.unwrap().value.status;
    assert!(
        matches!(status, OrderStatus::InProgress { .. }),
        "{status:?}"
    );
    assert!(!other_id.is_empty());
    running.shutdown().await.unwrap();
}

/// A node outlives neither its owner's normal end nor a SIGKILL of its owner: the process that started it is this
/// test binary re-run (`EVM_NODE_OWNER=1`), which prints the node's URL and waits to be killed.
#[test]
fn a_node_stops_when_its_owner_is_killed() {
    use std::io::{BufRead, BufReader};
    if std::env::var_os("EVM_NODE_OWNER").is_some() {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let node = runtime.block_on(EvmNode::start("bob")).unwrap();
        println!("URL {}", node.url());
        std::thread::sleep(std::time::Duration::from_secs(120));
        return;
    }
    let answers =
        |url: &str| std::net::TcpStream::connect(url.trim_start_matches("http://")).is_ok();
    // A normal end: dropped, the node stops.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let url = runtime.block_on(async {
        let node = EvmNode::start("bob").await.unwrap();
        node.url().to_owned()
    });
    let gone = |url: &str| {
        let started = std::time::Instant::now();
        while answers(url) {
            assert!(
                started.elapsed() < std::time::Duration::from_secs(15),
                "{url} still answers"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    };
    gone(&url);
    // Its owner killed: the node stops too.
    let mut owner = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "evm_node::a_node_stops_when_its_owner_is_killed",
            "--exact",
            "--nocapture",
        ])
        .env("EVM_NODE_OWNER", "1")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(owner.stdout.take().unwrap()).lines();
    let url = loop {
        let line = lines.next().expect("the owner printed its node").unwrap();
        if let Some(url) = line.strip_prefix("URL ") {
            break url.to_owned();
        }
    };
    assert!(answers(&url), "the node runs while its owner does");
    owner.kill().unwrap();
    owner.wait().unwrap();
    gone(&url);
}
