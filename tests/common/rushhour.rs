//! Rush Hour (`puzzles/rushhour.puz`; rules in `/work/shared/spec/corpus.md`): an
//! independent breadth-first search, a move replayer and random levels, sharing no code
//! with the crate.
//!
//! Fogleman's notation, one row per line: `o` empty, `x` a wall, `A` the red car, any
//! other letter one vehicle (all cells of a letter are that vehicle; its cells give its
//! length and axis). A step moves one vehicle one cell along its own axis into an empty
//! cell. Goal: the red car's rightmost cell in the last column. Cost: steps.

use std::collections::{HashMap, VecDeque};

/// Direction vectors in the order n, s, w, e.
pub const DIRS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// One vehicle: its fixed line (the row of a horizontal vehicle, the column of a vertical
/// one), its axis and its length. Its position in a state is its first cell along the axis.
#[derive(Clone, Copy, Debug)]
pub struct Vehicle {
    pub horizontal: bool,
    pub line: i32,
    pub len: i32,
}

/// A board: walls, the vehicles (the red car first) and their start positions.
#[derive(Clone, Debug)]
pub struct Level {
    pub rows: i32,
    pub cols: i32,
    pub wall: Vec<bool>,
    pub vehicles: Vec<Vehicle>,
    pub start: Vec<i32>,
}

/// One step: the vehicle whose top-left cell is `from` moves one cell along `DIRS[dir]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub from: (i32, i32),
    pub dir: usize,
}

impl Move {
    /// The move of the vehicle anchored on `from` to `to`, one cell away along one of
    /// [`DIRS`], or `None` when `to` is not such a cell.
    pub fn between(from: (i32, i32), to: (i32, i32)) -> Option<Move> {
        let d = ((to.0 - from.0), (to.1 - from.1));
        let dir = DIRS.iter().position(|&v| v == d)?;
        Some(Move { from, dir })
    }
}

/// The default level of `puzzles/rushhour.puz`.
pub const CLASSIC: &str = "IBBxoo\nIooLDD\nJAALoo\nJoKEEM\nFFKooM\nGGHHHM\n";

impl Level {
    /// Reads Fogleman's notation (rows separated by newlines or spaces, or one line of
    /// 36 characters for a 6x6 board).
    pub fn parse(text: &str) -> Level {
        let mut rows: Vec<String> = text.split_whitespace().map(String::from).collect();
        if rows.len() == 1 && rows[0].len() == 36 {
            let line = rows.remove(0);
            rows = (0..6).map(|r| line[r * 6..r * 6 + 6].to_string()).collect();
        }
        let (h, w) = (rows.len() as i32, rows[0].len() as i32);
        let mut cells: HashMap<u8, Vec<(i32, i32)>> = HashMap::new();
        let mut wall = vec![false; (h * w) as usize];
        for (r, row) in rows.iter().enumerate() {
            assert_eq!(row.len() as i32, w, "ragged level:\n{text}");
            for (c, ch) in row.bytes().enumerate() {
                match ch {
                    b'o' | b'.' => {}
                    b'x' => wall[r * w as usize + c] = true,
                    b'A'..=b'Z' => cells.entry(ch).or_default().push((r as i32, c as i32)),
                    _ => panic!("unknown symbol {:?}", ch as char),
                }
            }
        }
        let mut letters: Vec<u8> = cells.keys().copied().collect();
        letters.sort_unstable_by_key(|&l| (l != b'A', l));
        assert_eq!(letters.first(), Some(&b'A'), "no red car:\n{text}");
        let mut l = Level {
            rows: h,
            cols: w,
            wall,
            vehicles: vec![],
            start: vec![],
        };
        for letter in letters {
            let cs = &cells[&letter];
            let horizontal = cs.iter().all(|p| p.0 == cs[0].0);
            assert!(
                cs.len() >= 2 && (horizontal || cs.iter().all(|p| p.1 == cs[0].1)),
                "vehicle {} is not a line",
                letter as char
            );
            l.vehicles.push(Vehicle {
                horizontal,
                line: if horizontal { cs[0].0 } else { cs[0].1 },
                len: cs.len() as i32,
            });
            let first = cs
                .iter()
                .map(|&(r, c)| if horizontal { c } else { r })
                .min();
            l.start.push(first.unwrap());
        }
        assert!(l.vehicles[0].horizontal, "the red car lies horizontally");
        l
    }

    /// The cells of vehicle `v` at position `p`.
    fn cells(&self, v: usize, p: i32) -> impl Iterator<Item = (i32, i32)> {
        let Vehicle {
            horizontal,
            line,
            len,
        } = self.vehicles[v];
        (p..p + len).map(move |k| if horizontal { (line, k) } else { (k, line) })
    }

    /// Which cells are taken (walls and vehicles) in `pos`.
    fn occupancy(&self, pos: &[i32]) -> Vec<bool> {
        let mut taken = self.wall.clone();
        for (v, &p) in pos.iter().enumerate() {
            for (r, c) in self.cells(v, p) {
                taken[(r * self.cols + c) as usize] = true;
            }
        }
        taken
    }

    /// The position after vehicle `v` steps by `delta` (-1 or 1) along its axis, or
    /// `None` when the cell it enters is off the board or taken.
    fn step(&self, pos: &[i32], taken: &[bool], v: usize, delta: i32) -> Option<Vec<i32>> {
        let p = pos[v];
        let Vehicle {
            horizontal,
            line,
            len,
        } = self.vehicles[v];
        let k = if delta < 0 { p - 1 } else { p + len };
        let limit = if horizontal { self.cols } else { self.rows };
        if k < 0 || k >= limit {
            return None;
        }
        let (r, c) = if horizontal { (line, k) } else { (k, line) };
        if taken[(r * self.cols + c) as usize] {
            return None;
        }
        let mut next = pos.to_vec();
        next[v] += delta;
        Some(next)
    }

