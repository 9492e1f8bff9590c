//! Guarded forms: moves whose guards (`require`, `forbid`, `if ... else`) read only cells
//! at fixed offsets, compiled into tables, so a successor costs a few lookups instead of
//! a run of the general program. Two forms, each built only when it says exactly what
//! the general run would (any other program keeps its general run):
//!
//! - [`GuardedLocal`]: one copy of a kind moves by one step (a `shift` or a `turn`)
//!   chosen by guards on cells counted from it, as frogs and toads write it: `if toad at
//!   frog + d as over { shift frog 2d } else { shift frog d }`. The guards read tiles,
//!   marks and the occupancy painted for the state being expanded, before the step.
//! - [`GuardedFlips`]: on a level without pieces, where every changeable cell holds one of
//!   two tiles, a move that tests and toggles tiles at cells fixed relative to its cell
//!   or direction, as peg solitaire with the pegs as tiles writes it: per action, state
//!   bits that must hold given values, then bits that flip.

use crate::compile::{Subject, TileId};

use super::super::expander::Expander;
use super::super::interpreter::Successors;
use super::super::layout::{Layout, ABSENT, NONE, OFF};
use super::super::legality::{LEGAL, LIVE};
use super::{Actions, Delta, KBase, KCell, KCond, KOp};
use crate::compile::{Action, DirId, MoveId};

/// The most nodes a guarded move's decision tree may have (an `if` copies the statements
/// after it into both branches).
const TREE_MAX: usize = 256;

/// What a guard looks for at its cell.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) enum Probe {
    Tile(TileId),
    Mark(u16),
    /// A copy of `kind` covers the cell (in `pose`, when given); with `other`, one that
    /// is not the moving copy (an `as` name: a copy no name holds yet).
    Piece {
        kind: usize,
        pose: Option<usize>,
        other: bool,
    },
}

/// A condition on cells counted from the moving copy's anchor: `fixed` plus `mult` times
/// the move's direction.
#[derive(Clone, Debug)]
pub(in crate::engine) enum Guard {
    At {
        probe: Probe,
        fixed: isize,
        mult: i32,
    },
    Const(bool),
    Not(Box<Guard>),
    All(Vec<Guard>),
    Any(Vec<Guard>),
}

/// A node of a guarded move's decision tree (indexes into [`GuardedLocal::nodes`]).
#[derive(Clone, Debug)]
pub(in crate::engine) enum Node {
    /// Go on to `next` if the guard holds as `want`, else the move does not apply.
    Require { guard: Guard, want: bool, next: u32 },
    /// `if`: `then` when the guard holds, else `els`.
    Branch { guard: Guard, then: u32, els: u32 },
    /// The move's step: an index into [`GuardedLocal::steps`].
    Step(u32),
    /// The program ends without moving anything: not a move.
    Stop,
}

/// A move of one kind's copy by one step, chosen by guards (see the module header). Tried
/// per copy, in slot order, and per direction, as the general run tries it.
#[derive(Clone, Debug)]
pub(in crate::engine) struct GuardedLocal {
    /// The kind's first slot.
    pub(crate) slot: usize,
    /// The kind's copies (slots `slot..slot + count`).
    pub(crate) count: usize,
    pub(crate) kind: usize,
    /// The decision tree, its root first.
    nodes: Vec<Node>,
    /// Per step: per `pose * dirs + dir`, the new pose and anchor delta.
    steps: Vec<Vec<Option<(u32, isize)>>>,
}

/// A move of tile tests and toggles on a level without pieces (see the module header).
#[derive(Clone, Debug)]
pub(in crate::engine) struct GuardedFlips {
    /// The actions that can apply, in action order: (action number, end of its tests,
    /// end of its flips); each starts where the one before it ended.
    acts: Vec<(u16, u32, u32)>,
    /// (word, mask, value): the state's word masked must equal the value.
    tests: Vec<(u32, u32, u32)>,
    /// (word, mask): the bits the action flips.
    flips: Vec<(u32, u32)>,
    /// For states of one or two words, the same as one word: per action that can apply,
    /// (mask, value, flips, action number), the state read as `s[0] | s[1] << 32`.
    packed: Vec<(u64, u64, u64, u16)>,
}

