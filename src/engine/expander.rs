//! The expander: one level under one model, ready to expand states. This file holds the
//! value and its setup (layout, op program, flag tables and the solo shortcut, all in
//! budget); what each part does lives in its own file (see the `engine` module header).

use crate::compile::{Action, DirId, Model, MoveId, PieceId, TileId};

use super::budget::{Budget, Cutoff, Pacer};
use super::interpreter::Scratch;
use super::layout::Layout;
use super::level::Level;
use super::program::Program;

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
    /// Per kind with goal conditions: relaxed distance to the goal of every place.
    pub(super) heuristic: Option<Vec<Option<Vec<u32>>>>,
    pub(super) sc: Scratch,
    /// The goal's conditions beyond `piece on place`, lowered for this level.
    pub(super) goal_rest: Vec<super::program::KCond>,
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
            goal_rest: vec![],
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
            }
        }
        let mut pacer = Pacer::default();
        for k in 0..nkinds {
            let f = e.place_flags(k, budget, &mut pacer)?;
            e.flags.push(f);
        }
        e.solo = e.solo_form();
        if e.lay.words > 1 && e.prog.local.iter().any(Option::is_some) {
            budget.room_for(e.lay.ptile.len() as u64 * 4)?;
            e.sc.occ = vec![0; e.lay.ptile.len()];
        }
        Ok(e)
    }

    /// The solo table, when one instance moves alone by one-step local programs and no
    /// tile changes.
    fn solo_form(&self) -> Option<Solo> {
        let lay = &self.lay;
        let one_step = |mi: usize| self.prog.local[mi].as_ref()?.single.as_ref();
        if lay.words != 1 || lay.slot_kind.len() != 1 {
            return None;
        }
        if !(0..self.prog.moves.len()).all(|mi| one_step(mi).is_some()) {
            return None;
        }
        let kind = lay.slot_kind[0] as usize;
        let bits = lay.slots[kind].bits;
        let nd = lay.dir_delta.len();
        let poses = self.model.pieces[kind].poses.len();
        let table = (0..poses)
            .map(|pose| {
                let mut row = vec![];
                for mi in 0..self.prog.moves.len() {
                    let table = one_step(mi).expect("every move is one-step");
                    for d in 0..nd {
                        if let Some((np, v)) = table[pose * nd + d] {
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
