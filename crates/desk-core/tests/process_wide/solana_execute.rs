//! Offramps and token swaps from Solana signed and sent by the app's wallet on the Sandbox, whose Solana chain is a
//! real runtime (LiteSVM behind JSON-RPC, `chains/solana-node.mjs`) started by this test and named to the Sandbox
//! through `GATEWAY_DESK_SANDBOX_NODES` (`solana=URL`), so the test can also act on it. The embedded gateway
//! builds each order's transaction on that chain's blockhash and registers a signature only when the chain
//! executed the order's own transaction.

use crate::common;

use desk_core::ErrorKind;
use desk_core::desk::SwapForm;
use desk_core::journal::{Journal, Stage, WalletTxState};
use gateway_client::wire::NATIVE_TOKEN;
use gateway_sim::local_chain::solana_node::SolanaNode;

use common::{
    ABANDON, USDT_BOB, card, complete_onramp, desk_with_wallet, set_tamper, verified_order,
};

const USDC_SOL: &str = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";

use crate::TURN;

/// A Solana node named to the Sandbox, so the desk uses it instead of starting its own.
async fn solana_node() -> SolanaNode {
    let node = SolanaNode::start().await.unwrap();
    common::name_nodes_to_sandbox(&[("solana", node.url())]);
    node
}

fn swap_form(accounts: &desk_core::wallet::Accounts, amount: &str) -> SwapForm {
    let evm = accounts.evm().ok().unwrap().address.clone();
    SwapForm {
        src_chain: "solana".into(),
        src_token: USDC_SOL.into(),
        dst_chain: "bob".into(),
        dst_token: USDT_BOB.into(),
        amount: amount.into(),
        slippage_bps: 300,
        recipient: evm.clone(),
        sender: Some(accounts.for_chain("solana").unwrap().address.clone()),
        owner: None,
        refund: None,
    }
}

/// A USDC swap from Solana to BOB: the plan reads the balances and the fee of this exact message; a fee above what
/// was accepted signs nothing; then signed, journaled, sent, confirmed, registered (the gateway found it executed on
/// the chain), and completed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_usdc_swap_from_solana_is_signed_sent_confirmed_registered_and_completed() {
    let _turn = TURN.lock().await;
    let _node = solana_node().await;
    let home = tempfile::tempdir().unwrap();
    let (desk, accounts) = desk_with_wallet(home.path()).await;
    let mut events = desk.subscribe();

    // The Sandbox funds the wallet's Solana account on first use: 10 SOL and 10,000 USDC.
    let usdc = desk.wallet_balance("solana", USDC_SOL).await.unwrap();
    assert_eq!(
        (usdc.amount.as_str(), usdc.symbol.as_str()),
        ("10000000000", "USDC")
    );
    let sol = desk.wallet_balance("solana", NATIVE_TOKEN).await.unwrap();
    assert_eq!(sol.amount, "10000000000");
    assert!(
        sol.max.parse::<u64>().unwrap() < 10_000_000_000,
        "Max of SOL keeps the fee: {sol:?}"
    );

    let local_id = verified_order(&desk, &swap_form(&accounts, "25")).await;
    let plan = desk.wallet_plan(local_id).await.unwrap();
    assert_eq!(plan.shortfall, None, "{plan:?}");
    assert!(plan.expired.is_none());
    assert_eq!(plan.steps[0].max_fee, "5000");
    assert_eq!(plan.token_balance_text.as_deref(), Some("10000 USDC"));
    let order_id = desk.order_view(local_id).unwrap().order_id.unwrap();
    assert!(
        plan.steps[0]
            .sentence
            .starts_with("Send 25 USDC to the gateway's Solana program")
            && plan.steps[0].sentence.contains(&order_id),
        "{}",
        plan.steps[0].sentence
    );

    // The chain (LiteSVM) ran the unsigned transaction: exactly the quote's 25 USDC leaves the wallet's token account,
    // and no SOL but the fee leaves the wallet.
    assert_eq!(
        plan.simulation.status,
        desk_core::simulate::SimulationStatus::Simulated,
        "{:?}",
        plan.simulation
    );
    assert!(
        plan.simulation
            .source
            .starts_with("simulateTransaction on http://127.0.0.1:")
    );
    assert_eq!(
        plan.simulation.sentence,
        "−25 USDC, network fee 0.000005 SOL; nothing else leaves the wallet."
    );

    // A fee above what was accepted: nothing signed.
    let dear = desk
        .wallet_step(local_id, None, Some("4999"), false)
        .await
        .unwrap_err();
    assert_eq!(dear.kind, ErrorKind::Refused, "{}", dear.message);
    assert!(dear.message.contains("more than"), "{}", dear.message);
    assert!(common::wallet_txs(&desk, local_id).is_empty());

    let paid = desk
        .wallet_step(local_id, None, Some(&plan.steps[0].max_fee), false)
        .await
        .unwrap();
    assert_eq!(paid.stage, Some(Stage::Registered), "{paid:?}");
    let txs = paid.wallet_txs.clone().unwrap();
    assert_eq!(txs.len(), 1);
    assert_eq!(txs[0].state, WalletTxState::Mined);
    assert_eq!(txs[0].chain, "solana");
    // The registered hash is the fee payer's signature, Base58 (64 bytes).
    assert_eq!(bs58::decode(&txs[0].hash).into_vec().unwrap().len(), 64);
    // The fee left the wallet's SOL.
    let after = desk.wallet_balance("solana", NATIVE_TOKEN).await.unwrap();
    assert_eq!(after.amount, "9999995000");
    // The deposit moved the tokens to the gateway's vault: 25 USDC fewer.
    let usdc = desk.wallet_balance("solana", USDC_SOL).await.unwrap();
    assert_eq!(usdc.amount, "9975000000");

    // A second send of the same order signs nothing new: the order is paid.
    let done = complete_onramp(&desk, &mut events, local_id).await;
    assert_eq!(done.status.as_deref(), Some("success"));

    // Neither the phrase nor the key is in any file the app wrote or in any event.
    let seed = desk_core::wallet::Seed::from_phrase(ABANDON, "").unwrap();
    let key = desk_core::wallet::ed25519_signer(
        &seed,
        desk_core::wallet::KeyFamily(gateway_client::chains::ChainFamily::Solana),
    )
    .unwrap();
    let secrets = [
        ABANDON.split(' ').take(4).collect::<Vec<_>>().join(" "),
        alloy_primitives::hex::encode(key.to_bytes()),
        bs58::encode(key.to_bytes()).into_string(),
        bs58::encode(key.to_keypair_bytes()).into_string(),
    ];
    desk.shutdown().await;
    common::assert_no_secret_written(home.path(), &mut events, &secrets);
}

