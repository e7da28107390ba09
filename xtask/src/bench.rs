//! `cargo xtask bench`: runs the criterion benchmarks and prints each mean, and the ratios docs/MEASURED.md reports; then
//! the gateway-sim throughput bench (get-quote and get-order against a bare axum handler) and its table; then the
//! order tracker's bench (requests per minute for 1,000 orders over 10 addresses) and its figure; then the partner
//! dashboard's bench (milliseconds for 10,000 journaled orders) and its figures; then the app's own start-up time and
//! memory ([`app`]).

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::display::{PrivateBus, Xvfb, session_command, terminate_group};
use crate::footprint::{App, Start};
use crate::pss::{Footprint, mib};
use crate::tasks::{project_root, status};

/// One measured benchmark.
struct Measured {
    id: String,
    mean_ns: f64,
}

fn read_json(path: &Path) -> Result<Value> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(serde_json::from_str(&text)?)
}

/// Every benchmark criterion saved under `dir`, with its mean time.
fn measured(dir: &Path) -> Result<Vec<Measured>> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.ends_with("new/benchmark.json") {
                let info = read_json(&path)?;
                let estimates = read_json(&path.with_file_name("estimates.json"))?;
                found.push(Measured {
                    id: info["full_id"].as_str().unwrap_or("?").to_owned(),
                    mean_ns: estimates["mean"]["point_estimate"]
                        .as_f64()
                        .unwrap_or(f64::NAN),
                });
            }
        }
    }
    found.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(found)
}

fn human(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

/// The benchmark pairs whose ratio is reported: (what, measured, against).
const RATIOS: &[(&str, &str, &str)] = &[(
    "quote round trip: gateway-client / bare HTTP",
    "quote round trip over loopback/gateway-client get_quote",
    "quote round trip over loopback/bare reqwest GET (bytes only)",
)];

pub fn bench() -> Result<()> {
    let target = project_root().join("target/criterion");
    let _ = std::fs::remove_dir_all(&target);
    status(
        Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args(["bench", "--package", "gateway-client", "--bench", "client"])
            .current_dir(project_root()),
    )?;
    let results = measured(&target)?;
    println!("\nxtask bench: mean time per iteration");
    for m in &results {
        println!("  {:<70} {:>12}", m.id, human(m.mean_ns));
    }
    for (what, a, b) in RATIOS {
        let find = |id: &str| results.iter().find(|m| m.id == id).map(|m| m.mean_ns);
        if let (Some(a), Some(b)) = (find(a), find(b)) {
            println!("  {what}: {:.2}×", a / b);
        }
    }
    throughput()?;
    tracker()?;
    partner()?;
    app()
}

/// Where the throughput bench writes its figures (it is told so through `GATEWAY_SIM_THROUGHPUT_JSON`).
const THROUGHPUT_JSON: &str = "target/bench/gateway-sim-throughput.json";

/// Runs the gateway-sim throughput bench and prints its figures from the JSON it writes.
fn throughput() -> Result<()> {
    let json = project_root().join(THROUGHPUT_JSON);
    match std::fs::remove_file(&json) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("removing the old {}", json.display())),
    }
    status(
        Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args(["bench", "--package", "gateway-sim", "--bench", "throughput"])
            .env("GATEWAY_SIM_THROUGHPUT_JSON", &json)
            .current_dir(project_root()),
    )?;
    if !json.is_file() {
        bail!(
            "the gateway-sim throughput bench succeeded but wrote no {}",
            json.display()
        );
    }
    let report = read_json(&json)?;
    print!("{}", throughput_table(&report)?);
    Ok(())
}

