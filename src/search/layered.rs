//! Layered search: Dijkstra over the states that outer transitions reach, with the inner
//! piece's moves between them solved as closures ([`crate::engine::inner`]).
//!
//! A node is the start state or a state an outer transition (a push, the token moving)
//! leads to. Expanding a node runs its closure: breadth-first over the inner piece's
//! places with everything else fixed, so each place's inner path is the smallest of the
//! shortest, in action order. Every outer transition from a place is an edge whose cost is
//! that path's (every inner step costs the same) plus the transition's own. Nodes are
//! settled in lexicographic cost order; with several cost components this is a search
//! layer by layer on the first one, since inner steps never add to it when some moves do
//! not (Sokoban's walks).
//!
//! **Exact under the tie rule.** Every solution is a sequence of inner paths and outer
//! transitions; the goal names no inner piece, so a cheapest solution ends on an outer
//! transition, and each of its inner paths is a shortest one (inner steps cost something).
//! Labels carry the projections of [`super::dijkstra`], the inner path's actions appended
//! to the components inner steps add to, then the transition's: among equal costs the
//! smaller projections win, as in Dijkstra over whole states, and two labels of one node
//! extended by the same edge keep their order, since projections of equal cost have equal
//! lengths. Within one inner path, the breadth-first path is the smallest of the shortest,
//! so no other path of the same ends and length gives smaller projections.
//!
//! **Pushing puzzles.** When the rules have the shape of `engine/heuristic/push.rs`, a
//! first phase over classes of states ([`super::classes`]) marks the states that lie on
//! a solution with the fewest pushes; the search here then keeps to them, with an exact
//! bound, and returns the same answer.
//!
//! **Reuse.** When no path is wanted (judge formats printing the cost alone), a node's
//! edges depend only on the board and the node's state, not on the goal, so they are kept
//! in [`Reuse`] for the next query on the same board (Huarong Dao's 500 queries share one
//! board and compute each closure once).

use std::cmp::Ordering;
use web_time::Instant;

use super::classes::{self, Phase};
use super::dijkstra::{Queue, Tries};
use super::{Budget, CostTable, Cutoff, Outcome, Pacer, Path, Stats};
use std::sync::Arc;

use crate::engine::budget::UNREACHABLE;
use crate::engine::inner::{Closure, InnerSplit, SplitError};
use crate::engine::{Action, Expander, PrepareError, StateStore};

/// What layered search keeps from one level to the next of the same model: the inner
/// split, and every node met so far with its edges, valid while the board (tiles, the
/// marks the moves and forbids read, the state's layout) stays the same.
#[derive(Default)]
pub struct Reuse {
    /// The board the rest belongs to ([`Expander::reuse_key`]).
    key: Vec<u64>,
    /// The split of that board, or why there is none.
    split: Option<Result<Arc<InnerSplit>, String>>,
    /// Every node met on this board, numbered.
    nodes: Option<StateStore>,
    /// Per node: its edges (target node, packed cost added), once expanded.
    edges: Vec<Option<Edges>>,
    /// Bytes the nodes and edges hold, roughly.
    bytes: usize,
    /// Per node: the best cost found by the current query, valid where `seen` holds the
    /// query's number; `done` marks the settled ones the same way.
    cost: Vec<u128>,
    seen: Vec<u32>,
    done: Vec<u32>,
    query: u32,
}

/// A node's edges: (target node, packed cost added).
type Edges = Box<[(u32, u128)]>;

/// The most bytes of nodes and edges kept between levels; past it they start over.
const REUSE_BYTES: usize = 256 << 20;

impl Reuse {
    /// The split for `exp`'s board, computed once per board; `Err` when a budget ran out
    /// while building it.
    fn split(
        &mut self,
        exp: &mut Expander,
        budget: &Budget,
    ) -> Result<Result<Arc<InnerSplit>, String>, Cutoff> {
        let key = exp.reuse_key();
        if self.split.is_none() || self.key != key || self.bytes > REUSE_BYTES {
            self.key = key;
            self.nodes = None;
            self.edges.clear();
            self.cost.clear();
            self.seen.clear();
            self.done.clear();
            self.bytes = 0;
            self.split = None;
            self.split = Some(match exp.inner_split(budget) {
                Ok(s) => Ok(Arc::new(s)),
                Err(SplitError::Refused(why)) => Err(why),
                Err(SplitError::Cutoff(c)) => return Err(c),
            });
        }
        Ok(self.split.clone().expect("set above"))
    }

