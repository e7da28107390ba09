//! Signing a verified onramp PSBT with the wallet's BIP-84 key, finalizing it, and checking the result with Bitcoin
//! Core's own script interpreter (libbitcoinconsensus, through rust-bitcoin's `bitcoinconsensus` feature) against the
//! outputs it spends, before anything is handed to the gateway.
//!
//! Signing is rust-bitcoin's `Psbt::sign` with the wallet's master key: each input the wallet owns gets a BIP-32
//! derivation entry for the wallet's path, and the library signs exactly those (SIGHASH_ALL, BIP-143). An input that
//! is not the wallet's is refused here too, although verification has already refused such a PSBT. The same
//! finalizer serves PSBTs that a hardware wallet signed and that were handed back.

use std::collections::BTreeMap;
use std::str::FromStr;

use bitcoin::bip32::{DerivationPath, Xpriv};
use bitcoin::psbt::{Input, Psbt};
use bitcoin::secp256k1::Secp256k1;
use bitcoin::{CompressedPublicKey, NetworkKind, OutPoint, ScriptBuf, Transaction, TxOut, Witness};
use gateway_client::address::BitcoinNetwork;

use super::Seed;

/// Why a PSBT was not signed or finalized, as a sentence with the next step.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignError {
    /// The PSBT's bytes (or its text) are not a PSBT that can be decoded, with why.
    #[error(
        "The payment to sign cannot be read ({0}). Nothing was signed; discard the order and start again."
    )]
    Unreadable(String),
    /// An input spends an output that the wallet's Bitcoin account does not own.
    #[error(
        "Input #{index} of the payment spends money that is not this wallet's ({owner}). Nothing was signed; \
         discard the order and ask for a new quote with the wallet's address as the sender."
    )]
    NotOurs {
        /// The input's position in the transaction, from 0.
        index: usize,
        /// The address of the output it spends, or "an unknown script".
        owner: String,
    },
    /// An input carries no copy of the output it spends, so what it signs for cannot be checked.
    #[error(
        "Input #{index} of the payment does not say which coin it spends, so it cannot be signed safely. Nothing \
         was signed; discard the order."
    )]
    UnknownSpent {
        /// The input's position in the transaction, from 0.
        index: usize,
    },
    /// Signing failed on an input of the wallet's (rust-bitcoin's reason).
    #[error(
        "The wallet could not sign input #{index} ({reason}). Nothing was sent; discard the order."
    )]
    Signing {
        /// The input's position in the transaction, from 0.
        index: usize,
        /// Why signing failed.
        reason: String,
    },
    /// An input is neither final nor signed, so the transaction cannot be finalized.
    #[error(
        "Input #{index} has no signature yet. This PSBT was not signed: sign it in your wallet first, then hand \
         back what the wallet exports (a signed PSBT or the final transaction)."
    )]
    Unsigned {
        /// The input's position in the transaction, from 0.
        index: usize,
    },
    /// An input that is not final spends an output other than native SegWit (P2WPKH), the only kind the app
    /// finalizes itself.
    #[error(
        "Input #{index} is of a kind this app cannot finalize (only native SegWit P2WPKH inputs are). Let your \
         wallet finalize it and hand back the final transaction."
    )]
    CannotFinalize {
        /// The input's position in the transaction, from 0.
        index: usize,
    },
    /// Bitcoin Core's script interpreter rejects the final transaction, with its reason.
    #[error(
        "The signed payment does not pass Bitcoin's own script check ({0}). It was not sent; discard the order and \
         start again."
    )]
    Consensus(String),
    /// What was handed back is the gateway's PSBT unchanged: no input is signed.
    #[error(
        "This is the PSBT as the gateway made it, with no signature yet. Sign it in your wallet first, then paste \
         (or open) what the wallet exports: the signed PSBT, or the final transaction."
    )]
    NothingSigned,
    /// The wallet has no Bitcoin key, or its key could not be derived.
    #[error("{0}")]
    Key(#[from] super::WalletError),
}

