//! `cargo xtask conformance`: a property-based check of gateway-sim against the published OpenAPI document, with
//! schemathesis (from PyPI, pinned with every dependency in `xtask/conformance/requirements.txt`, installed into a
//! virtual environment under `target/conformance/venv` so the system Python is untouched).
//!
//! The sim runs on 127.0.0.1 (a free port, keyless, no admin interface, no rate limit so that the run is not
//! throttled). schemathesis generates requests for every operation from each document ([`DOCUMENTS`]: V1–V3 of the
//! 2025 one, V3 and V4 of the service's current one of September 2026) and checks each answer
//! (status code, content type, response schema, no 5xx, …) in every phase (examples, coverage, fuzzing); the run is
//! bounded by `MAX_EXAMPLES` per operation and repeatable (`SEED`): the same cases on every machine (4,904 of them
//! with 100, about 35 s here). There is no time budget: schemathesis's `--max-time` is not a ceiling but a budget it
//! fills, generating until it runs out (with 120 s it made some 7,600 cases here, a number that depends on the
//! machine's speed). Any failure fails the step.
//!
//! Each document is used as published except for three corrections, each a flaw of the document rather than of the
//! sim (see `crates/gateway-sim/README.md`, "Conformance findings"):
//! - the error `details` `oneOf` becomes `anyOf` (`wire-facts.md`: its `tenderly_url` shape requires nothing, so
//!   every object matches two branches);
//! - the V2–V4 error-code `oneOf` becomes `anyOf` (`INSUFFICIENT_SOLVER_BALANCE` is listed in two branches);
//! - each operation's `security` also allows no key (`{}`): the interface says keys are optional, and the document's
//!   bare `api_key` requirement would make schemathesis demand one.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::tasks::{project_root, status, target_dir};

/// Generated cases per operation and phase.
const MAX_EXAMPLES: &str = "100";
/// The generator's seed: the same run each time.
const SEED: &str = "1";

/// The published documents checked, under `crates/gateway-client/tests/fixtures/`: the 2025 one (V1–V3) and the
/// service's current one (September 2026: V3 and V4).
pub const DOCUMENTS: [&str; 2] = ["published-openapi.json", "published-openapi-2026-09.json"];

/// The published document `name` with the three corrections above (each schema corrected where the document has it:
/// the 2026 one has no V1 error schemas and adds V4's).
fn patched_document(name: &str) -> Result<Value> {
    let path = project_root()
        .join("crates/gateway-client/tests/fixtures")
        .join(name);
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let mut doc: Value = serde_json::from_str(&text).context("the published document is JSON")?;
    let schemas = doc["components"]["schemas"]
        .as_object_mut()
        .context("the document has component schemas")?;
    let any_of = |schema: &mut Value, what: &str| -> Result<()> {
        let map = schema.as_object_mut().context("a schema object")?;
        let branches = map
            .remove("oneOf")
            .with_context(|| format!("{what} is a oneOf"))?;
        map.insert("anyOf".into(), branches);
        Ok(())
    };
    let mut corrected = 0;
    for name in [
        "GatewayErrorDetails",
        "GatewayErrorDetailsV2",
        "GatewayErrorDetailsV3",
        "GatewayErrorCodeV2",
        "GatewayErrorCodeV3",
        "GatewayErrorCodeV4",
    ] {
        if let Some(schema) = schemas.get_mut(name) {
            any_of(schema, name)?;
            corrected += 1;
        }
    }
    for name in [
        "GatewayError",
        "GatewayErrorV2",
        "GatewayErrorV3",
        "GatewayErrorV4",
    ] {
        if let Some(schema) = schemas.get_mut(name) {
            any_of(&mut schema["properties"]["details"], name)?;
            corrected += 1;
        }
    }
    if corrected < 6 {
        bail!(
            "{name}: only {corrected} error schemas found to correct; has the document changed its names?"
        );
    }
    for (_, operations) in doc["paths"]
        .as_object_mut()
        .context("the document has paths")?
    {
        for (_, operation) in operations.as_object_mut().context("operations")? {
            if let Some(security) = operation.get_mut("security").and_then(Value::as_array_mut) {
                security.insert(0, serde_json::json!({}));
            }
        }
    }
    Ok(doc)
}

/// The virtual environment's `st`, made and filled from the pinned requirements when they changed.
fn schemathesis(dir: &Path) -> Result<PathBuf> {
    let venv = dir.join("venv");
    let requirements = project_root().join("xtask/conformance/requirements.txt");
    let wanted = std::fs::read_to_string(&requirements)
        .with_context(|| format!("reading {}", requirements.display()))?;
    let marker = venv.join("installed-requirements.txt");
    let st = venv.join("bin/st");
    if st.exists() && std::fs::read_to_string(&marker).ok().as_deref() == Some(wanted.as_str()) {
        return Ok(st);
    }
    println!(
        "xtask: installing schemathesis (pinned) into {}",
        venv.display()
    );
    status(Command::new("python3").args(["-m", "venv"]).arg(&venv))?;
    status(
        Command::new(venv.join("bin/pip"))
            .args(["install", "--quiet", "--disable-pip-version-check", "-r"])
            .arg(&requirements),
    )?;
    std::fs::write(&marker, wanted)?;
    Ok(st)
}

