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

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{LazyLock, Mutex};

use gateway_client::TokenRegistry;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

use crate::api::{DeskError, ErrorKind};
use crate::calendar::utc_parts;
use crate::journal::{JournalEvent, JournalOrder};
use crate::logs::{self, RedactOptions};
use crate::views::{OrderView, TransferView};

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
    #[ts(type = "number")]
    pub log_lines: u64,
    #[ts(type = "number")]
    pub events: u64,
}

/// One journal event as the bundle holds it: the gateway's answer (redacted) in `payload`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "BundleEventView.ts")]
pub struct BundleEventView {
    #[ts(type = "number")]
    pub seq: i64,
    /// Unix seconds.
    #[ts(type = "number")]
    pub at: i64,
    /// `quoteAccepted`, `createAnswered`, `statusSeen`, …
    pub kind: String,
    #[ts(type = "unknown")]
    pub payload: Value,
}

/// A bundle read back: where it was made, and the order as the user saw it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "ImportedBundle.ts")]
pub struct ImportedBundle {
    pub app_version: String,
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
    pub identifiers_included: bool,
    /// [`OrderView::from_journal`] over the bundle's records.
    pub order: OrderView,
    pub events: Vec<BundleEventView>,
    pub log_lines: Vec<String>,
    /// The API version the order was made with.
    #[ts(type = "\"v1\" | \"v2\" | \"v3\"")]
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
    pub format: String,
    /// On a Sandbox order: "Sandbox — simulated, no real money moves" ([`crate::network::SANDBOX_MARK`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub simulated: Option<String>,
    pub version: u64,
    pub created_at: i64,
    pub app_version: String,
    pub os: String,
    pub network: String,
    pub api_version: String,
    pub identifiers_included: bool,
    /// The preview's sentences about what was removed or shortened.
    #[serde(default)]
    pub redactions: Vec<String>,
    pub order: Value,
    pub events: Vec<BundleEventView>,
    #[serde(default)]
    pub log_lines: Vec<String>,
}

