//! A fixed-key Bitcoin wallet, **for tests and the sandbox only**: it signs the onramp PSBT so a test can prove the
//! whole round trip (create-order → sign → register-tx). Its key is derived from a public seed: never send real money
//! to its addresses.

use bitcoin::hashes::{Hash as _, sha256};
use bitcoin::hex::FromHex as _;
use bitcoin::psbt::Psbt;
use bitcoin::secp256k1::{Message, Secp256k1, SecretKey};
use bitcoin::sighash::{EcdsaSighashType, SighashCache};
use bitcoin::{Address, CompressedPublicKey, Network, ScriptBuf, Witness, ecdsa};

/// Why [`TestWallet::sign_psbt`] failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignError {
    /// Not hex of a PSBT.
    #[error("not a PSBT: {0}")]
    BadPsbt(String),
    /// The input does not say what it spends (no `witness_utxo`, no usable `non_witness_utxo`).
    #[error("input {0} has no previous output")]
    MissingUtxo(usize),
    /// The input spends a script that is not this wallet's P2WPKH script.
    #[error("input {0} does not spend this wallet's P2WPKH script")]
    NotMine(usize),
    /// The sighash could not be computed (for instance a non-standard sighash type).
    #[error("input {input}: {reason}")]
    Sighash {
        /// The input.
        input: usize,
        /// What went wrong.
        reason: String,
    },
    /// The finalized transaction could not be extracted (for instance an absurd fee rate).
    #[error("cannot extract the transaction: {0}")]
    Extract(String),
}

/// A single-key P2WPKH wallet with a key made from a seed. For tests and the sandbox only.
#[derive(Debug, Clone)]
pub struct TestWallet {
    secret: SecretKey,
    public: CompressedPublicKey,
}

impl TestWallet {
    /// The wallet of `seed`: its secret key is `SHA-256("gateway-sim test wallet" || seed)`, hashed again while it is
    /// not a valid secp256k1 scalar.
    pub fn from_seed(seed: [u8; 32]) -> Self {
        let mut bytes =
            sha256::Hash::hash(&[b"gateway-sim test wallet".as_slice(), &seed].concat())
                .to_byte_array();
        let secret = loop {
            match SecretKey::from_slice(&bytes) {
                Ok(key) => break key,
                Err(_) => bytes = sha256::Hash::hash(&bytes).to_byte_array(),
            }
        };
        let public = CompressedPublicKey(secret.public_key(&Secp256k1::signing_only()));
        Self { secret, public }
    }

    /// The wallet's P2WPKH address on `network` (`bc1q…`, `tb1q…`, `bcrt1q…`).
    pub fn address(&self, network: Network) -> String {
        Address::p2wpkh(&self.public, network).to_string()
    }

    /// The wallet's P2WPKH output script (the same on every network).
    pub fn script_pubkey(&self) -> ScriptBuf {
        ScriptBuf::new_p2wpkh(&self.public.wpubkey_hash())
    }

