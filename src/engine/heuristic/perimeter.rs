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
use super::push::{next_set, shift_or, Before, Regions};
use crate::engine::store::KeyTable;

/// The most bytes the stored classes may take (about).
const MAX_BYTES: usize = 1 << 30;

/// The most goal placements of the copies the search starts from.
const MAX_PLACEMENTS: usize = 4096;

/// The most words of a stored class (the copies a bit per cell legal for them, and the
/// agent's cell).
const MAX_KEY: usize = 64;

/// The classes near the goal with their exact pushes left (see the module header), and
/// what the search needs to go on by more layers ([`Perimeter::grow`]).
pub struct Perimeter {
    /// The classes, each stored as its key ([`Shape::pack`]) with its pushes left.
    classes: KeyTable,
    /// Every class not stored is at least this many pushes from a goal ([`u32::MAX`]:
    /// the search is complete, and a class not stored reaches no goal).
    pub floor: u32,
    /// The classes of the last layer stored, not yet expanded, and its distance.
    layer: std::ops::Range<usize>,
    depth: u32,
    /// The classes of each layer completed (ids in insertion order: layer `d + 1` is
    /// stored while layer `d` is expanded).
    layers: Vec<std::ops::Range<usize>>,
    shape: Shape,
    /// The class expanded: its copies, free cells and agent's region.
    before: Before,
    /// Scratch bitsets of the padded cells: the cells a pull starts from, and the
    /// agent's region shifted.
    from: Vec<u64>,
    shifted: Vec<u64>,
    /// Scratch keys: the class expanded, and the one a pull leads to.
    key: Vec<u32>,
    next: Vec<u32>,
    /// The keys the pulls from one class lead to, and their hashes.
    batch: Vec<u32>,
    hashes: Vec<u64>,
}

/// The copies' places of the classes of one layer ([`Perimeter::layer_set`]), each kept
/// as a fingerprint: the exclusive or of a random word per cell a copy stands on, so that
/// moving one copy changes it by two words. A set of tags, 32 bits of the fingerprint in
/// the slot its other bits choose: a place not in the layer may be taken for one that is
/// (a push looked at for nothing), never the other way.
pub struct LayerSet {
    /// Per copy cell rank, its random word.
    zob: Vec<u64>,
    tags: Vec<u32>,
    mask: usize,
    /// Scratch: the padded cells holding a copy.
    held: Vec<u64>,
}

impl LayerSet {
    fn insert(&mut self, fp: u64) {
        let tag = (fp >> 32) as u32 | 1;
        let mut i = fp as usize & self.mask;
        while self.tags[i] != 0 && self.tags[i] != tag {
            i = (i + 1) & self.mask;
        }
        self.tags[i] = tag;
    }

    fn contains(&self, fp: u64) -> bool {
        let tag = (fp >> 32) as u32 | 1;
        let mut i = fp as usize & self.mask;
        loop {
            match self.tags[i] {
                0 => return false,
                t if t == tag => return true,
                _ => i = (i + 1) & self.mask,
            }
        }
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        (self.tags.capacity() + self.held.capacity() * 2) * 4 + self.zob.capacity() * 8
    }
}

/// The level's pieces and cells as the pulls need them.
struct Shape {
    aslot: usize,
    abits: u32,
    apose: u32,
    copies: std::ops::Range<usize>,
    bits: u32,
    bpose: u32,
    /// The padded cells legal for a copy, a bit each.
    b_ok: Vec<u64>,
    /// Per padded cell legal for a copy, its rank among them ([`NONE`] for the others),
    /// and per rank its cell: a class's key holds a bit per rank for the copies, then
    /// the agent's cell.
    rank: Vec<u32>,
    cell: Vec<u32>,
    /// Words of a key, and the state's words that hold neither the agent nor a copy,
    /// with their values (a state with others is in no class stored).
    words: usize,
    fixed: Vec<(usize, u32)>,
}

/// No rank.
const NONE: u32 = u32::MAX;

impl Shape {
    /// The key of class `s` (canonical) into `key`; `false` when the search cannot
    /// have met it (a copy off the cells legal for copies, another pose or word).
    #[inline]
    fn pack(&self, s: &[u32], key: &mut [u32]) -> bool {
        key.fill(0);
        if self.fixed.iter().any(|&(i, v)| s[i] != v) {
            return false;
        }
        for &w in &s[self.copies.clone()] {
            if w & ((1 << self.bits) - 1) != self.bpose {
                return false;
            }
            match self.rank.get((w >> self.bits) as usize) {
                Some(&r) if r != NONE => key[r as usize / 32] |= 1 << (r % 32),
                _ => return false,
            }
        }
        let a = s[self.aslot];
        if a & ((1 << self.abits) - 1) != self.apose {
            return false;
        }
        key[self.words - 1] = a >> self.abits;
        true
    }
}

