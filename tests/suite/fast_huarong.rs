//! Tests of the Huarong Dao fast path (`src/fast/huarong.rs`) against the interpreter.
//!
//! - Judge agreement: seeded random boards (small, with corridors, dead ends and cut
//!   cells), each with a batch of queries (valid ones, the piece already on the target,
//!   malformed ones); `puz judge` output must be identical with `--engine interp` and
//!   `--engine fast`.
//! - Paths: seeded random levels (one, several or no target cells) solved with
//!   `EngineChoice::Fast` and a path asked for; the solver replays it through the
//!   interpreter (legal, ends on a goal, claimed cost), the test replays it again with its
//!   own rules, and the cost must equal the interpreter's. The fast path does not promise
//!   the interpreter's tie order, so the moves themselves are not compared.
//! - The NOIP sample, the shipped inline levels, and fingerprints: renamed and reordered
//!   copies of `puzzles/huarong.puz` still select `huarong`; altered rules do not.

use crate::common;

use common::huarong::{judge_input, maze as random_grid, Board as Grid};
use puz::engine::{Action, Board, Instance, Level};
use puz::io::judge::{run_judge, JudgeOptions};
use puz::search::{Budget, Outcome};
use puz::solver::{path_cost, solve, solve_with, EngineChoice, SolveError};
use puz::Puzzle;

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

