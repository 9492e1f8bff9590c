//! Randomised differential test of the Bloxorz interpreter against an independent brute force.
//!
//! The brute force below shares nothing with the crate: it works on the set of covered cells
//! (one cell standing, two cells lying) and derives every roll geometrically from the spec
//! (`/work/shared/spec/puzzles.md`, section 1) instead of from the `.puz` turn table:
//!
//! - standing on `p`, rolling towards `d` covers `p + d` and `p + 2d`;
//! - lying along `d`'s axis, the block stands up on the cell beyond its far end in `d`;
//! - lying across `d`'s axis, both covered cells move by `d`.
//!
//! A position is legal when every covered cell is on the board and not `#`, and a standing
//! block is not on `E`. The goal is standing on `O`; the cost is the number of rolls.

mod common;

use common::{bloxorz_board, Frame};
use std::collections::{HashMap, VecDeque};

use puz::io::judge::{run_judge, JudgeOptions};
use puz::search::{Budget, Outcome};
use puz::solver::{path_cost, solve, EngineChoice};
use puz::Puzzle;

// ---------------------------------------------------------------------------------------
// Independent brute force
// ---------------------------------------------------------------------------------------

/// A block position: the covered cells, sorted; `b == a` when standing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Pos {
    a: (i32, i32),
    b: (i32, i32),
}

impl Pos {
    fn new(p: (i32, i32), q: (i32, i32)) -> Pos {
        if p <= q {
            Pos { a: p, b: q }
        } else {
            Pos { a: q, b: p }
        }
    }

    fn standing(&self) -> bool {
        self.a == self.b
    }
}

struct Board {
    grid: Vec<Vec<u8>>,
}

impl Board {
    fn parse(text: &str) -> Board {
        Board {
            grid: text.lines().map(|l| l.as_bytes().to_vec()).collect(),
        }
    }

    fn rows(&self) -> i32 {
        self.grid.len() as i32
    }

    fn cols(&self) -> i32 {
        self.grid[0].len() as i32
    }

    /// The cell's byte, or `None` off the board.
    fn at(&self, (r, c): (i32, i32)) -> Option<u8> {
        if r < 0 || c < 0 || r >= self.rows() || c >= self.cols() {
            None
        } else {
            Some(self.grid[r as usize][c as usize])
        }
    }

    fn solid(&self, p: (i32, i32)) -> bool {
        matches!(self.at(p), Some(b'.' | b'E' | b'X' | b'O'))
    }

    fn legal(&self, pos: Pos) -> bool {
        if pos.standing() {
            self.solid(pos.a) && self.at(pos.a) != Some(b'E')
        } else {
            self.solid(pos.a) && self.solid(pos.b)
        }
    }

    fn goal(&self, pos: Pos) -> bool {
        pos.standing() && self.at(pos.a) == Some(b'O')
    }

    fn start(&self) -> Pos {
        let mut xs = vec![];
        for r in 0..self.rows() {
            for c in 0..self.cols() {
                if self.at((r, c)) == Some(b'X') {
                    xs.push((r, c));
                }
            }
        }
        match xs.as_slice() {
            [p] => Pos::new(*p, *p),
            [p, q] => {
                assert_eq!(
                    (p.0 - q.0).abs() + (p.1 - q.1).abs(),
                    1,
                    "generator made non-adjacent X cells"
                );
                Pos::new(*p, *q)
            }
            _ => panic!("generator made {} X cells", xs.len()),
        }
    }
}

/// Direction vectors, indexed like the letters `n s w e`.
const DIRS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

fn dir_of(letter: char) -> (i32, i32) {
    match letter {
        'n' => DIRS[0],
        's' => DIRS[1],
        'w' => DIRS[2],
        'e' => DIRS[3],
        other => panic!("unexpected path letter {other:?}"),
    }
}

fn add(p: (i32, i32), d: (i32, i32), k: i32) -> (i32, i32) {
    (p.0 + k * d.0, p.1 + k * d.1)
}

/// The geometric roll of the block towards `d` (legality not checked).
fn roll(pos: Pos, d: (i32, i32)) -> Pos {
    if pos.standing() {
        return Pos::new(add(pos.a, d, 1), add(pos.a, d, 2));
    }
    let axis = (pos.b.0 - pos.a.0, pos.b.1 - pos.a.1);
    let along = axis.0 * d.0 + axis.1 * d.1;
    if along != 0 {
        // Parallel: stand up beyond the end that leads in `d`.
        let far = if along > 0 { pos.b } else { pos.a };
        let p = add(far, d, 1);
        Pos::new(p, p)
    } else {
        Pos::new(add(pos.a, d, 1), add(pos.b, d, 1))
    }
}

