//! The reachable state graph as a petgraph graph, and what a designer wants to know of it.
//!
//! Building, analysis and export run under the same [`Budget`] as a search: the state
//! limit bounds the graph (refused with [`GraphError::TooLarge`]), the deadline and the
//! memory limit are checked as the work goes, in every phase.

use std::collections::VecDeque;

use petgraph::graph::{DiGraph, EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;

use super::count::Count;
use super::{Budget, Cutoff, Pacer, Space, Stats};
use crate::engine::{Action, StateStore, Successors};

/// A node: whether its state is a goal, and its distance (moves) from the start. The
/// state itself lives in the graph's store ([`StateGraph::state`]).
#[derive(Clone, Copy, Debug)]
pub struct StateNode {
    /// The state meets the goal.
    pub goal: bool,
    /// Fewest moves from the start.
    pub depth: u32,
}

/// The reachable state graph: node 0 is the start; edges carry action numbers. Nodes are
/// numbered in breadth-first order, so a node's depth never decreases with its index.
pub struct StateGraph {
    /// Nodes and edges.
    pub graph: DiGraph<StateNode, Action>,
    /// State `i` is node `i`'s.
    store: StateStore,
    words: usize,
}

/// Why a state graph was not built, analyzed or exported.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum GraphError {
    /// More reachable states than the state limit.
    #[error(
        "the state graph has more than {limit} states; raise --max-states or pick a smaller level"
    )]
    #[diagnostic(code(puz::graph::too_many_states))]
    TooLarge {
        /// The state limit.
        limit: usize,
    },
    /// The deadline or the memory limit was reached.
    #[error("building the state graph stopped: {0}")]
    #[diagnostic(code(puz::graph::stopped))]
    Cutoff(Cutoff),
}

impl From<Cutoff> for GraphError {
    fn from(c: Cutoff) -> GraphError {
        match c {
            Cutoff::States(limit) => GraphError::TooLarge { limit },
            c => GraphError::Cutoff(c),
        }
    }
}

impl StateGraph {
    /// Explores every state reachable from the start, breadth first, within the move
    /// limit `budget.max_depth` when set. More than `budget.max_states` states (unbounded
    /// when unset) is [`GraphError::TooLarge`]; the deadline and memory limit are
    /// [`GraphError::Cutoff`].
    pub fn build<S: Space>(space: &mut S, budget: &Budget) -> Result<StateGraph, GraphError> {
        let words = space.words();
        let mut store = StateStore::hashed(words);
        let mut graph: DiGraph<StateNode, Action> = DiGraph::new();
        let start = space.start();
        let _ = store.insert(&start);
        graph.add_node(StateNode {
            goal: space.is_goal(&start),
            depth: 0,
        });
        let mut pacer = Pacer::default();
        space.set_deadline(budget.deadline);
        let built = Self::explore(space, budget, store, graph, &mut pacer);
        space.set_deadline(None);
        built
    }