    /// The red car's rightmost cell is in the last column.
    pub fn is_goal(&self, pos: &[i32]) -> bool {
        pos[0] + self.vehicles[0].len == self.cols
    }

    /// Breadth-first search: the fewest steps to the goal (`None` if unreachable) and the
    /// number of positions reachable from the start.
    pub fn solve(&self) -> (Option<u64>, usize) {
        let mut dist: HashMap<Vec<i32>, u64> = HashMap::new();
        let mut queue = VecDeque::new();
        dist.insert(self.start.clone(), 0);
        queue.push_back(self.start.clone());
        let mut best = None;
        while let Some(pos) = queue.pop_front() {
            let d = dist[&pos];
            if best.is_none() && self.is_goal(&pos) {
                best = Some(d);
            }
            let taken = self.occupancy(&pos);
            for v in 0..pos.len() {
                for delta in [-1, 1] {
                    if let Some(next) = self.step(&pos, &taken, v, delta) {
                        if !dist.contains_key(&next) {
                            dist.insert(next.clone(), d + 1);
                            queue.push_back(next);
                        }
                    }
                }
            }
        }
        (best, dist.len())
    }

    /// Breadth-first search where a vehicle sliding any distance is one move (Fogleman's
    /// count): the fewest such moves to the goal, `None` if unreachable.
    pub fn solve_slides(&self) -> Option<u64> {
        let mut dist: HashMap<Vec<i32>, u64> = HashMap::new();
        let mut queue = VecDeque::new();
        dist.insert(self.start.clone(), 0);
        queue.push_back(self.start.clone());
        while let Some(pos) = queue.pop_front() {
            let d = dist[&pos];
            if self.is_goal(&pos) {
                return Some(d);
            }
            let taken = self.occupancy(&pos);
            for v in 0..pos.len() {
                for delta in [-1, 1] {
                    // Each place the vehicle reaches along its axis is one move away; the
                    // cells it enters lie ahead of it, so the start's occupancy holds.
                    let mut here = pos.clone();
                    while let Some(next) = self.step(&here, &taken, v, delta) {
                        if !dist.contains_key(&next) {
                            dist.insert(next.clone(), d + 1);
                            queue.push_back(next.clone());
                        }
                        here = next;
                    }
                }
            }
        }
        None
    }

    /// Plays `moves` from the start: the number of steps and whether the goal holds.
    pub fn replay(&self, moves: &[Move]) -> Result<(u64, bool), String> {
        let mut pos = self.start.clone();
        for (k, m) in moves.iter().enumerate() {
            let v = (0..pos.len())
                .find(|&v| self.cells(v, pos[v]).next() == Some(m.from))
                .ok_or_else(|| format!("step {k}: no vehicle starts at {:?}", m.from))?;
            let (dr, dc) = DIRS[m.dir];
            let delta = if self.vehicles[v].horizontal {
                if dr != 0 {
                    return Err(format!("step {k}: {m:?} leaves the vehicle's axis"));
                }
                dc
            } else {
                if dc != 0 {
                    return Err(format!("step {k}: {m:?} leaves the vehicle's axis"));
                }
                dr
            };
            pos = self
                .step(&pos, &self.occupancy(&pos), v, delta)
                .ok_or_else(|| format!("step {k}: {m:?} is blocked"))?;
        }
        Ok((moves.len() as u64, self.is_goal(&pos)))
    }

    /// The start in Fogleman's notation, one row per line: `A` the red car, the other
    /// vehicles `B`, `C`, ... in order.
    pub fn text(&self) -> String {
        let mut g: Vec<u8> = self
            .wall
            .iter()
            .map(|&w| if w { b'x' } else { b'o' })
            .collect();
        for (v, &p) in self.start.iter().enumerate() {
            for (r, c) in self.cells(v, p) {
                g[(r * self.cols + c) as usize] = b'A' + v as u8;
            }
        }
        g.chunks(self.cols as usize)
            .map(|row| String::from_utf8(row.to_vec()).unwrap() + "\n")
            .collect()
    }
}

/// A random board from 4x4 to 6x6: the red car (length 2) on row 2, a few walls, and up to
/// eight vehicles of length 2 or 3 at random.
pub fn random_level(rng: &mut fastrand::Rng) -> Level {
    let (rows, cols) = (rng.i32(4..=6), rng.i32(4..=6));
    let mut l = Level {
        rows,
        cols,
        wall: vec![false; (rows * cols) as usize],
        vehicles: vec![Vehicle {
            horizontal: true,
            line: 2,
            len: 2,
        }],
        start: vec![rng.i32(0..=cols - 3)],
    };
    for _ in 0..rng.usize(0..=2) {
        let i = rng.usize(..l.wall.len());
        if i / cols as usize != 2 {
            l.wall[i] = true;
        }
    }
    for _ in 0..rng.usize(2..=8) {
        let horizontal = rng.bool();
        let len = if rng.u8(0..3) == 0 { 3 } else { 2 };
        let (along, across) = if horizontal {
            (cols, rows)
        } else {
            (rows, cols)
        };
        if len > along {
            continue;
        }
        let v = Vehicle {
            horizontal,
            line: rng.i32(0..across),
            len,
        };
        let p = rng.i32(0..=along - len);
        let taken = l.occupancy(&l.start);
        l.vehicles.push(v);
        let v_id = l.vehicles.len() - 1;
        if l.cells(v_id, p)
            .any(|(r, c)| taken[(r * cols + c) as usize])
        {
            l.vehicles.pop();
        } else {
            l.start.push(p);
        }
    }
    l
}
