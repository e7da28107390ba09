//! The application facade the window calls: settings and networks, the API key, routes, the swap flow, the orders
//! and their updates.

mod execute;
mod wallet;

pub use execute::{EvmBalance, default_endpoints};
pub use wallet::{NewPhrase, WalletBalance, WalletState, WalletView};

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use gateway_client::address::{BitcoinNetwork, validate_address, validate_evm};
use gateway_client::amount::parse_units;
use gateway_client::wire::{OrderInfo, Quote};
use gateway_client::{ApiKey, ApiVersion, QuoteRequest, RouteInfo, TokenRegistry};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::{Mutex, broadcast};
use tokio::task::JoinHandle;
use tracing::{info, warn};
use ts_rs::TS;

use crate::api::{
    DeskError, ErrorKind, NetworkChoice, RouteKind, RouteView, SettingsView, TokenView,
};
use crate::flow::{Flow, FlowError, Question, QuoteOutcome};
use crate::journal::{Journal, JournalOrder, Stage};
use crate::network::{ActiveNetwork, parse_custom_url};
use crate::paths::AppPaths;
use crate::secrets;
use crate::settings::{self, NetworkKind, Settings, Theme};
use crate::tracker::{Timing, TrackedOrder, Tracker, TrackerEvent, TrackerHandle};
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
    pub src_chain: String,
    pub src_token: String,
    pub dst_chain: String,
    pub dst_token: String,
    /// In the source token's units (`0.0025`), converted exactly with its decimals.
    pub amount: String,
    pub slippage_bps: u32,
    pub recipient: String,
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
    Quote { card: Box<QuoteCard> },
    Ask { question: Question },
}

