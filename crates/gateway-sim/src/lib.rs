//! A local gateway: an HTTP service that implements the gateway interface for V1, V2 and V3.
//!
//! It is the desktop app's Sandbox network (started inside the app on a free loopback port) and runs alone as
//! `gateway-sim --listen 127.0.0.1:PORT`. It shares only the wire types with `gateway-client`.

#![warn(missing_docs)]

pub mod access;
pub mod admin_client;
pub mod catalogue;
pub mod chain_node;
pub mod chain_read;
pub mod clock;
pub mod delivery;
pub mod evm_check;
pub mod evm_node;
pub mod faults;
pub mod integrity;
mod jsonrpc;
pub mod local_chain;
pub mod orders;
/// What the gateway asks a client to sign: its own crate, shared with desk-core's verifier.
pub use gateway_payload as payload;
pub mod pricing;
pub mod quote;
pub mod script_node;
mod server;
pub mod signing;
pub mod tamper;

pub use catalogue::Catalogue;
pub use server::{ClockMoved, ClockReading, Delivered, RunningSim, Sim, SimConfig, SimError};
pub use signing::{QuoteSigner, SignatureError};
