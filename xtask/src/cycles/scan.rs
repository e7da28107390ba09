//! Which top-level module of a crate uses which, read from the tokens of its source files.
//!
//! Each file is tokenized with `proc_macro2` as the compiler's lexer does: comments vanish, and doc comments become
//! `#[doc = "…"]` string literals, so a doc link is no use. Every other token is seen, those inside attributes too
//! (`#[error("{}", crate::api::RouteKind::described(..))]`). A use is a path that names another top-level module:
//! `crate::m::…`, each member of `crate::{m, n::…}`, `super::`… climbing from the module where it is written to the
//! crate root and on to `m`, and `crate::Item` where the crate root re-exports `Item` from `m` (`pub use m::Item`).
//! What is compiled for tests only (`#[cfg(test)]` items and the files they declare) is left out: tests may reach
//! anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::{Context, Result, anyhow};
use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// One use of another top-level module: from where, of what, and where it is written.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Use {
    /// The top-level module it is written in.
    pub from: String,
    /// The top-level module it names.
    pub to: String,
    /// The file it is written in.
    pub file: PathBuf,
    /// Its line (1-based).
    pub line: usize,
}

/// What the scanner read of a crate.
#[derive(Debug, Default)]
pub struct CrateUses {
    /// Its top-level modules.
    pub modules: BTreeSet<String>,
    /// The names the crate root re-exports, each with the top-level module it comes from.
    pub reexports: BTreeMap<String, String>,
    /// Every use of one top-level module by another, in file order.
    pub uses: Vec<Use>,
    /// The names after `crate::` (or a climb to the root) that are neither a module nor re-exported from one: the
    /// root's own items and macros, or another crate re-exported whole.
    pub unresolved: BTreeSet<String>,
    /// How many files were read.
    pub files: usize,
    /// The files read, sorted.
    pub read: Vec<PathBuf>,
    /// The files declared for tests only (`#[cfg(test)] mod x;`), not read.
    pub for_tests: BTreeSet<PathBuf>,
}

/// A path to the crate root's items as written in a module: `first` is the segment right after the root.
#[derive(Debug)]
struct RootPath {
    from: String,
    first: String,
    file: PathBuf,
    line: usize,
}

/// Where the walk is: the file, the module path (file modules and inline `mod x { … }` ones) and the directory that
/// holds the files of the modules declared here.
#[derive(Debug, Clone)]
struct At {
    file: PathBuf,
    module: Vec<String>,
    dir: PathBuf,
}

#[derive(Debug, Default)]
struct Walk {
    modules: BTreeSet<String>,
    reexports: BTreeMap<String, String>,
    paths: Vec<RootPath>,
    /// Files declared by `mod x;`, still to read.
    pending: Vec<At>,
    /// Every file declared so far, read or still to read: a macro's modules are the undeclared ones.
    declared: BTreeSet<PathBuf>,
    /// The files declared for tests only (`#[cfg(test)] mod x;`), left unread.
    for_tests: BTreeSet<PathBuf>,
}

/// The module an item declares as a file, `[#[…]]* [pub[(…)]] mod name;`, if that is what `tokens` start with.
fn declared_file_module(tokens: &[TokenTree]) -> Option<String> {
    let mut i = 0;
    while is_punct(tokens.get(i), '#') {
        i += 2;
    }
    if ident(tokens.get(i)).as_deref() == Some("pub") {
        i += 1;
        if matches!(tokens.get(i), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis)
        {
            i += 1;
        }
    }
    if ident(tokens.get(i)).as_deref() != Some("mod") || !is_punct(tokens.get(i + 2), ';') {
        return None;
    }
    ident(tokens.get(i + 1))
}

/// The file of a module `name` declared in `dir`'s module: `dir/name.rs`, else `dir/name/mod.rs`.
fn module_file(dir: &Path, name: &str) -> PathBuf {
    let flat = dir.join(format!("{name}.rs"));
    if flat.exists() {
        flat
    } else {
        dir.join(name).join("mod.rs")
    }
}

