//! Breadth-first search: fewest moves, ties broken by the smallest action sequence.
//!
//! Successors are generated in action order and a state's parent is the first one to
//! reach it, so the queue within each layer is sorted by the lexicographically smallest
//! shortest path to each state; the first goal found is therefore the smallest such path.
//! Parents are kept as queue positions beside the queue (no per-state map). When every
//! move commutes and undoes itself (`Space::commuting`), paths are only extended by
//! larger actions: the smallest shortest path is then in increasing order, and a state
//! first reached otherwise is reached again, in order, by an earlier parent.

use web_time::Instant;

use super::{actions_between, Budget, Cutoff, Outcome, Pacer, Path, Space, Stats};
use crate::engine::{StateStore, Successors};

/// Breadth-first search for unit costs: the lexicographically smallest of the shortest
/// solutions within `budget.max_depth` moves.
pub fn bfs<S: Space>(space: &mut S, budget: &Budget) -> (Outcome, Stats) {
    let t0 = Instant::now();
    let words = space.words();
    let mut stats = Stats::default();
    let mut store = StateStore::new(&space.radix());
    let start = space.start();
    let start_id = match store.insert(&start) {
        Ok(id) | Err(id) => id,
    };
    // queue[i] is a state id; parent[i] the queue position it was reached from.
    let mut queue: Vec<u32> = vec![start_id];
    let mut parent: Vec<u32> = vec![u32::MAX];
    // With commuting moves, the action each queued state was reached by: its path is
    // only extended by larger actions (see `Space::commuting`).
    let commuting = space.commuting();
    let mut last: Vec<Option<crate::engine::Action>> = if commuting { vec![None] } else { vec![] };
    let mut cur = vec![0u32; words];
    let mut succ = Successors::default();
    let finish = |stats: &mut Stats, store: &StateStore, outcome: Outcome| {
        stats.stored = store.len() as u64;
        stats.store_bytes = store.bytes() as u64;
        stats.elapsed = t0.elapsed();
        outcome
    };
    if space.is_goal(&start) {
        return (finish(&mut stats, &store, Path::at_start(start)), stats);
    }
    let mut pacer = Pacer::default();
    let mut head = 0usize;
    let mut depth = 0u32;
    let mut layer_end = 1usize;
    while head < queue.len() {
        if head == layer_end {
            depth += 1;
            layer_end = queue.len();
        }
        if budget.max_depth.is_some_and(|m| depth >= m) {
            break;
        }
        stats.peak_frontier = stats.peak_frontier.max((queue.len() - head) as u64);
        store.load(queue[head], &mut cur);
        match if commuting { last[head] } else { None } {
            Some(a) => space.successors_after(&cur, a, &mut succ),
            None => space.successors(&cur, &mut succ),
        }
        stats.expanded += 1;
        stats.generated += succ.len() as u64;
        stats.stored = store.len() as u64;
        if let Err(c) = pacer.tick_with(succ.units(), budget, &stats) {
            return (finish(&mut stats, &store, Outcome::Cutoff(c)), stats);
        }
        for i in 0..succ.len() {
            let s = succ.state(i, words);
            if let Ok(id) = store.insert(s) {
                queue.push(id);
                parent.push(head as u32);
                if commuting {
                    last.push(Some(succ.actions[i]));
                }
                if space.is_goal(s) {
                    let path = rebuild(space, &store, &queue, &parent, queue.len() - 1, words);
                    return (finish(&mut stats, &store, Outcome::Solved(path)), stats);
                }
                if budget.max_states.is_some_and(|m| queue.len() >= m) {
                    let n = budget.max_states.unwrap_or_default();
                    return (
                        finish(&mut stats, &store, Outcome::Cutoff(Cutoff::States(n))),
                        stats,
                    );
                }
            }
        }
        head += 1;
    }
    (finish(&mut stats, &store, Outcome::Unsolvable), stats)
}

fn rebuild<S: Space>(
    space: &mut S,
    store: &StateStore,
    queue: &[u32],
    parent: &[u32],
    mut at: usize,
    words: usize,
) -> Path {
    let mut states = vec![];
    loop {
        let mut s = vec![0; words];
        store.load(queue[at], &mut s);
        states.push(s);
        if parent[at] == u32::MAX {
            break;
        }
        at = parent[at] as usize;
    }
    states.reverse();
    let actions = actions_between(space, &states).expect("every parent reaches its child");
    Path { actions, states }
}
