//! Bloxorz with bridges and switches (`puzzles/bloxorz-switches.puz`): a brute force and a
//! random level generator written from the corpus spec (`/work/shared/spec/corpus.md`,
//! "bloxorz-switches.puz", on top of `/work/shared/spec/puzzles.md` section 1), sharing
//! nothing with the crate:
//!
//! - `#` void, `.` floor, `E` fragile, `X` block (on floor), `O` target; for groups 1 and 2:
//!   soft switch `a` / `b`, heavy switch `A` / `B`, bridge present at start `1` / `2`,
//!   absent at start `!` / `@`;
//! - a roll: standing on `p` towards `d` covers `p + d` and `p + 2d`; lying along `d`'s
//!   axis stands up on the cell beyond the far end; lying across moves both cells by `d`;
//! - after the roll every covered cell on a soft switch, and a standing block's cell on a
//!   heavy switch, toggles every bridge of its group once (two toggles cancel);
//! - then the position must be legal: every covered cell on the board, not void, not an
//!   absent bridge, and a standing block not on fragile floor;
//! - the goal is standing on `O`; cost: rolls.
//!
//! Since a toggle flips every bridge of a group, the bridges of a group are all as they
//! started or all flipped: the brute force is a breadth-first search over (covered cells,
//! one flip bit per group).

use std::collections::{HashSet, VecDeque};

/// Direction vectors (row, column) in the order `n s w e`.
pub const DIRS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

type Cell = (i32, i32);

/// The covered cells, sorted; `a == b` when standing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Block {
    a: Cell,
    b: Cell,
}

impl Block {
    fn new(p: Cell, q: Cell) -> Block {
        Block {
            a: p.min(q),
            b: p.max(q),
        }
    }

    fn standing(self) -> bool {
        self.a == self.b
    }

    /// The distinct covered cells.
    fn cells(self) -> Vec<Cell> {
        if self.standing() {
            vec![self.a]
        } else {
            vec![self.a, self.b]
        }
    }

    /// The block after rolling towards `d`, by geometry.
    fn roll(self, d: usize) -> Block {
        let (dr, dc) = DIRS[d];
        let add = |p: Cell, k: i32| (p.0 + k * dr, p.1 + k * dc);
        if self.standing() {
            return Block::new(add(self.a, 1), add(self.a, 2));
        }
        let axis = (self.b.0 - self.a.0, self.b.1 - self.a.1);
        if axis.0 * dr + axis.1 * dc == 0 {
            Block::new(add(self.a, 1), add(self.b, 1))
        } else {
            // Along the axis: stand beyond the end that lies towards d.
            let far = if (self.b.0 - self.a.0) * dr + (self.b.1 - self.a.1) * dc > 0 {
                self.b
            } else {
                self.a
            };
            let p = add(far, 1);
            Block::new(p, p)
        }
    }
}

/// A parsed level.
pub struct Level {
    rows: Vec<Vec<u8>>,
    start: Block,
}

/// (block, flip bit of group 1 in bit 0 and of group 2 in bit 1).
type State = (Block, u8);

