//! get-quote over loopback: every route of every version, checked against the published OpenAPI document
//! (`crates/gateway-client/tests/fixtures/published-openapi.json`), read by the typed client, and every refusal rule
//! with its code and details.

use crate::support;

use alloy_primitives::U256;
use gateway_client::wire::{NATIVE_TOKEN, QuoteView, RouteKind, TokenAmount};
use gateway_client::{
    Affiliate, ApiVersion, ClientError, ErrorCode, ErrorDetails, QuoteRequest, RouteInfo,
};
use gateway_sim::Sim;
use gateway_sim::catalogue::ListedToken;
use gateway_sim::pricing::{self, Priced};
use gateway_sim::signing::{QUOTE_TTL_SECS, SignatureError};
use serde_json::{Value, json};
use support::{VERSIONS, client, openapi, quote_schema, schema_errors, slug, start};

const EVM: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const OWNER: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
const BTC_ADDR: &str = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";
const TRON_ADDR: &str = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7";
const SOL_ADDR: &str = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
const USDT_BOB: &str = "0x05D032ac25d322df992303dCa074EE7392C117b9";
const USDT_ETH: &str = "0xdac17f958d2ee523a2206206994597c13d831ec7";
const USDT_TRON: &str = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";

fn address_on(chain: &str) -> &'static str {
    match chain {
        "bitcoin" => BTC_ADDR,
        "tron" => TRON_ADDR,
        "solana" => SOL_ADDR,
        _ => EVM,
    }
}

fn listed<'a>(sim: &'a Sim, chain: &str, address: &str) -> &'a ListedToken {
    sim.catalogue()
        .tokens()
        .iter()
        .find(|t| t.chain == chain && t.address == address)
        .unwrap()
}

fn priced(sim: &Sim, chain: &str, address: &str) -> Priced {
    pricing::price_of(listed(sim, chain, address)).unwrap()
}

fn units(amount: &TokenAmount) -> U256 {
    amount.amount.parse().unwrap()
}

/// A request for `route` of a comfortable size (1 000 000 sats, or 1000 USD of the source token).
fn request_for(sim: &Sim, version: ApiVersion, route: &RouteInfo) -> QuoteRequest {
    let amount = if route.src_chain == "bitcoin" {
        U256::from(1_000_000u64)
    } else {
        pricing::amount_for_usd_micro(
            1_000_000_000,
            priced(sim, &route.src_chain, &route.src_token),
        )
    };
    let mut request = QuoteRequest::new(
        (&route.src_chain, &route.src_token),
        (&route.dst_chain, &route.dst_token),
        &amount.to_string(),
        address_on(&route.dst_chain),
    );
    if version == ApiVersion::V3 {
        request.owner_address = Some(OWNER.into());
    }
    if route.src_chain == "solana" {
        request.sender = Some(SOL_ADDR.into());
    }
    request
}

fn btc() -> Priced {
    Priced {
        price_micro: pricing::BTC_PRICE_MICRO,
        decimals: 8,
    }
}

fn sum(lines: &[&TokenAmount]) -> U256 {
    lines
        .iter()
        .map(|a| units(a))
        .fold(U256::ZERO, |a, b| a + b)
}

