//! The app's own wallet, first part: the accounts of a BIP-39 recovery phrase by the standard paths.
//!
//! | chain | path | address |
//! |---|---|---|
//! | Bitcoin | `m/84'/0'/0'/0/0` on mainnet, `m/84'/1'/0'/0/0` on test networks (BIP-84) | native SegWit (P2WPKH) of the network |
//! | EVM chains | `m/44'/60'/0'/0/0` | EIP-55 |
//! | Tron | `m/44'/195'/0'/0/0` | Base58Check of `0x41` and the EVM-style 20 bytes |
//! | Solana | `m/44'/501'/0'/0'` (SLIP-10 ed25519, every step hardened) | the ed25519 public key, Base58 |
//!
//! secp256k1 keys come from rust-bitcoin's BIP-32; the phrase from `bip39` (rust-bitcoin's crate); Solana's key from
//! `ed25519-dalek-bip32`. The seed lives in zeroizing memory and never prints. [`vault`] seals the phrase under the
//! app password for the keychain. Signing comes next (issue 12): nothing here signs yet.

pub mod bitcoin_signer;
pub mod keeper;
pub mod kept;
pub mod vault;

use std::fmt;
use std::str::FromStr;

use bitcoin::bip32::{DerivationPath, Xpriv};
use bitcoin::secp256k1::{Secp256k1, SecretKey};
use bitcoin::{Address, CompressedPublicKey, NetworkKind};
use gateway_client::address::BitcoinNetwork;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use zeroize::Zeroizing;

/// BIP-84 account 0, first receive address, on Bitcoin mainnet.
pub const BITCOIN_PATH_MAINNET: &str = "m/84'/0'/0'/0/0";
/// The same on test networks (coin type 1).
pub const BITCOIN_PATH_TEST: &str = "m/84'/1'/0'/0/0";
/// The EVM account.
pub const EVM_PATH: &str = "m/44'/60'/0'/0/0";
/// The Tron account.
pub const TRON_PATH: &str = "m/44'/195'/0'/0/0";
/// The Solana account (SLIP-10, all hardened).
pub const SOLANA_PATH: &str = "m/44'/501'/0'/0'";

/// Why a phrase or a derivation cannot be used, as a sentence with the next step.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WalletError {
    /// The recovery phrase is not a valid BIP-39 phrase.
    #[error(
        "The recovery phrase is not valid: {0}. Check each word against the BIP-39 English list and their order, and \
         type it again."
    )]
    InvalidPhrase(String),
    /// A key could not be derived (practically impossible; a broken seed).
    #[error(
        "A key of the wallet could not be derived ({0}). Remove the wallet and import the phrase again."
    )]
    Derivation(String),
}

/// The 64-byte BIP-39 seed, wiped when dropped, never printed.
pub struct Seed(Zeroizing<[u8; 64]>);

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
        Ok(Self(Zeroizing::new(
            mnemonic.to_seed_normalized(passphrase),
        )))
    }

    /// The seed itself (tests and the signer).
    pub fn bytes(&self) -> &[u8; 64] {
        &self.0
    }
}

/// A new recovery phrase of `words` words (12 or 24) from the operating system's randomness.
pub fn new_phrase(words: usize) -> Result<Zeroizing<String>, WalletError> {
    let mnemonic = bip39::Mnemonic::generate_in(bip39::Language::English, words)
        .map_err(|e| WalletError::InvalidPhrase(e.to_string()))?;
    Ok(Zeroizing::new(mnemonic.to_string()))
}

/// The wallet's address on each chain family, with the path it was derived by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "WalletAccounts.ts")]
pub struct Accounts {
    /// Native SegWit on the network's Bitcoin network.
    pub bitcoin: Account,
    /// EVM chains.
    pub evm: Account,
    /// Tron.
    pub tron: Account,
    /// Solana.
    pub solana: Account,
}

/// One account: its address and derivation path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "WalletAccount.ts")]
pub struct Account {
    pub address: String,
    pub path: String,
}

/// The accounts of `seed`, Bitcoin's on `network`.
pub fn accounts(seed: &Seed, network: BitcoinNetwork) -> Result<Accounts, WalletError> {
    let secp = Secp256k1::new();
    let bitcoin_path = bitcoin_path(network);
    let btc_key = secp_key(seed, bitcoin_path)?;
    let btc_public = CompressedPublicKey(btc_key.public_key(&secp));
    let bitcoin = Address::p2wpkh(&btc_public, bitcoin::Network::from(network)).to_string();
    let evm_key = secp_key(seed, EVM_PATH)?;
    let evm_bytes = evm_address_bytes(&evm_key, &secp);
    let tron_key = secp_key(seed, TRON_PATH)?;
    let mut tron_raw = vec![0x41u8];
    tron_raw.extend_from_slice(&evm_address_bytes(&tron_key, &secp));
    Ok(Accounts {
        bitcoin: Account {
            address: bitcoin,
            path: bitcoin_path.into(),
        },
        evm: Account {
            address: alloy_primitives::Address::from(evm_bytes).to_checksum(None),
            path: EVM_PATH.into(),
        },
        tron: Account {
            address: bitcoin::base58::encode_check(&tron_raw),
            path: TRON_PATH.into(),
        },
        solana: Account {
            address: solana_pubkey::Pubkey::new_from_array(solana_public_key(seed)?).to_string(),
            path: SOLANA_PATH.into(),
        },
    })
}

