//! The tampering mode: each tamper rewrites the answers it applies to (and every tamper applies to some route), and
//! the lies still validate against the published document, so that only a client's own checks can catch them.

use crate::support;

use std::collections::{HashMap, HashSet};

use alloy_primitives::U256;
use alloy_sol_types::SolCall;
use gateway_client::ApiVersion;
use gateway_client::wire::RouteKind;
use gateway_sim::integrity;
use gateway_sim::payload::IGatewaySim;
use gateway_sim::tamper::{FamilyTamper, Tamper};
use gateway_sim::{Sim, SimConfig};
use serde_json::{Value, json};
use support::{
    BTC_ADDR, VERSIONS, amount_for, assert_conforms, http, openapi, quote_query, slug, start_with,
    unlimited_sim,
};

fn inner(envelope: &Value) -> (&String, &serde_json::Map<String, Value>) {
    let (key, value) = envelope.as_object().unwrap().iter().next().unwrap();
    (key, value.as_object().unwrap())
}

#[tokio::test]
async fn every_tamper_lies_where_it_applies_and_the_lie_looks_genuine() {
    let (sim, running) = start_with(unlimited_sim()).await;
    let (old, current) = (openapi(), support::openapi_2026());
    let http = http(&running);
    let mut applied: HashMap<Tamper, usize> = HashMap::new();
    // V1 to V3 by the 2025 document, V4 by the current one.
    let versions = VERSIONS
        .iter()
        .map(|&v| (&old, v))
        .chain([(&current, ApiVersion::V4)]);
    for (doc, version) in versions {
        let v = slug(version);
        // One route per route kind and source chain: every payload shape, without every token.
        let mut shapes = HashSet::new();
        let routes: Vec<_> = sim
            .catalogue()
            .routes(version)
            .into_iter()
            .filter(|r| shapes.insert((r.kind(), r.src_chain.clone(), r.dst_chain == "bitcoin")))
            .collect();
        for route in routes {
            for (n, tamper) in Tamper::ALL.into_iter().enumerate() {
                let what = format!("{v} {route:?} {tamper:?}");
                let mut query = quote_query(version, &route, &amount_for(&sim, &route, 3 * n));
                if route.kind() == RouteKind::Onramp {
                    // A sender, so that create-order answers with a PSBT to lie in.
                    query.push(("sender", BTC_ADDR.to_owned()));
                }
                sim.tamper().set(None);
                let (_, genuine) = http.get(&format!("/{v}/get-quote"), &query).await;
                sim.tamper().set(Some(tamper));
                let (status, quote) = http.get(&format!("/{v}/get-quote"), &query).await;
                assert_eq!(status, 200, "{what}: {quote}");
                assert_conforms(doc, "get", &format!("/{v}/get-quote"), 200, &quote);
                let (status, created) = http.post(&format!("/{v}/create-order"), &quote).await;
                if tamper.is_quote_tamper() {
                    let kind = route.kind();
                    let lied = integrity::material(kind, inner(&genuine).1)
                        != integrity::material(kind, inner(&quote).1);
                    if lied {
                        *applied.entry(tamper).or_default() += 1;
                    }
                    // The lie is this gateway's own quote: create-order takes it (unless its liquidity runs short).
                    assert!(
                        status == 201 || created["code"] == "INSUFFICIENT_SOLVER_BALANCE",
                        "{what}: {created}"
                    );
                    continue;
                }
                assert_eq!(status, 201, "{what}: {created}");
                assert_conforms(doc, "post", &format!("/{v}/create-order"), 201, &created);
                let order_id = inner(&created).1["order_id"].as_str().unwrap().to_owned();
                let honest = sim.order(&order_id).unwrap().created;
                if honest != created {
                    *applied.entry(tamper).or_default() += 1;
                    check_the_lie(tamper, &honest, &created, &what);
                }
            }
        }
    }
    sim.tamper().set(None);
    for tamper in Tamper::ALL {
        assert!(
            applied.get(&tamper).copied().unwrap_or(0) > 0,
            "{tamper:?} never changed an answer"
        );
    }
}

