//! Layout and state packing: the padded grid a level is embedded in, and how a state's
//! words encode piece places and changed tiles.
//!
//! The board is embedded in a padded grid, wide and tall enough that any single step, turn
//! offset or footprint offset from a board cell lands inside it, so cells move by adding
//! one precomputed linear delta and "off the board" is a lookup. A state is one `u32` per
//! piece instance (`padded cell << pose bits | pose`, instances grouped by kind, anonymous
//! kinds kept sorted) followed by the bits of the mutable cells that have changed.

use crate::compile::{Model, PieceId, Place, TileId};

use super::budget::{Budget, Cutoff};
use super::expander::SetupError;
use super::level::Level;
use super::program::op_reach;

/// How far (rows or columns) one step, turn or cell expression may reach: the board is
/// padded by this much on every side.
pub const MAX_REACH: usize = 256;

/// `ptile` value of padding cells.
pub(super) const OFF: u16 = u16::MAX;
/// The state word of a copy that is not on the board (removed, or not created yet):
/// padded cell 0 is always padding, so no copy on the board has this word.
pub const ABSENT: u32 = 0;
/// "No slot", "no mutable bit", "no binding".
pub(super) const NONE: u32 = u32::MAX;

/// Where each kind's instances sit in the state.
#[derive(Clone, Debug)]
pub(super) struct KindSlots {
    pub(crate) start: usize,
    pub(crate) count: usize,
    /// Bits holding the pose in a state word.
    pub(crate) bits: u32,
}

/// The padded grid and the packing of states for one level.
pub(super) struct Layout {
    cols: usize,
    rows: usize,
    /// Padding rows above and below the board.
    pad_r: usize,
    /// Padding columns left and right of the board.
    pad_c: usize,
    /// Padded row length.
    width: usize,
    /// Words per state.
    pub(crate) words: usize,
    pub(crate) slots: Vec<KindSlots>,
    /// Kind of each slot.
    pub(crate) slot_kind: Vec<u16>,
    /// Pose bits of each slot's kind (read on every anchor lookup).
    pub(crate) slot_bits: Vec<u32>,
    /// Per padded cell: tile, or `OFF`.
    pub(crate) ptile: Vec<u16>,
    pub(crate) pmarks: Vec<u32>,
    /// Per padded cell: index of its mutable cell, or `NONE`.
    pub(crate) pmut: Vec<u32>,
    /// How many cells can change their tile.
    pub(crate) mutable_count: usize,
    /// The padded cell of every mutable cell, by index.
    pub(crate) mut_cells: Vec<u32>,
    /// The tiles a mutable cell can hold; its state value indexes this.
    dyn_tiles: Vec<TileId>,
    /// Per tile: its index in `dyn_tiles`, or `u8::MAX`.
    dyn_of: Vec<u8>,
    /// Per tile: the board cells that hold it and never change.
    fixed_count: Vec<u32>,
    /// Bits per mutable cell.
    tile_bits: u32,
    /// Mutable cells per state word.
    per_word: usize,
    /// First word of the tile values.
    pub(crate) tiles_at: usize,
    /// First word of the counters (one word each).
    pub(crate) counters_at: usize,
    /// Per counter: its largest value.
    pub(crate) counter_max: Vec<u32>,
    /// The padded cell of every board cell, in reading order.
    pub(crate) board_cells: Vec<u32>,
    /// Per direction: its (row, column) step.
    pub(crate) dir_rc: Vec<(i32, i32)>,
    /// Per kind, per pose: footprint as linear deltas.
    pub(crate) foot: Vec<Vec<Vec<isize>>>,
    /// Per direction: its linear delta.
    pub(crate) dir_delta: Vec<isize>,
    /// Every pose of every piece covers exactly its anchor.
    pub(crate) one_cell: bool,
    /// Kinds with more than one instance (their binding varies per run).
    pub(crate) multi_kinds: Vec<usize>,
    /// Some kind with several instances is anonymous (kept sorted).
    pub(crate) any_sorted: bool,
    /// What cells off the board hold.
    outside: Option<TileId>,
    /// Per tile: what it becomes when broken.
    becomes: Vec<Option<TileId>>,
}

