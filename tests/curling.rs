//! Randomised differential test of `puzzles/curling.puz` (Curling 2.0, POJ 3009 / AOJ 1144)
//! against an independent brute force written from the spec (`/work/shared/spec/puzzles.md`,
//! section 4). Nothing here is shared with the crate:
//!
//! - cells: `0` vacant, `1` block, `2` start, `3` goal; the judge header is `w h` (width
//!   first), then h rows of w integers; `0 0` ends the input;
//! - a throw picks n/s/w/e; it is not allowed when the adjacent cell that way is a block;
//! - the stone slides until it enters the goal (stops: solved), or the next cell is a block
//!   (stops before it; the block disappears), or it leaves the board (the throw is lost);
//! - at most 10 throws; the answer is the fewest throws, or `-1`.
//!
//! The brute force is a breadth-first search over (stone cell, blocks still standing).

use std::collections::HashSet;

use puz::engine::{Expander, Level};
use puz::io::judge::{run_judge, JudgeOptions};
use puz::io::render::render;
use puz::search::{Budget, Outcome};
use puz::solver::{path_cost, solve, EngineChoice};

/// Both engines: `auto` (a fast path when one matches) and the interpreter.
const ENGINES: [EngineChoice; 2] = [EngineChoice::Auto, EngineChoice::Interp];
use puz::syntax::ast::GridForm;
use puz::Puzzle;

// ---------------------------------------------------------------------------------------
// Independent brute force
// ---------------------------------------------------------------------------------------