impl BundleFile {
    /// The journal record, as the bundle holds it (shortened identifiers stay shortened).
    pub fn journal_order(&self) -> Result<JournalOrder, DeskError> {
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

pub(crate) fn unreadable(reason: String) -> DeskError {
    let mut error = DeskError::new(
        ErrorKind::InvalidInput,
        format!("This support bundle cannot be opened: {reason}."),
    );
    error.details = Some(Box::new(serde_json::json!({ "field": "bundle" })));
    error
}

/// Reads a bundle file's text: checks its format and version, nothing more.
pub fn parse_bundle(text: &str) -> Result<BundleFile, DeskError> {
    if text.len() > MAX_BUNDLE_BYTES {
        return Err(unreadable(format!(
            "the file is larger than {} MB, which no bundle is. Choose the .json file Gateway Desk saved",
            MAX_BUNDLE_BYTES / (1024 * 1024)
        )));
    }
    let value: Value = serde_json::from_str(text.trim_start_matches('\u{feff}')).map_err(|e| {
        unreadable(format!(
            "the file is not JSON ({e}). Choose the .json file Gateway Desk saved in its support-bundles folder"
        ))
    })?;
    let format = value.get("format").and_then(Value::as_str);
    if format != Some(BUNDLE_FORMAT) {
        return Err(unreadable(match format {
            Some(other) => format!(
                "it is a {other:?} file, not a Gateway Desk support bundle. Choose a file made with \
                 \"Save support bundle\""
            ),
            None => "it is not a Gateway Desk support bundle (it has no \"format\" field). Choose a file made \
                     with \"Save support bundle\""
                .to_owned(),
        }));
    }
    let version = value.get("version").and_then(Value::as_u64);
    match version {
        Some(v) if v > BUNDLE_VERSION => {
            return Err(unreadable(format!(
                "it was made by a newer Gateway Desk (bundle version {v}; this app reads version \
                 {BUNDLE_VERSION} and older). Update Gateway Desk to open it"
            )));
        }
        Some(v) if v >= 1 => {}
        _ => {
            return Err(unreadable(
                "its version is missing or not a positive number, so the file is damaged. Ask for the bundle to \
                 be made again"
                    .to_owned(),
            ));
        }
    }
    serde_json::from_value(value).map_err(|e| {
        unreadable(format!(
            "a field is missing or damaged ({e}). Ask for the bundle to be made again"
        ))
    })
}

/// Reads a bundle and renders its order as the user saw it. Never touches any journal.
pub fn read_bundle(text: &str) -> Result<ImportedBundle, DeskError> {
    let file = parse_bundle(text)?;
    let order = file.journal_order()?;
    let events = file.journal_events(order.local_id);
    let mut view = OrderView::from_journal(&order, &events);
    // A shortened hash makes no working explorer link.
    for transfer in view
        .received
        .iter_mut()
        .chain(view.refunded.iter_mut())
        .chain(view.pending_btc_payment.iter_mut())
        .chain(view.source_tx.iter_mut())
    {
        drop_broken_link(transfer);
    }
    Ok(ImportedBundle {
        app_version: file.app_version,
        os: file.os,
        simulated: file.simulated,
        network: file.network,
        created_at: file.created_at,
        identifiers_included: file.identifiers_included,
        order: view,
        events: file.events,
        log_lines: file.log_lines,
        api_version: file.api_version,
        redactions: file.redactions,
        text: text.to_owned(),
    })
}

pub(crate) fn drop_broken_link(transfer: &mut TransferView) {
    if transfer.tx_hash.contains('…') || transfer.tx_hash.contains("hex chars") {
        transfer.explorer_url = None;
    }
}

// ---------------------------------------------------------------------------------------------------------------------
// Making a bundle.

/// What a bundle is made from, besides the redaction choices.
#[derive(Debug, Clone)]
pub(crate) struct BundleSource {
    pub order: JournalOrder,
    pub events: Vec<JournalEvent>,
    /// Already free of registered keys ([`logs::read_matching_lines`]).
    pub log_lines: Vec<String>,
    pub created_at: i64,
    pub app_version: String,
    pub os: String,
    /// The home folder that becomes `~` ([`HOME`]).
    pub home: Option<String>,
}

/// `linux x86_64 (Ubuntu 24.04 LTS)`: the platform, and the distribution's name when readable.
pub fn os_description() -> String {
    let base = format!("{} {}", std::env::consts::OS, std::env::consts::ARCH);
    let pretty = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|text| {
            text.lines().find_map(|line| {
                line.strip_prefix("PRETTY_NAME=")
                    .map(|v| v.trim().trim_matches('"').trim_matches('\'').to_owned())
            })
        })
        .filter(|v| !v.is_empty());
    match pretty {
        Some(name) => format!("{base} ({name})"),
        None => base,
    }
}

/// The bundle's file name: `order-<order id or local-N>-<UTC yyyymmdd-hhmmss>.json`, safe on every file system;
/// a Sandbox order's begins `sandbox-SIMULATED-`.
pub(crate) fn file_name(order: &JournalOrder, created_at: i64) -> String {
    let id: String = match &order.order_id {
        Some(id) => id
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .take(80)
            .collect(),
        None => format!("local-{}", order.local_id),
    };
    let (y, mo, d, h, mi, s) = utc_parts(created_at);
    let mark = if is_sandbox(&order.network) {
        crate::network::SANDBOX_FILE_PREFIX
    } else {
        ""
    };
    format!("{mark}order-{id}-{y:04}{mo:02}{d:02}-{h:02}{mi:02}{s:02}.json")
}

/// Whether the journal's network name is the Sandbox's.
pub(crate) fn is_sandbox(network: &str) -> bool {
    network == crate::settings::NetworkKind::Sandbox.slug()
}

/// `value` without the fields [`logs::is_credential_field`] names; counts them in `dropped`.
pub(crate) fn drop_key_fields(value: &Value, dropped: &mut usize) -> Value {
    match value {
        Value::Object(map) => {
            let mut out = Map::new();
            for (key, item) in map {
                if logs::is_credential_field(key) {
                    *dropped += 1;
                } else {
                    out.insert(key.clone(), drop_key_fields(item, dropped));
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| drop_key_fields(item, dropped))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Token contracts and mints the app knows, and the native token's zero address: public facts, not the user's
/// identifiers, so they stay whole (amounts keep their symbols and decimals in an imported bundle). EVM addresses in
/// lower case.
pub(crate) static PUBLIC_TOKENS: LazyLock<HashSet<String>> = LazyLock::new(|| {
    let mut set: HashSet<String> = TokenRegistry::builtin()
        .all()
        .iter()
        .map(|t| token_form(&t.address))
        .collect();
    set.insert(token_form(gateway_client::wire::NATIVE_TOKEN));
    set
});

pub(crate) fn token_form(address: &str) -> String {
    if address.starts_with("0x") || address.starts_with("0X") {
        address.to_ascii_lowercase()
    } else {
        address.to_owned()
    }
}

pub(crate) fn is_public_token(run: &str) -> bool {
    PUBLIC_TOKENS.contains(&token_form(run))
}

/// How a bundle's text is redacted: the shortening chosen, and the home folder that becomes `~`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scrub<'a> {
    options: RedactOptions,
    /// The user's home folder as written in text (`/home/alice`), when known.
    home: Option<&'a str>,
}

/// The user's home folder (`$HOME`, else the platform's), when it is a folder below the root: in a bundle it becomes
/// `~`, so that the user's name does not travel with the file paths of errors and log lines.
pub(crate) static HOME: LazyLock<Option<String>> = LazyLock::new(|| {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .or_else(|| directories::BaseDirs::new().map(|d| d.home_dir().to_path_buf()))
        .map(|h| h.to_string_lossy().trim_end_matches(['/', '\\']).to_owned())
        .filter(|h| h.len() > 1 && h.chars().filter(|c| matches!(c, '/' | '\\')).count() >= 1)
});

/// What is written in place of an absolute path outside the home folder.
pub const PATH_MASK: &str = "<path>";

/// Characters that may come right before an absolute path in text: the start, white space, quotes, `=`, brackets,
/// `,`, `;`, `|` (not a letter, a digit, `:` or `/`, so a URL's path stays whole).
pub(crate) const BEFORE_PATH: &str = r#"(?:^|[\s"'`=(\[{<,;|])"#;

/// An absolute path: Unix (`/tmp/x.json`) or Windows (`C:\Users\x`, also with doubled backslashes as `Debug` writes
/// them), up to white space, a quote, a bracket, `,`, `;`, `|` or `:`.
pub(crate) static ABSOLUTE_PATH: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(&format!(
        r#"{BEFORE_PATH}((?:/[A-Za-z0-9._~+@%-]|[A-Za-z]:\\)[^\s"'`<>|;,:)\]}}]*)"#
    ))
    .expect("the path pattern is valid")
});

/// The gateway's own endpoint paths (`/v3/get-quote`) say nothing about the user: they are kept.
pub(crate) fn is_api_path(path: &str) -> bool {
    let first = path.trim_start_matches('/').split('/').next().unwrap_or("");
    matches!(first, "v1" | "v2" | "v3")
}

/// `text` with the home folder written `~` and every other absolute file path [`PATH_MASK`]; and how many were
/// replaced. File paths carry the user's name (`/home/alice/…`) and say nothing support needs.
pub(crate) fn redact_paths(text: &str, home: Option<&str>) -> (String, usize) {
    let mut count = 0;
    let mut out = text.to_owned();
    if let Some(home) = home {
        let doubled = home.replace('\\', "\\\\");
        for form in [home, doubled.as_str()] {
            let mut replaced = String::with_capacity(out.len());
            let mut rest = out.as_str();
            while let Some(at) = rest.find(form) {
                let after = &rest[at + form.len()..];
                let whole = !after
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-'));
                replaced.push_str(&rest[..at]);
                if whole {
                    replaced.push('~');
                    count += 1;
                } else {
                    replaced.push_str(form);
                }
                rest = after;
            }
            replaced.push_str(rest);
            out = replaced;
        }
    }
    if !out.contains(['/', '\\']) {
        return (out, count);
    }
    let replaced = ABSOLUTE_PATH.replace_all(&out, |caps: &regex::Captures<'_>| {
        let all = &caps[0];
        let path = &caps[1];
        if is_api_path(path) {
            all.to_owned()
        } else {
            count += 1;
            format!("{}{PATH_MASK}", &all[..all.len() - path.len()])
        }
    });
    (replaced.into_owned(), count)
}

/// [`logs::redact`] with the chosen options, except that known token addresses are kept whole, after file paths
/// ([`redact_paths`], always). API keys go from the whole text first; shortening then works run by run (a run of
/// ASCII letters and digits, as the redactor judges them).
pub(crate) fn redact_text(text: &str, scrub: &Scrub<'_>) -> String {
    let options = &scrub.options;
    let (pathless, _) = redact_paths(text, scrub.home);
    let keyless = logs::redact(&pathless, &RedactOptions::KEYS_ONLY);
    if !options.shorten_addresses && !options.shorten_tx_ids {
        return keyless;
    }
    let mut out = String::with_capacity(keyless.len());
    let mut rest = keyless.as_str();
    while !rest.is_empty() {
        let start = rest
            .find(|c: char| c.is_ascii_alphanumeric())
            .unwrap_or(rest.len());
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(rest.len());
        let run = &rest[..end];
        if run.len() >= 26 && !is_public_token(run) {
            out.push_str(&logs::redact(run, options));
        } else {
            out.push_str(run);
        }
        rest = &rest[end..];
    }
    out
}

/// [`redact_text`] on every string of `value`, object keys included.
pub(crate) fn redact_value(value: &Value, scrub: &Scrub<'_>) -> Value {
    match value {
        Value::String(s) => Value::String(redact_text(s, scrub)),
        Value::Array(items) => {
            Value::Array(items.iter().map(|item| redact_value(item, scrub)).collect())
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, item)| (redact_text(key, scrub), redact_value(item, scrub)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Every string of `value`, object keys included.
pub(crate) fn strings<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    match value {
        Value::String(s) => out.push(s),
        Value::Array(items) => items.iter().for_each(|item| strings(item, out)),
        Value::Object(map) => {
            for (key, item) in map {
                out.push(key);
                strings(item, out);
            }
        }
        _ => {}
    }
}

/// The distinct identifiers in some text, by what redaction does to them.
#[derive(Debug, Default)]
pub(crate) struct Census {
    addresses: BTreeSet<String>,
    tx_ids: BTreeSet<String>,
    long_hex: BTreeSet<String>,
}

pub(crate) const ADDRESSES_ONLY: RedactOptions = RedactOptions {
    shorten_addresses: true,
    shorten_tx_ids: false,
};
pub(crate) const TX_IDS_ONLY: RedactOptions = RedactOptions {
    shorten_addresses: false,
    shorten_tx_ids: true,
};

impl Census {
    /// Looks at every run of ASCII letters and digits (what the redactor judges) of `text`.
    fn add(&mut self, text: &str) {
        for run in text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|r| r.len() >= 26)
        {
            if is_public_token(run)
                || self.addresses.contains(run)
                || self.tx_ids.contains(run)
                || self.long_hex.contains(run)
            {
                continue;
            }
            let kept = logs::redact(run, &RedactOptions::KEYS_ONLY);
            if kept != run {
                continue; // a key: counted apart
            }
            if logs::redact(run, &ADDRESSES_ONLY) != run {
                self.addresses.insert(run.to_owned());
            } else {
                let short = logs::redact(run, &TX_IDS_ONLY);
                if short.contains("hex chars") {
                    self.long_hex.insert(run.to_owned());
                } else if short != run {
                    self.tx_ids.insert(run.to_owned());
                }
            }
        }
    }
}

pub(crate) fn found(n: usize) -> String {
    match n {
        0 => "none found".to_owned(),
        n => format!("{n} found"),
    }
}

pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// The forms a key may take in the finished text: itself and JSON-escaped.
pub(crate) fn key_forms(key: &str) -> Vec<String> {
    let escaped = serde_json::to_string(key).unwrap_or_default();
    let escaped = escaped
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(key)
        .to_owned();
    let mut forms = vec![key.to_owned()];
    if escaped != key {
        forms.push(escaped);
    }
    forms
}

/// Redacts `source` into the bundle's text. Refuses when `api_key` (the current network's key) would still be in it.
pub(crate) fn compose(
    source: &BundleSource,
    options: BundleOptions,
    api_key: Option<&str>,
) -> Result<BundlePreview, DeskError> {
    let redact = Scrub {
        options: if options.include_identifiers {
            RedactOptions::KEYS_ONLY
        } else {
            RedactOptions::SUPPORT_BUNDLE
        },
        home: source.home.as_deref(),
    };
    let mut dropped = 0usize;
    let order_raw = serde_json::to_value(&source.order).map_err(|e| {
        DeskError::new(
            ErrorKind::Journal,
            format!("The order's journal record cannot be written out ({e}). Nothing was made."),
        )
    })?;
    let order_raw = drop_key_fields(&order_raw, &mut dropped);
    let payloads: Vec<Value> = source
        .events
        .iter()
        .map(|e| drop_key_fields(&e.payload, &mut dropped))
        .collect();

    let mut census = Census::default();
    let mut paths = 0usize;
    {
        let mut all = Vec::new();
        strings(&order_raw, &mut all);
        for payload in &payloads {
            strings(payload, &mut all);
        }
        for text in all
            .into_iter()
            .chain(source.log_lines.iter().map(String::as_str))
        {
            census.add(text);
            paths += redact_paths(text, redact.home).1;
        }
    }

    let order = redact_value(&order_raw, &redact);
    let events: Vec<BundleEventView> = source
        .events
        .iter()
        .zip(payloads)
        .map(|(event, payload)| BundleEventView {
            seq: event.seq,
            at: event.at,
            kind: redact_text(&event.kind, &redact),
            payload: redact_value(&payload, &redact),
        })
        .collect();
    let log_lines: Vec<String> = source
        .log_lines
        .iter()
        .map(|line| redact_text(line, &redact))
        .collect();

    let masked: usize = log_lines
        .iter()
        .map(String::as_str)
        .chain({
            let mut all = Vec::new();
            strings(&order, &mut all);
            for event in &events {
                strings(&event.payload, &mut all);
            }
            all
        })
        .map(|text| text.matches(logs::API_KEY_MASK).count())
        .sum();
    let mut redactions = vec![format!(
        "No API key is included: each key the app knows is replaced by {} ({}), and fields named like an API key \
         or an authorization header are left out ({}).",
        logs::API_KEY_MASK,
        found(masked),
        found(dropped),
    )];
    let (a, t, h) = (
        census.addresses.len(),
        census.tx_ids.len(),
        census.long_hex.len(),
    );
    if options.include_identifiers {
        redactions.push(format!(
            "Included in full, as you chose: {}, {} and {}.",
            plural(a, "address", "addresses"),
            plural(t, "transaction id", "transaction ids"),
            plural(h, "long hex value", "long hex values"),
        ));
    } else {
        if a > 0 {
            redactions.push(format!(
                "{} shortened to first4…last4.",
                plural(a, "address", "addresses")
            ));
        }
        if t > 0 {
            redactions.push(format!(
                "{} shortened to first4…last4.",
                plural(t, "transaction id", "transaction ids")
            ));
        }
        if h > 0 {
            redactions.push(format!(
                "{} (PSBTs, signed transactions, call data) replaced by their length.",
                plural(h, "long hex value", "long hex values")
            ));
        }
        if a + t + h == 0 {
            redactions.push("No address or transaction id was found to shorten.".to_owned());
        }
    }
    if paths > 0 {
        redactions.push(format!(
            "{} left out: your home folder is written ~ and any other folder {PATH_MASK}, so that no file path \
             names you.",
            plural(paths, "file path", "file paths")
        ));
    }
    redactions.push(
        "Order ids, amounts, chains, times and the addresses of known tokens are kept: they are public, and what \
         support needs to find the order."
            .to_owned(),
    );

    let file = BundleFile {
        format: BUNDLE_FORMAT.to_owned(),
        simulated: is_sandbox(&source.order.network)
            .then(|| crate::network::SANDBOX_MARK.to_owned()),
        version: BUNDLE_VERSION,
        created_at: source.created_at,
        app_version: source.app_version.clone(),
        os: redact_text(&source.os, &redact),
        network: redact_text(&source.order.network, &redact),
        api_version: source.order.api_version.as_str().to_owned(),
        identifiers_included: options.include_identifiers,
        redactions: redactions.clone(),
        order,
        events,
        log_lines,
    };
    let mut text = serde_json::to_string_pretty(&file).map_err(|e| {
        DeskError::new(
            ErrorKind::Journal,
            format!("The bundle could not be written out ({e}). Nothing was made."),
        )
    })?;
    text.push('\n');

    if let Some(key) = api_key.filter(|k| !k.is_empty())
        && key_forms(key)
            .iter()
            .any(|form| text.contains(form.as_str()))
    {
        return Err(DeskError::new(
            ErrorKind::InvalidInput,
            "The bundle would have contained this network's API key, so it was not made and nothing was \
             written. Please report this to the Gateway Desk developers (without the key).",
        ));
    }

    Ok(BundlePreview {
        file_name: file_name(&source.order, source.created_at),
        text,
        redactions,
        log_lines: file.log_lines.len() as u64,
        events: file.events.len() as u64,
    })
}

/// A terminal colour or style code (`ESC [ … m`).
pub(crate) static ANSI: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new("\x1b\\[[0-9;]*[A-Za-z]").expect("the ANSI pattern is valid")
});

