//! API keys, rate limits and injected faults, seen through `gateway-client` as the app sees them.

use crate::support;

use std::time::Duration;

use gateway_client::{ApiKey, ApiVersion, Client, ClientConfig, ClientError, ErrorCode};
use gateway_sim::access::AccessConfig;
use gateway_sim::faults::{EndpointMatch, Fault, FaultRule};
use gateway_sim::{RunningSim, Sim, SimConfig};
use serde_json::Value;
use support::start_with;

const KEY: &str = "sk-test-0123456789abcdef01234567";
const OTHER_KEY: &str = "sk-test-76543210fedcba9876543210";

fn client_with(running: &RunningSim, key: Option<&str>) -> Client {
    let mut config = ClientConfig::new(running.base_url().parse().unwrap());
    config.version = ApiVersion::V3;
    config.read_attempts = 1;
    config.api_key = key.map(|k| ApiKey::new(k).unwrap());
    config.timeout = Duration::from_secs(2);
    Client::new(config).unwrap()
}

async fn limited(keyless: u32, keyed: u32) -> (Sim, RunningSim) {
    assert_eq!(KEY.len(), 32);
    let sim = Sim::with_config(SimConfig {
        access: AccessConfig {
            keys: vec![KEY.into()],
            keyless_per_minute: keyless,
            keyed_per_minute: keyed,
        },
        ..SimConfig::default()
    })
    .unwrap();
    start_with(sim).await
}

#[tokio::test]
async fn a_key_gets_a_higher_limit_than_keyless_callers_and_429_says_when_to_retry() {
    let (_sim, running) = limited(3, 6).await;
    let keyless = client_with(&running, None);
    for _ in 0..3 {
        keyless.get_routes().await.unwrap();
    }
    let err = keyless.get_routes().await.unwrap_err();
    let ClientError::RateLimited { retry_after } = err else {
        panic!("{err:?}")
    };
    assert!(retry_after.is_some_and(|wait| wait >= Duration::from_secs(1)));

    // The keyed caller has its own, larger allowance.
    let keyed = client_with(&running, Some(KEY));
    for _ in 0..6 {
        keyed.get_routes().await.unwrap();
    }
    assert!(matches!(
        keyed.get_routes().await,
        Err(ClientError::RateLimited { .. })
    ));

    // The raw 429: EXCEEDED_LIMIT with its limit, and Retry-After.
    let response = reqwest::get(format!("{}/v3/get-routes", running.base_url()))
        .await
        .unwrap();
    assert_eq!(response.status(), 429);
    let retry: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry >= 1);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "EXCEEDED_LIMIT");
    assert_eq!(body["details"]["limit"], "3 requests per minute");
    running.shutdown().await.unwrap();
}

#[tokio::test]
async fn unknown_and_malformed_keys_get_a_401_with_the_error_body() {
    let (_sim, running) = limited(100, 100).await;
    let err = client_with(&running, Some(OTHER_KEY))
        .get_routes()
        .await
        .unwrap_err();
    let ClientError::Gateway { status, body } = err else {
        panic!("{err:?}")
    };
    assert_eq!(status, 401);
    assert_eq!(body.code, ErrorCode::InvalidRequest);
    assert!(body.error.contains("key"), "{}", body.error);
    assert!(!body.error.contains(OTHER_KEY), "the key is never echoed");

    // The client refuses to send a malformed key; raw, the gateway answers 401 too.
    let http = reqwest::Client::new();
    for header in ["Bearer short", "Basic abc", "Bearer"] {
        let response = http
            .get(format!("{}/v3/get-routes", running.base_url()))
            .header("authorization", header)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 401, "{header}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], "INVALID_REQUEST");
    }
    // Keyless use needs no key at all.
    client_with(&running, None).get_routes().await.unwrap();
    client_with(&running, Some(KEY)).get_routes().await.unwrap();
    running.shutdown().await.unwrap();
}

