//! Search under a move limit (`limit N`) for every backend and every cost shape, checked
//! against a brute force written here from the language's description (nothing shared
//! with the crate), plus the robustness reproducers of the search, `analyze` and `graph`
//! commands run through the binary.
//!
//! The brute force enumerates every move sequence of at most `limit` moves on tiny random
//! levels, keeps those that end in a goal, and takes the least by the README's rule:
//! lexicographic cost vector first, then the projection of the first component (the
//! subsequence of moves adding to it, compared by action number), then the second's, and
//! so on. Backends that follow the tie rule (BFS, IDDFS, Dijkstra, auto) must return a
//! path with exactly that key; A* and bidirectional BFS an optimal cost; a backend that
//! cannot run on the rules must refuse with its documented error.

use std::process::Command;
use std::time::{Duration, Instant};

use puz::search::Outcome;
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

const BACKENDS: [(EngineChoice, SearchChoice); 6] = [
    (EngineChoice::Interp, SearchChoice::Bfs),
    (EngineChoice::Interp, SearchChoice::Dijkstra),
    (EngineChoice::Interp, SearchChoice::Astar),
    (EngineChoice::Interp, SearchChoice::Iddfs),
    (EngineChoice::Interp, SearchChoice::Bidir),
    (EngineChoice::Auto, SearchChoice::Auto),
];

#[test]
fn limit_with_every_cost_shape_matches_brute_force_on_every_backend() {
    const CASES: usize = 440;
    let mut rng = fastrand::Rng::with_seed(0x5ea2c4);
    // Per backend: answers checked, refusals, and answers where the limit was binding
    // (the optimum with 3 more moves allowed differs).
    let mut answered = [0usize; 6];
    let mut refused = [0usize; 6];
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
        for (b, &(engine, search)) in BACKENDS.iter().enumerate() {
            let opts = SolveOptions {
                engine,
                search,
                budget: Default::default(),
                need_path: true,
            };
            let level = p.inline_level(0).expect("the level is valid");
            let what = format!("case {case} ({search:?}, limit {limit}):\n{text}");
            let exact_ties = matches!(
                search,
                SearchChoice::Bfs
                    | SearchChoice::Iddfs
                    | SearchChoice::Dijkstra
                    | SearchChoice::Auto
            );
            // A backend that can run on these rules must run, and one that cannot must say so.
            let can_run = match search {
                SearchChoice::Bfs | SearchChoice::Iddfs | SearchChoice::Astar => shape.unit(),
                SearchChoice::Bidir => shape.invertible(),
                _ => true,
            };
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
                    match (search, &e) {
                        (SearchChoice::Bidir, SolveError::NotInvertible(_)) => {}
                        (
                            SearchChoice::Bfs | SearchChoice::Iddfs | SearchChoice::Astar,
                            SolveError::SearchUnavailable(_),
                        ) => {}
                        _ => panic!("{what}\nwrong refusal: {e:?}"),
                    }
                }
            }
        }
    }
    // Enough of every kind, so that the comparison means something.
    assert!(solved >= CASES / 3, "only {solved} solvable cases");
    for (b, n) in answered.iter().enumerate() {
        assert!(
            *n >= 60,
            "backend {:?} answered only {n} cases",
            BACKENDS[b].1
        );
    }
    assert!(
        binding >= 30,
        "only {binding} cases where the limit changes the optimum"
    );
}