#[tokio::test]
async fn every_quote_of_every_route_and_version_matches_the_published_schema_and_the_fee_model() {
    let (sim, running) = start().await;
    let doc = openapi();
    for version in VERSIONS {
        let schema = quote_schema(&doc, version, "200");
        let client = client(&running, version);
        let routes = sim.catalogue().routes(version);
        let mut kinds = std::collections::HashSet::new();
        for route in &routes {
            let request = request_for(&sim, version, route);
            let answer = client
                .get_quote(&request)
                .await
                .unwrap_or_else(|e| panic!("{version:?} {route:?}: {e}"));
            let raw = answer.raw;
            let errors = schema_errors(&schema, &raw);
            assert!(
                errors.is_empty(),
                "{version:?} {route:?}: {errors:?}\n{raw:#}"
            );
            let view = answer.value.view();
            kinds.insert(view.route());
            assert_eq!(view.route(), route.kind());
            let src = priced(&sim, &route.src_chain, &route.src_token);
            let dst = priced(&sim, &route.dst_chain, &route.dst_token);
            let input = units(view.input_amount());
            assert_eq!(input.to_string(), request.amount);
            let output = units(view.output_amount());
            match view {
                QuoteView::Onramp(q) => {
                    let b = &q.fee_breakdown;
                    let fees = sum(&[
                        &b.solver_fee,
                        &b.protocol_fee,
                        &b.affiliate_fee,
                        &b.execution_fee,
                        &b.messaging_fee,
                    ]);
                    assert_eq!(units(&q.fees), fees);
                    assert_eq!(units(&b.execution_fee), U256::from(1_500u64));
                    let messaging = if route.dst_chain == "bob" { 0u64 } else { 800 };
                    assert_eq!(units(&b.messaging_fee), U256::from(messaging));
                    assert_eq!(output, pricing::convert(input - fees, btc(), dst));
                    assert_eq!(q.slippage.bps(), 300);
                    assert_eq!(q.estimated_time_in_secs, Some(600));
                    let signed = &raw["onramp"];
                    assert!(signed["signedQuoteData"].is_string());
                    let now = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .unwrap()
                        .as_secs();
                    sim.signer()
                        .verify_signed_quote(signed, now, QUOTE_TTL_SECS)
                        .unwrap();
                }
                QuoteView::Offramp(q) => {
                    let b = &q.fee_breakdown;
                    let fees = sum(&[
                        &b.solver_fee,
                        &b.inclusion_fee,
                        &b.protocol_fee,
                        &b.affiliate_fee,
                    ]);
                    assert_eq!(
                        units(&b.inclusion_fee),
                        pricing::convert(U256::from(2_000u64), btc(), src)
                    );
                    assert_eq!(b.fastest_fee_rate, "12");
                    assert_eq!(output, pricing::convert(input - fees, src, btc()));
                    if version == ApiVersion::V1 {
                        assert_eq!(units(q.fees.as_ref().unwrap()), fees);
                        assert_eq!(q.total_fee_usd, None);
                    } else {
                        assert_eq!(q.fees, None);
                        assert_eq!(
                            q.total_fee_usd.as_deref(),
                            Some(pricing::usd_string(fees, src).as_str())
                        );
                    }
                    assert_eq!(
                        q.owner_address.as_deref(),
                        (version == ApiVersion::V3).then_some(OWNER)
                    );
                    assert_eq!(q.estimated_time_in_secs, Some(1_800));
                }
                QuoteView::TokenSwap(q) => {
                    let fees = units(&q.fees);
                    assert_eq!(fees, input * U256::from(25u8) / U256::from(10_000u32));
                    assert_eq!(output, pricing::convert(input - fees, src, dst));
                    assert_eq!(q.estimated_time_in_secs, Some(120));
                    assert!(!q.tx_to.is_empty());
                }
                QuoteView::LayerZero(q) => {
                    assert_eq!(version, ApiVersion::V1);
                    let fees = units(&q.fees);
                    assert_eq!(output, pricing::convert(input - fees, src, dst));
                    assert_eq!(q.tx.chain, route.src_chain);
                }
            }
            // USD on every amount and fee line from V2 on, none in V1.
            let mut amounts = vec![view.input_amount(), view.output_amount()];
            amounts.extend(view.fee_lines().into_iter().map(|(_, a)| a));
            for amount in amounts {
                assert_eq!(
                    amount.usd.is_some(),
                    version != ApiVersion::V1,
                    "{version:?} {route:?}: {amount:?}"
                );
            }
            if version != ApiVersion::V1 {
                let impact = raw.as_object().unwrap().values().next().unwrap()["priceImpact"]
                    .as_str()
                    .unwrap()
                    .to_owned();
                assert!(impact.starts_with("-0.") && impact.len() == 7, "{impact}");
            }
        }
        assert_eq!(
            kinds.len(),
            3,
            "{version:?} quotes all three kinds: {kinds:?}"
        );

        // The schema can fail: a quote missing a required field is refused.
        let route = &routes[0];
        let raw = client
            .get_quote(&request_for(&sim, version, route))
            .await
            .unwrap()
            .raw;
        let mut broken = raw.clone();
        broken["onramp"].as_object_mut().unwrap().remove("fees");
        assert!(!schema_errors(&schema, &broken).is_empty());
    }
    running.shutdown().await.unwrap();
}

