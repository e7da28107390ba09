//! The settings file: which network is chosen, the custom URL, and each network's API version.
//!
//! Stored as versioned JSON in the platform's config folder. A file that cannot be read (corrupt, or written by a
//! newer version of the app) is reported and moved aside, never silently overwritten.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use gateway_client::ApiVersion;
use gateway_client::address::BitcoinNetwork;
use serde::{Deserialize, Serialize};
use tracing::{info, warn};
use ts_rs::TS;

/// The format version this build writes and reads. Format 1 (before API V4) is read and brought up to date
/// ([`migrate_format_1`]).
pub const SETTINGS_VERSION: u32 = 2;

/// The API version a network speaks unless the person chose another: V4, the service's current version (its
/// September 2026 document). V3 stays selectable; V1 and V2 were removed from the service.
pub const DEFAULT_API_VERSION: ApiVersion = ApiVersion::V4;

/// The kinds of network the app can talk to.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize, TS,
)]
#[serde(rename_all = "lowercase")]
#[ts(export_to = "NetworkKind.ts")]
pub enum NetworkKind {
    /// The published production gateway: real money, Bitcoin mainnet.
    Production,
    /// The published staging gateway (its Bitcoin network is chosen in Settings, mainnet unless set).
    Staging,
    /// A gateway at a URL the person enters (checked before it is used).
    Custom,
    /// The embedded gateway-sim: works with no internet, moves no real money.
    #[default]
    Sandbox,
}

impl NetworkKind {
    /// Every kind, in the order the app lists them.
    pub const ALL: [NetworkKind; 4] =
        [Self::Production, Self::Staging, Self::Custom, Self::Sandbox];

    /// The name a person reads.
    pub fn label(self) -> &'static str {
        match self {
            Self::Production => "Production",
            Self::Staging => "Staging",
            Self::Custom => "Custom URL",
            Self::Sandbox => "Sandbox",
        }
    }

    /// The name used in files and the keychain.
    pub fn slug(self) -> &'static str {
        match self {
            Self::Production => "production",
            Self::Staging => "staging",
            Self::Custom => "custom",
            Self::Sandbox => "sandbox",
        }
    }
}

/// The window's colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export_to = "Theme.ts")]
pub enum Theme {
    /// Follow the operating system.
    #[default]
    System,
    /// Always light, whatever the operating system says.
    Light,
    /// Always dark, whatever the operating system says.
    Dark,
}

/// One affiliate entry: the address paid and its basis points of the swap (`address:bps` on the wire).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "AffiliateEntry.ts")]
pub struct AffiliateEntry {
    /// An EVM, Tron or Solana address, in its canonical form (EIP-55 for EVM).
    pub address: String,
    /// The affiliate's share of the swap in basis points (100 = 1%).
    pub bps: u32,
}

/// Per-network preferences.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NetworkPrefs {
    /// The version of the gateway's interface the person chose for this network; `None` speaks
    /// [`DEFAULT_API_VERSION`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_version: Option<ApiVersion>,
    /// Addresses whose orders the app follows on this network (as typed, validated), in the order added.
    #[serde(default)]
    pub watched: Vec<String>,
    /// The partner's affiliate entries sent with every onramp and offramp quote (V2, V3), validated.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub affiliates: Vec<AffiliateEntry>,
    /// The one affiliate sent with V3 token-swap quotes, validated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_swap_affiliate: Option<AffiliateEntry>,
    /// The Bitcoin network of the gateway's addresses and transactions, where the person chooses it (Staging and a
    /// custom URL; see [`Settings::bitcoin_network`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bitcoin_network: Option<BitcoinNetwork>,
    /// Calls the app cannot decode are let through, shown as not checked, instead of refused (off by default, as on
    /// hardware wallets; see [`crate::verify::VerifyPolicy`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub blind_signing: bool,
    /// The Sandbox only: its EVM and Tron orders take the real service's shape (each chain's published entry
    /// contract and its `exec`), verified as on Production. Off by default.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub production_shape: bool,
    /// Where the Bitcoin fast fee rate is read (a `…/api/v1/fees/recommended` URL), instead of the default of the
    /// network's Bitcoin network ([`crate::fees::default_source`]); `""` reads none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fee_source: Option<String>,
    /// The endpoints chosen for the chains the wallet reads itself on this network (an EVM chain, Solana or Tron:
    /// chain slug → URLs, tried in order), instead of the public defaults ([`crate::desk::default_endpoints`]).
    /// Written as `chain_rpc`; settings files of earlier versions wrote `evm_rpc`, read the same.
    #[serde(
        default,
        rename = "chain_rpc",
        alias = "evm_rpc",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub chain_rpc: BTreeMap<String, Vec<String>>,
}

