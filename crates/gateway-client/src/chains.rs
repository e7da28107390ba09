//! The one list of chains the app knows: each gateway chain slug with its family, its chain id, its block explorer,
//! its public JSON-RPC endpoints and the contract tokens are approved to there. Address validation, the verifier's
//! chain ids, explorer links, default endpoints and the window's chain lists all read this table; no other list of
//! chain names exists in the Rust code. A family added after the gateway's own (Bitcoin, EVM) whose wire needs more
//! than an address rule has its module here ([`tron`]: its transaction's protobuf, its accounts), so that adding one
//! touches this file rather than the crate's root. This is the crate's one file that lists the added families: their
//! rules, their chains and their entry of the gateway's transaction union ([`FamilyTx`]).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

pub mod solana;
pub mod tron;

/// Hands the families added after the gateway's own (Bitcoin, EVM) to the macro `$then`, as `Variant => module`
/// pairs (the [`ChainFamily`] variant and the snake-case name of the family's own modules, its [`ChainFamily::key`]),
/// in [`ChainFamily::ALL`]'s order: a crate whose added families each have a module of one shape declares and chooses
/// them from this list instead of keeping a list of its own, so adding a family adds its pair here and no line there.
/// A test holds the list to [`ChainFamily::ALL`], and `ALL` to the enum's variants.
#[macro_export]
macro_rules! with_added_families {
    ($then:ident) => {
        $then! { Tron => tron, Solana => solana }
    };
}

/// The kind of chain an address belongs to; all chains of one family share an address format. Ordered as declared
/// (Bitcoin, EVM, then the families added after them), which is the order the wallet lists its accounts in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "ChainFamily.ts"))]
#[serde(rename_all = "lowercase")]
pub enum ChainFamily {
    /// Bitcoin: Base58Check legacy addresses (P2PKH, P2SH) and bech32 SegWit and Taproot addresses.
    Bitcoin,
    /// EVM chains (BOB, Ethereum, Base, …): `0x` and 40 hexadecimal characters, EIP-55 checksummed when mixed case.
    Evm,
    /// Tron: Base58Check of `0x41` and 20 bytes, written as 34 characters starting with T.
    Tron,
    /// Solana: a 32-byte public key written in Base58, with no checksum.
    Solana,
}

impl fmt::Display for ChainFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl ChainFamily {
    /// Every family, in the order of [`CHAINS`]: code above the chain crates lists families from here rather than
    /// naming them, so a new family is one more variant and its chains, not an edit wherever families are listed.
    pub const ALL: [Self; 4] = [Self::Bitcoin, Self::Evm, Self::Tron, Self::Solana];