/// The throughput figures as a table: one line per (endpoint, concurrency), the sim beside the bare handler.
fn throughput_table(report: &Value) -> Result<String> {
    use std::fmt::Write;

    let Some(results) = report["results"].as_array().filter(|r| !r.is_empty()) else {
        bail!("{THROUGHPUT_JSON} has no results");
    };
    let mut out = format!(
        "\nxtask bench: gateway-sim throughput over loopback, closed loop, C keep-alive connections ({} cores \
         shared by the servers and the load generator; {} s measured per case)\n",
        report["cores"], report["measure_secs"]
    );
    writeln!(
        out,
        "  {:<10} {:>4} {:>12} {:>12} {:>8} {:>11} {:>11} {:>11} {:>11}",
        "endpoint",
        "C",
        "sim req/s",
        "bare req/s",
        "sim/bare",
        "sim p50 µs",
        "bare p50 µs",
        "sim p99 µs",
        "bare p99 µs"
    )?;
    let number = |case: &Value, key: &str| case[key].as_f64().unwrap_or(f64::NAN);
    for sim in results.iter().filter(|r| r["server"] == "sim") {
        let Some(bare) = results.iter().find(|r| {
            r["server"] == "bare"
                && r["endpoint"] == sim["endpoint"]
                && r["concurrency"] == sim["concurrency"]
        }) else {
            bail!("{THROUGHPUT_JSON}: no bare figure beside {sim}");
        };
        writeln!(
            out,
            "  {:<10} {:>4.0} {:>12.0} {:>12.0} {:>7.2}× {:>11.1} {:>11.1} {:>11.1} {:>11.1}",
            sim["endpoint"].as_str().unwrap_or("?"),
            number(sim, "concurrency"),
            number(sim, "rps"),
            number(bare, "rps"),
            number(sim, "rps") / number(bare, "rps"),
            number(sim, "p50_us"),
            number(bare, "p50_us"),
            number(sim, "p99_us"),
            number(bare, "p99_us"),
        )?;
    }
    Ok(out)
}

/// Where the tracker bench writes its figures (it is told so through `DESK_TRACKER_BENCH_JSON`).
const TRACKER_JSON: &str = "target/bench/tracker.json";

/// Runs the order tracker's bench and prints its figure from the JSON it writes.
fn tracker() -> Result<()> {
    let json = project_root().join(TRACKER_JSON);
    match std::fs::remove_file(&json) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("removing the old {}", json.display())),
    }
    status(
        Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args(["bench", "--package", "desk-core", "--bench", "tracker"])
            .env("DESK_TRACKER_BENCH_JSON", &json)
            .current_dir(project_root()),
    )?;
    if !json.is_file() {
        bail!(
            "the tracker bench succeeded but wrote no {}",
            json.display()
        );
    }
    print!("{}", tracker_summary(&read_json(&json)?)?);
    Ok(())
}

/// The tracker's figure: requests per simulated minute in steady state, by endpoint, against the goal.
fn tracker_summary(report: &Value) -> Result<String> {
    use std::fmt::Write;

    let per_minute = &report["requests_per_minute"];
    let (Some(mean), Some(max)) = (per_minute["mean"].as_f64(), per_minute["max"].as_f64()) else {
        bail!("{TRACKER_JSON} has no requests_per_minute");
    };
    let number = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
    let goal = number(&report["goal_per_minute"]);
    let by = &report["by_endpoint_mean_per_minute"];
    let mut out = format!(
        "\nxtask bench: order tracker, {} orders over {} addresses ({}; {} measured minutes after {} of warm-up)\n",
        report["orders"],
        report["addresses"],
        report["time_scale"].as_str().unwrap_or("?"),
        report["measured_minutes"],
        report["warmup_minutes"],
    );
    writeln!(
        out,
        "  requests per minute: mean {mean:.1}, max {max:.0} (goal ≤ {goal:.0}: {})",
        if max <= goal { "met" } else { "NOT met" }
    )?;
    writeln!(
        out,
        "  by endpoint (mean per minute): get-orders {:.1}, get-order {:.1}",
        number(&by["get-orders"]),
        number(&by["get-order"]),
    )?;
    writeln!(
        out,
        "  the official client's way (get-order every 15 s per unfinished order): {:.0} per minute",
        number(&report["official_client_equivalent_per_minute"]),
    )?;
    Ok(out)
}

/// Where the partner dashboard's bench writes its figures (it is told so through `DESK_PARTNER_BENCH_JSON`).
const PARTNER_JSON: &str = "target/bench/partner.json";

