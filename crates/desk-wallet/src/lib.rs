//! Gateway Desk's wallet: the keys (a BIP-39 phrase or a single imported key; per-family derivation), the vault that
//! seals them under the app password, the keeper that holds them unlocked, the PSBT signer; the chains' clients; what
//! the gateway asks to be signed, verified against the quote ([`verify`]); the chain's own run of it before signing
//! ([`simulate`]); and execution, one rail per chain family ([`execute::rail`]).
//!
//! It knows nothing of the app around it: desk-core depends on it, keeps the flow, the journal and the views, and
//! hands it what a step needs (the journal as a [`execute::Ledger`], the wallet's [`wallet::keeper::Keeper`], the
//! endpoints to reach).

#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod chains;
pub mod execute;
pub mod simulate;
pub mod verify;
pub mod wallet;
