//! WebDriver tests of the real release window under Xvfb.
//!
//! They need the release app (built with the UI embedded), an X display and WebKitWebDriver, so a plain
//! `cargo test` skips them; `cargo xtask test` builds the app, starts Xvfb and runs them with `--ignored`.
//! Each test gets its own settings folder (`GATEWAY_DESK_HOME`) and reaches nothing but loopback.

use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use gateway_sim::Sim;
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(30);

fn app_binary() -> PathBuf {
    let path = std::env::var_os("GATEWAY_DESK_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/gateway-desk")
        });
    assert!(
        path.is_file(),
        "no app at {}: run `cargo xtask test`, which builds it",
        path.display()
    );
    assert!(
        std::env::var_os("DISPLAY").is_some(),
        "no DISPLAY: run `cargo xtask test`, which starts Xvfb"
    );
    path
}

/// WebKitWebDriver with its own settings folder for the app; stopped (SIGTERM) with everything it started.
struct Driver {
    process: Child,
    port: u16,
    home: tempfile::TempDir,
}

impl Driver {
    fn start() -> Self {
        let home = tempfile::tempdir().unwrap();
        let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let process = Command::new("WebKitWebDriver")
            .args([format!("--port={port}"), "--host=127.0.0.1".to_owned()])
            // Tauri 2 lets WebKit be automated only when this is set (as tauri-driver does).
            .env("TAURI_WEBVIEW_AUTOMATION", "true")
            .env("GATEWAY_DESK_HOME", home.path())
            // The Sandbox serves gateway-sim's admin interface, so the tests can move its clock.
            .env("GATEWAY_DESK_SANDBOX_ADMIN", "1")
            .stdout(Stdio::null())
            .spawn()
            .expect("WebKitWebDriver runs (the webkit2gtk-driver package)");
        let started = Instant::now();
        while TcpStream::connect((Ipv4Addr::LOCALHOST, port)).is_err() {
            assert!(
                started.elapsed() < WAIT,
                "WebKitWebDriver did not listen on {port}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Self {
            process,
            port,
            home,
        }
    }

    /// Opens the app: a new WebDriver session launches a new window.
    async fn open_app(&self) -> Client {
        let mut caps = serde_json::Map::new();
        caps.insert(
            "webkitgtk:browserOptions".into(),
            json!({ "binary": app_binary(), "args": [] }),
        );
        let mut builder =
            ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
        builder.capabilities(caps);
        let url = format!("http://127.0.0.1:{}", self.port);
        // A guard against a hang (an app that never offers automation), not a measure of speed.
        tokio::time::timeout(Duration::from_secs(120), builder.connect(&url))
            .await
            .expect("the app accepted a WebDriver session within 120 s")
            .expect("a WebDriver session with the app")
    }

    fn settings_file(&self) -> Value {
        let text = std::fs::read_to_string(self.home.path().join("config/settings.json"))
            .expect("settings written");
        serde_json::from_str(&text).unwrap()
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // Any app this test started carries its GATEWAY_DESK_HOME; stop those, then the driver, with SIGTERM.
        let marker = format!("GATEWAY_DESK_HOME={}", self.home.path().display());
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let environ = std::fs::read(entry.path().join("environ")).unwrap_or_default();
            if environ
                .split(|b| *b == 0)
                .any(|var| var == marker.as_bytes())
                && entry.file_name() != "self"
            {
                let _ = Command::new("kill")
                    .arg("-TERM")
                    .arg(entry.file_name())
                    .status();
            }
        }
        let _ = Command::new("kill")
            .args(["-TERM", &self.process.id().to_string()])
            .status();
        let _ = self.process.wait();
    }
}

async fn css(client: &Client, selector: &str) -> Element {
    client
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Css(selector))
        .await
        .unwrap_or_else(|e| panic!("{selector}: {e}"))
}