    /// The number of node `s`, added when new.
    fn node(&mut self, s: &[u32]) -> u32 {
        let nodes = self
            .nodes
            .get_or_insert_with(|| StateStore::hashed(s.len()));
        let id = match nodes.insert(s) {
            Ok(i) => {
                self.bytes += s.len() * 4 + 16;
                i
            }
            Err(i) => i,
        };
        if id as usize >= self.edges.len() {
            let n = id as usize + 1;
            self.edges.resize(n, None);
            self.cost.resize(n, u128::MAX);
            self.seen.resize(n, 0);
            self.done.resize(n, 0);
        }
        id
    }
}

/// Packs a cost vector as Dijkstra does: 32 bits per component, the first most
/// significant.
fn pack(adds: impl Iterator<Item = u32>) -> u128 {
    adds.fold(0u128, |acc, a| acc << 32 | a as u128)
}

/// Per node: its best label.
#[derive(Default)]
struct Labels {
    cost: Vec<u128>,
    parent: Vec<u32>,
    /// The inner piece's word at the place the outer transition started from.
    portal: Vec<u32>,
    action: Vec<Action>,
    done: Vec<bool>,
    /// The bound on the first cost component still to pay ([`UNREACHABLE`]: dead).
    h: Vec<u32>,
    /// Per node and component: the projection's trie node (when a path is wanted).
    node: Vec<u32>,
}

impl Labels {
    fn ensure(&mut self, id: u32, nt: usize) {
        let n = id as usize + 1;
        if self.cost.len() < n {
            self.cost.resize(n, u128::MAX);
            self.parent.resize(n, u32::MAX);
            self.portal.resize(n, 0);
            self.action.resize(
                n,
                Action::new(crate::compile::MoveId(0), crate::compile::DirId(0)),
            );
            self.done.resize(n, false);
            self.h.resize(n, 0);
            self.node.resize(n * nt, 0);
        }
    }

    fn bytes(&self) -> usize {
        self.cost.capacity() * 16
            + (self.parent.capacity() + self.portal.capacity() + self.action.capacity()) * 4
            + self.done.capacity()
            + self.node.capacity() * 4
    }
}

/// Layered search on `exp`'s level (see the module header): the cheapest solution under
/// the tie rule, or with `need_path` false its cost alone. `Err` when the rules allow no
/// inner split (the message says why).
pub fn layered(
    exp: &mut Expander,
    budget: &Budget,
    table: &CostTable,
    need_path: bool,
    reuse: &mut Reuse,
) -> Result<(Outcome, Stats), String> {
    // The pushing puzzles' pattern databases take up to a second and 256 MiB to build
    // on a big board: there a short search on the other bounds goes first, so easy
    // levels build none. Small tables are built at once.
    let probing = need_path
        && budget.max_states.is_none_or(|m| m > PROBE)
        && exp.prepare_heuristic(budget).is_ok()
        && exp.push_table_entries().is_some_and(|e| e > EAGER);
    if !probing {
        return search(exp, budget, table, need_path, reuse, true);
    }
    let probe = Budget {
        max_states: Some(PROBE),
        ..budget.clone()
    };
    let (outcome, first) = search(exp, &probe, table, need_path, reuse, false)?;
    if !matches!(outcome, Outcome::Cutoff(Cutoff::States(_))) {
        return Ok((outcome, first));
    }
    let (outcome, stats) = search(exp, budget, table, need_path, reuse, true)?;
    Ok((
        outcome,
        Stats {
            expanded: stats.expanded + first.expanded,
            generated: stats.generated + first.generated,
            elapsed: stats.elapsed + first.elapsed,
            // Cut off while the tables were built: what the probe stored.
            stored: if stats.stored == 0 {
                first.stored
            } else {
                stats.stored
            },
            peak_frontier: stats.peak_frontier.max(first.peak_frontier),
            ..stats
        },
    ))
}

