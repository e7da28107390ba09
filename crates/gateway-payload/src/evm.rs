//! Offramp and token-swap calls to the simulated gateway contract on EVM chains and Tron, ABI-encoded with alloy's
//! `sol!`.
//!
//! # The contract interface ([`IGatewaySim`])
//!
//! ```solidity
//! function offrampToBitcoin(bytes32 orderId, address token, uint256 amount, uint256 minBtcOut, string btcRecipient) payable;
//! function swapCrossChain(bytes32 orderId, address token, uint256 amount, uint64 dstChainId, bytes32 dstToken, bytes32 recipient, uint256 minAmountOut) payable;
//! ```
//!
//! - `orderId` is `SHA-256(order id string)` ([`order_id_hash`]).
//! - `token` is the source token; the native token (ETH, BNB, TRX) is the zero address and is sent as the call's
//!   `value` (`amount`, in wei or sun); for any other token `value` is `"0"` (the contract pulls the token).
//! - On Tron, addresses (Base58Check with the `0x41` prefix) are passed as their 20-byte body.
//! - `minBtcOut` is in sats, `btcRecipient` the Bitcoin address as text.
//! - `dstChainId` is [`chain_id`] of the destination chain. `dstToken` and `recipient` are 32 bytes: an EVM or Tron
//!   address left-padded with zeros, a Solana public key as is, the zero address (a native token) as 32 zero bytes.

use std::str::FromStr;

use alloy_primitives::{Address, B256, U256};
use alloy_sol_types::SolCall;
use gateway_client::address::{ChainFamily, chain_family};
use gateway_client::chains::{AddressRule, Base58Rule};
use sha2::{Digest, Sha256};

use super::PayloadError;

alloy_sol_types::sol! {
    /// The simulated gateway contract that offramp and token-swap transactions call (EVM chains and Tron).
    #[sol(all_derives)]
    interface IGatewaySim {
        /// Locks `amount` of `token` for an offramp; the gateway pays at least `minBtcOut` sats to `btcRecipient`.
        function offrampToBitcoin(
            bytes32 orderId,
            address token,
            uint256 amount,
            uint256 minBtcOut,
            string btcRecipient
        ) external payable;

        /// Locks `amount` of `token` for a cross-chain swap delivering at least `minAmountOut` of `dstToken` to
        /// `recipient` on chain `dstChainId`.
        function swapCrossChain(
            bytes32 orderId,
            address token,
            uint256 amount,
            uint64 dstChainId,
            bytes32 dstToken,
            bytes32 recipient,
            uint256 minAmountOut
        ) external payable;
    }
}

alloy_sol_types::sol! {
    /// The production shape of the same calls (the Sandbox's `production shape` setting): the chain's entry contract
    /// (an AllowanceHolder, `exec`) lets the gateway contract pull the amount, and calls it with the same arguments
    /// as above under these names; the payer comes appended to the calldata.
    #[sol(all_derives)]
    interface IGatewaySimViaHolder {
        function offrampViaHolder(
            bytes32 orderId,
            address token,
            uint256 amount,
            uint256 minBtcOut,
            string btcRecipient
        ) external payable;

        function swapViaHolder(
            bytes32 orderId,
            address token,
            uint256 amount,
            uint64 dstChainId,
            bytes32 dstToken,
            bytes32 recipient,
            uint256 minAmountOut
        ) external payable;

        /// The Sandbox's production-shaped lies, run inside `exec` before (or, for 3, instead of) `honest`: 1 pulls one
        /// unit more than allowed, 2 also takes all it may of the token `other`, 3 hands the pull to the stranger
        /// `other`.
        function tampered(uint8 lie, address token, uint256 amount, address other, bytes honest) external payable;
    }

    /// The real service's entry contract on each chain (0x's AllowanceHolder): `exec` lets `operator` pull exactly
    /// `amount` of `token` from the caller during its call to `target`.
    #[sol(all_derives)]
    interface IAllowanceHolderExec {
        function exec(address operator, address token, uint256 amount, address target, bytes data) external payable returns (bytes result);
    }
}

