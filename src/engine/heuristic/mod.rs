//! Bounds derived from the rules, for A* and for dead-position pruning: for every piece
//! kind the goal constrains, the first cost component a copy needs to reach a goal place
//! when it moves alone, found by a backward search over its own places.
//!
//! **The relaxation.** A copy moves alone: every other piece and test is ignored, except
//! that the pieces a move requires are kept at their offsets. In a straight-line program
//! (tests, one-step shifts and turns), `require box at man + d` followed by `shift box d`
//! puts the man at `box - d` when the box is the one that moves; the man's places before
//! and after the move must then pass the static `forbid` rules, as the real move's must.
//! That is what makes a box in a corner dead in Sokoban, derived from the rules alone.
//! Programs with slides, swaps or anything else fall back to the plain relaxation
//! ([`Expander::relax_op`]): the copy alone, every other piece ignored.
//!
//! **Distances.** A relaxed step by move `m` weighs what `m` adds to the first cost
//! component (0 or 1); `dist[w]` is the lightest relaxed path from place `w` to a goal
//! place (0-1 breadth-first search backwards). For every relaxed step `w -> w'` by `m`,
//! `dist[w] <= c0(m) + dist[w']`.
//!
//! **Bounds per kind**, each admissible (0 on goal states, never above the first
//! component still to pay) and consistent (a move changes it by at most what it adds to
//! the first component, `h(u) <= c0(m) + h(v)`):
//! - *max* over the copies of `dist`: a real move takes each copy along at most one
//!   relaxed step of that move, so each term, hence the maximum, drops by at most `c0(m)`.
//! - *sum* over the copies, when no move can change two copies of the kind (programs
//!   with no swap; in plain programs every op on the kind acts on the one bound copy):
//!   one term changes per move, by at most `c0(m)`. Every copy must reach a goal place on
//!   its own, and the costs of different copies' steps are paid by different moves.
//! - *matching*: the cheapest assignment of copies to distinct goal cells, when the sum
//!   applies and every pose covers just its anchor cell (copies never overlap, so a goal
//!   state puts them on distinct cells). Admissible: a solution assigns each copy the
//!   cell it ends on, and pays at least each copy's distance to that cell. Consistent:
//!   the assignment optimal after a move, applied before it, costs at most `c0(m)` more
//!   (one copy moved one relaxed step), so `h(u) <= h(v) + c0(m)`.
//!
//! **Across kinds.** Kinds whose copies no move changes two of at once (the *summed*
//! kinds, `derive.rs`'s `additive_kinds`) add up: a move changes one term of the sum, by
//! at most `c0(m)`, so the sum is consistent, and it is 0 on goal states, hence
//! admissible (along any solution it drops by at most what each move pays, to 0). In the
//! plain mechanics a move changes one copy of each kind it shifts, slides, turns or
//! swaps, and a swap may displace one copy of any kind; so a kind moved by a swapping
//! move stays out, and of the others no two may be moved by one move. Every other
//! constrained kind combines with that sum by the maximum, which keeps both properties.
//! On the n-puzzle each slide swaps the blank with one tile: the blank stays out (counting
//! it would charge each slide twice) and the tiles' distances, each a tile's own
//! distance to its goal cell (the Manhattan distance), add up to the Manhattan distance
//! of the board. The kinds of a goal picture are constrained too: a copy's goal places
//! are those whose every cell the picture draws with its kind (in the pose drawn).
//!
//! **Dead positions.** A state where some copy's `dist` is infinite can never reach a
//! goal: solve searches drop such states ([`Expander::retain_live`]). So is a state with
//! a *frozen* copy off the goal, for kinds whose moves never change two copies and whose
//! poses cover just their anchor: each relaxed step with offsets needs some cells free of
//! other copies (where the copy lands, where each required piece stands before and after
//! the move); the frozen copies are the greatest set in which every step of every copy
//! needs a cell holding another copy of the set (steps of programs relaxed without
//! offsets never count as blocked). No copy of the set can move first, since its move
//! would be one of its relaxed steps with a needed cell taken, so none ever moves again:
//! in Sokoban, two boxes side by side against a wall, or a 2x2 block of boxes.
//!
//! **Files.** This one holds the bounds and their use by a search (estimates, dead
//! positions, pruning); `derive.rs` derives them from the rules (the relaxed steps and the
//! backward search); `matching.rs` the assignment solver behind the *matching* bound.

