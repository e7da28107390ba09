//! Support: reproducing a quote. From a pasted quote or a support bundle, the same get-quote request is made again on
//! the same network, and the two quotes are compared field by field (amounts, each fee line, price impact, estimated
//! time, slippage, affiliates).

use std::str::FromStr;

use gateway_client::address::{BitcoinNetwork, ChainFamily, chain_family, validate_evm};
use gateway_client::display::{duration_text, usd_text};
use gateway_client::params::DEFAULT_SLIPPAGE_BPS;
use gateway_client::wire::{Quote, QuoteView, TokenAmount};
use gateway_client::{Affiliate, ApiVersion, QuoteRequest, TokenRegistry};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::api::DeskError;
use crate::api::invalid;
use crate::support::bundle::{BUNDLE_FORMAT, parse_bundle};
use crate::views::{AmountView, QuoteCard};

/// Where the quote to reproduce comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[ts(export_to = "ReproduceSource.ts")]
pub enum ReproduceSource {
    /// A support bundle's text: its order's accepted quote, on the bundle's network and API version.
    Bundle {
        /// The bundle file's whole text, as saved or pasted.
        text: String,
    },
    /// A quote as the gateway sent it (`{"onramp": {…}}` …), or a quote card's JSON (its `raw`).
    Quote {
        /// The pasted text, read as JSON: the gateway's envelope, a quote card, or the envelope's inner object.
        text: String,
    },
}

/// One compared field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "FieldDiff.ts")]
pub struct FieldDiff {
    /// `input amount`, `output amount`, `fee: solver fee`, `total fees`, `price impact`, `estimated time`, …
    pub field: String,
    /// The field's text in the original quote (an amount with its USD value when given); absent when that quote
    /// does not have the field.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub before: Option<String>,
    /// The field's text in the quote asked for again; absent when the new quote does not have the field.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub after: Option<String>,
    /// The two texts differ.
    pub changed: bool,
}

/// A quote and the same quote asked for again, compared.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "QuoteDiff.ts")]
pub struct QuoteDiff {
    /// The name of the network the quote was asked for again on (the one the app is using).
    pub network_label: String,
    /// The original quote (pasted, or the bundle's accepted quote), as a quote card.
    pub before: QuoteCard,
    /// The quote the gateway gave for the same request now, as a quote card.
    pub after: QuoteCard,
    /// Every field either quote has, in the original's order and then the new one's additions.
    pub fields: Vec<FieldDiff>,
    /// Sentences: where it was asked, stand-in addresses used for shortened ones, affiliates that could not be
    /// reproduced exactly, …
    pub notes: Vec<String>,
}

/// The quote to reproduce and what is known of where it was made.
#[derive(Debug)]
pub(crate) struct Origin {
    pub(crate) quote: Quote,
    /// The journal's name of the network, for a bundle.
    pub(crate) network: Option<String>,
    pub(crate) version: Option<ApiVersion>,
}

/// A person's name for a journal network key, with the URL of a custom network.
pub(crate) fn network_words(key: &str) -> String {
    match key.strip_prefix("custom:") {
        Some(url) => format!("the custom URL {url}"),
        None => super::lookup::network_label(key),
    }
}

pub(crate) fn not_a_quote(why: impl std::fmt::Display) -> DeskError {
    invalid(
        "text",
        format!(
            "This is not a quote the app can read ({why}). Paste the quote exactly as the gateway sent it \
             ({{\"onramp\": …}}, {{\"offramp\": …}}, {{\"tokenSwap\": …}}), or the quote card's JSON."
        ),
    )
}

/// Reads a pasted quote: the envelope, a quote card's JSON (its `raw`), or the envelope's inner object.
pub(crate) fn pasted_quote(value: Value) -> Result<Quote, DeskError> {
    if let Some(raw) = value.get("raw")
        && let Ok(quote) = Quote::from_json(raw.clone())
    {
        return Ok(quote);
    }
    let first_error = match Quote::from_json(value.clone()) {
        Ok(quote) => return Ok(quote),
        Err(e) => e,
    };
    // The inner object alone: whichever route it reads as (each route's required fields tell them apart).
    if value.is_object() {
        for key in ["onramp", "offramp", "tokenSwap", "layerZero"] {
            let mut envelope = serde_json::Map::new();
            envelope.insert(key.to_owned(), value.clone());
            if let Ok(quote) = Quote::from_json(Value::Object(envelope)) {
                return Ok(quote);
            }
        }
    }
    Err(not_a_quote(first_error))
}

