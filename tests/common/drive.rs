//! Thin drivers of the crate shared by the suites: solve a level and read back its cost
//! and letters, run judge mode. The references in the sibling modules never use these:
//! they stay independent of the code they check.

use puz::engine::{Expander, Level, MoveDescription};
use puz::io::judge::{run_judge, JudgeOptions};
use puz::search::{Budget, Outcome};
use puz::solver::{path_cost, solve, EngineChoice};
use puz::Puzzle;

/// A solved level: its cost vector and its move letters.
pub type Found = (Vec<u64>, String);

/// Solves `level` with `engine` and no budget: the engine that ran, and the cost and
/// letters of the path, or `None` when there is no solution. Panics on an error, a cutoff
/// or a bare cost, naming `what`.
pub fn solve_level(
    puzzle: &Puzzle,
    level: Level,
    engine: EngineChoice,
    what: &str,
) -> (&'static str, Option<Found>) {
    let ans = solve(&puzzle.model, level, engine, &Budget::default())
        .unwrap_or_else(|e| panic!("{what}: solve ({engine:?}) failed: {e}"));
    let found = match ans.outcome {
        Outcome::Solved(path) => {
            let cost = path_cost(&puzzle.model, &path.actions);
            let letters: String = path
                .actions
                .iter()
                .map(|&a| puzzle.model.letter(a))
                .collect();
            Some((cost, letters))
        }
        Outcome::Unsolvable => None,
        other => panic!("{what}: unbudgeted solve ({engine:?}) gave {other:?}"),
    };
    (ans.engine, found)
}

/// [`solve_level`] on level text read as a level file; panics when it is rejected.
pub fn solve_text(
    puzzle: &Puzzle,
    text: &str,
    engine: EngineChoice,
) -> (&'static str, Option<Found>) {
    let level = puzzle
        .level_from_file("random", text.to_string())
        .unwrap_or_else(|d| panic!("valid level rejected:\n{text}\n{d:?}"));
    solve_level(puzzle, level, engine, text)
}

/// Judge mode with `engine` and otherwise default options: the output. Panics on an error.
pub fn judge_with(puzzle: &Puzzle, input: &str, engine: EngineChoice) -> String {
    let opts = JudgeOptions {
        engine,
        ..JudgeOptions::default()
    };
    let mut out: Vec<u8> = vec![];
    run_judge(puzzle, input, &mut out, &opts)
        .unwrap_or_else(|e| panic!("judge ({engine:?}) failed: {e}"));
    String::from_utf8(out).expect("judge output is UTF-8")
}

/// Solves `text` (a level file in `puzzle`'s legend) with the automatic engine and no
/// budget: `None` when there is no solution, else the cost vector and every move told as
/// `puz solve --json` tells it (move, pieces from and to, direction or cell), for replays
/// that need to know which copy moved. Panics on a rejected level or a failed solve.
pub fn solve_described(puzzle: &Puzzle, text: &str) -> Option<(Vec<u64>, Vec<MoveDescription>)> {
    let level = puzzle
        .level_from_file("random", text.to_string())
        .unwrap_or_else(|d| panic!("valid level rejected:\n{text}\n{d:?}"));
    let ans = solve(
        &puzzle.model,
        level.clone(),
        EngineChoice::Auto,
        &Budget::default(),
    )
    .unwrap_or_else(|e| panic!("solve failed: {e}\n{text}"));
    match ans.outcome {
        Outcome::Solved(path) => {
            let exp = Expander::new(&puzzle.model, level, &Budget::default())
                .unwrap_or_else(|e| panic!("setup failed: {e:?}\n{text}"));
            let moves = exp.describe_path(&path.states, &path.actions);
            Some((path_cost(&puzzle.model, &path.actions), moves))
        }
        Outcome::Unsolvable => None,
        other => panic!("unbudgeted solve gave {other:?}\n{text}"),
    }
}

/// The outcome of inline level `i` of `puzzle` on the interpreter with backend `search`
/// and no budget, path wanted.
pub fn solve_inline(puzzle: &Puzzle, i: usize, search: puz::search::Backend) -> Outcome {
    let level = puzzle.inline_level(i).expect("level");
    let mut s = puz::solver::Solver::new(
        &puzzle.model,
        EngineChoice::Interp,
        puz::solver::SearchChoice::Backend(search),
    )
    .expect("solver");
    s.solve(level, &Budget::default(), true)
        .expect("solve")
        .outcome
}
