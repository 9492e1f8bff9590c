//! Running the interpreter: setting up the level, preparing what the backend needs (a
//! bound for A*, goal states for bidirectional search, a length for DFS, dead-position
//! pruning), falling back when an automatic choice cannot run, and checking the path.

use super::{
    cost_table, cut_off, expander, invertible, solve_counted, verify, Ran, SolveError,
    MAX_GOAL_STATES,
};
use crate::compile::Model;
use crate::engine::{Level, PrepareError};
use crate::search::{self, Backend, Budget, Inputs, Outcome, Refusal};
use web_time::Instant;

/// The search named in an answer that an invariant of the rules proved unsolvable
/// without searching (`crate::engine::Expander::parity_proof`).
pub const PROVEN: &str = "invariant";

/// The automatic choice takes IDA* over breadth-first search past this many states
/// (base-2 logarithm of `Expander::states_log2`'s bound): 2^28, more than fit in memory.
const MAX_STORED_LOG2: f64 = 28.0;

/// States IDA* expands on the rules' bound alone before it builds pattern databases.
const PROBE: usize = 100_000;

/// How the interpreter runs: the backend chosen, whether it was chosen automatically
/// (then layered search falls back to BFS or A*, and A* to Dijkstra, where they cannot
/// run), the metric counted, and whether a path is needed.
pub(super) struct How {
    pub backend: Backend,
    pub auto: bool,
    pub metric: Option<usize>,
    pub need_path: bool,
}

