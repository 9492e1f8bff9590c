//! Distributed search (`puz::dist`, `--workers`/`--processes`): answers and analyses equal
//! the single-process ones, path for path, on every shipped puzzle's levels and on random
//! levels (cost vectors too: Sokoban's pushes then walks, and a three-component rule), with 1, 2 and 4 workers in one process and with 1, 2 and 4 local
//! processes of 1 and 2 workers; a killed process ends the run with an error naming it;
//! a run resumed from its checkpoints gives the same answer; budgets and bad setups end
//! with their exit codes.

use crate::common;

use crate::common::rules;
use common::cluster::{hosts_file, Procs};

use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use puz::dist::{self, Cluster, DistOptions, DistOutcome, Job};
use puz::engine::{Expander, Level};
use puz::search::graph::StateGraph;
use puz::search::{Backend, Budget, Outcome};
use puz::solver::{EngineChoice, SearchChoice, Solver};
use puz::Puzzle;

const PUZ: &str = env!("CARGO_BIN_EXE_puz");
const PUZZLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles");

fn load(name: &str) -> Puzzle {
    let path = format!("{PUZZLES}/{name}");
    Puzzle::load(&path, std::fs::read_to_string(&path).unwrap()).unwrap()
}

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

/// The single-process breadth-first answer: actions and states, or `None`.
fn single(p: &Puzzle, level: Level) -> Option<(Vec<puz::engine::Action>, Vec<Vec<u32>>)> {
    single_with(p, level, Backend::Bfs)
}

/// The single-process answer of `backend`.
fn single_with(
    p: &Puzzle,
    level: Level,
    backend: Backend,
) -> Option<(Vec<puz::engine::Action>, Vec<Vec<u32>>)> {
    let mut s = Solver::new(
        &p.model,
        EngineChoice::Interp,
        SearchChoice::Backend(backend),
    )
    .unwrap();
    match s.solve(level, &Budget::default(), true).unwrap().outcome {
        Outcome::Solved(path) => Some((path.actions, path.states)),
        Outcome::Unsolvable => None,
        o => panic!("single-process search gave {o:?}"),
    }
}

/// The distributed answer with `workers` threads, replayed.
fn distributed(
    p: &Puzzle,
    level: Level,
    workers: usize,
) -> Option<(Vec<puz::engine::Action>, Vec<Vec<u32>>)> {
    streamed(p, level, workers, None)
}

/// [`distributed`], sending successors mid-layer once `stream` bytes are gathered.
fn streamed(
    p: &Puzzle,
    level: Level,
    workers: usize,
    stream: Option<usize>,
) -> Option<(Vec<puz::engine::Action>, Vec<Vec<u32>>)> {
    let model = Arc::new(p.model.clone());
    let mut o = opts(workers);
    o.stream_bytes = stream;
    let report = dist::run(model.clone(), level.clone(), Job::Solve, o).unwrap();
    let cluster = Cluster::local(workers);
    let ans = dist::to_answer(&model, level, &report, &cluster, Duration::ZERO).unwrap();
    match ans.outcome {
        Outcome::Solved(path) => Some((path.actions, path.states)),
        Outcome::Unsolvable => None,
        o => panic!("distributed search gave {o:?}"),
    }
}

/// Every inline level of the unit-cost shipped puzzles small enough for a test.
fn shipped_levels() -> Vec<(String, Puzzle, usize)> {
    let mut out = vec![];
    for name in [
        "bloxorz.puz",
        "bloxorz-switches.puz",
        "curling.puz",
        "huarong.puz",
        "klotski.puz",
        "lightsout.puz",
        "npuzzle.puz",
        "pegsolitaire.puz",
        "keys.puz",
        "holes.puz",
        "tilt.puz",
        "icecave.puz",
        "robots.puz",
        "rushhour.puz",
    ] {
        let p = load(name);
        for (i, l) in p.model.levels.iter().enumerate() {
            // The big ones run in the benchmark (scripts/dist-bench), not here.
            let big = (name == "pegsolitaire.puz" && l.name == "english")
                || (name == "lightsout.puz" && l.name == "5x5 all on")
                || (name == "npuzzle.puz" && l.name.contains("15"));
            if !big {
                out.push((format!("{name} {:?}", l.name), load(name), i));
            }
        }
    }
    out
}

