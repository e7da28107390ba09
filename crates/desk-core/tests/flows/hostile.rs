//! A hostile gateway: every tamper of gateway-sim's tampering mode, on every route shape and API version it applies
//! to, is refused by desk-core's swap flow before anything is shown to sign, with a sentence; the honest answers pass,
//! also when the request spells its addresses otherwise (EVM in lower case, Tron as `41…` hex).

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::net::{Ipv4Addr, SocketAddr};

use desk_core::flow::{Flow, FlowError, QuoteOutcome};
use desk_core::journal::{Journal, Stage};
use desk_core::verify::VerifyPolicy;
use gateway_client::address::BitcoinNetwork;
use gateway_client::wire::{RouteInfo, RouteKind};
use gateway_client::{ApiVersion, Client, ClientConfig, QuoteRequest};
use gateway_sim::tamper::Tamper;
use gateway_sim::{Sim, SimConfig, integrity, pricing};
use serde_json::Value;

const VERSIONS: [ApiVersion; 4] = [
    ApiVersion::V1,
    ApiVersion::V2,
    ApiVersion::V3,
    ApiVersion::V4,
];
const EVM: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const OWNER: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
const BTC_ADDR: &str = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";
const TRON_ADDR: &str = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7";
const SOL_ADDR: &str = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const NETWORK: &str = "sandbox";

fn address_on(chain: &str) -> &'static str {
    match chain {
        "bitcoin" => BTC_ADDR,
        "tron" => TRON_ADDR,
        "solana" => SOL_ADDR,
        _ => EVM,
    }
}

/// About 1000 USD of the route's source token, ending in 123 (an order that succeeds).
fn amount_for(sim: &Sim, route: &RouteInfo) -> String {
    let token = sim
        .catalogue()
        .find(&route.src_chain, &route.src_token)
        .unwrap();
    let base = pricing::amount_for_usd_micro(1_000_000_000, pricing::price_of(token).unwrap());
    let base = base - base % alloy_primitives::U256::from(1_000u32);
    (base + alloy_primitives::U256::from(123u32)).to_string()
}

/// The request a person would make for `route`: a sender everywhere (an onramp's PSBT, a Solana fee payer), the owner
/// on V3.
fn request_for(sim: &Sim, version: ApiVersion, route: &RouteInfo) -> QuoteRequest {
    let mut request = QuoteRequest::new(
        (&route.src_chain, &route.src_token),
        (&route.dst_chain, &route.dst_token),
        &amount_for(sim, route),
        address_on(&route.dst_chain),
    );
    request.sender = Some(address_on(&route.src_chain).to_owned());
    if version == ApiVersion::V3 {
        request.owner_address = Some(OWNER.to_owned());
    }
    if version == ApiVersion::V4 {
        // The sender's own address, as the app sends it.
        request.refund_address = request.sender.clone();
    }
    request
}

fn client(base: &str, version: ApiVersion) -> Client {
    let mut config = ClientConfig::new(base.parse().unwrap());
    config.version = version;
    config.read_attempts = 1;
    Client::new(config).unwrap()
}

fn inner(envelope: &Value) -> &serde_json::Map<String, Value> {
    envelope
        .as_object()
        .and_then(|m| m.values().next())
        .and_then(Value::as_object)
        .unwrap()
}

/// One route per kind and source chain: every payload shape, without every token.
fn shapes(sim: &Sim, version: ApiVersion) -> Vec<RouteInfo> {
    let mut seen = HashSet::new();
    sim.catalogue()
        .routes(version)
        .into_iter()
        .filter(|r| seen.insert((r.kind(), r.src_chain.clone(), r.dst_chain == "bitcoin")))
        .collect()
}

