//! Bloxorz with switches (`puzzles/bloxorz-switches.puz`) against the independent brute force of
//! `tests/common/switches.rs`: the brute force on hand-checked levels, the shipped levels
//! (the default one with its known answer), and seeded random levels where puz's cost
//! equals the brute force's and puz's path replays under the spec's rules.

use crate::common;

use common::drive::Found;
use common::switches::{dirs_from_letters, random_level, Level};

const FILE: &str = "puzzles/bloxorz-switches.puz";
/// The answer of the default (first) level.
const DEFAULT_ANSWER: u64 = 24;

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
    let cases: [(&str, Option<u64>); 9] = [
        ("X..O", Some(2)),
        ("X!.O", None),       // an absent bridge is void
        ("Xa.!..O", Some(4)), // the soft switch raises the bridge
        ("X..!..O", None),
        ("Xaa!..O", None),    // two activations of one group cancel
        ("Xa!...O", Some(4)), // legal only after the toggle
        ("X..A!.O", Some(4)), // standing on the heavy switch
        ("X.A.!.O", None),    // lying on it does nothing
        ("X..a@.O", None),    // a switch of the other group
    ];
    for (text, want) in cases {
        assert_eq!(Level::parse(text).solve(), want, "{text}");
    }
    let l = Level::parse("Xa.!..O");
    assert_eq!(l.replay(&dirs_from_letters("eeee")), Ok(4));
    assert!(
        l.replay(&dirs_from_letters("eew")).is_err(),
        "does not end on the target"
    );
    assert!(l.replay(&dirs_from_letters("w")).is_err(), "off the board");
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
    common::corpus::random_levels_match(FILE, 0x0b10_c5e7, RANDOM_LEVELS, random_level, check, 6);
}
