//! Lights Out (`puzzles/lightsout.puz`) against the independent searches of
//! `tests/common/lightsout.rs`: the shipped levels' `expect` answers, the default level's
//! 15 presses, and seeded random boards where puz's cost must equal the reference's and
//! puz's presses, cell by cell, must turn every light off in the reference's simulator.

use crate::common;

use common::drive::solve_described;
use common::lightsout::{random_level, Level};
use puz::engine::{MoveDescription, MoveTarget};
use puz::Puzzle;

fn load() -> Puzzle {
    let text = std::fs::read_to_string("puzzles/lightsout.puz").expect("read lightsout.puz");
    Puzzle::load("puzzles/lightsout.puz", text).unwrap_or_else(|d| panic!("{d:?}"))
}

/// The cells puz pressed.
fn presses(described: &[MoveDescription]) -> Vec<(i32, i32)> {
    described
        .iter()
        .map(|d| match d.target {
            MoveTarget::Cell((r, c)) => (r as i32, c as i32),
            _ => panic!("not a press: {}", d.line()),
        })
        .collect()
}

#[test]
fn reference_solves_the_default_level() {
    let l = Level::parse("***** ***** ***** ***** *****");
    assert_eq!(l.solve_by_chasing(), Some(15));
}

/// 2^25 patterns: seconds in a release build, minutes in a debug one.
#[test]
#[cfg_attr(debug_assertions, ignore = "run with --release: 5x5 is 2^25 patterns")]
fn default_level_takes_15_presses() {
    let puzzle = load();
    let text = puzzle.model.levels[0].rows.join("\n");
    assert_eq!(text.matches('*').count(), 25, "every light of 5x5 on");
    let (cost, described) = solve_described(&puzzle, &text).expect("solvable");
    assert_eq!(cost, vec![15]);
    assert_eq!(
        Level::parse(&text).replay(&presses(&described)),
        Ok((15, true))
    );
}

#[test]
fn shipped_levels_match_the_reference_and_their_expectations() {
    common::corpus::shipped_levels_replay(
        &load(),
        |text| Level::parse(text).solve_by_chasing(),
        |text, described| Level::parse(text).replay(&presses(described)),
    );
}

#[test]
fn random_levels_match_the_reference() {
    let puzzle = load();
    let mut rng = fastrand::Rng::with_seed(0x0119_4700);
    let (mut solved, mut unsolved) = (0, 0);
    for i in 0..300 {
        let level = random_level(&mut rng);
        let text = level.text();
        let want = level.solve();
        match solve_described(&puzzle, &text) {
            Some((cost, described)) => {
                assert_eq!(Some(cost[0]), want, "#{i}: cost differs:\n{text}");
                let replayed = level.replay(&presses(&described));
                assert_eq!(replayed, Ok((cost[0], true)), "#{i}:\n{text}");
                solved += 1;
            }
            None => {
                assert_eq!(want, None, "#{i}: puz says unsolvable:\n{text}");
                unsolved += 1;
            }
        }
    }
    assert!(
        solved > 100 && unsolved > 30,
        "solved {solved}, unsolved {unsolved}"
    );
}
