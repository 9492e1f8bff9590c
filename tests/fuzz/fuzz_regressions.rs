//! What the fuzzer found in the issue 9 language (third round, `tests/data/fuzz/README.md`),
//! each input run the way the fuzzer runs it: no panic or crash, within the wall time, a
//! diagnostic code on every error, and the right answer.
//!
//! A test marked `#[ignore]` is a timing test that only means something in a release
//! build: run it with `cargo test --release --test fuzz fuzz_regressions::`.

use crate::fuzz;

use std::path::PathBuf;
use std::time::Duration;

use fuzz::{check_answer, check_command, Limits};

/// The wall time of one run: generous in a debug build on a shared machine.
fn limits() -> Limits {
    Limits::new(Duration::from_secs(if cfg!(debug_assertions) {
        20
    } else {
        5
    }))
}

/// Writes `text` to a fresh file under `target/fuzz/regressions/` and returns its path.
fn put(name: &str, text: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/fuzz/regressions");
    std::fs::create_dir_all(&dir).expect("regressions dir");
    let path = dir.join(format!("{}-{name}", std::process::id()));
    std::fs::write(&path, text).expect("write input");
    path.to_string_lossy().into_owned()
}

/// A walker with the declarations `decls` spliced in after the tiles.
fn walker(decls: &str) -> String {
    format!(
        r#"puzzle "walker"
tiles {{ floor }}
{decls}
piece man
piece coin anonymous max 2
legend {{ '.' floor '@' floor + man 'c' floor + coin }}
dirs {{ w (0, -1) e (0, 1) }}
move walk(d) {{
  shift man d
}}
goal man at (0, 2)
level "a" """
  @..c
  """
"#
    )
}

/// Fails with every failure's class and detail.
fn assert_clean(fails: Vec<fuzz::Failure>) {
    let all: Vec<String> = fails
        .iter()
        .map(|f| format!("[{}] {}: {}", f.class, f.command, f.detail))
        .collect();
    assert!(all.is_empty(), "{}", all.join("\n"));
}

/// Seed 0x0b of the fixed slice while the issue 9 generator was tuned (a slip): `counter
/// k0 max -3` was accepted and its values silently read as 0; `start` past `max` (or
/// below 0) was accepted too. Both are `puz::check::*` errors now, at the number.
#[test]
fn counter_bounds_are_checked_at_the_declaration() {
    let lim = limits();
    let cases = [
        ("counter k max -3", "puz::check::negative_max"),
        ("counter k max 3 start 7", "puz::check::counter_range"),
        ("counter k max 3 start -1", "puz::check::counter_range"),
        (
            "counter k max 1\ncounter j max -1 start 0",
            "puz::check::negative_max",
        ),
    ];
    for (decl, code) in cases {
        let f = put("counter.puz", &walker(decl));
        assert_clean(check_answer(decl, &["check", &f], &lim, 1, code));
    }
    // In range: the walker solves.
    let f = put("counter_ok.puz", &walker("counter k max 3 start 3"));
    assert_clean(check_answer(
        "start at max",
        &["solve", &f],
        &lim,
        0,
        "cost: 2 moves",
    ));
}

/// A `max` below zero on a piece kind meant no room at all, silently.
#[test]
fn piece_max_below_zero_is_refused() {
    let lim = limits();
    let text = walker("").replace("anonymous max 2", "anonymous max -1");
    let f = put("piece_max.puz", &text);
    assert_clean(check_answer(
        "piece max -1",
        &["check", &f],
        &lim,
        1,
        "puz::check::negative_max",
    ));
}

/// Seed 0xa000272d of `scripts/fuzz --seed 0xa0000000`: a `puzzles/holes.puz` level file
/// of 1,001 rows of 70,003 unknown symbols (70 MB) took 5.8 s (release) to be refused,
/// past the fuzzer's 5 s: every unknown cell had its symbol formatted (`format!("{ch:?}")`
/// in `GridReader::read_row`) though only the first 20 are shown. Now it costs reading
/// the file (1.1 s). A timing test: it runs in release builds only.
#[test]
#[cfg_attr(debug_assertions, ignore = "a timing test: run it with --release")]
fn a_huge_level_of_unknown_symbols_costs_only_its_reading() {
    let row = "x".repeat(70_003) + "\n";
    let f = put("unknown_70mb.txt", &row.repeat(1_001));
    let fails = check_answer(
        "70 MB of unknown symbols",
        &["solve", "puzzles/holes.puz", &f, "--timeout", "0.2"],
        &Limits::new(Duration::from_secs(3)),
        2,
        "puz::level::unknown_symbol",
    );
    let _ = std::fs::remove_file(&f);
    assert_clean(fails);
}

/// The same reading, small: the symbols shown are written as before, and the rest are
/// counted.
#[test]
fn unknown_symbols_are_shown_then_counted() {
    let lim = limits();
    // Runs of one symbol are one problem each: alternate two so every cell is a run.
    let f = put("unknown_small.txt", &("xé".repeat(35) + "\n").repeat(3));
    assert_clean(check_answer(
        "unknown symbols",
        &["solve", "puzzles/holes.puz", &f],
        &lim,
        2,
        "symbol 'x' is not in the legend",
    ));
    assert_clean(check_answer(
        "unknown symbols, counted",
        &["solve", "puzzles/holes.puz", &f],
        &lim,
        2,
        "190 more cells of this",
    ));
    let ints = walker("")
        .replace(
            "legend { '.' floor '@' floor + man 'c' floor + coin }",
            "legend { 0 floor 1 floor + man 2 floor + coin }",
        )
        .replace("  @..c\n", "  1 0 0 2\n");
    let rules = put("ints.puz", &ints);
    let f = put("unknown_ints.txt", "1 0 x 0\n");
    assert_clean(check_answer(
        "an unknown integer token",
        &["solve", &rules, &f],
        &lim,
        2,
        "symbol `x` is not in the legend",
    ));
}

/// Seeds 0x900001b6 and 0x9000149b of `scripts/fuzz --seed 0x90000000`: peg solitaire
/// on a level file of 1,004 x 4 cells (3,011 pegs), and seed 0xa0002d26: `shift each p0
/// n` over the 5,005 copies of a 5,006-row level file. One expansion of the start state
/// took 56 s and past 60 s with `--timeout 0.2`: every moved copy past the 64th was
/// checked on every run whether it moved or not, each against every copy, and no
/// expansion looked at the deadline. Now moved copies are recorded exactly, many moved
/// copies are checked in one pass over the board, and an expansion checks the running
/// search's deadline every 256 runs (both stop within 0.3 s).
#[test]
fn thousands_of_copies_stop_at_the_timeout() {
    let budget = ["--max-states", "20000", "--timeout", "0.2"];
    let mut fails = vec![];
    for (what, rules, level) in [
        (
            "peg solitaire, 3,011 pegs",
            "puzzles/pegsolitaire.puz",
            "tests/data/fuzz/peg_3000_pegs_one_expansion.txt",
        ),
        (
            "shift each over thousands of copies",
            "tests/data/fuzz/shift_each_thousands_of_copies.puz",
            "tests/data/fuzz/shift_each_thousands_of_copies.txt",
        ),
    ] {
        let mut args = vec!["solve", rules, level];
        args.extend(budget);
        fails.extend(check_command(what, &args, &limits()));
    }
    assert_clean(fails);
}
