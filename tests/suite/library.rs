//! The library's answer, as an embedding program sees it: `puz::solve`, `Puzzle::solve`,
//! `Solution` (its moves, cost, boards, JSON) and `expect::Tester`, checked against an
//! independent replay through the interpreter.

use puz::engine::{Expander, Successors};
use puz::expect::{Tester, Verdict};
use puz::search::Space;
use puz::solution::{Boards, Drawing, Moves, Status};
use puz::solver::{path_cost, EngineChoice, SearchChoice, SolveError};
use puz::{Budget, Error, Puzzle, SolveOptions};

fn read(name: &str) -> String {
    std::fs::read_to_string(format!("puzzles/{name}")).expect("a shipped puzzle")
}

fn opts() -> SolveOptions {
    SolveOptions {
        budget: Budget {
            max_states: Some(2_000_000),
            deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(60)),
            ..Budget::default()
        },
        ..SolveOptions::default()
    }
}

/// Replays `actions` from the level's start by hand: each action must be among the
/// successors, and the state it makes is the next one the solution holds.
fn replay(p: &Puzzle, level: usize, s: &puz::Solution) {
    let lvl = p.inline_level(level).expect("level");
    let mut exp = Expander::new(&p.model, lvl, &Budget::default()).expect("setup");
    let mut state = exp.start();
    assert_eq!(s.states.first(), Some(&state));
    let mut succ = Successors::default();
    for (k, &a) in s.actions.iter().enumerate() {
        Space::successors(&mut exp, &state, &mut succ);
        let next = s.states[k + 1].as_slice();
        assert!(
            succ.iter(exp.words()).any(|(b, t)| b == a && t == next),
            "{}: move {} does not replay",
            s.puzzle,
            k + 1
        );
        state = next.to_vec();
    }
    assert!(
        exp.is_goal(&state),
        "{}: the last state is a goal",
        s.puzzle
    );
}

#[test]
fn every_shipped_puzzles_smallest_level_is_solved_verified_and_replays() {
    let mut dir: Vec<_> = std::fs::read_dir("puzzles")
        .expect("puzzles/")
        .map(|e| e.expect("entry").file_name().into_string().expect("utf-8"))
        .filter(|n| n.ends_with(".puz"))
        .collect();
    dir.sort();
    assert!(dir.len() >= 15, "{dir:?}");
    for name in dir {
        let text = read(&name);
        let p = Puzzle::load(&name, text).expect("loads");
        // The level with the fewest cells: debug builds are slow.
        let (i, l) = (0..p.model.levels.len())
            .map(|i| (i, p.inline_level(i).expect("level")))
            .min_by_key(|(_, l)| l.board.rows * l.board.cols)
            .expect("a level");
        let s = p.solve(Some(&l.name), &opts()).expect("solves");
        match s.outcome {
            Status::Solved => {
                assert!(s.verified, "{name}");
                assert!(s.solved, "{name}");
                replay(&p, i, &s);
                assert_eq!(s.states.len(), s.actions.len() + 1, "{name}");
                assert_eq!(s.unit_steps, s.actions.len(), "{name}");
                assert_eq!(s.move_count, s.moves.len(), "{name}");
                let letters: String = s.actions.iter().map(|&a| p.model.letter(a)).collect();
                assert_eq!(s.path, letters, "{name}");
                assert_eq!(
                    s.cost_vector(),
                    Some(path_cost(&p.model, &s.actions).as_slice()),
                    "{name}"
                );
                // Each move names what moved: the line starts with the move's name.
                for (line, &a) in s.moves.lines().iter().zip(&s.actions) {
                    let mv = &p.model.moves[a.mv().index()].name;
                    assert!(line.starts_with(mv.as_str()), "{name}: {line} is a {mv}");
                }
                // The level's own `expect`, where it has one, is what was found.
                if let Some(puz::compile::Expect::Cost(c)) = &p.model.levels[i].expect {
                    assert_eq!(s.cost_vector(), Some(c.as_slice()), "{name}");
                }
            }
            Status::Unsolvable => {
                assert_eq!(
                    p.model.levels[i].expect,
                    Some(puz::compile::Expect::Unsolvable),
                    "{name}"
                );
            }
            Status::Cutoff | Status::Cancelled => panic!("{name}: {}", s.summary()),
        }
    }
}

