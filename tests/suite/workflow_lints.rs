//! Lints in the whole-file workflows: `puz solve FILE --all` and `puz test FILE...` show
//! every level's warnings (`puz::lint::*`) on stderr, `--all --json` lists them per level,
//! `puz test` counts them on its summary line, and warnings never change an exit code.

use crate::common::binary;

use binary::{puz, stderr, stdout, TempFile};
use std::process::Output;

use serde_json::Value;

fn expect_code(o: &Output, code: i32, what: &str) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "{what}: exit code\nstdout:\n{}\nstderr:\n{}",
        stdout(o),
        stderr(o)
    );
}

/// Sokoban rules and the levels given: `boxes` is clean, `empty` has no box (so `push`
/// never applies and the goal holds at once: two warnings).
fn sokoban(levels: &str) -> String {
    format!(
        r#"puzzle "Sokoban"
tiles {{ floor }}
marks {{ target }}
piece man
piece box anonymous
legend {{ '.' floor  'T' floor + target  '@' floor + man  'B' floor + box }}
dirs {{ w (0, -1)  e (0, 1) }}
move walk(d) {{
  forbid box at man + d
  shift man d
}}
move push(d) {{
  require box at man + d
  forbid box at man + 2d
  shift box d
  shift man d
}}
goal box on target
{levels}"#
    )
}

const CLEAN: &str = "level \"boxes\" \"\"\"\n  @B.T\n  \"\"\"\n";
const CLEAN_EXPECT: &str = "level \"boxes\" \"\"\"\n  @B.T\n  \"\"\"\nexpect 2\n";
const LINTED: &str = "level \"empty\" \"\"\"\n  @..T\n  \"\"\"\n";
const LINTED_EXPECT: &str = "level \"empty\" \"\"\"\n  @..T\n  \"\"\"\nexpect 0\n";

/// How many warnings about level `name` stderr holds (one `⚠` line each).
fn warnings_for(err: &str, name: &str) -> usize {
    err.lines()
        .filter(|l| l.contains('⚠') && l.contains(&format!("level \"{name}\"")))
        .count()
}

#[test]
fn all_shows_each_levels_lints_on_stderr_and_keeps_the_table() {
    let f = TempFile::new("lints", &sokoban(&format!("{CLEAN}{LINTED}")));
    let o = puz(&["solve", f.path(), "--all"]);
    expect_code(&o, 0, "--all with a linted level");
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(err.contains("puz::lint::goal_piece_missing"), "{err}");
    assert!(err.contains("puz::lint::move_never_applies"), "{err}");
    assert!(warnings_for(&err, "empty") >= 2, "{err}");
    assert_eq!(warnings_for(&err, "boxes"), 0, "{err}");
    // The table on stdout is only the table: a header and one row per level.
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("level"), "{out}");
    assert!(
        lines[1].starts_with("boxes") && lines[1].contains("2 moves"),
        "{out}"
    );
    assert!(
        lines[2].starts_with("empty") && lines[2].contains("0 moves"),
        "{out}"
    );
    assert!(!out.contains("lint") && !out.contains('⚠'), "{out}");
}

#[test]
fn all_json_lists_each_levels_warnings() {
    let f = TempFile::new("lints", &sokoban(&format!("{CLEAN}{LINTED}")));
    let o = puz(&["solve", f.path(), "--all", "--json"]);
    expect_code(&o, 0, "--all --json with a linted level");
    let v: Value = serde_json::from_str(&stdout(&o)).expect("stdout is one JSON value");
    let levels = v["levels"].as_array().expect("levels");
    assert_eq!(levels.len(), 2);
    assert_eq!(levels[0]["warnings"], serde_json::json!([]));
    let codes: Vec<&str> = levels[1]["warnings"]
        .as_array()
        .expect("warnings is an array")
        .iter()
        .map(|w| w["code"].as_str().expect("a code"))
        .collect();
    assert_eq!(
        codes,
        [
            "puz::lint::move_never_applies",
            "puz::lint::goal_piece_missing"
        ]
    );
    for w in levels[1]["warnings"].as_array().unwrap() {
        let m = w["message"].as_str().expect("a message");
        assert!(m.contains("\"empty\""), "{m}");
    }
    assert!(stderr(&o).contains("puz::lint::goal_piece_missing"));
}

