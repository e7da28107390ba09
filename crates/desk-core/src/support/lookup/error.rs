//! What a lookup refuses or fails with. The window's form of each is `crate::desk`'s.

use std::fmt;

use gateway_client::{ApiVersion, ClientError};

use super::network_label;
use crate::settings::NetworkKind;

/// Why a lookup gave no answer. Its text is the sentence for a person, ending with what to do (but for
/// [`LookupError::Gateway`], the client's own words).
#[derive(Debug, thiserror::Error)]
pub enum LookupError {
    /// Nothing was typed.
    EmptyQuery,
    /// The query is shaped like an EVM address but is not a valid one (a wrong checksum, say).
    BadAddress {
        /// Why, in words.
        reason: String,
    },
    /// No order has the identifier `id` on the network asked.
    NotFound {
        /// What the identifier looks like ("order id", "Bitcoin txid", …).
        looks_like: String,
        /// The identifier, trimmed.
        id: String,
        /// The journal's name for the network asked (`production`, `custom:<url>`, …).
        network: String,
        /// The API version asked with.
        version: ApiVersion,
    },
    /// The gateway refused or could not be reached.
    Gateway(#[source] Box<ClientError>),
    /// The gateway kept sending pages of an address's orders without an end.
    EndlessPages {
        /// The pages read when the walk stopped.
        pages: usize,
    },
}

impl fmt::Display for LookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::EmptyQuery => f.write_str(
                "Enter an order id, a Bitcoin txid, a transaction hash or an address to look up.",
            ),
            Self::BadAddress { reason } => f.write_str(reason),
            Self::NotFound {
                looks_like,
                id,
                network,
                version,
            } => {
                let label = network_label(network);
                // The published service answers V3 and V4 only since September 2026 (V1 and V2 were removed).
                let published = matches!(network.as_str(), "production" | "staging");
                if published && version.removed_from_service() {
                    return write!(
                        f,
                        "Nothing was found for the {looks_like} {id} on {label} {version}: API {version} was removed \
                         from the service (September 2026). Try API v4 or v3: an order made through {version} keeps \
                         its id there."
                    );
                }
                let versions: Vec<&str> = ApiVersion::ALL
                    .into_iter()
                    .rev()
                    .filter(|v| v != version && !(published && v.removed_from_service()))
                    .map(ApiVersion::as_str)
                    .collect();
                let networks: Vec<&str> = NetworkKind::ALL
                    .into_iter()
                    .map(NetworkKind::label)
                    .filter(|l| *l != label)
                    .collect();
                write!(
                    f,
                    "Nothing was found for the {looks_like} {id} on {label} {version}. Check that it was copied \
                     whole, then try API {} or another network ({}): a gateway knows only the orders made on it.",
                    versions.join(" or "),
                    networks.join(", ")
                )
            }
            Self::Gateway(e) => fmt::Display::fmt(e, f),
            Self::EndlessPages { pages } => write!(
                f,
                "The gateway kept sending more pages of orders ({pages} so far) without an end, so the lookup \
                 stopped. Try again later, or look the orders up one by one by order id."
            ),
        }
    }
}

impl From<ClientError> for LookupError {
    fn from(err: ClientError) -> Self {
        Self::Gateway(Box::new(err))
    }
}