    /// [`Self::build`] from the start node on.
    fn explore<S: Space>(
        space: &mut S,
        budget: &Budget,
        mut store: StateStore,
        mut graph: DiGraph<StateNode, Action>,
        pacer: &mut Pacer,
    ) -> Result<StateGraph, GraphError> {
        let words = space.words();
        let max_states = budget.max_states.unwrap_or(usize::MAX);
        let mut cur = vec![0u32; words];
        let mut succ = Successors::default();
        // The counters the progress callback is told (`stored`: the nodes so far).
        let mut stats = Stats::default();
        // Breadth first: nodes are queued in index order, so the queue is a counter.
        let mut next = 0usize;
        while next < graph.node_count() {
            let id = next;
            next += 1;
            let depth = graph[NodeIndex::new(id)].depth;
            if budget.max_depth.is_some_and(|m| depth >= m) {
                continue;
            }
            store.load(id as u32, &mut cur);
            space.successors(&cur, &mut succ);
            stats.expanded += 1;
            stats.generated += succ.len() as u64;
            stats.stored = graph.node_count() as u64;
            if let Err(c) = pacer.tick_with(succ.units(), budget, &stats) {
                // The counters where the build stopped, for a caller that reports them.
                if let Some(p) = &budget.progress {
                    p(&stats);
                }
                return Err(c.into());
            }
            for k in 0..succ.len() {
                let s = succ.state(k, words);
                let to = match store.insert(s) {
                    Ok(j) => {
                        if graph.node_count() >= max_states {
                            return Err(GraphError::TooLarge { limit: max_states });
                        }
                        graph.add_node(StateNode {
                            goal: space.is_goal(s),
                            depth: depth + 1,
                        });
                        j
                    }
                    Err(j) => j,
                };
                graph.add_edge(
                    NodeIndex::new(id),
                    NodeIndex::new(to as usize),
                    succ.actions[k],
                );
            }
        }
        Ok(StateGraph {
            graph,
            store,
            words,
        })
    }

    /// The state of node `n`.
    pub fn state(&self, n: NodeIndex) -> Vec<u32> {
        let mut s = vec![0; self.words];
        self.store.load(n.index() as u32, &mut s);
        s
    }

    /// Nodes from which some goal is reachable, by a breadth-first search backwards
    /// from the goals over `into` (each node's predecessors).
    fn live(&self, into: &Adjacency, budget: &Budget) -> Result<Vec<bool>, Cutoff> {
        let g = &self.graph;
        let mut pacer = Pacer::default();
        let mut live = vec![false; g.node_count()];
        let mut queue: VecDeque<u32> = g
            .node_indices()
            .filter(|&n| g[n].goal)
            .map(|n| n.index() as u32)
            .collect();
        for &n in &queue {
            live[n as usize] = true;
        }
        while let Some(n) = queue.pop_front() {
            pacer.tick(1, budget)?;
            for &p in into.of(n) {
                if !live[p as usize] {
                    live[p as usize] = true;
                    queue.push_back(p);
                }
            }
        }
        Ok(live)
    }

    /// The edges of one shortest (fewest moves) path from the start to the nearest goal:
    /// the goal of lowest index, then from each node the incoming edge from the parent of
    /// lowest index and lowest action.
    pub fn shortest_path_edges(&self) -> Vec<EdgeIndex> {
        let g = &self.graph;
        let Some(goal) = g
            .node_indices()
            .filter(|&n| g[n].goal)
            .min_by_key(|&n| (g[n].depth, n.index()))
        else {
            return vec![];
        };
        let mut out = vec![];
        let mut at = goal;
        while g[at].depth > 0 {
            let e = g
                .edges_directed(at, Direction::Incoming)
                .filter(|e| g[e.source()].depth + 1 == g[at].depth)
                .min_by_key(|e| (e.source().index(), *e.weight()))
                .expect("a node at depth d > 0 has a parent at depth d - 1");
            out.push(e.id());
            at = e.source();
        }
        out.reverse();
        out
    }
}

/// Figures about a level's state graph.
#[derive(Debug, serde::Serialize)]
pub struct Analysis {
    /// States reachable from the start (within the move limit).
    pub reachable_states: usize,
    /// Moves between them.
    pub transitions: usize,
    /// Reachable states that meet the goal.
    pub goal_states: usize,
    /// States from which no goal can be reached.
    pub dead_states: usize,
    /// Moves from a state that can still win into a dead state.
    pub moves_into_dead_states: usize,
    /// Strongly connected components of the graph.
    pub strongly_connected_components: usize,
    /// States in the largest of them.
    pub largest_component: usize,
    /// Every move can be undone by some sequence of moves.
    pub reversible: bool,
    /// `states_at_distance[d]`: how many states are first reached after `d` moves.
    pub states_at_distance: Vec<usize>,
    /// Fewest moves to a goal, if any.
    pub optimal_moves: Option<u32>,
    /// Distinct move sequences of that length reaching a goal, exact. In JSON a number,
    /// or a string of decimal digits when it exceeds 2^128.
    pub optimal_solutions: Option<Count>,
    /// Moves to the farthest reachable state.
    pub farthest_distance: u32,
}

