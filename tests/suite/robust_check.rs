//! Robustness of parsing and checking: the reproducers of `tests/data/robustness/` that
//! the checker owns (id overflow, diagnostics blow-up, judge formats accepted that could
//! never work) and the smaller language edge cases (escapes, negative symbols, a repeated
//! placement, a byte-order mark). Each gets the right answer or a clear diagnostic, fast,
//! with bounded output.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use miette::Diagnostic;
use puz::diagnostics::{Diagnostics, MAX_SHOWN};
use puz::Puzzle;

/// The whole checking stage of one file, in a debug build, must stay below this. The old
/// quadratic duplicate checks took 16-34 s on `dirs_120000_quadratic_check.puz`.
const CHECK_BOUND: Duration = Duration::from_secs(5);

fn robustness(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/robustness")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn read(name: &str) -> String {
    std::fs::read_to_string(robustness(name)).expect("read reproducer")
}

/// Loads `text`, expecting diagnostics.
fn load_err(name: &str, text: String) -> Diagnostics {
    match Puzzle::load(name, text) {
        Ok(_) => panic!("{name}: loaded, but it must be rejected"),
        Err(d) => d,
    }
}

fn codes(d: &Diagnostics) -> Vec<String> {
    d.problems.iter().map(|p| p.code_str()).collect()
}

/// The source text under a problem's first label.
fn labelled<'a>(text: &'a str, p: &puz::diagnostics::Problem) -> &'a str {
    let l = p.labels().and_then(|mut l| l.next()).expect("a label");
    &text[l.offset()..l.offset() + l.len()]
}

/// `puz check FILE`, timed.
fn puz_check(path: &str) -> (Output, Duration) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_puz"))
        .args(["check", path])
        .output()
        .expect("run puz");
    (out, start.elapsed())
}

/// Only the checking stage of a file that parses, timed.
fn time_check(
    text: &str,
) -> (
    Result<puz::check::Symbols, Vec<puz::diagnostics::Problem>>,
    Duration,
) {
    let file = puz::syntax::parse(text).expect("parses");
    let start = Instant::now();
    let result = puz::check::check(&file);
    (result, start.elapsed())
}

#[test]
fn tile_65535_is_past_the_limit_not_the_off_board_sentinel() {
    let text = read("tiles65536_sentinel_wrong_answer.puz");
    let d = load_err("tiles65536", text.clone());
    assert_eq!(codes(&d), ["puz::check::too_many"]);
    assert_eq!(
        d.problems[0].to_string(),
        "too many tile kinds: 65,536, at most 65,535 are supported"
    );
    assert_eq!(labelled(&text, &d.problems[0]), "t65535");
}

#[test]
fn tile_65536_no_longer_wraps_into_tile_0() {
    let text = read("tiles65537_id_wrap_wrong_diag.puz");
    let d = load_err("tiles65537", text.clone());
    assert_eq!(codes(&d), ["puz::check::too_many"]);
    assert!(d.problems[0].to_string().contains("65,537"));
    assert_eq!(labelled(&text, &d.problems[0]), "t65535");
}

#[test]
fn a_legend_past_16_bits_is_one_clear_error() {
    let text = read("legend_u16_index_contradictory_diag.puz");
    let d = load_err("legend", text);
    assert_eq!(codes(&d), ["puz::check::too_many"]);
    assert_eq!(
        d.problems[0].to_string(),
        "too many legend symbols: 65,538, at most 65,535 are supported"
    );
}

#[test]
fn the_limits_themselves_load_and_solve() {
    // 65,535 tile kinds is allowed, and the last one is an ordinary tile.
    let text = read("tiles65536_sentinel_wrong_answer.puz")
        .replace(" t65535 }", " }")
        .replace("t65535", "t65534");
    let puzzle = Puzzle::load("tiles65535", text.clone())
        .unwrap_or_else(|d| panic!("{}", d.render_plain(80)));
    assert_eq!(puzzle.model.tiles.len(), 65_535);
    drop(puzzle);
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tiles65535.puz");
    std::fs::write(&path, &text).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_puz"))
        .arg("solve")
        .arg(&path)
        .output()
        .expect("run puz");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("eee"),
        "the man walks east three times: {stdout}"
    );
}

#[test]
fn thousands_of_problems_are_counted_not_all_printed() {
    let path = robustness("many_diagnostics_long_line_13KB.puz");
    let (out, took) = puz_check(&path);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("2,002 errors found"),
        "{}",
        &stderr[..200.min(stderr.len())]
    );
    assert!(stderr.contains("and 1,952 more errors not shown"));
    // 50 reports of one 13 KB line each, where 2,002 of them printed 51 MB.
    assert!(
        stderr.len() < 1_000_000,
        "{} bytes of diagnostics",
        stderr.len()
    );
    assert!(took < Duration::from_secs(10), "puz check took {took:?}");
    let d = load_err("many", read("many_diagnostics_long_line_13KB.puz"));
    assert_eq!(d.problems.len(), MAX_SHOWN);
    assert_eq!(d.omitted, 2_002 - MAX_SHOWN);
}

