//! Search under a move limit (`limit N`) for every backend and every cost shape, checked
//! against a brute force written here from the language's description (nothing shared
//! with the crate), plus the robustness reproducers of the search, `analyze` and `graph`
//! commands run through the binary.
//!
//! The brute force enumerates every move sequence of at most `limit` moves on tiny random
//! levels, keeps those that end in a goal, and takes the least by the README's rule:
//! lexicographic cost vector first, then the projection of the first component (the
//! subsequence of moves adding to it, compared by action number), then the second's, and
//! so on. Every backend of the registry (`puz::search::BACKENDS`) runs, and auto: those
//! that follow the tie rule (its `tie_rule`) must return a path with exactly that key,
//! the others (bidirectional BFS) an optimal cost; a backend that cannot run on the rules
//! (by its `needs`) must refuse with its documented error.

use std::process::Command;
use std::time::{Duration, Instant};

use puz::search::{Backend, Needs, Outcome};
use puz::solver::{solve_opts, EngineChoice, SearchChoice, SolveError, SolveOptions};
use puz::Puzzle;

// ---------------------------------------------------------------------------------------
// Rules and cost shapes
// ---------------------------------------------------------------------------------------

/// Which puzzle the rules describe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    /// A man who walks one cell or jumps two (over anything); goal: man on a target.
    Jumper,
    /// A man who walks one cell and nothing else (every move invertible).
    Walker,
    /// A man and a box, walk and push; goal: box on a target.
    Pusher,
}

/// One cost declaration: its components and, per component, whether the first move
/// (walk) and the second (jump or push) add to it. No components: `cost` is absent and a
/// solution costs its number of moves.
struct Shape {
    family: Family,
    components: &'static [(&'static str, bool, bool)],
}

impl Shape {
    /// Every move costs one unit of a single component: BFS, IDDFS and A* apply.
    fn unit(&self) -> bool {
        match self.components {
            [] => true,
            [(_, a, b)] => *a && (*b || self.family == Family::Walker),
            _ => false,
        }
    }

    /// Moves the compiler can prove invertible: only the walker's single shift.
    fn invertible(&self) -> bool {
        self.family == Family::Walker && self.unit()
    }

    /// The cost vector adds of move `m` (0: walk, 1: jump or push), one per component
    /// (moves count as the only component when no cost is declared).
    fn adds(&self, m: usize) -> Vec<bool> {
        if self.components.is_empty() {
            return vec![true];
        }
        self.components
            .iter()
            .map(|&(_, a, b)| if m == 0 { a } else { b })
            .collect()
    }

    fn rules(&self, limit: u32, level: &str) -> String {
        let adds = |m: usize| -> String {
            let names: Vec<&str> = self
                .components
                .iter()
                .filter(|&&(_, a, b)| if m == 0 { a } else { b })
                .map(|&(n, _, _)| n)
                .collect();
            if names.is_empty() {
                String::new()
            } else {
                format!("adds {}", names.join(", "))
            }
        };
        let cost = if self.components.is_empty() {
            String::new()
        } else {
            let names: Vec<&str> = self.components.iter().map(|&(n, _, _)| n).collect();
            format!("cost {}", names.join(", "))
        };
        let (pieces, legend_box, second, goal) = match self.family {
            Family::Jumper => (
                "piece man",
                "",
                format!(
                    "move jump(d) {{ letters \"NSWE\" {} shift man d shift man d }}",
                    adds(1)
                ),
                "goal man on target",
            ),
            Family::Walker => ("piece man", "", String::new(), "goal man on target"),
            Family::Pusher => (
                "piece man\npiece box",
                "'B' floor + box",
                format!(
                    "move push(d) {{ letters \"NSWE\" {} require box at man + d shift box d shift man d }}\nforbid box on wall",
                    adds(1)
                ),
                "goal box on target",
            ),
        };
        let rows: Vec<String> = level.lines().map(|l| format!("  {l}")).collect();
        format!(
            "puzzle \"limit test\"\n\
             tiles {{ floor wall }}\n\
             outside wall\n\
             marks {{ target }}\n\
             {pieces}\n\
             legend {{ '.' floor '#' wall 'S' floor + man 'T' floor + target {legend_box} }}\n\
             dirs {{ n (-1, 0) s (1, 0) w (0, -1) e (0, 1) }}\n\
             {cost}\n\
             limit {limit}\n\
             move walk(d) {{ letters \"nswe\" {} shift man d }}\n\
             {second}\n\
             forbid man on wall\n\
             {goal}\n\
             level \"random\" \"\"\"\n{}\n  \"\"\"\n",
            adds(0),
            rows.join("\n")
        )
    }
}

