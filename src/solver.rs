//! Picks the engine and search backend for a model, runs it, and checks the answer.
//!
//! A [`Solver`] is built once per model: the engine (a fast path, by fingerprint, or the
//! interpreter) and the backend are chosen then, and it solves any number of levels or
//! judge queries afterwards. The choices are plain enums: the command line maps its flags
//! onto them.

use crate::compile::{Action, Model};
use crate::engine::compound::{Compound, Counted};
use crate::engine::{Expander, Level, PrepareError, SetupError};
use crate::fast::{FastOutcome, FastPath};
use crate::search::{self, Backend, Budget, Inputs, Outcome, Path, Refusal, Stats};

/// Which engine the user asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineChoice {
    /// The fast path when one applies, else the interpreter.
    #[default]
    Auto,
    /// The interpreter: the reference semantics.
    Interp,
    /// A hand-tuned fast path; fails when none applies.
    Fast,
}

/// Which search backend the user asked for (the interpreter's; fast paths are their own).
/// The backends themselves are listed once, in [`search::BACKENDS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SearchChoice {
    /// A fast path when one applies; else (see [`Solver::new`]) DFS, A*, layered search,
    /// BFS or Dijkstra, whichever the rules allow and answers soonest.
    #[default]
    Auto,
    /// This backend, on the interpreter.
    Backend(Backend),
}

impl SearchChoice {
    /// The choice named `name` on the command line: `auto` or a name in
    /// [`search::BACKENDS`].
    pub fn from_name(name: &str) -> Option<SearchChoice> {
        match name {
            "auto" => Some(SearchChoice::Auto),
            _ => Backend::from_name(name).map(SearchChoice::Backend),
        }
    }

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            SearchChoice::Auto => "auto",
            SearchChoice::Backend(b) => b.info().name,
        }
    }
}

/// Everything that shapes one solve.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// The engine asked for.
    pub engine: EngineChoice,
    /// The interpreter's search backend asked for.
    pub search: SearchChoice,
    /// Limits on time, states and memory.
    pub budget: Budget,
    /// Build the move sequence (a fast path may otherwise answer with the cost alone).
    pub need_path: bool,
}

/// Most goal states a bidirectional search will start from.
const MAX_GOAL_STATES: usize = 1 << 20;

/// The result of solving one level.
#[derive(Debug)]
pub struct Answer {
    /// What the search found.
    pub outcome: Outcome,
    /// Its counters.
    pub stats: Stats,
    /// Which engine ran (a fast path's name or `interpreter`).
    pub engine: &'static str,
    /// Why that engine ran.
    pub engine_reason: String,
    /// The search that ran (`fast` on a fast path).
    pub search: &'static str,
    /// Under a metric: how the path's unit steps group into counted moves.
    pub counted: Option<Counted>,
}

/// Why a level could not be solved at all (a cutoff is an [`Outcome`], not an error).
/// Each kind has its own diagnostic code.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum SolveError {
    /// `--engine fast` on rules no fast path matches (why each one refused).
    #[error(
        "no fast path applies to this puzzle's rules ({0}); use --engine interp or --engine auto"
    )]
    #[diagnostic(code(puz::solve::no_fast_path))]
    NoFastPath(String),
    /// The requested search does not apply: no heuristic can be derived, or it needs unit
    /// costs.
    #[error("{0}")]
    #[diagnostic(
        code(puz::solve::search_unavailable),
        help("--search auto picks a backend that applies to these rules")
    )]
    SearchUnavailable(String),
    /// Bidirectional search refused: moves not provably invertible, or too many goals.
    #[error("{0}")]
    #[diagnostic(
        code(puz::solve::not_invertible),
        help("--search auto picks a backend that applies to these rules")
    )]
    NotInvertible(String),
    /// A path failed its replay through the interpreter (a bug in a solver).
    #[error("internal error: the solver returned a path that does not replay ({0})")]
    #[diagnostic(
        code(puz::solve::bad_path),
        help("this is a bug in puz; please report it")
    )]
    BadPath(String),
    /// The level does not fit the engine's limits.
    #[error("{0}")]
    #[diagnostic(code(puz::solve::too_large))]
    TooLarge(String),
}

/// An answer that stopped at a budget before searching (level setup, heuristic or goal
/// preparation).
fn cut_off(c: crate::search::Cutoff, t0: web_time::Instant) -> (Outcome, Stats) {
    let stats = Stats {
        elapsed: t0.elapsed(),
        ..Stats::default()
    };
    (Outcome::Cutoff(c), stats)
}

/// Sets up the interpreter for `level`; `Err(Ok(..))` when a budget ran out first.
#[allow(clippy::result_large_err)]
fn expander<'m>(
    model: &'m Model,
    level: Level,
    budget: &Budget,
) -> Result<Expander<'m>, Result<crate::search::Cutoff, SolveError>> {
    Expander::new(model, level, budget).map_err(|e| match e {
        SetupError::Cutoff(c) => Ok(c),
        SetupError::TooLarge(why) => Err(SolveError::TooLarge(why)),
    })
}

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

