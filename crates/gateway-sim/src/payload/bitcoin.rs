//! Onramp payloads: the deposit address, the OP_RETURN commitment, the PSBT, and the register-tx check.
//!
//! # Derivations (all deterministic)
//!
//! - **Deposit key**: the secp256k1 secret key `HMAC-SHA256(secret, "deposit" || order_id)` (in the negligible case
//!   that this is not a valid scalar, HMAC-SHA256 of the previous output under the same key, until it is). The deposit
//!   address is the P2WPKH address of its compressed public key on the gateway's network.
//! - **OP_RETURN commitment** ([`order_commitment`]): `SHA-256("gateway-sim/onramp-commitment/v1" || quote_digest ||
//!   order_id)`, where `quote_digest` is the quote's 32-byte canonical digest and `order_id` its UTF-8 bytes (the tag
//!   and the digest have fixed lengths, so the string is unambiguous). The output script is `OP_RETURN <32 bytes>`.
//! - **Funding outpoint** of the PSBT: the sender's coin is invented. For a segwit sender (any witness program:
//!   P2WPKH, P2WSH, P2TR) it is `(sha256d("gateway-sim funding" || order_id), 0)` and the PSBT input carries
//!   `witness_utxo`. A legacy sender (P2PKH, P2SH) needs the whole previous transaction (`non_witness_utxo`), whose
//!   txid must be the outpoint's: that transaction (version 2, locktime 0) spends `(sha256d("gateway-sim funding" ||
//!   order_id), 0)` with an empty script and pays the sender in output 0, and the PSBT input spends
//!   `(its txid, 0)`.
//!
//! # The PSBT (version 0)
//!
//! Unsigned transaction version 2, locktime 0, one input with sequence `0xfffffffd` (replaceable), sighash type left
//! unset (so `SIGHASH_ALL`). The funding coin is worth `amount_sats + FEE_SATS + CHANGE_SATS`. Outputs, in order:
//! `[0]` the deposit address, exactly `amount_sats`; `[1]` `OP_RETURN` with the 32-byte commitment (value 0);
//! `[2]` change of `CHANGE_SATS` back to the sender's own script.

use std::str::FromStr;

use bitcoin::absolute::LockTime;
use bitcoin::hashes::{Hash, sha256d};
use bitcoin::hex::{DisplayHex, FromHex};
use bitcoin::opcodes::all::OP_RETURN;
use bitcoin::psbt::Psbt;
use bitcoin::script::Instruction;
use bitcoin::secp256k1::{PublicKey, Secp256k1, SecretKey};
use bitcoin::transaction::Version;
use bitcoin::{
    Address, Amount, CompressedPublicKey, Network, OutPoint, ScriptBuf, Sequence, Transaction,
    TxIn, TxOut, Txid, Witness,
};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use super::PayloadError;

type HmacSha256 = Hmac<Sha256>;

/// Fee of the PSBT, in sats: about 5.4 sat/vB for its 185 vB with a P2WPKH input (1 input, 3 outputs), and about
/// 3.8 sat/vB for the 263 vB of a legacy P2PKH input.
pub const FEE_SATS: u64 = 1_000;
/// Change returned to the sender by the PSBT, in sats (well above the dust limit of any output type).
pub const CHANGE_SATS: u64 = 10_000;

/// Domain tag of the OP_RETURN commitment.
const COMMITMENT_TAG: &[u8] = b"gateway-sim/onramp-commitment/v1";
/// Domain tag of the invented funding outpoint.
const FUNDING_TAG: &[u8] = b"gateway-sim funding";

/// What create-order returns for an onramp.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnrampPayload {
    /// The P2WPKH deposit address of the order, on the gateway's network.
    pub address: String,
    /// Lower-case hex of the 32 OP_RETURN payload bytes (the pushed data, not the script).
    pub op_return_data: String,
    /// Hex of a PSBT (v0) paying `address` and the commitment, when the quote named a sender.
    pub psbt_hex: Option<String>,
}

