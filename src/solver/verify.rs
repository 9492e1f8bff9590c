//! Checking answers: the cost of a path, and its replay through the interpreter.

use super::SolveError;
use crate::compile::{Action, Model};
use crate::engine::Expander;
use crate::search::{self, Path};

/// The cost vector of an action sequence (moves count when no cost is declared).
pub fn path_cost(model: &Model, actions: &[Action]) -> Vec<u64> {
    if model.costs.is_empty() {
        return vec![actions.len() as u64];
    }
    let mut cost = vec![0u64; model.costs.len()];
    for &a in actions {
        for (c, add) in cost.iter_mut().zip(&model.moves[a.mv().index()].adds) {
            *c += *add as u64;
        }
    }
    cost
}

/// Which components each move adds to (moves count as one component when no cost is
/// declared).
pub fn cost_table(model: &Model) -> search::CostTable {
    let components = model.costs.len().max(1);
    let mut adds = vec![];
    for m in &model.moves {
        if model.costs.is_empty() {
            adds.push(1);
        } else {
            adds.extend(m.adds.iter().map(|&x| u8::from(x > 0)));
        }
    }
    search::CostTable { components, adds }
}

/// Replays a path through the interpreter: every step a legal successor by the claimed
/// action, the first the start, the last a goal.
pub(super) fn verify(exp: &mut Expander, path: &Path) -> Result<(), SolveError> {
    let states = &path.states;
    if states.first() != Some(&exp.start()) || states.len() != path.actions.len() + 1 {
        return Err(SolveError::BadPath(
            "the path does not begin at the start".to_string(),
        ));
    }
    let mut succ = crate::engine::Successors::default();
    for (k, a) in path.actions.iter().enumerate() {
        exp.successors(&states[k], &mut succ);
        let ok = (0..succ.len())
            .any(|i| succ.actions[i] == *a && succ.state(i, exp.words) == states[k + 1].as_slice());
        if !ok {
            return Err(SolveError::BadPath(format!(
                "move {} is not possible",
                k + 1
            )));
        }
    }
    let last = states.last().expect("a path holds the start");
    if !exp.is_goal(last) {
        return Err(SolveError::BadPath(
            "the last state is not a goal".to_string(),
        ));
    }
    if exp
        .model
        .limit
        .is_some_and(|l| path.actions.len() as u64 > l as u64)
    {
        return Err(SolveError::BadPath(
            "the path exceeds the move limit".to_string(),
        ));
    }
    Ok(())
}