#[test]
fn every_shipped_level_gets_the_single_process_path() {
    for (what, p, i) in shipped_levels() {
        let level = p.inline_level(i).unwrap();
        let want = single(&p, level.clone());
        for workers in [1, 2, 4] {
            let got = distributed(&p, level.clone(), workers);
            assert_eq!(got, want, "{what} with {workers} workers");
        }
    }
}

#[test]
fn random_levels_get_the_single_process_path() {
    let mut rng = fastrand::Rng::with_seed(0xd157);
    let klotski = load("klotski.puz");
    for i in 0..40 {
        let (level, _) = common::klotski::random_level(&mut rng, 3000);
        let text = level.text(&mut rng);
        let level = klotski.level_from_file("random", text.clone()).unwrap();
        let want = single(&klotski, level.clone());
        let workers = [2, 3, 4][i % 3];
        // Every other level sends its successors in small batches mid-layer.
        let stream = (i % 2 == 1).then_some(64);
        assert_eq!(
            streamed(&klotski, level, workers, stream),
            want,
            "klotski #{i}, {workers} workers, batches {stream:?}:\n{text}"
        );
    }
    let bloxorz = load("bloxorz.puz");
    for (i, text) in common::bloxorz::boards(0xb10c, 40, 12).iter().enumerate() {
        let level = bloxorz.level_from_file("random", text.clone()).unwrap();
        let want = single(&bloxorz, level.clone());
        assert_eq!(
            distributed(&bloxorz, level, 2 + i % 3),
            want,
            "bloxorz #{i}:\n{text}"
        );
    }
    let lights = load("lightsout.puz");
    for i in 0..40 {
        let text = common::lightsout::random_level(&mut rng).text();
        let level = lights.level_from_file("random", text.clone()).unwrap();
        let want = single(&lights, level.clone());
        assert_eq!(
            distributed(&lights, level, 3),
            want,
            "lights out #{i}:\n{text}"
        );
    }
}

/// Three cost components, moves adding to one or two of them: tolls paid, then hops,
/// then steps (a hop adds a hop and a step).
const TOLLS: &str = r#"
puzzle "Tolls"
tiles { floor wall }
marks { goal toll }
piece man
legend {
  '#' wall
  '.' floor
  '@' floor + man
  'g' floor + goal
  't' floor + toll
}
dirs { n (-1, 0)  s (1, 0)  w (0, -1)  e (0, 1) }
cost tolls, hops, steps
move walk(d) {
  letters "nswe"
  adds steps
  require floor at man + d
  forbid toll at man + d
  shift man d
}
move hop(d) {
  letters "NSWE"
  adds hops, steps
  require floor at man + 2d
  forbid toll at man + 2d
  shift man 2d
}
move pay(d) {
  letters "abcd"
  adds tolls, steps
  require toll at man + d
  shift man d
}
goal man on goal
"#;

/// A random room for [`TOLLS`]: walls, tolls, one goal and the walker(s).
fn toll_room(rng: &mut fastrand::Rng, walkers: usize) -> String {
    let (h, w) = (rng.usize(3..=6), rng.usize(3..=7));
    let mut g: Vec<Vec<u8>> = (0..h)
        .map(|_| {
            (0..w)
                .map(|_| match rng.u8(0..100) {
                    0..=14 => b'#',
                    15..=34 => b't',
                    _ => b'.',
                })
                .collect()
        })
        .collect();
    let mut cells: Vec<(usize, usize)> = (0..h).flat_map(|r| (0..w).map(move |c| (r, c))).collect();
    rng.shuffle(&mut cells);
    for (k, &(r, c)) in cells.iter().take(2 * walkers).enumerate() {
        g[r][c] = if k < walkers { b'@' } else { b'g' };
    }
    g.iter()
        .map(|r| String::from_utf8(r.clone()).unwrap() + "\n")
        .collect()
}

