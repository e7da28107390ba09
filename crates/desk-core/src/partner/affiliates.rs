//! The affiliate entries: checked against the gateway's limits, applied to quote requests, and the rates the
//! dashboard estimates watched orders' earnings with.

use super::PartnerError;
use crate::api::RouteKind;
use crate::settings::{AffiliateEntry, NetworkKind, Settings};
use gateway_client::ApiVersion;
use gateway_client::address::{BitcoinNetwork, ChainFamily, validate_address, validate_any};
use gateway_client::chains::any_family_address;

/// The gateway's limits on onramp and offramp affiliates.
pub const MAX_AFFILIATES: usize = 5;
/// The largest total of the affiliate entries' bps (10%).
pub const MAX_TOTAL_BPS: u32 = 1_000;

/// The families whose addresses can receive an affiliate fee.
pub(crate) fn affiliate_families() -> Vec<ChainFamily> {
    ChainFamily::ALL
        .into_iter()
        .filter(|f| f.receives_affiliate_fees())
        .collect()
}

/// The canonical form of an affiliate address (EVM, Tron or Solana), or why it is not one.
pub(crate) fn canonical_address(address: &str) -> Result<String, String> {
    let address = address.trim();
    if address.is_empty() {
        return Err("has no address".into());
    }
    let families = affiliate_families();
    validate_any(&families, address, BitcoinNetwork::Mainnet)
        .map(|valid| valid.canonical)
        .ok_or_else(|| format!("{address:?} is not {}", any_family_address(&families)))
}

/// Checks the affiliate entries against the gateway's limits and gives them back with canonical addresses.
///
/// The list (onramps, offramps): each address valid, bps above 0, at most [`MAX_AFFILIATES`] entries, at most
/// [`MAX_TOTAL_BPS`] in total, no address twice (EVM addresses compared without case). The token-swap entry: a
/// valid address and 1 to [`MAX_TOTAL_BPS`] bps. An error names the entry (`{"field": "affiliates", "index": i}`,
/// or `{"field": "tokenSwapAffiliate"}`) and says what to change.
pub fn validate_affiliates(
    affiliates: &[AffiliateEntry],
    token_swap: Option<&AffiliateEntry>,
) -> Result<(Vec<AffiliateEntry>, Option<AffiliateEntry>), PartnerError> {
    if affiliates.len() > MAX_AFFILIATES {
        return Err(PartnerError::TooManyAffiliates {
            given: affiliates.len(),
        });
    }
    let mut list: Vec<AffiliateEntry> = Vec::with_capacity(affiliates.len());
    let mut total: u32 = 0;
    for (index, entry) in affiliates.iter().enumerate() {
        let address = canonical_address(&entry.address)
            .map_err(|why| PartnerError::AffiliateAddress { index, why })?;
        if entry.bps == 0 {
            return Err(PartnerError::ZeroBps { index, address });
        }
        if let Some(first) = list.iter().position(|e| e.address == address) {
            return Err(PartnerError::RepeatedAddress {
                index,
                first,
                address,
            });
        }
        total = total.saturating_add(entry.bps);
        if total > MAX_TOTAL_BPS {
            return Err(PartnerError::TooManyBps { index, total });
        }
        list.push(AffiliateEntry {
            address,
            bps: entry.bps,
        });
    }
    let swap = token_swap
        .map(|entry| {
            let address = canonical_address(&entry.address)
                .map_err(|why| PartnerError::TokenSwapAddress { why })?;
            if !(1..=MAX_TOTAL_BPS).contains(&entry.bps) {
                return Err(PartnerError::TokenSwapBps { bps: entry.bps });
            }
            Ok(AffiliateEntry {
                address,
                bps: entry.bps,
            })
        })
        .transpose()?;
    Ok((list, swap))
}

/// What a quote request carries for the partner, and why when some configured entry was not sent.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AppliedAffiliates {
    /// The entries sent with the quote request (addresses and bps), possibly none.
    pub entries: Vec<AffiliateEntry>,
    /// Why some or all of the configured entries were not sent (API V1, a V2 token swap, …), for the quote card.
    pub note: Option<String>,
}

