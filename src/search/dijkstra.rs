//! Cheapest paths under lexicographic cost vectors, with the projection tie rule.
//!
//! Every move adds 0 or 1 to each cost component and at least 1 to some component
//! (the checker enforces both). Labels (a path's cost vector and projections) are settled
//! bucket by bucket in lexicographic cost order; since every move costs something, a
//! bucket's labels are final before it is expanded. Among equal costs a label is better
//! when, for the first component where they differ, its *projection* (the subsequence of
//! moves that add to that component, compared by action number) is lexicographically
//! smaller. Extending two paths of equal cost by the same move keeps their order.
//!
//! Without a move limit that makes one label per state exact. Under a move limit it does
//! not: a cheaper label may have used more moves and be unable to finish within the limit
//! where a dearer, shorter one could. So under a limit the search runs over pairs (state,
//! moves made), one label each: the same argument makes that exact. To keep it small, a
//! label is dropped when a label of the same state with no more moves is already settled
//! and is cheaper, or as cheap and no worse by the tie rule: every continuation of the
//! dropped label is open to the settled one, at lower or equal cost. Comparing with the
//! settled label of fewest moves alone keeps the test cheap; it never drops a label that
//! could still win.
//!
//! Projections are interned as nodes of one trie per component; comparing two nodes of
//! equal depth walks up to where they diverge.
//!
//! The same search, ordered by a consistent bound on the first component, is A*
//! ([`super::astar()`], whose header proves it exact under the tie rule): [`labelled`]
//! runs both, Dijkstra being the bound 0.

use std::collections::BTreeMap;
use web_time::Instant;

use hashbrown::HashMap;

use super::{Budget, Cutoff, Outcome, Pacer, Path, Space, Stats, UNREACHABLE};
use crate::compile::{DirId, MoveId};
use crate::engine::{Action, StateStore, Successors};

/// Which cost components each move adds one to.
pub struct CostTable {
    /// Cost components (at least one: moves count as one when no cost is declared).
    pub components: usize,
    /// `adds[move * components + i]` is 0 or 1.
    pub adds: Vec<u8>,
}

impl CostTable {
    /// Every move costs one unit of a single component: fewest moves is cheapest.
    pub fn unit(&self) -> bool {
        self.components == 1 && self.adds.iter().all(|&a| a == 1)
    }

    fn adds(&self, action: Action, i: usize) -> bool {
        self.adds[action.mv().index() * self.components + i] != 0
    }

    /// The projections the tie rule compares: one per component, then, with several
    /// components, the whole move sequence (two paths of equal projections may still
    /// interleave their moves differently; the smaller whole sequence wins).
    pub(crate) fn tracks(&self) -> usize {
        self.components + usize::from(self.components > 1)
    }

    /// Whether `action` extends projection `t` (a component it adds to, or the whole
    /// sequence).
    pub(crate) fn extends(&self, action: Action, t: usize) -> bool {
        t >= self.components || self.adds(action, t)
    }
}

/// The letter of the root of a trie, never compared.
const ROOT: Action = Action::new(MoveId(0), DirId(0));

/// One tree of projections per cost component: node 0 is the empty projection. Nodes are
/// not shared, so two nodes may spell the same projection; comparison copes with that.
pub(crate) struct Tries {
    /// Per component: (parent, letter) of each node.
    nodes: Vec<Vec<(u32, Action)>>,
}

impl Tries {
    pub(crate) fn new(components: usize) -> Tries {
        Tries {
            nodes: vec![vec![(u32::MAX, ROOT)]; components],
        }
    }

    /// Nodes held by component `i`'s trie.
    pub(crate) fn len(&self, i: usize) -> usize {
        self.nodes[i].len()
    }

    /// Node `n` of component `i`'s trie: its parent and letter (the distributed engine
    /// walks paths back with it).
    #[cfg_attr(not(feature = "dist"), allow(dead_code))]
    pub(crate) fn node(&self, i: usize, n: u32) -> (u32, Action) {
        self.nodes[i][n as usize]
    }

