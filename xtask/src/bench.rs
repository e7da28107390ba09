//! `cargo xtask bench`: runs the criterion benchmarks and prints each mean, and the ratios the README reports.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result};
use serde_json::Value;

use crate::tasks::{project_root, status};

/// One measured benchmark.
struct Measured {
    id: String,
    mean_ns: f64,
}

fn read_json(path: &Path) -> Result<Value> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(serde_json::from_str(&text)?)
}

/// Every benchmark criterion saved under `dir`, with its mean time.
fn measured(dir: &Path) -> Result<Vec<Measured>> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.ends_with("new/benchmark.json") {
                let info = read_json(&path)?;
                let estimates = read_json(&path.with_file_name("estimates.json"))?;
                found.push(Measured {
                    id: info["full_id"].as_str().unwrap_or("?").to_owned(),
                    mean_ns: estimates["mean"]["point_estimate"]
                        .as_f64()
                        .unwrap_or(f64::NAN),
                });
            }
        }
    }
    found.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(found)
}

fn human(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

/// The benchmark pairs whose ratio is reported: (what, measured, against).
const RATIOS: &[(&str, &str, &str)] = &[(
    "quote round trip: gateway-client / bare HTTP",
    "quote round trip over loopback/gateway-client get_quote",
    "quote round trip over loopback/bare reqwest GET (bytes only)",
)];

pub fn bench() -> Result<()> {
    let target = project_root().join("target/criterion");
    let _ = std::fs::remove_dir_all(&target);
    status(
        Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args(["bench", "--package", "gateway-client", "--bench", "client"])
            .current_dir(project_root()),
    )?;
    let results = measured(&target)?;
    println!("\nxtask bench: mean time per iteration");
    for m in &results {
        println!("  {:<70} {:>12}", m.id, human(m.mean_ns));
    }
    for (what, a, b) in RATIOS {
        let find = |id: &str| results.iter().find(|m| m.id == id).map(|m| m.mean_ns);
        if let (Some(a), Some(b)) = (find(a), find(b)) {
            println!("  {what}: {:.2}×", a / b);
        }
    }
    Ok(())
}
