//! The language's size limits, and the pass that checks them.
//!
//! Every id of the compiled model lives in a fixed-width integer ([`crate::compile`]'s
//! `TileId(u16)`, a mark bit in a `u32`, ...), and a few tables grow with the product of
//! two counts. A count past its limit would wrap into another id or into a sentinel (tile
//! 65,535 is the engine's "off the board"), giving wrong answers instead of errors, so each
//! one is checked here and reported with the limit it breaks. Compiling relies on this pass.

use crate::diagnostics::Problem;
use crate::syntax::ast::{File, ItemKind, MoveStmtKind, Name};
use crate::syntax::Span;

use super::symbols::Symbols;

/// Tile kinds: ids are `u16`, and `u16::MAX` is reserved for cells beyond the board.
const MAX_TILES: usize = u16::MAX as usize;
/// Marks: each is one bit of a cell's `u32` mark set.
const MAX_MARKS: usize = 32;
/// Piece kinds: ids are `u16`, `u16::MAX` reserved.
const MAX_PIECES: usize = u16::MAX as usize;
/// Poses of one piece: ids are `u16`, `u16::MAX` reserved.
const MAX_POSES: usize = u16::MAX as usize;
/// Directions: ids are `u16`, `u16::MAX` reserved.
const MAX_DIRS: usize = u16::MAX as usize;
/// Moves: ids are `u16`, `u16::MAX` reserved.
const MAX_MOVES: usize = u16::MAX as usize;
/// Legend symbols: a level cell stores its symbol's index as a `u16`, `u16::MAX` meaning
/// "not in the legend".
const MAX_SYMBOLS: usize = u16::MAX as usize;
/// Cost components: costs are compared as vectors of at most this many numbers.
pub const MAX_COST_COMPONENTS: usize = 4;
/// Actions (moves × directions): every state tries each one, and each has a letter.
const MAX_ACTIONS: usize = 1 << 20;
/// Turn table entries in the whole file: each `turn` stores an entry for every pose and
/// direction of its piece, so a few bytes of `turn p { }` can ask for millions of entries.
const MAX_TURN_ENTRIES: usize = 1 << 22;

/// `too many {what}`, pointing at the first item past the limit.
fn too_many(what: &'static str, count: usize, limit: usize, span: Span, why: &str) -> Problem {
    Problem::TooMany {
        what,
        count,
        limit,
        span: span.into(),
        help: why.to_string(),
    }
}

/// Checks a list of declared names against `limit`.
fn list<'a>(
    what: &'static str,
    names: impl Iterator<Item = &'a Name>,
    limit: usize,
    why: &str,
) -> Option<Problem> {
    let mut count = 0;
    let mut first_over = None;
    for n in names {
        if count == limit {
            first_over = Some(n.span);
        }
        count += 1;
    }
    first_over.map(|span| too_many(what, count, limit, span, why))
}

/// Every count of the file against its limit.
pub(crate) fn check(file: &File, syms: &Symbols) -> Vec<Problem> {
    let items = || file.items.iter().map(|i| &i.kind);
    let mut out = vec![];
    out.extend(list(
        "tile kinds",
        items()
            .filter_map(|k| match k {
                ItemKind::Tiles(t) => Some(t),
                _ => None,
            })
            .flatten()
            .map(|t| &t.name),
        MAX_TILES,
        "tile ids are 16-bit and the largest one stands for cells beyond the board; merge tile kinds that behave alike",
    ));
    out.extend(list(
        "marks",
        items()
            .filter_map(|k| match k {
                ItemKind::Marks(m) => Some(m),
                _ => None,
            })
            .flatten()
            .map(|m| &m.name),
        MAX_MARKS,
        "a cell's marks are the bits of a 32-bit set; merge some of them, or model them as tiles",
    ));
    out.extend(list(
        "piece kinds",
        items().filter_map(|k| match k {
            ItemKind::Piece(p) => Some(&p.name),
            _ => None,
        }),
        MAX_PIECES,
        "piece ids are 16-bit; make identical pieces one `anonymous` piece",
    ));
    for k in items() {
        if let ItemKind::Piece(p) = k {
            out.extend(list(
                "poses of one piece",
                p.poses.iter().flatten().map(|pose| &pose.name),
                MAX_POSES,
                "pose ids are 16-bit",
            ));
        }
    }
    out.extend(list(
        "directions",
        items()
            .filter_map(|k| match k {
                ItemKind::Dirs(d) => Some(d),
                _ => None,
            })
            .flatten()
            .map(|d| &d.name),
        MAX_DIRS,
        "direction ids are 16-bit",
    ));
    out.extend(list(
        "moves",
        items().filter_map(|k| match k {
            ItemKind::Move(m) => Some(&m.name),
            _ => None,
        }),
        MAX_MOVES,
        "move ids are 16-bit",
    ));
    out.extend(list(
        "cost components",
        items()
            .filter_map(|k| match k {
                ItemKind::Cost(c) => Some(c),
                _ => None,
            })
            .flatten(),
        MAX_COST_COMPONENTS,
        "costs are compared as vectors of at most 4 numbers; fold the least significant components into one",
    ));
    out.extend(legend(file));
    out.extend(actions(file, syms));
    out
}

