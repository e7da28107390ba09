//! The wallet kept in the OS keychain, without a desk: what the window (through [`crate::Desk`]) and the `gateway`
//! command line share. Blocking calls (the keychain's client and Argon2id); the desk runs them on a blocking thread.
//!
//! One wallet per user (the keychain account [`WALLET_ACCOUNT`]); a kept wallet is never overwritten.

use zeroize::Zeroizing;

use super::vault::{self, KdfProfile, Sealed, Secret, VaultError};
use super::{KeyFamily, Seed, WalletError};
use crate::secrets::{self, SecretsError, WALLET_ACCOUNT};

/// Why the kept wallet could not be read, stored or removed.
#[derive(Debug, thiserror::Error)]
pub enum KeptError {
    /// The keychain could not be reached, or refused to read, store or remove the sealed wallet.
    #[error("{0}")]
    Keychain(#[from] SecretsError),
    /// The sealed wallet could not be sealed or opened (a short or wrong password, a damaged or newer blob).
    #[error("{0}")]
    Vault(#[from] VaultError),
    /// The phrase or key is not valid, or a key could not be derived from it.
    #[error("{0}")]
    Wallet(#[from] WalletError),
    /// A wallet is already in the keychain; it is never overwritten.
    #[error(
        "A wallet is already kept. Remove it first (after moving its money out, or with its recovery phrase written \
         down) to create or import another."
    )]
    AlreadyKept,
    /// The keychain holds no wallet.
    #[error("There is no wallet to open. Create or import one first.")]
    NoWallet,
}

/// The sealed wallet in the keychain, if there is one.
pub fn load() -> Result<Option<Sealed>, KeptError> {
    secrets::load_blob(WALLET_ACCOUNT)?
        .map(|text| Sealed::from_text(&text).map_err(KeptError::from))
        .transpose()
}

/// The phrase's words, separated by single spaces and in lower case, in zeroizing memory.
pub fn normalized(phrase: &str) -> Zeroizing<String> {
    let mut words = Zeroizing::new(String::with_capacity(phrase.len()));
    for word in phrase.split_whitespace() {
        if !words.is_empty() {
            words.push(' ');
        }
        words.extend(word.chars().flat_map(char::to_lowercase));
    }
    words
}

/// Checks the phrase and the password, seals the phrase under the password with `profile` and keeps it in the
/// keychain; gives the seed. Refused when a wallet is kept already (nothing is overwritten).
pub fn keep(
    phrase: &str,
    passphrase: &str,
    password: &str,
    profile: KdfProfile,
) -> Result<Seed, KeptError> {
    check_password(password)?;
    let seed = Seed::from_phrase(phrase, passphrase)?;
    refuse_if_kept()?;
    let secret = Secret::phrase(normalized(phrase).as_str(), passphrase);
    store(&secret, password, profile)?;
    Ok(seed)
}

/// Checks a single private key of `family` and the password, seals the key under the password and keeps it in the
/// keychain; gives the key material. Refused when a wallet is kept already.
pub fn keep_key(
    family: KeyFamily,
    text: &str,
    password: &str,
    profile: KdfProfile,
) -> Result<Seed, KeptError> {
    check_password(password)?;
    let seed = Seed::from_key(family, text)?;
    refuse_if_kept()?;
    let secret = Secret {
        phrase: String::new(),
        passphrase: String::new(),
        key: Some(vault::KeySecret {
            family,
            text: text.trim().to_owned(),
        }),
    };
    store(&secret, password, profile)?;
    Ok(seed)
}

fn check_password(password: &str) -> Result<(), KeptError> {
    if password.chars().count() < vault::MIN_PASSWORD_CHARS {
        return Err(VaultError::PasswordTooShort.into());
    }
    Ok(())
}

/// Nothing is overwritten: a kept wallet refuses another.
fn refuse_if_kept() -> Result<(), KeptError> {
    if load()?.is_some() {
        return Err(KeptError::AlreadyKept);
    }
    Ok(())
}

fn store(secret: &Secret, password: &str, profile: KdfProfile) -> Result<(), KeptError> {
    let sealed = vault::seal(secret, password, profile)?;
    secrets::store_blob(WALLET_ACCOUNT, &sealed.to_text())?;
    Ok(())
}

/// Opens the kept wallet with its password.
pub fn open(password: &str) -> Result<Secret, KeptError> {
    let sealed = load()?.ok_or(KeptError::NoWallet)?;
    Ok(vault::open(&sealed, password)?)
}

/// Removes the kept wallet (removing none is not an error).
pub fn remove() -> Result<(), KeptError> {
    Ok(secrets::remove_blob(WALLET_ACCOUNT)?)
}
