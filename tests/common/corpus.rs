//! The three checks every corpus suite runs against its independent reference, written
//! once: the `expect` lines of the shipped file (read as plain text), the shipped levels
//! through puz, and seeded random levels through puz. Each suite passes its reference's
//! solver, its answer check (cost and replay) and its level generator.

use crate::common::drive::{solve_level, solve_text, Found};
use crate::common::puzfile::shipped_levels;
use puz::compile::Expect;
use puz::solver::EngineChoice;
use puz::Puzzle;

/// Loads a shipped rule file; panics when it does not load.
pub fn load(file: &str) -> Puzzle {
    let text = std::fs::read_to_string(file).expect("read the puzzle");
    Puzzle::load(file, text).unwrap_or_else(|d| panic!("{file} does not load: {d:?}"))
}

/// The file has at least three levels, the first expects `default`, and every level's
/// `expect` (read as plain text) is what the reference's `solve` finds.
pub fn expectations_match(file: &str, default: u64, solve: impl Fn(&str) -> Option<u64>) {
    let levels = shipped_levels(file);
    assert!(levels.len() >= 3, "at least three levels");
    assert_eq!(levels[0].expect, Some(Some(default)), "the default level");
    for l in &levels {
        let want = l
            .expect
            .unwrap_or_else(|| panic!("level {:?} has no expect", l.name));
        assert_eq!(solve(&l.text), want, "level {:?}", l.name);
    }
}

/// Every shipped level solved by puz passes `check` (same cost as the reference, path
/// replayed), equals its `expect` clause as puz read it, and the first costs `default`.
pub fn shipped_levels_match(
    file: &str,
    default: u64,
    check: impl Fn(&str, Option<Found>, &str) -> Option<u64>,
) {
    let puzzle = load(file);
    assert!(puzzle.model.levels.len() >= 3, "at least three levels");
    for (i, l) in puzzle.model.levels.iter().enumerate() {
        let what = format!("level {:?}", l.name);
        let level = puzzle
            .inline_level(i)
            .unwrap_or_else(|d| panic!("{what}: {d:?}"));
        let (_, found) = solve_level(&puzzle, level, EngineChoice::Auto, &what);
        let got = check(&(l.rows.join("\n") + "\n"), found, &what);
        let pinned = match &l.expect {
            Some(Expect::Cost(c)) if c.len() == 1 => Some(c[0]),
            Some(Expect::Unsolvable) => None,
            other => panic!("{what}: expect clause {other:?}"),
        };
        assert_eq!(got, pinned, "{what}: its expect clause, as puz read it");
        if i == 0 {
            assert_eq!(got, Some(default), "the default level");
        }
    }
}

/// `count` random levels from `generate` (seeded with `seed`) solved by puz pass
/// `check`; enough of them are solved, enough unsolvable, and the longest answer is at
/// least `longest`, or the test would prove little.
pub fn random_levels_match(
    file: &str,
    seed: u64,
    count: usize,
    mut generate: impl FnMut(&mut fastrand::Rng) -> String,
    check: impl Fn(&str, Option<Found>, &str) -> Option<u64>,
    longest: u64,
) {
    let puzzle = load(file);
    let mut rng = fastrand::Rng::with_seed(seed);
    let (mut solved, mut unsolved, mut deepest) = (0, 0, 0);
    for i in 0..count {
        let text = generate(&mut rng);
        let (_, found) = solve_text(&puzzle, &text, EngineChoice::Auto);
        match check(&text, found, &format!("random level {i}")) {
            Some(c) => {
                solved += 1;
                deepest = deepest.max(c);
            }
            None => unsolved += 1,
        }
    }
    assert!(
        solved >= count / 4 && unsolved >= count / 10 && deepest >= longest,
        "solved {solved}, unsolved {unsolved}, longest {deepest}"
    );
}

/// Checks puz's answer `found` on the level `text` against a reference: the same cost
/// as `solve` finds, and the path (`replay` of its letters) reaching the goal at that
/// cost. Returns the reference's answer.
pub fn check_answer(
    text: &str,
    found: Option<Found>,
    what: &str,
    solve: impl Fn(&str) -> Option<u64>,
    replay: impl Fn(&str, &str) -> Result<u64, String>,
) -> Option<u64> {
    let want = solve(text);
    match found {
        Some((cost, letters)) => {
            assert_eq!(
                Some(cost[0]),
                want,
                "{what}: puz's cost differs on\n{text}path {letters}"
            );
            assert_eq!(
                replay(text, &letters),
                Ok(cost[0]),
                "{what}: puz's path {letters} on\n{text}"
            );
        }
        None => assert_eq!(want, None, "{what}: puz finds no solution on\n{text}"),
    }
    want
}

/// For suites that replay puz's named moves: every shipped level's `expect` (as compiled)
/// is what the reference's `solve` finds, and every level but the default (which has a
/// test of its own) is solved by puz at that cost with moves `replay` accepts at that cost
/// (`Ok((cost, true))`: the goal holds after them).
pub fn shipped_levels_replay(
    puzzle: &Puzzle,
    solve: impl Fn(&str) -> Option<u64>,
    replay: impl Fn(&str, &[puz::engine::MoveDescription]) -> Result<(u64, bool), String>,
) {
    for (i, level) in puzzle.model.levels.iter().enumerate() {
        let text = level.rows.join("\n");
        let want = solve(&text);
        let expect = want.map_or(Expect::Unsolvable, |c| Expect::Cost(vec![c]));
        assert_eq!(
            level.expect.as_ref(),
            Some(&expect),
            "level {:?}",
            level.name
        );
        if i == 0 {
            continue;
        }
        match crate::common::drive::solve_described(puzzle, &text) {
            Some((cost, described)) => {
                assert_eq!(Some(cost[0]), want, "level {:?}", level.name);
                let replayed = replay(&text, &described);
                assert_eq!(replayed, Ok((cost[0], true)), "level {:?}", level.name);
            }
            None => assert_eq!(want, None, "level {:?}", level.name),
        }
    }
}
