//! `puz play` through the binary on games written here: why inputs change nothing (text
//! and JSON), again turns that never settle (`puz::ps::never_settles`, naming the rules
//! that keep firing), and hostile games under a small budget (a huge level, thousands of
//! rules, a million inputs, a memory limit): exit 3 with `puz::play::cutoff`, never a
//! panic, within seconds.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::common::binary::{puz, stderr, stdout};

/// A game with objects Background, Wall, Player, Crate, A, B, C (legend `1` A, `2` B),
/// the push rule and `rules` after it, and `level`.
fn game(rules: &str, level: &str) -> String {
    format!(
        "title t\n\n\
         ========\nOBJECTS\n========\n\n\
         Background\nblack\n\nWall\nbrown\n\nPlayer\nblue\n\nCrate\norange\n\n\
         A\nwhite\n\nB\ngreen\n\nC\nyellow\n\n\
         =======\nLEGEND\n=======\n\n\
         . = Background\n# = Wall\nP = Player\n* = Crate\n1 = A\n2 = B\n\n\
         =======\nSOUNDS\n=======\n\n\
         ================\nCOLLISIONLAYERS\n================\n\n\
         Background\nPlayer, Wall, Crate\nA, B, C\n\n\
         ======\nRULES\n======\n\n\
         [ > Player | Crate ] -> [ > Player | > Crate ]\n{rules}\n\n\
         ==============\nWINCONDITIONS\n==============\n\n\
         =======\nLEVELS\n=======\n\n{level}\n"
    )
}

/// Writes `text` to a fresh file in the temp dir, removed when dropped.
struct TempGame(PathBuf);

impl TempGame {
    fn new(name: &str, text: &str) -> TempGame {
        let p = std::env::temp_dir().join(format!("puz-ps-{name}-{}.txt", std::process::id()));
        std::fs::write(&p, text).expect("write the game");
        TempGame(p)
    }
    fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temp path")
    }
}

impl Drop for TempGame {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Runs `puz`, asserting its exit code, no panic, and that it took less than `secs`.
fn run(args: &[&str], code: i32, secs: u64) -> (String, String) {
    let t0 = Instant::now();
    let o = puz(args);
    let took = t0.elapsed();
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(!err.contains("panicked"), "puz {args:?} panicked:\n{err}");
    assert_eq!(
        o.status.code(),
        Some(code),
        "puz {args:?}\nstdout:\n{out}\nstderr:\n{err}"
    );
    assert!(
        took < Duration::from_secs(secs),
        "puz {args:?} took {took:?}"
    );
    (out, err)
}

/// The line of `rule` in `text`, from 1.
fn line_of(text: &str, rule: &str) -> usize {
    text.lines()
        .position(|l| l.trim() == rule)
        .expect("the rule")
        + 1
}

#[test]
fn puzzlescript_play_says_why_inputs_change_nothing() {
    let cancel = "[ > Player | A ] -> cancel";
    let text = game(cancel, "#####\n#P*#1\n#####");
    let g = TempGame::new("why", &text);
    let push = "the player at 1,1 cannot move right: the crate at 2,1 is in the way, \
                and the crate cannot move right: the wall at 3,1 is in the way";
    // The last input changed nothing: why, after the oracle's lines.
    let (out, _) = run(&["play", g.path(), "--inputs", "r"], 0, 30);
    assert_eq!(out, format!("no win\nrefused: input 1 (right): {push}\n"));
    // With --why, every input that changed nothing; the last one here moved.
    let (out, _) = run(&["play", g.path(), "--inputs", "rxul", "--why"], 0, 30);
    assert_eq!(
        out,
        format!(
            "no win\nrefused: input 1 (right): {push}\n\
             refused: input 2 (action): nothing moved and no rule changed anything\n\
             refused: input 3 (up): the player at 1,1 cannot move up: the wall at 1,0 is in the way\n\
             refused: input 4 (left): the player at 1,1 cannot move left: the wall at 0,1 is in the way\n"
        )
    );
    let (out, _) = run(&["play", g.path(), "--inputs", "rr", "--json"], 0, 30);
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["stuck"], serde_json::Value::Null, "{v}");
    let refused = v["refused"].as_array().expect("refused");
    assert_eq!(refused.len(), 1, "{v}");
    assert_eq!(refused[0]["input"], 2);
    assert_eq!(refused[0]["key"], "right");
    assert_eq!(refused[0]["why"]["kind"], "blocked");
    assert_eq!(refused[0]["why"]["chain"][1]["by"]["name"], "wall");
    assert_eq!(refused[0]["why"]["chain"][1]["by"]["at"]["x"], 3);
    assert_eq!(refused[0]["message"], push);
    // A cancel rule, named by its line.
    let text = game(cancel, "P1");
    let g = TempGame::new("why-cancel", &text);
    let line = line_of(&text, cancel);
    let (out, _) = run(&["play", g.path(), "--inputs", "r", "--json"], 0, 30);
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["refused"][0]["why"]["kind"], "cancelled", "{v}");
    assert_eq!(v["refused"][0]["why"]["rule"]["line"], line, "{v}");
    assert_eq!(v["refused"][0]["why"]["rule"]["text"], cancel, "{v}");
}