/// Everything the settings file holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    /// The file's format version ([`SETTINGS_VERSION`]); a file of another version is set aside, not read.
    pub version: u32,
    /// The network chosen, which the app connects to when it starts.
    pub network: NetworkKind,
    /// The gateway URL of the custom network, checked, without a trailing slash; kept when another network is
    /// chosen.
    #[serde(default)]
    pub custom_url: Option<String>,
    /// Each network's own preferences; a network never set has none and takes the defaults.
    #[serde(default)]
    pub networks: BTreeMap<NetworkKind, NetworkPrefs>,
    /// The window's colours.
    #[serde(default)]
    pub theme: Theme,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            version: SETTINGS_VERSION,
            network: NetworkKind::Sandbox,
            custom_url: None,
            networks: BTreeMap::new(),
            theme: Theme::System,
        }
    }
}

impl Settings {
    /// The API version chosen for `kind` ([`DEFAULT_API_VERSION`] unless set).
    pub fn api_version(&self, kind: NetworkKind) -> ApiVersion {
        self.networks
            .get(&kind)
            .and_then(|p| p.api_version)
            .unwrap_or(DEFAULT_API_VERSION)
    }

    /// The addresses watched on `kind`.
    pub fn watched(&self, kind: NetworkKind) -> &[String] {
        self.networks
            .get(&kind)
            .map_or(&[], |p| p.watched.as_slice())
    }

    /// The affiliate entries of `kind` (onramps and offramps).
    pub fn affiliates(&self, kind: NetworkKind) -> &[AffiliateEntry] {
        self.networks
            .get(&kind)
            .map_or(&[], |p| p.affiliates.as_slice())
    }

    /// The token-swap affiliate of `kind`.
    pub fn token_swap_affiliate(&self, kind: NetworkKind) -> Option<&AffiliateEntry> {
        self.networks
            .get(&kind)
            .and_then(|p| p.token_swap_affiliate.as_ref())
    }

    /// The Bitcoin network of `kind`: deposit addresses, PSBTs and the addresses typed are checked against it.
    ///
    /// Fixed for two networks: the Sandbox is regtest (so its addresses can never be paid with real money) and
    /// Production is mainnet. Staging and a custom URL take the setting, mainnet unless set: the staging
    /// deployment's network is not documented, and a mismatch is refused with a sentence naming both networks.
    pub fn bitcoin_network(&self, kind: NetworkKind) -> BitcoinNetwork {
        match kind {
            NetworkKind::Sandbox => BitcoinNetwork::Regtest,
            NetworkKind::Production => BitcoinNetwork::Mainnet,
            NetworkKind::Staging | NetworkKind::Custom => self
                .networks
                .get(&kind)
                .and_then(|p| p.bitcoin_network)
                .unwrap_or(BitcoinNetwork::Mainnet),
        }
    }

    /// Whether the Sandbox's orders take the real service's shape ([`NetworkPrefs::production_shape`]).
    pub fn production_shape(&self) -> bool {
        self.networks
            .get(&NetworkKind::Sandbox)
            .is_some_and(|p| p.production_shape)
    }

    /// How answers of `kind` are checked: the Sandbox's contracts pinned and its own fee rate; elsewhere strict, with
    /// blind signing as the person set it.
    pub fn verify_policy(&self, kind: NetworkKind) -> crate::verify::VerifyPolicy {
        let bitcoin = self.bitcoin_network(kind);
        let mut policy = match kind {
            NetworkKind::Sandbox if self.production_shape() => {
                crate::verify::VerifyPolicy::sandbox_production_shape(bitcoin)
            }
            NetworkKind::Sandbox => crate::verify::VerifyPolicy::sandbox(bitcoin),
            _ => crate::verify::VerifyPolicy::strict(bitcoin),
        };
        policy.blind_signing = self.networks.get(&kind).is_some_and(|p| p.blind_signing);
        policy
    }

    /// Where the fast fee rate of `kind` is read: none on the Sandbox (its own rate is known), else the settings file's
    /// `feeSource` (empty: none) or the default of the network's Bitcoin network.
    pub fn fee_source(&self, kind: NetworkKind) -> Option<String> {
        if kind == NetworkKind::Sandbox {
            return None;
        }
        match self.networks.get(&kind).and_then(|p| p.fee_source.clone()) {
            Some(url) => Some(url).filter(|u| !u.trim().is_empty()),
            None => crate::fees::default_source(self.bitcoin_network(kind)).map(str::to_owned),
        }
    }

