//! The app's own wallet, first part: the accounts of a BIP-39 recovery phrase by the standard paths.
//!
//! | chain | path | address |
//! |---|---|---|
//! | Bitcoin | `m/84'/0'/0'/0/0` on mainnet, `m/84'/1'/0'/0/0` on test networks (BIP-84) | native SegWit (P2WPKH) of the network |
//! | EVM chains | `m/44'/60'/0'/0/0` | EIP-55 |
//! | Tron | `m/44'/195'/0'/0/0` | Base58Check of `0x41` and the EVM-style 20 bytes |
//! | Solana | `m/44'/501'/0'/0'` (SLIP-10 ed25519, every step hardened) | the ed25519 public key, Base58 |
//!
//! Each family's path, kind of key and import form is its key rule in gateway-client's chain table
//! ([`ChainFamily::key_rule`]), which this module reads without naming the family. secp256k1 keys come from
//! rust-bitcoin's BIP-32; the phrase from `bip39` (rust-bitcoin's crate); ed25519 keys (Solana's) from
//! `ed25519-dalek-bip32`. The seed lives in zeroizing memory and never prints. [`vault`] seals the phrase under the
//! app password for the keychain. Signing comes next (issue 12): nothing here signs yet.

pub mod bitcoin_signer;
pub mod keeper;
pub mod vault;

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use bitcoin::bip32::{DerivationPath, Xpriv};
use bitcoin::secp256k1::{Secp256k1, SecretKey};
use bitcoin::{Address, CompressedPublicKey, NetworkKind};
use gateway_client::address::BitcoinNetwork;
use gateway_client::chains::{ChainFamily, KeyScheme};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use zeroize::Zeroizing;

/// BIP-84 account 0, first receive address, on Bitcoin mainnet.
pub const BITCOIN_PATH_MAINNET: &str = "m/84'/0'/0'/0/0";
/// The same on test networks (coin type 1).
pub const BITCOIN_PATH_TEST: &str = "m/84'/1'/0'/0/0";
/// The EVM account.
pub const EVM_PATH: &str = gateway_client::chains::EVM_KEY_PATH;

/// Why a phrase or a derivation cannot be used, as a sentence with the next step.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WalletError {
    /// The recovery phrase is not a valid BIP-39 phrase.
    #[error(
        "The recovery phrase is not valid: {0}. Check each word against the BIP-39 English list and their order, and \
         type it again."
    )]
    InvalidPhrase(String),
    /// A private key typed for import is not one of its family.
    #[error(
        "The {family} private key is not valid: {why}. Copy it again from the wallet that exported it."
    )]
    InvalidKey {
        /// The family's name as a person reads it (`Bitcoin`, `EVM`, `Tron`, `Solana`).
        family: &'static str,
        /// What is wrong with it, such as "it is not hexadecimal".
        why: String,
    },
    /// The wallet has no key of this family (a single key of another family was imported).
    #[error(
        "This wallet holds a single {0} key only; it has no {1} account. Import a recovery phrase, or a {1} key, to \
         use {1}."
    )]
    NoKey(&'static str, &'static str),
    /// A key could not be derived (practically impossible; a broken seed).
    #[error(
        "A key of the wallet could not be derived ({0}). Remove the wallet and import the phrase again."
    )]
    Derivation(String),
}

/// The wallet's key material, wiped when dropped, never printed: the 64-byte BIP-39 seed of a recovery phrase, or a
/// single private key of one chain family (imported on its own; the wallet then has that family's account only).
pub struct Seed(Material);

enum Material {
    Phrase(Zeroizing<[u8; 64]>),
    Key {
        family: KeyFamily,
        secret: Zeroizing<[u8; 32]>,
    },
}

/// The chain family of a single imported private key, and of each of the wallet's accounts: a [`ChainFamily`], whose
/// key rule ([`ChainFamily::key_rule`]) says how its key is derived, imported and named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(transparent)]
#[ts(export_to = "KeyFamily.ts")]
pub struct KeyFamily(pub ChainFamily);

