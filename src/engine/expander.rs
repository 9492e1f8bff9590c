//! The interpreter: runs move programs on packed states.
//!
//! A state is one `u32` per piece instance (`cell * poses + pose`, instances grouped by
//! kind, anonymous kinds kept sorted) followed by the bits of the mutable cells that have
//! changed. [`Expander::successors`] writes every successor into a reused buffer, in
//! action order (move, then direction), so searches can break ties deterministically.

use crate::compile::{CellRef, GoalCond, Model, Op, Place, SlideEvent, Step, Subject, TileId};

use super::level::Level;

const LEGAL: u8 = 1;
/// The footprint covers a cell whose tile can change: forbids and goals are checked live.
const LIVE: u8 = 2;
const GOAL: u8 = 4;

/// Successors of one state: `words` values each, and the action that led to each.
#[derive(Default)]
pub struct Successors {
    pub states: Vec<u32>,
    pub actions: Vec<u32>,
}

impl Successors {
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    pub fn state(&self, i: usize, words: usize) -> &[u32] {
        &self.states[i * words..(i + 1) * words]
    }
}

/// Where each kind's instances sit in the state.
#[derive(Clone, Debug)]
struct KindSlots {
    start: usize,
    count: usize,
    poses: u32,
}

/// Expands states of one level under one model.
pub struct Expander<'m> {
    pub model: &'m Model,
    pub level: Level,
    rows: i64,
    cols: i64,
    /// Words per state.
    pub words: usize,
    slots: Vec<KindSlots>,
    slot_kind: Vec<u16>,
    /// Per kind, per place (`cell * poses + pose`): LEGAL | LIVE | GOAL flags.
    flags: Vec<Vec<u8>>,
    /// Per cell: index of its mutable bit, or `u32::MAX`.
    mutable_bit: Vec<u32>,
    mutable_cells: Vec<u32>,
    /// Per move: the piece kinds its program acts on before any test binds them.
    free_kinds: Vec<Vec<u16>>,
    any_sorted: bool,
    any_live: bool,
    // Scratch, reused across calls.
    cur: Vec<u32>,
    bound: Vec<u32>,
    /// The instance chosen for each free kind while enumerating.
    choice: Vec<u32>,
    moved: Vec<bool>,
}

/// Result of trying to locate a cell: on the board, or off it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    On(u32),
    Off,
}

