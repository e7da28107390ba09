//! Address validation per chain family, so a mistyped or wrong-chain address is caught before an order is made.
//!
//! Each validator trims surrounding whitespace, checks the address the way its chain does (network for Bitcoin,
//! EIP-55 checksum for EVM, Base58Check for Tron, Base58 length for Solana) and returns its canonical form. When an
//! address fails but is a valid address of another family, the error says so.

use crate::text::describe_char;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

pub use crate::chains::ChainFamily;
use crate::chains::{AddressRule, Base58Rule};

/// The family of a gateway chain slug ("bitcoin", "tron", "solana", "base", ...), or `None` for an unknown chain.
///
/// Matching ignores ASCII case and surrounding whitespace. Only "bitcoin" names Bitcoin: which Bitcoin network is
/// meant is a property of the gateway deployment, passed separately as a [`BitcoinNetwork`].
pub fn chain_family(chain: &str) -> Option<ChainFamily> {
    crate::chains::chain(chain).map(|c| c.family)
}

/// Whether two spellings name the same account on a chain of `family`, compared as addresses rather than as text:
/// EVM addresses as their 20 bytes (any case, with or without a checksum), Tron accounts as their 21 bytes (Base58,
/// `41…` hex or `0x41…` hex: the service writes Tron addresses in hex, its quotes often in Base58), Solana keys as
/// their 32 bytes. Bitcoin addresses have one spelling each and are compared as trimmed text. A text that is no
/// address of the family (measured before it is decoded) equals nothing, itself included
/// ([`ChainFamily::account_key`]).
pub fn same_account(family: ChainFamily, a: &str, b: &str) -> bool {
    matches!(
        (family.account_key(a), family.account_key(b)),
        (Some(a), Some(b)) if a == b
    )
}

/// The Bitcoin network a gateway deployment settles on; addresses of other networks are refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BitcoinNetwork {
    /// Bitcoin's main network, where real value moves: addresses start with 1, 3 or bc1.
    Mainnet,
    /// Bitcoin's public test network: addresses start with m, n, 2 or tb1.
    Testnet,
    /// Signet, the test network whose blocks are signed: it shares testnet's address prefixes.
    Signet,
    /// A local regression-test network: addresses start with m, n, 2 or bcrt1.
    Regtest,
}

impl From<BitcoinNetwork> for bitcoin::Network {
    fn from(network: BitcoinNetwork) -> Self {
        match network {
            BitcoinNetwork::Mainnet => Self::Bitcoin,
            BitcoinNetwork::Testnet => Self::Testnet,
            BitcoinNetwork::Signet => Self::Signet,
            BitcoinNetwork::Regtest => Self::Regtest,
        }
    }
}

impl fmt::Display for BitcoinNetwork {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Mainnet => "mainnet",
            Self::Testnet => "testnet",
            Self::Signet => "signet",
            Self::Regtest => "regtest",
        })
    }
}

/// An address that passed validation, in the form to send to the gateway and show to the user.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ValidAddress {
    /// The family of the chain the address was validated for.
    pub family: ChainFamily,
    /// Bitcoin: as the `bitcoin` crate writes it (bech32 in lower case); EVM: EIP-55 checksummed; Tron and Solana:
    /// the Base58 text, trimmed.
    pub canonical: String,
}

