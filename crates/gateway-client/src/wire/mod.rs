//! Typed messages of the gateway's wire format, V1 to V3.
//!
//! Reading is tolerant: unknown fields are ignored, fields some versions lack are `Option`s, and the V1 spellings
//! (`layerZero`, plain-string statuses, bare order arrays) are read next to the V2/V3 ones. What must go back to the
//! gateway unchanged (a quote) or be journaled (a create-order answer) keeps its raw JSON.

mod common;
mod create_order;
mod order;
mod quote;
mod register;
mod routes;
mod tx;

pub use common::{ResolvedAffiliate, RouteKind, Slippage, TokenAmount, TokenSwapAffiliate};
pub use create_order::{CreateOrderResponse, CreateOrderResult, OnrampOrder, TxOrder};
pub use order::{
    DstInfo, OrderInfo, OrderStatus, OrdersPage, PendingBtcPayment, SrcInfo, TokenTransfer,
    status_text,
};
pub use quote::{
    LayerZeroQuote, OfframpFeeBreakdown, OfframpQuote, OnrampFeeBreakdown, OnrampQuote, Quote,
    QuoteView, TokenSwapQuote,
};
pub use register::{RegisterTx, RegisterTxResponse};
pub use routes::*;
pub use tx::*;
