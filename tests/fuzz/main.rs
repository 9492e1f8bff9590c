//! The fuzzing harness (`tests/common/fuzz.rs`): a fixed slice of seeds that runs with
//! `cargo test`, and an ignored long run that `scripts/fuzz` starts in release mode.
//!
//! Each seed makes one input (a rule file, maybe a level file and a judge input) that goes
//! through the library and the `puz` binary under a small budget (20,000 states, 0.2 s).
//! A seed fails when anything panics, crashes, runs far past its budget, or reports a rule
//! or level error without a diagnostic code. Failing inputs are saved, with their seed and
//! the command that failed, under `target/fuzz/failures/`.

#[path = "../common/fuzz.rs"]
mod fuzz;
mod fuzz_regressions;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fuzz::{case, run_case, save, Case, Corpus, Failure, Limits, Stats};

/// The seeds of the fixed slice.
const SLICE: std::ops::Range<u64> = 0..300;

/// Seeds of the slice that hit bugs still open on main; they are left out of the slice
/// until the bug is fixed (then delete them here). Each class has a reproducer in
/// `tests/data/fuzz/` or `tests/data/robustness/` (see `tests/data/fuzz/README.md`).
/// Empty: every class found so far is fixed.
const KNOWN: &[u64] = &[];

fn target(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/fuzz")
        .join(sub)
}

fn env_num(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

/// Wall time one step may take: generous, since the machine may be shared and debug
/// builds are slow; `PUZ_FUZZ_WALL` (seconds) overrides it.
fn wall() -> Duration {
    let default = if cfg!(debug_assertions) { 20 } else { 5 };
    Duration::from_secs(env_num("PUZ_FUZZ_WALL").unwrap_or(default))
}

/// What a run found: stats, and the failing cases with their failures.
struct Found {
    stats: Stats,
    failing: Vec<(Case, Vec<Failure>)>,
}

/// Runs `seeds` on `threads` threads until they are used up or `deadline` passes.
fn run_seeds(seeds: &[u64], deadline: Option<Instant>, threads: usize) -> Found {
    let corpus = Corpus::load();
    let lim = Limits::new(wall());
    let next = AtomicU64::new(0);
    let verbose = std::env::var("PUZ_FUZZ_VERBOSE").is_ok_and(|v| v == "1");
    let found = Mutex::new(Found {
        stats: Stats::default(),
        failing: vec![],
    });
    std::thread::scope(|scope| {
        for t in 0..threads {
            let (corpus, lim, next, found) = (&corpus, &lim, &next, &found);
            scope.spawn(move || {
                let dir = target(&format!("work/{}-{t}", std::process::id()));
                let mut stats = Stats::default();
                let mut failing = vec![];
                loop {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        break;
                    }
                    let k = next.fetch_add(1, Ordering::Relaxed) as usize;
                    let Some(&seed) = seeds.get(k) else { break };
                    let c = case(corpus, seed);
                    let t = Instant::now();
                    let fails = run_case(&c, &dir, lim, &mut stats);
                    if verbose {
                        eprintln!(
                            "seed {seed:#x} ({}): {:.2}s, {} failures",
                            c.origin,
                            t.elapsed().as_secs_f64(),
                            fails.len()
                        );
                    }
                    if !fails.is_empty() {
                        failing.push((c, fails));
                    }
                }
                let _ = std::fs::remove_dir_all(&dir);
                let mut f = found.lock().unwrap_or_else(|e| e.into_inner());
                f.stats.inputs += stats.inputs;
                f.stats.runs += stats.runs;
                f.stats.loaded += stats.loaded;
                f.stats.ok += stats.ok;
                for (k, v) in stats.uncoded {
                    *f.stats.uncoded.entry(k).or_default() += v;
                }
                f.failing.extend(failing);
            });
        }
    });
    let mut f = found.into_inner().unwrap_or_else(|e| e.into_inner());
    f.failing.sort_by_key(|(c, _)| c.seed);
    f
}

