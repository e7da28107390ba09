//! The window's TypeScript types are generated from the Rust types; this test fails when the committed files are stale.
//!
//! Regenerate with `cargo xtask gen-types` (which runs this test with `UPDATE_BINDINGS=1`).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use desk_core::api::{NetworkChoice, RouteView, SettingsView};
use desk_core::desk::{DeskEvent, QuoteResult, SwapForm};
use desk_core::error::DeskError;
use desk_core::flow::Question;
use desk_core::verify::Verified;
use desk_core::views::{OrderView, QuoteCard};
use ts_rs::{Config, TS};

fn committed_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/lib/bindings")
}

fn generate(dir: &Path) {
    let cfg = Config::new().with_out_dir(dir);
    DeskError::export_all(&cfg).unwrap();
    SettingsView::export_all(&cfg).unwrap();
    NetworkChoice::export_all(&cfg).unwrap();
    RouteView::export_all(&cfg).unwrap();
    Verified::export_all(&cfg).unwrap();
    QuoteCard::export_all(&cfg).unwrap();
    OrderView::export_all(&cfg).unwrap();
    Question::export_all(&cfg).unwrap();
    SwapForm::export_all(&cfg).unwrap();
    QuoteResult::export_all(&cfg).unwrap();
    DeskEvent::export_all(&cfg).unwrap();
    // The wallet (never a secret but the new phrase and the revealed one, both as plain word lists).
    desk_core::desk::WalletView::export_all(&cfg).unwrap();
    desk_core::desk::NewPhrase::export_all(&cfg).unwrap();
    desk_core::desk::WalletBalance::export_all(&cfg).unwrap();
    desk_core::api::EndpointCheck::export_all(&cfg).unwrap();
    desk_core::wallet::KeyFamily::export_all(&cfg).unwrap();
    desk_core::execute::rail::WalletPlan::export_all(&cfg).unwrap();
    // The Sandbox's clock, moved on from the window.
    desk_core::desk::SandboxClockView::export_all(&cfg).unwrap();
    // An onramp's PSBT for a wallet of the person's own: text forms and the animated QR code.
    desk_core::psbt_export::PsbtExport::export_all(&cfg).unwrap();
    // Partner: affiliate entries and the dashboard.
    desk_core::settings::AffiliateEntry::export_all(&cfg).unwrap();
    desk_core::partner::Period::export_all(&cfg).unwrap();
    desk_core::partner::DashboardQuery::export_all(&cfg).unwrap();
    desk_core::partner::Dashboard::export_all(&cfg).unwrap();
    // Support bundles.
    desk_core::support::BundleOptions::export_all(&cfg).unwrap();
    desk_core::support::BundlePreview::export_all(&cfg).unwrap();
    desk_core::support::BundleEventView::export_all(&cfg).unwrap();
    desk_core::support::ImportedBundle::export_all(&cfg).unwrap();
    // Support lookup and quote reproduction.
    desk_core::support::LookupQuery::export_all(&cfg).unwrap();
    desk_core::support::LookupKind::export_all(&cfg).unwrap();
    desk_core::support::Explanation::export_all(&cfg).unwrap();
    desk_core::support::LookedUpOrder::export_all(&cfg).unwrap();
    desk_core::support::LookupResult::export_all(&cfg).unwrap();
    desk_core::support::ReproduceSource::export_all(&cfg).unwrap();
    desk_core::support::FieldDiff::export_all(&cfg).unwrap();
    desk_core::support::QuoteDiff::export_all(&cfg).unwrap();
    std::fs::write(dir.join("facts.ts"), facts_ts()).unwrap();
}

