//! What a level can hold in play: its pieces, tiles, marks and counter values, grown by
//! everything the moves that can apply may bring; the moves that never apply and the
//! goal conditions that never hold follow from it.

use std::collections::HashMap;

use miette::SourceSpan;

use crate::compile::{
    AssignOp, Base, Cell, CmpOp, Cond, LevelText, Model, Op, Place, Subject, TileId,
};
use crate::diagnostics::{quantity, Problem};

use super::super::level::Level;
use super::{grid_cell_span, place_name, span_at, GoalRef, MAX_ROUNDS};

/// An inclusive range of values a quantity can take in play.
type Range = (i64, i64);

/// What a level can hold in play: the level's start plus what the moves that can apply
/// bring (an over-approximation).
pub(super) struct Analysis<'m> {
    pub(super) model: &'m Model,
    pub(super) level: &'m Level,
    /// Per kind: copies at the start.
    pub(super) start: Vec<i64>,
    /// Per kind: room for copies (as the layout gives it).
    pub(super) room: Vec<i64>,
    /// Per kind: some possible move removes a copy.
    pub(super) removable: Vec<bool>,
    /// Per kind: some possible move creates a copy.
    pub(super) creatable: Vec<bool>,
    /// Per tile: cells holding it at the start.
    pub(super) tile_count: Vec<i64>,
    /// Per tile: some board cell may hold it in play.
    pub(super) tiles: Vec<bool>,
    /// Tile changes possible moves make: (from, to).
    pub(super) changes: Vec<(TileId, TileId)>,
    /// Per mark: cells carrying it.
    pub(super) mark_count: Vec<i64>,
    /// Per counter: the values it may take.
    pub(super) counters: Vec<Range>,
    /// Per move: it may apply.
    pub(super) possible: Vec<bool>,
    /// Some possible move breaks tiles.
    pub(super) breaks: bool,
}

impl<'m> Analysis<'m> {
    pub(super) fn new(model: &'m Model, level: &'m Level) -> Self {
        let nk = model.pieces.len();
        let mut start = vec![0i64; nk];
        for i in &level.instances {
            start[i.piece.index()] += 1;
        }
        let mut created = vec![false; nk];
        for m in &model.moves {
            crate::compile::walk_ops(&m.ops, &mut |op| {
                if let Op::Create { piece, .. } = op {
                    created[piece.index()] = true;
                }
            });
        }
        let room = (0..nk)
            .map(|k| {
                let p = &model.pieces[k];
                start[k]
                    .max(p.max.unwrap_or(0) as i64)
                    .max(i64::from(created[k] && !p.anonymous))
            })
            .collect();
        let mut tile_count = vec![0i64; model.tiles.len()];
        for t in &level.board.tiles {
            tile_count[t.index()] += 1;
        }
        let mut mark_count = vec![0i64; model.marks.len()];
        for &m in &level.board.marks {
            for (k, n) in mark_count.iter_mut().enumerate() {
                *n += i64::from(m >> k & 1 == 1);
            }
        }
        let mut a = Analysis {
            model,
            level,
            start,
            room,
            removable: vec![false; nk],
            creatable: vec![false; nk],
            tiles: tile_count.iter().map(|&n| n > 0).collect(),
            tile_count,
            changes: vec![],
            mark_count,
            counters: model
                .counters
                .iter()
                .map(|c| {
                    let s = c.start.min(c.max) as i64;
                    (s, s)
                })
                .collect(),
            possible: vec![false; model.moves.len()],
            breaks: false,
        };
        // Each round marks every move that may apply now; what they bring may let more
        // apply in the next. Past `MAX_ROUNDS` (only a long chain of moves each enabling
        // the next gets there) every move left counts as possible: never a false warning.
        for round in 0.. {
            let now: Vec<usize> = (0..model.moves.len())
                .filter(|&mi| {
                    !a.possible[mi]
                        && (round == MAX_ROUNDS || a.seq_fails(&model.moves[mi].ops, 0).is_none())
                })
                .collect();
            if now.is_empty() {
                break;
            }
            for mi in now {
                a.possible[mi] = true;
                a.add_effects(&model.moves[mi].ops);
            }
            a.settle();
        }
        a
    }

