//! Invariants derived from the rules that prove a level has no solution without searching
//! it: the permutation parity of the n-puzzle and its kin ([`Expander::parity_proof`]).
//!
//! **When it applies**, all read from the rules and the level: every move is tests
//! followed by one swap, by the same piece kind (the *blank*, one copy), one step of odd
//! length on a chessboard colouring (`dr + dc` odd, for every direction it is played in);
//! every piece covers one cell; no kind has two copies; every board cell holds a piece
//! at the start; and the goal is a picture that draws every board cell with a kind, each
//! kind of the level exactly once. Then swaps keep every cell covered, so each move
//! trades the blank's cell with that of one other piece, of another kind: a
//! transposition of two pieces of distinct kinds.
//!
//! **The invariant.** Number the board cells. A state is a bijection from the pieces to
//! the cells; let `σ` map each piece's goal cell to its cell now, a permutation of the
//! cells, and `c` the colour `(row + column) mod 2` of the blank's cell. A move composes
//! `σ` with one transposition, flipping its parity, and moves the blank an odd step,
//! flipping `c`. So `parity(σ) + c (mod 2)` never changes. In the goal state `σ` is the
//! identity (even) and `c` the colour of the blank's goal cell: a start whose sum differs
//! reaches no goal, however long the search. (Reachability of the others is not claimed:
//! the proof only ever says "no solution".)

use super::expander::Expander;
use super::layout::ABSENT;
use super::program::KOp;
use crate::compile::PieceId;

impl Expander<'_> {
    /// The proof that the level has no solution by the parity invariant (see the module
    /// header), told in one sentence; `None` when the invariant does not apply or the
    /// start has the goal's parity.
    pub fn parity_proof(&self) -> Option<String> {
        let lay = &self.lay;
        let model = self.model;
        if !model.basic() || self.prog.runs.moves.is_empty() {
            return None;
        }
        let pic = self.picture.as_ref()?;
        // Every move: tests, then one swap by the blank, an odd step in every direction.
        let mut blank = None;
        for (ops, actions) in self.prog.runs.moves.iter().zip(&self.prog.runs.actions) {
            let super::program::Actions::Dirs(dirs) = actions else {
                return None;
            };
            let mut swaps = ops.iter().filter(|op| !matches!(op, KOp::Test { .. }));
            let (
                Some(KOp::Swap {
                    var, kind, delta, ..
                }),
                None,
            ) = (swaps.next(), swaps.next())
            else {
                return None;
            };
            if var != kind || blank.is_some_and(|b| b != *kind) {
                return None;
            }
            blank = Some(*kind);
            let odd = dirs.iter().all(|&d| {
                let (dr, dc) = lay.resolve_rc(*delta, d);
                (dr + dc).rem_euclid(2) == 1
            });
            if !odd {
                return None;
            }
        }
        let blank = blank?;
        let one_cell = lay
            .foot
            .iter()
            .all(|poses| poses.iter().all(|f| f.as_slice() == [0]));
        if !one_cell || lay.slots[blank].count != 1 || lay.slots.iter().any(|sl| sl.count > 1) {
            return None;
        }
        // The start: the kind on every board cell, every cell covered.
        let cells = lay.board_cells.len();
        let start = self.start();
        let mut now: Vec<Option<usize>> = vec![None; cells];
        for (slot, &w) in start.iter().enumerate().take(lay.slot_kind.len()) {
            if w == ABSENT {
                continue;
            }
            let (a, _) = lay.anchor(&start, slot);
            let i = lay.board_index(a)?;
            now[i] = Some(lay.slot_kind[slot] as usize);
        }
        if now.iter().any(Option::is_none) || pic.len() != cells {
            return None;
        }
        // The goal: every cell drawn with a kind, each kind of the level once.
        let mut goal_cell = vec![usize::MAX; lay.slots.len()];
        for (i, (pk, _)) in pic.iter().enumerate() {
            let k = pk.map(PieceId::index)?;
            if k >= goal_cell.len() || lay.slots[k].count != 1 || goal_cell[k] != usize::MAX {
                return None;
            }
            goal_cell[k] = i;
        }
        // σ maps each piece's goal cell to its cell now; its parity is the parity of
        // (cells - cycles).
        let mut sigma = vec![0usize; cells];
        for (i, k) in now.iter().enumerate() {
            sigma[goal_cell[k.expect("every cell covered")]] = i;
        }
        let mut seen = vec![false; cells];
        let mut cycles = 0;
        for i in 0..cells {
            if seen[i] {
                continue;
            }
            cycles += 1;
            let mut j = i;
            while !seen[j] {
                seen[j] = true;
                j = sigma[j];
            }
        }
        let odd_perm = (cells - cycles) % 2 == 1;
        let cols = self.level.board.cols.max(1);
        let colour = |i: usize| (i / cols + i % cols) % 2;
        let from = now.iter().position(|&k| k == Some(blank))?;
        let to = goal_cell[blank];
        let moved_colour = colour(from) != colour(to);
        if odd_perm == moved_colour {
            return None;
        }
        let name = &model.pieces[blank].name;
        Some(format!(
            "the parity invariant: every move swaps {name} with one other piece, an odd step on a chessboard colouring, so the permutation of the pieces and the colour of {name}'s square change parity together; the start is an {} permutation of the goal picture with {name} on a square of {} colour as in the goal",
            if odd_perm { "odd" } else { "even" },
            if moved_colour { "another" } else { "the same" },
        ))
    }
}
