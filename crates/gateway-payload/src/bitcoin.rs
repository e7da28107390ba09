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
//! - **The sender's coin** ([`Coin`]): every Bitcoin output script has one coin on the simulated chain until it is
//!   spent. Its first coin ([`initial_coin`]) is worth `MIN_COIN_SATS + (u64 of SHA-256("gateway-sim coin" ||
//!   script))[..8] mod COIN_SPREAD_SATS` (0.01 to 2 BTC). For a segwit script (any witness program: P2WPKH, P2WSH,
//!   P2TR) its outpoint is `(sha256d("gateway-sim funding" || script), 0)` and the PSBT input carries `witness_utxo`.
//!   A legacy script (P2PKH, P2SH) needs the whole previous transaction (`non_witness_utxo`), whose txid must be the
//!   outpoint's: that transaction (version 2, locktime 0) spends `(sha256d("gateway-sim funding" || script), 0)` with
//!   an empty script and pays the coin in output 0. After an onramp transaction that spends a coin is registered, its
//!   change output is that script's next coin (the order book keeps this ledger; see `Book::coins`). A payment the
//!   gateway makes to a script (an offramp's payout, an onramp's refund) is one more coin of that script
//!   ([`payout_coin`]), so a script can hold several.
//! - **Fees** are [`FEE_RATE_SAT_PER_VB`] (the offramp quotes' `fastestFeeRate` too) times the transaction's virtual
//!   size, the inputs' signatures estimated by script type ([`deposit_fee_sats`]).
//! - **Max spendable** ([`max_spendable`], [`max_spendable_all`]): the coins less the fee of a deposit that spends
//!   them all (no change).
//!
//! # The PSBT (version 0)
//!
//! Unsigned transaction version 2, locktime 0, one input per coin of the sender (all of them, in the ledger's order:
//! most scripts hold one) with sequence `0xfffffffd` (replaceable), sighash type left unset (so `SIGHASH_ALL`). Outputs, in order: `[0]` the deposit address, exactly
//! `amount_sats`; `[1]` `OP_RETURN` with the 32-byte commitment (value 0); `[2]` the change back to the sender's own
//! script: the coins less the amount and the fee, left out when it would be below [`DUST_SATS`] (then the fee takes
//! it). Coins too small for the amount and the fee are refused ([`PayloadError::InsufficientFunds`]).

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

/// The simulated chain's fee rate, in sat/vB: the PSBTs pay it, max-spendable leaves room for it, and the offramp
/// quotes state it as `fastestFeeRate`.
pub const FEE_RATE_SAT_PER_VB: u64 = 12;
/// Change below this many sats is not worth an output (the dust limit of a legacy output): the fee takes it.
pub const DUST_SATS: u64 = 546;
/// The smallest first coin of a script, in sats (0.01 BTC).
pub const MIN_COIN_SATS: u64 = 1_000_000;
/// First coins spread over this many sats above [`MIN_COIN_SATS`] (up to 2 BTC in all).
pub const COIN_SPREAD_SATS: u64 = 199_000_000;

/// Domain tag of the OP_RETURN commitment.
const COMMITMENT_TAG: &[u8] = b"gateway-sim/onramp-commitment/v1";
/// Domain tag of the invented funding outpoint.
const FUNDING_TAG: &[u8] = b"gateway-sim funding";

/// A coin of the simulated chain: what a sender's PSBT spends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coin {
    /// Where it is.
    pub outpoint: OutPoint,
    /// Its value, in sats (0 once spent with no change).
    pub value: u64,
    /// The whole transaction that made it, which a legacy input must carry (`non_witness_utxo`); `None` for segwit.
    pub previous_tx: Option<Transaction>,
}

/// The first coin of `script` (see the module docs): deterministic, 0.01 to 2 BTC.
pub fn initial_coin(script: &bitcoin::Script) -> Coin {
    let digest: [u8; 32] = Sha256::new()
        .chain_update(b"gateway-sim coin")
        .chain_update(script.as_bytes())
        .finalize()
        .into();
    let spread = u64::from_be_bytes(digest[..8].try_into().expect("8 bytes")) % COIN_SPREAD_SATS;
    let value = MIN_COIN_SATS + spread;
    let mut tag = FUNDING_TAG.to_vec();
    tag.extend_from_slice(script.as_bytes());
    let funding = OutPoint::new(Txid::from_raw_hash(sha256d::Hash::hash(&tag)), 0);
    coin_from(script, value, funding)
}

