//! Sokoban with one box (`puzzles/sokoban.puz`; spec `/work/shared/spec/puzzles.md`, section 2):
//! the interpreter against an independent brute force, on random boards, hand-made tie
//! cases, edge cases, the seed 003 sample and the POJ 1475 data.
//!
//! The reference below shares no code with the crate. Its rules, straight from the spec:
//!
//! - a **walk** `n s w e` moves the man one cell onto floor that is on the board and not the
//!   box; it adds one to `walks`;
//! - a **push** `N S W E` needs the box on the man's next cell that way and floor on the board
//!   beyond it; box and man both move one cell; it adds one to `pushes`;
//! - solved when the box stands on `T`; optimise (pushes, walks) lexicographically;
//! - ties: among the optimal solutions the push sequence is the lexicographically smallest
//!   in the order N < S < W < E; then every walk segment is the lexicographically smallest
//!   shortest walk in the order n < s < w < e. (This is the README's general rule for
//!   `cost pushes, walks`: compare the push subsequence, then the walk subsequence. Given
//!   the push sequence, the box's cells and the man's cell before each push are fixed, every
//!   walk segment is a shortest walk, so the walk subsequence compares segment by segment.)
//!
//! How the reference finds the canonical path:
//!
//! 1. Dijkstra over (man, box) states with cost (pushes, walks): `dist` from the start.
//! 2. An edge `s -> t` of cost `c` is *tight* when `dist[s] + c == dist[t]`; the optimal
//!    solutions are exactly the tight paths from the start to a goal state with
//!    `dist == opt`. A state is *useful* when a tight path leads from it to such a goal
//!    (computed in decreasing `dist` order; every move costs more than nothing).
//! 3. Pushes, greedily: from the current state take the closure over tight walk edges into
//!    useful states, then the smallest push direction with a tight push edge into a useful
//!    state. Repeat `opt.pushes` times.
//! 4. Walks: with the push sequence fixed, each segment is the lexicographically smallest
//!    shortest walk between its fixed ends (breadth-first distances to the segment's end,
//!    then the first direction that gets one step closer).
//!
//! On tiny boards a second, literal reference checks the first: a memoised search over
//! (state, pushes left, walks left) for the smallest (push sequence, walk sequence) of
//! *all* paths with exactly the optimal cost, and proof that no cheaper cost is possible.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::path::PathBuf;
use std::time::Instant;

use puz::io::judge::{run_judge, JudgeOptions};
use puz::search::{Budget, Outcome};
use puz::solver::{path_cost, solve, EngineChoice};
use puz::Puzzle;

// ---------------------------------------------------------------------------------------
// Independent reference
// ---------------------------------------------------------------------------------------

/// Direction vectors in the tie order n, s, w, e (N, S, W, E).
const DIRS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
const WALK_LETTERS: [char; 4] = ['n', 's', 'w', 'e'];
const PUSH_LETTERS: [char; 4] = ['N', 'S', 'W', 'E'];

/// (pushes, walks), compared lexicographically by the derived order of tuples.
type Cost = (u32, u32);

struct Board {
    rows: usize,
    cols: usize,
    wall: Vec<bool>,
    man: usize,
    box_: usize,
    target: usize,
}

impl Board {
    /// Parses rows of `. # S B T`; panics unless the board is rectangular with one of each.
    fn parse(text: &str) -> Board {
        let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
        let rows = lines.len();
        let cols = lines[0].len();
        let (mut man, mut box_, mut target) = (vec![], vec![], vec![]);
        let mut wall = vec![];
        for (r, l) in lines.iter().enumerate() {
            assert_eq!(l.len(), cols, "ragged board:\n{text}");
            for (c, ch) in l.bytes().enumerate() {
                let i = r * cols + c;
                wall.push(ch == b'#');
                match ch {
                    b'S' => man.push(i),
                    b'B' => box_.push(i),
                    b'T' => target.push(i),
                    b'.' | b'#' => {}
                    other => panic!("unexpected cell {:?} in\n{text}", other as char),
                }
            }
        }
        assert!(
            man.len() == 1 && box_.len() == 1 && target.len() == 1,
            "{text}"
        );
        Board {
            rows,
            cols,
            wall,
            man: man[0],
            box_: box_[0],
            target: target[0],
        }
    }

    fn cells(&self) -> usize {
        self.rows * self.cols
    }

    fn floor_cells(&self) -> usize {
        self.wall.iter().filter(|w| !**w).count()
    }

    /// The neighbouring cell in direction `d` when it is on the board and not a wall.
    fn step(&self, cell: usize, d: usize) -> Option<usize> {
        let r = (cell / self.cols) as i32 + DIRS[d].0;
        let c = (cell % self.cols) as i32 + DIRS[d].1;
        if r < 0 || c < 0 || r >= self.rows as i32 || c >= self.cols as i32 {
            return None;
        }
        let i = r as usize * self.cols + c as usize;
        (!self.wall[i]).then_some(i)
    }

