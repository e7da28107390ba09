//! The wallet: its keys, the vault, the keeper and the PSBT signer are desk-wallet's ([`desk_wallet::wallet`]);
//! here is only where the sealed phrase is kept (the keychain, [`kept`]).

pub use desk_wallet::wallet::*;

pub mod kept;
