//! The expander: one level under one model, ready to expand states. This file holds the
//! value and its setup (layout, op program, flag tables and the solo shortcut, all in
//! budget); what each part does lives in its own file (see the `engine` module header).

use crate::compile::{Action, DirId, Model, MoveId, PieceId, TileId};

use super::budget::{Budget, Cutoff, Pacer};
use super::interpreter::Scratch;
use super::layout::{Layout, OFF};
use super::legality::{GOAL, LEGAL, LIVE};
use super::level::Level;
use super::program::{Actions, KBase, KCond, Program, NO_STEP, STEP_LIVE};
use crate::compile::Subject;

/// The largest one-step table (entries) built per local move: 16 MiB.
const STEP_TABLE_MAX: usize = 1 << 22;

/// Why a level could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// A budget ran out while building the level's tables.
    Cutoff(Cutoff),
    /// The level does not fit the engine's limits (named in the message).
    TooLarge(String),
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Cutoff(c) => write!(f, "{c}"),
            SetupError::TooLarge(why) => f.write_str(why),
        }
    }
}

/// Why a preparation for a search (heuristic, goal states) gave no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrepareError {
    /// The rules do not allow it; the message says why.
    Refused(String),
    /// A budget ran out while preparing.
    Cutoff(Cutoff),
}

impl From<Cutoff> for PrepareError {
    fn from(c: Cutoff) -> PrepareError {
        PrepareError::Cutoff(c)
    }
}

impl std::fmt::Display for PrepareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PrepareError::Refused(why) => f.write_str(why),
            PrepareError::Cutoff(c) => write!(f, "{c}"),
        }
    }
}

/// The successor table of a level where one piece moves alone by one-step programs on a
/// static board: a lookup and a legality flag per action.
pub(super) struct Solo {
    /// The one kind.
    pub(crate) kind: usize,
    /// Per pose: every (word delta, action) in action order.
    pub(crate) table: Vec<Vec<(i64, Action)>>,
}

/// Expands states of one level under one model.
pub struct Expander<'m> {
    /// The rules.
    pub(crate) model: &'m Model,
    /// The level.
    pub(crate) level: Level,
    /// Words per state.
    pub(crate) words: usize,
    pub(super) lay: Layout,
    pub(super) prog: Program,
    /// Per kind, per state word value: LEGAL | LIVE | GOAL (empty for kinds not placed).
    pub(super) flags: Vec<Vec<u8>>,
    /// (slot, kind) of every instance a goal condition constrains.
    pub(super) goal_slots: Vec<(usize, usize)>,
    /// Set when every move is local and one-step and there is one instance and no
    /// mutable cell.
    pub(super) solo: Option<Solo>,
    /// The bounds derived from the rules (`engine::heuristic`), once prepared.
    pub(super) heuristic: Option<super::heuristic::Bounds>,
    /// The pruning hook: solve searches drop dead successors ([`Expander::retain_live`]).
    pub(super) prune: bool,
    /// With `prune`: the start itself is dead, so every state is (nothing is kept).
    pub(super) dead_start: bool,
    pub(super) sc: Scratch,
    /// The goal's conditions beyond `piece on place`, lowered for this level, without
    /// those folded into `goal_at`.
    pub(super) goal_rest: Vec<KCond>,
    /// Goal conditions `piece at cell` on a kind with one copy, folded per kind: the
    /// copy's slot and, per word value, whether every such condition holds.
    pub(super) goal_at: Vec<(usize, Vec<bool>)>,
    /// The goal is `goal_slots`' flags alone: no `goal_at`, `goal_rest` or picture.
    pub(super) goal_slots_only: bool,
    /// The running search's deadline (see `Space::set_deadline`).
    pub(crate) deadline: Option<web_time::Instant>,
    /// The level's goal picture: per board cell, the piece kind covering it and its tile.
    pub(super) picture: Option<Vec<(Option<PieceId>, TileId)>>,
}

