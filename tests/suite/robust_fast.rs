//! The fast paths give the interpreter's answers and hold every budget.
//!
//! - Differential: on a few hundred fixed-seed random small levels per shipped puzzle
//!   (Bloxorz, Sokoban, Huarong, Curling), `--engine auto` (the fast path) and
//!   `--engine interp` return the same outcome, the same cost and the same path under the
//!   README's tie rule. Each engine is one [`Solver`] built once and reused for every
//!   level, so whatever a fast path keeps between levels (buffers, per-board tables) is
//!   exercised across boards too.
//! - Budgets, through the binary: `--max-states`, `--max-memory` and `--timeout` stop every
//!   fast path with exit code 3 and a message naming the real limit.
//! - The robustness reproducer `huarong_auto_not_tie_rule.lvl`: both engines print the
//!   same path.
//!
//! The level generators are small and local to this file (independent of the crate).

use std::process::Command;

use puz::engine::Action;
use puz::search::{Budget, Outcome};
use puz::solver::{EngineChoice, SearchChoice, Solver};
use puz::Puzzle;

fn root() -> &'static str {
    env!("CARGO_MANIFEST_DIR")
}

fn shipped(name: &str) -> Puzzle {
    let path = format!("{}/puzzles/{name}", root());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Puzzle::load(name, text).unwrap_or_else(|d| panic!("{name} does not load: {d:?}"))
}

// ---------------------------------------------------------------------------------------
// Level generators (shipped symbols)
// ---------------------------------------------------------------------------------------

/// Distinct random cells of a `rows x cols` board.
fn distinct(rng: &mut fastrand::Rng, rows: usize, cols: usize, k: usize) -> Vec<usize> {
    let mut cells: Vec<usize> = vec![];
    while cells.len() < k {
        let c = rng.usize(0..rows * cols);
        if !cells.contains(&c) {
            cells.push(c);
        }
    }
    cells
}

fn join(g: &[Vec<u8>], sep: &str) -> String {
    let mut s = String::new();
    for row in g {
        let cells: Vec<String> = row.iter().map(|&b| (b as char).to_string()).collect();
        s.push_str(&cells.join(sep));
        s.push('\n');
    }
    s
}

/// Bloxorz: `.` floor, `E` fragile, `#` void, one `O`, a standing `X` or two lying.
fn bloxorz_level(rng: &mut fastrand::Rng) -> String {
    let (rows, cols) = (rng.usize(2..=8), rng.usize(2..=8));
    let (wall, fragile) = (rng.u8(0..40), rng.u8(0..30));
    let mut g: Vec<Vec<u8>> = (0..rows)
        .map(|_| {
            (0..cols)
                .map(|_| match rng.u8(0..100) {
                    x if x < wall => b'#',
                    x if x < wall + fragile => b'E',
                    _ => b'.',
                })
                .collect()
        })
        .collect();
    let lying = rng.u8(0..3);
    loop {
        let (r, c) = (rng.usize(0..rows), rng.usize(0..cols));
        let other = match lying {
            1 if r + 1 < rows => Some((r + 1, c)),
            2 if c + 1 < cols => Some((r, c + 1)),
            1 | 2 => continue,
            _ => None,
        };
        g[r][c] = b'X';
        if let Some((r2, c2)) = other {
            g[r2][c2] = b'X';
        }
        break;
    }
    let free: Vec<(usize, usize)> = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .filter(|&(r, c)| g[r][c] != b'X')
        .collect();
    if free.is_empty() {
        return bloxorz_level(rng);
    }
    let (r, c) = free[rng.usize(0..free.len())];
    g[r][c] = b'O';
    join(&g, "")
}

/// A `rows` x `cols` grid of `off`, each cell `on` with probability `pct` percent.
fn scatter(
    rng: &mut fastrand::Rng,
    rows: usize,
    cols: usize,
    pct: u8,
    on: u8,
    off: u8,
) -> Vec<Vec<u8>> {
    (0..rows)
        .map(|_| {
            (0..cols)
                .map(|_| if rng.u8(0..100) < pct { on } else { off })
                .collect()
        })
        .collect()
}

/// Sokoban: `.` floor, `#` wall, one `S`, `B` and `T`.
fn sokoban_level(rng: &mut fastrand::Rng) -> String {
    let (rows, cols) = (rng.usize(1..=6), rng.usize(3..=6));
    let wall = rng.u8(0..35);
    let mut g = scatter(rng, rows, cols, wall, b'#', b'.');
    for (cell, sym) in distinct(rng, rows, cols, 3).into_iter().zip(*b"SBT") {
        g[cell / cols][cell % cols] = sym;
    }
    join(&g, "")
}

