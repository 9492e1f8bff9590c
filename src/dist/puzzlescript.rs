//! PuzzleScript levels on the distributed engine: a level of a game as a [`Problem`]
//! ([`PsLevel`]: every worker plays the game in a `PsSpace` of its own), searched by
//! layers like a `.puz` level, and its answer told as one process tells it
//! ([`solve_level`]: the path rebuilt from the workers' parent links, replayed in a fresh
//! session, the same `PsSolution`; [`analyze_level`]: the whole-space figures with the
//! farthest level drawn in the game's legend).
//!
//! The processes of a run agree on the game by a digest of its whole source text (rules
//! and levels, comments included: the text is what every process reads) and on the level
//! by its entry number; both also name the run's checkpoints.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::digest::digest;
use super::{
    checkpoint, run_problem, Batch, DistAnalysis, DistError, DistOptions, DistOutcome, DistReport,
    Job, Problem,
};
use crate::engine::Successors;
use crate::puzzlescript::search::{InputCounts, PsSpace};
use crate::puzzlescript::solve::{conclude, frame, searchable, start};
use crate::puzzlescript::{Entry, Game, PsSolution, PsSolveError, PsSolveOptions};
use crate::search::{Backend, Outcome, Path, Space, Stats};

/// The search a distributed answer names (`search` in `--json`).
pub const SEARCH: &str = "distributed bfs";

/// Why a PuzzleScript level was not searched across processes: the level or the game
/// cannot be searched (as in one process), or the run failed.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum PsDistError {
    /// Refused as one process refuses it.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Level(#[from] PsSolveError),
    /// The run failed (connection, agreement, checkpoint, a lost process).
    #[error(transparent)]
    #[diagnostic(transparent)]
    Dist(#[from] DistError),
}

/// Entry `index` of a PuzzleScript game as a distributed [`Problem`]. It gathers what its
/// workers' spaces counted (inputs simulated, again turns) as they finish.
pub struct PsLevel {
    game: Arc<Game>,
    index: usize,
    counts: Mutex<InputCounts>,
}

impl PsLevel {
    /// Entry `index` of `game` (a level: see [`solve_level`], which checks it).
    pub fn new(game: Arc<Game>, index: usize) -> PsLevel {
        PsLevel {
            game,
            index,
            counts: Mutex::new(InputCounts::default()),
        }
    }

    /// What this process's workers' spaces counted, summed, once the run is over.
    pub fn counts(&self) -> InputCounts {
        *self.counts.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The level's playable number (`#K`), from 1.
    fn playable(&self) -> usize {
        self.game.entries()[..=self.index.min(self.game.entries().len().saturating_sub(1))]
            .iter()
            .filter(|e| matches!(e, Entry::Level { .. }))
            .count()
    }
}

impl Problem for PsLevel {
    type Space<'p> = PsSpace<'p>;

    fn space(&self, _job: Job) -> Result<PsSpace<'_>, DistError> {
        start(&self.game, self.index).map_err(|e| DistError::Setup(e.to_string()))
    }

    fn rules(&self) -> (String, u64) {
        let name = self.game.title().unwrap_or(self.game.name());
        let mut b = Batch(b"puzzlescript game\0".to_vec());
        b.0.extend_from_slice(self.game.source().as_bytes());
        (format!("game {name:?}"), digest(&b.0))
    }

    fn level(&self) -> (String, u64) {
        let mut b = Batch(b"puzzlescript level\0".to_vec());
        b.u64(self.index as u64);
        (
            format!("level {} (#{})", self.index, self.playable()),
            digest(&b.0),
        )
    }

    fn cheap_goal(&self) -> bool {
        // A state's last word says whether the level is won.
        true
    }

    fn finish(&self, space: PsSpace<'_>) -> Result<(), DistError> {
        let c = space.counts;
        {
            let mut all = self.counts.lock().unwrap_or_else(|p| p.into_inner());
            all.simulated += c.simulated;
            all.unchanged += c.unchanged;
            all.restarts += c.restarts;
            all.stuck += c.stuck;
            all.again_turns += c.again_turns;
            all.dead += c.dead;
        }
        // A level a turn made that the packing cannot store was left out of the search.
        match space.overlap() {
            Some(e) => Err(DistError::Worker(e.to_string())),
            None => Ok(()),
        }
    }
}

