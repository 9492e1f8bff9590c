//! The n-puzzle (`puzzles/npuzzle.puz`; rules in `/work/shared/spec/corpus.md`): an
//! independent breadth-first search, a move replayer and random levels, sharing no code
//! with the crate.
//!
//! An n x m grid holds tiles 1 .. nm-1 and one blank; a move slides a tile next to the
//! blank into it (the blank and the tile trade places). The goal is the tiles in reading
//! order with the blank last. Levels are written as characters (`867 254 3_1`, `_` the
//! blank) or as integers separated by spaces, one row per line (`0` the blank).

use std::collections::{HashMap, VecDeque};

/// Direction vectors in the order n, s, w, e.
pub const DIRS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// A board size and a start: the tile on each cell, row-major, 0 for the blank.
#[derive(Clone, Debug)]
pub struct Level {
    pub rows: i32,
    pub cols: i32,
    pub start: Vec<u8>,
}

/// One move: the piece on `from` (the blank or a tile next to it) moves one cell along
/// `DIRS[dir]`, trading places with what is there, which must be a tile for the blank and
/// the blank for a tile.
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
    /// Reads rows of characters (`_` blank), or rows of integers (`0` blank) when a row
    /// holds a space. Rows are separated by newlines or ` / `.
    pub fn parse(text: &str) -> Level {
        let rows: Vec<&str> = text
            .split(['\n', '/'])
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .collect();
        let mut start = vec![];
        let mut cols = 0;
        for row in &rows {
            let cells: Vec<u8> = if row.contains(' ') {
                row.split_whitespace()
                    .map(|t| if t == "_" { 0 } else { t.parse().unwrap() })
                    .collect()
            } else {
                row.bytes()
                    .map(|b| if b == b'_' { 0 } else { b - b'0' })
                    .collect()
            };
            cols = cells.len() as i32;
            start.extend(cells);
        }
        let level = Level {
            rows: rows.len() as i32,
            cols,
            start,
        };
        let mut sorted = level.start.clone();
        sorted.sort_unstable();
        assert!(
            sorted.iter().enumerate().all(|(i, &t)| t as usize == i),
            "not a permutation of 0..{}: {text}",
            sorted.len()
        );
        level
    }

    /// The finished board: 1, 2, ... in reading order, the blank last.
    pub fn goal(&self) -> Vec<u8> {
        let n = self.start.len();
        (1..n as u8).chain([0]).collect()
    }

    fn neighbour(&self, i: usize, dir: usize) -> Option<usize> {
        let (r, c) = ((i as i32) / self.cols, (i as i32) % self.cols);
        let (r, c) = (r + DIRS[dir].0, c + DIRS[dir].1);
        (r >= 0 && c >= 0 && r < self.rows && c < self.cols).then_some((r * self.cols + c) as usize)
    }

    /// Breadth-first search: the fewest moves to the goal (`None` when the start's
    /// component lacks it) and the number of positions searched (the whole component when
    /// the goal is out of reach).
    pub fn solve(&self) -> (Option<u64>, usize) {
        let goal = self.goal();
        let mut dist: HashMap<Vec<u8>, u64> = HashMap::new();
        let mut queue = VecDeque::new();
        dist.insert(self.start.clone(), 0);
        queue.push_back(self.start.clone());
        while let Some(b) = queue.pop_front() {
            let d = dist[&b];
            if b == goal {
                return (Some(d), dist.len());
            }
            let blank = b.iter().position(|&t| t == 0).unwrap();
            for dir in 0..4 {
                if let Some(j) = self.neighbour(blank, dir) {
                    let mut next = b.clone();
                    next.swap(blank, j);
                    if !dist.contains_key(&next) {
                        dist.insert(next.clone(), d + 1);
                        queue.push_back(next);
                    }
                }
            }
        }
        (None, dist.len())
    }

    /// Whether the start can reach the goal, by the parity rule (no search): the
    /// permutation's parity plus, on boards of even width, the blank's row distance.
    pub fn solvable_by_parity(&self) -> bool {
        let tiles: Vec<u8> = self.start.iter().copied().filter(|&t| t != 0).collect();
        let mut inversions = 0;
        for i in 0..tiles.len() {
            for j in i + 1..tiles.len() {
                inversions += usize::from(tiles[i] > tiles[j]);
            }
        }
        let blank_row = self.start.iter().position(|&t| t == 0).unwrap() as i32 / self.cols;
        if self.cols % 2 == 1 {
            inversions % 2 == 0
        } else {
            (inversions + (self.rows - 1 - blank_row) as usize).is_multiple_of(2)
        }
    }

    /// Plays `moves` from the start: the number of moves and whether the goal holds.
    pub fn replay(&self, moves: &[Move]) -> Result<(u64, bool), String> {
        let mut b = self.start.clone();
        for (k, m) in moves.iter().enumerate() {
            let (r, c) = m.from;
            if r < 0 || c < 0 || r >= self.rows || c >= self.cols {
                return Err(format!("move {k}: {m:?} starts off the board"));
            }
            let i = (r * self.cols + c) as usize;
            let j = self
                .neighbour(i, m.dir)
                .ok_or_else(|| format!("move {k}: {m:?} leaves the board"))?;
            if (b[i] == 0) == (b[j] == 0) {
                return Err(format!(
                    "move {k}: {m:?} does not move a tile into the blank"
                ));
            }
            b.swap(i, j);
        }
        Ok((moves.len() as u64, b == self.goal()))
    }

    /// The level as characters (`_` the blank), one row per line; boards of at most 9
    /// cells only.
    pub fn chars(&self) -> String {
        self.rows_with(|t| if t == 0 { "_".into() } else { t.to_string() }, "")
    }

    /// The level as integers (`0` the blank) separated by spaces, one row per line.
    pub fn ints(&self) -> String {
        self.rows_with(|t| t.to_string(), " ")
    }

    /// The goal board as characters.
    pub fn goal_chars(&self) -> String {
        Level {
            start: self.goal(),
            ..self.clone()
        }
        .chars()
    }

    fn rows_with(&self, cell: impl Fn(u8) -> String, sep: &str) -> String {
        self.start
            .chunks(self.cols as usize)
            .map(|row| row.iter().map(|&t| cell(t)).collect::<Vec<_>>().join(sep) + "\n")
            .collect()
    }
}

/// A random level of at most 9 cells: a random permutation on a small board (2x2, 2x3,
/// 3x2: either parity), or a random walk from the goal on 3x3 (always solvable; the whole
/// 3x3 component is too big to exhaust on every case).
pub fn random_level(rng: &mut fastrand::Rng) -> Level {
    let (rows, cols) = [(2, 2), (2, 3), (3, 2), (3, 3), (3, 3)][rng.usize(0..5)];
    let n = (rows * cols) as u8;
    let mut level = Level {
        rows,
        cols,
        start: (1..n).chain([0]).collect(),
    };
    if rows * cols < 9 {
        rng.shuffle(&mut level.start);
    } else {
        let mut blank = level.start.len() - 1;
        for _ in 0..rng.usize(0..60) {
            let dir = rng.usize(0..4);
            if let Some(j) = level.neighbour(blank, dir) {
                level.start.swap(blank, j);
                blank = j;
            }
        }
    }
    level
}
