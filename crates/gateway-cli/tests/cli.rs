//! The `gateway` command line against a loopback gateway: readable and `--json` output, and its exit statuses
//! (0 success, 2 usage or validation with nothing sent or an unreadable bundle, 3 gateway error, 4 transport
//! failure). `lookup` runs against gateway-sim; `bundle` reads a bundle a Gateway Desk on the Sandbox saved.

use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use serde_json::{Value, json};

const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
const USDT_BOB: &str = "0x05D032ac25d322df992303dCa074EE7392C117b9";
const RECIPIENT: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

fn onramp_quote() -> Value {
    // Bitcoin at $100,000 on every line, and fee lines that account for what is sent less what is received: a quote
    // that contradicts itself is refused (desk-core's `contradictions`).
    let amount = |address: &str, chain: &str, amount: &str| {
        let cents = amount.parse::<u64>().unwrap() / 10;
        let usd = format!("{}.{:02}", cents / 100, cents % 100);
        json!({"address": address, "amount": amount, "chain": chain, "usd": usd})
    };
    json!({"onramp": {
        "inputAmount": amount("0x0000000000000000000000000000000000000000", "bitcoin", "100000"),
        "outputAmount": amount(WBTC_BOB, "bob", "99000"),
        "fees": amount("0x0000000000000000000000000000000000000000", "bitcoin", "1000"),
        "executionFees": amount("0x0000000000000000000000000000000000000000", "bitcoin", "300"),
        "feeBreakdown": {
            "solverFee": amount("0x0000000000000000000000000000000000000000", "bitcoin", "400"),
            "protocolFee": amount("0x0000000000000000000000000000000000000000", "bitcoin", "200"),
            "affiliateFee": amount("0x0000000000000000000000000000000000000000", "bitcoin", "0"),
            "executionFee": amount("0x0000000000000000000000000000000000000000", "bitcoin", "300"),
            "layerzeroFee": amount("0x0000000000000000000000000000000000000000", "bitcoin", "100")
        },
        "recipient": RECIPIENT, "token": WBTC_BOB, "slippage": "300", "dstChain": "bob", "dstToken": WBTC_BOB,
        "signedQuoteData": "c2lnbmVk", "priceImpact": "-0.0050", "estimatedTimeInSecs": 600,
        "someFutureField": {"kept": true}
    }})
}

/// What the stub gateway saw.
#[derive(Default)]
struct Seen {
    requests: AtomicUsize,
    bodies: Mutex<Vec<(String, Value)>>,
    texts: Mutex<Vec<String>>,
}

async fn gateway() -> (String, Arc<Seen>) {
    let seen = Arc::new(Seen::default());
    let state = seen.clone();
    let app = Router::new().fallback(any(move |request: Request| {
        let seen = state.clone();
        async move {
            seen.requests.fetch_add(1, Ordering::SeqCst);
            let uri = request.uri().clone();
            let path = uri.path().to_owned();
            let bytes: Bytes = axum::body::to_bytes(request.into_body(), 1 << 20)
                .await
                .unwrap();
            if !bytes.is_empty() {
                seen.bodies
                    .lock()
                    .unwrap()
                    .push((path.clone(), serde_json::from_slice(&bytes).unwrap()));
                seen.texts
                    .lock()
                    .unwrap()
                    .push(String::from_utf8_lossy(&bytes).into_owned());
            }
            respond(&path, uri.query().unwrap_or(""))
        }
    }));
    let listener = tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}"), seen)
}

