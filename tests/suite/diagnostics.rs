//! Diagnostics conformance suite: `.puz` files beside their expected reports.
//!
//! Layout, under `tests/fixtures/diagnostics/`:
//! - `err/NAME.puz` must fail to load; `err/NAME.out` holds the expected report, exactly
//!   as [`Diagnostics::render_plain`] prints it 80 columns wide. The file is loaded under
//!   its path relative to the crate root (`tests/fixtures/diagnostics/err/NAME.puz`), which
//!   is the name the report shows.
//! - `ok/NAME.puz` must load with no problem (including its inline levels).
//!
//! Expected reports are generated, never edited by hand:
//! `PUZ_BLESS=1 cargo test --test suite diagnostics::` rewrites every `.out` file from the current
//! output (and deletes `.out` files whose `.puz` is gone). Read the diff before committing.
//!
//! File-name convention for `err` fixtures (checked by `err_fixture_names_match_first_code`):
//! - `LEAF__VARIANT.puz`: the first problem reported has the code whose last segment is
//!   `LEAF`, e.g. `unknown_name__tile.puz` expects `puz::check::unknown_name` and
//!   `ragged__short_row.puz` expects `puz::level::ragged`. `LEAF` must name exactly one
//!   code declared in `src/diagnostics/catalogue.rs`.
//! - `many__VARIANT.puz`: a file with several problems; at least two must be reported in
//!   the one run (any codes).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use puz::diagnostics::Diagnostics;
use puz::Puzzle;

/// Where the fixtures live, relative to the crate root.
const FIXTURES: &str = "tests/fixtures/diagnostics";

/// Report width the expected outputs are rendered at.
const WIDTH: usize = 80;

/// Prefix of `err` fixtures that exercise several problems at once.
const MANY: &str = "many";

