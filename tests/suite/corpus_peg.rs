//! Peg solitaire (`puzzles/pegsolitaire.puz`) against the independent search of
//! `tests/common/peg.rs`: the reference's solution of the English board, the shipped
//! levels' `expect` answers, and seeded random boards where puz's cost must equal the
//! reference's and puz's jumps (which peg, which way) must replay to one peg left, on the
//! target when there is one, in the reference's simulator.

use crate::common;

use common::drive::solve_described;
use common::peg::{random_level, Level, Move, ENGLISH};
use puz::compile::Expect;
use puz::engine::MoveDescription;
use puz::Puzzle;

fn load() -> Puzzle {
    let text = std::fs::read_to_string("puzzles/pegsolitaire.puz").expect("read the file");
    Puzzle::load("puzzles/pegsolitaire.puz", text).unwrap_or_else(|d| panic!("{d:?}"))
}

/// puz's described jumps as the reference's: the jumper (the piece named) and its jump.
fn jumps(described: &[MoveDescription]) -> Vec<Move> {
    described
        .iter()
        .map(|d| {
            let m = d.main().expect("every jump moves a peg");
            let (f, t) = (m.from.expect("from"), m.to.expect("to"));
            Move::between((f.0 as i32, f.1 as i32), (t.0 as i32, t.1 as i32))
                .unwrap_or_else(|| panic!("not a two-cell jump: {}", d.line()))
        })
        .collect()
}

#[test]
fn reference_solves_the_english_board() {
    let l = Level::parse(ENGLISH);
    let path = l.find().expect("solvable");
    assert_eq!(path.len(), 31);
    assert_eq!(l.replay(&path), Ok((31, true)));
}

/// 187,636,299 positions: the engine's target is 30 s in a release build.
#[test]
#[cfg_attr(debug_assertions, ignore = "run with --release: 187,636,299 positions")]
fn default_level_is_the_english_board_in_31_jumps() {
    let puzzle = load();
    let text = puzzle.model.levels[0].rows.join("\n");
    assert_eq!(
        text.split_whitespace().collect::<Vec<_>>().join("\n") + "\n",
        ENGLISH
    );
    let (cost, described) = solve_described(&puzzle, &text).expect("solvable");
    assert_eq!(cost, vec![31]);
    assert_eq!(
        Level::parse(&text).replay(&jumps(&described)),
        Ok((31, true))
    );
}

#[test]
fn shipped_levels_match_the_reference_and_their_expectations() {
    let puzzle = load();
    for level in &puzzle.model.levels {
        let want = Level::parse(&level.rows.join("\n")).solve();
        let expect = want.map_or(Expect::Unsolvable, |c| Expect::Cost(vec![c]));
        assert_eq!(
            level.expect.as_ref(),
            Some(&expect),
            "level {:?}",
            level.name
        );
    }
}

#[test]
fn shipped_small_levels_solve() {
    let puzzle = load();
    for level in puzzle.model.levels.iter().skip(1) {
        let text = level.rows.join("\n");
        let reference = Level::parse(&text);
        match solve_described(&puzzle, &text) {
            Some((cost, described)) => {
                assert_eq!(Some(cost[0]), reference.solve(), "level {:?}", level.name);
                let replayed = reference.replay(&jumps(&described));
                assert_eq!(replayed, Ok((cost[0], true)), "level {:?}", level.name);
            }
            None => assert_eq!(reference.solve(), None, "level {:?}", level.name),
        }
    }
}

#[test]
fn random_levels_match_the_reference() {
    let puzzle = load();
    let mut rng = fastrand::Rng::with_seed(0x0000_9e95);
    let (mut solved, mut unsolved) = (0, 0);
    for i in 0..300 {
        let level = random_level(&mut rng);
        let text = level.text();
        let want = level.solve();
        match solve_described(&puzzle, &text) {
            Some((cost, described)) => {
                assert_eq!(Some(cost[0]), want, "#{i}: cost differs:\n{text}");
                let replayed = level.replay(&jumps(&described));
                assert_eq!(replayed, Ok((cost[0], true)), "#{i}:\n{text}");
                solved += 1;
            }
            None => {
                assert_eq!(want, None, "#{i}: puz says unsolvable:\n{text}");
                unsolved += 1;
            }
        }
    }
    assert!(
        solved > 60 && unsolved > 60,
        "solved {solved}, unsolved {unsolved}"
    );
}