impl<'m> Expander<'m> {
    /// Sets up `level` under `model`: lays out the grid, lowers the move programs and
    /// builds the flag tables, within `budget`'s time and memory.
    pub fn new(model: &'m Model, level: Level, budget: &Budget) -> Result<Self, SetupError> {
        let lay = Layout::new(model, &level, budget)?;
        let cells = level.board.rows * level.board.cols;
        if cells > 1 << 16 && (0..model.moves.len()).any(|i| model.per_cell(MoveId(i as u16))) {
            return Err(SetupError::TooLarge(format!(
                "the level has {cells} cells, but per-cell moves number their cells in 16 bits: at most 65,536 cells"
            )));
        }
        let prog = Program::new(model, &lay);
        let nkinds = model.pieces.len();
        let mut goal_slots = vec![];
        for k in 0..nkinds {
            if model.goal.iter().any(|g| g.piece.index() == k) {
                let sl = &lay.slots[k];
                goal_slots.extend((sl.start..sl.start + sl.count).map(|slot| (slot, k)));
            }
        }
        let mut e = Expander {
            model,
            level,
            words: lay.words,
            sc: Scratch::new(lay.words, nkinds, prog.vars),
            lay,
            prog,
            flags: vec![],
            goal_slots,
            solo: None,
            heuristic: None,
            prune: false,
            dead_start: false,
            goal_rest: vec![],
            goal_at: vec![],
            goal_slots_only: false,
            deadline: None,
            picture: None,
        };
        e.goal_rest = model
            .goal_rest
            .iter()
            .map(|c| e.lay.cond(c, nkinds))
            .collect();
        e.picture = e.level.picture.clone();
        for (k, sl) in e.lay.slots.iter().enumerate() {
            if sl.count == 1 {
                e.sc.bound[k] = sl.start as u32;
                e.sc.singles.push((k, sl.start as u32));
            }
        }
        let mut pacer = Pacer::default();
        for k in 0..nkinds {
            let mut f = e.place_flags(k, budget, &mut pacer)?;
            // Word 0 is an absent copy (padded cell 0 is never on the board): it meets
            // a goal on its kind only when the kind is anonymous (no copy left is fine).
            if let Some(absent) = f.first_mut() {
                *absent = if model.pieces[k].anonymous { GOAL } else { 0 };
            }
            e.flags.push(f);
        }
        e.solo = e.solo_form();
        e.step_tables(budget, &mut pacer)?;
        e.fold_goal(budget, &mut pacer)?;
        e.goal_slots_only = e.goal_at.is_empty() && e.goal_rest.is_empty() && e.picture.is_none();
        if (e.lay.words > 1 && e.prog.local.iter().any(Option::is_some))
            || e.prog.guarded.iter().any(Option::is_some)
        {
            budget.room_for(e.lay.ptile.len() as u64 * 8)?;
            e.sc.occ = vec![0; e.lay.ptile.len()];
        }
        Ok(e)
    }

    /// Fills the one-step tables of the local moves (see `LocalMove::step`), for states
    /// of several words (one word is the solo table's case).
    fn step_tables(&mut self, budget: &Budget, pacer: &mut Pacer) -> Result<(), Cutoff> {
        let lay = &self.lay;
        if lay.words < 2 {
            return Ok(());
        }
        let nd = lay.dir_delta.len();
        for local in self.prog.local.iter_mut().flatten() {
            let Some(single) = &local.single else {
                continue;
            };
            let k = local.kind;
            let flags = &self.flags[k];
            let n = flags.len();
            if n * nd > STEP_TABLE_MAX || n >= STEP_LIVE as usize {
                continue;
            }
            budget.room_for((n * nd * 4) as u64)?;
            let bits = lay.slots[k].bits;
            let mask = (1usize << bits) - 1;
            let mut step = vec![NO_STEP; n * nd];
            for w in 0..n {
                if flags[w] & (LEGAL | LIVE) == 0 {
                    continue;
                }
                for d in 0..nd {
                    let Some((np, v)) = single[(w & mask) * nd + d] else {
                        continue;
                    };
                    let a = (w >> bits) as isize + v;
                    let nw = (a.max(0) as usize) << bits | np as usize;
                    if a < 0 || nw == w || nw >= n || flags[nw] & (LEGAL | LIVE) == 0 {
                        continue;
                    }
                    let live = if flags[nw] & LIVE != 0 { STEP_LIVE } else { 0 };
                    step[w * nd + d] = nw as u32 | live;
                }
            }
            pacer.tick((n * nd) as u64, budget)?;
            let foot = &lay.foot[k];
            let (mut enter, mut enter_at) = (vec![], vec![]);
            for pose in 0..foot.len() {
                for d in 0..nd {
                    let from = enter.len() as u32;
                    if let Some((np, v)) = single[pose * nd + d] {
                        let old = &foot[pose];
                        enter.extend(
                            foot[np as usize]
                                .iter()
                                .filter(|&&dl| !old.contains(&(v + dl))),
                        );
                    }
                    enter_at.push((from, enter.len() as u32));
                }
            }
            local.step = step;
            local.enter = enter;
            local.enter_at = enter_at;
        }
        Ok(())
    }

