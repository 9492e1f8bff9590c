//! Pattern databases for pushing puzzles (Sokoban and its kin), derived from the rules
//! ([`Expander::prepare_push_patterns`]): the exact cost of a few of the pushed copies
//! alone with the agent, added to the matching bound of the others.
//!
//! **When they derive.** The level holds two kinds: an *agent* (one copy) and a pushed
//! kind (two copies or more), both covering one cell in one pose; the goal puts the pushed
//! kind on places and says nothing of the agent. Every move is a *walk*, `shift agent d`
//! alone, adding nothing to the first cost component, or a *push*, `require pushed at
//! agent + d`, `shift pushed d`, `shift agent d` in that order, adding one. Tiles never
//! change and the bounds of `mod.rs` put the pushed kind under the *matching*.
//!
//! **The abstraction.** Keep the agent and `k` of the pushed copies; erase the others.
//! Every real path maps to an abstract one of no greater cost: a push of a kept copy is
//! the same push (its target holds no kept copy, since it held no copy at all), a walk is
//! the same walk, and a push of an erased copy becomes the agent's walk into the cell
//! that copy left (free in the abstraction, legal for the agent since the real move put
//! it there). The table holds, for every placement of `k` copies and every cell of the
//! agent, the least first-component cost to put the `k` copies on distinct goal cells:
//! a 0-1 breadth-first search backwards (pulls) from every such placement.
//!
//! **The bound.** For a state and any set `S` of `k` copies: the real solution pays at
//! least `table(S, agent)` for the pushes of `S`'s copies (the abstraction), and at least
//! the cheapest assignment of the other copies to distinct goal cells for theirs (each
//! pays at least its relaxed distance to the goal cell it ends on). The bound is the
//! largest of the matching bound and these sums over every set `S`. Admissible by the
//! above; consistent: for a fixed set of copies followed through a move, the table term
//! drops by at most what the move adds (the abstraction's own move, or a walk costing
//! nothing) and so does the assignment of the others (one moved copy, one relaxed step),
//! and only one of the two changes by a push; the largest over all sets then drops by at
//! most as much. A walk leaves every term as it was (the abstraction's walks cost nothing
//! both ways), so a bound kept across walks stays exact. A placement no goal can be
//! reached from in the abstraction proves the state dead.
//!
//! **Size.** `k` is the largest of 2 to 4 (and at most the copies) for which the table
//! fits [`MAX_TABLE`] entries and a state has at most [`MAX_SETS`] sets; a table is a
//! byte per entry, indexed by the combinatorial rank of the copies' cells and the agent's
//! cell. Sets whose table term cannot beat the bound so far (their term minus what the
//! optimal assignment pays for them) are passed over without solving the others'
//! assignment.

use std::cell::RefCell;
use std::collections::VecDeque;

use super::super::budget::{Budget, Cutoff, Pacer, UNREACHABLE};
use super::super::expander::{Expander, PrepareError};
use super::super::layout::ABSENT;
use super::super::legality::{GOAL, LEGAL};
use super::super::program::{Delta, KOp};
use super::{Combine, Hungarian};
use crate::compile::Subject;

/// The most entries (bytes) a table may have.
const MAX_TABLE: u64 = 1 << 28;

/// The most sets of copies a state's bound looks up.
const MAX_SETS: u64 = 128;

/// Largest copies per set.
const MAX_K: usize = 5;

/// No goal reachable, in the table.
const UNSEEN: u8 = u8::MAX;

/// Largest distance the table holds (a larger one refuses the table).
const MAX_DIST: u32 = 250;

/// No cell of the abstraction.
const NONE: u16 = u16::MAX;

/// The table of one level (see the module header).
pub(super) struct PushPatterns {
    /// The agent's slot and pose bits.
    pub(super) agent: usize,
    agent_bits: u32,
    /// The pushed kind's index in `Bounds::kinds`, and its pose bits.
    pub(super) bound: usize,
    bits: u32,
    /// Copies per set.
    k: usize,
    /// Per padded cell: its index among the abstraction's cells ([`NONE`]: not one).
    index: Vec<u16>,
    /// The abstraction's cells.
    n: usize,
    /// `binom[i * (k + 1) + j]` = C(i, j), for `i <= n`, `j <= k`.
    binom: Vec<u32>,
    /// Per `rank(cells) * n + agent`: the cost (see the module header).
    table: Vec<u8>,
    /// Scratch: the assignment of the copies outside a set.
    rest: RefCell<Hungarian>,
    /// What was built, for `--stats`.
    pub(super) summary: String,
}

/// A build cut off by `c`: past the memory budget, no tables (the search goes on with
/// the other bounds); past the time budget or called off, the cutoff.
fn no_room(c: Cutoff) -> Result<Option<PushPatterns>, PrepareError> {
    match c {
        Cutoff::Memory(_) => Ok(None),
        c => Err(PrepareError::Cutoff(c)),
    }
}

/// The most entries a table may take under `budget`'s memory: half the room left (the
/// other half for the build's queue), or [`MAX_TABLE`] with no memory budget. A smaller
/// table (fewer copies per set) takes the place of one that does not fit.
fn room_for_table(budget: &Budget) -> u64 {
    let mut room = MAX_TABLE;
    while room > 0 && budget.room_for(room * 2).is_err() {
        room /= 2;
    }
    room
}

/// What a table is built over (see [`Expander::push_plan`]).
struct Plan {
    index: Vec<u16>,
    cells: Vec<usize>,
    k: usize,
    size: usize,
}

