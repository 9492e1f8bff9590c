//! Randomised differential test of `puzzles/curling.puz` (Curling 2.0, POJ 3009 / AOJ 1144)
//! against the independent brute force of `tests/common/curling.rs`, written from the spec
//! (`/work/shared/spec/puzzles.md`, section 4) and sharing nothing with the crate.

use crate::common;

use common::curling::{answer, brute_force, corridor, Board, Throw, DIRS, LIMIT};

use puz::compile::GridForm;
use puz::engine::{Expander, Level};
use puz::io::judge::{run_judge, JudgeOptions};
use puz::io::render::render;
use puz::search::{Budget, Outcome};
use puz::solver::{path_cost, solve, EngineChoice};
use puz::Puzzle;

/// Both engines: `auto` (a fast path when one matches) and the interpreter.
const ENGINES: [EngineChoice; 2] = [EngineChoice::Auto, EngineChoice::Interp];

/// A random board: one in ten 8..=12 on a side, the others up to 8.
fn random_board(rng: &mut fastrand::Rng, big: bool) -> Board {
    common::curling::board(rng, big, 12)
}

fn parse_board(w: usize, h: usize, rows: &[&str]) -> Board {
    Board::parse(w, h, rows)
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
    let input = common::curling::judge_input(boards);
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
    let text = b.text();
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
            b.render(&blocks, at),
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