    pub(crate) fn child(&mut self, i: usize, parent: u32, letter: Action) -> u32 {
        let nodes = &mut self.nodes[i];
        nodes.push((parent, letter));
        (nodes.len() - 1) as u32
    }

    /// Orders two nodes of equal depth of component `i`.
    pub(crate) fn cmp(&self, i: usize, mut a: u32, mut b: u32) -> std::cmp::Ordering {
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
    pub(crate) fn cmp_ext(
        &self,
        i: usize,
        parent: u32,
        letter: Option<Action>,
        b: u32,
    ) -> std::cmp::Ordering {
        match letter {
            None => self.cmp(i, parent, b),
            Some(l) => {
                let (pb, lb) = self.nodes[i][b as usize];
                self.cmp(i, parent, pb).then(l.cmp(&lb))
            }
        }
    }
}

/// Labels: one best path to a state (or, under a move limit, to a state after a given
/// number of moves), indexed by label id.
struct Labels {
    components: usize,
    /// Packed cost vector (32 bits per component, most significant first).
    cost: Vec<u128>,
    /// `node[label * components + c]`: the projection trie node of component `c`.
    node: Vec<u32>,
    /// The label this one extends (`u32::MAX` at the start).
    parent: Vec<u32>,
    action: Vec<Action>,
    /// Moves made.
    depth: Vec<u32>,
    /// The state id.
    state: Vec<u32>,
    /// The bound on the first component still to pay from the state ([`NOT_YET`] until
    /// computed; 0 for Dijkstra).
    h: Vec<u32>,
    /// Settled: taken from the queue, so its cost and projections are final.
    done: Vec<bool>,
}

impl Labels {
    fn new(components: usize) -> Labels {
        Labels {
            components,
            cost: vec![],
            node: vec![],
            parent: vec![],
            action: vec![],
            depth: vec![],
            state: vec![],
            h: vec![],
            done: vec![],
        }
    }

    fn push(&mut self, state: u32, depth: u32) -> u32 {
        self.cost.push(u128::MAX);
        self.node.extend(std::iter::repeat_n(0, self.components));
        self.parent.push(u32::MAX);
        self.action.push(ROOT);
        self.depth.push(depth);
        self.state.push(state);
        self.h.push(NOT_YET);
        self.done.push(false);
        (self.cost.len() - 1) as u32
    }

    /// Bytes held, for memory statistics.
    fn bytes(&self) -> usize {
        self.cost.capacity() * 16
            + (self.node.capacity()
                + self.parent.capacity()
                + self.action.capacity()
                + self.depth.capacity()
                + self.state.capacity()
                + self.h.capacity())
                * 4
            + self.done.capacity()
    }
}

/// Which label stands for a state, or for a state after a number of moves.
enum LabelIndex {
    /// No move limit: one label per state, `of_state[state]` (`u32::MAX`: none yet).
    PerState { of_state: Vec<u32> },
    /// Under a move limit: one label per (state, moves made), and per state the fewest
    /// moves of any settled label and that label, for dominance pruning.
    PerStateAndDepth {
        of_pair: HashMap<(u32, u32), u32>,
        settled_depth: Vec<u32>,
        settled_label: Vec<u32>,
    },
}

impl LabelIndex {
    /// The label of `state` reached in `depth` moves, created when new.
    fn get(&mut self, labels: &mut Labels, state: u32, depth: u32) -> u32 {
        match self {
            LabelIndex::PerState { of_state } => {
                let s = state as usize;
                if s >= of_state.len() {
                    of_state.resize((s + 1).max(of_state.len() * 2), u32::MAX);
                }
                if of_state[s] == u32::MAX {
                    of_state[s] = labels.push(state, depth);
                }
                of_state[s]
            }
            LabelIndex::PerStateAndDepth { of_pair, .. } => *of_pair
                .entry((state, depth))
                .or_insert_with(|| labels.push(state, depth)),
        }
    }