#[tokio::test]
async fn affiliates_are_resolved_and_tampering_breaks_the_signature() {
    let (sim, running) = start().await;
    let doc = openapi();
    let v3 = client(&running, ApiVersion::V3);
    let mut request =
        QuoteRequest::new(("bitcoin", NATIVE_TOKEN), ("bob", WBTC_BOB), "100000", EVM);
    request.affiliates = vec![
        Affiliate {
            address: "0x1111111111111111111111111111111111111111".into(),
            bps: 50,
        },
        Affiliate {
            address: "0x2222222222222222222222222222222222222222".into(),
            bps: 25,
        },
    ];
    let answer = v3.get_quote(&request).await.unwrap();
    assert!(schema_errors(&quote_schema(&doc, ApiVersion::V3, "200"), &answer.raw).is_empty());
    let QuoteView::Onramp(q) = answer.value.view() else {
        panic!("onramp")
    };
    assert_eq!(q.fee_breakdown.affiliate_fee.amount, "750");
    assert_eq!(q.affiliates.len(), 2);
    assert_eq!(q.affiliates[1].fee.amount, "250");
    assert_eq!(
        q.affiliate_address.as_deref(),
        Some("0x1111111111111111111111111111111111111111")
    );
    // 200 + 100 + 750 + 1500 + 0 = 2550 sats.
    assert_eq!(q.fees.amount, "2550");
    assert_eq!(q.output_amount.amount, "97450");
    assert_eq!(q.price_impact.as_deref(), Some("-0.0255"));

    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let mut tampered = answer.raw["onramp"].clone();
    sim.signer()
        .verify_signed_quote(&tampered, now, QUOTE_TTL_SECS)
        .unwrap();
    tampered["outputAmount"]["amount"] = json!("97451");
    assert_eq!(
        sim.signer()
            .verify_signed_quote(&tampered, now, QUOTE_TTL_SECS),
        Err(SignatureError::Tampered)
    );
    // Another gateway's key refuses it too.
    assert_eq!(
        Sim::new()
            .signer()
            .verify_signed_quote(&answer.raw["onramp"], now, QUOTE_TTL_SECS),
        Err(SignatureError::BadMac)
    );

    // A V3 token swap embeds its one affiliate and charges it.
    let mut swap = QuoteRequest::new(("tron", USDT_TRON), ("ethereum", USDT_ETH), "20000000", EVM);
    swap.slippage_bps = 100;
    swap.affiliates = vec![Affiliate {
        address: TRON_ADDR.into(),
        bps: 15,
    }];
    let answer = v3.get_quote(&swap).await.unwrap();
    assert!(schema_errors(&quote_schema(&doc, ApiVersion::V3, "200"), &answer.raw).is_empty());
    let QuoteView::TokenSwap(q) = answer.value.view() else {
        panic!("tokenSwap")
    };
    assert_eq!(q.affiliate.as_ref().map(|a| a.bps), Some(15));
    assert_eq!(q.fees.amount, "80000");
    assert_eq!(q.output_amount.amount, "19920000");
    running.shutdown().await.unwrap();
}

