//! The recovery phrase at rest: sealed under the app password, the sealed blob kept in the OS keychain.
//!
//! The keychain alone is readable by any process of the user once it is unlocked, so the phrase is never stored there
//! in the clear: a key is derived from the app password with **Argon2id** (memory-hard; [`KdfProfile::STANDARD`]:
//! 64 MiB, 3 passes) and a random 16-byte salt, and the phrase (with its optional BIP-39 passphrase) is sealed with
//! **XChaCha20-Poly1305** under a random 24-byte nonce. The blob is JSON (`version`, the KDF's parameters, salt,
//! nonce, ciphertext; Base64), so a later version can raise the parameters and still open older blobs.
//!
//! [`KdfProfile::TEST_ONLY`] (8 KiB, 1 pass) keeps tests fast; a release build refuses to seal or open with it
//! ([`VaultError::WeakProfile`]). A wrong password and a damaged blob are told apart only as far as the AEAD allows:
//! both fail authentication ("the password is wrong, or the stored wallet is damaged").

use argon2::{Algorithm, Argon2, Params, Version};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

/// The blob format's version.
pub const VERSION: u32 = 1;
/// The shortest app password accepted.
pub const MIN_PASSWORD_CHARS: usize = 10;

/// Argon2id's cost parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KdfProfile {
    /// Memory, KiB.
    pub memory_kib: u32,
    /// Passes.
    pub iterations: u32,
    /// Lanes.
    pub parallelism: u32,
}

impl KdfProfile {
    /// What the app uses: 64 MiB, 3 passes, 1 lane (104 ms, median of 5, in a release build on the reference machine).
    pub const STANDARD: Self = Self {
        memory_kib: 64 * 1024,
        iterations: 3,
        parallelism: 1,
    };
    /// For tests only (feature `test-utils`): 8 KiB, 1 pass. Release builds refuse it.
    #[cfg(any(test, feature = "test-utils"))]
    pub const TEST_ONLY: Self = Self {
        memory_kib: 8,
        iterations: 1,
        parallelism: 1,
    };

    /// Whether this build may use the profile: a release build refuses anything weaker than [`Self::STANDARD`].
    pub fn allowed(self) -> bool {
        cfg!(debug_assertions) || self.at_least_standard()
    }

    fn at_least_standard(self) -> bool {
        self.memory_kib >= Self::STANDARD.memory_kib && self.iterations >= Self::STANDARD.iterations
    }
}

/// What is sealed: the phrase and its optional BIP-39 passphrase, or (with an empty phrase) a single private key of
/// one chain family as it was typed.
#[derive(Serialize, Deserialize)]
pub struct Secret {
    /// The BIP-39 recovery phrase, words separated by single spaces; empty for a single imported key.
    pub phrase: String,
    /// The phrase's optional BIP-39 passphrase (empty: none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub passphrase: String,
    /// The single imported private key, when the wallet is one instead of a phrase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<KeySecret>,
}

/// A single imported private key and its family.
#[derive(Serialize, Deserialize)]
pub struct KeySecret {
    /// The chain family the key belongs to.
    pub family: super::KeyFamily,
    /// The key as it was typed (WIF, hex or Base58, by family).
    pub text: String,
}

impl Secret {
    /// A recovery phrase with its passphrase.
    pub fn phrase(phrase: &str, passphrase: &str) -> Self {
        Self {
            phrase: phrase.to_owned(),
            passphrase: passphrase.to_owned(),
            key: None,
        }
    }

    /// The wallet's key material.
    pub fn seed(&self) -> Result<super::Seed, super::WalletError> {
        match &self.key {
            Some(key) => super::Seed::from_key(key.family, &key.text),
            None => super::Seed::from_phrase(&self.phrase, &self.passphrase),
        }
    }

    /// What "Show recovery phrase" shows: the phrase's words, or the imported key as it was typed.
    pub fn shown(&self) -> Vec<String> {
        match &self.key {
            Some(key) => vec![key.text.clone()],
            None => self.phrase.split(' ').map(str::to_owned).collect(),
        }
    }
}

impl Drop for Secret {
    fn drop(&mut self) {
        use zeroize::Zeroize as _;
        self.phrase.zeroize();
        self.passphrase.zeroize();
        if let Some(key) = &mut self.key {
            key.text.zeroize();
        }
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(…)")
    }
}

