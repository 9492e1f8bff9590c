//! What can go wrong between a rule file and its answer, as one error type for
//! [`crate::solve`] and [`crate::Puzzle::solve`].

use crate::diagnostics::Diagnostics;
use crate::solver::SolveError;

/// Why a level could not be solved: the file does not load, the level or metric asked for
/// does not exist, or the solver refused. A search that runs out of budget is not an
/// error: its [`crate::Solution`] says so.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum Error {
    /// The file (or the level) has errors: every one of them, with spans into the source.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Load(#[from] Diagnostics),
    /// The level asked for is not one of the file's.
    #[error("{file} has no level named {name:?}")]
    #[diagnostic(code(puz::input::no_such_level), help("its levels: {names}"))]
    NoSuchLevel {
        /// The file's name.
        file: String,
        /// The name asked for.
        name: String,
        /// The file's levels, comma-separated.
        names: String,
    },
    /// The file has no inline level.
    #[error("{file} has no levels")]
    #[diagnostic(
        code(puz::input::no_levels),
        help("give a level file: puz solve {file} LEVEL")
    )]
    NoLevels {
        /// The file's name.
        file: String,
    },
    /// The metric asked for is not one of the file's.
    #[error("{file} has no metric named {name:?}")]
    #[diagnostic(code(puz::input::no_such_metric), help("{names}"))]
    NoSuchMetric {
        /// The file's name.
        file: String,
        /// The name asked for.
        name: String,
        /// The file's metrics, or how to declare one.
        names: String,
    },
    /// The solver refused the level or the rules (see [`SolveError`]).
    #[error(transparent)]
    #[diagnostic(transparent)]
    Solve(#[from] SolveError),
}
