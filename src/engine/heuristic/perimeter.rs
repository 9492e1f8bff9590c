//! The exact pushes left near the goal, for pushing puzzles (the shape of `push.rs`): a
//! breadth-first search backwards from the goal over classes of states (the copies, and
//! the agent's region of free cells, see [`Regions`]), by pulls.
//!
//! **The reverse move.** In the shape of `push.rs` a state is legal when the agent and
//! every copy stand on cells legal for their kinds (the `forbid` rules on static tiles)
//! and no two pieces share a cell. A push from agent cell `a - d` moves the copy at `a`
//! to `a + d` and the agent to `a`. So the states one push leads to a legal state `t`
//! are exactly those where, in `t`, the agent stands at `a` with a copy at `a + d`, and
//! `a - d` is legal for the agent and free, and `a` legal for the copy: the copy goes
//! back to `a` and the agent to `a - d` (the push from there is legal, since `t` is). A
//! walk costs nothing on the first component and joins the states of one class; so a
//! class's predecessors are the pulls from every cell of its agent's region, and the
//! search by pulls, one unit each, from every goal class (every copy on a goal cell, the
//! agent in any region) gives each class it meets its exact fewest pushes to a goal.
//!
//! **As a bound.** The search stores whole layers: every class `d` pushes from a goal is
//! met by the end of layer `d`. A class met has its exact distance; one not met is at
//! least `floor` away (one more than the last layer completed). Combined with an admissible,
//! consistent bound `h` as `max(h, floor)` for the classes not met, the bound is
//! admissible and consistent: across a push from `u` to `v` (cost one), when both are
//! met both are exact; when only `u` is, `dist(u) < floor <= h'(v)`; when only `v` is,
//! `dist(v) >= floor - 1` since `u`, one push before it, is at least `floor` away, and
//! `h(u) <= dist(u) <= 1 + dist(v)`; when neither is, `h` is consistent and `floor` is
//! the same on both sides.

use super::super::budget::{Budget, Cutoff, Pacer, UNREACHABLE};
use super::super::expander::Expander;
use super::super::layout::ABSENT;
use super::super::legality::{GOAL, LEGAL};
use super::push::{next_set, Regions};
use crate::engine::StateStore;

/// The most bytes the stored classes may take (about).
const MAX_BYTES: usize = 1 << 30;

/// The most goal placements of the copies the search starts from.
const MAX_PLACEMENTS: usize = 4096;

/// The classes near the goal with their exact pushes left (see the module header), and
/// what the search needs to go on by more layers ([`Perimeter::grow`]).
pub struct Perimeter {
    classes: StateStore,
    dist: Vec<u32>,
    /// Every class not stored is at least this many pushes from a goal ([`u32::MAX`]:
    /// the search is complete, and a class not stored reaches no goal).
    pub floor: u32,
    /// The classes of the last layer stored, not yet expanded, and its distance.
    layer: std::ops::Range<usize>,
    depth: u32,
    shape: Shape,
    /// Scratch: per cell, stamps for the copies and the agent's region.
    held: Vec<u32>,
    seen: Vec<u32>,
    stamp: u32,
    region: Vec<usize>,
    s: Vec<u32>,
    t: Vec<u32>,
}

/// The level's pieces and cells as the pulls need them.
struct Shape {
    aslot: usize,
    abits: u32,
    apose: u32,
    copies: std::ops::Range<usize>,
    bits: u32,
    bpose: u32,
    /// Per padded cell: legal for the agent, for a copy.
    a_ok: Vec<bool>,
    b_ok: Vec<bool>,
    dirs: Vec<isize>,
}

impl Shape {
    #[inline]
    fn step(&self, p: usize, dl: isize) -> Option<usize> {
        usize::try_from(p as isize + dl)
            .ok()
            .filter(|&q| q < self.a_ok.len())
    }
}

impl Perimeter {
    /// The exact pushes left from class `s` (canonical, as [`Regions::canon`] leaves it)
    /// when the search met it.
    #[inline]
    pub fn get(&self, s: &[u32]) -> Option<u32> {
        self.classes.find(s).map(|i| self.dist[i as usize])
    }

    /// The bound on class `s` given `h`, an admissible and consistent bound on it: exact
    /// when the search met it, else at least [`Perimeter::floor`] (see the module header).
    #[inline]
    pub fn raise(&self, s: &[u32], h: u32) -> u32 {
        self.get(s).unwrap_or_else(|| self.beyond(h))
    }

