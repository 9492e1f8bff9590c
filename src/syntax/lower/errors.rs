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

/// The words only a declaration starts with: inside a block, one at the start of a line
/// means the block was left open.
const DECLARATIONS: &[&str] = &[
    "puzzle", "tiles", "outside", "marks", "piece", "legend", "dirs", "cost", "metric", "limit",
    "counter", "move", "goal", "level", "judge", "look",
];

/// `src` with every comment blanked out (same length, so byte offsets hold): a search for
/// words or braces then never finds one inside a comment.
fn without_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut rest = src;
    while let Some(at) = next_comment(rest) {
        out.push_str(&rest[..at]);
        let end = rest[at..].find('\n').map_or(rest.len(), |e| at + e);
        // A character of `n` bytes becomes `n` blanks.
        out.extend(std::iter::repeat_n(' ', end - at));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Where the first comment of `s` starts: a `//` outside strings, character literals and
/// text blocks.
fn next_comment(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => return Some(i),
            b'"' if s[i..].starts_with("\"\"\"") => {
                i = s[i + 3..].find("\"\"\"").map_or(b.len(), |e| i + 3 + e + 3);
            }
            b'"' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' && b[j] != b'\n' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                i = j + 1;
            }
            b'\'' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'\'' && b[j] != b'\n' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    None
}

/// The `{` still open at byte `upto` of `code` (comments blanked), the innermost first,
/// and every `{` before `upto`, skipping strings, character literals and text blocks.
fn open_braces(code: &str, upto: usize) -> (Vec<usize>, Vec<usize>) {
    let b = code.as_bytes();
    let mut open = vec![];
    let mut all = vec![];
    let mut i = 0;
    while i < upto.min(b.len()) {
        match b[i] {
            b'{' => {
                open.push(i);
                all.push(i);
            }
            b'}' => {
                open.pop();
            }
            b'"' if code[i..].starts_with("\"\"\"") => {
                i = code[i + 3..]
                    .find("\"\"\"")
                    .map_or(b.len(), |e| i + 3 + e + 2);
            }
            b'"' | b'\'' => {
                let q = b[i];
                let mut j = i + 1;
                while j < b.len() && b[j] != q && b[j] != b'\n' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                i = j;
            }
            _ => {}
        }
        i += 1;
    }
    open.reverse();
    (open, all)
}

/// When the `{` at `at` ends its line, the next line is indented deeper (the file
/// indents blocks), and a later line before `upto` comes back to the `{` line's
/// indentation or less without being its `}`: that line's number (1-based), where the
/// block's `}` was left out, by its indentation; and the byte span of that line's text.
fn left_open_by_indent(code: &str, at: usize, upto: usize) -> Option<(usize, (usize, usize))> {
    let indent = |l: &str| l.len() - l.trim_start().len();
    // Only blanks may follow the `{` on its line (looked at without reading the line to
    // its end: a line of a million braces costs no more than one).
    let rest = &code[at + 1..];
    let after = rest.trim_start_matches([' ', '\t', '\r']);
    if !(after.is_empty() || after.starts_with('\n')) {
        return None;
    }
    let le = at + 1 + (rest.len() - after.len());
    if le >= upto {
        return None;
    }
    let ls = code[..at].rfind('\n').map_or(0, |i| i + 1);
    let base = indent(&code[ls..le]);
    let mut deeper = false;
    let mut start = le + 1;
    for l in code[le + 1..upto].split('\n').take(MAX_INDENT_LINES) {
        let here = start;
        start += l.len() + 1;
        if l.trim().is_empty() {
            continue;
        }
        if !deeper {
            if indent(l) <= base {
                return None;
            }
            deeper = true;
        } else if indent(l) <= base {
            if l.trim_start().starts_with('}') {
                return None;
            }
            let line_no = code[..here].matches('\n').count() + 1;
            return Some((line_no, (here + indent(l), l.trim().len())));
        }
    }
    None
}

/// The most lines after a `{` read to tell whether its block was left open, and the most
/// braces looked at so: a diagnostic's extra care stays linear on any input.
const MAX_INDENT_LINES: usize = 4096;
const MAX_INDENT_BRACES: usize = 256;