const SHAPES: &[Shape] = &[
    // Unit costs: no `cost`, and one named component every move adds to.
    Shape {
        family: Family::Jumper,
        components: &[],
    },
    Shape {
        family: Family::Jumper,
        components: &[("moves", true, true)],
    },
    Shape {
        family: Family::Walker,
        components: &[],
    },
    Shape {
        family: Family::Walker,
        components: &[("steps", true, false)],
    },
    Shape {
        family: Family::Pusher,
        components: &[],
    },
    // Cost vectors: a cheaper path may need more moves than the limit allows.
    Shape {
        family: Family::Jumper,
        components: &[("jumps", false, true), ("walks", true, false)],
    },
    Shape {
        family: Family::Jumper,
        components: &[("walks", true, false), ("jumps", false, true)],
    },
    Shape {
        family: Family::Jumper,
        components: &[("moves", true, true), ("jumps", false, true)],
    },
    Shape {
        family: Family::Jumper,
        components: &[
            ("jumps", false, true),
            ("moves", true, true),
            ("walks", true, false),
        ],
    },
    Shape {
        family: Family::Pusher,
        components: &[("pushes", false, true), ("walks", true, false)],
    },
    Shape {
        family: Family::Pusher,
        components: &[("walks", true, false), ("pushes", false, true)],
    },
];

// ---------------------------------------------------------------------------------------
// The brute force
// ---------------------------------------------------------------------------------------

const DIRS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

struct Board {
    rows: i32,
    cols: i32,
    wall: Vec<bool>,
    target: Vec<bool>,
}

impl Board {
    fn free(&self, r: i32, c: i32) -> Option<usize> {
        if r < 0 || c < 0 || r >= self.rows || c >= self.cols {
            return None;
        }
        let i = (r * self.cols + c) as usize;
        (!self.wall[i]).then_some(i)
    }

    fn rc(&self, i: usize) -> (i32, i32) {
        (i as i32 / self.cols, i as i32 % self.cols)
    }
}

/// A state: the man's cell and the box's (`usize::MAX` without a box).
type State = (usize, usize);

/// The state after move `m` (0 walk, 1 jump or push) in direction `d`, if legal.
fn step(family: Family, b: &Board, (man, bx): State, m: usize, d: usize) -> Option<State> {
    let (r, c) = b.rc(man);
    let (dr, dc) = DIRS[d];
    match (family, m) {
        (_, 0) => {
            let to = b.free(r + dr, c + dc)?;
            (to != bx).then_some((to, bx))
        }
        (Family::Jumper, 1) => Some((b.free(r + 2 * dr, c + 2 * dc)?, bx)),
        (Family::Pusher, 1) => {
            let next = b.free(r + dr, c + dc)?;
            if next != bx {
                return None;
            }
            let to = b.free(r + 2 * dr, c + 2 * dc)?;
            Some((next, to))
        }
        _ => None,
    }
}

fn is_goal(family: Family, b: &Board, (man, bx): State) -> bool {
    match family {
        Family::Pusher => b.target[bx],
        _ => b.target[man],
    }
}

/// Cost vector, then per component the projection (action numbers `m * 4 + d`).
type Key = (Vec<u32>, Vec<Vec<u32>>);

