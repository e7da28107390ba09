//! The get-quote request a quote was made from, built again: stand-ins for addresses a bundle shortened, known
//! tokens for shortened token addresses, and affiliates' bps worked out from their fees.

use gateway_client::address::{self, BitcoinNetwork, chain_family};
use gateway_client::params::DEFAULT_SLIPPAGE_BPS;
use gateway_client::wire::{Quote, QuoteView, TokenAmount};
use gateway_client::{Affiliate, ApiVersion, QuoteRequest, TokenRegistry};

use super::ReproduceError;

/// True for an identifier a bundle shortened to `first4…last4`.
pub(crate) fn is_shortened(text: &str) -> bool {
    text.contains('…')
}

/// A valid address of `chain`'s family to stand in for one a bundle shortened; `n` tells stand-ins apart (two
/// affiliates must not share an address). A Bitcoin stand-in is of the gateway's Bitcoin network `bitcoin`, so a
/// regtest Sandbox takes it.
pub(crate) fn stand_in(chain: &str, n: u8, bitcoin: BitcoinNetwork) -> Option<String> {
    address::stand_in(chain_family(chain)?, n, bitcoin)
}

/// The chain a shortened address of unknown chain most likely belongs to, from how it starts.
pub(crate) fn chain_of_short(text: &str) -> &'static str {
    address::likely_chain_of_short(text)
}

/// Builds the request again from a quote, noting what could not be taken as it was.
pub(crate) struct Rebuild<'a> {
    pub(crate) version: ApiVersion,
    /// The Bitcoin network of the gateway asked again (for stand-ins of Bitcoin addresses).
    pub(crate) bitcoin: BitcoinNetwork,
    pub(crate) notes: &'a mut Vec<String>,
    pub(crate) stand_ins: u8,
}

