//! The stages of `src/` depend one way: `syntax -> check -> compile -> engine -> search
//! (fast beside it) -> solver -> io -> puzzle -> play -> serve`, with `diagnostics`
//! shared by all. This test reads every source file, collects the `crate::STAGE` paths it
//! names (in `use` lines and in code), and fails on any edge that points backwards.
//!
//! The same graph, printed: `scripts/stage-deps`.

use std::collections::BTreeSet;
use std::path::Path;

/// Every stage with its rank: a stage may name only stages of lower or equal rank.
const STAGES: &[(&str, u32)] = &[
    ("diagnostics", 0),
    ("syntax", 1),
    ("check", 2),
    ("compile", 3),
    ("engine", 4),
    ("search", 5),
    ("fast", 6),
    ("solver", 7),
    ("dist", 7),
    ("io", 8),
    ("puzzle", 9),
    ("play", 10),
    ("serve", 11),
];

fn rank(stage: &str) -> Option<u32> {
    STAGES.iter().find(|(s, _)| *s == stage).map(|&(_, r)| r)
}

/// The stage a file under `src/` belongs to: its first path component, without `.rs`.
fn stage_of(rel: &Path) -> Option<String> {
    let first = rel.components().next()?.as_os_str().to_str()?;
    Some(first.trim_end_matches(".rs").to_string())
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `(from, to)` stage edges named in the code of one file (comments, doc links included,
/// are not dependencies).
fn edges(from: &str, text: &str) -> BTreeSet<(String, String)> {
    let mut found = BTreeSet::new();
    let code = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '_')
            .collect();
        if name != from && rank(&name).is_some() {
            found.insert((from.to_string(), name));
        }
    }
    found
}

#[test]
fn stages_depend_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![];
    rust_files(&src, &mut files);
    let mut backwards = vec![];
    let mut seen_stages = BTreeSet::new();
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src/");
        let Some(from) = stage_of(rel) else { continue };
        // lib.rs and main.rs sit above every stage.
        let Some(from_rank) = rank(&from) else {
            continue;
        };
        seen_stages.insert(from.clone());
        let text = std::fs::read_to_string(file).expect("source is UTF-8");
        for (f, to) in edges(&from, &text) {
            if rank(&to).expect("known stage") > from_rank {
                backwards.push(format!("{} ({f}) -> {to}", rel.display()));
            }
        }
    }
    for (stage, _) in STAGES {
        assert!(
            seen_stages.contains(*stage),
            "stage `{stage}` has no source file: update STAGES"
        );
    }
    assert!(
        backwards.is_empty(),
        "imports that point backwards along the pipeline:\n{}",
        backwards.join("\n")
    );
}

#[test]
fn the_checker_sees_a_backward_edge() {
    let e = edges(
        "engine",
        "use crate::solver::unit_costs; crate::compile::Model",
    );
    assert!(e.contains(&("engine".to_string(), "solver".to_string())));
    assert!(e.contains(&("engine".to_string(), "compile".to_string())));
    assert_eq!(e.len(), 2);
}