/// The coin of `value` sats to `script` that `outpoint` pays: that outpoint for a SegWit or Taproot script; for a
/// legacy script, whose coin must carry its whole previous transaction, output 0 of an invented transaction with one
/// input spending `outpoint` (so the coin's outpoint is that transaction's).
fn coin_from(script: &bitcoin::Script, value: u64, outpoint: OutPoint) -> Coin {
    if script.is_witness_program() {
        return Coin {
            outpoint,
            value,
            previous_tx: None,
        };
    }
    let previous = Transaction {
        version: Version::TWO,
        lock_time: LockTime::ZERO,
        input: vec![TxIn {
            previous_output: outpoint,
            script_sig: ScriptBuf::new(),
            sequence: Sequence::ENABLE_RBF_NO_LOCKTIME,
            witness: Witness::new(),
        }],
        output: vec![TxOut {
            value: Amount::from_sat(value),
            script_pubkey: script.to_owned(),
        }],
    };
    Coin {
        outpoint: OutPoint::new(previous.compute_txid(), 0),
        value,
        previous_tx: Some(previous),
    }
}

/// The weight, in weight units, that signing adds to an input spending `script` (a typical single-key spend).
fn satisfaction_weight(script: &bitcoin::Script) -> u64 {
    if script.is_p2wpkh() {
        // Witness: item count, a 72-byte signature and a 33-byte key, each with its length; plus segwit's marker
        // and flag.
        2 + 1 + 73 + 34
    } else if script.is_p2tr() {
        2 + 1 + 65
    } else if script.is_p2pkh() {
        // scriptSig of a 72-byte signature and a 33-byte key, each with its push, at 4 WU a byte.
        4 * (73 + 34)
    } else if script.is_p2sh() {
        // P2SH-P2WPKH: the 23-byte redeem script push, and the P2WPKH witness.
        4 * 23 + 2 + 1 + 73 + 34
    } else {
        // P2WSH and anything else: room for a small multisig witness.
        2 + 1 + 2 * 73 + 1 + 106
    }
}

/// The fee, in sats, of a deposit spending one coin of `sender_script`: outputs to a P2WPKH deposit address, the
/// 32-byte OP_RETURN and (`with_change`) change back to `sender_script`, at [`FEE_RATE_SAT_PER_VB`].
pub fn deposit_fee_sats(sender_script: &bitcoin::Script, with_change: bool) -> u64 {
    deposit_fee_sats_spending(sender_script, 1, with_change)
}

/// [`deposit_fee_sats`] for a deposit spending `inputs` coins of `sender_script` (at least one).
pub fn deposit_fee_sats_spending(
    sender_script: &bitcoin::Script,
    inputs: usize,
    with_change: bool,
) -> u64 {
    let mut outputs = vec![
        TxOut {
            value: Amount::ZERO,
            script_pubkey: ScriptBuf::new_p2wpkh(&bitcoin::WPubkeyHash::all_zeros()),
        },
        TxOut {
            value: Amount::ZERO,
            script_pubkey: ScriptBuf::new_op_return([0u8; 32]),
        },
    ];
    if with_change {
        outputs.push(TxOut {
            value: Amount::ZERO,
            script_pubkey: sender_script.to_owned(),
        });
    }
    let spent = vec![OutPoint::null(); inputs.max(1)];
    fee_of(&unsigned_tx(&spent, outputs), sender_script)
}

/// The fee of the unsigned transaction `tx`, each of whose inputs spends `sender_script`, once they are signed.
fn fee_of(tx: &Transaction, sender_script: &bitcoin::Script) -> u64 {
    let inputs = u64::try_from(tx.input.len()).unwrap_or(u64::MAX);
    let weight = tx
        .weight()
        .to_wu()
        .saturating_add(satisfaction_weight(sender_script).saturating_mul(inputs));
    weight.div_ceil(4).saturating_mul(FEE_RATE_SAT_PER_VB)
}

fn unsigned_tx(spent: &[OutPoint], output: Vec<TxOut>) -> Transaction {
    Transaction {
        version: Version::TWO,
        lock_time: LockTime::ZERO,
        input: spent
            .iter()
            .map(|outpoint| TxIn {
                previous_output: *outpoint,
                script_sig: ScriptBuf::new(),
                sequence: Sequence::ENABLE_RBF_NO_LOCKTIME,
                witness: Witness::new(),
            })
            .collect(),
        output,
    }
}