#[test]
fn all_exit_codes_are_unchanged_by_warnings() {
    // A broken level beside a linted one: still 1 (the broken level's code).
    let broken = "level \"broken\" \"\"\"\n  @@.T\n  \"\"\"\n";
    let f = TempFile::new("lints", &sokoban(&format!("{LINTED}{broken}")));
    let o = puz(&["solve", f.path(), "--all"]);
    expect_code(&o, 1, "--all with a broken and a linted level");
    assert!(stderr(&o).contains("puz::lint::goal_piece_missing"));
    // A cut-off level beside a linted one: still 3.
    let f = TempFile::new("lints", &sokoban(&format!("{LINTED}{CLEAN}")));
    let o = puz(&["solve", f.path(), "--all", "--max-states", "1"]);
    expect_code(&o, 3, "--all cut off, with a linted level");
    assert!(stderr(&o).contains("puz::lint::goal_piece_missing"));
}

#[test]
fn test_shows_lints_and_counts_them_without_failing() {
    let f = TempFile::new("lints", &sokoban(&format!("{CLEAN_EXPECT}{LINTED_EXPECT}")));
    let o = puz(&["test", f.path()]);
    expect_code(&o, 0, "puz test, expectations met, with warnings");
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(err.contains("puz::lint::goal_piece_missing"), "{err}");
    assert!(warnings_for(&err, "empty") >= 2, "{err}");
    assert_eq!(warnings_for(&err, "boxes"), 0, "{err}");
    assert!(out.contains("pass  ") && !out.contains("FAIL"), "{out}");
    assert!(
        out.contains("2 passed, 0 failed, 0 without expectation, 2 warnings"),
        "{out}"
    );
}

#[test]
fn test_lints_levels_without_expectation_too() {
    let f = TempFile::new("lints", &sokoban(&format!("{CLEAN_EXPECT}{LINTED}")));
    let o = puz(&["test", f.path()]);
    expect_code(&o, 0, "puz test with an open, linted level");
    assert!(stderr(&o).contains("puz::lint::goal_piece_missing"));
    assert!(
        stdout(&o).contains("1 passed, 0 failed, 1 without expectation, 2 warnings"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn test_exit_code_on_a_mismatch_is_unchanged_by_warnings() {
    let wrong = "level \"empty\" \"\"\"\n  @..T\n  \"\"\"\nexpect 5\n";
    let f = TempFile::new("lints", &sokoban(&format!("{CLEAN_EXPECT}{wrong}")));
    let o = puz(&["test", f.path()]);
    expect_code(&o, 1, "puz test with a wrong expectation and warnings");
    assert!(stderr(&o).contains("puz::lint::goal_piece_missing"));
    assert!(stdout(&o).contains("FAIL"), "{}", stdout(&o));
}

#[test]
fn clean_files_print_no_warnings() {
    let f = TempFile::new("lints", &sokoban(CLEAN_EXPECT));
    let o = puz(&["test", f.path()]);
    expect_code(&o, 0, "puz test on a clean file");
    assert!(!stderr(&o).contains("puz::lint"), "{}", stderr(&o));
    assert!(
        stdout(&o).ends_with("1 passed, 0 failed, 0 without expectation\n"),
        "{}",
        stdout(&o)
    );
    let o = puz(&["solve", f.path(), "--all"]);
    expect_code(&o, 0, "--all on a clean file");
    assert!(!stderr(&o).contains("puz::lint"), "{}", stderr(&o));
}

#[test]
fn an_expect_none_level_gets_no_proof_of_unsolvability() {
    // The goal mark is missing: `goal_never_holds`, which `expect none` already says.
    let none = "level \"walled\" \"\"\"\n  @B..\n  \"\"\"\nexpect none\n";
    let f = TempFile::new("lints", &sokoban(none));
    let o = puz(&["test", f.path()]);
    expect_code(&o, 0, "puz test, expect none");
    assert!(!stderr(&o).contains("goal_never_holds"), "{}", stderr(&o));
    let f = TempFile::new("lints", &sokoban(&none.replace("expect none\n", "")));
    let o = puz(&["solve", f.path(), "--all"]);
    expect_code(&o, 0, "--all, no solution");
    assert!(stderr(&o).contains("goal_never_holds"), "{}", stderr(&o));
}
