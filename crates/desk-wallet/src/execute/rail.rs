//! A chain family as a type: the wallet's rail on Bitcoin, the EVM chains, Tron and Solana.
//!
//! Each family implements [`WalletRail`] once (endpoint check, balance and Max, plan with the chain's own simulation,
//! sign-and-send one confirmed step, resume a journaled transaction); [`rail_for`] chooses the implementation once,
//! from the source chain's family (the families added after Bitcoin and EVM from gateway-client's one list of them,
//! [`gateway_client::with_added_families`], each in `rail/<family>.rs`). The desk's facade (`wallet_balance`,
//! `wallet_plan`, `wallet_step`, `set_chain_endpoints`) and the window and the command line above it never switch on
//! the family: what differs is said here, in [`WalletPlan`]'s and [`WalletBalance`]'s words and numbers.

use gateway_client::address::{ChainFamily, chain_family};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::ledger::{Ledger, OrderToPay, WalletTx, WalletTxKind};
use super::{ExecError, Executed, Unsimulated, WalletTxProgress};
use crate::simulate::Simulation;
use crate::wallet::{Account, Accounts, keeper::Keeper};

/// Declares the rail module of each family the gateway added (`execute/rail/<module>.rs`, whose `Rail` is the
/// family's [`WalletRail`]) and [`added_rail`], which chooses among them, from gateway-client's one list of those
/// families ([`gateway_client::with_added_families`]): adding a family adds its rail file and no line here.
macro_rules! added_rails {
    ($($family:ident => $module:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// The rail of a family the gateway added after Bitcoin and EVM; `None` for those two.
        fn added_rail(family: ChainFamily) -> Option<Box<dyn WalletRail>> {
            match family {
                $(ChainFamily::$family => Some(Box::new($module::Rail)),)*
                _ => None,
            }
        }
    };
}
gateway_client::with_added_families!(added_rails);

/// A future the rail's methods give: boxed, so that the trait is chosen at run time (`dyn WalletRail`).
pub type BoxFuture<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>;

/// One transaction still to be signed, as the confirmation shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "PlannedTx.ts")]
pub struct PlannedTx {
    /// What the transaction does for the order: reset an approval, approve, or pay.
    pub kind: WalletTxKind,
    /// What it does, in words and numbers: `Approve 0.001 WBTC to 0x… (the gateway's contract on bob).`
    pub sentence: String,
    /// The contract (or program, or deposit address) it goes to.
    pub to: String,
    /// The chain's coin sent with it, in its smallest unit (decimal).
    pub value: String,
    /// Its gas limit on an EVM chain, when it can be estimated now: only the first step can be (the order's call
    /// cannot before its approval is mined); later steps are counted at the assumed gas of their kind.
    #[ts(type = "number | null")]
    pub gas_limit: Option<u64>,
    /// The most its network fee can cost, in the smallest unit of the chain's coin (wei, sun, lamports, sats;
    /// decimal): what a confirmation accepts.
    pub max_fee: String,
    /// The same most in the chain's coin, as a person reads it.
    pub max_fee_text: String,
    /// The same most in USD, rounded up to the cent, at the order's quote's own price of the chain's coin (desk-core
    /// fills it in when the quote priced the coin).
    #[serde(default)]
    pub max_fee_usd: Option<String>,
    /// The fee as the confirmation says it: `Network fee at most 0.00082 ETH.`
    pub fee_sentence: String,
    /// Rent a new account the transaction creates may lock, as text (Solana's token accounts; `None` elsewhere).
    pub rent_text: Option<String>,
    /// The fee is high for what is paid and must be accepted explicitly (at least `max_fee`), not only confirmed.
    pub fee_needs_acceptance: bool,
}

/// What executing an order with the app's wallet still takes, and whether the wallet can pay for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "WalletPlan.ts")]
pub struct WalletPlan {
    /// The slug of the chain the transactions are sent on.
    pub chain: String,
    /// The wallet's address that signs.
    pub owner: String,
    /// What the wallet holds there, as a sentence: `Your wallet 0x… holds 0.1 ETH and 20 USDC on ethereum.`
    pub holdings: String,
    /// The transactions still to sign, in order; the first is the one a confirmation signs.
    pub steps: Vec<PlannedTx>,
    /// The native balance, as a person reads it.
    pub native_balance_text: String,
    /// The token balance, when the order pays with a token.
    pub token_balance_text: Option<String>,
    /// Why the order can never be executed any more (Solana: its blockhash expired), as a sentence; nothing is
    /// signed while this is set.
    pub expired: Option<String>,
    /// Why the wallet cannot pay, in numbers; nothing is signed while this is set.
    pub shortfall: Option<String>,
    /// What the chain's own simulation of the steps showed leaving and entering the wallet.
    pub simulation: Simulation,
}

impl WalletPlan {
    /// The holdings sentence of `owner` on `place`.
    pub(crate) fn holdings_of(
        owner: &str,
        native: &str,
        token: Option<&str>,
        place: &str,
    ) -> String {
        match token {
            Some(token) => format!("Your wallet {owner} holds {native} and {token} on {place}."),
            None => format!("Your wallet {owner} holds {native} on {place}."),
        }
    }
}

/// The wallet's balance of one token on one chain, for the swap form's amount field and its Max.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "WalletBalance.ts")]
pub struct WalletBalance {
    /// The chain read: `bitcoin`, an EVM chain's slug, `solana` or `tron`.
    pub chain: String,
    /// The token as asked for: its address, or empty (or the all-zero EVM address) for the chain's native coin.
    pub token: String,
    /// Smallest units (decimal).
    pub amount: String,
    /// What Max puts in the amount field: the balance, less the most the network fee of paying it can cost.
    pub max: String,
    /// The balance in the token's units ("0.0125").
    pub units: String,
    /// Max in the token's units, what the amount field gets when Max is pressed.
    pub max_units: String,
    /// The token's ticker (`ETH`, `USDT`, `BTC`), from the app's list of known tokens.
    pub symbol: String,
    /// Where the figure comes from, for a person.
    pub source: String,
    /// The token is the chain's own coin, the one network fees are paid in.
    pub native: bool,
    /// The most the network fees of paying an order from this wallet can cost, in the smallest unit of the chain's
    /// coin (decimal): what Max of the coin keeps back, and what the coin's balance must cover when a token is paid.
    /// `0` for Bitcoin, whose spendable amount is already net of the fee.
    pub fee_reserve: String,
    /// How `fee_reserve` is counted, in words: `500,000 gas at 1.5 gwei, the chain's gas price now`.
    pub fee_basis: String,
}

/// The most the network fees of paying an order can cost on a chain, and how it is counted in words.
pub(crate) struct FeeReserve {
    /// In the smallest unit of the chain's coin.
    pub amount: alloy::primitives::U256,
    /// `500,000 gas … at 1.5 gwei, the chain's gas price now`.
    pub basis: String,
}

impl WalletBalance {
    /// The balance `amount` and Max `max` of `token` (`native`: the chain's coin) on `chain`, read from `url`, in
    /// the units of the app's list of known tokens.
    pub(crate) fn of(
        chain: &str,
        token: &str,
        native: bool,
        amount: alloy::primitives::U256,
        max: alloy::primitives::U256,
        reserve: FeeReserve,
        url: &str,
    ) -> Result<Self, ExecError> {
        let info = gateway_client::TokenRegistry::builtin()
            .get(
                chain,
                if native {
                    gateway_client::wire::NATIVE_TOKEN
                } else {
                    token
                },
            )
            .ok_or_else(|| ExecError::Invalid {
                field: "token",
                message: format!(
                    "The app does not know the token {token} on {}.",
                    place_of(chain)
                ),
            })?;
        let units = |v| gateway_client::amount::format_units(v, info.decimals);
        Ok(Self {
            chain: chain.to_owned(),
            token: token.to_owned(),
            amount: amount.to_string(),
            max: max.to_string(),
            units: units(amount),
            max_units: units(max),
            symbol: info.symbol.clone(),
            source: format!("read from {chain} ({url})"),
            native,
            fee_reserve: reserve.amount.to_string(),
            fee_basis: reserve.basis,
        })
    }
}

/// `amount` of `token` (`native`: the chain's coin) on `chain` in the token's units with its ticker (`0.5 USDC`), or
/// in the smallest unit when the app does not know the token.
/// With `up`, a most or a shortfall: three significant digits rounded up, so the figure never understates.
fn amount_text(
    chain: &str,
    token: &str,
    native: bool,
    amount: alloy::primitives::U256,
    up: bool,
) -> String {
    let token = if native {
        gateway_client::wire::NATIVE_TOKEN
    } else {
        token
    };
    match gateway_client::TokenRegistry::builtin().get(chain, token) {
        Some(info) => format!(
            "{} {}",
            if up {
                gateway_client::amount::format_units_up(amount, info.decimals, 3)
            } else {
                gateway_client::amount::format_units(amount, info.decimals)
            },
            info.symbol
        ),
        None => format!("{amount} of the token's smallest unit"),
    }
}

/// What the wallet `owner` lacks to pay `amount` of `token` (empty: the chain's coin) on `reach.chain`, network fees
/// included, as a sentence in numbers; `None` when it can pay. Read before an order is created, so that an order the
/// wallet cannot pay is not made: the token's balance must cover the amount, and the chain's coin the most the
/// network fees of paying can cost (with the amount, when the amount is in the coin). Bitcoin's spendable amount is
/// the gateway's, already net of the fee.
pub async fn shortfall_to_pay(
    rail: &dyn WalletRail,
    reach: &Reach,
    owner: &str,
    token: &str,
    amount: alloy::primitives::U256,
) -> Result<Option<String>, ExecError> {
    use alloy::primitives::U256;
    let number = |text: &str| {
        text.parse::<U256>().map_err(|_| {
            ExecError::Unreadable(format!(
                "The balance read on {} is not a number ({text:?}). Try again later.",
                place_of(&reach.chain)
            ))
        })
    };
    let chain = reach.chain.as_str();
    let asked = rail.balance(reach, owner, token).await?;
    let have = number(&asked.amount)?;
    let reserve = number(&asked.fee_reserve)?;
    let text = |token: &str, native: bool, v: U256| amount_text(chain, token, native, v, false);
    let most = |token: &str, native: bool, v: U256| amount_text(chain, token, native, v, true);
    let mut short = Vec::new();
    if asked.native {
        let need = amount.saturating_add(reserve);
        if have < need {
            short.push(if reserve.is_zero() {
                format!(
                    "it can pay {} and the order needs {} ({} short)",
                    text(token, true, have),
                    text(token, true, amount),
                    most(token, true, need - have)
                )
            } else {
                format!(
                    "it holds {} and the order needs {} plus network fees of up to {} ({} short)",
                    text(token, true, have),
                    text(token, true, amount),
                    most(token, true, reserve),
                    most(token, true, need - have)
                )
            });
        }
    } else {
        if have < amount {
            short.push(format!(
                "it holds {} and the order needs {} ({} short)",
                text(token, false, have),
                text(token, false, amount),
                most(token, false, amount - have)
            ));
        }
        if !reserve.is_zero() {
            let coin = rail.balance(reach, owner, "").await?;
            let coin_have = number(&coin.amount)?;
            if coin_have < reserve {
                short.push(format!(
                    "it holds {} for the network fees, which can cost up to {} ({} short)",
                    text("", true, coin_have),
                    most("", true, reserve),
                    most("", true, reserve - coin_have)
                ));
            }
        }
    }
    Ok((!short.is_empty()).then(|| {
        format!(
            "This app's wallet cannot pay this order on {}: {}. Add what is missing to {owner}, or lower the amount \
             and ask for a new quote. No order was created.",
            place_of(chain),
            short.join("; and ")
        )
    }))
}

/// The chain's name in the app's sentences, as a person reads it (`BOB`, `Solana`), from the one table of chains.
pub(crate) fn place_of(chain: &str) -> &str {
    gateway_client::chains::chain_name(chain)
}

/// What an endpoint answered when checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "EndpointCheck.ts")]
pub struct EndpointCheck {
    /// The endpoint checked, as typed without surrounding spaces.
    pub url: String,
    /// The chain id the endpoint answered (0 for Solana and Tron, which have none).
    #[ts(type = "number")]
    pub chain_id: u64,
    /// The newest block the endpoint knows (on Solana, its slot): a stale endpoint shows an old one.
    #[ts(type = "number")]
    pub latest_block: u64,
    /// What it answered as the settings list shows it after the URL: `chain id 60808, latest block 123`, or, on a
    /// chain with no chain id, `the chain itself, latest slot 123` (written by the family's rail).
    pub answered: String,
}

/// Where a rail reaches its chain.
#[derive(Debug, Clone)]
pub struct Reach {
    /// The chain's slug.
    pub chain: String,
    /// Its endpoints, tried in order (on the Sandbox its local node; none where the family is read through the
    /// gateway).
    pub urls: Vec<String>,
    /// The endpoints are the Sandbox's own local chains (their own genesis).
    pub sandbox_nodes: bool,
    /// The Sandbox's own contracts are the ones to approve to and call (the Sandbox, unless its production shape is
    /// on); elsewhere each chain's published entry contract.
    pub sandbox_pins: bool,
}

/// What the person confirmed of the step to sign: its kind, and the most its network fee may cost (smallest unit of
/// the chain's coin, decimal). Either may be absent when only a journaled transaction is to be finished.
#[derive(Debug, Clone, Default)]
pub struct Confirmed {
    /// The step's kind as shown.
    pub kind: Option<WalletTxKind>,
    /// The most its fee may cost, as shown.
    pub max_fee: Option<String>,
}

/// What signing one step needs besides the chain: the wallet's keys, the journal, the person's acceptances and the
/// window's progress events.
pub struct StepContext<'a> {
    /// The wallet's keys (locked: only a journaled transaction can be finished).
    pub keeper: &'a Keeper,
    /// The order journal, where each signed transaction is kept before it is sent.
    pub journal: &'a dyn Ledger,
    /// The order's journal id.
    pub local_id: i64,
    /// The step the person confirmed.
    pub confirmed: Confirmed,
    /// Whether signing without a simulation was accepted for this order, and blind signing is on.
    pub unsimulated: Unsimulated,
    /// The window's progress events.
    pub progress: &'a (dyn Fn(WalletTxProgress) + Send + Sync),
}

