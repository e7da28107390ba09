//! Pieces shared by several messages: token amounts, affiliates, slippage, the route kind, and the reading of
//! route-keyed objects such as `{ "onramp": … }`.

use std::fmt;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// An amount of one token on one chain (`GatewayTokenAmount`, V2+: `GatewayTokenAmountV2`).
///
/// `amount` stays the decimal string of smallest units the gateway sent (sats, wei…); parsing it is the caller's
/// business. `usd` is `None` both when absent (V1, no price feed) and when `null`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TokenAmount {
    /// Token address; Bitcoin and native tokens may be the all-zero address or `"BTC"`.
    pub address: String,
    /// Integer amount in the token's smallest unit, as a decimal string.
    pub amount: String,
    /// Chain slug, e.g. `bitcoin`, `bob`, `tron`.
    pub chain: String,
    /// USD value of `amount` as a decimal string, when the gateway had a price (V2 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usd: Option<String>,
}

/// An affiliate resolved by the gateway on an onramp or offramp quote (`ResolvedAffiliate`, V2 and later).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolvedAffiliate {
    /// Recipient address of the affiliate fee.
    pub address: String,
    /// The computed fee, in the inventory asset's smallest unit.
    pub fee: TokenAmount,
}

/// The single affiliate a V3 token-swap quote carries (`TokenSwapAffiliateV3`), charged on the source chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenSwapAffiliate {
    /// Fee recipient, encoded for the source chain.
    pub address: String,
    /// Fee in basis points of the swap input.
    pub bps: u32,
}

/// A slippage tolerance in basis points (300 = 3 %).
///
/// Onramp quotes write it as a string (`"300"`), offramp and token-swap quotes as an integer; both are read.
/// It serializes as an integer; [`Slippage::serialize_as_string`] writes the onramp form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "SlippageRepr")]
pub struct Slippage(pub u32);

impl Slippage {
    /// The tolerance in basis points.
    pub fn bps(self) -> u32 {
        self.0
    }

    /// Serializes as a decimal string, the form onramp quotes use on the wire.
    pub fn serialize_as_string<S: Serializer>(
        slippage: &Slippage,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&slippage.0)
    }
}

impl fmt::Display for Slippage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} bps", self.0)
    }
}

/// What a slippage can look like on the wire; `Other` only exists to give a clear error.
#[derive(Deserialize)]
#[serde(untagged)]
enum SlippageRepr {
    Number(u64),
    Text(String),
    Other(Value),
}

impl TryFrom<SlippageRepr> for Slippage {
    type Error = String;

    fn try_from(repr: SlippageRepr) -> Result<Self, Self::Error> {
        let parsed = match &repr {
            SlippageRepr::Number(n) => u32::try_from(*n).ok(),
            SlippageRepr::Text(s) => s.trim().parse::<u32>().ok(),
            SlippageRepr::Other(_) => None,
        };
        parsed.map(Slippage).ok_or_else(|| {
            let shown = match repr {
                SlippageRepr::Number(n) => n.to_string(),
                SlippageRepr::Text(s) => format!("{s:?}"),
                SlippageRepr::Other(v) => v.to_string(),
            };
            format!("slippage must be whole basis points, as an integer or a decimal string; got {shown}")
        })
    }
}

/// The three kinds of order, the app's one list of them (desk-core and the window name routes from here). V1's
/// `layerZero` counts as [`RouteKind::TokenSwap`], which V2 renamed it to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "RouteKind.ts"))]
#[serde(rename_all = "camelCase")]
pub enum RouteKind {
    /// Bitcoin to a token on another chain.
    Onramp,
    /// A token on another chain to Bitcoin.
    Offramp,
    /// A token on one chain to a token on another (V1: `layerZero`).
    TokenSwap,
}

