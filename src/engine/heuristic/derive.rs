//! Deriving the bounds from the rules ([`Expander::prepare_heuristic`]): every kind's
//! relaxed steps, with the pieces a move requires kept at their offsets where the program
//! allows it, and the backward 0-1 search from the goal places that gives each place its
//! distance.

use std::cell::RefCell;
use std::collections::VecDeque;

use super::super::budget::{Budget, Pacer, UNREACHABLE};
use super::super::expander::{Expander, PrepareError};
use super::super::layout::OFF;
use super::super::legality::{GOAL, LEGAL};
use super::super::program::KOp;
use super::{Bounds, Combine, Freeze, Hungarian, KindBound, Other, Step, MAX_NEEDS};
use crate::compile::{Subject, TileId};

impl Expander<'_> {
    /// Derives the bounds of the module header from the rules. Refused when tiles change
    /// in play (the relaxation would not bound the real moves), when the rules go beyond
    /// the plain mechanics, or when the goal constrains no piece; cut off when `budget`'s
    /// time or memory runs out.
    pub fn prepare_heuristic(&mut self, budget: &Budget) -> Result<(), PrepareError> {
        // The goal's counts bound whatever the rules do (`goalform.rs`); the pieces'
        // own distances need the plain mechanics on tiles that stay put.
        let form = self.goal_form();
        let relaxed = if self.lay.mutable_count > 0 {
            Err("tiles change during play, so a piece's own distance is no bound")
        } else if !self.model.basic() {
            Err("the rules use counters, removals, conditions or goals beyond `piece on place`, which the relaxation does not bound")
        } else {
            Ok(())
        };
        let nk = self.model.pieces.len();
        if let Err(why) = relaxed {
            if form.is_none() {
                return Err(PrepareError::Refused(format!(
                    "{why}, and the goal counts nothing a move changes"
                )));
            }
            let cells = self.lay.ptile.len();
            budget.room_for(cells as u64 * 2)?;
            self.heuristic = Some(Bounds {
                kinds: vec![],
                patterns: None,
                push: None,
                paid: RefCell::default(),
                scratch: RefCell::new(Hungarian::default()),
                occ: RefCell::new(vec![u16::MAX; cells]),
                constrained: vec![false; nk],
                summed: vec![false; nk],
                form,
            });
            return Ok(());
        }
        // The kinds the goal constrains: those a goal condition names, and with a goal
        // picture every kind the level places (the picture draws where each must be).
        let named: Vec<bool> = (0..nk)
            .map(|k| self.goal_slots.iter().any(|&(_, kk)| kk == k))
            .collect();
        let constrained: Vec<bool> = (0..nk)
            .map(|k| named[k] || (self.picture.is_some() && self.lay.slots[k].count > 0))
            .collect();
        if !constrained.iter().any(|&c| c) && form.is_none() {
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
        let summed = self.additive_kinds(&constrained);
        let mut kinds = vec![];
        for k in 0..nk {
            if !constrained[k] {
                continue;
            }
            let (edges, steps) = self.relaxed_edges(k, &weight, budget, &mut pacer)?;
            let flags = &self.flags[k];
            let goal = if named[k] { LEGAL | GOAL } else { LEGAL };
            let goals: Vec<u32> = (0..flags.len() as u32)
                .filter(|&w| {
                    flags[w as usize] & (LEGAL | GOAL) & goal == goal
                        && self.picture_allows(k, w as usize)
                })
                .collect();
            let mut dist = backward(&edges, flags.len(), &goals);
            if flags.first().is_some_and(|&f| f & GOAL != 0) {
                dist[0] = 0; // an absent copy of an anonymous kind meets its goal
            }
            pacer.tick(edges.len() as u64, budget)?;
            let sl = &self.lay.slots[k];
            let bits = sl.bits;
            let one_cell = self.lay.foot[k].iter().all(|f| f.as_slice() == [0]);
            // Copies of one kind add up when no move changes two of them: no swap can
            // trade two copies, or the kind is in the summed set (see `additive_kinds`).
            let combine = if !(no_swap || summed[k]) || sl.count == 1 {
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
                    // A step onto a dead place (no relaxed path to a goal place) counts as
                    // blocked for good: a copy that takes it makes the state dead, and
                    // dead states are dropped anyway (a box between two dead squares
                    // cannot be pushed along that line).
                    for (_, need) in list.into_iter().filter(|&(to, _)| dist[to] != UNREACHABLE) {
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
                    // The places where a copy meets the goal (a goal picture's too).
                    goal: {
                        let mut at = vec![false; n];
                        at[0] = flags.first().is_some_and(|&f| f & GOAL != 0);
                        for &w in &goals {
                            at[w as usize] = true;
                        }
                        at
                    },
                }
            });
            kinds.push(KindBound {
                slots: sl.start..sl.start + sl.count,
                dist,
                combine,
                freeze,
                summed: summed[k],
            });
        }
        let cells = self.lay.ptile.len();
        budget.room_for(cells as u64 * 2)?;
        self.heuristic = Some(Bounds {
            kinds,
            patterns: None,
            push: None,
            paid: RefCell::default(),
            scratch: RefCell::new(Hungarian::default()),
            occ: RefCell::new(vec![u16::MAX; cells]),
            constrained,
            summed,
            form,
        });
        Ok(())
    }

    /// Whether the goal picture (if any) lets a copy of kind `k` stand at place word `w`:
    /// every cell of its footprint is drawn with kind `k`, in the pose the picture asks
    /// for where it asks for one. A goal state puts every copy on such a place, so the
    /// distance to these places bounds what is left to pay, as for a goal `on` a place.
    pub(super) fn picture_allows(&self, k: usize, w: usize) -> bool {
        let Some(pic) = &self.picture else {
            return true;
        };
        let bits = self.lay.slots[k].bits;
        let (a, pose) = (w >> bits, w & ((1 << bits) - 1));
        let poses = &self.level.picture_poses;
        self.lay.foot[k].get(pose).is_some_and(|foot| {
            foot.iter().all(|&f| {
                let cell = a as isize + f;
                let Some(i) = usize::try_from(cell)
                    .ok()
                    .and_then(|c| self.lay.board_index(c))
                else {
                    return false;
                };
                pic.get(i)
                    .is_some_and(|(pk, _)| pk.is_some_and(|pk| pk.index() == k))
                    && poses
                        .get(i)
                        .copied()
                        .flatten()
                        .is_none_or(|q| q.index() == pose)
            })
        })
    }

    /// The constrained kinds whose bounds add up (see the module header): a set in which
    /// no move changes two copies. In the plain mechanics every statement acts on the one
    /// copy its kind is bound to, so a move changes one copy of each kind it shifts,
    /// slides, turns or swaps, and each swap may also displace one copy of any kind. A
    /// move with two swaps keeps every kind out; a kind a swapping move moves itself is
    /// left out (the copy it displaces may be of any kind in the set); of the rest, kinds
    /// are taken in declaration order unless a move moves one already taken. On the
    /// n-puzzle every slide swaps the blank with one tile: the blank is left out and the
    /// tiles' distances add up to the Manhattan distance.
    fn additive_kinds(&self, constrained: &[bool]) -> Vec<bool> {
        let nk = constrained.len();
        let none = vec![false; nk];
        let mut moved: Vec<(Vec<usize>, usize)> = vec![];
        for ops in &self.prog.runs.moves {
            let mut kinds = vec![];
            let mut swaps = 0;
            for op in ops {
                match op {
                    KOp::Test { .. } => {}
                    KOp::Shift {
                        var,
                        kind,
                        each: false,
                        ..
                    }
                    | KOp::Slide {
                        var,
                        kind,
                        each: false,
                        ..
                    }
                    | KOp::Turn { var, kind, .. }
                        if var == kind =>
                    {
                        kinds.push(*kind)
                    }
                    KOp::Swap { var, kind, .. } if var == kind => {
                        kinds.push(*kind);
                        swaps += 1;
                    }
                    _ => return none,
                }
            }
            kinds.sort_unstable();
            kinds.dedup();
            if swaps > 1 {
                return none;
            }
            moved.push((kinds, swaps));
        }
        let mut summed = constrained.to_vec();
        for (kinds, swaps) in &moved {
            if *swaps == 1 {
                for &k in kinds {
                    summed[k] = false;
                }
            }
        }
        let mut taken = vec![false; nk];
        for k in 0..nk {
            if summed[k] {
                let clash = moved
                    .iter()
                    .any(|(kinds, _)| kinds.contains(&k) && kinds.iter().any(|&j| taken[j]));
                taken[k] = !clash;
            }
        }
        taken
    }

    /// The relaxed steps of kind `k` as `(to, from, weight)`, sorted by `to`; and per
    /// place word, each step from it as the place it reaches and the cells it needs free
    /// of other copies (`None`: a step relaxed without offsets, never blocked).
    #[allow(clippy::type_complexity)]
    pub(super) fn relaxed_edges(
        &self,
        k: usize,
        weight: &[u32],
        budget: &Budget,
        pacer: &mut Pacer,
    ) -> Result<
        (
            Vec<(u32, u32, u32)>,
            Vec<Vec<(usize, Option<([u32; MAX_NEEDS], u8)>)>>,
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
                    super::super::program::Actions::Dirs(ds) => ds,
                    super::super::program::Actions::Cells => {
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
                            steps[w].push((to, need));
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
    pub(super) fn relax_with_offsets(
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
    pub(super) fn legal_somewhere(&self, kind: usize, at: isize) -> bool {
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