    /// The family's name in a sentence: `Bitcoin`, `EVM`, `Tron`, `Solana`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Bitcoin => "Bitcoin",
            Self::Evm => "EVM",
            Self::Tron => "Tron",
            Self::Solana => "Solana",
        }
    }

    /// The family as its serde form writes it, which keys the wallet's accounts: `bitcoin`, `evm`, `tron`, `solana`.
    pub fn key(self) -> &'static str {
        match self {
            Self::Bitcoin => "bitcoin",
            Self::Evm => "evm",
            Self::Tron => "tron",
            Self::Solana => "solana",
        }
    }

    /// How the family's key is made from a recovery phrase, imported on its own and named ([`KeyRule`]).
    pub const fn key_rule(self) -> KeyRule {
        match self {
            Self::Bitcoin => KeyRule {
                scheme: KeyScheme::Bitcoin,
                import_label: "Bitcoin (WIF, compressed)",
                account_label: "Bitcoin (native SegWit)",
            },
            Self::Evm => KeyRule {
                scheme: KeyScheme::Secp256k1 { path: EVM_KEY_PATH },
                import_label: "EVM chains (hex, 64 characters)",
                account_label: "EVM chains (Ethereum, BOB, Base, …)",
            },
            Self::Tron => tron::KEY_RULE,
            Self::Solana => solana::KEY_RULE,
        }
    }

    /// The family's first chain in [`CHAINS`]: the chain an address is checked on when only its family matters
    /// (all chains of a family share an address format).
    pub fn first_chain(self) -> &'static str {
        CHAINS
            .iter()
            .find(|c| c.family == self)
            .map(|c| c.slug)
            .expect("every family has a chain in the table")
    }

    /// Whether the app reads some chain of the family through endpoints of its own (public ones, or the person's):
    /// every family but Bitcoin, whose payments the gateway reads.
    pub fn has_endpoints(self) -> bool {
        CHAINS
            .iter()
            .any(|c| c.family == self && !c.public_rpcs.is_empty())
    }

    /// Whether a quote from a chain of the family must name its sender: the gateway builds a Solana transaction
    /// with the sender as its fee payer and signer, so it cannot quote one without it.
    pub fn quote_needs_sender(self) -> bool {
        self == Self::Solana
    }

    /// The family's all-zero account in its own spelling, which some producers write for the chain's native token
    /// (Tron's `T9yD14…`: `0x41` and 20 zero bytes); `None` where that is the all-zero EVM address, or there is none.
    pub fn zero_account(self) -> Option<&'static str> {
        match self {
            Self::Tron => Some(tron::ZERO_ACCOUNT),
            Self::Bitcoin | Self::Evm | Self::Solana => None,
        }
    }

    /// An account of the family written from its 20-byte body, for the families whose contract calls are EVM calls:
    /// EIP-55 on EVM, Base58Check of `0x41` and the body on Tron; `None` for the others.
    pub fn account_from_body(self, body: [u8; 20]) -> Option<String> {
        match self {
            Self::Evm => Some(alloy_primitives::Address::from(body).to_checksum(None)),
            Self::Tron => Some(tron::base58(&tron::account_of_body(body))),
            Self::Bitcoin | Self::Solana => None,
        }
    }

    /// The 20-byte body of the account `text` names, for the families whose contract calls are EVM calls (the
    /// inverse of [`ChainFamily::account_from_body`]); `None` for the others and for a text that is no account.
    pub fn call_body(self, text: &str) -> Option<[u8; 20]> {
        match self {
            Self::Evm => self.account_key(text)?.try_into().ok(),
            Self::Tron => tron::parse_account(text.trim()).map(|a| {
                let mut body = [0; 20];
                body.copy_from_slice(&a[1..]);
                body
            }),
            Self::Bitcoin | Self::Solana => None,
        }
    }

    /// Whether an address of the family can receive an affiliate fee: the gateway pays affiliate fees in tokens (the
    /// inventory asset: wrapped BTC or a stablecoin), so the address is one of a token chain, never a Bitcoin one.
    pub fn receives_affiliate_fees(self) -> bool {
        self != Self::Bitcoin
    }

    /// How the family writes an address, which [`crate::address`] checks without naming the family.
    pub fn address_rule(self) -> AddressRule {
        match self {
            Self::Bitcoin => AddressRule::Bitcoin,
            Self::Evm => AddressRule::Evm,
            Self::Tron => AddressRule::Base58(tron::ADDRESS_RULE),
            Self::Solana => AddressRule::Base58(solana::ADDRESS_RULE),
        }
    }

    /// How the id of a source transaction of the family looks ([`TxIdShape`]): what [`crate::txhash`] checks a
    /// handed-in id against, and the window's check as the person types.
    pub fn tx_id_shape(self) -> TxIdShape {
        match self {
            Self::Evm => TxIdShape::Hex { adds_0x: true },
            Self::Tron => tron::TX_ID_SHAPE,
            Self::Solana => solana::SIGNATURE_SHAPE,
            Self::Bitcoin => TxIdShape::Unchecked,
        }
    }

    /// Valid addresses of a family written in Base58, to stand in for one a support bundle shortened
    /// ([`crate::address::stand_in`] makes EVM's and Bitcoin's); empty for the others.
    pub fn stand_ins(self) -> &'static [&'static str] {
        match self {
            Self::Tron => &tron::STAND_INS,
            Self::Solana => &solana::STAND_INS,
            Self::Bitcoin | Self::Evm => &[],
        }
    }

    /// What identifies the account `text` names, so that two spellings of one account compare equal: an EVM
    /// address's 20 bytes (any case), a Tron account's 21 bytes (Base58, `41…` or `0x41…` hex), a Solana public key's
    /// 32 bytes; for Bitcoin, whose addresses have one spelling each, the trimmed text. `None` for a text that is no
    /// account of the family (measured before it is decoded) or is empty.
    pub fn account_key(self, text: &str) -> Option<Vec<u8>> {
        let text = text.trim();
        match self {
            Self::Evm => {
                let hex = text.strip_prefix("0x")?;
                if hex.len() != 40 {
                    return None;
                }
                alloy_primitives::Address::from_str(hex)
                    .ok()
                    .map(|a| a.0.0.to_vec())
            }
            Self::Tron => tron::parse_account(text).map(Vec::from),
            Self::Solana => crate::base58::decode(text, solana::ADDRESS_RULE.bytes)
                .ok()
                .filter(|key| key.len() == solana::ADDRESS_RULE.bytes),
            Self::Bitcoin => (!text.is_empty()).then(|| text.as_bytes().to_vec()),
        }
    }
}

