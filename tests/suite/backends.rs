//! Every search backend against one table of expected answers.
//!
//! The table (`ROWS`) lists, for each shipped puzzle's inline levels and for hand-made
//! levels, the optimal cost vector (or `None`: unsolvable) and which backends the rules
//! refuse. Each row is run against:
//!
//! - `--engine interp` with every backend of the registry, `puz::search::BACKENDS` (bfs,
//!   dijkstra, astar, iddfs, bidir, dfs, layered, and any added later);
//! - `--engine auto --search auto` (a fast path where one matches).
//!
//! A backend either answers — the same optimal cost as the table, with a path replayed
//! here through a fresh expander that is legal, ends in a goal and costs what the table
//! says — or is refused with `SolveError::SearchUnavailable`, exactly where the row says:
//!
//! - BFS and IDDFS need unit costs: refused for Sokoban (`cost pushes, walks`);
//! - A* needs a board whose tiles never change: refused for Curling levels with blocks
//!   (`block -> ice`); a Curling level without blocks has nothing to break, so A* runs;
//! - bidirectional BFS needs provably invertible moves: refused for Curling (its rules
//!   declare a breakable tile, and slides cannot be undone) and for Sokoban (cost vector,
//!   and a push is several statements);
//! - DFS needs every solution to have one length (moves that each remove a copy): refused
//!   everywhere here;
//! - layered search needs a piece no goal names that moves alone: Sokoban's man and
//!   Huarong Dao's blank; refused for Bloxorz (its one piece is the goal's) and Curling
//!   (a move limit).
//!
//! A backend added to the registry after this table was written is run on every row as
//! well: it must answer optimally or refuse (`SearchUnavailable` or `NotInvertible`), and
//! its refusals are counted, not failed, until the table lists where it is refused
//! (`TABLED`).
//!
//! The expected costs are not taken on trust: `table_agrees_with_brute_force` recomputes
//! every row with the brute-force references of `tests/common/` (written from the puzzles'
//! descriptions, nothing shared with the crate).

use crate::common;

use std::collections::HashMap;

use puz::engine::{Expander, Level};
use puz::search::{Budget, Outcome};
use puz::solver::{path_cost, solve_opts, EngineChoice, SearchChoice, SolveError, SolveOptions};
use puz::Puzzle;

use puz::search::Backend;

// The choices by their short names, as the tables below use them.
#[allow(non_upper_case_globals)]
const Auto: SearchChoice = SearchChoice::Auto;
#[allow(non_upper_case_globals)]
const Bfs: SearchChoice = SearchChoice::Backend(Backend::Bfs);
#[allow(non_upper_case_globals)]
const Dijkstra: SearchChoice = SearchChoice::Backend(Backend::Dijkstra);
#[allow(non_upper_case_globals)]
const Astar: SearchChoice = SearchChoice::Backend(Backend::Astar);
#[allow(non_upper_case_globals)]
const Iddfs: SearchChoice = SearchChoice::Backend(Backend::Iddfs);
#[allow(non_upper_case_globals)]
const Bidir: SearchChoice = SearchChoice::Backend(Backend::Bidir);
#[allow(non_upper_case_globals)]
const Dfs: SearchChoice = SearchChoice::Backend(Backend::Dfs);
#[allow(non_upper_case_globals)]
const Layered: SearchChoice = SearchChoice::Backend(Backend::Layered);

/// The backends whose refusals the table records: for these a refusal must be exactly
/// where a row says. Any other backend of the registry may refuse a row.
const TABLED: &[SearchChoice] = &[Bfs, Dijkstra, Astar, Iddfs, Bidir, Dfs, Layered];

// ---------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum P {
    Bloxorz,
    Curling,
    Huarong,
    Sokoban,
    /// `sokoban.puz` with one cost, `moves`, that walks and pushes both add: unit costs,
    /// so BFS, IDDFS and A* (two pieces, a heuristic from the box alone) all apply.
    SokobanMoves,
}

const PUZZLES: [P; 5] = [
    P::Bloxorz,
    P::Curling,
    P::Huarong,
    P::Sokoban,
    P::SokobanMoves,
];