    /// Whether the person may choose the Bitcoin network of `kind` (Staging and a custom URL).
    pub fn bitcoin_network_is_settable(kind: NetworkKind) -> bool {
        matches!(kind, NetworkKind::Staging | NetworkKind::Custom)
    }

    /// The preferences of `kind`, made on first use.
    pub fn prefs_mut(&mut self, kind: NetworkKind) -> &mut NetworkPrefs {
        self.networks.entry(kind).or_default()
    }
}

/// Why the settings file could not be used or written.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// The file (or its temporary twin, or its folder) could not be written; the old file is left as it was.
    #[error("could not write the settings file {path}: {source}")]
    Write {
        /// The settings file that was being written.
        path: PathBuf,
        /// What the operating system answered.
        source: io::Error,
    },
}

/// What loading found.
#[derive(Debug)]
pub struct Loaded {
    /// The settings read, or the defaults when the file is missing or could not be used.
    pub settings: Settings,
    /// Set when the file on disk could not be used: what was wrong and where it was moved.
    pub notice: Option<String>,
}

/// Reads the settings at `path`. A missing file gives the defaults; an unreadable one is moved aside and reported.
pub fn load(path: &Path) -> Loaded {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Loaded {
                settings: Settings::default(),
                notice: None,
            };
        }
        Err(e) => {
            warn!(path = %path.display(), error = %e, "settings file unreadable");
            return Loaded {
                settings: Settings::default(),
                notice: Some(format!(
                    "The settings file {} could not be read ({e}); the app is using default settings and will not \
                     overwrite it until you change a setting.",
                    path.display()
                )),
            };
        }
    };
    let problem = match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Err(e) => format!("it is not valid JSON ({e})"),
        Ok(value) => match value.get("version").and_then(|v| v.as_u64()) {
            Some(v) if v > u64::from(SETTINGS_VERSION) => {
                format!(
                    "it was written by a newer version of Gateway Desk (format {v}; this build reads {SETTINGS_VERSION})"
                )
            }
            Some(1) => match migrate_format_1(value) {
                Ok((settings, moved)) => {
                    info!(path = %path.display(), moved, "settings of format 1 brought up to date");
                    return Loaded {
                        settings,
                        notice: (moved > 0).then(|| {
                            "The gateway's current interface is API V4, now the default: networks that used V3 (the \
                             newest version when you set them up), and Production or Staging on V2 or V1 (which the \
                             service removed), now speak V4. V3 stays selectable in Settings."
                                .to_owned()
                        }),
                    };
                }
                Err(e) => format!("its content does not fit the settings format ({e})"),
            },
            _ => match serde_json::from_value::<Settings>(value) {
                Ok(settings) if settings.version == SETTINGS_VERSION => {
                    return Loaded {
                        settings,
                        notice: None,
                    };
                }
                Ok(settings) => format!(
                    "its format version {} is not one this build knows",
                    settings.version
                ),
                Err(e) => format!("its content does not fit the settings format ({e})"),
            },
        },
    };
    let aside = set_aside(path);
    warn!(path = %path.display(), problem = %problem, "settings file set aside");
    let notice = match aside {
        Ok(aside) => format!(
            "The settings file could not be used: {problem}. It was kept as {} and the app started with default \
             settings.",
            aside.display()
        ),
        Err(e) => format!(
            "The settings file {} could not be used: {problem}. It could not be moved aside ({e}), so the app \
             started with default settings and will not overwrite it until you change a setting.",
            path.display()
        ),
    };
    Loaded {
        settings: Settings::default(),
        notice: Some(notice),
    }
}

