//! Support bundles end to end: an onramp made through the Desk on the Sandbox with an API key set, the app's log
//! file written by `logs::init`, a bundle previewed, saved, read back and imported.
//!
//! In the `process_wide` binary, taking its turn: `logs::init` installs the process's global subscriber (once), and
//! the keychain is the mock store (also process-wide).

use std::time::Duration;

use desk_core::AppPaths;
use desk_core::logs;
use desk_core::support::{BUNDLE_DIR, BundleOptions};
use gateway_sim::payload::testkit::TestWallet;

use crate::common;

use common::{EVM as RECIPIENT, OWNER, WBTC_BOB, card, complete_onramp, onramp_form, open, psbt};

/// The network's API key (32 characters, as the gateway issues them).
const KEY: &str = "SupportBundleKey0123456789abcdef";
/// A bearer token nobody registered, written into a log line.
const UNREGISTERED: &str = "Zq8Wn3Lk5Pj7Hg2Fd4Sa6Mx9Cv1Bn0Qe";
/// A filter variable nobody sets, so the default filter (`info`) applies.
const FILTER_ENV: &str = "GATEWAY_DESK_LOG_TEST_NEVER_SET";

/// Waits until the log file holds a line about `needle` that contains `text` (the file writer runs on its own thread).
async fn logged(log_dir: &std::path::Path, needle: &str, text: &str) {
    for _ in 0..200 {
        if logs::read_matching_lines(log_dir, needle, 100)
            .iter()
            .any(|l| l.contains(text))
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no log line about {needle} with {text:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bundle_is_previewed_saved_without_the_key_and_imported_as_the_user_saw_it() {
    let _turn = crate::TURN.lock().await;
    let home = tempfile::tempdir().unwrap();
    let paths = AppPaths::under(home.path());
    let _guard = logs::init(&paths.log_dir, FILTER_ENV).expect("logging starts");
    let desk = open(home.path()).await;
    let mut events = desk.subscribe();
    let view = desk.set_api_key(KEY).await.unwrap();
    assert!(view.api_key.is_some(), "the Sandbox accepts a stored key");

    // An onramp from the form to completed.
    let wallet = TestWallet::from_seed([7; 32]);
    let form = onramp_form(Some(wallet.address(bitcoin::Network::Regtest)));
    let card = card(&desk, &form).await;
    let order = desk.start_order(card.raw.clone(), None).await.unwrap();
    let local_id = order.local_id.unwrap();
    let order_id = order.order_id.clone().unwrap();
    let psbt = psbt(&order);
    let order = desk
        .hand_in(local_id, &wallet.sign_psbt(&psbt).unwrap())
        .await
        .unwrap();
    let txid = order.handed_in.as_ref().unwrap().id().to_owned();
    complete_onramp(&desk, &mut events, local_id).await;

    // What the app logged about the order, plus an older file with a key in it (as a careless line might hold).
    logged(&paths.log_dir, &order_id, "order created").await;
    logged(
        &paths.log_dir,
        &format!("local_id={local_id}"),
        "registered",
    )
    .await;
    std::fs::write(
        paths.log_dir.join("gateway-desk.2000-01-01.log"),
        format!(
            "2000-01-01T00:00:00.000000Z  WARN support: order {order_id} key {KEY} header Authorization: Bearer \
             {UNREGISTERED} to {RECIPIENT}\n\
             2000-01-01T00:00:01.000000Z  WARN support: order {order_id} could not be written to {}: disk full\n",
            paths.data_dir.join("support-bundles").display()
        ),
    )
    .unwrap();

    let orders_before = desk.orders().await.unwrap();
    let shown = desk.order_view(local_id).unwrap();

    // The preview: no key, addresses and the txid shortened, the order id and the log lines in.
    let preview = desk
        .bundle_preview(local_id, BundleOptions::default())
        .unwrap();
    let text = &preview.text;
    for absent in [KEY, UNREGISTERED, RECIPIENT, OWNER, txid.as_str(), &psbt] {
        assert!(!text.contains(absent), "{absent} is in the bundle");
    }
    // No file path of the app's folders either (they would name the user).
    assert!(
        !text.contains(home.path().to_str().unwrap()),
        "the data folder is in the bundle"
    );
    assert!(
        text.contains("could not be written to <path>: disk full"),
        "{text}"
    );
    // The owner is not in it at all: a V3 onramp quote has no owner field (the published schema defines none), so the
    // gateway keeps the owner beside the quote and nothing the app journals repeats it.
    for present in ["0x5aAe…eAed", &order_id, WBTC_BOB] {
        assert!(text.contains(present), "{present} is not in the bundle");
    }
    assert!(text.contains(&format!("{}…{}", &txid[..4], &txid[60..])));
    // A Sandbox order's bundle says so in its name and at its top.
    assert!(
        preview
            .file_name
            .starts_with(&format!("sandbox-SIMULATED-order-{order_id}-")),
        "{}",
        preview.file_name
    );
    assert!(
        text.contains(r#""simulated": "Sandbox — simulated, no real money moves""#),
        "{text}"
    );
    assert!(preview.events >= 8, "{}", preview.events);
    assert!(preview.log_lines >= 3, "{}", preview.log_lines);
    assert!(
        preview
            .redactions
            .iter()
            .any(|r| r.contains("addresses shortened")),
        "{:?}",
        preview.redactions
    );
    let file: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(file["format"], "gateway-desk-support-bundle");
    assert_eq!(file["network"], "sandbox");
    assert_eq!(file["apiVersion"], "v4");
    assert_eq!(file["appVersion"], env!("CARGO_PKG_VERSION"));
    let lines: Vec<&str> = file["logLines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(
        lines[0].contains("Bearer [api-key]") && lines[0].contains("key [api-key]"),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("order created")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.contains("registered")), "{lines:?}");

    // Saved: exactly the preview's bytes (made a second later, so a bundle made anew would differ in its time), in
    // the data folder's support-bundles.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let path = desk
        .save_bundle(local_id, BundleOptions::default())
        .unwrap();
    let path = std::path::PathBuf::from(path);
    assert_eq!(
        path,
        paths.data_dir.join(BUNDLE_DIR).join(&preview.file_name)
    );
    let saved = std::fs::read(&path).unwrap();
    assert_eq!(saved, preview.text.as_bytes());
    let saved = String::from_utf8(saved).unwrap();
    assert!(!saved.contains(KEY));

    // Imported: the timeline as the user saw it; the journal untouched.
    let imported = desk.import_bundle(&saved).unwrap();
    assert_eq!(
        imported.simulated.as_deref(),
        Some("Sandbox — simulated, no real money moves")
    );
    assert_eq!(imported.order.timeline, shown.timeline);
    let keys: Vec<&str> = imported
        .order
        .timeline
        .iter()
        .map(|e| e.key.as_str())
        .collect();
    assert!(keys.starts_with(&["created", "registered"]), "{keys:?}");
    assert!(keys.contains(&"success"), "{keys:?}");
    assert_eq!(imported.order.status, shown.status);
    assert_eq!(imported.order.status_text, shown.status_text);
    assert_eq!(imported.order.stage, shown.stage);
    assert_eq!(imported.order.send, shown.send);
    assert_eq!(imported.order.receive, shown.receive);
    assert_eq!(imported.order.order_id, shown.order_id);
    assert_eq!(imported.network, "sandbox");
    assert_eq!(imported.events.len() as u64, preview.events);
    assert_eq!(imported.log_lines.len() as u64, preview.log_lines);
    assert!(!imported.identifiers_included);
    assert_eq!(desk.orders().await.unwrap(), orders_before);
    assert_eq!(desk.order_view(local_id).unwrap(), shown);

    // With identifiers kept: whole addresses, still no key.
    let kept = desk
        .bundle_preview(
            local_id,
            BundleOptions {
                include_identifiers: true,
            },
        )
        .unwrap();
    for present in [RECIPIENT, txid.as_str()] {
        assert!(kept.text.contains(present), "{present} was asked for");
    }
    assert!(!kept.text.contains(KEY) && !kept.text.contains(UNREGISTERED));
    let imported = desk.import_bundle(&kept.text).unwrap();
    assert_eq!(imported.order.timeline, shown.timeline);
    assert_eq!(imported.order.raw, shown.raw);
    desk.shutdown().await;

    // Another installation imports it without a trace in its own journal.
    let other_home = tempfile::tempdir().unwrap();
    let other = desk_sandbox::open_desk(AppPaths::under(other_home.path()))
        .await
        .unwrap();
    let imported = other.import_bundle(&saved).unwrap();
    assert_eq!(imported.order.timeline, shown.timeline);
    assert!(other.orders().await.unwrap().is_empty());
    assert!(
        other
            .bundle_preview(local_id, BundleOptions::default())
            .is_err(),
        "no such order in this journal"
    );
    other.shutdown().await;
}