impl KeyFamily {
    /// Bitcoin's key: a WIF key (compressed), paid to as native SegWit.
    pub const BITCOIN: Self = Self(ChainFamily::Bitcoin);

    /// The key of every EVM chain: 32 bytes in hex (`0x` optional).
    pub const EVM: Self = Self(ChainFamily::Evm);

    /// Every family of key, in the order the window offers them for import: EVM's first, then the others in
    /// [`ChainFamily::ALL`]'s order.
    pub const ALL: [Self; ChainFamily::ALL.len()] = {
        let mut all = [Self::EVM; ChainFamily::ALL.len()];
        let mut from = 0;
        let mut to = 1;
        while from < ChainFamily::ALL.len() {
            if !matches!(ChainFamily::ALL[from], ChainFamily::Evm) {
                all[to] = Self(ChainFamily::ALL[from]);
                to += 1;
            }
            from += 1;
        }
        all
    };

    /// The order the wallet's accounts are listed in (the window's list, `gateway wallet address`):
    /// [`ChainFamily::ALL`]'s, which is also the order of [`Accounts`]' keys.
    pub const LISTED: [Self; ChainFamily::ALL.len()] = {
        let mut listed = [Self::EVM; ChainFamily::ALL.len()];
        let mut i = 0;
        while i < ChainFamily::ALL.len() {
            listed[i] = Self(ChainFamily::ALL[i]);
            i += 1;
        }
        listed
    };

    /// The family as the wallet's accounts are keyed by it (`bitcoin`, `evm`, …).
    pub fn key(self) -> &'static str {
        self.0.key()
    }

    /// How a key of the family is written, as the window's import list names it.
    pub fn import_label(self) -> &'static str {
        self.0.key_rule().import_label
    }

    /// The family's account as the wallet's list of accounts names it, in [`Accounts::listed`]'s order.
    pub fn account_label(self) -> &'static str {
        self.0.key_rule().account_label
    }

    /// The family's name in a sentence: `Bitcoin`, `EVM`, …
    pub fn name(self) -> &'static str {
        self.0.name()
    }

    /// How the family's key is derived and imported.
    fn scheme(self) -> KeyScheme {
        self.0.key_rule().scheme
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seed(…)")
    }
}

impl Seed {
    /// The seed of `phrase` (words separated by any whitespace, case ignored) and the optional `passphrase`.
    pub fn from_phrase(phrase: &str, passphrase: &str) -> Result<Self, WalletError> {
        // Built in place, with room reserved up front, so no copy of the words is left behind unwiped.
        let mut words = Zeroizing::new(String::with_capacity(phrase.len() * 2));
        for word in phrase.split_whitespace() {
            if !words.is_empty() {
                words.push(' ');
            }
            words.extend(word.chars().flat_map(char::to_lowercase));
        }
        let mnemonic = bip39::Mnemonic::parse_in_normalized(bip39::Language::English, &words)
            .map_err(|e| WalletError::InvalidPhrase(e.to_string()))?;
        Ok(Self(Material::Phrase(Zeroizing::new(
            mnemonic.to_seed_normalized(passphrase),
        ))))
    }