/// A few lies checked for what they claim to do.
fn check_the_lie(tamper: Tamper, honest: &Value, lied: &Value, what: &str) {
    let (_, honest) = inner(honest);
    let (_, lied) = inner(lied);
    let calldata = |order: &serde_json::Map<String, Value>| {
        let data = order["tx"]["data"]
            .as_str()
            .unwrap()
            .trim_start_matches("0x");
        alloy_primitives::hex::decode(data).unwrap()
    };
    match tamper {
        Tamper::CalldataAmountTimesTen => {
            let amount = |data: &[u8]| {
                IGatewaySim::swapCrossChainCall::abi_decode(data)
                    .map(|c| c.amount)
                    .or_else(|_| {
                        IGatewaySim::offrampToBitcoinCall::abi_decode(data).map(|c| c.amount)
                    })
                    .unwrap()
            };
            assert_eq!(
                amount(&calldata(lied)),
                amount(&calldata(honest)) * U256::from(10u8),
                "{what}"
            );
        }
        Tamper::Family(FamilyTamper::TronFeeLimit) => {
            assert_eq!(lied["tx"]["feeLimit"], "10000000000", "{what}");
        }
        Tamper::Family(FamilyTamper::SolanaExtraTransfer | FamilyTamper::SolanaUnknownProgram) => {
            let decoded = gateway_sim::payload::solana::decode_solana_tx(
                lied["tx"]["transaction"].as_str().unwrap(),
            )
            .unwrap();
            // The deposit, the gateway's instruction, and the one added.
            assert_eq!(decoded.instructions.len(), 3, "{what}");
        }
        Tamper::Family(FamilyTamper::SolanaExtraSigner | FamilyTamper::SolanaFeePayer) => {
            let decoded = gateway_sim::payload::solana::decode_solana_tx(
                lied["tx"]["transaction"].as_str().unwrap(),
            )
            .unwrap();
            assert_eq!(decoded.num_required_signatures, 2, "{what}");
        }
        _ => {}
    }
}

#[tokio::test]
async fn the_admin_interface_switches_tampers_on_and_off() {
    let sim = Sim::with_config(SimConfig {
        admin: true,
        access: gateway_sim::access::AccessConfig::unlimited(),
        ..Default::default()
    })
    .unwrap();
    let (sim, running) = start_with(sim).await;
    let http = http(&running);
    let client = reqwest::Client::new();
    let put = |body: Value| {
        client
            .put(format!("{}/admin/tamper", running.base_url()))
            .json(&body)
            .send()
    };
    let answer = put(json!({"tamper": "calldataAmountTimesTen"}))
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    assert_eq!(sim.tamper().get(), Some(Tamper::CalldataAmountTimesTen));
    let (status, listed) = http.get("/admin/tamper", &[]).await;
    assert_eq!(status, 200);
    assert_eq!(listed["tamper"], "calldataAmountTimesTen");
    assert_eq!(
        listed["available"].as_array().unwrap().len(),
        Tamper::ALL.len() + Tamper::SIMULATED.len()
    );
    let refused = put(json!({"tamper": "stealEverything"})).await.unwrap();
    assert_eq!(refused.status(), 400);
    assert_eq!(
        sim.tamper().get(),
        Some(Tamper::CalldataAmountTimesTen),
        "unchanged"
    );
    assert_eq!(put(json!({"tamper": null})).await.unwrap().status(), 200);
    assert_eq!(sim.tamper().get(), None);
}