impl StateGraph {
    /// For each node, whether no goal can be reached from it (the playground colours the
    /// dead nodes of a small graph).
    pub fn dead_nodes(&self, budget: &Budget) -> Result<Vec<bool>, Cutoff> {
        let (_, into) = Adjacency::both(&self.graph);
        Ok(self.live(&into, budget)?.into_iter().map(|l| !l).collect())
    }

    /// Computes the [`Analysis`], checking the budget's deadline and memory limit as it
    /// goes.
    pub fn analyze(&self, budget: &Budget) -> Result<Analysis, Cutoff> {
        let g = &self.graph;
        let mut pacer = Pacer::default();
        budget.room_for(8 * (g.node_count() + 1 + g.edge_count()) as u64)?;
        let (from, into) = Adjacency::both(g);
        pacer.tick(2 * g.edge_count() as u64, budget)?;
        let live = self.live(&into, budget)?;
        drop(into);
        let dead = live.iter().filter(|&&l| !l).count();
        let into_dead = g
            .edge_references()
            .filter(|e| live[e.source().index()] && !live[e.target().index()])
            .count();
        let comp = components(&from, budget)?;
        let count = comp.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
        let mut sizes = vec![0usize; count];
        for &c in &comp {
            sizes[c as usize] += 1;
        }
        pacer.tick(g.edge_count() as u64, budget)?;
        let reversible = g
            .edge_references()
            .all(|e| comp[e.source().index()] == comp[e.target().index()]);
        let farthest = g.node_weights().map(|w| w.depth).max().unwrap_or(0);
        let mut layers = vec![0usize; farthest as usize + 1];
        for w in g.node_weights() {
            layers[w.depth as usize] += 1;
        }
        let optimal = g.node_weights().filter(|w| w.goal).map(|w| w.depth).min();
        let optimal_solutions = match optimal {
            Some(best) => Some(self.count_shortest(&from, best, budget)?),
            None => None,
        };
        Ok(Analysis {
            reachable_states: g.node_count(),
            transitions: g.edge_count(),
            goal_states: g.node_weights().filter(|w| w.goal).count(),
            dead_states: dead,
            moves_into_dead_states: into_dead,
            strongly_connected_components: count,
            largest_component: sizes.iter().copied().max().unwrap_or(0),
            reversible,
            states_at_distance: layers,
            optimal_moves: optimal,
            optimal_solutions,
            farthest_distance: farthest,
        })
    }

    /// Distinct move sequences of `best` moves from the start to a goal at depth `best`:
    /// path counts over the layered graph of depth-increasing edges, in `u128` while they
    /// fit and exactly beyond.
    fn count_shortest(
        &self,
        from: &Adjacency,
        best: u32,
        budget: &Budget,
    ) -> Result<Count, Cutoff> {
        match self.count_with::<u128>(from, best, budget)? {
            Some(n) => Ok(Count::from(n)),
            None => Ok(self
                .count_with::<Count>(from, best, budget)?
                .expect("exact counts never overflow")),
        }
    }