/// Reads a bundle's accepted quote, network and API version.
pub(crate) fn bundle_origin(text: &str) -> Result<Origin, DeskError> {
    let file = parse_bundle(text)?;
    let quote = file
        .order
        .get("quote")
        .filter(|q| !q.is_null())
        .cloned()
        .or_else(|| {
            file.events
                .iter()
                .find(|e| e.kind == "quoteAccepted")
                .map(|e| e.payload.clone())
        })
        .ok_or_else(|| {
            invalid(
                "text",
                "This support bundle holds no accepted quote, so there is nothing to ask for again. Ask for the \
                 bundle to be made again.",
            )
        })?;
    let quote = Quote::from_json(quote).map_err(|e| {
        invalid(
            "text",
            format!(
                "The bundle's quote cannot be read ({e}). Ask for the bundle to be made again."
            ),
        )
    })?;
    let network = Some(file.network.clone())
        .filter(|n| !n.is_empty())
        .or_else(|| {
            file.order
                .get("network")
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
    Ok(Origin {
        quote,
        network,
        version: ApiVersion::from_str(&file.api_version).ok(),
    })
}

pub(crate) fn read_source(source: &ReproduceSource) -> Result<Origin, DeskError> {
    let text = match source {
        ReproduceSource::Bundle { text } => return bundle_origin(text),
        ReproduceSource::Quote { text } => text,
    };
    let value: Value = serde_json::from_str(text.trim().trim_start_matches('\u{feff}'))
        .map_err(|e| not_a_quote(format_args!("it is not JSON: {e}")))?;
    if value.get("format").and_then(Value::as_str) == Some(BUNDLE_FORMAT) {
        return bundle_origin(text);
    }
    Ok(Origin {
        quote: pasted_quote(value)?,
        network: None,
        version: None,
    })
}

/// True for an identifier a bundle shortened to `first4…last4`.
pub(crate) fn is_shortened(text: &str) -> bool {
    text.contains('…')
}

/// A valid address of `chain`'s family to stand in for one a bundle shortened; `n` tells stand-ins apart (two
/// affiliates must not share an address). A Bitcoin stand-in is of the gateway's Bitcoin network `bitcoin` (a
/// P2WPKH address of a made-up key hash), so a regtest Sandbox takes it.
pub(crate) fn stand_in(chain: &str, n: u8, bitcoin: BitcoinNetwork) -> Option<String> {
    const TRON: [&str; 2] = [
        "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7",
        "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
    ];
    const SOLANA: [&str; 2] = [
        "11111111111111111111111111111111",
        "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
    ];
    let pick = |list: &[&str]| list[usize::from(n) % list.len()].to_owned();
    Some(match chain_family(chain)? {
        ChainFamily::Evm => {
            validate_evm(&format!("0x{:040x}", 0xdead_0000_u64 + u64::from(n)))
                .ok()?
                .canonical
        }
        ChainFamily::Bitcoin => {
            let mut hash = [0xde_u8; 20];
            hash[19] = n;
            let script = ::bitcoin::ScriptBuf::new_p2wpkh(
                &<::bitcoin::WPubkeyHash as ::bitcoin::hashes::Hash>::from_byte_array(hash),
            );
            ::bitcoin::Address::from_script(&script, ::bitcoin::Network::from(bitcoin))
                .ok()?
                .to_string()
        }
        ChainFamily::Tron => pick(&TRON),
        ChainFamily::Solana => pick(&SOLANA),
    })
}

/// The chain a shortened address of unknown chain most likely belongs to, from how it starts.
pub(crate) fn chain_of_short(text: &str) -> &'static str {
    if text.starts_with("0x") {
        "ethereum"
    } else if text.starts_with('T') {
        "tron"
    } else if text.starts_with("bc1") || text.starts_with('1') || text.starts_with('3') {
        "bitcoin"
    } else {
        "solana"
    }
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
    fn address(&mut self, what: &str, chain: &str, value: &str) -> Result<String, DeskError> {
        if !is_shortened(value) {
            return Ok(value.to_owned());
        }
        self.stand_ins += 1;
        let stand = stand_in(chain, self.stand_ins, self.bitcoin).ok_or_else(|| {
            invalid(
                "text",
                format!(
                    "The bundle shortened the {what} ({value}) and the app knows no address format for {chain}, \
                     so the quote cannot be asked for again. Ask for a bundle made with identifiers included."
                ),
            )
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
    fn token(&mut self, chain: &str, address: &str) -> Result<String, DeskError> {
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
            _ => Err(invalid(
                "text",
                format!(
                    "The bundle shortened the token address {address} on {chain} and no single known token fits \
                     it, so the quote cannot be asked for again. Ask for a bundle made with identifiers included."
                ),
            )),
        }
    }

    /// The affiliates to ask for: exact where the quote states the bps (a V3 token swap), worked out from each fee
    /// otherwise, with a note.
    fn affiliates(&mut self, view: &QuoteView) -> Result<Vec<Affiliate>, DeskError> {
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
    pub(crate) fn request(&mut self, quote: &Quote) -> Result<QuoteRequest, DeskError> {
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

/// An amount as compared: the token amount, and its USD value when given.
pub(crate) fn amount_words(amount: &AmountView) -> String {
    match amount.usd.as_deref() {
        Some(usd) => format!("{} ({})", amount.text, usd_text(usd)),
        None => amount.text.clone(),
    }
}

/// The compared fields of a card, in the order they are shown.
pub(crate) fn fields_of(card: &QuoteCard) -> Vec<(String, Option<String>)> {
    let mut fields = vec![
        ("input amount".to_owned(), Some(amount_words(&card.send))),
        (
            "output amount".to_owned(),
            Some(amount_words(&card.receive)),
        ),
    ];
    for line in &card.fee_lines {
        fields.push((
            format!("fee: {}", line.name),
            Some(amount_words(&line.amount)),
        ));
    }
    fields.extend([
        (
            "total fees".to_owned(),
            card.total_fees.as_ref().map(amount_words),
        ),
        (
            // Only without a total in a token, whose text carries its USD value already.
            "total fees USD".to_owned(),
            card.total_fees_usd
                .as_deref()
                .filter(|_| card.total_fees.is_none())
                .map(usd_text),
        ),
        ("price impact".to_owned(), card.price_impact.clone()),
        (
            "price impact USD".to_owned(),
            card.price_impact_usd.as_deref().map(usd_text),
        ),
        (
            "estimated time".to_owned(),
            card.estimated_secs
                .map(|secs| format!("{} ({secs} s)", duration_text(secs))),
        ),
        (
            "slippage".to_owned(),
            Some(card.slippage_bps)
                .filter(|s| *s > 0)
                .map(|s| format!("{s} bps")),
        ),
    ]);
    for (i, a) in card.affiliates.iter().enumerate() {
        let value = match (&a.fee, a.bps) {
            (Some(fee), _) => amount_words(fee),
            (None, Some(bps)) => format!("{bps} bps"),
            (None, None) => "no fee stated".to_owned(),
        };
        fields.push((format!("affiliate {}", i + 1), Some(value)));
    }
    fields
}

/// Field by field: every field of either card, in the first card's order, then the second's new ones. Fields
/// neither card has are left out.
pub(crate) fn compare(before: &QuoteCard, after: &QuoteCard) -> Vec<FieldDiff> {
    let old = fields_of(before);
    let new = fields_of(after);
    let mut names: Vec<&String> = old.iter().map(|(n, _)| n).collect();
    for (name, _) in &new {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let find = |list: &[(String, Option<String>)], name: &str| {
        list.iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.clone())
    };
    names
        .into_iter()
        .filter_map(|name| {
            let (before, after) = (find(&old, name), find(&new, name));
            (before.is_some() || after.is_some()).then(|| FieldDiff {
                field: name.clone(),
                changed: before != after,
                before,
                after,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use gateway_client::address::validate_address;
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

    fn onramp(recipient: &str, affiliates: Value) -> Quote {
        let btc = |a: &str| json!({"address": gateway_client::wire::NATIVE_TOKEN, "amount": a, "chain": "bitcoin", "usd": "1.00"});
        Quote::from_json(json!({"onramp": {
            "inputAmount": btc("250000"),
            "outputAmount": {"address": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "amount": "246000",
                "chain": "bob", "usd": "246.00"},
            "fees": btc("4000"), "executionFees": btc("1500"),
            "feeBreakdown": {"solverFee": btc("500"), "protocolFee": btc("250"), "affiliateFee": btc("1250"),
                "executionFee": btc("1500"), "layerzeroFee": btc("0")},
            "recipient": recipient, "token": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c", "slippage": "300",
            "dstChain": "bob", "dstToken": "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c",
            "affiliates": affiliates, "estimatedTimeInSecs": 600, "priceImpact": "-0.0160",
            "ownerAddress": "0xfB69…d359",
        }}))
        .unwrap()
    }

    #[test]
    fn the_request_is_rebuilt_with_stand_ins_for_shortened_addresses() {
        let quote = onramp(
            "0x5aAe…eAed",
            json!([{"address": "0x1111…1111", "fee": {"address": gateway_client::wire::NATIVE_TOKEN,
                "amount": "1250", "chain": "bitcoin"}}]),
        );
        let mut notes = Vec::new();
        let request = Rebuild {
            version: ApiVersion::V3,
            bitcoin: BitcoinNetwork::Mainnet,
            notes: &mut notes,
            stand_ins: 0,
        }
        .request(&quote)
        .unwrap();
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
        let mut notes = Vec::new();
        let request = Rebuild {
            version: ApiVersion::V2,
            bitcoin: BitcoinNetwork::Mainnet,
            notes: &mut notes,
            stand_ins: 0,
        }
        .request(&quote)
        .unwrap();
        assert_eq!(request.owner_address, None);
        assert!(notes.iter().any(|n| n.contains("owner")), "{notes:?}");
    }

    #[test]
    fn pasted_quotes_are_read_from_the_envelope_the_card_or_the_inner_object() {
        let quote = onramp("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", json!([]));
        let envelope = quote.raw().clone();
        let card = serde_json::to_value(QuoteCard::new(&quote)).unwrap();
        let inner = envelope["onramp"].clone();
        for value in [envelope.clone(), card, inner] {
            assert_eq!(pasted_quote(value).unwrap().raw(), &envelope);
        }
        let err = pasted_quote(json!({"hello": 1})).unwrap_err();
        assert!(
            err.message.contains("Paste the quote exactly"),
            "{}",
            err.message
        );
        let err = read_source(&ReproduceSource::Quote {
            text: "not json".into(),
        })
        .unwrap_err();
        assert!(err.message.contains("it is not JSON"), "{}", err.message);
    }

    #[test]
    fn the_same_quote_compares_unchanged_and_a_moved_one_shows_where() {
        let quote = onramp("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", json!([]));
        let card = QuoteCard::new(&quote);
        let fields = compare(&card, &card);
        assert!(fields.iter().all(|f| !f.changed), "{fields:?}");
        let names: Vec<&str> = fields.iter().map(|f| f.field.as_str()).collect();
        for name in [
            "input amount",
            "output amount",
            "fee: solver fee",
            "fee: affiliate fee",
            "total fees",
            "price impact",
            "estimated time",
            "slippage",
        ] {
            assert!(names.contains(&name), "{name} in {names:?}");
        }
        assert!(
            !names.contains(&"price impact USD"),
            "absent on both: left out"
        );

        let mut moved = quote.raw().clone();
        moved["onramp"]["outputAmount"]["amount"] = json!("245000");
        moved["onramp"]["estimatedTimeInSecs"] = json!(900);
        moved["onramp"]["priceImpactUsd"] = json!("-4.00");
        let after = QuoteCard::new(&Quote::from_json(moved).unwrap());
        let changed: Vec<FieldDiff> = compare(&card, &after)
            .into_iter()
            .filter(|f| f.changed)
            .collect();
        let names: Vec<&str> = changed.iter().map(|f| f.field.as_str()).collect();
        assert_eq!(
            names,
            ["output amount", "price impact USD", "estimated time"]
        );
        assert_eq!(changed[1].before, None);
        assert_eq!(changed[1].after.as_deref(), Some("-$4.00"));
        assert_eq!(changed[2].after.as_deref(), Some("15 min (900 s)"));
    }
}