    /// A single private key of `family`, as that family's wallets export it (see [`KeyFamily`]).
    pub fn from_key(family: KeyFamily, text: &str) -> Result<Self, WalletError> {
        let text = Zeroizing::new(text.trim().to_owned());
        let bad = |why: &str| WalletError::InvalidKey {
            family: family.name(),
            why: why.to_owned(),
        };
        let mut secret = Zeroizing::new([0u8; 32]);
        match family.scheme() {
            KeyScheme::Bitcoin => {
                let key = bitcoin::PrivateKey::from_wif(&text).map_err(|_| {
                    bad("it is not a WIF private key (it starts with K, L, 5, c or 9)")
                })?;
                if !key.compressed {
                    return Err(bad(
                        "it is an uncompressed key, which native SegWit cannot use",
                    ));
                }
                secret.copy_from_slice(&key.inner.secret_bytes());
            }
            KeyScheme::Secp256k1 { .. } => {
                let hex = text.strip_prefix("0x").unwrap_or(&text);
                let bytes = Zeroizing::new(
                    alloy_primitives::hex::decode(hex).map_err(|_| bad("it is not hexadecimal"))?,
                );
                if bytes.len() != 32 {
                    return Err(bad("it is not 32 bytes (64 hexadecimal characters)"));
                }
                secret.copy_from_slice(&bytes);
            }
            KeyScheme::Ed25519 { .. } => {
                // Measured before it is decoded: a 64-byte keypair has at most 88 Base58 characters.
                let bytes = Zeroizing::new(
                    gateway_client::base58::decode(text.as_str(), 64).map_err(|err| match err {
                        gateway_client::base58::Base58Error::TooLong { .. } => bad(&format!(
                            "it is too long for a {} key (a keypair has at most 88 Base58 characters)",
                            family.name()
                        )),
                        _ => bad("it is not Base58"),
                    })?,
                );
                match bytes.len() {
                    64 => {
                        secret.copy_from_slice(&bytes[..32]);
                        let public =
                            ed25519_dalek_bip32::SigningKey::from_bytes(&secret).verifying_key();
                        if public.as_bytes() != &bytes[32..] {
                            return Err(bad(
                                "its two halves do not belong together (the public key is not the secret's)",
                            ));
                        }
                    }
                    32 => secret.copy_from_slice(&bytes),
                    _ => return Err(bad("it is neither a 64-byte keypair nor a 32-byte secret")),
                }
            }
        }
        if !matches!(family.scheme(), KeyScheme::Ed25519 { .. })
            && SecretKey::from_slice(secret.as_slice()).is_err()
        {
            return Err(bad("it is not a valid secp256k1 key"));
        }
        Ok(Self(Material::Key { family, secret }))
    }

    /// The BIP-39 seed, when the wallet is a recovery phrase (tests and the signer).
    pub fn bytes(&self) -> Option<&[u8; 64]> {
        match &self.0 {
            Material::Phrase(seed) => Some(seed),
            Material::Key { .. } => None,
        }
    }

    /// The family of a single-key wallet; `None` for a recovery phrase.
    pub fn key_family(&self) -> Option<KeyFamily> {
        match &self.0 {
            Material::Phrase(_) => None,
            Material::Key { family, .. } => Some(*family),
        }
    }
}

/// A new recovery phrase of `words` words (12 or 24) from the operating system's randomness.
pub fn new_phrase(words: usize) -> Result<Zeroizing<String>, WalletError> {
    let mnemonic = bip39::Mnemonic::generate_in(bip39::Language::English, words)
        .map_err(|e| WalletError::InvalidPhrase(e.to_string()))?;
    Ok(Zeroizing::new(mnemonic.to_string()))
}

/// The wallet's address on each chain family, with the path it was derived by: an object keyed by the family
/// (`bitcoin`, `evm`, …), in [`KeyFamily::LISTED`]'s order, without the families the wallet has no key of.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(transparent)]
#[ts(export_to = "WalletAccounts.ts")]
pub struct Accounts(BTreeMap<KeyFamily, Account>);

impl Accounts {
    /// The Bitcoin account, or why there is none.
    pub fn bitcoin(&self) -> Result<&Account, WalletError> {
        self.required(KeyFamily::BITCOIN)
    }

    /// The EVM account, or why there is none.
    pub fn evm(&self) -> Result<&Account, WalletError> {
        self.required(KeyFamily::EVM)
    }

    /// The account of `family`, or why there is none.
    pub fn required(&self, family: KeyFamily) -> Result<&Account, WalletError> {
        self.of(family).ok_or_else(|| self.missing(family.name()))
    }

    /// The account that signs on `chain` (by its family), when the wallet has one.
    pub fn for_chain(&self, chain: &str) -> Option<&Account> {
        self.of(KeyFamily(gateway_client::address::chain_family(chain)?))
    }

