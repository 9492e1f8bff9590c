//! Klotski (`puzzles/klotski.puz`; rules in `/work/shared/spec/corpus.md`): an independent
//! breadth-first search, a move replayer and a random level generator, sharing no code with
//! the crate.
//!
//! The notation is the one of `/work/shared/bench/klotski.cpp`: `A` the 2x2 block, `B` a
//! horizontal 1x2, `G` or `g` a vertical 2x1 (two symbols so that stacked pieces can be
//! told apart, though one symbol is enough), `S` a 1x1, `.` an empty cell. A move shifts
//! one piece one cell up, down, left or right into empty cells; the goal is the 2x2 block
//! covering the bottom row's columns 1 and 2 (0-based), the exit of the classic board.
//!
//! Same-shape pieces are interchangeable, so a position is the grid of *shapes* alone:
//! every shape is a rectangle, and a union of disjoint copies of one rectangle has exactly
//! one tiling (its first cell in reading order is some copy's top-left corner), so the
//! grid determines the pieces.

use std::collections::{HashMap, VecDeque};

/// Direction vectors in the order n, s, w, e.
pub const DIRS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// A shape: 1 the 2x2 block, 2 the horizontal 1x2, 3 the vertical 2x1, 4 the 1x1.
pub type Shape = u8;

/// (rows, columns) of each shape, indexed by [`Shape`].
pub const SIZE: [(i32, i32); 5] = [(0, 0), (2, 2), (1, 2), (2, 1), (1, 1)];

/// A position: the shape covering each cell (0 empty), row-major.
pub type Grid = Vec<Shape>;

/// A board size and a start position.
#[derive(Clone, Debug)]
pub struct Level {
    pub rows: i32,
    pub cols: i32,
    pub start: Grid,
}

/// One move: the piece whose top-left cell is `from` shifts one cell along `DIRS[dir]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub from: (i32, i32),
    pub dir: usize,
}

impl Move {
    /// The move of the piece anchored on `from` to `to`, one cell away along one of
    /// [`DIRS`], or `None` when `to` is not such a cell.
    pub fn between(from: (i32, i32), to: (i32, i32)) -> Option<Move> {
        let d = ((to.0 - from.0), (to.1 - from.1));
        let dir = DIRS.iter().position(|&v| v == d)?;
        Some(Move { from, dir })
    }
}

impl Level {
    /// Reads the bench notation (rows separated by newlines or spaces).
    pub fn parse(text: &str) -> Level {
        let rows: Vec<&str> = text.split_whitespace().collect();
        let cols = rows[0].len() as i32;
        let mut start = vec![];
        for row in &rows {
            assert_eq!(row.len() as i32, cols, "ragged level:\n{text}");
            for ch in row.bytes() {
                start.push(match ch {
                    b'A' => 1,
                    b'B' => 2,
                    b'G' | b'g' => 3,
                    b'S' => 4,
                    b'.' => 0,
                    _ => panic!("unknown symbol {:?}", ch as char),
                });
            }
        }
        Level {
            rows: rows.len() as i32,
            cols,
            start,
        }
    }

    fn idx(&self, (r, c): (i32, i32)) -> usize {
        (r * self.cols + c) as usize
    }

    fn inside(&self, (r, c): (i32, i32)) -> bool {
        r >= 0 && c >= 0 && r < self.rows && c < self.cols
    }

    /// The pieces of `grid`: (shape, top-left cell), in reading order of their corners.
    pub fn pieces(&self, grid: &Grid) -> Vec<(Shape, (i32, i32))> {
        let mut taken = vec![false; grid.len()];
        let mut out = vec![];
        for r in 0..self.rows {
            for c in 0..self.cols {
                let i = self.idx((r, c));
                if grid[i] == 0 || taken[i] {
                    continue;
                }
                let s = grid[i];
                let (h, w) = SIZE[s as usize];
                for dr in 0..h {
                    for dc in 0..w {
                        let p = (r + dr, c + dc);
                        assert!(
                            self.inside(p) && grid[self.idx(p)] == s && !taken[self.idx(p)],
                            "cells of shape {s} do not tile at ({r},{c})"
                        );
                        taken[self.idx(p)] = true;
                    }
                }
                out.push((s, (r, c)));
            }
        }
        out
    }

    /// `grid` after shifting the piece of `shape` at `at` along `d`, or `None` when a cell
    /// it moves into is off the board or not empty.
    fn shift(&self, grid: &Grid, shape: Shape, at: (i32, i32), d: (i32, i32)) -> Option<Grid> {
        let (h, w) = SIZE[shape as usize];
        let cells =
            |(r, c): (i32, i32)| (0..h).flat_map(move |dr| (0..w).map(move |dc| (r + dr, c + dc)));
        let to = (at.0 + d.0, at.1 + d.1);
        let mut next = grid.clone();
        for p in cells(at) {
            next[self.idx(p)] = 0;
        }
        for p in cells(to) {
            if !self.inside(p) || next[self.idx(p)] != 0 {
                return None;
            }
            next[self.idx(p)] = shape;
        }
        Some(next)
    }

    /// Every position one move away, with its move.
    pub fn successors(&self, grid: &Grid) -> Vec<(Move, Grid)> {
        let mut out = vec![];
        for (shape, at) in self.pieces(grid) {
            for (dir, &d) in DIRS.iter().enumerate() {
                if let Some(next) = self.shift(grid, shape, at, d) {
                    out.push((Move { from: at, dir }, next));
                }
            }
        }
        out
    }

