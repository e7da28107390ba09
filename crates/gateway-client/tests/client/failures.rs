//! Every kind of failure of item 3, produced by a loopback HTTP server, and how the client reports and retries it.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use gateway_client::{
    ApiKey, ApiVersion, Client, ClientConfig, ClientError, ErrorCode, ErrorDetails,
};
use tokio::net::TcpListener;

/// A server whose every answer comes from `respond(n)`, n being the number of the request (from 1).
async fn serve(
    respond: impl Fn(usize, HeaderMap) -> Response + Clone + Send + Sync + 'static,
) -> (String, Arc<AtomicUsize>) {
    let count = Arc::new(AtomicUsize::new(0));
    let counter = count.clone();
    let handler = move |headers: HeaderMap| {
        let n = counter.fetch_add(1, Ordering::SeqCst) + 1;
        let respond = respond.clone();
        async move { respond(n, headers) }
    };
    let app = Router::new().fallback(any(handler));
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}"), count)
}

fn client(base: &str, attempts: u32) -> Client {
    let mut config = ClientConfig::new(base.parse().unwrap());
    config.read_attempts = attempts;
    config.initial_backoff = Duration::from_millis(10);
    config.timeout = Duration::from_millis(500);
    Client::new(config).unwrap()
}

const ROUTES: &str = r#"[{"srcChain":"bitcoin","srcToken":"BTC","dstChain":"bob","dstToken":"0x0555E30da8f98308EdB960aa94C0Db47230d2B9c"}]"#;