#[test]
fn one_call_solves_and_reports_as_the_cli_prints() {
    let s = puz::solve("bloxorz.puz", read("bloxorz.puz"), None, &opts()).expect("solves");
    assert_eq!(s.path, "wsssseneen");
    assert_eq!(s.cost.as_ref().expect("cost").to_string(), "10 rolls");
    assert_eq!(s.engine, "bloxorz");
    assert_eq!(s.search, "fast");
    assert!(s.canonical);
    let report = s.report();
    assert!(
        report.starts_with(
            "puzzle: Bloxorz / level \"sample\" (7 x 7)\ncost: 10 rolls\nmoves (10): wsssseneen\n"
        ),
        "{report}"
    );
    assert!(report.contains(" 1. roll block (1,3) w\n"), "{report}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_puz"))
        .args(["solve", "puzzles/bloxorz.puz"])
        .output()
        .expect("runs");
    assert_eq!(String::from_utf8_lossy(&out.stdout), report);
}

#[test]
fn json_names_the_cost_and_the_pieces_and_matches_the_cli() {
    let s = puz::solve("bloxorz.puz", read("bloxorz.puz"), None, &opts()).expect("solves");
    let v = serde_json::to_value(&s).expect("serialises");
    assert_eq!(v["cost"], serde_json::json!({"rolls": 10}));
    assert_eq!(v["outcome"], "solved");
    assert_eq!(v["path"], "wsssseneen");
    assert_eq!(v["moves"][0]["move"], "roll");
    assert_eq!(v["moves"][0]["piece"], "block");
    assert_eq!(v["moves"][0]["from"], serde_json::json!([1, 3]));
    assert_eq!(v["moves"][0]["dir"], "w");
    assert_eq!(v["moves"][0]["line"], "roll block (1,3) w");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_puz"))
        .args(["solve", "puzzles/bloxorz.puz", "--json"])
        .output()
        .expect("runs");
    let mut cli: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let mut lib = v.clone();
    // Times differ between the runs; everything else is the same answer.
    cli["stats"]["elapsed"] = 0.into();
    lib["stats"]["elapsed"] = 0.into();
    assert_eq!(cli, lib);
}

#[test]
fn under_a_metric_moves_group_their_unit_steps() {
    let p = Puzzle::load("rushhour.puz", read("rushhour.puz")).expect("loads");
    let o = SolveOptions {
        metric: Some("slides".into()),
        ..opts()
    };
    let s = p.solve(Some("small lot"), &o).expect("solves");
    assert_eq!(s.metric.as_deref(), Some("slides"));
    assert_eq!(s.cost_vector(), Some(&[2][..]));
    let Moves::Counted(moves) = &s.moves else {
        panic!("counted moves")
    };
    assert_eq!(moves.len(), 2);
    assert_eq!(
        moves.iter().map(|m| m.steps.len()).sum::<usize>(),
        s.unit_steps
    );
    for m in moves {
        let letters: String = m.steps.iter().map(|d| d.letter.as_str()).collect();
        assert_eq!(m.letters, letters);
        assert!(m.line.ends_with(&letters), "{}", m.line);
    }
    let v = serde_json::to_value(&s).expect("json");
    assert_eq!(v["move_count"], 2);
    assert!(v["moves"][0]["steps"].is_array());
}

#[test]
fn boards_are_drawn_by_the_interpreter_that_checked_the_path() {
    let p = Puzzle::load("sokoban.puz", read("sokoban.puz")).expect("loads");
    let text = SolveOptions {
        drawing: Drawing {
            boards: Boards::Text { written: vec![] },
            ..Drawing::default()
        },
        ..opts()
    };
    let s = p.solve(None, &text).expect("solves");
    let boards = s.boards.as_ref().expect("boards");
    assert_eq!(boards.len(), s.states.len());
    // The start is drawn in the level's own symbols: its rows as the file writes them.
    let rows: Vec<String> = p.model.levels[0]
        .rows
        .iter()
        .map(|r| r.trim_end().to_string())
        .collect();
    let drawn: Vec<String> = boards[0]
        .lines()
        .map(|r| r.trim_end().to_string())
        .collect();
    assert_eq!(drawn, rows);
    let views = SolveOptions {
        drawing: Drawing {
            boards: Boards::Views,
            ..Drawing::default()
        },
        ..opts()
    };
    let s = p.solve(None, &views).expect("solves");
    assert_eq!(s.frames.as_ref().expect("frames").len(), s.states.len());
    // Too many cells: none drawn, and the solution says so.
    let tiny = SolveOptions {
        drawing: Drawing {
            boards: Boards::Views,
            max_cells: 10,
            ..Drawing::default()
        },
        ..opts()
    };
    let s = p.solve(None, &tiny).expect("solves");
    assert!(s.boards_omitted && s.frames.is_none());
}

