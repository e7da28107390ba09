//! Where the quote to reproduce comes from: a pasted quote (the envelope, a card, or the inner object), or a support
//! bundle's accepted quote with its network and API version.

use std::str::FromStr;

use gateway_client::ApiVersion;
use gateway_client::wire::Quote;
use serde_json::Value;

use super::{ReproduceError, ReproduceSource};
use crate::support::bundle::{BUNDLE_FORMAT, parse_bundle};

/// The quote to reproduce and what is known of where it was made.
#[derive(Debug)]
pub(crate) struct Origin {
    pub(crate) quote: Quote,
    /// The journal's name of the network, for a bundle.
    pub(crate) network: Option<String>,
    pub(crate) version: Option<ApiVersion>,
}

/// A person's name for a journal network key, with the URL of a custom network.
pub(crate) fn network_words(key: &str) -> String {
    match key.strip_prefix("custom:") {
        Some(url) => format!("the custom URL {url}"),
        None => crate::support::lookup::network_label(key),
    }
}

pub(crate) fn not_a_quote(why: impl std::fmt::Display) -> ReproduceError {
    ReproduceError::NotAQuote {
        why: why.to_string(),
    }
}

/// Reads a pasted quote: the envelope, a quote card's JSON (its `raw`), or the envelope's inner object.
pub(crate) fn pasted_quote(value: Value) -> Result<Quote, ReproduceError> {
    if let Some(raw) = value.get("raw")
        && let Ok(quote) = Quote::from_json(raw.clone())
    {
        return Ok(quote);
    }
    let first_error = match Quote::from_json(value.clone()) {
        Ok(quote) => return Ok(quote),
        Err(e) => e,
    };
    // The inner object alone: whichever route it reads as (each route's required fields tell them apart).
    if value.is_object() {
        for key in ["onramp", "offramp", "tokenSwap", "layerZero"] {
            let mut envelope = serde_json::Map::new();
            envelope.insert(key.to_owned(), value.clone());
            if let Ok(quote) = Quote::from_json(Value::Object(envelope)) {
                return Ok(quote);
            }
        }
    }
    Err(not_a_quote(first_error))
}

/// Reads a bundle's accepted quote, network and API version.
pub(crate) fn bundle_origin(text: &str) -> Result<Origin, ReproduceError> {
    let file = parse_bundle(text)?;
    let quote = file
        .order
        .get("quote")
        .filter(|q| !q.is_null())
        .cloned()
        .or_else(|| {
            file.events
                .iter()
                .find(|e| e.kind == "quoteAccepted")
                .map(|e| e.payload.clone())
        })
        .ok_or(ReproduceError::NoAcceptedQuote)?;
    let quote = Quote::from_json(quote).map_err(|e| ReproduceError::BundleQuote {
        reason: e.to_string(),
    })?;
    let network = Some(file.network.clone())
        .filter(|n| !n.is_empty())
        .or_else(|| {
            file.order
                .get("network")
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
    Ok(Origin {
        quote,
        network,
        version: ApiVersion::from_str(&file.api_version).ok(),
    })
}

pub(crate) fn read_source(source: &ReproduceSource) -> Result<Origin, ReproduceError> {
    let text = match source {
        ReproduceSource::Bundle { text } => return bundle_origin(text),
        ReproduceSource::Quote { text } => text,
    };
    let value: Value = serde_json::from_str(text.trim().trim_start_matches('\u{feff}'))
        .map_err(|e| not_a_quote(format_args!("it is not JSON: {e}")))?;
    if value.get("format").and_then(Value::as_str) == Some(BUNDLE_FORMAT) {
        return bundle_origin(text);
    }
    Ok(Origin {
        quote: pasted_quote(value)?,
        network: None,
        version: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::DeskError;
    use crate::support::reproduce::tests::onramp;
    use crate::views::QuoteCard;
    use serde_json::json;

    #[test]
    fn pasted_quotes_are_read_from_the_envelope_the_card_or_the_inner_object() {
        let quote = onramp("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", json!([]));
        let envelope = quote.raw().clone();
        let card = serde_json::to_value(QuoteCard::new(&quote)).unwrap();
        let inner = envelope["onramp"].clone();
        for value in [envelope.clone(), card, inner] {
            assert_eq!(pasted_quote(value).unwrap().raw(), &envelope);
        }
        let err = DeskError::from(pasted_quote(json!({"hello": 1})).unwrap_err());
        assert!(
            err.message.contains("Paste the quote exactly"),
            "{}",
            err.message
        );
        let err = DeskError::from(
            read_source(&ReproduceSource::Quote {
                text: "not json".into(),
            })
            .unwrap_err(),
        );
        assert!(err.message.contains("it is not JSON"), "{}", err.message);
    }
}
