//! Compiling moves: a `move` declaration to its [`MoveProgram`], statement by statement,
//! with the steps, cells, piece variables (`as` names) and conditions they are made of.

use crate::syntax::ast::{self, MoveStmtKind};

use super::{
    id16, AttrOf, AttrRhs, Base, Cell, CellRef, Compiler, Cond, DirId, Model, MoveProgram, Op,
    Param, PieceId, Place, PoseId, Scope, SlideEvent, SlideRule, Step, Subject, TilePlace,
};

impl Compiler<'_> {
    pub(super) fn step(&self, param: Option<&str>, st: &ast::Step) -> Step {
        let dir = st.dir.text.as_str();
        Step {
            fixed: if Some(dir) == param {
                None
            } else {
                Some(DirId(id16(
                    self.syms.dirs.get(dir).expect("checked direction"),
                )))
            },
            negate: st.negate,
            times: st.times as i32,
        }
    }

    /// A step written after `+` or `-` in a cell expression.
    pub(super) fn signed_step(&self, param: Option<&str>, neg: bool, st: &ast::Step) -> Step {
        let mut s = self.step(param, st);
        s.negate ^= neg;
        s
    }

    /// A piece name acted on: its kind and, for an alias, the alias index.
    pub(super) fn var(&self, name: &str, scope: &Scope) -> (PieceId, Option<u16>) {
        match scope.aliases.iter().rposition(|(a, _)| a == name) {
            Some(i) => (scope.aliases[i].1, Some(scope.alias_ids[i])),
            None => (self.piece(name), None),
        }
    }

    pub(super) fn cell(&self, c: &ast::CellExpr, scope: &Scope, param: Option<&str>) -> Cell {
        let base = match &c.base {
            ast::CellBase::Coord(o) => Base::Abs(o.dr as i32, o.dc as i32),
            ast::CellBase::Name(n) => {
                if let Some(depth) = scope.cells.iter().rev().position(|v| *v == n.text) {
                    Base::Var(depth as u16)
                } else if scope.cell_param.as_deref() == Some(n.text.as_str()) {
                    Base::Param
                } else {
                    let (k, a) = self.var(&n.text, scope);
                    Base::Piece(k, a)
                }
            }
        };
        Cell {
            base,
            steps: c
                .steps
                .iter()
                .map(|(neg, st)| self.signed_step(param, *neg, st))
                .collect(),
        }
    }

    /// A condition; `bind` says whether a piece found by a top-level `at` is bound.
    pub(super) fn cond(
        &self,
        c: &ast::CondNode,
        scope: &mut Scope,
        param: Option<&str>,
        bind: bool,
    ) -> Cond {
        match &c.cond {
            ast::Cond::At {
                what,
                pose,
                cell,
                alias,
            } => {
                let cell = self.cell(cell, scope, param);
                let pose = pose.as_ref().map(|p| self.pose(&what.text, &p.text));
                let named = scope.aliases.iter().rposition(|(a, _)| *a == what.text);
                let of = named.map(|i| scope.alias_ids[i]);
                let subject = match named {
                    Some(i) => Subject::Piece(scope.aliases[i].1),
                    None => self.subject(&what.text),
                };
                let bind = match (subject, alias) {
                    (Subject::Piece(k), Some(a)) if bind => {
                        let id = scope.next_alias;
                        scope.next_alias += 1;
                        scope.aliases.push((a.text.clone(), k));
                        scope.alias_ids.push(id);
                        scope.kinds.push(k);
                        Some((k, Some(id)))
                    }
                    (Subject::Piece(k), None) if bind => Some((k, None)),
                    _ => None,
                };
                Cond::At {
                    subject,
                    pose,
                    of,
                    cell,
                    bind,
                }
            }
            ast::Cond::On { piece, on } => {
                let (k, alias) = self.var(&piece.piece.text, scope);
                let kname = &self.syms_piece_name(k);
                Cond::On {
                    piece: k,
                    alias,
                    pose: piece.pose.as_ref().map(|p| self.pose(kname, &p.text)),
                    place: self.place(&on.text),
                }
            }
            ast::Cond::Count { what, op, value } => Cond::Count {
                what: self.subject(&what.text),
                op: *op,
                value: value.value,
            },
            ast::Cond::Attr { left, op, right } => {
                let of = |r: &ast::AttrRef| {
                    let (piece, alias) = self.var(&r.piece.text, scope);
                    let attr = self
                        .attributes
                        .iter()
                        .position(|a| *a == r.attr.text)
                        .expect("checked attribute");
                    AttrOf {
                        piece,
                        alias,
                        attr: id16(attr),
                    }
                };
                Cond::Attr {
                    left: of(left),
                    op: *op,
                    right: match right {
                        ast::AttrOperand::Int(v) => AttrRhs::Value(v.value),
                        ast::AttrOperand::Attr(r) => AttrRhs::Attr(of(r)),
                    },
                }
            }
            ast::Cond::Counter { name, op, value } => Cond::Counter {
                id: id16(self.syms.counter_id(&name.text).expect("checked counter")),
                op: *op,
                value: value.value,
            },
            ast::Cond::Not(inner) => Cond::Not(Box::new(self.cond(inner, scope, param, false))),
            ast::Cond::And(parts) => Cond::And(
                parts
                    .iter()
                    .map(|p| self.cond(p, scope, param, bind))
                    .collect(),
            ),
            ast::Cond::Or(parts) => Cond::Or(
                parts
                    .iter()
                    .map(|p| self.cond(p, scope, param, false))
                    .collect(),
            ),
        }
    }

    /// A move's program, and the statement of each of its ops in `walk_ops` order.
    pub(super) fn move_program(
        &self,
        mv: &ast::MoveDecl,
        m: &Model,
    ) -> (MoveProgram, Vec<miette::SourceSpan>) {
        let nd = m.dirs.len();
        let (param, dir_param, prm) = match &mv.param {
            ast::MoveParam::Dir { name, only } => (
                Param::Dirs(match only {
                    None => (0..nd).map(|d| DirId(d as u16)).collect(),
                    Some(list) => {
                        let mut ds: Vec<DirId> = list
                            .iter()
                            .map(|n| DirId(id16(self.syms.dirs.get(&n.text).expect("checked"))))
                            .collect();
                        ds.sort_unstable();
                        ds.dedup();
                        ds
                    }
                }),
                Some(name.text.as_str()),
                None,
            ),
            ast::MoveParam::Cell(name) => (Param::Cell, None, Some(name.text.clone())),
        };
        let mut prog = MoveProgram {
            name: mv.name.text.clone(),
            letters: match &param {
                Param::Cell => vec![mv.name.text.clone()],
                Param::Dirs(_) => m.dirs.iter().map(|d| d.name.clone()).collect(),
            },
            adds: vec![0; m.costs.len()],
            ops: vec![],
            param,
            aliases: vec![],
        };
        let mut scope = Scope {
            cell_param: prm,
            ..Scope::default()
        };
        for st in &mv.body {
            match &st.kind {
                MoveStmtKind::Letters(s) => {
                    let letters: Vec<String> = s.value.chars().map(String::from).collect();
                    prog.letters = match &prog.param {
                        Param::Dirs(ds) if ds.len() < nd => {
                            let mut full = vec![String::new(); nd];
                            for (d, l) in ds.iter().zip(letters) {
                                full[d.index()] = l;
                            }
                            full
                        }
                        _ => letters,
                    };
                }
                MoveStmtKind::Adds(names) => {
                    for n in names {
                        if let Some(i) = m.costs.iter().position(|c| *c == n.text) {
                            prog.adds[i] += 1;
                        }
                    }
                }
                _ => {
                    if let Some(op) = self.op(st, &mut scope, dir_param, m) {
                        prog.ops.push(op);
                    }
                }
            }
        }
        prog.aliases = scope.kinds;
        (prog, scope.spans)
    }

    /// The ops of a block.
    pub(super) fn block(
        &self,
        body: &[ast::MoveStmt],
        scope: &mut Scope,
        param: Option<&str>,
        m: &Model,
    ) -> Vec<Op> {
        body.iter()
            .filter_map(|st| self.op(st, scope, param, m))
            .collect()
    }

    /// One statement as an op (`letters` and `adds` are not ops).
    pub(super) fn op(
        &self,
        st: &ast::MoveStmt,
        scope: &mut Scope,
        param: Option<&str>,
        m: &Model,
    ) -> Option<Op> {
        let nd = m.dirs.len();
        if matches!(st.kind, MoveStmtKind::Letters(_) | MoveStmtKind::Adds(_)) {
            return None;
        }
        // Before the nested statements, so the list follows `walk_ops` order.
        scope.spans.push(st.span.into());
        Some(match &st.kind {
            MoveStmtKind::Letters(_) | MoveStmtKind::Adds(_) => return None,
            MoveStmtKind::Require(cond) | MoveStmtKind::Forbid(cond) => {
                let want = matches!(st.kind, MoveStmtKind::Require(_));
                // The seed form `what at piece [+|- d]` keeps its own op.
                if let ast::Cond::At {
                    what,
                    pose: None,
                    cell,
                    alias: None,
                } = &cond.cond
                {
                    let simple_base = match &cell.base {
                        ast::CellBase::Name(n) => {
                            !scope.cells.contains(&n.text)
                                && scope.cell_param.as_deref() != Some(n.text.as_str())
                                && !scope.aliases.iter().any(|(a, _)| *a == n.text)
                                && !scope.aliases.iter().any(|(a, _)| *a == what.text)
                        }
                        ast::CellBase::Coord(_) => false,
                    };
                    if simple_base && cell.steps.len() <= 1 {
                        let ast::CellBase::Name(n) = &cell.base else {
                            unreachable!("checked above")
                        };
                        return Some(Op::Test {
                            subject: self.subject(&what.text),
                            cell: CellRef {
                                piece: self.piece(&n.text),
                                step: cell
                                    .steps
                                    .first()
                                    .map(|(neg, d)| self.signed_step(param, *neg, d)),
                            },
                            want,
                        });
                    }
                }
                Op::Check {
                    cond: self.cond(cond, scope, param, want),
                    want,
                }
            }
            MoveStmtKind::Shift { piece, each, step } => {
                let (k, alias) = self.var(&piece.text, scope);
                Op::Shift {
                    piece: k,
                    step: self.step(param, step),
                    alias,
                    each: *each,
                }
            }
            MoveStmtKind::Swap { piece, step } => {
                let (k, alias) = self.var(&piece.text, scope);
                Op::Swap {
                    piece: k,
                    step: self.step(param, step),
                    alias,
                }
            }
            MoveStmtKind::Turn { piece, rules } => {
                let (pid, alias) = self.var(&piece.text, scope);
                let pname = self.syms_piece_name(pid);
                let np = m.pieces[pid.index()].poses.len();
                let mut table = vec![None; np * nd];
                for r in rules {
                    let from = self.pose(&pname, &r.from.text);
                    let to = self.pose(&pname, &r.to.text);
                    let d = self.syms.dirs.get(&r.dir.text).expect("checked direction");
                    table[from.index() * nd + d] =
                        Some((to, r.offset.dr as i32, r.offset.dc as i32));
                }
                Op::Turn {
                    piece: pid,
                    table,
                    alias,
                }
            }
            MoveStmtKind::Slide {
                piece,
                each,
                step,
                rules,
            } => {
                let (k, alias) = self.var(&piece.text, scope);
                Op::Slide {
                    piece: k,
                    step: self.step(param, step),
                    alias,
                    each: *each,
                    rules: rules
                        .iter()
                        .map(|r| {
                            let has = |a| r.actions.iter().any(|(x, _)| *x == a);
                            SlideRule {
                                event: match &r.event {
                                    ast::SlideEvent::Into(n) => {
                                        SlideEvent::Into(self.place(&n.text))
                                    }
                                    ast::SlideEvent::Before(n) => match self.subject(&n.text) {
                                        Subject::Piece(p) => SlideEvent::BeforePiece(p),
                                        Subject::Tile(t) => SlideEvent::BeforeTile(t),
                                        Subject::Mark(_) => {
                                            unreachable!("checked: before a tile or piece")
                                        }
                                    },
                                    ast::SlideEvent::OffBoard(_) => SlideEvent::OffBoard,
                                },
                                stop: has(ast::SlideAction::Stop),
                                brk: has(ast::SlideAction::Break),
                                lose: has(ast::SlideAction::Lose),
                            }
                        })
                        .collect(),
                }
            }
            MoveStmtKind::Remove(piece) => {
                let (k, alias) = self.var(&piece.text, scope);
                Op::Remove { piece: k, alias }
            }
            MoveStmtKind::Create { piece, at } => {
                let k = self.piece(&piece.piece.text);
                Op::Create {
                    piece: k,
                    pose: piece
                        .pose
                        .as_ref()
                        .map_or(PoseId(0), |p| self.pose(&piece.piece.text, &p.text)),
                    cell: self.cell(at, scope, param),
                }
            }
            MoveStmtKind::Change { from, to, place } => Op::Change {
                from: self.tile(&from.text),
                to: self.tile(&to.text),
                toggle: false,
                place: self.tile_place(place, scope, param),
            },
            MoveStmtKind::Toggle { a, b, place } => Op::Change {
                from: self.tile(&a.text),
                to: self.tile(&b.text),
                toggle: true,
                place: self.tile_place(place, scope, param),
            },
            MoveStmtKind::Counter { name, op, value } => Op::Count {
                id: id16(self.syms.counter_id(&name.text).expect("checked counter")),
                op: *op,
                value: value.value,
            },
            MoveStmtKind::If { cond, then, els } => {
                let (na, nc) = (scope.aliases.len(), scope.cells.len());
                let cond = self.cond(cond, scope, param, true);
                let then = self.block(then, scope, param, m);
                scope.aliases.truncate(na);
                scope.alias_ids.truncate(na);
                scope.cells.truncate(nc);
                let els = self.block(els, scope, param, m);
                scope.aliases.truncate(na);
                scope.alias_ids.truncate(na);
                scope.cells.truncate(nc);
                Op::If { cond, then, els }
            }
            MoveStmtKind::For { var, piece, body } => {
                let (k, alias) = self.var(&piece.text, scope);
                let (na, nc) = (scope.aliases.len(), scope.cells.len());
                scope.cells.push(var.text.clone());
                let body = self.block(body, scope, param, m);
                scope.aliases.truncate(na);
                scope.alias_ids.truncate(na);
                scope.cells.truncate(nc);
                Op::ForCells {
                    piece: k,
                    alias,
                    body,
                }
            }
        })
    }

    pub(super) fn tile_place(
        &self,
        w: &ast::Where,
        scope: &Scope,
        param: Option<&str>,
    ) -> TilePlace {
        match w {
            ast::Where::At(c) => TilePlace::At(self.cell(c, scope, param)),
            ast::Where::Everywhere(_) => TilePlace::All,
            ast::Where::On(mk) => match self.place(&mk.text) {
                Place::Mark(id) => TilePlace::Mark(id),
                Place::Tile(_) => unreachable!("checked: a mark"),
            },
        }
    }
}
