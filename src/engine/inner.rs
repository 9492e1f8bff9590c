//! Inner closures, for layered search: one piece that no goal names (Sokoban's man,
//! Huarong Dao's blank) moves between the moves that matter, and the positions it reaches
//! with everything else fixed form a closure that is searched on a flat array of its
//! places instead of as whole states.
//!
//! A transition is *inner* when it moves that piece alone and costs what its inner moves
//! cost (walks); every other transition (a push, the token trading places with the blank)
//! is *outer* and leads to a new node of the layered search. Inside a closure, most
//! places of the piece are *quiet*: no other piece stands in any cell a move reads or
//! enters from there, so every move's result is the one it has on a board without the
//! other pieces, looked up in a table built once per level. Only at the other places
//! (next to a box, beside the token) the interpreter runs the moves on the whole state.
//!
//! The split is derived from the compiled rules alone, never from names: the rules are
//! the seed mechanics on a board whose tiles never change, with no move limit; the piece
//! is named (one copy), in no goal condition and no goal picture; and every statement of
//! every move reads or moves that piece, or a piece an earlier `require` found next to it,
//! so the cells a move depends on are known relative to the piece ([`Expander::inner_split`]).

use crate::compile::{Action, DirId, MoveId, Op, Param, Step, Subject};

use super::budget::{Budget, Cutoff, Pacer};
use super::expander::Expander;
use super::interpreter::Successors;
use super::layout::ABSENT;
use super::legality::LEGAL;

/// The largest table of moves on an empty board (entries): 64 MiB.
const QUIET_MAX: usize = 1 << 24;

/// Why a level has no inner split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SplitError {
    /// The rules or the level do not allow one; the message says why.
    Refused(String),
    /// A budget ran out while building the tables.
    Cutoff(Cutoff),
}

impl From<Cutoff> for SplitError {
    fn from(c: Cutoff) -> SplitError {
        SplitError::Cutoff(c)
    }
}

/// Whether the rules may allow an inner split on some level (the level decides): the
/// seed mechanics on tiles that never change, no move limit, and a named piece that no
/// goal condition names.
pub fn may_split(model: &crate::compile::Model) -> bool {
    model.basic()
        && model.static_tiles()
        && model.limit.is_none()
        && (0..model.pieces.len())
            .any(|k| !model.pieces[k].anonymous && model.goal.iter().all(|g| g.piece.index() != k))
}

/// A quiet step that is no move (see [`InnerSplit::quiet`]).
const NO_MOVE: u32 = u32::MAX;

/// How one level's transitions split into inner steps of one piece and outer
/// transitions, with the tables a closure needs.
#[derive(Clone, Debug)]
pub struct InnerSplit {
    /// The inner piece's slot in a state.
    pub slot: usize,
    /// Its pose bits within a word.
    bits: u32,
    /// What every inner step adds to each cost component.
    pub inner_adds: Vec<u32>,
    /// Per move: a step of the inner piece alone by this move is inner (its cost is
    /// `inner_adds`).
    inner_move: Vec<bool>,
    /// Every action, in action order.
    actions: Vec<Action>,
    /// Per `word * actions + action`: the word after the action on a board without the
    /// other pieces ([`NO_MOVE`] when it fails or changes nothing).
    quiet: Vec<u32>,
    /// Values a word of the inner piece can take.
    radix: usize,
    /// The inner piece's kind.
    kind: usize,
    /// Per pose: every cell (relative to the anchor) some action reads or enters.
    near: Vec<Vec<isize>>,
    /// Per `pose * actions + action`: the range of `zones` holding the cells (relative
    /// to the anchor) that action reads or enters.
    zone_at: Vec<(u32, u32)>,
    zones: Vec<isize>,
    /// Some quiet step is an outer transition (a move of the piece alone at another cost).
    quiet_outer: bool,
    /// The level's padded cells.
    cells: usize,
}

impl Closure {
    /// Place `nw`, reached from place `i` by inner action `a` at `d` inner steps: kept
    /// when it is new to this closure.
    #[inline(always)]
    fn reach(&mut self, nw: u32, i: usize, a: Action, d: u32, stamp: u32) {
        if self.seen[nw as usize] != stamp {
            self.seen[nw as usize] = stamp;
            self.words.push(nw);
            self.parent.push(i as u32);
            self.action.push(a);
            self.dist.push(d);
        }
    }

