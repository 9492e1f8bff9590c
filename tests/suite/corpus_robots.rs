//! Sliding robots (`puzzles/robots.puz`) against the independent brute force of
//! `tests/common/robots.rs`: the brute force on hand-checked levels, the shipped levels
//! (the default one with its known answer), and seeded random levels where puz's cost
//! equals the brute force's and puz's path replays under the spec's rules. The letters
//! do not say which of the other robots moved (`NSWE` is any one of them), so the path
//! is replayed from puz's described moves: the robot named, the cell it started from and
//! the cell it stopped on.

use crate::common;

use common::robots::{random_level, Level, Slide};
use puz::compile::Expect;
use puz::engine::{Expander, MoveTarget};
use puz::search::{Budget, Outcome};
use puz::solver::{path_cost, solve, EngineChoice};
use puz::Puzzle;

const FILE: &str = "puzzles/robots.puz";
/// The answer of the default (first) level.
const DEFAULT_ANSWER: u64 = 16;

fn load() -> Puzzle {
    let text = std::fs::read_to_string(FILE).expect("read the puzzle");
    Puzzle::load(FILE, text).unwrap_or_else(|d| panic!("{FILE} does not load: {d:?}"))
}

/// Solves `level` with puz and checks its answer against the brute force on `text`: the
/// same cost, and the described moves (robot, start cell, direction) replay to the goal,
/// each stopping where puz says. Returns the brute force's answer.
fn check(puzzle: &Puzzle, level: puz::engine::Level, text: &str, what: &str) -> Option<u64> {
    let model = &puzzle.model;
    let want = Level::parse(text).solve();
    let ans = solve(model, level.clone(), EngineChoice::Auto, &Budget::default())
        .unwrap_or_else(|e| panic!("{what}: solve failed: {e}"));
    let path = match ans.outcome {
        Outcome::Solved(path) => path,
        Outcome::Unsolvable => {
            assert_eq!(want, None, "{what}: puz finds no solution on\n{text}");
            return want;
        }
        other => panic!("{what}: unbudgeted solve gave {other:?}"),
    };
    let letters: String = path.actions.iter().map(|&a| model.letter(a)).collect();
    let cost = path_cost(model, &path.actions)[0];
    assert_eq!(
        Some(cost),
        want,
        "{what}: puz's cost differs on\n{text}path {letters}"
    );
    let exp = Expander::new(model, level, &Budget::default()).expect("set up");
    let described = exp.describe_path(&path.states, &path.actions);
    let mut slides = vec![];
    let mut stops = vec![];
    for (d, ch) in described.iter().zip(letters.chars()) {
        assert_eq!(d.moved.len(), 1, "{what}: one robot per move: {}", d.line());
        let m = &d.moved[0];
        let name = if ch.is_ascii_lowercase() {
            "red"
        } else {
            "robot"
        };
        assert_eq!(m.name, name, "{what}: letter {ch} moved {}", d.line());
        let dir = match &d.target {
            MoveTarget::Dir(n) => "nswe".find(n.as_str()).expect("a direction"),
            other => panic!("{what}: {other:?}"),
        };
        let cell =
            |p: Option<(i64, i64)>| p.map(|(r, c)| (r as i32, c as i32)).expect("on the board");
        slides.push(Slide {
            from: cell(m.from),
            dir,
        });
        stops.push(cell(m.to));
    }
    let replayed = Level::parse(text).replay(&slides);
    assert_eq!(
        replayed,
        Ok(stops),
        "{what}: puz's path {letters} on\n{text}"
    );
    want
}

#[test]
fn brute_force_on_hand_checked_levels() {
    let cases: [(&str, Option<u64>); 5] = [
        ("R.X", Some(1)),
        ("R.X.", None),    // the red robot slides past the target
        ("R.Xr", Some(1)), // another robot stops it
        ("R.X.\n...r", Some(2)),
        ("R#X", None),
    ];
    for (text, want) in cases {
        assert_eq!(Level::parse(text).solve(), want, "{text}");
    }
    let l = Level::parse("R.X.\n...r");
    let slides = [
        Slide {
            from: (1, 3),
            dir: 0,
        },
        Slide {
            from: (0, 0),
            dir: 3,
        },
    ];
    assert_eq!(l.replay(&slides), Ok(vec![(0, 3), (0, 2)]));
    assert!(
        l.replay(&slides[1..]).is_err(),
        "red slides past the target"
    );
    assert!(
        l.replay(&[Slide {
            from: (1, 2),
            dir: 0
        }])
        .is_err(),
        "no robot there"
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
        let got = check(&puzzle, level, &(l.rows.join("\n") + "\n"), &what);
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
    let mut rng = fastrand::Rng::with_seed(0x0_7ab07);
    let (mut solved, mut unsolved, mut longest) = (0, 0, 0);
    for i in 0..RANDOM_LEVELS {
        let text = random_level(&mut rng);
        let level = puzzle
            .level_from_file("random", text.clone())
            .unwrap_or_else(|d| panic!("valid level rejected:\n{text}\n{d:?}"));
        match check(&puzzle, level, &text, &format!("random level {i}")) {
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