mod derive;
mod goalform;
mod matching;
mod pattern;
mod perimeter;
mod push;

pub(crate) use perimeter::{LayerSet, Perimeter};
pub(crate) use push::{Before, Regions};

use std::cell::RefCell;

use super::budget::{Budget, UNREACHABLE};
use super::expander::{Expander, PrepareError};
use super::interpreter::Successors;
use matching::Hungarian;

/// How the copies of one kind combine into a bound.
enum Combine {
    /// The largest distance of any copy.
    Max,
    /// The sum of the copies' distances.
    Sum,
    /// The cheapest assignment of copies to distinct goal cells: per goal cell, the
    /// distance of every place to it.
    Matching(Vec<Vec<u32>>),
}

/// The bound of one constrained kind.
struct KindBound {
    /// Its slots in the state.
    slots: std::ops::Range<usize>,
    /// Per place word: the relaxed first-component distance to a goal place.
    dist: Vec<u32>,
    combine: Combine,
    /// The relaxed steps with the cells each needs, for the frozen-copy test.
    freeze: Option<Freeze>,
    /// Its bound is added to the other summed kinds' (see the module header).
    summed: bool,
}

/// The largest relaxation (places times actions) derived only for pruning.
const MAX_PRUNING_WORK: usize = 1 << 22;

/// Most cells a relaxed step may need free for the frozen-copy test (a step needing more
/// counts as never blocked).
const MAX_NEEDS: usize = 6;

/// The relaxed steps of one kind, for the frozen-copy test (see the module header).
struct Freeze {
    /// Pose bits of the kind's words.
    bits: u32,
    /// Per place word: the range of `needs` holding its steps.
    at: Vec<(u32, u32)>,
    /// Per step: the padded cells it needs free of other copies.
    needs: Vec<([u32; MAX_NEEDS], u8)>,
    /// Per place word: some step from it can never be blocked (a program relaxed without
    /// offsets, or one needing too many cells).
    free: Vec<bool>,
    /// Per place word: its flags' GOAL bit.
    goal: Vec<bool>,
}

/// A relaxed step with offsets: the place reached and the cells it needs free of other
/// copies of the moving kind (`None`: too many to list).
type Step = ((usize, usize), Option<([u32; MAX_NEEDS], u8)>);

/// The bounds of a level (see the module header).
pub(crate) struct Bounds {
    kinds: Vec<KindBound>,
    /// Additive pattern databases (`pattern.rs`), once prepared for IDA*: admissible,
    /// not consistent, so only [`Expander::admissible`] reads them.
    patterns: Option<pattern::Patterns>,
    /// Pattern databases for pushing puzzles (`push.rs`), once prepared: consistent, so
    /// [`Expander::estimate`] reads them.
    push: Option<push::PushPatterns>,
    /// Scratch: what the optimal assignment pays per copy, for `push`.
    paid: RefCell<Vec<u32>>,
    /// Scratch for the assignment problem.
    scratch: RefCell<Hungarian>,
    /// Scratch for the frozen-copy test: per padded cell, the copy on it (`u16::MAX`).
    occ: RefCell<Vec<u16>>,
    /// Per kind: the goal constrains it; its bound is summed.
    constrained: Vec<bool>,
    summed: Vec<bool>,
    /// The bound from the goal's counts and boolean structure (`goalform.rs`), when one
    /// derives.
    form: Option<goalform::GoalForm>,
}

/// What a piece kind other than the relaxed one is known to be, inside one relaxed move.
#[derive(Clone, Copy, Default)]
struct Other {
    /// Its anchor now, when a test fixed it relative to the relaxed copy.
    at: Option<isize>,
    /// Its anchor before the move, when known.
    init: Option<isize>,
    /// It moved before its place was known (its place before the move is unknown).
    shifted: bool,
}