/// What the app tells the window without being asked.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
#[ts(export_to = "DeskEvent.ts")]
pub enum DeskEvent {
    /// An order changed (one of the app's own, or one of a watched address).
    OrderChanged { order: Box<OrderView> },
    /// Reading the gateway failed; nothing about any order changed. Tried again in `retry_in_secs`.
    #[serde(rename_all = "camelCase")]
    ReadFailed {
        message: String,
        #[ts(type = "number")]
        retry_in_secs: u64,
    },
    /// The wallet locked (after its idle time, or when asked); its addresses are no longer shown.
    WalletLocked,
    /// A transaction the wallet signed moved on: signed, sent, mined (with confirmations) or reverted.
    WalletTx {
        progress: crate::execute::evm::WalletTxProgress,
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
    pub(crate) paths: AppPaths,
    pub(crate) state: Mutex<State>,
    pub(crate) journal: Option<Arc<Journal>>,
    pub(crate) keychain: bool,
    pub(crate) events: broadcast::Sender<DeskEvent>,
    /// Orders of watched addresses as last read, per network, by order id.
    pub(crate) seen: Arc<std::sync::Mutex<HashMap<String, BTreeMap<String, OrderView>>>>,
    pub(crate) timing: Timing,
    /// How the Sandbox network is started (the port, and its admin interface for tests).
    pub(crate) sandbox: crate::sandbox::SandboxAccess,
    /// The partner dashboard's reading of the journal, kept between calls.
    pub(crate) partner_cache: Arc<std::sync::Mutex<crate::partner::FactsCache>>,
    /// The wallet while the app runs (locked, or unlocked in zeroizing memory).
    pub(crate) wallet: Arc<Keeper>,
    /// How the wallet's password is stretched.
    pub(crate) kdf: KdfProfile,
}

/// The journal's name for a network: `production`, `staging`, `sandbox`, or `custom:<url>`.
pub fn network_key(kind: NetworkKind, custom_url: Option<&str>) -> String {
    secrets::account(kind, custom_url)
}

/// The kind of an order known only from the gateway, from its chains.
pub(crate) fn route_of(info: &OrderInfo) -> RouteKind {
    gateway_client::wire::RouteKind::between(&info.src_info.chain, &info.dst_info.chain).into()
}

pub(crate) fn invalid(field: &str, message: impl Into<String>) -> DeskError {
    let mut error = DeskError::new(ErrorKind::InvalidInput, message);
    error.details = Some(Box::new(json!({ "field": field })));
    error
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
        let loaded = settings::load(&paths.settings_file());
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

    /// The settings as the window shows them.
    pub async fn settings(&self) -> SettingsView {
        let state = self.state.lock().await;
        self.view(&state)
    }

    pub(crate) fn view(&self, state: &State) -> SettingsView {
        let kind = state.network.kind;
        SettingsView {
            network: state.network.view(),
            custom_url: state.settings.custom_url.clone(),
            settings_path: self.paths.settings_file().display().to_string(),
            notices: state.notices.clone(),
            api_key: state
                .network
                .client
                .config()
                .api_key
                .as_ref()
                .map(ApiKey::masked),
            keychain_available: self.keychain,
            watched: state.settings.watched(kind).to_vec(),
            journal_path: self
                .journal
                .as_ref()
                .map(|_| self.paths.data_dir.join(JOURNAL_FILE).display().to_string()),
            theme: state.settings.theme,
            affiliates: state.settings.affiliates(kind).to_vec(),
            token_swap_affiliate: state.settings.token_swap_affiliate(kind).cloned(),
            blind_signing: state
                .settings
                .networks
                .get(&kind)
                .is_some_and(|prefs| prefs.blind_signing),
            evm_endpoints: execute::endpoints_view(state),
        }
    }

    pub(crate) fn network_key_of(state: &State) -> String {
        network_key(state.network.kind, state.settings.custom_url.as_deref())
    }

    /// Starts the tracker of the current network: its watched addresses and the journal's unfinished orders.
    async fn start_watching(&self, state: &mut State) {
        if let Some(old) = state.watch.take() {
            old.tracker.shutdown().await;
            old.glue.abort();
        }
        let (tracker, mut receiver) = Tracker::spawn(state.network.client.clone(), self.timing);
        let key = Self::network_key_of(state);
        for address in state.settings.watched(state.network.kind) {
            let _ = tracker.watch_address(address.clone()).await;
        }
        if let Some(journal) = &self.journal {
            for (order, _) in journal.unfinished(Some(&key)).unwrap_or_default() {
                if let Some(tracked) = tracked(&order) {
                    let _ = tracker.track(tracked).await;
                }
            }
        }
        let journal = self.journal.clone();
        let events = self.events.clone();
        let seen = self.seen.clone();
        let handle = tracker.clone();
        let glue = tokio::spawn(async move {
            loop {
                let event = match receiver.recv().await {
                    Ok(event) => event,
                    Err(broadcast::error::RecvError::Lagged(missed)) => {
                        warn!(missed, "order updates were missed; asking again");
                        let _ = handle.refresh_now().await;
                        continue;
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                match event {
                    TrackerEvent::OrderChanged {
                        order_id,
                        order,
                        raw,
                        ..
                    } => {
                        let view = apply_change(journal.as_deref(), &key, &order_id, &order, &raw);
                        if view.local_id.is_none() {
                            seen.lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .entry(key.clone())
                                .or_default()
                                .insert(order_id, view.clone());
                        }
                        let _ = events.send(DeskEvent::OrderChanged {
                            order: Box::new(view),
                        });
                    }
                    TrackerEvent::ReadFailed {
                        error, retry_in, ..
                    } => {
                        let _ = events.send(DeskEvent::ReadFailed {
                            message: error,
                            retry_in_secs: retry_in.as_secs(),
                        });
                    }
                    TrackerEvent::AddressListed { .. } => {}
                    TrackerEvent::Restarted { error } => {
                        let _ = events.send(DeskEvent::ReadFailed {
                            message: error,
                            retry_in_secs: 0,
                        });
                    }
                }
            }
        });
        state.watch = Some(Watch { tracker, glue });
    }

    /// Switches to another network and remembers the choice. On failure the current network stays in use.
    pub async fn select_network(&self, choice: NetworkChoice) -> Result<SettingsView, DeskError> {
        let mut state = self.state.lock().await;
        let mut next = state.settings.clone();
        next.network = choice.kind;
        if let Some(url) = choice
            .custom_url
            .as_deref()
            .filter(|u| !u.trim().is_empty())
        {
            next.custom_url = Some(
                parse_custom_url(url)?
                    .as_str()
                    .trim_end_matches('/')
                    .to_owned(),
            );
        }
        let network = connect(&self.paths, &next, choice.kind, &self.sandbox)
            .await?
            .checked()
            .await
            .map_err(crate::network::not_saved)?;
        self.replace_network(&mut state, network).await;
        state.settings = next;
        settings::save(&self.paths.settings_file(), &state.settings)?;
        Ok(self.view(&state))
    }

    async fn replace_network(&self, state: &mut State, network: ActiveNetwork) {
        if let Some(old) = state.watch.take() {
            old.tracker.shutdown().await;
            old.glue.abort();
        }
        let mut previous = std::mem::replace(&mut state.network, network);
        previous.close().await;
        self.start_watching(state).await;
    }

    /// Chooses the window's colours.
    pub async fn set_theme(&self, theme: Theme) -> Result<SettingsView, DeskError> {
        let mut state = self.state.lock().await;
        state.settings.theme = theme;
        settings::save(&self.paths.settings_file(), &state.settings)?;
        Ok(self.view(&state))
    }

    /// The PSBT of an onramp order, as the bytes of a `.psbt` file (BIP 174), to save and sign elsewhere.
    pub fn psbt(&self, local_id: i64) -> Result<Vec<u8>, DeskError> {
        let order = self.journal()?.order(local_id)?;
        let hex = order
            .created
            .as_ref()
            .and_then(|c| c.get("onramp"))
            .and_then(|o| o.get("psbt_hex"))
            .and_then(Value::as_str)
            .ok_or_else(|| {
                DeskError::new(
                    ErrorKind::InvalidInput,
                    "This order has no PSBT: the gateway prepares one only when the quote names a sender. Pay the \
                     deposit address from your wallet instead.",
                )
            })?;
        alloy_primitives::hex::decode(hex).map_err(|e| {
            DeskError::new(
                ErrorKind::Gateway,
                format!("The gateway's PSBT is not hexadecimal ({e}); do not use this order."),
            )
        })
    }

    /// The PSBT of an onramp order as base64, hex and the frames of an animated BC-UR QR code, for a wallet of the
    /// person's own.
    pub fn psbt_export(&self, local_id: i64) -> Result<crate::psbt_export::PsbtExport, DeskError> {
        crate::psbt_export::export(&self.psbt(local_id)?)
    }

    /// The name a save dialog proposes for an order's PSBT: `order-<local id>.psbt`, and on the Sandbox
    /// `sandbox-SIMULATED-order-<local id>.psbt`, so that a file in a wallet's folder still says it is not real money.
    pub fn psbt_file_name(&self, local_id: i64) -> Result<String, DeskError> {
        let order = self.journal()?.order(local_id)?;
        Ok(psbt_file_name(&order.network, local_id))
    }

    /// Chooses the API version of the current network.
    pub async fn set_api_version(&self, version: ApiVersion) -> Result<SettingsView, DeskError> {
        let mut state = self.state.lock().await;
        let mut next = state.settings.clone();
        let kind = state.network.kind;
        next.prefs_mut(kind).api_version = version;
        let network = connect(&self.paths, &next, kind, &self.sandbox)
            .await?
            .checked()
            .await
            .map_err(crate::network::not_saved)?;
        self.replace_network(&mut state, network).await;
        state.settings = next;
        settings::save(&self.paths.settings_file(), &state.settings)?;
        Ok(self.view(&state))
    }

    /// Sets the Bitcoin network of the current network, where the person may choose it (Staging and a custom URL);
    /// the Sandbox (regtest) and Production (mainnet) refuse with a sentence saying why.
    pub async fn set_bitcoin_network(&self, network: &str) -> Result<SettingsView, DeskError> {
        let bitcoin: BitcoinNetwork = serde_json::from_value(serde_json::Value::String(
            network.trim().to_ascii_lowercase(),
        ))
        .map_err(|_| {
            invalid(
                "bitcoinNetwork",
                format!("{network:?} is not a Bitcoin network: choose mainnet, testnet, signet or regtest."),
            )
        })?;
        let mut state = self.state.lock().await;
        let kind = state.network.kind;
        if !Settings::bitcoin_network_is_settable(kind) {
            return Err(invalid(
                "bitcoinNetwork",
                format!(
                    "{} always uses Bitcoin {}; only Staging and a custom URL let you choose.",
                    kind.label(),
                    state.settings.bitcoin_network(kind)
                ),
            ));
        }
        let mut next = state.settings.clone();
        next.prefs_mut(kind).bitcoin_network = Some(bitcoin);
        let network = connect(&self.paths, &next, kind, &self.sandbox).await?;
        self.replace_network(&mut state, network).await;
        state.settings = next;
        settings::save(&self.paths.settings_file(), &state.settings)?;
        Ok(self.view(&state))
    }

    /// Turns blind signing on or off for the current network: when on, a call the app cannot decode is shown as not
    /// checked, with its raw data, instead of being refused. Token calls, wrong contracts and every other check still
    /// refuse.
    pub async fn set_blind_signing(&self, on: bool) -> Result<SettingsView, DeskError> {
        let mut state = self.state.lock().await;
        let kind = state.network.kind;
        let mut next = state.settings.clone();
        next.prefs_mut(kind).blind_signing = on;
        settings::save(&self.paths.settings_file(), &next)?;
        state.settings = next;
        tracing::info!(network = kind.slug(), on, "blind signing set");
        Ok(self.view(&state))
    }

    /// Stores (or replaces) the current network's API key in the keychain and uses it from now on. The key is
    /// checked first (exactly 32 characters); it is never written anywhere else.
    pub async fn set_api_key(&self, key: &str) -> Result<SettingsView, DeskError> {
        let key = ApiKey::new(key.trim())
            .map_err(|e| invalid("apiKey", format!("{e}. Nothing was stored.")))?;
        let mut state = self.state.lock().await;
        let account = secrets::account(state.network.kind, state.settings.custom_url.as_deref());
        let stored = key.clone();
        tokio::task::spawn_blocking(move || secrets::store_key(&account, &stored))
            .await
            .unwrap_or_else(|e| Err(secrets::SecretsError::Keychain(e.to_string())))?;
        let kind = state.network.kind;
        let network = connect(&self.paths, &state.settings, kind, &self.sandbox).await?;
        self.replace_network(&mut state, network).await;
        info!(network = kind.slug(), "API key set");
        Ok(self.view(&state))
    }

    /// Removes the current network's API key from the keychain; the app goes on without one.
    pub async fn remove_api_key(&self) -> Result<SettingsView, DeskError> {
        let mut state = self.state.lock().await;
        let account = secrets::account(state.network.kind, state.settings.custom_url.as_deref());
        tokio::task::spawn_blocking(move || secrets::remove_key(&account))
            .await
            .unwrap_or_else(|e| Err(secrets::SecretsError::Keychain(e.to_string())))?;
        let kind = state.network.kind;
        let network = connect(&self.paths, &state.settings, kind, &self.sandbox).await?;
        self.replace_network(&mut state, network).await;
        Ok(self.view(&state))
    }

    /// Follows the orders of `address` on the current network (checked as an address of any supported chain).
    pub async fn watch_address(&self, address: &str) -> Result<SettingsView, DeskError> {
        let address = address.trim();
        let bitcoin = self.state.lock().await.network.bitcoin;
        let valid = ["ethereum", "bitcoin", "tron", "solana"]
            .iter()
            .find_map(|chain| validate_address(chain, address, bitcoin).ok())
            .ok_or_else(|| {
                invalid(
                    "address",
                    format!(
                        "{address:?} is not an EVM, Bitcoin, Tron or Solana address. Check it and try again."
                    ),
                )
            })?;
        let mut state = self.state.lock().await;
        let kind = state.network.kind;
        let list = &mut state.settings.prefs_mut(kind).watched;
        if list
            .iter()
            .any(|a| a.eq_ignore_ascii_case(&valid.canonical))
        {
            return Ok(self.view(&state));
        }
        list.push(valid.canonical.clone());
        settings::save(&self.paths.settings_file(), &state.settings)?;
        if let Some(watch) = &state.watch {
            let _ = watch.tracker.watch_address(valid.canonical).await;
        }
        Ok(self.view(&state))
    }

    /// Stops following `address`.
    pub async fn unwatch_address(&self, address: &str) -> Result<SettingsView, DeskError> {
        let mut state = self.state.lock().await;
        let kind = state.network.kind;
        let list = &mut state.settings.prefs_mut(kind).watched;
        let before = list.len();
        list.retain(|a| !a.eq_ignore_ascii_case(address.trim()));
        if list.len() != before {
            settings::save(&self.paths.settings_file(), &state.settings)?;
            if let Some(watch) = &state.watch {
                let _ = watch
                    .tracker
                    .unwatch_address(address.trim().to_owned())
                    .await;
            }
            let key = Self::network_key_of(&state);
            let watched: Vec<String> = state.settings.watched(kind).to_vec();
            if let Some(seen) = self
                .seen
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get_mut(&key)
            {
                // Forget orders no remaining address lists (their raw answers say whose they are).
                seen.retain(|_, view| {
                    view.raw.as_ref().is_some_and(|raw| {
                        let text = raw.to_string().to_lowercase();
                        watched.iter().any(|a| text.contains(&a.to_lowercase()))
                    })
                });
            }
        }
        Ok(self.view(&state))
    }

    /// How many seconds until the tracker next reads the gateway's order `order_id` (rounded up); `None` when it is
    /// not followed (finished, or no tracker runs).
    pub async fn next_check_secs(&self, order_id: &str) -> Option<u64> {
        let tracker = self.state.lock().await.watch.as_ref()?.tracker.clone();
        let wait = tracker.next_check(order_id).await.ok()??;
        Some(wait.as_secs() + u64::from(wait.subsec_nanos() > 0))
    }

    /// Reads every watched address and unfinished order now.
    pub async fn refresh_now(&self) {
        if let Some(watch) = &self.state.lock().await.watch {
            let _ = watch.tracker.refresh_now().await;
        }
    }

    /// Every route of the network in use, with token facts where known.
    pub async fn routes(&self) -> Result<Vec<RouteView>, DeskError> {
        let client = self.state.lock().await.network.client.clone();
        let routes = client.get_routes().await?.value;
        let registry = TokenRegistry::builtin();
        Ok(routes.iter().map(|r| route_view(registry, r)).collect())
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

    /// Asks for a quote for what the swap form says. Amounts and addresses are checked first; a refusal the person
    /// can fix comes back as a question.
    ///
    /// The network's affiliate entries go with it as the route and API version allow
    /// ([`crate::partner::affiliates_for`]); the card says what was asked for, and why when something was not.
    pub async fn quote(&self, form: &SwapForm) -> Result<QuoteResult, DeskError> {
        let state = self.state.lock().await;
        let bitcoin = state.network.bitcoin;
        let checks = Self::checks_of(&state);
        let mut request = request_from(form, bitcoin)?;
        let client = state.network.client.clone();
        let key = Self::network_key_of(&state);
        let applied = crate::partner::affiliates_for(
            &state.settings,
            state.network.kind,
            client.config().version,
            &request.src_chain,
            &request.dst_chain,
        );
        drop(state);
        request.affiliates = applied
            .entries
            .iter()
            .map(|a| gateway_client::Affiliate {
                address: a.address.clone(),
                bps: a.bps,
            })
            .collect();
        let journal = self.journal()?;
        let flow = flow_on(&client, journal, &key, &checks);
        let outcome = flow
            .quote(&request)
            .await
            .map_err(|e| crate::quote_errors::explain(DeskError::from(e), &request))?;
        match outcome {
            QuoteOutcome::Quote(quote, check) => {
                let mut card = QuoteCard::new(&quote);
                card.check = Some(check);
                card.affiliates_requested = applied.entries;
                card.affiliate_note = applied.note;
                Ok(QuoteResult::Quote {
                    card: Box::new(card),
                })
            }
            QuoteOutcome::Ask(question) => Ok(QuoteResult::Ask {
                question: crate::quote_errors::explain_question(question, &request),
            }),
        }
    }

    /// Starts an order from a quote as received (the card's `raw`): journals it, creates the order and verifies
    /// what the gateway asks to be signed. A refusal is recorded and shown on the order (it must not be signed).
    ///
    /// A loss above [`crate::verify::request::CONFIRM_LOSS_BPS`] must be confirmed: `accepted_loss_bps` is what the
    /// person confirmed, in bps; nothing is journaled or sent when it does not cover the loss.
    pub async fn start_order(
        &self,
        quote: Value,
        accepted_loss_bps: Option<u32>,
    ) -> Result<OrderView, DeskError> {
        let quote = Quote::from_json(quote).map_err(|e| {
            invalid(
                "quote",
                format!("This is not a quote the gateway sent ({e}). Ask for a new quote."),
            )
        })?;
        crate::verify::request::require_confirmed_loss(&quote, accepted_loss_bps)
            .map_err(|e| DeskError::new(ErrorKind::Refused, e.to_string()))?;
        self.refuse_while_uncertain().await?;
        // The Sandbox's Solana and Tron chains run before an order from them is created: the gateway builds a Solana
        // transaction on that chain's latest blockhash, and checks the registered transaction on the chain.
        let source = quote.view().input_amount().chain.clone();
        if source == "solana" || source == "tron" {
            let chains = self.state.lock().await.network.sandbox_chains.clone();
            if let Some(chains) = chains {
                chains.url_for(&source, None).await?;
            }
        }
        let (client, key, checks) = self.client_key_and_policy().await;
        let journal = self.journal()?;
        let flow = flow_on(&client, journal, &key, &checks);
        let order = flow.accept(&quote).map_err(DeskError::from)?;
        match flow.create(order.local_id).await {
            Ok(_) | Err(FlowError::Refused(_)) => {}
            Err(e) if journal.order(order.local_id)?.stage == Stage::CreateUnknown => {
                // create-order's answer was lost: look for the order once before answering.
                if let Ok(Some(step)) = flow.find_created(order.local_id).await {
                    self.track(&step.order).await;
                    return self.order_view(order.local_id);
                }
                let mut error = DeskError::from(e);
                error.message = format!(
                    "{} The app looked for the order among your orders and has not found it yet. It is in Orders: \
                     Continue looks again (and asks the gateway), Abandon gives it up; no other order can be started \
                     until then.",
                    error.message.trim_end()
                );
                // The window shows this order at the signing step, as Orders does.
                let mut details = error.details.take().map_or_else(|| json!({}), |d| *d);
                match details.as_object_mut() {
                    Some(map) => {
                        map.insert("localId".into(), json!(order.local_id));
                    }
                    None => details = json!({ "localId": order.local_id, "gateway": details }),
                }
                error.details = Some(Box::new(details));
                return Err(error);
            }
            Err(e) => return Err(e.into()),
        }
        let order = journal.order(order.local_id)?;
        self.track(&order).await;
        self.order_view(order.local_id)
    }

    /// Refuses to start an order while an order of the current network has an unresolved creation (being created,
    /// or create-order's answer lost): a second order could then pay for the same swap twice. The refusal names the
    /// order and what to do (look it up with Continue, or abandon it); its details carry `localId`.
    async fn refuse_while_uncertain(&self) -> Result<(), DeskError> {
        let key = self.client_and_key().await.1;
        let journal = self.journal()?;
        let Some(order) = journal.unresolved_creations(&key)?.into_iter().next() else {
            return Ok(());
        };
        let view = OrderView::from_journal(&order, &journal.events(order.local_id)?);
        let mut error = DeskError::new(
            ErrorKind::Refused,
            format!(
                "Order #{} ({} → {}) is unresolved: the app does not know whether the gateway created it (its answer \
                 was lost, or has not arrived). No other order is started until it is resolved. In Orders, choose \
                 Continue on it (the app looks it up among your orders), or Abandon it: nothing was paid.",
                order.local_id, view.send.text, view.receive.text
            ),
        );
        error.details = Some(Box::new(json!({ "localId": order.local_id })));
        Err(error)
    }

    /// Takes the signed transaction (hex) or its id/hash for an order, checks it, journals it and registers it.
    pub async fn hand_in(&self, local_id: i64, text: &str) -> Result<OrderView, DeskError> {
        let (client, key, checks) = self.client_key_and_policy().await;
        let journal = self.journal()?;
        let flow = flow_on(&client, journal, &key, &checks);
        flow.hand_in(local_id, text)
            .await
            .map_err(DeskError::from)?;
        let order = journal.order(local_id)?;
        self.track(&order).await;
        self.order_view(local_id)
    }

    /// Takes an unfinished order one step on (after a restart): confirms an uncertain creation, re-verifies, finishes
    /// a wallet transaction journaled before a crash, or registers a transaction already handed in.
    pub async fn resume(&self, local_id: i64) -> Result<OrderView, DeskError> {
        let (client, key, checks) = self.client_key_and_policy().await;
        let journal = self.journal()?;
        // A transaction the wallet signed and journaled is finished first: re-sent as it is or its receipt read, and
        // the order's payment, once mined, registered. No new signature without the person.
        let order = journal.order(local_id)?;
        if crate::execute::evm::has_unfinished_wallet_tx(&order) {
            if order.wallet_txs.iter().any(|t| t.chain == "solana") {
                return self.wallet_solana_step(local_id, None).await;
            }
            return self.wallet_evm_step(local_id, None, None).await;
        }
        let flow = flow_on(&client, journal, &key, &checks);
        let (order, _) = flow.resume(local_id).await.map_err(DeskError::from)?;
        self.track(&order).await;
        // Sent to the window as a change too: Swap and Orders both show the order as it now is.
        self.changed(local_id)
    }

    /// Abandons an unfinished order at the person's request: nothing is sent to the gateway, whose order (if there is
    /// one) is left to expire unpaid, and the journal records `abandoned` with that reason. Refused, with a sentence
    /// saying why and what to do instead, once money may have moved ([`crate::journal::abandon_refusal`]): the
    /// wallet signed the payment, a transaction was handed in, or the order is registered or finished.
    pub async fn abandon(&self, local_id: i64) -> Result<OrderView, DeskError> {
        let order = self.journal()?.abandon_by_person(local_id)?;
        if let (Some(order_id), Some(watch)) = (&order.order_id, &self.state.lock().await.watch) {
            let _ = watch.tracker.untrack(order_id.clone()).await;
        }
        self.changed(local_id)
    }

    /// [`Self::abandon`], under its first name (an order refused by verification was "discarded").
    pub async fn discard(&self, local_id: i64) -> Result<OrderView, DeskError> {
        self.abandon(local_id).await
    }

    /// The person read what happened to a failed or refunded order ("I've read this"): journaled as `acknowledged`
    /// (once), after which the order no longer needs their attention. Any other order is refused.
    pub async fn acknowledge(&self, local_id: i64) -> Result<OrderView, DeskError> {
        self.journal()?.acknowledge(local_id)?;
        self.changed(local_id)
    }

    /// The view of order `local_id`, also sent to the window as a change.
    fn changed(&self, local_id: i64) -> Result<OrderView, DeskError> {
        let view = self.order_view(local_id)?;
        let _ = self.events.send(DeskEvent::OrderChanged {
            order: Box::new(view.clone()),
        });
        Ok(view)
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

    async fn track(&self, order: &JournalOrder) {
        if let (Some(tracked), Some(watch)) = (tracked(order), &self.state.lock().await.watch) {
            let _ = watch.tracker.track(tracked).await;
        }
    }

    /// One of the app's own orders.
    pub fn order_view(&self, local_id: i64) -> Result<OrderView, DeskError> {
        let journal = self.journal()?;
        let order = journal.order(local_id)?;
        let events = journal.events(local_id)?;
        Ok(OrderView::from_journal(&order, &events))
    }

    /// The orders of the current network: the app's own (newest first), then those of watched addresses that the
    /// app did not make.
    pub async fn orders(&self) -> Result<Vec<OrderView>, DeskError> {
        let key = self.client_and_key().await.1;
        let journal = self.journal()?;
        let mut views = Vec::new();
        let mut own = std::collections::HashSet::new();
        for order in journal.orders(Some(&key))? {
            if order.stage == Stage::Quoted {
                continue; // a quote never sent: not an order
            }
            if let Some(id) = &order.order_id {
                own.insert(id.clone());
            }
            let events = journal.events(order.local_id)?;
            views.push(OrderView::from_journal(&order, &events));
        }
        if let Some(seen) = self
            .seen
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
        {
            let mut others: Vec<&OrderView> = seen
                .values()
                .filter(|v| v.order_id.as_ref().is_none_or(|id| !own.contains(id)))
                .collect();
            others.sort_by_key(|v| std::cmp::Reverse(v.created_at));
            views.extend(others.into_iter().cloned());
        }
        Ok(views)
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
fn tracked(order: &JournalOrder) -> Option<TrackedOrder> {
    let order_id = order.order_id.clone()?;
    if matches!(
        order.stage,
        Stage::Finished | Stage::Abandoned | Stage::Refused
    ) {
        return None;
    }
    Some(TrackedOrder {
        order_id,
        addresses: order.addresses.clone(),
        registered_at: (order.stage == Stage::Registered).then(|| unix_to_system(order.updated_at)),
        last_seen: order.status.clone(),
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

/// The quote request the swap form asks for: the amount converted exactly with the source token's decimals, every
/// address checked for its chain.
pub fn request_from(form: &SwapForm, bitcoin: BitcoinNetwork) -> Result<QuoteRequest, DeskError> {
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
    let account = secrets::account(kind, custom_url);
    let key: Option<ApiKey> = tokio::task::spawn_blocking(move || secrets::load_key(&account))
        .await
        .unwrap_or_else(|e| Err(secrets::SecretsError::Keychain(e.to_string())))
        .unwrap_or_else(|e| {
            warn!(error = %e, "no API key available; continuing keyless");
            None
        });
    let sandbox_state = paths.data_dir.join(SANDBOX_STATE_FILE);
    ActiveNetwork::connect(
        kind,
        custom_url,
        settings.api_version(kind),
        key,
        Some(&sandbox_state),
        sandbox,
        settings.bitcoin_network(kind),
    )
    .await
}

/// A token's facts from the registry, or only its address when it is unknown (never a guess).
pub fn token_view(registry: &TokenRegistry, chain: &str, address: &str) -> TokenView {
    let info = registry.get(chain, address);
    TokenView {
        chain: chain.to_owned(),
        address: address.to_owned(),
        symbol: info.map(|t| t.symbol.clone()),
        name: info.map(|t| t.name.clone()),
        decimals: info.map(|t| t.decimals),
    }
}

fn route_view(registry: &TokenRegistry, route: &RouteInfo) -> RouteView {
    RouteView {
        kind: route.kind().into(),
        src: token_view(registry, &route.src_chain, &route.src_token),
        dst: token_view(registry, &route.dst_chain, &route.dst_token),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let request = request_from(&form(), BitcoinNetwork::Mainnet).unwrap();
        assert_eq!(request.amount, "250000");
        assert_eq!(
            request.recipient, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "checksummed"
        );

        let mut bad = form();
        bad.amount = "0.000000001".into();
        let err = request_from(&bad, BitcoinNetwork::Mainnet).unwrap_err();
        assert_eq!(err.details.as_deref(), Some(&json!({"field": "amount"})));

        let mut bad = form();
        bad.recipient = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh".into();
        let err = request_from(&bad, BitcoinNetwork::Mainnet).unwrap_err();
        assert_eq!(err.details.as_deref(), Some(&json!({"field": "recipient"})));
        assert!(err.message.contains("bob"), "{}", err.message);

        let mut bad = form();
        bad.owner = Some("TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7".into());
        assert_eq!(
            request_from(&bad, BitcoinNetwork::Mainnet)
                .unwrap_err()
                .details
                .as_deref(),
            Some(&json!({"field": "owner"}))
        );
    }
}
