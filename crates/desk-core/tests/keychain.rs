//! The API key against the operating system's real keychain (a Secret Service on Linux).
//!
//! These tests need a running, unlocked Secret Service, so they are ignored by a plain `cargo test`;
//! `cargo xtask test` runs them inside a private D-Bus session with gnome-keyring unlocked.

use desk_core::secrets::{self, SERVICE};
use desk_core::settings::NetworkKind;
use gateway_client::ApiKey;

#[test]
#[ignore = "needs a Secret Service: run by `cargo xtask test`"]
fn the_api_key_lives_in_the_real_keychain() {
    secrets::install_platform_store().expect("a Secret Service is reachable");
    let store = keyring_core::get_default_store().expect("a store is installed");
    assert!(
        !format!("{store:?}").to_lowercase().contains("mock"),
        "the real store is in use: {store:?}"
    );

    let account = secrets::account(
        NetworkKind::Custom,
        Some(&format!("http://keychain-test-{}", std::process::id())),
    );
    assert_eq!(secrets::load_key(&account).unwrap(), None);
    let key = ApiKey::new("K3yFromTheRealSecretService00001").unwrap();
    secrets::store_key(&account, &key).unwrap();

    // A fresh entry reads what the Secret Service holds, not a cached value.
    let raw = keyring_core::Entry::new(SERVICE, &account)
        .unwrap()
        .get_password()
        .unwrap();
    assert_eq!(raw, key.expose());
    assert_eq!(secrets::load_key(&account).unwrap(), Some(key));

    let replacement = ApiKey::new("K3yFromTheRealSecretService00002").unwrap();
    secrets::store_key(&account, &replacement).unwrap();
    assert_eq!(secrets::load_key(&account).unwrap(), Some(replacement));

    secrets::remove_key(&account).unwrap();
    assert_eq!(secrets::load_key(&account).unwrap(), None);
    assert!(matches!(
        keyring_core::Entry::new(SERVICE, &account)
            .unwrap()
            .get_password(),
        Err(keyring_core::Error::NoEntry)
    ));
}

/// The wallet in the real keychain, as the window and `gateway wallet` keep it: sealed (the phrase is not in the
/// keychain's clear text), opened with its password only, never overwritten, removed.
#[test]
#[ignore = "needs a Secret Service: run by `cargo xtask test`"]
fn the_wallet_is_kept_sealed_in_the_real_keychain() {
    use desk_core::wallet::kept::{self, KeptError};
    use desk_core::wallet::vault::KdfProfile;

    secrets::install_platform_store().expect("a Secret Service is reachable");
    kept::remove().unwrap();
    let phrase = "legal winner thank year wave sausage worth useful legal winner thank yellow";
    kept::keep(phrase, "", "a long app password", KdfProfile::TEST_ONLY).unwrap();
    let raw = keyring_core::Entry::new(SERVICE, secrets::WALLET_ACCOUNT)
        .unwrap()
        .get_password()
        .unwrap();
    assert!(
        !raw.contains("legal") && !raw.contains("sausage"),
        "sealed: {raw}"
    );
    assert!(matches!(
        kept::keep(phrase, "", "a long app password", KdfProfile::TEST_ONLY),
        Err(KeptError::AlreadyKept)
    ));
    assert!(matches!(
        kept::open("not the password"),
        Err(KeptError::Vault(_))
    ));
    assert_eq!(kept::open("a long app password").unwrap().phrase, phrase);
    kept::remove().unwrap();
    assert!(matches!(
        kept::open("a long app password"),
        Err(KeptError::NoWallet)
    ));
}