/// The most a deposit from `coin` (of `sender_script`) can pay: the coin less the fee of spending it all, 0 when the
/// coin cannot even pay the fee.
pub fn max_spendable(coin: &Coin, sender_script: &bitcoin::Script) -> u64 {
    max_spendable_all(std::slice::from_ref(coin), sender_script)
}

/// The most a deposit spending all of `coins` (of `sender_script`) can pay: their sum less the fee of spending them
/// all, 0 when there are none or they cannot even pay the fee.
pub fn max_spendable_all(coins: &[Coin], sender_script: &bitcoin::Script) -> u64 {
    if coins.is_empty() {
        return 0;
    }
    total_sats(coins).saturating_sub(deposit_fee_sats_spending(sender_script, coins.len(), false))
}

fn total_sats(coins: &[Coin]) -> u64 {
    coins
        .iter()
        .fold(0u64, |sum, coin| sum.saturating_add(coin.value))
}

/// The coin a payment of `value` sats to `script` makes, for the transaction whose id is `txid` (an offramp's payout
/// or an onramp's refund, as the order shows it): output 0 of that transaction. A legacy script's coin must carry its
/// whole previous transaction, whose id is then its own (one input spending `(txid, 0)`), so such a coin's outpoint is
/// that transaction's, not `txid`.
pub fn payout_coin(script: &bitcoin::Script, value: u64, txid: Txid) -> Coin {
    coin_from(script, value, OutPoint::new(txid, 0))
}

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

/// The onramp payload of an order, the sender (if any) spending its first coin ([`initial_coin`]); see
/// [`onramp_payload_from`].
pub fn onramp_payload(
    secret: &[u8; 32],
    order_id: &str,
    quote_digest: &[u8; 32],
    network: Network,
    amount_sats: u64,
    sender: Option<&str>,
) -> Result<OnrampPayload, PayloadError> {
    onramp_payload_from(
        secret,
        order_id,
        quote_digest,
        network,
        amount_sats,
        sender,
        |script| vec![initial_coin(script)],
    )
}

