//! What a settled order pays out really arrives: an offramp's Bitcoin payout (and an onramp's refund) is a coin of
//! the receiver in the sim's ledger, which get-max-spendable counts and the next PSBT spends; an output on an EVM
//! chain is minted to the recipient on that chain's node (a refund back to the owner on the source chain), once the
//! chain has a node, and never twice: not on a re-read, not on another move of the clock, not after a restart from
//! the state file, which also keeps the clock where it was moved.

use crate::support;

use alloy_primitives::U256;
use gateway_client::wire::{CreateOrderResponse, NATIVE_TOKEN, OrderStatus, RegisterTx};
use gateway_client::{ApiVersion, QuoteRequest};
use gateway_sim::chain_node::ChainNodes;
use gateway_sim::evm_node::EvmNode;
use gateway_sim::orders::DeliveryKind;
use gateway_sim::payload::testkit::TestWallet;
use gateway_sim::payload::{Network, deposit_fee_sats_spending, initial_coin};
use gateway_sim::{Sim, SimConfig};
use serde_json::json;
use support::{client, start_with};

const EVM: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const OWNER: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
const USDT_BOB: &str = "0x05D032ac25d322df992303dCa074EE7392C117b9";
const USDT_ETH: &str = "0xdac17f958d2ee523a2206206994597c13d831ec7";

fn wallet() -> TestWallet {
    TestWallet::from_seed([31; 32])
}

fn config(state_file: Option<std::path::PathBuf>, chains: ChainNodes) -> SimConfig {
    SimConfig {
        state_file,
        access: gateway_sim::access::AccessConfig::unlimited(),
        chain_nodes: chains,
        ..SimConfig::default()
    }
}

fn evm_hash(n: u8) -> String {
    format!("0x{}", format!("{n:02x}").repeat(32))
}

/// What get-max-spendable says `address` can pay, in sats.
async fn spendable(http: &support::Http, address: &str) -> u64 {
    let (status, page) = http
        .get(&format!("/v3/get-max-spendable/{address}"), &[])
        .await;
    assert_eq!(status, 200, "{page}");
    page["amount"]["amount"].as_str().unwrap().parse().unwrap()
}

