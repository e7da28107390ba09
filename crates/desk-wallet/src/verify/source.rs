//! What the quote says about the source side of an offramp or token swap: what the call or Solana transaction is
//! checked against.

use gateway_client::wire::{QuoteView, RouteKind};

/// What the quote says about the source side of an offramp or token swap.
#[derive(Debug, Clone)]
pub(super) struct QuotedSource {
    /// The source chain slug.
    pub(super) chain: String,
    /// The contract or program the transaction must go to.
    pub(super) tx_to: String,
    /// The source token (its address; native tokens are the zero address).
    pub(super) token: String,
    /// The quoted input amount, smallest units, as the quote wrote it.
    pub(super) amount: String,
    /// The sender, when the quote names one.
    pub(super) sender: Option<String>,
    /// The route: offramp or token swap.
    pub(super) route: RouteKind,
    /// The order id the answer gave (the calls commit to it).
    pub(super) order_id: String,
    /// The destination chain slug (`bitcoin` for an offramp).
    pub(super) dst_chain: String,
    /// The destination token.
    pub(super) dst_token: String,
    /// The quoted output, smallest units of the destination token.
    pub(super) output: String,
    /// Who receives.
    pub(super) recipient: String,
    /// The quoted slippage, bps (V1 quotes state none: 0).
    pub(super) slippage_bps: u32,
}

impl QuotedSource {
    /// The source side of an offramp or token-swap quote; `None` for an onramp.
    pub(super) fn of(view: &QuoteView, order_id: &str) -> Option<Self> {
        let (chain, tx_to, input, sender, slippage) = match view {
            QuoteView::Onramp(_) => return None,
            QuoteView::Offramp(q) => (
                &q.src_chain,
                &q.tx_to,
                &q.input_amount,
                &q.sender,
                q.slippage.bps(),
            ),
            QuoteView::TokenSwap(q) => (
                &q.src_chain,
                &q.tx_to,
                &q.input_amount,
                &q.sender,
                q.slippage.bps(),
            ),
            // V1 names the contract and chain in the quote's own transaction, and states no slippage.
            QuoteView::LayerZero(q) => (&q.tx.chain, &q.tx.to, &q.input_amount, &q.sender, 0),
        };
        let output = view.output_amount();
        Some(Self {
            chain: chain.clone(),
            tx_to: tx_to.clone(),
            token: input.address.clone(),
            amount: input.amount.clone(),
            sender: sender.clone(),
            route: view.route(),
            order_id: order_id.to_owned(),
            dst_chain: output.chain.clone(),
            dst_token: output.address.clone(),
            output: output.amount.clone(),
            recipient: view.recipient().to_owned(),
            slippage_bps: slippage,
        })
    }
}
