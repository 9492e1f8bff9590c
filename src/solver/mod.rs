//! Picks the engine and search backend for a model, runs it, and checks the answer.
//!
//! A [`Solver`] is built once per model: the engine (a fast path, by fingerprint, or the
//! interpreter) and the backend are chosen then, and it solves any number of levels or
//! judge queries afterwards. The choices are plain enums: the command line maps its flags
//! onto them.

use web_time::Instant;

use crate::compile::Model;
use crate::engine::compound::Counted;
use crate::engine::{Expander, Level, SetupError};
use crate::fast::{FastOutcome, FastPath};
use crate::search::{self, Backend, Budget, Outcome, Path, Stats};

mod choose;
mod counted;
mod interp;
mod invertible;
mod verify;

use counted::solve_counted;
pub use interp::PROVEN;
use invertible::invertible;
use verify::verify;
pub use verify::{cost_table, path_cost};

/// Replays `path` through `exp` and checks it: every move legal, the first state the
/// start, the last a goal, the move limit kept.
pub(crate) fn check_path(exp: &mut Expander, path: &Path) -> Result<(), SolveError> {
    verify(exp, path)
}

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

/// Which boards a [`crate::Solution`] draws, one per state of its path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Boards {
    /// None.
    #[default]
    None,
    /// Level text in the puzzle's legend ([`crate::io::render::render_as`]): `written`
    /// holds the legend entry each cell of the level was written with (see
    /// [`crate::io::render::inline_symbols`]; empty draws with the best symbols).
    Text {
        /// The level's own symbols, in reading order.
        written: Vec<Option<u16>>,
    },
    /// Plain data for a page to draw ([`crate::io::view::BoardView`]).
    Views,
}

/// What a [`crate::Solution`] draws and explains beyond the answer, and at most how much.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawing {
    /// The kind of board.
    pub boards: Boards,
    /// Explain "no solution" with the goal conditions out of reach
    /// ([`crate::Solution::out_of_reach`]); a judge answering many queries skips it.
    pub explain: bool,
    /// At most this many cells in all (boards times cells of a board); past it none is
    /// drawn and [`crate::Solution::boards_omitted`] says so.
    pub max_cells: u64,
}

impl Default for Drawing {
    fn default() -> Drawing {
        Drawing {
            boards: Boards::None,
            explain: true,
            max_cells: 4_000_000,
        }
    }
}

impl Drawing {
    /// No boards and no explanation: the answer alone (judges, `puz test`, `--all`).
    pub fn answer_only() -> Drawing {
        Drawing {
            explain: false,
            ..Drawing::default()
        }
    }
}

/// Everything that shapes one solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// The engine asked for.
    pub engine: EngineChoice,
    /// The interpreter's search backend asked for.
    pub search: SearchChoice,
    /// Limits on time, states and memory, and a cancel flag.
    pub budget: Budget,
    /// Build the move sequence (a fast path may otherwise answer with the cost alone).
    pub need_path: bool,
    /// Count moves in this metric (`None`: every application counts).
    pub metric: Option<String>,
    /// The boards to draw, one per state of the path.
    pub drawing: Drawing,
}

impl Default for SolveOptions {
    /// The automatic engine and search, no limits, the path, no metric, no boards.
    fn default() -> SolveOptions {
        SolveOptions {
            engine: EngineChoice::Auto,
            search: SearchChoice::Auto,
            budget: Budget::default(),
            need_path: true,
            metric: None,
            drawing: Drawing::default(),
        }
    }
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
fn cut_off(c: crate::search::Cutoff, t0: Instant) -> (Outcome, Stats) {
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
    pub(crate) model: &'m Model,
    engine: Engine,
    /// The metric answers count in (an index into [`Model::metrics`]); `None` counts
    /// every application.
    metric: Option<usize>,
}

impl<'m> Solver<'m> {
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

