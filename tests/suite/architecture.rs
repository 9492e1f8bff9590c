//! The stages of `src/` depend one way: `syntax -> check -> compile -> engine -> search
//! (fast beside it) -> solver -> io (solution, error beside it) -> puzzle (expect beside
//! it) -> play -> page -> serve`, with `diagnostics`
//! shared by all. This test reads every source file, tokenizes it (comments and string
//! literals are no dependencies), and collects every path it names: `use` trees, grouped
//! (`use crate::{engine::Level, search}`) or not, and paths in code (`crate::io::render`),
//! from the crate root (`crate::`), relative to the file's module (`super::super::search`,
//! `self::`), or through a name the crate root imports (`crate::Puzzle`, from lib.rs's
//! `pub use puzzle::Puzzle`). It fails on any edge that points backwards.
//!
//! Code under `#[cfg(test)]` (a module of tests, inline or in its own file) is left out by
//! design: unit tests may build their input with later stages (the engine's load a whole
//! `crate::Puzzle`, as levels are read by `io`), and no library code depends on them.
//!
//! The same graph, printed: `scripts/stage-deps`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every stage with its rank: a stage may name only stages of lower or equal rank.
const STAGES: &[(&str, u32)] = &[
    ("diagnostics", 0),
    ("syntax", 1),
    ("check", 2),
    ("compile", 3),
    ("engine", 4),
    ("search", 5),
    ("fast", 6),
    ("puzzlescript", 6),
    ("solver", 7),
    ("dist", 7),
    ("io", 8),
    ("solution", 8),
    ("error", 8),
    ("puzzle", 9),
    ("expect", 9),
    ("play", 10),
    ("page", 11),
    ("serve", 12),
];

fn rank(stage: &str) -> Option<u32> {
    STAGES.iter().find(|(s, _)| *s == stage).map(|&(_, r)| r)
}

// ---------------------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    /// `::`
    Sep,
    Punct(char),
}

