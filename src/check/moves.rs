//! Moves: every statement names things of the right kind, the one-per-move statements
//! appear once, every move changes something and costs something, and every cost
//! component is added by some move.

use std::collections::HashMap;

use super::names::Lookup;
use super::symbols::{Symbols, Thing};
use crate::diagnostics::Problem;
use crate::syntax::ast::{
    CellExpr, File, ItemKind, MoveDecl, MoveStmtKind, Name, SlideAction, SlideEvent, SlideRule,
};
use crate::syntax::Span;

/// Every move, then the cost components no move adds to.
pub fn check(file: &File, syms: &Symbols) -> Vec<Problem> {
    let look = Lookup::new(syms);
    let mut out = vec![];
    let mut used = vec![false; syms.costs.len()];
    let mut unknown_cost = false;
    for item in &file.items {
        let ItemKind::Move(m) = &item.kind else {
            continue;
        };
        out.extend(one_move(m, &look));
        for st in &m.body {
            if let MoveStmtKind::Adds(costs) = &st.kind {
                for c in costs {
                    match syms.costs.get(&c.text) {
                        Some(i) => used[i] = true,
                        None => unknown_cost = true,
                    }
                }
            }
        }
    }
    // With a misspelt `adds`, "never added" would only repeat that problem.
    if !unknown_cost {
        for (i, _) in used.iter().enumerate().filter(|(_, u)| !**u) {
            let (name, span) = syms.costs.entry(i);
            out.push(Problem::UnusedCost {
                name: name.to_string(),
                span: span.into(),
            });
        }
    }
    out
}

/// `piece`, `piece + d` or `piece - d`.
fn cell(c: &CellExpr, look: &Lookup, param: &str) -> Vec<Problem> {
    let mut out: Vec<Problem> = look.piece(&c.piece).into_iter().collect();
    if let Some((_, d)) = &c.step {
        out.extend(look.dir(d, Some(param)));
    }
    out
}

/// A cost component named in `adds`.
fn cost(c: &Name, look: &Lookup) -> Option<Problem> {
    if look.syms.costs.get(&c.text).is_some() {
        return None;
    }
    let help = look
        .suggest(&c.text, look.syms.costs.names())
        .unwrap_or_else(|| format!("declare it in `cost`, e.g. `cost {}`", c.text));
    Some(Problem::UnknownName {
        kind: "cost component",
        name: c.text.clone(),
        span: c.span.into(),
        help: Some(help),
    })
}

fn one_move(m: &MoveDecl, look: &Lookup) -> Vec<Problem> {
    let syms = look.syms;
    let mut out = vec![];
    let param = m.param.text.as_str();
    if let Some(first) = syms.dirs.span(param) {
        out.push(Problem::Duplicate {
            kind: "direction name (move parameter)",
            name: param.to_string(),
            span: m.param.span.into(),
            first: first.into(),
        });
    }
    let mut letters_at: Option<Span> = None;
    let mut adds_at: Option<Span> = None;
    let mut effects = 0;
    let mut adds_any = false;
    let once = |keyword, at: &mut Option<Span>, span: Span| {
        let repeat = at.map(|first| Problem::DuplicateStatement {
            keyword,
            mv: m.name.text.clone(),
            span: span.into(),
            first: first.into(),
        });
        at.get_or_insert(span);
        repeat
    };
    for st in &m.body {
        match &st.kind {
            MoveStmtKind::Letters(s) => {
                out.extend(once("letters", &mut letters_at, st.span));
                let given = s.value.chars().count();
                let expected = syms.dirs.len();
                if expected > 0 && given != expected {
                    let order: Vec<&str> = syms.dirs.names().take(64).collect();
                    out.push(Problem::LettersCount {
                        given,
                        expected,
                        span: s.span.into(),
                        help: format!(
                            "give one letter per direction, in the order {}",
                            order.join(" ")
                        ),
                    });
                }
            }
            MoveStmtKind::Adds(costs) => {
                out.extend(once("adds", &mut adds_at, st.span));
                adds_any |= !costs.is_empty();
                let mut seen: HashMap<&str, Span> = HashMap::new();
                for c in costs {
                    match seen.get(c.text.as_str()) {
                        Some(first) => out.push(Problem::Duplicate {
                            kind: "cost component in `adds`",
                            name: c.text.clone(),
                            span: c.span.into(),
                            first: (*first).into(),
                        }),
                        None => {
                            seen.insert(&c.text, c.span);
                            out.extend(cost(c, look));
                        }
                    }
                }
            }
            MoveStmtKind::Require(c) | MoveStmtKind::Forbid(c) => {
                out.extend(look.expect(
                    "piece, tile or mark",
                    &c.what,
                    &[Thing::Piece, Thing::Tile, Thing::Mark],
                ));
                out.extend(cell(&c.cell, look, param));
            }
            MoveStmtKind::Shift { piece, dir, .. } | MoveStmtKind::Swap { piece, dir } => {
                effects += 1;
                out.extend(look.piece(piece));
                out.extend(look.dir(dir, Some(param)));
            }
            MoveStmtKind::Turn { piece, rules } => {
                effects += 1;
                let unknown = look.piece(piece);
                let known = unknown.is_none();
                out.extend(unknown);
                let mut seen: HashMap<(&str, &str), Span> = HashMap::new();
                for r in rules {
                    if known {
                        out.extend(look.pose(&piece.text, &r.from));
                        out.extend(look.pose(&piece.text, &r.to));
                    }
                    out.extend(look.dir(&r.dir, None));
                    match seen.get(&(r.from.text.as_str(), r.dir.text.as_str())) {
                        Some(first) => out.push(Problem::DuplicateTurnRule {
                            pose: r.from.text.clone(),
                            dir: r.dir.text.clone(),
                            span: r.span.into(),
                            first: (*first).into(),
                        }),
                        None => {
                            seen.insert((&r.from.text, &r.dir.text), r.span);
                        }
                    }
                }
            }
            MoveStmtKind::Slide { piece, dir, rules } => {
                effects += 1;
                out.extend(look.piece(piece));
                out.extend(look.dir(dir, Some(param)));
                out.extend(slide(piece, rules, st.span, look));
            }
        }
    }
    if !adds_any && !syms.costs.is_empty() {
        out.push(Problem::FreeMove {
            mv: m.name.text.clone(),
            first: syms.costs.entry(0).0.to_string(),
            span: m.name.span.into(),
        });
    }
    if effects == 0 {
        out.push(Problem::MoveWithoutEffect {
            mv: m.name.text.clone(),
            span: m.name.span.into(),
        });
    }
    out
}

