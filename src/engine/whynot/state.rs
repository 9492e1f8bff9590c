//! A state decoded for callers outside the engine (play, serve, tests): every piece on
//! the board with its pose and cells, the counters, the tiles, the start and the
//! successors.

use crate::compile::Action;

use super::super::expander::Expander;
use super::super::layout::ABSENT;
/// One piece on the board in some state, decoded from its slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacedPiece {
    /// Its kind (an index into `Model::pieces`).
    pub kind: usize,
    /// Its slot in the state.
    pub slot: usize,
    /// Its pose (an index into the kind's poses).
    pub pose: usize,
    /// Its anchor as (row, column); beyond the board where `outside` allows.
    pub anchor: (i64, i64),
    /// The cells it covers, as (row, column), in the pose's order.
    pub cells: Vec<(i64, i64)>,
}

impl Expander<'_> {
    /// The board (row, column) of a padded cell, signed for cells beyond the edge.
    pub(crate) fn board_pos(&self, padded: usize) -> (i64, i64) {
        let (r, c) = self.lay.row_col(padded);
        let (pr, pc) = self.lay.row_col(self.lay.to_padded(0) as usize);
        (r as i64 - pr as i64, c as i64 - pc as i64)
    }

    /// Every piece on the board in `s`, in slot order (kinds in declaration order, then
    /// copies); absent copies are left out.
    pub fn pieces_in(&self, s: &[u32]) -> Vec<PlacedPiece> {
        let lay = &self.lay;
        let mut out = vec![];
        for (slot, &k) in lay.slot_kind.iter().enumerate() {
            if s.get(slot).is_none_or(|&w| w == ABSENT) {
                continue;
            }
            let k = k as usize;
            let (a, pose) = lay.anchor(s, slot);
            let Some(p) = self.model.pieces[k].poses.get(pose) else {
                continue;
            };
            let anchor = self.board_pos(a);
            let cells = p
                .cells
                .iter()
                .map(|&(dr, dc)| (anchor.0 + dr as i64, anchor.1 + dc as i64))
                .collect();
            out.push(PlacedPiece {
                kind: k,
                slot,
                pose,
                anchor,
                cells,
            });
        }
        out
    }

    /// The start state of the level.
    pub fn start_state(&self) -> Vec<u32> {
        self.start()
    }

    /// Every successor of `s` as (action, state), in action order: what a search
    /// expands, for callers outside the engine (play, tests).
    pub fn successor_list(&mut self, s: &[u32]) -> Vec<(Action, Vec<u32>)> {
        if s.len() != self.words {
            return vec![];
        }
        let mut out = super::super::Successors::default();
        self.successors(s, &mut out);
        (0..out.len())
            .map(|i| (out.actions[i], out.state(i, self.words).to_vec()))
            .collect()
    }

    /// The value of every counter in `s`, in declaration order.
    pub fn counters_in(&self, s: &[u32]) -> Vec<u32> {
        (0..self.model.counters.len())
            .map(|c| s.get(self.lay.counters_at + c).copied().unwrap_or(0))
            .collect()
    }

    /// The tile of every board cell in `s`, row-major, as indices into `Model::tiles`.
    pub fn tiles_in(&self, s: &[u32]) -> Vec<u16> {
        let n = self.lay.board_cells.len();
        (0..n as u32)
            .map(|cell| match self.tile_now(s, cell) {
                Some(t) => t.0,
                None => self.level.board.tiles[cell as usize].0,
            })
            .collect()
    }
}
