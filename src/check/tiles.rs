//! Tile declarations: what a mutable tile turns into, and what lies beyond the board.

use super::names::Lookup;
use super::symbols::Symbols;
use crate::diagnostics::Problem;
use crate::syntax::ast::{File, ItemKind};

/// `a -> b` names a declared tile other than `a`; `outside` names a tile.
pub fn check(file: &File, syms: &Symbols) -> Vec<Problem> {
    let look = Lookup::new(syms);
    let mut out = vec![];
    for item in &file.items {
        match &item.kind {
            ItemKind::Tiles(tiles) => {
                for t in tiles {
                    let Some(b) = &t.becomes else { continue };
                    if b.text == t.name.text {
                        out.push(Problem::SelfMutation {
                            tile: t.name.text.clone(),
                            span: b.span.into(),
                        });
                    } else {
                        out.extend(look.tile(b));
                    }
                }
            }
            ItemKind::Outside(t) => out.extend(look.tile(t)),
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
    fn mutations_and_outside_must_name_other_tiles() {
        let file = parse("tiles { a -> a  b -> c } outside d").expect("parses");
        let (syms, _) = declare(&file);
        let codes: Vec<String> = check(&file, &syms).iter().map(|p| p.code_str()).collect();
        assert_eq!(
            codes,
            [
                "puz::check::self_mutation",
                "puz::check::unknown_name",
                "puz::check::unknown_name"
            ]
        );
    }
}
