//! What a bundle leaves out or shortens: credential fields, keys, file paths, and (unless asked) addresses and
//! transaction ids, counted for the preview.

use std::collections::{BTreeSet, HashSet};
use std::path::PathBuf;
use std::sync::LazyLock;

use gateway_client::TokenRegistry;
use serde_json::{Map, Value};

use crate::logs::{self, RedactOptions};

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
    pub(crate) options: RedactOptions,
    /// The user's home folder as written in text (`/home/alice`), when known.
    pub(crate) home: Option<&'a str>,
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
    pub(crate) addresses: BTreeSet<String>,
    pub(crate) tx_ids: BTreeSet<String>,
    pub(crate) long_hex: BTreeSet<String>,
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
    pub(crate) fn add(&mut self, text: &str) {
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