    /// Moves the goal's conditions `piece at cell` (a fixed cell, a kind with one copy)
    /// out of `goal_rest` into per-word tables: the goal test becomes a lookup.
    fn fold_goal(&mut self, budget: &Budget, pacer: &mut Pacer) -> Result<(), Cutoff> {
        fn conjuncts(c: KCond, out: &mut Vec<KCond>) {
            match c {
                KCond::And(cs) => cs.into_iter().for_each(|c| conjuncts(c, out)),
                c => out.push(c),
            }
        }
        let mut all = vec![];
        for c in std::mem::take(&mut self.goal_rest) {
            conjuncts(c, &mut all);
        }
        let lay = &self.lay;
        for c in all {
            let fixed = match &c {
                KCond::At {
                    subject: Subject::Piece(k),
                    pose: None,
                    of: None,
                    cell,
                    bind: None,
                } if lay.slots[k.index()].count == 1 => match cell.base {
                    KBase::Abs(Some(p)) => Some((k.index(), p as isize + cell.fixed)),
                    _ => None,
                },
                _ => None,
            };
            let Some((k, p)) = fixed else {
                self.goal_rest.push(c);
                continue;
            };
            let slot = lay.slots[k].start;
            let n = self.flags[k].len();
            let at = match self.goal_at.iter().position(|g| g.0 == slot) {
                Some(i) => i,
                None => {
                    budget.room_for(n as u64)?;
                    self.goal_at.push((slot, vec![true; n]));
                    self.goal_at.len() - 1
                }
            };
            let on_board = p >= 0 && (p as usize) < lay.ptile.len() && lay.ptile[p as usize] != OFF;
            let bits = lay.slots[k].bits;
            let foot = &lay.foot[k];
            let table = &mut self.goal_at[at].1;
            for (w, ok) in table.iter_mut().enumerate() {
                let (a, pose) = ((w >> bits) as isize, w & ((1 << bits) - 1));
                *ok = *ok
                    && on_board
                    && w != 0
                    && foot
                        .get(pose)
                        .is_some_and(|f| f.iter().any(|&dl| a + dl == p));
            }
            pacer.tick(n as u64, budget)?;
        }
        Ok(())
    }

    /// The solo table, when one instance moves alone by one-step local programs and no
    /// tile changes.
    fn solo_form(&self) -> Option<Solo> {
        let lay = &self.lay;
        let one_step = |mi: usize| self.prog.local[mi].as_ref()?.single.as_ref();
        if lay.words != 1 || lay.slot_kind.len() != 1 {
            return None;
        }
        if !(0..self.prog.runs.moves.len()).all(|mi| one_step(mi).is_some()) {
            return None;
        }
        let kind = lay.slot_kind[0] as usize;
        let bits = lay.slots[kind].bits;
        let nd = lay.dir_delta.len();
        let poses = self.model.pieces[kind].poses.len();
        let table = (0..poses)
            .map(|pose| {
                let mut row = vec![];
                for mi in 0..self.prog.runs.moves.len() {
                    let table = one_step(mi).expect("every move is one-step");
                    // Only the move's own directions (`move m(d in e, w)`): a per-cell
                    // move has no local form, so every move here ranges over directions.
                    let dirs: &[usize] = match &self.prog.runs.actions[mi] {
                        Actions::Dirs(ds) => ds,
                        Actions::Cells => &[],
                    };
                    for &d in dirs {
                        // A turn that changes nothing is not a move.
                        if let Some((np, v)) =
                            table[pose * nd + d].filter(|&(np, v)| v != 0 || np as usize != pose)
                        {
                            row.push((
                                ((v as i64) << bits) + np as i64 - pose as i64,
                                Action::new(MoveId(mi as u16), DirId(d as u16)),
                            ));
                        }
                    }
                }
                row
            })
            .collect();
        Some(Solo { kind, table })
    }

    /// Whether every move is a flip (see [`super::program::Flips`]): moves commute and
    /// undo themselves.
    pub(crate) fn commuting(&self) -> bool {
        !self.prog.flips.is_empty() && self.prog.flips.iter().all(Option::is_some)
    }

    /// The range of each state word, for dense stores.
    pub(crate) fn radix(&self) -> Vec<u32> {
        self.lay.radix()
    }

    /// The start state.
    pub(crate) fn start(&self) -> Vec<u32> {
        self.lay.start(self.model, &self.level)
    }

    /// The piece kind covering each board cell, for rendering.
    pub(crate) fn occupancy(&self, s: &[u32]) -> Vec<Option<PieceId>> {
        self.lay.occupancy(s)
    }

    /// The tile a board cell holds in state `s`.
    pub(crate) fn tile_now(&self, s: &[u32], cell: u32) -> Option<TileId> {
        self.lay.tile_at(s, self.lay.to_padded(cell) as usize)
    }
}
