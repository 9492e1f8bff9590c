//! Depth-first search for rules whose solutions all have the same length.
//!
//! When every move removes exactly one copy of a kind and the goal demands a count of it
//! (peg solitaire: every jump removes a peg, the goal is one peg), every solution takes
//! the same number of moves, [`crate::compile::Model`]'s countdown. Then any solution is
//! a cheapest one, and the first one a depth-first search finds, trying successors in
//! action order, is the lexicographically smallest: the answer breadth-first search
//! gives. A state's depth is fixed by its count, so a state from which the search came
//! back empty-handed is dead for good: it is stored once and never expanded again. Memory
//! holds the dead states and the current path, not whole layers.

use web_time::Instant;

use super::{Budget, Cutoff, Outcome, Pacer, Path, Space, Stats};
use crate::engine::StateStore;
use crate::engine::{Action, Successors};

/// One frame of the explicit stack: a state, its successors, the next one to try.
struct Frame {
    state: Vec<u32>,
    succ: Successors,
    next: usize,
}

/// Depth-first search for a solution of exactly `length` moves (at most
/// `budget.max_depth`), trying successors in action order.
pub fn dfs<S: Space>(space: &mut S, budget: &Budget, length: u32) -> (Outcome, Stats) {
    let t0 = Instant::now();
    let mut stats = Stats::default();
    let words = space.words();
    let start = space.start();
    let done = |outcome: Outcome, mut stats: Stats| {
        stats.elapsed = t0.elapsed();
        (outcome, stats)
    };
    if space.is_goal(&start) {
        return done(Path::at_start(start), stats);
    }
    if length == 0 || budget.max_depth.is_some_and(|m| length > m) {
        return done(Outcome::Unsolvable, stats);
    }
    let mut dead = StateStore::hashed(words);
    let mut pacer = Pacer::default();
    let mut stack: Vec<Frame> = vec![];
    let mut actions: Vec<Action> = vec![];
    let mut first = Successors::default();
    space.successors(&start, &mut first);
    stats.expanded += 1;
    stack.push(Frame {
        state: start,
        succ: first,
        next: 0,
    });
    let mut spare: Vec<Successors> = vec![];
    loop {
        let depth = stack.len() as u32;
        let Some(top) = stack.last_mut() else {
            break;
        };
        if top.next >= top.succ.len() {
            let frame = stack.pop().expect("a frame");
            actions.pop();
            // Nothing below this state reaches the goal: remember it.
            if dead.insert(&frame.state).is_ok() {
                stats.stored = dead.len() as u64;
                if let Err(c) = budget.room_for(dead.bytes() as u64) {
                    return done(Outcome::Cutoff(c), stats);
                }
                if let Some(m) = budget.max_states {
                    if dead.len() >= m {
                        return done(Outcome::Cutoff(Cutoff::States(m)), stats);
                    }
                }
            }
            spare.push(frame.succ);
            continue;
        }
        let i = top.next;
        top.next += 1;
        if let Err(c) = pacer.tick_with(1, budget, &stats) {
            return done(Outcome::Cutoff(c), stats);
        }
        stats.generated += 1;
        let s = top.succ.state(i, words);
        let a = top.succ.actions[i];
        if depth == length {
            if space.is_goal(s) {
                let s = s.to_vec();
                actions.push(a);
                let mut states: Vec<Vec<u32>> = stack.drain(..).map(|f| f.state).collect();
                states.push(s);
                return done(Outcome::Solved(Path { actions, states }), stats);
            }
            continue;
        }
        if dead.find(s).is_some() {
            continue;
        }
        let s = s.to_vec();
        let mut succ = spare.pop().unwrap_or_default();
        space.successors(&s, &mut succ);
        stats.expanded += 1;
        if let Err(c) = pacer.tick_with(succ.work, budget, &stats) {
            return done(Outcome::Cutoff(c), stats);
        }
        actions.push(a);
        stack.push(Frame {
            state: s,
            succ,
            next: 0,
        });
        stats.peak_frontier = stats.peak_frontier.max(stack.len() as u64);
    }
    done(Outcome::Unsolvable, stats)
}
