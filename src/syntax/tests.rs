//! Unit tests of parsing alone: text in, AST or syntax problems out. Spans compare equal
//! regardless of position, so the expected trees are written without them.

use super::ast::*;
use super::{parse, Span};

fn name(text: &str) -> Name {
    Name {
        text: text.to_string(),
        span: Span::default(),
    }
}

fn codes(src: &str) -> Vec<String> {
    parse(src)
        .expect_err("must fail")
        .iter()
        .map(|p| p.code_str())
        .collect()
}

fn only_item(src: &str) -> ItemKind {
    let mut file = parse(src).expect("parses");
    assert_eq!(file.items.len(), 1);
    file.items.remove(0).kind
}

#[test]
fn declarations_lower_to_their_nodes() {
    assert_eq!(
        only_item("tiles { floor block -> floor }"),
        ItemKind::Tiles(vec![
            TileDef {
                name: name("floor"),
                becomes: None
            },
            TileDef {
                name: name("block"),
                becomes: Some(name("floor"))
            },
        ])
    );
    assert_eq!(
        only_item("piece man"),
        ItemKind::Piece(PieceDecl {
            name: name("man"),
            anonymous: false,
            max: None,
            poses: None,
            attrs: vec![],
        })
    );
    assert_eq!(
        only_item("piece box anonymous { }"),
        ItemKind::Piece(PieceDecl {
            name: name("box"),
            anonymous: true,
            max: None,
            poses: Some(vec![]),
            attrs: vec![],
        })
    );
}

#[test]
fn spans_point_at_the_source() {
    let src = "outside   wall  // beyond";
    let file = parse(src).expect("parses");
    let item = &file.items[0];
    assert_eq!(
        &src[item.keyword.start as usize..item.keyword.end as usize],
        "outside"
    );
    assert_eq!(
        &src[item.span.start as usize..item.span.end as usize],
        "outside   wall"
    );
}

#[test]
fn legend_keys_and_escapes() {
    let ItemKind::Legend(entries) =
        only_item(r#"legend { '.' a  '\t' b  '\s' c  '\'' d  '\\' e  '\"' f  7 g }"#)
    else {
        panic!("not a legend");
    };
    let keys: Vec<KeyValue> = entries.into_iter().map(|e| e.key).collect();
    assert_eq!(
        keys,
        [
            KeyValue::Char('.'),
            KeyValue::Char('\t'),
            KeyValue::Char(' '),
            KeyValue::Char('\''),
            KeyValue::Char('\\'),
            KeyValue::Char('"'),
            KeyValue::Int(7)
        ]
    );
    assert_eq!(codes(r"legend { '\n' a }"), ["puz::syntax::bad_escape"]);
    assert_eq!(codes(r"legend { '\x' a }"), ["puz::syntax::bad_escape"]);
}

#[test]
fn a_legend_piece_may_choose_its_pose() {
    let ItemKind::Legend(entries) = only_item("legend { '>' floor + turtle.east + goal }") else {
        panic!("not a legend");
    };
    let e = &entries[0];
    assert_eq!(e.tile, name("floor"));
    assert_eq!(e.tile_pose, None);
    let extras: Vec<(&str, Option<&str>)> = e
        .extras
        .iter()
        .map(|r| {
            (
                r.piece.text.as_str(),
                r.pose.as_ref().map(|p| p.text.as_str()),
            )
        })
        .collect();
    assert_eq!(extras, [("turtle", Some("east")), ("goal", None)]);
    let ItemKind::Legend(entries) = only_item("legend { '.' floor.east }") else {
        panic!("not a legend");
    };
    assert_eq!(entries[0].tile_pose, Some(name("east")));
}

#[test]
fn string_escapes() {
    let ItemKind::Puzzle(s) = only_item(r#"puzzle "a\tb\n\"c\" \\ \'""#) else {
        panic!("not a title");
    };
    assert_eq!(s.value, "a\tb\n\"c\" \\ '");
    assert_eq!(codes(r#"puzzle "a\qb""#), ["puz::syntax::bad_escape"]);
}

#[test]
fn a_byte_order_mark_opens_a_file() {
    let file = parse("\u{FEFF}tiles { floor }").expect("parses");
    assert_eq!(file.items.len(), 1);
    assert_eq!(file.items[0].keyword.start, 3, "spans stay byte offsets");
    // Anywhere else it is not blank.
    assert_eq!(
        codes("tiles { floor }\u{FEFF}"),
        ["puz::syntax::unexpected"]
    );
}

#[test]
fn text_blocks_drop_the_closing_indentation() {
    let ItemKind::Level(l) = only_item("level \"a\" \"\"\"\n    #.\n     .#\n    \"\"\"") else {
        panic!("not a level");
    };
    assert_eq!(l.rows, ["#.", " .#"]);
    assert_eq!(l.row_starts, [18, 25]);
    assert_eq!(l.form, None);
    assert_eq!(
        codes("level \"a\" \"\"\"#\n\"\"\""),
        ["puz::syntax::text_block"]
    );
}

#[test]
fn syntax_errors_and_ranges() {
    assert_eq!(codes("tiles { floor"), ["puz::syntax::unclosed_brace"]);
    assert_eq!(codes("tiles floor }"), ["puz::syntax::unexpected"]);
    assert_eq!(codes("puzzle \"open"), ["puz::syntax::unterminated"]);
    assert_eq!(
        codes("limit 99999999999 dirs { n (0, 65) }"),
        ["puz::syntax::integer_range", "puz::syntax::integer_range"]
    );
}

#[test]
fn syntax_errors_at_non_ascii_blanks_label_whole_characters() {
    use miette::Diagnostic;
    for blank in ['\u{3000}', '\u{2028}', '\u{a0}', '\u{85}', '\u{2003}'] {
        for src in [
            format!("puzzle \"x\"\n{blank}tiles {{ a }}"),
            format!("tiles {{ a{blank}b }}"),
            format!("tiles {{ a }}\n{blank}"),
            format!("tiles{blank}"),
            format!("{blank}x{blank}"),
            format!("{blank}"),
        ] {
            let problems = parse(&src).expect_err("must fail");
            for p in &problems {
                assert!(p.code_str().starts_with("puz::syntax::"), "{src:?}");
                for l in p.labels().into_iter().flatten() {
                    let (a, b) = (l.offset(), l.offset() + l.len());
                    assert!(
                        b <= src.len() && src.is_char_boundary(a) && src.is_char_boundary(b),
                        "{src:?}: label {a}..{b}"
                    );
                }
            }
        }
    }
}

#[test]
fn unclosed_braces_on_hostile_shapes() {
    // A line of braces, deep blocks each indented further, comments full of braces and
    // multi-byte text: a diagnostic each, never a panic.
    assert_eq!(codes(&format!("tiles {}", "{".repeat(100_000))).len(), 1);
    let deep: String = (0..2000)
        .map(|i| format!("{}move m{i}(d) {{\n", " ".repeat(i)))
        .collect();
    assert_eq!(codes(&(deep + "goal x\n")), ["puz::syntax::unclosed_brace"]);
    let comments = "move m(d) {  // { é { ü\n  letters \"{\" // }}\n".repeat(500);
    assert_eq!(codes(&comments), ["puz::syntax::unclosed_brace"]);
    assert_eq!(
        codes("move m(d) {\n  if box at a + d {\n    shift a d\n  shift a d\n}\n"),
        ["puz::syntax::unclosed_brace"]
    );
}