fn json(status: StatusCode, body: &'static str) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

#[tokio::test]
async fn a_timeout_is_retried_then_reported_as_a_timeout() {
    let count = Arc::new(AtomicUsize::new(0));
    let counter = count.clone();
    let app = Router::new().fallback(any(move || {
        counter.fetch_add(1, Ordering::SeqCst);
        async {
            tokio::time::sleep(Duration::from_secs(5)).await;
            json(StatusCode::OK, ROUTES)
        }
    }));
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let err = client(&format!("http://{addr}"), 2)
        .get_routes()
        .await
        .unwrap_err();
    assert!(matches!(err, ClientError::Timeout(_)), "{err:?}");
    assert!(err.is_transient());
    assert_eq!(count.load(Ordering::SeqCst), 2, "a read is tried again");
}

#[tokio::test]
async fn a_refused_connection_is_a_connect_error() {
    let port = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let err = client(&format!("http://127.0.0.1:{port}"), 1)
        .get_routes()
        .await
        .unwrap_err();
    assert!(matches!(err, ClientError::Connect(_)), "{err:?}");
    assert!(
        err.to_string().contains(&format!(
            "nothing answers at 127.0.0.1:{port} (the connection was refused)"
        )),
        "{err}"
    );
    assert!(!err.is_tls());
}

#[tokio::test]
async fn https_to_a_plain_http_server_is_a_tls_failure_in_words() {
    let (base, _) = serve(|_, _| json(StatusCode::OK, ROUTES)).await;
    let err = client(&base.replace("http://", "https://"), 1)
        .get_routes()
        .await
        .unwrap_err();
    assert!(err.is_tls(), "{err:?}");
    let text = err.to_string();
    assert!(
        text.contains("the secure connection (TLS) failed with 127.0.0.1:"),
        "{text}"
    );
}

#[tokio::test]
async fn an_html_page_from_a_cdn_is_not_parsed_as_an_answer() {
    let (base, count) = serve(|_, _| {
        (
            StatusCode::FORBIDDEN,
            [(header::CONTENT_TYPE, "text/html")],
            "<html><body>Access denied</body></html>",
        )
            .into_response()
    })
    .await;
    let err = client(&base, 3).get_routes().await.unwrap_err();
    match &err {
        ClientError::UnexpectedBody { status, snippet } => {
            assert_eq!(*status, 403);
            assert!(snippet.contains("Access denied"), "{snippet}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(count.load(Ordering::SeqCst), 1, "a 403 is not retried");
    let (base, _) = serve(|_, _| (StatusCode::OK, "<html>not json</html>").into_response()).await;
    let err = client(&base, 1).get_routes().await.unwrap_err();
    assert!(
        matches!(err, ClientError::UnexpectedBody { status: 200, .. }),
        "{err:?}"
    );
}

#[tokio::test]
async fn a_404_without_a_body_is_not_found() {
    let (base, _) = serve(|_, _| StatusCode::NOT_FOUND.into_response()).await;
    let err = client(&base, 3).get_order("nope").await.unwrap_err();
    assert!(matches!(err, ClientError::NotFound), "{err:?}");
}

#[tokio::test]
async fn a_429_honours_retry_after() {
    let (base, count) = serve(|n, _| {
        if n == 1 {
            (
                StatusCode::TOO_MANY_REQUESTS,
                [(header::RETRY_AFTER, "1")],
                "",
            )
                .into_response()
        } else {
            json(StatusCode::OK, ROUTES)
        }
    })
    .await;
    let started = std::time::Instant::now();
    let routes = client(&base, 2).get_routes().await.unwrap().value;
    assert_eq!(routes.len(), 1);
    assert_eq!(count.load(Ordering::SeqCst), 2);
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "waited as the server asked"
    );

    let (base, _) = serve(|_, _| {
        (
            StatusCode::TOO_MANY_REQUESTS,
            [(header::RETRY_AFTER, "7")],
            "",
        )
            .into_response()
    })
    .await;
    let err = client(&base, 1).get_routes().await.unwrap_err();
    assert!(
        matches!(err, ClientError::RateLimited { retry_after: Some(d) } if d == Duration::from_secs(7)),
        "{err:?}"
    );
}

#[tokio::test]
async fn server_errors_are_retried_for_reads_and_reported() {
    let (base, count) = serve(|n, _| {
        if n < 3 {
            (StatusCode::BAD_GATEWAY, "upstream").into_response()
        } else {
            json(StatusCode::OK, ROUTES)
        }
    })
    .await;
    assert_eq!(client(&base, 3).get_routes().await.unwrap().value.len(), 1);
    assert_eq!(count.load(Ordering::SeqCst), 3);

    let (base, count) =
        serve(|_, _| (StatusCode::GATEWAY_TIMEOUT, "upstream timed out").into_response()).await;
    let err = client(&base, 2).get_routes().await.unwrap_err();
    assert!(
        matches!(err, ClientError::Server { status: 504, .. }),
        "{err:?}"
    );
    assert_eq!(count.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_dropped_connection_is_a_transport_failure() {
    let listener = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(2) {
            drop(stream);
        }
    });
    let err = client(&format!("http://{addr}"), 2)
        .get_routes()
        .await
        .unwrap_err();
    assert!(
        matches!(err, ClientError::Transport(_) | ClientError::Connect(_)),
        "{err:?}"
    );
}

#[tokio::test]
async fn coded_errors_are_typed_and_never_retried() {
    let (base, count) = serve(|_, _| {
        json(
            StatusCode::BAD_REQUEST,
            r#"{"code":"QUOTE_AMOUNT_TOO_LOW","error":"amount too low","details":{"minimum":"10000","actual":"5000"}}"#,
        )
    })
    .await;
    let err = client(&base, 3).get_routes().await.unwrap_err();
    let ClientError::Gateway { status, body } = err else {
        panic!("not a gateway error")
    };
    assert_eq!(status, 400);
    assert_eq!(body.code, ErrorCode::QuoteAmountTooLow);
    assert_eq!(
        body.typed_details(),
        Some(ErrorDetails::MinimumActual {
            minimum: "10000".into(),
            actual: "5000".into()
        })
    );
    assert_eq!(count.load(Ordering::SeqCst), 1);

    let (base, _) = serve(|_, _| {
        json(
            StatusCode::BAD_REQUEST,
            r#"{"code":"SOMETHING_NEW","error":"new"}"#,
        )
    })
    .await;
    let err = client(&base, 1).get_routes().await.unwrap_err();
    assert!(
        matches!(err, ClientError::Gateway { body, .. } if body.code == ErrorCode::Other("SOMETHING_NEW".into()))
    );
}

#[tokio::test]
async fn the_api_key_is_sent_as_a_bearer_token_on_every_request() {
    let (base, _) = serve(|_, headers| {
        let auth = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned();
        if auth == "Bearer 0123456789abcdef0123456789abcdef" {
            json(StatusCode::OK, ROUTES)
        } else {
            (StatusCode::UNAUTHORIZED, auth).into_response()
        }
    })
    .await;
    let mut config = ClientConfig::new(base.parse().unwrap());
    config.api_key = Some(ApiKey::new("0123456789abcdef0123456789abcdef").unwrap());
    let client = Client::new(config).unwrap();
    assert_eq!(client.get_routes().await.unwrap().value.len(), 1);
    assert!(
        !format!("{client:?}").contains("0123456789abcdef"),
        "Debug never shows the key"
    );
}

#[tokio::test]
async fn v1_refuses_paging_parameters_before_sending() {
    let (base, count) = serve(|_, _| json(StatusCode::OK, "[]")).await;
    let mut config = ClientConfig::new(base.parse().unwrap());
    config.version = ApiVersion::V1;
    let client = Client::new(config).unwrap();
    let err = client
        .get_orders("0xabc", Some("c1"), None)
        .await
        .unwrap_err();
    assert!(matches!(err, ClientError::Invalid(_)), "{err:?}");
    assert_eq!(count.load(Ordering::SeqCst), 0, "nothing was sent");
    assert!(
        client
            .get_orders("0xabc", None, None)
            .await
            .unwrap()
            .value
            .orders
            .is_empty()
    );
}

#[tokio::test]
async fn the_pager_walks_every_page_and_stops_on_a_repeated_cursor() {
    let (base, count) = serve(|n, _| match n {
        1 => json(StatusCode::OK, r#"{"orders":[],"nextCursor":"c2"}"#),
        2 => json(StatusCode::OK, r#"{"orders":[],"nextCursor":"c3"}"#),
        _ => json(StatusCode::OK, r#"{"orders":[],"nextCursor":null}"#),
    })
    .await;
    assert!(
        client(&base, 1)
            .orders_pager("0xabc", Some(10))
            .collect_all()
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(count.load(Ordering::SeqCst), 3);

    let (base, count) =
        serve(|_, _| json(StatusCode::OK, r#"{"orders":[],"nextCursor":"same"}"#)).await;
    let err = client(&base, 1)
        .orders_pager("0xabc", None)
        .collect_all()
        .await
        .unwrap_err();
    assert!(matches!(err, ClientError::UnexpectedBody { .. }), "{err:?}");
    assert_eq!(count.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn get_routes_works_against_the_plain_happy_path() {
    let app = Router::new().route(
        "/v3/get-routes",
        get(|| async { json(StatusCode::OK, ROUTES) }),
    );
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let answer = client(&format!("http://{addr}"), 1)
        .get_routes()
        .await
        .unwrap();
    assert_eq!(answer.value[0].src_token, "BTC");
    assert_eq!(answer.raw[0]["srcToken"], "BTC", "the raw answer is kept");
}

fn example_quote() -> gateway_client::wire::Quote {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/examples/v3/get-quote-onramp.json"
    );
    gateway_client::wire::Quote::from_json(
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap(),
    )
    .unwrap()
}

#[tokio::test]
async fn create_order_is_never_retried_and_a_lost_answer_is_ambiguous() {
    let (base, count) =
        serve(|_, _| (StatusCode::SERVICE_UNAVAILABLE, "busy").into_response()).await;
    let err = client(&base, 5)
        .create_order(&example_quote())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, ClientError::AmbiguousWrite(inner) if matches!(**inner, ClientError::Server { status: 503, .. })),
        "a 5xx may come after the order was made: {err:?}"
    );
    assert_eq!(
        count.load(Ordering::SeqCst),
        1,
        "a write is sent once, whatever the read attempts"
    );

    let count = Arc::new(AtomicUsize::new(0));
    let counter = count.clone();
    let app = Router::new().fallback(any(move || {
        counter.fetch_add(1, Ordering::SeqCst);
        async {
            tokio::time::sleep(Duration::from_secs(5)).await;
            StatusCode::CREATED
        }
    }));
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let err = client(&format!("http://{addr}"), 5)
        .create_order(&example_quote())
        .await
        .unwrap_err();
    assert!(err.is_ambiguous_write(), "{err:?}");
    assert!(err.to_string().contains("look the order up"), "{err}");
    assert_eq!(count.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_create_order_answer_that_does_not_fit_the_quote_is_refused() {
    // An onramp quote answered with a token-swap order.
    let (base, _) = serve(|_, _| {
        json(
            StatusCode::CREATED,
            r#"{"tokenSwap":{"order_id":"o-9","tx":{"type":"evm","to":"0x1111111111111111111111111111111111111111","data":"0x","value":"0","chain":"bob"}}}"#,
        )
    })
    .await;
    let err = client(&base, 1)
        .create_order(&example_quote())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, ClientError::Mismatch(m) if m.contains("o-9") && m.contains("Do not pay")),
        "{err:?}"
    );

    // A success the client cannot read keeps the whole answer (the order id is in it) and is ambiguous.
    let (base, _) =
        serve(|_, _| json(StatusCode::CREATED, r#"{"onramp":{"order_id":"o-10"}}"#)).await;
    let err = client(&base, 1)
        .create_order(&example_quote())
        .await
        .unwrap_err();
    assert!(err.is_ambiguous_write(), "{err:?}");
    assert!(err.to_string().contains("o-10"), "{err}");
}

#[tokio::test]
async fn the_api_key_never_travels_over_plain_http_to_another_host() {
    let mut config = ClientConfig::new("http://gateway.example.com".parse().unwrap());
    config.api_key = Some(ApiKey::new("0123456789abcdef0123456789abcdef").unwrap());
    let err = Client::new(config.clone()).unwrap_err();
    assert!(matches!(err, ClientError::Invalid(_)), "{err:?}");
    assert!(!err.to_string().contains("0123456789abcdef"));
    config.base_url = "https://gateway.example.com".parse().unwrap();
    assert!(Client::new(config.clone()).is_ok());
    config.base_url = "http://127.0.0.1:8787".parse().unwrap();
    assert!(Client::new(config).is_ok(), "loopback is fine");
}

#[tokio::test]
async fn an_unknown_status_does_not_break_a_page() {
    let (base, _) = serve(|_, _| {
        json(
            StatusCode::OK,
            r#"{"orders":[{"id":"a","timestamp":1,"status":{"paused":{}},
                 "srcInfo":{"chain":"bitcoin","token":"BTC","amount":"1"},"dstInfo":{"chain":"bob","token":"0x0","amount":"1"}},
                {"id":"b","timestamp":2,"status":{"failed":{"refund_tx":null}},
                 "srcInfo":{"chain":"bitcoin","token":"BTC","amount":"1"},"dstInfo":{"chain":"bob","token":"0x0","amount":"1"}}],
               "nextCursor":null}"#,
        )
    })
    .await;
    let page = client(&base, 1)
        .get_orders("0xabc", None, None)
        .await
        .unwrap()
        .value;
    assert_eq!(page.orders.len(), 2);
    assert!(
        !page.orders[0].status.is_terminal(),
        "an unknown status keeps the order watched"
    );
    assert!(page.orders[1].status.is_terminal());
}

#[tokio::test]
async fn registrations_are_checked_before_they_are_sent() {
    use gateway_client::wire::RegisterTx;
    let (base, count) = serve(|_, _| json(StatusCode::OK, r#""ok""#)).await;
    let mut config = ClientConfig::new(base.parse().unwrap());
    config.version = ApiVersion::V2;
    let v2 = Client::new(config).unwrap();
    let solana_sig =
        "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW";
    let err = v2
        .register_tx(&RegisterTx::token_swap("o-1", solana_sig, "solana"))
        .await
        .unwrap_err();
    assert!(
        matches!(err, ClientError::Invalid(_)),
        "V2 carries only evm_txhash: {err:?}"
    );
    let err = v2
        .register_tx(&RegisterTx::onramp("o-1", None, None))
        .await
        .unwrap_err();
    assert!(matches!(err, ClientError::Invalid(_)), "{err:?}");
    // The genesis coinbase transaction and a txid that is not its own.
    let genesis = "01000000010000000000000000000000000000000000000000000000000000000000000000ffffffff4d04ffff001d0104455468652054696d65732030332f4a616e2f32303039204368616e63656c6c6f72206f6e206272696e6b206f66207365636f6e64206261696c6f757420666f722062616e6b73ffffffff0100f2052a01000000434104678afdb0fe5548271967f1a67130b7105cd6a828e03909a67962e0ea1f61deb649f6bc3f4cef38c4f35504e51ec112de5c384df7ba0b8d578a4c702b6bf11d5fac00000000";
    let other = "0".repeat(64);
    let err = v2
        .register_tx(&RegisterTx::onramp("o-1", Some(genesis), Some(&other)))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, ClientError::Invalid(e) if e.to_string().contains("not the txid")),
        "{err:?}"
    );
    assert_eq!(count.load(Ordering::SeqCst), 0, "nothing was sent");
    let txid = "4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b";
    v2.register_tx(&RegisterTx::onramp("o-1", Some(genesis), Some(txid)))
        .await
        .unwrap();
    assert_eq!(count.load(Ordering::SeqCst), 1);
}

/// A redirect to another origin (another port here; another host or https → http alike) is not followed: the other
/// server sees nothing, in particular no API key, and the error says why.
#[tokio::test]
async fn a_redirect_to_another_origin_is_not_followed_and_the_key_stays_home() {
    let (elsewhere, elsewhere_hits) = serve(|_, _| json(StatusCode::OK, ROUTES)).await;
    let target = format!("{elsewhere}/v3/get-routes");
    let (base, _) = serve(move |_, _| {
        (
            StatusCode::TEMPORARY_REDIRECT,
            [(header::LOCATION, target.clone())],
        )
            .into_response()
    })
    .await;
    let mut config = ClientConfig::new(base.parse().unwrap());
    config.read_attempts = 1;
    config.api_key = Some(ApiKey::new("0123456789abcdef0123456789abcdef").unwrap());
    let err = Client::new(config).unwrap().get_routes().await.unwrap_err();
    assert!(matches!(err, ClientError::Transport(_)), "{err:?}");
    let text = err.to_string();
    assert!(text.contains("another origin"), "{text}");
    assert!(!text.contains("0123456789abcdef"), "{text}");
    assert_eq!(
        elsewhere_hits.load(Ordering::SeqCst),
        0,
        "nothing reached the other origin"
    );
}

/// A redirect within the gateway's own origin is followed.
#[tokio::test]
async fn a_redirect_within_the_origin_is_followed() {
    let (base, hits) = serve(|n, _| {
        if n == 1 {
            (
                StatusCode::PERMANENT_REDIRECT,
                [(header::LOCATION, "/v3/get-routes-moved")],
            )
                .into_response()
        } else {
            json(StatusCode::OK, ROUTES)
        }
    })
    .await;
    let routes = client(&base, 1).get_routes().await.unwrap();
    assert_eq!(routes.value.len(), 1);
    assert_eq!(hits.load(Ordering::SeqCst), 2);
}

/// An answer larger than the client reads is refused, with or without a Content-Length, before it is parsed.
#[tokio::test]
async fn an_answer_larger_than_the_limit_is_not_read() {
    let (base, _) = serve(|n, _| {
        let huge = format!(
            "[{}\"x\"]",
            "\"x\",".repeat(gateway_client::MAX_ANSWER_BYTES / 4 + 1)
        );
        if n == 1 {
            json_owned(huge)
        } else {
            // No Content-Length: streamed in chunks.
            let chunks = futures_chunks(huge);
            (
                StatusCode::OK,
                [(header::CONTENT_TYPE, "application/json")],
                chunks,
            )
                .into_response()
        }
    })
    .await;
    for _ in 0..2 {
        let err = client(&base, 1).get_routes().await.unwrap_err();
        assert!(
            matches!(&err, ClientError::UnexpectedBody { status: 200, snippet } if snippet.contains("larger than 4 MiB")),
            "{err:?}"
        );
    }
}

fn json_owned(body: String) -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response()
}

/// `body` as a stream of 64 KiB chunks (so the answer has no Content-Length).
fn futures_chunks(body: String) -> axum::body::Body {
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> = body
        .into_bytes()
        .chunks(64 * 1024)
        .map(|c| Ok(c.to_vec()))
        .collect();
    axum::body::Body::from_stream(futures_util::stream::iter(chunks))
}

/// A gateway that hands out a fresh cursor on every page ends the walk after `MAX_PAGES` pages with an error, rather
/// than reading until memory runs out.
#[tokio::test]
async fn a_pager_stops_after_the_page_limit_when_the_cursors_never_end() {
    let (base, hits) =
        serve(|n, _| json_owned(format!(r#"{{"orders": [], "nextCursor": "c{n}"}}"#))).await;
    let client = client(&base, 1);
    let err = client
        .orders_pager("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", Some(100))
        .collect_all()
        .await
        .unwrap_err();
    assert!(err.to_string().contains("more than 200 pages"), "{err}");
    assert_eq!(hits.load(Ordering::SeqCst), gateway_client::MAX_PAGES);
}

/// get-max-spendable: the address is checked before anything is sent, the answer is read as sats, and an answer that
/// is not a whole number of sats on bitcoin is refused.
#[tokio::test]
async fn max_spendable_checks_the_address_first_and_reads_sats() {
    use gateway_client::address::BitcoinNetwork;
    let (base, hits) = serve(|n, _| {
        if n == 1 {
            json(
                StatusCode::OK,
                r#"{"userAddress":"bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080","amount":{"address":"0x0000000000000000000000000000000000000000","amount":"123456","chain":"bitcoin"}}"#,
            )
        } else {
            json(
                StatusCode::OK,
                r#"{"userAddress":"x","amount":{"address":"0x0","amount":"1.5","chain":"bitcoin"}}"#,
            )
        }
    })
    .await;
    let client = client(&base, 1);
    let regtest = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";
    let answer = client
        .get_max_spendable(regtest, BitcoinNetwork::Regtest)
        .await
        .unwrap();
    assert_eq!(answer.value.sats(), Some(123_456));
    // A mainnet address on a regtest gateway: not sent.
    let err = client
        .get_max_spendable(
            "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
            BitcoinNetwork::Regtest,
        )
        .await
        .unwrap_err();
    assert!(matches!(err, ClientError::Invalid(_)), "{err:?}");
    assert!(err.to_string().contains("address:"), "{err}");
    assert_eq!(hits.load(Ordering::SeqCst), 1);
    let err = client
        .get_max_spendable(regtest, BitcoinNetwork::Regtest)
        .await
        .unwrap_err();
    assert!(matches!(err, ClientError::UnexpectedBody { .. }), "{err:?}");
}