fn route_details(src: (&str, &str), dst: (&str, &str)) -> ErrorDetails {
    ErrorDetails::Route {
        src_chain: src.0.into(),
        src_token: src.1.into(),
        dst_chain: dst.0.into(),
        dst_token: dst.1.into(),
    }
}

fn minimum(minimum: &str, actual: &str) -> ErrorDetails {
    ErrorDetails::MinimumActual {
        minimum: minimum.into(),
        actual: actual.into(),
    }
}

fn affiliates(list: &[(&str, u32)]) -> Vec<Affiliate> {
    list.iter()
        .map(|(address, bps)| Affiliate {
            address: (*address).into(),
            bps: *bps,
        })
        .collect()
}

fn nth_evm(n: u8) -> String {
    format!("0x{:040x}", n)
}

/// Rules the typed client lets through: the gateway answers 400 with the code and details.
#[tokio::test]
async fn each_rule_gives_its_code_and_details_through_the_client() {
    let (_sim, running) = start().await;
    let doc = openapi();
    let onramp = || QuoteRequest::new(("bitcoin", NATIVE_TOKEN), ("bob", WBTC_BOB), "100000", EVM);
    let offramp = || {
        let mut r = QuoteRequest::new(
            ("ethereum", USDT_ETH),
            ("bitcoin", NATIVE_TOKEN),
            "100000000",
            BTC_ADDR,
        );
        r.owner_address = Some(OWNER.into());
        r
    };
    let swap = || QuoteRequest::new(("bob", USDT_BOB), ("ethereum", USDT_ETH), "100000000", EVM);

    type Case = (ApiVersion, QuoteRequest, ErrorCode, Option<ErrorDetails>);
    let mut cases: Vec<Case> = Vec::new();
    // V3 names the floor and the tolerance asked (the September 2026 document's details); V1 and V2 only refuse.
    let floor = |version: ApiVersion, required: &str, requested: &str| {
        (version == ApiVersion::V3).then(|| ErrorDetails::SlippageBounds {
            required_bps: required.into(),
            requested_bps: requested.into(),
        })
    };
    for version in VERSIONS {
        let mut r = onramp();
        r.slippage_bps = 49;
        cases.push((
            version,
            r,
            ErrorCode::SlippageTooLow,
            floor(version, "50", "49"),
        ));
        let mut r = onramp();
        r.slippage_bps = 1_001;
        // V3 says which limit was passed and suggests a value (MAX_SLIPPAGE_EXCEEDED); V1 and V2 only refuse.
        cases.push(match version {
            ApiVersion::V3 => (
                version,
                r,
                ErrorCode::MaxSlippageExceeded,
                Some(ErrorDetails::MaxSlippage {
                    suggested_bps: "300".into(),
                    max_bps: "1000".into(),
                }),
            ),
            _ => (version, r, ErrorCode::SlippageTooHigh, None),
        });
        let mut r = onramp();
        r.amount = "9999".into();
        cases.push((
            version,
            r,
            ErrorCode::QuoteAmountTooLow,
            Some(minimum("10000", "9999")),
        ));
        // 10 USD of USDT (6 decimals) is the floor of an offramp.
        let mut r = offramp();
        if version != ApiVersion::V3 {
            r.owner_address = None;
        }
        r.amount = "9999999".into();
        cases.push((
            version,
            r,
            ErrorCode::QuoteAmountTooLow,
            Some(minimum("10000000", "9999999")),
        ));
        let mut r = swap();
        r.slippage_bps = 99;
        cases.push((
            version,
            r,
            ErrorCode::SlippageTooLow,
            floor(version, "100", "99"),
        ));
        let r = QuoteRequest::new(
            ("bitcoin", NATIVE_TOKEN),
            ("bob", "0x1111111111111111111111111111111111111111"),
            "100000",
            EVM,
        );
        cases.push((
            version,
            r,
            ErrorCode::NoRoute,
            Some(route_details(
                ("bitcoin", NATIVE_TOKEN),
                ("bob", "0x1111111111111111111111111111111111111111"),
            )),
        ));
    }
    // Tron is V3 only.
    for version in [ApiVersion::V1, ApiVersion::V2] {
        let r = QuoteRequest::new(
            ("bitcoin", NATIVE_TOKEN),
            ("tron", USDT_TRON),
            "100000",
            TRON_ADDR,
        );
        cases.push((
            version,
            r,
            ErrorCode::NoRoute,
            Some(route_details(
                ("bitcoin", NATIVE_TOKEN),
                ("tron", USDT_TRON),
            )),
        ));
    }
    for version in [ApiVersion::V2, ApiVersion::V3] {
        let mut r = onramp();
        r.affiliates = (1..=6)
            .map(|n| Affiliate {
                address: nth_evm(n),
                bps: 10,
            })
            .collect();
        cases.push((version, r, ErrorCode::InvalidAffiliateFee, None));
        let mut r = offramp();
        if version != ApiVersion::V3 {
            r.owner_address = None;
        }
        r.affiliates = affiliates(&[(&nth_evm(1), 600), (&nth_evm(2), 401)]);
        cases.push((version, r, ErrorCode::InvalidAffiliateFee, None));
    }
    let mut r = swap();
    r.affiliates = affiliates(&[(&nth_evm(1), 10)]);
    cases.push((
        ApiVersion::V2,
        r,
        ErrorCode::AffiliateFeesNotSupportedForRoute,
        Some(route_details(("bob", USDT_BOB), ("ethereum", USDT_ETH))),
    ));
    let mut r = offramp();
    r.owner_address = None;
    cases.push((ApiVersion::V3, r, ErrorCode::MissingOwnerAddress, None));

    let http = reqwest::Client::new();
    for (version, request, code, details) in cases {
        let what = format!("{version:?} {request:?}");
        let err = client(&running, version)
            .get_quote(&request)
            .await
            .expect_err(&what);
        let ClientError::Gateway { status, body } = err else {
            panic!("{what}: {err:?}")
        };
        assert_eq!(status, 400, "{what}");
        assert_eq!(body.code, code, "{what}: {}", body.error);
        assert_eq!(body.typed_details(), details, "{what}");

        // The same request, raw: the body matches the document's 400 schema.
        let raw: Value = http
            .get(format!(
                "{}/{}/get-quote",
                running.base_url(),
                slug(version)
            ))
            .query(&request.query_pairs(version))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(raw["code"], code.as_str(), "{what}");
        let errors = schema_errors(&quote_schema(&doc, version, "400"), &raw);
        assert!(errors.is_empty(), "{what}: {errors:?} {raw}");
    }
    running.shutdown().await.unwrap();
}

