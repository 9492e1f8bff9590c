//! The rules of play: `forbid` and `goal` name a piece (and pose) and a tile or mark.

use super::names::Lookup;
use super::symbols::{Symbols, Thing};
use crate::diagnostics::Problem;
use crate::syntax::ast::{CellBase, Cond, CondNode, File, ItemKind};

/// Every `forbid` and `goal` declaration.
pub fn check(file: &File, syms: &Symbols) -> Vec<Problem> {
    let place = [Thing::Tile, Thing::Mark];
    let look = Lookup::new(syms);
    let attrs = super::moves::Attributes::of(file);
    let mut out = vec![];
    for item in &file.items {
        match &item.kind {
            ItemKind::Forbid(f) => {
                out.extend(look.piece_ref(&f.piece));
                out.extend(look.expect("tile or mark", &f.tile, &place));
            }
            ItemKind::Goal(cond) => goal(cond, &look, &attrs, &mut out),
            _ => {}
        }
    }
    out
}

/// A goal condition: pieces, tiles, marks and counters by name; cells start at a piece
/// or an absolute `(row, col)`; nothing is bound.
fn goal(c: &CondNode, look: &Lookup, attrs: &super::moves::Attributes, out: &mut Vec<Problem>) {
    let place = [Thing::Tile, Thing::Mark];
    match &c.cond {
        Cond::At {
            what,
            pose,
            cell,
            alias,
        } => {
            out.extend(look.at_subject(what, pose.as_ref()));
            if let CellBase::Name(n) = &cell.base {
                out.extend(look.piece(n));
            }
            for (_, s) in &cell.steps {
                out.extend(look.dir(&s.dir, None));
            }
            if let Some(a) = alias {
                out.push(Problem::AliasInExpression {
                    alias: a.text.clone(),
                    span: a.span.into(),
                });
            }
        }
        Cond::On { piece, on } => {
            out.extend(look.piece_ref(piece));
            out.extend(look.expect("tile or mark", on, &place));
        }
        Cond::Count { what, .. } => out.extend(look.expect(
            "piece, tile or mark",
            what,
            &[Thing::Piece, Thing::Tile, Thing::Mark],
        )),
        Cond::Counter { name, .. } => out.extend(look.expect("counter", name, &[Thing::Counter])),
        Cond::Attr { left, right, .. } => {
            let mut one = |r: &crate::syntax::ast::AttrRef| match look.piece(&r.piece) {
                Some(p) => out.push(p),
                None if look.syms.anonymous.contains(&r.piece.text) => {
                    out.push(Problem::AttributeInGoal {
                        piece: r.piece.text.clone(),
                        span: r.piece.span.into(),
                    })
                }
                None => out.extend(attrs.problem(&r.piece.text, &r.attr)),
            };
            one(left);
            if let crate::syntax::ast::AttrOperand::Attr(r) = right {
                one(r);
            }
        }
        Cond::Not(inner) => goal(inner, look, attrs, out),
        Cond::And(parts) | Cond::Or(parts) => {
            for p in parts {
                goal(p, look, attrs, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::symbols::declare;
    use crate::syntax::parse;

    #[test]
    fn rules_resolve_pieces_poses_and_places() {
        let file = parse(
            "tiles { wall } marks { exit } piece man \
             forbid man on wall goal man.cell on exit goal man.up on exit forbid wall on man",
        )
        .expect("parses");
        let (syms, _) = declare(&file);
        let codes: Vec<String> = check(&file, &syms).iter().map(|p| p.code_str()).collect();
        assert_eq!(
            codes,
            [
                "puz::check::unknown_name",
                "puz::check::wrong_kind",
                "puz::check::wrong_kind"
            ]
        );
    }
}