/// The PSBT in what was pasted or opened, when it is one: BIP-174's text form (base64, `cHNidP8…`) or its bytes in
/// hexadecimal (`70736274ff…`); `None` when the text is not PSBT-shaped (a final transaction or a txid).
pub fn read_psbt(text: &str) -> Option<Result<Psbt, SignError>> {
    let text: String = text.split_whitespace().collect();
    let unreadable =
        |e: String| SignError::Unreadable(format!("it looks like a PSBT but does not decode: {e}"));
    if text.starts_with("cHNidP8") {
        return Some(Psbt::from_str(&text).map_err(|e| unreadable(e.to_string())));
    }
    let hex = text.strip_prefix("0x").unwrap_or(&text);
    if hex.len() >= 10 && hex[..10].eq_ignore_ascii_case("70736274ff") {
        return Some(
            alloy_primitives::hex::decode(hex)
                .map_err(|e| unreadable(e.to_string()))
                .and_then(|bytes| Psbt::deserialize(&bytes).map_err(|e| unreadable(e.to_string()))),
        );
    }
    None
}

/// A PSBT handed back by another wallet, as the final transaction: signed inputs finalized here, all checked by
/// Bitcoin's script interpreter. A PSBT without any signature gets its own sentence.
pub fn finalize_handed_back(psbt: Psbt) -> Result<Transaction, SignError> {
    if !has_signatures(&psbt) {
        return Err(SignError::NothingSigned);
    }
    finalize(psbt)
}

/// Bitcoin's script check of a final transaction against the coins the verified PSBT (`psbt`, the gateway's bytes)
/// says its inputs spend. An input the PSBT does not know is refused.
pub fn check_against_psbt(tx: &Transaction, psbt: &[u8]) -> Result<(), SignError> {
    let psbt = Psbt::deserialize(psbt).map_err(|e| SignError::Unreadable(e.to_string()))?;
    let mut spent = BTreeMap::new();
    for index in 0..psbt.inputs.len() {
        let out = spent_output(&psbt, index).ok_or(SignError::UnknownSpent { index })?;
        spent.insert(psbt.unsigned_tx.input[index].previous_output, out);
    }
    check_scripts(tx, &spent)
}

/// The wallet's Bitcoin key material on one network: the master key and the path (a recovery phrase), or the one
/// imported key; the P2WPKH script it pays to.
struct BitcoinAccount {
    keys: BitcoinKeys,
    public: CompressedPublicKey,
    script: ScriptBuf,
}

enum BitcoinKeys {
    Derived { master: Xpriv, path: DerivationPath },
    Single(BTreeMap<bitcoin::PublicKey, bitcoin::PrivateKey>),
}

impl BitcoinAccount {
    fn of(seed: &Seed, network: BitcoinNetwork) -> Result<Self, SignError> {
        let secp = Secp256k1::new();
        let derivation = |e: String| SignError::Key(super::WalletError::Derivation(e));
        let (keys, secret) = match seed.bytes() {
            Some(bytes) => {
                let path = DerivationPath::from_str(super::bitcoin_path(network))
                    .map_err(|e| derivation(e.to_string()))?;
                let master =
                    Xpriv::new_master(NetworkKind::from(bitcoin::Network::from(network)), bytes)
                        .map_err(|e| derivation(e.to_string()))?;
                let key = master
                    .derive_priv(&secp, &path)
                    .map_err(|e| derivation(e.to_string()))?;
                (BitcoinKeys::Derived { master, path }, key.private_key)
            }
            None => {
                let secret =
                    super::secp_key(seed, "", super::KeyFamily::BITCOIN)?.ok_or_else(|| {
                        SignError::Key(super::WalletError::NoKey(
                            seed.key_family().map_or("other", super::KeyFamily::name),
                            "Bitcoin",
                        ))
                    })?;
                let private = bitcoin::PrivateKey::new(secret, bitcoin::Network::from(network));
                let map = BTreeMap::from([(private.public_key(&secp), private)]);
                (BitcoinKeys::Single(map), secret)
            }
        };
        let public = CompressedPublicKey(secret.public_key(&secp));
        Ok(Self {
            keys,
            public,
            script: ScriptBuf::new_p2wpkh(&public.wpubkey_hash()),
        })
    }

    /// The BIP-32 origin written into each input (an imported key has none: the master fingerprint and path of the
    /// key itself).
    fn origin(&self) -> (bitcoin::bip32::Fingerprint, DerivationPath) {
        match &self.keys {
            BitcoinKeys::Derived { master, path } => {
                (master.fingerprint(&Secp256k1::new()), path.clone())
            }
            BitcoinKeys::Single(_) => (
                bitcoin::bip32::Fingerprint::default(),
                DerivationPath::master(),
            ),
        }
    }

