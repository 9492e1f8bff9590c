//! Name resolution shared by the passes: each method looks one name up in the
//! [`Symbols`] and returns the problem if it does not resolve, with a suggestion.
//!
//! Suggestions compare the name with every known name of its kind, so a file with
//! thousands of unknown names among thousands of declared ones would be quadratic. A
//! [`Lookup`] therefore suggests for the first [`SUGGESTED`] unknown names of its pass
//! only (reports show the first problems anyway); later ones list a few declared names.

use std::cell::Cell;

use super::symbols::{Symbols, Thing};
use crate::diagnostics::{did_you_mean, Problem, MAX_SHOWN};
use crate::syntax::ast::{Name, PieceRef};

/// How many declared names an "unknown name" help lists when nothing is close.
const LISTED: usize = 8;

/// How many unknown names of one pass get a "did you mean" suggestion.
const SUGGESTED: usize = MAX_SHOWN;

/// The symbol table as one pass reads it, with that pass's suggestion budget.
pub struct Lookup<'a> {
    /// The table names resolve in.
    pub(crate) syms: &'a Symbols,
    suggestions_left: Cell<usize>,
}

impl<'a> Lookup<'a> {
    /// A lookup with a fresh suggestion budget.
    pub fn new(syms: &'a Symbols) -> Self {
        Lookup {
            syms,
            suggestions_left: Cell::new(SUGGESTED),
        }
    }

    /// The closest of `known` to `name`, while the budget lasts.
    pub fn suggest<'k>(
        &self,
        name: &str,
        known: impl IntoIterator<Item = &'k str>,
    ) -> Option<String> {
        let left = self.suggestions_left.get();
        if left == 0 {
            return None;
        }
        self.suggestions_left.set(left - 1);
        did_you_mean(name, known)
    }

    /// `unknown {kind} `name``, suggesting the closest of `known` or listing a few of them.
    fn unknown<'k>(
        &self,
        kind: &'static str,
        name: &Name,
        known: impl Iterator<Item = &'k str> + Clone,
    ) -> Problem {
        let help = self.suggest(&name.text, known.clone()).or_else(|| {
            let listed: Vec<&str> = known.take(LISTED).collect();
            Some(if listed.is_empty() {
                format!("no {kind} is declared yet")
            } else {
                format!("declared: {}", listed.join(", "))
            })
        });
        Problem::UnknownName {
            kind,
            name: name.text.clone(),
            span: name.span.into(),
            help,
        }
    }

    /// A name that must be a tile, mark or piece of one of `kinds`; `noun` says which in
    /// the report ("tile or mark").
    pub fn expect(&self, noun: &'static str, name: &Name, kinds: &[Thing]) -> Option<Problem> {
        match self.syms.thing(&name.text) {
            Some((k, _)) if kinds.contains(&k) => None,
            Some((k, declared)) => Some(Problem::WrongKind {
                name: name.text.clone(),
                found: k.noun(),
                expected: noun,
                span: name.span.into(),
                declared: declared.into(),
                help: self.suggest(
                    &name.text,
                    self.syms.names_of(kinds).filter(|k| *k != name.text),
                ),
            }),
            None => Some(self.unknown(noun, name, self.syms.names_of(kinds))),
        }
    }

    /// A name that must be a tile.
    pub fn tile(&self, name: &Name) -> Option<Problem> {
        self.expect("tile", name, &[Thing::Tile])
    }

    /// A name that must be a piece.
    pub fn piece(&self, name: &Name) -> Option<Problem> {
        self.expect("piece", name, &[Thing::Piece])
    }

    /// A pose of `piece` (which is known to be a piece; nothing is reported otherwise).
    pub fn pose(&self, piece: &str, pose: &Name) -> Option<Problem> {
        let poses = self.syms.poses(piece)?;
        if poses.get(&pose.text).is_some() {
            return None;
        }
        let help = self.suggest(&pose.text, poses.names()).unwrap_or_else(|| {
            let listed: Vec<&str> = poses.names().take(LISTED).collect();
            format!("`{piece}` has poses: {}", listed.join(", "))
        });
        Some(Problem::UnknownName {
            kind: "pose",
            name: pose.text.clone(),
            span: pose.span.into(),
            help: Some(help),
        })
    }

    /// A direction: a declared one, or the move's parameter when `param` is given.
    pub fn dir(&self, name: &Name, param: Option<&str>) -> Option<Problem> {
        if Some(name.text.as_str()) == param || self.syms.dirs.get(&name.text).is_some() {
            return None;
        }
        let known = param.into_iter().chain(self.syms.dirs.names());
        Some(self.unknown("direction", name, known))
    }

    /// What an `at` condition looks for: a piece, tile or mark, or with a pose
    /// (`disk.small at c`) a piece kind and one of its poses.
    pub fn at_subject(&self, what: &Name, pose: Option<&Name>) -> Option<Problem> {
        match pose {
            Some(pose) => self.piece_ref(&PieceRef {
                piece: what.clone(),
                pose: Some(pose.clone()),
                span: what.span,
            }),
            None => self.expect(
                "piece, tile or mark",
                what,
                &[Thing::Piece, Thing::Tile, Thing::Mark],
            ),
        }
    }

    /// `piece` or `piece.pose`.
    pub fn piece_ref(&self, r: &PieceRef) -> Option<Problem> {
        self.piece(&r.piece)
            .or_else(|| self.pose(&r.piece.text, r.pose.as_ref()?))
    }
}