    /// The quiet result `nw` of action `a` from place `i` of the closure of `s`: an inner
    /// step, an outer transition of the piece alone, or nothing ([`NO_MOVE`]).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn quiet_step(
        &mut self,
        sp: &InnerSplit,
        s: &[u32],
        i: usize,
        a: Action,
        nw: u32,
        d: u32,
        stamp: u32,
    ) {
        if nw == NO_MOVE {
            return;
        }
        if sp.inner_move[a.mv().index()] {
            self.reach(nw, i, a, d, stamp);
        } else {
            self.outer.push((i as u32, a));
            let at = self.outer_states.len();
            self.outer_states.extend_from_slice(s);
            self.outer_states[at + sp.slot] = nw;
        }
    }
}

impl InnerSplit {
    /// Whether a step of the inner piece alone by move `m` is an inner step.
    pub fn is_inner_move(&self, m: usize) -> bool {
        self.inner_move.get(m).copied().unwrap_or(false)
    }
}

/// One closure: the places the inner piece reaches from a state, in breadth-first order,
/// and the outer transitions from them.
#[derive(Default)]
pub struct Closure {
    /// The inner piece's word at each place reached, in the order reached.
    pub words: Vec<u32>,
    /// The index of the place each was first reached from (`u32::MAX` for the first).
    pub parent: Vec<u32>,
    /// The inner action that reached it.
    pub action: Vec<Action>,
    /// Inner steps from the first place.
    pub dist: Vec<u32>,
    /// Outer transitions: (index of the place, action), in the order found.
    pub outer: Vec<(u32, Action)>,
    /// The states the outer transitions lead to, flattened.
    pub outer_states: Vec<u32>,
    /// Work done (places and moves looked at), for budget pacing.
    pub work: u64,
    seen: Vec<u32>,
    /// Per word: stamped when the place is next to another piece.
    noisy: Vec<u32>,
    occ: Vec<u32>,
    cells: Vec<usize>,
    stamp: u32,
    full: Vec<u32>,
    succ: Successors,
}

impl Closure {
    /// The inner actions from the first place to place `i`, in order.
    pub fn segment(&self, mut i: usize) -> Vec<Action> {
        let mut out = vec![];
        while self.parent[i] != u32::MAX {
            out.push(self.action[i]);
            i = self.parent[i] as usize;
        }
        out.reverse();
        out
    }

    /// The words of the places from the first place to place `i`, in order (the first
    /// place excluded).
    pub fn segment_words(&self, mut i: usize) -> Vec<u32> {
        let mut out = vec![];
        while self.parent[i] != u32::MAX {
            out.push(self.words[i]);
            i = self.parent[i] as usize;
        }
        out.reverse();
        out
    }
}

/// The cells an action reads for pieces or enters, relative to the inner piece's anchor
/// before the move, and whether the move is possible at all from `pose`; `Err` when a
/// statement acts on a piece the move has not found next to the inner piece, or slides
/// the inner piece (a slide reads cells without bound).
fn zone(
    exp: &Expander,
    kind: usize,
    ops: &[Op],
    d: usize,
    mut pose: usize,
) -> Result<Option<Vec<isize>>, String> {
    let lay = &exp.lay;
    let model = exp.model;
    let delta = |s: &Step| {
        let dir = s.fixed.map_or(d, |f| f.index());
        let v = lay.dir_delta[dir] * s.times as isize;
        if s.negate {
            -v
        } else {
            v
        }
    };
    let mut off = 0isize;
    let mut bound = vec![false; model.pieces.len()];
    bound[kind] = true;
    let mut cells = vec![];
    let name = |k: usize| model.pieces[k].name.clone();
    for op in ops {
        match op {
            Op::Test {
                subject,
                cell,
                want,
            } => {
                let k = cell.piece.index();
                if k != kind {
                    if !bound[k] {
                        return Err(format!(
                            "a test looks near `{}`, which the move did not find next to `{}`",
                            name(k),
                            name(kind)
                        ));
                    }
                    continue;
                }
                let at = off + cell.step.as_ref().map_or(0, delta);
                if let Subject::Piece(q) = subject {
                    if q.index() != kind {
                        cells.push(at);
                        if *want {
                            bound[q.index()] = true;
                        }
                    }
                }
            }
            Op::Shift { piece, step, .. } | Op::Swap { piece, step, .. }
                if piece.index() == kind =>
            {
                off += delta(step);
                if matches!(op, Op::Swap { .. }) {
                    cells.extend(lay.foot[kind][pose].iter().map(|&f| off + f));
                }
            }
            Op::Turn { piece, table, .. } if piece.index() == kind => {
                let nd = lay.dir_delta.len();
                let Some((p, dr, dc)) = table[pose * nd + d] else {
                    return Ok(None);
                };
                off += lay.lin(dr, dc);
                pose = p.index();
            }
            Op::Slide { piece, .. } if piece.index() == kind => {
                return Err(format!(
                    "`{}` slides: a slide reads cells without bound",
                    name(kind)
                ));
            }
            Op::Shift { piece, .. }
            | Op::Swap { piece, .. }
            | Op::Turn { piece, .. }
            | Op::Slide { piece, .. } => {
                if !bound[piece.index()] {
                    return Err(format!(
                        "a move acts on `{}` without finding it next to `{}`",
                        name(piece.index()),
                        name(kind)
                    ));
                }
            }
            _ => return Err("a move goes beyond the seed mechanics".into()),
        }
    }
    cells.extend(lay.foot[kind][pose].iter().map(|&f| off + f));
    cells.sort_unstable();
    cells.dedup();
    Ok(Some(cells))
}

