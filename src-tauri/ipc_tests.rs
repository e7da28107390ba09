//! The commands through Tauri's IPC layer (the mock runtime, the app's real configuration and capabilities): the
//! arguments the window sends (`ui/src/lib/ipc.ts`: `{ args: <Command>Args }`) reach the commands, errors come back
//! as `DeskError`s, and the window may call nothing else.

use desk_core::{AppPaths, DeskEvent};
use serde_json::{Value, json};
use tauri::test::{INVOKE_KEY, MockRuntime, get_ipc_response, mock_builder};
use tauri::webview::InvokeRequest;
use tauri::{App, Listener, Manager, WebviewWindow, WebviewWindowBuilder};

use crate::{events, with_commands};

struct Window {
    _app: App<MockRuntime>,
    webview: WebviewWindow<MockRuntime>,
    _home: tempfile::TempDir,
}

/// The app with a fresh home folder (on the Sandbox) and its main window.
fn open() -> Window {
    let home = tempfile::tempdir().unwrap();
    let desk =
        tauri::async_runtime::block_on(desk_sandbox::open_desk(AppPaths::under(home.path())))
            .unwrap();
    let app = with_commands(mock_builder())
        .build(tauri::generate_context!())
        .unwrap();
    app.manage(desk);
    let webview = WebviewWindowBuilder::new(&app, "main", Default::default())
        .build()
        .unwrap();
    Window {
        _app: app,
        webview,
        _home: home,
    }
}

impl Window {
    /// Calls `cmd` as `ui/src/lib/ipc.ts` does: no body for a command without arguments (`Value::Null`), else its
    /// `…Args` object under `args`.
    fn invoke(&self, cmd: &str, args: Value) -> Result<Value, Value> {
        let body = if args.is_null() {
            args
        } else {
            json!({ "args": args })
        };
        self.invoke_raw(cmd, body)
    }

    /// Calls `cmd` with exactly `body`.
    fn invoke_raw(&self, cmd: &str, body: Value) -> Result<Value, Value> {
        get_ipc_response(
            &self.webview,
            InvokeRequest {
                cmd: cmd.into(),
                callback: tauri::ipc::CallbackFn(0),
                error: tauri::ipc::CallbackFn(1),
                url: "tauri://localhost".parse().unwrap(),
                body: body.into(),
                headers: Default::default(),
                invoke_key: INVOKE_KEY.to_owned(),
            },
        )
        .map(|body| body.deserialize::<Value>().unwrap())
    }

    /// The command's `DeskError`: an object with a kind and a sentence, not Tauri's string about bad arguments.
    fn desk_error(&self, cmd: &str, args: Value) -> Value {
        let err = self
            .invoke(cmd, args.clone())
            .expect_err(&format!("{cmd} {args} fails"));
        assert!(
            err.get("kind").is_some_and(Value::is_string)
                && err.get("message").is_some_and(Value::is_string),
            "{cmd} {args}: not a DeskError: {err}"
        );
        err
    }
}