    /// Widens what the level can hold by everything `ops` may do.
    fn add_effects(&mut self, ops: &[Op]) {
        let model = self.model;
        let mut breaks = false;
        crate::compile::walk_ops(ops, &mut |op| match op {
            Op::Create { piece, .. } => self.creatable[piece.index()] = true,
            Op::Remove { piece, .. } => self.removable[piece.index()] = true,
            Op::Change {
                from, to, toggle, ..
            } => {
                self.changes.push((*from, *to));
                if *toggle {
                    self.changes.push((*to, *from));
                }
            }
            Op::Slide { rules, .. } => breaks |= rules.iter().any(|r| r.brk),
            Op::Count { id, op, value } => {
                let max = model.counters[*id as usize].max as i64;
                let r = &mut self.counters[*id as usize];
                let (down, up) = match op {
                    AssignOp::Add => (*value < 0, *value > 0),
                    AssignOp::Sub => (*value > 0, *value < 0),
                    AssignOp::Set => {
                        let v = (*value).clamp(0, max);
                        *r = (r.0.min(v), r.1.max(v));
                        (false, false)
                    }
                };
                if down {
                    r.0 = 0;
                }
                if up {
                    r.1 = max;
                }
            }
            _ => {}
        });
        if breaks && !self.breaks {
            self.breaks = true;
            for (t, kind) in model.tiles.iter().enumerate() {
                if let Some(b) = kind.becomes {
                    self.changes.push((TileId(t as u16), b));
                }
            }
        }
    }

    /// Brings the tiles up to date with the changes [`Analysis::add_effects`] added.
    fn settle(&mut self) {
        self.changes.sort_unstable();
        self.changes.dedup();
        self.tiles = self.closure(self.tiles.clone());
    }

    /// Every tile reachable from `from` by the possible changes (kept sorted by
    /// [`Analysis::settle`]): one visit per change.
    fn closure(&self, mut from: Vec<bool>) -> Vec<bool> {
        let mut stack: Vec<TileId> = (0..from.len())
            .filter(|&t| from[t])
            .map(|t| TileId(t as u16))
            .collect();
        while let Some(t) = stack.pop() {
            let lo = self.changes.partition_point(|c| c.0 < t);
            for &(_, b) in self.changes[lo..].iter().take_while(|c| c.0 == t) {
                if !from[b.index()] {
                    from[b.index()] = true;
                    stack.push(b);
                }
            }
        }
        from
    }

    /// The copies of kind `k` that may be on the board at once.
    fn copies(&self, k: usize) -> Range {
        let lo = if self.removable[k] { 0 } else { self.start[k] };
        let hi = if self.creatable[k] {
            self.room[k]
        } else {
            self.start[k]
        };
        (lo, hi)
    }

    /// The board cells that may hold tile `t` at once.
    fn tile_cells(&self, t: TileId) -> Range {
        let n = self.tile_count[t.index()];
        let lo = if self.changes.iter().any(|c| c.0 == t) {
            0
        } else {
            n
        };
        let hi = if self.changes.iter().any(|c| c.1 == t) {
            self.level.board.tiles.len() as i64
        } else {
            n
        };
        (lo, hi)
    }

    fn piece_name(&self, k: usize) -> &str {
        &self.model.pieces[k].name
    }

    /// "the level has no `box`, and no move creates one", when kind `k` can never be on
    /// the board.
    fn missing_piece(&self, k: usize) -> Option<String> {
        (self.copies(k).1 == 0).then(|| {
            format!(
                "the level has no `{}`, and no move creates one",
                self.piece_name(k)
            )
        })
    }

    /// Why tile `t` can be at no cell (off the board, the `outside` tile is there).
    fn missing_tile(&self, t: TileId) -> Option<String> {
        (!self.tiles[t.index()] && self.model.outside != Some(t)).then(|| {
            format!(
                "the level has no `{}` tile, and no move makes one",
                self.model.tiles[t.index()].name
            )
        })
    }

    /// Why mark `m` is on no cell.
    fn missing_mark(&self, m: usize) -> Option<String> {
        (self.mark_count[m] == 0).then(|| {
            format!(
                "no cell of the level has mark `{}`",
                self.model.marks[m].name
            )
        })
    }

    /// Why a cell expression never names a board cell: its piece is never on the board.
    fn missing_base(&self, c: &Cell) -> Option<String> {
        match c.base {
            Base::Piece(k, None) => self.missing_piece(k.index()),
            _ => None,
        }
    }