/// The affiliate entries of `kind` a quote from `src_chain` to `dst_chain` carries on API `version`:
/// onramps and offramps (V2, V3) the list; V3 token swaps the token-swap entry, when its address is one of the
/// source chain (the fee is charged there); V2 token swaps and V1 none, with a note saying why.
pub fn affiliates_for(
    settings: &Settings,
    kind: NetworkKind,
    version: ApiVersion,
    src_chain: &str,
    dst_chain: &str,
) -> AppliedAffiliates {
    let list = settings.affiliates(kind);
    let swap = settings.token_swap_affiliate(kind);
    if list.is_empty() && swap.is_none() {
        return AppliedAffiliates::default();
    }
    let route = gateway_client::wire::RouteKind::between(src_chain, dst_chain);
    let none = |note: String| AppliedAffiliates {
        entries: Vec::new(),
        note: Some(note),
    };
    match (version, route) {
        (ApiVersion::V1, _) => none(
            "API V1 takes no affiliate list (only a single affiliate id), so no affiliate entry was sent with \
             this quote. Choose V3 or V2 in Settings to earn affiliate fees."
                .into(),
        ),
        (_, gateway_client::wire::RouteKind::Onramp | gateway_client::wire::RouteKind::Offramp) => {
            if list.is_empty() {
                AppliedAffiliates::default()
            } else {
                AppliedAffiliates {
                    entries: list.to_vec(),
                    note: None,
                }
            }
        }
        (ApiVersion::V2, gateway_client::wire::RouteKind::TokenSwap) => none(
            "V2 token swaps take no affiliate fee (the gateway refuses one), so no affiliate was sent with this \
             quote. Choose V3 in Settings to earn a fee on token swaps."
                .into(),
        ),
        (_, gateway_client::wire::RouteKind::TokenSwap) => match swap {
            Some(entry)
                if validate_address(src_chain, &entry.address, BitcoinNetwork::Mainnet)
                    .is_ok() =>
            {
                AppliedAffiliates {
                    entries: vec![entry.clone()],
                    note: None,
                }
            }
            Some(entry) => none(format!(
                "The token-swap affiliate {} is not an address of {src_chain}, where a token swap's affiliate \
                 fee is paid, so no affiliate was sent with this quote. Set a {src_chain} address as the \
                 token-swap affiliate to earn a fee on swaps from {src_chain}.",
                entry.address
            )),
            None => none(
                "A token swap takes one affiliate entry of its own (the token-swap affiliate in Settings); none \
                 is set, so no affiliate was sent with this quote."
                    .into(),
            ),
        },
    }
}

/// The bps the app would send now with an order of each route kind (the basis of the estimates for orders of
/// watched addresses, whose affiliates the gateway does not report).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AffiliateRates {
    /// Onramps and offramps: the list's total, when there is a list.
    pub list_bps: Option<u32>,
    /// Token swaps: the token-swap entry's bps (V3 only).
    pub token_swap_bps: Option<u32>,
}

impl AffiliateRates {
    /// The rates of network `kind` on API `version`: none on V1 (no affiliate list), no token swaps on V2.
    pub fn of(settings: &Settings, kind: NetworkKind, version: ApiVersion) -> Self {
        if version == ApiVersion::V1 {
            return Self::default();
        }
        let list = settings.affiliates(kind);
        Self {
            list_bps: (!list.is_empty()).then(|| list.iter().map(|a| a.bps).sum()),
            token_swap_bps: (version == ApiVersion::V3)
                .then(|| settings.token_swap_affiliate(kind).map(|a| a.bps))
                .flatten(),
        }
    }

    /// The bps for an order of `route`.
    pub fn for_route(&self, route: RouteKind) -> Option<u32> {
        match route {
            RouteKind::Onramp | RouteKind::Offramp => self.list_bps,
            RouteKind::TokenSwap => self.token_swap_bps,
        }
    }
}