/// Codes no `.puz` file can trigger, so no fixture is expected to show them.
const UNREACHABLE_CODES: &[&str] = &[
    // A level needs more than 2^28 cells (a 256 MiB text block) to be too large.
    "puz::level::too_large",
    // Only a level file triggers it (rules whose goals are all level pictures); see
    // tests/suite/mechanics.rs.
    "puz::level::no_goal",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The `.puz` files of `err` or `ok`, sorted, as paths relative to the crate root.
fn fixtures(kind: &str) -> Vec<String> {
    let dir = root().join(FIXTURES).join(kind);
    let mut out: Vec<String> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| {
            e.expect("directory entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".puz"))
        .map(|n| format!("{FIXTURES}/{kind}/{n}"))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no fixtures in {}", dir.display());
    out
}

fn stem(rel: &str) -> &str {
    let file = rel.rsplit('/').next().unwrap_or(rel);
    file.strip_suffix(".puz").unwrap_or(file)
}

fn out_path(rel: &str) -> PathBuf {
    root().join(rel).with_extension("out")
}

/// What loading one fixture did.
enum Loaded {
    Clean,
    Failed(Diagnostics),
    Panicked(String),
}

fn load(rel: &str) -> Loaded {
    let text =
        fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("cannot read {rel}: {e}"));
    match catch_unwind(AssertUnwindSafe(|| Puzzle::load(rel, text))) {
        Ok(Ok(_)) => Loaded::Clean,
        Ok(Err(d)) => Loaded::Failed(d),
        Err(payload) => Loaded::Panicked(
            payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "(non-string panic payload)".to_string()),
        ),
    }
}

/// Loads an `err` fixture, failing the test with a clear message unless it reports errors.
fn load_err(rel: &str) -> Diagnostics {
    match load(rel) {
        Loaded::Failed(d) => {
            assert!(
                !d.problems.is_empty(),
                "{rel}: failed with an empty problem list"
            );
            d
        }
        Loaded::Clean => panic!("{rel}: loaded cleanly, but an `err` fixture must report an error"),
        Loaded::Panicked(m) => panic!("{rel}: panicked while loading: {m}"),
    }
}

/// Every `code(puz::...)` in `text`, with its 1-based line, in source order; line comments
/// (doc comments too) are left out. The code may sit on the line after `code(`.
fn codes_in(text: &str) -> Vec<(String, usize)> {
    let code: String = text
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = vec![];
    for (i, _) in code.match_indices("code(") {
        // Only the attribute's `code(`, not `error_code(` or `.code(`.
        let before = code[..i].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
            continue;
        }
        let after = code[i + "code(".len()..].trim_start();
        if !after.starts_with("puz::") {
            continue;
        }
        let end = after
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(after.len());
        let line = code[..i].matches('\n').count() + 1;
        out.push((after[..end].to_string(), line));
    }
    out
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    for e in fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display())) {
        let path = e.expect("directory entry").path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Every diagnostic code declared anywhere under `src/` (`code(puz::...)`: rule-file
/// problems in `src/diagnostics/catalogue.rs`, and the errors of the command line, the
/// engine, the solver, level and judge input, output, the server and the distributed
/// engine), each with where it is declared (`src/io/graph.rs:40`).
fn all_declared_codes() -> Vec<(String, String)> {
    let mut out = vec![];
    for file in rust_files(&root().join("src")) {
        let text = fs::read_to_string(&file).expect("source is UTF-8");
        let rel = file.strip_prefix(root()).expect("under the crate root");
        for (c, line) in codes_in(&text) {
            out.push((c, format!("{}:{line}", rel.display())));
        }
    }
    out
}

/// Every code declared in `src/diagnostics/catalogue.rs` (`code(puz::...)`), in source
/// order: the problems a `.puz` file can have, which the fixtures exercise.
fn declared_codes() -> Vec<String> {
    let src = fs::read_to_string(root().join("src/diagnostics/catalogue.rs"))
        .expect("read src/diagnostics/catalogue.rs");
    let codes: Vec<String> = codes_in(&src).into_iter().map(|(c, _)| c).collect();
    assert!(
        !codes.is_empty(),
        "no `code(puz::...)` found in src/diagnostics/catalogue.rs"
    );
    codes
}

/// The code a fixture's name promises, or `None` for a `many__` fixture.
fn expected_code(rel: &str, codes: &[String]) -> Option<String> {
    let name = stem(rel);
    let (leaf, variant) = name.split_once("__").unwrap_or_else(|| {
        panic!("{rel}: name must be LEAF__VARIANT.puz (see the top of tests/suite/diagnostics.rs)")
    });
    assert!(!variant.is_empty(), "{rel}: empty variant after `__`");
    if leaf == MANY {
        return None;
    }
    let matches: Vec<&String> = codes
        .iter()
        .filter(|c| c.rsplit("::").next() == Some(leaf))
        .collect();
    match matches.as_slice() {
        [one] => Some(one.to_string()),
        [] => panic!("{rel}: `{leaf}` is the last segment of no code in src/diagnostics/catalogue.rs"),
        many => panic!("{rel}: `{leaf}` is ambiguous between {many:?}; rename the codes or extend the convention"),
    }
}

#[test]
fn err_fixtures_render_as_expected() {
    let bless = std::env::var("PUZ_BLESS").is_ok_and(|v| v == "1");
    let mut failures = vec![];
    for rel in fixtures("err") {
        let Loaded::Failed(d) = load(&rel) else {
            failures.push(format!(
                "{rel}: did not report an error (see `err_fixtures_report_errors`)"
            ));
            continue;
        };
        let actual = d.render_plain(WIDTH);
        let path = out_path(&rel);
        if bless {
            fs::write(&path, &actual)
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
            continue;
        }
        match fs::read_to_string(&path) {
            Err(_) => failures.push(format!(
                "{rel}: no expected output; run with PUZ_BLESS=1 to create it"
            )),
            Ok(expected) if expected != actual => failures.push(format!(
                "{rel}: report differs from {}\n{}",
                path.display(),
                first_difference(&expected, &actual)
            )),
            Ok(_) => {}
        }
    }
    // `.out` files left behind by renamed or deleted fixtures.
    let dir = root().join(FIXTURES).join("err");
    for entry in fs::read_dir(&dir).expect("read err fixtures") {
        let path = entry.expect("directory entry").path();
        if path.extension().is_some_and(|e| e == "out") && !path.with_extension("puz").exists() {
            if bless {
                fs::remove_file(&path).expect("remove stale .out");
            } else {
                failures.push(format!("{}: has no .puz beside it", path.display()));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} fixture(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The first line where two reports differ, with both versions.
fn first_difference(expected: &str, actual: &str) -> String {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    for i in 0..e.len().max(a.len()) {
        let (x, y) = (e.get(i).copied(), a.get(i).copied());
        if x != y {
            return format!(
                "first difference at line {}:\n  expected: {:?}\n  actual:   {:?}\n--- actual report ---\n{actual}",
                i + 1,
                x.unwrap_or("<end>"),
                y.unwrap_or("<end>")
            );
        }
    }
    "the reports differ only in trailing line breaks".to_string()
}

#[test]
fn err_fixtures_report_errors() {
    for rel in fixtures("err") {
        load_err(&rel);
    }
}

#[test]
fn ok_fixtures_load_cleanly() {
    let mut failures = vec![];
    for rel in fixtures("ok") {
        match load(&rel) {
            Loaded::Clean => {}
            Loaded::Failed(d) => failures.push(d.render_plain(WIDTH)),
            Loaded::Panicked(m) => failures.push(format!("{rel}: panicked: {m}")),
        }
    }
    assert!(
        failures.is_empty(),
        "ok fixtures reported problems:\n\n{}",
        failures.join("\n")
    );
}

#[test]
fn no_fixture_load_panics() {
    let mut panicked = vec![];
    for rel in fixtures("err").into_iter().chain(fixtures("ok")) {
        if let Loaded::Panicked(m) = load(&rel) {
            panicked.push(format!("{rel}: {m}"));
        }
    }
    assert!(
        panicked.is_empty(),
        "loading panicked:\n{}",
        panicked.join("\n")
    );
}

#[test]
fn err_fixture_names_match_first_code() {
    let codes = declared_codes();
    let mut failures = vec![];
    for rel in fixtures("err") {
        let d = load_err(&rel);
        let got: Vec<String> = d.problems.iter().map(|p| p.code_str()).collect();
        match expected_code(&rel, &codes) {
            Some(want) if got[0] != want => failures.push(format!(
                "{rel}: first code is {}, the name promises {want}",
                got[0]
            )),
            None if got.len() < 2 => failures.push(format!(
                "{rel}: a `{MANY}__` fixture must report several problems, got {got:?}"
            )),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn declared_codes_are_unique() {
    let all = all_declared_codes();
    // The scan finds the codes outside src/diagnostics/catalogue.rs too.
    for (c, dir) in [
        ("puz::dist::hosts", "src/dist/"),
        ("puz::serve::bind", "src/serve/"),
        ("puz::input::row_width", "src/io/"),
        ("puz::input::no_such_level", "src/error.rs"),
        ("puz::solve::bad_path", "src/solver/"),
        ("puz::lint::slide_off_board", "src/diagnostics/catalogue.rs"),
    ] {
        assert!(
            all.iter().any(|(d, at)| d == c && at.starts_with(dir)),
            "`{c}` not found under {dir}: {all:?}"
        );
    }
    let mut seen: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (c, at) in &all {
        seen.entry(c).or_default().push(at);
    }
    let repeated: Vec<String> = seen
        .into_iter()
        .filter(|(_, at)| at.len() > 1)
        .map(|(c, at)| format!("{c} at {}", at.join(", ")))
        .collect();
    assert!(
        repeated.is_empty(),
        "codes declared more than once (give each meaning its own code):\n{}",
        repeated.join("\n")
    );
}

#[test]
fn the_code_scan_reads_attributes_only() {
    let text = "#[diagnostic(code(puz::a::one), help(\"x\"))]\n\
        #[diagnostic(\n    code(\n        puz::b::two),\n)]\n\
        /// Doc text naming code(puz::c::doc) is no declaration.\n\
        let x = d.code(); // code(puz::d::comment)\n\
        error_code(puz::e::other)\n";
    assert_eq!(
        codes_in(text),
        [
            ("puz::a::one".to_string(), 1),
            ("puz::b::two".to_string(), 3)
        ]
    );
}

#[test]
fn every_code_appears_in_a_fixture() {
    let declared: BTreeSet<String> = declared_codes().into_iter().collect();
    for c in UNREACHABLE_CODES {
        assert!(
            declared.contains(*c),
            "UNREACHABLE_CODES lists `{c}`, which src/diagnostics/catalogue.rs no longer declares"
        );
    }
    let mut shown = BTreeSet::new();
    for rel in fixtures("err") {
        shown.extend(load_err(&rel).problems.iter().map(|p| p.code_str()));
    }
    for c in &shown {
        assert!(
            declared.contains(c),
            "a fixture reported `{c}`, which is not declared as `code({c})`"
        );
        assert!(
            !UNREACHABLE_CODES.contains(&c.as_str()),
            "`{c}` is listed as unreachable, but a fixture triggers it: remove it from UNREACHABLE_CODES"
        );
    }
    // Lints are warnings of a file that loads: tests/suite/lints.rs has their fixtures.
    let missing: Vec<&String> = declared
        .iter()
        .filter(|c| !shown.contains(*c) && !UNREACHABLE_CODES.contains(&c.as_str()))
        .filter(|c| !c.starts_with("puz::lint::"))
        .collect();
    assert!(
        missing.is_empty(),
        "codes no err fixture triggers: {missing:?}"
    );
}

/// A report names the fixture by its crate-relative path and counts its problems.
#[test]
fn reports_name_the_file_and_count_problems() {
    for rel in fixtures("err") {
        let d = load_err(&rel);
        let n = d.problems.len();
        let count = if n == 1 {
            "1 error".to_string()
        } else {
            format!("{n} errors")
        };
        assert_eq!(
            d.to_string(),
            format!("{count} found in {rel}"),
            "{rel}: report title"
        );
    }
}