#[test]
fn cost_vectors_go_bucket_by_bucket_to_the_single_process_path() {
    // Every shipped Sokoban level (pushes, then walks) in 1, 2 and 4 workers.
    let mut checked = 0;
    for name in ["sokoban.puz", "sokoban-boxes.puz"] {
        let p = load(name);
        for i in 0..p.model.levels.len() {
            let level = p.inline_level(i).unwrap();
            let want = single_with(&p, level.clone(), Backend::Dijkstra);
            for workers in [1, 2, 4] {
                let got = distributed(&p, level.clone(), workers);
                assert_eq!(got, want, "{name} level {i} with {workers} workers");
            }
            checked += 1;
        }
    }
    assert!(checked >= 4, "{checked} shipped levels");
    // Random rooms of one to three boxes; every other one streams small batches.
    let mut rng = fastrand::Rng::with_seed(0xb0c5);
    let boxes = load("sokoban-boxes.puz");
    let (mut solved, mut none) = (0, 0);
    for i in 0..60 {
        let n = rng.usize(1..=3);
        let text = common::sokoban::room(&mut rng, n, 5);
        let level = boxes.level_from_file("random", text.clone()).unwrap();
        let want = single_with(&boxes, level.clone(), Backend::Dijkstra);
        let stream = (i % 2 == 1).then_some(64);
        let got = streamed(&boxes, level, 2 + i % 3, stream);
        assert_eq!(got, want, "sokoban #{i}, batches {stream:?}:\n{text}");
        if want.is_some() {
            solved += 1;
        } else {
            none += 1;
        }
    }
    assert!(
        solved > 10 && none > 5,
        "solved {solved}, unsolvable {none}"
    );
    // Three components, moves adding to two of them.
    let tolls = rules::load(TOLLS);
    let mut solved = 0;
    for i in 0..80 {
        let text = toll_room(&mut rng, 1);
        let level = tolls.level_from_file("random", text.clone()).unwrap();
        let want = single_with(&tolls, level.clone(), Backend::Dijkstra);
        let got = streamed(&tolls, level, 1 + i % 4, (i % 2 == 0).then_some(64));
        assert_eq!(got, want, "tolls #{i}:\n{text}");
        solved += usize::from(want.is_some());
    }
    assert!(solved > 30, "solved {solved}");
    // Copies of an anonymous kind: the same moves, though maybe not the same copies.
    // [`TOLLS`] with anonymous walkers, every one to reach a goal: equal move sequences
    // of different walkers tie on every projection.
    let two = rules::load(&TOLLS.replace("piece man\n", "piece man anonymous\n"));
    for i in 0..60 {
        let text = toll_room(&mut rng, 2);
        let level = two.level_from_file("random", text.clone()).unwrap();
        let want = single_with(&two, level.clone(), Backend::Dijkstra);
        let got = distributed(&two, level, 1 + i % 4);
        assert_eq!(
            got.map(|g| g.0),
            want.map(|w| w.0),
            "two walkers #{i}:\n{text}"
        );
    }
}

