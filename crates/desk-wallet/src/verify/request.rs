//! The quote checked against the request that asked for it, before it is shown or accepted.
//!
//! Everything the person asked for and the quote repeats must match: chains, tokens, the amount sent, recipient,
//! sender, owner (the V3 offramp and token swap carry it), slippage no higher than asked, and affiliates (each one the
//! quote charges must have been asked for, at no more bps). Addresses are compared by each chain's rules: EVM without
//! regard to case, Tron as Base58Check or `41…` hex of the same account, Bitcoin as the same output script and of the
//! deployment's network, Solana as the same key. The loss between what is sent and what is received is computed here,
//! never read from the gateway's `priceImpact`: in USD from the quote's own values when both sides carry one, else in
//! token units when both sides are the same unit (BTC and its wrappers, USD stablecoins, or the same symbol) with the
//! decimals of the app's token registry. A loss above [`GROSS_LOSS_BPS`] refuses the quote; one above
//! [`CONFIRM_LOSS_BPS`] is reported as needing the person's confirmation.

use alloy_primitives::U256;
use gateway_client::address::{BitcoinNetwork, ChainFamily, chain_family, validate_bitcoin};
use gateway_client::params::QuoteRequest;
use gateway_client::tokens::TokenRegistry;
use gateway_client::wire::{Quote, QuoteView, TokenAmount, is_native_token};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::calldata::bitcoin_script;
use super::{VerifyError, percent};
use gateway_client::usd::Usd;

/// A loss (sent value less received value) above this share, in bps, must be confirmed by the person: 5 %.
pub const CONFIRM_LOSS_BPS: u64 = 500;
/// A loss above this share, in bps, refuses the quote: 50 %.
pub const GROSS_LOSS_BPS: u64 = 5_000;
/// How far a quote's own figures may disagree with one another before it is refused as contradicting itself: 2 %.
pub const CONTRADICTION_BPS: u128 = 200;

/// What the app computed of a quote that matches its request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "QuoteCheck.ts")]
pub struct QuoteCheck {
    /// The loss between what is sent and what is received, when the app could compute it.
    pub loss: Option<Loss>,
    /// A sentence on the loss (or on why it could not be computed).
    pub loss_sentence: String,
    /// True when the loss is above [`CONFIRM_LOSS_BPS`]: the person must confirm it in numbers before accepting.
    pub needs_confirmation: bool,
    /// When the quote's fee lines do not add up to its total: what each says, a sentence to show as a warning.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fees_mismatch: Option<String>,
}

/// A loss computed by the app.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "Loss.ts")]
pub struct Loss {
    /// The loss as a share of what is sent, in bps (negative when more is received than sent is not possible here:
    /// a gain counts as 0).
    pub bps: u32,
    /// The same as a person reads it, two decimals: `7.50` (percent).
    pub percent: String,
    /// How it was computed: `usd` (the quote's own USD values) or `tokenUnits` (the same unit on both sides).
    pub basis: String,
}

impl Loss {
    fn of(bps: u32, basis: &str) -> Self {
        Self {
            bps,
            percent: percent(bps),
            basis: basis.to_owned(),
        }
    }
}

