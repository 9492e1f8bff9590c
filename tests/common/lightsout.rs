//! Lights Out (`puzzles/lightsout.puz`; rules in `/work/shared/spec/corpus.md`): an
//! independent breadth-first search over light patterns, a second solver by light
//! chasing, a press replayer and random levels, sharing no code with the crate.
//!
//! An n x m grid of lights, `*` on and `.` off. Pressing a cell toggles it and its
//! orthogonal neighbours on the board. Goal: every light off; cost: presses.

use std::collections::VecDeque;

/// A board size and the start pattern: bit `r * cols + c` set when that light is on.
#[derive(Clone, Debug)]
pub struct Level {
    pub rows: usize,
    pub cols: usize,
    pub start: u64,
}

impl Level {
    /// Reads rows of `*` (on) and `.` (off).
    pub fn parse(text: &str) -> Level {
        let rows: Vec<&str> = text.split_whitespace().collect();
        let cols = rows[0].len();
        let mut start = 0;
        for (r, row) in rows.iter().enumerate() {
            assert_eq!(row.len(), cols, "ragged level:\n{text}");
            for (c, ch) in row.bytes().enumerate() {
                match ch {
                    b'*' => start |= 1 << (r * cols + c),
                    b'.' => {}
                    _ => panic!("unknown symbol {:?}", ch as char),
                }
            }
        }
        assert!(rows.len() * cols <= 64, "board too large");
        Level {
            rows: rows.len(),
            cols,
            start,
        }
    }

    /// The lights a press on `(r, c)` toggles.
    pub fn press_mask(&self, r: usize, c: usize) -> u64 {
        let mut m = 1 << (r * self.cols + c);
        if r > 0 {
            m |= 1 << ((r - 1) * self.cols + c);
        }
        if r + 1 < self.rows {
            m |= 1 << ((r + 1) * self.cols + c);
        }
        if c > 0 {
            m |= 1 << (r * self.cols + c - 1);
        }
        if c + 1 < self.cols {
            m |= 1 << (r * self.cols + c + 1);
        }
        m
    }

    /// Breadth-first search over patterns (boards of at most 24 cells): the fewest presses
    /// to turn every light off, or `None`.
    pub fn solve(&self) -> Option<u64> {
        let n = self.rows * self.cols;
        assert!(n <= 24, "breadth-first search is for small boards");
        let masks: Vec<u64> = (0..n)
            .map(|i| self.press_mask(i / self.cols, i % self.cols))
            .collect();
        let mut dist = vec![u8::MAX; 1 << n];
        let mut queue = VecDeque::new();
        dist[self.start as usize] = 0;
        queue.push_back(self.start);
        while let Some(p) = queue.pop_front() {
            let d = dist[p as usize];
            if p == 0 {
                return Some(d as u64);
            }
            for &m in &masks {
                let q = p ^ m;
                if dist[q as usize] == u8::MAX {
                    dist[q as usize] = d + 1;
                    queue.push_back(q);
                }
            }
        }
        None
    }

    /// Light chasing: presses commute and pressing twice undoes, so a solution is a set of
    /// cells. Choose the first row's presses (every subset); each later row's presses are
    /// then forced (press under every light still on in the row above); keep the sets that
    /// leave the last row dark. The fewest presses of those, or `None`.
    pub fn solve_by_chasing(&self) -> Option<u64> {
        let mut best: Option<u64> = None;
        for first in 0u64..1 << self.cols {
            let mut lights = self.start;
            let mut presses = 0;
            for c in 0..self.cols {
                if first >> c & 1 == 1 {
                    lights ^= self.press_mask(0, c);
                    presses += 1;
                }
            }
            for r in 1..self.rows {
                for c in 0..self.cols {
                    if lights >> ((r - 1) * self.cols + c) & 1 == 1 {
                        lights ^= self.press_mask(r, c);
                        presses += 1;
                    }
                }
            }
            if lights == 0 && best.is_none_or(|b| presses < b) {
                best = Some(presses);
            }
        }
        best
    }

    /// Plays presses on `cells` from the start: the number of presses and whether every
    /// light is off at the end, or what went wrong.
    pub fn replay(&self, cells: &[(i32, i32)]) -> Result<(u64, bool), String> {
        let mut lights = self.start;
        for (k, &(r, c)) in cells.iter().enumerate() {
            if r < 0 || c < 0 || r as usize >= self.rows || c as usize >= self.cols {
                return Err(format!("press {k} at ({r},{c}) is off the board"));
            }
            lights ^= self.press_mask(r as usize, c as usize);
        }
        Ok((cells.len() as u64, lights == 0))
    }

    /// The level in `*`/`.` rows, one per line.
    pub fn text(&self) -> String {
        (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| {
                        if self.start >> (r * self.cols + c) & 1 == 1 {
                            '*'
                        } else {
                            '.'
                        }
                    })
                    .collect::<String>()
                    + "\n"
            })
            .collect()
    }
}

/// A random level from 1x2 up to 4x4, each light on with probability one half.
pub fn random_level(rng: &mut fastrand::Rng) -> Level {
    let rows = rng.usize(1..=4);
    let cols = rng.usize(if rows == 1 { 2 } else { 1 }..=4);
    Level {
        rows,
        cols,
        start: rng.u64(..) & ((1 << (rows * cols)) - 1),
    }
}
