//! The desk's EVM execution calls: read the plan of a verified offramp or token swap (what is still to be signed,
//! in words and numbers, and whether the wallet can pay for it), then sign exactly the step the person confirmed.
//! The window asks "sign order X, this step"; desk-core holds the key ([`crate::execute::evm`]).

use alloy::primitives::{Address, U256};
use gateway_client::wire::NATIVE_TOKEN;
use serde::Serialize;
use tracing::info;
use ts_rs::TS;

use super::State;
use super::{Desk, DeskEvent, flow_on, invalid};
use crate::api::{EndpointCheck, EvmEndpointsView};
use crate::chains::evm::{EvmEndpoint, connect, known_gateway_spender};
use crate::chains::solana::{self as solana_chain, SolanaEndpoint};
use crate::chains::tron::{self as tron_chain, TronEndpoint};
use crate::error::{DeskError, ErrorKind};
use crate::execute::evm::{self, EvmPlan, ExecError, Executed, PayCall};
use crate::execute::solana::{self as solana_exec, SolanaPlan};
use crate::execute::tron as tron_exec;
use crate::journal::{JournalOrder, WalletTxKind};
use crate::views::OrderView;
use crate::wallet;

/// Public JSON-RPC endpoints of the EVM chains the gateway routes and of Solana, tried in order (failing over); each
/// must answer the chain's id (Solana: mainnet-beta's genesis hash) before anything is signed. Never probed beyond
/// this list.
pub fn default_endpoints(chain: &str) -> &'static [&'static str] {
    gateway_client::chains::chain(chain).map_or(&[], |c| c.public_rpcs)
}

/// The endpoints of `chain` on the current network: those chosen in Settings, else the public defaults.
fn endpoints_of(state: &State, chain: &str) -> (Vec<String>, bool) {
    match state
        .settings
        .networks
        .get(&state.network.kind)
        .and_then(|p| p.evm_rpc.get(chain))
        .filter(|urls| !urls.is_empty())
    {
        Some(urls) => (urls.clone(), true),
        None => (
            default_endpoints(chain)
                .iter()
                .map(|u| (*u).to_owned())
                .collect(),
            false,
        ),
    }
}

/// Settings' view of the endpoints (none on the Sandbox: its chains are its own nodes).
pub(crate) fn endpoints_view(state: &State) -> Vec<EvmEndpointsView> {
    if state.network.sandbox_chains.is_some() {
        return Vec::new();
    }
    gateway_client::chains::evm_chains()
        .chain(["solana", "tron"])
        .map(|chain| {
            let (urls, custom) = endpoints_of(state, chain);
            EvmEndpointsView {
                chain: (*chain).to_owned(),
                urls,
                custom,
            }
        })
        .collect()
}