    /// Signs every input of the PSBT (hex), each of which must spend this wallet's P2WPKH script, with the BIP 143
    /// sighash of the input's sighash type (`SIGHASH_ALL` when unset), finalizes them (`final_script_witness`) and
    /// returns the extracted transaction as consensus hex, ready for register-tx.
    pub fn sign_psbt(&self, psbt_hex: &str) -> Result<String, SignError> {
        let bytes =
            Vec::<u8>::from_hex(psbt_hex.trim()).map_err(|e| SignError::BadPsbt(e.to_string()))?;
        let mut psbt = Psbt::deserialize(&bytes).map_err(|e| SignError::BadPsbt(e.to_string()))?;
        let own_script = self.script_pubkey();
        let secp = Secp256k1::signing_only();
        let mut witnesses = Vec::with_capacity(psbt.inputs.len());
        {
            let mut cache = SighashCache::new(&psbt.unsigned_tx);
            for (index, input) in psbt.inputs.iter().enumerate() {
                let vout = psbt.unsigned_tx.input[index].previous_output.vout;
                let spent = input.witness_utxo.clone().or_else(|| {
                    input
                        .non_witness_utxo
                        .as_ref()
                        .and_then(|tx| tx.output.get(usize::try_from(vout).ok()?).cloned())
                });
                let spent = spent.ok_or(SignError::MissingUtxo(index))?;
                if spent.script_pubkey != own_script {
                    return Err(SignError::NotMine(index));
                }
                let sighash_type = match input.sighash_type {
                    None => EcdsaSighashType::All,
                    Some(ty) => ty.ecdsa_hash_ty().map_err(|e| SignError::Sighash {
                        input: index,
                        reason: e.to_string(),
                    })?,
                };
                let sighash = cache
                    .p2wpkh_signature_hash(index, &own_script, spent.value, sighash_type)
                    .map_err(|e| SignError::Sighash {
                        input: index,
                        reason: e.to_string(),
                    })?;
                let signature = ecdsa::Signature {
                    signature: secp.sign_ecdsa(&Message::from(sighash), &self.secret),
                    sighash_type,
                };
                witnesses.push(Witness::p2wpkh(&signature, &self.public.0));
            }
        }
        for (input, witness) in psbt.inputs.iter_mut().zip(witnesses) {
            input.final_script_witness = Some(witness);
            input.partial_sigs.clear();
            input.sighash_type = None;
        }
        let tx = psbt
            .extract_tx()
            .map_err(|e| SignError::Extract(e.to_string()))?;
        Ok(bitcoin::consensus::encode::serialize_hex(&tx))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitcoin::onramp_payload;
    use bitcoin::Transaction;
    use bitcoin::secp256k1::PublicKey;

    #[test]
    fn the_signature_verifies_against_the_bip143_sighash() {
        let wallet = TestWallet::from_seed([3; 32]);
        assert_eq!(
            wallet.address(Network::Bitcoin),
            TestWallet::from_seed([3; 32]).address(Network::Bitcoin)
        );
        assert_ne!(
            wallet.address(Network::Bitcoin),
            TestWallet::from_seed([4; 32]).address(Network::Bitcoin)
        );
        assert!(wallet.address(Network::Regtest).starts_with("bcrt1q"));
        let sender = wallet.address(Network::Regtest);
        let payload = onramp_payload(
            &[1; 32],
            "order",
            &[2; 32],
            Network::Regtest,
            20_000,
            Some(&sender),
        )
        .unwrap();
        let psbt_hex = payload.psbt_hex.unwrap();
        let tx: Transaction =
            bitcoin::consensus::encode::deserialize_hex(&wallet.sign_psbt(&psbt_hex).unwrap())
                .unwrap();

        let bytes = Vec::<u8>::from_hex(&psbt_hex).unwrap();
        let utxo = Psbt::deserialize(&bytes).unwrap().inputs[0]
            .witness_utxo
            .clone()
            .unwrap();
        let sighash = SighashCache::new(&tx)
            .p2wpkh_signature_hash(0, &utxo.script_pubkey, utxo.value, EcdsaSighashType::All)
            .unwrap();
        let witness = &tx.input[0].witness;
        let signature = ecdsa::Signature::from_slice(&witness[0]).unwrap();
        assert_eq!(signature.sighash_type, EcdsaSighashType::All);
        let public = PublicKey::from_slice(&witness[1]).unwrap();
        assert_eq!(
            CompressedPublicKey(public).wpubkey_hash(),
            wallet.public.wpubkey_hash()
        );
        Secp256k1::verification_only()
            .verify_ecdsa(&Message::from(sighash), &signature.signature, &public)
            .unwrap();
    }

    #[test]
    fn garbage_is_not_a_psbt() {
        let wallet = TestWallet::from_seed([3; 32]);
        assert!(matches!(wallet.sign_psbt("zz"), Err(SignError::BadPsbt(_))));
        assert!(matches!(wallet.sign_psbt("00"), Err(SignError::BadPsbt(_))));
    }
}
