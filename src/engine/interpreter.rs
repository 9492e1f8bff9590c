//! The interpreter loop: runs every move in every direction on a state and collects the
//! legal successors, in action order (move, then direction), so searches can break ties
//! deterministically. It works in scratch buffers owned by the expander, so expanding a
//! state allocates nothing beyond the caller's reused [`Successors`].

use crate::compile::{Action, DirId, MoveId};

use super::expander::{Expander, Solo};
use super::layout::{ABSENT, NONE};
use super::legality::{LEGAL, LIVE};
use super::program::{Actions, Runs};
use super::program::{KOp, NO_STEP, STEP_LIVE};

/// The work an expansion reports when it stopped at the deadline: more than any budget
/// check lets pass unchecked.
const LATE_WORK: u64 = 1 << 40;

/// Successors of one state: `words` values each, and the action that led to each.
#[derive(Default)]
pub struct Successors {
    /// The successor states, one after another.
    pub(crate) states: Vec<u32>,
    /// The action that led to each successor.
    pub(crate) actions: Vec<Action>,
    /// Work spent beyond one unit per successor (program runs, scaled by the copies
    /// they check), so budgets are checked as often in a slow expansion as in many
    /// fast ones.
    pub(crate) work: u64,
}

impl Successors {
    /// The number of successors.
    pub(crate) fn len(&self) -> usize {
        self.actions.len()
    }

    /// Budget units for producing these successors: one, one per successor, and the
    /// work spent.
    pub(crate) fn units(&self) -> u64 {
        1 + self.actions.len() as u64 + self.work
    }

    /// Successor `i`, for states of `words` words.
    pub(crate) fn state(&self, i: usize, words: usize) -> &[u32] {
        &self.states[i * words..(i + 1) * words]
    }

    /// Keeps the successors (states of `words` words) that `keep` accepts, in order.
    pub(crate) fn retain(&mut self, words: usize, mut keep: impl FnMut(Action, &[u32]) -> bool) {
        let mut kept = 0;
        for i in 0..self.actions.len() {
            if !keep(self.actions[i], self.state(i, words)) {
                continue;
            }
            if kept != i {
                self.actions[kept] = self.actions[i];
                self.states
                    .copy_within(i * words..(i + 1) * words, kept * words);
            }
            kept += 1;
        }
        self.actions.truncate(kept);
        self.states.truncate(kept * words);
    }

    /// Every successor with the action that made it, for states of `words` words (see
    /// [`crate::search::Space::words`]). One action may make several successors: a move
    /// of an anonymous kind is tried for each copy.
    pub fn iter(&self, words: usize) -> impl Iterator<Item = (Action, &[u32])> + '_ {
        self.actions
            .iter()
            .enumerate()
            .map(move |(i, &a)| (a, self.state(i, words)))
    }
}