/// Reads the crate whose root file is `root` (`src/lib.rs`) and every file its modules declare.
pub fn scan_crate(root: &Path) -> Result<CrateUses> {
    let dir = root
        .parent()
        .ok_or_else(|| anyhow!("{} has no directory", root.display()))?
        .to_owned();
    let mut walk = Walk::default();
    walk.declared.insert(root.to_owned());
    walk.pending.push(At {
        file: root.to_owned(),
        module: Vec::new(),
        dir,
    });
    let mut read = Vec::new();
    while let Some(at) = walk.pending.pop() {
        let source = std::fs::read_to_string(&at.file)
            .with_context(|| format!("cannot read {}", at.file.display()))?;
        walk.source(&source, &at)?;
        read.push(at.file);
    }
    read.sort();
    let files = read.len();
    let (mut uses, unresolved) = walk.resolve();
    uses.sort();
    Ok(CrateUses {
        modules: walk.modules,
        reexports: walk.reexports,
        uses,
        unresolved,
        files,
        read,
        for_tests: walk.for_tests,
    })
}

/// Reads one crate root file's source alone (its inline modules are its modules): for the tests.
#[cfg(test)]
pub fn scan_source(source: &str) -> Result<CrateUses> {
    let mut walk = Walk::default();
    let at = At {
        file: PathBuf::from("lib.rs"),
        module: Vec::new(),
        dir: PathBuf::from("."),
    };
    walk.source(source, &at)?;
    let (uses, unresolved) = walk.resolve();
    Ok(CrateUses {
        modules: walk.modules,
        reexports: walk.reexports,
        uses,
        unresolved,
        files: 1,
        read: vec![PathBuf::from("lib.rs")],
        for_tests: walk.for_tests,
    })
}

/// `a` then `b` are `::`.
fn is_path_sep(a: Option<&TokenTree>, b: Option<&TokenTree>) -> bool {
    matches!((a, b), (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) if a.as_char() == ':' && b.as_char() == ':')
}

fn ident(token: Option<&TokenTree>) -> Option<String> {
    match token {
        Some(TokenTree::Ident(i)) => Some(i.to_string()),
        _ => None,
    }
}

/// The line a token starts on (1-based).
fn line_of(token: &TokenTree) -> usize {
    token.span().start().line
}

fn is_punct(token: Option<&TokenTree>, c: char) -> bool {
    matches!(token, Some(TokenTree::Punct(p)) if p.as_char() == c)
}

/// `cfg(test)`, the content of an attribute that keeps an item out of every build but the tests'.
pub(crate) fn is_cfg_test(attribute: &TokenStream) -> bool {
    let tokens: Vec<TokenTree> = attribute.clone().into_iter().collect();
    match tokens.as_slice() {
        [TokenTree::Ident(cfg), TokenTree::Group(args)] if cfg == "cfg" => {
            let args: Vec<TokenTree> = args.stream().into_iter().collect();
            matches!(args.as_slice(), [TokenTree::Ident(test)] if test == "test")
        }
        _ => false,
    }
}

/// A group's tokens cut at its top-level commas.
fn comma_separated(stream: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut parts = vec![Vec::new()];
    for token in stream {
        if is_punct(Some(&token), ',') {
            parts.push(Vec::new());
        } else if let Some(last) = parts.last_mut() {
            last.push(token);
        }
    }
    parts.retain(|p| !p.is_empty());
    parts
}

impl Walk {
    fn source(&mut self, source: &str, at: &At) -> Result<()> {
        let tokens = TokenStream::from_str(source)
            .map_err(|e| anyhow!("cannot tokenize {}: {e}", at.file.display()))?;
        self.tokens(tokens, at, true);
        Ok(())
    }

