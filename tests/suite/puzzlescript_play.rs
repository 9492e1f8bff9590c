//! `puz play` on PuzzleScript's demo games, against the oracle's `replay`.
//!
//! The expected outputs were captured from the oracle over PuzzleScript's unmodified
//! engine (`node ../shared/puzzlescript/oracle/psoracle.js replay GAME LEVEL MOVES`) and
//! are written here as literals: the tests never run node. The winning inputs are the
//! oracle's `bfs` solutions (33 inputs for level 0 of sokoban_basic, 16 for level 1).
//! Without the reference folder the tests are skipped with a note (and fail under `CI`).

use crate::common::binary::{puz, stderr, stdout};
use crate::common::ps_data;

const SOKOBAN: &str = "../shared/puzzlescript/src/demo/sokoban_basic.txt";
const MICROBAN: &str = "../shared/puzzlescript/src/demo/microban.txt";

/// The oracle's `bfs` solution of sokoban_basic level 0 (33 inputs).
const SOLUTION_0: &str = "dlurrrdlullddruluruuldrddrruldluu";

/// `replay sokoban_basic.txt 0 dlurrrdlullddruluruuldrddrruldluu`.
const WON_0: &str = "\
win after 33
final level serialization (convertLevelToString):
background wall:0,0,0,0,0,0,
0,0,background:1,1,background crate target:2,1,
1,0,0,2,background player:3,1,
1,1,0,0,0,0,
1,1,0,0,1,1,
0,1,1,0,1,1,
1,0,0,0,0,1,
";

/// `replay sokoban_basic.txt 0 dlurrrdlullddruluruuldrddrruldluurr`.
const WON_0_EXTRA: &str = "\
win after 33
(2 input(s) after the win not applied)
final level serialization (convertLevelToString):
background wall:0,0,0,0,0,0,
0,0,background:1,1,background crate target:2,1,
1,0,0,2,background player:3,1,
1,1,0,0,0,0,
1,1,0,0,1,1,
0,1,1,0,1,1,
1,0,0,0,0,1,
";

/// `replay sokoban_basic.txt 0 "dlurrrz zRd"`: undo and restart.
const UNDO_RESTART_0: &str = "\
no win
final level serialization (convertLevelToString):
background wall:0,0,0,0,0,0,
0,0,background:1,1,background crate target:2,1,
1,0,0,background target:3,1,1,
background player:4,1,0,0,0,0,
1,background crate:5,0,0,1,1,
0,1,1,0,1,1,
1,0,0,0,0,1,
";

/// `replay sokoban_basic.txt 1 uuuuxdd.z`: walls, action, a tick, an undo.
const LEVEL_1: &str = "\
no win
final level serialization (convertLevelToString):
background wall:0,0,0,0,0,0,
0,0,background:1,1,1,1,
1,0,0,1,0,background crate:2,
background target:3,1,0,0,background player:4,1,
background crate target:5,5,1,0,0,1,
1,1,1,1,0,0,
0,0,0,0,0,0,
";

/// `replay microban.txt 3 rddlruulduullddr`: entry 3 is its second level (#2), after
/// the messages at 0 and 2.
const MICROBAN_3: &str = "\
win after 16
final level serialization (convertLevelToString):
background wall:0,0,0,0,0,0,
0,0,background:1,1,1,1,
1,0,0,1,0,background player:2,
background crate target:3,1,0,0,1,1,
3,3,1,0,0,1,
1,1,1,1,0,0,
0,0,0,0,0,0,
";

fn reference(test: &str) -> bool {
    ps_data::reference_or_skip(test).is_some()
}

/// Runs `puz` and asserts its exit code and that it did not panic.
fn run(args: &[&str], code: i32) -> (String, String) {
    let o = puz(args);
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(!err.contains("panicked"), "puz {args:?} panicked:\n{err}");
    assert_eq!(
        o.status.code(),
        Some(code),
        "puz {args:?}\nstdout:\n{out}\nstderr:\n{err}"
    );
    (out, err)
}

#[test]
fn puzzlescript_play_wins_as_the_oracle_does() {
    if !reference("puzzlescript_play_wins_as_the_oracle_does") {
        return;
    }
    let (out, _) = run(
        &[
            "play",
            SOKOBAN,
            "--level",
            "0",
            "--inputs",
            SOLUTION_0,
            "--print-level",
        ],
        0,
    );
    assert_eq!(out, WON_0);
    // Inputs after the win are not played (OnWin::Stop).
    let extra = format!("{SOLUTION_0}rr");
    let (out, _) = run(&["play", SOKOBAN, "--inputs", &extra, "--print-level"], 0);
    assert_eq!(out, WON_0_EXTRA);
    // Without --print-level, the verdict alone.
    let (out, _) = run(&["play", SOKOBAN, "--inputs", SOLUTION_0], 0);
    assert_eq!(out, "win after 33\n");
    // The word form is the same inputs.
    let words: Vec<&str> = SOLUTION_0
        .chars()
        .map(|c| match c {
            'u' => "up",
            'l' => "left",
            'd' => "down",
            _ => "right",
        })
        .collect();
    let (out, _) = run(
        &[
            "play",
            SOKOBAN,
            "--inputs",
            &words.join(", "),
            "--print-level",
        ],
        0,
    );
    assert_eq!(out, WON_0);
}

