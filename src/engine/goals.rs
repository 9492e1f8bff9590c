//! Goal enumeration: every state that meets the goal, for searches that start from it.

use super::budget::{Budget, Cutoff, Pacer};
use super::expander::{Expander, PrepareError};
use super::legality::{GOAL, LEGAL};

impl Expander<'_> {
    /// The length every solution has, when the rules prove it (see
    /// [`crate::compile::Model::countdown`]): the copies of the counted kind at the start
    /// minus the count the goal demands; 0 when fewer copies than that are left (then
    /// only the start itself could be a goal).
    pub(crate) fn solution_length(&self) -> Option<u32> {
        let (k, n) = self.model.countdown()?;
        let sl = &self.lay.slots[k.index()];
        let start = self.start();
        let have = start[sl.start..sl.start + sl.count]
            .iter()
            .filter(|&&w| w != super::layout::ABSENT)
            .count() as i64;
        Some((have - n).clamp(0, u32::MAX as i64) as u32)
    }

    /// Every goal state, for searches that start from the goal: pieces stand on legal
    /// places, do not overlap, and meet the goal; interchangeable instances are listed
    /// once (sorted). Refused when tiles change in play or there are more than `limit`;
    /// cut off when `budget`'s time, memory or state limit (each goal state counts as a
    /// stored state) runs out.
    pub(crate) fn goal_states(
        &self,
        limit: usize,
        budget: &Budget,
    ) -> Result<Vec<Vec<u32>>, PrepareError> {
        if self.lay.mutable_count > 0 {
            return Err(PrepareError::Refused("tiles change during play".into()));
        }
        if !self.model.basic() || self.picture.is_some() {
            return Err(PrepareError::Refused(
                "the goal or the moves go beyond the seed mechanics".into(),
            ));
        }
        let lay = &self.lay;
        let mut pacer = Pacer::default();
        let mut choices: Vec<Vec<u32>> = vec![];
        for slot in 0..lay.slot_kind.len() {
            let k = lay.slot_kind[slot] as usize;
            let need_goal = self.goal_slots.iter().any(|&(_, kk)| kk == k);
            let flags = &self.flags[k];
            choices.push(
                (0..flags.len() as u32)
                    .filter(|&w| {
                        let f = flags[w as usize];
                        f & LEGAL != 0 && (!need_goal || f & GOAL != 0)
                    })
                    .collect(),
            );
            pacer.tick(flags.len() as u64, budget)?;
        }
        let mut walk = GoalWalk {
            choices,
            cur: vec![0u32; lay.words],
            out: vec![],
            limit,
            budget,
            pacer,
        };
        self.enumerate_goals(0, &mut walk)?;
        Ok(walk.out)
    }

    /// Fills slots `slot..` in every way that meets the goal, after the earlier ones.
    fn enumerate_goals(&self, slot: usize, walk: &mut GoalWalk) -> Result<(), PrepareError> {
        let width = walk.choices.get(slot).map_or(0, Vec::len);
        walk.pacer.tick(1 + width as u64, walk.budget)?;
        if slot == walk.choices.len() {
            if walk.out.len() >= walk.limit {
                return Err(PrepareError::Refused(format!(
                    "more than {} goal states",
                    walk.limit
                )));
            }
            if let Some(max) = walk.budget.max_states {
                if walk.out.len() >= max {
                    return Err(PrepareError::Cutoff(Cutoff::States(max)));
                }
            }
            walk.out.push(walk.cur.clone());
            return Ok(());
        }
        let lay = &self.lay;
        let k = lay.slot_kind[slot] as usize;
        let same_kind_before =
            slot > 0 && lay.slot_kind[slot - 1] as usize == k && self.model.pieces[k].anonymous;
        for i in 0..walk.choices[slot].len() {
            let w = walk.choices[slot][i];
            if same_kind_before && w <= walk.cur[slot - 1] {
                continue;
            }
            walk.cur[slot] = w;
            if (0..slot).any(|o| self.overlap_pair(&walk.cur, slot, o)) {
                continue;
            }
            self.enumerate_goals(slot + 1, walk)?;
        }
        Ok(())
    }
}

/// The state of a goal enumeration.
struct GoalWalk<'b> {
    /// Per slot: its legal goal words, ascending.
    choices: Vec<Vec<u32>>,
    cur: Vec<u32>,
    out: Vec<Vec<u32>>,
    limit: usize,
    budget: &'b Budget,
    pacer: Pacer,
}
