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

pub use astar::{astar, UNREACHABLE};
pub use bfs::bfs;
pub use bidir::bidirectional;
pub use dijkstra::{dijkstra, CostTable, MAX_COMPONENTS};
pub use iddfs::iddfs;

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

/// Called now and then during a search with the counters so far (for progress bars).
pub type Progress = std::sync::Arc<dyn Fn(&Stats) + Send + Sync>;

/// Bounds on one search. A search that hits one stops with [`Outcome::Cutoff`].
#[derive(Clone, Default)]
pub struct Budget {
    /// Stop after storing this many states.
    pub max_states: Option<usize>,
    /// Stop at this time.
    pub deadline: Option<Instant>,
    /// Stop when the process's resident memory exceeds this many bytes.
    pub max_bytes: Option<u64>,
    /// Never make more than this many moves (a rule of the puzzle, not a budget).
    pub max_depth: Option<u32>,
    /// Told of progress every few thousand expansions.
    pub progress: Option<Progress>,
}

impl std::fmt::Debug for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Budget")
            .field("max_states", &self.max_states)
            .field("deadline", &self.deadline)
            .field("max_bytes", &self.max_bytes)
            .field("max_depth", &self.max_depth)
            .finish()
    }
}

/// How often (in expansions) searches look at the clock, memory and progress.
pub const CHECK_EVERY: u64 = 4096;

impl Budget {
    /// The slow checks (time, memory, progress), meant for every [`CHECK_EVERY`] expansions.
    pub fn check(&self, stats: &Stats) -> Option<Cutoff> {
        if let Some(p) = &self.progress {
            p(stats);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Cutoff::Time);
        }
        if let Some(max) = self.max_bytes {
            if resident_bytes().is_some_and(|b| b > max) {
                return Some(Cutoff::Memory(max));
            }
        }
        None
    }
}

/// The process's resident memory now, where the system tells it (Linux).
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// The process's peak resident memory so far, where the system tells it (Linux).
pub fn peak_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
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
    /// Resident memory passed this many bytes.
    Memory(u64),
}

impl std::fmt::Display for Cutoff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cutoff::States(n) => write!(f, "the state limit of {n} states was reached"),
            Cutoff::Time => write!(f, "the time limit was reached"),
            Cutoff::Memory(b) => write!(f, "the memory limit of {} MiB was reached", b >> 20),
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

/// The path to state `goal` from per-id parent and action arrays (`u32::MAX` parent at
/// the start).
pub fn path_from_parents(
    store: &crate::engine::StateStore,
    parent: &[u32],
    action: &[u32],
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
