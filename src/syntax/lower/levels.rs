//! Lowering levels and judge statements: a level's text block split into rows, its
//! expectations, and the statements of a `judge` declaration.

use pest::iterators::Pair;

use super::super::ast::*;
use super::{is_punct, span_of, Lowerer, Rule, EXPECT_LIMIT};
use crate::diagnostics::Problem;

impl Lowerer {
    /// A text block's rows and their starts (a problem is recorded when malformed).
    pub(super) fn text_rows(&mut self, block: Pair<Rule>) -> (Vec<String>, Vec<u32>) {
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

    pub(super) fn level(&mut self, rest: Vec<Pair<Rule>>) -> LevelDecl {
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
    pub(super) fn expect(&mut self, p: Pair<Rule>) -> ExpectClause {
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

    pub(super) fn judge_stmt(&mut self, p: Pair<Rule>) -> JudgeStmt {
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