/// `--production-shape`: offramps and token swaps from EVM chains and Tron go to the chain's published entry contract
/// (its quote's `txTo` and its transaction's `to`) as `exec(gateway, token, amount, gateway, …ViaHolder(…))`; the
/// simulation's tampers rewrite only the inner call (or the operator), which the published document cannot tell.
#[tokio::test]
async fn the_production_shape_calls_each_chains_entry_and_its_lies_stay_inside_exec() {
    use gateway_sim::payload::evm::{IAllowanceHolderExec, IGatewaySimViaHolder};
    let (sim, running) = start_with(
        Sim::with_config(SimConfig {
            access: gateway_sim::access::AccessConfig::unlimited(),
            production_shape: true,
            ..SimConfig::default()
        })
        .unwrap(),
    )
    .await;
    let doc = openapi();
    let http = http(&running);
    let version = gateway_client::ApiVersion::V3;
    let v = slug(version);
    let mut shaped = HashSet::new();
    let mut seen = HashSet::new();
    let routes: Vec<_> = sim
        .catalogue()
        .routes(version)
        .into_iter()
        .filter(|r| matches!(r.kind(), RouteKind::Offramp | RouteKind::TokenSwap))
        .filter(|r| seen.insert((r.kind(), r.src_chain.clone())))
        .collect();
    for (n, route) in routes.iter().enumerate() {
        let Some(entry) = gateway_sim::quote::entry_of(&route.src_chain) else {
            continue;
        };
        let query = quote_query(version, route, &amount_for(&sim, route, 3 * n));
        for tamper in std::iter::once(None).chain(Tamper::SIMULATED.map(Some)) {
            let what = format!("{route:?} {tamper:?}");
            sim.tamper().set(None);
            let (status, quote) = http.get(&format!("/{v}/get-quote"), &query).await;
            assert_eq!(status, 200, "{what}: {quote}");
            assert_eq!(inner(&quote).1["txTo"], entry, "{what}");
            sim.tamper().set(tamper);
            let (status, created) = http.post(&format!("/{v}/create-order"), &quote).await;
            sim.tamper().set(None);
            assert_eq!(status, 201, "{what}: {created}");
            assert_conforms(&doc, "post", &format!("/{v}/create-order"), 201, &created);
            let tx = &inner(&created).1["tx"];
            assert!(
                gateway_client::address::same_account(
                    gateway_client::address::chain_family(&route.src_chain).unwrap(),
                    tx["to"].as_str().unwrap(),
                    entry
                ),
                "{what}: {tx}"
            );
            let data = alloy_primitives::hex::decode(
                tx["data"].as_str().unwrap().trim_start_matches("0x"),
            )
            .unwrap();
            let exec = IAllowanceHolderExec::execCall::abi_decode(&data).unwrap();
            assert_eq!(
                exec.amount.to_string(),
                inner(&quote).1["inputAmount"]["amount"],
                "{what}"
            );
            let selector = &exec.data[..4];
            match tamper {
                None => {
                    assert_eq!(exec.operator, exec.target, "{what}");
                    assert!(
                        selector == IGatewaySimViaHolder::offrampViaHolderCall::SELECTOR
                            || selector == IGatewaySimViaHolder::swapViaHolderCall::SELECTOR,
                        "{what}"
                    );
                    shaped.insert(route.src_chain.clone());
                }
                Some(Tamper::ExecSecondToken)
                    if sim
                        .catalogue()
                        .tokens()
                        .iter()
                        .filter(|t| t.chain == route.src_chain)
                        .filter(|t| {
                            !t.address
                                .starts_with("0x0000000000000000000000000000000000000000")
                        })
                        .count()
                        < 2 =>
                {
                    // No second token on this chain (Tron has USDT only): the lie does not apply.
                    assert_ne!(
                        selector,
                        IGatewaySimViaHolder::tamperedCall::SELECTOR,
                        "{what}"
                    );
                }
                Some(lie) => {
                    let tampered = IGatewaySimViaHolder::tamperedCall::abi_decode(&exec.data)
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                    let expected = match lie {
                        Tamper::ExecPullsMore => 1,
                        Tamper::ExecSecondToken => 2,
                        _ => 3,
                    };
                    assert_eq!(tampered.lie, expected, "{what}");
                    assert_eq!(
                        exec.operator != exec.target,
                        lie == Tamper::ExecStrangerPulls,
                        "{what}"
                    );
                }
            }
        }
    }
    assert!(
        shaped.contains("tron") && shaped.contains("bob"),
        "{shaped:?}"
    );
}
