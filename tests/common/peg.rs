//! Peg solitaire (`puzzles/pegsolitaire.puz`; rules in `/work/shared/spec/corpus.md`): an
//! independent search, a jump replayer and random boards, sharing no code with the crate.
//!
//! Notation: `#` not a hole, `.` an empty hole, `o` a peg, `+` an empty target hole, `O` a
//! peg on a target hole. A jump moves a peg two cells n, s, w or e over an adjacent peg
//! into an empty hole and removes the jumped peg. Goal: one peg left, on a target when the
//! board marks one (with no target, anywhere). Every jump removes one peg, so a solution
//! from `k` pegs has exactly `k - 1` jumps; the search only has to decide whether one
//! exists: a depth-first search that remembers dead positions (positions already seen
//! fail, since any position reached twice was fully explored or is being explored on a
//! path that cannot revisit it: the peg count strictly falls).

use std::collections::HashSet;

/// Direction vectors in the order n, s, w, e.
pub const DIRS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// A board: its holes, targets and start pegs as bit sets over `r * cols + c`.
#[derive(Clone, Debug)]
pub struct Level {
    pub rows: i32,
    pub cols: i32,
    pub holes: u64,
    pub targets: u64,
    pub start: u64,
}

/// One jump: the peg on `from` jumps two cells along `DIRS[dir]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub from: (i32, i32),
    pub dir: usize,
}

impl Move {
    /// The move of the peg anchored on `from` to `to`, two cells away along one of
    /// [`DIRS`], or `None` when `to` is not such a cell.
    pub fn between(from: (i32, i32), to: (i32, i32)) -> Option<Move> {
        let d = ((to.0 - from.0) / 2, (to.1 - from.1) / 2);
        let dir = DIRS.iter().position(|&v| v == d)?;
        (from.0 + 2 * d.0 == to.0 && from.1 + 2 * d.1 == to.1).then_some(Move { from, dir })
    }
}

/// The English 33-hole board, every hole filled but the centre, the centre the target.
pub const ENGLISH: &str = "##ooo##\n##ooo##\nooooooo\nooo+ooo\nooooooo\n##ooo##\n##ooo##\n";

impl Level {
    /// Reads the notation above.
    pub fn parse(text: &str) -> Level {
        let rows: Vec<&str> = text.split_whitespace().collect();
        let cols = rows[0].len() as i32;
        assert!(rows.len() as i32 * cols <= 64, "board too large");
        let mut l = Level {
            rows: rows.len() as i32,
            cols,
            holes: 0,
            targets: 0,
            start: 0,
        };
        for (r, row) in rows.iter().enumerate() {
            assert_eq!(row.len() as i32, cols, "ragged level:\n{text}");
            for (c, ch) in row.bytes().enumerate() {
                let bit = 1u64 << (r as i32 * cols + c as i32);
                match ch {
                    b'#' => continue,
                    b'.' => {}
                    b'o' => l.start |= bit,
                    b'+' => l.targets |= bit,
                    b'O' => {
                        l.start |= bit;
                        l.targets |= bit
                    }
                    _ => panic!("unknown symbol {:?}", ch as char),
                }
                l.holes |= bit;
            }
        }
        l
    }

    /// The bit of the cell `k` steps from `i` along `dir`, or `None` off the board.
    fn step(&self, i: i32, dir: usize, k: i32) -> Option<i32> {
        let (r, c) = (
            i / self.cols + k * DIRS[dir].0,
            i % self.cols + k * DIRS[dir].1,
        );
        (r >= 0 && c >= 0 && r < self.rows && c < self.cols).then_some(r * self.cols + c)
    }

    /// The pegs after the peg on bit `i` jumps along `dir`, or `None` when it cannot.
    fn jump(&self, pegs: u64, i: i32, dir: usize) -> Option<u64> {
        let over = self.step(i, dir, 1)?;
        let to = self.step(i, dir, 2)?;
        let ok = pegs >> i & 1 == 1
            && pegs >> over & 1 == 1
            && pegs >> to & 1 == 0
            && self.holes >> to & 1 == 1;
        ok.then(|| pegs & !(1 << i) & !(1 << over) | 1 << to)
    }

    /// One peg left, on a target if the board has one.
    pub fn is_goal(&self, pegs: u64) -> bool {
        pegs.count_ones() == 1 && (self.targets == 0 || pegs & self.targets != 0)
    }