impl P {
    fn file(self) -> &'static str {
        match self {
            P::Bloxorz => "puzzles/bloxorz.puz",
            P::Curling => "puzzles/curling.puz",
            P::Huarong => "puzzles/huarong.puz",
            P::Sokoban | P::SokobanMoves => "puzzles/sokoban.puz",
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum L {
    /// An inline level of the puzzle file, by name.
    Inline(&'static str),
    /// A level written here, in the puzzle's legend.
    Text(&'static str),
}

/// Backends the rules refuse (`SolveError::SearchUnavailable`), per kind of row. No row
/// fixes the length of every solution, so DFS is refused everywhere.
/// Bloxorz: unit costs, fixed tiles, invertible `turn` moves; its one piece is the goal's,
/// so no piece moves alone between the moves that matter (layered).
const BLOXORZ: &[SearchChoice] = &[Dfs, Layered];
/// Huarong Dao: unit costs, fixed tiles, an invertible `swap`; the blank, which no goal
/// names, moves alone between the token's moves (layered runs).
const HUARONG: &[SearchChoice] = &[Dfs];
/// Curling with at least one block on the board: tiles change (A*), and the rules declare
/// a breakable tile with sliding moves (bidir); a move limit (layered).
const CURLING_BLOCKS: &[SearchChoice] = &[Astar, Bidir, Dfs, Layered];
/// Curling on a board without blocks: nothing can break, so the heuristic is sound; the
/// rules still declare `block -> ice`, so bidir stays refused.
const CURLING_NO_BLOCKS: &[SearchChoice] = &[Bidir, Dfs, Layered];
/// Sokoban: a cost vector (no BFS, IDDFS; A* bounds the first component); not
/// invertible (no bidir); the man walks alone between pushes (layered runs).
const SOKOBAN: &[SearchChoice] = &[Bfs, Iddfs, Bidir, Dfs];
/// Sokoban with unit costs: a push (a test and two shifts) is still not provably
/// invertible, so bidir stays refused.
const SOKOBAN_UNIT: &[SearchChoice] = &[Bidir, Dfs];

struct Row {
    puzzle: P,
    level: L,
    /// The optimal cost vector (in the puzzle's cost components), `None` when unsolvable.
    cost: Option<&'static [u64]>,
    refused: &'static [SearchChoice],
}

const fn row(
    puzzle: P,
    level: L,
    cost: Option<&'static [u64]>,
    refused: &'static [SearchChoice],
) -> Row {
    Row {
        puzzle,
        level,
        cost,
        refused,
    }
}

use L::{Inline, Text};
use P::{Bloxorz as BX, Curling as CU, Huarong as HU, Sokoban as SO, SokobanMoves as SM};

const ROWS: &[Row] = &[
    // ---- Bloxorz (cost: rolls) ------------------------------------------------------
    row(BX, Inline("sample"), Some(&[10]), BLOXORZ),
    row(BX, Inline("bridge"), None, BLOXORZ),
    row(BX, Inline("no frame"), None, BLOXORZ),
    row(BX, Inline("walled off"), None, BLOXORZ),
    // stand -> lying on cells 1-2 -> stand on the target: 2 rolls.
    row(BX, Text("X..O\n"), Some(&[2]), BLOXORZ),
    // the same over fragile floor: lying on it is allowed.
    row(BX, Text("X.EO\n"), Some(&[2]), BLOXORZ),
    // the target is only ever covered by the lying block (2 states): unsolvable.
    row(BX, Text("XEO\n"), None, BLOXORZ),
    // a lying start: stand on 2, lie on 3-4, stand on 5: 3 rolls.
    row(BX, Text("XX...O\n"), Some(&[3]), BLOXORZ),
    // open rooms (one fragile cell; a void hole): answers from the brute force.
    row(
        BX,
        Text("X.....\n......\n..E...\n.....O\n"),
        Some(&[6]),
        BLOXORZ,
    ),
    row(
        BX,
        Text("X.......\n........\n...##...\n...##...\n........\n.......O\n"),
        Some(&[11]),
        BLOXORZ,
    ),
    // ---- Curling 2.0 (cost: throws; at most 10) -------------------------------------
    row(CU, Inline("figure 1"), Some(&[4]), CURLING_BLOCKS),
    row(CU, Inline("ten throws"), Some(&[10]), CURLING_BLOCKS),
    row(CU, Inline("eleven throws"), None, CURLING_BLOCKS),
    row(CU, Inline("one throw"), Some(&[1]), CURLING_NO_BLOCKS),
    // Vertical and westward variants: every throw moves the stone one cell and breaks the
    // next block; with 9 blocks the 10th throw slides into the goal, with 10 the goal is
    // 11 throws away, past the limit.
    row(
        CU,
        Text("2\n0\n1\n1\n1\n1\n1\n1\n1\n1\n1\n3\n"),
        Some(&[10]),
        CURLING_BLOCKS,
    ),
    row(
        CU,
        Text("2\n0\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n3\n"),
        None,
        CURLING_BLOCKS,
    ),
    row(
        CU,
        Text("3 1 1 1 1 1 1 1 1 1 0 2\n"),
        Some(&[10]),
        CURLING_BLOCKS,
    ),
    row(
        CU,
        Text("3 1 1 1 1 1 1 1 1 1 1 0 2\n"),
        None,
        CURLING_BLOCKS,
    ),
    // a stone next to a block cannot be thrown into it; other throws leave the board.
    row(CU, Text("2 1 3\n"), None, CURLING_BLOCKS),
    // the stone stops in the goal instead of sliding on.
    row(CU, Text("2 0 0 3 0\n"), Some(&[1]), CURLING_NO_BLOCKS),
    // no blocks: every throw but into the goal's line is lost.
    row(CU, Text("2 0 0\n0 0 3\n"), None, CURLING_NO_BLOCKS),
    // turn two corners: east stops before (0,3) (breaking it), south stops before
    // (4,2), west slides into the goal at (3,0); the other first throws are lost.
    row(
        CU,
        Text("0 2 0 1\n0 0 0 0\n0 0 0 0\n3 0 0 0\n0 0 1 0\n"),
        Some(&[3]),
        CURLING_BLOCKS,
    ),
    // ---- Huarong Dao (cost: moves) --------------------------------------------------
    row(HU, Inline("sample query 1"), Some(&[2]), HUARONG),
    row(HU, Inline("sample query 2"), None, HUARONG),
    row(HU, Inline("open 3x3"), Some(&[11]), HUARONG),
    // the start is already a goal: 0 moves, the empty path.
    row(HU, Text("*E\n"), Some(&[0]), HUARONG),
    row(HU, Text("#*.\n.E.\n"), Some(&[0]), HUARONG),
    // the blank cannot get past the token in a corridor.
    row(HU, Text("SET\n"), None, HUARONG),
    // blank west (a piece moves east), blank west again (the token moves east).
    row(HU, Text("STE\n"), Some(&[2]), HUARONG),
    // 2x2: the blank goes w s e n around the token: 4 moves.
    row(HU, Text("SE\n.T\n"), Some(&[4]), HUARONG),
    // a fixed cell makes the blank unable to get behind the token.
    row(HU, Text("S#\nET\n"), None, HUARONG),
    // the token travels round the fixed cells, the blank lapping them (n n n e e e s s s
    // w w w) to carry it: 58 moves (brute force).
    row(HU, Text("S...\n.##.\n.#..\nE..T\n"), Some(&[58]), HUARONG),
    // ---- Sokoban (cost: pushes, walks) ----------------------------------------------
    row(SO, Inline("sample 3"), Some(&[6, 22]), SOKOBAN),
    row(SO, Inline("sample 1"), Some(&[5, 0]), SOKOBAN),
    row(SO, Inline("sample 4"), Some(&[3, 16]), SOKOBAN),
    row(SO, Inline("blocked"), None, SOKOBAN),
    row(SO, Text("SBT\n"), Some(&[1, 0]), SOKOBAN),
    row(SO, Text("S.BT\n"), Some(&[1, 1]), SOKOBAN),
    row(SO, Text("TBS\n"), Some(&[1, 0]), SOKOBAN),
    row(SO, Text("SB.T\n"), Some(&[2, 0]), SOKOBAN),
    // walk e, n to the box's east side, push it west onto the target (pushing it east
    // from (0,0) instead would wedge it in the corner).
    row(SO, Text("TB.\n.S.\n"), Some(&[1, 2]), SOKOBAN),
    // a box in a corner never moves.
    row(SO, Text("B.\nST\n"), None, SOKOBAN),
    row(SO, Text("....\n.B.T\nS...\n"), Some(&[2, 1]), SOKOBAN),
    row(SO, Text("T...\n.#B.\n....\n..S.\n"), Some(&[3, 3]), SOKOBAN),
    // fewer pushes win over fewer moves: walk 6 round to (2,2), push N, walk 2, push E:
    // (2, 8), 10 moves; W s w N w n E E takes 8 moves but 4 pushes.
    row(SO, Text("...T\n..BS\n#..#\n"), Some(&[2, 8]), SOKOBAN),
    // ---- Sokoban, one cost `moves` (walks and pushes alike) ---------------------------
    row(SM, Inline("sample 3"), Some(&[28]), SOKOBAN_UNIT),
    row(SM, Inline("sample 1"), Some(&[5]), SOKOBAN_UNIT),
    // push N once, walk w n n e (4) to get above the box, push S four times: 9 moves
    // (the cost-vector answer, 3 pushes and 16 walks, takes 19).
    row(SM, Inline("sample 4"), Some(&[9]), SOKOBAN_UNIT),
    row(SM, Inline("blocked"), None, SOKOBAN_UNIT),
    // the same level as above: now W s w N w n E E (4 pushes, 4 walks) beats 2 + 8.
    row(SM, Text("...T\n..BS\n#..#\n"), Some(&[8]), SOKOBAN_UNIT),
    row(SM, Text("TB.\n.S.\n"), Some(&[3]), SOKOBAN_UNIT),
    row(SM, Text("B.\nST\n"), None, SOKOBAN_UNIT),
];

/// The backends under test, with the engine each runs on: every backend of the registry
/// on the interpreter, then auto.
fn backends() -> Vec<(SearchChoice, EngineChoice)> {
    puz::search::BACKENDS
        .iter()
        .map(|b| (SearchChoice::Backend(b.backend), EngineChoice::Interp))
        .chain([(Auto, EngineChoice::Auto)])
        .collect()
}

/// Whether `search` refusing `r` is right: where the row says, for a backend the table
/// records; anywhere, for one it does not (yet).
fn may_refuse(r: &Row, search: SearchChoice) -> bool {
    r.refused.contains(&search) || !TABLED.contains(&search)
}

// ---------------------------------------------------------------------------------------
// Loading
// ---------------------------------------------------------------------------------------

fn load(p: P) -> Puzzle {
    let path = format!("{}/{}", env!("CARGO_MANIFEST_DIR"), p.file());
    let mut text = std::fs::read_to_string(&path).expect("puzzle file");
    if p == P::SokobanMoves {
        for (from, to) in [
            ("cost pushes, walks", "cost moves"),
            ("adds walks", "adds moves"),
            ("adds pushes", "adds moves"),
        ] {
            assert!(text.contains(from), "sokoban.puz no longer says `{from}`");
            text = text.replace(from, to);
        }
        // The levels' `expect` clauses give two costs: one cost no longer compares.
        text = without_expect(&text);
    }
    Puzzle::load(p.file(), text).expect("shipped puzzle loads")
}

/// `text` without its levels' `expect` lines.
fn without_expect(text: &str) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with("expect ")).collect();
    lines.join("\n")
}

struct Loaded {
    puzzles: HashMap<P, Puzzle>,
}

impl Loaded {
    fn new() -> Loaded {
        let puzzles = PUZZLES.into_iter().map(|p| (p, load(p))).collect();
        Loaded { puzzles }
    }

    fn puzzle(&self, p: P) -> &Puzzle {
        &self.puzzles[&p]
    }

    fn level(&self, r: &Row) -> Level {
        let p = self.puzzle(r.puzzle);
        match r.level {
            L::Inline(name) => {
                let i = p.level_index(name).expect("inline level exists");
                p.inline_level(i).expect("inline level is valid")
            }
            L::Text(text) => p
                .level_from_file("table", text.to_string())
                .expect("table level is valid"),
        }
    }

    /// The level's rows as text (for the brute force).
    fn rows(&self, r: &Row) -> Vec<String> {
        match r.level {
            L::Inline(name) => {
                let p = self.puzzle(r.puzzle);
                let i = p.level_index(name).expect("inline level exists");
                p.model.levels[i].rows.clone()
            }
            L::Text(text) => text.lines().map(str::to_string).collect(),
        }
    }
}

fn describe(r: &Row) -> String {
    match r.level {
        L::Inline(n) => format!("{:?} level {n:?}", r.puzzle),
        L::Text(t) => format!("{:?} level {:?}", r.puzzle, t),
    }
}

// ---------------------------------------------------------------------------------------
// Independent brute force
// ---------------------------------------------------------------------------------------

/// The optimal cost vector of a level by the references of `tests/common/`, or `None`.
fn brute(p: P, rows: &[String]) -> Option<Vec<u64>> {
    use common::{bloxorz, curling, huarong, sokoban};
    let text: String = rows.iter().map(|r| format!("{r}\n")).collect();
    let one = |c: Option<usize>| c.map(|c| vec![c as u64]);
    match p {
        P::Bloxorz => one(bloxorz::brute_force(&bloxorz::Board::parse(&text))),
        P::Curling => one(curling::brute_force(
            &curling::Board::from_text(&text),
            curling::LIMIT,
        )),
        P::Huarong => one(huarong::solve_chars(&text)),
        P::Sokoban => sokoban::reference(&sokoban::Board::parse(&text))
            .map(|s| vec![u64::from(s.cost.0), u64::from(s.cost.1)]),
        P::SokobanMoves => {
            sokoban::fewest_moves(&sokoban::Board::parse(&text)).map(|c| vec![u64::from(c)])
        }
    }
}

// ---------------------------------------------------------------------------------------
// Running one backend
// ---------------------------------------------------------------------------------------

/// What one backend did on one row.
#[derive(Debug)]
enum Ran {
    Refused(String),
    /// The optimal cost (replayed), or `None` for "no solution"; and states expanded.
    Answered(Option<Vec<u64>>, u64),
}

fn run(l: &Loaded, r: &Row, search: SearchChoice, engine: EngineChoice) -> Ran {
    let p = l.puzzle(r.puzzle);
    let model = &p.model;
    let level = l.level(r);
    let opts = SolveOptions {
        engine,
        search,
        budget: Budget::default(),
        need_path: true,
        ..Default::default()
    };
    let what = format!("{} with {search:?}/{engine:?}", describe(r));
    match solve_opts(model, level.clone(), &opts) {
        Err(SolveError::SearchUnavailable(why)) | Err(SolveError::NotInvertible(why)) => {
            Ran::Refused(why)
        }
        Err(e) => panic!("{what}: unexpected error {e}"),
        Ok(ans) => {
            if engine == EngineChoice::Interp {
                assert_eq!(ans.engine, "interpreter", "{what}");
                assert_eq!(ans.search, search.name(), "{what}");
            }
            let cost = match ans.outcome {
                Outcome::Solved(path) => {
                    // Independent replay on a fresh expander.
                    let mut exp =
                        Expander::new(model, level, &Budget::default()).expect("the level sets up");
                    let states = puz::search::replay(&mut exp, &path.actions)
                        .unwrap_or_else(|k| panic!("{what}: move {} is not possible", k + 1));
                    assert_eq!(states, path.states, "{what}: the path's states differ");
                    let last = states.last().expect("the start");
                    assert!(exp.is_goal(last), "{what}: the path does not end in a goal");
                    if let Some(limit) = model.limit {
                        assert!(path.actions.len() <= limit as usize, "{what}: too long");
                    }
                    Some(path_cost(model, &path.actions))
                }
                Outcome::Unsolvable => None,
                Outcome::Cost(c) => panic!("{what}: cost {c:?} without a path"),
                Outcome::Cutoff(c) => panic!("{what}: cut off without a budget: {c}"),
            };
            Ran::Answered(cost, ans.stats.expanded)
        }
    }
}

// ---------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------

#[test]
fn table_agrees_with_brute_force() {
    let l = Loaded::new();
    let mut wrong = vec![];
    for r in ROWS {
        let got = brute(r.puzzle, &l.rows(r));
        if got.as_deref() != r.cost {
            wrong.push(format!(
                "{}: table {:?}, brute force {got:?}",
                describe(r),
                r.cost
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn table_covers_every_inline_level() {
    let l = Loaded::new();
    for p in PUZZLES {
        for lv in &l.puzzle(p).model.levels {
            assert!(
                ROWS.iter()
                    .any(|r| r.puzzle == p && matches!(r.level, L::Inline(n) if n == lv.name)),
                "{p:?} level {:?} is missing from the table",
                lv.name
            );
        }
    }
    // Hand-made rows include a start that is already a goal, and Curling's 10 and 11.
    assert!(ROWS.iter().any(|r| r.cost == Some(&[0])));
    let curl = |c: Option<&[u64]>| {
        ROWS.iter()
            .any(|r| r.puzzle == P::Curling && matches!(r.level, L::Text(_)) && r.cost == c)
    };
    assert!(curl(Some(&[10])) && curl(None));
}

#[test]
fn every_backend_answers_optimally_or_is_refused_where_the_rules_say() {
    let l = Loaded::new();
    let mut runs = 0;
    let mut refusals = 0;
    let backends = backends();
    for r in ROWS {
        for &(search, engine) in &backends {
            let what = format!("{} with {search:?}/{engine:?}", describe(r));
            let ran = run(&l, r, search, engine);
            match ran {
                Ran::Refused(why) => {
                    assert!(may_refuse(r, search), "{what}: refused unexpectedly: {why}");
                    refusals += 1;
                }
                Ran::Answered(cost, _) => {
                    assert!(
                        !r.refused.contains(&search),
                        "{what}: should be refused, answered {cost:?}"
                    );
                    assert_eq!(cost.as_deref(), r.cost, "{what}: wrong cost");
                    runs += 1;
                }
            }
        }
    }
    eprintln!(
        "{} rows x {} backends: {runs} answered, {refusals} refused",
        ROWS.len(),
        backends.len()
    );
}

#[test]
fn refusals_name_the_reason() {
    let l = Loaded::new();
    let first = |p: P| ROWS.iter().find(|r| r.puzzle == p).expect("a row");
    let why = |p: P, s: SearchChoice| match run(&l, first(p), s, EngineChoice::Interp) {
        Ran::Refused(w) => w,
        other => panic!("{p:?} {s:?}: {other:?}"),
    };
    assert!(why(P::Sokoban, Bfs).contains("--search bfs needs moves that all cost one unit"));
    assert!(why(P::Sokoban, Iddfs).contains("--search iddfs"));
    assert!(why(P::Sokoban, Bidir).contains("--search bidir"));
    assert!(why(P::Curling, Astar).contains("tiles change"));
    assert!(why(P::Curling, Bidir).contains("tiles change"));
    assert!(why(P::Bloxorz, Dfs).contains("--search dfs"));
    assert!(why(P::Bloxorz, Layered).contains("--search layered"));
    assert!(why(P::Curling, Layered).contains("--search layered"));
    // With unit costs the push itself is what bidir cannot invert.
    let push = why(P::SokobanMoves, Bidir);
    assert!(
        push.contains("move `push` cannot be proven invertible"),
        "{push}"
    );
}

/// A* is admissible: on every row where both run, it finds BFS's cost. It never expands
/// more than BFS when there is no solution (it skips states the relaxation proves dead).
/// The states each expands are printed (`cargo test --test suite backends:: -- --nocapture`).
#[test]
fn astar_finds_the_bfs_cost_on_every_row() {
    let l = Loaded::new();
    let mut compared = 0;
    for r in ROWS {
        let bfs = run(&l, r, Bfs, EngineChoice::Interp);
        let astar = run(&l, r, Astar, EngineChoice::Interp);
        match (&bfs, &astar) {
            (Ran::Answered(cb, eb), Ran::Answered(ca, ea)) => {
                assert_eq!(ca, cb, "{}: A* cost differs from BFS", describe(r));
                if cb.is_none() {
                    assert!(ea <= eb, "{}: A* expanded {ea} > BFS {eb}", describe(r));
                }
                compared += 1;
                let name = match r.level {
                    L::Inline(name) => name,
                    L::Text(_) => "(hand-made)",
                };
                let cost = cb.as_ref().map_or("none".to_string(), |c| format!("{c:?}"));
                eprintln!(
                    "expanded: {:<13} {:<15} cost {:<5} bfs {eb:>4}  astar {ea:>4}",
                    format!("{:?}", r.puzzle),
                    name,
                    cost
                );
            }
            (Ran::Refused(_), Ran::Refused(_)) => {}
            (Ran::Answered(..), Ran::Refused(_)) => {
                assert!(r.refused.contains(&Astar), "{}", describe(r))
            }
            // Cost vectors: BFS is refused, A* bounds the first component; it must find
            // Dijkstra's cost.
            (Ran::Refused(_), Ran::Answered(ca, _)) => {
                match run(&l, r, Dijkstra, EngineChoice::Interp) {
                    Ran::Answered(cd, _) => {
                        assert_eq!(ca, &cd, "{}: A* differs from Dijkstra", describe(r))
                    }
                    other => panic!("{}: dijkstra {other:?}", describe(r)),
                }
            }
        }
    }
    assert!(compared >= 25, "only {compared} rows compared");
}

/// Every backend that runs stops with `Cutoff::States` when the state budget is smaller
/// than what it needs, and prints no answer.
#[test]
fn every_backend_stops_at_the_state_budget() {
    let l = Loaded::new();
    let big = |p: P, c: &[u64]| {
        ROWS.iter()
            .find(|r| r.puzzle == p && r.cost == Some(c))
            .expect("row")
    };
    let rows = [
        big(P::Bloxorz, &[11]),
        big(P::Curling, &[4]),
        big(P::Huarong, &[58]),
        big(P::Sokoban, &[6, 22]),
        big(P::SokobanMoves, &[28]),
    ];
    for r in rows {
        let p = l.puzzle(r.puzzle);
        for (search, engine) in backends() {
            if r.refused.contains(&search) {
                continue;
            }
            let opts = SolveOptions {
                engine,
                search,
                budget: Budget {
                    max_states: Some(4),
                    ..Budget::default()
                },
                need_path: true,
                ..Default::default()
            };
            let ans = match solve_opts(&p.model, l.level(r), &opts) {
                Err(SolveError::SearchUnavailable(_)) | Err(SolveError::NotInvertible(_))
                    if may_refuse(r, search) =>
                {
                    continue
                }
                other => other.expect("runs"),
            };
            assert!(
                matches!(ans.outcome, Outcome::Cutoff(puz::search::Cutoff::States(_))),
                "{} with {search:?}/{engine:?}: {:?}",
                describe(r),
                ans.outcome
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// Random levels: the same checks beyond the table
// ---------------------------------------------------------------------------------------

/// A random small level for `p` in its legend, and the backends its rules refuse (by the
/// same rules as the table).
fn random_level(p: P, rng: &mut fastrand::Rng) -> (String, &'static [SearchChoice]) {
    let rows = rng.usize(1..=5);
    let cols = rng.usize(3..=6);
    let n = rows * cols;
    let mut cells: Vec<String> = vec![];
    let mut free = vec![];
    for i in 0..n {
        let wall = rng.f32() < 0.2;
        let s = match p {
            P::Bloxorz if wall => "#",
            P::Bloxorz if rng.f32() < 0.15 => "E",
            P::Curling if rng.f32() < 0.3 => "1",
            P::Curling => "0",
            P::Huarong | P::Sokoban | P::SokobanMoves if wall => "#",
            _ => ".",
        };
        if s == "." || s == "0" {
            free.push(i);
        }
        cells.push(s.to_string());
    }
    // Two or three distinct free cells for the pieces and the goal.
    if free.len() < 3 {
        free = (0..n).collect();
    }
    rng.shuffle(&mut free);
    let (a, b, c) = (free[0], free[1], free[2]);
    for i in [a, b, c] {
        cells[i] = if p == P::Curling { "0" } else { "." }.to_string();
    }
    let refused: &'static [SearchChoice] = match p {
        P::Bloxorz => {
            cells[a] = "X".into();
            // Lying when the cell to the east or south is floor too, half the time.
            let east = a % cols + 1 < cols && cells[a + 1] == ".";
            let south = a + cols < n && cells[a + cols] == ".";
            if rng.bool() && (east || south) {
                let other = if east { a + 1 } else { a + cols };
                cells[other] = "X".into();
            }
            let target = [b, c].into_iter().find(|&i| cells[i] == ".").unwrap_or(b);
            cells[target] = "O".into();
            BLOXORZ
        }
        P::Curling => {
            cells[a] = "2".into();
            cells[b] = "3".into();
            if cells.iter().any(|s| s == "1") {
                CURLING_BLOCKS
            } else {
                CURLING_NO_BLOCKS
            }
        }
        P::Huarong => {
            cells[a] = "E".into();
            if rng.u8(0..8) == 0 {
                cells[b] = "*".into();
            } else {
                cells[b] = "S".into();
                cells[c] = "T".into();
            }
            HUARONG
        }
        P::Sokoban | P::SokobanMoves => {
            cells[a] = "S".into();
            cells[b] = "B".into();
            cells[c] = "T".into();
            if p == P::Sokoban {
                SOKOBAN
            } else {
                SOKOBAN_UNIT
            }
        }
    };
    let sep = if p == P::Curling { " " } else { "" };
    let text: String = cells.chunks(cols).map(|r| r.join(sep) + "\n").collect();
    (text, refused)
}

/// Random levels of every puzzle against the brute force, on every backend. The number
/// of levels per puzzle is `PUZ_RANDOM_LEVELS` (default 60).
#[test]
fn random_levels_agree_with_brute_force_on_every_backend() {
    let per_puzzle: usize = std::env::var("PUZ_RANDOM_LEVELS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let l = Loaded::new();
    let mut rng = fastrand::Rng::with_seed(0x5eed_ba0c);
    let mut solved = 0;
    let backends = backends();
    for p in PUZZLES {
        for _ in 0..per_puzzle {
            let (text, refused) = random_level(p, &mut rng);
            let rows: Vec<String> = text.lines().map(str::to_string).collect();
            let want = brute(p, &rows);
            solved += usize::from(want.is_some());
            let text: &'static str = Box::leak(text.into_boxed_str());
            let cost: Option<&'static [u64]> = want.map(|v| &*Box::leak(v.into_boxed_slice()));
            let r = row(p, L::Text(text), cost, refused);
            for &(search, engine) in &backends {
                let what = format!("{} with {search:?}/{engine:?}", describe(&r));
                match run(&l, &r, search, engine) {
                    // Layered search also depends on the level: a man walled in never
                    // moves alone.
                    Ran::Refused(why) => assert!(
                        may_refuse(&r, search)
                            || (search == Layered && why.ends_with("never moves alone")),
                        "{what}: refused: {why}"
                    ),
                    Ran::Answered(got, _) => {
                        assert!(!refused.contains(&search), "{what}: not refused");
                        assert_eq!(got.as_deref(), r.cost, "{what}: wrong cost");
                    }
                }
            }
        }
    }
    assert!(solved > per_puzzle, "too few solvable levels: {solved}");
}