/// `call` (to the Sandbox's gateway contract) in the real service's shape: sent to `entry` (the chain's pinned
/// AllowanceHolder; EIP-55 or Tron Base58Check), as `exec(gateway, token, amount, gateway, inner)` where `inner` is
/// the same call under its `…ViaHolder` name. The value is unchanged.
pub fn production_shaped(
    call: &CallPayload,
    entry: &str,
    token: &str,
    amount: U256,
) -> Result<CallPayload, PayloadError> {
    let (to, family) = source_contract(entry)?;
    let (gateway, _) = source_contract(&call.to)?;
    let gateway = parse_body(family, &gateway, "tx_to")?;
    let token = source_token(token, family)?;
    let data =
        alloy_primitives::hex::decode(&call.data).map_err(|e| PayloadError::InvalidAddress {
            field: "data",
            value: gateway_client::display::clipped(&call.data),
            reason: e.to_string(),
        })?;
    let selector = match data.get(..4) {
        Some(s) if s == IGatewaySim::offrampToBitcoinCall::SELECTOR => {
            IGatewaySimViaHolder::offrampViaHolderCall::SELECTOR
        }
        Some(s) if s == IGatewaySim::swapCrossChainCall::SELECTOR => {
            IGatewaySimViaHolder::swapViaHolderCall::SELECTOR
        }
        _ => {
            return Err(PayloadError::InvalidAddress {
                field: "data",
                value: gateway_client::display::clipped(&call.data),
                reason: "not a call of the Sandbox's gateway contract".into(),
            });
        }
    };
    let mut inner = selector.to_vec();
    inner.extend_from_slice(&data[4..]);
    let exec = IAllowanceHolderExec::execCall {
        operator: gateway,
        token,
        amount,
        target: gateway,
        data: inner.into(),
    };
    Ok(CallPayload {
        to,
        data: format!("0x{}", alloy_primitives::hex::encode(exec.abi_encode())),
        value: call.value.clone(),
    })
}

/// The chain id of a gateway chain slug (case and surrounding whitespace ignored), or `None` for Bitcoin and unknown
/// chains. EVM chains use their EIP-155 id; Tron uses 728126428 (its mainnet id as EVM tooling reports it, `0x2b6653dc`);
/// Solana uses 792703809, the id the published gateway puts in its Solana transactions.
pub fn chain_id(chain: &str) -> Option<u64> {
    gateway_client::chains::chain_id(chain)
}

/// A call to the gateway contract: what create-order puts in `tx` (`type` `evm` or `tron`; on Tron the simulated
/// gateway adds the `feeLimit` it chooses, gateway-sim's `local_chain::call_fee_limit`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallPayload {
    /// The contract: EIP-55 on EVM chains, Base58Check on Tron.
    pub to: String,
    /// The calldata, `0x` and lower-case hex.
    pub data: String,
    /// Native value sent with the call, a decimal string in wei or sun (`"0"` for a non-native token).
    pub value: String,
}

/// `orderId` of the contract calls: SHA-256 of the order id string.
pub fn order_id_hash(order_id: &str) -> [u8; 32] {
    Sha256::digest(order_id.as_bytes()).into()
}

/// The offramp call: `offrampToBitcoin` on the contract `tx_to` (EVM `0x…` or Tron Base58Check) for `amount` of
/// `token` (the source chain's address format, or the zero address for the native token), paying at least
/// `min_out_sats` to the Bitcoin address `btc_recipient` (any network).
pub fn offramp_call(
    order_id: &str,
    tx_to: &str,
    token: &str,
    amount: U256,
    min_out_sats: U256,
    btc_recipient: &str,
) -> Result<CallPayload, PayloadError> {
    let (to, family) = source_contract(tx_to)?;
    let token = source_token(token, family)?;
    require_positive(amount)?;
    bitcoin::Address::from_str(btc_recipient).map_err(|e| PayloadError::InvalidAddress {
        field: "btc_recipient",
        value: btc_recipient.to_string(),
        reason: e.to_string(),
    })?;
    let call = IGatewaySim::offrampToBitcoinCall {
        orderId: B256::from(order_id_hash(order_id)),
        token,
        amount,
        minBtcOut: min_out_sats,
        btcRecipient: btc_recipient.to_string(),
    };
    Ok(payload(to, token, amount, call.abi_encode()))
}

