//! Bloxorz (`puzzles/bloxorz.puz`): a random level generator and a brute force written
//! from the spec (`/work/shared/spec/puzzles.md`, section 1), sharing nothing with the
//! crate.
//!
//! The brute force works on the set of covered cells (one cell standing, two lying) and
//! derives every roll geometrically instead of from the `.puz` turn table:
//!
//! - standing on `p`, rolling towards `d` covers `p + d` and `p + 2d`;
//! - lying along `d`'s axis, the block stands up on the cell beyond its far end in `d`;
//! - lying across `d`'s axis, both covered cells move by `d`.
//!
//! A position is legal when every covered cell is on the board and not `#`, and a standing
//! block is not on `E`. The goal is standing on `O`; the cost is the number of rolls.

use std::collections::{HashMap, VecDeque};

// ---------------------------------------------------------------------------------------
// Brute force
// ---------------------------------------------------------------------------------------

/// A block position: the covered cells, sorted; `b == a` when standing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pos {
    pub a: (i32, i32),
    pub b: (i32, i32),
}

impl Pos {
    pub fn new(p: (i32, i32), q: (i32, i32)) -> Pos {
        if p <= q {
            Pos { a: p, b: q }
        } else {
            Pos { a: q, b: p }
        }
    }

    pub fn standing(&self) -> bool {
        self.a == self.b
    }
}

/// A level in the shipped symbols `. E # X O`.
pub struct Board {
    grid: Vec<Vec<u8>>,
}

impl Board {
    pub fn parse(text: &str) -> Board {
        Board {
            grid: text.lines().map(|l| l.as_bytes().to_vec()).collect(),
        }
    }

    pub fn rows(&self) -> i32 {
        self.grid.len() as i32
    }

    pub fn cols(&self) -> i32 {
        self.grid[0].len() as i32
    }

    /// The cell's byte, or `None` off the board.
    pub fn at(&self, (r, c): (i32, i32)) -> Option<u8> {
        if r < 0 || c < 0 {
            return None;
        }
        self.grid.get(r as usize)?.get(c as usize).copied()
    }

    fn solid(&self, p: (i32, i32)) -> bool {
        matches!(self.at(p), Some(b'.' | b'E' | b'X' | b'O'))
    }

    pub fn legal(&self, pos: Pos) -> bool {
        if pos.standing() {
            self.solid(pos.a) && self.at(pos.a) != Some(b'E')
        } else {
            self.solid(pos.a) && self.solid(pos.b)
        }
    }

    pub fn goal(&self, pos: Pos) -> bool {
        pos.standing() && self.at(pos.a) == Some(b'O')
    }

    /// The cells holding `ch`, row by row.
    pub fn find(&self, ch: u8) -> Vec<(i32, i32)> {
        let mut v = vec![];
        for r in 0..self.rows() {
            for c in 0..self.grid[r as usize].len() as i32 {
                if self.at((r, c)) == Some(ch) {
                    v.push((r, c));
                }
            }
        }
        v
    }

    /// The start: one `X` standing, two adjacent `X` lying.
    pub fn start(&self) -> Pos {
        let xs = self.find(b'X');
        match xs.as_slice() {
            [p] => Pos::new(*p, *p),
            [p, q] => {
                assert_eq!(
                    (p.0 - q.0).abs() + (p.1 - q.1).abs(),
                    1,
                    "non-adjacent X cells"
                );
                Pos::new(*p, *q)
            }
            _ => panic!("{} X cells", xs.len()),
        }
    }

    /// Whether a cell is on the board's outer rows or columns.
    pub fn on_border(&self, p: (i32, i32)) -> bool {
        p.0 == 0 || p.1 == 0 || p.0 == self.rows() - 1 || p.1 == self.cols() - 1
    }
}

/// Direction vectors, indexed like the letters `n s w e`.
pub const DIRS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

pub fn dir_of(letter: char) -> (i32, i32) {
    match letter {
        'n' => DIRS[0],
        's' => DIRS[1],
        'w' => DIRS[2],
        'e' => DIRS[3],
        other => panic!("unexpected path letter {other:?}"),
    }
}

fn add(p: (i32, i32), d: (i32, i32), k: i32) -> (i32, i32) {
    (p.0 + k * d.0, p.1 + k * d.1)
}

/// The geometric roll of the block towards `d` (legality not checked).
pub fn roll(pos: Pos, d: (i32, i32)) -> Pos {
    if pos.standing() {
        return Pos::new(add(pos.a, d, 1), add(pos.a, d, 2));
    }
    let axis = (pos.b.0 - pos.a.0, pos.b.1 - pos.a.1);
    let along = axis.0 * d.0 + axis.1 * d.1;
    if along != 0 {
        // Parallel: stand up beyond the end that leads in `d`.
        let far = if along > 0 { pos.b } else { pos.a };
        let p = add(far, d, 1);
        Pos::new(p, p)
    } else {
        Pos::new(add(pos.a, d, 1), add(pos.b, d, 1))
    }
}

/// Fewest rolls from the start to a goal, or `None` when no goal is reachable.
pub fn brute_force(board: &Board) -> Option<usize> {
    let start = board.start();
    assert!(board.legal(start), "illegal start");
    let mut dist: HashMap<Pos, usize> = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert(start, 0);
    queue.push_back(start);
    while let Some(p) = queue.pop_front() {
        let d0 = dist[&p];
        if board.goal(p) {
            return Some(d0);
        }
        for d in DIRS {
            let q = roll(p, d);
            if board.legal(q) && !dist.contains_key(&q) {
                dist.insert(q, d0 + 1);
                queue.push_back(q);
            }
        }
    }
    None
}

