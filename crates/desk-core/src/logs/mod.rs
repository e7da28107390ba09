//! Logs: standard error and a daily file in the platform's log folder, both through a redaction step.
//!
//! [`init`] starts logging for the process. Every line either destination receives first goes through the process's
//! [`Redactor`] ([`redactor`]):
//!
//! - **API keys, always.** Keys registered with [`register_secret`] (every key read from or stored in the
//!   keychain) become `[api-key]`. Tokens after `Bearer` (any case) and values of `api_key=` / `x-api-key:` become
//!   `[api-key]` even when the key was never registered.
//! - **Addresses and transaction ids, on request** ([`RedactOptions`]). The live log keeps them whole by default
//!   (they are what a developer searches for); [`set_live_options`] shortens them there too. Support bundles call
//!   [`redact`] / [`redact_json`] with [`RedactOptions::SUPPORT_BUNDLE`].
//!
//! # What is shortened
//!
//! Candidates are maximal runs of ASCII letters and digits (anything else, such as `-`, `_`, `/`, `.`, `:`, quotes or
//! spaces, ends a run), so a run is judged whole and never partly rewritten. With `shorten_addresses`:
//!
//! | run | becomes |
//! |---|---|
//! | `0x` + exactly 40 hex digits (EVM address, any case) | `0x1234…abcd` |
//! | `bc1` / `tb1` / `bcrt1` + 11–87 bech32 characters, all one case (Bitcoin segwit / taproot) | `bc1q…wxyz` |
//! | `1`, `3`, `m`, `n` or `2` + base58, 26–35 long (Bitcoin base58) | `1A1z…vfNa` |
//! | `T` + 33 base58 (Tron) | `TLa2…YjU7` |
//! | base58, 32–44 long, with a digit, that decodes to exactly 32 bytes (Solana) | `So11…1112` |
//!
//! Every base58 rule also asks for both letter cases; the Bitcoin and Tron rules ask for a digit or, failing that, a
//! valid base58check checksum.
//!
//! With `shorten_tx_ids`:
//!
//! | run | becomes |
//! |---|---|
//! | `0x` + exactly 64 hex digits (EVM transaction hash) | `0x1234…abcd` |
//! | exactly 64 hex digits (Bitcoin txid, Tron transaction id) | `1234…abcd` |
//! | base58, 86–88 long, that decodes to exactly 64 bytes (Solana signature) | `5VER…kQUW` |
//! | 100 or more hex digits, with or without `0x` (PSBT, raw transaction, calldata, signature) | `<N hex chars>` / `0x<N hex chars>` |
//!
//! Not shortened, on purpose: UUIDs (order ids: runs of at most 12 characters), `0x` values of other lengths (selectors,
//! amounts, 32-byte slots written with 66 digits), 40 hex digits without `0x` (git commit ids), hex of 65–99 digits
//! (public keys), all-digit or one-case runs (amounts, words, identifiers), Lightning invoices, file names and URLs
//! other than the ids inside them. Known limits: any 64-hex value (a block hash, a SHA-256) counts as a transaction id;
//! token contracts and mints are addresses too; a Solana address with no digit (about 1 in 1,600) or a base58 address
//! with one letter case only (below 1 in 10⁸) is kept; a 43–44 character base64 value with no `+`, `/`, `0`, `O`,
//! `I`, `l` may be taken for a Solana address; shapes are not checksum-verified (except as said above), so made-up
//! test addresses are shortened like real ones.
//! Shortening is idempotent: the output contains no run that matches again.
//! Rooms: [`writers`] (redacting and budgeted writers), [`redact`] (the rules), [`files`] (reading lines back).

pub mod files;
pub mod redact;
pub mod writers;

pub use files::*;
pub use redact::*;
pub use writers::*;

use std::io;
use std::path::{Path, PathBuf};

