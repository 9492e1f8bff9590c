//! Tilt maze (`puzzles/tilt.puz`): a brute force and a random level generator written from
//! the corpus spec (`/work/shared/spec/corpus.md`, "tilt.puz"), sharing nothing with the
//! crate:
//!
//! - `#` wall, `.` floor, `m` marble, `t` target, `M` marble on a target;
//! - a tilt picks a direction; every marble slides that way until the next cell is a wall,
//!   the edge or a marble that has already stopped; marbles nearest the far side settle
//!   first; a tilt that moves nothing is not a move;
//! - marbles are interchangeable; the goal is every marble on a target; cost: tilts.
//!
//! The brute force is a breadth-first search over the set of marble cells, kept as a
//! sorted list of (row, column).

use std::collections::{HashSet, VecDeque};

/// Direction vectors (row, column) in the order `n s w e`.
pub const DIRS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

type Cell = (i32, i32);

/// A parsed level.
pub struct Level {
    rows: Vec<Vec<u8>>,
    marbles: Vec<Cell>,
}

impl Level {
    /// Reads a level in the spec's notation (one row per line, blank lines ignored).
    pub fn parse(text: &str) -> Level {
        let rows: Vec<Vec<u8>> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|l| l.as_bytes().to_vec())
            .collect();
        let mut marbles = vec![];
        for (r, row) in rows.iter().enumerate() {
            assert_eq!(row.len(), rows[0].len(), "ragged level");
            for (c, &ch) in row.iter().enumerate() {
                assert!(b"#.mtM".contains(&ch), "unknown symbol {:?}", ch as char);
                if ch == b'm' || ch == b'M' {
                    marbles.push((r as i32, c as i32));
                }
            }
        }
        Level { rows, marbles }
    }

    fn open(&self, (r, c): Cell) -> bool {
        r >= 0
            && c >= 0
            && (r as usize) < self.rows.len()
            && (c as usize) < self.rows[0].len()
            && self.rows[r as usize][c as usize] != b'#'
    }

    fn target(&self, (r, c): Cell) -> bool {
        matches!(self.rows[r as usize][c as usize], b't' | b'M')
    }

    /// The marbles after tilting towards `d`, sorted, or `None` when nothing moves.
    fn tilt(&self, marbles: &[Cell], d: usize) -> Option<Vec<Cell>> {
        let (dr, dc) = DIRS[d];
        let mut order = marbles.to_vec();
        // Farthest along d first: the largest projection on d.
        order.sort_by_key(|&(r, c)| -(r * dr + c * dc));
        let mut settled: Vec<Cell> = vec![];
        for (mut r, mut c) in order {
            while self.open((r + dr, c + dc)) && !settled.contains(&(r + dr, c + dc)) {
                r += dr;
                c += dc;
            }
            settled.push((r, c));
        }
        settled.sort_unstable();
        (settled != marbles).then_some(settled)
    }

    fn goal(&self, marbles: &[Cell]) -> bool {
        marbles.iter().all(|&m| self.target(m))
    }

    fn start(&self) -> Vec<Cell> {
        let mut m = self.marbles.clone();
        m.sort_unstable();
        m
    }

    /// The fewest tilts that put every marble on a target, or `None`.
    pub fn solve(&self) -> Option<u64> {
        let start = self.start();
        let mut seen = HashSet::from([start.clone()]);
        let mut queue = VecDeque::from([(start, 0u64)]);
        while let Some((s, cost)) = queue.pop_front() {
            if self.goal(&s) {
                return Some(cost);
            }
            for d in 0..4 {
                if let Some(n) = self.tilt(&s, d) {
                    if seen.insert(n.clone()) {
                        queue.push_back((n, cost + 1));
                    }
                }
            }
        }
        None
    }

    /// Plays tilts (indices into [`DIRS`]): `Err` names the first tilt that moves nothing
    /// or a path that does not end solved; `Ok` is the cost.
    pub fn replay(&self, dirs: &[usize]) -> Result<u64, String> {
        let mut s = self.start();
        for (k, &d) in dirs.iter().enumerate() {
            s = self.tilt(&s, d).ok_or_else(|| {
                format!("tilt {k} ({}) moves nothing", "nswe".as_bytes()[d] as char)
            })?;
        }
        if !self.goal(&s) {
            return Err("a marble ends off the targets".into());
        }
        Ok(dirs.len() as u64)
    }
}

/// Tilts from the letters of `puzzles/tilt.puz` (`nswe`).
pub fn dirs_from_letters(letters: &str) -> Vec<usize> {
    letters
        .chars()
        .map(|ch| {
            "nswe"
                .find(ch)
                .unwrap_or_else(|| panic!("unknown letter {ch:?}"))
        })
        .collect()
}

/// A random small level: walls, one to three marbles and as many targets (a target may
/// start under a marble: `M`).
pub fn random_level(rng: &mut fastrand::Rng) -> String {
    let (h, w) = (rng.usize(2..=6), rng.usize(2..=6));
    let mut g: Vec<u8> = (0..h * w)
        .map(|_| if rng.u8(0..100) < 20 { b'#' } else { b'.' })
        .collect();
    let mut free: Vec<usize> = (0..h * w).filter(|&i| g[i] == b'.').collect();
    let n = rng.usize(1..=3);
    if free.len() < n + 1 {
        return random_level(rng);
    }
    rng.shuffle(&mut free);
    for &i in &free[..n] {
        g[i] = b'm';
    }
    let mut spots = free.clone();
    rng.shuffle(&mut spots);
    for &i in &spots[..n] {
        g[i] = if g[i] == b'm' { b'M' } else { b't' };
    }
    g.chunks(w)
        .map(|r| String::from_utf8(r.to_vec()).unwrap() + "\n")
        .collect()
}