/// Runs the partner dashboard's bench and prints its figures from the JSON it writes.
fn partner() -> Result<()> {
    let json = project_root().join(PARTNER_JSON);
    match std::fs::remove_file(&json) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("removing the old {}", json.display())),
    }
    status(
        Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args(["bench", "--package", "desk-core", "--bench", "partner"])
            .env("DESK_PARTNER_BENCH_JSON", &json)
            .current_dir(project_root()),
    )?;
    if !json.is_file() {
        bail!(
            "the partner bench succeeded but wrote no {}",
            json.display()
        );
    }
    print!("{}", partner_summary(&read_json(&json)?)?);
    Ok(())
}

/// The partner dashboard's figures: the median of each case, with the fastest and slowest run.
fn partner_summary(report: &Value) -> Result<String> {
    use std::fmt::Write;

    let case = |v: &Value| -> Result<String> {
        let (Some(median), Some(min), Some(max)) = (
            v["median_ms"].as_f64(),
            v["min_ms"].as_f64(),
            v["max_ms"].as_f64(),
        ) else {
            bail!("{PARTNER_JSON}: a case without median_ms, min_ms and max_ms: {v}");
        };
        Ok(format!(
            "median {median:>8.2} ms (min {min:.2}, max {max:.2})"
        ))
    };
    let mut out = format!(
        "\nxtask bench: partner dashboard, {} journaled orders ({} with an order id, {} completed; {} samples per \
         case)\n",
        report["orders"],
        report["orders_with_id"],
        report["completed"],
        report["read_and_build"]["samples"],
    );
    writeln!(
        out,
        "  {:<46} {}",
        "journal read + dashboard, first time",
        case(&report["read_and_build"])?
    )?;
    writeln!(
        out,
        "  {:<46} {}",
        "the same again (only changed orders re-read)",
        case(&report["warm_read_and_build"])?
    )?;
    writeln!(
        out,
        "  {:<46} {}",
        "  of which the journal read",
        case(&report["journal_read"])?
    )?;
    writeln!(
        out,
        "  {:<46} {}",
        "  of which the facts of each order",
        case(&report["facts_extraction"])?
    )?;
    for period in ["day", "week", "month"] {
        writeln!(
            out,
            "  {:<46} {}",
            format!("dashboard build alone, by {period}"),
            case(&report["build"][period])?
        )?;
    }
    writeln!(
        out,
        "  {:<46} {}",
        "CSV of every row",
        case(&report["csv"])?
    )?;
    Ok(out)
}

/// Launches of the app for the start-up figures; the first is reported apart (a cold start reads its files from disk).
/// Eleven: start-up varies by a hundred milliseconds from launch to launch on two cores, and the median of ten is
/// steadier than of five.
const APP_RUNS: usize = 11;
/// How long the app rests after its first paint before its memory is read.
const SETTLE: Duration = Duration::from_secs(10);
/// The app's WebKit settings turned back one at a time, then all (`src-tauri/webview.rs`): what each gains at rest.
/// WebKit reads `WEBKIT_DISABLE_COMPOSITING_MODE=0` as not set; the app leaves a variable the person set.
const SETTING_VARIANTS: &[(&str, &[(&str, &str)])] = &[
    ("with JavaScriptCore's JIT", &[("JSC_useJIT", "true")]),
    (
        "with accelerated compositing at the first paint (and so the GL drivers in the app's process)",
        &[("WEBKIT_DISABLE_COMPOSITING_MODE", "0")],
    ),
    (
        "with GL drivers in the app's own process (GATEWAY_DESK_APP_GL=1)",
        &[("GATEWAY_DESK_APP_GL", "1")],
    ),
    (
        "with WebKitGTK's defaults for all (GATEWAY_DESK_WEBKIT_DEFAULTS=1)",
        &[("GATEWAY_DESK_WEBKIT_DEFAULTS", "1")],
    ),
];

/// The memory of a painted app after it has rested [`SETTLE`].
fn at_rest(app: &App) -> Result<Footprint> {
    std::thread::sleep(SETTLE);
    Footprint::of(app.pid()).context("the app was gone before its memory was read")
}

/// WebKitGTK's own small browser (shipped with the runtime library), for what WebKitGTK alone costs on this machine.
const MINIBROWSER: &str = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";