/// The wallet's rail on one chain family.
pub trait WalletRail: Send + Sync {
    /// The family this rail serves.
    fn family(&self) -> ChainFamily;

    /// Whether the family is read from its own chain's endpoints (set in Settings, or the Sandbox's nodes); a family
    /// read through the gateway (Bitcoin) has none.
    fn reads_chain(&self) -> bool {
        true
    }

    /// The wallet's account on this family, or why it has none.
    fn account<'a>(&self, accounts: &'a Accounts) -> Result<&'a Account, ExecError>;

    /// Checks one endpoint: it must be `reach.chain` on this network; gives its id and latest block.
    fn check_endpoint<'a>(
        &'a self,
        reach: &'a Reach,
    ) -> BoxFuture<'a, Result<EndpointCheck, ExecError>>;

    /// The balance of `token` (empty: the chain's coin) held by `owner`, and what Max sends: for the chain's coin,
    /// the balance less the most a payment's network fee may cost.
    fn balance<'a>(
        &'a self,
        reach: &'a Reach,
        owner: &'a str,
        token: &'a str,
    ) -> BoxFuture<'a, Result<WalletBalance, ExecError>>;

    /// What the verified `order` still needs signed by `owner`, each step in words and numbers, simulated on the
    /// chain, and whether the wallet can pay. Reads only.
    fn plan<'a>(
        &'a self,
        reach: &'a Reach,
        owner: &'a str,
        order: &'a OrderToPay,
    ) -> BoxFuture<'a, Result<WalletPlan, ExecError>>;

    /// A transaction of the wallet's, done, in one line: `mined: 0x… (approve)`.
    fn done_line(&self, tx: &WalletTx) -> String {
        format!("mined: {} ({})", tx.hash, tx.kind.slug())
    }

    /// Signs and sends the confirmed step of `order` (a journaled transaction without a receipt is finished first,
    /// re-sent as it is) and awaits it.
    fn step<'a>(
        &'a self,
        reach: &'a Reach,
        order: &'a OrderToPay,
        context: StepContext<'a>,
    ) -> BoxFuture<'a, Result<Executed, ExecError>>;
}