    /// The cell one step against `d` (where the man stands to push that way).
    fn behind(&self, cell: usize, d: usize) -> Option<usize> {
        let back = [1, 0, 3, 2][d];
        self.step(cell, back)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct St {
    man: usize,
    bx: usize,
}

#[derive(Clone, Copy, Debug)]
struct Move {
    dir: usize,
    push: bool,
    to: St,
}

impl Move {
    fn cost(&self) -> Cost {
        if self.push {
            (1, 0)
        } else {
            (0, 1)
        }
    }
}

fn add(a: Cost, b: Cost) -> Cost {
    (a.0 + b.0, a.1 + b.1)
}

/// Every legal move from `s`, straight from the rules.
fn moves(board: &Board, s: St) -> Vec<Move> {
    let mut out = vec![];
    for d in 0..4 {
        let Some(next) = board.step(s.man, d) else {
            continue;
        };
        if next == s.bx {
            if let Some(beyond) = board.step(s.bx, d) {
                out.push(Move {
                    dir: d,
                    push: true,
                    to: St {
                        man: next,
                        bx: beyond,
                    },
                });
            }
        } else {
            out.push(Move {
                dir: d,
                push: false,
                to: St {
                    man: next,
                    bx: s.bx,
                },
            });
        }
    }
    out
}

/// What the reference knows about a board.
struct Solution {
    cost: Cost,
    path: String,
    /// How many optimal paths there are (saturating).
    optimal_paths: u64,
    /// Whether, after the canonical pushes so far, more than one push direction continued
    /// an optimal path at some point (the push order decided, not just the walks).
    push_choices: bool,
}

fn reference(board: &Board) -> Option<Solution> {
    let n = board.cells();
    let id = |s: St| s.man * n + s.bx;
    let start = St {
        man: board.man,
        bx: board.box_,
    };
    // 1. Dijkstra.
    let mut dist: Vec<Option<Cost>> = vec![None; n * n];
    let mut heap = BinaryHeap::new();
    dist[id(start)] = Some((0, 0));
    heap.push(Reverse(((0u32, 0u32), start.man, start.bx)));
    let mut settled = vec![false; n * n];
    let mut order = vec![];
    while let Some(Reverse((c, man, bx))) = heap.pop() {
        let s = St { man, bx };
        if std::mem::replace(&mut settled[id(s)], true) {
            continue;
        }
        order.push(s);
        for m in moves(board, s) {
            let nc = add(c, m.cost());
            if dist[id(m.to)].is_none_or(|old| nc < old) {
                dist[id(m.to)] = Some(nc);
                heap.push(Reverse((nc, m.to.man, m.to.bx)));
            }
        }
    }
    let opt = order
        .iter()
        .filter(|s| s.bx == board.target)
        .filter_map(|s| dist[id(*s)])
        .min()?;
    let tight = |s: St, m: &Move| dist[id(m.to)] == Some(add(dist[id(s)].unwrap(), m.cost()));
    // 2. Useful states and the number of optimal paths from each, in decreasing `dist`.
    let mut useful = vec![false; n * n];
    let mut count = vec![0u64; n * n];
    for &s in order.iter().rev() {
        if s.bx == board.target {
            if dist[id(s)] == Some(opt) {
                useful[id(s)] = true;
                count[id(s)] = 1;
            }
            continue;
        }
        for m in moves(board, s) {
            if tight(s, &m) && useful[id(m.to)] {
                useful[id(s)] = true;
                count[id(s)] = count[id(s)].saturating_add(count[id(m.to)]);
            }
        }
    }
    assert!(useful[id(start)]);
    // 3. The push sequence.
    let mut cur = start;
    let mut pushes = vec![];
    let mut push_choices = false;
    while (pushes.len() as u32) < opt.0 {
        let mut closure = vec![cur];
        let mut inside = vec![false; n * n];
        inside[id(cur)] = true;
        let mut k = 0;
        while k < closure.len() {
            let s = closure[k];
            k += 1;
            for m in moves(board, s) {
                if !m.push && tight(s, &m) && useful[id(m.to)] && !inside[id(m.to)] {
                    inside[id(m.to)] = true;
                    closure.push(m.to);
                }
            }
        }
        // Every push direction that continues an optimal path, smallest first.
        let mut options: Vec<(usize, St)> = vec![];
        for &s in &closure {
            for m in moves(board, s) {
                if m.push && tight(s, &m) && useful[id(m.to)] {
                    options.push((m.dir, m.to));
                }
            }
        }
        options.sort_by_key(|o| o.0);
        options.dedup_by_key(|o| o.0);
        push_choices |= options.len() > 1;
        let &(d, next) = options.first().expect("a useful state has a way on");
        // The pushes so far fix the box's cell, so the man ends on the box's old cell.
        assert_eq!(next.man, cur.bx);
        pushes.push(d);
        cur = next;
    }
    assert!(cur.bx == board.target && dist[id(cur)] == Some(opt));
    // 4. The walk segments.
    let mut path = String::new();
    let (mut man, mut bx) = (board.man, board.box_);
    for &d in &pushes {
        let spot = board.behind(bx, d).expect("the man stands behind the box");
        path.push_str(&smallest_shortest_walk(board, man, spot, bx));
        path.push(PUSH_LETTERS[d]);
        man = bx;
        bx = board.step(bx, d).unwrap();
    }
    Some(Solution {
        cost: opt,
        path,
        optimal_paths: count[id(start)],
        push_choices,
    })
}

/// The lexicographically smallest (n < s < w < e) shortest walk from `from` to `to` that
/// avoids walls and the box.
fn smallest_shortest_walk(board: &Board, from: usize, to: usize, bx: usize) -> String {
    let mut d = vec![u32::MAX; board.cells()];
    d[to] = 0;
    let mut q = VecDeque::from([to]);
    while let Some(c) = q.pop_front() {
        for dir in 0..4 {
            if let Some(nb) = board.step(c, dir) {
                if nb != bx && d[nb] == u32::MAX {
                    d[nb] = d[c] + 1;
                    q.push_back(nb);
                }
            }
        }
    }
    assert_ne!(d[from], u32::MAX, "the segment's end is reachable");
    let mut out = String::new();
    let mut c = from;
    while c != to {
        let dir = (0..4)
            .find(|&dir| {
                board
                    .step(c, dir)
                    .is_some_and(|nb| nb != bx && d[nb] + 1 == d[c])
            })
            .unwrap();
        out.push(WALK_LETTERS[dir]);
        c = board.step(c, dir).unwrap();
    }
    out
}

/// Replays a path with the reference rules: its cost, or why it is not a solution.
fn replay(board: &Board, path: &str) -> Result<Cost, String> {
    let (mut man, mut bx) = (board.man, board.box_);
    let mut cost = (0, 0);
    for (k, ch) in path.chars().enumerate() {
        let (d, push) = if let Some(d) = WALK_LETTERS.iter().position(|&l| l == ch) {
            (d, false)
        } else if let Some(d) = PUSH_LETTERS.iter().position(|&l| l == ch) {
            (d, true)
        } else {
            return Err(format!("move {}: unknown letter {ch:?}", k + 1));
        };
        let next = board
            .step(man, d)
            .ok_or_else(|| format!("move {} ({ch}): into a wall or off the board", k + 1))?;
        if push {
            if next != bx {
                return Err(format!("move {} ({ch}): no box to push", k + 1));
            }
            bx = board
                .step(bx, d)
                .ok_or_else(|| format!("move {} ({ch}): the box is blocked", k + 1))?;
            cost.0 += 1;
        } else {
            if next == bx {
                return Err(format!("move {} ({ch}): walks into the box", k + 1));
            }
            cost.1 += 1;
        }
        man = next;
    }
    if bx != board.target {
        return Err("the box does not end on the target".to_string());
    }
    Ok(cost)
}

/// Key of a path under the tie rule: (push directions, walk directions) as tie ranks.
type Key = (Vec<u8>, Vec<u8>);

/// The literal search's memo: (man, box, pushes left, walks left) to the best key and path.
type Memo = HashMap<(usize, usize, u32, u32), Option<(Key, String)>>;

/// The literal rule on tiny boards: the smallest (push sequence, walk sequence) over all
/// paths from `s` that reach the goal with exactly `p` pushes and `w` walks, with the path.
fn literal(board: &Board, memo: &mut Memo, s: St, p: u32, w: u32) -> Option<(Key, String)> {
    if s.bx == board.target {
        // Optimal paths never pass the goal early (their prefix would be cheaper).
        return (p == 0 && w == 0).then(|| ((vec![], vec![]), String::new()));
    }
    if let Some(v) = memo.get(&(s.man, s.bx, p, w)) {
        return v.clone();
    }
    let mut best: Option<(Key, String)> = None;
    for m in moves(board, s) {
        let cand = if m.push {
            if p == 0 {
                continue;
            }
            literal(board, memo, m.to, p - 1, w).map(|((mut ps, ws), rest)| {
                ps.insert(0, m.dir as u8);
                ((ps, ws), format!("{}{rest}", PUSH_LETTERS[m.dir]))
            })
        } else {
            if w == 0 {
                continue;
            }
            literal(board, memo, m.to, p, w - 1).map(|((ps, mut ws), rest)| {
                ws.insert(0, m.dir as u8);
                ((ps, ws), format!("{}{rest}", WALK_LETTERS[m.dir]))
            })
        };
        if let Some(c) = cand {
            if best.as_ref().is_none_or(|b| c.0 < b.0) {
                best = Some(c);
            }
        }
    }
    memo.insert((s.man, s.bx, p, w), best.clone());
    best
}

/// Checks the reference against the literal rule on a solvable tiny board: no cheaper cost
/// exists, and the smallest key at the optimal cost is the reference's path.
fn check_literally(board: &Board, sol: &Solution, text: &str) {
    let start = St {
        man: board.man,
        bx: board.box_,
    };
    let mut memo = HashMap::new();
    let (p_opt, w_opt) = sol.cost;
    // A solution with p pushes can be shortened to one whose walk segments are simple.
    let walk_bound = |p: u32| (p + 1) * board.floor_cells() as u32;
    for p in 0..=p_opt {
        let w_max = if p == p_opt {
            w_opt.saturating_sub(1)
        } else {
            walk_bound(p)
        };
        if p == p_opt && w_opt == 0 {
            continue;
        }
        for w in 0..=w_max {
            assert!(
                literal(board, &mut memo, start, p, w).is_none(),
                "literal search finds a cheaper cost ({p}, {w}) than {:?} on\n{text}",
                sol.cost
            );
        }
    }
    let (_, path) = literal(board, &mut memo, start, p_opt, w_opt)
        .unwrap_or_else(|| panic!("literal search finds no path of cost {:?}", sol.cost));
    assert_eq!(path, sol.path, "reference vs literal tie rule on\n{text}");
}

// ---------------------------------------------------------------------------------------
// The crate
// ---------------------------------------------------------------------------------------

fn sokoban_source() -> String {
    std::fs::read_to_string("puzzles/sokoban.puz").expect("read puzzles/sokoban.puz")
}

fn load_puzzle() -> Puzzle {
    Puzzle::load("sokoban.puz", sokoban_source())
        .unwrap_or_else(|d| panic!("sokoban.puz does not load: {d:?}"))
}

/// Solves a board with `engine`: `Some(((pushes, walks), letters))` or `None`.
fn crate_solve_with(puzzle: &Puzzle, text: &str, engine: EngineChoice) -> Option<(Cost, String)> {
    let level = puzzle
        .level_from_file("random", text.to_string())
        .unwrap_or_else(|d| panic!("valid board rejected:\n{text}\n{d:?}"));
    let ans = solve(&puzzle.model, level, engine, &Budget::default())
        .unwrap_or_else(|e| panic!("solve ({engine:?}) failed on\n{text}\n{e}"));
    match ans.outcome {
        Outcome::Solved(path) => {
            let cost = path_cost(&puzzle.model, &path.actions);
            assert_eq!(cost.len(), 2, "sokoban has two cost components");
            let letters: String = path
                .actions
                .iter()
                .map(|&a| puzzle.model.letter(a))
                .collect();
            Some(((cost[0] as u32, cost[1] as u32), letters))
        }
        Outcome::Unsolvable => None,
        other => panic!("unbudgeted search gave {other:?} on\n{text}"),
    }
}

/// Compares the interpreter with the reference on one board; returns the reference.
fn compare(puzzle: &Puzzle, text: &str, what: &str) -> Option<Solution> {
    compare_with(puzzle, text, what, EngineChoice::Interp)
}

fn compare_with(puzzle: &Puzzle, text: &str, what: &str, engine: EngineChoice) -> Option<Solution> {
    let board = Board::parse(text);
    let expected = reference(&board);
    let got = crate_solve_with(puzzle, text, engine);
    match (&got, &expected) {
        (None, None) => {}
        (Some((cost, letters)), Some(sol)) => {
            let replayed = replay(&board, letters)
                .unwrap_or_else(|e| panic!("{what}: illegal path {letters:?} on\n{text}\n{e}"));
            assert_eq!(
                replayed, *cost,
                "{what}: path_cost disagrees with the replay of {letters:?} on\n{text}"
            );
            assert_eq!(
                *cost, sol.cost,
                "{what}: wrong optimum on\n{text}\ngot {letters}, canonical {}",
                sol.path
            );
            assert_eq!(
                *letters, sol.path,
                "{what}: not the canonical path on\n{text}"
            );
        }
        (got, expected) => panic!(
            "{what}: crate says {got:?}, reference says {:?} on\n{text}",
            expected.as_ref().map(|s| &s.path)
        ),
    }
    if let Some(sol) = &expected {
        assert_eq!(replay(&board, &sol.path), Ok(sol.cost), "reference replay");
    }
    expected
}

/// Judge mode with the default options (`--engine auto`).
fn judge(puzzle: &Puzzle, input: &str) -> String {
    judge_with(puzzle, input, EngineChoice::Auto)
}

fn judge_with(puzzle: &Puzzle, input: &str, engine: EngineChoice) -> String {
    let opts = JudgeOptions {
        engine,
        ..JudgeOptions::default()
    };
    let mut out: Vec<u8> = vec![];
    run_judge(puzzle, input, &mut out, &opts)
        .unwrap_or_else(|e| panic!("judge ({engine:?}) failed: {e}"));
    String::from_utf8(out).expect("judge output is UTF-8")
}

/// Splits judge input (`r c`, r rows, ..., `0 0`) into boards.
fn split_cases(input: &str) -> Vec<String> {
    let mut lines = input.lines().map(|l| l.trim_end_matches('\r'));
    let mut boards = vec![];
    loop {
        let header = lines
            .by_ref()
            .find(|l| !l.trim().is_empty())
            .expect("header");
        let nums: Vec<usize> = header
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        if nums == [0, 0] {
            return boards;
        }
        let rows: Vec<&str> = lines.by_ref().take(nums[0]).collect();
        assert!(rows.iter().all(|r| r.len() == nums[1]), "{rows:?}");
        boards.push(rows.join("\n"));
    }
}

fn judge_input(boards: &[String]) -> String {
    let mut input = String::new();
    for b in boards {
        let lines: Vec<&str> = b.lines().collect();
        input.push_str(&format!("{} {}\n", lines.len(), lines[0].len()));
        for l in lines {
            input.push_str(l);
            input.push('\n');
        }
    }
    input.push_str("0 0\n");
    input
}

fn expected_judge_output(boards: &[String]) -> String {
    boards
        .iter()
        .enumerate()
        .map(|(k, b)| match reference(&Board::parse(b)) {
            Some(sol) => format!("Maze #{}\n{}\n\n", k + 1, sol.path),
            None => format!("Maze #{}\nImpossible.\n\n", k + 1),
        })
        .collect()
}

/// The answers of a judge output, in order (`None` for `Impossible.`).
fn answers(output: &str) -> Vec<Option<String>> {
    let lines: Vec<&str> = output.lines().collect();
    let mut out = vec![];
    let mut i = 0;
    while i < lines.len() {
        assert_eq!(lines[i], format!("Maze #{}", out.len() + 1), "{output}");
        let a = lines[i + 1];
        out.push((a != "Impossible.").then(|| a.to_string()));
        assert_eq!(lines.get(i + 2).copied().unwrap_or(""), "");
        i += 3;
    }
    out
}

// ---------------------------------------------------------------------------------------
// Random boards
// ---------------------------------------------------------------------------------------

/// A random board of 1..=7 x 1..=7 cells with exactly one S, B and T on distinct cells.
fn random_board(rng: &mut fastrand::Rng) -> String {
    loop {
        // Mostly 3..=7 wide and high; thinner boards leave the box little room.
        let mut side = || {
            if rng.f64() < 0.3 {
                rng.usize(1..=7)
            } else {
                rng.usize(3..=7)
            }
        };
        let (rows, cols) = (side(), side());
        if rows * cols < 3 {
            continue;
        }
        // Open rooms (many equal-cost answers) as often as cluttered ones.
        let density = [0.0, 0.0, 0.08, 0.15, 0.25, 0.4][rng.usize(0..6)];
        let framed = rows >= 3 && cols >= 3 && (rows - 2) * (cols - 2) >= 3 && rng.bool();
        let mut g = vec![vec![b'.'; cols]; rows];
        for (r, row) in g.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                let border = r == 0 || c == 0 || r == rows - 1 || c == cols - 1;
                if (framed && border) || rng.f64() < density {
                    *cell = b'#';
                }
            }
        }
        let inner: Vec<(usize, usize)> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter(|&(r, c)| !framed || (r > 0 && c > 0 && r < rows - 1 && c < cols - 1))
            .collect();
        // The box usually away from the board's edge, where it could never move; the target
        // often away from it too.
        let away: Vec<(usize, usize)> = inner
            .iter()
            .copied()
            .filter(|&(r, c)| r > 0 && c > 0 && r < rows - 1 && c < cols - 1)
            .collect();
        let mut picks = vec![];
        while picks.len() < 3 {
            let p = if !away.is_empty() && rng.f64() < [0.8, 0.0, 0.5][picks.len()] {
                away[rng.usize(0..away.len())]
            } else {
                inner[rng.usize(0..inner.len())]
            };
            if !picks.contains(&p) {
                picks.push(p);
            }
        }
        for (&(r, c), ch) in picks.iter().zip([b'B', b'S', b'T']) {
            g[r][c] = ch;
        }
        let text: Vec<String> = g
            .into_iter()
            .map(|r| String::from_utf8(r).unwrap())
            .collect();
        return text.join("\n");
    }
}

