//! What partner refuses: an affiliate entry outside the gateway's limits, or a CSV that could not be written. The
//! window's form of each (its kind and the field at fault) is `crate::desk`'s.

use std::fmt;

use super::{MAX_AFFILIATES, MAX_TOTAL_BPS};

/// Why the affiliate entries or the dashboard's CSV were refused. Its text is the sentence for a person, ending with
/// what to do.
#[derive(Debug, thiserror::Error)]
pub enum PartnerError {
    /// More than [`MAX_AFFILIATES`] entries were given.
    TooManyAffiliates {
        /// How many were given.
        given: usize,
    },
    /// The address of the list's entry `index` (from 0) is not an affiliate address.
    AffiliateAddress {
        /// The entry, from 0.
        index: usize,
        /// Why its address is not one ("has no address", "… is not an EVM, Tron or Solana address").
        why: String,
    },
    /// The list's entry `index` has 0 bps.
    ZeroBps {
        /// The entry, from 0.
        index: usize,
        /// Its address, in canonical form.
        address: String,
    },
    /// The list's entry `index` repeats the address of the entry `first`.
    RepeatedAddress {
        /// The entry, from 0.
        index: usize,
        /// The earlier entry with the same address, from 0.
        first: usize,
        /// The address, in canonical form.
        address: String,
    },
    /// With the list's entry `index`, the entries add up to more than [`MAX_TOTAL_BPS`].
    TooManyBps {
        /// The entry, from 0.
        index: usize,
        /// The total up to and with it.
        total: u32,
    },
    /// The token-swap entry's address is not an affiliate address.
    TokenSwapAddress {
        /// Why its address is not one.
        why: String,
    },
    /// The token-swap entry's bps are not 1 to [`MAX_TOTAL_BPS`].
    TokenSwapBps {
        /// The bps it has.
        bps: u32,
    },
    /// The CSV writer failed.
    Csv(#[source] csv::Error),
}

impl PartnerError {
    /// The entry of the affiliate list at fault (from 0), for the list's refusals; `None` for the others.
    pub fn list_index(&self) -> Option<usize> {
        match self {
            Self::TooManyAffiliates { .. } => Some(MAX_AFFILIATES),
            Self::AffiliateAddress { index, .. }
            | Self::ZeroBps { index, .. }
            | Self::RepeatedAddress { index, .. }
            | Self::TooManyBps { index, .. } => Some(*index),
            Self::TokenSwapAddress { .. } | Self::TokenSwapBps { .. } | Self::Csv(_) => None,
        }
    }
}

impl fmt::Display for PartnerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooManyAffiliates { given } => write!(
                f,
                "{given} affiliate entries were given; the gateway takes at most {MAX_AFFILIATES}. Remove one and \
                 save again."
            ),
            Self::AffiliateAddress { index, why } => write!(
                f,
                "Affiliate entry {} {why}. Correct the address and save again.",
                index + 1
            ),
            Self::ZeroBps { index, address } => write!(
                f,
                "Affiliate entry {} ({address}) has 0 bps; each entry needs more than 0 basis points. Enter its \
                 share or remove it.",
                index + 1
            ),
            Self::RepeatedAddress {
                index,
                first,
                address,
            } => write!(
                f,
                "Affiliate entry {} repeats the address of entry {} ({address}); the gateway takes each address \
                 once. Remove one of them.",
                index + 1,
                first + 1
            ),
            Self::TooManyBps { index, total } => write!(
                f,
                "The affiliate entries add up to {total} bps with entry {}; the gateway takes at most \
                 {MAX_TOTAL_BPS} bps (10%) in total. Lower some shares and save again.",
                index + 1
            ),
            Self::TokenSwapAddress { why } => write!(
                f,
                "The token-swap affiliate {why}. Correct the address and save again."
            ),
            Self::TokenSwapBps { bps } => write!(
                f,
                "The token-swap affiliate has {bps} bps; it must be 1 to {MAX_TOTAL_BPS} bps. Enter its share \
                 again."
            ),
            Self::Csv(e) => write!(
                f,
                "The CSV could not be written ({e}). Try again; if it persists, report it."
            ),
        }
    }
}
