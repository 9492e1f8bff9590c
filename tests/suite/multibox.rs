//! Sokoban with several interchangeable boxes (`puzzles/sokoban-boxes.puz`): the
//! interpreter's anonymous pieces against an independent Dijkstra over (man, sorted boxes)
//! with cost (pushes, walks), on seeded random rooms; every path is replayed here.

use crate::common;

use std::collections::{BTreeMap, BinaryHeap, HashMap};

use puz::search::{Budget, Outcome};
use puz::solver::{path_cost, solve, EngineChoice};

type State = (usize, Vec<usize>);

/// Fewest (pushes, walks) to put every box on a goal, or `None`.
fn reference(rows: &[Vec<u8>]) -> Option<(u64, u64)> {
    let (h, w) = (rows.len(), rows[0].len());
    let at = |r: usize, c: usize| rows[r][c];
    let mut man = 0;
    let mut boxes = vec![];
    let mut goals = vec![];
    for r in 0..h {
        for c in 0..w {
            let i = r * w + c;
            match at(r, c) {
                b'@' => man = i,
                b'+' => {
                    man = i;
                    goals.push(i)
                }
                b'$' => boxes.push(i),
                b'*' => {
                    boxes.push(i);
                    goals.push(i)
                }
                b'.' => goals.push(i),
                _ => {}
            }
        }
    }
    boxes.sort_unstable();
    let free = |i: usize| at(i / w, i % w) != b'#';
    let step = |i: usize, d: usize| -> Option<usize> {
        let (r, c) = ((i / w) as i64, (i % w) as i64);
        let (dr, dc) = [(-1, 0), (1, 0), (0, -1), (0, 1)][d];
        let (nr, nc) = (r + dr, c + dc);
        (nr >= 0 && nc >= 0 && (nr as usize) < h && (nc as usize) < w)
            .then(|| nr as usize * w + nc as usize)
    };
    let mut best: HashMap<State, (u64, u64)> = HashMap::new();
    let mut heap = BinaryHeap::new();
    let start: State = (man, boxes);
    best.insert(start.clone(), (0, 0));
    heap.push(std::cmp::Reverse(((0u64, 0u64), start)));
    while let Some(std::cmp::Reverse((cost, (m, bs)))) = heap.pop() {
        if best.get(&(m, bs.clone())) != Some(&cost) {
            continue;
        }
        if bs.iter().all(|b| goals.contains(b)) {
            return Some(cost);
        }
        for d in 0..4 {
            let Some(t) = step(m, d) else { continue };
            if !free(t) {
                continue;
            }
            let (next, c) = if let Some(k) = bs.iter().position(|&b| b == t) {
                let Some(t2) = step(t, d) else { continue };
                if !free(t2) || bs.contains(&t2) {
                    continue;
                }
                let mut nb = bs.clone();
                nb[k] = t2;
                nb.sort_unstable();
                ((t, nb), (cost.0 + 1, cost.1))
            } else {
                ((t, bs.clone()), (cost.0, cost.1 + 1))
            };
            if best.get(&next).is_none_or(|&old| c < old) {
                best.insert(next.clone(), c);
                heap.push(std::cmp::Reverse((c, next)));
            }
        }
    }
    None
}

/// Replays a path with the rules of this file; returns (pushes, walks) and whether every
/// box ends on a goal.
fn replay(rows: &[Vec<u8>], path: &str) -> ((u64, u64), bool) {
    let (h, w) = (rows.len() as i64, rows[0].len() as i64);
    let mut man = (0, 0);
    let mut boxes: BTreeMap<(i64, i64), ()> = BTreeMap::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, &ch) in row.iter().enumerate() {
            let p = (r as i64, c as i64);
            if ch == b'@' || ch == b'+' {
                man = p;
            }
            if ch == b'$' || ch == b'*' {
                boxes.insert(p, ());
            }
        }
    }
    let wall = |(r, c): (i64, i64)| {
        r < 0 || c < 0 || r >= h || c >= w || rows[r as usize][c as usize] == b'#'
    };
    let mut cost = (0, 0);
    for ch in path.chars() {
        let (dr, dc) = match ch.to_ascii_lowercase() {
            'n' => (-1, 0),
            's' => (1, 0),
            'w' => (0, -1),
            _ => (0, 1),
        };
        let t = (man.0 + dr, man.1 + dc);
        assert!(!wall(t), "walks into a wall: {path}");
        if ch.is_ascii_uppercase() {
            assert!(boxes.remove(&t).is_some(), "pushes no box: {path}");
            let t2 = (t.0 + dr, t.1 + dc);
            assert!(!wall(t2) && !boxes.contains_key(&t2), "box blocked: {path}");
            boxes.insert(t2, ());
            cost.0 += 1;
        } else {
            assert!(!boxes.contains_key(&t), "walks into a box: {path}");
            cost.1 += 1;
        }
        man = t;
    }
    let done = boxes
        .keys()
        .all(|&(r, c)| matches!(rows[r as usize][c as usize], b'.' | b'*' | b'+'));
    (cost, done)
}

