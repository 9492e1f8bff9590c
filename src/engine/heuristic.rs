//! Bounds derived from the rules, for A* and for dead-position pruning: for every piece
//! kind the goal constrains, the first cost component a copy needs to reach a goal place
//! when it moves alone, found by a backward search over its own places.
//!
//! **The relaxation.** A copy moves alone: every other piece and test is ignored, except
//! that the pieces a move requires are kept at their offsets. In a straight-line program
//! (tests, one-step shifts and turns), `require box at man + d` followed by `shift box d`
//! puts the man at `box - d` when the box is the one that moves; the man's places before
//! and after the move must then pass the static `forbid` rules, as the real move's must.
//! That is what makes a box in a corner dead in Sokoban, derived from the rules alone.
//! Programs with slides, swaps or anything else fall back to the plain relaxation
//! ([`Expander::relax_op`]): the copy alone, every other piece ignored.
//!
//! **Distances.** A relaxed step by move `m` weighs what `m` adds to the first cost
//! component (0 or 1); `dist[w]` is the lightest relaxed path from place `w` to a goal
//! place (0-1 breadth-first search backwards). For every relaxed step `w -> w'` by `m`,
//! `dist[w] <= c0(m) + dist[w']`.
//!
//! **Bounds per kind**, each admissible (0 on goal states, never above the first
//! component still to pay) and consistent (a move changes it by at most what it adds to
//! the first component, `h(u) <= c0(m) + h(v)`):
//! - *max* over the copies of `dist`: a real move takes each copy along at most one
//!   relaxed step of that move, so each term, hence the maximum, drops by at most `c0(m)`.
//! - *sum* over the copies, when no move can change two copies of the kind (programs
//!   with no swap; in plain programs every op on the kind acts on the one bound copy):
//!   one term changes per move, by at most `c0(m)`. Every copy must reach a goal place on
//!   its own, and the costs of different copies' steps are paid by different moves.
//! - *matching*: the cheapest assignment of copies to distinct goal cells, when the sum
//!   applies and every pose covers just its anchor cell (copies never overlap, so a goal
//!   state puts them on distinct cells). Admissible: a solution assigns each copy the
//!   cell it ends on, and pays at least each copy's distance to that cell. Consistent:
//!   the assignment optimal after a move, applied before it, costs at most `c0(m)` more
//!   (one copy moved one relaxed step), so `h(u) <= h(v) + c0(m)`.
//!
//! Several constrained kinds combine by the maximum, which keeps both properties.
//!
//! **Dead positions.** A state where some copy's `dist` is infinite can never reach a
//! goal: solve searches drop such states ([`Expander::retain_live`]). So is a state with
//! a *frozen* copy off the goal, for kinds whose moves never change two copies and whose
//! poses cover just their anchor: each relaxed step with offsets needs some cells free of
//! other copies (where the copy lands, where each required piece stands before and after
//! the move); the frozen copies are the greatest set in which every step of every copy
//! needs a cell holding another copy of the set (steps of programs relaxed without
//! offsets never count as blocked). No copy of the set can move first, since its move
//! would be one of its relaxed steps with a needed cell taken, so none ever moves again:
//! in Sokoban, two boxes side by side against a wall, or a 2x2 block of boxes.

use std::cell::RefCell;
use std::collections::VecDeque;

use super::budget::{Budget, Pacer, UNREACHABLE};
use super::expander::{Expander, PrepareError};
use super::interpreter::Successors;
use super::layout::OFF;
use super::legality::{GOAL, LEGAL};
use super::program::KOp;
use crate::compile::{Subject, TileId};

/// How the copies of one kind combine into a bound.
enum Combine {
    /// The largest distance of any copy.
    Max,
    /// The sum of the copies' distances.
    Sum,
    /// The cheapest assignment of copies to distinct goal cells: per goal cell, the
    /// distance of every place to it.
    Matching(Vec<Vec<u32>>),
}

/// The bound of one constrained kind.
struct KindBound {
    /// Its slots in the state.
    slots: std::ops::Range<usize>,
    /// Per place word: the relaxed first-component distance to a goal place.
    dist: Vec<u32>,
    combine: Combine,
    /// The relaxed steps with the cells each needs, for the frozen-copy test.
    freeze: Option<Freeze>,
}

