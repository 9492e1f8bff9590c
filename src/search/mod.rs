//! Stage 5: search backends over any [`Space`] of packed states.
//!
//! Backends know nothing of the language: they see a start state, a goal test and
//! successors in a fixed action order, and return the action sequence with statistics.

mod astar;
mod bfs;
mod bidir;
mod dijkstra;
pub mod graph;
mod iddfs;

pub use crate::engine::budget::{
    peak_bytes, resident_bytes, Budget, Cutoff, Progress, Stats, CHECK_EVERY, UNREACHABLE,
};
pub use astar::astar;
pub use bfs::bfs;
pub use bidir::bidirectional;
pub use dijkstra::{dijkstra, CostTable, MAX_COMPONENTS};
pub use iddfs::iddfs;

use crate::engine::{Action, Expander, Successors};

/// A state space: what a search backend needs from an expander.
pub trait Space {
    /// Words per state.
    fn words(&self) -> usize;
    /// The range of each word (for dense stores).
    fn radix(&self) -> Vec<u32>;
    fn start(&self) -> Vec<u32>;
    fn is_goal(&self, s: &[u32]) -> bool;
    /// All successors of `s` in increasing action order.
    fn successors(&mut self, s: &[u32], out: &mut Successors);
    /// A lower bound on the moves left from `s` that changes by at most one per move;
    /// [`UNREACHABLE`] when no goal can be reached. 0 when nothing better is known.
    fn estimate(&self, _s: &[u32]) -> u32 {
        0
    }
}

impl Space for Expander<'_> {
    fn words(&self) -> usize {
        self.words
    }
    fn radix(&self) -> Vec<u32> {
        Expander::radix(self)
    }
    fn start(&self) -> Vec<u32> {
        Expander::start(self)
    }
    fn is_goal(&self, s: &[u32]) -> bool {
        Expander::is_goal(self, s)
    }
    fn successors(&mut self, s: &[u32], out: &mut Successors) {
        Expander::successors(self, s, out)
    }
    fn estimate(&self, s: &[u32]) -> u32 {
        Expander::estimate(self, s)
    }
}

/// A solution: the actions taken and every state along the way (start included).
#[derive(Clone, Debug)]
pub struct Path {
    pub actions: Vec<Action>,
    pub states: Vec<Vec<u32>>,
}

#[derive(Clone, Debug)]
pub enum Outcome {
    Solved(Path),
    /// Solved, cost only: a fast path asked not to build a path.
    Cost(Vec<u64>),
    /// Every reachable state (within the move limit) was explored; none is a goal.
    Unsolvable,
    Cutoff(Cutoff),
}

/// The path to state `goal` from per-id parent and action arrays (`u32::MAX` parent at
/// the start).
pub fn path_from_parents(
    store: &crate::engine::StateStore,
    parent: &[u32],
    action: &[Action],
    goal: usize,
    words: usize,
) -> Path {
    let mut states = vec![];
    let mut actions = vec![];
    let mut at = goal;
    loop {
        let mut s = vec![0; words];
        store.load(at as u32, &mut s);
        states.push(s);
        if parent[at] == u32::MAX {
            break;
        }
        actions.push(action[at]);
        at = parent[at] as usize;
    }
    states.reverse();
    actions.reverse();
    Path { actions, states }
}

/// Rebuilds the actions between consecutive states by re-expanding each parent: the
/// lowest action leading to the child is the one a search in action order took.
pub fn actions_between<S: Space>(space: &mut S, states: &[Vec<u32>]) -> Option<Vec<Action>> {
    let words = space.words();
    let mut succ = Successors::default();
    let mut actions = Vec::with_capacity(states.len().saturating_sub(1));
    for w in states.windows(2) {
        space.successors(&w[0], &mut succ);
        let i = (0..succ.len()).find(|&i| succ.state(i, words) == w[1].as_slice())?;
        actions.push(succ.actions[i]);
    }
    Some(actions)
}

/// Replays actions from the start, checking each is legal; returns the states visited,
/// or the index of the first action that is not possible.
pub fn replay<S: Space>(space: &mut S, actions: &[Action]) -> Result<Vec<Vec<u32>>, usize> {
    let words = space.words();
    let mut succ = Successors::default();
    let mut states = vec![space.start()];
    for (k, &a) in actions.iter().enumerate() {
        space.successors(states.last().expect("start is present"), &mut succ);
        let i = (0..succ.len()).find(|&i| succ.actions[i] == a).ok_or(k)?;
        states.push(succ.state(i, words).to_vec());
    }
    Ok(states)
}