/// Every A becomes B and every B becomes A, each turn, with `again`: a cycle.
const SWAP: [&str; 3] = [
    "[ A ] -> [ C ]",
    "[ B ] -> [ A ] again",
    "[ C ] -> [ B ] again",
];

#[test]
fn puzzlescript_play_reports_again_turns_that_never_settle() {
    let text = game(&SWAP.join("\n"), "P.12");
    let g = TempGame::new("stuck", &text);
    let lines: Vec<String> = SWAP.iter().map(|r| line_of(&text, r).to_string()).collect();
    let (out, err) = run(&["play", g.path(), "--inputs", "rrl"], 0, 30);
    // The oracle's line (`replay` says the same), then why.
    assert!(
        out.starts_with(
            "stuck after 1: again-cycle (the engine keeps running again turns; no input is accepted)\nno win\nwhy: "
        ),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "the rules on lines {} keep firing",
            lines.join(", ")
        )),
        "{out}"
    );
    assert!(err.contains("puz::ps::never_settles"), "{err}");
    assert!(
        words(&err).contains("after input 1, the again turns never settle"),
        "{err}"
    );
    for r in SWAP {
        assert!(err.contains(r), "the report shows `{r}`:\n{err}");
    }
    assert!(
        err.contains("fired in 64 of the 64 again turns watched"),
        "{err}"
    );
    let (out, _) = run(&["play", g.path(), "--inputs", "rrl", "--json"], 0, 30);
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["applied"], 1, "{v}");
    assert_eq!(v["stuck"]["after"], 1, "{v}");
    assert_eq!(v["stuck"]["how"], "again-cycle", "{v}");
    let got: Vec<usize> = v["stuck"]["why"]["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .map(|r| r["rule"]["line"].as_u64().unwrap() as usize)
        .collect();
    let want: Vec<usize> = SWAP.iter().map(|r| line_of(&text, r)).collect();
    assert_eq!(got, want, "{v}");
}

/// A `rows` x `cols` level of A, the player in its corner.
fn big_level(rows: usize, cols: usize) -> String {
    let row = "1".repeat(cols);
    let mut level = vec![row; rows].join("\n");
    level.replace_range(0..1, "P");
    level
}