/// Reads a settings file of format 1 (written before API V4). Format 1 wrote every network's API version, V3 (then
/// the newest) unless another was picked, so a V3 there is the default of its time: it becomes "not chosen", which
/// speaks [`DEFAULT_API_VERSION`]. V1 and V2 on Production or Staging, which the service no longer serves, go the same
/// way; elsewhere (a gateway of one's own, the Sandbox) they were picked on purpose and are kept. Gives the settings
/// and how many networks moved to the default.
fn migrate_format_1(mut value: serde_json::Value) -> Result<(Settings, usize), serde_json::Error> {
    let mut moved = 0;
    if let Some(networks) = value
        .get_mut("networks")
        .and_then(serde_json::Value::as_object_mut)
    {
        for (network, prefs) in networks.iter_mut() {
            let Some(prefs) = prefs.as_object_mut() else {
                continue;
            };
            let published = matches!(network.as_str(), "production" | "staging");
            let moves = match prefs.get("apiVersion").and_then(serde_json::Value::as_str) {
                Some("v3") => true,
                Some("v1" | "v2") => published,
                _ => false,
            };
            if moves {
                prefs.remove("apiVersion");
                moved += 1;
            }
        }
    }
    value["version"] = serde_json::json!(SETTINGS_VERSION);
    let settings = serde_json::from_value::<Settings>(value)?;
    Ok((settings, moved))
}

/// Renames an unreadable file to `<name>.unreadable-<unix secs>` beside it, so nothing overwrites it.
pub fn set_aside(path: &Path) -> io::Result<PathBuf> {
    let stamp = crate::calendar::now_secs();
    let aside = path.with_extension(format!("json.unreadable-{stamp}"));
    fs::rename(path, &aside)?;
    Ok(aside)
}