const SEEDS: [u64; 4] = [0x50c0_0001, 0xb0c5, 1475, 0x0174_0003];
const BOARDS_PER_SEED: usize = 2500;

#[test]
fn random_boards_match_the_reference_exactly() {
    let puzzle = load_puzzle();
    let t = Instant::now();
    let (mut solved, mut unsolved, mut tied, mut push_tied, mut literal_checked) = (0, 0, 0, 0, 0);
    let (mut max_pushes, mut max_walks, mut max_ties) = (0, 0, 0u64);
    for seed in SEEDS {
        let mut rng = fastrand::Rng::with_seed(seed);
        for i in 0..BOARDS_PER_SEED {
            let text = random_board(&mut rng);
            let what = format!("seed {seed:#x} board {i}");
            match compare(&puzzle, &text, &what) {
                Some(sol) => {
                    solved += 1;
                    max_pushes = max_pushes.max(sol.cost.0);
                    max_walks = max_walks.max(sol.cost.1);
                    max_ties = max_ties.max(sol.optimal_paths);
                    if sol.optimal_paths > 1 {
                        tied += 1;
                    }
                    if sol.push_choices {
                        push_tied += 1;
                    }
                    let board = Board::parse(&text);
                    if board.floor_cells() <= 9 && sol.cost.0 <= 8 {
                        check_literally(&board, &sol, &text);
                        literal_checked += 1;
                    }
                }
                None => unsolved += 1,
            }
        }
    }
    let total = SEEDS.len() * BOARDS_PER_SEED;
    eprintln!(
        "{total} boards in {:.1}s: {solved} solvable ({tied} with several optimal paths, up to {max_ties}; {push_tied} where the push order decides; \
         up to {max_pushes} pushes, {max_walks} walks), {unsolved} unsolvable, {literal_checked} checked by the literal rule",
        t.elapsed().as_secs_f64()
    );
    assert!(solved >= total / 4, "too few solvable boards: {solved}");
    assert!(
        unsolved >= total / 10,
        "too few unsolvable boards: {unsolved}"
    );
    assert!(tied >= total / 10, "too few tied boards: {tied}");
    assert!(
        push_tied >= total / 50,
        "too few push-order ties: {push_tied}"
    );
    assert!(
        literal_checked >= 500,
        "too few literal checks: {literal_checked}"
    );
    assert!(max_pushes >= 8, "no long push sequences (max {max_pushes})");
}