/// `local_id=N` followed by something other than a digit (so `local_id=1` does not match `local_id=12`).
pub(crate) fn mentions_local_id(line: &str, marker: &str) -> bool {
    line.match_indices(marker).any(|(at, m)| {
        !line[at + m.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit())
    })
}

/// The first word of a log line when it is a timestamp (`2025-01-01T12:34:56.789Z`), for ordering lines found by
/// different needles.
pub(crate) fn timestamp_of(line: &str) -> &str {
    let word = line.split_whitespace().next().unwrap_or("");
    let looks = word.len() >= 10
        && word.as_bytes()[..4].iter().all(u8::is_ascii_digit)
        && word.as_bytes()[4] == b'-';
    if looks { word } else { "" }
}

/// The log lines that mention `order`: its order id, its `local_id=N` (what the swap flow logs) and the transaction
/// handed in; without duplicates, in time order, the newest [`MAX_BUNDLE_LOG_LINES`].
pub(crate) fn order_log_lines(log_dir: &std::path::Path, order: &JournalOrder) -> Vec<String> {
    // Lines are gathered per needle, so ask for more than the cap and keep the newest after merging.
    let wide = MAX_BUNDLE_LOG_LINES * 4;
    let mut found: Vec<String> = Vec::new();
    if let Some(id) = order.order_id.as_deref().filter(|id| !id.is_empty()) {
        found.extend(logs::read_matching_lines(log_dir, id, wide));
    }
    let marker = format!("local_id={}", order.local_id);
    found.extend(
        logs::read_matching_lines(log_dir, &marker, wide * 4)
            .into_iter()
            .filter(|line| mentions_local_id(line, &marker)),
    );
    if let Some(handed) = &order.handed_in {
        found.extend(logs::read_matching_lines(log_dir, handed.id(), wide));
    }
    // The colour codes a span's fields may carry into the file are noise to a reader.
    for line in &mut found {
        if line.contains('\x1b') {
            *line = ANSI.replace_all(line, "").into_owned();
        }
    }
    let mut seen = HashSet::new();
    found.retain(|line| seen.insert(line.clone()));
    found.sort_by(|a, b| timestamp_of(a).cmp(timestamp_of(b)));
    let skip = found.len().saturating_sub(MAX_BUNDLE_LOG_LINES);
    found.split_off(skip)
}

