//! Tilt maze (`puzzles/tilt.puz`) against the independent brute force of
//! `tests/common/tilt.rs`: the brute force on hand-checked levels, the shipped levels
//! (the default one with its known answer), and seeded random levels where puz's cost
//! equals the brute force's and puz's path replays under the spec's rules.

mod common;

use common::drive::Found;
use common::tilt::{dirs_from_letters, random_level, Level};
use puz::compile::Expect;
use puz::solver::EngineChoice;
use puz::Puzzle;

const FILE: &str = "puzzles/tilt.puz";
/// The answer of the default (first) level.
const DEFAULT_ANSWER: u64 = 12;

fn load() -> Puzzle {
    let text = std::fs::read_to_string(FILE).expect("read the puzzle");
    Puzzle::load(FILE, text).unwrap_or_else(|d| panic!("{FILE} does not load: {d:?}"))
}

/// Checks puz's answer `found` on the level `text` against the brute force: same cost,
/// and the path replays to the goal. Returns the brute force's answer.
fn check(text: &str, found: Option<Found>, what: &str) -> Option<u64> {
    let level = Level::parse(text);
    let want = level.solve();
    match found {
        Some((cost, letters)) => {
            assert_eq!(
                Some(cost[0]),
                want,
                "{what}: puz's cost differs on\n{text}path {letters}"
            );
            let replayed = level.replay(&dirs_from_letters(&letters));
            assert_eq!(
                replayed,
                Ok(cost[0]),
                "{what}: puz's path {letters} on\n{text}"
            );
        }
        None => assert_eq!(want, None, "{what}: puz finds no solution on\n{text}"),
    }
    want
}

#[test]
fn brute_force_on_hand_checked_levels() {
    let cases: [(&str, Option<u64>); 7] = [
        ("m.t", Some(1)),
        ("mt.", None), // the marble cannot stop on the target
        ("m.m\nt.t", Some(1)),
        ("mm.tt", Some(1)), // the far marble settles first
        ("mmt.t", None),
        ("M.", Some(0)),
        ("m#\n#t", None),
    ];
    for (text, want) in cases {
        assert_eq!(Level::parse(text).solve(), want, "{text}");
    }
    let l = Level::parse("m.\n#t");
    assert_eq!(l.replay(&dirs_from_letters("es")), Ok(2));
    assert!(
        l.replay(&dirs_from_letters("wes")).is_err(),
        "w moves nothing"
    );
    assert!(
        l.replay(&dirs_from_letters("e")).is_err(),
        "not on the target"
    );
}

#[test]
fn expectations_in_the_file_match_the_brute_force() {
    let levels = common::puzfile::shipped_levels(FILE);
    assert!(levels.len() >= 3, "at least three levels");
    assert_eq!(
        levels[0].expect,
        Some(Some(DEFAULT_ANSWER)),
        "the default level"
    );
    for l in &levels {
        let want = l
            .expect
            .unwrap_or_else(|| panic!("level {:?} has no expect", l.name));
        assert_eq!(Level::parse(&l.text).solve(), want, "level {:?}", l.name);
    }
}

/// How many random levels the differential test solves.
const RANDOM_LEVELS: usize = 300;

#[test]
fn shipped_levels_match_the_brute_force() {
    let puzzle = load();
    assert!(puzzle.model.levels.len() >= 3, "at least three levels");
    for (i, l) in puzzle.model.levels.iter().enumerate() {
        let what = format!("level {:?}", l.name);
        let level = puzzle
            .inline_level(i)
            .unwrap_or_else(|d| panic!("{what}: {d:?}"));
        let (_, found) = common::drive::solve_level(&puzzle, level, EngineChoice::Auto, &what);
        let got = check(&(l.rows.join("\n") + "\n"), found, &what);
        let pinned = match &l.expect {
            Some(Expect::Cost(c)) if c.len() == 1 => Some(c[0]),
            Some(Expect::Unsolvable) => None,
            other => panic!("{what}: expect clause {other:?}"),
        };
        assert_eq!(got, pinned, "{what}: its expect clause, as puz read it");
        if i == 0 {
            assert_eq!(got, Some(DEFAULT_ANSWER), "the default level");
        }
    }
}

#[test]
fn random_levels_match_the_brute_force() {
    let puzzle = load();
    let mut rng = fastrand::Rng::with_seed(0x7_1170);
    let (mut solved, mut unsolved, mut longest) = (0, 0, 0);
    for i in 0..RANDOM_LEVELS {
        let text = random_level(&mut rng);
        let (_, found) = common::drive::solve_text(&puzzle, &text, EngineChoice::Auto);
        match check(&text, found, &format!("random level {i}")) {
            Some(c) => {
                solved += 1;
                longest = longest.max(c);
            }
            None => unsolved += 1,
        }
    }
    // The levels must exercise both answers and some depth, or the test proves little.
    assert!(
        solved >= RANDOM_LEVELS / 4 && unsolved >= RANDOM_LEVELS / 10 && longest >= 4,
        "solved {solved}, unsolved {unsolved}, longest {longest}"
    );
}