    /// The account of `family`, when the wallet has one.
    pub fn of(&self, family: KeyFamily) -> Option<&Account> {
        self.0.get(&family)
    }

    /// The accounts the wallet has, each with its family, in [`KeyFamily::LISTED`]'s order.
    pub fn listed(&self) -> Vec<(KeyFamily, &Account)> {
        self.0
            .iter()
            .map(|(family, account)| (*family, account))
            .collect()
    }

    fn missing(&self, wanted: &'static str) -> WalletError {
        let held = self.0.keys().next().map_or("other", |family| family.name());
        WalletError::NoKey(held, wanted)
    }
}

/// One account: its address and derivation path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "WalletAccount.ts")]
pub struct Account {
    /// The account's address in its chain's usual form (native SegWit, EIP-55, Tron Base58Check, Solana Base58).
    pub address: String,
    /// The BIP-32 derivation path it comes from, or "imported key" for a single imported key.
    pub path: String,
}

/// The accounts of `seed`, Bitcoin's on `network`: one per family for a recovery phrase, the one of its family for a
/// single key (the path then reads "imported key"). Each family's key is made by its rule ([`ChainFamily::key_rule`]).
pub fn accounts(seed: &Seed, network: BitcoinNetwork) -> Result<Accounts, WalletError> {
    let secp = Secp256k1::new();
    let path_of = |path: &str| {
        if seed.key_family().is_some() {
            IMPORTED.to_owned()
        } else {
            path.to_owned()
        }
    };
    let mut held = BTreeMap::new();
    for family in KeyFamily::LISTED {
        let account = match family.scheme() {
            KeyScheme::Bitcoin => {
                let path = bitcoin_path(network);
                secp_key(seed, path, family)?.map(|key| {
                    let public = CompressedPublicKey(key.public_key(&secp));
                    Account {
                        address: Address::p2wpkh(&public, bitcoin::Network::from(network))
                            .to_string(),
                        path: path_of(path),
                    }
                })
            }
            KeyScheme::Secp256k1 { path } => secp_key(seed, path, family)?
                .and_then(|key| family.0.account_from_body(evm_address_bytes(&key, &secp)))
                .map(|address| Account {
                    address,
                    path: path_of(path),
                }),
            KeyScheme::Ed25519 { path } => ed25519_key(seed, path, family)?.map(|key| Account {
                address: bs58::encode(key.verifying_key().to_bytes()).into_string(),
                path: path_of(path),
            }),
        };
        if let Some(account) = account {
            held.insert(family, account);
        }
    }
    Ok(Accounts(held))
}

/// What an imported key's account shows instead of a derivation path.
pub const IMPORTED: &str = "imported key";

/// The signer of the wallet's EVM account (`m/44'/60'/0'/0/0`, or the imported EVM key); its key is wiped when it is
/// dropped.
pub fn evm_signer(seed: &Seed) -> Result<alloy::signers::local::PrivateKeySigner, WalletError> {
    let key = secp_key(seed, EVM_PATH, KeyFamily::EVM)?.ok_or_else(|| {
        WalletError::NoKey(seed.key_family().map_or("other", KeyFamily::name), "EVM")
    })?;
    let bytes = Zeroizing::new(key.secret_bytes());
    alloy::signers::local::PrivateKeySigner::from_slice(bytes.as_slice())
        .map_err(|e| WalletError::Derivation(e.to_string()))
}

