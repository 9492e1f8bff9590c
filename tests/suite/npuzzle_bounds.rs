//! The bounds, IDA* and the parity invariant of issue 25 on the n-puzzle
//! (`puzzles/npuzzle.puz`, goals drawn as pictures), against exhaustive search:
//! - the bound derived from a goal picture never exceeds the true distance, on the whole
//!   reachable space of 2x3 and 3x3 boards (breadth-first from the goal: moves undo
//!   themselves), is consistent on every edge, and sums the tiles (the Manhattan
//!   distance), leaving the blank out;
//! - IDA* gives breadth-first search's answer, path for path, on seeded random levels;
//! - the parity invariant refuses exactly the starts that cannot reach the goal: every
//!   arrangement of 2x3, seeded random ones of 3x3;
//! - budgets end IDA* with exit 3; `--search idastar` without a bound is refused (exit 5);
//!   the proof is said in the answer and in `--json`.

use std::collections::{HashMap, VecDeque};

use crate::common::binary::{puz, TempFile};
use crate::common::drive::solve_inline as solve;
use crate::common::npuzzle::{random_level, Level};

use puz::engine::{Expander, Successors};
use puz::search::{bfs, Backend, Budget, Outcome, Space};
use puz::Puzzle;

const FILE: &str = "puzzles/npuzzle.puz";

/// The rule file with `levels` (start and goal as characters) appended as inline levels.
fn with_levels(levels: &[(String, String)]) -> Puzzle {
    let mut text = std::fs::read_to_string(FILE).expect("read npuzzle.puz");
    let indent = |s: &str| s.lines().map(|r| format!("  {r}\n")).collect::<String>();
    for (i, (start, goal)) in levels.iter().enumerate() {
        text.push_str(&format!(
            "\nlevel \"case {i}\" \"\"\"\n{}  \"\"\" goal \"\"\"\n{}  \"\"\"\n",
            indent(start),
            indent(goal)
        ));
    }
    Puzzle::load(FILE, text).unwrap_or_else(|d| panic!("{d:?}"))
}

/// The goal board of `rows` x `cols` as characters: tiles in reading order, blank last.
fn goal_chars(rows: usize, cols: usize) -> String {
    let cells: Vec<u8> = (1..(rows * cols) as u8).chain([0]).collect();
    chars(&cells, cols)
}

fn chars(cells: &[u8], cols: usize) -> String {
    cells
        .chunks(cols)
        .map(|r| {
            r.iter()
                .map(|&t| if t == 0 { '_' } else { (b'0' + t) as char })
                .collect::<String>()
                + "\n"
        })
        .collect()
}

/// The expander of inline level `i` of `puzzle`.
fn expander(puzzle: &Puzzle, i: usize) -> Expander<'_> {
    let level = puzzle.inline_level(i).expect("level");
    Expander::new(&puzzle.model, level, &Budget::default()).expect("setup")
}

/// Every state reachable from `exp`'s start with its distance (breadth-first).
fn distances(exp: &mut Expander) -> HashMap<Vec<u32>, u32> {
    let words = Space::words(exp);
    let mut dist = HashMap::new();
    let mut queue = VecDeque::new();
    let start = Space::start(exp);
    dist.insert(start.clone(), 0);
    queue.push_back(start);
    let mut succ = Successors::default();
    while let Some(s) = queue.pop_front() {
        let d = dist[&s];
        Space::successors(exp, &s, &mut succ);
        for (_, t) in succ.iter(words) {
            if !dist.contains_key(t) {
                dist.insert(t.to_vec(), d + 1);
                queue.push_back(t.to_vec());
            }
        }
    }
    dist
}

