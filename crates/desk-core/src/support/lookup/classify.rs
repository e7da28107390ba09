//! Telling a lookup's text apart: an address of any chain (all its orders), else an order identifier.

use gateway_client::address::{self, ChainFamily};
use gateway_client::txhash;

use super::LookupError;

/// What the text of a lookup is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Classified {
    /// An address of one chain family, in its canonical form: all its orders.
    Address {
        family: ChainFamily,
        canonical: String,
    },
    /// Anything else, trimmed: an order id, a source Bitcoin txid or a source transaction hash (get-order takes all
    /// three). `looks_like` names it for messages.
    Identifier { id: String, looks_like: String },
}

/// Reads what the user typed: an address of any chain (EVM, Bitcoin on any network, Tron, Solana), else an order
/// identifier. An EVM-shaped address with a wrong checksum is refused rather than looked up as an id.
pub(crate) fn classify(query: &str) -> Result<Classified, LookupError> {
    let query = query.trim();
    if query.is_empty() {
        return Err(LookupError::EmptyQuery);
    }
    match address::recognise(query) {
        Some(Ok(valid)) => Ok(Classified::Address {
            family: valid.family,
            canonical: valid.canonical,
        }),
        Some(Err(e)) => Err(LookupError::BadAddress {
            reason: e.to_string(),
        }),
        None => Ok(Classified::Identifier {
            id: query.to_owned(),
            looks_like: txhash::looks_like(query).unwrap_or_else(|| "order id".to_owned()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::DeskError;
    use serde_json::json;

    const EVM: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

    #[test]
    fn queries_are_told_apart() {
        for (query, family) in [
            (EVM, ChainFamily::Evm),
            (
                "  0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed ",
                ChainFamily::Evm,
            ),
            (
                "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
                ChainFamily::Bitcoin,
            ),
            (
                "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx",
                ChainFamily::Bitcoin,
            ),
            ("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", ChainFamily::Tron),
            (
                "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
                ChainFamily::Solana,
            ),
        ] {
            match classify(query).unwrap() {
                Classified::Address {
                    family: f,
                    canonical,
                } => {
                    assert_eq!(f, family, "{query}");
                    if family == ChainFamily::Evm {
                        assert_eq!(canonical, EVM, "checksummed");
                    }
                }
                other => panic!("{query}: {other:?}"),
            }
        }
        for (query, looks_like) in [
            ("f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "order id"),
            (&"ab".repeat(32) as &str, "Bitcoin txid"),
            (&format!("0x{}", "cd".repeat(32)), "EVM transaction hash"),
            (
                "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW",
                "Solana transaction signature",
            ),
        ] {
            assert_eq!(
                classify(&format!(" {query}\n")).unwrap(),
                Classified::Identifier {
                    id: query.to_owned(),
                    looks_like: looks_like.to_owned()
                }
            );
        }
        // An EVM address with a broken checksum is refused, not looked up as an order id.
        let err =
            DeskError::from(classify("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD").unwrap_err());
        assert_eq!(
            err.details_json().as_ref(),
            Some(&json!({"field": "query"}))
        );
        assert!(err.message.contains("checksum"), "{}", err.message);
        let err = DeskError::from(classify("   ").unwrap_err());
        assert!(err.message.contains("Enter an order id"), "{}", err.message);
    }
}
