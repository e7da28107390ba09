//! The project's own tasks: `cargo xtask setup | run | test | gen-types`.
//!
//! Each installs what it needs first, so one command works on a fresh Debian or Ubuntu machine with Rust and Node.js.

mod bench;
mod bundle;
mod conformance;
mod cycles;
mod display;
mod families;
mod footprint;
mod pss;
mod setup;
mod signals;
#[cfg(test)]
mod sizes;
mod tasks;

use anyhow::{Result, bail};

const USAGE: &str = "\
usage: cargo xtask <task>

  setup                      install the Debian packages (as root) and the UI's npm packages
  run [--xvfb] [--screenshot-and-exit] [--screenshot PATH]
                             build the UI and the release app, then open the window on the Sandbox network;
                             --xvfb runs it under Xvfb and saves a screenshot once the UI has painted,
                             says how to see the window (VNC), and stops everything on Ctrl-C or SIGTERM
  test                       every check: rustfmt, clippy, cargo test, svelte-check, vitest,
                             the keychain tests on a real Secret Service, WebDriver tests of the release window
  bundle [--check]           build the release app and its Debian package (target/release/bundle/deb/);
                             --check unpacks it into a throwaway root and starts it under Xvfb until it paints
  bench [app]                run the benchmarks and print their means and ratios; `app`: only the app's
                             start-up time and memory (PSS of all its processes, at rest and after a swap)
  conformance                schemathesis (PyPI, pinned) against gateway-sim with the published OpenAPI document
  families                   where the code above the chain crates (desk-core, the command line, the window)
                             names a chain family the app added (Tron, Solana); none, so a new family changes none;
                             --all: per family, the files of the whole workspace outside its own that name it
  gen-types                  regenerate the UI's TypeScript types from the Rust types
  module-cycles              which top-level module of each library crate uses which, and whether any use one
                             another in a circle (read from the sources' tokens, in a second)";

fn main() {
    if let Err(e) = run() {
        eprintln!("xtask: {e:#}");
        std::process::exit(1);
    }
}

fn run() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((task, rest)) = args.split_first() else {
        println!("{USAGE}");
        return Ok(());
    };
    match task.as_str() {
        "setup" => setup::all(),
        "run" => tasks::run(&tasks::RunOptions::parse(rest)?),
        "test" => tasks::test(),
        "gen-types" => tasks::gen_types(),
        "bundle" => {
            let deb = bundle::bundle()?;
            match rest.first().map(String::as_str) {
                None => Ok(()),
                Some("--check") => bundle::check_installed(&deb),
                Some(other) => bail!("unknown option {other:?} for bundle (only --check)"),
            }
        }
        "bench" => match rest.first().map(String::as_str) {
            None => bench::bench(),
            Some("app") => bench::app(),
            Some(other) => bail!("unknown bench {other:?} (only `app`)"),
        },
        "conformance" => conformance::conformance(),
        "module-cycles" => cycles::module_cycles(),
        "families" => match rest.first().map(String::as_str) {
            None => families::families(),
            Some("--all") => families::whole_workspace(),
            Some(other) => bail!("unknown option {other:?} for families (only --all)"),
        },
        "help" | "-h" | "--help" => {
            println!("{USAGE}");
            Ok(())
        }
        other => bail!("unknown task {other:?}\n\n{USAGE}"),
    }
}
