//! Metrics (`metric NAME { straight M  chain N }`): counted moves against an independent
//! brute force, the shipped answers, and the answer's shape.
//!
//! The brute forces here search positions of the references in `tests/common` (Klotski's
//! shape grids, Rush Hour's vehicle positions) with macro moves written in this file: a
//! slide is one piece repeating one step while it can, a path is every position one piece
//! reaches by its own steps. Breadth-first search over those gives the fewest counted
//! moves, which puz must match on seeded random levels; puz's path, unit step by unit
//! step, must replay in the reference, and each of its counted moves must be one macro
//! move (one piece, and for a slide one direction).

use crate::common;
use crate::common::binary;

use std::collections::{HashMap, HashSet, VecDeque};

use binary::{puz, stderr, stdout};
use common::{klotski, rushhour};
use puz::engine::{Expander, MoveDescription};
use puz::search::{Budget, Outcome};
use puz::solver::{EngineChoice, SearchChoice, Solver};
use puz::Puzzle;

fn load(path: &str) -> Puzzle {
    let text = std::fs::read_to_string(path).expect("read the puzzle");
    Puzzle::load(path, text).unwrap_or_else(|d| panic!("{d:?}"))
}

/// Solves level text under metric `name`: the counted cost and each counted move's unit
/// steps, described; `None` when there is no solution.
fn solve_counted(p: &Puzzle, text: &str, name: &str) -> Option<(u64, Vec<Vec<MoveDescription>>)> {
    let model = &p.model;
    let metric = model.metric_index(name).expect("the metric exists");
    let level = p
        .level_from_file("random", text.to_string())
        .unwrap_or_else(|d| panic!("valid level rejected:\n{text}\n{d:?}"));
    let ans = Solver::for_metric(model, EngineChoice::Auto, SearchChoice::Auto, Some(metric))
        .and_then(|mut s| s.solve(level.clone(), &Budget::default(), true))
        .unwrap_or_else(|e| panic!("solve failed: {e}\n{text}"));
    let path = match ans.outcome {
        Outcome::Solved(path) => path,
        Outcome::Unsolvable => return None,
        other => panic!("unbudgeted solve gave {other:?}"),
    };
    let counted = ans.counted.expect("a metric's answer is grouped");
    assert_eq!(counted.metric, name);
    let cost = puz::engine::compound::counted_cost(model, &path.actions, &counted.groups);
    let exp = Expander::new(model, level, &Budget::default()).expect("setup");
    let described = exp.describe_path(&path.states, &path.actions);
    let mut groups = vec![];
    let mut k = 0;
    for len in counted.groups {
        groups.push(described[k..k + len].to_vec());
        k += len;
    }
    assert_eq!(k, described.len());
    Some((cost[0], groups))
}

/// Breadth-first search over positions with `next` giving the macro successors: the fewest
/// macro moves to a goal.
fn macro_bfs<P: Clone + Eq + std::hash::Hash>(
    start: P,
    goal: impl Fn(&P) -> bool,
    next: impl Fn(&P) -> Vec<P>,
) -> Option<u64> {
    let mut dist: HashMap<P, u64> = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert(start.clone(), 0);
    queue.push_back(start);
    while let Some(p) = queue.pop_front() {
        let d = dist[&p];
        if goal(&p) {
            return Some(d);
        }
        for q in next(&p) {
            if !dist.contains_key(&q) {
                dist.insert(q.clone(), d + 1);
                queue.push_back(q);
            }
        }
    }
    None
}

/// Klotski's slides: every piece, every direction, one to as many steps as it can go.
fn klotski_slides(level: &klotski::Level, g: &klotski::Grid) -> Vec<klotski::Grid> {
    let mut out = vec![];
    for (_, at) in level.pieces(g) {
        for dir in 0..4 {
            let (mut cur, mut corner) = (g.clone(), at);
            while let Some((m, next)) = level
                .successors(&cur)
                .into_iter()
                .find(|(m, _)| m.from == corner && m.dir == dir)
            {
                let d = klotski::DIRS[m.dir];
                corner = (corner.0 + d.0, corner.1 + d.1);
                cur = next;
                out.push(cur.clone());
            }
        }
    }
    out
}

