//! The get-quote requests the client builds, checked against the parameters of the published document per version.

use std::collections::HashMap;

use gateway_client::params::parse_affiliates;
use gateway_client::{ApiVersion, QuoteRequest};
use serde_json::Value;

/// The published document `name` under `tests/fixtures/`.
fn openapi(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The document's query parameters of get-quote: name → (required, schema).
fn parameters(doc: &Value, version: ApiVersion) -> HashMap<String, (bool, Value)> {
    doc["paths"][format!("/{version}/get-quote")]["get"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["in"] == "query")
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_owned(),
                (
                    p["required"].as_bool().unwrap_or(false),
                    p["schema"].clone(),
                ),
            )
        })
        .collect()
}

fn fullest_request(version: ApiVersion) -> QuoteRequest {
    let mut request = QuoteRequest::new(
        ("bitcoin", "0x0000000000000000000000000000000000000000"),
        ("bob", "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c"),
        "100000",
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    );
    request.sender = Some("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq".into());
    match version {
        ApiVersion::V1 => request.affiliate_id = Some("partner-1".into()),
        ApiVersion::V2 => {
            request.affiliates =
                parse_affiliates("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed:25").unwrap()
        }
        ApiVersion::V3 => {
            request.affiliates =
                parse_affiliates("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed:25").unwrap();
            request.owner_address = Some("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed".into());
            request.refund_address = Some("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq".into());
        }
        ApiVersion::V4 => {
            request.affiliates =
                parse_affiliates("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed:25").unwrap();
            // V4's refund address is on the source chain: Bitcoin, for this onramp.
            request.refund_address = Some("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq".into());
        }
    }
    request
}

#[test]
fn every_quote_request_uses_only_documented_parameters_with_the_required_ones() {
    let old = openapi("published-openapi.json");
    let current = openapi("published-openapi-2026-09.json");
    // V1 to V3 against the 2025 document; V3 again and V4 against the September 2026 one.
    for (doc, version) in [
        (&old, ApiVersion::V1),
        (&old, ApiVersion::V2),
        (&old, ApiVersion::V3),
        (&current, ApiVersion::V3),
        (&current, ApiVersion::V4),
    ] {
        let documented = parameters(doc, version);
        let request = fullest_request(version);
        request.validate(version).unwrap();
        let pairs = request.query_pairs(version);
        for (name, value) in &pairs {
            let (_, schema) = documented
                .get(*name)
                .unwrap_or_else(|| panic!("{version}: {name} is not documented"));
            let validator = jsonschema::validator_for(schema).unwrap();
            assert!(
                validator.is_valid(&Value::String(value.clone())),
                "{version}: {name}={value}"
            );
        }
        for (name, (required, _)) in &documented {
            if *required {
                assert!(
                    pairs.iter().any(|(n, _)| n == name),
                    "{version}: required {name} is sent"
                );
            }
        }
        let unique: std::collections::HashSet<&str> = pairs.iter().map(|(n, _)| *n).collect();
        assert_eq!(unique.len(), pairs.len(), "{version}: no parameter twice");
    }
    // The check can fail: V3 documents no gasRefill, V4 no ownerAddress, and V4 is refused one.
    assert!(!parameters(&old, ApiVersion::V3).contains_key("gasRefill"));
    assert!(!parameters(&current, ApiVersion::V4).contains_key("ownerAddress"));
    let mut owner = fullest_request(ApiVersion::V4);
    owner.owner_address = Some("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed".into());
    let refused = owner.validate(ApiVersion::V4).unwrap_err().to_string();
    assert!(refused.contains("V4 dropped it"), "{refused}");
}

#[test]
fn a_v4_refund_address_must_be_on_the_source_chain() {
    // An onramp refunds in Bitcoin, an offramp from BOB on BOB, a swap from Tron on Tron.
    let mut onramp = fullest_request(ApiVersion::V4);
    onramp.refund_address = Some("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed".into());
    let refused = onramp.validate(ApiVersion::V4).unwrap_err().to_string();
    assert!(
        refused.starts_with("refundAddress:") && refused.contains("source chain (bitcoin)"),
        "{refused}"
    );
    let mut offramp = QuoteRequest::new(
        ("bob", "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c"),
        ("bitcoin", "0x0000000000000000000000000000000000000000"),
        "100000",
        "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
    );
    offramp.refund_address = Some("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq".into());
    assert!(offramp.validate(ApiVersion::V4).is_err());
    offramp.refund_address = Some("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed".into());
    offramp.validate(ApiVersion::V4).unwrap();
    let pairs = offramp.query_pairs(ApiVersion::V4);
    assert!(pairs.contains(&(
        "refundAddress",
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed".into()
    )));
    let mut swap = QuoteRequest::new(
        ("tron", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"),
        ("bob", "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c"),
        "100000",
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    );
    swap.refund_address = Some("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed".into());
    assert!(swap.validate(ApiVersion::V4).is_err());
    swap.refund_address = Some("TJRabPrwbZy45sbavfcjinPJC18kjpRTv8".into());
    swap.validate(ApiVersion::V4).unwrap();
    // V2 takes no refund address at all.
    assert!(swap.validate(ApiVersion::V2).is_err());
}
