//! Randomised differential test of the Bloxorz interpreter against an independent brute force.
//!
//! The brute force (`tests/common/bloxorz.rs`) shares nothing with the crate: it rolls the
//! block geometrically from the spec instead of from the `.puz` turn table.

use crate::common;

use common::bloxorz::{board, brute_force, judge_input, judge_output, replay, Board, Frame};

use puz::io::judge::{run_judge, JudgeOptions};
use puz::solver::EngineChoice;
use puz::Puzzle;

// ---------------------------------------------------------------------------------------
// Random boards
// ---------------------------------------------------------------------------------------

/// One random valid level, as text (rows joined by '\n', no trailing line break).
fn random_board(rng: &mut fastrand::Rng) -> (String, Frame) {
    board(rng, 9)
}

fn load_puzzle() -> Puzzle {
    let text = std::fs::read_to_string("puzzles/bloxorz.puz").expect("read puzzles/bloxorz.puz");
    Puzzle::load("bloxorz.puz", text).unwrap_or_else(|d| panic!("bloxorz.puz does not load: {d:?}"))
}

/// Solves a board with the crate's interpreter: `Some((cost, letters))` or `None`.
fn crate_solve(puzzle: &Puzzle, text: &str) -> Option<(u64, String)> {
    let (_, found) = common::drive::solve_text(puzzle, text, EngineChoice::Interp);
    found.map(|(cost, letters)| {
        assert_eq!(cost.len(), 1, "bloxorz has one cost component");
        (cost[0], letters)
    })
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
            let start = board.start();
            if board.on_border(start.a) || board.on_border(start.b) {
                border_start += 1;
            }
            let target = text
                .lines()
                .enumerate()
                .find_map(|(r, l)| l.find('O').map(|c| (r as i32, c as i32)))
                .unwrap();
            if board.on_border(target) {
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
    let expected = judge_output(&boards);
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
    assert_eq!(got, judge_output(&boards));
}