/// Klotski's paths: every position one piece reaches by its own steps.
fn klotski_paths(level: &klotski::Level, g: &klotski::Grid) -> Vec<klotski::Grid> {
    let mut out = vec![];
    for (_, at) in level.pieces(g) {
        let mut seen: HashSet<klotski::Grid> = HashSet::from([g.clone()]);
        let mut queue = VecDeque::from([(g.clone(), at)]);
        while let Some((cur, corner)) = queue.pop_front() {
            for (m, next) in level.successors(&cur) {
                if m.from != corner || !seen.insert(next.clone()) {
                    continue;
                }
                let d = klotski::DIRS[m.dir];
                out.push(next.clone());
                queue.push_back((next, (corner.0 + d.0, corner.1 + d.1)));
            }
        }
    }
    out
}

/// The unit moves of a counted move in the Klotski reference's terms, checking that they
/// form one macro move: one piece throughout, and one direction for a slide.
fn klotski_group(group: &[MoveDescription], straight: bool) -> Vec<klotski::Move> {
    let moves: Vec<klotski::Move> = group
        .iter()
        .map(|d| {
            let m = d.main().expect("a Klotski move moves a piece");
            let (f, t) = (m.from.expect("from"), m.to.expect("to"));
            klotski::Move::between((f.0 as i32, f.1 as i32), (t.0 as i32, t.1 as i32))
                .expect("a one-cell step")
        })
        .collect();
    for w in moves.windows(2) {
        let d = klotski::DIRS[w[0].dir];
        let end = (w[0].from.0 + d.0, w[0].from.1 + d.1);
        assert_eq!(w[1].from, end, "a counted move changes piece: {group:?}");
        if straight {
            assert_eq!(w[1].dir, w[0].dir, "a slide turns: {group:?}");
        }
    }
    moves
}

#[test]
fn klotski_metrics_match_the_brute_force_on_random_trays() {
    let p = load("puzzles/klotski.puz");
    let mut rng = fastrand::Rng::with_seed(10);
    let (mut solved, mut unsolvable) = (0, 0);
    let mut case = 0;
    while solved < 24 {
        case += 1;
        // Most random trays have no way out: a few of those are enough.
        let (level, unit) = klotski::random_level(&mut rng, 1500);
        if unit.is_none() {
            if unsolvable == 4 {
                continue;
            }
            unsolvable += 1;
        }
        let text = level.text(&mut rng);
        for (name, straight) in [("slides", true), ("paths", false)] {
            let want = macro_bfs(
                level.start.clone(),
                |g| level.is_goal(g),
                |g| {
                    if straight {
                        klotski_slides(&level, g)
                    } else {
                        klotski_paths(&level, g)
                    }
                },
            );
            let got = solve_counted(&p, &text, name);
            assert_eq!(
                got.as_ref().map(|g| g.0),
                want,
                "case {case}, metric {name}:\n{text}"
            );
            if let Some((cost, groups)) = got {
                solved += 1;
                assert_eq!(groups.len() as u64, cost);
                let units: Vec<klotski::Move> = groups
                    .iter()
                    .flat_map(|g| klotski_group(g, straight))
                    .collect();
                let (_, at_goal) = level
                    .replay(&units)
                    .unwrap_or_else(|e| panic!("case {case}, {name}: {e}\n{text}"));
                assert!(at_goal, "case {case}, {name}: the path misses the goal");
            }
        }
    }
}