use tracing_appender::non_blocking::WorkerGuard;
use tracing_appender::rolling::{RollingFileAppender, Rotation};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt;
use tracing_subscriber::prelude::*;

/// The environment variable holding the log filter (`tracing` directives such as `debug` or `desk_core=trace`).
pub const FILTER_ENV: &str = "GATEWAY_DESK_LOG";
/// The filter used when [`FILTER_ENV`] is unset or unreadable.
pub const DEFAULT_FILTER: &str = "info";
/// Log files are `gateway-desk.YYYY-MM-DD.log` (the date in UTC).
pub const FILE_PREFIX: &str = "gateway-desk";
/// See [`FILE_PREFIX`].
pub const FILE_SUFFIX: &str = "log";
/// How many daily files are kept; older ones are deleted when a new one starts (and at [`init`]).
pub const MAX_FILES: usize = 14;
/// The most one day's log file takes, in bytes (32 MiB): beyond it lines are dropped until the next UTC day, with one
/// line saying so, so a flood (a misbehaving gateway, a loop) cannot fill the disk. With [`MAX_FILES`] days kept, the
/// logs never take more than 448 MiB.
pub const DAY_BUDGET_BYTES: u64 = 32 * 1024 * 1024;
/// Lines the file writer's thread may have waiting. `tracing-appender`'s default, 128,000, is a channel allocated
/// in full at start: 4 MiB of the app's memory at rest for a log that writes a few lines a minute. 8,192 lines
/// (256 KiB) absorb any burst the app makes; past them a line is dropped rather than make the window wait on a stalled
/// disk (the writer's default).
pub const BUFFERED_LINES: usize = 8_192;
/// What replaces an API key.
pub const API_KEY_MASK: &str = "[api-key]";
/// Registered secrets shorter than this are ignored: replacing them would shred ordinary text.
pub const MIN_SECRET_LEN: usize = 8;

/// What [`redact`] shortens besides API keys (which always go).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RedactOptions {
    /// EVM, Bitcoin, Tron and Solana addresses become `first4…last4`.
    pub shorten_addresses: bool,
    /// Transaction ids become `first4…last4`; very long hex (PSBTs, raw transactions) becomes `<N hex chars>`.
    pub shorten_tx_ids: bool,
}

impl RedactOptions {
    /// API keys only: the live log's default.
    pub const KEYS_ONLY: Self = Self {
        shorten_addresses: false,
        shorten_tx_ids: false,
    };
    /// API keys, addresses and transaction ids: for support bundles.
    pub const SUPPORT_BUNDLE: Self = Self {
        shorten_addresses: true,
        shorten_tx_ids: true,
    };

    fn shortens(&self) -> bool {
        self.shorten_addresses || self.shorten_tx_ids
    }
}

/// Why logging could not start.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The log folder (and its missing parents) could not be created, so no daily file can be written there.
    #[error("the log folder {path} cannot be created: {source}")]
    CreateDir {
        /// The log folder [`init`] was given.
        path: PathBuf,
        /// Why the file system refused.
        source: io::Error,
    },
    /// The folder exists, but the daily file writer could not open today's file in it.
    #[error("no log file can be opened in {path}: {source}")]
    OpenFile {
        /// The log folder [`init`] was given.
        path: PathBuf,
        /// Why `tracing_appender` could not open the file.
        source: tracing_appender::rolling::InitError,
    },
    /// A global `tracing` subscriber is already installed (by an earlier [`init`] or [`init_stderr`], or by other
    /// code); it stays in place and nothing new is installed.
    #[error("logging was already started in this process")]
    AlreadyStarted,
}

/// Keeps the file writer alive; drop it at exit so the last lines reach the file.
#[must_use = "dropping the guard stops writing the log file"]
pub struct LogGuard {
    _worker: WorkerGuard,
}

impl std::fmt::Debug for LogGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LogGuard")
    }
}

