//! [`assess_calls`] on simulated logs as an `eth_simulateV1` answer gives them: what the quote allows passes and is said
//! in the person's units; each surprise refuses with its sentence. (The same against a real node, anvil, with a real
//! AllowanceHolder-style contract: `tests/flows/production_shape.rs`.)

use super::*;

const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
const USDT_BOB: &str = "0x05D032ac25d322df992303dCa074EE7392C117b9";

fn a(text: &str) -> Address {
    text.parse().unwrap()
}

fn owner() -> Address {
    a("0x1111111111111111111111111111111111111111")
}
fn entry() -> Address {
    a("0x8fd545b348e84deb145f0179a00c671f0b9519c3")
}
fn target() -> Address {
    a("0x7777777777777777777777777777777777777777")
}
fn stranger() -> Address {
    a("0xbad0bad0bad0bad0bad0bad0bad0bad0bad0bad0")
}

fn topic(address: Address) -> B256 {
    address.into_word()
}

fn word(amount: U256) -> Bytes {
    Bytes::from(amount.to_be_bytes::<32>().to_vec())
}

fn transfer(token: Address, from: Address, to: Address, amount: u64) -> SimLog {
    SimLog {
        address: token,
        topics: vec![TRANSFER_TOPIC, topic(from), topic(to)],
        data: word(U256::from(amount)),
    }
}

fn approval(token: Address, owner: Address, spender: Address, amount: U256) -> SimLog {
    SimLog {
        address: token,
        topics: vec![APPROVAL_TOPIC, topic(owner), topic(spender)],
        data: word(amount),
    }
}

fn ok(logs: Vec<SimLog>) -> SimCall {
    SimCall {
        ok: true,
        error: None,
        output: Bytes::new(),
        logs,
    }
}

fn allowance_left(amount: u64) -> SimCall {
    SimCall {
        ok: true,
        error: None,
        output: word(U256::from(amount)),
        logs: vec![],
    }
}

fn token_order() -> CallExpectation {
    CallExpectation {
        chain: "bob".into(),
        owner: owner(),
        token: a(WBTC_BOB),
        amount: U256::from(100_000u64),
        value: U256::ZERO,
        entry: entry(),
        recipients: vec![entry(), target()],
        granted: U256::from(100_000u64),
        max_fee_text: "0.0008 ETH".into(),
    }
}

const STEPS: [&str; 2] = ["approval", "order's transaction"];

/// The approval then the call pulling exactly the amount to the target; the allowance ends at zero.
fn honest() -> Vec<SimCall> {
    vec![
        ok(vec![approval(
            a(WBTC_BOB),
            owner(),
            entry(),
            U256::from(100_000u64),
        )]),
        ok(vec![transfer(a(WBTC_BOB), owner(), target(), 100_000)]),
        allowance_left(0),
    ]
}

#[test]
fn an_honest_token_order_is_said_in_the_persons_units() {
    let simulation = assess_calls(&token_order(), &honest(), &STEPS, true).unwrap();
    assert_eq!(simulation.status, SimulationStatus::Simulated);
    assert_eq!(simulation.moves.len(), 1);
    assert!(simulation.moves[0].leaves);
    assert_eq!(simulation.moves[0].amount, "100000");
    assert_eq!(
        simulation.sentence,
        "−0.001 WBTC to 0x7777777777777777777777777777777777777777, network fee at most 0.0008 ETH; nothing else leaves the wallet."
    );
}

#[test]
fn what_enters_the_wallet_is_said_too() {
    let mut calls = honest();
    calls[1]
        .logs
        .push(transfer(a(USDT_BOB), target(), owner(), 2_000_000));
    let simulation = assess_calls(&token_order(), &calls, &STEPS, true).unwrap();
    assert!(
        simulation
            .sentence
            .ends_with("; enters: +2 USDT from 0x7777777777777777777777777777777777777777."),
        "{}",
        simulation.sentence
    );
}

fn refused(calls: &[SimCall], expect: &CallExpectation) -> String {
    match assess_calls(expect, calls, &STEPS, true) {
        Err(Surprise::Leaves(why)) => why,
        other => panic!("not refused for what leaves: {other:?}"),
    }
}

#[test]
fn more_of_the_same_token_is_refused() {
    let mut calls = honest();
    calls[1]
        .logs
        .push(transfer(a(WBTC_BOB), owner(), target(), 1));
    assert!(
        refused(&calls, &token_order())
            .contains("0.00100001 WBTC leaves the wallet, more than the quote's 0.001 WBTC"),
        "{}",
        refused(&calls, &token_order())
    );
}

#[test]
fn a_second_token_is_refused() {
    let mut calls = honest();
    calls[1]
        .logs
        .push(transfer(a(USDT_BOB), owner(), target(), 5_000_000));
    let why = refused(&calls, &token_order());
    assert!(
        why.contains("5 USDT leaves the wallet to 0x7777777777777777777777777777777777777777, but the quote takes only 0.001 WBTC"),
        "{why}"
    );
}

#[test]
fn a_transfer_to_a_third_party_is_refused() {
    let mut calls = honest();
    calls[1].logs = vec![transfer(a(WBTC_BOB), owner(), stranger(), 100_000)];
    let why = refused(&calls, &token_order());
    assert!(why.contains("a third party"), "{why}");
    assert!(
        why.contains("0xbaD0BAd0bAD0BAd0BAd0BAD0BaD0BaD0Bad0baD0"),
        "{why}"
    );
}

