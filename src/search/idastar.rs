//! IDA*: iterative deepening on `g + h`, for unit costs, with memory for one path and a
//! bounded table.
//!
//! Each iteration searches depth-first in action order, cutting every successor whose
//! `f = g + h` exceeds the iteration's threshold (`h` is [`Space::admissible`], a lower
//! bound on the moves still needed, [`UNREACHABLE`] on states from which no goal can be
//! reached: those are dropped for good). The first threshold is `h(start)`; each next one
//! is the smallest `f` that was cut. Memory holds the current path, one buffer of
//! successors per level of it, and a table of at most [`TABLE_ENTRIES`] states, each
//! with the fewest moves it was reached by in this iteration.
//!
//! **Optimal.** The bound is admissible (never above the moves still needed), so every
//! state on a shortest path of `C*` moves has `f <= C*`: no iteration whose threshold is
//! at least `C*` cuts it, and every threshold is at most `C*` (it is `h(start) <= C*`, or
//! the smallest `f` cut in an iteration below `C*`, which cut some state of a shortest
//! path). So the iteration at threshold `C*` is reached and finds a path of `C*` moves,
//! and none before it finds any (a goal within the threshold would be a shorter path).
//!
//! **The tie rule.** The last iteration meets paths in the order of their action
//! sequences, like iterative deepening ([`super::iddfs`]), so the first goal it meets is
//! on the smallest shortest path, provided no pruning removes that path `P`. The
//! threshold does not (above). A successor equal to its parent's parent closes a cycle,
//! never part of a shortest path. A state found in the table at `g' <= g` was met before
//! at `g'` by a smaller prefix `Q`, and its subtree searched with as much room: if `P`'s
//! rest from that state avoids `Q`'s states, `Q` then `P`'s rest is a solution no longer
//! than `P` and smaller, so `P` is not the smallest; if it meets a state of `Q`, cutting
//! there gives a shorter solution, so `P` is not shortest. (The bound need not be
//! consistent for either argument.)
//!
//! **No solution.** An iteration that cut no state (by the threshold; dead states and
//! the move limit are final) saw every reachable state: every pruned revisit was searched
//! in full from an earlier visit. None being a goal, there is none.
//!
//! **Budgets.** The time and memory limits are checked as the search goes;
//! `--max-states` counts states expanded (IDA* stores no visited set beyond the bounded
//! table). A move limit cuts every state with `g + h` above it for good.

use hashbrown::HashMap;
use web_time::Instant;

use super::{Budget, Cutoff, Outcome, Pacer, Path, Space, Stats, UNREACHABLE};
use crate::engine::Successors;

/// Most states the table of one iteration holds (then it only answers lookups).
const TABLE_ENTRIES: usize = 1 << 18;

/// One level of the path: its state, its successors and the next one to try.
#[derive(Default)]
struct Frame {
    state: Vec<u32>,
    succ: Successors,
    next: usize,
}

/// How one iteration ended.
enum Iteration {
    /// A goal: the path's frames are `0..=depth` plus the goal state.
    Found(Path),
    Cut(Cutoff),
    /// Some state was cut at this `f` (the smallest such): the next threshold.
    Deeper(u32),
    /// No state was cut by the threshold: every reachable state was seen.
    Exhausted,
}

/// IDA* for unit costs, guided by [`Space::admissible`]: the answer breadth-first search
/// gives (the smallest shortest path), within `budget.max_depth`.
pub fn idastar<S: Space>(space: &mut S, budget: &Budget) -> (Outcome, Stats) {
    let t0 = Instant::now();
    let mut stats = Stats::default();
    let start = space.start();
    if space.is_goal(&start) {
        stats.elapsed = t0.elapsed();
        return (Path::at_start(start), stats);
    }
    let h0 = space.admissible(&start);
    let limit = budget.max_depth.unwrap_or(u32::MAX);
    let mut threshold = h0;
    let mut pacer = Pacer::default();
    let mut frames: Vec<Frame> = vec![];
    let mut table: HashMap<Box<[u32]>, u32> = HashMap::new();
    let outcome = loop {
        if h0 == UNREACHABLE || threshold > limit {
            break Outcome::Unsolvable;
        }
        table.clear();
        table.insert(start.as_slice().into(), 0);
        let it = iteration(
            space,
            budget,
            &start,
            threshold,
            &mut frames,
            &mut table,
            &mut stats,
            &mut pacer,
        );
        match it {
            Iteration::Found(path) => break Outcome::Solved(path),
            Iteration::Cut(c) => break Outcome::Cutoff(c),
            Iteration::Exhausted => break Outcome::Unsolvable,
            Iteration::Deeper(t) => threshold = t,
        }
    };
    stats.elapsed = t0.elapsed();
    (outcome, stats)
}

