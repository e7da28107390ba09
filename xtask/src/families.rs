//! `cargo xtask families`: where the code above the chain crates names a chain family the app added (Tron, Solana).
//!
//! A chain family is a type (`desk_wallet::execute::rail::WalletRail`) and lives in the crates that speak chains:
//! gateway-client (its chains, addresses, transaction ids and wire), gateway-payload (its payload encoder),
//! desk-wallet (its keys, rail, verification rules and what the window shows of its call) and the Sandbox
//! (gateway-sim, desk-sandbox: its local chain). Above them (desk-core, the command line, the window's Rust side and
//! the window's TypeScript) no code names one, so adding a family changes nothing there. Tron and Solana stand for
//! any family that is added: Bitcoin and EVM are the gateway's own (its deposits and its home chain, BOB) and are
//! named wherever an onramp or an approval is.
//!
//! What counts as naming: in Rust, an identifier with `tron` or `solana` as one of its words (`ChainFamily::Solana`,
//! `SolanaCall`, `tron_node`), a string literal that is the slug (`"solana"`), and a string with the family's name in
//! it, attributes' included (`#[error("… which Solana no longer accepts …")]`: a sentence that lists or names the
//! families goes stale when one is added, as code does); in TypeScript and Svelte, the slug in quotes and the name in
//! what the window says (a string of the script, a line of a component's markup); the command line's `///` doc
//! comments, which clap prints as its help. Comments and other doc comments, the window's imports, an identifier of
//! its script (a chain's logo keyed `solana:`), byte strings (data: the Sandbox's fixed program key ends in the bytes
//! `-solana-pub!`, chosen by rule for any family of 32-byte keys, so a new family would not change it) and what is
//! compiled for tests only do not count (test files, `#[cfg(test)]` items, `*.test.ts`, the test data, the
//! generated bindings).

use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::{Result, anyhow, bail};
use proc_macro2::{Delimiter, TokenStream, TokenTree};

use crate::cycles::scan::{is_cfg_test, skip_item};
use crate::tasks::project_root;

/// The families added after Bitcoin and EVM, as their words and slugs.
const ADDED: [&str; 2] = ["tron", "solana"];

/// The Rust source folders above the chain crates.
const RUST_ABOVE: [&str; 3] = [
    "crates/desk-core/src",
    "crates/gateway-cli/src",
    "src-tauri",
];

/// The crate whose `///` doc comments are also its help (clap prints them for `--help`): they count there.
const HELP_DOCS: &str = "crates/gateway-cli/src";

/// The window's TypeScript and Svelte.
const UI_ABOVE: &str = "ui/src";

/// The files above the chain crates that still name a family, each with why; a new family changes these and no
/// other. The test fails when another file names one, and when one of these no longer does (so the list shrinks).
/// Empty: the last one, the window's checks as the person types (`ui/src/lib/swap/addresses.ts`), reads each
/// family's shapes from the generated `TYPING_SHAPES` now.
pub const STILL_NAMING: [(&str, &str); 0] = [];

/// One place a family is named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Naming {
    pub file: PathBuf,
    pub line: usize,
    pub what: String,
}

pub fn families() -> Result<()> {
    let found = above_the_chain_crates(&project_root())?;
    for n in &found {
        println!("{}:{}: {}", n.file.display(), n.line, n.what);
    }
    let files = files_of(&found);
    println!(
        "{} places in {} file(s) above the chain crates name a chain family the app added.",
        found.len(),
        files.len()
    );
    for (file, why) in STILL_NAMING {
        println!("  known: {file}: {why}");
    }
    let unknown: Vec<&str> = files
        .iter()
        .map(String::as_str)
        .filter(|f| !STILL_NAMING.iter().any(|(known, _)| known == f))
        .collect();
    if !unknown.is_empty() {
        bail!(
            "these files name a chain family and are not in families::STILL_NAMING: {}",
            unknown.join(", ")
        );
    }
    Ok(())
}