/// The guarded local form of a move (`ops`, acting on the kinds `free`), when it has one.
pub(super) fn guarded_local(
    lay: &Layout,
    kinds: usize,
    poses: &[usize],
    ops: &[KOp],
    free: &[u16],
    actions: &Actions,
) -> Option<GuardedLocal> {
    let (Actions::Dirs(_), [m]) = (actions, free) else {
        return None;
    };
    let m = *m as usize;
    // An `as` name, or a binding of another kind's copy, changes which copies a later
    // `as` may find; with at most one such condition in the program, every `as` is
    // tried with the moving copy alone held, which the painted occupancy tells.
    if bindings(ops, m, kinds) > 1 || lay.slots[m].count == 0 {
        return None;
    }
    let mut b = TreeBuilder {
        lay,
        kinds,
        mover: m,
        poses: poses[m],
        nodes: vec![],
        steps: vec![],
    };
    b.build(ops.to_vec())?;
    // A program that never steps moves nothing.
    if b.steps.is_empty() {
        return None;
    }
    Some(GuardedLocal {
        slot: lay.slots[m].start,
        count: lay.slots[m].count,
        kind: m,
        nodes: b.nodes,
        steps: b.steps,
    })
}

/// How many conditions of `ops` may bind a copy that a later `as` would have to pass
/// over: `as` names, and bindings of a kind other than the mover `m`.
fn bindings(ops: &[KOp], m: usize, kinds: usize) -> usize {
    fn cond(c: &KCond, m: usize, kinds: usize) -> usize {
        match c {
            KCond::At {
                subject: Subject::Piece(k),
                bind: Some(v),
                ..
            } => usize::from(*v >= kinds || k.index() != m),
            KCond::Not(inner) => cond(inner, m, kinds),
            KCond::And(ps) | KCond::Or(ps) => ps.iter().map(|p| cond(p, m, kinds)).sum(),
            _ => 0,
        }
    }
    ops.iter()
        .map(|op| match op {
            KOp::Test {
                subject: Subject::Piece(k),
                want: true,
                ..
            } => usize::from(k.index() != m),
            KOp::Check { cond: c, .. } => cond(c, m, kinds),
            KOp::If { cond: c, then, els } => {
                cond(c, m, kinds) + bindings(then, m, kinds) + bindings(els, m, kinds)
            }
            _ => 0,
        })
        .sum()
}

/// Builds a guarded move's decision tree.
struct TreeBuilder<'a> {
    lay: &'a Layout,
    kinds: usize,
    mover: usize,
    poses: usize,
    nodes: Vec<Node>,
    steps: Vec<Vec<Option<(u32, isize)>>>,
}