/// Saves every failing case and prints a summary by failure class.
fn report(f: &Found, elapsed: Duration) -> String {
    let root = target("failures");
    let mut classes: BTreeMap<&str, (usize, u64, PathBuf)> = BTreeMap::new();
    for (c, fails) in &f.failing {
        let dir = save(&root, c, fails);
        for x in fails {
            let e = classes
                .entry(x.class.as_str())
                .or_insert((0, c.seed, dir.clone()));
            e.0 += 1;
        }
    }
    let s = &f.stats;
    let mut out = format!(
        "fuzz: {} inputs, {} runs of the binary, {} rule files loaded, {} runs exited 0, in {:.0}s\n",
        s.inputs,
        s.runs,
        s.loaded,
        s.ok,
        elapsed.as_secs_f64()
    );
    if !s.uncoded.is_empty() {
        out.push_str(&format!(
            "errors reported without a diagnostic code (`error: ...`), by command: {:?}\n",
            s.uncoded
        ));
    }
    out.push_str(&format!(
        "{} failing inputs, {} classes\n",
        f.failing.len(),
        classes.len()
    ));
    for (class, (n, seed, dir)) in &classes {
        out.push_str(&format!(
            "  {n:>4} x {class}\n       first: seed {seed:#x}, saved in {}\n",
            dir.display()
        ));
    }
    out
}

#[test]
fn fixed_slice_never_misbehaves() {
    let seeds: Vec<u64> = SLICE.filter(|s| !KNOWN.contains(s)).collect();
    let t = Instant::now();
    let threads = env_num("PUZ_FUZZ_THREADS").unwrap_or(2) as usize;
    let f = run_seeds(&seeds, None, threads);
    let summary = report(&f, t.elapsed());
    eprintln!("{summary}");
    assert_eq!(f.stats.inputs, seeds.len());
    assert!(f.stats.loaded >= seeds.len() / 5, "too few inputs load");
    assert!(f.failing.is_empty(), "{summary}");
}

/// The same generator for as long as asked: `PUZ_FUZZ_SECONDS` (default 60), from
/// `PUZ_FUZZ_SEED` (default: from the clock) on, at most `PUZ_FUZZ_COUNT` inputs.
/// `scripts/fuzz` runs it in release mode.
#[test]
#[ignore]
fn fuzz_for_a_while() {
    let secs = env_num("PUZ_FUZZ_SECONDS").unwrap_or(60);
    let start = env_num("PUZ_FUZZ_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
            & 0xffff_ffff_ffff
    });
    let count = env_num("PUZ_FUZZ_COUNT").unwrap_or(u64::MAX / 2);
    let threads = env_num("PUZ_FUZZ_THREADS").unwrap_or(2) as usize;
    let t = Instant::now();
    let deadline = t + Duration::from_secs(secs);
    // Seeds in chunks, so the run ends at the deadline however fast inputs go.
    let mut all = Found {
        stats: Stats::default(),
        failing: vec![],
    };
    let mut from = start;
    let end = start.saturating_add(count);
    while from < end && Instant::now() < deadline {
        let to = end.min(from + 256);
        let seeds: Vec<u64> = (from..to).collect();
        let f = run_seeds(&seeds, Some(deadline), threads);
        all.stats.inputs += f.stats.inputs;
        all.stats.runs += f.stats.runs;
        all.stats.loaded += f.stats.loaded;
        all.stats.ok += f.stats.ok;
        for (k, v) in f.stats.uncoded {
            *all.stats.uncoded.entry(k).or_default() += v;
        }
        all.failing.extend(f.failing);
        from = to;
    }
    println!("seeds {start:#x} onwards");
    let summary = report(&all, t.elapsed());
    println!("{summary}");
    assert!(all.failing.is_empty(), "failures found (see above)");
}