    /// The values `count(what)` may take, and how to say so.
    fn count_range(&self, what: Subject) -> (Range, String) {
        match what {
            Subject::Piece(k) => {
                let k = k.index();
                let r = self.copies(k);
                let name = self.piece_name(k);
                let text = if r.0 == r.1 {
                    format!(
                        "the level always has {} `{name}` (no move creates or removes one)",
                        r.0
                    )
                } else {
                    format!("the level has between {} and {} `{name}`", r.0, r.1)
                };
                (r, text)
            }
            Subject::Tile(t) => {
                let r = self.tile_cells(t);
                let name = &self.model.tiles[t.index()].name;
                let text = if r.0 == r.1 {
                    format!(
                        "`{name}` is always on {} (no move changes that)",
                        quantity(r.0 as u64, "cells")
                    )
                } else {
                    format!("`{name}` is on between {} and {} cells", r.0, r.1)
                };
                (r, text)
            }
            Subject::Mark(m) => {
                let n = self.mark_count[m.index()];
                let name = &self.model.marks[m.index()].name;
                (
                    (n, n),
                    format!("mark `{name}` is on {}", quantity(n as u64, "cells")),
                )
            }
        }
    }

    /// The values counter `id` may take, and how to say so.
    fn counter_range(&self, id: u16) -> (Range, String) {
        let r = self.counters[id as usize];
        let name = &self.model.counters[id as usize].name;
        let text = if r.0 == r.1 {
            format!("`{name}` is always {} (no move changes it)", r.0)
        } else {
            format!("`{name}` stays between {} and {}", r.0, r.1)
        };
        (r, text)
    }

    /// Why `c` can never hold in this level, if it can't.
    fn never_true(&self, c: &Cond) -> Option<String> {
        match c {
            Cond::At {
                subject,
                cell,
                bind,
                ..
            } => {
                if let Some(why) = self.missing_base(cell) {
                    return Some(why);
                }
                match subject {
                    Subject::Tile(t) => self.missing_tile(*t),
                    Subject::Mark(m) => self.missing_mark(m.index()),
                    Subject::Piece(k) => {
                        let k = k.index();
                        // An `as` name is a copy other than those bound: one more when the
                        // cell is counted from a copy of the same kind.
                        let same = matches!(cell.base, Base::Piece(b, _) if b.index() == k);
                        let need = 1 + i64::from(matches!(bind, Some((_, Some(_)))) && same);
                        let have = self.copies(k).1;
                        if have == 0 {
                            self.missing_piece(k)
                        } else if have < need {
                            Some(format!(
                                "this needs a second `{}`, but the level has at most {have}",
                                self.piece_name(k)
                            ))
                        } else {
                            None
                        }
                    }
                }
            }
            Cond::On { .. } => None,
            Cond::Attr { .. } => None,
            Cond::Count { what, op, value } => {
                let (r, text) = self.count_range(*what);
                (!exists(*op, r, *value)).then_some(text)
            }
            Cond::Counter { id, op, value } => {
                let (r, text) = self.counter_range(*id);
                (!exists(*op, r, *value)).then_some(text)
            }
            Cond::Not(inner) => self.never_false(inner),
            Cond::And(parts) => parts.iter().find_map(|p| self.never_true(p)),
            Cond::Or(parts) => {
                let whys: Option<Vec<String>> = parts.iter().map(|p| self.never_true(p)).collect();
                whys.map(|w| w.join("; "))
            }
        }
    }

    /// Why `c` always holds in this level, if it does.
    fn never_false(&self, c: &Cond) -> Option<String> {
        match c {
            Cond::At { .. } | Cond::On { .. } | Cond::Attr { .. } => None,
            Cond::Count { what, op, value } => {
                let (r, text) = self.count_range(*what);
                forall(*op, r, *value).then_some(text)
            }
            Cond::Counter { id, op, value } => {
                let (r, text) = self.counter_range(*id);
                forall(*op, r, *value).then_some(text)
            }
            Cond::Not(inner) => self.never_true(inner),
            Cond::And(parts) => {
                let whys: Option<Vec<String>> = parts.iter().map(|p| self.never_false(p)).collect();
                whys.map(|w| w.join("; "))
            }
            Cond::Or(parts) => parts.iter().find_map(|p| self.never_false(p)),
        }
    }

    /// The first op of `ops` that always fails in this level: its index in `walk_ops`
    /// order (`ops[0]` has index `at`) and why.
    fn seq_fails(&self, ops: &[Op], mut at: usize) -> Option<(usize, String)> {
        for op in ops {
            if let Some(found) = self.op_fails(op, at) {
                return Some(found);
            }
            at += op_size(op);
        }
        None
    }