#[test]
fn a_bucketed_solve_stopped_by_a_budget_resumes_from_its_snapshot() {
    let p = load("sokoban-boxes.puz");
    // Microban 1: 175 states, 8 pushes and 25 walks.
    let level = p.inline_level(0).unwrap();
    let want = single_with(&p, level.clone(), Backend::Dijkstra);
    assert!(want.is_some());
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck");
    let model = Arc::new(p.model.clone());
    let mut o = opts(2);
    o.checkpoint = Some(ck.clone());
    o.max_states = Some(50);
    let r = dist::run(model.clone(), level.clone(), Job::Solve, o.clone()).unwrap();
    assert!(
        matches!(r.outcome, DistOutcome::Cutoff(_)),
        "{:?}",
        r.outcome
    );
    let (bucket, _, _) = dist::checkpoint::last_complete(&ck).unwrap();
    assert!(bucket > 3, "snapshot before bucket {bucket}");
    // One snapshot is kept: the last.
    let dirs = std::fs::read_dir(&ck).unwrap().count();
    assert_eq!(dirs, 2, "the snapshot and `complete`");
    o.max_states = None;
    o.resume = true;
    let r = dist::run(model.clone(), level.clone(), Job::Solve, o.clone()).unwrap();
    assert_eq!(r.resumed_from, Some(bucket));
    assert!(r.buckets);
    let ans = dist::to_answer(
        &model,
        level.clone(),
        &r,
        &Cluster::local(2),
        Duration::ZERO,
    )
    .unwrap();
    let Outcome::Solved(path) = ans.outcome else {
        panic!("{:?}", ans.outcome)
    };
    assert_eq!(Some((path.actions, path.states)), want);
    // A damaged snapshot, and a snapshot of another cluster shape, are refused (the
    // resumed run went on writing snapshots: the last one).
    let (last, _, _) = dist::checkpoint::last_complete(&ck).unwrap();
    assert!(last > bucket);
    let file = ck.join(format!("bucket-{last}")).join("worker-1.bin");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() - 3]).unwrap();
    let e = dist::run(model.clone(), level.clone(), Job::Solve, o.clone()).unwrap_err();
    assert!(matches!(e, dist::DistError::Checkpoint(_)), "{e}");
    std::fs::write(&file, &bytes).unwrap();
    let mut three = o.clone();
    three.cluster = Cluster::local(3);
    let e = dist::run(model, level, Job::Solve, three).unwrap_err();
    assert!(matches!(e, dist::DistError::Checkpoint(_)), "{e}");
}

#[test]
fn analyses_equal_the_whole_graph_figures() {
    // The whole graph of a level is costly in a debug build: there, levels past 20,000
    // states are left to the release run (`cargo test --release`).
    let max = if cfg!(debug_assertions) {
        20_000
    } else {
        400_000
    };
    let mut checked = 0;
    // An analysis counts moves whatever the costs: Sokoban's levels too.
    let mut levels = shipped_levels();
    for name in ["sokoban.puz", "sokoban-boxes.puz"] {
        let p = load(name);
        for i in 0..p.model.levels.len() {
            levels.push((format!("{name} #{i}"), load(name), i));
        }
    }
    for (what, p, i) in levels {
        let level = p.inline_level(i).unwrap();
        let mut exp = Expander::new(&p.model, level.clone(), &Budget::default()).unwrap();
        let budget = Budget {
            max_depth: p.model.limit,
            max_states: Some(max),
            ..Budget::default()
        };
        let Ok(g) = StateGraph::build(&mut exp, &budget) else {
            continue;
        };
        checked += 1;
        let a = g.analyze(&Budget::default()).unwrap();
        let far = g
            .graph
            .node_indices()
            .find(|&n| g.graph[n].depth == a.farthest_distance)
            .unwrap();
        for workers in [1, 3] {
            let r = dist::run(
                Arc::new(p.model.clone()),
                level.clone(),
                Job::Analyze,
                opts(workers),
            )
            .unwrap();
            let DistOutcome::Analyzed(d) = r.outcome else {
                panic!("{what}: no analysis")
            };
            assert_eq!(d.reachable_states as usize, a.reachable_states, "{what}");
            let layers: Vec<usize> = d.states_at_distance.iter().map(|&n| n as usize).collect();
            assert_eq!(layers, a.states_at_distance, "{what}");
            assert_eq!(d.goal_states as usize, a.goal_states, "{what}");
            assert_eq!(d.optimal_moves, a.optimal_moves, "{what}");
            assert_eq!(d.farthest_distance, a.farthest_distance, "{what}");
            assert_eq!(
                d.farthest,
                g.state(far),
                "{what}: the farthest state BFS meets first"
            );
        }
    }
    assert!(
        checked >= 25,
        "only {checked} shipped levels were small enough"
    );
}

