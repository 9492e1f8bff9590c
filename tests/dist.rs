//! Distributed search (`puz::dist`, `--workers`/`--processes`): answers and analyses equal
//! the single-process ones, path for path, on every shipped puzzle's unit-cost levels and
//! on random levels, with 1, 2 and 4 workers in one process and with 1, 2 and 4 local
//! processes of 1 and 2 workers; a killed process ends the run with an error naming it;
//! a run resumed from its checkpoints gives the same answer; budgets and bad setups end
//! with their exit codes.

mod common;

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
        stream_bytes: None,
    }
}

/// The single-process breadth-first answer: actions and states, or `None`.
fn single(p: &Puzzle, level: Level) -> Option<(Vec<puz::engine::Action>, Vec<Vec<u32>>)> {
    let mut s = Solver::new(
        &p.model,
        EngineChoice::Interp,
        SearchChoice::Backend(Backend::Bfs),
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
    for (what, p, i) in shipped_levels() {
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
    let sokoban = load("sokoban.puz");
    let e = dist::run(
        Arc::new(sokoban.model.clone()),
        sokoban.inline_level(0).unwrap(),
        Job::Solve,
        opts(1),
    )
    .unwrap_err();
    assert!(matches!(e, dist::DistError::Unsupported(_)), "{e}");
}

/// `n` free loopback ports, as a hosts file.
fn hosts_file(dir: &std::path::Path, n: usize) -> String {
    let listeners: Vec<std::net::TcpListener> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    let text: String = listeners
        .iter()
        .map(|l| format!("{}\n", l.local_addr().unwrap()))
        .collect();
    let path = dir.join("hosts");
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().to_string()
}

/// Kills its processes however the test ends.
struct Procs(Vec<Child>);
impl Drop for Procs {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
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
    let cases: Vec<Vec<&str>> = vec![
        vec!["solve", &bloxorz],
        vec!["solve", &klotski, "--level", "two rows"],
        vec!["solve", &klotski, "--level", "stuck"],
        vec!["solve", &klotski, "--json"],
    ];
    for args in &cases {
        let mut one = args.clone();
        one.extend(["--engine", "interp", "--search", "bfs"]);
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
                // The engine's reason names the cluster; the rest is the same.
                Some(w) => {
                    let mut got: serde_json::Value =
                        serde_json::from_slice(&outs[0].stdout).unwrap();
                    for k in ["engine_reason", "stats"] {
                        got[k] = w[k].clone();
                    }
                    assert_eq!(&got, w, "{args:?} {processes}x{workers}");
                }
                None => assert_eq!(
                    String::from_utf8_lossy(&outs[0].stdout),
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
    let (last, fp, peers) = dist::checkpoint::last_complete(&ck).unwrap();
    assert!(last > 40, "layers checkpointed: {last}");
    std::fs::write(ck.join("complete"), format!("40 {fp:016x} {peers}\n")).unwrap();
    let outs = cluster(&args, 2, 2, &["--resume", &ckarg]);
    for o in &outs {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stderr).contains("resumed after layer 40"));
    }
    assert_eq!(
        String::from_utf8_lossy(&outs[0].stdout),
        String::from_utf8_lossy(&want.stdout)
    );
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
    // Rules with cost vectors are refused.
    let out = Command::new(PUZ)
        .args(["solve", &format!("{PUZZLES}/sokoban.puz"), "--workers", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(5));
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
