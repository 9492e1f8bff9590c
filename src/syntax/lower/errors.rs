//! pest's syntax errors as [`Problem`]s: what each rule reads as in an "expected ..."
//! message, and strings or text blocks left open.

use super::Rule;
use crate::diagnostics::Problem;
/// How each rule reads in "expected ..." messages.
fn describe(rule: &Rule) -> String {
    use Rule::*;
    let s = match rule {
        EOI => "end of file",
        item | puzzle_decl | tiles_decl | outside_decl | marks_decl | piece_decl | legend_decl
        | dirs_decl | cost_decl | metric_decl | limit_decl | counter_decl | move_decl | forbid_decl
        | goal_decl | level_decl | judge_decl | look_decl => "a declaration (`puzzle`, `tiles`, `piece`, `legend`, `dirs`, `counter`, `move`, `forbid`, `goal`, `level`, `judge`, ...)",
        look_entry => "a look: a tile, piece or mark name and its colours",
        color => "a colour `#rgb` or `#rrggbb`",
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

pub(super) fn syntax_problem(src: &str, mut e: pest::error::Error<Rule>) -> Problem {
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
                            "look",
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