/// A transaction whose blockhash expired before signing: the plan says so, the step explains it and names the next
/// step (a new quote and order), and nothing is signed or journaled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_blockhash_is_explained_before_anything_is_signed() {
    let _turn = TURN.lock().await;
    let node = solana_node().await;
    let home = tempfile::tempdir().unwrap();
    let (desk, accounts) = desk_with_wallet(home.path()).await;
    let local_id = verified_order(&desk, &swap_form(&accounts, "10")).await;
    node.expire_blockhash().await.unwrap();

    let plan = desk.wallet_plan(local_id).await.unwrap();
    let expired = plan.expired.clone().unwrap_or_default();
    assert!(
        expired.contains("no longer accepts")
            && expired.ends_with("Ask for a new quote and create a new order."),
        "{plan:?}"
    );
    let refused = desk
        .wallet_step(local_id, None, Some(&plan.steps[0].max_fee), false)
        .await
        .unwrap_err();
    assert!(
        refused.message.contains("no longer accepts")
            && refused.message.contains("not signed")
            && refused.message.contains("new quote"),
        "{}",
        refused.message
    );
    assert!(common::wallet_txs(&desk, local_id).is_empty());
}

/// Too few tokens: the plan and the step tell the numbers, nothing is signed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shortfall_is_told_with_the_numbers_before_anything_is_signed() {
    let _turn = TURN.lock().await;
    let _node = solana_node().await;
    let home = tempfile::tempdir().unwrap();
    let (desk, accounts) = desk_with_wallet(home.path()).await;
    // Confirm refuses an order the unlocked wallet cannot pay, with the numbers (issue 31)…
    common::refused_as_unpayable(
        &desk,
        &swap_form(&accounts, "20000"),
        "10000 USDC",
        "20000 USDC",
    )
    .await;
    // …but an order made while the wallet was locked is not the app's to check then: its plan tells the shortfall
    // once the wallet is unlocked, and nothing is signed.
    desk.wallet_lock().await;
    let local_id = verified_order(&desk, &swap_form(&accounts, "20000")).await;
    desk.wallet_unlock(common::PASSWORD).await.unwrap();
    let plan = desk.wallet_plan(local_id).await.unwrap();
    let short = plan.shortfall.clone().unwrap();
    assert!(
        short.contains("holds 10000 USDC") && short.contains("add at least 10000 USDC"),
        "{short}"
    );
    let refused = desk
        .wallet_step(local_id, None, Some(&plan.steps[0].max_fee), false)
        .await
        .unwrap_err();
    assert!(
        refused.message.contains("Nothing was signed"),
        "{}",
        refused.message
    );
}