/// Checks `quote` against `request` (see the module docs). `network` is the deployment's Bitcoin network.
pub fn check_quote(
    request: &QuoteRequest,
    quote: &Quote,
    network: BitcoinNetwork,
) -> Result<QuoteCheck, VerifyError> {
    let view = quote.view();
    let input = view.input_amount();
    let output = view.output_amount();
    same_text("source chain", &request.src_chain, &input.chain)?;
    same_text("destination chain", &request.dst_chain, &output.chain)?;
    same_token(
        "token sent",
        &request.src_chain,
        &request.src_token,
        &input.address,
    )?;
    same_token(
        "token received",
        &request.dst_chain,
        &request.dst_token,
        &output.address,
    )?;
    let asked = parse(&request.amount, "amount asked")?;
    let sent = parse(&input.amount, "inputAmount.amount")?;
    if asked != sent {
        return Err(differs("amount sent", &request.amount, &input.amount));
    }
    same_address(
        "recipient",
        &request.dst_chain,
        &request.recipient,
        view.recipient(),
        network,
    )?;
    let (sender, owner, slippage) = match &view {
        QuoteView::Onramp(q) => {
            same_token(
                "token received",
                &request.dst_chain,
                &request.dst_token,
                &q.token,
            )?;
            same_text("destination chain", &request.dst_chain, &q.dst_chain)?;
            (q.sender.as_deref(), None, Some(q.slippage.bps()))
        }
        QuoteView::Offramp(q) => {
            same_text("source chain", &request.src_chain, &q.src_chain)?;
            same_token(
                "token sent",
                &request.src_chain,
                &request.src_token,
                &q.token_address,
            )?;
            (
                q.sender.as_deref(),
                q.owner_address.as_deref(),
                Some(q.slippage.bps()),
            )
        }
        QuoteView::TokenSwap(q) => {
            same_text("source chain", &request.src_chain, &q.src_chain)?;
            same_text("destination chain", &request.dst_chain, &q.dst_chain)?;
            if let Some(affiliate) = &q.affiliate {
                let asked = request
                    .affiliates
                    .iter()
                    .find(|a| addresses_equal(&request.src_chain, &a.address, &affiliate.address));
                match asked {
                    Some(a) if affiliate.bps <= a.bps => {}
                    _ => {
                        return Err(VerifyError::UnaskedAffiliate {
                            address: affiliate.address.clone(),
                        });
                    }
                }
            }
            (
                q.sender.as_deref(),
                q.owner_address.as_deref(),
                Some(q.slippage.bps()),
            )
        }
        QuoteView::LayerZero(q) => {
            same_text("source chain", &request.src_chain, &q.tx.chain)?;
            (q.sender.as_deref(), None, None)
        }
    };
    match (request.sender.as_deref(), sender) {
        (Some(asked), Some(quoted)) => {
            same_address("sender", &request.src_chain, asked, quoted, network)?
        }
        (None, Some(quoted)) => return Err(differs("sender", "none", quoted)),
        (Some(asked), None) if matches!(view, QuoteView::Onramp(_)) => {
            // An onramp with a sender comes back with it: the PSBT spends its coins.
            return Err(differs("sender", asked, "none"));
        }
        _ => {}
    }
    if let (Some(asked), Some(quoted)) = (request.owner_address.as_deref(), owner) {
        same_address("owner", "ethereum", asked, quoted, network)?;
    } else if let (None, Some(quoted)) = (request.owner_address.as_deref(), owner) {
        return Err(differs("owner", "none", quoted));
    }
    // V4's offramp and token swap name the refund address, on the source chain: where the input goes back if the
    // swap fails. Another than the one asked for would send a refund to a stranger.
    if let Some(quoted) = view.refund_address() {
        match request.refund_address.as_deref() {
            Some(asked) => {
                same_address("refund address", &request.src_chain, asked, quoted, network)?
            }
            None => return Err(differs("refund address", "none", quoted)),
        }
    }
    if let Some(quoted) = slippage
        && quoted > request.slippage_bps
    {
        return Err(VerifyError::SlippageAboveAsked {
            asked: request.slippage_bps,
            quoted,
        });
    }
    let resolved = match &view {
        QuoteView::Onramp(q) => Some((&q.affiliates, q.affiliate_address.as_deref())),
        QuoteView::Offramp(q) => Some((&q.affiliates, q.affiliate_address.as_deref())),
        _ => None,
    };
    if let Some((affiliates, single)) = resolved {
        check_resolved_affiliates(request, affiliates, single)?;
    }
    loss_check(quote)
}