impl Layout {
    /// Lays out `level` under `model`. Refuses levels whose places do not fit a state
    /// word, and checks the memory budget against the tables setup will build (the grid
    /// here and one flag byte per place value per kind) before building any.
    pub fn new(model: &Model, level: &Level, budget: &Budget) -> Result<Layout, SetupError> {
        let board = &level.board;
        let (rows, cols) = (board.rows, board.cols);
        let (reach_r, reach_c) = reach(model);
        if reach_r.max(reach_c) > MAX_REACH {
            return Err(SetupError::TooLarge(format!(
                "a move reaches {} cells away from a piece or cell (steps times their repeats, summed along a cell expression); at most {MAX_REACH} are allowed",
                reach_r.max(reach_c)
            )));
        }
        let (pad_r, pad_c) = (reach_r + 1, reach_c + 1);
        let width = cols as u128 + 2 * pad_c as u128;
        let height = rows as u128 + 2 * pad_r as u128;
        let cells = width * height;
        let bits: Vec<u32> = model
            .pieces
            .iter()
            .map(|p| usize::BITS - (p.poses.len().max(1) - 1).leading_zeros())
            .collect();
        let placed = |k: usize| level.instances.iter().any(|i| i.piece.index() == k);
        // Every table setup builds, in bytes: the grid, then per kind with instances its
        // flags (one byte per place value, touched on the board's cells alone).
        let mut planned = cells * 10;
        for (k, &b) in bits.iter().enumerate() {
            if placed(k) {
                planned += ((rows * cols) as u128) << b;
            }
        }
        budget.room_for(planned.min(u64::MAX as u128) as u64)?;
        if let Some(k) = (0..bits.len()).find(|&k| placed(k) && cells << bits[k] > 1 << 32) {
            return Err(SetupError::TooLarge(format!(
                "the level is too large for piece `{}`: {} padded cells (the board plus {} rows and {} columns a footprint, turn or step can reach) times {} pose values exceed the 2^32 places a state word holds",
                model.pieces[k].name,
                cells,
                2 * pad_r,
                2 * pad_c,
                1u64 << bits[k]
            )));
        }
        let (width, n) = (width as usize, cells as usize);
        let changes = model.tile_changes();
        let mut dyn_tiles: Vec<TileId> = changes.iter().flat_map(|&(a, b)| [a, b]).collect();
        dyn_tiles.sort_unstable();
        dyn_tiles.dedup();
        let mut dyn_of = vec![u8::MAX; model.tiles.len()];
        for (i, t) in dyn_tiles.iter().enumerate() {
            dyn_of[t.index()] = i.min(254) as u8;
        }
        let mut source = vec![false; model.tiles.len()];
        for &(a, _) in &changes {
            source[a.index()] = true;
        }
        let tile_bits = (usize::BITS - dyn_tiles.len().saturating_sub(1).leading_zeros()).max(1);
        let per_word = (32 / tile_bits) as usize;
        let mut ptile = vec![OFF; n];
        let mut pmarks = vec![0u32; n];
        let mut pmut = vec![NONE; n];
        let mut mut_cells = vec![];
        let mut board_cells = Vec::with_capacity(rows * cols);
        for r in 0..rows {
            for c in 0..cols {
                let p = (r + pad_r) * width + c + pad_c;
                let t = board.tiles[r * cols + c];
                ptile[p] = t.0;
                pmarks[p] = board.marks[r * cols + c];
                board_cells.push(p as u32);
                if source[t.index()] {
                    pmut[p] = mut_cells.len() as u32;
                    mut_cells.push(p as u32);
                }
            }
        }
        let mutable_count = mut_cells.len();
        let mut fixed_count = vec![0u32; model.tiles.len()];
        for &p in &board_cells {
            if pmut[p as usize] == NONE {
                fixed_count[ptile[p as usize] as usize] += 1;
            }
        }
        let mut slots = vec![];
        let mut slot_kind = vec![];
        let mut multi_kinds = vec![];
        let mut any_sorted = false;
        let created = created_kinds(model);
        for (k, kind) in model.pieces.iter().enumerate() {
            let start = slot_kind.len();
            let placed = level
                .instances
                .iter()
                .filter(|i| i.piece.index() == k)
                .count();
            // Room for the copies placed, for `max` copies, and for a named piece that
            // moves create.
            let count = placed
                .max(kind.max.unwrap_or(0) as usize)
                .max(usize::from(created[k] && !kind.anonymous));
            slot_kind.extend(std::iter::repeat_n(k as u16, count));
            slots.push(KindSlots {
                start,
                count,
                bits: bits[k],
            });
            if count > 1 {
                multi_kinds.push(k);
                any_sorted |= kind.anonymous;
            }
        }
        let lin = |dr: i32, dc: i32| dr as isize * width as isize + dc as isize;
        let foot = model
            .pieces
            .iter()
            .map(|p| {
                p.poses
                    .iter()
                    .map(|pose| pose.cells.iter().map(|&(r, c)| lin(r, c)).collect())
                    .collect()
            })
            .collect();
        let tiles_at = slot_kind.len();
        let counters_at = tiles_at + mutable_count.div_ceil(per_word);
        let words = counters_at + model.counters.len();
        Ok(Layout {
            cols,
            rows,
            pad_r,
            pad_c,
            width,
            words,
            slot_bits: slot_kind.iter().map(|&k| slots[k as usize].bits).collect(),
            slots,
            slot_kind,
            ptile,
            pmarks,
            pmut,
            mutable_count,
            mut_cells,
            dyn_tiles,
            dyn_of,
            fixed_count,
            tile_bits,
            per_word,
            tiles_at,
            counters_at,
            counter_max: model.counters.iter().map(|c| c.max).collect(),
            board_cells,
            dir_rc: model.dirs.iter().map(|d| (d.dr, d.dc)).collect(),
            foot,
            dir_delta: model.dirs.iter().map(|d| lin(d.dr, d.dc)).collect(),
            one_cell: model
                .pieces
                .iter()
                .all(|p| p.poses.iter().all(|q| q.cells.len() == 1)),
            multi_kinds,
            any_sorted,
            outside: model.outside,
            becomes: model.tiles.iter().map(|t| t.becomes).collect(),
        })
    }