#[test]
fn duplicate_checks_are_linear() {
    let text = read("dirs_120000_quadratic_check.puz");
    let (result, took) = time_check(&text);
    let problems = result.expect_err("120,004 directions are too many");
    assert!(took < CHECK_BOUND, "checking took {took:?}");
    assert_eq!(problems.len(), 1);
    assert!(problems[0].to_string().contains("at most 65,535"));

    // 60,000 repeats of one name: one problem each, still linear.
    let names = "a ".repeat(60_000);
    let (result, took) = time_check(&format!("tiles {{ {names} }} piece a"));
    let problems = result.expect_err("repeats");
    assert!(took < CHECK_BOUND, "checking took {took:?}");
    let repeats = problems
        .iter()
        .filter(|p| p.code_str() == "puz::check::duplicate_definition")
        .count();
    assert_eq!(repeats, 60_000);
}

#[test]
fn a_huge_file_with_one_problem_prints_one_short_report() {
    let (out, took) = puz_check(&robustness("dirs_120000_quadratic_check.puz"));
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stderr.len() < 4_000, "{} bytes", out.stderr.len());
    // Parsing 1.6 MB dominates in a debug build (about 0.6 s in release).
    assert!(took < Duration::from_secs(60), "puz check took {took:?}");
}

#[test]
fn judge_formats_that_can_never_work_are_rejected() {
    for (file, code) in [
        (
            "cases_until_arity_mismatch_accepted.puz",
            "puz::check::judge_until_arity",
        ),
        (
            "query_single_mark.puz",
            "puz::check::judge_query_single_mark",
        ),
    ] {
        let d = load_err(file, read(file));
        assert_eq!(codes(&d), [code], "{file}");
        assert!(d.problems[0].help().is_some(), "{file}: no help");
    }
    let file = "duplicate_judge_statements_accepted.puz";
    let text = read(file);
    let d = load_err(file, text.clone());
    assert_eq!(codes(&d), ["puz::check::judge_duplicate_statement"; 3]);
    // Each points first at the repeat: `grid ints`, `base 7`, `cases once`.
    let repeats: Vec<&str> = d.problems.iter().map(|p| labelled(&text, p)).collect();
    assert_eq!(repeats, ["grid ints", "base 7", "cases once"]);
}

/// A small valid puzzle to vary.
const MINIMAL: &str = "tiles { floor wall }
marks { exit }
piece man
legend { '.' floor  '#' wall  '@' floor + man  'E' floor + exit }
dirs { w (0, -1)  e (0, 1) }
move walk(d) { shift man d }
forbid man on wall
goal man on exit
level \"one\" \"\"\"
  @.E
  \"\"\"
";

#[test]
fn the_minimal_puzzle_loads() {
    Puzzle::load("minimal", MINIMAL.to_string())
        .unwrap_or_else(|d| panic!("{}", d.render_plain(80)));
}

#[test]
fn a_byte_order_mark_is_accepted() {
    let text = format!("\u{FEFF}{MINIMAL}");
    Puzzle::load("bom", text).unwrap_or_else(|d| panic!("{}", d.render_plain(80)));
}

#[test]
fn unknown_escapes_are_errors_not_letters() {
    let text = MINIMAL.replace("'#' wall", "'\\n' wall");
    let d = load_err("newline key", text.clone());
    assert_eq!(codes(&d), ["puz::syntax::bad_escape"]);
    assert_eq!(labelled(&text, &d.problems[0]), "\\n");
    let text = MINIMAL.replace("'#' wall", "'\\q' wall");
    assert_eq!(codes(&load_err("q key", text)), ["puz::syntax::bad_escape"]);
    let text = format!("puzzle \"a \\z b\"\n{MINIMAL}");
    assert_eq!(
        codes(&load_err("string", text)),
        ["puz::syntax::bad_escape"]
    );
}

#[test]
fn the_known_escapes_mean_what_they_say() {
    let text = MINIMAL
        .replace(
            "'#' wall",
            "'\\t' wall  '\\s' wall  '\\'' wall  '\\\\' wall  '\\\"' wall",
        )
        .replace("@.E", "@.E\\'\"");
    let puzzle = Puzzle::load("escapes", format!("puzzle \"a\\tb\\n\\\"c\\\"\"\n{text}"))
        .unwrap_or_else(|d| panic!("{}", d.render_plain(80)));
    assert_eq!(puzzle.model.title, "a\tb\n\"c\"");
    let keys: Vec<String> = puzzle
        .model
        .legend
        .iter()
        .map(|s| s.key.to_string())
        .collect();
    assert_eq!(
        keys,
        ["'.'", "'\t'", "' '", "'''", "'\\'", "'\"'", "'@'", "'E'"]
    );
}

#[test]
fn negative_integer_symbols_are_rejected() {
    let text = MINIMAL.replace("'#' wall", "-1 wall");
    let d = load_err("negative", text.clone());
    assert_eq!(codes(&d), ["puz::check::negative_symbol"]);
    assert_eq!(labelled(&text, &d.problems[0]), "-1");
}

#[test]
fn a_symbol_placing_a_piece_twice_points_at_the_repeat() {
    let text = MINIMAL.replace("'@' floor + man", "'@' floor + man + man");
    let d = load_err("man man", text.clone());
    assert_eq!(codes(&d), ["puz::check::repeated_placement"]);
    let labels: Vec<usize> = d.problems[0]
        .labels()
        .expect("labels")
        .map(|l| l.offset())
        .collect();
    let first = text.find("+ man").expect("first") + 2;
    let again = text.find("+ man + man").expect("again") + 8;
    assert_eq!(labels, [again, first]);
}