/// Steps `set` (indices below `n`, increasing) to the next such set in lexicographic
/// order; `false` after the last.
#[inline]
pub(super) fn next_set(set: &mut [usize], n: usize) -> bool {
    let k = set.len();
    let mut j = k;
    loop {
        if j == 0 {
            return false;
        }
        j -= 1;
        if set[j] < n - k + j {
            set[j] += 1;
            for t in j + 1..k {
                set[t] = set[t - 1] + 1;
            }
            return true;
        }
    }
}

/// Combinations `C(i, j)` for `i <= n`, `j <= k`, saturating.
fn binomials(n: usize, k: usize) -> Vec<u32> {
    let k1 = k + 1;
    let mut b = vec![0u32; (n + 1) * k1];
    for i in 0..=n {
        b[i * k1] = 1;
        if i > 0 {
            for j in 1..=k {
                b[i * k1 + j] = b[(i - 1) * k1 + j - 1].saturating_add(b[(i - 1) * k1 + j]);
            }
        }
    }
    b
}

/// `C(n, k)` in 64 bits, saturating (0 when `k > n`).
fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

impl PushPatterns {
    /// The rank of sorted abstraction cells.
    #[inline]
    fn rank(&self, cells: &[u16]) -> usize {
        let k1 = self.k + 1;
        cells
            .iter()
            .enumerate()
            .map(|(i, &c)| self.binom[c as usize * k1 + i + 1] as usize)
            .sum()
    }

    /// The bound of the module header for the pushed copies `words` (with the agent at
    /// `agent_word` in `s`), given `matching`, their optimal assignment's cost, and
    /// `paid`, what that assignment pays per copy (same order as `words`): at least
    /// `matching`, [`UNREACHABLE`] when a set of copies can reach no goal. `at`, at
    /// least `matching`, is where the bound starts: a set whose term cannot beat it is
    /// passed over (so the answer is the larger of `at` and the bound).
    pub(super) fn raise(
        &self,
        matching: u32,
        at: u32,
        words: &[u32],
        agent_word: u32,
        paid: &[u32],
        targets: &[Vec<u32>],
    ) -> u32 {
        let n = words.len();
        if agent_word == 0 || n < self.k || n > 64 || paid.len() != n {
            return at;
        }
        let a = self.index[(agent_word >> self.agent_bits) as usize];
        if a == NONE {
            return at;
        }
        let mut cells = [0u16; 64];
        for (c, &w) in cells.iter_mut().zip(words) {
            if w == 0 {
                return at;
            }
            *c = self.index[(w >> self.bits) as usize];
            if *c == NONE {
                return at;
            }
        }
        let mut best = at.max(matching);
        let mut rest = [0u32; 64];
        // The term of the set of copies `set` whose table entry is `d`: `false` when it
        // can reach no goal.
        let mut consider = |set: &[usize], d: u8, best: &mut u32| -> bool {
            if d == UNSEEN {
                return false;
            }
            let d = u32::from(d);
            let own: u32 = set.iter().map(|&i| paid[i]).sum();
            // The others' assignment costs at most `matching - own`; only when that
            // could beat `best` is it solved.
            if d > own && matching.saturating_sub(own) + d > *best {
                let mut m = 0;
                for (i, &w) in words.iter().enumerate() {
                    if !set.contains(&i) {
                        rest[m] = w;
                        m += 1;
                    }
                }
                let r = self.rest.borrow_mut().solve(&rest[..m], targets);
                if r == UNREACHABLE {
                    return false;
                }
                *best = (*best).max(d + r);
            }
            true
        };
        let a = a as usize;
        if self.k == 2 {
            // Pairs, the common case, without the general stepping: the rank of cells
            // `lo < hi` is `C(lo, 1) + C(hi, 2)`.
            for j in 1..n {
                for i in 0..j {
                    let (x, y) = (cells[i] as usize, cells[j] as usize);
                    let (lo, hi) = (x.min(y), x.max(y));
                    let r = lo + hi * (hi - 1) / 2;
                    debug_assert_eq!(r, self.rank(&[lo as u16, hi as u16]));
                    if !consider(&[i, j], self.table[r * self.n + a], &mut best) {
                        return UNREACHABLE;
                    }
                }
            }
            return best;
        }
        let mut set = [0usize; MAX_K];
        for (i, s) in set.iter_mut().enumerate().take(self.k) {
            *s = i;
        }
        loop {
            // The set's cells, sorted.
            let mut sc = [0u16; MAX_K];
            for (j, &i) in set[..self.k].iter().enumerate() {
                sc[j] = cells[i];
            }
            sc[..self.k].sort_unstable();
            let d = self.table[self.rank(&sc[..self.k]) * self.n + a];
            if !consider(&set[..self.k], d, &mut best) {
                return UNREACHABLE;
            }
            if !next_set(&mut set[..self.k], n) {
                return best;
            }
        }
    }
}

