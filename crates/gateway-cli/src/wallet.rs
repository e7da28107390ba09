//! `gateway wallet`: the app's wallet from a terminal, on desk-core's wallet (the same keychain entry, the same
//! sealing, the same paths as the window).
//!
//! Keys come from the keychain (the app password is asked on the terminal, never echoed) or, for scripts, from the
//! environment variable `GATEWAY_MNEMONIC` (a BIP-39 phrase; `GATEWAY_PASSPHRASE` for its optional passphrase) or an
//! encrypted keystore file named in `GATEWAY_KEYSTORE` (written by `wallet keystore FILE`; its password read from the
//! terminal or standard input); never from a command-line argument, and never printed (but the new phrase of
//! `wallet new`, shown once).

use std::io::{BufRead, IsTerminal, Write};

use clap::Subcommand;
use desk_core::secrets;
use desk_core::wallet::keeper::{DEFAULT_IDLE, Keeper};
use desk_core::wallet::kept::{self, KeptError};
use desk_core::wallet::vault::{self, KdfProfile};
use desk_core::wallet::{self, Seed};
use gateway_client::Client;
use gateway_client::address::BitcoinNetwork;
use zeroize::Zeroizing;

use crate::Failure;

/// The environment variable a script gives its recovery phrase in.
pub const MNEMONIC_ENV: &str = "GATEWAY_MNEMONIC";
/// The environment variable of that phrase's optional BIP-39 passphrase.
pub const PASSPHRASE_ENV: &str = "GATEWAY_PASSPHRASE";
/// The environment variable naming an encrypted keystore file (`gateway wallet keystore FILE` writes one).
pub const KEYSTORE_ENV: &str = "GATEWAY_KEYSTORE";

/// `--key FAMILY`: one of the wallet's kinds of key, by its name (`evm`, `bitcoin`, …; desk-wallet's list).
fn key_family() -> impl clap::builder::TypedValueParser<Value = wallet::KeyFamily> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(wallet::KeyFamily::ALL.map(wallet::KeyFamily::key))
        .map(|name| {
            wallet::KeyFamily::ALL
                .into_iter()
                .find(|family| family.key() == name)
                .expect("the parser takes only the families' names")
        })
}

/// `--key`'s help: each family as the option takes it, and the form of its key (its key rule's import label).
fn key_help() -> String {
    let forms: Vec<String> = wallet::KeyFamily::ALL
        .iter()
        .map(|family| format!("{}: {}", family.key(), family.import_label()))
        .collect();
    format!(
        "Import a single private key of this chain family instead of a phrase (the wallet then has that family's \
         account only). {}",
        forms.join("; ")
    )
}

/// `wallet balance --chain`'s help: the chains with endpoints the wallet reads, by family from the table of chains
/// (a family of many as "an EVM chain (bob, ethereum, …)", one of a single chain by its slug).
fn balance_chain_help() -> String {
    use gateway_client::chains::{
        ChainFamily, article, chain, chains_with_endpoints, in_a_sentence,
    };
    let kinds: Vec<String> = ChainFamily::ALL
        .into_iter()
        .filter_map(|family| {
            let slugs: Vec<&str> = chains_with_endpoints()
                .filter(|slug| chain(slug).is_some_and(|c| c.family == family))
                .collect();
            match slugs.as_slice() {
                [] => None,
                [one] => Some((*one).to_owned()),
                [first, second, ..] => {
                    let name = family.name();
                    Some(format!(
                        "{} {name} chain ({first}, {second}, …)",
                        article(name)
                    ))
                }
            }
        })
        .collect();
    let mut help = format!("{}; default: Bitcoin", in_a_sentence(&kinds, "or"));
    if let Some(first) = help.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    help
}

#[derive(Debug, Clone, Subcommand)]
pub enum WalletCommand {
    /// Create a wallet: a new recovery phrase shown once, three of its words typed back, kept in the keychain under
    /// an app password
    New {
        /// 12 or 24 words
        #[arg(long, default_value_t = 12)]
        words: usize,
    },
    /// Import a recovery phrase read from standard input (never from an argument), kept in the keychain under an
    /// app password
    Import {
        /// Also ask for the phrase's BIP-39 passphrase
        #[arg(long, conflicts_with = "key")]
        with_passphrase: bool,
        /// Import a single private key of this chain family instead of a phrase (its forms: [`key_help`])
        #[arg(long, value_parser = key_family(), value_name = "FAMILY", help = key_help())]
        key: Option<wallet::KeyFamily>,
    },
    /// The wallet's addresses and their paths (from GATEWAY_MNEMONIC, else the keychain's wallet)
    Address,
    /// What the wallet's Bitcoin address can spend, after the network fee (the gateway's get-max-spendable); with
    /// --chain, its balance on that chain read from the chain's endpoint (`--network sandbox`: the Sandbox's own local
    /// chains, the wallet funded on first use)
    Balance {
        /// A chain the wallet pays on ([`balance_chain_help`]); default: Bitcoin
        #[arg(long, help = balance_chain_help())]
        chain: Option<String>,
        /// The token: its address on the chain (its mint, where tokens are mints) or its symbol; default: the chain's
        /// coin
        #[arg(long, requires = "chain")]
        token: Option<String>,
    },
    /// Write the wallet (from GATEWAY_MNEMONIC or the keychain) to a new encrypted keystore file for scripts: sealed
    /// under a password of its own (Argon2id, XChaCha20-Poly1305), readable only by you; never overwrites a file.
    /// Scripts then name it in GATEWAY_KEYSTORE and give its password on standard input
    Keystore {
        /// The file to create
        file: std::path::PathBuf,
    },
}

