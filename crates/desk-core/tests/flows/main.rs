//! desk-core's integration tests that share nothing process-wide, one module per subject, in one test binary: one
//! link instead of eleven, and their tests run side by side. `common` is what they share with `tests/process_wide`.
//!
//! Elsewhere: `tests/process_wide`, the tests that use what a process has one of (the wallet's keychain entry, the
//! chain nodes named to the Sandbox in the environment, the log subscriber), taking turns; `tests/logs.rs`, whose one
//! test installs the global log subscriber and reads every line it writes; `tests/keychain.rs`, the real keychain
//! (the keyring's default store is global per process).

#[path = "../common/mod.rs"]
mod common;

mod bindings;
mod crash;
mod desk;
mod fees;
mod hostile;
mod mutations;
mod network_check;
mod no_dead_ends;
mod partner;
mod receipt;
mod support_lookup;
mod tracker;
