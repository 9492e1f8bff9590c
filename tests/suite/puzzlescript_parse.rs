//! The PuzzleScript parser (`puz::puzzlescript::parse`): every demo game of PuzzleScript's
//! own repository reads with no error and the counts a reader sees by hand; every game
//! source of its test data reads without a panic; spans point at what was written; the
//! syntax diagnostics fire once per mistake; hostile text gives diagnostics, not panics.
//!
//! The reference (`../shared/puzzlescript` from the crate root) may be absent: the tests
//! that need it then print a note and pass, unless `CI` is set.

use std::path::PathBuf;

use puz::diagnostics::PsProblem;
use puz::puzzlescript::ast::*;
use puz::puzzlescript::parse;

/// The reference folder, or `None` (with a note) when it is missing outside CI.
fn reference() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/puzzlescript");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{} is missing (required under CI)",
        dir.display()
    );
    eprintln!("note: {} is missing; test skipped", dir.display());
    None
}

/// The byte range of a span.
fn at(s: puz::syntax::Span) -> (usize, usize) {
    let ss = miette::SourceSpan::from(s);
    (ss.offset(), ss.offset() + ss.len())
}

/// The source text a span covers.
fn text(src: &str, s: puz::syntax::Span) -> &str {
    let (a, b) = at(s);
    &src[a..b]
}

fn codes(ps: &[PsProblem]) -> Vec<String> {
    use miette::Diagnostic;
    ps.iter()
        .map(|p| p.code().map(|c| c.to_string()).unwrap_or_default())
        .collect()
}

fn messages(ps: &[PsProblem]) -> Vec<String> {
    ps.iter().map(|p| p.to_string()).collect()
}

/// The string literals of a JavaScript test-data file (`"..."`, `'...'` or `` `...` ``)
/// with their bracket depth, in order: enough of JavaScript to read PuzzleScript's data.
fn js_strings(js: &str) -> Vec<(usize, bool, String)> {
    let mut out = vec![];
    let mut depth = 0usize;
    // Whether the next string is the first element of its array.
    let mut first = false;
    let mut chars = js.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '[' => {
                depth += 1;
                first = true;
            }
            ']' => {
                depth = depth.saturating_sub(1);
                first = false;
            }
            ',' => first = false,
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '"' | '\'' | '`' => {
                let quote = c;
                let mut s = String::new();
                while let Some(c) = chars.next() {
                    if c == quote {
                        break;
                    }
                    if c != '\\' {
                        s.push(c);
                        continue;
                    }
                    match chars.next() {
                        Some('n') => s.push('\n'),
                        Some('t') => s.push('\t'),
                        Some('r') => s.push('\r'),
                        Some('u') => {
                            let hex: String = (0..4).filter_map(|_| chars.next()).collect();
                            if let Some(ch) =
                                u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32)
                            {
                                s.push(ch);
                            }
                        }
                        Some('\n') => {}
                        Some(o) => s.push(o),
                        None => {}
                    }
                }
                out.push((depth, first, s));
                first = false;
            }
            _ => {}
        }
    }
    out
}

/// The cases of a test-data file: (name, game source).
fn js_cases(js: &str) -> Vec<(String, String)> {
    let mut cases = vec![];
    let mut name = String::new();
    for (depth, first, s) in js_strings(js) {
        if depth == 2 && first {
            name = s;
        } else if depth == 3 && first {
            cases.push((name.clone(), s));
        }
    }
    cases
}

fn rules(g: &Game) -> Vec<&Rule> {
    g.rules
        .iter()
        .filter_map(|r| match r {
            RuleLine::Rule(r) => Some(r),
            _ => None,
        })
        .collect()
}

fn grids(g: &Game) -> Vec<&Grid> {
    g.levels
        .iter()
        .filter_map(|l| match l {
            LevelEntry::Grid(g) => Some(g),
            _ => None,
        })
        .collect()
}

