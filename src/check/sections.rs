//! The shape of a file: declarations that may appear once, that must not be empty, and
//! that every puzzle needs.

use std::collections::HashMap;

use crate::diagnostics::Problem;
use crate::syntax::ast::{File, ItemKind};
use crate::syntax::Span;

/// The keyword of a declaration that may appear at most once.
fn singleton_keyword(kind: &ItemKind) -> Option<&'static str> {
    Some(match kind {
        ItemKind::Puzzle(_) => "puzzle",
        ItemKind::Tiles(_) => "tiles",
        ItemKind::Outside(_) => "outside",
        ItemKind::Marks(_) => "marks",
        ItemKind::Legend(_) => "legend",
        ItemKind::Dirs(_) => "dirs",
        ItemKind::Cost(_) => "cost",
        ItemKind::Limit(_) => "limit",
        ItemKind::Goal(_) => "goal",
        ItemKind::Judge(_) => "judge",
        _ => return None,
    })
}

/// Declarations written twice.
pub fn singletons(file: &File) -> Vec<Problem> {
    let mut seen: HashMap<&'static str, Span> = HashMap::new();
    let mut out = vec![];
    for item in &file.items {
        let Some(kw) = singleton_keyword(&item.kind) else {
            continue;
        };
        match seen.get(kw) {
            Some(first) => out.push(Problem::DuplicateSection {
                keyword: kw,
                span: item.keyword.into(),
                first: (*first).into(),
            }),
            None => {
                seen.insert(kw, item.keyword);
            }
        }
    }
    out
}

/// Lists that declare nothing: `dirs { }`.
pub fn empty(file: &File) -> Vec<Problem> {
    let mut out = vec![];
    for item in &file.items {
        let (keyword, empty, help) = match &item.kind {
            ItemKind::Tiles(t) => (
                "tiles",
                t.is_empty(),
                "name the tile kinds, e.g. `tiles { floor wall }`",
            ),
            ItemKind::Dirs(d) => (
                "dirs",
                d.is_empty(),
                "declare directions, e.g. `dirs { n (-1, 0) s (1, 0) w (0, -1) e (0, 1) }`",
            ),
            ItemKind::Legend(l) => (
                "legend",
                l.is_empty(),
                "map level symbols to tiles, e.g. `legend { '.' floor '#' wall }`",
            ),
            _ => continue,
        };
        if empty {
            out.push(Problem::EmptyDeclaration {
                keyword,
                span: item.span.into(),
                help: help.to_string(),
            });
        }
    }
    out
}

/// Declarations every puzzle needs.
pub fn required(file: &File) -> Vec<Problem> {
    let has = |f: fn(&ItemKind) -> bool| file.items.iter().any(|i| f(&i.kind));
    let required: [(&'static str, bool, &str); 5] = [
        ("tiles", has(|k| matches!(k, ItemKind::Tiles(_))), "declare the tile kinds, e.g. `tiles { floor wall }`"),
        ("legend", has(|k| matches!(k, ItemKind::Legend(_))), "map level symbols to tiles, e.g. `legend { '.' floor '#' wall }`"),
        ("dirs", has(|k| matches!(k, ItemKind::Dirs(_))), "declare the directions in tie-break order, e.g. `dirs { n (-1, 0) s (1, 0) w (0, -1) e (0, 1) }`"),
        ("move", has(|k| matches!(k, ItemKind::Move(_))), "declare at least one move, e.g. `move walk(d) { shift man d }`"),
        ("goal", has(|k| matches!(k, ItemKind::Goal(_))) || pictures_everywhere(file), "say what counts as solved, e.g. `goal box on target`, or draw each level's finished board after it: `goal \"\"\" ... \"\"\"`"),
    ];
    required
        .into_iter()
        .filter(|(_, present, _)| !present)
        .map(|(keyword, _, help)| Problem::MissingSection {
            keyword,
            span: (0, 0).into(),
            help: help.to_string(),
        })
        .collect()
}

/// Whether the file has levels and every one draws its goal.
fn pictures_everywhere(file: &File) -> bool {
    let mut levels = file.items.iter().filter_map(|i| match &i.kind {
        ItemKind::Level(l) => Some(l),
        _ => None,
    });
    let mut any = false;
    levels.all(|l| {
        any = true;
        l.goal.is_some()
    }) && any
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse;

    #[test]
    fn a_second_goal_is_reported_at_its_keyword() {
        let file = parse("goal a on b\ngoal c on d").expect("parses");
        let p = singletons(&file);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].code_str(), "puz::check::duplicate_section");
    }

    #[test]
    fn an_empty_file_misses_five_declarations() {
        // `piece` is not among them: a puzzle of tiles alone (Lights Out) needs none.
        let file = parse("").expect("parses");
        assert_eq!(required(&file).len(), 5);
        assert!(empty(&file).is_empty());
    }
}