#[test]
fn the_window_s_argument_names_reach_every_command() {
    let window = open();

    let settings = window.invoke("get_settings", Value::Null).unwrap();
    assert_eq!(settings["network"]["kind"], "sandbox", "{settings}");
    window
        .invoke("select_network", json!({"choice": {"kind": "sandbox"}}))
        .unwrap();
    let routes = window.invoke("list_routes", Value::Null).unwrap();
    assert!(routes.as_array().is_some_and(|r| !r.is_empty()), "{routes}");
    let settings = window
        .invoke("set_theme", json!({"theme": "dark"}))
        .unwrap();
    assert_eq!(settings["theme"], "dark");
    let settings = window
        .invoke("set_api_version", json!({"version": "v2"}))
        .unwrap();
    assert_eq!(settings["network"]["apiVersion"], "v2", "{settings}");
    assert_eq!(
        window.invoke("list_orders", Value::Null).unwrap(),
        json!([])
    );
    assert_eq!(
        window.invoke("refresh_orders", Value::Null).unwrap(),
        Value::Null
    );
    assert_eq!(
        window
            .invoke("order_next_check", json!({"orderId": "not-followed"}))
            .unwrap(),
        Value::Null,
        "an order the tracker does not follow has no next check"
    );
    let address = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    let settings = window
        .invoke("watch_address", json!({ "address": address }))
        .unwrap();
    assert_eq!(settings["watched"], json!([address]));
    let settings = window
        .invoke("unwatch_address", json!({ "address": address }))
        .unwrap();
    assert_eq!(settings["watched"], json!([]));

    // Refusals from desk-core: the arguments arrived, and the error keeps its structure.
    let form = json!({
        "srcChain": "bitcoin", "srcToken": "BTC", "dstChain": "bob",
        "dstToken": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "amount": "0.000000001",
        "slippageBps": 300, "recipient": address,
    });
    let err = window.desk_error("request_quote", json!({ "form": form }));
    assert_eq!(err["details"], json!({"field": "amount"}));
    let err = window.desk_error("start_order", json!({"quote": {"not": "a quote"}}));
    assert_eq!(err["details"], json!({"field": "quote"}));
    let err = window.desk_error("watch_address", json!({"address": "nowhere"}));
    assert_eq!(err["details"], json!({"field": "address"}));
    let err = window.desk_error("set_api_key", json!({"key": "too short"}));
    assert_eq!(err["details"], json!({"field": "apiKey"}));
    // The Sandbox's Bitcoin network is regtest, always: the choice is refused, and the header says so.
    assert_eq!(
        settings["network"]["bitcoinNetwork"], "regtest",
        "{settings}"
    );
    assert_eq!(
        settings["network"]["simulated"],
        "Sandbox — simulated, no real money moves"
    );
    let view = window
        .invoke("set_blind_signing", json!({"on": true}))
        .unwrap();
    assert_eq!(view["blindSigning"], json!(true));
    let view = window
        .invoke("set_blind_signing", json!({"on": false}))
        .unwrap();
    assert_eq!(view.get("blindSigning"), None);
    let err = window.desk_error("set_bitcoin_network", json!({"network": "mainnet"}));
    assert_eq!(err["details"], json!({"field": "bitcoinNetwork"}));
    for (cmd, args) in [
        ("hand_in", json!({"localId": 999, "text": "00"})),
        ("resume_order", json!({"localId": 999})),
        ("discard_order", json!({"localId": 999})),
        ("abandon_order", json!({"localId": 999})),
        ("acknowledge_order", json!({"localId": 999})),
        // Fails before any dialog: there is no such order.
        ("save_psbt", json!({"localId": 999})),
        ("psbt_export", json!({"localId": 999})),
        // Only the app's own explorer links are opened.
        (
            "open_explorer",
            json!({"url": "https://evil.example/tx/ab"}),
        ),
    ] {
        window.desk_error(cmd, args);
    }
    // `remove_api_key` takes no argument; it is not called here, so that a developer's own keychain is left alone.

    // A snake_case name is not what the command accepts: this is the mistake the test above would catch.
    let err = window
        .invoke("resume_order", json!({"local_id": 999}))
        .unwrap_err();
    assert!(err.as_str().is_some_and(|e| e.contains("localId")), "{err}");
    // Nor is a name it does not know (a misspelt optional argument is not silently dropped).
    let err = window
        .invoke("start_order", json!({"quote": {}, "acceptedLoss": 50}))
        .unwrap_err();
    assert!(
        err.as_str().is_some_and(|e| e.contains("acceptedLoss")),
        "{err}"
    );
    // Nor the arguments outside `args` (the shape before the commands took one `…Args` each).
    let err = window
        .invoke_raw("resume_order", json!({"localId": 999}))
        .unwrap_err();
    assert!(err.as_str().is_some_and(|e| e.contains("args")), "{err}");
}

