//! Errors: what the gateway said (a coded error body) kept apart from what went wrong on the way (transport).

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! error_codes {
    ($($variant:ident => $wire:literal),+ $(,)?) => {
        /// A stable error code of the gateway, V1 to V3 plus the published extras.
        ///
        /// A code this client does not know is kept as [`ErrorCode::Other`] rather than failing to parse.
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum ErrorCode {
            $($variant,)+
            /// A code this client does not know, kept as sent.
            Other(String),
        }

        impl ErrorCode {
            /// Every code this client knows, in the order of the specification.
            pub const KNOWN: &'static [&'static str] = &[$($wire),+];

            /// The code as written on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant => $wire,)+
                    Self::Other(code) => code,
                }
            }

            /// Reads a code from the wire; unknown codes are kept.
            pub fn parse(code: &str) -> Self {
                match code {
                    $($wire => Self::$variant,)+
                    other => Self::Other(other.to_owned()),
                }
            }
        }
    };
}

error_codes! {
    InsufficientAmount => "INSUFFICIENT_AMOUNT",
    QuoteAmountTooLow => "QUOTE_AMOUNT_TOO_LOW",
    InsufficientSwapAmount => "INSUFFICIENT_SWAP_AMOUNT",
    InsufficientSolverBalance => "INSUFFICIENT_SOLVER_BALANCE",
    InsufficientPaymentAmount => "INSUFFICIENT_PAYMENT_AMOUNT",
    UnableToCoverFees => "UNABLE_TO_COVER_FEES",
    InsufficientConfirmedFunds => "INSUFFICIENT_CONFIRMED_FUNDS",
    SimulationFailed => "SIMULATION_FAILED",
    GasEstimateFailed => "GAS_ESTIMATE_FAILED",
    PerAccountLimitExceeded => "PER_ACCOUNT_LIMIT_EXCEEDED",
    GlobalLimitExceeded => "GLOBAL_LIMIT_EXCEEDED",
    ExceededLimit => "EXCEEDED_LIMIT",
    InvalidRequest => "INVALID_REQUEST",
    InvalidOrderArgs => "INVALID_ORDER_ARGS",
    InvalidAffiliateFee => "INVALID_AFFILIATE_FEE",
    SlippageTooLow => "SLIPPAGE_TOO_LOW",
    SlippageTooHigh => "SLIPPAGE_TOO_HIGH",
    NoRoute => "NO_ROUTE",
    DisabledChain => "DISABLED_CHAIN",
    InvalidDestinationChainId => "INVALID_DESTINATION_CHAIN_ID",
    OrderNotFound => "ORDER_NOT_FOUND",
    OrderExpired => "ORDER_EXPIRED",
    DuplicateOrder => "DUPLICATE_ORDER",
    InternalError => "INTERNAL_ERROR",
    InvalidCursor => "INVALID_CURSOR",
    AffiliateFeesNotSupportedForRoute => "AFFILIATE_FEES_NOT_SUPPORTED_FOR_ROUTE",
    Unknown => "UNKNOWN",
    MissingOwnerAddress => "MISSING_OWNER_ADDRESS",
    TooManyAffiliates => "TOO_MANY_AFFILIATES",
    BungeeNoRoute => "BUNGEE_NO_ROUTE",
    MaxSlippageExceeded => "MAX_SLIPPAGE_EXCEEDED",
    NonCompliantAddresses => "NON_COMPLIANT_ADDRESSES",
    ServiceUnavailable => "SERVICE_UNAVAILABLE",
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ErrorCode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = String::deserialize(deserializer)?;
        Ok(Self::parse(&code))
    }
}

/// The gateway's error body: `{ code, error, details? }`.
///
/// `details` is kept as the gateway sent it; its shape depends on the code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GatewayErrorBody {
    pub code: ErrorCode,
    pub error: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
}

/// Everything that can go wrong when talking to a gateway.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The gateway answered with its coded error body.
    #[error("the gateway refused the request ({}): {}", .body.code, .body.error)]
    Gateway { status: u16, body: GatewayErrorBody },
    /// No answer within the time allowed.
    #[error("the gateway did not answer within {0:?}")]
    Timeout(Duration),
    /// The gateway could not be reached at all.
    #[error("could not connect to the gateway: {0}")]
    Connect(String),
    /// Nothing was found (HTTP 404 with no body).
    #[error("not found")]
    NotFound,
    /// Too many requests; the gateway asked to wait.
    #[error("the gateway is rate limiting this client{}", retry_hint(.retry_after))]
    RateLimited { retry_after: Option<Duration> },
    /// The gateway (or something in front of it) failed with a 5xx status.
    #[error("the gateway failed with HTTP {status}")]
    Server { status: u16, snippet: String },
    /// The answer was not the JSON the interface describes (an HTML page from a CDN, say).
    #[error(
        "the gateway answered HTTP {status} with a body that is not the expected JSON: {snippet}"
    )]
    UnexpectedBody { status: u16, snippet: String },
    /// Any other transport failure.
    #[error("transport failure: {0}")]
    Transport(String),
}

fn retry_hint(retry_after: &Option<Duration>) -> String {
    match retry_after {
        Some(wait) => format!("; retry after {} s", wait.as_secs()),
        None => String::new(),
    }
}

impl ClientError {
    /// True for failures that a read may retry after a pause (never a coded gateway error).
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            Self::Timeout(_) | Self::Connect(_) | Self::RateLimited { .. } | Self::Server { .. }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_code_round_trips_and_unknown_codes_are_kept() {
        for code in ErrorCode::KNOWN {
            let parsed = ErrorCode::parse(code);
            assert!(
                !matches!(parsed, ErrorCode::Other(_)),
                "{code} should be known"
            );
            assert_eq!(parsed.as_str(), *code);
        }
        let body: GatewayErrorBody =
            serde_json::from_str(r#"{"code":"BRAND_NEW","error":"something new","details":null}"#)
                .unwrap();
        assert_eq!(body.code, ErrorCode::Other("BRAND_NEW".into()));
        assert_eq!(serde_json::to_value(&body.code).unwrap(), "BRAND_NEW");
    }
}
