//! The window's error: a [`DeskError`] with its [`ErrorKind`], a sentence for a person, the gateway's code and
//! details. The gateway client's errors become one here; every domain module's own error becomes one in
//! `crate::desk` (`desk/errors.rs`). Its `details` are typed ([`ErrorDetails`], in `details.rs`). The TypeScript twins
//! are generated (ts-rs).

mod details;

pub use details::{
    ErrorDetails, FieldDetails, GatewayDetails, NoShape, OrderDetails, ShapeOrNone, SwapField,
};

use gateway_client::ClientError;
use serde::Serialize;
use ts_rs::TS;

/// Broad classes of failure, so the window can choose how to present one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "ErrorKind.ts")]
pub enum ErrorKind {
    /// Something the person typed or chose is not acceptable; nothing was sent.
    InvalidInput,
    /// The gateway answered with a coded error (`code` and `details` say which).
    Gateway,
    /// The gateway could not be reached or answered with something that is not the interface.
    Transport,
    /// The gateway asked the app to slow down.
    RateLimited,
    /// Nothing was found.
    NotFound,
    /// The operating system's keychain could not be used.
    Keychain,
    /// The settings could not be saved.
    Settings,
    /// The embedded Sandbox gateway could not be started.
    Sandbox,
    /// The order journal could not be read or written.
    Journal,
    /// What the gateway asks to be signed does not match the quote: it must not be signed.
    Refused,
    /// The app's wallet is absent, locked, or could not sign.
    Wallet,
}

/// A failure as the window receives it: `{ kind, message, code?, details? }`.
///
/// `message` is a sentence for a person that ends with what to do next.
#[derive(Debug, Clone, PartialEq, Serialize, TS, thiserror::Error)]
#[error("{message}")]
#[ts(export_to = "DeskError.ts")]
pub struct DeskError {
    /// The class of failure, which decides how the window presents it.
    pub kind: ErrorKind,
    /// A sentence for a person that says what went wrong and ends with what to do next.
    pub message: String,
    /// The gateway's error code (such as `QUOTE_AMOUNT_TOO_LOW`) when the gateway refused; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub code: Option<String>,
    /// Structured facts about the failure, typed: the app's own (such as `{ "field": "customUrl" }`, naming the form
    /// field at fault, or `{ "localId": 3 }`, naming an order), or the gateway's details in one of the interface's
    /// shapes with the swap-form field they are about (`{ "shape": "minimumActual", "field": "amount", … }`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub details: Option<Box<ErrorDetails>>,
}

impl DeskError {
    /// An error without a gateway code.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            code: None,
            details: None,
        }
    }

    /// The details as the window receives them (JSON), if there are any.
    pub fn details_json(&self) -> Option<serde_json::Value> {
        self.details.as_deref().map(ErrorDetails::to_json)
    }
}

impl From<ClientError> for DeskError {
    fn from(err: ClientError) -> Self {
        match err {
            ClientError::Gateway { body, .. } => Self {
                kind: ErrorKind::Gateway,
                message: format!(
                    "The gateway refused the request: {}. {}",
                    body.error.trim_end_matches('.'),
                    body.code.next_step()
                ),
                details: GatewayDetails::of(&body.code, body.details.as_ref())
                    .map(|d| Box::new(ErrorDetails::Gateway(d))),
                code: Some(body.code.as_str().to_owned()),
            },
            ClientError::RateLimited { retry_after } => Self::new(
                ErrorKind::RateLimited,
                match retry_after {
                    Some(wait) => format!(
                        "The gateway is receiving too many requests from this app. Wait {} seconds and try again.",
                        wait.as_secs()
                    ),
                    None => "The gateway is receiving too many requests from this app. Wait a minute and try again."
                        .to_owned(),
                },
            ),
            ClientError::NotFound => {
                Self::new(ErrorKind::NotFound, "The gateway has no such record. Check the identifier and try again.")
            }
            ClientError::Timeout(after) => Self::new(
                ErrorKind::Transport,
                format!(
                    "The gateway did not answer within {} seconds. Check your connection and try again.",
                    after.as_secs()
                ),
            ),
            ClientError::Connect(detail) => Self::new(
                ErrorKind::Transport,
                format!(
                    "Could not connect to the gateway ({detail}). Check your connection or the network's URL in \
                     Settings, or switch to the Sandbox."
                ),
            ),
            ClientError::Server { status, .. } => Self::new(
                ErrorKind::Transport,
                format!("The gateway failed with HTTP {status}. Try again in a minute."),
            ),
            ClientError::UnexpectedBody { status, snippet } => Self::new(
                ErrorKind::Transport,
                format!(
                    "The gateway's answer (HTTP {status}) is not what the interface describes, so it was not used: \
                     {snippet}. If this is a block page, your region may be refused; try another network."
                ),
            ),
            ClientError::Transport(detail) => Self::new(
                ErrorKind::Transport,
                format!("The request to the gateway failed ({detail}). Check your connection and try again."),
            ),
            ClientError::Invalid(problem) => Self::new(
                ErrorKind::InvalidInput,
                format!("Nothing was sent: {problem}. Correct it and try again."),
            ),
            ClientError::Mismatch(what) => Self::new(
                ErrorKind::Gateway,
                format!("The gateway's answer does not fit what was asked: {what}."),
            ),
            ClientError::AmbiguousWrite(inner) => Self::new(
                ErrorKind::Transport,
                format!(
                    "The request failed on the way ({inner}) after it may have reached the gateway. Look the \
                     order up before trying again, so that nothing is done twice."
                ),
            ),
        }
    }
}

/// A refusal of what a person entered in `field` (the window marks that field): an `InvalidInput` error.
pub fn invalid(field: &str, message: impl Into<String>) -> DeskError {
    let mut error = DeskError::new(ErrorKind::InvalidInput, message);
    error.details = Some(Box::new(ErrorDetails::field(field)));
    error
}

#[cfg(test)]
mod tests {
    use super::*;
    use gateway_client::GatewayErrorBody;
    use serde_json::json;

    #[test]
    fn a_gateway_error_keeps_its_structure_and_says_what_to_do() {
        let body: GatewayErrorBody = serde_json::from_value(json!({
            "code": "QUOTE_AMOUNT_TOO_LOW", "error": "amount below minimum.",
            "details": {"minimum": "10000", "actual": "5000"}
        }))
        .unwrap();
        let error = DeskError::from(ClientError::Gateway { status: 400, body });
        assert_eq!(error.kind, ErrorKind::Gateway);
        assert_eq!(error.code.as_deref(), Some("QUOTE_AMOUNT_TOO_LOW"));
        assert!(
            error
                .message
                .contains("amount below minimum. Increase the amount"),
            "{}",
            error.message
        );
        let wire = serde_json::to_value(&error).unwrap();
        assert_eq!(wire["kind"], "gateway");
        assert_eq!(wire["details"]["minimum"], "10000");
    }

    #[test]
    fn errors_without_a_code_serialize_without_one() {
        let wire = serde_json::to_value(DeskError::from(ClientError::NotFound)).unwrap();
        assert_eq!(wire["kind"], "not_found");
        assert!(
            wire.get("code").is_none() && wire.get("details").is_none(),
            "{wire}"
        );
    }
}