/// The secp256k1 signing key of the wallet's account of `family` (its rule's path, or the imported key of the family),
/// for a family whose calls are signed with k256 (Tron's); k256 wipes it when it is dropped.
pub fn secp_signing_key(
    seed: &Seed,
    family: KeyFamily,
) -> Result<k256::ecdsa::SigningKey, WalletError> {
    let KeyScheme::Secp256k1 { path } = family.scheme() else {
        return Err(WalletError::Derivation(format!(
            "{} keys are not secp256k1 keys at a BIP-32 path",
            family.name()
        )));
    };
    let key = secp_key(seed, path, family)?.ok_or_else(|| {
        WalletError::NoKey(
            seed.key_family().map_or("other", KeyFamily::name),
            family.name(),
        )
    })?;
    let bytes = Zeroizing::new(key.secret_bytes());
    k256::ecdsa::SigningKey::from_slice(bytes.as_slice())
        .map_err(|e| WalletError::Derivation(e.to_string()))
}

/// The BIP-84 path of the wallet's Bitcoin account on `network` (coin type 0 on mainnet, 1 elsewhere).
pub fn bitcoin_path(network: BitcoinNetwork) -> &'static str {
    match network {
        BitcoinNetwork::Mainnet => BITCOIN_PATH_MAINNET,
        _ => BITCOIN_PATH_TEST,
    }
}

/// The secp256k1 key of `seed` at `path` (BIP-32), or the imported key when it is of `family`; `None` when a
/// single key of another family was imported.
pub(crate) fn secp_key(
    seed: &Seed,
    path: &str,
    family: KeyFamily,
) -> Result<Option<SecretKey>, WalletError> {
    match &seed.0 {
        Material::Key { family: f, secret } if *f == family => {
            SecretKey::from_slice(secret.as_slice())
                .map(Some)
                .map_err(|e| WalletError::Derivation(e.to_string()))
        }
        Material::Key { .. } => Ok(None),
        Material::Phrase(bytes) => {
            let secp = Secp256k1::new();
            let path = DerivationPath::from_str(path)
                .map_err(|e| WalletError::Derivation(e.to_string()))?;
            Xpriv::new_master(NetworkKind::Main, bytes.as_ref())
                .and_then(|master| master.derive_priv(&secp, &path))
                .map(|xpriv| Some(xpriv.private_key))
                .map_err(|e| WalletError::Derivation(e.to_string()))
        }
    }
}

/// The 20 address bytes of a secp256k1 key whose family's calls are EVM calls (EVM's, Tron's): the last 20 bytes of Keccak-256 of the uncompressed public key.
fn evm_address_bytes(key: &SecretKey, secp: &Secp256k1<bitcoin::secp256k1::All>) -> [u8; 20] {
    let public = key.public_key(secp).serialize_uncompressed();
    let hash = alloy_primitives::keccak256(&public[1..]);
    let mut out = [0u8; 20];
    out.copy_from_slice(&hash[12..]);
    out
}

/// The ed25519 key of `seed` at `path` (SLIP-10), or the imported key when it is of `family`; `None` for a single key
/// of another family. ed25519-dalek wipes it when it is dropped.
fn ed25519_key(
    seed: &Seed,
    path: &str,
    family: KeyFamily,
) -> Result<Option<ed25519_dalek::SigningKey>, WalletError> {
    match &seed.0 {
        Material::Key { family: f, secret } if *f == family => {
            Ok(Some(ed25519_dalek::SigningKey::from_bytes(secret)))
        }
        Material::Key { .. } => Ok(None),
        Material::Phrase(bytes) => {
            let path: ed25519_dalek_bip32::DerivationPath = path
                .parse()
                .map_err(|e| WalletError::Derivation(format!("{e:?}")))?;
            let key = ed25519_dalek_bip32::ExtendedSigningKey::from_seed(bytes.as_ref())
                .and_then(|master| master.derive(&path))
                .map_err(|e| WalletError::Derivation(e.to_string()))?;
            Ok(Some(key.signing_key))
        }
    }
}

/// The ed25519 signing key of the wallet's account of `family` (its rule's SLIP-10 path, or the imported key of the
/// family), for a family whose keys are ed25519 (Solana's).
pub fn ed25519_signer(
    seed: &Seed,
    family: KeyFamily,
) -> Result<ed25519_dalek::SigningKey, WalletError> {
    let KeyScheme::Ed25519 { path } = family.scheme() else {
        return Err(WalletError::Derivation(format!(
            "{} keys are not ed25519 keys",
            family.name()
        )));
    };
    ed25519_key(seed, path, family)?.ok_or_else(|| {
        WalletError::NoKey(
            seed.key_family().map_or("other", KeyFamily::name),
            family.name(),
        )
    })
}

