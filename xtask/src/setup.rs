//! Installs what the project needs: Debian packages (only as root; otherwise the exact command is printed) and the
//! UI's and the local chains' npm packages (with `npm install`, which follows the committed lock files).

use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::tasks::{project_root, status};

/// The Debian packages: Tauri's build dependencies, and what the tests and screenshots use.
pub const DEBIAN_PACKAGES: &[&str] = &[
    "build-essential",
    "pkg-config",
    "libwebkit2gtk-4.1-dev",
    "libxdo-dev",
    "xvfb",
    "xauth",
    "webkit2gtk-driver",
    "gnome-keyring",
    "dbus",
    "dbus-daemon",
    "imagemagick",
    // The conformance check's virtual environment (schemathesis from PyPI).
    "python3-venv",
];

fn missing_packages() -> Vec<&'static str> {
    DEBIAN_PACKAGES
        .iter()
        .copied()
        .filter(|pkg| {
            let out = Command::new("dpkg-query").args(["-W", "-f=${Status}", pkg]).output();
            !matches!(out, Ok(o) if String::from_utf8_lossy(&o.stdout).contains("install ok installed"))
        })
        .collect()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// Installs missing Debian packages when run as root; otherwise prints the command and stops.
pub fn debian_packages() -> Result<()> {
    if which("dpkg-query").is_none() {
        println!(
            "xtask: not a Debian-based system; install Tauri's Linux dependencies and Xvfb by hand"
        );
        return Ok(());
    }
    let missing = missing_packages();
    if missing.is_empty() {
        return Ok(());
    }
    let command = format!("apt-get update && apt-get install -y {}", missing.join(" "));
    if !is_root() {
        bail!(
            "these Debian packages are missing: {}\nrun, as root:\n  sudo sh -c '{command}'",
            missing.join(" ")
        );
    }
    println!("xtask: installing Debian packages: {}", missing.join(" "));
    status(Command::new("apt-get").args(["update", "-qq"]))?;
    status(
        Command::new("apt-get")
            .args(["install", "-y", "-qq", "--no-install-recommends"])
            .args(&missing)
            .env("DEBIAN_FRONTEND", "noninteractive"),
    )
}

/// Runs `npm install` in ui/ (the window's packages) and chains/ (anvil, the local EVM node the Sandbox runs, and
/// solc-js, which compiles its contracts) where packages are missing or older than the lock file.
pub fn npm_packages() -> Result<()> {
    if which("npm").is_none() {
        bail!("npm is not installed: install Node.js 20 or later with npm, then run this again");
    }
    for (dir, what) in [(ui_dir(), "the UI's"), (chains_dir(), "the local chains'")] {
        let lock = dir.join("package-lock.json");
        let marker = dir.join("node_modules/.package-lock.json");
        let fresh = match (
            lock.metadata().and_then(|m| m.modified()),
            marker.metadata().and_then(|m| m.modified()),
        ) {
            (Ok(lock), Ok(installed)) => installed >= lock,
            _ => false,
        };
        if fresh {
            continue;
        }
        println!("xtask: installing {what} npm packages");
        status(
            Command::new("npm")
                .args(["install", "--no-audit", "--no-fund"])
                .current_dir(&dir),
        )
        .with_context(|| format!("npm install in {} failed", dir.display()))?;
    }
    Ok(())
}

/// Everything.
pub fn all() -> Result<()> {
    debian_packages()?;
    npm_packages()
}

pub fn ui_dir() -> PathBuf {
    project_root().join("ui")
}

/// The Sandbox's local chains: anvil, the Solidity sources and their compiled bytecode.
pub fn chains_dir() -> PathBuf {
    project_root().join("chains")
}

/// The full path of `program` on PATH, if any.
pub fn which(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .map(|paths| {
            std::env::split_paths(&paths)
                .map(|p| p.join(program))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default()
        .into_iter()
        .find(|p| p.is_file())
}