/// Why an address was refused; each message ends with what to do about it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AddressError {
    /// The chain slug is not one of the app's chains, so no validator applies.
    #[error(
        "'{chain}' is not a chain this app knows, so its addresses cannot be checked. Pick another chain or update the app."
    )]
    UnknownChain {
        /// The slug as given.
        chain: String,
    },
    /// The address is empty or only whitespace.
    #[error("The address is empty. Enter a {family} address.")]
    Empty {
        /// The family of address the chain needs.
        family: ChainFamily,
    },
    /// The address fails for the chain but is a valid address of another family (an EVM address where Bitcoin is
    /// needed, say), so the message can name the likely mix-up.
    #[error("This looks like {} {found} address, but {} {expected} address is needed here. Enter {} {expected} address.",
        article(*found), article(*expected), article(*expected)
    )]
    WrongFamily {
        /// The family the chain needs.
        expected: ChainFamily,
        /// The family the address is valid in.
        found: ChainFamily,
    },

    /// A valid Bitcoin address, but of another network than the one the gateway deployment settles on.
    #[error(
        "This is a {found} address; the gateway needs a {required} address. Enter a Bitcoin {required} address."
    )]
    BitcoinWrongNetwork {
        /// "mainnet", "testnet or signet" or "regtest".
        found: &'static str,
        /// The network the gateway deployment settles on.
        required: BitcoinNetwork,
    },
    /// A Bitcoin address holds a character outside its encoding's alphabet (bech32 or Base58).
    #[error(
        "The Bitcoin address contains {}, which cannot appear in this kind of address. \
         Check for a mistyped character, or copy the address again from its source.",
        describe_char(*character)
    )]
    BitcoinInvalidCharacter {
        /// The first such character.
        character: char,
    },
    /// A bech32 address (bc1, tb1, bcrt1) mixes capital and small letters, which bech32 forbids.
    #[error(
        "The Bitcoin address mixes capital and small letters, which addresses starting with bc1 or tb1 never do. \
         Copy the address again from its source."
    )]
    BitcoinMixedCase,
    /// A Bitcoin address does not match its checksum (bech32, or Base58Check of a plausible length).
    #[error(
        "The Bitcoin address does not match its checksum: a character may be mistyped, missing or extra. \
         Copy the address again from its source."
    )]
    BitcoinChecksum,
    /// The text has no recognisable Bitcoin address shape.
    #[error(
        "This is not a Bitcoin {network} address: those start with {}. Copy the address again from its source.",
        bitcoin_prefixes(*network)
    )]
    BitcoinNotAnAddress {
        /// The deployment's network, whose address prefixes the message lists.
        network: BitcoinNetwork,
    },

    /// An EVM address does not start with `0x`.
    #[error(
        "An EVM address starts with 0x followed by 40 hexadecimal characters. \
         Add 0x at the start if it is missing, or copy the address again from its source."
    )]
    EvmMissingPrefix,
    /// An EVM address holds a character after `0x` that is not hexadecimal.
    #[error(
        "The EVM address contains {}, which is not a hexadecimal character (0-9, a-f). \
         Check for a mistyped character, or copy the address again from its source.",
        describe_char(*character)
    )]
    EvmInvalidCharacter {
        /// The first such character.
        character: char,
    },
    /// An EVM address does not have exactly 40 hexadecimal characters after `0x`.
    #[error(
        "An EVM address is 0x followed by 40 hexadecimal characters; this one has {found}. \
         A character may be missing or extra: copy the address again from its source."
    )]
    EvmWrongLength {
        /// How many characters follow `0x`.
        found: usize,
    },
    /// A mixed-case EVM address whose capital letters do not match its EIP-55 checksum.
    #[error(
        "The capital letters do not match the EIP-55 checksum: a character may be mistyped. \
         Copy the address again from its source."
    )]
    EvmChecksum,

    /// An address of a family written in Base58 (Tron, Solana) holds a character outside the Base58 alphabet.
    #[error(
        "The {family} address contains {}, which {family} addresses never use (0, O, I and l are left out). \
         Check for a mistyped character, or copy the address again from its source.",
        describe_char(*character)
    )]
    Base58InvalidCharacter {
        /// The family of address the chain needs.
        family: ChainFamily,
        /// The first such character.
        character: char,
    },
    /// A Base58Check address (Tron's) does not have the family's length and first characters, or does not decode to
    /// its version byte and body.
    #[error(
        "A {family} address is {}; this one has {length} characters{}. \
         Copy the address again from its source.",
        base58_rule(*family).lengths(),
        match (has_prefix, base58_rule(*family).prefix) {
            (false, Some(prefix)) => format!(" and does not start with {prefix}"),
            _ => String::new(),
        }
    )]
    Base58NotAnAddress {
        /// The family of address the chain needs.
        family: ChainFamily,
        /// The text's length, in characters.
        length: usize,
        /// Whether it starts as every address of the family does.
        has_prefix: bool,
    },
    /// A Base58Check address does not match its checksum.
    #[error(
        "The {family} address does not match its checksum: a character may be mistyped. \
         Copy the address again from its source."
    )]
    Base58Checksum {
        /// The family of address the chain needs.
        family: ChainFamily,
    },
    /// A Base58 address with no checksum (Solana's) does not decode to the family's number of bytes.
    #[error(
        "A {family} address is {} bytes, written as {}; this one is {bytes} bytes. \
         A character may be missing or extra: copy the address again from its source.",
        base58_rule(*family).bytes,
        base58_rule(*family).lengths()
    )]
    Base58WrongLength {
        /// The family of address the chain needs.
        family: ChainFamily,
        /// How many bytes it decodes to (estimated, for a text far too long to decode).
        bytes: usize,
    },
}

/// The Base58 rule of `family`, for the sentences of the errors that only such a family gives.
fn base58_rule(family: ChainFamily) -> Base58Rule {
    match family.address_rule() {
        AddressRule::Base58(rule) => rule,
        AddressRule::Bitcoin | AddressRule::Evm => Base58Rule {
            prefix: None,
            min_len: 0,
            max_len: 0,
            bytes: 0,
            version: None,
        },
    }
}

fn article(family: ChainFamily) -> &'static str {
    if family == ChainFamily::Evm {
        "an"
    } else {
        "a"
    }
}

fn bitcoin_prefixes(network: BitcoinNetwork) -> &'static str {
    match network {
        BitcoinNetwork::Mainnet => "1, 3 or bc1",
        BitcoinNetwork::Testnet | BitcoinNetwork::Signet => "m, n, 2 or tb1",
        BitcoinNetwork::Regtest => "m, n, 2 or bcrt1",
    }
}

/// Validates `address` for the chain slug `chain`; `btc_network` is used only for Bitcoin.
pub fn validate_address(
    chain: &str,
    address: &str,
    btc_network: BitcoinNetwork,
) -> Result<ValidAddress, AddressError> {
    let Some(family) = chain_family(chain) else {
        return Err(AddressError::UnknownChain {
            chain: chain.to_owned(),
        });
    };
    match family.address_rule() {
        AddressRule::Bitcoin => validate_bitcoin(address, btc_network),
        AddressRule::Evm => validate_evm(address),
        AddressRule::Base58(rule) => {
            let address = address.trim();
            check_base58(address, family, rule)
                .map_err(|err| wrong_family(address, family).unwrap_or(err))
        }
    }
}

/// What a word found in free text (a log line) looks like when it is a chain's identifier written without `0x`
/// or hex: an address or a transaction id (a signature). For hiding identifiers in logs, by shape only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdShape {
    /// An address of some family.
    Address,
    /// A transaction id or signature.
    TxId,
}

const BECH32_CHARSET: &str = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
/// The shape of `run` (one word, no spaces) when it is a bech32 or Base58 identifier of any family: a SegWit or
/// Taproot address, a Base58 Bitcoin, Tron or Solana address, a Solana signature. Hex (EVM addresses, transaction
/// hashes, Bitcoin txids) is the caller's to read.
pub fn id_shape(run: &str) -> Option<IdShape> {
    if is_bech32_address(run) {
        Some(IdShape::Address)
    } else {
        base58_kind(run)
    }
}

/// A segwit or taproot address: `bc1`, `tb1` or `bcrt1`, then 11 to 87 bech32 characters, all in one case.
fn is_bech32_address(run: &str) -> bool {
    let lower = run.to_ascii_lowercase();
    if run != lower && run != run.to_ascii_uppercase() {
        return false;
    }
    let Some(data) = ["bcrt1", "bc1", "tb1"]
        .iter()
        .find_map(|hrp| lower.strip_prefix(hrp))
    else {
        return false;
    };
    (11..=87).contains(&data.len())
        && lower.len() <= 90
        && data.chars().all(|c| BECH32_CHARSET.contains(c))
}

