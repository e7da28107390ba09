//! Every relative link in the README and the documents under `docs/` (and the crates' READMEs) points at a file that
//! exists, and a link into a Markdown file's heading (`USAGE.md#your-wallet`, `#measured`) at a heading it has. Moving
//! a section from one document to another cannot leave a link behind.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the repository")
        .to_path_buf()
}

/// The documents whose links are checked.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.join("README.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir)
            .expect("docs/ is readable")
            .flatten()
        {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    for entry in std::fs::read_dir(root.join("crates"))
        .expect("crates/")
        .flatten()
    {
        let readme = entry.path().join("README.md");
        if readme.exists() {
            out.push(readme);
        }
    }
    out.sort();
    out
}

/// The targets of `[text](target)` links and images outside code spans and fences.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Code spans are left out: `a](b)` in backticks is not a link.
        let mut outside = String::new();
        for (i, piece) in line.split('`').enumerate() {
            if i % 2 == 0 {
                outside.push_str(piece);
            }
            outside.push(' ');
        }
        let mut rest = outside.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            let target = after[..end].trim();
            if !target.is_empty() && !target.contains(' ') {
                out.push(target.to_owned());
            }
            rest = &after[end..];
        }
    }
    out
}

/// GitHub's anchor of a heading: lower case, only letters, digits, spaces, `-` and `_`, spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim_start_matches('#')
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    let mut fenced = false;
    text.lines()
        .filter(|line| {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced && line.starts_with('#')
        })
        .map(slug)
        .collect()
}

#[test]
fn every_relative_link_in_the_readme_and_docs_points_at_what_exists() {
    let root = root();
    let mut broken = Vec::new();
    let mut checked = 0;
    for document in documents(&root) {
        let text = std::fs::read_to_string(&document).unwrap();
        let here = document.parent().unwrap();
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, fragment) = target.split_once('#').unwrap_or((target.as_str(), ""));
            let file = if path.is_empty() {
                document.clone()
            } else {
                here.join(path)
            };
            let shown = document.strip_prefix(&root).unwrap().display().to_string();
            if !file.exists() {
                broken.push(format!("{shown}: {target} (no such file)"));
                continue;
            }
            if !fragment.is_empty() && file.extension().is_some_and(|e| e == "md") {
                let headings = anchors(&std::fs::read_to_string(&file).unwrap());
                if !headings.contains(fragment) {
                    broken.push(format!("{shown}: {target} (no such heading)"));
                }
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} links found: is the link reader broken?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_reader_finds_links_and_skips_code() {
    let text =
        "see [a](docs/A.md#x) and ![p](p.png), not `[b](B.md)`\n```\n[c](C.md)\n```\n[d](#here)";
    assert_eq!(links(text), ["docs/A.md#x", "p.png", "#here"]);
    assert_eq!(
        slug("## The `gateway` command line (support staff, scripts)"),
        "the-gateway-command-line-support-staff-scripts"
    );
    assert_eq!(
        slug("## The Sandbox's local chains"),
        "the-sandboxs-local-chains"
    );
}

#[test]
fn the_readme_is_a_front_door() {
    let lines = std::fs::read_to_string(root().join("README.md"))
        .unwrap()
        .lines()
        .count();
    assert!(
        lines <= 200,
        "README.md has {lines} lines; the rest belongs in docs/"
    );
}
