//! The tasks themselves.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::display::{PrivateBus, Xvfb, has_display};
use crate::footprint::App;
use crate::setup;
use crate::signals::Stop;

/// The repository's root folder.
pub fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the root")
        .to_path_buf()
}

/// Runs a command, inheriting the terminal, and fails unless it succeeds.
pub fn status(command: &mut Command) -> Result<()> {
    let shown = format!("{command:?}");
    let exit = command
        .status()
        .with_context(|| format!("could not start {shown}"))?;
    if !exit.success() {
        bail!("{shown} failed ({exit})");
    }
    Ok(())
}

fn cargo() -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.current_dir(project_root());
    command
}

fn npm(script: &str) -> Command {
    let mut command = Command::new("npm");
    command
        .args(["run", "--silent", script])
        .current_dir(setup::ui_dir());
    command
}

/// Cargo's target folder (`CARGO_TARGET_DIR`, else `target/` in the project).
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| project_root().join("target"))
}

/// The release binary with the UI embedded.
pub fn app_binary() -> PathBuf {
    target_dir().join("release/gateway-desk")
}

pub fn build_ui() -> Result<()> {
    println!("xtask: building the UI");
    status(&mut npm("build"))
}

pub fn build_app() -> Result<()> {
    println!("xtask: building the release app with the UI embedded");
    status(cargo().args([
        "build",
        "--release",
        "--package",
        "gateway-desk",
        "--features",
        "custom-protocol",
    ]))
}

/// Options of `cargo xtask run`.
#[derive(Debug, Default)]
pub struct RunOptions {
    xvfb: bool,
    screenshot_and_exit: bool,
    screenshot: Option<PathBuf>,
}

impl RunOptions {
    pub fn parse(args: &[String]) -> Result<Self> {
        let mut options = Self::default();
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--xvfb" => options.xvfb = true,
                "--screenshot-and-exit" => options.screenshot_and_exit = true,
                "--screenshot" => {
                    options.screenshot =
                        Some(args.next().context("--screenshot needs a path")?.into())
                }
                other => bail!("unknown option {other:?} for run"),
            }
        }
        if options.screenshot_and_exit && !options.xvfb {
            bail!("--screenshot-and-exit goes with --xvfb");
        }
        Ok(options)
    }
}

/// `cargo xtask run`: install, build, open the window (under Xvfb with `--xvfb`).
pub fn run(options: &RunOptions) -> Result<()> {
    if !options.xvfb && !has_display() {
        bail!(
            "no display found (DISPLAY and WAYLAND_DISPLAY are unset): run `cargo xtask run --xvfb` instead"
        );
    }
    setup::all()?;
    build_ui()?;
    build_app()?;
    let binary = app_binary();
    if !options.xvfb {
        return status(&mut Command::new(&binary));
    }
    // From here on a signal (Ctrl-C, SIGTERM, SIGHUP) stops the app, the private D-Bus and Xvfb before xtask exits:
    // each is dropped on the way out, the app first.
    let stop = Stop::install()?;
    let xvfb = Xvfb::start()?;
    let bus = PrivateBus::start()?;
    let mut app = App::launch(&binary, &xvfb, &bus, None, &[], true)?;
    let stopped = || {
        println!("xtask: stopping on a signal: the app, the private D-Bus and Xvfb");
        Ok(())
    };
    let started = Instant::now();
    while !app.poll_ready(Duration::from_millis(200))? {
        if stop.requested() {
            return stopped();
        }
        if started.elapsed() > Duration::from_secs(120) {
            bail!("the window did not load within 120 s");
        }
    }
    if stop.sleep(Duration::from_secs(3)) {
        return stopped();
    }
    let path = options
        .screenshot
        .clone()
        .unwrap_or_else(|| project_root().join("target/screenshots/gateway-desk.png"));
    let path = if path.is_absolute() {
        path
    } else {
        std::env::current_dir()?.join(path)
    };
    xvfb.screenshot("Gateway Desk", &path)?;
    println!("screenshot: {}", path.display());
    if options.screenshot_and_exit {
        return Ok(());
    }
    println!("{}", see_the_window(&xvfb.display));
    loop {
        if let Some(exit) = app.try_wait()? {
            if !exit.success() {
                bail!("the app exited with {exit}");
            }
            return Ok(());
        }
        if stop.sleep(Duration::from_millis(200)) {
            return stopped();
        }
    }
}