    fn sign(&self, psbt: &mut Psbt) -> Result<(), SignError> {
        let secp = Secp256k1::new();
        let outcome = match &self.keys {
            BitcoinKeys::Derived { master, .. } => psbt.sign(master, &secp).map(drop),
            BitcoinKeys::Single(map) => psbt.sign(map, &secp).map(drop),
        };
        outcome.map_err(|(_, errors)| {
            let (index, reason) = errors
                .into_iter()
                .next()
                .map_or((0, "unknown".to_owned()), |(i, e)| (i, e.to_string()));
            SignError::Signing { index, reason }
        })
    }
}

/// The output an input spends, from its `witness_utxo` or its previous transaction.
fn spent_output(psbt: &Psbt, index: usize) -> Option<TxOut> {
    let input = psbt.inputs.get(index)?;
    let outpoint = psbt.unsigned_tx.input.get(index)?.previous_output;
    match (&input.witness_utxo, &input.non_witness_utxo) {
        (_, Some(previous)) if previous.compute_txid() == outpoint.txid => previous
            .output
            .get(usize::try_from(outpoint.vout).ok()?)
            .cloned(),
        (Some(out), None) => Some(out.clone()),
        _ => None,
    }
}

/// Signs every input of `psbt` with the wallet's BIP-84 key on `network`, finalizes them, and gives the final
/// transaction after Bitcoin's script check. Every input must be the wallet's.
pub fn sign_onramp_psbt(
    seed: &Seed,
    network: BitcoinNetwork,
    psbt: &[u8],
) -> Result<Transaction, SignError> {
    let account = BitcoinAccount::of(seed, network)?;
    let mut psbt = Psbt::deserialize(psbt).map_err(|e| SignError::Unreadable(e.to_string()))?;
    let origin = account.origin();
    for index in 0..psbt.inputs.len() {
        let spent = spent_output(&psbt, index).ok_or(SignError::UnknownSpent { index })?;
        if spent.script_pubkey != account.script {
            return Err(SignError::NotOurs {
                index,
                owner: bitcoin::Address::from_script(
                    &spent.script_pubkey,
                    bitcoin::Network::from(network),
                )
                .map_or_else(|_| "an unknown script".to_owned(), |a| a.to_string()),
            });
        }
        let input = &mut psbt.inputs[index];
        input.witness_utxo = Some(spent);
        input.bip32_derivation = BTreeMap::from([(account.public.0, origin.clone())]);
        // What verification accepted: all or nothing (SIGHASH_ALL); the library signs with it.
        input.sighash_type = None;
    }
    account.sign(&mut psbt)?;
    finalize(psbt)
}

/// Finalizes the P2WPKH inputs of a signed PSBT (one signature and its key each; inputs already final stay as they
/// are), extracts the transaction and checks it with Bitcoin's script interpreter against the outputs it spends.
pub fn finalize(mut psbt: Psbt) -> Result<Transaction, SignError> {
    let mut spent: BTreeMap<OutPoint, TxOut> = BTreeMap::new();
    for index in 0..psbt.inputs.len() {
        let out = spent_output(&psbt, index).ok_or(SignError::UnknownSpent { index })?;
        spent.insert(psbt.unsigned_tx.input[index].previous_output, out.clone());
        let input = &mut psbt.inputs[index];
        if input.final_script_witness.is_some() || input.final_script_sig.is_some() {
            continue;
        }
        if !out.script_pubkey.is_p2wpkh() {
            return Err(SignError::CannotFinalize { index });
        }
        let Some((public, signature)) = input.partial_sigs.iter().next() else {
            return Err(SignError::Unsigned { index });
        };
        let witness = Witness::p2wpkh(signature, &public.inner);
        // BIP-174's finalizer: keep the UTXO fields, clear the rest.
        *input = Input {
            witness_utxo: input.witness_utxo.clone(),
            non_witness_utxo: input.non_witness_utxo.clone(),
            final_script_witness: Some(witness),
            ..Input::default()
        };
    }
    let tx = psbt
        .extract_tx_fee_rate_limit()
        .map_err(|e| SignError::Unreadable(e.to_string()))?;
    check_scripts(&tx, &spent)?;
    Ok(tx)
}

