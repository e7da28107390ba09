//! desk-core's integration tests that use what a process has one of, in one test binary: the app's wallet (one
//! keychain entry per process, on the mock keychain), the chain nodes a test names to the Sandbox through the
//! process's environment (`common::name_nodes_to_sandbox`), and the global log subscriber (`support_bundle`).
//!
//! So they take turns ([`TURN`]).

#[path = "../common/mod.rs"]
mod common;

mod evm_execute;
mod production_shape;
mod sandbox_clock;
mod solana_execute;
mod support_bundle;
mod tron_execute;
mod wallet;

/// One test of this binary at a time.
pub static TURN: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
