//! Where each object is: a bitset of cells per object, kept up to date on every write
//! to the level, so that a rule finds the cells where it can start without testing
//! every cell, and a win condition is a few words of bitset arithmetic.
//!
//! Cells are numbered as the level stores them (column by column, `x * height + y`);
//! bit `i` of a bitset is cell `i`, and bits past the last cell are always clear.

/// The cells of each object, how many cells hold it, and the objects on the board; and
/// the cells that may hold movement this turn.
#[derive(Clone, Debug, Default)]
pub(crate) struct Occupancy {
    /// Words per bitset.
    pub nw: usize,
    /// Object `o`'s cells: words `o * nw ..(o + 1) * nw`.
    pub cells: Vec<u64>,
    /// How many cells hold each object.
    count: Vec<u32>,
    /// The objects somewhere on the board (`so` words, exact).
    pub board: Vec<u64>,
    /// Set when `board` may have changed.
    pub dirty: bool,
    /// Counts the changes to `cells` (never goes back, not even on a new level).
    pub version: u64,
    /// Cells that may hold movement (a superset: set when movement is written, cleared
    /// when every movement is).
    pub moving: Vec<u64>,
    /// Movement bits that may be somewhere (`sm` words, a superset likewise).
    pub mov_board: Vec<u64>,
    /// Per object, the `version` at which its cells last changed (every object's is
    /// the version of the load, at least).
    pub stamp: Vec<u64>,
}

impl Occupancy {
    /// Rebuilds everything from a level of `n` cells (`so` words each) without movement.
    pub fn load(&mut self, objects: &[u64], n: usize, so: usize, sm: usize) {
        self.nw = n.div_ceil(64);
        let ids = so * 64;
        self.cells.clear();
        self.cells.resize(ids * self.nw, 0);
        self.count.clear();
        self.count.resize(ids, 0);
        self.board.clear();
        self.board.resize(so, 0);
        self.dirty = true;
        self.version += 1;
        self.moving.clear();
        self.moving.resize(self.nw, 0);
        self.mov_board.clear();
        self.mov_board.resize(sm, 0);
        for i in 0..n {
            for w in 0..so {
                let v = objects[i * so + w];
                if v != 0 {
                    self.change(i, w, v, v);
                }
            }
        }
        // A new level: every object as if it had just moved.
        self.version += 1;
        self.stamp.clear();
        self.stamp.resize(ids, self.version);
    }

    /// Records that word `w` of cell `i` changed in the bits `diff`, now `new`.
    #[inline]
    pub fn change(&mut self, i: usize, w: usize, diff: u64, new: u64) {
        let (cw, bit) = (i / 64, 1u64 << (i % 64));
        self.version += 1;
        let mut d = diff;
        while d != 0 {
            let b = d.trailing_zeros() as usize;
            d &= d - 1;
            let o = w * 64 + b;
            if let Some(t) = self.stamp.get_mut(o) {
                *t = self.version;
            }
            let at = o * self.nw + cw;
            if new >> b & 1 == 1 {
                self.cells[at] |= bit;
                self.count[o] += 1;
                if self.count[o] == 1 {
                    self.board[w] |= 1 << b;
                    self.dirty = true;
                }
            } else {
                self.cells[at] &= !bit;
                self.count[o] -= 1;
                if self.count[o] == 0 {
                    self.board[w] &= !(1 << b);
                    self.dirty = true;
                }
            }
        }
    }

    /// Object `o`'s cells.
    #[inline]
    pub fn of(&self, o: usize) -> &[u64] {
        &self.cells[o * self.nw..(o + 1) * self.nw]
    }

    /// Word `k` of the cells (of `n`) that hold every object of `mask` (`all`) or one.
    #[inline]
    pub fn word_of(&self, mask: &[u64], all: bool, k: usize, n: usize) -> u64 {
        let mut acc = if all { valid_word(k, n) } else { 0 };
        for (w, &m) in mask.iter().enumerate() {
            let mut bits = m;
            while bits != 0 {
                let o = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let c = self.cells[o * self.nw + k];
                if all {
                    acc &= c;
                } else {
                    acc |= c;
                }
            }
        }
        acc
    }

    /// Notes that cell `i` holds movement `m` (`sm` words) now.
    #[inline]
    pub fn note_moving(&mut self, i: usize, m: &[u64]) {
        let mut any = 0;
        for (a, &b) in self.mov_board.iter_mut().zip(m) {
            *a |= b;
            any |= b;
        }
        if any != 0 {
            self.moving[i / 64] |= 1 << (i % 64);
        }
    }

    /// Forgets all movement (the caller cleared it).
    #[inline]
    pub fn clear_moving(&mut self) {
        self.moving.fill(0);
        self.mov_board.fill(0);
    }
}

/// Word `k` of the bitset of all `n` cells.
#[inline]
pub(crate) fn valid_word(k: usize, n: usize) -> u64 {
    let from = k * 64;
    if n >= from + 64 {
        u64::MAX
    } else if n <= from {
        0
    } else {
        (1u64 << (n - from)) - 1
    }
}

/// `out &= b` shifted so that bit `i` of the result is bit `i + by` of `b` (`by` may be
/// negative); bits that come from outside `b` are clear.
#[inline]
pub(crate) fn and_shifted(out: &mut [u64], b: &[u64], by: isize) {
    and_shifted_any(out, b, by);
}

/// [`and_shifted`] on bitsets of `N` words (unrolled).
#[inline(always)]
pub(crate) fn and_shifted_n<const N: usize>(out: &mut [u64; N], b: &[u64; N], by: isize) {
    let s = by.unsigned_abs();
    let (words, bits) = (s / 64, (s % 64) as u32);
    let at = |j: usize| if j < N { b[j] } else { 0 };
    for (k, o) in out.iter_mut().enumerate() {
        let v = if by >= 0 {
            let lo = at(k + words);
            if bits == 0 {
                lo
            } else {
                (lo >> bits) | (at(k + words + 1) << (64 - bits))
            }
        } else if k < words {
            0
        } else {
            let hi = b[k - words];
            if bits == 0 {
                hi
            } else {
                let lo = if k > words { b[k - words - 1] } else { 0 };
                (hi << bits) | (lo >> (64 - bits))
            }
        };
        *o &= v;
    }
}

/// [`and_shifted`] on bitsets of any size.
fn and_shifted_any(out: &mut [u64], b: &[u64], by: isize) {
    let (words, bits) = (by.unsigned_abs() / 64, (by.unsigned_abs() % 64) as u32);
    if by >= 0 {
        // Bit i of the result is bit i + by of b.
        for (k, o) in out.iter_mut().enumerate() {
            let lo = b.get(k + words).copied().unwrap_or(0);
            let v = if bits == 0 {
                lo
            } else {
                let hi = b.get(k + words + 1).copied().unwrap_or(0);
                (lo >> bits) | (hi << (64 - bits))
            };
            *o &= v;
        }
    } else {
        // Bit i of the result is bit i - |by| of b.
        for (k, o) in out.iter_mut().enumerate() {
            let v = if k < words {
                0
            } else {
                let hi = b[k - words];
                if bits == 0 {
                    hi
                } else {
                    let lo = if k > words { b[k - words - 1] } else { 0 };
                    (hi << bits) | (lo >> (64 - bits))
                }
            };
            *o &= v;
        }
    }
}
