//! Errors: what the gateway said (a coded error body) kept apart from what went wrong on the way (transport).

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The phrase a [`ClientError::Connect`] begins with when the secure connection failed ([`ClientError::is_tls`]).
pub const TLS_FAILED: &str = "the secure connection (TLS) failed";

/// The phrase every error about a web page begins with ([`ClientError::is_web_page`]).
pub const WEB_PAGE: &str = "a web page (HTML), not JSON";

macro_rules! error_codes {
    ($($(#[$doc:meta])* $variant:ident => $wire:literal),+ $(,)?) => {
        /// A stable error code of the gateway, V1 to V3 plus the published extras.
        ///
        /// A code this client does not know is kept as [`ErrorCode::Other`] rather than failing to parse.
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum ErrorCode {
            $($(#[$doc])* $variant,)+
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
    /// The amount is too small for the route; details: `expected` and `actual`, in the source token's smallest unit.
    InsufficientAmount => "INSUFFICIENT_AMOUNT",
    /// The amount is below the route's minimum; details: `minimum` and `actual`, in the source token's smallest unit.
    QuoteAmountTooLow => "QUOTE_AMOUNT_TOO_LOW",
    /// Too little is left to swap once fees are taken; details: `required` and `available`.
    InsufficientSwapAmount => "INSUFFICIENT_SWAP_AMOUNT",
    /// The solver lacks the liquidity to deliver this amount now; details: `limit`, `token` and `chain_id`.
    InsufficientSolverBalance => "INSUFFICIENT_SOLVER_BALANCE",
    /// The payment made for an order was smaller than the order asked for; details: `expected` and `actual`.
    InsufficientPaymentAmount => "INSUFFICIENT_PAYMENT_AMOUNT",
    /// The fees are more than the amount; details: `total_fees` and `available_amount`.
    UnableToCoverFees => "UNABLE_TO_COVER_FEES",
    /// The sending Bitcoin address has too few confirmed funds to pay the deposit and its network fee.
    InsufficientConfirmedFunds => "INSUFFICIENT_CONFIRMED_FUNDS",
    /// The gateway simulated the transaction and it would fail on chain; details may link the simulation.
    SimulationFailed => "SIMULATION_FAILED",
    /// The gateway could not estimate the transaction's gas, usually because it would revert; details may link a
    /// simulation.
    GasEstimateFailed => "GAS_ESTIMATE_FAILED",
    /// The request is over the limit one account may use.
    PerAccountLimitExceeded => "PER_ACCOUNT_LIMIT_EXCEEDED",
    /// The request is over the limit of the whole gateway, across all accounts.
    GlobalLimitExceeded => "GLOBAL_LIMIT_EXCEEDED",
    /// A limit was exceeded: an amount above the route's limit, or too many requests; details: `limit`.
    ExceededLimit => "EXCEEDED_LIMIT",
    /// The request is malformed or a parameter is invalid; the message names it.
    InvalidRequest => "INVALID_REQUEST",
    /// create-order refused the quote sent back: not issued by this gateway, changed since, or incomplete.
    InvalidOrderArgs => "INVALID_ORDER_ARGS",
    /// An affiliate entry is invalid: a bad address, 0 bps, too many entries or too many bps in total.
    InvalidAffiliateFee => "INVALID_AFFILIATE_FEE",
    /// The slippage tolerance is below the route's minimum.
    SlippageTooLow => "SLIPPAGE_TOO_LOW",
    /// The slippage tolerance is above the maximum the gateway accepts.
    SlippageTooHigh => "SLIPPAGE_TOO_HIGH",
    /// The gateway offers no route between these tokens and chains; details: the route asked for.
    NoRoute => "NO_ROUTE",
    /// One of the chains is paused on the gateway.
    DisabledChain => "DISABLED_CHAIN",
    /// The destination chain is not one the gateway serves.
    InvalidDestinationChainId => "INVALID_DESTINATION_CHAIN_ID",
    /// No order has this id or source transaction.
    OrderNotFound => "ORDER_NOT_FOUND",
    /// The quote is too old to create an order from; a new quote is needed.
    OrderExpired => "ORDER_EXPIRED",
    /// An order was already created from this quote.
    DuplicateOrder => "DUPLICATE_ORDER",
    /// The gateway failed internally.
    InternalError => "INTERNAL_ERROR",
    /// The get-orders cursor is not one the gateway handed out, or no longer valid (V2 and later).
    InvalidCursor => "INVALID_CURSOR",
    /// The route takes no affiliate fees (V2 token swaps, say); details: the route (V2 and later).
    AffiliateFeesNotSupportedForRoute => "AFFILIATE_FEES_NOT_SUPPORTED_FOR_ROUTE",
    /// An error the gateway did not classify (V2 and later); details may carry a `message`.
    Unknown => "UNKNOWN",
    /// The request needs `ownerAddress`, the EVM owner and refund claimant, as a V3 offramp does.
    MissingOwnerAddress => "MISSING_OWNER_ADDRESS",
    /// A V3 token swap was given more than one affiliate.
    TooManyAffiliates => "TOO_MANY_AFFILIATES",
    /// Bungee, the bridge aggregator behind some token swaps, found no route for this one (V3).
    BungeeNoRoute => "BUNGEE_NO_ROUTE",
    /// The slippage tolerance is above the maximum (V3 as published in 2025); details: `suggested_bps` and `max_bps`.
    /// The September 2026 document no longer lists it: there, `SLIPPAGE_TOO_HIGH` carries `required_bps`.
    MaxSlippageExceeded => "MAX_SLIPPAGE_EXCEEDED",
    /// The gateway refuses addresses of the request on compliance grounds; details: `addresses` (V3).
    NonCompliantAddresses => "NON_COMPLIANT_ADDRESSES",
    /// The gateway, or a service it depends on, is unavailable for now; details may carry a `message` (V3).
    ServiceUnavailable => "SERVICE_UNAVAILABLE",
    /// create-order was sent a quote without `refundAddress`, the source-chain address a refund goes to (V4).
    MissingRefundAddress => "MISSING_REFUND_ADDRESS",
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
    /// The stable code, for deciding what to do (see [`ErrorCode::next_step`]).
    pub code: ErrorCode,
    /// The gateway's own sentence, written for developers rather than end users.
    pub error: String,
    /// Structured details whose shape depends on the code (read them with [`Self::typed_details`]); `None` when absent
    /// or `null`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
}

impl GatewayErrorBody {
    /// The details in their typed shape, if there are any.
    pub fn typed_details(&self) -> Option<ErrorDetails> {
        self.details.as_ref().and_then(ErrorDetails::from_json)
    }
}

/// The shapes of an error's `details` (all fields are strings on the wire).
///
/// The shape is recognised by its fields, not by the code, so a code that carries an unexpected shape is still read.
///
/// Serialized tagged by `shape` (`{ "shape": "minimumActual", "minimum": "10000", "actual": "5000" }`), each shape's
/// members named as the gateway names them: the form the window receives (desk-core's `GatewayDetails`; its
/// TypeScript twin, `GatewayShape`, behind the `ts` feature).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(rename = "GatewayShape", export_to = "GatewayShape.ts")
)]
#[serde(tag = "shape", rename_all = "camelCase")]
pub enum ErrorDetails {
    /// `INSUFFICIENT_AMOUNT`, `INSUFFICIENT_PAYMENT_AMOUNT`.
    ExpectedActual {
        /// The amount the gateway expected, in the token's smallest unit.
        expected: String,
        /// The amount it got, in the same unit.
        actual: String,
    },
    /// `INSUFFICIENT_SWAP_AMOUNT`.
    RequiredAvailable {
        /// The amount the swap needs after fees, in the token's smallest unit.
        required: String,
        /// The amount left after fees, in the same unit.
        available: String,
    },
    /// `UNABLE_TO_COVER_FEES`.
    FeesExceedAmount {
        /// The fees, in the source token's smallest unit.
        total_fees: String,
        /// The amount the fees would come out of, in the same unit.
        available_amount: String,
    },
    /// `SIMULATION_FAILED`, `GAS_ESTIMATE_FAILED`: `simulation_url` in the specification, `tenderly_url` on the
    /// published service.
    Simulation {
        /// A link to the failed simulation (the gateway uses Tenderly), when it gave one.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        url: Option<String>,
    },
    /// `NO_ROUTE`, `AFFILIATE_FEES_NOT_SUPPORTED_FOR_ROUTE`.
    Route {
        /// The source chain's slug.
        src_chain: String,
        /// The source token's address.
        src_token: String,
        /// The destination chain's slug.
        dst_chain: String,
        /// The destination token's address.
        dst_token: String,
    },
    /// `EXCEEDED_LIMIT`.
    Limit {
        /// The limit, as the gateway writes it: an amount in the token's smallest unit, or a request rate when it is
        /// rate limiting.
        limit: String,
    },
    /// `QUOTE_AMOUNT_TOO_LOW`.
    MinimumActual {
        /// The route's minimum amount, in the source token's smallest unit.
        minimum: String,
        /// The amount asked for, in the same unit.
        actual: String,
    },
    /// A maximum that was exceeded (V3).
    MaximumActual {
        /// The largest value allowed.
        max: String,
        /// The value given, in the same unit as `max`.
        actual: String,
    },
    /// `INSUFFICIENT_SOLVER_BALANCE`.
    SolverBalance {
        /// The most the solver can deliver now, in `token`'s smallest unit.
        limit: String,
        /// The address of the token that lacks liquidity.
        token: String,
        /// The chain of `token`, as text: usually its chain id, such as "60808" for BOB.
        chain_id: String,
    },
    /// `MAX_SLIPPAGE_EXCEEDED`.
    MaxSlippage {
        /// A slippage tolerance the gateway would accept, in basis points.
        suggested_bps: String,
        /// The largest slippage tolerance it accepts, in basis points.
        max_bps: String,
    },
    /// `SLIPPAGE_TOO_LOW` and `SLIPPAGE_TOO_HIGH` as the service's September 2026 document has them: the tolerance
    /// the route requires (the least for too low, the most for too high) and the one asked for.
    SlippageBounds {
        /// The least (too low) or the most (too high) the route takes, in basis points.
        required_bps: String,
        /// The tolerance the request asked for, in basis points.
        requested_bps: String,
    },
    /// `NON_COMPLIANT_ADDRESSES`.
    Addresses {
        /// The addresses the gateway refuses.
        addresses: Vec<String>,
    },
    /// `SERVICE_UNAVAILABLE`, `UNKNOWN`.
    Message {
        /// The gateway's explanation.
        message: String,
    },
    /// An object of no known shape, kept as sent (`{ "shape": "unrecognised", "value": … }`).
    #[serde(rename = "unrecognised")]
    Other {
        /// The details as the gateway sent them.
        value: serde_json::Value,
    },
}

impl ErrorDetails {
    /// Reads a `details` value; `null` gives `None`.
    pub fn from_json(value: &serde_json::Value) -> Option<Self> {
        let object = value.as_object()?;
        let text = |key: &str| object.get(key).and_then(|v| v.as_str()).map(str::to_owned);
        let has = |key: &str| object.contains_key(key);
        let pair = |a: &str, b: &str| Some((text(a)?, text(b)?));
        let details = if let (Some(limit), Some(token), Some(chain_id)) =
            (text("limit"), text("token"), text("chain_id"))
        {
            Self::SolverBalance {
                limit,
                token,
                chain_id,
            }
        } else if let (Some(src_chain), Some(src_token), Some(dst_chain), Some(dst_token)) = (
            text("src_chain"),
            text("src_token"),
            text("dst_chain"),
            text("dst_token"),
        ) {
            Self::Route {
                src_chain,
                src_token,
                dst_chain,
                dst_token,
            }
        } else if let Some((expected, actual)) = pair("expected", "actual") {
            Self::ExpectedActual { expected, actual }
        } else if let Some((minimum, actual)) = pair("minimum", "actual") {
            Self::MinimumActual { minimum, actual }
        } else if let Some((max, actual)) = pair("max", "actual") {
            Self::MaximumActual { max, actual }
        } else if let Some((required, available)) = pair("required", "available") {
            Self::RequiredAvailable {
                required,
                available,
            }
        } else if let Some((total_fees, available_amount)) = pair("total_fees", "available_amount")
        {
            Self::FeesExceedAmount {
                total_fees,
                available_amount,
            }
        } else if let Some((required_bps, requested_bps)) = pair("required_bps", "requested_bps") {
            Self::SlippageBounds {
                required_bps,
                requested_bps,
            }
        } else if let Some((suggested_bps, max_bps)) = pair("suggested_bps", "max_bps") {
            Self::MaxSlippage {
                suggested_bps,
                max_bps,
            }
        } else if let Some(limit) = text("limit") {
            Self::Limit { limit }
        } else if let Some(message) = text("message") {
            Self::Message { message }
        } else if let Some(addresses) = object.get("addresses").and_then(|v| v.as_array()) {
            Self::Addresses {
                addresses: addresses
                    .iter()
                    .filter_map(|a| a.as_str().map(str::to_owned))
                    .collect(),
            }
        } else if has("simulation_url") || has("tenderly_url") {
            Self::Simulation {
                url: text("simulation_url").or_else(|| text("tenderly_url")),
            }
        } else {
            Self::Other {
                value: value.clone(),
            }
        };
        Some(details)
    }
}

impl ErrorCode {
    /// What a person can do about this error: one sentence, for the end of a message.
    pub fn next_step(&self) -> &'static str {
        use ErrorCode::*;
        match self {
            InsufficientAmount | QuoteAmountTooLow | InsufficientSwapAmount | UnableToCoverFees => {
                "Increase the amount and ask for a new quote."
            }
            InsufficientPaymentAmount => {
                "The payment was smaller than the order asked for; contact support with the order id."
            }
            InsufficientConfirmedFunds => "Wait for your funds to confirm, then try again.",
            InsufficientSolverBalance => {
                "The gateway lacks liquidity for this amount now: try a smaller amount or try again later."
            }
            SimulationFailed | GasEstimateFailed => {
                "The transaction would fail on chain: check the balance and allowance of the sending address."
            }
            PerAccountLimitExceeded | GlobalLimitExceeded | ExceededLimit => {
                "Try a smaller amount, or try again later."
            }
            InvalidRequest | InvalidOrderArgs => "Check every field of the request and try again.",
            InvalidAffiliateFee => {
                "Check the affiliate entries (address:bps, bps above 0) and try again."
            }
            SlippageTooLow => "Raise the slippage tolerance and ask for a new quote.",
            SlippageTooHigh | MaxSlippageExceeded => {
                "Lower the slippage tolerance and ask for a new quote."
            }
            NoRoute | BungeeNoRoute => {
                "Choose another token or chain pair; get-routes lists what is offered."
            }
            DisabledChain => {
                "This chain is paused on the gateway; choose another chain or try later."
            }
            InvalidDestinationChainId => "Choose a destination chain the gateway lists.",
            OrderNotFound => {
                "Check the order id (or transaction hash); it may belong to another network."
            }
            OrderExpired => "The quote expired: ask for a new quote and create the order again.",
            DuplicateOrder => {
                "An order was already created from this quote: look it up instead of creating it again."
            }
            InvalidCursor => "Start the listing again from the first page.",
            AffiliateFeesNotSupportedForRoute => {
                "Remove the affiliates for this route and ask again."
            }
            MissingOwnerAddress => {
                "Give an owner address (the EVM address that may claim refunds) and ask again."
            }
            TooManyAffiliates => {
                "A token swap takes exactly one affiliate: keep one and ask again."
            }
            MissingRefundAddress => {
                "Give a refund address (your own address on the chain you pay from) and ask for a new quote."
            }
            NonCompliantAddresses => "The gateway refuses these addresses; use other addresses.",
            InternalError | Unknown | ServiceUnavailable | Other(_) => {
                "Try again in a minute; if it keeps happening, contact the gateway's support."
            }
        }
    }
}

/// Everything that can go wrong when talking to a gateway.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The gateway answered with its coded error body.
    #[error("the gateway refused the request ({}): {}", .body.code, .body.error)]
    Gateway {
        /// The HTTP status of the answer: a 4xx other than 429.
        status: u16,
        /// The coded error body, as sent.
        body: GatewayErrorBody,
    },
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
    RateLimited {
        /// How long the gateway asked to wait (its `Retry-After` header, in whole seconds), if it said.
        retry_after: Option<Duration>,
    },
    /// The gateway (or something in front of it) failed with a 5xx status.
    #[error("the gateway failed with {}; try again in a minute", http_status(*.status))]
    Server {
        /// The HTTP status of the answer (500 to 599).
        status: u16,
        /// The coded body's sentence when there is one; otherwise what the body shows: a web page named as one, or the
        /// start of its text on one line.
        snippet: String,
    },
    /// The answer was not the JSON the interface describes (an HTML page from a CDN, say). `snippet` never holds
    /// markup: a web page is named as one, with its title ([`ClientError::is_web_page`]).
    #[error(
        "the gateway answered {} with a body that is not the expected JSON: {snippet}", http_status(*.status)
    )]
    UnexpectedBody {
        /// The HTTP status of the answer (200 for a success whose body cannot be read).
        status: u16,
        /// What was wrong with the answer, or the start of the body, on one line; never markup.
        snippet: String,
    },
    /// Any other transport failure.
    #[error("transport failure: {0}")]
    Transport(String),
    /// The request was not sent: it is not valid for the gateway.
    #[error("not sent: {0}")]
    Invalid(#[from] crate::params::ParamError),
    /// The gateway's answer contradicts the request it answers (a create-order answer for another route, say).
    #[error("the gateway's answer does not match the request: {0}")]
    Mismatch(String),
    /// A request that changes state failed in transit after it may have reached the gateway: the order may or may
    /// not exist. Look it up before trying again.
    #[error(
        "{0}; the gateway may have acted on the request, so look the order up before trying again"
    )]
    AmbiguousWrite(Box<ClientError>),
}

