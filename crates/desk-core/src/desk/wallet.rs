//! The desk's wallet calls: create (shown once, checked), import, unlock, lock, remove, show the phrase behind the
//! password, and sign an order with it. The window asks "sign order X"; it never holds a key, and sees the phrase
//! only when it is created or explicitly revealed.

use std::sync::Weak;
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::broadcast;
use tracing::{info, warn};
use ts_rs::TS;
use zeroize::Zeroizing;

use super::{Desk, DeskEvent, invalid};
use crate::error::{DeskError, ErrorKind};
use crate::secrets::SecretsError;
use crate::wallet::keeper::{CheckError, Keeper};
use crate::wallet::kept::{self, KeptError};
use crate::wallet::vault::{self, Sealed, Secret, VaultError};
use crate::wallet::{self, Accounts, Seed, WalletError};

/// Where the wallet stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "WalletState.ts")]
pub enum WalletState {
    /// No wallet in the keychain.
    None,
    /// A wallet is kept; its password opens it.
    Locked,
    /// Unlocked in memory; it locks again after the idle time.
    Unlocked,
    /// The keychain cannot be reached, so no wallet can be kept.
    Unavailable,
}

/// The wallet as the window shows it: never a secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "WalletView.ts")]
pub struct WalletView {
    /// Whether a wallet is kept, and whether it is locked or unlocked.
    pub state: WalletState,
    /// The addresses, on the current network's Bitcoin network; only while unlocked (the keychain's copy is only
    /// trusted once the password has opened it).
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accounts: Option<Accounts>,
    /// Seconds until it locks, while unlocked.
    #[ts(optional, type = "number")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locks_in_secs: Option<u64>,
    /// The idle time after which an unlocked wallet locks.
    #[ts(type = "number")]
    pub idle_lock_secs: u64,
    /// Why the wallet cannot be used, when it cannot.
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

/// A new recovery phrase, shown once: its words, and which of them to type back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "NewPhrase.ts")]
pub struct NewPhrase {
    /// The phrase's 12 or 24 words in order, to be written down.
    pub words: Vec<String>,
    /// 1-based positions of the words to type back.
    pub check_positions: Vec<usize>,
}

pub use crate::execute::rail::WalletBalance;

/// Ticks the keeper's idle clock, telling the window when it locked; ends when the desk is gone.
pub(crate) fn spawn_idle_clock(keeper: Weak<Keeper>, events: broadcast::Sender<DeskEvent>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(5));
        loop {
            tick.tick().await;
            let Some(keeper) = keeper.upgrade() else {
                return;
            };
            if keeper.expire(Instant::now()) {
                info!("wallet locked after its idle time");
                let _ = events.send(DeskEvent::WalletLocked);
            }
        }
    });
}

fn wallet_error(message: impl Into<String>) -> DeskError {
    DeskError::new(ErrorKind::Wallet, message)
}

impl From<WalletError> for DeskError {
    fn from(e: WalletError) -> Self {
        invalid("phrase", e.to_string())
    }
}

impl From<VaultError> for DeskError {
    fn from(e: VaultError) -> Self {
        match e {
            VaultError::PasswordTooShort | VaultError::WrongPasswordOrDamaged => {
                invalid("password", e.to_string())
            }
            _ => wallet_error(e.to_string()),
        }
    }
}

impl From<CheckError> for DeskError {
    fn from(e: CheckError) -> Self {
        invalid("check", e.to_string())
    }
}

/// The keychain's failure, said for the wallet (the API key's sentences speak of the key).
fn keychain_error(e: SecretsError) -> DeskError {
    let message = match e {
        SecretsError::Unavailable(_) => "No keychain is reachable (on Linux, a Secret Service such as GNOME Keyring), \
             so the app cannot keep a wallet. Start or unlock your keychain and restart the app; meanwhile sign with \
             your own wallet through the PSBT."
            .to_owned(),
        other => format!("{other}. Unlock your keychain and try again."),
    };
    DeskError::new(ErrorKind::Keychain, message)
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, DeskError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| {
        wallet_error(format!(
            "The wallet's work stopped unexpectedly ({e}). Try again."
        ))
    })
}