impl RouteKind {
    /// The slippage tolerance a route of this kind starts with, in bps, from its tokens' tickers: the documented
    /// floor of the kind where both sides hold one [`Peg`](crate::params::Peg) (0.5 %, or 1 % for a cross-chain
    /// token swap), and 1 % where one side's price can move against the other while the order settles (a Bitcoin
    /// leg takes minutes to confirm); never the official client's 3 % for everything.
    pub fn default_slippage_bps(self, src_symbol: Option<&str>, dst_symbol: Option<&str>) -> u32 {
        use crate::params::{
            DOCUMENTED_MIN_SLIPPAGE_BPS, DOCUMENTED_MIN_TOKEN_SWAP_SLIPPAGE_BPS, peg_of,
        };
        let floor = match self {
            Self::TokenSwap => DOCUMENTED_MIN_TOKEN_SWAP_SLIPPAGE_BPS,
            _ => DOCUMENTED_MIN_SLIPPAGE_BPS,
        };
        let same = match (src_symbol.and_then(peg_of), dst_symbol.and_then(peg_of)) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        };
        if same { floor } else { floor.max(100) }
    }

    /// The kind of order between two chains: from Bitcoin an onramp, to Bitcoin an offramp, otherwise a token swap.
    pub fn between(src_chain: &str, dst_chain: &str) -> Self {
        if src_chain == "bitcoin" {
            Self::Onramp
        } else if dst_chain == "bitcoin" {
            Self::Offramp
        } else {
            Self::TokenSwap
        }
    }

    /// The V2/V3 union key: `onramp`, `offramp` or `tokenSwap`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Onramp => "onramp",
            Self::Offramp => "offramp",
            Self::TokenSwap => "tokenSwap",
        }
    }

    /// The three, in the order the app lists them.
    pub const ALL: [Self; 3] = [Self::Onramp, Self::Offramp, Self::TokenSwap];

    /// The interface's key, as [`RouteKind::as_str`] (the CSV's route column, the command line's output).
    pub fn key(self) -> &'static str {
        self.as_str()
    }

    /// The route in a sentence: `onramp`, `offramp`, `token swap`.
    pub fn noun(self) -> &'static str {
        match self {
            Self::Onramp => "onramp",
            Self::Offramp => "offramp",
            Self::TokenSwap => "token swap",
        }
    }

    /// The route in a sentence, with its article and what it does: `an onramp (Bitcoin to a token)`.
    pub fn described(self) -> &'static str {
        match self {
            Self::Onramp => "an onramp (Bitcoin to a token)",
            Self::Offramp => "an offramp (a token to Bitcoin)",
            Self::TokenSwap => "a token swap",
        }
    }
}

impl fmt::Display for RouteKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Reads `null` as the type's default, for lists the gateway may send as `null` or leave out.
pub(crate) fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

/// Finds the one known key of a route- or state-keyed object (`{ "onramp": … }`), ignoring unknown keys.
///
/// Two known keys at once is an error: the message would be ambiguous.
pub(crate) fn pick_key<'a>(
    value: &'a Value,
    what: &str,
    known: &[&'static str],
) -> Result<(&'static str, &'a Value), serde_json::Error> {
    let Value::Object(map) = value else {
        return Err(serde_json::Error::custom(format!(
            "{what}: expected an object keyed by one of {}, found {}",
            known.join(", "),
            json_kind(value)
        )));
    };
    let mut found = None;
    for &key in known {
        if let Some(inner) = map.get(key) {
            if let Some((first, _)) = found {
                return Err(serde_json::Error::custom(format!(
                    "{what}: both `{first}` and `{key}` are present"
                )));
            }
            found = Some((key, inner));
        }
    }
    found.ok_or_else(|| {
        let keys: Vec<&str> = map.keys().map(String::as_str).collect();
        serde_json::Error::custom(format!(
            "{what}: expected one of the keys {}, found keys [{}]",
            known.join(", "),
            keys.join(", ")
        ))
    })
}

/// Reads a `T` from a JSON value without copying it, prefixing errors with where it was.
pub(crate) fn read_inner<T: for<'de> Deserialize<'de>>(
    value: &Value,
    what: &str,
) -> Result<T, serde_json::Error> {
    T::deserialize(value).map_err(|e| serde_json::Error::custom(format!("{what}: {e}")))
}

