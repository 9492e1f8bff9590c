//! puz: a declarative language for grid puzzles, and the tool that solves them.
//!
//! Pipeline: [`syntax`] (text to AST), [`check`] (semantic checks, diagnostics),
//! [`compile`] (AST to [`compile::Model`]), [`engine`] (levels, packed states, the
//! expander), [`search`] (backends), [`io`] (judge formats, level files, rendering).

#![warn(missing_docs)]

pub mod check;
pub mod compile;
pub mod diagnostics;
pub mod dist;
pub mod engine;
mod error;
pub mod expect;
pub mod fast;
pub mod io;
pub mod play;
pub mod puzzle;
pub mod search;
pub mod serve;
pub mod solution;
pub mod solver;
pub mod syntax;

pub use error::Error;
pub use puzzle::{solve, Puzzle};
pub use solution::Solution;
pub use solver::SolveOptions;