    /// What cells beyond the board behave as.
    pub fn outside(&self) -> Option<TileId> {
        self.outside
    }

    /// Rows and columns of the board.
    pub fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The padded row and column of a padded cell.
    pub fn row_col(&self, p: usize) -> (usize, usize) {
        (p / self.width, p % self.width)
    }

    /// The linear delta of a (row, column) offset.
    pub fn lin(&self, dr: i32, dc: i32) -> isize {
        dr as isize * self.width as isize + dc as isize
    }

    /// The padded cells of the board's rows, from the first board cell to past the last.
    pub fn board_span(&self) -> std::ops::Range<usize> {
        let lo = self.pad_r * self.width + self.pad_c;
        lo..lo + (self.rows.max(1) - 1) * self.width + self.cols
    }

    /// The padded cell of a board cell.
    pub fn to_padded(&self, cell: u32) -> u32 {
        let (r, c) = (cell as usize / self.cols, cell as usize % self.cols);
        ((r + self.pad_r) * self.width + c + self.pad_c) as u32
    }

    /// The index in reading order of a padded cell on the board (`None` off it).
    pub fn board_index(&self, p: usize) -> Option<usize> {
        if p >= self.ptile.len() {
            return None;
        }
        self.unpad(p).map(|(r, c)| r * self.cols + c)
    }

    /// The board (row, column) of a padded cell on the board.
    fn unpad(&self, p: usize) -> Option<(usize, usize)> {
        if self.ptile[p] == OFF {
            return None;
        }
        Some((p / self.width - self.pad_r, p % self.width - self.pad_c))
    }

    /// The range of each state word, for dense stores.
    pub fn radix(&self) -> Vec<u32> {
        let n = self.ptile.len() as u64;
        let mut r: Vec<u32> = self
            .slot_kind
            .iter()
            .map(|&k| (n << self.slots[k as usize].bits).min(u32::MAX as u64) as u32)
            .collect();
        let nm = self.mutable_count;
        for w in 0..nm.div_ceil(self.per_word) {
            let bits = (nm - w * self.per_word).min(self.per_word) as u32 * self.tile_bits;
            r.push(if bits >= 32 { u32::MAX } else { 1 << bits });
        }
        r.extend(self.counter_max.iter().map(|&m| m.saturating_add(1)));
        r
    }