/// Why a Bitcoin transaction handed to register-tx was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BitcoinTxError {
    /// Not hex, or not exactly one consensus-encoded transaction.
    #[error("not a Bitcoin transaction: {0}")]
    Undecodable(String),
    /// No output pays the order's deposit address.
    #[error("no output pays the deposit address {address}")]
    NoPaymentToAddress {
        /// The deposit address.
        address: String,
    },
    /// The outputs to the deposit address add up to less than the order's amount (in sats). The server maps this to
    /// `INSUFFICIENT_PAYMENT_AMOUNT {expected, actual}`.
    #[error("the transaction pays {actual} sats to the deposit address, {expected} expected")]
    Underpaid {
        /// The order's amount.
        expected: u64,
        /// The sum of the outputs to the deposit address.
        actual: u64,
    },
    /// No OP_RETURN output at all.
    #[error("the transaction has no OP_RETURN output")]
    MissingOpReturn,
    /// OP_RETURN output(s), none of which carries exactly the order's commitment.
    #[error("the OP_RETURN data {found} is not the order's {expected}")]
    WrongOpReturn {
        /// The order's commitment (hex).
        expected: String,
        /// The data pushed by the first OP_RETURN output (hex of all its pushes, concatenated).
        found: String,
    },
    /// The expectation itself is unusable (the caller's deposit address or commitment hex is malformed).
    #[error("invalid expectation: {0}")]
    InvalidExpectation(String),
}

/// The deposit address of `order_id`: P2WPKH on `network` of the key derived from `secret` (see the module docs).
pub fn deposit_address(secret: &[u8; 32], order_id: &str, network: Network) -> String {
    Address::p2wpkh(&deposit_public_key(secret, order_id), network).to_string()
}

/// The deposit key's public half.
fn deposit_public_key(secret: &[u8; 32], order_id: &str) -> CompressedPublicKey {
    let mut mac = HmacSha256::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(b"deposit");
    mac.update(order_id.as_bytes());
    let mut bytes: [u8; 32] = mac.finalize().into_bytes().into();
    let key = loop {
        match SecretKey::from_slice(&bytes) {
            Ok(key) => break key,
            Err(_) => {
                let mut mac =
                    HmacSha256::new_from_slice(secret).expect("HMAC takes any key length");
                mac.update(&bytes);
                bytes = mac.finalize().into_bytes().into();
            }
        }
    };
    CompressedPublicKey(PublicKey::from_secret_key(&Secp256k1::signing_only(), &key))
}

/// The 32-byte OP_RETURN commitment of an order: `SHA-256("gateway-sim/onramp-commitment/v1" || quote_digest ||
/// order_id)`.
pub fn order_commitment(order_id: &str, quote_digest: &[u8; 32]) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(COMMITMENT_TAG);
    hasher.update(quote_digest);
    hasher.update(order_id.as_bytes());
    hasher.finalize().into()
}

/// The onramp payload of an order.
///
/// `secret` is the sim's 32-byte secret, `order_id` the order's id, `quote_digest` the quote's canonical digest,
/// `amount_sats` what the user must pay (1 sat up to 21 million BTC less [`FEE_SATS`] and [`CHANGE_SATS`]).
/// `sender`, when given, must be a Bitcoin address valid for `network`; then the payload carries a PSBT (see the
/// module docs).
pub fn onramp_payload(
    secret: &[u8; 32],
    order_id: &str,
    quote_digest: &[u8; 32],
    network: Network,
    amount_sats: u64,
    sender: Option<&str>,
) -> Result<OnrampPayload, PayloadError> {
    let max = Amount::MAX_MONEY.to_sat() - FEE_SATS - CHANGE_SATS;
    if amount_sats == 0 || amount_sats > max {
        return Err(PayloadError::AmountOutOfRange {
            field: "amount_sats",
            value: amount_sats.to_string(),
            reason: format!("must be between 1 and {max} sats"),
        });
    }
    let deposit = Address::p2wpkh(&deposit_public_key(secret, order_id), network);
    let commitment = order_commitment(order_id, quote_digest);
    let psbt_hex = match sender {
        None => None,
        Some(sender) => {
            let sender_script = parse_address(sender, network, "sender")?.script_pubkey();
            Some(
                build_psbt(order_id, &deposit, &commitment, amount_sats, sender_script)
                    .serialize_hex(),
            )
        }
    };
    Ok(OnrampPayload {
        address: deposit.to_string(),
        op_return_data: commitment.to_lower_hex_string(),
        psbt_hex,
    })
}

