//! The desk's Sandbox clock facet: the Sandbox's orders take minutes to end, as the real service's do; a person
//! learning on it moves its clock on ("+10 minutes", "finish pending orders now") instead of waiting. Only on the
//! Sandbox network; the orders are read again at once afterwards.

use serde::Serialize;
use ts_rs::TS;

use super::*;
use crate::sandbox::{ClockMoved, LocalClock};

/// The most the Sandbox's clock moves in one step, seconds (a week): a typing slip must not jump it years on.
pub const MAX_ADVANCE_SECS: u64 = 7 * 24 * 3_600;

/// The Sandbox's clock as the window shows it, after a read or a move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "SandboxClockView.ts")]
pub struct SandboxClockView {
    /// How far the Sandbox's clock has been moved on in all, seconds.
    #[ts(type = "number")]
    pub advanced_secs: u64,
    /// Paid orders not yet at their ending.
    #[ts(type = "number")]
    pub pending: u64,
    /// How far the clock must move for all of them to end, seconds (what "finish pending orders now" moves it).
    #[ts(type = "number")]
    pub finish_in_secs: u64,
    /// How far this call moved it, seconds (0 for a read, or when nothing was pending).
    #[ts(type = "number")]
    pub moved_secs: u64,
    /// Paid orders that reached their ending in this move.
    #[ts(type = "number")]
    pub finished: u64,
    /// Unpaid orders whose time to be paid ran out in this move.
    #[ts(type = "number")]
    pub expired: u64,
    /// Outputs and refunds that arrived on the Sandbox's chains in this move.
    #[ts(type = "number")]
    pub delivered: u64,
    /// Outputs and refunds waiting for their chain to start (they arrive when the wallet first uses that chain).
    #[ts(type = "number")]
    pub undelivered: u64,
    /// What happened, in a sentence for the person.
    pub status: String,
}

impl Desk {
    /// The Sandbox's clock and its orders under way. Refused off the Sandbox.
    pub async fn sandbox_clock(&self) -> Result<SandboxClockView, DeskError> {
        let reading = {
            let state = self.state.lock().await;
            sandbox_of(&state)?.clock()
        };
        let clock = reading.await?;
        Ok(view_of_reading(&clock))
    }

    /// Moves the Sandbox's clock on by `secs` (1 s to [`MAX_ADVANCE_SECS`]): its orders reach their endings, what
    /// the finished ones pay out arrives on its local chains, and the app reads its orders again at once. Refused off
    /// the Sandbox.
    pub async fn sandbox_advance(&self, secs: u64) -> Result<SandboxClockView, DeskError> {
        if secs == 0 || secs > MAX_ADVANCE_SECS {
            return Err(invalid(
                "secs",
                format!(
                    "The Sandbox's clock moves on by 1 second to {} at a time; {secs} seconds is outside that.",
                    duration_words(MAX_ADVANCE_SECS)
                ),
            ));
        }
        let moving = {
            let state = self.state.lock().await;
            sandbox_of(&state)?.advance_clock(secs)
        };
        let moved = moving.await?;
        self.refresh_now().await;
        Ok(view_of_move(&moved))
    }

    /// Moves the Sandbox's clock on exactly as far as its latest paid order under way needs to end (as the Sandbox
    /// computes it from each order's registration and route), so every one finishes now; nothing moves when none is
    /// under way. Unpaid orders are not waited for, but expire if their time to be paid runs out on the way. Refused
    /// off the Sandbox.
    pub async fn sandbox_finish_pending(&self) -> Result<SandboxClockView, DeskError> {
        let gateway_clock = self.sandbox_clock_reading().await?;
        if gateway_clock.pending == 0 {
            let mut view = view_of_reading(&gateway_clock);
            view.status = format!(
                "No paid order of the Sandbox is under way, so its clock was not moved.{}",
                undelivered_words(gateway_clock.undelivered)
            );
            return Ok(view);
        }
        self.sandbox_advance(gateway_clock.finish_in_secs.clamp(1, MAX_ADVANCE_SECS))
            .await
    }

    async fn sandbox_clock_reading(&self) -> Result<LocalClock, DeskError> {
        let reading = {
            let state = self.state.lock().await;
            sandbox_of(&state)?.clock()
        };
        Ok(reading.await?)
    }
}

/// The Sandbox's gateway, or the refusal when the network in use is another.
fn sandbox_of(state: &State) -> Result<&dyn crate::sandbox::RunningGateway, DeskError> {
    state.network.sandbox_gateway().ok_or_else(|| {
        DeskError::new(
            ErrorKind::Sandbox,
            format!(
                "Only the Sandbox's clock can be moved on, and the app is on {}, where orders take the time they \
                 take. Choose the Sandbox network to try orders without real money.",
                state.network.kind.label()
            ),
        )
    })
}