/// Writes `settings` to `path` atomically (a temporary file renamed over the old one).
pub fn save(path: &Path, settings: &Settings) -> Result<(), SettingsError> {
    let write = || -> io::Result<()> {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        let tmp = path.with_extension("json.tmp");
        let text = serde_json::to_string_pretty(settings).map_err(io::Error::other)?;
        fs::write(&tmp, text + "\n")?;
        fs::rename(&tmp, path)
    };
    write().map_err(|source| SettingsError::Write {
        path: path.to_path_buf(),
        source,
    })?;
    info!(path = %path.display(), network = settings.network.slug(), "settings saved");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_format_1_file_moves_its_v3_networks_to_v4_and_keeps_everything_else() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        std::fs::write(
            &path,
            r#"{"version":1,"network":"production","networks":{
                "production":{"apiVersion":"v3","watched":["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"]},
                "staging":{"apiVersion":"v2"}, "custom":{"apiVersion":"v2"}}}"#,
        )
        .unwrap();
        let loaded = load(&path);
        let notice = loaded.notice.expect("the move is told");
        assert!(notice.contains("API V4"), "{notice}");
        let settings = loaded.settings;
        assert_eq!(settings.version, SETTINGS_VERSION);
        assert_eq!(settings.network, NetworkKind::Production);
        assert_eq!(
            settings.api_version(NetworkKind::Production),
            ApiVersion::V4
        );
        assert_eq!(settings.watched(NetworkKind::Production).len(), 1);
        // V2 is no longer served on Staging: moved too; on a gateway of one's own it was picked on purpose: kept.
        assert_eq!(settings.api_version(NetworkKind::Staging), ApiVersion::V4);
        assert_eq!(settings.api_version(NetworkKind::Custom), ApiVersion::V2);
        // Saved, it is a format 2 file that reads back the same, without a notice.
        save(&path, &settings).unwrap();
        let again = load(&path);
        assert_eq!(again.settings, settings);
        assert!(again.notice.is_none());
        // A format 1 file with no V3 in it moves nothing and says nothing.
        std::fs::write(&path, r#"{"version":1,"network":"sandbox"}"#).unwrap();
        let quiet = load(&path);
        assert!(quiet.notice.is_none());
        assert_eq!(
            quiet.settings.api_version(NetworkKind::Sandbox),
            ApiVersion::V4
        );
    }

    #[test]
    fn missing_file_gives_defaults_and_saved_settings_load_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config/settings.json");
        let loaded = load(&path);
        assert_eq!(loaded.settings, Settings::default());
        assert!(loaded.notice.is_none());

        let mut settings = Settings {
            network: NetworkKind::Custom,
            ..Settings::default()
        };
        settings.custom_url = Some("https://gateway.example".into());
        settings.networks.insert(
            NetworkKind::Staging,
            NetworkPrefs {
                api_version: Some(ApiVersion::V2),
                watched: vec!["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed".into()],
                affiliates: vec![AffiliateEntry {
                    address: "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7".into(),
                    bps: 25,
                }],
                token_swap_affiliate: Some(AffiliateEntry {
                    address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed".into(),
                    bps: 10,
                }),
                bitcoin_network: Some(BitcoinNetwork::Signet),
                blind_signing: true,
                production_shape: true,
                fee_source: Some("http://127.0.0.1:9/fees".into()),
                chain_rpc: BTreeMap::from([("bob".into(), vec!["https://rpc.example".into()])]),
            },
        );
        save(&path, &settings).unwrap();
        let loaded = load(&path);
        assert_eq!(loaded.settings, settings);
        assert_eq!(
            loaded.settings.api_version(NetworkKind::Staging),
            ApiVersion::V2
        );
        assert_eq!(
            loaded.settings.api_version(NetworkKind::Production),
            ApiVersion::V4
        );
        assert_eq!(loaded.settings.affiliates(NetworkKind::Staging)[0].bps, 25);
        assert_eq!(
            loaded
                .settings
                .token_swap_affiliate(NetworkKind::Staging)
                .map(|a| a.bps),
            Some(10)
        );
        assert!(
            loaded
                .settings
                .affiliates(NetworkKind::Production)
                .is_empty()
        );
    }

    #[test]
    fn the_bitcoin_network_is_fixed_for_the_sandbox_and_production_and_chosen_elsewhere() {
        let mut settings = Settings::default();
        assert_eq!(
            settings.bitcoin_network(NetworkKind::Sandbox),
            BitcoinNetwork::Regtest
        );
        assert_eq!(
            settings.bitcoin_network(NetworkKind::Production),
            BitcoinNetwork::Mainnet
        );
        assert_eq!(
            settings.bitcoin_network(NetworkKind::Staging),
            BitcoinNetwork::Mainnet
        );
        assert_eq!(
            settings.bitcoin_network(NetworkKind::Custom),
            BitcoinNetwork::Mainnet
        );
        for kind in NetworkKind::ALL {
            settings.prefs_mut(kind).bitcoin_network = Some(BitcoinNetwork::Testnet);
        }
        // A stray choice in the file cannot make the Sandbox payable or Production a test network.
        assert_eq!(
            settings.bitcoin_network(NetworkKind::Sandbox),
            BitcoinNetwork::Regtest
        );
        assert_eq!(
            settings.bitcoin_network(NetworkKind::Production),
            BitcoinNetwork::Mainnet
        );
        assert_eq!(
            settings.bitcoin_network(NetworkKind::Staging),
            BitcoinNetwork::Testnet
        );
        assert_eq!(
            settings.bitcoin_network(NetworkKind::Custom),
            BitcoinNetwork::Testnet
        );
        assert!(Settings::bitcoin_network_is_settable(NetworkKind::Custom));
        assert!(!Settings::bitcoin_network_is_settable(NetworkKind::Sandbox));
        // As the file writes it, and an older file without it still loads.
        let text = serde_json::to_string(&settings).unwrap();
        assert!(text.contains(r#""bitcoinNetwork":"testnet""#), "{text}");
        let old: Settings = serde_json::from_str(
            r#"{"version":1,"network":"staging","networks":{"staging":{"apiVersion":"v3"}}}"#,
        )
        .unwrap();
        assert_eq!(
            old.bitcoin_network(NetworkKind::Staging),
            BitcoinNetwork::Mainnet
        );
    }

    #[test]
    fn a_settings_file_without_affiliates_still_loads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        fs::write(
            &path,
            r#"{"version": 1, "network": "sandbox", "networks": {"sandbox": {"apiVersion": "v2", "watched": []}}}"#,
        )
        .unwrap();
        let loaded = load(&path);
        assert!(loaded.notice.is_none(), "{:?}", loaded.notice);
        assert!(loaded.settings.affiliates(NetworkKind::Sandbox).is_empty());
        assert_eq!(
            loaded.settings.token_swap_affiliate(NetworkKind::Sandbox),
            None
        );
    }

    #[test]
    fn corrupt_and_newer_files_are_kept_aside() {
        for (content, expect) in [
            ("{ not json", "not valid JSON"),
            (r#"{"version": 9, "network": "mars"}"#, "newer version"),
            (r#"{"version": 1, "network": "mars"}"#, "does not fit"),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("settings.json");
            fs::write(&path, content).unwrap();
            let loaded = load(&path);
            assert_eq!(loaded.settings, Settings::default());
            let notice = loaded.notice.expect("a notice");
            assert!(notice.contains(expect), "{notice}");
            assert!(!path.exists(), "the unreadable file was moved");
            let kept: Vec<_> = fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            assert_eq!(kept.len(), 1);
            assert_eq!(
                fs::read_to_string(&kept[0]).unwrap(),
                content,
                "kept byte for byte"
            );
        }
    }
}