/// Parses a Bitcoin address and requires it to be valid on `network`.
fn parse_address(
    value: &str,
    network: Network,
    field: &'static str,
) -> Result<Address, PayloadError> {
    let invalid = |reason: String| PayloadError::InvalidAddress {
        field,
        value: value.to_string(),
        reason,
    };
    Address::from_str(value)
        .map_err(|e| invalid(e.to_string()))?
        .require_network(network)
        .map_err(|_| invalid(format!("not an address of the {network} network")))
}

/// The PSBT paying `deposit` and the commitment from the sender's invented coin.
fn build_psbt(
    order_id: &str,
    deposit: &Address,
    commitment: &[u8; 32],
    amount_sats: u64,
    sender_script: ScriptBuf,
) -> Psbt {
    let mut tag = FUNDING_TAG.to_vec();
    tag.extend_from_slice(order_id.as_bytes());
    let funding_outpoint = OutPoint::new(Txid::from_raw_hash(sha256d::Hash::hash(&tag)), 0);
    let funding_output = TxOut {
        value: Amount::from_sat(amount_sats + FEE_SATS + CHANGE_SATS),
        script_pubkey: sender_script.clone(),
    };
    let segwit = sender_script.is_witness_program();
    // A legacy sender's coin is output 0 of an invented previous transaction, given whole.
    let previous_tx = (!segwit).then(|| Transaction {
        version: Version::TWO,
        lock_time: LockTime::ZERO,
        input: vec![TxIn {
            previous_output: funding_outpoint,
            script_sig: ScriptBuf::new(),
            sequence: Sequence::ENABLE_RBF_NO_LOCKTIME,
            witness: Witness::new(),
        }],
        output: vec![funding_output.clone()],
    });
    let spent = match &previous_tx {
        Some(tx) => OutPoint::new(tx.compute_txid(), 0),
        None => funding_outpoint,
    };
    let unsigned = Transaction {
        version: Version::TWO,
        lock_time: LockTime::ZERO,
        input: vec![TxIn {
            previous_output: spent,
            script_sig: ScriptBuf::new(),
            sequence: Sequence::ENABLE_RBF_NO_LOCKTIME,
            witness: Witness::new(),
        }],
        output: vec![
            TxOut {
                value: Amount::from_sat(amount_sats),
                script_pubkey: deposit.script_pubkey(),
            },
            TxOut {
                value: Amount::ZERO,
                script_pubkey: ScriptBuf::new_op_return(commitment),
            },
            TxOut {
                value: Amount::from_sat(CHANGE_SATS),
                script_pubkey: sender_script,
            },
        ],
    };
    let mut psbt = Psbt::from_unsigned_tx(unsigned).expect("the transaction is unsigned");
    match previous_tx {
        Some(tx) => psbt.inputs[0].non_witness_utxo = Some(tx),
        None => psbt.inputs[0].witness_utxo = Some(funding_output),
    }
    psbt
}