#[test]
fn puzzlescript_play_undo_restart_tick_action() {
    if !reference("puzzlescript_play_undo_restart_tick_action") {
        return;
    }
    let (out, _) = run(
        &["play", SOKOBAN, "--inputs", "dlurrrz zRd", "--print-level"],
        0,
    );
    assert_eq!(out, UNDO_RESTART_0);
    let (out, _) = run(
        &[
            "play",
            SOKOBAN,
            "--level",
            "1",
            "--inputs",
            "up up up up action down down tick undo",
            "--print-level",
        ],
        0,
    );
    assert_eq!(out, LEVEL_1);
    let (out, _) = run(
        &["play", SOKOBAN, "--level", "#2", "--inputs", "uuuuxdd.z"],
        0,
    );
    assert_eq!(out, "no win\n");
}

#[test]
fn puzzlescript_play_numbers_levels_as_puzzlescript() {
    if !reference("puzzlescript_play_numbers_levels_as_puzzlescript") {
        return;
    }
    let solution = "rddlruulduullddr";
    for level in ["3", "#2"] {
        let (out, _) = run(
            &[
                "play",
                MICROBAN,
                "--level",
                level,
                "--inputs",
                solution,
                "--print-level",
            ],
            0,
        );
        assert_eq!(out, MICROBAN_3, "--level {level}");
    }
    // Without --level: the first playable level, entry 1 (after a message).
    let (out, _) = run(&["play", MICROBAN, "--inputs", SOLUTION_0], 0);
    assert_eq!(out, "win after 33\n");
}

