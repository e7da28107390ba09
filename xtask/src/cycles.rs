//! `cargo xtask module-cycles`: whether the top-level modules of desk-core and gateway-client import one another in a
//! circle. cargo-modules (0.27, `cargo install cargo-modules --version 0.27.0 --locked`) reads each crate as
//! rust-analyzer does and lists which item uses which; its own `--acyclic` judges items (a type and its methods use
//! each other), so this task folds each item into its top-level module and looks for circles between modules.
//!
//! Not part of `cargo xtask test`: cargo-modules takes about ten minutes to build from crates.io on two cores.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::tasks::project_root;

/// The crates whose modules must not import one another in a circle.
const CRATES: [(&str, &str); 2] = [
    ("desk-core", "desk_core"),
    ("gateway-client", "gateway_client"),
];

pub fn module_cycles() -> Result<()> {
    let mut found = false;
    for (package, name) in CRATES {
        let output = Command::new("cargo")
            .args(["modules", "dependencies", "--lib", "-p", package, "--no-externs", "--no-sysroot"])
            .current_dir(project_root())
            .output()
            .context("cargo-modules did not run: install it with `cargo install cargo-modules --version 0.27.0 --locked`")?;
        if !output.status.success() {
            bail!(
                "cargo modules dependencies -p {package} failed: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        let edges = module_edges(&String::from_utf8_lossy(&output.stdout), name);
        let circles = circles(&edges);
        println!(
            "{package}: {} modules, {} import edges between them, {}",
            edges
                .keys()
                .chain(edges.values().flatten())
                .collect::<BTreeSet<_>>()
                .len(),
            edges.values().map(BTreeSet::len).sum::<usize>(),
            if circles.is_empty() {
                "no circle".to_owned()
            } else {
                format!("circles: {circles:?}")
            }
        );
        found |= !circles.is_empty();
    }
    if found {
        bail!("modules import one another in a circle (above)");
    }
    Ok(())
}

/// The top-level module of an item path of crate `name` (`desk_core::desk::orders::X` → `desk`); `None` for the root.
fn top_module<'a>(path: &'a str, name: &str) -> Option<&'a str> {
    path.strip_prefix(name)?
        .strip_prefix("::")?
        .split("::")
        .next()
}

/// The "uses" edges of cargo-modules' graph (DOT), folded into edges between top-level modules.
fn module_edges(dot: &str, name: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in dot.lines().filter(|l| l.contains("label=\"uses\"")) {
        let quoted: Vec<&str> = line.split('"').collect();
        // `"from" -> "to" [label="uses", …]`
        let (Some(from), Some(to)) = (quoted.get(1), quoted.get(3)) else {
            continue;
        };
        if let (Some(from), Some(to)) = (top_module(from, name), top_module(to, name))
            && from != to
        {
            edges
                .entry(from.to_owned())
                .or_default()
                .insert(to.to_owned());
        }
    }
    edges
}

/// The groups of modules that reach one another (Tarjan's strongly connected components of more than one module).
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            for w in self.edges.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.stack.contains(&w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut group = Vec::new();
                while let Some(w) = self.stack.pop() {
                    group.push(w.to_owned());
                    if w == v {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort();
                    self.found.push(group);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.found
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOT: &str = r##"digraph {
    "c" -> "c::a" [label="owns"]; // "owns" edge
    "c::a::X" -> "c::b::f" [label="uses", color="#7f7f7f"]; // "uses" edge
    "c::b" -> "c::a::Y" [label="uses"]; // "uses" edge
    "c::b::g" -> "c::d" [label="uses"]; // "uses" edge
    "c::a::X" -> "c::a::X::fmt" [label="uses"]; // "uses" edge
}"##;

    #[test]
    fn items_fold_into_their_top_modules_and_a_circle_is_found() {
        let edges = module_edges(DOT, "c");
        assert_eq!(edges["a"], BTreeSet::from(["b".to_owned()]));
        assert_eq!(edges["b"], BTreeSet::from(["a".to_owned(), "d".to_owned()]));
        assert_eq!(circles(&edges), vec![vec!["a".to_owned(), "b".to_owned()]]);
        let without: String = DOT
            .lines()
            .filter(|l| !l.contains("\"c::b\" ->"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(circles(&module_edges(&without, "c")).is_empty());
    }
}
