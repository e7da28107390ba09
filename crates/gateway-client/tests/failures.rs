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
        matches!(err, ClientError::Server { status: 503, .. }),
        "{err:?}"
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