impl Expander<'_> {
    /// Builds the pattern databases of `push.rs` after [`Expander::prepare_heuristic`]:
    /// a line for `--stats` saying what was built, `None` when the rules or the level do
    /// not allow them (or no table fits).
    pub fn prepare_push_patterns(
        &mut self,
        budget: &Budget,
    ) -> Result<Option<String>, PrepareError> {
        let Some(b) = &self.heuristic else {
            return Ok(None);
        };
        if let Some(p) = &b.push {
            return Ok(Some(p.summary.clone()));
        }
        let built = self.derive_push_patterns(budget)?;
        let line = built.as_ref().map(|p| p.summary.clone());
        if let Some(b) = &mut self.heuristic {
            b.push = built;
        }
        Ok(line)
    }

    /// Whether the pushing puzzles' tables are built and take every pushed copy in one
    /// set: then the bound is the exact first cost component left on every state.
    pub(crate) fn push_tables_exact(&self) -> bool {
        self.heuristic.as_ref().is_some_and(|b| {
            b.push
                .as_ref()
                .is_some_and(|p| b.kinds[p.bound].slots.len() == p.k)
        })
    }

    /// The entries (bytes) of the table [`Expander::prepare_push_patterns`] would build:
    /// `None` when it builds none (the bounds not derived, the rules not of the shape of
    /// the module header, no table fits).
    pub fn push_table_entries(&self) -> Option<u64> {
        let (agent, pushed) = self.push_shape()?;
        self.push_plan(agent, pushed, MAX_TABLE)
            .map(|p| p.size as u64)
    }

    /// The agent's and the pushed kind's indices when the rules have the shape of the
    /// module header.
    pub(super) fn push_shape(&self) -> Option<(usize, usize)> {
        let b = self.heuristic.as_ref()?;
        if b.form.is_some() || self.picture.is_some() || self.lay.mutable_count > 0 {
            return None;
        }
        if !self.model.basic() || !self.model.static_tiles() {
            return None;
        }
        let lay = &self.lay;
        let present: Vec<usize> = (0..lay.slots.len())
            .filter(|&k| lay.slots[k].count > 0)
            .collect();
        let &[x, y] = present.as_slice() else {
            return None;
        };
        let (agent, pushed) = if lay.slots[x].count == 1 && lay.slots[y].count > 1 {
            (x, y)
        } else if lay.slots[y].count == 1 && lay.slots[x].count > 1 {
            (y, x)
        } else {
            return None;
        };
        let one_cell = |k: usize| lay.foot[k].len() == 1 && lay.foot[k][0].as_slice() == [0];
        if !one_cell(agent) || !one_cell(pushed) {
            return None;
        }
        if self.goal_slots.iter().any(|&(_, k)| k != pushed) || !b.constrained[pushed] {
            return None;
        }
        let unit = |d: &Delta| matches!(d, Delta::Param { mult: 1 });
        for (mi, ops) in self.prog.runs.moves.iter().enumerate() {
            let adds = self.model.moves[mi].adds.first().copied().unwrap_or(1);
            let walk = matches!(ops.as_slice(),
                [KOp::Shift { var, kind, delta, each: false, .. }]
                    if *var == agent && *kind == agent && unit(delta));
            let push = matches!(ops.as_slice(),
                [
                    KOp::Test { subject: Subject::Piece(p), kind: t, delta: Some(dt), want: true },
                    KOp::Shift { var: v1, kind: k1, delta: d1, each: false, .. },
                    KOp::Shift { var: v2, kind: k2, delta: d2, each: false, .. },
                ] if p.index() == pushed && *t == agent && unit(dt)
                    && *v1 == pushed && *k1 == pushed && unit(d1)
                    && *v2 == agent && *k2 == agent && unit(d2));
            let ok = (walk && adds == 0) || (push && adds > 0);
            if !ok {
                return None;
            }
        }
        Some((agent, pushed))
    }

    /// The abstraction's cells (per padded cell its index, and the cells in order), the
    /// copies per set and the table's entries, for the agent `agent` and the pushed kind
    /// `pushed`; `None` when no table fits.
    fn push_plan(&self, agent: usize, pushed: usize, max_entries: u64) -> Option<Plan> {
        let lay = &self.lay;
        let (abits, bits) = (lay.slots[agent].bits, lay.slots[pushed].bits);
        let (af, bf) = (&self.flags[agent], &self.flags[pushed]);
        let cells_n = lay.ptile.len();
        let legal =
            |f: &Vec<u8>, bits: u32, p: usize| f.get(p << bits).is_some_and(|&x| x & LEGAL != 0);
        // The cells the agent can reach from its start over cells legal for it, and the
        // cells a copy can be pushed onto from them: no copy or agent stands elsewhere
        // in any state the search meets (copies off them leave the bound as it is).
        let start = self.start();
        let from = (start[lay.slots[agent].start] >> abits) as usize;
        let mut reach = vec![false; cells_n];
        let mut stack = vec![from];
        if legal(af, abits, from) {
            reach[from] = true;
        }
        while let Some(p) = stack.pop() {
            for &dl in &lay.dir_delta {
                let q = p as isize + dl;
                if let Ok(q) = usize::try_from(q) {
                    if q < cells_n && !reach[q] && legal(af, abits, q) {
                        reach[q] = true;
                        stack.push(q);
                    }
                }
            }
        }
        let near = |p: usize| {
            lay.dir_delta
                .iter()
                .any(|&dl| usize::try_from(p as isize - dl).is_ok_and(|q| q < cells_n && reach[q]))
        };
        let mut index = vec![NONE; cells_n];
        let mut cells = vec![];
        for (p, ix) in index.iter_mut().enumerate().skip(1) {
            if reach[p] || (legal(bf, bits, p) && near(p)) {
                if cells.len() >= NONE as usize {
                    return None;
                }
                *ix = cells.len() as u16;
                cells.push(p);
            }
        }
        let n = cells.len();
        let count = lay.slots[pushed].count;
        let k = (2..=MAX_K.min(count)).rev().find(|&k| {
            choose(n as u64, k as u64).saturating_mul(n as u64) <= max_entries.min(MAX_TABLE)
                && choose(count as u64, k as u64) <= MAX_SETS
        })?;
        let size = choose(n as u64, k as u64) as usize * n;
        Some(Plan {
            index,
            cells,
            k,
            size,
        })
    }

    /// The tables of the module header, when they derive and one fits.
    fn derive_push_patterns(&self, budget: &Budget) -> Result<Option<PushPatterns>, PrepareError> {
        let Some((agent, pushed)) = self.push_shape() else {
            return Ok(None);
        };
        let b = self.heuristic.as_ref().expect("checked by push_shape");
        let Some(bound) = b.kinds.iter().position(|kb| {
            kb.slots.start == self.lay.slots[pushed].start
                && matches!(kb.combine, Combine::Matching(_))
        }) else {
            return Ok(None);
        };
        let Some(Plan {
            index,
            cells,
            k,
            size,
        }) = self.push_plan(agent, pushed, room_for_table(budget))
        else {
            return Ok(None);
        };
        let lay = &self.lay;
        let (abits, bits) = (lay.slots[agent].bits, lay.slots[pushed].bits);
        let (af, bf) = (&self.flags[agent], &self.flags[pushed]);
        let legal =
            |f: &Vec<u8>, bits: u32, p: usize| f.get(p << bits).is_some_and(|&x| x & LEGAL != 0);
        let (n, count) = (cells.len(), lay.slots[pushed].count);
        // The memory budget's room was checked by the plan; past it the build below
        // gives up the tables rather than the search (`no_room`).
        let nd = lay.dir_delta.len();
        // Per cell and direction: the cell a step ahead and a step back.
        let step = |c: usize, d: usize, sign: isize| -> u16 {
            let p = cells[c] as isize + sign * lay.dir_delta[d];
            usize::try_from(p)
                .ok()
                .and_then(|p| index.get(p).copied())
                .unwrap_or(NONE)
        };
        let ahead: Vec<u16> = (0..n * nd).map(|i| step(i / nd, i % nd, 1)).collect();
        let back: Vec<u16> = (0..n * nd).map(|i| step(i / nd, i % nd, -1)).collect();
        let a_ok: Vec<bool> = cells.iter().map(|&p| legal(af, abits, p)).collect();
        let b_ok: Vec<bool> = cells.iter().map(|&p| legal(bf, bits, p)).collect();
        let goal: Vec<u16> = (0..n as u16)
            .filter(|&c| {
                bf.get(cells[c as usize] << bits)
                    .is_some_and(|&x| x & (LEGAL | GOAL) == LEGAL | GOAL)
            })
            .collect();
        if goal.len() < k {
            return Ok(None);
        }
        let mut pp = PushPatterns {
            agent: lay.slots[agent].start,
            agent_bits: abits,
            bound,
            bits,
            k,
            index,
            n,
            binom: binomials(n, k),
            table: vec![UNSEEN; size],
            rest: RefCell::new(Hungarian::default()),
            summary: String::new(),
        };
        let mut pacer = Pacer::default();
        let mut queue: VecDeque<([u16; MAX_K], u16, u8)> = VecDeque::new();
        // Every placement of k copies on goal cells, the agent anywhere else.
        let mut set: Vec<usize> = (0..k).collect();
        loop {
            let mut sc = [0u16; MAX_K];
            for (j, &i) in set.iter().enumerate() {
                sc[j] = goal[i];
            }
            let r = pp.rank(&sc[..k]);
            for a in 0..n as u16 {
                if a_ok[a as usize] && !sc[..k].contains(&a) {
                    pp.table[r * n + a as usize] = 0;
                    queue.push_back((sc, a, 0));
                }
            }
            if !next_set(&mut set, goal.len()) {
                break;
            }
        }
        let mut stored = 0u64;
        let mut work = 0u64;
        while let Some((sc, a, d)) = queue.pop_front() {
            let r = pp.rank(&sc[..k]);
            if pp.table[r * n + a as usize] != d {
                continue;
            }
            stored += 1;
            work += 1;
            if work >= 1 << 14 {
                if let Err(c) = pacer.tick(work, budget) {
                    return no_room(c);
                }
                work = 0;
            }
            let held = |c: u16| sc[..k].contains(&c);
            for dd in 0..nd {
                // The agent walked here from a step back.
                let from = back[a as usize * nd + dd];
                if from == NONE || !a_ok[from as usize] || held(from) {
                    continue;
                }
                let i = r * n + from as usize;
                if pp.table[i] > d {
                    pp.table[i] = d;
                    queue.push_front((sc, from, d));
                }
                // The agent pushed the copy now a step ahead of it from its own cell.
                let box_at = ahead[a as usize * nd + dd];
                if box_at == NONE || !held(box_at) || !b_ok[a as usize] {
                    continue;
                }
                if u32::from(d) + 1 > MAX_DIST {
                    return Ok(None);
                }
                let mut before = sc;
                for c in before[..k].iter_mut() {
                    if *c == box_at {
                        *c = a;
                    }
                }
                before[..k].sort_unstable();
                let i = pp.rank(&before[..k]) * n + from as usize;
                if pp.table[i] > d + 1 {
                    pp.table[i] = d + 1;
                    queue.push_back((before, from, d + 1));
                }
            }
        }
        if let Err(c) = pacer.tick(work, budget) {
            return no_room(c);
        }
        pp.summary = format!(
            "pattern databases for pushes: every set of {k} of the {count} copies with the agent, {stored} placements reached of {size} ({} MiB)",
            size >> 20
        );
        Ok(Some(pp))
    }
}

