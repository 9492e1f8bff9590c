//! Solving under a metric: searching counted moves, then expanding them into unit steps.

use super::SolveError;
use crate::engine::compound::{Compound, Counted};
use crate::engine::Expander;
use crate::search::{self, Backend, Budget, Inputs, Outcome, Path, Stats};

/// Searches the counted moves of metric `metric` with `search` (breadth-first search or
/// Dijkstra, chosen by [`Solver::for_metric`]), expands the path found into unit steps
/// grouped into counted moves, and checks it unit step by unit step.
pub(super) fn solve_counted(
    exp: &mut Expander,
    metric: usize,
    search: Backend,
    budget: &Budget,
    table: &search::CostTable,
) -> Result<(Outcome, Stats, Option<Counted>), SolveError> {
    let model = exp.model;
    let mut space = Compound::new(exp, metric);
    let inputs = Inputs {
        costs: table,
        goals: None,
        length: None,
    };
    let (outcome, stats) = search.run(&mut space, budget, inputs).map_err(|e| {
        SolveError::SearchUnavailable(format!(
            "{e}; this puzzle's cost is ({}); use --search dijkstra",
            model.costs.join(", ")
        ))
    })?;
    let Outcome::Solved(path) = outcome else {
        return Ok((outcome, stats, None));
    };
    let (actions, states, groups) = space
        .expand(&path.states, &path.actions)
        .ok_or_else(|| SolveError::BadPath("a counted move has no unit steps".into()))?;
    space
        .check(&actions, &states, &groups)
        .map_err(SolveError::BadPath)?;
    let counted = Counted {
        metric: model.metrics[metric].name.clone(),
        groups,
    };
    Ok((
        Outcome::Solved(Path { actions, states }),
        stats,
        Some(counted),
    ))
}