/// Nodes layered search stores on the bounds of `engine/heuristic/mod.rs` alone before
/// it builds the pattern databases of `engine/heuristic/push.rs` and starts again.
const PROBE: usize = 50_000;

/// The largest pushing puzzles' table (entries, bytes) built without a probe first.
const EAGER: u64 = 1 << 24;

/// [`layered`], with the pushing puzzles' pattern databases when `push` is set.
fn search(
    exp: &mut Expander,
    budget: &Budget,
    table: &CostTable,
    need_path: bool,
    reuse: &mut Reuse,
    push: bool,
) -> Result<(Outcome, Stats), String> {
    let t0 = Instant::now();
    let split = match reuse.split(exp, budget) {
        Ok(s) => s?,
        Err(c) => {
            let stats = Stats {
                elapsed: t0.elapsed(),
                ..Stats::default()
            };
            return Ok((Outcome::Cutoff(c), stats));
        }
    };
    let nc = table.components;
    let moves = table.adds.len() / nc;
    let inc: Vec<u128> = (0..moves)
        .map(|m| pack((0..nc).map(|c| table.adds[m * nc + c] as u32)))
        .collect();
    let inner_move = (0..moves).find(|&m| split.is_inner_move(m));
    let Some(inner_move) = inner_move else {
        return Err("no move steps the inner piece alone".into());
    };
    let inner_inc = inc[inner_move];
    let nt = table.tracks();
    let inner_comp: Vec<bool> = (0..nt)
        .map(|c| c >= nc || table.adds[inner_move * nc + c] != 0)
        .collect();
    if !need_path {
        return Ok(cost_only(exp, &split, budget, nc, &inc, inner_inc, reuse));
    }
    let words = exp.words;
    let mut stats = Stats::default();
    let mut store = StateStore::hashed(words);
    let mut labels = Labels::default();
    let mut tries = Tries::new(nt);
    let mut pacer = Pacer::default();
    let mut cl = Closure::default();
    let start = exp.start();
    let sid = match store.insert(&start) {
        Ok(i) | Err(i) => i,
    };
    labels.ensure(sid, nt);
    labels.cost[sid as usize] = 0;
    // A* when the rules give a bound on the first cost component (see the module header):
    // nodes taken by (bound + cost, cost), and nodes the bound proves dead never stored.
    // The bounds are derived once per level: the probe's run leaves them for the next.
    let prepared = if exp.has_heuristic() {
        Ok(())
    } else {
        exp.prepare_heuristic(budget)
    };
    let prepared = prepared.and_then(|()| {
        if push {
            stats.bound = exp.prepare_push_patterns(budget)?;
        }
        Ok(())
    });
    let bounded = match prepared {
        Ok(()) => true,
        Err(PrepareError::Refused(_)) => false,
        Err(PrepareError::Cutoff(c)) => {
            let stats = Stats {
                elapsed: t0.elapsed(),
                ..Stats::default()
            };
            return Ok((Outcome::Cutoff(c), stats));
        }
    };
    let shift = 32 * (nc as u32 - 1);
    // Pushing puzzles: the classes on a cheapest path first (`classes.rs`); the search
    // below then keeps to them, with the exact bound. When the tables already give the
    // exact bound, the search below takes only states on a cheapest path without it.
    let mut paths = None;
    let regions = if bounded && !exp.push_tables_exact() {
        exp.push_regions()
    } else {
        None
    };
    if let Some(mut regions) = regions {
        let inc0: Vec<u32> = (0..moves).map(|m| table.adds[m * nc] as u32).collect();
        let perimeter = exp.push_perimeter(&mut regions);
        let phase = classes::cheapest_pushes(
            exp,
            &split,
            regions,
            &inc0,
            perimeter.map(|p| (p, classes::Growth::default())),
            budget,
            &mut stats,
        );
        match phase {
            Phase::Paths(p) => paths = Some(p),
            Phase::Unsolvable => {
                stats.elapsed = t0.elapsed();
                return Ok((Outcome::Unsolvable, stats));
            }
            Phase::Cutoff(c) => {
                stats.elapsed = t0.elapsed();
                return Ok((Outcome::Cutoff(c), stats));
            }
        }
    }
    let (base_stored, base_bytes) = paths.as_ref().map_or((0, 0), |p| (p.len(), p.bytes()));
    // Nodes queued by `(f, g0)`: `f` the cost with the bound added to its first
    // component, `g0` that component paid (for one `f`, the rest of the cost is `f`'s
    // rest, so this orders as `(f, cost)` would); the order within a key never matters,
    // as every label of a key is final before any is taken (see the module header). A
    // node's bound never changes, so its queued cost is `f` less it: an entry whose cost
    // is no longer the node's is stale.
    let mut heap = Queue::default();
    let h0 = match &mut paths {
        Some(p) => p.left(&start, 0).unwrap_or(UNREACHABLE),
        None if bounded => exp.estimate(&start),
        None => 0,
    };
    if h0 != UNREACHABLE && !(bounded && exp.dead(&start)) {
        labels.h[sid as usize] = h0;
        heap.push(((h0 as u128) << shift, 0), sid);
    }
    let mut cur = vec![0u32; words];
    let mut seg: Vec<Action> = vec![];
    let finish = |stats: &mut Stats, store: &StateStore, labels: &Labels, tries_len: usize| {
        stats.stored = (base_stored + store.len()) as u64;
        stats.store_bytes = (base_bytes + store.bytes() + labels.bytes() + tries_len * 8) as u64;
        stats.elapsed = t0.elapsed();
    };
    while let Some(((f, g0), id)) = heap.pop() {
        let i = id as usize;
        let cost = f - ((labels.h[i] as u128) << shift);
        if labels.done[i] || labels.cost[i] != cost {
            continue;
        }
        store.load(id, &mut cur);
        if exp.is_goal(&cur) {
            let mut best = i;
            // Every label of this key is final: the best goal among them wins.
            while heap.peek() == Some((f, g0)) {
                let Some((_, j)) = heap.pop() else { break };
                let j = j as usize;
                if labels.cost[j] + ((labels.h[j] as u128) << shift) != f
                    || j == best
                    || labels.done[j]
                {
                    continue;
                }
                store.load(j as u32, &mut cur);
                if exp.is_goal(&cur) && label_cmp(&labels, &tries, nt, j, best) == Ordering::Less {
                    best = j;
                }
            }
            finish(&mut stats, &store, &labels, tries_len(&tries, nt));
            let path = rebuild(exp, &split, &store, &labels, best, &mut cl);
            return Ok((Outcome::Solved(path), stats));
        }
        labels.done[i] = true;
        stats.expanded += 1;
        let hi = labels.h[i];
        exp.inner_closure(&split, &cur, &mut cl);
        stats.stored = (base_stored + store.len()) as u64;
        if let Err(c) = pacer.tick_with(cl.work, budget, &stats) {
            finish(&mut stats, &store, &labels, tries_len(&tries, nt));
            return Ok((Outcome::Cutoff(c), stats));
        }
        stats.generated += cl.outer.len() as u64;
        let mut seg_of = u32::MAX;
        for k in 0..cl.outer.len() {
            let (at, a) = cl.outer[k];
            let st = &cl.outer_states[k * words..(k + 1) * words];
            let cand = cost + cl.dist[at as usize] as u128 * inner_inc + inc[a.mv().index()];
            // Off every cheapest path (phase one), or a copy pushed where it can never
            // reach a goal: dead, not even stored.
            let exact = match &mut paths {
                Some(p) => match p.left(st, (cand >> shift) as u32) {
                    Some(left) => Some(left),
                    None => continue,
                },
                None if bounded && exp.off_every_path(st) => continue,
                None => None,
            };
            let j = match store.insert(st) {
                Ok(j) => {
                    labels.ensure(j, nt);
                    let h = if let Some(left) = exact {
                        left
                    } else if bounded {
                        let h = exp.estimate_next(&cur, hi, st);
                        if h == UNREACHABLE || exp.dead(st) {
                            UNREACHABLE
                        } else {
                            h
                        }
                    } else {
                        0
                    };
                    labels.h[j as usize] = h;
                    j
                }
                Err(j) => j,
            };
            let ju = j as usize;
            if labels.h[ju] == UNREACHABLE || labels.done[ju] || cand > labels.cost[ju] {
                continue;
            }
            if seg_of != at {
                seg = cl.segment(at as usize);
                seg_of = at;
            }
            // The candidate's projections: the inner path, then the transition.
            let mut nodes = [0u32; super::MAX_COMPONENTS + 1];
            for c in 0..nt {
                let mut n = labels.node[i * nt + c];
                if inner_comp[c] {
                    for &l in &seg {
                        n = tries.child(c, n, l);
                    }
                }
                if table.extends(a, c) {
                    n = tries.child(c, n, a);
                }
                nodes[c] = n;
            }
            if cand == labels.cost[ju] {
                let ord = (0..nt)
                    .map(|c| tries.cmp(c, nodes[c], labels.node[ju * nt + c]))
                    .find(|o| *o != Ordering::Equal)
                    .unwrap_or(Ordering::Equal);
                if ord != Ordering::Less {
                    continue;
                }
            } else {
                let f = cand + ((labels.h[ju] as u128) << shift);
                heap.push((f, (cand >> shift) as u32), j);
            }
            labels.cost[ju] = cand;
            labels.parent[ju] = id;
            labels.portal[ju] = cl.words[at as usize];
            labels.action[ju] = a;
            labels.node[ju * nt..ju * nt + nt].copy_from_slice(&nodes[..nt]);
        }
        stats.peak_frontier = stats.peak_frontier.max(heap.len as u64);
        if let Some(m) = budget.max_states {
            if base_stored + store.len() >= m {
                finish(&mut stats, &store, &labels, tries_len(&tries, nt));
                return Ok((Outcome::Cutoff(Cutoff::States(m)), stats));
            }
        }
    }
    finish(&mut stats, &store, &labels, tries_len(&tries, nt));
    Ok((Outcome::Unsolvable, stats))
}

