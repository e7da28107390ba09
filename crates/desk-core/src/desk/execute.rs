//! The desk's wallet calls, one for every chain family: the wallet's balance and Max, the plan of a verified order
//! (what is still to be signed, in words and numbers, simulated on the chain, and whether the wallet can pay for
//! it), then exactly the step the person confirmed, signed and sent. The family's rail is chosen once, from the
//! chain ([`crate::execute::rail::rail_for`]); desk-core holds the keys.

use tracing::info;

use super::State;
use super::{Desk, DeskEvent, invalid};
use crate::api::{ChainEndpointsView, EndpointCheck};
use crate::error::{DeskError, ErrorKind};
use crate::execute::rail::{
    Confirmed, RailSetup, Reach, StepContext, WalletBalance, WalletPlan, WalletRail, rail_for,
    source_chain,
};
use crate::execute::{ExecError, Executed, Unsimulated, WalletTxProgress};
use crate::journal::WalletTxKind;
use crate::views::OrderView;
use crate::wallet;

/// Writes USD beside each step's most fee, at the order's quote's own price of the chain's coin, where it gives one.
fn price_fees(plan: &mut WalletPlan, quote: &serde_json::Value) {
    let Ok(quote) = gateway_client::wire::Quote::from_json(quote.clone()) else {
        return;
    };
    for step in &mut plan.steps {
        step.max_fee_usd = step
            .max_fee
            .parse()
            .ok()
            .and_then(|fee| crate::views::coin_usd_up(quote.view(), &plan.chain, fee));
    }
}

/// How long the quote card waits for the source chain's fee figures off the Sandbox.
pub const OWN_FEE_WAIT: std::time::Duration = std::time::Duration::from_secs(4);

/// Public JSON-RPC endpoints of the EVM chains the gateway routes and of Solana, tried in order (failing over); each
/// must answer the chain's id (Solana: mainnet-beta's genesis hash) before anything is signed. Never probed beyond
/// this list.
pub fn default_endpoints(chain: &str) -> &'static [&'static str] {
    gateway_client::chains::chain(chain).map_or(&[], |c| c.public_rpcs)
}

/// The families whose chains have endpoints the app sets, as a sentence lists them ("EVM, Tron and Solana").
fn families_with_endpoints() -> String {
    use gateway_client::chains::{ChainFamily, in_a_sentence};
    let names: Vec<&str> = ChainFamily::ALL
        .into_iter()
        .filter(|family| family.has_endpoints())
        .map(|family| family.name())
        .collect();
    in_a_sentence(&names, "and")
}