/// The largest relaxation (places times actions) derived only for pruning.
const MAX_PRUNING_WORK: usize = 1 << 22;

/// Most cells a relaxed step may need free for the frozen-copy test (a step needing more
/// counts as never blocked).
const MAX_NEEDS: usize = 6;

/// The relaxed steps of one kind, for the frozen-copy test (see the module header).
struct Freeze {
    /// Pose bits of the kind's words.
    bits: u32,
    /// Per place word: the range of `needs` holding its steps.
    at: Vec<(u32, u32)>,
    /// Per step: the padded cells it needs free of other copies.
    needs: Vec<([u32; MAX_NEEDS], u8)>,
    /// Per place word: some step from it can never be blocked (a program relaxed without
    /// offsets, or one needing too many cells).
    free: Vec<bool>,
    /// Per place word: its flags' GOAL bit.
    goal: Vec<bool>,
}

/// A relaxed step with offsets: the place reached and the cells it needs free of other
/// copies of the moving kind (`None`: too many to list).
type Step = ((usize, usize), Option<([u32; MAX_NEEDS], u8)>);

/// The bounds of a level (see the module header).
pub(crate) struct Bounds {
    kinds: Vec<KindBound>,
    /// Scratch for the assignment problem.
    scratch: RefCell<Hungarian>,
    /// Scratch for the frozen-copy test: per padded cell, the copy on it (`u16::MAX`).
    occ: RefCell<Vec<u16>>,
}

/// What a piece kind other than the relaxed one is known to be, inside one relaxed move.
#[derive(Clone, Copy, Default)]
struct Other {
    /// Its anchor now, when a test fixed it relative to the relaxed copy.
    at: Option<isize>,
    /// Its anchor before the move, when known.
    init: Option<isize>,
    /// It moved before its place was known (its place before the move is unknown).
    shifted: bool,
}

