//! The redactor: API keys always, credential fields, and addresses and transaction ids on request; and the
//! process's own redactor, which support bundles call too.

use crate::ids::short_id;
use std::borrow::Cow;
use std::sync::{LazyLock, PoisonError, RwLock};

use regex::Regex;
use serde_json::Value;

use super::*;

// ---------------------------------------------------------------------------------------------------------------------
// The redactor.

/// Rewrites text so it carries no API key and, on request, only shortened addresses and transaction ids.
///
/// The process has one ([`redactor`]) holding the keys registered at runtime; the live log and support bundles use
/// it. A separate one is useful only in tests.
#[derive(Debug, Default)]
pub struct Redactor {
    /// Registered secrets and their escaped forms (as `Debug` or JSON would print them), longest first.
    secrets: RwLock<Vec<String>>,
}

/// `Bearer <token>` (any case); the token runs to a space, a quote or a closing bracket.
pub(crate) static BEARER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)\bbearer[ \t]+([^\s"'`,;\\)\]}>\x1b]+)"#)
        .expect("the Bearer pattern is valid")
});

/// `api_key=<value>`, `apiKey: "<value>"`, `x-api-key: <value>` with a value of 16 or more characters.
pub(crate) static KEY_FIELD: LazyLock<Regex> = LazyLock::new(|| {
    // `(?:\x1b\[[0-9;]*m)*`: the colour codes standard error puts around a field's name and `=`.
    Regex::new(
        r#"(?i)\b(?:x-api-key|api[_-]?key)(?:\x1b\[[0-9;]*m)*\s*[:=](?:\x1b\[[0-9;]*m)*\s*"?([^\s"'`,;\\)\]}>\x1b]{16,})"#,
    )
        .expect("the key-field pattern is valid")
});

impl Redactor {
    /// A redactor that knows no key yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Remembers `secret` so it is replaced by `[api-key]` wherever it appears from now on. Secrets shorter than
    /// [`MIN_SECRET_LEN`] are refused (`false`); registering twice is harmless. Secrets are never forgotten.
    pub fn register(&self, secret: &str) -> bool {
        if secret.chars().count() < MIN_SECRET_LEN {
            return false;
        }
        let escaped = secret.replace('\\', r"\\").replace('"', "\\\"");
        let mut secrets = self.secrets.write().unwrap_or_else(PoisonError::into_inner);
        for form in [secret.to_owned(), escaped] {
            if !secrets.contains(&form) {
                secrets.push(form);
            }
        }
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        true
    }

    /// `text` without API keys and, as `options` ask, with addresses and transaction ids shortened.
    pub fn redact(&self, text: &str, options: &RedactOptions) -> String {
        self.redact_cow(text, options).into_owned()
    }

    /// [`Redactor::redact`] on every string of `value` (object keys included). The values of fields named like an
    /// API key (`apiKey`, `api_key`, `x-api-key`, `authorization`) become `[api-key]` whatever they hold.
    pub fn redact_json(&self, value: &Value, options: &RedactOptions) -> Value {
        match value {
            Value::String(s) => Value::String(self.redact(s, options)),
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|item| self.redact_json(item, options))
                    .collect(),
            ),
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(key, item)| {
                        let item = match item {
                            Value::String(s) if !s.is_empty() && is_credential_field(key) => {
                                Value::String(API_KEY_MASK.to_owned())
                            }
                            other => self.redact_json(other, options),
                        };
                        (self.redact(key, options), item)
                    })
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    pub(crate) fn redact_cow<'t>(&self, text: &'t str, options: &RedactOptions) -> Cow<'t, str> {
        let mut text = Cow::Borrowed(text);
        {
            let secrets = self.secrets.read().unwrap_or_else(PoisonError::into_inner);
            for secret in secrets.iter() {
                if text.contains(secret.as_str()) {
                    text = Cow::Owned(text.replace(secret.as_str(), API_KEY_MASK));
                }
            }
        }
        for pattern in [&*BEARER, &*KEY_FIELD] {
            if let Some(replaced) = mask_tokens(pattern, &text) {
                text = Cow::Owned(replaced);
            }
        }
        if options.shortens()
            && let Some(shortened) = shorten_ids(&text, options)
        {
            text = Cow::Owned(shortened);
        }
        text
    }
}

/// Replaces group 1 of every match of `pattern` by `[api-key]`, unless it is plainly not a key; `None` when nothing
/// changed.
pub(crate) fn mask_tokens(pattern: &Regex, text: &str) -> Option<String> {
    let mut out = String::new();
    let mut last = 0;
    for caps in pattern.captures_iter(text) {
        let Some(token) = caps.get(1) else { continue };
        if !looks_like_key(token.as_str(), &text[token.start()..]) {
            continue;
        }
        out.push_str(&text[last..token.start()]);
        out.push_str(API_KEY_MASK);
        last = token.end();
    }
    if last == 0 {
        return None;
    }
    out.push_str(&text[last..]);
    Some(out)
}

