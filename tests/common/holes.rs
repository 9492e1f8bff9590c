//! Sokoban with holes (`puzzles/holes.puz`): a brute force and a random level generator
//! written from the corpus spec (`/work/shared/spec/corpus.md`, "holes.puz"), sharing
//! nothing with the crate:
//!
//! - `#` wall, `.` floor, `@` man, `$` box, `O` hole, `E` exit;
//! - the man walks onto a free cell (not a wall, a hole or a box) or pushes one box one
//!   cell; a box cannot push a box; there is no pulling;
//! - a box pushed into a hole falls in: the box is gone and the cell becomes floor;
//! - the goal is the man on an exit; every walk and push costs 1.
//!
//! The brute force is a breadth-first search over (man, sorted boxes, holes still open).

use std::collections::{HashSet, VecDeque};

/// Direction vectors (row, column) in the order `n s w e`.
pub const DIRS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// One move: the direction (index into [`DIRS`]) and whether it pushes a box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// Index into [`DIRS`].
    pub dir: usize,
    /// A push (a box is in front of the man) rather than a walk.
    pub push: bool,
}

/// A parsed level: the fixed cells and the start.
pub struct Level {
    h: i32,
    w: i32,
    /// Row-major symbols with pieces replaced by floor: `#`, `.`, `O`, `E`.
    cells: Vec<u8>,
    man: usize,
    boxes: Vec<usize>,
}

/// A position: the man, the boxes (sorted) and the holes not yet filled (sorted).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct State {
    man: usize,
    boxes: Vec<usize>,
    holes: Vec<usize>,
}

impl Level {
    /// Reads a level in the spec's notation (one row per line, blank lines ignored).
    pub fn parse(text: &str) -> Level {
        let rows: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let (h, w) = (rows.len(), rows[0].len());
        let mut cells = Vec::with_capacity(h * w);
        let (mut man, mut boxes) = (None, vec![]);
        for row in &rows {
            assert_eq!(row.len(), w, "ragged level");
            for ch in row.bytes() {
                let i = cells.len();
                cells.push(match ch {
                    b'@' => {
                        man = Some(i);
                        b'.'
                    }
                    b'$' => {
                        boxes.push(i);
                        b'.'
                    }
                    b'#' | b'.' | b'O' | b'E' => ch,
                    _ => panic!("unknown symbol {:?}", ch as char),
                });
            }
        }
        Level {
            h: h as i32,
            w: w as i32,
            cells,
            man: man.expect("no man"),
            boxes,
        }
    }

    fn step(&self, i: usize, d: usize) -> Option<usize> {
        let (r, c) = (i as i32 / self.w + DIRS[d].0, i as i32 % self.w + DIRS[d].1);
        (r >= 0 && c >= 0 && r < self.h && c < self.w).then(|| (r * self.w + c) as usize)
    }

    fn start(&self) -> State {
        let mut boxes = self.boxes.clone();
        boxes.sort_unstable();
        let holes = (0..self.cells.len())
            .filter(|&i| self.cells[i] == b'O')
            .collect();
        State {
            man: self.man,
            boxes,
            holes,
        }
    }

    /// The position after `m`, or `None` when the move is not allowed.
    fn apply(&self, s: &State, m: Move) -> Option<State> {
        let t = self.step(s.man, m.dir)?;
        if self.cells[t] == b'#' || s.holes.contains(&t) {
            return None;
        }
        let in_front = s.boxes.iter().position(|&b| b == t);
        match (in_front, m.push) {
            (None, false) => Some(State {
                man: t,
                ..s.clone()
            }),
            (Some(k), true) => {
                let t2 = self.step(t, m.dir)?;
                if self.cells[t2] == b'#' || s.boxes.contains(&t2) {
                    return None;
                }
                let mut next = State {
                    man: t,
                    ..s.clone()
                };
                next.boxes.remove(k);
                if let Some(h) = next.holes.iter().position(|&h| h == t2) {
                    next.holes.remove(h);
                } else {
                    next.boxes.push(t2);
                    next.boxes.sort_unstable();
                }
                Some(next)
            }
            _ => None,
        }
    }

    fn goal(&self, s: &State) -> bool {
        self.cells[s.man] == b'E'
    }

    /// The fewest moves to bring the man onto an exit, or `None`.
    pub fn solve(&self) -> Option<u64> {
        let start = self.start();
        let mut seen = HashSet::from([start.clone()]);
        let mut queue = VecDeque::from([(start, 0u64)]);
        while let Some((s, cost)) = queue.pop_front() {
            if self.goal(&s) {
                return Some(cost);
            }
            for dir in 0..4 {
                for push in [false, true] {
                    if let Some(n) = self.apply(&s, Move { dir, push }) {
                        if seen.insert(n.clone()) {
                            queue.push_back((n, cost + 1));
                        }
                    }
                }
            }
        }
        None
    }

    /// Plays `moves` from the start: `Err` names the first move that is not allowed or a
    /// path that does not end with the man on an exit; `Ok` is the cost.
    pub fn replay(&self, moves: &[Move]) -> Result<u64, String> {
        let mut s = self.start();
        for (k, &m) in moves.iter().enumerate() {
            s = self
                .apply(&s, m)
                .ok_or_else(|| format!("move {k} ({m:?}) is not allowed"))?;
        }
        if !self.goal(&s) {
            return Err("the man does not end on an exit".into());
        }
        Ok(moves.len() as u64)
    }
}

/// Moves from the letters of `puzzles/holes.puz`: walks `nswe`, pushes `NSWE`.
pub fn moves_from_letters(letters: &str) -> Vec<Move> {
    letters
        .chars()
        .map(|ch| Move {
            dir: "nswe"
                .find(ch.to_ascii_lowercase())
                .unwrap_or_else(|| panic!("unknown letter {ch:?}")),
            push: ch.is_ascii_uppercase(),
        })
        .collect()
}

/// A random small level: walls, one to three boxes, one to three holes, one or two exits.
pub fn random_level(rng: &mut fastrand::Rng) -> String {
    let (h, w) = (rng.usize(2..=5), rng.usize(3..=6));
    let mut g: Vec<u8> = (0..h * w)
        .map(|_| if rng.u8(0..100) < 12 { b'#' } else { b'.' })
        .collect();
    let mut free: Vec<usize> = (0..h * w).filter(|&i| g[i] == b'.').collect();
    rng.shuffle(&mut free);
    let (boxes, holes, exits) = (rng.usize(1..=3), rng.usize(1..=3), rng.usize(1..=2));
    if free.len() < 1 + boxes + holes + exits {
        return random_level(rng);
    }
    let mut it = free.into_iter();
    g[it.next().unwrap()] = b'@';
    for (n, ch) in [(boxes, b'$'), (holes, b'O'), (exits, b'E')] {
        for _ in 0..n {
            g[it.next().unwrap()] = ch;
        }
    }
    g.chunks(w)
        .map(|r| String::from_utf8(r.to_vec()).unwrap() + "\n")
        .collect()
}