/// The tokens of Rust source, enough to read paths: identifiers, `::` and punctuation.
/// Comments, string and character literals and numbers are skipped.
fn tokenize(text: &str) -> Vec<Tok> {
    let c: Vec<char> = text.chars().collect();
    let mut out = vec![];
    let mut i = 0;
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if ch == '"' {
            i = skip_string(&c, i + 1);
        } else if (ch == 'r' || ch == 'b')
            && matches!(
                (ch, at(i + 1), at(i + 2)),
                ('r', '#' | '"', _) | ('b', 'r', '#' | '"')
            )
        {
            // A raw string: r"..", r#".."#, br#".."#.
            let mut j = i + if ch == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while at(j) == '#' {
                hashes += 1;
                j += 1;
            }
            if at(j) != '"' {
                // `r#ident`: a raw identifier.
                out.push(Tok::Ident("r".into()));
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= c.len() {
                    break;
                }
                if c[j] == '"' && (1..=hashes).all(|k| at(j + k) == '#') {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            i = j;
        } else if ch == 'b' && at(i + 1) == '"' {
            i = skip_string(&c, i + 2);
        } else if ch == '\'' {
            if at(i + 1) == '\\' {
                // An escaped character literal: '\n', '\'', '\u{1F600}'.
                let mut j = i + 3;
                while j < c.len() && c[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                // A lifetime: its name reads as an identifier, which names no stage.
                i += 1;
            }
        } else if ch == 'b' && at(i + 1) == '\'' {
            i += 1;
        } else if ch.is_alphabetic() || ch == '_' {
            let s = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(Tok::Ident(c[s..i].iter().collect()));
        } else if ch.is_ascii_digit() {
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
        } else if ch == ':' && at(i + 1) == ':' {
            out.push(Tok::Sep);
            i += 2;
        } else {
            out.push(Tok::Punct(ch));
            i += 1;
        }
    }
    out
}

/// The index after the string literal whose body starts at `i`.
fn skip_string(c: &[char], mut i: usize) -> usize {
    while i < c.len() {
        match c[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

// ---------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------

/// One path a file names, as written, with whether a `use` tree wrote it (a use path
/// that starts with a plain name is relative to the module; a path in code is not looked
/// at unless it starts with `crate`, `super` or `self`), and the name it binds.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Named {
    segments: Vec<String>,
    in_use: bool,
    /// The last segment, or the `as` name (only for `use` trees).
    binds: Option<String>,
}

/// What one file names, and the test-only child modules it declares in files of their
/// own (`#[cfg(test)] mod tests;`).
#[derive(Debug, Default)]
struct FileNames {
    /// Each path with the module path (inside the file) where it is written.
    paths: Vec<(Vec<String>, Named)>,
    /// Test-only child modules (by their module path inside the file).
    test_mods: Vec<Vec<String>>,
}

/// Reads the leaves of the `use` tree starting at `toks[i]`, under `prefix`; returns the
/// index after the tree.
fn use_tree(toks: &[Tok], mut i: usize, prefix: Vec<String>, out: &mut Vec<Named>) -> usize {
    let mut path = prefix;
    loop {
        match toks.get(i) {
            Some(Tok::Sep) => i += 1,
            Some(Tok::Ident(a)) if a == "as" => {
                let alias = match toks.get(i + 1) {
                    Some(Tok::Ident(n)) if n != "_" => Some(n.clone()),
                    _ => None,
                };
                out.push(Named {
                    segments: path,
                    in_use: true,
                    binds: alias,
                });
                return i + 2;
            }
            Some(Tok::Ident(name)) => {
                path.push(name.clone());
                i += 1;
            }
            Some(Tok::Punct('{')) => {
                i += 1;
                loop {
                    match toks.get(i) {
                        Some(Tok::Punct('}')) => return i + 1,
                        Some(Tok::Punct(',')) => i += 1,
                        None => return i,
                        _ => i = use_tree(toks, i, path.clone(), out),
                    }
                }
            }
            Some(Tok::Punct('*')) => {
                out.push(Named {
                    segments: path,
                    in_use: true,
                    binds: None,
                });
                return i + 1;
            }
            _ => break,
        }
    }
    // `use a::b::{self}` binds `b`.
    if path.last().is_some_and(|s| s == "self") {
        path.pop();
    }
    let binds = path.last().cloned();
    out.push(Named {
        segments: path,
        in_use: true,
        binds,
    });
    i
}

/// The index after the item starting at `toks[i]`: through its first `;` outside brackets,
/// or through the `{ .. }` block that closes it.
fn skip_item(toks: &[Tok], mut i: usize) -> usize {
    let mut depth = 0i32;
    while i < toks.len() {
        match &toks[i] {
            Tok::Punct('(' | '[') => depth += 1,
            Tok::Punct(')' | ']') => depth -= 1,
            Tok::Punct(';') if depth == 0 => return i + 1,
            Tok::Punct('{') if depth == 0 => {
                let mut braces = 0;
                while i < toks.len() {
                    match toks[i] {
                        Tok::Punct('{') => braces += 1,
                        Tok::Punct('}') => {
                            braces -= 1;
                            if braces == 0 {
                                return i + 1;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                return i;
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// Whether `toks[i..]` starts with `#[cfg(test)]`.
fn cfg_test_at(toks: &[Tok], i: usize) -> bool {
    let want = [
        Tok::Punct('#'),
        Tok::Punct('['),
        Tok::Ident("cfg".into()),
        Tok::Punct('('),
        Tok::Ident("test".into()),
        Tok::Punct(')'),
        Tok::Punct(']'),
    ];
    toks.len() >= i + want.len() && toks[i..i + want.len()] == want
}

/// Every path of one file, with the inline module each is written in.
fn names_in(text: &str) -> FileNames {
    let toks = tokenize(text);
    let mut out = FileNames::default();
    // Inline modules open here: (name, brace depth inside it).
    let mut mods: Vec<(String, i32)> = vec![];
    let mut depth = 0;
    let mut i = 0;
    let here = |mods: &[(String, i32)]| mods.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    while i < toks.len() {
        if cfg_test_at(&toks, i) {
            let mut j = i + 7;
            // Further attributes of the item, then the item.
            while toks.get(j) == Some(&Tok::Punct('#')) {
                j = skip_item_attr(&toks, j);
            }
            let name = match (toks.get(j), toks.get(j + 1), toks.get(j + 2)) {
                (Some(Tok::Ident(m)), Some(Tok::Ident(n)), Some(Tok::Punct(';'))) if m == "mod" => {
                    Some(n.clone())
                }
                (Some(Tok::Ident(p)), Some(Tok::Ident(m)), Some(Tok::Ident(n)))
                    if p == "pub" && m == "mod" =>
                {
                    Some(n.clone())
                }
                _ => None,
            };
            if let Some(n) = name {
                let mut m = here(&mods);
                m.push(n);
                out.test_mods.push(m);
            }
            i = skip_item(&toks, j);
            continue;
        }
        match &toks[i] {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                depth -= 1;
                while mods.last().is_some_and(|&(_, d)| d > depth) {
                    mods.pop();
                }
            }
            Tok::Ident(k) if k == "mod" => {
                if let (Some(Tok::Ident(n)), Some(Tok::Punct('{'))) =
                    (toks.get(i + 1), toks.get(i + 2))
                {
                    mods.push((n.clone(), depth + 1));
                    depth += 1;
                    i += 3;
                    continue;
                }
            }
            Tok::Ident(k) if k == "use" => {
                let mut leaves = vec![];
                i = use_tree(&toks, i + 1, vec![], &mut leaves);
                let m = here(&mods);
                out.paths.extend(leaves.into_iter().map(|n| (m.clone(), n)));
                continue;
            }
            Tok::Ident(k)
                if matches!(k.as_str(), "crate" | "super" | "self")
                    && toks.get(i + 1) == Some(&Tok::Sep)
                    && (i == 0 || toks[i - 1] != Tok::Sep) =>
            {
                let mut segments = vec![k.clone()];
                let mut j = i + 1;
                while toks.get(j) == Some(&Tok::Sep) {
                    match toks.get(j + 1) {
                        Some(Tok::Ident(n)) => segments.push(n.clone()),
                        _ => break,
                    }
                    j += 2;
                }
                out.paths.push((
                    here(&mods),
                    Named {
                        segments,
                        in_use: false,
                        binds: None,
                    },
                ));
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The index after the attribute `#[..]` at `toks[i]`.
fn skip_item_attr(toks: &[Tok], mut i: usize) -> usize {
    i += 1;
    let mut depth = 0;
    while i < toks.len() {
        match toks[i] {
            Tok::Punct('[') => depth += 1,
            Tok::Punct(']') => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// The path from the crate root that `n`, written in module `module`, names; `None` for a
/// code path that starts elsewhere (a local or an extern crate) or climbs above the root.
fn resolve(module: &[String], n: &Named) -> Option<Vec<String>> {
    let (first, rest) = n.segments.split_first()?;
    match first.as_str() {
        "crate" => Some(rest.to_vec()),
        "self" => Some([module, rest].concat()),
        "super" => {
            let mut m = module.to_vec();
            let mut segs = n.segments.as_slice();
            while let Some(("super", tail)) = segs.split_first().map(|(s, t)| (s.as_str(), t)) {
                m.pop()?;
                segs = tail;
            }
            Some([m.as_slice(), segs].concat())
        }
        // A use path from a name in scope: a child module of this one (an extern crate
        // resolves into this module too, and so names the file's own stage).
        _ if n.in_use => Some([module, &n.segments[..]].concat()),
        _ => None,
    }
}

/// The module path of a file under `src/`: `engine/lints/relax.rs` is `engine::lints::relax`,
/// `engine/mod.rs` and `engine.rs` are `engine`, `lib.rs` the root.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        if stem != "mod" && stem != "lib" {
            parts.push(stem.to_string());
        }
    }
    parts
}

/// The stage an absolute path names: its first segment, or the stage of the name the
/// crate root imports under that name (`Puzzle` -> `puzzle`).
fn stage_named(abs: &[String], root: &BTreeMap<String, String>) -> Option<String> {
    let first = abs.first()?;
    if rank(first).is_some() {
        return Some(first.clone());
    }
    root.get(first).cloned()
}

/// The names the crate root brings in (`pub use puzzle::Puzzle;`), with the stage each
/// comes from: `crate::Puzzle` names the `puzzle` stage.
fn root_imports(lib_rs: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (module, n) in names_in(lib_rs).paths {
        if !n.in_use || !module.is_empty() {
            continue;
        }
        let (Some(abs), Some(binds)) = (resolve(&[], &n), &n.binds) else {
            continue;
        };
        if let Some(stage) = abs.first().filter(|s| rank(s).is_some()) {
            out.insert(binds.clone(), stage.clone());
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// What the check finds in a source tree.
struct Found {
    /// `file: stage -> stage (path)` for every edge pointing backwards.
    backwards: Vec<String>,
    /// The stages with a source file.
    stages: BTreeSet<String>,
}

/// Checks every file of the source tree `src`: each path's stage against the file's.
fn check_tree(src: &Path) -> Found {
    let mut files = vec![];
    rust_files(src, &mut files);
    files.sort();
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("src/lib.rs");
    let root = root_imports(&lib);
    let mut parsed = vec![];
    let mut test_mods: BTreeSet<Vec<String>> = BTreeSet::new();
    for file in &files {
        let rel = file.strip_prefix(src).expect("under src/").to_path_buf();
        let module = module_of(&rel);
        let text = std::fs::read_to_string(file).expect("source is UTF-8");
        let names = names_in(&text);
        for m in &names.test_mods {
            test_mods.insert([module.as_slice(), m].concat());
        }
        parsed.push((rel, module, names));
    }
    let mut found = Found {
        backwards: vec![],
        stages: BTreeSet::new(),
    };
    for (rel, module, names) in &parsed {
        // lib.rs and main.rs (and the binary's own files) sit above every stage.
        let Some(from) = module.first().filter(|s| rank(s).is_some()) else {
            continue;
        };
        found.stages.insert(from.clone());
        if test_mods.iter().any(|t| module.starts_with(t)) {
            continue;
        }
        let from_rank = rank(from).expect("a stage");
        for (inner, n) in &names.paths {
            let Some(abs) = resolve(&[module.as_slice(), inner].concat(), n) else {
                continue;
            };
            let Some(to) = stage_named(&abs, &root) else {
                continue;
            };
            if rank(&to).expect("a stage") > from_rank {
                found.backwards.push(format!(
                    "{}: {from} -> {to} ({})",
                    rel.display(),
                    n.segments.join("::")
                ));
            }
        }
    }
    found
}

#[test]
fn stages_depend_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = check_tree(&src);
    for (stage, _) in STAGES {
        assert!(
            found.stages.contains(*stage),
            "stage `{stage}` has no source file: update STAGES"
        );
    }
    assert!(
        found.backwards.is_empty(),
        "imports that point backwards along the pipeline:\n{}",
        found.backwards.join("\n")
    );
}

/// The stages named by `text` written in module `module` (lib.rs's imports as in `root`).
fn stages_named(module: &[&str], text: &str, root: &str) -> BTreeSet<String> {
    let module: Vec<String> = module.iter().map(|s| s.to_string()).collect();
    let root = root_imports(root);
    let names = names_in(text);
    let tests: Vec<Vec<String>> = names.test_mods.clone();
    names
        .paths
        .iter()
        .filter(|(inner, _)| !tests.iter().any(|t| inner.starts_with(t)))
        .filter_map(|(inner, n)| resolve(&[module.as_slice(), inner].concat(), n))
        .filter_map(|abs| stage_named(&abs, &root))
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

#[test]
fn the_checker_reads_plain_paths() {
    let e = stages_named(
        &["engine"],
        "use crate::solver::unit_costs; fn f() { crate::compile::Model::new() }",
        "",
    );
    assert_eq!(e, set(&["solver", "compile"]));
}

#[test]
fn the_checker_reads_grouped_imports() {
    let e = stages_named(
        &["engine"],
        "use crate::{search::Budget, io::{grid, render::render as draw}, self::x};\n\
         pub(crate) use crate::{\n    serve,\n    play::Game,\n};",
        "",
    );
    assert_eq!(e, set(&["search", "io", "serve", "play"]));
}

#[test]
fn the_checker_reads_root_reexports() {
    let lib = "pub mod puzzle;\npub use puzzle::Puzzle;\npub use crate::serve::{Jobs as J, api};";
    let e = stages_named(&["engine"], "use crate::Puzzle;\nfn f(_: crate::J) {}", lib);
    assert_eq!(e, set(&["puzzle", "serve"]));
    // A root name that is no import names no stage.
    assert!(stages_named(&["engine"], "use crate::Other;", lib).is_empty());
}

#[test]
fn the_checker_reads_super_paths() {
    // From engine::lints::relax, `super::super` is engine and three `super`s the root.
    let m = ["engine", "lints", "relax"];
    assert_eq!(
        stages_named(&m, "use super::super::budget::Budget;", ""),
        set(&["engine"])
    );
    assert_eq!(
        stages_named(&m, "use super::super::super::search::Budget;", ""),
        set(&["search"])
    );
    assert_eq!(
        stages_named(&m, "fn f() { super::super::super::io::grid::read() }", ""),
        set(&["io"])
    );
    // Inside an inline module, `super` is the file's module.
    assert_eq!(
        stages_named(&["engine"], "mod inner { use super::super::fast::X; }", ""),
        set(&["fast"])
    );
}

#[test]
fn the_checker_skips_comments_strings_and_test_code() {
    let text = "// use crate::serve;\n/* crate::io::x */\nconst S: &str = \"crate::play::x\";\n\
        const R: &str = r#\"use crate::dist\"#;\nfn f<'a>(c: char) -> bool { c == '\"' }\n\
        #[cfg(test)]\nmod tests { use crate::Puzzle; use crate::io::grid; }\n\
        #[cfg(test)]\nmod more;\nuse crate::compile::Model;";
    assert_eq!(stages_named(&["engine"], text, ""), set(&["compile"]));
    assert_eq!(names_in(text).test_mods, vec![vec!["more".to_string()]]);
}

/// The whole check on a copy of `src/` with a backward import planted in it.
#[test]
fn the_checker_catches_an_import_planted_in_a_copy_of_src() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let tmp = tempfile::tempdir().expect("a temporary directory");
    copy_dir(&src, tmp.path());
    assert!(
        check_tree(tmp.path()).backwards.is_empty(),
        "the copy is as clean as src/"
    );
    let plant = |rel: &str, line: &str| {
        let path = tmp.path().join(rel);
        let text = std::fs::read_to_string(&path).expect("the file is in the copy");
        std::fs::write(&path, format!("{text}\n{line}\n")).expect("write the copy");
    };
    plant(
        "engine/lints/holds.rs",
        "use super::super::super::{solver, io::grid::X};",
    );
    plant(
        "compile/dump.rs",
        "fn planted() -> crate::Puzzle { todo!() }",
    );
    let found = check_tree(tmp.path()).backwards;
    let want = [
        "engine/lints/holds.rs: engine -> solver (super::super::super::solver)",
        "engine/lints/holds.rs: engine -> io (super::super::super::io::grid::X)",
        "compile/dump.rs: compile -> puzzle (crate::Puzzle)",
    ];
    for w in want {
        assert!(found.iter().any(|f| f == w), "missing {w:?} in {found:?}");
    }
    assert_eq!(found.len(), want.len(), "{found:?}");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create a directory in the copy");
    for entry in std::fs::read_dir(from).expect("readable") {
        let path = entry.expect("directory entry").path();
        let dest = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy_dir(&path, &dest);
        } else {
            std::fs::copy(&path, &dest).expect("copy a file");
        }
    }
}
