//! Support bundles: one JSON file about one of the app's own orders, for whoever helps the user.
//!
//! A bundle holds the app version, the operating system, the network and API version, the order's journal record
//! and every journal event with the gateway's answers as received, and the log lines that mention the order. It is
//! redacted before anyone sees it: API keys never appear (fields named like a key or an authorization header are
//! dropped, every key the app knows becomes `[api-key]`, and the finished text is checked once more for the current
//! network's key), and addresses and transaction ids are shortened to `first4…last4` unless the user opts to include
//! them ([`BundleOptions::include_identifiers`]). Order ids stay whole: they are what support looks up.
//!
//! [`Desk::bundle_preview`] shows exactly the text [`Desk::save_bundle`] writes. [`read_bundle`] (and
//! [`Desk::import_bundle`]) renders the order's timeline from the bundle alone, as the user saw it, without touching
//! the journal.
//!
//! Rooms: [`compose`] (making one), [`scrub`] (what is left out), [`file`] (reading one), `error` ([`BundleError`],
//! what is refused; its window's form is `crate::desk`'s).

pub mod compose;
mod error;
pub mod file;
pub mod scrub;

pub use compose::*;
pub use error::*;
pub use file::*;
pub use scrub::*;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::journal::{JournalEvent, JournalOrder};
use crate::views::OrderView;

/// The `format` of a support bundle file.
pub const BUNDLE_FORMAT: &str = "gateway-desk-support-bundle";
/// The `version` of the bundle files this app writes (and the newest it reads).
pub const BUNDLE_VERSION: u64 = 1;
/// The folder under the data directory where bundles are saved.
pub const BUNDLE_DIR: &str = "support-bundles";
/// At most this many log lines go into a bundle (the newest).
pub const MAX_BUNDLE_LOG_LINES: usize = 300;
/// A bundle file larger than this is not read.
pub const MAX_BUNDLE_BYTES: usize = 32 * 1024 * 1024;

/// What the user chooses before a bundle is made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "BundleOptions.ts")]
pub struct BundleOptions {
    /// Keep addresses and transaction ids whole (they are shortened to `first4…last4` otherwise).
    pub include_identifiers: bool,
}

/// What will be shared: the file's name and exact text, and what was removed or shortened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "BundlePreview.ts")]
pub struct BundlePreview {
    /// `order-<order id or local-N>-<UTC yyyymmdd-hhmmss>.json`.
    pub file_name: String,
    /// Exactly the bytes [`Desk::save_bundle`] writes.
    pub text: String,
    /// Sentences: what was removed or shortened.
    pub redactions: Vec<String>,
    /// How many log lines the bundle holds (those that mention the order, at most [`MAX_BUNDLE_LOG_LINES`]), for
    /// the preview's summary.
    #[ts(type = "number")]
    pub log_lines: u64,
    /// How many journal events the bundle holds: all of the order's.
    #[ts(type = "number")]
    pub events: u64,
}

/// One journal event as the bundle holds it: the gateway's answer (redacted) in `payload`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "BundleEventView.ts")]
pub struct BundleEventView {
    /// The event's place in the journal's whole log: increasing, but shared with the other orders, so not
    /// consecutive within one order.
    #[ts(type = "number")]
    pub seq: i64,
    /// Unix seconds.
    #[ts(type = "number")]
    pub at: i64,
    /// `quoteAccepted`, `createAnswered`, `statusSeen`, …
    pub kind: String,
    /// What the journal recorded with the event (such as the gateway's answer as received), redacted like the rest
    /// of the bundle.
    pub payload: Value,
}