/// A base58 address or Solana signature: base58 alphabet, both letter cases, and a known shape.
fn base58_kind(run: &str) -> Option<IdShape> {
    if !run.chars().all(|c| BASE58_ALPHABET.contains(c))
        || !run.bytes().any(|b| b.is_ascii_uppercase())
        || !run.bytes().any(|b| b.is_ascii_lowercase())
    {
        return None;
    }
    let has_digit = run.bytes().any(|b| b.is_ascii_digit());
    let len = run.len();
    let rules = || {
        ChainFamily::ALL
            .into_iter()
            .filter_map(|family| match family.address_rule() {
                AddressRule::Base58(rule) => Some(rule),
                AddressRule::Bitcoin | AddressRule::Evm => None,
            })
            .filter(|rule| (rule.min_len..=rule.max_len).contains(&len))
    };
    // Bitcoin (`1`, `3`, `2` carry their digit) and a Base58Check family (Tron): a digit, or failing that a valid
    // Base58Check payload of a version byte and 20 bytes.
    let bitcoin =
        matches!(run.as_bytes()[0], b'1' | b'3' | b'm' | b'n' | b'2') && (26..=35).contains(&len);
    let checked = rules().any(|rule| {
        rule.version.is_some() && rule.prefix.is_some_and(|prefix| run.starts_with(prefix))
    });
    if (bitcoin || checked)
        && (has_digit
            || bitcoin::base58::decode_check(run).is_ok_and(|payload| payload.len() == 21))
    {
        return Some(IdShape::Address);
    }
    // A Base58 family with no checksum (Solana): a digit, and the family's number of bytes.
    let decoded_len = || bitcoin::base58::decode(run).map(|bytes| bytes.len()).ok();
    if has_digit && rules().any(|rule| rule.version.is_none() && decoded_len() == Some(rule.bytes))
    {
        return Some(IdShape::Address);
    }
    if (86..=88).contains(&len) && decoded_len() == Some(64) {
        return Some(IdShape::TxId);
    }
    None
}
/// `address` checked against each family of `families` in turn (on its first chain, Bitcoin on `btc_network`):
/// the first that takes it, or `None`. For an address whose family is not known beforehand (a watched address, an
/// affiliate).
pub fn validate_any(
    families: &[ChainFamily],
    address: &str,
    btc_network: BitcoinNetwork,
) -> Option<ValidAddress> {
    families
        .iter()
        .find_map(|family| validate_address(family.first_chain(), address, btc_network).ok())
}

/// The address `query` as any family's, Bitcoin's on any network, or `None`. For a search box that takes an address
/// of any chain (support's lookup): an EVM-shaped text with a wrong checksum is refused with why rather than taken
/// for something else.
pub fn recognise(query: &str) -> Option<Result<ValidAddress, AddressError>> {
    let query = query.trim();
    let evm_shaped = query.len() == 42
        && query.starts_with("0x")
        && query[2..].bytes().all(|b| b.is_ascii_hexdigit());
    if evm_shaped {
        return Some(validate_evm(query));
    }
    ChainFamily::ALL
        .iter()
        .find_map(|family| match family {
            ChainFamily::Bitcoin => [
                BitcoinNetwork::Mainnet,
                BitcoinNetwork::Testnet,
                BitcoinNetwork::Regtest,
            ]
            .into_iter()
            .find_map(|network| validate_bitcoin(query, network).ok()),
            other => validate_address(other.first_chain(), query, BitcoinNetwork::Mainnet).ok(),
        })
        .map(Ok)
}

/// The chain a shortened address (`first4…last4`, as a support bundle writes it) most likely belongs to, from how
/// it starts: `0x` Ethereum, `bc1`, `1` or `3` Bitcoin, what a Base58 family's addresses all start with that family
/// (`T` Tron), anything else the Base58 family whose addresses start with anything (Solana).
pub fn likely_chain_of_short(text: &str) -> &'static str {
    if text.starts_with("0x") {
        return "ethereum";
    }
    if text.starts_with("bc1") || text.starts_with('1') || text.starts_with('3') {
        return "bitcoin";
    }
    let base58 = || {
        ChainFamily::ALL
            .into_iter()
            .filter_map(|family| match family.address_rule() {
                AddressRule::Base58(rule) => Some((family, rule.prefix)),
                AddressRule::Bitcoin | AddressRule::Evm => None,
            })
    };
    base58()
        .find(|(_, prefix)| prefix.is_some_and(|prefix| text.starts_with(prefix)))
        .or_else(|| base58().find(|(_, prefix)| prefix.is_none()))
        .map_or("bitcoin", |(family, _)| family.first_chain())
}

/// A valid address of `family` to stand in for one that is not known (a support bundle shortened it); `n` tells
/// stand-ins apart. A Bitcoin stand-in is a P2WPKH address of a made-up key hash on `btc_network`.
pub fn stand_in(family: ChainFamily, n: u8, btc_network: BitcoinNetwork) -> Option<String> {
    Some(match family.address_rule() {
        AddressRule::Evm => {
            validate_evm(&format!("0x{:040x}", 0xdead_0000_u64 + u64::from(n)))
                .ok()?
                .canonical
        }
        AddressRule::Bitcoin => {
            let mut hash = [0xde_u8; 20];
            hash[19] = n;
            let script = ::bitcoin::ScriptBuf::new_p2wpkh(
                &<::bitcoin::WPubkeyHash as ::bitcoin::hashes::Hash>::from_byte_array(hash),
            );
            ::bitcoin::Address::from_script(&script, ::bitcoin::Network::from(btc_network))
                .ok()?
                .to_string()
        }
        AddressRule::Base58(_) => {
            let list = family.stand_ins();
            (*list.get(usize::from(n) % list.len().max(1))?).to_owned()
        }
    })
}

