//! The PuzzleScript parser: the pest grammar (`grammar/puzzlescript.pest`) reads a source
//! into its prelude, sections and lines; the lowering here interprets each line's tokens
//! into the spanned [`ast::Game`], with a diagnostic (and its span) for each syntax
//! mistake. Names are not resolved here (that is the compiler's work), except that a rule
//! word before the first `[` is told apart as a declared name or not, to word its message
//! as PuzzleScript does.
//!
//! | file | job |
//! |---|---|
//! | `mod.rs` | the entry point, comments, lines and sections |
//! | `items.rs` | the prelude, objects, legend, sounds, collision layers, win conditions |
//! | `rules.rs` | rules and loops |
//! | `levels.rs` | levels and messages |

mod items;
mod levels;
mod rules;
pub(crate) use items::COLOR_NAMES;

use pest::iterators::Pair;
use pest::Parser as _;

use super::ast::{Game, Name, Section};
use crate::diagnostics::PsProblem;
use crate::syntax::Span;

mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/puzzlescript.pest"]
    pub(super) struct PsParser;
}

use grammar::{PsParser, Rule as R};

/// Comments nested deeper than this are read as plain text inside the comment at this
/// depth (the grammar's nesting recurses; a hostile source must not exhaust the stack).
const COMMENT_DEPTH: usize = 64;
/// At most this many errors (and as many warnings) are kept.
const MAX_PROBLEMS: usize = 100;

/// Parses a PuzzleScript game source into its AST, with the syntax errors and warnings
/// found. Never panics; with errors, the AST holds what could be read.
pub fn parse(text: &str) -> (Game, Vec<PsProblem>, Vec<PsProblem>) {
    // Every line of the grammar ends with a `\n`: one more is appended (past every span).
    let mut src = flatten_deep_comments(text).unwrap_or_else(|| text.to_string());
    src.push('\n');
    let src = src.as_str();
    let mut lower = Lower {
        _src: std::marker::PhantomData,
        line_starts: std::iter::once(0)
            .chain(src.match_indices('\n').map(|(i, _)| i + 1))
            .collect(),
        game: Game::default(),
        errors: vec![],
        warnings: vec![],
        unclosed_seen: false,
    };
    match PsParser::parse(R::file, src) {
        Ok(mut pairs) => {
            if let Some(file) = pairs.next() {
                lower.file(file);
            }
        }
        Err(e) => {
            // The grammar reads any text; this is a safety net.
            let at = match e.location {
                pest::error::InputLocation::Pos(p) => p,
                pest::error::InputLocation::Span((s, _)) => s,
            };
            lower.error(PsProblem::Syntax {
                span: Span::new(at, at).into(),
                what: "this source could not be read as PuzzleScript".into(),
                label: "here".into(),
                help: None,
            });
        }
    }
    (lower.game, lower.errors, lower.warnings)
}

/// A copy of `text` whose parentheses nested deeper than [`COMMENT_DEPTH`] are spaces
/// (byte for byte, so offsets are kept), or `None` when none are.
fn flatten_deep_comments(text: &str) -> Option<String> {
    let mut depth = 0usize;
    let mut bytes: Option<Vec<u8>> = None;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'(' => {
                depth += 1;
                if depth > COMMENT_DEPTH {
                    bytes.get_or_insert_with(|| text.as_bytes().to_vec())[i] = b' ';
                }
            }
            b')' if depth > 0 => {
                if depth > COMMENT_DEPTH {
                    bytes.get_or_insert_with(|| text.as_bytes().to_vec())[i] = b' ';
                }
                depth -= 1;
            }
            _ => {}
        }
    }
    // Only ASCII bytes were replaced by ASCII bytes: still UTF-8.
    bytes.map(|b| String::from_utf8(b).unwrap_or_default())
}

/// One piece of a logical line: a token, or a comment.
pub(super) enum Item<'i> {
    /// A token of the section's grammar.
    Tok(Pair<'i, R>),
    /// A comment (its span).
    Comment(Span),
}

