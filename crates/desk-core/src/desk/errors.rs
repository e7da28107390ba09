//! The window's form of every domain module's error: the modules say what went wrong in their own terms (their own
//! error enums, with the facts); here each becomes a [`DeskError`] with its [`ErrorKind`], its sentence and the
//! `details` naming the field at fault. Nothing outside `crate::desk` builds these (but [`crate::api`]'s conversion
//! of the gateway client's errors).

use gateway_client::{ApiVersion, ClientError};

use crate::error::{DeskError, ErrorDetails, ErrorKind, invalid};
use crate::flow::FlowError;
use crate::journal::JournalError;
use crate::network::NetworkError;
use crate::partner::PartnerError;
use crate::psbt_export::ExportError;
use crate::sandbox::SandboxError;
use crate::secrets::SecretsError;
use crate::settings::SettingsError;
use crate::support::{BundleError, LookupError, ReproduceError};

/// `error` with `details`.
fn with_details(mut error: DeskError, details: ErrorDetails) -> DeskError {
    error.details = Some(Box::new(details));
    error
}

impl From<SettingsError> for DeskError {
    fn from(err: SettingsError) -> Self {
        Self::new(
            ErrorKind::Settings,
            format!(
                "{err}. The choice applies until the app closes; check the folder's permissions and try again."
            ),
        )
    }
}

impl From<SecretsError> for DeskError {
    fn from(err: SecretsError) -> Self {
        let message = match err {
            // The technical cause goes to the log; the person needs to know what it means for them.
            SecretsError::Unavailable(_) => "No keychain is reachable (on Linux, a Secret Service such as \
                GNOME Keyring), so an API key can be neither stored nor used. The app keeps working without \
                a key; start or unlock your keychain and restart the app to use one."
                .to_owned(),
            SecretsError::Corrupt(_) => format!(
                "{err}. The app keeps working without an API key; set the key again to replace it."
            ),
            SecretsError::Keychain(_) => format!(
                "{err}. The app keeps working without an API key; unlock your keychain and try again."
            ),
        };
        Self::new(ErrorKind::Keychain, message)
    }
}

/// A flow's failure as the window's error (the window and the command line see only [`DeskError`]s). A function, not
/// a `From` impl: the flow's error carries a `DeskError` (the gateway's, already explained), and a `From` impl would
/// count as the error module using the flow (see `cargo xtask module-cycles`).
pub(crate) fn from_flow(err: FlowError) -> DeskError {
    match err {
        FlowError::Desk(e) => e,
        FlowError::Journal(JournalError::Refused { local_id, reason }) => with_details(
            DeskError::new(ErrorKind::Refused, reason),
            ErrorDetails::order(local_id),
        ),
        FlowError::Journal(e) => DeskError::new(ErrorKind::Journal, e.to_string()),
        FlowError::Refused(reason) => DeskError::new(ErrorKind::Refused, reason),
        FlowError::BadInput(reason) => DeskError::new(ErrorKind::InvalidInput, reason),
    }
}

/// A local gateway's or chain's failure to start, as the window's error.
impl From<SandboxError> for DeskError {
    fn from(err: SandboxError) -> Self {
        Self::new(ErrorKind::Sandbox, err.0)
    }
}

impl From<JournalError> for DeskError {
    fn from(err: JournalError) -> Self {
        from_flow(FlowError::from(err))
    }
}

impl From<NetworkError> for DeskError {
    fn from(err: NetworkError) -> Self {
        match err {
            NetworkError::BadUrl { text, why } => Self::new(
                ErrorKind::InvalidInput,
                format!(
                    "{text:?} is not a usable gateway URL: {why}. Enter an address like https://gateway.example.com."
                ),
            ),
            NetworkError::NoCustomUrl => Self::new(
                ErrorKind::InvalidInput,
                "The custom network needs a URL. Enter the gateway's address, then choose Custom URL.",
            ),
            NetworkError::SandboxNotStarted => Self::new(
                ErrorKind::Sandbox,
                "The Sandbox's local gateway was not started. Restart the app and try again.",
            ),
            NetworkError::Client(e) => Self::from(*e),
            NetworkError::Check {
                url,
                version,
                error,
            } => check_failure(&url, version, &error),
        }
    }
}

