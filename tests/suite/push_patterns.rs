//! Issue 25's pattern databases for pushing puzzles (`engine/heuristic/push.rs`) on
//! `puzzles/sokoban-boxes.puz`, against the fewest pushes left over whole state spaces of
//! seeded random rooms (every state the start reaches, distances found backwards from the
//! goal states over the moves' own successors):
//! - the tables derive from the rules (and not for a variant whose walks cost a push);
//! - the bound never exceeds the fewest pushes left, is infinite only where no goal is
//!   reachable, and drops by at most a push along every move (consistent);
//! - with at most four boxes a set holds every box, so the bound is exact: the fewest
//!   pushes left on every state a goal is reachable from, and infinite on every other;
//! - with five boxes (sets of four, the fifth by the matching) it is above the plain
//!   matching bound somewhere, which the same rooms measure with the tables left out.

use std::collections::{HashMap, VecDeque};

use puz::engine::{Expander, Successors};
use puz::search::{Budget, Space};
use puz::Puzzle;

const FILE: &str = "puzzles/sokoban-boxes.puz";
const UNREACHABLE: u32 = u32::MAX;

/// A room `rows` x `cols` inside walls, with inner walls and `boxes` boxes, as level
/// text: the boxes start on the goals and the man pulls them about at random, so that
/// most rooms can be solved (a box pulled onto another goal may leave one to fill).
pub(crate) fn room(rng: &mut fastrand::Rng, rows: usize, cols: usize, boxes: usize) -> String {
    let (h, w) = (rows + 2, cols + 2);
    let mut wall = vec![vec![true; w]; h];
    let mut free = vec![];
    for (r, row) in wall.iter_mut().enumerate().take(h - 1).skip(1) {
        for (c, cell) in row.iter_mut().enumerate().take(w - 1).skip(1) {
            if rng.u32(0..100) >= 10 {
                *cell = false;
                free.push((r, c));
            }
        }
    }
    rng.shuffle(&mut free);
    let goals: Vec<(usize, usize)> = free[1..=boxes].to_vec();
    let mut at = goals.clone();
    let mut man = free[0];
    for _ in 0..300 {
        let (dr, dc) = [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)][rng.usize(0..4)];
        let step = |(r, c): (usize, usize), k: i64| {
            ((r as i64 + dr * k) as usize, (c as i64 + dc * k) as usize)
        };
        let to = step(man, 1);
        if wall[to.0][to.1] || at.contains(&to) {
            continue;
        }
        let behind = step(man, -1);
        if rng.bool() {
            if let Some(b) = at.iter_mut().find(|b| **b == behind) {
                *b = man;
            }
        }
        man = to;
    }
    let mut g: Vec<Vec<u8>> = wall
        .iter()
        .map(|r| r.iter().map(|&x| if x { b'#' } else { b' ' }).collect())
        .collect();
    for &(r, c) in &goals {
        g[r][c] = b'.';
    }
    for &(r, c) in &at {
        g[r][c] = if g[r][c] == b'.' { b'*' } else { b'$' };
    }
    g[man.0][man.1] = if g[man.0][man.1] == b'.' { b'+' } else { b'@' };
    g.iter()
        .map(|r| String::from_utf8(r.clone()).expect("ascii") + "\n")
        .collect()
}

/// `text` (the rule file) with `level` appended as its last inline level.
fn with_level(text: &str, level: &str) -> Puzzle {
    let mut text = text.to_string();
    let body: String = level.lines().map(|r| format!("  {r}\n")).collect();
    text.push_str(&format!("\nlevel \"room\" \"\"\"\n{body}  \"\"\"\n"));
    Puzzle::load(FILE, text).unwrap_or_else(|d| panic!("{d:?}"))
}

/// Every state the start reaches, and per state its successors with what each move adds
/// to the pushes (a push moves the man and a box: more than one word changes).
type Graph = (Vec<Vec<u32>>, Vec<Vec<(usize, u32)>>);

fn graph(exp: &mut Expander) -> Graph {
    let words = Space::words(exp);
    let mut id: HashMap<Vec<u32>, usize> = HashMap::new();
    let mut states = vec![Space::start(exp)];
    id.insert(states[0].clone(), 0);
    let mut edges: Vec<Vec<(usize, u32)>> = vec![];
    let mut succ = Successors::default();
    let mut i = 0;
    while i < states.len() {
        let s = states[i].clone();
        Space::successors(exp, &s, &mut succ);
        let mut out = vec![];
        for (_, t) in succ.iter(words) {
            let j = *id.entry(t.to_vec()).or_insert_with(|| {
                states.push(t.to_vec());
                states.len() - 1
            });
            let changed = s.iter().zip(t).filter(|(a, b)| a != b).count();
            out.push((j, u32::from(changed > 1)));
        }
        edges.push(out);
        i += 1;
    }
    (states, edges)
}

