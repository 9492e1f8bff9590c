//! The n-puzzle (`puzzles/npuzzle.puz`) against the independent breadth-first search of
//! `tests/common/npuzzle.rs`.

mod common;

use common::npuzzle::{random_level, Level};

#[test]
fn reference_solves_the_default_level() {
    let l = Level::parse("8 6 7 / 2 5 4 / 3 _ 1");
    let (cost, _) = l.solve();
    assert_eq!(cost, Some(31));
    // Two tiles swapped: the wrong parity, found unsolvable after all 181,440 positions.
    let l = Level::parse("213\n456\n78_");
    assert!(!l.solvable_by_parity());
    assert_eq!(l.solve(), (None, 181_440));
}

#[test]
fn reference_random_levels() {
    let mut rng = fastrand::Rng::with_seed(9);
    let mut sol = 0;
    for _ in 0..300 {
        let l = random_level(&mut rng);
        let (cost, _) = l.solve();
        assert_eq!(cost.is_some(), l.solvable_by_parity(), "{}", l.chars());
        sol += cost.is_some() as usize;
    }
    println!("{sol}");
}