fn json_response(status: StatusCode, body: Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

fn respond(path: &str, query: &str) -> Response {
    // V4 (the command's default) answers with V3's models: the stub serves both alike.
    let path = path.replacen("/v4/", "/v3/", 1);
    match path.as_str() {
        "/v3/get-routes" => json_response(
            StatusCode::OK,
            json!([{"srcChain": "bitcoin", "srcToken": "BTC", "dstChain": "bob", "dstToken": WBTC_BOB}]),
        ),
        "/v3/get-quote" if query.contains("amount=5000&") => json_response(
            StatusCode::BAD_REQUEST,
            json!({"code": "QUOTE_AMOUNT_TOO_LOW", "error": "amount below minimum",
                   "details": {"minimum": "10000", "actual": "5000"}}),
        ),
        "/v3/get-quote" => {
            // The quote states the tolerance asked for, as the gateway's do.
            let mut quote = onramp_quote();
            if let Some(bps) = query.split('&').find_map(|kv| kv.strip_prefix("slippage=")) {
                quote["onramp"]["slippage"] = json!(bps);
            }
            json_response(StatusCode::OK, quote)
        }
        "/v3/create-order" => json_response(
            StatusCode::CREATED,
            json!({"onramp": {"order_id": "ord-1", "address": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
                              "op_return_data": "6a0b6f72642d31"}}),
        ),
        "/v3/register-tx" => json_response(StatusCode::OK, json!("ok")),
        "/v3/get-order/ord-1" => json_response(
            StatusCode::OK,
            json!({"id": "ord-1", "timestamp": 1_763_700_000, "status": {"success": {"received_tokens": [
                      {"token": WBTC_BOB, "amount": "99000", "chain": "bob", "txHash": "0xabc", "usd": "95.00"}]}},
                   "srcInfo": {"chain": "bitcoin", "token": "BTC", "amount": "100000"},
                   "dstInfo": {"chain": "bob", "token": WBTC_BOB, "amount": "99000"}}),
        ),
        "/v3/get-order/blocked" => (
            StatusCode::FORBIDDEN,
            [(header::CONTENT_TYPE, "text/html")],
            "<html>Access denied</html>",
        )
            .into_response(),
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}

/// Runs `gateway` with `args` (and no API key from the environment), `stdin` written to its standard input.
fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gateway"));
    command.args(args).env_remove("GATEWAY_API_KEY");
    command.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    child.wait_with_output().unwrap()
}

/// Runs `gateway --network <base>` with `args`.
fn gateway_cmd(base: &str, args: &[&str], stdin: Option<&str>) -> Output {
    run(&[&["--network", base], args].concat(), stdin)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const QUOTE_ARGS: &[&str] = &[
    "quote",
    "--src-chain",
    "bitcoin",
    "--src-token",
    "BTC",
    "--dst-chain",
    "bob",
    "--dst-token",
    WBTC_BOB,
    "--recipient",
    RECIPIENT,
];

#[tokio::test(flavor = "multi_thread")]
async fn a_quote_is_shown_readably_and_sent_back_exactly_as_received() {
    let (base, seen) = gateway().await;
    let out = gateway_cmd(&base, &[QUOTE_ARGS, &["--amount", "100000"]].concat(), None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    for line in [
        "You send:       0.001 BTC ($100.00)",
        "You receive:    0.00099 WBTC",
        "Price impact:   -0.50%",
        "Estimated time: 10 min",
        "messaging fee        0.000001 BTC",
        "solver fee           0.000004 BTC",
    ] {
        assert!(shown.contains(line), "missing {line:?} in:\n{shown}");
    }

    let out = gateway_cmd(
        &base,
        &[&["--json"], QUOTE_ARGS, &["--amount", "100000"]].concat(),
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    // No --slippage: the route's default went out (BTC to WBTC hold the same value: the 50 bps floor), and the stub's
    // quote states it.
    let mut as_received = onramp_quote();
    as_received["onramp"]["slippage"] = json!("50");
    assert_eq!(printed, as_received, "--json prints the body as received");

    let out = gateway_cmd(&base, &["--json", "create-order"], Some(&text(&out.stdout)));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let bodies = seen.bodies.lock().unwrap();
    let (path, body) = bodies.last().unwrap();
    assert_eq!(path, "/v4/create-order", "V4 is the default");
    assert_eq!(
        body, &as_received,
        "create-order sent the quote exactly, unknown fields included"
    );
    // Key order too: the stub wrote the quote with keys in a non-alphabetical order, and the same bytes came back.
    assert_eq!(
        seen.texts.lock().unwrap().last().unwrap(),
        &as_received.to_string()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn validation_errors_exit_2_and_send_nothing() {
    let (base, seen) = gateway().await;
    let cases: Vec<Vec<&str>> = vec![
        [QUOTE_ARGS, &["--amount", "0.001"]].concat(),
        [QUOTE_ARGS, &["--amount", "100000", "--slippage", "0"]].concat(),
        [
            QUOTE_ARGS,
            &["--amount", "100000", "--affiliates", "0xabc:0"],
        ]
        .concat(),
        vec![
            "quote",
            "--src-chain",
            "bitcoin",
            "--src-token",
            "BTC",
            "--dst-chain",
            "bob",
            "--dst-token",
            WBTC_BOB,
            "--recipient",
            "0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "--amount",
            "100000",
        ],
        [
            &["--api-version", "v2"],
            QUOTE_ARGS,
            &["--amount", "100000", "--owner", RECIPIENT],
        ]
        .concat(),
        vec![
            "register-tx",
            "--order-id",
            "ord-1",
            "--route",
            "offramp",
            "--src-tx-hash",
            "0x1234",
            "--src-chain",
            "bob",
        ],
        vec![
            "register-tx",
            "--order-id",
            "ord-1",
            "--route",
            "onramp",
            "--bitcoin-tx-hex",
            "00zz",
        ],
        vec!["register-tx", "--order-id", "ord-1", "--route", "onramp"],
        vec!["orders", "0xabc", "--limit", "0"],
        vec!["--api-version", "v5", "routes"],
        vec!["no-such-command"],
    ];
    for args in cases {
        let out = gateway_cmd(&base, &args, None);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(!text(&out.stderr).trim().is_empty(), "{args:?} says why");
    }
    let out = gateway_cmd(&base, &["create-order"], Some("{\"not\": \"a quote\"}"));
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(env!("CARGO_BIN_EXE_gateway"))
        .args(["--network", &base, "routes"])
        .env("GATEWAY_API_KEY", "too-short")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        !text(&out.stderr).contains("too-short"),
        "the key is never printed"
    );
    // A URL without its scheme gets a sentence, not the parser's "relative URL without a base".
    let out = run(&["--network", "gw.example.com", "routes"], None);
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(said.contains("does not start with https://"), "{said}");
    assert!(!said.contains("relative URL"), "{said}");
    assert_eq!(seen.requests.load(Ordering::SeqCst), 0, "nothing was sent");
}

#[tokio::test(flavor = "multi_thread")]
async fn gateway_errors_exit_3_with_the_code_and_transport_failures_exit_4() {
    let (base, _) = gateway().await;
    let out = gateway_cmd(&base, &[QUOTE_ARGS, &["--amount", "5000"]].concat(), None);
    assert_eq!(out.status.code(), Some(3));
    let err = text(&out.stderr);
    assert!(
        err.contains("QUOTE_AMOUNT_TOO_LOW") && err.contains("amount below minimum"),
        "{err}"
    );
    assert!(err.contains("next step"), "{err}");

    let out = gateway_cmd(&base, &["order", "unknown"], None);
    assert_eq!(
        out.status.code(),
        Some(3),
        "404 is the gateway's answer: {}",
        text(&out.stderr)
    );

    let out = gateway_cmd(&base, &["order", "blocked"], None);
    assert_eq!(
        out.status.code(),
        Some(4),
        "an HTML 403 is a transport failure: {}",
        text(&out.stderr)
    );

    let port = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = gateway_cmd(&format!("http://127.0.0.1:{port}"), &["routes"], None);
    assert_eq!(out.status.code(), Some(4));
    assert!(
        text(&out.stderr).contains("connect"),
        "{}",
        text(&out.stderr)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn orders_routes_and_registration_read_well() {
    let (base, seen) = gateway().await;
    let out = gateway_cmd(&base, &["order", "ord-1"], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(
        shown.contains("Completed: received 0.00099 WBTC ($95.00)"),
        "{shown}"
    );
    assert!(shown.contains("2025-11-21T04:40:00Z"), "{shown}");

    let out = gateway_cmd(&base, &["routes"], None);
    assert!(
        text(&out.stdout).contains("onramp     BTC on bitcoin -> WBTC on bob"),
        "{}",
        text(&out.stdout)
    );

    let hash = format!("0x{}", "ab".repeat(32));
    // V4 (the default) registers no token swap: said, and nothing sent.
    let before = seen.requests.load(Ordering::SeqCst);
    let v4 = gateway_cmd(
        &base,
        &[
            "register-tx",
            "--order-id",
            "ord-2",
            "--route",
            "tokenSwap",
            "--src-tx-hash",
            &hash,
            "--src-chain",
            "base",
        ],
        None,
    );
    assert_eq!(v4.status.code(), Some(2), "{}", text(&v4.stderr));
    assert!(
        text(&v4.stderr).contains("reads the transaction from the chain by itself"),
        "{}",
        text(&v4.stderr)
    );
    // An onramp's txid alone neither: V4 takes the signed transaction.
    let txid_only = gateway_cmd(
        &base,
        &[
            "register-tx",
            "--order-id",
            "ord-1",
            "--route",
            "onramp",
            "--bitcoin-txid",
            &"cd".repeat(32),
        ],
        None,
    );
    assert_eq!(txid_only.status.code(), Some(2));
    assert!(
        text(&txid_only.stderr).contains("give --bitcoin-tx-hex"),
        "{}",
        text(&txid_only.stderr)
    );
    assert_eq!(seen.requests.load(Ordering::SeqCst), before, "nothing sent");
    let out = gateway_cmd(
        &base,
        &[
            "--api-version",
            "v3",
            "register-tx",
            "--order-id",
            "ord-2",
            "--route",
            "tokenSwap",
            "--src-tx-hash",
            &hash,
            "--src-chain",
            "base",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Registered."));
    let bodies = seen.bodies.lock().unwrap();
    assert_eq!(
        bodies.last().unwrap().1,
        json!({"tokenSwap": {"order_id": "ord-2", "src_tx_hash": hash, "src_chain": "base"}})
    );
}

// ---------------------------------------------------------------------------------------------------------------------
// `gateway lookup` against gateway-sim, and `gateway bundle` on a bundle Gateway Desk saved.

/// `2025-11-21T04:40:00Z`, as the readable output writes times.
fn utc_text(at: i64) -> String {
    desk_core::calendar::utc_text(at)
}

/// Creates a V3 token swap on the gateway at `base` for `RECIPIENT` and gives its id.
async fn create_swap_order(base: &str) -> String {
    let mut config = gateway_client::ClientConfig::new(base.parse().unwrap());
    config.read_attempts = 1;
    let client = gateway_client::Client::new(config).unwrap();
    let mut request = gateway_client::QuoteRequest::new(
        ("bob", "0x05D032ac25d322df992303dCa074EE7392C117b9"),
        ("ethereum", "0xdac17f958d2ee523a2206206994597c13d831ec7"),
        "50000000",
        RECIPIENT,
    );
    request.slippage_bps = 100;
    let quote = client.get_quote(&request).await.unwrap().value;
    client
        .create_order(&quote)
        .await
        .unwrap()
        .value
        .order_id()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn lookup_finds_an_order_by_id_and_by_address_with_what_to_do_next() {
    let sim = gateway_sim::Sim::new()
        .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let base = sim.base_url();
    let id = create_swap_order(&base).await;
    let body = reqwest::get(format!("{base}/v3/get-order/{id}"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    // What desk-core says of it, to find in the output.
    let client =
        gateway_client::Client::new(gateway_client::ClientConfig::new(base.parse().unwrap()))
            .unwrap();
    let expected = desk_core::support::lookup_on(&client, &format!("custom:{base}"), &id)
        .await
        .unwrap();
    let explanation = &expected.orders[0].explanation;

    let out = gateway_cmd(&base, &["lookup", &id], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    for line in [
        format!("Order:     {id}"),
        "as an order: 1 order found".to_owned(),
        format!("Meaning:   {}", explanation.meaning),
        format!("Next step: {}", explanation.next_step),
        "From:      50 USDT ($50.00) on bob".to_owned(),
    ] {
        assert!(shown.contains(&line), "missing {line:?} in:\n{shown}");
    }

    let out = gateway_cmd(&base, &["--json", "lookup", &id], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout).trim_end_matches('\n'),
        body,
        "--json prints the answer exactly as received"
    );
    assert_eq!(expected.raw_text, body);

    let out = gateway_cmd(&base, &["lookup", RECIPIENT], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(shown.contains("as an address: 1 order found"), "{shown}");
    assert!(shown.contains(&format!("Order:     {id}")), "{shown}");
    assert!(shown.contains("Meaning:   "), "{shown}");
    let out = gateway_cmd(&base, &["--json", "lookup", RECIPIENT], None);
    let page: Value = serde_json::from_slice(&out.stdout).unwrap();
    let listed = serde_json::to_string(&page).unwrap();
    assert!(listed.contains(&id), "{listed}");

    // Nothing by that id: the gateway's answer (3). Not an address (bad checksum): nothing sent (2).
    let out = gateway_cmd(&base, &["lookup", "no-such-order"], None);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("Nothing was found"),
        "{}",
        text(&out.stderr)
    );
    let out = gateway_cmd(
        &base,
        &["lookup", "0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed"],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    sim.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_saved_bundle_reads_with_its_timeline_events_and_log_lines() {
    use desk_core::AppPaths;
    use desk_core::desk::{DeskOptions, QuoteResult, SwapForm};
    use desk_core::support::BundleOptions;
    use gateway_sim::payload::testkit::TestWallet;

    keyring_core::set_default_store(keyring_core::mock::Store::new().unwrap());
    let home = tempfile::tempdir().unwrap();
    let paths = AppPaths::under(home.path());
    let desk = desk_sandbox::open_desk_with(paths.clone(), DeskOptions::default())
        .await
        .unwrap();
    let wallet = TestWallet::from_seed([5; 32]);
    let form = SwapForm {
        src_chain: "bitcoin".into(),
        src_token: "0x0000000000000000000000000000000000000000".into(),
        dst_chain: "bob".into(),
        dst_token: WBTC_BOB.into(),
        amount: "0.0025".into(),
        slippage_bps: 300,
        recipient: RECIPIENT.into(),
        // The Sandbox is regtest.
        sender: Some(wallet.address(bitcoin::Network::Regtest)),
        owner: None,
        refund: None,
    };
    let QuoteResult::Quote { card } = desk.quote(&form).await.unwrap() else {
        panic!("a question instead of a quote")
    };
    let order = desk.start_order(card.raw.clone(), None).await.unwrap();
    let local_id = order.local_id.unwrap();
    let order_id = order.order_id.clone().unwrap();
    let psbt = order.created.as_ref().unwrap()["onramp"]["psbt_hex"]
        .as_str()
        .unwrap()
        .to_owned();
    desk.hand_in(local_id, &wallet.sign_psbt(&psbt).unwrap())
        .await
        .unwrap();
    std::fs::create_dir_all(&paths.log_dir).unwrap();
    std::fs::write(
        paths.log_dir.join("gateway-desk.2025-11-21.log"),
        format!("2025-11-21T04:40:00.000000Z  INFO support: order {order_id} looked at\n"),
    )
    .unwrap();
    let path = desk
        .save_bundle(local_id, BundleOptions::default())
        .unwrap();
    desk.shutdown().await;
    let saved = std::fs::read_to_string(&path).unwrap();
    let bundle = desk_core::support::read_bundle(&saved).unwrap();

    let out = run(&["bundle", &path], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    let mut expected = vec![
        format!("App version: {}", env!("CARGO_PKG_VERSION")),
        format!("OS:          {}", bundle.os),
        "Network:     sandbox (API v4)".to_owned(),
        "Identifiers: shortened to first4…last4".to_owned(),
        format!("Order:       {order_id} (the app's order {local_id})"),
        "Sends:       0.0025 BTC on bitcoin".to_owned(),
        "Stage:       registered".to_owned(),
        "Log lines (1):".to_owned(),
        format!("  2025-11-21T04:40:00.000000Z  INFO support: order {order_id} looked at"),
        format!("made {}", utc_text(bundle.created_at)),
    ];
    for entry in &bundle.order.timeline {
        expected.push(format!(
            "  {:<20}  {:<18} {}",
            entry.at.map_or_else(|| "time unknown".to_owned(), utc_text),
            entry.key,
            entry.text
        ));
    }
    for event in &bundle.events {
        expected.push(format!(
            "  #{:<4} {:<20}  {}",
            event.seq,
            utc_text(event.at),
            event.kind
        ));
    }
    for line in &expected {
        assert!(shown.contains(line), "missing {line:?} in:\n{shown}");
    }
    assert!(shown.contains("registered"), "{shown}");
    assert!(
        !shown.contains(RECIPIENT),
        "shortened in the bundle: {shown}"
    );

    // --json: the file exactly as saved; also from standard input.
    let out = run(&["--json", "bundle", &path], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), saved);
    let out = run(&["--json", "bundle", "-"], Some(&saved));
    assert_eq!(text(&out.stdout), saved);

    // A bundle comes from someone else: escape sequences in it are shown, never sent to the terminal.
    let dir = tempfile::tempdir().unwrap();
    let mut tampered: Value = serde_json::from_str(&saved).unwrap();
    tampered["logLines"] = json!(["\u{1b}]0;owned\u{7}\u{1b}[2Jcleared"]);
    let tampered_path = dir.path().join("tampered.json");
    std::fs::write(&tampered_path, tampered.to_string()).unwrap();
    let out = run(&["bundle", tampered_path.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!out.stdout.contains(&0x1b) && !out.stdout.contains(&0x07));
    assert!(
        text(&out.stdout).contains(r"\u{1b}]0;owned\u{7}\u{1b}[2Jcleared"),
        "{}",
        text(&out.stdout)
    );

    // Unreadable bundles exit 2 with a sentence.
    let mut newer: Value = serde_json::from_str(&saved).unwrap();
    newer["version"] = json!(99);
    let newer_path = dir.path().join("newer.json");
    std::fs::write(&newer_path, newer.to_string()).unwrap();
    let other_path = dir.path().join("other.json");
    std::fs::write(&other_path, onramp_quote().to_string()).unwrap();
    for (file, says) in [
        (newer_path.to_str().unwrap(), "newer Gateway Desk"),
        (
            other_path.to_str().unwrap(),
            "not a Gateway Desk support bundle",
        ),
        ("/nonexistent/bundle.json", "cannot read"),
    ] {
        let out = run(&["bundle", file], None);
        assert_eq!(out.status.code(), Some(2), "{file}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains(says),
            "{file}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty());
    }
}

/// `gateway max-spendable ADDRESS` against a regtest simulator: the spendable amount in BTC and sats, the body as
/// received with --json, and an address of another network refused before anything is sent (exit 2).
#[tokio::test(flavor = "multi_thread")]
async fn max_spendable_shows_what_an_address_can_pay() {
    let sim = gateway_sim::Sim::with_config(gateway_sim::SimConfig {
        network: gateway_client::address::BitcoinNetwork::Regtest,
        ..Default::default()
    })
    .unwrap();
    let running = sim
        .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let base = running.base_url();
    let address = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";
    let script = address
        .parse::<bitcoin::Address<bitcoin::address::NetworkUnchecked>>()
        .unwrap()
        .assume_checked()
        .script_pubkey();
    let sats =
        gateway_sim::payload::max_spendable(&gateway_sim::payload::initial_coin(&script), &script);

    let out = gateway_cmd(
        &base,
        &["--bitcoin-network", "regtest", "max-spendable", address],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(shown.contains(address), "{shown}");
    assert!(shown.contains(&format!("({sats} sats)")), "{shown}");
    assert!(shown.contains("BTC"), "{shown}");

    let out = gateway_cmd(
        &base,
        &[
            "--json",
            "--bitcoin-network",
            "regtest",
            "max-spendable",
            address,
        ],
        None,
    );
    let body: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(body["amount"]["amount"], sats.to_string());

    let out = gateway_cmd(
        &base,
        &[
            "--bitcoin-network",
            "regtest",
            "max-spendable",
            "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("address:"),
        "{}",
        text(&out.stderr)
    );
}

/// The routes a person asks for on V3, one of each payload shape: the quote arguments and the sender.
fn hostile_routes() -> Vec<Vec<&'static str>> {
    const BTC: &str = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";
    const USDT_BOB: &str = "0x05D032ac25d322df992303dCa074EE7392C117b9";
    const USDT_TRON: &str = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
    const USDC_SOL: &str = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
    const TRON: &str = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7";
    const SOL: &str = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
    const ZERO: &str = "0x0000000000000000000000000000000000000000";
    let route = |src: &'static str,
                 src_token: &'static str,
                 dst: &'static str,
                 dst_token: &'static str,
                 amount: &'static str,
                 recipient: &'static str,
                 sender: &'static str| {
        vec![
            "--src-chain",
            src,
            "--src-token",
            src_token,
            "--dst-chain",
            dst,
            "--dst-token",
            dst_token,
            "--amount",
            amount,
            "--recipient",
            recipient,
            // V4 (the default): no owner; the refund address defaults to the sender.
            "--sender",
            sender,
        ]
    };
    vec![
        route("bitcoin", ZERO, "bob", WBTC_BOB, "1000123", RECIPIENT, BTC),
        route("bob", WBTC_BOB, "bitcoin", ZERO, "1000123", BTC, RECIPIENT),
        route(
            "bob",
            USDT_BOB,
            "ethereum",
            "0xdac17f958d2ee523a2206206994597c13d831ec7",
            "1000000123",
            RECIPIENT,
            RECIPIENT,
        ),
        route(
            "tron",
            USDT_TRON,
            "bob",
            USDT_BOB,
            "1000000123",
            RECIPIENT,
            TRON,
        ),
        route(
            "solana",
            USDC_SOL,
            "bob",
            USDT_BOB,
            "1000000123",
            RECIPIENT,
            SOL,
        ),
    ]
}

#[tokio::test(flavor = "multi_thread")]
async fn every_tamper_is_refused_by_the_command_line_with_exit_5_and_nothing_to_sign() {
    use gateway_sim::tamper::Tamper;
    let sim = gateway_sim::Sim::with_config(gateway_sim::SimConfig {
        access: gateway_sim::access::AccessConfig::unlimited(),
        ..Default::default()
    })
    .unwrap();
    let running = sim
        .clone()
        .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let base = running.base_url();
    let mut refused = std::collections::BTreeMap::<String, usize>::new();
    // Every route on V4 (the default), and the offramp on V3 as well, whose quote names an owner.
    let mut routes = hostile_routes();
    let v3_offramp = [
        &["--api-version", "v3"][..],
        &routes[1],
        &["--owner", RECIPIENT],
    ]
    .concat();
    routes.push(v3_offramp);
    for route in routes {
        let version: &[&str] = if route.contains(&"v3") {
            &["--api-version", "v3"]
        } else {
            &[]
        };
        for tamper in Tamper::ALL {
            let what = format!("{route:?} {tamper:?}");
            let quote_args = [&["--sandbox", "--json", "quote"][..], &route].concat();
            sim.tamper().set(tamper.is_quote_tamper().then_some(tamper));
            let quoted = gateway_cmd(&base, &quote_args, None);
            sim.tamper().set(None);
            let code = quoted.status.code();
            if code == Some(5) {
                assert!(tamper.is_quote_tamper(), "{what}: {}", text(&quoted.stderr));
                assert!(quoted.stdout.is_empty(), "{what}: printed a refused quote");
                assert!(
                    text(&quoted.stderr).contains("gateway: refused: "),
                    "{what}"
                );
                *refused.entry(format!("{tamper:?}")).or_default() += 1;
                continue;
            }
            assert_eq!(code, Some(0), "{what}: {}", text(&quoted.stderr));
            if tamper.is_quote_tamper() {
                continue;
            }
            sim.tamper().set(Some(tamper));
            let created = gateway_cmd(
                &base,
                &[version, &["--sandbox", "--json", "create-order"]].concat(),
                Some(&text(&quoted.stdout)),
            );
            sim.tamper().set(None);
            match created.status.code() {
                Some(5) => {
                    assert!(
                        created.stdout.is_empty(),
                        "{what}: printed something to sign"
                    );
                    let err = text(&created.stderr);
                    assert!(err.to_lowercase().contains("do not"), "{what}: {err}");
                    *refused.entry(format!("{tamper:?}")).or_default() += 1;
                }
                Some(0) => {
                    // Passed: it must be the honest answer.
                    let printed: Value = serde_json::from_slice(&created.stdout).unwrap();
                    let (_, inner) = printed.as_object().unwrap().iter().next().unwrap();
                    let honest = sim
                        .order(inner["order_id"].as_str().unwrap())
                        .unwrap()
                        .created;
                    assert_eq!(
                        printed, honest,
                        "{what}: a tampered order was printed to sign"
                    );
                }
                // gateway-client's own answer check (V1 only) is not on this path.
                other => panic!("{what}: exit {other:?}: {}", text(&created.stderr)),
            }
        }
    }
    for tamper in Tamper::ALL {
        assert!(
            refused.contains_key(&format!("{tamper:?}")),
            "{tamper:?} was never refused by the command line: {refused:?}"
        );
    }
}

/// A fee source answering `{"fastestFee": rate}`.
async fn fee_source(rate: u64) -> String {
    let app = Router::new().fallback(any(move || async move {
        json_response(StatusCode::OK, json!({"fastestFee": rate, "hourFee": 1}))
    }));
    let listener = tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}/api/v1/fees/recommended")
}

#[tokio::test(flavor = "multi_thread")]
async fn create_order_caps_the_psbt_fee_rate_by_the_fee_source_as_the_window_does() {
    let sim = gateway_sim::Sim::with_config(gateway_sim::SimConfig {
        access: gateway_sim::access::AccessConfig::unlimited(),
        ..Default::default()
    })
    .unwrap()
    .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
    .await
    .unwrap();
    let base = sim.base_url();
    // An onramp with a sender: the sim's PSBT pays 12 sat/vB.
    let onramp = hostile_routes().remove(0);
    let quote_args = [&["--json", "quote"][..], &onramp].concat();
    for (fast, refused) in [(2, true), (5, false)] {
        let quoted = gateway_cmd(&base, &quote_args, None);
        assert_eq!(quoted.status.code(), Some(0), "{}", text(&quoted.stderr));
        let source = fee_source(fast).await;
        let created = gateway_cmd(
            &base,
            &["--json", "create-order", "--fee-source", &source],
            Some(&text(&quoted.stdout)),
        );
        if refused {
            assert_eq!(created.status.code(), Some(5), "{}", text(&created.stderr));
            assert!(created.stdout.is_empty(), "nothing to sign is printed");
            assert!(
                text(&created.stderr).contains("10 sat/vB"),
                "{}",
                text(&created.stderr)
            );
        } else {
            assert_eq!(created.status.code(), Some(0), "{}", text(&created.stderr));
        }
    }
}

/// Runs `gateway` with `envs` set (and no keychain reachable: a bus that is not there).
fn run_with_env(args: &[&str], envs: &[(&str, &str)], stdin: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gateway"));
    command
        .args(args)
        .env_remove("GATEWAY_API_KEY")
        .env_remove("GATEWAY_MNEMONIC")
        .env_remove("GATEWAY_PASSPHRASE")
        .env(
            "DBUS_SESSION_BUS_ADDRESS",
            "unix:path=/nonexistent/gateway-cli-test-bus",
        )
        .envs(envs.iter().copied())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    child.wait_with_output().unwrap()
}

const ABANDON: &str =
    "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

/// `gateway wallet address` and `balance` with the phrase from GATEWAY_MNEMONIC (never an argument): the
/// well-known addresses by their paths, the Bitcoin one on the chosen network, the phrase never printed; a bad
/// phrase refused with exit 2 and not echoed; without a phrase and without a keychain, a sentence saying so.
#[tokio::test(flavor = "multi_thread")]
async fn the_wallet_commands_take_the_phrase_from_the_environment_and_never_print_it() {
    let out = run_with_env(
        &["wallet", "address"],
        &[("GATEWAY_MNEMONIC", ABANDON)],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    for expected in [
        "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu  m/84'/0'/0'/0/0",
        "0x9858EfFD232B4033E47d90003D41EC34EcaEda94  m/44'/60'/0'/0/0",
        "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH  m/44'/195'/0'/0/0",
        "HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk  m/44'/501'/0'/0'",
    ] {
        assert!(shown.contains(expected), "{expected} in {shown}");
    }
    assert!(!shown.contains("abandon") && !text(&out.stderr).contains("abandon"));

    let out = run_with_env(
        &[
            "--json",
            "--bitcoin-network",
            "regtest",
            "wallet",
            "address",
        ],
        &[
            ("GATEWAY_MNEMONIC", ABANDON),
            ("GATEWAY_PASSPHRASE", "TREZOR"),
        ],
        None,
    );
    let accounts: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        accounts["bitcoin"]["address"]
            .as_str()
            .unwrap()
            .starts_with("bcrt1q")
    );
    assert_eq!(accounts["bitcoin"]["path"], "m/84'/1'/0'/0/0");
    assert_ne!(
        accounts["evm"]["address"],
        "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
    );

    let bad = "abandon abandon abandon zzzz";
    let out = run_with_env(&["wallet", "address"], &[("GATEWAY_MNEMONIC", bad)], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("GATEWAY_MNEMONIC: The recovery phrase is not valid"));
    assert!(!text(&out.stderr).contains("zzzz") && out.stdout.is_empty());

    let out = run_with_env(&["wallet", "address"], &[], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no keychain is reachable"),
        "{}",
        text(&out.stderr)
    );

    // The Bitcoin balance: the gateway's get-max-spendable for the wallet's address on a regtest simulator.
    let sim = gateway_sim::Sim::with_config(gateway_sim::SimConfig {
        network: gateway_client::address::BitcoinNetwork::Regtest,
        ..Default::default()
    })
    .unwrap();
    let running = sim
        .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let address = accounts["bitcoin"]["address"].as_str().unwrap().to_owned();
    let script = address
        .parse::<bitcoin::Address<bitcoin::address::NetworkUnchecked>>()
        .unwrap()
        .assume_checked()
        .script_pubkey();
    let sats =
        gateway_sim::payload::max_spendable(&gateway_sim::payload::initial_coin(&script), &script);
    let out = run_with_env(
        &[
            "--network",
            &running.base_url(),
            "--bitcoin-network",
            "regtest",
            "wallet",
            "balance",
        ],
        &[
            ("GATEWAY_MNEMONIC", ABANDON),
            ("GATEWAY_PASSPHRASE", "TREZOR"),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(
        shown.contains(&address) && shown.contains(&format!("({sats} sats)")),
        "{shown}"
    );
}

/// `gateway wallet new` and `import` keep the wallet in the keychain; without one they say so before anything is
/// shown or read, and a phrase given as an argument does not exist as an option.
#[test]
fn creating_or_importing_needs_a_keychain_and_never_takes_the_phrase_as_an_argument() {
    for args in [&["wallet", "new"][..], &["wallet", "import"][..]] {
        let out = run_with_env(args, &[], Some(&format!("{ABANDON}\n")));
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains("no keychain is reachable"),
            "{}",
            text(&out.stderr)
        );
        assert!(
            !text(&out.stdout).contains("recovery phrase"),
            "no phrase shown without a keychain"
        );
    }
    let out = run_with_env(&["wallet", "import", "--phrase", ABANDON], &[], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        !text(&out.stderr).contains("abandon about"),
        "{}",
        text(&out.stderr)
    );
}

/// `gateway --network sandbox swap` of 0.001 WBTC from BOB to Bitcoin, every address defaulted to the wallet's.
const SANDBOX_OFFRAMP: [&str; 13] = [
    "--network",
    "sandbox",
    "swap",
    "--src-chain",
    "bob",
    "--src-token",
    WBTC_BOB,
    "--dst-chain",
    "bitcoin",
    "--dst-token",
    "0x0000000000000000000000000000000000000000",
    "--amount",
    "100000",
];

/// `gateway` run with `args` on its own Sandbox (admin on) with `tamper` switched on as soon as the Sandbox serves
/// (a create-order lie: the quote is honest whenever it is read), every question answered "y": the exit code, standard
/// output and standard error.
async fn swap_with_tamper(args: &[&str], tamper: &str) -> (Option<i32>, String, String) {
    use std::io::{BufRead, BufReader};
    let home = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_gateway"))
        .args(args)
        .env_remove("GATEWAY_API_KEY")
        .env(
            "DBUS_SESSION_BUS_ADDRESS",
            "unix:path=/nonexistent/gateway-cli-test-bus",
        )
        .env("GATEWAY_MNEMONIC", ABANDON)
        .env("GATEWAY_DESK_HOME", home.path())
        .env("GATEWAY_DESK_SANDBOX_ADMIN", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    stderr.read_line(&mut first).unwrap();
    let base = first
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no Sandbox address in {first:?}"))
        .to_owned();
    // Read on while the command runs, so that it never blocks on a full pipe.
    let rest = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut text).unwrap();
        text
    });
    // The command may already be asking "Create this order?": its Sandbox serves on while it waits.
    gateway_sim::admin_client::AdminClient::new(&base)
        .set_tamper(Some(tamper))
        .await
        .unwrap();
    child.stdin.take().unwrap().write_all(b"y\ny\ny\n").unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.code(), text(&out.stdout), rest.join().unwrap())
}

/// `gateway --network sandbox swap`: the Sandbox (simulator and its local BOB chain) inside the command, the wallet
/// from GATEWAY_MNEMONIC funded there on first use; an offramp quoted, confirmed, approved, paid, registered (the
/// gateway checks the payment on the node) and followed to its end, every address defaulted to the wallet's. Without
/// `--yes` and with no "y" typed, nothing is created.
#[cfg_attr(
    not(feature = "sandbox"),
    ignore = "the Sandbox inside the command needs `--features sandbox`"
)]
#[tokio::test(flavor = "multi_thread")]
async fn a_whole_offramp_runs_from_the_terminal_on_the_sandbox_with_its_local_chain() {
    use std::io::{BufRead, BufReader};
    let home = tempfile::tempdir().unwrap();
    let swap_args = SANDBOX_OFFRAMP;
    let envs = [
        ("GATEWAY_MNEMONIC", ABANDON),
        ("GATEWAY_DESK_HOME", home.path().to_str().unwrap()),
        ("GATEWAY_DESK_SANDBOX_ADMIN", "1"),
    ];
    // Not confirmed: nothing created.
    let out = run_with_env(&swap_args, &envs, Some("n\n"));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("nothing was created"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout).contains("You send     0.001 WBTC"),
        "{}",
        text(&out.stdout)
    );

    let mut args: Vec<&str> = swap_args.to_vec();
    args.push("--yes");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gateway"))
        .args(&args)
        .env_remove("GATEWAY_API_KEY")
        .env(
            "DBUS_SESSION_BUS_ADDRESS",
            "unix:path=/nonexistent/gateway-cli-test-bus",
        )
        .envs(envs.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The Sandbox's address, from the first line the command writes to standard error.
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    stderr.read_line(&mut first).unwrap();
    let base = first
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no Sandbox address in {first:?}"))
        .to_owned();
    let rest = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut text).unwrap();
        text
    });
    // Move the Sandbox's clock on until the order ends (the command follows it).
    let http = reqwest::Client::new();
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > std::time::Duration::from_secs(120) {
            let _ = child.kill();
            panic!("the swap did not end");
        }
        let _ = http
            .post(format!("{base}/admin/clock/advance"))
            .header("content-type", "application/json")
            .body(r#"{"secs": 300}"#)
            .send()
            .await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    };
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
    let stderr = rest.join().unwrap();
    assert!(status.success(), "{stdout}\n{stderr}");
    for expected in [
        "You send     0.001 WBTC",
        "Sender       0x9858EfFD232B4033E47d90003D41EC34EcaEda94",
        "Approve 0.001 WBTC to the gateway's contract",
        "Send 0.001 WBTC to the gateway's contract",
        "  mined: 0x",
        "Registered: the gateway has the transaction.",
    ] {
        assert!(stdout.contains(expected), "{expected:?} in {stdout}");
    }
    assert!(
        stdout.contains("bcrt1q"),
        "the recipient is the wallet's regtest address: {stdout}"
    );
    assert!(!stdout.contains("abandon") && !stderr.contains("abandon"));
}

/// `gateway --network sandbox swap` from Solana: the Sandbox's Solana chain (LiteSVM) inside the command, the
/// wallet's Solana account funded there on first use; the transaction shown with its fee, signed, sent, confirmed
/// and registered (the gateway found it executed). `wallet balance --chain solana` reads the same chain.
#[cfg_attr(
    not(feature = "sandbox"),
    ignore = "the Sandbox inside the command needs `--features sandbox`"
)]
#[test]
fn a_swap_from_solana_runs_from_the_terminal_and_its_balance_is_read_from_the_chain() {
    let home = tempfile::tempdir().unwrap();
    let envs = [
        ("GATEWAY_MNEMONIC", ABANDON),
        ("GATEWAY_DESK_HOME", home.path().to_str().unwrap()),
    ];
    let out = run_with_env(
        &[
            "--network",
            "sandbox",
            "wallet",
            "balance",
            "--chain",
            "solana",
            "--token",
            "usdc",
        ],
        &envs,
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("10000 USDC on solana\nMax 10000 USDC"),
        "{}",
        text(&out.stdout)
    );
    let out = run_with_env(
        &[
            "--network",
            "sandbox",
            "swap",
            "--src-chain",
            "solana",
            "--src-token",
            "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
            "--dst-chain",
            "bob",
            "--dst-token",
            USDT_BOB,
            "--amount",
            "30000000",
            "--yes",
            "--no-follow",
        ],
        &envs,
        None,
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    for expected in [
        "You send     30 USDC",
        // The wallet's own fee on Solana: one signature and one token account's rent, read before Confirm; a USDC
        // quote prices no SOL, and the total says so rather than guess (issue 31).
        "Your fee     at most 0.00205 SOL on Solana",
        "Total cost   The gateway's fees",
        "no USD price for SOL",
        "Sender       HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk",
        "Send 30 USDC to the gateway's Solana program",
        "Network fee 0.000005 SOL.",
        "  confirmed: ",
        "Registered: the gateway has the transaction.",
    ] {
        assert!(stdout.contains(expected), "{expected:?} in {stdout}");
    }
}

/// The command line checks what it is asked to sign as the window does (the same desk-core): a hostile Sandbox whose
/// Solana transaction is paid by another account is refused after "Create this order?", exit 5, nothing signed.
#[cfg_attr(
    not(feature = "sandbox"),
    ignore = "the Sandbox inside the command needs `--features sandbox`"
)]
#[tokio::test(flavor = "multi_thread")]
async fn a_hostile_solana_transaction_is_refused_by_the_command_line_before_anything_is_signed() {
    let (code, stdout, rest) = swap_with_tamper(
        &[
            "--network",
            "sandbox",
            "swap",
            "--src-chain",
            "solana",
            "--src-token",
            "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
            "--dst-chain",
            "bob",
            "--dst-token",
            USDT_BOB,
            "--amount",
            "30000000",
            "--no-follow",
        ],
        "solanaFeePayer",
    )
    .await;
    assert_eq!(code, Some(5), "{stdout}\n{rest}");
    assert!(rest.contains("refused"), "{rest}");
    assert!(
        !stdout.contains("Sign and send") && !stdout.contains("confirmed:"),
        "{stdout}"
    );
}

/// `gateway --network sandbox swap` from Tron: the Sandbox's Tron chain inside the command, the wallet's Tron
/// account funded there on first use; an exact approval and the order's call, each shown with its estimated energy
/// and fee limit, signed, broadcast, executed and registered. `wallet balance --chain tron` reads the same chain.
#[cfg_attr(
    not(feature = "sandbox"),
    ignore = "the Sandbox inside the command needs `--features sandbox`"
)]
#[test]
fn a_swap_from_tron_runs_from_the_terminal_and_its_balance_is_read_from_the_chain() {
    let home = tempfile::tempdir().unwrap();
    let envs = [
        ("GATEWAY_MNEMONIC", ABANDON),
        ("GATEWAY_DESK_HOME", home.path().to_str().unwrap()),
    ];
    let out = run_with_env(
        &[
            "--network",
            "sandbox",
            "wallet",
            "balance",
            "--chain",
            "tron",
        ],
        &envs,
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("1000 TRX on tron\nMax "),
        "{}",
        text(&out.stdout)
    );
    let out = run_with_env(
        &[
            "--network",
            "sandbox",
            "swap",
            "--src-chain",
            "tron",
            "--src-token",
            "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
            "--dst-chain",
            "bob",
            "--dst-token",
            USDT_BOB,
            "--amount",
            "30000000",
            "--yes",
            "--no-follow",
        ],
        &envs,
        None,
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    for expected in [
        "You send     30 USDT",
        "Approve 30 USDT to the gateway's contract",
        "Estimated cost: about ",
        "Send 30 USDT to the gateway's contract",
        "(its fee limit)",
        "  mined: ",
        "Registered: the gateway has the transaction.",
    ] {
        assert!(stdout.contains(expected), "{expected:?} in {stdout}");
    }
}

/// A keystore file for scripts: written from GATEWAY_MNEMONIC under a password of its own (typed twice), readable only
/// by its owner, never over an existing file, holding no word of the phrase; read back through GATEWAY_KEYSTORE with
/// its password on standard input (the same addresses), a wrong password refused in words.
#[test]
fn a_keystore_file_carries_the_wallet_sealed_for_scripts() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("wallet.keystore");
    let path = file.to_str().unwrap();
    let out = run_with_env(
        &["wallet", "keystore", path],
        &[("GATEWAY_MNEMONIC", ABANDON)],
        Some("a long keystore password\na long keystore password\n"),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let sealed = std::fs::read_to_string(&file).unwrap();
    assert!(
        !sealed.contains("abandon") && !sealed.contains("about"),
        "{sealed}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let again = run_with_env(
        &["wallet", "keystore", path],
        &[("GATEWAY_MNEMONIC", ABANDON)],
        Some("a long keystore password\na long keystore password\n"),
    );
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again.stderr).contains("never written over an existing file"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), sealed);

    let out = run_with_env(
        &["wallet", "address"],
        &[("GATEWAY_KEYSTORE", path)],
        Some("a long keystore password\n"),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("0x9858EfFD232B4033E47d90003D41EC34EcaEda94"));
    let wrong = run_with_env(
        &["wallet", "address"],
        &[("GATEWAY_KEYSTORE", path)],
        Some("not the password at all\n"),
    );
    assert_eq!(wrong.status.code(), Some(2));
    assert!(
        text(&wrong.stderr).contains("GATEWAY_KEYSTORE: "),
        "{}",
        text(&wrong.stderr)
    );
    assert!(wrong.stdout.is_empty());
}

/// `wallet import --key FAMILY` reads the key from standard input (never an argument), checks it before anything
/// else and never echoes it; a good key goes on to the keychain (none is reachable here, which is said plainly).
#[test]
fn a_private_key_is_imported_from_standard_input_and_checked_first() {
    let bad = run_with_env(
        &["wallet", "import", "--key", "evm"],
        &[],
        Some("0xdeadbeef\n"),
    );
    assert_eq!(bad.status.code(), Some(2));
    let said = text(&bad.stderr);
    assert!(said.contains("The EVM private key is not valid"), "{said}");
    assert!(!said.contains("deadbeef"), "the key is not echoed: {said}");
    let good = run_with_env(
        &["wallet", "import", "--key", "evm"],
        &[],
        Some("0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318\n"),
    );
    assert_eq!(good.status.code(), Some(2));
    assert!(
        text(&good.stderr).contains("no keychain is reachable"),
        "{}",
        text(&good.stderr)
    );
    assert!(!text(&good.stderr).contains("4c0883a6"));
}

/// Output into a pipe whose reader is gone (`gateway routes | head -1`, after `head` exits) ends the command as it
/// ends any Unix tool: killed by SIGPIPE, with nothing on standard error (no panic, no backtrace).
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread")]
async fn output_into_a_closed_pipe_ends_quietly_by_sigpipe() {
    use std::os::unix::process::ExitStatusExt;
    let (base, _) = gateway().await;
    // The reading end is closed before the command starts, so its first line meets a closed pipe.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_gateway"))
        .args(["--network", &base, "routes"])
        .env_remove("GATEWAY_API_KEY")
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.signal(), Some(13), "{:?}", out.status);
    assert_eq!(text(&out.stderr), "", "nothing said");
}

/// `--network sandbox` for every command that talks to a gateway, not only `swap`: the Sandbox runs inside the
/// command (a newcomer's first try is `gateway --network sandbox routes`). Its orders stay in the command line's
/// folder between commands, so a quote, then the order made from it, is found by `order`, `orders` and `lookup`.
#[cfg_attr(
    not(feature = "sandbox"),
    ignore = "the Sandbox inside the command needs `--features sandbox`"
)]
#[test]
fn every_gateway_command_runs_on_the_sandbox_inside_the_command() {
    let home = tempfile::tempdir().unwrap();
    let envs = [("GATEWAY_DESK_HOME", home.path().to_str().unwrap())];
    let sandbox = |args: &[&str], stdin: Option<&str>| {
        let out = run_with_env(&[&["--network", "sandbox"], args].concat(), &envs, stdin);
        assert!(
            out.status.success(),
            "{args:?}: {}\n{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).starts_with("Sandbox gateway on http://127.0.0.1:"),
            "{}",
            text(&out.stderr)
        );
        text(&out.stdout)
    };
    assert!(sandbox(&["routes"], None).contains("onramp     BTC on bitcoin -> WBTC on bob"));
    let quote = sandbox(
        &[
            &["--json"][..],
            QUOTE_ARGS,
            &[
                "--amount",
                "1000000",
                "--sender",
                "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080",
            ],
        ]
        .concat(),
        None,
    );
    let created = sandbox(&["--json", "create-order"], Some(&quote));
    let created: Value = serde_json::from_str(&created).unwrap();
    let order_id = created["onramp"]["order_id"].as_str().unwrap().to_owned();
    assert!(sandbox(&["order", &order_id], None).contains(&order_id));
    let orders = sandbox(&["--json", "orders", RECIPIENT], None);
    assert!(orders.contains(&order_id), "{orders}");
    let lookup = sandbox(&["lookup", RECIPIENT], None);
    assert!(lookup.contains("Looked up on Sandbox"), "{lookup}");
    assert!(lookup.contains(&order_id), "{lookup}");
    let spendable = sandbox(
        &[
            "max-spendable",
            "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080",
        ],
        None,
    );
    assert!(spendable.contains("Spendable:"), "{spendable}");
}