impl Perimeter {
    /// The exact pushes left from class `s` (canonical, as [`Regions::canon`] leaves it)
    /// when the search met it.
    #[inline]
    pub fn get(&self, s: &[u32]) -> Option<u32> {
        let mut key = [0u32; MAX_KEY];
        let key = &mut key[..self.shape.words];
        if !self.pack(s, key) {
            return None;
        }
        self.get_key(key)
    }

    /// Words of a class's key ([`Perimeter::pack`]).
    pub fn key_words(&self) -> usize {
        self.shape.words
    }

    /// The key of class `s` (canonical) into `key`; `false` when the search cannot
    /// have met the class.
    #[inline]
    pub fn pack(&self, s: &[u32], key: &mut [u32]) -> bool {
        self.shape.pack(s, key)
    }

    /// [`Perimeter::get`] of a packed class.
    #[inline]
    pub fn get_key(&self, key: &[u32]) -> Option<u32> {
        self.classes.get(key)
    }

    /// Asks the processor early for where [`Perimeter::get_key`] of `key` looks first.
    #[inline]
    pub fn prefetch(&self, key: &[u32]) {
        self.classes.prefetch(KeyTable::hash(key));
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
        self.classes.bytes() + self.batch.capacity() * 4
    }

    /// The copies' places of every class exactly `depth` pushes from a goal, for
    /// [`Perimeter::may_enter`]; `None` while that layer is not complete, or when the
    /// memory budget has no room for the set.
    pub fn layer_set(&self, depth: u32, budget: &Budget) -> Option<LayerSet> {
        let range = self
            .layers
            .get(depth as usize)
            .filter(|_| depth <= self.depth)?;
        let sh = &self.shape;
        let zob: Vec<u64> = (0..sh.cell.len() as u32)
            .map(|r| KeyTable::hash(&[r, 0x9e37_79b9]))
            .collect();
        let cap = (range.len() * 2).next_power_of_two().max(64);
        budget.room_for(cap as u64 * 4).ok()?;
        let mut set = LayerSet {
            zob,
            tags: vec![0; cap],
            mask: cap - 1,
            held: vec![0; self.before.held.len()],
        };
        for id in range.clone() {
            let key = self.classes.key(id);
            let mut fp = 0;
            for (j, &x) in key[..sh.words - 1].iter().enumerate() {
                let mut x = x;
                while x != 0 {
                    fp ^= set.zob[j * 32 + x.trailing_zeros() as usize];
                    x &= x - 1;
                }
            }
            set.insert(fp);
        }
        Some(set)
    }