/// The agent's regions in a pushing puzzle of the module header's shape
/// ([`Expander::push_regions`]): the cells it walks to for free, with the other pieces
/// fixed. Two states with the same copies and the agent in one region are one *class*:
/// each reaches the other by walks alone, which cost nothing on the first component.
pub struct Regions {
    /// The agent's slot and pose bits.
    agent: usize,
    abits: u32,
    /// The pushed copies' slots and pose bits.
    copies: std::ops::Range<usize>,
    bits: u32,
    /// The padded cells legal for the agent, a bit each.
    open: Vec<u64>,
    pub(super) filler: Filler,
    /// Scratch: the cells legal and free of copies.
    free: Vec<u64>,
    /// On a square grid: the cells around a cell, and which of their sets keep a region
    /// whole when the cell leaves it ([`ring`]).
    ring: Option<Ring>,
}

/// The steps to the eight cells around a cell, in turn (north, north-east, east, ...
/// north-west), and per set of them (a bit each) whether the orthogonal ones among them
/// lie in one run around the cell.
type Ring = ([isize; 8], Box<[bool; 256]>);

impl Regions {
    /// Moves the agent in `s` to the least cell of its region: the class's
    /// representative. A walk is `shift agent d` alone onto a cell legal for the agent
    /// and free of copies (pieces never overlap), so the fill is exactly the closure of
    /// walks. The fill runs on bitsets of the padded cells: a step by `d` is a shift of
    /// the whole set by `d` places, as a cell's neighbour is its index plus `d`.
    pub fn canon(&mut self, s: &mut [u32]) {
        let w0 = s[self.agent];
        if w0 == crate::engine::layout::ABSENT {
            return;
        }
        self.free.copy_from_slice(&self.open);
        for &w in &s[self.copies.clone()] {
            if w != crate::engine::layout::ABSENT {
                let p = (w >> self.bits) as usize;
                self.free[p / 64] &= !(1u64 << (p % 64));
            }
        }
        // The fill starts at the agent's cell, whatever it holds.
        let from = (w0 >> self.abits) as usize;
        self.free[from / 64] |= 1u64 << (from % 64);
        let least = self.filler.fill(&self.free, from, None);
        s[self.agent] = (least as u32) << self.abits | (w0 & ((1 << self.abits) - 1));
    }

