//! Bounds from the goal's counts and boolean structure (issue 25; the proofs are in
//! `src/engine/heuristic/goalform.rs`), against exact distances on whole small spaces:
//! Lights Out (`count(on) == 0`: tiles, a press changes up to five), peg solitaire
//! (`count(peg) == 1 and (peg on target or ...)`: a jump removes one peg) and a rule file
//! of this test's own whose goal mixes a counter, a tile count, a piece count, `or` and
//! `not`. On every reachable state the bound is at most the true distance to a goal, 0 on
//! goals, [`UNREACHABLE`] only where no goal is reachable, and drops by at most one per
//! move; it is above 0 somewhere (so the test cannot pass on a bound of nothing). A* with
//! it gives breadth-first search's answer, path for path, on seeded random levels.

use std::collections::{HashMap, VecDeque};

use crate::common::binary::puz;
use crate::common::drive::solve_inline as solve;

use puz::engine::{Expander, Successors};
use puz::search::{Backend, Budget, Outcome, Space};
use puz::Puzzle;

const UNREACHABLE: u32 = u32::MAX;

/// A rule file whose goal mixes every count and connective: coins picked up into a
/// counter, lights toggled underfoot.
const COLLECTOR: &str = r#"
puzzle "Collector"
tiles { floor wall lit dark }
outside wall
marks { exit }
piece man
piece coin anonymous
counter got max 9
legend {
  '#' wall
  '.' floor
  'o' dark
  '*' lit
  '@' floor + man
  'c' floor + coin
  'E' floor + exit
}
dirs { n (-1, 0)  s (1, 0)  w (0, -1)  e (0, 1) }
cost steps
move walk(d) {
  letters "nswe"
  adds steps
  shift man d
  if coin at man {
    remove coin
    got += 1
  }
  if lit at man {
    change lit -> dark at man
  } else if dark at man {
    change dark -> lit at man
  }
}
forbid man on wall
goal (got >= 2 and not (count(lit) > 1)) or (man on exit and count(coin) == 0)
"#;

/// `rules` with `levels` appended as inline levels.
fn with_levels(rules: &str, levels: &[String]) -> Puzzle {
    let mut text = rules.to_string();
    for (i, l) in levels.iter().enumerate() {
        let rows: String = l.lines().map(|r| format!("  {r}\n")).collect();
        text.push_str(&format!("\nlevel \"case {i}\" \"\"\"\n{rows}  \"\"\"\n"));
    }
    Puzzle::load("test.puz", text).unwrap_or_else(|d| panic!("{d:?}"))
}

/// The rules of a shipped puzzle, without its inline levels.
fn rules_of(path: &str) -> String {
    let text = std::fs::read_to_string(path).expect("read the puzzle");
    let cut = text.find("\nlevel ").expect("a level");
    text[..cut].to_string()
}

/// Checks the bound on the whole space reachable from each level (unit costs): returns
/// the largest bound met.
fn check_whole_spaces(puzzle: &Puzzle, first: usize) -> u32 {
    let mut largest = 0;
    for i in first..puzzle.model.levels.len() {
        let level = puzzle.inline_level(i).expect("level");
        let mut exp = Expander::new(&puzzle.model, level, &Budget::default()).expect("setup");
        exp.prepare_heuristic(&Budget::default())
            .unwrap_or_else(|e| panic!("level {i}: no bound: {e:?}"));
        let words = Space::words(&exp);
        // Every reachable state and its successors.
        let mut index: HashMap<Vec<u32>, usize> = HashMap::new();
        let mut states: Vec<Vec<u32>> = vec![];
        let mut edges: Vec<Vec<usize>> = vec![];
        let start = Space::start(&exp);
        index.insert(start.clone(), 0);
        states.push(start);
        let mut succ = Successors::default();
        let mut at = 0;
        while at < states.len() {
            let s = states[at].clone();
            Space::successors(&mut exp, &s, &mut succ);
            let mut out = vec![];
            for (_, t) in succ.iter(words) {
                let n = states.len();
                let j = *index.entry(t.to_vec()).or_insert(n);
                if j == n {
                    states.push(t.to_vec());
                }
                out.push(j);
            }
            edges.push(out);
            at += 1;
        }
        // Distances to a goal: breadth-first backwards from every goal state.
        let mut back: Vec<Vec<usize>> = vec![vec![]; states.len()];
        for (u, out) in edges.iter().enumerate() {
            for &v in out {
                back[v].push(u);
            }
        }
        let mut dist = vec![UNREACHABLE; states.len()];
        let mut queue = VecDeque::new();
        for (u, s) in states.iter().enumerate() {
            if Space::is_goal(&exp, s) {
                dist[u] = 0;
                queue.push_back(u);
            }
        }
        while let Some(v) = queue.pop_front() {
            for &u in &back[v] {
                if dist[u] == UNREACHABLE {
                    dist[u] = dist[v] + 1;
                    queue.push_back(u);
                }
            }
        }
        let h: Vec<u32> = states.iter().map(|s| Space::estimate(&exp, s)).collect();
        for u in 0..states.len() {
            let (hu, du) = (h[u], dist[u]);
            if du == 0 {
                assert_eq!(hu, 0, "level {i}: bound {hu} on a goal");
            }
            if hu == UNREACHABLE {
                assert_eq!(du, UNREACHABLE, "level {i}: called dead at distance {du}");
                continue;
            }
            assert!(hu <= du, "level {i}: bound {hu} above the distance {du}");
            largest = largest.max(hu);
            for &v in &edges[u] {
                let hv = h[v];
                assert!(
                    hv == UNREACHABLE || hu <= 1 + hv,
                    "level {i}: inconsistent, {hu} then {hv}"
                );
            }
        }
    }
    largest
}

