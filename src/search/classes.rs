//! The cheapest pushes first: the first phase of layered search on pushing puzzles.
//!
//! In a pushing puzzle (the shape of `engine/heuristic/push.rs`: an agent that walks for
//! free on the first cost component and pushes copies at a cost), the states with the
//! same copies and the agent in one region of free cells form a *class*: each reaches the
//! others by walks alone. Layered search settles states by their whole cost, pushes and
//! walks, so it meets each class once per cell the agent enters it by: on Microban 139,
//! 2.0 million states for 366 thousand classes.
//!
//! **Phase one** ([`cheapest_pushes`]) is A\* over classes on the first component alone,
//! with the same bounds (consistent, so a class is settled at its cheapest first
//! component `g`). It finds the cheapest first component `P` of a solution, then goes on
//! until every class whose `g` plus bound is at most `P` is expanded, keeping each *tight*
//! edge (`g(u) + c = g(v)` when it was found). A class lies on a cheapest path exactly
//! when a chain of tight edges leads from it to a goal class of cost `P`: every class of
//! a cheapest path has its cheapest `g` (a prefix of a cheapest path is cheapest) and
//! `g` plus bound at most `P` (the bound is admissible), so it was expanded and its edge
//! onwards kept. Marking backwards, in decreasing `g` (each tight edge climbs, since a
//! push costs something), finds them all.
//!
//! **Phase two** is layered search itself, with every state whose class lies on no
//! cheapest path, or that is reached with another first component than its class's `g`,
//! left out, and the bound exact (`P - g`). The graph left holds every solution whose
//! first component is `P`, so every cheapest one, and layered search on it returns the
//! same smallest label as on the whole graph (the argument of its module header holds on
//! any graph): the answer, ties included, is the one layered search alone gives.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{Budget, Cutoff, Pacer, Stats};
use crate::engine::budget::UNREACHABLE;
use crate::engine::inner::{Closure, InnerSplit};
use crate::engine::{Expander, Regions, StateStore};

/// The classes on a cheapest path, from phase one.
pub(super) struct OnPaths {
    regions: Regions,
    classes: StateStore,
    /// Per class: its cheapest first component, and whether it lies on a cheapest path.
    g: Vec<u32>,
    on: Vec<bool>,
    /// The cheapest first component of a solution.
    pub(super) best: u32,
    scratch: Vec<u32>,
}

impl OnPaths {
    /// For state `s` reached at first component `g0`: what a cheapest solution through
    /// it still pays on the first component, or `None` when none passes through it at
    /// `g0`.
    pub(super) fn left(&mut self, s: &[u32], g0: u32) -> Option<u32> {
        self.scratch.clear();
        self.scratch.extend_from_slice(s);
        self.regions.canon(&mut self.scratch);
        let id = self.classes.find(&self.scratch)? as usize;
        (self.on[id] && self.g[id] == g0).then(|| self.best - g0)
    }

    /// Classes stored.
    pub(super) fn len(&self) -> usize {
        self.classes.len()
    }

    /// Bytes held, for memory statistics.
    pub(super) fn bytes(&self) -> usize {
        self.classes.bytes() + self.g.capacity() * 4 + self.on.capacity()
    }
}

/// How phase one ended.
pub(super) enum Phase {
    Paths(Box<OnPaths>),
    Unsolvable,
    Cutoff(Cutoff),
}

