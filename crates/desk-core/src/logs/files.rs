//! Reading the log files back: the lines that mention an order or a hash, for support bundles.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use super::*;

/// Longest line [`read_matching_lines`] returns whole; longer ones are cut (at a character boundary) and marked `…`.
pub const MAX_LINE_LEN: usize = 16 * 1024;

/// The last `limit` lines of the log files in `log_dir` that contain `needle` (an order id, a hash), oldest first,
/// without their line ends and with API keys redacted. Files are read oldest first (their names sort by date);
/// unreadable files are skipped. An empty `needle` matches nothing.
pub fn read_matching_lines(log_dir: &Path, needle: &str, limit: usize) -> Vec<String> {
    if needle.is_empty() || limit == 0 {
        return Vec::new();
    }
    let Ok(entries) = std::fs::read_dir(log_dir) else {
        return Vec::new();
    };
    let prefix = format!("{FILE_PREFIX}.");
    let suffix = format!(".{FILE_SUFFIX}");
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.starts_with(&prefix) && n.ends_with(&suffix))
        })
        .map(|e| e.path())
        .collect();
    files.sort();

    let mut found = VecDeque::with_capacity(limit.min(1024));
    let needle = needle.as_bytes();
    for path in files {
        let Ok(file) = File::open(&path) else {
            continue;
        };
        let mut reader = BufReader::new(file);
        let mut line = Vec::new();
        loop {
            line.clear();
            match reader.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if !line.windows(needle.len()).any(|w| w == needle) {
                continue;
            }
            if found.len() == limit {
                found.pop_front();
            }
            found.push_back(clip(&String::from_utf8_lossy(&line)));
        }
    }
    found
        .into_iter()
        .map(|line| redact(&line, &RedactOptions::KEYS_ONLY))
        .collect()
}

pub(crate) fn clip(line: &str) -> String {
    let line = line.trim_end_matches(['\n', '\r']);
    if line.len() <= MAX_LINE_LEN {
        return line.to_owned();
    }
    let mut end = MAX_LINE_LEN;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &line[..end])
}
