//! The application facade the window calls: settings and networks, the API key, routes, the swap flow, the orders
//! and their updates.

pub use crate::api::route_of;
pub use crate::error::invalid;
pub use crate::events::DeskEvent;
pub use crate::views::token_view;

mod errors;
mod execute;
mod orders;
mod partner;
mod sandbox_clock;
mod settings;
mod support;
mod swap;
mod wallet;

pub use execute::default_endpoints;
pub use sandbox_clock::{MAX_ADVANCE_SECS, SandboxClockView};
pub use wallet::{NewPhrase, WalletBalance, WalletState, WalletView};

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use gateway_client::address::{BitcoinNetwork, validate_address, validate_evm};
use gateway_client::amount::parse_units;
use gateway_client::wire::OrderInfo;
use gateway_client::{ApiVersion, QuoteRequest, RouteInfo, TokenRegistry};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::{Mutex, broadcast};
use tokio::task::JoinHandle;
use tracing::warn;
use ts_rs::TS;

use crate::api::{NetworkChoice, RouteView, SettingsView};
use crate::error::{DeskError, ErrorKind};
use crate::flow::{Flow, FlowError, Question, QuoteOutcome};
use crate::journal::{Journal, JournalEvent, JournalOrder, Stage};
use crate::network::{ActiveNetwork, parse_custom_url};
use crate::paths::AppPaths;
use crate::secrets;
use crate::settings::{NetworkKind, Settings, Theme};
use crate::tracker::{Expected, Timing, TrackedOrder, Tracker, TrackerEvent, TrackerHandle};
use crate::verify::VerifyPolicy;
use crate::views::{OrderView, QuoteCard};
use crate::wallet::keeper::{DEFAULT_IDLE, Keeper};
use crate::wallet::vault::KdfProfile;

/// The Sandbox gateway's orders, in the data directory.
pub const SANDBOX_STATE_FILE: &str = "sandbox-gateway.json";
/// The order journal, in the data directory.
pub const JOURNAL_FILE: &str = "journal.sqlite3";

/// How a [`Desk`] runs.
#[derive(Debug, Clone, Default)]
pub struct DeskOptions {
    /// The local gateway the Sandbox network starts (the app's and the tests' is gateway-sim with local nodes, from
    /// the `desk-sandbox` crate); `None`: this build has no Sandbox, and choosing it says so.
    pub sandbox: Option<Arc<dyn crate::sandbox::LocalGateway>>,
    /// The tracker's pace.
    pub timing: Timing,
    /// Serve the Sandbox gateway's admin interface (its clock, liquidity and faults) to loopback callers, so tests
    /// can move Sandbox orders along. Off unless asked for (`GATEWAY_DESK_SANDBOX_ADMIN=1` in the app).
    pub sandbox_admin: bool,
    /// How long an unlocked wallet stays unlocked without use; [`crate::wallet::keeper::DEFAULT_IDLE`] when `None`.
    pub wallet_idle: Option<Duration>,
    /// How the wallet's password is stretched; [`KdfProfile::STANDARD`] when `None` (tests use the test-only
    /// profile, which release builds refuse).
    pub kdf: Option<KdfProfile>,
}

/// What the swap form sends: the route, the amount as a person typed it, and the addresses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "SwapForm.ts")]
pub struct SwapForm {
    /// The gateway's slug of the chain the funds are sent from (`bitcoin`, `bob`, `base`, …).
    pub src_chain: String,
    /// The address of the token sent, on its chain (the all-zero EVM address for BTC and native coins); the app's
    /// list of known tokens gives its decimals, which convert the amount.
    pub src_token: String,
    /// The gateway's slug of the chain the funds arrive on.
    pub dst_chain: String,
    /// The address of the token received, on the destination chain, written as the source token's.
    pub dst_token: String,
    /// In the source token's units (`0.0025`), converted exactly with its decimals.
    pub amount: String,
    /// The tolerated slippage in basis points (300 is 3%).
    pub slippage_bps: u32,
    /// The address on the destination chain that receives the funds; checked against that chain before the quote
    /// is asked for.
    pub recipient: String,
    /// The address on the source chain that sends the funds, when given (blank counts as not given); some routes
    /// need it, such as a swap from Solana, where it pays the fee and signs.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub sender: Option<String>,
    /// The EVM owner and refund claimant (V3).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub owner: Option<String>,
    /// A Bitcoin refund address for an onramp (V3).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub refund: Option<String>,
}