#[cfg(test)]
mod tests {
    const TRON: KeyFamily = KeyFamily(ChainFamily::Tron);
    const SOLANA: KeyFamily = KeyFamily(ChainFamily::Solana);
    use super::*;

    const ABANDON: &str = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

    fn hex(bytes: &[u8]) -> String {
        alloy_primitives::hex::encode(bytes)
    }

    /// web3.js's documented example key and its address.
    const EVM_KEY: &str = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
    const EVM_KEY_ADDRESS: &str = "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23";

    #[test]
    fn a_single_key_gives_its_familys_account_only() {
        let evm = Seed::from_key(KeyFamily::EVM, &format!("  {EVM_KEY}\n")).unwrap();
        let held = accounts(&evm, BitcoinNetwork::Mainnet).unwrap();
        let account = held.of(KeyFamily::EVM).unwrap();
        assert_eq!(account.address, EVM_KEY_ADDRESS);
        assert_eq!(account.path, IMPORTED);
        assert!(
            held.of(KeyFamily::BITCOIN).is_none()
                && held.of(TRON).is_none()
                && held.of(SOLANA).is_none()
        );
        assert_eq!(
            evm_signer(&evm).unwrap().address().to_checksum(None),
            EVM_KEY_ADDRESS
        );
        let no_bitcoin = held.bitcoin().unwrap_err().to_string();
        assert!(
            no_bitcoin.contains("single EVM key") && no_bitcoin.contains("no Bitcoin account"),
            "{no_bitcoin}"
        );

        // The same bytes as a Tron key: Tron's address of the same public key.
        let tron = Seed::from_key(TRON, EVM_KEY.trim_start_matches("0x")).unwrap();
        let tron = accounts_of(&tron).of(TRON).cloned().unwrap().address;
        let mut raw = vec![0x41u8];
        raw.extend_from_slice(&alloy_primitives::hex::decode(&EVM_KEY_ADDRESS[2..]).unwrap());
        assert_eq!(tron, bitcoin::base58::encode_check(&raw));
        assert!(evm_signer(&Seed::from_key(TRON, EVM_KEY).unwrap()).is_err());

        // Bitcoin: a compressed WIF key, paid to as native SegWit on the network asked for.
        let secret = SecretKey::from_slice(&[7u8; 32]).unwrap();
        let wif = bitcoin::PrivateKey::new(secret, bitcoin::Network::Bitcoin).to_wif();
        let btc = Seed::from_key(KeyFamily::BITCOIN, &wif).unwrap();
        let expected = Address::p2wpkh(
            &CompressedPublicKey(secret.public_key(&Secp256k1::new())),
            bitcoin::Network::Regtest,
        );
        assert_eq!(
            accounts(&btc, BitcoinNetwork::Regtest)
                .unwrap()
                .of(KeyFamily::BITCOIN)
                .unwrap()
                .address,
            expected.to_string()
        );
        let mut uncompressed = bitcoin::PrivateKey::new(secret, bitcoin::Network::Bitcoin);
        uncompressed.compressed = false;
        assert!(Seed::from_key(KeyFamily::BITCOIN, &uncompressed.to_wif()).is_err());

        // Solana: the 64-byte keypair (its halves must belong together) or the 32-byte secret.
        let signing = ed25519_dalek_bip32::SigningKey::from_bytes(&[9u8; 32]);
        let mut pair = [9u8; 32].to_vec();
        pair.extend_from_slice(signing.verifying_key().as_bytes());
        let sol = Seed::from_key(SOLANA, &bs58::encode(&pair).into_string()).unwrap();
        assert_eq!(
            accounts_of(&sol).of(SOLANA).cloned().unwrap().address,
            bs58::encode(signing.verifying_key().as_bytes()).into_string()
        );
        pair[40] ^= 1;
        assert!(Seed::from_key(SOLANA, &bs58::encode(&pair).into_string()).is_err());
        // A pasted text far longer than any key is measured, not decoded (that would take seconds).
        let Err(WalletError::InvalidKey { why, .. }) = Seed::from_key(SOLANA, &"2".repeat(100_000))
        else {
            panic!("a 100,000-character Solana key was accepted")
        };
        assert!(why.contains("too long for a Solana key"), "{why}");

        for (family, bad) in [
            (KeyFamily::EVM, "0x1234"),
            (KeyFamily::EVM, "zz"),
            (KeyFamily::BITCOIN, "not a wif"),
            (SOLANA, "0OIl"),
            (
                KeyFamily::EVM,
                "0x0000000000000000000000000000000000000000000000000000000000000000",
            ),
        ] {
            let err = Seed::from_key(family, bad).unwrap_err().to_string();
            assert!(
                err.starts_with(&format!("The {} private key is not valid", family.name())),
                "{err}"
            );
            assert!(
                !err.contains(bad) || bad.len() < 5,
                "the key is not echoed: {err}"
            );
        }
    }