    /// Walks one level of tokens; `items` when the level holds items (a file or an inline module's body), where
    /// `mod x;` declares a file and, at the crate root, `use` may re-export.
    fn tokens(&mut self, stream: TokenStream, at: &At, items: bool) {
        let tokens: Vec<TokenTree> = stream.into_iter().collect();
        let mut i = 0;
        while i < tokens.len() {
            // Attributes: `#[…]` and `#![…]`. `cfg(test)` leaves out the item (or, inner, the whole module).
            if is_punct(tokens.get(i), '#') {
                let inner = is_punct(tokens.get(i + 1), '!');
                let at_group = if inner { i + 2 } else { i + 1 };
                if let Some(TokenTree::Group(group)) = tokens.get(at_group)
                    && group.delimiter() == Delimiter::Bracket
                {
                    if is_cfg_test(&group.stream()) {
                        if inner {
                            return;
                        }
                        if let Some(name) = declared_file_module(&tokens[at_group + 1..]) {
                            self.for_tests.insert(module_file(&at.dir, &name));
                        }
                        i = skip_item(&tokens, at_group + 1, items);
                        continue;
                    }
                    self.tokens(group.stream(), at, false);
                    i = at_group + 1;
                    continue;
                }
            }
            let word = ident(tokens.get(i));
            match word.as_deref() {
                // `mod $name;` in a macro's body (desk-wallet's rails, declared from gateway-client's list of the
                // added families): the macro declares modules by the names it is handed, which the tokens do not
                // say, so every module file of the directory not declared by name is read as one of them.
                Some("mod")
                    if is_punct(tokens.get(i + 1), '$')
                        && ident(tokens.get(i + 2)).is_some()
                        && is_punct(tokens.get(i + 3), ';') =>
                {
                    self.declare_from_disk(at);
                    i += 4;
                    continue;
                }
                Some("mod") if items => {
                    if let Some(name) = ident(tokens.get(i + 1)) {
                        match tokens.get(i + 2) {
                            Some(TokenTree::Punct(p)) if p.as_char() == ';' => {
                                self.declare(at, &name, false);
                                i += 3;
                                continue;
                            }
                            Some(TokenTree::Group(body))
                                if body.delimiter() == Delimiter::Brace =>
                            {
                                let inner = self.declare(at, &name, true);
                                self.tokens(body.stream(), &inner, true);
                                i += 3;
                                continue;
                            }
                            _ => {}
                        }
                    }
                }
                Some("use") if items && at.module.is_empty() => {
                    let end = (i + 1..tokens.len())
                        .find(|&j| is_punct(tokens.get(j), ';'))
                        .unwrap_or(tokens.len());
                    self.reexport(&tokens[i + 1..end]);
                }
                Some("crate") if is_path_sep(tokens.get(i + 1), tokens.get(i + 2)) => {
                    i = self.root_path(&tokens, i + 3, at, 0, line_of(&tokens[i]));
                    continue;
                }
                Some("super") if is_path_sep(tokens.get(i + 1), tokens.get(i + 2)) => {
                    let mut climbs = 1;
                    let mut j = i + 3;
                    while ident(tokens.get(j)).as_deref() == Some("super")
                        && is_path_sep(tokens.get(j + 1), tokens.get(j + 2))
                    {
                        climbs += 1;
                        j += 3;
                    }
                    i = self.root_path(&tokens, j, at, climbs, line_of(&tokens[i]));
                    continue;
                }
                _ => {}
            }
            if let Some(TokenTree::Group(group)) = tokens.get(i) {
                self.tokens(group.stream(), at, false);
            }
            i += 1;
        }
    }