#[tokio::test]
async fn each_injected_fault_reaches_the_client_as_a_clear_error() {
    let (sim, running) = support::start().await;
    let client = client_with(&running, None);
    let faults = sim.faults();
    let once = |fault: Fault| FaultRule::new(EndpointMatch::GetRoutes, fault).times(1);

    faults.add(once(Fault::Status { code: 503 })).unwrap();
    assert!(matches!(
        client.get_routes().await,
        Err(ClientError::Server { status: 503, .. })
    ));

    faults.add(once(Fault::Html { status: 403 })).unwrap();
    let err = client.get_routes().await.unwrap_err();
    assert!(
        matches!(err, ClientError::UnexpectedBody { status: 403, .. }),
        "{err:?}"
    );

    faults.add(once(Fault::MalformedJson)).unwrap();
    let err = client.get_routes().await.unwrap_err();
    assert!(
        matches!(err, ClientError::UnexpectedBody { status: 200, .. }),
        "{err:?}"
    );

    faults
        .add(once(Fault::RateLimit {
            retry_after_secs: 7,
            limit_per_minute: 120,
        }))
        .unwrap();
    let err = client.get_routes().await.unwrap_err();
    assert!(
        matches!(err, ClientError::RateLimited { retry_after: Some(wait) } if wait == Duration::from_secs(7)),
        "{err:?}"
    );

    faults.add(once(Fault::Drop)).unwrap();
    let err = client.get_routes().await.unwrap_err();
    assert!(
        matches!(err, ClientError::Transport(_) | ClientError::Connect(_)),
        "{err:?}"
    );

    faults.add(once(Fault::Latency { ms: 3000 })).unwrap();
    let err = client.get_routes().await.unwrap_err();
    assert!(matches!(err, ClientError::Timeout(_)), "{err:?}");

    // Rules are used up; the next call is answered normally. A write that meets a 5xx is ambiguous.
    client.get_routes().await.unwrap();
    faults
        .add(FaultRule::new(EndpointMatch::CreateOrder, Fault::Status { code: 500 }).times(1))
        .unwrap();
    let quote = client
        .get_quote(&gateway_client::QuoteRequest::new(
            ("bitcoin", gateway_client::wire::NATIVE_TOKEN),
            ("bob", "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c"),
            "100000",
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        ))
        .await
        .unwrap()
        .value;
    let err = client.create_order(&quote).await.unwrap_err();
    assert!(err.is_ambiguous_write(), "{err:?}");
    assert!(
        sim.orders().is_empty(),
        "a 5xx before the handler created nothing"
    );

    // dropAfter: the order is created, the answer lost; the client says the write is ambiguous.
    faults
        .add(FaultRule::new(EndpointMatch::CreateOrder, Fault::DropAfter).times(1))
        .unwrap();
    let err = client.create_order(&quote).await.unwrap_err();
    assert!(err.is_ambiguous_write(), "{err:?}");
    assert_eq!(
        sim.orders().len(),
        1,
        "the order exists although its answer was lost"
    );
    running.shutdown().await.unwrap();
}

#[tokio::test]
async fn a_foreign_host_or_a_non_json_body_is_refused_before_any_handler() {
    let (sim, running) = support::start().await;
    let http = reqwest::Client::new();
    let before = sim.orders().len();
    let quote = client_with(&running, None)
        .get_quote(&gateway_client::QuoteRequest::new(
            ("bob", "0x05D032ac25d322df992303dCa074EE7392C117b9"),
            ("ethereum", "0xdac17f958d2ee523a2206206994597c13d831ec7"),
            "50000123",
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        ))
        .await
        .unwrap();
    let body = quote.value.raw().to_string();
    // A DNS-rebinding page: the browser sends its own host name to 127.0.0.1.
    let rebound = http
        .post(format!("{}/v3/create-order", running.base_url()))
        .header("host", "attacker.example")
        .header("content-type", "application/json")
        .body(body.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(rebound.status(), 400);
    let refusal: serde_json::Value = rebound.json().await.unwrap();
    assert_eq!(refusal["code"], "INVALID_REQUEST");
    assert!(
        refusal["error"].as_str().unwrap().starts_with("Host:"),
        "{refusal}"
    );
    // A cross-site form post: no JSON content type.
    for content_type in [
        None,
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
    ] {
        let mut request = http
            .post(format!("{}/v3/create-order", running.base_url()))
            .body(body.clone());
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 400, "{content_type:?}");
    }
    assert_eq!(sim.orders().len(), before, "nothing was created");
    // The same body as JSON, to a loopback name with a port, is taken.
    for host in ["localhost", "127.0.0.1:9", "[::1]:80"] {
        let ok = http
            .get(format!("{}/v3/get-routes", running.base_url()))
            .header("host", host)
            .send()
            .await
            .unwrap();
        assert_eq!(ok.status(), 200, "{host}");
    }
    let created = http
        .post(format!("{}/v3/create-order", running.base_url()))
        .header("content-type", "application/json; charset=utf-8")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
}

