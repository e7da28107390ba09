//! Executing an order with the app's own wallet, per chain family. Bitcoin onramps are signed in
//! [`crate::wallet::bitcoin_signer`] (the gateway broadcasts them); EVM offramps and token swaps are signed,
//! approved and broadcast here ([`evm`]). Solana and Tron plug in beside them.

pub mod evm;