    /// [`Perimeter::raise`] of a class the search did not meet.
    #[inline]
    pub fn beyond(&self, h: u32) -> u32 {
        if self.floor == u32::MAX || h == UNREACHABLE {
            UNREACHABLE
        } else {
            h.max(self.floor)
        }
    }

    /// Classes stored.
    pub fn len(&self) -> usize {
        self.classes.len()
    }

    /// The last layer completed: every class that many pushes from a goal or fewer is
    /// stored.
    pub fn depth(&self) -> u32 {
        self.floor.saturating_sub(1)
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.classes.bytes() + self.dist.capacity() * 4
    }

    /// Goes on by whole layers until `max_classes` classes are stored or the search is
    /// complete; a layer is cut short only at twice that (the classes of the next layer
    /// stored so far are exact, and the floor is their distance), and goes on at the
    /// next call. `Err` when the budget ran
    /// out (the layers stored stay exact).
    pub fn grow(
        &mut self,
        regions: &mut Regions,
        max_classes: usize,
        budget: &Budget,
    ) -> Result<(), Cutoff> {
        let mut pacer = Pacer::default();
        let sh = &self.shape;
        let copies = sh.copies.clone();
        // The most classes stored, past which a layer is cut short: twice the target,
        // and never over MAX_BYTES.
        let per_class = self.s.len() * 4 + 24;
        let max_classes = max_classes.min(MAX_BYTES / per_class);
        let cut = max_classes.saturating_mul(2).min(MAX_BYTES / per_class);
        let mut checked = self.classes.len();
        while self.floor != u32::MAX && self.classes.len() < max_classes {
            if self.layer.is_empty() {
                // Every class that can reach a goal is stored: the rest never do.
                self.floor = u32::MAX;
                break;
            }
            let d = self.depth;
            for id in self.layer.clone() {
                self.classes.load(id as u32, &mut self.s);
                let s = &self.s;
                // The agent's region, with the copies' cells stamped.
                self.stamp = self.stamp.wrapping_add(1);
                if self.stamp == 0 {
                    self.held.fill(0);
                    self.seen.fill(0);
                    self.stamp = 1;
                }
                let stamp = self.stamp;
                for &w in &s[copies.clone()] {
                    self.held[(w >> sh.bits) as usize] = stamp;
                }
                self.region.clear();
                let from = (s[sh.aslot] >> sh.abits) as usize;
                self.seen[from] = stamp;
                self.region.push(from);
                let mut i = 0;
                while i < self.region.len() {
                    let p = self.region[i];
                    i += 1;
                    for &dl in &sh.dirs {
                        if let Some(q) = sh.step(p, dl) {
                            if sh.a_ok[q] && self.seen[q] != stamp && self.held[q] != stamp {
                                self.seen[q] = stamp;
                                self.region.push(q);
                            }
                        }
                    }
                }
                pacer.tick((self.region.len() * sh.dirs.len()) as u64, budget)?;
                // Every pull: the agent at `a` with a copy at `a + d` steps back to
                // `a - d` (in its region: legal and free), the copy to `a`.
                for &a in &self.region {
                    if !sh.b_ok[a] {
                        continue;
                    }
                    for &dl in &sh.dirs {
                        let (Some(bx), Some(back)) = (sh.step(a, dl), sh.step(a, -dl)) else {
                            continue;
                        };
                        if self.held[bx] != stamp || self.seen[back] != stamp {
                            continue;
                        }
                        self.t.copy_from_slice(s);
                        let moved = (bx as u32) << sh.bits | sh.bpose;
                        let c = self.t[copies.clone()]
                            .iter()
                            .position(|&w| w == moved)
                            .expect("the copy stamped there");
                        self.t[copies.start + c] = (a as u32) << sh.bits | sh.bpose;
                        self.t[copies.clone()].sort_unstable();
                        self.t[sh.aslot] = (back as u32) << sh.abits | sh.apose;
                        regions.canon(&mut self.t);
                        if self.classes.insert(&self.t).is_ok() {
                            self.dist.push(d + 1);
                        }
                    }
                }
                if self.classes.len() >= checked + (1 << 16) {
                    checked = self.classes.len();
                    budget.room_for(0)?;
                }
                if self.classes.len() >= cut && id + 1 < self.layer.end {
                    // Cut short: the next layer's classes met are exact, the rest at
                    // least one push further than this layer.
                    self.floor = d + 1;
                    self.layer = id + 1..self.layer.end;
                    return Ok(());
                }
            }
            budget.room_for(0)?;
            // Layer `d + 1` is complete: a class not stored is further.
            self.layer = self.layer.end..self.classes.len();
            self.depth = d + 1;
            self.floor = d + 2;
        }
        Ok(())
    }
}