impl Rebuild<'_> {
    /// `value`, or a stand-in address of `chain` when the bundle shortened it.
    fn address(&mut self, what: &str, chain: &str, value: &str) -> Result<String, ReproduceError> {
        if !is_shortened(value) {
            return Ok(value.to_owned());
        }
        self.stand_ins += 1;
        let stand = stand_in(chain, self.stand_ins, self.bitcoin).ok_or_else(|| {
            ReproduceError::ShortenedAddress {
                what: what.to_owned(),
                value: value.to_owned(),
                chain: chain.to_owned(),
            }
        })?;
        let family = chain_family(chain).map_or_else(|| chain.to_owned(), |f| f.to_string());
        self.notes.push(format!(
            "The bundle shortened the {what} ({value}), so a stand-in {family} address ({stand}) was used in its \
             place. A quote's amounts depend on the route, amount, slippage and affiliates, not on who is named, \
             so they still compare; the new quote names the stand-in."
        ));
        Ok(stand)
    }

    /// A token address, resolved from the known tokens when the bundle shortened it.
    fn token(&mut self, chain: &str, address: &str) -> Result<String, ReproduceError> {
        let Some((head, tail)) = address.split_once('…') else {
            return Ok(address.to_owned());
        };
        let same = |a: &str, b: &str| a.eq_ignore_ascii_case(b);
        let matches: Vec<_> = TokenRegistry::builtin()
            .all()
            .iter()
            .filter(|t| same(&t.chain, chain))
            .filter(|t| {
                let evm = t.address.starts_with("0x");
                let (start, end) = t.address.split_at(head.len().min(t.address.len()));
                let end = &end[end.len().saturating_sub(tail.len())..];
                if evm {
                    same(start, head) && same(end, tail)
                } else {
                    start == head && end == tail
                }
            })
            .collect();
        match matches.as_slice() {
            [token] => {
                self.notes.push(format!(
                    "The bundle shortened the token address {address} on {chain}; it was read as {} ({}), the \
                     only known token that fits.",
                    token.symbol, token.address
                ));
                Ok(token.address.clone())
            }
            _ => Err(ReproduceError::ShortenedToken {
                address: address.to_owned(),
                chain: chain.to_owned(),
            }),
        }
    }

    /// The affiliates to ask for: exact where the quote states the bps (a V3 token swap), worked out from each fee
    /// otherwise, with a note.
    fn affiliates(&mut self, view: &QuoteView) -> Result<Vec<Affiliate>, ReproduceError> {
        let mut out = Vec::new();
        match view {
            QuoteView::TokenSwap(q) => {
                if let Some(a) = &q.affiliate {
                    let address = self.address("affiliate", &q.src_chain, &a.address)?;
                    out.push(Affiliate {
                        address,
                        bps: a.bps,
                    });
                }
            }
            QuoteView::Onramp(_) | QuoteView::Offramp(_) => {
                let (resolved, input) = match view {
                    QuoteView::Onramp(q) => (&q.affiliates, &q.input_amount),
                    QuoteView::Offramp(q) => (&q.affiliates, &q.input_amount),
                    _ => unreachable!("matched above"),
                };
                let mut worked = Vec::new();
                let mut inexact = Vec::new();
                for a in resolved {
                    let chain = if is_shortened(&a.address) {
                        chain_of_short(&a.address)
                    } else {
                        &a.fee.chain
                    };
                    let address = self.address("affiliate", chain, &a.address)?;
                    match derive_bps(&a.fee, input) {
                        Derived::Exact(bps) => {
                            worked.push(format!("{}: {bps} bps", a.address));
                            out.push(Affiliate { address, bps });
                        }
                        Derived::Estimated(bps) => {
                            inexact.push(format!("{}: about {bps} bps", a.address));
                            out.push(Affiliate { address, bps });
                        }
                        Derived::Unknown => inexact.push(format!("{}: left out", a.address)),
                    }
                }
                if !worked.is_empty() {
                    self.notes.push(format!(
                        "The quote does not state its affiliates' basis points, so they could not be taken from it \
                         exactly: they were worked out from each affiliate's fee and the input amount ({}).",
                        worked.join(", ")
                    ));
                }
                if !inexact.is_empty() {
                    self.notes.push(format!(
                        "Some affiliates could not be reproduced exactly ({}); their fee lines, and so the output, \
                         may differ for that reason alone.",
                        inexact.join(", ")
                    ));
                }
            }
            QuoteView::LayerZero(_) => {}
        }
        if !out.is_empty() && self.version == ApiVersion::V1 {
            self.notes.push(
                "API v1 takes no affiliate list, so the quote was asked for without its affiliates.".to_owned(),
            );
            out.clear();
        }
        if !out.is_empty()
            && self.version == ApiVersion::V2
            && matches!(view, QuoteView::TokenSwap(_))
        {
            self.notes.push(
                "API v2 token swaps take no affiliate, so the quote was asked for without it."
                    .to_owned(),
            );
            out.clear();
        }
        Ok(out)
    }

    /// The get-quote request that made `quote`, as far as the quote tells.
    pub(crate) fn request(&mut self, quote: &Quote) -> Result<QuoteRequest, ReproduceError> {
        let view = quote.view();
        let input = view.input_amount();
        let output = view.output_amount();
        let src_token = self.token(&input.chain, &input.address)?;
        let dst_token = self.token(&output.chain, &output.address)?;
        let recipient = self.address("recipient", &output.chain, view.recipient())?;
        let (slippage, sender, owner) = match view {
            QuoteView::Onramp(q) => (
                Some(q.slippage.bps()),
                q.sender.as_deref(),
                q.owner_address.as_deref(),
            ),
            QuoteView::Offramp(q) => (
                Some(q.slippage.bps()),
                q.sender.as_deref(),
                q.owner_address.as_deref(),
            ),
            QuoteView::TokenSwap(q) => (
                Some(q.slippage.bps()),
                q.sender.as_deref(),
                q.owner_address.as_deref(),
            ),
            QuoteView::LayerZero(q) => (None, q.sender.as_deref(), None),
        };
        let mut request = QuoteRequest::new(
            (&input.chain, &src_token),
            (&output.chain, &dst_token),
            &input.amount,
            &recipient,
        );
        request.slippage_bps = match slippage.filter(|s| *s > 0) {
            Some(bps) => bps,
            None => {
                self.notes.push(format!(
                    "The quote does not state its slippage, so {DEFAULT_SLIPPAGE_BPS} bps (the usual default) was \
                     asked for."
                ));
                DEFAULT_SLIPPAGE_BPS
            }
        };
        if let Some(sender) = sender.filter(|s| !s.is_empty()) {
            request.sender = Some(self.address("sender", &input.chain, sender)?);
        }
        if let Some(owner) = owner.filter(|o| !o.is_empty()) {
            if self.version == ApiVersion::V3 {
                request.owner_address = Some(self.address("owner", "ethereum", owner)?);
            } else {
                self.notes.push(format!(
                    "The quote names an owner, which API {} does not take; it was asked for without one.",
                    self.version
                ));
            }
        }
        if self.version == ApiVersion::V4 {
            // V4 refunds to an address on the source chain: the quote's own, else its sender's (as the app asks).
            match view.refund_address().filter(|r| !r.is_empty()).or(sender) {
                Some(refund) => {
                    request.refund_address =
                        Some(self.address("refund address", &input.chain, refund)?)
                }
                None => self.notes.push(
                    "The quote names no refund address or sender, which API v4 needs to create an order; it was \
                     asked for without one (a quote is still given)."
                        .to_owned(),
                ),
            }
        }
        request.affiliates = self.affiliates(view)?;
        Ok(request)
    }
}