/// The cost of the cheapest solution alone, on the nodes and edges of `reuse` (the same
/// Dijkstra without labels: no projections, no parents).
fn cost_only(
    exp: &mut Expander,
    split: &InnerSplit,
    budget: &Budget,
    nc: usize,
    inc: &[u128],
    inner_inc: u128,
    reuse: &mut Reuse,
) -> (Outcome, Stats) {
    let t0 = Instant::now();
    let words = exp.words;
    let mut stats = Stats::default();
    let mut pacer = Pacer::default();
    let mut cl = Closure::default();
    reuse.query = reuse.query.wrapping_add(1);
    if reuse.query == 0 {
        reuse.seen.fill(0);
        reuse.done.fill(0);
        reuse.query = 1;
    }
    let q = reuse.query;
    let start = exp.start();
    let sid = reuse.node(&start);
    reuse.cost[sid as usize] = 0;
    reuse.seen[sid as usize] = q;
    let mut touched = 1u64;
    // Nodes queued by cost (see `layered`; an entry whose cost is no longer the node's
    // is stale).
    let mut heap = Queue::default();
    heap.push((0, 0), sid);
    let mut cur = vec![0u32; words];
    let finish = |stats: &mut Stats, reuse: &Reuse, touched: u64| {
        stats.stored = touched;
        stats.store_bytes = reuse.bytes as u64;
        stats.elapsed = t0.elapsed();
    };
    while let Some(((cost, _), id)) = heap.pop() {
        let i = id as usize;
        if reuse.done[i] == q || reuse.cost[i] != cost {
            continue;
        }
        reuse
            .nodes
            .as_ref()
            .expect("the start is a node")
            .load(id, &mut cur);
        if exp.is_goal(&cur) {
            finish(&mut stats, reuse, touched);
            let costs = (0..nc)
                .map(|c| (cost >> (32 * (nc - 1 - c)) & 0xffff_ffff) as u64)
                .collect();
            return (Outcome::Cost(costs), stats);
        }
        reuse.done[i] = q;
        stats.expanded += 1;
        stats.stored = touched;
        if reuse.edges[i].is_none() {
            exp.inner_closure(split, &cur, &mut cl);
            if let Err(c) = pacer.tick_with(cl.work, budget, &stats) {
                finish(&mut stats, reuse, touched);
                return (Outcome::Cutoff(c), stats);
            }
            let mut edges: Vec<(u32, u128)> = Vec::with_capacity(cl.outer.len());
            for (k, &(at, a)) in cl.outer.iter().enumerate() {
                let st = &cl.outer_states[k * words..(k + 1) * words];
                let d = cl.dist[at as usize] as u128 * inner_inc + inc[a.mv().index()];
                let j = reuse.node(st);
                match edges.iter_mut().find(|e| e.0 == j) {
                    Some(e) => e.1 = e.1.min(d),
                    None => edges.push((j, d)),
                }
            }
            reuse.bytes += 32 + edges.len() * 32;
            reuse.edges[i] = Some(edges.into_boxed_slice());
        } else if let Err(c) = pacer.tick_with(1, budget, &stats) {
            finish(&mut stats, reuse, touched);
            return (Outcome::Cutoff(c), stats);
        }
        let edges = reuse.edges[i].as_ref().expect("filled above");
        stats.generated += edges.len() as u64;
        for &(j, d) in edges.iter() {
            let cand = cost + d;
            let ju = j as usize;
            if reuse.seen[ju] != q {
                reuse.seen[ju] = q;
                reuse.cost[ju] = u128::MAX;
                touched += 1;
            }
            if reuse.done[ju] == q || cand >= reuse.cost[ju] {
                continue;
            }
            reuse.cost[ju] = cand;
            heap.push((cand, 0), j);
        }
        stats.peak_frontier = stats.peak_frontier.max(heap.len as u64);
        if let Some(m) = budget.max_states {
            if touched as usize >= m {
                finish(&mut stats, reuse, touched);
                return (Outcome::Cutoff(Cutoff::States(m)), stats);
            }
        }
    }
    finish(&mut stats, reuse, touched);
    (Outcome::Unsolvable, stats)
}

