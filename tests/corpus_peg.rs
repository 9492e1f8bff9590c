//! Peg solitaire (`puzzles/pegsolitaire.puz`) against the independent search of
//! `tests/common/peg.rs`.

mod common;

use common::peg::{random_level, Level, ENGLISH};

#[test]
fn reference_solves_the_english_board() {
    let l = Level::parse(ENGLISH);
    let path = l.find().expect("solvable");
    assert_eq!(path.len(), 31);
    assert_eq!(l.replay(&path), Ok((31, true)));
}

#[test]
fn reference_random_levels() {
    let mut rng = fastrand::Rng::with_seed(9);
    let mut sol = 0;
    for _ in 0..300 {
        let l = random_level(&mut rng);
        if let Some(path) = l.find() {
            assert_eq!(path.len() as u32 + 1, l.start.count_ones());
            assert_eq!(l.replay(&path).map(|r| r.1), Ok(true));
            sol += 1;
        }
    }
    println!("{sol}");
}