    /// The modules a macro declares where the walk is (`mod $name;`): each module file of its directory (`x.rs`,
    /// `x/mod.rs`) that no `mod x;` declared, tests' files (`tests.rs`) left out.
    fn declare_from_disk(&mut self, at: &At) {
        let Ok(entries) = std::fs::read_dir(&at.dir) else {
            return;
        };
        let mut names: Vec<String> = entries
            .filter_map(|entry| {
                let path = entry.ok()?.path();
                if path.is_dir() {
                    path.join("mod.rs").exists().then(|| path.file_name())?
                } else {
                    (path.extension()? == "rs").then(|| path.file_stem())?
                }
                .map(|name| name.to_string_lossy().into_owned())
            })
            // a crate's root and a directory module's own file are not modules of theirs; tests' files are
            // compiled for tests only
            .filter(|name| !matches!(name.as_str(), "tests" | "lib" | "main" | "mod"))
            .collect();
        names.sort();
        for name in names {
            let file = module_file(&at.dir, &name);
            if !self.declared.contains(&file) {
                self.declare(at, &name, false);
            }
        }
    }

    /// A module `name` declared where the walk is: a file to read (`mod x;`), or an inline body. Gives where the
    /// inline body is.
    fn declare(&mut self, at: &At, name: &str, inline: bool) -> At {
        if at.module.is_empty() {
            self.modules.insert(name.to_owned());
        }
        let mut module = at.module.clone();
        module.push(name.to_owned());
        let dir = at.dir.join(name);
        let file = module_file(&at.dir, name);
        // a file already declared (by name, or before by a macro) is read once
        if !inline && self.declared.insert(file.clone()) {
            self.pending.push(At {
                file,
                module: module.clone(),
                dir: dir.clone(),
            });
        }
        At {
            file: at.file.clone(),
            module,
            dir,
        }
    }

    /// A path from the crate root (`crate::` or `super::` climbed `climbs` times) whose next token is at `start`:
    /// records its first segment (each member's, for a `{…}` group) when it leaves the module's top-level module.
    /// Gives where to go on.
    fn root_path(
        &mut self,
        tokens: &[TokenTree],
        start: usize,
        at: &At,
        climbs: usize,
        line: usize,
    ) -> usize {
        let Some(from) = at.module.first() else {
            return start; // written at the crate root: not a module's use
        };
        if climbs > 0 && climbs != at.module.len() {
            return start; // climbs within its own top-level module (or past the root: not a path)
        }
        match tokens.get(start) {
            Some(TokenTree::Ident(first)) => {
                self.paths.push(RootPath {
                    from: from.clone(),
                    first: first.to_string(),
                    file: at.file.clone(),
                    line,
                });
                start + 1
            }
            Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Brace => {
                for member in comma_separated(group.stream()) {
                    if let Some(TokenTree::Ident(first)) = member.first() {
                        self.paths.push(RootPath {
                            from: from.clone(),
                            first: first.to_string(),
                            file: at.file.clone(),
                            line: line_of(&member[0]),
                        });
                    }
                }
                start + 1
            }
            _ => start,
        }
    }

    /// A `use` at the crate root (the tokens between `use` and `;`): each name it brings in from one of the crate's
    /// own modules.
    fn reexport(&mut self, tree: &[TokenTree]) {
        let mut leaves = Vec::new();
        use_leaves(tree, None, &mut leaves);
        for (module, name) in leaves {
            self.reexports.insert(name, module);
        }
    }

    /// The uses of other top-level modules: each root path's first segment as a module, or as a name the root
    /// re-exports from a module; and the names that are neither (the root's own items and macros, another crate).
    fn resolve(&self) -> (Vec<Use>, BTreeSet<String>) {
        let mut uses = Vec::new();
        let mut unresolved = BTreeSet::new();
        for p in &self.paths {
            let to = if self.modules.contains(&p.first) {
                Some(&p.first)
            } else {
                self.reexports
                    .get(&p.first)
                    .filter(|m| self.modules.contains(*m))
            };
            match to {
                Some(to) if *to != p.from => uses.push(Use {
                    from: p.from.clone(),
                    to: to.clone(),
                    file: p.file.clone(),
                    line: p.line,
                }),
                Some(_) => {}
                None => {
                    unresolved.insert(p.first.clone());
                }
            }
        }
        (uses, unresolved)
    }
}

