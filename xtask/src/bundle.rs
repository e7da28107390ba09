//! `cargo xtask bundle`: the Debian package, built offline by Tauri's bundler (`tauri bundle`, from the
//! `@tauri-apps/cli` npm package the UI's lock file pins) from the release build; and the check that it installs
//! and starts: unpacked into a throwaway root (`dpkg -x`), its binary launched under Xvfb until the window paints its
//! first view with the routes, and a screenshot of it that is not blank.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{Context, Result, bail};

use crate::display::{PrivateBus, Xvfb};
use crate::footprint::App;
use crate::setup;
use crate::tasks::{build_app, build_ui, project_root, status, target_dir};

/// What the package suggests beside its dependencies: a Secret Service for the API key and the wallet's password
/// hint (the app runs without one, keyless). Tauri's bundler writes `Depends` and `Recommends` but no `Suggests`, so
/// the field is added by repacking with `dpkg-deb`.
const SUGGESTS: &str = "gnome-keyring | kwalletmanager | keepassxc";

/// Colours a painted window shows at the least (text is anti-aliased); a blank or one-colour window shows one.
const PAINTED_COLOURS: u64 = 64;

/// `cargo xtask bundle`: builds the UI, the release app and its Debian package; gives the package's path.
pub fn bundle() -> Result<PathBuf> {
    setup::all()?;
    build_ui()?;
    build_app()?;
    deb()
}

/// The Debian package from the release build already made.
pub fn deb() -> Result<PathBuf> {
    let out = target_dir().join("release/bundle/deb");
    let _ = std::fs::remove_dir_all(&out);
    println!("xtask: bundling the Debian package (tauri bundle --bundles deb)");
    status(
        Command::new(setup::ui_dir().join("node_modules/.bin/tauri"))
            .args([
                "bundle",
                "--bundles",
                "deb",
                "--features",
                "custom-protocol",
            ])
            .current_dir(project_root())
            // No update check or telemetry; the bundler itself needs no download for a .deb.
            .env("CI", "true"),
    )?;
    let deb = std::fs::read_dir(&out)
        .with_context(|| format!("the bundler wrote no {}", out.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "deb"))
        .with_context(|| format!("no .deb in {}", out.display()))?;
    add_suggests(&deb)?;
    let size = std::fs::metadata(&deb)?.len();
    println!(
        "xtask: {} ({size} bytes, {:.1} MB)",
        deb.display(),
        size as f64 / 1e6
    );
    Ok(deb)
}

/// Adds `Suggests:` to the package's control file, and packs it again (xz, files owned by root).
fn add_suggests(deb: &Path) -> Result<()> {
    let work = tempfile::tempdir()?;
    let root = work.path().join("root");
    status(Command::new("dpkg-deb").arg("-R").arg(deb).arg(&root))?;
    let control = root.join("DEBIAN/control");
    let text = std::fs::read_to_string(&control)?;
    if !text.lines().any(|l| l.starts_with("Suggests:")) {
        let mut text = text.trim_end().to_owned();
        text.push_str(&format!("\nSuggests: {SUGGESTS}\n"));
        std::fs::write(&control, text)?;
    }
    status(
        Command::new("dpkg-deb")
            .args(["--build", "--root-owner-group", "-Zxz"])
            .arg(&root)
            .arg(deb),
    )
}

/// A control field of `deb`.
fn field(deb: &Path, name: &str) -> Result<String> {
    let out = Command::new("dpkg-deb")
        .arg("-f")
        .arg(deb)
        .arg(name)
        .output()?;
    if !out.status.success() {
        bail!("dpkg-deb -f {} {name} failed", deb.display());
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// Checks the package: its fields and files, then that its binary, unpacked into a throwaway root, starts and paints.
pub fn check_installed(deb: &Path) -> Result<()> {
    let depends = field(deb, "Depends")?;
    for needed in ["libwebkit2gtk-4.1-0", "libgtk-3-0"] {
        if !depends.contains(needed) {
            bail!("the package does not depend on {needed} (Depends: {depends})");
        }
    }
    let suggests = field(deb, "Suggests")?;
    if !suggests.contains("gnome-keyring") {
        bail!("the package does not suggest a Secret Service (Suggests: {suggests:?})");
    }
    let root = tempfile::tempdir()?;
    status(Command::new("dpkg").arg("-x").arg(deb).arg(root.path()))?;
    let binary = root.path().join("usr/bin/gateway-desk");
    let desktop = root
        .path()
        .join("usr/share/applications/Gateway Desk.desktop");
    for file in [&binary, &desktop] {
        if !file.is_file() {
            bail!(
                "the package has no {}",
                file.strip_prefix(root.path())?.display()
            );
        }
    }
    let entry = std::fs::read_to_string(&desktop)?;
    if !entry.contains("Exec=gateway-desk") || !entry.contains("Icon=gateway-desk") {
        bail!("the desktop entry does not start the app with its icon:\n{entry}");
    }
    let icons = root.path().join("usr/share/icons/hicolor");
    if !icons.join("128x128/apps/gateway-desk.png").is_file() {
        bail!("the package has no 128×128 icon under {}", icons.display());
    }

    let xvfb = Xvfb::start()?;
    let bus = PrivateBus::start()?;
    let home = tempfile::tempdir()?;
    let mut app = App::launch(&binary, &xvfb, &bus, Some(home.path()), &[], false)?;
    let start = app.wait_painted(Duration::from_secs(90))?;
    let shot = home.path().join("installed.png");
    xvfb.screenshot("Gateway Desk", &shot)?;
    let colours = colours(&shot)?;
    if colours < PAINTED_COLOURS {
        bail!("the installed app's window shows {colours} colours: it did not paint");
    }
    println!(
        "xtask: the installed app painted its first view with the routes {} ms after launch ({colours} colours)",
        start.painted_ms
    );
    Ok(())
}

/// How many colours a picture has (ImageMagick's `identify -format %k`).
fn colours(png: &Path) -> Result<u64> {
    let out = Command::new("identify")
        .args(["-format", "%k"])
        .arg(png)
        .output()
        .context("ImageMagick's identify did not run")?;
    if !out.status.success() {
        bail!("identify {} failed", png.display());
    }
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .context("identify printed no colour count")
}