impl Expander<'_> {
    /// The search of the module header, with layer 0 (the goal classes) stored; `None`
    /// when the rules are not of the shape of `push.rs`, a push does not add exactly one
    /// to the first cost component, or the goal has too many placements.
    pub(crate) fn push_perimeter(&self, regions: &mut Regions) -> Option<Perimeter> {
        let (agent, pushed) = self.push_shape()?;
        for (mi, m) in self.model.moves.iter().enumerate() {
            let push = self.prog.runs.moves[mi].len() > 1;
            let adds = m.adds.first().copied().unwrap_or(1);
            if push && adds != 1 {
                return None;
            }
        }
        if !self.model.pieces[pushed].anonymous {
            return None;
        }
        let lay = &self.lay;
        let (abits, bits) = (lay.slots[agent].bits, lay.slots[pushed].bits);
        let (aslot, first) = (lay.slots[agent].start, lay.slots[pushed].start);
        let count = lay.slots[pushed].count;
        let copies = first..first + count;
        let start = self.start();
        if start[aslot] == ABSENT || start[copies.clone()].contains(&ABSENT) {
            return None;
        }
        let apose = start[aslot] & ((1 << abits) - 1);
        let bpose = start[first] & ((1 << bits) - 1);
        if start[copies.clone()]
            .iter()
            .any(|&w| w & ((1 << bits) - 1) != bpose)
        {
            return None;
        }
        let cells = lay.ptile.len();
        let flag = |k: usize, bits: u32, pose: u32, p: usize| {
            self.flags[k]
                .get(p << bits | pose as usize)
                .copied()
                .unwrap_or(0)
        };
        let a_ok: Vec<bool> = (0..cells)
            .map(|p| p > 0 && flag(agent, abits, apose, p) & LEGAL != 0)
            .collect();
        let b_ok: Vec<bool> = (0..cells)
            .map(|p| p > 0 && flag(pushed, bits, bpose, p) & LEGAL != 0)
            .collect();
        let goals: Vec<usize> = (1..cells)
            .filter(|&p| flag(pushed, bits, bpose, p) & (LEGAL | GOAL) == LEGAL | GOAL)
            .collect();
        if goals.len() < count || choose(goals.len(), count) > MAX_PLACEMENTS {
            return None;
        }
        let mut p = Perimeter {
            classes: StateStore::hashed(self.words),
            dist: vec![],
            floor: 0,
            layer: 0..0,
            depth: 0,
            shape: Shape {
                aslot,
                abits,
                apose,
                copies: copies.clone(),
                bits,
                bpose,
                a_ok,
                b_ok,
                dirs: lay.dir_delta.clone(),
            },
            held: vec![0; cells],
            seen: vec![0; cells],
            stamp: 0,
            region: vec![],
            s: start.clone(),
            t: start.clone(),
        };
        // Layer 0: every placement of the copies on goal cells, the agent in each region.
        let mut set: Vec<usize> = (0..count).collect();
        let mut s = start;
        loop {
            p.stamp += 1;
            for (j, &i) in set.iter().enumerate() {
                s[first + j] = (goals[i] as u32) << bits | bpose;
                p.held[goals[i]] = p.stamp;
            }
            s[copies.clone()].sort_unstable();
            for c in 1..cells {
                if p.shape.a_ok[c] && p.held[c] != p.stamp {
                    p.t.copy_from_slice(&s);
                    p.t[aslot] = (c as u32) << abits | apose;
                    regions.canon(&mut p.t);
                    if p.classes.insert(&p.t).is_ok() {
                        p.dist.push(0);
                    }
                }
            }
            if !next_set(&mut set, goals.len()) {
                break;
            }
        }
        p.layer = 0..p.classes.len();
        p.floor = 1;
        Some(p)
    }
}

/// `C(n, k)`, saturating.
fn choose(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    (0..k).fold(1usize, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}