    /// Solves `level` within `budget` (the model's move limit is added). Any path found is
    /// replayed through the interpreter to prove it legal, a goal, and of the claimed
    /// cost. With `need_path` false a fast path may answer with the cost alone (judge
    /// formats that print no path). [`Solver::solution`] (in [`crate::solution`]) gives
    /// the complete answer.
    pub fn solve(
        &mut self,
        level: Level,
        budget: &Budget,
        need_path: bool,
    ) -> Result<Answer, SolveError> {
        self.run(level, budget, need_path).map(|(answer, _)| answer)
    }

    /// [`Solver::solve`], also returning the interpreter that replayed the path (set up
    /// within the budget), to describe and draw it.
    pub(crate) fn run(
        &mut self,
        level: Level,
        budget: &Budget,
        need_path: bool,
    ) -> Result<(Answer, Option<Expander<'m>>), SolveError> {
        let t0 = Instant::now();
        let model = self.model;
        let mut budget = budget.clone();
        budget.max_depth = model.limit;
        let (engine, engine_reason) = (self.engine_name(), self.engine_reason());
        let metric = self.metric;
        let ran = match &mut self.engine {
            Engine::Fast(f) => fast(model, f.as_mut(), level, &budget, need_path)?,
            Engine::Interp {
                search,
                auto,
                reuse,
                ..
            } => {
                let how = interp::How {
                    backend: *search,
                    auto: *auto,
                    metric,
                    need_path,
                };
                interp::run(model, level, &budget, how, reuse, t0)?
            }
        };
        // The whole solve, setup and preparation included, not only the search loop.
        let stats = Stats {
            elapsed: t0.elapsed(),
            ..ran.stats
        };
        let answer = Answer {
            outcome: ran.outcome,
            stats,
            engine,
            engine_reason,
            search: ran.search,
            counted: ran.counted,
        };
        Ok((answer, ran.exp))
    }
}

/// What one engine's run gave: the outcome, its counters, the search that ran, the unit
/// steps' grouping under a metric, and the interpreter that replayed a path.
struct Ran<'m> {
    outcome: Outcome,
    stats: Stats,
    search: &'static str,
    counted: Option<Counted>,
    exp: Option<Expander<'m>>,
}

/// Runs a fast path, and replays the path it returns through the interpreter.
fn fast<'m>(
    model: &'m Model,
    f: &mut dyn FastPath,
    level: Level,
    budget: &Budget,
    need_path: bool,
) -> Result<Ran<'m>, SolveError> {
    let (out, stats) = f.solve(&level, budget, need_path);
    let mut ran = Ran {
        outcome: Outcome::Unsolvable,
        stats,
        search: "fast",
        counted: None,
        exp: None,
    };
    ran.outcome = match out {
        FastOutcome::Solved {
            cost,
            actions: Some(actions),
        } => {
            let mut exp = match expander(model, level, budget) {
                Ok(exp) => exp,
                Err(Ok(c)) => {
                    ran.outcome = Outcome::Cutoff(c);
                    return Ok(ran);
                }
                Err(Err(e)) => return Err(e),
            };
            let states = search::replay(&mut exp, &actions).map_err(|k| {
                SolveError::BadPath(format!("fast path: move {} is not possible", k + 1))
            })?;
            let path = Path { actions, states };
            verify(&mut exp, &path)?;
            if path_cost(model, &path.actions) != cost {
                return Err(SolveError::BadPath(
                    "fast path: the path's cost differs from its claim".into(),
                ));
            }
            ran.exp = Some(exp);
            Outcome::Solved(path)
        }
        FastOutcome::Solved {
            cost,
            actions: None,
        } => Outcome::Cost(cost),
        FastOutcome::Unsolvable => Outcome::Unsolvable,
        FastOutcome::Cutoff(c) => Outcome::Cutoff(c),
    };
    Ok(ran)
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

/// [`solve_with`], always returning a path when there is one.
pub fn solve(
    model: &Model,
    level: Level,
    engine: EngineChoice,
    budget: &Budget,
) -> Result<Answer, SolveError> {
    solve_with(model, level, engine, budget, true)
}