/// A bundle read back: where it was made, and the order as the user saw it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "ImportedBundle.ts")]
pub struct ImportedBundle {
    /// The version of Gateway Desk that made the bundle (such as `0.7.0`).
    pub app_version: String,
    /// The platform of the computer that made the bundle, such as `linux x86_64 (Ubuntu 24.04 LTS)`
    /// ([`os_description`]).
    pub os: String,
    /// The journal's name of the network (`production`, `staging`, `sandbox`, `custom:<url>`).
    pub network: String,
    /// The Sandbox's mark when the bundle is of a Sandbox order: nothing in it was real money.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub simulated: Option<String>,
    /// Unix seconds when the bundle was made.
    #[ts(type = "number")]
    pub created_at: i64,
    /// Whether the user chose to keep addresses and transaction ids whole ([`BundleOptions::include_identifiers`]);
    /// when not, they are shortened, and a shortened transaction hash gets no explorer link.
    pub identifiers_included: bool,
    /// [`OrderView::from_journal`] over the bundle's records.
    pub order: OrderView,
    /// The order's journal events, in journal order, as the bundle holds them.
    pub events: Vec<BundleEventView>,
    /// The log lines that mention the order, oldest first, as the bundle holds them.
    pub log_lines: Vec<String>,
    /// The API version the order was made with.
    #[ts(type = "\"v1\" | \"v2\" | \"v3\" | \"v4\"")]
    pub api_version: String,
    /// What the bundle says was removed or shortened before it was shared.
    pub redactions: Vec<String>,
    /// The bundle's text as read (so a bundle opened from a file can be reproduced like a pasted one).
    pub text: String,
}

/// The file as written (camelCase JSON). `order` is the journal record ([`JournalOrder`]'s own field names),
/// redacted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BundleFile {
    /// Always [`BUNDLE_FORMAT`]: what tells a support bundle from any other JSON file.
    pub format: String,
    /// On a Sandbox order: "Sandbox — simulated, no real money moves" ([`crate::network::SANDBOX_MARK`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub simulated: Option<String>,
    /// The layout's version, [`BUNDLE_VERSION`] when written; a file with a newer one is refused rather than misread.
    pub version: u64,
    /// Unix seconds when the bundle was made.
    pub created_at: i64,
    /// The version of Gateway Desk that made the bundle.
    pub app_version: String,
    /// The platform that made the bundle ([`os_description`]), with any file path in it masked.
    pub os: String,
    /// The journal's name of the order's network (`production`, `staging`, `sandbox`, `custom:<url>`).
    pub network: String,
    /// The gateway API version the order was made with (`v1`, `v2` or `v3`).
    pub api_version: String,
    /// Whether addresses and transaction ids were kept whole ([`BundleOptions::include_identifiers`]).
    pub identifiers_included: bool,
    /// The preview's sentences about what was removed or shortened.
    #[serde(default)]
    pub redactions: Vec<String>,
    /// The order's journal record, redacted, kept as JSON; [`BundleFile::journal_order`] reads it back.
    pub order: Value,
    /// The order's journal events, redacted, in journal order.
    pub events: Vec<BundleEventView>,
    /// The log lines that mention the order (at most [`MAX_BUNDLE_LOG_LINES`], oldest first), redacted; none when
    /// the field is missing.
    #[serde(default)]
    pub log_lines: Vec<String>,
}

impl BundleFile {
    /// The journal record, as the bundle holds it (shortened identifiers stay shortened).
    pub fn journal_order(&self) -> Result<JournalOrder, BundleError> {
        serde_json::from_value(self.order.clone()).map_err(|e| {
            unreadable(format!(
                "its order record cannot be read ({e}). Ask for the bundle to be made again"
            ))
        })
    }