/// What choosing a rail needs beyond the family: the gateway (Bitcoin is read and registered through it) and the
/// network's Bitcoin network.
#[derive(Clone)]
pub struct RailSetup {
    /// The gateway's client on the current network.
    pub client: gateway_client::Client,
    /// The current network's Bitcoin network.
    pub bitcoin: gateway_client::address::BitcoinNetwork,
}

/// The rail of `chain`'s family: the one place the family is chosen.
pub fn rail_for(chain: &str, setup: RailSetup) -> Option<Box<dyn WalletRail>> {
    Some(match chain_family(chain)? {
        ChainFamily::Bitcoin => Box::new(super::bitcoin::BitcoinRail::new(setup)),
        ChainFamily::Evm => Box::new(super::evm::EvmRail),
        added => added_rail(added)?,
    })
}

/// The chain an order's source is on, as quoted.
pub fn source_chain(order: &OrderToPay) -> Option<String> {
    gateway_client::wire::Quote::from_json(order.quote.clone())
        .ok()
        .map(|q| q.view().input_amount().chain.clone())
}

/// Refuses an order asked for with another sender than the wallet's address on the source chain: its tokens would
/// be taken from this wallet for an order the gateway lists under someone else.
pub(crate) fn check_sender(order: &OrderToPay, wallet: &str) -> Result<(), ExecError> {
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
        Some(sender) if !same(&sender) => Err(ExecError::NotTheSender(format!(
            "This order was asked for with the sender {sender}, not this app's wallet {wallet}. Sign it with the \
             wallet that holds {sender}, or start over with the app's wallet as the sender. Nothing is signed."
        ))),
        _ => Ok(()),
    }
}