/// The answer to a quote request: the card, or a question to ask first.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
#[ts(export_to = "QuoteResult.ts")]
pub enum QuoteResult {
    /// The gateway quoted, and the quote matches the request.
    Quote {
        /// What the quote offers, with the app's check of it and the affiliate entries sent.
        card: Box<QuoteCard>,
    },
    /// The gateway refused in a way the person can fix (too small an amount, say): ask this, then quote again.
    Ask {
        /// What to ask, which field of the form the answer goes into, and a value the gateway suggested.
        question: Question,
    },
}

pub(crate) struct Watch {
    pub(crate) tracker: TrackerHandle,
    glue: JoinHandle<()>,
}

pub(crate) struct State {
    pub(crate) settings: Settings,
    pub(crate) network: ActiveNetwork,
    pub(crate) notices: Vec<String>,
    pub(crate) watch: Option<Watch>,
}

/// Gateway Desk without a window.
pub struct Desk {
    /// The app's folders (settings, data, logs).
    paths: AppPaths,
    /// The settings, the network in use and its tracker, behind one lock.
    state: Mutex<State>,
    /// The order journal; `None` when its file could not be opened (swapping is off then).
    journal: Option<Arc<Journal>>,
    /// Whether the operating system's keychain answered at start.
    keychain: bool,
    /// Where changes are announced ([`Desk::subscribe`]).
    events: broadcast::Sender<DeskEvent>,
    /// Orders of watched addresses as last read, per network, by order id.
    seen: Arc<std::sync::Mutex<HashMap<String, BTreeMap<String, OrderView>>>>,
    /// The tracker's pace.
    timing: Timing,
    /// How the Sandbox network is started (the port, and its admin interface for tests).
    sandbox: crate::sandbox::SandboxAccess,
    /// The partner dashboard's reading of the journal, kept between calls.
    partner_cache: Arc<std::sync::Mutex<crate::partner::FactsCache>>,
    /// The wallet while the app runs (locked, or unlocked in zeroizing memory).
    wallet: Arc<Keeper>,
    /// How the wallet's password is stretched.
    kdf: KdfProfile,
}

/// The journal's name for a network: `production`, `staging`, `sandbox`, or `custom:<url>`.
pub fn network_key(kind: NetworkKind, custom_url: Option<&str>) -> String {
    secrets::account(kind, custom_url)
}

fn unix_to_system(secs: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(u64::try_from(secs).unwrap_or(0))
}

impl Desk {
    /// Opens the app's state under `paths` and connects to the chosen network (starting the Sandbox if chosen).
    ///
    /// A chosen network that cannot be connected (a custom URL gone bad, say) falls back to the Sandbox with a notice.
    /// A journal that cannot be opened is reported and the app keeps working without swaps.
    pub async fn open(paths: AppPaths) -> Result<Self, DeskError> {
        Self::open_with(paths, DeskOptions::default()).await
    }