/// The register-tx check of an onramp: `tx_hex` (surrounding whitespace ignored) must be hex of exactly one
/// consensus-encoded transaction whose outputs to `address` (valid on `network`) add up to at least `amount_sats`
/// and which has an OP_RETURN output pushing exactly the bytes of `op_return_data` (hex). Returns the txid (the
/// usual display hex).
///
/// Checked in this order: decoding, a payment to the address, its amount, the OP_RETURN.
pub fn check_onramp_tx(
    tx_hex: &str,
    address: &str,
    network: Network,
    amount_sats: u64,
    op_return_data: &str,
) -> Result<String, BitcoinTxError> {
    let expected_script = parse_address(address, network, "address")
        .map_err(|e| BitcoinTxError::InvalidExpectation(e.to_string()))?
        .script_pubkey();
    let expected_data = Vec::<u8>::from_hex(op_return_data)
        .map_err(|e| BitcoinTxError::InvalidExpectation(format!("op_return_data: {e}")))?;

    let bytes = Vec::<u8>::from_hex(tx_hex.trim())
        .map_err(|e| BitcoinTxError::Undecodable(e.to_string()))?;
    let tx: Transaction = bitcoin::consensus::deserialize(&bytes)
        .map_err(|e| BitcoinTxError::Undecodable(e.to_string()))?;

    let mut paying = tx
        .output
        .iter()
        .filter(|out| out.script_pubkey == expected_script)
        .peekable();
    if paying.peek().is_none() {
        return Err(BitcoinTxError::NoPaymentToAddress {
            address: address.to_string(),
        });
    }
    let actual = paying.fold(0u64, |sum, out| sum.saturating_add(out.value.to_sat()));
    if actual < amount_sats {
        return Err(BitcoinTxError::Underpaid {
            expected: amount_sats,
            actual,
        });
    }

    let pushed: Vec<(Vec<u8>, bool)> = tx
        .output
        .iter()
        .filter_map(|out| op_return_pushes(&out.script_pubkey))
        .collect();
    if pushed.is_empty() {
        return Err(BitcoinTxError::MissingOpReturn);
    }
    if !pushed
        .iter()
        .any(|(data, single)| *single && *data == expected_data)
    {
        return Err(BitcoinTxError::WrongOpReturn {
            expected: expected_data.to_lower_hex_string(),
            found: pushed[0].0.to_lower_hex_string(),
        });
    }
    Ok(tx.compute_txid().to_string())
}