#[test]
fn the_partner_and_support_commands_take_the_window_s_arguments() {
    let window = open();
    let affiliate = "0x1111111111111111111111111111111111111111";
    let settings = window
        .invoke(
            "set_affiliates",
            json!({"affiliates": [{"address": affiliate, "bps": 50}], "tokenSwapAffiliate": null}),
        )
        .unwrap();
    assert_eq!(
        settings["affiliates"],
        json!([{"address": affiliate, "bps": 50}])
    );
    let err = window.desk_error(
        "set_affiliates",
        json!({"affiliates": [{"address": affiliate, "bps": 1001}], "tokenSwapAffiliate": null}),
    );
    assert_eq!(err["details"]["field"], "affiliates", "{err}");

    let dashboard = window
        .invoke("partner_dashboard", json!({"query": {"period": "week"}}))
        .unwrap();
    assert_eq!(dashboard["orders"], 0, "{dashboard}");
    assert_eq!(dashboard["period"], "week");

    // An unknown order on the Sandbox: the lookup ran and says nothing was found.
    let err = window.desk_error(
        "support_lookup",
        json!({"query": {"network": "sandbox", "apiVersion": "v3", "query": "no-such-order"}}),
    );
    assert!(
        err["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{err}"
    );
    for (cmd, args) in [
        (
            "bundle_preview",
            json!({"localId": 999, "options": {"includeIdentifiers": false}}),
        ),
        (
            "save_bundle",
            json!({"localId": 999, "options": {"includeIdentifiers": true}}),
        ),
        (
            "import_bundle",
            json!({"text": "{\"format\": \"something else\"}"}),
        ),
        (
            "reproduce_quote",
            json!({"source": {"kind": "quote", "text": "not a quote"}}),
        ),
        // Only files inside the app's data folder are shown.
        ("reveal_path", json!({"path": "/etc/passwd"})),
    ] {
        window.desk_error(cmd, args);
    }
}

#[test]
fn an_onramp_s_psbt_reaches_the_window_as_base64_hex_and_animated_qr_frames() {
    let window = open();
    let sender = gateway_sim::payload::testkit::TestWallet::from_seed([9; 32])
        .address(bitcoin::Network::Regtest);
    let form = json!({
        "srcChain": "bitcoin", "srcToken": "BTC", "dstChain": "bob",
        "dstToken": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "amount": "0.0025",
        "slippageBps": 300, "recipient": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        "sender": sender,
    });
    let quote = window
        .invoke("request_quote", json!({ "form": form }))
        .unwrap();
    assert_eq!(quote["type"], "quote", "{quote}");
    let order = window
        .invoke("start_order", json!({"quote": quote["card"]["raw"]}))
        .unwrap();
    let psbt_hex = order["created"]["onramp"]["psbt_hex"].as_str().unwrap();
    let export = window
        .invoke("psbt_export", json!({"localId": order["localId"]}))
        .unwrap();

    // Exactly what desk-core makes of the order's PSBT: the same bytes in every form.
    let bytes: Vec<u8> = (0..psbt_hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&psbt_hex[i..i + 2], 16).unwrap())
        .collect();
    let expected = desk_core::psbt_export::forms(&bytes).unwrap();
    assert_eq!(export, serde_json::to_value(&expected).unwrap());
    assert_eq!(export["hex"], psbt_hex);
    assert!(
        export["base64"].as_str().unwrap().starts_with("cHNidP8"),
        "{export}"
    );
    let frames = export["urFrames"].as_array().unwrap();
    let svgs = export["qrSvgs"].as_array().unwrap();
    assert!(!frames.is_empty() && frames.len() == svgs.len(), "{export}");
    assert!(
        frames
            .iter()
            .all(|f| f.as_str().unwrap().starts_with("ur:crypto-psbt/")),
        "{frames:?}"
    );
    assert!(
        svgs.iter()
            .all(|s| s.as_str().unwrap().starts_with("<svg "))
    );
    assert_eq!(export.get("qrUnavailable"), None);
}

#[test]
fn the_window_may_call_no_plugin_command() {
    let window = open();
    for cmd in [
        "plugin:dialog|save",
        "plugin:dialog|open",
        "plugin:dialog|message",
        "plugin:notification|notify",
        "plugin:notification|is_permission_granted",
        "plugin:opener|open_url",
        "plugin:opener|reveal_item_in_dir",
    ] {
        let err = window.invoke_raw(cmd, json!({})).unwrap_err();
        assert!(
            err.as_str().is_some_and(|e| e.contains("not allowed")),
            "{cmd}: {err}"
        );
    }
}

#[test]
fn updates_reach_the_main_window_as_desk_events() {
    let window = open();
    let (tx, rx) = std::sync::mpsc::channel();
    window.webview.listen(events::DESK_EVENT, move |event| {
        let _ = tx.send(event.payload().to_owned());
    });
    let (sender, receiver) = tokio::sync::broadcast::channel(4);
    events::forward(window.webview.app_handle().clone(), receiver, 0);
    sender
        .send(DeskEvent::ReadFailed {
            message: "The gateway did not answer.".into(),
            retry_in_secs: 15,
        })
        .unwrap();
    let payload = rx
        .recv_timeout(std::time::Duration::from_secs(10))
        .expect("the window hears of it");
    assert_eq!(
        serde_json::from_str::<Value>(&payload).unwrap(),
        json!({"type": "readFailed", "message": "The gateway did not answer.", "retryInSecs": 15})
    );
}
