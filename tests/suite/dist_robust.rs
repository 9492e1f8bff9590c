//! A distributed run refuses what it cannot run right, on every process, with a coded
//! error and exit code, never a panic, a hang or a wrong answer: processes started with
//! other rules, levels, commands or options (`puz::dist::mismatch`, exit 10); a peer's
//! port held by a program that accepts and never speaks (exit 10 at --connect-timeout);
//! port 0 in a hosts file (`puz::dist::hosts`, exit 2); checkpoints and snapshots
//! damaged anywhere (`puz::dist::checkpoint`, exit 10), or rewritten with a valid
//! checksum but content that does not hold together. The reproducers of
//! fuzz round 3 (dist_*), each turned into a test that fails against the old code.

use crate::common::cluster;
use crate::common::rules;

use cluster::{hosts_file, Procs};

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use puz::dist::{self, Cluster, DistError, DistOptions, Job};
use puz::search::Outcome;

const PUZ: &str = env!("CARGO_BIN_EXE_puz");
const PUZZLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles");

fn shipped(name: &str) -> String {
    format!("{PUZZLES}/{name}")
}

/// Waits for `c` at most `limit`; `None` (and the process killed) if it runs longer.
fn wait_bounded(mut c: Child, limit: Duration) -> Option<Output> {
    let t0 = Instant::now();
    loop {
        if c.try_wait().unwrap().is_some() {
            return Some(c.wait_with_output().unwrap());
        }
        if t0.elapsed() > limit {
            let _ = c.kill();
            let _ = c.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs a local cluster, process `i` with `args[i]` (its own rules and options), each
/// bounded in time; every process's output.
fn cluster_of(args: &[Vec<String>], connect_timeout: u64) -> Vec<Output> {
    let dir = tempfile::tempdir().unwrap();
    let n = args.len();
    let hosts = hosts_file(dir.path(), n);
    let procs: Vec<Child> = args
        .iter()
        .enumerate()
        .map(|(i, a)| {
            Command::new(PUZ)
                .args(a)
                .args(["--processes", &n.to_string(), "--process", &i.to_string()])
                .args(["--hosts", &hosts])
                .args(["--connect-timeout", &connect_timeout.to_string()])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut procs = Procs(procs);
    let limit = Duration::from_secs(connect_timeout + 60);
    let outs: Vec<Option<Output>> = std::mem::take(&mut procs.0)
        .into_iter()
        .map(|c| wait_bounded(c, limit))
        .collect();
    outs.into_iter()
        .enumerate()
        .map(|(i, o)| o.unwrap_or_else(|| panic!("process {i} of {args:?} did not end")))
        .collect()
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// Every process ends with exit 10 and `puz::dist::mismatch`, saying `what`, with no
/// panic and no answer.
fn all_mismatch(outs: &[Output], what: &str, case: &str) {
    for (i, o) in outs.iter().enumerate() {
        let err = stderr(o);
        assert_eq!(o.status.code(), Some(10), "{case}: process {i}: {err}");
        assert!(
            err.contains("puz::dist::mismatch"),
            "{case}: process {i}: {err}"
        );
        // The message is wrapped to the terminal's width: compare words.
        let flat = err.split_whitespace().collect::<Vec<_>>().join(" ");
        let flat = flat.replace(" │ ", " ");
        assert!(
            flat.contains(what),
            "{case}: process {i} does not say {what:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{case}: process {i}: {err}");
        assert!(o.stdout.is_empty(), "{case}: process {i} printed an answer");
    }
}

#[test]
fn processes_on_other_rules_levels_commands_or_options_all_stop_with_the_difference() {
    let dir = tempfile::tempdir().unwrap();
    // dist_mixed_rules_wrong_answer: keys.puz and a copy with one line changed (no
    // door can open); the old code answered 46 steps, exit 0.
    let keys = shipped("keys.puz");
    let text = std::fs::read_to_string(&keys).unwrap();
    assert!(text.contains("require keys > 0"));
    let keys_c = dir.path().join("keysC.puz");
    std::fs::write(
        &keys_c,
        text.replace("require keys > 0", "require keys > 8"),
    )
    .unwrap();
    let keys_c = keys_c.to_string_lossy().to_string();
    let outs = cluster_of(&[strs(&["solve", &keys]), strs(&["solve", &keys_c])], 20);
    all_mismatch(
        &outs,
        "process 1 runs another rule file than process 0",
        "keys",
    );
    // dist_mixed_rules_panic: rules of another state layout (the old code panicked).
    let np = shipped("npuzzle.puz");
    let lo = shipped("lightsout.puz");
    let outs = cluster_of(&[strs(&["solve", &np]), strs(&["solve", &lo])], 20);
    all_mismatch(&outs, "runs another rule file", "npuzzle and lights out");
    // Another level, another command, other budgets and options.
    let outs = cluster_of(
        &[
            strs(&["solve", &np]),
            strs(&["solve", &np, "--level", "15-puzzle"]),
        ],
        20,
    );
    all_mismatch(
        &outs,
        "process 1 runs another level than process 0",
        "levels",
    );
    let outs = cluster_of(&[strs(&["solve", &np]), strs(&["analyze", &np])], 20);
    all_mismatch(
        &outs,
        "process 1 runs `puz analyze`, process 0 `puz solve`",
        "commands",
    );
    let soko = shipped("sokoban.puz");
    let outs = cluster_of(
        &[
            strs(&["solve", &soko]),
            strs(&["solve", &soko, "--max-states", "5"]),
        ],
        20,
    );
    all_mismatch(
        &outs,
        "process 1 has --max-states 5, process 0 none",
        "budgets",
    );
    let outs = cluster_of(
        &[
            strs(&["solve", &np, "--timeout", "100"]),
            strs(&["solve", &np, "--search", "bfs"]),
        ],
        20,
    );
    all_mismatch(
        &outs,
        "process 1 has --search bfs, process 0 auto",
        "search",
    );
    all_mismatch(
        &outs,
        "process 1 has --timeout none, process 0 100s",
        "timeout",
    );
    let ck = dir.path().join("ck").to_string_lossy().to_string();
    let outs = cluster_of(
        &[
            strs(&["solve", &np, "--checkpoint", &ck]),
            strs(&["solve", &np]),
        ],
        20,
    );
    all_mismatch(
        &outs,
        "process 1 runs without --checkpoint or --resume, process 0 with --checkpoint",
        "checkpoint",
    );
    // Three processes, only the last one differs: every one of them says so (each
    // finishes its handshakes before stopping).
    let outs = cluster_of(
        &[
            strs(&["solve", &keys]),
            strs(&["solve", &keys]),
            strs(&["solve", &keys_c]),
        ],
        20,
    );
    all_mismatch(&outs, "process 2 runs another rule file", "three processes");
    // The same settings still run (and give the one-process answer).
    let outs = cluster_of(&[strs(&["solve", &keys]), strs(&["solve", &keys])], 20);
    let one = Command::new(PUZ)
        .args(["solve", &keys, "--engine", "interp", "--search", "bfs"])
        .output()
        .unwrap();
    assert!(
        outs.iter().all(|o| o.status.success()),
        "{}",
        stderr(&outs[1])
    );
    assert_eq!(outs[0].stdout, one.stdout);
}

#[test]
fn a_peer_port_that_accepts_and_never_speaks_ends_at_the_connect_timeout() {
    // dist_port_held_hang: another program holds process 0's port, accepting
    // connections and never answering; the old code waited forever.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let held = std::thread::spawn(move || {
        let mut kept = vec![];
        listener.set_nonblocking(true).unwrap();
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_secs(40) {
            if let Ok((s, _)) = listener.accept() {
                kept.push(s);
            }
            std::thread::sleep(Duration::from_millis(10));
            if kept.len() > 4 {
                break;
            }
        }
        kept
    });
    let dir = tempfile::tempdir().unwrap();
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let hosts = dir.path().join("hosts");
    std::fs::write(&hosts, format!("{addr}\n{}\n", free.local_addr().unwrap())).unwrap();
    drop(free);
    let t0 = Instant::now();
    let child = Command::new(PUZ)
        .args(["solve", &shipped("npuzzle.puz")])
        .args(["--processes", "2", "--process", "1"])
        .args([
            "--hosts",
            &hosts.to_string_lossy(),
            "--connect-timeout",
            "2",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = wait_bounded(child, Duration::from_secs(30)).expect("process 1 waited forever");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(10), "{err}");
    let flat = err.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("process 0's address"), "{err}");
    assert!(flat.contains(&addr.to_string()), "{err}");
    assert!(err.contains("puz::dist::network"), "{err}");
    assert!(t0.elapsed() < Duration::from_secs(20), "{:?}", t0.elapsed());
    drop(held);
}

#[test]
fn port_zero_in_a_hosts_file_is_a_hosts_file_error() {
    let dir = tempfile::tempdir().unwrap();
    let hosts = dir.path().join("hosts");
    std::fs::write(&hosts, "# cluster\n127.0.0.1:0\n127.0.0.1:23702\n").unwrap();
    for i in ["0", "1"] {
        let out = Command::new(PUZ)
            .args(["solve", &shipped("npuzzle.puz")])
            .args(["--processes", "2", "--process", i])
            .args([
                "--hosts",
                &hosts.to_string_lossy(),
                "--connect-timeout",
                "2",
            ])
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("puz::dist::hosts"), "{err}");
        assert!(err.contains("hosts:2: port 0"), "{err}");
    }
}

#[test]
fn a_distributed_no_solution_line_names_the_distributed_search() {
    // dist_unclear_messages: the old line said "interpreter dijkstra searched 1 states".
    let out = Command::new(PUZ)
        .args(["solve", &shipped("sokoban.puz"), "--level", "blocked"])
        .args(["--workers", "2"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        text.contains(
            "no solution: no goal can be reached (interpreter distributed dijkstra searched"
        ),
        "{text}"
    );
    let out = Command::new(PUZ)
        .args(["solve", &shipped("klotski.puz"), "--level", "stuck"])
        .args(["--workers", "2"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("(interpreter distributed bfs searched"),
        "{text}"
    );
}

/// A walker in a room: few states, a few layers.
const ROOM: &str = r#"
puzzle "Room"
tiles { floor wall }
marks { goal }
piece man
legend {
  '#' wall
  '.' floor
  '@' floor + man
  'g' floor + goal
}
dirs { n (-1, 0)  s (1, 0)  w (0, -1)  e (0, 1) }
move walk(d) {
  letters "nswe"
  require floor at man + d
  shift man d
}
goal man on goal
"#;

const ROOM_LEVEL: &str = "@....\n.#.#.\n...#g\n";

/// Two cost components: tolls paid, then steps (buckets, not layers).
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
cost tolls, steps
move walk(d) {
  letters "nswe"
  adds steps
  require floor at man + d
  forbid toll at man + d
  shift man d
}
move pay(d) {
  letters "abcd"
  adds tolls, steps
  require toll at man + d
  shift man d
}
goal man on goal
"#;

const TOLLS_LEVEL: &str = "@.t..\n.#.#t\n..t.g\n";

fn options(workers: usize, dir: &Path, resume: bool) -> DistOptions {
    DistOptions {
        cluster: Cluster::local(workers),
        max_states: None,
        deadline: None,
        max_bytes: None,
        checkpoint: Some(dir.to_path_buf()),
        resume,
        checkpoint_every: Duration::ZERO,
        stream_bytes: None,
        settings: vec![],
    }
}

/// Every file of a directory tree, with its bytes.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = vec![];
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// Puts `dir` back as `saved` (a resumed run writes on).
fn restore(dir: &Path, saved: &[(PathBuf, Vec<u8>)]) {
    let _ = std::fs::remove_dir_all(dir);
    for (p, b) in saved {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, b).unwrap();
    }
}

/// What a resume from `dir` gives: the path (actions) or the error.
fn resume(
    p: &puz::Puzzle,
    text: &str,
    workers: usize,
    dir: &Path,
) -> Result<Option<Vec<puz::engine::Action>>, DistError> {
    let level = p.level_from_file("room", text.to_string()).unwrap();
    let model = Arc::new(p.model.clone());
    let r = dist::run(
        model.clone(),
        level.clone(),
        Job::Solve,
        options(workers, dir, true),
    )?;
    let ans = dist::to_answer(&model, level, &r, &Cluster::local(workers), Duration::ZERO)?;
    Ok(match ans.outcome {
        Outcome::Solved(path) => Some(path.actions),
        Outcome::Unsolvable => None,
        o => panic!("a resume gave {o:?}"),
    })
}

/// Rewrites the checksum at the end of a checkpoint file after its content changed.
fn reseal(bytes: &mut [u8]) {
    let n = bytes.len() - 8;
    let sum = dist::digest::xxh64(&bytes[..n], 0);
    bytes[n..].copy_from_slice(&sum.to_le_bytes());
}

/// Writes a checkpoint of `rules` on `text` with `workers` (the resume reads every file
/// of it and goes on for a step to the goal), then flips bytes of the files
/// the resume reads, a dense seeded sample (about `per_kind` positions, every byte of
/// small files), and truncates each file at a sample of lengths: each resume is refused
/// with `puz::dist::checkpoint`, never a panic or another error. Then flips the sampled
/// bytes again and rewrites the checksum, so only the loader's own checks stand between
/// the content and the search: each resume ends with the checkpoint error or an answer,
/// never a panic, a bug's error or a hang. Returns the number of resumes tried.
fn every_byte(rules: &str, text: &str, workers: usize) -> usize {
    // PUZ_TEST_EVERY_BYTE=1: every byte of every file (a few minutes).
    let per_kind = if std::env::var_os("PUZ_TEST_EVERY_BYTE").is_some() {
        usize::MAX
    } else if cfg!(debug_assertions) {
        150
    } else {
        400
    };
    let p = rules::load(rules);
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck");
    let level = p.level_from_file("room", text.to_string()).unwrap();
    let r = dist::run(
        Arc::new(p.model.clone()),
        level,
        Job::Solve,
        options(workers, &ck, false),
    )
    .unwrap();
    assert!(
        matches!(r.outcome, dist::DistOutcome::Solved(_)),
        "{:?}",
        r.outcome
    );
    let (last, _, _) = dist::checkpoint::last_complete(&ck).unwrap();
    let saved = files(&ck);
    let want = resume(&p, text, workers, &ck).unwrap();
    assert!(want.is_some());
    restore(&ck, &saved);
    // The files a resume reads: `complete`, the layers up to the last complete one (all
    // of them kept), or the last snapshot.
    let read: Vec<usize> = (0..saved.len())
        .filter(|&k| is_read(saved[k].0.strip_prefix(&ck).unwrap(), last))
        .collect();
    assert!(read.len() > 2, "{read:?}");
    let total: usize = read.iter().map(|&k| saved[k].1.len()).sum();
    let mut rng = fastrand::Rng::with_seed(0xf11b);
    let mut tried = 0;
    for &k in &read {
        let (path, bytes) = &saved[k];
        for at in 0..bytes.len() {
            // Every byte of a small file (`complete`, headers), a sample of the rest.
            if bytes.len() > 80 && per_kind < total && rng.usize(..total) >= per_kind {
                continue;
            }
            for sealed in [false, true] {
                let is_complete = path.ends_with("complete");
                if sealed && (is_complete || at >= bytes.len() - 8) {
                    continue;
                }
                let mut b = bytes.clone();
                b[at] ^= if at % 3 == 0 { 0x01 } else { 0x5a };
                if sealed {
                    reseal(&mut b);
                }
                std::fs::write(path, &b).unwrap();
                let got = resume(&p, text, workers, &ck);
                tried += 1;
                match got {
                    Err(DistError::Checkpoint(_)) => {}
                    // Content rewritten with a valid checksum may hold states the loader
                    // cannot tell from right ones: any answer, but no panic, no bug.
                    Ok(_) if sealed => {}
                    other => panic!(
                        "byte {at} of {} flipped (checksum rewritten: {sealed}): {other:?}",
                        path.display()
                    ),
                }
                restore(&ck, &saved);
            }
        }
        // Truncations, at a sample of lengths.
        let step = (bytes.len() / 8).max(1);
        for len in (0..bytes.len()).step_by(step) {
            std::fs::write(path, &bytes[..len]).unwrap();
            let got = resume(&p, text, workers, &ck);
            tried += 1;
            assert!(
                matches!(got, Err(DistError::Checkpoint(_))),
                "{} cut to {len} bytes: {got:?}",
                path.display()
            );
            restore(&ck, &saved);
        }
    }
    tried
}

/// Whether a resume from step `last` reads the file `rel` of a checkpoint: `complete`,
/// the layers up to the last complete one (all are kept), or the last snapshot.
fn is_read(rel: &Path, last: u32) -> bool {
    let rel = rel.to_string_lossy();
    if rel == "complete" {
        return true;
    }
    let top = rel.split('/').next().unwrap();
    if let Some(d) = top
        .strip_prefix("layer-")
        .and_then(|d| d.parse::<u32>().ok())
    {
        return d <= last;
    }
    top.strip_prefix("bucket-")
        .and_then(|d| d.parse::<u32>().ok())
        == Some(last)
}

#[test]
fn every_damaged_byte_of_a_layer_checkpoint_is_refused() {
    // dist_corrupt_checkpoint_panic: one byte of a layer file made the old code panic
    // in the expander (exit 9). Two workers; the resume reads every layer.
    let tried = every_byte(ROOM, ROOM_LEVEL, 2);
    assert!(tried > 200, "{tried}");
}

#[test]
fn every_damaged_byte_of_a_bucket_snapshot_is_refused() {
    // dist_corrupt_snapshot_panic: inverted bytes of a snapshot made the old code
    // panic in StateStore::insert (exit 9).
    let tried = every_byte(TOLLS, TOLLS_LEVEL, 2);
    assert!(tried > 200, "{tried}");
}

#[test]
fn damaged_checkpoints_end_every_process_with_exit_10() {
    // The command line, over a seeded sample of flipped bytes of a real puzzle's
    // checkpoint (npuzzle, one worker, as in the reproducer, on its 2x3 level): exit 10
    // with puz::dist::checkpoint (or the right answer, never here); never 9 or 101.
    let dir = tempfile::tempdir().unwrap();
    let np = shipped("npuzzle.puz");
    let run = |extra: &[&str]| {
        let c = Command::new(PUZ)
            .args(["solve", &np, "--level", "2x3"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        wait_bounded(c, Duration::from_secs(60)).expect("a resume ran for a minute")
    };
    let ck = dir.path().join("ck");
    let ckarg = ck.to_string_lossy().to_string();
    let first = run(&["--workers", "1", "--checkpoint", &ckarg]);
    assert!(first.status.success(), "{}", stderr(&first));
    let saved = files(&ck);
    assert!(saved.len() > 10, "{} files", saved.len());
    let mut rng = fastrand::Rng::with_seed(0xc4ec);
    let mut refused = 0;
    for _ in 0..40 {
        let (path, bytes) = &saved[rng.usize(..saved.len())];
        let mut b = bytes.clone();
        for _ in 0..rng.usize(1..=8) {
            let at = rng.usize(..b.len());
            b[at] ^= rng.u8(1..);
        }
        std::fs::write(path, &b).unwrap();
        let out = run(&["--workers", "1", "--resume", &ckarg]);
        match out.status.code() {
            Some(10) => {
                assert!(
                    stderr(&out).contains("puz::dist::checkpoint"),
                    "{}",
                    stderr(&out)
                );
                refused += 1;
            }
            Some(0) => assert_eq!(out.stdout, first.stdout),
            c => panic!("{} damaged: exit {c:?}: {}", path.display(), stderr(&out)),
        }
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
        restore(&ck, &saved);
    }
    assert!(refused > 30, "{refused}");
    // Across two processes, both stop.
    let ck = dir.path().join("ck2");
    let ckarg = ck.to_string_lossy().to_string();
    let first = run(&["--workers", "2", "--checkpoint", &ckarg]);
    assert!(first.status.success(), "{}", stderr(&first));
    let hosts = hosts_file(dir.path(), 2);
    let part = ck.join("layer-5").join("worker-1.bin");
    let mut b = std::fs::read(&part).unwrap();
    let mid = b.len() / 2;
    b[mid] ^= 0xff;
    std::fs::write(&part, &b).unwrap();
    let procs: Vec<Child> = (0..2)
        .map(|i| {
            Command::new(PUZ)
                .args(["solve", &np, "--level", "2x3", "--workers", "1"])
                .args(["--processes", "2", "--process", &i.to_string()])
                .args([
                    "--hosts",
                    &hosts,
                    "--connect-timeout",
                    "20",
                    "--resume",
                    &ckarg,
                ])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in procs {
        let out = wait_bounded(c, Duration::from_secs(60)).expect("a process waited forever");
        assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("puz::dist::checkpoint"),
            "{}",
            stderr(&out)
        );
    }
}