/// The transaction of a family the gateway added after EVM, as the V3 create-order answer carries it: an entry of its
/// transaction union ([`crate::wire::TxData`]), tagged by `type`, the family's slug. Each entry is its family's own
/// ([`tron::TronTx`], [`solana::SolanaTx`]); a family added to the union is one more variant here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum FamilyTx {
    /// A call on Tron.
    Tron(tron::TronTx),
    /// A Solana transaction.
    Solana(solana::SolanaTx),
}

impl FamilyTx {
    /// The family the transaction is for.
    pub fn family(&self) -> ChainFamily {
        match self {
            Self::Tron(_) => ChainFamily::Tron,
            Self::Solana(_) => ChainFamily::Solana,
        }
    }

    /// The contract a call calls, with its family; `None` for a whole transaction (Solana's), whose program is read
    /// from its instructions.
    pub fn contract_called(&self) -> Option<(ChainFamily, &str)> {
        match self {
            Self::Tron(call) => Some((ChainFamily::Tron, call.to.as_str())),
            Self::Solana(_) => None,
        }
    }

    /// The chain slug the transaction is for; an entry that names none is its family's chain.
    pub fn chain(&self) -> &str {
        match self {
            Self::Tron(call) => &call.chain,
            Self::Solana(_) => "solana",
        }
    }

    /// What is asked to be signed, in lines for a terminal.
    pub fn lines_to_sign(&self) -> Vec<String> {
        match self {
            Self::Tron(call) => call.lines_to_sign(),
            Self::Solana(tx) => tx.lines_to_sign(),
        }
    }
}

/// The EVM account's BIP-32 path.
pub const EVM_KEY_PATH: &str = "m/44'/60'/0'/0/0";

/// How a family's key is made, imported and named ([`ChainFamily::key_rule`]): what the wallet derives, reads and
/// lists without naming the family. A family added with a kind of key already here is one more of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyRule {
    /// The kind of key, where a recovery phrase's is, and how a single one is written.
    pub scheme: KeyScheme,
    /// How a single key of the family is written, as the window's import list names it.
    pub import_label: &'static str,
    /// The family's account, as the wallet's list of accounts names it.
    pub account_label: &'static str,
}

