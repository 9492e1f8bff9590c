//! Counted moves as a [`Space`]: every backend that takes a space searches them unchanged.

use super::Space;
use crate::engine::compound::Compound;
use crate::engine::Successors;

impl Space for Compound<'_, '_> {
    fn words(&self) -> usize {
        Compound::words(self)
    }
    fn radix(&self) -> Vec<u32> {
        Space::radix(self.expander_ref())
    }
    fn start(&self) -> Vec<u32> {
        Space::start(self.expander_ref())
    }
    fn is_goal(&self, s: &[u32]) -> bool {
        Space::is_goal(self.expander_ref(), s)
    }
    fn successors(&mut self, s: &[u32], out: &mut Successors) {
        Compound::successors(self, s, out)
    }
    fn set_deadline(&mut self, deadline: Option<web_time::Instant>) {
        Space::set_deadline(self.expander(), deadline)
    }
}
