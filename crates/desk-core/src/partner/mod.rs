//! Partner: affiliate entries applied to quotes, and the dashboard of volume and affiliate earnings.
//!
//! The entries are kept per network in the settings ([`AffiliateEntry`]): a list for onramps and offramps (at most
//! [`MAX_AFFILIATES`], at most [`MAX_TOTAL_BPS`] in total, no address twice) and one entry for V3 token swaps.
//! [`affiliates_for`] decides what a quote request carries; [`Desk::quote`] shows it on the card.
//!
//! Rooms: [`affiliates`] (the entries and the rates), [`facts`] (one order's facts, the cache), [`buckets`] (the
//! calendar's buckets), [`types`] (what the window gets), [`dashboard`] (building it), [`csv_export`] (the export),
//! [`error`] (what is refused). The `Desk`'s partner methods, and the window's form of [`PartnerError`], are in
//! `crate::desk`.

pub mod affiliates;
pub mod buckets;
pub mod csv_export;
pub mod dashboard;
pub mod error;
pub mod facts;
pub mod types;

pub use affiliates::*;
pub use buckets::*;
pub use csv_export::*;
pub use dashboard::*;
pub use error::*;
pub use facts::*;
pub use types::*;

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use gateway_client::ApiVersion;
    use gateway_client::address::BitcoinNetwork;
    use gateway_client::wire::{NATIVE_TOKEN, OrderInfo, QuoteView};
    use serde_json::{Value, json};

    use super::*;
    use crate::api::RouteKind;
    use crate::calendar::{DAY_SECS, days_from_civil, utc_text};
    use crate::error::{DeskError, ErrorKind};
    use crate::journal::{JournalOrder, Stage};
    use crate::settings::{AffiliateEntry, NetworkKind, Settings};
    use crate::views::OrderView;

    const EVM: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    const EVM_2: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
    const TRON: &str = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7";
    const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
    const USDT_BOB: &str = "0x05D032ac25d322df992303dCa074EE7392C117b9";
    const USDT_ETH: &str = "0xdac17f958d2ee523a2206206994597c13d831ec7";
    const BTC_ADDRESS: &str = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";
    /// 2026-11-21T14:03:05Z.
    const NOV_21: i64 = 1_795_269_785;

    fn entry(address: &str, bps: u32) -> AffiliateEntry {
        AffiliateEntry {
            address: address.into(),
            bps,
        }
    }

    /// A quote exactly as the Sandbox gateway computes it.
    fn sim_quote(version: ApiVersion, pairs: &[(&str, &str)]) -> Value {
        let params: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        gateway_sim::quote::get_quote(
            &gateway_sim::Catalogue::default(),
            &gateway_sim::QuoteSigner::from_key([7; 32]),
            version,
            BitcoinNetwork::Mainnet,
            &params,
            1_700_000_000,
        )
        .unwrap_or_else(|e| panic!("{pairs:?}: {}", e.body()))
    }

    fn onramp(amount: &str, affiliates: &str) -> Value {
        sim_quote(
            ApiVersion::V3,
            &[
                ("srcChain", "bitcoin"),
                ("srcToken", NATIVE_TOKEN),
                ("dstChain", "bob"),
                ("dstToken", WBTC_BOB),
                ("amount", amount),
                ("recipient", EVM),
                ("slippage", "300"),
                ("affiliates", affiliates),
            ],
        )
    }

    fn offramp(amount: &str, affiliates: &str) -> Value {
        sim_quote(
            ApiVersion::V3,
            &[
                ("srcChain", "bob"),
                ("srcToken", WBTC_BOB),
                ("dstChain", "bitcoin"),
                ("dstToken", NATIVE_TOKEN),
                ("amount", amount),
                ("recipient", BTC_ADDRESS),
                ("ownerAddress", EVM),
                ("slippage", "300"),
                ("affiliates", affiliates),
            ],
        )
    }

    fn swap(version: ApiVersion, amount: &str, affiliates: &str) -> Value {
        sim_quote(
            version,
            &[
                ("srcChain", "bob"),
                ("srcToken", USDT_BOB),
                ("dstChain", "ethereum"),
                ("dstToken", USDT_ETH),
                ("amount", amount),
                ("recipient", EVM),
                ("slippage", "100"),
                ("affiliates", affiliates),
            ],
        )
    }

    fn order(id: i64, quote: Value, label: Option<&str>, stage: Stage, at: i64) -> JournalOrder {
        let route = QuoteView::from_value(&quote).unwrap().route();
        JournalOrder {
            local_id: id,
            network: "sandbox".into(),
            api_version: ApiVersion::V3,
            route,
            order_id: (stage != Stage::Quoted).then(|| format!("order-{id}")),
            stage,
            addresses: vec![EVM.into()],
            quote,
            created: None,
            verified: None,
            handed_in: None,
            registration: None,
            status: None,
            status_label: label.map(str::to_owned),
            last_error: None,
            created_at: at,
            updated_at: at,
            wallet_txs: Vec::new(),
        }
    }

    fn done(id: i64, quote: Value, at: i64) -> JournalOrder {
        order(id, quote, Some("success"), Stage::Finished, at)
    }

    fn usd(text: &str) -> u128 {
        parse_usd(text).unwrap()
    }

    fn day() -> DashboardQuery {
        DashboardQuery::default()
    }

    #[test]
    fn affiliate_entries_are_checked_against_the_gateways_limits() {
        let (list, swap) = validate_affiliates(
            &[
                entry(&EVM.to_lowercase(), 50),
                entry(&format!(" {TRON} "), 25),
            ],
            Some(&entry(&EVM_2.to_uppercase().replace("0X", "0x"), 30)),
        )
        .unwrap();
        assert_eq!(
            list,
            vec![entry(EVM, 50), entry(TRON, 25)],
            "canonical forms"
        );
        assert_eq!(swap, Some(entry(EVM_2, 30)));
        assert_eq!(validate_affiliates(&[], None).unwrap(), (vec![], None));

        let index = |e: PartnerError| {
            let e = DeskError::from(e);
            assert_eq!(e.kind, ErrorKind::InvalidInput);
            assert!(e.message.ends_with('.'), "{}", e.message);
            let details = e.details_json().unwrap();
            assert_eq!(details["field"], "affiliates", "{details}");
            (details["index"].as_u64().unwrap(), e.message)
        };
        let six: Vec<AffiliateEntry> = (1..=6u8)
            .map(|i| entry(&format!("0x{}", format!("{i:02x}").repeat(20)), 10))
            .collect();
        let (i, message) = index(validate_affiliates(&six, None).unwrap_err());
        assert_eq!(i, 5);
        assert!(message.contains("at most 5"), "{message}");
        assert!(validate_affiliates(&six[..5], None).is_ok());

        let (i, message) =
            index(validate_affiliates(&[entry(EVM, 600), entry(TRON, 401)], None).unwrap_err());
        assert_eq!(i, 1);
        assert!(message.contains("1001 bps"), "{message}");
        assert!(validate_affiliates(&[entry(EVM, 600), entry(TRON, 400)], None).is_ok());

        let (i, message) = index(
            validate_affiliates(
                &[
                    entry(EVM, 10),
                    entry(TRON, 10),
                    entry(&EVM.to_lowercase(), 5),
                ],
                None,
            )
            .unwrap_err(),
        );
        assert_eq!(i, 2, "an EVM address is the same without case");
        assert!(message.contains("entry 1"), "{message}");

        let (i, _) =
            index(validate_affiliates(&[entry(EVM, 10), entry(BTC_ADDRESS, 5)], None).unwrap_err());
        assert_eq!(i, 1, "a Bitcoin address cannot be paid an affiliate fee");
        let (i, _) = index(validate_affiliates(&[entry("0x1234", 5)], None).unwrap_err());
        assert_eq!(i, 0);
        let (i, message) = index(validate_affiliates(&[entry(EVM, 0)], None).unwrap_err());
        assert_eq!(i, 0);
        assert!(message.contains("0 bps"), "{message}");

        for bad in [entry(EVM, 1001), entry(EVM, 0), entry("nonsense", 10)] {
            let e = DeskError::from(validate_affiliates(&[], Some(&bad)).unwrap_err());
            assert_eq!(
                e.details_json().as_ref(),
                Some(&json!({"field": "tokenSwapAffiliate"})),
                "{bad:?}"
            );
        }
        assert!(validate_affiliates(&[], Some(&entry(EVM, 1000))).is_ok());
    }

    #[test]
    fn quotes_carry_the_entries_their_route_and_version_take() {
        let mut settings = Settings::default();
        let kind = NetworkKind::Sandbox;
        let for_ = |s: &Settings, v, src, dst| affiliates_for(s, kind, v, src, dst);
        assert_eq!(
            for_(&settings, ApiVersion::V1, "bitcoin", "bob"),
            AppliedAffiliates::default(),
            "nothing configured: nothing to say"
        );
        settings.prefs_mut(kind).affiliates = vec![entry(EVM, 50), entry(TRON, 25)];
        let onramp = for_(&settings, ApiVersion::V3, "bitcoin", "bob");
        assert_eq!(onramp.entries.len(), 2);
        assert_eq!(onramp.note, None);
        assert_eq!(
            for_(&settings, ApiVersion::V2, "bob", "bitcoin")
                .entries
                .len(),
            2
        );

        let v1 = for_(&settings, ApiVersion::V1, "bitcoin", "bob");
        assert!(v1.entries.is_empty());
        assert!(v1.note.unwrap().contains("V1"));

        let swap = for_(&settings, ApiVersion::V3, "bob", "ethereum");
        assert!(swap.entries.is_empty());
        assert!(swap.note.unwrap().contains("none is set"));

        settings.prefs_mut(kind).token_swap_affiliate = Some(entry(EVM_2, 30));
        let swap = for_(&settings, ApiVersion::V3, "bob", "ethereum");
        assert_eq!((swap.entries, swap.note), (vec![entry(EVM_2, 30)], None));
        let v2 = for_(&settings, ApiVersion::V2, "bob", "ethereum");
        assert!(v2.entries.is_empty());
        assert!(
            v2.note
                .unwrap()
                .contains("V2 token swaps take no affiliate fee")
        );
        let from_tron = for_(&settings, ApiVersion::V3, "tron", "bob");
        assert!(from_tron.entries.is_empty());
        assert!(from_tron.note.unwrap().contains("not an address of tron"));

        let rates = AffiliateRates::of(&settings, kind, ApiVersion::V3);
        assert_eq!(rates.for_route(RouteKind::Onramp), Some(75));
        assert_eq!(rates.for_route(RouteKind::TokenSwap), Some(30));
        let v2 = AffiliateRates::of(&settings, kind, ApiVersion::V2);
        assert_eq!((v2.list_bps, v2.token_swap_bps), (Some(75), None));
        assert_eq!(
            AffiliateRates::of(&settings, kind, ApiVersion::V1),
            AffiliateRates::default()
        );
    }

    #[test]
    fn buckets_follow_the_calendar_in_utc_with_iso_weeks() {
        let at = |y, m, d, secs: i64| days_from_civil(y, m, d) * DAY_SECS + secs;
        let label = |p, t| bucket_label(p, bucket_start(p, t));
        let last_second = at(2026, 12, 31, DAY_SECS - 1);
        assert_eq!(last_second, 1_798_761_599);
        assert_eq!(label(Period::Day, last_second), "2026-12-31");
        assert_eq!(label(Period::Week, last_second), "2026-W53");
        assert_eq!(label(Period::Month, last_second), "2026-12");
        let new_year = last_second + 1;
        assert_eq!(label(Period::Day, new_year), "2027-01-01");
        assert_eq!(
            label(Period::Week, new_year),
            "2026-W53",
            "Friday of 2026's last week"
        );
        assert_eq!(label(Period::Month, new_year), "2027-01");
        assert_eq!(label(Period::Week, at(2027, 1, 3, 86_399)), "2026-W53");
        assert_eq!(label(Period::Week, at(2027, 1, 4, 0)), "2027-W01");
        assert_eq!(label(Period::Week, at(2024, 12, 30, 0)), "2025-W01");
        assert_eq!(label(Period::Week, at(2021, 1, 3, 0)), "2020-W53");
        assert_eq!(label(Period::Week, NOV_21), "2026-W47");
        assert_eq!(
            bucket_start(Period::Week, new_year),
            at(2026, 12, 28, 0),
            "weeks start on Monday 00:00 UTC"
        );
        assert_eq!(label(Period::Month, at(2026, 1, 31, 86_399)), "2026-01");
        assert_eq!(label(Period::Month, at(2026, 2, 1, 0)), "2026-02");
        assert_eq!(label(Period::Month, at(2024, 2, 29, 100)), "2024-02");
        assert_eq!(
            next_bucket(Period::Month, at(2026, 12, 1, 0)),
            at(2027, 1, 1, 0)
        );
        assert_eq!(
            next_bucket(Period::Week, at(2026, 12, 28, 0)),
            at(2027, 1, 4, 0)
        );
        assert_eq!(utc_text(NOV_21), "2026-11-21T14:03:05Z");
    }

    #[test]
    fn sums_are_exact_and_exact_earnings_are_kept_apart_from_estimates() {
        let onramp_1 = onramp("100000", &format!("{EVM}:50,{TRON}:25"));
        let onramp_2 = onramp("250000", &format!("{EVM}:50,{TRON}:25"));
        let off = offramp("100000", &format!("{EVM}:100"));
        let swap_1 = swap(ApiVersion::V3, "50000000", &format!("{EVM}:30"));
        let small = swap(ApiVersion::V3, "33330000", &format!("{EVM}:2"));
        // The quotes' own figures.
        assert_eq!(onramp_1["onramp"]["affiliates"][0]["fee"]["usd"], "0.50");
        assert_eq!(onramp_1["onramp"]["affiliates"][1]["fee"]["usd"], "0.25");
        assert_eq!(onramp_2["onramp"]["inputAmount"]["usd"], "250.00");
        assert_eq!(onramp_2["onramp"]["affiliates"][1]["fee"]["usd"], "0.62");
        assert_eq!(off["offramp"]["affiliates"][0]["fee"]["usd"], "1.00");
        assert_eq!(swap_1["tokenSwap"]["affiliate"]["bps"], 30);
        assert_eq!(small["tokenSwap"]["inputAmount"]["usd"], "33.33");

        let journal = [
            done(1, onramp_1.clone(), NOV_21),
            done(2, onramp_2, NOV_21 + 60),
            done(3, off, NOV_21 + 120),
            done(4, swap_1, NOV_21 + 180),
            done(5, small.clone(), NOV_21 + 240),
            done(6, small.clone(), NOV_21 + 300),
            done(7, small.clone(), NOV_21 + 360),
            order(
                8,
                onramp("100404", ""),
                Some("failed"),
                Stage::Finished,
                NOV_21,
            ),
            order(
                9,
                onramp_1.clone(),
                Some("inProgress"),
                Stage::Verified,
                NOV_21,
            ),
            order(
                10,
                onramp_1.clone(),
                Some("inProgress"),
                Stage::Registered,
                NOV_21,
            ),
            order(11, onramp_1.clone(), None, Stage::Quoted, NOV_21),
            done(12, onramp("300000", ""), NOV_21),
        ];
        let facts: Vec<OrderFacts> = journal.iter().filter_map(facts_from_journal).collect();
        assert_eq!(facts.len(), 11, "the quote never sent is not an order");
        assert_eq!(facts[0].earnings, Earnings::Exact(usd("0.75")));
        assert_eq!(facts[3].earnings, Earnings::Estimated(usd("0.15")));
        assert_eq!(facts[4].earnings, Earnings::Estimated(6_666));
        assert_eq!(
            facts[8].status, "verified",
            "the gateway waits for the signature"
        );
        assert_eq!(facts[9].status, "inProgress");
        assert_eq!(
            facts[10].earnings,
            Earnings::None,
            "no affiliate on the quote"
        );

        let d = build(&facts, &day());
        assert_eq!((d.orders, d.completed, d.completed_without_usd), (11, 8, 0));
        let status: Vec<(&str, u64)> = d
            .by_status
            .iter()
            .map(|s| (s.status.as_str(), s.count))
            .collect();
        assert_eq!(
            status,
            [
                ("inProgress", 1),
                ("success", 8),
                ("failed", 1),
                ("verified", 1)
            ]
        );
        assert_eq!(d.by_status[1].text, "Completed");
        // 100 + 250 + 100 + 50 + 3 × 33.33 + 300.
        assert_eq!(d.volume_usd, "899.99");
        // 0.50 + 0.25 (100000 sats), 1.25 + 0.62 (250000 sats: 625 sats are $0.625, written "0.62"), 1.00.
        assert_eq!(d.earnings_exact_usd, "3.62");
        // 0.15 + 3 × 0.006666 = 0.169998: three sub-cent estimates still add up to a cent.
        assert_eq!(d.earnings_estimated_usd, "0.16");
        let btc = d
            .by_token
            .iter()
            .find(|t| t.token.chain == "bitcoin")
            .unwrap();
        assert_eq!(
            (
                btc.amount.as_str(),
                btc.text.as_str(),
                btc.usd.as_deref(),
                btc.orders
            ),
            ("650000", "0.0065 BTC", Some("650.00"), 3)
        );
        let usdt = d
            .by_token
            .iter()
            .find(|t| t.token.symbol.as_deref() == Some("USDT"))
            .unwrap();
        assert_eq!((usdt.amount.as_str(), usdt.orders), ("149990000", 4));
        assert_eq!(
            d.by_token[0].token.chain, "bitcoin",
            "largest USD volume first"
        );
        let routes: Vec<(RouteKind, u64, &str, &str)> = d
            .by_route
            .iter()
            .map(|r| {
                (
                    r.route,
                    r.orders,
                    r.earnings_exact_usd.as_str(),
                    r.earnings_estimated_usd.as_str(),
                )
            })
            .collect();
        assert_eq!(
            routes,
            [
                (RouteKind::Onramp, 6, "2.62", "0.00"),
                (RouteKind::Offramp, 1, "1.00", "0.00"),
                (RouteKind::TokenSwap, 4, "0.00", "0.16"),
            ]
        );
        assert!(
            d.basis
                .iter()
                .any(|b| b.starts_with("Exact earnings (3 orders)")),
            "{:?}",
            d.basis
        );
        assert!(
            d.basis
                .iter()
                .any(|b| b.starts_with("Estimated earnings (4 orders)"))
        );
    }

    #[test]
    fn a_resolved_fee_without_a_usd_value_is_estimated_from_its_share_of_the_input() {
        let mut quote = onramp("100000", &format!("{EVM}:50,{TRON}:25"));
        quote["onramp"]["affiliates"][0]["fee"]
            .as_object_mut()
            .unwrap()
            .remove("usd");
        let f = facts_from_journal(&done(1, quote.clone(), NOV_21)).unwrap();
        // 500 of 100000 sats worth $100.00: $0.50, plus the $0.25 the gateway valued.
        assert_eq!(f.earnings, Earnings::Estimated(usd("0.75")));
        quote["onramp"]["inputAmount"]
            .as_object_mut()
            .unwrap()
            .remove("usd");
        let f = facts_from_journal(&done(1, quote, NOV_21)).unwrap();
        assert_eq!((f.earnings, f.src_usd_micro), (Earnings::None, None));
        let d = build(&[f], &day());
        assert_eq!((d.completed, d.completed_without_usd), (1, 1));
        assert_eq!(d.by_token[0].usd, None);
        assert_eq!(d.by_token[0].amount, "100000");
    }

    #[test]
    fn watched_orders_are_estimated_with_the_bps_configured_now() {
        let info: OrderInfo = serde_json::from_value(json!({
            "id": "w-1", "timestamp": NOV_21,
            "srcInfo": {"chain": "bob", "token": USDT_BOB, "amount": "20000000", "usd": "20.00"},
            "dstInfo": {"chain": "ethereum", "token": USDT_ETH, "amount": "19900000", "usd": "19.90"},
            "status": {"success": {"received_tokens": []}}
        }))
        .unwrap();
        let raw = serde_json::to_value(&info).unwrap();
        let view = OrderView::from_gateway("sandbox", &info, &raw, RouteKind::TokenSwap);
        let rates = AffiliateRates {
            list_bps: Some(75),
            token_swap_bps: Some(30),
        };
        let f = facts_from_view(&view, &rates).unwrap();
        assert_eq!(f.known_from, KnownFrom::Watched);
        assert_eq!(f.earnings, Earnings::Estimated(usd("0.06")));
        let none = facts_from_view(&view, &AffiliateRates::default()).unwrap();
        assert_eq!(
            none.earnings,
            Earnings::None,
            "no affiliates configured: no estimate"
        );
        let d = build(&[f], &day());
        assert_eq!(
            (
                d.earnings_exact_usd.as_str(),
                d.earnings_estimated_usd.as_str()
            ),
            ("0.00", "0.06")
        );
        assert!(
            d.basis[0].contains("1 of watched addresses"),
            "{}",
            d.basis[0]
        );
    }

    fn fact(
        id: &str,
        route: RouteKind,
        status: &str,
        at: i64,
        usd_text: Option<&str>,
    ) -> OrderFacts {
        OrderFacts {
            known_from: KnownFrom::Journal,
            local_id: None,
            order_id: id.into(),
            route,
            status: status.into(),
            created_at: at,
            src: Side {
                chain: "ethereum".into(),
                token: "0x1111111111111111111111111111111111111111".into(),
                amount: "900000000000000000000000000000000000".into(),
                usd: usd_text.map(str::to_owned),
            },
            dst: Side::unknown(),
            src_usd_micro: usd_text.and_then(parse_usd),
            earnings: if status == "success" {
                Earnings::Estimated(1)
            } else {
                Earnings::None
            },
        }
    }

    /// Orders whose USD values add up past `u128::MAX` micro-dollars (a hostile page): every sum stops at the
    /// largest value instead of wrapping or panicking, and the dashboard says which totals were capped. Sums that fit
    /// are exact and unmarked.
    #[test]
    fn usd_totals_past_the_largest_value_are_capped_and_said_so() {
        // 2 × 10³² dollars each: one fits in u128 micro-dollars (3.4 × 10³² dollars at most), two do not.
        let huge = "200000000000000000000000000000000.00";
        let at = days_from_civil(2026, 11, 20) * DAY_SECS;
        let mut facts = vec![
            fact("a", RouteKind::Onramp, "success", at, Some(huge)),
            fact("b", RouteKind::Onramp, "success", at, Some(huge)),
        ];
        for f in &mut facts {
            // And token amounts that overflow U256 together.
            f.src.amount = alloy_primitives::U256::MAX.to_string();
        }
        let d = build(&facts, &day());
        let max = format_usd(u128::MAX);
        assert_eq!(d.volume_usd, max, "capped, not wrapped");
        assert_eq!(d.by_route[0].volume_usd, max);
        assert_eq!(d.rows[0].volume_usd, max);
        assert_eq!(d.chart.last().unwrap().volume_usd, max);
        assert_eq!(d.by_token.len(), 1);
        assert_eq!(d.by_token[0].usd.as_deref(), Some(max.as_str()));
        assert_eq!(
            d.by_token[0].amount,
            alloy_primitives::U256::MAX.to_string()
        );
        assert!(d.by_token[0].capped);
        let notice = d.capped.as_deref().expect("a notice");
        for part in [
            "reached the largest sum the app can count ($340,282,366,920,938,463,463,374,607,431,768.21)",
            "the overall volume and earnings",
            "the totals per route",
            "the rows and chart bars of some periods",
            "the volume of ",
            "look the orders up in Support",
        ] {
            assert!(notice.contains(part), "{part}: {notice}");
        }
        assert_eq!(d.basis.last(), Some(&notice.to_owned()));

        // One of them alone fits: exact, and nothing is said.
        let d = build(&facts[..1], &day());
        assert_eq!(d.volume_usd, "200000000000000000000000000000000.00");
        assert!(!d.by_token[0].capped);
        assert_eq!(d.capped, None);
        assert!(!d.basis.iter().any(|b| b.contains("largest sum")));
    }

    #[test]
    fn an_order_dated_at_the_end_of_time_keeps_the_calendar_and_the_chart_bounded() {
        let facts = vec![
            fact(
                "a",
                RouteKind::Onramp,
                "success",
                days_from_civil(2026, 12, 30) * DAY_SECS,
                Some("10.00"),
            ),
            fact("z", RouteKind::Onramp, "success", i64::MAX, Some("1.00")),
            fact("y", RouteKind::Onramp, "success", i64::MIN, Some("1.00")),
        ];
        for period in [Period::Day, Period::Week, Period::Month] {
            let dashboard = build(
                &facts,
                &DashboardQuery {
                    period,
                    route: None,
                },
            );
            assert!(dashboard.chart.len() <= MAX_CHART_BARS, "{period:?}");
            assert_eq!(dashboard.rows.iter().map(|r| r.orders).sum::<u64>(), 3);
            assert!(
                dashboard.rows.iter().any(|r| r.bucket.starts_with("9999")),
                "{period:?}: {:?}",
                dashboard.rows.iter().map(|r| &r.bucket).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn buckets_rows_and_chart_follow_the_period_and_the_route_filter() {
        let at = |y, m, d| days_from_civil(y, m, d) * DAY_SECS + 3_600;
        let facts = vec![
            fact(
                "a",
                RouteKind::Onramp,
                "success",
                at(2026, 12, 30),
                Some("10.00"),
            ),
            fact(
                "b",
                RouteKind::TokenSwap,
                "success",
                at(2027, 1, 2),
                Some("5.00"),
            ),
            fact(
                "c",
                RouteKind::Onramp,
                "failed",
                at(2027, 1, 4),
                Some("7.00"),
            ),
            fact("d", RouteKind::Offramp, "success", at(2027, 1, 20), None),
            fact(
                "e",
                RouteKind::Onramp,
                "success",
                at(2027, 1, 20),
                Some("1.00"),
            ),
        ];
        let week = build(
            &facts,
            &DashboardQuery {
                period: Period::Week,
                route: None,
            },
        );
        let rows: Vec<(&str, RouteKind, u64, &str)> = week
            .rows
            .iter()
            .map(|r| (r.bucket.as_str(), r.route, r.orders, r.volume_usd.as_str()))
            .collect();
        assert_eq!(
            rows,
            [
                ("2027-W03", RouteKind::Onramp, 1, "1.00"),
                ("2027-W03", RouteKind::Offramp, 1, "0.00"),
                ("2027-W01", RouteKind::Onramp, 1, "0.00"),
                ("2026-W53", RouteKind::Onramp, 1, "10.00"),
                ("2026-W53", RouteKind::TokenSwap, 1, "5.00"),
            ],
            "newest first; within a bucket onramp, offramp, token swap"
        );
        let chart: Vec<(&str, &str)> = week
            .chart
            .iter()
            .map(|b| (b.bucket.as_str(), b.volume_usd.as_str()))
            .collect();
        assert_eq!(
            chart,
            [
                ("2026-W53", "15.00"),
                ("2027-W01", "0.00"),
                ("2027-W02", "0.00"),
                ("2027-W03", "1.00")
            ],
            "oldest first, empty weeks included"
        );
        assert_eq!(week.completed_without_usd, 1);
        assert!(
            week.basis
                .iter()
                .any(|b| b.starts_with("1 completed order without a USD value"))
        );
        let big = week.by_token[0].amount.clone();
        assert_eq!(
            big, "3600000000000000000000000000000000000",
            "beyond u64 and f64, exact"
        );

        let month = build(
            &facts,
            &DashboardQuery {
                period: Period::Month,
                route: Some(RouteKind::Onramp),
            },
        );
        assert_eq!(month.orders, 3);
        assert!(month.rows.iter().all(|r| r.route == RouteKind::Onramp));
        let chart: Vec<&str> = month.chart.iter().map(|b| b.bucket.as_str()).collect();
        assert_eq!(chart, ["2026-12", "2027-01"]);
        assert_eq!(month.by_route.len(), 1);
        assert!(
            month
                .basis
                .iter()
                .any(|b| b == "Only onramp orders are shown.")
        );

        let empty = build(&[], &day());
        assert_eq!(
            (empty.orders, empty.rows.len(), empty.chart.len()),
            (0, 0, 0)
        );
        assert_eq!(empty.volume_usd, "0.00");

        // Years of daily buckets: the chart keeps the newest, the table every one.
        let spread = vec![
            fact(
                "old",
                RouteKind::Onramp,
                "success",
                at(2020, 1, 1),
                Some("1.00"),
            ),
            fact(
                "new",
                RouteKind::Onramp,
                "success",
                at(2026, 1, 1),
                Some("2.00"),
            ),
        ];
        let d = build(&spread, &day());
        assert_eq!(d.chart.len(), MAX_CHART_BARS);
        assert_eq!(d.chart.last().unwrap().bucket, "2026-01-01");
        assert_eq!(d.rows.len(), 2);
        assert!(d.basis.iter().any(|b| b.contains("latest 400 periods")));
    }

    #[test]
    fn the_csv_has_one_quoted_row_per_order_behind_the_dashboard() {
        let mut odd = fact(
            "id, with \"quotes\"",
            RouteKind::TokenSwap,
            "success",
            NOV_21,
            Some("5.00"),
        );
        odd.src.chain = "bob".into();
        odd.src.token = USDT_BOB.into();
        odd.src.amount = "5000000".into();
        let facts = vec![
            fact(
                "first",
                RouteKind::Onramp,
                "failed",
                NOV_21 - 10,
                Some("1.00"),
            ),
            odd,
        ];
        let all = csv_text(&facts, &day()).unwrap();
        assert!(all.contains("\"id, with \"\"quotes\"\"\""), "{all}");
        let mut reader = csv::Reader::from_reader(all.as_bytes());
        assert_eq!(
            reader.headers().unwrap().iter().collect::<Vec<_>>(),
            CSV_HEADER
        );
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 2);
        let field = |row: &csv::StringRecord, name: &str| {
            row[CSV_HEADER.iter().position(|h| *h == name).unwrap()].to_owned()
        };
        assert_eq!(
            field(&rows[0], "order_id"),
            "id, with \"quotes\"",
            "newest first"
        );
        assert_eq!(field(&rows[0], "date_utc"), "2026-11-21T14:03:05Z");
        assert_eq!(field(&rows[0], "bucket"), "2026-11-21");
        assert_eq!(field(&rows[0], "route"), "tokenSwap");
        assert_eq!(field(&rows[0], "source_text"), "5 USDT");
        assert_eq!(field(&rows[0], "source_usd"), "5.00");
        assert_eq!(field(&rows[0], "earnings_usd"), "0.000001");
        assert_eq!(field(&rows[0], "earnings_kind"), "estimated");
        assert_eq!(field(&rows[0], "known_from"), "journal");
        assert_eq!(field(&rows[1], "status"), "failed");
        assert_eq!(
            (
                field(&rows[1], "earnings_usd"),
                field(&rows[1], "earnings_kind")
            ),
            (String::new(), "none".into())
        );

        let swaps = csv_text(
            &facts,
            &DashboardQuery {
                period: Period::Month,
                route: Some(RouteKind::TokenSwap),
            },
        )
        .unwrap();
        assert_eq!(swaps.lines().count(), 2, "{swaps}");
        assert!(swaps.lines().nth(1).unwrap().contains(",2026-11,"));
    }

    #[test]
    fn the_query_reads_as_the_window_sends_it() {
        let q: DashboardQuery =
            serde_json::from_value(json!({"period": "week", "route": "tokenSwap"})).unwrap();
        assert_eq!(
            (q.period, q.route),
            (Period::Week, Some(RouteKind::TokenSwap))
        );
        let q: DashboardQuery =
            serde_json::from_value(json!({"period": "month", "route": null})).unwrap();
        assert_eq!((q.period, q.route), (Period::Month, None));
        let q: DashboardQuery = serde_json::from_value(json!({"period": "day"})).unwrap();
        assert_eq!(q.route, None);
        assert!(serde_json::from_value::<DashboardQuery>(json!({"period": "year"})).is_err());
        let d = serde_json::to_value(build(&[], &q)).unwrap();
        assert_eq!(d["period"], "day");
        assert!(d.get("route").is_none());
        assert_eq!(d["earningsEstimatedUsd"], "0.00");
    }
}
