//! What the gateway-sim integration tests share: the published OpenAPI document, its schemas, a running sim and
//! clients of it.
//!
//! The document is the fixture `crates/gateway-client/tests/fixtures/published-openapi.json`, copied from the
//! project's shared spec (the production service's own description of V1–V3).

#![allow(dead_code)] // each test binary uses its own part

use std::net::{Ipv4Addr, SocketAddr};

use alloy_primitives::U256;
use gateway_client::{ApiVersion, Client, ClientConfig, RouteInfo};
use gateway_sim::{RunningSim, Sim, pricing};
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

/// The service's current document (September 2026): V3 and V4 only.
pub fn openapi_2026() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../gateway-client/tests/fixtures/published-openapi-2026-09.json"
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
    // The September 2026 document has no V1/V2 error schemas and adds GatewayErrorV4: each is patched where present.
    for name in [
        "GatewayErrorDetails",
        "GatewayErrorDetailsV2",
        "GatewayErrorDetailsV3",
    ] {
        let Some(details) = schemas.get_mut(name).and_then(Value::as_object_mut) else {
            continue;
        };
        let one_of = details.remove("oneOf").expect("details are a oneOf");
        details.insert("anyOf".into(), one_of);
    }
    for name in [
        "GatewayError",
        "GatewayErrorV2",
        "GatewayErrorV3",
        "GatewayErrorV4",
    ] {
        let Some(details) = schemas
            .get_mut(name)
            .and_then(|s| s["properties"]["details"].as_object_mut())
        else {
            continue;
        };
        let one_of = details.remove("oneOf").expect("details are a oneOf");
        details.insert("anyOf".into(), one_of);
    }
    // The September 2026 document's code lists are a oneOf of earlier lists, which share INSUFFICIENT_SOLVER_BALANCE.
    for name in ["GatewayErrorCodeV3", "GatewayErrorCodeV4"] {
        if let Some(codes) = schemas.get_mut(name).and_then(Value::as_object_mut)
            && let Some(one_of) = codes.remove("oneOf")
        {
            codes.insert("anyOf".into(), one_of);
        }
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

pub const EVM: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
pub const OWNER: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
pub const BTC_ADDR: &str = "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh";
pub const TRON_ADDR: &str = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7";
pub const SOL_ADDR: &str = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

pub fn address_on(chain: &str) -> &'static str {
    match chain {
        "bitcoin" => BTC_ADDR,
        "tron" => TRON_ADDR,
        "solana" => SOL_ADDR,
        _ => EVM,
    }
}

/// About 1000 USD of the source token, ending in `…404` (fails), `…808` (refunded) or `…123` (succeeds) by `n`.
pub fn amount_for(sim: &Sim, route: &RouteInfo, n: usize) -> String {
    let token = sim
        .catalogue()
        .find(&route.src_chain, &route.src_token)
        .unwrap();
    let base = pricing::amount_for_usd_micro(1_000_000_000, pricing::price_of(token).unwrap());
    let base = base - base % U256::from(1_000u32);
    let tail = [123u32, 404, 808][n % 3];
    (base + U256::from(tail)).to_string()
}

pub fn quote_query(
    version: ApiVersion,
    route: &RouteInfo,
    amount: &str,
) -> Vec<(&'static str, String)> {
    let mut q = vec![
        ("srcChain", route.src_chain.clone()),
        ("srcToken", route.src_token.clone()),
        ("dstChain", route.dst_chain.clone()),
        ("dstToken", route.dst_token.clone()),
        ("amount", amount.to_owned()),
        ("recipient", address_on(&route.dst_chain).to_owned()),
        ("slippage", "300".to_owned()),
    ];
    if route.src_chain != "bitcoin" {
        q.push(("sender", address_on(&route.src_chain).to_owned()));
    }
    if version == ApiVersion::V3 {
        q.push(("ownerAddress", OWNER.to_owned()));
    }
    if version == ApiVersion::V4 {
        // The sender's own address on the source chain, as the app and the official SDK send it.
        q.push(("refundAddress", address_on(&route.src_chain).to_owned()));
    }
    q
}