    /// [`Self::open`] with options (tests, and the Sandbox's admin interface for WebDriver tests).
    pub async fn open_with(paths: AppPaths, options: DeskOptions) -> Result<Self, DeskError> {
        let DeskOptions {
            sandbox,
            timing,
            sandbox_admin,
            wallet_idle,
            kdf,
        } = options;
        let sandbox = crate::sandbox::SandboxAccess {
            gateway: sandbox,
            admin: sandbox_admin,
        };
        let loaded = crate::settings::load(&paths.settings_file());
        let mut notices: Vec<String> = loaded.notice.into_iter().collect();
        // The keychain's client blocks on its own runtime, so it runs on a blocking thread.
        let installed = tokio::task::spawn_blocking(secrets::install_platform_store)
            .await
            .unwrap_or_else(|e| Err(secrets::SecretsError::Keychain(e.to_string())));
        let keychain = installed.is_ok();
        if let Err(e) = installed {
            notices.push(DeskError::from(e).message);
        }
        let journal_path = paths.data_dir.join(JOURNAL_FILE);
        let journal = match Journal::open(&journal_path) {
            Ok(journal) => Some(Arc::new(journal)),
            Err(e) => {
                warn!(error = %e, "journal unavailable");
                notices.push(format!(
                    "The order journal ({}) cannot be used: {e}. Swapping is off until this is fixed; nothing in the file was changed.",
                    journal_path.display()
                ));
                None
            }
        };
        let mut settings = loaded.settings;
        let chosen = match connect(&paths, &settings, settings.network, &sandbox).await {
            Ok(network) => network.checked().await,
            Err(e) => Err(e),
        };
        let network = match chosen {
            Ok(network) => network,
            Err(e) => {
                // The Sandbox when this build has one; otherwise production, which connects to nothing until asked.
                let fallback = if sandbox.gateway.is_some() {
                    NetworkKind::Sandbox
                } else {
                    NetworkKind::Production
                };
                warn!(error = %e, fallback = fallback.slug(), "chosen network unavailable");
                notices.push(format!(
                    "{} The app switched to {}.",
                    e.message,
                    if fallback == NetworkKind::Sandbox {
                        "the Sandbox"
                    } else {
                        "Production"
                    }
                ));
                settings.network = fallback;
                connect(&paths, &settings, fallback, &sandbox).await?
            }
        };
        let (events, _) = broadcast::channel(1024);
        let desk = Self {
            paths,
            state: Mutex::new(State {
                settings,
                network,
                notices,
                watch: None,
            }),
            journal,
            keychain,
            events,
            seen: Arc::default(),
            timing,
            sandbox,
            partner_cache: Arc::default(),
            wallet: Arc::new(Keeper::new(wallet_idle.unwrap_or(DEFAULT_IDLE))),
            kdf: kdf.unwrap_or(KdfProfile::STANDARD),
        };
        wallet::spawn_idle_clock(Arc::downgrade(&desk.wallet), desk.events.clone());
        {
            let mut state = desk.state.lock().await;
            desk.start_watching(&mut state).await;
        }
        Ok(desk)
    }

    /// The folders in use.
    pub fn paths(&self) -> &AppPaths {
        &self.paths
    }

    /// Updates as they happen (orders changed, reads failed).
    pub fn subscribe(&self) -> broadcast::Receiver<DeskEvent> {
        self.events.subscribe()
    }

    pub(crate) fn journal(&self) -> Result<&Journal, DeskError> {
        self.journal.as_deref().ok_or_else(|| {
            DeskError::new(
                ErrorKind::Journal,
                "The order journal cannot be used, so no order can be started or followed. See the notice in \
                 Settings; restart the app when it is fixed.",
            )
        })
    }

    pub(crate) async fn client_and_key(&self) -> (gateway_client::Client, String) {
        let (client, key, _) = self.client_key_and_policy().await;
        (client, key)
    }

    /// The current network's client, its journal key, and how its answers are checked.
    pub(crate) async fn client_key_and_policy(&self) -> (gateway_client::Client, String, Checks) {
        let state = self.state.lock().await;
        (
            state.network.client.clone(),
            Self::network_key_of(&state),
            Self::checks_of(&state),
        )
    }

    /// How the current network's answers are checked: its settings' policy on the Bitcoin network it is connected
    /// with, and its fee source.
    fn checks_of(state: &State) -> Checks {
        let kind = state.network.kind;
        let mut policy = state.settings.verify_policy(kind);
        policy.bitcoin = state.network.bitcoin;
        Checks {
            policy,
            fee_source: state.settings.fee_source(kind),
        }
    }