#[test]
fn random_boards_through_judge_mode() {
    let puzzle = load_puzzle();
    let mut rng = fastrand::Rng::with_seed(0x1a_d9e5);
    let boards: Vec<String> = (0..300).map(|_| random_board(&mut rng)).collect();
    let expected = expected_judge_output(&boards);
    assert!(expected.contains("Impossible.") && expected.contains("Maze #300\n"));
    let input = judge_input(&boards);
    for engine in [EngineChoice::Auto, EngineChoice::Interp] {
        let got = judge_with(&puzzle, &input, engine);
        for (k, (g, e)) in answers(&got).iter().zip(answers(&expected)).enumerate() {
            assert_eq!(
                *g,
                e,
                "judge ({engine:?}) case {} differs on\n{}",
                k + 1,
                boards[k]
            );
        }
        assert_eq!(got, expected, "judge ({engine:?})");
    }
}

/// Whenever a sokoban fast path exists (`--engine fast`), it must give the same answers,
/// ties included. Until one exists the test only says so.
#[test]
fn fast_engine_when_available_matches_the_reference() {
    let puzzle = load_puzzle();
    let probe = puzzle
        .level_from_file("probe", "SB....T".to_string())
        .unwrap();
    if let Err(e) = solve(&puzzle.model, probe, EngineChoice::Fast, &Budget::default()) {
        eprintln!("no sokoban fast path yet ({e}); skipped");
        return;
    }
    let mut rng = fastrand::Rng::with_seed(0xfa57);
    for i in 0..3000 {
        let text = random_board(&mut rng);
        compare_with(
            &puzzle,
            &text,
            &format!("fast board {i}"),
            EngineChoice::Fast,
        );
    }
    let input = poj_data("pushing1.in");
    let boards = split_cases(&input);
    assert_eq!(
        judge_with(&puzzle, &input, EngineChoice::Fast),
        expected_judge_output(&boards)
    );
}

