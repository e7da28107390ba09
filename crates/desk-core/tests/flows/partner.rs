//! The partner view against the embedded Sandbox gateway over loopback, with a temporary data folder: affiliate
//! entries kept in the settings and applied to quotes, and the dashboard's figures checked against the quotes' own
//! numbers after real orders ran to their ends.

use std::collections::BTreeMap;
use std::time::Duration;

use desk_core::api::RouteKind;
use desk_core::desk::SwapForm;
use desk_core::error::ErrorKind;
use desk_core::partner::{Dashboard, DashboardQuery, Period};
use desk_core::settings::AffiliateEntry;
use desk_core::views::{OrderView, QuoteCard};
use desk_core::{AppPaths, Desk, DeskError};
use gateway_client::ApiVersion;
use gateway_client::wire::{NATIVE_TOKEN, RegisterTx};
use gateway_sim::payload::testkit::TestWallet;

use crate::common;

use common::{EVM, OWNER, USDT_BOB, USDT_ETH, WBTC_BOB, advance, card, open, psbt};

/// A regtest address: the Sandbox is regtest.
const BTC_ADDRESS: &str = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";
/// The partner's addresses: two on the list (EVM, Tron), one for token swaps.
const PARTNER_EVM: &str = "0x1111111111111111111111111111111111111111";
const PARTNER_TRON: &str = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7";
const PARTNER_SWAP: &str = "0x2222222222222222222222222222222222222222";
/// An address someone else makes an order for, watched by the app.
const WATCHED: &str = "0x3333333333333333333333333333333333333333";

fn entry(address: &str, bps: u32) -> AffiliateEntry {
    AffiliateEntry {
        address: address.into(),
        bps,
    }
}

fn form(src: (&str, &str), dst: (&str, &str), amount: &str, recipient: &str) -> SwapForm {
    SwapForm {
        src_chain: src.0.into(),
        src_token: src.1.into(),
        dst_chain: dst.0.into(),
        dst_token: dst.1.into(),
        amount: amount.into(),
        slippage_bps: 300,
        recipient: recipient.into(),
        sender: None,
        owner: None,
        refund: None,
    }
}

fn onramp_form(amount: &str, wallet: &TestWallet) -> SwapForm {
    SwapForm {
        amount: amount.into(),
        ..common::onramp_form(Some(wallet.address(bitcoin::Network::Regtest)))
    }
}

fn offramp_form(amount: &str) -> SwapForm {
    SwapForm {
        sender: Some(EVM.into()),
        owner: None,
        ..form(
            ("bob", WBTC_BOB),
            ("bitcoin", NATIVE_TOKEN),
            amount,
            BTC_ADDRESS,
        )
    }
}

fn swap_form(amount: &str) -> SwapForm {
    SwapForm {
        slippage_bps: 100,
        owner: None,
        // Paid from `OWNER` on BOB, where API V4 (the default) sends a refund back.
        sender: Some(OWNER.into()),
        ..form(("bob", USDT_BOB), ("ethereum", USDT_ETH), amount, EVM)
    }
}

/// A USD value in micro-dollars, read here independently of the crate's reader.
fn micro(usd: &str) -> u128 {
    let (int, frac) = usd.split_once('.').unwrap_or((usd, ""));
    assert!(frac.len() <= 6, "{usd}");
    int.parse::<u128>().unwrap() * 1_000_000 + format!("{frac:0<6}").parse::<u128>().unwrap()
}

fn cents(micro: u128) -> String {
    format!("{}.{:02}", micro / 1_000_000, micro % 1_000_000 / 10_000)
}

/// One order made through the desk: its quote card and the order as started.
struct Made {
    card: QuoteCard,
    order: OrderView,
}

async fn start(desk: &Desk, form: &SwapForm) -> Made {
    let card = card(desk, form).await;
    let order = desk.start_order(card.raw.clone(), None).await.unwrap();
    assert_eq!(
        order.stage,
        Some(desk_core::journal::Stage::Verified),
        "{order:?}"
    );
    Made { card, order }
}

/// Starts an onramp and hands in the PSBT signed by `wallet`.
async fn onramp(desk: &Desk, amount: &str, wallet: &TestWallet) -> Made {
    let made = start(desk, &onramp_form(amount, wallet)).await;
    let signed = wallet.sign_psbt(&psbt(&made.order)).unwrap();
    let order = desk
        .hand_in(made.order.local_id.unwrap(), &signed)
        .await
        .unwrap();
    Made { order, ..made }
}