/// An affiliate's bps worked out from its fee.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Derived {
    /// Exactly one whole bps gives this fee as the bps share of the input, rounded down.
    Exact(u32),
    /// The nearest whole bps (several fit, none fits exactly, or only USD values could be compared).
    Estimated(u32),
    Unknown,
}

/// A decimal USD string in millionths, exactly ([`crate::usd::Usd`]); `None` when it is not a plain decimal.
pub(crate) fn micro_usd(text: &str) -> Option<u128> {
    crate::usd::Usd::parse(text).map(crate::usd::Usd::micros)
}

pub(crate) fn derive_bps(fee: &TokenAmount, input: &TokenAmount) -> Derived {
    let nearest = |num: u128, den: u128| -> Option<u32> {
        let bps = (num.checked_mul(10_000)? + den / 2) / den;
        u32::try_from(bps).ok().filter(|b| (1..=10_000).contains(b))
    };
    let same_token = fee.chain.eq_ignore_ascii_case(&input.chain)
        && fee.address.eq_ignore_ascii_case(&input.address);
    if same_token && let (Ok(f), Ok(i)) = (fee.amount.parse::<u128>(), input.amount.parse::<u128>())
    {
        if i == 0 {
            return Derived::Unknown;
        }
        // floor(i × b / 10000) = f  ⇔  f × 10000 ≤ i × b < (f + 1) × 10000
        let (Some(low_num), Some(high_num)) = (f.checked_mul(10_000), (f + 1).checked_mul(10_000))
        else {
            return Derived::Unknown;
        };
        let low = low_num.div_ceil(i).max(1);
        let high = ((high_num - 1) / i).min(10_000);
        return match (low, high) {
            (l, h) if l == h => u32::try_from(l).map_or(Derived::Unknown, Derived::Exact),
            (l, h) if l < h => u32::try_from(l).map_or(Derived::Unknown, Derived::Estimated),
            _ => nearest(f, i).map_or(Derived::Unknown, Derived::Estimated),
        };
    }
    match (
        fee.usd.as_deref().and_then(micro_usd),
        input.usd.as_deref().and_then(micro_usd),
    ) {
        (Some(f), Some(i)) if i > 0 => nearest(f, i).map_or(Derived::Unknown, Derived::Estimated),
        _ => Derived::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::support::reproduce::tests::onramp;
    use gateway_client::address::{validate_address, validate_evm};
    use serde_json::json;

    #[test]
    fn stand_ins_are_valid_addresses_of_their_chain_and_tell_apart() {
        for network in [BitcoinNetwork::Mainnet, BitcoinNetwork::Regtest] {
            for chain in ["bob", "ethereum", "base", "bitcoin", "tron", "solana"] {
                let mut seen = std::collections::BTreeSet::new();
                for n in 0..2 {
                    let address = stand_in(chain, n, network).unwrap();
                    validate_address(chain, &address, network)
                        .unwrap_or_else(|e| panic!("{chain} {address}: {e}"));
                    assert!(!is_shortened(&address));
                    seen.insert(address);
                }
                assert_eq!(seen.len(), 2, "{chain}: {seen:?}");
            }
        }
        assert_eq!(stand_in("nowhere", 0, BitcoinNetwork::Mainnet), None);
        assert_eq!(chain_of_short("0x5aAe…eAed"), "ethereum");
        assert_eq!(chain_of_short("TLa2…YjU7"), "tron");
        assert_eq!(chain_of_short("bc1q…mdq"), "bitcoin");
        assert_eq!(chain_of_short("EPjF…Dt1v"), "solana");
    }

    fn amount(chain: &str, address: &str, amount: &str, usd: Option<&str>) -> TokenAmount {
        TokenAmount {
            chain: chain.into(),
            address: address.into(),
            amount: amount.into(),
            usd: usd.map(str::to_owned),
        }
    }

    #[test]
    fn affiliate_bps_are_worked_out_from_the_fee_only_when_it_fixes_them() {
        let btc = gateway_client::wire::NATIVE_TOKEN;
        let input = amount("bitcoin", btc, "250000", Some("250.00"));
        assert_eq!(
            derive_bps(&amount("bitcoin", btc, "1250", None), &input),
            Derived::Exact(50)
        );
        // 999 sats at 250000: 39.96 bps, so no whole bps gives it exactly.
        assert_eq!(
            derive_bps(&amount("bitcoin", btc, "999", None), &input),
            Derived::Estimated(40)
        );
        // A tiny input: several bps round down to the same fee.
        let tiny = amount("bitcoin", btc, "300", None);
        assert_eq!(
            derive_bps(&amount("bitcoin", btc, "1", None), &tiny),
            Derived::Estimated(34)
        );
        // A fee in another token: only the USD values compare.
        let other = amount(
            "bob",
            "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c",
            "1",
            Some("1.25"),
        );
        assert_eq!(derive_bps(&other, &input), Derived::Estimated(50));
        let bare = amount(
            "bob",
            "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c",
            "1",
            None,
        );
        assert_eq!(derive_bps(&bare, &input), Derived::Unknown);
    }

    /// The request `quote` is rebuilt to on `version` (mainnet), and the notes said.
    fn rebuilt(version: ApiVersion, quote: &Quote) -> (QuoteRequest, Vec<String>) {
        let mut notes = Vec::new();
        let request = Rebuild {
            version,
            bitcoin: BitcoinNetwork::Mainnet,
            notes: &mut notes,
            stand_ins: 0,
        }
        .request(quote)
        .unwrap();
        (request, notes)
    }

    #[test]
    fn the_request_is_rebuilt_with_stand_ins_for_shortened_addresses() {
        let quote = onramp(
            "0x5aAe…eAed",
            json!([{"address": "0x1111…1111", "fee": {"address": gateway_client::wire::NATIVE_TOKEN,
                "amount": "1250", "chain": "bitcoin"}}]),
        );
        let (request, notes) = rebuilt(ApiVersion::V3, &quote);
        assert_eq!(request.amount, "250000");
        assert_eq!(
            (request.src_chain.as_str(), request.dst_chain.as_str()),
            ("bitcoin", "bob")
        );
        assert_eq!(request.slippage_bps, 300);
        validate_evm(&request.recipient).unwrap();
        validate_evm(request.owner_address.as_deref().unwrap()).unwrap();
        assert_ne!(request.recipient, request.owner_address.clone().unwrap());
        assert_eq!(request.affiliates.len(), 1);
        assert_eq!(request.affiliates[0].bps, 50);
        assert_ne!(request.affiliates[0].address, request.recipient);
        request.validate(ApiVersion::V3).unwrap();
        let all = notes.join("\n");
        assert!(
            all.contains("shortened the recipient (0x5aAe…eAed)"),
            "{all}"
        );
        assert!(all.contains("shortened the owner (0xfB69…d359)"), "{all}");
        assert!(all.contains("0x1111…1111: 50 bps"), "{all}");
        assert!(all.contains("could not be taken from it exactly"), "{all}");

        // On V2 the owner is left out, and said so.
        let (request, notes) = rebuilt(ApiVersion::V2, &quote);
        assert_eq!(request.owner_address, None);
        assert!(notes.iter().any(|n| n.contains("owner")), "{notes:?}");

        // On V4 the owner is left out too, and the refund address is on the source chain: without a sender or a
        // refund address in the quote, it is said that V4 needs one.
        let (request, notes) = rebuilt(ApiVersion::V4, &quote);
        assert_eq!(request.owner_address, None);
        assert_eq!(request.refund_address, request.sender);
        if request.sender.is_none() {
            assert!(
                notes.iter().any(|n| n.contains("refund address")),
                "{notes:?}"
            );
        }
        request.validate(ApiVersion::V4).unwrap();
    }

    #[test]
    fn a_v4_offramp_is_rebuilt_with_its_refund_address() {
        let quote = Quote::from_json(json!({"offramp": {
            "srcChain": "bob", "tokenAddress": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c",
            "inputAmount": {"address": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "amount": "100000", "chain": "bob"},
            "outputAmount": {"address": gateway_client::wire::NATIVE_TOKEN, "amount": "98000", "chain": "bitcoin"},
            "feeBreakdown": {"solverFee": {"address": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "amount": "1", "chain": "bob"},
                "inclusionFee": {"address": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "amount": "1", "chain": "bob"},
                "protocolFee": {"address": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "amount": "1", "chain": "bob"},
                "affiliateFee": {"address": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "amount": "0", "chain": "bob"},
                "fastestFeeRate": "4"},
            "recipient": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "slippage": 300,
            "txTo": "0x5C1F7f15A8fc15AcE2b8C1bC1fF4E0c5aA5E1a4D",
            "sender": "0x70997970C51812dc3A65C64f09aCfC2C2DfCc9d2",
            "refundAddress": "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
        }}))
        .unwrap();
        let (request, notes) = rebuilt(ApiVersion::V4, &quote);
        assert_eq!(
            request.refund_address.as_deref(),
            Some("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"),
            "the quote's own, not the sender"
        );
        assert!(!notes.iter().any(|n| n.contains("refund")), "{notes:?}");
        request.validate(ApiVersion::V4).unwrap();
    }
}
