//! A headless session for the window: an X display (Xvfb), a private D-Bus session bus, and screenshots.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::tasks::status;

/// True when a graphical session is available.
pub fn has_display() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|d| !d.is_empty()))
}

/// A running Xvfb server; stopped when dropped (its lock file and socket gone with it).
pub struct Xvfb {
    child: Child,
    /// The display name, `:N`.
    pub display: String,
    number: u32,
}

impl Xvfb {
    /// Starts Xvfb on the first free display from :90, 1280×800, and waits until it accepts clients.
    pub fn start() -> Result<Self> {
        let number = (90..200)
            .find(|n| {
                !Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
                    && !Path::new(&format!("/tmp/.X{n}-lock")).exists()
            })
            .context("no free X display number between :90 and :199")?;
        let display = format!(":{number}");
        let child = Command::new("Xvfb")
            .args([&display, "-screen", "0", "1280x800x24", "-nolisten", "tcp"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("could not start Xvfb (is the xvfb package installed? `cargo xtask setup` installs it)")?;
        let mut xvfb = Self {
            child,
            display,
            number,
        };
        let socket = format!("/tmp/.X11-unix/X{number}");
        let started = Instant::now();
        while !Path::new(&socket).exists() {
            if let Some(exit) = xvfb.child.try_wait()? {
                bail!("Xvfb exited at start ({exit})");
            }
            if started.elapsed() > Duration::from_secs(15) {
                bail!("Xvfb did not open {socket} within 15 s");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        println!("xtask: Xvfb running on display {}", xvfb.display);
        Ok(xvfb)
    }

    /// Saves a PNG of the window titled `title`.
    pub fn screenshot(&self, title: &str, path: &Path) -> Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        status(
            Command::new("import")
                .args(["-display", &self.display, "-window", title])
                .arg(path),
        )
        .context("taking the screenshot failed (ImageMagick's `import` is used)")
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        terminate(&mut self.child);
        // Xvfb removes its lock file and socket when it stops cleanly; after a kill they stay and would keep the
        // display number taken. Only this server's own are removed (the lock file names its process).
        let lock = format!("/tmp/.X{}-lock", self.number);
        let ours = std::fs::read_to_string(&lock)
            .is_ok_and(|pid| pid.trim() == self.child.id().to_string());
        if ours {
            let _ = std::fs::remove_file(&lock);
            let _ = std::fs::remove_file(format!("/tmp/.X11-unix/X{}", self.number));
        }
    }
}

/// A private D-Bus session bus. What the window activates on it (portals, accessibility, a keychain) exits when the
/// bus is stopped, which happens when this is dropped.
pub struct PrivateBus {
    daemon: Child,
    /// The value for `DBUS_SESSION_BUS_ADDRESS`.
    pub address: String,
}

impl PrivateBus {
    pub fn start() -> Result<Self> {
        let mut daemon = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--print-address=1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .context("could not start dbus-daemon (`cargo xtask setup` installs it)")?;
        let mut address = String::new();
        BufReader::new(daemon.stdout.take().expect("piped")).read_line(&mut address)?;
        let address = address.trim().to_owned();
        if address.is_empty() {
            terminate(&mut daemon);
            bail!("dbus-daemon printed no address");
        }
        Ok(Self { daemon, address })
    }
}

impl Drop for PrivateBus {
    fn drop(&mut self) {
        terminate(&mut self.daemon);
    }
}

/// A command for a program of the headless session: on `xvfb`'s display and `bus`, never on a Wayland display the
/// caller has, and leading its own process group, so that [`terminate_group`] stops its helpers too and a Ctrl-C
/// reaches it only through xtask.
pub fn session_command(program: &Path, xvfb: &Xvfb, bus: &PrivateBus) -> Command {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(program);
    command
        .env("DISPLAY", &xvfb.display)
        .env("DBUS_SESSION_BUS_ADDRESS", &bus.address)
        .env_remove("WAYLAND_DISPLAY")
        .process_group(0);
    command
}

/// Asks a child that leads its own process group (`process_group(0)`) to stop with the whole group (its helper
/// processes: WebKit's, the Sandbox's local chains): SIGTERM to the group, up to 10 s for all of it to end, then
/// SIGKILL to what is left.
pub fn terminate_group(child: &mut Child) {
    let group = format!("-{}", child.id());
    let signal = |name: &str| {
        Command::new("kill")
            .args([name, "--", &group])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    signal("-TERM");
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(10) {
        let _ = child.try_wait();
        // `kill -0` succeeds while any process of the group is left.
        if !signal("-0") {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    if signal("-0") {
        signal("-KILL");
    }
    let _ = child.wait();
}

/// Asks a child to stop with SIGTERM, waits up to 10 s, then kills it.
pub fn terminate(child: &mut Child) {
    if matches!(child.try_wait(), Ok(Some(_))) {
        return;
    }
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(10) {
        if matches!(child.try_wait(), Ok(Some(_))) {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
}