/// `gateway --network sandbox swap --production-shape`: the offramp goes through bob's published entry contract (an
/// AllowanceHolder-style contract on the local chain) as its `exec`; the terminal shows the chain's simulation of
/// exactly the quote's input leaving, and the order is approved, signed and registered without blind signing.
#[cfg_attr(
    not(feature = "sandbox"),
    ignore = "the Sandbox inside the command needs `--features sandbox`"
)]
#[test]
fn a_production_shaped_offramp_is_simulated_and_registered_from_the_terminal() {
    let home = tempfile::tempdir().unwrap();
    let out = run_with_env(
        &[
            &SANDBOX_OFFRAMP[..],
            &["--production-shape", "--yes", "--no-follow"],
        ]
        .concat(),
        &[
            ("GATEWAY_MNEMONIC", ABANDON),
            ("GATEWAY_DESK_HOME", home.path().to_str().unwrap()),
        ],
        None,
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    for expected in [
        "Approve 0.001 WBTC to the gateway's contract 0x8fd545b348E84dEb145F0179a00c671F0b9519C3",
        "  Simulated (eth_simulateV1 on http://127.0.0.1:",
        "−0.001 WBTC to 0x676174657761792d73696d2d636F6E7472616374, network fee at most ",
        "nothing else leaves the wallet.",
        "Registered: the gateway has the transaction.",
    ] {
        assert!(stdout.contains(expected), "{expected:?} in {stdout}");
    }
}

/// A production-shaped lie inside `exec` from the terminal: the Sandbox's gateway lets a stranger pull the amount (its
/// admin interface). The order is created and its call decoded, then the chain's simulation refuses it before anything
/// is signed: exit 5 and the sentence.
#[cfg_attr(
    not(feature = "sandbox"),
    ignore = "the Sandbox inside the command needs `--features sandbox`"
)]
#[tokio::test(flavor = "multi_thread")]
async fn a_production_shaped_lie_inside_exec_is_refused_by_the_simulation_from_the_terminal() {
    let (code, stdout, rest) = swap_with_tamper(
        &[&SANDBOX_OFFRAMP[..], &["--production-shape"]].concat(),
        "execStrangerPulls",
    )
    .await;
    assert_eq!(code, Some(5), "{stdout}\n{rest}");
    assert!(
        rest.contains("a third party") && rest.contains("Nothing was signed"),
        "{rest}"
    );
    assert!(!stdout.contains("mined:"), "{stdout}");
}