/// Refuses a new signature by `signer` (the wallet's address that signs; `None` while locked) for an order asked for
/// with another sender; a journaled transaction of the order is finished whoever asked.
pub(crate) fn check_signer(order: &OrderToPay, signer: Option<&str>) -> Result<(), ExecError> {
    match signer {
        Some(signer) if !super::has_unfinished_wallet_tx(order) => check_sender(order, signer),
        _ => Ok(()),
    }
}

/// What the plan's first step signs (of `requests`, one per step) and its kind, but only when it is the step the person
/// confirmed (`confirmed`: its kind and the most fee they accepted) and it may cost at most that fee; otherwise why it
/// changed, `costlier` saying how for a fee above the accepted one (a fee that does not read as `T` is above any).
pub(crate) fn confirmed_step<R, T: std::str::FromStr + PartialOrd>(
    steps: Vec<PlannedTx>,
    requests: Vec<R>,
    confirmed: Option<(WalletTxKind, T)>,
    costlier: impl FnOnce(&PlannedTx, T) -> String,
) -> Result<(R, WalletTxKind), ExecError> {
    let (step, request) = steps
        .into_iter()
        .zip(requests)
        .next()
        .ok_or_else(|| ExecError::Changed("nothing is left to sign".into()))?;
    let Some((kind, accepted)) = confirmed else {
        return Err(ExecError::Changed("no step was confirmed".into()));
    };
    if kind != step.kind {
        return Err(ExecError::Changed(format!(
            "the next step is now: {}",
            step.sentence
        )));
    }
    match step.max_fee.parse::<T>() {
        Ok(fee) if fee <= accepted => Ok((request, kind)),
        _ => Err(ExecError::Changed(costlier(&step, accepted))),
    }
}