/// An endpoint URL as Settings takes it: http(s), a host, no credentials, no query.
fn endpoint_url(text: &str) -> Result<String, DeskError> {
    let bad = |why: &str| {
        invalid(
            "endpoint",
            format!(
                "{text:?} is not a usable JSON-RPC endpoint: {why}. Enter an address like https://rpc.example.com."
            ),
        )
    };
    let url = url::Url::parse(text.trim()).map_err(|e| bad(&e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(bad(
            "it must start with https:// (or http:// on this computer)",
        ));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(bad("it has no host"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(bad("it must not carry a user name or password"));
    }
    Ok(text.trim().to_owned())
}

/// An EVM balance of the wallet, for the amount field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "EvmBalance.ts")]
pub struct EvmBalance {
    /// The chain read: an EVM chain's slug, `solana` or `tron`.
    pub chain: String,
    /// The token as asked for: its address, or empty (or the all-zero EVM address) for the chain's native coin.
    pub token: String,
    /// Smallest units (decimal).
    pub amount: String,
    /// What Max puts in the amount field: the balance, less the most the gas can cost for the native coin.
    pub max: String,
    /// The balance and Max in the token's units ("0.0125"), and its symbol.
    pub units: String,
    /// Max in the token's units, what the amount field gets when Max is pressed.
    pub max_units: String,
    /// The token's ticker (`ETH`, `USDT`), from the app's list of known tokens.
    pub symbol: String,
    /// Where the figure comes from, for a person.
    pub source: String,
}

fn exec_error(e: impl Into<ExecError>) -> DeskError {
    let e: ExecError = e.into();
    let kind = match &e {
        ExecError::NotEnough(_)
        | ExecError::WouldRevert { .. }
        | ExecError::Changed(_)
        | ExecError::Surprise { .. }
        | ExecError::NotSimulated { .. } => ErrorKind::Refused,
        ExecError::Journal(_) => ErrorKind::Journal,
        ExecError::Sign(_) => ErrorKind::Wallet,
        _ => ErrorKind::Transport,
    };
    DeskError::new(kind, e.to_string())
}

/// The order's call ([`evm::pay_call_of`]) with the spender the app knows on this network: the Sandbox's pinned
/// contract, elsewhere the gateway's published approval spender ([`known_gateway_spender`]). A refusal says
/// nothing is signed.
fn pay_call(order: &JournalOrder, sandbox: bool) -> Result<(String, PayCall), DeskError> {
    evm::pay_call_of(order, |chain| {
        if sandbox {
            gateway_payload::sandbox::gateway_contract(chain)
                .parse()
                .ok()
        } else {
            known_gateway_spender(chain)
        }
    })
    .map_err(|why| DeskError::new(ErrorKind::Refused, format!("{why} Nothing is signed.")))
}

/// The chain an order's source is on, as quoted.
fn source_chain(order: &JournalOrder) -> Option<String> {
    gateway_client::wire::Quote::from_json(order.quote.clone())
        .ok()
        .map(|q| q.view().input_amount().chain.clone())
}

/// Refuses an order asked for with another sender than the wallet's EVM address: its tokens would be taken from
/// this wallet for an order the gateway lists under someone else.
fn check_sender(order: &JournalOrder, wallet: &str) -> Result<(), DeskError> {
    // Compared as addresses by the source chain's rules (a Tron sender may be written `41…`/`0x41…` hex).
    let chain = source_chain(order).unwrap_or_default();
    let same = |sender: &str| {
        sender.trim() == wallet.trim()
            || (sender.starts_with("0x") && sender.eq_ignore_ascii_case(wallet))
            || crate::verify::request::addresses_equal(&chain, sender, wallet)
    };
    let sender = gateway_client::wire::Quote::from_json(order.quote.clone())
        .ok()
        .and_then(|q| {
            q.raw()
                .as_object()?
                .values()
                .next()?
                .get("sender")?
                .as_str()
                .map(str::to_owned)
        });
    match sender {
        Some(sender) if !same(&sender) => Err(DeskError::new(
            ErrorKind::Refused,
            format!(
                "This order was asked for with the sender {sender}, not this app's wallet {wallet}. Sign it with the \
                 wallet that holds {sender}, or start over with the app's wallet as the sender. Nothing is signed."
            ),
        )),
        _ => Ok(()),
    }
}

impl Desk {
    /// Where `chain` is read and sent to, and whether it is the Sandbox's own node: on the Sandbox its local node
    /// (started, and `owner` funded on it, on first use), elsewhere the endpoints chosen in Settings or the public
    /// defaults, in order.
    async fn chain_urls(
        &self,
        chain: &str,
        owner: Option<&str>,
    ) -> Result<(Vec<String>, bool), DeskError> {
        let (sandbox, chosen) = {
            let state = self.state.lock().await;
            (
                state.network.sandbox_chains.clone(),
                endpoints_of(&state, chain).0,
            )
        };
        match sandbox {
            Some(chains) => Ok((vec![chains.url_for(chain, owner).await?], true)),
            None => Ok((chosen, false)),
        }
    }

    /// An endpoint of `chain` checked to be that chain: on the Sandbox its local node (started, and `owner` funded
    /// on it, on first use), elsewhere the public endpoints in order.
    pub(crate) async fn evm_endpoint(
        &self,
        chain: &str,
        owner: Option<&str>,
    ) -> Result<EvmEndpoint, DeskError> {
        let (urls, _) = self.chain_urls(chain, owner).await?;
        connect(chain, &urls).await.map_err(exec_error)
    }

    /// Sets the JSON-RPC endpoints of the EVM chain `chain` on the current network (tried in order; empty: back to
    /// the public defaults). Each must be an http(s) URL; at most five.
    pub async fn set_evm_endpoints(
        &self,
        chain: &str,
        urls: &[String],
    ) -> Result<crate::api::SettingsView, DeskError> {
        if default_endpoints(chain).is_empty() {
            return Err(invalid(
                "chain",
                format!(
                    "{chain:?} is not a chain whose endpoints the app sets (an EVM chain, Solana or Tron)."
                ),
            ));
        }
        let mut clean: Vec<String> = Vec::new();
        for url in urls.iter().filter(|u| !u.trim().is_empty()) {
            let url = endpoint_url(url)?;
            if !clean.contains(&url) {
                clean.push(url);
            }
        }
        if clean.len() > 5 {
            return Err(invalid(
                "endpoint",
                "Give at most five endpoints per chain.",
            ));
        }
        let mut state = self.state.lock().await;
        if state.network.sandbox_chains.is_some() {
            return Err(invalid(
                "endpoint",
                "The Sandbox's chains are its own local nodes; their endpoints are not set here.",
            ));
        }
        let kind = state.network.kind;
        let mut next = state.settings.clone();
        if clean.is_empty() {
            next.prefs_mut(kind).evm_rpc.remove(chain);
        } else {
            next.prefs_mut(kind).evm_rpc.insert(chain.to_owned(), clean);
        }
        crate::settings::save(&self.paths.settings_file(), &next)?;
        state.settings = next;
        info!(network = kind.slug(), chain, "EVM endpoints set");
        Ok(self.view(&state))
    }

    /// Checks one endpoint: it must answer `eth_chainId` with `chain`'s id; gives that id and the latest block.
    pub async fn check_evm_endpoint(
        &self,
        chain: &str,
        url: &str,
    ) -> Result<EndpointCheck, DeskError> {
        let url = endpoint_url(url)?;
        if chain == "tron" {
            let endpoint = tron_chain::connect(
                std::slice::from_ref(&url),
                tron_chain::MAINNET_GENESIS_BLOCK,
            )
            .await
            .map_err(exec_error)?;
            let block = endpoint.now_block().await.map_err(exec_error)?;
            return Ok(EndpointCheck {
                url,
                chain_id: 0,
                latest_block: u64::try_from(block.number).unwrap_or(0),
            });
        }
        if chain == "solana" {
            let endpoint =
                solana_chain::connect(std::slice::from_ref(&url), solana_chain::MAINNET_GENESIS)
                    .await
                    .map_err(exec_error)?;
            let (_, slot) = endpoint.latest_blockhash().await.map_err(exec_error)?;
            return Ok(EndpointCheck {
                url,
                chain_id: 0,
                latest_block: slot,
            });
        }
        let endpoint = connect(chain, std::slice::from_ref(&url))
            .await
            .map_err(exec_error)?;
        let latest_block = endpoint.latest_block().await.map_err(exec_error)?;
        Ok(EndpointCheck {
            url,
            chain_id: endpoint.chain_id,
            latest_block,
        })
    }

    /// The unlocked wallet's EVM address and an endpoint of `chain` (the Sandbox funds the address there on first
    /// use).
    async fn wallet_on(&self, chain: &str) -> Result<(Address, EvmEndpoint), DeskError> {
        let accounts = self.wallet_accounts().await?;
        let address = accounts.evm()?.address.clone();
        let owner: Address = address.parse().map_err(|_| {
            DeskError::new(
                ErrorKind::Wallet,
                format!("The wallet's EVM address {address} does not read back."),
            )
        })?;
        let endpoint = self.evm_endpoint(chain, Some(&address)).await?;
        Ok((owner, endpoint))
    }

    /// The wallet's balance of `token` on `chain` (an EVM chain or Solana), read from the chain; Max of the native
    /// coin keeps what a token call's gas may cost ([`evm::PAY_GAS_ASSUMED`] at the node's fee; on Solana the fee
    /// and a token account's rent).
    pub async fn wallet_evm_balance(
        &self,
        chain: &str,
        token: &str,
    ) -> Result<EvmBalance, DeskError> {
        if chain == "solana" {
            return self.wallet_solana_balance(token).await;
        }
        if chain == "tron" {
            return self.wallet_tron_balance(token).await;
        }
        let (owner, endpoint) = self.wallet_on(chain).await?;
        let native = token.is_empty() || token == NATIVE_TOKEN;
        let (amount, max) = if native {
            let have = endpoint.native_balance(owner).await.map_err(exec_error)?;
            let keep = U256::from(evm::PAY_GAS_ASSUMED)
                * U256::from(endpoint.gas_price().await.map_err(exec_error)?);
            (have, have.saturating_sub(keep))
        } else {
            let token: Address = token
                .parse()
                .map_err(|_| invalid("token", format!("{token:?} is not a token address.")))?;
            let have = endpoint
                .token_balance(token, owner)
                .await
                .map_err(exec_error)?;
            (have, have)
        };
        let info = gateway_client::TokenRegistry::builtin()
            .get(chain, if native { NATIVE_TOKEN } else { token })
            .ok_or_else(|| {
                invalid(
                    "token",
                    format!("The app does not know the token {token} on {chain}."),
                )
            })?;
        let units = |v: U256| gateway_client::amount::format_units(v, info.decimals);
        Ok(EvmBalance {
            chain: chain.to_owned(),
            token: token.to_owned(),
            amount: amount.to_string(),
            max: max.to_string(),
            units: units(amount),
            max_units: units(max),
            symbol: info.symbol.clone(),
            source: format!("read from {chain} ({})", endpoint.url),
        })
    }

    /// What a verified offramp or token swap still needs the wallet to sign, each step in words and numbers, and
    /// whether the wallet can pay for it. Reads only.
    pub async fn wallet_evm_plan(&self, local_id: i64) -> Result<EvmPlan, DeskError> {
        let order = self.journal()?.order(local_id)?;
        if source_chain(&order).as_deref() == Some("tron") {
            return self.wallet_tron_plan(&order).await;
        }
        let sandbox = self.sandbox_pins().await;
        let (chain, call) = pay_call(&order, sandbox)?;
        let (owner, endpoint) = self.wallet_on(&chain).await?;
        check_sender(&order, &owner.to_checksum(None))?;
        let (plan, _) = evm::plan(&endpoint, owner, &call)
            .await
            .map_err(exec_error)?;
        Ok(plan)
    }

    /// Signs and broadcasts the next wallet step of a verified offramp or token swap — only the step the person
    /// confirmed (`kind`) and only if its gas costs at most `accepted_max_fee_wei` — and awaits its receipt. A
    /// journaled transaction without a receipt is finished first (re-sent as it is). When the order's own
    /// transaction is mined, its hash is handed in and registered. When the chain's endpoint cannot simulate, the
    /// step is signed only with `accept_unsimulated` and blind signing on for the network.
    pub async fn wallet_evm_step(
        &self,
        local_id: i64,
        kind: Option<WalletTxKind>,
        accepted_max_fee_wei: Option<&str>,
        accept_unsimulated: bool,
    ) -> Result<OrderView, DeskError> {
        let journal = self.journal()?;
        let order = journal.order(local_id)?;
        if source_chain(&order).as_deref() == Some("tron") {
            return self
                .wallet_tron_step(local_id, kind, accepted_max_fee_wei)
                .await;
        }
        let unsimulated = evm::Unsimulated {
            accepted: accept_unsimulated,
            blind_signing: self.blind_signing_on().await,
        };
        let sandbox = self.sandbox_pins().await;
        let (chain, call) = pay_call(&order, sandbox)?;
        let signer = self
            .wallet
            .with_seed(wallet::evm_signer)
            .transpose()
            .map_err(DeskError::from)?;
        let owner = signer.as_ref().map(|s| s.address().to_checksum(None));
        if let Some(owner) = &owner
            && !evm::has_unfinished_wallet_tx(&order)
        {
            check_sender(&order, owner)?;
        }
        let endpoint = self.evm_endpoint(&chain, owner.as_deref()).await?;
        let accepted = match (kind, accepted_max_fee_wei) {
            (Some(kind), Some(fee)) => Some((
                kind,
                fee.parse::<U256>()
                    .map_err(|_| invalid("fee", format!("{fee:?} is not an amount of wei.")))?,
            )),
            _ => None,
        };
        let progress = self.wallet_progress();
        let executed = evm::execute_next(
            journal,
            local_id,
            &endpoint,
            signer.as_ref(),
            &call,
            accepted,
            unsimulated,
            &progress,
            &|_| {},
        )
        .await;
        self.after_wallet_step(local_id, executed).await
    }

    /// Whether the Sandbox's own contracts are the ones to approve to and call: on the Sandbox, unless its production
    /// shape is on (then each chain's published entry contract is, as on Production).
    async fn sandbox_pins(&self) -> bool {
        let state = self.state.lock().await;
        state.network.sandbox_chains.is_some() && !state.settings.production_shape()
    }

    /// Whether blind signing is on for the network in use.
    async fn blind_signing_on(&self) -> bool {
        let state = self.state.lock().await;
        state
            .settings
            .networks
            .get(&state.network.kind)
            .is_some_and(|prefs| prefs.blind_signing)
    }

    /// The window's progress events of a wallet transaction.
    fn wallet_progress(&self) -> impl Fn(evm::WalletTxProgress) + Send + Sync + use<> {
        let events = self.events.clone();
        move |p: evm::WalletTxProgress| {
            let _ = events.send(DeskEvent::WalletTx { progress: p });
        }
    }

    /// After a wallet step (EVM or Tron): the order's change told to the window; once the order's own transaction is
    /// executed, its hash handed in and registered.
    async fn after_wallet_step(
        &self,
        local_id: i64,
        executed: Result<Executed, ExecError>,
    ) -> Result<OrderView, DeskError> {
        self.tell_order_changed(local_id);
        match executed.map_err(exec_error)? {
            Executed::Approved { hash } => info!(local_id, hash, "approval executed"),
            Executed::Paid { hash } => self.register_paid(local_id, &hash).await?,
        }
        self.order_view(local_id)
    }

    fn tell_order_changed(&self, local_id: i64) {
        if let Ok(view) = self.order_view(local_id) {
            let _ = self.events.send(DeskEvent::OrderChanged {
                order: Box::new(view),
            });
        }
    }

    /// The order's payment, executed on its chain: `hash` handed in and registered, the order tracked.
    async fn register_paid(&self, local_id: i64, hash: &str) -> Result<(), DeskError> {
        info!(local_id, hash, "paid; registering");
        let journal = self.journal()?;
        let (client, key, checks) = self.client_key_and_policy().await;
        let flow = flow_on(&client, journal, &key, &checks);
        flow.hand_in(local_id, hash)
            .await
            .map_err(super::errors::from_flow)?;
        let order = journal.order(local_id)?;
        self.track(&order).await;
        Ok(())
    }

    /// An endpoint of Solana checked to be the network's cluster (its genesis hash): on the Sandbox its local node
    /// (started, and `owner` funded on it, on first use), elsewhere the chosen or public endpoints in order.
    pub(crate) async fn solana_endpoint(
        &self,
        owner: Option<&str>,
    ) -> Result<SolanaEndpoint, DeskError> {
        let (urls, sandbox) = self.chain_urls("solana", owner).await?;
        let genesis = if sandbox {
            gateway_payload::sandbox::SANDBOX_GENESIS
        } else {
            solana_chain::MAINNET_GENESIS
        };
        solana_chain::connect(&urls, genesis)
            .await
            .map_err(exec_error)
    }

    /// The unlocked wallet's Solana account and an endpoint of Solana.
    async fn wallet_on_solana(&self) -> Result<(solana_pubkey::Pubkey, SolanaEndpoint), DeskError> {
        let accounts = self.wallet_accounts().await?;
        let address = accounts
            .solana
            .as_ref()
            .ok_or_else(|| {
                DeskError::new(
                    ErrorKind::Wallet,
                    "This wallet has no Solana account (it holds a single key of another chain). Import a recovery \
                     phrase or a Solana key to swap from Solana.",
                )
            })?
            .address
            .clone();
        let owner = address.parse().map_err(|_| {
            DeskError::new(
                ErrorKind::Wallet,
                format!("The wallet's Solana address {address} does not read back."),
            )
        })?;
        let endpoint = self.solana_endpoint(Some(&address)).await?;
        Ok((owner, endpoint))
    }

    /// The wallet's balance of SOL or an SPL token (`token`: its mint) on Solana. Max of SOL keeps the fee of a
    /// transaction and the rent of one token account.
    async fn wallet_solana_balance(&self, token: &str) -> Result<EvmBalance, DeskError> {
        let (owner, endpoint) = self.wallet_on_solana().await?;
        let native = token.is_empty()
            || token == NATIVE_TOKEN
            || token == "11111111111111111111111111111111";
        let (amount, max) = if native {
            let have = endpoint.balance(&owner).await.map_err(exec_error)?;
            let keep = solana_chain::LAMPORTS_PER_SIGNATURE + solana_exec::TOKEN_ACCOUNT_RENT;
            (have, have.saturating_sub(keep))
        } else {
            let mint: solana_pubkey::Pubkey = token
                .parse()
                .map_err(|_| invalid("token", format!("{token:?} is not a Solana mint.")))?;
            let have = endpoint
                .token_balance(&owner, &mint)
                .await
                .map_err(exec_error)?;
            (have, have)
        };
        let info = gateway_client::TokenRegistry::builtin()
            .get("solana", if native { NATIVE_TOKEN } else { token })
            .ok_or_else(|| {
                invalid(
                    "token",
                    format!("The app does not know the token {token} on Solana."),
                )
            })?;
        let units = |v: u64| gateway_client::amount::format_units(U256::from(v), info.decimals);
        Ok(EvmBalance {
            chain: "solana".to_owned(),
            token: token.to_owned(),
            amount: amount.to_string(),
            max: max.to_string(),
            units: units(amount),
            max_units: units(max),
            symbol: info.symbol.clone(),
            source: format!("read from solana ({})", endpoint.url),
        })
    }

    /// What signing a verified Solana offramp or token swap will send and cost, and whether the wallet can pay and
    /// the transaction's blockhash is still valid. Reads only.
    pub async fn wallet_solana_plan(&self, local_id: i64) -> Result<SolanaPlan, DeskError> {
        let order = self.journal()?.order(local_id)?;
        let pay = solana_exec::solana_pay_of(&order).map_err(|why| {
            DeskError::new(ErrorKind::Refused, format!("{why} Nothing is signed."))
        })?;
        let (owner, endpoint) = self.wallet_on_solana().await?;
        check_sender(&order, &owner.to_string())?;
        solana_exec::plan(&endpoint, &owner, &pay)
            .await
            .map_err(exec_error)
    }

    /// Signs and sends a verified Solana offramp or token swap — only if its fee is at most
    /// `accepted_fee_lamports` — and follows it until it is confirmed; a journaled one is finished first (re-sent as
    /// it is). The confirmed signature is handed in and registered. When the endpoint cannot simulate, it is signed
    /// only with `accept_unsimulated` and blind signing on for the network.
    pub async fn wallet_solana_step(
        &self,
        local_id: i64,
        accepted_fee_lamports: Option<&str>,
        accept_unsimulated: bool,
    ) -> Result<OrderView, DeskError> {
        let journal = self.journal()?;
        let order = journal.order(local_id)?;
        let pay = solana_exec::solana_pay_of(&order).map_err(|why| {
            DeskError::new(ErrorKind::Refused, format!("{why} Nothing is signed."))
        })?;
        let key = self
            .wallet
            .with_seed(wallet::solana_signer)
            .transpose()
            .map_err(DeskError::from)?;
        let owner = key.as_ref().map(|k| {
            solana_pubkey::Pubkey::new_from_array(k.verifying_key().to_bytes()).to_string()
        });
        if let Some(owner) = &owner
            && !evm::has_unfinished_wallet_tx(&order)
        {
            check_sender(&order, owner)?;
        }
        let endpoint = self.solana_endpoint(owner.as_deref()).await?;
        let accepted = accepted_fee_lamports
            .map(|fee| {
                fee.parse::<u64>()
                    .map_err(|_| invalid("fee", format!("{fee:?} is not a number of lamports.")))
            })
            .transpose()?;
        let progress = self.wallet_progress();
        let executed = solana_exec::execute(
            journal,
            local_id,
            &endpoint,
            key.as_ref(),
            &pay,
            accepted,
            solana_exec::Unsimulated {
                accepted: accept_unsimulated,
                blind_signing: self.blind_signing_on().await,
            },
            &progress,
            &|_| {},
        )
        .await;
        self.tell_order_changed(local_id);
        let signature = executed.map_err(exec_error)?;
        self.register_paid(local_id, &signature).await?;
        self.order_view(local_id)
    }

    /// An endpoint of Tron checked to be the network's (its block 0): on the Sandbox its local stand-in (started, and
    /// `owner` funded on it, on first use), elsewhere the chosen or public endpoints in order.
    pub(crate) async fn tron_endpoint(
        &self,
        owner: Option<&str>,
    ) -> Result<TronEndpoint, DeskError> {
        let (urls, sandbox) = self.chain_urls("tron", owner).await?;
        let genesis = if sandbox {
            gateway_payload::sandbox::SANDBOX_GENESIS_BLOCK
        } else {
            tron_chain::MAINNET_GENESIS_BLOCK
        };
        tron_chain::connect(&urls, genesis)
            .await
            .map_err(exec_error)
    }

    /// The unlocked wallet's Tron account and an endpoint of Tron.
    async fn wallet_on_tron(&self) -> Result<([u8; 21], TronEndpoint), DeskError> {
        let accounts = self.wallet_accounts().await?;
        let address = accounts
            .tron
            .as_ref()
            .ok_or_else(|| {
                DeskError::new(
                    ErrorKind::Wallet,
                    "This wallet has no Tron account (it holds a single key of another chain). Import a recovery \
                     phrase or a Tron key to swap from Tron.",
                )
            })?
            .address
            .clone();
        let owner = gateway_client::tron::parse_account(&address).ok_or_else(|| {
            DeskError::new(
                ErrorKind::Wallet,
                format!("The wallet's Tron address {address} does not read back."),
            )
        })?;
        let endpoint = self.tron_endpoint(Some(&address)).await?;
        Ok((owner, endpoint))
    }

    /// The wallet's balance of TRX or a TRC-20 token on Tron. Max of TRX keeps what an order's call may burn at most
    /// (the highest fee limit the app accepts) and its bandwidth.
    async fn wallet_tron_balance(&self, token: &str) -> Result<EvmBalance, DeskError> {
        let (owner, endpoint) = self.wallet_on_tron().await?;
        let native = token.is_empty() || token == NATIVE_TOKEN;
        let (amount, max) = if native {
            let have = endpoint.trx_balance(&owner).await.map_err(exec_error)?;
            let keep = crate::verify::TRON_FEE_LIMIT_CAP_SUN + 1_000_000;
            (U256::from(have), U256::from(have.saturating_sub(keep)))
        } else {
            let token_account = gateway_client::tron::parse_account(token).ok_or_else(|| {
                invalid("token", format!("{token:?} is not a Tron token address."))
            })?;
            let have = endpoint
                .token_balance(&token_account, &owner)
                .await
                .map_err(exec_error)?;
            (have, have)
        };
        let info = gateway_client::TokenRegistry::builtin()
            .get("tron", if native { NATIVE_TOKEN } else { token })
            .ok_or_else(|| {
                invalid(
                    "token",
                    format!("The app does not know the token {token} on Tron."),
                )
            })?;
        let units = |v: U256| gateway_client::amount::format_units(v, info.decimals);
        Ok(EvmBalance {
            chain: "tron".to_owned(),
            token: token.to_owned(),
            amount: amount.to_string(),
            max: max.to_string(),
            units: units(amount),
            max_units: units(max),
            symbol: info.symbol.clone(),
            source: format!("read from tron ({})", endpoint.url),
        })
    }

    /// The order's Tron call with the spender the app knows on this network: the Sandbox's pinned contract, elsewhere
    /// the gateway's published entry on Tron (its AllowanceHolder, `gateway_client::chains`), the only contract a
    /// TRC-20 is approved to, for exactly the order's amount.
    async fn tron_pay(&self, order: &JournalOrder) -> Result<tron_exec::TronPay, DeskError> {
        let sandbox = self.sandbox_pins().await;
        let known = if sandbox {
            gateway_client::tron::parse_account(&gateway_payload::sandbox::gateway_contract("tron"))
        } else {
            gateway_client::chains::chain("tron")
                .and_then(|c| c.approval_spender)
                .and_then(gateway_client::tron::parse_account)
        };
        tron_exec::tron_pay_of(order, known)
            .map_err(|why| DeskError::new(ErrorKind::Refused, format!("{why} Nothing is signed.")))
    }

    /// What a verified Tron order still needs signed (an exact approval when the allowance is short, then the call),
    /// each step with its estimated energy and bandwidth and its fee limit. Reads only.
    async fn wallet_tron_plan(&self, order: &JournalOrder) -> Result<EvmPlan, DeskError> {
        let pay = self.tron_pay(order).await?;
        let (owner, endpoint) = self.wallet_on_tron().await?;
        check_sender(order, &gateway_client::tron::base58(&owner))?;
        let (plan, _) = tron_exec::plan(&endpoint, owner, &pay)
            .await
            .map_err(exec_error)?;
        Ok(plan)
    }

    /// Signs and broadcasts the next step of a verified Tron order — the confirmed one, at no more than the sun the
    /// person accepted — awaits its receipt, and registers the order's call once it is executed.
    async fn wallet_tron_step(
        &self,
        local_id: i64,
        kind: Option<WalletTxKind>,
        accepted_sun: Option<&str>,
    ) -> Result<OrderView, DeskError> {
        let journal = self.journal()?;
        let order = journal.order(local_id)?;
        let pay = self.tron_pay(&order).await?;
        let key = self
            .wallet
            .with_seed(wallet::tron_signing_key)
            .transpose()
            .map_err(DeskError::from)?;
        let owner = key.as_ref().map(|k| {
            let point = k.verifying_key().to_encoded_point(false);
            let bytes: [u8; 65] = point.as_bytes().try_into().unwrap_or([0; 65]);
            gateway_client::tron::base58(&gateway_client::tron::account_of_public_key(&bytes))
        });
        if let Some(owner) = &owner
            && !evm::has_unfinished_wallet_tx(&order)
        {
            check_sender(&order, owner)?;
        }
        let endpoint = self.tron_endpoint(owner.as_deref()).await?;
        let accepted = match (kind, accepted_sun) {
            (Some(kind), Some(sun)) => Some((
                kind,
                sun.parse::<u64>()
                    .map_err(|_| invalid("fee", format!("{sun:?} is not an amount of sun.")))?,
            )),
            _ => None,
        };
        let progress = self.wallet_progress();
        let executed = tron_exec::execute_next(
            journal,
            local_id,
            &endpoint,
            key.as_ref(),
            &pay,
            accepted,
            &progress,
            &|_| {},
        )
        .await;
        self.after_wallet_step(local_id, executed).await
    }
}