/// How many files outside each added family's own name it, over the whole workspace ([`whole_workspace`]). A test
/// holds the figures exact, so that a change that adds or removes such a file says so here. Issue 33 asks for at
/// most four. Each is the one file of its crate where one concern lists the families: gateway-client's `chains.rs`
/// (which also hands the added families to desk-wallet's rails through `with_added_families!`, so `execute/rail.rs`
/// names none), desk-wallet's `verify.rs`, gateway-sim's `local_chain.rs` (desk-sandbox starts and funds its nodes
/// through gateway-sim's `LocalChain` and names none), and for Solana, whose payload is not the gateway contract's
/// call, gateway-payload's `lib.rs` (`pub mod solana;`); docs/DESIGN.md says why they are not fewer.
pub const WORKSPACE_FILES: [(&str, usize); 2] = [("tron", 3), ("solana", 4)];

/// Issue 33's measure over the whole workspace: for each added family, the files outside its own (a file is its own
/// when a word of its path is the family's: `execute/solana.rs`, `solana_node.rs`, `tron-node.mjs`) that name it,
/// by crate. Adding a family is then its own files plus these.
pub fn whole_workspace() -> Result<()> {
    let found = everywhere(&project_root())?;
    for family in ADDED {
        let outside = outside_own(&found, family);
        let files = files_of(&outside);
        let recorded = WORKSPACE_FILES
            .iter()
            .find(|(f, _)| *f == family)
            .map_or(0, |(_, n)| *n);
        println!(
            "{family}: {} place(s) in {} file(s) outside its own files (recorded in WORKSPACE_FILES: {recorded})",
            outside.len(),
            files.len()
        );
        for file in &files {
            let places = outside
                .iter()
                .filter(|n| n.file.to_string_lossy() == file.as_str())
                .count();
            println!("  {file} ({places})");
        }
    }
    Ok(())
}

/// The namings of `family` in files that are not its own.
fn outside_own(found: &[Naming], family: &str) -> Vec<Naming> {
    found
        .iter()
        .filter(|n| names(&n.what, family) && !is_own(&n.file, family))
        .cloned()
        .collect()
}

/// Whether `file` is one of `family`'s own: a word of its path is the family's.
fn is_own(file: &Path, family: &str) -> bool {
    file.to_string_lossy()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w.eq_ignore_ascii_case(family))
}

/// Every naming of an added family in the workspace's code (every crate's `src`, the window's Rust side and its
/// TypeScript), test code left out as above.
pub fn everywhere(root: &Path) -> Result<Vec<Naming>> {
    let mut dirs: Vec<PathBuf> = vec![root.join("src-tauri")];
    for entry in std::fs::read_dir(root.join("crates"))? {
        let src = entry?.path().join("src");
        if src.is_dir() {
            dirs.push(src);
        }
    }
    scan(root, &dirs)
}

/// The files of `found`, once each, in order.
fn files_of(found: &[Naming]) -> Vec<String> {
    let mut files: Vec<String> = found
        .iter()
        .map(|n| n.file.to_string_lossy().into_owned())
        .collect();
    files.dedup();
    files
}

/// Every naming of an added family in the code above the chain crates.
pub fn above_the_chain_crates(root: &Path) -> Result<Vec<Naming>> {
    let dirs: Vec<PathBuf> = RUST_ABOVE.iter().map(|d| root.join(d)).collect();
    scan(root, &dirs)
}

/// The namings in the Rust under `dirs` and in the window's TypeScript and Svelte.
fn scan(root: &Path, dirs: &[PathBuf]) -> Result<Vec<Naming>> {
    let mut found = Vec::new();
    for dir in dirs {
        for file in files(dir, &["rs"])? {
            let source = std::fs::read_to_string(&file)?;
            let relative = file.strip_prefix(root).unwrap_or(&file).to_path_buf();
            let help_docs = relative.starts_with(HELP_DOCS);
            for (line, what) in in_rust(&source, help_docs)
                .map_err(|e| anyhow!("cannot tokenize {}: {e}", relative.display()))?
            {
                found.push(Naming {
                    file: relative.clone(),
                    line,
                    what,
                });
            }
        }
    }
    for file in files(&root.join(UI_ABOVE), &["ts", "svelte"])? {
        let relative = file.strip_prefix(root).unwrap_or(&file).to_path_buf();
        let name = relative.to_string_lossy();
        if name.contains("/bindings/")
            || name.ends_with(".test.ts")
            || name.ends_with("testdata.ts")
            || name.ends_with("fixtures.ts")
        {
            continue;
        }
        let source = std::fs::read_to_string(&file)?;
        for (line, what) in in_script(&source, name.ends_with(".svelte")) {
            found.push(Naming {
                file: relative.clone(),
                line,
                what,
            });
        }
    }
    found.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    Ok(found)
}

