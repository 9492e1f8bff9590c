//! The pest parser and the lowering of its parse tree into the AST: the entry point
//! ([`parse`]), the [`Lowerer`] that gathers problems as it goes, and its literals (names,
//! integers, strings, legend keys, offsets). The rest, one job per file:
//!
//! | file | job |
//! |---|---|
//! | `errors.rs` | pest's syntax errors as problems with readable expectations |
//! | `items.rs` | declarations: pieces, poses, legends and the other top-level items |
//! | `moves.rs` | move statements, with their steps, cells and conditions |
//! | `levels.rs` | levels, their text blocks and expectations, and judge statements |

mod errors;
mod items;
mod levels;
mod moves;

use pest::iterators::Pair;
use pest::Parser as _;

use super::ast::*;
use super::span::Span;
use crate::diagnostics::Problem;
use errors::syntax_problem;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/puz.pest"]
struct PuzParser;

/// Integers beyond this magnitude are rejected: no board or count needs them.
const INT_LIMIT: i64 = 1_000_000;
/// Offsets and direction steps stay small, so the padded board stays small.
const OFFSET_LIMIT: i64 = 64;
/// Expected costs stay exact as JSON numbers (2^53 - 1).
const EXPECT_LIMIT: i64 = (1 << 53) - 1;

/// Parses a whole `.puz` source. Syntax errors stop at the first one (pest's recovery is
/// not reliable); problems found while lowering (bad integers, text blocks) are all kept.
pub fn parse(src: &str) -> Result<File, Vec<Problem>> {
    let mut pairs = match PuzParser::parse(Rule::file, src) {
        Ok(p) => p,
        Err(e) => return Err(vec![syntax_problem(src, e)]),
    };
    let file = pairs
        .next()
        .expect("the file rule always produces one pair");
    let mut lowerer = Lowerer { problems: vec![] };
    let mut items = vec![];
    for pair in file.into_inner() {
        if pair.as_rule() == Rule::EOI {
            continue;
        }
        items.push(lowerer.item(pair));
    }
    if lowerer.problems.is_empty() {
        Ok(File { items })
    } else {
        Err(lowerer.problems)
    }
}

/// The span of a pair without the blanks pest skipped after its last token.
fn span_of(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    let trimmed = p.as_str().trim_end_matches([' ', '\t', '\r', '\n']);
    Span::new(s.start(), s.start() + trimmed.len())
}

struct Lowerer {
    problems: Vec<Problem>,
}

impl Lowerer {
    fn name(&self, p: Pair<Rule>) -> Name {
        Name {
            text: p.as_str().to_string(),
            span: span_of(&p),
        }
    }

    fn int(&mut self, p: Pair<Rule>) -> Int {
        self.int_within(
            p,
            INT_LIMIT,
            "integers must lie between -1000000 and 1000000",
        )
    }

    fn int_within(&mut self, p: Pair<Rule>, limit: i64, help: &str) -> Int {
        let span = span_of(&p);
        let value = match p.as_str().parse::<i64>() {
            Ok(v) if v.unsigned_abs() <= limit.unsigned_abs() => v,
            _ => {
                self.problems.push(Problem::IntegerRange {
                    span: span.into(),
                    text: p.as_str().to_string(),
                    help: help.to_string(),
                });
                0
            }
        };
        Int { value, span }
    }

    /// A string literal with its escapes resolved: `\n`, `\t`, `\"`, `\'` and `\\`.
    fn string(&mut self, p: Pair<Rule>) -> Str {
        let span = span_of(&p);
        let Some(inner) = p.into_inner().next() else {
            return Str {
                value: String::new(),
                span,
            };
        };
        let start = inner.as_span().start();
        let mut value = String::new();
        let mut chars = inner.as_str().char_indices();
        while let Some((_, c)) = chars.next() {
            if c != '\\' {
                value.push(c);
                continue;
            }
            match chars.next() {
                Some((_, 'n')) => value.push('\n'),
                Some((_, 't')) => value.push('\t'),
                Some((_, e @ ('"' | '\'' | '\\'))) => value.push(e),
                Some((i, other)) => self.problems.push(bad_escape(
                    start + i - 1,
                    other,
                    "strings know `\\n` (line break), `\\t` (tab), `\\\"`, `\\'` and `\\\\`",
                )),
                None => {}
            }
        }
        Str { value, span }
    }

    /// The character of a legend key: itself, or one of the escapes `\t` (tab), `\s`
    /// (space), `\'`, `\"` and `\\`. A line break can never be a level cell, so `\n` and
    /// `\r` are rejected like any unknown escape rather than read as a letter.
    fn key_char(&mut self, p: Pair<Rule>) -> char {
        let start = p.as_span().start();
        let raw = p.as_str();
        let Some(escaped) = raw.strip_prefix('\\') else {
            return raw.chars().next().unwrap_or(' ');
        };
        let e = escaped.chars().next().unwrap_or(' ');
        match e {
            't' => '\t',
            's' => ' ',
            '\'' | '"' | '\\' => e,
            'n' | 'r' => {
                self.problems.push(bad_escape(
                    start,
                    e,
                    "level rows are lines, so a line break is never a cell; pick a visible symbol",
                ));
                ' '
            }
            _ => {
                self.problems.push(bad_escape(
                    start,
                    e,
                    "legend symbols know `\\t` (tab), `\\s` (space), `\\'`, `\\\"` and `\\\\`",
                ));
                ' '
            }
        }
    }

    fn offset(&mut self, p: Pair<Rule>) -> Offset {
        let span = span_of(&p);
        let mut ints = p.into_inner().filter(|q| q.as_rule() == Rule::int);
        const HELP: &str = "offsets and steps must lie between -64 and 64";
        let dr = self
            .int_within(ints.next().expect("offset has a row"), OFFSET_LIMIT, HELP)
            .value;
        let dc = self
            .int_within(
                ints.next().expect("offset has a column"),
                OFFSET_LIMIT,
                HELP,
            )
            .value;
        Offset { dr, dc, span }
    }
}

/// `unknown escape` at the backslash at byte `at`.
fn bad_escape(at: usize, escaped: char, help: &str) -> Problem {
    Problem::BadEscape {
        text: format!("\\{escaped}"),
        span: (at, 1 + escaped.len_utf8()).into(),
        help: help.to_string(),
    }
}

fn is_punct(r: Rule) -> bool {
    matches!(
        r,
        Rule::lbrace
            | Rule::rbrace
            | Rule::lparen
            | Rule::rparen
            | Rule::comma
            | Rule::colon
            | Rule::plus
            | Rule::arrow
    )
}
