//! The relaxation heuristic for A*: for every piece kind the goal constrains, its distance
//! to a goal place when it moves alone, found by a backward search over its own places.

use std::collections::VecDeque;

use super::budget::{Budget, Pacer, UNREACHABLE};
use super::expander::{Expander, PrepareError};
use super::legality::{GOAL, LEGAL};

impl Expander<'_> {
    /// The relaxed estimate of moves left (0 until [`Expander::prepare_heuristic`]).
    #[inline]
    pub(crate) fn estimate(&self, s: &[u32]) -> u32 {
        let Some(h) = &self.heuristic else { return 0 };
        let mut best = 0;
        for &(slot, k) in &self.goal_slots {
            if let Some(dist) = &h[k] {
                best = best.max(dist[s[slot] as usize]);
            }
        }
        best
    }

    /// Derives an admissible heuristic from the rules: for every piece kind the goal
    /// constrains, its distance to a goal place when it moves alone, ignoring every other
    /// piece and every test about them (a backward search over its own places). Each real
    /// move changes a piece's place by at most one relaxed step, so the maximum over the
    /// constrained instances never overestimates. Refused when tiles change in play (the
    /// relaxation would not bound the real moves) or costs are not unit; cut off when
    /// `budget`'s time or memory runs out.
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
        if !self.model.unit_costs() {
            return Err(PrepareError::Refused(
                "moves do not all cost one unit".into(),
            ));
        }
        if self.goal_slots.is_empty() {
            return Err(PrepareError::Refused("the goal constrains no piece".into()));
        }
        let nd = self.lay.dir_delta.len();
        let mut pacer = Pacer::default();
        let mut h: Vec<Option<Vec<u32>>> = vec![None; self.model.pieces.len()];
        let mut cands: Vec<(usize, usize)> = vec![];
        let mut next: Vec<(usize, usize)> = vec![];
        for (k, hk) in h.iter_mut().enumerate() {
            if !self.goal_slots.iter().any(|&(_, kk)| kk == k) {
                continue;
            }
            let flags = &self.flags[k];
            let n = flags.len();
            let bits = self.lay.slots[k].bits;
            budget.room_for(n as u64 * 4)?;
            // Edges of the relaxed move graph, as (to, from), grouped by `to` below.
            let mut edges: Vec<(u32, u32)> = vec![];
            for w in 0..n {
                if flags[w] & LEGAL == 0 {
                    continue;
                }
                let mut work = 0;
                for ops in &self.prog.runs.moves {
                    for d in 0..nd {
                        cands.clear();
                        cands.push((w >> bits, w & ((1 << bits) - 1)));
                        for op in ops {
                            next.clear();
                            for &at in &cands {
                                self.relax_op(k, op, at, d, &mut next, &mut work);
                            }
                            std::mem::swap(&mut cands, &mut next);
                        }
                        for &(a, p) in &cands {
                            let to = a << bits | p;
                            if to != w && flags[to] & LEGAL != 0 {
                                edges.push((to as u32, w as u32));
                            }
                        }
                    }
                }
                pacer.tick(work, budget)?;
            }
            edges.sort_unstable();
            edges.dedup();
            let mut dist = vec![UNREACHABLE; n];
            let mut queue: VecDeque<u32> = VecDeque::new();
            for (w, d) in dist.iter_mut().enumerate() {
                if flags[w] & LEGAL != 0 && flags[w] & GOAL != 0 {
                    *d = 0;
                    queue.push_back(w as u32);
                }
            }
            while let Some(w) = queue.pop_front() {
                let dw = dist[w as usize];
                let from = edges.partition_point(|e| e.0 < w);
                for &(_, p) in edges[from..].iter().take_while(|e| e.0 == w) {
                    if dist[p as usize] == UNREACHABLE {
                        dist[p as usize] = dw + 1;
                        queue.push_back(p);
                    }
                }
            }
            *hk = Some(dist);
        }
        self.heuristic = Some(h);
        Ok(())
    }
}