/// Why the gateway at `url` cannot be used, from what its get-routes gave: a sentence for a person that names the
/// address and what to check, never the body's markup. `details.field` is `customUrl`.
fn check_failure(url: &str, version: ApiVersion, err: &ClientError) -> DeskError {
    let endpoint = format!("{version}/get-routes");
    let check_address = "Check the address: it should be the gateway's API base URL (without /v4, /v3, /v2 or /v1).";
    let nothing = |why: &str| {
        format!(
            "Nothing answers at {url} ({why}): check the address and that the gateway is running."
        )
    };
    let (kind, message) = match err {
        ClientError::Connect(_) if err.is_tls() => (
            ErrorKind::Transport,
            format!(
                "No secure connection could be made to {url} ({}). Check the address (https:// for a gateway with \
                 a certificate, http:// for one without) and that the gateway's certificate is valid.",
                tls_reason(err)
            ),
        ),
        ClientError::Connect(words) => (
            ErrorKind::Transport,
            nothing(
                words
                    .strip_prefix("nothing answers at ")
                    .map_or(words.as_str(), |_| "the connection was refused"),
            ),
        ),
        ClientError::Timeout(after) => (
            ErrorKind::Transport,
            nothing(&format!("no answer within {} seconds", after.as_secs())),
        ),
        ClientError::Transport(words) => (
            ErrorKind::Transport,
            format!("{url} could not be asked for its routes ({words}). {check_address}"),
        ),
        _ if err.is_web_page() => {
            let title = match err {
                ClientError::UnexpectedBody { snippet, .. }
                | ClientError::Server { snippet, .. } => snippet
                    .strip_prefix(gateway_client::client::WEB_PAGE)
                    .and_then(|rest| rest.strip_prefix(", "))
                    .map(|rest| format!(" ({rest})"))
                    .unwrap_or_default(),
                _ => String::new(),
            };
            (
                ErrorKind::Transport,
                format!("{url} returned a web page{title}, not the gateway. {check_address}"),
            )
        }
        ClientError::UnexpectedBody { status, snippet } if (200..300).contains(status) => (
            ErrorKind::Transport,
            format!(
                "{url} answered, but not with the gateway's route list ({endpoint} gave: {snippet}). {check_address} \
                 Also check the API version ({version})."
            ),
        ),
        ClientError::NotFound | ClientError::UnexpectedBody { status: 404, .. } => (
            ErrorKind::Transport,
            format!(
                "{url} has no {endpoint}: it answered {}. {check_address} Also check the API version ({version}).",
                gateway_client::error::http_status(404)
            ),
        ),
        ClientError::UnexpectedBody { status, .. } => (
            ErrorKind::Transport,
            format!(
                "{url} answered {} when asked for its routes, not the gateway's route list. {check_address}",
                gateway_client::error::http_status(*status)
            ),
        ),
        ClientError::Server { status, .. } => (
            ErrorKind::Transport,
            format!(
                "{url} failed with {} when asked for its routes: the gateway there is not working now. Try again \
                 later, or check the address.",
                gateway_client::error::http_status(*status)
            ),
        ),
        ClientError::Gateway { status, body } => (
            ErrorKind::Gateway,
            format!(
                "The gateway at {url} refused to list its routes ({}, {}): {}. {}",
                gateway_client::error::http_status(*status),
                body.code,
                body.error.trim_end_matches('.'),
                body.code.next_step()
            ),
        ),
        ClientError::RateLimited { .. } => (
            ErrorKind::RateLimited,
            format!(
                "The gateway at {url} is receiving too many requests from this app. Wait a minute and try again."
            ),
        ),
        other => {
            let error = DeskError::from(clone_error(other));
            (
                error.kind,
                format!("{url} cannot be used: {}", error.message),
            )
        }
    };
    with_details(
        DeskError::new(kind, message),
        ErrorDetails::field("customUrl"),
    )
}

/// What went wrong with TLS, after the words the client puts first.
fn tls_reason(err: &ClientError) -> String {
    match err {
        ClientError::Connect(words) => words
            .split_once(": ")
            .map_or(words.as_str(), |(_, reason)| reason)
            .to_owned(),
        other => other.to_string(),
    }
}

/// The few errors [`check_failure`] hands to [`DeskError::from`] (which takes them by value), rebuilt.
fn clone_error(err: &ClientError) -> ClientError {
    match err {
        ClientError::Invalid(problem) => ClientError::Invalid(problem.clone()),
        other => ClientError::Transport(other.to_string()),
    }
}

impl From<ExportError> for DeskError {
    fn from(err: ExportError) -> Self {
        match err {
            ExportError::NotAPsbt => Self::new(
                ErrorKind::Gateway,
                "The gateway's PSBT does not start as a PSBT does (BIP 174); do not use this order.",
            ),
            ExportError::Qr(reason) => Self::new(ErrorKind::InvalidInput, reason),
        }
    }
}

impl From<PartnerError> for DeskError {
    fn from(err: PartnerError) -> Self {
        let details = match &err {
            PartnerError::TokenSwapAddress { .. } | PartnerError::TokenSwapBps { .. } => {
                Some(ErrorDetails::field("tokenSwapAffiliate"))
            }
            PartnerError::Csv(_) => None,
            list => list
                .list_index()
                .map(|index| ErrorDetails::entry("affiliates", index)),
        };
        let error = Self::new(ErrorKind::InvalidInput, err.to_string());
        match details {
            Some(details) => with_details(error, details),
            None => error,
        }
    }
}

