//! The pest parser and the lowering of its parse tree into the AST.

use pest::iterators::Pair;
use pest::Parser as _;

use super::ast::*;
use super::span::Span;
use crate::diagnostics::Problem;

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

/// How each rule reads in "expected ..." messages.
fn describe(rule: &Rule) -> String {
    use Rule::*;
    let s = match rule {
        EOI => "end of file",
        item | puzzle_decl | tiles_decl | outside_decl | marks_decl | piece_decl | legend_decl
        | dirs_decl | cost_decl | metric_decl | limit_decl | counter_decl | move_decl | forbid_decl
        | goal_decl | level_decl | judge_decl => "a declaration (`puzzle`, `tiles`, `piece`, `legend`, `dirs`, `counter`, `move`, `forbid`, `goal`, `level`, `judge`, ...)",
        metric_group => "`straight` or `chain` and the moves it combines",
        piece_max => "`max N`",
        move_param => "a move parameter (`d`, `d in w, e` or `cell c`)",
        tile_def => "a tile name",
        pose_def => "`pose`",
        offset => "an offset `(row, column)`",
        legend_entry | legend_key => "a legend symbol (`'c'` or an integer)",
        dir_def => "a direction `name (row, column)`",
        move_stmt | letters_stmt | adds_stmt | require_stmt | forbid_stmt | shift_stmt
        | swap_stmt | turn_stmt | slide_stmt | remove_stmt | create_stmt | change_stmt
        | toggle_stmt | if_stmt | for_stmt | counter_stmt | block => "a move statement (`letters`, `adds`, `require`, `forbid`, `shift`, `swap`, `turn`, `slide`, `remove`, `create`, `change`, `toggle`, `if`, `for`, `counter += 1`)",
        cond | cond_and | cond_not | cond_atom | at_cond | on_cond | count_cmp | counter_cmp => "a condition (`what at cell`, `piece on tile`, `count(what) == n`, `counter > n`, `not`, `(...)`)",
        cmp_op => "a comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`)",
        assign_op => "`+=`, `-=` or `=`",
        where_clause => "`at CELL`, `everywhere` or `on MARK`",
        step | times => "a step (`d`, `-d`, `2d`, a direction name)",
        cell_expr | cell_base | coord => "a cell (`piece + d`, `c`, `(row, col)`)",
        sign => "`+` or `-`",
        turn_rule => "a turn rule `pose dir -> pose (row, column)`",
        slide_rule | slide_event => "a slide event (`into`, `before`, `off board`)",
        slide_action => "a slide action (`stop`, `break`, `lose`)",
        piece_ref => "a piece name",
        judge_stmt | cases_stmt | header_stmt | grid_stmt | query_stmt | base_stmt
        | print_stmt => "a judge statement (`cases`, `header`, `grid`, `query`, `base`, `print`)",
        header_field => "`rows`, `cols` or `queries`",
        outcome => "`solved`, `unsolved` or `invalid`",
        name => "a name",
        int => "an integer",
        string | string_inner => "a string in double quotes",
        char_lit | char_inner => "a character in single quotes",
        text_block | text_body => "a text block in triple quotes `\"\"\"`",
        level_goal => "`goal` and the finished board in triple quotes",
        expect_clause => "`expect`, maybe a metric's name, and the level's cost, or `none`",
        lbrace => "`{`",
        rbrace => "`}`",
        lparen => "`(`",
        rparen => "`)`",
        comma => "`,`",
        colon => "`:`",
        plus => "`+`",
        minus => "`-`",
        arrow => "`->`",
        other => {
            let n = format!("{other:?}");
            return match n.strip_prefix("kw_") {
                Some(k) => format!("`{k}`"),
                None => n,
            };
        }
    };
    s.to_string()
}