impl Expander<'_> {
    /// Whether the rules let `Expander::prepare_heuristic` derive bounds (on any level
    /// whose tiles stay put): plain mechanics, tiles that never change, a goal about
    /// pieces. The solver's automatic choice reads it once per model.
    pub fn bounds_derive(model: &crate::compile::Model) -> bool {
        model.basic() && model.static_tiles() && !model.goal.is_empty()
    }

    /// The bound on the first cost component still to pay from `s` (0 until
    /// [`Expander::prepare_heuristic`]; [`UNREACHABLE`] when no goal can be reached).
    #[inline]
    pub(crate) fn estimate(&self, s: &[u32]) -> u32 {
        let Some(b) = &self.heuristic else { return 0 };
        let mut best = 0;
        for kb in &b.kinds {
            let words = &s[kb.slots.clone()];
            let v = match &kb.combine {
                Combine::Max => words
                    .iter()
                    .map(|&w| kb.dist[w as usize])
                    .max()
                    .unwrap_or(0),
                Combine::Sum => words
                    .iter()
                    .try_fold(0u32, |acc, &w| {
                        let d = kb.dist[w as usize];
                        (d != UNREACHABLE).then(|| acc.saturating_add(d).min(UNREACHABLE - 1))
                    })
                    .unwrap_or(UNREACHABLE),
                Combine::Matching(targets) => {
                    if words.iter().any(|&w| kb.dist[w as usize] == UNREACHABLE) {
                        UNREACHABLE
                    } else {
                        b.scratch.borrow_mut().solve(words, targets)
                    }
                }
            };
            best = best.max(v);
            if best == UNREACHABLE {
                return UNREACHABLE;
            }
        }
        best
    }

    /// [`Expander::estimate`] of `to`, a successor of `from` whose estimate is `h_from`:
    /// when the move left every constrained copy in place, the bound is unchanged.
    #[inline]
    pub(crate) fn estimate_next(&self, from: &[u32], h_from: u32, to: &[u32]) -> u32 {
        let Some(b) = &self.heuristic else { return 0 };
        if b.kinds.iter().all(|kb| same_words(from, to, &kb.slots)) {
            h_from
        } else {
            self.estimate(to)
        }
    }

    /// Whether some constrained copy in `s` can reach no goal place even in the
    /// relaxation: then no goal can be reached from `s`.
    #[inline]
    pub(crate) fn dead(&self, s: &[u32]) -> bool {
        let Some(b) = &self.heuristic else {
            return false;
        };
        b.kinds.iter().any(|kb| {
            let words = &s[kb.slots.clone()];
            words.iter().any(|&w| kb.dist[w as usize] == UNREACHABLE)
                || kb
                    .freeze
                    .as_ref()
                    .is_some_and(|f| f.frozen_off_goal(words, &b.occ))
        })
    }

    /// The pruning hook of solve searches: drops the successors of `from` that are
    /// [dead] or hold a frozen copy off the goal (see the module header), when
    /// [`Expander::prepare_pruning`] turned pruning on. Successors whose constrained
    /// copies stand where they stood in `from` are kept unchecked: `from` was checked
    /// when it was generated, unless it is the start, checked once when pruning began
    /// (a dead start keeps nothing).
    ///
    /// [dead]: Expander::dead
    #[inline]
    pub(crate) fn retain_live(&self, from: &[u32], out: &mut Successors) {
        if !self.prune {
            return;
        }
        if self.dead_start {
            out.actions.clear();
            out.states.clear();
            return;
        }
        let Some(b) = &self.heuristic else { return };
        let words = self.words;
        let mut kept = 0;
        for i in 0..out.len() {
            let s = out.state(i, words);
            let same = b.kinds.iter().all(|kb| same_words(from, s, &kb.slots));
            if !same && self.dead(s) {
                continue;
            }
            if kept != i {
                out.actions[kept] = out.actions[i];
                out.states
                    .copy_within(i * words..(i + 1) * words, kept * words);
            }
            kept += 1;
        }
        out.actions.truncate(kept);
        out.states.truncate(kept * words);
    }

    /// Turns on dead-position pruning for a solve search (never for `analyze` or `graph`,
    /// which count every state): derives the bounds when the rules allow it. `Ok(false)`
    /// when they do not (nothing is pruned); cut off when `budget` runs out.
    pub(crate) fn prepare_pruning(&mut self, budget: &Budget) -> Result<bool, PrepareError> {
        // One piece alone: the search itself is its relaxation, nothing to gain. A
        // relaxation larger than a small search is not worth its setup either.
        let work = self.flags.iter().map(Vec::len).sum::<usize>()
            * self.prog.runs.moves.len()
            * self.lay.dir_delta.len();
        if self.lay.slot_kind.len() < 2 || work > MAX_PRUNING_WORK {
            return Ok(false);
        }
        if self.heuristic.is_none() {
            match self.prepare_heuristic(budget) {
                Ok(()) => {}
                Err(PrepareError::Refused(_)) => return Ok(false),
                Err(e) => return Err(e),
            }
        }
        self.prune = true;
        self.dead_start = self.dead(&self.start());
        Ok(true)
    }

    /// Derives the bounds of the module header from the rules. Refused when tiles change
    /// in play (the relaxation would not bound the real moves), when the rules go beyond
    /// the plain mechanics, or when the goal constrains no piece; cut off when `budget`'s
    /// time or memory runs out.
    pub(crate) fn prepare_heuristic(&mut self, budget: &Budget) -> Result<(), PrepareError> {
        if self.lay.mutable_count > 0 {
            return Err(PrepareError::Refused(
                "tiles change during play, so a piece's own distance is no bound".into(),
            ));
        }
        if !self.model.basic() {
            return Err(PrepareError::Refused(
                "the rules use counters, removals, conditions or goals beyond `piece on place`, which the relaxation does not bound".into(),
            ));
        }
        if self.goal_slots.is_empty() {
            return Err(PrepareError::Refused("the goal constrains no piece".into()));
        }
        let mut pacer = Pacer::default();
        // Per move: what it adds to the first cost component.
        let weight: Vec<u32> = self
            .model
            .moves
            .iter()
            .map(|m| m.adds.first().map_or(1, |&a| u32::from(a > 0)))
            .collect();
        let no_swap = self.prog.runs.moves.iter().all(|ops| {
            ops.iter()
                .all(|op| !matches!(op, KOp::Swap { .. } | KOp::If { .. } | KOp::ForCells { .. }))
        });
        let mut kinds = vec![];
        for k in 0..self.model.pieces.len() {
            if !self.goal_slots.iter().any(|&(_, kk)| kk == k) {
                continue;
            }
            let (edges, steps) = self.relaxed_edges(k, &weight, budget, &mut pacer)?;
            let flags = &self.flags[k];
            let goals: Vec<u32> = (0..flags.len() as u32)
                .filter(|&w| flags[w as usize] & (LEGAL | GOAL) == LEGAL | GOAL)
                .collect();
            let mut dist = backward(&edges, flags.len(), &goals);
            if flags.first().is_some_and(|&f| f & GOAL != 0) {
                dist[0] = 0; // an absent copy of an anonymous kind meets its goal
            }
            pacer.tick(edges.len() as u64, budget)?;
            let sl = &self.lay.slots[k];
            let bits = sl.bits;
            let one_cell = self.lay.foot[k].iter().all(|f| f.as_slice() == [0]);
            let combine = if !no_swap || sl.count == 1 {
                Combine::Max
            } else if one_cell {
                let mut cells: Vec<u32> = goals.iter().map(|&w| w >> bits).collect();
                cells.dedup();
                budget.room_for((cells.len() * flags.len() * 4) as u64)?;
                let mut targets = vec![];
                for c in cells {
                    let at: Vec<u32> = goals.iter().copied().filter(|&w| w >> bits == c).collect();
                    targets.push(backward(&edges, flags.len(), &at));
                    pacer.tick(edges.len() as u64, budget)?;
                }
                Combine::Matching(targets)
            } else {
                Combine::Sum
            };
            let freeze = (no_swap && one_cell && sl.count > 1).then(|| {
                let n = flags.len();
                let mut at = vec![(0u32, 0u32); n];
                let mut needs = vec![];
                let mut free = vec![false; n];
                for (w, list) in steps.into_iter().enumerate() {
                    let from = needs.len() as u32;
                    for need in list {
                        match need {
                            Some(cells) => needs.push(cells),
                            None => free[w] = true,
                        }
                    }
                    at[w] = (from, needs.len() as u32);
                }
                Freeze {
                    bits,
                    at,
                    needs,
                    free,
                    goal: flags.iter().map(|&f| f & GOAL != 0).collect(),
                }
            });
            kinds.push(KindBound {
                slots: sl.start..sl.start + sl.count,
                dist,
                combine,
                freeze,
            });
        }
        let cells = self.lay.ptile.len();
        budget.room_for(cells as u64 * 2)?;
        self.heuristic = Some(Bounds {
            kinds,
            scratch: RefCell::new(Hungarian::default()),
            occ: RefCell::new(vec![u16::MAX; cells]),
        });
        Ok(())
    }

    /// The relaxed steps of kind `k` as `(to, from, weight)`, sorted by `to`; and per
    /// place word, the cells each step from it needs free of other copies (`None`: a
    /// step relaxed without offsets, never blocked).
    #[allow(clippy::type_complexity)]
    fn relaxed_edges(
        &self,
        k: usize,
        weight: &[u32],
        budget: &Budget,
        pacer: &mut Pacer,
    ) -> Result<
        (
            Vec<(u32, u32, u32)>,
            Vec<Vec<Option<([u32; MAX_NEEDS], u8)>>>,
        ),
        PrepareError,
    > {
        let nd = self.lay.dir_delta.len();
        let flags = &self.flags[k];
        let n = flags.len();
        let bits = self.lay.slots[k].bits;
        budget.room_for(n as u64 * 4)?;
        let mut edges = vec![];
        let mut steps = vec![vec![]; n];
        let mut cands: Vec<(usize, usize)> = vec![];
        let mut next: Vec<(usize, usize)> = vec![];
        for w in 0..n {
            if flags[w] & LEGAL == 0 {
                continue;
            }
            let mut work = 0;
            let place = (w >> bits, w & ((1 << bits) - 1));
            for (mi, ops) in self.prog.runs.moves.iter().enumerate() {
                // A move with a direction subset relaxes in those directions only.
                let all: Vec<usize>;
                let dirs: &[usize] = match &self.prog.runs.actions[mi] {
                    super::program::Actions::Dirs(ds) => ds,
                    super::program::Actions::Cells => {
                        all = (0..nd).collect();
                        &all
                    }
                };
                for &d in dirs {
                    work += ops.len() as u64;
                    cands.clear();
                    let mut need = None;
                    match self.relax_with_offsets(k, ops, place, d) {
                        Some(to) => {
                            if let Some((to, cells)) = to {
                                cands.push(to);
                                need = cells;
                            }
                        }
                        None => {
                            cands.push(place);
                            for op in ops {
                                next.clear();
                                for &at in &cands {
                                    self.relax_op(k, op, at, d, &mut next, &mut work);
                                }
                                std::mem::swap(&mut cands, &mut next);
                            }
                        }
                    }
                    for &(a, p) in &cands {
                        let to = a << bits | p;
                        if to != w && to < n && flags[to] & LEGAL != 0 {
                            edges.push((to as u32, w as u32, weight[mi]));
                            steps[w].push(need);
                        }
                    }
                }
            }
            pacer.tick(work, budget)?;
        }
        edges.sort_unstable();
        edges.dedup();
        Ok((edges, steps))
    }

    /// Where the copy of kind `k` at `(a, pose)` is after the straight-line program
    /// `ops` in direction `d` when it is the copy the program moves, keeping every piece
    /// a test fixes relative to it at that offset: empty when the program cannot move it
    /// (a test fails, a required piece would stand on a forbidden place before or after
    /// the move). `None` when the program holds more than tests, one-step shifts and
    /// turns: then the caller relaxes it without offsets.
    fn relax_with_offsets(
        &self,
        k: usize,
        ops: &[KOp],
        (a, pose): (usize, usize),
        d: usize,
    ) -> Option<Option<Step>> {
        let lay = &self.lay;
        let nd = lay.dir_delta.len();
        let len = lay.ptile.len() as isize;
        let on_board = |p: isize| p >= 0 && p < len && lay.ptile[p as usize] != OFF;
        let (mut x, mut xp) = (a as isize, pose);
        let mut moved = false;
        let mut others = vec![Other::default(); self.model.pieces.len()];
        let one_cell = |kind: usize| lay.foot[kind].iter().all(|f| f.as_slice() == [0]);
        let fix = |o: &mut Other, at: isize| {
            o.at = Some(at);
            if !o.shifted {
                o.init = Some(at);
            }
        };
        for op in ops {
            match op {
                KOp::Test {
                    subject,
                    kind,
                    delta,
                    want,
                } => {
                    let b = *kind;
                    let base = if b == k { Some(x) } else { others[b].at };
                    let dv = delta.map_or(0, |dl| lay.resolve(dl, d));
                    match *subject {
                        Subject::Piece(p) if p.index() == k => match base {
                            Some(ba) => {
                                let covers = lay.foot[k][xp].iter().any(|&f| x + f == ba + dv);
                                if covers != *want {
                                    return Some(None);
                                }
                            }
                            None if *want => {
                                if let [f] = lay.foot[k][xp].as_slice() {
                                    fix(&mut others[b], x + f - dv);
                                }
                            }
                            None => {}
                        },
                        Subject::Piece(p) if *want && one_cell(p.index()) => {
                            let p = p.index();
                            match (base, others[p].at) {
                                (Some(ba), None) => fix(&mut others[p], ba + dv),
                                (None, Some(pa)) => fix(&mut others[b], pa - dv),
                                (Some(ba), Some(pa)) if ba + dv != pa => return Some(None),
                                _ => {}
                            }
                        }
                        Subject::Piece(_) => {}
                        Subject::Tile(t) => {
                            if let Some(ba) = base {
                                let p = ba + dv;
                                if p >= 0 && p < len {
                                    let here = match lay.ptile[p as usize] {
                                        OFF => lay.outside(),
                                        t => Some(TileId(t)),
                                    };
                                    if (here == Some(t)) != *want {
                                        return Some(None);
                                    }
                                }
                            }
                        }
                        Subject::Mark(m) => {
                            if let Some(ba) = base {
                                let p = ba + dv;
                                if p >= 0 && p < len {
                                    let on = lay.pmarks[p as usize] >> m.0 & 1 == 1;
                                    if on != *want {
                                        return Some(None);
                                    }
                                }
                            }
                        }
                    }
                }
                KOp::Shift {
                    var,
                    kind,
                    delta,
                    each,
                    ..
                } => {
                    if *each || var != kind {
                        return None;
                    }
                    let v = lay.resolve(*delta, d);
                    if *kind == k {
                        x += v;
                        moved = true;
                        if !on_board(x) {
                            return Some(None);
                        }
                    } else {
                        let o = &mut others[*kind];
                        match o.at {
                            Some(at) => o.at = Some(at + v),
                            None => o.shifted = true,
                        }
                    }
                }
                KOp::Turn {
                    var, kind, table, ..
                } => {
                    if var != kind {
                        return None;
                    }
                    if *kind == k {
                        let Some((np, v)) = table[xp * nd + d] else {
                            return Some(None);
                        };
                        x += v;
                        xp = np as usize;
                        moved = true;
                        if !on_board(x) {
                            return Some(None);
                        }
                    } else {
                        others[*kind] = Other {
                            at: None,
                            init: None,
                            shifted: true,
                        };
                    }
                }
                _ => return None,
            }
        }
        if !moved {
            return Some(None);
        }
        for (kind, o) in others.iter().enumerate() {
            for at in [o.init, o.at].into_iter().flatten() {
                if !self.legal_somewhere(kind, at) {
                    return Some(None);
                }
            }
        }
        // The cells other copies must leave free: where the copy lands (not where it
        // stood) and where every required one-cell piece stands before and after.
        let mut cells = vec![];
        if x != a as isize {
            cells.push(x);
        }
        for (kind, o) in others.iter().enumerate() {
            if one_cell(kind) {
                cells.extend(
                    [o.init, o.at]
                        .into_iter()
                        .flatten()
                        .filter(|&c| c != a as isize),
                );
            }
        }
        cells.sort_unstable();
        cells.dedup();
        let need = (cells.len() <= MAX_NEEDS).then(|| {
            let mut out = [0u32; MAX_NEEDS];
            for (o, &c) in out.iter_mut().zip(&cells) {
                *o = c as u32;
            }
            (out, cells.len() as u8)
        });
        Some(Some(((x as usize, xp), need)))
    }

    /// Whether some pose of `kind` may stand with its anchor at padded cell `at`.
    fn legal_somewhere(&self, kind: usize, at: isize) -> bool {
        let flags = &self.flags[kind];
        let bits = self.lay.slots[kind].bits;
        let poses = self.lay.foot[kind].len();
        at >= 0
            && (0..poses).any(|p| {
                flags
                    .get((at as usize) << bits | p)
                    .is_some_and(|f| f & LEGAL != 0)
            })
    }
}