    /// The journal events, as the bundle holds them.
    pub fn journal_events(&self, local_id: i64) -> Vec<JournalEvent> {
        self.events
            .iter()
            .map(|e| JournalEvent {
                seq: e.seq,
                local_id,
                at: e.at,
                kind: e.kind.clone(),
                payload: e.payload.clone(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {

    use serde_json::Value;

    use crate::error::{DeskError, ErrorKind};

    use crate::journal::{JournalEvent, JournalOrder};
    use crate::logs::{self};
    use crate::views::OrderView;
    use gateway_client::ApiVersion;
    use gateway_client::wire::RouteKind;
    use serde_json::json;

    use super::*;
    use crate::journal::{HandedIn, Journal};

    const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
    const RECIPIENT: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    const OWNER: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
    const DEPOSIT: &str = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
    const TXID: &str = "f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16";
    const PAYOUT_TX: &str = "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060";
    const ORDER_ID: &str = "550e8400-e29b-41d4-a716-446655440000";

    fn amount(address: &str, chain: &str, amount: &str) -> Value {
        json!({"address": address, "amount": amount, "chain": chain, "usd": "1.00"})
    }

    fn quote() -> Value {
        let btc = "0x0000000000000000000000000000000000000000";
        json!({"onramp": {
            "inputAmount": amount(btc, "bitcoin", "100000"),
            "outputAmount": amount(WBTC_BOB, "bob", "99000"),
            "fees": amount(btc, "bitcoin", "1000"),
            "executionFees": amount(btc, "bitcoin", "300"),
            "feeBreakdown": {
                "solverFee": amount(btc, "bitcoin", "400"),
                "protocolFee": amount(btc, "bitcoin", "200"),
                "affiliateFee": amount(btc, "bitcoin", "0"),
                "executionFee": amount(btc, "bitcoin", "300"),
                "layerzeroFee": amount(btc, "bitcoin", "100")
            },
            "recipient": RECIPIENT, "ownerAddress": OWNER, "token": WBTC_BOB, "slippage": "300",
            "dstChain": "bob", "dstToken": WBTC_BOB, "signedQuoteData": "c2lnbmVk",
            "priceImpact": "-0.0050", "estimatedTimeInSecs": 600
        }})
    }

    fn status(label: &str) -> Value {
        let body = match label {
            "success" => json!({"success": {"received_tokens": [
                {"token": WBTC_BOB, "amount": "99000", "chain": "bob", "txHash": PAYOUT_TX, "usd": "95.00"}]}}),
            _ => json!({"inProgress": {}}),
        };
        json!({"id": ORDER_ID, "timestamp": 1_763_700_000, "status": body,
               "srcInfo": {"chain": "bitcoin", "token": "0x0000000000000000000000000000000000000000",
                           "amount": "100000", "txHash": TXID},
               "dstInfo": {"chain": "bob", "token": WBTC_BOB, "amount": "99000"},
               "depositAddress": DEPOSIT})
    }

    /// A journaled onramp that went all the way to success, on `network`.
    fn finished_order(network: &str) -> (JournalOrder, Vec<JournalEvent>) {
        let j = Journal::open_in_memory().unwrap();
        let id = j
            .accept_quote(
                network,
                ApiVersion::V3,
                RouteKind::Onramp,
                &[RECIPIENT.into(), OWNER.into()],
                &quote(),
            )
            .unwrap();
        j.create_started(id).unwrap();
        let psbt = format!("70736274ff{}", "01".repeat(120));
        j.create_answered(
            id,
            ORDER_ID,
            &json!({"onramp": {"order_id": ORDER_ID, "address": DEPOSIT, "psbt_hex": psbt}}),
        )
        .unwrap();
        j.verified(
            id,
            &json!({"sentence": format!("pays 0.001 BTC to {DEPOSIT}")}),
        )
        .unwrap();
        j.tx_handed_in(id, &HandedIn::BitcoinTxid { txid: TXID.into() })
            .unwrap();
        j.register_started(
            id,
            &json!({"onramp": {"order_id": ORDER_ID, "bitcoin_txid": TXID}}),
        )
        .unwrap();
        j.register_answered(id, &json!({"txid": TXID})).unwrap();
        j.status_seen(id, &status("inProgress"), "inProgress", false)
            .unwrap();
        j.status_seen(id, &status("success"), "success", true)
            .unwrap();
        (j.order(id).unwrap(), j.events(id).unwrap())
    }

    fn source(network: &str) -> BundleSource {
        let (order, events) = finished_order(network);
        BundleSource {
            log_lines: vec![
                format!(
                    "2025-11-21T04:40:01.000000Z  INFO create{{local_id={} network=\"{network}\"}}: desk_core::flow: order created order_id=\"{ORDER_ID}\"",
                    order.local_id
                ),
                format!(
                    "2025-11-21T04:41:00.000000Z  INFO desk_core::flow: registered local_id={} txid=\"{TXID}\"",
                    order.local_id
                ),
            ],
            order,
            events,
            created_at: 1_763_700_500,
            app_version: "9.9.9".into(),
            os: "linux x86_64".into(),
            home: None,
        }
    }

    #[test]
    fn a_bundle_round_trips_to_the_same_timeline() {
        let source = source("production");
        let preview = compose(&source, BundleOptions::default(), None).unwrap();
        assert!(preview.text.ends_with("}\n"));
        assert_eq!(
            preview.file_name,
            format!("order-{ORDER_ID}-20251121-044820.json")
        );
        assert_eq!(preview.events, source.events.len() as u64);
        assert_eq!(preview.log_lines, 2);

        let imported = read_bundle(&preview.text).unwrap();
        let original = OrderView::from_journal(&source.order, &source.events);
        assert_eq!(imported.order.timeline, original.timeline);
        let keys: Vec<&str> = imported
            .order
            .timeline
            .iter()
            .map(|e| e.key.as_str())
            .collect();
        assert_eq!(keys, ["created", "registered", "inProgress", "success"]);
        assert_eq!(imported.order.status.as_deref(), Some("success"));
        assert_eq!(imported.order.stage, original.stage);
        assert_eq!(imported.order.order_id.as_deref(), Some(ORDER_ID));
        assert_eq!(imported.order.send.text, original.send.text);
        assert_eq!(imported.order.receive.text, original.receive.text);
        assert_eq!(imported.order.received.len(), 1);
        assert_eq!(imported.order.received[0].tx_hash, "0x5c50…2060");
        assert_eq!(
            imported.order.received[0].explorer_url, None,
            "no link from a shortened hash"
        );
        assert_eq!(
            (imported.app_version.as_str(), imported.os.as_str()),
            ("9.9.9", "linux x86_64")
        );
        assert_eq!(imported.network, "production");
        assert_eq!(imported.created_at, 1_763_700_500);
        assert!(!imported.identifiers_included);
        let kinds: Vec<&str> = imported.events.iter().map(|e| e.kind.as_str()).collect();
        let original_kinds: Vec<&str> = source.events.iter().map(|e| e.kind.as_str()).collect();
        assert_eq!(kinds, original_kinds);
        assert_eq!(imported.log_lines.len(), 2);

        // Kept whole, the same again, with working links.
        let full = compose(
            &source,
            BundleOptions {
                include_identifiers: true,
            },
            None,
        )
        .unwrap();
        let imported = read_bundle(&full.text).unwrap();
        assert_eq!(imported.order.timeline, original.timeline);
        assert_eq!(imported.order.received, original.received);
        assert!(imported.identifiers_included);
        assert_eq!(
            imported.order.raw, original.raw,
            "the gateway's answer as received"
        );
    }

    #[test]
    fn addresses_and_txids_are_shortened_unless_kept() {
        let source = source("sandbox");
        let preview = compose(&source, BundleOptions::default(), None).unwrap();
        for whole in [RECIPIENT, OWNER, DEPOSIT, TXID, PAYOUT_TX] {
            assert!(!preview.text.contains(whole), "{whole} in the bundle");
        }
        for short in ["0x5aAe…eAed", "bc1q…5mdq", "f418…9e16", "0x5c50…2060"] {
            assert!(preview.text.contains(short), "{short} missing");
        }
        assert!(
            preview.text.contains("<250 hex chars>"),
            "the PSBT is summarised"
        );
        assert!(preview.text.contains(ORDER_ID), "order ids are kept");
        assert!(
            preview
                .redactions
                .iter()
                .any(|r| r.contains("addresses shortened")),
            "{:?}",
            preview.redactions
        );
        // Recipient, owner and the deposit address; not WBTC on BOB nor the zero address (BTC): public tokens.
        assert!(preview.text.contains(WBTC_BOB), "token addresses are kept");
        assert!(
            preview
                .redactions
                .contains(&"3 addresses shortened to first4…last4.".to_owned()),
            "{:?}",
            preview.redactions
        );
        assert!(
            preview
                .redactions
                .contains(&"2 transaction ids shortened to first4…last4.".to_owned()),
            "{:?}",
            preview.redactions
        );
        assert!(
            preview
                .redactions
                .iter()
                .any(|r| r.starts_with("1 long hex value")),
            "{:?}",
            preview.redactions
        );
        let file: Value = serde_json::from_str(&preview.text).unwrap();
        assert_eq!(file["format"], BUNDLE_FORMAT);
        assert_eq!(file["version"], 1);
        assert_eq!(file["apiVersion"], "v3");
        assert_eq!(file["identifiersIncluded"], false);
        assert!(file["logLines"][1].as_str().unwrap().contains("f418…9e16"));

        let kept = compose(
            &source,
            BundleOptions {
                include_identifiers: true,
            },
            None,
        )
        .unwrap();
        for whole in [RECIPIENT, OWNER, DEPOSIT, TXID, PAYOUT_TX] {
            assert!(kept.text.contains(whole), "{whole} kept when asked");
        }
        assert!(
            kept.redactions
                .iter()
                .any(|r| r.starts_with("Included in full")),
            "{:?}",
            kept.redactions
        );
    }

    #[test]
    fn api_keys_never_reach_the_text_and_a_leak_is_refused() {
        let mut source = source("sandbox");
        // Fields named like a key are left out whatever they hold.
        source.events[0].payload["onramp"]["apiKey"] = json!("anything");
        source.events[1].payload =
            json!({"headers": {"Authorization": "Bearer something", "x-api-key": "k"}});
        let preview = compose(&source, BundleOptions::default(), None).unwrap();
        assert!(!preview.text.contains("anything"));
        assert!(!preview.text.contains("Bearer"));
        assert!(
            preview.redactions[0].contains("left out (3 found)"),
            "{:?}",
            preview.redactions
        );
        assert!(
            preview.redactions[0].contains("[api-key] (none found)"),
            "{:?}",
            preview.redactions
        );

        // A key the redactor does not know, written where no pattern finds it: the last check refuses the bundle.
        let key = "UnRegisteredKey0123456789abcdefX";
        source.events[2].payload = json!({"note": format!("see {key} here")});
        let err =
            DeskError::from(compose(&source, BundleOptions::default(), Some(key)).unwrap_err());
        assert!(err.message.contains("API key"), "{}", err.message);
        assert!(
            compose(
                &source,
                BundleOptions::default(),
                Some("someOtherKey0123456789abcdefXYZW")
            )
            .is_ok()
        );
        // Escaped as JSON writes it, too.
        let quoted = "Quoted\"Key0123456789abcdefXYZWvu";
        source.events[2].payload = json!({"note": quoted});
        assert!(compose(&source, BundleOptions::default(), Some(quoted)).is_err());

        // A registered key is replaced, so the check passes.
        let registered = "RegisteredBundleKey0123456789abc";
        logs::register_secret(registered);
        source.events[2].payload = json!({"note": format!("see {registered} here")});
        let preview = compose(&source, BundleOptions::default(), Some(registered)).unwrap();
        assert!(!preview.text.contains(registered));
        assert!(preview.text.contains("see [api-key] here"));
        assert!(
            preview.redactions[0].contains("[api-key] (1 found)"),
            "{:?}",
            preview.redactions
        );
    }

    #[test]
    fn other_formats_and_newer_versions_are_refused_with_a_sentence() {
        let source = source("sandbox");
        let text = compose(&source, BundleOptions::default(), None)
            .unwrap()
            .text;
        let mut value: Value = serde_json::from_str(&text).unwrap();

        value["version"] = json!(2);
        let err = DeskError::from(read_bundle(&value.to_string()).unwrap_err());
        assert_eq!(err.kind, ErrorKind::InvalidInput);
        assert!(
            err.message.contains("newer Gateway Desk") && err.message.contains("Update"),
            "{}",
            err.message
        );

        value["version"] = json!(1);
        value["format"] = json!("something-else");
        let err = DeskError::from(read_bundle(&value.to_string()).unwrap_err());
        assert!(
            err.message.contains("not a Gateway Desk support bundle"),
            "{}",
            err.message
        );

        let err = DeskError::from(read_bundle("{\"orders\": []}").unwrap_err());
        assert!(err.message.contains("no \"format\""), "{}", err.message);
        let err = DeskError::from(read_bundle("not json").unwrap_err());
        assert!(err.message.contains("not JSON"), "{}", err.message);

        value["format"] = json!(BUNDLE_FORMAT);
        value["order"] = json!({"local_id": "x"});
        let err = DeskError::from(read_bundle(&value.to_string()).unwrap_err());
        assert!(err.message.contains("order record"), "{}", err.message);
    }

    #[test]
    fn log_lines_match_the_local_id_exactly_and_come_in_time_order() {
        let dir = tempfile::tempdir().unwrap();
        let (mut order, _) = finished_order("sandbox");
        order.local_id = 1;
        std::fs::write(
            dir.path().join("gateway-desk.2025-01-02.log"),
            format!(
                "2025-01-02T00:00:01Z INFO registered local_id=1 txid=\"{TXID}\"\n\
                 2025-01-02T00:00:02Z INFO other local_id=12\n\
                 2025-01-02T00:00:03Z INFO status order={ORDER_ID}\n"
            ),
        )
        .unwrap();
        std::fs::write(
            dir.path().join("gateway-desk.2025-01-01.log"),
            format!(
                "2025-01-01T00:00:00Z INFO create{{\x1b[3mlocal_id\x1b[0m\x1b[2m=\x1b[0m1}}: order created \
                 order_id={ORDER_ID}\n"
            ),
        )
        .unwrap();
        let lines = order_log_lines(dir.path(), &order);
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert_eq!(
            lines[0],
            format!(
                "2025-01-01T00:00:00Z INFO create{{local_id=1}}: order created order_id={ORDER_ID}"
            )
        );
        assert!(lines[1].contains("registered"));
        assert!(lines[2].contains("status"));
    }

    #[test]
    fn file_paths_are_written_without_the_users_name() {
        let home = Some("/home/alice");
        let cases = [
            (
                "could not open /home/alice/.local/share/gateway-desk/journal.sqlite3: permission denied",
                "could not open ~/.local/share/gateway-desk/journal.sqlite3: permission denied",
            ),
            (
                r#"saved file="/home/alice/x.json" aside=Some("/tmp/alice-gd/data/sandbox-gateway.json")"#,
                r#"saved file="~/x.json" aside=Some("<path>")"#,
            ),
            ("home=/home/alice", "home=~"),
            ("/home/alicex/y and /home/alice.old", "<path> and <path>"),
            (
                r"in C:\Users\alice\AppData\Roaming\gd, then D:\data",
                r"in <path>, then <path>",
            ),
            // URLs (their paths included), the gateway's endpoints, fractions and lone slashes are kept.
            (
                "GET https://gw.example/v3/get-quote?x=1 (/v3/get-quote) failed; 1/2 of a / b; file:///home/alice/q",
                "GET https://gw.example/v3/get-quote?x=1 (/v3/get-quote) failed; 1/2 of a / b; file://~/q",
            ),
            (
                "custom:http://127.0.0.1:8787/base",
                "custom:http://127.0.0.1:8787/base",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(redact_paths(text, home).0, expected, "{text}");
        }
        assert_eq!(redact_paths("a /home/alice/b and /srv/c", home).1, 2);
        // Without a known home, every absolute path goes.
        assert_eq!(
            redact_paths("could not read /home/alice/q.json: gone", None).0,
            "could not read <path>: gone"
        );
        // Debug's doubled backslashes of a Windows home.
        assert_eq!(
            redact_paths(r#"path="C:\\Users\\alice\\gd""#, Some(r"C:\Users\alice")).0,
            r#"path="~\\gd""#
        );
    }

    #[test]
    fn a_bundle_holds_no_file_path_and_no_user_name() {
        let mut source = source("production");
        let local_id = source.order.local_id;
        source.log_lines.extend([
            format!(
                "2025-11-21T04:42:00.000000Z  WARN desk_core::desk: journal unavailable local_id={local_id} \
                 error=could not open /home/alice/.local/share/gateway-desk/journal.sqlite3: permission denied"
            ),
            format!(
                "2025-11-21T04:43:00.000000Z  INFO desk_core::support: support bundle saved local_id={local_id} \
                 file=\"/home/alice/.local/share/gateway-desk/support-bundles/order-{ORDER_ID}.json\""
            ),
            format!(
                "2025-11-21T04:44:00.000000Z  WARN desk_core::network: set aside local_id={local_id} \
                 aside=Some(\"/media/alice/usb/gateway-desk/data/sandbox-gateway.json\")"
            ),
        ]);
        source.events[2].payload = json!({
            "error": "could not read /home/alice/Downloads/quote.json: No such file or directory (os error 2)",
            "/home/alice/key-as-path": "C:\\Users\\alice\\AppData\\Roaming\\gateway-desk",
            "url": "https://gateway-api-mainnet.gobob.xyz/v3/get-quote",
        });
        for (home, identifiers) in [
            (Some("/home/alice"), false),
            (Some("/home/alice"), true),
            (None, false),
        ] {
            source.home = home.map(str::to_owned);
            let preview = compose(
                &source,
                BundleOptions {
                    include_identifiers: identifiers,
                },
                None,
            )
            .unwrap();
            let text = &preview.text;
            for absent in ["alice", "/home/", "/media/", "C:\\\\Users", "AppData"] {
                assert!(!text.contains(absent), "{absent} in {text}");
            }
            assert!(text.contains(PATH_MASK), "{text}");
            assert!(
                text.contains("https://gateway-api-mainnet.gobob.xyz/v3/get-quote"),
                "URLs are kept"
            );
            if home.is_some() {
                assert!(
                    text.contains("~/.local/share/gateway-desk/journal.sqlite3")
                        && text.contains("could not read ~/Downloads/quote.json"),
                    "{text}"
                );
            } else {
                assert!(
                    text.contains("could not read <path>: No such file"),
                    "{text}"
                );
            }
            assert!(
                preview.redactions.contains(
                    &"6 file paths left out: your home folder is written ~ and any other folder <path>, so that no \
                      file path names you."
                        .to_owned()
                ),
                "{:?}",
                preview.redactions
            );
            // The bundle still opens, with its log lines.
            assert_eq!(read_bundle(text).unwrap().log_lines.len(), 5);
        }
        // A bundle with no path says nothing about paths.
        let plain = compose(
            &super::tests::source("production"),
            BundleOptions::default(),
            None,
        )
        .unwrap();
        assert!(!plain.redactions.iter().any(|r| r.contains("file path")));
    }
}
