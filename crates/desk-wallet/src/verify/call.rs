//! Offramp and token-swap calls on EVM chains, and what every family whose calls are EVM calls checks alike
//! (Tron's own check is `tron.rs`).

use std::str::FromStr;

use alloy_primitives::{Address, U256};
use gateway_client::address::{ChainFamily, chain_family};
use gateway_client::amount::parse_base_units;
use gateway_client::display::clipped;
use gateway_client::wire::{EvmTx, is_native_token};

use gateway_client::tokens::TokenRegistry;

use super::calldata::{self, CallCheck};
use super::{
    CallSummary, EvmCallSummary, GatewayContracts, QuotedSource, VerifyError, VerifyPolicy,
    native_value_text,
};

/// How a family whose order is a call to the gateway's contract (the EVM chains, Tron) reads and writes that call's
/// addresses, and what differs in its wire form: the only things its check does not share with the others.
pub(super) struct CallRules {
    /// The family the quote's source chain must be of.
    pub family: ChainFamily,
    /// The transaction as a refusal names it ("an EVM call").
    pub what: &'static str,
    /// An address of the family as its 20 bytes (the calldata's form), or `None` when the text is not one. Measured
    /// before it is decoded, so a gateway's megabyte "address" costs neither time nor a megabyte sentence (quoted
    /// clipped).
    pub read: fn(&str) -> Option<Address>,
    /// The 20 bytes as the family writes an address (EIP-55, Base58Check).
    pub write: fn(Address) -> String,
    /// Whether the calldata may come without its `0x` (Tron's API writes it bare).
    pub bare_calldata: bool,
    /// The chain whose native coin the value is counted in when the family has one chain (Tron's TRX); else the
    /// quote's source chain.
    pub value_chain: Option<&'static str>,
}

/// The EVM chains' call: `0x` addresses (EIP-55 written), `0x` calldata.
const EVM_CALL: CallRules = CallRules {
    family: ChainFamily::Evm,
    what: "an EVM call",
    read: evm_address,
    write: checksummed,
    bare_calldata: false,
    value_chain: None,
};

fn checksummed(address: Address) -> String {
    address.to_checksum(None)
}

/// The call of an order of a family whose order is a call to the gateway's contract (`rules`), `to`, `value` and
/// `data` on `chain` as the gateway sent them, checked against the quote's source side: the chain and its family,
/// the contract (the quote's `txTo`, not a token, the pinned one where contracts are known), the native value, and
/// the calldata decoded against the quote (or, with blind signing, what could not be).
pub(super) fn verify_call(
    source: &QuotedSource,
    rules: &CallRules,
    chain: &str,
    to: &str,
    value: &str,
    data: &str,
    policy: &VerifyPolicy,
) -> Result<CallSummary, VerifyError> {
    require_family(source, rules.family, rules.what)?;
    same_chain(source, chain)?;
    let quoted = (rules.read)(&source.tx_to).ok_or_else(|| VerifyError::QuoteUnreadable {
        field: "txTo",
        value: clipped(&source.tx_to),
    })?;
    let to_address = (rules.read)(to).ok_or_else(|| VerifyError::BadTxAddress {
        value: clipped(to),
        family: rules.family.name(),
    })?;
    if to_address != quoted {
        return Err(VerifyError::WrongContract {
            quoted: clipped(&source.tx_to),
            found: clipped(to),
        });
    }
    let to_text = (rules.write)(to_address);
    not_a_token(source, &to_text)?;
    pinned(
        source,
        &to_text,
        |pinned| (rules.read)(pinned).is_some_and(|p| p == to_address),
        policy,
    )?;
    let value = check_value(source, value)?;
    let data = calldata(data, rules.bare_calldata)?;
    let token = if is_native_token(&source.chain, &source.token) {
        Address::ZERO
    } else {
        (rules.read)(&source.token).ok_or_else(|| VerifyError::QuoteUnreadable {
            field: "inputAmount.address",
            value: clipped(&source.token),
        })?
    };
    let checked = calldata::check(source, rules.family, token, &data, policy)?;
    let (decoded, entry, raw_data) = split(checked, &data);
    Ok(CallSummary {
        to: to_text,
        value: value.to_string(),
        value_text: native_value_text(rules.value_chain.unwrap_or(&source.chain), value),
        data_bytes: u32::try_from(data.len()).unwrap_or(u32::MAX),
        selector: selector(&data),
        decoded,
        entry,
        raw_data,
    })
}

/// Checks an EVM call against the quote's source side.
pub(super) fn verify_evm(
    source: &QuotedSource,
    tx: &EvmTx,
    policy: &VerifyPolicy,
) -> Result<EvmCallSummary, VerifyError> {
    let call = verify_call(
        source, &EVM_CALL, &tx.chain, &tx.to, &tx.value, &tx.data, policy,
    )?;
    Ok(EvmCallSummary {
        chain: source.chain.clone(),
        call,
    })
}

