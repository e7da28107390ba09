//! The calldata of an offramp or token-swap call, decoded against the gateway contract's ABI and compared with the
//! quote, field by field.
//!
//! The known contract is the Sandbox's (`gateway_payload::evm::IGatewaySim`, on EVM chains and Tron): the
//! function must fit the route (`offrampToBitcoin` for an offramp, `swapCrossChain` for a token swap), and its order
//! id, token, amount, destination chain, destination token and recipient must be the order's and the quote's; its
//! minimum output may not be below the quote's output less the quoted slippage. A token call as the main call
//! (`approve`, `permit`, `increaseAllowance`, `transfer`, `transferFrom`, `setApprovalForAll`) is refused with its own
//! sentence. Any other calldata is not decoded: refused, unless the person turned on blind signing for the network,
//! and then shown as not checked.

use std::str::FromStr;

use alloy_primitives::{Address, B256, U256};
use alloy_sol_types::SolCall;
use gateway_client::address::ChainFamily;
use gateway_client::wire::RouteKind;
use gateway_payload::evm::{IGatewaySim, chain_id, destination_bytes32, order_id_hash};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{QuotedSource, VerifyError, VerifyPolicy};

alloy_sol_types::sol! {
    /// Token functions that must never be the main call of an order: each hands tokens (or the right to move them)
    /// to whoever the arguments name.
    interface ITokenCalls {
        function approve(address spender, uint256 amount) external returns (bool);
        function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external;
        function increaseAllowance(address spender, uint256 addedValue) external returns (bool);
        function transfer(address to, uint256 amount) external returns (bool);
        function transferFrom(address from, address to, uint256 amount) external returns (bool);
        function setApprovalForAll(address operator, bool approved) external;
    }
}

alloy_sol_types::sol! {
    /// 0x Protocol's AllowanceHolder (0xProject/0x-settler, `IAllowanceHolder`), the real service's entry contract
    /// on each chain: `exec` lets `target` (through `operator`) pull exactly `amount` of `token` from the caller
    /// during this one call, then calls `target` with `data`, the gateway's own call.
    interface IAllowanceHolder {
        function exec(address operator, address token, uint256 amount, address target, bytes data) external payable returns (bytes result);
    }
}

/// `exec(address,address,uint256,address,bytes)`, as 0x-settler and the gateway's SDK give it.
pub const EXEC_SELECTOR: [u8; 4] = [0x22, 0x13, 0xbc, 0x0b];

/// The contract an `exec` call hands the caller's tokens to (its `target`), when `data` is one.
pub(crate) fn exec_target(data: &[u8]) -> Option<Address> {
    if data.get(..4)? != EXEC_SELECTOR {
        return None;
    }
    IAllowanceHolder::execCall::abi_decode(data)
        .ok()
        .map(|c| c.target)
}

/// How a native input may be named as `exec`'s token: the zero address, or the `0xEeee…` placeholder many
/// integrations of AllowanceHolder use.
const NATIVE_PLACEHOLDER: Address = Address::new([0xee; 20]);

/// The token functions refused as the main call, by selector.
const TOKEN_CALLS: [([u8; 4], &str); 6] = [
    (ITokenCalls::approveCall::SELECTOR, "approve"),
    (ITokenCalls::permitCall::SELECTOR, "permit"),
    (
        ITokenCalls::increaseAllowanceCall::SELECTOR,
        "increaseAllowance",
    ),
    (ITokenCalls::transferCall::SELECTOR, "transfer"),
    (ITokenCalls::transferFromCall::SELECTOR, "transferFrom"),
    (
        ITokenCalls::setApprovalForAllCall::SELECTOR,
        "setApprovalForAll",
    ),
];

