//! Computed get-quote answers for the three routes, per API version.
//!
//! # Fee model
//!
//! Every fee is charged in the input token (for an onramp: in BTC sats) and rounded down per line:
//!
//! | route | fee line | amount |
//! |---|---|---|
//! | onramp, offramp | solver fee | 20 bps of the input ([`SOLVER_FEE_BPS`]) |
//! | onramp, offramp | protocol fee | 10 bps of the input ([`PROTOCOL_FEE_BPS`]) |
//! | onramp, offramp | affiliate fee | for each affiliate, its bps of the input; the line is their sum |
//! | onramp | execution fee | 1500 sats ([`ONRAMP_EXECUTION_FEE_SATS`]) |
//! | onramp | messaging fee (`layerzeroFee`) | 800 sats when the destination chain is not `bob`, else 0 |
//! | offramp | inclusion fee | 2000 sats converted into the input token; `fastestFeeRate` is `"12"` |
//! | tokenSwap | fees | 25 bps of the input ([`TOKEN_SWAP_FEE_BPS`]), plus the one V3 affiliate's bps |
//!
//! `outputAmount` is `input − fees` converted into the destination token through USD (see [`crate::pricing`]),
//! rounded down. V2 and V3 carry `usd` on every amount and fee line, `priceImpact` (−fees/input, 4 decimals, the
//! magnitude rounded down) and `priceImpactUsd` (−USD value of the fees, excluding the onramp execution fee as the
//! specification says); V1 carries none of them. `estimatedTimeInSecs`: onramp 600, offramp 1800, tokenSwap 120.
//!
//! # Rules
//!
//! Each refusal is HTTP 400 with `{code, error, details?}`; see the crate README for the full table.

use std::collections::HashMap;

use alloy_primitives::{Address, U256};
use gateway_client::ApiVersion;
use gateway_client::address::{BitcoinNetwork, chain_family, validate_address};
use gateway_client::params::Affiliate;
use gateway_client::wire::RouteKind;
use serde_json::{Map, Value, json};

use crate::catalogue::{Catalogue, ListedToken};
use crate::pricing::{self, Priced};
use crate::signing::{Kept, QuoteSigner};

/// Solver fee, bps of the input.
pub const SOLVER_FEE_BPS: u32 = 20;
/// Protocol fee, bps of the input (onramp, offramp).
pub const PROTOCOL_FEE_BPS: u32 = 10;
/// Total fee of a token swap, bps of the input.
pub const TOKEN_SWAP_FEE_BPS: u32 = 25;
/// Onramp execution fee, sats.
pub const ONRAMP_EXECUTION_FEE_SATS: u64 = 1_500;
/// Onramp messaging fee (`layerzeroFee`) when the destination is not `bob`, sats.
pub const ONRAMP_MESSAGING_FEE_SATS: u64 = 800;
/// Offramp Bitcoin inclusion fee, sats.
pub const OFFRAMP_INCLUSION_FEE_SATS: u64 = 2_000;
/// The offramp's `fastestFeeRate`, sat/vB: the simulated chain's fee rate ([`crate::payload::FEE_RATE_SAT_PER_VB`]).
pub const FASTEST_FEE_RATE: &str = "12";
/// Smallest onramp, sats.
pub const ONRAMP_MINIMUM_SATS: u64 = 10_000;
/// Smallest offramp or token swap: this many micro-dollars of the input token (10 USD).
pub const MINIMUM_USD_MICRO: u64 = 10_000_000;
/// Slippage bounds in bps.
pub const MIN_SLIPPAGE_BPS: u32 = 50;
/// The smallest slippage a token swap takes, bps (onramps and offramps: [`MIN_SLIPPAGE_BPS`]); below it the quote
/// is refused with `SLIPPAGE_TOO_LOW`.
pub const MIN_TOKEN_SWAP_SLIPPAGE_BPS: u32 = 100;
/// The largest slippage any route takes, bps; above it V3 answers `MAX_SLIPPAGE_EXCEEDED` (naming this limit and
/// [`SUGGESTED_SLIPPAGE_BPS`]), V1 and V2 `SLIPPAGE_TOO_HIGH`.
pub const MAX_SLIPPAGE_BPS: u32 = 1_000;
/// What V3's `MAX_SLIPPAGE_EXCEEDED` suggests instead: the official client's default.
pub const SUGGESTED_SLIPPAGE_BPS: u32 = 300;
/// Affiliate limits (onramp, offramp; V3 tokenSwap takes one).
pub const MAX_AFFILIATES: usize = 5;
/// The most the affiliate fees of one quote may add up to, bps; above it the quote is refused with
/// `INVALID_AFFILIATE_FEE`.
pub const MAX_AFFILIATE_TOTAL_BPS: u32 = 1_000;
/// Largest amount accepted, so that the exact arithmetic stays within 256 bits.
const MAX_AMOUNT_DIGITS: usize = 36;