/// The kind of a family's key ([`KeyRule::scheme`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyScheme {
    /// Bitcoin's: a secp256k1 key at BIP-84's path of the network, imported as a compressed WIF key, paid to as
    /// native SegWit.
    Bitcoin,
    /// A secp256k1 key at `path` (BIP-32), imported as 32 bytes of hex (`0x` optional); its account is the family's
    /// spelling of the last 20 bytes of Keccak-256 of its public key ([`ChainFamily::account_from_body`]: EVM's,
    /// Tron's).
    Secp256k1 {
        /// The BIP-32 path of a recovery phrase's key.
        path: &'static str,
    },
    /// An ed25519 key at `path` (SLIP-10, every step hardened), imported as the Base58 keypair of 64 bytes its
    /// wallets export (or its 32-byte secret); its account is the public key in Base58 (Solana's).
    Ed25519 {
        /// The SLIP-10 path of a recovery phrase's key.
        path: &'static str,
    },
}

/// How a family writes its addresses ([`ChainFamily::address_rule`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressRule {
    /// Bitcoin's: Base58Check legacy addresses and bech32 SegWit and Taproot ones, each of one network.
    Bitcoin,
    /// EVM's: `0x` and 40 hexadecimal characters, EIP-55 checksummed when mixed case.
    Evm,
    /// A fixed number of bytes written in Base58 (Tron, Solana).
    Base58(Base58Rule),
}

/// An address written in Base58: its length in characters, what it starts with, the bytes it decodes to and whether
/// it carries a checksum. A family added with such addresses is one more of these, checked by the same code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Base58Rule {
    /// What every address of the family starts with, if anything (Tron's `T`).
    pub prefix: Option<&'static str>,
    /// The fewest characters.
    pub min_len: usize,
    /// The most characters.
    pub max_len: usize,
    /// How many bytes the text decodes to (its version byte included, for Base58Check).
    pub bytes: usize,
    /// Base58Check whose first byte is this (Tron's `0x41`); `None` for plain Base58 with no checksum (Solana's
    /// public keys), where only the decoded length is checked.
    pub version: Option<u8>,
}

impl Base58Rule {
    /// Its lengths as a person reads them: "34 characters starting with T", "32 to 44 characters".
    pub fn lengths(&self) -> String {
        let count = if self.min_len == self.max_len {
            format!("{} characters", self.min_len)
        } else {
            format!("{} to {} characters", self.min_len, self.max_len)
        };
        match self.prefix {
            Some(prefix) => format!("{count} starting with {prefix}"),
            None => count,
        }
    }
}

/// How the id of a source transaction of a family looks, for the window's checks as the person types (the hand-in
/// box of an offramp or token swap) and for [`crate::txhash::validate_src_tx_hash`], which reads it for the families
/// added after Bitcoin and EVM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum TxIdShape {
    /// 64 hexadecimal characters, `0x` before them or not; `adds_0x`: the app writes it with `0x` (added when missing).
    Hex {
        /// Whether the app writes it with `0x`.
        #[serde(rename = "adds0x")]
        adds_0x: bool,
    },
    /// Base58 of `min_len` to `max_len` characters (a signature).
    Base58 {
        /// The fewest characters.
        #[serde(rename = "minLen")]
        min_len: usize,
        /// The most characters.
        #[serde(rename = "maxLen")]
        max_len: usize,
    },
    /// Not checked as typed: the family pays no order by a transaction handed in by hash (Bitcoin pays onramps, whose
    /// signed transaction or txid is checked by the onramp's own rule).
    Unchecked,
}

/// "an address of one of `families`" as a person reads it, article included ("an EVM, Tron or Solana address").
pub fn any_family_address(families: &[ChainFamily]) -> String {
    let list = in_a_sentence(families, "or");
    format!("{} {list} address", article(&list))
}

/// `items` as a sentence lists them: "EVM, Tron or Solana" (`last`: the word before the last one, `or` or `and`).
pub fn in_a_sentence<T: std::fmt::Display>(items: &[T], last: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., final_one] => format!(
            "{} {last} {final_one}",
            rest.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The article before `word` as it is read here, by its first letter: "an" (EVM), "a" (Bitcoin).
pub fn article(word: &str) -> &'static str {
    if word.starts_with(['A', 'E', 'I', 'O', 'U']) {
        "an"
    } else {
        "a"
    }
}

