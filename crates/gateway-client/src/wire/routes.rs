//! get-routes: the list of supported routes (the same shape in V1, V2 and V3).

use serde::{Deserialize, Serialize};

use crate::chains::ChainFamily;

/// One supported route, as listed by get-routes (V1, V2 and V3 share this shape).
///
/// Tokens are addresses; Bitcoin and native tokens are the all-zero EVM address, and some producers write `"BTC"`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RouteInfo {
    /// `srcChain`: the gateway's slug of the source chain.
    pub src_chain: String,
    /// `srcToken`: the source token's address on that chain.
    pub src_token: String,
    /// `dstChain`: the gateway's slug of the destination chain.
    pub dst_chain: String,
    /// `dstToken`: the destination token's address on that chain.
    pub dst_token: String,
}

/// get-max-spendable's answer (`GatewayMaxSpendable`, V1–V3): what a deposit from a Bitcoin address can pay now,
/// after the network fee.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MaxSpendable {
    /// The address asked about, as the gateway echoes it.
    pub user_address: String,
    /// The amount, in sats, on `bitcoin`.
    pub amount: super::TokenAmount,
}

impl MaxSpendable {
    /// The amount in sats, when it is a whole number that fits (the gateway's amounts are decimal strings).
    pub fn sats(&self) -> Option<u64> {
        self.amount.amount.trim().parse().ok()
    }
}

/// The all-zero EVM address that stands for Bitcoin and for a chain's native token.
pub const NATIVE_TOKEN: &str = "0x0000000000000000000000000000000000000000";

/// True when `token` on `chain` names the chain's native asset: the all-zero address, `"BTC"` on Bitcoin, or the
/// family's all-zero account in its own spelling ([`ChainFamily::zero_account`]: Tron's, which some producers write
/// for TRX). No spelling names the native token of another chain.
pub fn is_native_token(chain: &str, token: &str) -> bool {
    token == NATIVE_TOKEN
        || (chain.eq_ignore_ascii_case("bitcoin") && token.eq_ignore_ascii_case("btc"))
        || crate::address::chain_family(chain)
            .and_then(ChainFamily::zero_account)
            .is_some_and(|zero| token == zero)
}

impl RouteInfo {
    /// Which kind of order this route makes: from Bitcoin an onramp, to Bitcoin an offramp, otherwise a token swap.
    pub fn kind(&self) -> super::RouteKind {
        super::RouteKind::between(&self.src_chain, &self.dst_chain)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_familys_zero_account_is_native_on_its_chains_only() {
        let tron_zero = ChainFamily::Tron.zero_account().unwrap();
        let mut body = [0u8; 21];
        body[0] = crate::chains::tron::ADDRESS_PREFIX;
        assert_eq!(crate::chains::tron::parse_account(tron_zero), Some(body));
        assert!(is_native_token("tron", tron_zero));
        assert!(is_native_token("tron", NATIVE_TOKEN));
        assert!(!is_native_token("bob", tron_zero));
        assert!(!is_native_token("solana", tron_zero));
        assert!(!is_native_token(
            "tron",
            "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
        ));
    }

    #[test]
    fn route_uses_camel_case_and_keeps_btc() {
        let json = r#"{"srcChain":"bitcoin","srcToken":"BTC","dstChain":"bob","dstToken":"0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3","extra":1}"#;
        let route: RouteInfo = serde_json::from_str(json).unwrap();
        assert_eq!(route.src_chain, "bitcoin");
        assert!(is_native_token(&route.src_chain, &route.src_token));
        assert!(
            !is_native_token("bob", "BTC"),
            "BTC is native only on bitcoin"
        );
        assert_eq!(route.kind(), crate::wire::RouteKind::Onramp);
        assert!(!is_native_token(&route.dst_chain, &route.dst_token));
        let back = serde_json::to_value(&route).unwrap();
        assert_eq!(
            back["dstToken"],
            "0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3"
        );
        assert!(back.get("extra").is_none());
    }
}
