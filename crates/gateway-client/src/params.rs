//! get-quote parameters, checked before anything is sent.

use std::fmt;
use std::str::FromStr;

use crate::version::ApiVersion;

/// The slippage tolerance the official client uses when none is given (3%).
pub const DEFAULT_SLIPPAGE_BPS: u32 = 300;
/// The largest slippage that can mean anything: 100%.
pub const MAX_SLIPPAGE_BPS: u32 = 10_000;
/// The lowest slippage tolerance public clients of the gateway document for a route (0.5%); the gateway itself says
/// its limits only when it refuses one (`SLIPPAGE_TOO_LOW`, `MAX_SLIPPAGE_EXCEEDED`).
pub const DOCUMENTED_MIN_SLIPPAGE_BPS: u32 = 50;
/// The lowest documented tolerance for a cross-chain token swap (1%).
pub const DOCUMENTED_MIN_TOKEN_SWAP_SLIPPAGE_BPS: u32 = 100;

/// What a token's price follows, as far as a route's default slippage is concerned: two tokens of one peg hold the
/// same value whatever the market does (BTC and WBTC; USDC and USDT), so their swap needs only the documented floor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Peg {
    /// Bitcoin and the tokens that stand for it one to one (WBTC, cbBTC, tBTC, LBTC, SolvBTC, …).
    Bitcoin,
    /// US dollar stablecoins (USDC, USDT and their bridged forms, DAI, FRAX, …).
    Dollar,
    /// Ether and wrapped ether.
    Ether,
}

/// The peg of a token by its ticker, when it has a known one. Receipts and wrappers whose price drifts from the asset
/// (staked ether, `sFRAX`, `SolvBTC.JUP`, Pendle's) have none.
pub fn peg_of(symbol: &str) -> Option<Peg> {
    let upper = symbol.trim().to_uppercase();
    if upper.contains('.') && !upper.starts_with("USDC.") {
        return None;
    }
    if upper == "BTC+" || (upper.ends_with("BTC") && !upper.starts_with("HYBRID")) {
        Some(Peg::Bitcoin)
    } else if upper.starts_with("USD")
        || ["DAI", "FRAX", "DLLR", "SATUSD", "THUSD", "OUSDT"].contains(&upper.as_str())
    {
        Some(Peg::Dollar)
    } else if upper == "ETH" || upper == "WETH" {
        Some(Peg::Ether)
    } else {
        None
    }
}

/// One affiliate entry: who is paid, and how many basis points of the swap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Affiliate {
    /// The address the affiliate's fee is paid to (an EVM address, or Base58 on Tron and Solana).
    pub address: String,
    /// The affiliate's share of the swap in basis points (25 is 0.25%); always above 0.
    pub bps: u32,
}

impl fmt::Display for Affiliate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.address, self.bps)
    }
}

impl FromStr for Affiliate {
    type Err = ParamError;

    /// Reads `address:bps`.
    fn from_str(entry: &str) -> Result<Self, ParamError> {
        let entry = entry.trim();
        let bad = |why: &str| {
            ParamError::Affiliate(format!("{entry:?} {why}; write each entry as address:bps"))
        };
        let (address, bps) = entry.rsplit_once(':').ok_or_else(|| bad("has no ':'"))?;
        let address = address.trim();
        if address.is_empty() {
            return Err(bad("has no address"));
        }
        let bps: u32 = bps
            .trim()
            .parse()
            .map_err(|_| bad("does not end in a whole number of basis points"))?;
        if bps == 0 {
            return Err(ParamError::Affiliate(format!(
                "the affiliate {address} has 0 bps; each entry needs more than 0 basis points"
            )));
        }
        Ok(Self {
            address: address.to_owned(),
            bps,
        })
    }
}

/// Reads a comma-separated list of `address:bps` entries; an empty string is no affiliates.
pub fn parse_affiliates(list: &str) -> Result<Vec<Affiliate>, ParamError> {
    list.split(',')
        .filter(|e| !e.trim().is_empty())
        .map(str::parse)
        .collect()
}