/// A random room with walls, two or three boxes and as many goals.
fn room(rng: &mut fastrand::Rng) -> Vec<Vec<u8>> {
    let (h, w) = (rng.usize(3..=6), rng.usize(3..=6));
    let mut g: Vec<Vec<u8>> = (0..h)
        .map(|_| {
            (0..w)
                .map(|_| if rng.u8(0..100) < 8 { b'#' } else { b' ' })
                .collect()
        })
        .collect();
    let mut cells: Vec<(usize, usize)> = (0..h)
        .flat_map(|r| (0..w).map(move |c| (r, c)))
        .filter(|&(r, c)| g[r][c] == b' ')
        .collect();
    rng.shuffle(&mut cells);
    let n = if rng.u8(0..4) == 0 { 3 } else { 2 };
    if cells.len() < 2 * n + 1 {
        return room(rng);
    }
    g[cells[0].0][cells[0].1] = b'@';
    for k in 0..n {
        let (r, c) = cells[1 + k];
        g[r][c] = b'$';
        let (r, c) = cells[1 + n + k];
        g[r][c] = b'.';
    }
    g
}

#[test]
fn random_rooms_match_the_reference() {
    let text = std::fs::read_to_string("puzzles/sokoban-boxes.puz").expect("read");
    let puzzle = puz::Puzzle::load("puzzles/sokoban-boxes.puz", text).expect("load");
    let mut rng = fastrand::Rng::with_seed(0x00b0_c5e5);
    let (mut solved, mut unsolved) = (0, 0);
    for i in 0..400 {
        let g = room(&mut rng);
        let text: String = g
            .iter()
            .map(|r| String::from_utf8(r.clone()).unwrap() + "\n")
            .collect();
        let level = puzzle
            .level_from_file("room", text.clone())
            .unwrap_or_else(|d| panic!("#{i}: {}", d.render_plain(80)));
        let want = reference(&g);
        let (_, found) =
            common::drive::solve_level(&puzzle, level, EngineChoice::Auto, &format!("#{i}"));
        match found {
            Some((cost, letters)) => {
                let (replayed, done) = replay(&g, &letters);
                assert!(done, "#{i}: path does not finish:\n{text}{letters}");
                assert_eq!(Some((cost[0], cost[1])), want, "#{i}:\n{text}{letters}");
                assert_eq!(
                    replayed,
                    (cost[0], cost[1]),
                    "#{i}: claimed cost differs from the replay"
                );
                solved += 1;
            }
            None => {
                assert_eq!(want, None, "#{i}: puz says unsolvable:\n{text}");
                unsolved += 1;
            }
        }
    }
    assert!(
        solved > 40 && unsolved > 20,
        "solved {solved}, unsolved {unsolved}"
    );
}

#[test]
fn shipped_levels() {
    let text = std::fs::read_to_string("puzzles/sokoban-boxes.puz").expect("read");
    let puzzle = puz::Puzzle::load("puzzles/sokoban-boxes.puz", text).expect("load");
    let mut found = vec![];
    for i in 0..puzzle.model.levels.len() {
        let level = puzzle.inline_level(i).expect("level");
        let ans =
            solve(&puzzle.model, level, EngineChoice::Auto, &Budget::default()).expect("solve");
        found.push(match ans.outcome {
            Outcome::Solved(p) => Some(path_cost(&puzzle.model, &p.actions)),
            _ => None,
        });
    }
    let rows = |l: usize| -> Vec<Vec<u8>> {
        puzzle.model.levels[l]
            .rows
            .iter()
            .map(|r| r.replace('_', " ").into_bytes())
            .collect()
    };
    for (l, f) in found.iter().enumerate() {
        assert_eq!(
            f.as_ref().map(|c| (c[0], c[1])),
            reference(&rows(l)),
            "level {l}"
        );
    }
}
