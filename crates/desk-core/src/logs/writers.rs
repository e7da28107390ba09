//! The writers every log line goes through: the redacting writer, and the daily budget of the log file.

use std::io::{self, Write};
use std::sync::atomic::{AtomicU8, Ordering};

use tracing::Metadata;
use tracing_subscriber::fmt::MakeWriter;

use super::*;

// ---------------------------------------------------------------------------------------------------------------------
// The live log's writer.

pub(crate) const SHORTEN_ADDRESSES: u8 = 1;
pub(crate) const SHORTEN_TX_IDS: u8 = 2;
pub(crate) static LIVE_OPTIONS: AtomicU8 = AtomicU8::new(0);

/// Sets what the live log (standard error and the file) shortens from now on; API keys go regardless.
/// The default is [`RedactOptions::KEYS_ONLY`].
pub fn set_live_options(options: RedactOptions) {
    let bits = u8::from(options.shorten_addresses) * SHORTEN_ADDRESSES
        + u8::from(options.shorten_tx_ids) * SHORTEN_TX_IDS;
    LIVE_OPTIONS.store(bits, Ordering::Relaxed);
}

/// What the live log shortens now (see [`set_live_options`]).
pub fn live_options() -> RedactOptions {
    let bits = LIVE_OPTIONS.load(Ordering::Relaxed);
    RedactOptions {
        shorten_addresses: bits & SHORTEN_ADDRESSES != 0,
        shorten_tx_ids: bits & SHORTEN_TX_IDS != 0,
    }
}

/// A [`MakeWriter`] whose writers pass text on only after the process's [`Redactor`] (with [`live_options`]) has
/// rewritten it.
///
/// Why a writer rather than a layer that rewrites fields: the formatter hands the writer the finished line, so the
/// message, every field (`%`, `?`, nested `Debug` of headers or errors), span fields and anything a dependency logs
/// are covered with no formatting path able to go around it, and the stock `fmt` formatting is kept. `fmt` formats
/// an event completely and writes it with one `write_all` to a writer made for that event, so redacting whole lines
/// never sees half a key. The cost is a regex pass over each finished line.
#[derive(Debug, Clone)]
pub struct RedactingMakeWriter<M> {
    inner: M,
}

impl<M> RedactingMakeWriter<M> {
    /// Wraps `inner` (e.g. `std::io::stderr` or a `tracing_appender` writer).
    pub fn new(inner: M) -> Self {
        Self { inner }
    }
}

impl<'a, M: MakeWriter<'a>> MakeWriter<'a> for RedactingMakeWriter<M> {
    type Writer = RedactingWriter<M::Writer>;

    fn make_writer(&'a self) -> Self::Writer {
        RedactingWriter::new(self.inner.make_writer())
    }

    fn make_writer_for(&'a self, meta: &Metadata<'_>) -> Self::Writer {
        RedactingWriter::new(self.inner.make_writer_for(meta))
    }
}

/// Caps what reaches the inner writer at `limit` bytes per UTC day (see [`DAY_BUDGET_BYTES`]); it is given whole
/// lines by [`RedactingWriter`].
#[derive(Debug, Clone)]
pub struct BudgetMakeWriter<M> {
    inner: M,
    budget: std::sync::Arc<Budget>,
}

#[derive(Debug)]
pub(crate) struct Budget {
    limit: u64,
    /// The UTC day, the bytes written that day, and whether the "budget reached" line was written.
    state: std::sync::Mutex<(i64, u64, bool)>,
}

impl<M> BudgetMakeWriter<M> {
    /// Wraps `inner`, letting through at most `limit` bytes a day.
    pub fn new(inner: M, limit: u64) -> Self {
        Self {
            inner,
            budget: std::sync::Arc::new(Budget {
                limit,
                state: std::sync::Mutex::new((0, 0, false)),
            }),
        }
    }
}

impl<'a, M: MakeWriter<'a>> MakeWriter<'a> for BudgetMakeWriter<M> {
    type Writer = BudgetWriter<M::Writer>;

    fn make_writer(&'a self) -> Self::Writer {
        BudgetWriter {
            inner: self.inner.make_writer(),
            budget: self.budget.clone(),
        }
    }

    fn make_writer_for(&'a self, meta: &Metadata<'_>) -> Self::Writer {
        BudgetWriter {
            inner: self.inner.make_writer_for(meta),
            budget: self.budget.clone(),
        }
    }
}

/// One writer of a [`BudgetMakeWriter`].
#[derive(Debug)]
pub struct BudgetWriter<W: Write> {
    inner: W,
    budget: std::sync::Arc<Budget>,
}

impl<W: Write> Write for BudgetWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let day = crate::calendar::now_secs().div_euclid(crate::calendar::DAY_SECS);
        let verdict = {
            let mut state = self.budget.state.lock().unwrap_or_else(|p| p.into_inner());
            if state.0 != day {
                *state = (day, 0, false);
            }
            let len = u64::try_from(buf.len()).unwrap_or(u64::MAX);
            if state.1.saturating_add(len) <= self.budget.limit {
                state.1 += len;
                Some(true)
            } else if !state.2 {
                state.2 = true;
                Some(false)
            } else {
                None
            }
        };
        match verdict {
            Some(true) => self.inner.write_all(buf)?,
            Some(false) => self.inner.write_all(
                format!(
                    "log budget of {} bytes for today reached: further lines are dropped until 00:00 UTC\n",
                    self.budget.limit
                )
                .as_bytes(),
            )?,
            None => {}
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Buffers what it is given and passes each complete line on redacted; the rest goes when it is dropped.
#[derive(Debug)]
pub struct RedactingWriter<W: Write> {
    inner: W,
    pending: Vec<u8>,
}

impl<W: Write> RedactingWriter<W> {
    /// Wraps `inner`.
    pub fn new(inner: W) -> Self {
        Self {
            inner,
            pending: Vec::new(),
        }
    }

    fn emit(&mut self, bytes: &[u8]) -> io::Result<()> {
        // Lines end at '\n', which never occurs inside a multi-byte UTF-8 sequence, so whole lines decode cleanly.
        let text = String::from_utf8_lossy(bytes);
        let redacted = redactor().redact_cow(&text, &live_options());
        self.inner.write_all(redacted.as_bytes())
    }

    fn emit_complete_lines(&mut self) -> io::Result<()> {
        if let Some(end) = self.pending.iter().rposition(|&b| b == b'\n') {
            let rest = self.pending.split_off(end + 1);
            let lines = std::mem::replace(&mut self.pending, rest);
            self.emit(&lines)?;
        }
        Ok(())
    }
}

impl<W: Write> Write for RedactingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        self.emit_complete_lines()?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.emit_complete_lines()?;
        self.inner.flush()
    }
}

impl<W: Write> Drop for RedactingWriter<W> {
    fn drop(&mut self) {
        if !self.pending.is_empty() {
            let rest = std::mem::take(&mut self.pending);
            let _ = self.emit(&rest);
        }
        let _ = self.inner.flush();
    }
}