    /// A class before a push, for [`Regions::canon_after`]: `false` (and `b` unusable)
    /// when a piece of `s` is absent.
    pub(crate) fn before(&mut self, s: &[u32], b: &mut Before) -> bool {
        let w0 = s[self.agent];
        if w0 == ABSENT || s[self.copies.clone()].contains(&ABSENT) {
            return false;
        }
        b.held.fill(0);
        for &w in &s[self.copies.clone()] {
            let p = (w >> self.bits) as usize;
            b.held[p / 64] |= 1 << (p % 64);
        }
        b.prepare(self, (w0 >> self.abits) as usize);
        true
    }

    /// [`Regions::canon`] of `s`, one push after the class `b` was made from (by
    /// [`Regions::before`]): the copy that left the agent's cell went to the one cell
    /// of `s` that held no copy before. Any other `s` is filled as by `canon`.
    pub(crate) fn canon_after(&mut self, b: &mut Before, s: &mut [u32]) {
        let w0 = s[self.agent];
        if w0 == ABSENT {
            return;
        }
        let at = (w0 >> self.abits) as usize;
        let bit = |v: &[u64], q: usize| v.get(q / 64).is_some_and(|x| x >> (q % 64) & 1 == 1);
        let mut moved = None;
        for &w in &s[self.copies.clone()] {
            if w == ABSENT {
                return self.canon(s);
            }
            let p = (w >> self.bits) as usize;
            if !bit(&b.held, p) {
                if moved.is_some() {
                    return self.canon(s);
                }
                moved = Some(p);
            }
        }
        let Some(oc) = moved else {
            return self.canon(s);
        };
        if !bit(&b.held, at) {
            return self.canon(s);
        }
        let least = b.least_after(self, at, oc, at);
        s[self.agent] = (least as u32) << self.abits | (w0 & ((1 << self.abits) - 1));
    }

    /// The padded cells legal for the agent, a bit each.
    pub(crate) fn open(&self) -> &[u64] {
        &self.open
    }
}

/// A class before one copy moves: its copies, its free cells and its agent's region, and
/// the region's two least cells. [`Before::least_after`] then finds the agent's region
/// after the move mostly without a fill.
pub(crate) struct Before {
    /// The cells of the copies (set by the caller before [`Before::prepare`]).
    pub(super) held: Vec<u64>,
    pub(super) free: Vec<u64>,
    pub(super) region: Vec<u64>,
    least: [usize; 2],
    after: Vec<u64>,
}

impl Before {
    pub(crate) fn new(words: usize) -> Before {
        Before {
            held: vec![0; words],
            free: vec![0; words],
            region: vec![0; words],
            least: [0; 2],
            after: vec![0; words],
        }
    }

    /// With `held` set: the free cells, and the agent's region from cell `at`.
    pub(super) fn prepare(&mut self, regions: &mut Regions, at: usize) {
        for ((f, &o), &h) in self.free.iter_mut().zip(&regions.open).zip(&self.held) {
            *f = o & !h;
        }
        self.free[at / 64] |= 1 << (at % 64);
        self.least[0] = regions.filler.fill(&self.free, at, Some(&mut self.region));
        self.after.copy_from_slice(&self.region);
        self.after[self.least[0] / 64] &= !(1 << (self.least[0] % 64));
        self.least[1] = least_bit(&self.after);
    }

