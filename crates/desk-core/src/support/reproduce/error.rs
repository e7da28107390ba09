//! What reproducing a quote refuses. The window's form of each is `crate::desk`'s.

use crate::support::bundle::BundleError;

/// Why a quote cannot be asked for again. Its text is the sentence for a person, ending with what to do.
#[derive(Debug, thiserror::Error)]
pub enum ReproduceError {
    /// The pasted text is not a quote the app can read; `why` says what reading it gave.
    #[error(
        "This is not a quote the app can read ({why}). Paste the quote exactly as the gateway sent it \
         ({{\"onramp\": …}}, {{\"offramp\": …}}, {{\"tokenSwap\": …}}), or the quote card's JSON."
    )]
    NotAQuote {
        /// What reading it gave, in words.
        why: String,
    },
    /// The support bundle cannot be opened.
    #[error(transparent)]
    Bundle(#[from] BundleError),
    /// The bundle holds no accepted quote.
    #[error(
        "This support bundle holds no accepted quote, so there is nothing to ask for again. Ask for the bundle to \
         be made again."
    )]
    NoAcceptedQuote,
    /// The bundle's quote cannot be read; `reason` says what reading it gave.
    #[error("The bundle's quote cannot be read ({reason}). Ask for the bundle to be made again.")]
    BundleQuote {
        /// What reading it gave, in words.
        reason: String,
    },
    /// The bundle shortened an address of a chain whose address format the app does not know.
    #[error(
        "The bundle shortened the {what} ({value}) and the app knows no address format for {chain}, so the quote \
         cannot be asked for again. Ask for a bundle made with identifiers included."
    )]
    ShortenedAddress {
        /// Whose address: `recipient`, `sender`, `owner`, `affiliate`.
        what: String,
        /// The shortened address (`first4…last4`).
        value: String,
        /// The chain it belongs to.
        chain: String,
    },
    /// The bundle shortened a token address that no single known token fits.
    #[error(
        "The bundle shortened the token address {address} on {chain} and no single known token fits it, so the \
         quote cannot be asked for again. Ask for a bundle made with identifiers included."
    )]
    ShortenedToken {
        /// The shortened token address.
        address: String,
        /// Its chain.
        chain: String,
    },
}
