//! The chains the app reads and sends to itself, one room per family. EVM first ([`evm`]); Solana and Tron follow.

pub mod evm;
