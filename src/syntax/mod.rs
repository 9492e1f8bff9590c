//! Stage 1: `.puz` text to a spanned AST.
//!
//! pest does the parsing; this module lowers its parse tree into `ast` nodes and turns
//! pest's errors into [`Problem::Syntax`](crate::diagnostics::Problem::Syntax) with
//! readable expectations.

pub(crate) mod ast;
mod lower;
pub(crate) mod span;

pub use lower::parse;
pub use span::Span;

#[cfg(test)]
mod tests;