/// Bitcoin Core's script check of every input of `tx` against the output it spends.
pub fn check_scripts(tx: &Transaction, spent: &BTreeMap<OutPoint, TxOut>) -> Result<(), SignError> {
    tx.verify(|outpoint| spent.get(outpoint).cloned())
        .map_err(|e| SignError::Consensus(e.to_string()))
}

/// Whether any input of `psbt` carries a signature or a final script (what a wallet hands back after signing).
pub fn has_signatures(psbt: &Psbt) -> bool {
    psbt.inputs.iter().any(|input| {
        !input.partial_sigs.is_empty()
            || input.final_script_witness.is_some()
            || input.final_script_sig.is_some()
            || input.tap_key_sig.is_some()
    })
}

#[cfg(test)]
mod tests {
    use bitcoin::absolute::LockTime;
    use bitcoin::hashes::Hash as _;
    use bitcoin::transaction::Version;
    use bitcoin::{Amount, Sequence, TxIn, Txid};

    use super::*;

    const ABANDON: &str = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

    fn seed() -> Seed {
        Seed::from_phrase(ABANDON, "").unwrap()
    }

    /// A PSBT spending one coin of `script` (witness_utxo) to a stranger's P2WPKH.
    fn psbt_spending(script: ScriptBuf) -> Psbt {
        let tx = Transaction {
            version: Version::TWO,
            lock_time: LockTime::ZERO,
            input: vec![TxIn {
                previous_output: OutPoint::new(Txid::from_byte_array([7; 32]), 1),
                sequence: Sequence::ENABLE_RBF_NO_LOCKTIME,
                ..TxIn::default()
            }],
            output: vec![TxOut {
                value: Amount::from_sat(90_000),
                script_pubkey: ScriptBuf::new_p2wpkh(&bitcoin::WPubkeyHash::from_byte_array(
                    [9; 20],
                )),
            }],
        };
        let mut psbt = Psbt::from_unsigned_tx(tx).unwrap();
        psbt.inputs[0].witness_utxo = Some(TxOut {
            value: Amount::from_sat(100_000),
            script_pubkey: script,
        });
        psbt
    }

    fn our_script(network: BitcoinNetwork) -> ScriptBuf {
        BitcoinAccount::of(&seed(), network).unwrap().script
    }

    #[test]
    fn a_single_imported_wif_key_signs_its_own_input_and_nothing_else() {
        let secret = bitcoin::secp256k1::SecretKey::from_slice(&[5u8; 32]).unwrap();
        let wif = bitcoin::PrivateKey::new(secret, bitcoin::Network::Regtest).to_wif();
        let key = Seed::from_key(super::super::KeyFamily::BITCOIN, &wif).unwrap();
        let network = BitcoinNetwork::Regtest;
        let script = BitcoinAccount::of(&key, network).unwrap().script;
        let tx =
            sign_onramp_psbt(&key, network, &psbt_spending(script.clone()).serialize()).unwrap();
        assert_eq!(tx.input[0].witness.len(), 2);
        // Another wallet's input is refused, and a key of another family has no Bitcoin account.
        assert!(matches!(
            sign_onramp_psbt(
                &key,
                network,
                &psbt_spending(our_script(network)).serialize()
            ),
            Err(SignError::NotOurs { index: 0, .. })
        ));
        let evm = Seed::from_key(super::super::KeyFamily::EVM, &"11".repeat(32)).unwrap();
        let refused =
            sign_onramp_psbt(&evm, network, &psbt_spending(script).serialize()).unwrap_err();
        assert!(
            refused.to_string().contains("no Bitcoin account"),
            "{refused}"
        );
    }

