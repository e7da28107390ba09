//! create-order: the quote checked, the output reserved, and what the user must sign built.

use alloy_primitives::U256;
use gateway_client::ApiVersion;
use gateway_client::address::{ChainFamily, chain_family};
use gateway_client::wire::RouteKind;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::{
    Book, CreateContext, Ending, Leg, Order, amount_of, err, insufficient, normalize_address,
    opt_text, route_key, route_of_key, single_entry, slippage_of, text, usd_of,
};
use crate::integrity;
use crate::payload;
use crate::quote::{self, QuoteError};
use crate::signing::{QUOTE_TTL_SECS, SignatureError};

impl Book {
    /// create-order: checks the quote, reserves liquidity, builds the payload. Gives the 201 body.
    pub fn create_order(
        &mut self,
        ctx: &CreateContext<'_>,
        body: &Value,
    ) -> Result<Value, QuoteError> {
        let now = ctx.now;
        self.settle(now);
        let (key, quote) = single_entry(body, "onramp, offramp or tokenSwap")?;
        let route = route_of_key(&key, ctx.version).ok_or_else(|| {
            err(
                "INVALID_REQUEST",
                format!("{key:?} is not a route of {}", ctx.version.as_str()),
            )
        })?;
        let quote_value = Value::Object(quote.clone());
        let material = integrity::digest(route, &quote);

        // Genuine, unexpired, unused. `digest` names this issue of the quote: an onramp's material and its signed
        // nonce; another route's material (each issue allows one order).
        let (digest, kept_owner, kept_refund) = if route == RouteKind::Onramp {
            let signed = ctx
                .signer
                .verify_signed_quote(&quote_value, now, QUOTE_TTL_SECS)
                .map_err(|e| match e {
                    SignatureError::Expired { .. } => err(
                        "ORDER_EXPIRED",
                        format!("the quote is more than {QUOTE_TTL_SECS} seconds old; ask for a new quote"),
                    ),
                    other => err("INVALID_ORDER_ARGS", format!("the quote was refused: {other}; ask for a new quote and send it back unchanged")),
                })?;
            (
                format!("{material}:{}", signed.nonce),
                signed.kept.owner,
                signed.kept.refund,
            )
        } else {
            let issued = self.issued.get(&material).ok_or_else(|| {
                err(
                    "INVALID_ORDER_ARGS",
                    "this gateway did not issue this quote, or its amounts, tokens, chains or addresses were changed after it was issued; ask for a new quote and send it back unchanged",
                )
            })?;
            if now.saturating_sub(issued.at) > QUOTE_TTL_SECS {
                return Err(err(
                    "ORDER_EXPIRED",
                    format!(
                        "the quote is more than {QUOTE_TTL_SECS} seconds old; ask for a new quote"
                    ),
                ));
            }
            (material, issued.owners.front().cloned().flatten(), None)
        };
        let unused = self.issued.get(&digest).map_or(0, |i| i.unused);
        let duplicate = if route == RouteKind::Onramp {
            self.index.by_quote.get(&digest)
        } else {
            self.index.by_quote.get(&digest).filter(|_| unused == 0)
        };
        if let Some(&i) = duplicate {
            return Err(err(
                "DUPLICATE_ORDER",
                format!(
                    "an order was already created from this quote ({}); ask for a new quote for another order",
                    self.orders[i].id
                ),
            ));
        }

        // What goes in and out.
        let (src_chain, src_token, input) = amount_of(&quote, "inputAmount")?;
        let (dst_chain, dst_token, output) = amount_of(&quote, "outputAmount")?;
        let recipient = text(&quote, "recipient")?;
        let sender = opt_text(&quote, "sender");
        // The V3 offramp carries its owner; the others' was kept beside the quote.
        let owner = opt_text(&quote, "ownerAddress")
            .filter(|_| route == RouteKind::Offramp)
            .map(str::to_owned)
            .or(kept_owner);
        // V4 refunds to the source-chain address the quote names (an onramp's was kept beside it), and create-order
        // refuses a quote without one.
        let v4_refund = match route {
            RouteKind::Onramp => kept_refund.clone(),
            _ => opt_text(&quote, "refundAddress").map(str::to_owned),
        };
        if ctx.version == ApiVersion::V4 && v4_refund.is_none() {
            return Err(err(
                "MISSING_REFUND_ADDRESS",
                "refundAddress is required to create an order: ask for the quote again with refundAddress, an address on the source chain that can receive a refund",
            ));
        }
        // A refund goes back to an onramp's refund address (else its sender), or to the owner, the refund claimant,
        // of an offramp or token swap (else its sender); on V4 to its refund address.
        let refund_to = match route {
            _ if ctx.version == ApiVersion::V4 => v4_refund,
            RouteKind::Onramp => kept_refund
                .or_else(|| opt_text(&quote, "refundAddress").map(str::to_owned))
                .or_else(|| sender.map(str::to_owned)),
            RouteKind::Offramp | RouteKind::TokenSwap => {
                owner.clone().or_else(|| sender.map(str::to_owned))
            }
        };
        // The timeline follows the route, not the quote's `estimatedTimeInSecs` (a display value a client may drop).
        let estimated_secs = match route {
            RouteKind::Onramp => quote::ONRAMP_SECS,
            RouteKind::Offramp => quote::OFFRAMP_SECS,
            RouteKind::TokenSwap => quote::TOKEN_SWAP_SECS,
        };

        let pool = self.pool(ctx.catalogue, &dst_chain, &dst_token);
        if pool.available() < output {
            return Err(insufficient(&dst_chain, &dst_token, pool));
        }

        let id = uuid::Uuid::new_v4().to_string();
        let min_out = output * U256::from(10_000u32.saturating_sub(slippage_of(&quote)))
            / U256::from(10_000u32);
        let (deposit_address, op_return_data, created) = match route {
            RouteKind::Onramp => {
                let sats: u64 = input.try_into().map_err(|_| {
                    err(
                        "INVALID_ORDER_ARGS",
                        "the input amount is too large for Bitcoin",
                    )
                })?;
                let mut digest_bytes = [0u8; 32];
                digest_bytes.copy_from_slice(&Sha256::digest(digest.as_bytes()));
                let p = payload::onramp_payload_from(
                    ctx.signer.secret(),
                    &id,
                    &digest_bytes,
                    ctx.network,
                    sats,
                    sender,
                    |script| self.coins(script),
                )
                .map_err(|e| match e {
                    payload::PayloadError::InsufficientFunds { spendable, needed, .. } => err(
                        "INSUFFICIENT_CONFIRMED_FUNDS",
                        format!(
                            "sender: the address can spend {spendable} sats after the network fee; this deposit needs {needed} with the fee; ask for a quote of at most {spendable} sats"
                        ),
                    ),
                    other => err("INVALID_ORDER_ARGS", other.to_string()),
                })?;
                let mut inner = json!({"order_id": id, "address": p.address, "op_return_data": p.op_return_data});
                if let Some(psbt) = &p.psbt_hex {
                    inner["psbt_hex"] = json!(psbt);
                }
                (
                    p.address.clone(),
                    Some(p.op_return_data.clone()),
                    json!({ "onramp": inner }),
                )
            }
            RouteKind::Offramp | RouteKind::TokenSwap => {
                // V1's layerZero quote names the contract in its `tx`, later versions in `txTo`.
                let tx_to = match quote
                    .get("tx")
                    .and_then(|tx| tx.get("to"))
                    .and_then(Value::as_str)
                {
                    Some(to) if opt_text(&quote, "txTo").is_none() => to,
                    _ => text(&quote, "txTo")?,
                };
                let args = payload::OrderTxArgs {
                    order_id: &id,
                    tx_to,
                    sender,
                    token: &src_token,
                    amount: input,
                    dst_chain: &dst_chain,
                    dst_token: &dst_token,
                    recipient,
                    min_out,
                    recent_blockhash: ctx.recent_blockhash,
                };
                let tx = build_tx(ctx.version, route, &src_chain, &args, ctx.order_tx)?;
                (
                    tx_to.to_owned(),
                    None,
                    json!({ route_key(route, ctx.version): {"order_id": id, "tx": tx} }),
                )
            }
        };

        // V4 has no owner: its orders are listed under their refund address as well (the service does not document
        // which address it indexes V4 orders by; the sender's own address is what integrators send).
        let v4_refund = refund_to
            .as_deref()
            .filter(|_| ctx.version == ApiVersion::V4);
        let mut addresses: Vec<String> = [Some(recipient), sender, owner.as_deref(), v4_refund]
            .into_iter()
            .flatten()
            .map(normalize_address)
            .collect();
        addresses.sort();
        addresses.dedup();
        let order = Order {
            id: id.clone(),
            route,
            created_at: now,
            src: Leg {
                usd: usd_of(ctx.catalogue, &src_chain, &src_token, input),
                chain: src_chain,
                token: src_token,
                amount: input.to_string(),
            },
            dst: Leg {
                usd: usd_of(ctx.catalogue, &dst_chain, &dst_token, output),
                chain: dst_chain.clone(),
                token: dst_token.clone(),
                amount: output.to_string(),
            },
            deposit_address,
            op_return_data,
            estimated_secs,
            addresses,
            quote_digest: digest,
            ending: Ending::for_amount(&input.to_string()),
            registration: None,
            settled: false,
            created: created.clone(),
            recipient: Some(recipient.to_owned()),
            refund_to,
            read_from_chain: ctx.version == ApiVersion::V4 && route != RouteKind::Onramp,
        };
        self.pool_mut(ctx.catalogue, &dst_chain, &dst_token)
            .reserved += output;
        if let Some(issued) = self.issued.get_mut(&order.quote_digest) {
            issued.unused = issued.unused.saturating_sub(1);
            issued.owners.pop_front();
        }
        self.insert(order);
        Ok(created)
    }
}