/// What the app knows of one chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chain {
    /// The gateway's slug (`bitcoin`, `bob`, `tron`, …), lower case.
    pub slug: &'static str,
    /// The chain's name as a person reads it (`Bitcoin`, `BOB`, `BNB Smart Chain`): receipts and sentences say it.
    pub name: &'static str,
    /// Which addresses and transactions it has.
    pub family: ChainFamily,
    /// The chain id: EIP-155 on EVM chains; Tron 728126428 (its mainnet id as EVM tooling reports it, `0x2b6653dc`);
    /// Solana 792703809, the id the published gateway puts in its Solana transactions; none for Bitcoin.
    pub chain_id: Option<u64>,
    /// The page of a transaction on the chain's block explorer is this prefix and the hash.
    pub explorer_tx: Option<&'static str>,
    /// Public JSON-RPC endpoints (Tron: its HTTP API), tried in order; each must answer the chain's id before
    /// anything is signed. Never probed beyond this list.
    pub public_rpcs: &'static [&'static str],
    /// The gateway's entry contract on this chain off the Sandbox: the only contract an offramp or token swap from it
    /// may call, and the only one the app approves tokens to. It is the address the gateway's own SDK pins for the
    /// same check (bob-collective/bob, `sdk/src/gateway/allowance-holder.ts`, read November 2026): 0x Protocol's
    /// canonical AllowanceHolder where it is deployed, the gateway's own deployment on BOB, and on Tron
    /// `TAfbit1ENsRmtZbPQfYU3srURpfYuWYS7K` (`41 07a39ae4…5d500d`, which the service writes as `0x41…` hex). The call
    /// is AllowanceHolder's `exec` (0x-settler's `IAllowanceHolder`). One table per chain, the same on Production,
    /// Staging and a custom URL. None: no published entry, so no call from this chain is signed off the Sandbox.
    pub approval_spender: Option<&'static str>,
}

const CANONICAL_0X: Option<&str> = Some("0x0000000000001fF3684f28c67538d4D072C22734");
const GATEWAY_BOB: Option<&str> = Some("0x8fd545b348e84deb145f0179a00c671f0b9519c3");

const fn evm(
    slug: &'static str,
    name: &'static str,
    chain_id: u64,
    explorer_tx: Option<&'static str>,
    public_rpcs: &'static [&'static str],
    approval_spender: Option<&'static str>,
) -> Chain {
    Chain {
        slug,
        name,
        family: ChainFamily::Evm,
        chain_id: Some(chain_id),
        explorer_tx,
        public_rpcs,
        approval_spender,
    }
}

