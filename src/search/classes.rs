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
//! **The perimeter.** A breadth-first search backwards from the goal by pulls
//! (`engine/heuristic/perimeter.rs`) gives the classes near the goal their exact pushes
//! left, and every other class a floor; with the bounds above this is a bound again,
//! admissible and consistent, and much larger on the classes far from the goal when the
//! goal's neighbourhood is narrow (boxes packed into a goal room). It grows while phase
//! one runs ([`Growth`]), so its bound only rises. A class popped is looked up again
//! under the bound as it is now, and queued again when that rose: a class is expanded
//! only under the bound current at its turn, so a consistent bound still settles it at
//! its cheapest (a class on its cheapest path before it is queued with a key no larger
//! than its own). Nothing else changes: which classes lie on a cheapest path does not
//! depend on the bound.
//!
//! Once `P` is known (a goal class came off the queue), a push from `u` to a class `v`
//! with `g(u) + c` plus `v`'s pushes left (exact when the perimeter met it, else at least
//! its floor) above `P` lies on no cheapest path: `v` is neither stored nor linked, and
//! no bound is computed for it. The last layer, `g` plus bound equal to `P`, is mostly
//! such pushes (Microban 144: 500 thousand of its 1.2 million expansions), and the
//! classes marked are the same.
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
use crate::engine::{Before, Expander, LayerSet, Perimeter, Regions, StateStore};

/// When the perimeter of the classes near the goal grows (`engine/heuristic/
/// perimeter.rs`): first when phase one has expanded `first` classes, then each time it
/// has expanded twice as many as at the last growth, to `ratio` times the classes
/// expanded, at most `max`. A class costs the perimeter about a tenth of what an
/// expansion costs phase one, and on the hardest levels the perimeter pays for itself
/// many times over (Microban 93: 86 s to 11 s).
#[derive(Clone, Copy, Debug)]
pub(super) struct Growth {
    pub(super) first: u64,
    pub(super) ratio: usize,
    pub(super) max: usize,
}

impl Default for Growth {
    fn default() -> Growth {
        Growth {
            first: 20_000,
            ratio: 16,
            max: 8 << 20,
        }
    }
}