fn kept_failure(e: KeptError) -> Failure {
    Failure::Usage(match e {
        KeptError::Keychain(secrets::SecretsError::Unavailable(_)) => format!(
            "no keychain is reachable (on Linux, a Secret Service such as GNOME Keyring). Start or unlock it, or give \
             the phrase to scripts in {MNEMONIC_ENV}."
        ),
        other => other.to_string(),
    })
}

/// Reads one secret: without echo from the terminal, or a line of standard input when it is not one (scripts).
fn ask_secret(prompt: &str) -> Result<Zeroizing<String>, Failure> {
    let read = if std::io::stdin().is_terminal() {
        rpassword::prompt_password(prompt).map(Zeroizing::new)
    } else {
        let mut line = Zeroizing::new(String::new());
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .map(|_| Zeroizing::new(line.trim_end_matches(['\r', '\n']).to_owned()))
    };
    read.map_err(|e| Failure::Usage(format!("could not read from the terminal ({e})")))
}

/// Reads one line the person types (shown: words of the phrase being checked).
pub fn ask_line(prompt: &str) -> Result<String, Failure> {
    eprint!("{prompt}");
    let _ = std::io::stderr().flush();
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| Failure::Usage(format!("could not read from the terminal ({e})")))?;
    Ok(line.trim().to_owned())
}

/// The app password for a new wallet, typed twice.
fn new_password() -> Result<Zeroizing<String>, Failure> {
    let password = ask_secret(&format!(
        "App password (at least {} characters): ",
        vault::MIN_PASSWORD_CHARS
    ))?;
    let again = ask_secret("The same again: ")?;
    if *password != *again {
        return Err(Failure::Usage(
            "the two passwords differ; nothing was stored. Run the command again.".into(),
        ));
    }
    Ok(password)
}

fn keychain() -> Result<(), Failure> {
    secrets::install_platform_store().map_err(|e| kept_failure(KeptError::Keychain(e)))
}

/// The wallet's seed: from GATEWAY_MNEMONIC, else the keystore file named in GATEWAY_KEYSTORE (its password asked),
/// else the keychain's wallet opened with the app password.
pub fn seed() -> Result<Seed, Failure> {
    secret().and_then(|s| s.seed().map_err(|e| Failure::Usage(e.to_string())))
}

/// The wallet's phrase and passphrase, from where [`seed`] reads them.
fn secret() -> Result<vault::Secret, Failure> {
    if let Ok(phrase) = std::env::var(MNEMONIC_ENV) {
        let phrase = Zeroizing::new(phrase);
        let passphrase = Zeroizing::new(std::env::var(PASSPHRASE_ENV).unwrap_or_default());
        Seed::from_phrase(&phrase, &passphrase)
            .map_err(|e| Failure::Usage(format!("{MNEMONIC_ENV}: {e}")))?;
        return Ok(vault::Secret::phrase(
            kept::normalized(&phrase).as_str(),
            &passphrase,
        ));
    }
    if let Some(path) = std::env::var_os(KEYSTORE_ENV).filter(|p| !p.is_empty()) {
        let path = std::path::PathBuf::from(path);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            Failure::Usage(format!(
                "{KEYSTORE_ENV}: cannot read {} ({e})",
                path.display()
            ))
        })?;
        let sealed = vault::Sealed::from_text(&text).map_err(|e| {
            Failure::Usage(format!(
                "{KEYSTORE_ENV}: {} is not a Gateway Desk keystore ({e})",
                path.display()
            ))
        })?;
        let password = ask_secret("Keystore password: ")?;
        return vault::open(&sealed, &password)
            .map_err(|e| Failure::Usage(format!("{KEYSTORE_ENV}: {e}")));
    }
    keychain()?;
    let password = ask_secret("App password: ")?;
    kept::open(&password).map_err(kept_failure)
}

/// `wallet keystore FILE`: the wallet sealed under a new password into a file created for it (mode 0600 on Unix).
fn write_keystore(path: &std::path::Path) -> Result<(), Failure> {
    let secret = secret()?;
    let password = new_password()?;
    let sealed = vault::seal(&secret, &password, KdfProfile::STANDARD)
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path).map_err(|e| {
        Failure::Usage(format!(
            "cannot create {} ({e}); a keystore is never written over an existing file",
            path.display()
        ))
    })?;
    file.write_all(sealed.to_text().as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|e| Failure::Usage(format!("cannot write {} ({e})", path.display())))?;
    println!(
        "The wallet is sealed in {}. Scripts name it in {KEYSTORE_ENV} and give its password on standard input.",
        path.display()
    );
    Ok(())
}