/// Rush Hour's cells taken in `pos` (walls and vehicles), from the reference's fields.
fn taken(l: &rushhour::Level, pos: &[i32]) -> Vec<bool> {
    let mut t = l.wall.clone();
    for (v, &p) in pos.iter().enumerate() {
        let veh = l.vehicles[v];
        for k in p..p + veh.len {
            let (r, c) = if veh.horizontal {
                (veh.line, k)
            } else {
                (k, veh.line)
            };
            t[(r * l.cols + c) as usize] = true;
        }
    }
    t
}

/// Rush Hour's slides: every vehicle, both ways along its axis, as far as it can go.
fn rushhour_slides(l: &rushhour::Level, pos: &[i32]) -> Vec<Vec<i32>> {
    let t = taken(l, pos);
    let mut out = vec![];
    for (v, &p) in pos.iter().enumerate() {
        let veh = l.vehicles[v];
        let limit = if veh.horizontal { l.cols } else { l.rows };
        for delta in [-1, 1] {
            let mut q = p;
            loop {
                let k = if delta < 0 { q - 1 } else { q + veh.len };
                if k < 0 || k >= limit {
                    break;
                }
                let (r, c) = if veh.horizontal {
                    (veh.line, k)
                } else {
                    (k, veh.line)
                };
                if t[(r * l.cols + c) as usize] {
                    break;
                }
                q += delta;
                let mut next = pos.to_vec();
                next[v] = q;
                out.push(next);
            }
        }
    }
    out
}

#[test]
fn rushhour_slides_match_the_brute_force_on_random_lots() {
    let p = load("puzzles/rushhour.puz");
    let mut rng = fastrand::Rng::with_seed(10);
    let mut solved = 0;
    for case in 0..40 {
        let level = rushhour::random_level(&mut rng);
        let text = level.text();
        let want = macro_bfs(
            level.start.clone(),
            |pos| level.is_goal(pos),
            |pos| rushhour_slides(&level, pos),
        );
        let got = solve_counted(&p, &text, "slides");
        assert_eq!(got.as_ref().map(|g| g.0), want, "case {case}:\n{text}");
        let Some((cost, groups)) = got else {
            continue;
        };
        solved += 1;
        assert_eq!(groups.len() as u64, cost);
        let mut units = vec![];
        for g in &groups {
            let moves: Vec<rushhour::Move> = g
                .iter()
                .map(|d| {
                    let m = d.main().expect("a step moves a vehicle");
                    let (f, t) = (m.from.expect("from"), m.to.expect("to"));
                    rushhour::Move::between((f.0 as i32, f.1 as i32), (t.0 as i32, t.1 as i32))
                        .expect("a one-cell step")
                })
                .collect();
            for w in moves.windows(2) {
                let d = rushhour::DIRS[w[0].dir];
                assert_eq!(w[1].from, (w[0].from.0 + d.0, w[0].from.1 + d.1));
                assert_eq!(w[1].dir, w[0].dir, "a slide turns: {g:?}");
            }
            units.extend(moves);
        }
        let (_, at_goal) = level
            .replay(&units)
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{text}"));
        assert!(at_goal, "case {case}: the path misses the goal\n{text}");
    }
    assert!(solved >= 10, "too few solvable lots: {solved}");
}