/// The classes on a cheapest path, from phase one.
pub(super) struct OnPaths {
    regions: Regions,
    classes: StateStore,
    /// Per class: its cheapest first component, and whether it lies on a cheapest path.
    g: Vec<u32>,
    on: Vec<bool>,
    /// The cheapest first component of a solution.
    pub(super) best: u32,
    /// Classes not expanded since no push of theirs reaches the perimeter's deepest layer
    /// (reported in the bound's line; kept for the tests).
    #[cfg(test)]
    passed: u64,
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
/// is what each move adds to the first cost component (inner steps add nothing), and
/// `perimeter` the backward search from the goal that raises the bound as it grows.
/// `stats` counts the classes expanded, generated and stored.
pub(super) fn cheapest_pushes(
    exp: &mut Expander,
    split: &InnerSplit,
    mut regions: Regions,
    inc0: &[u32],
    perimeter: Option<(Perimeter, Growth)>,
    budget: &Budget,
    stats: &mut Stats,
) -> Phase {
    // The bound raised by the classes near the goal (`engine/heuristic/perimeter.rs`):
    // exact where the backward search met the class, else at least its floor.
    let near = |p: &Option<Perimeter>, s: &[u32], h: u32| match p {
        Some(p) => p.raise(s, h),
        None => h,
    };
    let (mut perimeter, growth) = match perimeter {
        Some((p, g)) => (Some(p), g),
        None => (None, Growth::default()),
    };

    // The perimeter grows as the search goes on ([`Growth`]).
    let mut next_grow = growth.first;
    let words = exp.words;
    let mut classes = StateStore::hashed(words);
    let mut start = exp.start();
    regions.canon(&mut start);
    let _ = classes.insert(&start);
    stats.stored = 1;
    let h0 = near(&perimeter, &start, exp.estimate(&start));
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
    let mut pushes = exp.push_moves(&regions);
    let (mut succ, mut acts) = (vec![], vec![]);
    let mut pacer = Pacer::default();
    let mut before = Before::new(regions.open().len());
    let mut key = vec![0u32; perimeter.as_ref().map_or(0, Perimeter::key_words)];
    // The copies' places of the perimeter's deepest layer, and the classes they ruled out.
    // (built once per depth: `None` inside when the memory budget had no room for it)
    let mut entry: Option<(u32, Option<LayerSet>)> = None;
    let mut passed = 0u64;
    while let Some(Reverse((f, Reverse(gf), id))) = heap.pop() {
        if best.is_some_and(|b| f > b) {
            break;
        }
        let i = id as usize;
        if done[i] || g[i] != gf {
            continue;
        }
        classes.load(id, &mut cur);
        if perimeter.is_some() {
            // The bound may have risen since the class was queued (it only rises, and
            // stays admissible and consistent): queued again under the new one.
            let hn = near(&perimeter, &cur, h[i]);
            if hn != h[i] {
                h[i] = hn;
                if hn != UNREACHABLE {
                    heap.push(Reverse((gf.saturating_add(hn), Reverse(gf), id)));
                }
                continue;
            }
        }
        done[i] = true;
        if exp.is_goal(&cur) {
            best.get_or_insert(gf);
            goals.push(id);
            continue;
        }
        // Once the cheapest cost `P` is known, a class `g` pushes in lies on a cheapest
        // path only through a push to a class exactly `P - g - 1` pushes from a goal.
        // When the perimeter holds every class that near, and none of them has the
        // copies where a push of this class leaves them, it is not expanded. The last
        // layer is mostly such classes, just under the perimeter's floor (Microban 144:
        // 472 thousand of its 500 thousand expansions at `g = P - 1 - depth`).
        if let (Some(b), Some(p)) = (best, perimeter.as_ref()) {
            let d = b.checked_sub(gf + 1).filter(|&d| d == p.depth());
            if let Some(d) = d {
                if entry.as_ref().is_none_or(|e| e.0 != d) {
                    entry = Some((d, p.layer_set(d, budget)));
                }
                if let Some((_, Some(set))) = entry.as_mut() {
                    if !p.may_enter(set, &cur, &regions) {
                        passed += 1;
                        continue;
                    }
                }
            }
        }
        stats.expanded += 1;
        // The class's regions, so that a push's class is mostly found without a fill.
        let quick = regions.before(&cur, &mut before);
        // Its pushes: on bitsets when the rules allow, else by the closure of walks;
        // either way without those leading off every path (the bitsets never push a
        // copy onto such a cell, and the class has none on one).
        succ.clear();
        acts.clear();
        let work = match pushes.as_mut().filter(|_| quick) {
            Some(p) => p.successors(&mut regions, &mut before, &cur, &mut acts, &mut succ),
            None => {
                exp.inner_closure(split, &cur, &mut cl);
                for (k, &(_, a)) in cl.outer.iter().enumerate() {
                    let st = &cl.outer_states[k * words..(k + 1) * words];
                    if exp.off_every_path(st) {
                        continue;
                    }
                    let base = succ.len();
                    succ.extend_from_slice(st);
                    let next = &mut succ[base..];
                    if quick {
                        regions.canon_after(&mut before, next);
                    } else {
                        regions.canon(next);
                    }
                    acts.push(a);
                }
                cl.work
            }
        };
        stats.stored = classes.len() as u64;
        stats.store_bytes = (classes.bytes()
            + edges.capacity() * 12
            + g.capacity() * 9
            + perimeter.as_ref().map_or(0, Perimeter::bytes)
            + entry
                .as_ref()
                .and_then(|e| e.1.as_ref())
                .map_or(0, LayerSet::bytes)) as u64;
        if let Err(c) = pacer.tick_with(work, budget, stats) {
            return Phase::Cutoff(c);
        }
        stats.generated += acts.len() as u64;
        let hi = h[i];
        for (k, &a) in acts.iter().enumerate() {
            next.copy_from_slice(&succ[k * words..(k + 1) * words]);
            // The class's key in the perimeter, its slot asked for early.
            let packed = perimeter.as_ref().is_some_and(|p| {
                let ok = p.pack(&next, &mut key);
                if ok {
                    p.prefetch(&key);
                }
                ok
            });
            let c = inc0[a.mv().index()];
            let cand = gf + c;
            // The class's exact pushes left when the perimeter met it, looked up once.
            let mut met: Option<Option<u32>> = None;
            if let (Some(b), Some(p)) = (best, perimeter.as_ref()) {
                // The cheapest cost is known: a push to a class that cannot reach a goal
                // within it lies on no cheapest solution, and is neither stored nor
                // linked (the classes marked are the same).
                let left = packed.then(|| p.get_key(&key)).flatten();
                if cand.saturating_add(left.unwrap_or(p.floor)) > b {
                    continue;
                }
                met = Some(left);
            }
            let j = match classes.insert(&next) {
                Ok(j) => {
                    // A class the perimeter met has its exact pushes left (it reaches
                    // a goal, so it is not dead): the other bounds are not needed.
                    let met = met.unwrap_or_else(|| {
                        let p = perimeter.as_ref().filter(|_| packed);
                        p.and_then(|p| p.get_key(&key))
                    });
                    let hj = match met {
                        Some(d) => d,
                        None => {
                            // Raised to the perimeter's floor anyway: the bounds
                            // skip what cannot lift it higher.
                            let floor = perimeter
                                .as_ref()
                                .map_or(0, |p| p.floor.min(UNREACHABLE - 1));
                            let hj = exp.estimate_next_over(&cur, hi, &next, floor);
                            if hj == UNREACHABLE || exp.dead(&next) {
                                UNREACHABLE
                            } else {
                                perimeter.as_ref().map_or(hj, |p| p.beyond(hj))
                            }
                        }
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
        if stats.expanded >= next_grow {
            if let Some(p) = perimeter.as_mut() {
                let want = (next_grow as usize)
                    .saturating_mul(growth.ratio)
                    .min(growth.max);
                match p.grow(&mut regions, want, budget) {
                    Ok(()) => {}
                    // Out of memory: the perimeter stays as it is, the search goes on.
                    Err(Cutoff::Memory(_)) => next_grow = u64::MAX,
                    Err(c) => return Phase::Cutoff(c),
                }
            }
            next_grow = next_grow.saturating_mul(2);
        }
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
    let mut line = format!(
        "cheapest pushes first: {} classes (copies, agent's region) stored, {} expanded, {marked} on a cheapest solution of {best}",
        classes.len(),
        stats.expanded
    );
    if passed > 0 {
        line.push_str(&format!(
            ", {passed} passed over (no push reaches the perimeter's deepest layer)"
        ));
    }
    match &perimeter {
        Some(p) if p.floor == u32::MAX => line.push_str(&format!(
            "; searched backwards from the goal: all {} classes that reach it",
            p.len()
        )),
        Some(p) if p.depth() > 0 => line.push_str(&format!(
            "; searched backwards from the goal: {} classes, all those within {} pushes of it",
            p.len(),
            p.depth()
        )),
        _ => {}
    }
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
        #[cfg(test)]
        passed,
        scratch: vec![],
    }))
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, VecDeque};

    use super::*;
    use crate::engine::Successors;
    use crate::search::Space;
    use crate::Puzzle;

    const FILE: &str = "puzzles/sokoban-boxes.puz";

    /// A `rows` x `cols` room inside walls with a few inner walls, `boxes` boxes on goal
    /// cells pulled about at random by the man (so that most rooms can be solved).
    fn room(seed: &mut u64, rows: usize, cols: usize, boxes: usize) -> String {
        let mut next = |n: usize| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            (*seed % n as u64) as usize
        };
        let (h, w) = (rows + 2, cols + 2);
        let mut g = vec![vec![b'#'; w]; h];
        let mut free = vec![];
        for (r, row) in g.iter_mut().enumerate().take(h - 1).skip(1) {
            for (c, cell) in row.iter_mut().enumerate().take(w - 1).skip(1) {
                if next(100) >= 12 {
                    *cell = b' ';
                    free.push((r, c));
                }
            }
        }
        for i in (1..free.len()).rev() {
            free.swap(i, next(i + 1));
        }
        let goals = free[1..=boxes].to_vec();
        let mut at = goals.clone();
        let mut man = free[0];
        for _ in 0..200 {
            let (dr, dc) = [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)][next(4)];
            let step = |(r, c): (usize, usize), k: i64| {
                ((r as i64 + dr * k) as usize, (c as i64 + dc * k) as usize)
            };
            let to = step(man, 1);
            if g[to.0][to.1] == b'#' || at.contains(&to) {
                continue;
            }
            let behind = step(man, -1);
            if next(2) == 0 {
                if let Some(b) = at.iter_mut().find(|b| **b == behind) {
                    *b = man;
                }
            }
            man = to;
        }
        for &(r, c) in &goals {
            g[r][c] = b'.';
        }
        for &(r, c) in &at {
            g[r][c] = if g[r][c] == b'.' { b'*' } else { b'$' };
        }
        g[man.0][man.1] = if g[man.0][man.1] == b'.' { b'+' } else { b'@' };
        g.iter()
            .map(|r| format!("  {}\n", String::from_utf8_lossy(r)))
            .collect()
    }