/// The sealed blob as kept in the keychain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Sealed {
    /// The blob's format version ([`VERSION`]); a newer one is not opened.
    pub version: u32,
    /// The Argon2id parameters the key was derived with, so the blob opens after the defaults change.
    pub kdf: KdfProfile,
    /// The random 16-byte salt of the key derivation, Base64.
    pub salt: String,
    /// The random 24-byte XChaCha20-Poly1305 nonce, Base64.
    pub nonce: String,
    /// The sealed [`Secret`] (JSON) with its authentication tag, Base64.
    pub ciphertext: String,
}

impl Sealed {
    /// The blob as the keychain keeps it (JSON).
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads the keychain's blob.
    pub fn from_text(text: &str) -> Result<Self, VaultError> {
        serde_json::from_str(text)
            .map_err(|_| VaultError::Unreadable("its content is not a wallet".into()))
    }
}

/// Why sealing or opening failed, as a sentence with the next step.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VaultError {
    /// The app password is shorter than [`MIN_PASSWORD_CHARS`]; nothing was sealed.
    #[error(
        "The app password must be at least {MIN_PASSWORD_CHARS} characters long. Choose a longer one."
    )]
    PasswordTooShort,
    /// Opening failed authentication: the password is wrong or the blob is damaged, which the cipher cannot tell apart.
    #[error(
        "The password is wrong, or the stored wallet is damaged. Try the password again; if it is right, remove the \
         wallet and import its recovery phrase again."
    )]
    WrongPasswordOrDamaged,
    /// The blob is not a sealed wallet (not its JSON, not Base64, unusable parameters), with what is wrong.
    #[error(
        "The stored wallet cannot be read ({0}). Remove the wallet and import its recovery phrase again."
    )]
    Unreadable(String),
    /// The blob was written by a newer version of the app: its format version, above this build's [`VERSION`].
    #[error(
        "The stored wallet is of a newer version of Gateway Desk ({0}). Update the app to open it."
    )]
    Newer(u32),
    /// The key-derivation profile is weaker than a release build seals or opens with ([`KdfProfile::allowed`]).
    #[error("This key-derivation profile is for tests only; a release build does not use it.")]
    WeakProfile,
    /// The cryptography failed (no randomness, the key derivation or the encryption refused), with why.
    #[error("The wallet could not be sealed ({0}).")]
    Crypto(String),
}

/// The 32-byte key of `password` and `salt` under `profile`.
fn derive_key(
    password: &str,
    salt: &[u8],
    profile: KdfProfile,
) -> Result<Zeroizing<[u8; 32]>, VaultError> {
    if !profile.allowed() {
        return Err(VaultError::WeakProfile);
    }
    let params = Params::new(
        profile.memory_kib,
        profile.iterations,
        profile.parallelism,
        Some(32),
    )
    .map_err(|e| VaultError::Unreadable(e.to_string()))?;
    let mut key = Zeroizing::new([0u8; 32]);
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
        .hash_password_into(password.as_bytes(), salt, key.as_mut())
        .map_err(|e| VaultError::Crypto(e.to_string()))?;
    Ok(key)
}

/// Seals `secret` under `password` with `profile`.
pub fn seal(secret: &Secret, password: &str, profile: KdfProfile) -> Result<Sealed, VaultError> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(VaultError::PasswordTooShort);
    }
    let mut salt = [0u8; 16];
    let mut nonce = [0u8; 24];
    getrandom(&mut salt)?;
    getrandom(&mut nonce)?;
    let key = derive_key(password, &salt, profile)?;
    let plain =
        Zeroizing::new(serde_json::to_vec(secret).map_err(|e| VaultError::Crypto(e.to_string()))?);
    let cipher = XChaCha20Poly1305::new(chacha20poly1305::Key::from_slice(key.as_slice()));
    let ciphertext = cipher
        .encrypt(XNonce::from_slice(&nonce), plain.as_slice())
        .map_err(|e| VaultError::Crypto(e.to_string()))?;
    Ok(Sealed {
        version: VERSION,
        kdf: profile,
        salt: STANDARD.encode(salt),
        nonce: STANDARD.encode(nonce),
        ciphertext: STANDARD.encode(ciphertext),
    })
}