/// Estimated completion times, seconds.
pub const ONRAMP_SECS: u64 = 600;
/// The offramp's `estimatedTimeInSecs`, and T of an offramp order's timeline in [`crate::orders`].
pub const OFFRAMP_SECS: u64 = 1_800;
/// The token swap's `estimatedTimeInSecs`, and T of a token-swap order's timeline in [`crate::orders`].
pub const TOKEN_SWAP_SECS: u64 = 120;

/// A refused quote: the 400 body.
#[derive(Debug, Clone, PartialEq)]
pub struct QuoteError {
    /// The machine-readable code, the body's `code` (`INVALID_REQUEST`, `SLIPPAGE_TOO_LOW`, …).
    pub code: &'static str,
    /// The sentence for the caller, the body's `error`.
    pub message: String,
    /// Facts a client can act on (a limit, a suggested value), the body's `details`; left out when `None`.
    pub details: Option<Value>,
}

impl QuoteError {
    pub(crate) fn new(code: &'static str, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            details: None,
        }
    }

    pub(crate) fn with(mut self, details: Value) -> Self {
        self.details = Some(details);
        self
    }

    fn invalid(message: impl Into<String>) -> Self {
        Self::new("INVALID_REQUEST", message)
    }

    fn affiliate(message: impl Into<String>) -> Self {
        Self::new("INVALID_AFFILIATE_FEE", message)
    }

    /// The error body; `details` is left out when there are none.
    pub fn body(&self) -> Value {
        let mut body = json!({"code": self.code, "error": self.message});
        if let Some(details) = &self.details {
            body["details"] = details.clone();
        }
        body
    }
}

pub use crate::payload::sandbox::gateway_contract;

/// Reads `address:bps,…` with the interface's rules: the entry format and bps above 0 through the client's reader
/// (the wire format is shared), and no address twice (EVM addresses compared without case).
fn parse_affiliates(list: &str) -> Result<Vec<Affiliate>, QuoteError> {
    let entries = gateway_client::params::parse_affiliates(list)
        .map_err(|e| QuoteError::affiliate(e.to_string()))?;
    for (i, entry) in entries.iter().enumerate() {
        let same = |other: &Affiliate| {
            if entry.address.starts_with("0x") {
                other.address.eq_ignore_ascii_case(&entry.address)
            } else {
                other.address == entry.address
            }
        };
        if entries[..i].iter().any(same) {
            return Err(QuoteError::affiliate(format!(
                "affiliate {} is listed twice",
                entry.address
            )));
        }
    }
    Ok(entries)
}

fn bps_of(amount: U256, bps: u32) -> U256 {
    amount * U256::from(bps) / U256::from(10_000u32)
}

/// An amount of one listed token, written as a `GatewayTokenAmount(V2)`.
struct Line<'a> {
    token: &'a ListedToken,
    priced: Priced,
    amount: U256,
}

/// Writes amounts for one version: `usd` only from V2 on.
struct Writer {
    with_usd: bool,
}

impl Writer {
    fn amount(&self, line: &Line<'_>) -> Value {
        let mut v = json!({
            "address": line.token.address,
            "amount": line.amount.to_string(),
            "chain": line.token.chain,
        });
        if self.with_usd {
            v["usd"] = json!(pricing::usd_string(line.amount, line.priced));
        }
        v
    }
}

/// −fees/input as a decimal fraction with 4 decimals, the magnitude rounded down: `"-0.0030"`.
pub fn price_impact(fees: U256, input: U256) -> String {
    let ten_k = U256::from(10_000u32);
    let scaled = fees * ten_k / input;
    if scaled.is_zero() {
        return "0.0000".into();
    }
    format!("-{}.{:04}", scaled / ten_k, (scaled % ten_k).to::<u64>())
}

/// −USD value of `fees` (2 decimals, magnitude rounded down).
fn price_impact_usd(fees: U256, priced: Priced) -> String {
    let usd = pricing::usd_string(fees, priced);
    if usd == "0.00" {
        usd
    } else {
        format!("-{usd}")
    }
}

/// The request, read from the query string.
struct Request<'a> {
    params: &'a HashMap<String, String>,
}

impl Request<'_> {
    fn get(&self, name: &str) -> Option<&str> {
        self.params.get(name).map(|s| s.trim())
    }

    fn required(&self, name: &str) -> Result<&str, QuoteError> {
        self.get(name)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| QuoteError::invalid(format!("{name} is required")))
    }
}