/// Every chain the app knows, Bitcoin first, then the EVM chains, then Tron and Solana.
pub const CHAINS: &[Chain] = &[
    Chain {
        slug: "bitcoin",
        name: "Bitcoin",
        family: ChainFamily::Bitcoin,
        chain_id: None,
        explorer_tx: Some("https://mempool.space/tx/"),
        public_rpcs: &[],
        approval_spender: None,
    },
    evm(
        "bob",
        "BOB",
        60808,
        Some("https://explorer.gobob.xyz/tx/"),
        &[
            "https://rpc.gobob.xyz",
            "https://bob-mainnet.public.blastapi.io",
        ],
        GATEWAY_BOB,
    ),
    evm(
        "ethereum",
        "Ethereum",
        1,
        Some("https://etherscan.io/tx/"),
        &[
            "https://ethereum-rpc.publicnode.com",
            "https://eth.llamarpc.com",
        ],
        CANONICAL_0X,
    ),
    evm(
        "base",
        "Base",
        8453,
        Some("https://basescan.org/tx/"),
        &[
            "https://mainnet.base.org",
            "https://base-rpc.publicnode.com",
        ],
        CANONICAL_0X,
    ),
    evm(
        "bsc",
        "BNB Smart Chain",
        56,
        Some("https://bscscan.com/tx/"),
        &[
            "https://bsc-dataseed.bnbchain.org",
            "https://bsc-rpc.publicnode.com",
        ],
        CANONICAL_0X,
    ),
    evm(
        "arbitrum",
        "Arbitrum",
        42161,
        Some("https://arbiscan.io/tx/"),
        &[
            "https://arb1.arbitrum.io/rpc",
            "https://arbitrum-one-rpc.publicnode.com",
        ],
        CANONICAL_0X,
    ),
    evm(
        "avalanche",
        "Avalanche",
        43114,
        None,
        &[
            "https://api.avax.network/ext/bc/C/rpc",
            "https://avalanche-c-chain-rpc.publicnode.com",
        ],
        CANONICAL_0X,
    ),
    evm(
        "bera",
        "Berachain",
        80094,
        None,
        &[
            "https://rpc.berachain.com",
            "https://berachain-rpc.publicnode.com",
        ],
        None,
    ),
    evm(
        "sei",
        "Sei",
        1329,
        None,
        &[
            "https://evm-rpc.sei-apis.com",
            "https://sei-evm-rpc.publicnode.com",
        ],
        None,
    ),
    evm(
        "soneium",
        "Soneium",
        1868,
        None,
        &["https://rpc.soneium.org", "https://soneium.drpc.org"],
        None,
    ),
    evm(
        "sonic",
        "Sonic",
        146,
        None,
        &[
            "https://rpc.soniclabs.com",
            "https://sonic-rpc.publicnode.com",
        ],
        None,
    ),
    evm(
        "unichain",
        "Unichain",
        130,
        None,
        &[
            "https://mainnet.unichain.org",
            "https://unichain-rpc.publicnode.com",
        ],
        CANONICAL_0X,
    ),
    evm(
        "optimism",
        "Optimism",
        10,
        Some("https://optimistic.etherscan.io/tx/"),
        &[
            "https://mainnet.optimism.io",
            "https://optimism-rpc.publicnode.com",
        ],
        None,
    ),
    evm(
        "plasma",
        "Plasma",
        9745,
        None,
        &["https://rpc.plasma.to", "https://plasma.drpc.org"],
        CANONICAL_0X,
    ),
    evm(
        "polygon",
        "Polygon",
        137,
        Some("https://polygonscan.com/tx/"),
        &[
            "https://polygon-rpc.com",
            "https://polygon-bor-rpc.publicnode.com",
        ],
        CANONICAL_0X,
    ),
    evm(
        "hyperevm",
        "HyperEVM",
        999,
        None,
        &[
            "https://rpc.hyperliquid.xyz/evm",
            "https://hyperliquid.drpc.org",
        ],
        CANONICAL_0X,
    ),
    evm(
        "bob-sepolia",
        "BOB Sepolia",
        808813,
        None,
        &[
            "https://bob-sepolia.rpc.gobob.xyz",
            "https://bob-sepolia.drpc.org",
        ],
        None,
    ),
    evm(
        "sepolia",
        "Sepolia",
        11155111,
        None,
        &[
            "https://ethereum-sepolia-rpc.publicnode.com",
            "https://rpc.sepolia.org",
        ],
        None,
    ),
    evm(
        "swellchain",
        "Swellchain",
        1923,
        None,
        &[
            "https://swell-mainnet.alt.technology",
            "https://swell.drpc.org",
        ],
        None,
    ),
    evm(
        "telos",
        "Telos",
        40,
        None,
        &["https://rpc.telos.net", "https://telos.drpc.org"],
        None,
    ),
    Chain {
        slug: "tron",
        name: "Tron",
        family: ChainFamily::Tron,
        chain_id: Some(728126428),
        explorer_tx: Some("https://tronscan.org/#/transaction/"),
        // Tron's HTTP API (java-tron's /wallet/… endpoints).
        public_rpcs: &["https://api.trongrid.io", "https://tron-rpc.publicnode.com"],
        approval_spender: Some("TAfbit1ENsRmtZbPQfYU3srURpfYuWYS7K"),
    },
    Chain {
        slug: "solana",
        name: "Solana",
        family: ChainFamily::Solana,
        chain_id: Some(792703809),
        explorer_tx: Some("https://solscan.io/tx/"),
        public_rpcs: &[
            "https://api.mainnet-beta.solana.com",
            "https://solana-rpc.publicnode.com",
        ],
        approval_spender: None,
    },
];