/// WebKitGTK alone: its MiniBrowser showing a two-line page with the app's settings (the same environment, and the
/// view settings MiniBrowser takes as options), measured like the app. `None` when MiniBrowser is not installed.
fn webkit_floor(xvfb: &Xvfb, bus: &PrivateBus) -> Result<Option<Footprint>> {
    if !Path::new(MINIBROWSER).exists() {
        return Ok(None);
    }
    let home = tempfile::tempdir()?;
    let mut child = session_command(Path::new(MINIBROWSER), xvfb, bus)
        .args([
            "--enable-webgl=false",
            "--enable-webaudio=false",
            "--enable-media=false",
            "--enable-page-cache=false",
            "--enable-offline-web-application-cache=false",
            "data:text/html,<h1>Hello</h1><p>A two-line page.</p>",
        ])
        .env("HOME", home.path())
        .env("XDG_CACHE_HOME", home.path())
        .env("XDG_DATA_HOME", home.path())
        .env("JSC_useJIT", "false")
        .env("WEBKIT_DISABLE_COMPOSITING_MODE", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .with_context(|| format!("could not start {MINIBROWSER}"))?;
    // No painted mark to wait for: the page is two lines, shown well within the first two seconds.
    std::thread::sleep(Duration::from_secs(2) + SETTLE);
    let footprint = Footprint::of(child.id());
    terminate_group(&mut child);
    Ok(footprint)
}

/// Where `cargo xtask bench app` writes its figures; the WebDriver test that swaps writes its own beside
/// (`GATEWAY_DESK_FOOTPRINT_JSON`).
const APP_JSON: &str = "target/bench/app-footprint.json";
const AFTER_SWAP_JSON: &str = "target/bench/app-after-swap.json";

/// The app as a person runs it: the release build launched under Xvfb with fresh folders, the time from launch to
/// its page and to its first view painted with the routes (median of the warm launches), and the PSS of all its
/// processes at rest; then the same memory after three swaps, read by the WebDriver test that makes them.
pub fn app() -> Result<()> {
    crate::tasks::build_ui()?;
    crate::tasks::build_app()?;
    let binary = crate::tasks::app_binary();
    let size = std::fs::metadata(&binary)?.len();
    let xvfb = Xvfb::start()?;
    let bus = PrivateBus::start()?;
    let mut starts = Vec::new();
    let mut rest = None;
    for run in 0..APP_RUNS {
        let home = tempfile::tempdir()?;
        let mut app = App::launch(&binary, &xvfb, &bus, Some(home.path()), &[], false)?;
        starts.push(app.wait_painted(Duration::from_secs(90))?);
        if run == APP_RUNS - 1 {
            rest = Some(at_rest(&app)?);
        }
    }
    let rest = rest.expect("the last launch is measured");
    // What each of the app's WebKit settings gains: the same rest with one of them turned back, and with WebKitGTK's
    // own defaults for all (src-tauri/webview.rs).
    let mut variants = Vec::new();
    for (label, env) in SETTING_VARIANTS {
        let home = tempfile::tempdir()?;
        let mut app = App::launch(&binary, &xvfb, &bus, Some(home.path()), env, false)?;
        app.wait_painted(Duration::from_secs(90))?;
        variants.push((*label, at_rest(&app)?));
    }
    let floor = webkit_floor(&xvfb, &bus)?;
    drop((bus, xvfb));
    let warm = &starts[1..];
    let median = |f: fn(&Start) -> u128| {
        let mut v: Vec<u128> = warm.iter().map(f).collect();
        v.sort_unstable();
        v[v.len() / 2]
    };
    let (ready, painted, own) = (
        median(|s| s.ready_ms),
        median(|s| s.painted_ms),
        median(|s| s.painted_own_ms),
    );
    let painted_range = (
        warm.iter().map(|s| s.painted_ms).min().unwrap_or(0),
        warm.iter().map(|s| s.painted_ms).max().unwrap_or(0),
    );

    let after_json = project_root().join(AFTER_SWAP_JSON);
    let _ = std::fs::remove_file(&after_json);
    crate::tasks::webdriver(
        Some("an_onramp_an_offramp_and_a_token_swap_complete"),
        &[("GATEWAY_DESK_FOOTPRINT_JSON", &after_json)],
    )?;
    let after = read_json(&after_json)?;

    println!("\nxtask bench app: the release app ({size} bytes) under Xvfb");
    println!(
        "  start (median of {} warm launches; the cold first one in brackets)",
        warm.len()
    );
    println!(
        "    page loaded                        {ready:>6} ms  ({} ms)",
        starts[0].ready_ms
    );
    println!(
        "    first view painted with routes     {painted:>6} ms  ({} ms; the app's own count: {own} ms; warm launches {}–{} ms)",
        starts[0].painted_ms, painted_range.0, painted_range.1
    );
    println!(
        "  memory (PSS), {} s after the first paint",
        SETTLE.as_secs()
    );
    print_footprint(&rest);
    for (label, footprint) in &variants {
        println!(
            "  the same {label}: {:+.1} MiB",
            (footprint.app_kib() as f64 - rest.app_kib() as f64) / 1024.0
        );
        print_footprint(footprint);
    }
    match &floor {
        Some(f) => {
            println!(
                "  WebKitGTK alone: its MiniBrowser with a two-line page and the same settings, measured the same way"
            );
            print_footprint(f);
        }
        None => {
            println!("  (WebKitGTK's MiniBrowser is not installed: no figure for WebKitGTK alone)")
        }
    }
    println!("  memory (PSS) after three swaps (WebDriver, from the test's own measurement)");
    for key in ["atRest", "afterSwaps"] {
        let f = &after[key];
        println!(
            "    {key:<10} app {}, of it main {}, web {}, network {}; with the Sandbox's chains {}",
            mib(f["appKib"].as_u64().unwrap_or(0)),
            mib(f["mainKib"].as_u64().unwrap_or(0)),
            mib(f["webKib"].as_u64().unwrap_or(0)),
            mib(f["networkKib"].as_u64().unwrap_or(0)),
            mib(f["totalKib"].as_u64().unwrap_or(0)),
        );
    }
    for (key, label) in [
        ("pageAtRest", "what the page holds at rest"),
        ("pageAfterSwaps", "what the page holds after the swaps"),
    ] {
        println!("  {label} (WebDriver): {}", page_summary(&after[key]));
    }
    let report = serde_json::json!({
        "binaryBytes": size,
        "readyMs": ready, "paintedMs": painted, "paintedOwnMs": own,
        "paintedWarmMinMs": painted_range.0, "paintedWarmMaxMs": painted_range.1,
        "coldReadyMs": starts[0].ready_ms, "coldPaintedMs": starts[0].painted_ms,
        "rest": rest.json(),
        "restVariants": variants.iter().map(|(label, f)| serde_json::json!({"variant": label, "footprint": f.json()})).collect::<Vec<_>>(),
        "webkitAlone": floor.as_ref().map(Footprint::json),
        "webdriver": after,
    });
    let out = project_root().join(APP_JSON);
    std::fs::create_dir_all(out.parent().expect("a folder"))?;
    std::fs::write(&out, serde_json::to_string_pretty(&report)?)?;
    println!("  (figures in {APP_JSON})");
    Ok(())
}

/// A page census of the WebDriver test (`tests/window.rs`, `page_census`) in one line: its elements, SVG drawings,
/// images, declared fonts and the files it loaded with their sizes.
fn page_summary(page: &Value) -> String {
    let count = |key: &str| page[key].as_u64().unwrap_or(0);
    let files: Vec<String> = page["files"]
        .as_array()
        .map(|files| {
            files
                .iter()
                .map(|f| match f["bytes"].as_u64() {
                    Some(bytes) if bytes > 0 => {
                        format!("{} {bytes} B", f["name"].as_str().unwrap_or("?"))
                    }
                    _ => f["name"].as_str().unwrap_or("?").to_owned(),
                })
                .collect()
        })
        .unwrap_or_default();
    format!(
        "{} elements, {} SVG drawings, {} images, {} declared fonts; files: {}",
        count("elements"),
        count("svgs"),
        count("images"),
        count("fontFaces"),
        if files.is_empty() {
            "none".to_owned()
        } else {
            files.join(", ")
        }
    )
}

fn print_footprint(f: &Footprint) {
    println!(
        "    app (main + web + network)         {:>10}  (main {}, web {}, network {})",
        mib(f.app_kib()),
        mib(f.main_kib),
        mib(f.web_kib),
        mib(f.network_kib)
    );
    for (name, kib) in &f.others {
        println!("    also started: {name:<20} {:>10}", mib(*kib));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::throughput_table;

    #[test]
    fn the_throughput_table_pairs_each_sim_figure_with_its_bare_one() {
        let case = |endpoint: &str, server: &str, c: u64, rps: f64| {
            json!({"endpoint": endpoint, "server": server, "concurrency": c, "rps": rps,
                   "p50_us": 100.0, "p99_us": 300.0})
        };
        let report = json!({"cores": 2, "measure_secs": 5.0, "results": [
            case("get-quote", "sim", 16, 5000.0), case("get-quote", "bare", 16, 100000.0),
            case("get-order", "sim", 1, 9000.0), case("get-order", "bare", 1, 10000.0),
        ]});
        let table = throughput_table(&report).unwrap();
        let rows: Vec<&str> = table.lines().filter(|l| l.contains("get-")).collect();
        assert_eq!(rows.len(), 2, "{table}");
        assert!(
            rows[0].contains("5000") && rows[0].contains("100000") && rows[0].contains("0.05×")
        );
        assert!(rows[1].contains("0.90×"), "{table}");

        let lonely = json!({"cores": 2, "measure_secs": 5.0, "results": [case("get-quote", "sim", 16, 1.0)]});
        assert!(throughput_table(&lonely).is_err());
        assert!(throughput_table(&json!({})).is_err());
    }

    #[test]
    fn the_tracker_summary_gives_the_figure_against_the_goal() {
        use super::tracker_summary;

        let report = json!({"orders": 1000, "addresses": 10, "time_scale": "1 minute = 1 s",
            "measured_minutes": 20, "warmup_minutes": 3, "goal_per_minute": 40.0,
            "requests_per_minute": {"mean": 25.6, "max": 31.0},
            "by_endpoint_mean_per_minute": {"get-orders": 25.6, "get-order": 0.0},
            "official_client_equivalent_per_minute": 1129.0});
        let text = tracker_summary(&report).unwrap();
        assert!(
            text.contains("mean 25.6, max 31 (goal ≤ 40: met)"),
            "{text}"
        );
        assert!(text.contains("get-orders 25.6, get-order 0.0"), "{text}");
        let mut over = report.clone();
        over["requests_per_minute"]["max"] = json!(41.0);
        assert!(tracker_summary(&over).unwrap().contains("NOT met"));
        assert!(tracker_summary(&json!({})).is_err());
    }

    #[test]
    fn the_page_summary_names_what_the_page_holds() {
        use super::page_summary;
        let page = serde_json::json!({"elements": 1200, "svgs": 3, "images": 0, "fontFaces": 0,
            "files": [{"name": "index-abc.js", "bytes": 77490}, {"name": "index-def.css", "bytes": 0}]});
        assert_eq!(
            page_summary(&page),
            "1200 elements, 3 SVG drawings, 0 images, 0 declared fonts; files: index-abc.js 77490 B, index-def.css"
        );
        assert_eq!(
            page_summary(&serde_json::json!({})),
            "0 elements, 0 SVG drawings, 0 images, 0 declared fonts; files: none"
        );
    }

    #[test]
    fn the_partner_summary_gives_each_median() {
        use super::partner_summary;

        let case = |median: f64| json!({"median_ms": median, "min_ms": median - 1.0, "max_ms": median + 1.0, "samples": 20});
        let report = json!({"orders": 10000, "orders_with_id": 9500, "completed": 6833,
            "read_and_build": case(422.1), "warm_read_and_build": case(9.5), "journal_read": case(368.0), "facts_extraction": case(55.8),
            "build": {"day": case(2.83), "week": case(1.70), "month": case(1.66)}, "csv": case(10.5)});
        let text = partner_summary(&report).unwrap();
        assert!(
            text.contains(
                "10000 journaled orders (9500 with an order id, 6833 completed; 20 samples"
            ),
            "{text}"
        );
        assert!(
            text.contains("median   422.10 ms (min 421.10, max 423.10)"),
            "{text}"
        );
        assert!(text.contains("by week"), "{text}");
        assert!(
            text.contains("only changed orders re-read)   median     9.50 ms"),
            "{text}"
        );
        let mut broken = report.clone();
        broken["csv"] = json!({});
        assert!(partner_summary(&broken).is_err());
    }
}