/// The engine a [`Solver`] runs, chosen once for its model.
enum Engine {
    /// A fast path matched the model's fingerprint.
    Fast(Box<dyn FastPath>),
    /// The interpreter, with the backend to run and why no fast path runs; `auto` when
    /// the backend was chosen, not asked for (then layered search falls back to A* (or
    /// BFS for unit costs), and A* to Dijkstra, on levels they cannot run); what layered
    /// search reuses between levels.
    Interp {
        search: Backend,
        reason: String,
        auto: bool,
        reuse: Box<search::layered::Reuse>,
    },
}

/// A solver for one model: the engine (a fast path or the interpreter) and the search
/// backend are chosen once, when it is built, and then it solves any number of levels or
/// judge queries. Whatever a fast path reuses between levels lives inside it.
pub struct Solver<'m> {
    model: &'m Model,
    engine: Engine,
    /// The metric answers count in (an index into [`Model::metrics`]); `None` counts
    /// every application.
    metric: Option<usize>,
}

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

    /// The name of the engine that runs: a fast path's name, or `interpreter`.
    pub fn engine_name(&self) -> &'static str {
        match &self.engine {
            Engine::Fast(f) => f.name(),
            Engine::Interp { .. } => "interpreter",
        }
    }

    /// Why that engine runs.
    fn engine_reason(&self) -> String {
        match &self.engine {
            Engine::Fast(f) => format!("the rules match the {} fast path", f.name()),
            Engine::Interp { reason, .. } => reason.clone(),
        }
    }

    /// The search that runs: `fast` on a fast path, else the interpreter's backend.
    fn search_name(&self) -> &'static str {
        match &self.engine {
            Engine::Fast(_) => "fast",
            Engine::Interp { search, .. } => search.info().name,
        }
    }

    /// Solves `level` within `budget` (the model's move limit is added). Any path found is
    /// replayed through the interpreter to prove it legal, a goal, and of the claimed
    /// cost. With `need_path` false a fast path may answer with the cost alone (judge
    /// formats that print no path).
    pub fn solve(
        &mut self,
        level: Level,
        budget: &Budget,
        need_path: bool,
    ) -> Result<Answer, SolveError> {
        let t0 = web_time::Instant::now();
        let model = self.model;
        let mut budget = budget.clone();
        budget.max_depth = model.limit;
        let (engine, engine_reason, mut search) =
            (self.engine_name(), self.engine_reason(), self.search_name());
        let mut counted = None;
        let metric = self.metric;
        let (outcome, stats) = match &mut self.engine {
            Engine::Fast(f) => {
                let (out, stats) = f.solve(&level, &budget, need_path);
                let outcome = match out {
                    FastOutcome::Solved {
                        cost,
                        actions: Some(actions),
                    } => {
                        let mut exp = match expander(model, level, &budget) {
                            Ok(exp) => exp,
                            Err(Ok(c)) => {
                                return Ok(Answer {
                                    outcome: Outcome::Cutoff(c),
                                    stats,
                                    engine,
                                    engine_reason,
                                    search,
                                    counted: None,
                                })
                            }
                            Err(Err(e)) => return Err(e),
                        };
                        let states = search::replay(&mut exp, &actions).map_err(|k| {
                            SolveError::BadPath(format!(
                                "fast path: move {} is not possible",
                                k + 1
                            ))
                        })?;
                        let path = Path { actions, states };
                        verify(&mut exp, &path)?;
                        if path_cost(model, &path.actions) != cost {
                            return Err(SolveError::BadPath(
                                "fast path: the path's cost differs from its claim".into(),
                            ));
                        }
                        Outcome::Solved(path)
                    }
                    FastOutcome::Solved {
                        cost,
                        actions: None,
                    } => Outcome::Cost(cost),
                    FastOutcome::Unsolvable => Outcome::Unsolvable,
                    FastOutcome::Cutoff(c) => Outcome::Cutoff(c),
                };
                (outcome, stats)
            }
            Engine::Interp {
                search: chosen,
                auto,
                reuse,
                ..
            } => 'interp: {
                let mut backend = *chosen;
                let mut exp = match expander(model, level, &budget) {
                    Ok(exp) => exp,
                    Err(Ok(c)) => {
                        let (outcome, stats) = cut_off(c, t0);
                        return Ok(Answer {
                            outcome,
                            stats,
                            engine,
                            engine_reason,
                            search: backend.info().name,
                            counted: None,
                        });
                    }
                    Err(Err(e)) => return Err(e),
                };
                let table = cost_table(model);
                if let Some(m) = metric {
                    let (outcome, stats, c) = solve_counted(&mut exp, m, backend, &budget, &table)?;
                    counted = c;
                    break 'interp (outcome, stats);
                }
                let (outcome, stats) = 'run: {
                    // What a backend needs beyond unit costs is prepared here: the heuristic
                    // for A*, the goal states for bidirectional search.
                    let mut goals = None;
                    let mut length = None;
                    if backend == Backend::Layered {
                        match search::layered::layered(&mut exp, &budget, &table, need_path, reuse)
                        {
                            Ok(found) => break 'run found,
                            Err(why) if *auto => {
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
                    match backend {
                        Backend::Astar => match exp.prepare_heuristic(&budget) {
                            Ok(()) => {}
                            Err(PrepareError::Cutoff(c)) => break 'run cut_off(c, t0),
                            Err(PrepareError::Refused(_)) if *auto => {
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
                            invertible(model).map_err(|e| {
                                SolveError::NotInvertible(format!("--search bidir: {e}"))
                            })?;
                            match exp.goal_states(MAX_GOAL_STATES, &budget) {
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
                    // Solve searches never store states that cannot reach a goal.
                    if matches!(backend, Backend::Bfs | Backend::Dijkstra | Backend::Astar) {
                        if let Err(PrepareError::Cutoff(c)) = exp.prepare_pruning(&budget) {
                            break 'run cut_off(c, t0);
                        }
                    }
                    let inputs = Inputs {
                        costs: &table,
                        goals: goals.as_deref(),
                        length,
                    };
                    match backend.run(&mut exp, &budget, inputs) {
                    Ok(found) => found,
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
                (outcome, stats)
            }
        };
        // The whole solve, setup and preparation included, not only the search loop.
        let stats = Stats {
            elapsed: t0.elapsed(),
            ..stats
        };
        Ok(Answer {
            outcome,
            stats,
            engine,
            engine_reason,
            search,
            counted,
        })
    }
}

/// Searches the counted moves of metric `metric` with `search` (breadth-first search or
/// Dijkstra, chosen by [`Solver::for_metric`]), expands the path found into unit steps
/// grouped into counted moves, and checks it unit step by unit step.
fn solve_counted(
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

/// Solves one `level` as `opts` says. Builds a [`Solver`] for this level alone: to solve
/// many levels of one model, build the [`Solver`] once and call [`Solver::solve`].
pub fn solve_opts(model: &Model, level: Level, opts: &SolveOptions) -> Result<Answer, SolveError> {
    Solver::new(model, opts.engine, opts.search)?.solve(level, &opts.budget, opts.need_path)
}

/// [`solve_opts`] with the automatic search backend.
pub fn solve_with(
    model: &Model,
    level: Level,
    engine: EngineChoice,
    budget: &Budget,
    need_path: bool,
) -> Result<Answer, SolveError> {
    Solver::new(model, engine, SearchChoice::Auto)?.solve(level, budget, need_path)
}

/// Proves every move invertible: a move undone by the same move in the opposite
/// direction, at the same cost. Accepted programs are one `shift` or `swap` along the
/// move's direction, or one `turn` whose table undoes itself, with no tests, on a board
/// whose tiles never change, with every direction's opposite declared.
fn invertible(model: &Model) -> Result<(), String> {
    if !model.basic() {
        return Err(
            "the rules use mechanics beyond plain moves (counters, removals, conditions, per-cell or per-copy moves)"
                .into(),
        );
    }
    if !model.static_tiles() {
        return Err("tiles change during play, so moves cannot be undone".into());
    }
    if !model.unit_costs() {
        return Err("moves do not all cost one unit".into());
    }
    let nd = model.dirs.len();
    let opposite: Vec<Option<usize>> = model
        .dirs
        .iter()
        .map(|d| {
            model
                .dirs
                .iter()
                .position(|e| e.dr == -d.dr && e.dc == -d.dc)
        })
        .collect();
    if let Some(i) = opposite.iter().position(Option::is_none) {
        return Err(format!(
            "direction `{}` has no opposite direction",
            model.dirs[i].name
        ));
    }
    for m in &model.moves {
        let fail = |why: &str| {
            Err(format!(
                "move `{}` cannot be proven invertible: {why}",
                m.name
            ))
        };
        match m.ops.as_slice() {
            [crate::compile::Op::Shift { step, .. }] | [crate::compile::Op::Swap { step, .. }]
                if step.fixed.is_none() => {}
            [crate::compile::Op::Turn { table, .. }] => {
                for (i, e) in table.iter().enumerate() {
                    let (p, d) = (i / nd, i % nd);
                    if let Some((to, dr, dc)) = e {
                        let back = table[to.index() * nd + opposite[d].unwrap_or(d)];
                        if back != Some((crate::compile::PoseId(p as u16), -dr, -dc)) {
                            return fail("its turn table does not undo itself");
                        }
                    }
                }
            }
            [] => return fail("it has no effect"),
            [_] => return fail("it slides, tests, or moves along a fixed direction"),
            _ => return fail("it has several statements"),
        }
    }
    Ok(())
}

/// [`solve_with`], always returning a path when there is one.
pub fn solve(
    model: &Model,
    level: Level,
    engine: EngineChoice,
    budget: &Budget,
) -> Result<Answer, SolveError> {
    solve_with(model, level, engine, budget, true)
}

/// Replays a path through the interpreter: every step a legal successor by the claimed
/// action, the first the start, the last a goal.
fn verify(exp: &mut Expander, path: &Path) -> Result<(), SolveError> {
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