    /// The least cell of the agent's region after the copy at `fr` moved to `oc` (a
    /// free cell), the agent at `at`: in the region before and not at `oc`, or at `fr`
    /// next to the region.
    ///
    /// Without a fill when no other region is next to `fr` (else it would join), and
    /// `oc` is outside the region, or taking it out keeps the region whole (its ring,
    /// [`ring`]), or keeps the region with `fr` whole when `fr` joins (the region with
    /// `fr` is whole, as `fr` is next to `oc`). Then the region after is the one before
    /// without `oc`, with `fr` when `fr` is next to it: its least cell is the least of
    /// the two least cells before that is not `oc`, or `fr`.
    pub(super) fn least_after(
        &mut self,
        regions: &mut Regions,
        fr: usize,
        oc: usize,
        at: usize,
    ) -> usize {
        let quick = self.quick(regions, fr, oc, at);
        self.after.copy_from_slice(&self.free);
        self.after[fr / 64] |= 1 << (fr % 64);
        self.after[oc / 64] &= !(1 << (oc % 64));
        match quick {
            Some(l) => {
                debug_assert_eq!(l, regions.filler.fill(&self.after, at, None));
                l
            }
            None => regions.filler.fill(&self.after, at, None),
        }
    }

    #[inline]
    fn quick(&self, regions: &Regions, fr: usize, oc: usize, at: usize) -> Option<usize> {
        let bit = |v: &[u64], q: usize| v[q / 64] >> (q % 64) & 1 == 1;
        let (ring, simple) = regions.ring.as_ref()?;
        // `fr` joins the region when next to it; another region next to it would join
        // too (then a fill decides).
        let (mut joined, mut merged) = (false, false);
        if bit(&regions.open, fr) {
            for &o in &regions.filler.dirs {
                let q = (fr as isize + o) as usize;
                if q == oc {
                    continue;
                }
                if bit(&self.region, q) {
                    joined = true;
                } else if bit(&self.free, q) {
                    merged = true;
                }
            }
        }
        if merged && joined || !joined && at == fr {
            return None;
        }
        let mut l = self.least[0];
        if bit(&self.region, oc) {
            if oc == self.least[0] {
                l = self.least[1];
            }
            let mask = |with_fr: bool| {
                ring.iter().enumerate().fold(0usize, |m, (i, &o)| {
                    let q = (oc as isize + o) as usize;
                    if bit(&self.region, q) || with_fr && q == fr {
                        m | 1 << i
                    } else {
                        m
                    }
                })
            };
            // The region without `oc` is whole; or, when `fr` joins, the region with
            // `fr` (whole, as `fr` is next to `oc`) without `oc` is.
            if !(simple[mask(false)] || joined && simple[mask(true)]) {
                return None;
            }
        }
        Some(if joined { l.min(fr) } else { l })
    }
}

/// The pushes out of a class, found on bitsets ([`Expander::push_moves`]), for the
/// search over classes: the same successors, as classes, as the closure of the agent's
/// walks with every push from each cell it reaches.
///
/// **Why they are the same.** In the shape of the module header a push by `d` from the
/// agent's cell `p` is legal exactly when a copy stands at `p + d`, the agent may stand
/// there (it is legal for the agent) and `p + 2d` is legal for a copy and free (no two
/// pieces share a cell, and the agent left `p`); it moves that copy to `p + 2d` and the
/// agent to `p + d`. The cells the agent reaches by walks are its region. So the pushes
/// of a class are the cells `p` of the region in `region & (held >> d) & (open >> d) &
/// ((copy-legal & !held) >> 2d)`, per push action; those onto a cell no goal can be
/// reached from are left out (the search drops their classes).
pub(crate) struct Pushes {
    /// Per push action: the action, its step, and what it adds to the first cost
    /// component.
    acts: Vec<(crate::compile::Action, isize)>,
    /// The padded cells a copy may be pushed onto (legal for it, and some goal cell
    /// reachable from them in the relaxation) and those legal for the agent, a bit each.
    b_ok: Vec<u64>,
    open: Vec<u64>,
    agent: usize,
    abits: u32,
    copies: std::ops::Range<usize>,
    bits: u32,
    /// Scratch bitsets.
    at: Vec<u64>,
    tmp: Vec<u64>,
    room: Vec<u64>,
}

impl Pushes {
    /// Every push out of class `s` (canonical), whose copies, free cells and agent's
    /// region `b` holds ([`Regions::before`]): per push, its action, and the class it
    /// leads to (canonical) appended to `out`. Returns the work done, for pacing.
    pub(crate) fn successors(
        &mut self,
        regions: &mut Regions,
        b: &mut Before,
        s: &[u32],
        acts: &mut Vec<crate::compile::Action>,
        out: &mut Vec<u32>,
    ) -> u64 {
        let words = s.len();
        let mut work = 0u64;
        for ai in 0..self.acts.len() {
            let (a, dl) = self.acts[ai];
            // Cells `p` with a copy at `p + d` the agent may enter ...
            self.at.fill(0);
            shift_or(&b.held, -dl, &mut self.at);
            self.tmp.fill(0);
            shift_or(&self.open, -dl, &mut self.tmp);
            for ((x, &r), &t) in self.at.iter_mut().zip(&b.region).zip(&self.tmp) {
                *x &= r & t;
            }
            // ... and `p + 2d` legal for a copy and free.
            for ((t, &ok), &h) in self.tmp.iter_mut().zip(&self.b_ok).zip(&b.held) {
                *t = ok & !h;
            }
            self.room.fill(0);
            shift_or(&self.tmp, -2 * dl, &mut self.room);
            for (x, &r) in self.at.iter_mut().zip(&self.room) {
                *x &= r;
            }
            for j in 0..self.at.len() {
                let mut bits = self.at[j];
                while bits != 0 {
                    let p = j * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    work += 1;
                    let fr = (p as isize + dl) as usize;
                    let oc = (p as isize + 2 * dl) as usize;
                    let least = b.least_after(regions, fr, oc, fr);
                    let base = out.len();
                    out.extend_from_slice(s);
                    let next = &mut out[base..base + words];
                    // The copy at `fr` goes to `oc`; the copies stay sorted.
                    let copies = &mut next[self.copies.clone()];
                    let i = copies
                        .iter()
                        .position(|&w| (w >> self.bits) as usize == fr)
                        .expect("a copy at the cell pushed");
                    let w = (oc as u32) << self.bits | (copies[i] & ((1 << self.bits) - 1));
                    copies[i] = w;
                    let mut i = i;
                    while i + 1 < copies.len() && copies[i + 1] < w {
                        copies.swap(i, i + 1);
                        i += 1;
                    }
                    while i > 0 && copies[i - 1] > w {
                        copies.swap(i, i - 1);
                        i -= 1;
                    }
                    let aw = next[self.agent];
                    next[self.agent] =
                        (least as u32) << self.abits | (aw & ((1 << self.abits) - 1));
                    acts.push(a);
                }
            }
        }
        work + b
            .region
            .iter()
            .map(|x| u64::from(x.count_ones()))
            .sum::<u64>()
    }
}