/// The token-swap call: `swapCrossChain` on the contract `tx_to` (EVM or Tron) for `amount` of `token`, delivering at
/// least `min_out` of `dst_token` to `recipient` on `dst_chain` (addresses in the destination chain's format).
#[allow(clippy::too_many_arguments)] // The quote's fields, one by one, as create-order reads them.
pub fn swap_call(
    order_id: &str,
    tx_to: &str,
    token: &str,
    amount: U256,
    dst_chain: &str,
    dst_token: &str,
    recipient: &str,
    min_out: U256,
) -> Result<CallPayload, PayloadError> {
    let (to, family) = source_contract(tx_to)?;
    let token = source_token(token, family)?;
    require_positive(amount)?;
    let dst_chain_id =
        chain_id(dst_chain).ok_or_else(|| PayloadError::UnknownChain(dst_chain.into()))?;
    let call = IGatewaySim::swapCrossChainCall {
        orderId: B256::from(order_id_hash(order_id)),
        token,
        amount,
        dstChainId: dst_chain_id,
        dstToken: B256::from(destination_bytes32(dst_chain, dst_token, "dst_token")?),
        recipient: B256::from(destination_bytes32(dst_chain, recipient, "recipient")?),
        minAmountOut: min_out,
    };
    Ok(payload(to, token, amount, call.abi_encode()))
}

fn payload(to: String, token: Address, amount: U256, data: Vec<u8>) -> CallPayload {
    CallPayload {
        to,
        data: format!("0x{}", alloy_primitives::hex::encode(data)),
        value: if token.is_zero() {
            amount.to_string()
        } else {
            "0".into()
        },
    }
}

fn require_positive(amount: U256) -> Result<(), PayloadError> {
    if amount.is_zero() {
        return Err(PayloadError::AmountOutOfRange {
            field: "amount",
            value: "0".into(),
            reason: "must be above 0".into(),
        });
    }
    Ok(())
}

/// The families whose calls are EVM calls but whose accounts are written in Base58Check (Tron): a version byte
/// and the 20-byte body the call carries.
fn base58check_call_families() -> impl Iterator<Item = (ChainFamily, Base58Rule)> {
    ChainFamily::ALL
        .into_iter()
        .filter(|family| family.account_from_body([0; 20]).is_some())
        .filter_map(|family| match family.address_rule() {
            AddressRule::Base58(rule) if rule.version.is_some() => Some((family, rule)),
            _ => None,
        })
}

/// The contract's canonical text and the family of its chain: EVM for `0x…`, else the Base58Check family whose
/// accounts start as it does (Tron's `T`).
fn source_contract(tx_to: &str) -> Result<(String, ChainFamily), PayloadError> {
    if tx_to.starts_with("0x") {
        return Ok((
            parse_evm(tx_to, "tx_to")?.to_checksum(None),
            ChainFamily::Evm,
        ));
    }
    let (family, rule) = base58check_call_families()
        .find(|(_, rule)| rule.prefix.is_none_or(|prefix| tx_to.starts_with(prefix)))
        .or_else(|| base58check_call_families().next())
        .ok_or_else(|| PayloadError::InvalidAddress {
            field: "tx_to",
            value: gateway_client::display::clipped(tx_to),
            reason: "an EVM address starts with 0x".into(),
        })?;
    let body = parse_base58check(family, rule, tx_to, "tx_to")?;
    let text = family
        .account_from_body(body.0.0)
        .unwrap_or_else(|| body.to_checksum(None));
    Ok((text, family))
}

/// The 20-byte source token: an EVM address, or on a Base58Check family (Tron) one of its accounts; the zero EVM
/// address (native) on both.
fn source_token(token: &str, family: ChainFamily) -> Result<Address, PayloadError> {
    match parse_evm(token, "token") {
        Ok(address) if family == ChainFamily::Evm || address.is_zero() => Ok(address),
        Ok(_) => Err(PayloadError::InvalidAddress {
            field: "token",
            value: token.into(),
            reason: format!("an EVM address for a call on {family}"),
        }),
        Err(e) if family == ChainFamily::Evm => Err(e),
        Err(_) => parse_body(family, token, "token"),
    }
}