#[tokio::test]
async fn an_offramps_bitcoin_payout_is_a_spendable_coin_of_the_recipient_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sandbox.json");
    let (sim, running) =
        start_with(Sim::with_config(config(Some(path.clone()), ChainNodes::default())).unwrap())
            .await;
    let v3 = client(&running, ApiVersion::V3);
    let http = support::http(&running);
    let recipient = wallet().address(Network::Bitcoin);
    let script = wallet().script_pubkey();
    let first = initial_coin(&script);
    let before = spendable(&http, &recipient).await;

    let mut request = QuoteRequest::new(
        ("bob", WBTC_BOB),
        ("bitcoin", NATIVE_TOKEN),
        "100123",
        &recipient,
    );
    request.owner_address = Some(OWNER.into());
    request.sender = Some(EVM.into());
    let quote = v3.get_quote(&request).await.unwrap().value;
    let payout: u64 = quote.view().output_amount().amount.parse().unwrap();
    let id = v3
        .create_order(&quote)
        .await
        .unwrap()
        .value
        .order_id()
        .to_owned();
    // Created, not paid: nothing is pending yet, and finishing would move nothing.
    assert_eq!(sim.clock_reading().pending, 0);
    assert_eq!(sim.clock_reading().awaiting_payment, 1);
    v3.register_tx(&RegisterTx::offramp(&id, evm_hash(1), "bob"))
        .await
        .unwrap();

    // Exactly as far as the order needs: its end, computed by the sim (30 minutes for an offramp).
    let reading = sim.clock_reading();
    assert_eq!(reading.pending, 1);
    assert!(
        (1_790..=1_800).contains(&reading.finish_in_secs),
        "{reading:?}"
    );
    let moved = sim.advance_clock(reading.finish_in_secs).await;
    assert_eq!((moved.finished, moved.expired, moved.delivered), (1, 0, 1));
    assert_eq!((moved.after.pending, moved.after.finish_in_secs), (0, 0));
    let done = v3.get_order(&id).await.unwrap().value;
    let OrderStatus::Success { received_tokens } = &done.status else {
        panic!("{:?}", done.status)
    };
    let payout_txid = received_tokens[0].tx_hash.clone();
    let delivery = sim.delivery(&id).expect("delivered");
    assert_eq!(delivery.kind, DeliveryKind::Output);
    assert_eq!(
        (delivery.chain.as_str(), delivery.to.as_str()),
        ("bitcoin", recipient.as_str())
    );
    assert_eq!(delivery.amount, payout.to_string());
    assert_eq!(delivery.tx_hash, payout_txid);

    // Two coins now: get-max-spendable counts both, less the fee of a deposit spending both.
    let after = spendable(&http, &recipient).await;
    assert_eq!(
        after,
        first.value + payout - deposit_fee_sats_spending(&script, 2, false)
    );
    assert!(after > before);

    // Once: read again, move the clock again; nothing more arrives.
    v3.get_order(&id).await.unwrap();
    v3.get_orders(OWNER, None, None).await.unwrap();
    let again = sim.advance_clock(3_600).await;
    assert_eq!((again.finished, again.delivered), (0, 0));
    assert_eq!(spendable(&http, &recipient).await, after);

    // The recipient's next deposit, more than its first coin alone could pay, spends both: the payout is input 1.
    let mut deposit = QuoteRequest::new(
        ("bitcoin", NATIVE_TOKEN),
        ("bob", WBTC_BOB),
        &(before + 1).to_string(),
        EVM,
    );
    deposit.sender = Some(recipient.clone());
    let quote = v3.get_quote(&deposit).await.unwrap().value;
    let CreateOrderResponse::Onramp(onramp) = v3.create_order(&quote).await.unwrap().value else {
        panic!("an onramp")
    };
    let signed = wallet()
        .sign_psbt(onramp.psbt_hex.as_deref().unwrap())
        .unwrap();
    let tx: bitcoin::Transaction = bitcoin::consensus::encode::deserialize_hex(&signed).unwrap();
    assert_eq!(tx.input.len(), 2);
    assert_eq!(tx.input[1].previous_output.txid.to_string(), payout_txid);
    let advanced = sim.clock().offset();
    running.shutdown().await.unwrap();

    // A restart from the state file: the clock where it was moved (the order stays finished), the coin there once.
    let (sim, running) =
        start_with(Sim::with_config(config(Some(path), ChainNodes::default())).unwrap()).await;
    assert_eq!(sim.clock().offset(), advanced);
    let v3 = client(&running, ApiVersion::V3);
    let http = support::http(&running);
    assert!(matches!(
        v3.get_order(&id).await.unwrap().value.status,
        OrderStatus::Success { .. }
    ));
    assert_eq!(spendable(&http, &recipient).await, after);
    assert_eq!(sim.delivery(&id).unwrap().tx_hash, payout_txid);
    assert_eq!(sim.advance_clock(60).await.delivered, 0);
    assert_eq!(spendable(&http, &recipient).await, after);
    running.shutdown().await.unwrap();
}

