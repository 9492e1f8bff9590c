//! Stage 5: search backends over any [`Space`] of packed states.
//!
//! Backends know nothing of the language: they see a start state, a goal test and
//! successors in a fixed action order, and return the action sequence with statistics.
//! [`BACKENDS`] lists them with what each needs of the rules; [`Backend::run`] runs one
//! after checking what it can check itself. Every backend honours the move limit
//! (`Budget::max_depth`) exactly, and the state, time and memory limits as it goes.

mod astar;
mod bfs;
mod bidir;
mod classes;
mod compound;
pub(crate) mod count;
mod dfs;
mod dijkstra;
pub mod graph;
mod idastar;
mod iddfs;
pub(crate) mod layered;

use crate::engine::budget::UNREACHABLE;
pub use crate::engine::budget::{peak_bytes, Budget, Cutoff, Pacer, Progress, Stats, CHECK_EVERY};
pub use astar::astar;
pub use bfs::bfs;
pub use bidir::bidirectional;
pub use dfs::dfs;
#[cfg(feature = "dist")]
pub(crate) use dijkstra::Tries;
pub use dijkstra::{dijkstra, CostTable, MAX_COMPONENTS};
pub use idastar::idastar;
pub use iddfs::iddfs;

use crate::engine::{Action, Expander, Successors};

/// A search backend of the interpreter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Breadth-first search: [`bfs()`].
    Bfs,
    /// Dijkstra over lexicographic cost vectors: [`dijkstra()`].
    Dijkstra,
    /// A* guided by [`Space::estimate`]: [`astar()`].
    Astar,
    /// Iterative deepening depth-first search: [`iddfs()`].
    Iddfs,
    /// Iterative deepening A* guided by [`Space::estimate`]: [`idastar()`].
    Idastar,
    /// Bidirectional breadth-first search: [`bidirectional`].
    Bidir,
    /// Depth-first search when every solution has the same length: [`dfs()`].
    Dfs,
    /// Dijkstra over the states outer transitions reach, with one piece's moves between
    /// them solved as closures: `layered::layered`.
    Layered,
}

/// What a backend needs of the rules to give exact answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// Nothing: any cost vector.
    Nothing,
    /// Every move costs one unit of a single cost component.
    UnitCosts,
    /// Unit costs, every move undone by a move of the same cost (so successors are also
    /// predecessors), and every goal state enumerated up front.
    Invertible,
    /// Unit costs, and every solution the same length, derived from the rules (every move
    /// removes one copy of a kind whose count the goal fixes).
    Countdown,
    /// A piece that no goal names and that moves alone between the other moves
    /// (`crate::engine::inner`): runs on the interpreter's expander itself.
    InnerSplit,
}

/// One row of [`BACKENDS`].
#[derive(Debug)]
pub struct BackendInfo {
    /// The backend.
    pub backend: Backend,
    /// Its name on the command line (`--search NAME`).
    pub name: &'static str,
    /// What it needs of the rules.
    pub needs: Needs,
    /// Returns the answer the README's tie rule picks among the cheapest; otherwise some
    /// cheapest answer.
    pub tie_rule: bool,
    /// One line for help texts.
    pub summary: &'static str,
}

/// Every search backend, with what it needs. [`Backend::run`] maps each to its function.
pub const BACKENDS: [BackendInfo; 8] = [
    BackendInfo {
        backend: Backend::Bfs,
        name: "bfs",
        needs: Needs::UnitCosts,
        tie_rule: true,
        summary: "breadth-first search: fewest moves, smallest move sequence",
    },
    BackendInfo {
        backend: Backend::Dijkstra,
        name: "dijkstra",
        needs: Needs::Nothing,
        tie_rule: true,
        summary: "Dijkstra over lexicographic cost vectors with the projection tie rule",
    },
    BackendInfo {
        backend: Backend::Astar,
        name: "astar",
        needs: Needs::Nothing,
        tie_rule: true,
        summary: "A* guided by a consistent lower bound on the first cost component",
    },
    BackendInfo {
        backend: Backend::Iddfs,
        name: "iddfs",
        needs: Needs::UnitCosts,
        tie_rule: true,
        summary: "iterative deepening depth-first search: memory for one path and a table",
    },
    BackendInfo {
        backend: Backend::Idastar,
        name: "idastar",
        needs: Needs::UnitCosts,
        tie_rule: true,
        summary: "iterative deepening A* on a lower bound from the rules: memory for one path and a bounded table (auto picks it when the level is too big to store)",
    },
    BackendInfo {
        backend: Backend::Bidir,
        name: "bidir",
        needs: Needs::Invertible,
        tie_rule: false,
        summary: "bidirectional breadth-first search from the start and every goal",
    },
    BackendInfo {
        backend: Backend::Dfs,
        name: "dfs",
        needs: Needs::Countdown,
        tie_rule: true,
        summary: "depth-first search with dead states remembered, when every solution has the same length (auto picks it then)",
    },
    BackendInfo {
        backend: Backend::Layered,
        name: "layered",
        needs: Needs::InnerSplit,
        tie_rule: true,
        summary: "Dijkstra from push to push: one piece no goal names moves between them as a closure (auto picks it when the rules allow)",
    },
];