fn key_of(shape: &Shape, actions: &[(usize, usize)]) -> Key {
    let n = shape.adds(0).len();
    let mut cost = vec![0u32; n];
    let mut proj = vec![vec![]; n];
    for &(m, d) in actions {
        for (c, add) in shape.adds(m).into_iter().enumerate() {
            if add {
                cost[c] += 1;
                proj[c].push((m * 4 + d) as u32);
            }
        }
    }
    (cost, proj)
}

/// The least key over every goal-ending sequence of at most `limit` moves.
fn brute_force(shape: &Shape, b: &Board, start: State, limit: u32) -> Option<Key> {
    fn go(
        shape: &Shape,
        b: &Board,
        s: State,
        left: u32,
        seq: &mut Vec<(usize, usize)>,
        best: &mut Option<Key>,
    ) {
        if is_goal(shape.family, b, s) {
            let k = key_of(shape, seq);
            if best.as_ref().is_none_or(|b| k < *b) {
                *best = Some(k);
            }
        }
        if left == 0 {
            return;
        }
        let moves = if shape.family == Family::Walker { 1 } else { 2 };
        for m in 0..moves {
            for d in 0..4 {
                if let Some(t) = step(shape.family, b, s, m, d) {
                    seq.push((m, d));
                    go(shape, b, t, left - 1, seq, best);
                    seq.pop();
                }
            }
        }
    }
    let mut best = None;
    go(shape, b, start, limit, &mut vec![], &mut best);
    best
}

/// Replays letters (`nswe` walks, `NSWE` jumps or pushes): the actions, if every move is
/// legal and the last state a goal.
fn replay(
    shape: &Shape,
    b: &Board,
    start: State,
    letters: &str,
) -> Result<Vec<(usize, usize)>, String> {
    let mut s = start;
    let mut actions = vec![];
    for ch in letters.chars() {
        let (m, d) = match ch {
            'n' => (0, 0),
            's' => (0, 1),
            'w' => (0, 2),
            'e' => (0, 3),
            'N' => (1, 0),
            'S' => (1, 1),
            'W' => (1, 2),
            'E' => (1, 3),
            _ => return Err(format!("unknown letter {ch:?}")),
        };
        s = step(shape.family, b, s, m, d).ok_or_else(|| format!("illegal move {ch:?}"))?;
        actions.push((m, d));
    }
    if !is_goal(shape.family, b, s) {
        return Err("does not end in a goal".into());
    }
    Ok(actions)
}

/// A random level of up to 4 x 5 cells: walls, one or two targets, the man, and for the
/// pusher a box. Returns its text, board and start.
fn random_level(rng: &mut fastrand::Rng, family: Family) -> (String, Board, State) {
    loop {
        let rows = rng.i32(1..=4);
        let cols = rng.i32(2..=5);
        let n = (rows * cols) as usize;
        let wall: Vec<bool> = (0..n).map(|_| rng.u8(0..100) < 20).collect();
        let free: Vec<usize> = (0..n).filter(|&i| !wall[i]).collect();
        let need = if family == Family::Pusher { 3 } else { 2 };
        if free.len() < need {
            continue;
        }
        let mut pick = free.clone();
        rng.shuffle(&mut pick);
        let man = pick[0];
        let bx = if family == Family::Pusher {
            pick[1]
        } else {
            usize::MAX
        };
        let rest = &pick[need - 1..];
        let targets = rng.usize(1..=2.min(rest.len()));
        let mut target = vec![false; n];
        for &t in &rest[..targets] {
            target[t] = true;
        }
        // The man may start on a target cell; the legend has no symbol for that, so not.
        if target[man] || (bx != usize::MAX && target[bx]) {
            continue;
        }
        let mut text = String::new();
        for i in 0..n {
            text.push(match () {
                _ if wall[i] => '#',
                _ if i == man => 'S',
                _ if i == bx => 'B',
                _ if target[i] => 'T',
                _ => '.',
            });
            if (i + 1) % cols as usize == 0 && i + 1 < n {
                text.push('\n');
            }
        }
        let board = Board {
            rows,
            cols,
            wall,
            target,
        };
        return (text, board, (man, bx));
    }
}