/// Replays a path of `n s w e` letters with the brute-force rules: every position (the
/// start included). Panics on any illegal roll or when the path does not end standing on
/// `O`.
pub fn replay(board: &Board, letters: &str, what: &str) -> Vec<Pos> {
    let mut pos = board.start();
    let mut all = vec![pos];
    for (k, ch) in letters.chars().enumerate() {
        pos = roll(pos, dir_of(ch));
        assert!(
            board.legal(pos),
            "{what}: roll {} ({ch}) of path {letters:?} leads to illegal {pos:?}",
            k + 1
        );
        all.push(pos);
    }
    assert!(
        board.goal(pos),
        "{what}: path {letters:?} ends at {pos:?}, not standing on O"
    );
    all
}

// ---------------------------------------------------------------------------------------
// Generator
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame {
    /// No `#` border: leaving the board must be illegal anyway.
    None,
    /// A full `#` border; start and target inside.
    Full,
    /// Some border cells `#`, the rest random.
    Partial,
}

/// One random valid Bloxorz level in the shipped symbols `. E # X O` (rows joined by
/// '\n'): unframed, fully framed or partly framed, up to `max` x `max`, a standing start
/// (one X) or a lying one (two X), sometimes on the border.
pub fn board(rng: &mut fastrand::Rng, max: usize) -> (String, Frame) {
    let frame = match rng.u8(0..10) {
        0..=4 => Frame::None,
        5..=7 => Frame::Full,
        _ => Frame::Partial,
    };
    let min = if frame == Frame::Full { 4 } else { 3 };
    let rows = rng.usize(min..=max);
    let cols = rng.usize(min..=max);
    let wall = rng.u8(0..45);
    let fragile = rng.u8(0..35);
    let mut g = vec![vec![b'.'; cols]; rows];
    for row in g.iter_mut() {
        for cell in row.iter_mut() {
            let x = rng.u8(0..100);
            *cell = if x < wall {
                b'#'
            } else if x < wall + fragile {
                b'E'
            } else {
                b'.'
            };
        }
    }
    let border = |r: usize, c: usize| r == 0 || c == 0 || r + 1 == rows || c + 1 == cols;
    for (r, row) in g.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            if border(r, c) && (frame == Frame::Full || (frame == Frame::Partial && rng.bool())) {
                *cell = b'#';
            }
        }
    }
    let (lo_r, hi_r, lo_c, hi_c) = if frame == Frame::Full {
        (1, rows - 2, 1, cols - 2)
    } else {
        (0, rows - 1, 0, cols - 1)
    };
    let on_border = frame != Frame::Full && rng.u8(0..4) == 0;
    let pick = |rng: &mut fastrand::Rng, max_dr: usize, max_dc: usize| -> (usize, usize) {
        loop {
            let r = rng.usize(lo_r..=hi_r - max_dr);
            let c = rng.usize(lo_c..=hi_c - max_dc);
            if !on_border || border(r, c) || border(r + max_dr, c + max_dc) {
                return (r, c);
            }
        }
    };
    let start: Vec<(usize, usize)> = match rng.u8(0..3) {
        0 => vec![pick(rng, 0, 0)],
        1 => {
            let (r, c) = pick(rng, 1, 0);
            vec![(r, c), (r + 1, c)]
        }
        _ => {
            let (r, c) = pick(rng, 0, 1);
            vec![(r, c), (r, c + 1)]
        }
    };
    for &(r, c) in &start {
        g[r][c] = b'X';
    }
    let target_border = frame != Frame::Full && rng.u8(0..4) == 0;
    loop {
        let r = rng.usize(lo_r..=hi_r);
        let c = rng.usize(lo_c..=hi_c);
        if start.contains(&(r, c)) || (target_border && !border(r, c)) {
            continue;
        }
        g[r][c] = b'O';
        break;
    }
    let text: Vec<String> = g
        .into_iter()
        .map(|r| String::from_utf8(r).unwrap())
        .collect();
    (text.join("\n"), frame)
}

/// `n` boards of `seed`, up to `max` x `max`.
pub fn boards(seed: u64, n: usize, max: usize) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..n).map(|_| board(&mut rng, max).0).collect()
}

/// A judge input (POJ 3322: `rows cols`, the rows, ..., `0 0`) of `boards`, lines ended by
/// `line_end`.
pub fn judge_input(boards: &[String], line_end: &str) -> String {
    let mut input = String::new();
    for b in boards {
        let lines: Vec<&str> = b.lines().collect();
        input.push_str(&format!("{} {}{line_end}", lines.len(), lines[0].len()));
        for l in lines {
            input.push_str(l);
            input.push_str(line_end);
        }
    }
    input.push_str(&format!("0 0{line_end}"));
    input
}

/// The judge's expected output for `boards`: the fewest rolls, or `Impossible`.
pub fn judge_output(boards: &[String]) -> String {
    boards
        .iter()
        .map(|b| match brute_force(&Board::parse(b)) {
            Some(n) => format!("{n}\n"),
            None => "Impossible\n".to_string(),
        })
        .collect()
}