    fn accounts_of(seed: &Seed) -> Accounts {
        accounts(seed, BitcoinNetwork::Mainnet).unwrap()
    }

    #[test]
    fn the_evm_signer_is_the_evm_account() {
        let seed = Seed::from_phrase(ABANDON, "").unwrap();
        let signer = evm_signer(&seed).unwrap();
        assert_eq!(
            signer.address().to_checksum(None),
            "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
        );
        assert_eq!(
            signer.address().to_checksum(None),
            accounts(&seed, BitcoinNetwork::Mainnet)
                .unwrap()
                .of(KeyFamily::EVM)
                .unwrap()
                .address
        );
    }

    #[test]
    fn the_bip39_vector_gives_its_seed_with_and_without_a_passphrase() {
        // BIP-39's reference vectors (Trezor), passphrase "TREZOR".
        let seed = Seed::from_phrase(ABANDON, "TREZOR").unwrap();
        assert_eq!(
            hex(seed.bytes().unwrap()),
            "c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04"
        );
        let plain = Seed::from_phrase(ABANDON, "").unwrap();
        assert_eq!(
            hex(plain.bytes().unwrap()),
            "5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc19a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4"
        );
        // Spacing and case do not matter; the words do.
        let spaced = Seed::from_phrase(&format!("  {}\n", ABANDON.to_uppercase()), "").unwrap();
        assert_eq!(spaced.bytes(), plain.bytes());
        assert!(matches!(
            Seed::from_phrase(&ABANDON.replace("about", "abandon"), ""),
            Err(WalletError::InvalidPhrase(_))
        ));
        assert!(matches!(
            Seed::from_phrase("abandon zebra", ""),
            Err(WalletError::InvalidPhrase(_))
        ));
        assert_eq!(format!("{plain:?}"), "Seed(…)");
    }