    /// The start state of `level`.
    pub fn start(&self, model: &Model, level: &Level) -> Vec<u32> {
        let mut s = vec![0; self.words];
        let mut slot_of_kind: Vec<usize> = self.slots.iter().map(|s| s.start).collect();
        for inst in &level.instances {
            let k = inst.piece.index();
            let slot = slot_of_kind[k];
            slot_of_kind[k] += 1;
            s[slot] = self.to_padded(inst.cell) << self.slots[k].bits | inst.pose.0 as u32;
        }
        for (i, &p) in self.mut_cells.iter().enumerate() {
            let t = self.ptile[p as usize] as usize;
            self.set_value(&mut s, i, self.dyn_of[t] as u32);
        }
        for (c, counter) in model.counters.iter().enumerate() {
            s[self.counters_at + c] = counter.start.min(counter.max);
        }
        for (k, sl) in self.slots.iter().enumerate() {
            if model.pieces[k].anonymous {
                s[sl.start..sl.start + sl.count].sort_unstable();
            }
        }
        s
    }

    /// Anchor (padded cell) and pose of a slot.
    #[inline]
    pub fn anchor(&self, s: &[u32], slot: usize) -> (usize, usize) {
        let bits = self.slot_bits[slot];
        (
            (s[slot] >> bits) as usize,
            (s[slot] & ((1 << bits) - 1)) as usize,
        )
    }

    /// The tile a padded cell holds now (`None` off the board with no `outside`).
    #[inline]
    pub fn tile_at(&self, s: &[u32], p: usize) -> Option<TileId> {
        let t = self.ptile[p];
        if t == OFF {
            return self.outside;
        }
        let i = self.pmut[p];
        if i != NONE {
            Some(self.dyn_tiles[self.value(s, i as usize) as usize])
        } else {
            Some(TileId(t))
        }
    }

    /// Where the bit of mutable cell `i` lives, as (word, mask), when every changeable
    /// cell holds one of two tiles (one bit each); `None` otherwise.
    pub fn toggle_bit(&self, i: usize) -> Option<(u32, u32)> {
        (self.tile_bits == 1 && self.dyn_tiles.len() == 2).then(|| {
            let w = self.tiles_at + i / self.per_word;
            (w as u32, 1u32 << (i % self.per_word))
        })
    }

    /// The two tiles changeable cells hold, when there are exactly two.
    pub fn two_tiles(&self) -> Option<(TileId, TileId)> {
        match self.dyn_tiles.as_slice() {
            [a, b] => Some((*a, *b)),
            _ => None,
        }
    }

    /// How many board cells hold tile `t` in `s`: the fixed ones, plus the changeable
    /// ones counted by value (a population count when values are one bit).
    pub fn count_tile(&self, s: &[u32], t: u16) -> usize {
        let fixed = self.fixed_count.get(t as usize).copied().unwrap_or(0) as usize;
        let Some(&v) = self.dyn_of.get(t as usize).filter(|&&v| v != u8::MAX) else {
            return fixed;
        };
        let nm = self.mutable_count;
        if self.tile_bits != 1 {
            return fixed + (0..nm).filter(|&i| self.value(s, i) == v as u32).count();
        }
        let ones: usize = (0..nm.div_ceil(self.per_word))
            .map(|w| {
                let used = (nm - w * self.per_word).min(self.per_word);
                let mask = if used >= 32 {
                    u32::MAX
                } else {
                    (1 << used) - 1
                };
                (s[self.tiles_at + w] & mask).count_ones() as usize
            })
            .sum();
        fixed + if v == 1 { ones } else { nm - ones }
    }

    /// The value of mutable cell `i`.
    #[inline]
    fn value(&self, s: &[u32], i: usize) -> u32 {
        let w = self.tiles_at + i / self.per_word;
        let shift = (i % self.per_word) as u32 * self.tile_bits;
        s[w] >> shift & ((1u32 << self.tile_bits) - 1)
    }

    /// Sets the value of mutable cell `i`.
    #[inline]
    fn set_value(&self, s: &mut [u32], i: usize, v: u32) {
        let w = self.tiles_at + i / self.per_word;
        let shift = (i % self.per_word) as u32 * self.tile_bits;
        let mask = ((1u32 << self.tile_bits) - 1) << shift;
        s[w] = (s[w] & !mask) | (v << shift & mask);
    }

    /// Sets the tile of padded cell `p` to `t`; false when the cell cannot change or `t`
    /// is not a tile changes produce.
    #[inline]
    pub fn set_tile(&self, s: &mut [u32], p: usize, t: TileId) -> bool {
        let i = self.pmut[p];
        let v = self.dyn_of[t.index()];
        if i == NONE || v == u8::MAX {
            return false;
        }
        self.set_value(s, i as usize, v as u32);
        true
    }