/// Opens `sealed` with `password`.
pub fn open(sealed: &Sealed, password: &str) -> Result<Secret, VaultError> {
    if sealed.version > VERSION {
        return Err(VaultError::Newer(sealed.version));
    }
    let decode = |field: &str, text: &str| {
        STANDARD
            .decode(text)
            .map_err(|_| VaultError::Unreadable(format!("its {field} is not Base64")))
    };
    let salt = decode("salt", &sealed.salt)?;
    let nonce = decode("nonce", &sealed.nonce)?;
    let ciphertext = decode("ciphertext", &sealed.ciphertext)?;
    if nonce.len() != 24 || salt.len() < 8 {
        return Err(VaultError::Unreadable(
            "its nonce or salt has the wrong length".into(),
        ));
    }
    let key = derive_key(password, &salt, sealed.kdf)?;
    let cipher = XChaCha20Poly1305::new(chacha20poly1305::Key::from_slice(key.as_slice()));
    let plain = Zeroizing::new(
        cipher
            .decrypt(XNonce::from_slice(&nonce), ciphertext.as_slice())
            .map_err(|_| VaultError::WrongPasswordOrDamaged)?,
    );
    serde_json::from_slice(&plain)
        .map_err(|_| VaultError::Unreadable("its content is not a wallet".into()))
}

/// Fills `buf` from the operating system's randomness.
pub(crate) fn getrandom(buf: &mut [u8]) -> Result<(), VaultError> {
    use chacha20poly1305::aead::rand_core::RngCore as _;
    chacha20poly1305::aead::OsRng
        .try_fill_bytes(buf)
        .map_err(|e| VaultError::Crypto(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret() -> Secret {
        Secret {
            phrase: "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
                .into(),
            passphrase: "TREZOR".into(),
            key: None,
        }
    }

    #[test]
    fn a_sealed_phrase_opens_with_its_password_only() {
        let sealed = seal(&secret(), "correct horse battery", KdfProfile::TEST_ONLY).unwrap();
        let text = serde_json::to_string(&sealed).unwrap();
        assert!(
            !text.contains("abandon") && !text.contains("TREZOR"),
            "{text}"
        );
        let opened = open(&sealed, "correct horse battery").unwrap();
        assert_eq!(opened.phrase, secret().phrase);
        assert_eq!(opened.passphrase, "TREZOR");
        assert_eq!(format!("{opened:?}"), "Secret(…)");
        assert_eq!(
            open(&sealed, "correct horse batterY").unwrap_err(),
            VaultError::WrongPasswordOrDamaged
        );
        // Two seals of the same phrase share nothing: new salt, new nonce.
        let again = seal(&secret(), "correct horse battery", KdfProfile::TEST_ONLY).unwrap();
        assert_ne!(again.salt, sealed.salt);
        assert_ne!(again.ciphertext, sealed.ciphertext);
    }

    #[test]
    fn a_damaged_or_newer_blob_or_a_short_password_is_refused_with_a_sentence() {
        let sealed = seal(&secret(), "correct horse battery", KdfProfile::TEST_ONLY).unwrap();
        let mut flipped = STANDARD.decode(&sealed.ciphertext).unwrap();
        flipped[0] ^= 1;
        let damaged = Sealed {
            ciphertext: STANDARD.encode(flipped),
            ..sealed.clone()
        };
        assert_eq!(
            open(&damaged, "correct horse battery").unwrap_err(),
            VaultError::WrongPasswordOrDamaged
        );
        let newer = Sealed {
            version: VERSION + 1,
            ..sealed.clone()
        };
        assert_eq!(
            open(&newer, "correct horse battery").unwrap_err(),
            VaultError::Newer(2)
        );
        let garbled = Sealed {
            nonce: "***".into(),
            ..sealed
        };
        assert!(matches!(
            open(&garbled, "correct horse battery"),
            Err(VaultError::Unreadable(_))
        ));
        assert_eq!(
            seal(&secret(), "short", KdfProfile::TEST_ONLY).unwrap_err(),
            VaultError::PasswordTooShort
        );
    }

    #[test]
    fn the_standard_profile_is_allowed_everywhere_and_the_test_profile_only_in_debug_builds() {
        assert!(KdfProfile::STANDARD.allowed());
        assert!(KdfProfile::STANDARD.at_least_standard());
        assert!(!KdfProfile::TEST_ONLY.at_least_standard());
        // Test binaries are debug builds here; a release build refuses it (see `allowed`).
        assert_eq!(KdfProfile::TEST_ONLY.allowed(), cfg!(debug_assertions));
    }
}
