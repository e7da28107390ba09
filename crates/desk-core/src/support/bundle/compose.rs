//! Making a bundle: its source, its file name, its text (composed from the journal and the log lines that mention
//! the order), and the preview that saving writes exactly.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{LazyLock, Mutex};

use serde_json::Value;

use super::*;
use crate::calendar::utc_parts;
use crate::journal::{JournalEvent, JournalOrder};
use crate::logs::{self, RedactOptions};

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

/// Redacts `source` into the bundle's text. Refuses when `api_key` (the current network's key) would still be in it.
pub(crate) fn compose(
    source: &BundleSource,
    options: BundleOptions,
    api_key: Option<&str>,
) -> Result<BundlePreview, BundleError> {
    let redact = Scrub {
        options: if options.include_identifiers {
            RedactOptions::KEYS_ONLY
        } else {
            RedactOptions::SUPPORT_BUNDLE
        },
        home: source.home.as_deref(),
    };
    let mut dropped = 0usize;
    let order_raw = serde_json::to_value(&source.order).map_err(BundleError::OrderRecord)?;
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
    let mut text = serde_json::to_string_pretty(&file).map_err(BundleError::Text)?;
    text.push('\n');

    if let Some(key) = api_key.filter(|k| !k.is_empty())
        && key_forms(key)
            .iter()
            .any(|form| text.contains(form.as_str()))
    {
        return Err(BundleError::KeyLeak);
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