/// On the whole space reachable from the goal of a `rows` x `cols` board: the bound is
/// at most the distance, 0 exactly on the goal, and drops by at most one per move.
fn check_bound(rows: usize, cols: usize, states: usize) {
    let goal = goal_chars(rows, cols);
    let puzzle = with_levels(&[(goal.clone(), goal)]);
    let i = puzzle.model.levels.len() - 1;
    let mut exp = expander(&puzzle, i);
    exp.prepare_heuristic(&Budget::default())
        .expect("a goal picture gives a bound");
    let dist = distances(&mut exp);
    assert_eq!(dist.len(), states);
    let words = Space::words(&exp);
    let mut succ = Successors::default();
    let mut tight = 0;
    for (s, &d) in &dist {
        let h = Space::estimate(&exp, s);
        assert!(h <= d, "{rows}x{cols}: bound {h} above the distance {d}");
        assert_eq!(h == 0, d == 0, "{rows}x{cols}: bound {h} at distance {d}");
        tight += usize::from(h == d);
        Space::successors(&mut exp, s, &mut succ);
        for (_, t) in succ.iter(words) {
            assert!(
                h <= 1 + Space::estimate(&exp, t),
                "{rows}x{cols}: inconsistent"
            );
        }
    }
    assert!(tight > 0);
}

#[test]
fn the_bound_never_exceeds_the_distance_on_whole_2x3_and_3x3_spaces() {
    check_bound(2, 3, 360);
    check_bound(3, 3, 181_440);
}

#[test]
fn the_bound_is_the_manhattan_distance_of_the_tiles() {
    let puzzle = with_levels(&[]);
    let mut exp = expander(&puzzle, 0);
    exp.prepare_heuristic(&Budget::default()).expect("bound");
    // 867/254/3_1 against 123/456/78_: 8:3 6:2 7:4 2:2 5:0 4:2 3:4 1:4 (the blank's
    // 1 is not counted).
    let start = Space::start(&exp);
    assert_eq!(Space::estimate(&exp, &start), 21);
}

#[test]
fn idastar_gives_breadth_first_answers_path_for_path() {
    let mut rng = fastrand::Rng::with_seed(0x1da5_7a25);
    let levels: Vec<Level> = (0..60).map(|_| random_level(&mut rng)).collect();
    let texts: Vec<(String, String)> = levels.iter().map(|l| (l.chars(), l.goal_chars())).collect();
    let puzzle = with_levels(&texts);
    let first = puzzle.model.levels.len() - levels.len();
    let mut solved = 0;
    for (k, l) in levels.iter().enumerate() {
        let i = first + k;
        let want = l.solve().0;
        let by_bfs = solve(&puzzle, i, Backend::Bfs);
        let by_ida = solve(&puzzle, i, Backend::Idastar);
        match (by_bfs, by_ida) {
            (Outcome::Solved(a), Outcome::Solved(b)) => {
                assert_eq!(Some(a.actions.len() as u64), want, "#{k}");
                assert_eq!(a.actions, b.actions, "#{k}: another path\n{}", l.chars());
                solved += 1;
            }
            (Outcome::Unsolvable, Outcome::Unsolvable) => assert_eq!(want, None, "#{k}"),
            (a, b) => panic!("#{k}: bfs {a:?}, idastar {b:?}"),
        }
    }
    assert!(solved >= 30, "only {solved} solvable");
}

/// Whether the parity invariant refuses the arrangement `cells` on `rows` x `cols`, and
/// whether exhaustive search (breadth-first, on the expander itself: the solver would
/// use the proof) finds it unsolvable.
fn proof_and_search(cells: &[u8], rows: usize, cols: usize, exhaust: bool) -> (bool, bool) {
    let puzzle = with_levels(&[(chars(cells, cols), goal_chars(rows, cols))]);
    let i = puzzle.model.levels.len() - 1;
    let mut exp = expander(&puzzle, i);
    let proof = exp.parity_proof().is_some();
    let unsolvable = exhaust && matches!(bfs(&mut exp, &Budget::default()).0, Outcome::Unsolvable);
    (proof, unsolvable)
}

