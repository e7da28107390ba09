//! The chains the app reads and sends to itself, one room per family: EVM ([`evm`]) and Solana ([`solana`]).

pub mod evm;
pub mod solana;