#[test]
fn a_budget_ends_the_search_in_the_answer_not_an_error() {
    let p = Puzzle::load("npuzzle.puz", read("npuzzle.puz")).expect("loads");
    let o = SolveOptions {
        engine: EngineChoice::Interp,
        search: SearchChoice::Backend(puz::search::Backend::Bfs),
        budget: Budget {
            max_states: Some(5),
            ..Budget::default()
        },
        ..SolveOptions::default()
    };
    let s = p.solve(None, &o).expect("runs");
    assert_eq!(s.outcome, Status::Cutoff);
    assert!(!s.solved && !s.verified && !s.canonical);
    assert!(
        s.stopped.as_deref().unwrap_or("").contains("state limit"),
        "{:?}",
        s.stopped
    );
    assert_eq!(serde_json::to_value(&s).expect("json")["outcome"], "cutoff");
}

#[test]
fn unknown_levels_and_metrics_are_coded_errors() {
    use miette::Diagnostic;
    let p = Puzzle::load("bloxorz.puz", read("bloxorz.puz")).expect("loads");
    let e = p.solve(Some("nope"), &opts()).expect_err("no such level");
    assert!(matches!(e, Error::NoSuchLevel { .. }));
    assert_eq!(
        e.code().map(|c| c.to_string()).as_deref(),
        Some("puz::input::no_such_level")
    );
    let o = SolveOptions {
        metric: Some("slides".into()),
        ..opts()
    };
    let e = p.solve(None, &o).expect_err("no such metric");
    assert_eq!(
        e.code().map(|c| c.to_string()).as_deref(),
        Some("puz::input::no_such_metric")
    );
    let e = puz::solve("x.puz", "puzzle \"x\"\n".into(), None, &opts()).expect_err("bad file");
    assert!(matches!(e, Error::Load(_)), "{e:?}");
    let o = SolveOptions {
        engine: EngineChoice::Fast,
        ..opts()
    };
    let p = Puzzle::load("hanoi.puz", read("hanoi.puz")).expect("loads");
    let e = p.solve(None, &o).expect_err("no fast path");
    assert!(
        matches!(e, Error::Solve(SolveError::NoFastPath(_))),
        "{e:?}"
    );
}

#[test]
fn a_tampered_answer_from_elsewhere_is_refused() {
    let p = Puzzle::load("bloxorz.puz", read("bloxorz.puz")).expect("loads");
    let lvl = p.inline_level(0).expect("level");
    let mut solver =
        puz::solver::Solver::new(&p.model, EngineChoice::Auto, SearchChoice::Auto).expect("solver");
    let mut answer = solver
        .solve(lvl.clone(), &Budget::default(), true)
        .expect("solves");
    if let puz::search::Outcome::Solved(path) = &mut answer.outcome {
        path.states.swap(1, 2);
    }
    let mut exp = Expander::new(&p.model, lvl.clone(), &Budget::default()).expect("setup");
    let e = puz::Solution::from_answer(&p.model, &lvl, answer, &mut exp, &Drawing::default())
        .expect_err("does not replay");
    assert!(matches!(e, SolveError::BadPath(_)), "{e:?}");
}

#[test]
fn the_tester_checks_expectations_and_says_what_it_got() {
    let text = read("rushhour.puz");
    let p = Puzzle::load_rules("rushhour.puz", text.clone()).expect("loads");
    let mut t = Tester::new(&p, EngineChoice::Auto, SearchChoice::Auto).expect("tester");
    for i in 0..p.model.levels.len() {
        let c = t.level(i, &opts().budget);
        assert!(c.invalid.is_none());
        assert!(!c.checks.is_empty(), "level {i} expects");
        for check in &c.checks {
            assert!(
                check.passed(),
                "level {i} {:?}: {:?}",
                check.metric,
                check.verdict
            );
        }
    }
    // A wrong expectation fails, naming what the search found.
    let wrong = text.replacen("expect 7 expect slides 2", "expect 8 expect slides 2", 1);
    assert_ne!(wrong, text);
    let p = Puzzle::load_rules("rushhour.puz", wrong).expect("loads");
    let mut t = Tester::new(&p, EngineChoice::Auto, SearchChoice::Auto).expect("tester");
    let i = p.level_index("one truck in the way").expect("level");
    let c = t.level(i, &opts().budget);
    match &c.checks[0].verdict {
        Verdict::Fail { got } => {
            assert_eq!(got.as_ref().map(|c| c.values.clone()), Some(vec![7]))
        }
        v => panic!("{v:?}"),
    }
    assert!(c.checks[1].passed());
}