/// Every permutation of `items`, in lexicographic order.
fn permutations(items: &[u8]) -> Vec<Vec<u8>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = vec![];
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let x = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, x);
            out.push(p);
        }
    }
    out
}

#[test]
fn the_parity_proof_agrees_with_exhaustive_search_on_every_2x3_start() {
    let (mut proven, mut solvable) = (0, 0);
    for cells in permutations(&[0, 1, 2, 3, 4, 5]) {
        let (proof, unsolvable) = proof_and_search(&cells, 2, 3, true);
        assert_eq!(proof, unsolvable, "{cells:?}");
        proven += usize::from(proof);
        solvable += usize::from(!unsolvable);
    }
    assert_eq!((proven, solvable), (360, 360));
}

#[test]
fn the_parity_proof_agrees_with_the_reachable_3x3_space() {
    // The 181,440 positions reachable from the goal, as the reference lists them.
    let goal = goal_chars(3, 3);
    let puzzle = with_levels(&[(goal.clone(), goal)]);
    let mut exp = expander(&puzzle, puzzle.model.levels.len() - 1);
    let reachable = distances(&mut exp);
    let mut rng = fastrand::Rng::with_seed(0x9a21);
    let (mut proven, mut solvable) = (0, 0);
    for _ in 0..400 {
        let mut cells: Vec<u8> = (0..9).collect();
        rng.shuffle(&mut cells);
        let puzzle = with_levels(&[(chars(&cells, 3), goal_chars(3, 3))]);
        let exp = expander(&puzzle, puzzle.model.levels.len() - 1);
        let proof = exp.parity_proof().is_some();
        let reached = reachable.contains_key(&Space::start(&exp));
        assert_eq!(proof, !reached, "{cells:?}");
        // The reference's parity rule says the same.
        let reference = Level::parse(&chars(&cells, 3));
        assert_eq!(reference.solvable_by_parity(), reached, "{cells:?}");
        proven += usize::from(proof);
        solvable += usize::from(reached);
    }
    assert!(proven > 100 && solvable > 100);
}

#[test]
fn the_proof_needs_rules_whose_moves_are_transpositions() {
    // A cell with no piece: a slide into it moves the blank alone, no transposition, so
    // the invariant is not derived (the two tiles swapped may well be put right).
    let text = std::fs::read_to_string(FILE)
        .expect("rules")
        .replace("'_' floor + blank", "'_' floor + blank\n  '.' floor");
    let text = format!("{text}\nlevel \"hole\" \"\"\"\n  213\n  4_.\n  \"\"\" goal \"\"\"\n  123\n  4_.\n  \"\"\"\n");
    let puzzle = Puzzle::load(FILE, text).unwrap_or_else(|d| panic!("{d:?}"));
    let exp = expander(&puzzle, puzzle.model.levels.len() - 1);
    assert!(exp.parity_proof().is_none());
    // Two tiles swapped on a full board: proven.
    let i = puzzle
        .model
        .levels
        .iter()
        .position(|l| l.name == "swapped")
        .unwrap();
    assert!(expander(&puzzle, i).parity_proof().is_some());
}

/// The 15-puzzle positions of the CLI tests, blank first in the goal.
const KORF_2: &str = "13 5 4 10 / 9 12 8 14 / 2 3 7 1 / 0 15 11 6";

fn ints_level(name: &str, start: &str, goal: &str) -> String {
    let rows = |s: &str| {
        s.split('/')
            .map(|r| format!("  {}\n", r.trim()))
            .collect::<String>()
    };
    format!(
        "\nlevel \"{name}\" ints \"\"\"\n{}  \"\"\" goal \"\"\"\n{}  \"\"\"\n",
        rows(start),
        rows(goal)
    )
}

fn rules_with(extra: &str) -> TempFile {
    let text = std::fs::read_to_string(FILE).expect("rules") + extra;
    TempFile::new("npuzzle", &text)
}

