//! Choosing what runs: a fast path or the interpreter, and the interpreter's backend.

use super::{Engine, EngineChoice, SearchChoice, SolveError, Solver};
use crate::compile::Model;
use crate::engine::Expander;
use crate::search::Backend;

impl<'m> Solver<'m> {
    /// Chooses the engine for `model`: a fast path when its rules match one and `engine`
    /// and `search` allow it, else the interpreter with the backend `search` names (auto:
    /// DFS when every solution has one length; A* for cost vectors when a bound derives
    /// from the rules; layered search when the rules may split; else BFS for unit costs
    /// and A* (Dijkstra where no bound derives) for cost vectors).
    pub fn new(
        model: &'m Model,
        engine: EngineChoice,
        search: SearchChoice,
    ) -> Result<Solver<'m>, SolveError> {
        let fast = match (engine, search) {
            (EngineChoice::Interp, _) => Err("requested with --engine interp".to_string()),
            (_, SearchChoice::Auto) => crate::fast::select(model),
            (_, s) => Err(format!("--search {} runs on the interpreter", s.name())),
        };
        let engine = match fast {
            Ok(f) => Engine::Fast(f),
            Err(why) if engine == EngineChoice::Fast => return Err(SolveError::NoFastPath(why)),
            Err(why) => {
                let unit = model.unit_costs();
                let auto = search == SearchChoice::Auto;
                // Layered search where a piece moves alone between the moves that matter
                // (with the rules' bound and dead-position pruning it beats A* over whole
                // states: scripts/bench's Sokoban mazes, scripts/microban); else, for cost
                // vectors with a bound from the rules, A*, which gives Dijkstra's answer.
                let search = match search {
                    SearchChoice::Auto if unit && model.countdown().is_some() => Backend::Dfs,
                    SearchChoice::Auto if crate::engine::inner::may_split(model) => {
                        Backend::Layered
                    }
                    SearchChoice::Auto if !unit && Expander::bounds_derive(model) => Backend::Astar,
                    SearchChoice::Auto if unit => Backend::Bfs,
                    SearchChoice::Auto => Backend::Astar,
                    SearchChoice::Backend(b) => b,
                };
                let reason = if engine == EngineChoice::Interp || why.starts_with("--search") {
                    why
                } else {
                    format!("no fast path matches ({why})")
                };
                Engine::Interp {
                    search,
                    reason,
                    auto,
                    reuse: Box::default(),
                }
            }
        };
        Ok(Solver {
            model,
            engine,
            metric: None,
        })
    }

    /// [`Solver::new`] counting moves under `metric` (an index into [`Model::metrics`];
    /// `None` is [`Solver::new`]). Counted moves run on the interpreter with breadth-first
    /// search for unit costs, else Dijkstra; every other backend and `--engine fast` are
    /// refused.
    pub fn for_metric(
        model: &'m Model,
        engine: EngineChoice,
        search: SearchChoice,
        metric: Option<usize>,
    ) -> Result<Solver<'m>, SolveError> {
        let Some(m) = metric else {
            return Solver::new(model, engine, search);
        };
        let name = &model.metrics[m].name;
        if engine == EngineChoice::Fast {
            return Err(SolveError::NoFastPath(format!(
                "metric `{name}` runs on the interpreter"
            )));
        }
        let backend = match search {
            SearchChoice::Auto if model.unit_costs() => Backend::Bfs,
            SearchChoice::Auto => Backend::Dijkstra,
            SearchChoice::Backend(b @ (Backend::Bfs | Backend::Dijkstra)) => b,
            SearchChoice::Backend(b) => {
                return Err(SolveError::SearchUnavailable(format!(
                    "--search {} does not run under metric `{name}`: counted moves are searched with bfs or dijkstra",
                    b.info().name
                )))
            }
        };
        Ok(Solver {
            model,
            engine: Engine::Interp {
                search: backend,
                reason: format!("metric `{name}` counts moves on the interpreter"),
                auto: false,
                reuse: Box::default(),
            },
            metric: Some(m),
        })
    }
}