#[test]
fn an_approval_to_a_stranger_is_refused() {
    let mut calls = honest();
    calls[1]
        .logs
        .push(approval(a(USDT_BOB), owner(), stranger(), U256::MAX));
    let why = refused(&calls, &token_order());
    assert!(
        why.contains("the wallet approves all of its USDT to 0xbaD0BAd0bAD0BAd0BAd0BAD0BaD0BaD0Bad0baD0, a stranger"),
        "{why}"
    );
}

#[test]
fn an_allowance_that_outlives_the_call_is_refused() {
    // The call pulls half: the other half stays approved.
    let mut calls = honest();
    calls[1].logs = vec![transfer(a(WBTC_BOB), owner(), target(), 50_000)];
    calls[2] = allowance_left(50_000);
    let why = refused(&calls, &token_order());
    assert!(
        why.contains("an allowance of 0.0005 WBTC to 0x8fd545b348E84dEb145F0179a00c671F0b9519C3 outlives the call"),
        "{why}"
    );
    // An allowance the person had before, used in part, is theirs: what is left of it is not a surprise.
    let mut before = token_order();
    before.granted = U256::from(300_000u64);
    let mut calls = honest();
    calls.remove(0);
    calls[1] = allowance_left(200_000);
    assert!(assess_calls(&before, &calls, &["order's transaction"], true).is_ok());
}

#[test]
fn native_value_with_a_token_order_is_refused() {
    let mut calls = honest();
    calls[1]
        .logs
        .push(transfer(NATIVE_LOG_ADDRESS, owner(), entry(), 1_000));
    let why = refused(&calls, &token_order());
    assert!(
        why.contains("leaves the wallet with a token order"),
        "{why}"
    );
}

#[test]
fn a_native_order_lets_only_its_value_leave() {
    let expect = CallExpectation {
        token: Address::ZERO,
        amount: U256::from(10u64.pow(16)),
        value: U256::from(10u64.pow(16)),
        granted: U256::ZERO,
        ..token_order()
    };
    let pay = |wei: u64| {
        vec![ok(vec![
            transfer(NATIVE_LOG_ADDRESS, owner(), entry(), wei),
            // What the entry contract forwards is not the wallet's.
            transfer(NATIVE_LOG_ADDRESS, entry(), target(), wei),
        ])]
    };
    let simulation = assess_calls(
        &expect,
        &pay(10u64.pow(16)),
        &["order's transaction"],
        false,
    )
    .unwrap();
    assert!(
        simulation
            .sentence
            .starts_with("−0.01 ETH to 0x8fd545b348E84dEb145F0179a00c671F0b9519C3"),
        "{}",
        simulation.sentence
    );
    let mut more = pay(10u64.pow(16));
    more[0]
        .logs
        .push(transfer(NATIVE_LOG_ADDRESS, owner(), target(), 1));
    assert!(matches!(
        assess_calls(&expect, &more, &["order's transaction"], false),
        Err(Surprise::Leaves(why)) if why.contains("more than the quote's 0.01 ETH")
    ));
}

#[test]
fn an_nft_leaving_is_refused() {
    let mut calls = honest();
    calls[1].logs.push(SimLog {
        address: stranger(),
        topics: vec![
            TRANSFER_TOPIC,
            topic(owner()),
            topic(target()),
            B256::from(U256::from(7u64)),
        ],
        data: Bytes::new(),
    });
    assert!(refused(&calls, &token_order()).contains("the token 7 of the contract"));
}

#[test]
fn a_revert_refuses_and_says_which_step() {
    let mut calls = honest();
    calls[1] = SimCall {
        ok: false,
        error: Some("allowance exceeded".into()),
        output: Bytes::new(),
        logs: vec![],
    };
    assert_eq!(
        assess_calls(&token_order(), &calls, &STEPS, true),
        Err(Surprise::Reverts {
            what: "order's transaction",
            reason: "allowance exceeded".into()
        })
    );
}

#[test]
fn an_allowance_that_cannot_be_read_is_not_a_pass() {
    let mut calls = honest();
    calls[2].ok = false;
    assert!(refused(&calls, &token_order()).contains("could not be read"));
}

// Solana: the wallet's account and its token accounts before and after the node's run.

#[test]
fn a_flood_of_logs_from_the_gateways_contract_is_said_in_bounded_words() {
    // Any contract may emit Transfer events: 10,000 made-up ones entering, then 10,000 leaving to strangers.
    let mut calls = honest();
    calls[1]
        .logs
        .extend((0..10_000).map(|_| transfer(stranger(), target(), owner(), 1)));
    let simulation = assess_calls(&token_order(), &calls, &STEPS, true).unwrap();
    assert_eq!(simulation.moves.len(), MAX_LISTED);
    assert!(
        simulation.sentence.ends_with("; and 9989 more moves."),
        "{}",
        &simulation.sentence[simulation.sentence.len() - 60..]
    );
    assert!(
        simulation.sentence.len() < 4_000,
        "{}",
        simulation.sentence.len()
    );

    let mut calls = honest();
    calls[1]
        .logs
        .extend((0..10_000).map(|_| transfer(stranger(), owner(), stranger(), 1)));
    let why = refused(&calls, &token_order());
    assert!(
        why.ends_with("; and 9988 more"),
        "{}",
        &why[why.len() - 40..]
    );
    assert!(why.len() < 4_000, "{}", why.len());
}
