//! Gateway Desk without a window.
//!
//! Settings and networks, the API key in the operating system's keychain, the embedded Sandbox gateway, and routes
//! shown with token facts. `desk-core` knows nothing of Tauri: the window calls [`Desk`] and shows what it returns.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod api;
pub mod calendar;
pub mod desk;
pub mod error;
pub mod events;
pub mod fees;
pub mod files;
pub mod flow;
pub mod ids;
pub mod journal;
pub mod logs;
pub mod network;
pub mod notify;
pub mod partner;
pub mod paths;
pub mod psbt_export;
pub mod qr;
pub mod quote_errors;
pub mod sandbox;
pub mod secrets;
pub mod settings;
pub mod support;
pub mod tracker;
pub mod views;
pub mod wallet;

pub use desk_wallet::{chains, execute, simulate, verify};
pub use gateway_client::usd;

pub use desk::{Desk, DeskOptions, JOURNAL_FILE, QuoteResult, SANDBOX_STATE_FILE, SwapForm};
pub use error::{DeskError, ErrorKind};
pub use events::DeskEvent;
pub use paths::AppPaths;
