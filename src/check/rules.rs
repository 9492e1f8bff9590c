//! The rules of play: `forbid` and `goal` name a piece (and pose) and a tile or mark.

use super::names::Lookup;
use super::symbols::{Symbols, Thing};
use crate::diagnostics::Problem;
use crate::syntax::ast::{File, ItemKind};

/// Every `forbid` and `goal` declaration.
pub fn check(file: &File, syms: &Symbols) -> Vec<Problem> {
    let place = [Thing::Tile, Thing::Mark];
    let look = Lookup::new(syms);
    let mut out = vec![];
    for item in &file.items {
        match &item.kind {
            ItemKind::Forbid(f) => {
                out.extend(look.piece_ref(&f.piece));
                out.extend(look.expect("tile or mark", &f.tile, &place));
            }
            ItemKind::Goal(conds) => {
                for g in conds {
                    out.extend(look.piece_ref(&g.piece));
                    out.extend(look.expect("tile or mark", &g.on, &place));
                }
            }
            _ => {}
        }
    }
    out
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