/// Starts an offramp or token swap and hands in source transaction hash number `n`.
async fn from_evm(desk: &Desk, form: &SwapForm, n: u64) -> Made {
    let made = start(desk, form).await;
    let order = desk
        .hand_in(made.order.local_id.unwrap(), &format!("0x{n:064x}"))
        .await
        .unwrap();
    Made { order, ..made }
}

/// Until every order in `ends` (by order id) has that status, reading the gateway again and again.
async fn wait_for(desk: &Desk, ends: &BTreeMap<String, &str>) {
    tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            desk.refresh_now().await;
            let orders = desk.orders().await.unwrap();
            let reached = ends.iter().all(|(id, status)| {
                orders
                    .iter()
                    .any(|o| o.order_id.as_ref() == Some(id) && o.status.as_deref() == Some(status))
            });
            if reached {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("the orders did not reach {ends:?}"));
}

fn field(error: &DeskError) -> serde_json::Value {
    error.details_json().unwrap_or_default()
}

#[tokio::test]
async fn affiliates_are_checked_kept_per_network_and_refused_beyond_the_gateways_limits() {
    let home = tempfile::tempdir().unwrap();
    let paths = AppPaths::under(home.path());
    let desk = open(home.path()).await;

    let six: Vec<AffiliateEntry> = (1..=6u8)
        .map(|i| entry(&format!("0x{}", format!("{i:02x}").repeat(20)), 10))
        .collect();
    let refusals = [
        (
            six,
            None,
            serde_json::json!({"field": "affiliates", "index": 5}),
        ),
        (
            vec![entry(PARTNER_EVM, 1000), entry(PARTNER_TRON, 1)],
            None,
            serde_json::json!({"field": "affiliates", "index": 1}),
        ),
        (
            vec![
                entry(PARTNER_EVM, 10),
                entry(&PARTNER_EVM.to_uppercase().replace("0X", "0x"), 10),
            ],
            None,
            serde_json::json!({"field": "affiliates", "index": 1}),
        ),
        (
            vec![entry(PARTNER_EVM, 10), entry("0xnot-an-address", 10)],
            None,
            serde_json::json!({"field": "affiliates", "index": 1}),
        ),
        (
            vec![entry(BTC_ADDRESS, 10)],
            None,
            serde_json::json!({"field": "affiliates", "index": 0}),
        ),
        (
            vec![],
            Some(entry(PARTNER_SWAP, 1001)),
            serde_json::json!({"field": "tokenSwapAffiliate"}),
        ),
    ];
    for (list, swap, details) in refusals {
        let error = desk.set_affiliates(list.clone(), swap).await.unwrap_err();
        assert_eq!(error.kind, ErrorKind::InvalidInput, "{list:?}");
        assert_eq!(field(&error), details, "{}", error.message);
        assert!(error.message.ends_with('.'), "{}", error.message);
    }
    assert!(
        !paths.settings_file().exists(),
        "nothing was saved for a refusal"
    );
    let view = desk.settings().await;
    assert!(view.affiliates.is_empty() && view.token_swap_affiliate.is_none());

    let view = desk
        .set_affiliates(
            vec![entry(&EVM.to_lowercase(), 600), entry(PARTNER_TRON, 400)],
            Some(entry(PARTNER_SWAP, 1000)),
        )
        .await
        .unwrap();
    assert_eq!(
        view.affiliates,
        vec![entry(EVM, 600), entry(PARTNER_TRON, 400)],
        "kept in canonical form, 1000 bps in all is allowed"
    );
    assert_eq!(view.token_swap_affiliate, Some(entry(PARTNER_SWAP, 1000)));
    desk.shutdown().await;
    drop(desk);

    let desk = open(home.path()).await;
    let view = desk.settings().await;
    assert_eq!(view.affiliates.len(), 2, "kept across a restart");
    // Another network (a second local gateway as a custom URL) has its own entries.
    let other = gateway_sim::Sim::new()
        .spawn(std::net::SocketAddr::from((
            std::net::Ipv4Addr::LOCALHOST,
            0,
        )))
        .await
        .unwrap();
    let view = desk
        .select_network(desk_core::api::NetworkChoice {
            kind: desk_core::settings::NetworkKind::Custom,
            custom_url: Some(other.base_url()),
        })
        .await
        .unwrap();
    assert!(
        view.affiliates.is_empty() && view.token_swap_affiliate.is_none(),
        "per network"
    );
    desk.shutdown().await;
}