fn syntax_problem(src: &str, mut e: pest::error::Error<Rule>) -> Problem {
    use pest::error::{ErrorVariant, InputLocation};
    let mut pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    // `shfit man d` reads as a counter update `shfit` missing its `+=`: report it as the
    // misspelt statement it is, at the statement's first word.
    if let ErrorVariant::ParsingError { positives, .. } = &e.variant {
        if positives.as_slice() == [Rule::assign_op] {
            let before = src[..pos].trim_end();
            let word_start = before
                .char_indices()
                .rfind(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
                .map_or(0, |(i, c)| i + c.len_utf8());
            let first = src[..word_start].trim_end();
            let statement_start = first
                .char_indices()
                .rfind(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
                .map_or(0, |(i, c)| i + c.len_utf8());
            pos = if first.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                statement_start
            } else {
                word_start
            };
            e.variant = ErrorVariant::ParsingError {
                positives: vec![
                    Rule::kw_letters,
                    Rule::kw_adds,
                    Rule::kw_require,
                    Rule::kw_forbid,
                    Rule::kw_shift,
                    Rule::kw_swap,
                    Rule::kw_turn,
                    Rule::kw_slide,
                    Rule::kw_remove,
                    Rule::kw_create,
                    Rule::kw_change,
                    Rule::kw_toggle,
                    Rule::kw_if,
                    Rule::kw_for,
                    Rule::rbrace,
                ],
                negatives: vec![],
            };
        }
    }
    if let Some(p) = unterminated(src, pos) {
        return p;
    }
    if pos >= src.trim_end().len() {
        // At the end of the file: point at the last token, since an empty label is invisible.
        let end = src.trim_end().len();
        let start = src[..end]
            .char_indices()
            .rfind(|(_, c)| c.is_whitespace())
            .map_or(0, |(i, c)| i + c.len_utf8());
        let expected = expected_text(&e.variant);
        return Problem::Syntax {
            span: (start, end - start).into(),
            expected: format!("{expected} after this"),
            help: Some("the file ends too early".to_string()),
        };
    }
    // Label the whole offending token, not just its first byte. The token may itself
    // start with a blank the grammar does not accept (U+3000, U+2028...): then it is that
    // one character, measured in bytes so the span never ends inside it.
    let token_len = match src[pos..].chars().next() {
        Some(c) if c.is_whitespace() => c.len_utf8(),
        _ => src[pos..]
            .chars()
            .take_while(|c| !c.is_whitespace())
            .map(char::len_utf8)
            .sum::<usize>()
            .max(1),
    };
    let found = &src[pos..pos + token_len];
    let mut expected = expected_text(&e.variant);
    let mut help = match found.chars().next() {
        Some(c) if c.is_whitespace() => format!(
            "found the blank U+{:04X}; only spaces, tabs and line breaks separate tokens",
            c as u32
        ),
        _ => format!("found `{found}`"),
    };
    let word: String = found
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if let ErrorVariant::ParsingError { positives, .. } = &e.variant {
        let keywords: Vec<String> = positives
            .iter()
            .filter_map(|r| format!("{r:?}").strip_prefix("kw_").map(str::to_string))
            .chain(
                positives
                    .contains(&Rule::item)
                    .then(|| {
                        [
                            "puzzle", "tiles", "outside", "marks", "piece", "legend", "dirs",
                            "cost", "metric", "limit", "move", "forbid", "goal", "level", "judge",
                        ]
                        .map(str::to_string)
                        .to_vec()
                    })
                    .into_iter()
                    .flatten(),
            )
            .collect();
        if !word.is_empty() {
            if let Some(s) =
                crate::diagnostics::did_you_mean(&word, keywords.iter().map(String::as_str))
            {
                help = format!("found `{found}`; {s}");
            }
        }
        if expected.len() > 60 {
            help = format!("{help}; expected {expected}");
            expected =
                if keywords.iter().any(|k| k == "goal") && keywords.iter().any(|k| k == "tiles") {
                    "a declaration such as `tiles`, `piece`, `move` or `goal`".to_string()
                } else {
                    format!("something other than `{found}` here")
                };
        }
    }
    Problem::Syntax {
        span: (pos, token_len).into(),
        expected,
        help: Some(help),
    }
}

fn expected_text(v: &pest::error::ErrorVariant<Rule>) -> String {
    match v {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<String> = positives.iter().map(describe).collect();
            names.sort();
            names.dedup();
            match names.len() {
                0 => "something else".to_string(),
                1 => names.remove(0),
                _ => {
                    let last = names.pop().unwrap_or_default();
                    format!("{} or {}", names.join(", "), last)
                }
            }
        }
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    }
}