impl Expander<'_> {
    /// What an inner split and the closures of a level depend on besides the rules: the
    /// state's layout, the board's tiles and the marks that moves and forbids read (marks
    /// only goals read, like Huarong Dao's target, may differ). Two levels of one model
    /// with equal keys have equal splits and equal closures of equal states.
    pub fn reuse_key(&self) -> Vec<u64> {
        let lay = &self.lay;
        let model = self.model;
        let mut marks = 0u32;
        let bit = |p: &crate::compile::Place| match p {
            crate::compile::Place::Mark(m) => 1u32 << m.0,
            crate::compile::Place::Tile(_) => 0,
        };
        for f in &model.forbids {
            marks |= bit(&f.place);
        }
        for m in &model.moves {
            crate::compile::walk_ops(&m.ops, &mut |op| match op {
                Op::Test {
                    subject: Subject::Mark(m),
                    ..
                } => marks |= 1 << m.0,
                Op::Slide { rules, .. } => {
                    for r in rules {
                        if let crate::compile::SlideEvent::Into(p) = &r.event {
                            marks |= bit(p);
                        }
                    }
                }
                _ => {}
            });
        }
        let mut key = vec![
            lay.words as u64,
            lay.ptile.len() as u64,
            lay.dir_delta.first().map_or(0, |&d| d as u64),
        ];
        key.push(lay.size().0 as u64);
        key.push(lay.size().1 as u64);
        key.extend(
            lay.slot_kind
                .iter()
                .zip(&lay.slot_bits)
                .map(|(&k, &b)| (k as u64) << 32 | b as u64),
        );
        key.extend(
            lay.ptile
                .iter()
                .zip(&lay.pmarks)
                .map(|(&t, &m)| (t as u64) << 32 | (m & marks) as u64),
        );
        key
    }

    /// The inner split of this level, or why there is none (see the module header),
    /// built within `budget`'s time and memory.
    pub fn inner_split(&mut self, budget: &Budget) -> Result<InnerSplit, SplitError> {
        let model = self.model;
        let refuse = |why: &str| Err(SplitError::Refused(why.into()));
        if !model.basic() {
            return refuse("the rules go beyond the seed mechanics");
        }
        if model.limit.is_some() {
            return refuse("the rules limit the number of moves");
        }
        if self.lay.mutable_count > 0 {
            return refuse("tiles change during play");
        }
        if self.picture.is_some() {
            return refuse("the level draws its goal as a picture, which places every piece");
        }
        if self.lay.words != self.lay.slot_kind.len() {
            return refuse("the state holds more than piece places");
        }
        let mut why = String::from("no piece moves alone between the moves a goal depends on");
        for kind in 0..model.pieces.len() {
            let p = &model.pieces[kind];
            if p.anonymous
                || self.lay.slots[kind].count != 1
                || model.goal.iter().any(|g| g.piece.index() == kind)
            {
                continue;
            }
            match self.split_on(kind, budget) {
                Ok(s) => return Ok(s),
                Err(SplitError::Refused(e)) => why = e,
                Err(c) => return Err(c),
            }
        }
        Err(SplitError::Refused(why))
    }

    /// The split with `kind` as the inner piece.
    fn split_on(&mut self, kind: usize, budget: &Budget) -> Result<InnerSplit, SplitError> {
        let model = self.model;
        let slot = self.lay.slots[kind].start;
        let bits = self.lay.slots[kind].bits;
        let poses = model.pieces[kind].poses.len();
        let mut actions = vec![];
        for (mi, m) in model.moves.iter().enumerate() {
            let Param::Dirs(ds) = &m.param else {
                return Err(SplitError::Refused("a move ranges over cells".into()));
            };
            actions.extend(ds.iter().map(|d| Action::new(MoveId(mi as u16), *d)));
        }
        let na = actions.len();
        let mut zone_at = Vec::with_capacity(poses * na);
        let mut zones = vec![];
        for pose in 0..poses {
            for a in &actions {
                let ops = &model.moves[a.mv().index()].ops;
                let z = zone(self, kind, ops, a.dir().index(), pose)
                    .map_err(SplitError::Refused)?
                    .unwrap_or_default();
                zone_at.push((zones.len() as u32, (zones.len() + z.len()) as u32));
                zones.extend(z);
            }
        }
        let radix = self.radix()[slot] as usize;
        let cells = self.lay.ptile.len();
        // The quiet table: every move on a board holding the inner piece alone.
        if radix.saturating_mul(na) > QUIET_MAX {
            return Err(SplitError::Refused(format!(
                "the table of moves on an empty board would have {} entries (at most {QUIET_MAX})",
                radix.saturating_mul(na)
            )));
        }
        budget.room_for((radix * na * 4) as u64)?;
        let mut pacer = Pacer::default();
        let mut quiet = vec![NO_MOVE; radix * na];
        let mut inner_adds: Option<Vec<u32>> = None;
        let mut inner_move = vec![false; model.moves.len()];
        let mut lone = vec![ABSENT; self.words];
        let mut succ = Successors::default();
        for w in 1..radix {
            if self.flags[kind].get(w).is_none_or(|f| f & LEGAL == 0) {
                continue;
            }
            lone[slot] = w as u32;
            self.successors(&lone, &mut succ);
            pacer.tick(na as u64 + succ.units(), budget)?;
            for i in 0..succ.len() {
                let st = succ.state(i, self.words);
                if st
                    .iter()
                    .enumerate()
                    .any(|(j, &v)| j != slot && v != ABSENT)
                {
                    return Err(SplitError::Refused(
                        "a move changes more than the piece alone on an empty board".into(),
                    ));
                }
                let a = succ.actions[i];
                let ai = actions
                    .binary_search(&a)
                    .expect("actions are listed in order");
                quiet[w * na + ai] = st[slot];
                let m = a.mv().index();
                let adds = &model.moves[m].adds;
                match &inner_adds {
                    None => {
                        inner_adds = Some(adds.clone());
                        inner_move[m] = true;
                    }
                    Some(c) if c == adds => inner_move[m] = true,
                    Some(_) => {}
                }
            }
        }
        let near: Vec<Vec<isize>> = (0..poses)
            .map(|pose| {
                let mut v: Vec<isize> = zone_at[pose * na..pose * na + na]
                    .iter()
                    .flat_map(|&(lo, hi)| zones[lo as usize..hi as usize].iter().copied())
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            })
            .collect();
        let quiet_outer = quiet
            .iter()
            .enumerate()
            .any(|(i, &nw)| nw != NO_MOVE && !inner_move[actions[i % na].mv().index()]);
        let Some(inner_adds) = inner_adds else {
            return Err(SplitError::Refused(format!(
                "`{}` never moves alone",
                model.pieces[kind].name
            )));
        };
        Ok(InnerSplit {
            slot,
            bits,
            inner_adds,
            inner_move,
            actions,
            quiet,
            near,
            zone_at,
            zones,
            radix,
            kind,
            quiet_outer,
            cells,
        })
    }

    /// The closure of state `s` under inner steps (see the module header): the places
    /// the inner piece reaches, breadth-first in action order (so each place's path is the
    /// smallest of the shortest), and every outer transition from each. When quiet places
    /// have no outer transitions, the search stops once every place next to another piece
    /// has been expanded: the places left can only lead to more inner steps.
    pub fn inner_closure(&mut self, sp: &InnerSplit, s: &[u32], cl: &mut Closure) {
        let words = self.words;
        cl.words.clear();
        cl.parent.clear();
        cl.action.clear();
        cl.dist.clear();
        cl.outer.clear();
        cl.outer_states.clear();
        cl.work = 0;
        if cl.seen.len() != sp.radix || cl.occ.len() != sp.cells {
            cl.seen = vec![0; sp.radix];
            cl.noisy = vec![0; sp.radix];
            cl.occ = vec![0; sp.cells];
            cl.stamp = 0;
        }
        cl.stamp = cl.stamp.wrapping_add(1);
        if cl.stamp == 0 {
            cl.seen.fill(0);
            cl.noisy.fill(0);
            cl.occ.fill(0);
            cl.stamp = 1;
        }
        let stamp = cl.stamp;
        // The other pieces' cells, then the places whose moves may read or enter them.
        let lay = &self.lay;
        let mut occupied = std::mem::take(&mut cl.cells);
        occupied.clear();
        for slot in 0..words {
            if slot == sp.slot || s[slot] == ABSENT {
                continue;
            }
            let (a, pose) = lay.anchor(s, slot);
            let k = lay.slot_kind[slot] as usize;
            for &f in &lay.foot[k][pose] {
                let c = (a as isize + f) as usize;
                cl.occ[c] = stamp;
                occupied.push(c);
            }
        }
        let flags = &self.flags[sp.kind];
        let mut pending = 0usize;
        for &c in &occupied {
            for (pose, near) in sp.near.iter().enumerate() {
                for &z in near {
                    let a = c as isize - z;
                    if a <= 0 || a as usize >= sp.cells {
                        continue;
                    }
                    let w = (a as usize) << sp.bits | pose;
                    if w >= sp.radix
                        || cl.noisy[w] == stamp
                        || flags[w] & LEGAL == 0
                        || lay.foot[sp.kind][pose]
                            .iter()
                            .any(|&f| cl.occ[(a + f) as usize] == stamp)
                    {
                        continue;
                    }
                    cl.noisy[w] = stamp;
                    pending += 1;
                }
            }
        }
        cl.cells = occupied;
        let na = sp.actions.len();
        // The programs, taken once per closure for the places next to other pieces.
        let mut cl_runs = None;
        let w0 = s[sp.slot];
        cl.seen[w0 as usize] = stamp;
        cl.words.push(w0);
        cl.parent.push(u32::MAX);
        cl.action.push(
            sp.actions
                .first()
                .copied()
                .unwrap_or(Action::new(MoveId(0), DirId(0))),
        );
        cl.dist.push(0);
        let mut i = 0;
        while i < cl.words.len() {
            let w = cl.words[i];
            cl.work += na as u64;
            let d = cl.dist[i] + 1;
            if cl.noisy[w as usize] != stamp {
                let row = &sp.quiet[w as usize * na..w as usize * na + na];
                for (ai, &nw) in row.iter().enumerate() {
                    cl.quiet_step(sp, s, i, sp.actions[ai], nw, d, stamp);
                }
            } else {
                // Next to another piece: an action whose cells hold none of them has its
                // quiet result; the others run on the whole state, in action order.
                let pose = w as usize & ((1 << sp.bits) - 1);
                let anchor = (w >> sp.bits) as isize;
                let mut full = std::mem::take(&mut cl.full);
                full.clear();
                full.extend_from_slice(s);
                full[sp.slot] = w;
                let mut succ = std::mem::take(&mut cl.succ);
                for ai in 0..na {
                    let a = sp.actions[ai];
                    let (lo, hi) = sp.zone_at[pose * na + ai];
                    let crowded = sp.zones[lo as usize..hi as usize].iter().any(|&z| {
                        let c = anchor + z;
                        c >= 0 && (c as usize) < sp.cells && cl.occ[c as usize] == stamp
                    });
                    if !crowded {
                        cl.quiet_step(sp, s, i, a, sp.quiet[w as usize * na + ai], d, stamp);
                        continue;
                    }
                    let runs = cl_runs.get_or_insert_with(|| self.runs());
                    self.successors_by(runs, &full, a, &mut succ);
                    cl.work += succ.units();
                    for k in 0..succ.len() {
                        let st = succ.state(k, words);
                        let alone = (0..words).all(|j| j == sp.slot || st[j] == full[j]);
                        if alone && sp.inner_move[a.mv().index()] {
                            cl.reach(st[sp.slot], i, a, d, stamp);
                        } else {
                            cl.outer.push((i as u32, a));
                            cl.outer_states.extend_from_slice(st);
                        }
                    }
                }
                cl.full = full;
                cl.succ = succ;
                pending -= 1;
                if pending == 0 && !sp.quiet_outer {
                    break;
                }
            }
            i += 1;
        }
    }
}