/// A gateway contract call as the app decoded it, every field already compared with the quote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "DecodedCall.ts")]
pub struct DecodedCall {
    /// The function: `offrampToBitcoin` or `swapCrossChain`.
    pub function: String,
    /// The token the contract takes (the quote's source token; the zero address for the native token).
    pub token: String,
    /// The amount it takes, smallest units: the quote's input amount.
    pub amount: String,
    /// The least the order may deliver, smallest units of the destination token: at least the quote's output less
    /// the quoted slippage.
    pub min_out: String,
    /// Who receives: the quote's recipient.
    pub recipient: String,
    /// The destination chain (a token swap), as the quote names it.
    pub dst_chain: Option<String>,
}

/// The real service's entry call as the app decoded it: AllowanceHolder's `exec`, whose token and amount are the
/// quote's; the gateway's own inner call (`target` and `data`) is not public and not decoded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "EntryCall.ts")]
pub struct EntryCall {
    /// `exec`, the entry contract's function.
    pub function: String,
    /// The token `target` may pull, as the chain writes it: the quote's input token.
    pub token: String,
    /// How much it may pull, smallest units: the quote's input amount.
    pub amount: String,
    /// Who may pull it during the call (`operator`).
    pub operator: String,
    /// The gateway's own contract that `exec` calls: built by the gateway, not decoded.
    pub target: String,
    /// The length of the gateway's own calldata, bytes.
    pub inner_bytes: u32,
    /// Its 4-byte selector, when it has one.
    pub inner_selector: Option<String>,
}

/// What the calldata check found: a decoded call, or (blind signing on) a call nobody checked.
pub(super) enum CallCheck {
    /// Decoded and equal to the quote.
    Decoded(DecodedCall),
    /// The entry call decoded and equal to the quote; its inner call not decoded (simulated before signing).
    Entry(EntryCall),
    /// Not decoded; blind signing allowed it through, to be shown as not checked.
    Blind,
}