    /// [`Self::count_shortest`] in the number type `N`; `None` when it overflows.
    fn count_with<N: Ways>(
        &self,
        from: &Adjacency,
        best: u32,
        budget: &Budget,
    ) -> Result<Option<N>, Cutoff> {
        let g = &self.graph;
        let mut pacer = Pacer::default();
        let mut ways: Vec<N> = vec![N::zero(); g.node_count()];
        ways[0] = N::one();
        // Breadth-first numbering: every edge that goes one layer deeper points to a
        // higher index, so one pass in index order sees each node's count complete.
        let mut total = N::zero();
        for v in g.node_indices() {
            let depth = g[v].depth;
            if depth > best {
                break;
            }
            if depth == best {
                if g[v].goal && !total.add(&ways[v.index()]) {
                    return Ok(None);
                }
                continue;
            }
            pacer.tick(1, budget)?;
            let w = std::mem::replace(&mut ways[v.index()], N::zero());
            for &t in from.of(v.index() as u32) {
                let t = t as usize;
                if g[NodeIndex::new(t)].depth == depth + 1 && !ways[t].add(&w) {
                    return Ok(None);
                }
            }
        }
        Ok(Some(total))
    }
}

/// A number of paths: added to, reporting overflow.
trait Ways: Clone {
    fn zero() -> Self;
    fn one() -> Self;
    /// Adds `other`; false on overflow.
    fn add(&mut self, other: &Self) -> bool;
}

impl Ways for u128 {
    fn zero() -> u128 {
        0
    }
    fn one() -> u128 {
        1
    }
    fn add(&mut self, other: &u128) -> bool {
        match self.checked_add(*other) {
            Some(s) => {
                *self = s;
                true
            }
            None => false,
        }
    }
}

impl Ways for Count {
    fn zero() -> Count {
        Count::from(0u128)
    }
    fn one() -> Count {
        Count::from(1u128)
    }
    fn add(&mut self, other: &Count) -> bool {
        *self += other;
        true
    }
}

/// A graph's edges as compact arrays: per node, its neighbours on one side, in edge
/// order. Walking them reads memory in order, where petgraph's per-node edge lists jump
/// (incoming edges of a node were added from all over the graph).
struct Adjacency {
    /// `start[v]..start[v + 1]` indexes `next` for node `v`.
    start: Vec<u32>,
    next: Vec<u32>,
}

impl Adjacency {
    /// The successors and the predecessors of every node of `g`.
    fn both(g: &DiGraph<StateNode, Action>) -> (Adjacency, Adjacency) {
        let pairs = || g.raw_edges().iter().map(|e| (e.source(), e.target()));
        let from = Adjacency::new(g.node_count(), pairs().map(|(a, b)| (a.index(), b.index())));
        let into = Adjacency::new(g.node_count(), pairs().map(|(a, b)| (b.index(), a.index())));
        (from, into)
    }

    /// Adjacency of `n` nodes from `(node, neighbour)` pairs, by a counting sort.
    fn new(n: usize, pairs: impl Iterator<Item = (usize, usize)> + Clone) -> Adjacency {
        let mut start = vec![0u32; n + 1];
        for (a, _) in pairs.clone() {
            start[a + 1] += 1;
        }
        for v in 0..n {
            start[v + 1] += start[v];
        }
        let mut fill = start.clone();
        let mut next = vec![0u32; start[n] as usize];
        for (a, b) in pairs {
            next[fill[a] as usize] = b as u32;
            fill[a] += 1;
        }
        Adjacency { start, next }
    }

    /// The neighbours of node `v`.
    #[inline]
    fn of(&self, v: u32) -> &[u32] {
        &self.next[self.start[v as usize] as usize..self.start[v as usize + 1] as usize]
    }

    /// The number of nodes.
    fn nodes(&self) -> usize {
        self.start.len() - 1
    }
}