/// Validates a Bitcoin address (P2PKH, P2SH, SegWit, Taproot) and requires it to belong to `network`.
///
/// Legacy test addresses (m, n, 2) are shared by testnet, signet and regtest, and tb1 by testnet and signet, so
/// those are accepted on each network that shares them.
pub fn validate_bitcoin(
    address: &str,
    network: BitcoinNetwork,
) -> Result<ValidAddress, AddressError> {
    let address = address.trim();
    let family = ChainFamily::Bitcoin;
    if address.is_empty() {
        return Err(AddressError::Empty { family });
    }
    // The longest Bitcoin address (Bech32) has 90 characters; a longer text is not parsed at all, so a hostile
    // gateway's megabyte "address" costs nothing.
    if address.len() > MAX_BITCOIN_ADDRESS_LEN {
        return Err(
            wrong_family(address, family).unwrap_or(AddressError::BitcoinNotAnAddress { network })
        );
    }
    let parsed = match bitcoin::Address::from_str(address) {
        Ok(parsed) => parsed,
        Err(err) => {
            return Err(wrong_family(address, family)
                .unwrap_or_else(|| bitcoin_parse_error(address, &err, network)));
        }
    };
    let required = bitcoin::Network::from(network);
    if !parsed.is_valid_for_network(required) {
        let found = if parsed.is_valid_for_network(bitcoin::Network::Bitcoin) {
            "mainnet"
        } else if parsed.is_valid_for_network(bitcoin::Network::Testnet) {
            "testnet or signet"
        } else {
            "regtest"
        };
        return Err(AddressError::BitcoinWrongNetwork {
            found,
            required: network,
        });
    }
    Ok(ValidAddress {
        family,
        canonical: parsed.assume_checked().to_string(),
    })
}

fn bitcoin_parse_error(
    address: &str,
    err: &bitcoin::address::ParseError,
    network: BitcoinNetwork,
) -> AddressError {
    use bitcoin::address::ParseError;

    let lower = address.to_ascii_lowercase();
    let bech32_data = ["bc1", "tb1", "bcrt1"]
        .iter()
        .find_map(|hrp| lower.strip_prefix(hrp));
    if let Some(data) = bech32_data {
        const BECH32_CHARSET: &str = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
        let offset = address.len() - data.len();
        if let Some(character) = address[offset..]
            .chars()
            .find(|c| !BECH32_CHARSET.contains(c.to_ascii_lowercase()))
        {
            return AddressError::BitcoinInvalidCharacter { character };
        }
        if address != lower && address != address.to_ascii_uppercase() {
            return AddressError::BitcoinMixedCase;
        }
        return AddressError::BitcoinChecksum;
    }
    match err {
        ParseError::Base58(bitcoin::base58::Error::IncorrectChecksum(_))
            if (25..=35).contains(&address.len()) =>
        {
            AddressError::BitcoinChecksum
        }
        ParseError::Base58(_) => match first_non_base58(address) {
            Some(character) => AddressError::BitcoinInvalidCharacter { character },
            None => AddressError::BitcoinNotAnAddress { network },
        },
        _ => AddressError::BitcoinNotAnAddress { network },
    }
}

/// Validates an EVM address (0x and 40 hex characters) and returns it EIP-55 checksummed.
///
/// All-lower-case and all-upper-case hex carry no checksum and are accepted; mixed case must match EIP-55.
pub fn validate_evm(address: &str) -> Result<ValidAddress, AddressError> {
    let address = address.trim();
    let family = ChainFamily::Evm;
    check_evm(address).map_err(|err| wrong_family(address, family).unwrap_or(err))
}

fn check_evm(address: &str) -> Result<ValidAddress, AddressError> {
    let family = ChainFamily::Evm;
    if address.is_empty() {
        return Err(AddressError::Empty { family });
    }
    let hex = address
        .strip_prefix("0x")
        .ok_or(AddressError::EvmMissingPrefix)?;
    if let Some(character) = hex.chars().find(|c| !c.is_ascii_hexdigit()) {
        return Err(AddressError::EvmInvalidCharacter { character });
    }
    if hex.len() != 40 {
        return Err(AddressError::EvmWrongLength { found: hex.len() });
    }
    let parsed = alloy_primitives::Address::from_str(hex)
        .map_err(|_| AddressError::EvmWrongLength { found: hex.len() })?;
    let canonical = parsed.to_checksum(None);
    let mixed_case =
        hex.chars().any(|c| c.is_ascii_lowercase()) && hex.chars().any(|c| c.is_ascii_uppercase());
    if mixed_case && canonical != address {
        return Err(AddressError::EvmChecksum);
    }
    Ok(ValidAddress { family, canonical })
}

/// Checks `address` (trimmed) against a family's Base58 rule and returns it as written.
///
/// With a checksum (Tron's Base58Check) the length and first characters are checked before anything is decoded;
/// without one (Solana's public keys) only the decoded length can be, so a mistyped character that keeps it is not
/// detectable here.
fn check_base58(
    address: &str,
    family: ChainFamily,
    rule: Base58Rule,
) -> Result<ValidAddress, AddressError> {
    if address.is_empty() {
        return Err(AddressError::Empty { family });
    }
    if let Some(character) = first_non_base58(address) {
        return Err(AddressError::Base58InvalidCharacter { family, character });
    }
    match rule.version {
        Some(version) => {
            let length = address.len();
            let has_prefix = rule.prefix.is_none_or(|prefix| address.starts_with(prefix));
            let not_an_address = AddressError::Base58NotAnAddress {
                family,
                length,
                has_prefix,
            };
            if !(rule.min_len..=rule.max_len).contains(&length) || !has_prefix {
                return Err(not_an_address);
            }
            // Measured above: the text has the rule's length, so the reader decodes it.
            let payload =
                crate::base58::decode_check(address, rule.bytes).map_err(|err| match err {
                    crate::base58::Base58Error::Checksum => AddressError::Base58Checksum { family },
                    _ => not_an_address.clone(),
                })?;
            if payload.len() != rule.bytes || payload[0] != version {
                return Err(not_an_address);
            }
        }
        None => {
            let bytes = base58_len(address, rule.bytes);
            if bytes != rule.bytes {
                return Err(AddressError::Base58WrongLength { family, bytes });
            }
        }
    }
    Ok(ValidAddress {
        family,
        canonical: address.to_owned(),
    })
}