#[tokio::test]
async fn every_tamper_is_refused_before_anything_is_shown_to_sign() {
    let (sim, running, _dir, journal) = sim_and_journal().await;
    let policy = VerifyPolicy::sandbox(BitcoinNetwork::Mainnet);
    let mut refusals: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for version in VERSIONS {
        let client = client(&running.base_url(), version);
        let flow = Flow {
            client: &client,
            journal: &journal,
            network: NETWORK,
            policy,
            fee_source: None,
        };
        for route in shapes(&sim, version) {
            let request = request_for(&sim, version, &route);
            for tamper in Tamper::ALL {
                let what = format!("{version:?} {route:?} {tamper:?}");
                let outcome = {
                    sim.tamper().set(Some(tamper));
                    let outcome = flow.quote(&request).await;
                    sim.tamper().set(None);
                    outcome
                };
                let quote = match outcome {
                    Err(FlowError::Refused(reason)) => {
                        assert!(
                            tamper.is_quote_tamper(),
                            "{what}: refused an honest quote: {reason}"
                        );
                        assert!(reason.contains("Do not accept"), "{what}: {reason}");
                        refusals
                            .entry(format!("{tamper:?}"))
                            .or_default()
                            .insert(reason);
                        continue;
                    }
                    Ok(QuoteOutcome::Quote(quote, _)) => quote,
                    other => panic!("{what}: {other:?}"),
                };
                if tamper.is_quote_tamper() {
                    // Passed: the tamper must not have applied to this route (compare with the lie itself).
                    sim.tamper().set(Some(tamper));
                    let lied = client.get_quote(&request).await.unwrap();
                    sim.tamper().set(None);
                    let kind = route.kind();
                    assert_eq!(
                        integrity::material(kind, inner(lied.value.raw())),
                        integrity::material(kind, inner(quote.raw())),
                        "{what}: a lie passed the quote check"
                    );
                    continue;
                }
                // An honest quote's fee lines add up.
                assert_eq!(
                    desk_core::verify::request::fees_mismatch(&quote),
                    None,
                    "{what}"
                );
                let order = flow.accept(&quote).unwrap();
                sim.tamper().set(Some(tamper));
                let created = flow.create(order.local_id).await;
                sim.tamper().set(None);
                match created {
                    Err(FlowError::Refused(reason)) => {
                        assert!(reason.contains("Do not"), "{what}: {reason}");
                        let stored = journal.order(order.local_id).unwrap();
                        assert_eq!(stored.stage, Stage::Refused, "{what}");
                        refusals
                            .entry(format!("{tamper:?}"))
                            .or_default()
                            .insert(reason);
                    }
                    Err(FlowError::Desk(e)) if e.message.contains("Do not pay or sign") => {
                        // gateway-client's own check of the answer against the quote (V1's `tx`) refused it first.
                        refusals
                            .entry(format!("{tamper:?}"))
                            .or_default()
                            .insert(e.message);
                    }
                    Ok(step) => {
                        // Passed: the answer must be the honest one.
                        let order_id = step.order.order_id.clone().unwrap();
                        let honest = sim.order(&order_id).unwrap().created;
                        assert_eq!(
                            step.order.created.as_ref(),
                            Some(&honest),
                            "{what}: a tampered order passed verification: {:?}",
                            step.verified.map(|v| v.sentence)
                        );
                    }
                    Err(other) => panic!("{what}: {other:?}"),
                }
            }
        }
    }
    for tamper in Tamper::ALL {
        let name = format!("{tamper:?}");
        assert!(
            refusals.contains_key(&name),
            "{name} was never refused (it never applied, or it passed)"
        );
    }
    for (tamper, reasons) in &refusals {
        println!("{tamper}:");
        for reason in reasons {
            println!("  {reason}");
        }
    }
}

/// The same account spelled otherwise: EVM in lower case, the test Tron account as `41…` hex.
fn respell(address: &str, tron_hex: &str) -> String {
    if address == TRON_ADDR {
        tron_hex.to_owned()
    } else if address.starts_with("0x") {
        address.to_ascii_lowercase()
    } else {
        address.to_owned()
    }
}

/// An unlimited sim on loopback and an empty journal beside it.
async fn sim_and_journal() -> (Sim, gateway_sim::RunningSim, tempfile::TempDir, Journal) {
    let sim = Sim::with_config(SimConfig {
        access: gateway_sim::access::AccessConfig::unlimited(),
        ..Default::default()
    })
    .unwrap();
    let running = sim
        .clone()
        .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let journal = Journal::open(&dir.path().join("journal.sqlite")).unwrap();
    (sim, running, dir, journal)
}

#[tokio::test]
async fn honest_answers_pass_with_addresses_spelled_otherwise() {
    let (sim, running, _dir, journal) = sim_and_journal().await;
    let client = client(&running.base_url(), ApiVersion::V3);
    let flow = Flow {
        client: &client,
        journal: &journal,
        network: NETWORK,
        policy: VerifyPolicy::sandbox(BitcoinNetwork::Mainnet),
        fee_source: None,
    };
    let tron_hex = {
        let raw = bitcoin::base58::decode_check(TRON_ADDR).unwrap();
        alloy_primitives::hex::encode(raw)
    };
    let mut passed = 0;
    for route in shapes(&sim, ApiVersion::V3) {
        let mut request = request_for(&sim, ApiVersion::V3, &route);
        request.recipient = respell(&request.recipient, &tron_hex);
        request.sender = request.sender.as_deref().map(|a| respell(a, &tron_hex));
        request.owner_address = request
            .owner_address
            .as_deref()
            .map(|a| respell(a, &tron_hex));
        let quote = match flow.quote(&request).await {
            Ok(QuoteOutcome::Quote(quote, _)) => quote,
            Err(FlowError::Desk(e)) => {
                // The gateway itself may not take an address spelling (Tron hex); that is not the app's check.
                println!("{route:?}: the gateway refused the spelling: {e}");
                continue;
            }
            other => panic!("{route:?}: {other:?}"),
        };
        let order = flow.accept(&quote).unwrap();
        let step = flow.create(order.local_id).await.unwrap();
        assert!(step.verified.is_some(), "{route:?}");
        passed += 1;
    }
    assert!(passed >= 5, "only {passed} routes passed");
    let _ = RouteKind::Onramp;
}