/// Huarong: `.` free, `#` fixed, one `E` (blank), `S` (token) and `T` (target).
fn huarong_level(rng: &mut fastrand::Rng) -> String {
    let (rows, cols) = (rng.usize(1..=5), rng.usize(3..=5));
    let wall = rng.u8(0..30);
    let mut g = scatter(rng, rows, cols, wall, b'#', b'.');
    for (cell, sym) in distinct(rng, rows, cols, 3).into_iter().zip(*b"EST") {
        g[cell / cols][cell % cols] = sym;
    }
    join(&g, "")
}

/// Curling: `0` ice, `1` block, one `2` (stone) and `3` (goal).
fn curling_level(rng: &mut fastrand::Rng) -> String {
    let (rows, cols) = (rng.usize(1..=7), rng.usize(2..=7));
    let density = rng.u8(5..60);
    let mut g = scatter(rng, rows, cols, density, b'1', b'0');
    for (cell, sym) in distinct(rng, rows, cols, 2).into_iter().zip(*b"23") {
        g[cell / cols][cell % cols] = sym;
    }
    join(&g, " ")
}

// ---------------------------------------------------------------------------------------
// Differential: auto (fast path) vs interpreter, full paths
// ---------------------------------------------------------------------------------------

/// An outcome in a form that compares exactly: the actions of a path, or none.
fn result(out: Outcome, what: &str) -> Option<Vec<Action>> {
    match out {
        Outcome::Solved(path) => Some(path.actions),
        Outcome::Unsolvable => None,
        other => panic!("{what}: unexpected outcome {other:?}"),
    }
}

/// Solves `count` random levels with one auto solver (which must pick `fast`) and one
/// interpreter solver; every path must be the same. Returns how many were solved.
fn differential(
    file: &str,
    fast: &str,
    seed: u64,
    count: usize,
    gen: fn(&mut fastrand::Rng) -> String,
) -> usize {
    let p = shipped(file);
    let mut auto = Solver::new(&p.model, EngineChoice::Auto, SearchChoice::Auto).unwrap();
    let mut interp = Solver::new(&p.model, EngineChoice::Interp, SearchChoice::Auto).unwrap();
    assert_eq!(auto.engine_name(), fast, "{file}: the fast path is chosen");
    assert_eq!(interp.engine_name(), "interpreter");
    let mut rng = fastrand::Rng::with_seed(seed);
    let (mut solved, mut tried) = (0, 0);
    while tried < count {
        let text = gen(&mut rng);
        // Starts the rules reject (e.g. a block standing on fragile floor) are skipped.
        let Ok(level) = p.level_from_file("random", text.clone()) else {
            continue;
        };
        tried += 1;
        let what = format!("{file} level {tried}:\n{text}");
        let budget = Budget::default();
        let a = auto.solve(level.clone(), &budget, true).unwrap();
        let i = interp.solve(level, &budget, true).unwrap();
        assert_eq!(a.engine, fast, "{what}");
        let (a, i) = (result(a.outcome, &what), result(i.outcome, &what));
        let letters = |r: &Option<Vec<Action>>| match r {
            Some(acts) => acts.iter().map(|&x| p.model.letter(x)).collect::<String>(),
            None => "no solution".to_string(),
        };
        assert_eq!(a, i, "{what}auto {} vs interp {}", letters(&a), letters(&i));
        solved += usize::from(a.is_some());
    }
    solved
}

/// Enough levels of each kind: some solved, some not.
fn check_mix(file: &str, solved: usize, count: usize) {
    eprintln!("{file}: {solved} of {count} solved, same paths on both engines");
    assert!(solved >= count / 10, "{file}: too few solvable levels");
    assert!(solved < count, "{file}: no unsolvable levels");
}

#[test]
fn bloxorz_auto_paths_equal_interpreter_paths() {
    let n = 300;
    check_mix(
        "bloxorz.puz",
        differential("bloxorz.puz", "bloxorz", 0xb10c, n, bloxorz_level),
        n,
    );
}

#[test]
fn sokoban_auto_paths_equal_interpreter_paths() {
    let n = 300;
    check_mix(
        "sokoban.puz",
        differential("sokoban.puz", "sokoban", 0x50c0, n, sokoban_level),
        n,
    );
}

#[test]
fn huarong_auto_paths_equal_interpreter_paths() {
    let n = 300;
    check_mix(
        "huarong.puz",
        differential("huarong.puz", "huarong", 0x4a7, n, huarong_level),
        n,
    );
}

#[test]
fn curling_auto_paths_equal_interpreter_paths() {
    let n = 300;
    check_mix(
        "curling.puz",
        differential("curling.puz", "curling", 0xc011, n, curling_level),
        n,
    );
}