/// What `break` cannot break at this event, as (what, help); `None` when it can (or when
/// the name is unknown, which is reported elsewhere).
fn unbreakable(event: &SlideEvent, syms: &Symbols) -> Option<(String, String)> {
    match event {
        SlideEvent::Before(n) => match syms.thing(&n.text)? {
            (Thing::Tile, _) if syms.tile_is_mutable(&n.text) => None,
            (Thing::Tile, _) => Some((
                format!("`{}` never turns into anything", n.text),
                format!(
                    "declare the tile as mutable in `tiles`, e.g. `{} -> floor`",
                    n.text
                ),
            )),
            _ => Some((
                format!("`{}` is a piece, not a tile", n.text),
                "a slide can only break tiles; drop `break`".to_string(),
            )),
        },
        SlideEvent::Into(_) => Some((
            "an `into` event has no tile ahead".to_string(),
            "to break the tile ahead, use `before TILE: stop, break`".to_string(),
        )),
        SlideEvent::OffBoard(_) => Some((
            "there is no tile beyond the board".to_string(),
            "drop `break` from the `off board` event".to_string(),
        )),
    }
}

/// A slide's events and actions; some event must stop it.
fn slide(piece: &Name, rules: &[SlideRule], span: Span, look: &Lookup) -> Vec<Problem> {
    let mut out = vec![];
    let mut stops = false;
    for r in rules {
        match &r.event {
            SlideEvent::Into(n) => {
                out.extend(look.expect("tile or mark", n, &[Thing::Tile, Thing::Mark]))
            }
            SlideEvent::Before(n) => {
                out.extend(look.expect("tile or piece", n, &[Thing::Tile, Thing::Piece]))
            }
            SlideEvent::OffBoard(_) => {}
        }
        for (a, s) in &r.actions {
            match a {
                SlideAction::Stop | SlideAction::Lose => stops = true,
                SlideAction::Break => {
                    if let Some((what, help)) = unbreakable(&r.event, look.syms) {
                        out.push(Problem::BreakImmutable {
                            what,
                            span: (*s).into(),
                            help,
                        });
                    }
                }
            }
        }
    }
    if !stops {
        out.push(Problem::SlideNeverStops {
            piece: piece.text.clone(),
            span: span.into(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::symbols::declare;
    use crate::syntax::parse;

    const DECLS: &str = "tiles { floor ice -> floor } piece man dirs { n (-1, 0) s (1, 0) } ";

    fn codes(moves: &str) -> Vec<String> {
        let file = parse(&format!("{DECLS}{moves}")).expect("parses");
        let (syms, _) = declare(&file);
        check(&file, &syms).iter().map(|p| p.code_str()).collect()
    }

    #[test]
    fn a_good_move_has_no_problems() {
        assert!(codes("move walk(d) { letters \"ns\" shift man d }").is_empty());
    }

    #[test]
    fn move_mistakes_each_have_a_code() {
        assert_eq!(
            codes("move m(d) { require man at man + d }"),
            ["puz::check::move_without_effect"]
        );
        assert_eq!(
            codes("move m(d) { letters \"n\" shift man d }"),
            ["puz::check::letters_count"]
        );
        assert_eq!(
            codes("move m(d) { shift man d letters \"ns\" letters \"ns\" }"),
            ["puz::check::duplicate_statement"]
        );
        assert_eq!(
            codes("move m(d) { slide man d { into ice: break } }"),
            [
                "puz::check::break_immutable",
                "puz::check::slide_never_stops"
            ]
        );
        assert_eq!(
            codes("cost c move m(d) { shift man d }"),
            ["puz::check::free_move", "puz::check::unused_cost"]
        );
    }

    #[test]
    fn a_misspelt_adds_is_not_also_an_unused_cost() {
        assert_eq!(
            codes("cost pushes move m(d) { adds pushs shift man d }"),
            ["puz::check::unknown_name"]
        );
    }
}