/// The chain named `slug` (case and surrounding whitespace ignored), if the app knows it.
pub fn chain(slug: &str) -> Option<&'static Chain> {
    let slug = slug.trim();
    CHAINS.iter().find(|c| c.slug.eq_ignore_ascii_case(slug))
}

/// The name of chain `slug` as a person reads it ([`Chain::name`]); an unknown chain is named by its slug as written.
pub fn chain_name(slug: &str) -> &str {
    chain(slug).map_or(slug, |c| c.name)
}

/// The chain id of `slug` ([`Chain::chain_id`]), or `None` for Bitcoin and unknown chains.
pub fn chain_id(slug: &str) -> Option<u64> {
    chain(slug)?.chain_id
}

/// The slugs of the EVM chains, in the table's order.
pub fn evm_chains() -> impl Iterator<Item = &'static str> {
    CHAINS
        .iter()
        .filter(|c| c.family == ChainFamily::Evm)
        .map(|c| c.slug)
}

/// The chains whose RPC endpoints a person may set (every chain with public endpoints: EVM chains, Tron, Solana).
pub fn chains_with_endpoints() -> impl Iterator<Item = &'static str> {
    CHAINS
        .iter()
        .filter(|c| !c.public_rpcs.is_empty())
        .map(|c| c.slug)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_as_sentences_and_only_bitcoin_has_no_endpoints_of_the_app() {
        assert_eq!(
            in_a_sentence(&["EVM", "Tron", "Solana"], "and"),
            "EVM, Tron and Solana"
        );
        assert_eq!(in_a_sentence(&["EVM", "Tron"], "or"), "EVM or Tron");
        assert_eq!(in_a_sentence(&["Solana"], "or"), "Solana");
        assert_eq!(in_a_sentence::<&str>(&[], "or"), "");
        assert_eq!((article("EVM"), article("Bitcoin")), ("an", "a"));
        for family in ChainFamily::ALL {
            assert_eq!(
                family.has_endpoints(),
                family != ChainFamily::Bitcoin,
                "{family}"
            );
        }
    }

    #[test]
    fn all_lists_every_variant_of_the_enum_in_order() {
        // serde's refusal of an unknown family names every variant, in the enum's order: a variant left out of ALL
        // (and so out of every list read from it, the rails' included) fails here.
        let refusal = serde_json::from_str::<ChainFamily>("\"none\"")
            .unwrap_err()
            .to_string();
        let variants: Vec<&str> = refusal
            .split("expected one of ")
            .nth(1)
            .expect(&refusal)
            .split(" at line")
            .next()
            .unwrap()
            .split(", ")
            .map(|v| v.trim_matches('`'))
            .collect();
        let all: Vec<&str> = ChainFamily::ALL.iter().map(|f| f.key()).collect();
        assert_eq!(variants, all);
    }

    #[test]
    fn the_added_families_macro_lists_every_family_after_bitcoin_and_evm_by_its_key() {
        macro_rules! listed {
            ($($family:ident => $module:ident),* $(,)?) => {
                [$((ChainFamily::$family, stringify!($module))),*]
            };
        }
        let listed = crate::with_added_families!(listed);
        let expected: Vec<(ChainFamily, &str)> = ChainFamily::ALL
            .into_iter()
            .filter(|f| !matches!(f, ChainFamily::Bitcoin | ChainFamily::Evm))
            .map(|f| (f, f.key()))
            .collect();
        assert_eq!(listed.to_vec(), expected);
    }

    #[test]
    fn a_20_byte_account_is_written_as_its_family_writes_it() {
        let body: [u8; 20] = alloy_primitives::hex!("a614f803b6fd780986a42c78ec9c7f77e6ded13c");
        assert_eq!(
            ChainFamily::Evm.account_from_body(body).as_deref(),
            Some("0xa614f803B6FD780986A42c78Ec9c7f77e6DeD13C")
        );
        // USDT's contract on Tron: 41a614f8…d13c.
        assert_eq!(
            ChainFamily::Tron.account_from_body(body).as_deref(),
            Some("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")
        );
        assert_eq!(ChainFamily::Solana.account_from_body(body), None);
        assert_eq!(ChainFamily::Bitcoin.account_from_body(body), None);
    }

    #[test]
    fn the_table_has_each_chain_once_with_what_its_family_needs() {
        for (i, c) in CHAINS.iter().enumerate() {
            assert_eq!(c.slug, c.slug.to_ascii_lowercase());
            assert!(
                CHAINS[i + 1..].iter().all(|o| o.slug != c.slug),
                "{}",
                c.slug
            );
            assert_eq!(
                c.chain_id.is_none(),
                c.family == ChainFamily::Bitcoin,
                "{}",
                c.slug
            );
            assert_eq!(
                c.public_rpcs.is_empty(),
                c.family == ChainFamily::Bitcoin,
                "{}",
                c.slug
            );
            assert!(c.public_rpcs.iter().all(|u| u.starts_with("https://")));
            if let Some(spender) = c.approval_spender {
                let valid = match c.family {
                    ChainFamily::Evm => crate::address::validate_evm(spender).is_ok(),
                    ChainFamily::Tron => crate::address::validate_address(
                        c.slug,
                        spender,
                        crate::address::BitcoinNetwork::Mainnet,
                    )
                    .is_ok(),
                    ChainFamily::Bitcoin | ChainFamily::Solana => false,
                };
                assert!(valid, "{}: {spender}", c.slug);
            }
        }
        assert_eq!(evm_chains().count(), 19);
        assert_eq!(chain(" Base ").map(|c| c.slug), Some("base"));
        assert_eq!(chain_id("bitcoin"), None);
        assert_eq!(chain_id("BOB"), Some(60808));
        assert_eq!(chains_with_endpoints().count(), 21);
    }

    #[test]
    fn every_chain_has_a_name_a_person_reads_and_unknown_ones_keep_their_slug() {
        for c in CHAINS {
            assert!(!c.name.trim().is_empty(), "{}", c.slug);
            assert!(
                CHAINS.iter().filter(|o| o.name == c.name).count() == 1,
                "{}",
                c.name
            );
        }
        assert_eq!(chain_name("bitcoin"), "Bitcoin");
        assert_eq!(chain_name(" BOB "), "BOB");
        assert_eq!(chain_name("bsc"), "BNB Smart Chain");
        assert_eq!(chain_name("mystery"), "mystery");
    }

    #[test]
    fn the_entry_contracts_are_the_published_ones() {
        // bob-collective/bob, sdk/src/gateway/allowance-holder.ts (the wire facts): one entry per chain.
        let entry = |slug: &str| chain(slug).and_then(|c| c.approval_spender);
        for slug in [
            "ethereum",
            "base",
            "bsc",
            "arbitrum",
            "avalanche",
            "unichain",
            "plasma",
            "polygon",
            "hyperevm",
        ] {
            assert_eq!(
                entry(slug),
                Some("0x0000000000001fF3684f28c67538d4D072C22734"),
                "{slug}"
            );
        }
        assert_eq!(
            entry("bob"),
            Some("0x8fd545b348e84deb145f0179a00c671f0b9519c3")
        );
        let tron = entry("tron").unwrap();
        assert_eq!(tron, "TAfbit1ENsRmtZbPQfYU3srURpfYuWYS7K");
        assert!(crate::address::same_account(
            ChainFamily::Tron,
            tron,
            "0x4107a39ae4c49dee86e892450b20881f32cd5d500d"
        ));
        assert_eq!(entry("solana"), None, "no public source names the program");
        assert_eq!(entry("bitcoin"), None);
    }
}
