//! Lights Out (`puzzles/lightsout.puz`) against the independent searches of
//! `tests/common/lightsout.rs`.

mod common;

use common::lightsout::{random_level, Level};

#[test]
fn reference_solves_the_default_level() {
    let l = Level::parse("***** ***** ***** ***** *****");
    assert_eq!(l.solve_by_chasing(), Some(15));
}

#[test]
fn reference_random_levels() {
    let mut rng = fastrand::Rng::with_seed(9);
    let mut sol = 0;
    for _ in 0..300 {
        let l = random_level(&mut rng);
        let cost = l.solve();
        assert_eq!(cost, l.solve_by_chasing(), "{}", l.text());
        sol += cost.is_some() as usize;
    }
    println!("{sol}");
}
