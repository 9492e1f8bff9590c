//! The compiled op program: every `compile::Op` of a move lowered to a [`KOp`] for this
//! level's padded grid, with everything each kind of op means to the engine side by side:
//! its lowering, its reach, its execution on a state, and its relaxation for the heuristic.
//! A new move statement is added here (see the module header of `engine`).

use crate::compile::{Model, Op, SlideEvent, SlideRule, Step, Subject};

use super::expander::Expander;
use super::layout::{Layout, NONE, OFF};

/// A step resolved for the padded grid.
#[derive(Clone, Copy, Debug)]
pub(super) enum Delta {
    /// The move's direction, maybe reversed.
    Param {
        negate: bool,
    },
    Fixed(isize),
}

/// A move op with names and offsets resolved for this level's grid.
#[derive(Clone, Debug)]
pub(super) enum KOp {
    /// Continue only if `subject` is (`want`) or is not (`!want`) at the cell `delta` from
    /// kind `kind`'s anchor; binds an anonymous piece found there.
    Test {
        subject: Subject,
        kind: usize,
        delta: Option<Delta>,
        want: bool,
    },
    /// Move kind `kind` one step.
    Shift { kind: usize, delta: Delta },
    /// Move kind `kind` one step, trading places with whatever piece is there.
    Swap { kind: usize, delta: Delta },
    /// `table[pose * dirs + dir]`: new pose and linear anchor delta.
    Turn {
        kind: usize,
        table: Vec<Option<(u32, isize)>>,
    },
    /// Move kind `kind` step by step until a rule stops it.
    Slide {
        kind: usize,
        delta: Delta,
        rules: Vec<SlideRule>,
    },
}

/// A move whose program only shifts and turns one single-instance piece, with no tests:
/// its successor depends on that piece's place alone, so it runs without the general
/// machinery.
#[derive(Clone, Debug)]
pub(super) struct LocalMove {
    pub(crate) slot: usize,
    kind: usize,
    steps: Vec<KOp>,
    /// For one-step programs: per `pose * dirs + dir`, the new pose and anchor delta.
    pub(crate) single: Option<Vec<Option<(u32, isize)>>>,
}

/// Every move's program, lowered for one level.
pub(super) struct Program {
    /// Per move: its ops.
    pub(crate) moves: Vec<Vec<KOp>>,
    /// Per move: its local form, when it has one.
    pub(crate) local: Vec<Option<LocalMove>>,
    /// Per move: piece kinds acted on before a test binds them.
    pub(crate) free_kinds: Vec<Vec<u16>>,
}

impl Program {
    /// Lowers every move of `model` for the grid of `lay`.
    pub fn new(model: &Model, lay: &Layout) -> Program {
        let moves: Vec<Vec<KOp>> = model
            .moves
            .iter()
            .map(|m| m.ops.iter().map(|op| KOp::lower(op, lay)).collect())
            .collect();
        let local = moves
            .iter()
            .map(|ops| local_form(model, lay, ops))
            .collect();
        Program {
            moves,
            local,
            free_kinds: model.moves.iter().map(|m| free_kinds(&m.ops)).collect(),
        }
    }
}

impl Layout {
    /// A step as a delta on this grid.
    fn delta(&self, step: Step) -> Delta {
        match step.fixed {
            None => Delta::Param {
                negate: step.negate,
            },
            Some(d) => {
                let v = self.dir_delta[d.index()];
                Delta::Fixed(if step.negate { -v } else { v })
            }
        }
    }

    /// The linear delta of `delta` when the move goes in direction `d`.
    #[inline]
    pub fn resolve(&self, delta: Delta, d: usize) -> isize {
        match delta {
            Delta::Param { negate: false } => self.dir_delta[d],
            Delta::Param { negate: true } => -self.dir_delta[d],
            Delta::Fixed(v) => v,
        }
    }
}

impl KOp {
    /// Lowers one op for the grid of `lay`.
    fn lower(op: &Op, lay: &Layout) -> KOp {
        match op {
            Op::Test {
                subject,
                cell,
                want,
            } => KOp::Test {
                subject: *subject,
                kind: cell.piece.index(),
                delta: cell.step.map(|s| lay.delta(s)),
                want: *want,
            },
            Op::Shift { piece, step } => KOp::Shift {
                kind: piece.index(),
                delta: lay.delta(*step),
            },
            Op::Swap { piece, step } => KOp::Swap {
                kind: piece.index(),
                delta: lay.delta(*step),
            },
            Op::Turn { piece, table } => KOp::Turn {
                kind: piece.index(),
                table: table
                    .iter()
                    .map(|e| e.map(|(p, dr, dc)| (p.0 as u32, lay.lin(dr, dc))))
                    .collect(),
            },
            Op::Slide { piece, step, rules } => KOp::Slide {
                kind: piece.index(),
                delta: lay.delta(*step),
                rules: rules.clone(),
            },
        }
    }
}