/// Decodes `data` against the gateway contract and compares it with the quote, as explained in the module docs.
/// `token` is the source token as 20 bytes (the zero address for the native token).
pub(super) fn check(
    source: &QuotedSource,
    family: ChainFamily,
    token: Address,
    data: &[u8],
    policy: &VerifyPolicy,
) -> Result<CallCheck, VerifyError> {
    let Some(selector) = data.get(..4) else {
        return blind_or_refuse(policy, data);
    };
    if let Some((_, name)) = TOKEN_CALLS.iter().find(|(s, _)| s == selector) {
        return Err(VerifyError::TokenCallAsMain { function: name });
    }
    let floor = floor_out(source)?;
    let quoted_amount = quote_u256(&source.amount, "inputAmount.amount")?;
    let order = B256::from(order_id_hash(&source.order_id));
    // A token as the source family writes it (Tron's Base58Check); the zero address (native) as it is.
    let token_text = |address: Address| match family.account_from_body(address.0.0) {
        Some(text) if !address.is_zero() => text,
        _ => address.to_checksum(None),
    };
    if selector == EXEC_SELECTOR {
        return entry_call(source, token, quoted_amount, data, policy, &token_text);
    }
    if selector == IGatewaySim::offrampToBitcoinCall::SELECTOR {
        let call = IGatewaySim::offrampToBitcoinCall::abi_decode(data)
            .map_err(|e| undecodable_args("offrampToBitcoin", &e))?;
        require_route(source, RouteKind::Offramp, "offrampToBitcoin")?;
        let expected = Expected {
            order,
            token,
            amount: quoted_amount,
            chain: source.chain.clone(),
        };
        expected.check(call.orderId, call.token, call.amount, &token_text)?;
        min_out(call.minBtcOut, floor)?;
        let paid = bitcoin_script(&call.btcRecipient);
        let quoted =
            bitcoin_script(&source.recipient).ok_or_else(|| VerifyError::QuoteUnreadable {
                field: "recipient",
                value: source.recipient.clone(),
            })?;
        same(
            paid.as_ref() == Some(&quoted),
            "pays the Bitcoin to",
            || (call.btcRecipient.clone(), source.recipient.clone()),
        )?;
        return Ok(CallCheck::Decoded(DecodedCall {
            function: "offrampToBitcoin".into(),
            token: token_text(call.token),
            amount: call.amount.to_string(),
            min_out: call.minBtcOut.to_string(),
            recipient: call.btcRecipient,
            dst_chain: None,
        }));
    }
    if selector == IGatewaySim::swapCrossChainCall::SELECTOR {
        let call = IGatewaySim::swapCrossChainCall::abi_decode(data)
            .map_err(|e| undecodable_args("swapCrossChain", &e))?;
        require_route(source, RouteKind::TokenSwap, "swapCrossChain")?;
        let expected = Expected {
            order,
            token,
            amount: quoted_amount,
            chain: source.chain.clone(),
        };
        expected.check(call.orderId, call.token, call.amount, &token_text)?;
        let dst_id = chain_id(&source.dst_chain).ok_or_else(|| VerifyError::QuoteUnreadable {
            field: "dstChain",
            value: source.dst_chain.clone(),
        })?;
        same(
            call.dstChainId == dst_id,
            "delivers on the chain with id",
            || (call.dstChainId.to_string(), dst_id.to_string()),
        )?;
        let dst_token = destination_bytes32(&source.dst_chain, &source.dst_token, "dstToken")
            .map_err(|_| VerifyError::QuoteUnreadable {
                field: "outputAmount.address",
                value: source.dst_token.clone(),
            })?;
        same(call.dstToken.0 == dst_token, "delivers the token", || {
            (call.dstToken.to_string(), B256::from(dst_token).to_string())
        })?;
        let recipient = destination_bytes32(&source.dst_chain, &source.recipient, "recipient")
            .map_err(|_| VerifyError::QuoteUnreadable {
                field: "recipient",
                value: source.recipient.clone(),
            })?;
        same(call.recipient.0 == recipient, "delivers to", || {
            (call.recipient.to_string(), source.recipient.clone())
        })?;
        min_out(call.minAmountOut, floor)?;
        return Ok(CallCheck::Decoded(DecodedCall {
            function: "swapCrossChain".into(),
            token: token_text(call.token),
            amount: call.amount.to_string(),
            min_out: call.minAmountOut.to_string(),
            recipient: source.recipient.clone(),
            dst_chain: Some(source.dst_chain.clone()),
        }));
    }
    blind_or_refuse(policy, data)
}

/// AllowanceHolder's `exec`: its token and amount must be the quote's input, and its target no token contract the app
/// knows (a call to a token is how allowances and transfers are handed out). What the target then does is the
/// gateway's own and is not decoded: let through, shown as such, and simulated on the chain before anything is
/// signed ([`crate::simulate`]), which refuses anything beyond the quote leaving the wallet. Where nothing runs it
/// before the signature (`policy.simulated` false), only with blind signing on.
fn entry_call(
    source: &QuotedSource,
    token: Address,
    quoted_amount: U256,
    data: &[u8],
    policy: &VerifyPolicy,
    token_text: &impl Fn(Address) -> String,
) -> Result<CallCheck, VerifyError> {
    let call =
        IAllowanceHolder::execCall::abi_decode(data).map_err(|e| undecodable_args("exec", &e))?;
    let native = token.is_zero();
    same(
        call.token == token || (native && call.token == NATIVE_PLACEHOLDER),
        "lets the gateway take the token",
        || (token_text(call.token), token_text(token)),
    )?;
    same(
        call.amount == quoted_amount,
        "lets the gateway take",
        || (call.amount.to_string(), quoted_amount.to_string()),
    )?;
    let target = token_text(call.target);
    super::call::not_a_token(source, &target)?;
    let entry = EntryCall {
        function: "exec".into(),
        token: if native {
            "native".into()
        } else {
            token_text(call.token)
        },
        amount: call.amount.to_string(),
        operator: token_text(call.operator),
        target,
        inner_bytes: u32::try_from(call.data.len()).unwrap_or(u32::MAX),
        inner_selector: super::call::selector(&call.data),
    };
    if !policy.simulated && !policy.blind_signing {
        return Err(VerifyError::InnerCallNotDecoded {
            target: entry.target,
            amount: entry.amount,
            token: entry.token,
        });
    }
    Ok(CallCheck::Entry(entry))
}

