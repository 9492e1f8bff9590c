//! Stage 2: semantic checks over the AST.
//!
//! [`check`] runs small passes in a fixed order. `symbols::declare` comes first and
//! builds the [`Symbols`] table; every other pass reads the AST and that table and returns
//! its own problems, so passes share no mutable state and can be tested alone. All
//! problems of a file come back from one run, in source order. On success the symbols go
//! to [`crate::compile`], which relies on `limits` having held.

mod judge;
mod legend;
pub(crate) mod limits;
pub(crate) mod looks;
mod metrics;
mod moves;
mod names;
mod pieces;
mod rules;
mod sections;
mod symbols;
mod tiles;
mod values;

pub use symbols::{NameTable, Symbols, Thing};

use crate::diagnostics::Problem;
use crate::syntax::ast::File;

/// Checks a parsed file. Returns its symbols, or every problem found, in source order.
pub fn check(file: &File) -> Result<Symbols, Vec<Problem>> {
    let (syms, mut problems) = symbols::declare(file);
    problems.extend(sections::singletons(file));
    problems.extend(sections::empty(file));
    problems.extend(sections::required(file));
    problems.extend(limits::check(file, &syms));
    problems.extend(values::check(file));
    problems.extend(tiles::check(file, &syms));
    problems.extend(pieces::check(file));
    problems.extend(legend::check(file, &syms));
    problems.extend(moves::check(file, &syms));
    problems.extend(rules::check(file, &syms));
    problems.extend(metrics::check(file, &syms));
    problems.extend(judge::check(file, &syms));
    problems.extend(looks::check(file, &syms));
    if problems.is_empty() {
        Ok(syms)
    } else {
        problems.sort_by_key(problem_start);
        Err(problems)
    }
}

/// Where a problem's first label starts, for sorting into source order.
fn problem_start(p: &Problem) -> usize {
    use miette::Diagnostic;
    p.labels()
        .and_then(|mut l| l.next())
        .map(|l| l.offset())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse;

    const MINIMAL: &str = "tiles { floor } marks { exit } piece man \
        legend { '.' floor 'M' floor + man 'E' floor + exit } \
        dirs { e (0, 1) } move walk(d) { shift man d } goal man on exit";

    #[test]
    fn a_minimal_puzzle_checks() {
        let syms = check(&parse(MINIMAL).expect("parses")).expect("checks");
        assert_eq!(syms.dirs.len(), 1);
    }

    #[test]
    fn problems_come_back_in_source_order() {
        let src = MINIMAL
            .replace("on exit", "on exot")
            .replace("shift man", "shift mam");
        let problems = check(&parse(&src).expect("parses")).expect_err("fails");
        let starts: Vec<usize> = problems.iter().map(problem_start).collect();
        assert_eq!(problems.len(), 2);
        assert!(starts.windows(2).all(|w| w[0] <= w[1]));
    }
}