    /// Breaks the tile at padded cell `p` into what it becomes, if it can change.
    #[inline]
    pub fn break_tile(&self, s: &mut [u32], p: usize) {
        if let Some(Some(b)) = self.tile_at(s, p).map(|t| self.becomes[t.index()]) {
            self.set_tile(s, p, b);
        }
    }

    /// Whether padded cell `p` is on `place` in state `s`.
    pub fn on_place(&self, s: &[u32], p: usize, place: Place) -> bool {
        match place {
            Place::Tile(t) => self.tile_at(s, p) == Some(t),
            Place::Mark(k) => self.pmarks[p] >> k.0 & 1 == 1,
        }
    }

    /// Whether `slot`'s footprint covers padded cell `p`.
    #[inline]
    pub fn covers(&self, s: &[u32], slot: usize, p: usize) -> bool {
        if s[slot] == ABSENT {
            return false;
        }
        let (a, pose) = self.anchor(s, slot);
        if self.one_cell {
            return a == p;
        }
        let f = &self.foot[self.slot_kind[slot] as usize][pose];
        if f.len() == 1 {
            return a == p;
        }
        f.iter().any(|&d| (a as isize + d) as usize == p)
    }

    /// The slot of an instance of kind `k` covering `p`.
    pub fn instance_at(&self, s: &[u32], k: usize, p: usize) -> Option<usize> {
        let sl = &self.slots[k];
        (sl.start..sl.start + sl.count).find(|&slot| self.covers(s, slot, p))
    }

    /// The slot of an instance of kind `k` covering `p`, in `pose` when one is given.
    pub fn instance_in_pose(
        &self,
        s: &[u32],
        k: usize,
        p: usize,
        pose: Option<usize>,
    ) -> Option<usize> {
        let Some(want) = pose else {
            return self.instance_at(s, k, p);
        };
        let sl = &self.slots[k];
        (sl.start..sl.start + sl.count)
            .find(|&slot| self.covers(s, slot, p) && self.anchor(s, slot).1 == want)
    }

    /// The slot of any instance but `except` covering `p`.
    pub fn any_instance_at(&self, s: &[u32], p: usize, except: usize) -> Option<usize> {
        (0..self.slot_kind.len()).find(|&slot| slot != except && self.covers(s, slot, p))
    }

    /// The piece kind covering each board cell, for rendering.
    pub fn occupancy(&self, s: &[u32]) -> Vec<Option<PieceId>> {
        let mut occ = vec![None; self.rows * self.cols];
        for slot in 0..self.slot_kind.len() {
            if s[slot] == ABSENT {
                continue;
            }
            let k = self.slot_kind[slot] as usize;
            let (a, pose) = self.anchor(s, slot);
            for &d in &self.foot[k][pose] {
                if let Some((r, c)) = self.unpad((a as isize + d) as usize) {
                    occ[r * self.cols + c] = Some(PieceId(k as u16));
                }
            }
        }
        occ
    }
}

impl From<Cutoff> for SetupError {
    fn from(c: Cutoff) -> SetupError {
        SetupError::Cutoff(c)
    }
}

/// The largest row and column distance any step, turn or footprint reaches.
fn reach(model: &Model) -> (usize, usize) {
    let (mut r, mut c) = (1i64, 1i64);
    let mut see = |dr: i32, dc: i32| {
        r = r.max((dr as i64).abs());
        c = c.max((dc as i64).abs());
    };
    for p in &model.pieces {
        for pose in &p.poses {
            for &(dr, dc) in &pose.cells {
                see(dr, dc);
            }
        }
    }
    for d in &model.dirs {
        see(d.dr, d.dc);
    }
    for m in &model.moves {
        crate::compile::walk_ops(&m.ops, &mut |op| op_reach(op, model, &mut see));
    }
    (r as usize, c as usize)
}

/// Per kind: whether some move creates copies of it.
fn created_kinds(model: &Model) -> Vec<bool> {
    let mut out = vec![false; model.pieces.len()];
    for m in &model.moves {
        crate::compile::walk_ops(&m.ops, &mut |op| {
            if let crate::compile::Op::Create { piece, .. } = op {
                out[piece.index()] = true;
            }
        });
    }
    out
}