impl TreeBuilder<'_> {
    /// The node running `ops`; `None` when they leave the form.
    fn build(&mut self, ops: Vec<KOp>) -> Option<u32> {
        if self.nodes.len() >= TREE_MAX {
            return None;
        }
        let at = self.nodes.len();
        self.nodes.push(Node::Stop);
        let Some((first, rest)) = ops.split_first() else {
            return Some(at as u32);
        };
        let m = self.mover;
        let node = match first {
            KOp::Test {
                subject,
                kind,
                delta,
                want,
            } if *kind == m => {
                let (fixed, mult) = match delta {
                    None => (0, 0),
                    Some(Delta::Fixed(v, _)) => (*v, 0),
                    Some(Delta::Param { mult }) => (0, *mult),
                };
                let probe = self.probe(*subject, None, None)?;
                let next = self.build(rest.to_vec())?;
                Node::Require {
                    guard: Guard::At { probe, fixed, mult },
                    want: *want,
                    next,
                }
            }
            KOp::Check { cond, want } => {
                let guard = self.guard(cond)?;
                let next = self.build(rest.to_vec())?;
                Node::Require {
                    guard,
                    want: *want,
                    next,
                }
            }
            KOp::If { cond, then, els } => {
                let guard = self.guard(cond)?;
                let then = self.build(then.iter().chain(rest).cloned().collect())?;
                let els = self.build(els.iter().chain(rest).cloned().collect())?;
                Node::Branch { guard, then, els }
            }
            // The step ends the program: a guard after it would see the moved copy.
            KOp::Shift {
                var,
                kind,
                delta,
                each: false,
                ..
            } if *var == m && *kind == m && rest.is_empty() => {
                let nd = self.lay.dir_delta.len();
                self.steps.push(
                    (0..self.poses * nd)
                        .map(|i| Some(((i / nd) as u32, self.lay.resolve(*delta, i % nd))))
                        .collect(),
                );
                Node::Step(self.steps.len() as u32 - 1)
            }
            KOp::Turn {
                var, kind, table, ..
            } if *var == m && *kind == m && rest.is_empty() => {
                self.steps.push(table.clone());
                Node::Step(self.steps.len() as u32 - 1)
            }
            _ => return None,
        };
        self.nodes[at] = node;
        Some(at as u32)
    }

    /// What `subject` at a cell asks; `bind` is the variable a piece found is bound to.
    fn probe(&self, subject: Subject, pose: Option<usize>, bind: Option<usize>) -> Option<Probe> {
        Some(match subject {
            Subject::Tile(t) => Probe::Tile(t),
            Subject::Mark(k) => Probe::Mark(k.0),
            Subject::Piece(k) => Probe::Piece {
                kind: k.index(),
                pose,
                other: bind.is_some_and(|v| v >= self.kinds),
            },
        })
    }

    /// A condition as a guard, when every cell it reads is counted from the mover.
    fn guard(&self, c: &KCond) -> Option<Guard> {
        Some(match c {
            KCond::At {
                subject,
                pose,
                of: None,
                cell:
                    KCell {
                        base: KBase::Var(v),
                        fixed,
                        mult,
                    },
                bind,
            } if *v == self.mover => Guard::At {
                probe: self.probe(*subject, *pose, *bind)?,
                fixed: *fixed,
                mult: *mult,
            },
            KCond::Const(b) => Guard::Const(*b),
            KCond::Not(inner) => Guard::Not(Box::new(self.guard(inner)?)),
            KCond::And(ps) => Guard::All(ps.iter().map(|p| self.guard(p)).collect::<Option<_>>()?),
            KCond::Or(ps) => Guard::Any(ps.iter().map(|p| self.guard(p)).collect::<Option<_>>()?),
            _ => return None,
        })
    }
}

