//! The API key, kept only in the operating system's keychain (keyring-core).
//!
//! On Linux the store is the Secret Service (GNOME Keyring, KWallet) over D-Bus. When no keychain is reachable the
//! app says so and keeps working without a key. A key never goes to a file, a log or the UI.

use std::sync::Arc;

use gateway_client::{ApiKey, InvalidApiKey};
use keyring_core::{Entry, Error as KeyringError};
use tracing::{info, warn};

use crate::settings::NetworkKind;

/// The keychain service name under which the app's keys are stored.
pub const SERVICE: &str = "gateway-desk";

/// What went wrong with the keychain. Never carries a key.
#[derive(Debug, thiserror::Error)]
pub enum SecretsError {
    /// No keychain can be reached (on Linux, no Secret Service answers), with the store's reason; the app works
    /// on without a key.
    #[error("no keychain is available: {0}")]
    Unavailable(String),
    /// What the keychain holds for the network is not a valid API key, with why.
    #[error("the key in the keychain is not a valid API key: {0}")]
    Corrupt(InvalidApiKey),
    /// The keychain was reached but refused to read, store or remove the key (locked, access denied), with its
    /// reason.
    #[error("the keychain refused the operation: {0}")]
    Keychain(String),
}

/// Installs the platform's keychain as the process's credential store, unless one is already installed (a test's mock).
///
/// Returns why it could not, so the app can say so and carry on keyless.
pub fn install_platform_store() -> Result<(), SecretsError> {
    if keyring_core::get_default_store().is_some() {
        return Ok(());
    }
    platform_store().map(keyring_core::set_default_store)
}

#[cfg(target_os = "linux")]
fn platform_store() -> Result<Arc<keyring_core::CredentialStore>, SecretsError> {
    match zbus_secret_service_keyring_store::Store::new() {
        Ok(store) => {
            info!("keychain: Secret Service");
            Ok(store)
        }
        Err(e) => {
            warn!(error = %e, "no Secret Service reachable; API keys cannot be stored");
            Err(SecretsError::Unavailable(e.to_string()))
        }
    }
}

// macOS and Windows: the native stores through keyring-core's own store crates. Not compiled on this project's
// Linux CI machines (no cross toolchains there); the calls follow those crates' documented constructors.
#[cfg(target_os = "macos")]
fn platform_store() -> Result<Arc<keyring_core::CredentialStore>, SecretsError> {
    apple_native_keyring_store::keychain::Store::new()
        .map(|store| store as Arc<keyring_core::CredentialStore>)
        .map_err(|e| SecretsError::Unavailable(e.to_string()))
}

#[cfg(target_os = "windows")]
fn platform_store() -> Result<Arc<keyring_core::CredentialStore>, SecretsError> {
    windows_native_keyring_store::Store::new()
        .map(|store| store as Arc<keyring_core::CredentialStore>)
        .map_err(|e| SecretsError::Unavailable(e.to_string()))
}

#[cfg(not(any(target_os = "linux", target_os = "macos", target_os = "windows")))]
fn platform_store() -> Result<Arc<keyring_core::CredentialStore>, SecretsError> {
    Err(SecretsError::Unavailable(
        "this platform has no keychain store the app knows".into(),
    ))
}

/// The keychain account that holds a network's key (the custom network's key is tied to its URL).
pub fn account(kind: NetworkKind, custom_url: Option<&str>) -> String {
    match (kind, custom_url) {
        (NetworkKind::Custom, Some(url)) => format!("custom:{url}"),
        _ => kind.slug().to_owned(),
    }
}

fn entry(account: &str) -> Result<Entry, SecretsError> {
    Entry::new(SERVICE, account).map_err(map_err)
}

fn map_err(e: KeyringError) -> SecretsError {
    match e {
        KeyringError::NoDefaultStore | KeyringError::NoStorageAccess(_) => {
            SecretsError::Unavailable(e.to_string())
        }
        other => SecretsError::Keychain(other.to_string()),
    }
}

/// Stores (or replaces) the key of `account`.
pub fn store_key(account: &str, key: &ApiKey) -> Result<(), SecretsError> {
    crate::logs::register_secret(key.expose());
    entry(account)?
        .set_password(key.expose())
        .map_err(map_err)?;
    info!(account, "API key stored in the keychain");
    Ok(())
}

/// The API key stored for `account`, read on a blocking thread (the keychain's client blocks); a keychain that
/// cannot be read is logged and the app goes on keyless. Used when connecting to a network and by support lookups.
pub async fn stored_key_or_keyless(account: String) -> Option<ApiKey> {
    tokio::task::spawn_blocking(move || load_key(&account))
        .await
        .unwrap_or_else(|e| Err(SecretsError::Keychain(e.to_string())))
        .unwrap_or_else(|e| {
            warn!(error = %e, "no API key available; continuing keyless");
            None
        })
}

