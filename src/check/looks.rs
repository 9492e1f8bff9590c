//! `look` entries: each names a tile, piece or mark once, its colours are `#rgb` or
//! `#rrggbb`, and its sprite is a rectangle of colour numbers it gives (or `.`).

use std::collections::HashMap;

use super::names::Lookup;
use super::symbols::{Symbols, Thing};
use crate::diagnostics::Problem;
use crate::syntax::ast::{ColorText, File, ItemKind, LookDef};
use crate::syntax::Span;

/// The largest sprite, in rows and in columns.
pub(crate) const SPRITE_MAX: usize = 16;

/// Every `look` entry of the file.
pub fn check(file: &File, syms: &Symbols) -> Vec<Problem> {
    let lookup = Lookup::new(syms);
    let mut first: HashMap<&str, Span> = HashMap::new();
    let mut out = vec![];
    for item in &file.items {
        let ItemKind::Look(defs) = &item.kind else {
            continue;
        };
        for def in defs {
            out.extend(lookup.expect(
                "tile, piece or mark",
                &def.name,
                &[Thing::Tile, Thing::Piece, Thing::Mark],
            ));
            match first.get(def.name.text.as_str()) {
                Some(&at) => out.push(Problem::Duplicate {
                    kind: "look",
                    name: def.name.text.clone(),
                    span: def.name.span.into(),
                    first: at.into(),
                }),
                None => {
                    first.insert(&def.name.text, def.name.span);
                }
            }
            out.extend(def.colors.iter().filter_map(color_problem));
            out.extend(sprite_problems(def));
        }
    }
    out
}

/// `#rgb` or `#rrggbb` as (red, green, blue), `#abc` meaning `#aabbcc`.
pub(crate) fn parse_color(text: &str) -> Option<[u8; 3]> {
    let hex = text.strip_prefix('#')?;
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let digit = |i: usize| u8::from_str_radix(&hex[i..i + 1], 16).ok();
    match hex.len() {
        3 => Some([digit(0)? * 17, digit(1)? * 17, digit(2)? * 17]),
        6 => {
            let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
            Some([byte(0)?, byte(2)?, byte(4)?])
        }
        _ => None,
    }
}

fn color_problem(c: &ColorText) -> Option<Problem> {
    if parse_color(&c.text).is_some() {
        return None;
    }
    let hex = &c.text[1..];
    let why = if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        "not hex digits"
    } else {
        "3 or 6 digits, not this many"
    };
    Some(Problem::BadColor {
        text: c.text.clone(),
        span: c.span.into(),
        why,
    })
}

/// A sprite's problems: its size, ragged rows, cells that are no colour of the look.
fn sprite_problems(def: &LookDef) -> Vec<Problem> {
    let Some((rows, starts, span)) = &def.sprite else {
        return vec![];
    };
    let width = |r: &str| r.chars().count();
    let cols = rows.first().map_or(0, |r| width(r));
    let mut out = vec![];
    if rows.is_empty() || cols == 0 || rows.len() > SPRITE_MAX || cols > SPRITE_MAX {
        out.push(Problem::SpriteSize {
            rows: rows.len(),
            cols,
            why: if rows.is_empty() || cols == 0 {
                "empty"
            } else {
                "too large"
            },
            span: (*span).into(),
        });
        return out;
    }
    let row_span =
        |i: usize| -> miette::SourceSpan { (starts[i] as usize, rows[i].len().max(1)).into() };
    let colors = def
        .colors
        .first()
        .zip(def.colors.last())
        .map(|(a, b)| a.span.merge(b.span))
        .unwrap_or(def.name.span);
    for (i, row) in rows.iter().enumerate() {
        if width(row) != cols {
            out.push(Problem::SpriteRagged {
                row: i + 1,
                found: width(row),
                expected: cols,
                span: row_span(i),
                first: row_span(0),
            });
        }
        for (at, ch) in row.char_indices() {
            let cell: miette::SourceSpan = (starts[i] as usize + at, ch.len_utf8()).into();
            match ch {
                '.' => {}
                '0'..='9' => {
                    let index = ch as usize - '0' as usize;
                    if index >= def.colors.len() {
                        out.push(Problem::SpriteColorRange {
                            index,
                            name: def.name.text.clone(),
                            count: def.colors.len(),
                            span: cell,
                            colors: colors.into(),
                        });
                    }
                }
                _ => out.push(Problem::SpriteCell {
                    text: ch.to_string(),
                    span: cell,
                }),
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

    fn codes(src: &str) -> Vec<String> {
        let file = parse(src).expect("parses");
        let (syms, _) = declare(&file);
        check(&file, &syms).iter().map(|p| p.code_str()).collect()
    }

    #[test]
    fn colours_read_three_or_six_hex_digits() {
        assert_eq!(parse_color("#a52"), Some([0xaa, 0x55, 0x22]));
        assert_eq!(parse_color("#A0b1C2"), Some([0xa0, 0xb1, 0xc2]));
        for bad in ["#", "#12", "#1234", "#ggg", "a52", "#é12"] {
            assert_eq!(parse_color(bad), None, "{bad}");
        }
    }

    #[test]
    fn each_problem_of_a_look_is_reported() {
        let src = "tiles { floor } piece box counter k max 2 \
            look { floor #eee  box #a52 sprite \"\"\"\n.0.\n01\nx0.\n\"\"\"  box #12  nope #fff  k #000 }";
        assert_eq!(
            codes(src),
            [
                "puz::check::sprite_ragged",
                "puz::check::sprite_color_range",
                "puz::check::sprite_cell",
                "puz::check::duplicate_definition",
                "puz::check::bad_color",
                "puz::check::unknown_name",
                "puz::check::wrong_kind",
            ]
        );
    }
}
