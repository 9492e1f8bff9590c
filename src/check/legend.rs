//! The legend: each symbol means one thing, names a tile, and places each piece or mark
//! at most once. Integer symbols are non-negative codes. A piece may choose the pose its
//! copies start in (`'>' floor + turtle.east`): the pose must be one of the piece's, and
//! only pieces have poses.

use std::collections::HashMap;

use super::names::Lookup;
use super::symbols::{Symbols, Thing};
use crate::diagnostics::Problem;
use crate::syntax::ast::{File, ItemKind, KeyValue, LegendEntry, Name};
use crate::syntax::Span;

/// Every legend entry.
pub fn check(file: &File, syms: &Symbols) -> Vec<Problem> {
    let look = Lookup::new(syms);
    let mut out = vec![];
    let mut keys: HashMap<&KeyValue, Span> = HashMap::new();
    for item in &file.items {
        let ItemKind::Legend(entries) = &item.kind else {
            continue;
        };
        for e in entries {
            match keys.get(&e.key) {
                Some(first) => out.push(Problem::DuplicateLegendKey {
                    key: e.key.to_string(),
                    span: e.key_span.into(),
                    first: (*first).into(),
                }),
                None => {
                    keys.insert(&e.key, e.key_span);
                }
            }
            if let KeyValue::Int(v) = e.key {
                if v < 0 {
                    out.push(Problem::NegativeSymbol {
                        value: v,
                        span: e.key_span.into(),
                    });
                }
            }
            out.extend(entry(e, &look));
        }
    }
    out
}

/// One entry's tile and placements.
fn entry(e: &LegendEntry, look: &Lookup) -> Vec<Problem> {
    let mut out: Vec<Problem> = vec![];
    match look.tile(&e.tile) {
        Some(p) => out.push(p),
        None => out.extend(
            e.tile_pose
                .as_ref()
                .map(|pose| no_pose(&e.tile, Thing::Tile, pose)),
        ),
    }
    let mut placed: HashMap<&str, Span> = HashMap::new();
    for x in &e.extras {
        let name = &x.piece;
        if let Some(p) = look.expect("piece or mark", name, &[Thing::Piece, Thing::Mark]) {
            out.push(p);
            continue;
        }
        if let Some(pose) = &x.pose {
            match look.syms.thing(&name.text) {
                Some((Thing::Piece, _)) => out.extend(look.pose(&name.text, pose)),
                Some((k, _)) => out.push(no_pose(name, k, pose)),
                None => {}
            }
        }
        match placed.get(name.text.as_str()) {
            Some(first) => out.push(Problem::RepeatedPlacement {
                key: e.key.to_string(),
                name: name.text.clone(),
                span: name.span.into(),
                first: (*first).into(),
            }),
            None => {
                placed.insert(&name.text, name.span);
            }
        }
    }
    out
}

/// `'.' floor.east`: a pose after `name`, which is a `kind` other than a piece.
fn no_pose(name: &Name, kind: Thing, pose: &Name) -> Problem {
    Problem::PoseOfNonPiece {
        name: name.text.clone(),
        found: kind.noun(),
        pose: pose.text.clone(),
        span: pose.span.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::symbols::declare;
    use crate::syntax::parse;

    fn codes(src: &str) -> Vec<String> {
        let file = parse(src).expect("parses");
        let (syms, _) = declare(&file);
        check(&file, &syms).iter().map(|p| p.code_str()).collect()
    }

    #[test]
    fn a_good_legend_has_no_problems() {
        assert!(
            codes("tiles { floor } piece man legend { '.' floor 0 floor 'X' floor + man }")
                .is_empty()
        );
        assert!(codes(
            "tiles { floor } piece t { pose n { (0, 0) } pose e { (0, 0) } } legend { '>' floor + t.e }"
        )
        .is_empty());
    }

    #[test]
    fn legend_mistakes_each_have_a_code() {
        assert_eq!(
            codes("tiles { floor } legend { '.' floor '.' floor }"),
            ["puz::check::duplicate_legend_key"]
        );
        assert_eq!(
            codes("tiles { floor } legend { -1 floor }"),
            ["puz::check::negative_symbol"]
        );
        assert_eq!(
            codes("tiles { floor } piece man legend { 'X' floor + man + man }"),
            ["puz::check::repeated_placement"]
        );
        assert_eq!(
            codes("tiles { floor } legend { 'X' floor + floor }"),
            ["puz::check::wrong_kind"]
        );
        assert_eq!(
            codes("tiles { floor } piece t { pose n { (0, 0) } } legend { '>' floor + t.e }"),
            ["puz::check::unknown_name"]
        );
        assert_eq!(
            codes("tiles { floor } marks { goal } legend { 'o' floor + goal.e }"),
            ["puz::check::pose_of_non_piece"]
        );
        assert_eq!(
            codes("tiles { floor } legend { '.' floor.e }"),
            ["puz::check::pose_of_non_piece"]
        );
        assert_eq!(
            codes("tiles { floor } piece t { pose n { (0, 0) } } legend { 'X' floor + t.n + t }"),
            ["puz::check::repeated_placement"]
        );
    }
}