impl Expander<'_> {
    /// [`Pushes`] when the rules have the shape of the module header (after
    /// [`Expander::prepare_heuristic`]), with `regions` from [`Expander::push_regions`].
    pub(crate) fn push_moves(&self, regions: &Regions) -> Option<Pushes> {
        let (agent, pushed) = self.push_shape()?;
        let lay = &self.lay;
        let sl = &lay.slots[pushed];
        let bits = sl.bits;
        let start = self.start();
        let first = *start.get(sl.start)?;
        let pose = (first & ((1 << bits) - 1)) as usize;
        let cells = lay.ptile.len();
        let nw = regions.open.len();
        let copies = sl.start..sl.start + sl.count;
        // A copy pushed onto a cell no goal is reachable from even alone leads to a
        // class the search drops ([`Expander::off_every_path`]): not pushed at all.
        let live = |w: usize| {
            self.heuristic.as_ref().is_none_or(|b| {
                b.kinds
                    .iter()
                    .filter(|kb| kb.slots == copies)
                    .all(|kb| kb.dist.get(w).is_some_and(|&d| d != UNREACHABLE))
            })
        };
        let mut b_ok = vec![0u64; nw];
        for p in 1..cells {
            let w = p << bits | pose;
            if self.flags[pushed].get(w).is_some_and(|&x| x & LEGAL != 0) && live(w) {
                b_ok[p / 64] |= 1 << (p % 64);
            }
        }
        let mut acts = vec![];
        for (mi, ops) in self.prog.runs.moves.iter().enumerate() {
            if ops.len() != 3 {
                continue; // a walk (the shape has no other moves)
            }
            let super::super::program::Actions::Dirs(ds) = &self.prog.runs.actions[mi] else {
                return None;
            };
            for &d in ds {
                let a = crate::compile::Action::new(
                    crate::compile::MoveId(mi as u16),
                    crate::compile::DirId(d as u16),
                );
                acts.push((a, *lay.dir_delta.get(d)?));
            }
        }
        Some(Pushes {
            acts,
            b_ok,
            open: regions.open.clone(),
            agent: lay.slots[agent].start,
            abits: lay.slots[agent].bits,
            copies,
            bits,
            at: vec![0; nw],
            tmp: vec![0; nw],
            room: vec![0; nw],
        })
    }
}

/// The ring of cells around a cell on a square grid whose steps are `dirs`.
///
/// **Why a run keeps the region whole.** Let `R` be connected, `a` in it, and the
/// neighbours of `a` in `R` all in one run of cells of `R` around `a` (two cells
/// next in turn around `a` are neighbours). A path in `R` through `a` enters from a
/// neighbour and leaves to another; both lie in the run, so the path goes round
/// through the run instead. So `R` without `a` is connected.
fn ring(dirs: &[isize]) -> Option<Ring> {
    let w = dirs.iter().copied().max()?;
    let mut sorted = dirs.to_vec();
    sorted.sort_unstable();
    if w <= 1 || sorted != [-w, -1, 1, w] {
        return None;
    }
    let ring = [-w, 1 - w, 1, 1 + w, w, w - 1, -1, -1 - w];
    let mut simple = Box::new([false; 256]);
    for (m, ok) in simple.iter_mut().enumerate() {
        let set = |i: usize| m >> (i % 8) & 1 == 1;
        let orth: Vec<usize> = (0..8).step_by(2).filter(|&i| set(i)).collect();
        *ok = match orth.first() {
            None => true,
            Some(_) if m == 255 => true,
            Some(&first) => {
                // The run holding `first`: every cell reached going round either
                // way while set.
                let mut run = [false; 8];
                run[first] = true;
                for step in [1, 7] {
                    let mut i = first;
                    while set((i + step) % 8) && (i + step) % 8 != first {
                        i = (i + step) % 8;
                        run[i] = true;
                    }
                }
                orth.iter().all(|&i| run[i])
            }
        };
    }
    Some((ring, simple))
}

/// The fill of a set of free cells by the agent's steps, on bitsets of the padded cells
/// (see [`Regions::canon`]).
pub(super) struct Filler {
    pub(super) dirs: Vec<isize>,
    /// The steps hold `+1`: the fill takes the free cells above it in a run at once.
    up: bool,
    /// Scratch for boards of more than 512 cells: the fill and its next step.
    fill: Vec<u64>,
    grown: Vec<u64>,
}