/// The endpoints of `chain` on the current network: those chosen in Settings, else the public defaults.
fn endpoints_of(state: &State, chain: &str) -> (Vec<String>, bool) {
    match state
        .settings
        .networks
        .get(&state.network.kind)
        .and_then(|p| p.chain_rpc.get(chain))
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
pub(crate) fn endpoints_view(state: &State) -> Vec<ChainEndpointsView> {
    if state.network.sandbox_chains.is_some() {
        return Vec::new();
    }
    gateway_client::chains::chains_with_endpoints()
        .map(|chain| {
            let (urls, custom) = endpoints_of(state, chain);
            ChainEndpointsView {
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
    let url = url::Url::parse(text.trim()).map_err(|e| bad(&crate::network::url_problem(e)))?;
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

fn exec_error(e: impl Into<ExecError>) -> DeskError {
    let e: ExecError = e.into();
    let kind = match e {
        ExecError::Gateway(e) => return DeskError::from(*e),
        ExecError::Wallet(e) => return DeskError::from(e),
        ExecError::Invalid { field, message } => return invalid(field, message),
        ExecError::NotEnough(_)
        | ExecError::WouldRevert { .. }
        | ExecError::Changed(_)
        | ExecError::Surprise { .. }
        | ExecError::NotSimulated { .. }
        | ExecError::NotTheSender(_)
        | ExecError::Refusal(_) => ErrorKind::Refused,
        ExecError::Journal(_) => ErrorKind::Journal,
        ExecError::Sign(_) | ExecError::Unsigned(_) => ErrorKind::Wallet,
        _ => ErrorKind::Transport,
    };
    DeskError::new(kind, e.to_string())
}

impl Desk {
    /// The rail of `chain`'s family: the one place the family is chosen.
    async fn rail(&self, chain: &str) -> Result<Box<dyn WalletRail>, DeskError> {
        let setup = {
            let state = self.state.lock().await;
            RailSetup {
                client: state.network.client.clone(),
                bitcoin: state.network.bitcoin,
            }
        };
        rail_for(chain, setup).ok_or_else(|| {
            invalid(
                "chain",
                format!("{chain:?} is not a chain the app's wallet pays from."),
            )
        })
    }

    /// The rail of the chain `order` pays from.
    async fn rail_of(
        &self,
        order: &crate::execute::OrderToPay,
    ) -> Result<(String, Box<dyn WalletRail>), DeskError> {
        let chain = source_chain(order).ok_or_else(|| {
            DeskError::new(
                ErrorKind::Refused,
                "This order's quote is unreadable, so nothing is signed. Discard it and start again.",
            )
        })?;
        let rail = self.rail(&chain).await?;
        Ok((chain, rail))
    }

    /// Where `rail` reaches `chain`: on the Sandbox its local node (started, and `owner` funded on it, on first use),
    /// elsewhere the endpoints chosen in Settings or the public defaults, in order; none for a family read through
    /// the gateway.
    async fn reach(
        &self,
        rail: &dyn WalletRail,
        chain: &str,
        owner: Option<&str>,
    ) -> Result<Reach, DeskError> {
        let (sandbox, chosen, sandbox_pins) = {
            let state = self.state.lock().await;
            (
                state.network.sandbox_chains.clone(),
                endpoints_of(&state, chain).0,
                state.network.sandbox_chains.is_some() && !state.settings.production_shape(),
            )
        };
        let urls = match (&sandbox, rail.reads_chain()) {
            (_, false) => Vec::new(),
            (Some(chains), true) => vec![chains.url_for(chain, owner).await?],
            (None, true) => chosen,
        };
        Ok(Reach {
            chain: chain.to_owned(),
            urls,
            sandbox_nodes: sandbox.is_some(),
            sandbox_pins,
        })
    }

    /// The unlocked wallet's address on `rail`'s family.
    async fn owner_on(&self, rail: &dyn WalletRail) -> Result<String, DeskError> {
        let accounts = self.wallet_accounts().await?;
        Ok(rail.account(&accounts).map_err(exec_error)?.address.clone())
    }

    /// Sets the endpoints of `chain` (an EVM chain, Solana or Tron) on the current network (tried in order; empty:
    /// back to the public defaults). Each must be an http(s) URL; at most five.
    pub async fn set_chain_endpoints(
        &self,
        chain: &str,
        urls: &[String],
    ) -> Result<crate::api::SettingsView, DeskError> {
        if default_endpoints(chain).is_empty() {
            return Err(invalid(
                "chain",
                format!(
                    "{chain:?} is not a chain whose endpoints the app sets: those are the {} chains.",
                    families_with_endpoints()
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
            next.prefs_mut(kind).chain_rpc.remove(chain);
        } else {
            next.prefs_mut(kind)
                .chain_rpc
                .insert(chain.to_owned(), clean);
        }
        crate::settings::save(&self.paths.settings_file(), &next)?;
        state.settings = next;
        info!(network = kind.slug(), chain, "chain endpoints set");
        Ok(self.view(&state))
    }

    /// Checks one endpoint of `chain`: it must answer as that chain on the public network (an EVM chain's id,
    /// Solana's genesis hash, Tron's block 0); gives its id and latest block.
    pub async fn check_chain_endpoint(
        &self,
        chain: &str,
        url: &str,
    ) -> Result<EndpointCheck, DeskError> {
        let url = endpoint_url(url)?;
        let rail = self.rail(chain).await?;
        let reach = Reach {
            chain: chain.to_owned(),
            urls: vec![url],
            sandbox_nodes: false,
            sandbox_pins: false,
        };
        rail.check_endpoint(&reach).await.map_err(exec_error)
    }

    /// The wallet's balance of `token` (empty: the chain's coin) on `chain`, and what Max sends: read from the chain
    /// (on the Sandbox its local node), Bitcoin from the gateway's `get-max-spendable` (what a PSBT from the wallet
    /// can pay after the network fee). Max of a chain's coin keeps what paying it may cost in fees.
    pub async fn wallet_balance(
        &self,
        chain: &str,
        token: &str,
    ) -> Result<WalletBalance, DeskError> {
        let rail = self.rail(chain).await?;
        let owner = self.owner_on(rail.as_ref()).await?;
        let reach = self.reach(rail.as_ref(), chain, Some(&owner)).await?;
        rail.balance(&reach, &owner, token)
            .await
            .map_err(exec_error)
    }

    /// Refuses, before an order is created, a quote the app's wallet is to pay (its sender is the wallet's account on
    /// the source chain) but cannot: the amount and the most the network fees of paying can cost, against what the
    /// wallet holds there ([`crate::execute::rail::shortfall_to_pay`]). The refusal is about the amount and says what
    /// is missing in numbers. A quote another wallet pays (another sender, none, or the wallet locked) is not the
    /// app's to check. When the balance cannot be read, no order is made either: the wallet could not pay it then.
    pub(crate) async fn refuse_unpayable(
        &self,
        quote: &gateway_client::wire::Quote,
    ) -> Result<(), DeskError> {
        let view = quote.view();
        let input = view.input_amount();
        let Some(sender) = view.sender() else {
            return Ok(());
        };
        let Ok(accounts) = self.wallet_accounts().await else {
            return Ok(());
        };
        let Ok(rail) = self.rail(&input.chain).await else {
            return Ok(());
        };
        let Ok(account) = rail.account(&accounts) else {
            return Ok(());
        };
        let owner = account.address.clone();
        if !gateway_client::address::same_account(rail.family(), &owner, sender) {
            return Ok(());
        }
        let amount: alloy_primitives::U256 = input.amount.parse().map_err(|_| {
            invalid(
                "quote",
                "The quote's amount is not a whole number of the token's smallest unit. Ask for a new quote.",
            )
        })?;
        let reach = self
            .reach(rail.as_ref(), &input.chain, Some(&owner))
            .await?;
        match crate::execute::rail::shortfall_to_pay(
            rail.as_ref(),
            &reach,
            &owner,
            &input.address,
            amount,
        )
        .await
        {
            Ok(None) => Ok(()),
            Ok(Some(short)) => {
                info!(chain = %input.chain, "order refused before creation: the wallet cannot pay it");
                Err(invalid("amount", short))
            }
            Err(e) => {
                let mut error = exec_error(e);
                error.message = format!(
                    "The app could not read what your wallet holds on {}, so no order was created: {}",
                    input.chain,
                    error.message.trim_end()
                );
                Err(error)
            }
        }
    }

    /// The person's own network fee of paying `quote` on its source chain, read now, with the total cost beside the
    /// gateway's fees (`total_fees_usd`): the quote card's line. Off the Sandbox the reading waits at most
    /// [`OWN_FEE_WAIT`]; a reading that fails or is late leaves the card without the figure, saying why.
    pub(crate) async fn own_fee(
        &self,
        quote: &gateway_client::wire::Quote,
        total_fees_usd: Option<&str>,
    ) -> crate::views::OwnFeeView {
        let sandbox = self.state.lock().await.network.sandbox_gateway().is_some();
        let reading = if sandbox {
            self.read_own_fee(quote, true).await
        } else {
            tokio::time::timeout(OWN_FEE_WAIT, self.read_own_fee(quote, false))
                .await
                .unwrap_or_else(|_| {
                    Err(format!(
                        "The source chain did not answer within {} seconds. The Sign step reads it again before \
                         anything is signed.",
                        OWN_FEE_WAIT.as_secs()
                    ))
                })
        };
        crate::views::own_fee_view(quote.view(), total_fees_usd, reading)
    }

    async fn read_own_fee(
        &self,
        quote: &gateway_client::wire::Quote,
        sandbox: bool,
    ) -> Result<crate::views::OwnFeeReading, String> {
        use crate::views::{OwnFeeKind, OwnFeeReading};
        let view = quote.view();
        let chain = view.input_amount().chain.as_str();
        if view.route() == crate::api::RouteKind::Onramp {
            let vsize = crate::verify::wallet_deposit_vsize();
            let (rate, source) = if sandbox {
                (
                    crate::verify::SANDBOX_FEE_RATE_SAT_VB,
                    "the Sandbox's fee rate".to_owned(),
                )
            } else {
                let source = {
                    let state = self.state.lock().await;
                    state.settings.fee_source(state.network.kind)
                };
                let source = source.ok_or_else(|| {
                    "This network has no Bitcoin fee source to read the rate from (Settings, Advanced). The \
                     gateway's PSBT states its fee at the Sign step."
                        .to_owned()
                })?;
                let rate = crate::fees::fastest_fee(&source).await.map_err(|why| {
                    format!("The Bitcoin fee rate could not be read: {why}. The gateway's PSBT states its fee at the Sign step.")
                })?;
                (rate, format!("the network's fast rate now ({source})"))
            };
            return Ok(OwnFeeReading {
                kind: OwnFeeKind::About,
                amount: alloy_primitives::U256::from(vsize.saturating_mul(rate)),
                basis: format!(
                    "About {vsize} vB, a payment from one coin of your wallet with the order's OP_RETURN and change, \
                     at {rate} sat/vB, {source}. The gateway's PSBT sets the exact fee, shown at the Sign step."
                ),
            });
        }
        let fail = |e: DeskError| e.message;
        let rail = self.rail(chain).await.map_err(fail)?;
        let ours = match self.wallet_accounts().await {
            Ok(accounts) => rail.account(&accounts).ok().map(|a| a.address.clone()),
            Err(_) => None,
        };
        let owner = match (view.sender(), ours) {
            (Some(sender), Some(ours))
                if gateway_client::address::same_account(rail.family(), sender, &ours) =>
            {
                ours
            }
            // The Sandbox's chains are the app's own, run for its wallet: another wallet's fee is not read there
            // (reading would start a chain no one pays on).
            (Some(sender), _) if sandbox => {
                return Err(format!(
                    "Paid from {sender}, not from this app's wallet: that wallet sets its own network fee. The \
                     Sign step shows the transaction it signs."
                ));
            }
            (Some(sender), _) => sender.to_owned(),
            (None, Some(ours)) => ours,
            (None, None) => {
                return Err(
                    "Read once the sender is known: unlock the wallet, or type the address that pays.".to_owned(),
                );
            }
        };
        let reach = self
            .reach(rail.as_ref(), chain, Some(&owner))
            .await
            .map_err(fail)?;
        let balance = rail
            .balance(&reach, &owner, "")
            .await
            .map_err(|e| exec_error(e).message)?;
        let amount = balance
            .fee_reserve
            .parse()
            .map_err(|_| "The chain's fee figures are not numbers.".to_owned())?;
        Ok(OwnFeeReading {
            kind: OwnFeeKind::AtMost,
            amount,
            basis: format!(
                "The most paying it can cost: {}. The Sign step reads it again, exactly, before anything is signed.",
                balance.fee_basis
            ),
        })
    }

    /// What a verified order still needs the wallet to sign, each step in words and numbers, simulated on the chain,
    /// and whether the wallet can pay for it. Reads only.
    pub async fn wallet_plan(&self, local_id: i64) -> Result<WalletPlan, DeskError> {
        let order = self.journal()?.order(local_id)?.to_pay();
        let (chain, rail) = self.rail_of(&order).await?;
        let owner = self.owner_on(rail.as_ref()).await?;
        let reach = self.reach(rail.as_ref(), &chain, Some(&owner)).await?;
        let mut plan = rail
            .plan(&reach, &owner, &order)
            .await
            .map_err(exec_error)?;
        price_fees(&mut plan, &order.quote);
        Ok(plan)
    }

    /// Signs and sends the next wallet step of a verified order — only the step the person confirmed (`kind`) and
    /// only if its network fee costs at most `accepted_max_fee` (the chain's smallest unit) — and awaits it. A
    /// journaled transaction without a receipt is finished first (re-sent as it is). When the order's payment is
    /// done, it is handed in and registered. When the chain's endpoint cannot simulate, the step is signed only with
    /// `accept_unsimulated` and blind signing on for the network.
    pub async fn wallet_step(
        &self,
        local_id: i64,
        kind: Option<WalletTxKind>,
        accepted_max_fee: Option<&str>,
        accept_unsimulated: bool,
    ) -> Result<OrderView, DeskError> {
        let journal = self.journal()?;
        let order = journal.order(local_id)?.to_pay();
        let (chain, rail) = self.rail_of(&order).await?;
        let unsimulated = Unsimulated {
            accepted: accept_unsimulated,
            blind_signing: self.blind_signing_on().await,
        };
        // Locked: no owner to fund or check; only a journaled transaction can be finished.
        let network = self.state.lock().await.network.bitcoin;
        let owner = self
            .wallet
            .with_seed(|seed| wallet::accounts(seed, network))
            .and_then(Result::ok)
            .and_then(|accounts| rail.account(&accounts).ok().map(|a| a.address.clone()));
        let reach = self.reach(rail.as_ref(), &chain, owner.as_deref()).await?;
        let progress = self.wallet_progress();
        let executed = rail
            .step(
                &reach,
                &order,
                StepContext {
                    keeper: &self.wallet,
                    journal,
                    local_id,
                    confirmed: Confirmed {
                        kind,
                        max_fee: accepted_max_fee.map(str::to_owned),
                    },
                    unsimulated,
                    progress: &progress,
                },
            )
            .await;
        self.after_wallet_step(local_id, executed).await
    }

    /// A transaction of the wallet's, done, in one line in its chain's words (`mined: 0x… (approve)`).
    pub async fn wallet_tx_line(&self, tx: &crate::journal::WalletTx) -> Result<String, DeskError> {
        Ok(self.rail(&tx.chain).await?.done_line(tx))
    }

    /// After a wallet step: the order's change told to the window; once the order's payment is done, what it gave
    /// (a transaction hash, or Bitcoin's signed transaction) handed in and registered.
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

    /// The order's payment, done: what it gave handed in and registered, the order tracked.
    async fn register_paid(&self, local_id: i64, paid: &str) -> Result<(), DeskError> {
        info!(local_id, "paid; registering");
        // As a transaction the person hands in: journaled, registered (or left to the chain), and followed.
        self.hand_in(local_id, paid).await.map(drop)
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
    fn wallet_progress(&self) -> impl Fn(WalletTxProgress) + Send + Sync + use<> {
        let events = self.events.clone();
        move |p: WalletTxProgress| {
            let _ = events.send(DeskEvent::WalletTx { progress: p });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{endpoint_url, families_with_endpoints};

    #[test]
    fn the_families_with_endpoints_are_listed_from_the_chain_table() {
        // Bitcoin's payments go through the gateway, so the app sets no endpoint for it.
        assert_eq!(families_with_endpoints(), "EVM, Tron and Solana");
    }

    #[test]
    fn an_endpoint_without_https_gets_a_sentence() {
        let message = endpoint_url("rpc.example.com").unwrap_err().message;
        assert!(
            message.contains("it does not start with https://"),
            "{message}"
        );
        assert!(!message.contains("relative URL"), "{message}");
        assert_eq!(
            endpoint_url(" https://rpc.example.com ").unwrap(),
            "https://rpc.example.com"
        );
    }
}
