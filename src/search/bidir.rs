//! Bidirectional breadth-first search for models whose moves are all invertible.
//!
//! When every move can be undone by a move of the same cost, the state graph is
//! symmetric and the successors of a state are also its predecessors, so one frontier
//! grows from the start and one from every goal state (enumerated by the space) with the
//! same expander. The smaller frontier grows by one whole layer at a time; once the two
//! meet, the shortest connection through that layer is taken. Answers have the optimal
//! length; ties among equal-length answers are not the lexicographic rule of BFS.

use web_time::Instant;

use super::{actions_between, Budget, Cutoff, Outcome, Pacer, Path, Space, Stats};
use crate::engine::{StateStore, Successors};

/// One search direction: its store, parents (by id) and current layer.
struct Side {
    store: StateStore,
    parent: Vec<u32>,
    layer: Vec<u32>,
    depth: u32,
}

impl Side {
    fn new(words: usize, roots: &[Vec<u32>]) -> Side {
        let mut store = StateStore::hashed(words);
        let mut layer = vec![];
        for r in roots {
            if let Ok(id) = store.insert(r) {
                layer.push(id);
            }
        }
        Side {
            store,
            parent: vec![u32::MAX; layer.len()],
            layer,
            depth: 0,
        }
    }

    fn chain(&self, mut id: u32, words: usize) -> Vec<Vec<u32>> {
        let mut out = vec![];
        loop {
            let mut s = vec![0; words];
            self.store.load(id, &mut s);
            out.push(s);
            if self.parent[id as usize] == u32::MAX {
                return out;
            }
            id = self.parent[id as usize];
        }
    }
}

/// Bidirectional breadth-first search between the start and `goals` (every goal state,
/// which the caller enumerates), for spaces whose moves are all invertible at unit cost:
/// a solution with the fewest moves within `budget.max_depth`, ties not by the tie rule.
pub fn bidirectional<S: Space>(
    space: &mut S,
    budget: &Budget,
    goals: &[Vec<u32>],
) -> (Outcome, Stats) {
    let t0 = Instant::now();
    let words = space.words();
    let mut stats = Stats::default();
    let start = space.start();
    if space.is_goal(&start) {
        stats.elapsed = t0.elapsed();
        return (Path::at_start(start), stats);
    }
    let mut fwd = Side::new(words, std::slice::from_ref(&start));
    let mut bwd = Side::new(words, goals);
    let mut cur = vec![0u32; words];
    let mut succ = Successors::default();
    let mut pacer = Pacer::default();
    let finish = |stats: &mut Stats, f: &Side, b: &Side| {
        stats.stored = (f.store.len() + b.store.len()) as u64;
        stats.store_bytes = (f.store.bytes() + b.store.bytes()) as u64;
        stats.elapsed = t0.elapsed();
    };
    while !fwd.layer.is_empty() && !bwd.layer.is_empty() {
        if budget.max_depth.is_some_and(|m| fwd.depth + bwd.depth >= m) {
            break;
        }
        let forward = fwd.layer.len() <= bwd.layer.len();
        let (grow, other) = if forward {
            (&mut fwd, &bwd)
        } else {
            (&mut bwd, &fwd)
        };
        let mut next = vec![];
        // The meeting with the smallest total length in this layer, found first.
        let mut meet: Option<(u32, u32)> = None;
        for &id in &grow.layer {
            grow.store.load(id, &mut cur);
            space.successors(&cur, &mut succ);
            stats.expanded += 1;
            stats.generated += succ.len() as u64;
            for k in 0..succ.len() {
                let s = succ.state(k, words);
                if let Ok(j) = grow.store.insert(s) {
                    grow.parent.push(id);
                    next.push(j);
                    if meet.is_none() {
                        if let Some(o) = other.store.find(s) {
                            meet = Some((j, o));
                        }
                    }
                }
            }
            if budget
                .max_states
                .is_some_and(|m| grow.store.len() + other.store.len() >= m)
            {
                finish(&mut stats, &fwd, &bwd);
                return (
                    Outcome::Cutoff(Cutoff::States(budget.max_states.unwrap_or_default())),
                    stats,
                );
            }
            stats.stored = (grow.store.len() + other.store.len()) as u64;
            if let Err(c) = pacer.tick_with(succ.units(), budget, &stats) {
                finish(&mut stats, &fwd, &bwd);
                return (Outcome::Cutoff(c), stats);
            }
        }
        grow.layer = next;
        grow.depth += 1;
        stats.peak_frontier = stats
            .peak_frontier
            .max((fwd.layer.len() + bwd.layer.len()) as u64);
        if let Some((mine, theirs)) = meet {
            let (f_id, b_id) = if forward {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            let mut states = fwd.chain(f_id, words);
            states.reverse();
            let back = bwd.chain(b_id, words);
            states.extend(back.into_iter().skip(1));
            let actions =
                actions_between(space, &states).expect("invertible moves connect both halves");
            finish(&mut stats, &fwd, &bwd);
            return (Outcome::Solved(Path { actions, states }), stats);
        }
    }
    finish(&mut stats, &fwd, &bwd);
    (Outcome::Unsolvable, stats)
}
