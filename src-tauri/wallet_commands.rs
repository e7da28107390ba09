//! The wallet's Tauri commands. The window never holds a key: it asks `desk-core` to create, unlock or sign, and
//! receives addresses, states and, only when it is created or explicitly revealed behind the password, the phrase's
//! words. Passwords and phrases arrive as arguments and are not logged (`desk-core` logs what happened, never them);
//! their `…Args` structs derive neither `Debug` nor `Serialize`, and each secret is wiped once the command is done
//! with it. The arguments' structs follow `commands.rs`'s rules (one `<Command>Args` per command, sent as `{ args }`).

use desk_core::desk::{NewPhrase, WalletView};
use desk_core::views::OrderView;
use desk_core::{Desk, DeskError};
use serde::Deserialize;
use tauri::State;

/// The wallet as it stands.
#[tauri::command]
pub async fn wallet_status(desk: State<'_, Desk>) -> Result<WalletView, DeskError> {
    Ok(desk.wallet().await)
}

/// The arguments of the `wallet_new` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct WalletNewArgs {
    /// How many words the phrase has (12 or 24).
    words: usize,
}

/// A new recovery phrase, shown once, and which words to type back.
#[tauri::command]
pub async fn wallet_new(
    desk: State<'_, Desk>,
    args: WalletNewArgs,
) -> Result<NewPhrase, DeskError> {
    desk.wallet_new(args.words).await
}

/// The arguments of the `wallet_confirm_new` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct WalletConfirmNewArgs {
    /// The words typed back, in the order asked.
    answers: Vec<String>,
    /// The app password the new wallet is kept under.
    password: String,
}

/// Checks the typed-back words, then keeps the new wallet under `password`.
#[tauri::command]
pub async fn wallet_confirm_new(
    desk: State<'_, Desk>,
    args: WalletConfirmNewArgs,
) -> Result<WalletView, DeskError> {
    let WalletConfirmNewArgs { answers, password } = args;
    desk.wallet_confirm_new(&answers, &zeroizing(password))
        .await
}

/// Forgets a new phrase that was not checked.
#[tauri::command]
pub async fn wallet_cancel_new(desk: State<'_, Desk>) -> Result<(), DeskError> {
    desk.wallet_cancel_new();
    Ok(())
}

/// The arguments of the `wallet_import` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct WalletImportArgs {
    /// The recovery phrase's words.
    phrase: String,
    /// Its optional passphrase (empty: none).
    passphrase: String,
    /// The app password the wallet is kept under.
    password: String,
}

/// Imports a recovery phrase with its optional passphrase, kept under `password`.
#[tauri::command]
pub async fn wallet_import(
    desk: State<'_, Desk>,
    args: WalletImportArgs,
) -> Result<WalletView, DeskError> {
    let WalletImportArgs {
        phrase,
        passphrase,
        password,
    } = args;
    let (phrase, passphrase, password) = (
        zeroizing(phrase),
        zeroizing(passphrase),
        zeroizing(password),
    );
    desk.wallet_import(&phrase, &passphrase, &password).await
}

/// The arguments of the `wallet_unlock` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct WalletUnlockArgs {
    /// The app password.
    password: String,
}

/// Unlocks the wallet.
#[tauri::command]
pub async fn wallet_unlock(
    desk: State<'_, Desk>,
    args: WalletUnlockArgs,
) -> Result<WalletView, DeskError> {
    desk.wallet_unlock(&zeroizing(args.password)).await
}

/// Locks the wallet now.
#[tauri::command]
pub async fn wallet_lock(desk: State<'_, Desk>) -> Result<WalletView, DeskError> {
    Ok(desk.wallet_lock().await)
}

/// The arguments of the `wallet_reveal` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct WalletRevealArgs {
    /// The app password.
    password: String,
}

/// The recovery phrase's words, behind the password.
#[tauri::command]
pub async fn wallet_reveal(
    desk: State<'_, Desk>,
    args: WalletRevealArgs,
) -> Result<Vec<String>, DeskError> {
    desk.wallet_reveal(&zeroizing(args.password)).await
}

/// Removes the wallet (the window confirms first).
#[tauri::command]
pub async fn wallet_remove(desk: State<'_, Desk>) -> Result<WalletView, DeskError> {
    desk.wallet_remove().await
}

/// The arguments of the `wallet_import_key` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct WalletImportKeyArgs {
    /// The chain family the key belongs to.
    family: desk_core::wallet::KeyFamily,
    /// The private key.
    key: String,
    /// The app password the key is sealed under.
    password: String,
}

/// Imports a single private key of one chain family, sealed under the app password.
#[tauri::command]
pub async fn wallet_import_key(
    desk: State<'_, Desk>,
    args: WalletImportKeyArgs,
) -> Result<WalletView, DeskError> {
    let WalletImportKeyArgs {
        family,
        key,
        password,
    } = args;
    let (key, password) = (zeroizing(key), zeroizing(password));
    desk.wallet_import_key(family, &key, &password).await
}

/// Wipes a secret argument when the command is done with it.
fn zeroizing(text: String) -> zeroize::Zeroizing<String> {
    zeroize::Zeroizing::new(text)
}

/// The arguments of the `wallet_balance` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct WalletBalanceArgs {
    /// The chain's slug.
    chain: String,
    /// The token's address on that chain (empty: the chain's coin).
    #[serde(default)]
    token: String,
}

/// The wallet's balance of `token` on `chain` (any family), with what "Max" puts in the amount field.
#[tauri::command]
pub async fn wallet_balance(
    desk: State<'_, Desk>,
    args: WalletBalanceArgs,
) -> Result<desk_core::desk::WalletBalance, DeskError> {
    desk.wallet_balance(&args.chain, &args.token).await
}

/// The arguments of the `wallet_plan` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct WalletPlanArgs {
    /// The journal's id of the order.
    #[cfg_attr(test, ts(type = "number"))]
    local_id: i64,
}

/// What a verified order still needs the wallet to sign, in words and numbers, simulated on the chain.
#[tauri::command]
pub async fn wallet_plan(
    desk: State<'_, Desk>,
    args: WalletPlanArgs,
) -> Result<desk_core::execute::rail::WalletPlan, DeskError> {
    desk.wallet_plan(args.local_id).await
}

/// The arguments of the `wallet_step` command.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(export_to = "args/"))]
pub struct WalletStepArgs {
    /// The journal's id of the order.
    #[cfg_attr(test, ts(type = "number"))]
    local_id: i64,
    /// The step the person confirmed.
    kind: Option<desk_core::journal::WalletTxKind>,
    /// The most network fee the person accepted, in the smallest unit of the chain's coin (decimal); on Bitcoin only
    /// when the fee is high and they accepted it.
    accepted_max_fee: Option<String>,
    /// The person accepted signing this order without the chain's simulation (its endpoint cannot simulate);
    /// counts only with blind signing on for the network.
    #[serde(default)]
    accept_unsimulated: bool,
}

/// Signs and sends the step the person confirmed (at no more than the fee they accepted), awaits it, and registers
/// the order once its payment is done.
#[tauri::command]
pub async fn wallet_step(
    desk: State<'_, Desk>,
    args: WalletStepArgs,
) -> Result<OrderView, DeskError> {
    desk.wallet_step(
        args.local_id,
        args.kind,
        args.accepted_max_fee.as_deref(),
        args.accept_unsimulated,
    )
    .await
}