/// Whether an answer found by the search named `search` (a backend's name, or `fast` for
/// a fast path, which gives the interpreter's answer) is the one the tie rule picks;
/// otherwise it is one optimal answer among several (bidirectional search).
pub fn canonical(search: &str) -> bool {
    Backend::from_name(search).is_none_or(|b| b.info().tie_rule)
}

/// What a backend is given besides the space and the budget.
#[derive(Clone, Copy)]
pub struct Inputs<'a> {
    /// The cost components each action adds to.
    pub costs: &'a CostTable,
    /// Every goal state, for [`Backend::Bidir`]; `None` where they were not enumerated.
    pub goals: Option<&'a [Vec<u32>]>,
    /// The length every solution has, for [`Backend::Dfs`]; `None` when unknown.
    pub length: Option<u32>,
}

/// Why [`Backend::run`] refused to run a backend.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The backend needs unit costs and some action costs otherwise.
    #[error("--search {0} needs moves that all cost one unit of a single cost component")]
    NotUnit(&'static str),
    /// Bidirectional search was not given the goal states.
    #[error("--search bidir needs every goal state to start from")]
    NoGoals,
    /// [`Backend::Dfs`] was run without a proof that every solution has one length.
    #[error("--search dfs needs rules where every move removes one copy of a kind whose count the goal fixes, so every solution has the same length")]
    NoLength,
    /// [`Backend::Layered`] runs on the interpreter's expander, not on any state space.
    #[error("--search layered runs on the interpreter's expander only")]
    ExpanderOnly,
}

impl Backend {
    /// Its row of [`BACKENDS`].
    pub fn info(self) -> &'static BackendInfo {
        BACKENDS
            .iter()
            .find(|b| b.backend == self)
            .expect("every backend has a row")
    }

    /// The backend named `name` on the command line.
    pub fn from_name(name: &str) -> Option<Backend> {
        BACKENDS.iter().find(|b| b.name == name).map(|b| b.backend)
    }

    /// Runs this backend, after checking what it needs that `inputs` can show: unit costs
    /// and the goal states. (That moves are invertible, the caller proves from the rules.)
    pub fn run<S: Space>(
        self,
        space: &mut S,
        budget: &Budget,
        inputs: Inputs<'_>,
    ) -> Result<(Outcome, Stats), Refusal> {
        let info = self.info();
        if !matches!(info.needs, Needs::Nothing | Needs::InnerSplit) && !inputs.costs.unit() {
            return Err(Refusal::NotUnit(info.name));
        }
        space.set_deadline(budget.deadline);
        let result = match self {
            Backend::Bfs => Ok(bfs(space, budget)),
            Backend::Dijkstra => Ok(dijkstra(space, budget, inputs.costs)),
            Backend::Astar => Ok(astar(space, budget, inputs.costs)),
            Backend::Iddfs => Ok(iddfs(space, budget)),
            Backend::Idastar => Ok(idastar(space, budget)),
            Backend::Bidir => inputs
                .goals
                .ok_or(Refusal::NoGoals)
                .map(|g| bidirectional(space, budget, g)),
            Backend::Dfs => inputs
                .length
                .ok_or(Refusal::NoLength)
                .map(|n| dfs(space, budget, n)),
            Backend::Layered => Err(Refusal::ExpanderOnly),
        };
        space.set_deadline(None);
        result
    }
}