// ---------------------------------------------------------------------------------------
// Judge data
// ---------------------------------------------------------------------------------------

const SEED_SAMPLE_OUT: &str = "Maze #1\nEEEEE\n\nMaze #2\nImpossible.\n\nMaze #3\n\
     eennwwWWWWeeeeeesswwwwwwwnNN\n\nMaze #4\nswwwnnnnnneeesssSSS\n\n";

/// The sample input and output of seed 003, between 输入样例 and 输出样例.
fn seed_sample() -> (String, String) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/seeds");
    let file = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("003_"))
        .expect("seed 003 is in tests/data/seeds");
    let text = std::fs::read_to_string(file).unwrap();
    let after_in = &text[text.find("输入样例").unwrap()..];
    let input = &after_in[after_in.find('\n').unwrap() + 1..after_in.find("输出样例").unwrap()];
    let after_out = &after_in[after_in.find("输出样例").unwrap()..];
    let body = &after_out[after_out.find('\n').unwrap() + 1..];
    // The output runs up to the first line that is neither part of a block nor blank.
    let mut output = String::new();
    let mut lines = body.lines();
    while let Some(l) = lines.next() {
        if !l.starts_with("Maze #") {
            break;
        }
        output.push_str(l);
        output.push('\n');
        output.push_str(lines.next().unwrap());
        output.push_str("\n\n");
        lines.next();
    }
    (input.trim_start().to_string(), output)
}