#[test]
fn budgets_and_refusals() {
    let p = load("klotski.puz");
    let level = p.inline_level(0).unwrap();
    let mut o = opts(2);
    o.max_states = Some(1000);
    let r = dist::run(Arc::new(p.model.clone()), level.clone(), Job::Solve, o).unwrap();
    assert!(
        matches!(
            r.outcome,
            DistOutcome::Cutoff(puz::search::Cutoff::States(1000))
        ),
        "{:?}",
        r.outcome
    );
    let mut o = opts(2);
    o.deadline = Some(Instant::now());
    let r = dist::run(Arc::new(p.model.clone()), level, Job::Analyze, o).unwrap();
    assert!(
        matches!(r.outcome, DistOutcome::Cutoff(puz::search::Cutoff::Time)),
        "{:?}",
        r.outcome
    );
    // Cost vectors under a move limit are refused.
    let sokoban = load("sokoban.puz");
    let text = std::fs::read_to_string(format!("{PUZZLES}/sokoban.puz")).unwrap();
    let limited = rules::load(&text.replace("cost pushes, walks", "cost pushes, walks\nlimit 60"));
    let e = dist::run(
        Arc::new(limited.model.clone()),
        limited.inline_level(0).unwrap(),
        Job::Solve,
        opts(1),
    )
    .unwrap_err();
    assert!(matches!(e, dist::DistError::Unsupported(_)), "{e}");
    // A state budget stops a bucketed solve on every worker.
    let mut o = opts(2);
    o.max_states = Some(20);
    let r = dist::run(
        Arc::new(sokoban.model.clone()),
        sokoban.inline_level(0).unwrap(),
        Job::Solve,
        o,
    )
    .unwrap();
    assert!(
        matches!(
            r.outcome,
            DistOutcome::Cutoff(puz::search::Cutoff::States(20))
        ),
        "{:?}",
        r.outcome
    );
}