/// `HTTP 404 (Not Found)`: a status with its name, when it has one.
pub fn http_status(status: u16) -> String {
    match reqwest::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
    {
        Some(reason) => format!("HTTP {status} ({reason})"),
        None => format!("HTTP {status}"),
    }
}

fn retry_hint(retry_after: &Option<Duration>) -> String {
    match retry_after {
        Some(wait) => format!("; retry after {} s", wait.as_secs()),
        None => String::new(),
    }
}

impl ClientError {
    /// True when the request may have changed state on the gateway although no answer arrived.
    pub fn is_ambiguous_write(&self) -> bool {
        matches!(self, Self::AmbiguousWrite(_))
    }

    /// True when the answer was a web page (HTML) instead of the interface's JSON: a wrong address, a proxy's or a
    /// CDN's page.
    pub fn is_web_page(&self) -> bool {
        match self {
            Self::UnexpectedBody { snippet, .. } | Self::Server { snippet, .. } => {
                snippet.starts_with(WEB_PAGE)
            }
            Self::AmbiguousWrite(inner) => inner.is_web_page(),
            _ => false,
        }
    }

    /// True when no connection was made because the secure connection (TLS) failed: a certificate not trusted, or
    /// an address that does not speak https.
    pub fn is_tls(&self) -> bool {
        matches!(self, Self::Connect(words) if words.starts_with(TLS_FAILED))
    }