/// The constructs of the issue 9 language, as the generator writes them, with what each
/// is: every one must appear in the rule files of the fixed slice.
const ISSUE9: &[(&str, &str)] = &[
    ("counter k", "a counter"),
    (" start ", "a counter's start value"),
    (" anonymous max ", "room for copies"),
    ("(cell c)", "a per-cell move"),
    ("(d in ", "a move over listed directions"),
    (" 2d", "a repeated step"),
    (" -d", "a reversed step"),
    ("remove ", "remove"),
    ("create p", "create"),
    ("change ", "change"),
    ("toggle ", "toggle"),
    (" everywhere", "everywhere"),
    (" on m", "on a mark"),
    (" += ", "a counter increment"),
    (" -= ", "a counter decrement"),
    ("if ", "if"),
    ("} else ", "else"),
    ("for x", "for"),
    ("shift each ", "shift each"),
    ("slide each ", "slide each"),
    (" as a", "an alias"),
    ("count(", "count"),
    ("not ", "not"),
    (" or ", "or"),
    (" and ", "and"),
    ("\"\"\" goal \"\"\"", "a goal picture"),
    ("expect none", "expect none"),
    ("expect 1", "expect a cost"),
];

/// The generator writes every construct of the issue 9 language in the fixed slice, and
/// enough of its files are valid to reach the search (checked with the library alone).
#[test]
fn generator_covers_the_issue_9_language() {
    let corpus = Corpus::load();
    let files: Vec<String> = SLICE
        .map(|seed| case(&corpus, seed))
        .filter(|c| c.origin == "generated (issue 9)")
        .map(|c| String::from_utf8_lossy(&c.rules).into_owned())
        .collect();
    assert!(files.len() >= 40, "{} issue 9 files", files.len());
    let missing: Vec<&str> = ISSUE9
        .iter()
        .filter(|(text, _)| !files.iter().any(|f| f.contains(text)))
        .map(|(_, what)| *what)
        .collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
    let legend_pose = |f: &String| {
        f.lines()
            .any(|l| l.trim_start().starts_with('\'') && l.contains(".q"))
    };
    assert!(
        files.iter().any(legend_pose),
        "never generated: a legend symbol that chooses a pose"
    );
    let loaded = files
        .iter()
        .filter(|f| puz::Puzzle::load("f.puz", f.to_string()).is_ok())
        .count();
    assert!(
        loaded * 3 >= files.len(),
        "only {loaded} of {} issue 9 files load",
        files.len()
    );
    // Every case is a pure function of its seed.
    for seed in [0, 2, 7, 11] {
        let (a, b) = (case(&corpus, seed), case(&corpus, seed));
        assert_eq!((a.rules, a.level, a.flags), (b.rules, b.level, b.flags));
    }
}

/// Writes the inputs of seeds `PUZ_FUZZ_SEED` onwards (`PUZ_FUZZ_COUNT` of them, default
/// one) under `target/fuzz/show/<seed>/` without running them, and prints the rule file
/// of the first (`scripts/fuzz --show SEED`).
#[test]
#[ignore]
fn show_case() {
    let seed = env_num("PUZ_FUZZ_SEED").expect("PUZ_FUZZ_SEED");
    let corpus = Corpus::load();
    for s in seed..seed.saturating_add(env_num("PUZ_FUZZ_COUNT").unwrap_or(1)) {
        let c = case(&corpus, s);
        let dir = save(&target("show"), &c, &[]);
        println!("seed {s:#x} ({}), saved in {}", c.origin, dir.display());
        if s == seed {
            println!("{}", String::from_utf8_lossy(&c.rules));
        }
    }
}