#[tokio::test]
async fn the_admin_fault_interface_is_loopback_only_and_off_by_default() {
    let (_sim, running) = support::start().await;
    let http = reqwest::Client::new();
    let response = http
        .post(format!("{}/admin/faults", running.base_url()))
        .header("content-type", "application/json")
        .body(r#"{"endpoint":"get-quote","fault":"drop"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404, "off by default");

    let sim = Sim::with_config(SimConfig {
        admin: true,
        access: AccessConfig::unlimited(),
        ..SimConfig::default()
    })
    .unwrap();
    let (_sim, running) = start_with(sim).await;
    let response = http
        .post(format!("{}/admin/faults", running.base_url()))
        .header("content-type", "application/json")
        .body(
            r#"{"endpoint":"get-routes","version":"v3","fault":{"status":{"code":502}},"times":1}"#,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    let client = client_with(&running, None);
    assert!(matches!(
        client.get_routes().await,
        Err(ClientError::Server { status: 502, .. })
    ));
    client.get_routes().await.unwrap();
    running.shutdown().await.unwrap();
}

/// Reads from `stream` until the peer closes it (or `limit` passes): whether it was closed, and what was read.
async fn read_until_closed(stream: &mut tokio::net::TcpStream, limit: Duration) -> (bool, String) {
    use tokio::io::AsyncReadExt;
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (true, String::from_utf8_lossy(&seen).into_owned()),
            Ok(Ok(n)) => seen.extend_from_slice(&buf[..n]),
            Err(_) => return (false, String::from_utf8_lossy(&seen).into_owned()),
        }
    }
}

#[tokio::test]
async fn unfinished_heads_are_cut_off_and_open_connections_are_capped() {
    use tokio::io::AsyncWriteExt;
    let sim = Sim::with_config(SimConfig {
        header_read_timeout: Duration::from_millis(500),
        max_connections: 4,
        ..SimConfig::default()
    })
    .unwrap();
    let (_sim, running) = start_with(sim).await;
    let addr = running.addr();

    // A head that never ends: closed after the header-read timeout, not held for ever.
    let mut slow = tokio::net::TcpStream::connect(addr).await.unwrap();
    slow.write_all(b"GET /v3/get-routes HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .unwrap();
    let (closed, _) = read_until_closed(&mut slow, Duration::from_secs(5)).await;
    assert!(closed, "an unfinished head is cut off");

    // An idle kept-alive connection after a full request: closed too when no next head arrives.
    let mut idle = tokio::net::TcpStream::connect(addr).await.unwrap();
    idle.write_all(b"GET /v3/get-routes HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    let (closed, answer) = read_until_closed(&mut idle, Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(closed, "an idle kept-alive connection is cut off");

    // Four connections held open: a fifth is closed at once, and once they go, requests are served again.
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(tokio::net::TcpStream::connect(addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut fifth = tokio::net::TcpStream::connect(addr).await.unwrap();
    let _ = fifth
        .write_all(b"GET /v3/get-routes HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await;
    let (closed, answer) = read_until_closed(&mut fifth, Duration::from_millis(400)).await;
    assert!(
        closed && answer.is_empty(),
        "the fifth is closed unanswered: {answer:?}"
    );
    drop(held);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let client = client_with(&running, None);
    client.get_routes().await.unwrap();
}
