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
    in_ci(&mut command);
    command
}

/// A build from nothing (under CI, `CI` set, or when this run found the workspace's libraries not built yet, as in a
/// fresh clone) compiles without incremental caches: there is nothing for them to reuse, and writing them cost the
/// workspace's own crates about a fifth more time and 1.3 GiB more disk (docs/MEASURED.md). Decided once per run, so
/// that every cargo of the run agrees (a change would rebuild); a `CARGO_INCREMENTAL` the person set is left alone.
fn in_ci(command: &mut Command) -> &mut Command {
    static FROM_NOTHING: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let from_nothing = *FROM_NOTHING.get_or_init(|| {
        std::env::var_os("CARGO_INCREMENTAL").is_none()
            && (std::env::var_os("CI").is_some() || !workspace_built(&target_dir()))
    });
    if from_nothing {
        command.env("CARGO_INCREMENTAL", "0");
    }
    command
}

/// Whether the workspace's libraries were built in `target`'s debug profile: desk-core, which every test build
/// compiles, has its fingerprint there.
fn workspace_built(target: &Path) -> bool {
    std::fs::read_dir(target.join("debug/.fingerprint")).is_ok_and(|entries| {
        entries
            .filter_map(Result::ok)
            .any(|e| e.file_name().to_string_lossy().starts_with("desk-core-"))
    })
}

fn npm(script: &str) -> Command {
    let mut command = Command::new("npm");
    command
        .args(["run", "--silent", script])
        .current_dir(setup::ui_dir());
    command
}

/// Runs `step`, and how long it took.
fn timed(step: &mut dyn FnMut() -> Result<()>) -> (Result<()>, Duration) {
    let started = Instant::now();
    let outcome = step();
    (outcome, started.elapsed())
}

/// Runs a command with its output held, then prints it whole (standard output, then standard error): for checks
/// that run beside a build whose lines would otherwise cut through theirs.
pub fn whole_output(command: &mut Command) -> Result<()> {
    use std::io::Write;
    let shown = format!("{command:?}");
    let output = command
        .stdin(std::process::Stdio::null())
        .output()
        .with_context(|| format!("could not start {shown}"))?;
    let mut out = std::io::stdout().lock();
    out.write_all(&output.stdout)?;
    out.write_all(&output.stderr)?;
    out.flush()?;
    if !output.status.success() {
        bail!("{shown} failed ({})", output.status);
    }
    Ok(())
}

/// Every debug build of `cargo xtask test` compiles the workspace's own crates with clippy-driver (as cargo clippy
/// does, through `RUSTC_WORKSPACE_WRAPPER`), its warnings denied: clippy's lints run while the crates are compiled
/// for the tests, so the dependencies are compiled once (clippy alone checked them all again, 177 s of a cold run).
/// The same settings on every debug cargo command of the run, so that none recompiles what another built.
fn linted(command: &mut Command) -> Result<&mut Command> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let sysroot = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .context("rustc --print sysroot")?;
    let driver =
        PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim()).join("bin/clippy-driver");
    if !driver.is_file() {
        bail!(
            "clippy is not installed ({} is missing): run `rustup component add clippy`",
            driver.display()
        );
    }
    // cargo clippy's own way of handing clippy-driver its arguments (`-- -D warnings`).
    Ok(command.env("RUSTC_WORKSPACE_WRAPPER", driver).env(
        "CLIPPY_ARGS",
        "-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__",
    ))
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

/// Builds the UI into `target/ui-build`, then brings `ui/dist` up to date with it: a file whose bytes did not change
/// keeps its modification time. The release app embeds `ui/dist` and its build script reruns when any file there
/// looks newer, so rewriting identical files cost a three-minute relink of an unchanged app on every run.
pub fn build_ui() -> Result<()> {
    println!("xtask: building the UI");
    let fresh = target_dir().join("ui-build");
    status(
        Command::new("npm")
            .args(["run", "--silent", "build", "--", "--outDir"])
            .arg(&fresh)
            .arg("--emptyOutDir")
            .current_dir(setup::ui_dir()),
    )?;
    let changed = sync_dir(&fresh, &setup::ui_dir().join("dist"))?;
    println!("xtask: ui/dist: {changed} files changed");
    Ok(())
}

/// Makes `to` hold exactly the files of `from`: copies a file only when it is new or its bytes differ, removes files
/// `from` does not have. Gives how many files were copied or removed.
pub fn sync_dir(from: &Path, to: &Path) -> Result<usize> {
    fn files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                files(root, &path, out)?;
            } else {
                out.push(
                    path.strip_prefix(root)
                        .expect("below its root")
                        .to_path_buf(),
                );
            }
        }
        Ok(())
    }
    let (mut wanted, mut present) = (Vec::new(), Vec::new());
    files(from, from, &mut wanted).with_context(|| format!("reading {}", from.display()))?;
    std::fs::create_dir_all(to)?;
    files(to, to, &mut present).with_context(|| format!("reading {}", to.display()))?;
    let mut changed = 0;
    for file in &wanted {
        let new = std::fs::read(from.join(file))?;
        let target = to.join(file);
        if std::fs::read(&target).ok().as_deref() != Some(new.as_slice()) {
            if let Some(dir) = target.parent() {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(&target, &new)
                .with_context(|| format!("writing {}", target.display()))?;
            changed += 1;
        }
    }
    for file in present.iter().filter(|f| !wanted.contains(f)) {
        std::fs::remove_file(to.join(file))?;
        changed += 1;
    }
    Ok(changed)
}