/// The sealed blob from the keychain, if there is one.
async fn load_sealed() -> Result<Option<Sealed>, DeskError> {
    blocking(kept::load).await?.map_err(kept_error)
}

/// The kept wallet's failure as the window shows it.
fn kept_error(e: KeptError) -> DeskError {
    match e {
        KeptError::Keychain(e) => keychain_error(e),
        KeptError::Vault(e) => e.into(),
        KeptError::Wallet(e) => e.into(),
        KeptError::AlreadyKept | KeptError::NoWallet => wallet_error(e.to_string()),
    }
}

impl Desk {
    /// The wallet as it stands (no secret).
    pub async fn wallet(&self) -> WalletView {
        let idle_lock_secs = self.wallet.idle().as_secs();
        let stored = if self.keychain {
            load_sealed().await
        } else {
            Err(keychain_error(SecretsError::Unavailable(String::new())))
        };
        let (state, problem) = match stored {
            Ok(None) => {
                self.wallet.lock();
                (WalletState::None, None)
            }
            Ok(Some(_)) if self.wallet.is_unlocked() => (WalletState::Unlocked, None),
            Ok(Some(_)) => (WalletState::Locked, None),
            Err(e) if e.kind == ErrorKind::Keychain => (WalletState::Unavailable, Some(e.message)),
            Err(e) => (WalletState::Locked, Some(e.message)),
        };
        let accounts = if state == WalletState::Unlocked {
            self.wallet_accounts().await.ok()
        } else {
            None
        };
        WalletView {
            state,
            accounts,
            locks_in_secs: self.wallet.locks_in().map(|d| d.as_secs()),
            idle_lock_secs,
            problem,
        }
    }

    /// The unlocked wallet's addresses on the current network's Bitcoin network.
    pub async fn wallet_accounts(&self) -> Result<Accounts, DeskError> {
        let network = self.state.lock().await.network.bitcoin;
        self.wallet
            .with_seed(|seed| wallet::accounts(seed, network))
            .ok_or_else(locked)?
            .map_err(DeskError::from)
    }

    /// Starts creating a wallet: a new phrase of 12 or 24 words, shown once and kept in memory only until three of
    /// its words are typed back ([`Self::wallet_confirm_new`]). Refused while a wallet is kept.
    pub async fn wallet_new(&self, words: usize) -> Result<NewPhrase, DeskError> {
        if ![12, 24].contains(&words) {
            return Err(invalid(
                "words",
                "A recovery phrase has 12 or 24 words. Choose one.",
            ));
        }
        self.refuse_if_kept().await?;
        let (phrase, positions) = self.wallet.begin_new(words)?;
        Ok(NewPhrase {
            words: phrase.split(' ').map(str::to_owned).collect(),
            check_positions: positions.to_vec(),
        })
    }

    /// Finishes creating: the typed-back words must match; then the phrase is sealed under `password` and kept in
    /// the keychain, and the wallet is unlocked.
    pub async fn wallet_confirm_new(
        &self,
        answers: &[String],
        password: &str,
    ) -> Result<WalletView, DeskError> {
        self.refuse_if_kept().await?;
        if password.chars().count() < vault::MIN_PASSWORD_CHARS {
            return Err(VaultError::PasswordTooShort.into());
        }
        let phrase = self.wallet.finish_new(answers)?;
        self.keep(phrase, Zeroizing::new(String::new()), password)
            .await?;
        info!("wallet created");
        Ok(self.wallet().await)
    }

    /// Forgets a new phrase that was not checked.
    pub fn wallet_cancel_new(&self) {
        self.wallet.cancel_new();
    }

    /// Imports a recovery phrase (with its optional BIP-39 passphrase), sealed under `password`; unlocked after.
    /// Refused while a wallet is kept: remove it first, so no wallet is overwritten by accident.
    pub async fn wallet_import(
        &self,
        phrase: &str,
        passphrase: &str,
        password: &str,
    ) -> Result<WalletView, DeskError> {
        self.keep(
            kept::normalized(phrase),
            Zeroizing::new(passphrase.to_owned()),
            password,
        )
        .await?;
        info!("wallet imported");
        Ok(self.wallet().await)
    }