impl Expander<'_> {
    /// Whether the rules let `Expander::prepare_heuristic` derive bounds (on any level
    /// whose tiles stay put): plain mechanics, tiles that never change, a goal about
    /// pieces. The solver's automatic choice reads it once per model.
    pub fn bounds_derive(model: &crate::compile::Model) -> bool {
        model.basic() && model.static_tiles() && !model.goal.is_empty()
    }

    /// Whether the bounds have been derived ([`Expander::prepare_heuristic`]).
    pub(crate) fn has_heuristic(&self) -> bool {
        self.heuristic.is_some()
    }

    /// Whether the derived bounds include the pieces' own distances (not only the
    /// goal's counts, `goalform.rs`): what the automatic choice of IDA* relies on.
    pub(crate) fn has_piece_bounds(&self) -> bool {
        self.heuristic.as_ref().is_some_and(|b| !b.kinds.is_empty())
    }

    /// Whether the goal says where every piece of the level must be: a goal picture, or
    /// a goal condition on every kind with copies. Then a bound from the rules sees every
    /// piece, and the automatic choice may rely on it alone.
    pub(crate) fn goal_places_every_piece(&self) -> bool {
        self.picture.is_some()
            || self
                .lay
                .slots
                .iter()
                .enumerate()
                .all(|(k, sl)| sl.count == 0 || self.goal_slots.iter().any(|&(_, kk)| kk == k))
    }

    /// The base-2 logarithm of an upper bound on the number of states of the level: per
    /// slot, its kind's legal places, and for one-cell kinds at most the board cells the
    /// earlier slots left free; divided by the orderings of interchangeable copies; times
    /// every value of the changing tiles and counters. The solver's automatic choice
    /// reads it to tell a space it can store from one it cannot.
    pub(crate) fn states_log2(&self) -> f64 {
        let lay = &self.lay;
        let mut free = lay.board_cells.len() as f64;
        let mut total = 0.0;
        for (slot, &k) in lay.slot_kind.iter().enumerate() {
            let k = k as usize;
            let legal = self.flags[k]
                .iter()
                .skip(1)
                .filter(|&&f| f & super::legality::LEGAL != 0)
                .count() as f64;
            let one_cell = lay.foot[k].iter().all(|f| f.as_slice() == [0]);
            let mut choices = legal + 1.0; // or absent
            if one_cell {
                choices = choices.min(free.max(1.0) + 1.0);
                free -= 1.0;
            }
            total += choices.max(1.0).log2();
            let sl = &lay.slots[k];
            if self.model.pieces[k].anonymous && slot > sl.start {
                total -= ((slot - sl.start + 1) as f64).log2();
            }
        }
        let radix = lay.radix();
        for &r in &radix[lay.slot_kind.len()..] {
            total += f64::from(r.max(1)).log2();
        }
        total
    }

    /// The bound on the first cost component still to pay from `s` (0 until
    /// [`Expander::prepare_heuristic`]; [`UNREACHABLE`] when no goal can be reached).
    #[inline]
    pub(crate) fn estimate(&self, s: &[u32]) -> u32 {
        self.estimate_from(None, s, 0)
    }

    /// [`Expander::estimate`] of `s`, reached by one move from `from` when given (a
    /// matching then starts from `from`'s, see [`Hungarian::solve_next`]), or `floor`
    /// when that is larger: a caller that raises the bound to `floor` anyway lets the
    /// pushing tables pass over the sets that cannot beat it.
    fn estimate_from(&self, from: Option<&[u32]>, s: &[u32], floor: u32) -> u32 {
        let Some(b) = &self.heuristic else { return 0 };
        let mut best = 0;
        let mut sum = 0u32;
        for (k, kb) in b.kinds.iter().enumerate() {
            let words = &s[kb.slots.clone()];
            let v = match &kb.combine {
                Combine::Max => words
                    .iter()
                    .map(|&w| kb.dist[w as usize])
                    .max()
                    .unwrap_or(0),
                Combine::Sum => words
                    .iter()
                    .try_fold(0u32, |acc, &w| {
                        let d = kb.dist[w as usize];
                        (d != UNREACHABLE).then(|| acc.saturating_add(d).min(UNREACHABLE - 1))
                    })
                    .unwrap_or(UNREACHABLE),
                Combine::Matching(targets) => {
                    if words.iter().any(|&w| kb.dist[w as usize] == UNREACHABLE) {
                        UNREACHABLE
                    } else {
                        let mut h = b.scratch.borrow_mut();
                        let v = match from {
                            Some(f) => h.solve_next(k, &f[kb.slots.clone()], words, targets),
                            None => h.solve(words, targets),
                        };
                        match &b.push {
                            Some(pp) if pp.bound == k && v != UNREACHABLE => {
                                let mut paid = b.paid.borrow_mut();
                                h.paid(words, &mut paid);
                                // A summed kind's term must stay its own bound.
                                let at = if kb.summed { v } else { v.max(floor) };
                                pp.raise(v, at, words, s[pp.agent], &paid, targets)
                            }
                            _ => v,
                        }
                    }
                }
            };
            if v == UNREACHABLE {
                return UNREACHABLE;
            }
            if kb.summed {
                sum = sum.saturating_add(v).min(UNREACHABLE - 1);
            } else {
                best = best.max(v);
            }
        }
        match &b.form {
            Some(form) => best.max(sum).max(self.goal_form_bound(form, s)),
            None => best.max(sum),
        }
    }

    /// A bound that need not be consistent, for IDA*: the largest of
    /// [`Expander::estimate`] and the pattern databases' sum, when prepared.
    #[inline]
    pub(crate) fn admissible(&self, s: &[u32]) -> u32 {
        let h = self.estimate(s);
        match self.heuristic.as_ref().and_then(|b| b.patterns.as_ref()) {
            Some(p) if h != UNREACHABLE => h.max(p.estimate(s)),
            _ => h,
        }
    }

    /// Derives the pattern databases of `pattern.rs` for IDA* (after
    /// [`Expander::prepare_heuristic`]): a line for `--stats` saying what was built, or
    /// `None` when the rules do not allow them.
    pub fn prepare_patterns(&mut self, budget: &Budget) -> Result<Option<String>, PrepareError> {
        let Some(b) = &self.heuristic else {
            return Ok(None);
        };
        if let Some(p) = &b.patterns {
            return Ok(Some(p.summary.clone()));
        }
        let (constrained, summed) = (b.constrained.clone(), b.summed.clone());
        let mut pacer = super::budget::Pacer::default();
        let built = self.derive_patterns(&constrained, &summed, budget, &mut pacer)?;
        let line = built.as_ref().map(|p| p.summary.clone());
        if let Some(b) = &mut self.heuristic {
            b.patterns = built;
        }
        Ok(line)
    }

    /// [`Expander::estimate`] of `to`, a successor of `from` whose estimate is `h_from`:
    /// when the move left every constrained copy in place and no bound reads the goal's
    /// counts, the bound is unchanged.
    #[inline]
    pub(crate) fn estimate_next(&self, from: &[u32], h_from: u32, to: &[u32]) -> u32 {
        self.estimate_next_over(from, h_from, to, 0)
    }

    /// The larger of [`Expander::estimate_next`] and `floor` (or [`UNREACHABLE`]), for a
    /// caller that raises every bound to `floor`: work that cannot lift the bound above
    /// it is skipped.
    #[inline]
    pub(crate) fn estimate_next_over(
        &self,
        from: &[u32],
        h_from: u32,
        to: &[u32],
        floor: u32,
    ) -> u32 {
        let Some(b) = &self.heuristic else {
            return floor;
        };
        let h = if b.form.is_none() && b.kinds.iter().all(|kb| same_words(from, to, &kb.slots)) {
            h_from
        } else {
            self.estimate_from(Some(from), to, floor)
        };
        if h == UNREACHABLE {
            h
        } else {
            h.max(floor)
        }
    }

    /// Whether some constrained copy in `s` stands on a place from which it can reach no
    /// goal place even alone (the first test of [`Expander::dead`], a lookup per copy):
    /// a search may drop such a state before it looks it up.
    #[inline]
    pub(crate) fn off_every_path(&self, s: &[u32]) -> bool {
        self.heuristic.as_ref().is_some_and(|b| {
            b.kinds.iter().any(|kb| {
                s[kb.slots.clone()]
                    .iter()
                    .any(|&w| kb.dist[w as usize] == UNREACHABLE)
            })
        })
    }

    /// Whether some constrained copy in `s` can reach no goal place even in the
    /// relaxation: then no goal can be reached from `s`.
    #[inline]
    pub(crate) fn dead(&self, s: &[u32]) -> bool {
        let Some(b) = &self.heuristic else {
            return false;
        };
        b.kinds.iter().any(|kb| {
            let words = &s[kb.slots.clone()];
            words.iter().any(|&w| kb.dist[w as usize] == UNREACHABLE)
                || kb
                    .freeze
                    .as_ref()
                    .is_some_and(|f| f.frozen_off_goal(words, &b.occ))
        })
    }

    /// The pruning hook of solve searches: drops the successors of `from` that are
    /// [dead] or hold a frozen copy off the goal (see the module header), when
    /// [`Expander::prepare_pruning`] turned pruning on. Successors whose constrained
    /// copies stand where they stood in `from` are kept unchecked: `from` was checked
    /// when it was generated, unless it is the start, checked once when pruning began
    /// (a dead start keeps nothing).
    ///
    /// [dead]: Expander::dead
    #[inline]
    pub(crate) fn retain_live(&self, from: &[u32], out: &mut Successors) {
        if !self.prune {
            return;
        }
        if self.dead_start {
            out.actions.clear();
            out.states.clear();
            return;
        }
        let Some(b) = &self.heuristic else { return };
        out.retain(self.words, |_, s| {
            b.kinds.iter().all(|kb| same_words(from, s, &kb.slots)) || !self.dead(s)
        });
    }

    /// Turns on dead-position pruning for a solve search (never for `analyze` or `graph`,
    /// which count every state): derives the bounds when the rules allow it. `Ok(false)`
    /// when they do not (nothing is pruned); cut off when `budget` runs out.
    pub(crate) fn prepare_pruning(&mut self, budget: &Budget) -> Result<bool, PrepareError> {
        // One piece alone: the search itself is its relaxation, nothing to gain. A
        // relaxation larger than a small search is not worth its setup either.
        let work = self.flags.iter().map(Vec::len).sum::<usize>()
            * self.prog.runs.moves.len()
            * self.lay.dir_delta.len();
        if self.lay.slot_kind.len() < 2 || work > MAX_PRUNING_WORK {
            return Ok(false);
        }
        if self.heuristic.is_none() {
            match self.prepare_heuristic(budget) {
                Ok(()) => {}
                Err(PrepareError::Refused(_)) => return Ok(false),
                Err(e) => return Err(e),
            }
        }
        // Only the pieces' bounds prove states dead (a bound from the goal's counts
        // alone is left to the searches that read bounds).
        if self.heuristic.as_ref().is_some_and(|b| b.kinds.is_empty()) {
            return Ok(false);
        }
        self.prune = true;
        self.dead_start = self.dead(&self.start());
        Ok(true)
    }
}

