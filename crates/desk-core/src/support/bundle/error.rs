//! What a support bundle refuses: a file that cannot be opened, a bundle that cannot be written out, or one that would
//! have held the API key. The window's form of each is `crate::desk`'s.

/// Why a bundle was not made or not opened. Its text is the sentence for a person, ending with what to do.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    /// The file is not a bundle this app can open; `reason` says why and what to choose instead.
    #[error("This support bundle cannot be opened: {reason}.")]
    Unreadable {
        /// Why, in words, with what to do (no final full stop).
        reason: String,
    },
    /// The order's journal record could not be turned into JSON.
    #[error("The order's journal record cannot be written out ({0}). Nothing was made.")]
    OrderRecord(#[source] serde_json::Error),
    /// The bundle's text could not be written out.
    #[error("The bundle could not be written out ({0}). Nothing was made.")]
    Text(#[source] serde_json::Error),
    /// The finished text still held the current network's API key (in some form), so it was not made.
    #[error(
        "The bundle would have contained this network's API key, so it was not made and nothing was written. \
         Please report this to the Gateway Desk developers (without the key)."
    )]
    KeyLeak,
}

/// A file that cannot be opened as a bundle, for `reason`.
pub(crate) fn unreadable(reason: String) -> BundleError {
    BundleError::Unreadable { reason }
}