#[test]
fn every_demo_reads_without_errors() {
    let Some(dir) = reference() else { return };
    let mut paths: Vec<_> = std::fs::read_dir(dir.join("src/demo"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 90, "{} demos", paths.len());
    let mut failures = vec![];
    for p in &paths {
        let src = std::fs::read_to_string(p).unwrap();
        let (game, errors, warnings) = parse(&src);
        for (c, w) in codes(&warnings).into_iter().zip(messages(&warnings)) {
            eprintln!("{}: warning {c}: {w}", p.display());
        }
        if !errors.is_empty() {
            use miette::Diagnostic;
            let first = &errors[0];
            let l = first.labels().unwrap().next().unwrap();
            let line = src[..l.offset()].matches('\n').count() + 1;
            failures.push(format!(
                "{} line {line}: {:?}",
                p.display(),
                messages(&errors)
            ));
        }
        let name = p.display();
        assert!(!game.objects.is_empty(), "{name}: no objects");
        assert!(!game.layers.is_empty(), "{name}: no layers");
        assert!(!game.levels.is_empty(), "{name}: no levels");
        assert_eq!(
            game.sections.len(),
            7,
            "{name}: sections {:?}",
            game.sections
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn sokoban_basic_counts_and_spans() {
    let Some(dir) = reference() else { return };
    let src = std::fs::read_to_string(dir.join("src/demo/sokoban_basic.txt")).unwrap();
    let (game, errors, warnings) = parse(&src);
    assert!(
        errors.is_empty() && warnings.is_empty(),
        "{errors:?} {warnings:?}"
    );
    // Counted by hand: Background, Target, Wall, Player, Crate.
    let names: Vec<&str> = game.objects.iter().map(|o| o.name.text.as_str()).collect();
    assert_eq!(names, ["background", "target", "wall", "player", "crate"]);
    assert_eq!(game.prelude.len(), 3);
    assert_eq!(game.prelude[0].key.text, "title");
    assert_eq!(
        game.prelude[0].value.as_ref().unwrap().0,
        "Simple Block Pushing Game"
    );
    let wall = &game.objects[2];
    assert_eq!(text(&src, wall.name.span), "Wall");
    assert_eq!(
        wall.colors.iter().map(|c| c.0.as_str()).collect::<Vec<_>>(),
        ["brown", "darkbrown"]
    );
    assert_eq!(wall.sprite.len(), 5);
    assert_eq!(
        wall.sprite[0],
        [Some(0), Some(0), Some(0), Some(1), Some(0)]
    );
    assert_eq!(
        text(&src, wall.sprite_span.unwrap()),
        "00010\n11111\n01000\n11111\n00010"
    );
    let target = &game.objects[1];
    assert_eq!(target.sprite[1], [None, Some(0), Some(0), Some(0), None]);
    let rules = rules(&game);
    assert_eq!(rules.len(), 1);
    assert_eq!(
        text(&src, rules[0].span),
        "[ > Player | Crate ] -> [ > Player | > Crate ]"
    );
    assert_eq!(rules[0].lhs[0].cells.len(), 2);
    let Cell::Terms(terms, _) = &rules[0].lhs[0].cells[0] else {
        panic!()
    };
    assert_eq!(terms[0].dir.map(|d| d.0), Some(Dir::Forward));
    assert_eq!(terms[0].name.text, "player");
    assert_eq!(text(&src, terms[0].span), "> Player");
    assert_eq!(game.wins.len(), 1);
    assert_eq!(game.wins[0].quantifier.0, Quantifier::All);
    assert_eq!(game.wins[0].on.as_ref().unwrap().text, "crate");
    assert_eq!(text(&src, game.wins[0].span), "all Target on Crate");
    let grids = grids(&game);
    assert_eq!(game.levels.len(), 2);
    assert_eq!(grids.len(), 2);
    assert_eq!(grids[0].rows.len(), 7);
    assert_eq!(text(&src, grids[0].rows[0].1), "####..");
    assert_eq!(grids[0].rows[3].0, "#@p..#".chars().collect::<Vec<_>>());
    let line = src[..at(grids[0].rows[0].1).0].matches('\n').count() + 1;
    assert_eq!(grids[0].line, line);
    assert_eq!(game.legend.len(), 6);
    let at_sign = game.legend.iter().find(|l| l.name.text == "@").unwrap();
    assert_eq!(at_sign.kind, LegendKind::And);
    assert_eq!(text(&src, at_sign.span), "@ = Crate and Target");
}

#[test]
fn every_test_data_source_reads_without_panic() {
    let Some(dir) = reference() else { return };
    let res = dir.join("src/tests/resources");
    let sim = js_cases(&std::fs::read_to_string(res.join("testdata.js")).unwrap());
    assert!(sim.len() >= 450, "{} simulation cases", sim.len());
    // The simulation cases are games PuzzleScript runs: no syntax error is expected.
    let mut failures = vec![];
    for (name, src) in &sim {
        let (game, errors, _) = parse(src);
        if !errors.is_empty() {
            failures.push(format!("{name}: {:?}", messages(&errors)));
        }
        assert!(!game.objects.is_empty(), "{name}");
    }
    assert!(
        failures.is_empty(),
        "{} cases:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let err = js_cases(&std::fs::read_to_string(res.join("errormessage_testdata.js")).unwrap());
    assert!(err.len() >= 250, "{} error-message cases", err.len());
    for (_, src) in &err {
        let _ = parse(src);
    }
}

#[test]
fn prelude_objects_and_synonyms() {
    let src = "title My (a comment) Game\nauthor Someone\nnoaction\n\n=======\nOBJECTS\n=======\n\nPlayer P @\nRED #00ff00 #abc\n.0...\n.1.2.\n.....\n.....\n.....\nWall\nblue\n\nCrate\norange\n00000\n0...0\n0...0\n0...0\n00000\n";
    let (game, errors, warnings) = parse(src);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(codes(&warnings), ["puz::ps::prelude_extra"]);
    assert_eq!(game.prelude[0].value.as_ref().unwrap().0, "My");
    assert_eq!(game.prelude[2].key.text, "noaction");
    assert!(game.prelude[2].value.is_none());
    let p = &game.objects[0];
    assert_eq!(text(src, p.name.span), "Player");
    assert_eq!(
        p.synonyms
            .iter()
            .map(|s| s.text.as_str())
            .collect::<Vec<_>>(),
        ["p", "@"]
    );
    assert_eq!(
        p.colors.iter().map(|c| c.0.as_str()).collect::<Vec<_>>(),
        ["red", "#00ff00", "#abc"]
    );
    assert_eq!(p.sprite[1], [None, Some(1), None, Some(2), None]);
    assert_eq!(text(src, p.span).lines().next(), Some("Player P @"));
    let names: Vec<&str> = game.objects.iter().map(|o| o.name.text.as_str()).collect();
    assert_eq!(names, ["player", "wall", "crate"]);
    assert!(game.objects[1].sprite.is_empty());
    assert_eq!(game.objects[2].sprite.len(), 5);
}

#[test]
fn object_diagnostics() {
    let head = "OBJECTS\n";
    let bad_color = format!("{head}Player\nred blorp\n");
    let (_, errors, _) = parse(&bad_color);
    assert_eq!(
        messages(&errors),
        ["Was looking for color for object PLAYER, got \"blorp\" instead."]
    );
    assert_eq!(text(&bad_color, at_span(&errors[0])), "blorp");
    let index = format!("{head}Player\nred\n00000\n01110\n01110\n00000\n00000\n");
    let (_, errors, _) = parse(&index);
    assert_eq!(
        messages(&errors),
        ["Trying to access color number 1 from the color palette of sprite PLAYER, but there are only 1 defined in it."; 2]
    );
    let wide = format!("{head}Player\nred\n000000\n00000\n00000\n00000\n00000\n");
    let (game, errors, warnings) = parse(&wide);
    assert!(errors.is_empty());
    assert_eq!(messages(&warnings), ["Sprites must be 5 wide and 5 high."]);
    assert_eq!(game.objects[0].sprite[0].len(), 6);
}

/// The byte range of a problem's label, as a span.
fn at_span(p: &PsProblem) -> puz::syntax::Span {
    use miette::Diagnostic;
    let l = p.labels().unwrap().next().unwrap();
    span_at(l.offset(), l.offset() + l.len())
}

/// A span with these offsets (its constructor is crate-private): a level row's, whose
/// span is exactly its text.
fn span_at(a: usize, b: usize) -> puz::syntax::Span {
    let src = format!(
        "LEVELS\n{}{}\n",
        " ".repeat(a.saturating_sub(7)),
        "x".repeat(b - a)
    );
    let (game, _, _) = parse(&src);
    let LevelEntry::Grid(g) = &game.levels[0] else {
        panic!()
    };
    g.rows[0].1
}

#[test]
fn legend_and_layers() {
    let src = "OBJECTS\nA\nred\n\nB\nblue\n\nLEGEND\n. = A\nx = A and B\ny = A or B or c\nz = a and b or c\nw a\nv = a b\n= a\nCOLLISIONLAYERS\nA, B\nc d,e\n";
    let (game, errors, _) = parse(src);
    assert_eq!(
        codes(&errors),
        [
            "puz::ps::legend_mixed",
            "puz::ps::legend_format",
            "puz::ps::legend_format",
            "puz::ps::after_header",
            "puz::ps::section_order"
        ],
        "{errors:?}"
    );
    assert!(messages(&errors)[0].contains("mixing ANDs and ORs"));
    let kinds: Vec<LegendKind> = game.legend.iter().map(|l| l.kind).collect();
    assert_eq!(
        kinds,
        [
            LegendKind::Alias,
            LegendKind::And,
            LegendKind::Or,
            LegendKind::And
        ]
    );
    assert!(game.legend[3].mixed.is_some());
    assert_eq!(game.legend[2].items.len(), 3);
    assert_eq!(text(src, game.legend[2].span), "y = A or B or c");
    let layers: Vec<Vec<&str>> = game
        .layers
        .iter()
        .map(|l| l.names.iter().map(|n| n.text.as_str()).collect())
        .collect();
    assert_eq!(layers, [vec!["a", "b"], vec!["c", "d", "e"]]);
}

#[test]
fn rules_read_with_their_quirks() {
    let src = "OBJECTS\nPlayer\nred\n\nCrate\nblue\n\nLEGEND\nSOUNDS\nCOLLISIONLAYERS\nRULES\n\
        [>player|crate]->[>player|>crate]\n\
        +late [ player ]->[ ] again\n\
        startloop\n\
        right [ no crate | ... | player ] -> [ crate | ... | player ] sfx3 message Hello (World)!\n\
        endloop\n\
        [ player ] -> [ player ] (a comment) checkpoint\n\
        random rigid up [ moving player | ] -> [ stationary player | randomdir crate ]\n";
    let (game, errors, warnings) = parse(src);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(codes(&warnings), ["puz::ps::rule_after_comment"]);
    assert_eq!(game.rules.len(), 7);
    let rs = rules(&game);
    assert_eq!(rs[0].line, 12);
    assert_eq!(rs[0].lhs[0].cells.len(), 2);
    let Cell::Terms(t, _) = &rs[0].lhs[0].cells[0] else {
        panic!()
    };
    // `>player` is one word to PuzzleScript (it splits only at brackets, bars, arrows).
    assert_eq!(t[0].name.text, ">player");
    assert_eq!(
        rs[1].prefixes.iter().map(|p| p.0).collect::<Vec<_>>(),
        [Prefix::Plus, Prefix::Late]
    );
    assert_eq!(rs[1].rhs[0].cells.len(), 1);
    assert!(matches!(&rs[1].rhs[0].cells[0], Cell::Terms(t, _) if t.is_empty()));
    assert_eq!(rs[1].commands[0].0, Command::Again);
    assert!(matches!(game.rules[2], RuleLine::StartLoop(_)));
    let r = rs[2];
    assert!(matches!(r.lhs[0].cells[1], Cell::Ellipsis(_)));
    let Cell::Terms(t, _) = &r.lhs[0].cells[0] else {
        panic!()
    };
    assert!(t[0].no.is_some() && t[0].dir.is_none());
    assert_eq!(text(src, t[0].span), "no crate");
    assert_eq!(r.commands[0].0, Command::Sfx(3));
    assert_eq!(r.commands[1].0, Command::Message("Hello (World)!".into()));
    assert_eq!(text(src, r.arrow), "->");
    assert_eq!(rs[3].commands.len(), 0);
    assert_eq!(
        rs[4].prefixes.iter().map(|p| p.0).collect::<Vec<_>>(),
        [Prefix::Random, Prefix::Rigid, Prefix::Up]
    );
    let Cell::Terms(t, _) = &rs[4].rhs[0].cells[1] else {
        panic!()
    };
    assert_eq!(t[0].dir.map(|d| d.0), Some(Dir::RandomDir));
}

#[test]
fn rule_diagnostics_one_per_mistake() {
    let head = "OBJECTS\nPlayer\nred\n\nLEGEND\nSOUNDS\nCOLLISIONLAYERS\nRULES\n";
    for (rule, code, what) in [
        (
            "[ player ] [ player ]",
            "puz::ps::rule_arrow",
            "A rule has to have an arrow",
        ),
        (
            "player [ player ] -> [ ]",
            "puz::ps::rule_outside_brackets",
            "Objects cannot appear outside of square brackets",
        ),
        (
            "foo [ player ] -> [ ]",
            "puz::ps::rule_outside_brackets",
            "The start of a rule must consist",
        ),
        (
            "[ player ] ] -> [ ]",
            "puz::ps::rule_brackets_stray",
            "Multiple closing brackets",
        ),
        (
            "[ player ] -> [ player",
            "puz::ps::rule_brackets_stray",
            "never closed",
        ),
        (
            "[ > ] -> [ player ]",
            "puz::ps::rule_cell",
            "has to act on an object",
        ),
        (
            "[ > < player ] -> [ player ]",
            "puz::ps::rule_cell",
            "one direction/action",
        ),
        (
            "[ player ] (c) -> [ player ]",
            "puz::ps::rule_comment",
            "comments inside rules",
        ),
        (
            "[ player ] -> [ player ] -> [ player ]",
            "puz::ps::rule_arrow",
            "only use \"->\" once",
        ),
        (
            "again [ player ] -> [ player ]",
            "puz::ps::rule_outside_brackets",
            "Commands should only appear",
        ),
    ] {
        let src = format!("{head}{rule}\n");
        let (game, errors, warnings) = parse(&src);
        // PuzzleScript only warns about unbalanced `]` (the rule is still dropped).
        let errors = if code.ends_with("_stray") {
            assert!(errors.is_empty(), "{rule}: {errors:?}");
            warnings
        } else {
            errors
        };
        assert_eq!(codes(&errors), [code], "{rule}: {errors:?}");
        assert!(messages(&errors)[0].contains(what), "{rule}: {errors:?}");
        assert!(rules(&game).is_empty(), "{rule}");
    }
    let src = format!("{head}{}\n", "[".repeat(10_000));
    let (_, errors, warnings) = parse(&src);
    assert_eq!(codes(&errors), ["puz::ps::rule_arrow"], "{errors:?}");
    assert_eq!(codes(&warnings), ["puz::ps::rule_janky"], "{warnings:?}");
    // A `[` inside a cell that has begun: PuzzleScript warns and also counts an error
    // (the rule is still read, the begun cell dropped).
    let (game, errors, warnings) = parse(&format!("{head}[ player [ player ] -> [ player ]\n"));
    assert_eq!(codes(&errors), ["puz::ps::rule_brackets"], "{errors:?}");
    assert_eq!(codes(&warnings), ["puz::ps::rule_janky"], "{warnings:?}");
    assert_eq!(rules(&game).len(), 1);
    // Tolerated as PuzzleScript tolerates them, with a warning each.
    for rule in [
        "[ player -> ] -> [ player ]",
        "[ player ] [ -> [ player ] [ player ]",
        "[ player ] -> [ player ] up",
        "[ player ] -> [ player | again ]",
        "[ player ] -> [ player ] | ",
    ] {
        let (game, errors, warnings) = parse(&format!("{head}{rule}\n"));
        assert!(errors.is_empty(), "{rule}: {errors:?}");
        assert!(
            codes(&warnings).iter().all(|c| c == "puz::ps::rule_janky"),
            "{rule}"
        );
        assert!(
            !warnings.is_empty() && warnings.len() <= 3,
            "{rule}: {warnings:?}"
        );
        assert_eq!(
            rules(&game).len(),
            usize::from(!rule.contains("[ ->")),
            "{rule}"
        );
    }
}

#[test]
fn win_conditions() {
    let src = "WINCONDITIONS\nall a on b\nno a\nany a\nfoo a\nall a in b\nall a on b c\nsome\n";
    let (game, errors, _) = parse(src);
    assert_eq!(game.wins.len(), 3);
    assert_eq!(game.wins[2].quantifier.0, Quantifier::Some);
    assert_eq!(game.wins[0].line, 2);
    assert_eq!(
        codes(&errors),
        [
            "puz::ps::section_order",
            "puz::ps::win_format",
            "puz::ps::win_on",
            "puz::ps::win_format",
            "puz::ps::win_format"
        ]
    );
    assert!(messages(&errors)[1].starts_with("Expecting the start of a win condition"));
    assert_eq!(
        messages(&errors)[2],
        "Expecting the word \"ON\" but got \"IN\"."
    );
}

#[test]
fn levels_and_messages() {
    let src = "LEVELS\n\n=====\n#..#\n#P.#  (a comment)\n(a comment line does not end a level)\n#..#\n\nmessage Hello (there)\n##\n#\nmessageNo space\n\n";
    let (game, _, warnings) = parse(src);
    assert_eq!(
        codes(&warnings),
        ["puz::ps::map_rectangular", "puz::ps::message_space"]
    );
    assert_eq!(game.levels.len(), 4);
    let LevelEntry::Grid(g) = &game.levels[0] else {
        panic!()
    };
    assert_eq!(g.rows.len(), 3);
    assert_eq!(text(src, g.rows[1].1), "#P.#");
    assert_eq!(g.rows[1].0, ['#', 'p', '.', '#']);
    assert_eq!(g.line, 4);
    let LevelEntry::Message(m, s) = &game.levels[1] else {
        panic!()
    };
    assert_eq!(m, "Hello (there)");
    assert_eq!(text(src, *s), "message Hello (there)");
    let LevelEntry::Message(m, _) = &game.levels[3] else {
        panic!()
    };
    assert_eq!(m, "No space");
    assert_eq!(text(src, at_span(&warnings[0])), "#");
}

#[test]
fn sections_out_of_order_or_repeated() {
    let src = "OBJECTS\nLEGEND\nOBJECTS\nRULES\nLEGEND x\n=== y\n";
    let (game, errors, _) = parse(src);
    assert_eq!(game.sections.len(), 5);
    assert_eq!(
        codes(&errors),
        [
            "puz::ps::section_repeated",
            "puz::ps::section_order",
            "puz::ps::section_repeated",
            "puz::ps::after_header",
            "puz::ps::after_header"
        ],
        "{errors:?}"
    );
}

#[test]
fn comments_nest_and_span_lines() {
    let src = "title a (x (y) z\nstill comment) more\nOBJECTS\n(Wall\nred)\nPlayer\nred\n";
    let (game, errors, warnings) = parse(src);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(game.prelude.len(), 1);
    // `more` follows a comment that ran over a line: a line of its own, unknown here.
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(game.objects.len(), 1);
    assert_eq!(game.objects[0].name.text, "player");
}

#[test]
fn hostile_inputs_give_diagnostics_not_panics() {
    let many_open = "(".repeat(100_000);
    let nested = format!(
        "OBJECTS\n{}\n{}\nPlayer\nred\n",
        "(".repeat(5_000),
        ")".repeat(5_000)
    );
    let huge_line = format!("OBJECTS\n{}\n", "x".repeat(1_000_000));
    let inputs: Vec<String> = vec![
        String::new(),
        "(".into(),
        ")".into(),
        "OBJECTS\nPlayer\nred\n(never closed\nLEVELS\n".into(),
        "OBJECTS\nLEGEND\nSOUNDS\nCOLLISIONLAYERS\nRULES\n[ a ] -> [ a ] again [ b ]\n".into(),
        many_open,
        nested,
        huge_line,
        "OBJECTS\r\nPlayer\r\nred\r\n\r\nLEVELS\r\nmessage hi\r\n..\r\n".into(),
        "\u{feff}OBJECTS\n\tPlayer\t\u{3000}P\nréd ünïcödé\n".into(),
        "LEVELS\n".repeat(1000),
        "RULES\n".to_string() + &"[ | ] -> ... ] | [ message\n".repeat(200),
        "LEGEND\n= = = =\n a = \nOBJECTS\n0\n0\n0\n".into(),
        String::from_utf8_lossy(&(0u8..=255).collect::<Vec<u8>>()).into_owned(),
    ];
    for src in &inputs {
        let (_, errors, warnings) = parse(src);
        assert!(errors.len() <= 100 && warnings.len() <= 100);
    }
    let (_, _, warnings) = parse("(");
    assert_eq!(codes(&warnings), ["puz::ps::unclosed_comment"]);
    let (_, errors, _) = parse("OBJECTS\nPlayer\nred\n(never closed\nLEVELS\n");
    assert!(errors.is_empty());
    let all = "OBJECTS\r\nPlayer\r\nred\r\n\r\nLEGEND\r\nSOUNDS\r\nCOLLISIONLAYERS\r\nRULES\r\nWINCONDITIONS\r\n";
    let (game, errors, _) = parse(&format!("{all}LEVELS\r\nmessage hi\r\n..\r\n"));
    assert!(errors.is_empty(), "{errors:?}");
    assert!(matches!(&game.levels[0], LevelEntry::Message(m, _) if m == "hi"));
    assert!(matches!(&game.levels[1], LevelEntry::Grid(g) if g.rows[0].0 == ['.', '.']));
}

#[test]
fn prelude_diagnostics() {
    let (_, errors, warnings) = parse("title\nfoo bar\nnoaction yes\nauthor a\nauthor b\n)\n");
    assert_eq!(
        codes(&errors),
        ["puz::ps::prelude_value", "puz::ps::prelude_unknown"]
    );
    assert_eq!(
        codes(&warnings),
        [
            "puz::ps::prelude_extra",
            "puz::ps::prelude_extra",
            "puz::ps::stray_close"
        ]
    );
}