/// A block left open (see [`Problem::UnclosedBrace`]): the error is on a line starting
/// with a word only a declaration starts with, or at the end of the file, while a `{`
/// before it is still open. The innermost open `{` is the one reported.
fn unclosed_brace(src: &str, code: &str, pos: usize) -> Option<Problem> {
    let line_start = code[..pos.min(code.len())].rfind('\n').map_or(0, |i| i + 1);
    let line = &code[line_start..];
    let indent = line.len() - line.trim_start().len();
    let word: String = line
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let at_end = pos >= src.trim_end().len();
    let (upto, next, found, before) = if at_end {
        let end = src.trim_end().len();
        let start = src[..end]
            .char_indices()
            .rfind(|(_, c)| c.is_whitespace())
            .map_or(0, |(i, c)| i + c.len_utf8());
        (
            end,
            (start, end - start),
            "the file ends here".to_string(),
            "at the end".to_string(),
        )
    } else if DECLARATIONS.contains(&word.as_str()) {
        let at = line_start + indent;
        (
            at,
            (at, word.len()),
            format!("`{word}` starts the next declaration here"),
            format!("before `{word}`"),
        )
    } else {
        return None;
    };
    let (open, all) = open_braces(code, upto);
    let (&innermost, &outermost) = (open.first()?, open.last()?);
    // The file's indentation may tell which block lost its `}`: the first one inside the
    // open declaration that its next lines leave without closing; else the innermost.
    let by_indent = all
        .iter()
        .filter(|&&b| b >= outermost)
        .take(MAX_INDENT_BRACES)
        .find_map(|&b| left_open_by_indent(code, b, upto).map(|line| (b, line)));
    let open = by_indent.map_or(innermost, |(b, _)| b);
    // The first line inside the open block that starts a declaration, no deeper than
    // the `{` line (`tiles { a b` then `piece man` reads `piece` and `man` as tiles and
    // fails only at the next `{`): the block ends before it.
    let open_line = code[..open].rfind('\n').map_or(0, |i| i + 1);
    let open_indent = {
        let l = &code[open_line..];
        l.len() - l.trim_start().len()
    };
    let mut first_decl = None;
    let mut at = code[open..].find('\n').map_or(code.len(), |i| open + i + 1);
    while at < upto {
        let l = &code[at..code[at..].find('\n').map_or(code.len(), |i| at + i)];
        let ind = l.len() - l.trim_start().len();
        let w: String = l
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if ind <= open_indent && DECLARATIONS.contains(&w.as_str()) {
            first_decl = Some((at + ind, w));
            break;
        }
        at += l.len() + 1;
    }
    let (next, found, before) = match (by_indent, first_decl) {
        (Some((_, (_, text))), _) => (
            text,
            "the block's indentation ends here".to_string(),
            String::new(),
        ),
        (None, Some((at, w))) => (
            (at, w.len()),
            format!("`{w}` starts the next declaration here"),
            format!("before `{w}`"),
        ),
        (None, None) => (next, found, before),
    };
    let opener: String = {
        let ls = code[..open].rfind('\n').map_or(0, |i| i + 1);
        code[ls..open]
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_string()
    };
    let what = if opener.is_empty() {
        "the block".to_string()
    } else {
        format!("the `{opener}` block")
    };
    Some(Problem::UnclosedBrace {
        open: (open, 1).into(),
        next: next.into(),
        found,
        help: match by_indent {
            Some((_, (line, _))) => format!(
                "close {what} with `}}` before line {line}, where the indentation comes back to its level"
            ),
            None => format!("close {what} with `}}` {before}"),
        },
    })
}

pub(super) fn syntax_problem(src: &str, mut e: pest::error::Error<Rule>) -> Problem {
    use pest::error::{ErrorVariant, InputLocation};
    let mut pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let code = without_comments(src);
    if let Some(p) = unclosed_brace(src, &code, pos) {
        return p;
    }
    // `shfit man d` reads as a counter update `shfit` missing its `+=`: report it as the
    // misspelt statement it is, at the statement's first word.
    if let ErrorVariant::ParsingError { positives, .. } = &e.variant {
        if positives.as_slice() == [Rule::assign_op] {
            // Comments are blanked: a word of a comment is never the statement.
            let before = code[..pos].trim_end();
            let word_start = before
                .char_indices()
                .rfind(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
                .map_or(0, |(i, c)| i + c.len_utf8());
            let first = code[..word_start].trim_end();
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
