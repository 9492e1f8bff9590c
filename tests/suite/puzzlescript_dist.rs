//! PuzzleScript levels on the distributed engine (`puz::dist::puzzlescript`, `puz solve
//! GAME.txt --workers N`, `--processes`): answers equal one process's (A* where a bound
//! derives, else breadth-first): the same fewest inputs and the same inputs under the
//! tie rule, replayed in a fresh session; and analyses the whole graph's figures, on seeded random levels (again turns
//! among them) and on demo games, with 1 to 3 workers and with 2 local processes; a run
//! resumed from its checkpoints gives the same answer and a checkpoint of another level
//! is refused; budgets end with exit 3 (the cutoff as JSON with `--json`), random games
//! with exit 5, and processes started on different levels with exit 10.

use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;
use std::time::Duration;

use puz::dist::puzzlescript::{analyze_level, solve_level, PsDistError, SEARCH};
use puz::dist::{Cluster, DistOptions, DistOutcome};
use puz::puzzlescript::search::PsSpace;
use puz::puzzlescript::{Game, PsOutcome, PsSolution, PsSolveOptions};
use puz::search::graph::StateGraph;
use puz::search::Budget;

use crate::common::binary::{puz, stderr, stdout, TempFile};
use crate::common::cluster::hosts_file;
use crate::puzzlescript_solve::{random_level, Rng, FALLING, SOKOBAN};

const PUZ: &str = env!("CARGO_BIN_EXE_puz");

fn opts(workers: usize) -> DistOptions {
    DistOptions {
        cluster: Cluster::local(workers),
        max_states: None,
        deadline: None,
        max_bytes: None,
        checkpoint: None,
        resume: false,
        checkpoint_every: Duration::ZERO,
        stream_bytes: None,
        settings: vec![],
    }
}

fn load(name: &str, text: &str) -> Arc<Game> {
    let game = Game::load(name, Arc::new(text.to_string()))
        .unwrap_or_else(|d| panic!("the game loads: {d:?}"))
        .0;
    Arc::new(game)
}

/// One process's answer (A* where a bound derives, as on microban).
fn single(game: &Game, index: usize) -> PsSolution {
    puz::puzzlescript::solve_level(game, index, &PsSolveOptions::default()).expect("searchable")
}

/// The distributed answer with `workers` threads.
fn across(game: &Arc<Game>, index: usize, workers: usize) -> PsSolution {
    solve_level(
        game.clone(),
        index,
        &PsSolveOptions::default(),
        opts(workers),
    )
    .unwrap_or_else(|e| panic!("{e}"))
    .0
}

/// The answer's content: how it ended, the inputs and what each did, replayed.
fn content(s: &PsSolution) -> (PsOutcome, Option<usize>, String, Vec<String>, bool) {
    let steps = s
        .steps
        .iter()
        .map(|t| format!("{} {:?} {}", t.input, t.changes, t.won))
        .collect();
    (s.outcome, s.cost, s.inputs.clone(), steps, s.verified)
}

/// Distributed answers equal one process's on seeded random levels of `rules`.
fn agree_on_random_levels(rules: &str, seed: u64, levels: usize, crates: usize, spikes: bool) {
    let mut rng = Rng(seed);
    let mut solved = 0;
    for _ in 0..levels {
        let text = format!("{rules}{}", random_level(&mut rng, crates, spikes));
        let game = load("random.txt", &text);
        let want = single(&game, 0);
        solved += usize::from(want.solved);
        for workers in [1, 2, 3] {
            let got = across(&game, 0, workers);
            assert_eq!(got.search, SEARCH);
            assert!(got.canonical);
            assert_eq!(
                content(&got),
                content(&want),
                "{workers} workers on\n{text}"
            );
        }
    }
    assert!(solved >= levels / 20, "too few solvable levels: {solved}");
}

#[test]
fn random_levels_get_the_single_process_answer() {
    // The levels the single-process search is checked on against a brute force.
    agree_on_random_levels(SOKOBAN, 0x5eed_0001, 60, 1, false);
    agree_on_random_levels(SOKOBAN, 0x5eed_0002, 30, 2, false);
    // Crates that fall (again turns), spikes that restart: dead ends and again chains.
    agree_on_random_levels(FALLING, 0x5eed_0003, 60, 1, true);
}