/// The reproducers of what the fuzzer found (`tests/data/fuzz/README.md`), each run the
/// way the fuzzer runs its inputs.
#[test]
fn reproducers_behave() {
    let lim = Limits::new(wall());
    let cases: &[(&str, &[&str])] = &[
        (
            "syntax error at a non-ASCII blank",
            &["check", "tests/data/fuzz/syntax_error_at_unicode_space.puz"],
        ),
        (
            "3,000 unknown symbols in a level file",
            &[
                "solve",
                "puzzles/huarong.puz",
                "tests/data/fuzz/level_3000_unknown_symbols.txt",
                "--timeout",
                "0.2",
            ],
        ),
        (
            "an inline level row of 5,000 unknown symbols",
            &[
                "check",
                "tests/data/fuzz/inline_level_5000_unknown_symbols.puz",
            ],
        ),
        (
            "3,000 legend entries naming unknown tiles",
            &["check", "tests/data/fuzz/legend_3000_unknown_tiles.puz"],
        ),
        (
            "a Bloxorz level file with a column of 80,000 block markers",
            &[
                "solve",
                "puzzles/bloxorz.puz",
                "tests/data/fuzz/level_80000_marker_column.txt",
                "--timeout",
                "0.2",
            ],
        ),
        (
            "a direction of i64::MIN",
            &["check", "tests/data/fuzz/direction_i64_min.puz"],
        ),
    ];
    let mut all = vec![];
    for (what, args) in cases {
        for f in fuzz::check_command(what, args, &lim) {
            all.push(format!("{what}: [{}] {}", f.class, f.detail));
        }
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
}

/// A one-piece walker: `S` walks to `T`.
const WALKER: &str = r#"puzzle "walker"
tiles { floor wall }
outside wall
marks { target }
piece man
legend { '.' floor '#' wall 'S' floor + man 'T' floor + target }
dirs { n (-1, 0) s (1, 0) w (0, -1) e (0, 1) }
move walk(d) { shift man d }
forbid man on wall
goal man on target
"#;

/// Hostile inputs the generator is unlikely to make, each with its right answer: an exit
/// code and a diagnostic code or answer text, within the wall time and with no panic.
#[test]
fn hostile_inputs_get_the_right_answer() {
    let dir = target("hostile");
    std::fs::create_dir_all(&dir).expect("hostile dir");
    let put = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).expect("write");
        p.to_string_lossy().into_owned()
    };
    let walker_with = |extra: &str| format!("{WALKER}{extra}");
    let sokoban =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/sokoban.puz"))
            .expect("sokoban.puz");
    let tall: String = std::iter::once("S\n".to_string())
        .chain(std::iter::repeat_n(".\n".to_string(), 100_000))
        .chain(std::iter::once("T\n".to_string()))
        .collect();
    let plus = |what: &str| {
        WALKER.replace(
            "legend { '.' floor",
            &format!("legend {{ '.' floor{}", format!(" + {what}").repeat(20_000)),
        )
    };
    let cases: Vec<(&str, Vec<String>, i32, &str)> = vec![
        (
            "limit i64::MAX",
            vec![
                "check".into(),
                put("limit_max.puz", &walker_with("limit 9223372036854775807\n")),
            ],
            1,
            "puz::syntax::integer_range",
        ),
        (
            "limit past i64",
            vec![
                "check".into(),
                put(
                    "limit_big.puz",
                    &walker_with("limit 99999999999999999999999\n"),
                ),
            ],
            1,
            "puz::syntax::integer_range",
        ),
        (
            "limit 0",
            vec![
                "check".into(),
                put("limit_0.puz", &walker_with("limit 0\n")),
            ],
            1,
            "puz::check::bad_limit",
        ),
        (
            "a direction of i64::MAX",
            vec![
                "check".into(),
                put(
                    "dir_max.puz",
                    &WALKER.replace("(-1, 0)", "(9223372036854775807, 0)"),
                ),
            ],
            1,
            "puz::syntax::integer_range",
        ),
        (
            "a direction of i64::MIN",
            vec![
                "check".into(),
                put(
                    "dir_min.puz",
                    &WALKER.replace("(-1, 0)", "(-9223372036854775808, 0)"),
                ),
            ],
            1,
            "puz::syntax::integer_range",
        ),
        (
            "zero direction vectors",
            vec![
                "check".into(),
                put(
                    "dir_zero.puz",
                    &WALKER
                        .replace("(-1, 0)", "(0, 0)")
                        .replace("(1, 0)", "(0, 0)"),
                ),
            ],
            1,
            "puz::check::zero_direction",
        ),
        (
            "five cost components",
            vec![
                "check".into(),
                put("cost5.puz", &walker_with("cost a, b, c, d, e\n")),
            ],
            1,
            "puz::check::",
        ),
        (
            "a 1x1 level without a target",
            vec![
                "solve".into(),
                put("one.puz", WALKER),
                put("one.txt", "S\n"),
            ],
            0,
            "no solution",
        ),
        (
            "an empty inline level",
            vec![
                "check".into(),
                put(
                    "empty_level.puz",
                    &walker_with("level \"e\" \"\"\"\n  \"\"\"\n"),
                ),
            ],
            1,
            "puz::level::empty",
        ),
        (
            "a level file of blanks",
            vec![
                "solve".into(),
                put("blank.puz", WALKER),
                put("blank.txt", "   \n \t \n"),
            ],
            2,
            "puz::input::empty",
        ),
        (
            "100,002 rows of one column",
            vec![
                "solve".into(),
                put("tall.puz", WALKER),
                put("tall.txt", &tall),
            ],
            0,
            "cost: 100001 moves",
        ),
        (
            "--steps on 100,002 rows: boards quadratic in the level",
            vec![
                "solve".into(),
                put("tall.puz", WALKER),
                put("tall.txt", &tall),
                "--steps".into(),
            ],
            6,
            "puz::output::steps_too_large",
        ),
        (
            "a .puz of comments only",
            vec!["check".into(), put("comments.puz", "// nothing\n// here\n")],
            1,
            "puz::check::missing_section",
        ),
        (
            "an empty .puz",
            vec!["check".into(), put("empty.puz", "")],
            2,
            "puz::input::empty",
        ),
        (
            "20,000 `+ floor` in a legend entry",
            vec!["check".into(), put("plus_floor.puz", &plus("floor"))],
            1,
            "puz::check::",
        ),
        (
            "20,000 `+ man` in a legend entry",
            vec!["check".into(), put("plus_man.puz", &plus("man"))],
            1,
            "puz::check::repeated_placement",
        ),
        (
            "CRLF line endings in rules and judge input",
            vec![
                "judge".into(),
                put("crlf.puz", &sokoban.replace('\n', "\r\n")),
                put("crlf.in", "1 7\r\nSB....T\r\n0 0\r\n"),
            ],
            0,
            "EEEEE",
        ),
        (
            "tabs for every blank",
            vec![
                "judge".into(),
                put("tabs.puz", &sokoban.replace(' ', "\t")),
                put("tabs.in", "1\t7\nSB....T\n0\t0\n"),
            ],
            0,
            "EEEEE",
        ),
        (
            "judge input `0 0` first",
            vec![
                "judge".into(),
                "puzzles/sokoban.puz".into(),
                put("zero.in", "0 0\n"),
            ],
            0,
            "",
        ),
        (
            "judge input cut mid-board",
            vec![
                "judge".into(),
                "puzzles/sokoban.puz".into(),
                put("cut_board.in", "3 3\nS.B\n.."),
            ],
            2,
            "puz::input::",
        ),
        (
            "judge input cut mid-query",
            vec![
                "judge".into(),
                "puzzles/huarong.puz".into(),
                put(
                    "cut_query.in",
                    "3 3 2\n1 1 1\n0 1 1\n1 1 0\n1 2 2 1 3 3\n1 2 2\n",
                ),
            ],
            2,
            "puz::input::expected_number",
        ),
        (
            "judge board of i64::MAX columns",
            vec![
                "judge".into(),
                "puzzles/sokoban.puz".into(),
                put("huge.in", "9223372036854775807 9223372036854775807\n"),
            ],
            2,
            "puz::input::",
        ),
    ];
    let lim = Limits::new(wall());
    let mut all = vec![];
    for (what, args, code, want) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        for f in fuzz::check_answer(what, &args, &lim, *code, want) {
            all.push(format!("{what}: [{}] {}", f.class, f.detail));
        }
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
}