    /// The fewest jumps to the goal (always the start's pegs minus one), or `None`.
    pub fn solve(&self) -> Option<u64> {
        self.find().map(|path| path.len() as u64)
    }

    /// A solution, found by depth-first search with a set of dead positions, or `None`.
    pub fn find(&self) -> Option<Vec<Move>> {
        let mut dead = HashSet::new();
        let mut path = vec![];
        self.dfs(self.start, &mut dead, &mut path).then_some(path)
    }

    fn dfs(&self, pegs: u64, dead: &mut HashSet<u64>, path: &mut Vec<Move>) -> bool {
        if self.is_goal(pegs) {
            return true;
        }
        if !dead.insert(pegs) {
            return false;
        }
        let mut rest = pegs;
        while rest != 0 {
            let i = rest.trailing_zeros() as i32;
            rest &= rest - 1;
            for dir in 0..4 {
                if let Some(next) = self.jump(pegs, i, dir) {
                    path.push(Move {
                        from: (i / self.cols, i % self.cols),
                        dir,
                    });
                    if self.dfs(next, dead, path) {
                        return true;
                    }
                    path.pop();
                }
            }
        }
        false
    }

    /// Plays `moves` from the start: the number of jumps and whether the goal holds.
    pub fn replay(&self, moves: &[Move]) -> Result<(u64, bool), String> {
        let mut pegs = self.start;
        for (k, m) in moves.iter().enumerate() {
            let (r, c) = m.from;
            if r < 0 || c < 0 || r >= self.rows || c >= self.cols {
                return Err(format!("jump {k}: {m:?} starts off the board"));
            }
            pegs = self
                .jump(pegs, r * self.cols + c, m.dir)
                .ok_or_else(|| format!("jump {k}: {m:?} is not a legal jump"))?;
        }
        Ok((moves.len() as u64, self.is_goal(pegs)))
    }

    /// The level in the notation above, one row per line.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                let i = r * self.cols + c;
                let (h, t, p) = (
                    self.holes >> i & 1 == 1,
                    self.targets >> i & 1 == 1,
                    self.start >> i & 1 == 1,
                );
                s.push(match (h, t, p) {
                    (false, _, _) => '#',
                    (true, false, false) => '.',
                    (true, false, true) => 'o',
                    (true, true, false) => '+',
                    (true, true, true) => 'O',
                });
            }
            s.push('\n');
        }
        s
    }
}

/// A random board of 3x4 up to 4x5 cells, most of them holes. Half the time the pegs are
/// set by playing jumps backwards from one peg (so the board is usually solvable), else
/// each hole holds a peg with probability one half. A third of the boards mark one target
/// hole.
pub fn random_level(rng: &mut fastrand::Rng) -> Level {
    let (rows, cols) = (rng.i32(3..=4), rng.i32(4..=5));
    let n = rows * cols;
    let mut l = Level {
        rows,
        cols,
        holes: 0,
        targets: 0,
        start: 0,
    };
    for i in 0..n {
        if rng.u8(0..10) != 0 {
            l.holes |= 1 << i;
        }
    }
    let holes: Vec<i32> = (0..n).filter(|&i| l.holes >> i & 1 == 1).collect();
    if holes.len() < 3 {
        return random_level(rng);
    }
    if rng.bool() {
        let first = holes[rng.usize(..holes.len())];
        l.start = 1 << first;
        for _ in 0..rng.usize(1..=holes.len()) {
            // Backwards jump: a peg on `to` returns to `i`, and the jumped peg reappears.
            let to = holes[rng.usize(..holes.len())];
            let dir = rng.usize(0..4);
            if l.start >> to & 1 == 0 {
                continue;
            }
            let (Some(over), Some(from)) = (l.step(to, dir, 1), l.step(to, dir, 2)) else {
                continue;
            };
            let free = |b: i32| l.holes >> b & 1 == 1 && l.start >> b & 1 == 0;
            if free(over) && free(from) {
                l.start = l.start & !(1 << to) | 1 << over | 1 << from;
            }
        }
        if rng.u8(0..3) == 0 {
            l.targets = 1 << first;
        }
    } else {
        for &h in &holes {
            if rng.bool() {
                l.start |= 1 << h;
            }
        }
        if rng.u8(0..3) == 0 {
            l.targets = 1 << holes[rng.usize(..holes.len())];
        }
    }
    l
}