/// Solves entry `index` of `game` across the cluster of `dist`, by layers: the answer
/// [`crate::puzzlescript::solve_level`] gives with breadth-first search (the same fewest
/// inputs, the same inputs under the tie rule), replayed in a fresh session the same
/// way, with `search` naming the distributed search. Every process of the run calls this
/// with the same game, level and options (its own `process` in `dist.cluster`), and each
/// gets the answer (a command line prints it on process 0). The budgets are `dist`'s
/// (each process's states, time and memory); `opts.budget` is not read. `opts.search`
/// is refused as in one process when it cannot run on a game (`bidir`, `dfs`,
/// `layered`); any other names a search whose answer this is.
pub fn solve_level(
    game: Arc<Game>,
    index: usize,
    opts: &PsSolveOptions,
    dist: DistOptions,
) -> Result<(PsSolution, DistReport), PsDistError> {
    let t0 = Instant::now();
    searchable(&game, index, opts.search.unwrap_or(Backend::Bfs))?;
    start(&game, index)?;
    let problem = Arc::new(PsLevel::new(game.clone(), index));
    let report = run_problem(problem.clone(), Job::Solve, dist)?;
    let mut space = start(&game, index)?;
    let outcome = match &report.outcome {
        DistOutcome::Solved(steps) => Outcome::Solved(rebuild(&mut space, steps, &report)?),
        DistOutcome::Unsolvable => Outcome::Unsolvable,
        DistOutcome::Cutoff(c) => Outcome::Cutoff(*c),
        DistOutcome::Analyzed(_) => {
            return Err(DistError::Worker("a solve ended with an analysis".into()).into())
        }
    };
    let stats = Stats {
        expanded: report.layers.iter().map(|l| l.expanded).sum(),
        stored: report.total_stored,
        elapsed: t0.elapsed(),
        ..Default::default()
    };
    let mut sol = frame(&game, index, SEARCH, true, "none (not A*)".into(), stats);
    sol.simulated = problem.counts();
    sol.pruning = space.pruning_description();
    conclude(&mut sol, &space, outcome, opts.boards)?;
    Ok((sol, report))
}

/// The states of the path the workers followed back: from the start, at each move the
/// successor at the recorded index, which must be made by the recorded input.
fn rebuild(
    space: &mut PsSpace,
    steps: &[(crate::engine::Action, u32)],
    report: &DistReport,
) -> Result<Path, PsDistError> {
    let words = space.words();
    let mut states = vec![space.start()];
    let mut succ = Successors::default();
    for (k, &(a, i)) in steps.iter().enumerate() {
        space.successors(states.last().expect("the start is there"), &mut succ);
        if succ.actions.get(i as usize) != Some(&a) {
            let what = format!(
                "the path found does not replay: input {} is not a move",
                k + 1
            );
            // After a resume, the parent links came from the files.
            return Err(if report.resumed_from.is_some() {
                checkpoint::err(format!(
                    "{what}; the checkpoint resumed from is damaged or not of this game and \
                     level"
                ))
                .into()
            } else {
                PsSolveError::BadPath(what).into()
            });
        }
        states.push(succ.state(i as usize, words).to_vec());
    }
    Ok(Path {
        actions: steps.iter().map(|&(a, _)| a).collect(),
        states,
    })
}

/// A distributed analysis of a PuzzleScript level.
pub struct PsAnalysis {
    /// This process's report (its outcome holds the figures, or the budget that stopped
    /// the run).
    pub report: DistReport,
    /// The figures, when the run finished.
    pub analysis: Option<DistAnalysis>,
    /// The farthest level (the first of the last layer in breadth-first order), drawn in
    /// the game's legend characters, when the run finished.
    pub farthest: Option<String>,
}

/// Analyzes entry `index` of `game` across the cluster of `dist`: reachable levels, levels
/// at each distance in inputs, won levels, the fewest inputs and the farthest level, the
/// figures one process's analysis gives (dead ends, components and solution counts need
/// the whole graph in one place and are left out).
pub fn analyze_level(
    game: Arc<Game>,
    index: usize,
    dist: DistOptions,
) -> Result<PsAnalysis, PsDistError> {
    searchable(&game, index, Backend::Bfs)?;
    let space = start(&game, index)?;
    let problem = Arc::new(PsLevel::new(game.clone(), index));
    let report = run_problem(problem, Job::Analyze, dist)?;
    let (analysis, farthest) = match &report.outcome {
        DistOutcome::Analyzed(a) => {
            let board = (a.farthest.len() == space.words()).then(|| space.draw(&a.farthest));
            (Some(a.clone()), board)
        }
        _ => (None, None),
    };
    Ok(PsAnalysis {
        report,
        analysis,
        farthest,
    })
}