#[test]
fn the_shipped_expectations_pass_under_every_metric() {
    let o = puz(&["test", "puzzles/klotski.puz", "puzzles/rushhour.puz"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    for line in [
        "pass  puzzles/klotski.puz \"classic\": 116 moves",
        "pass  puzzles/klotski.puz \"classic\" [slides]: 90 moves",
        "pass  puzzles/klotski.puz \"classic\" [paths]: 81 moves",
        "pass  puzzles/rushhour.puz \"hardest 6x6\": 103 steps",
        "pass  puzzles/rushhour.puz \"hardest 6x6\" [slides]: 60 steps",
    ] {
        assert!(out.contains(line), "missing {line:?} in\n{out}");
    }
}

#[test]
fn a_wrong_expectation_under_a_metric_fails_naming_it() {
    let text = std::fs::read_to_string("puzzles/rushhour.puz")
        .expect("read")
        .replace("expect slides 60", "expect slides 59");
    let f = binary::TempFile::new("metric-fail", &text);
    let o = puz(&["test", f.path()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("\"hardest 6x6\" [slides]: expected 59 steps, got 60 steps"),
        "{out}"
    );
    assert!(out.contains("\"hardest 6x6\": 103 steps"), "{out}");
}

#[test]
fn text_answers_show_counted_moves_with_their_unit_steps() {
    let o = puz(&[
        "solve",
        "puzzles/rushhour.puz",
        "--level",
        "one truck in the way",
        "--metric",
        "slides",
        "--steps",
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    for line in [
        "cost: 2 steps (metric slides: 2 counted moves, 7 unit steps)\n",
        "unit steps (7): sssEEEE",
        "1. drive car (0,2) -> (3,2) sss",
        "2. drive_red red (2,0) -> (2,4) EEEE",
        "\n1: drive car (0,2) -> (3,2) sss\n1.1: drive car (0,2) s (s)\n",
        "\n2.4: drive_red red (2,3) e (E)\n",
    ] {
        assert!(out.contains(line), "missing {line:?} in\n{out}");
    }
    // One board per unit step, after the start.
    assert_eq!(out.matches("ooooAA").count(), 1, "{out}");
}

#[test]
fn json_answers_group_unit_steps_under_counted_moves() {
    let o = puz(&[
        "solve",
        "puzzles/klotski.puz",
        "--metric",
        "paths",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["metric"], "paths");
    assert_eq!(v["cost"]["moves"], 81);
    assert_eq!(v["move_count"], 81);
    let moves = v["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 81);
    let units: usize = moves
        .iter()
        .map(|m| m["steps"].as_array().expect("steps").len())
        .sum();
    assert_eq!(v["unit_steps"], units);
    assert_eq!(v["path"].as_str().expect("path").len(), units);
    for m in moves {
        let steps = m["steps"].as_array().expect("steps");
        assert_eq!(m["from"], steps[0]["from"]);
        assert_eq!(m["to"], steps[steps.len() - 1]["to"]);
        assert_eq!(m["move"], steps[0]["move"]);
        let letters: String = steps
            .iter()
            .map(|s| s["letter"].as_str().expect("letter"))
            .collect();
        assert_eq!(m["letters"], letters);
    }
}

#[test]
fn searches_that_cannot_count_moves_are_refused() {
    for search in ["astar", "bidir", "iddfs", "dfs", "layered"] {
        let o = puz(&[
            "solve",
            "puzzles/rushhour.puz",
            "--metric",
            "slides",
            "--search",
            search,
        ]);
        assert_eq!(o.status.code(), Some(5), "{search}: {}", stderr(&o));
        assert!(stderr(&o).contains("does not run under metric `slides`"));
    }
    let o = puz(&["solve", "puzzles/rushhour.puz", "--metric", "sliding"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("its metrics: slides"), "{}", stderr(&o));
    // Dijkstra counts the same.
    let o = puz(&[
        "solve",
        "puzzles/rushhour.puz",
        "--metric",
        "slides",
        "--search",
        "dijkstra",
    ]);
    assert!(stdout(&o).contains("cost: 60 steps"), "{}", stdout(&o));
}

#[test]
fn analyze_counts_the_graph_of_counted_moves() {
    let o = puz(&["analyze", "puzzles/rushhour.puz", "--metric", "slides"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains("reachable states: 2332"), "{out}");
    assert!(out.contains("fewest moves to a goal: 60"), "{out}");
    let o = puz(&[
        "graph",
        "puzzles/rushhour.puz",
        "--level",
        "small lot",
        "--metric",
        "slides",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A one-man serpentine through `n` x `n` cells: one counted move under `chain`, whose
/// closure walks the whole board.
fn serpentine(n: usize) -> (String, String) {
    let rules = "tiles { floor wall }\nmarks { exit }\npiece man\n\
        legend { '.' floor  '#' wall  'M' floor + man  'E' floor + exit }\n\
        dirs { n (-1, 0)  s (1, 0)  w (0, -1)  e (0, 1) }\n\
        metric paths { chain walk }\nmove walk(d) { shift man d }\n\
        forbid man on wall\ngoal man on exit\n";
    let mut rows = vec![vec![b'.'; n]; n];
    rows[0][0] = b'M';
    for (r, row) in rows.iter_mut().enumerate().take(n - 1).skip(1) {
        if r % 2 == 1 {
            row.fill(b'#');
            row[if (r / 2) % 2 == 0 { n - 1 } else { 0 }] = b'.';
        }
    }
    rows[n - 1][n - 1] = b'E';
    let level: String = rows
        .into_iter()
        .map(|r| String::from_utf8(r).expect("ASCII") + "\n")
        .collect();
    (rules.to_string(), level)
}

#[test]
fn long_closures_answer_and_stop_at_the_deadline() {
    let (rules, level) = serpentine(201);
    let r = binary::TempFile::new("serpentine", &rules);
    let l = binary::TempFile::new("serpentine-level", &level);
    let o = puz(&["solve", r.path(), l.path(), "--metric", "paths", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["move_count"], 1);
    let plain = puz(&["solve", r.path(), l.path(), "--json"]);
    let p: serde_json::Value = serde_json::from_str(&stdout(&plain)).expect("JSON");
    assert_eq!(
        v["unit_steps"], p["move_count"],
        "the one counted move is a shortest walk"
    );
    // A closure longer than the time limit stops at it (a million cells: longer than
    // 0.1 s on any machine, in debug and release builds alike).
    let (rules, level) = serpentine(1001);
    let r = binary::TempFile::new("serpentine", &rules);
    let l = binary::TempFile::new("serpentine-level", &level);
    let t0 = std::time::Instant::now();
    let o = puz(&[
        "solve",
        r.path(),
        l.path(),
        "--metric",
        "paths",
        "--timeout",
        "0.1",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(t0.elapsed().as_secs_f64() < 5.0, "{:?}", t0.elapsed());
}

#[test]
fn bfs_and_dijkstra_give_the_same_counted_answer() {
    // Both follow the tie rule over counted moves (Dijkstra compares them by their rank
    // among a state's counted moves, BFS finds them in that order): the same unit steps,
    // grouped the same way.
    let p = load("puzzles/klotski.puz");
    let model = &p.model;
    let mut rng = fastrand::Rng::with_seed(11);
    let mut compared = 0;
    while compared < 8 {
        let (level, unit) = klotski::random_level(&mut rng, 800);
        if unit.is_none() {
            continue;
        }
        let text = level.text(&mut rng);
        for name in ["slides", "paths"] {
            let metric = model.metric_index(name);
            let run = |b: puz::search::Backend| {
                let lvl = p.level_from_file("random", text.clone()).expect("level");
                let ans =
                    Solver::for_metric(model, EngineChoice::Auto, SearchChoice::Backend(b), metric)
                        .and_then(|mut s| s.solve(lvl, &Budget::default(), true))
                        .expect("solves");
                let Outcome::Solved(path) = ans.outcome else {
                    panic!("solvable:\n{text}");
                };
                (path.actions, ans.counted.expect("grouped").groups)
            };
            let bfs = run(puz::search::Backend::Bfs);
            let dijkstra = run(puz::search::Backend::Dijkstra);
            assert_eq!(bfs, dijkstra, "metric {name}:\n{text}");
        }
        compared += 1;
    }
}

#[test]
fn every_level_solves_under_a_metric_with_all() {
    let o = puz(&[
        "solve",
        "puzzles/klotski.puz",
        "--all",
        "--metric",
        "slides",
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    for row in [
        "classic   90 moves",
        "corner    12 moves",
        "stuck     no solution",
    ] {
        assert!(out.contains(row), "missing {row:?} in\n{out}");
    }
}
