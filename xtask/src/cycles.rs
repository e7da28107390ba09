//! `cargo xtask module-cycles`: whether the top-level modules of a crate use one another in a circle, with the graph
//! of which module uses which.
//!
//! The uses are read from the tokens of the sources ([`scan`]): paths inside attributes count, doc comments and
//! comments do not, nor what is compiled for tests only. The whole-tree check is also a test of the normal suite
//! (`cargo xtask test` runs it), so that a circle fails CI.

pub(crate) mod scan;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Result, bail};

use crate::tasks::project_root;
use scan::Use;

/// The crates whose top-level modules must not use one another in a circle, each with its root file (relative to
/// the project's root).
const CRATES: [(&str, &str); 6] = [
    ("desk-core", "crates/desk-core/src/lib.rs"),
    ("desk-wallet", "crates/desk-wallet/src/lib.rs"),
    ("gateway-client", "crates/gateway-client/src/lib.rs"),
    ("gateway-payload", "crates/gateway-payload/src/lib.rs"),
    ("gateway-sim", "crates/gateway-sim/src/lib.rs"),
    ("gateway-desk", "src-tauri/lib.rs"),
];

/// The graph of one crate: for each module, each module it uses with the first use found (file order).
type Graph = BTreeMap<String, BTreeMap<String, Use>>;

/// One crate's graph and circles.
struct Report {
    package: &'static str,
    files: usize,
    /// The crate's source files the scan did not reach (test files and folders left out): a module declared some
    /// way the scan does not follow, whose uses no circle could show.
    unread: Vec<String>,
    modules: BTreeSet<String>,
    /// How many names the crate root re-exports from its modules.
    reexports: usize,
    /// The names after `crate::` that lead to no module (the root's own items and macros, another crate).
    unresolved: BTreeSet<String>,
    graph: Graph,
    circles: Vec<Vec<String>>,
}

pub fn module_cycles() -> Result<()> {
    let root = project_root();
    let reports = check(&root)?;
    let mut found = false;
    for report in &reports {
        print!("{}", report.graph_text());
        print!("{}", report.circles_text(&root));
        found |= !report.circles.is_empty();
    }
    if found {
        bail!("modules use one another in a circle (above)");
    }
    let unread: Vec<&String> = reports.iter().flat_map(|r| &r.unread).collect();
    if !unread.is_empty() {
        bail!(
            "source files the scan does not read, so no circle through them could be seen: {unread:?}"
        );
    }
    Ok(())
}

/// Every crate of [`CRATES`] scanned under the project root `root`.
fn check(root: &Path) -> Result<Vec<Report>> {
    CRATES
        .iter()
        .map(|&(package, file)| {
            let root_file = root.join(file);
            let scan = scan::scan_crate(&root_file)?;
            let src = root_file.parent().unwrap_or(root);
            // The other targets' roots beside the library's (a binary's `main.rs`, the build script) are crates of
            // their own, and files declared for tests only are left out as tests are.
            let other_root = |source: &Path| {
                source.parent() == Some(src)
                    && matches!(
                        source.file_name().and_then(|n| n.to_str()),
                        Some("main.rs" | "build.rs")
                    )
            };
            let unread = crate::families::files(src, &["rs"])?
                .into_iter()
                .filter(|source| {
                    !scan.read.contains(source)
                        && !scan.for_tests.contains(source)
                        && !other_root(source)
                })
                .map(|source| {
                    source
                        .strip_prefix(root)
                        .unwrap_or(&source)
                        .display()
                        .to_string()
                })
                .collect();
            Ok(Report::of(package, scan, unread))
        })
        .collect()
}

/// The graph without where each use is.
fn edges(graph: &Graph) -> BTreeMap<String, BTreeSet<String>> {
    graph
        .iter()
        .map(|(from, to)| (from.clone(), to.keys().cloned().collect()))
        .collect()
}

impl Report {
    /// The graph and circles of what the scanner read of `package`.
    fn of(package: &'static str, scan: scan::CrateUses, unread: Vec<String>) -> Self {
        let mut graph = Graph::new();
        for u in scan.uses {
            graph
                .entry(u.from.clone())
                .or_default()
                .entry(u.to.clone())
                .or_insert(u);
        }
        let circles = circles(&edges(&graph));
        Self {
            package,
            files: scan.files,
            unread,
            modules: scan.modules,
            reexports: scan.reexports.len(),
            unresolved: scan.unresolved,
            graph,
            circles,
        }
    }