/// The rendered text (`innerText`) of the first element matching `selector`, if there is one.
///
/// WebKitWebDriver's element-text command reports "" for text in an `overflow: hidden` box with ellipsis, so the
/// page is asked directly.
async fn text_of(client: &Client, selector: &str) -> Option<String> {
    let script = "const e = document.querySelector(arguments[0]); return e ? e.innerText : null;";
    match client.execute(script, vec![json!(selector)]).await {
        Ok(Value::String(text)) => Some(text),
        _ => None,
    }
}

/// Waits until the text of `selector` satisfies `ok`, and returns it.
async fn wait_text(client: &Client, selector: &str, ok: impl Fn(&str) -> bool) -> String {
    let started = Instant::now();
    let mut last = None;
    while started.elapsed() < WAIT {
        if let Some(text) = text_of(client, selector).await {
            if ok(text.trim()) {
                return text.trim().to_owned();
            }
            last = Some(text);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{selector} never showed the expected text; last seen: {last:?}");
}

/// Chooses Custom URL in the header, enters `url`, connects, and waits for the header to say so.
async fn connect_custom(app: &Client, url: &str) {
    let select = css(app, "[data-testid=network-select]").await;
    select.select_by_value("custom").await.unwrap();
    css(app, "[data-testid=custom-url-input]")
        .await
        .send_keys(url)
        .await
        .unwrap();
    css(app, "[data-testid=custom-url-apply]")
        .await
        .click()
        .await
        .unwrap();
    wait_text(app, "[data-testid=current-network]", |t| t == "Custom URL").await;
}

fn count_in(text: &str) -> usize {
    text.split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count in {text:?}"))
}

#[tokio::test]
#[ignore = "needs the release app, Xvfb and WebKitWebDriver: run by `cargo xtask test`"]
async fn the_window_switches_networks_and_reads_the_sandbox_routes() {
    let driver = Driver::start();
    let other_gateway = Sim::new()
        .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let app = driver.open_app().await;

    // A fresh install opens on the Sandbox and lists every route of the embedded gateway.
    wait_text(&app, "[data-testid=current-network]", |t| t == "Sandbox").await;
    let all_routes = Sim::new()
        .catalogue()
        .routes(gateway_client::ApiVersion::V3)
        .len();
    let count = wait_text(&app, "[data-testid=routes-count]", |t| {
        t.starts_with(char::is_numeric)
    })
    .await;
    assert_eq!(count_in(&count), all_routes);
    let rows = app
        .find_all(Locator::Css("[data-testid=route-row]"))
        .await
        .unwrap();
    assert_eq!(rows.len(), all_routes);
    let groups = app
        .find_all(Locator::Css("[data-testid=route-group]"))
        .await
        .unwrap();
    assert_eq!(
        groups.len(),
        8,
        "one group per source chain: bitcoin, bob, ethereum, base, bsc, arbitrum, tron, solana"
    );

    // Filtering narrows the list to what matches.
    css(&app, "[data-testid=routes-filter]")
        .await
        .send_keys("tron")
        .await
        .unwrap();
    let filtered = wait_text(&app, "[data-testid=routes-count]", |t| {
        count_in(t) < all_routes
    })
    .await;
    let rows = app
        .find_all(Locator::Css("[data-testid=route-row]"))
        .await
        .unwrap();
    assert_eq!(rows.len(), count_in(&filtered));
    for row in rows {
        assert!(row.text().await.unwrap().to_lowercase().contains("tron"));
    }

    // Switch to a custom URL (a second gateway on loopback): the header changes and the choice is saved.
    connect_custom(&app, &other_gateway.base_url()).await;
    wait_text(&app, "[data-testid=current-network-url]", |t| {
        t.contains(&other_gateway.base_url())
    })
    .await;
    assert_eq!(driver.settings_file()["network"], "custom");

    // A URL that is not one is refused with a message, and the network stays as it was.
    css(&app, "[data-testid=custom-url-input]")
        .await
        .clear()
        .await
        .unwrap();
    css(&app, "[data-testid=custom-url-input]")
        .await
        .send_keys("gateway dot example")
        .await
        .unwrap();
    css(&app, "[data-testid=custom-url-apply]")
        .await
        .click()
        .await
        .unwrap();
    let error = wait_text(&app, "[data-testid=error]", |t| !t.is_empty()).await;
    assert!(error.contains("not a usable gateway URL"), "{error}");
    assert!(!error.contains('{'), "no raw JSON is shown: {error}");
    assert_eq!(
        wait_text(&app, "[data-testid=current-network]", |_| true).await,
        "Custom URL"
    );

    // Back to the Sandbox.
    css(&app, "[data-testid=network-select]")
        .await
        .select_by_value("sandbox")
        .await
        .unwrap();
    wait_text(&app, "[data-testid=current-network]", |t| t == "Sandbox").await;
    assert_eq!(driver.settings_file()["network"], "sandbox");
    app.close().await.unwrap();
}

#[tokio::test]
#[ignore = "needs the release app, Xvfb and WebKitWebDriver: run by `cargo xtask test`"]
async fn the_chosen_network_survives_a_restart_and_every_view_is_reachable() {
    let driver = Driver::start();
    let other_gateway = Sim::new()
        .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let app = driver.open_app().await;
    wait_text(&app, "[data-testid=current-network]", |t| t == "Sandbox").await;
    connect_custom(&app, &other_gateway.base_url()).await;
    app.close().await.unwrap();

    let app = driver.open_app().await;
    wait_text(&app, "[data-testid=current-network]", |t| t == "Custom URL").await;
    wait_text(&app, "[data-testid=current-network-url]", |t| {
        t.contains(&other_gateway.base_url())
    })
    .await;
    wait_text(&app, "[data-testid=routes-count]", |t| count_in(t) > 0).await;

    for view in ["swap", "orders", "routes", "partner", "support", "settings"] {
        css(&app, &format!("[data-testid=nav-{view}]"))
            .await
            .click()
            .await
            .unwrap();
        let testid = match view {
            "orders" => "orders-view".to_owned(),
            "settings" => "settings-view".to_owned(),
            other => format!("view-{other}"),
        };
        let section = css(&app, &format!("[data-testid={testid}]")).await;
        assert!(
            !section.text().await.unwrap().trim().is_empty(),
            "{view} says what it holds"
        );
        let current = css(&app, &format!("[data-testid=nav-{view}]"))
            .await
            .attr("aria-current")
            .await
            .unwrap();
        assert_eq!(current.as_deref(), Some("page"));
    }
    app.close().await.unwrap();
}

// ---- The swap flows (issue 6) ----

const EVM: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const OWNER: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
const BTC_ADDR: &str = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";
const NATIVE: &str = "0x0000000000000000000000000000000000000000";
const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
const USDT_BOB: &str = "0x05D032ac25d322df992303dCa074EE7392C117b9";
const USDT_ETH: &str = "0xdac17f958d2ee523a2206206994597c13d831ec7";

fn wallet() -> gateway_sim::payload::testkit::TestWallet {
    gateway_sim::payload::testkit::TestWallet::from_seed([21; 32])
}

/// Sets the value of an input, textarea or select the way typing or choosing would, and tells Svelte.
async fn set_value(client: &Client, testid: &str, value: &str) {
    css(client, &format!("[data-testid={testid}]")).await;
    let script = "const e = document.querySelector(`[data-testid=${arguments[0]}]`);\n\
        const proto = e.tagName === 'SELECT' ? HTMLSelectElement.prototype\n\
          : e.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;\n\
        Object.getOwnPropertyDescriptor(proto, 'value').set.call(e, arguments[1]);\n\
        e.dispatchEvent(new Event('input', { bubbles: true }));\n\
        e.dispatchEvent(new Event('change', { bubbles: true }));\n\
        return e.value;";
    // A select only takes a value once its options are there, and they arrive with the routes
    // (asynchronously after the window opens): try again until it holds or the wait is over.
    let started = Instant::now();
    loop {
        let set = client
            .execute(script, vec![json!(testid), json!(value)])
            .await
            .unwrap();
        if set == json!(value) {
            break;
        }
        assert!(
            started.elapsed() < WAIT,
            "{testid} did not take the value {value:?}: it holds {set}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The `value` of a form control.
async fn value_of(client: &Client, testid: &str) -> String {
    css(client, &format!("[data-testid={testid}]")).await;
    let script = "return document.querySelector(`[data-testid=${arguments[0]}]`).value;";
    client
        .execute(script, vec![json!(testid)])
        .await
        .unwrap()
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

async fn click(client: &Client, testid: &str) {
    let element = css(client, &format!("[data-testid={testid}]")).await;
    let started = Instant::now();
    // Wait while the button is disabled (a request is running).
    while element.attr("disabled").await.unwrap().is_some() {
        assert!(started.elapsed() < WAIT, "{testid} stayed disabled");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    element.click().await.unwrap();
}

async fn show(client: &Client, view: &str) {
    click(client, &format!("nav-{view}")).await;
}

/// A screenshot of the window into `$GATEWAY_DESK_SCREENSHOTS/<name>.png`, when that folder is given.
async fn screenshot(client: &Client, name: &str) {
    if let Some(dir) = std::env::var_os("GATEWAY_DESK_SCREENSHOTS") {
        let png = client.screenshot().await.unwrap();
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(Path::new(&dir).join(format!("{name}.png")), png).unwrap();
    }
}

struct Swap<'a> {
    src: (&'a str, &'a str),
    dst: (&'a str, &'a str),
    amount: &'a str,
    recipient: &'a str,
    sender: Option<&'a str>,
    owner: Option<&'a str>,
}

/// Fills the swap form and asks for a quote.
async fn fill_and_quote(app: &Client, swap: &Swap<'_>) {
    show(app, "swap").await;
    set_value(app, "swap-src-chain", swap.src.0).await;
    set_value(app, "swap-src-token", swap.src.1).await;
    set_value(app, "swap-dst-chain", swap.dst.0).await;
    set_value(app, "swap-dst-token", swap.dst.1).await;
    set_value(app, "swap-amount", swap.amount).await;
    set_value(app, "swap-recipient", swap.recipient).await;
    if let Some(sender) = swap.sender {
        set_value(app, "swap-sender", sender).await;
    }
    if let Some(owner) = swap.owner {
        set_value(app, "swap-owner", owner).await;
    }
    click(app, "swap-get-quote").await;
}

/// Runs one swap in the window up to registration; `sign` turns the order's signing step into what is pasted.
async fn swap_to_registration(app: &Client, swap: &Swap<'_>, onramp: bool) {
    fill_and_quote(app, swap).await;
    css(app, "[data-testid=quote-card]").await;
    let lines = app
        .find_all(Locator::Css("[data-testid=quote-fee-line]"))
        .await
        .unwrap();
    assert!(!lines.is_empty(), "every fee line is shown");
    click(app, "swap-confirm").await;
    wait_text(app, "[data-testid=confirm-summary]", |t| {
        t.contains(swap.amount)
    })
    .await;
    click(app, "confirm-go").await;
    css(app, "[data-testid=step-indicator]").await;
    wait_text(app, "[data-testid=verified-sentence]", |t| !t.is_empty()).await;
    let pasted = if onramp {
        wait_text(app, "[data-testid=deposit-address]", |t| t.contains("bc1q")).await;
        let psbt = value_of(app, "psbt-hex").await;
        assert!(psbt.starts_with("70736274ff"), "a PSBT: {psbt}");
        wallet().sign_psbt(&psbt).unwrap()
    } else {
        let to = wait_text(app, "[data-testid=tx-to]", |t| t.starts_with("0x")).await;
        assert!(!to.is_empty());
        // A made-up hash of the right shape: the Sandbox does not see chains.
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        format!("0x{stamp:064x}")
    };
    set_value(app, "signed-input", &pasted).await;
    click(app, "register-button").await;
    css(app, "[data-testid=registered]").await;
}

/// Moves the Sandbox's clock on through its admin interface (the app serves it with GATEWAY_DESK_SANDBOX_ADMIN=1).
async fn advance_sandbox(app: &Client, secs: u64) {
    let url = wait_text(app, "[data-testid=current-network-url]", |t| {
        t.contains("127.0.0.1")
    })
    .await;
    let base = url
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1"))
        .unwrap_or_else(|| panic!("no sandbox URL in {url:?}"))
        .trim_end_matches('/')
        .to_owned();
    reqwest::Client::new()
        .post(format!("{base}/admin/clock/advance"))
        .body(format!(r#"{{"secs": {secs}}}"#))
        .send()
        .await
        .unwrap()
        .error_for_status()
        .unwrap();
}

#[tokio::test]
#[ignore = "needs the release app, Xvfb and WebKitWebDriver: run by `cargo xtask test`"]
async fn an_onramp_an_offramp_and_a_token_swap_complete_in_the_orders_view() {
    let driver = Driver::start();
    let app = driver.open_app().await;
    wait_text(&app, "[data-testid=current-network]", |t| t == "Sandbox").await;
    screenshot(&app, "routes").await;

    let sender = wallet().address(bitcoin::Network::Bitcoin);
    let onramp = Swap {
        src: ("bitcoin", NATIVE),
        dst: ("bob", WBTC_BOB),
        amount: "0.0025",
        recipient: EVM,
        sender: Some(&sender),
        owner: Some(OWNER),
    };
    swap_to_registration(&app, &onramp, true).await;
    screenshot(&app, "swap-registered").await;
    click(&app, "swap-new").await;

    let offramp = Swap {
        src: ("bob", WBTC_BOB),
        dst: ("bitcoin", NATIVE),
        amount: "0.001",
        recipient: BTC_ADDR,
        sender: Some(EVM),
        owner: Some(OWNER),
    };
    fill_and_quote(&app, &offramp).await;
    css(&app, "[data-testid=quote-card]").await;
    screenshot(&app, "swap-quote").await;
    show(&app, "routes").await;
    show(&app, "swap").await;
    // Leaving the view lost nothing: the card is still there.
    css(&app, "[data-testid=quote-card]").await;
    swap_to_registration(&app, &offramp, false).await;
    click(&app, "swap-new").await;

    let token_swap = Swap {
        src: ("bob", USDT_BOB),
        dst: ("ethereum", USDT_ETH),
        amount: "50",
        recipient: EVM,
        sender: Some(EVM),
        owner: Some(OWNER),
    };
    swap_to_registration(&app, &token_swap, false).await;

    // All three are followed to completion in the Orders view.
    click(&app, "go-orders").await;
    css(&app, "[data-testid=orders-view]").await;
    advance_sandbox(&app, 2_000).await;
    click(&app, "orders-refresh").await;
    let started = Instant::now();
    loop {
        let statuses: Vec<String> = {
            let mut list = Vec::new();
            for row in app
                .find_all(Locator::Css(
                    "[data-testid=order-row] [data-testid=order-status]",
                ))
                .await
                .unwrap()
            {
                list.push(row.text().await.unwrap());
            }
            list
        };
        if statuses.len() == 3 && statuses.iter().all(|s| s.contains("Completed")) {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(90),
            "the three orders did not all complete: {statuses:?}"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    click(&app, "order-toggle").await;
    css(&app, "[data-testid=order-timeline]").await;
    screenshot(&app, "orders").await;
    show(&app, "settings").await;
    css(&app, "[data-testid=settings-view]").await;
    screenshot(&app, "settings").await;
    app.close().await.unwrap();
}

#[tokio::test]
#[ignore = "needs the release app, Xvfb and WebKitWebDriver: run by `cargo xtask test`"]
async fn an_amount_below_the_minimum_shows_the_minimum() {
    let driver = Driver::start();
    let app = driver.open_app().await;
    wait_text(&app, "[data-testid=current-network]", |t| t == "Sandbox").await;
    let small = Swap {
        src: ("bitcoin", NATIVE),
        dst: ("bob", WBTC_BOB),
        amount: "0.00001",
        recipient: EVM,
        sender: None,
        owner: None,
    };
    fill_and_quote(&app, &small).await;
    let question = wait_text(&app, "[data-testid=question]", |t| !t.is_empty()).await;
    assert!(
        question.contains("0.0001 BTC"),
        "the minimum in BTC: {question}"
    );
    app.close().await.unwrap();
}

#[tokio::test]
#[ignore = "needs the release app, Xvfb and WebKitWebDriver: run by `cargo xtask test`"]
async fn the_api_key_is_set_and_removed_in_settings() {
    let driver = Driver::start();
    let app = driver.open_app().await;
    wait_text(&app, "[data-testid=current-network]", |t| t == "Sandbox").await;
    show(&app, "settings").await;
    let status = wait_text(&app, "[data-testid=api-key-status]", |t| !t.is_empty()).await;
    if status.contains("No keychain") || status.to_lowercase().contains("no keychain") {
        panic!("the tests run with a keychain (gnome-keyring in dbus-run-session): {status}");
    }
    set_value(&app, "api-key-input", "0123456789abcdef0123456789abcdef").await;
    click(&app, "api-key-save").await;
    wait_text(&app, "[data-testid=api-key-status]", |t| {
        t.contains("01…ef")
    })
    .await;
    assert_eq!(
        value_of(&app, "api-key-input").await,
        "",
        "the field is cleared"
    );
    let settings = std::fs::read_to_string(driver.home.path().join("config/settings.json"))
        .unwrap_or_default();
    assert!(
        !settings.contains("0123456789abcdef"),
        "the key is not in the settings file"
    );
    click(&app, "api-key-remove").await;
    click(&app, "api-key-remove-confirm").await;
    wait_text(&app, "[data-testid=api-key-status]", |t| {
        !t.contains("01…ef")
    })
    .await;
    app.close().await.unwrap();
}

#[tokio::test]
#[ignore = "needs the release app, Xvfb and WebKitWebDriver: run by `cargo xtask test`"]
async fn an_unfinished_order_survives_a_restart_of_the_app() {
    let driver = Driver::start();
    let app = driver.open_app().await;
    wait_text(&app, "[data-testid=current-network]", |t| t == "Sandbox").await;
    let sender = wallet().address(bitcoin::Network::Bitcoin);
    let onramp = Swap {
        src: ("bitcoin", NATIVE),
        dst: ("bob", WBTC_BOB),
        amount: "0.0025",
        recipient: EVM,
        sender: Some(&sender),
        owner: Some(OWNER),
    };
    fill_and_quote(&app, &onramp).await;
    click(&app, "swap-confirm").await;
    click(&app, "confirm-go").await;
    let psbt_before = {
        css(&app, "[data-testid=psbt-hex]").await;
        value_of(&app, "psbt-hex").await
    };
    app.execute(
        "document.querySelector('[data-testid=step-indicator]').scrollIntoView();",
        vec![],
    )
    .await
    .unwrap();
    screenshot(&app, "swap-sign").await;
    app.close().await.unwrap();

    // The app starts again: the order waits in "Needs your attention" with its next step.
    let app = driver.open_app().await;
    show(&app, "orders").await;
    let row = wait_text(&app, "[data-testid=attention-row]", |t| !t.is_empty()).await;
    assert!(row.to_lowercase().contains("sign"), "{row}");
    click(&app, "attention-go-sign").await;
    css(&app, "[data-testid=psbt-hex]").await;
    assert_eq!(
        value_of(&app, "psbt-hex").await,
        psbt_before,
        "the same order, the same PSBT"
    );
    let signed = wallet().sign_psbt(&psbt_before).unwrap();
    set_value(&app, "signed-input", &signed).await;
    click(&app, "register-button").await;
    css(&app, "[data-testid=registered]").await;
    app.close().await.unwrap();
}