    /// True for failures that a read may retry after a pause (never a coded gateway error).
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            Self::Timeout(_)
                | Self::Connect(_)
                | Self::RateLimited { .. }
                | Self::Server { .. }
                | Self::Transport(_)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_details_shape_is_recognised() {
        use serde_json::json;
        let cases = [
            (json!({"expected": "10", "actual": "9"}), "ExpectedActual"),
            (
                json!({"required": "10", "available": "9"}),
                "RequiredAvailable",
            ),
            (
                json!({"total_fees": "10", "available_amount": "9"}),
                "FeesExceedAmount",
            ),
            (json!({"simulation_url": "https://sim"}), "Simulation"),
            (json!({"tenderly_url": null}), "Simulation"),
            (
                json!({"src_chain": "a", "src_token": "b", "dst_chain": "c", "dst_token": "d"}),
                "Route",
            ),
            (json!({"limit": "5"}), "Limit"),
            (
                json!({"minimum": "10000", "actual": "5000"}),
                "MinimumActual",
            ),
            (json!({"max": "10", "actual": "11"}), "MaximumActual"),
            (
                json!({"limit": "5", "token": "0xabc", "chain_id": "60808"}),
                "SolverBalance",
            ),
            (
                json!({"suggested_bps": "120", "max_bps": "100"}),
                "MaxSlippage",
            ),
            // The September 2026 document's slippage details; the 2025 shape above is still read.
            (
                json!({"required_bps": "50", "requested_bps": "10"}),
                "SlippageBounds",
            ),
            (json!({"addresses": ["0x1", "0x2"]}), "Addresses"),
            (json!({"message": "down"}), "Message"),
            (json!({"brand": "new"}), "Other"),
        ];
        for (value, expected) in cases {
            let details = ErrorDetails::from_json(&value).unwrap();
            assert!(
                format!("{details:?}").starts_with(expected),
                "{value} read as {details:?}"
            );
        }
        assert_eq!(ErrorDetails::from_json(&json!(null)), None);
        assert_eq!(
            ErrorDetails::from_json(&json!({"tenderly_url": "https://t"})),
            Some(ErrorDetails::Simulation {
                url: Some("https://t".into())
            })
        );
    }

