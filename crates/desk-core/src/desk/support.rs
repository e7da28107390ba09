//! The desk's support facet: look an order up on any network, reproduce the quote it was made from, and make, save
//! and open support bundles (the rules themselves are `crate::support`'s).

use std::str::FromStr;
use std::time::Duration;

use gateway_client::address::BitcoinNetwork;
use gateway_client::wire::QuoteView;
use gateway_client::{ApiVersion, Client, ClientConfig, deployments};
use tracing::info;
use url::Url;

use super::{Desk, SANDBOX_STATE_FILE, invalid, network_key};
use crate::calendar::now_secs;
use crate::error::{DeskError, ErrorKind};
use crate::network::{ActiveNetwork, parse_custom_url};
use crate::secrets;
use crate::settings::NetworkKind;
use crate::support::bundle::*;
use crate::support::lookup::*;
use crate::support::reproduce::*;
use crate::views::QuoteCard;

// From the bundle room: crate::support::bundle.
impl Desk {
    /// The current network's API key, to check a bundle against. The state is held only briefly by others; a
    /// bundle is not made while it cannot be read.
    fn key_to_keep_out(&self) -> Result<Option<String>, DeskError> {
        for _ in 0..150 {
            if let Ok(state) = self.state.try_lock() {
                return Ok(state
                    .network
                    .client
                    .config()
                    .api_key
                    .as_ref()
                    .map(|k| k.expose().to_owned()));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Err(DeskError::new(
            ErrorKind::Transport,
            "The app is busy changing networks, so the bundle could not be checked for the API key. Try again \
             in a moment.",
        ))
    }

    fn make_preview(
        &self,
        local_id: i64,
        options: BundleOptions,
    ) -> Result<(Fingerprint, BundlePreview), DeskError> {
        let journal = self.journal()?;
        let order = journal.order(local_id)?;
        let events = journal.events(local_id)?;
        let fingerprint = fingerprint(&order, &events);
        let key = self.key_to_keep_out()?;
        let source = BundleSource {
            log_lines: order_log_lines(&self.paths.log_dir, &order),
            order,
            events,
            created_at: now_secs(),
            app_version: env!("CARGO_PKG_VERSION").to_owned(),
            os: os_description(),
            home: HOME.clone(),
        };
        let preview = compose(&source, options, key.as_deref())?;
        Ok((fingerprint, preview))
    }

    /// What a support bundle of one of the app's own orders will hold, redacted: its file name and exact text.
    pub fn bundle_preview(
        &self,
        local_id: i64,
        options: BundleOptions,
    ) -> Result<BundlePreview, DeskError> {
        let (fingerprint, preview) = self.make_preview(local_id, options)?;
        PREVIEWS.lock().unwrap_or_else(|p| p.into_inner()).insert(
            (
                self.paths.data_dir.clone(),
                local_id,
                options.include_identifiers,
            ),
            (fingerprint, preview.clone()),
        );
        Ok(preview)
    }

    /// Writes the bundle to `<data folder>/support-bundles/<file name>` and gives the path. The text is exactly the
    /// last preview's when the order has not changed since; otherwise (or without a preview) it is made now.
    pub fn save_bundle(&self, local_id: i64, options: BundleOptions) -> Result<String, DeskError> {
        let journal = self.journal()?;
        let order = journal.order(local_id)?;
        let events = journal.events(local_id)?;
        let now = fingerprint(&order, &events);
        let cache_key = (
            self.paths.data_dir.clone(),
            local_id,
            options.include_identifiers,
        );
        let cached = PREVIEWS
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&cache_key)
            .filter(|(made_from, _)| *made_from == now)
            .map(|(_, preview)| preview.clone());
        let preview = match cached {
            Some(preview) => preview,
            None => self.make_preview(local_id, options)?.1,
        };
        let dir = self.paths.data_dir.join(BUNDLE_DIR);
        let path = dir.join(&preview.file_name);
        let failed = |e: std::io::Error| {
            DeskError::new(
                ErrorKind::Settings,
                format!(
                    "The support bundle could not be written to {} ({e}). Check that the folder is writable and \
                     the disk is not full, then try again.",
                    path.display()
                ),
            )
        };
        std::fs::create_dir_all(&dir).map_err(failed)?;
        let partial = dir.join(format!("{}.part", preview.file_name));
        std::fs::write(&partial, preview.text.as_bytes()).map_err(failed)?;
        std::fs::rename(&partial, &path).map_err(|e| {
            let _ = std::fs::remove_file(&partial);
            failed(e)
        })?;
        info!(local_id, file = %preview.file_name, "support bundle saved");
        Ok(path.display().to_string())
    }

    /// Reads a support bundle and shows its order's timeline as the user saw it; the journal is not touched.
    pub fn import_bundle(&self, text: &str) -> Result<ImportedBundle, DeskError> {
        Ok(read_bundle(text)?)
    }
}

// From the lookup room: crate::support::lookup.
impl Desk {
    /// Looks an order (or an address's orders) up on any network and API version. The app's own network, its
    /// tracker and its journal stay as they are: the lookup uses a client of its own, and starts the Sandbox just
    /// for the lookup (on the same saved orders) when the app is on another network.
    pub async fn lookup(&self, query: &LookupQuery) -> Result<LookupResult, DeskError> {
        let version = ApiVersion::from_str(query.api_version.trim())
            .map_err(|e| invalid("apiVersion", format!("The API version is not known: {e}.")))?;
        // A query that cannot be looked up starts nothing.
        classify(&query.query)?;
        let (current, current_config, settings_url) = {
            let state = self.state.lock().await;
            (
                state.network.kind,
                state.network.client.config().clone(),
                state.settings.custom_url.clone(),
            )
        };
        info!(network = query.network.slug(), %version, "support lookup asked");
        match query.network {
            NetworkKind::Sandbox if current == NetworkKind::Sandbox => {
                let client = Client::new(ClientConfig {
                    version,
                    ..current_config
                })?;
                Ok(lookup_on(&client, "sandbox", &query.query).await?)
            }
            NetworkKind::Sandbox => {
                let key =
                    secrets::stored_key_or_keyless(secrets::account(NetworkKind::Sandbox, None))
                        .await;
                let state_file = self.paths.data_dir.join(SANDBOX_STATE_FILE);
                let mut sandbox = ActiveNetwork::connect(
                    NetworkKind::Sandbox,
                    None,
                    version,
                    key,
                    Some(&state_file),
                    // A lookup only reads: no admin interface.
                    &crate::sandbox::SandboxAccess {
                        admin: false,
                        ..self.sandbox.clone()
                    },
                    BitcoinNetwork::Regtest,
                    false,
                )
                .await?;
                let result = lookup_on(&sandbox.client, "sandbox", &query.query).await;
                sandbox.close().await;
                Ok(result?)
            }
            kind => {
                let (base_url, custom) = match kind {
                    NetworkKind::Production => {
                        (Url::parse(deployments::PRODUCTION).expect("valid"), None)
                    }
                    NetworkKind::Staging => {
                        (Url::parse(deployments::STAGING).expect("valid"), None)
                    }
                    _ => {
                        let text = query
                            .custom_url
                            .clone()
                            .filter(|u| !u.trim().is_empty())
                            .or(settings_url)
                            .ok_or_else(|| {
                                invalid(
                                    "customUrl",
                                    "Enter the custom gateway's URL to look an order up there.",
                                )
                            })?;
                        let url = parse_custom_url(&text)?;
                        let normalized = url.as_str().trim_end_matches('/').to_owned();
                        (url, Some(normalized))
                    }
                };
                let key =
                    secrets::stored_key_or_keyless(secrets::account(kind, custom.as_deref())).await;
                let mut config = ClientConfig::new(base_url);
                config.version = version;
                config.api_key = key;
                let client = Client::new(config)?;
                Ok(lookup_on(&client, &network_key(kind, custom.as_deref()), &query.query).await?)
            }
        }
    }
}

// From the reproduce room: crate::support::reproduce.
impl Desk {
    /// Asks for a quote again, the same request as the one that made it, on the network it was made on, and
    /// compares the two field by field. A bundle made on another network than the current one is refused: switch
    /// first. Nothing is journaled.
    pub async fn reproduce_quote(&self, source: &ReproduceSource) -> Result<QuoteDiff, DeskError> {
        let origin = read_source(source)?;
        let (client, key, kind, bitcoin) = {
            let state = self.state.lock().await;
            (
                state.network.client.clone(),
                Self::network_key_of(&state),
                state.network.kind,
                state.network.bitcoin,
            )
        };
        let label = kind.label().to_owned();
        if let Some(network) = &origin.network
            && *network != key
        {
            return Err(DeskError::new(
                ErrorKind::InvalidInput,
                format!(
                    "This quote was made on {}, but the app is on {}. A quote is reproduced only on the network it \
                     was made on: switch to {} in Settings, then try again.",
                    network_words(network),
                    network_words(&key),
                    network_words(network)
                ),
            ));
        }
        let current = client.config().version;
        let version = origin.version.unwrap_or(match origin.quote.view() {
            QuoteView::LayerZero(_) => ApiVersion::V1,
            _ => current,
        });
        let mut notes = vec![match (&origin.network, origin.version) {
            (Some(_), Some(_)) => format!(
                "Asked for again on {label} with API {version}, where the bundle's order was made."
            ),
            (Some(_), None) => format!(
                "Asked for again on {label}, where the bundle's order was made; the bundle does not say which API \
                 version, so {version} was used."
            ),
            (None, _) if version != current => format!(
                "The pasted quote does not say where it was made; it was asked for again on {label}, the network \
                 in use, with API {version} (a layerZero quote is a v1 quote)."
            ),
            (None, _) => format!(
                "The pasted quote does not say where it was made; it was asked for again on {label}, the network \
                 in use, with API {version}."
            ),
        }];
        let client = if version == current {
            client
        } else {
            Client::new(ClientConfig {
                version,
                ..client.config().clone()
            })?
        };
        let request = Rebuild {
            version,
            bitcoin,
            notes: &mut notes,
            stand_ins: 0,
        }
        .request(&origin.quote)?;
        let fresh = client.get_quote(&request).await?.value;
        let before = QuoteCard::new(&origin.quote);
        let after = QuoteCard::new(&fresh);
        let fields = compare(&before, &after);
        info!(
            network = kind.slug(),
            %version,
            changed = fields.iter().filter(|f| f.changed).count(),
            "quote reproduced"
        );
        Ok(QuoteDiff {
            network_label: label,
            before,
            after,
            fields,
            notes,
        })
    }
}
