//! Huarong Dao (`puzzles/huarong.puz`, NOIP 2013 variant, Luogu P1979): random boards and
//! a brute force written from the spec (`/work/shared/spec/puzzles.md`, section 3),
//! sharing nothing with the crate:
//!
//! - the board is n x m cells, `0` fixed, `1` movable (a piece, or the one blank);
//! - a move swaps the blank with a movable neighbour (n s w e); each move costs 1;
//! - a state is (blank cell, designated piece cell); the goal is the piece on a target.

use std::collections::{HashMap, VecDeque};

/// Cells are (row, column), 0-based.
pub type Cell = (i64, i64);

/// Direction vectors in the letter order `n s w e`.
pub const DIRS: [(i64, i64); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// A board of movable (`true`) and fixed cells.
#[derive(Clone, Debug)]
pub struct Board {
    pub rows: usize,
    pub cols: usize,
    /// `true` for a movable cell (`1`), row-major.
    pub free: Vec<bool>,
}

impl Board {
    /// A board from rows of `0`/`1` codes.
    pub fn from_codes(rows: usize, cols: usize, text: &str) -> Board {
        Board {
            rows,
            cols,
            free: text.split_whitespace().map(|t| t == "1").collect(),
        }
    }

    pub fn on_board(&self, (r, c): Cell) -> bool {
        r >= 0 && c >= 0 && (r as usize) < self.rows && (c as usize) < self.cols
    }

    pub fn is_free(&self, p: Cell) -> bool {
        self.on_board(p) && self.free[p.0 as usize * self.cols + p.1 as usize]
    }

    pub fn free_cells(&self) -> Vec<Cell> {
        let mut v = vec![];
        for r in 0..self.rows as i64 {
            for c in 0..self.cols as i64 {
                if self.is_free((r, c)) {
                    v.push((r, c));
                }
            }
        }
        v
    }

    /// Row-major indices of the movable cells.
    pub fn free_indices(&self) -> Vec<usize> {
        (0..self.rows * self.cols)
            .filter(|&c| self.free[c])
            .collect()
    }

    /// The rows as the judge writes them (`0`/`1` separated by spaces).
    pub fn judge_text(&self) -> String {
        let mut s = String::new();
        for r in 0..self.rows {
            let row: Vec<&str> = (0..self.cols)
                .map(|c| {
                    if self.free[r * self.cols + c] {
                        "1"
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

/// One move of the blank towards `d`: the new (blank, piece), or `None` when illegal.
pub fn step(board: &Board, blank: Cell, piece: Cell, d: (i64, i64)) -> Option<(Cell, Cell)> {
    let next = (blank.0 + d.0, blank.1 + d.1);
    if !board.is_free(next) {
        return None;
    }
    let piece = if next == piece { blank } else { piece };
    Some((next, piece))
}

/// Fewest moves bringing the piece from `piece` onto one of `targets`; the blank starts at
/// `blank`. Both start cells must be distinct free cells.
pub fn bfs(board: &Board, blank: Cell, piece: Cell, targets: &[Cell]) -> Option<usize> {
    let mut dist: HashMap<(Cell, Cell), usize> = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert((blank, piece), 0);
    queue.push_back((blank, piece));
    while let Some((b, p)) = queue.pop_front() {
        let d0 = dist[&(b, p)];
        if targets.contains(&p) {
            return Some(d0);
        }
        for d in DIRS {
            if let Some(s) = step(board, b, p, d) {
                if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(s) {
                    e.insert(d0 + 1);
                    queue.push_back(s);
                }
            }
        }
    }
    None
}

/// The compass vector of a path letter.
pub fn dir_of(letter: char) -> Option<(i64, i64)> {
    Some(match letter {
        'n' => DIRS[0],
        's' => DIRS[1],
        'w' => DIRS[2],
        'e' => DIRS[3],
        _ => return None,
    })
}

/// Replays blank moves (`n s w e`) with the brute-force rules: the piece's last cell, or
/// which move is illegal.
pub fn replay(board: &Board, blank: Cell, piece: Cell, letters: &str) -> Result<Cell, String> {
    let (mut b, mut p) = (blank, piece);
    for (k, ch) in letters.chars().enumerate() {
        let d = dir_of(ch).ok_or_else(|| format!("unexpected letter {ch:?} in {letters:?}"))?;
        (b, p) = step(board, b, p, d).ok_or_else(|| {
            format!(
                "move {} ({ch}) of {letters:?} is illegal (blank {b:?}, piece {p:?})",
                k + 1
            )
        })?;
    }
    Ok(p)
}

/// A character level (`#` fixed, `.` free, `E` blank, `S` piece, `T` target, `*` piece on
/// a target) in the brute force's terms: the board, the blank, the piece and the targets.
pub fn parse_chars(text: &str) -> (Board, Cell, Cell, Vec<Cell>) {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let (rows, cols) = (lines.len(), lines[0].len());
    let mut free = vec![];
    let (mut e, mut s, mut t) = (None, None, vec![]);
    for (r, l) in lines.iter().enumerate() {
        assert_eq!(l.len(), cols);
        for (c, ch) in l.chars().enumerate() {
            let p = (r as i64, c as i64);
            free.push(ch != '#');
            match ch {
                'E' => e = Some(p),
                'S' => s = Some(p),
                'T' => t.push(p),
                '*' => {
                    s = Some(p);
                    t.push(p);
                }
                _ => {}
            }
        }
    }
    (
        Board { rows, cols, free },
        e.expect("a blank"),
        s.expect("a piece"),
        t,
    )
}

/// The fewest moves of a character level (see [`parse_chars`]), or `None`.
pub fn solve_chars(text: &str) -> Option<usize> {
    let (b, e, s, t) = parse_chars(text);
    bfs(&b, e, s, &t)
}

// ---------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------

/// A random board up to 6 x 6 with a per-board density of movable cells, from nearly all
/// fixed to all movable.
pub fn board(rng: &mut fastrand::Rng) -> Board {
    let rows = rng.usize(1..=6);
    let cols = rng.usize(1..=6);
    let density = match rng.u8(0..4) {
        0 => 100,
        _ => rng.u8(20..=100),
    };
    let free = (0..rows * cols).map(|_| rng.u8(0..100) < density).collect();
    Board { rows, cols, free }
}

/// A random board up to 6 x 7 of another shape mix: open fields, sparse walls, corridors
/// with dead ends and cut cells, or nearly all fixed.
pub fn maze(rng: &mut fastrand::Rng) -> Board {
    let rows = rng.usize(1..=6);
    let cols = rng.usize(1..=7);
    let n = rows * cols;
    let free = match rng.u8(0..5) {
        0 => vec![true; n],
        1 => (0..n).map(|_| rng.u8(0..100) < 85).collect(),
        2 => (0..n).map(|_| rng.u8(0..100) < 65).collect(),
        3 => {
            // Corridors: a random spanning tree's cells on the odd lattice, plus a few
            // extra openings (cycles).
            let mut f = vec![false; n];
            let (mut stack, mut seen) = (vec![(0usize, 0usize)], vec![false; n]);
            seen[0] = true;
            f[0] = true;
            while let Some(&(r, c)) = stack.last() {
                let mut opts = vec![];
                for (dr, dc) in [(-2i64, 0i64), (2, 0), (0, -2), (0, 2)] {
                    let (r2, c2) = (r as i64 + dr, c as i64 + dc);
                    if r2 >= 0 && c2 >= 0 && (r2 as usize) < rows && (c2 as usize) < cols {
                        let i = r2 as usize * cols + c2 as usize;
                        if !seen[i] {
                            opts.push((r2 as usize, c2 as usize));
                        }
                    }
                }
                if opts.is_empty() {
                    stack.pop();
                    continue;
                }
                let (r2, c2) = opts[rng.usize(0..opts.len())];
                seen[r2 * cols + c2] = true;
                f[r2 * cols + c2] = true;
                f[(r + r2) / 2 * cols + (c + c2) / 2] = true;
                stack.push((r2, c2));
            }
            for _ in 0..rng.usize(0..4) {
                f[rng.usize(0..n)] = true;
            }
            f
        }
        _ => (0..n).map(|_| rng.u8(0..100) < 40).collect(),
    };
    Board { rows, cols, free }
}

/// A judge input: `rows cols queries`, the rows, one query line each.
pub fn judge_input(b: &Board, queries: &[String]) -> String {
    let mut s = format!("{} {} {}\n", b.rows, b.cols, queries.len());
    s.push_str(&b.judge_text());
    for q in queries {
        s.push_str(q);
        s.push('\n');
    }
    s
}
