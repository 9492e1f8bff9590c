//! Stage 3: a checked AST to a [`Model`]: names become ids, moves become op programs.

mod dump;
pub(crate) mod model;

pub use dump::dump;
pub use model::*;

use crate::check::{Symbols, Thing};
use crate::syntax::ast::{self, ItemKind, JudgeStmtKind, MoveStmtKind, Outcome};

/// An index the checker counted, as a 16-bit id. [`crate::check::limits`] rejects every
/// file whose counts do not fit, so this never fails on a checked file.
fn id16(index: usize) -> u16 {
    u16::try_from(index).expect("check::limits keeps every id within 16 bits")
}

/// The model's own grid form for the AST's.
fn grid_form(f: ast::GridForm) -> GridForm {
    match f {
        ast::GridForm::Chars => GridForm::Chars,
        ast::GridForm::Ints => GridForm::Ints,
    }
}

/// The model's own legend key for the AST's.
fn key_value(k: &ast::KeyValue) -> KeyValue {
    match k {
        ast::KeyValue::Char(c) => KeyValue::Char(*c),
        ast::KeyValue::Int(i) => KeyValue::Int(*i),
    }
}

/// The model's own header field for the AST's.
fn header_field(f: ast::HeaderField) -> HeaderField {
    match f {
        ast::HeaderField::Rows => HeaderField::Rows,
        ast::HeaderField::Cols => HeaderField::Cols,
        ast::HeaderField::Queries => HeaderField::Queries,
    }
}

