//! Sokoban with holes (`puzzles/holes.puz`) against the independent brute force of
//! `tests/common/holes.rs`: the brute force on hand-checked levels, the shipped levels
//! (the default one with its known answer), and seeded random levels where puz's cost
//! equals the brute force's and puz's path replays under the spec's rules.

use crate::common;

use common::drive::Found;
use common::holes::{moves_from_letters, random_level, Level};

const FILE: &str = "puzzles/holes.puz";
/// The answer of the default (first) level.
const DEFAULT_ANSWER: u64 = 29;

/// Checks puz's answer `found` on the level `text` against the brute force: same cost,
/// and the path replays to the goal. Returns the brute force's answer.
fn check(text: &str, found: Option<Found>, what: &str) -> Option<u64> {
    common::corpus::check_answer(
        text,
        found,
        what,
        |t| Level::parse(t).solve(),
        |t, letters| Level::parse(t).replay(&moves_from_letters(letters)),
    )
}

#[test]
fn brute_force_on_hand_checked_levels() {
    let cases: [(&str, Option<u64>); 6] = [
        ("@$OE", Some(3)),
        ("@OE", None),   // the man cannot enter a hole
        ("@$$OE", None), // a box cannot push a box
        ("@$O.\n...E", Some(4)),
        ("@$O.E", Some(4)), // the filled hole is floor
        ("@$#\n.OE", None), // the box cannot reach the hole
    ];
    for (text, want) in cases {
        assert_eq!(Level::parse(text).solve(), want, "{text}");
    }
    let l = Level::parse("@$OE");
    assert_eq!(l.replay(&moves_from_letters("Eee")), Ok(3));
    assert!(
        l.replay(&moves_from_letters("EeE")).is_err(),
        "a push with no box"
    );
    assert!(
        l.replay(&moves_from_letters("e")).is_err(),
        "a walk into a box"
    );
}

#[test]
fn expectations_in_the_file_match_the_brute_force() {
    common::corpus::expectations_match(FILE, DEFAULT_ANSWER, |text| Level::parse(text).solve());
}

/// How many random levels the differential test solves.
const RANDOM_LEVELS: usize = 300;

#[test]
fn shipped_levels_match_the_brute_force() {
    common::corpus::shipped_levels_match(FILE, DEFAULT_ANSWER, check);
}

#[test]
fn random_levels_match_the_brute_force() {
    common::corpus::random_levels_match(FILE, 0x0b0_1e5, RANDOM_LEVELS, random_level, check, 6);
}
