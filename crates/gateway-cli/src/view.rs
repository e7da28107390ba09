//! The readable (non-`--json`) output: every fee line, amounts with decimals where the token is known, statuses in
//! words.

use std::time::{Duration, UNIX_EPOCH};

use gateway_client::display::{amount_with_usd, duration_text, fraction_as_percent, usd_text};
use gateway_client::wire::{
    CreateOrderResponse, OrderInfo, OrderStatus, OrderTx, QuoteView, RegisterTxResponse,
    TokenAmount, TokenTransfer, TxData,
};
use gateway_client::{RouteInfo, TokenRegistry};

fn registry() -> &'static TokenRegistry {
    TokenRegistry::builtin()
}

fn token_name(chain: &str, token: &str) -> String {
    match registry().get(chain, token) {
        Some(info) => info.symbol.clone(),
        None => token.to_owned(),
    }
}

fn money(amount: &TokenAmount) -> String {
    amount_with_usd(
        registry(),
        &amount.chain,
        &amount.address,
        &amount.amount,
        amount.usd.as_deref(),
    )
}

pub fn routes(routes: &[RouteInfo]) {
    for route in routes {
        let kind = route.kind().as_str();
        println!(
            "{kind:<10} {} on {} -> {} on {}",
            token_name(&route.src_chain, &route.src_token),
            route.src_chain,
            token_name(&route.dst_chain, &route.dst_token),
            route.dst_chain
        );
    }
    println!("{} routes", routes.len());
}

pub fn quote(quote: &QuoteView) {
    let input = quote.input_amount();
    let output = quote.output_amount();
    println!(
        "Route:          {} ({} -> {})",
        quote.route(),
        input.chain,
        output.chain
    );
    println!("You send:       {}", money(input));
    println!("You receive:    {}", money(output));
    println!("Recipient:      {}", quote.recipient());
    if let Some(total) = quote.total_fees() {
        println!("Total fees:     {}", money(total));
    }
    println!("Fees:");
    for (label, fee) in quote.fee_lines() {
        println!("  {label:<20} {}", money(fee));
    }
    let (impact, impact_usd, slippage) = match quote {
        QuoteView::Onramp(q) => (
            q.price_impact.as_deref(),
            q.price_impact_usd.as_deref(),
            Some(q.slippage),
        ),
        QuoteView::Offramp(q) => {
            if let Some(usd) = &q.total_fee_usd {
                println!("Total fees USD: {}", usd_text(usd));
            }
            (
                q.price_impact.as_deref(),
                q.price_impact_usd.as_deref(),
                Some(q.slippage),
            )
        }
        QuoteView::TokenSwap(q) => {
            if let Some(affiliate) = &q.affiliate {
                println!(
                    "Affiliate:      {} ({} bps)",
                    affiliate.address, affiliate.bps
                );
            }
            (
                q.price_impact.as_deref(),
                q.price_impact_usd.as_deref(),
                Some(q.slippage),
            )
        }
        QuoteView::LayerZero(_) => (None, None, None),
    };
    let affiliates = match quote {
        QuoteView::Onramp(q) => &q.affiliates[..],
        QuoteView::Offramp(q) => &q.affiliates[..],
        QuoteView::TokenSwap(_) | QuoteView::LayerZero(_) => &[],
    };
    for affiliate in affiliates {
        println!(
            "Affiliate:      {} earns {}",
            affiliate.address,
            money(&affiliate.fee)
        );
    }
    match (impact.and_then(fraction_as_percent), impact_usd) {
        (Some(percent), Some(usd)) => println!("Price impact:   {percent} ({})", usd_text(usd)),
        (Some(percent), None) => println!("Price impact:   {percent}"),
        _ => println!("Price impact:   not given (no price feed)"),
    }
    if let Some(slippage) = slippage {
        println!("Slippage:       {} bps", slippage.bps());
    }
    match quote.estimated_time_in_secs() {
        Some(secs) => println!("Estimated time: {}", duration_text(secs)),
        None => println!("Estimated time: not given"),
    }
}