/// A string or text block opened at or before `pos` and never closed.
fn unterminated(src: &str, pos: usize) -> Option<Problem> {
    // Find the last quote opening at or before the error that has no partner.
    let rest = &src[pos..];
    if rest.starts_with("\"\"\"") && !rest[3..].contains("\"\"\"") {
        return Some(Problem::Unterminated {
            what: "this level's text block",
            span: (pos, 3).into(),
            help: "end the level with a line holding `\"\"\"`".to_string(),
        });
    }
    if rest.starts_with('"') && !rest.starts_with("\"\"\"") {
        let line = &rest[1..rest.find('\n').unwrap_or(rest.len())];
        let mut escaped = false;
        let closed = line.chars().any(|c| {
            let close = c == '"' && !escaped;
            escaped = c == '\\' && !escaped;
            close
        });
        if !closed {
            return Some(Problem::Unterminated {
                what: "this string",
                span: (pos, 1).into(),
                help: "close it with `\"` on the same line".to_string(),
            });
        }
    }
    None
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

    fn item(&mut self, pair: Pair<Rule>) -> Item {
        let span = span_of(&pair);
        let rule = pair.as_rule();
        let mut inner = pair.into_inner();
        let kw = inner
            .next()
            .expect("every declaration starts with a keyword");
        let keyword = span_of(&kw);
        let all: Vec<Pair<Rule>> = inner.collect();
        let braced = all.iter().any(|p| p.as_rule() == Rule::lbrace);
        let rest: Vec<Pair<Rule>> = all.into_iter().filter(|p| !is_punct(p.as_rule())).collect();
        let kind = match rule {
            Rule::puzzle_decl => ItemKind::Puzzle(self.string(rest[0].clone())),
            Rule::tiles_decl => ItemKind::Tiles(
                rest.into_iter()
                    .map(|t| {
                        let mut names = t.into_inner().filter(|p| p.as_rule() == Rule::name);
                        TileDef {
                            name: self.name(names.next().expect("tile name")),
                            becomes: names.next().map(|n| self.name(n)),
                        }
                    })
                    .collect(),
            ),
            Rule::outside_decl => ItemKind::Outside(self.name(rest[0].clone())),
            Rule::marks_decl => ItemKind::Marks(
                rest.into_iter()
                    .map(|m| {
                        let mut it = m.into_inner();
                        MarkDef {
                            name: self.name(it.next().expect("mark name")),
                            single: it.next().is_some(),
                        }
                    })
                    .collect(),
            ),
            Rule::piece_decl => {
                let mut it = rest.into_iter().peekable();
                let name = self.name(it.next().expect("piece name"));
                let anonymous = it.peek().is_some_and(|p| p.as_rule() == Rule::kw_anonymous);
                if anonymous {
                    it.next();
                }
                let max = match it.peek().map(|p| p.as_rule()) {
                    Some(Rule::piece_max) => {
                        let m = it.next().expect("peeked");
                        let int = m.into_inner().nth(1).expect("max value");
                        Some(self.int(int))
                    }
                    _ => None,
                };
                let attrs = match it.peek().map(|p| p.as_rule()) {
                    Some(Rule::attrs) => self.attrs(it.next().expect("peeked")),
                    _ => vec![],
                };
                let poses: Vec<PoseDef> = it.map(|p| self.pose(p)).collect();
                // `piece x {}` and `piece x` differ: braces mean "my poses are these".
                ItemKind::Piece(PieceDecl {
                    name,
                    anonymous,
                    max,
                    poses: if braced { Some(poses) } else { None },
                    attrs,
                })
            }
            Rule::legend_decl => {
                ItemKind::Legend(rest.into_iter().map(|e| self.legend_entry(e)).collect())
            }
            Rule::dirs_decl => ItemKind::Dirs(
                rest.into_iter()
                    .map(|d| {
                        let mut it = d.into_inner();
                        let name = self.name(it.next().expect("dir name"));
                        let step = self.offset(it.next().expect("dir step"));
                        DirDef { name, step }
                    })
                    .collect(),
            ),
            Rule::cost_decl => ItemKind::Cost(rest.into_iter().map(|n| self.name(n)).collect()),
            Rule::limit_decl => ItemKind::Limit(self.int(rest[0].clone())),
            Rule::metric_decl => {
                let mut it = rest.into_iter();
                let name = self.name(it.next().expect("metric name"));
                let groups = it
                    .map(|g| {
                        let mut q = g.into_inner().filter(|x| !is_punct(x.as_rule()));
                        let kw = q.next().expect("straight or chain");
                        let combine = if kw.as_rule() == Rule::kw_straight {
                            Combine::Straight
                        } else {
                            Combine::Chain
                        };
                        MetricGroup {
                            combine,
                            keyword: span_of(&kw),
                            moves: q.map(|n| self.name(n)).collect(),
                        }
                    })
                    .collect();
                ItemKind::Metric(MetricDecl { name, groups })
            }
            Rule::move_decl => {
                let mut it = rest.into_iter();
                let name = self.name(it.next().expect("move name"));
                let param = self.move_param(it.next().expect("move parameter"));
                let body = it.map(|s| self.move_stmt(s)).collect();
                ItemKind::Move(MoveDecl { name, param, body })
            }
            Rule::forbid_decl => {
                let piece = self.piece_ref(rest[0].clone());
                let tile = self.name(rest[2].clone());
                ItemKind::Forbid(ForbidDecl { piece, tile })
            }
            Rule::goal_decl => ItemKind::Goal(self.cond(rest[0].clone())),
            Rule::counter_decl => {
                let mut it = rest.into_iter().filter(|p| p.as_rule() != Rule::kw_max);
                let name = self.name(it.next().expect("counter name"));
                let max = self.int(it.next().expect("counter max"));
                let start = it.find(|p| p.as_rule() == Rule::int).map(|p| self.int(p));
                ItemKind::Counter(CounterDecl { name, max, start })
            }
            Rule::level_decl => ItemKind::Level(self.level(rest)),
            Rule::judge_decl => {
                ItemKind::Judge(rest.into_iter().map(|s| self.judge_stmt(s)).collect())
            }
            other => unreachable!("not a declaration rule: {other:?}"),
        };
        Item {
            kind,
            keyword,
            span,
        }
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

impl Lowerer {
    /// `has a 1, b 2`.
    fn attrs(&mut self, p: Pair<Rule>) -> Vec<AttrDef> {
        p.into_inner()
            .filter(|q| q.as_rule() == Rule::attr_def)
            .map(|q| {
                let mut it = q.into_inner();
                let name = self.name(it.next().expect("attribute name"));
                let value = self.int(it.next().expect("attribute value"));
                AttrDef { name, value }
            })
            .collect()
    }

    /// `disk.size`.
    fn attr_ref(&mut self, p: Pair<Rule>) -> AttrRef {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let piece = self.name(it.next().expect("piece"));
        let attr = self.name(it.next().expect("attribute"));
        AttrRef { piece, attr, span }
    }

    fn pose(&mut self, p: Pair<Rule>) -> PoseDef {
        let mut name = None;
        let mut cells = vec![];
        let mut open = None;
        let mut close = None;
        let mut attrs = vec![];
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::attrs => attrs = self.attrs(q),
                Rule::name => name = Some(self.name(q)),
                Rule::offset => cells.push(self.offset(q)),
                Rule::lbrace => open = Some(span_of(&q)),
                Rule::rbrace => close = Some(span_of(&q)),
                _ => {}
            }
        }
        let body = match (open, close) {
            (Some(a), Some(b)) => a.merge(b),
            _ => Span::default(),
        };
        PoseDef {
            name: name.expect("pose name"),
            cells,
            body,
            attrs,
        }
    }

    fn legend_entry(&mut self, p: Pair<Rule>) -> LegendEntry {
        let mut it = p.into_inner().filter(|q| q.as_rule() != Rule::plus);
        let key_pair = it.next().expect("legend key");
        let key_span = span_of(&key_pair);
        let k = key_pair.into_inner().next().expect("key content");
        let key = match k.as_rule() {
            Rule::int => KeyValue::Int(self.int(k).value),
            _ => match k.into_inner().next() {
                Some(c) => KeyValue::Char(self.key_char(c)),
                None => KeyValue::Char(' '),
            },
        };
        let PieceRef {
            piece: tile,
            pose: tile_pose,
            ..
        } = self.piece_ref(it.next().expect("legend tile"));
        let extras = it.map(|n| self.piece_ref(n)).collect();
        LegendEntry {
            key,
            key_span,
            tile,
            tile_pose,
            extras,
        }
    }

    fn piece_ref(&self, p: Pair<Rule>) -> PieceRef {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let piece = self.name(it.next().expect("piece name"));
        let pose = it.next().map(|n| self.name(n));
        PieceRef { piece, pose, span }
    }

    fn move_param(&self, p: Pair<Rule>) -> MoveParam {
        let mut it = p.into_inner().filter(|q| !is_punct(q.as_rule()));
        let first = it.next().expect("parameter");
        if first.as_rule() == Rule::kw_cell {
            return MoveParam::Cell(self.name(it.next().expect("cell name")));
        }
        let name = self.name(first);
        let only: Vec<Name> = it
            .filter(|q| q.as_rule() == Rule::name)
            .map(|q| self.name(q))
            .collect();
        MoveParam::Dir {
            name,
            only: (!only.is_empty()).then_some(only),
        }
    }

    fn step(&mut self, p: Pair<Rule>) -> Step {
        let span = span_of(&p);
        let mut negate = false;
        let mut times = 1;
        let mut dir = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::minus => negate = true,
                Rule::times => {
                    times = match q.as_str().parse::<i64>() {
                        Ok(v) if (1..=OFFSET_LIMIT).contains(&v) => v,
                        _ => {
                            self.problems.push(Problem::IntegerRange {
                                span: span_of(&q).into(),
                                text: q.as_str().to_string(),
                                help: "a step repeats 1 to 64 times".to_string(),
                            });
                            1
                        }
                    }
                }
                Rule::name => dir = Some(self.name(q)),
                _ => {}
            }
        }
        Step {
            negate,
            times,
            dir: dir.expect("step direction"),
            span,
        }
    }

    fn cell_expr(&mut self, p: Pair<Rule>) -> CellExpr {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let base_pair = it.next().expect("cell base");
        let inner = base_pair.into_inner().next().expect("cell base content");
        let base = match inner.as_rule() {
            Rule::coord => CellBase::Coord(self.coord(inner)),
            _ => CellBase::Name(self.name(inner)),
        };
        let mut steps = vec![];
        while let Some(sign) = it.next() {
            let neg = sign.into_inner().next().map(|s| s.as_rule()) == Some(Rule::minus);
            let step = self.step(it.next().expect("cell step"));
            steps.push((neg, step));
        }
        CellExpr { base, steps, span }
    }

    /// `(row, col)`: like an offset, but rows and columns may be as large as boards.
    fn coord(&mut self, p: Pair<Rule>) -> Offset {
        let span = span_of(&p);
        let mut ints = p.into_inner().filter(|q| q.as_rule() == Rule::int);
        let dr = self.int(ints.next().expect("row")).value;
        let dc = self.int(ints.next().expect("column")).value;
        Offset { dr, dc, span }
    }

    fn cmp(p: Pair<Rule>) -> CmpOp {
        match p.as_str() {
            "==" => CmpOp::Eq,
            "!=" => CmpOp::Ne,
            "<" => CmpOp::Lt,
            "<=" => CmpOp::Le,
            ">" => CmpOp::Gt,
            _ => CmpOp::Ge,
        }
    }

    fn cond(&mut self, p: Pair<Rule>) -> CondNode {
        let span = span_of(&p);
        let rule = p.as_rule();
        let parts: Vec<Pair<Rule>> = p
            .into_inner()
            .filter(|q| {
                !is_punct(q.as_rule()) && !matches!(q.as_rule(), Rule::kw_and | Rule::kw_or)
            })
            .collect();
        match rule {
            Rule::cond | Rule::cond_and => {
                let mut subs: Vec<CondNode> = parts.into_iter().map(|q| self.cond(q)).collect();
                if subs.len() == 1 {
                    return subs.pop().expect("one");
                }
                let cond = if rule == Rule::cond {
                    Cond::Or(subs)
                } else {
                    Cond::And(subs)
                };
                CondNode { cond, span }
            }
            Rule::cond_not => {
                let mut it = parts.into_iter();
                let first = it.next().expect("not or atom");
                if first.as_rule() == Rule::kw_not {
                    let inner = self.cond(it.next().expect("negated condition"));
                    CondNode {
                        cond: Cond::Not(Box::new(inner)),
                        span,
                    }
                } else {
                    self.cond(first)
                }
            }
            Rule::cond_atom => self.cond(parts.into_iter().next().expect("atom")),
            Rule::at_cond => {
                let mut it = parts
                    .into_iter()
                    .filter(|q| !matches!(q.as_rule(), Rule::kw_at | Rule::kw_as));
                let what = self.piece_ref(it.next().expect("what"));
                let cell = self.cell_expr(it.next().expect("cell"));
                let alias = it.next().map(|a| self.name(a));
                let pose = what.pose;
                let what = what.piece;
                CondNode {
                    cond: Cond::At {
                        what,
                        pose,
                        cell,
                        alias,
                    },
                    span,
                }
            }
            Rule::on_cond => {
                let piece = self.piece_ref(parts[0].clone());
                let on = self.name(parts[2].clone());
                CondNode {
                    cond: Cond::On { piece, on },
                    span,
                }
            }
            Rule::count_cmp => {
                // kw_count, name, cmp_op, int
                let what = self.name(parts[1].clone());
                let op = Self::cmp(parts[2].clone());
                let value = self.int(parts[3].clone());
                CondNode {
                    cond: Cond::Count { what, op, value },
                    span,
                }
            }
            Rule::attr_cmp => {
                let left = self.attr_ref(parts[0].clone());
                let op = Self::cmp(parts[1].clone());
                let right = match parts[2].as_rule() {
                    Rule::attr_ref => AttrOperand::Attr(self.attr_ref(parts[2].clone())),
                    _ => AttrOperand::Int(self.int(parts[2].clone())),
                };
                CondNode {
                    cond: Cond::Attr { left, op, right },
                    span,
                }
            }
            Rule::counter_cmp => {
                let name = self.name(parts[0].clone());
                let op = Self::cmp(parts[1].clone());
                let value = self.int(parts[2].clone());
                CondNode {
                    cond: Cond::Counter { name, op, value },
                    span,
                }
            }
            other => unreachable!("not a condition rule: {other:?}"),
        }
    }

    fn place(&mut self, p: Pair<Rule>) -> Where {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let kw = it.next().expect("where keyword");
        match kw.as_rule() {
            Rule::kw_at => Where::At(self.cell_expr(it.next().expect("cell"))),
            Rule::kw_on => Where::On(self.name(it.next().expect("mark"))),
            _ => Where::Everywhere(span),
        }
    }

    fn block(&mut self, p: Pair<Rule>) -> Vec<MoveStmt> {
        p.into_inner()
            .filter(|q| !is_punct(q.as_rule()))
            .map(|q| self.move_stmt(q))
            .collect()
    }

    fn move_stmt(&mut self, p: Pair<Rule>) -> MoveStmt {
        let span = span_of(&p);
        let rule = p.as_rule();
        if rule == Rule::counter_stmt {
            let mut it = p.into_inner();
            let name = self.name(it.next().expect("counter"));
            let op = match it.next().expect("assign").as_str() {
                "+=" => AssignOp::Add,
                "-=" => AssignOp::Sub,
                _ => AssignOp::Set,
            };
            let value = self.int(it.next().expect("value"));
            return MoveStmt {
                kind: MoveStmtKind::Counter { name, op, value },
                span,
            };
        }
        let mut it = p.into_inner().filter(|q| !is_punct(q.as_rule()));
        it.next(); // keyword
        let each = |it: &mut std::iter::Peekable<_>| -> bool {
            let yes = matches!(it.peek(), Some(q) if Pair::<Rule>::as_rule(q) == Rule::kw_each);
            if yes {
                it.next();
            }
            yes
        };
        let mut it = it.peekable();
        let kind = match rule {
            Rule::letters_stmt => MoveStmtKind::Letters(self.string(it.next().expect("letters"))),
            Rule::adds_stmt => MoveStmtKind::Adds(it.map(|n| self.name(n)).collect()),
            Rule::require_stmt => MoveStmtKind::Require(self.cond(it.next().expect("cond"))),
            Rule::forbid_stmt => MoveStmtKind::Forbid(self.cond(it.next().expect("cond"))),
            Rule::shift_stmt => {
                let each = each(&mut it);
                let piece = self.name(it.next().expect("shift piece"));
                let step = self.step(it.next().expect("shift step"));
                MoveStmtKind::Shift { piece, each, step }
            }
            Rule::swap_stmt => MoveStmtKind::Swap {
                piece: self.name(it.next().expect("swap piece")),
                step: self.step(it.next().expect("swap step")),
            },
            Rule::turn_stmt => {
                let piece = self.name(it.next().expect("turn piece"));
                let rules = it
                    .map(|r| {
                        let span = span_of(&r);
                        let mut q = r.into_inner().filter(|x| !is_punct(x.as_rule()));
                        let from = self.name(q.next().expect("from pose"));
                        let dir = self.name(q.next().expect("dir"));
                        let to = self.name(q.next().expect("to pose"));
                        let offset = self.offset(q.next().expect("offset"));
                        TurnRule {
                            from,
                            dir,
                            to,
                            offset,
                            span,
                        }
                    })
                    .collect();
                MoveStmtKind::Turn { piece, rules }
            }
            Rule::slide_stmt => {
                let each = each(&mut it);
                let piece = self.name(it.next().expect("slide piece"));
                let step = self.step(it.next().expect("slide step"));
                let rules = it.map(|r| self.slide_rule(r)).collect();
                MoveStmtKind::Slide {
                    piece,
                    each,
                    step,
                    rules,
                }
            }
            Rule::remove_stmt => MoveStmtKind::Remove(self.name(it.next().expect("piece"))),
            Rule::create_stmt => {
                let piece = self.piece_ref(it.next().expect("piece"));
                it.next(); // `at`
                let at = self.cell_expr(it.next().expect("cell"));
                MoveStmtKind::Create { piece, at }
            }
            Rule::change_stmt => {
                let from = self.name(it.next().expect("from"));
                let to = self.name(it.next().expect("to"));
                let place = self.place(it.next().expect("where"));
                MoveStmtKind::Change { from, to, place }
            }
            Rule::toggle_stmt => {
                let a = self.name(it.next().expect("a"));
                let b = self.name(it.next().expect("b"));
                let place = self.place(it.next().expect("where"));
                MoveStmtKind::Toggle { a, b, place }
            }
            Rule::if_stmt => {
                let cond = self.cond(it.next().expect("cond"));
                let then = self.block(it.next().expect("then block"));
                let els = match it.find(|q| q.as_rule() != Rule::kw_else) {
                    Some(q) if q.as_rule() == Rule::if_stmt => vec![self.move_stmt(q)],
                    Some(q) => self.block(q),
                    None => vec![],
                };
                MoveStmtKind::If { cond, then, els }
            }
            Rule::for_stmt => {
                let var = self.name(it.next().expect("var"));
                it.next(); // `in`
                let piece = self.name(it.next().expect("piece"));
                let body = self.block(it.next().expect("body"));
                MoveStmtKind::For { var, piece, body }
            }
            other => unreachable!("not a move statement: {other:?}"),
        };
        MoveStmt { kind, span }
    }

    fn slide_rule(&self, r: Pair<Rule>) -> SlideRule {
        let span = span_of(&r);
        let mut it = r.into_inner().filter(|x| !is_punct(x.as_rule()));
        let ev = it.next().expect("slide event");
        let ev_span = span_of(&ev);
        let mut ev_in = ev.into_inner();
        let kw = ev_in.next().expect("event keyword");
        let event = match kw.as_rule() {
            Rule::kw_into => SlideEvent::Into(self.name(ev_in.next().expect("into what"))),
            Rule::kw_before => SlideEvent::Before(self.name(ev_in.next().expect("before what"))),
            _ => SlideEvent::OffBoard(ev_span),
        };
        let actions = it
            .map(|a| {
                let s = span_of(&a);
                let act = match a.into_inner().next().map(|k| k.as_rule()) {
                    Some(Rule::kw_stop) => SlideAction::Stop,
                    Some(Rule::kw_break) => SlideAction::Break,
                    _ => SlideAction::Lose,
                };
                (act, s)
            })
            .collect();
        SlideRule {
            event,
            actions,
            span,
        }
    }

    /// A text block's rows and their starts (a problem is recorded when malformed).
    fn text_rows(&mut self, block: Pair<Rule>) -> (Vec<String>, Vec<u32>) {
        let body = block.into_inner().next().expect("text body");
        let body_start = body.as_span().start();
        match split_text_block(body.as_str(), body_start) {
            Ok(r) => r,
            Err(at) => {
                self.problems.push(Problem::TextBlock {
                    span: (at, 1).into(),
                });
                (vec![], vec![])
            }
        }
    }

    fn level(&mut self, rest: Vec<Pair<Rule>>) -> LevelDecl {
        let mut it = rest.into_iter();
        let name = self.string(it.next().expect("level name"));
        let mut next = it.next().expect("level body");
        let form = match next.as_rule() {
            Rule::kw_chars => Some(GridForm::Chars),
            Rule::kw_ints => Some(GridForm::Ints),
            _ => None,
        };
        if form.is_some() {
            next = it.next().expect("level text");
        }
        let text = span_of(&next);
        let (rows, row_starts) = self.text_rows(next);
        let mut goal = None;
        let mut expects = vec![];
        for extra in it {
            if extra.as_rule() == Rule::expect_clause {
                expects.push(self.expect(extra));
            } else if extra.as_rule() == Rule::level_goal {
                let block = extra
                    .into_inner()
                    .find(|q| q.as_rule() == Rule::text_block)
                    .expect("goal text");
                let span = span_of(&block);
                let (g_rows, g_starts) = self.text_rows(block);
                goal = Some((g_rows, g_starts, span));
            }
        }
        LevelDecl {
            name,
            form,
            rows,
            row_starts,
            text,
            goal,
            expects,
        }
    }

    /// `expect none` or `expect 6, 8`. Costs are sums of many moves, so they may pass the
    /// limit of other integers; they stay below 2^53 (exact in JSON).
    fn expect(&mut self, p: Pair<Rule>) -> ExpectClause {
        let span = span_of(&p);
        let mut cost = vec![];
        let mut none = false;
        let mut metric = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::kw_none => none = true,
                Rule::name => metric = Some(self.name(q)),
                Rule::int => cost.push(self.int_within(
                    q,
                    EXPECT_LIMIT,
                    "an expected cost lies between 0 and 9007199254740991",
                )),
                _ => {}
            }
        }
        ExpectClause {
            metric,
            cost: (!none).then_some(cost),
            span,
        }
    }

    fn judge_stmt(&mut self, p: Pair<Rule>) -> JudgeStmt {
        let span = span_of(&p);
        let rule = p.as_rule();
        let mut it = p.into_inner().filter(|q| !is_punct(q.as_rule()));
        it.next(); // keyword
        let kind = match rule {
            Rule::cases_stmt => {
                let first = it.next().expect("cases form");
                if first.as_rule() == Rule::kw_once {
                    JudgeStmtKind::CasesOnce
                } else {
                    JudgeStmtKind::CasesUntil(it.map(|i| self.int(i)).collect())
                }
            }
            Rule::header_stmt => JudgeStmtKind::Header(
                it.map(|f| {
                    let s = span_of(&f);
                    let field = match f.into_inner().next().map(|k| k.as_rule()) {
                        Some(Rule::kw_rows) => HeaderField::Rows,
                        Some(Rule::kw_cols) => HeaderField::Cols,
                        _ => HeaderField::Queries,
                    };
                    (field, s)
                })
                .collect(),
            ),
            Rule::grid_stmt => JudgeStmtKind::Grid(match it.next().map(|k| k.as_rule()) {
                Some(Rule::kw_chars) => GridForm::Chars,
                _ => GridForm::Ints,
            }),
            Rule::query_stmt => JudgeStmtKind::Query(it.map(|n| self.name(n)).collect()),
            Rule::base_stmt => JudgeStmtKind::Base(self.int(it.next().expect("base value"))),
            Rule::print_stmt => {
                let outcome = match it
                    .next()
                    .and_then(|o| o.into_inner().next())
                    .map(|k| k.as_rule())
                {
                    Some(Rule::kw_solved) => Outcome::Solved,
                    Some(Rule::kw_unsolved) => Outcome::Unsolved,
                    _ => Outcome::Invalid,
                };
                JudgeStmtKind::Print(outcome, self.string(it.next().expect("print text")))
            }
            other => unreachable!("not a judge statement: {other:?}"),
        };
        JudgeStmt { kind, span }
    }
}