/// Why a request was not sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// A required parameter is empty; holds what is missing (`recipient`, "the order id", …).
    #[error("{0} is required")]
    Missing(&'static str),
    /// The amount is not a whole number of the token's smallest unit above 0; holds it as given.
    #[error("the amount {0:?} is not a whole number of the token's smallest unit above 0")]
    Amount(String),
    /// The slippage is 0 or above [`MAX_SLIPPAGE_BPS`]; holds the basis points given.
    #[error("slippage of {0} bps is outside 1 to {MAX_SLIPPAGE_BPS} bps (0.01% to 100%)")]
    Slippage(u32),
    /// An affiliate entry or list is malformed or not allowed (0 bps, an address listed twice, more than one on a V3
    /// token swap); the sentence says which.
    #[error("{0}")]
    Affiliate(String),
    /// A parameter the chosen API version does not take, or a deprecated one the gateway rejects.
    #[error("{name} is not accepted by API {version}: {why}")]
    NotInVersion {
        /// What is not accepted: the parameter's wire name (`ownerAddress`, `cursor`, …) or a description such as "a
        /// non-EVM source chain".
        name: &'static str,
        /// The API version the request was for.
        version: ApiVersion,
        /// Why that version does not take it, as the end of the sentence.
        why: &'static str,
    },
    /// The transaction to register is malformed for its chain, or a txid is not the txid of the transaction hex given
    /// with it; the sentence says which.
    #[error("{0}")]
    Transaction(String),
    /// An address argument is not a valid address of its chain (the sentence names the field).
    #[error("{0}")]
    Address(String),
    /// An API key would be sent over plain http to a host that is not loopback; holds the host.
    #[error(
        "the API key would be sent unencrypted to {0}: use an https:// address (plain http is allowed only on this \
         computer's loopback)"
    )]
    InsecureKey(String),
}

/// The parameters of get-quote. Amounts are in the smallest unit of the source token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuoteRequest {
    /// `srcChain`: the gateway's slug of the source chain (`bitcoin`, `bob`, `base`, `tron`, …).
    pub src_chain: String,
    /// `srcToken`: the source token's address on its chain; the all-zero EVM address for BTC and native tokens, Base58
    /// on Tron and Solana.
    pub src_token: String,
    /// `dstChain`: the gateway's slug of the destination chain.
    pub dst_chain: String,
    /// `dstToken`: the destination token's address on its chain, written as for `src_token`.
    pub dst_token: String,
    /// `amount`: how much to send, above 0, as a decimal string in the source token's smallest unit (sats, wei).
    pub amount: String,
    /// `recipient`: the address on the destination chain that receives the funds.
    pub recipient: String,
    /// `slippage`: the tolerated slippage in basis points (300 is 3%), from 1 to [`MAX_SLIPPAGE_BPS`].
    pub slippage_bps: u32,
    /// `sender`: the address on the source chain that sends the funds, when given; some routes need it, such as a swap
    /// from Solana, where it pays the fee and signs.
    pub sender: Option<String>,
    /// V2 and V3: the affiliates to pay.
    pub affiliates: Vec<Affiliate>,
    /// V1 only: its single affiliate identifier.
    pub affiliate_id: Option<String>,
    /// V3 only: the EVM owner and refund claimant.
    pub owner_address: Option<String>,
    /// V3 only: the Bitcoin refund address of an onramp.
    pub refund_address: Option<String>,
    /// Deprecated (V1, V2); always refused by this client, kept so a caller's mistake is reported, not dropped.
    pub gas_refill: Option<String>,
    /// Deprecated `strategyTarget` (V1, V2); always refused by this client, like `gas_refill`.
    pub strategy_target: Option<String>,
    /// Deprecated `strategyMessage` (V1, V2); always refused by this client, like `gas_refill`.
    pub strategy_message: Option<String>,
}