    #[test]
    fn details_serialize_tagged_by_shape_with_the_gateways_member_names() {
        use serde_json::json;
        let sent = [
            json!({"minimum": "10000", "actual": "5000"}),
            json!({"suggested_bps": "120", "max_bps": "100"}),
            json!({"limit": "9", "token": "0xt", "chain_id": "60808"}),
            json!({"required_bps": "50", "requested_bps": "10"}),
        ];
        let shapes = [
            "minimumActual",
            "maxSlippage",
            "solverBalance",
            "slippageBounds",
        ];
        for (value, shape) in sent.iter().zip(shapes) {
            let details = ErrorDetails::from_json(value).unwrap();
            let mut expected = value.clone();
            expected["shape"] = json!(shape);
            assert_eq!(serde_json::to_value(&details).unwrap(), expected);
        }
        // A simulation without a link has no `url`; details of no known shape keep what was sent under `value`.
        assert_eq!(
            serde_json::to_value(ErrorDetails::from_json(&json!({"tenderly_url": null})).unwrap())
                .unwrap(),
            json!({"shape": "simulation"})
        );
        assert_eq!(
            serde_json::to_value(ErrorDetails::from_json(&json!({"brand": "new"})).unwrap())
                .unwrap(),
            json!({"shape": "unrecognised", "value": {"brand": "new"}})
        );
    }

    #[test]
    fn every_code_has_a_next_step() {
        for code in ErrorCode::KNOWN {
            let step = ErrorCode::parse(code).next_step();
            assert!(step.ends_with('.') && step.len() > 20, "{code}: {step}");
        }
    }

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