/// The end of the item that starts at `start`: after its `;` or `{…}` body; where the level holds no items (a field,
/// a statement, a match arm), after its `,` too.
pub(crate) fn skip_item(tokens: &[TokenTree], start: usize, items: bool) -> usize {
    let mut i = start;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Punct(p) if p.as_char() == ';' || (!items && p.as_char() == ',') => {
                return i + 1;
            }
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => {
                return i + 1;
            }
            _ => i += 1,
        }
    }
    i
}

/// The names a use tree brings in, each with the first segment of its path (`crate::` and `self::` skipped):
/// `m::{A, b::C as D}` gives (m, A) and (m, D).
fn use_leaves(tree: &[TokenTree], first: Option<&str>, out: &mut Vec<(String, String)>) {
    if first.is_none() && is_punct(tree.first(), ':') {
        return; // `::name`: another crate
    }
    let mut first = first.map(str::to_owned);
    let mut last: Option<String> = None;
    let mut i = 0;
    while i < tree.len() {
        match &tree[i] {
            TokenTree::Ident(word) if word == "as" => {
                last = ident(tree.get(i + 1));
                i += 2;
                continue;
            }
            TokenTree::Ident(word) => {
                let word = word.to_string();
                if first.is_none() && word != "crate" && word != "self" {
                    first = Some(word.clone());
                }
                last = Some(word);
            }
            TokenTree::Group(group) if group.delimiter() == Delimiter::Brace => {
                for member in comma_separated(group.stream()) {
                    use_leaves(&member, first.as_deref(), out);
                }
                return;
            }
            TokenTree::Punct(p) if p.as_char() == '*' => return, // a glob: its names are not known here
            _ => {}
        }
        i += 1;
    }
    if let (Some(first), Some(last)) = (first, last)
        && last != "self"
        && last != first
    {
        out.push((first, last));
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn edges(source: &str) -> Vec<(String, String, usize)> {
        scan_source(source)
            .unwrap()
            .uses
            .into_iter()
            .map(|u| (u.from, u.to, u.line))
            .collect()
    }

    fn edge(from: &str, to: &str, line: usize) -> (String, String, usize) {
        (from.to_owned(), to.to_owned(), line)
    }

    #[test]
    fn a_path_inside_an_attribute_is_a_use() {
        let source = r#"
mod api {
    pub enum RouteKind { Onramp }
}
mod verify {
    #[derive(Debug, thiserror::Error)]
    pub enum VerifyError {
        #[error("{}", crate::api::RouteKind::described(..))]
        Mismatch,
    }
}
"#;
        assert_eq!(edges(source), vec![edge("verify", "api", 8)]);
    }

    #[test]
    fn a_doc_comment_or_a_comment_mention_is_not_a_use() {
        let source = r#"
mod api {
    //! See [`crate::verify::Verified`].
    /// Made by [`crate::verify::verify_order`].
    pub struct Quote;
    // crate::verify::Verified is not used here.
    /* nor crate::verify::VerifyError */
    #[doc = "crate::verify::X"]
    pub struct Other;
    pub const TEXT: &str = "crate::verify::Y";
}
mod verify {}
"#;
        assert_eq!(edges(source), vec![]);
    }

    #[test]
    fn groups_climbs_and_root_reexports_are_followed() {
        let source = r#"
pub use desk::{Desk, DeskOptions as Options};
pub use self::error::DeskError;
pub use gateway_client::Client;
mod error {}
mod desk {}
mod views {
    use crate::{error::DeskError, Desk};
    mod order {
        use super::super::Options;
        fn f() -> crate::DeskError { todo!() }
        fn g() -> super::Local { todo!() }
        fn h() -> crate::Client { todo!() }
    }
}
"#;
        let scan = scan_source(source).unwrap();
        assert_eq!(scan.reexports["Desk"], "desk");
        assert_eq!(scan.reexports["Options"], "desk");
        assert_eq!(scan.reexports["DeskError"], "error");
        assert_eq!(
            edges(source),
            vec![
                edge("views", "error", 8),
                edge("views", "desk", 8),
                edge("views", "desk", 10),
                edge("views", "error", 11),
            ]
        );
    }

    #[test]
    fn what_is_compiled_for_tests_only_is_left_out() {
        let source = r#"
mod a {
    #[cfg(test)]
    mod tests {
        use crate::b::X;
    }
    #[cfg(test)]
    fn helper() -> crate::b::Y { todo!() }
    fn kept() -> crate::c::Z { todo!() }
}
mod b {
    #![cfg(test)]
    use crate::a::W;
}
mod c {}
"#;
        assert_eq!(edges(source), vec![edge("a", "c", 9)]);
    }

    #[test]
    fn visibility_and_paths_within_the_module_are_not_uses() {
        let source = r#"
mod a {
    pub(crate) fn f() {}
    pub(super) fn g() {}
    mod inner {
        use super::f;
        pub(in crate::a) fn h() {}
    }
}
"#;
        assert_eq!(edges(source), vec![]);
    }

    /// A crate of `files` (path, source) written to a new temporary directory, and its scan.
    pub(crate) fn scan_files(files: &[(&str, &str)]) -> (tempfile::TempDir, CrateUses) {
        let dir = tempfile::tempdir().unwrap();
        for (path, source) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, source).unwrap();
        }
        let scan = scan_crate(&dir.path().join("lib.rs")).unwrap();
        (dir, scan)
    }

    /// Each use the scan found: from, to, the file relative to the crate's directory, the line.
    fn uses_in(dir: &tempfile::TempDir, scan: CrateUses) -> Vec<(String, String, String, usize)> {
        scan.uses
            .into_iter()
            .map(|u| {
                let file = u
                    .file
                    .strip_prefix(dir.path())
                    .unwrap()
                    .display()
                    .to_string();
                (u.from, u.to, file, u.line)
            })
            .collect()
    }

    #[test]
    fn the_modules_a_macro_declares_are_the_undeclared_files_beside_it() {
        let (dir, scan) = scan_files(&[
            ("lib.rs", "mod rails;\nmod other;\n"),
            (
                "rails.rs",
                "mod named;\nmacro_rules! each { ($($m:ident),*) => { $(pub mod $m;)* }; }\neach!(one, deep);\n",
            ),
            ("rails/named.rs", ""),
            ("rails/one.rs", "use crate::other::x;\n"),
            ("rails/deep/mod.rs", "\nuse crate::other::y;\n"),
            ("rails/tests.rs", "use crate::other::z;\n"),
            ("other.rs", ""),
        ]);
        assert_eq!(
            scan.files, 6,
            "lib, rails, named, one, deep and other, once each"
        );
        assert_eq!(
            uses_in(&dir, scan),
            vec![
                (
                    "rails".into(),
                    "other".into(),
                    "rails/deep/mod.rs".into(),
                    2
                ),
                ("rails".into(), "other".into(), "rails/one.rs".into(), 1),
            ]
        );
    }

    #[test]
    fn a_crate_s_files_are_found_from_its_mod_declarations() {
        let (dir, scan) = scan_files(&[
            ("lib.rs", "mod a;\nmod b;\nmod c;\n#[cfg(test)]\nmod d;\n"),
            ("a.rs", "use crate::b::f;\n"),
            ("b.rs", "mod deep;\n"),
            ("b/deep.rs", "\n\nuse super::super::c::g;\n"),
            ("c/mod.rs", "fn g() {}\n"),
            ("d.rs", "use crate::a::x;\n"),
        ]);
        assert_eq!(scan.files, 5);
        assert_eq!(
            scan.for_tests,
            BTreeSet::from([dir.path().join("d.rs")]),
            "d is declared for tests only"
        );
        assert_eq!(
            uses_in(&dir, scan),
            vec![
                ("a".into(), "b".into(), "a.rs".into(), 1),
                ("b".into(), "c".into(), "b/deep.rs".into(), 3),
            ]
        );
    }
}