/// The loss of `quote` as the app computes it (see the module docs): a gross loss is refused, one above
/// [`CONFIRM_LOSS_BPS`] needs confirmation.
pub fn loss_check(quote: &Quote) -> Result<QuoteCheck, VerifyError> {
    contradictions(quote)?;
    let view = quote.view();
    let loss = loss_of(view.input_amount(), view.output_amount());
    let (loss_sentence, needs_confirmation) = match &loss {
        Some(loss) if u64::from(loss.bps) > GROSS_LOSS_BPS => {
            return Err(VerifyError::GrossLoss {
                percent: loss.percent.clone(),
            });
        }
        Some(loss) => (
            format!(
                "You receive {} % less than you send ({}), computed by the app.",
                loss.percent,
                if loss.basis == "usd" {
                    "by the quote's own USD values"
                } else {
                    "in token units"
                }
            ),
            u64::from(loss.bps) > CONFIRM_LOSS_BPS,
        ),
        None => (
            "The app cannot compute the loss of this swap: the quote carries no USD values and the tokens are of \
             different units."
                .to_owned(),
            false,
        ),
    };
    Ok(QuoteCheck {
        loss,
        loss_sentence,
        needs_confirmation,
        fees_mismatch: fees_mismatch(quote),
    })
}

/// A sentence when the quote's fee lines do not add up to its stated total (in the token when the lines and the
/// total are of one token, else in USD within a cent a line of rounding); `None` when they do, or when there is
/// nothing to add (one line).
pub fn fees_mismatch(quote: &Quote) -> Option<String> {
    let view = quote.view();
    let lines = view.fee_lines();
    if lines.len() < 2 {
        return None;
    }
    if let Some(total) = view.total_fees()
        && lines.iter().all(|(_, line)| {
            line.address.eq_ignore_ascii_case(&total.address) && line.chain == total.chain
        })
    {
        let mut sum = U256::ZERO;
        for (_, line) in &lines {
            sum = sum
                .checked_add(gateway_client::amount::parse_base_units(line.amount.trim()).ok()?)?;
        }
        let stated = gateway_client::amount::parse_base_units(total.amount.trim()).ok()?;
        return (sum != stated).then(|| {
            format!(
                "The quote's fee lines add up to {sum} (smallest units), but its total fee says {stated}: the gateway's \
                 figures are inconsistent. Check what you receive before you go on."
            )
        });
    }
    // No total in the lines' token (a V2/V3 offramp): compare in USD, a cent of rounding a line.
    let inner = quote.raw().as_object()?.values().next()?.as_object()?;
    let stated = Usd::parse(inner.get("totalFeeUsd")?.as_str()?)?;
    let mut sum = Usd::ZERO;
    for (_, line) in &lines {
        sum = sum.checked_add(line.usd.as_deref().and_then(Usd::parse)?)?;
    }
    let slack = 10_000 * u128::try_from(lines.len()).ok()?;
    (sum.micros().abs_diff(stated.micros()) > slack).then(|| {
        format!(
            "The quote's fee lines add up to ${}, but its total fee says ${}: the gateway's figures are \
             inconsistent. Check what you receive before you go on.",
            sum.cents_text(),
            stated.cents_text()
        )
    })
}

/// Refuses to start an order from `quote` when its loss needs confirmation and `accepted_bps` (what the person
/// confirmed, in bps) does not cover it.
pub fn require_confirmed_loss(
    quote: &Quote,
    accepted_bps: Option<u32>,
) -> Result<QuoteCheck, VerifyError> {
    let check = loss_check(quote)?;
    check.confirmed(accepted_bps)?;
    Ok(check)
}

impl QuoteCheck {
    /// Refuses when the loss needs confirmation and `accepted_bps` (what the person confirmed) does not cover it.
    pub fn confirmed(&self, accepted_bps: Option<u32>) -> Result<(), VerifyError> {
        match &self.loss {
            Some(loss) if self.needs_confirmation && accepted_bps.unwrap_or(0) < loss.bps => {
                Err(VerifyError::LossNotConfirmed {
                    percent: loss.percent.clone(),
                })
            }
            _ => Ok(()),
        }
    }
}

/// Each affiliate an onramp or offramp quote charges must be one the request named.
fn check_resolved_affiliates(
    request: &QuoteRequest,
    resolved: &[gateway_client::wire::ResolvedAffiliate],
    single: Option<&str>,
) -> Result<(), VerifyError> {
    let asked = |address: &str| {
        request
            .affiliates
            .iter()
            .any(|a| same_account_any_chain(&a.address, address))
            || request
                .affiliate_id
                .as_deref()
                .is_some_and(|id| id.trim().eq_ignore_ascii_case(address.trim()))
    };
    for address in resolved.iter().map(|a| a.address.as_str()).chain(single) {
        if !asked(address) {
            return Err(VerifyError::UnaskedAffiliate {
                address: address.to_owned(),
            });
        }
    }
    Ok(())
}