#[test]
fn seed_sample_gives_exactly_the_sample_output() {
    let puzzle = load_puzzle();
    let (input, output) = seed_sample();
    assert_eq!(
        output, SEED_SAMPLE_OUT,
        "the sample output as read from seed 003"
    );
    assert_eq!(judge(&puzzle, &input), output);
    // The reference agrees with the sample too.
    assert_eq!(expected_judge_output(&split_cases(&input)), output);
    // Windows line breaks and no final line break.
    let crlf = input.replace('\n', "\r\n");
    assert_eq!(judge(&puzzle, crlf.trim_end()), output);
}

fn poj_data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/pushing_boxes_poj1475")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read the shared judge data {}: {e}\n\
             these tests need tests/data/pushing_boxes_poj1475",
            path.display()
        )
    })
}

/// Judges a POJ 1475 input: every answer of ours, and of each expected file, is legal and
/// optimal by the reference; ours equals the canonical reference byte for byte. Returns
/// how many answers of each expected file are canonical.
fn check_poj(input_name: &str, expected_names: &[&str]) -> Vec<usize> {
    let puzzle = load_puzzle();
    let input = poj_data(input_name);
    let boards = split_cases(&input);
    let got = judge(&puzzle, &input);
    let ours = answers(&got);
    assert_eq!(ours.len(), boards.len());
    let refs: Vec<Option<Solution>> = boards.iter().map(|b| reference(&Board::parse(b))).collect();
    for (k, (text, (a, r))) in boards.iter().zip(ours.iter().zip(&refs)).enumerate() {
        let board = Board::parse(text);
        match (a, r) {
            (None, None) => {}
            (Some(a), Some(r)) => {
                let cost = replay(&board, a)
                    .unwrap_or_else(|e| panic!("{input_name} maze {}: illegal: {e}", k + 1));
                assert_eq!(cost, r.cost, "{input_name} maze {}: not optimal", k + 1);
                assert_eq!(*a, r.path, "{input_name} maze {}: not canonical", k + 1);
            }
            _ => panic!(
                "{input_name} maze {}: ours {a:?}, reference {:?}",
                k + 1,
                r.as_ref().map(|s| &s.path)
            ),
        }
    }
    assert_eq!(got, expected_judge_output(&boards));
    let mut canonical = vec![];
    for name in expected_names {
        let theirs = answers(&poj_data(name));
        assert_eq!(theirs.len(), boards.len(), "{name}");
        let mut same = 0;
        for (k, (t, r)) in theirs.iter().zip(&refs).enumerate() {
            match (t, r) {
                (None, None) => same += 1,
                (Some(t), Some(r)) => {
                    let board = Board::parse(&boards[k]);
                    let cost = replay(&board, t)
                        .unwrap_or_else(|e| panic!("{name} maze {}: illegal: {e}", k + 1));
                    assert_eq!(
                        cost,
                        r.cost,
                        "{name} maze {}: the reference is not optimal",
                        k + 1
                    );
                    same += usize::from(*t == r.path);
                }
                _ => panic!(
                    "{name} maze {}: solvability differs from the reference",
                    k + 1
                ),
            }
        }
        canonical.push(same);
    }
    canonical
}