/// The app stopped after journaling the signed transaction, before sending it: resuming sends the same
/// transaction (the same signature) and registers it; no second signature is made.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_journaled_transaction_is_sent_as_it_is_on_resume() {
    let _turn = TURN.lock().await;
    let node = solana_node().await;
    let home = tempfile::tempdir().unwrap();
    let (desk, accounts) = desk_with_wallet(home.path()).await;
    let local_id = verified_order(&desk, &swap_form(&accounts, "12")).await;
    desk.wallet_balance("solana", USDC_SOL).await.unwrap();
    // The settings' check of an endpoint is written by the family's rail.
    let checked = common::endpoint_check(
        &desk_core::execute::rail::solana::SolanaRail,
        "solana",
        node.url(),
    )
    .await;
    assert_eq!(
        checked.answered,
        format!("the chain itself, latest slot {}", checked.latest_block)
    );

    // Sign and journal through a second handle on the desk's journal, stopping right after the journal write.
    let journal =
        Journal::open(&home.path().join("data").join(desk_core::desk::JOURNAL_FILE)).unwrap();
    let pay =
        desk_core::execute::rail::solana::solana_pay_of(&journal.order(local_id).unwrap().to_pay())
            .unwrap();
    let endpoint = desk_core::execute::rail::solana::node::connect(
        &[node.url().to_owned()],
        gateway_sim::local_chain::solana_node::SANDBOX_GENESIS,
    )
    .await
    .unwrap();
    let key = desk_core::wallet::ed25519_signer(
        &desk_core::wallet::Seed::from_phrase(ABANDON, "").unwrap(),
        desk_core::wallet::KeyFamily(gateway_client::chains::ChainFamily::Solana),
    )
    .unwrap();
    let stopped = tokio::spawn(async move {
        desk_core::execute::rail::solana::execute(
            &journal,
            local_id,
            &endpoint,
            Some(&key),
            &pay,
            Some(u64::MAX),
            desk_core::execute::rail::solana::Unsimulated::default(),
            &|_| {},
            &|point| assert_ne!(point, "pay-journaled", "stopped here"),
        )
        .await
    })
    .await;
    assert!(
        stopped.is_err(),
        "the signing task stopped after the journal write"
    );
    let journaled = desk.order_view(local_id).unwrap().wallet_txs.unwrap();
    assert_eq!(journaled.len(), 1);
    assert_eq!(journaled[0].state, WalletTxState::Signed);

    let resumed = desk.resume(local_id).await.unwrap();
    assert_eq!(resumed.stage, Some(Stage::Registered), "{resumed:?}");
    let txs = resumed.wallet_txs.unwrap();
    assert_eq!(txs.len(), 1, "no second transaction");
    assert_eq!(txs[0].hash, journaled[0].hash);
    assert_eq!(txs[0].state, WalletTxState::Mined);
}

/// An order asked for with another fee payer is not signed by this wallet, and a signature the chain never executed
/// is not registered by the gateway.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_fee_payer_is_refused_and_an_unknown_signature_is_not_registered() {
    let _turn = TURN.lock().await;
    let _node = solana_node().await;
    let home = tempfile::tempdir().unwrap();
    let (desk, accounts) = desk_with_wallet(home.path()).await;
    // On V3, whose register-tx checks a handed-in signature on the chain (the end of this test); switching funds the
    // Sandbox's wallet again.
    desk.set_api_version(gateway_client::ApiVersion::V3)
        .await
        .unwrap();
    let mut form = swap_form(&accounts, "15");
    form.sender = Some("9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM".into());
    let local_id = verified_order(&desk, &form).await;
    let refused = desk.wallet_plan(local_id).await.unwrap_err();
    assert_eq!(refused.kind, ErrorKind::Refused);
    assert!(
        refused.message.contains("not this app's wallet")
            && refused.message.contains("Nothing is signed"),
        "{}",
        refused.message
    );
    let refused = desk
        .wallet_step(local_id, None, Some("5000"), false)
        .await
        .unwrap_err();
    assert!(
        refused.message.contains("Nothing is signed"),
        "{}",
        refused.message
    );

    // A well-formed signature Solana never executed, handed in where V3's register-tx checks it on the chain (V4
    // registers none: the gateway finds the payment itself); the test runs on V3 from its start.
    let made_up = bs58::encode([7u8; 64]).into_string();
    let local_id = verified_order(&desk, &swap_form(&accounts, "15")).await;
    let refused = desk.hand_in(local_id, &made_up).await.unwrap_err();
    assert!(
        refused.message.contains("Solana has no transaction"),
        "{}",
        refused.message
    );
}

/// A hostile gateway's Solana transaction paid by another account, or needing a second signer: refused at
/// verification, and the wallet signs nothing for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_fee_payer_or_an_extra_signer_is_refused_before_anything_is_signed() {
    let _turn = TURN.lock().await;
    let _node = solana_node().await;
    let home = tempfile::tempdir().unwrap();
    let (desk, accounts) = desk_with_wallet(home.path()).await;
    for tamper in ["solanaFeePayer", "solanaExtraSigner"] {
        let form = swap_form(&accounts, "11");
        let quote = card(&desk, &form).await;
        set_tamper(&desk, Some(tamper)).await;
        let order = desk.start_order(quote.raw, None).await.unwrap();
        set_tamper(&desk, None).await;
        assert_eq!(order.stage, Some(Stage::Refused), "{tamper}: {order:?}");
        let local_id = order.local_id.unwrap();
        let refused = desk
            .wallet_step(local_id, None, Some("5000"), false)
            .await
            .unwrap_err();
        assert_eq!(refused.kind, ErrorKind::Refused, "{}", refused.message);
        assert!(
            refused.message.contains("Nothing is signed"),
            "{}",
            refused.message
        );
        assert!(common::wallet_txs(&desk, local_id).is_empty());
    }
}
