//! The app as a person runs it, started from outside: how long from launch to the window's page and to its first
//! view painted with the routes (its memory is read by [`crate::pss`]). Also used to check that an installed package
//! starts and paints.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::display::{PrivateBus, Xvfb, session_command, terminate_group};

/// What the app prints once its page has loaded (`src-tauri/lib.rs`).
pub const READY_LINE: &str = "GATEWAY_DESK_READY";
/// What the app prints once its first view is painted with the routes, followed by its own count of milliseconds.
pub const PAINTED_LINE: &str = "GATEWAY_DESK_PAINTED";

/// The app, started under a display with a private bus and its own folders; stopped (with its process group) when
/// dropped.
pub struct App {
    child: Child,
    lines: mpsc::Receiver<(Instant, String)>,
    /// When it was started.
    pub started: Instant,
}

/// When the app reached its two marks, in milliseconds from launch.
#[derive(Debug, Clone, Copy)]
pub struct Start {
    /// The page loaded.
    pub ready_ms: u128,
    /// The first view painted with the routes.
    pub painted_ms: u128,
    /// The same, as the app counted it from its `main`.
    pub painted_own_ms: u128,
}

impl App {
    /// Starts `binary` with its folders under `home` (else the person's own) and `env` added; `echo` prints its
    /// output lines.
    pub fn launch(
        binary: &Path,
        xvfb: &Xvfb,
        bus: &PrivateBus,
        home: Option<&Path>,
        env: &[(&str, &str)],
        echo: bool,
    ) -> Result<Self> {
        let started = Instant::now();
        let mut command = session_command(binary, xvfb, bus);
        command.envs(env.iter().copied());
        if let Some(home) = home {
            command.env("GATEWAY_DESK_HOME", home);
        }
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(if echo {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            .spawn()
            .with_context(|| format!("could not start {}", binary.display()))?;
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if echo {
                    println!("{line}");
                }
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        Ok(Self {
            child,
            lines,
            started,
        })
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits up to `wait` for the page to load: true once it has, false if not yet; an error if the app ended.
    pub fn poll_ready(&mut self, wait: Duration) -> Result<bool> {
        match self.lines.recv_timeout(wait) {
            Ok((_, line)) => Ok(line.trim() == READY_LINE),
            Err(mpsc::RecvTimeoutError::Timeout) => match self.child.try_wait()? {
                Some(exit) => bail!("the app exited before its window loaded ({exit})"),
                None => Ok(false),
            },
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let exit = self.child.wait()?;
                bail!("the app exited before its window loaded ({exit})")
            }
        }
    }

    /// The app's exit status, once it has ended.
    pub fn try_wait(&mut self) -> Result<Option<std::process::ExitStatus>> {
        Ok(self.child.try_wait()?)
    }

    /// Waits for the page to load and the first view to be painted with the routes.
    pub fn wait_painted(&mut self, within: Duration) -> Result<Start> {
        let deadline = self.started + within;
        let (mut ready_ms, mut painted) = (None, None);
        while painted.is_none() {
            let left = deadline.saturating_duration_since(Instant::now());
            match self
                .lines
                .recv_timeout(left.min(Duration::from_millis(200)))
            {
                Ok((at, line)) => {
                    let ms = at.duration_since(self.started).as_millis();
                    let line = line.trim();
                    if line == READY_LINE {
                        ready_ms = Some(ms);
                    } else if let Some(own) = line.strip_prefix(PAINTED_LINE) {
                        painted = Some((ms, own.trim().parse::<u128>().unwrap_or(0)));
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Some(exit) = self.child.try_wait()? {
                        bail!("the app exited before its first view was painted ({exit})");
                    }
                    if Instant::now() >= deadline {
                        bail!(
                            "the app did not paint its first view with the routes within {within:?}"
                        );
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    bail!("the app closed its output before its first view was painted")
                }
            }
        }
        let (painted_ms, painted_own_ms) = painted.expect("set above");
        Ok(Start {
            ready_ms: ready_ms
                .context("the app painted its view without saying its page loaded")?,
            painted_ms,
            painted_own_ms,
        })
    }
}

impl Drop for App {
    fn drop(&mut self) {
        terminate_group(&mut self.child);
    }
}

#[cfg(test)]
mod tests {
    use super::{PAINTED_LINE, READY_LINE};

    #[test]
    fn the_marks_are_the_ones_the_app_prints() {
        // The app and xtask are separate programs; the lines are their contract (src-tauri/lib.rs).
        let app = std::fs::read_to_string(crate::tasks::project_root().join("src-tauri/lib.rs"))
            .expect("src-tauri/lib.rs");
        assert!(app.contains(&format!("pub const READY_LINE: &str = \"{READY_LINE}\";")));
        assert!(app.contains(&format!(
            "pub const PAINTED_LINE: &str = \"{PAINTED_LINE}\";"
        )));
    }
}