/// Per-expansion scratch: the state being built and the instance bindings of one run.
pub(super) struct Scratch {
    /// The state a move program is working on.
    pub(crate) cur: Vec<u32>,
    /// Per piece variable (kinds, then aliases): the slot the run acts on, or `NONE`
    /// until a test binds one.
    pub(crate) bound: Vec<u32>,
    /// The slots held by the name of their kind in this run: copies the move acts on
    /// (chosen for its free kinds) or bound by a `require`. An `as` never binds them.
    pub(crate) held: Vec<u32>,
    /// Pairs of slots that shared a cell after some statement of this run: the move
    /// is refused unless one of each pair has left the board by its end.
    pub(crate) clash: Vec<(u32, u32)>,
    /// Some tile changed in this run: every copy, moved or not, must meet the forbids.
    pub(crate) retiled: bool,
    /// The kinds with one slot, and that slot.
    pub(crate) singles: Vec<(usize, u32)>,
    /// The bindings saved while an `if` condition is tried (restored when it fails).
    pub(crate) saved: Vec<u32>,
    /// The padded cell a per-cell move is played on.
    pub(crate) param: usize,
    /// The cells of the `for` loops running, innermost last.
    pub(crate) loops: Vec<usize>,
    /// Per padded cell, while local moves run: `paints << 32 | slot + 1` for the slot
    /// covering it in the state being expanded; an entry with an older count in its high
    /// half is stale (no piece), so painting a new state never clears the old one.
    pub(crate) occ: Vec<u64>,
    /// How many states were painted into `occ` (wraps to 1, clearing `occ`).
    pub(crate) paints: u32,
    /// The painted state has two copies covering one cell.
    pub(crate) crowded: bool,
    /// Per kind with several instances: the slot this run chose for it, or `NONE`.
    choice: Vec<u32>,
    /// Bit `i` set when slot `i` moved, for slots 0 to 63.
    moved: u64,
    /// The slots past 63 that moved, each once.
    moved_high: Vec<u32>,
    /// Program runs in this expansion.
    runs: u64,
    /// The deadline passed during this expansion: its successors are partial.
    late: bool,
    /// Per slot: the run (`stamp`) in which it was last recorded in `moved_high`.
    moved_at: Vec<u32>,
    /// Counts runs, wrapping; tells `moved_at` entries of this run from older ones.
    stamp: u32,
    /// Per padded cell: `checks << 32 | 1` while `finish` checks many moved copies at
    /// once (see `Scratch::occ` for the stamping).
    cover: Vec<u64>,
    /// How many such checks ran (wraps to 1, clearing `cover`).
    checks: u32,
}

impl Scratch {
    /// Scratch for states of `words` words, `kinds` piece kinds and `vars` piece
    /// variables (kinds, then aliases).
    pub fn new(words: usize, kinds: usize, vars: usize) -> Scratch {
        Scratch {
            cur: vec![0; words],
            bound: vec![NONE; vars.max(kinds)],
            held: vec![],
            clash: vec![],
            retiled: false,
            singles: vec![],
            saved: vec![],
            param: 0,
            loops: vec![],
            occ: vec![],
            paints: 0,
            crowded: false,
            choice: vec![NONE; kinds],
            moved: 0,
            moved_high: vec![],
            runs: 0,
            late: false,
            moved_at: vec![],
            stamp: 0,
            cover: vec![],
            checks: 0,
        }
    }
}

