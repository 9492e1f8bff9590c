//! A* for unit-cost moves, guided by [`Space::estimate`].
//!
//! The estimate must never exceed the true number of moves left and may change by at
//! most one per move (the interpreter's relaxed-piece distances satisfy both), so the
//! first goal taken from the queue is optimal. Among equal `f = g + h` the deeper state
//! goes first, then the one queued first. States whose estimate is infinite (no goal
//! reachable even in the relaxation) are never queued.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

use super::UNREACHABLE;
use super::{Budget, Cutoff, Outcome, Pacer, Space, Stats};
use crate::compile::{DirId, MoveId};
use crate::engine::{Action, StateStore, Successors};

/// The action recorded for states not reached yet (never read: their parent is unset).
const START: Action = Action::new(MoveId(0), DirId(0));

/// Queue entry: `f`, then deeper first, then first queued, then the state id.
type Entry = (u64, Reverse<u32>, u64, u32);

/// A* for unit costs: a solution with the fewest moves within `budget.max_depth` (not
/// necessarily the one the tie rule picks). States that cannot reach a goal within the
/// limit by the estimate are not queued.
pub fn astar<S: Space>(space: &mut S, budget: &Budget) -> (Outcome, Stats) {
    let t0 = Instant::now();
    let words = space.words();
    let mut stats = Stats::default();
    let mut store = StateStore::hashed(words);
    let start = space.start();
    let mut g: Vec<u32> = vec![0];
    let mut parent: Vec<u32> = vec![u32::MAX];
    let mut action: Vec<Action> = vec![START];
    let mut closed: Vec<bool> = vec![false];
    let _ = store.insert(&start);
    let h0 = space.estimate(&start);
    // (f, -g, order, id)
    let mut heap: BinaryHeap<Reverse<Entry>> = BinaryHeap::new();
    let mut order = 0u64;
    let mut pacer = Pacer::default();
    if h0 != UNREACHABLE && budget.max_depth.is_none_or(|m| h0 <= m) {
        heap.push(Reverse((h0 as u64, Reverse(0), order, 0)));
    }
    let mut cur = vec![0u32; words];
    let mut succ = Successors::default();
    let done = |stats: &mut Stats, store: &StateStore| {
        stats.stored = store.len() as u64;
        stats.store_bytes = store.bytes() as u64;
        stats.elapsed = t0.elapsed();
    };
    while let Some(Reverse((_, Reverse(gs), _, id))) = heap.pop() {
        let i = id as usize;
        if closed[i] || gs != g[i] {
            continue;
        }
        closed[i] = true;
        store.load(id, &mut cur);
        if space.is_goal(&cur) {
            let path = super::path_from_parents(&store, &parent, &action, i, words);
            done(&mut stats, &store);
            return (Outcome::Solved(path), stats);
        }
        if budget.max_depth.is_some_and(|m| gs >= m) {
            continue;
        }
        space.successors(&cur, &mut succ);
        stats.expanded += 1;
        stats.generated += succ.len() as u64;
        if let Err(c) = pacer.tick_with(succ.units(), budget, &stats) {
            done(&mut stats, &store);
            return (Outcome::Cutoff(c), stats);
        }
        for k in 0..succ.len() {
            let s = succ.state(k, words);
            let j = match store.insert(s) {
                Ok(j) => {
                    g.push(u32::MAX);
                    parent.push(u32::MAX);
                    action.push(START);
                    closed.push(false);
                    j
                }
                Err(j) => j,
            } as usize;
            if closed[j] || gs + 1 >= g[j] {
                continue;
            }
            let h = space.estimate(s);
            if h == UNREACHABLE
                || budget
                    .max_depth
                    .is_some_and(|m| (gs + 1) as u64 + h as u64 > m as u64)
            {
                continue;
            }
            g[j] = gs + 1;
            parent[j] = id;
            action[j] = succ.actions[k];
            order += 1;
            heap.push(Reverse((
                (gs + 1) as u64 + h as u64,
                Reverse(gs + 1),
                order,
                j as u32,
            )));
        }
        stats.peak_frontier = stats.peak_frontier.max(heap.len() as u64);
        if let Some(m) = budget.max_states {
            if store.len() >= m {
                done(&mut stats, &store);
                return (Outcome::Cutoff(Cutoff::States(m)), stats);
            }
        }
    }
    done(&mut stats, &store);
    (Outcome::Unsolvable, stats)
}
