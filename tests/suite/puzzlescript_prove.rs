//! `scripts/prove-puzzlescript --sample` under the test suite: puz solves a fixed sample
//! of PuzzleScript's demo levels (this build's binary, a debug one under `cargo test`),
//! PuzzleScript's own engine replays every answer through the node oracle
//! (`../shared/puzzlescript/oracle/psoracle.js`), and the oracle's exact BFS must find the
//! same fewest inputs.
//!
//! It needs node, python3 and the reference folder; without them it is skipped with a
//! note, and fails when the environment variable `CI` is set (`.ci/run` installs node).
//!
//! The bugs the proof found are kept here as small games checked without node, each with
//! what PuzzleScript's engine says of it.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use puz::puzzlescript::{solve_level, Game, PsOutcome, PsSolveOptions};
use puz::search::Backend;

use crate::common::ps_data;

/// Whether `program --version` runs.
fn runs(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn sample_answers_replay_and_agree_in_puzzlescripts_engine() {
    let Some(_reference) = ps_data::reference_or_skip("puzzlescript_prove") else {
        return;
    };
    for program in ["node", "python3"] {
        if !runs(program) {
            assert!(
                std::env::var_os("CI").is_none(),
                "puzzlescript_prove: {program} is missing (CI is set, so this fails)"
            );
            eprintln!("note: puzzlescript_prove skipped: {program} is missing");
            return;
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("prove-puzzlescript-sample");
    // A debug build sharing two cores with the rest of the suite: the sample's levels
    // take about a second each, so a budget hit here means a search gone wrong.
    let run = Command::new("python3")
        .arg(root.join("scripts/prove-puzzlescript"))
        .args([
            "--sample",
            "--quiet",
            "--timeout",
            "60",
            "--oracle-seconds",
            "120",
        ])
        .arg("--puz")
        .arg(env!("CARGO_BIN_EXE_puz"))
        .arg("--out")
        .arg(&out)
        .current_dir(root)
        .output()
        .expect("run scripts/prove-puzzlescript");
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        run.status.success(),
        "prove-puzzlescript --sample failed:\n{report}"
    );
    let results: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("results.json")).expect("results.json"),
    )
    .expect("results.json is JSON");
    let levels = results["levels"].as_array().expect("levels");
    assert!(!levels.is_empty(), "an empty sample:\n{report}");
    for level in levels {
        let what = format!("{} level {}", level["game"], level["level"]);
        let status = level["puz"]["status"].as_str().unwrap_or("");
        if status == "refused" {
            continue;
        }
        assert!(
            matches!(status, "solved" | "unsolvable"),
            "{what}: puz {status}:\n{report}"
        );
        if status == "solved" {
            assert_eq!(level["replay_ok"], true, "{what}: no replay:\n{report}");
        }
        assert_eq!(
            level["agree"], true,
            "{what}: the oracle's BFS did not confirm the optimum:\n{report}"
        );
    }
    assert!(
        levels.iter().any(|l| l["puz"]["status"] == "refused"),
        "the sample has a game puz refuses (randomness):\n{report}"
    );
}

/// A level won as it loads: the rules run on level start sprout the seed and ask for an
/// again turn, whose rules grow it and `win` (a `win` in the start turn itself would not
/// count: PuzzleScript runs that turn with wins ignored). Reduced from cratopia's entries
/// 21-23, where puz found a one-input answer and then refused it ("won before input 1").
/// PuzzleScript's engine: `replay won.txt 0 ""` prints `win after 0`, and
/// `bfs won.txt 0` prints `optimal: 0`.
const WON_AS_IT_LOADS: &str = "\
title Won as it loads
run_rules_on_level_start

========
OBJECTS
========

Background
black

Player
green

Seed
yellow

Sprout
orange

Tree
darkgreen

=======
LEGEND
=======

. = Background
P = Player
S = Seed

=======
SOUNDS
=======

================
COLLISIONLAYERS
================

Background
Seed, Sprout, Tree
Player

======
RULES
======

[ Sprout ] -> [ Tree ]
[ Seed ] -> [ Sprout ] again
[ Tree ] -> [ Tree ] win

==============
WINCONDITIONS
==============

=======
LEVELS
=======

PS.
";

#[test]
fn a_level_won_as_it_loads_is_solved_with_no_input() {
    let (game, _) = Game::load("won.txt", Arc::new(WON_AS_IT_LOADS.to_string())).unwrap();
    for search in [
        None,
        Some(Backend::Bfs),
        Some(Backend::Astar),
        Some(Backend::Dijkstra),
        Some(Backend::Iddfs),
    ] {
        let opts = PsSolveOptions {
            search,
            ..PsSolveOptions::default()
        };
        let sol = solve_level(&game, 0, &opts).unwrap_or_else(|e| panic!("{search:?}: {e}"));
        assert_eq!(sol.outcome, PsOutcome::Solved, "{search:?}");
        assert_eq!(sol.cost, Some(0), "{search:?}");
        assert_eq!(sol.inputs, "", "{search:?}");
        assert!(sol.verified && sol.steps.is_empty(), "{search:?}");
    }
}