/// The strongly connected component of every node (numbered from 0), by an iterative
/// Tarjan search over the successor arrays that checks the budget as it goes.
fn components(from: &Adjacency, budget: &Budget) -> Result<Vec<u32>, Cutoff> {
    const NONE: u32 = u32::MAX;
    let n = from.nodes();
    let mut pacer = Pacer::default();
    let mut index = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut comp = vec![NONE; n];
    let mut stack: Vec<u32> = vec![];
    let mut next_index = 0u32;
    let mut next_comp = 0u32;
    // Call frames: a node and the position in `from.next` of the next edge to look at.
    let mut frames: Vec<(u32, u32)> = vec![];
    for root in 0..n as u32 {
        if index[root as usize] != NONE {
            continue;
        }
        let visit = |v: u32, index: &mut [u32], low: &mut [u32], next: &mut u32| {
            index[v as usize] = *next;
            low[v as usize] = *next;
            *next += 1;
        };
        visit(root, &mut index, &mut low, &mut next_index);
        stack.push(root);
        on_stack[root as usize] = true;
        frames.push((root, from.start[root as usize]));
        while let Some((v, at)) = frames.last_mut() {
            let v = *v;
            pacer.tick(1, budget)?;
            if *at < from.start[v as usize + 1] {
                let w = from.next[*at as usize];
                *at += 1;
                if index[w as usize] == NONE {
                    visit(w, &mut index, &mut low, &mut next_index);
                    stack.push(w);
                    on_stack[w as usize] = true;
                    frames.push((w, from.start[w as usize]));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
            } else {
                frames.pop();
                if let Some(&(parent, _)) = frames.last() {
                    low[parent as usize] = low[parent as usize].min(low[v as usize]);
                }
                if low[v as usize] == index[v as usize] {
                    loop {
                        let w = stack.pop().expect("v is on the stack");
                        on_stack[w as usize] = false;
                        comp[w as usize] = next_comp;
                        if w == v {
                            break;
                        }
                    }
                    next_comp += 1;
                }
            }
        }
    }
    Ok(comp)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A graph from an edge list, every node at depth 0 (enough for components).
    fn graph(n: usize, edges: &[(u32, u32)]) -> DiGraph<StateNode, Action> {
        let mut g = DiGraph::new();
        for _ in 0..n {
            g.add_node(StateNode {
                goal: false,
                depth: 0,
            });
        }
        for &(a, b) in edges {
            let any = Action::new(crate::compile::MoveId(0), crate::compile::DirId(0));
            g.add_edge(NodeIndex::new(a as usize), NodeIndex::new(b as usize), any);
        }
        g
    }

    fn partition(comp: &[u32]) -> Vec<Vec<usize>> {
        let mut groups: std::collections::BTreeMap<u32, Vec<usize>> = Default::default();
        for (v, &c) in comp.iter().enumerate() {
            groups.entry(c).or_default().push(v);
        }
        let mut out: Vec<Vec<usize>> = groups.into_values().collect();
        out.sort();
        out
    }

    #[test]
    fn components_match_petgraph() {
        let mut rng = 0x2545f4914f6cdd1du64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for _ in 0..200 {
            let n = (next() % 12 + 1) as usize;
            let m = next() % 30;
            let edges: Vec<(u32, u32)> = (0..m)
                .map(|_| ((next() % n as u64) as u32, (next() % n as u64) as u32))
                .collect();
            let g = graph(n, &edges);
            let (from, _) = Adjacency::both(&g);
            let ours = partition(&components(&from, &Budget::default()).expect("no budget"));
            let mut theirs: Vec<Vec<usize>> = petgraph::algo::kosaraju_scc(&g)
                .into_iter()
                .map(|c| {
                    let mut c: Vec<usize> = c.into_iter().map(|v| v.index()).collect();
                    c.sort();
                    c
                })
                .collect();
            theirs.sort();
            assert_eq!(ours, theirs, "edges {edges:?}");
        }
    }

    #[test]
    fn a_long_cycle_does_not_overflow_the_stack() {
        let n = 200_000u32;
        let edges: Vec<(u32, u32)> = (0..n).map(|v| (v, (v + 1) % n)).collect();
        let (from, _) = Adjacency::both(&graph(n as usize, &edges));
        let comp = components(&from, &Budget::default()).expect("no budget");
        assert!(comp.iter().all(|&c| c == comp[0]));
    }
}
