//! The readable (non-`--json`) output: every fee line, amounts with decimals where the token is known, statuses in
//! words.

use desk_core::support::{BundleFile, ImportedBundle, LookupKind, LookupResult};
use desk_core::views::{AmountView, OrderView};
use gateway_client::display::{amount_with_usd, duration_text, fraction_as_percent, usd_text};
use gateway_client::wire::{
    CreateOrderResponse, MaxSpendable, OrderInfo, OrderStatus, OrderTx, QuoteView,
    RegisterTxResponse, TokenAmount, TokenTransfer,
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

/// get-max-spendable: the address and what a deposit from it can pay, in BTC and sats.
pub fn max_spendable(max: &MaxSpendable) {
    println!("Address:        {}", max.user_address);
    println!(
        "Spendable:      {} ({} sats), after the network fee of a deposit",
        money(&max.amount),
        max.amount.amount
    );
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
    for line in tx.to_tx_data().lines_to_sign() {
        println!("{line}");
    }
}

/// What an onramp order asks to be paid, in lines. An order matched by its OP_RETURN output names its address for
/// reference only: a payment to the bare address, without the output, cannot be matched to the order, so the only
/// way offered is the PSBT, which carries it (or, without one, a new quote that names the sender).
fn onramp_lines(address: &str, op_return: Option<&str>, psbt: Option<&str>) -> Vec<String> {
    let data = op_return.filter(|d| !d.is_empty());
    let mut lines = Vec::new();
    match data {
        Some(data) => {
            lines.push(format!("Deposit address (for reference only): {address}"));
            lines.push(format!("OP_RETURN data: {data}"));
            lines.push(
                "Do not pay this address from another wallet or by QR code: the payment must carry the OP_RETURN \
                 output, and a payment without it cannot be matched to the order."
                    .to_owned(),
            );
        }
        None => lines.push(format!("Pay to:         {address}")),
    }
    match (psbt, data) {
        (Some(psbt), _) => lines.push(format!("PSBT to sign:   {psbt}")),
        (None, Some(_)) => lines.push(
            "PSBT:           none, so nothing here can pay this order: quote again with --sender (the Bitcoin \
             address you pay from) and the gateway builds a PSBT that carries the output."
                .to_owned(),
        ),
        (None, None) => lines.push("PSBT:           none (the quote had no sender)".to_owned()),
    }
    lines
}

pub fn created(order: &CreateOrderResponse) {
    println!("Order:          {}", order.order_id());
    match order {
        CreateOrderResponse::Onramp(onramp) => {
            for line in onramp_lines(
                &onramp.address,
                onramp.op_return_data.as_deref(),
                onramp.psbt_hex.as_deref(),
            ) {
                println!("{line}");
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
            "{}: {} in {}",
            status.text(),
            amount_with_usd(registry(), "bitcoin", "BTC", &p.amount, p.usd.as_deref()),
            p.txid
        ),
        OrderStatus::Success { received_tokens } if !received_tokens.is_empty() => {
            let parts: Vec<String> = received_tokens.iter().map(transfer).collect();
            format!("{}: received {}", status.text(), parts.join("; "))
        }
        OrderStatus::Refunded { refunded_tokens } if !refunded_tokens.is_empty() => {
            let parts: Vec<String> = refunded_tokens.iter().map(transfer).collect();
            format!("{}: {}", status.text(), parts.join("; "))
        }
        other => other.text().to_owned(),
    }
}

fn when(timestamp: i64) -> String {
    desk_core::calendar::utc_text(timestamp)
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

/// Appends a line to the output being built (as `println!` would print it).
macro_rules! put {
    ($out:expr) => {
        $out.push('\n')
    };
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($out, $($arg)*);
    }};
}

/// `text` safe for a terminal: control characters other than line ends (a bundle comes from someone else, and an
/// escape sequence in a log line must not drive the reader's terminal) are shown escaped, `\u{1b}`.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() && c != '\n' {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// A time as people and logs write it, in UTC (`2025-11-21T04:40:00Z`).
fn utc(at: Option<i64>) -> String {
    at.map_or_else(|| "time unknown".to_owned(), when)
}

/// An order as Gateway Desk shows it (from a bundle or a lookup).
fn order_view(out: &mut String, order: &OrderView) {
    match (&order.order_id, order.local_id) {
        (Some(id), Some(local)) => put!(out, "Order:       {id} (the app's order {local})"),
        (Some(id), None) => put!(out, "Order:       {id}"),
        (None, Some(local)) => put!(
            out,
            "Order:       not created on the gateway (the app's order {local})"
        ),
        (None, None) => put!(out, "Order:       unknown"),
    }
    put!(out, "Route:       {}", order.route.key());
    put!(out, "Sends:       {}", amount_view(&order.send));
    put!(
        out,
        "Receives:    {} (expected)",
        amount_view(&order.receive)
    );
    match &order.status {
        Some(status) => put!(out, "Status:      {} ({status})", order.status_text),
        None => put!(out, "Status:      {}", order.status_text),
    }
    if let Some(stage) = &order.stage {
        let stage = serde_json::to_value(stage)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        put!(out, "Stage:       {stage}");
    }
    if let Some(next) = &order.next_step {
        put!(out, "Next step:   {}", next.sentence);
    }
    if let Some(tx) = &order.source_tx {
        put!(out, "Source tx:   {}", tx.tx_hash);
    }
    if let Some(address) = &order.deposit_address {
        put!(out, "Deposit:     {address}");
    }
    for t in &order.received {
        put!(
            out,
            "Received:    {} in {}",
            amount_view(&t.amount),
            t.tx_hash
        );
    }
    for t in &order.refunded {
        put!(
            out,
            "Refunded:    {} in {}",
            amount_view(&t.amount),
            t.tx_hash
        );
    }
    if let Some(error) = &order.last_error {
        put!(out, "Last error:  {error}");
    }
    put!(out, "Timeline:");
    for entry in &order.timeline {
        put!(
            out,
            "  {:<20}  {:<18} {}",
            utc(entry.at),
            entry.key,
            entry.text
        );
    }
}

fn amount_view(amount: &AmountView) -> String {
    let on = format!("{} on {}", amount.text, amount.token.chain);
    match &amount.usd {
        Some(usd) => format!("{on} ({})", usd_text(usd)),
        None => on,
    }
}

/// `gateway bundle FILE`: where the bundle was made, the order as the user saw it, its events and log lines.
pub fn bundle(file: &BundleFile, bundle: &ImportedBundle) {
    let mut out = String::new();
    put!(
        out,
        "Support bundle (version {}), made {}",
        file.version,
        utc(Some(bundle.created_at))
    );
    put!(out, "App version: {}", bundle.app_version);
    put!(out, "OS:          {}", bundle.os);
    put!(
        out,
        "Network:     {} (API {})",
        bundle.network,
        file.api_version
    );
    put!(
        out,
        "Identifiers: {}",
        if bundle.identifiers_included {
            "included in full"
        } else {
            "shortened to first4…last4"
        }
    );
    if !file.redactions.is_empty() {
        put!(out, "Redactions:");
        for sentence in &file.redactions {
            put!(out, "  - {sentence}");
        }
    }
    put!(out);
    order_view(&mut out, &bundle.order);
    put!(out);
    put!(out, "Events ({}):", bundle.events.len());
    for event in &bundle.events {
        put!(
            out,
            "  #{:<4} {:<20}  {}",
            event.seq,
            utc(Some(event.at)),
            event.kind
        );
    }
    put!(out);
    put!(out, "Log lines ({}):", bundle.log_lines.len());
    for line in &bundle.log_lines {
        put!(out, "  {line}");
    }
    print!("{}", printable(&out));
}

/// `gateway lookup QUERY`: each order as `gateway order` prints it, with what its status means and what to do.
pub fn lookup(result: &LookupResult) {
    let kind = match result.kind {
        LookupKind::Order => "order",
        LookupKind::Address => "address",
    };
    println!(
        "Looked up on {} ({}, API {}) as an {kind}: {} found",
        result.network_label,
        result.base_url,
        result.api_version,
        match result.orders.len() {
            1 => "1 order".to_owned(),
            n => format!("{n} orders"),
        }
    );
    if let Some(cut) = &result.cut {
        println!("{cut}");
    }
    for found in &result.orders {
        println!();
        match serde_json::from_str::<OrderInfo>(&found.raw_text) {
            Ok(info) => order(&info),
            Err(_) => {
                let mut out = String::new();
                order_view(&mut out, &found.order);
                print!("{}", printable(&out));
            }
        }
        println!("Meaning:   {}", found.explanation.meaning);
        println!("Next step: {}", found.explanation.next_step);
    }
}

#[cfg(test)]
mod tests {
    use super::onramp_lines;

    #[test]
    fn an_onramp_matched_by_op_return_offers_its_address_for_reference_only() {
        let lines = onramp_lines("bc1qdeposit", Some("6a20aa"), Some("70736274ff")).join("\n");
        assert!(lines.contains("Deposit address (for reference only): bc1qdeposit"));
        assert!(lines.contains("cannot be matched to the order"));
        assert!(lines.contains("PSBT to sign:   70736274ff"));
        assert!(!lines.contains("Pay to:"), "{lines}");
    }

    #[test]
    fn without_a_psbt_an_op_return_order_says_how_to_get_one() {
        let lines = onramp_lines("bc1qdeposit", Some("6a20aa"), None).join("\n");
        assert!(lines.contains("nothing here can pay this order"));
        assert!(lines.contains("--sender"));
        assert!(!lines.contains("Pay to:"), "{lines}");
    }

    #[test]
    fn without_op_return_data_the_address_is_the_way_to_pay() {
        let lines = onramp_lines("bc1qdeposit", None, None).join("\n");
        assert!(lines.contains("Pay to:         bc1qdeposit"));
        assert!(lines.contains("the quote had no sender"));
        // An empty string counts as absent, as the verifier reads it.
        assert!(onramp_lines("bc1qdeposit", Some(""), None)[0].starts_with("Pay to:"));
    }
}