#[test]
fn poj1475_original_data_is_optimal_and_canonical() {
    let t = Instant::now();
    let canonical = check_poj("pushing1.in", &["pushing1.out", "pushing.sol"]);
    eprintln!(
        "pushing1: 26 mazes in {:.1}s; canonical answers in pushing1.out / pushing.sol: {canonical:?}",
        t.elapsed().as_secs_f64()
    );
}

#[test]
fn poj1475_hack_data_is_optimal_and_canonical() {
    let canonical = check_poj("pushing2.in", &["pushing2.out"]);
    // Both hack mazes have several optimal answers; the expected file holds the canonical ones.
    assert_eq!(canonical, vec![2]);
    let puzzle = load_puzzle();
    assert_eq!(
        judge(&puzzle, &poj_data("pushing2.in")),
        "Maze #1\nnEseNNenW\n\nMaze #2\nnWswNNwnE\n\n"
    );
}

// ---------------------------------------------------------------------------------------
// Hand-made ties
// ---------------------------------------------------------------------------------------

/// Checks a board's answer against a hand-derived path, via the crate and the reference.
fn expect_path(puzzle: &Puzzle, text: &str, cost: Cost, path: &str) {
    let board = Board::parse(text);
    assert_eq!(replay(&board, path), Ok(cost), "hand path on\n{text}");
    let sol = compare(puzzle, text, "hand-made")
        .unwrap_or_else(|| panic!("hand-made board is solvable:\n{text}"));
    assert_eq!(
        (sol.cost, sol.path.as_str()),
        (cost, path),
        "reference on\n{text}"
    );
}

#[test]
fn push_s_first_beats_push_e_first() {
    let puzzle = load_puzzle();
    // The box must go two south and one east: 3 pushes. Sequences and their walks:
    //   SSE: e, S S, then w s to get west of the box, E          -> 3 walks  "eSSwsE"
    //   ESS: s, E, then n e to get north of the box, S S         -> 3 walks  "sEneSS"
    //   SES: e, S, w s, E, n e, S                                -> 5 walks
    // SSE and ESS tie at (3, 3); S < E decides (the spec notes that the seed's C++ answers
    // E first in some such ties). Comparing whole move sequences instead, with walks before
    // pushes, would wrongly pick "sEneSS" (s < e).
    let text = "S...\n.B..\n....\n..T.";
    expect_path(&puzzle, text, (3, 3), "eSSwsE");
    assert!(reference(&Board::parse(text)).unwrap().optimal_paths >= 2);
}

#[test]
fn fewer_walks_beat_the_push_order() {
    let puzzle = load_puzzle();
    // Same box and target, the man now west of the box: ESS costs E, n e, S S (2 walks);
    // SSE costs n e, S S, w s, E (4 walks). Walks are compared before the tie rule.
    expect_path(&puzzle, "....\nSB..\n....\n..T.", (3, 2), "EneSS");
}