/// The rules the window must not copy, as TypeScript constants written from the Rust ones: each chain's family (the
/// one table of chains), the gateway's affiliate limits and the slippage bounds.
fn facts_ts() -> String {
    use gateway_client::address::ChainFamily;
    use gateway_client::params;
    let family = |f: ChainFamily| {
        serde_json::to_value(f)
            .unwrap()
            .as_str()
            .unwrap()
            .to_owned()
    };
    let family_type = ChainFamily::ALL
        .iter()
        .map(|&f| format!("{:?}", family(f)))
        .collect::<Vec<_>>()
        .join(" | ");
    let family_names: Vec<String> = ChainFamily::ALL
        .iter()
        .map(|&f| format!("  {}: {:?},", family(f), f.to_string()))
        .collect();
    let typing_shapes: Vec<String> = ChainFamily::ALL
        .iter()
        .map(|&f| {
            format!(
                "  {}: {{ address: {}, txId: {} }},",
                family(f),
                serde_json::to_string(&gateway_client::address::address_shape(f)).unwrap(),
                serde_json::to_string(&gateway_client::txhash::tx_id_shape(f)).unwrap()
            )
        })
        .collect();
    let sender_required: Vec<String> = ChainFamily::ALL
        .iter()
        .filter(|f| f.quote_needs_sender())
        .map(|&f| format!("  {:?},", family(f)))
        .collect();
    use desk_core::wallet::KeyFamily;
    let key = |f: KeyFamily| {
        serde_json::to_value(f)
            .unwrap()
            .as_str()
            .unwrap()
            .to_owned()
    };
    let key_families: Vec<String> = KeyFamily::ALL
        .iter()
        .map(|&f| {
            format!(
                "  {{ family: {:?}, label: {:?} }},",
                key(f),
                f.import_label()
            )
        })
        .collect();
    let accounts: Vec<String> = KeyFamily::LISTED
        .iter()
        .map(|&f| {
            assert_eq!(
                key(f),
                f.key(),
                "the accounts' keys are the families' names"
            );
            format!("  {{ key: {:?}, label: {:?} }},", key(f), f.account_label())
        })
        .collect();
    let families: Vec<String> = gateway_client::chains::CHAINS
        .iter()
        .map(|c| format!("  {:?}: {:?},", c.slug, family(c.family)))
        .collect();
    // Every stage, and the Swap view's phase desk-core gives an order at that stage (the window's test fixtures use
    // it to send what desk-core would). The match fails to compile when a stage is added and not listed here.
    use desk_core::journal::Stage;
    use desk_core::views::ExecutionPhase;
    let stages = [
        Stage::Quoted,
        Stage::Creating,
        Stage::CreateUnknown,
        Stage::Created,
        Stage::Verified,
        Stage::Refused,
        Stage::TxHandedIn,
        Stage::Registering,
        Stage::Registered,
        Stage::Finished,
        Stage::Abandoned,
    ];
    let phases: Vec<String> = stages
        .iter()
        .map(|&stage| {
            match stage {
                Stage::Quoted
                | Stage::Creating
                | Stage::CreateUnknown
                | Stage::Created
                | Stage::Verified
                | Stage::Refused
                | Stage::TxHandedIn
                | Stage::Registering
                | Stage::Registered
                | Stage::Finished
                | Stage::Abandoned => {}
            }
            let word = |v: serde_json::Value| v.as_str().unwrap().to_owned();
            format!(
                "  {}: {:?},",
                word(serde_json::to_value(stage).unwrap()),
                word(serde_json::to_value(ExecutionPhase::of(stage)).unwrap())
            )
        })
        .collect();
    // desk-core's one id shortener on examples, which the window's `shortId` must reproduce (ui/src/lib/ids.test.ts).
    let examples: Vec<String> = [
        "abc",
        "0x1234567890ab",
        "0x1234567890abcdef",
        "0X1234567890abcdef",
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        "1234567890abcdef",
        "123456789012",
        "1234567890123",
        "ééééé-ééééé-ééééé",
        "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h",
        "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
        "f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
        "",
    ]
    .iter()
    .map(|id| format!("  [{id:?}, {:?}],", desk_core::ids::short_id(id)))
    .collect();
    let swap_fields: Vec<String> = desk_core::error::SwapField::ALL
        .iter()
        .map(|f| format!("  {:?},", f.name()))
        .collect();
    let evm: Vec<String> = gateway_client::chains::evm_chains()
        .map(|slug| format!("  {slug:?},"))
        .collect();
    format!(
        "// Generated from the Rust constants by `cargo xtask gen-types` (desk-core's bindings test). Do not edit.\n\n\
         import type {{ ExecutionPhase }} from \"./ExecutionPhase\";\n\
         import type {{ Stage }} from \"./Stage\";\n\
         import type {{ SwapField }} from \"./SwapField\";\n\
         import type {{ KeyFamily }} from \"./KeyFamily\";\n\n\
         export type ChainFamily = {family_type};\n\n\
         /** Each family's name in a sentence (\"an EVM address\"). */\n\
         export const FAMILY_NAMES: Readonly<Record<ChainFamily, string>> = {{\n{}\n}};\n\n\
         /** How each family's addresses and source transaction ids look, for the checks as the person types \
         (gateway_client::address::address_shape, txhash::tx_id_shape); the strict check is Rust's. */\n\
         export type AddressShape =\n  | {{ kind: \"evm\" }}\n  | {{ kind: \"bitcoin\" }}\n  \
         | {{ kind: \"base58\"; prefix: string | null; minLen: number; maxLen: number }};\n\
         export type TxIdShape =\n  | {{ kind: \"hex\"; adds0x: boolean }}\n  \
         | {{ kind: \"base58\"; minLen: number; maxLen: number }}\n  | {{ kind: \"unchecked\" }};\n\
         export const TYPING_SHAPES: Readonly<Record<ChainFamily, {{ address: AddressShape; txId: TxIdShape }}>> = \
         {{\n{}\n}};\n\n\
         /** The families whose quotes must name their sender (ChainFamily::quote_needs_sender). */\n\
         export const SENDER_REQUIRED_FAMILIES: readonly ChainFamily[] = [\n{}\n];\n\n\
         /** The kinds of single key the wallet imports, in the order offered (desk_wallet KeyFamily::ALL). */\n\
         export const KEY_FAMILIES: readonly {{ family: KeyFamily; label: string }}[] = [\n{}\n];\n\n\
         /** The wallet's accounts, in the order listed (KeyFamily::LISTED), keyed as WalletAccounts is. */\n\
         export const ACCOUNT_LABELS: readonly {{ key: KeyFamily; label: string }}[] = [\n{}\n];\n\n\
         /** Each chain the app knows, by slug, with its family (gateway_client::chains::CHAINS). */\n\
         export const CHAIN_FAMILIES: Readonly<Record<string, ChainFamily>> = {{\n{}\n}};\n\n\
         /** The EVM chains' slugs, in the table's order. */\n\
         export const EVM_CHAINS: readonly string[] = [\n{}\n];\n\n\
         /** The gateway's limits on onramp and offramp affiliates: entries, and their total in bps. */\n\
         export const MAX_AFFILIATES = {};\n\
         export const MAX_TOTAL_AFFILIATE_BPS = {};\n\n\
         /** Slippage bounds in bps: the default, the documented floors (routes, cross-chain token swaps), 100%. */\n\
         export const DEFAULT_SLIPPAGE_BPS = {};\n\
         export const DOCUMENTED_MIN_SLIPPAGE_BPS = {};\n\
         export const DOCUMENTED_MIN_TOKEN_SWAP_SLIPPAGE_BPS = {};\n\
         export const MAX_SLIPPAGE_BPS = {};\n\n\
         /** The Swap view's phase of an order at each stage (desk_core::views::ExecutionPhase::of; `OrderView.execution`). */\n\
         export const EXECUTION_PHASES: Readonly<Record<Stage, ExecutionPhase>> = {{\n{}\n}};\n\n\
         /** Ids and what desk_core::ids::short_id makes of them: the window's `shortId` must give the same. */\n\
         export const SHORT_ID_EXAMPLES: readonly (readonly [string, string])[] = [\n{}\n];\n\n\
         /** The swap form's fields (desk_core::error::SwapField::ALL): an error's `field` names one of them or another \
         form's. */\n\
         export const SWAP_FIELDS: readonly SwapField[] = [\n{}\n];\n",
        family_names.join("\n"),
        typing_shapes.join("\n"),
        sender_required.join("\n"),
        key_families.join("\n"),
        accounts.join("\n"),
        families.join("\n"),
        evm.join("\n"),
        desk_core::partner::MAX_AFFILIATES,
        desk_core::partner::MAX_TOTAL_BPS,
        params::DEFAULT_SLIPPAGE_BPS,
        params::DOCUMENTED_MIN_SLIPPAGE_BPS,
        params::DOCUMENTED_MIN_TOKEN_SWAP_SLIPPAGE_BPS,
        params::MAX_SLIPPAGE_BPS,
        phases.join("\n"),
        examples.join("\n"),
        swap_fields.join("\n"),
    )
}