/// The 20-byte body of an account of `family`, a family whose calls are EVM calls: an EVM address, or the body of a
/// Base58Check account after its version byte (Tron's `0x41`).
fn parse_body(
    family: ChainFamily,
    value: &str,
    field: &'static str,
) -> Result<Address, PayloadError> {
    match family.address_rule() {
        AddressRule::Base58(rule) if rule.version.is_some() => {
            parse_base58check(family, rule, value, field)
        }
        _ => parse_evm(value, field),
    }
}

/// A `0x` + 40 hex digit address (checksum not required).
pub(crate) fn parse_evm(value: &str, field: &'static str) -> Result<Address, PayloadError> {
    let invalid = |reason: &str| PayloadError::InvalidAddress {
        field,
        value: value.into(),
        reason: reason.into(),
    };
    let hex = value
        .strip_prefix("0x")
        .ok_or_else(|| invalid("an EVM address starts with 0x"))?;
    if hex.len() != 40 {
        return Err(invalid("an EVM address has 40 hex digits"));
    }
    Address::from_str(hex).map_err(|_| invalid("not hex"))
}

/// The 20-byte body of a Base58Check account of `family` (Tron's: `0x41` and 20 bytes), under its `rule`.
fn parse_base58check(
    family: ChainFamily,
    rule: Base58Rule,
    value: &str,
    field: &'static str,
) -> Result<Address, PayloadError> {
    let invalid = |reason: String| PayloadError::InvalidAddress {
        field,
        value: gateway_client::display::clipped(value),
        reason,
    };
    // Measured before it is decoded (gateway_client::base58): a hostile megabyte "address" costs nothing.
    if !(rule.min_len..=rule.max_len).contains(&value.len()) {
        return Err(invalid(format!(
            "not a {family} address: it has {} characters, not {}",
            value.len(),
            rule.max_len
        )));
    }
    let raw = gateway_client::base58::decode_check(value, rule.bytes)
        .map_err(|e| invalid(format!("not Base58Check: {e}")))?;
    match (raw.split_first(), rule.version) {
        (Some((first, body)), Some(version)) if *first == version && body.len() == 20 => {
            Ok(Address::from_slice(body))
        }
        _ => Err(invalid(format!(
            "not a {family} address ({:#04x} and 20 bytes)",
            rule.version.unwrap_or_default()
        ))),
    }
}