fn differs(what: &'static str, asked: &str, quoted: &str) -> VerifyError {
    VerifyError::QuoteDiffersFromRequest {
        what,
        asked: asked.to_owned(),
        quoted: quoted.to_owned(),
    }
}

fn parse(text: &str, field: &'static str) -> Result<U256, VerifyError> {
    gateway_client::amount::parse_base_units(text.trim()).map_err(|_| {
        VerifyError::QuoteUnreadable {
            field,
            value: text.to_owned(),
        }
    })
}

fn same_text(what: &'static str, asked: &str, quoted: &str) -> Result<(), VerifyError> {
    if asked.trim().eq_ignore_ascii_case(quoted.trim()) {
        Ok(())
    } else {
        Err(differs(what, asked, quoted))
    }
}

fn same_token(
    what: &'static str,
    chain: &str,
    asked: &str,
    quoted: &str,
) -> Result<(), VerifyError> {
    let native = |t: &str| is_native_token(chain, t.trim());
    if (native(asked) && native(quoted))
        || (!native(asked) && !native(quoted) && addresses_equal(chain, asked, quoted))
    {
        Ok(())
    } else {
        Err(differs(what, asked, quoted))
    }
}

fn same_address(
    what: &'static str,
    chain: &str,
    asked: &str,
    quoted: &str,
    network: BitcoinNetwork,
) -> Result<(), VerifyError> {
    if chain_family(chain) == Some(ChainFamily::Bitcoin)
        && validate_bitcoin(quoted, network).is_err()
    {
        return Err(differs(what, asked, quoted));
    }
    if addresses_equal(chain, asked, quoted) {
        Ok(())
    } else {
        Err(differs(what, asked, quoted))
    }
}

/// Two addresses of `chain` name the same account (see the module docs): EVM (and Tron written as EVM hex, and
/// Solana's native token as the zero address) by their 20 bytes, Tron by its 21-byte account, Bitcoin by output
/// script, Solana by key.
pub fn addresses_equal(chain: &str, a: &str, b: &str) -> bool {
    use gateway_client::address::same_account;
    fn same<T: PartialEq>(x: Option<T>, y: Option<T>) -> bool {
        matches!((x, y), (Some(x), Some(y)) if x == y)
    }
    let (a, b) = (a.trim(), b.trim());
    let as_evm = || same_account(ChainFamily::Evm, a, b);
    match chain_family(chain) {
        Some(ChainFamily::Evm) => as_evm(),
        Some(ChainFamily::Bitcoin) => same(bitcoin_script(a), bitcoin_script(b)),
        // Tron by its account (or written as EVM hex), Solana by its key (or its native token as the zero address).
        Some(added) => same_account(added, a, b) || as_evm(),
        None => a == b,
    }
}

/// Two addresses whose chain is not stated (an affiliate's) name the same account on some chain.
fn same_account_any_chain(a: &str, b: &str) -> bool {
    ChainFamily::ALL
        .iter()
        .any(|family| addresses_equal(family.first_chain(), a, b))
}

