//! Dead positions: states where a goal piece cannot reach a goal even moving alone (with
//! the pieces a move requires kept at their offsets) are never stored by the solve
//! searches, and that never changes an answer or a "no solution" verdict; `analyze`
//! still counts every state.
//!
//! - Boxes that block each other's every push (frozen) off the goals are dead too.
//! - A box in a corner off the goals is dead in Sokoban, derived from the rules: the push
//!   needs the man behind the box. Renaming every piece and tile keeps it; a rule set
//!   where the man pulls boxes instead makes corners live again.
//! - On seeded random rooms, BFS, Dijkstra and A* with pruning give the path of a plain
//!   search run here with no pruning, and the same verdict when there is none.

use crate::common::binary;
#[allow(dead_code)]
use crate::common::sokoban;

use binary::{puz, stdout, TempFile};
use puz::engine::{Expander, Level};
use puz::search::{self, Budget, CostTable, Outcome, Stats};
use puz::solver::{solve_opts, EngineChoice, SearchChoice, SolveOptions};
use puz::Puzzle;

use puz::search::Backend;

fn load_text(name: &str, text: String) -> Puzzle {
    Puzzle::load(name, text).unwrap_or_else(|d| panic!("{name}: {}", d.render_plain(80)))
}

fn boxes_rules() -> String {
    std::fs::read_to_string("puzzles/sokoban-boxes.puz").expect("read")
}

/// The cost table of the model, as the solver builds it.
fn table(p: &Puzzle) -> CostTable {
    puz::solver::cost_table(&p.model)
}

fn level(p: &Puzzle, text: &str) -> Level {
    p.level_from_file("level", text.to_string())
        .unwrap_or_else(|d| panic!("{}\n{text}", d.render_plain(80)))
}

fn run(p: &Puzzle, text: &str, search: SearchChoice) -> (Option<String>, Stats) {
    let opts = SolveOptions {
        engine: EngineChoice::Interp,
        search,
        budget: Budget::default(),
        need_path: true,
        ..Default::default()
    };
    let ans = solve_opts(&p.model, level(p, text), &opts).expect("solve");
    let found = match &ans.outcome {
        Outcome::Solved(path) => Some(path.actions.iter().map(|&a| p.model.letter(a)).collect()),
        Outcome::Unsolvable => None,
        other => panic!("{other:?}"),
    };
    (found, ans.stats)
}

/// The plain search (no pruning, no bound): BFS for unit costs, else Dijkstra.
fn plain(p: &Puzzle, text: &str) -> (Option<String>, Stats) {
    let mut exp = Expander::new(&p.model, level(p, text), &Budget::default()).expect("setup");
    let t = table(p);
    let (out, stats) = if t.unit() {
        search::bfs(&mut exp, &Budget::default())
    } else {
        search::dijkstra(&mut exp, &Budget::default(), &t)
    };
    let found = match &out {
        Outcome::Solved(path) => Some(path.actions.iter().map(|&a| p.model.letter(a)).collect()),
        Outcome::Unsolvable => None,
        other => panic!("{other:?}"),
    };
    (found, stats)
}

/// One box in the top-left corner, off the goal, in a room the man can roam.
const CORNER: &str = "######\n#$   #\n#  @ #\n#   .#\n######\n";

#[test]
fn a_box_in_a_corner_is_dead_and_nothing_is_stored_past_the_start() {
    let p = load_text("boxes", boxes_rules());
    for search in [
        SearchChoice::Auto,
        SearchChoice::Backend(Backend::Dijkstra),
        SearchChoice::Backend(Backend::Astar),
    ] {
        let (found, stats) = run(&p, CORNER, search);
        assert_eq!(found, None, "{search:?}");
        assert_eq!(stats.stored, 1, "{search:?}: only the start is stored");
    }
    // Without pruning every place of the man is visited.
    let (found, stats) = plain(&p, CORNER);
    assert_eq!(found, None);
    assert!(stats.stored > 10, "{}", stats.stored);
}

/// Two boxes side by side against the top wall, off the goals: each could reach a goal on
/// that row alone, but each push needs the cell the other holds.
const FROZEN: &str = "#######\n#.$$ .#\n#  @  #\n#     #\n#######\n";

#[test]
fn boxes_that_block_each_other_are_frozen_and_nothing_is_stored_past_the_start() {
    let p = load_text("boxes", boxes_rules());
    let (want, plain_stats) = plain(&p, FROZEN);
    assert_eq!(want, None);
    assert!(plain_stats.stored > 10);
    for search in [
        SearchChoice::Auto,
        SearchChoice::Backend(Backend::Dijkstra),
        SearchChoice::Backend(Backend::Astar),
    ] {
        let (found, stats) = run(&p, FROZEN, search);
        assert_eq!(found, None, "{search:?}");
        assert_eq!(stats.stored, 1, "{search:?}: only the start is stored");
    }
    // One box alone on that row is not frozen: it reaches the goal at the end.
    let one = FROZEN
        .replacen("$$ ", " $ ", 1)
        .replacen(".#\n#  @", " #\n#  @", 1);
    let (found, _) = run(&p, &one, SearchChoice::Auto);
    assert_eq!(found, plain(&p, &one).0);
    assert!(found.is_some(), "{one}");
}