/// Direction vectors (row, column) in the letter order `n s w e`.
const DIRS: [(i64, i64); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
const LIMIT: usize = 10;

#[derive(Clone, Debug)]
struct Board {
    w: usize,
    h: usize,
    /// Row-major cell codes 0..=3 as in the input.
    cells: Vec<u8>,
}

/// Which blocks still stand: one bit per cell.
type Blocks = Vec<u64>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Throw {
    /// The adjacent cell is a block.
    Forbidden,
    /// The stone left the board.
    Lost,
    /// The stone entered the goal.
    Goal,
    /// The stone stopped at `at` and the block at `broke` disappeared.
    Stop { at: usize, broke: usize },
}

impl Board {
    fn find(&self, code: u8) -> usize {
        let v: Vec<usize> = (0..self.cells.len())
            .filter(|&i| self.cells[i] == code)
            .collect();
        assert_eq!(v.len(), 1, "generator must place exactly one {code}");
        v[0]
    }

    fn start(&self) -> usize {
        self.find(2)
    }

    fn goal(&self) -> usize {
        self.find(3)
    }

    fn blocks(&self) -> Blocks {
        let mut b = vec![0u64; self.cells.len().div_ceil(64)];
        for (i, &c) in self.cells.iter().enumerate() {
            if c == 1 {
                b[i / 64] |= 1 << (i % 64);
            }
        }
        b
    }

    fn cell(&self, r: i64, c: i64) -> Option<usize> {
        (r >= 0 && c >= 0 && (r as usize) < self.h && (c as usize) < self.w)
            .then(|| r as usize * self.w + c as usize)
    }

    fn throw(&self, blocks: &Blocks, from: usize, d: (i64, i64)) -> Throw {
        let has = |i: usize| blocks[i / 64] >> (i % 64) & 1 == 1;
        let (mut r, mut c) = ((from / self.w) as i64, (from % self.w) as i64);
        if let Some(next) = self.cell(r + d.0, c + d.1) {
            if has(next) {
                return Throw::Forbidden;
            }
        }
        let goal = self.goal();
        loop {
            let Some(next) = self.cell(r + d.0, c + d.1) else {
                return Throw::Lost;
            };
            if next == goal {
                return Throw::Goal;
            }
            if has(next) {
                return Throw::Stop {
                    at: r as usize * self.w + c as usize,
                    broke: next,
                };
            }
            r += d.0;
            c += d.1;
        }
    }

    fn judge_text(&self) -> String {
        let mut s = format!("{} {}\n", self.w, self.h);
        s.push_str(&self.level_text());
        s
    }

    fn level_text(&self) -> String {
        render_board(self, &self.blocks(), self.start())
    }
}

/// The board as rows of spaced integers: standing blocks, the goal, and the stone (`2`,
/// also when it stands on the goal).
fn render_board(b: &Board, blocks: &Blocks, stone: usize) -> String {
    let goal = b.goal();
    let mut s = String::new();
    for r in 0..b.h {
        let row: Vec<&str> = (0..b.w)
            .map(|c| {
                let i = r * b.w + c;
                if i == stone {
                    "2"
                } else if blocks[i / 64] >> (i % 64) & 1 == 1 {
                    "1"
                } else if i == goal {
                    "3"
                } else {
                    "0"
                }
            })
            .collect();
        s.push_str(&row.join(" "));
        s.push('\n');
    }
    s
}

/// Fewest throws reaching the goal, if at most `limit` suffice.
fn brute_force(b: &Board, limit: usize) -> Option<usize> {
    let mut seen: HashSet<(usize, Blocks)> = HashSet::new();
    let mut frontier = vec![(b.start(), b.blocks())];
    seen.insert(frontier[0].clone());
    for depth in 1..=limit {
        let mut next = vec![];
        for (at, blocks) in &frontier {
            for d in DIRS {
                match b.throw(blocks, *at, d) {
                    Throw::Forbidden | Throw::Lost => {}
                    Throw::Goal => return Some(depth),
                    Throw::Stop { at, broke } => {
                        let mut nb = blocks.clone();
                        nb[broke / 64] &= !(1 << (broke % 64));
                        if seen.insert((at, nb.clone())) {
                            next.push((at, nb));
                        }
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    None
}

fn answer(b: &Board) -> String {
    match brute_force(b, LIMIT) {
        Some(n) => n.to_string(),
        None => "-1".to_string(),
    }
}

// ---------------------------------------------------------------------------------------
// Random boards
// ---------------------------------------------------------------------------------------

fn random_board(rng: &mut fastrand::Rng, big: bool) -> Board {
    let (w, h) = if big {
        (rng.usize(8..=12), rng.usize(8..=12))
    } else {
        (rng.usize(2..=8), rng.usize(1..=8))
    };
    let density = match rng.u8(0..5) {
        0 => rng.u8(0..10),
        1 => rng.u8(50..80),
        _ => rng.u8(10..50),
    };
    let mut cells: Vec<u8> = (0..w * h)
        .map(|_| u8::from(rng.u8(0..100) < density))
        .collect();
    let s = rng.usize(0..w * h);
    let mut g = rng.usize(0..w * h - 1);
    if g >= s {
        g += 1;
    }
    cells[s] = 2;
    cells[g] = 3;
    Board { w, h, cells }
}

/// A straight run: start, one vacant cell, `k` blocks, the goal (k + 1 throws when nothing
/// else helps), in any of the four directions, sometimes inside other rows.
fn corridor(rng: &mut fastrand::Rng, k: usize) -> Board {
    let len = k + 3;
    let mut line = vec![2u8, 0];
    line.extend(std::iter::repeat_n(1u8, k));
    line.push(3);
    if rng.bool() {
        line.reverse();
    }
    let pad_before = rng.usize(0..=1);
    let pad_after = rng.usize(0..=1);
    let mut full = vec![0u8; pad_before];
    full.extend(line);
    full.extend(std::iter::repeat_n(0u8, pad_after));
    let len = len + pad_before + pad_after;
    let others = rng.usize(0..=3);
    let filler = rng.u8(0..3); // 0: all blocks, 1: all vacant, 2: random
    let at = rng.usize(0..=others);
    let mut rows: Vec<Vec<u8>> = (0..others)
        .map(|_| {
            (0..len)
                .map(|_| match filler {
                    0 => 1,
                    1 => 0,
                    _ => u8::from(rng.u8(0..100) < 30),
                })
                .collect()
        })
        .collect();
    rows.insert(at, full);
    let (h, w) = (rows.len(), len);
    if rng.bool() {
        // Vertical: transpose.
        let cells = (0..w)
            .flat_map(|c| rows.iter().map(move |r| r[c]))
            .collect();
        Board { w: h, h: w, cells }
    } else {
        Board {
            w,
            h,
            cells: rows.concat(),
        }
    }
}

fn parse_board(w: usize, h: usize, rows: &[&str]) -> Board {
    let cells: Vec<u8> = rows
        .iter()
        .flat_map(|r| r.split_whitespace().map(|t| t.parse::<u8>().unwrap()))
        .collect();
    assert_eq!(cells.len(), w * h);
    Board { w, h, cells }
}

// ---------------------------------------------------------------------------------------
// Crate access
// ---------------------------------------------------------------------------------------

fn load_puzzle() -> Puzzle {
    let text = std::fs::read_to_string("puzzles/curling.puz").expect("read puzzles/curling.puz");
    Puzzle::load("curling.puz", text).unwrap_or_else(|d| panic!("curling.puz does not load: {d:?}"))
}

/// Judge mode with the default options, checked against the interpreter engine.
fn judge(puzzle: &Puzzle, input: &str) -> String {
    let mut first: Option<String> = None;
    for engine in ENGINES {
        let mut out: Vec<u8> = vec![];
        let opts = JudgeOptions {
            engine,
            ..JudgeOptions::default()
        };
        let summary = run_judge(puzzle, input, &mut out, &opts)
            .unwrap_or_else(|e| panic!("{engine:?}: judge failed: {e}"));
        let text = String::from_utf8(out).expect("UTF-8 output");
        assert_eq!(summary.cases, text.lines().count(), "one line per case");
        assert!(summary.warnings.is_empty(), "{:?}", summary.warnings);
        match &first {
            None => first = Some(text),
            Some(f) => assert_eq!(&text, f, "{engine:?} differs from the default engine"),
        }
    }
    first.unwrap()
}

/// Judges `boards` in one input and compares every line with the brute force.
fn check_judge(puzzle: &Puzzle, boards: &[Board], what: &str) -> Vec<String> {
    let mut input: String = boards.iter().map(Board::judge_text).collect();
    input.push_str("0 0\n");
    let got = judge(puzzle, &input);
    let want: Vec<String> = boards.iter().map(answer).collect();
    let lines: Vec<&str> = got.lines().collect();
    assert_eq!(lines.len(), boards.len(), "{what}: number of answers");
    for (i, (g, w)) in lines.iter().zip(&want).enumerate() {
        assert_eq!(
            g,
            w,
            "{what}: dataset {} answered {g}, brute force says {w}:\n{}",
            i + 1,
            boards[i].judge_text()
        );
    }
    let expected: String = want.iter().map(|w| format!("{w}\n")).collect();
    assert_eq!(got, expected, "{what}: output bytes");
    want
}

/// Solves `b` with `solve` and replays the path independently: every throw legal, the
/// board after each throw as the crate's state shows it (blocks removed as claimed), the
/// end on the goal, at most 10 throws, the length equal to the cost and to the optimum.
fn check_replay(puzzle: &Puzzle, b: &Board, what: &str) -> Option<usize> {
    let auto = check_replay_with(puzzle, b, EngineChoice::Auto, what);
    let interp = check_replay_with(puzzle, b, EngineChoice::Interp, what);
    assert_eq!(auto, interp);
    auto
}

fn check_replay_with(
    puzzle: &Puzzle,
    b: &Board,
    engine: EngineChoice,
    what: &str,
) -> Option<usize> {
    let what = &format!("{what} ({engine:?})");
    let text = b.level_text();
    let level: Level = puzzle
        .level_from_file("r", text.clone())
        .unwrap_or_else(|d| panic!("{what}: valid level rejected:\n{text}{d:?}"));
    let exp =
        Expander::new(&puzzle.model, level.clone(), &Budget::default()).expect("the level sets up");
    let ans = solve(&puzzle.model, level, engine, &Budget::default())
        .unwrap_or_else(|e| panic!("{what}: solve failed: {e}\n{text}"));
    let want = brute_force(b, LIMIT);
    let path = match ans.outcome {
        Outcome::Solved(p) => p,
        Outcome::Unsolvable => {
            assert_eq!(want, None, "{what}: crate finds no solution on\n{text}");
            return None;
        }
        other => panic!("{what}: expected a path or no solution, got {other:?}"),
    };
    let letters: String = path
        .actions
        .iter()
        .map(|&a| puzzle.model.letter(a))
        .collect();
    let cost = path_cost(&puzzle.model, &path.actions);
    assert_eq!(
        cost,
        vec![path.actions.len() as u64],
        "{what}: cost is the throw count"
    );
    assert!(path.actions.len() <= LIMIT, "{what}: {letters} is too long");
    assert_eq!(
        Some(path.actions.len()),
        want,
        "{what}: path {letters} is not optimal on\n{text}"
    );
    assert_eq!(path.states.len(), path.actions.len() + 1);
    assert_eq!(
        render(&exp, &path.states[0], GridForm::Ints),
        text,
        "{what}: the path's first state"
    );
    let mut blocks = b.blocks();
    let mut at = b.start();
    for (k, ch) in letters.chars().enumerate() {
        let d = match ch {
            'n' => DIRS[0],
            's' => DIRS[1],
            'w' => DIRS[2],
            'e' => DIRS[3],
            other => panic!("{what}: unexpected letter {other:?}"),
        };
        let last = k + 1 == letters.len();
        match b.throw(&blocks, at, d) {
            Throw::Stop { at: to, broke } if !last => {
                blocks[broke / 64] &= !(1 << (broke % 64));
                at = to;
            }
            Throw::Goal if last => at = b.goal(),
            t => panic!(
                "{what}: throw {} ({ch}) of {letters} is {t:?} on\n{text}",
                k + 1
            ),
        }
        assert_eq!(
            render(&exp, &path.states[k + 1], GridForm::Ints),
            render_board(b, &blocks, at),
            "{what}: the board after throw {} ({ch}) of {letters}, from\n{text}",
            k + 1
        );
    }
    Some(path.actions.len())
}

// ---------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------

/// The seed document's input: six datasets with known answers, and two more.
fn seed_input() -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/seeds");
    let file = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("004_") && n.ends_with(".txt"))
        })
        .expect("seed 004 file");
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let from = lines
        .iter()
        .position(|l| *l == "输入")
        .expect("the seed's input block")
        + 1;
    let to = from + lines[from..].iter().position(|l| *l == "0 0").unwrap();
    lines[from..=to].iter().map(|l| format!("{l}\n")).collect()
}

#[test]
fn seed_sample() {
    let puzzle = load_puzzle();
    let input = seed_input();
    // Parse the datasets with the test's own reader.
    let lines: Vec<&str> = input.lines().collect();
    let mut boards = vec![];
    let mut i = 0;
    while lines[i] != "0 0" {
        let mut it = lines[i]
            .split_whitespace()
            .map(|t| t.parse::<usize>().unwrap());
        let (w, h) = (it.next().unwrap(), it.next().unwrap());
        boards.push(parse_board(w, h, &lines[i + 1..i + 1 + h]));
        i += 1 + h;
    }
    assert_eq!(boards.len(), 8, "six sample datasets and two more");
    let want: Vec<String> = boards.iter().map(answer).collect();
    assert_eq!(
        want[..6],
        ["1", "4", "-1", "4", "10", "-1"],
        "brute force on the sample"
    );
    let got = judge(&puzzle, &input);
    assert_eq!(
        got,
        want.iter().map(|w| format!("{w}\n")).collect::<String>()
    );
    assert!(got.starts_with("1\n4\n-1\n4\n10\n-1\n"), "{got}");
    eprintln!("seed input answers: {}", got.replace('\n', " "));
    let mut sink = vec![];
    let engine = run_judge(&puzzle, &input, &mut sink, &JudgeOptions::default())
        .unwrap()
        .engine;
    eprintln!("default judge engine: {engine}");
    // Layout variants: Windows line breaks, no final line break.
    assert_eq!(judge(&puzzle, &input.replace('\n', "\r\n")), got);
    assert_eq!(judge(&puzzle, input.trim_end()), got);
    // Paths of all eight.
    for (k, b) in boards.iter().enumerate() {
        check_replay(&puzzle, b, &format!("seed dataset {}", k + 1));
    }
}

#[test]
fn inline_levels_replay() {
    let puzzle = load_puzzle();
    let mut costs = vec![];
    for l in &puzzle.model.levels {
        let rows: Vec<&str> = l.rows.iter().map(String::as_str).collect();
        let w = rows[0].split_whitespace().count();
        let b = parse_board(w, rows.len(), &rows);
        costs.push(check_replay(&puzzle, &b, &format!("level {:?}", l.name)));
    }
    assert_eq!(costs, [Some(4), Some(10), None, Some(1)]);
}

const SEEDS: [u64; 4] = [0x00c0_1100, 0x3009, 0x1144, 0x5eed_0004];
const BOARDS_PER_SEED: usize = 2500;
const BATCH: usize = 100;

#[test]
fn random_boards_through_judge_mode() {
    let puzzle = load_puzzle();
    let mut hist = [0usize; LIMIT + 1];
    let mut impossible = 0;
    let mut big = 0;
    for seed in SEEDS {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut boards = vec![];
        for _ in 0..BOARDS_PER_SEED {
            let is_big = rng.u8(0..10) == 0;
            big += usize::from(is_big);
            boards.push(random_board(&mut rng, is_big));
        }
        for (c, chunk) in boards.chunks(BATCH).enumerate() {
            for a in check_judge(&puzzle, chunk, &format!("seed {seed:#x} batch {c}")) {
                match a.parse::<i64>().unwrap() {
                    -1 => impossible += 1,
                    n => hist[n as usize] += 1,
                }
            }
        }
    }
    eprintln!(
        "{} boards ({big} of 8..=12 x 8..=12): answers by throws {hist:?}, {impossible} impossible",
        SEEDS.len() * BOARDS_PER_SEED
    );
    assert!(impossible >= 500, "{impossible}");
    assert!(hist[1..=5].iter().all(|&n| n >= 50), "{hist:?}");
    assert!(hist[6..=LIMIT].iter().sum::<usize>() >= 20, "{hist:?}");
}

/// Corridors needing 6 to 12 throws (7+ within a judge -1), in all four directions and
/// embedded in other rows; some answers must be exactly 10 and some exactly 11 (-1).
#[test]
fn long_corridors_around_the_limit() {
    let puzzle = load_puzzle();
    let mut rng = fastrand::Rng::with_seed(0x1011);
    let boards: Vec<Board> = (0..400)
        .map(|_| {
            let k = rng.usize(5..=11);
            corridor(&mut rng, k)
        })
        .collect();
    let (mut ten, mut eleven) = (0, 0);
    for b in &boards {
        match brute_force(b, LIMIT + 2) {
            Some(10) => ten += 1,
            Some(11) => eleven += 1,
            _ => {}
        }
    }
    eprintln!(
        "{} corridors: {ten} need exactly 10 throws, {eleven} need 11",
        boards.len()
    );
    assert!(ten >= 20 && eleven >= 20, "{ten} / {eleven}");
    for (c, chunk) in boards.chunks(BATCH).enumerate() {
        check_judge(&puzzle, chunk, &format!("corridor batch {c}"));
    }
    for (i, b) in boards.iter().enumerate().take(150) {
        check_replay(&puzzle, b, &format!("corridor {i}"));
    }
    // The two classic one-row cases, directly.
    let ten = parse_board(12, 1, &["2 0 1 1 1 1 1 1 1 1 1 3"]);
    let eleven = parse_board(13, 1, &["2 0 1 1 1 1 1 1 1 1 1 1 3"]);
    assert_eq!(brute_force(&ten, LIMIT), Some(10));
    assert_eq!(brute_force(&eleven, LIMIT + 1), Some(11));
    assert_eq!(
        check_judge(&puzzle, &[ten, eleven], "one-row cases"),
        ["10", "-1"]
    );
}

#[test]
fn random_levels_replay() {
    let puzzle = load_puzzle();
    let mut rng = fastrand::Rng::with_seed(0x004e_91a4);
    let mut hist = [0usize; LIMIT + 1];
    let mut impossible = 0;
    for i in 0..4000 {
        let is_big = rng.u8(0..10) == 0;
        let b = random_board(&mut rng, is_big);
        match check_replay(&puzzle, &b, &format!("random level {i}")) {
            Some(n) => hist[n] += 1,
            None => impossible += 1,
        }
    }
    eprintln!("4000 levels: solved by throws {hist:?}, {impossible} impossible");
    assert!(hist[1..=4].iter().all(|&n| n >= 30), "{hist:?}");
    assert!(impossible >= 100, "{impossible}");
}
