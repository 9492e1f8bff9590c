//! Rush Hour (`puzzles/rushhour.puz`) against the independent breadth-first search of
//! `tests/common/rushhour.rs`: the reference's answers for the default level, the shipped
//! levels' `expect` answers, and seeded random lots where puz's cost must equal the
//! reference's and puz's steps (which vehicle, which way) must replay to the goal in the
//! reference's simulator.

use crate::common;

use common::drive::solve_described;
use common::rushhour::{random_level, Level, Move, CLASSIC};
use puz::engine::MoveDescription;
use puz::Puzzle;

fn load() -> Puzzle {
    let text = std::fs::read_to_string("puzzles/rushhour.puz").expect("read rushhour.puz");
    Puzzle::load("puzzles/rushhour.puz", text).unwrap_or_else(|d| panic!("{d:?}"))
}

/// puz's described steps as the reference's: the vehicle's top-left cell and its step.
fn steps(described: &[MoveDescription]) -> Vec<Move> {
    described
        .iter()
        .map(|d| {
            let m = d.main().expect("every step moves a vehicle");
            let (f, t) = (m.from.expect("from"), m.to.expect("to"));
            Move::between((f.0 as i32, f.1 as i32), (t.0 as i32, t.1 as i32))
                .unwrap_or_else(|| panic!("not a one-cell step: {}", d.line()))
        })
        .collect()
}

#[test]
fn reference_solves_the_default_level() {
    assert_eq!(Level::parse(CLASSIC).solve(), (Some(103), 2_332));
    let one_line = Level::parse("IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM");
    assert_eq!(one_line.solve(), (Some(103), 2_332));
}

#[test]
fn default_level_takes_103_steps() {
    let puzzle = load();
    let text = puzzle.model.levels[0].rows.join("\n") + "\n";
    assert_eq!(text, CLASSIC);
    let (cost, described) = solve_described(&puzzle, &text).expect("solvable");
    assert_eq!(cost, vec![103]);
    assert_eq!(
        Level::parse(&text).replay(&steps(&described)),
        Ok((103, true))
    );
}

#[test]
fn shipped_levels_match_the_reference_and_their_expectations() {
    common::corpus::shipped_levels_replay(
        &load(),
        |text| Level::parse(text).solve().0,
        |text, described| Level::parse(text).replay(&steps(described)),
    );
}

#[test]
fn random_levels_match_the_reference() {
    let puzzle = load();
    let mut rng = fastrand::Rng::with_seed(0x7a5f_1100);
    let (mut solved, mut unsolved) = (0, 0);
    for i in 0..300 {
        let level = random_level(&mut rng);
        let text = level.text();
        let (want, _) = level.solve();
        match solve_described(&puzzle, &text) {
            Some((cost, described)) => {
                assert_eq!(Some(cost[0]), want, "#{i}: cost differs:\n{text}");
                let replayed = level.replay(&steps(&described));
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
        solved > 100 && unsolved > 20,
        "solved {solved}, unsolved {unsolved}"
    );
}