    /// Under a move limit: the settled label of `state` with the fewest moves, when it has
    /// no more than `depth` moves. Such a label costs no more than any label still queued,
    /// and it can make every move the later one can.
    fn settled_within(&self, state: u32, depth: u32) -> Option<u32> {
        match self {
            LabelIndex::PerState { .. } => None,
            LabelIndex::PerStateAndDepth {
                settled_depth,
                settled_label,
                ..
            } => {
                let s = state as usize;
                (settled_depth.get(s).is_some_and(|&d| d <= depth)).then(|| settled_label[s])
            }
        }
    }

    /// Records that `label` (of `state`, `depth` moves) is settled.
    fn settle(&mut self, state: u32, depth: u32, label: u32) {
        if let LabelIndex::PerStateAndDepth {
            settled_depth,
            settled_label,
            ..
        } = self
        {
            let s = state as usize;
            if s >= settled_depth.len() {
                let n = (s + 1).max(settled_depth.len() * 2);
                settled_depth.resize(n, u32::MAX);
                settled_label.resize(n, u32::MAX);
            }
            if depth < settled_depth[s] {
                settled_depth[s] = depth;
                settled_label[s] = label;
            }
        }
    }

    fn bytes(&self) -> usize {
        match self {
            LabelIndex::PerState { of_state } => of_state.capacity() * 4,
            LabelIndex::PerStateAndDepth {
                of_pair,
                settled_depth,
                settled_label,
            } => {
                of_pair.capacity() * 13 + (settled_depth.capacity() + settled_label.capacity()) * 4
            }
        }
    }
}

/// Most cost components a packed cost holds.
pub use crate::check::limits::MAX_COST_COMPONENTS as MAX_COMPONENTS;

/// The queue of labels: one bucket per key, taken smallest key first. Keys are few (cost
/// vectors of small numbers) and labels many, so a bucket queue beats a binary heap;
/// the order within a bucket never matters, as every label of one key is final before
/// any is taken (see the module header).
#[derive(Default)]
pub(super) struct Queue {
    /// Per key, the index of its bucket in `pool`.
    index: BTreeMap<(u128, u32), usize>,
    pool: Vec<Vec<u32>>,
    /// Buckets of `pool` not in use.
    spare: Vec<usize>,
    /// The key pushed last and its bucket: successors of one label share few keys.
    last: Option<((u128, u32), usize)>,
    pub(super) len: usize,
}

impl Queue {
    pub(super) fn push(&mut self, key: (u128, u32), label: u32) {
        let b = match self.last {
            Some((k, b)) if k == key => b,
            _ => {
                let (pool, spare) = (&mut self.pool, &mut self.spare);
                let b = *self.index.entry(key).or_insert_with(|| {
                    spare.pop().unwrap_or_else(|| {
                        pool.push(vec![]);
                        pool.len() - 1
                    })
                });
                self.last = Some((key, b));
                b
            }
        };
        self.pool[b].push(label);
        self.len += 1;
    }

    pub(super) fn pop(&mut self) -> Option<((u128, u32), u32)> {
        let first = self.index.first_entry()?;
        let (key, b) = (*first.key(), *first.get());
        let label = self.pool[b].pop().expect("buckets in use are never empty");
        if self.pool[b].is_empty() {
            first.remove();
            self.spare.push(b);
            if self.last.is_some_and(|(_, l)| l == b) {
                self.last = None;
            }
        }
        self.len -= 1;
        Some((key, label))
    }