fn shipped() -> String {
    let path = format!("{}/puzzles/huarong.puz", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

fn load(name: &str, text: &str) -> Puzzle {
    Puzzle::load(name, text.to_string())
        .unwrap_or_else(|d| panic!("{name} does not load: {d:?}\n{text}"))
}

fn fast_name(p: &Puzzle) -> Option<&'static str> {
    puz::fast::select(&p.model).ok().map(|f| f.name())
}

fn judge(p: &Puzzle, input: &str, engine: EngineChoice) -> String {
    let mut out = vec![];
    let opts = JudgeOptions {
        engine,
        ..Default::default()
    };
    run_judge(p, input, &mut out, &opts)
        .unwrap_or_else(|e| panic!("judge with {engine:?} failed: {e}\ninput:\n{input}"));
    String::from_utf8(out).expect("UTF-8")
}

// ---------------------------------------------------------------------------------------
// Judge agreement
// ---------------------------------------------------------------------------------------

/// A query line (1-based) and whether it is an ordinary valid query.
fn random_query(rng: &mut fastrand::Rng, g: &Grid) -> (String, bool) {
    let free = g.free_indices();
    let any = |rng: &mut fastrand::Rng| (rng.usize(0..g.rows) + 1, rng.usize(0..g.cols) + 1);
    let cell = |c: usize| (c / g.cols + 1, c % g.cols + 1);
    let (e, s, t, valid) = if free.len() >= 2 && rng.u8(0..10) < 8 {
        let i = rng.usize(0..free.len());
        let mut j = rng.usize(0..free.len() - 1);
        if j >= i {
            j += 1;
        }
        let t = match rng.u8(0..8) {
            0 => cell(free[i]),
            1 => any(rng),
            2 => cell(free[j]),
            _ => cell(free[rng.usize(0..free.len())]),
        };
        (cell(free[i]), cell(free[j]), t, true)
    } else {
        let (e, s) = (any(rng), any(rng));
        let t = if rng.bool() { s } else { any(rng) };
        (e, s, t, false)
    };
    (
        format!("{} {} {} {} {} {}", e.0, e.1, s.0, s.1, t.0, t.1),
        valid,
    )
}

#[test]
fn judge_agrees_with_interpreter_on_random_boards() {
    let p = load("huarong.puz", &shipped());
    assert_eq!(fast_name(&p), Some("huarong"));
    let mut rng = fastrand::Rng::with_seed(0x1979);
    let (mut queries_total, mut valid_total, mut solved) = (0, 0, 0);
    for board in 0..1500 {
        let g = random_grid(&mut rng);
        let mut queries = vec![];
        for _ in 0..8 {
            let (q, valid) = random_query(&mut rng, &g);
            valid_total += valid as usize;
            queries.push(q);
        }
        queries_total += queries.len();
        let input = judge_input(&g, &queries);
        let interp = judge(&p, &input, EngineChoice::Interp);
        let fast = judge(&p, &input, EngineChoice::Fast);
        assert_eq!(
            fast, interp,
            "board {board}: fast and interpreter differ\ninput:\n{input}"
        );
        solved += interp
            .lines()
            .filter(|l| l.parse::<i64>().is_ok_and(|v| v > 0))
            .count();
    }
    assert!(
        queries_total >= 12_000 && valid_total >= 8_000,
        "{valid_total} valid"
    );
    assert!(
        solved >= 1000,
        "only {solved} queries with a positive answer"
    );
}

/// Larger boards (up to 11 x 11): longer answers, where the search's bound and detours
/// around fixed cells matter more.
#[test]
fn judge_agrees_on_larger_boards() {
    let p = load("huarong.puz", &shipped());
    let mut rng = fastrand::Rng::with_seed(0x5eed);
    for board in 0..40 {
        let (rows, cols) = (rng.usize(7..=11), rng.usize(7..=11));
        let density = [100, 92, 85, 75][board % 4];
        let free = (0..rows * cols).map(|_| rng.u8(0..100) < density).collect();
        let g = Grid { rows, cols, free };
        let queries: Vec<String> = (0..5).map(|_| random_query(&mut rng, &g).0).collect();
        let input = judge_input(&g, &queries);
        assert_eq!(
            judge(&p, &input, EngineChoice::Fast),
            judge(&p, &input, EngineChoice::Interp),
            "board {board}\ninput:\n{input}"
        );
    }
}

/// One board, many queries: the precomputation cached for the board is reused, and boards
/// that alternate (so the cache switches) still answer each from its own board.
#[test]
fn judge_agrees_across_alternating_boards() {
    let p = load("huarong.puz", &shipped());
    let mut rng = fastrand::Rng::with_seed(2013);
    let grids: Vec<Grid> = (0..12)
        .map(|_| loop {
            let g = random_grid(&mut rng);
            if g.free_indices().len() >= 6 {
                break g;
            }
        })
        .collect();
    for round in 0..3 {
        for (i, g) in grids.iter().enumerate() {
            let queries: Vec<String> = (0..40).map(|_| random_query(&mut rng, g).0).collect();
            let input = judge_input(g, &queries);
            assert_eq!(
                judge(&p, &input, EngineChoice::Fast),
                judge(&p, &input, EngineChoice::Interp),
                "round {round}, board {i}\ninput:\n{input}"
            );
        }
    }
}

#[test]
fn noip_sample() {
    let p = load("huarong.puz", &shipped());
    let input = "3 4 2\n0 1 1 1\n0 1 1 0\n0 1 0 0\n3 2 1 2 2 2\n1 2 2 2 3 2\n";
    assert_eq!(judge(&p, input, EngineChoice::Fast), "2\n-1\n");
    assert_eq!(judge(&p, input, EngineChoice::Interp), "2\n-1\n");
}

// ---------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------

/// Ids the test needs, found by name in a model.
struct Ids {
    fixed: u16,
    free: u16,
    blank: u16,
    token: u16,
    target: u16,
}

fn ids(p: &Puzzle, names: [&str; 5]) -> Ids {
    let m = &p.model;
    let tile = |n: &str| m.tiles.iter().position(|t| t.name == n).expect("tile") as u16;
    let piece = |n: &str| m.pieces.iter().position(|t| t.name == n).expect("piece") as u16;
    let mark = |n: &str| m.marks.iter().position(|t| t.name == n).expect("mark") as u16;
    Ids {
        fixed: tile(names[0]),
        free: tile(names[1]),
        blank: piece(names[2]),
        token: piece(names[3]),
        target: mark(names[4]),
    }
}

fn make_level(g: &Grid, ids: &Ids, blank: usize, token: usize, targets: &[usize]) -> Level {
    use puz::compile::{PieceId, PoseId, TileId};
    let n = g.rows * g.cols;
    let mut marks = vec![0u32; n];
    for &t in targets {
        marks[t] |= 1 << ids.target;
    }
    let mut instances = vec![
        Instance {
            piece: PieceId(ids.blank),
            cell: blank as u32,
            pose: PoseId(0),
        },
        Instance {
            piece: PieceId(ids.token),
            cell: token as u32,
            pose: PoseId(0),
        },
    ];
    instances.sort_by_key(|i| i.piece);
    Level {
        name: "random".into(),
        board: Board {
            rows: g.rows,
            cols: g.cols,
            tiles: g
                .free
                .iter()
                .map(|&f| TileId(if f { ids.free } else { ids.fixed }))
                .collect(),
            marks,
        },
        instances,
        picture: None,
        picture_poses: vec![],
    }
}

/// Replays a path with the brute force's rules (`tests/common/huarong.rs`), by its
/// letters; returns the token's last cell.
fn replay(p: &Puzzle, g: &Grid, blank: usize, token: usize, actions: &[Action]) -> usize {
    let cell = |i: usize| ((i / g.cols) as i64, (i % g.cols) as i64);
    let letters: String = actions.iter().map(|&a| p.model.letter(a)).collect();
    let (r, c) = common::huarong::replay(g, cell(blank), cell(token), &letters)
        .unwrap_or_else(|e| panic!("{e}"));
    r as usize * g.cols + c as usize
}

/// Solves random levels with a path on the fast path and checks them; returns how many
/// had a solution.
fn check_paths(p: &Puzzle, names: [&str; 5], seed: u64, count: usize) -> usize {
    let ids = ids(p, names);
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut solved = 0;
    let mut done = 0;
    while done < count {
        let g = random_grid(&mut rng);
        let free = g.free_indices();
        if free.len() < 2 {
            continue;
        }
        let i = rng.usize(0..free.len());
        let mut j = rng.usize(0..free.len() - 1);
        if j >= i {
            j += 1;
        }
        let (blank, token) = (free[i], free[j]);
        let targets: Vec<usize> = match rng.u8(0..10) {
            0 => vec![],
            1..=2 => (0..rng.usize(2..5))
                .map(|_| free[rng.usize(0..free.len())])
                .collect(),
            _ => vec![free[rng.usize(0..free.len())]],
        };
        done += 1;
        let level = make_level(&g, &ids, blank, token, &targets);
        let what = format!("level {done}: {g:?} blank {blank} token {token} targets {targets:?}");
        let fast = solve(
            &p.model,
            level.clone(),
            EngineChoice::Fast,
            &Budget::default(),
        )
        .unwrap_or_else(|e| panic!("{what}: fast path failed: {e}"));
        assert_eq!(fast.engine, "huarong");
        let interp = solve(&p.model, level, EngineChoice::Interp, &Budget::default())
            .unwrap_or_else(|e| panic!("{what}: interpreter failed: {e}"));
        match (&fast.outcome, &interp.outcome) {
            (Outcome::Solved(fp), Outcome::Solved(ip)) => {
                assert_eq!(
                    path_cost(&p.model, &fp.actions),
                    path_cost(&p.model, &ip.actions),
                    "{what}: costs differ"
                );
                let end = replay(p, &g, blank, token, &fp.actions);
                assert!(targets.contains(&end), "{what}: the token ends on {end}");
                solved += 1;
            }
            (Outcome::Unsolvable, Outcome::Unsolvable) => {}
            (f, i) => panic!("{what}: fast {f:?}, interpreter {i:?}"),
        }
    }
    solved
}

#[test]
fn paths_replay_with_the_interpreters_cost() {
    let p = load("huarong.puz", &shipped());
    let solved = check_paths(
        &p,
        ["fixed", "free", "blank", "token", "target"],
        3009,
        3000,
    );
    assert!(solved >= 1400, "only {solved} solvable levels");
}

/// Cost-only answers (`need_path` false, as judge formats without `{path}` ask) equal the
/// costs of the paths.
#[test]
fn cost_only_answers_match_paths() {
    let p = load("huarong.puz", &shipped());
    let ids = ids(&p, ["fixed", "free", "blank", "token", "target"]);
    let mut rng = fastrand::Rng::with_seed(77);
    for _ in 0..300 {
        let g = random_grid(&mut rng);
        let free = g.free_indices();
        if free.len() < 3 {
            continue;
        }
        let (b, t, goal) = (free[0], free[free.len() - 1], free[free.len() / 2]);
        let level = make_level(&g, &ids, b, t, &[goal]);
        let a = solve_with(
            &p.model,
            level.clone(),
            EngineChoice::Fast,
            &Budget::default(),
            false,
        )
        .expect("fast");
        let i = solve(&p.model, level, EngineChoice::Interp, &Budget::default()).expect("interp");
        let cost = |o: &Outcome| match o {
            Outcome::Solved(path) => Some(path_cost(&p.model, &path.actions)),
            Outcome::Cost(c) => Some(c.clone()),
            Outcome::Unsolvable => None,
            Outcome::Cutoff(c) => panic!("cut off: {c}"),
        };
        assert_eq!(cost(&a.outcome), cost(&i.outcome), "{g:?}");
    }
}

#[test]
fn shipped_levels_agree() {
    let p = load("huarong.puz", &shipped());
    for i in 0..p.model.levels.len() {
        let lv = p.inline_level(i).expect("level");
        let f = solve(&p.model, lv.clone(), EngineChoice::Fast, &Budget::default()).expect("fast");
        let n = solve(&p.model, lv, EngineChoice::Interp, &Budget::default()).expect("interp");
        let cost = |o: &Outcome| match o {
            Outcome::Solved(path) => Some(path.actions.len()),
            _ => None,
        };
        assert_eq!(cost(&f.outcome), cost(&n.outcome), "level {i}");
    }
}

#[test]
fn deadline_in_the_past_cuts_off() {
    let p = load("huarong.puz", &shipped());
    // A board the cache has not seen (15 x 17), so the precomputation runs and stops.
    let mut input = "15 17 1\n".to_string();
    for r in 0..15 {
        let row: Vec<&str> = (0..17)
            .map(|c| if (r * 17 + c) % 11 == 5 { "0" } else { "1" })
            .collect();
        input.push_str(&row.join(" "));
        input.push('\n');
    }
    input.push_str("1 1 15 17 1 2\n");
    let opts = JudgeOptions {
        engine: EngineChoice::Fast,
        budget: Budget {
            deadline: Some(std::time::Instant::now()),
            ..Default::default()
        },
        ..Default::default()
    };
    let mut out = vec![];
    let res = run_judge(&p, &input, &mut out, &opts);
    assert!(
        res.is_err(),
        "expected a cutoff, got {:?}",
        String::from_utf8(out)
    );
}

#[test]
fn state_budget_cuts_off() {
    let p = load("huarong.puz", &shipped());
    let lv = p.inline_level(2).expect("open 3x3");
    let ans = solve(
        &p.model,
        lv,
        EngineChoice::Fast,
        &Budget {
            max_states: Some(4),
            ..Default::default()
        },
    )
    .expect("runs");
    assert!(
        matches!(ans.outcome, Outcome::Cutoff(puz::search::Cutoff::States(_))),
        "{:?}",
        ans.outcome
    );
}

// ---------------------------------------------------------------------------------------
// Fingerprints
// ---------------------------------------------------------------------------------------

/// `puzzles/huarong.puz` with everything renamed and reordered: tiles, marks, pieces
/// (token first), directions (e w s n), forbids, the cost name.
fn renamed() -> String {
    let text = shipped()
        .replace("tiles { fixed free }", "tiles { open wall }")
        .replace("marks { target }", "marks { home }")
        .replace("piece blank ", "piece hole ")
        .replace("piece token ", "piece king ")
        .replace(
            "dirs { n (-1, 0)  s (1, 0)  w (0, -1)  e (0, 1) }",
            "dirs { e (0, 1)  w (0, -1)  s (1, 0)  n (-1, 0) }",
        )
        .replace("letters \"nswe\"", "letters \"ewsn\"")
        .replace("cost moves", "cost steps")
        .replace("adds moves", "adds steps")
        .replace("swap blank d", "swap hole d")
        .replace(
            "forbid blank on fixed\nforbid token on fixed",
            "forbid king on wall\nforbid hole on wall",
        )
        .replace("goal token on target", "goal king on home")
        .replace("query blank, token, target", "query hole, king, home")
        .replace("fixed", "wall")
        .replace("free", "open")
        .replace("+ blank", "+ hole")
        .replace("+ token", "+ king")
        .replace("+ target", "+ home");
    // Declare the token before the blank.
    let a = text.find("piece hole").expect("piece hole");
    let b = text.find("piece king").expect("piece king");
    let line_a = &text[a..a + text[a..].find('\n').unwrap() + 1];
    let line_b_end = b + text[b..].find('\n').unwrap() + 1;
    let block_b = text[b..line_b_end].to_string();
    let mut out = text.clone();
    out.replace_range(b..line_b_end, "");
    out = out.replacen(line_a, &format!("{block_b}{line_a}"), 1);
    out
}

#[test]
fn renamed_and_reordered_copy_selects_huarong() {
    let text = renamed();
    let p = load("renamed.puz", &text);
    assert_eq!(fast_name(&p), Some("huarong"), "{text}");
    assert_eq!(
        p.model.pieces[0].name, "king",
        "the token is declared first"
    );
    assert_eq!(p.model.dirs[0].name, "e");
    // Same answers as the interpreter, judge and paths (the direction order maps actions).
    let mut rng = fastrand::Rng::with_seed(99);
    for board in 0..60 {
        let g = random_grid(&mut rng);
        let queries: Vec<String> = (0..6).map(|_| random_query(&mut rng, &g).0).collect();
        let input = judge_input(&g, &queries);
        assert_eq!(
            judge(&p, &input, EngineChoice::Fast),
            judge(&p, &input, EngineChoice::Interp),
            "board {board}\ninput:\n{input}"
        );
    }
    let solved = check_paths(&p, ["wall", "open", "hole", "king", "home"], 1144, 300);
    assert!(solved >= 100);
}

/// The goal may be a tile instead of a mark.
#[test]
fn goal_on_a_tile_selects_huarong_and_agrees() {
    let text = shipped()
        .replace("tiles { fixed free }", "tiles { fixed free goalt }")
        .replace("'T' free + target", "'T' goalt")
        .replace("goal token on target", "goal token on goalt")
        .replace("'*' free + token + target", "'*' goalt + token")
        .replace("  query blank, token, target\n", "  query blank, token\n")
        .replace("  1 free\n", "  1 free\n  2 goalt\n");
    let p = load("tilegoal.puz", &text);
    assert_eq!(fast_name(&p), Some("huarong"), "{text}");
    let mut rng = fastrand::Rng::with_seed(5);
    for board in 0..80 {
        let g = random_grid(&mut rng);
        let n = g.rows * g.cols;
        let cells: Vec<u8> = (0..n)
            .map(|c| match (g.free[c], rng.u8(0..8)) {
                (false, _) => 0,
                (true, 0) => 2,
                _ => 1,
            })
            .collect();
        let free: Vec<usize> = (0..n).filter(|&c| cells[c] != 0).collect();
        let mut input = format!("{} {} 6\n", g.rows, g.cols);
        for r in 0..g.rows {
            let row: Vec<String> = (0..g.cols)
                .map(|c| cells[r * g.cols + c].to_string())
                .collect();
            input.push_str(&row.join(" "));
            input.push('\n');
        }
        for _ in 0..6 {
            let (e, s) = if free.len() >= 2 {
                let i = rng.usize(0..free.len());
                let j = (i + 1 + rng.usize(0..free.len() - 1)) % free.len();
                (free[i], free[j])
            } else {
                (0, 0)
            };
            input.push_str(&format!(
                "{} {} {} {}\n",
                e / g.cols + 1,
                e % g.cols + 1,
                s / g.cols + 1,
                s % g.cols + 1
            ));
        }
        assert_eq!(
            judge(&p, &input, EngineChoice::Fast),
            judge(&p, &input, EngineChoice::Interp),
            "board {board}\ninput:\n{input}"
        );
    }
}

fn rejected(name: &str, text: &str) {
    let p = load(name, text);
    assert_eq!(fast_name(&p), None, "{name} must not select a fast path");
    let lv = p.inline_level(0).expect("level");
    match solve(&p.model, lv.clone(), EngineChoice::Fast, &Budget::default()) {
        Err(SolveError::NoFastPath(why)) => assert!(why.contains("huarong:"), "{why}"),
        other => panic!("{name}: expected NoFastPath, got {other:?}"),
    }
    let a = solve(&p.model, lv, EngineChoice::Auto, &Budget::default()).expect("auto");
    assert_eq!(a.engine, "interpreter");
}

#[test]
fn altered_rules_do_not_select_huarong() {
    let base = shipped();
    let variants = [
        (
            "token on fixed allowed",
            base.replace("forbid token on fixed\n", ""),
        ),
        (
            "blank on fixed allowed",
            base.replace("forbid blank on fixed\n", ""),
        ),
        ("a limit", base.replace("cost moves\n", "cost moves\nlimit 40\n")),
        (
            "an extra move",
            base.replace(
                "forbid blank on fixed",
                "move hop(d) {\n  letters \"NSWE\"\n  adds moves\n  swap blank d\n  swap blank d\n}\n\nforbid blank on fixed",
            ),
        ),
        (
            "two statements",
            base.replace("  swap blank d\n", "  swap blank d\n  swap blank d\n"),
        ),
        (
            "the goal is the blank's",
            base.replace("goal token on target", "goal blank on target"),
        ),
        (
            "diagonal direction",
            base.replace("e (0, 1) }", "e (1, 1) }"),
        ),
        ("outside is free", base.replace("marks {", "outside free\nmarks {")),
        (
            "a second goal",
            base.replace(
                "goal token on target",
                "goal token on target and blank on free",
            ),
        ),
    ];
    for (name, text) in &variants {
        assert_ne!(text, &base, "{name}: the edit did nothing");
        rejected(name, text);
    }
}
