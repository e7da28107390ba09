//! Executing an order with the app's own wallet, per chain family. Bitcoin onramps are signed in
//! [`crate::wallet::bitcoin_signer`] (the gateway broadcasts them); EVM offramps and token swaps are signed,
//! approved and broadcast in [`evm`], Solana ones signed and sent in [`solana`], Tron ones approved, signed and
//! broadcast in [`tron`].

pub mod evm;
pub mod solana;
pub mod tron;
