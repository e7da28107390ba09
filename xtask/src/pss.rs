//! How much memory a process and everything it started hold, as PSS (each shared page counted once, split between
//! the processes that share it), read from `/proc`. Standalone: the WebDriver tests include this file too
//! (`tests/window.rs`), to measure the app after a swap; both have serde_json.

/// The memory of a process and of everything it started, in KiB of PSS.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Footprint {
    /// The app's own process.
    pub main_kib: u64,
    /// WebKit's web processes (the page).
    pub web_kib: u64,
    /// WebKit's network process.
    pub network_kib: u64,
    /// Anything else it started (the Sandbox's local chains, helpers), by command name.
    pub others: Vec<(String, u64)>,
}

impl Footprint {
    /// The app, the page and the network process: the figure the goal is about.
    pub fn app_kib(&self) -> u64 {
        self.main_kib + self.web_kib + self.network_kib
    }

    /// Everything, the Sandbox's chains included.
    pub fn total_kib(&self) -> u64 {
        self.app_kib() + self.others.iter().map(|(_, kib)| kib).sum::<u64>()
    }

    /// The figures as `cargo xtask bench app` reports them (KiB).
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "appKib": self.app_kib(), "mainKib": self.main_kib, "webKib": self.web_kib,
            "networkKib": self.network_kib, "totalKib": self.total_kib(),
            "others": self.others.iter().map(|(n, k)| serde_json::json!({"name": n, "kib": k})).collect::<Vec<_>>(),
        })
    }

    /// Reads the footprint of `root` and its descendants from `/proc`; `None` when `root` is gone.
    pub fn of(root: u32) -> Option<Self> {
        let mut footprint = Self {
            main_kib: pss_kib(root)?,
            ..Self::default()
        };
        for pid in descendants(root) {
            let Some(kib) = pss_kib(pid) else { continue };
            let name = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
            match name.trim() {
                n if n.starts_with("WebKitWebProces") => footprint.web_kib += kib,
                n if n.starts_with("WebKitNetworkPr") => footprint.network_kib += kib,
                n => footprint.others.push((n.to_owned(), kib)),
            }
        }
        Some(footprint)
    }
}

/// A process's PSS in KiB (`/proc/PID/smaps_rollup`); `None` when it is gone or unreadable.
fn pss_kib(pid: u32) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
    pss_of(&text)
}

/// The `Pss:` figure of a smaps_rollup text.
fn pss_of(smaps_rollup: &str) -> Option<u64> {
    smaps_rollup.lines().find_map(|line| {
        let rest = line.strip_prefix("Pss:")?;
        rest.split_whitespace().next()?.parse().ok()
    })
}

/// Every process below `root`, from each process's parent in `/proc/PID/stat`.
pub fn descendants(root: u32) -> Vec<u32> {
    let mut parents: Vec<(u32, u32)> = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for entry in entries.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<u32>().ok())
            else {
                continue;
            };
            if let Some(parent) = std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|stat| parent_of(&stat))
            {
                parents.push((pid, parent));
            }
        }
    }
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(
            parents
                .iter()
                .filter(|(_, p)| *p == parent)
                .map(|(pid, _)| *pid),
        );
        i += 1;
    }
    found.remove(0);
    found
}

/// The first process below `root` whose command name (`/proc/PID/comm`, at most 15 bytes) starts with `prefix`.
#[allow(dead_code)] // The WebDriver tests use it (tests/window.rs includes this file); xtask itself does not.
pub fn descendant_named(root: u32, prefix: &str) -> Option<u32> {
    descendants(root).into_iter().find(|pid| {
        std::fs::read_to_string(format!("/proc/{pid}/comm"))
            .is_ok_and(|name| name.trim().starts_with(prefix))
    })
}

/// The parent pid in a `/proc/PID/stat` line (the field after the command name, which may hold spaces and parens).
fn parent_of(stat: &str) -> Option<u32> {
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(1)?.parse().ok()
}

/// KiB as MiB with one decimal.
pub fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    #[test]
    fn reads_the_pss_and_the_parent() {
        let rollup = "55d0-7ffd ---p 00000000 00:00 0 [rollup]\nRss:              102400 kB\nPss:               81234 kB\n\
                      Pss_Anon:          60000 kB\n";
        assert_eq!(pss_of(rollup), Some(81234));
        assert_eq!(pss_of("Rss: 1 kB\n"), None);
        assert_eq!(
            parent_of("4242 (WebKitWebProces) S 4200 4242 4200 0 -1"),
            Some(4200)
        );
        assert_eq!(parent_of("17 (a (strange) name) R 1 17 17 0"), Some(1));
    }

    #[test]
    fn this_process_has_a_footprint_and_its_child_is_found() {
        let mut child = Command::new("sleep").arg("5").spawn().unwrap();
        let footprint = Footprint::of(std::process::id()).unwrap();
        assert!(footprint.main_kib > 0);
        assert!(
            footprint.others.iter().any(|(name, _)| name == "sleep"),
            "{footprint:?}"
        );
        assert_eq!(
            descendant_named(std::process::id(), "slee"),
            Some(child.id())
        );
        assert_eq!(descendant_named(std::process::id(), "no-such"), None);
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