/// The fewest pushes from every state to a goal state (0-1 breadth-first search over
/// the reversed moves), [`UNREACHABLE`] where none is reachable.
fn pushes_left(exp: &Expander, (states, edges): &Graph) -> Vec<u32> {
    let mut back: Vec<Vec<(usize, u32)>> = vec![vec![]; states.len()];
    for (i, out) in edges.iter().enumerate() {
        for &(j, c) in out {
            back[j].push((i, c));
        }
    }
    let mut dist = vec![UNREACHABLE; states.len()];
    let mut queue = VecDeque::new();
    for (i, s) in states.iter().enumerate() {
        if Space::is_goal(exp, s) {
            dist[i] = 0;
            queue.push_back(i);
        }
    }
    while let Some(j) = queue.pop_front() {
        for &(i, c) in &back[j] {
            if dist[j] + c < dist[i] {
                dist[i] = dist[j] + c;
                if c == 0 {
                    queue.push_front(i);
                } else {
                    queue.push_back(i);
                }
            }
        }
    }
    dist
}

/// Checks the bound on one room; returns (states, states where the tables' bound is
/// above the matching bound alone, states where it is exact), or `None` when the room
/// reaches no goal at all or gets no tables (nothing to measure).
fn check_room(text: &str, level: &str, exact: bool) -> Option<(usize, usize, usize)> {
    let puzzle = with_level(text, level);
    let last = puzzle.model.levels.len() - 1;
    let lv = puzzle.inline_level(last).expect("level");
    let mut plain = Expander::new(&puzzle.model, lv.clone(), &Budget::default()).expect("setup");
    plain
        .prepare_heuristic(&Budget::default())
        .expect("a goal on boxes gives a bound");
    let mut exp = Expander::new(&puzzle.model, lv, &Budget::default()).expect("setup");
    exp.prepare_heuristic(&Budget::default())
        .expect("a goal on boxes gives a bound");
    // A man walled in with fewer goal cells than a set's boxes gets no tables.
    let line = exp
        .prepare_push_patterns(&Budget::default())
        .expect("no budget")?;
    assert!(line.contains("pattern databases for pushes"), "{line}");
    let g = graph(&mut exp);
    let dist = pushes_left(&exp, &g);
    if dist[0] == UNREACHABLE {
        return None;
    }
    let (states, edges) = &g;
    let (mut above, mut tight) = (0, 0);
    let h: Vec<u32> = states.iter().map(|s| Space::estimate(&exp, s)).collect();
    for (i, s) in states.iter().enumerate() {
        let d = dist[i];
        assert!(
            h[i] == UNREACHABLE && d == UNREACHABLE || h[i] <= d,
            "bound {} above the fewest pushes {d} in\n{level}state {s:?}",
            h[i]
        );
        if exact {
            assert_eq!(h[i], d, "not exact in\n{level}state {s:?}");
        }
        if h[i] != UNREACHABLE {
            for &(j, c) in &edges[i] {
                assert!(
                    h[j] == UNREACHABLE || h[i] <= c + h[j],
                    "inconsistent: {} then {} after a move adding {c}, in\n{level}",
                    h[i],
                    h[j]
                );
            }
        }
        let m = Space::estimate(&plain, s);
        assert!(
            m == UNREACHABLE || h[i] >= m,
            "below the matching in\n{level}"
        );
        above += usize::from(h[i] != UNREACHABLE && h[i] > m);
        tight += usize::from(h[i] == d);
    }
    Some((states.len(), above, tight))
}

/// Checks `rooms` seeded random rooms of `rows` x `cols` (room `i` with `boxes(i)` boxes;
/// `exact`: the bound must equal the fewest pushes): at least `least` reach a goal, and
/// the tables beat the matching bound on some state.
fn check_rooms(
    seed: u64,
    rooms: usize,
    (rows, cols): (usize, usize),
    boxes: impl Fn(usize) -> usize,
    exact: bool,
    least: usize,
) {
    let text = std::fs::read_to_string(FILE).expect("read the rule file");
    let mut rng = fastrand::Rng::with_seed(seed);
    let (mut measured, mut above) = (0, 0);
    for i in 0..rooms {
        let level = room(&mut rng, rows, cols, boxes(i));
        if let Some((_, a, _)) = check_room(&text, &level, exact) {
            measured += 1;
            above += a;
        }
    }
    assert!(measured >= least, "only {measured} rooms reach a goal");
    assert!(above > 0, "the tables never beat the matching bound");
}

#[test]
fn push_tables_are_exact_with_four_boxes_or_fewer() {
    check_rooms(25, 16, (5, 5), |i| 2 + i % 3, true, 12);
}

#[test]
fn push_tables_never_overestimate_with_five_boxes() {
    check_rooms(2025, 8, (4, 5), |_| 5, false, 4);
}

/// Walks that cost a push break the tables' premise (a bound kept across walks): none
/// derive.
#[test]
fn no_push_tables_when_walks_cost_the_first_component() {
    let text = std::fs::read_to_string(FILE)
        .expect("read the rule file")
        .replace("cost pushes, walks", "cost moves")
        .replace("adds walks", "adds moves")
        .replace("adds pushes", "adds moves")
        .replace("expect 8, 25", "expect 33")
        .replace("expect 3, 13", "expect 16");
    let puzzle = with_level(&text, "#####\n#@$.#\n#.$ #\n#####\n");
    let last = puzzle.model.levels.len() - 1;
    let lv = puzzle.inline_level(last).expect("level");
    let mut exp = Expander::new(&puzzle.model, lv, &Budget::default()).expect("setup");
    exp.prepare_heuristic(&Budget::default()).expect("a bound");
    assert_eq!(
        exp.prepare_push_patterns(&Budget::default())
            .expect("no budget"),
        None
    );
}