#[test]
fn push_n_first_beats_push_w_first() {
    let puzzle = load_puzzle();
    // Box to the north-west corner; the man south-east of it.
    //   NW: w, N, e n, W -> 3 walks "wNenW";   WN: n, W, s w, N -> 3 walks "nWswN".
    // N < W decides.
    expect_path(&puzzle, "T..\n.B.\n..S", (2, 3), "wNenW");
    // Mirrored to the north-east (man south-west): NE "eNwnE" and EN "nEseN" tie; N < E.
    expect_path(&puzzle, "..T\n.B.\nS..", (2, 3), "eNwnE");
    // To the south-west, the man north-east of the box:
    //   SW: w (north of the box), S, e s (east of it), W -> 3 walks "wSesW"
    //   WS: s (east of the box), W, n w (north of it), S -> 3 walks "sWnwS"
    // S < W decides.
    expect_path(&puzzle, "..S\n.B.\nT..", (2, 3), "wSesW");
}

#[test]
fn walks_go_round_the_north_side_first() {
    let puzzle = load_puzzle();
    // Two pushes W W from the cell east of the box, (1,3); the wall at (1,4) sends the man
    // round the north side "nwws" or the south side "swwn", 4 walks either way; n < s.
    expect_path(&puzzle, "......\nT.B.#S\n......", (2, 4), "nwwsWW");
    // With the north row walled off only the south side is left.
    expect_path(&puzzle, "######\nT.B.#S\n......", (2, 4), "swwnWW");
}

#[test]
fn walk_segments_take_the_smallest_letters_in_an_open_room() {
    let puzzle = load_puzzle();
    // One push N from (2,1); the man at (4,3) needs two n and two w in any order: every
    // order is a shortest walk and "nnww" is the smallest (n < s < w < e).
    expect_path(
        &puzzle,
        ".T...\n.B...\n.....\n.....\n...S.",
        (1, 4),
        "nnwwN",
    );
    // One push S from (1,3); the man at (0,0) needs one s and three e: "seee" is smallest.
    expect_path(&puzzle, "S....\n.....\n...B.\n...T.", (1, 4), "seeeS");
}

// ---------------------------------------------------------------------------------------
// Edge cases
// ---------------------------------------------------------------------------------------

#[test]
fn tiny_and_degenerate_boards() {
    let puzzle = load_puzzle();
    let cases: [(&str, Option<&str>); 14] = [
        // One row: push east, west; the wrong side is hopeless.
        ("SBT", Some("E")),
        ("TBS", Some("W")),
        ("BST", None),
        ("SB.T", Some("EE")),
        ("S.BT", Some("eE")),
        // One column: push south, north.
        ("S\nB\nT", Some("S")),
        ("T\nB\nS", Some("N")),
        ("T\n.\nB\n.\nS", Some("nNN")),
        // The box in a corner cannot move.
        ("B.\nST", None),
        // The man enclosed by walls and the board's edge.
        ("S#..\n##B.\n...T", None),
        ("#####\n#S#.#\n###B#\n#..T#", None),
        // The man enclosed except towards the box: one push E frees him, then n e, S.
        ("##..\n#SB.\n###T", Some("EneS")),
        // The target behind a wall.
        ("SB#T", None),
        // Two by two: the box is on the edge above the target; nobody gets above it.
        ("SB\n.T", None),
    ];
    for (text, path) in cases {
        let sol = compare(&puzzle, text, "edge case");
        assert_eq!(sol.map(|s| s.path).as_deref(), path, "on\n{text}");
    }
}

/// The POJ format cannot place the box on the target at the start; a copy of the puzzle
/// with one more legend symbol can. The answer is then the empty path (and an empty line
/// in judge mode).
#[test]
fn box_already_on_target_gives_the_empty_path() {
    let source = sokoban_source();
    let extended = source.replacen(
        "'T' floor + target",
        "'T' floor + target\n  '*' floor + box + target",
        1,
    );
    assert_ne!(
        source, extended,
        "the legend has a `'T' floor + target` entry"
    );
    let puzzle = Puzzle::load("sokoban-star.puz", extended)
        .unwrap_or_else(|d| panic!("the extended puzzle does not load: {d:?}"));
    for text in ["S*", "*", "#S#\n.*.", "S...\n.*..\n...."] {
        if text == "*" {
            // No man: not a valid level.
            assert!(puzzle.level_from_file("star", text.to_string()).is_err());
            continue;
        }
        let level = puzzle.level_from_file("star", text.to_string()).unwrap();
        let ans = solve(
            &puzzle.model,
            level,
            EngineChoice::Interp,
            &Budget::default(),
        )
        .unwrap();
        match ans.outcome {
            Outcome::Solved(p) => assert!(p.actions.is_empty(), "{text}: {:?}", p.actions),
            other => panic!("{text}: {other:?}"),
        }
    }
    assert_eq!(
        judge(&puzzle, "2 2\nS*\n..\n1 3\nS*.\n0 0\n"),
        "Maze #1\n\n\nMaze #2\n\n\n"
    );
}

#[test]
fn boards_without_room_for_three_pieces_are_rejected() {
    let puzzle = load_puzzle();
    for text in ["S", "SB", "ST", "BT", "S.\n.B"] {
        assert!(
            puzzle.level_from_file("bad", text.to_string()).is_err(),
            "{text:?} lacks a piece or the target and must be rejected"
        );
    }
}