// ---------------------------------------------------------------------------------------
// Every backend against the brute force
// ---------------------------------------------------------------------------------------

/// Every backend of the registry (`puz::search::BACKENDS`) on the interpreter, then auto:
/// a backend added to the registry is covered here without a change.
fn backends() -> Vec<(EngineChoice, SearchChoice)> {
    puz::search::BACKENDS
        .iter()
        .map(|b| (EngineChoice::Interp, SearchChoice::Backend(b.backend)))
        .chain([(EngineChoice::Auto, SearchChoice::Auto)])
        .collect()
}

/// Whether `search` can run on rules of `shape` under a move limit, by what its registry
/// row says it needs: an unknown need would not compile here.
fn can_run(search: SearchChoice, shape: &Shape) -> bool {
    let SearchChoice::Backend(b) = search else {
        return true;
    };
    match b.info().needs {
        Needs::Nothing => true,
        Needs::UnitCosts => shape.unit(),
        Needs::Invertible => shape.invertible(),
        // No move removes a copy, so solutions have no fixed length.
        Needs::Countdown => false,
        // Layered search takes no move limit, and every case has one.
        Needs::InnerSplit => false,
    }
}

#[test]
fn limit_with_every_cost_shape_matches_brute_force_on_every_backend() {
    const CASES: usize = 440;
    let mut rng = fastrand::Rng::with_seed(0x5ea2c4);
    // Per backend: answers checked, refusals, and answers where the limit was binding
    // (the optimum with 3 more moves allowed differs).
    let backends = backends();
    let mut answered = vec![0usize; backends.len()];
    let mut refused = vec![0usize; backends.len()];
    let mut binding = 0usize;
    let mut solved = 0usize;
    for case in 0..CASES {
        let shape = &SHAPES[case % SHAPES.len()];
        let (level, board, start) = random_level(&mut rng, shape.family);
        let limit = rng.u32(1..=6);
        let text = shape.rules(limit, &level);
        let p = Puzzle::load("limit.puz", text.clone())
            .unwrap_or_else(|d| panic!("case {case}: rules rejected: {d:?}\n{text}"));
        let expected = brute_force(shape, &board, start, limit);
        let relaxed = brute_force(shape, &board, start, limit + 3);
        if expected.as_ref().map(|k| &k.0) != relaxed.as_ref().map(|k| &k.0) {
            binding += 1;
        }
        solved += usize::from(expected.is_some());
        for (b, &(engine, search)) in backends.iter().enumerate() {
            let opts = SolveOptions {
                engine,
                search,
                budget: Default::default(),
                need_path: true,
                ..Default::default()
            };
            let level = p.inline_level(0).expect("the level is valid");
            let what = format!("case {case} ({search:?}, limit {limit}):\n{text}");
            let exact_ties = match search {
                SearchChoice::Backend(b) => b.info().tie_rule,
                SearchChoice::Auto => true,
            };
            // A backend that can run on these rules must run, and one that cannot must say so.
            let can_run = can_run(search, shape);
            match solve_opts(&p.model, level, &opts) {
                Ok(ans) => {
                    assert!(
                        can_run,
                        "{what}
answered where it should refuse"
                    );
                    answered[b] += 1;
                    let got = match ans.outcome {
                        Outcome::Solved(path) => {
                            let letters: String =
                                path.actions.iter().map(|&a| p.model.letter(a)).collect();
                            let acts = replay(shape, &board, start, &letters)
                                .unwrap_or_else(|e| panic!("{what}\npath {letters}: {e}"));
                            assert!(
                                acts.len() as u32 <= limit,
                                "{what}\npath {letters} exceeds the limit"
                            );
                            Some(key_of(shape, &acts))
                        }
                        Outcome::Unsolvable => None,
                        other => panic!("{what}\nunexpected outcome {other:?}"),
                    };
                    if exact_ties {
                        assert_eq!(got, expected, "{what}");
                    } else {
                        assert_eq!(got.map(|k| k.0), expected.clone().map(|k| k.0), "{what}");
                    }
                }
                Err(e) => {
                    refused[b] += 1;
                    assert!(!can_run, "{what}\nrefused: {e}");
                    // A refusal, never another failure: bidir says the moves are not
                    // invertible, the others that the search is unavailable.
                    match (search, &e) {
                        (SearchChoice::Backend(Backend::Bidir), SolveError::NotInvertible(_)) => {}
                        (SearchChoice::Backend(b), SolveError::SearchUnavailable(_))
                            if b != Backend::Bidir => {}
                        _ => panic!("{what}\nwrong refusal: {e:?}"),
                    }
                }
            }
        }
    }
    // Enough of every kind, so that the comparison means something.
    assert!(solved >= CASES / 3, "only {solved} solvable cases");
    // Enough answers from every backend that can run under a limit, and every case
    // refused by those that cannot.
    for (b, n) in answered.iter().enumerate() {
        let search = backends[b].1;
        let runs_somewhere = SHAPES.iter().any(|s| can_run(search, s));
        if runs_somewhere {
            assert!(*n >= 60, "backend {search:?} answered only {n} cases");
        } else {
            assert_eq!(refused[b], CASES, "backend {search:?} answered {n} cases");
        }
    }
    assert!(
        binding >= 30,
        "only {binding} cases where the limit changes the optimum"
    );
}