#[tokio::test]
async fn every_quote_carries_the_entries_its_route_and_version_take() {
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let wallet = TestWallet::from_seed([3; 32]);
    let list = vec![entry(PARTNER_EVM, 50), entry(PARTNER_TRON, 25)];
    desk.set_affiliates(list.clone(), Some(entry(PARTNER_SWAP, 30)))
        .await
        .unwrap();

    let on = card(&desk, &onramp_form("0.001", &wallet)).await;
    assert_eq!(on.affiliates_requested, list);
    assert_eq!(on.affiliate_note, None);
    let resolved: Vec<(&str, &str)> = on
        .affiliates
        .iter()
        .map(|a| {
            let fee = a.fee.as_ref().unwrap();
            (a.address.as_str(), fee.amount.as_str())
        })
        .collect();
    assert_eq!(
        resolved,
        [(PARTNER_EVM, "500"), (PARTNER_TRON, "250")],
        "the gateway resolved each entry's fee: bps of 100000 sats"
    );
    let swap = card(&desk, &swap_form("20")).await;
    assert_eq!(swap.affiliates_requested, vec![entry(PARTNER_SWAP, 30)]);
    assert_eq!(
        (swap.affiliates[0].address.as_str(), swap.affiliates[0].bps),
        (PARTNER_SWAP, Some(30))
    );

    desk.set_api_version(ApiVersion::V2).await.unwrap();
    let v2_swap = card(
        &desk,
        &SwapForm {
            owner: None,
            ..swap_form("20")
        },
    )
    .await;
    assert!(v2_swap.affiliates_requested.is_empty());
    assert!(
        v2_swap.affiliates.is_empty(),
        "the quote carries no affiliate"
    );
    let note = v2_swap.affiliate_note.expect("a note saying why");
    assert!(
        note.contains("V2 token swaps take no affiliate fee"),
        "{note}"
    );
    let v2_on = card(
        &desk,
        &SwapForm {
            owner: None,
            ..onramp_form("0.001", &wallet)
        },
    )
    .await;
    assert_eq!(v2_on.affiliates_requested, list);
    assert_eq!(v2_on.affiliates.len(), 2);

    desk.set_api_version(ApiVersion::V1).await.unwrap();
    let v1 = card(
        &desk,
        &SwapForm {
            owner: None,
            ..onramp_form("0.001", &wallet)
        },
    )
    .await;
    assert!(v1.affiliates_requested.is_empty() && v1.affiliates.is_empty());
    assert!(v1.affiliate_note.unwrap().contains("V1"));
    desk.shutdown().await;
}