/// How to see a window that runs under Xvfb on `display`: a VNC server on it, or screenshots.
fn see_the_window(display: &str) -> String {
    format!(
        "xtask: the app runs under Xvfb on display {display}; Ctrl-C (or SIGTERM) stops it, the D-Bus and Xvfb.\n\
         xtask: to see and use the window, serve that display over VNC on this machine only:\n\
         \n    x11vnc -display {display} -localhost -nopw -forever    # Debian/Ubuntu package: x11vnc\n\n\
         xtask: then open a VNC viewer on localhost:5900 (from another machine, first `ssh -L 5900:localhost:5900 \
         <this host>`).\n\
         xtask: or take a picture: `import -display {display} -window root window.png`, or rerun with \
         `--screenshot PATH`."
    )
}

/// `cargo xtask gen-types`: rewrites ui/src/lib/bindings from the Rust types: desk-core's types and facts (its
/// `bindings` test, which leaves `args/` alone), then the app's command arguments (`bindings/args/`, the app crate's
/// `args_bindings` tests), which import desk-core's.
pub fn gen_types() -> Result<()> {
    let tests: [&[&str]; 2] = [
        &["--package", "desk-core", "--test", "bindings"],
        &[
            "--package",
            "gateway-desk",
            "--lib",
            "--",
            "args_bindings::",
        ],
    ];
    for test in tests {
        status(
            cargo()
                .args(["test", "--quiet"])
                .args(test)
                .env("UPDATE_BINDINGS", "1"),
        )?;
    }
    println!("xtask: ui/src/lib/bindings (and bindings/args) regenerated");
    Ok(())
}

/// The keychain tests against a real Secret Service: a private D-Bus session with gnome-keyring unlocked in it (the
/// empty line is the password of a new login keyring). gnome-keyring exits with the session's bus. Its keyring files
/// go to a fresh `XDG_DATA_HOME`, removed afterwards, so no key outlives the run (gnome-keyring keeps keyrings on disk,
/// and a key left by one run would otherwise be found by the next).
const KEYCHAIN_SCRIPT: &str = r#"
keyrings="$(mktemp -d)" || exit 1
export XDG_DATA_HOME="$keyrings"
echo "" | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 1
"$CARGO" test --package desk-core --test keychain -- --ignored --test-threads=1
status=$?
rm -rf "$keyrings"
exit $status
"#;

/// The WebDriver tests of the release window, in a private D-Bus session with gnome-keyring unlocked (in a keyring
/// folder of its own, as above).
const WEBDRIVER_SCRIPT: &str = r#"
keyrings="$(mktemp -d)" || exit 1
export XDG_DATA_HOME="$keyrings"
echo "" | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 1
"$CARGO" test --package gateway-desk --test window -- --ignored --test-threads=1 $WINDOW_TESTS
status=$?
rm -rf "$keyrings"
exit $status
"#;

/// Runs the WebDriver tests of the release window (`only`: those whose names contain it) under a new Xvfb, with
/// `env` added.
pub fn webdriver(only: Option<&str>, env: &[(&str, &Path)]) -> Result<()> {
    let cargo_path = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let xvfb = Xvfb::start()?;
    // In a private D-Bus session, so that nothing the windows activate outlives the tests.
    // With gnome-keyring unlocked in that session, so the API-key test uses a real keychain.
    let mut command = Command::new("dbus-run-session");
    command
        .args(["--", "sh", "-c", WEBDRIVER_SCRIPT])
        .env("CARGO", &cargo_path)
        .env("WINDOW_TESTS", only.unwrap_or(""))
        .current_dir(project_root())
        .env("DISPLAY", &xvfb.display)
        .env_remove("WAYLAND_DISPLAY")
        .env("GATEWAY_DESK_BIN", app_binary());
    for (name, value) in env {
        command.env(name, value);
    }
    status(&mut command)
}