impl Filler {
    /// The least cell of the fill of `free` from cell `from` (which `free` holds); the
    /// whole fill is written to `out` when given.
    #[inline]
    pub(super) fn fill(&mut self, free: &[u64], from: usize, out: Option<&mut [u64]>) -> usize {
        // Boards of up to 512 cells fill on arrays of a size known when compiling.
        match free.len() {
            1 => done(fill_n::<1>(free, from, &self.dirs, self.up), out),
            2 => done(fill_n::<2>(free, from, &self.dirs, self.up), out),
            3 => done(fill_n::<3>(free, from, &self.dirs, self.up), out),
            4 => done(fill_n::<4>(free, from, &self.dirs, self.up), out),
            5 => done(fill_n::<5>(free, from, &self.dirs, self.up), out),
            6 => done(fill_n::<6>(free, from, &self.dirs, self.up), out),
            7 => done(fill_n::<7>(free, from, &self.dirs, self.up), out),
            8 => done(fill_n::<8>(free, from, &self.dirs, self.up), out),
            _ => {
                self.fill.clear();
                self.fill.resize(free.len(), 0);
                self.grown.resize(free.len(), 0);
                self.fill[from / 64] |= 1u64 << (from % 64);
                loop {
                    self.grown.copy_from_slice(&self.fill);
                    for &dl in &self.dirs {
                        shift_or(&self.fill, dl, &mut self.grown);
                    }
                    let mut same = true;
                    for ((g, &f), &o) in self.grown.iter_mut().zip(&self.fill).zip(free) {
                        *g &= o;
                        same &= *g == f;
                    }
                    if same {
                        break;
                    }
                    std::mem::swap(&mut self.fill, &mut self.grown);
                }
                if let Some(out) = out {
                    out.copy_from_slice(&self.fill);
                }
                least_bit(&self.fill)
            }
        }
    }
}

/// The least cell of `fill`, written to `out` when given.
#[inline(always)]
fn done<const N: usize>(fill: [u64; N], out: Option<&mut [u64]>) -> usize {
    if let Some(out) = out {
        out.copy_from_slice(&fill);
    }
    least_bit(&fill)
}

/// The fill of `free` (`N` words) from cell `from` by the steps `dirs` (see
/// [`Regions::canon`]). With `up`, `dirs` holds `+1`, and each round first takes
/// every free cell above a filled one in its run at once: a carry added at a filled
/// cell runs through the free cells above it, up to the first cell that is not free (so
/// it never joins two rows). The steps then go one cell a round. Every round adds only
/// cells the steps reach, and the fill stops when a round adds none: it is the closure.
#[inline]
fn fill_n<const N: usize>(free: &[u64], from: usize, dirs: &[isize], up: bool) -> [u64; N] {
    let mut open = [0u64; N];
    open.copy_from_slice(free);
    let mut fill = [0u64; N];
    fill[from / 64] |= 1u64 << (from % 64);
    loop {
        let mut grown = fill;
        if up {
            let mut carry = false;
            for j in 0..N {
                let (a, c1) = open[j].overflowing_add(fill[j]);
                let (a, c2) = a.overflowing_add(u64::from(carry));
                carry = c1 | c2;
                grown[j] |= (a ^ open[j]) & open[j];
            }
        }
        let base = grown;
        for &dl in dirs {
            if !(up && dl == 1) {
                shift_or(&base, dl, &mut grown);
            }
        }
        for (g, o) in grown.iter_mut().zip(open) {
            *g &= o;
        }
        if grown == fill {
            return fill;
        }
        fill = grown;
    }
}

/// The index of the least bit set in `bits` (which holds one).
#[inline]
pub(super) fn least_bit(bits: &[u64]) -> usize {
    bits.iter()
        .position(|&x| x != 0)
        .map_or(0, |i| i * 64 + bits[i].trailing_zeros() as usize)
}

/// `dst |= src` shifted by `dl` places (bit `i` to bit `i + dl`); bits shifted past
/// either end are dropped.
#[inline(always)]
pub(super) fn shift_or(src: &[u64], dl: isize, dst: &mut [u64]) {
    let n = src.len();
    let k = dl.unsigned_abs();
    let (q, r) = (k / 64, (k % 64) as u32);
    if q >= n {
        return;
    }
    if dl >= 0 {
        for j in q..n {
            let mut v = src[j - q] << r;
            if r > 0 && j > q {
                v |= src[j - q - 1] >> (64 - r);
            }
            dst[j] |= v;
        }
    } else {
        for j in 0..n - q {
            let mut v = src[j + q] >> r;
            if r > 0 && j + q + 1 < n {
                v |= src[j + q + 1] << (64 - r);
            }
            dst[j] |= v;
        }
    }
}

impl Expander<'_> {
    /// The agent's regions ([`Regions`]) when the rules have the shape of the module
    /// header (after [`Expander::prepare_heuristic`]).
    pub(crate) fn push_regions(&self) -> Option<Regions> {
        let (agent, pushed) = self.push_shape()?;
        let lay = &self.lay;
        let abits = lay.slots[agent].bits;
        let cells = lay.ptile.len();
        let mut open = vec![0u64; cells.div_ceil(64)];
        for p in 0..cells {
            if self.flags[agent]
                .get(p << abits)
                .is_some_and(|&x| x & LEGAL != 0)
            {
                open[p / 64] |= 1u64 << (p % 64);
            }
        }
        let words = open.len();
        let sl = &lay.slots[pushed];
        Some(Regions {
            agent: lay.slots[agent].start,
            abits,
            copies: sl.start..sl.start + sl.count,
            bits: sl.bits,
            open,
            filler: Filler {
                dirs: lay.dir_delta.clone(),
                up: lay.dir_delta.contains(&1),
                fill: vec![],
                grown: vec![],
            },
            free: vec![0; words],
            ring: ring(&lay.dir_delta),
        })
    }
}
