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

/// The stand-alone sim checks what the app's Sandbox checks when it is given a chain: with `--chain bob` it starts a
/// local BOB node (anvil with the Sandbox's contracts) and a registered hash the chain does not have is refused;
/// without it the same registration is accepted (there is nothing to check it on). `--node bob=URL` uses a node
/// already running there instead, the same way.
#[tokio::test]
async fn given_a_chain_the_stand_alone_sim_checks_registered_transactions_on_it() {
    use gateway_client::wire::{NATIVE_TOKEN, RegisterTx};
    use gateway_client::{ApiVersion, Client, ClientConfig, ClientError, QuoteRequest};

    const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
    const USER: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    const BTC: &str = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";
    let running_node = gateway_sim::evm_node::EvmNode::start("bob").await.unwrap();
    let node_arg = format!("bob={}", running_node.url());
    for chain_args in [&[][..], &["--chain", "bob"][..], &["--node", &node_arg][..]] {
        let mut child = Command::new(BIN)
            .args(["--listen", "127.0.0.1:0", "--keyless-per-minute", "0"])
            .args(chain_args)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let first = lines.next().unwrap().unwrap();
        let base = first
            .strip_prefix("gateway-sim listening on ")
            .unwrap_or_else(|| panic!("{first:?}"))
            .to_owned();
        if !chain_args.is_empty() {
            let named = lines.next().unwrap().unwrap();
            assert!(
                named.starts_with("gateway-sim chain bob on http://127.0.0.1:"),
                "{named}"
            );
            if chain_args[0] == "--node" {
                assert_eq!(
                    named,
                    format!("gateway-sim chain bob on {}", running_node.url())
                );
            }
        }
        let mut config = ClientConfig::new(base.parse().unwrap());
        config.version = ApiVersion::V3;
        let v3 = Client::new(config).unwrap();
        let mut request =
            QuoteRequest::new(("bob", WBTC_BOB), ("bitcoin", NATIVE_TOKEN), "100000", BTC);
        request.sender = Some(USER.into());
        request.owner_address = Some(USER.into());
        let quote = v3.get_quote(&request).await.unwrap().value;
        let created = v3.create_order(&quote).await.unwrap().value;
        let unknown = format!("0x{}", "ab".repeat(32));
        let registered = v3
            .register_tx(&RegisterTx::offramp(created.order_id(), &unknown, "bob"))
            .await;
        match (chain_args.is_empty(), registered) {
            (true, Ok(_)) => {}
            (false, Err(ClientError::Gateway { body, .. })) => {
                assert!(
                    body.error.contains("the chain has no transaction"),
                    "{}",
                    body.error
                );
            }
            (_, other) => panic!("{chain_args:?}: {other:?}"),
        }
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