/// The lowering's state: the source, the game built so far, the problems found.
pub(super) struct Lower<'s> {
    _src: std::marker::PhantomData<&'s str>,
    line_starts: Vec<usize>,
    pub(super) game: Game,
    errors: Vec<PsProblem>,
    warnings: Vec<PsProblem>,
    unclosed_seen: bool,
}

/// A pair's span.
pub(super) fn span_of(p: &Pair<'_, R>) -> Span {
    let s = p.as_span();
    Span::new(s.start(), s.end())
}

/// A pair's text as a lowercased name.
pub(super) fn name_of(p: &Pair<'_, R>) -> Name {
    Name {
        text: p.as_str().to_lowercase(),
        span: span_of(p),
    }
}

/// The offsets of a span.
pub(super) fn range(s: Span) -> (usize, usize) {
    (s.start as usize, s.end as usize)
}

impl<'s> Lower<'s> {
    pub(super) fn error(&mut self, p: PsProblem) {
        if self.errors.len() < MAX_PROBLEMS {
            self.errors.push(p);
        }
    }

    pub(super) fn warning(&mut self, p: PsProblem) {
        if self.warnings.len() < MAX_PROBLEMS {
            self.warnings.push(p);
        }
    }

    /// The 1-based line of a byte offset.
    pub(super) fn line_of(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= offset)
    }

    fn file(&mut self, file: Pair<'s, R>) {
        for pair in file.into_inner() {
            match pair.as_rule() {
                R::prelude => self.prelude(pair),
                R::objects_section
                | R::legend_section
                | R::sounds_section
                | R::layers_section
                | R::rules_section
                | R::wins_section
                | R::levels_section => self.section(pair),
                _ => {}
            }
        }
    }

    fn section(&mut self, pair: Pair<'s, R>) {
        let kind = pair.as_rule();
        let mut inner = pair.into_inner();
        let Some(header) = inner.next() else { return };
        self.header(header);
        let body: Vec<Pair<'s, R>> = inner.collect();
        match kind {
            R::objects_section => self.objects(body),
            R::legend_section => self.legend(body),
            R::sounds_section => self.sounds(body),
            R::layers_section => self.layers(body),
            R::rules_section => self.rules(body),
            R::wins_section => self.wins(body),
            _ => self.levels(body),
        }
    }

    /// A section header: recorded, checked for repetition and order, and for text after it.
    fn header(&mut self, header: Pair<'s, R>) {
        let mut word_span = span_of(&header);
        let mut junk = None;
        let mut section = None;
        for (n, seg) in self.segments(header).into_iter().enumerate() {
            for item in seg {
                let Item::Tok(t) = item else { continue };
                match t.as_rule() {
                    R::header_word => {
                        word_span = span_of(&t);
                        section = Some(match t.as_str().to_ascii_lowercase().as_str() {
                            "objects" => Section::Objects,
                            "legend" => Section::Legend,
                            "sounds" => Section::Sounds,
                            "collisionlayers" => Section::CollisionLayers,
                            "rules" => Section::Rules,
                            "winconditions" => Section::WinConditions,
                            _ => Section::Levels,
                        });
                    }
                    // After a comment that ran over a line break, a line of `=` is a
                    // line of its own.
                    _ if n > 0 && t.as_str().bytes().all(|b| b == b'=') => {}
                    _ => {
                        junk.get_or_insert(span_of(&t));
                    }
                }
            }
        }
        let Some(section) = section else { return };
        let upper = section_word(section);
        if self.game.sections.iter().any(|(s, _)| *s == section) {
            self.error(PsProblem::SectionRepeated {
                span: word_span.into(),
                what: format!("cannot duplicate sections (you tried to duplicate \"{upper}\")."),
            });
        } else {
            let order = SECTION_ORDER;
            let index = order.iter().position(|s| *s == section).unwrap_or(0);
            if index == 0 {
                if !self.game.sections.is_empty() {
                    self.error(PsProblem::SectionOrder {
                        span: word_span.into(),
                        what: format!("section \"{upper}\" must be the first section"),
                    });
                }
            } else if !self
                .game
                .sections
                .iter()
                .any(|(s, _)| *s == order[index - 1])
            {
                let prev = section_word(order[index - 1]);
                self.error(PsProblem::SectionOrder {
                    span: word_span.into(),
                    what: format!(
                        "section \"{upper}\" is out of order, must follow  \"{prev}\" (or it could be that the section \"{prev}\"is just missing totally.  You have to include all section headings, even if the section itself is empty)."
                    ),
                });
            }
        }
        self.game.sections.push((section, word_span));
        if let Some(j) = junk {
            self.error(PsProblem::AfterHeader {
                span: j.into(),
                what: format!(
                    "Only comments should go after a section name (\"{upper}\") on a line."
                ),
            });
        }
    }

    /// A line of `=`: anything but comments after it is a mistake.
    pub(super) fn equals_line(&mut self, pair: Pair<'s, R>) {
        for seg in self.segments(pair) {
            for item in seg {
                if let Item::Tok(t) = item {
                    if t.as_rule() != R::equals {
                        self.error(PsProblem::AfterHeader {
                            span: span_of(&t).into(),
                            what: "Only comments should go after a bunch of equals signs ('===') on a line.".into(),
                        });
                        return;
                    }
                }
            }
        }
    }

    /// A line's tokens and comments, split into logical lines: text after a comment that
    /// ran over a line break starts a line of its own, as in PuzzleScript. Unclosed
    /// comments and stray `)` are reported here.
    pub(super) fn segments(&mut self, line: Pair<'s, R>) -> Vec<Vec<Item<'s>>> {
        let mut segs: Vec<Vec<Item<'s>>> = vec![vec![]];
        for p in line.into_inner() {
            match p.as_rule() {
                R::comment => {
                    let s = span_of(&p);
                    let multiline = p.as_str().contains('\n');
                    if !self.unclosed_seen
                        && p.clone().into_inner().any(|c| c.as_rule() == R::unclosed)
                    {
                        self.unclosed_seen = true;
                        let (a, _) = range(s);
                        self.warning(PsProblem::UnclosedComment {
                            span: Span::new(a, a + 1).into(),
                            what: "This comment is never closed: everything after it is ignored."
                                .into(),
                        });
                    }
                    if let Some(last) = segs.last_mut() {
                        last.push(Item::Comment(s));
                    }
                    if multiline
                        && segs
                            .last()
                            .is_some_and(|l| l.iter().any(|i| matches!(i, Item::Tok(_))))
                    {
                        segs.push(vec![]);
                    }
                }
                R::stray_close => {
                    self.warning(PsProblem::StrayClose {
                        span: span_of(&p).into(),
                        what: "You're trying to close a comment here, but I can't find any opening bracket to match it? [This is highly suspicious; you probably want to fix it.]".into(),
                    });
                }
                _ => {
                    if let Some(last) = segs.last_mut() {
                        last.push(Item::Tok(p));
                    }
                }
            }
        }
        segs
    }
}

/// The sections in the order PuzzleScript requires.
const SECTION_ORDER: [Section; 7] = [
    Section::Objects,
    Section::Legend,
    Section::Sounds,
    Section::CollisionLayers,
    Section::Rules,
    Section::WinConditions,
    Section::Levels,
];

/// A section's header word, in capitals.
fn section_word(s: Section) -> &'static str {
    match s {
        Section::Objects => "OBJECTS",
        Section::Legend => "LEGEND",
        Section::Sounds => "SOUNDS",
        Section::CollisionLayers => "COLLISIONLAYERS",
        Section::Rules => "RULES",
        Section::WinConditions => "WINCONDITIONS",
        Section::Levels => "LEVELS",
    }
}