impl Level {
    /// Reads a level in the spec's notation (one row per line, blank lines ignored).
    pub fn parse(text: &str) -> Level {
        let rows: Vec<Vec<u8>> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|l| l.as_bytes().to_vec())
            .collect();
        let mut xs = vec![];
        for (r, row) in rows.iter().enumerate() {
            assert_eq!(row.len(), rows[0].len(), "ragged level");
            for (c, &ch) in row.iter().enumerate() {
                assert!(
                    b"#.EXOaAbB12!@".contains(&ch),
                    "unknown symbol {:?}",
                    ch as char
                );
                if ch == b'X' {
                    xs.push((r as i32, c as i32));
                }
            }
        }
        let start = match xs[..] {
            [p] => Block::new(p, p),
            [p, q] if (p.0 - q.0).abs() + (p.1 - q.1).abs() == 1 => Block::new(p, q),
            _ => panic!("one X or two adjacent X"),
        };
        Level { rows, start }
    }

    fn at(&self, (r, c): Cell) -> Option<u8> {
        if r < 0 || c < 0 {
            return None;
        }
        self.rows.get(r as usize)?.get(c as usize).copied()
    }

    /// Whether the cell bears the block, with bridge flips `flips`.
    fn solid(&self, p: Cell, flips: u8) -> bool {
        match self.at(p) {
            None | Some(b'#') => false,
            Some(b'1') => flips & 1 == 0,
            Some(b'!') => flips & 1 != 0,
            Some(b'2') => flips & 2 == 0,
            Some(b'@') => flips & 2 != 0,
            Some(_) => true,
        }
    }

    /// The position after rolling towards `d`, or `None` when it is not allowed.
    fn apply(&self, (block, flips): State, d: usize) -> Option<State> {
        let next = block.roll(d);
        let mut toggles = 0u8;
        for p in next.cells() {
            toggles ^= match self.at(p) {
                Some(b'a') => 1,
                Some(b'b') => 2,
                Some(b'A') if next.standing() => 1,
                Some(b'B') if next.standing() => 2,
                _ => 0,
            };
        }
        let flips = flips ^ toggles;
        let legal = next.cells().into_iter().all(|p| self.solid(p, flips))
            && !(next.standing() && self.at(next.a) == Some(b'E'));
        legal.then_some((next, flips))
    }

    fn goal(&self, (block, _): State) -> bool {
        block.standing() && self.at(block.a) == Some(b'O')
    }

    /// The fewest rolls to stand on the target, or `None`.
    pub fn solve(&self) -> Option<u64> {
        let start = (self.start, 0);
        let mut seen = HashSet::from([start]);
        let mut queue = VecDeque::from([(start, 0u64)]);
        while let Some((s, cost)) = queue.pop_front() {
            if self.goal(s) {
                return Some(cost);
            }
            for d in 0..4 {
                if let Some(n) = self.apply(s, d) {
                    if seen.insert(n) {
                        queue.push_back((n, cost + 1));
                    }
                }
            }
        }
        None
    }

    /// Plays rolls (indices into [`DIRS`]): `Err` names the first roll that is not allowed
    /// or a path that does not end standing on the target; `Ok` is the cost.
    pub fn replay(&self, dirs: &[usize]) -> Result<u64, String> {
        let mut s = (self.start, 0);
        for (k, &d) in dirs.iter().enumerate() {
            s = self.apply(s, d).ok_or_else(|| {
                format!("roll {k} ({}) is not allowed", "nswe".as_bytes()[d] as char)
            })?;
        }
        if !self.goal(s) {
            return Err(format!(
                "the block ends at {:?}, not standing on the target",
                s.0
            ));
        }
        Ok(dirs.len() as u64)
    }
}

/// Rolls from the letters of `puzzles/bloxorz-switches.puz` (`nswe`).
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

/// A random level up to 6x8: void, fragile floor, bridges and switches of both groups,
/// the block standing (or lying on two `X`) and one target. One level in three is dense
/// with switches, so that a lying block often rests on two of them.
pub fn random_level(rng: &mut fastrand::Rng) -> String {
    let (h, w) = (rng.usize(3..=6), rng.usize(3..=8));
    // Percent weights of `# E 1 ! 2 @ a A b B`; the rest is floor.
    let weights: [(u8, u8); 10] = if rng.u8(0..3) == 0 {
        [
            (b'#', 8),
            (b'E', 4),
            (b'1', 6),
            (b'!', 6),
            (b'2', 6),
            (b'@', 6),
            (b'a', 8),
            (b'A', 10),
            (b'b', 8),
            (b'B', 10),
        ]
    } else {
        [
            (b'#', 10),
            (b'E', 6),
            (b'1', 8),
            (b'!', 8),
            (b'2', 6),
            (b'@', 6),
            (b'a', 4),
            (b'A', 3),
            (b'b', 4),
            (b'B', 3),
        ]
    };
    let mut g: Vec<u8> = (0..h * w)
        .map(|_| {
            let mut x = rng.u8(0..100);
            for (ch, p) in weights {
                if x < p {
                    return ch;
                }
                x -= p;
            }
            b'.'
        })
        .collect();
    let mut free: Vec<usize> = (0..h * w).filter(|&i| g[i] == b'.').collect();
    if free.len() < 3 {
        return random_level(rng);
    }
    rng.shuffle(&mut free);
    let x = free[0];
    g[x] = b'X';
    g[free[1]] = b'O';
    if rng.bool() {
        // Lying: a second X on a floor neighbour, if there is one.
        let (r, c) = (x / w, x % w);
        let mut near = vec![];
        if r > 0 {
            near.push(x - w);
        }
        if r + 1 < h {
            near.push(x + w);
        }
        if c > 0 {
            near.push(x - 1);
        }
        if c + 1 < w {
            near.push(x + 1);
        }
        if let Some(&y) = near.iter().find(|&&y| g[y] == b'.') {
            g[y] = b'X';
        }
    }
    g.chunks(w)
        .map(|r| String::from_utf8(r.to_vec()).unwrap() + "\n")
        .collect()
}