    /// Stops background work (the tracker, the Sandbox gateway) before the app exits.
    pub async fn shutdown(&self) {
        self.wallet.lock();
        let mut state = self.state.lock().await;
        if let Some(watch) = state.watch.take() {
            watch.tracker.shutdown().await;
            watch.glue.abort();
        }
        state.network.close().await;
    }
}

/// The PSBT file name of the order `local_id` made on the journal's network `network` (see [`Desk::psbt_file_name`]).
pub fn psbt_file_name(network: &str, local_id: i64) -> String {
    let mark = if network == NetworkKind::Sandbox.slug() {
        crate::network::SANDBOX_FILE_PREFIX
    } else {
        ""
    };
    format!("{mark}order-{local_id}.psbt")
}

/// How the current network's answers are checked: the policy, and where the Bitcoin fee rate is read.
pub(crate) struct Checks {
    policy: VerifyPolicy,
    fee_source: Option<String>,
}

/// The swap flow on the network `key`, talking through `client`.
fn flow_on<'a>(
    client: &'a gateway_client::Client,
    journal: &'a Journal,
    key: &'a str,
    checks: &'a Checks,
) -> Flow<'a> {
    Flow {
        client,
        journal,
        network: key,
        policy: checks.policy,
        fee_source: checks.fee_source.as_deref(),
    }
}

/// The tracker's view of a journaled order, when the gateway knows it (it has an order id) and it is not finished.
/// A registered order whose quote gave an estimate is expected to end that long after its registration (`events`:
/// its log, which says when).
fn tracked(order: &JournalOrder, events: &[JournalEvent]) -> Option<TrackedOrder> {
    let order_id = order.order_id.clone()?;
    if matches!(
        order.stage,
        Stage::Finished | Stage::Abandoned | Stage::Refused
    ) {
        return None;
    }
    let registered = order.stage == Stage::Registered;
    let expected = if registered {
        gateway_client::wire::Quote::from_json(order.quote.clone())
            .ok()
            .and_then(|q| q.view().estimated_time_in_secs())
            .map(|secs| Expected {
                since: unix_to_system(
                    crate::journal::registered_at(events).unwrap_or(order.updated_at),
                ),
                estimate: Duration::from_secs(secs),
            })
    } else {
        None
    };
    Some(TrackedOrder {
        order_id,
        addresses: order.addresses.clone(),
        registered_at: registered.then(|| unix_to_system(order.updated_at)),
        last_seen: order.status.clone(),
        expected,
    })
}

/// Records an order read by the tracker: in the journal when it is one of the app's own. Gives its view.
fn apply_change(
    journal: Option<&Journal>,
    network: &str,
    order_id: &str,
    order: &OrderInfo,
    raw: &Value,
) -> OrderView {
    if let Some(journal) = journal
        && let Ok(Some(own)) = journal.find(network, order_id)
    {
        match journal.status_seen(
            own.local_id,
            raw,
            order.status.key(),
            order.status.is_terminal(),
        ) {
            Ok(_) => {
                if let (Ok(fresh), Ok(events)) =
                    (journal.order(own.local_id), journal.events(own.local_id))
                {
                    return OrderView::from_journal(&fresh, &events);
                }
            }
            Err(e) => warn!(error = %e, order_id, "could not journal a status"),
        }
    }
    OrderView::from_gateway(network, order, raw, route_of(order))
}