#[test]
fn puzzlescript_play_json() {
    if !reference("puzzlescript_play_json") {
        return;
    }
    let extra = format!("{SOLUTION_0}rr");
    let (out, _) = run(&["play", SOKOBAN, "--inputs", &extra, "--json"], 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["won"], true, "{v}");
    assert_eq!(v["won_after"], 33, "{v}");
    assert_eq!(v["level"], 0, "{v}");
    assert_eq!(v["inputs"], extra.as_str(), "{v}");
    assert_eq!(v["applied"], 33, "{v}");
    let want = WON_0.split_once("(convertLevelToString):\n").unwrap().1;
    let got = v["serialization"].as_str().expect("a string");
    assert_eq!(got.trim_end_matches('\n'), want.trim_end_matches('\n'));
    let (out, _) = run(&["play", SOKOBAN, "--inputs", "u", "--json"], 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(
        (v["won"].clone(), v["won_after"].clone()),
        (false.into(), serde_json::Value::Null)
    );
}

/// A bad input is reported before the game is read: with its position, exit 2.
#[test]
fn puzzlescript_play_bad_input_names_its_position() {
    if !reference("puzzlescript_play_bad_input_names_its_position") {
        return;
    }
    let (out, err) = run(&["play", SOKOBAN, "--inputs", "uldq"], 2);
    assert_eq!(out, "");
    assert!(err.contains("puz::play::bad_input"), "{err}");
    assert!(
        err.contains("`q` is not an input (at byte 3 of --inputs)"),
        "{err}"
    );
    let (_, err) = run(&["play", SOKOBAN, "--inputs", "up down lfet"], 2);
    assert!(err.contains("`lfet` is not an input (at byte 8"), "{err}");
    // Usage errors of --level are clap's (exit 2).
    let (_, err) = run(&["play", SOKOBAN, "--level", "#0"], 2);
    assert!(err.contains("counts the playable levels from 1"), "{err}");
    let (_, err) = run(&["play", SOKOBAN, "--level", "first"], 2);
    assert!(err.contains("give an entry index"), "{err}");
}

#[test]
fn puzzlescript_play_refuses_missing_levels_and_other_files() {
    if !reference("puzzlescript_play_refuses_missing_levels_and_other_files") {
        return;
    }
    let (out, err) = run(&["play", SOKOBAN, "--level", "2", "--inputs", "u"], 2);
    assert_eq!(out, "");
    assert!(err.contains("puz::play::no_such_level"), "{err}");
    // The report wraps at the terminal's width: compare its words.
    let words = err
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(words.contains("has no level 2 (it has 2 entries)"), "{err}");
    let (_, err) = run(&["play", SOKOBAN, "--level", "#3"], 2);
    assert!(err.contains("has no level #3"), "{err}");
    let (_, err) = run(&["play", MICROBAN, "--level", "0"], 2);
    assert!(err.contains("puz::play::message_entry"), "{err}");
    assert!(err.contains("entry 0 of"), "{err}");
    // A .puz file is not a PuzzleScript game.
    let (_, err) = run(&["play", "puzzles/sokoban.puz", "--inputs", "u"], 2);
    assert!(err.contains("puz::play::not_puzzlescript"), "{err}");
    let (_, err) = run(&["play", "no/such/game.txt"], 2);
    assert!(err.contains("puz::input::unreadable"), "{err}");
}

#[test]
fn puzzlescript_check_reads_games_and_other_commands_refuse_them_clearly() {
    if !reference("puzzlescript_check_reads_games_and_other_commands_refuse_them_clearly") {
        return;
    }
    let (out, _) = run(&["check", SOKOBAN], 0);
    assert_eq!(
        out,
        format!("{SOKOBAN}: ok (PuzzleScript: 5 objects, 3 layers, 4 rules in 1 group, 1 win condition, 2 levels)\n")
    );
    // Forced as .puz, it is .puz syntax errors.
    let (_, err) = run(&["check", SOKOBAN, "--lang", "puz"], 1);
    assert!(err.contains("puz::syntax"), "{err}");
    // A broken game is a coded PuzzleScript diagnostic.
    let broken = std::env::temp_dir().join(format!("puz-ps-broken-{}.txt", std::process::id()));
    let text = std::fs::read_to_string(SOKOBAN)
        .unwrap()
        .replace("[ > Player | Crate ]", "[ > Player | Crates ]");
    std::fs::write(&broken, text).unwrap();
    let (_, err) = run(&["check", broken.to_str().unwrap()], 1);
    assert!(err.contains("puz::ps::unknown_name"), "{err}");
    assert!(err.contains("`crates` is not declared"), "{err}");
    let _ = std::fs::remove_file(&broken);
    // Solving reads games too (tested in `puzzlescript_solve`); forced as .puz, a game
    // is refused with the option that reads it.
    let (out, _) = run(&["solve", SOKOBAN], 0);
    assert!(out.contains("cost: 33 inputs"), "{out}");
    let (_, err) = run(&["solve", SOKOBAN, "--lang", "puz"], 2);
    assert!(err.contains("puz::ps::read_as_puz"), "{err}");
    assert!(err.contains("--lang puzzlescript"), "{err}");
}

/// Every demo game loads without errors (PuzzleScript compiles them all), and the ones
/// that use randomness say so.
#[test]
fn puzzlescript_every_demo_loads() {
    let Some(root) = ps_data::reference_or_skip("puzzlescript_every_demo_loads") else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(root.join("src/demo"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 94);
    let mut random = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        match puz::puzzlescript::Game::load(&f.display().to_string(), std::sync::Arc::new(text)) {
            Ok((g, _)) => random += usize::from(g.is_random()),
            Err(d) => panic!(
                "{}: {:?}",
                f.display(),
                d.problems.first().map(|p| p.to_string())
            ),
        }
    }
    assert_eq!(random, 18, "the demos that use randomness");
}

/// A rule whose ambiguous movements multiply past the cap is a diagnostic, not a
/// compile that runs out of memory.
#[test]
fn puzzlescript_rule_expansion_is_capped() {
    let game = |cells: usize| {
        let row = vec!["moving Player"; cells].join(" | ");
        format!(
            "title t\n\nOBJECTS\n\nBackground\nblack\n\nPlayer\nwhite\n\nLEGEND\n\n. = Background\nP = Player\n\n\
             SOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nPlayer\n\nRULES\n\n[ {row} ] -> [ {row} ]\n\nWINCONDITIONS\n\nLEVELS\n\n.P.\n"
        )
    };
    let t0 = std::time::Instant::now();
    let err = puz::puzzlescript::Game::load("t.txt", std::sync::Arc::new(game(9))).unwrap_err();
    let first = err
        .problems
        .first()
        .map(|p| p.to_string())
        .unwrap_or_default();
    assert!(
        first.contains("expands into more than 4096 concrete rules"),
        "{first}"
    );
    assert!(
        t0.elapsed().as_secs() < 20,
        "the cap must stop the expansion early"
    );
    // Two cells expand (and load) as PuzzleScript expands them.
    assert!(puz::puzzlescript::Game::load("t.txt", std::sync::Arc::new(game(2))).is_ok());
}