/// A* and breadth-first search give the same answer on every level from `first`.
fn astar_agrees(puzzle: &Puzzle, first: usize) -> usize {
    let mut solved = 0;
    for i in first..puzzle.model.levels.len() {
        match (
            solve(puzzle, i, Backend::Bfs),
            solve(puzzle, i, Backend::Astar),
        ) {
            (Outcome::Solved(a), Outcome::Solved(b)) => {
                assert_eq!(a.actions, b.actions, "level {i}: another path");
                solved += 1;
            }
            (Outcome::Unsolvable, Outcome::Unsolvable) => {}
            (a, b) => panic!("level {i}: bfs {a:?}, astar {b:?}"),
        }
    }
    solved
}

fn lights_levels(seed: u64, n: usize) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..n)
        .map(|_| loop {
            let l = crate::common::lightsout::random_level(&mut rng);
            if l.rows * l.cols <= 12 {
                break l.text();
            }
        })
        .collect()
}

fn peg_levels(seed: u64, n: usize) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..n)
        .map(|_| crate::common::peg::random_level(&mut rng).text())
        .collect()
}

/// Random collector levels: a walled room of 3x4 to 4x5 cells with lit and dark tiles,
/// up to three coins, sometimes an exit.
fn collector_levels(seed: u64, n: usize) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..n)
        .map(|_| {
            let (rows, cols) = (rng.usize(3..=4), rng.usize(4..=5));
            let mut cells: Vec<char> = (0..rows * cols)
                .map(|_| match rng.u8(0..10) {
                    0 => '#',
                    1..=3 => '*',
                    4..=5 => 'o',
                    _ => '.',
                })
                .collect();
            let mut free: Vec<usize> = (0..cells.len()).collect();
            rng.shuffle(&mut free);
            cells[free[0]] = '@';
            for &f in &free[1..1 + rng.usize(0..=3)] {
                cells[f] = 'c';
            }
            if rng.bool() {
                cells[free[4]] = 'E';
            }
            let mut text = "#".repeat(cols + 2) + "\n";
            for r in 0..rows {
                text.push('#');
                text.extend(&cells[r * cols..(r + 1) * cols]);
                text.push_str("#\n");
            }
            text + &"#".repeat(cols + 2) + "\n"
        })
        .collect()
}

#[test]
fn lights_out_count_bound_never_exceeds_the_distance() {
    let rules = rules_of("puzzles/lightsout.puz");
    let puzzle = with_levels(&rules, &lights_levels(0x0b1d_5001, 40));
    let largest = check_whole_spaces(&puzzle, 0);
    assert!(largest >= 2, "largest bound {largest}");
}

#[test]
fn peg_count_bound_never_exceeds_the_distance() {
    let rules = rules_of("puzzles/pegsolitaire.puz");
    let puzzle = with_levels(&rules, &peg_levels(0x0b1d_5002, 40));
    let largest = check_whole_spaces(&puzzle, 0);
    assert!(largest >= 3, "largest bound {largest}");
}

#[test]
fn counters_tiles_or_and_not_bound_never_exceeds_the_distance() {
    let puzzle = with_levels(COLLECTOR, &collector_levels(0x0b1d_5003, 60));
    let largest = check_whole_spaces(&puzzle, 0);
    assert!(largest >= 2, "largest bound {largest}");
}

#[test]
fn astar_on_count_bounds_gives_breadth_first_answers() {
    let rules = rules_of("puzzles/lightsout.puz");
    let lights = with_levels(&rules, &lights_levels(0x0b1d_5004, 30));
    assert!(astar_agrees(&lights, 0) >= 10);
    let rules = rules_of("puzzles/pegsolitaire.puz");
    let pegs = with_levels(&rules, &peg_levels(0x0b1d_5005, 30));
    assert!(astar_agrees(&pegs, 0) >= 5);
    let coins = with_levels(COLLECTOR, &collector_levels(0x0b1d_5006, 40));
    assert!(astar_agrees(&coins, 0) >= 10);
}

#[test]
fn the_bound_reads_the_counts() {
    // 3x3 all on: nine lights, a press turns off at most five: at least two presses.
    let rules = rules_of("puzzles/lightsout.puz");
    let puzzle = with_levels(&rules, &["***\n***\n***\n".to_string()]);
    let level = puzzle.inline_level(0).expect("level");
    let mut exp = Expander::new(&puzzle.model, level, &Budget::default()).expect("setup");
    exp.prepare_heuristic(&Budget::default()).expect("bound");
    assert_eq!(Space::estimate(&exp, &Space::start(&exp)), 2);
    // Eight pegs and no target: seven jumps, each removing one peg.
    let rules = rules_of("puzzles/pegsolitaire.puz");
    let puzzle = with_levels(&rules, &["oooo.\noooo.\n.....\n".to_string()]);
    let level = puzzle.inline_level(0).expect("level");
    let mut exp = Expander::new(&puzzle.model, level, &Budget::default()).expect("setup");
    exp.prepare_heuristic(&Budget::default()).expect("bound");
    assert_eq!(Space::estimate(&exp, &Space::start(&exp)), 7);
}

#[test]
fn astar_runs_on_count_goals_and_is_refused_without_one() {
    let out = puz(&[
        "solve",
        "puzzles/lightsout.puz",
        "--level",
        "3x3 all on",
        "--search",
        "astar",
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["search"], "astar");
    assert_eq!(json["cost"]["presses"], 5);
    // Holes: tiles change and the goal counts nothing.
    let out = puz(&["solve", "puzzles/holes.puz", "--search", "astar"]);
    assert_eq!(out.status.code(), Some(5));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no heuristic can be derived"), "{err}");
}
