//! Off the Sandbox, an onramp PSBT's fee-rate ceiling follows the network's current fast rate, read from a fee source
//! (here a loopback stand-in for mempool.space's `/api/v1/fees/recommended`); when the source cannot be read the fixed
//! ceiling applies. The gateway is gateway-sim, whose PSBTs pay 12 sat/vB.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::Router;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use desk_core::flow::{Flow, FlowError, QuoteOutcome};
use desk_core::journal::Journal;
use desk_core::verify::VerifyPolicy;
use gateway_client::address::BitcoinNetwork;
use gateway_client::{ApiVersion, Client, ClientConfig, QuoteRequest};
use gateway_sim::{Sim, SimConfig};

const EVM: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const OWNER: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
const BTC_SENDER: &str = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";
const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
const NATIVE: &str = "0x0000000000000000000000000000000000000000";

/// A fee source answering `{"fastestFee": N}` with the rate in `rate`, or 503 while it is 0.
async fn fee_source(rate: Arc<AtomicU64>) -> String {
    let app = Router::new().route(
        "/api/v1/fees/recommended",
        get(move || {
            let rate = rate.load(Ordering::SeqCst);
            async move {
                if rate == 0 {
                    StatusCode::SERVICE_UNAVAILABLE.into_response()
                } else {
                    axum::Json(serde_json::json!({
                        "fastestFee": rate, "halfHourFee": 1, "hourFee": 1, "economyFee": 1, "minimumFee": 1
                    }))
                    .into_response()
                }
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}/api/v1/fees/recommended")
}

#[tokio::test]
async fn the_psbt_fee_rate_is_capped_by_the_networks_current_fast_rate() {
    let sim = Sim::with_config(SimConfig {
        access: gateway_sim::access::AccessConfig::unlimited(),
        ..SimConfig::default()
    })
    .unwrap();
    let running = sim
        .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let mut config = ClientConfig::new(running.base_url().parse().unwrap());
    config.version = ApiVersion::V3;
    config.read_attempts = 1;
    let client = Client::new(config).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let journal = Journal::open(&dir.path().join("journal.sqlite")).unwrap();
    let rate = Arc::new(AtomicU64::new(0));
    let source = fee_source(rate.clone()).await;
    let flow = Flow {
        client: &client,
        journal: &journal,
        network: "custom:test",
        // A network whose contracts the app does not know: its fixed ceiling is 500 sat/vB.
        policy: VerifyPolicy::strict(BitcoinNetwork::Mainnet),
        fee_source: Some(&source),
    };
    let mut request = QuoteRequest::new(("bitcoin", NATIVE), ("bob", WBTC_BOB), "1000123", EVM);
    request.sender = Some(BTC_SENDER.to_owned());
    request.owner_address = Some(OWNER.to_owned());
    let order = async |fast: u64| {
        rate.store(fast, Ordering::SeqCst);
        let QuoteOutcome::Quote(quote, _) = flow.quote(&request).await.unwrap() else {
            panic!("a question")
        };
        let accepted = flow.accept(&quote).unwrap();
        flow.create(accepted.local_id).await
    };

    // A quiet mempool (2 sat/vB fast): the ceiling is 10 sat/vB, and the sim's 12 sat/vB PSBT is refused.
    match order(2).await {
        Err(FlowError::Refused(reason)) => {
            assert!(
                reason.contains("sat/vB") && reason.contains("10 sat/vB"),
                "{reason}"
            )
        }
        other => panic!("not refused: {other:?}"),
    }
    // A busier one (5 sat/vB fast): ceiling 15, the PSBT passes.
    let step = order(5).await.unwrap();
    assert!(step.verified.is_some());
    // The source is down: the fixed ceiling (500 sat/vB) applies, and the PSBT passes.
    let step = order(0).await.unwrap();
    assert!(step.verified.is_some());
}