/// The quote request the swap form asks for under API `version`: the amount converted exactly with the source token's
/// decimals, every address checked for its chain.
///
/// V4 takes no owner, and its refund address is on the source chain: the one given, else the sender's own address
/// (as the gateway's own SDK sends it). create-order refuses a V4 quote without one, so none at all is asked for
/// here, before any quote.
pub fn request_from(
    form: &SwapForm,
    bitcoin: BitcoinNetwork,
    version: ApiVersion,
) -> Result<QuoteRequest, DeskError> {
    let registry = TokenRegistry::builtin();
    let decimals = registry
        .get(&form.src_chain, &form.src_token)
        .map(|t| t.decimals)
        .ok_or_else(|| {
            invalid(
                "srcToken",
                format!(
                    "The app does not know the decimals of {} on {}, so it cannot convert the amount exactly. \
                     Choose a listed token.",
                    form.src_token, form.src_chain
                ),
            )
        })?;
    let amount = parse_units(form.amount.trim(), decimals)
        .map_err(|e| invalid("amount", format!("{e}.")))?;
    if amount.is_zero() {
        return Err(invalid("amount", "Enter an amount above zero."));
    }
    let check = |field: &str, chain: &str, address: &str| {
        validate_address(chain, address.trim(), bitcoin)
            .map(|v| v.canonical)
            .map_err(|e| {
                invalid(
                    field,
                    format!("The {field} is not a valid {chain} address: {e}."),
                )
            })
    };
    let recipient = check("recipient", &form.dst_chain, &form.recipient)?;
    let mut request = QuoteRequest::new(
        (&form.src_chain, &form.src_token),
        (&form.dst_chain, &form.dst_token),
        &amount.to_string(),
        &recipient,
    );
    request.slippage_bps = form.slippage_bps;
    let given = |value: &Option<String>| {
        value
            .as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    };
    if let Some(sender) = given(&form.sender) {
        request.sender = Some(check("sender", &form.src_chain, &sender)?);
    }
    if version == ApiVersion::V4 {
        if given(&form.owner).is_some() {
            return Err(invalid(
                "owner",
                "API V4 has no owner address: a refund goes to the refund address on the chain you send from. \
                 Clear the owner field.",
            ));
        }
        request.refund_address = given(&form.refund);
        request.refund_defaults_to_sender(version);
        let refund = request.refund_address.take().ok_or_else(|| {
                invalid(
                    "refund",
                    format!(
                        "API V4 needs a refund address on {}: where your funds go back if the swap cannot \
                         complete. Enter your own address there (or a sending address, which is used).",
                        gateway_client::chains::chain_name(&form.src_chain)
                    ),
                )
            })?;
        request.refund_address = Some(check("refund", &form.src_chain, &refund)?);
        return Ok(request);
    }
    if let Some(owner) = given(&form.owner) {
        request.owner_address = Some(validate_evm(&owner).map(|v| v.canonical).map_err(|e| {
            invalid(
                "owner",
                format!("The owner must be an EVM address (0x…): {e}."),
            )
        })?);
    }
    if let Some(refund) = given(&form.refund) {
        request.refund_address = Some(check("refund", "bitcoin", &refund)?);
    }
    Ok(request)
}

pub(crate) async fn connect(
    paths: &AppPaths,
    settings: &Settings,
    kind: NetworkKind,
    sandbox: &crate::sandbox::SandboxAccess,
) -> Result<ActiveNetwork, DeskError> {
    let custom_url = settings.custom_url.as_deref();
    let key = secrets::stored_key_or_keyless(secrets::account(kind, custom_url)).await;
    let sandbox_state = paths.data_dir.join(SANDBOX_STATE_FILE);
    ActiveNetwork::connect(
        kind,
        custom_url,
        settings.api_version(kind),
        key,
        Some(&sandbox_state),
        sandbox,
        settings.bitcoin_network(kind),
        settings.production_shape(),
    )
    .await
}

