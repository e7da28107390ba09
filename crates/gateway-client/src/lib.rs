//! The gateway's wire format and an HTTP client for it.
//!
//! `gateway-client` knows nothing of the desktop application: it speaks V1, V2 and V3 of the gateway interface, keeps
//! gateway errors apart from transport failures, and carries the token facts a client needs to show amounts.

#![warn(missing_docs)]

pub mod address;
pub mod amount;
pub mod base58;
pub mod capped;
pub mod chains;
pub mod client;
pub mod display;
pub mod error;
pub mod params;
mod text;
pub mod tokens;
pub mod txhash;
pub mod usd;
pub mod version;
pub mod wire;

pub use client::{
    Answer, ApiKey, Client, ClientConfig, InvalidApiKey, MAX_ANSWER_BYTES, MAX_PAGES, OrdersPager,
};
pub use error::{ClientError, ErrorCode, ErrorDetails, GatewayErrorBody};
pub use params::{Affiliate, ParamError, QuoteRequest};
pub use tokens::{TokenInfo, TokenRegistry};
pub use version::ApiVersion;
pub use wire::RouteInfo;

/// Base URLs of the two published deployments.
pub mod deployments {
    /// The production gateway.
    pub const PRODUCTION: &str = "https://gateway-api-mainnet.gobob.xyz";
    /// The staging gateway.
    pub const STAGING: &str = "https://gateway-api-staging.gobob.xyz";
}