/// Keeps `signed` in the journal before it is broadcast, so that a crash from here on sends the same bytes again
/// rather than signing anew; then reports it signed and passes the crash hook's `<kind>-journaled` point. Every
/// rail's signing step goes through here between its signature and its broadcast.
pub(crate) fn journal_signed(
    journal: &dyn Ledger,
    local_id: i64,
    signed: &WalletTx,
    progress: &(dyn Fn(WalletTxProgress) + Send + Sync),
    crash: super::CrashHook<'_>,
) -> Result<(), ExecError> {
    journal.wallet_tx_signed(local_id, signed)?;
    tracing::info!(
        local_id,
        chain = signed.chain,
        hash = signed.hash,
        kind = ?signed.kind,
        nonce = signed.nonce,
        "signed and journaled"
    );
    progress(WalletTxProgress::of(
        local_id,
        signed,
        super::ledger::WalletTxState::Signed,
        0,
    ));
    crash(&format!("{}-journaled", signed.kind.slug()));
    Ok(())
}

/// Why an order carries no payment the wallet can sign, as its refusal.
pub(crate) fn unpayable(why: String) -> ExecError {
    ExecError::Refusal(format!("{why} Nothing is signed."))
}

/// A fee the person confirmed, read as an integer of the chain's smallest unit.
pub(crate) fn confirmed_fee<T: std::str::FromStr>(
    fee: Option<&str>,
    unit: &str,
) -> Result<Option<T>, ExecError> {
    fee.map(|fee| {
        fee.parse::<T>().map_err(|_| ExecError::Invalid {
            field: "fee",
            message: format!("{fee:?} is not an amount of {unit}."),
        })
    })
    .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(kind: WalletTxKind, max_fee: &str) -> PlannedTx {
        PlannedTx {
            kind,
            sentence: format!("{} on the chain", kind.slug()),
            to: "0x1111111111111111111111111111111111111111".into(),
            value: "0".into(),
            gas_limit: Some(60_000),
            max_fee: max_fee.into(),
            max_fee_text: format!("{max_fee} units"),
            max_fee_usd: None,
            fee_sentence: String::new(),
            rent_text: None,
            fee_needs_acceptance: false,
        }
    }

    fn changed(result: Result<(&str, WalletTxKind), ExecError>) -> String {
        match result {
            Err(ExecError::Changed(why)) => why,
            other => panic!("expected a change, got {other:?}"),
        }
    }

    fn costlier(step: &PlannedTx, accepted: u64) -> String {
        format!("up to {}, above {accepted}", step.max_fee_text)
    }

    #[test]
    fn every_family_has_its_own_rail_and_an_unknown_chain_none() {
        let setup = || RailSetup {
            client: gateway_client::Client::new(gateway_client::ClientConfig::new(
                "http://127.0.0.1:9".parse().unwrap(),
            ))
            .unwrap(),
            bitcoin: gateway_client::address::BitcoinNetwork::Mainnet,
        };
        for family in ChainFamily::ALL {
            let rail = rail_for(family.first_chain(), setup())
                .unwrap_or_else(|| panic!("{family} has no rail"));
            assert_eq!(rail.family(), family);
        }
        assert!(rail_for("no-such-chain", setup()).is_none());
    }

    #[test]
    fn only_the_confirmed_first_step_within_the_accepted_fee_is_signed() {
        let steps = || {
            vec![
                step(WalletTxKind::Approve, "500"),
                step(WalletTxKind::Pay, "900"),
            ]
        };
        let requests = || vec!["approve", "pay"];
        let confirmed = |kind, fee: u64| Some((kind, fee));
        assert_eq!(
            confirmed_step(
                steps(),
                requests(),
                confirmed(WalletTxKind::Approve, 500),
                costlier
            )
            .unwrap(),
            ("approve", WalletTxKind::Approve)
        );
        assert_eq!(
            changed(confirmed_step(
                steps(),
                requests(),
                confirmed(WalletTxKind::Pay, 900),
                costlier
            )),
            "the next step is now: approve on the chain"
        );
        assert_eq!(
            changed(confirmed_step(
                steps(),
                requests(),
                confirmed(WalletTxKind::Approve, 499),
                costlier
            )),
            "up to 500 units, above 499"
        );
        assert_eq!(
            changed(confirmed_step(
                steps(),
                requests(),
                None::<(WalletTxKind, u64)>,
                costlier
            )),
            "no step was confirmed"
        );
        assert_eq!(
            changed(confirmed_step(
                Vec::new(),
                Vec::<&str>::new(),
                confirmed(WalletTxKind::Pay, 900),
                costlier
            )),
            "nothing is left to sign"
        );
        // A fee that does not read as the chain's amount is above any accepted one.
        assert_eq!(
            changed(confirmed_step(
                vec![step(WalletTxKind::Pay, "lots")],
                vec!["pay"],
                confirmed(WalletTxKind::Pay, u64::MAX),
                costlier
            )),
            "up to lots units, above 18446744073709551615"
        );
    }
}
