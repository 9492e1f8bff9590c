//! Stage 3: a checked AST to a [`Model`]: names become ids, moves become op programs.

mod dump;
pub mod model;

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
        levels: vec![],
        judge: None,
        facts: Default::default(),
    };
    let c = Compiler { syms };
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
            ItemKind::Piece(p) => m.pieces.push(PieceKind {
                name: p.name.text.clone(),
                anonymous: p.anonymous,
                poses: match &p.poses {
                    Some(ps) => ps
                        .iter()
                        .map(|pose| Pose {
                            name: pose.name.text.clone(),
                            cells: pose
                                .cells
                                .iter()
                                .map(|o| (o.dr as i32, o.dc as i32))
                                .collect(),
                        })
                        .collect(),
                    None => vec![Pose {
                        name: "cell".to_string(),
                        cells: vec![(0, 0)],
                    }],
                },
            }),
            ItemKind::Legend(es) => {
                m.legend = es
                    .iter()
                    .map(|e| {
                        let mut s = Symbol {
                            key: key_value(&e.key),
                            tile: c.tile(&e.tile.text),
                            pieces: vec![],
                            marks: vec![],
                        };
                        for x in &e.extras {
                            match c.syms.resolve(&x.text) {
                                Some((Thing::Piece, id)) => s.pieces.push(PieceId(id16(id))),
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
            ItemKind::Limit(v) => m.limit = Some(v.value as u32),
            ItemKind::Forbid(f) => m.forbids.push(Forbid {
                piece: c.piece(&f.piece.piece.text),
                pose: f
                    .piece
                    .pose
                    .as_ref()
                    .map(|p| c.pose(&f.piece.piece.text, &p.text)),
                place: c.place(&f.tile.text),
            }),
            ItemKind::Goal(gs) => {
                m.goal = gs
                    .iter()
                    .map(|g| GoalCond {
                        piece: c.piece(&g.piece.piece.text),
                        pose: g
                            .piece
                            .pose
                            .as_ref()
                            .map(|p| c.pose(&g.piece.piece.text, &p.text)),
                        on: c.place(&g.on.text),
                    })
                    .collect()
            }
            ItemKind::Level(l) => m.levels.push(LevelText {
                name: l.name.value.clone(),
                form: l.form.map_or(GridForm::Chars, grid_form),
                rows: l.rows.clone(),
                row_starts: l.row_starts.clone(),
                span: l.text.into(),
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
            ItemKind::Move(_) | ItemKind::Cost(_) => {}
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
            m.moves.push(c.move_program(mv, &m));
        }
    }
    m.learn_facts();
    m
}

struct Compiler<'a> {
    syms: &'a Symbols,
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
            None => unreachable!("checked subject `{name}`"),
        }
    }

    fn step(&self, param: &str, dir: &str, negate: bool) -> Step {
        Step {
            fixed: if dir == param {
                None
            } else {
                Some(DirId(id16(
                    self.syms.dirs.get(dir).expect("checked direction"),
                )))
            },
            negate,
        }
    }

    fn move_program(&self, mv: &ast::MoveDecl, m: &Model) -> MoveProgram {
        let param = mv.param.text.as_str();
        let nd = m.dirs.len();
        let mut prog = MoveProgram {
            name: mv.name.text.clone(),
            letters: m.dirs.iter().map(|d| d.name.clone()).collect(),
            adds: vec![0; m.costs.len()],
            ops: vec![],
        };
        for st in &mv.body {
            match &st.kind {
                MoveStmtKind::Letters(s) => {
                    prog.letters = s.value.chars().map(String::from).collect()
                }
                MoveStmtKind::Adds(names) => {
                    for n in names {
                        if let Some(i) = m.costs.iter().position(|c| *c == n.text) {
                            prog.adds[i] += 1;
                        }
                    }
                }
                MoveStmtKind::Require(cond) | MoveStmtKind::Forbid(cond) => {
                    prog.ops.push(Op::Test {
                        subject: self.subject(&cond.what.text),
                        cell: CellRef {
                            piece: self.piece(&cond.cell.piece.text),
                            step: cond
                                .cell
                                .step
                                .as_ref()
                                .map(|(neg, d)| self.step(param, &d.text, *neg)),
                        },
                        want: matches!(st.kind, MoveStmtKind::Require(_)),
                    })
                }
                MoveStmtKind::Shift { piece, negate, dir } => prog.ops.push(Op::Shift {
                    piece: self.piece(&piece.text),
                    step: self.step(param, &dir.text, *negate),
                }),
                MoveStmtKind::Swap { piece, dir } => prog.ops.push(Op::Swap {
                    piece: self.piece(&piece.text),
                    step: self.step(param, &dir.text, false),
                }),
                MoveStmtKind::Turn { piece, rules } => {
                    let pid = self.piece(&piece.text);
                    let np = m.pieces[pid.index()].poses.len();
                    let mut table = vec![None; np * nd];
                    for r in rules {
                        let from = self.pose(&piece.text, &r.from.text);
                        let to = self.pose(&piece.text, &r.to.text);
                        let d = self.syms.dirs.get(&r.dir.text).expect("checked direction");
                        table[from.index() * nd + d] =
                            Some((to, r.offset.dr as i32, r.offset.dc as i32));
                    }
                    prog.ops.push(Op::Turn { piece: pid, table });
                }
                MoveStmtKind::Slide { piece, dir, rules } => prog.ops.push(Op::Slide {
                    piece: self.piece(&piece.text),
                    step: self.step(param, &dir.text, false),
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
                }),
            }
        }
        prog
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
                        negate: true
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