/// Trie nodes held, for memory statistics.
fn tries_len(tries: &Tries, nc: usize) -> usize {
    (0..nc).map(|c| tries.len(c)).sum()
}

/// Orders two labels of equal cost by their projections.
fn label_cmp(labels: &Labels, tries: &Tries, nc: usize, a: usize, b: usize) -> Ordering {
    (0..nc)
        .map(|c| tries.cmp(c, labels.node[a * nc + c], labels.node[b * nc + c]))
        .find(|o| *o != Ordering::Equal)
        .unwrap_or(Ordering::Equal)
}

/// The whole path to node `goal`: each node's inner path (its parent's closure again,
/// down to the place the transition started from), then the transition.
fn rebuild(
    exp: &mut Expander,
    split: &InnerSplit,
    store: &StateStore,
    labels: &Labels,
    goal: usize,
    cl: &mut Closure,
) -> Path {
    let words = exp.words;
    let mut chain = vec![goal];
    while labels.parent[*chain.last().expect("non-empty")] != u32::MAX {
        let p = labels.parent[*chain.last().expect("non-empty")] as usize;
        chain.push(p);
    }
    chain.reverse();
    let mut states = vec![];
    let mut actions = vec![];
    let mut s = vec![0u32; words];
    store.load(chain[0] as u32, &mut s);
    states.push(s.clone());
    for pair in chain.windows(2) {
        let (p, j) = (pair[0], pair[1]);
        store.load(p as u32, &mut s);
        exp.inner_closure(split, &s, cl);
        let at = cl
            .words
            .iter()
            .position(|&w| w == labels.portal[j])
            .expect("the portal is in its parent's closure");
        for (a, w) in cl.segment(at).into_iter().zip(cl.segment_words(at)) {
            s[split.slot] = w;
            actions.push(a);
            states.push(s.clone());
        }
        let mut t = vec![0u32; words];
        store.load(j as u32, &mut t);
        actions.push(labels.action[j]);
        states.push(t);
    }
    Path { actions, states }
}