/// Every `.ts` file under `dir`, by its path relative to `dir` (ts-rs puts serde_json's `JsonValue` in a folder).
fn read_dir(dir: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = fs::read_dir(&folder) else {
            continue;
        };
        for path in entries.map(|e| e.unwrap().path()) {
            if path.is_dir() {
                // args/: the app's command arguments, generated and checked by src-tauri/args_bindings.rs.
                if folder == dir && path.file_name().is_some_and(|n| n == "args") {
                    continue;
                }
                folders.push(path);
            } else if path.extension().is_some_and(|x| x == "ts") {
                let name = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                files.insert(name, fs::read_to_string(&path).unwrap());
            }
        }
    }
    files
}

#[test]
fn generated_typescript_is_up_to_date() {
    let fresh_dir = tempfile::tempdir().unwrap();
    generate(fresh_dir.path());
    let fresh = read_dir(fresh_dir.path());
    assert!(
        fresh.contains_key("DeskError.ts") && fresh.contains_key("NetworkKind.ts"),
        "{:?}",
        fresh.keys()
    );
    let committed_path = committed_dir();
    if std::env::var_os("UPDATE_BINDINGS").is_some() {
        if committed_path.exists() {
            for stale in read_dir(&committed_path).keys() {
                fs::remove_file(committed_path.join(stale)).unwrap();
            }
        }
        fs::create_dir_all(&committed_path).unwrap();
        for (name, text) in &fresh {
            let path = committed_path.join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        return;
    }
    let committed = read_dir(&committed_path);
    assert!(
        committed == fresh,
        "ui/src/lib/bindings is stale (files differ: {:?}); run `cargo xtask gen-types` and commit the result",
        fresh
            .keys()
            .chain(committed.keys())
            .filter(|k| fresh.get(*k) != committed.get(*k))
            .collect::<std::collections::BTreeSet<_>>()
    );
}