/// `cargo xtask test`: every check of the project. Runs them all, prints each runner's own summary, and fails if any
/// check failed.
pub fn test() -> Result<()> {
    let started = Instant::now();
    setup::all()?;
    let setup_took = started.elapsed();
    let cargo_path = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut results: Vec<(&str, Result<()>, Duration)> = Vec::new();
    // Each check's duration is the time since the previous one ended: the checks run one after another, and the
    // argument expression (the check itself) runs just before this closure is called.
    let mut last = Instant::now();
    let mut check = |name: &'static str, outcome: Result<()>| {
        if let Err(e) = &outcome {
            eprintln!("xtask: {name} FAILED: {e:#}");
        }
        let took = last.elapsed();
        last = Instant::now();
        println!(
            "xtask: {name}: {} in {:.1} s",
            if outcome.is_ok() { "ok" } else { "FAILED" },
            took.as_secs_f64()
        );
        results.push((name, outcome, took));
    };

    check(
        "rustfmt",
        status(cargo().args(["fmt", "--all", "--", "--check"])),
    );
    check("UI build", build_ui());
    check(
        "contracts (compiled bytecode matches chains/contracts)",
        status(
            Command::new("node")
                .args(["build.mjs", "--check"])
                .current_dir(crate::setup::chains_dir()),
        ),
    );
    check(
        "Tron stand-in (node --test chains/tron-node.test.mjs)",
        status(
            Command::new("node")
                .args(["--test", "tron-node.test.mjs"])
                .current_dir(crate::setup::chains_dir()),
        ),
    );
    check(
        "clippy",
        status(cargo().args([
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ])),
    );
    // With the command line's embedded Sandbox, so its whole-swap tests run too.
    // Compiled first, apart, so that the summary tells compiling from running.
    let test_args = ["test", "--workspace", "--features", "gateway-cli/sandbox"];
    check(
        "cargo test: compile",
        status(cargo().args(test_args).arg("--no-run")),
    );
    check("cargo test: run", status(cargo().args(test_args)));
    check(
        "conformance (schemathesis vs the published document)",
        crate::conformance::conformance(),
    );
    check("svelte-check", status(&mut npm("check")));
    check(
        "prettier (the UI's formatting)",
        status(&mut npm("format:check")),
    );
    check("vitest", status(&mut npm("test")));
    check(
        "keychain (Secret Service)",
        status(
            Command::new("dbus-run-session")
                .args(["--", "sh", "-c", KEYCHAIN_SCRIPT])
                .env("CARGO", &cargo_path)
                .current_dir(project_root()),
        ),
    );
    let release = build_app();
    let release_ok = release.is_ok();
    check("release build", release);
    if release_ok {
        check(
            "WebDriver (release window under Xvfb)",
            webdriver(None, &[]),
        );
        check(
            "Debian package (bundled, unpacked, started under Xvfb)",
            crate::bundle::deb().and_then(|deb| crate::bundle::check_installed(&deb)),
        );
    } else {
        for name in [
            "WebDriver (release window under Xvfb)",
            "Debian package (bundled, unpacked, started under Xvfb)",
        ] {
            check(
                name,
                Err(anyhow::anyhow!("skipped: the release build failed")),
            );
        }
    }

    println!("\nxtask test summary ({} s):", started.elapsed().as_secs());
    println!(
        "  {:<56} {:>8.1} s",
        "set-up (Debian and npm packages)",
        setup_took.as_secs_f64()
    );
    for (name, outcome, took) in &results {
        println!(
            "  {:<56} {:>8.1} s  {}",
            name,
            took.as_secs_f64(),
            if outcome.is_ok() { "ok" } else { "FAILED" }
        );
    }
    let failed = results.iter().filter(|(_, r, _)| r.is_err()).count();
    if failed > 0 {
        bail!("{failed} of {} checks failed", results.len());
    }
    println!("all {} checks passed", results.len());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_xvfb_run_says_how_to_see_its_display() {
        let hint = see_the_window(":57");
        assert!(hint.contains("x11vnc -display :57 -localhost"), "{hint}");
        assert!(hint.contains("localhost:5900"), "{hint}");
        assert!(hint.contains("import -display :57"), "{hint}");
        assert!(hint.contains("Ctrl-C"), "{hint}");
    }
}