impl<'m> Expander<'m> {
    pub fn new(model: &'m Model, level: Level) -> Expander<'m> {
        let board = &level.board;
        let ncells = board.rows * board.cols;
        let mut slots = vec![];
        let mut slot_kind = vec![];
        for (k, kind) in model.pieces.iter().enumerate() {
            let start = slot_kind.len();
            let count = level.instances.iter().filter(|i| i.piece.index() == k).count();
            slot_kind.extend(std::iter::repeat_n(k as u16, count));
            slots.push(KindSlots {
                start,
                count,
                poses: kind.poses.len() as u32,
            });
        }
        let mut mutable_bit = vec![u32::MAX; ncells];
        let mut mutable_cells = vec![];
        for (c, t) in board.tiles.iter().enumerate() {
            if model.tiles[t.index()].becomes.is_some() {
                mutable_bit[c] = mutable_cells.len() as u32;
                mutable_cells.push(c as u32);
            }
        }
        let words = slot_kind.len() + mutable_cells.len().div_ceil(32);
        let mut e = Expander {
            model,
            rows: board.rows as i64,
            cols: board.cols as i64,
            words,
            slots,
            slot_kind,
            flags: vec![],
            mutable_bit,
            mutable_cells,
            free_kinds: vec![],
            any_sorted: false,
            any_live: false,
            cur: vec![0; words],
            bound: vec![],
            choice: vec![],
            moved: vec![],
            level,
        };
        e.any_sorted = model
            .pieces
            .iter()
            .zip(&e.slots)
            .any(|(p, s)| p.anonymous && s.count > 1);
        e.flags = (0..model.pieces.len()).map(|k| e.place_flags(k)).collect();
        e.any_live = e.flags.iter().any(|f| f.iter().any(|x| x & LIVE != 0));
        e.free_kinds = model.moves.iter().map(|m| free_kinds(&m.ops)).collect();
        e.bound = vec![u32::MAX; model.pieces.len()];
        e.choice = vec![u32::MAX; model.pieces.len()];
        e.moved = vec![false; e.slot_kind.len()];
        e
    }

    /// The range of each state word, for dense stores.
    pub fn radix(&self) -> Vec<u32> {
        let ncells = (self.rows * self.cols) as u32;
        let mut r: Vec<u32> = self.slot_kind.iter().map(|&k| ncells * self.slots[k as usize].poses).collect();
        let nm = self.mutable_cells.len();
        for w in 0..nm.div_ceil(32) {
            let bits = (nm - w * 32).min(32);
            r.push(if bits == 32 { u32::MAX } else { 1 << bits });
        }
        r
    }

    /// The start state.
    pub fn start(&self) -> Vec<u32> {
        let mut s = vec![0; self.words];
        for (slot, inst) in self.level.instances.iter().enumerate() {
            s[slot] = inst.cell * self.slots[inst.piece.index()].poses + inst.pose.0 as u32;
        }
        s
    }

    /// Whether a state breaks no rule (used to validate starts and replayed paths).
    pub fn is_legal(&self, s: &[u32]) -> bool {
        (0..self.slot_kind.len()).all(|i| self.slot_legal(s, i) && !self.overlaps_any(s, i))
    }

    /// Whether a state satisfies the goal.
    #[inline]
    pub fn is_goal(&self, s: &[u32]) -> bool {
        for g in &self.model.goal {
            let k = g.piece.index();
            let sl = &self.slots[k];
            for slot in sl.start..sl.start + sl.count {
                let f = self.flags[k][s[slot] as usize];
                if f & LIVE != 0 {
                    if !self.goal_live(s, slot, g) {
                        return false;
                    }
                } else if f & GOAL == 0 {
                    return false;
                }
            }
        }
        true
    }

    /// The piece kind covering each cell, for rendering.
    pub fn occupancy(&self, s: &[u32]) -> Vec<Option<crate::compile::PieceId>> {
        let mut occ = vec![None; (self.rows * self.cols) as usize];
        for slot in 0..self.slot_kind.len() {
            let (a, pose) = self.anchor(s, slot);
            let k = self.slot_kind[slot] as usize;
            for &(dr, dc) in &self.model.pieces[k].poses[pose as usize].cells {
                if let Cell::On(c) = self.offset(a, dr as i64, dc as i64) {
                    occ[c as usize] = Some(crate::compile::PieceId(k as u16));
                }
            }
        }
        occ
    }

    /// The tile a board cell holds in state `s`.
    pub fn tile_now(&self, s: &[u32], cell: u32) -> Option<TileId> {
        self.tile_at(s, Cell::On(cell))
    }

    /// The cells each instance covers in state `s`, as (row, column), for output.
    pub fn instance_cells(&self, s: &[u32]) -> Vec<(String, String, Vec<(usize, usize)>)> {
        (0..self.slot_kind.len())
            .map(|slot| {
                let (a, pose) = self.anchor(s, slot);
                let k = self.slot_kind[slot] as usize;
                let piece = &self.model.pieces[k];
                let cells = piece.poses[pose as usize]
                    .cells
                    .iter()
                    .filter_map(|&(dr, dc)| match self.offset(a, dr as i64, dc as i64) {
                        Cell::On(c) => Some(((c as i64 / self.cols) as usize, (c as i64 % self.cols) as usize)),
                        Cell::Off => None,
                    })
                    .collect();
                (piece.name.clone(), piece.poses[pose as usize].name.clone(), cells)
            })
            .collect()
    }

    /// All successors of `s`, in action order.
    pub fn successors(&mut self, s: &[u32], out: &mut Successors) {
        out.states.clear();
        out.actions.clear();
        let nd = self.model.dirs.len();
        for mi in 0..self.model.moves.len() {
            for d in 0..nd {
                let action = (mi * nd + d) as u32;
                let free = std::mem::take(&mut self.free_kinds[mi]);
                self.enumerate(s, mi, d, &free, 0, action, out);
                self.free_kinds[mi] = free;
            }
        }
    }

    /// Runs move `mi` in direction `d` for every choice of instances of the free kinds.
    #[allow(clippy::too_many_arguments)]
    fn enumerate(&mut self, s: &[u32], mi: usize, d: usize, free: &[u16], at: usize, action: u32, out: &mut Successors) {
        if at == free.len() {
            if self.run(s, mi, d) {
                out.states.extend_from_slice(&self.cur);
                out.actions.push(action);
            }
            return;
        }
        let k = free[at] as usize;
        let (start, count) = (self.slots[k].start, self.slots[k].count);
        if count == 1 {
            self.enumerate(s, mi, d, free, at + 1, action, out);
        }
        if count <= 1 {
            return;
        }
        for slot in start..start + count {
            self.choice[k] = slot as u32;
            self.enumerate(s, mi, d, free, at + 1, action, out);
        }
        self.choice[k] = u32::MAX;
    }

    #[inline]
    fn anchor(&self, s: &[u32], slot: usize) -> (u32, u32) {
        let p = self.slots[self.slot_kind[slot] as usize].poses;
        (s[slot] / p, s[slot] % p)
    }

    #[inline]
    fn offset(&self, cell: u32, dr: i64, dc: i64) -> Cell {
        let (r, c) = (cell as i64 / self.cols + dr, cell as i64 % self.cols + dc);
        if r < 0 || c < 0 || r >= self.rows || c >= self.cols {
            Cell::Off
        } else {
            Cell::On((r * self.cols + c) as u32)
        }
    }

    #[inline]
    fn step_vec(&self, step: Step, d: usize) -> (i64, i64) {
        let dir = &self.model.dirs[step.fixed.map_or(d, |f| f.index())];
        if step.negate {
            (-dir.dr as i64, -dir.dc as i64)
        } else {
            (dir.dr as i64, dir.dc as i64)
        }
    }

    /// The tile a cell holds now (mutable cells may have changed).
    #[inline]
    fn tile_at(&self, s: &[u32], cell: Cell) -> Option<TileId> {
        match cell {
            Cell::Off => self.model.outside,
            Cell::On(c) => {
                let t = self.level.board.tiles[c as usize];
                let bit = self.mutable_bit[c as usize];
                if bit != u32::MAX && self.mutable_set(s, bit) {
                    self.model.tiles[t.index()].becomes
                } else {
                    Some(t)
                }
            }
        }
    }

    #[inline]
    fn mutable_set(&self, s: &[u32], bit: u32) -> bool {
        let w = self.slot_kind.len() + bit as usize / 32;
        s[w] >> (bit % 32) & 1 == 1
    }

    fn on_place(&self, s: &[u32], cell: Cell, place: Place) -> bool {
        match place {
            Place::Tile(t) => self.tile_at(s, cell) == Some(t),
            Place::Mark(k) => matches!(cell, Cell::On(c) if self.level.board.has_mark(c, k)),
        }
    }

    /// Whether `slot`'s footprint covers `cell`.
    fn covers(&self, s: &[u32], slot: usize, cell: u32) -> bool {
        let (a, pose) = self.anchor(s, slot);
        let k = self.slot_kind[slot] as usize;
        let cells = &self.model.pieces[k].poses[pose as usize].cells;
        if cells.len() == 1 {
            return a == cell;
        }
        cells
            .iter()
            .any(|&(dr, dc)| self.offset(a, dr as i64, dc as i64) == Cell::On(cell))
    }

    /// The slot of an instance of kind `k` covering `cell`.
    fn instance_at(&self, s: &[u32], k: usize, cell: u32) -> Option<usize> {
        let sl = &self.slots[k];
        (sl.start..sl.start + sl.count).find(|&slot| self.covers(s, slot, cell))
    }

    fn any_instance_at(&self, s: &[u32], cell: u32, except: usize) -> Option<usize> {
        (0..self.slot_kind.len()).find(|&slot| slot != except && self.covers(s, slot, cell))
    }

    fn cell_of(&self, s: &[u32], r: &CellRef, d: usize) -> Option<Cell> {
        let slot = self.bound[r.piece.index()];
        if slot == u32::MAX {
            return None;
        }
        let (a, _) = self.anchor(s, slot as usize);
        Some(match r.step {
            None => Cell::On(a),
            Some(st) => {
                let (dr, dc) = self.step_vec(st, d);
                self.offset(a, dr, dc)
            }
        })
    }

    fn set_place(&mut self, slot: usize, cell: u32, pose: u32) {
        let p = self.slots[self.slot_kind[slot] as usize].poses;
        self.cur[slot] = cell * p + pose;
        self.moved[slot] = true;
    }

    /// Runs one move program on a copy of `s` in `self.cur`; true if it yields a legal state.
    fn run(&mut self, s: &[u32], mi: usize, d: usize) -> bool {
        self.cur.copy_from_slice(s);
        self.moved.fill(false);
        for (k, sl) in self.slots.iter().enumerate() {
            self.bound[k] = if sl.count == 1 { sl.start as u32 } else { self.choice[k] };
        }
        let model = self.model;
        for op in &model.moves[mi].ops {
            if !self.op(op, d) {
                return false;
            }
        }
        self.finish()
    }

    /// Applies one op to `self.cur`; false when the move cannot go on.
    fn op(&mut self, op: &Op, d: usize) -> bool {
        match op {
            Op::Test { subject, cell, want } => {
                let Some(c) = self.cell_of(&self.cur, cell, d) else { return false };
                let holds = match *subject {
                    Subject::Tile(t) => self.tile_at(&self.cur, c) == Some(t),
                    Subject::Mark(k) => matches!(c, Cell::On(x) if self.level.board.has_mark(x, k)),
                    Subject::Piece(p) => {
                        let k = p.index();
                        match c {
                            Cell::Off => false,
                            Cell::On(x) => {
                                let b = self.bound[k];
                                if b != u32::MAX {
                                    self.covers(&self.cur, b as usize, x)
                                } else if let Some(slot) = self.instance_at(&self.cur, k, x) {
                                    if *want {
                                        self.bound[k] = slot as u32;
                                    }
                                    true
                                } else {
                                    false
                                }
                            }
                        }
                    }
                };
                holds == *want
            }
            Op::Shift { piece, step } | Op::Swap { piece, step } => {
                let slot = self.bound[piece.index()];
                if slot == u32::MAX {
                    return false;
                }
                let slot = slot as usize;
                let (a, pose) = self.anchor(&self.cur, slot);
                let (dr, dc) = self.step_vec(*step, d);
                let Cell::On(to) = self.offset(a, dr, dc) else { return false };
                if matches!(op, Op::Swap { .. }) {
                    if let Some(other) = self.any_instance_at(&self.cur, to, slot) {
                        let (oa, opose) = self.anchor(&self.cur, other);
                        let Cell::On(back) = self.offset(oa, -dr, -dc) else { return false };
                        self.set_place(other, back, opose);
                    }
                }
                self.set_place(slot, to, pose);
                true
            }
            Op::Turn { piece, table } => {
                let slot = self.bound[piece.index()];
                if slot == u32::MAX {
                    return false;
                }
                let slot = slot as usize;
                let (a, pose) = self.anchor(&self.cur, slot);
                let nd = self.model.dirs.len();
                let Some((to_pose, dr, dc)) = table[pose as usize * nd + d] else { return false };
                let Cell::On(to) = self.offset(a, dr as i64, dc as i64) else { return false };
                self.set_place(slot, to, to_pose.0 as u32);
                true
            }
            Op::Slide { piece, step, rules } => {
                let slot = self.bound[piece.index()];
                if slot == u32::MAX {
                    return false;
                }
                self.slide(slot as usize, *step, rules, d)
            }
        }
    }

    /// Slides `slot` along `step` until an event stops it; works on `self.cur`.
    fn slide(&mut self, slot: usize, step: Step, rules: &[crate::compile::SlideRule], d: usize) -> bool {
        let (dr, dc) = self.step_vec(step, d);
        let limit = (self.rows * self.cols) as usize + 1;
        for _ in 0..limit {
            let (a, pose) = self.anchor(&self.cur, slot);
            let next = self.offset(a, dr, dc);
            // Events about the cell ahead, in declaration order.
            let mut stopped = false;
            for r in rules {
                let fires = match r.event {
                    SlideEvent::OffBoard => next == Cell::Off,
                    SlideEvent::BeforeTile(t) => next != Cell::Off && self.tile_at(&self.cur, next) == Some(t),
                    SlideEvent::BeforePiece(p) => match next {
                        Cell::On(c) => self.instance_at(&self.cur, p.index(), c).is_some(),
                        Cell::Off => false,
                    },
                    SlideEvent::Into(_) => false,
                };
                if !fires {
                    continue;
                }
                if r.lose {
                    return false;
                }
                if r.brk {
                    if let Cell::On(c) = next {
                        let bit = self.mutable_bit[c as usize];
                        if bit != u32::MAX {
                            let w = self.slot_kind.len() + bit as usize / 32;
                            self.cur[w] |= 1 << (bit % 32);
                        }
                    }
                }
                if r.stop {
                    stopped = true;
                    break;
                }
            }
            if stopped {
                return true;
            }
            let Cell::On(to) = next else { return false };
            self.set_place(slot, to, pose);
            if !self.slot_legal(&self.cur, slot) || self.overlaps_any(&self.cur, slot) {
                return false;
            }
            for r in rules {
                if let SlideEvent::Into(place) = r.event {
                    if self.on_place(&self.cur, Cell::On(to), place) {
                        if r.lose {
                            return false;
                        }
                        if r.stop {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Checks the moved instances and canonicalizes anonymous kinds.
    fn finish(&mut self) -> bool {
        let n = self.slot_kind.len();
        for slot in 0..n {
            if self.moved[slot] && (!self.slot_legal(&self.cur, slot) || self.overlaps_any(&self.cur, slot)) {
                return false;
            }
        }
        if self.any_sorted {
            for (k, sl) in self.slots.iter().enumerate() {
                if self.model.pieces[k].anonymous && sl.count > 1 {
                    self.cur[sl.start..sl.start + sl.count].sort_unstable();
                }
            }
        }
        true
    }

    #[inline]
    fn slot_legal(&self, s: &[u32], slot: usize) -> bool {
        let k = self.slot_kind[slot] as usize;
        let f = self.flags[k][s[slot] as usize];
        if f & LEGAL == 0 {
            return false;
        }
        if f & LIVE == 0 {
            return true;
        }
        let (a, pose) = self.anchor(s, slot);
        let piece = &self.model.pieces[k];
        for fb in self.model.forbids.iter().filter(|f| f.piece.index() == k) {
            if fb.pose.is_some_and(|p| p.0 as u32 != pose) {
                continue;
            }
            for &(dr, dc) in &piece.poses[pose as usize].cells {
                let c = self.offset(a, dr as i64, dc as i64);
                if matches!(c, Cell::On(x) if self.mutable_bit[x as usize] != u32::MAX) && self.on_place(s, c, fb.place) {
                    return false;
                }
            }
        }
        true
    }

    fn overlaps_any(&self, s: &[u32], slot: usize) -> bool {
        if self.slot_kind.len() < 2 {
            return false;
        }
        let (a, pose) = self.anchor(s, slot);
        let k = self.slot_kind[slot] as usize;
        for &(dr, dc) in &self.model.pieces[k].poses[pose as usize].cells {
            if let Cell::On(c) = self.offset(a, dr as i64, dc as i64) {
                if self.any_instance_at(s, c, slot).is_some() {
                    return true;
                }
            }
        }
        false
    }

    fn goal_live(&self, s: &[u32], slot: usize, g: &GoalCond) -> bool {
        let (a, pose) = self.anchor(s, slot);
        if g.pose.is_some_and(|p| p.0 as u32 != pose) {
            return false;
        }
        let k = self.slot_kind[slot] as usize;
        self.model.pieces[k].poses[pose as usize]
            .cells
            .iter()
            .all(|&(dr, dc)| self.on_place(s, self.offset(a, dr as i64, dc as i64), g.on))
    }

    /// Static flags of every place of kind `k`, from the initial board.
    fn place_flags(&self, k: usize) -> Vec<u8> {
        let piece = &self.model.pieces[k];
        let np = piece.poses.len();
        let ncells = (self.rows * self.cols) as usize;
        let board = &self.level.board;
        let forbids: Vec<_> = self.model.forbids.iter().filter(|f| f.piece.index() == k).collect();
        let goals: Vec<&GoalCond> = self.model.goal.iter().filter(|g| g.piece.index() == k).collect();
        let mut flags = vec![0u8; ncells * np];
        let blank: Vec<u32> = vec![0; self.words];
        for cell in 0..ncells as u32 {
            for (pi, pose) in piece.poses.iter().enumerate() {
                let mut f = LEGAL | GOAL;
                for &(dr, dc) in &pose.cells {
                    let c = self.offset(cell, dr as i64, dc as i64);
                    match c {
                        Cell::Off if self.model.outside.is_none() => f &= !(LEGAL | GOAL),
                        Cell::On(x) if self.mutable_bit[x as usize] != u32::MAX => f |= LIVE,
                        _ => {
                            for fb in &forbids {
                                if fb.pose.is_none_or(|p| p.index() == pi) && self.on_place(&blank, c, fb.place) {
                                    f &= !LEGAL;
                                }
                            }
                            for g in &goals {
                                if !self.on_place(&blank, c, g.on) {
                                    f &= !GOAL;
                                }
                            }
                        }
                    }
                }
                if goals.iter().any(|g| g.pose.is_some_and(|p| p.index() != pi)) {
                    f &= !GOAL;
                }
                let _ = board;
                flags[cell as usize * np + pi] = f;
            }
        }
        flags
    }
}

/// Piece kinds a program acts on before a `require KIND at ...` binds them.
fn free_kinds(ops: &[Op]) -> Vec<u16> {
    let mut bound: Vec<u16> = vec![];
    let mut free: Vec<u16> = vec![];
    let actor = |k: u16, bound: &Vec<u16>, free: &mut Vec<u16>| {
        if !bound.contains(&k) && !free.contains(&k) {
            free.push(k);
        }
    };
    for op in ops {
        match op {
            Op::Test { subject, cell, want } => {
                actor(cell.piece.0, &bound, &mut free);
                if let (Subject::Piece(p), true) = (subject, want) {
                    if !free.contains(&p.0) {
                        bound.push(p.0);
                    }
                }
            }
            Op::Shift { piece, .. } | Op::Swap { piece, .. } | Op::Turn { piece, .. } | Op::Slide { piece, .. } => {
                actor(piece.0, &bound, &mut free)
            }
        }
    }
    free
}