/// The source files under `dir` with one of `extensions`, test files and folders left out.
pub(crate) fn files(dir: &Path, extensions: &[&str]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if !matches!(name, "tests" | "node_modules" | "target" | "gen") {
                    stack.push(path);
                }
            } else if name != "tests.rs"
                && path
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| extensions.contains(&e))
            {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The words of an identifier: cut at `_` and where lower case turns to upper case, lower-cased.
fn words(ident: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    for c in ident.chars() {
        if c == '_' {
            words.push(std::mem::take(&mut word));
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower {
            words.push(std::mem::take(&mut word));
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        word.extend(c.to_lowercase());
    }
    words.push(word);
    words.retain(|w| !w.is_empty());
    words
}

/// The namings in one Rust file, by line, `#[cfg(test)]` items left out.
/// `help_docs`: the file's `///` doc comments are help a person reads (the command line's, which clap prints).
fn in_rust(source: &str, help_docs: bool) -> Result<Vec<(usize, String)>> {
    let tokens = TokenStream::from_str(source).map_err(|e| anyhow!("{e}"))?;
    let mut out = Vec::new();
    walk(tokens, true, help_docs, &mut out);
    Ok(out)
}

fn walk(stream: TokenStream, items: bool, help_docs: bool, out: &mut Vec<(usize, String)>) {
    let tokens: Vec<TokenTree> = stream.into_iter().collect();
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Punct(p) if p.as_char() == '#' => {
                let inner =
                    matches!(tokens.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!');
                let at = if inner { i + 2 } else { i + 1 };
                if let Some(TokenTree::Group(g)) = tokens.get(at)
                    && g.delimiter() == Delimiter::Bracket
                {
                    if is_cfg_test(&g.stream()) {
                        if inner {
                            return;
                        }
                        i = skip_item(&tokens, at + 1, items);
                        continue;
                    }
                    // A doc comment is an attribute too (`#[doc = "…"]`): prose for the reader of the code. Any other
                    // attribute is read: `#[serde(rename = "tron")]` names a family, and `#[error("…")]` is a
                    // sentence the person reads.
                    let is_doc = matches!(g.stream().into_iter().next(), Some(TokenTree::Ident(ident)) if ident == "doc");
                    if !is_doc || (help_docs && !inner) {
                        walk(g.stream(), false, help_docs, out);
                    }
                    i = at + 1;
                    continue;
                }
                i += 1;
            }
            TokenTree::Ident(ident) => {
                let ident = ident.to_string();
                if words(&ident).iter().any(|w| ADDED.contains(&w.as_str())) {
                    out.push((tokens[i].span().start().line, ident));
                }
                i += 1;
            }
            TokenTree::Literal(literal) => {
                let text = literal.to_string();
                let is_string = text.starts_with('"') || text.starts_with('r');
                if is_string
                    && (ADDED.iter().any(|slug| text == format!("\"{slug}\"")) || mentions(&text))
                {
                    out.push((tokens[i].span().start().line, text));
                }
                i += 1;
            }
            TokenTree::Group(g) => {
                walk(
                    g.stream(),
                    g.delimiter() == Delimiter::Brace,
                    help_docs,
                    out,
                );
                i += 1;
            }
            TokenTree::Punct(_) => i += 1,
        }
    }
}

/// Whether `text` (a string's, or a line of the window's) has an added family's name as a word, in any case: a
/// sentence that lists the families (`an EVM chain, Solana or Tron`) goes stale when one is added, as code does.
fn mentions(text: &str) -> bool {
    ADDED.iter().any(|family| names(text, family))
}

/// Whether `text` has `family`'s name as a word, in any case (an escape such as `\n` before it is not a letter of
/// the word before).
fn names(text: &str, family: &str) -> bool {
    let text = text
        .replace("\\n", " ")
        .replace("\\t", " ")
        .replace("\\r", " ")
        .to_lowercase();
    text.match_indices(family).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + family.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric())
            && !after.is_some_and(|c| c.is_ascii_alphanumeric())
    })
}