/// Refuses a quote whose figures contradict one another, so that it cannot hide a loss behind its own dollar figures
/// (the loss is computed from them when both sides have one):
/// - a `txTo` that is a token contract the app knows on the source chain (the gateway's contract is never one);
/// - a USD stablecoin valued more than [`CONTRADICTION_BPS`] away from its amount in dollars;
/// - Bitcoin on both sides (BTC and its wrappers) at prices more than that apart;
/// - fee lines (all with a USD value) that do not account for what is sent less what is received, within that share
///   of what is sent (and a cent a line).
pub fn contradictions(quote: &Quote) -> Result<(), VerifyError> {
    let view = quote.view();
    let contradicts = |what: String| Err(VerifyError::QuoteContradicts { what });
    let tx_to = match view {
        QuoteView::Offramp(q) => Some(q.tx_to.as_str()),
        QuoteView::TokenSwap(q) => Some(q.tx_to.as_str()),
        QuoteView::Onramp(_) | QuoteView::LayerZero(_) => None,
    };
    let input = view.input_amount();
    let output = view.output_amount();
    let registry = TokenRegistry::builtin();
    if let Some(to) = tx_to
        && let Some(symbol) = super::call::known_token(&input.chain, to.trim())
    {
        return contradicts(format!(
            "it names {} as the contract to call, which is the {symbol} token contract on {}, not a gateway contract",
            gateway_client::display::clipped(to),
            input.chain
        ));
    }
    let usd = |side: &TokenAmount| side.usd.as_deref().and_then(Usd::parse);
    // A side's amount scaled to 18 decimals (exact: no truncation, however small), with its unit and symbol.
    let scaled = |side: &TokenAmount| {
        let info = registry.get(&side.chain, &side.address)?;
        let amount = gateway_client::amount::parse_base_units(side.amount.trim()).ok()?;
        let scale = U256::from(10u8).checked_pow(U256::from(18u8.checked_sub(info.decimals)?))?;
        Some((
            amount.checked_mul(scale)?,
            unit_of(&info.symbol),
            info.symbol.clone(),
        ))
    };
    // The gateway writes USD values in cents: a value may be off by half a cent either way, so a figure is read as
    // the range a cent wide around it. Two products are apart when even the nearest ends of their ranges differ by
    // more than CONTRADICTION_BPS of the larger.
    const CENT: u128 = 10_000;
    let apart = |(a_lo, a_hi): (U256, U256), (b_lo, b_hi): (U256, U256)| {
        let gap = if a_lo > b_hi {
            a_lo - b_hi
        } else if b_lo > a_hi {
            b_lo - a_hi
        } else {
            U256::ZERO
        };
        gap * U256::from(10_000u32) > a_hi.max(b_hi) * U256::from(CONTRADICTION_BPS)
    };
    let range = |usd: Usd, times: U256| {
        (
            U256::from(usd.micros().saturating_sub(CENT / 2)) * times,
            U256::from(usd.micros().saturating_add(CENT / 2)) * times,
        )
    };
    let e12 = U256::from(10u64.pow(12));
    for (side, name) in [(input, "sent"), (output, "received")] {
        // Dollars of a stablecoin in micro-dollars x 10^12 (18 decimals), against its USD value x 10^12.
        if let (Some((amount18, unit, symbol)), Some(value)) = (scaled(side), usd(side))
            && unit == "USD"
            && apart((amount18, amount18), range(value, e12))
        {
            let micros = u128::try_from(amount18 / e12).unwrap_or(u128::MAX);
            return contradicts(format!(
                "the {} {symbol} {name}, a US dollar stablecoin, is valued at ${}",
                Usd::from_micros(micros).cents_text(),
                value.cents_text()
            ));
        }
    }
    if let (Some((btc_in, unit_in, _)), Some((btc_out, unit_out, _)), Some(usd_in), Some(usd_out)) =
        (scaled(input), scaled(output), usd(input), usd(output))
        && unit_in == "BTC"
        && unit_out == "BTC"
        && !btc_in.is_zero()
        && !btc_out.is_zero()
        // usd_in / btc_in against usd_out / btc_out, multiplied out.
        && apart(range(usd_in, btc_out), range(usd_out, btc_in))
    {
        let e18 = U256::from(10u64.pow(18));
        let price = |usd: Usd, btc: U256| {
            Usd::from_micros(
                u128::try_from(U256::from(usd.micros()) * e18 / btc).unwrap_or(u128::MAX),
            )
        };
        return contradicts(format!(
            "it prices Bitcoin at {} on the side sent and {} on the side received",
            price(usd_in, btc_in).grouped_text(),
            price(usd_out, btc_out).grouped_text()
        ));
    }
    let lines = view.fee_lines();
    if let (Some(sent), Some(got)) = (usd(input), usd(output))
        && !lines.is_empty()
        && sent.micros() > 0
    {
        let mut fees = Usd::ZERO;
        for (_, line) in &lines {
            match line
                .usd
                .as_deref()
                .and_then(Usd::parse)
                .and_then(|v| fees.checked_add(v))
            {
                Some(sum) => fees = sum,
                None => return Ok(()),
            }
        }
        let implied = sent.micros().saturating_sub(got.micros());
        let slack = sent.micros().saturating_mul(CONTRADICTION_BPS) / 10_000
            + 10_000 * u128::try_from(lines.len()).unwrap_or(u128::MAX / 20_000);
        if implied.abs_diff(fees.micros()) > slack {
            return contradicts(format!(
                "it sends ${} and delivers ${}, ${} less, but its fee lines add up to ${}",
                sent.cents_text(),
                got.cents_text(),
                Usd::from_micros(implied).cents_text(),
                fees.cents_text()
            ));
        }
    }
    Ok(())
}

