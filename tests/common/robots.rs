//! Sliding robots (`puzzles/robots.puz`): a brute force and a random level generator
//! written from the corpus spec (`/work/shared/spec/corpus.md`, "robots.puz"), sharing
//! nothing with the crate:
//!
//! - `#` wall, `.` floor, `R` the red robot, `r` another robot, `X` the target;
//! - a move picks one robot and one direction; the robot slides until the next cell is a
//!   wall, another robot or the edge; a slide that moves nothing is not a move;
//! - the goal is the red robot on the target; cost: slides.
//!
//! The brute force is a breadth-first search over (red cell, sorted other robots).

use std::collections::{HashSet, VecDeque};

/// Direction vectors (row, column) in the order `n s w e`.
pub const DIRS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// A board cell (row, column), 0-based.
pub type Cell = (i32, i32);

/// One slide: the cell of the robot that moves (before the slide) and the direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slide {
    /// The robot's cell before the slide.
    pub from: Cell,
    /// Index into [`DIRS`].
    pub dir: usize,
}

/// A parsed level.
pub struct Level {
    rows: Vec<Vec<u8>>,
    red: Cell,
    others: Vec<Cell>,
}

/// The most other robots a level may hold.
const MAX_OTHERS: usize = 8;

/// A position: the red robot and the first `n` of `others`, sorted (the rest unused).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct State {
    red: Cell,
    others: [Cell; MAX_OTHERS],
    n: usize,
}

impl State {
    fn others(&self) -> &[Cell] {
        &self.others[..self.n]
    }
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
        let (mut red, mut others) = (vec![], vec![]);
        for (r, row) in rows.iter().enumerate() {
            assert_eq!(row.len(), rows[0].len(), "ragged level");
            for (c, &ch) in row.iter().enumerate() {
                let p = (r as i32, c as i32);
                match ch {
                    b'R' => red.push(p),
                    b'r' => others.push(p),
                    b'#' | b'.' | b'X' => {}
                    _ => panic!("unknown symbol {:?}", ch as char),
                }
            }
        }
        assert_eq!(red.len(), 1, "one red robot");
        assert!(
            others.len() <= MAX_OTHERS,
            "at most {MAX_OTHERS} other robots"
        );
        Level {
            rows,
            red: red[0],
            others,
        }
    }

    fn floor(&self, (r, c): Cell) -> bool {
        r >= 0
            && c >= 0
            && (r as usize) < self.rows.len()
            && (c as usize) < self.rows[0].len()
            && self.rows[r as usize][c as usize] != b'#'
    }

    fn start(&self) -> State {
        let mut s = State {
            red: self.red,
            others: [(-1, -1); MAX_OTHERS],
            n: self.others.len(),
        };
        s.others[..s.n].copy_from_slice(&self.others);
        s.others[..s.n].sort_unstable();
        s
    }

    /// The position after `m`, or `None` when no robot stands on `m.from` or it does not
    /// move.
    fn apply(&self, s: &State, m: Slide) -> Option<State> {
        let robot = |p: Cell| p == s.red || s.others().contains(&p);
        if !robot(m.from) {
            return None;
        }
        let (dr, dc) = DIRS[m.dir];
        let mut q = m.from;
        while self.floor((q.0 + dr, q.1 + dc)) && !robot((q.0 + dr, q.1 + dc)) {
            q = (q.0 + dr, q.1 + dc);
        }
        if q == m.from {
            return None;
        }
        let mut next = *s;
        if m.from == s.red {
            next.red = q;
        } else {
            let k = s.others().iter().position(|&p| p == m.from).unwrap();
            next.others[k] = q;
            next.others[..next.n].sort_unstable();
        }
        Some(next)
    }

    fn goal(&self, s: &State) -> bool {
        self.rows[s.red.0 as usize][s.red.1 as usize] == b'X'
    }

    /// The fewest slides that bring the red robot onto the target, or `None`.
    pub fn solve(&self) -> Option<u64> {
        let start = self.start();
        let mut seen = HashSet::from([start]);
        let mut queue = VecDeque::from([(start, 0u64)]);
        while let Some((s, cost)) = queue.pop_front() {
            if self.goal(&s) {
                return Some(cost);
            }
            for from in std::iter::once(s.red).chain(s.others().iter().copied()) {
                for dir in 0..4 {
                    if let Some(n) = self.apply(&s, Slide { from, dir }) {
                        if seen.insert(n) {
                            queue.push_back((n, cost + 1));
                        }
                    }
                }
            }
        }
        None
    }

    /// Plays slides: `Err` names the first slide that is not allowed or a path that does
    /// not end with the red robot on the target; `Ok` is the cell where each slide
    /// stopped (the path's cost is their number).
    pub fn replay(&self, slides: &[Slide]) -> Result<Vec<Cell>, String> {
        let mut s = self.start();
        let mut stops = vec![];
        for (k, &m) in slides.iter().enumerate() {
            let before = s;
            s = self
                .apply(&s, m)
                .ok_or_else(|| format!("slide {k} ({m:?}) is not allowed"))?;
            // The one robot not where it was before is the one that moved.
            let moved = std::iter::once(s.red)
                .chain(s.others().iter().copied())
                .find(|&p| p != before.red && !before.others().contains(&p));
            stops.push(moved.expect("a legal slide moves its robot"));
        }
        if !self.goal(&s) {
            return Err("the red robot does not end on the target".into());
        }
        Ok(stops)
    }
}

/// A random small level: walls, the red robot, zero to three other robots, one target.
pub fn random_level(rng: &mut fastrand::Rng) -> String {
    // Three other robots only on boards up to 5x5: an unsolvable 6x6 board with four
    // robots has some 10^5 positions, slow to exhaust in a debug build.
    let n = rng.usize(0..=3);
    let most = if n == 3 { 5 } else { 6 };
    let (h, w) = (rng.usize(2..=most), rng.usize(2..=most));
    let mut g: Vec<u8> = (0..h * w)
        .map(|_| if rng.u8(0..100) < 12 { b'#' } else { b'.' })
        .collect();
    let mut free: Vec<usize> = (0..h * w).filter(|&i| g[i] == b'.').collect();
    if free.len() < 2 + n {
        return random_level(rng);
    }
    rng.shuffle(&mut free);
    g[free[0]] = b'R';
    g[free[1]] = b'X';
    for &i in &free[2..2 + n] {
        g[i] = b'r';
    }
    g.chunks(w)
        .map(|r| String::from_utf8(r.to_vec()).unwrap() + "\n")
        .collect()
}