    /// The rule file `text` with `level` as its last level, and that level.
    fn with_room(text: &str, level: &str) -> (Puzzle, crate::engine::Level) {
        let full = format!("{text}\nlevel \"room\" \"\"\"\n{level}  \"\"\"\n");
        let puzzle = Puzzle::load(FILE, full).unwrap_or_else(|d| panic!("{d:?}"));
        let lv = puzzle
            .inline_level(puzzle.model.levels.len() - 1)
            .expect("level");
        (puzzle, lv)
    }

    /// An expander on `lv` with its bounds prepared.
    fn prepared(puzzle: &Puzzle, lv: crate::engine::Level) -> Expander<'_> {
        let budget = Budget::default();
        let mut exp = Expander::new(&puzzle.model, lv, &budget).expect("setup");
        exp.prepare_heuristic(&budget).expect("a bound");
        exp
    }

    /// Every state the start of `exp` reaches, and per state the fewest pushes to a goal
    /// state ([`UNREACHABLE`]: none), with the moves as (from, to, pushes added).
    type Edges = Vec<(usize, usize, u32)>;
    fn space(exp: &mut Expander) -> (Vec<Vec<u32>>, Vec<u32>, Edges) {
        let words = Space::words(exp);
        let mut id: HashMap<Vec<u32>, usize> = HashMap::new();
        let mut states = vec![Space::start(exp)];
        id.insert(states[0].clone(), 0);
        let mut edges = vec![];
        let mut succ = Successors::default();
        let mut i = 0;
        while i < states.len() {
            let s = states[i].clone();
            Space::successors(exp, &s, &mut succ);
            for (_, t) in succ.iter(words) {
                let j = *id.entry(t.to_vec()).or_insert_with(|| {
                    states.push(t.to_vec());
                    states.len() - 1
                });
                let changed = s.iter().zip(t).filter(|(a, b)| a != b).count();
                edges.push((i, j, u32::from(changed > 1)));
            }
            i += 1;
        }
        let mut back: Vec<Vec<(usize, u32)>> = vec![vec![]; states.len()];
        for &(i, j, c) in &edges {
            back[j].push((i, c));
        }
        let mut dist = vec![UNREACHABLE; states.len()];
        let mut queue = VecDeque::new();
        for (i, s) in states.iter().enumerate() {
            if Space::is_goal(exp, s) {
                dist[i] = 0;
                queue.push_back(i);
            }
        }
        while let Some(j) = queue.pop_front() {
            for &(i, c) in &back[j] {
                if dist[j] + c < dist[i] {
                    dist[i] = dist[j] + c;
                    if c == 0 {
                        queue.push_front(i);
                    } else {
                        queue.push_back(i);
                    }
                }
            }
        }
        (states, dist, edges)
    }

    /// On seeded random rooms, for every push of the whole space the start reaches: the
    /// class after it found from the class before ([`Regions::canon_after`], mostly
    /// without a fill) is the one a fill finds.
    #[test]
    fn the_class_after_a_push_is_the_one_a_fill_finds() {
        let text = std::fs::read_to_string(FILE).expect("read the rule file");
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut pushes = 0;
        for i in 0..30 {
            let level = room(&mut seed, 4 + i % 3, 5 + i % 2, 2 + i % 4);
            let (puzzle, lv) = with_room(&text, &level);
            let mut exp = prepared(&puzzle, lv);
            let mut regions = exp.push_regions().expect("a pushing puzzle");
            let mut before = Before::new(regions.open().len());
            let (states, _, edges) = space(&mut exp);
            for &(i, j, c) in &edges {
                if c != 1 {
                    continue;
                }
                let (s, t) = (&states[i], &states[j]);
                let mut want = t.clone();
                regions.canon(&mut want);
                assert!(regions.before(s, &mut before));
                let mut got = t.clone();
                regions.canon_after(&mut before, &mut got);
                assert_eq!(got, want, "room {i}:\n{level}");
                pushes += 1;
            }
        }
        assert!(pushes > 10_000, "{pushes} pushes");
    }

    /// On seeded random rooms, from every class of the whole space the start reaches:
    /// the pushes found on bitsets (`Pushes::successors`) are the pushes of the closure
    /// of walks (but those onto a cell no goal is reachable from), action for action
    /// and class for class.
    #[test]
    fn pushes_on_bitsets_are_the_pushes_of_the_closure() {
        let text = std::fs::read_to_string(FILE).expect("read the rule file");
        let mut seed = 0x51_7cc1_b727_220a_u64;
        let mut total = 0;
        for i in 0..30 {
            let level = room(&mut seed, 4 + i % 3, 5 + i % 2, 2 + i % 4);
            let (puzzle, lv) = with_room(&text, &level);
            let mut exp = prepared(&puzzle, lv);
            let split = exp.inner_split(&Budget::default()).expect("a split");
            let mut regions = exp.push_regions().expect("a pushing puzzle");
            let mut pushes = exp.push_moves(&regions).expect("pushes on bitsets");
            let mut before = Before::new(regions.open().len());
            let (states, _, _) = space(&mut exp);
            let words = states[0].len();
            let mut cl = Closure::default();
            let mut done = std::collections::HashSet::new();
            for s in &states {
                let mut c = s.clone();
                regions.canon(&mut c);
                // The search never stores a class with a copy off every path.
                if exp.off_every_path(&c) || !done.insert(c.clone()) {
                    continue;
                }
                exp.inner_closure(&split, &c, &mut cl);
                let mut want: Vec<(u32, Vec<u32>)> = cl
                    .outer
                    .iter()
                    .enumerate()
                    .map(|(k, &(_, a))| {
                        let mut t = cl.outer_states[k * words..(k + 1) * words].to_vec();
                        regions.canon(&mut t);
                        (a.raw(), t)
                    })
                    .filter(|(_, t)| !exp.off_every_path(t))
                    .collect();
                assert!(regions.before(&c, &mut before));
                let (mut acts, mut out) = (vec![], vec![]);
                pushes.successors(&mut regions, &mut before, &c, &mut acts, &mut out);
                let mut got: Vec<(u32, Vec<u32>)> = acts
                    .iter()
                    .zip(out.chunks_exact(words))
                    .map(|(a, t)| (a.raw(), t.to_vec()))
                    .collect();
                want.sort();
                got.sort();
                assert_eq!(got, want, "room {i}:\n{level}");
                total += got.len();
            }
        }
        assert!(total > 10_000, "{total} pushes");
    }

    /// On seeded random rooms of two to five boxes, against the fewest pushes over the
    /// whole space the start reaches: grown to the end, the perimeter holds every state
    /// a goal is reachable from with its exact pushes, and no other; grown a few layers,
    /// its bound is exact where it met the class, never above the fewest pushes, and
    /// consistent along every move.
    #[test]
    fn perimeter_distances_are_the_fewest_pushes() {
        let text = std::fs::read_to_string(FILE).expect("read the rule file");
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let (mut rooms, mut met, mut raised) = (0, 0, 0);
        for i in 0..24 {
            let level = room(&mut seed, 4 + i % 2, 5, 2 + i % 4);
            let (puzzle, lv) = with_room(&text, &level);
            let budget = Budget::default();
            let mut exp = prepared(&puzzle, lv);
            let (states, dist, edges) = space(&mut exp);
            if dist[0] == UNREACHABLE {
                continue;
            }
            rooms += 1;
            let mut regions = exp.push_regions().expect("the push shape");
            let canon = |regions: &mut Regions, s: &[u32]| {
                let mut c = s.to_vec();
                regions.canon(&mut c);
                c
            };
            // Grown to the end.
            let mut whole = exp.push_perimeter(&mut regions).expect("a perimeter");
            whole
                .grow(&mut regions, usize::MAX, &budget)
                .expect("no budget");
            assert_eq!(whole.floor, u32::MAX, "the search ended in\n{level}");
            for (s, &d) in states.iter().zip(&dist) {
                let c = canon(&mut regions, s);
                let got = whole.get(&c).unwrap_or(UNREACHABLE);
                assert_eq!(got, d, "pushes left in\n{level}state {s:?}");
                assert_eq!(whole.raise(&c, 0), d);
            }
            // Grown two layers: a bound.
            let mut part = exp.push_perimeter(&mut regions).expect("a perimeter");
            part.grow(&mut regions, 1, &budget).expect("no budget");
            part.grow(&mut regions, part.len() + 1, &budget)
                .expect("no budget");
            let h: Vec<u32> = states
                .iter()
                .map(|s| {
                    let c = canon(&mut regions, s);
                    part.raise(&c, Space::estimate(&exp, s))
                })
                .collect();
            for (k, s) in states.iter().enumerate() {
                let c = canon(&mut regions, s);
                if let Some(d) = part.get(&c) {
                    assert_eq!(d, dist[k], "met, so exact, in\n{level}");
                    met += 1;
                }
                assert!(
                    h[k] == UNREACHABLE && dist[k] == UNREACHABLE || h[k] <= dist[k],
                    "bound {} above {} in\n{level}",
                    h[k],
                    dist[k]
                );
                raised += usize::from(h[k] > Space::estimate(&exp, s));
            }
            for &(i, j, c) in &edges {
                assert!(
                    h[i] == UNREACHABLE || h[j] == UNREACHABLE || h[i] <= c + h[j],
                    "inconsistent: {} then {} after a move adding {c}, in\n{level}",
                    h[i],
                    h[j]
                );
            }
        }
        assert!(rooms >= 12, "only {rooms} rooms reach a goal");
        assert!(met > 0 && raised > 0, "met {met}, raised {raised}");
    }

    /// Phase one with a perimeter that grows as it goes (from the first expansion, a layer
    /// at a time, by leaps, or kept shallow) marks the same classes, at the same pushes,
    /// as without it, on seeded random rooms of two to five boxes, and on three Microban
    /// levels (22, 30 and 21 pushes), where a shallow perimeter leaves many classes of
    /// the last layer just under its floor: most of them are passed over.
    #[test]
    fn phase_one_marks_the_same_classes_with_a_perimeter() {
        let text = std::fs::read_to_string(FILE).expect("read the rule file");
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut levels: Vec<String> = (0..24)
            .map(|i| room(&mut seed, 4 + i % 3, 5, 2 + i % 4))
            .collect();
        for microban in [
            "     ####\n     # @#\n     #  #\n###### .#\n#   $  .#\n#  $$# .#\n#    ####\n###  #\n  ####\n",
            "      ######\n      #    #\n  ##### .  #\n###  ###.  #\n# $  $  . ##\n# @$$ # . #\n##    #####\n ######\n",
            "######\n# @  #\n# $# #\n# $  #\n# $ ##\n### ####\n #  #  #\n #...  #\n #     #\n #######\n",
        ] {
            // Rows padded with walls: an inline level is a rectangle.
            let width = microban.lines().map(str::len).max().unwrap_or(0);
            let rows = microban.lines().map(|r| format!("{:#<width$}\n", r.replace(' ', "_")));
            levels.push(rows.collect());
        }
        let (mut compared, mut passed) = (0, 0);
        for level in &levels {
            let (puzzle, lv) = with_room(&text, level);
            let budget = Budget::default();
            let mut exp = prepared(&puzzle, lv);
            let split = exp
                .inner_split(&budget)
                .unwrap_or_else(|_| panic!("a split"));
            let inc0: Vec<u32> = puzzle
                .model
                .moves
                .iter()
                .map(|m| m.adds.first().copied().unwrap_or(1))
                .collect();
            let words = exp.words;
            let mut run = |grow: Option<Growth>| {
                let mut regions = exp.push_regions().expect("the push shape");
                let near = grow.and_then(|g| exp.push_perimeter(&mut regions).map(|p| (p, g)));
                let mut stats = Stats::default();
                match cheapest_pushes(&mut exp, &split, regions, &inc0, near, &budget, &mut stats) {
                    Phase::Paths(p) => Some(p),
                    Phase::Unsolvable => None,
                    Phase::Cutoff(c) => panic!("{c:?}"),
                }
            };
            let plain = run(None);
            for growth in [
                Growth {
                    first: 1,
                    ratio: 1,
                    max: usize::MAX,
                },
                Growth {
                    first: 2,
                    ratio: 64,
                    max: usize::MAX,
                },
                Growth {
                    first: 1,
                    ratio: 1,
                    max: 400,
                },
            ] {
                let near = run(Some(growth));
                match (&plain, &near) {
                    (None, None) => {}
                    (Some(a), Some(b)) => {
                        assert_eq!(a.best, b.best, "fewest pushes in\n{level}");
                        let marked = |p: &OnPaths| p.on.iter().filter(|&&x| x).count();
                        assert_eq!(marked(a), marked(b), "classes marked in\n{level}");
                        let mut s = vec![0; words];
                        for id in 0..a.classes.len() {
                            if a.on[id] {
                                a.classes.load(id as u32, &mut s);
                                let j = b.classes.find(&s).expect("marked in both") as usize;
                                assert!(b.on[j] && b.g[j] == a.g[id], "in\n{level}");
                            }
                        }
                        compared += 1;
                        passed += b.passed;
                    }
                    _ => panic!("solvable in one run only:\n{level}"),
                }
            }
        }
        assert!(compared >= 36, "only {compared} runs compared");
        // Classes of the last layer were passed over (no push of theirs reaches the
        // perimeter's deepest layer).
        assert!(passed > 0, "no class passed over");
    }
}
