//! Name resolution shared by the passes: each function looks one name up in the
//! [`Symbols`] and returns the problem if it does not resolve, with a suggestion.

use super::symbols::{Symbols, Thing};
use crate::diagnostics::{did_you_mean, Problem};
use crate::syntax::ast::{Name, PieceRef};

/// How many declared names an "unknown name" help lists when nothing is close.
const LISTED: usize = 8;

/// `unknown {kind} `name``, suggesting the closest of `known` or listing a few of them.
pub fn unknown<'a>(
    kind: &'static str,
    name: &Name,
    known: impl Iterator<Item = &'a str> + Clone,
) -> Problem {
    let help = did_you_mean(&name.text, known.clone()).or_else(|| {
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

/// A name that must be a tile, mark or piece of one of `kinds`; `noun` says which in the
/// report ("tile or mark").
pub fn expect(syms: &Symbols, noun: &'static str, name: &Name, kinds: &[Thing]) -> Option<Problem> {
    match syms.thing(&name.text) {
        Some((k, _)) if kinds.contains(&k) => None,
        Some((k, declared)) => Some(Problem::WrongKind {
            name: name.text.clone(),
            found: k.noun(),
            expected: noun,
            span: name.span.into(),
            declared: declared.into(),
            help: did_you_mean(&name.text, syms.names_of(kinds).filter(|k| *k != name.text)),
        }),
        None => Some(unknown(noun, name, syms.names_of(kinds))),
    }
}

/// A name that must be a tile.
pub fn tile(syms: &Symbols, name: &Name) -> Option<Problem> {
    expect(syms, "tile", name, &[Thing::Tile])
}

/// A name that must be a piece.
pub fn piece(syms: &Symbols, name: &Name) -> Option<Problem> {
    expect(syms, "piece", name, &[Thing::Piece])
}

/// A pose of `piece` (which is known to be a piece; nothing is reported otherwise).
pub fn pose(syms: &Symbols, piece: &str, pose: &Name) -> Option<Problem> {
    let poses = syms.poses(piece)?;
    if poses.get(&pose.text).is_some() {
        return None;
    }
    let help = did_you_mean(&pose.text, poses.names()).unwrap_or_else(|| {
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
pub fn dir(syms: &Symbols, name: &Name, param: Option<&str>) -> Option<Problem> {
    if Some(name.text.as_str()) == param || syms.dirs.get(&name.text).is_some() {
        return None;
    }
    Some(unknown(
        "direction",
        name,
        param.into_iter().chain(syms.dirs.names()),
    ))
}

/// `piece` or `piece.pose`.
pub fn piece_ref(syms: &Symbols, r: &PieceRef) -> Option<Problem> {
    piece(syms, &r.piece).or_else(|| pose(syms, &r.piece.text, r.pose.as_ref()?))
}
