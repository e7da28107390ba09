//! The app's wallet through the desk, on the embedded Sandbox: created (shown once, checked), locked and unlocked,
//! revealed only behind its password, removed; an onramp signed with it from quote to "success"; a PSBT that pays
//! someone else refused before anything is signed; and the secret found in no file the app wrote and in no event.
//!
//! The wallet is one keychain entry per process (the mock store here), so the tests of this binary take turns.

use crate::common;

use desk_core::desk::WalletState;
use desk_core::journal::Stage;
use desk_core::{DeskEvent, ErrorKind};

use common::{card, complete_onramp, onramp_form, open};

use crate::TURN;

const PASSWORD: &str = "correct horse battery";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_wallet_is_checked_kept_locked_revealed_and_removed() {
    let _turn = TURN.lock().await;
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let _ = desk.wallet_remove().await;
    assert_eq!(desk.wallet().await.state, WalletState::None);

    assert_eq!(
        desk.wallet_new(13).await.unwrap_err().kind,
        ErrorKind::InvalidInput
    );
    let new = desk.wallet_new(12).await.unwrap();
    assert_eq!(new.words.len(), 12);
    assert_eq!(new.check_positions.len(), 3);
    // Nothing is kept before the check.
    assert_eq!(desk.wallet().await.state, WalletState::None);
    let right: Vec<String> = new
        .check_positions
        .iter()
        .map(|p| new.words[p - 1].clone())
        .collect();
    let mut wrong = right.clone();
    wrong[0] = "zoo".into();
    if wrong[0] == right[0] {
        wrong[0] = "zone".into();
    }
    let refused = desk.wallet_confirm_new(&wrong, PASSWORD).await.unwrap_err();
    assert!(refused.message.contains("do not match") || refused.message.contains("does not match"));
    assert_eq!(desk.wallet().await.state, WalletState::None);
    let short = desk.wallet_confirm_new(&right, "short").await.unwrap_err();
    assert!(short.message.contains("at least 10"), "{}", short.message);
    let view = desk.wallet_confirm_new(&right, PASSWORD).await.unwrap();
    assert_eq!(view.state, WalletState::Unlocked);
    let accounts = view.accounts.expect("addresses while unlocked");
    assert!(
        accounts
            .bitcoin()
            .ok()
            .unwrap()
            .address
            .starts_with("bcrt1q"),
        "{accounts:?}"
    );
    assert_eq!(accounts.bitcoin().ok().unwrap().path, "m/84'/1'/0'/0/0");

    // A second wallet does not overwrite the first.
    assert_eq!(
        desk.wallet_import(&new.words.join(" "), "", PASSWORD)
            .await
            .unwrap_err()
            .kind,
        ErrorKind::Wallet
    );

    let mut events = desk.subscribe();
    let locked = desk.wallet_lock().await;
    assert_eq!(locked.state, WalletState::Locked);
    assert!(locked.accounts.is_none());
    assert!(matches!(
        events.recv().await.unwrap(),
        DeskEvent::WalletLocked
    ));
    let wrong_password = desk.wallet_unlock("not the password").await.unwrap_err();
    assert!(wrong_password.message.contains("password is wrong"));
    assert_eq!(desk.wallet().await.state, WalletState::Locked);
    assert!(desk.wallet_reveal("not the password").await.is_err());
    assert_eq!(desk.wallet_reveal(PASSWORD).await.unwrap(), new.words);
    let unlocked = desk.wallet_unlock(PASSWORD).await.unwrap();
    assert_eq!(unlocked.accounts.unwrap(), accounts);

    let removed = desk.wallet_remove().await.unwrap();
    assert_eq!(removed.state, WalletState::None);
    assert!(desk.wallet_accounts().await.is_err());
    desk.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imported_wallet_with_a_passphrase_has_its_own_addresses_and_locks_when_idle() {
    let _turn = TURN.lock().await;
    let home = tempfile::tempdir().unwrap();
    common::mock_keychain();
    let desk = desk_sandbox::open_desk_with(
        desk_core::AppPaths::under(home.path()),
        desk_core::DeskOptions {
            kdf: Some(desk_core::wallet::vault::KdfProfile::TEST_ONLY),
            wallet_idle: Some(std::time::Duration::from_secs(1)),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let _ = desk.wallet_remove().await;
    let abandon = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
    let bad = desk
        .wallet_import("abandon abandon", "", PASSWORD)
        .await
        .unwrap_err();
    assert_eq!(bad.kind, ErrorKind::InvalidInput);
    assert_eq!(desk.wallet().await.state, WalletState::None);
    let plain = desk.wallet_import(abandon, "", PASSWORD).await.unwrap();
    let plain = plain.accounts.unwrap();
    // The well-known EVM address of the "abandon … about" phrase.
    assert_eq!(
        plain.evm().ok().unwrap().address,
        "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
    );
    desk.wallet_remove().await.unwrap();
    let with_passphrase = desk
        .wallet_import(abandon, "TREZOR", PASSWORD)
        .await
        .unwrap()
        .accounts
        .unwrap();
    assert_ne!(
        with_passphrase.evm().ok().unwrap().address,
        plain.evm().ok().unwrap().address
    );
    assert_ne!(
        with_passphrase.bitcoin().ok().unwrap().address,
        plain.bitcoin().ok().unwrap().address
    );

    // Idle past a second: locked by the desk's clock, and told.
    let mut events = desk.subscribe();
    let told = tokio::time::timeout(std::time::Duration::from_secs(15), async {
        loop {
            if let Ok(DeskEvent::WalletLocked) = events.recv().await {
                return;
            }
        }
    })
    .await;
    assert!(told.is_ok(), "the idle wallet locks and says so");
    assert_eq!(desk.wallet().await.state, WalletState::Locked);
    desk.wallet_remove().await.unwrap();
    desk.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_onramp_is_signed_by_the_wallet_registered_and_completed_and_the_phrase_is_nowhere() {
    let _turn = TURN.lock().await;
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let _ = desk.wallet_remove().await;
    let mut events = desk.subscribe();
    let new = desk.wallet_new(24).await.unwrap();
    let right: Vec<String> = new
        .check_positions
        .iter()
        .map(|p| new.words[p - 1].clone())
        .collect();
    let accounts = desk
        .wallet_confirm_new(&right, PASSWORD)
        .await
        .unwrap()
        .accounts
        .unwrap();

    // A hostile gateway's PSBT that pays a stranger: refused at verification, so there is nothing to sign.
    // What the wallet can spend, from the gateway's get-max-spendable (Bitcoin's rail).
    let balance = desk.wallet_balance("bitcoin", "").await.unwrap();
    let sats: u64 = balance.amount.parse().unwrap();
    assert!(sats > 250_000, "{balance:?}");
    assert_eq!(
        gateway_client::amount::parse_units(&balance.units, 8).unwrap(),
        alloy_primitives::U256::from(sats)
    );
    assert_eq!(
        desk.wallet_balance("nowhere", "").await.unwrap_err().kind,
        ErrorKind::InvalidInput
    );
    let form = onramp_form(Some(accounts.bitcoin().ok().unwrap().address.clone()));
    common::set_tamper(&desk, Some("psbtPaysStranger")).await;
    let hostile = card(&desk, &form).await;
    let hostile = desk.start_order(hostile.raw, None).await.unwrap();
    common::set_tamper(&desk, None).await;
    assert_eq!(hostile.stage, Some(Stage::Refused), "{hostile:?}");
    let refused = desk
        .wallet_step(hostile.local_id.unwrap(), None, None, false)
        .await
        .unwrap_err();
    assert_eq!(refused.kind, ErrorKind::Refused, "{}", refused.message);

    // The genuine order: signed by the wallet, checked, registered, followed to the end.
    let genuine = card(&desk, &form).await;
    let order = desk.start_order(genuine.raw, None).await.unwrap();
    let local_id = order.local_id.unwrap();
    assert_eq!(order.stage, Some(Stage::Verified), "{order:?}");

    desk.wallet_lock().await;
    let locked = desk
        .wallet_step(local_id, None, None, false)
        .await
        .unwrap_err();
    assert_eq!(locked.kind, ErrorKind::Wallet);
    assert!(locked.message.contains("locked"));
    desk.wallet_unlock(PASSWORD).await.unwrap();

    let signed = desk.wallet_step(local_id, None, None, false).await.unwrap();
    assert_eq!(signed.stage, Some(Stage::Registered), "{signed:?}");
    // The latch: the same order is not signed twice.
    assert!(desk.wallet_step(local_id, None, None, false).await.is_err());
    let done = complete_onramp(&desk, &mut events, local_id).await;
    assert_eq!(done.status.as_deref(), Some("success"));

    // The phrase (as words, and any four consecutive words) is in no file the app wrote, and in no event.
    let phrase = new.words.join(" ");
    let fragments: Vec<String> = new.words.windows(4).map(|w| w.join(" ")).collect();
    desk.shutdown().await;
    for (path, bytes) in common::files_under(home.path()) {
        assert!(
            !common::contains(&bytes, &phrase),
            "the phrase is in {path}"
        );
        for fragment in &fragments {
            assert!(
                !common::contains(&bytes, fragment),
                "words of the phrase are in {path}"
            );
        }
    }
    while let Ok(event) = events.try_recv() {
        let text = serde_json::to_string(&event).unwrap();
        for fragment in &fragments {
            assert!(
                !text.contains(fragment.as_str()),
                "an event carries the phrase: {text}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_psbt_signed_elsewhere_is_handed_back_as_base64_and_finalized_and_an_unsigned_one_is_told_apart()
 {
    use bitcoin::bip32::{DerivationPath, Xpriv};
    use bitcoin::psbt::Psbt;
    use bitcoin::secp256k1::Secp256k1;
    use std::str::FromStr;

    let _turn = TURN.lock().await;
    let home = tempfile::tempdir().unwrap();
    let desk = open(home.path()).await;
    let _ = desk.wallet_remove().await;
    // The "hardware wallet": the abandon phrase, signing outside the app. The app's wallet is the same phrase only
    // so that the form's sender is an address whose PSBT this test can sign; the app does not sign here.
    let abandon = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
    let accounts = desk
        .wallet_import(abandon, "", PASSWORD)
        .await
        .unwrap()
        .accounts
        .unwrap();
    desk.wallet_lock().await;
    let form = onramp_form(Some(accounts.bitcoin().ok().unwrap().address.clone()));
    let order = desk
        .start_order(card(&desk, &form).await.raw, None)
        .await
        .unwrap();
    let local_id = order.local_id.unwrap();
    let bytes = alloy_primitives::hex::decode(common::psbt(&order)).unwrap();
    let mut psbt = Psbt::deserialize(&bytes).unwrap();

    let unsigned = desk.hand_in(local_id, &psbt.to_string()).await.unwrap_err();
    assert!(
        unsigned.message.contains("no signature yet"),
        "{}",
        unsigned.message
    );

    let secp = Secp256k1::new();
    let seed = desk_core::wallet::Seed::from_phrase(abandon, "").unwrap();
    let master = Xpriv::new_master(bitcoin::Network::Regtest, seed.bytes().unwrap()).unwrap();
    let path = DerivationPath::from_str("m/84'/1'/0'/0/0").unwrap();
    let public = master
        .derive_priv(&secp, &path)
        .unwrap()
        .private_key
        .public_key(&secp);
    for input in &mut psbt.inputs {
        input
            .bip32_derivation
            .insert(public, (master.fingerprint(&secp), path.clone()));
    }
    psbt.sign(&master, &secp).unwrap();
    // Signed, not finalized: what a hardware wallet exports.
    assert!(psbt.inputs.iter().all(|i| i.final_script_witness.is_none()));
    let registered = desk.hand_in(local_id, &psbt.to_string()).await.unwrap();
    assert_eq!(registered.stage, Some(Stage::Registered), "{registered:?}");
    desk.wallet_remove().await.unwrap();
    desk.shutdown().await;
}