/// A destination token or recipient as 32 bytes, read in `chain`'s address format: EVM and Tron addresses
/// left-padded, a Solana public key as is, the zero EVM address (a native token) as zeros. Bitcoin addresses do not
/// fit (an offramp carries them as text).
pub fn destination_bytes32(
    chain: &str,
    value: &str,
    field: &'static str,
) -> Result<[u8; 32], PayloadError> {
    let padded = |address: Address| {
        let mut out = [0u8; 32];
        out[12..].copy_from_slice(address.as_slice());
        out
    };
    let family = chain_family(chain).ok_or_else(|| PayloadError::UnknownChain(chain.into()))?;
    match family.address_rule() {
        AddressRule::Evm => parse_evm(value, field).map(padded),
        AddressRule::Base58(rule) => match parse_evm(value, field) {
            Ok(address) if address.is_zero() => Ok([0; 32]),
            // Tron: its account's 20-byte body, left-padded.
            _ if rule.version.is_some() => {
                parse_base58check(family, rule, value, field).map(padded)
            }
            // Solana: a 32-byte public key as is.
            _ => gateway_client::base58::decode(value, 32)
                .map_err(|e| e.to_string())
                .and_then(|key| {
                    <[u8; 32]>::try_from(key.as_slice())
                        .map_err(|_| format!("it is {} bytes, not 32", key.len()))
                })
                .map_err(|why| PayloadError::InvalidAddress {
                    field,
                    value: value.into(),
                    reason: format!("not a {family} public key: {why}"),
                }),
        },
        AddressRule::Bitcoin => Err(PayloadError::InvalidAddress {
            field,
            value: value.into(),
            reason: "a Bitcoin destination is an offramp, not a token swap".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_sol_types::SolCall;

    const ORDER: &str = "0b6f3c5e-1f0a-4c7e-9a43-2a8c1e7d9b10";
    const EVM_TO: &str = "0x6761746577617900000000000000000000000000";
    const BTC_RECIPIENT: &str = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";

    fn decode(data: &str) -> Vec<u8> {
        alloy_primitives::hex::decode(data.strip_prefix("0x").unwrap()).unwrap()
    }

    fn tron_address(body: [u8; 20]) -> String {
        use gateway_client::chains::tron;
        tron::base58(&tron::account_of_body(body))
    }

    #[test]
    fn offramp_calldata_decodes_back_with_its_selector() {
        let token = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
        let call = offramp_call(
            ORDER,
            EVM_TO,
            token,
            U256::from(1_000_000u64),
            U256::from(950u64),
            BTC_RECIPIENT,
        )
        .unwrap();
        assert_eq!(
            call.to,
            Address::from_str(EVM_TO).unwrap().to_checksum(None)
        );
        assert_eq!(call.value, "0");
        let data = decode(&call.data);
        assert_eq!(data[..4], IGatewaySim::offrampToBitcoinCall::SELECTOR);
        assert_eq!(
            IGatewaySim::offrampToBitcoinCall::SIGNATURE,
            "offrampToBitcoin(bytes32,address,uint256,uint256,string)"
        );
        let back = IGatewaySim::offrampToBitcoinCall::abi_decode(&data).unwrap();
        assert_eq!(back.orderId, B256::from(order_id_hash(ORDER)));
        assert_eq!(back.token, Address::from_str(token).unwrap());
        assert_eq!(back.amount, U256::from(1_000_000u64));
        assert_eq!(back.minBtcOut, U256::from(950u64));
        assert_eq!(back.btcRecipient, BTC_RECIPIENT);
    }

    #[test]
    fn native_source_sends_the_amount_as_value() {
        let amount = U256::from(10u64).pow(U256::from(30u64)); // beyond u64 is fine on EVM
        let call = swap_call(
            ORDER,
            EVM_TO,
            "0x0000000000000000000000000000000000000000",
            amount,
            "base",
            "0x0000000000000000000000000000000000000000",
            "0x1111111111111111111111111111111111111111",
            U256::from(1u64),
        )
        .unwrap();
        assert_eq!(call.value, "1000000000000000000000000000000");
    }

    #[test]
    fn swap_calldata_decodes_back_with_destinations_as_bytes32() {
        let sol_recipient = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
        let usdc_mint = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
        let call = swap_call(
            ORDER,
            EVM_TO,
            "0xaf88d065e77c8cc2239327c5edb3a432268e5831",
            U256::from(25_000_000u64),
            "solana",
            usdc_mint,
            sol_recipient,
            U256::from(24_000_000u64),
        )
        .unwrap();
        let data = decode(&call.data);
        assert_eq!(data[..4], IGatewaySim::swapCrossChainCall::SELECTOR);
        let back = IGatewaySim::swapCrossChainCall::abi_decode(&data).unwrap();
        assert_eq!(back.orderId, B256::from(order_id_hash(ORDER)));
        assert_eq!(back.amount, U256::from(25_000_000u64));
        assert_eq!(back.dstChainId, 792703809);
        assert_eq!(
            back.dstToken.as_slice(),
            bs58::decode(usdc_mint).into_vec().unwrap()
        );
        assert_eq!(
            back.recipient.as_slice(),
            bs58::decode(sol_recipient).into_vec().unwrap()
        );
        assert_eq!(back.minAmountOut, U256::from(24_000_000u64));

        // An EVM destination is left-padded.
        let evm = swap_call(
            ORDER,
            EVM_TO,
            "0xaf88d065e77c8cc2239327c5edb3a432268e5831",
            U256::from(25_000_000u64),
            "bob",
            "0x05D032ac25d322df992303dCa074EE7392C117b9",
            "0x1111111111111111111111111111111111111111",
            U256::from(1u64),
        )
        .unwrap();
        let back = IGatewaySim::swapCrossChainCall::abi_decode(&decode(&evm.data)).unwrap();
        assert_eq!(back.dstChainId, 60808);
        assert_eq!(back.recipient[..12], [0u8; 12]);
        assert_eq!(back.recipient[12..], [0x11u8; 20]);
    }

    #[test]
    fn tron_addresses_map_to_their_20_byte_body() {
        let contract = tron_address(*b"gateway-sim-contract");
        let usdt = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
        let usdt_body = bs58::decode(usdt).with_check(None).into_vec().unwrap();
        let call = swap_call(
            ORDER,
            &contract,
            usdt,
            U256::from(50_000_000u64),
            "tron",
            "0x0000000000000000000000000000000000000000",
            &tron_address([7; 20]),
            U256::from(1u64),
        )
        .unwrap();
        assert_eq!(call.to, contract);
        assert_eq!(call.value, "0");
        let back = IGatewaySim::swapCrossChainCall::abi_decode(&decode(&call.data)).unwrap();
        assert_eq!(back.token.as_slice(), &usdt_body[1..]);
        assert_eq!(back.dstChainId, 728126428);
        assert_eq!(back.dstToken, B256::ZERO);
        assert_eq!(back.recipient[12..], [7u8; 20]);

        // Native TRX is the zero address and goes as value.
        let native = offramp_call(
            ORDER,
            &contract,
            "0x0000000000000000000000000000000000000000",
            U256::from(40_000_000u64),
            U256::from(1u64),
            BTC_RECIPIENT,
        )
        .unwrap();
        assert_eq!(native.value, "40000000");
        let back = IGatewaySim::offrampToBitcoinCall::abi_decode(&decode(&native.data)).unwrap();
        assert_eq!(back.token, Address::ZERO);

        // A non-zero EVM token on a Tron contract is refused.
        let err = offramp_call(
            ORDER,
            &contract,
            "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c",
            U256::from(1u64),
            U256::from(1u64),
            BTC_RECIPIENT,
        )
        .unwrap_err();
        assert!(matches!(
            err,
            PayloadError::InvalidAddress { field: "token", .. }
        ));
    }

    #[test]
    fn bad_inputs_are_refused() {
        let one = U256::from(1u64);
        let token = "0xaf88d065e77c8cc2239327c5edb3a432268e5831";
        let recipient = "0x1111111111111111111111111111111111111111";
        assert!(matches!(
            swap_call(ORDER, EVM_TO, token, one, "nowhere", token, recipient, one),
            Err(PayloadError::UnknownChain(_))
        ));
        assert!(matches!(
            swap_call(ORDER, "0x1234", token, one, "base", token, recipient, one),
            Err(PayloadError::InvalidAddress { field: "tx_to", .. })
        ));
        assert!(matches!(
            swap_call(
                ORDER,
                EVM_TO,
                token,
                one,
                "base",
                token,
                "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
                one
            ),
            Err(PayloadError::InvalidAddress {
                field: "recipient",
                ..
            })
        ));
        assert!(matches!(
            swap_call(
                ORDER,
                EVM_TO,
                token,
                U256::ZERO,
                "base",
                token,
                recipient,
                one
            ),
            Err(PayloadError::AmountOutOfRange { .. })
        ));
        assert!(matches!(
            offramp_call(ORDER, EVM_TO, token, one, one, "not-an-address"),
            Err(PayloadError::InvalidAddress {
                field: "btc_recipient",
                ..
            })
        ));
    }

    #[test]
    fn chain_ids_of_the_catalogue() {
        for (chain, id) in [
            ("bob", 60808),
            ("ethereum", 1),
            ("base", 8453),
            ("bsc", 56),
            ("arbitrum", 42161),
            ("tron", 728126428),
            ("solana", 792703809),
        ] {
            assert_eq!(chain_id(chain), Some(id), "{chain}");
        }
        assert_eq!(chain_id("bitcoin"), None);
    }

    #[test]
    fn deterministic() {
        let make = || {
            swap_call(
                ORDER,
                EVM_TO,
                "0xaf88d065e77c8cc2239327c5edb3a432268e5831",
                U256::from(5u64),
                "bob",
                "0x05D032ac25d322df992303dCa074EE7392C117b9",
                "0x1111111111111111111111111111111111111111",
                U256::from(4u64),
            )
            .unwrap()
        };
        assert_eq!(make(), make());
    }
}