pub fn build_app() -> Result<()> {
    build_app_with(status)
}

/// The release build, run by `run` (`status`, or `whole_output` to print its output whole when it ends).
pub fn build_app_with(run: fn(&mut Command) -> Result<()>) -> Result<()> {
    println!("xtask: building the release app with the UI embedded");
    run(cargo().args([
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
        &[
            "--package",
            "desk-core",
            "--test",
            "flows",
            "--",
            "bindings::",
        ],
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

/// The test builds below take the workspace's features (`--workspace --features gateway-cli/sandbox`, as `cargo test`
/// does), so that they reuse what `cargo test` compiled: one package alone resolves other features for its
/// dependencies, and recompiled about 150 crates (82 s of a cold run).
///
/// The keychain tests against a real Secret Service: a private D-Bus session with gnome-keyring unlocked in it (the
/// empty line is the password of a new login keyring). gnome-keyring exits with the session's bus. Its keyring files
/// go to a fresh `XDG_DATA_HOME`, removed afterwards, so no key outlives the run (gnome-keyring keeps keyrings on disk,
/// and a key left by one run would otherwise be found by the next).
const KEYCHAIN_SCRIPT: &str = r#"
keyrings="$(mktemp -d)" || exit 1
export XDG_DATA_HOME="$keyrings"
echo "" | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 1
"$CARGO" test --workspace --features gateway-cli/sandbox --test keychain -- --ignored --test-threads=1
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
"$CARGO" test --workspace --features gateway-cli/sandbox --test window -- --ignored --test-threads=1 $WINDOW_TESTS
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
    linted(in_ci(&mut command))?
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
/// check failed. Ends with each check's duration.
///
/// How the time is spent (docs/MEASURED.md's figures say how much):
/// - clippy lints the workspace's crates while they are compiled for the tests ([`linted`]): one compilation of the
///   dependencies instead of a checked one for clippy and a built one for the tests;
/// - the test builds of the keychain and WebDriver checks, and the simulator conformance runs, are the ones
///   `cargo test` made (the same features and the same compiler settings), so nothing is compiled twice;
/// - the release build runs beside everything from clippy to vitest, its output printed whole when it ends.
pub fn test() -> Result<()> {
    let started = Instant::now();
    setup::all()?;
    let setup_took = started.elapsed();
    let cargo_path = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut results: Vec<(&str, Result<()>, Duration)> = Vec::new();
    let mut record = |name: &'static str, (outcome, took): (Result<()>, Duration)| {
        if let Err(e) = &outcome {
            eprintln!("xtask: {name} FAILED: {e:#}");
        }
        println!(
            "xtask: {name}: {} in {:.1} s",
            if outcome.is_ok() { "ok" } else { "FAILED" },
            took.as_secs_f64()
        );
        results.push((name, outcome, took));
    };
    // A check: run and timed, then recorded.
    macro_rules! check {
        ($name:expr, $step:expr $(,)?) => {
            record($name, timed($step))
        };
    }

    check!("rustfmt", &mut || {
        status(cargo().args(["fmt", "--all", "--", "--check"]))
    });
    check!("UI build", &mut build_ui);
    check!(
        "contracts (compiled bytecode matches chains/contracts)",
        &mut || {
            status(
                Command::new("node")
                    .args(["build.mjs", "--check"])
                    .current_dir(crate::setup::chains_dir()),
            )
        },
    );
    check!(
        "local chains' scripts (node --test chains/*.test.mjs)",
        &mut || {
            let dir = crate::setup::chains_dir();
            status(
                Command::new("node")
                    .arg("--test")
                    .args(node_tests(&dir)?)
                    .current_dir(dir),
            )
        },
    );
    // The release build runs beside everything from here to vitest: cargo locks each profile's folder apart, so it
    // does not wait for the debug builds, and its long single-threaded end (fat LTO, one codegen unit) leaves a core
    // to the tests. Its output is held and printed whole when it ends.
    let (release, ()) = std::thread::scope(|scope| {
        let release = scope.spawn(|| timed(&mut || build_app_with(whole_output)));
        // With the command line's embedded Sandbox, so its whole-swap tests run too. Compiled first, apart, so that
        // the summary tells compiling from running; every target (benches too), as clippy saw them.
        let test_args = ["test", "--workspace", "--features", "gateway-cli/sandbox"];
        check!(
            "clippy and cargo test: compile (clippy-driver compiles the workspace)",
            &mut || {
                status(
                    linted(&mut cargo())?
                        .args(test_args)
                        .args(["--all-targets", "--no-run"]),
                )
            },
        );
        check!("cargo test: run", &mut || {
            status(linted(&mut cargo())?.args(test_args))
        });
        check!("keychain (Secret Service)", &mut || {
            status(
                linted(in_ci(&mut Command::new("dbus-run-session")))?
                    .args(["--", "sh", "-c", KEYCHAIN_SCRIPT])
                    .env("CARGO", &cargo_path)
                    .current_dir(project_root()),
            )
        });
        // The simulator the tests' compile built.
        let sim = target_dir().join("debug/gateway-sim");
        check!(
            "conformance (schemathesis vs both published documents)",
            &mut || crate::conformance::run(&sim),
        );
        check!("svelte-check", &mut || status(&mut npm("check")));
        check!("prettier (the UI's formatting)", &mut || {
            status(&mut npm("format:check"))
        });
        check!("vitest", &mut || status(&mut npm("test")));
        let release = release.join().unwrap_or_else(|_| {
            (
                Err(anyhow::anyhow!("the release build's thread panicked")),
                Duration::ZERO,
            )
        });
        (release, ())
    });
    let release_ok = release.0.is_ok();
    record(
        "release build (beside the checks from clippy to vitest)",
        release,
    );
    if release_ok {
        check!("WebDriver (release window under Xvfb)", &mut || {
            webdriver(None, &[])
        });
        check!(
            "Debian package (bundled, unpacked, started under Xvfb)",
            &mut || crate::bundle::deb().and_then(|deb| crate::bundle::check_installed(&deb)),
        );
    } else {
        for name in [
            "WebDriver (release window under Xvfb)",
            "Debian package (bundled, unpacked, started under Xvfb)",
        ] {
            check!(name, &mut || {
                Err(anyhow::anyhow!("skipped: the release build failed"))
            });
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

/// The tests of the local chains' scripts in `dir` (`chains/`): each `*.test.mjs` beside the node it tests (the Tron
/// stand-in's today), so that a family's node brings its tests without a line here.
fn node_tests(dir: &Path) -> Result<Vec<std::ffi::OsString>> {
    let mut tests: Vec<std::ffi::OsString> = std::fs::read_dir(dir)?
        .filter_map(|entry| entry.ok().map(|e| e.file_name()))
        .filter(|name| name.to_string_lossy().ends_with(".test.mjs"))
        .collect();
    tests.sort();
    if tests.is_empty() {
        bail!("no *.test.mjs in {}", dir.display());
    }
    Ok(tests)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_target_folder_without_desk_core_s_build_is_a_build_from_nothing() {
        let target = tempfile::tempdir().unwrap();
        assert!(!workspace_built(target.path()), "no folder at all");
        let fingerprints = target.path().join("debug/.fingerprint");
        std::fs::create_dir_all(fingerprints.join("xtask-0123abcd")).unwrap();
        assert!(
            !workspace_built(target.path()),
            "only the xtask the alias built"
        );
        std::fs::create_dir_all(fingerprints.join("desk-core-4567ef01")).unwrap();
        assert!(workspace_built(target.path()));
    }

    #[test]
    fn a_synced_folder_keeps_its_unchanged_files_untouched() {
        let from = tempfile::tempdir().unwrap();
        let to = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(from.path().join("assets")).unwrap();
        std::fs::write(from.path().join("index.html"), "same").unwrap();
        std::fs::write(from.path().join("assets/app.js"), "new").unwrap();
        std::fs::create_dir_all(to.path().join("assets")).unwrap();
        std::fs::write(to.path().join("index.html"), "same").unwrap();
        std::fs::write(to.path().join("assets/app.js"), "old").unwrap();
        std::fs::write(to.path().join("assets/gone.js"), "gone").unwrap();
        let old_time = std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        std::fs::File::options()
            .write(true)
            .open(to.path().join("index.html"))
            .unwrap()
            .set_modified(old_time)
            .unwrap();
        assert_eq!(sync_dir(from.path(), to.path()).unwrap(), 2);
        let index = std::fs::metadata(to.path().join("index.html")).unwrap();
        assert_eq!(index.modified().unwrap(), old_time, "untouched");
        assert_eq!(
            std::fs::read_to_string(to.path().join("assets/app.js")).unwrap(),
            "new"
        );
        assert!(!to.path().join("assets/gone.js").exists());
        assert_eq!(
            sync_dir(from.path(), to.path()).unwrap(),
            0,
            "nothing to do again"
        );
    }

    #[test]
    fn the_xvfb_run_says_how_to_see_its_display() {
        let hint = see_the_window(":57");
        assert!(hint.contains("x11vnc -display :57 -localhost"), "{hint}");
        assert!(hint.contains("localhost:5900"), "{hint}");
        assert!(hint.contains("import -display :57"), "{hint}");
        assert!(hint.contains("Ctrl-C"), "{hint}");
    }
}