/// What an output script pushes after `OP_RETURN`, or `None` when it is not an OP_RETURN script: the bytes of all
/// its pushes (and opcodes) concatenated, and whether it is exactly one push (the only form that can match).
fn op_return_pushes(script: &bitcoin::Script) -> Option<(Vec<u8>, bool)> {
    let mut instructions = script.instructions();
    match instructions.next() {
        Some(Ok(Instruction::Op(op))) if op == OP_RETURN => {}
        _ => return None,
    }
    let rest: Vec<_> = instructions.collect();
    let single = matches!(rest.as_slice(), [Ok(Instruction::PushBytes(_))]);
    let mut all = Vec::new();
    for item in rest {
        match item {
            Ok(Instruction::PushBytes(data)) => all.extend_from_slice(data.as_bytes()),
            Ok(Instruction::Op(op)) => all.push(op.to_u8()),
            Err(_) => break,
        }
    }
    Some((all, single))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::payload::testkit::TestWallet;
    use bitcoin::consensus::encode::serialize_hex;

    const SECRET: [u8; 32] = [42; 32];
    const DIGEST: [u8; 32] = [7; 32];
    const ORDER: &str = "3f2a9c1e-6b4d-4a8f-9e21-c05b7d3e8a64";
    const AMOUNT: u64 = 250_000;

    fn wallet() -> TestWallet {
        TestWallet::from_seed([1; 32])
    }

    fn payload_for(network: Network, sender: Option<&str>) -> OnrampPayload {
        onramp_payload(&SECRET, ORDER, &DIGEST, network, AMOUNT, sender).unwrap()
    }

    fn psbt_of(payload: &OnrampPayload) -> Psbt {
        let bytes = Vec::<u8>::from_hex(payload.psbt_hex.as_deref().unwrap()).unwrap();
        Psbt::deserialize(&bytes).unwrap()
    }

    /// A signed payment of the order by the test wallet.
    fn signed(network: Network) -> (OnrampPayload, Transaction) {
        let payload = payload_for(network, Some(&wallet().address(network)));
        let hex = wallet()
            .sign_psbt(payload.psbt_hex.as_deref().unwrap())
            .unwrap();
        (
            payload,
            bitcoin::consensus::encode::deserialize_hex(&hex).unwrap(),
        )
    }

    fn check(payload: &OnrampPayload, tx: &Transaction) -> Result<String, BitcoinTxError> {
        check_onramp_tx(
            &serialize_hex(tx),
            &payload.address,
            Network::Bitcoin,
            AMOUNT,
            &payload.op_return_data,
        )
    }

    #[test]
    fn addresses_belong_to_the_network() {
        for (network, prefix) in [
            (Network::Bitcoin, "bc1q"),
            (Network::Testnet, "tb1q"),
            (Network::Signet, "tb1q"),
            (Network::Regtest, "bcrt1q"),
        ] {
            let payload = payload_for(network, None);
            assert!(payload.address.starts_with(prefix), "{}", payload.address);
            let parsed = Address::from_str(&payload.address)
                .unwrap()
                .require_network(network)
                .unwrap();
            assert!(parsed.script_pubkey().is_p2wpkh());
            assert_eq!(payload.address, deposit_address(&SECRET, ORDER, network));
            assert!(payload.psbt_hex.is_none());
        }
        // Another order or another secret: another address.
        let other =
            onramp_payload(&SECRET, "other", &DIGEST, Network::Bitcoin, AMOUNT, None).unwrap();
        assert_ne!(other.address, payload_for(Network::Bitcoin, None).address);
        assert_ne!(
            deposit_address(&[43; 32], ORDER, Network::Bitcoin),
            deposit_address(&SECRET, ORDER, Network::Bitcoin)
        );
    }

    #[test]
    fn op_return_data_is_the_documented_commitment() {
        let payload = payload_for(Network::Bitcoin, None);
        let mut preimage = b"gateway-sim/onramp-commitment/v1".to_vec();
        preimage.extend_from_slice(&DIGEST);
        preimage.extend_from_slice(ORDER.as_bytes());
        assert_eq!(
            payload.op_return_data,
            Sha256::digest(&preimage).to_lower_hex_string()
        );
        assert_eq!(payload.op_return_data.len(), 64);
        let other =
            onramp_payload(&SECRET, ORDER, &[8; 32], Network::Bitcoin, AMOUNT, None).unwrap();
        assert_ne!(other.op_return_data, payload.op_return_data);
    }

    #[test]
    fn psbt_for_a_segwit_sender() {
        let sender = wallet().address(Network::Bitcoin);
        let payload = payload_for(Network::Bitcoin, Some(&sender));
        let psbt = psbt_of(&payload);
        let tx = &psbt.unsigned_tx;
        assert_eq!(tx.version, Version::TWO);
        assert_eq!(tx.lock_time, LockTime::ZERO);
        assert_eq!(tx.input.len(), 1);
        assert_eq!(tx.input[0].sequence, Sequence::ENABLE_RBF_NO_LOCKTIME);
        let mut tag = b"gateway-sim funding".to_vec();
        tag.extend_from_slice(ORDER.as_bytes());
        assert_eq!(
            tx.input[0].previous_output,
            OutPoint::new(Txid::from_raw_hash(sha256d::Hash::hash(&tag)), 0)
        );

        let input = &psbt.inputs[0];
        assert!(input.non_witness_utxo.is_none());
        assert!(input.sighash_type.is_none());
        let utxo = input.witness_utxo.as_ref().unwrap();
        assert_eq!(utxo.script_pubkey, wallet().script_pubkey());
        assert_eq!(utxo.value.to_sat(), AMOUNT + FEE_SATS + CHANGE_SATS);

        let deposit = Address::from_str(&payload.address)
            .unwrap()
            .assume_checked();
        assert_eq!(tx.output.len(), 3);
        assert_eq!(tx.output[0].script_pubkey, deposit.script_pubkey());
        assert_eq!(tx.output[0].value.to_sat(), AMOUNT);
        let commitment = <[u8; 32]>::from_hex(&payload.op_return_data).unwrap();
        assert_eq!(
            tx.output[1].script_pubkey,
            ScriptBuf::new_op_return(commitment)
        );
        assert_eq!(tx.output[1].value, Amount::ZERO);
        assert_eq!(tx.output[2].script_pubkey, wallet().script_pubkey());
        assert_eq!(tx.output[2].value.to_sat(), CHANGE_SATS);
        let fee = psbt.fee().unwrap().to_sat();
        assert_eq!(fee, FEE_SATS);
    }

    #[test]
    fn psbt_for_a_legacy_sender_carries_the_previous_transaction() {
        // P2PKH of the compressed key of secret 1 (the generator point).
        let p2pkh = "1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH";
        let payload = payload_for(Network::Bitcoin, Some(p2pkh));
        let psbt = psbt_of(&payload);
        let input = &psbt.inputs[0];
        assert!(input.witness_utxo.is_none());
        let previous = input.non_witness_utxo.as_ref().unwrap();
        let outpoint = psbt.unsigned_tx.input[0].previous_output;
        assert_eq!(previous.compute_txid(), outpoint.txid);
        let spent = &previous.output[outpoint.vout as usize];
        let sender_script = Address::from_str(p2pkh)
            .unwrap()
            .assume_checked()
            .script_pubkey();
        assert!(sender_script.is_p2pkh());
        assert_eq!(spent.script_pubkey, sender_script);
        assert_eq!(spent.value.to_sat(), AMOUNT + FEE_SATS + CHANGE_SATS);
        assert_eq!(psbt.unsigned_tx.output[2].script_pubkey, sender_script);
        assert_eq!(psbt.fee().unwrap().to_sat(), FEE_SATS);
        // The wallet refuses to sign what is not its own.
        assert!(matches!(
            wallet().sign_psbt(payload.psbt_hex.as_deref().unwrap()),
            Err(crate::payload::testkit::SignError::NotMine(0))
        ));
    }

    #[test]
    fn sender_on_another_network_or_malformed_is_refused() {
        let testnet_sender = wallet().address(Network::Testnet);
        for (network, sender) in [
            (Network::Bitcoin, testnet_sender.as_str()),
            (
                Network::Regtest,
                "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
            ),
            (Network::Bitcoin, "bc1qnotanaddress"),
        ] {
            let err =
                onramp_payload(&SECRET, ORDER, &DIGEST, network, AMOUNT, Some(sender)).unwrap_err();
            assert!(
                matches!(
                    err,
                    PayloadError::InvalidAddress {
                        field: "sender",
                        ..
                    }
                ),
                "{err}"
            );
        }
        // Testnet and signet share their addresses.
        onramp_payload(
            &SECRET,
            ORDER,
            &DIGEST,
            Network::Signet,
            AMOUNT,
            Some(&testnet_sender),
        )
        .unwrap();
    }

    #[test]
    fn amounts_out_of_range_are_refused() {
        for amount in [0, Amount::MAX_MONEY.to_sat()] {
            let err = onramp_payload(&SECRET, ORDER, &DIGEST, Network::Bitcoin, amount, None)
                .unwrap_err();
            assert!(matches!(
                err,
                PayloadError::AmountOutOfRange {
                    field: "amount_sats",
                    ..
                }
            ));
        }
    }

    #[test]
    fn signed_payment_is_accepted() {
        let (payload, tx) = signed(Network::Bitcoin);
        assert_eq!(tx.input[0].witness.len(), 2);
        // The fee rate is the plausible one documented at FEE_SATS.
        let vsize = tx.vsize() as u64;
        assert!((180..=190).contains(&vsize), "{vsize} vB");
        assert!(
            (4..=6).contains(&(FEE_SATS / vsize)),
            "{} sat/vB",
            FEE_SATS / vsize
        );
        assert_eq!(check(&payload, &tx).unwrap(), tx.compute_txid().to_string());
        // Whitespace around the hex is tolerated; overpaying is fine.
        let hex = format!(" {}\n", serialize_hex(&tx));
        check_onramp_tx(
            &hex,
            &payload.address,
            Network::Bitcoin,
            AMOUNT - 1,
            &payload.op_return_data,
        )
        .unwrap();
        // On regtest too.
        let (payload, tx) = signed(Network::Regtest);
        let txid = check_onramp_tx(
            &serialize_hex(&tx),
            &payload.address,
            Network::Regtest,
            AMOUNT,
            &payload.op_return_data,
        )
        .unwrap();
        assert_eq!(txid, tx.compute_txid().to_string());
    }

    #[test]
    fn tampered_payments_are_refused_with_their_error() {
        let (payload, tx) = signed(Network::Bitcoin);

        let mut less = tx.clone();
        less.output[0].value = Amount::from_sat(AMOUNT - 1);
        assert_eq!(
            check(&payload, &less),
            Err(BitcoinTxError::Underpaid {
                expected: AMOUNT,
                actual: AMOUNT - 1
            })
        );

        let mut other_commitment = tx.clone();
        other_commitment.output[1].script_pubkey = ScriptBuf::new_op_return([9u8; 32]);
        assert_eq!(
            check(&payload, &other_commitment),
            Err(BitcoinTxError::WrongOpReturn {
                expected: payload.op_return_data.clone(),
                found: [9u8; 32].to_lower_hex_string(),
            })
        );

        let mut no_op_return = tx.clone();
        no_op_return.output.remove(1);
        assert_eq!(
            check(&payload, &no_op_return),
            Err(BitcoinTxError::MissingOpReturn)
        );

        let mut elsewhere = tx.clone();
        elsewhere.output[0].script_pubkey = wallet().script_pubkey();
        assert_eq!(
            check(&payload, &elsewhere),
            Err(BitcoinTxError::NoPaymentToAddress {
                address: payload.address.clone()
            })
        );

        // The same commitment split over two pushes does not count.
        let commitment = <[u8; 32]>::from_hex(&payload.op_return_data).unwrap();
        let mut split = tx.clone();
        split.output[1].script_pubkey = bitcoin::script::Builder::new()
            .push_opcode(OP_RETURN)
            .push_slice(<&[u8; 16]>::try_from(&commitment[..16]).unwrap())
            .push_slice(<&[u8; 16]>::try_from(&commitment[16..]).unwrap())
            .into_script();
        assert!(matches!(
            check(&payload, &split),
            Err(BitcoinTxError::WrongOpReturn { .. })
        ));

        // Two outputs to the address add up.
        let mut halves = tx.clone();
        halves.output[0].value = Amount::from_sat(AMOUNT / 2);
        halves.output.push(halves.output[0].clone());
        assert!(check(&payload, &halves).is_ok());
    }

    #[test]
    fn undecodable_input_is_refused() {
        let (payload, tx) = signed(Network::Bitcoin);
        let hex = serialize_hex(&tx);
        for bad in ["", "zz", "0x00", &hex[..hex.len() - 2], &format!("{hex}00")] {
            let result = check_onramp_tx(
                bad,
                &payload.address,
                Network::Bitcoin,
                AMOUNT,
                &payload.op_return_data,
            );
            assert!(
                matches!(result, Err(BitcoinTxError::Undecodable(_))),
                "{bad:?}: {result:?}"
            );
        }
        let result = check_onramp_tx(
            &hex,
            "nope",
            Network::Bitcoin,
            AMOUNT,
            &payload.op_return_data,
        );
        assert!(matches!(result, Err(BitcoinTxError::InvalidExpectation(_))));
    }

    #[test]
    fn deterministic() {
        let sender = wallet().address(Network::Bitcoin);
        assert_eq!(
            payload_for(Network::Bitcoin, Some(&sender)),
            payload_for(Network::Bitcoin, Some(&sender))
        );
        assert_eq!(signed(Network::Bitcoin).1, signed(Network::Bitcoin).1);
    }
}