#[test]
fn random_analyses_equal_the_whole_graph_figures() {
    let mut rng = Rng(0xd157_0004);
    for _ in 0..30 {
        let text = format!("{FALLING}{}", random_level(&mut rng, 2, true));
        let game = load("random.txt", &text);
        let mut space = PsSpace::new(&game, 0).expect("a level");
        let g = StateGraph::build(&mut space, &Budget::default()).expect("small");
        let a = g.analyze(&Budget::default()).expect("analyzed");
        let far = g
            .graph
            .node_indices()
            .find(|&n| g.graph[n].depth == a.farthest_distance)
            .expect("a farthest state");
        for workers in [1, 3] {
            let got = analyze_level(game.clone(), 0, opts(workers)).expect("runs");
            let d = got.analysis.expect("figures");
            assert_eq!(d.reachable_states as usize, a.reachable_states, "{text}");
            let layers: Vec<usize> = d.states_at_distance.iter().map(|&n| n as usize).collect();
            assert_eq!(layers, a.states_at_distance, "{text}");
            assert_eq!(d.goal_states as usize, a.goal_states, "{text}");
            assert_eq!(d.optimal_moves, a.optimal_moves, "{text}");
            assert_eq!(d.farthest, g.state(far), "{text}");
            assert_eq!(got.farthest, Some(space.draw(&g.state(far))));
        }
    }
}

/// The demo games' folder, when PuzzleScript's reference is there.
fn demo(test: &str) -> Option<PathBuf> {
    crate::common::ps_data::reference_or_skip(test).map(|d| d.join("src/demo"))
}

/// Demo levels (entries): Sokoban, Microban's first, games whose turns run again turns
/// (castlemouse, icecrates: thousands of them), a solution of 141 inputs (m c eschers
/// armageddon), and kettle's levels whose last layer has many goals (where a worker
/// stops expanding after the goal of least key it can make).
const DEMO: &[(&str, usize)] = &[
    ("kettle.txt", 22),
    ("kettle.txt", 25),
    ("sokoban_basic.txt", 0),
    ("sokoban_basic.txt", 1),
    ("microban.txt", 1),
    ("castlemouse.txt", 1),
    ("castlemouse.txt", 7),
    ("icecrates.txt", 7),
    ("m c eschers armageddon.txt", 3),
];

#[test]
fn demo_levels_get_the_single_process_answer() {
    let Some(dir) = demo("demo_levels_get_the_single_process_answer") else {
        return;
    };
    for &(name, level) in DEMO {
        let text = std::fs::read_to_string(dir.join(name)).expect("a demo game");
        let game = load(name, &text);
        let want = single(&game, level);
        assert!(want.solved, "{name} {level}");
        for workers in [1, 2, 3] {
            let got = across(&game, level, workers);
            assert_eq!(content(&got), content(&want), "{name} {level} x{workers}");
        }
    }
}