    #[test]
    fn the_wallet_signs_its_own_input_and_bitcoin_core_accepts_the_signature() {
        for network in [BitcoinNetwork::Mainnet, BitcoinNetwork::Regtest] {
            let script = our_script(network);
            // The script is the wallet's published address (BIP-84 vector on mainnet).
            if network == BitcoinNetwork::Mainnet {
                assert_eq!(
                    bitcoin::Address::from_script(&script, bitcoin::Network::Bitcoin)
                        .unwrap()
                        .to_string(),
                    "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"
                );
            }
            let psbt = psbt_spending(script.clone());
            let tx = sign_onramp_psbt(&seed(), network, &psbt.serialize()).unwrap();
            assert_eq!(tx.input[0].witness.len(), 2);
            // The check is real: the same transaction against another amount or script fails.
            let outpoint = tx.input[0].previous_output;
            let mut spent = BTreeMap::from([(
                outpoint,
                TxOut {
                    value: Amount::from_sat(100_000),
                    script_pubkey: script.clone(),
                },
            )]);
            assert_eq!(check_scripts(&tx, &spent), Ok(()));
            spent.get_mut(&outpoint).unwrap().value = Amount::from_sat(100_001);
            assert!(matches!(
                check_scripts(&tx, &spent),
                Err(SignError::Consensus(_))
            ));
        }
    }

    #[test]
    fn an_input_that_is_not_the_wallets_is_not_signed() {
        let stranger = ScriptBuf::new_p2wpkh(&bitcoin::WPubkeyHash::from_byte_array([3; 20]));
        let psbt = psbt_spending(stranger);
        let refused =
            sign_onramp_psbt(&seed(), BitcoinNetwork::Regtest, &psbt.serialize()).unwrap_err();
        assert!(
            matches!(refused, SignError::NotOurs { index: 0, .. }),
            "{refused}"
        );
        let mut unknown = psbt_spending(our_script(BitcoinNetwork::Regtest));
        unknown.inputs[0].witness_utxo = None;
        assert_eq!(
            sign_onramp_psbt(&seed(), BitcoinNetwork::Regtest, &unknown.serialize()),
            Err(SignError::UnknownSpent { index: 0 })
        );
    }

    #[test]
    fn a_psbt_is_read_in_base64_and_hex_and_anything_else_is_not_one() {
        let psbt = psbt_spending(our_script(BitcoinNetwork::Regtest));
        let base64 = psbt.to_string();
        assert!(base64.starts_with("cHNidP8"));
        let hex = alloy_primitives::hex::encode(psbt.serialize());
        for text in [
            base64.clone(),
            format!("  {base64}\n"),
            hex.clone(),
            format!("0x{}", hex.to_uppercase()),
        ] {
            assert_eq!(read_psbt(&text).unwrap().unwrap(), psbt, "{text}");
        }
        assert!(matches!(
            read_psbt("cHNidP8BAA=="),
            Some(Err(SignError::Unreadable(_)))
        ));
        assert!(read_psbt("0200000001abcdef").is_none());
        assert!(read_psbt(&"ab".repeat(32)).is_none());
        assert_eq!(finalize_handed_back(psbt), Err(SignError::NothingSigned));
    }

    #[test]
    fn a_final_transaction_is_checked_against_the_coins_of_the_verified_psbt() {
        let network = BitcoinNetwork::Regtest;
        let psbt = psbt_spending(our_script(network));
        let tx = sign_onramp_psbt(&seed(), network, &psbt.serialize()).unwrap();
        assert_eq!(check_against_psbt(&tx, &psbt.serialize()), Ok(()));
        // The same transaction claimed against a PSBT whose coin is worth more: the signature does not hold.
        let mut richer = psbt.clone();
        richer.inputs[0].witness_utxo.as_mut().unwrap().value = Amount::from_sat(100_500);
        assert!(matches!(
            check_against_psbt(&tx, &richer.serialize()),
            Err(SignError::Consensus(_))
        ));
    }

    #[test]
    fn an_unsigned_psbt_handed_back_is_told_apart_and_a_signed_one_is_finalized() {
        let network = BitcoinNetwork::Regtest;
        let unsigned = psbt_spending(our_script(network));
        assert!(!has_signatures(&unsigned));
        assert_eq!(
            finalize(unsigned.clone()),
            Err(SignError::Unsigned { index: 0 })
        );
        // What a hardware wallet hands back: partial signatures, not final.
        let account = BitcoinAccount::of(&seed(), network).unwrap();
        let mut signed = unsigned;
        signed.inputs[0].bip32_derivation = BTreeMap::from([(account.public.0, account.origin())]);
        account.sign(&mut signed).unwrap();
        assert!(has_signatures(&signed));
        let tx = finalize(signed).unwrap();
        assert_eq!(tx.input[0].witness.len(), 2);
    }
}