/// The `ownerAddress` of a get-quote request, where the version takes one (V3), empty meaning none.
pub fn owner_param(version: ApiVersion, params: &HashMap<String, String>) -> Option<&str> {
    match version {
        // V4 dropped ownerAddress: a V4 request's is ignored, as the service ignores any parameter it does not know.
        ApiVersion::V3 => params
            .get("ownerAddress")
            .map(String::as_str)
            .filter(|o| !o.is_empty()),
        _ => None,
    }
}

/// What a V3 or V4 get-quote request asks the gateway to keep beside an onramp quote that has no field for it (its
/// owner, V3 only, and refund address); empty for other versions.
pub fn kept(version: ApiVersion, params: &HashMap<String, String>) -> Kept {
    let text = |name: &str| {
        params
            .get(name)
            .filter(|v| !v.is_empty() && version.takes_refund_address())
            .cloned()
    };
    Kept {
        owner: text("ownerAddress").filter(|_| version.takes_owner_address()),
        refund: text("refundAddress"),
    }
}

/// The real service's shape of a quote from an EVM chain or Tron: its `txTo` is the source chain's published entry
/// contract (`gateway_client::chains`' `approval_spender`, the AllowanceHolder the gateway's SDK pins), not the
/// Sandbox's gateway contract; create-order then answers with that contract's `exec` ([`entry_of`]). A chain with no
/// published entry keeps the Sandbox's contract.
pub fn production_shape(quote: &mut Value) {
    let Some(routes) = quote.as_object_mut() else {
        return;
    };
    for route in routes.values_mut() {
        let chain = route
            .get("inputAmount")
            .and_then(|a| a.get("chain"))
            .or_else(|| route.get("srcChain"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let (Some(chain), Some(tx_to)) = (chain, route.get_mut("txTo")) else {
            continue;
        };
        if let Some(entry) = entry_of(&chain) {
            *tx_to = json!(entry);
        }
    }
}

/// The published entry contract of `chain` (EVM or Tron), as the Sandbox places it on its local chains.
pub fn entry_of(chain: &str) -> Option<&'static str> {
    // Only the chains that approve a spender have one (gateway-client's table: EVM chains and Tron).
    gateway_client::chains::chain(chain).and_then(|c| c.approval_spender)
}

/// Computes the quote envelope for a get-quote request (`params` is the query string), or the refusal.
pub fn get_quote(
    catalogue: &Catalogue,
    signer: &QuoteSigner,
    version: ApiVersion,
    network: BitcoinNetwork,
    params: &HashMap<String, String>,
    now: u64,
) -> Result<Value, QuoteError> {
    let req = Request { params };
    let src_chain = req.required("srcChain")?;
    let dst_chain = req.required("dstChain")?;
    let src_token = req.required("srcToken")?;
    let dst_token = req.required("dstToken")?;
    let amount_text = req.required("amount")?;
    let recipient = req.required("recipient")?;
    let slippage_text = req.required("slippage")?;
    for deprecated in ["gasRefill", "strategyTarget", "strategyMessage"] {
        if params.contains_key(deprecated) {
            return Err(QuoteError::invalid(format!(
                "{deprecated} is deprecated and no longer supported; leave it out"
            )));
        }
    }
    if !amount_text.bytes().all(|b| b.is_ascii_digit())
        || amount_text.trim_start_matches('0').len() > MAX_AMOUNT_DIGITS
    {
        return Err(QuoteError::invalid(format!(
            "amount {amount_text:?} is not a whole number of at most {MAX_AMOUNT_DIGITS} digits"
        )));
    }
    let input: U256 = amount_text
        .parse()
        .map_err(|_| QuoteError::invalid("amount is not a number"))?;
    if input.is_zero() {
        return Err(QuoteError::invalid("amount must be greater than 0"));
    }
    let slippage: u32 = slippage_text.parse().map_err(|_| {
        QuoteError::invalid(format!(
            "slippage {slippage_text:?} is not whole basis points"
        ))
    })?;
    let owner = owner_param(version, params);
    if let Some(owner) = owner
        && owner.parse::<Address>().is_err()
    {
        return Err(QuoteError::invalid(format!(
            "ownerAddress {owner:?} is not an EVM address"
        )));
    }
    let sender = req.get("sender").filter(|s| !s.is_empty());

    // The route, through the same catalogue as get-routes.
    let no_route = || {
        QuoteError::new(
            "NO_ROUTE",
            format!("no route from {src_token} on {src_chain} to {dst_token} on {dst_chain}"),
        )
        .with(json!({
            "src_chain": src_chain, "src_token": src_token,
            "dst_chain": dst_chain, "dst_token": dst_token,
        }))
    };
    let src = catalogue.find(src_chain, src_token).ok_or_else(no_route)?;
    let dst = catalogue.find(dst_chain, dst_token).ok_or_else(no_route)?;
    let kind = catalogue
        .route_kind(version, src, dst)
        .ok_or_else(no_route)?;
    let src_priced = pricing::price_of(src).ok_or_else(no_route)?;
    let dst_priced = pricing::price_of(dst).ok_or_else(no_route)?;
    // Addresses, each for its chain: a gateway that accepted a wrong one would send funds nowhere.
    let check = |field: &str, chain: &str, address: &str| {
        validate_address(chain, address, network).map_err(|e| {
            QuoteError::invalid(format!("{field} is not a valid {chain} address: {e}"))
        })
    };
    check("recipient", dst.chain, recipient)?;
    if let Some(sender) = sender {
        check("sender", src.chain, sender)?;
    }
    let refund = req
        .get("refundAddress")
        .filter(|r| !r.is_empty() && version.takes_refund_address());
    if let Some(refund) = refund {
        // V3's refund address is an onramp's Bitcoin address; V4's is on the source chain, for every route.
        let chain = if version == ApiVersion::V4 {
            src.chain
        } else {
            "bitcoin"
        };
        check("refundAddress", chain, refund)?;
    }
    if let Some(family) = chain_family(src.chain).filter(|f| f.quote_needs_sender())
        && sender.is_none()
    {
        return Err(QuoteError::invalid(format!(
            "a swap from {family} needs sender: the wallet that pays the transaction fee and signs"
        )));
    }
    let route_details = json!({
        "src_chain": src.chain, "src_token": src.address,
        "dst_chain": dst.chain, "dst_token": dst.address,
    });

    // Affiliates (V2, V3; V1 takes an affiliateId, which the simulator accepts and ignores).
    let affiliates = match version {
        ApiVersion::V1 => Vec::new(),
        _ => parse_affiliates(req.get("affiliates").unwrap_or(""))?,
    };
    if kind == RouteKind::TokenSwap && !affiliates.is_empty() {
        if version == ApiVersion::V2 {
            return Err(QuoteError::new(
                "AFFILIATE_FEES_NOT_SUPPORTED_FOR_ROUTE",
                "V2 token swaps take no affiliate fees",
            )
            .with(route_details));
        }
        if affiliates.len() > 1 {
            return Err(QuoteError::new(
                "TOO_MANY_AFFILIATES",
                format!(
                    "a token swap takes one affiliate; {} were given",
                    affiliates.len()
                ),
            ));
        }
    }
    if affiliates.len() > MAX_AFFILIATES {
        return Err(QuoteError::affiliate(format!(
            "{} affiliates given; at most {MAX_AFFILIATES} are allowed",
            affiliates.len()
        )));
    }
    // Checked: bps the caller chose must not wrap around to a small total (or panic a debug build).
    let affiliate_bps: u32 = affiliates
        .iter()
        .try_fold(0u32, |sum, a| sum.checked_add(a.bps))
        .unwrap_or(u32::MAX);
    if affiliate_bps > MAX_AFFILIATE_TOTAL_BPS {
        return Err(QuoteError::affiliate(format!(
            "affiliate fees total {affiliate_bps} bps; at most {MAX_AFFILIATE_TOTAL_BPS} are allowed"
        )));
    }

    if version == ApiVersion::V3 && kind == RouteKind::Offramp && owner.is_none() {
        return Err(QuoteError::new(
            "MISSING_OWNER_ADDRESS",
            "a V3 offramp needs ownerAddress (the EVM owner and refund claimant); retry with it set",
        ));
    }

    let floor = if kind == RouteKind::TokenSwap {
        MIN_TOKEN_SWAP_SLIPPAGE_BPS
    } else {
        MIN_SLIPPAGE_BPS
    };
    if slippage < floor {
        let refusal = QuoteError::new(
            "SLIPPAGE_TOO_LOW",
            format!("slippage {slippage} bps is below the minimum of {floor} bps"),
        );
        // V3 as the service's September 2026 document has it (and V4) names the floor and the tolerance asked.
        return Err(if version >= ApiVersion::V3 {
            refusal.with(json!({
                "required_bps": floor.to_string(),
                "requested_bps": slippage.to_string(),
            }))
        } else {
            refusal
        });
    }
    if slippage > MAX_SLIPPAGE_BPS {
        // V3 names the limit and a suggestion in its details (`MAX_SLIPPAGE_EXCEEDED`); V1 and V2 only refuse. V4's
        // document lists no such code: its SLIPPAGE_TOO_HIGH carries the bounds.
        if version == ApiVersion::V4 {
            return Err(QuoteError::new(
                "SLIPPAGE_TOO_HIGH",
                format!("slippage {slippage} bps is above the maximum of {MAX_SLIPPAGE_BPS} bps"),
            )
            .with(json!({
                "required_bps": MAX_SLIPPAGE_BPS.to_string(),
                "requested_bps": slippage.to_string(),
            })));
        }
        if version == ApiVersion::V3 {
            return Err(QuoteError::new(
                "MAX_SLIPPAGE_EXCEEDED",
                format!("slippage {slippage} bps is above the maximum of {MAX_SLIPPAGE_BPS} bps"),
            )
            .with(json!({
                "suggested_bps": SUGGESTED_SLIPPAGE_BPS.to_string(),
                "max_bps": MAX_SLIPPAGE_BPS.to_string(),
            })));
        }
        return Err(QuoteError::new(
            "SLIPPAGE_TOO_HIGH",
            format!("slippage {slippage} bps is above the maximum of {MAX_SLIPPAGE_BPS} bps"),
        ));
    }

    let minimum = match kind {
        RouteKind::Onramp => U256::from(ONRAMP_MINIMUM_SATS),
        _ => pricing::amount_for_usd_micro(MINIMUM_USD_MICRO, src_priced),
    };
    if input < minimum {
        return Err(QuoteError::new(
            "QUOTE_AMOUNT_TOO_LOW",
            format!("the amount {input} is below the minimum of {minimum}"),
        )
        .with(json!({"minimum": minimum.to_string(), "actual": input.to_string()})));
    }

    let ctx = Ctx {
        version,
        src,
        dst,
        src_priced,
        dst_priced,
        input,
        recipient,
        slippage,
        sender,
        owner,
        refund,
        affiliates: &affiliates,
        writer: Writer {
            with_usd: version != ApiVersion::V1,
        },
    };
    match kind {
        RouteKind::Onramp => ctx.onramp(signer, now),
        RouteKind::Offramp => ctx.offramp(),
        RouteKind::TokenSwap => ctx.token_swap(),
    }
}

struct Ctx<'a> {
    version: ApiVersion,
    src: &'a ListedToken,
    dst: &'a ListedToken,
    src_priced: Priced,
    dst_priced: Priced,
    input: U256,
    recipient: &'a str,
    slippage: u32,
    sender: Option<&'a str>,
    owner: Option<&'a str>,
    refund: Option<&'a str>,
    affiliates: &'a [Affiliate],
    writer: Writer,
}

