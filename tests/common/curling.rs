//! Curling 2.0 (`puzzles/curling.puz`, POJ 3009 / AOJ 1144): random boards and a brute
//! force written from the spec (`/work/shared/spec/puzzles.md`, section 4), sharing
//! nothing with the crate:
//!
//! - cells: `0` vacant, `1` block, `2` start, `3` goal; the judge header is `w h` (width
//!   first), then h rows of w integers; `0 0` ends the input;
//! - a throw picks n/s/w/e; it is not allowed when the adjacent cell that way is a block;
//! - the stone slides until it enters the goal (stops: solved), or the next cell is a block
//!   (stops before it; the block disappears), or it leaves the board (the throw is lost);
//! - at most 10 throws; the answer is the fewest throws, or `-1`.
//!
//! The brute force is a breadth-first search over (stone cell, blocks still standing).

use std::collections::HashSet;

/// Direction vectors (row, column) in the letter order `n s w e`.
pub const DIRS: [(i64, i64); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
/// The most throws a solution may use.
pub const LIMIT: usize = 10;

/// A board in the shipped codes: 0 ice, 1 block, 2 start, 3 goal.
#[derive(Clone, Debug)]
pub struct Board {
    pub w: usize,
    pub h: usize,
    /// Row-major cell codes 0..=3.
    pub cells: Vec<u8>,
}

/// Which blocks still stand: one bit per cell.
pub type Blocks = Vec<u64>;

/// What one throw does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Throw {
    /// The adjacent cell is a block.
    Forbidden,
    /// The stone left the board.
    Lost,
    /// The stone entered the goal.
    Goal,
    /// The stone stopped at `at` and the block at `broke` disappeared.
    Stop { at: usize, broke: usize },
}

impl Board {
    /// `h` rows of `w` whitespace-separated codes.
    pub fn parse(w: usize, h: usize, rows: &[&str]) -> Board {
        let cells: Vec<u8> = rows
            .iter()
            .flat_map(|r| r.split_whitespace().map(|t| t.parse::<u8>().unwrap()))
            .collect();
        assert_eq!(cells.len(), w * h);
        Board { w, h, cells }
    }

    /// Level text: rows of codes, as in the shipped legend.
    pub fn from_text(text: &str) -> Board {
        let rows: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let w = rows[0].split_whitespace().count();
        Board::parse(w, rows.len(), &rows)
    }

    fn find(&self, code: u8) -> usize {
        let v: Vec<usize> = (0..self.cells.len())
            .filter(|&i| self.cells[i] == code)
            .collect();
        assert_eq!(v.len(), 1, "a board has exactly one {code}");
        v[0]
    }

    pub fn start(&self) -> usize {
        self.find(2)
    }

    pub fn goal(&self) -> usize {
        self.find(3)
    }

    pub fn blocks(&self) -> Blocks {
        let mut b = vec![0u64; self.cells.len().div_ceil(64)];
        for (i, &c) in self.cells.iter().enumerate() {
            if c == 1 {
                b[i / 64] |= 1 << (i % 64);
            }
        }
        b
    }

    fn cell(&self, r: i64, c: i64) -> Option<usize> {
        (r >= 0 && c >= 0 && (r as usize) < self.h && (c as usize) < self.w)
            .then(|| r as usize * self.w + c as usize)
    }

    /// Throws the stone from `from` towards `d` with `blocks` standing.
    pub fn throw(&self, blocks: &Blocks, from: usize, d: (i64, i64)) -> Throw {
        let has = |i: usize| blocks[i / 64] >> (i % 64) & 1 == 1;
        let (mut r, mut c) = ((from / self.w) as i64, (from % self.w) as i64);
        if let Some(next) = self.cell(r + d.0, c + d.1) {
            if has(next) {
                return Throw::Forbidden;
            }
        }
        let goal = self.goal();
        loop {
            let Some(next) = self.cell(r + d.0, c + d.1) else {
                return Throw::Lost;
            };
            if next == goal {
                return Throw::Goal;
            }
            if has(next) {
                return Throw::Stop {
                    at: r as usize * self.w + c as usize,
                    broke: next,
                };
            }
            r += d.0;
            c += d.1;
        }
    }

    /// Level text with the codes relabelled by `codes[code]`, separated by spaces.
    pub fn text_with(&self, codes: &[&str; 4]) -> String {
        let mut s = String::new();
        for r in 0..self.h {
            let row: Vec<&str> = (0..self.w)
                .map(|c| codes[self.cells[r * self.w + c] as usize])
                .collect();
            s.push_str(&row.join(" "));
            s.push('\n');
        }
        s
    }

    /// Level text in the shipped codes.
    pub fn text(&self) -> String {
        self.text_with(&["0", "1", "2", "3"])
    }

    /// The judge's header (`w h`) and rows.
    pub fn judge_text(&self) -> String {
        format!("{} {}\n{}", self.w, self.h, self.text())
    }