/// Whether the word after `Bearer` (or `api_key=`) may be a key. Not a key: the mask itself, a placeholder like
/// `<key>`, a short lower-case word ("Bearer token is missing"), and an auth parameter (`Bearer error="…"`).
/// `from` is the text from the token on.
pub(crate) fn looks_like_key(token: &str, from: &str) -> bool {
    if from.starts_with(API_KEY_MASK) || token.starts_with('<') {
        return false;
    }
    if token.len() <= 15 && token.bytes().all(|b| b.is_ascii_lowercase()) {
        return false;
    }
    let is_auth_param = token.strip_suffix('=').is_some_and(|name| {
        ["realm", "error", "error_description", "error_uri", "scope"]
            .iter()
            .any(|param| name.eq_ignore_ascii_case(param))
    }) && from[token.len()..].starts_with('"');
    !is_auth_param
}

/// The one list of credential fields, for logs and support bundles alike: a field whose value is a credential
/// whatever it holds (`apiKey`, `api_key`, `x-api-key`, `Authorization`, `proxy-authorization`, `api_token`,
/// `accessToken`), compared without case and without anything but letters and digits.
pub fn is_credential_field(name: &str) -> bool {
    let normalized: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .flat_map(char::to_lowercase)
        .collect();
    matches!(
        normalized.as_str(),
        "apikey" | "xapikey" | "authorization" | "proxyauthorization" | "apitoken" | "accesstoken"
    )
}

/// Shortens every run of ASCII letters and digits that is an address or transaction id `options` asks for; `None`
/// when nothing changed.
pub(crate) fn shorten_ids(text: &str, options: &RedactOptions) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut last = 0;
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_alphanumeric() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
            i += 1;
        }
        // Runs are ASCII, so `start..i` are char boundaries.
        if let Some(short) = shorten_run(&text[start..i], options) {
            out.push_str(&text[last..start]);
            out.push_str(&short);
            last = i;
        }
    }
    if last == 0 {
        return None;
    }
    out.push_str(&text[last..]);
    Some(out)
}

/// Shortest run worth looking at (a base58 Bitcoin address).
pub(crate) const MIN_ID_LEN: usize = 26;
/// Hex this long or longer is data (PSBT, raw transaction), summarised by its length.
pub(crate) const LONG_HEX: usize = 100;
use gateway_client::address::IdShape as Kind;

pub(crate) fn shorten_run(run: &str, options: &RedactOptions) -> Option<String> {
    if run.len() < MIN_ID_LEN {
        return None;
    }
    let wanted = |kind| match kind {
        Kind::Address => options.shorten_addresses,
        Kind::TxId => options.shorten_tx_ids,
    };
    let all_hex = |s: &str| s.bytes().all(|b| b.is_ascii_hexdigit());

    // `0x` + hex: EVM address, EVM transaction hash, or long data.
    if let Some(hex) = run.strip_prefix("0x").or_else(|| run.strip_prefix("0X"))
        && all_hex(hex)
    {
        return match hex.len() {
            40 if wanted(Kind::Address) => Some(format!("0x{}", short_id(hex))),
            64 if wanted(Kind::TxId) => Some(format!("0x{}", short_id(hex))),
            n if n >= LONG_HEX && wanted(Kind::TxId) => Some(format!("0x<{n} hex chars>")),
            _ => None,
        };
    }
    // Bare hex: Bitcoin txid / Tron transaction id, or long data.
    if all_hex(run) {
        return match run.len() {
            64 if wanted(Kind::TxId) => Some(short_id(run)),
            n if n >= LONG_HEX && wanted(Kind::TxId) => Some(format!("<{n} hex chars>")),
            _ => None,
        };
    }
    wanted(gateway_client::address::id_shape(run)?).then(|| short_id(run))
}

// ---------------------------------------------------------------------------------------------------------------------
// The process's redactor and what support bundles call.

pub(crate) static REDACTOR: LazyLock<Redactor> = LazyLock::new(Redactor::new);

/// The process's redactor: the live log and support bundles use it.
pub fn redactor() -> &'static Redactor {
    &REDACTOR
}

/// Registers an API key with the process's redactor so no log line or bundle carries it (see [`Redactor::register`]).
pub fn register_secret(secret: &str) -> bool {
    redactor().register(secret)
}

/// [`Redactor::redact`] with the process's redactor.
pub fn redact(text: &str, options: &RedactOptions) -> String {
    redactor().redact(text, options)
}

/// [`Redactor::redact_json`] with the process's redactor.
pub fn redact_json(value: &Value, options: &RedactOptions) -> Value {
    redactor().redact_json(value, options)
}