impl Expander<'_> {
    /// The successors of `s` by actions larger than `after`, in action order, for
    /// rules whose moves commute (every move a flip; see `Space::commuting`).
    pub(crate) fn successors_after(&mut self, s: &[u32], after: Action, out: &mut Successors) {
        out.states.clear();
        out.actions.clear();
        out.work = 0;
        for (mi, flips) in self.prog.flips.iter().enumerate() {
            let Some(flips) = flips else {
                continue;
            };
            let mv = MoveId(mi as u16);
            let first = if mv < after.mv() {
                continue;
            } else if mv == after.mv() {
                after.dir().index() + 1
            } else {
                0
            };
            for (i, mask) in flips.masks.iter().enumerate().skip(first) {
                if mask.is_empty() {
                    continue;
                }
                let at = out.states.len();
                out.states.extend_from_slice(s);
                for &(w, bit) in mask {
                    out.states[at + w as usize] ^= bit;
                }
                out.actions.push(Action::new(mv, DirId(i as u16)));
            }
        }
        if self.prog.flips.iter().any(Option::is_none) {
            // Not every move is a flip: fall back to all successors, filtered.
            let mut all = Successors::default();
            self.successors(s, &mut all);
            let words = self.lay.words;
            out.states.clear();
            out.actions.clear();
            for i in 0..all.len() {
                if all.actions[i] > after {
                    out.states.extend_from_slice(all.state(i, words));
                    out.actions.push(all.actions[i]);
                }
            }
        }
    }

    /// All successors of `s`, in action order.
    #[inline]
    pub(crate) fn successors(&mut self, s: &[u32], out: &mut Successors) {
        out.states.clear();
        out.actions.clear();
        out.work = 0;
        match &self.solo {
            Some(solo) => self.solo_successors(solo, s[0], out),
            None => self.run_moves(s, out),
        }
    }

    /// Successors when one piece moves alone by one-step programs on a static board: a
    /// table lookup and a legality flag per action.
    #[inline]
    fn solo_successors(&self, solo: &Solo, w: u32, out: &mut Successors) {
        let bits = self.lay.slots[solo.kind].bits;
        let flags = &self.flags[solo.kind];
        for &(dw, action) in &solo.table[(w & ((1 << bits) - 1)) as usize] {
            let nw = (w as i64 + dw) as u32;
            if flags[nw as usize] & LEGAL != 0 {
                out.states.push(nw);
                out.actions.push(action);
            }
        }
    }

    /// The successors of `s` by action `a` alone (what [`Expander::successors`] lists
    /// for it, in the same order): for closures, where most actions of a place are known
    /// without running them.
    /// `runs` is the expander's programs (`self.prog.runs`), which a caller running many
    /// actions holds once.
    pub(super) fn successors_by(
        &mut self,
        runs: &Runs,
        s: &[u32],
        a: Action,
        out: &mut Successors,
    ) {
        out.states.clear();
        out.actions.clear();
        out.work = 0;
        match &self.solo {
            Some(solo) => self.solo_successors(solo, s[0], out),
            None => self.run_moves_of(runs, s, Some(a), out),
        }
        if out.actions.iter().any(|&b| b != a) {
            out.retain(self.lay.words, |b, _| b == a);
        }
    }

    /// Successors by running every move program for every action (direction or cell).
    /// A move whose result is the state it started from is not a move.
    #[inline]
    fn run_moves(&mut self, s: &[u32], out: &mut Successors) {
        // The programs are held by a shared handle while runs borrow the expander
        // mutably; what runs only read (local and flip forms) is read in place.
        let runs = std::sync::Arc::clone(&self.prog.runs);
        self.run_moves_of(&runs, s, None, out);
    }

    /// The expander's programs, for [`Expander::successors_by`].
    pub(super) fn runs(&self) -> std::sync::Arc<Runs> {
        std::sync::Arc::clone(&self.prog.runs)
    }

    /// [`Expander::run_moves`], or with `only`, the moves of that action's move program
    /// alone and, where it ranges over directions, in that direction alone (a caller
    /// keeps the successors by that action).
    #[inline(always)]
    fn run_moves_of(&mut self, runs: &Runs, s: &[u32], only: Option<Action>, out: &mut Successors) {
        let (moves, free_kinds, actions) = (&runs.moves, &runs.free_kinds, &runs.actions);
        let words = self.lay.words;
        let mut painted = false;
        self.sc.runs = 0;
        self.sc.late = false;
        let one_dir = [only.map_or(0, |o| o.dir().index())];
        for (mi, ops) in moves.iter().enumerate() {
            let mv = MoveId(mi as u16);
            if only.is_some_and(|o| o.mv() != mv) {
                continue;
            }
            let dirs: &[usize] = match (&actions[mi], only) {
                (Actions::Dirs(ds), Some(_)) if ds.contains(&one_dir[0]) => &one_dir,
                (Actions::Dirs(_), Some(_)) => &[],
                (Actions::Dirs(ds), None) => ds,
                (Actions::Cells, _) => &[],
            };
            if let Some(flips) = &self.prog.flips[mi] {
                for (i, mask) in flips.masks.iter().enumerate() {
                    if mask.is_empty() {
                        continue;
                    }
                    let at = out.states.len();
                    out.states.extend_from_slice(s);
                    for &(w, bit) in mask {
                        out.states[at + w as usize] ^= bit;
                    }
                    out.actions.push(Action::new(mv, DirId(i as u16)));
                }
                continue;
            }
            if !painted
                && ((words > 1 && self.prog.local[mi].is_some()) || self.prog.guarded[mi].is_some())
            {
                self.paint(s);
                painted = true;
            }
            if let Some(g) = &self.prog.guarded_flips[mi] {
                self.flip_successors(s, g, mv, out);
                continue;
            }
            // A state where copies share a cell (a level may draw one) is beyond what the
            // painted occupancy tells: the general run decides.
            if let Some(g) = self.prog.guarded[mi].as_ref().filter(|_| !self.sc.crowded) {
                self.guarded_successors(s, g, mv, dirs, out);
                continue;
            }
            if let Some(local) = &self.prog.local[mi] {
                // An anonymous kind's copies stay sorted: (first slot, copies).
                let run = (local.count > 1 && self.model.pieces[local.kind].anonymous)
                    .then_some((local.slot, local.count));
                let (k, bits) = (local.kind, self.lay.slots[local.kind].bits);
                let mask = (1u32 << bits) - 1;
                let nd = self.lay.dir_delta.len();
                out.work += (local.count * dirs.len()) as u64 / 64;
                if !local.step.is_empty() {
                    // One-step table: the new word, then only the newly covered cells
                    // can be blocked.
                    let now = (self.sc.paints as u64) << 32;
                    for &d in dirs {
                        for slot in local.slot..local.slot + local.count {
                            let w = s[slot];
                            let e = local.step[w as usize * nd + d];
                            if e == NO_STEP {
                                continue;
                            }
                            let nw = e & !STEP_LIVE;
                            let (lo, hi) = local.enter_at[(w & mask) as usize * nd + d];
                            let a = (nw >> bits) as isize;
                            if local.enter[lo as usize..hi as usize]
                                .iter()
                                .any(|&dl| self.sc.occ[(a + dl) as usize] >= now)
                            {
                                continue;
                            }
                            let action = Action::new(mv, DirId(d as u16));
                            self.push_moved(s, slot, nw, e & STEP_LIVE != 0, run, action, out);
                        }
                    }
                    continue;
                }
                for &d in dirs {
                    for slot in local.slot..local.slot + local.count {
                        let w = s[slot];
                        if w == ABSENT {
                            continue;
                        }
                        // One-step programs are a table lookup; longer ones run their steps.
                        let nw = match &local.single {
                            Some(table) => {
                                let Some((np, v)) = table[(w & mask) as usize * nd + d] else {
                                    continue;
                                };
                                let nw = (((w >> bits) as isize + v) as u32) << bits | np;
                                let f = self.flags[k].get(nw as usize).copied().unwrap_or(0);
                                if f & (LEGAL | LIVE) == 0 {
                                    continue;
                                }
                                nw
                            }
                            None => match self.run_local(s, local, slot, d) {
                                Some(nw) => nw,
                                None => continue,
                            },
                        };
                        if nw == w {
                            continue;
                        }
                        let action = Action::new(mv, DirId(d as u16));
                        if words == 1 {
                            out.states.push(nw);
                            out.actions.push(action);
                        } else if !self.overlaps_painted(k, slot, nw) {
                            let live = self.flags[k][nw as usize] & LIVE != 0;
                            self.push_moved(s, slot, nw, live, run, action, out);
                        }
                    }
                }
                continue;
            }
            let free = &free_kinds[mi];
            let simple = free.iter().all(|&k| self.lay.slots[k as usize].count == 1);
            // A kind the move acts on whose only copy is gone: no copy to try it with.
            if simple
                && free
                    .iter()
                    .any(|&k| s[self.lay.slots[k as usize].start] == ABSENT)
            {
                continue;
            }
            let one = |e: &mut Self, d: usize, action: Action, out: &mut Successors| {
                if simple {
                    if e.run(s, ops, d, free) && !same(&e.sc.cur, s) {
                        out.states.extend_from_slice(&e.sc.cur);
                        out.actions.push(action);
                    }
                } else {
                    e.enumerate(s, ops, d, free, 0, action, out);
                }
            };
            match &actions[mi] {
                Actions::Dirs(_) => {
                    for &d in dirs {
                        one(self, d, Action::new(mv, DirId(d as u16)), out);
                    }
                }
                Actions::Cells => {
                    for i in 0..self.lay.board_cells.len().min(1 << 16) {
                        self.sc.param = self.lay.board_cells[i] as usize;
                        one(self, 0, Action::new(mv, DirId(i as u16)), out);
                    }
                }
            }
        }
        // A run checks the copies it moved against every other copy: its work grows
        // with the copies; a local candidate is a few lookups.
        let slots = self.lay.slot_kind.len() as u64;
        out.work += self.sc.runs * (1 + slots / 64);
        if self.sc.late {
            out.work = LATE_WORK;
        }
    }

    /// Whether the running search's deadline has passed; once it has, every further
    /// run of this expansion fails at once.
    #[cold]
    fn past_deadline(&mut self) -> bool {
        self.sc.late |= self.deadline.is_some_and(|d| web_time::Instant::now() >= d);
        self.sc.late
    }

    /// Appends `s` with `slot` at word `nw` as the successor by `action`, unless the new
    /// place breaks a forbid on its changeable cells (checked when `live`); keeps the
    /// sorted `run` (first slot, copies) of an anonymous kind sorted.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn push_moved(
        &self,
        s: &[u32],
        slot: usize,
        nw: u32,
        live: bool,
        run: Option<(usize, usize)>,
        action: Action,
        out: &mut Successors,
    ) {
        let at = out.states.len();
        out.states.extend_from_slice(s);
        out.states[at + slot] = nw;
        if live && !self.slot_legal(&out.states[at..], slot) {
            out.states.truncate(at);
            return;
        }
        if let Some((start, count)) = run {
            resort_one(
                &mut out.states[at + start..at + start + count],
                slot - start,
            );
        }
        out.actions.push(action);
    }

    /// Records in `sc.occ` which slot covers each cell in `s` (see `Scratch::occ`).
    fn paint(&mut self, s: &[u32]) {
        let lay = &self.lay;
        self.sc.paints = self.sc.paints.wrapping_add(1);
        if self.sc.paints == 0 {
            self.sc.occ.fill(0);
            self.sc.paints = 1;
        }
        let now = (self.sc.paints as u64) << 32;
        let mut crowded = false;
        if lay.one_cell {
            // Every copy covers its anchor alone.
            for (slot, &w) in s[..lay.slot_kind.len()].iter().enumerate() {
                if w != ABSENT {
                    let c = &mut self.sc.occ[(w >> lay.slot_bits[slot]) as usize];
                    crowded |= *c >= now;
                    *c = now | (slot as u64 + 1);
                }
            }
            self.sc.crowded = crowded;
            return;
        }
        for slot in 0..lay.slot_kind.len() {
            if s[slot] == ABSENT {
                continue;
            }
            let k = lay.slot_kind[slot] as usize;
            let (a, pose) = lay.anchor(s, slot);
            for &dl in &lay.foot[k][pose] {
                let c = &mut self.sc.occ[(a as isize + dl) as usize];
                crowded |= *c >= now;
                *c = now | (slot as u64 + 1);
            }
        }
        self.sc.crowded = crowded;
    }

    /// Whether `slot` (of kind `k`), the only piece that moved from the painted state,
    /// overlaps another at its new word `w`.
    #[inline]
    pub(super) fn overlaps_painted(&self, k: usize, slot: usize, w: u32) -> bool {
        let lay = &self.lay;
        let bits = lay.slots[k].bits;
        let (a, pose) = ((w >> bits) as usize, (w & ((1 << bits) - 1)) as usize);
        let now = (self.sc.paints as u64) << 32;
        let me = now | (slot as u64 + 1);
        lay.foot[k][pose].iter().any(|&dl| {
            let o = self.sc.occ[(a as isize + dl) as usize];
            o >= now && o != me
        })
    }

    /// Runs a move for every choice of instances of its free kinds.
    #[allow(clippy::too_many_arguments)]
    fn enumerate(
        &mut self,
        s: &[u32],
        ops: &[KOp],
        d: usize,
        free: &[u16],
        at: usize,
        action: Action,
        out: &mut Successors,
    ) {
        if at == free.len() {
            if self.run(s, ops, d, free) && !same(&self.sc.cur, s) {
                out.states.extend_from_slice(&self.sc.cur);
                out.actions.push(action);
            }
            return;
        }
        let k = free[at] as usize;
        let (start, count) = (self.lay.slots[k].start, self.lay.slots[k].count);
        match count {
            0 => {}
            1 if s[start] == ABSENT => {}
            1 => self.enumerate(s, ops, d, free, at + 1, action, out),
            _ => {
                for slot in start..start + count {
                    if s[slot] == ABSENT {
                        continue;
                    }
                    self.sc.choice[k] = slot as u32;
                    self.enumerate(s, ops, d, free, at + 1, action, out);
                }
                self.sc.choice[k] = NONE;
            }
        }
    }

    /// Runs one move program on a copy of `s` in the scratch state; true if it yields a
    /// legal state.
    #[inline]
    fn run(&mut self, s: &[u32], ops: &[KOp], d: usize, free: &[u16]) -> bool {
        for (c, v) in self.sc.cur.iter_mut().zip(s) {
            *c = *v;
        }
        if self.sc.runs & 255 == 255 && self.past_deadline() {
            return false;
        }
        self.sc.moved = 0;
        if !self.sc.moved_high.is_empty() {
            self.sc.moved_high.clear();
        }
        self.sc.runs += 1;
        if self.lay.slot_kind.len() > 64 {
            self.sc.stamp = self.sc.stamp.wrapping_add(1);
            if self.sc.stamp == 0 {
                self.sc.moved_at.fill(0);
                self.sc.stamp = 1;
            }
        }
        for &k in &self.lay.multi_kinds {
            self.sc.bound[k] = self.sc.choice[k];
        }
        let kinds = self.model.pieces.len();
        if self.sc.bound.len() > kinds {
            for b in &mut self.sc.bound[kinds..] {
                *b = NONE;
            }
        }
        if !self.sc.loops.is_empty() {
            self.sc.loops.clear();
        }
        self.begin_run(free);
        for op in ops {
            if !self.op(op, d) {
                return false;
            }
        }
        self.finish()
    }

    /// Starts a run whose free kinds (bound before it starts) are `free`: their copies
    /// are held by their names, and no clash is recorded yet.
    #[inline]
    pub(super) fn begin_run(&mut self, free: &[u16]) {
        // A kind's only copy is bound when the move acts on it, as one of many would
        // be, and otherwise left for a binding `require` to find.
        for i in 0..self.sc.singles.len() {
            let (k, slot) = self.sc.singles[i];
            self.sc.bound[k] = if free.contains(&(k as u16)) {
                slot
            } else {
                NONE
            };
        }
        self.sc.held.clear();
        self.sc.clash.clear();
        self.sc.retiled = false;
        for &k in free {
            if let Some(b) = self.bound_slot(k as usize) {
                self.sc.held.push(b as u32);
            }
        }
    }

    /// The slot bound to piece variable `k` (a kind or an alias), if any.
    #[inline]
    pub(super) fn bound_slot(&self, k: usize) -> Option<usize> {
        let b = *self.sc.bound.get(k)?;
        (b != NONE).then_some(b as usize)
    }

    /// Puts `slot` at padded cell `p` in `pose` in the scratch state, and marks it moved.
    #[inline(always)]
    pub(super) fn set_place(&mut self, slot: usize, p: usize, pose: usize) {
        let bits = self.lay.slot_bits[slot];
        self.sc.cur[slot] = (p as u32) << bits | pose as u32;
        if slot < 64 {
            self.sc.moved |= 1 << slot;
        } else {
            if self.sc.moved_at.len() <= slot {
                self.sc.moved_at.resize(self.lay.slot_kind.len(), 0);
            }
            if self.sc.moved_at[slot] != self.sc.stamp {
                self.sc.moved_at[slot] = self.sc.stamp;
                self.sc.moved_high.push(slot as u32);
            }
        }
    }

    /// Checks the moved instances and canonicalizes anonymous kinds.
    #[inline]
    fn finish(&mut self) -> bool {
        if !self.sc.clash.is_empty() && self.passed_through().is_some() {
            return false;
        }
        // A tile that changed under a copy that did not move may break a forbid too.
        if self.sc.retiled
            && !(0..self.lay.slot_kind.len()).all(|slot| self.slot_legal(&self.sc.cur, slot))
        {
            return false;
        }
        let high = self.sc.moved_high.len();
        if high > 0 && high + self.sc.moved.count_ones() as usize > 8 {
            // Many copies moved: one pass over every copy's cells finds any overlap (the
            // copies that did not move did not overlap before).
            let mut low = self.sc.moved;
            while low != 0 {
                let slot = low.trailing_zeros() as usize;
                low &= low - 1;
                if !self.slot_legal(&self.sc.cur, slot) {
                    return false;
                }
            }
            for i in 0..high {
                if !self.slot_legal(&self.sc.cur, self.sc.moved_high[i] as usize) {
                    return false;
                }
            }
            if self.any_overlap() {
                return false;
            }
        } else {
            let mut low = self.sc.moved;
            while low != 0 {
                let slot = low.trailing_zeros() as usize;
                low &= low - 1;
                if !self.slot_legal(&self.sc.cur, slot) || self.overlaps_any(&self.sc.cur, slot) {
                    return false;
                }
            }
            for i in 0..high {
                let slot = self.sc.moved_high[i] as usize;
                if !self.slot_legal(&self.sc.cur, slot) || self.overlaps_any(&self.sc.cur, slot) {
                    return false;
                }
            }
        }
        if self.lay.any_sorted {
            for &k in &self.lay.multi_kinds {
                let sl = &self.lay.slots[k];
                if self.model.pieces[k].anonymous {
                    let run = &mut self.sc.cur[sl.start..sl.start + sl.count];
                    if run.len() > 64 {
                        // Few copies moved: the run is nearly sorted, which the stable
                        // sort finishes in about one pass.
                        run.sort();
                    } else {
                        run.sort_unstable();
                    }
                }
            }
        }
        true
    }
}