/// Fewest rolls from the start to a goal, or `None` when no goal is reachable.
fn brute_force(board: &Board) -> Option<usize> {
    let start = board.start();
    assert!(board.legal(start), "generator made an illegal start");
    let mut dist: HashMap<Pos, usize> = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert(start, 0);
    queue.push_back(start);
    while let Some(p) = queue.pop_front() {
        let d0 = dist[&p];
        if board.goal(p) {
            return Some(d0);
        }
        for d in DIRS {
            let q = roll(p, d);
            if board.legal(q) && !dist.contains_key(&q) {
                dist.insert(q, d0 + 1);
                queue.push_back(q);
            }
        }
    }
    None
}

/// Replays a path of `n s w e` letters with the brute-force rules; panics on any illegal
/// step or when the path does not end standing on `O`.
fn replay(board: &Board, letters: &str, what: &str) {
    let mut pos = board.start();
    for (k, ch) in letters.chars().enumerate() {
        pos = roll(pos, dir_of(ch));
        assert!(
            board.legal(pos),
            "{what}: roll {} ({ch}) of path {letters:?} leads to illegal {pos:?}",
            k + 1
        );
    }
    assert!(
        board.goal(pos),
        "{what}: path {letters:?} ends at {pos:?}, not standing on O"
    );
}

// ---------------------------------------------------------------------------------------
// Random boards
// ---------------------------------------------------------------------------------------

/// One random valid level, as text (rows joined by '\n', no trailing line break).
fn random_board(rng: &mut fastrand::Rng) -> (String, Frame) {
    bloxorz_board(rng, 9)
}

fn load_puzzle() -> Puzzle {
    let text = std::fs::read_to_string("puzzles/bloxorz.puz").expect("read puzzles/bloxorz.puz");
    Puzzle::load("bloxorz.puz", text).unwrap_or_else(|d| panic!("bloxorz.puz does not load: {d:?}"))
}

/// Solves a board with the crate's interpreter: `Some((cost, letters))` or `None`.
fn crate_solve(puzzle: &Puzzle, text: &str) -> Option<(u64, String)> {
    let level = puzzle
        .level_from_file("random", text.to_string())
        .unwrap_or_else(|d| panic!("valid board rejected:\n{text}\n{d:?}"));
    let ans = solve(
        &puzzle.model,
        level,
        EngineChoice::Interp,
        &Budget::default(),
    )
    .unwrap_or_else(|e| panic!("solve failed on\n{text}\n{e}"));
    match ans.outcome {
        Outcome::Solved(path) => {
            let cost = path_cost(&puzzle.model, &path.actions);
            assert_eq!(cost.len(), 1, "bloxorz has one cost component");
            let letters: String = path
                .actions
                .iter()
                .map(|&a| puzzle.model.letter(a))
                .collect();
            Some((cost[0], letters))
        }
        Outcome::Unsolvable => None,
        Outcome::Cutoff(c) => panic!("unbudgeted search cut off ({c}) on\n{text}"),
        Outcome::Cost(_) => panic!("solve must return a path, not a bare cost, on\n{text}"),
    }
}

fn compare(puzzle: &Puzzle, text: &str, what: &str) -> Option<usize> {
    let board = Board::parse(text);
    let expected = brute_force(&board);
    let got = crate_solve(puzzle, text);
    match (&got, expected) {
        (None, None) => {}
        (Some((cost, letters)), Some(best)) => {
            assert_eq!(
                *cost as usize, best,
                "{what}: wrong optimum on\n{text}\npath {letters}"
            );
            assert_eq!(
                letters.chars().count(),
                best,
                "{what}: path length differs from the cost on\n{text}"
            );
            replay(&board, letters, &format!("{what}\n{text}"));
        }
        (got, expected) => {
            panic!("{what}: crate says {got:?}, brute force says {expected:?} on\n{text}")
        }
    }
    expected
}

const SEEDS: [u64; 4] = [0x5eed_0001, 0xb10c_5a11, 42, 0x0dd_ba11];
const BOARDS_PER_SEED: usize = 2500;

#[test]
fn random_boards_match_brute_force() {
    let puzzle = load_puzzle();
    let (mut solved, mut unsolved, mut unframed, mut border_start, mut border_target) =
        (0, 0, 0, 0, 0);
    let mut by_frame_solved = [0usize; 3];
    let mut longest = 0;
    for seed in SEEDS {
        let mut rng = fastrand::Rng::with_seed(seed);
        for i in 0..BOARDS_PER_SEED {
            let (text, frame) = random_board(&mut rng);
            let res = compare(&puzzle, &text, &format!("seed {seed:#x} board {i}"));
            let board = Board::parse(&text);
            let on_border = |p: (i32, i32)| {
                p.0 == 0 || p.1 == 0 || p.0 == board.rows() - 1 || p.1 == board.cols() - 1
            };
            let start = board.start();
            if on_border(start.a) || on_border(start.b) {
                border_start += 1;
            }
            let target = text
                .lines()
                .enumerate()
                .find_map(|(r, l)| l.find('O').map(|c| (r as i32, c as i32)))
                .unwrap();
            if on_border(target) {
                border_target += 1;
            }
            if frame == Frame::None {
                unframed += 1;
            }
            match res {
                Some(n) => {
                    solved += 1;
                    longest = longest.max(n);
                    by_frame_solved[frame as usize] += 1;
                }
                None => unsolved += 1,
            }
        }
    }
    let total = SEEDS.len() * BOARDS_PER_SEED;
    eprintln!(
        "{total} boards: {solved} solvable (longest {longest} rolls), {unsolved} unsolvable, {unframed} unframed, \
         {border_start} with the start on the border, {border_target} with the target on the border, solvable by frame {by_frame_solved:?}"
    );
    // The generator must actually exercise every category.
    assert!(solved >= total / 10, "too few solvable boards: {solved}");
    assert!(
        unsolved >= total / 10,
        "too few unsolvable boards: {unsolved}"
    );
    assert!(unframed >= total / 5, "too few unframed boards: {unframed}");
    assert!(
        border_start >= total / 10,
        "too few border starts: {border_start}"
    );
    assert!(
        border_target >= total / 10,
        "too few border targets: {border_target}"
    );
    assert!(
        by_frame_solved.iter().all(|&n| n >= 20),
        "every frame kind needs solvable boards: {by_frame_solved:?}"
    );
    assert!(
        longest >= 10,
        "no long solutions generated (longest {longest})"
    );
}