/// Compiles a file that [`crate::check::check`] accepted.
pub(crate) fn compile(file: &ast::File, syms: &Symbols) -> Model {
    let mut m = Model {
        title: String::new(),
        tiles: vec![],
        outside: None,
        marks: vec![],
        pieces: vec![],
        legend: vec![],
        dirs: vec![],
        costs: syms.costs.names().map(str::to_string).collect(),
        limit: None,
        moves: vec![],
        forbids: vec![],
        goal: vec![],
        goal_rest: vec![],
        counters: vec![],
        levels: vec![],
        metrics: vec![],
        attributes: vec![],
        judge: None,
        facts: Default::default(),
        spans: Spans::default(),
    };
    // Attribute names in order of first declaration.
    for item in &file.items {
        if let ItemKind::Piece(p) = &item.kind {
            let poses = p.poses.iter().flatten().flat_map(|q| &q.attrs);
            for a in p.attrs.iter().chain(poses) {
                if !m.attributes.contains(&a.name.text) {
                    m.attributes.push(a.name.text.clone());
                }
            }
        }
    }
    let c = Compiler {
        syms,
        attributes: m.attributes.clone(),
    };
    // Metric names in declaration order (the checker reported repeats; the first wins).
    let mut metric_names: Vec<&str> = vec![];
    for item in &file.items {
        if let ItemKind::Metric(d) = &item.kind {
            if !metric_names.contains(&d.name.text.as_str()) {
                metric_names.push(&d.name.text);
            }
        }
    }
    let expect = |e: &ast::ExpectClause| match &e.cost {
        None => Expect::Unsolvable,
        Some(v) => Expect::Cost(v.iter().map(|i| i.value.max(0) as u64).collect()),
    };
    for item in &file.items {
        match &item.kind {
            ItemKind::Puzzle(t) => m.title = t.value.clone(),
            ItemKind::Tiles(ts) => {
                m.tiles = ts
                    .iter()
                    .map(|t| TileKind {
                        name: t.name.text.clone(),
                        becomes: t.becomes.as_ref().map(|b| c.tile(&b.text)),
                    })
                    .collect()
            }
            ItemKind::Outside(t) => m.outside = Some(c.tile(&t.text)),
            ItemKind::Piece(p) => {
                // A pose's own value overrides the piece's.
                let values = |own: &[ast::AttrDef]| -> Vec<Option<i64>> {
                    if m.attributes.is_empty() {
                        return vec![];
                    }
                    m.attributes
                        .iter()
                        .map(|name| {
                            let find = |l: &[ast::AttrDef]| {
                                l.iter()
                                    .find(|a| a.name.text == *name)
                                    .map(|a| a.value.value)
                            };
                            find(own).or_else(|| find(&p.attrs))
                        })
                        .collect()
                };
                let poses = match &p.poses {
                    Some(ps) => ps
                        .iter()
                        .map(|pose| Pose {
                            name: pose.name.text.clone(),
                            cells: pose
                                .cells
                                .iter()
                                .map(|o| (o.dr as i32, o.dc as i32))
                                .collect(),
                            values: values(&pose.attrs),
                        })
                        .collect(),
                    None => vec![Pose {
                        name: "cell".to_string(),
                        cells: vec![(0, 0)],
                        values: values(&[]),
                    }],
                };
                m.pieces.push(PieceKind {
                    name: p.name.text.clone(),
                    anonymous: p.anonymous,
                    max: p.max.map(|v| v.value.max(0) as u32),
                    poses,
                })
            }
            ItemKind::Legend(es) => {
                m.legend = es
                    .iter()
                    .map(|e| {
                        let mut s = Symbol {
                            key: key_value(&e.key),
                            tile: c.tile(&e.tile.text),
                            pieces: vec![],
                            poses: vec![],
                            marks: vec![],
                        };
                        for x in &e.extras {
                            match c.syms.resolve(&x.piece.text) {
                                Some((Thing::Piece, id)) => {
                                    s.pieces.push(PieceId(id16(id)));
                                    s.poses.push(
                                        x.pose.as_ref().map(|q| c.pose(&x.piece.text, &q.text)),
                                    );
                                }
                                Some((Thing::Mark, id)) => s.marks.push(MarkId(id16(id))),
                                _ => {}
                            }
                        }
                        s
                    })
                    .collect()
            }
            ItemKind::Dirs(ds) => {
                m.dirs = ds
                    .iter()
                    .map(|d| Dir {
                        name: d.name.text.clone(),
                        dr: d.step.dr as i32,
                        dc: d.step.dc as i32,
                    })
                    .collect()
            }
            ItemKind::Limit(v) => {
                m.limit = Some(v.value as u32);
                m.spans.limit = Some(item.span.into());
            }
            ItemKind::Forbid(f) => {
                m.spans.forbids.push(item.span.into());
                m.forbids.push(Forbid {
                    piece: c.piece(&f.piece.piece.text),
                    pose: f
                        .piece
                        .pose
                        .as_ref()
                        .map(|p| c.pose(&f.piece.piece.text, &p.text)),
                    place: c.place(&f.tile.text),
                })
            }
            ItemKind::Goal(g) => {
                let mut scope = Scope::default();
                let conjuncts = match &g.cond {
                    ast::Cond::And(parts) => parts.iter().collect(),
                    _ => vec![g],
                };
                for part in conjuncts {
                    match &part.cond {
                        ast::Cond::On { piece, on } => {
                            m.spans.goal.push(part.span.into());
                            m.goal.push(GoalCond {
                                piece: c.piece(&piece.piece.text),
                                pose: piece
                                    .pose
                                    .as_ref()
                                    .map(|p| c.pose(&piece.piece.text, &p.text)),
                                on: c.place(&on.text),
                            })
                        }
                        _ => {
                            let cond = c.cond(part, &mut scope, None, false);
                            m.spans.goal_rest.push(part.span.into());
                            m.goal_rest.push(cond)
                        }
                    }
                }
            }
            ItemKind::Counter(k) => m.counters.push(Counter {
                name: k.name.text.clone(),
                max: k.max.value.max(0) as u32,
                start: k.start.map_or(0, |v| v.value.max(0) as u32),
            }),
            ItemKind::Level(l) => m.levels.push(LevelText {
                name: l.name.value.clone(),
                form: l.form.map_or(GridForm::Chars, grid_form),
                rows: l.rows.clone(),
                row_starts: l.row_starts.clone(),
                span: l.text.into(),
                picture: l
                    .goal
                    .as_ref()
                    .map(|(rows, starts, span)| (rows.clone(), starts.clone(), (*span).into())),
                expect: l.expects.iter().find(|e| e.metric.is_none()).map(expect),
                metric_expects: l
                    .expects
                    .iter()
                    .filter_map(|e| {
                        let name = e.metric.as_ref()?;
                        let i = metric_names.iter().position(|&n| n == name.text)?;
                        Some((i, expect(e)))
                    })
                    .collect(),
            }),
            ItemKind::Judge(stmts) => m.judge = Some(c.judge(stmts)),
            ItemKind::Marks(ks) => {
                m.marks = ks
                    .iter()
                    .map(|k| MarkKind {
                        name: k.name.text.clone(),
                        single: k.single,
                    })
                    .collect()
            }
            ItemKind::Move(_) | ItemKind::Cost(_) | ItemKind::Metric(_) => {}
        }
    }
    // Moves last: turn tables need every direction.
    let default_form = m.default_form();
    for l in m
        .levels
        .iter_mut()
        .zip(file.items.iter().filter_map(|i| match &i.kind {
            ItemKind::Level(l) => Some(l),
            _ => None,
        }))
    {
        if l.1.form.is_none() {
            l.0.form = default_form;
        }
    }
    for item in &file.items {
        if let ItemKind::Move(mv) = &item.kind {
            let (prog, spans) = c.move_program(mv, &m);
            m.moves.push(prog);
            m.spans.moves.push(mv.name.span.into());
            m.spans.ops.push(spans);
        }
    }
    for item in &file.items {
        if let ItemKind::Metric(d) = &item.kind {
            if m.metrics.iter().any(|x| x.name == d.name.text) {
                continue;
            }
            let mut combine = vec![None; m.moves.len()];
            for g in &d.groups {
                for n in &g.moves {
                    if let Some(i) = m.moves.iter().position(|mv| mv.name == n.text) {
                        combine[i].get_or_insert(g.combine);
                    }
                }
            }
            m.metrics.push(Metric {
                name: d.name.text.clone(),
                combine,
            });
        }
    }
    m.learn_facts();
    m
}

