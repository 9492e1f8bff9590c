//! Bad input never panics: thousands of mutated `.puz` files (seeded) go through loading,
//! and those that still load are solved on every engine under a small state budget.

use std::panic::{catch_unwind, AssertUnwindSafe};

use puz::search::{Backend, Budget};
use puz::solver::{solve_opts, EngineChoice, SearchChoice, SolveOptions};

/// Snippets spliced into files: tokens of the language and plausible mistakes.
const SNIPPETS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    ",",
    ":",
    "+",
    "-",
    "->",
    "'",
    "\"",
    "\"\"\"",
    "\n",
    " ",
    "0",
    "1",
    "-1",
    "64",
    "99999999999",
    "(0, 0)",
    "(1, 0)",
    "floor",
    "wall",
    "block",
    "stone",
    "man",
    "box",
    "d",
    "n",
    "e",
    "stand",
    "pose",
    "piece",
    "anonymous",
    "tiles",
    "marks",
    "single",
    "legend",
    "dirs",
    "move",
    "shift",
    "swap",
    "turn",
    "slide",
    "require",
    "forbid",
    "at",
    "on",
    "goal",
    "and",
    "cost",
    "adds",
    "limit",
    "level",
    "judge",
    "into",
    "before",
    "off board",
    "stop",
    "break",
    "lose",
    "'X'",
    "'.'",
    "'#'",
    "é",
    "\t",
    "//",
];

fn mutate(text: &str, rng: &mut fastrand::Rng) -> String {
    let mut s: Vec<char> = text.chars().collect();
    for _ in 0..rng.usize(1..4) {
        let at = rng.usize(0..=s.len());
        match rng.u8(0..3) {
            0 if !s.is_empty() => {
                let end = (at + rng.usize(1..12)).min(s.len());
                s.drain(at.min(s.len() - 1)..end.max(at.min(s.len() - 1)));
            }
            1 => {
                let snip: Vec<char> = SNIPPETS[rng.usize(0..SNIPPETS.len())].chars().collect();
                s.splice(at..at, snip);
            }
            _ => {
                // Duplicate a line somewhere else.
                let lines: Vec<&str> = text.lines().collect();
                let line: Vec<char> = lines[rng.usize(0..lines.len())]
                    .chars()
                    .chain(['\n'])
                    .collect();
                s.splice(at..at, line);
            }
        }
    }
    s.into_iter().collect()
}

#[test]
fn mutated_files_never_panic() {
    let mut rng = fastrand::Rng::with_seed(0x5eed_2026);
    let mut loaded = 0;
    let mut solved = 0;
    for name in ["bloxorz", "sokoban", "huarong", "curling"] {
        let path = format!("puzzles/{name}.puz");
        let text = std::fs::read_to_string(&path).expect("read puzzle");
        for i in 0..iters(400) {
            let m = mutate(&text, &mut rng);
            let result = catch_unwind(AssertUnwindSafe(|| {
                puz::Puzzle::load("mutant.puz", m.clone())
            }));
            let puzzle = match result {
                Ok(Ok(p)) => p,
                Ok(Err(d)) => {
                    // Every report renders and names a code.
                    let text = d.render_plain(80);
                    assert!(
                        text.contains("puz::"),
                        "{name} #{i}: report without a code:\n{text}"
                    );
                    continue;
                }
                Err(_) => panic!("{name} #{i}: loading panicked on:\n{m}"),
            };
            loaded += 1;
            for level in 0..puzzle.model.levels.len() {
                let Ok(lv) = puzzle.inline_level(level) else {
                    continue;
                };
                for (engine, search) in [
                    (EngineChoice::Auto, SearchChoice::Auto),
                    (EngineChoice::Interp, SearchChoice::Auto),
                    (EngineChoice::Interp, SearchChoice::Backend(Backend::Astar)),
                    (EngineChoice::Interp, SearchChoice::Backend(Backend::Iddfs)),
                    (EngineChoice::Interp, SearchChoice::Backend(Backend::Bidir)),
                ] {
                    let opts = SolveOptions {
                        engine,
                        search,
                        budget: Budget {
                            max_states: Some(20_000),
                            ..Budget::default()
                        },
                        need_path: true,
                        ..Default::default()
                    };
                    let r = catch_unwind(AssertUnwindSafe(|| {
                        solve_opts(&puzzle.model, lv.clone(), &opts)
                    }));
                    match r {
                        Ok(Ok(_)) => solved += 1,
                        Ok(Err(e)) => assert!(
                            !e.to_string().contains("internal error"),
                            "{name} #{i}: {e} on:\n{m}"
                        ),
                        Err(_) => panic!("{name} #{i}: solving level {level} panicked ({engine:?}, {search:?}) on:\n{m}"),
                    }
                }
            }
        }
    }
    assert!(
        loaded > 100,
        "too few mutants load ({loaded}) to exercise solving"
    );
    assert!(solved > 100, "too few solves ({solved})");
}

#[test]
fn mutated_judge_inputs_never_panic() {
    let mut rng = fastrand::Rng::with_seed(0x00ba_d1e5);
    let inputs = [
        ("bloxorz", "7 7\n#######\n#..X###\n#..##O#\n#....E#\n#....E#\n#.....#\n#######\n0 0\n"),
        ("sokoban", "1 7\nSB....T\n7 11\n###########\n#T##......#\n#.#.#..####\n#....B....#\n#.######..#\n#.....S...#\n###########\n0 0\n"),
        ("huarong", "3 4 2\n0 1 1 1\n0 1 1 0\n0 1 0 0\n3 2 1 2 2 2\n1 2 2 2 3 2\n"),
        ("curling", "2 1\n3 2\n6 1\n1 1 2 1 1 3\n0 0\n"),
    ];
    for (name, input) in inputs {
        let path = format!("puzzles/{name}.puz");
        let puzzle =
            puz::Puzzle::load(&path, std::fs::read_to_string(&path).expect("read")).expect("load");
        for i in 0..iters(500) {
            let m = mutate(input, &mut rng);
            let mut out = Vec::new();
            let opts = puz::io::judge::JudgeOptions {
                budget: Budget {
                    max_states: Some(50_000),
                    ..Budget::default()
                },
                ..Default::default()
            };
            let r = catch_unwind(AssertUnwindSafe(|| {
                puz::io::judge::run_judge(&puzzle, &m, &mut out, &opts)
            }));
            match r {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => {
                    let msg = e.to_string();
                    assert!(
                        !msg.contains("internal error"),
                        "{name} #{i}: {msg} on:\n{m}"
                    );
                }
                Err(_) => panic!("{name} #{i}: judge panicked on:\n{m}"),
            }
        }
    }
}

/// Mutants per file: `default`, or `PUZ_ROBUST_ITERS` for longer runs.
fn iters(default: usize) -> usize {
    std::env::var("PUZ_ROBUST_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