/// The report's words, whatever the width it wraps at.
fn words(err: &str) -> String {
    err.replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn assert_cut(err: &str, limit: &str) {
    let err = &words(err);
    assert!(err.contains("puz::play::cutoff"), "{err}");
    assert!(err.contains(limit), "{err}");
    assert!(err.contains("inputs played to their end"), "{err}");
}

#[test]
fn puzzlescript_play_stops_a_huge_level_at_its_budget() {
    // A million cells, each rewritten 200 times a turn by a group that never settles.
    let text = game("[ A ] -> [ B ]\n+ [ B ] -> [ A ]", &big_level(1000, 1000));
    let g = TempGame::new("huge", &text);
    let (out, err) = run(
        &["play", g.path(), "--inputs", "rrr", "--timeout", "4"],
        3,
        60,
    );
    assert_eq!(out, "");
    assert_cut(&err, "the time limit was reached");
    // Reading a million cells takes a second or two in a debug build, on a busy
    // machine more: the budget may run out there already.
    let w = words(&err);
    assert!(
        w.contains("in input 1 of 3") || w.contains("while loading the game"),
        "{err}"
    );
}

#[test]
fn puzzlescript_play_stops_thousands_of_rules_at_their_budget() {
    let rules = "[ A ] -> [ B ]\n+ [ B ] -> [ A ]\n".repeat(3000);
    let text = game(&rules, &big_level(100, 100));
    let g = TempGame::new("rules", &text);
    let (_, err) = run(
        &["play", g.path(), "--inputs", "rrr", "--timeout", "1"],
        3,
        60,
    );
    assert_cut(&err, "the time limit was reached");
    // Thousands of rules that each expand into hundreds (a direction for each `moving`):
    // compiling them alone outlasts the budget, and is stopped too.
    let row = ["moving Player"; 3].join(" | ");
    let rules = format!("[ {row} ] -> [ {row} ]\n").repeat(3000);
    let text = game(&rules, "P..");
    let g = TempGame::new("expand", &text);
    let (_, err) = run(
        &["play", g.path(), "--inputs", "r", "--timeout", "1"],
        3,
        60,
    );
    assert_cut(&err, "the time limit was reached");
    assert!(words(&err).contains("while loading the game"), "{err}");
}

#[test]
fn puzzlescript_play_stops_a_long_again_chain_at_its_budget() {
    // Again turns that never settle on a big level: each is slow, so the budget (checked
    // inside the chain) runs out before 64 of them.
    let mut level = big_level(700, 700);
    level.replace_range(level.len() - 1.., "2");
    let text = game(&SWAP.join("\n"), &level);
    let g = TempGame::new("again", &text);
    let (_, err) = run(
        &["play", g.path(), "--inputs", "r", "--timeout", "1"],
        3,
        60,
    );
    assert_cut(&err, "the time limit was reached");
}

#[test]
fn puzzlescript_play_stops_a_million_inputs_at_their_budget() {
    // Each input rewrites 2,500 cells and back: far slower than the budget allows for a
    // million, in any build. (The first rule tests the player's movement, so that the
    // engine cannot replay the rewrite as a run it remembers: `engine/late.rs`.)
    let text = game(
        "[ moving Player ] [ A ] -> [ moving Player ] [ B ]\n[ B ] -> [ A ]",
        &big_level(50, 50),
    );
    let g = TempGame::new("million", &text);
    let moves: String = (0..1_000_000)
        .map(|i| ['u', 'l', 'd', 'r'][(i * 7 + i / 3) % 4])
        .collect();
    let inputs = TempGame::new("million-inputs", &moves);
    let (_, err) = run(
        &[
            "play",
            g.path(),
            "--inputs-file",
            inputs.path(),
            "--timeout",
            "2",
        ],
        3,
        60,
    );
    assert_cut(&err, "the time limit was reached");
    // It stopped between inputs, well into the list.
    assert!(!words(&err).contains("in input 1 of"), "{err}");
    // A small list plays out under the same budget, read from the file too.
    let few = TempGame::new("few-inputs", "r r d\nd");
    let (out, _) = run(
        &["play", g.path(), "--inputs-file", few.path(), "--json"],
        0,
        30,
    );
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["applied"], 4, "{v}");
    // A typo in the file names the file.
    let bad = TempGame::new("bad-inputs", "r r q");
    let (_, err) = run(&["play", g.path(), "--inputs-file", bad.path()], 2, 30);
    assert!(
        words(&err).contains("`q` is not an input (at byte 4 of"),
        "{err}"
    );
    // The memory limit.
    let (_, err) = run(
        &["play", g.path(), "--inputs", "rrdd", "--max-memory", "1"],
        3,
        30,
    );
    assert_cut(&err, "the memory limit of 1 MiB was reached");
}