impl Freeze {
    /// Whether some copy (`words`, 0 = absent) is frozen off the goal (see the module
    /// header): the greatest set of copies each of whose steps needs a cell held by
    /// another copy of the set, found by releasing copies until none can be.
    fn frozen_off_goal(&self, words: &[u32], occ: &RefCell<Vec<u16>>) -> bool {
        let mut occ = occ.borrow_mut();
        let n = words.len().min(u16::MAX as usize);
        let mut frozen = [false; 64];
        if n > frozen.len() {
            return false;
        }
        for (i, &w) in words[..n].iter().enumerate() {
            if w != 0 {
                occ[(w >> self.bits) as usize] = i as u16;
                frozen[i] = !self.free[w as usize];
            }
        }
        let mut changed = true;
        while changed {
            changed = false;
            for i in 0..n {
                if !frozen[i] {
                    continue;
                }
                let (from, to) = self.at[words[i] as usize];
                let moves = self.needs[from as usize..to as usize]
                    .iter()
                    .any(|(cells, len)| {
                        !cells[..*len as usize].iter().any(|&c| {
                            let j = occ[c as usize];
                            j != u16::MAX && j as usize != i && frozen[j as usize]
                        })
                    });
                if moves {
                    frozen[i] = false;
                    changed = true;
                }
            }
        }
        let dead = (0..n).any(|i| frozen[i] && !self.goal[words[i] as usize]);
        for &w in &words[..n] {
            if w != 0 {
                occ[(w >> self.bits) as usize] = u16::MAX;
            }
        }
        dead
    }
}