impl QuoteRequest {
    /// A request with the required fields and the default slippage.
    pub fn new(src: (&str, &str), dst: (&str, &str), amount: &str, recipient: &str) -> Self {
        Self {
            src_chain: src.0.to_owned(),
            src_token: src.1.to_owned(),
            dst_chain: dst.0.to_owned(),
            dst_token: dst.1.to_owned(),
            amount: amount.to_owned(),
            recipient: recipient.to_owned(),
            slippage_bps: DEFAULT_SLIPPAGE_BPS,
            sender: None,
            affiliates: Vec::new(),
            affiliate_id: None,
            owner_address: None,
            refund_address: None,
            gas_refill: None,
            strategy_target: None,
            strategy_message: None,
        }
    }

    /// V4 without a refund address: the sender's own address (as the gateway's own SDK sends it). Other versions and
    /// a refund address already given are left as they are.
    pub fn refund_defaults_to_sender(&mut self, version: ApiVersion) {
        if version == ApiVersion::V4 && self.refund_address.is_none() {
            self.refund_address = self.sender.clone();
        }
    }

    /// True when neither end is Bitcoin: a token swap (V1 calls it layerZero).
    pub fn is_token_swap(&self) -> bool {
        self.src_chain != "bitcoin" && self.dst_chain != "bitcoin"
    }

    /// Checks the request for `version`: required fields, amount, slippage, affiliates, and parameters the version
    /// does not take (the deprecated ones are refused everywhere: the service rejects them).
    pub fn validate(&self, version: ApiVersion) -> Result<(), ParamError> {
        for (name, value) in [
            ("srcChain", &self.src_chain),
            ("srcToken", &self.src_token),
            ("dstChain", &self.dst_chain),
            ("dstToken", &self.dst_token),
            ("recipient", &self.recipient),
            ("amount", &self.amount),
        ] {
            if value.trim().is_empty() {
                return Err(ParamError::Missing(name));
            }
        }
        let amount = self.amount.trim();
        if !amount.bytes().all(|b| b.is_ascii_digit()) || amount.bytes().all(|b| b == b'0') {
            return Err(ParamError::Amount(self.amount.clone()));
        }
        if !(1..=MAX_SLIPPAGE_BPS).contains(&self.slippage_bps) {
            return Err(ParamError::Slippage(self.slippage_bps));
        }
        let deprecated = "it is deprecated and the gateway rejects it";
        for (name, value) in [
            ("gasRefill", &self.gas_refill),
            ("strategyTarget", &self.strategy_target),
            ("strategyMessage", &self.strategy_message),
        ] {
            if value.is_some() {
                return Err(ParamError::NotInVersion {
                    name,
                    version,
                    why: deprecated,
                });
            }
        }
        if self.owner_address.is_some() && !version.takes_owner_address() {
            return Err(ParamError::NotInVersion {
                name: "ownerAddress",
                version,
                why: if version == ApiVersion::V4 {
                    "V4 dropped it; the refund address (refundAddress, on the source chain) replaces it"
                } else {
                    "it exists only in V3"
                },
            });
        }
        if let Some(refund) = &self.refund_address {
            if !version.takes_refund_address() {
                return Err(ParamError::NotInVersion {
                    name: "refundAddress",
                    version,
                    why: "it exists only in V3 and V4",
                });
            }
            if version == ApiVersion::V4 {
                refund_on_source_chain(&self.src_chain, refund)?;
            }
        }
        match version {
            ApiVersion::V1 if !self.affiliates.is_empty() => {
                return Err(ParamError::NotInVersion {
                    name: "affiliates",
                    version,
                    why: "V1 takes a single affiliateId instead",
                });
            }
            ApiVersion::V2 | ApiVersion::V3 | ApiVersion::V4 if self.affiliate_id.is_some() => {
                return Err(ParamError::NotInVersion {
                    name: "affiliateId",
                    version,
                    why: "V2 and later take an affiliates list (address:bps) instead",
                });
            }
            _ => {}
        }
        let mut seen = std::collections::HashSet::new();
        for affiliate in &self.affiliates {
            if affiliate.bps == 0 {
                return Err(ParamError::Affiliate(format!(
                    "the affiliate {} has 0 bps; each entry needs more than 0 basis points",
                    affiliate.address
                )));
            }
            // EVM addresses compare without case; Base58 ones (Tron, Solana) are case-sensitive.
            let key = if affiliate.address.starts_with("0x") {
                affiliate.address.to_ascii_lowercase()
            } else {
                affiliate.address.clone()
            };
            if !seen.insert(key) {
                return Err(ParamError::Affiliate(format!(
                    "the affiliate {} is listed twice; list each address once",
                    affiliate.address
                )));
            }
        }
        if version >= ApiVersion::V3 && self.is_token_swap() && self.affiliates.len() > 1 {
            return Err(ParamError::Affiliate(format!(
                "a {} token swap takes exactly one affiliate; {} were given",
                version.as_str().to_ascii_uppercase(),
                self.affiliates.len()
            )));
        }
        Ok(())
    }