/// Solves `level` on the interpreter as `how` says.
pub(super) fn run<'m>(
    model: &'m Model,
    level: Level,
    budget: &Budget,
    how: How,
    reuse: &mut search::layered::Reuse,
    t0: Instant,
) -> Result<Ran<'m>, SolveError> {
    let mut backend = how.backend;
    let mut search = backend.info().name;
    let mut exp = match expander(model, level, budget) {
        Ok(exp) => exp,
        Err(Ok(c)) => {
            let (outcome, stats) = cut_off(c, t0);
            return Ok(Ran {
                outcome,
                stats,
                search,
                counted: None,
                exp: None,
            });
        }
        Err(Err(e)) => return Err(e),
    };
    let table = cost_table(model);
    if let Some(m) = how.metric {
        let (outcome, stats, counted) = solve_counted(&mut exp, m, backend, budget, &table)?;
        return Ok(Ran {
            outcome,
            stats,
            search,
            counted,
            exp: Some(exp),
        });
    }
    let (outcome, stats) = 'run: {
        // What a backend needs beyond unit costs is prepared here: the heuristic
        // for A*, the goal states for bidirectional search.
        let mut goals = None;
        let mut length = None;
        if backend == Backend::Layered {
            match search::layered::layered(&mut exp, budget, &table, how.need_path, reuse) {
                Ok(found) => break 'run found,
                Err(why) if how.auto => {
                    backend = if model.unit_costs() {
                        Backend::Bfs
                    } else {
                        Backend::Astar
                    };
                    search = backend.info().name;
                    let _ = why;
                }
                Err(why) => {
                    return Err(SolveError::SearchUnavailable(format!(
                        "--search layered: {why}"
                    )))
                }
            }
        }
        // An invariant of the rules may prove the level unsolvable with no search.
        if exp.parity_proof().is_some() {
            search = PROVEN;
            break 'run (Outcome::Unsolvable, search::Stats::default());
        }
        // Auto: breadth-first search stores every state; where the level is too big to
        // store and the goal places every piece (so the bound sees them all), IDA* on
        // the bound from the rules, which stores one path.
        if how.auto
            && backend == Backend::Bfs
            && exp.goal_places_every_piece()
            && exp.states_log2() > MAX_STORED_LOG2
        {
            match exp.prepare_heuristic(budget) {
                Ok(()) if exp.has_piece_bounds() => {
                    backend = Backend::Idastar;
                    search = backend.info().name;
                }
                Ok(()) | Err(PrepareError::Refused(_)) => {}
                Err(PrepareError::Cutoff(c)) => break 'run cut_off(c, t0),
            }
        }
        match backend {
            Backend::Astar | Backend::Idastar if exp.has_heuristic() => {}
            Backend::Idastar => match exp.prepare_heuristic(budget) {
                Ok(()) => {}
                Err(PrepareError::Cutoff(c)) => break 'run cut_off(c, t0),
                Err(PrepareError::Refused(e)) => {
                    return Err(SolveError::SearchUnavailable(format!(
                        "--search idastar: no heuristic can be derived: {e}"
                    )))
                }
            },
            Backend::Astar => match exp.prepare_heuristic(budget) {
                Ok(()) => {}
                Err(PrepareError::Cutoff(c)) => break 'run cut_off(c, t0),
                Err(PrepareError::Refused(_)) if how.auto => {
                    backend = Backend::Dijkstra;
                    search = backend.info().name;
                }
                Err(PrepareError::Refused(e)) => {
                    return Err(SolveError::SearchUnavailable(format!(
                        "--search astar: no heuristic can be derived: {e}"
                    )))
                }
            },
            Backend::Bidir => {
                invertible(model)
                    .map_err(|e| SolveError::NotInvertible(format!("--search bidir: {e}")))?;
                match exp.goal_states(MAX_GOAL_STATES, budget) {
                    Ok(g) => goals = Some(g),
                    Err(PrepareError::Cutoff(c)) => break 'run cut_off(c, t0),
                    Err(PrepareError::Refused(e)) => {
                        return Err(SolveError::NotInvertible(format!(
                            "--search bidir: cannot start from the goal: {e}"
                        )))
                    }
                }
            }
            Backend::Dfs => match exp.solution_length() {
                Some(l) => length = Some(l),
                None => {
                    return Err(SolveError::SearchUnavailable(format!(
                        "--search dfs: {}",
                        Refusal::NoLength
                    )))
                }
            },
            Backend::Bfs | Backend::Dijkstra | Backend::Iddfs | Backend::Layered => {}
        }
        // A* and IDA* read the pushing puzzles' pattern databases where they derive
        // (`engine/heuristic/push.rs`; layered search builds its own).
        let mut push_line = None;
        if matches!(backend, Backend::Astar | Backend::Idastar) && exp.has_heuristic() {
            match exp.prepare_push_patterns(budget) {
                Ok(line) => push_line = line,
                Err(PrepareError::Cutoff(c)) => break 'run cut_off(c, t0),
                Err(PrepareError::Refused(_)) => {}
            }
        }
        // IDA* reads a bound that need not be consistent: pattern databases, where the
        // rules allow them. Building them takes a while, so a short search on the bound
        // alone goes first: easy levels need none.
        let mut bound = None;
        let mut probed = search::Stats::default();
        if backend == Backend::Idastar && model.unit_costs() {
            let probe = Budget {
                max_states: Some(budget.max_states.map_or(PROBE, |m| m.min(PROBE))),
                ..budget.clone()
            };
            let (outcome, stats) = search::idastar(&mut exp, &probe);
            match outcome {
                Outcome::Cutoff(search::Cutoff::States(_))
                    if budget.max_states.is_none_or(|m| m > PROBE) =>
                {
                    probed = stats;
                }
                _ => break 'run (outcome, stats),
            }
            match exp.prepare_patterns(budget) {
                Ok(line) => bound = line,
                Err(PrepareError::Cutoff(c)) => break 'run cut_off(c, t0),
                Err(PrepareError::Refused(_)) => {}
            }
        }
        // Solve searches never store states that cannot reach a goal.
        if matches!(backend, Backend::Bfs | Backend::Dijkstra | Backend::Astar) {
            if let Err(PrepareError::Cutoff(c)) = exp.prepare_pruning(budget) {
                break 'run cut_off(c, t0);
            }
        }
        let inputs = Inputs {
            costs: &table,
            goals: goals.as_deref(),
            length,
        };
        match backend.run(&mut exp, budget, inputs) {
        Ok((outcome, stats)) => (
            outcome,
            search::Stats {
                bound: match (bound, push_line) {
                    (Some(a), Some(b)) => Some(format!("{a}; {b}")),
                    (a, b) => a.or(b),
                },
                expanded: stats.expanded + probed.expanded,
                generated: stats.generated + probed.generated,
                ..stats
            },
        ),
        Err(Refusal::NotUnit(name)) => {
            return Err(SolveError::SearchUnavailable(format!(
                "--search {name} needs moves that all cost one unit; this puzzle's cost is ({}); use --search dijkstra",
                model.costs.join(", ")
            )))
        }
        Err(Refusal::NoLength) => {
            return Err(SolveError::SearchUnavailable(format!(
                "--search dfs: {}",
                Refusal::NoLength
            )))
        }
        Err(Refusal::ExpanderOnly) => {
            unreachable!("layered search ran above")
        }
        Err(Refusal::NoGoals) => {
            return Err(SolveError::NotInvertible(
                "--search bidir: the goal states could not be enumerated".into(),
            ))
        }
    }
    };
    if let Outcome::Solved(path) = &outcome {
        verify(&mut exp, path)?;
    }
    Ok(Ran {
        outcome,
        stats,
        search,
        counted: None,
        exp: Some(exp),
    })
}