/// How an address of a family looks, for the window's checks as the person types (`ui/src/lib/swap/addresses.ts`,
/// through the generated `facts.ts`): its shape only. The strict check is [`validate_address`], asked when the form
/// is sent; every address it takes has this shape (tested).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum AddressShape {
    /// `0x` and 40 hexadecimal characters, carrying an EIP-55 checksum when its letters are mixed case.
    Evm,
    /// bech32 (`bc1`, `tb1`, `bcrt1`) or Base58 from `1`, `3`, `m`, `n` or `2`.
    Bitcoin,
    /// Base58 of `min_len` to `max_len` characters, starting with `prefix` when the family's addresses all do.
    Base58 {
        /// What every address of the family starts with, if anything.
        prefix: Option<&'static str>,
        /// The fewest characters.
        #[serde(rename = "minLen")]
        min_len: usize,
        /// The most characters.
        #[serde(rename = "maxLen")]
        max_len: usize,
    },
}

/// The shape of `family`'s addresses ([`AddressShape`]).
pub fn address_shape(family: ChainFamily) -> AddressShape {
    match family.address_rule() {
        AddressRule::Evm => AddressShape::Evm,
        AddressRule::Bitcoin => AddressShape::Bitcoin,
        AddressRule::Base58(rule) => AddressShape::Base58 {
            prefix: rule.prefix,
            min_len: rule.min_len,
            max_len: rule.max_len,
        },
    }
}

/// The longest Bitcoin address: a Bech32 string has at most 90 characters.
const MAX_BITCOIN_ADDRESS_LEN: usize = 90;

/// How many bytes the Base58 text `text` decodes to, for a value expected to have `expected` bytes. Decoding is
/// quadratic in the length, so a text more than twice as long as `expected` bytes can be written in is not decoded:
/// its size is estimated (log₂58 / 8 ≈ 0.73 bytes a character), which is enough to say it is far too long.
pub(crate) fn base58_len(text: &str, expected: usize) -> usize {
    // Base58 needs at most ⌈n · log 256 / log 58⌉ ≤ 1.37 n + 1 characters for n bytes.
    let longest = expected.saturating_mul(137) / 100 + 1;
    if text.len() > longest.saturating_mul(2) {
        return text.len().saturating_mul(732) / 1000;
    }
    bs58::decode(text).into_vec().map_or(0, |bytes| bytes.len())
}

const BASE58_ALPHABET: &str = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/// The first character outside the Base58 alphabet (Bitcoin's, also used by Tron and Solana), if any.
pub(crate) fn first_non_base58(text: &str) -> Option<char> {
    text.chars().find(|c| !BASE58_ALPHABET.contains(*c))
}

