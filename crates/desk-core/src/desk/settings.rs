//! The desk's settings facet: the network in use (and switching it), the API version and key, the Bitcoin network,
//! blind signing, the theme, and the routes of the network in use.

use std::path::Path;

use gateway_client::address::BitcoinNetwork;
use gateway_client::{ApiKey, ApiVersion, TokenRegistry};
use tracing::info;

use super::*;
use crate::sandbox::{SandboxAccess, SandboxStart};

/// A refused choice, saying that nothing changed (for a custom gateway's failed check when a network is chosen).
fn not_saved(mut error: DeskError) -> DeskError {
    error
        .message
        .push_str(" Nothing was saved; the network in use stays.");
    error
}

impl ActiveNetwork {
    /// Connects to `kind`, whose Bitcoin network is `bitcoin` (the Sandbox's is always regtest): for the Sandbox
    /// this starts the local gateway `sandbox` has (on a free loopback port), keeping its orders in `sandbox_state`
    /// when given. [`ActiveNetwork::open`], with the Sandbox started first and the error in the window's words.
    #[allow(clippy::too_many_arguments)] // The network's settings, one by one, as the desk and the lookup read them.
    pub async fn connect(
        kind: NetworkKind,
        custom_url: Option<&str>,
        version: ApiVersion,
        api_key: Option<ApiKey>,
        sandbox_state: Option<&Path>,
        sandbox: &SandboxAccess,
        bitcoin: BitcoinNetwork,
        production_shape: bool,
    ) -> Result<Self, DeskError> {
        let running = if kind == NetworkKind::Sandbox {
            Some(
                sandbox
                    .start(SandboxStart {
                        state_file: sandbox_state.map(Path::to_path_buf),
                        admin: sandbox.admin,
                        api_key: api_key.clone(),
                        production_shape,
                    })
                    .await?,
            )
        } else {
            None
        };
        Ok(Self::open(
            kind, custom_url, version, api_key, running, bitcoin,
        )?)
    }

    /// This network, once a custom URL has answered [`crate::network::check_gateway`] (the other networks are not
    /// asked): [`ActiveNetwork::check`], its error in the window's words.
    pub async fn checked(self) -> Result<Self, DeskError> {
        Ok(self.check().await?)
    }
}

impl Desk {
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
            sandbox_production_shape: state.settings.production_shape(),
            chain_endpoints: execute::endpoints_view(state),
        }
    }

    pub(crate) fn network_key_of(state: &State) -> String {
        network_key(state.network.kind, state.settings.custom_url.as_deref())
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
        let network = match connect(&self.paths, &next, choice.kind, &self.sandbox)
            .await?
            .check()
            .await
        {
            Ok(network) => network,
            // A gateway of one's own that does not speak V4 yet (no version chosen for it): V3, the version before,
            // is tried and kept when it answers. The version shows in Settings and can be changed there.
            Err(crate::network::NetworkError::Check {
                version: ApiVersion::V4,
                error,
                ..
            }) if matches!(
                *error,
                gateway_client::ClientError::NotFound
                    | gateway_client::ClientError::UnexpectedBody { status: 404, .. }
            ) && choice.kind == NetworkKind::Custom
                && next
                    .networks
                    .get(&NetworkKind::Custom)
                    .and_then(|p| p.api_version)
                    .is_none() =>
            {
                info!("the custom gateway has no v4/get-routes; trying v3");
                next.prefs_mut(NetworkKind::Custom).api_version = Some(ApiVersion::V3);
                connect(&self.paths, &next, choice.kind, &self.sandbox)
                    .await?
                    .checked()
                    .await
                    .map_err(not_saved)?
            }
            Err(e) => return Err(not_saved(e.into())),
        };
        self.replace_network(&mut state, network).await;
        state.settings = next;
        crate::settings::save(&self.paths.settings_file(), &state.settings)?;
        Ok(self.view(&state))
    }

    pub(crate) async fn replace_network(&self, state: &mut State, network: ActiveNetwork) {
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
        crate::settings::save(&self.paths.settings_file(), &state.settings)?;
        Ok(self.view(&state))
    }

    /// Chooses the API version of the current network.
    pub async fn set_api_version(&self, version: ApiVersion) -> Result<SettingsView, DeskError> {
        let mut state = self.state.lock().await;
        let mut next = state.settings.clone();
        let kind = state.network.kind;
        if version.removed_from_service()
            && matches!(kind, NetworkKind::Production | NetworkKind::Staging)
        {
            return Err(invalid(
                "apiVersion",
                format!(
                    "API {version} was removed from the service in September 2026: {} speaks V4 or V3. Orders made \
                     through {version} keep their ids there; Support can still look them up with {version} on a \
                     gateway that serves it.",
                    kind.label()
                ),
            ));
        }
        next.prefs_mut(kind).api_version = Some(version);
        let network = connect(&self.paths, &next, kind, &self.sandbox)
            .await?
            .checked()
            .await
            .map_err(not_saved)?;
        self.replace_network(&mut state, network).await;
        state.settings = next;
        crate::settings::save(&self.paths.settings_file(), &state.settings)?;
        Ok(self.view(&state))
    }

    /// Turns the Sandbox's production shape on or off (its EVM and Tron orders then go through each chain's published
    /// entry contract, an AllowanceHolder placed at its real address, and are verified as on Production: the decoding
    /// of `exec`, then the chain's simulation). Restarts the Sandbox when it is the network in use.
    pub async fn set_sandbox_production_shape(&self, on: bool) -> Result<SettingsView, DeskError> {
        let mut state = self.state.lock().await;
        let mut next = state.settings.clone();
        next.prefs_mut(NetworkKind::Sandbox).production_shape = on;
        if state.network.kind == NetworkKind::Sandbox {
            let network = connect(&self.paths, &next, NetworkKind::Sandbox, &self.sandbox).await?;
            self.replace_network(&mut state, network).await;
        }
        state.settings = next;
        crate::settings::save(&self.paths.settings_file(), &state.settings)?;
        tracing::info!(on, "Sandbox production shape set");
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
        crate::settings::save(&self.paths.settings_file(), &state.settings)?;
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
        crate::settings::save(&self.paths.settings_file(), &next)?;
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

    /// Every route of the network in use, with token facts where known.
    pub async fn routes(&self) -> Result<Vec<RouteView>, DeskError> {
        let client = self.state.lock().await.network.client.clone();
        let routes = client.get_routes().await?.value;
        let registry = TokenRegistry::builtin();
        Ok(routes.iter().map(|r| route_view(registry, r)).collect())
    }
}