/// Legend entries: their spans are keys, not names, so they are counted here.
fn legend(file: &File) -> Option<Problem> {
    let mut count = 0;
    let mut first_over = None;
    for item in &file.items {
        if let ItemKind::Legend(entries) = &item.kind {
            for e in entries {
                if count == MAX_SYMBOLS {
                    first_over = Some(e.key_span);
                }
                count += 1;
            }
        }
    }
    first_over.map(|span| {
        too_many(
            "legend symbols",
            count,
            MAX_SYMBOLS,
            span,
            "a level cell stores its symbol's index in 16 bits; drop symbols no level uses",
        )
    })
}

/// Tables that grow with a product: actions (moves × directions) and turn tables.
fn actions(file: &File, syms: &Symbols) -> Vec<Problem> {
    let dirs = syms.dirs.len();
    let mut out = vec![];
    let mut moves = 0usize;
    let mut reported = false;
    let mut entries = 0usize;
    let mut turns_reported = false;
    for item in &file.items {
        let ItemKind::Move(m) = &item.kind else {
            continue;
        };
        moves += 1;
        if !reported && moves.saturating_mul(dirs) > MAX_ACTIONS {
            reported = true;
            let total = file
                .items
                .iter()
                .filter(|i| matches!(i.kind, ItemKind::Move(_)))
                .count();
            out.push(too_many(
                "actions (moves × directions)",
                total.saturating_mul(dirs),
                MAX_ACTIONS,
                m.name.span,
                "every state tries every move in every direction; use fewer directions or moves",
            ));
        }
        for st in &m.body {
            let MoveStmtKind::Turn { piece, .. } = &st.kind else {
                continue;
            };
            let poses = syms.poses(&piece.text).map_or(0, |p| p.len());
            entries = entries.saturating_add(poses.saturating_mul(dirs));
            if entries > MAX_TURN_ENTRIES && !turns_reported {
                turns_reported = true;
                out.push(too_many(
                    "turn table entries (poses × directions, over all `turn` statements)",
                    entries,
                    MAX_TURN_ENTRIES,
                    piece.span,
                    "every `turn` stores an entry for each pose and direction of its piece; use fewer poses, directions or turns",
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::symbols::declare;
    use crate::syntax::parse;

    fn problems(src: &str) -> Vec<Problem> {
        let file = parse(src).expect("parses");
        let (syms, _) = declare(&file);
        check(&file, &syms)
    }

    #[test]
    fn the_limit_itself_is_allowed_and_one_more_is_not() {
        let names = |n: usize| (0..n).map(|i| format!("t{i} ")).collect::<String>();
        assert!(problems(&format!("tiles {{ {} }}", names(MAX_TILES))).is_empty());
        let p = problems(&format!("tiles {{ {} }}", names(MAX_TILES + 1)));
        assert_eq!(p.len(), 1);
        assert_eq!(
            p[0].to_string(),
            "too many tile kinds: 65,536, at most 65,535 are supported"
        );
    }

    #[test]
    fn turn_tables_are_bounded_over_the_whole_file() {
        let poses: String = (0..1024)
            .map(|i| format!("pose p{i} {{ (0, {}) (0, 0) }} ", i % 60 + 1))
            .collect();
        let dirs: String = (0..1024).map(|i| format!("d{i} (1, 0) ")).collect();
        let one = format!("piece b {{ {poses} }} dirs {{ {dirs} }} move m(d) {{ turn b {{ }} }}");
        assert!(problems(&one).is_empty(), "1,048,576 entries fit");
        let five = one.replace(
            "turn b { }",
            "turn b { } turn b { } turn b { } turn b { } turn b { }",
        );
        let p = problems(&five);
        assert_eq!(p.len(), 1);
        assert!(p[0].to_string().contains("turn table entries"));
    }

    #[test]
    fn five_cost_components_are_too_many() {
        let p = problems("cost a, b, c, d, e");
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].code_str(), "puz::check::too_many");
    }

    #[test]
    fn legend_symbols_are_counted_across_entries() {
        let keys: String = (0..=MAX_SYMBOLS).map(|i| format!("{i} floor ")).collect();
        let p = problems(&format!("legend {{ {keys} }}"));
        assert_eq!(p.len(), 1);
        assert!(p[0].to_string().contains("legend symbols"));
    }
}