    /// Whether a push in class `s` (canonical) may lead to a class of `set`'s layer:
    /// `false` only when no push of a copy, from a free cell legal for the agent onto a
    /// free cell legal for copies, leaves the copies where a class of the layer has
    /// them (the agent's region is not looked at: a push it cannot make is let through).
    pub fn may_enter(&self, set: &mut LayerSet, s: &[u32], regions: &Regions) -> bool {
        let (sh, open) = (&self.shape, regions.open());
        let bit = |v: &[u64], i: usize| v.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1);
        set.held.fill(0);
        let mut fp = 0;
        for &w in &s[sh.copies.clone()] {
            let c = (w >> sh.bits) as usize;
            match sh.rank.get(c) {
                Some(&r) if r != NONE && w & ((1 << sh.bits) - 1) == sh.bpose => {
                    fp ^= set.zob[r as usize];
                    set.held[c / 64] |= 1 << (c % 64);
                }
                // Not a class the search could meet: nothing is ruled out.
                _ => return true,
            }
        }
        for &w in &s[sh.copies.clone()] {
            let c = (w >> sh.bits) as usize;
            let from = set.zob[sh.rank[c] as usize];
            for &dl in &regions.filler.dirs {
                let (t, m) = (c.wrapping_add_signed(dl), c.wrapping_add_signed(-dl));
                let Some(&rt) = sh.rank.get(t).filter(|&&r| r != NONE) else {
                    continue;
                };
                if bit(&set.held, t) || bit(&set.held, m) || !bit(open, m) {
                    continue;
                }
                if set.contains(fp ^ from ^ set.zob[rt as usize]) {
                    return true;
                }
            }
        }
        false
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
        // The most classes stored, past which a layer is cut short: twice the target,
        // and never over MAX_BYTES.
        let per_class = KeyTable::bytes_per_key(self.shape.words);
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
                self.key.copy_from_slice(self.classes.key(id));
                // The copies, the cells free of them, and the agent's region.
                let held = &mut self.before.held;
                held.fill(0);
                for (j, &x) in self.key[..sh.words - 1].iter().enumerate() {
                    let mut x = x;
                    while x != 0 {
                        let p = sh.cell[j * 32 + x.trailing_zeros() as usize] as usize;
                        x &= x - 1;
                        held[p / 64] |= 1 << (p % 64);
                    }
                }
                let at = self.key[sh.words - 1] as usize;
                self.before.prepare(regions, at);
                let size: u32 = self.before.region.iter().map(|x| x.count_ones()).sum();
                pacer.tick(u64::from(size) * regions.filler.dirs.len() as u64, budget)?;
                // Every pull: the agent at `a` (in its region, legal for a copy) with a
                // copy at `a + d` steps back to `a - d` (in its region: legal and free),
                // the copy to `a`.
                for di in 0..regions.filler.dirs.len() {
                    let dl = regions.filler.dirs[di];
                    self.from.fill(0);
                    shift_or(&self.before.held, -dl, &mut self.from);
                    self.shifted.fill(0);
                    shift_or(&self.before.region, dl, &mut self.shifted);
                    for (((f, &r), &b), &k) in self
                        .from
                        .iter_mut()
                        .zip(&self.before.region)
                        .zip(&sh.b_ok)
                        .zip(&self.shifted)
                    {
                        *f &= r & b & k;
                    }
                    for j in 0..self.from.len() {
                        let mut bitsj = self.from[j];
                        while bitsj != 0 {
                            let a = j * 64 + bitsj.trailing_zeros() as usize;
                            bitsj &= bitsj - 1;
                            let bx = (a as isize + dl) as usize;
                            let back = (a as isize - dl) as usize;
                            let least = self.before.least_after(regions, bx, a, back);
                            // The key after the pull: the copy at `bx` now at `a`.
                            self.next.copy_from_slice(&self.key);
                            let (rb, ra) = (sh.rank[bx], sh.rank[a]);
                            self.next[rb as usize / 32] &= !(1 << (rb % 32));
                            self.next[ra as usize / 32] |= 1 << (ra % 32);
                            self.next[sh.words - 1] = least as u32;
                            // Asked for early: its slot is read after the other pulls.
                            let h = KeyTable::hash(&self.next);
                            self.classes.prefetch(h);
                            self.batch.extend_from_slice(&self.next);
                            self.hashes.push(h);
                        }
                    }
                }
                for (key, &h) in self.batch.chunks_exact(sh.words).zip(&self.hashes) {
                    self.classes.insert_hashed(key, h, d + 1);
                }
                self.batch.clear();
                self.hashes.clear();
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
            self.layers.push(self.layer.clone());
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
        // Words of a bitset of the padded cells.
        let nw = regions.open().len();
        let mut b_ok = vec![0u64; nw];
        for p in 1..cells {
            if flag(pushed, bits, bpose, p) & LEGAL != 0 {
                b_ok[p / 64] |= 1 << (p % 64);
            }
        }
        let goals: Vec<usize> = (1..cells)
            .filter(|&p| flag(pushed, bits, bpose, p) & (LEGAL | GOAL) == LEGAL | GOAL)
            .collect();
        if goals.len() < count || choose(goals.len(), count) > MAX_PLACEMENTS {
            return None;
        }
        let mut rank = vec![NONE; cells];
        let mut cell = vec![];
        for (p, r) in rank.iter_mut().enumerate() {
            if b_ok[p / 64] >> (p % 64) & 1 == 1 {
                *r = cell.len() as u32;
                cell.push(p as u32);
            }
        }
        let words = cell.len().div_ceil(32) + 1;
        if words > MAX_KEY {
            return None;
        }
        let fixed = (0..self.words)
            .filter(|&i| i != aslot && !copies.contains(&i))
            .map(|i| (i, start[i]))
            .collect();
        let mut p = Perimeter {
            classes: KeyTable::new(words),
            floor: 0,
            layer: 0..0,
            depth: 0,
            layers: vec![],
            shape: Shape {
                aslot,
                abits,
                apose,
                copies: copies.clone(),
                bits,
                bpose,
                b_ok,
                rank,
                cell,
                words,
                fixed,
            },
            before: Before::new(nw),
            from: vec![0; nw],
            shifted: vec![0; nw],
            key: vec![0; words],
            next: vec![0; words],
            batch: vec![],
            hashes: vec![],
        };
        // Layer 0: every placement of the copies on goal cells, the agent in each region
        // (the least cell left free is the least of its region: the regions of the cells
        // below it are taken out).
        let mut set: Vec<usize> = (0..count).collect();
        let (mut free, mut region) = (vec![0; nw], vec![0; nw]);
        loop {
            free.copy_from_slice(regions.open());
            p.key.fill(0);
            for &i in &set {
                let g = goals[i];
                free[g / 64] &= !(1 << (g % 64));
                let r = p.shape.rank[g];
                p.key[r as usize / 32] |= 1 << (r % 32);
            }
            while let Some(j) = free.iter().position(|&x| x != 0) {
                let c = j * 64 + free[j].trailing_zeros() as usize;
                regions.filler.fill(&free, c, Some(&mut region));
                for (f, &r) in free.iter_mut().zip(&region) {
                    *f &= !r;
                }
                p.key[words - 1] = c as u32;
                p.classes.insert_hashed(&p.key, KeyTable::hash(&p.key), 0);
            }
            if !next_set(&mut set, goals.len()) {
                break;
            }
        }
        p.layer = 0..p.classes.len();
        p.layers.push(p.layer.clone());
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
