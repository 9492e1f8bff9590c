//! Cheapest paths under lexicographic cost vectors, with the projection tie rule.
//!
//! Every move adds 0 or 1 to each cost component and at least 1 to some component
//! (the checker enforces both). States are settled bucket by bucket in lexicographic cost
//! order; since every move costs something, a bucket's labels are final before it is
//! expanded. Among equal costs a label is better when, for the first component where
//! they differ, its *projection* (the subsequence of moves that add to that component,
//! compared by action number) is lexicographically smaller. Extending two paths of equal
//! cost by the same move keeps their order, so keeping the best label per state is exact.
//!
//! Projections are interned as nodes of one trie per component; comparing two nodes of
//! equal depth walks up to where they diverge.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

use super::{Budget, Cutoff, Outcome, Path, Space, Stats};
use crate::compile::{DirId, MoveId};
use crate::engine::{Action, StateStore, Successors};

/// Which cost components each move adds one to.
pub struct CostTable {
    /// Cost components.
    pub components: usize,
    /// `adds[move * components + i]` is 0 or 1.
    pub adds: Vec<u8>,
}

impl CostTable {
    fn adds(&self, action: Action, i: usize) -> bool {
        self.adds[action.mv().index() * self.components + i] != 0
    }
}

/// The letter of the root of a trie, never compared.
const ROOT: Action = Action::new(MoveId(0), DirId(0));

/// One tree of projections per cost component: node 0 is the empty projection. Nodes are
/// not shared, so two nodes may spell the same projection; comparison copes with that.
struct Tries {
    /// Per component: (parent, letter) of each node.
    nodes: Vec<Vec<(u32, Action)>>,
}

impl Tries {
    fn new(components: usize) -> Tries {
        Tries {
            nodes: vec![vec![(u32::MAX, ROOT)]; components],
        }
    }

    fn child(&mut self, i: usize, parent: u32, letter: Action) -> u32 {
        let nodes = &mut self.nodes[i];
        nodes.push((parent, letter));
        (nodes.len() - 1) as u32
    }

    /// Orders two nodes of equal depth of component `i`.
    fn cmp(&self, i: usize, mut a: u32, mut b: u32) -> std::cmp::Ordering {
        let nodes = &self.nodes[i];
        let mut last = std::cmp::Ordering::Equal;
        while a != b && a != u32::MAX {
            let (pa, la) = nodes[a as usize];
            let (pb, lb) = nodes[b as usize];
            if la != lb {
                last = la.cmp(&lb);
            }
            a = pa;
            b = pb;
        }
        last
    }

    /// Orders the projection `(parent, letter)` (or `parent` itself when `letter` is
    /// `None`) against node `b`, both of equal depth.
    fn cmp_ext(&self, i: usize, parent: u32, letter: Option<Action>, b: u32) -> std::cmp::Ordering {
        match letter {
            None => self.cmp(i, parent, b),
            Some(l) => {
                let (pb, lb) = self.nodes[i][b as usize];
                self.cmp(i, parent, pb).then(l.cmp(&lb))
            }
        }
    }
}

/// Per-state labels, indexed by state id.
struct Labels {
    components: usize,
    /// Packed cost vector (32 bits per component, most significant first).
    cost: Vec<u128>,
    node: Vec<u32>,
    parent: Vec<u32>,
    action: Vec<Action>,
    depth: Vec<u32>,
    done: Vec<bool>,
}

impl Labels {
    fn ensure(&mut self, id: usize) {
        if id >= self.parent.len() {
            let n = (id + 1).max(self.parent.len() * 2);
            self.cost.resize(n, u128::MAX);
            self.node.resize(n * self.components, 0);
            self.parent.resize(n, u32::MAX);
            self.action.resize(n, ROOT);
            self.depth.resize(n, 0);
            self.done.resize(n, false);
        }
    }
}

/// Most cost components a packed cost holds.
pub use crate::check::limits::MAX_COST_COMPONENTS as MAX_COMPONENTS;