impl<'a> Ctx<'a> {
    fn src_line(&self, amount: U256) -> Line<'a> {
        Line {
            token: self.src,
            priced: self.src_priced,
            amount,
        }
    }

    fn amount(&self, amount: U256) -> Value {
        self.writer.amount(&self.src_line(amount))
    }

    /// The output after `fees`, or UNABLE_TO_COVER_FEES.
    fn output(&self, fees: U256) -> Result<Value, QuoteError> {
        if fees >= self.input {
            return Err(QuoteError::new(
                "UNABLE_TO_COVER_FEES",
                "the amount does not cover the fees",
            )
            .with(
                json!({"total_fees": fees.to_string(), "available_amount": self.input.to_string()}),
            ));
        }
        let out = pricing::convert(self.input - fees, self.src_priced, self.dst_priced);
        Ok(self.writer.amount(&Line {
            token: self.dst,
            priced: self.dst_priced,
            amount: out,
        }))
    }

    fn v2_plus(&self) -> bool {
        self.version != ApiVersion::V1
    }

    /// The affiliate fee line and the resolved affiliates (fees in the input token).
    fn affiliate_fees(&self) -> (U256, Vec<Value>) {
        let mut total = U256::ZERO;
        let mut resolved = Vec::new();
        for a in self.affiliates {
            let fee = bps_of(self.input, a.bps);
            total += fee;
            resolved.push(json!({"address": a.address, "fee": self.amount(fee)}));
        }
        (total, resolved)
    }

    fn common_tail(&self, q: &mut Map<String, Value>, fees: U256, impact_fees: U256, secs: u64) {
        q.insert("estimatedTimeInSecs".into(), json!(secs));
        if self.v2_plus() {
            q.insert("priceImpact".into(), json!(price_impact(fees, self.input)));
            q.insert(
                "priceImpactUsd".into(),
                json!(price_impact_usd(impact_fees, self.src_priced)),
            );
        }
        if let Some(sender) = self.sender {
            q.insert("sender".into(), json!(sender));
        }
    }

    fn insert_affiliates(&self, q: &mut Map<String, Value>, resolved: Vec<Value>) {
        if self.v2_plus() && !resolved.is_empty() {
            q.insert("affiliateAddress".into(), json!(self.affiliates[0].address));
            q.insert("affiliates".into(), Value::Array(resolved));
        }
    }

    fn onramp(&self, signer: &QuoteSigner, now: u64) -> Result<Value, QuoteError> {
        let solver = bps_of(self.input, SOLVER_FEE_BPS);
        let protocol = bps_of(self.input, PROTOCOL_FEE_BPS);
        let (affiliate, resolved) = self.affiliate_fees();
        let execution = U256::from(ONRAMP_EXECUTION_FEE_SATS);
        let messaging = if self.dst.chain == "bob" {
            U256::ZERO
        } else {
            U256::from(ONRAMP_MESSAGING_FEE_SATS)
        };
        let fees = solver + protocol + affiliate + execution + messaging;
        let mut q = Map::new();
        q.insert("inputAmount".into(), self.amount(self.input));
        q.insert("outputAmount".into(), self.output(fees)?);
        q.insert("fees".into(), self.amount(fees));
        q.insert("executionFees".into(), self.amount(execution));
        q.insert(
            "feeBreakdown".into(),
            json!({
                "solverFee": self.amount(solver),
                "protocolFee": self.amount(protocol),
                "affiliateFee": self.amount(affiliate),
                "executionFee": self.amount(execution),
                "layerzeroFee": self.amount(messaging),
            }),
        );
        q.insert("recipient".into(), json!(self.recipient));
        q.insert("token".into(), json!(self.dst.address));
        q.insert("slippage".into(), json!(self.slippage.to_string()));
        q.insert("dstChain".into(), json!(self.dst.chain));
        q.insert("dstToken".into(), json!(self.dst.address));
        self.insert_affiliates(&mut q, resolved);
        self.common_tail(&mut q, fees, fees - execution, ONRAMP_SECS);
        // The published onramp quote has no owner or refund field: they travel inside the signed token.
        let kept = Kept {
            owner: self.owner.map(str::to_owned),
            refund: self.refund.map(str::to_owned),
        };
        let mut quote = Value::Object(q);
        let token = signer.sign(&quote, now, &kept);
        quote["signedQuoteData"] = json!(token);
        Ok(json!({ "onramp": quote }))
    }

    fn offramp(&self) -> Result<Value, QuoteError> {
        let btc = Priced {
            price_micro: pricing::BTC_PRICE_MICRO,
            decimals: 8,
        };
        let solver = bps_of(self.input, SOLVER_FEE_BPS);
        let protocol = bps_of(self.input, PROTOCOL_FEE_BPS);
        let (affiliate, resolved) = self.affiliate_fees();
        let inclusion =
            pricing::convert(U256::from(OFFRAMP_INCLUSION_FEE_SATS), btc, self.src_priced);
        let fees = solver + protocol + affiliate + inclusion;
        let mut q = Map::new();
        q.insert("srcChain".into(), json!(self.src.chain));
        q.insert("tokenAddress".into(), json!(self.src.address));
        q.insert("inputAmount".into(), self.amount(self.input));
        q.insert("outputAmount".into(), self.output(fees)?);
        if self.v2_plus() {
            q.insert(
                "totalFeeUsd".into(),
                json!(pricing::usd_string(fees, self.src_priced)),
            );
        } else {
            q.insert("fees".into(), self.amount(fees));
        }
        q.insert(
            "feeBreakdown".into(),
            json!({
                "solverFee": self.amount(solver),
                "inclusionFee": self.amount(inclusion),
                "protocolFee": self.amount(protocol),
                "affiliateFee": self.amount(affiliate),
                "fastestFeeRate": FASTEST_FEE_RATE,
            }),
        );
        q.insert("recipient".into(), json!(self.recipient));
        q.insert("slippage".into(), json!(self.slippage));
        q.insert("txTo".into(), json!(gateway_contract(self.src.chain)));
        self.insert_affiliates(&mut q, resolved);
        self.common_tail(&mut q, fees, fees, OFFRAMP_SECS);
        if let Some(owner) = self.owner {
            q.insert("ownerAddress".into(), json!(owner));
        }
        if self.version == ApiVersion::V4 {
            q.insert("refundAddress".into(), json!(self.refund));
        }
        Ok(json!({ "offramp": q }))
    }

    fn token_swap(&self) -> Result<Value, QuoteError> {
        let affiliate = self.affiliates.first();
        let fees = bps_of(
            self.input,
            TOKEN_SWAP_FEE_BPS + affiliate.map_or(0, |a| a.bps),
        );
        let output = self.output(fees)?;
        let tx_to = gateway_contract(self.src.chain);
        let mut q = Map::new();
        if self.version == ApiVersion::V1 {
            q.insert(
                "tx".into(),
                json!({"to": tx_to, "data": "0x", "value": "0", "chain": self.src.chain}),
            );
            q.insert("fees".into(), self.amount(fees));
            q.insert("inputAmount".into(), self.amount(self.input));
            q.insert("outputAmount".into(), output);
            q.insert("recipient".into(), json!(self.recipient));
            self.common_tail(&mut q, fees, fees, TOKEN_SWAP_SECS);
            return Ok(json!({ "layerZero": q }));
        }
        q.insert("srcChain".into(), json!(self.src.chain));
        q.insert("dstChain".into(), json!(self.dst.chain));
        q.insert("inputAmount".into(), self.amount(self.input));
        q.insert("outputAmount".into(), output);
        q.insert("recipient".into(), json!(self.recipient));
        q.insert("slippage".into(), json!(self.slippage));
        q.insert("fees".into(), self.amount(fees));
        q.insert("txTo".into(), json!(tx_to));
        self.common_tail(&mut q, fees, fees, TOKEN_SWAP_SECS);
        if let Some(a) = affiliate {
            q.insert(
                "affiliate".into(),
                json!({"address": a.address, "bps": a.bps}),
            );
        }
        // The published token-swap quote has no owner field: the gateway remembers it with the issue
        // (`Book::remember_quote`). V4's carries its refund address (null when none was given).
        if self.version == ApiVersion::V4 {
            q.insert("refundAddress".into(), json!(self.refund));
        }
        Ok(json!({ "tokenSwap": q }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gateway_client::wire::NATIVE_TOKEN;

    #[test]
    fn the_offramp_quotes_state_the_chains_fee_rate() {
        assert_eq!(
            FASTEST_FEE_RATE,
            crate::payload::FEE_RATE_SAT_PER_VB.to_string()
        );
    }

    const WBTC_BOB: &str = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
    const USDT_ETH: &str = "0xdac17f958d2ee523a2206206994597c13d831ec7";
    const USDT_TRON: &str = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
    const EVM: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

    fn params(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    fn quote(version: ApiVersion, pairs: &[(&str, &str)]) -> Result<Value, QuoteError> {
        get_quote(
            &Catalogue::default(),
            &QuoteSigner::from_key([1; 32]),
            version,
            BitcoinNetwork::Mainnet,
            &params(pairs),
            1_700_000_000,
        )
    }

    #[test]
    fn onramp_fees_are_exact() {
        // 100000 sats to WBTC on bob, one affiliate at 50 bps.
        let q = quote(
            ApiVersion::V3,
            &[
                ("srcChain", "bitcoin"),
                ("srcToken", NATIVE_TOKEN),
                ("dstChain", "bob"),
                ("dstToken", WBTC_BOB),
                ("amount", "100000"),
                ("recipient", EVM),
                ("slippage", "300"),
                (
                    "affiliates",
                    "0x1111111111111111111111111111111111111111:50",
                ),
            ],
        )
        .unwrap();
        let o = &q["onramp"];
        let b = &o["feeBreakdown"];
        assert_eq!(b["solverFee"]["amount"], "200");
        assert_eq!(b["protocolFee"]["amount"], "100");
        assert_eq!(b["affiliateFee"]["amount"], "500");
        assert_eq!(b["executionFee"]["amount"], "1500");
        assert_eq!(b["layerzeroFee"]["amount"], "0", "no messaging fee to bob");
        assert_eq!(o["fees"]["amount"], "2300");
        assert_eq!(o["outputAmount"]["amount"], "97700");
        assert_eq!(o["inputAmount"]["usd"], "100.00");
        assert_eq!(o["fees"]["usd"], "2.30");
        assert_eq!(o["priceImpact"], "-0.0230");
        assert_eq!(o["priceImpactUsd"], "-0.80", "execution fee left out");
        assert_eq!(o["slippage"], "300");
        assert_eq!(o["affiliates"][0]["fee"]["amount"], "500");
        assert_eq!(o["estimatedTimeInSecs"], 600);
        let signer = QuoteSigner::from_key([1; 32]);
        signer
            .verify_signed_quote(o, 1_700_000_010, crate::signing::QUOTE_TTL_SECS)
            .unwrap();
    }

    #[test]
    fn onramp_to_another_chain_pays_messaging_and_converts() {
        let q = quote(
            ApiVersion::V2,
            &[
                ("srcChain", "bitcoin"),
                ("srcToken", "BTC"),
                ("dstChain", "ethereum"),
                ("dstToken", USDT_ETH),
                ("amount", "1000000"),
                ("recipient", EVM),
                ("slippage", "300"),
            ],
        )
        .unwrap();
        let o = &q["onramp"];
        // fees: 2000 + 1000 + 0 + 1500 + 800 = 5300 sats; 994700 sats = 994.70 USD = 994700000 USDT units.
        assert_eq!(o["fees"]["amount"], "5300");
        assert_eq!(o["feeBreakdown"]["layerzeroFee"]["amount"], "800");
        assert_eq!(o["outputAmount"]["amount"], "994700000");
        assert_eq!(o["outputAmount"]["usd"], "994.70");
        assert_eq!(o["priceImpact"], "-0.0053");
    }

    #[test]
    fn offramp_and_swap_fees_are_exact() {
        let q = quote(
            ApiVersion::V3,
            &[
                ("srcChain", "ethereum"),
                ("srcToken", USDT_ETH),
                ("dstChain", "bitcoin"),
                ("dstToken", NATIVE_TOKEN),
                ("amount", "100000000"),
                ("recipient", "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"),
                ("slippage", "300"),
                ("ownerAddress", EVM),
            ],
        )
        .unwrap();
        let o = &q["offramp"];
        // 100 USDT: solver 0.20, protocol 0.10, inclusion 2000 sats = 2.00 USDT; 97.70 USD = 97700 sats.
        assert_eq!(o["feeBreakdown"]["solverFee"]["amount"], "200000");
        assert_eq!(o["feeBreakdown"]["protocolFee"]["amount"], "100000");
        assert_eq!(o["feeBreakdown"]["inclusionFee"]["amount"], "2000000");
        assert_eq!(o["feeBreakdown"]["fastestFeeRate"], "12");
        assert_eq!(o["totalFeeUsd"], "2.30");
        assert_eq!(o["outputAmount"]["amount"], "97700");
        assert_eq!(o["slippage"], 300);
        assert_eq!(o["ownerAddress"], EVM);
        assert!(o.get("fees").is_none());

        let q = quote(
            ApiVersion::V3,
            &[
                ("srcChain", "tron"),
                ("srcToken", USDT_TRON),
                ("dstChain", "ethereum"),
                ("dstToken", USDT_ETH),
                ("amount", "20000000"),
                ("recipient", EVM),
                ("slippage", "100"),
                ("affiliates", "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7:15"),
            ],
        )
        .unwrap();
        let s = &q["tokenSwap"];
        // 20 USDT, 25 + 15 bps = 0.08 USDT.
        assert_eq!(s["fees"]["amount"], "80000");
        assert_eq!(s["outputAmount"]["amount"], "19920000");
        assert_eq!(s["priceImpact"], "-0.0040");
        assert_eq!(s["affiliate"]["bps"], 15);
        assert_eq!(s["txTo"], gateway_contract("tron"));
    }

    #[test]
    fn price_impact_rounds_the_magnitude_down() {
        assert_eq!(
            price_impact(U256::from(3u8), U256::from(1000u32)),
            "-0.0030"
        );
        assert_eq!(
            price_impact(U256::from(1u8), U256::from(30_000u32)),
            "0.0000"
        );
        assert_eq!(price_impact(U256::from(2u8), U256::from(3u32)), "-0.6666");
    }

    #[test]
    fn gateway_contracts_are_valid_addresses() {
        let evm = gateway_contract("bob");
        assert_eq!(
            Address::parse_checksummed(&evm, None)
                .unwrap()
                .to_checksum(None),
            evm
        );
        let tron = bs58::decode(gateway_contract("tron"))
            .with_check(None)
            .into_vec()
            .unwrap();
        assert_eq!((tron.len(), tron[0]), (21, 0x41));
        assert!(gateway_contract("tron").starts_with('T'));
        assert_eq!(
            bs58::decode(gateway_contract("solana"))
                .into_vec()
                .unwrap()
                .len(),
            32
        );
    }

    #[test]
    fn affiliate_rules() {
        assert_eq!(parse_affiliates("").unwrap(), vec![]);
        for bad in ["0xa:0", "0xa", ":5", "0xa:x", "0xa:5,0xA:5"] {
            assert_eq!(
                parse_affiliates(bad).unwrap_err().code,
                "INVALID_AFFILIATE_FEE",
                "{bad}"
            );
        }
    }

    #[test]
    fn affiliate_bps_that_would_wrap_are_refused_not_summed_around() {
        let err = quote(
            ApiVersion::V3,
            &[
                ("srcChain", "bitcoin"),
                ("srcToken", NATIVE_TOKEN),
                ("dstChain", "bob"),
                ("dstToken", WBTC_BOB),
                ("amount", "100000"),
                ("recipient", EVM),
                ("slippage", "300"),
                (
                    "affiliates",
                    "0x1111111111111111111111111111111111111111:4294967295,\
                     0x2222222222222222222222222222222222222222:2",
                ),
            ],
        )
        .unwrap_err();
        assert_eq!(err.code, "INVALID_AFFILIATE_FEE", "{}", err.body());
    }
}