struct Compiler<'a> {
    syms: &'a Symbols,
    /// [`Model::attributes`].
    attributes: Vec<String>,
}

/// Names in scope while a move compiles.
#[derive(Default)]
struct Scope {
    /// The cell parameter's name, for per-cell moves.
    cell_param: Option<String>,
    /// `as` names in scope and their kinds, innermost last.
    aliases: Vec<(String, PieceId)>,
    /// The alias index of each name in `aliases`.
    alias_ids: Vec<u16>,
    /// `for` loop cells, innermost last.
    cells: Vec<String>,
    /// The next alias index.
    next_alias: u16,
    /// The kind of every alias index.
    kinds: Vec<PieceId>,
    /// The statement of every op compiled so far, in `walk_ops` order.
    spans: Vec<miette::SourceSpan>,
}

impl Compiler<'_> {
    fn tile(&self, name: &str) -> TileId {
        TileId(id16(self.syms.tile_id(name).expect("checked tile")))
    }

    fn piece(&self, name: &str) -> PieceId {
        PieceId(id16(self.syms.piece_id(name).expect("checked piece")))
    }

    fn pose(&self, piece: &str, pose: &str) -> PoseId {
        PoseId(id16(self.syms.pose_id(piece, pose).expect("checked pose")))
    }

    fn place(&self, name: &str) -> Place {
        match self.syms.resolve(name) {
            Some((Thing::Mark, id)) => Place::Mark(MarkId(id16(id))),
            Some((_, id)) => Place::Tile(TileId(id16(id))),
            None => unreachable!("checked place `{name}`"),
        }
    }

    fn subject(&self, name: &str) -> Subject {
        match self.syms.resolve(name) {
            Some((Thing::Piece, id)) => Subject::Piece(PieceId(id16(id))),
            Some((Thing::Mark, id)) => Subject::Mark(MarkId(id16(id))),
            Some((Thing::Tile, id)) => Subject::Tile(TileId(id16(id))),
            Some((Thing::Counter, _)) | None => unreachable!("checked subject `{name}`"),
        }
    }

    fn step(&self, param: Option<&str>, st: &ast::Step) -> Step {
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
    fn signed_step(&self, param: Option<&str>, neg: bool, st: &ast::Step) -> Step {
        let mut s = self.step(param, st);
        s.negate ^= neg;
        s
    }

    /// A piece name acted on: its kind and, for an alias, the alias index.
    fn var(&self, name: &str, scope: &Scope) -> (PieceId, Option<u16>) {
        match scope.aliases.iter().rposition(|(a, _)| a == name) {
            Some(i) => (scope.aliases[i].1, Some(scope.alias_ids[i])),
            None => (self.piece(name), None),
        }
    }

    fn cell(&self, c: &ast::CellExpr, scope: &Scope, param: Option<&str>) -> Cell {
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
    fn cond(&self, c: &ast::CondNode, scope: &mut Scope, param: Option<&str>, bind: bool) -> Cond {
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

    fn syms_piece_name(&self, k: PieceId) -> String {
        self.syms
            .names_of(&[Thing::Piece])
            .nth(k.index())
            .expect("a known piece")
            .to_string()
    }

    /// A move's program, and the statement of each of its ops in `walk_ops` order.
    fn move_program(
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
    fn block(
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
    fn op(
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

    fn tile_place(&self, w: &ast::Where, scope: &Scope, param: Option<&str>) -> TilePlace {
        match w {
            ast::Where::At(c) => TilePlace::At(self.cell(c, scope, param)),
            ast::Where::Everywhere(_) => TilePlace::All,
            ast::Where::On(mk) => match self.place(&mk.text) {
                Place::Mark(id) => TilePlace::Mark(id),
                Place::Tile(_) => unreachable!("checked: a mark"),
            },
        }
    }

    fn judge(&self, stmts: &[ast::JudgeStmt]) -> JudgeFormat {
        let mut j = JudgeFormat {
            until: None,
            header: vec![],
            grid: GridForm::Chars,
            query: vec![],
            base: 0,
            solved: String::new(),
            unsolved: String::new(),
            invalid: None,
        };
        for s in stmts {
            match &s.kind {
                JudgeStmtKind::CasesUntil(v) => j.until = Some(v.iter().map(|i| i.value).collect()),
                JudgeStmtKind::CasesOnce => j.until = None,
                JudgeStmtKind::Header(f) => {
                    j.header = f.iter().map(|(h, _)| header_field(*h)).collect()
                }
                JudgeStmtKind::Grid(g) => j.grid = grid_form(*g),
                JudgeStmtKind::Query(names) => {
                    j.query = names.iter().map(|n| self.subject(&n.text)).collect()
                }
                JudgeStmtKind::Base(b) => j.base = b.value,
                JudgeStmtKind::Print(Outcome::Solved, t) => j.solved = t.value.clone(),
                JudgeStmtKind::Print(Outcome::Unsolved, t) => j.unsolved = t.value.clone(),
                JudgeStmtKind::Print(Outcome::Invalid, t) => j.invalid = Some(t.value.clone()),
            }
        }
        j
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(src: &str) -> Model {
        let file = crate::syntax::parse(src).expect("parses");
        let syms = crate::check::check(&file).expect("checks");
        compile(&file, &syms)
    }

    const SRC: &str = "tiles { floor wall ice -> floor } marks { exit } piece man
        piece box anonymous { pose a { (0, 0) } pose b { (0, 0) (0, 1) } }
        legend { '.' floor 'M' floor + man 'B' floor + box + exit 3 wall }
        dirs { w (0, -1) e (0, 1) } cost pushes
        move walk(d) { letters \"<>\" adds pushes require wall at man - d shift man d }
        forbid box.b on wall goal man on exit
        judge { cases once header rows, cols grid ints print solved \"{cost}\" print unsolved \"-\" }";

    #[test]
    fn names_become_ids_in_declaration_order() {
        let m = model(SRC);
        assert_eq!(m.tiles[2].becomes, Some(TileId(0)));
        assert_eq!(m.legend[2].pieces, [PieceId(1)]);
        assert_eq!(m.legend[2].marks, [MarkId(0)]);
        assert_eq!(m.legend[3].key, KeyValue::Int(3));
        assert_eq!(m.default_form(), GridForm::Chars);
        assert_eq!(m.forbids[0].pose, Some(PoseId(1)));
        assert_eq!(m.moves[0].letters, ["<", ">"]);
        assert_eq!(m.moves[0].adds, [1]);
        assert!(matches!(
            m.moves[0].ops[0],
            Op::Test {
                subject: Subject::Tile(TileId(1)),
                cell: CellRef {
                    piece: PieceId(0),
                    step: Some(Step {
                        fixed: None,
                        negate: true,
                        times: 1
                    })
                },
                want: true
            }
        ));
        let judge = m.judge.expect("judge");
        assert_eq!(judge.header, [HeaderField::Rows, HeaderField::Cols]);
        assert_eq!(judge.grid, GridForm::Ints);
        assert_eq!(judge.until, None);
    }
}
