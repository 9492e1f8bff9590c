//! Rush Hour (`puzzles/rushhour.puz`) against the independent breadth-first search of
//! `tests/common/rushhour.rs`.

mod common;

use common::rushhour::{random_level, Level, CLASSIC};

#[test]
fn reference_solves_the_default_level() {
    let (cost, positions) = Level::parse(CLASSIC).solve();
    assert_eq!(cost, Some(103));
    assert_eq!(positions, 2_332);
    let one = Level::parse("IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM");
    assert_eq!(one.solve(), (Some(103), 2_332));
}

#[test]
fn reference_random_levels() {
    let mut rng = fastrand::Rng::with_seed(9);
    let (mut sol, mut tot) = (0, 0);
    for _ in 0..300 {
        let l = random_level(&mut rng);
        let (cost, n) = l.solve();
        sol += cost.is_some() as usize;
        tot += n;
    }
    println!("{sol} {tot}");
}