fn route_view(registry: &TokenRegistry, route: &RouteInfo) -> RouteView {
    let kind = route.kind();
    let src = token_view(registry, &route.src_chain, &route.src_token);
    let dst = token_view(registry, &route.dst_chain, &route.dst_token);
    let default_slippage_bps =
        kind.default_slippage_bps(src.symbol.as_deref(), dst.symbol.as_deref());
    RouteView {
        kind,
        src,
        dst,
        default_slippage_bps,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_sandbox_psbt_file_says_it_is_simulated() {
        assert_eq!(psbt_file_name("production", 7), "order-7.psbt");
        assert_eq!(
            psbt_file_name("custom:https://gw.example", 7),
            "order-7.psbt"
        );
        assert_eq!(
            psbt_file_name("sandbox", 7),
            "sandbox-SIMULATED-order-7.psbt"
        );
    }

    #[test]
    fn unknown_tokens_show_only_their_address() {
        let registry = TokenRegistry::builtin();
        let known = token_view(registry, "bitcoin", "BTC");
        assert_eq!(known.symbol.as_deref(), Some("BTC"));
        let unknown = token_view(
            registry,
            "bob",
            "0x1111111111111111111111111111111111111111",
        );
        assert_eq!((unknown.symbol, unknown.decimals), (None, None));
        assert_eq!(
            unknown.address,
            "0x1111111111111111111111111111111111111111"
        );
    }

    fn form() -> SwapForm {
        SwapForm {
            src_chain: "bitcoin".into(),
            src_token: "BTC".into(),
            dst_chain: "bob".into(),
            dst_token: "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c".into(),
            amount: "0.0025".into(),
            slippage_bps: 300,
            recipient: "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed".into(),
            sender: None,
            owner: None,
            refund: None,
        }
    }

    #[test]
    fn the_form_becomes_an_exact_request_or_a_pointed_error() {
        let request = request_from(&form(), BitcoinNetwork::Mainnet, ApiVersion::V3).unwrap();
        assert_eq!(request.amount, "250000");
        assert_eq!(
            request.recipient, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "checksummed"
        );

        let mut bad = form();
        bad.amount = "0.000000001".into();
        let err = request_from(&bad, BitcoinNetwork::Mainnet, ApiVersion::V3).unwrap_err();
        assert_eq!(
            err.details_json().as_ref(),
            Some(&json!({"field": "amount"}))
        );

        let mut bad = form();
        bad.recipient = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh".into();
        let err = request_from(&bad, BitcoinNetwork::Mainnet, ApiVersion::V3).unwrap_err();
        assert_eq!(
            err.details_json().as_ref(),
            Some(&json!({"field": "recipient"}))
        );
        assert!(err.message.contains("bob"), "{}", err.message);

        let mut bad = form();
        bad.owner = Some("TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7".into());
        assert_eq!(
            request_from(&bad, BitcoinNetwork::Mainnet, ApiVersion::V3)
                .unwrap_err()
                .details_json()
                .as_ref(),
            Some(&json!({"field": "owner"}))
        );
    }

    #[test]
    fn a_v4_request_refunds_on_the_source_chain_to_the_sender_unless_told_otherwise() {
        let v4 = |form: &SwapForm| request_from(form, BitcoinNetwork::Mainnet, ApiVersion::V4);
        // No sender and no refund address: asked for before any quote, on the refund field.
        let err = v4(&form()).unwrap_err();
        assert_eq!(err.details_json(), Some(json!({"field": "refund"})));
        assert!(
            err.message.contains("refund address on Bitcoin"),
            "{}",
            err.message
        );
        // The sender's own address is the default.
        let mut with_sender = form();
        with_sender.sender = Some("bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh".into());
        let request = v4(&with_sender).unwrap();
        assert_eq!(request.refund_address, request.sender);
        assert_eq!(request.owner_address, None);
        // One given is used, and must be on the source chain.
        let mut other = with_sender.clone();
        other.refund = Some("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq".into());
        assert_eq!(
            v4(&other).unwrap().refund_address.as_deref(),
            Some("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq")
        );
        other.refund = Some("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed".into());
        assert_eq!(
            v4(&other).unwrap_err().details_json(),
            Some(json!({"field": "refund"}))
        );
        // An owner is not V4's: said, not dropped.
        let mut owner = with_sender;
        owner.owner = Some("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed".into());
        let err = v4(&owner).unwrap_err();
        assert_eq!(err.details_json(), Some(json!({"field": "owner"})));
    }
}