/// Reports to `see` every (row, column) offset `op` moves a piece by beyond its footprint
/// and the directions, so the padded grid is wide enough for it.
pub(super) fn op_reach(op: &Op, see: &mut impl FnMut(i32, i32)) {
    match op {
        Op::Turn { table, .. } => {
            for &(_, dr, dc) in table.iter().flatten() {
                see(dr, dc);
            }
        }
        Op::Test { .. } | Op::Shift { .. } | Op::Swap { .. } | Op::Slide { .. } => {}
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
            Op::Test {
                subject,
                cell,
                want,
            } => {
                actor(cell.piece.0, &bound, &mut free);
                if let (Subject::Piece(p), true) = (subject, want) {
                    if !free.contains(&p.0) {
                        bound.push(p.0);
                    }
                }
            }
            Op::Shift { piece, .. }
            | Op::Swap { piece, .. }
            | Op::Turn { piece, .. }
            | Op::Slide { piece, .. } => actor(piece.0, &bound, &mut free),
        }
    }
    free
}

/// The local form of a program, when it only shifts and turns one single-instance piece.
fn local_form(model: &Model, lay: &Layout, ops: &[KOp]) -> Option<LocalMove> {
    let mut kind = None;
    for op in ops {
        let k = match op {
            KOp::Shift { kind, .. } | KOp::Turn { kind, .. } => *kind,
            _ => return None,
        };
        if kind.is_some_and(|x| x != k) {
            return None;
        }
        kind = Some(k);
    }
    let kind = kind?;
    let nd = lay.dir_delta.len();
    let np = model.pieces[kind].poses.len();
    let single = match ops {
        [KOp::Turn { table, .. }] => Some(table.clone()),
        [KOp::Shift { delta, .. }] => Some(
            (0..np * nd)
                .map(|i| Some(((i / nd) as u32, lay.resolve(*delta, i % nd))))
                .collect(),
        ),
        _ => None,
    };
    (lay.slots[kind].count == 1).then(|| LocalMove {
        slot: lay.slots[kind].start,
        kind,
        steps: ops.to_vec(),
        single,
    })
}

