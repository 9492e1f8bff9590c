//! Depth-limited depth-first search and iterative deepening.
//!
//! Each iteration searches depth-first in action order to a depth bound, so the first
//! solution found at the smallest bound is the lexicographically smallest shortest one,
//! the same answer breadth-first search gives. A table of the shallowest depth at which
//! each state was reached in the current iteration prunes revisits (a state reached again
//! no shallower cannot lead anywhere new). Memory holds that table and the current path.
//!
//! # When to stop
//! At the end of the iteration to bound `b`, the table holds exactly the states within
//! `b` moves of the start, each with its distance: every entry was reached within `b`
//! moves, so its depth is at least its distance; and by induction on the distance `d`, a
//! state at distance `d <= b` was offered at depth `d` (its predecessor on a shortest path
//! was entered at depth `d - 1 < b`, so expanded, at some point). So if no entry lies at
//! depth `b`, no state is `b` moves away, hence none is farther: the iteration saw every
//! reachable state, none a goal, and the level has no solution. Checking this costs one
//! pass over the table per iteration; without it, a graph with long simple paths (a
//! hypercube of toggles) deepens up to its longest path, each iteration repeating the
//! last, and runs for exponential time.

use web_time::Instant;

use hashbrown::HashMap;

use super::{Budget, Cutoff, Outcome, Pacer, Path, Space, Stats};
use crate::engine::{Action, Successors};

/// Iterative deepening for unit costs: depth-first searches to 1, 2, ... moves (at most
/// `budget.max_depth`) until one finds a goal or no branch reaches the bound; the answer
/// is the one breadth-first search gives.
pub fn iddfs<S: Space>(space: &mut S, budget: &Budget) -> (Outcome, Stats) {
    let t0 = Instant::now();
    let mut stats = Stats::default();
    let start = space.start();
    if space.is_goal(&start) {
        stats.elapsed = t0.elapsed();
        return (Path::at_start(start), stats);
    }
    let mut bound = 1u32;
    let mut pacer = Pacer::default();
    loop {
        if budget.max_depth.is_some_and(|m| bound > m) {
            break;
        }
        match depth_limited(space, budget, &start, bound, &mut stats, &mut pacer) {
            Limited::Found(path) => {
                stats.elapsed = t0.elapsed();
                return (Outcome::Solved(path), stats);
            }
            Limited::Cut(c) => {
                stats.elapsed = t0.elapsed();
                return (Outcome::Cutoff(c), stats);
            }
            // No state lies `bound` moves away: deeper bounds cannot find more.
            Limited::Exhausted => break,
            Limited::Deeper => bound += 1,
        }
    }
    stats.elapsed = t0.elapsed();
    (Outcome::Unsolvable, stats)
}

enum Limited {
    Found(Path),
    Cut(Cutoff),
    /// No state lies as far as the bound: every reachable state was seen.
    Exhausted,
    /// Some state lies exactly at the bound: a deeper one may find more.
    Deeper,
}

/// One frame of the explicit DFS stack: a state, its successors, the next one to try.
struct Frame {
    state: Vec<u32>,
    succ: Successors,
    next: usize,
}

fn depth_limited<S: Space>(
    space: &mut S,
    budget: &Budget,
    start: &[u32],
    bound: u32,
    stats: &mut Stats,
    pacer: &mut Pacer,
) -> Limited {
    let words = space.words();
    let mut best: HashMap<Vec<u32>, u32> = HashMap::new();
    best.insert(start.to_vec(), 0);
    let mut stack: Vec<Frame> = vec![];
    let mut actions: Vec<Action> = vec![];
    let mut first = Successors::default();
    space.successors(start, &mut first);
    stats.expanded += 1;
    stack.push(Frame {
        state: start.to_vec(),
        succ: first,
        next: 0,
    });
    let mut hit_bound = false;
    while let Some(top) = stack.last_mut() {
        if top.next >= top.succ.len() {
            stack.pop();
            actions.pop();
            continue;
        }
        let i = top.next;
        top.next += 1;
        if let Err(c) = pacer.tick_with(1, budget, stats) {
            return Limited::Cut(c);
        }
        let s = top.succ.state(i, words).to_vec();
        let a = top.succ.actions[i];
        let depth = stack.len() as u32;
        stats.generated += 1;
        if best.get(&s).is_some_and(|&d| d <= depth) {
            continue;
        }
        best.insert(s.clone(), depth);
        stats.stored = stats.stored.max(best.len() as u64);
        if space.is_goal(&s) {
            actions.push(a);
            let mut states: Vec<Vec<u32>> = stack.iter().map(|f| f.state.clone()).collect();
            states.push(s);
            return Limited::Found(Path { actions, states });
        }
        if let Some(m) = budget.max_states {
            if best.len() >= m {
                return Limited::Cut(Cutoff::States(m));
            }
        }
        if depth >= bound {
            hit_bound = true;
            continue;
        }
        let mut succ = Successors::default();
        space.successors(&s, &mut succ);
        stats.expanded += 1;
        if let Err(c) = pacer.tick_with(succ.work, budget, stats) {
            return Limited::Cut(c);
        }
        actions.push(a);
        stack.push(Frame {
            state: s,
            succ,
            next: 0,
        });
        stats.peak_frontier = stats.peak_frontier.max(stack.len() as u64);
    }
    // Every entry holds its state's distance (see the module header): a state at the
    // bound means the next bound may reach new ones.
    if hit_bound && best.values().any(|&d| d == bound) {
        Limited::Deeper
    } else {
        Limited::Exhausted
    }
}