/// Whether `a` and `b` agree on the words of `slots` (a plain loop: these slices are a
/// few words, where a call to `memcmp` costs more than the comparison).
#[inline(always)]
fn same_words(a: &[u32], b: &[u32], slots: &std::ops::Range<usize>) -> bool {
    a[slots.clone()]
        .iter()
        .zip(&b[slots.clone()])
        .all(|(x, y)| x == y)
}

/// The lightest relaxed path from every place to one of `goals` (0-1 breadth-first
/// search over the edges reversed; `edges` are `(to, from, weight)`, sorted by `to`).
fn backward(edges: &[(u32, u32, u32)], n: usize, goals: &[u32]) -> Vec<u32> {
    let mut dist = vec![UNREACHABLE; n];
    let mut queue: VecDeque<u32> = VecDeque::new();
    for &g in goals {
        dist[g as usize] = 0;
        queue.push_back(g);
    }
    while let Some(w) = queue.pop_front() {
        let dw = dist[w as usize];
        let from = edges.partition_point(|e| e.0 < w);
        for &(_, p, c) in edges[from..].iter().take_while(|e| e.0 == w) {
            if dw + c < dist[p as usize] {
                dist[p as usize] = dw + c;
                if c == 0 {
                    queue.push_front(p);
                } else {
                    queue.push_back(p);
                }
            }
        }
    }
    dist
}