/// A short name of a JSON value's type, for error messages.
pub(crate) fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_route_of_one_peg_starts_at_its_floor_and_other_routes_at_one_percent() {
        use crate::params::{DEFAULT_SLIPPAGE_BPS, Peg, peg_of};
        use RouteKind::{Offramp, Onramp, TokenSwap};
        let d = |k: RouteKind, a, b| k.default_slippage_bps(a, b);
        assert_eq!(d(Onramp, Some("BTC"), Some("WBTC")), 50);
        assert_eq!(d(Offramp, Some("cbBTC"), Some("BTC")), 50);
        assert_eq!(d(Onramp, Some("BTC"), Some("USDC")), 100);
        assert_eq!(d(Offramp, Some("USDT"), Some("BTC")), 100);
        assert_eq!(d(TokenSwap, Some("USDC"), Some("USDT")), 100);
        assert_eq!(d(TokenSwap, Some("USDC.e"), Some("USD₮0")), 100);
        assert_eq!(d(TokenSwap, Some("WETH"), Some("USDC")), 100);
        // Unknown tokens and drifting wrappers are not assumed pegged.
        assert_eq!(d(Onramp, Some("BTC"), None), 100);
        assert_eq!(d(Onramp, Some("BTC"), Some("SolvBTC.JUP")), 100);
        assert_eq!(d(Onramp, Some("BTC"), Some("HybridBTC.pendle")), 100);
        for never in [Onramp, Offramp, TokenSwap] {
            assert_ne!(d(never, Some("BTC"), Some("ETH")), DEFAULT_SLIPPAGE_BPS);
        }
        assert_eq!(peg_of("sFRAX"), None);
        assert_eq!(peg_of("wstETH"), None);
        assert_eq!(peg_of("DAI"), Some(Peg::Dollar));
        assert_eq!(peg_of("tBTC"), Some(Peg::Bitcoin));
    }

    use super::*;
    use serde_json::json;

    #[test]
    fn token_amount_reads_null_and_absent_usd_as_none_and_keeps_btc() {
        let absent: TokenAmount = serde_json::from_value(
            json!({"address": "BTC", "amount": "100000", "chain": "bitcoin"}),
        )
        .unwrap();
        let null: TokenAmount = serde_json::from_value(
            json!({"address": "BTC", "amount": "100000", "chain": "bitcoin", "usd": null}),
        )
        .unwrap();
        assert_eq!(absent.usd, None);
        assert_eq!(absent, null);
        assert_eq!(absent.address, "BTC");
        // None is left out when written, so a V1-shaped amount stays V1-shaped.
        assert_eq!(
            serde_json::to_value(&absent).unwrap(),
            json!({"address": "BTC", "amount": "100000", "chain": "bitcoin"})
        );
        let priced: TokenAmount = serde_json::from_value(
            json!({"address": "BTC", "amount": "100000", "chain": "bitcoin", "usd": "97.12", "extra": true}),
        )
        .unwrap();
        assert_eq!(priced.usd.as_deref(), Some("97.12"));
    }

    #[test]
    fn token_amount_keeps_huge_amounts_as_strings() {
        let wei = "1000000000000000000000000000000"; // beyond u64 and f64 precision
        let amount: TokenAmount =
            serde_json::from_value(json!({"address": "0x0", "amount": wei, "chain": "ethereum"}))
                .unwrap();
        assert_eq!(amount.amount, wei);
    }

    #[test]
    fn slippage_reads_string_and_integer() {
        assert_eq!(
            serde_json::from_value::<Slippage>(json!("300")).unwrap(),
            Slippage(300)
        );
        assert_eq!(
            serde_json::from_value::<Slippage>(json!(" 50 ")).unwrap(),
            Slippage(50)
        );
        assert_eq!(
            serde_json::from_value::<Slippage>(json!(100))
                .unwrap()
                .bps(),
            100
        );
        for bad in [
            json!("3%"),
            json!(-1),
            json!(1.5),
            json!(null),
            json!(5_000_000_000u64),
        ] {
            let err = serde_json::from_value::<Slippage>(bad.clone()).unwrap_err();
            assert!(err.to_string().contains("basis points"), "{bad}: {err}");
        }
        assert_eq!(serde_json::to_value(Slippage(300)).unwrap(), json!(300));
    }

    #[test]
    fn pick_key_ignores_unknown_keys_and_rejects_ambiguity() {
        let v = json!({"offramp": 1, "note": "x"});
        assert_eq!(
            pick_key(&v, "t", &["onramp", "offramp"]).unwrap().0,
            "offramp"
        );
        assert!(
            pick_key(
                &json!({"onramp": 1, "offramp": 2}),
                "t",
                &["onramp", "offramp"]
            )
            .is_err()
        );
        let err = pick_key(&json!({"bridge": 1}), "t", &["onramp"]).unwrap_err();
        assert!(err.to_string().contains("bridge"), "{err}");
        assert!(pick_key(&json!("onramp"), "t", &["onramp"]).is_err());
    }
}