/// What the check found, as the summary shows it: the decoded call; or the entry call decoded with its inner call
/// not (blind signing on), with the raw calldata; or nothing decoded (blind signing on), with the raw calldata.
type Shown = (
    Option<calldata::DecodedCall>,
    Option<calldata::EntryCall>,
    Option<String>,
);

fn split(checked: CallCheck, data: &[u8]) -> Shown {
    let raw = || Some(format!("0x{}", alloy_primitives::hex::encode(data)));
    match checked {
        CallCheck::Decoded(call) => (Some(call), None, None),
        CallCheck::Entry(entry) => (None, Some(entry), raw()),
        CallCheck::Blind => (None, None, raw()),
    }
}

/// Refuses a call whose `to` is a token contract the app knows on the source chain: the gateway's contract is never
/// one, and a call to a token is how allowances and transfers are handed out.
pub(super) fn not_a_token(source: &QuotedSource, to: &str) -> Result<(), VerifyError> {
    match known_token(&source.chain, to) {
        Some(symbol) => Err(VerifyError::CallsTokenContract {
            contract: to.to_owned(),
            symbol,
        }),
        None => Ok(()),
    }
}

/// The symbol of the token contract at `address` on `chain`, when the app knows one there (the native asset's
/// spellings are no contract).
pub(super) fn known_token(chain: &str, address: &str) -> Option<String> {
    TokenRegistry::builtin()
        .get(chain, address)
        .filter(|info| !gateway_client::wire::is_native_token(chain, &info.address))
        .map(|info| info.symbol.clone())
}

/// On a network whose gateway contracts are known (the Sandbox's, or the real service's published entry of each
/// chain), the call must go to the one of the source chain, compared as an address (`matches`).
fn pinned(
    source: &QuotedSource,
    to: &str,
    matches: impl Fn(&str) -> bool,
    policy: &VerifyPolicy,
) -> Result<(), VerifyError> {
    match policy.contracts {
        GatewayContracts::Sandbox => {
            let expected = gateway_payload::sandbox::gateway_contract(source.chain.trim());
            if matches(&expected) {
                Ok(())
            } else {
                Err(VerifyError::NotTheGatewayContract {
                    found: to.to_owned(),
                    expected,
                })
            }
        }
        GatewayContracts::Published | GatewayContracts::SandboxProductionShape => {
            let entry =
                gateway_client::chains::chain(source.chain.trim()).and_then(|c| c.approval_spender);
            match entry {
                Some(expected) if matches(expected) => Ok(()),
                Some(expected) => Err(VerifyError::NotTheGatewayContract {
                    found: to.to_owned(),
                    expected: expected.to_owned(),
                }),
                None => Err(VerifyError::NoPublishedEntry {
                    chain: source.chain.trim().to_owned(),
                    found: to.to_owned(),
                }),
            }
        }
        GatewayContracts::Unknown => Ok(()),
    }
}

/// The sentence of a verified EVM call.
pub(super) fn evm_sentence(summary: &EvmCallSummary) -> String {
    let call = &summary.call;
    format!(
        "{}. {}",
        call_clause(call, &summary.chain),
        decoded_clause(&summary.chain, call.decoded.as_ref(), call.entry.as_ref()),
    )
}

/// What a verified call does, as its sentence begins: "Calls 0x… on bob, sending no native value, with 356 bytes of
/// data (function 0x…)".
pub(super) fn call_clause(call: &CallSummary, on: &str) -> String {
    format!(
        "Calls {} on {on}, sending {}, with {} bytes of data{}",
        call.to,
        value_clause(&call.value, &call.value_text),
        call.data_bytes,
        selector_clause(call.selector.as_deref()),
    )
}

/// `amount` (smallest units) of `token` on `chain` in the token's units (`50 USDT`); in smallest units only when the
/// app does not know the token.
fn token_units(chain: &str, token: &str, amount: &str) -> String {
    gateway_client::display::amount_text(
        gateway_client::TokenRegistry::builtin(),
        chain,
        token,
        amount,
    )
}