/// Query-string pairs.
type Pairs = Vec<(&'static str, String)>;

/// Rules the typed client already refuses to send: the gateway enforces them too.
#[tokio::test]
async fn rules_the_client_checks_first_are_enforced_by_the_gateway() {
    let (_sim, running) = start().await;
    let doc = openapi();
    let base = |src: (&str, &str), dst: (&str, &str), amount: &str, recipient: &str| {
        vec![
            ("srcChain", src.0.to_owned()),
            ("srcToken", src.1.to_owned()),
            ("dstChain", dst.0.to_owned()),
            ("dstToken", dst.1.to_owned()),
            ("amount", amount.to_owned()),
            ("recipient", recipient.to_owned()),
            ("slippage", "300".to_owned()),
        ]
    };
    let onramp = || base(("bitcoin", NATIVE_TOKEN), ("bob", WBTC_BOB), "100000", EVM);
    let with = |mut pairs: Pairs, key: &'static str, value: &str| {
        pairs.retain(|(k, _)| *k != key);
        pairs.push((key, value.to_owned()));
        pairs
    };
    let without = |mut pairs: Pairs, key: &str| {
        pairs.retain(|(k, _)| *k != key);
        pairs
    };
    let a1 = nth_evm(1);
    let swap = base(("tron", USDT_TRON), ("ethereum", USDT_ETH), "20000000", EVM);
    let cases: Vec<(ApiVersion, Pairs, &str)> = vec![
        (
            ApiVersion::V3,
            without(onramp(), "amount"),
            "INVALID_REQUEST",
        ),
        (
            ApiVersion::V3,
            without(onramp(), "recipient"),
            "INVALID_REQUEST",
        ),
        (
            ApiVersion::V2,
            without(onramp(), "slippage"),
            "INVALID_REQUEST",
        ),
        (
            ApiVersion::V3,
            with(onramp(), "amount", "1.5"),
            "INVALID_REQUEST",
        ),
        (
            ApiVersion::V3,
            with(onramp(), "amount", "0"),
            "INVALID_REQUEST",
        ),
        (
            ApiVersion::V3,
            with(onramp(), "slippage", "abc"),
            "INVALID_REQUEST",
        ),
        (
            ApiVersion::V3,
            with(onramp(), "gasRefill", "1000"),
            "INVALID_REQUEST",
        ),
        (
            ApiVersion::V3,
            with(onramp(), "strategyTarget", EVM),
            "INVALID_REQUEST",
        ),
        (
            ApiVersion::V3,
            with(onramp(), "strategyMessage", "0x"),
            "INVALID_REQUEST",
        ),
        (
            ApiVersion::V2,
            with(onramp(), "gasRefill", "1000"),
            "INVALID_REQUEST",
        ),
        (
            ApiVersion::V3,
            with(onramp(), "ownerAddress", "nope"),
            "INVALID_REQUEST",
        ),
        (
            ApiVersion::V3,
            with(onramp(), "affiliates", &format!("{a1}:0")),
            "INVALID_AFFILIATE_FEE",
        ),
        (
            ApiVersion::V3,
            with(onramp(), "affiliates", &a1),
            "INVALID_AFFILIATE_FEE",
        ),
        (
            ApiVersion::V2,
            with(onramp(), "affiliates", &format!("{a1}:x")),
            "INVALID_AFFILIATE_FEE",
        ),
        (
            ApiVersion::V3,
            with(
                onramp(),
                "affiliates",
                &format!("{a1}:10,{}:5", a1.to_uppercase().replace("0X", "0x")),
            ),
            "INVALID_AFFILIATE_FEE",
        ),
        (
            ApiVersion::V3,
            with(
                swap.clone(),
                "affiliates",
                &format!("{TRON_ADDR}:10,{a1}:5"),
            ),
            "TOO_MANY_AFFILIATES",
        ),
    ];
    let http = reqwest::Client::new();
    for (version, pairs, code) in cases {
        let response = http
            .get(format!(
                "{}/{}/get-quote",
                running.base_url(),
                slug(version)
            ))
            .query(&pairs)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 400, "{version:?} {pairs:?}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], code, "{version:?} {pairs:?}: {body}");
        assert!(body["error"].is_string());
        let errors = schema_errors(&quote_schema(&doc, version, "400"), &body);
        assert!(errors.is_empty(), "{version:?} {pairs:?}: {errors:?}");
    }
    // The same swap with one affiliate is quoted.
    let response = http
        .get(format!("{}/v3/get-quote", running.base_url()))
        .query(&with(swap, "affiliates", &format!("{TRON_ADDR}:10")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    // An unknown version is 404 with no body.
    let response = http
        .get(format!("{}/v5/get-quote", running.base_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
    running.shutdown().await.unwrap();
}

#[test]
fn the_kinds_are_the_three_routes() {
    // Guards the kind mapping the other tests rely on.
    let route = RouteInfo {
        src_chain: "bitcoin".into(),
        src_token: NATIVE_TOKEN.into(),
        dst_chain: "bob".into(),
        dst_token: WBTC_BOB.into(),
    };
    assert_eq!(route.kind(), RouteKind::Onramp);
}
