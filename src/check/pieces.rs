//! Pieces and their poses: every footprint is non-empty, covers its anchor and lists each
//! cell once. Poses may share a shape: a legend symbol that names only the piece places
//! the first declared of them, and one that chooses a pose (`'>' floor + robot.east`)
//! places that pose (see `engine::level::placement`), so every pose can start a level.

use std::collections::{HashMap, HashSet};

use crate::diagnostics::Problem;
use crate::syntax::ast::{File, ItemKind, PieceDecl};
use crate::syntax::Span;

/// Every piece's poses.
pub fn check(file: &File) -> Vec<Problem> {
    let mut out = vec![];
    for item in &file.items {
        if let ItemKind::Piece(p) = &item.kind {
            out.extend(piece(p));
        }
    }
    out
}

/// Each attribute once per `has` list.
fn attrs_once(list: &[crate::syntax::ast::AttrDef], owner: &str, out: &mut Vec<Problem>) {
    for (i, a) in list.iter().enumerate() {
        if list[..i].iter().any(|b| b.name.text == a.name.text) {
            out.push(Problem::DuplicateAttribute {
                attr: a.name.text.clone(),
                owner: owner.to_string(),
                span: a.name.span.into(),
            });
        }
    }
}

fn piece(p: &PieceDecl) -> Vec<Problem> {
    let mut out = vec![];
    attrs_once(&p.attrs, &format!("piece `{}`", p.name.text), &mut out);
    let Some(poses) = &p.poses else {
        return out;
    };
    for pose in poses {
        let owner = format!("pose `{}.{}`", p.name.text, pose.name.text);
        attrs_once(&pose.attrs, &owner, &mut out);
    }
    if poses.is_empty() {
        out.push(Problem::NoPoses {
            piece: p.name.text.clone(),
            span: p.name.span.into(),
        });
    }
    // Repeated pose names are reported by `declare`; only first declarations count here.
    let mut named = HashSet::new();
    for pose in poses {
        if !named.insert(pose.name.text.as_str()) {
            continue;
        }
        if pose.cells.is_empty() {
            out.push(Problem::EmptyFootprint {
                pose: pose.name.text.clone(),
                span: pose.body.into(),
            });
            continue;
        }
        let mut cells: HashMap<(i64, i64), Span> = HashMap::new();
        for c in &pose.cells {
            match cells.get(&(c.dr, c.dc)) {
                Some(first) => out.push(Problem::DuplicateCell {
                    pose: pose.name.text.clone(),
                    dr: c.dr,
                    dc: c.dc,
                    span: c.span.into(),
                    first: (*first).into(),
                }),
                None => {
                    cells.insert((c.dr, c.dc), c.span);
                }
            }
        }
        if !cells.contains_key(&(0, 0)) {
            out.push(Problem::AnchorUncovered {
                pose: pose.name.text.clone(),
                span: pose.body.into(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse;

    fn codes(src: &str) -> Vec<String> {
        check(&parse(src).expect("parses"))
            .iter()
            .map(|p| p.code_str())
            .collect()
    }

    #[test]
    fn a_one_cell_piece_has_nothing_to_check() {
        assert!(codes("piece man").is_empty());
    }

    #[test]
    fn footprints_are_checked() {
        assert_eq!(codes("piece p { }"), ["puz::check::no_poses"]);
        assert_eq!(
            codes("piece p { pose a { (0, 0) (0, 0) } }"),
            ["puz::check::duplicate_cell"]
        );
        assert_eq!(
            codes("piece p { pose a { (1, 0) } }"),
            ["puz::check::anchor_uncovered"]
        );
        assert!(
            codes("piece p { pose a { (0, 0) (0, 1) } pose b { (0, -1) (0, 0) } }").is_empty(),
            "poses may share a shape"
        );
    }
}