/// A plain HTTP client of a running sim: status and JSON body (Null for an empty body) of each answer.
pub struct Http {
    client: reqwest::Client,
    base: String,
}

impl Http {
    pub async fn send(&self, request: reqwest::RequestBuilder) -> (u16, Value) {
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        let bytes = response.bytes().await.unwrap();
        let body = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{status}: {e}: {bytes:?}"))
        };
        (status, body)
    }

    pub async fn get(&self, path: &str, query: &[(&str, String)]) -> (u16, Value) {
        self.send(self.client.get(format!("{}{path}", self.base)).query(query))
            .await
    }

    pub async fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.send(self.client.post(format!("{}{path}", self.base)).json(body))
            .await
    }

    pub async fn patch(&self, path: &str, body: &Value) -> (u16, Value) {
        self.send(self.client.patch(format!("{}{path}", self.base)).json(body))
            .await
    }
}

/// A plain HTTP client of `running`.
pub fn http(running: &RunningSim) -> Http {
    Http {
        client: reqwest::Client::new(),
        base: running.base_url(),
    }
}

/// Creates the onramp order of `quote` (a V3 quote as get-quote answered it), signs its PSBT with `wallet` and
/// registers the signed transaction: the order id, the transaction and the change it pays back to `script`, in sats.
pub async fn register_signed_onramp(
    http: &Http,
    quote: &Value,
    wallet: &gateway_sim::payload::testkit::TestWallet,
    script: &bitcoin::Script,
) -> (String, bitcoin::Transaction, u64) {
    let (status, created) = http.post("/v3/create-order", quote).await;
    assert_eq!(status, 201, "{created}");
    let signed = wallet
        .sign_psbt(created["onramp"]["psbt_hex"].as_str().unwrap())
        .unwrap();
    let order_id = created["onramp"]["order_id"].as_str().unwrap().to_owned();
    let (status, answer) = http
        .patch(
            "/v3/register-tx",
            &serde_json::json!({"onramp": {"order_id": order_id, "bitcoin_tx_hex": signed}}),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let tx: bitcoin::Transaction = bitcoin::consensus::encode::deserialize_hex(&signed).unwrap();
    let change = tx
        .output
        .iter()
        .find(|o| o.script_pubkey == *script)
        .unwrap()
        .value
        .to_sat();
    (order_id, tx, change)
}

/// A real BOB node (anvil) with the Sandbox's contracts, `user` holding 1 ETH and 1,000,000 units of `token`, and a
/// sim that checks and reads BOB on it: the node, the sim, the running server and a client of `version`.
pub async fn sim_on_a_bob_node(
    user: &str,
    token: &str,
    version: ApiVersion,
) -> (
    gateway_sim::evm_node::EvmNode,
    Sim,
    RunningSim,
    gateway_client::Client,
) {
    use alloy_primitives::U256;
    let node = gateway_sim::evm_node::EvmNode::start("bob").await.unwrap();
    node.place_sandbox_contracts().await.unwrap();
    node.set_native_balance(user, U256::from(10u64).pow(U256::from(18u64)))
        .await
        .unwrap();
    node.mint(token, user, U256::from(1_000_000u64))
        .await
        .unwrap();
    let config = gateway_sim::SimConfig::default();
    config.chain_nodes.set("bob", node.url());
    let sim = Sim::with_config(config).unwrap();
    let running = sim
        .clone()
        .spawn(std::net::SocketAddr::from((
            std::net::Ipv4Addr::LOCALHOST,
            0,
        )))
        .await
        .unwrap();
    let mut client_config = gateway_client::ClientConfig::new(running.base_url().parse().unwrap());
    client_config.version = version;
    let client = gateway_client::Client::new(client_config).unwrap();
    (node, sim, running, client)
}