#[test]
fn the_cli_says_the_proof_and_budgets_end_idastar_with_exit_3() {
    let last = "1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 15 0";
    let first = "0 1 2 3 / 4 5 6 7 / 8 9 10 11 / 12 13 14 15";
    let f = rules_with(
        &(ints_level("korf last", KORF_2, last) + &ints_level("korf first", KORF_2, first)),
    );
    let out = puz(&["solve", f.path(), "--level", "korf last"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("no solution: proven without search by the parity invariant"),
        "{text}"
    );
    let out = puz(&["solve", f.path(), "--level", "korf last", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["search"], "invariant");
    assert!(json["proof"].as_str().is_some_and(|p| p.contains("parity")));
    // The default search on a 15-puzzle is IDA*; a budget stops it with exit 3.
    for budget in [["--max-states", "1000"], ["--timeout", "0.2"]] {
        let out = puz(&[
            "solve",
            f.path(),
            "--level",
            "korf first",
            budget[0],
            budget[1],
        ]);
        assert_eq!(out.status.code(), Some(3), "{budget:?}");
        let out = puz(&[
            "solve",
            f.path(),
            "--level",
            "korf first",
            "--search",
            "idastar",
            budget[0],
            budget[1],
        ]);
        assert_eq!(out.status.code(), Some(3), "{budget:?}");
    }
    let out = puz(&["solve", f.path(), "--level", "15-puzzle", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["search"], "idastar");
    assert_eq!(json["move_count"], 13);
}

#[test]
fn idastar_without_a_bound_is_refused_with_exit_5() {
    let out = puz(&["solve", "puzzles/holes.puz", "--search", "idastar"]);
    assert_eq!(out.status.code(), Some(5));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--search idastar: no heuristic can be derived"),
        "{err}"
    );
}

#[test]
fn pattern_databases_never_exceed_the_distance_on_the_whole_3x3_space() {
    let goal = goal_chars(3, 3);
    let puzzle = with_levels(&[(goal.clone(), goal)]);
    let mut exp = expander(&puzzle, puzzle.model.levels.len() - 1);
    exp.prepare_heuristic(&Budget::default()).expect("bound");
    let line = exp
        .prepare_patterns(&Budget::default())
        .expect("within budget")
        .expect("swap-only rules give pattern databases");
    assert!(line.contains("4+4 pieces"), "{line}");
    let dist = distances(&mut exp);
    let (mut stronger, mut tight) = (0, 0);
    for (s, &d) in &dist {
        let (h, p) = (Space::estimate(&exp, s), Space::admissible(&exp, s));
        assert!(h <= p && p <= d, "bound {h}, databases {p}, distance {d}");
        stronger += usize::from(p > h);
        tight += usize::from(p == d);
    }
    assert!(stronger > dist.len() / 2, "only {stronger} states gain");
    assert!(tight > dist.len() / 10);
}

#[test]
fn idastar_with_pattern_databases_gives_breadth_first_answers() {
    let mut rng = fastrand::Rng::with_seed(0x9db5);
    let mut checked = 0;
    while checked < 25 {
        let l = random_level(&mut rng);
        if l.rows * l.cols != 9 {
            continue;
        }
        let puzzle = with_levels(&[(l.chars(), l.goal_chars())]);
        let i = puzzle.model.levels.len() - 1;
        let mut exp = expander(&puzzle, i);
        exp.prepare_heuristic(&Budget::default()).expect("bound");
        exp.prepare_patterns(&Budget::default())
            .expect("budget")
            .expect("databases");
        let (by_ida, _) = puz::search::idastar(&mut exp, &Budget::default());
        let by_bfs = solve(&puzzle, i, Backend::Bfs);
        match (by_bfs, by_ida) {
            (Outcome::Solved(a), Outcome::Solved(b)) => {
                assert_eq!(a.actions, b.actions, "another path\n{}", l.chars());
            }
            (a, b) => panic!("bfs {a:?}, idastar {b:?}"),
        }
        checked += 1;
    }
}