#[tokio::test]
async fn a_refunded_onramp_pays_its_sender_back_in_the_ledger() {
    let (sim, running) =
        start_with(Sim::with_config(config(None, ChainNodes::default())).unwrap()).await;
    let http = support::http(&running);
    let sender = wallet().address(Network::Bitcoin);
    let script = wallet().script_pubkey();
    // …808: refunded when it ends.
    let query = vec![
        ("srcChain", "bitcoin".to_owned()),
        ("srcToken", NATIVE_TOKEN.to_owned()),
        ("dstChain", "bob".to_owned()),
        ("dstToken", WBTC_BOB.to_owned()),
        ("amount", "100808".to_owned()),
        ("recipient", EVM.to_owned()),
        ("slippage", "300".to_owned()),
        ("sender", sender.clone()),
    ];
    let (_, quote) = http.get("/v3/get-quote", &query).await;
    let (order_id, _tx, change) =
        support::register_signed_onramp(&http, &quote, &wallet(), &script).await;
    let paid = spendable(&http, &sender).await;

    let moved = sim.advance_clock(sim.clock_reading().finish_in_secs).await;
    assert_eq!((moved.finished, moved.delivered), (1, 1));
    let refund = sim.delivery(&order_id).unwrap();
    assert_eq!(refund.kind, DeliveryKind::Refund);
    assert_eq!(
        (
            refund.chain.as_str(),
            refund.to.as_str(),
            refund.amount.as_str()
        ),
        ("bitcoin", sender.as_str(), "100808")
    );
    let refunded = spendable(&http, &sender).await;
    assert_eq!(
        refunded,
        change + 100_808 - deposit_fee_sats_spending(&script, 2, false)
    );
    assert!(refunded > paid);
    // A failed order (…404) moves nothing back: the published status has no refund there.
    running.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_are_minted_on_the_chain_once_it_has_a_node_and_only_once() {
    let chains = ChainNodes::default();
    let (sim, running) = start_with(Sim::with_config(config(None, chains.clone())).unwrap()).await;
    let v3 = client(&running, ApiVersion::V3);
    // 50 USDT from BOB to Ethereum for EVM, owned by OWNER: one succeeds, one (…808) is refunded.
    let mut ids = Vec::new();
    for (n, amount) in [(1u8, "50000123"), (2, "50000808")] {
        let mut request = QuoteRequest::new(("bob", USDT_BOB), ("ethereum", USDT_ETH), amount, EVM);
        request.slippage_bps = 100;
        request.owner_address = Some(OWNER.into());
        let quote = v3.get_quote(&request).await.unwrap().value;
        let output: u64 = quote.view().output_amount().amount.parse().unwrap();
        let id = v3
            .create_order(&quote)
            .await
            .unwrap()
            .value
            .order_id()
            .to_owned();
        // No node yet on BOB: the hash is checked by its shape only.
        v3.register_tx(&RegisterTx::token_swap(&id, evm_hash(n), "bob"))
            .await
            .unwrap();
        ids.push((id, output));
    }
    let moved = sim.advance_clock(sim.clock_reading().finish_in_secs).await;
    assert_eq!((moved.finished, moved.delivered), (2, 0));
    assert_eq!(
        moved.after.undelivered, 2,
        "owed until the chains have nodes"
    );
    assert!(sim.owed(&ids[0].0).is_some() && sim.delivery(&ids[0].0).is_none());

    // The chains start: the next read of the orders delivers what they owe, before it answers.
    let ethereum = EvmNode::start("ethereum").await.unwrap();
    ethereum.place_sandbox_contracts().await.unwrap();
    let bob = EvmNode::start("bob").await.unwrap();
    bob.place_sandbox_contracts().await.unwrap();
    assert_eq!(
        ethereum.token_balance(USDT_ETH, EVM).await.unwrap(),
        U256::ZERO
    );
    chains.set("ethereum", ethereum.url());
    chains.set("bob", bob.url());
    assert!(matches!(
        v3.get_order(&ids[0].0).await.unwrap().value.status,
        OrderStatus::Success { .. }
    ));
    assert_eq!(
        ethereum.token_balance(USDT_ETH, EVM).await.unwrap(),
        U256::from(ids[0].1)
    );
    assert_eq!(
        bob.token_balance(USDT_BOB, OWNER).await.unwrap(),
        U256::from(50_000_808u64),
        "the refund, back to the owner on the source chain"
    );
    assert_eq!(sim.delivery(&ids[1].0).unwrap().kind, DeliveryKind::Refund);
    assert!(sim.owed(&ids[0].0).is_none());
    assert_eq!(sim.clock_reading().undelivered, 0);

    // Never twice: more reads, another pass, another move of the clock.
    for (id, _) in &ids {
        v3.get_order(id).await.unwrap();
    }
    v3.get_orders(OWNER, None, None).await.unwrap();
    assert_eq!(sim.deliver_owed().await.minted, 0);
    assert_eq!(sim.advance_clock(600).await.delivered, 0);
    assert_eq!(
        ethereum.token_balance(USDT_ETH, EVM).await.unwrap(),
        U256::from(ids[0].1)
    );
    assert_eq!(
        bob.token_balance(USDT_BOB, OWNER).await.unwrap(),
        U256::from(50_000_808u64)
    );
    running.shutdown().await.unwrap();
}

/// The payment of an order settled on Solana or Tron, made on that chain's node: SPL tokens in the receiver's
/// associated token account (made when it does not exist), TRC-20 tokens to the receiver's account; each exactly the
/// amount, added to what it held.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spl_and_trc20_payments_are_minted_on_the_solana_and_tron_nodes() {
    use gateway_sim::delivery::deliver;
    use gateway_sim::local_chain::solana_node::SolanaNode;
    use gateway_sim::local_chain::tron_node::TronNode;
    use gateway_sim::orders::Delivery;
    use solana_pubkey::Pubkey;
    use std::str::FromStr;

    const USDC_SOL: &str = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
    const USDT_TRON: &str = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
    let payment = |chain: &str, token: &str, to: &str, amount: &str| Delivery {
        order_id: format!("order-on-{chain}"),
        kind: DeliveryKind::Output,
        chain: chain.into(),
        token: token.into(),
        to: to.into(),
        amount: amount.into(),
        tx_hash: "unused".into(),
    };

    // Solana: a new receiver's token account is made and credited, then credited again.
    let solana = SolanaNode::start().await.unwrap();
    let to = support::SOL_ADDR;
    let account = gateway_sim::payload::solana::associated_token_account(
        &Pubkey::from_str(to).unwrap(),
        &Pubkey::from_str(USDC_SOL).unwrap(),
    );
    let held = |answer: serde_json::Value| -> u64 {
        answer["value"]["amount"].as_str().unwrap().parse().unwrap()
    };
    deliver(solana.url(), &payment("solana", USDC_SOL, to, "24750000"))
        .await
        .unwrap();
    let balance = solana
        .rpc("getTokenAccountBalance", json!([account.to_string()]))
        .await
        .unwrap();
    assert_eq!(held(balance), 24_750_000);
    deliver(solana.url(), &payment("solana", USDC_SOL, to, "250000"))
        .await
        .unwrap();
    let balance = solana
        .rpc("getTokenAccountBalance", json!([account.to_string()]))
        .await
        .unwrap();
    assert_eq!(held(balance), 25_000_000);

    // Tron: the TRC-20 test token's balanceOf, read-only through the stand-in's HTTP API.
    let tron = TronNode::start().await.unwrap();
    let to = support::TRON_ADDR;
    let account = gateway_client::chains::tron::parse_account(to).unwrap();
    let balance_of = || async {
        let mut data = alloy_primitives::hex::decode("70a08231").unwrap();
        data.extend_from_slice(&[0u8; 12]);
        data.extend_from_slice(&account[1..]);
        let answer = tron
            .post(
                "/wallet/triggerconstantcontract",
                json!({
                    "owner_address": to,
                    "contract_address": USDT_TRON,
                    "data": alloy_primitives::hex::encode(data),
                    "call_value": 0,
                    "visible": true,
                }),
            )
            .await
            .unwrap();
        U256::from_str_radix(answer["constant_result"][0].as_str().unwrap(), 16).unwrap()
    };
    assert_eq!(balance_of().await, U256::ZERO);
    deliver(tron.url(), &payment("tron", USDT_TRON, to, "49500000"))
        .await
        .unwrap();
    assert_eq!(balance_of().await, U256::from(49_500_000u64));

    // An amount the chain's calls cannot carry is refused, and nothing moves.
    let too_much = deliver(
        tron.url(),
        &payment("tron", USDT_TRON, to, "18446744073709551616"),
    )
    .await
    .unwrap_err();
    assert!(
        too_much.to_string().contains("cannot be delivered on tron"),
        "{too_much}"
    );
    assert_eq!(balance_of().await, U256::from(49_500_000u64));
}