#[test]
fn dead_corners_come_from_the_rules_not_from_names() {
    let renamed = boxes_rules()
        .replace("piece man", "piece hero")
        .replace("piece box", "piece crate")
        .replace("box at man", "crate at hero")
        .replace("shift box", "shift crate")
        .replace("shift man", "shift hero")
        .replace("forbid man", "forbid hero")
        .replace("forbid box on wall", "forbid crate on rock")
        .replace("forbid hero on wall", "forbid hero on rock")
        .replace("goal box on goal", "goal crate on spot")
        .replace("marks { goal }", "marks { spot }")
        .replace("tiles { floor wall }", "tiles { floor rock }")
        .replace("outside wall", "outside rock")
        .replace("'#' wall", "'#' rock")
        .replace("+ box", "+ crate")
        .replace("+ man", "+ hero")
        .replace("+ goal", "+ spot")
        .replace(
            "look { wall #556  floor #eed  box #c72  goal #2a2 }",
            "look { rock #556  floor #eed  crate #c72  spot #2a2 }",
        );
    let p = load_text("renamed", renamed);
    let (found, stats) = run(&p, CORNER, SearchChoice::Auto);
    assert_eq!(found, None);
    assert_eq!(stats.stored, 1);
}

#[test]
fn a_man_who_pulls_can_free_a_corner_box() {
    // The man pulls the box behind him instead of pushing it: the box ends where he
    // stood, so a box in a corner can leave it. Nothing may be pruned as dead there.
    let pull = boxes_rules().replace(
        "  require box at man + d      // binds the box in front; it is the one that moves\n  shift box d\n  shift man d",
        "  require box at man - d\n  shift man d\n  shift box d",
    );
    assert!(
        pull.contains("require box at man - d"),
        "the rules changed shape"
    );
    let p = load_text("pull", pull);
    let level = "######\n#$   #\n#  @ #\n#  . #\n#    #\n######\n";
    let (found, _) = run(&p, level, SearchChoice::Auto);
    let (want, _) = plain(&p, level);
    assert!(want.is_some(), "the pulled box reaches its goal");
    assert_eq!(found, want);
}

#[test]
fn analyze_still_counts_every_state() {
    let level = TempFile::new("deadcells", CORNER);
    let out = puz(&[
        "analyze",
        "puzzles/sokoban-boxes.puz",
        level.path(),
        "--json",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    let p = load_text("boxes", boxes_rules());
    let (_, stats) = plain(&p, CORNER);
    assert_eq!(v["reachable_states"].as_u64(), Some(stats.stored));
    assert!(stats.stored > 1);
}

#[test]
fn pruning_never_changes_an_answer_or_a_verdict() {
    let p = load_text("boxes", boxes_rules());
    let unit_rules = boxes_rules()
        .replace("cost pushes, walks", "cost moves")
        .replace("adds walks", "adds moves")
        .replace("adds pushes", "adds moves")
        .replace("expect 8, 25", "expect 33")
        .replace("expect 3, 13", "expect 16");
    let unit = load_text("moves", unit_rules);
    let mut rng = fastrand::Rng::with_seed(0xdead_ce11);
    let (mut solved, mut none, mut pruned) = (0, 0, 0);
    for i in 0..300 {
        let boxes = rng.usize(1..=3);
        let text = sokoban::room(&mut rng, boxes, 6);
        let (want, plain_stats) = plain(&p, &text);
        for search in [
            SearchChoice::Backend(Backend::Dijkstra),
            SearchChoice::Backend(Backend::Astar),
        ] {
            let (found, stats) = run(&p, &text, search);
            assert_eq!(found, want, "#{i} {search:?}\n{text}");
            if stats.stored < plain_stats.stored {
                pruned += 1;
            }
        }
        let (want_unit, _) = plain(&unit, &text);
        let (found_unit, _) = run(&unit, &text, SearchChoice::Backend(Backend::Bfs));
        assert_eq!(found_unit, want_unit, "#{i} bfs\n{text}");
        if want.is_some() {
            solved += 1;
        } else {
            none += 1;
        }
    }
    // Random boxes are often stuck for good: most rooms have no solution.
    assert!(
        solved > 50 && none > 30 && pruned > 50,
        "solved {solved}, none {none}, pruned {pruned}"
    );
}