/// What both gateway functions take first, as the order and the quote say.
struct Expected {
    order: B256,
    token: Address,
    amount: U256,
    /// The source chain, whose token list names the amounts.
    chain: String,
}

impl Expected {
    /// The call's order id, token and amount against the expected ones.
    fn check(
        &self,
        order: B256,
        token: Address,
        amount: U256,
        token_text: &impl Fn(Address) -> String,
    ) -> Result<(), VerifyError> {
        same(order == self.order, "is for the order", || {
            (order.to_string(), self.order.to_string())
        })?;
        same(token == self.token, "takes the token", || {
            (token_text(token), token_text(self.token))
        })?;
        // The tokens are the same by now: both amounts are read in its units (`500 USDT`), never as raw numbers.
        let units = |value: U256| {
            gateway_client::display::amount_text(
                gateway_client::TokenRegistry::builtin(),
                &self.chain,
                &token_text(self.token),
                &value.to_string(),
            )
        };
        same(amount == self.amount, "takes", || {
            (units(amount), units(self.amount))
        })
    }
}

fn blind_or_refuse(policy: &VerifyPolicy, data: &[u8]) -> Result<CallCheck, VerifyError> {
    if policy.blind_signing {
        Ok(CallCheck::Blind)
    } else {
        Err(VerifyError::UndecodableCall {
            selector: super::call::selector(data).unwrap_or_else(|| "none".into()),
        })
    }
}

fn undecodable_args(function: &str, err: &alloy_sol_types::Error) -> VerifyError {
    VerifyError::BadCalldata {
        reason: format!("its arguments are not those of {function} ({err})"),
    }
}

fn require_route(
    source: &QuotedSource,
    route: RouteKind,
    function: &'static str,
) -> Result<(), VerifyError> {
    if source.route == route {
        Ok(())
    } else {
        Err(VerifyError::WrongFunction {
            function,
            route: source.route,
        })
    }
}

fn same(
    equal: bool,
    what: &'static str,
    values: impl FnOnce() -> (String, String),
) -> Result<(), VerifyError> {
    if equal {
        return Ok(());
    }
    let (found, quoted) = values();
    Err(VerifyError::CallDiffers {
        what,
        found,
        quoted,
    })
}

fn min_out(found: U256, floor: U256) -> Result<(), VerifyError> {
    if found >= floor {
        Ok(())
    } else {
        Err(VerifyError::MinimumBelowQuote {
            found: found.to_string(),
            floor: floor.to_string(),
        })
    }
}

fn quote_u256(text: &str, field: &'static str) -> Result<U256, VerifyError> {
    gateway_client::amount::parse_base_units(text.trim()).map_err(|_| {
        VerifyError::QuoteUnreadable {
            field,
            value: text.to_owned(),
        }
    })
}

/// The least the quote lets the order deliver: its output less the quoted slippage, rounded down.
pub(super) fn floor_out(source: &QuotedSource) -> Result<U256, VerifyError> {
    let output = quote_u256(&source.output, "outputAmount.amount")?;
    let keep = 10_000u32.saturating_sub(source.slippage_bps);
    Ok(output.saturating_mul(U256::from(keep)) / U256::from(10_000u32))
}

/// The output script of a Bitcoin address of any network.
pub(super) fn bitcoin_script(text: &str) -> Option<bitcoin::ScriptBuf> {
    bitcoin::Address::from_str(text.trim())
        .ok()
        .map(|address| address.assume_checked().script_pubkey())
}