impl Expander<'_> {
    /// Runs a local move: the new word of its slot, or `None`.
    #[inline]
    pub(super) fn run_local(&self, s: &[u32], m: &LocalMove, d: usize) -> Option<u32> {
        let lay = &self.lay;
        let bits = lay.slots[m.kind].bits;
        let mut a = (s[m.slot] >> bits) as usize;
        let mut pose = (s[m.slot] & ((1 << bits) - 1)) as usize;
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

    /// Applies one op to `self.sc.cur`; false when the move cannot go on.
    #[inline]
    pub(super) fn op(&mut self, op: &KOp, d: usize) -> bool {
        match op {
            KOp::Test {
                subject,
                kind,
                delta,
                want,
            } => {
                let Some(slot) = self.bound_slot(*kind) else {
                    return false;
                };
                let lay = &self.lay;
                let (a, _) = lay.anchor(&self.sc.cur, slot);
                let p = (a as isize + delta.map_or(0, |x| lay.resolve(x, d))) as usize;
                let holds = match *subject {
                    Subject::Tile(t) => lay.tile_at(&self.sc.cur, p) == Some(t),
                    Subject::Mark(m) => lay.pmarks[p] >> m.0 & 1 == 1,
                    Subject::Piece(pk) => {
                        let k = pk.index();
                        if lay.ptile[p] == OFF {
                            false
                        } else if let Some(b) = self.bound_slot(k) {
                            lay.covers(&self.sc.cur, b, p)
                        } else if let Some(found) = lay.instance_at(&self.sc.cur, k, p) {
                            if *want {
                                self.sc.bound[k] = found as u32;
                            }
                            true
                        } else {
                            false
                        }
                    }
                };
                holds == *want
            }
            KOp::Shift { kind, delta } => {
                let Some(slot) = self.bound_slot(*kind) else {
                    return false;
                };
                let (a, pose) = self.lay.anchor(&self.sc.cur, slot);
                let to = (a as isize + self.lay.resolve(*delta, d)) as usize;
                if self.lay.ptile[to] == OFF {
                    return false;
                }
                self.set_place(slot, to, pose);
                true
            }
            KOp::Swap { kind, delta } => {
                let Some(slot) = self.bound_slot(*kind) else {
                    return false;
                };
                let (a, pose) = self.lay.anchor(&self.sc.cur, slot);
                let v = self.lay.resolve(*delta, d);
                let to = (a as isize + v) as usize;
                if self.lay.ptile[to] == OFF {
                    return false;
                }
                if let Some(other) = self.lay.any_instance_at(&self.sc.cur, to, slot) {
                    let (oa, opose) = self.lay.anchor(&self.sc.cur, other);
                    let back = (oa as isize - v) as usize;
                    if self.lay.ptile[back] == OFF {
                        return false;
                    }
                    self.set_place(other, back, opose);
                }
                self.set_place(slot, to, pose);
                true
            }
            KOp::Turn { kind, table } => {
                let Some(slot) = self.bound_slot(*kind) else {
                    return false;
                };
                let (a, pose) = self.lay.anchor(&self.sc.cur, slot);
                let Some((to_pose, v)) = table[pose * self.lay.dir_delta.len() + d] else {
                    return false;
                };
                let to = (a as isize + v) as usize;
                if self.lay.ptile[to] == OFF {
                    return false;
                }
                self.set_place(slot, to, to_pose as usize);
                true
            }
            KOp::Slide { kind, delta, rules } => {
                let Some(slot) = self.bound_slot(*kind) else {
                    return false;
                };
                let v = self.lay.resolve(*delta, d);
                self.slide(slot, v, rules)
            }
        }
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
                let fires = match r.event {
                    SlideEvent::OffBoard => off,
                    SlideEvent::BeforeTile(t) => {
                        !off && self.lay.tile_at(&self.sc.cur, next) == Some(t)
                    }
                    SlideEvent::BeforePiece(p) => {
                        !off && self
                            .lay
                            .instance_at(&self.sc.cur, p.index(), next)
                            .is_some()
                    }
                    SlideEvent::Into(_) => false,
                };
                if !fires {
                    continue;
                }
                if r.lose {
                    return false;
                }
                if r.brk {
                    let bit = self.lay.pmut[next];
                    if bit != NONE {
                        self.lay.set_mutable(&mut self.sc.cur, bit);
                    }
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

    /// Relaxation of one op for kind `k` alone on the board: pushes into `next` every
    /// (anchor, pose) an instance at (`a`, `pose`) may be at after `op` in direction `d`.
    /// Ops on other pieces and all tests are ignored, a swap by another piece may or may
    /// not displace it, and a slide may stop at any cell where a piece could block. Adds
    /// the cells it looked at to `work`.
    pub(super) fn relax_op(
        &self,
        k: usize,
        op: &KOp,
        (a, pose): (usize, usize),
        d: usize,
        next: &mut Vec<(usize, usize)>,
        work: &mut u64,
    ) {
        let lay = &self.lay;
        *work += 1;
        match op {
            KOp::Test { .. } => next.push((a, pose)),
            KOp::Shift { kind, delta } | KOp::Swap { kind, delta } if *kind == k => {
                if lay.slots[k].count > 1 {
                    next.push((a, pose)); // the op may move another instance
                }
                let to = (a as isize + lay.resolve(*delta, d)) as usize;
                if lay.ptile[to] != OFF {
                    next.push((to, pose));
                }
            }
            KOp::Swap { delta, .. } => {
                next.push((a, pose));
                let back = (a as isize - lay.resolve(*delta, d)) as usize;
                if lay.ptile[back] != OFF {
                    next.push((back, pose));
                }
            }
            KOp::Turn { kind, table } if *kind == k => {
                if let Some((p, v)) = table[pose * lay.dir_delta.len() + d] {
                    let to = (a as isize + v) as usize;
                    if lay.ptile[to] != OFF {
                        next.push((to, p as usize));
                    }
                }
            }
            KOp::Slide { kind, delta, rules } if *kind == k => {
                let v = lay.resolve(*delta, d);
                let may_block = rules
                    .iter()
                    .any(|r| matches!(r.event, SlideEvent::BeforePiece(_)));
                let mut at = a;
                for _ in 0..lay.ptile.len() {
                    *work += 1;
                    let nxt = (at as isize + v) as usize;
                    let off = lay.ptile[nxt] == OFF;
                    let mut stop = false;
                    let mut lost = false;
                    for r in rules {
                        let fires = match r.event {
                            SlideEvent::OffBoard => off,
                            SlideEvent::BeforeTile(t) => !off && lay.ptile[nxt] == t.0,
                            _ => false,
                        };
                        if fires {
                            lost |= r.lose;
                            stop |= r.stop;
                            if r.lose || r.stop {
                                break;
                            }
                        }
                    }
                    if lost {
                        break;
                    }
                    if stop {
                        next.push((at, pose));
                        break;
                    }
                    if off {
                        break;
                    }
                    at = nxt;
                    if may_block {
                        next.push((at, pose));
                    }
                    let into = rules.iter().any(|r| match r.event {
                        SlideEvent::Into(p) => r.stop && lay.on_place(&[], at, p),
                        _ => false,
                    });
                    if into {
                        next.push((at, pose));
                        break;
                    }
                }
            }
            KOp::Shift { .. } | KOp::Turn { .. } | KOp::Slide { .. } => next.push((a, pose)),
        }
    }
}