/// The signer of the wallet's EVM account (`m/44'/60'/0'/0/0`); its key is wiped when it is dropped.
pub fn evm_signer(seed: &Seed) -> Result<alloy::signers::local::PrivateKeySigner, WalletError> {
    let key = secp_key(seed, EVM_PATH)?;
    let bytes = Zeroizing::new(key.secret_bytes());
    alloy::signers::local::PrivateKeySigner::from_slice(bytes.as_slice())
        .map_err(|e| WalletError::Derivation(e.to_string()))
}

/// The BIP-84 path of the wallet's Bitcoin account on `network` (coin type 0 on mainnet, 1 elsewhere).
pub fn bitcoin_path(network: BitcoinNetwork) -> &'static str {
    match network {
        BitcoinNetwork::Mainnet => BITCOIN_PATH_MAINNET,
        _ => BITCOIN_PATH_TEST,
    }
}

/// The secp256k1 key of `seed` at `path` (BIP-32).
fn secp_key(seed: &Seed, path: &str) -> Result<SecretKey, WalletError> {
    let secp = Secp256k1::new();
    let path =
        DerivationPath::from_str(path).map_err(|e| WalletError::Derivation(e.to_string()))?;
    Xpriv::new_master(NetworkKind::Main, seed.bytes())
        .and_then(|master| master.derive_priv(&secp, &path))
        .map(|xpriv| xpriv.private_key)
        .map_err(|e| WalletError::Derivation(e.to_string()))
}

/// The 20 address bytes of an EVM (and Tron) key: the last 20 bytes of Keccak-256 of the uncompressed public key.
fn evm_address_bytes(key: &SecretKey, secp: &Secp256k1<bitcoin::secp256k1::All>) -> [u8; 20] {
    let public = key.public_key(secp).serialize_uncompressed();
    let hash = alloy_primitives::keccak256(&public[1..]);
    let mut out = [0u8; 20];
    out.copy_from_slice(&hash[12..]);
    out
}

/// The ed25519 public key of `seed` at [`SOLANA_PATH`] (SLIP-10).
fn solana_public_key(seed: &Seed) -> Result<[u8; 32], WalletError> {
    let path: ed25519_dalek_bip32::DerivationPath = SOLANA_PATH
        .parse()
        .map_err(|e| WalletError::Derivation(format!("{e:?}")))?;
    let key = ed25519_dalek_bip32::ExtendedSigningKey::from_seed(seed.bytes())
        .and_then(|master| master.derive(&path))
        .map_err(|e| WalletError::Derivation(e.to_string()))?;
    Ok(key.verifying_key().to_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    const ABANDON: &str = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

    fn hex(bytes: &[u8]) -> String {
        alloy_primitives::hex::encode(bytes)
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
                .evm
                .address
        );
    }

    #[test]
    fn the_bip39_vector_gives_its_seed_with_and_without_a_passphrase() {
        // BIP-39's reference vectors (Trezor), passphrase "TREZOR".
        let seed = Seed::from_phrase(ABANDON, "TREZOR").unwrap();
        assert_eq!(
            hex(seed.bytes()),
            "c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04"
        );
        let plain = Seed::from_phrase(ABANDON, "").unwrap();
        assert_eq!(
            hex(plain.bytes()),
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

    #[test]
    fn the_abandon_phrase_derives_the_well_known_addresses() {
        let seed = Seed::from_phrase(ABANDON, "").unwrap();
        let main = accounts(&seed, BitcoinNetwork::Mainnet).unwrap();
        // BIP-84's own test vector.
        assert_eq!(
            main.bitcoin.address,
            "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"
        );
        assert_eq!(main.bitcoin.path, "m/84'/0'/0'/0/0");
        assert_eq!(
            main.evm.address,
            "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
        );
        assert_eq!(main.tron.address, "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH");
        assert_eq!(
            main.solana.address,
            "HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk"
        );
        let test = accounts(&seed, BitcoinNetwork::Testnet).unwrap();
        assert_eq!(
            test.bitcoin.address,
            "tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl"
        );
        assert_eq!(test.bitcoin.path, "m/84'/1'/0'/0/0");
        // Regtest: the same key as the test networks, its own prefix.
        let regtest = accounts(&seed, BitcoinNetwork::Regtest).unwrap();
        assert!(
            regtest.bitcoin.address.starts_with("bcrt1q"),
            "{}",
            regtest.bitcoin.address
        );
        assert_eq!(regtest.evm, test.evm);
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