/// Phase one (see the module header) on `exp`'s level, whose bounds are prepared: `inc0`
/// is what each move adds to the first cost component (inner steps add nothing).
/// `stats` counts the classes expanded, generated and stored.
pub(super) fn cheapest_pushes(
    exp: &mut Expander,
    split: &InnerSplit,
    mut regions: Regions,
    inc0: &[u32],
    budget: &Budget,
    stats: &mut Stats,
) -> Phase {
    let words = exp.words;
    let mut classes = StateStore::hashed(words);
    let mut start = exp.start();
    regions.canon(&mut start);
    let _ = classes.insert(&start);
    stats.stored = 1;
    let h0 = exp.estimate(&start);
    if h0 == UNREACHABLE || exp.dead(&start) {
        return Phase::Unsolvable;
    }
    let mut g = vec![0u32];
    let mut h = vec![h0];
    let mut done = vec![false];
    // Tight edges (u, v, cost), and the goal classes settled.
    let mut edges: Vec<(u32, u32, u32)> = vec![];
    let mut goals: Vec<u32> = vec![];
    let mut best: Option<u32> = None;
    // Classes by (g + bound, then the deeper first).
    let mut heap = BinaryHeap::new();
    heap.push(Reverse((h0, Reverse(0u32), 0u32)));
    let mut cur = vec![0u32; words];
    let mut next = vec![0u32; words];
    let mut cl = Closure::default();
    let mut pacer = Pacer::default();
    while let Some(Reverse((f, Reverse(gf), id))) = heap.pop() {
        if best.is_some_and(|b| f > b) {
            break;
        }
        let i = id as usize;
        if done[i] || g[i] != gf {
            continue;
        }
        done[i] = true;
        classes.load(id, &mut cur);
        if exp.is_goal(&cur) {
            best.get_or_insert(gf);
            goals.push(id);
            continue;
        }
        stats.expanded += 1;
        exp.inner_closure(split, &cur, &mut cl);
        stats.stored = classes.len() as u64;
        stats.store_bytes = (classes.bytes() + edges.capacity() * 12 + g.capacity() * 9) as u64;
        if let Err(c) = pacer.tick_with(cl.work, budget, stats) {
            return Phase::Cutoff(c);
        }
        stats.generated += cl.outer.len() as u64;
        let hi = h[i];
        for k in 0..cl.outer.len() {
            let a = cl.outer[k].1;
            let st = &cl.outer_states[k * words..(k + 1) * words];
            if exp.off_every_path(st) {
                continue;
            }
            next.copy_from_slice(st);
            regions.canon(&mut next);
            let c = inc0[a.mv().index()];
            let cand = gf + c;
            let j = match classes.insert(&next) {
                Ok(j) => {
                    let hj = exp.estimate_next(&cur, hi, &next);
                    let hj = if hj == UNREACHABLE || exp.dead(&next) {
                        UNREACHABLE
                    } else {
                        hj
                    };
                    g.push(u32::MAX);
                    h.push(hj);
                    done.push(false);
                    j
                }
                Err(j) => j,
            };
            let ju = j as usize;
            if j == id || h[ju] == UNREACHABLE || cand > g[ju] {
                continue;
            }
            if cand < g[ju] {
                if done[ju] {
                    // A consistent bound settles a class at its cheapest: never here.
                    continue;
                }
                g[ju] = cand;
                heap.push(Reverse((cand.saturating_add(h[ju]), Reverse(cand), j)));
            }
            edges.push((id, j, c));
        }
        stats.peak_frontier = stats.peak_frontier.max(heap.len() as u64);
        if let Some(m) = budget.max_states {
            if classes.len() >= m {
                stats.stored = classes.len() as u64;
                return Phase::Cutoff(Cutoff::States(m));
            }
        }
    }
    stats.stored = classes.len() as u64;
    let Some(best) = best else {
        return Phase::Unsolvable;
    };
    // Backwards over the tight edges, the costliest first (see the module header).
    let mut on = vec![false; classes.len()];
    for &v in &goals {
        on[v as usize] = g[v as usize] == best;
    }
    edges.sort_unstable_by_key(|&(u, _, _)| Reverse(g[u as usize]));
    for &(u, v, c) in &edges {
        if on[v as usize] && g[u as usize] + c == g[v as usize] {
            on[u as usize] = true;
        }
    }
    let marked = on.iter().filter(|&&x| x).count();
    let line = format!(
        "cheapest pushes first: {} classes (copies, agent's region) stored, {} expanded, {marked} on a cheapest solution of {best}",
        classes.len(),
        stats.expanded
    );
    stats.bound = Some(match stats.bound.take() {
        Some(b) => format!("{b}; {line}"),
        None => line,
    });
    Phase::Paths(Box::new(OnPaths {
        regions,
        classes,
        g,
        on,
        best,
        scratch: vec![],
    }))
}