    /// Imports a single private key of one chain family (the wallet then has that family's account only), sealed
    /// under `password`; unlocked after. Refused while a wallet is kept.
    pub async fn wallet_import_key(
        &self,
        family: wallet::KeyFamily,
        key: &str,
        password: &str,
    ) -> Result<WalletView, DeskError> {
        if !self.keychain {
            return Err(keychain_error(SecretsError::Unavailable(String::new())));
        }
        let key = Zeroizing::new(key.to_owned());
        let password = Zeroizing::new(password.to_owned());
        let profile = self.kdf;
        let seed = blocking(move || kept::keep_key(family, &key, &password, profile))
            .await?
            .map_err(kept_error)?;
        self.wallet.unlock(seed);
        info!(family = family.name(), "private key imported");
        Ok(self.wallet().await)
    }

    /// Seals and stores (refused over a kept wallet), then unlocks.
    async fn keep(
        &self,
        phrase: Zeroizing<String>,
        passphrase: Zeroizing<String>,
        password: &str,
    ) -> Result<(), DeskError> {
        if !self.keychain {
            return Err(keychain_error(SecretsError::Unavailable(String::new())));
        }
        let password = Zeroizing::new(password.to_owned());
        let profile = self.kdf;
        let seed = blocking(move || kept::keep(&phrase, &passphrase, &password, profile))
            .await?
            .map_err(kept_error)?;
        self.wallet.unlock(seed);
        Ok(())
    }

    async fn refuse_if_kept(&self) -> Result<(), DeskError> {
        if !self.keychain {
            return Err(keychain_error(SecretsError::Unavailable(String::new())));
        }
        if load_sealed().await?.is_some() {
            return Err(kept_error(KeptError::AlreadyKept));
        }
        Ok(())
    }

    async fn open_sealed(&self, password: &str) -> Result<Secret, DeskError> {
        let password = Zeroizing::new(password.to_owned());
        blocking(move || kept::open(&password))
            .await?
            .map_err(kept_error)
    }

    /// Unlocks the wallet with its password, until it is locked or idle for [`Keeper::idle`].
    pub async fn wallet_unlock(&self, password: &str) -> Result<WalletView, DeskError> {
        let secret = self.open_sealed(password).await?;
        self.wallet.unlock(secret.seed()?);
        info!("wallet unlocked");
        Ok(self.wallet().await)
    }

    /// Locks the wallet now (the seed is wiped from memory).
    pub async fn wallet_lock(&self) -> WalletView {
        if self.wallet.lock() {
            info!("wallet locked");
            let _ = self.events.send(DeskEvent::WalletLocked);
        }
        self.wallet().await
    }

    /// The recovery phrase's words, for an explicit "Show recovery phrase" behind the password.
    pub async fn wallet_reveal(&self, password: &str) -> Result<Vec<String>, DeskError> {
        let secret = self.open_sealed(password).await?;
        info!("recovery phrase shown");
        Ok(secret.shown())
    }

    /// Removes the wallet from the keychain and memory (the window asks for confirmation first). Its money stays on
    /// the chains, reachable with the recovery phrase.
    pub async fn wallet_remove(&self) -> Result<WalletView, DeskError> {
        blocking(kept::remove).await?.map_err(kept_error)?;
        self.wallet.lock();
        self.wallet.cancel_new();
        warn!("wallet removed");
        Ok(self.wallet().await)
    }

    /// Unlocks the wallet with a seed from elsewhere (the command line's `GATEWAY_MNEMONIC`, or its keychain wallet
    /// opened there), kept in memory only, as an unlock keeps it: nothing is written to the keychain.
    pub fn wallet_use_seed(&self, seed: Seed) {
        self.wallet.unlock(seed);
        info!("wallet unlocked with a seed given to the desk");
    }
}

fn locked() -> DeskError {
    wallet_error("The wallet is locked. Unlock it with its password, then try again.")
}