// ---------------------------------------------------------------------------------------
// Through the binary
// ---------------------------------------------------------------------------------------

/// Runs `puz` from the crate root; (exit code, stdout, stderr).
fn puz(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_puz"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("puz runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn reproducer_huarong_auto_follows_the_tie_rule() {
    let lvl = "tests/data/robustness/huarong_auto_not_tie_rule.lvl";
    let (ca, auto, ea) = puz(&["solve", "puzzles/huarong.puz", lvl, "-v"]);
    let (ci, interp, _) = puz(&["solve", "puzzles/huarong.puz", lvl, "--engine", "interp"]);
    assert_eq!((ca, ci), (0, 0), "{ea}");
    assert!(ea.contains("engine huarong"), "the fast path ran: {ea}");
    assert!(auto.contains("moves (11): "), "{auto}");
    assert_eq!(auto, interp);
}

/// The shipped level each fast path solves in the budget tests.
const LEVELS: [(&str, &str, &str); 4] = [
    ("bloxorz", "puzzles/bloxorz.puz", "sample"),
    ("sokoban", "puzzles/sokoban.puz", "sample 3"),
    ("huarong", "puzzles/huarong.puz", "open 3x3"),
    ("curling", "puzzles/curling.puz", "figure 1"),
];

#[test]
fn state_limit_message_names_the_limit() {
    let (code, _, err) = puz(&[
        "solve",
        "puzzles/huarong.puz",
        "--level",
        "open 3x3",
        "--max-states",
        "1",
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("the state limit of 1 state was reached"),
        "{err}"
    );
    for (name, file, level) in LEVELS {
        let (code, _, err) = puz(&[
            "solve",
            file,
            "--level",
            level,
            "--engine",
            "fast",
            "--max-states",
            "2",
        ]);
        assert_eq!(code, 3, "{name}: {err}");
        assert!(
            err.contains("the state limit of 2 states was reached"),
            "{name}: {err}"
        );
    }
}

#[test]
fn memory_limit_holds_in_every_fast_path() {
    for (name, file, level) in LEVELS {
        let (code, _, err) = puz(&[
            "solve",
            file,
            "--level",
            level,
            "--engine",
            "fast",
            "--max-memory",
            "1",
        ]);
        assert_eq!(code, 3, "{name}: {err}");
        assert!(
            err.contains("the memory limit of 1 MiB was reached"),
            "{name}: {err}"
        );
    }
}

/// A level file with a `rows x cols` board: `fill` everywhere, `marks` at the given cells.
fn big_level(rows: usize, cols: usize, fill: &str, sep: &str, marks: &[(usize, &str)]) -> String {
    let mut cells = vec![fill; rows * cols];
    for &(at, sym) in marks {
        cells[at] = sym;
    }
    let mut s = String::new();
    for r in 0..rows {
        s.push_str(&cells[r * cols..(r + 1) * cols].join(sep));
        s.push('\n');
    }
    s
}

/// A timeout far shorter than the search: every fast path stops with exit code 3 and says
/// so, instead of finishing (setup included: Curling's open board once took time
/// quadratic in its side before any check).
#[test]
fn timeout_holds_in_every_fast_path() {
    let dir = std::env::temp_dir().join(format!("puz_robust_fast_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let n = 400;
    let last = n * n - 1;
    let cases = [
        (
            "bloxorz",
            big_level(n, n, ".", "", &[(0, "X"), (last, "E"), (last - 1, "O")]),
        ),
        (
            "sokoban",
            big_level(n, n, ".", "", &[(0, "S"), (n + 1, "B"), (last, "T")]),
        ),
        (
            "huarong",
            big_level(n, n, ".", "", &[(0, "E"), (1, "S"), (last, "T")]),
        ),
        (
            "curling",
            big_level(n, n, "0", " ", &[(0, "2"), (n + 1, "3")]),
        ),
    ];
    for (name, text) in cases {
        let path = dir.join(format!("{name}.lvl"));
        std::fs::write(&path, text).unwrap();
        let t0 = std::time::Instant::now();
        let (code, _, err) = puz(&[
            "solve",
            &format!("puzzles/{name}.puz"),
            path.to_str().unwrap(),
            "--engine",
            "fast",
            "--timeout",
            "0.000001",
        ]);
        assert_eq!(code, 3, "{name}: {err}");
        assert!(err.contains("the time limit was reached"), "{name}: {err}");
        eprintln!("{name}: stopped after {:?}", t0.elapsed());
    }
    std::fs::remove_dir_all(&dir).ok();
}
