//! Ice cave (`puzzles/icecave.puz`): a brute force and a random level generator written
//! from the corpus spec (`/work/shared/spec/corpus.md`, "icecave.puz"), sharing nothing
//! with the crate:
//!
//! - `#` rock, `.` ice, `@` player, `E` exit;
//! - the player slides until the next cell is a rock or the edge of the board;
//! - the exit counts only when a slide stops on it; sliding over it does not;
//! - a slide that moves nothing is not a move; cost: slides.
//!
//! The brute force is a breadth-first search over the player's cell.

use std::collections::{HashMap, VecDeque};

/// Direction vectors (row, column) in the order `n s w e`.
pub const DIRS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

type Cell = (i32, i32);

/// A parsed level.
pub struct Level {
    rows: Vec<Vec<u8>>,
    player: Cell,
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
        let mut player = vec![];
        for (r, row) in rows.iter().enumerate() {
            assert_eq!(row.len(), rows[0].len(), "ragged level");
            for (c, &ch) in row.iter().enumerate() {
                assert!(b"#.@E".contains(&ch), "unknown symbol {:?}", ch as char);
                if ch == b'@' {
                    player.push((r as i32, c as i32));
                }
            }
        }
        assert_eq!(player.len(), 1, "one player");
        Level {
            rows,
            player: player[0],
        }
    }

    fn ice(&self, (r, c): Cell) -> bool {
        r >= 0
            && c >= 0
            && (r as usize) < self.rows.len()
            && (c as usize) < self.rows[0].len()
            && self.rows[r as usize][c as usize] != b'#'
    }

    /// Where a slide from `p` towards `d` stops, or `None` when it does not move.
    fn slide(&self, p: Cell, d: usize) -> Option<Cell> {
        let (dr, dc) = DIRS[d];
        let mut q = p;
        while self.ice((q.0 + dr, q.1 + dc)) {
            q = (q.0 + dr, q.1 + dc);
        }
        (q != p).then_some(q)
    }

    fn goal(&self, (r, c): Cell) -> bool {
        self.rows[r as usize][c as usize] == b'E'
    }

    /// The fewest slides that stop on the exit, or `None`.
    pub fn solve(&self) -> Option<u64> {
        let mut dist = HashMap::from([(self.player, 0u64)]);
        let mut queue = VecDeque::from([self.player]);
        while let Some(p) = queue.pop_front() {
            let cost = dist[&p];
            if self.goal(p) {
                return Some(cost);
            }
            for d in 0..4 {
                if let Some(q) = self.slide(p, d) {
                    dist.entry(q).or_insert_with(|| {
                        queue.push_back(q);
                        cost + 1
                    });
                }
            }
        }
        None
    }

    /// Plays slides (indices into [`DIRS`]): `Err` names the first slide that moves nothing
    /// or a path that does not stop on the exit; `Ok` is the cost.
    pub fn replay(&self, dirs: &[usize]) -> Result<u64, String> {
        let mut p = self.player;
        for (k, &d) in dirs.iter().enumerate() {
            p = self.slide(p, d).ok_or_else(|| {
                format!("slide {k} ({}) moves nothing", "nswe".as_bytes()[d] as char)
            })?;
        }
        if !self.goal(p) {
            return Err(format!("the player stops at {p:?}, not on the exit"));
        }
        Ok(dirs.len() as u64)
    }
}

/// Slides from the letters of `puzzles/icecave.puz` (`nswe`).
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

/// A random level up to 8x8: rocks, one player, one or two exits.
pub fn random_level(rng: &mut fastrand::Rng) -> String {
    let (h, w) = (rng.usize(2..=8), rng.usize(2..=8));
    let mut g: Vec<u8> = (0..h * w)
        .map(|_| if rng.u8(0..100) < 18 { b'#' } else { b'.' })
        .collect();
    let mut free: Vec<usize> = (0..h * w).filter(|&i| g[i] == b'.').collect();
    let exits = rng.usize(1..=2);
    if free.len() < 1 + exits {
        return random_level(rng);
    }
    rng.shuffle(&mut free);
    g[free[0]] = b'@';
    for &i in &free[1..1 + exits] {
        g[i] = b'E';
    }
    g.chunks(w)
        .map(|r| String::from_utf8(r.to_vec()).unwrap() + "\n")
        .collect()
}
