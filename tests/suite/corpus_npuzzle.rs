//! The n-puzzle (`puzzles/npuzzle.puz`) against the independent breadth-first search of
//! `tests/common/npuzzle.rs`: the reference's answers for the default level, the shipped
//! levels' `expect` answers, and seeded random boards where puz's cost must equal the
//! reference's and puz's path must replay to the goal in the reference's simulator.
//!
//! Every level draws its goal picture, which only inline levels can carry, so the random
//! boards are appended to the rule file as inline levels and loaded with it.

use crate::common;

use common::npuzzle::{random_level, Level, Move};
use puz::compile::Expect;
use puz::engine::{Expander, MoveDescription};
use puz::search::{Budget, Outcome};
use puz::solver::{path_cost, solve, EngineChoice};
use puz::Puzzle;

const FILE: &str = "puzzles/npuzzle.puz";

fn source() -> String {
    std::fs::read_to_string(FILE).expect("read npuzzle.puz")
}

fn load(text: String) -> Puzzle {
    Puzzle::load(FILE, text).unwrap_or_else(|d| panic!("{d:?}"))
}

/// The text of level `i` as the reference reads it.
fn level_text(puzzle: &Puzzle, i: usize) -> String {
    puzzle.model.levels[i].rows.join("\n")
}

/// puz's described moves as the reference's: the piece named (the tile that slid) and its
/// step.
fn moves_of(described: &[MoveDescription]) -> Vec<Move> {
    described
        .iter()
        .map(|d| {
            let m = d.main().expect("every slide moves a piece");
            let (f, t) = (m.from.expect("from"), m.to.expect("to"));
            Move::between((f.0 as i32, f.1 as i32), (t.0 as i32, t.1 as i32))
                .unwrap_or_else(|| panic!("not a one-cell step: {}", d.line()))
        })
        .collect()
}

/// Solves inline level `i`: `None` when unsolvable, else its cost and described moves.
fn solve_inline(puzzle: &Puzzle, i: usize) -> Option<(u64, Vec<MoveDescription>)> {
    let level = puzzle.inline_level(i).expect("level");
    let ans = solve(
        &puzzle.model,
        level.clone(),
        EngineChoice::Auto,
        &Budget::default(),
    )
    .expect("solve");
    match ans.outcome {
        Outcome::Solved(path) => {
            let exp = Expander::new(&puzzle.model, level, &Budget::default()).expect("setup");
            let described = exp.describe_path(&path.states, &path.actions);
            Some((path_cost(&puzzle.model, &path.actions)[0], described))
        }
        Outcome::Unsolvable => None,
        other => panic!("level {i}: {other:?}"),
    }
}

#[test]
fn reference_solves_the_default_level() {
    let l = Level::parse("8 6 7 / 2 5 4 / 3 _ 1");
    assert_eq!(l.solve(), (Some(31), 181_440));
    // Two tiles swapped: the wrong parity, found unsolvable after all 181,440 positions.
    let l = Level::parse("123\n456\n87_");
    assert!(!l.solvable_by_parity());
    assert_eq!(l.solve(), (None, 181_440));
}

#[test]
fn default_level_takes_31_moves() {
    let puzzle = load(source());
    let text = level_text(&puzzle, 0);
    assert_eq!(text.split_whitespace().collect::<String>(), "8672543_1");
    let (cost, described) = solve_inline(&puzzle, 0).expect("solvable");
    assert_eq!(cost, 31);
    assert_eq!(
        Level::parse(&text).replay(&moves_of(&described)),
        Ok((31, true))
    );
}

#[test]
fn shipped_levels_match_the_reference_and_their_expectations() {
    let puzzle = load(source());
    for (i, level) in puzzle.model.levels.iter().enumerate() {
        let reference = Level::parse(&level_text(&puzzle, i));
        let want = reference.solve().0;
        let expect = want.map_or(Expect::Unsolvable, |c| Expect::Cost(vec![c]));
        assert_eq!(
            level.expect.as_ref(),
            Some(&expect),
            "level {:?}",
            level.name
        );
        if i == 0 {
            continue; // the default level has a test of its own
        }
        match solve_inline(&puzzle, i) {
            Some((cost, described)) => {
                assert_eq!(Some(cost), want, "level {:?}", level.name);
                let replayed = reference.replay(&moves_of(&described));
                assert_eq!(replayed, Ok((cost, true)), "level {:?}", level.name);
            }
            None => assert_eq!(want, None, "level {:?}", level.name),
        }
    }
}

#[test]
fn random_levels_match_the_reference() {
    let mut rng = fastrand::Rng::with_seed(0x0e16_b7e5);
    let levels: Vec<Level> = (0..300).map(|_| random_level(&mut rng)).collect();
    let mut text = source();
    for (i, l) in levels.iter().enumerate() {
        let indent = |s: String| s.lines().map(|r| format!("  {r}\n")).collect::<String>();
        text.push_str(&format!(
            "\nlevel \"random {i}\" \"\"\"\n{}  \"\"\" goal \"\"\"\n{}  \"\"\"\n",
            indent(l.chars()),
            indent(l.goal_chars())
        ));
    }
    let puzzle = load(text);
    let first = puzzle.model.levels.len() - levels.len();
    let (mut solved, mut unsolved) = (0, 0);
    for (i, l) in levels.iter().enumerate() {
        let want = l.solve().0;
        match solve_inline(&puzzle, first + i) {
            Some((cost, described)) => {
                assert_eq!(Some(cost), want, "#{i}: cost differs:\n{}", l.chars());
                let replayed = l.replay(&moves_of(&described));
                assert_eq!(replayed, Ok((cost, true)), "#{i}:\n{}", l.chars());
                solved += 1;
            }
            None => {
                assert_eq!(want, None, "#{i}: puz says unsolvable:\n{}", l.chars());
                unsolved += 1;
            }
        }
    }
    assert!(
        solved > 100 && unsolved > 30,
        "solved {solved}, unsolved {unsolved}"
    );
}