impl Expander<'_> {
    /// Whether two copies in the scratch state share a cell: every copy's cells are
    /// stamped into `sc.cover`, and a cell stamped twice is an overlap.
    fn any_overlap(&mut self) -> bool {
        let lay = &self.lay;
        let sc = &mut self.sc;
        if sc.cover.len() != lay.ptile.len() {
            sc.cover = vec![0; lay.ptile.len()];
        }
        sc.checks = sc.checks.wrapping_add(1);
        if sc.checks == 0 {
            sc.cover.fill(0);
            sc.checks = 1;
        }
        let now = (sc.checks as u64) << 32;
        for slot in 0..lay.slot_kind.len() {
            if sc.cur[slot] == ABSENT {
                continue;
            }
            let (a, pose) = lay.anchor(&sc.cur, slot);
            for &dl in &lay.foot[lay.slot_kind[slot] as usize][pose] {
                let c = &mut sc.cover[(a as isize + dl) as usize];
                if *c >= now {
                    return true;
                }
                *c = now | 1;
            }
        }
        false
    }
}

/// Restores ascending order in `run` after element `i` changed (one insertion step).
#[inline]
fn resort_one(run: &mut [u32], mut i: usize) {
    while i > 0 && run[i - 1] > run[i] {
        run.swap(i - 1, i);
        i -= 1;
    }
    while i + 1 < run.len() && run[i + 1] < run[i] {
        run.swap(i, i + 1);
        i += 1;
    }
}

/// Whether two states are equal; states differ early (in a piece's word) far more often
/// than they match, so this stops at the first difference without a library call.
#[inline]
fn same(a: &[u32], b: &[u32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}