    /// The query string pairs, in the order of the published document; empty options are left out.
    pub fn query_pairs(&self, version: ApiVersion) -> Vec<(&'static str, String)> {
        let mut pairs = vec![
            ("srcChain", self.src_chain.trim().to_owned()),
            ("dstChain", self.dst_chain.trim().to_owned()),
        ];
        if let Some(sender) = &self.sender {
            pairs.push(("sender", sender.trim().to_owned()));
        }
        pairs.extend([
            ("recipient", self.recipient.trim().to_owned()),
            ("srcToken", self.src_token.trim().to_owned()),
            ("dstToken", self.dst_token.trim().to_owned()),
            ("amount", self.amount.trim().to_owned()),
            ("slippage", self.slippage_bps.to_string()),
        ]);
        match version {
            ApiVersion::V1 => {
                if let Some(id) = &self.affiliate_id {
                    pairs.push(("affiliateId", id.clone()));
                }
            }
            ApiVersion::V2 | ApiVersion::V3 | ApiVersion::V4 => {
                if !self.affiliates.is_empty() {
                    let list: Vec<String> =
                        self.affiliates.iter().map(Affiliate::to_string).collect();
                    pairs.push(("affiliates", list.join(",")));
                }
            }
        }
        if version.takes_owner_address()
            && let Some(owner) = &self.owner_address
        {
            pairs.push(("ownerAddress", owner.trim().to_owned()));
        }
        if version.takes_refund_address()
            && let Some(refund) = &self.refund_address
        {
            pairs.push(("refundAddress", refund.trim().to_owned()));
        }
        pairs
    }
}

/// V4's `refundAddress` is an address on the source chain, for every route. A Bitcoin address is taken on any
/// network here (the request does not say which); the desk checks it against its own network before asking.
fn refund_on_source_chain(src_chain: &str, refund: &str) -> Result<(), ParamError> {
    use crate::address::{BitcoinNetwork, ChainFamily, chain_family, validate_address};
    let bad = |e: &dyn std::fmt::Display| {
        ParamError::Address(format!(
            "refundAddress: {e}; V4 refunds to an address on the source chain ({src_chain})"
        ))
    };
    if chain_family(src_chain) == Some(ChainFamily::Bitcoin) {
        let networks = [
            BitcoinNetwork::Mainnet,
            BitcoinNetwork::Testnet,
            BitcoinNetwork::Regtest,
        ];
        let mut last = None;
        for network in networks {
            match validate_address(src_chain, refund, network) {
                Ok(_) => return Ok(()),
                Err(e) => last = Some(e),
            }
        }
        return Err(bad(&last.expect("three networks were tried")));
    }
    match validate_address(src_chain, refund, BitcoinNetwork::Mainnet) {
        Ok(_) => Ok(()),
        // An unknown chain is the gateway's to refuse (it may support chains this client does not know yet).
        Err(crate::address::AddressError::UnknownChain { .. }) => Ok(()),
        Err(e) => Err(bad(&e)),
    }
}

#[cfg(test)]
mod tests {

    use super::*;

    fn onramp() -> QuoteRequest {
        QuoteRequest::new(
            ("bitcoin", "0x0000000000000000000000000000000000000000"),
            ("bob", "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c"),
            "100000",
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        )
    }