impl Freeze {
    /// Whether some copy (`words`, 0 = absent) is frozen off the goal (see the module
    /// header): the greatest set of copies each of whose steps needs a cell held by
    /// another copy of the set, found by releasing copies until none can be.
    fn frozen_off_goal(&self, words: &[u32], occ: &RefCell<Vec<u16>>) -> bool {
        let mut occ = occ.borrow_mut();
        let n = words.len().min(u16::MAX as usize);
        let mut frozen = [false; 64];
        if n > frozen.len() {
            return false;
        }
        for (i, &w) in words[..n].iter().enumerate() {
            if w != 0 {
                occ[(w >> self.bits) as usize] = i as u16;
                frozen[i] = !self.free[w as usize];
            }
        }
        let mut changed = true;
        while changed {
            changed = false;
            for i in 0..n {
                if !frozen[i] {
                    continue;
                }
                let (from, to) = self.at[words[i] as usize];
                let moves = self.needs[from as usize..to as usize]
                    .iter()
                    .any(|(cells, len)| {
                        !cells[..*len as usize].iter().any(|&c| {
                            let j = occ[c as usize];
                            j != u16::MAX && j as usize != i && frozen[j as usize]
                        })
                    });
                if moves {
                    frozen[i] = false;
                    changed = true;
                }
            }
        }
        let dead = (0..n).any(|i| frozen[i] && !self.goal[words[i] as usize]);
        for &w in &words[..n] {
            if w != 0 {
                occ[(w >> self.bits) as usize] = u16::MAX;
            }
        }
        dead
    }
}

/// Whether `a` and `b` agree on the words of `slots` (a plain loop: these slices are a
/// few words, where a call to `memcmp` costs more than the comparison).
#[inline(always)]
fn same_words(a: &[u32], b: &[u32], slots: &std::ops::Range<usize>) -> bool {
    a[slots.clone()]
        .iter()
        .zip(&b[slots.clone()])
        .all(|(x, y)| x == y)
}