/// Starts process `i` of a local run of `processes` of one worker each.
fn start(args: &[&str], processes: usize, i: usize, hosts: &str, workers: usize) -> Child {
    Command::new(PUZ)
        .args(args)
        .args(["--processes", &processes.to_string()])
        .args(["--process", &i.to_string(), "--hosts", hosts])
        .args(["--workers", &workers.to_string(), "--connect-timeout", "30"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("puz starts")
}

/// A local run of two processes, each with its own arguments: their outputs.
fn pair(a: &[&str], b: &[&str], workers: usize) -> Vec<Output> {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let hosts = hosts_file(dir.path(), 2);
    let procs = [
        start(a, 2, 0, &hosts, workers),
        start(b, 2, 1, &hosts, workers),
    ];
    procs
        .into_iter()
        .map(|c| c.wait_with_output().expect("puz ends"))
        .collect()
}

/// The JSON answer with what names the run (the search and its bound, its statistics,
/// the inputs it simulated) left out: one process runs A* where a bound derives.
fn answer_json(out: &[u8]) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_slice(out).expect("JSON");
    for k in ["search", "bound", "stats", "simulated"] {
        v[k] = serde_json::Value::Null;
    }
    v
}

#[test]
fn local_processes_answer_as_one_process() {
    let Some(dir) = demo("local_processes_answer_as_one_process") else {
        return;
    };
    for (name, level) in [("microban.txt", "1"), ("castlemouse.txt", "7")] {
        let path = dir.join(name).to_string_lossy().to_string();
        let args = ["solve", &path, "--level", level, "--json"];
        let want = puz(&args);
        assert!(want.status.success(), "{}", stderr(&want));
        for workers in [1, 2] {
            let outs = pair(&args, &args, workers);
            for (i, o) in outs.iter().enumerate() {
                assert!(o.status.success(), "{name} process {i}: {}", stderr(o));
            }
            assert!(outs[1].stdout.is_empty(), "only process 0 prints");
            let got: serde_json::Value = serde_json::from_slice(&outs[0].stdout).expect("JSON");
            assert_eq!(got["search"], SEARCH);
            assert_eq!(
                answer_json(&outs[0].stdout),
                answer_json(&want.stdout),
                "{name} {level} 2x{workers}"
            );
        }
        // The text answer too, with --workers alone.
        let text = puz(&["solve", &path, "--level", level]);
        let two = puz(&["solve", &path, "--level", level, "--workers", "2"]);
        assert!(two.status.success(), "{}", stderr(&two));
        assert_eq!(stdout(&two), stdout(&text));
    }
    // An analysis across processes: the single-process figures.
    let path = dir.join("sokoban_basic.txt").to_string_lossy().to_string();
    let args = ["analyze", &path, "--level", "0", "--json"];
    let want: serde_json::Value = serde_json::from_slice(&puz(&args).stdout).expect("JSON");
    let outs = pair(&args, &args, 1);
    assert!(
        outs.iter().all(|o| o.status.success()),
        "{}",
        stderr(&outs[0])
    );
    let got: serde_json::Value = serde_json::from_slice(&outs[0].stdout).expect("JSON");
    for k in [
        "reachable_states",
        "goal_states",
        "optimal_moves",
        "farthest_distance",
    ] {
        assert_eq!(got[k], want[k], "{k}");
    }
    assert_eq!(got["processes"], 2);
}

/// A diagnostic's words on one line (the report wraps them, with its margin).
fn flat(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| *w != "│")
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn processes_of_different_levels_are_refused() {
    let Some(dir) = demo("processes_of_different_levels_are_refused") else {
        return;
    };
    let path = dir.join("microban.txt").to_string_lossy().to_string();
    let outs = pair(
        &["solve", &path, "--level", "1"],
        &["solve", &path, "--level", "3"],
        1,
    );
    for o in &outs {
        assert_eq!(o.status.code(), Some(10), "{}", stderr(o));
        assert!(stderr(o).contains("puz::dist::mismatch"), "{}", stderr(o));
        assert!(
            flat(&stderr(o)).contains(
                "process 1 runs another level than process 0 (level 3 (#2) and level 1 (#1))"
            ),
            "{}",
            stderr(o)
        );
    }
    let other = dir.join("sokoban_basic.txt").to_string_lossy().to_string();
    let outs = pair(
        &["solve", &path, "--level", "1"],
        &["solve", &other, "--level", "1"],
        1,
    );
    for o in &outs {
        assert_eq!(o.status.code(), Some(10), "{}", stderr(o));
        assert!(
            flat(&stderr(o)).contains("process 1 runs another rule file than process 0 (game \"Simple Block Pushing Game\" and game \"Microban\")"),
            "{}",
            stderr(o)
        );
    }
}

#[test]
fn a_resumed_run_gives_the_same_answer_and_another_level_is_refused() {
    let text = format!("{SOKOBAN}#######\n#P....#\n#.*.*.#\n#.....#\n#O...O#\n#######\n");
    let game = load("two.txt", &text);
    let want = single(&game, 0);
    assert!(want.solved);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut o = opts(2);
    o.checkpoint = Some(dir.path().to_path_buf());
    let (got, _) = solve_level(game.clone(), 0, &PsSolveOptions::default(), o.clone()).unwrap();
    assert_eq!(content(&got), content(&want));
    puz::dist::checkpoint::rewind(dir.path(), 4).expect("rewound");
    o.resume = true;
    let (got, report) =
        solve_level(game.clone(), 0, &PsSolveOptions::default(), o.clone()).unwrap();
    assert_eq!(report.resumed_from, Some(4));
    assert_eq!(content(&got), content(&want));
    // The same rules with another level: not this run's checkpoint.
    let other = load("two.txt", &text.replace("#P....#", "#.P...#"));
    match solve_level(other, 0, &PsSolveOptions::default(), o) {
        Err(PsDistError::Dist(e)) => assert!(e.to_string().contains("other rules, level")),
        r => panic!("resumed another game's checkpoint: {:?}", r.map(|r| r.0)),
    }
}

#[test]
fn budgets_refusals_and_cutoffs_as_json() {
    // An open room with eight crates: far more states than the limit.
    let level =
        "#########\n#P......#\n#.*.*.*.#\n#.......#\n#.*.*.*.#\n#.O.O.O.#\n#.O.O.O.#\n#########\n";
    let text = format!("{SOKOBAN}{level}");
    let game = load("big.txt", &text);
    let mut o = opts(2);
    o.max_states = Some(1000);
    let (s, report) = solve_level(game, 0, &PsSolveOptions::default(), o).unwrap();
    assert_eq!(s.outcome, PsOutcome::Cutoff);
    assert!(matches!(report.outcome, DistOutcome::Cutoff(_)));
    assert!(s.stopped.as_deref().unwrap_or("").contains("state limit"));

    let f = TempFile::new("big", &text);
    for extra in [&[][..], &["--workers", "2"][..]] {
        // Text: the diagnostic on stderr alone. JSON: the cutoff on stdout as well.
        let o = puz(&[&["solve", f.path(), "--max-states", "1000"], extra].concat());
        assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
        assert!(stdout(&o).is_empty());
        assert!(stderr(&o).contains("state limit"), "{}", stderr(&o));
        let o = puz(&[
            &["solve", f.path(), "--max-states", "1000", "--json"],
            extra,
        ]
        .concat());
        assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
        assert!(stderr(&o).contains("state limit"), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
        assert_eq!(v["outcome"], "cutoff");
        assert_eq!(v["solved"], false);
        assert!(
            v["stopped"].as_str().unwrap().contains("state limit"),
            "{v}"
        );
        assert!(v["stats"]["stored"].as_u64().unwrap() >= 500, "{v}");
        let o = puz(&[&["solve", f.path(), "--timeout", "0.05"], extra].concat());
        assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
        let o = puz(&[&["analyze", f.path(), "--max-states", "1000"], extra].concat());
        assert_eq!(o.status.code(), Some(if extra.is_empty() { 6 } else { 3 }));
    }
    // Two processes: both stop, process 0 prints the cutoff.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let hosts = hosts_file(dir.path(), 2);
    let args = ["solve", f.path(), "--max-states", "1000", "--json"];
    let outs: Vec<Output> = (0..2)
        .map(|i| start(&args, 2, i, &hosts, 1))
        .collect::<Vec<_>>()
        .into_iter()
        .map(|c| c.wait_with_output().expect("puz ends"))
        .collect();
    for o in &outs {
        assert_eq!(o.status.code(), Some(3), "{}", stderr(o));
    }
    let v: serde_json::Value = serde_json::from_slice(&outs[0].stdout).expect("JSON");
    assert_eq!(v["outcome"], "cutoff");
    assert!(outs[1].stdout.is_empty());

    // Randomness is refused as in one process; so are --all and a level file.
    let random = SOKOBAN.replace(
        "[ > Player | Crate ] -> [ > Player | > Crate ]",
        "[ > Player | Crate ] -> [ > Player | > Crate ]\nrandom [ Target ] -> [ Target ]",
    );
    let f = TempFile::new("random", &format!("{random}#####\n#P*O#\n#####\n"));
    for cmd in ["solve", "analyze"] {
        let o = puz(&[cmd, f.path(), "--workers", "2"]);
        assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
        assert!(stderr(&o).contains("puz::ps::nondeterministic"));
    }
    let f = TempFile::new("soko", &format!("{SOKOBAN}#####\n#P*O#\n#####\n"));
    let o = puz(&["solve", f.path(), "--all", "--workers", "2"]);
    assert_eq!(o.status.code(), Some(2));
    let o = puz(&["solve", f.path(), "--workers", "2", "--search", "bidir"]);
    assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
    assert!(stderr(&o).contains("puz::ps::search_unavailable"));
    let o = puz(&["solve", f.path(), "--workers", "2"]);
    assert!(stdout(&o).contains("inputs (1): r"), "{}", stderr(&o));
}