/// A state space: what a search backend needs from an expander.
pub trait Space {
    /// Words per state.
    fn words(&self) -> usize;
    /// The range of each word (for dense stores).
    fn radix(&self) -> Vec<u32>;
    /// The start state.
    fn start(&self) -> Vec<u32>;
    /// Whether `s` meets the goal.
    fn is_goal(&self, s: &[u32]) -> bool;
    /// All successors of `s` in increasing action order.
    fn successors(&mut self, s: &[u32], out: &mut Successors);
    /// While a search runs: its deadline, which an expansion that runs long checks as
    /// it goes. Past it, the expansion stops early and reports more work than any
    /// budget check skips (`Successors::units`), so the search's own check ends it
    /// before the partial successors are used. Outside a search: `None`.
    fn set_deadline(&mut self, _deadline: Option<web_time::Instant>) {}
    /// A lower bound on the first cost component still to pay from `s`: 0 on goal
    /// states, and consistent (a move lowers it by at most what it adds to the first
    /// component); `UNREACHABLE` when no goal can be reached. 0 when nothing better is
    /// known.
    fn estimate(&self, _s: &[u32]) -> u32 {
        0
    }
    /// A lower bound on the first cost component still to pay from `s` that need not be
    /// consistent: 0 on goal states and never above what is left to pay (admissible);
    /// `UNREACHABLE` when no goal can be reached. IDA* reads it; by default
    /// [`Space::estimate`].
    fn admissible(&self, s: &[u32]) -> u32 {
        self.estimate(s)
    }
    /// [`Space::estimate`] of `to`, a successor of `from` whose estimate is `h_from` (a
    /// space may reuse `h_from` when the move changed nothing the bound reads).
    fn estimate_next(&self, _from: &[u32], _h_from: u32, to: &[u32]) -> u32 {
        self.estimate(to)
    }
    /// Whether every move flips fixed parts of the state: moves commute and undo
    /// themselves. Then a shortest path never repeats a move, every order of its moves
    /// reaches the same state, and the smallest shortest path is in increasing action
    /// order, so breadth-first search need only extend a path by larger actions.
    fn commuting(&self) -> bool {
        false
    }
    /// All successors of `s` reached by actions larger than `after`, in action order;
    /// by default [`Space::successors`], filtered.
    fn successors_after(&mut self, s: &[u32], after: Action, out: &mut Successors) {
        self.successors(s, out);
        let words = self.words();
        let keep: Vec<usize> = (0..out.len()).filter(|&i| out.actions[i] > after).collect();
        let mut states = Vec::with_capacity(keep.len() * words);
        for &i in &keep {
            states.extend_from_slice(out.state(i, words));
        }
        out.actions = keep.iter().map(|&i| out.actions[i]).collect();
        out.states = states;
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
    #[inline(always)]
    fn is_goal(&self, s: &[u32]) -> bool {
        Expander::is_goal(self, s)
    }
    #[inline]
    fn successors(&mut self, s: &[u32], out: &mut Successors) {
        Expander::successors(self, s, out);
        self.retain_live(s, out);
    }
    fn set_deadline(&mut self, deadline: Option<web_time::Instant>) {
        self.deadline = deadline;
    }
    fn estimate(&self, s: &[u32]) -> u32 {
        Expander::estimate(self, s)
    }
    fn estimate_next(&self, from: &[u32], h_from: u32, to: &[u32]) -> u32 {
        Expander::estimate_next(self, from, h_from, to)
    }
    fn admissible(&self, s: &[u32]) -> u32 {
        Expander::admissible(self, s)
    }
    fn commuting(&self) -> bool {
        Expander::commuting(self)
    }
    fn successors_after(&mut self, s: &[u32], after: Action, out: &mut Successors) {
        Expander::successors_after(self, s, after, out);
        self.retain_live(s, out);
    }
}

/// A solution: the actions taken and every state along the way (start included).
#[derive(Clone, Debug)]
pub struct Path {
    /// The actions, in order.
    pub actions: Vec<Action>,
    /// The states: the start, then the state after each action.
    pub states: Vec<Vec<u32>>,
}

impl Path {
    /// The answer when the start state is already a goal: no moves.
    pub fn at_start(start: Vec<u32>) -> Outcome {
        Outcome::Solved(Path {
            actions: vec![],
            states: vec![start],
        })
    }
}

/// How a search ended.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// A cheapest solution.
    Solved(Path),
    /// Solved, cost only: a fast path asked not to build a path.
    Cost(Vec<u64>),
    /// Every reachable state (within the move limit) was explored; none is a goal.
    Unsolvable,
    /// A limit of the budget was reached first: no answer.
    Cutoff(Cutoff),
}

/// Rebuilds the actions between consecutive states by re-expanding each parent: the
/// lowest action leading to the child is the one a search in action order took. The
/// search is over, so its deadline no longer applies: an expansion cut short by it (a
/// long closure of counted moves) would miss the child.
fn actions_between<S: Space>(space: &mut S, states: &[Vec<u32>]) -> Option<Vec<Action>> {
    space.set_deadline(None);
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

#[cfg(test)]
mod tests;