    /// The board as rows of codes with `blocks` standing and the stone (`2`, also when it
    /// stands on the goal) at `stone`.
    pub fn render(&self, blocks: &Blocks, stone: usize) -> String {
        let goal = self.goal();
        let mut s = String::new();
        for r in 0..self.h {
            let row: Vec<&str> = (0..self.w)
                .map(|c| {
                    let i = r * self.w + c;
                    if i == stone {
                        "2"
                    } else if blocks[i / 64] >> (i % 64) & 1 == 1 {
                        "1"
                    } else if i == goal {
                        "3"
                    } else {
                        "0"
                    }
                })
                .collect();
            s.push_str(&row.join(" "));
            s.push('\n');
        }
        s
    }
}

/// Fewest throws reaching the goal, if at most `limit` suffice.
pub fn brute_force(b: &Board, limit: usize) -> Option<usize> {
    let mut seen: HashSet<(usize, Blocks)> = HashSet::new();
    let mut frontier = vec![(b.start(), b.blocks())];
    seen.insert(frontier[0].clone());
    for depth in 1..=limit {
        let mut next = vec![];
        for (at, blocks) in &frontier {
            for d in DIRS {
                match b.throw(blocks, *at, d) {
                    Throw::Forbidden | Throw::Lost => {}
                    Throw::Goal => return Some(depth),
                    Throw::Stop { at, broke } => {
                        let mut nb = blocks.clone();
                        nb[broke / 64] &= !(1 << (broke % 64));
                        if seen.insert((at, nb.clone())) {
                            next.push((at, nb));
                        }
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    None
}

/// The judge's answer line: the fewest throws within the limit, or `-1`.
pub fn answer(b: &Board) -> String {
    match brute_force(b, LIMIT) {
        Some(n) => n.to_string(),
        None => "-1".to_string(),
    }
}

/// A judge input of `boards`, ended by `0 0`.
pub fn judge_input(boards: &[Board]) -> String {
    let mut input: String = boards.iter().map(Board::judge_text).collect();
    input.push_str("0 0\n");
    input
}

// ---------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------

/// A random board: `big` ones 8..=`max` on each side, others 2..=8 wide and 1..=8 high
/// (at most `max`); a random block density; one start and one goal.
pub fn board(rng: &mut fastrand::Rng, big: bool, max: usize) -> Board {
    let (w, h) = if big {
        (rng.usize(8..=max), rng.usize(8..=max))
    } else {
        (rng.usize(2..=max.min(8)), rng.usize(1..=max.min(8)))
    };
    let density = match rng.u8(0..5) {
        0 => rng.u8(0..10),
        1 => rng.u8(50..80),
        _ => rng.u8(10..50),
    };
    let mut cells: Vec<u8> = (0..w * h)
        .map(|_| u8::from(rng.u8(0..100) < density))
        .collect();
    let s = rng.usize(0..w * h);
    let mut g = rng.usize(0..w * h - 1);
    if g >= s {
        g += 1;
    }
    cells[s] = 2;
    cells[g] = 3;
    Board { w, h, cells }
}

/// `n` boards of `seed` up to `max` on a side, a quarter of them big when `max > 8`.
pub fn boards(seed: u64, n: usize, max: usize) -> Vec<Board> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..n)
        .map(|_| {
            let big = max > 8 && rng.u8(0..4) == 0;
            board(&mut rng, big, max)
        })
        .collect()
}

/// A straight run: start, one vacant cell, `k` blocks, the goal (k + 1 throws when nothing
/// else helps), in any of the four directions, sometimes inside other rows.
pub fn corridor(rng: &mut fastrand::Rng, k: usize) -> Board {
    let mut line = vec![2u8, 0];
    line.extend(std::iter::repeat_n(1u8, k));
    line.push(3);
    if rng.bool() {
        line.reverse();
    }
    let mut full = vec![0u8; rng.usize(0..=1)];
    full.extend(line);
    full.extend(std::iter::repeat_n(0u8, rng.usize(0..=1)));
    let len = full.len();
    let others = rng.usize(0..=3);
    let filler = rng.u8(0..3); // 0: all blocks, 1: all vacant, 2: random
    let at = rng.usize(0..=others);
    let mut rows: Vec<Vec<u8>> = (0..others)
        .map(|_| {
            (0..len)
                .map(|_| match filler {
                    0 => 1,
                    1 => 0,
                    _ => u8::from(rng.u8(0..100) < 30),
                })
                .collect()
        })
        .collect();
    rows.insert(at, full);
    let (h, w) = (rows.len(), len);
    if rng.bool() {
        // Vertical: transpose.
        let cells = (0..w)
            .flat_map(|c| rows.iter().map(move |r| r[c]))
            .collect();
        Board { w: h, h: w, cells }
    } else {
        Board {
            w,
            h,
            cells: rows.concat(),
        }
    }
}

/// A one-row board in the shipped codes.
pub fn row(cells: &str) -> Board {
    Board::from_text(cells)
}
