//! The live log end to end: `logs::init` in a temporary folder, events through `tracing`, the file read back.
//!
//! Its own test binary with a single test, because `init` installs the process's global subscriber (once).

use std::path::Path;
use std::time::{Duration, SystemTime};

use desk_core::logs::{self, LogError, RedactOptions};
use tracing::{debug, info, warn};

const KEY: &str = "Kx7pQ2mZ9vR4tY8wB1nC6dF3gH5jLzsA";
const UNREGISTERED: &str = "Zq8Wn3Lk5Pj7Hg2Fd4Sa6Mx9Cv1Bn0Qe";
const EVM_ADDRESS: &str = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e";
const BTC_ADDRESS: &str = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const BTC_TXID: &str = "f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16";
const EVM_TX: &str = "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060";
const ORDER_ID: &str = "550e8400-e29b-41d4-a716-446655440000";
/// A filter variable nobody sets, so the default filter (`info`) applies.
const FILTER_ENV: &str = "GATEWAY_DESK_LOG_TEST_NEVER_SET";

#[derive(Debug)]
#[allow(dead_code)] // read through Debug only
struct Request {
    url: &'static str,
    authorization: String,
}

#[test]
fn the_log_file_carries_no_key_and_rotates_by_day() {
    let dir = tempfile::tempdir().unwrap();
    let log_dir = dir.path().join("logs");
    std::fs::create_dir_all(&log_dir).unwrap();
    // Twenty older daily files (created oldest first) and a file that is not a log.
    for day in 1..=20 {
        let name = format!("gateway-desk.2024-01-{day:02}.log");
        std::fs::write(log_dir.join(name), format!("old day {day}\n")).unwrap();
        std::thread::sleep(Duration::from_millis(3));
    }
    std::fs::write(log_dir.join("notes.txt"), "not a log\n").unwrap();

    assert!(logs::register_secret(KEY));
    let day_before = utc_date(SystemTime::now());
    let guard = logs::init(&log_dir, FILTER_ENV).expect("logging starts");
    assert!(matches!(
        logs::init(&log_dir, FILTER_ENV),
        Err(LogError::AlreadyStarted)
    ));

    info!(
        api_key = KEY,
        recipient = EVM_ADDRESS,
        order_id = ORDER_ID,
        "paying with key {KEY}"
    );
    info!(
        header = %format!("Authorization: Bearer {UNREGISTERED}"),
        order_id = ORDER_ID,
        "request sent"
    );
    let request = Request {
        url: "https://gateway-api-mainnet.gobob.xyz/v3/orders",
        authorization: format!("Bearer {KEY}"),
    };
    warn!(
        ?request,
        txid = BTC_TXID,
        deposit = BTC_ADDRESS,
        "gateway slow"
    );
    debug!(secret = KEY, "below the default filter");
    // Span fields reach the file as plain text (no terminal colour codes).
    tracing::info_span!("create", network = "sandbox").in_scope(|| info!("inside a span"));
    // The flag that shortens ids in the live log too.
    logs::set_live_options(RedactOptions::SUPPORT_BUNDLE);
    info!(
        order_id = ORDER_ID,
        tx = EVM_TX,
        "shortened in the live log {EVM_ADDRESS}"
    );
    logs::set_live_options(RedactOptions::KEYS_ONLY);
    drop(guard); // flushes the file
    let day_after = utc_date(SystemTime::now());

    // Rotation: `gateway-desk.YYYY-MM-DD.log`, today's (UTC) file plus the 13 newest old ones; other files kept.
    let mut names: Vec<String> = std::fs::read_dir(&log_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert!(names.contains(&"notes.txt".to_owned()), "{names:?}");
    let logs_kept: Vec<&String> = names
        .iter()
        .filter(|n| n.starts_with("gateway-desk"))
        .collect();
    assert_eq!(logs_kept.len(), logs::MAX_FILES, "{names:?}");
    for day in 8..=20 {
        assert!(
            names.contains(&format!("gateway-desk.2024-01-{day:02}.log")),
            "{names:?}"
        );
    }
    let today = [day_before, day_after]
        .iter()
        .map(|date| format!("gateway-desk.{date}.log"))
        .find(|name| names.contains(name))
        .unwrap_or_else(|| panic!("no file for today in {names:?}"));
    let text = std::fs::read_to_string(log_dir.join(&today)).unwrap();

    assert!(!text.contains('\u{1b}'), "no colour codes: {text:?}");
    assert!(
        text.contains("create{network=\"sandbox\"}") || text.contains("create{network=sandbox}"),
        "{text}"
    );
    // API keys: nowhere, registered or not, in messages, fields or Debug output.
    assert!(!text.contains(KEY), "{text}");
    assert!(!text.contains(UNREGISTERED), "{text}");
    assert!(text.contains("paying with key [api-key]"), "{text}");
    assert!(text.contains(r#"api_key="[api-key]""#), "{text}");
    assert!(text.contains("Authorization: Bearer [api-key]"), "{text}");
    assert!(!text.contains("below the default filter"), "{text}");
    // Addresses and ids are whole by default, and shortened once the flag is on.
    assert!(text.contains(EVM_ADDRESS), "{text}");
    assert!(text.contains(BTC_ADDRESS), "{text}");
    assert!(text.contains(BTC_TXID), "{text}");
    assert!(text.contains(ORDER_ID), "{text}");
    let shortened = text
        .lines()
        .find(|l| l.contains("shortened in the live log"))
        .expect("the shortened event");
    assert!(shortened.contains("log 0x742d…f44e"), "{shortened}");
    assert!(shortened.contains(r#"tx="0x5c50…2060""#), "{shortened}");
    assert!(shortened.contains(ORDER_ID), "{shortened}");
    assert!(!text.contains(EVM_TX), "{text}");

    // For a support bundle: the same text shortened on request, order ids intact.
    let bundle = logs::redact(&text, &RedactOptions::SUPPORT_BUNDLE);
    for whole in [EVM_ADDRESS, BTC_ADDRESS, BTC_TXID, KEY, UNREGISTERED] {
        assert!(!bundle.contains(whole), "{whole} in {bundle}");
    }
    for short in ["0x742d…f44e", "bc1q…5mdq", "f418…9e16", ORDER_ID] {
        assert!(bundle.contains(short), "{short} not in {bundle}");
    }

    // The lines about one order, oldest first.
    let lines = logs::read_matching_lines(&log_dir, ORDER_ID, 10);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].contains("paying with key [api-key]"), "{lines:?}");
    assert!(lines[2].contains("shortened in the live log"), "{lines:?}");
    assert_eq!(logs::read_matching_lines(&log_dir, ORDER_ID, 1), lines[2..]);
    assert!(logs::read_matching_lines(&log_dir, "old day", 100).len() == 13);
    assert!(logs::read_matching_lines(Path::new("/nonexistent/logs"), ORDER_ID, 10).is_empty());
}

/// `YYYY-MM-DD` of `time` in UTC (the appender names files by the UTC date).
fn utc_date(time: SystemTime) -> String {
    desk_core::calendar::utc_date_text(desk_core::calendar::utc_now_secs(time))
}