    #[test]
    fn affiliates_are_read_and_checked() {
        let list = parse_affiliates("0xabc:25, 0xdef:10").unwrap();
        assert_eq!(
            list,
            vec![
                Affiliate {
                    address: "0xabc".into(),
                    bps: 25
                },
                Affiliate {
                    address: "0xdef".into(),
                    bps: 10
                }
            ]
        );
        assert_eq!(parse_affiliates("").unwrap(), vec![]);
        assert!(
            matches!(parse_affiliates("0xabc:0"), Err(ParamError::Affiliate(m)) if m.contains("more than 0"))
        );
        assert!(parse_affiliates("0xabc").is_err());
        assert!(parse_affiliates("0xabc:ten").is_err());
        assert!(parse_affiliates(":10").is_err());
    }

    #[test]
    fn requests_are_validated_per_version() {
        let mut request = onramp();
        request.validate(ApiVersion::V3).unwrap();

        request.slippage_bps = 0;
        assert_eq!(
            request.validate(ApiVersion::V3),
            Err(ParamError::Slippage(0))
        );
        request.slippage_bps = 10_001;
        assert_eq!(
            request.validate(ApiVersion::V3),
            Err(ParamError::Slippage(10_001))
        );
        request.slippage_bps = 50;

        request.amount = "1.5".into();
        assert!(matches!(
            request.validate(ApiVersion::V3),
            Err(ParamError::Amount(_))
        ));
        request.amount = "0".into();
        assert!(matches!(
            request.validate(ApiVersion::V3),
            Err(ParamError::Amount(_))
        ));
        request.amount = "100000".into();

        request.gas_refill = Some("1".into());
        for version in [ApiVersion::V1, ApiVersion::V2, ApiVersion::V3] {
            assert!(matches!(
                request.validate(version),
                Err(ParamError::NotInVersion {
                    name: "gasRefill",
                    ..
                })
            ));
        }
        request.gas_refill = None;

        request.owner_address = Some("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed".into());
        request.validate(ApiVersion::V3).unwrap();
        assert!(matches!(
            request.validate(ApiVersion::V2),
            Err(ParamError::NotInVersion {
                name: "ownerAddress",
                ..
            })
        ));
        request.owner_address = None;

        request.affiliates = parse_affiliates("0xabc:25,0xABC:5").unwrap();
        assert!(
            matches!(request.validate(ApiVersion::V3), Err(ParamError::Affiliate(m)) if m.contains("twice"))
        );
        request.affiliates = parse_affiliates("0xabc:25,0xdef:5").unwrap();
        request.validate(ApiVersion::V3).unwrap();
        assert!(matches!(
            request.validate(ApiVersion::V1),
            Err(ParamError::NotInVersion {
                name: "affiliates",
                ..
            })
        ));

        let mut swap = request.clone();
        swap.src_chain = "base".into();
        swap.dst_chain = "tron".into();
        assert!(
            matches!(swap.validate(ApiVersion::V3), Err(ParamError::Affiliate(m)) if m.contains("exactly one"))
        );
        swap.affiliates.truncate(1);
        swap.validate(ApiVersion::V3).unwrap();

        let mut missing = onramp();
        missing.recipient = " ".into();
        assert_eq!(
            missing.validate(ApiVersion::V3),
            Err(ParamError::Missing("recipient"))
        );
    }

    #[test]
    fn query_pairs_follow_the_version() {
        let mut request = onramp();
        request.affiliates = parse_affiliates("0xabc:25,0xdef:5").unwrap();
        request.owner_address = Some("0xowner".into());
        let v3 = request.query_pairs(ApiVersion::V3);
        assert!(v3.contains(&("affiliates", "0xabc:25,0xdef:5".into())));
        assert!(v3.contains(&("ownerAddress", "0xowner".into())));
        assert!(v3.contains(&("slippage", "300".into())));
        let v2 = request.query_pairs(ApiVersion::V2);
        assert!(!v2.iter().any(|(k, _)| *k == "ownerAddress"));
        request.affiliates.clear();
        request.affiliate_id = Some("partner-7".into());
        let v1 = request.query_pairs(ApiVersion::V1);
        assert!(v1.contains(&("affiliateId", "partner-7".into())));
        assert!(!v1.iter().any(|(k, _)| *k == "affiliates"));
    }
}