// ---------------------------------------------------------------------------------------
// Reproducers through the binary
// ---------------------------------------------------------------------------------------

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    took: Duration,
}

fn data(name: &str) -> String {
    format!(
        "{}/tests/data/robustness/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn puz(args: &[&str]) -> Run {
    let t0 = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_puz"))
        .args(args)
        .output()
        .expect("the binary runs");
    Run {
        code: out.status.code().expect("exits, not killed by a signal"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        took: t0.elapsed(),
    }
}

/// The line of `text` that starts with `prefix`, without it.
fn line<'a>(text: &'a str, prefix: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no line `{prefix}` in:\n{text}"))
}

#[test]
fn walk_or_jump_within_three_moves() {
    let r = puz(&["solve", &data("dijkstra_limit_wrong_unsolvable.puz")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(line(&r.stdout, "cost: "), "3 jumps, 0 walks");
    assert_eq!(line(&r.stdout, "moves (3): "), "JJJ");
}

/// One-box Sokoban as `puzzles/sokoban.puz` says: walks `nswe`, pushes `NSWE`, off-board
/// and `#` are walls; the least (pushes, walks) within `limit` moves, by a layered search
/// over (state, moves made) keeping the least cost of each.
fn sokoban_least_cost(level: &str, limit: u32) -> Option<(u32, u32)> {
    let (b, start) = sokoban_board(level);
    let mut layer: std::collections::HashMap<State, (u32, u32)> = [(start, (0, 0))].into();
    let mut best: Option<(u32, u32)> = None;
    for depth in 0..=limit {
        for (&s, &c) in &layer {
            if b.target[s.1] && best.is_none_or(|x| c < x) {
                best = Some(c);
            }
        }
        if depth == limit {
            break;
        }
        let mut next: std::collections::HashMap<State, (u32, u32)> = Default::default();
        for (&s, &(p, w)) in &layer {
            for m in 0..2 {
                for d in 0..4 {
                    if let Some(t) = step(Family::Pusher, &b, s, m, d) {
                        let c = if m == 0 { (p, w + 1) } else { (p + 1, w) };
                        let e = next.entry(t).or_insert(c);
                        *e = (*e).min(c);
                    }
                }
            }
        }
        layer = next;
    }
    best
}

fn sokoban_board(level: &str) -> (Board, State) {
    let rows: Vec<&str> = level.lines().filter(|l| !l.is_empty()).collect();
    let cols = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let (mut man, mut bx) = (0, 0);
    let mut wall = vec![];
    let mut target = vec![];
    for (r, row) in rows.iter().enumerate() {
        for c in 0..cols {
            let ch = row.as_bytes().get(c).copied().unwrap_or(b'#');
            let i = r * cols + c;
            wall.push(ch == b'#');
            target.push(ch == b'T');
            if ch == b'S' {
                man = i;
            }
            if ch == b'B' {
                bx = i;
            }
        }
    }
    let b = Board {
        rows: rows.len() as i32,
        cols: cols as i32,
        wall,
        target,
    };
    (b, (man, bx))
}

#[test]
fn sokoban_under_a_move_limit_finds_the_cheapest_that_fits() {
    for (name, limit) in [("sokoban_limit15", 15), ("sokoban_limit_b", 22)] {
        let lvl = data(&format!("{name}.lvl"));
        let r = puz(&["solve", &data(&format!("{name}.puz")), &lvl]);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        let text = std::fs::read_to_string(&lvl).expect("the level reads");
        let (pushes, walks) = sokoban_least_cost(&text, limit).expect("solvable in the limit");
        assert_eq!(
            line(&r.stdout, "cost: "),
            format!("{pushes} pushes, {walks} walks"),
            "{name}"
        );
        let moves = line(&r.stdout, "moves (");
        let letters = moves.split_once("): ").expect("moves (N): LETTERS").1;
        let shape = &SHAPES[9];
        let (b, start) = sokoban_board(&text);
        let acts = replay(shape, &b, start, letters).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(acts.len() as u32 <= limit, "{name}: {letters} is too long");
        assert_eq!(key_of(shape, &acts).0, vec![pushes, walks], "{name}");
    }
}

#[test]
fn analyze_honours_every_budget() {
    let slide = data("slide_line_100k.puz");
    for (args, code, says) in [
        (&["--timeout", "1"][..], 3, "the time limit was reached"),
        (
            &["--max-memory", "1"][..],
            3,
            "the memory limit of 1 MiB was reached",
        ),
        (&["--max-states", "50"][..], 6, "more than 50 states"),
    ] {
        let mut all = vec!["analyze", &slide];
        all.extend_from_slice(args);
        all.push("--stats");
        let r = puz(&all);
        assert_eq!(r.code, code, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}: no figures on a cutoff");
        assert!(
            r.took < Duration::from_secs(20),
            "{args:?} took {:?}",
            r.took
        );
        // The stats count from the command's start, not from some inner loop.
        let secs: f64 = line(&r.stderr, "stats: ")
            .rsplit_once("time ")
            .and_then(|(_, t)| t.strip_suffix('s'))
            .and_then(|t| t.parse().ok())
            .expect("a time in the stats");
        if args[0] == "--timeout" {
            assert!(secs >= 1.0, "stats say {secs}s after a 1 s timeout");
        }
    }
}

#[test]
fn graph_export_is_refused_past_the_output_limit() {
    for format in ["dot", "json"] {
        let r = puz(&[
            "graph",
            &data("walker.puz"),
            &data("big_graph_level.txt"),
            "--format",
            format,
        ]);
        assert_eq!(r.code, 6, "{format}: {}", r.stderr);
        assert!(r.stderr.contains("output limit of 64 MiB"), "{}", r.stderr);
        assert!(r.stderr.contains("--max-output"), "{}", r.stderr);
        assert!(r.stdout.is_empty(), "nothing is written when refused");
        assert!(r.took < Duration::from_secs(30), "took {:?}", r.took);
    }
    // A graph under the limit is written whole.
    let r = puz(&[
        "graph",
        &data("walker.puz"),
        "--level",
        "tiny",
        "--max-output",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("whole JSON");
    assert_eq!(v["nodes"].as_array().map(Vec::len), Some(3));
}

#[test]
fn graph_export_honours_the_deadline() {
    let r = puz(&[
        "graph",
        &data("slide_line_100k.puz"),
        "--max-states",
        "200000",
        "--timeout",
        "1",
    ]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(
        r.stderr.contains("the time limit was reached"),
        "{}",
        r.stderr
    );
    assert!(r.took < Duration::from_secs(20), "took {:?}", r.took);
}

#[test]
fn a_closed_pipe_ends_the_export_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let dir = std::env::temp_dir().join(format!("puz-robust-search-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let level = dir.join("open40.txt");
    let mut text = String::from("S");
    text.push_str(&".".repeat(39));
    text.push('\n');
    for _ in 1..40 {
        text.push_str(&".".repeat(40));
        text.push('\n');
    }
    std::fs::write(&level, text).expect("level written");
    let mut child = Command::new(env!("CARGO_BIN_EXE_puz"))
        .args(["graph", &data("walker.puz")])
        .arg(&level)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut first = [0u8; 10];
    child
        .stdout
        .take()
        .expect("piped")
        .read_exact(&mut first)
        .expect("ten bytes");
    // The reader is gone: the rest of the 1,600-node graph meets a closed pipe.
    let out = child.wait_with_output().expect("it ends");
    assert_eq!(&first, b"digraph st");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn optimal_solution_counts_are_exact_past_u128() {
    // C(138, 69): the shortest walks across a 70 x 70 room from corner to corner.
    const C138_69: &str = "23623985175715118288974865541854103729000";
    let (puz_file, level) = (data("walker.puz"), data("open70.txt"));
    let r = puz(&["analyze", &puz_file, &level]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        line(&r.stdout, "fewest moves to a goal: "),
        format!("138 ({C138_69} distinct optimal solutions)")
    );
    let r = puz(&["analyze", &puz_file, &level, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON");
    assert_eq!(v["optimal_solutions"], C138_69);
    // Below 2^128 the count stays a JSON number: C(20, 10) across an 11 x 11 room.
    let dir = std::env::temp_dir().join(format!("puz-robust-count-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let small = dir.join("open11.txt");
    let mut text = String::new();
    for r in 0..11 {
        for c in 0..11 {
            text.push(match (r, c) {
                (0, 0) => 'S',
                (10, 10) => 'T',
                _ => '.',
            });
        }
        text.push('\n');
    }
    std::fs::write(&small, text).expect("level written");
    let r = puz(&[
        "analyze",
        &puz_file,
        small.to_str().expect("utf-8"),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON");
    assert_eq!(v["optimal_solutions"], 184756);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_backend_stops_at_the_deadline_when_each_expansion_is_slow() {
    // A stone on a 100,000-cell line that slides end to end: every expansion walks the
    // line, and the target sits on another row behind walls, so nothing ends the search
    // but the deadline.
    let dir = std::env::temp_dir().join(format!("puz-robust-slide-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("slide.puz");
    let width = 100_000;
    let text = format!(
        "puzzle \"slider\"\n\
         tiles {{ floor wall }}\n\
         marks {{ target }}\n\
         piece stone\n\
         legend {{ '.' floor '#' wall 'S' floor + stone 'T' floor + target }}\n\
         dirs {{ w (0, -1) e (0, 1) }}\n\
         move go(d) {{ slide stone d {{ off board: stop }} }}\n\
         move step(d) {{ shift stone d }}\n\
         forbid stone on wall\n\
         goal stone on target\n\
         level \"L\" \"\"\"\n  S{}\n  T{}\n  \"\"\"\n",
        ".".repeat(width - 1),
        "#".repeat(width - 1)
    );
    std::fs::write(&file, text).expect("rules written");
    let file = file.to_str().expect("utf-8").to_string();
    for search in ["bfs", "dijkstra", "iddfs"] {
        let r = puz(&[
            "solve",
            &file,
            "--engine",
            "interp",
            "--search",
            search,
            "--timeout",
            "1",
        ]);
        assert_eq!(r.code, 3, "{search}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stderr.contains("the time limit was reached"),
            "{}",
            r.stderr
        );
        assert!(
            r.took < Duration::from_secs(10),
            "{search} took {:?}",
            r.took
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