/// The transaction of an offramp or token swap from `src_chain`, as `version` writes it.
fn build_tx(
    version: ApiVersion,
    route: RouteKind,
    src_chain: &str,
    args: &payload::OrderTxArgs<'_>,
    order_tx: super::OrderTxRules,
) -> Result<Value, QuoteError> {
    let bad = |e: payload::PayloadError| err("INVALID_ORDER_ARGS", e.to_string());
    let family = chain_family(src_chain);
    if let Some(family) = family.filter(|f| f.quote_needs_sender())
        && args.sender.is_none()
    {
        return Err(err(
            "INVALID_ORDER_ARGS",
            format!(
                "a {family} transaction needs the quote's sender (the fee payer); ask for a quote with sender set"
            ),
        ));
    }
    // A family whose order is a whole transaction the gateway builds (Solana's), rather than a call to its contract.
    if let Some(whole) = (order_tx.whole_order_tx)(src_chain, args) {
        let whole = whole.map_err(bad)?;
        return Ok(json!({
            "type": family,
            "chainId": whole.chain_id,
            "transaction": whole.transaction,
        }));
    }
    // A quote in the real service's shape names the chain's entry contract: the call is the gateway contract's, wrapped
    // in the entry's `exec` (quote::production_shape).
    let entry = crate::quote::entry_of(src_chain).filter(|entry| {
        family
            .is_some_and(|family| gateway_client::address::same_account(family, entry, args.tx_to))
    });
    let gateway = entry.map(|_| crate::quote::gateway_contract(src_chain));
    let to = gateway.as_deref().unwrap_or(args.tx_to);
    let call = match route {
        RouteKind::Offramp => payload::offramp_call(
            args.order_id,
            to,
            args.token,
            args.amount,
            args.min_out,
            args.recipient,
        ),
        _ => payload::swap_call(
            args.order_id,
            to,
            args.token,
            args.amount,
            args.dst_chain,
            args.dst_token,
            args.recipient,
            args.min_out,
        ),
    }
    .map_err(bad)?;
    let call = match entry {
        Some(entry) => {
            payload::production_shaped(&call, entry, args.token, args.amount).map_err(bad)?
        }
        None => call,
    };
    let mut tx = json!({"to": call.to, "data": call.data, "value": call.value, "chain": src_chain});
    // V3 tags the transaction with its family (`evm`, `tron`), and a call of a family with a fee limit carries it.
    if version >= ApiVersion::V3 {
        let family = family.unwrap_or(ChainFamily::Evm);
        tx["type"] = json!(family);
        if let Some(limit) = (order_tx.call_fee_limit)(family) {
            tx["feeLimit"] = json!(limit.to_string());
        }
    }
    Ok(tx)
}
