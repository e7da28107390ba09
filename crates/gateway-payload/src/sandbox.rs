//! The Sandbox's fixed facts, which both sides know: the gateway contract a transaction goes to on each chain and the
//! genesis of its local Solana and Tron chains. gateway-sim builds and serves them; desk-core pins them when it
//! verifies and signs on the Sandbox (a wallet that signs for the Sandbox must never sign for a real chain).

use alloy_primitives::Address;

/// The genesis hash the Sandbox's Solana node answers: Base58 of SHA-256("gateway-desk sandbox solana").
pub const SANDBOX_GENESIS: &str = "ArjALFFG9CVTzGFkA92W5fz9qPqANahT1Qgy3Hv84tFt";

/// Block 0's id on the Sandbox's Tron chain: SHA-256("gateway-desk sandbox tron") with its first 8 bytes zeroed.
pub const SANDBOX_GENESIS_BLOCK: &str =
    "0000000000000000064608ec723fb844b78cf8898a648e0b2e82d94d143e73e9";

/// The gateway contract a user's offramp or swap transaction goes to, per chain: EIP-55 on EVM chains, a
/// Base58Check address on Tron, a base58 public key on Solana.
pub fn gateway_contract(chain: &str) -> String {
    use gateway_client::chains::{AddressRule, ChainFamily};
    // 20 fixed bytes: "gateway-sim" padded, plus a chain-independent tail.
    const BYTES: [u8; 20] = *b"gateway-sim-contract";
    let family = gateway_client::address::chain_family(chain).unwrap_or(ChainFamily::Evm);
    if let Some(account) = family.account_from_body(BYTES) {
        // The families whose calls are EVM calls write the 20 bytes as their accounts.
        return account;
    }
    match family.address_rule() {
        // A family whose accounts are 32-byte keys (Solana): the 20 bytes and a fixed tail.
        AddressRule::Base58(rule) if rule.version.is_none() && rule.bytes == 32 => {
            let mut key = [0u8; 32];
            key[..20].copy_from_slice(&BYTES);
            key[20..].copy_from_slice(b"-solana-pub!");
            bs58::encode(key).into_string()
        }
        _ => Address::from(BYTES).to_checksum(None),
    }
}

#[cfg(test)]
mod tests {
    use super::gateway_contract;

    #[test]
    fn the_sandbox_contract_is_written_as_each_family_writes_an_account() {
        let evm = "0x676174657761792d73696d2d636F6E7472616374";
        for chain in ["bob", "ethereum", "bitcoin", "nowhere"] {
            assert_eq!(gateway_contract(chain), evm, "{chain}");
        }
        // The same 20 bytes as a Tron account (0x41 and the body), and in a 32-byte Solana key.
        assert_eq!(
            gateway_contract("tron"),
            "TKPqM5ziRUZrZevLuPdXrRKz2rx1dPqUR8"
        );
        assert_eq!(
            gateway_contract("solana"),
            "7xZBaBKvoXSjwru79so3qNm9EaSsJG3CCfGVDfqPM5aQ"
        );
    }
}
