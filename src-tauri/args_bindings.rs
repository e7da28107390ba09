//! The commands' argument types (`commands.rs`, `wallet_commands.rs`) as TypeScript, one file per type in
//! `ui/src/lib/bindings/args/`, which `ui/src/lib/ipc.ts` sends. The test below fails when the committed files are
//! stale; `cargo xtask gen-types` regenerates them (it runs this test with `UPDATE_BINDINGS=1`).
//!
//! The types import desk-core's own (`../SwapForm`), generated into `ui/src/lib/bindings/` by desk-core's bindings
//! test. `command_list.rs` checks that every command with arguments has its type here and that the window sends it.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use ts_rs::{Config, ExportError, TS};

use crate::{commands, wallet_commands};

/// An exported argument type: its TypeScript name and how to write its file.
pub struct ArgsType {
    pub name: String,
    export: fn(&Config) -> Result<(), ExportError>,
}

fn args_type<T: TS + 'static>() -> ArgsType {
    ArgsType {
        name: T::name(&Config::new()),
        export: T::export,
    }
}

/// Every command's argument type.
pub fn args_types() -> Vec<ArgsType> {
    vec![
        args_type::<commands::SelectNetworkArgs>(),
        args_type::<commands::RequestQuoteArgs>(),
        args_type::<commands::StartOrderArgs>(),
        args_type::<commands::HandInArgs>(),
        args_type::<commands::ResumeOrderArgs>(),
        args_type::<commands::DiscardOrderArgs>(),
        args_type::<commands::AbandonOrderArgs>(),
        args_type::<commands::AcknowledgeOrderArgs>(),
        args_type::<commands::OrderNextCheckArgs>(),
        args_type::<commands::SandboxAdvanceArgs>(),
        args_type::<commands::WatchAddressArgs>(),
        args_type::<commands::UnwatchAddressArgs>(),
        args_type::<commands::SetApiKeyArgs>(),
        args_type::<commands::SetApiVersionArgs>(),
        args_type::<commands::SetBitcoinNetworkArgs>(),
        args_type::<commands::SetBlindSigningArgs>(),
        args_type::<commands::SetSandboxProductionShapeArgs>(),
        args_type::<commands::SetChainEndpointsArgs>(),
        args_type::<commands::CheckChainEndpointArgs>(),
        args_type::<commands::SetThemeArgs>(),
        args_type::<commands::SavePsbtArgs>(),
        args_type::<commands::PsbtExportArgs>(),
        args_type::<commands::OpenExplorerArgs>(),
        args_type::<commands::QrSvgArgs>(),
        args_type::<commands::SetAffiliatesArgs>(),
        args_type::<commands::PartnerDashboardArgs>(),
        args_type::<commands::SaveDashboardCsvArgs>(),
        args_type::<commands::SupportLookupArgs>(),
        args_type::<commands::BundlePreviewArgs>(),
        args_type::<commands::SaveBundleArgs>(),
        args_type::<commands::ImportBundleArgs>(),
        args_type::<commands::ReproduceQuoteArgs>(),
        args_type::<commands::RevealPathArgs>(),
        args_type::<wallet_commands::WalletNewArgs>(),
        args_type::<wallet_commands::WalletConfirmNewArgs>(),
        args_type::<wallet_commands::WalletImportArgs>(),
        args_type::<wallet_commands::WalletImportKeyArgs>(),
        args_type::<wallet_commands::WalletUnlockArgs>(),
        args_type::<wallet_commands::WalletRevealArgs>(),
        args_type::<wallet_commands::WalletBalanceArgs>(),
        args_type::<wallet_commands::WalletPlanArgs>(),
        args_type::<wallet_commands::WalletStepArgs>(),
    ]
}

/// The folder the argument types go to, inside the bindings folder (`export_to = "args/"` on each type).
pub const ARGS_FOLDER: &str = "args";

/// `ui/src/lib/bindings`: the base the types' imports are relative to.
fn bindings_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/src/lib/bindings")
}

/// Writes every argument type (and only them, not the desk-core types they import) under `base/args/`.
fn generate(base: &Path) {
    let cfg = Config::new().with_out_dir(base);
    for ty in args_types() {
        (ty.export)(&cfg).unwrap_or_else(|e| panic!("{}: {e}", ty.name));
    }
}

/// The `.ts` files directly in `dir`, by name.
fn read_ts_files(dir: &Path) -> BTreeMap<String, String> {
    let Ok(entries) = fs::read_dir(dir) else {
        return BTreeMap::new();
    };
    entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "ts"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, fs::read_to_string(&p).unwrap())
        })
        .collect()
}

#[test]
fn the_committed_argument_types_are_up_to_date() {
    let fresh_base = tempfile::tempdir().unwrap();
    generate(fresh_base.path());
    let fresh = read_ts_files(&fresh_base.path().join(ARGS_FOLDER));
    let types = args_types();
    assert_eq!(
        fresh.len(),
        types.len(),
        "one file per argument type, each in {ARGS_FOLDER}/: {:?}",
        fresh.keys()
    );
    let committed_dir = bindings_dir().join(ARGS_FOLDER);
    if std::env::var_os("UPDATE_BINDINGS").is_some() {
        for stale in read_ts_files(&committed_dir).keys() {
            fs::remove_file(committed_dir.join(stale)).unwrap();
        }
        fs::create_dir_all(&committed_dir).unwrap();
        for (name, text) in &fresh {
            fs::write(committed_dir.join(name), text).unwrap();
        }
        return;
    }
    let committed = read_ts_files(&committed_dir);
    assert!(
        committed == fresh,
        "ui/src/lib/bindings/{ARGS_FOLDER} is stale (files differ: {:?}); run `cargo xtask gen-types` and commit the \
         result",
        fresh
            .keys()
            .chain(committed.keys())
            .filter(|k| fresh.get(*k) != committed.get(*k))
            .collect::<std::collections::BTreeSet<_>>()
    );
}

#[test]
fn the_argument_types_import_only_generated_bindings() {
    let fresh_base = tempfile::tempdir().unwrap();
    generate(fresh_base.path());
    let bindings = bindings_dir();
    let fresh = read_ts_files(&fresh_base.path().join(ARGS_FOLDER));
    for (name, text) in &fresh {
        for line in text.lines().filter(|l| l.starts_with("import ")) {
            let from = line
                .split('"')
                .nth(1)
                .unwrap_or_else(|| panic!("{name}: {line}"));
            let found = match from.strip_prefix("../") {
                // One of desk-core's, generated by its bindings test.
                Some(theirs) => bindings.join(format!("{theirs}.ts")).is_file(),
                // Another argument type.
                None => from
                    .strip_prefix("./")
                    .is_some_and(|ours| fresh.contains_key(&format!("{ours}.ts"))),
            };
            assert!(
                found,
                "{name} imports {from}, which is not in ui/src/lib/bindings (run `cargo xtask gen-types`)"
            );
        }
    }
}