/// Starts process `i` of a run of `processes` with `args`.
fn start(
    args: &[&str],
    processes: usize,
    i: usize,
    workers: usize,
    hosts: &str,
    extra: &[&str],
) -> Child {
    Command::new(PUZ)
        .args(args)
        .args([
            "--processes",
            &processes.to_string(),
            "--process",
            &i.to_string(),
        ])
        .args([
            "--workers",
            &workers.to_string(),
            "--hosts",
            hosts,
            "--connect-timeout",
            "30",
        ])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs a whole local cluster to the end: every process's output.
fn cluster(args: &[&str], processes: usize, workers: usize, extra: &[&str]) -> Vec<Output> {
    let dir = tempfile::tempdir().unwrap();
    let hosts = hosts_file(dir.path(), processes);
    let procs: Vec<Child> = (0..processes)
        .map(|i| start(args, processes, i, workers, &hosts, extra))
        .collect();
    procs
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect()
}

fn single_cli(args: &[&str]) -> Output {
    Command::new(PUZ).args(args).output().unwrap()
}

#[test]
fn local_processes_answer_as_one_process() {
    let bloxorz = format!("{PUZZLES}/bloxorz.puz");
    let klotski = format!("{PUZZLES}/klotski.puz");
    let sokoban = format!("{PUZZLES}/sokoban-boxes.puz");
    let cases: Vec<Vec<&str>> = vec![
        vec!["solve", &bloxorz],
        vec!["solve", &sokoban],
        vec!["solve", &klotski, "--level", "two rows"],
        vec!["solve", &klotski, "--level", "stuck"],
        vec!["solve", &klotski, "--json"],
    ];
    for args in &cases {
        let mut one = args.clone();
        let search = if args[1] == sokoban {
            "dijkstra"
        } else {
            "bfs"
        };
        one.extend(["--engine", "interp", "--search", search]);
        let want = single_cli(&one);
        assert!(want.status.success());
        let want_json: Option<serde_json::Value> = serde_json::from_slice(&want.stdout).ok();
        for (processes, workers) in [(1, 1), (2, 1), (2, 2), (4, 1), (4, 2)] {
            let outs = cluster(args, processes, workers, &[]);
            for (i, o) in outs.iter().enumerate() {
                assert!(
                    o.status.success(),
                    "{args:?} {processes}x{workers} process {i}: {}",
                    String::from_utf8_lossy(&o.stderr)
                );
                if i > 0 {
                    assert!(o.stdout.is_empty(), "only process 0 prints");
                }
            }
            match &want_json {
                // The engine's reason names the cluster, the search is the distributed
                // one; the rest is the same.
                Some(w) => {
                    let mut got: serde_json::Value =
                        serde_json::from_slice(&outs[0].stdout).unwrap();
                    assert_eq!(got["search"], format!("distributed {search}"));
                    for k in ["engine_reason", "stats", "search"] {
                        got[k] = w[k].clone();
                    }
                    assert_eq!(&got, w, "{args:?} {processes}x{workers}");
                }
                // A "no solution" line names the distributed search that ran.
                None => assert_eq!(
                    String::from_utf8_lossy(&outs[0].stdout).replace(
                        &format!("interpreter distributed {search} searched"),
                        &format!("interpreter {search} searched")
                    ),
                    String::from_utf8_lossy(&want.stdout),
                    "{args:?} {processes}x{workers}"
                ),
            }
        }
    }
    // Analysis across processes: the single-process figures.
    let want: serde_json::Value =
        serde_json::from_slice(&single_cli(&["analyze", &klotski, "--json"]).stdout).unwrap();
    for (processes, workers) in [(2, 1), (4, 2)] {
        let outs = cluster(&["analyze", &klotski, "--json"], processes, workers, &[]);
        let got: serde_json::Value = serde_json::from_slice(&outs[0].stdout).unwrap();
        for k in [
            "reachable_states",
            "states_at_distance",
            "goal_states",
            "optimal_moves",
            "farthest_distance",
        ] {
            assert_eq!(got[k], want[k], "{k} with {processes}x{workers}");
        }
    }
}

#[test]
fn a_killed_process_ends_the_run_and_a_resumed_run_gives_the_same_answer() {
    // English peg solitaire runs for minutes: kill process 1 once a layer is complete.
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck");
    let hosts = hosts_file(dir.path(), 2);
    let peg = format!("{PUZZLES}/pegsolitaire.puz");
    let ckarg = ck.to_string_lossy().to_string();
    let args = ["analyze", &peg];
    let mut procs = Procs(
        (0..2)
            .map(|i| start(&args, 2, i, 1, &hosts, &["--checkpoint", &ckarg]))
            .collect(),
    );
    let t0 = Instant::now();
    while dist::checkpoint::last_complete(&ck).map_or(true, |(d, _, _)| d < 2) {
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "no layer completed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    procs.0[1].kill().unwrap();
    let t1 = Instant::now();
    let first = procs.0.remove(0);
    let out = first.wait_with_output().unwrap();
    assert!(
        t1.elapsed() < Duration::from_secs(30),
        "the run took {:?} to end",
        t1.elapsed()
    );
    assert_eq!(out.status.code(), Some(10));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("process 1 stopped"), "{err}");
    assert!(err.contains("puz::dist::process_lost"), "{err}");

    // A run that stopped after layer 40: resumed, it gives the single-process answer.
    let klotski = format!("{PUZZLES}/klotski.puz");
    let ck = dir.path().join("ck2");
    let ckarg = ck.to_string_lossy().to_string();
    let args = ["solve", &klotski];
    let outs = cluster(&args, 2, 2, &["--checkpoint", &ckarg]);
    assert!(outs.iter().all(|o| o.status.success()));
    let want = single_cli(&["solve", &klotski, "--engine", "interp", "--search", "bfs"]);
    assert_eq!(outs[0].stdout, want.stdout);
    let (last, _, _) = dist::checkpoint::last_complete(&ck).unwrap();
    assert!(last > 40, "layers checkpointed: {last}");
    dist::checkpoint::rewind(&ck, 40).unwrap();
    let outs = cluster(&args, 2, 2, &["--resume", &ckarg]);
    for o in &outs {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stderr).contains("resumed after layer 40"));
    }
    assert_eq!(
        String::from_utf8_lossy(&outs[0].stdout),
        String::from_utf8_lossy(&want.stdout)
    );
    // A damaged part of one worker ends every process, none waits for it.
    let part = ck.join("layer-40").join("worker-3.bin");
    let bytes = std::fs::read(&part).unwrap();
    std::fs::write(&part, &bytes[..bytes.len() / 2]).unwrap();
    let outs = cluster(&args, 2, 2, &["--resume", &ckarg]);
    for o in &outs {
        assert_eq!(o.status.code(), Some(10));
        assert!(String::from_utf8_lossy(&o.stderr).contains("puz::dist::checkpoint"));
    }
    std::fs::write(&part, &bytes).unwrap();
    // Another cluster shape cannot resume it.
    let outs = cluster(&args, 2, 1, &["--resume", &ckarg]);
    assert_eq!(outs[0].status.code(), Some(10));
    assert!(String::from_utf8_lossy(&outs[0].stderr).contains("puz::dist::checkpoint"));
}