/// The guarded flip form of a move, when it has one.
pub(super) fn guarded_flips(lay: &Layout, ops: &[KOp], actions: &Actions) -> Option<GuardedFlips> {
    let (a, b) = lay.two_tiles()?;
    if !lay.slot_kind.is_empty() || lay.toggle_bit(0).is_none() {
        return None;
    }
    // Only moves with a guard: one without is a plain flip (`Flips`).
    if !ops.iter().any(|op| matches!(op, KOp::Check { .. })) {
        return None;
    }
    let params: Vec<(usize, usize)> = match actions {
        Actions::Cells => lay.board_cells.iter().map(|&p| (p as usize, 0)).collect(),
        Actions::Dirs(ds) => ds.iter().map(|&d| (0, d)).collect(),
    };
    let mut g = GuardedFlips {
        acts: vec![],
        tests: vec![],
        flips: vec![],
        packed: vec![],
    };
    for (i, &(p, d)) in params.iter().enumerate() {
        let i = match actions {
            Actions::Cells => i,
            Actions::Dirs(_) => d,
        };
        let mut tests: Vec<(u32, u32, u32)> = vec![];
        let mut flips: Vec<(u32, u32)> = vec![];
        let mut applies = true;
        for op in ops {
            match op {
                KOp::Check { cond, want } => {
                    let mut lits = vec![];
                    literals(cond, *want, &mut lits)?;
                    for lit in lits {
                        let (c, subject, want) = match lit {
                            Literal::Const(v) => {
                                applies &= v;
                                continue;
                            }
                            Literal::At(c, subject, want) => (c, subject, want),
                        };
                        match bit_test(lay, (a, b), c, p, d, subject) {
                            BitTest::Const(v) => applies &= v == want,
                            BitTest::Bit(w, bit, one) => {
                                // The bit as it is now: the state's, flipped by the
                                // toggles before this test.
                                let flipped = flips.iter().find(|f| f.0 == w).map_or(0, |f| f.1);
                                let v = (if one == want { bit } else { 0 }) ^ (flipped & bit);
                                match tests.iter_mut().find(|t| t.0 == w) {
                                    Some(t) if t.1 & bit != 0 => applies &= t.2 & bit == v,
                                    Some(t) => {
                                        t.1 |= bit;
                                        t.2 |= v;
                                    }
                                    None => tests.push((w, bit, v)),
                                }
                            }
                        }
                    }
                }
                KOp::Change {
                    from,
                    to,
                    toggle: true,
                    place: super::KPlace::At(c),
                } if [*from, *to].contains(&a.0) && [*from, *to].contains(&b.0) => {
                    let Some(q) = cell_of(lay, c, p, d) else {
                        continue;
                    };
                    if lay.ptile[q] == OFF || lay.pmut[q] == NONE {
                        continue;
                    }
                    let (w, bit) = lay.toggle_bit(lay.pmut[q] as usize)?;
                    match flips.iter_mut().find(|f| f.0 == w) {
                        Some(f) => f.1 ^= bit,
                        None => flips.push((w, bit)),
                    }
                }
                _ => return None,
            }
        }
        flips.retain(|f| f.1 != 0);
        // A result equal to the state it started from is not a move.
        if !applies || flips.is_empty() {
            continue;
        }
        if lay.words <= 2 {
            let wide = |w: u32, m: u32| (m as u64) << (32 * w);
            g.packed.push((
                tests.iter().fold(0, |a, t| a | wide(t.0, t.1)),
                tests.iter().fold(0, |a, t| a | wide(t.0, t.2)),
                flips.iter().fold(0, |a, f| a | wide(f.0, f.1)),
                i as u16,
            ));
        }
        g.tests.extend(tests);
        g.flips.extend(flips);
        g.acts
            .push((i as u16, g.tests.len() as u32, g.flips.len() as u32));
    }
    Some(g)
}

/// A tile or mark test on one cell, as the flip form reads it.
enum BitTest {
    /// The answer is the same in every state.
    Const(bool),
    /// (word, bit, whether the tile asked for is the one a set bit means).
    Bit(u32, u32, bool),
}

/// One condition of a flip move's guard: a constant, or what a cell must (or must not)
/// hold.
enum Literal {
    Const(bool),
    At(KCell, Subject, bool),
}

/// The conjunction `cond == want` as literals, when it is one (`require A and B`,
/// `forbid A or B`, `require not A`).
fn literals(cond: &KCond, want: bool, out: &mut Vec<Literal>) -> Option<()> {
    match cond {
        KCond::At {
            subject: subject @ (Subject::Tile(_) | Subject::Mark(_)),
            pose: None,
            of: None,
            cell,
            bind: None,
        } if matches!(cell.base, KBase::Param | KBase::Abs(_)) => {
            out.push(Literal::At(*cell, *subject, want))
        }
        KCond::Not(inner) => literals(inner, !want, out)?,
        KCond::And(ps) if want => {
            for p in ps {
                literals(p, true, out)?;
            }
        }
        KCond::Or(ps) if !want => {
            for p in ps {
                literals(p, false, out)?;
            }
        }
        KCond::Const(b) => out.push(Literal::Const(*b == want)),
        _ => return None,
    }
    Some(())
}

/// The padded cell `c` names for the action on cell `p` or direction `d`, as the general
/// run's `cell_at` finds it.
fn cell_of(lay: &Layout, c: &KCell, p: usize, d: usize) -> Option<usize> {
    let base = match c.base {
        KBase::Param => p,
        KBase::Abs(q) => q?,
        KBase::Var(_) | KBase::Loop(_) => return None,
    };
    let extra = lay.dir_delta.get(d).copied().unwrap_or(0) * c.mult as isize;
    let q = base as isize + c.fixed + extra;
    (q >= 0 && (q as usize) < lay.ptile.len()).then_some(q as usize)
}

