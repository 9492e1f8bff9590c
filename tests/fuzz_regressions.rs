//! What the fuzzer found in the issue 9 language (third round, `tests/data/fuzz/README.md`),
//! each input run the way the fuzzer runs it: no panic or crash, within the wall time, a
//! diagnostic code on every error, and the right answer.
//!
//! A test marked `#[ignore]` reproduces a bug that is still open, in a file another
//! engineer owns; its comment names the bug. Run it with `cargo test --test
//! fuzz_regressions -- --ignored`.

#[path = "common/fuzz.rs"]
mod fuzz;

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

/// Seed 0x0b of the fixed slice (a slip of the issue 9 generator): `counter k0 max -3`
/// was accepted and its values silently read as 0; `start` past `max` (or below 0) was
/// accepted too. Both are `puz::check::*` errors now, at the number.
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

/// OPEN BUG (src/engine/interpreter.rs and src/engine/legality.rs, not fixed here: those
/// files are being optimized by another engineer). Seeds 0x900001b6 and 0x9000149b of
/// `scripts/fuzz --seed 0x90000000`: peg solitaire on a level file of 1,004 x 4 cells
/// (3,011 pegs). Expanding the one start state enumerates every peg, every `as over`
/// candidate and checks each result's overlaps against every copy, without looking at
/// the deadline: `--timeout 0.2` stops after 56 s of one expansion ("expanded 1 states").
/// 400 rows: 2.9 s, 800 rows: 25 s (release), about cubic in the pegs.
#[test]
#[ignore = "open bug: one expansion of a state with thousands of anonymous copies is cubic and ignores the deadline"]
fn thousands_of_pegs_stop_at_the_timeout() {
    assert_clean(check_command(
        "peg solitaire, 3,011 pegs",
        &[
            "solve",
            "puzzles/pegsolitaire.puz",
            "tests/data/fuzz/peg_3000_pegs_one_expansion.txt",
            "--max-states",
            "20000",
            "--timeout",
            "0.2",
        ],
        &limits(),
    ));
}
