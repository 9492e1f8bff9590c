//! Ice cave (`puzzles/icecave.puz`) against the independent brute force of
//! `tests/common/icecave.rs`: the brute force on hand-checked levels, the shipped levels
//! (the default one with its known answer), and seeded random levels where puz's cost
//! equals the brute force's and puz's path replays under the spec's rules.

use crate::common;

use common::drive::Found;
use common::icecave::{dirs_from_letters, random_level, Level};

const FILE: &str = "puzzles/icecave.puz";
/// The answer of the default (first) level.
const DEFAULT_ANSWER: u64 = 15;

/// Checks puz's answer `found` on the level `text` against the brute force: same cost,
/// and the path replays to the goal. Returns the brute force's answer.
fn check(text: &str, found: Option<Found>, what: &str) -> Option<u64> {
    common::corpus::check_answer(
        text,
        found,
        what,
        |t| Level::parse(t).solve(),
        |t, letters| Level::parse(t).replay(&dirs_from_letters(letters)),
    )
}

#[test]
fn brute_force_on_hand_checked_levels() {
    let cases: [(&str, Option<u64>); 5] = [
        ("@..E", Some(1)),
        ("@.E.", None), // sliding over the exit does not count
        ("@.E#", Some(1)),
        ("@..\n..E", Some(2)),
        ("#@#\n#E#\n...", None), // the slide south runs past the exit
    ];
    for (text, want) in cases {
        assert_eq!(Level::parse(text).solve(), want, "{text}");
    }
    let l = Level::parse("@..\n..E");
    assert_eq!(l.replay(&dirs_from_letters("es")), Ok(2));
    assert!(
        l.replay(&dirs_from_letters("wes")).is_err(),
        "w moves nothing"
    );
    assert!(
        l.replay(&dirs_from_letters("e")).is_err(),
        "does not end on the exit"
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
    common::corpus::random_levels_match(FILE, 0x1ce_ca7e, RANDOM_LEVELS, random_level, check, 4);
}