/// Splits a text block's body into rows. The body must start with a line break; the last
/// line (before the closing `"""`) must hold only indentation, which is removed from every
/// row. Returns the byte offset of the offending character on error.
fn split_text_block(body: &str, start: usize) -> Result<(Vec<String>, Vec<u32>), usize> {
    let first_break = body.find('\n').ok_or(start)?;
    if !body[..first_break].trim().is_empty() {
        let lead = body.len() - body.trim_start_matches([' ', '\t']).len();
        return Err(start + lead);
    }
    let after = &body[first_break + 1..];
    let base = start + first_break + 1;
    let last_break = after.rfind('\n');
    let (content, closing) = match last_break {
        Some(i) => (&after[..i], &after[i + 1..]),
        None => ("", after),
    };
    if !closing.chars().all(|c| c == ' ' || c == '\t') {
        // Text on the closing line: treat it as a row with no indentation removed.
        let mut rows = vec![];
        let mut starts = vec![];
        let mut off = base;
        for line in after.split('\n') {
            rows.push(line.trim_end_matches('\r').to_string());
            starts.push(off as u32);
            off += line.len() + 1;
        }
        return Ok((rows, starts));
    }
    let indent = closing.len();
    let mut rows = vec![];
    let mut starts = vec![];
    if last_break.is_none() {
        return Ok((rows, starts));
    }
    let mut off = base;
    for line in content.split('\n') {
        let line_nocr = line.trim_end_matches('\r');
        let strip = line_nocr
            .char_indices()
            .take_while(|(i, c)| *i < indent && (*c == ' ' || *c == '\t'))
            .count();
        rows.push(line_nocr[strip..].to_string());
        starts.push((off + strip) as u32);
        off += line.len() + 1;
    }
    Ok((rows, starts))
}
