//! Klotski (`puzzles/klotski.puz`) against the independent breadth-first search of
//! `tests/common/klotski.rs`.

mod common;

use common::klotski::{random_level, Level, CLASSIC};

#[test]
fn reference_solves_the_classic_layout() {
    let (cost, positions) = Level::parse(CLASSIC).solve();
    assert_eq!(cost, Some(116));
    assert_eq!(positions, 25_955);
}

#[test]
fn reference_random_levels() {
    let mut rng = fastrand::Rng::with_seed(9);
    let mut sol = 0;
    for _ in 0..300 {
        let (_, cost) = random_level(&mut rng, 4000);
        sol += cost.is_some() as usize;
    }
    println!("{sol}");
}