/// How a test of `subject` at `c`, for the action on cell `p` or direction `d`, reads
/// the state whose changeable cells hold the tiles `a` (bit clear) or `b` (bit set).
fn bit_test(
    lay: &Layout,
    (a, b): (TileId, TileId),
    c: KCell,
    p: usize,
    d: usize,
    subject: Subject,
) -> BitTest {
    let Some(q) = cell_of(lay, &c, p, d) else {
        return BitTest::Const(false);
    };
    match subject {
        Subject::Mark(k) => BitTest::Const(lay.pmarks[q] >> k.0 & 1 == 1),
        Subject::Tile(t) => {
            let i = lay.pmut[q];
            if lay.ptile[q] == OFF || i == NONE {
                // A cell that never changes: its tile in any state.
                return BitTest::Const(lay.tile_at(&[], q) == Some(t));
            }
            match lay.toggle_bit(i as usize) {
                Some((w, bit)) if t == a || t == b => BitTest::Bit(w, bit, t == b),
                _ => BitTest::Const(false),
            }
        }
        Subject::Piece(_) => BitTest::Const(false),
    }
}

impl Expander<'_> {
    /// Whether `g` holds for the copy in `slot` (anchor `a`) moving in direction `d`, in
    /// the painted state `s`.
    #[inline(always)]
    fn guard_holds(&self, s: &[u32], g: &Guard, slot: usize, a: usize, d: usize) -> bool {
        match g {
            Guard::At { probe, fixed, mult } => {
                let p = a as isize + fixed + self.lay.dir_delta[d] * *mult as isize;
                self.probe_holds(s, probe, p, slot)
            }
            _ => self.compound_holds(s, g, slot, a, d),
        }
    }

    /// [`Expander::guard_holds`] for guards that combine others.
    #[inline(never)]
    fn compound_holds(&self, s: &[u32], g: &Guard, slot: usize, a: usize, d: usize) -> bool {
        match g {
            Guard::At { .. } => self.guard_holds(s, g, slot, a, d),
            Guard::Const(b) => *b,
            Guard::Not(inner) => !self.guard_holds(s, inner, slot, a, d),
            Guard::All(gs) => gs.iter().all(|g| self.guard_holds(s, g, slot, a, d)),
            Guard::Any(gs) => gs.iter().any(|g| self.guard_holds(s, g, slot, a, d)),
        }
    }

    /// Whether `probe` finds what it looks for at padded cell `p` (as a number, maybe
    /// off the padded grid), for the copy in `slot`.
    #[inline(always)]
    fn probe_holds(&self, s: &[u32], probe: &Probe, p: isize, slot: usize) -> bool {
        let lay = &self.lay;
        if p < 0 || p as usize >= lay.ptile.len() {
            return false;
        }
        let p = p as usize;
        match *probe {
            Probe::Tile(t) => lay.tile_at(s, p) == Some(t),
            Probe::Mark(k) => lay.pmarks[p] >> k & 1 == 1,
            Probe::Piece { kind, pose, other } => {
                let now = (self.sc.paints as u64) << 32;
                let o = self.sc.occ[p];
                if o < now || lay.ptile[p] == OFF {
                    return false;
                }
                let found = (o & 0xffff_ffff) as usize - 1;
                lay.slot_kind[found] as usize == kind
                    && !(other && found == slot)
                    && pose.is_none_or(|q| lay.anchor(s, found).1 == q)
            }
        }
    }

    /// The successors of the painted state `s` by the guarded local move `g` (move `mv`,
    /// directions `dirs`), in action order; `run` is the kind's sorted run of copies.
    pub(in crate::engine) fn guarded_successors(
        &self,
        s: &[u32],
        g: &GuardedLocal,
        mv: MoveId,
        dirs: &[usize],
        out: &mut Successors,
    ) {
        let lay = &self.lay;
        let k = g.kind;
        let run = (g.count > 1 && self.model.pieces[k].anonymous).then_some((g.slot, g.count));
        let bits = lay.slots[k].bits;
        let mask = (1u32 << bits) - 1;
        let nd = lay.dir_delta.len();
        out.work += (g.count * dirs.len()) as u64 / 16;
        let now = (self.sc.paints as u64) << 32;
        for &d in dirs {
            for slot in g.slot..g.slot + g.count {
                let w = s[slot];
                if w == ABSENT {
                    continue;
                }
                let a = (w >> bits) as usize;
                let mut at = 0usize;
                let step = loop {
                    match &g.nodes[at] {
                        Node::Require { guard, want, next } => {
                            if self.guard_holds(s, guard, slot, a, d) != *want {
                                break None;
                            }
                            at = *next as usize;
                        }
                        Node::Branch { guard, then, els } => {
                            at = if self.guard_holds(s, guard, slot, a, d) {
                                *then
                            } else {
                                *els
                            } as usize;
                        }
                        Node::Step(i) => break Some(*i as usize),
                        Node::Stop => break None,
                    }
                };
                let Some(step) = step else {
                    continue;
                };
                let Some((np, v)) = g.steps[step][(w & mask) as usize * nd + d] else {
                    continue;
                };
                let to = a as isize + v;
                if to <= 0 || to as usize >= lay.ptile.len() || lay.ptile[to as usize] == OFF {
                    continue;
                }
                let nw = (to as u32) << bits | np;
                let f = self.flags[k].get(nw as usize).copied().unwrap_or(0);
                if f & (LEGAL | LIVE) == 0 || nw == w {
                    continue;
                }
                // Another copy on a cell the moved one covers (the painted state).
                let me = now | (slot as u64 + 1);
                let blocked = |dl: &isize| {
                    let o = self.sc.occ[(to + dl) as usize];
                    o >= now && o != me
                };
                if lay.foot[k][np as usize].iter().any(blocked) {
                    continue;
                }
                let action = Action::new(mv, DirId(d as u16));
                self.push_moved(s, slot, nw, f & LIVE != 0, run, action, out);
            }
        }
    }

    /// The successors of `s` by the guarded flip move `g` (move `mv`), in action order.
    #[inline]
    pub(in crate::engine) fn flip_successors(
        &self,
        s: &[u32],
        g: &GuardedFlips,
        mv: MoveId,
        out: &mut Successors,
    ) {
        if let [w0, rest @ ..] = s {
            if rest.len() <= 1 && !g.packed.is_empty() {
                let x = *w0 as u64 | (rest.first().copied().unwrap_or(0) as u64) << 32;
                for &(mask, want, flip, i) in &g.packed {
                    if x & mask == want {
                        let y = x ^ flip;
                        out.states.push(y as u32);
                        if !rest.is_empty() {
                            out.states.push((y >> 32) as u32);
                        }
                        out.actions.push(Action::new(mv, DirId(i)));
                    }
                }
                return;
            }
        }
        let (mut t0, mut f0) = (0usize, 0usize);
        for &(i, te, fe) in &g.acts {
            let (te, fe) = (te as usize, fe as usize);
            if g.tests[t0..te]
                .iter()
                .all(|&(w, m, v)| s[w as usize] & m == v)
            {
                let at = out.states.len();
                out.states.extend_from_slice(s);
                for &(w, bit) in &g.flips[f0..fe] {
                    out.states[at + w as usize] ^= bit;
                }
                out.actions.push(Action::new(mv, DirId(i)));
            }
            t0 = te;
            f0 = fe;
        }
    }
}

#[cfg(test)]
impl Expander<'_> {
    /// How many moves have a guarded local form and a guarded flip form.
    pub(crate) fn guarded_forms(&self) -> (usize, usize) {
        let local = self.prog.guarded.iter().flatten().count();
        (local, self.prog.guarded_flips.iter().flatten().count())
    }

    /// Drops the guarded forms, so every move runs its general program: what the forms
    /// are compared with.
    pub(crate) fn without_guarded_forms(&mut self) {
        self.prog.guarded.iter_mut().for_each(|g| *g = None);
        self.prog.guarded_flips.iter_mut().for_each(|g| *g = None);
    }
}
