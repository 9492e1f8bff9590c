//! Judge formats: every statement a judge needs is given exactly once, the header and the
//! `cases`, `query` and `print` statements agree, and a query only places what a query
//! can place. Each kind of mistake has its own diagnostic code.

use std::collections::{HashMap, HashSet};

use super::names::Lookup;
use super::symbols::{Symbols, Thing};
use crate::diagnostics::Problem;
use crate::syntax::ast::{File, HeaderField, ItemKind, JudgeStmt, JudgeStmtKind, Name, Outcome};
use crate::syntax::Span;

/// Every `judge` declaration.
pub fn check(file: &File, syms: &Symbols) -> Vec<Problem> {
    let singles = single_marks(file);
    let unique = unique_pieces(file);
    let look = Lookup::new(syms);
    let mut out = vec![];
    for item in &file.items {
        if let ItemKind::Judge(stmts) = &item.kind {
            out.extend(missing(stmts, item.keyword));
            out.extend(repeated(stmts));
            out.extend(header(stmts));
            out.extend(queries(stmts, &look, &singles, &unique));
        }
    }
    out
}

/// Marks declared `single`, with where.
fn single_marks(file: &File) -> HashMap<&str, Span> {
    file.items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::Marks(m) => Some(m),
            _ => None,
        })
        .flatten()
        .filter(|m| m.single)
        .map(|m| (m.name.text.as_str(), m.name.span))
        .collect()
}

/// Pieces that are not `anonymous`: each stands at exactly one place.
fn unique_pieces(file: &File) -> HashSet<&str> {
    file.items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::Piece(p) if !p.anonymous => Some(p.name.text.as_str()),
            _ => None,
        })
        .collect()
}

/// The statement's keyword as a duplicate report names it; `cases once` and
/// `cases until` are the same statement.
fn keyword(kind: &JudgeStmtKind) -> &'static str {
    match kind {
        JudgeStmtKind::CasesUntil(_) | JudgeStmtKind::CasesOnce => "cases",
        JudgeStmtKind::Header(_) => "header",
        JudgeStmtKind::Grid(_) => "grid",
        JudgeStmtKind::Query(_) => "query",
        JudgeStmtKind::Base(_) => "base",
        JudgeStmtKind::Print(Outcome::Solved, _) => "print solved",
        JudgeStmtKind::Print(Outcome::Unsolved, _) => "print unsolved",
        JudgeStmtKind::Print(Outcome::Invalid, _) => "print invalid",
    }
}

/// Statements every judge format needs.
fn missing(stmts: &[JudgeStmt], judge: Span) -> Vec<Problem> {
    const NEEDED: [(&str, &str); 5] = [
        (
            "cases",
            "say how many cases the input holds: `cases until 0 0` or `cases once`",
        ),
        (
            "header",
            "name the numbers that open a case, e.g. `header rows, cols`",
        ),
        (
            "grid",
            "say how rows are written: `grid chars` or `grid ints`",
        ),
        (
            "print solved",
            "say what a solved case prints, e.g. `print solved \"{cost}\"`",
        ),
        (
            "print unsolved",
            "say what an unsolvable case prints, e.g. `print unsolved \"Impossible\"`",
        ),
    ];
    NEEDED
        .into_iter()
        .filter(|(what, _)| !stmts.iter().any(|s| keyword(&s.kind) == *what))
        .map(|(what, help)| Problem::JudgeMissingStatement {
            what,
            span: judge.into(),
            help: help.to_string(),
        })
        .collect()
}

/// Statements given twice: the input can be read one way only.
fn repeated(stmts: &[JudgeStmt]) -> Vec<Problem> {
    let mut first: HashMap<&'static str, Span> = HashMap::new();
    let mut out = vec![];
    for s in stmts {
        let kw = keyword(&s.kind);
        match first.get(kw) {
            Some(f) => out.push(Problem::JudgeDuplicateStatement {
                keyword: kw,
                span: s.span.into(),
                first: (*f).into(),
            }),
            None => {
                first.insert(kw, s.span);
            }
        }
    }
    out
}

fn field_word(f: HeaderField) -> &'static str {
    match f {
        HeaderField::Rows => "rows",
        HeaderField::Cols => "cols",
        HeaderField::Queries => "queries",
    }
}