#[tokio::test]
async fn the_dashboard_adds_up_sandbox_orders_as_their_quotes_say() {
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    // Offramps and swaps are paid by made-up hashes (no chain runs here), which only V3's register-tx takes: V4
    // finds a payment on its chain. (Switching restarts the Sandbox: its address is read after.)
    desk.set_api_version(ApiVersion::V3).await.unwrap();
    let base = desk.settings().await.network.base_url;
    let list = vec![entry(PARTNER_EVM, 50), entry(PARTNER_TRON, 25)];
    desk.set_affiliates(list.clone(), Some(entry(PARTNER_SWAP, 30)))
        .await
        .unwrap();
    desk.watch_address(WATCHED).await.unwrap();
    let wallet = TestWallet::from_seed([5; 32]);

    // The Sandbox ends an order by the amount's last three digits: …404 fails, …808 is refunded.
    let on_ok = onramp(&desk, "0.0025", &wallet).await;
    let on_failed = onramp(&desk, "0.00100404", &wallet).await;
    // V3's offramp names its owner.
    let v3_offramp = |amount| SwapForm {
        owner: Some(EVM.into()),
        ..offramp_form(amount)
    };
    let off_ok = from_evm(&desk, &v3_offramp("0.001"), 1).await;
    let swap_ok = from_evm(&desk, &swap_form("50"), 2).await;
    let swap_refunded = from_evm(&desk, &swap_form("25.000808"), 3).await;
    // Started but never paid: the gateway waits for the transaction.
    let unpaid = start(&desk, &v3_offramp("0.0015")).await;
    for made in [&on_ok, &on_failed, &off_ok, &swap_ok, &swap_refunded] {
        assert!(!made.card.affiliates.is_empty(), "{:?}", made.card.route);
    }

    // Someone else's token swap for the watched address, made and paid directly on the gateway.
    let client = common::client(&base, ApiVersion::V3);
    let mut request = gateway_client::QuoteRequest::new(
        ("bob", USDT_BOB),
        ("ethereum", USDT_ETH),
        "40000000",
        WATCHED,
    );
    request.slippage_bps = 100;
    request.owner_address = Some(WATCHED.into());
    let quote = client.get_quote(&request).await.unwrap().value;
    let watched_usd = quote.view().input_amount().usd.clone().unwrap();
    let watched_id = client
        .create_order(&quote)
        .await
        .unwrap()
        .value
        .order_id()
        .to_owned();
    client
        .register_tx(&RegisterTx::token_swap(
            &watched_id,
            format!("0x{:064x}", 99),
            "bob",
        ))
        .await
        .unwrap();

    // Onramps end 600 s after registration (a failure at half that), offramps 1800 s, token swaps 120 s.
    advance(&base, 1900).await;
    let id = |m: &Made| m.order.order_id.clone().unwrap();
    let ends: BTreeMap<String, &str> = [
        (id(&on_ok), "success"),
        (id(&on_failed), "failed"),
        (id(&off_ok), "success"),
        (id(&swap_ok), "success"),
        (id(&swap_refunded), "refunded"),
        (watched_id.clone(), "success"),
    ]
    .into_iter()
    .collect();
    wait_for(&desk, &ends).await;

    // The expected figures, from the quote cards alone.
    let usd_of = |m: &Made| micro(m.card.send.usd.as_deref().unwrap());
    let fees_of = |m: &Made| -> u128 {
        m.card
            .affiliates
            .iter()
            .map(|a| micro(a.fee.as_ref().unwrap().usd.as_deref().unwrap()))
            .sum()
    };
    let completed = [&on_ok, &off_ok, &swap_ok];
    let volume: u128 = completed.iter().map(|m| usd_of(m)).sum::<u128>() + micro(&watched_usd);
    let exact = fees_of(&on_ok) + fees_of(&off_ok);
    assert!(exact > 0);
    let swap_estimate = usd_of(&swap_ok) * 30 / 10_000;
    let watched_estimate = micro(&watched_usd) * 30 / 10_000;

    let query = |period, route| DashboardQuery { period, route };
    let d: Dashboard = desk.dashboard(&query(Period::Day, None)).await.unwrap();
    assert_eq!(
        d.orders, 7,
        "six of the app's own, one of the watched address"
    );
    let statuses: BTreeMap<&str, u64> = d
        .by_status
        .iter()
        .map(|s| (s.status.as_str(), s.count))
        .collect();
    assert_eq!(
        statuses,
        BTreeMap::from([
            ("failed", 1),
            ("refunded", 1),
            ("success", 4),
            ("verified", 1)
        ]),
        "{:?}",
        d.by_status
    );
    assert_eq!(d.completed, 4);
    assert_eq!(d.completed_without_usd, 0);
    assert_eq!(d.volume_usd, cents(volume));
    assert_eq!(d.earnings_exact_usd, cents(exact));
    assert_eq!(
        d.earnings_estimated_usd,
        cents(swap_estimate + watched_estimate)
    );

    let token = |chain: &str, symbol: &str| {
        d.by_token
            .iter()
            .find(|t| t.token.chain == chain && t.token.symbol.as_deref() == Some(symbol))
            .unwrap_or_else(|| panic!("{chain} {symbol} in {:?}", d.by_token))
    };
    let btc = token("bitcoin", "BTC");
    assert_eq!(
        (btc.amount.as_str(), btc.text.as_str(), btc.orders),
        ("250000", "0.0025 BTC", 1),
        "the failed onramp is not volume"
    );
    assert_eq!(btc.usd.as_deref(), on_ok.card.send.usd.as_deref());
    let wbtc = token("bob", "WBTC");
    assert_eq!(wbtc.amount, off_ok.card.send.amount);
    let usdt = token("bob", "USDT");
    let swapped = swap_ok.card.send.amount.parse::<u128>().unwrap() + 40_000_000;
    assert_eq!((usdt.amount.clone(), usdt.orders), (swapped.to_string(), 2));

    let routes: Vec<(RouteKind, u64, u64, String, String, String)> = d
        .by_route
        .iter()
        .map(|r| {
            (
                r.route,
                r.orders,
                r.completed,
                r.volume_usd.clone(),
                r.earnings_exact_usd.clone(),
                r.earnings_estimated_usd.clone(),
            )
        })
        .collect();
    assert_eq!(
        routes,
        [
            (
                RouteKind::Onramp,
                2,
                1,
                cents(usd_of(&on_ok)),
                cents(fees_of(&on_ok)),
                "0.00".into()
            ),
            (
                RouteKind::Offramp,
                2,
                1,
                cents(usd_of(&off_ok)),
                cents(fees_of(&off_ok)),
                "0.00".into()
            ),
            (
                RouteKind::TokenSwap,
                3,
                2,
                cents(usd_of(&swap_ok) + micro(&watched_usd)),
                "0.00".into(),
                cents(swap_estimate + watched_estimate)
            ),
        ]
    );
    // The table holds every order once; the orders were made within a second, so (unless that second straddled
    // midnight UTC) in one bucket: one row per route and one bar.
    assert_eq!(d.rows.iter().map(|r| r.orders).sum::<u64>(), 7);
    assert_eq!(d.rows.iter().map(|r| r.completed).sum::<u64>(), 4);
    let buckets: std::collections::BTreeSet<&str> =
        d.rows.iter().map(|r| r.bucket.as_str()).collect();
    assert_eq!(
        buckets.first().copied(),
        d.chart.first().map(|b| b.bucket.as_str())
    );
    if buckets.len() == 1 {
        assert_eq!(d.rows.len(), 3);
        assert_eq!(d.chart.len(), 1);
        assert_eq!(d.chart[0].volume_usd, d.volume_usd);
        assert_eq!(d.chart[0].earnings_exact_usd, d.earnings_exact_usd);
    }
    assert!(
        d.basis.iter().any(|b| b.contains("6 of the app's own")),
        "{:?}",
        d.basis
    );

    for period in [Period::Week, Period::Month] {
        let other = desk.dashboard(&query(period, None)).await.unwrap();
        assert_eq!(
            (
                other.volume_usd.as_str(),
                other.earnings_exact_usd.as_str(),
                other.earnings_estimated_usd.as_str(),
            ),
            (
                d.volume_usd.as_str(),
                d.earnings_exact_usd.as_str(),
                d.earnings_estimated_usd.as_str(),
            )
        );
        assert!((3..=d.rows.len()).contains(&other.rows.len()), "{period:?}");
    }
    let week = desk.dashboard(&query(Period::Week, None)).await.unwrap();
    assert!(
        week.rows[0].bucket.contains("-W"),
        "{}",
        week.rows[0].bucket
    );

    let swaps = desk
        .dashboard(&query(Period::Day, Some(RouteKind::TokenSwap)))
        .await
        .unwrap();
    assert_eq!((swaps.orders, swaps.completed), (3, 2));
    assert_eq!(swaps.earnings_exact_usd, "0.00");
    assert_eq!(swaps.by_route.len(), 1);

    // The CSV: one row per order behind the dashboard, the same figures.
    let text = desk.dashboard_csv(&query(Period::Day, None)).await.unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 7);
    let row = |id: &str| {
        rows.iter()
            .find(|r| &r[col("order_id")] == id)
            .unwrap_or_else(|| panic!("{id} in the CSV"))
    };
    let on_row = row(&id(&on_ok));
    assert_eq!(&on_row[col("earnings_kind")], "exact");
    assert_eq!(micro(&on_row[col("earnings_usd")]), fees_of(&on_ok));
    assert_eq!(&on_row[col("source_amount")], "250000");
    assert_eq!(&on_row[col("source_text")], "0.0025 BTC");
    assert_eq!(&on_row[col("route")], "onramp");
    let swap_row = row(&id(&swap_ok));
    assert_eq!(&swap_row[col("earnings_kind")], "estimated");
    assert_eq!(micro(&swap_row[col("earnings_usd")]), swap_estimate);
    let watched_row = row(&watched_id);
    assert_eq!(&watched_row[col("known_from")], "watched");
    assert_eq!(&watched_row[col("earnings_kind")], "estimated");
    assert_eq!(&row(&id(&on_failed))[col("earnings_kind")], "none");
    assert_eq!(&row(&id(&unpaid))[col("status")], "verified");
    let listed: u128 = rows
        .iter()
        .filter(|r| !r[col("earnings_usd")].is_empty())
        .map(|r| micro(&r[col("earnings_usd")]))
        .sum();
    assert_eq!(
        listed,
        exact + swap_estimate + watched_estimate,
        "the column adds up exactly"
    );
    desk.shutdown().await;
}