/// The loss from `input` to `output` (see the module docs), `None` when it cannot be computed.
fn loss_of(input: &TokenAmount, output: &TokenAmount) -> Option<Loss> {
    if let (Some(sent), Some(got)) = (
        input.usd.as_deref().and_then(Usd::parse).map(Usd::micros),
        output.usd.as_deref().and_then(Usd::parse).map(Usd::micros),
    ) && sent > 0
    {
        return Some(Loss::of(share_bps(sent, got), "usd"));
    }
    let registry = TokenRegistry::builtin();
    let a = registry.get(&input.chain, &input.address)?;
    let b = registry.get(&output.chain, &output.address)?;
    if unit_of(&a.symbol) != unit_of(&b.symbol) {
        return None;
    }
    // Both to 18 decimals, so amounts of different decimals compare.
    let scale = |amount: &str, decimals: u8| {
        let value = gateway_client::amount::parse_base_units(amount.trim()).ok()?;
        value.checked_mul(U256::from(10u8).checked_pow(U256::from(18u8.checked_sub(decimals)?))?)
    };
    let sent = scale(&input.amount, a.decimals)?;
    let got = scale(&output.amount, b.decimals)?;
    if sent.is_zero() {
        return None;
    }
    let lost = sent.saturating_sub(got);
    let bps = lost.saturating_mul(U256::from(10_000u32)) / sent;
    Some(Loss::of(u32::try_from(bps).unwrap_or(10_000), "tokenUnits"))
}

/// The unit a token's symbol is counted in: BTC for Bitcoin and its wrappers, USD for stablecoins, else the symbol.
fn unit_of(symbol: &str) -> String {
    let upper = symbol.trim().to_ascii_uppercase();
    if upper.ends_with("BTC") {
        "BTC".into()
    } else if ["USDT", "USDC", "USDT0", "USDC.E", "DAI", "USDS", "FDUSD"].contains(&upper.as_str())
    {
        "USD".into()
    } else if let Some(rest) = upper
        .strip_prefix('W')
        .filter(|r| ["ETH", "BNB", "AVAX", "TRX", "SOL"].contains(r))
    {
        rest.to_owned()
    } else {
        upper
    }
}

