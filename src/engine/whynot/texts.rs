//! How the tracer names things in a sentence: a piece variable, a copy where it stands,
//! what a test looks for, a step's direction.

use crate::compile::Subject;

use super::super::expander::Expander;
use super::super::layout::ABSENT;
use super::super::program::Delta;

impl Expander<'_> {
    /// The slot bound to piece variable `var`, when that copy is on the board.
    pub(super) fn present(&self, var: usize) -> Option<usize> {
        self.bound_slot(var)
            .filter(|&slot| self.sc.cur.get(slot).is_some_and(|&w| w != ABSENT))
    }

    /// The kind name of a piece variable (a kind or an alias).
    pub(super) fn var_name(&self, var: usize) -> String {
        let model = self.model;
        let k = if var < model.pieces.len() {
            Some(var)
        } else {
            self.bound_slot(var)
                .map(|slot| self.lay.slot_kind[slot] as usize)
        };
        k.and_then(|k| model.pieces.get(k))
            .map_or_else(|| "piece".to_string(), |p| p.name.clone())
    }

    /// `` `block` at (1,3) ``, with the pose when the kind has several.
    pub(super) fn piece_text(&self, s: &[u32], slot: usize) -> String {
        let k = self.lay.slot_kind[slot] as usize;
        let kind = &self.model.pieces[k];
        if s[slot] == ABSENT {
            return format!("`{}`", kind.name);
        }
        let (a, pose) = self.lay.anchor(s, slot);
        let (r, c) = self.board_pos(a);
        match kind.poses.get(pose).filter(|_| kind.poses.len() > 1) {
            Some(p) => format!("`{}` ({}) at ({r},{c})", kind.name, p.name),
            None => format!("`{}` at ({r},{c})", kind.name),
        }
    }

    /// The name of what a test looks for.
    pub(super) fn subject_text(&self, subject: Subject) -> String {
        let model = self.model;
        match subject {
            Subject::Piece(k) => format!("`{}`", model.pieces[k.index()].name),
            Subject::Tile(t) => format!("`{}`", model.tiles[t.index()].name),
            Subject::Mark(m) => format!("`{}`", model.marks[m.index()].name),
        }
    }

    /// The (row, column) step of `delta` in direction `d`.
    pub(super) fn delta_rc(&self, delta: Delta, d: usize) -> (i32, i32) {
        match delta {
            Delta::Param { mult } => {
                let (dr, dc) = self.lay.dir_rc.get(d).copied().unwrap_or((0, 0));
                (dr * mult, dc * mult)
            }
            Delta::Fixed(_, rc) => rc,
        }
    }

    /// The name of the direction a step goes, when it is one.
    pub(super) fn dir_text(&self, delta: Delta, d: usize) -> String {
        let rc = self.delta_rc(delta, d);
        self.model
            .dirs
            .iter()
            .find(|x| (x.dr, x.dc) == rc)
            .map_or_else(|| format!("by ({},{})", rc.0, rc.1), |x| x.name.clone())
    }
}