    /// The 2x2 block (there is one) covers the bottom row's columns 1 and 2.
    pub fn is_goal(&self, grid: &Grid) -> bool {
        let b = self.rows - 1;
        // One block covers both cells only with its corner at (rows - 2, 1).
        self.cols > 2 && grid[self.idx((b, 1))] == 1 && grid[self.idx((b, 2))] == 1
    }

    /// Breadth-first search: the fewest moves to the goal (`None` if unreachable) and the
    /// number of positions reachable from the start.
    pub fn solve(&self) -> (Option<u64>, usize) {
        self.solve_within(usize::MAX).expect("no cap")
    }

    /// [`Level::solve`], or `None` once more than `cap` positions are reachable.
    pub fn solve_within(&self, cap: usize) -> Option<(Option<u64>, usize)> {
        let pack = |g: &Grid| g.iter().fold(0u64, |k, &s| k << 3 | s as u64);
        let mut dist: HashMap<u64, u64> = HashMap::new();
        let mut queue = VecDeque::new();
        dist.insert(pack(&self.start), 0);
        queue.push_back(self.start.clone());
        let mut best = None;
        while let Some(g) = queue.pop_front() {
            let d = dist[&pack(&g)];
            if best.is_none() && self.is_goal(&g) {
                best = Some(d);
            }
            for (_, next) in self.successors(&g) {
                if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(pack(&next)) {
                    e.insert(d + 1);
                    queue.push_back(next);
                }
            }
            if dist.len() > cap {
                return None;
            }
        }
        Some((best, dist.len()))
    }

    /// Plays `moves` from the start: the number of moves and whether the goal holds at the
    /// end, or what went wrong.
    pub fn replay(&self, moves: &[Move]) -> Result<(u64, bool), String> {
        let mut grid = self.start.clone();
        for (k, m) in moves.iter().enumerate() {
            let Some(&(shape, at)) = self.pieces(&grid).iter().find(|(_, at)| *at == m.from) else {
                return Err(format!("move {k}: no piece has its corner at {:?}", m.from));
            };
            grid = self
                .shift(&grid, shape, at, DIRS[m.dir])
                .ok_or_else(|| format!("move {k}: {m:?} is blocked"))?;
        }
        Ok((moves.len() as u64, self.is_goal(&grid)))
    }

    /// The level in the bench notation, one row per line; a vertical piece is written `G`
    /// or `g` at random (`rng`), so both symbols and stacked pieces get exercised.
    pub fn text(&self, rng: &mut fastrand::Rng) -> String {
        let mut out = vec![b'.'; self.start.len()];
        for (shape, (r, c)) in self.pieces(&self.start) {
            let ch = match shape {
                1 => b'A',
                2 => b'B',
                3 if rng.bool() => b'g',
                3 => b'G',
                _ => b'S',
            };
            let (h, w) = SIZE[shape as usize];
            for dr in 0..h {
                for dc in 0..w {
                    out[self.idx((r + dr, c + dc))] = ch;
                }
            }
        }
        out.chunks(self.cols as usize)
            .map(|row| String::from_utf8(row.to_vec()).unwrap() + "\n")
            .collect()
    }
}

/// The classic layout, in the bench notation.
pub const CLASSIC: &str = "GAAG GAAG gBBg gSSg S..S";

/// A random level whose start reaches at most `cap` positions, with its fewest moves
/// (`None`: unsolvable).
pub fn random_level(rng: &mut fastrand::Rng, cap: usize) -> (Level, Option<u64>) {
    loop {
        let level = random_start(rng);
        if let Some((cost, _)) = level.solve_within(cap) {
            return (level, cost);
        }
    }
}

/// A random start on a 4x4 or 5x4 board: the 2x2 block, then other pieces at random (at
/// most two 1x1) until two or three cells are left empty (or no piece fits), so that the
/// state space stays small, as in the real puzzle.
fn random_start(rng: &mut fastrand::Rng) -> Level {
    let rows = rng.i32(4..=5);
    let cols = 4;
    let mut level = Level {
        rows,
        cols,
        start: vec![0; (rows * cols) as usize],
    };
    let place = |rng: &mut fastrand::Rng, level: &mut Level, shape: Shape| {
        let (h, w) = SIZE[shape as usize];
        for _ in 0..20 {
            let at = (rng.i32(0..=rows - h), rng.i32(0..=cols - w));
            let cells: Vec<usize> = (0..h)
                .flat_map(|dr| (0..w).map(move |dc| (at.0 + dr, at.1 + dc)))
                .map(|p| level.idx(p))
                .collect();
            if cells.iter().all(|&i| level.start[i] == 0) {
                for i in cells {
                    level.start[i] = shape;
                }
                return;
            }
        }
    };
    place(rng, &mut level, 1);
    let empty = rng.usize(2..=3);
    for _ in 0..40 {
        if level.start.iter().filter(|&&s| s == 0).count() <= empty {
            break;
        }
        let shape = rng.u8(2..=4);
        let smalls = level.start.iter().filter(|&&s| s == 4).count();
        if shape == 4 && smalls >= 2 {
            continue;
        }
        place(rng, &mut level, shape);
    }
    level
}
