//! Where the app keeps its settings, data and logs.

use std::path::{Path, PathBuf};

/// The environment variable that puts every folder of the app under one directory (tests, portable use).
pub const HOME_ENV: &str = "GATEWAY_DESK_HOME";

/// The app's folders: configuration, data (journal, Sandbox state) and logs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppPaths {
    /// Where the settings file lives.
    pub config_dir: PathBuf,
    /// Where the order journal, the Sandbox's saved state and support bundles live.
    pub data_dir: PathBuf,
    /// Where the app writes its logs.
    pub log_dir: PathBuf,
}

impl AppPaths {
    /// The platform's folders (on Linux `~/.config/gateway-desk`, `~/.local/share/gateway-desk`,
    /// `~/.local/share/gateway-desk/logs`), or all under `$GATEWAY_DESK_HOME` when it is set.
    pub fn from_env() -> Option<Self> {
        if let Some(home) = std::env::var_os(HOME_ENV).filter(|v| !v.is_empty()) {
            return Some(Self::under(Path::new(&home)));
        }
        let dirs = directories::ProjectDirs::from("xyz", "Gateway Desk", "gateway-desk")?;
        Some(Self {
            config_dir: dirs.config_dir().to_path_buf(),
            data_dir: dirs.data_dir().to_path_buf(),
            log_dir: dirs.data_local_dir().join("logs"),
        })
    }

    /// Every folder under one root: `ROOT/config`, `ROOT/data`, `ROOT/logs`.
    pub fn under(root: &Path) -> Self {
        Self {
            config_dir: root.join("config"),
            data_dir: root.join("data"),
            log_dir: root.join("logs"),
        }
    }

    /// The settings file.
    pub fn settings_file(&self) -> PathBuf {
        self.config_dir.join("settings.json")
    }
}
