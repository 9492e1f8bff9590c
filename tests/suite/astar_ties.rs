//! A* follows the tie rule: on seeded random levels of several puzzles, `--search astar`
//! (guided by the bounds derived from the rules, with dead-position pruning) returns
//! exactly the path of a plain search run here on a bare expander, with no bound and no
//! pruning: Dijkstra for cost vectors (Sokoban with one box and with many), BFS for unit
//! costs (Bloxorz, Sokoban counted in moves). Same cost, same letters, same verdict when
//! there is no solution. `--search auto` on cost vectors picks A* and gives the same.
//! Bidirectional answers, which break ties otherwise, say so.

use crate::common;

use crate::common::binary;

use puz::engine::{Expander, Level};
use puz::search::{self, Budget, CostTable, Outcome};
use puz::solver::{solve_opts, EngineChoice, SearchChoice, SolveOptions};
use puz::Puzzle;

use puz::search::Backend;

fn load(path: &str) -> Puzzle {
    let text = std::fs::read_to_string(path).expect("read");
    Puzzle::load(path, text).unwrap_or_else(|d| panic!("{path}: {}", d.render_plain(80)))
}

/// The cost table of the model, as the solver builds it.
fn table(p: &Puzzle) -> CostTable {
    puz::solver::cost_table(&p.model)
}

fn letters(p: &Puzzle, out: &Outcome) -> Option<String> {
    match out {
        Outcome::Solved(path) => Some(path.actions.iter().map(|&a| p.model.letter(a)).collect()),
        Outcome::Unsolvable => None,
        other => panic!("unbudgeted search gave {other:?}"),
    }
}

/// The plain search's answer: BFS for unit costs, Dijkstra otherwise, on an expander
/// with no bound and no pruning.
fn plain(p: &Puzzle, level: Level) -> Option<String> {
    let mut exp = Expander::new(&p.model, level, &Budget::default()).expect("setup");
    let t = table(p);
    let budget = Budget {
        max_depth: p.model.limit,
        ..Budget::default()
    };
    let (out, _) = if t.unit() {
        search::bfs(&mut exp, &budget)
    } else {
        search::dijkstra(&mut exp, &budget, &t)
    };
    letters(p, &out)
}

fn solved_with(p: &Puzzle, level: Level, search: SearchChoice) -> (Option<String>, &'static str) {
    let opts = SolveOptions {
        engine: EngineChoice::Interp,
        search,
        budget: Budget::default(),
        need_path: true,
        ..Default::default()
    };
    let ans = solve_opts(&p.model, level, &opts).expect("solve");
    (letters(p, &ans.outcome), ans.search)
}

/// Compares A* (and auto) with the plain search on `n` levels drawn by `gen`; returns
/// (solved, unsolvable) counts.
fn compare(
    path: &str,
    n: usize,
    seed: u64,
    gen: impl Fn(&mut fastrand::Rng) -> String,
) -> (usize, usize) {
    let p = load(path);
    let mut rng = fastrand::Rng::with_seed(seed);
    let (mut solved, mut none) = (0, 0);
    for i in 0..n {
        let text = gen(&mut rng);
        let level = || {
            p.level_from_file("random", text.clone())
                .unwrap_or_else(|d| panic!("{path} #{i}: {}\n{text}", d.render_plain(80)))
        };
        let want = plain(&p, level());
        let (astar, _) = solved_with(&p, level(), SearchChoice::Backend(Backend::Astar));
        assert_eq!(
            astar, want,
            "{path} #{i}: A* differs from the plain search\n{text}"
        );
        let (auto, ran) = solved_with(&p, level(), SearchChoice::Auto);
        assert_eq!(auto, want, "{path} #{i}: auto ({ran}) differs\n{text}");
        if !table(&p).unit() {
            assert!(
                ran == "astar" || ran == "layered",
                "{path}: auto picks layered search or A* for cost vectors, not {ran}"
            );
        }
        if want.is_some() {
            solved += 1;
        } else {
            none += 1;
        }
    }
    (solved, none)
}

#[test]
fn many_boxes_astar_matches_dijkstra_path_for_path() {
    // Random boxes are often stuck for good: most rooms have no solution.
    let (solved, none) = compare("puzzles/sokoban-boxes.puz", 400, 0xa57a_0001, |rng| {
        let boxes = rng.usize(1..=3);
        common::sokoban::room(rng, boxes, 6)
    });
    assert!(
        solved > 70 && none > 20,
        "solved {solved}, unsolvable {none}"
    );
}

#[test]
fn one_box_astar_matches_dijkstra_path_for_path() {
    let shape = common::sokoban::agreement_shape(7);
    let (solved, none) = compare("puzzles/sokoban.puz", 300, 0xa57a_0002, |rng| {
        common::sokoban::board(rng, &common::sokoban::ORIGINAL, &shape)
    });
    assert!(
        solved > 60 && none > 20,
        "solved {solved}, unsolvable {none}"
    );
}

#[test]
fn bloxorz_astar_matches_bfs_path_for_path() {
    let (solved, none) = compare("puzzles/bloxorz.puz", 250, 0xa57a_0003, |rng| {
        common::bloxorz::board(rng, 8).0
    });
    assert!(
        solved > 60 && none > 20,
        "solved {solved}, unsolvable {none}"
    );
}

/// Sokoban counted in moves (walks and pushes alike): unit costs, so A* must give BFS's
/// smallest shortest move sequence.
#[test]
fn unit_cost_sokoban_astar_matches_bfs_path_for_path() {
    let rules = std::fs::read_to_string("puzzles/sokoban-boxes.puz")
        .expect("read")
        .replace("cost pushes, walks", "cost moves")
        .replace("adds walks", "adds moves")
        .replace("adds pushes", "adds moves")
        .replace("expect 8, 25", "expect 33")
        .replace("expect 3, 13", "expect 16");
    let dir = std::env::temp_dir().join(format!("puz-astar-ties-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("moves.puz");
    std::fs::write(&path, rules).expect("write");
    let (solved, none) = compare(path.to_str().expect("utf-8"), 200, 0xa57a_0004, |rng| {
        let boxes = rng.usize(1..=2);
        common::sokoban::room(rng, boxes, 5)
    });
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        solved > 50 && none > 10,
        "solved {solved}, unsolvable {none}"
    );
}

/// Bidirectional search gives one optimal path, not necessarily the tie rule's: its
/// answer says so (a `note:` line, `"canonical": false`); every other search's answer is
/// canonical.
#[test]
fn answers_say_whether_they_follow_the_tie_rule() {
    let run = |search: &str, json: bool| {
        let mut args = vec![
            "solve",
            "puzzles/bloxorz.puz",
            "--engine",
            "interp",
            "--search",
            search,
        ];
        if json {
            args.push("--json");
        }
        let o = binary::puz(&args);
        assert!(o.status.success(), "{search}: {}", binary::stderr(&o));
        binary::stdout(&o)
    };
    for (search, canonical) in [("bidir", false), ("astar", true), ("bfs", true)] {
        let v: serde_json::Value = serde_json::from_str(&run(search, true)).expect("json");
        assert_eq!(
            v["canonical"],
            serde_json::Value::Bool(canonical),
            "{search}"
        );
        let text = run(search, false);
        assert_eq!(
            text.contains("note: one optimal path"),
            !canonical,
            "{search}: {text}"
        );
    }
}
