//! The `gateway-sim` command: it serves, its admin interface is loopback-only, and bad set-ups are refused.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_gateway-sim");

#[tokio::test]
async fn it_serves_with_admin_and_a_state_file() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state.json");
    let mut child = Command::new(BIN)
        .args(["--listen", "127.0.0.1:0", "--admin", "--network", "regtest"])
        .arg("--state-file")
        .arg(&state)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line
        .trim()
        .strip_prefix("gateway-sim listening on ")
        .unwrap_or_else(|| panic!("{line:?}"))
        .to_owned();
    let http = reqwest::Client::new();
    let routes = http
        .get(format!("{base}/v3/get-routes"))
        .send()
        .await
        .unwrap();
    assert_eq!(routes.status(), 200);
    let clock: serde_json::Value = http
        .post(format!("{base}/admin/clock/advance"))
        .header("content-type", "application/json")
        .body(r#"{"secs": 5}"#)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(clock["advancedSecs"], 5);
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn admin_off_loopback_and_malformed_keys_are_refused() {
    let out = Command::new(BIN)
        .args(["--listen", "0.0.0.0:0", "--admin"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("loopback"));

    let out = Command::new(BIN)
        .args(["--listen", "127.0.0.1:0", "--api-key", "too-short"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("32"), "{stderr}");
    assert!(
        !stderr.contains("too-short"),
        "the key is not echoed: {stderr}"
    );
}
