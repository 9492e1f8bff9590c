//! Lowering move statements: a move's parameter, its steps and cell expressions, its
//! conditions, and every statement of its body (slide rules included).

use pest::iterators::Pair;

use super::super::ast::*;
use super::{is_punct, span_of, Lowerer, Rule, OFFSET_LIMIT};
use crate::diagnostics::Problem;

impl Lowerer {
    pub(super) fn move_param(&self, p: Pair<Rule>) -> MoveParam {
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

    pub(super) fn step(&mut self, p: Pair<Rule>) -> Step {
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

    pub(super) fn cell_expr(&mut self, p: Pair<Rule>) -> CellExpr {
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
    pub(super) fn coord(&mut self, p: Pair<Rule>) -> Offset {
        let span = span_of(&p);
        let mut ints = p.into_inner().filter(|q| q.as_rule() == Rule::int);
        let dr = self.int(ints.next().expect("row")).value;
        let dc = self.int(ints.next().expect("column")).value;
        Offset { dr, dc, span }
    }

    pub(super) fn cmp(p: Pair<Rule>) -> CmpOp {
        match p.as_str() {
            "==" => CmpOp::Eq,
            "!=" => CmpOp::Ne,
            "<" => CmpOp::Lt,
            "<=" => CmpOp::Le,
            ">" => CmpOp::Gt,
            _ => CmpOp::Ge,
        }
    }

    pub(super) fn cond(&mut self, p: Pair<Rule>) -> CondNode {
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

    pub(super) fn place(&mut self, p: Pair<Rule>) -> Where {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let kw = it.next().expect("where keyword");
        match kw.as_rule() {
            Rule::kw_at => Where::At(self.cell_expr(it.next().expect("cell"))),
            Rule::kw_on => Where::On(self.name(it.next().expect("mark"))),
            _ => Where::Everywhere(span),
        }
    }

    pub(super) fn block(&mut self, p: Pair<Rule>) -> Vec<MoveStmt> {
        p.into_inner()
            .filter(|q| !is_punct(q.as_rule()))
            .map(|q| self.move_stmt(q))
            .collect()
    }

    pub(super) fn move_stmt(&mut self, p: Pair<Rule>) -> MoveStmt {
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

    pub(super) fn slide_rule(&self, r: Pair<Rule>) -> SlideRule {
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
}