/// The cheapest assignment of copies to distinct goal cells (the Hungarian method with
/// potentials, O(copies² · cells)), with its buffers kept between calls.
#[derive(Default)]
struct Hungarian {
    u: Vec<i64>,
    v: Vec<i64>,
    p: Vec<usize>,
    way: Vec<usize>,
    minv: Vec<i64>,
    used: Vec<bool>,
}

/// A cost standing for "unreachable" inside the assignment: larger than any real sum.
const FAR: i64 = 1 << 40;

impl Hungarian {
    /// The cheapest cost of assigning every present copy (`words`, 0 = absent) to a
    /// distinct cell of `targets` (per cell, the distance of every place to it);
    /// [`UNREACHABLE`] when no assignment avoids an infinite distance.
    fn solve(&mut self, words: &[u32], targets: &[Vec<u32>]) -> u32 {
        let rows: Vec<u32> = words.iter().copied().filter(|&w| w != 0).collect();
        let (n, m) = (rows.len(), targets.len());
        if n == 0 {
            return 0;
        }
        if n > m {
            return UNREACHABLE;
        }
        let cost = |i: usize, j: usize| -> i64 {
            let d = targets[j - 1][rows[i - 1] as usize];
            if d == UNREACHABLE {
                FAR
            } else {
                d as i64
            }
        };
        self.u.clear();
        self.u.resize(n + 1, 0);
        self.v.clear();
        self.v.resize(m + 1, 0);
        self.p.clear();
        self.p.resize(m + 1, 0);
        self.way.clear();
        self.way.resize(m + 1, 0);
        for i in 1..=n {
            self.p[0] = i;
            let mut j0 = 0;
            self.minv.clear();
            self.minv.resize(m + 1, i64::MAX);
            self.used.clear();
            self.used.resize(m + 1, false);
            loop {
                self.used[j0] = true;
                let i0 = self.p[j0];
                let mut delta = i64::MAX;
                let mut j1 = 0;
                for j in 1..=m {
                    if self.used[j] {
                        continue;
                    }
                    let cur = cost(i0, j) - self.u[i0] - self.v[j];
                    if cur < self.minv[j] {
                        self.minv[j] = cur;
                        self.way[j] = j0;
                    }
                    if self.minv[j] < delta {
                        delta = self.minv[j];
                        j1 = j;
                    }
                }
                for j in 0..=m {
                    if self.used[j] {
                        self.u[self.p[j]] += delta;
                        self.v[j] -= delta;
                    } else {
                        self.minv[j] -= delta;
                    }
                }
                j0 = j1;
                if self.p[j0] == 0 {
                    break;
                }
            }
            loop {
                let j1 = self.way[j0];
                self.p[j0] = self.p[j1];
                j0 = j1;
                if j0 == 0 {
                    break;
                }
            }
        }
        let total: i64 = (1..=m)
            .filter(|&j| self.p[j] != 0)
            .map(|j| cost(self.p[j], j))
            .sum();
        if total >= FAR {
            UNREACHABLE
        } else {
            total.min(UNREACHABLE as i64 - 1) as u32
        }
    }
}
