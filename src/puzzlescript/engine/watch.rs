//! A time and memory budget checked inside turns, for hostile games: a turn of thousands
//! of rule groups on a huge level, or again turns that run for a long time, must stop
//! when the budget runs out, not only between inputs.
//!
//! The engine spends work on it once per pass of a rule group (the group's rules times
//! the level's cells, in units of 1,024 cell tests); the shared [`Pacer`] reads the clock
//! once per 64 units and the process's memory once per 4,096. Once the budget is out
//! the watch stays out: every later pass stops at once, so the turn ends quickly (its
//! level is then meaningless, and the session stops taking inputs).

use crate::engine::budget::{Budget, Cutoff, Pacer};

/// A budget and how much of it turns have spent.
#[derive(Debug)]
pub(crate) struct Watch {
    budget: Budget,
    pacer: Pacer,
    /// Set once the budget ran out.
    pub cutoff: Option<Cutoff>,
}

impl Clone for Watch {
    fn clone(&self) -> Self {
        Watch {
            budget: self.budget.clone(),
            pacer: Pacer::default(),
            cutoff: self.cutoff,
        }
    }
}

impl Watch {
    /// A watch over `budget`.
    pub fn new(budget: Budget) -> Watch {
        Watch {
            budget,
            pacer: Pacer::default(),
            cutoff: None,
        }
    }

    /// Spends `cells` cell tests of work; `true` when the budget is out (now or before).
    #[inline]
    pub fn spend(&mut self, cells: usize) -> bool {
        if self.cutoff.is_some() {
            return true;
        }
        match self.pacer.tick(1 + (cells >> 10) as u64, &self.budget) {
            Ok(()) => false,
            Err(c) => {
                self.cutoff = Some(c);
                true
            }
        }
    }
}
