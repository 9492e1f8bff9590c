//! Stage 3: a checked AST to a [`Model`]: names become ids, moves become op programs.
//!
//! This file compiles the declarations (`compile`) and resolves names to ids;
//! `moves.rs` compiles each move to its op program, `model/` is what they produce, and
//! `dump.rs` prints it (`--dump`).

mod dump;
pub(crate) mod model;
mod moves;

pub use dump::dump;
pub use model::*;

use crate::check::{Symbols, Thing};
use crate::syntax::ast::{self, ItemKind, JudgeStmtKind, Outcome};

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
        looks: vec![],
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
            ItemKind::Look(defs) => m.looks.extend(defs.iter().filter_map(|d| c.look(d))),
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
    /// A checked `look` entry: its colours read, its sprite as colour indices.
    fn look(&self, d: &ast::LookDef) -> Option<Look> {
        let of = match self.syms.resolve(&d.name.text)? {
            (Thing::Tile, i) => LookOf::Tile(TileId(id16(i))),
            (Thing::Piece, i) => LookOf::Piece(PieceId(id16(i))),
            (Thing::Mark, i) => LookOf::Mark(MarkId(id16(i))),
            (Thing::Counter, _) => return None,
        };
        let colors = d
            .colors
            .iter()
            .filter_map(|c| crate::check::looks::parse_color(&c.text))
            .collect();
        let sprite = d.sprite.as_ref().map_or(vec![], |(rows, _, _)| {
            rows.iter()
                .map(|r| r.chars().map(|c| c.to_digit(10).map(|k| k as u8)).collect())
                .collect()
        });
        Some(Look { of, colors, sprite })
    }

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

    fn syms_piece_name(&self, k: PieceId) -> String {
        self.syms
            .names_of(&[Thing::Piece])
            .nth(k.index())
            .expect("a known piece")
            .to_string()
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