/// Starts logging for the process: standard error plus `log_dir/gateway-desk.YYYY-MM-DD.log` (daily, [`MAX_FILES`]
/// kept), both filtered by the environment variable `filter_env` (default [`DEFAULT_FILTER`]) and redacted.
///
/// Nothing is installed when it fails; the caller may fall back to [`init_stderr`].
pub fn init(log_dir: &Path, filter_env: &str) -> Result<LogGuard, LogError> {
    // Checked first: building the appender below already prunes old files and starts a writer thread.
    if tracing::dispatcher::has_been_set() {
        return Err(LogError::AlreadyStarted);
    }
    std::fs::create_dir_all(log_dir).map_err(|source| LogError::CreateDir {
        path: log_dir.to_path_buf(),
        source,
    })?;
    let appender = RollingFileAppender::builder()
        .rotation(Rotation::DAILY)
        .filename_prefix(FILE_PREFIX)
        .filename_suffix(FILE_SUFFIX)
        .max_log_files(MAX_FILES)
        .build(log_dir)
        .map_err(|source| LogError::OpenFile {
            path: log_dir.to_path_buf(),
            source,
        })?;
    let (writer, worker) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .buffered_lines_limit(BUFFERED_LINES)
        .finish(appender);
    let (filter, bad_filter) = filter(filter_env);
    tracing_subscriber::registry()
        .with(filter)
        // No colours on standard error either: both layers share the span fields formatted once, so colour codes
        // written for the terminal would end up in the file (and in support bundles).
        .with(
            fmt::layer()
                .with_ansi(false)
                .with_writer(RedactingMakeWriter::new(io::stderr)),
        )
        .with(
            fmt::layer()
                .with_ansi(false)
                .with_writer(RedactingMakeWriter::new(BudgetMakeWriter::new(
                    writer,
                    DAY_BUDGET_BYTES,
                ))),
        )
        .try_init()
        .map_err(|_| LogError::AlreadyStarted)?;
    warn_bad_filter(filter_env, bad_filter);
    Ok(LogGuard { _worker: worker })
}

/// Starts logging to standard error only (redacted), for when [`init`] cannot open the log folder.
pub fn init_stderr(filter_env: &str) -> Result<(), LogError> {
    let (filter, bad_filter) = filter(filter_env);
    tracing_subscriber::registry()
        .with(filter)
        .with(fmt::layer().with_writer(RedactingMakeWriter::new(io::stderr)))
        .try_init()
        .map_err(|_| LogError::AlreadyStarted)?;
    warn_bad_filter(filter_env, bad_filter);
    Ok(())
}

/// The filter from `filter_env`, and the refused value when it was set but unreadable.
fn filter(filter_env: &str) -> (EnvFilter, Option<String>) {
    match EnvFilter::try_from_env(filter_env) {
        Ok(filter) => (filter, None),
        Err(_) => {
            let bad = std::env::var(filter_env).ok().filter(|v| !v.is_empty());
            (EnvFilter::new(DEFAULT_FILTER), bad)
        }
    }
}