impl From<BundleError> for DeskError {
    fn from(err: BundleError) -> Self {
        match err {
            BundleError::Unreadable { .. } => with_details(
                Self::new(ErrorKind::InvalidInput, err.to_string()),
                ErrorDetails::field("bundle"),
            ),
            BundleError::OrderRecord(_) | BundleError::Text(_) => {
                Self::new(ErrorKind::Journal, err.to_string())
            }
            BundleError::KeyLeak => Self::new(ErrorKind::InvalidInput, err.to_string()),
        }
    }
}

impl From<LookupError> for DeskError {
    fn from(err: LookupError) -> Self {
        match err {
            LookupError::EmptyQuery | LookupError::BadAddress { .. } => {
                invalid("query", err.to_string())
            }
            LookupError::NotFound { .. } => Self::new(ErrorKind::NotFound, err.to_string()),
            LookupError::Gateway(e) => Self::from(*e),
            LookupError::EndlessPages { .. } => Self::new(ErrorKind::Transport, err.to_string()),
        }
    }
}

impl From<ReproduceError> for DeskError {
    fn from(err: ReproduceError) -> Self {
        match err {
            ReproduceError::Bundle(e) => Self::from(e),
            other => invalid("text", other.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_failed_check_says_why_in_words() {
        use gateway_client::{ErrorCode, GatewayErrorBody};
        let url = "https://gw.example";
        let said = |err: ClientError| {
            let error = check_failure(url, ApiVersion::V2, &err);
            assert_eq!(
                error.details_json().as_ref(),
                Some(&serde_json::json!({"field": "customUrl"}))
            );
            assert!(!error.message.contains('<'), "{}", error.message);
            (error.kind, error.message)
        };
        let nothing = "Nothing answers at https://gw.example (";
        let running = "): check the address and that the gateway is running.";
        let (kind, message) = said(ClientError::Connect(
            "nothing answers at gw.example:443 (the connection was refused)".into(),
        ));
        assert_eq!(kind, ErrorKind::Transport);
        assert_eq!(
            message,
            format!("{nothing}the connection was refused{running}")
        );
        let (_, message) = said(ClientError::Connect(
            "the name gw.example was not found (DNS)".into(),
        ));
        assert_eq!(
            message,
            format!("{nothing}the name gw.example was not found (DNS){running}")
        );
        let (_, message) = said(ClientError::Timeout(Duration::from_secs(8)));
        assert_eq!(
            message,
            format!("{nothing}no answer within 8 seconds{running}")
        );
        let (_, message) = said(ClientError::Connect(format!(
            "{} with gw.example:443: invalid peer certificate: UnknownIssuer",
            gateway_client::client::TLS_FAILED
        )));
        assert!(
            message.starts_with(
                "No secure connection could be made to https://gw.example (invalid peer certificate: \
                 UnknownIssuer)."
            ),
            "{message}"
        );
        let (_, message) = said(ClientError::UnexpectedBody {
            status: 200,
            snippet: format!("{}, titled “Sign in”", gateway_client::client::WEB_PAGE),
        });
        assert!(
            message.starts_with(
                "https://gw.example returned a web page (titled “Sign in”), not the gateway. Check the address: it \
                 should be the gateway's API base URL"
            ),
            "{message}"
        );
        let (_, message) = said(ClientError::UnexpectedBody {
            status: 200,
            snippet: "invalid type: map, expected a sequence; body: {}".into(),
        });
        assert!(
            message.starts_with("https://gw.example answered, but not with the gateway's route list (v2/get-routes gave: invalid type"),
            "{message}"
        );
        assert!(message.contains("API version (v2)"), "{message}");
        let (_, message) = said(ClientError::NotFound);
        assert!(
            message.starts_with(
                "https://gw.example has no v2/get-routes: it answered HTTP 404 (Not Found)."
            ),
            "{message}"
        );
        let (_, message) = said(ClientError::Server {
            status: 503,
            snippet: "down".into(),
        });
        assert!(
            message.starts_with("https://gw.example failed with HTTP 503 (Service Unavailable)"),
            "{message}"
        );
        let (kind, message) = said(ClientError::Gateway {
            status: 401,
            body: GatewayErrorBody {
                code: ErrorCode::InvalidRequest,
                error: "unknown API key".into(),
                details: None,
            },
        });
        assert_eq!(kind, ErrorKind::Gateway);
        assert!(
            message.starts_with(
                "The gateway at https://gw.example refused to list its routes (HTTP 401 (Unauthorized), \
                 INVALID_REQUEST): unknown API key."
            ),
            "{message}"
        );
        let (kind, _) = said(ClientError::RateLimited { retry_after: None });
        assert_eq!(kind, ErrorKind::RateLimited);
        let (kind, message) = said(ClientError::Invalid(
            gateway_client::ParamError::InsecureKey("gw.example".into()),
        ));
        assert_eq!(kind, ErrorKind::InvalidInput);
        assert!(
            message.starts_with("https://gw.example cannot be used: Nothing was sent"),
            "{message}"
        );
    }
}