/// One depth-first search to `threshold`.
#[allow(clippy::too_many_arguments)]
fn iteration<S: Space>(
    space: &mut S,
    budget: &Budget,
    start: &[u32],
    threshold: u32,
    frames: &mut Vec<Frame>,
    table: &mut HashMap<Box<[u32]>, u32>,
    stats: &mut Stats,
    pacer: &mut Pacer,
) -> Iteration {
    let words = space.words();
    let limit = budget.max_depth.unwrap_or(u32::MAX);
    let mut next_threshold = UNREACHABLE;
    if frames.is_empty() {
        frames.push(Frame::default());
    }
    frames[0].state.clear();
    frames[0].state.extend_from_slice(start);
    frames[0].next = 0;
    space.successors(start, &mut frames[0].succ);
    stats.expanded += 1;
    let mut depth = 0usize;
    loop {
        let i = frames[depth].next;
        if i >= frames[depth].succ.len() {
            if depth == 0 {
                break;
            }
            depth -= 1;
            continue;
        }
        frames[depth].next += 1;
        stats.generated += 1;
        if let Err(c) = pacer.tick_with(1, budget, stats) {
            return Iteration::Cut(c);
        }
        let g = depth as u32 + 1;
        let (parents, rest) = frames.split_at_mut(depth + 1);
        let here = &parents[depth];
        let s = here.succ.state(i, words);
        if depth > 0 && parents[depth - 1].state == s {
            continue;
        }
        let h = space.admissible(s);
        if h == UNREACHABLE || g.saturating_add(h) > limit {
            continue;
        }
        let f = g.saturating_add(h);
        if f > threshold {
            next_threshold = next_threshold.min(f);
            continue;
        }
        // Goals have h = 0: the goal test, which may be slow (a picture), runs there only.
        if h == 0 && space.is_goal(s) {
            let mut states: Vec<Vec<u32>> = parents.iter().map(|f| f.state.clone()).collect();
            states.push(s.to_vec());
            let actions = parents.iter().map(|f| f.succ.actions[f.next - 1]).collect();
            return Iteration::Found(Path { actions, states });
        }
        let room = table.len() < TABLE_ENTRIES;
        match table.get_mut(s) {
            Some(best) if *best <= g => continue,
            Some(best) => *best = g,
            None if room => {
                table.insert(s.into(), g);
                stats.stored = stats.stored.max(table.len() as u64);
            }
            None => {}
        }
        if budget
            .max_states
            .is_some_and(|m| stats.expanded >= m as u64)
        {
            return Iteration::Cut(Cutoff::States(budget.max_states.unwrap_or(0)));
        }
        if rest.is_empty() {
            frames.push(Frame::default());
        }
        let (parents, rest) = frames.split_at_mut(depth + 1);
        let child = &mut rest[0];
        child.state.clear();
        child
            .state
            .extend_from_slice(parents[depth].succ.state(i, words));
        child.next = 0;
        space.successors(&child.state, &mut child.succ);
        stats.expanded += 1;
        if let Err(c) = pacer.tick_with(child.succ.work, budget, stats) {
            return Iteration::Cut(c);
        }
        depth += 1;
        stats.peak_frontier = stats.peak_frontier.max(depth as u64 + 1);
    }
    if next_threshold == UNREACHABLE {
        Iteration::Exhausted
    } else {
        Iteration::Deeper(next_threshold)
    }
}