fn warn_bad_filter(filter_env: &str, bad: Option<String>) {
    if let Some(value) = bad {
        tracing::warn!(
            variable = filter_env,
            value,
            "unreadable log filter; using `{DEFAULT_FILTER}`"
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::ids::short_id;
    use tracing_subscriber::fmt::MakeWriter;

    use std::io::{self, Write};

    use std::sync::PoisonError;

    #[test]
    fn a_day_s_log_stops_at_its_budget_with_one_line_saying_so() {
        #[derive(Clone, Default)]
        struct Sink(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
        impl Write for Sink {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let sink = Sink::default();
        let make = BudgetMakeWriter::new(
            {
                let sink = sink.clone();
                move || sink.clone()
            },
            100,
        );
        for _ in 0..1000 {
            make.make_writer()
                .write_all(b"0123456789 a line of forty bytes......\n")
                .unwrap();
        }
        let written = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        assert_eq!(written.matches("a line of forty").count(), 2, "{written}");
        assert_eq!(
            written.matches("log budget of 100 bytes").count(),
            1,
            "{written}"
        );
    }

    use serde_json::json;

    use super::*;

    const KEY: &str = "Kx7pQ2mZ9vR4tY8wB1nC6dF3gH5jL0sA";
    const EVM_ADDRESS: &str = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e";
    const EVM_TX: &str = "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060";
    const BTC_TXID: &str = "f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16";
    const UUID: &str = "550e8400-e29b-41d4-a716-446655440000";

    fn keys_only(r: &Redactor, text: &str) -> String {
        r.redact(text, &RedactOptions::KEYS_ONLY)
    }

    fn all(text: &str) -> String {
        Redactor::new().redact(text, &RedactOptions::SUPPORT_BUNDLE)
    }

    #[test]
    fn registered_keys_are_replaced_everywhere() {
        let r = Redactor::new();
        assert!(r.register(KEY));
        let text = format!("key={KEY} again:{KEY}! debug=\"{KEY}\"");
        assert_eq!(
            keys_only(&r, &text),
            "key=[api-key] again:[api-key]! debug=\"[api-key]\""
        );
        assert!(!r.register("short"), "short secrets are refused");
        assert_eq!(keys_only(&r, "a short line"), "a short line");
    }

    #[test]
    fn escaped_forms_of_a_key_are_replaced() {
        let r = Redactor::new();
        let key = r#"ab"cd\efgh1234567890ABCDEFGHIJKL"#;
        r.register(key);
        let debug = format!("{key:?}");
        let json = serde_json::to_string(key).unwrap();
        assert_eq!(keys_only(&r, &debug), "\"[api-key]\"");
        assert_eq!(keys_only(&r, &json), "\"[api-key]\"");
    }

    #[test]
    fn bearer_tokens_go_even_unregistered() {
        let r = Redactor::new();
        for (input, expected) in [
            (
                "Authorization: Bearer abcDEF123456ghiJKL789012mnoPQR34",
                "Authorization: Bearer [api-key]",
            ),
            (
                "authorization: bearer abcDEF123456ghiJKL789012mnoPQR34",
                "authorization: bearer [api-key]",
            ),
            (
                r#"headers={"authorization": "Bearer tok-9_x.y+z/w=="}"#,
                r#"headers={"authorization": "Bearer [api-key]"}"#,
            ),
            ("BEARER\tsk_live_1", "BEARER\t[api-key]"),
            (
                "x-api-key: abcDEF123456ghiJKL789012",
                "x-api-key: [api-key]",
            ),
            (
                "api_key=\"abcDEF123456ghiJKL789012\"",
                "api_key=\"[api-key]\"",
            ),
        ] {
            assert_eq!(keys_only(&r, input), expected, "{input}");
        }
    }

    #[test]
    fn prose_about_bearer_tokens_is_kept() {
        let r = Redactor::new();
        for text in [
            "the Bearer token is missing",
            "send `Authorization: Bearer <key>`",
            r#"WWW-Authenticate: Bearer error="invalid_token""#,
            "Bearer [api-key]",
            "api_key=true api_key_present=yes apiKey: none",
        ] {
            assert_eq!(keys_only(&r, text), text);
        }
    }

    #[test]
    fn masking_is_idempotent() {
        let r = Redactor::new();
        r.register(KEY);
        let once = keys_only(&r, &format!("Authorization: Bearer {KEY}; api_key={KEY}"));
        assert_eq!(once, "Authorization: Bearer [api-key]; api_key=[api-key]");
        assert_eq!(keys_only(&r, &once), once);
    }

    #[test]
    fn evm_addresses_and_hashes() {
        assert_eq!(all(EVM_ADDRESS), "0x742d…f44e");
        assert_eq!(all(EVM_TX), "0x5c50…2060");
        let upper = format!("0X{}", &EVM_ADDRESS[2..]);
        assert_eq!(all(&upper), "0x742d…f44e");
        let text = format!("recipient={EVM_ADDRESS} tx=\"{EVM_TX}\"");
        assert_eq!(all(&text), "recipient=0x742d…f44e tx=\"0x5c50…2060\"");
    }

    #[test]
    fn options_choose_what_is_shortened() {
        let r = Redactor::new();
        let text = format!("{EVM_ADDRESS} {EVM_TX} {BTC_TXID}");
        let addresses = RedactOptions {
            shorten_addresses: true,
            shorten_tx_ids: false,
        };
        let txs = RedactOptions {
            shorten_addresses: false,
            shorten_tx_ids: true,
        };
        assert_eq!(r.redact(&text, &RedactOptions::KEYS_ONLY), text);
        assert_eq!(
            r.redact(&text, &addresses),
            format!("0x742d…f44e {EVM_TX} {BTC_TXID}")
        );
        assert_eq!(
            r.redact(&text, &txs),
            format!("{EVM_ADDRESS} 0x5c50…2060 f418…9e16")
        );
    }

    #[test]
    fn bitcoin_tron_and_solana() {
        for (input, expected) in [
            ("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "bc1q…5mdq"),
            (
                "bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297",
                "bc1p…3297",
            ),
            ("tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", "tb1q…jzsx"),
            ("bcrt1qs758ursh4q9z627kt3pp5yysm78ddny6txaqgw", "bcrt…aqgw"),
            ("BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", "BC1Q…F3T4"),
            ("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", "1A1z…vfNa"),
            ("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", "3J98…WNLy"),
            ("mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn", "mipc…JRfn"),
            ("2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc", "2MzQ…a1Vc"),
            ("TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7", "TLa2…YjU7"),
            ("So11111111111111111111111111111111111111112", "So11…1112"),
            ("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "EPjF…Dt1v"),
            (
                "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW",
                "5VER…kQUW",
            ),
            (BTC_TXID, "f418…9e16"),
        ] {
            assert_eq!(all(input), expected, "{input}");
            assert_eq!(all(&format!("to={input}.")), format!("to={expected}."));
        }
    }

    #[test]
    fn long_hex_is_summarised() {
        let psbt = format!("70736274ff{}", "01".repeat(100));
        assert_eq!(all(&format!("psbt={psbt}")), "psbt=<210 hex chars>");
        let calldata = format!("0x{}", "ab".repeat(68));
        assert_eq!(all(&calldata), "0x<136 hex chars>");
    }

    #[test]
    fn shortening_is_idempotent() {
        let text = format!(
            "{EVM_ADDRESS} {EVM_TX} {BTC_TXID} bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq {}",
            "ab".repeat(80)
        );
        let once = all(&text);
        assert_eq!(all(&once), once);
    }

    /// Ordinary log text that must come out exactly as it went in, even with every option on.
    #[test]
    fn ordinary_text_is_left_alone() {
        let samples = [
            UUID,
            "order 550e8400-e29b-41d4-a716-446655440000 moved to inProgress",
            "gateway-desk.2025-01-01.log",
            "2025-01-01T12:34:56.789012Z  INFO desk_core::desk: starting Gateway Desk",
            "desk_core::settings::NetworkKind::Production",
            "https://gateway-api-mainnet.gobob.xyz/v3/quote?srcChain=bitcoin&amount=100000",
            "amount=100000000000000000000 fee=123456789123456789123456789",
            "selector=0xa9059cbb value=0x0de0b6b3a7640000",
            "slot=0x000000000000000000000000000000000000000000000000000000000000000001",
            "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
            "almost a txid: f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e1",
            "one more: f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16a",
            "0x742d35Cc6634C0532925a3b844Bc454e4438f44 is one digit short",
            "Supercalifragilisticexpialidocious internationalization",
            "RouteQuoteRequestDestinationChainToken2 was rebuilt",
            "maybeRetryQuoteRequestAfterTimeout then TransactionReceiptWatcherSubmitted",
            "Request { url: \"https://example.test/v3/orders/550e8400-e29b-41d4-a716-446655440000\", status: 404 }",
            "MAXIMUMRETRYCOUNTFORTHEGATEWAYCLIENT2 reached",
            "11111111111111111111111111111111",
            "lnbc2500u1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs",
            "bc1 is the prefix of mainnet segwit addresses",
            "dGhpcyBpcyBhIHRlc3Qgb2YgYmFzZTY0IGVuY29kaW5n=",
            "ÄÖÜ ünïcödé — text … 0x",
            "",
        ];
        for text in samples {
            assert_eq!(all(text), text, "{text}");
        }
    }

    /// A small deterministic generator for the property tests (xorshift).
    struct Rng(u64);

    impl Rng {
        fn bytes<const N: usize>(&mut self) -> [u8; N] {
            std::array::from_fn(|_| {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                (self.0 >> 24) as u8
            })
        }
    }

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn random_ids_of_each_kind_are_shortened_and_uuids_never() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..2000 {
            let uuid = {
                let h = hex(&rng.bytes::<16>());
                format!(
                    "{}-{}-{}-{}-{}",
                    &h[..8],
                    &h[8..12],
                    &h[12..16],
                    &h[16..20],
                    &h[20..]
                )
            };
            let line = format!("order {uuid} status=ok");
            assert_eq!(all(&line), line);

            let evm = format!("0x{}", hex(&rng.bytes::<20>()));
            assert_eq!(all(&evm), format!("{}…{}", &evm[..6], &evm[38..]));
            let txid = hex(&rng.bytes::<32>());
            assert_eq!(all(&txid), format!("{}…{}", &txid[..4], &txid[60..]));

            let mut tron = vec![0x41];
            tron.extend(rng.bytes::<20>());
            let tron = bitcoin::base58::encode_check(&tron);
            assert_eq!(all(&tron), short_id(&tron), "{tron}");

            let solana = bitcoin::base58::encode(&rng.bytes::<32>());
            let expected = if solana.bytes().any(|b| b.is_ascii_digit()) {
                short_id(&solana)
            } else {
                solana.clone() // the documented gap: no digit, no shortening
            };
            assert_eq!(all(&solana), expected, "{solana}");
        }
    }

    #[test]
    fn a_tron_address_without_digits_is_known_by_its_checksum() {
        let mut rng = Rng(7);
        let tron = std::iter::repeat_with(|| {
            let mut payload = vec![0x41];
            payload.extend(rng.bytes::<20>());
            bitcoin::base58::encode_check(&payload)
        })
        .take(100_000)
        .find(|a| !a.bytes().any(|b| b.is_ascii_digit()))
        .expect("one in a few hundred has no digit");
        assert_eq!(all(&tron), short_id(&tron));
    }

    #[test]
    fn json_strings_and_key_fields() {
        let r = Redactor::new();
        r.register(KEY);
        let value = json!({
            "order_id": UUID,
            "apiKey": "anything at all",
            "headers": {"Authorization": format!("Bearer {KEY}"), "x-api-key": "k"},
            "note": format!("used {KEY}"),
            "recipient": EVM_ADDRESS,
            "txids": [BTC_TXID, EVM_TX],
            EVM_ADDRESS: 1,
            "amount": 1000,
            "empty_api_key": "",
        });
        let out = r.redact_json(&value, &RedactOptions::SUPPORT_BUNDLE);
        assert_eq!(
            out,
            json!({
                "order_id": UUID,
                "apiKey": "[api-key]",
                "headers": {"Authorization": "[api-key]", "x-api-key": "[api-key]"},
                "note": "used [api-key]",
                "recipient": "0x742d…f44e",
                "txids": ["f418…9e16", "0x5c50…2060"],
                "0x742d…f44e": 1,
                "amount": 1000,
                "empty_api_key": "",
            })
        );
        let kept = r.redact_json(&value, &RedactOptions::KEYS_ONLY);
        assert_eq!(kept["recipient"], EVM_ADDRESS);
        assert_eq!(kept["note"], "used [api-key]");
    }

    #[test]
    fn the_writer_redacts_each_line_and_the_rest_on_drop() {
        // Uses the process's redactor; this key is registered by no other test.
        let key = "WrTr9kQ2mZ9vR4tY8wB1nC6dF3gH5jLz";
        register_secret(key);
        let mut sink = Vec::new();
        {
            let mut writer = RedactingWriter::new(&mut sink);
            let line = format!("first {key}\nsecond half of {}", &key[..10]);
            writer.write_all(line.as_bytes()).unwrap();
            writer.write_all(&key.as_bytes()[10..]).unwrap();
            writer.write_all(b" end").unwrap();
        }
        assert_eq!(
            String::from_utf8(sink).unwrap(),
            "first [api-key]\nsecond half of [api-key] end"
        );
    }

    #[test]
    fn a_subscriber_with_the_writer_never_prints_a_key() {
        let key = "SbSc9kQ2mZ9vR4tY8wB1nC6dF3gH5jLz";
        register_secret(key);
        let sink = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let make = {
            let sink = sink.clone();
            move || SharedSink(sink.clone())
        };
        let subscriber = tracing_subscriber::registry().with(
            fmt::layer()
                .with_ansi(false)
                .with_writer(RedactingMakeWriter::new(make)),
        );
        tracing::subscriber::with_default(subscriber, || {
            tracing::info!(api_key = key, recipient = EVM_ADDRESS, "using {key}");
            tracing::info!(header = ?format!("Bearer unregisteredToken123456"), "sent");
        });
        let out = String::from_utf8(sink.lock().unwrap().clone()).unwrap();
        assert!(!out.contains(key), "{out}");
        assert!(!out.contains("unregisteredToken123456"), "{out}");
        assert!(out.contains(EVM_ADDRESS), "{out}");
        assert!(out.contains("using [api-key]"), "{out}");
    }

    struct SharedSink(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl Write for SharedSink {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn matching_lines_come_newest_last_and_bounded() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("gateway-desk.2025-01-02.log"),
            format!("c {UUID}\nd other\ne {UUID} Bearer abcDEF123456ghiJKL789012\n"),
        )
        .unwrap();
        std::fs::write(
            dir.path().join("gateway-desk.2025-01-01.log"),
            format!("a {UUID}\nb {UUID}\n"),
        )
        .unwrap();
        std::fs::write(dir.path().join("notes.txt"), format!("z {UUID}\n")).unwrap();
        let all = read_matching_lines(dir.path(), UUID, 10);
        assert_eq!(
            all,
            [
                format!("a {UUID}"),
                format!("b {UUID}"),
                format!("c {UUID}"),
                format!("e {UUID} Bearer [api-key]"),
            ]
        );
        assert_eq!(
            read_matching_lines(dir.path(), UUID, 2),
            [format!("c {UUID}"), format!("e {UUID} Bearer [api-key]")]
        );
        assert!(read_matching_lines(dir.path(), "", 10).is_empty());
        assert!(read_matching_lines(dir.path(), UUID, 0).is_empty());
        assert!(read_matching_lines(&dir.path().join("missing"), UUID, 10).is_empty());
    }

    #[test]
    fn very_long_lines_are_clipped() {
        let line = format!("{}é{}\n", "a".repeat(MAX_LINE_LEN - 1), "b".repeat(10));
        let clipped = clip(&line);
        assert!(clipped.ends_with("a…"));
        assert!(clipped.len() <= MAX_LINE_LEN + '…'.len_utf8());
    }
}