    /// What the vault keeps (an imported key's family) and what the window and the command line read (the accounts)
    /// are written as they were when each family was named here: the family's lowercase name, and an object keyed
    /// by it in the listed order, without the families the wallet has no key of.
    #[test]
    fn the_families_and_the_accounts_are_written_as_before() {
        assert_eq!(
            serde_json::to_string(&KeyFamily::ALL).unwrap(),
            r#"["evm","bitcoin","tron","solana"]"#
        );
        assert_eq!(
            KeyFamily::LISTED,
            [KeyFamily::BITCOIN, KeyFamily::EVM, TRON, SOLANA]
        );
        let back: KeyFamily = serde_json::from_str(r#""tron""#).unwrap();
        assert_eq!(back, TRON);
        assert!(serde_json::from_str::<KeyFamily>(r#""Tron""#).is_err());

        let all = accounts_of(&Seed::from_phrase(ABANDON, "").unwrap());
        let written = serde_json::to_string(&all).unwrap();
        let at = |key: &str| written.find(&format!("\"{key}\":{{")).unwrap();
        assert!(
            written.starts_with(r#"{"bitcoin":{"address":"#),
            "{written}"
        );
        assert!(at("bitcoin") < at("evm") && at("evm") < at("tron") && at("tron") < at("solana"));
        let read: Accounts = serde_json::from_str(&written).unwrap();
        assert_eq!(read, all);

        let one = accounts_of(&Seed::from_key(KeyFamily::EVM, EVM_KEY).unwrap());
        assert_eq!(
            serde_json::to_value(&one).unwrap(),
            serde_json::json!({"evm": {"address": EVM_KEY_ADDRESS, "path": IMPORTED}})
        );
    }

    #[test]
    fn the_abandon_phrase_derives_the_well_known_addresses() {
        let seed = Seed::from_phrase(ABANDON, "").unwrap();
        let main = accounts(&seed, BitcoinNetwork::Mainnet).unwrap();
        // BIP-84's own test vector.
        assert_eq!(
            main.of(KeyFamily::BITCOIN).unwrap().address,
            "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"
        );
        assert_eq!(main.of(KeyFamily::BITCOIN).unwrap().path, "m/84'/0'/0'/0/0");
        assert_eq!(
            main.of(KeyFamily::EVM).unwrap().address,
            "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
        );
        assert_eq!(
            main.of(TRON).unwrap().address,
            "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH"
        );
        assert_eq!(
            main.of(SOLANA).unwrap().address,
            "HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk"
        );
        let test = accounts(&seed, BitcoinNetwork::Testnet).unwrap();
        assert_eq!(
            test.of(KeyFamily::BITCOIN).unwrap().address,
            "tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl"
        );
        assert_eq!(test.of(KeyFamily::BITCOIN).unwrap().path, "m/84'/1'/0'/0/0");
        // Regtest: the same key as the test networks, its own prefix.
        let regtest = accounts(&seed, BitcoinNetwork::Regtest).unwrap();
        assert!(
            regtest
                .of(KeyFamily::BITCOIN)
                .as_ref()
                .unwrap()
                .address
                .starts_with("bcrt1q"),
            "{}",
            regtest.of(KeyFamily::BITCOIN).unwrap().address
        );
        assert_eq!(regtest.evm().ok(), test.evm().ok());
    }

    #[test]
    fn bip32_and_slip10_follow_their_published_vectors() {
        // BIP-32 test vector 1, chain m.
        let seed = alloy_primitives::hex::decode("000102030405060708090a0b0c0d0e0f").unwrap();
        let master = Xpriv::new_master(NetworkKind::Main, &seed).unwrap();
        assert_eq!(
            master.to_string(),
            "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi"
        );
        // SLIP-10 ed25519 test vector 1: m and m/0'.
        let root = ed25519_dalek_bip32::ExtendedSigningKey::from_seed(&seed).unwrap();
        assert_eq!(
            hex(root.signing_key.as_bytes()),
            "2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7"
        );
        let path: ed25519_dalek_bip32::DerivationPath = "m/0'".parse().unwrap();
        let child = root.derive(&path).unwrap();
        assert_eq!(
            hex(child.signing_key.as_bytes()),
            "68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3"
        );
        assert_eq!(
            hex(child.verifying_key().as_bytes()),
            "8c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c"
        );
    }

    #[test]
    fn a_new_phrase_is_valid_and_new_each_time() {
        let a = new_phrase(12).unwrap();
        let b = new_phrase(24).unwrap();
        assert_eq!(a.split(' ').count(), 12);
        assert_eq!(b.split(' ').count(), 24);
        assert!(Seed::from_phrase(&a, "").is_ok());
        assert_ne!(*a, *new_phrase(12).unwrap());
        assert!(new_phrase(13).is_err());
    }
}