/// Hand-written edge cases around the board's edge, checked the same way.
#[test]
fn edge_cases_match_brute_force() {
    let puzzle = load_puzzle();
    let cases = [
        // Standing in a corner of an unframed board: rolling off must be illegal.
        "X..\n...\n..O",
        // Lying along rows on the top edge, target on the bottom edge.
        "X..\nX..\n...\n.O.",
        // Lying along columns in the bottom-right corner.
        "O....\n.....\n...XX",
        // A single row of floor: standing can only move by lying along columns.
        "X..O\n####\n####",
        "X...O\n#####\n#####",
        // Target reachable only by stepping off the board: impossible.
        "XO.\n###\n###",
        // Fragile floor under the target's neighbours.
        "X.EE.O\n......\n......",
        // The sample.
        "#######\n#..X###\n#..##O#\n#....E#\n#....E#\n#.....#\n#######",
        // The inline levels of bloxorz.puz.
        "..........\n.XX.......\n......###.\n####E.###.\n####E..O..\n####EEEE..",
        "X..E.\n..#..\nE..O.",
        "#########\n#X......#\n#.......#\n#######.#\n#..O#...#\n#########",
    ];
    for (i, text) in cases.iter().enumerate() {
        compare(&puzzle, text, &format!("edge case {i}"));
    }
    assert_eq!(
        brute_force(&Board::parse(cases[7])),
        Some(10),
        "the brute force must agree with the spec's sample"
    );
}

fn judge_input(boards: &[String], line_end: &str) -> String {
    let mut input = String::new();
    for b in boards {
        let lines: Vec<&str> = b.lines().collect();
        input.push_str(&format!("{} {}{line_end}", lines.len(), lines[0].len()));
        for l in lines {
            input.push_str(l);
            input.push_str(line_end);
        }
    }
    input.push_str(&format!("0 0{line_end}"));
    input
}

fn expected_judge_output(boards: &[String]) -> String {
    boards
        .iter()
        .map(|b| match brute_force(&Board::parse(b)) {
            Some(n) => format!("{n}\n"),
            None => "Impossible\n".to_string(),
        })
        .collect()
}

fn run(puzzle: &Puzzle, input: &str) -> String {
    let mut out: Vec<u8> = vec![];
    let summary = run_judge(puzzle, input, &mut out, &JudgeOptions::default())
        .unwrap_or_else(|e| panic!("judge failed: {e}"));
    let text = String::from_utf8(out).expect("judge output is UTF-8");
    assert_eq!(
        summary.cases,
        text.lines().count(),
        "one answer line per case"
    );
    text
}

#[test]
fn random_boards_through_judge_mode() {
    let puzzle = load_puzzle();
    let mut rng = fastrand::Rng::with_seed(0x1ad9e);
    let boards: Vec<String> = (0..500).map(|_| random_board(&mut rng).0).collect();
    let expected = expected_judge_output(&boards);
    assert!(expected.contains("Impossible\n") && expected.lines().any(|l| l != "Impossible"));
    let got = run(&puzzle, &judge_input(&boards, "\n"));
    assert_eq!(got.lines().count(), boards.len());
    for (i, (g, e)) in got.lines().zip(expected.lines()).enumerate() {
        assert_eq!(g, e, "judge case {} differs on\n{}", i + 1, boards[i]);
    }
    assert_eq!(got, expected);
}

#[test]
fn random_boards_through_judge_mode_with_crlf() {
    let puzzle = load_puzzle();
    let mut rng = fastrand::Rng::with_seed(0xc71f);
    let boards: Vec<String> = (0..100).map(|_| random_board(&mut rng).0).collect();
    let got = run(&puzzle, &judge_input(&boards, "\r\n"));
    assert_eq!(got, expected_judge_output(&boards));
}
