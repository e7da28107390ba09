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
        let section = css(&app, &format!("[data-testid=view-{view}]")).await;
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
