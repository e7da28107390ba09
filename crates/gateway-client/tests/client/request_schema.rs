//! The get-quote requests the client builds, checked against the parameters of the published document per version.

use std::collections::HashMap;

use gateway_client::params::parse_affiliates;
use gateway_client::{ApiVersion, QuoteRequest};
use serde_json::Value;

fn openapi() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/published-openapi.json"
    );
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
    }
    request
}

#[test]
fn every_quote_request_uses_only_documented_parameters_with_the_required_ones() {
    let doc = openapi();
    for version in [ApiVersion::V1, ApiVersion::V2, ApiVersion::V3] {
        let documented = parameters(&doc, version);
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
    // The check can fail: V3 documents no gasRefill.
    assert!(!parameters(&doc, ApiVersion::V3).contains_key("gasRefill"));
}
