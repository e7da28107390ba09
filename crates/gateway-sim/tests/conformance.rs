//! The simulated gateway's answers checked against the published service's OpenAPI document, over loopback.
//!
//! The document is the fixture `crates/gateway-client/tests/fixtures/published-openapi.json`, copied from the
//! project's shared spec (the production service's own description of V1–V3).

use std::net::{Ipv4Addr, SocketAddr};

use gateway_client::{ApiVersion, Client, ClientConfig, ClientError};
use gateway_sim::{RunningSim, Sim};
use serde_json::{Value, json};

fn openapi() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../gateway-client/tests/fixtures/published-openapi.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The JSON schema of the 200 answer of `GET path`, with the document's components reachable by `$ref`.
fn response_schema(doc: &Value, path: &str) -> Value {
    let mut schema =
        doc["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
            .clone();
    assert!(schema.is_object(), "the document describes {path}");
    schema["components"] = doc["components"].clone();
    schema
}

async fn start() -> RunningSim {
    Sim::new()
        .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap()
}

#[tokio::test]
async fn get_routes_matches_the_published_schema_in_every_version() {
    let sim = start().await;
    let doc = openapi();
    for version in ["v1", "v2", "v3"] {
        let response = reqwest::get(format!("{}/{version}/get-routes", sim.base_url()))
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let body: Value = response.json().await.unwrap();
        let schema = response_schema(&doc, &format!("/{version}/get-routes"));
        let validator = jsonschema::validator_for(&schema).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&body)
            .map(|e| e.to_string())
            .take(5)
            .collect();
        assert!(errors.is_empty(), "{version}: {errors:?}");
        assert!(
            body.as_array().is_some_and(|routes| !routes.is_empty()),
            "{version} lists routes"
        );

        // The schema can fail: a route missing a field is refused.
        let broken = json!([{ "srcChain": "bitcoin", "srcToken": "BTC", "dstChain": "bob" }]);
        assert!(!validator.is_valid(&broken));
    }
}

#[tokio::test]
async fn the_client_reads_the_routes_and_unknown_paths_are_404_without_a_body() {
    let sim = start().await;
    for version in [ApiVersion::V1, ApiVersion::V2, ApiVersion::V3] {
        let mut config = ClientConfig::new(sim.base_url().parse().unwrap());
        config.version = version;
        let routes = Client::new(config)
            .unwrap()
            .get_routes()
            .await
            .unwrap()
            .value;
        assert_eq!(routes, Sim::new().catalogue().routes(version));
    }
    let response = reqwest::get(format!("{}/v4/get-routes", sim.base_url()))
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
    assert!(response.bytes().await.unwrap().is_empty());

    let mut config = ClientConfig::new(format!("{}/nowhere", sim.base_url()).parse().unwrap());
    config.read_attempts = 1;
    let err = Client::new(config).unwrap().get_routes().await.unwrap_err();
    assert!(matches!(err, ClientError::NotFound), "{err:?}");
    sim.shutdown().await.unwrap();
}