#[test]
fn bad_setups_end_with_their_exit_codes() {
    let bloxorz = format!("{PUZZLES}/bloxorz.puz");
    let dir = tempfile::tempdir().unwrap();
    // A process whose peer never starts gives up after --connect-timeout.
    let hosts = hosts_file(dir.path(), 2);
    let t0 = Instant::now();
    let out = Command::new(PUZ)
        .args([
            "solve",
            &bloxorz,
            "--processes",
            "2",
            "--process",
            "1",
            "--hosts",
            &hosts,
            "--connect-timeout",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(10));
    assert!(String::from_utf8_lossy(&out.stderr).contains("could not reach process 0"));
    assert!(t0.elapsed() < Duration::from_secs(20));
    // Usage: a process index out of range, a hosts file of the wrong length or shape.
    for extra in [
        vec!["--processes", "2", "--process", "2"],
        vec!["--processes", "3", "--hosts", hosts.as_str()],
    ] {
        let out = Command::new(PUZ)
            .args(["solve", &bloxorz])
            .args(&extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
    }
    let bad = dir.path().join("bad");
    std::fs::write(&bad, "localhost\n").unwrap();
    let out = Command::new(PUZ)
        .args([
            "solve",
            &bloxorz,
            "--processes",
            "1",
            "--hosts",
            &bad.to_string_lossy(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected `host:port`"));
    // A bucketed solve with snapshots: the single-process answer.
    let ck = dir.path().join("ck");
    let sokoban = format!("{PUZZLES}/sokoban.puz");
    let out = Command::new(PUZ)
        .args([
            "solve",
            &sokoban,
            "--workers",
            "2",
            "--checkpoint-every",
            "0",
        ])
        .args(["--checkpoint", &ck.to_string_lossy()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want = single_cli(&[
        "solve", &sokoban, "--engine", "interp", "--search", "dijkstra",
    ]);
    assert_eq!(out.stdout, want.stdout);
    assert!(ck.join("complete").exists());
    // A state budget across processes.
    let outs = cluster(
        &[
            "solve",
            &format!("{PUZZLES}/klotski.puz"),
            "--max-states",
            "40",
        ],
        2,
        1,
        &[],
    );
    for o in &outs {
        assert_eq!(
            o.status.code(),
            Some(3),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