    pub(super) fn peek(&self) -> Option<(u128, u32)> {
        self.index.first_key_value().map(|(k, _)| *k)
    }
}

/// A label's bound before it is computed.
const NOT_YET: u32 = UNREACHABLE - 1;

/// Dijkstra over lexicographic cost vectors with the projection tie rule.
///
/// With `budget.max_depth` set, labels are kept per (state, moves made) and a label is
/// dropped only when a settled label of the same state has no more moves (see the module
/// header), so the answer is the cheapest within the limit.
pub fn dijkstra<S: Space>(space: &mut S, budget: &Budget, table: &CostTable) -> (Outcome, Stats) {
    labelled(space, budget, table, false)
}

/// The label search of the module header. With `guided`, labels are taken in the order
/// of `(g + h, g0)`, where `h` is [`Space::estimate`] added to the first component and
/// `g0` is the first component paid so far (A*); otherwise in the order of their cost
/// (Dijkstra). States whose bound is [`UNREACHABLE`], or that cannot finish within the
/// move limit by it, are not queued.
pub(super) fn labelled<S: Space>(
    space: &mut S,
    budget: &Budget,
    table: &CostTable,
    guided: bool,
) -> (Outcome, Stats) {
    assert!(
        table.components <= MAX_COMPONENTS,
        "checked: at most four cost components"
    );
    let t0 = Instant::now();
    let words = space.words();
    let nc = table.components;
    // Where the first component sits in a packed cost.
    let shift = 32 * (nc as u32 - 1);
    let first = |cost: u128| (cost >> shift) as u32;
    // The queue key of a cost and a bound: `f` with the bound added to the first
    // component (`None` past the packing), then the first component paid.
    let key = |cost: u128, h: u32| -> Option<(u128, u32)> {
        let f = cost.checked_add((h as u128) << shift)?;
        (first(f) as u64 == first(cost) as u64 + h as u64).then_some((f, first(cost)))
    };
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
    let nt = table.tracks();
    let mut labels = Labels::new(nt);
    let mut index = match budget.max_depth {
        None => LabelIndex::PerState { of_state: vec![] },
        Some(_) => LabelIndex::PerStateAndDepth {
            of_pair: HashMap::new(),
            settled_depth: vec![],
            settled_label: vec![],
        },
    };
    let mut tries = Tries::new(nt);
    let mut pacer = Pacer::default();
    let start = space.start();
    let sid = match store.insert(&start) {
        Ok(i) | Err(i) => i,
    };
    let l0 = index.get(&mut labels, sid, 0);
    labels.cost[l0 as usize] = 0;
    let h0 = if guided { space.estimate(&start) } else { 0 };
    labels.h[l0 as usize] = h0;
    let mut heap = Queue::default();
    if h0 != UNREACHABLE && budget.max_depth.is_none_or(|m| h0 <= m) {
        heap.push(((h0 as u128) << shift, 0), l0);
    }
    let mut cur = vec![0u32; words];
    let mut succ = Successors::default();
    let finish = |stats: &mut Stats, store: &StateStore, labels: &Labels, index: &LabelIndex| {
        stats.stored = store.len() as u64;
        stats.store_bytes = (store.bytes() + labels.bytes() + index.bytes()) as u64;
        stats.elapsed = t0.elapsed();
    };
    while let Some(((f, g0), l)) = heap.pop() {
        let i = l as usize;
        let cost = labels.cost[i];
        if labels.done[i] || key(cost, labels.h[i]) != Some((f, g0)) {
            continue;
        }
        let (state, depth) = (labels.state[i], labels.depth[i]);
        if let Some(m) = index.settled_within(state, depth) {
            // Settled earlier with no more moves: cheaper, or as cheap and no worse by the
            // tie rule, unless its projections lose to this label's.
            if labels.cost[m as usize] < cost
                || label_cmp(&labels, &tries, m as usize, i) != std::cmp::Ordering::Greater
            {
                labels.done[i] = true;
                continue;
            }
        }
        store.load(state, &mut cur);
        if space.is_goal(&cur) {
            // Every label of this key is final, and every goal among them costs `cost`
            // (a goal's bound is 0): the best goal among them wins.
            let mut best = i;
            while heap.peek() == Some((f, g0)) {
                let Some((_, j)) = heap.pop() else { break };
                let j = j as usize;
                if labels.cost[j] != cost || j == best {
                    continue;
                }
                store.load(labels.state[j], &mut cur);
                if space.is_goal(&cur)
                    && label_cmp(&labels, &tries, j, best) == std::cmp::Ordering::Less
                {
                    best = j;
                }
            }
            let path = rebuild(&store, &labels, best, words);
            finish(&mut stats, &store, &labels, &index);
            return (Outcome::Solved(path), stats);
        }
        labels.done[i] = true;
        index.settle(state, depth, l);
        if budget.max_depth.is_some_and(|m| depth >= m) {
            continue;
        }
        space.successors(&cur, &mut succ);
        stats.expanded += 1;
        stats.generated += succ.len() as u64;
        stats.stored = store.len() as u64;
        if let Err(c) = pacer.tick_with(succ.units(), budget, &stats) {
            finish(&mut stats, &store, &labels, &index);
            return (Outcome::Cutoff(c), stats);
        }
        for k in 0..succ.len() {
            let a = succ.actions[k];
            let cand = cost + inc[a.mv().index()];
            let sj = match store.insert(succ.state(k, words)) {
                Ok(j) | Err(j) => j,
            };
            // A settled label of that state with no more moves costs less than `cand`
            // (every move adds to some component): this extension can never win.
            if index.settled_within(sj, depth + 1).is_some() {
                continue;
            }
            let j = index.get(&mut labels, sj, depth + 1) as usize;
            if labels.done[j] || cand > labels.cost[j] {
                continue;
            }
            if labels.h[j] == NOT_YET {
                labels.h[j] = if guided {
                    space.estimate_next(&cur, labels.h[i], succ.state(k, words))
                } else {
                    0
                };
            }
            let hj = labels.h[j];
            if hj == UNREACHABLE
                || budget
                    .max_depth
                    .is_some_and(|m| (depth + 1) as u64 + hj as u64 > m as u64)
            {
                continue;
            }
            let Some((fj, gj)) = key(cand, hj) else {
                continue;
            };
            if cand == labels.cost[j] {
                let mut ord = std::cmp::Ordering::Equal;
                for c in 0..nt {
                    let letter = table.extends(a, c).then_some(a);
                    ord =
                        tries.cmp_ext(c, labels.node[i * nt + c], letter, labels.node[j * nt + c]);
                    if ord != std::cmp::Ordering::Equal {
                        break;
                    }
                }
                if ord != std::cmp::Ordering::Less {
                    continue;
                }
            } else {
                heap.push((fj, gj), j as u32);
            }
            labels.cost[j] = cand;
            for c in 0..nt {
                let p = labels.node[i * nt + c];
                labels.node[j * nt + c] = if table.extends(a, c) {
                    tries.child(c, p, a)
                } else {
                    p
                };
            }
            labels.parent[j] = l;
            labels.action[j] = a;
        }
        stats.peak_frontier = stats.peak_frontier.max(heap.len as u64);
        if let Some(m) = budget.max_states {
            if store.len() >= m {
                finish(&mut stats, &store, &labels, &index);
                return (Outcome::Cutoff(Cutoff::States(m)), stats);
            }
        }
    }
    finish(&mut stats, &store, &labels, &index);
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

/// The path ending at label `goal`, by following parent labels back to the start.
fn rebuild(store: &StateStore, labels: &Labels, goal: usize, words: usize) -> Path {
    let mut states = vec![];
    let mut actions = vec![];
    let mut at = goal;
    loop {
        let mut s = vec![0; words];
        store.load(labels.state[at], &mut s);
        states.push(s);
        if labels.parent[at] == u32::MAX {
            break;
        }
        actions.push(labels.action[at]);
        at = labels.parent[at] as usize;
    }
    states.reverse();
    actions.reverse();
    Path { actions, states }
}