/// The onramp payload of an order.
///
/// `secret` is the sim's 32-byte secret, `order_id` the order's id, `quote_digest` the digest naming the quote,
/// `amount_sats` what the user must pay (1 sat up to 21 million BTC). `sender`, when given, must be a Bitcoin address
/// valid for `network`; then the payload carries a PSBT spending all of `coins_of(sender's script)`, the coins the
/// sender holds now (see the module docs).
pub fn onramp_payload_from(
    secret: &[u8; 32],
    order_id: &str,
    quote_digest: &[u8; 32],
    network: Network,
    amount_sats: u64,
    sender: Option<&str>,
    coins_of: impl Fn(&bitcoin::Script) -> Vec<Coin>,
) -> Result<OnrampPayload, PayloadError> {
    let max = Amount::MAX_MONEY.to_sat();
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
            let coins = coins_of(&sender_script);
            Some(
                build_psbt(&coins, &deposit, &commitment, amount_sats, sender_script)?
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

/// The PSBT paying `deposit` and the commitment from the sender's `coins` (all of them), with the change back to it.
fn build_psbt(
    coins: &[Coin],
    deposit: &Address,
    commitment: &[u8; 32],
    amount_sats: u64,
    sender_script: ScriptBuf,
) -> Result<Psbt, PayloadError> {
    let mut outputs = vec![
        TxOut {
            value: Amount::from_sat(amount_sats),
            script_pubkey: deposit.script_pubkey(),
        },
        TxOut {
            value: Amount::ZERO,
            script_pubkey: ScriptBuf::new_op_return(commitment),
        },
    ];
    let spent: Vec<OutPoint> = coins.iter().map(|coin| coin.outpoint).collect();
    let total = total_sats(coins);
    let fee_without_change = fee_of(&unsigned_tx(&spent, outputs.clone()), &sender_script);
    let short = || PayloadError::InsufficientFunds {
        balance: total,
        spendable: max_spendable_all(coins, &sender_script),
        needed: amount_sats.saturating_add(fee_without_change),
    };
    if coins.is_empty() {
        return Err(short());
    }
    let left = total
        .checked_sub(amount_sats)
        .and_then(|left| left.checked_sub(fee_without_change))
        .ok_or_else(short)?;
    let mut with_change = outputs.clone();
    with_change.push(TxOut {
        value: Amount::ZERO,
        script_pubkey: sender_script.clone(),
    });
    let fee_with_change = fee_of(&unsigned_tx(&spent, with_change), &sender_script);
    let change = (total - amount_sats).saturating_sub(fee_with_change);
    if left > 0 && change >= DUST_SATS {
        outputs.push(TxOut {
            value: Amount::from_sat(change),
            script_pubkey: sender_script.clone(),
        });
    }
    let mut psbt =
        Psbt::from_unsigned_tx(unsigned_tx(&spent, outputs)).expect("the transaction is unsigned");
    for (input, coin) in psbt.inputs.iter_mut().zip(coins) {
        match &coin.previous_tx {
            Some(tx) => input.non_witness_utxo = Some(tx.clone()),
            None => {
                input.witness_utxo = Some(TxOut {
                    value: Amount::from_sat(coin.value),
                    script_pubkey: sender_script.clone(),
                })
            }
        }
    }
    Ok(psbt)
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
    use crate::testkit::TestWallet;
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
        // The coin of the sender's script, as the module docs derive it.
        let mut tag = b"gateway-sim funding".to_vec();
        tag.extend_from_slice(wallet().script_pubkey().as_bytes());
        assert_eq!(
            tx.input[0].previous_output,
            OutPoint::new(Txid::from_raw_hash(sha256d::Hash::hash(&tag)), 0)
        );

        let input = &psbt.inputs[0];
        assert!(input.non_witness_utxo.is_none());
        assert!(input.sighash_type.is_none());
        let utxo = input.witness_utxo.as_ref().unwrap();
        assert_eq!(utxo.script_pubkey, wallet().script_pubkey());
        let coin = initial_coin(&wallet().script_pubkey());
        assert!((MIN_COIN_SATS..MIN_COIN_SATS + COIN_SPREAD_SATS).contains(&coin.value));
        assert_eq!(utxo.value.to_sat(), coin.value);
        assert_eq!(psbt.unsigned_tx.input[0].previous_output, coin.outpoint);
        let fee_expected = deposit_fee_sats(&wallet().script_pubkey(), true);

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
        assert_eq!(
            tx.output[2].value.to_sat(),
            coin.value - AMOUNT - fee_expected
        );
        let fee = psbt.fee().unwrap().to_sat();
        assert_eq!(fee, fee_expected);
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
        assert_eq!(spent.value.to_sat(), initial_coin(&sender_script).value);
        assert_eq!(psbt.unsigned_tx.output[2].script_pubkey, sender_script);
        assert_eq!(
            psbt.fee().unwrap().to_sat(),
            deposit_fee_sats(&sender_script, true)
        );
        // The wallet refuses to sign what is not its own.
        assert!(matches!(
            wallet().sign_psbt(payload.psbt_hex.as_deref().unwrap()),
            Err(crate::testkit::SignError::NotMine(0))
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
        for amount in [0, Amount::MAX_MONEY.to_sat() + 1] {
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
    fn max_spendable_is_exactly_what_a_deposit_can_pay() {
        let script = wallet().script_pubkey();
        let coin = initial_coin(&script);
        let max = max_spendable(&coin, &script);
        assert_eq!(max, coin.value - deposit_fee_sats(&script, false));
        let sender = wallet().address(Network::Bitcoin);
        let all = onramp_payload(
            &SECRET,
            ORDER,
            &DIGEST,
            Network::Bitcoin,
            max,
            Some(&sender),
        )
        .unwrap();
        let psbt = psbt_of(&all);
        assert_eq!(
            psbt.unsigned_tx.output.len(),
            2,
            "no change when all is spent"
        );
        assert_eq!(
            psbt.fee().unwrap().to_sat(),
            deposit_fee_sats(&script, false)
        );
        let err = onramp_payload(
            &SECRET,
            ORDER,
            &DIGEST,
            Network::Bitcoin,
            max + 1,
            Some(&sender),
        )
        .unwrap_err();
        assert!(
            matches!(err, PayloadError::InsufficientFunds { spendable, .. } if spendable == max),
            "{err}"
        );
        // Change that would be dust goes to the fee rather than to an output.
        let almost = onramp_payload(
            &SECRET,
            ORDER,
            &DIGEST,
            Network::Bitcoin,
            max - 100,
            Some(&sender),
        )
        .unwrap();
        let psbt = psbt_of(&almost);
        assert_eq!(psbt.unsigned_tx.output.len(), 2);
        assert_eq!(
            psbt.fee().unwrap().to_sat(),
            deposit_fee_sats(&script, false) + 100
        );
        // A spent coin spends nothing.
        let spent = Coin { value: 0, ..coin };
        assert_eq!(max_spendable(&spent, &script), 0);
        assert_eq!(max_spendable_all(&[], &script), 0);
    }

    /// A sender that was paid by the gateway holds two coins: the deposit spends both (one input each, signed by the
    /// same key), the fee pays for both inputs, and the most it can pay is their sum less that fee.
    #[test]
    fn a_sender_with_two_coins_spends_both() {
        let script = wallet().script_pubkey();
        let first = initial_coin(&script);
        let paid_txid: Txid = "aa".repeat(32).parse().unwrap();
        let payout = payout_coin(&script, 300_000, paid_txid);
        assert_eq!(payout.outpoint, OutPoint::new(paid_txid, 0));
        let coins = vec![first.clone(), payout.clone()];
        let max = max_spendable_all(&coins, &script);
        assert_eq!(
            max,
            first.value + 300_000 - deposit_fee_sats_spending(&script, 2, false)
        );
        assert!(deposit_fee_sats_spending(&script, 2, false) > deposit_fee_sats(&script, false));
        let sender = wallet().address(Network::Bitcoin);
        let pay = |amount: u64| {
            onramp_payload_from(
                &SECRET,
                ORDER,
                &DIGEST,
                Network::Bitcoin,
                amount,
                Some(&sender),
                |_| coins.clone(),
            )
        };
        // More than the first coin alone holds: payable only with both.
        let amount = first.value + 100_000;
        let psbt = psbt_of(&pay(amount).unwrap());
        let spent: Vec<OutPoint> = psbt
            .unsigned_tx
            .input
            .iter()
            .map(|i| i.previous_output)
            .collect();
        assert_eq!(spent, vec![first.outpoint, payout.outpoint]);
        assert_eq!(
            psbt.fee().unwrap().to_sat(),
            deposit_fee_sats_spending(&script, 2, true)
        );
        assert_eq!(
            psbt.unsigned_tx.output[2].value.to_sat(),
            first.value + 300_000 - amount - deposit_fee_sats_spending(&script, 2, true)
        );
        let signed = wallet().sign_psbt(&psbt_of(&pay(amount).unwrap()).serialize_hex());
        assert!(signed.is_ok(), "{signed:?}");
        // All of it, and no more.
        assert_eq!(psbt_of(&pay(max).unwrap()).unsigned_tx.output.len(), 2);
        assert!(matches!(
            pay(max + 1).unwrap_err(),
            PayloadError::InsufficientFunds { balance, spendable, .. }
                if balance == first.value + 300_000 && spendable == max
        ));
        // No coin at all: refused, nothing to spend.
        let none = onramp_payload_from(
            &SECRET,
            ORDER,
            &DIGEST,
            Network::Bitcoin,
            1_000,
            Some(&sender),
            |_| Vec::new(),
        )
        .unwrap_err();
        assert!(matches!(
            none,
            PayloadError::InsufficientFunds {
                balance: 0,
                spendable: 0,
                ..
            }
        ));
        // A legacy script's payout carries its previous transaction, whose output 0 is the coin.
        let legacy = ScriptBuf::new_p2pkh(&bitcoin::PubkeyHash::all_zeros());
        let coin = payout_coin(&legacy, 5_000, paid_txid);
        let previous = coin.previous_tx.as_ref().unwrap();
        assert_eq!(coin.outpoint.txid, previous.compute_txid());
        assert_eq!(
            previous.input[0].previous_output,
            OutPoint::new(paid_txid, 0)
        );
        assert_eq!(previous.output[0].script_pubkey, legacy);
    }

    #[test]
    fn signed_payment_is_accepted() {
        let (payload, tx) = signed(Network::Bitcoin);
        assert_eq!(tx.input[0].witness.len(), 2);
        // The fee pays the documented rate on the signed transaction's real size (the estimate allows the longest
        // signature, so the real rate is the same or a little above).
        let vsize = tx.vsize() as u64;
        assert!((180..=190).contains(&vsize), "{vsize} vB");
        let fee = deposit_fee_sats(&wallet().script_pubkey(), true);
        assert!(
            (FEE_RATE_SAT_PER_VB..=FEE_RATE_SAT_PER_VB + 1).contains(&(fee / vsize)),
            "{} sat/vB",
            fee / vsize
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
