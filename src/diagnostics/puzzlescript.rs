//! Every diagnostic about a PuzzleScript game source: one enum, [`PsProblem`], each
//! variant with a unique code (`puz::ps::...`), a labelled span and help. PuzzleScript's
//! own compiler reports many of these too (its wording is kept where it is clear); the
//! rest are what it does not say.
//!
//! They reach reports through [`super::Problem::PuzzleScript`], so a game's problems are
//! one [`super::Diagnostics`] like a `.puz` file's.

use miette::{Diagnostic, SourceSpan};
use thiserror::Error;

/// One problem found in a PuzzleScript game source.
#[derive(Debug, Error, Diagnostic, Clone)]
pub enum PsProblem {
    // ---- syntax: the source does not read as PuzzleScript (grammar and lowering) ----
    /// A line the grammar cannot read where it is.
    #[error("{what}")]
    #[diagnostic(code(puz::ps::syntax))]
    Syntax {
        /// Where.
        #[label("{label}")]
        span: SourceSpan,
        /// The message.
        what: String,
        /// The label.
        label: String,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },

    // ---- compile: names, layers, rules, levels, win conditions ----
    /// A name used but never declared.
    #[error("`{name}` is not declared")]
    #[diagnostic(code(puz::ps::unknown_name))]
    UnknownName {
        /// Where it is used.
        #[label("not an object, property or aggregate")]
        span: SourceSpan,
        /// The name.
        name: String,
        /// A suggestion.
        #[help]
        help: Option<String>,
    },
}
