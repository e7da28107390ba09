//! Issue 33, item 4: no source file over 1,000 lines before its tests. A test of the normal suite holds it: it reads
//! every Rust file of the workspace's code (each crate's `src`, the window's Rust side, this crate) and counts the
//! lines before the first `#[cfg(test)]`. Test files and folders (`tests.rs`, `tests/`) are tests themselves and are
//! not counted.

use std::path::{Path, PathBuf};

/// The most lines a source file may have before its tests.
pub const MOST_LINES: usize = 1_000;

/// The lines of `source` before its first `#[cfg(test)]` (all of them when it has none).
pub fn lines_before_tests(source: &str) -> usize {
    source
        .lines()
        .take_while(|line| line.trim() != "#[cfg(test)]")
        .count()
}

/// The workspace's Rust source files, test files and folders left out (the walk [`crate::families`] reads).
fn source_files(root: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut dirs = vec![root.join("src-tauri"), root.join("xtask/src")];
    for entry in std::fs::read_dir(root.join("crates"))? {
        let src = entry?.path().join("src");
        if src.is_dir() {
            dirs.push(src);
        }
    }
    let mut files = Vec::new();
    for dir in dirs {
        files.extend(crate::families::files(&dir, &["rs"])?);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::project_root;

    #[test]
    fn lines_are_counted_up_to_the_tests() {
        assert_eq!(lines_before_tests("a\nb\n#[cfg(test)]\nmod tests {}\n"), 2);
        assert_eq!(lines_before_tests("a\nb\nc\n"), 3);
        assert_eq!(lines_before_tests("    #[cfg(test)]\n"), 0);
    }

    #[test]
    fn no_source_file_is_over_a_thousand_lines_before_its_tests() {
        let root = project_root();
        let files = source_files(&root).unwrap();
        assert!(files.len() > 100, "the walk found {} files", files.len());
        let over: Vec<String> = files
            .iter()
            .filter_map(|file| {
                let lines = lines_before_tests(&std::fs::read_to_string(file).unwrap());
                (lines > MOST_LINES)
                    .then(|| format!("{} ({lines})", file.strip_prefix(&root).unwrap().display()))
            })
            .collect();
        assert!(
            over.is_empty(),
            "over {MOST_LINES} lines before their tests: {}",
            over.join(", ")
        );
    }
}
