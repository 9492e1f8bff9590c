//! Dijkstra's algorithm over lexicographic cost vectors.
//!
//! Costs are compared component by component, most significant first. Among equal costs
//! the state reached first (in action order from the earliest-settled parent) wins, so
//! answers are deterministic.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

use super::{actions_between, Budget, Cutoff, Outcome, Path, Space, Stats};
use crate::engine::{StateStore, Successors};

/// A cost vector packed into one integer: 32 bits per component, most significant first.
pub type PackedCost = u128;

/// Packs up to four components.
pub fn pack(cost: &[u64]) -> PackedCost {
    cost.iter()
        .fold(0u128, |acc, &c| acc << 32 | c.min(u32::MAX as u64) as u128)
}

/// Dijkstra with a per-action cost vector (`action_cost(a)`, already packed).
pub fn dijkstra_with<S: Space>(
    space: &mut S,
    budget: &Budget,
    action_cost: &dyn Fn(u32) -> PackedCost,
) -> (Outcome, Stats) {
    let t0 = Instant::now();
    let words = space.words();
    let mut stats = Stats::default();
    let mut store = StateStore::hashed(words);
    let start = space.start();
    let _ = store.insert(&start);
    let mut best: Vec<PackedCost> = vec![0];
    let mut depth: Vec<u32> = vec![0];
    let mut parent: Vec<u32> = vec![u32::MAX];
    let mut done: Vec<bool> = vec![false];
    let mut heap: BinaryHeap<Reverse<(PackedCost, u32)>> = BinaryHeap::new();
    heap.push(Reverse((0, 0)));
    let mut cur = vec![0u32; words];
    let mut succ = Successors::default();
    while let Some(Reverse((cost, id))) = heap.pop() {
        let i = id as usize;
        if done[i] || cost != best[i] {
            continue;
        }
        done[i] = true;
        store.load(id, &mut cur);
        if space.is_goal(&cur) {
            let mut states = vec![];
            let mut at = id;
            loop {
                let mut s = vec![0; words];
                store.load(at, &mut s);
                states.push(s);
                if parent[at as usize] == u32::MAX {
                    break;
                }
                at = parent[at as usize];
            }
            states.reverse();
            let actions = actions_between_cheapest(space, &states, action_cost);
            stats.stored = store.len() as u64;
            stats.store_bytes = store.bytes() as u64;
            stats.elapsed = t0.elapsed();
            return (Outcome::Solved(Path { actions, states }), stats);
        }
        if budget.max_depth.is_some_and(|m| depth[i] >= m) {
            continue;
        }
        if stats.expanded % 4096 == 0 && budget.deadline.is_some_and(|d| Instant::now() >= d) {
            stats.elapsed = t0.elapsed();
            return (Outcome::Cutoff(Cutoff::Time), stats);
        }
        space.successors(&cur, &mut succ);
        stats.expanded += 1;
        stats.generated += succ.len() as u64;
        for k in 0..succ.len() {
            let c = cost + action_cost(succ.actions[k]);
            let s = succ.state(k, words);
            let j = match store.insert(s) {
                Ok(j) => {
                    best.push(PackedCost::MAX);
                    depth.push(0);
                    parent.push(u32::MAX);
                    done.push(false);
                    j
                }
                Err(j) => j,
            } as usize;
            if c < best[j] {
                best[j] = c;
                depth[j] = depth[i] + 1;
                parent[j] = id;
                heap.push(Reverse((c, j as u32)));
            }
        }
        stats.peak_frontier = stats.peak_frontier.max(heap.len() as u64);
        if budget.max_states.is_some_and(|m| store.len() >= m) {
            stats.elapsed = t0.elapsed();
            return (
                Outcome::Cutoff(Cutoff::States(budget.max_states.unwrap_or_default())),
                stats,
            );
        }
    }
    stats.stored = store.len() as u64;
    stats.elapsed = t0.elapsed();
    (Outcome::Unsolvable, stats)
}

/// Like [`actions_between`], but when several actions join two states picks the cheapest.
fn actions_between_cheapest<S: Space>(
    space: &mut S,
    states: &[Vec<u32>],
    action_cost: &dyn Fn(u32) -> PackedCost,
) -> Vec<u32> {
    let words = space.words();
    let mut succ = Successors::default();
    let mut out = vec![];
    for w in states.windows(2) {
        space.successors(&w[0], &mut succ);
        let a = (0..succ.len())
            .filter(|&i| succ.state(i, words) == w[1].as_slice())
            .map(|i| succ.actions[i])
            .min_by_key(|&a| (action_cost(a), a));
        out.push(a.expect("every parent reaches its child"));
    }
    let _ = actions_between::<S>;
    out
}
