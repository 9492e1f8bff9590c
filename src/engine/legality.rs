//! Legality and goal flags: per piece kind, a flag byte for every place value saying
//! whether the place is legal and meets the goal on the initial board, and whether it
//! covers a cell whose tile can change (then forbids and goals are checked in play).
//! Also the overlap test and the goal test on whole states.

use crate::compile::{GoalCond, PieceId, Place, Subject, TileId};

use super::budget::{Budget, Cutoff, Pacer};
use super::expander::Expander;
use super::layout::{ABSENT, NONE, OFF};
use super::program::KCond;

/// The place breaks no forbid on static cells.
pub(super) const LEGAL: u8 = 1;
/// The footprint covers a cell whose tile can change: forbids and goals are checked live.
pub(super) const LIVE: u8 = 2;
/// The place meets every goal condition on its kind (static cells only).
pub(super) const GOAL: u8 = 4;

impl Expander<'_> {
    /// Static flags of every state word value of kind `k`, from the initial board; empty
    /// for kinds with no instance. Checks `budget` as it goes.
    pub(super) fn place_flags(
        &self,
        k: usize,
        budget: &Budget,
        pacer: &mut Pacer,
    ) -> Result<Vec<u8>, Cutoff> {
        let lay = &self.lay;
        if lay.slots[k].count == 0 {
            return Ok(vec![]);
        }
        let model = self.model;
        let piece = &model.pieces[k];
        let bits = lay.slots[k].bits;
        let n = lay.ptile.len();
        let forbids: Vec<_> = model
            .forbids
            .iter()
            .filter(|f| f.piece.index() == k)
            .collect();
        let goals: Vec<&GoalCond> = model.goal.iter().filter(|g| g.piece.index() == k).collect();
        let mut flags = vec![0u8; n << bits];
        // Per padded cell: whether it meets the goal, and whether it is mutable (LIVE).
        let goal_off = model
            .outside
            .is_some_and(|o| goals.iter().all(|g| g.on == Place::Tile(o)));
        let cell_goal: Vec<bool> = (0..n)
            .map(|p| {
                let t = lay.ptile[p];
                if t == OFF {
                    goal_off
                } else if lay.pmut[p] != NONE {
                    true
                } else {
                    goals.iter().all(|g| match g.on {
                        Place::Tile(x) => x.0 == t,
                        Place::Mark(m) => lay.pmarks[p] >> m.0 & 1 == 1,
                    })
                }
            })
            .collect();
        let live: Vec<u8> = lay
            .pmut
            .iter()
            .map(|&m| if m != NONE { LIVE } else { 0 })
            .collect();
        pacer.tick(n as u64, budget)?;
        // Per cell, the flags it forces off: a forbidden cell clears LEGAL, a cell off the
        // goal clears GOAL. It depends on which forbids apply to the pose, so it is kept
        // while consecutive poses share them.
        let mut clear: Vec<u8> = vec![];
        let mut clear_for: Option<Vec<bool>> = None;
        let span = lay.board_span();
        for pi in 0..piece.poses.len() {
            let applies: Vec<bool> = forbids
                .iter()
                .map(|f| f.pose.is_none_or(|q| q.index() == pi))
                .collect();
            if clear_for.as_ref() != Some(&applies) {
                // What a single cell's tile or marks mean for this pose, as lookups.
                let mut tile_bad = vec![false; model.tiles.len()];
                let mut marks_bad = 0u32;
                for f in forbids.iter().zip(&applies).filter(|x| *x.1).map(|x| x.0) {
                    match f.place {
                        Place::Tile(t) => tile_bad[t.index()] = true,
                        Place::Mark(m) => marks_bad |= 1 << m.0,
                    }
                }
                let outside_bad = model.outside.is_none_or(|t| tile_bad[t.index()]);
                clear = (0..n)
                    .map(|p| {
                        let t = lay.ptile[p];
                        let bad = if t == OFF {
                            outside_bad
                        } else if lay.pmut[p] != NONE {
                            return 0;
                        } else {
                            tile_bad[t as usize] || lay.pmarks[p] & marks_bad != 0
                        };
                        (if bad { LEGAL } else { 0 }) | (if cell_goal[p] { 0 } else { GOAL })
                    })
                    .collect();
                clear_for = Some(applies);
                pacer.tick(n as u64, budget)?;
            }
            let pose_goal = goals.iter().all(|g| g.pose.is_none_or(|q| q.index() == pi));
            let foot = &lay.foot[k][pi];
            let init = LEGAL | if pose_goal { GOAL } else { 0 };
            for a in span.clone() {
                if lay.ptile[a] == OFF {
                    continue;
                }
                let (mut off, mut on) = (0u8, 0u8);
                for &dl in foot {
                    let p = (a as isize + dl) as usize;
                    off |= clear[p];
                    on |= live[p];
                }
                flags[a << bits | pi] = (init & !off) | on;
            }
            pacer.tick((span.len() * foot.len()) as u64, budget)?;
        }
        Ok(flags)
    }

    /// Whether word `w` of kind `k` may be legal: legal on static cells, or to be checked
    /// in play.
    #[inline]
    pub(super) fn word_may_be_legal(&self, k: usize, w: u32) -> bool {
        let f = self.flags[k][w as usize];
        f & LIVE != 0 || f & LEGAL != 0
    }

    /// Whether the instance in `slot` breaks no forbid: a flag lookup, and the in-play
    /// check only on places with changeable cells.
    #[inline(always)]
    pub(super) fn slot_legal(&self, s: &[u32], slot: usize) -> bool {
        let w = s[slot];
        if w == ABSENT {
            return true;
        }
        let k = self.lay.slot_kind[slot] as usize;
        let f = self.flags[k][w as usize];
        if f & LIVE == 0 {
            f & LEGAL != 0
        } else {
            f & LEGAL != 0 && self.live_legal(s, slot, k)
        }
    }

    /// [`Self::slot_legal`] on a place with changeable cells: no forbid holds there now.
    #[inline(never)]
    fn live_legal(&self, s: &[u32], slot: usize, k: usize) -> bool {
        let lay = &self.lay;
        let (a, pose) = lay.anchor(s, slot);
        for fb in self.model.forbids.iter().filter(|f| f.piece.index() == k) {
            if fb.pose.is_some_and(|p| p.index() != pose) {
                continue;
            }
            for &dl in &lay.foot[k][pose] {
                let p = (a as isize + dl) as usize;
                if lay.pmut[p] != NONE && lay.on_place(s, p, fb.place) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether the instance in `slot` overlaps another.
    #[inline(always)]
    pub(super) fn overlaps_any(&self, s: &[u32], slot: usize) -> bool {
        let lay = &self.lay;
        if lay.slot_kind.len() < 2 || s[slot] == ABSENT {
            return false;
        }
        if lay.one_cell {
            // Every piece covers its anchor alone: overlap is a shared anchor.
            let a = s[slot] >> lay.slot_bits[slot];
            return s
                .iter()
                .zip(&lay.slot_bits)
                .enumerate()
                .any(|(o, (&w, &b))| o != slot && w >> b == a);
        }
        self.overlaps_footprint(s, slot)
    }

    /// [`Self::overlaps_any`] for pieces of several cells.
    #[inline(never)]
    fn overlaps_footprint(&self, s: &[u32], slot: usize) -> bool {
        let lay = &self.lay;
        let k = lay.slot_kind[slot] as usize;
        let (a, pose) = lay.anchor(s, slot);
        lay.foot[k][pose].iter().any(|&dl| {
            lay.any_instance_at(s, (a as isize + dl) as usize, slot)
                .is_some()
        })
    }

    /// Whether the instances in slots `a` and `b` overlap.
    pub(super) fn overlap_pair(&self, s: &[u32], a: usize, b: usize) -> bool {
        let lay = &self.lay;
        let k = lay.slot_kind[a] as usize;
        let (anchor, pose) = lay.anchor(s, a);
        lay.foot[k][pose]
            .iter()
            .any(|&dl| lay.covers(s, b, (anchor as isize + dl) as usize))
    }

    /// The goal conditions on the instance in `slot`, checked cell by cell in state `s`.
    #[inline(never)]
    fn goal_live(&self, s: &[u32], slot: usize) -> bool {
        let lay = &self.lay;
        let k = lay.slot_kind[slot] as usize;
        let (a, pose) = lay.anchor(s, slot);
        self.model
            .goal
            .iter()
            .filter(|g| g.piece.index() == k)
            .all(|g| {
                g.pose.is_none_or(|p| p.index() == pose)
                    && lay.foot[k][pose]
                        .iter()
                        .all(|&dl| lay.on_place(s, (a as isize + dl) as usize, g.on))
            })
    }

    /// Whether a state satisfies the goal: a flag lookup per constrained copy (small
    /// enough to inline into the searches), the rest out of line.
    #[inline(always)]
    pub fn is_goal(&self, s: &[u32]) -> bool {
        // An absent copy's word is 0, whose flags say GOAL for anonymous kinds only.
        for &(slot, k) in &self.goal_slots {
            let f = self.flags[k][s[slot] as usize];
            let met = if f & LIVE != 0 {
                self.goal_live(s, slot)
            } else {
                f & GOAL != 0
            };
            if !met {
                return false;
            }
        }
        self.goal_slots_only || self.goal_beyond_slots(s)
    }

    /// The goal's conditions beyond `piece on place` (see `Expander::goal_slots_only`).
    #[inline(never)]
    fn goal_beyond_slots(&self, s: &[u32]) -> bool {
        self.goal_at
            .iter()
            .all(|(slot, ok)| ok.get(s[*slot] as usize).copied().unwrap_or(false))
            && self.goal_rest.iter().all(|c| self.holds(s, c))
            && self
                .picture
                .as_ref()
                .is_none_or(|p| self.picture_holds(s, p))
    }

    /// Whether a goal condition holds in state `s` (nothing is bound: a piece named in a
    /// goal means any copy of it, and `on` means every copy).
    pub(super) fn holds(&self, s: &[u32], c: &KCond) -> bool {
        let lay = &self.lay;
        match c {
            KCond::At {
                subject,
                pose,
                cell,
                ..
            } => {
                let Some(p) = self.goal_cell(s, cell) else {
                    return false;
                };
                match *subject {
                    Subject::Tile(t) => lay.tile_at(s, p) == Some(t),
                    Subject::Mark(m) => lay.pmarks[p] >> m.0 & 1 == 1,
                    Subject::Piece(k) => {
                        lay.ptile[p] != OFF
                            && lay.instance_in_pose(s, k.index(), p, *pose).is_some()
                    }
                }
            }
            KCond::On {
                kind, pose, place, ..
            } => {
                let sl = &lay.slots[*kind];
                (sl.start..sl.start + sl.count).all(|slot| {
                    if s[slot] == ABSENT {
                        return self.model.pieces[*kind].anonymous;
                    }
                    let (a, q) = lay.anchor(s, slot);
                    pose.is_none_or(|want| want == q)
                        && lay.foot[*kind][q]
                            .iter()
                            .all(|&dl| lay.on_place(s, (a as isize + dl) as usize, *place))
                })
            }
            KCond::CountPieces { kind, op, value } => {
                let sl = &lay.slots[*kind];
                let n = s[sl.start..sl.start + sl.count]
                    .iter()
                    .filter(|&&w| w != ABSENT)
                    .count();
                op.holds(n as i64, *value)
            }
            KCond::CountTiles { tile, op, value } => {
                op.holds(lay.count_tile(s, *tile) as i64, *value)
            }
            KCond::Const(b) => *b,
            KCond::Counter { word, op, value } => op.holds(s[*word] as i64, *value),
            // Goals compare named pieces only (the checker refuses anonymous kinds).
            KCond::Attr { left, op, right } => {
                let value = |a: &super::program::KAttr| {
                    let slot = self.lay.slots.get(a.kind).map(|sl| sl.start)?;
                    self.attr_of(s, slot, a)
                };
                super::program::compare_attrs(value(left), *op, right, value)
            }
            KCond::Not(inner) => !self.holds(s, inner),
            KCond::And(parts) => parts.iter().all(|p| self.holds(s, p)),
            KCond::Or(parts) => parts.iter().any(|p| self.holds(s, p)),
        }
    }

    /// Whether every board cell shows the picture's piece kind (or none) and tile.
    fn picture_holds(&self, s: &[u32], pic: &[(Option<PieceId>, TileId)]) -> bool {
        // First, without building the occupancy: every copy must stand on cells drawn
        // with its kind, which most states fail at their first copy.
        let lay = &self.lay;
        for slot in 0..lay.slot_kind.len() {
            if s[slot] == ABSENT {
                continue;
            }
            let k = lay.slot_kind[slot];
            let (a, pose) = lay.anchor(s, slot);
            let drawn_here = |&dl: &isize| {
                lay.board_index((a as isize + dl) as usize)
                    .is_none_or(|i| pic[i].0 == Some(PieceId(k)))
            };
            if !lay.foot[k as usize][pose].iter().all(drawn_here) {
                return false;
            }
        }
        let occ = self.lay.occupancy(s);
        let drawn = occ.iter().zip(pic).enumerate().all(|(i, (o, (pk, t)))| {
            *o == *pk && self.lay.tile_at(s, self.lay.board_cells[i] as usize) == Some(*t)
        });
        let poses = &self.level.picture_poses;
        drawn
            && (poses.is_empty()
                || self
                    .occupancy_with_poses(s)
                    .iter()
                    .zip(poses)
                    .all(|(o, want)| want.is_none_or(|q| o.is_some_and(|(_, p)| p == q))))
    }
}