/// The sim, serving on a free loopback port; stopped when dropped.
struct RunningSim {
    child: Child,
    url: String,
}

impl RunningSim {
    fn start(binary: &Path) -> Result<Self> {
        let mut child = Command::new(binary)
            .args(["--listen", "127.0.0.1:0", "--keyless-per-minute", "0"])
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {}", binary.display()))?;
        let stdout = child.stdout.take().context("the sim's output")?;
        let mut lines = BufReader::new(stdout).lines();
        let mut sim = Self {
            child,
            url: String::new(),
        };
        for line in lines.by_ref() {
            let line = line?;
            if let Some(url) = line.strip_prefix("gateway-sim listening on ") {
                sim.url = url.trim().to_owned();
                break;
            }
        }
        if sim.url.is_empty() {
            bail!("gateway-sim stopped before it listened");
        }
        // Keep reading (and dropping) its output so it never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        Ok(sim)
    }
}

impl Drop for RunningSim {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `cargo xtask conformance`: builds the simulator, then runs the check.
pub fn conformance() -> Result<()> {
    status(
        Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args([
                "build",
                "--quiet",
                "-p",
                "gateway-sim",
                "--bin",
                "gateway-sim",
            ])
            .current_dir(project_root()),
    )?;
    run(&target_dir().join("debug/gateway-sim"))
}

/// Runs the check (see the module docs) against the simulator `binary`; fails on any finding.
pub fn run(binary: &Path) -> Result<()> {
    let dir = target_dir().join("conformance");
    std::fs::create_dir_all(&dir)?;
    let st = schemathesis(&dir)?;
    let sim = RunningSim::start(binary)?;
    for name in DOCUMENTS {
        let document = dir.join(name.replace(".json", ".patched.json"));
        std::fs::write(
            &document,
            serde_json::to_vec_pretty(&patched_document(name)?)?,
        )?;
        println!(
            "xtask: schemathesis with {name} against gateway-sim at {} ({MAX_EXAMPLES} examples per operation, seed {SEED})",
            sim.url
        );
        check_with(&st, &document, &sim.url, &dir).with_context(|| {
            format!("schemathesis found the sim answering otherwise than {name}")
        })?;
    }
    drop(sim);
    Ok(())
}

/// One schemathesis run of `document` against the sim at `url`.
fn check_with(st: &Path, document: &Path, url: &str, dir: &Path) -> Result<()> {
    status(
        Command::new(st)
            .arg("run")
            .arg(document)
            .args(["--url", url])
            .args(["--max-examples", MAX_EXAMPLES])
            .args(["--seed", SEED, "--workers", "2", "--no-color"])
            .args(["--request-timeout", "10"])
            // Keys are optional (the interface): no generated Authorization header, whose unknown key would get the
            // 401 that `tests/access.rs` covers and the document does not list.
            .args(["--generation-with-security-parameters", "false"])
            // A schema-valid request is not a valid one: an unknown chain, a quote this gateway did not issue or an
            // order id it does not know is refused with the coded 400 the document lists.
            .args(["--exclude-checks", "positive_data_acceptance"])
            .arg("--report-dir")
            .arg(dir.join("report"))
            .current_dir(dir),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_document_is_patched_only_where_it_is_flawed() {
        let current = patched_document(DOCUMENTS[1]).unwrap();
        let schemas = &current["components"]["schemas"];
        assert!(schemas["GatewayErrorCodeV4"]["anyOf"].is_array());
        assert!(schemas["GatewayErrorV4"]["properties"]["details"]["anyOf"].is_array());
        assert!(schemas["GatewayQuoteV4"]["oneOf"].is_array());
        let doc = patched_document(DOCUMENTS[0]).unwrap();
        let schemas = &doc["components"]["schemas"];
        assert!(schemas["GatewayErrorCodeV3"]["anyOf"].is_array());
        assert!(schemas["GatewayErrorDetailsV3"]["oneOf"].is_null());
        assert!(schemas["GatewayErrorV2"]["properties"]["details"]["anyOf"].is_array());
        let security = &doc["paths"]["/v3/get-max-spendable/{address}"]["get"]["security"];
        assert_eq!(security[0], serde_json::json!({}));
        assert_eq!(security[1]["api_key"], serde_json::json!([]));
        // An operation the document gives no security stays without.
        assert!(doc["paths"]["/v3/get-quote"]["get"]["security"].is_null());
        // Everything else as published: the quote schema is untouched.
        assert!(schemas["GatewayQuoteV3"]["oneOf"].is_array());
    }
}