    /// Whether `op` (with `walk_ops` index `at`) always fails in this level, and why.
    fn op_fails(&self, op: &Op, at: usize) -> Option<(usize, String)> {
        let acts_on = |k: crate::compile::PieceId, alias: &Option<u16>, each: bool| {
            if alias.is_some() || each {
                None
            } else {
                self.missing_piece(k.index())
            }
        };
        let why = match op {
            Op::Test {
                subject,
                cell,
                want,
            } => self.missing_piece(cell.piece.index()).or_else(|| {
                if !*want {
                    return None;
                }
                match subject {
                    Subject::Tile(t) => self.missing_tile(*t),
                    Subject::Mark(m) => self.missing_mark(m.index()),
                    Subject::Piece(k) => self.missing_piece(k.index()),
                }
            }),
            Op::Shift {
                piece, alias, each, ..
            }
            | Op::Slide {
                piece, alias, each, ..
            } => acts_on(*piece, alias, *each),
            Op::Swap { piece, alias, .. }
            | Op::Turn { piece, alias, .. }
            | Op::Remove { piece, alias } => acts_on(*piece, alias, false),
            Op::ForCells { piece, alias, body } => {
                return acts_on(*piece, alias, false)
                    .map(|w| (at, w))
                    .or_else(|| self.seq_fails(body, at + 1));
            }
            Op::Check { cond, want: true } => self.never_true(cond),
            Op::Check { cond, want: false } => self
                .never_false(cond)
                .map(|w| format!("this always holds: {w}")),
            Op::Count { id, op, value } => {
                let ((lo, hi), text) = self.counter_range(*id);
                let max = self.model.counters[*id as usize].max as i64;
                let (a, b) = match op {
                    AssignOp::Add => (lo.saturating_add(*value), hi.saturating_add(*value)),
                    AssignOp::Sub => (lo.saturating_sub(*value), hi.saturating_sub(*value)),
                    AssignOp::Set => (*value, *value),
                };
                (b < 0 || a > max).then(|| format!("{text}, so this leaves 0..={max}"))
            }
            Op::If { cond, then, els } => {
                let then_at = at + 1;
                let els_at = then_at + then.iter().map(op_size).sum::<usize>();
                let then_fail = match self.never_true(cond) {
                    Some(w) => Some((at, w)),
                    None => self.seq_fails(then, then_at),
                };
                let els_fail = match self.never_false(cond) {
                    Some(w) => Some((at, w)),
                    None => self.seq_fails(els, els_at),
                };
                return match (then_fail, els_fail) {
                    // Report the branch that can be taken (the other fails on its test).
                    (Some(t), Some(e)) => Some(if t.0 == at { e } else { t }),
                    _ => None,
                };
            }
            Op::Create { .. } | Op::Change { .. } => None,
        };
        why.map(|w| (at, w))
    }

    /// Warnings about moves that can never apply.
    pub(super) fn move_lints(&self) -> Vec<Problem> {
        let model = self.model;
        let mut out = vec![];
        for (mi, m) in model.moves.iter().enumerate() {
            if self.possible[mi] {
                continue;
            }
            let Some((at, why)) = self.seq_fails(&m.ops, 0) else {
                continue;
            };
            let decl = span_at(&model.spans.moves, mi);
            out.push(Problem::MoveNeverApplies {
                name: m.name.clone(),
                level: format!("level {:?}", self.level.name),
                span: model.spans.ops.get(mi).map_or(decl, |o| span_at(o, at)),
                why,
                decl,
            });
        }
        out
    }

    /// Every goal condition that can never hold, with why.
    pub(super) fn goals_never_holding(&self) -> Vec<(GoalRef<'m>, String)> {
        let model = self.model;
        let mut out = vec![];
        for (i, g) in model.goal.iter().enumerate() {
            let k = g.piece.index();
            if self.copies(k).1 == 0 {
                continue;
            }
            let missing = match g.on {
                Place::Mark(m) => self.missing_mark(m.index()),
                Place::Tile(t) => (!self.tiles[t.index()]).then(|| {
                    format!(
                        "the level has no `{}` tile, and no move makes one",
                        model.tiles[t.index()].name
                    )
                }),
            };
            if let Some(why) = missing {
                out.push((GoalRef::On(i, g), why));
                continue;
            }
            // One-cell copies that stay on the board need a cell each.
            let one_cell = model.pieces[k].poses.iter().all(|p| p.cells.len() == 1);
            let cells = match g.on {
                Place::Mark(m) => Some(self.mark_count[m.index()]),
                Place::Tile(t) => {
                    let r = self.tile_cells(t);
                    (r.0 == r.1).then_some(r.1)
                }
            };
            let need = self.copies(k).0;
            if let (true, Some(cells)) = (one_cell, cells) {
                if need > cells {
                    out.push((
                        GoalRef::On(i, g),
                        format!(
                            "the level always has at least {need} `{}` but only {} of `{}`",
                            self.piece_name(k),
                            quantity(cells as u64, "cells"),
                            place_name(model, g.on)
                        ),
                    ));
                }
            }
        }
        for (i, c) in model.goal_rest.iter().enumerate() {
            if let Some(why) = self.never_true(c) {
                out.push((GoalRef::Rest(i, c), why));
            }
        }
        if let Some(pic) = &self.level.picture {
            if let Some((r, c, why)) = self.picture_never(pic) {
                out.push((GoalRef::Picture(r, c), why));
            }
        }
        out
    }

