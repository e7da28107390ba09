//! The API version (a leaf module: the client, the request parameters and the errors all name it).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The API version: the first path segment of every endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ApiVersion {
    /// The first version: a token swap is a `layerZero` quote, affiliates are one `affiliateId`, and get-orders answers
    /// every order at once.
    V1,
    /// Renames the token swap `tokenSwap`, takes an `affiliates` list (`address:bps`), pages get-orders (`cursor`,
    /// `limit`) and adds USD values.
    V2,
    /// The current version and the default: adds `ownerAddress` and `refundAddress` to get-quote, and create-order
    /// answers tag their transaction as EVM, Tron or Solana.
    #[default]
    V3,
}

impl ApiVersion {
    /// The path segment, `v1`, `v2` or `v3`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::V1 => "v1",
            Self::V2 => "v2",
            Self::V3 => "v3",
        }
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
            other => Err(format!("unknown API version {other:?}: use v3, v2 or v1")),
        }
    }
}
