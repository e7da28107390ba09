//! The API version (a leaf module: the client, the request parameters and the errors all name it).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The API version: the first path segment of every endpoint.
///
/// The variants are ordered by age, so `version >= ApiVersion::V2` reads "V2 and every version after it".
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum ApiVersion {
    /// The first version: a token swap is a `layerZero` quote, affiliates are one `affiliateId`, and get-orders answers
    /// every order at once.
    V1,
    /// Renames the token swap `tokenSwap`, takes an `affiliates` list (`address:bps`), pages get-orders (`cursor`,
    /// `limit`) and adds USD values.
    V2,
    /// Adds `ownerAddress` and `refundAddress` (a Bitcoin address, onramps only) to get-quote, and create-order
    /// answers tag their transaction as EVM, Tron or Solana. Still served, with no announced end; the client's default.
    #[default]
    V3,
    /// The service's current version (September 2026): get-quote takes no `ownerAddress`, `refundAddress` is an
    /// address on the source chain for every route (required by create-order), and register-tx takes only an onramp's
    /// signed Bitcoin transaction, which the gateway broadcasts; offramp and token-swap transactions are read from the
    /// chain by the gateway.
    V4,
}

impl ApiVersion {
    /// Every version, oldest first.
    pub const ALL: [Self; 4] = [Self::V1, Self::V2, Self::V3, Self::V4];

    /// The path segment, `v1` to `v4`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::V1 => "v1",
            Self::V2 => "v2",
            Self::V3 => "v3",
            Self::V4 => "v4",
        }
    }

    /// V1 and V2 were removed from the service (its September 2026 document has only `/v3` and `/v4`); the app keeps
    /// them for reading old orders in Support and for the Sandbox.
    pub fn removed_from_service(self) -> bool {
        self < Self::V3
    }

    /// get-quote takes `ownerAddress` (V3 only: V4 dropped it).
    pub fn takes_owner_address(self) -> bool {
        self == Self::V3
    }

    /// get-quote takes `refundAddress`: V3 for an onramp (a Bitcoin address), V4 for every route (an address on the
    /// source chain, required by create-order).
    pub fn takes_refund_address(self) -> bool {
        self >= Self::V3
    }

    /// register-tx takes offramp and token-swap source transactions and onramp txids. V4 takes only an onramp's
    /// signed transaction: the gateway reads the other routes' transactions from the chain itself.
    pub fn registers_source_transactions(self) -> bool {
        self < Self::V4
    }
}

impl fmt::Display for ApiVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ApiVersion {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "v1" => Ok(Self::V1),
            "v2" => Ok(Self::V2),
            "v3" => Ok(Self::V3),
            "v4" => Ok(Self::V4),
            other => Err(format!(
                "unknown API version {other:?}: use v4, v3, v2 or v1"
            )),
        }
    }
}