/// Dijkstra over lexicographic cost vectors with the projection tie rule.
pub fn dijkstra<S: Space>(space: &mut S, budget: &Budget, table: &CostTable) -> (Outcome, Stats) {
    assert!(
        table.components <= MAX_COMPONENTS,
        "checked: at most four cost components"
    );
    let t0 = Instant::now();
    let words = space.words();
    let nc = table.components;
    // The packed increment of each move.
    let inc: Vec<u128> = (0..table.adds.len() / nc)
        .map(|a| (0..nc).fold(0u128, |acc, i| acc << 32 | table.adds[a * nc + i] as u128))
        .collect();
    let mut stats = Stats::default();
    let radix = space.radix();
    let dense_ok = radix
        .iter()
        .try_fold(1u64, |a, &r| a.checked_mul(r as u64))
        .is_some_and(|t| t <= 1 << 20);
    let mut store = if dense_ok {
        StateStore::new(&radix)
    } else {
        StateStore::hashed(words)
    };
    let mut labels = Labels {
        components: nc,
        cost: vec![],
        node: vec![],
        parent: vec![],
        action: vec![],
        depth: vec![],
        done: vec![],
    };
    let mut tries = Tries::new(nc);
    let start = space.start();
    let sid = match store.insert(&start) {
        Ok(i) | Err(i) => i as usize,
    };
    labels.ensure(sid);
    labels.cost[sid] = 0;
    let mut heap: BinaryHeap<Reverse<(u128, u32)>> = BinaryHeap::new();
    heap.push(Reverse((0, sid as u32)));
    let mut cur = vec![0u32; words];
    let mut succ = Successors::default();
    let finish = |stats: &mut Stats, store: &StateStore, t0: Instant| {
        stats.stored = store.len() as u64;
        stats.store_bytes = store.bytes() as u64;
        stats.elapsed = t0.elapsed();
    };
    while let Some(Reverse((cost, id))) = heap.pop() {
        let i = id as usize;
        if labels.done[i] || labels.cost[i] != cost {
            continue;
        }
        store.load(id, &mut cur);
        if space.is_goal(&cur) {
            // Every label of this cost is final: the best goal among them wins.
            let mut best = i;
            while let Some(&Reverse((c, j))) = heap.peek() {
                if c != cost {
                    break;
                }
                heap.pop();
                let j = j as usize;
                if labels.cost[j] != cost || j == best {
                    continue;
                }
                store.load(j as u32, &mut cur);
                if space.is_goal(&cur)
                    && label_cmp(&labels, &tries, j, best) == std::cmp::Ordering::Less
                {
                    best = j;
                }
            }
            let path = rebuild(&store, &labels, best, words);
            finish(&mut stats, &store, t0);
            return (Outcome::Solved(path), stats);
        }
        labels.done[i] = true;
        if budget.max_depth.is_some_and(|m| labels.depth[i] >= m) {
            continue;
        }
        if stats.expanded.is_multiple_of(super::CHECK_EVERY) {
            if let Some(c) = budget.check(&stats) {
                finish(&mut stats, &store, t0);
                return (Outcome::Cutoff(c), stats);
            }
        }
        space.successors(&cur, &mut succ);
        stats.expanded += 1;
        stats.generated += succ.len() as u64;
        for k in 0..succ.len() {
            let a = succ.actions[k];
            let cand = cost + inc[a.mv().index()];
            let j = match store.insert(succ.state(k, words)) {
                Ok(j) | Err(j) => j as usize,
            };
            labels.ensure(j);
            if labels.done[j] || cand > labels.cost[j] {
                continue;
            }
            if cand == labels.cost[j] {
                let mut ord = std::cmp::Ordering::Equal;
                for c in 0..nc {
                    let letter = table.adds(a, c).then_some(a);
                    ord =
                        tries.cmp_ext(c, labels.node[i * nc + c], letter, labels.node[j * nc + c]);
                    if ord != std::cmp::Ordering::Equal {
                        break;
                    }
                }
                if ord != std::cmp::Ordering::Less {
                    continue;
                }
            } else {
                heap.push(Reverse((cand, j as u32)));
            }
            labels.cost[j] = cand;
            for c in 0..nc {
                let p = labels.node[i * nc + c];
                labels.node[j * nc + c] = if table.adds(a, c) {
                    tries.child(c, p, a)
                } else {
                    p
                };
            }
            labels.parent[j] = i as u32;
            labels.action[j] = a;
            labels.depth[j] = labels.depth[i] + 1;
        }
        stats.peak_frontier = stats.peak_frontier.max(heap.len() as u64);
        if budget.max_states.is_some_and(|m| store.len() >= m) {
            finish(&mut stats, &store, t0);
            return (
                Outcome::Cutoff(Cutoff::States(budget.max_states.unwrap_or_default())),
                stats,
            );
        }
    }
    finish(&mut stats, &store, t0);
    (Outcome::Unsolvable, stats)
}

/// Orders the labels of two states of equal cost by their projections.
fn label_cmp(labels: &Labels, tries: &Tries, a: usize, b: usize) -> std::cmp::Ordering {
    let nc = labels.components;
    for c in 0..nc {
        let o = tries.cmp(c, labels.node[a * nc + c], labels.node[b * nc + c]);
        if o != std::cmp::Ordering::Equal {
            return o;
        }
    }
    std::cmp::Ordering::Equal
}

fn rebuild(store: &StateStore, labels: &Labels, goal: usize, words: usize) -> Path {
    super::path_from_parents(store, &labels.parent, &labels.action, goal, words)
}