/// The key of `account`, if one is stored. Without a keychain there is no key (the app has said so already).
pub fn load_key(account: &str) -> Result<Option<ApiKey>, SecretsError> {
    if keyring_core::get_default_store().is_none() {
        return Ok(None);
    }
    match entry(account)?.get_password() {
        Ok(secret) => {
            // Whatever the keychain holds is kept out of the logs, valid key or not.
            crate::logs::register_secret(&secret);
            ApiKey::new(&secret)
                .map(Some)
                .map_err(SecretsError::Corrupt)
        }
        Err(KeyringError::NoEntry) => Ok(None),
        Err(e) => Err(map_err(e)),
    }
}

/// Removes the key of `account`; removing a key that is not there is not an error.
pub fn remove_key(account: &str) -> Result<(), SecretsError> {
    match entry(account)?.delete_credential() {
        Ok(()) | Err(KeyringError::NoEntry) => {
            info!(account, "API key removed from the keychain");
            Ok(())
        }
        Err(e) => Err(map_err(e)),
    }
}

/// The keychain account that holds the wallet's sealed recovery phrase (one wallet for every network).
pub const WALLET_ACCOUNT: &str = "wallet";

/// Stores (or replaces) `text` (a sealed, non-secret-by-itself blob) under `account`.
pub fn store_blob(account: &str, text: &str) -> Result<(), SecretsError> {
    entry(account)?.set_password(text).map_err(map_err)
}

/// The blob under `account`, if any.
pub fn load_blob(account: &str) -> Result<Option<String>, SecretsError> {
    if keyring_core::get_default_store().is_none() {
        return Err(SecretsError::Unavailable("no keychain".into()));
    }
    match entry(account)?.get_password() {
        Ok(text) => Ok(Some(text)),
        Err(KeyringError::NoEntry) => Ok(None),
        Err(e) => Err(map_err(e)),
    }
}

/// Removes the blob under `account`; removing what is not there is not an error.
pub fn remove_blob(account: &str) -> Result<(), SecretsError> {
    match entry(account)?.delete_credential() {
        Ok(()) | Err(KeyringError::NoEntry) => Ok(()),
        Err(e) => Err(map_err(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The default store is global to the process: every test of this binary that touches it uses the mock.
    fn mock() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            keyring_core::set_default_store(keyring_core::mock::Store::new().unwrap())
        });
    }

    #[test]
    fn a_sealed_wallet_is_kept_in_the_keychain_and_opens_with_its_password() {
        use crate::wallet::vault::{KdfProfile, Sealed, Secret, open, seal};
        mock();
        let sealed = seal(
            &Secret {
                phrase: "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
                    .into(),
                passphrase: String::new(),
                key: None,
            },
            "correct horse battery",
            KdfProfile::TEST_ONLY,
        )
        .unwrap();
        store_blob(WALLET_ACCOUNT, &serde_json::to_string(&sealed).unwrap()).unwrap();
        let text = load_blob(WALLET_ACCOUNT).unwrap().unwrap();
        assert!(
            !text.contains("abandon"),
            "the keychain holds only the sealed blob"
        );
        let back: Sealed = serde_json::from_str(&text).unwrap();
        assert!(
            open(&back, "correct horse battery")
                .unwrap()
                .phrase
                .starts_with("abandon")
        );
        remove_blob(WALLET_ACCOUNT).unwrap();
        assert_eq!(load_blob(WALLET_ACCOUNT).unwrap(), None);
        remove_blob(WALLET_ACCOUNT).unwrap();
    }

    #[test]
    fn keys_are_stored_replaced_and_removed() {
        mock();
        let account = account(NetworkKind::Custom, Some("https://gw.example"));
        assert_eq!(account, "custom:https://gw.example");
        assert_eq!(load_key(&account).unwrap(), None);
        let first = ApiKey::new("0123456789abcdef0123456789abcdef").unwrap();
        let second = ApiKey::new("fedcba9876543210fedcba9876543210").unwrap();
        store_key(&account, &first).unwrap();
        assert_eq!(load_key(&account).unwrap(), Some(first));
        store_key(&account, &second).unwrap();
        assert_eq!(load_key(&account).unwrap(), Some(second));
        remove_key(&account).unwrap();
        assert_eq!(load_key(&account).unwrap(), None);
        remove_key(&account).unwrap();
    }

    #[test]
    fn a_damaged_entry_is_reported_without_its_content() {
        mock();
        Entry::new(SERVICE, "damaged")
            .unwrap()
            .set_password("not-a-key")
            .unwrap();
        let err = load_key("damaged").unwrap_err();
        assert!(matches!(
            err,
            SecretsError::Corrupt(InvalidApiKey::Length(9))
        ));
        assert!(!err.to_string().contains("not-a-key"));
    }
}