/// When `address` fails as `expected` but is a valid address of another family, the error to give instead.
fn wrong_family(address: &str, expected: ChainFamily) -> Option<AddressError> {
    let found = ChainFamily::ALL
        .into_iter()
        .filter(|&family| family != expected)
        .find(|&family| match family.address_rule() {
            AddressRule::Evm => address
                .strip_prefix("0x")
                .is_some_and(|hex| hex.len() == 40 && hex.bytes().all(|b| b.is_ascii_hexdigit())),
            AddressRule::Bitcoin => bitcoin::Address::from_str(address).is_ok(),
            AddressRule::Base58(rule) => check_base58(address, family, rule).is_ok(),
        })?;
    Some(AddressError::WrongFamily { expected, found })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Tron address checked as the app checks one on the chain `tron`.
    fn validate_tron(address: &str) -> Result<ValidAddress, AddressError> {
        validate_address("tron", address, BitcoinNetwork::Mainnet)
    }

    /// A Solana address checked as the app checks one on the chain `solana`.
    fn validate_solana(address: &str) -> Result<ValidAddress, AddressError> {
        validate_address("solana", address, BitcoinNetwork::Mainnet)
    }

    #[test]
    fn every_address_the_strict_check_takes_has_its_family_s_typing_shape() {
        let fits = |shape: AddressShape, a: &str| match shape {
            AddressShape::Base58 {
                prefix,
                min_len,
                max_len,
            } => {
                prefix.is_none_or(|p| a.starts_with(p))
                    && (min_len..=max_len).contains(&a.len())
                    && first_non_base58(a).is_none()
            }
            AddressShape::Evm => a.starts_with("0x") && a.len() == 42,
            AddressShape::Bitcoin => true,
        };
        for family in ChainFamily::ALL {
            for n in 0..4 {
                let a = stand_in(family, n, BitcoinNetwork::Mainnet).unwrap();
                assert!(
                    validate_address(family.first_chain(), &a, BitcoinNetwork::Mainnet).is_ok()
                );
                assert!(fits(address_shape(family), &a), "{family}: {a}");
            }
        }
        // The shortest and longest 32-byte Base58 texts, and a text of each base58 family's other lengths.
        let shortest = bs58::encode([0u8; 32]).into_string();
        let longest = bs58::encode([0xffu8; 32]).into_string();
        for a in [shortest, longest] {
            assert!(validate_solana(&a).is_ok(), "{a}");
            assert!(fits(address_shape(ChainFamily::Solana), &a), "{a}");
        }
    }

    #[test]
    fn accounts_are_compared_as_addresses_in_every_spelling_the_chain_allows() {
        // The AllowanceHolder on Tron, in the three spellings the sources give (bob-collective/bob,
        // sdk/src/gateway/allowance-holder.ts, and the service's own hex).
        let base58 = "TAfbit1ENsRmtZbPQfYU3srURpfYuWYS7K";
        let hex = "4107a39ae4c49dee86e892450b20881f32cd5d500d";
        for (a, b) in [
            (base58, hex),
            (base58, "0x4107a39ae4c49dee86e892450b20881f32cd5d500d"),
            (base58, "0x4107A39AE4C49DEE86E892450B20881F32CD5D500D"),
            (" 0x4107a39ae4c49dee86e892450b20881f32cd5d500d ", hex),
            (base58, base58),
        ] {
            assert!(same_account(ChainFamily::Tron, a, b), "{a} = {b}");
            assert!(same_account(ChainFamily::Tron, b, a), "{b} = {a}");
        }
        // Another account, a wrong checksum, a non-Tron prefix, and text that is no account.
        for other in [
            "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
            "TAfbit1ENsRmtZbPQfYU3srURpfYuWYS7L",
            "0x0007a39ae4c49dee86e892450b20881f32cd5d500d",
            "0x07a39ae4c49dee86e892450b20881f32cd5d500d",
            "",
            &"T".repeat(100_000),
        ] {
            assert!(
                !same_account(ChainFamily::Tron, base58, other),
                "{other:.40}"
            );
        }

        let evm = "0x0000000000001fF3684f28c67538d4D072C22734";
        for spelling in [
            "0x0000000000001ff3684f28c67538d4d072c22734",
            "0x0000000000001FF3684F28C67538D4D072C22734",
            " 0x0000000000001fF3684f28c67538d4D072C22734",
        ] {
            assert!(same_account(ChainFamily::Evm, evm, spelling), "{spelling}");
        }
        for other in [
            "0x8fd545b348e84deb145f0179a00c671f0b9519c3",
            "0000000000001fF3684f28c67538d4D072C22734",
            "0x0000000000001fF3684f28c67538d4D072C2273",
            "",
        ] {
            assert!(!same_account(ChainFamily::Evm, evm, other), "{other}");
        }

        assert!(same_account(
            ChainFamily::Solana,
            "So11111111111111111111111111111111111111112",
            " So11111111111111111111111111111111111111112"
        ));
        assert!(!same_account(ChainFamily::Solana, "", ""));
        // A text that is no Solana key (it decodes to 3 bytes, not 32) equals nothing, itself included.
        assert!(!same_account(ChainFamily::Solana, "abcd", "abcd"));
        assert!(!same_account(ChainFamily::Bitcoin, "bc1qa", "bc1qb"));
    }

    const MAINNET: BitcoinNetwork = BitcoinNetwork::Mainnet;

    fn canonical(result: Result<ValidAddress, AddressError>) -> String {
        result.unwrap().canonical
    }

    #[test]
    fn chain_slugs_map_to_families() {
        assert_eq!(chain_family("bitcoin"), Some(ChainFamily::Bitcoin));
        assert_eq!(chain_family("tron"), Some(ChainFamily::Tron));
        assert_eq!(chain_family("solana"), Some(ChainFamily::Solana));
        for slug in crate::chains::evm_chains() {
            assert_eq!(chain_family(slug), Some(ChainFamily::Evm), "{slug}");
        }
        assert_eq!(crate::chains::evm_chains().count(), 19);
        assert_eq!(chain_family(" Base "), Some(ChainFamily::Evm));
        assert_eq!(chain_family("dogecoin"), None);
        assert_eq!(chain_family(""), None);
        assert_eq!(
            validate_address("dogecoin", "D", MAINNET),
            Err(AddressError::UnknownChain {
                chain: "dogecoin".into()
            })
        );
    }

    #[test]
    fn bitcoin_network_maps_to_the_bitcoin_crate() {
        assert_eq!(
            bitcoin::Network::from(BitcoinNetwork::Mainnet),
            bitcoin::Network::Bitcoin
        );
        assert_eq!(
            bitcoin::Network::from(BitcoinNetwork::Testnet),
            bitcoin::Network::Testnet
        );
        assert_eq!(
            bitcoin::Network::from(BitcoinNetwork::Signet),
            bitcoin::Network::Signet
        );
        assert_eq!(
            bitcoin::Network::from(BitcoinNetwork::Regtest),
            bitcoin::Network::Regtest
        );
    }

    #[test]
    fn bitcoin_mainnet_addresses() {
        for address in [
            "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
            "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",
            "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
            "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
        ] {
            let valid = validate_address("bitcoin", address, MAINNET).unwrap();
            assert_eq!(
                valid,
                ValidAddress {
                    family: ChainFamily::Bitcoin,
                    canonical: address.to_owned()
                }
            );
        }
    }

    #[test]
    fn bitcoin_canonical_form_is_lower_case_and_trimmed() {
        assert_eq!(
            canonical(validate_bitcoin(
                " BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4\n",
                MAINNET
            )),
            "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
        );
    }

    #[test]
    fn bitcoin_test_networks() {
        let testnet = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx";
        let legacy_test = "mqwpxxvfv3QbM8PU8uBx2jaNt9btQqvQNx";
        let p2sh_test = "2N83imGV3gPwBzKJQvWJ7cRUY2SpUyU6A5e";
        let regtest = "bcrt1q2nfxmhd4n3c8834pj72xagvyr9gl57n5r94fsl";
        assert_eq!(
            canonical(validate_bitcoin(testnet, BitcoinNetwork::Testnet)),
            testnet
        );
        assert_eq!(
            canonical(validate_bitcoin(testnet, BitcoinNetwork::Signet)),
            testnet
        );
        assert_eq!(
            canonical(validate_bitcoin(legacy_test, BitcoinNetwork::Testnet)),
            legacy_test
        );
        assert_eq!(
            canonical(validate_bitcoin(legacy_test, BitcoinNetwork::Regtest)),
            legacy_test
        );
        assert_eq!(
            canonical(validate_bitcoin(p2sh_test, BitcoinNetwork::Signet)),
            p2sh_test
        );
        assert_eq!(
            canonical(validate_bitcoin(regtest, BitcoinNetwork::Regtest)),
            regtest
        );
        assert_eq!(
            validate_bitcoin(regtest, BitcoinNetwork::Testnet),
            Err(AddressError::BitcoinWrongNetwork {
                found: "regtest",
                required: BitcoinNetwork::Testnet
            })
        );
        assert_eq!(
            validate_bitcoin(testnet, BitcoinNetwork::Regtest),
            Err(AddressError::BitcoinWrongNetwork {
                found: "testnet or signet",
                required: BitcoinNetwork::Regtest
            })
        );
    }

    #[test]
    fn bitcoin_wrong_network_is_explained() {
        let err =
            validate_bitcoin("tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", MAINNET).unwrap_err();
        assert_eq!(
            err.to_string(),
            "This is a testnet or signet address; the gateway needs a mainnet address. Enter a Bitcoin mainnet address."
        );
        let err = validate_bitcoin(
            "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
            BitcoinNetwork::Testnet,
        )
        .unwrap_err();
        assert_eq!(
            err,
            AddressError::BitcoinWrongNetwork {
                found: "mainnet",
                required: BitcoinNetwork::Testnet
            }
        );
    }

    #[test]
    fn bitcoin_typos_are_caught() {
        assert_eq!(
            validate_bitcoin("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb", MAINNET),
            Err(AddressError::BitcoinChecksum)
        );
        assert_eq!(
            validate_bitcoin("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfN0", MAINNET),
            Err(AddressError::BitcoinInvalidCharacter { character: '0' })
        );
        assert_eq!(
            validate_bitcoin("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5", MAINNET),
            Err(AddressError::BitcoinChecksum)
        );
        assert_eq!(
            validate_bitcoin(
                "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jjq",
                MAINNET
            ),
            Err(AddressError::BitcoinChecksum)
        );
        assert_eq!(
            validate_bitcoin(
                "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj1",
                MAINNET
            ),
            Err(AddressError::BitcoinInvalidCharacter { character: '1' })
        );
        assert_eq!(
            validate_bitcoin("bc1qw508d6qejxtdg4y5r3zarvarybc5xw7kv8f3t4", MAINNET),
            Err(AddressError::BitcoinInvalidCharacter { character: 'b' })
        );
        assert_eq!(
            validate_bitcoin("bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", MAINNET),
            Err(AddressError::BitcoinMixedCase)
        );
        assert_eq!(
            validate_bitcoin("hello", MAINNET),
            Err(AddressError::BitcoinInvalidCharacter { character: 'l' })
        );
        assert_eq!(
            validate_bitcoin("1A1zP1", MAINNET),
            Err(AddressError::BitcoinNotAnAddress { network: MAINNET })
        );
        assert_eq!(
            validate_bitcoin("  ", MAINNET),
            Err(AddressError::Empty {
                family: ChainFamily::Bitcoin
            })
        );
    }

    #[test]
    fn evm_checksummed_addresses() {
        for address in [
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
            "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
            "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
        ] {
            assert_eq!(
                canonical(validate_address("base", address, MAINNET)),
                address
            );
        }
    }

    #[test]
    fn evm_single_case_has_no_checksum_and_is_checksummed() {
        let checksummed = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
        assert_eq!(
            canonical(validate_evm(&checksummed.to_ascii_lowercase())),
            checksummed
        );
        assert_eq!(
            canonical(validate_evm(&format!(
                "0x{}",
                checksummed[2..].to_ascii_uppercase()
            ))),
            checksummed
        );
        assert_eq!(
            canonical(validate_evm("0x0000000000000000000000000000000000000000")),
            "0x0000000000000000000000000000000000000000"
        );
    }

    #[test]
    fn evm_bad_checksum_is_an_error() {
        let err = validate_evm("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD").unwrap_err();
        assert_eq!(err, AddressError::EvmChecksum);
        assert!(
            err.to_string()
                .starts_with("The capital letters do not match the EIP-55 checksum"),
            "{err}"
        );
        assert_eq!(
            validate_evm("0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"),
            Err(AddressError::EvmChecksum)
        );
    }

    #[test]
    fn evm_shape_errors() {
        assert_eq!(
            validate_evm("5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"),
            Err(AddressError::EvmMissingPrefix)
        );
        assert_eq!(
            validate_evm("0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"),
            Err(AddressError::EvmMissingPrefix)
        );
        assert_eq!(
            validate_evm("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe"),
            Err(AddressError::EvmWrongLength { found: 39 })
        );
        assert_eq!(
            validate_evm("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedd"),
            Err(AddressError::EvmWrongLength { found: 41 })
        );
        assert_eq!(
            validate_evm("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg"),
            Err(AddressError::EvmInvalidCharacter { character: 'g' })
        );
        assert_eq!(
            validate_evm(""),
            Err(AddressError::Empty {
                family: ChainFamily::Evm
            })
        );
        assert_eq!(
            validate_evm("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe")
                .unwrap_err()
                .to_string(),
            "An EVM address is 0x followed by 40 hexadecimal characters; this one has 39. \
             A character may be missing or extra: copy the address again from its source."
        );
    }

    #[test]
    fn tron_addresses() {
        let usdt = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
        let valid = validate_address("tron", usdt, MAINNET).unwrap();
        assert_eq!(
            valid,
            ValidAddress {
                family: ChainFamily::Tron,
                canonical: usdt.to_owned()
            }
        );
        assert_eq!(canonical(validate_tron(&format!(" {usdt}\t"))), usdt);
        assert_eq!(
            validate_tron("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u"),
            Err(AddressError::Base58Checksum {
                family: ChainFamily::Tron
            })
        );
        assert_eq!(
            validate_tron("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLJ6t"),
            Err(AddressError::Base58Checksum {
                family: ChainFamily::Tron
            })
        );
        assert_eq!(
            validate_tron("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj60"),
            Err(AddressError::Base58InvalidCharacter {
                family: ChainFamily::Tron,
                character: '0'
            })
        );
        assert_eq!(
            validate_tron("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6"),
            Err(AddressError::Base58NotAnAddress {
                family: ChainFamily::Tron,
                length: 33,
                has_prefix: true
            })
        );
        assert_eq!(
            validate_tron(""),
            Err(AddressError::Empty {
                family: ChainFamily::Tron
            })
        );
    }

    #[test]
    fn tron_requires_the_0x41_prefix() {
        let bitcoin_p2pkh = "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa";
        assert_eq!(
            validate_tron(bitcoin_p2pkh),
            Err(AddressError::WrongFamily {
                expected: ChainFamily::Tron,
                found: ChainFamily::Bitcoin
            })
        );
        let mut payload = vec![0x42u8];
        payload.extend([7u8; 20]);
        let other_prefix = bs58::encode(payload).with_check().into_string();
        assert_eq!(other_prefix.len(), 34);
        assert!(other_prefix.starts_with('T'), "{other_prefix}");
        assert_eq!(
            validate_tron(&other_prefix),
            Err(AddressError::Base58NotAnAddress {
                family: ChainFamily::Tron,
                length: 34,
                has_prefix: true
            })
        );
    }

    #[test]
    fn huge_texts_are_refused_by_their_length_without_decoding() {
        let huge = "2".repeat(100_000);
        assert!(matches!(
            validate_solana(&huge),
            Err(AddressError::Base58WrongLength { family: ChainFamily::Solana, bytes }) if bytes > 70_000
        ));
        assert!(matches!(
            validate_address("tron", &huge, MAINNET),
            Err(AddressError::Base58NotAnAddress {
                family: ChainFamily::Tron,
                length: 100_000,
                ..
            })
        ));
        assert!(matches!(
            validate_bitcoin(&format!("bc1q{huge}"), MAINNET),
            Err(AddressError::BitcoinNotAnAddress { .. })
        ));
        // Up to twice the longest form, the exact size is still told.
        assert_eq!(base58_len(&bs58::encode([7u8; 40]).into_string(), 32), 40);
        assert_eq!(base58_len(&bs58::encode([7u8; 32]).into_string(), 32), 32);
        assert!(matches!(
            crate::txhash::validate_src_tx_hash("solana", &huge),
            Err(crate::txhash::TxHashError::SignatureWrongLength { family: ChainFamily::Solana, bytes }) if bytes > 70_000
        ));
    }

    #[test]
    fn solana_addresses() {
        let usdc = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
        let valid = validate_address("solana", usdc, MAINNET).unwrap();
        assert_eq!(
            valid,
            ValidAddress {
                family: ChainFamily::Solana,
                canonical: usdc.to_owned()
            }
        );
        let system_program = "11111111111111111111111111111111";
        assert_eq!(canonical(validate_solana(system_program)), system_program);
        assert_eq!(
            validate_solana(&system_program[1..]),
            Err(AddressError::Base58WrongLength {
                family: ChainFamily::Solana,
                bytes: 31
            })
        );
        let thirty_one_bytes = bs58::encode([0xabu8; 31]).into_string();
        assert_eq!(
            validate_solana(&thirty_one_bytes),
            Err(AddressError::Base58WrongLength {
                family: ChainFamily::Solana,
                bytes: 31
            })
        );
        assert!(
            matches!(validate_solana(&usdc[..40]), Err(AddressError::Base58WrongLength { family: ChainFamily::Solana, bytes }) if bytes < 32)
        );
        assert_eq!(
            validate_solana(&format!("{usdc}1")),
            Err(AddressError::Base58WrongLength {
                family: ChainFamily::Solana,
                bytes: 33
            })
        );
        assert_eq!(
            validate_solana("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1O"),
            Err(AddressError::Base58InvalidCharacter {
                family: ChainFamily::Solana,
                character: 'O'
            })
        );
        assert_eq!(
            validate_solana("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1é"),
            Err(AddressError::Base58InvalidCharacter {
                family: ChainFamily::Solana,
                character: 'é'
            })
        );
        assert_eq!(
            validate_solana(" "),
            Err(AddressError::Empty {
                family: ChainFamily::Solana
            })
        );
    }

    #[test]
    fn addresses_of_another_family_are_named() {
        let evm = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
        let tron = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
        let solana = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
        let bitcoin = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
        let wrong = |expected, found| Err(AddressError::WrongFamily { expected, found });
        assert_eq!(
            validate_bitcoin(evm, MAINNET),
            wrong(ChainFamily::Bitcoin, ChainFamily::Evm)
        );
        assert_eq!(
            validate_bitcoin(tron, MAINNET),
            wrong(ChainFamily::Bitcoin, ChainFamily::Tron)
        );
        assert_eq!(
            validate_evm(tron),
            wrong(ChainFamily::Evm, ChainFamily::Tron)
        );
        assert_eq!(
            validate_evm(bitcoin),
            wrong(ChainFamily::Evm, ChainFamily::Bitcoin)
        );
        assert_eq!(
            validate_tron(solana),
            wrong(ChainFamily::Tron, ChainFamily::Solana)
        );
        assert_eq!(
            validate_solana(evm),
            wrong(ChainFamily::Solana, ChainFamily::Evm)
        );
        assert_eq!(
            validate_evm(tron).unwrap_err().to_string(),
            "This looks like a Tron address, but an EVM address is needed here. Enter an EVM address."
        );
    }

    #[test]
    fn messages_end_with_what_to_do() {
        let errors = [
            validate_address("nope", "x", MAINNET).unwrap_err(),
            validate_bitcoin("", MAINNET).unwrap_err(),
            validate_bitcoin("1A1zP1", MAINNET).unwrap_err(),
            validate_bitcoin("tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", MAINNET).unwrap_err(),
            validate_evm("0x12").unwrap_err(),
            validate_tron("Tx").unwrap_err(),
            validate_solana("1").unwrap_err(),
        ];
        for err in errors {
            let message = err.to_string();
            assert!(message.ends_with('.'), "{message}");
            assert!(
                message.contains("Enter")
                    || message.contains("copy")
                    || message.contains("Copy")
                    || message.contains("Pick"),
                "{message}"
            );
        }
    }
}
