//! Running a move's lowered program on a state: each op ([`Expander::op`]) and condition
//! ([`Expander::eval`]) applied to the expander's scratch state, with the bindings of
//! piece variables, slides, tile changes and the record of copies passing through each
//! other.

use crate::compile::{AssignOp, CmpOp, SlideEvent, SlideRule, Subject};

use super::super::expander::Expander;
use super::super::layout::{ABSENT, NONE, OFF};
use super::{KAttr, KAttrRhs, KBase, KCell, KCond, KOp, KPlace, LocalMove};

/// `left OP right`, where `value` reads an attribute; false when a piece is missing.
pub(in crate::engine) fn compare_attrs(
    left: Option<i64>,
    op: CmpOp,
    right: &KAttrRhs,
    value: impl Fn(&KAttr) -> Option<i64>,
) -> bool {
    let r = match right {
        KAttrRhs::Value(v) => Some(*v),
        KAttrRhs::Attr(a) => value(a),
    };
    match (left, r) {
        (Some(l), Some(r)) => op.holds(l, r),
        _ => false,
    }
}

impl Expander<'_> {
    /// Whether a slide's event about the cell ahead (`next`, off the board when `off`)
    /// fires; `into` events are about the cell entered and never fire here.
    #[inline]
    pub(in crate::engine) fn fires_ahead(&self, event: SlideEvent, next: usize, off: bool) -> bool {
        match event {
            SlideEvent::OffBoard => off,
            // Beyond the board every cell is the `outside` tile, if one is declared.
            SlideEvent::BeforeTile(t) => self.lay.tile_at(&self.sc.cur, next) == Some(t),
            SlideEvent::BeforePiece(p) => {
                !off && self
                    .lay
                    .instance_at(&self.sc.cur, p.index(), next)
                    .is_some()
            }
            SlideEvent::Into(_) => false,
        }
    }

    /// Runs a local move: the new word of its slot, or `None`.
    #[inline]
    pub(in crate::engine) fn run_local(
        &self,
        s: &[u32],
        m: &LocalMove,
        slot: usize,
        d: usize,
    ) -> Option<u32> {
        let lay = &self.lay;
        if s[slot] == ABSENT {
            return None;
        }
        let bits = lay.slots[m.kind].bits;
        let mut a = (s[slot] >> bits) as usize;
        let mut pose = (s[slot] & ((1 << bits) - 1)) as usize;
        for st in &m.steps {
            match st {
                KOp::Shift { delta, .. } => a = (a as isize + lay.resolve(*delta, d)) as usize,
                KOp::Turn { table, .. } => {
                    let (p, v) = table[pose * lay.dir_delta.len() + d]?;
                    a = (a as isize + v) as usize;
                    pose = p as usize;
                }
                _ => unreachable!("local moves only shift and turn"),
            }
            if lay.ptile[a] == OFF {
                return None;
            }
        }
        let w = (a as u32) << bits | pose as u32;
        if !self.word_may_be_legal(m.kind, w) {
            return None;
        }
        Some(w)
    }

    /// The padded cell a goal's cell names in `s`: an absolute cell, or steps from the
    /// first copy of a piece on the board.
    pub(in crate::engine) fn goal_cell(&self, s: &[u32], c: &KCell) -> Option<usize> {
        let base = match c.base {
            KBase::Abs(p) => p?,
            KBase::Var(v) => {
                let sl = self.lay.slots.get(v)?;
                let slot = (sl.start..sl.start + sl.count).find(|&slot| s[slot] != ABSENT)?;
                self.lay.anchor(s, slot).0
            }
            KBase::Param | KBase::Loop(_) => return None,
        };
        let p = base as isize + c.fixed;
        (p >= 0 && (p as usize) < self.lay.ptile.len()).then_some(p as usize)
    }

    /// The padded cell a resolved cell names now, or `None` (unbound, absent or off the
    /// padded grid).
    #[inline]
    fn cell_at(&self, c: &KCell, d: usize) -> Option<usize> {
        let base = match c.base {
            KBase::Var(v) => {
                let slot = self.bound_slot(v)?;
                if self.sc.cur[slot] == ABSENT {
                    return None;
                }
                self.lay.anchor(&self.sc.cur, slot).0
            }
            KBase::Param => self.sc.param,
            KBase::Loop(depth) => *self.sc.loops.iter().rev().nth(depth)?,
            KBase::Abs(p) => p?,
        };
        let extra = if c.mult != 0 {
            self.lay.dir_delta.get(d).copied().unwrap_or(0) * c.mult as isize
        } else {
            0
        };
        let p = base as isize + c.fixed + extra;
        (p >= 0 && (p as usize) < self.lay.ptile.len()).then_some(p as usize)
    }

    /// An `if` condition: binds what it finds when it holds; when it fails, the copies
    /// it bound on the way are unbound again (the `else` branch and what follows see the
    /// bindings from before it).
    pub(in crate::engine) fn try_cond(&mut self, cond: &KCond, d: usize) -> bool {
        let mark = self.sc.saved.len();
        let held = self.sc.held.len();
        self.sc.saved.extend_from_slice(&self.sc.bound);
        let ok = self.eval(cond, d, true);
        if !ok {
            let n = self.sc.bound.len();
            for i in 0..n {
                self.sc.bound[i] = self.sc.saved[mark + i];
            }
            self.sc.held.truncate(held);
        }
        self.sc.saved.truncate(mark);
        ok
    }

    /// Attribute `a` of the copy in `slot` of state `s` (its pose's value), if present.
    pub(in crate::engine) fn attr_of(&self, s: &[u32], slot: usize, a: &KAttr) -> Option<i64> {
        if s.get(slot).is_none_or(|&w| w == ABSENT) {
            return None;
        }
        let (_, pose) = self.lay.anchor(s, slot);
        *self.model.pieces[a.kind].poses[pose].values.get(a.attr)?
    }

    /// A binding `require` found copy `found` of kind `k`: binds it when the kind has no
    /// bound copy yet, and marks the kind's copy as held by its name, so a later `as`
    /// looks for another one.
    fn hold(&mut self, k: usize, found: usize) {
        let slot = match self.bound_slot(k) {
            Some(b) => b,
            None => {
                self.sc.bound[k] = found as u32;
                found
            }
        };
        if !self.sc.held.contains(&(slot as u32)) {
            self.sc.held.push(slot as u32);
        }
    }

    /// Evaluates a condition in the scratch state; binds pieces found when `bind` holds.
    pub(in crate::engine) fn eval(&mut self, c: &KCond, d: usize, bind: bool) -> bool {
        match c {
            KCond::At {
                subject,
                pose,
                of,
                cell,
                bind: var,
            } => {
                let Some(p) = self.cell_at(cell, d) else {
                    return false;
                };
                if let Some(v) = of {
                    // `over at CELL`: that very copy covers the cell.
                    return self.bound_slot(*v).is_some_and(|slot| {
                        self.lay.covers(&self.sc.cur, slot, p)
                            && pose.is_none_or(|q| self.lay.anchor(&self.sc.cur, slot).1 == q)
                    });
                }
                let lay = &self.lay;
                match *subject {
                    Subject::Tile(t) => lay.tile_at(&self.sc.cur, p) == Some(t),
                    Subject::Mark(m) => lay.pmarks[p] >> m.0 & 1 == 1,
                    Subject::Piece(pk) => {
                        let k = pk.index();
                        if lay.ptile[p] == OFF {
                            return false;
                        }
                        let kinds = self.model.pieces.len();
                        match var {
                            // An alias: a copy no name holds yet (not an earlier alias,
                            // nor the copy of a kind the move acts on or has bound; a
                            // kind's only copy is not held just because it is alone).
                            Some(v) if *v >= kinds => {
                                let sl = &lay.slots[k];
                                let found = (sl.start..sl.start + sl.count).find(|&slot| {
                                    lay.covers(&self.sc.cur, slot, p)
                                        && pose
                                            .is_none_or(|q| lay.anchor(&self.sc.cur, slot).1 == q)
                                        && !self.sc.bound[kinds..].contains(&(slot as u32))
                                        && !self.sc.held.contains(&(slot as u32))
                                });
                                match found {
                                    Some(slot) => {
                                        if bind {
                                            self.sc.bound[*v] = slot as u32;
                                        }
                                        true
                                    }
                                    None => false,
                                }
                            }
                            // Any copy of the kind there, the move's own included; a
                            // binding `require` binds the copy found when none is bound.
                            _ => match lay.instance_in_pose(&self.sc.cur, k, p, *pose) {
                                Some(found) => {
                                    if bind && var.is_some() {
                                        self.hold(k, found);
                                    }
                                    true
                                }
                                None => false,
                            },
                        }
                    }
                }
            }
            KCond::On {
                var,
                kind,
                pose,
                place,
            } => {
                let lay = &self.lay;
                let check = |slot: usize| {
                    let (a, q) = lay.anchor(&self.sc.cur, slot);
                    pose.is_none_or(|want| want == q)
                        && lay.foot[*kind][q].iter().all(|&dl| {
                            lay.on_place(&self.sc.cur, (a as isize + dl) as usize, *place)
                        })
                };
                match self.bound_slot(*var) {
                    Some(slot) => self.sc.cur[slot] != ABSENT && check(slot),
                    // Every copy; a named piece off the board is on nothing (as in a
                    // goal), an anonymous kind with none left meets it vacuously.
                    None => {
                        let sl = &lay.slots[*kind];
                        let anonymous = self.model.pieces[*kind].anonymous;
                        (sl.start..sl.start + sl.count).all(|slot| {
                            if self.sc.cur[slot] == ABSENT {
                                anonymous
                            } else {
                                check(slot)
                            }
                        })
                    }
                }
            }
            KCond::CountPieces { kind, op, value } => {
                let sl = &self.lay.slots[*kind];
                let n = self.sc.cur[sl.start..sl.start + sl.count]
                    .iter()
                    .filter(|&&w| w != ABSENT)
                    .count();
                op.holds(n as i64, *value)
            }
            KCond::CountTiles { tile, op, value } => {
                op.holds(self.lay.count_tile(&self.sc.cur, *tile) as i64, *value)
            }
            KCond::Const(b) => *b,
            KCond::Counter { word, op, value } => op.holds(self.sc.cur[*word] as i64, *value),
            KCond::Attr { left, op, right } => {
                let value = |a: &KAttr| {
                    let slot = self.bound_slot(a.var)?;
                    self.attr_of(&self.sc.cur, slot, a)
                };
                compare_attrs(value(left), *op, right, value)
            }
            KCond::Not(inner) => !self.eval(inner, d, false),
            KCond::And(parts) => parts.iter().all(|p| self.eval(p, d, bind)),
            KCond::Or(parts) => parts.iter().any(|p| self.eval(p, d, false)),
        }
    }

    /// The slots `each` visits: every copy of `kind` on the board, the farthest along
    /// `(dr, dc)` first (ties in slot order).
    fn each_order(&self, kind: usize, (dr, dc): (i32, i32)) -> Vec<usize> {
        let lay = &self.lay;
        let sl = &lay.slots[kind];
        let mut slots: Vec<usize> = (sl.start..sl.start + sl.count)
            .filter(|&slot| self.sc.cur[slot] != ABSENT)
            .collect();
        let key = |slot: usize| {
            let (a, _) = lay.anchor(&self.sc.cur, slot);
            let (r, c) = lay.row_col(a);
            -(r as i64 * dr as i64 + c as i64 * dc as i64)
        };
        slots.sort_by_key(|&slot| key(slot));
        slots
    }

    /// Runs a block of ops; false when one fails.
    fn ops(&mut self, ops: &[KOp], d: usize) -> bool {
        ops.iter().all(|op| self.op(op, d))
    }

    /// Applies one op to `self.sc.cur`; false when the move cannot go on.
    #[inline(always)]
    pub(in crate::engine) fn op(&mut self, op: &KOp, d: usize) -> bool {
        match op {
            KOp::Test {
                subject,
                kind,
                delta,
                want,
            } => {
                // A cell counted from a copy that is not there names nothing: the
                // condition is false, so a `require` fails and a `forbid` passes.
                let Some(slot) = self.bound_slot(*kind) else {
                    return !*want;
                };
                if self.sc.cur[slot] == ABSENT {
                    return !*want;
                }
                let lay = &self.lay;
                let (a, _) = lay.anchor(&self.sc.cur, slot);
                let p = (a as isize + delta.map_or(0, |x| lay.resolve(x, d))) as usize;
                let holds = match *subject {
                    Subject::Tile(t) => lay.tile_at(&self.sc.cur, p) == Some(t),
                    Subject::Mark(m) => lay.pmarks[p] >> m.0 & 1 == 1,
                    // Any copy of the kind there, the move's own included; `require`
                    // binds the copy found when none is bound.
                    Subject::Piece(pk) => {
                        let k = pk.index();
                        if lay.ptile[p] == OFF {
                            false
                        } else if let Some(found) = lay.instance_at(&self.sc.cur, k, p) {
                            if *want {
                                self.hold(k, found);
                            }
                            true
                        } else {
                            false
                        }
                    }
                };
                holds == *want
            }
            KOp::Shift {
                var,
                kind,
                delta,
                each,
                clash,
            } => {
                if *each {
                    let order = self.each_order(*kind, self.lay.resolve_rc(*delta, d));
                    let v = self.lay.resolve(*delta, d);
                    // Copies move one after another, the farthest first, all by the
                    // same step: a one-cell copy never lands on another copy of its
                    // kind (that one was ahead, and moved first), so only a later
                    // statement makes its clashes matter; wider copies may overlap
                    // an unmoved one on the way.
                    let wide = self.lay.foot[*kind].iter().any(|f| f.len() > 1);
                    return order.into_iter().all(|slot| {
                        let ok = self.shift_slot(slot, v);
                        if ok && (*clash || wide) {
                            self.note_clashes(Some(slot));
                        }
                        ok
                    });
                }
                let Some(slot) = self.bound_slot(*var) else {
                    return false;
                };
                let v = self.lay.resolve(*delta, d);
                let ok = self.shift_slot(slot, v);
                if ok && *clash {
                    self.note_clashes(Some(slot));
                }
                ok
            }
            KOp::Swap {
                var, delta, clash, ..
            } => {
                let Some(slot) = self.bound_slot(*var) else {
                    return false;
                };
                if self.sc.cur[slot] == ABSENT {
                    return false;
                }
                let (a, pose) = self.lay.anchor(&self.sc.cur, slot);
                let v = self.lay.resolve(*delta, d);
                let to = (a as isize + v) as usize;
                if self.lay.ptile[to] == OFF {
                    return false;
                }
                let displaced = self.lay.any_instance_at(&self.sc.cur, to, slot);
                if let Some(other) = displaced {
                    let (oa, opose) = self.lay.anchor(&self.sc.cur, other);
                    let back = (oa as isize - v) as usize;
                    if self.lay.ptile[back] == OFF {
                        return false;
                    }
                    self.set_place(other, back, opose);
                }
                self.set_place(slot, to, pose);
                // Both have moved: only now can they be told to share a cell or not.
                if *clash {
                    self.note_clashes(Some(slot));
                    self.note_clashes(displaced);
                }
                true
            }
            KOp::Turn {
                var, table, clash, ..
            } => {
                let Some(slot) = self.bound_slot(*var) else {
                    return false;
                };
                if self.sc.cur[slot] == ABSENT {
                    return false;
                }
                let (a, pose) = self.lay.anchor(&self.sc.cur, slot);
                let Some((to_pose, v)) = table[pose * self.lay.dir_delta.len() + d] else {
                    return false;
                };
                let to = (a as isize + v) as usize;
                if self.lay.ptile[to] == OFF {
                    return false;
                }
                self.set_place(slot, to, to_pose as usize);
                if *clash {
                    self.note_clashes(Some(slot));
                }
                true
            }
            KOp::Slide {
                var,
                kind,
                delta,
                rules,
                each,
            } => {
                let v = self.lay.resolve(*delta, d);
                if *each {
                    let order = self.each_order(*kind, self.lay.resolve_rc(*delta, d));
                    return order.into_iter().all(|slot| self.slide(slot, v, rules));
                }
                let Some(slot) = self.bound_slot(*var) else {
                    return false;
                };
                if self.sc.cur[slot] == ABSENT {
                    return false;
                }
                self.slide(slot, v, rules)
            }
            KOp::Check { .. }
            | KOp::Remove { .. }
            | KOp::Create { .. }
            | KOp::Change { .. }
            | KOp::Count { .. }
            | KOp::If { .. }
            | KOp::ForCells { .. } => self.op_general(op, d),
        }
    }

    /// The ops beyond the seed mechanics, kept out of [`Expander::op`] so that the seed
    /// ops stay small enough to inline into the run loop.
    #[inline(never)]
    fn op_general(&mut self, op: &KOp, d: usize) -> bool {
        match op {
            KOp::Check { cond, want } => self.eval(cond, d, *want) == *want,
            KOp::Remove { var } => {
                let Some(slot) = self.bound_slot(*var) else {
                    return false;
                };
                if self.sc.cur[slot] == ABSENT {
                    return false;
                }
                self.sc.cur[slot] = ABSENT;
                true
            }
            KOp::Create {
                kind,
                pose,
                cell,
                clash,
            } => {
                let Some(p) = self.cell_at(cell, d) else {
                    return false;
                };
                if self.lay.ptile[p] == OFF {
                    return false;
                }
                let sl = &self.lay.slots[*kind];
                let Some(slot) =
                    (sl.start..sl.start + sl.count).find(|&slot| self.sc.cur[slot] == ABSENT)
                else {
                    return false;
                };
                self.set_place(slot, p, *pose as usize);
                if *clash {
                    self.note_clashes(Some(slot));
                }
                true
            }
            KOp::Change {
                from,
                to,
                toggle,
                place,
            } => {
                match place {
                    KPlace::At(c) => {
                        if let Some(p) = self.cell_at(c, d) {
                            self.change_cell(p, *from, *to, *toggle);
                        }
                    }
                    KPlace::All | KPlace::Mark(_) => {
                        for i in 0..self.lay.mut_cells.len() {
                            let p = self.lay.mut_cells[i] as usize;
                            if let KPlace::Mark(m) = place {
                                if self.lay.pmarks[p] >> m & 1 == 0 {
                                    continue;
                                }
                            }
                            self.change_cell(p, *from, *to, *toggle);
                        }
                    }
                }
                true
            }
            KOp::Count {
                word,
                max,
                op,
                value,
            } => {
                let cur = self.sc.cur[*word] as i64;
                let next = match op {
                    AssignOp::Add => cur + value,
                    AssignOp::Sub => cur - value,
                    AssignOp::Set => *value,
                };
                if !(0..=*max as i64).contains(&next) {
                    return false;
                }
                self.sc.cur[*word] = next as u32;
                true
            }
            KOp::If { cond, then, els } => {
                if self.try_cond(cond, d) {
                    self.ops(then, d)
                } else {
                    self.ops(els, d)
                }
            }
            KOp::ForCells { var, body, fresh } => {
                let Some(slot) = self.bound_slot(*var) else {
                    return false;
                };
                if self.sc.cur[slot] == ABSENT {
                    return false;
                }
                let k = self.lay.slot_kind[slot] as usize;
                let (a, pose) = self.lay.anchor(&self.sc.cur, slot);
                let cells: Vec<usize> = self.lay.foot[k][pose]
                    .iter()
                    .map(|&dl| (a as isize + dl) as usize)
                    .collect();
                for p in cells {
                    for &v in fresh {
                        self.sc.bound[v] = NONE;
                    }
                    self.sc.loops.push(p);
                    let ok = self.ops(body, d);
                    self.sc.loops.pop();
                    if !ok {
                        return false;
                    }
                }
                true
            }
            KOp::Test { .. }
            | KOp::Shift { .. }
            | KOp::Swap { .. }
            | KOp::Turn { .. }
            | KOp::Slide { .. } => unreachable!("Expander::op runs the seed ops itself"),
        }
    }

    /// Records every copy sharing a cell with the copy in `slot` now (see
    /// `Scratch::clash`).
    fn note_clashes(&mut self, slot: Option<usize>) {
        let Some(a) = slot else {
            return;
        };
        if self.sc.cur[a] == ABSENT {
            return;
        }
        for b in 0..self.lay.slot_kind.len() {
            if b == a || self.sc.cur[b] == ABSENT || !self.overlap_pair(&self.sc.cur, a, b) {
                continue;
            }
            let pair = (a.min(b) as u32, a.max(b) as u32);
            if !self.sc.clash.contains(&pair) {
                self.sc.clash.push(pair);
            }
        }
    }

    /// A pair of copies that shared a cell during the run and are both still on the
    /// board: the move is refused (pieces may not pass through each other).
    pub(in crate::engine) fn passed_through(&self) -> Option<(usize, usize)> {
        self.sc
            .clash
            .iter()
            .find(|&&(a, b)| self.sc.cur[a as usize] != ABSENT && self.sc.cur[b as usize] != ABSENT)
            .map(|&(a, b)| (a as usize, b as usize))
    }

    /// Moves `slot` by `v`; false when it would leave the padded board.
    fn shift_slot(&mut self, slot: usize, v: isize) -> bool {
        if self.sc.cur[slot] == ABSENT {
            return false;
        }
        let (a, pose) = self.lay.anchor(&self.sc.cur, slot);
        let to = (a as isize + v) as usize;
        if to >= self.lay.ptile.len() || self.lay.ptile[to] == OFF {
            return false;
        }
        self.set_place(slot, to, pose);
        true
    }

    /// Changes the tile at `p` from `from` to `to` (and back, for a toggle).
    fn change_cell(&mut self, p: usize, from: u16, to: u16, toggle: bool) {
        let Some(t) = self.lay.tile_at(&self.sc.cur, p) else {
            return;
        };
        if self.lay.ptile[p] == OFF {
            return;
        }
        let new = if t.0 == from {
            to
        } else if toggle && t.0 == to {
            from
        } else {
            return;
        };
        self.lay
            .set_tile(&mut self.sc.cur, p, crate::compile::TileId(new));
        self.sc.retiled = true;
    }

    /// Slides `slot` by `v` per step until an event stops it; works on `self.sc.cur`.
    fn slide(&mut self, slot: usize, v: isize, rules: &[SlideRule]) -> bool {
        let limit = self.lay.ptile.len();
        for _ in 0..limit {
            let (a, pose) = self.lay.anchor(&self.sc.cur, slot);
            let next = (a as isize + v) as usize;
            let off = self.lay.ptile[next] == OFF;
            // Events about the cell ahead, in declaration order.
            for r in rules {
                if !self.fires_ahead(r.event, next, off) {
                    continue;
                }
                if r.lose {
                    return false;
                }
                if r.brk && self.lay.pmut[next] != NONE {
                    self.lay.break_tile(&mut self.sc.cur, next);
                    self.sc.retiled = true;
                }
                if r.stop {
                    return true;
                }
            }
            if off {
                return false;
            }
            self.set_place(slot, next, pose);
            if !self.slot_legal(&self.sc.cur, slot) || self.overlaps_any(&self.sc.cur, slot) {
                return false;
            }
            for r in rules {
                if let SlideEvent::Into(place) = r.event {
                    if self.lay.on_place(&self.sc.cur, next, place) {
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
}