/// The keychain's client blocks on a runtime of its own, so everything that touches it (and the terminal) runs on a
/// blocking thread.
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, Failure> + Send + 'static,
) -> Result<T, Failure> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| Failure::Usage(format!("the wallet's work stopped unexpectedly ({e})")))?
}

pub async fn run(
    command: &WalletCommand,
    client: &Client,
    network: BitcoinNetwork,
    json: bool,
) -> Result<(), Failure> {
    match command.clone() {
        WalletCommand::New { words } => blocking(move || create(words)).await,
        WalletCommand::Import {
            with_passphrase,
            key,
        } => {
            blocking(move || match key {
                Some(family) => import_key(family),
                None => import(with_passphrase),
            })
            .await
        }
        WalletCommand::Keystore { file } => blocking(move || write_keystore(&file)).await,
        WalletCommand::Address => {
            let seed = blocking(seed).await?;
            let accounts =
                wallet::accounts(&seed, network).map_err(|e| Failure::Usage(e.to_string()))?;
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&accounts).unwrap_or_default()
                );
            } else {
                for (family, account) in accounts.listed() {
                    println!("{:<8} {}  {}", family.key(), account.address, account.path);
                }
            }
            Ok(())
        }
        WalletCommand::Balance { .. } => {
            let seed = blocking(seed).await?;
            let accounts =
                wallet::accounts(&seed, network).map_err(|e| Failure::Usage(e.to_string()))?;
            let answer = client
                .get_max_spendable(
                    &accounts
                        .bitcoin()
                        .map_err(|e| Failure::Usage(e.to_string()))?
                        .address,
                    network,
                )
                .await?;
            if json {
                crate::print_json(&answer.raw);
            } else {
                crate::view::max_spendable(&answer.value);
            }
            Ok(())
        }
    }
}

/// `wallet new`: the phrase shown once, three words typed back, the password twice, kept in the keychain.
fn create(words: usize) -> Result<(), Failure> {
    if ![12, 24].contains(&words) {
        return Err(Failure::Usage("--words is 12 or 24".into()));
    }
    keychain()?;
    if kept::load().map_err(kept_failure)?.is_some() {
        return Err(kept_failure(KeptError::AlreadyKept));
    }
    let keeper = Keeper::new(DEFAULT_IDLE);
    let (phrase, positions) = keeper
        .begin_new(words)
        .map_err(|e| Failure::Usage(e.to_string()))?;
    println!(
        "Your recovery phrase. Write these {words} words on paper, in order; they are shown this once:\n"
    );
    for (i, word) in phrase.split(' ').enumerate() {
        println!("{:>3}. {word}", i + 1);
    }
    println!();
    let mut answers = Vec::with_capacity(positions.len());
    for position in positions {
        answers.push(ask_line(&format!(
            "Word #{position} (from what you wrote): "
        ))?);
    }
    let phrase = keeper
        .finish_new(&answers)
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let password = new_password()?;
    kept::keep(&phrase, "", &password, KdfProfile::STANDARD).map_err(kept_failure)?;
    println!("The wallet is kept in the keychain. `gateway wallet address` shows its addresses.");
    Ok(())
}

/// `wallet import --key FAMILY`: a single private key from the terminal or standard input, the password twice.
fn import_key(family: wallet::KeyFamily) -> Result<(), Failure> {
    let key = ask_secret(&format!("{} private key: ", family.name()))?;
    Seed::from_key(family, &key).map_err(|e| Failure::Usage(e.to_string()))?;
    keychain()?;
    let password = new_password()?;
    kept::keep_key(family, &key, &password, KdfProfile::STANDARD).map_err(kept_failure)?;
    println!("The key is kept in the keychain. `gateway wallet address` shows its address.");
    Ok(())
}

/// `wallet import`: the phrase (and passphrase) from the terminal or standard input, the password twice.
fn import(with_passphrase: bool) -> Result<(), Failure> {
    keychain()?;
    let phrase = ask_secret("Recovery phrase: ")?;
    let passphrase = if with_passphrase {
        ask_secret("Passphrase: ")?
    } else {
        Zeroizing::new(String::new())
    };
    Seed::from_phrase(&phrase, &passphrase).map_err(|e| Failure::Usage(e.to_string()))?;
    let password = new_password()?;
    kept::keep(&phrase, &passphrase, &password, KdfProfile::STANDARD).map_err(kept_failure)?;
    println!("The wallet is kept in the keychain. `gateway wallet address` shows its addresses.");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{balance_chain_help, key_help};

    #[test]
    fn the_help_lists_the_families_from_their_rules_and_the_table_of_chains() {
        assert_eq!(
            balance_chain_help(),
            "An EVM chain (bob, ethereum, …), tron or solana; default: Bitcoin"
        );
        let help = key_help();
        for form in [
            "evm: EVM chains (hex, 64 characters)",
            "bitcoin: Bitcoin (WIF, compressed)",
            "tron: Tron (hex, 64 characters)",
            "solana: Solana (Base58 keypair)",
        ] {
            assert!(help.contains(form), "{help}");
        }
    }
}
