//! Stage 5: search backends over any [`Space`] of packed states.
//!
//! Backends know nothing of the language: they see a start state, a goal test and
//! successors in a fixed action order, and return the action sequence with statistics.

mod bfs;
mod dijkstra;

pub use bfs::bfs;
pub use dijkstra::{dijkstra, CostTable, MAX_COMPONENTS};

use std::time::{Duration, Instant};

use crate::engine::{Expander, Successors};

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
}

/// Bounds on one search. A search that hits one stops with [`Outcome::Cutoff`].
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// Stop after storing this many states.
    pub max_states: Option<usize>,
    /// Stop at this time.
    pub deadline: Option<Instant>,
    /// Never make more than this many moves (a rule of the puzzle, not a budget).
    pub max_depth: Option<u32>,
}

/// Counters of one search.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Stats {
    pub expanded: u64,
    pub generated: u64,
    pub stored: u64,
    pub peak_frontier: u64,
    pub store_bytes: u64,
    #[serde(serialize_with = "ser_secs")]
    pub elapsed: Duration,
}

fn ser_secs<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

/// A solution: the actions taken and every state along the way (start included).
#[derive(Clone, Debug)]
pub struct Path {
    pub actions: Vec<u32>,
    pub states: Vec<Vec<u32>>,
}

/// Why a search stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cutoff {
    States(usize),
    Time,
}

impl std::fmt::Display for Cutoff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cutoff::States(n) => write!(f, "the state limit of {n} states was reached"),
            Cutoff::Time => write!(f, "the time limit was reached"),
        }
    }
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

/// Rebuilds the actions between consecutive states by re-expanding each parent: the
/// lowest action leading to the child is the one a search in action order took.
pub fn actions_between<S: Space>(space: &mut S, states: &[Vec<u32>]) -> Option<Vec<u32>> {
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
pub fn replay<S: Space>(space: &mut S, actions: &[u32]) -> Result<Vec<Vec<u32>>, usize> {
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