fn tx(tx: &OrderTx) {
    match tx.to_tx_data() {
        TxData::Evm(call) => {
            println!("Sign on {}: call {}", call.chain, call.to);
            println!("  value: {} wei", call.value);
            println!("  data:  {}", call.data);
        }
        TxData::Tron(call) => {
            println!("Sign on {}: call {}", call.chain, call.to);
            println!("  value:    {} sun", call.value);
            println!(
                "  feeLimit: {} sun (the most TRX the wallet may burn)",
                call.fee_limit
            );
            println!("  data:     {}", call.data);
        }
        TxData::Solana(sol) => {
            println!(
                "Sign on solana (chain id {}): decode, sign and broadcast this unsigned transaction",
                sol.chain_id
            );
            println!("  transaction (base64): {}", sol.transaction);
        }
    }
}

pub fn created(order: &CreateOrderResponse) {
    println!("Order:          {}", order.order_id());
    match order {
        CreateOrderResponse::Onramp(onramp) => {
            println!("Pay to:         {}", onramp.address);
            if let Some(data) = &onramp.op_return_data {
                println!("OP_RETURN data: {data}");
            }
            match &onramp.psbt_hex {
                Some(psbt) => println!("PSBT to sign:   {psbt}"),
                None => println!("PSBT:           none (the quote had no sender)"),
            }
        }
        CreateOrderResponse::Offramp(order)
        | CreateOrderResponse::TokenSwap(order)
        | CreateOrderResponse::LayerZero(order) => tx(&order.tx),
    }
    println!(
        "Next: sign, then `gateway register-tx --order-id {} …`",
        order.order_id()
    );
}

pub fn registered(answer: &RegisterTxResponse) {
    match answer {
        RegisterTxResponse::Ok => println!("Registered."),
        RegisterTxResponse::Onramp { txid } => {
            println!("Registered; the gateway broadcast Bitcoin txid {txid}.")
        }
    }
}

fn transfer(t: &TokenTransfer) -> String {
    format!(
        "{} in {}",
        amount_with_usd(registry(), &t.chain, &t.token, &t.amount, t.usd.as_deref()),
        t.tx_hash
    )
}

fn status(status: &OrderStatus) -> String {
    match status {
        OrderStatus::InProgress {
            pending_btc_payment: Some(p),
            ..
        } => format!(
            "in progress: Bitcoin payout {} pending in {}",
            amount_with_usd(registry(), "bitcoin", "BTC", &p.amount, p.usd.as_deref()),
            p.txid
        ),
        OrderStatus::Success { received_tokens } if !received_tokens.is_empty() => {
            let parts: Vec<String> = received_tokens.iter().map(transfer).collect();
            format!("completed: received {}", parts.join("; "))
        }
        OrderStatus::Refunded { refunded_tokens } if !refunded_tokens.is_empty() => {
            let parts: Vec<String> = refunded_tokens.iter().map(transfer).collect();
            format!("refunded: {}", parts.join("; "))
        }
        other => other.label().to_owned(),
    }
}

fn when(timestamp: i64) -> String {
    u64::try_from(timestamp)
        .map(|secs| {
            humantime::format_rfc3339_seconds(UNIX_EPOCH + Duration::from_secs(secs)).to_string()
        })
        .unwrap_or_else(|_| timestamp.to_string())
}

pub fn order(order: &OrderInfo) {
    let src = &order.src_info;
    let dst = &order.dst_info;
    println!("Order:     {}", order.id);
    println!("Created:   {}", when(order.timestamp));
    println!(
        "From:      {} on {}",
        amount_with_usd(
            registry(),
            &src.chain,
            &src.token,
            &src.amount,
            src.usd.as_deref()
        ),
        src.chain
    );
    if let Some(hash) = &src.tx_hash {
        println!("Source tx: {hash}");
    }
    println!(
        "To:        {} on {} (expected)",
        amount_with_usd(
            registry(),
            &dst.chain,
            &dst.token,
            &dst.amount,
            dst.usd.as_deref()
        ),
        dst.chain
    );
    if let Some(address) = &order.deposit_address {
        println!("Deposit:   {address}");
    }
    println!("Status:    {}", status(&order.status));
}

pub fn orders(orders: &[OrderInfo]) {
    for order in orders {
        let src = &order.src_info;
        let dst = &order.dst_info;
        println!(
            "{}  {}  {} {} -> {} {}  {}",
            order.id,
            when(order.timestamp),
            amount_with_usd(registry(), &src.chain, &src.token, &src.amount, None),
            src.chain,
            amount_with_usd(registry(), &dst.chain, &dst.token, &dst.amount, None),
            dst.chain,
            status(&order.status)
        );
    }
}
