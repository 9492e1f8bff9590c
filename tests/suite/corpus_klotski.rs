//! Klotski (`puzzles/klotski.puz`) against the independent breadth-first search of
//! `tests/common/klotski.rs`: the reference's own answers for the classic layout, the
//! shipped levels' `expect` answers, and seeded random trays where puz's cost must equal
//! the reference's and puz's path, move by move (which piece, from where, which way),
//! must replay to the goal in the reference's simulator.

use crate::common;

use common::drive::solve_described;
use common::klotski::{random_level, Level, Move, CLASSIC};
use puz::engine::MoveDescription;
use puz::Puzzle;

fn load() -> Puzzle {
    let text = std::fs::read_to_string("puzzles/klotski.puz").expect("read klotski.puz");
    Puzzle::load("puzzles/klotski.puz", text).unwrap_or_else(|d| panic!("{d:?}"))
}

/// puz's described moves as the reference's: the main piece's corner and direction.
fn moves_of(described: &[MoveDescription]) -> Vec<Move> {
    described
        .iter()
        .map(|d| {
            let m = d.main().expect("every Klotski move moves a piece");
            let (f, t) = (m.from.expect("from"), m.to.expect("to"));
            Move::between((f.0 as i32, f.1 as i32), (t.0 as i32, t.1 as i32))
                .unwrap_or_else(|| panic!("not a one-cell step: {}", d.line()))
        })
        .collect()
}

#[test]
fn reference_solves_the_classic_layout() {
    let (cost, positions) = Level::parse(CLASSIC).solve();
    assert_eq!(cost, Some(116));
    assert_eq!(positions, 25_955);
}

#[test]
fn default_level_is_the_classic_layout_in_116_moves() {
    let puzzle = load();
    let rows = puzzle.model.levels[0].rows.join("\n");
    assert_eq!(
        rows.split_whitespace().collect::<Vec<_>>().join(" "),
        CLASSIC,
        "the first level is the classic layout"
    );
    let (cost, moves) = solve_described(&puzzle, &rows).expect("the classic layout is solvable");
    assert_eq!(cost, vec![116]);
    let replayed = Level::parse(CLASSIC).replay(&moves_of(&moves));
    assert_eq!(replayed, Ok((116, true)));
}

#[test]
fn shipped_levels_match_the_reference_and_their_expectations() {
    common::corpus::shipped_levels_replay(
        &load(),
        |text| Level::parse(text).solve().0,
        |text, described| Level::parse(text).replay(&moves_of(described)),
    );
}

#[test]
fn random_levels_match_the_reference() {
    let puzzle = load();
    let mut rng = fastrand::Rng::with_seed(0x6b10_75c1);
    let (mut solved, mut unsolved) = (0, 0);
    for i in 0..300 {
        let (level, want) = random_level(&mut rng, 4000);
        let text = level.text(&mut rng);
        match solve_described(&puzzle, &text) {
            Some((cost, described)) => {
                assert_eq!(Some(cost[0]), want, "#{i}: cost differs:\n{text}");
                let replayed = level.replay(&moves_of(&described));
                assert_eq!(replayed, Ok((cost[0], true)), "#{i}: replay:\n{text}");
                solved += 1;
            }
            None => {
                assert_eq!(want, None, "#{i}: puz says unsolvable:\n{text}");
                unsolved += 1;
            }
        }
    }
    assert!(
        solved > 30 && unsolved > 30,
        "solved {solved}, unsolved {unsolved}"
    );
}