/// The quoted parts of a line of script (`"…"`, `'…'`, `` `…` ``): what it says, not what it names.
fn quoted(line: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut open: Option<(char, usize)> = None;
    let mut escaped = false;
    for (at, c) in line.char_indices() {
        match open {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some((quote, start)) if c == quote => {
                parts.push(&line[start..at]);
                open = None;
            }
            Some(_) => {}
            None if matches!(c, '"' | '\'' | '`') => open = Some((c, at + c.len_utf8())),
            None => {}
        }
    }
    parts
}

/// The namings in one TypeScript or Svelte file: the slug in quotes (`"solana"`, `'tron'`, `` `tron` ``), and a
/// family's name in what the window says (a string of its script, a line of a component's markup: `Tron or
/// Solana`); comment lines and imports left out. A name that is only an identifier of the script (a chain's logo
/// keyed `solana:`) is the chain's, not the family's.
fn in_script(source: &str, svelte: bool) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_script = !svelte;
    for (n, line) in source.lines().enumerate() {
        let code = line.trim_start();
        if svelte && code.starts_with("<script") {
            in_script = true;
        }
        if svelte && line.contains("</script>") {
            // A one-line script, or its closing tag: what follows the tag is markup again.
            in_script = false;
            if let Some((_, after)) = line.rsplit_once("</script>")
                && mentions(after)
            {
                out.push((n + 1, code.to_owned()));
            }
            continue;
        }
        if code.starts_with("//")
            || code.starts_with('*')
            || code.starts_with("/*")
            || code.starts_with("<!--")
            || code.starts_with("import ")
        {
            continue;
        }
        let mut slug_found = false;
        for slug in ADDED {
            for quote in ['"', '\'', '`'] {
                if line.contains(&format!("{quote}{slug}{quote}")) {
                    out.push((n + 1, format!("{quote}{slug}{quote}")));
                    slug_found = true;
                }
            }
        }
        let says = if in_script {
            quoted(line).into_iter().any(mentions)
        } else {
            mentions(line)
        };
        if !slug_found && says {
            out.push((n + 1, code.to_owned()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_read_as_words() {
        assert_eq!(words("ChainFamily"), ["chain", "family"]);
        assert_eq!(words("SolanaCall"), ["solana", "call"]);
        assert_eq!(words("funded_tron"), ["funded", "tron"]);
        assert_eq!(words("electronic"), ["electronic"]);
        assert_eq!(words("EVM"), ["evm"]);
    }

    #[test]
    fn code_counts_and_comments_docs_and_tests_do_not() {
        let source = r#"
            //! Solana and Tron are prose here.
            /// A "solana" slug in a doc comment.
            fn a(family: ChainFamily) -> bool {
                // "tron" in a comment
                family == ChainFamily::Solana
            }
            const SLUG: &str = "tron";
            const PROSE: &str = "Sign on Solana";
            const ELSE: &str = "electronics";
            #[derive(thiserror::Error)]
            enum E {
                /// Tron's, in a doc comment.
                #[error("which Solana no longer accepts")]
                Expired,
            }
            #[cfg(test)]
            mod tests {
                fn t() { let _ = ChainFamily::Tron; let _ = "solana"; }
            }
        "#;
        let found = in_rust(source, false).unwrap();
        assert_eq!(
            found.iter().map(|(_, w)| w.as_str()).collect::<Vec<_>>(),
            [
                "Solana",
                "\"tron\"",
                "\"Sign on Solana\"",
                "\"which Solana no longer accepts\""
            ]
        );
        assert_eq!(found[0].0, 6);
    }

    #[test]
    fn scripts_count_the_quoted_slug_outside_comments() {
        let source = "// \"solana\" in a comment\nif (kind === \"solana\") x();\n  * 'tron' in a doc\nconst t = 'tron';\n";
        assert_eq!(
            in_script(source, false),
            [(2, "\"solana\"".to_owned()), (4, "'tron'".to_owned())]
        );
    }

    #[test]
    fn the_command_line_s_help_counts_and_bytes_do_not() {
        let source = r#"
            //! The command line: Solana in its module doc.
            #[derive(clap::Args)]
            struct Balance {
                /// An EVM chain, solana or tron
                chain: String,
            }
            const TAIL: &[u8] = b"-solana-pub!";
            const SAID: &str = "line one\nSolana";
        "#;
        let found = in_rust(source, true).unwrap();
        assert_eq!(
            found.iter().map(|(_, w)| w.as_str()).collect::<Vec<_>>(),
            ["\" An EVM chain, solana or tron\"", "\"line one\\nSolana\""]
        );
        assert!(
            in_rust(source, false)
                .unwrap()
                .iter()
                .all(|(_, w)| w.contains("line one"))
        );
        // Which family a place names is read by word: "electronic" is not Tron's.
        assert!(names("\"Solana, <strong>electronic</strong>\"", "solana"));
        assert!(!names("\"Solana, <strong>electronic</strong>\"", "tron"));
    }

    #[test]
    fn what_the_window_says_counts_and_an_identifier_of_its_script_does_not() {
        let script = "import net_tron from \"./tron.svg.js\";\nconst logos = { tron: net_tron };\nconst m = `Enter (EVM, Tron or Solana)`;\n";
        assert_eq!(
            in_script(script, false),
            [(3, "const m = `Enter (EVM, Tron or Solana)`;".to_owned())]
        );
        let component = "<script lang=\"ts\">\n  const solana = 1;\n</script>\n<!-- Solana in a comment -->\n<p>Solana sources need it.</p>\n<p>electronic</p>\n";
        assert_eq!(
            in_script(component, true),
            [(5, "<p>Solana sources need it.</p>".to_owned())]
        );
        let one_line = "<script>const tron = 1;</script>\n<p>Pay on Tron.</p>\n";
        assert_eq!(
            in_script(one_line, true),
            [(2, "<p>Pay on Tron.</p>".to_owned())]
        );
        assert!(mentions("\"the Tron chain\""));
        assert!(!mentions("\"electronics\""));
    }

    #[test]
    fn a_family_s_own_files_are_those_with_its_word_in_their_path() {
        assert!(is_own(
            Path::new("crates/desk-wallet/src/execute/solana.rs"),
            "solana"
        ));
        assert!(is_own(
            Path::new("crates/gateway-sim/src/tron_node.rs"),
            "tron"
        ));
        assert!(!is_own(
            Path::new("crates/gateway-sim/src/electronics.rs"),
            "tron"
        ));
        assert!(!is_own(
            Path::new("crates/desk-wallet/src/verify.rs"),
            "solana"
        ));
    }

    #[test]
    fn the_whole_workspace_count_is_the_recorded_one() {
        let found = everywhere(&project_root()).unwrap();
        for (family, recorded) in WORKSPACE_FILES {
            let files = files_of(&outside_own(&found, family));
            assert_eq!(
                files.len(),
                recorded,
                "{family}: the files outside its own that name it changed; set families::WORKSPACE_FILES to the \
                 new figure (`cargo xtask families --all`):\n{}",
                files.join("\n")
            );
        }
    }

    #[test]
    fn above_the_chain_crates_only_the_known_files_name_a_chain_family() {
        let found = above_the_chain_crates(&project_root()).unwrap();
        let lines: Vec<String> = found
            .iter()
            .map(|n| format!("{}:{}: {}", n.file.display(), n.line, n.what))
            .collect();
        let known: Vec<String> = STILL_NAMING.iter().map(|(f, _)| (*f).to_owned()).collect();
        assert_eq!(
            files_of(&found),
            known,
            "the files above the chain crates that name a chain family are not families::STILL_NAMING (a new \
             family would have to change each of them; a file that no longer names one leaves the list):\n{}",
            lines.join("\n")
        );
    }
}
