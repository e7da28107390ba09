//! The wallet's Tauri commands. The window never holds a key: it asks `desk-core` to create, unlock or sign, and
//! receives addresses, states and, only when it is created or explicitly revealed behind the password, the phrase's
//! words. Passwords and phrases arrive as arguments and are not logged (`desk-core` logs what happened, never them).

use desk_core::desk::{NewPhrase, WalletView};
use desk_core::views::OrderView;
use desk_core::{Desk, DeskError};
use tauri::State;

/// The wallet as it stands.
#[tauri::command]
pub async fn wallet_status(desk: State<'_, Desk>) -> Result<WalletView, DeskError> {
    Ok(desk.wallet().await)
}

/// A new recovery phrase, shown once, and which words to type back.
#[tauri::command]
pub async fn wallet_new(desk: State<'_, Desk>, words: usize) -> Result<NewPhrase, DeskError> {
    desk.wallet_new(words).await
}

/// Checks the typed-back words, then keeps the new wallet under `password`.
#[tauri::command]
pub async fn wallet_confirm_new(
    desk: State<'_, Desk>,
    answers: Vec<String>,
    password: String,
) -> Result<WalletView, DeskError> {
    desk.wallet_confirm_new(&answers, &zeroizing(password))
        .await
}

/// Forgets a new phrase that was not checked.
#[tauri::command]
pub async fn wallet_cancel_new(desk: State<'_, Desk>) -> Result<(), DeskError> {
    desk.wallet_cancel_new();
    Ok(())
}

/// Imports a recovery phrase with its optional passphrase, kept under `password`.
#[tauri::command]
pub async fn wallet_import(
    desk: State<'_, Desk>,
    phrase: String,
    passphrase: String,
    password: String,
) -> Result<WalletView, DeskError> {
    let (phrase, passphrase, password) = (
        zeroizing(phrase),
        zeroizing(passphrase),
        zeroizing(password),
    );
    desk.wallet_import(&phrase, &passphrase, &password).await
}

/// Unlocks the wallet.
#[tauri::command]
pub async fn wallet_unlock(
    desk: State<'_, Desk>,
    password: String,
) -> Result<WalletView, DeskError> {
    desk.wallet_unlock(&zeroizing(password)).await
}

/// Locks the wallet now.
#[tauri::command]
pub async fn wallet_lock(desk: State<'_, Desk>) -> Result<WalletView, DeskError> {
    Ok(desk.wallet_lock().await)
}

/// The recovery phrase's words, behind the password.
#[tauri::command]
pub async fn wallet_reveal(
    desk: State<'_, Desk>,
    password: String,
) -> Result<Vec<String>, DeskError> {
    desk.wallet_reveal(&zeroizing(password)).await
}

/// Removes the wallet (the window confirms first).
#[tauri::command]
pub async fn wallet_remove(desk: State<'_, Desk>) -> Result<WalletView, DeskError> {
    desk.wallet_remove().await
}

/// Imports a single private key of one chain family, sealed under the app password.
#[tauri::command]
pub async fn wallet_import_key(
    desk: State<'_, Desk>,
    family: desk_core::wallet::KeyFamily,
    key: String,
    password: String,
) -> Result<WalletView, DeskError> {
    let (key, password) = (zeroizing(key), zeroizing(password));
    desk.wallet_import_key(family, &key, &password).await
}

/// Signs an order with the wallet, registers it and follows it.
#[tauri::command]
pub async fn sign_with_wallet(
    desk: State<'_, Desk>,
    local_id: i64,
    accepted_fee_sats: Option<u64>,
) -> Result<OrderView, DeskError> {
    desk.sign_with_wallet(local_id, accepted_fee_sats).await
}

/// Wipes a secret argument when the command is done with it.
fn zeroizing(text: String) -> zeroize::Zeroizing<String> {
    zeroize::Zeroizing::new(text)
}

/// What the wallet can spend on `chain` (Bitcoin for now), for the swap form's "Max".
#[tauri::command]
pub async fn wallet_balance(
    desk: State<'_, Desk>,
    chain: String,
) -> Result<desk_core::desk::WalletBalance, DeskError> {
    desk.wallet_balance(&chain).await
}

/// The wallet's balance of `token` on the EVM chain `chain`, with what "Max" puts in the amount field.
#[tauri::command]
pub async fn wallet_evm_balance(
    desk: State<'_, Desk>,
    chain: String,
    token: String,
) -> Result<desk_core::desk::EvmBalance, DeskError> {
    desk.wallet_evm_balance(&chain, &token).await
}

/// What a verified offramp or token swap still needs the wallet to sign, in words and numbers.
#[tauri::command]
pub async fn wallet_evm_plan(
    desk: State<'_, Desk>,
    local_id: i64,
) -> Result<desk_core::execute::evm::EvmPlan, DeskError> {
    desk.wallet_evm_plan(local_id).await
}

/// Signs and broadcasts the step the person confirmed (at no more than the gas fee they accepted), awaits its
/// receipt, and registers the order once its payment is mined.
#[tauri::command]
pub async fn wallet_evm_step(
    desk: State<'_, Desk>,
    local_id: i64,
    kind: desk_core::journal::WalletTxKind,
    accepted_max_fee_wei: String,
) -> Result<OrderView, DeskError> {
    desk.wallet_evm_step(local_id, Some(kind), Some(&accepted_max_fee_wei))
        .await
}

/// What signing a verified Solana offramp or token swap sends and costs (the fee of its exact message), whether the
/// wallet can pay, and whether its blockhash is still valid. Reads only.
#[tauri::command]
pub async fn wallet_solana_plan(
    desk: State<'_, Desk>,
    local_id: i64,
) -> Result<desk_core::execute::solana::SolanaPlan, DeskError> {
    desk.wallet_solana_plan(local_id).await
}

/// Signs and sends the order's Solana transaction (at no more than the fee the person accepted), follows it until
/// it is confirmed, and registers its signature.
#[tauri::command]
pub async fn wallet_solana_step(
    desk: State<'_, Desk>,
    local_id: i64,
    accepted_fee_lamports: String,
) -> Result<OrderView, DeskError> {
    desk.wallet_solana_step(local_id, Some(&accepted_fee_lamports))
        .await
}