/// The (first) header against `cases until` and `query`.
fn header(stmts: &[JudgeStmt]) -> Vec<Problem> {
    let mut out = vec![];
    let Some((header, fields)) = stmts.iter().find_map(|s| match &s.kind {
        JudgeStmtKind::Header(f) => Some((s, f)),
        _ => None,
    }) else {
        return out;
    };
    let mut named: HashMap<HeaderField, Span> = HashMap::new();
    for &(f, sp) in fields {
        match named.get(&f) {
            Some(first) => out.push(Problem::JudgeRepeatedField {
                field: field_word(f),
                span: sp.into(),
                first: (*first).into(),
            }),
            None => {
                named.insert(f, sp);
            }
        }
    }
    for want in [HeaderField::Rows, HeaderField::Cols] {
        if !named.contains_key(&want) {
            out.push(Problem::JudgeMissingSize {
                field: field_word(want),
                span: header.span.into(),
            });
        }
    }
    let query = stmts
        .iter()
        .find(|s| matches!(s.kind, JudgeStmtKind::Query(_)));
    match (named.get(&HeaderField::Queries), query) {
        (Some(q), None) => out.push(Problem::JudgeQueriesWithoutQuery { span: (*q).into() }),
        (None, Some(q)) => out.push(Problem::JudgeQueryWithoutQueries {
            span: q.span.into(),
        }),
        _ => {}
    }
    for s in stmts {
        if let JudgeStmtKind::CasesUntil(values) = &s.kind {
            if values.len() != fields.len() {
                let zeros = vec!["0"; fields.len()].join(" ");
                out.push(Problem::JudgeUntilArity {
                    given: values.len(),
                    expected: fields.len(),
                    span: s.span.into(),
                    header: header.span.into(),
                    help: format!(
                        "the input ends at a header equal to these numbers, so give one per header field, e.g. `cases until {zeros}`"
                    ),
                });
            }
        }
    }
    out
}

/// What queries place (a unique piece at most once), and `print invalid`, which only queries can print.
fn queries(
    stmts: &[JudgeStmt],
    look: &Lookup,
    singles: &HashMap<&str, Span>,
    unique: &HashSet<&str>,
) -> Vec<Problem> {
    let mut out = vec![];
    let has_query = stmts
        .iter()
        .any(|s| matches!(s.kind, JudgeStmtKind::Query(_)));
    for s in stmts {
        match &s.kind {
            JudgeStmtKind::Query(placed) => {
                let mut seen: HashMap<&str, Span> = HashMap::new();
                for n in placed {
                    match seen.get(n.text.as_str()) {
                        Some(first) if unique.contains(n.text.as_str()) => {
                            out.push(Problem::JudgeQueryRepeats {
                                name: n.text.clone(),
                                span: n.span.into(),
                                first: (*first).into(),
                            })
                        }
                        Some(_) => {}
                        None => {
                            seen.insert(&n.text, n.span);
                            out.extend(query_name(n, look, singles));
                        }
                    }
                }
            }
            JudgeStmtKind::Print(Outcome::Invalid, _) if !has_query => {
                out.push(Problem::JudgeInvalidWithoutQuery {
                    span: s.span.into(),
                })
            }
            _ => {}
        }
    }
    out
}

fn query_name(n: &Name, look: &Lookup, singles: &HashMap<&str, Span>) -> Option<Problem> {
    if let Some(p) = look.expect("piece or mark", n, &[Thing::Piece, Thing::Mark]) {
        return Some(p);
    }
    let declared = singles.get(n.text.as_str())?;
    Some(Problem::JudgeQuerySingleMark {
        mark: n.text.clone(),
        span: n.span.into(),
        declared: (*declared).into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::symbols::declare;
    use crate::syntax::parse;

    const DECLS: &str = "tiles { floor } marks { goal  exit single } piece man ";
    const GOOD: &str = "cases until 0 0 header rows, cols grid chars \
                        print solved \"{cost}\" print unsolved \"no\"";

    fn codes(judge: &str) -> Vec<String> {
        let file = parse(&format!("{DECLS} judge {{ {judge} }}")).expect("parses");
        let (syms, _) = declare(&file);
        check(&file, &syms).iter().map(|p| p.code_str()).collect()
    }

    #[test]
    fn a_good_format_has_no_problems() {
        assert!(codes(GOOD).is_empty());
        assert!(codes(
            "cases once header rows, cols, queries grid ints query man, goal, goal base 1 \
             print solved \"{cost}\" print unsolved \"-1\" print invalid \"-1\""
        )
        .is_empty());
    }

    #[test]
    fn an_until_header_must_match_the_header() {
        assert_eq!(
            codes(&GOOD.replace("until 0 0", "until 0 0 0")),
            ["puz::check::judge_until_arity"]
        );
    }

    #[test]
    fn statements_given_twice_are_rejected() {
        assert_eq!(
            codes(&format!("{GOOD} grid ints cases once base 1 base 2")),
            [
                "puz::check::judge_duplicate_statement",
                "puz::check::judge_duplicate_statement",
                "puz::check::judge_duplicate_statement"
            ]
        );
    }

    #[test]
    fn a_query_names_each_thing_once() {
        assert_eq!(
            codes(
                "cases once header rows, cols, queries grid ints query man, man \
                 print solved \"{cost}\" print unsolved \"-1\""
            ),
            ["puz::check::judge_query_repeats"]
        );
    }

    #[test]
    fn a_query_may_not_place_a_single_mark() {
        assert_eq!(
            codes(
                "cases once header rows, cols, queries grid ints query man, exit \
                 print solved \"{cost}\" print unsolved \"-1\""
            ),
            ["puz::check::judge_query_single_mark"]
        );
    }
}
