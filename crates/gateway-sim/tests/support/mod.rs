//! What the gateway-sim integration tests share: the published OpenAPI document, its schemas, a running sim and
//! clients of it.
//!
//! The document is the fixture `crates/gateway-client/tests/fixtures/published-openapi.json`, copied from the
//! project's shared spec (the production service's own description of V1–V3).

#![allow(dead_code)] // each test binary uses its own part

use std::net::{Ipv4Addr, SocketAddr};

use gateway_client::{ApiVersion, Client, ClientConfig};
use gateway_sim::{RunningSim, Sim};
use serde_json::Value;

pub const VERSIONS: [ApiVersion; 3] = [ApiVersion::V1, ApiVersion::V2, ApiVersion::V3];

pub fn slug(version: ApiVersion) -> &'static str {
    version.as_str()
}

/// The published OpenAPI document.
pub fn openapi() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../gateway-client/tests/fixtures/published-openapi.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The schema of the `status` answer of `method path` (e.g. `"get"`, `"/v3/get-quote"`, `"200"`), with the
/// components reachable by `$ref`. `None` when the document gives that answer no JSON body (a 404).
///
/// The published document has a flaw (see `wire-facts.md`, "A flaw in the published document"): the error
/// `details` schemas are a `oneOf` in which the `tenderly_url` shape requires no property (so every object matches it
/// as well as its real shape) and the route shape is listed twice in V2/V3, so a strict validator refuses every
/// error body that has details. Here those `oneOf`s are treated as `anyOf`, which keeps every shape's own
/// requirements but allows more than one shape to match.
pub fn response_schema(doc: &Value, method: &str, path: &str, status: &str) -> Option<Value> {
    let response = &doc["paths"][path][method]["responses"][status];
    assert!(
        response.is_object(),
        "the document describes {method} {path} {status}"
    );
    let mut schema = response["content"]["application/json"]["schema"].clone();
    if !schema.is_object() {
        return None;
    }
    schema["components"] = patched_components(doc);
    Some(schema)
}

/// The request-body schema of `method path`.
pub fn request_schema(doc: &Value, method: &str, path: &str) -> Value {
    let mut schema =
        doc["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"].clone();
    assert!(
        schema.is_object(),
        "the document describes {method} {path}'s body"
    );
    schema["components"] = patched_components(doc);
    schema
}

fn patched_components(doc: &Value) -> Value {
    let mut components = doc["components"].clone();
    let schemas = components["schemas"].as_object_mut().unwrap();
    for name in [
        "GatewayErrorDetails",
        "GatewayErrorDetailsV2",
        "GatewayErrorDetailsV3",
    ] {
        let details = schemas[name].as_object_mut().unwrap();
        let one_of = details.remove("oneOf").expect("details are a oneOf");
        details.insert("anyOf".into(), one_of);
    }
    for name in ["GatewayError", "GatewayErrorV2", "GatewayErrorV3"] {
        let details = schemas[name]["properties"]["details"]
            .as_object_mut()
            .unwrap();
        let one_of = details.remove("oneOf").expect("details are a oneOf");
        details.insert("anyOf".into(), one_of);
    }
    components
}

/// The schema of the `status` answer of `GET /{version}/get-quote`.
pub fn quote_schema(doc: &Value, version: ApiVersion, status: &str) -> Value {
    response_schema(doc, "get", &format!("/{}/get-quote", slug(version)), status).unwrap()
}

/// The first few ways `body` breaks `schema` (empty when it conforms).
pub fn schema_errors(schema: &Value, body: &Value) -> Vec<String> {
    let validator = jsonschema::validator_for(schema).unwrap();
    validator
        .iter_errors(body)
        .map(|e| format!("{e} at {}", e.instance_path))
        .take(5)
        .collect()
}

/// Checks `body`, the `status` answer of `method path`, against the document; panics with the reasons.
pub fn assert_conforms(doc: &Value, method: &str, path: &str, status: u16, body: &Value) {
    let schema = response_schema(doc, method, path, &status.to_string())
        .unwrap_or_else(|| panic!("{method} {path} {status} has no JSON body in the document"));
    let errors = schema_errors(&schema, body);
    assert!(
        errors.is_empty(),
        "{method} {path} {status}: {errors:?}\n{body:#}"
    );
}

/// A sim without rate limits serving on a free loopback port.
pub async fn start() -> (Sim, RunningSim) {
    start_with(unlimited_sim()).await
}

/// `sim` serving on a free loopback port.
pub async fn start_with(sim: Sim) -> (Sim, RunningSim) {
    let running = sim
        .clone()
        .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    (sim, running)
}

/// A client of `running` speaking `version`, reading once (no retries hide a failure).
pub fn client(running: &RunningSim, version: ApiVersion) -> Client {
    let mut config = ClientConfig::new(running.base_url().parse().unwrap());
    config.version = version;
    config.read_attempts = 1;
    Client::new(config).unwrap()
}

/// A sim without rate limits (it still checks API keys), for tests that send many requests.
pub fn unlimited_sim() -> Sim {
    Sim::with_config(gateway_sim::SimConfig {
        access: gateway_sim::access::AccessConfig::unlimited(),
        ..Default::default()
    })
    .unwrap()
}