/// What the decoding checked, or what it did not (blind signing), in the tokens' units.
pub(super) fn decoded_clause(
    chain: &str,
    decoded: Option<&calldata::DecodedCall>,
    entry: Option<&calldata::EntryCall>,
) -> String {
    if let Some(entry) = entry {
        return format!(
            "Decoded as the entry contract's exec: lets {} take exactly {} (token {}), equal to the quote. NOT \
             DECODED: what {} does then is the gateway's own call ({} bytes{}), built by the gateway; before the \
             app's wallet signs it, the chain's simulation shows what it moves, and anything beyond the quote refuses it.",
            entry.target,
            token_units(chain, &entry.token, &entry.amount),
            entry.token,
            entry.target,
            entry.inner_bytes,
            entry
                .inner_selector
                .as_deref()
                .map_or_else(String::new, |s| format!(", function {s}")),
        );
    }
    match decoded {
        Some(call) => format!(
            "Decoded as {}: takes {} (token {}), delivers at least {} to {}{}; each equal to the quote.",
            call.function,
            token_units(chain, &call.token, &call.amount),
            call.token,
            if call.function == "offrampToBitcoin" {
                token_units("bitcoin", gateway_client::wire::NATIVE_TOKEN, &call.min_out)
            } else {
                "the quote's output less its slippage".to_owned()
            },
            call.recipient,
            call.dst_chain
                .as_deref()
                .map_or_else(String::new, |chain| format!(" on {chain}")),
        ),
        None => "NOT CHECKED: the app cannot decode this call (blind signing is on for this network), so what it \
                 moves and to whom was not compared with the quote."
            .to_owned(),
    }
}

fn value_clause(value: &str, text: &str) -> String {
    if value == "0" {
        "no native value".to_owned()
    } else {
        text.to_owned()
    }
}

fn selector_clause(selector: Option<&str>) -> String {
    selector.map_or_else(String::new, |s| format!(" (function {s})"))
}

/// Refuses a transaction kind that cannot run on the quote's source chain. An unknown chain slug is left to the
/// chain comparison.
fn require_family(
    source: &QuotedSource,
    family: ChainFamily,
    found: &'static str,
) -> Result<(), VerifyError> {
    match chain_family(&source.chain) {
        Some(actual) if actual != family => Err(VerifyError::WrongTxKind {
            chain: source.chain.clone(),
            found,
        }),
        _ => Ok(()),
    }
}

fn same_chain(source: &QuotedSource, chain: &str) -> Result<(), VerifyError> {
    if source.chain.trim().eq_ignore_ascii_case(chain.trim()) {
        Ok(())
    } else {
        Err(VerifyError::WrongChain {
            quoted: source.chain.clone(),
            found: chain.to_owned(),
        })
    }
}

/// The native value rule: exactly the quoted amount for the native token, zero for any other token.
fn check_value(source: &QuotedSource, value: &str) -> Result<U256, VerifyError> {
    let found = parse_base_units(value.trim()).map_err(|_| VerifyError::BadValue {
        value: value.to_owned(),
    })?;
    if is_native_token(&source.chain, &source.token) {
        let quoted =
            parse_base_units(source.amount.trim()).map_err(|_| VerifyError::QuoteUnreadable {
                field: "inputAmount.amount",
                value: source.amount.clone(),
            })?;
        if found != quoted {
            return Err(VerifyError::WrongNativeValue {
                chain: source.chain.clone(),
                found: found.to_string(),
                quoted: quoted.to_string(),
            });
        }
    } else if !found.is_zero() {
        return Err(VerifyError::UnquotedNativeValue {
            chain: source.chain.clone(),
            found: found.to_string(),
        });
    }
    Ok(found)
}

/// An EVM address, `0x` and 40 hex characters in any case (no checksum is required: only the bytes are compared).
fn evm_address(text: &str) -> Option<Address> {
    let hex = text.trim().strip_prefix("0x")?;
    if hex.len() != 40 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    Address::from_str(&hex.to_ascii_lowercase()).ok()
}

/// The calldata bytes: `0x` hex (the prefix may be absent only when `prefix_optional`), at least one byte.
fn calldata(text: &str, prefix_optional: bool) -> Result<Vec<u8>, VerifyError> {
    let bad = |reason: &str| VerifyError::BadCalldata {
        reason: reason.to_owned(),
    };
    let text = text.trim();
    let hex = match text.strip_prefix("0x") {
        Some(hex) => hex,
        None if prefix_optional => text,
        None => return Err(bad("it does not start with 0x")),
    };
    if hex.is_empty() {
        return Err(bad(
            "it is empty, so the call would not reach the gateway's function",
        ));
    }
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(bad("it is not hexadecimal"));
    }
    if hex.len() % 2 != 0 {
        return Err(bad("it has an odd number of hexadecimal characters"));
    }
    alloy_primitives::hex::decode(hex).map_err(|_| bad("it is not hexadecimal"))
}

/// `0x` and the first four bytes, when there are four.
pub(super) fn selector(data: &[u8]) -> Option<String> {
    data.get(..4)
        .map(|s| format!("0x{}", alloy_primitives::hex::encode(s)))
}