/// The last preview per (data folder, order, choice), so that saving writes exactly what was shown, with the order's
/// journal state it was made from.
pub(crate) type PreviewKey = (PathBuf, i64, bool);
pub(crate) type Fingerprint = (i64, usize, Option<i64>);
pub(crate) static PREVIEWS: LazyLock<Mutex<HashMap<PreviewKey, (Fingerprint, BundlePreview)>>> =
    LazyLock::new(Mutex::default);

pub(crate) fn fingerprint(order: &JournalOrder, events: &[JournalEvent]) -> Fingerprint {
    (order.updated_at, events.len(), events.last().map(|e| e.seq))
}

#[cfg(test)]
mod tests {
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
        let err = compose(&source, BundleOptions::default(), Some(key)).unwrap_err();
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
        let err = read_bundle(&value.to_string()).unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidInput);
        assert!(
            err.message.contains("newer Gateway Desk") && err.message.contains("Update"),
            "{}",
            err.message
        );

        value["version"] = json!(1);
        value["format"] = json!("something-else");
        let err = read_bundle(&value.to_string()).unwrap_err();
        assert!(
            err.message.contains("not a Gateway Desk support bundle"),
            "{}",
            err.message
        );

        let err = read_bundle("{\"orders\": []}").unwrap_err();
        assert!(err.message.contains("no \"format\""), "{}", err.message);
        let err = read_bundle("not json").unwrap_err();
        assert!(err.message.contains("not JSON"), "{}", err.message);

        value["format"] = json!(BUNDLE_FORMAT);
        value["order"] = json!({"local_id": "x"});
        let err = read_bundle(&value.to_string()).unwrap_err();
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