    /// Why the level's goal picture can never hold: a cell whose tile never becomes the
    /// one drawn, or a piece kind drawn that never is on the board.
    fn picture_never(
        &self,
        pic: &[(Option<crate::compile::PieceId>, TileId)],
    ) -> Option<(usize, usize, String)> {
        let model = self.model;
        let cols = self.level.board.cols.max(1);
        let mut reach: HashMap<TileId, Vec<bool>> = HashMap::new();
        for (i, &(piece, t)) in pic.iter().enumerate() {
            let (r, c) = (i / cols, i % cols);
            if let Some(k) = piece {
                if let Some(why) = self.missing_piece(k.index()) {
                    return Some((
                        r,
                        c,
                        format!(
                            "cell ({r},{c}) is drawn with `{}`, but {why}",
                            self.piece_name(k.index())
                        ),
                    ));
                }
            }
            let Some(&now) = self.level.board.tiles.get(i) else {
                continue;
            };
            if now == t {
                continue;
            }
            let can = reach.entry(now).or_insert_with(|| {
                let mut from = vec![false; model.tiles.len()];
                from[now.index()] = true;
                self.closure(from)
            });
            if !can[t.index()] {
                return Some((
                    r,
                    c,
                    format!(
                        "cell ({r},{c}) must end as `{}`, but its `{}` never becomes that",
                        model.tiles[t.index()].name,
                        model.tiles[now.index()].name
                    ),
                ));
            }
        }
        None
    }

    /// Warnings about goal conditions that can never hold or hold vacuously.
    pub(super) fn goal_lints(&self, text: Option<&LevelText>) -> Vec<Problem> {
        let model = self.model;
        let level = self.level.name.clone();
        let mut out = vec![];
        let mut seen = vec![false; model.pieces.len()];
        for (i, g) in model.goal.iter().enumerate() {
            let k = g.piece.index();
            if self.copies(k).1 == 0 && !std::mem::replace(&mut seen[k], true) {
                out.push(Problem::GoalPieceMissing {
                    piece: self.piece_name(k).to_string(),
                    level: level.clone(),
                    span: span_at(&model.spans.goal, i),
                });
            }
        }
        for (g, why) in self.goals_never_holding() {
            let span = match g {
                GoalRef::On(i, _) => span_at(&model.spans.goal, i),
                GoalRef::Rest(i, _) => span_at(&model.spans.goal_rest, i),
                GoalRef::Picture(r, c) => text.and_then(|t| Some((t, t.picture.as_ref()?))).map_or(
                    SourceSpan::from((0, 0)),
                    |(t, (rows, starts, whole))| {
                        grid_cell_span(rows, starts, *whole, t.form, (r, c))
                    },
                ),
            };
            out.push(Problem::GoalNeverHolds {
                level: level.clone(),
                span,
                why,
            });
        }
        out
    }
}

/// Whether some value in `r` satisfies `x OP v`.
fn exists(op: CmpOp, (lo, hi): Range, v: i64) -> bool {
    match op {
        CmpOp::Eq => lo <= v && v <= hi,
        CmpOp::Ne => !(lo == hi && lo == v),
        CmpOp::Lt => lo < v,
        CmpOp::Le => lo <= v,
        CmpOp::Gt => hi > v,
        CmpOp::Ge => hi >= v,
    }
}

/// Whether every value in `r` satisfies `x OP v`.
fn forall(op: CmpOp, (lo, hi): Range, v: i64) -> bool {
    match op {
        CmpOp::Eq => lo == v && hi == v,
        CmpOp::Ne => v < lo || v > hi,
        CmpOp::Lt => hi < v,
        CmpOp::Le => hi <= v,
        CmpOp::Gt => lo > v,
        CmpOp::Ge => lo >= v,
    }
}

/// How many ops `walk_ops` visits for `op`: itself and every op nested in it.
fn op_size(op: &Op) -> usize {
    1 + match op {
        Op::If { then, els, .. } => then.iter().chain(els).map(op_size).sum(),
        Op::ForCells { body, .. } => body.iter().map(op_size).sum(),
        _ => 0,
    }
}
