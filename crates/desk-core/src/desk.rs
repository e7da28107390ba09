//! The application facade the window calls: settings, the network in use, routes.

use gateway_client::{ApiKey, RouteInfo, TokenRegistry};
use tokio::sync::Mutex;
use tracing::warn;

use crate::api::{DeskError, NetworkChoice, RouteView, SettingsView, TokenView};
use crate::network::{ActiveNetwork, parse_custom_url};
use crate::paths::AppPaths;
use crate::secrets;
use crate::settings::{self, NetworkKind, Settings};

struct State {
    settings: Settings,
    network: ActiveNetwork,
    notices: Vec<String>,
}

/// Gateway Desk without a window.
pub struct Desk {
    paths: AppPaths,
    state: Mutex<State>,
}

impl Desk {
    /// Opens the app's state under `paths` and connects to the chosen network (starting the Sandbox if chosen).
    ///
    /// A chosen network that cannot be connected (a custom URL gone bad, say) falls back to the Sandbox with a notice.
    pub async fn open(paths: AppPaths) -> Result<Self, DeskError> {
        let loaded = settings::load(&paths.settings_file());
        let mut notices: Vec<String> = loaded.notice.into_iter().collect();
        // The keychain's client blocks on its own runtime, so it runs on a blocking thread.
        let installed = tokio::task::spawn_blocking(secrets::install_platform_store)
            .await
            .unwrap_or_else(|e| Err(secrets::SecretsError::Keychain(e.to_string())));
        if let Err(e) = installed {
            notices.push(DeskError::from(e).message);
        }
        let mut settings = loaded.settings;
        let network = match connect(&paths, &settings, settings.network).await {
            Ok(network) => network,
            Err(e) => {
                warn!(error = %e, "chosen network unavailable; using the Sandbox");
                notices.push(format!("{} The app switched to the Sandbox.", e.message));
                settings.network = NetworkKind::Sandbox;
                connect(&paths, &settings, NetworkKind::Sandbox).await?
            }
        };
        Ok(Self {
            paths,
            state: Mutex::new(State {
                settings,
                network,
                notices,
            }),
        })
    }

    /// The folders in use.
    pub fn paths(&self) -> &AppPaths {
        &self.paths
    }

    /// The settings as the window shows them.
    pub async fn settings(&self) -> SettingsView {
        let state = self.state.lock().await;
        self.view(&state)
    }

    fn view(&self, state: &State) -> SettingsView {
        SettingsView {
            network: state.network.view(),
            custom_url: state.settings.custom_url.clone(),
            settings_path: self.paths.settings_file().display().to_string(),
            notices: state.notices.clone(),
        }
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
        let network = connect(&self.paths, &next, choice.kind).await?;
        let mut previous = std::mem::replace(&mut state.network, network);
        previous.close().await;
        state.settings = next;
        settings::save(&self.paths.settings_file(), &state.settings)?;
        Ok(self.view(&state))
    }

    /// Every route of the network in use, with token facts where known.
    pub async fn routes(&self) -> Result<Vec<RouteView>, DeskError> {
        let client = self.state.lock().await.network.client.clone();
        let routes = client.get_routes().await?.value;
        let registry = TokenRegistry::builtin();
        Ok(routes.iter().map(|r| route_view(registry, r)).collect())
    }

    /// Stops background work (the Sandbox gateway) before the app exits.
    pub async fn shutdown(&self) {
        self.state.lock().await.network.close().await;
    }
}

/// The Sandbox gateway's orders, in the data directory.
pub const SANDBOX_STATE_FILE: &str = "sandbox-gateway.json";

async fn connect(
    paths: &AppPaths,
    settings: &Settings,
    kind: NetworkKind,
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
}