/// `(sent − got) / sent` in bps; 0 when nothing is lost.
fn share_bps(sent: u128, got: u128) -> u32 {
    let lost = sent.saturating_sub(got);
    u32::try_from(lost.saturating_mul(10_000) / sent).unwrap_or(10_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offramp(input_sats: &str, output_sats: &str, usd: Option<(&str, &str)>) -> Quote {
        let wbtc = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
        let fee = serde_json::json!({"address": wbtc, "amount": "0", "chain": "bob"});
        let mut q = serde_json::json!({"offramp": {
            "srcChain": "bob", "tokenAddress": wbtc,
            "inputAmount": {"address": wbtc, "amount": input_sats, "chain": "bob"},
            "outputAmount": {"address": "0x0000000000000000000000000000000000000000", "amount": output_sats, "chain": "bitcoin"},
            "feeBreakdown": {"solverFee": fee, "inclusionFee": fee, "protocolFee": fee, "affiliateFee": fee,
                             "fastestFeeRate": "5"},
            "recipient": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "slippage": 300,
            "txTo": "0x676174657761792d73696d2d636F6E7472616374"
        }});
        if let Some((sent, got)) = usd {
            q["offramp"]["inputAmount"]["usd"] = serde_json::json!(sent);
            q["offramp"]["outputAmount"]["usd"] = serde_json::json!(got);
        }
        Quote::from_json(q).unwrap()
    }

    #[test]
    fn the_loss_is_computed_by_the_app_and_a_large_one_must_be_confirmed_in_numbers() {
        // WBTC (8 decimals) to BTC (8 decimals): the same unit, so token units count.
        let fair = offramp("100000", "99000", None);
        let check = require_confirmed_loss(&fair, None).unwrap();
        assert_eq!(check.loss.unwrap().bps, 100);
        assert!(!check.needs_confirmation);

        let costly = offramp("100000", "92500", None);
        assert_eq!(
            require_confirmed_loss(&costly, None).unwrap_err(),
            VerifyError::LossNotConfirmed {
                percent: "7.50".into()
            }
        );
        assert!(require_confirmed_loss(&costly, Some(749)).is_err());
        assert!(
            require_confirmed_loss(&costly, Some(750))
                .unwrap()
                .needs_confirmation
        );

        let gross = offramp("100000", "40000", None);
        assert!(matches!(
            require_confirmed_loss(&gross, Some(10_000)).unwrap_err(),
            VerifyError::GrossLoss { .. }
        ));
        // USD values, when both sides carry one and agree with each other, come first.
        let by_usd = offramp("100000", "99000", Some(("100.00", "98.00")));
        let check = loss_check(&by_usd).unwrap();
        assert_eq!(
            check.loss.as_ref().map(|l| (l.bps, l.basis.as_str())),
            Some((200, "usd"))
        );
        // USD values that hide the loss the amounts show contradict the amounts: refused with the numbers.
        let hidden = offramp("100000", "40000", Some(("100.00", "99.00")));
        assert!(matches!(
            loss_check(&hidden),
            Err(VerifyError::QuoteContradicts { ref what })
                if what == "it prices Bitcoin at $100,000.00 on the side sent and $247,500.00 on the side received"
        ));
    }

    /// A token swap of `input` USDT (6 decimals) on BOB for `output` USDT on Ethereum, with USD values and one fee line
    /// of `fee_usd`.
    fn usdt_swap(input: &str, usd_in: &str, output: &str, usd_out: &str, fee_usd: &str) -> Quote {
        let usdt_bob = "0x05D032ac25d322df992303dCa074EE7392C117b9";
        Quote::from_json(serde_json::json!({"tokenSwap": {
            "srcChain": "bob", "dstChain": "ethereum",
            "inputAmount": {"address": usdt_bob, "amount": input, "chain": "bob", "usd": usd_in},
            "outputAmount": {"address": "0xdac17f958d2ee523a2206206994597c13d831ec7", "amount": output,
                             "chain": "ethereum", "usd": usd_out},
            "fees": {"address": usdt_bob, "amount": "1000000", "chain": "bob", "usd": fee_usd},
            "recipient": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "slippage": 100,
            "txTo": "0x676174657761792d73696d2d636F6E7472616374"
        }}))
        .unwrap()
    }

    #[test]
    fn a_quote_that_contradicts_itself_is_refused_with_the_numbers() {
        let contradiction = |q: &Quote| match contradictions(q) {
            Err(VerifyError::QuoteContradicts { what }) => what,
            other => panic!("not a contradiction: {other:?}"),
        };
        // Fair: 500 USDT for 499 USDT, a $1 fee line.
        let fair = usdt_swap("500000000", "500.00", "499000000", "499.00", "1.00");
        assert_eq!(contradictions(&fair), Ok(()));
        assert_eq!(loss_check(&fair).unwrap().loss.unwrap().bps, 20);
        // It pays 1 % of a fair amount while keeping fair USD figures: the stablecoin received is valued at 100×.
        let one_percent = usdt_swap("500000000", "500.00", "4990000", "499.00", "1.00");
        assert_eq!(
            contradiction(&one_percent),
            "the 4.99 USDT received, a US dollar stablecoin, is valued at $499.00"
        );
        // 20 % less with every fee line unchanged: its own USD figures show it, and the fee lines do not explain it.
        let twenty = usdt_swap("500000000", "500.00", "399200000", "399.20", "1.00");
        assert_eq!(
            contradiction(&twenty),
            "it sends $500.00 and delivers $399.20, $100.80 less, but its fee lines add up to $1.00"
        );
        // Small amounts whose USD values are rounded to the cent are not contradictions: 1,050 sats and 1,040 sats
        // at $87,123.45 a bitcoin are written $0.91 and $0.91, 100 sats and 99 sats $0.09; 0.0001 USDT is $0.00.
        assert_eq!(
            contradictions(&offramp("1050", "1040", Some(("0.91", "0.91")))),
            Ok(())
        );
        assert_eq!(
            contradictions(&offramp("100", "99", Some(("0.09", "0.09")))),
            Ok(())
        );
        assert_eq!(
            contradictions(&usdt_swap("100", "0.00", "99", "0.00", "0.00")),
            Ok(())
        );
        // Within 2 % and a cent a line: rounding and spread pass.
        let spread = usdt_swap("500000000", "500.00", "490000000", "490.00", "1.00");
        assert_eq!(contradictions(&spread), Ok(()));
        // A txTo that is a token contract is refused at the quote.
        let mut raw = fair.raw().clone();
        raw["tokenSwap"]["txTo"] = serde_json::json!("0x05D032ac25d322df992303dCa074EE7392C117b9");
        assert_eq!(
            contradiction(&Quote::from_json(raw).unwrap()),
            "it names 0x05D032ac25d322df992303dCa074EE7392C117b9 as the contract to call, which is the USDT token \
             contract on bob, not a gateway contract"
        );
        let err = loss_check(&one_percent).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("Do not accept it; ask for a new quote."),
            "{err}"
        );
    }

    #[test]
    fn fee_lines_that_do_not_add_up_are_said_so() {
        let q = offramp("100000", "99000", None);
        // The test quote's lines are all 0 and it states no total: nothing to compare.
        assert_eq!(fees_mismatch(&q), None);
        let mut raw = q.raw().clone();
        raw["offramp"]["fees"] = serde_json::json!({"address": raw["offramp"]["tokenAddress"], "amount": "5", "chain": "bob"});
        let q = Quote::from_json(raw.clone()).unwrap();
        let sentence = fees_mismatch(&q).unwrap();
        assert!(
            sentence.contains("add up to 0") && sentence.contains("says 5"),
            "{sentence}"
        );
        raw["offramp"]["fees"]["amount"] = serde_json::json!("0");
        assert_eq!(fees_mismatch(&Quote::from_json(raw).unwrap()), None);
    }

    #[test]
    fn usd_text_reads_as_micros_through_the_one_usd_type() {
        let parse_usd = |text: &str| Usd::parse(text).map(Usd::micros);
        assert_eq!(parse_usd("1.5"), Some(1_500_000));
        assert_eq!(parse_usd("0.0000019"), Some(1));
        assert_eq!(parse_usd("12"), Some(12_000_000));
        assert_eq!(parse_usd("x"), None);
        assert_eq!(parse_usd("-1"), None);
    }

    #[test]
    fn shares_are_in_bps_and_a_gain_is_no_loss() {
        assert_eq!(share_bps(100, 99), 100);
        assert_eq!(share_bps(100, 1), 9_900);
        assert_eq!(share_bps(100, 150), 0);
    }

    #[test]
    fn wrapped_bitcoin_and_stablecoins_share_a_unit() {
        assert_eq!(unit_of("WBTC"), unit_of("BTC"));
        assert_eq!(unit_of("tBTC"), "BTC");
        assert_eq!(unit_of("USDT"), unit_of("USDC"));
        assert_eq!(unit_of("WETH"), unit_of("ETH"));
        assert_ne!(unit_of("ETH"), unit_of("BTC"));
    }

    #[test]
    fn addresses_compare_by_each_chains_rules() {
        assert!(addresses_equal(
            "bob",
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"
        ));
        assert!(addresses_equal(
            "tron",
            "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
            "41a614f803b6fd780986a42c78ec9c7f77e6ded13c"
        ));
        assert!(addresses_equal(
            "bitcoin",
            "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
            "BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ"
        ));
        assert!(!addresses_equal(
            "bitcoin",
            "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
            "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"
        ));
        assert!(!addresses_equal("bob", "0x00", "0x00"));
    }
}