    /// `desk-core: 40 files, 30 top-level modules (5 names re-exported at the root), 120 edges between them`, then
    /// each module's line `  m → a, b`, and the names after `crate::` that lead to no module.
    fn graph_text(&self) -> String {
        let mut text = format!(
            "{}: {} files, {} top-level modules ({} names re-exported at the root), {} edges between them\n",
            self.package,
            self.files,
            self.modules.len(),
            self.reexports,
            self.graph.values().map(BTreeMap::len).sum::<usize>()
        );
        for (from, to) in &self.graph {
            let targets: Vec<&str> = to.keys().map(String::as_str).collect();
            let _ = writeln!(text, "  {from} → {}", targets.join(", "));
        }
        if !self.unresolved.is_empty() {
            let names: Vec<&str> = self.unresolved.iter().map(String::as_str).collect();
            let _ = writeln!(text, "  (of no module: crate::{})", names.join(", crate::"));
        }
        text
    }

    /// `no circle`, or each circle: its modules, and each edge between them with the file and line of one use.
    fn circles_text(&self, root: &Path) -> String {
        if self.circles.is_empty() {
            return format!("{}: no circle\n", self.package);
        }
        let mut text = String::new();
        for circle in &self.circles {
            let _ = writeln!(
                text,
                "{}: circle between {}",
                self.package,
                circle.join(", ")
            );
            for from in circle {
                for (to, u) in self.graph.get(from).into_iter().flatten() {
                    if circle.contains(to) {
                        let file = u.file.strip_prefix(root).unwrap_or(&u.file);
                        let _ = writeln!(text, "  {from} → {to}  ({}:{})", file.display(), u.line);
                    }
                }
            }
        }
        text
    }
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

    fn edge_map(pairs: &[(&str, &str)]) -> BTreeMap<String, BTreeSet<String>> {
        let mut map: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, to) in pairs {
            map.entry((*from).to_owned())
                .or_default()
                .insert((*to).to_owned());
        }
        map
    }

    #[test]
    fn a_circle_is_found_and_a_chain_is_none() {
        let with = edge_map(&[("a", "b"), ("b", "a"), ("b", "d"), ("c", "d")]);
        assert_eq!(circles(&with), vec![vec!["a".to_owned(), "b".to_owned()]]);
        let without = edge_map(&[("a", "b"), ("b", "d"), ("c", "d")]);
        assert!(circles(&without).is_empty());
        let longer = edge_map(&[("a", "b"), ("b", "c"), ("c", "a"), ("x", "y"), ("y", "x")]);
        assert_eq!(
            circles(&longer),
            vec![
                vec!["a".to_owned(), "b".to_owned(), "c".to_owned()],
                vec!["x".to_owned(), "y".to_owned()]
            ]
        );
    }

    #[test]
    fn a_circle_names_a_use_of_each_of_its_edges() {
        let (dir, scan) = scan::tests::scan_files(&[
            ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
            ("a.rs", "#[error(\"{}\", crate::b::text())]\nstruct E;\n"),
            ("b.rs", "/// [`crate::c::X`]\nuse super::a::E;\n"),
            ("c.rs", ""),
        ]);
        let report = Report::of("demo", scan, Vec::new());
        assert_eq!(
            report.circles_text(dir.path()),
            "demo: circle between a, b\n  a → b  (a.rs:1)\n  b → a  (b.rs:2)\n"
        );
        assert_eq!(
            report.graph_text(),
            "demo: 4 files, 3 top-level modules (0 names re-exported at the root), 2 edges between them\n  a → b\n  b → a\n"
        );
    }

    #[test]
    fn the_scan_reads_every_source_file_of_each_crate() {
        let unread: Vec<String> = check(&project_root())
            .unwrap()
            .into_iter()
            .flat_map(|r| r.unread)
            .collect();
        assert_eq!(
            unread,
            Vec::<String>::new(),
            "source files module-cycles does not read"
        );
    }

    /// The project's own crates: no circle. Fails CI (`cargo xtask test` runs `cargo test --workspace`) when one
    /// appears, naming a use of each edge of it.
    #[test]
    fn the_project_s_crates_have_no_module_circle() {
        let root = project_root();
        let reports = check(&root).unwrap();
        let text: String = reports
            .iter()
            .filter(|r| !r.circles.is_empty())
            .map(|r| r.circles_text(&root))
            .collect();
        assert!(
            text.is_empty(),
            "modules use one another in a circle:\n{text}"
        );
    }
}