fn view_of_reading(clock: &LocalClock) -> SandboxClockView {
    let status = if clock.pending == 0 {
        format!(
            "No paid order of the Sandbox is under way.{}",
            undelivered_words(clock.undelivered)
        )
    } else {
        format!(
            "{} under way; the last ends in {}.{}",
            orders_words(clock.pending, "paid order"),
            duration_words(clock.finish_in_secs),
            undelivered_words(clock.undelivered)
        )
    };
    SandboxClockView {
        advanced_secs: clock.advanced_secs,
        pending: clock.pending,
        finish_in_secs: clock.finish_in_secs,
        moved_secs: 0,
        finished: 0,
        expired: 0,
        delivered: 0,
        undelivered: clock.undelivered,
        status,
    }
}

fn view_of_move(moved: &ClockMoved) -> SandboxClockView {
    let mut status = format!(
        "Moved the Sandbox's clock on by {}; {} finished",
        duration_words(moved.moved_secs),
        orders_words(moved.finished, "order")
    );
    if moved.expired > 0 {
        status.push_str(&format!(
            ", {} expired unpaid",
            orders_words(moved.expired, "order")
        ));
    }
    status.push('.');
    if moved.delivered > 0 {
        status.push_str(&format!(
            " {} arrived on the Sandbox's chains.",
            count_words(moved.delivered, "payment")
        ));
    }
    if moved.after.pending > 0 {
        status.push_str(&format!(
            " {} still under way; the last ends in {}.",
            orders_words(moved.after.pending, "paid order"),
            duration_words(moved.after.finish_in_secs)
        ));
    }
    status.push_str(&undelivered_words(moved.after.undelivered));
    SandboxClockView {
        advanced_secs: moved.after.advanced_secs,
        pending: moved.after.pending,
        finish_in_secs: moved.after.finish_in_secs,
        moved_secs: moved.moved_secs,
        finished: moved.finished,
        expired: moved.expired,
        delivered: moved.delivered,
        undelivered: moved.after.undelivered,
        status,
    }
}

/// " 2 payments wait for their chain to start: they arrive when the wallet first uses it." (empty for none).
fn undelivered_words(n: u64) -> String {
    match n {
        0 => String::new(),
        1 => " 1 payment waits for its chain to start: it arrives when the wallet first uses that chain.".into(),
        n => format!(
            " {n} payments wait for their chain to start: they arrive when the wallet first uses it."
        ),
    }
}

/// "1 order", "2 orders" (and "no order" for none).
fn orders_words(n: u64, what: &str) -> String {
    count_words(n, what)
}

fn count_words(n: u64, what: &str) -> String {
    match n {
        0 => format!("no {what}"),
        1 => format!("1 {what}"),
        n => format!("{n} {what}s"),
    }
}

/// A duration in words, to the second: "45 s", "10 min", "1 h 30 min", "2 d 3 h".
pub(crate) fn duration_words(secs: u64) -> String {
    let (days, hours, mins, s) = (
        secs / 86_400,
        secs % 86_400 / 3_600,
        secs % 3_600 / 60,
        secs % 60,
    );
    let parts: Vec<String> = [(days, "d"), (hours, "h"), (mins, "min"), (s, "s")]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, unit)| format!("{n} {unit}"))
        .collect();
    if parts.is_empty() {
        "0 s".into()
    } else {
        parts.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_a_person_says_them() {
        assert_eq!(duration_words(0), "0 s");
        assert_eq!(duration_words(45), "45 s");
        assert_eq!(duration_words(600), "10 min");
        assert_eq!(duration_words(5_400), "1 h 30 min");
        assert_eq!(duration_words(1_801), "30 min 1 s");
        assert_eq!(duration_words(MAX_ADVANCE_SECS), "7 d");
    }

    #[test]
    fn a_move_says_what_finished_arrived_and_waits() {
        let moved = ClockMoved {
            moved_secs: 600,
            finished: 2,
            expired: 1,
            delivered: 2,
            after: LocalClock {
                pending: 1,
                finish_in_secs: 1_200,
                undelivered: 1,
                advanced_secs: 600,
                ..LocalClock::default()
            },
        };
        let view = view_of_move(&moved);
        assert_eq!(
            view.status,
            "Moved the Sandbox's clock on by 10 min; 2 orders finished, 1 order expired unpaid. 2 payments \
             arrived on the Sandbox's chains. 1 paid order still under way; the last ends in 20 min. 1 payment \
             waits for its chain to start: it arrives when the wallet first uses that chain."
        );
        assert_eq!((view.moved_secs, view.finished, view.pending), (600, 2, 1));
        let quiet = view_of_move(&ClockMoved {
            moved_secs: 600,
            ..ClockMoved::default()
        });
        assert_eq!(
            quiet.status,
            "Moved the Sandbox's clock on by 10 min; no order finished."
        );
    }

    #[test]
    fn a_reading_says_what_is_under_way() {
        let idle = view_of_reading(&LocalClock::default());
        assert_eq!(idle.status, "No paid order of the Sandbox is under way.");
        let busy = view_of_reading(&LocalClock {
            pending: 3,
            finish_in_secs: 1_790,
            ..LocalClock::default()
        });
        assert_eq!(
            busy.status,
            "3 paid orders under way; the last ends in 29 min 50 s."
        );
    }
}
