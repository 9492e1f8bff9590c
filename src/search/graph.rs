//! The reachable state graph as a petgraph graph, and what a designer wants to know of it.

use std::collections::VecDeque;

use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;

use super::Space;
use crate::engine::{Action, StateStore, Successors};

/// A node: a state, whether it is a goal, and its distance (moves) from the start.
#[derive(Clone, Debug)]
pub struct StateNode {
    pub state: Vec<u32>,
    pub goal: bool,
    pub depth: u32,
}

/// The reachable state graph: node 0 is the start; edges carry actions.
pub struct StateGraph {
    pub graph: DiGraph<StateNode, Action>,
}

/// Building stopped: more reachable states than allowed.
#[derive(Debug, thiserror::Error)]
#[error("the state graph has more than {limit} states; raise --max-states or pick a smaller level")]
pub struct TooLarge {
    pub limit: usize,
}

impl StateGraph {
    /// Explores every state reachable from the start (within the model's move limit when
    /// `max_depth` is set), breadth first.
    pub fn build<S: Space>(
        space: &mut S,
        max_states: usize,
        max_depth: Option<u32>,
    ) -> Result<StateGraph, TooLarge> {
        let words = space.words();
        let mut store = StateStore::hashed(words);
        let mut graph: DiGraph<StateNode, Action> = DiGraph::new();
        let start = space.start();
        let _ = store.insert(&start);
        let goal = space.is_goal(&start);
        graph.add_node(StateNode {
            state: start,
            goal,
            depth: 0,
        });
        let mut queue = VecDeque::from([0u32]);
        let mut succ = Successors::default();
        while let Some(id) = queue.pop_front() {
            let node = &graph[NodeIndex::new(id as usize)];
            if max_depth.is_some_and(|m| node.depth >= m) {
                continue;
            }
            let (state, depth) = (node.state.clone(), node.depth);
            space.successors(&state, &mut succ);
            for k in 0..succ.len() {
                let s = succ.state(k, words);
                let to = match store.insert(s) {
                    Ok(j) => {
                        if graph.node_count() >= max_states {
                            return Err(TooLarge { limit: max_states });
                        }
                        let goal = space.is_goal(s);
                        graph.add_node(StateNode {
                            state: s.to_vec(),
                            goal,
                            depth: depth + 1,
                        });
                        queue.push_back(j);
                        j
                    }
                    Err(j) => j,
                };
                graph.add_edge(
                    NodeIndex::new(id as usize),
                    NodeIndex::new(to as usize),
                    succ.actions[k],
                );
            }
        }
        Ok(StateGraph { graph })
    }

    /// Nodes from which some goal is reachable.
    pub fn live(&self) -> Vec<bool> {
        let g = &self.graph;
        let mut live = vec![false; g.node_count()];
        let mut queue: VecDeque<NodeIndex> = g.node_indices().filter(|&n| g[n].goal).collect();
        for &n in &queue {
            live[n.index()] = true;
        }
        while let Some(n) = queue.pop_front() {
            for e in g.edges_directed(n, Direction::Incoming) {
                let p = e.source();
                if !live[p.index()] {
                    live[p.index()] = true;
                    queue.push_back(p);
                }
            }
        }
        live
    }

    /// The edges of one shortest (fewest moves) path from the start to the nearest goal.
    pub fn shortest_path_edges(&self) -> Vec<petgraph::graph::EdgeIndex> {
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
    pub reachable_states: usize,
    pub transitions: usize,
    pub goal_states: usize,
    /// States from which no goal can be reached.
    pub dead_states: usize,
    /// Moves from a state that can still win into a dead state.
    pub moves_into_dead_states: usize,
    pub strongly_connected_components: usize,
    pub largest_component: usize,
    /// Every move can be undone by some sequence of moves.
    pub reversible: bool,
    /// `states_at_distance[d]`: how many states are first reached after `d` moves.
    pub states_at_distance: Vec<usize>,
    /// Fewest moves to a goal, if any.
    pub optimal_moves: Option<u32>,
    /// Distinct move sequences of that length reaching a goal (saturating).
    pub optimal_solutions: Option<u128>,
    /// Moves to the farthest reachable state.
    pub farthest_distance: u32,
}

impl StateGraph {
    pub fn analyze(&self) -> Analysis {
        let g = &self.graph;
        let n = g.node_count();
        let live = self.live();
        let dead = live.iter().filter(|&&l| !l).count();
        let into_dead = g
            .edge_references()
            .filter(|e| live[e.source().index()] && !live[e.target().index()])
            .count();
        let sccs = petgraph::algo::kosaraju_scc(g);
        let mut comp = vec![0usize; n];
        for (i, c) in sccs.iter().enumerate() {
            for v in c {
                comp[v.index()] = i;
            }
        }
        let reversible = g
            .edge_references()
            .all(|e| comp[e.source().index()] == comp[e.target().index()]);
        let farthest = g.node_weights().map(|w| w.depth).max().unwrap_or(0);
        let mut layers = vec![0usize; farthest as usize + 1];
        for w in g.node_weights() {
            layers[w.depth as usize] += 1;
        }
        let optimal = g.node_weights().filter(|w| w.goal).map(|w| w.depth).min();
        // Shortest-path counts over the layered DAG of depth-increasing edges.
        let optimal_solutions = optimal.map(|best| {
            let mut ways = vec![0u128; n];
            ways[0] = 1;
            let mut order: Vec<NodeIndex> = g.node_indices().collect();
            order.sort_by_key(|&v| g[v].depth);
            for v in order {
                if g[v].depth >= best {
                    continue;
                }
                let w = ways[v.index()];
                for e in g.edges(v) {
                    if g[e.target()].depth == g[v].depth + 1 {
                        ways[e.target().index()] = ways[e.target().index()].saturating_add(w);
                    }
                }
            }
            g.node_indices()
                .filter(|&v| g[v].goal && g[v].depth == best)
                .fold(0u128, |acc, v| acc.saturating_add(ways[v.index()]))
        });
        Analysis {
            reachable_states: n,
            transitions: g.edge_count(),
            goal_states: g.node_weights().filter(|w| w.goal).count(),
            dead_states: dead,
            moves_into_dead_states: into_dead,
            strongly_connected_components: sccs.len(),
            largest_component: sccs.iter().map(Vec::len).max().unwrap_or(0),
            reversible,
            states_at_distance: layers,
            optimal_moves: optimal,
            optimal_solutions,
            farthest_distance: farthest,
        }
    }
}
