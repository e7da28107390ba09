//! The chains the app reads and sends to itself, one room per family: EVM ([`evm`]), Solana ([`solana`]) and Tron
//! ([`tron`]).

pub mod evm;
pub mod solana;
pub mod tron;
