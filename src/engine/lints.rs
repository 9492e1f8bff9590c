//! Lints: what the rules can never do in one level, found before any search, and why a
//! level has no solution.
//!
//! Two analyses, both over-approximations of play (so a lint is never a false alarm about
//! what can happen):
//!
//! - **What a level can hold.** Starting from the level's pieces, tiles, marks and counter
//!   values, a fixpoint adds what the moves that can apply bring: created pieces, tiles
//!   that `change`, `toggle` or `break` make, counter values. A move one of whose
//!   statements always fails under that (it needs a tile the level never has, a piece
//!   kind with no copy, a counter value out of reach) can never apply
//!   ([`Problem::MoveNeverApplies`]); a goal condition that can never hold is
//!   [`Problem::GoalNeverHolds`] (or [`Problem::GoalPieceMissing`] when it holds
//!   vacuously, with no copy of its piece at all).
//! - **Where a piece can go alone.** The relaxation of the A* heuristic
//!   ([`Expander::relax_op`]): each piece moves alone, every other piece and every test
//!   ignored; conditional and looped statements may or may not run; a slide may stop
//!   wherever a piece or a changing tile could stop it. A goal piece none of whose
//!   relaxed places meets its goal is [`Problem::GoalOutOfReach`]; a slide with no
//!   `off board` rule that can reach the edge from a relaxed place is
//!   [`Problem::SlideOffBoard`].
//!
//! The relaxation is skipped on boards past [`MAX_RELAX_CELLS`] cells and stops after
//! [`MAX_WORK`] units of work, so lints cost a bounded time on any level; skipped lints
//! are simply not reported.

use std::collections::{HashMap, VecDeque};

use miette::SourceSpan;
use serde::Serialize;

use crate::compile::{
    AssignOp, Base, Cell, CmpOp, Cond, Expect, GoalCond, LevelText, Model, Op, Place, SlideEvent,
    SlideRule, Step, Subject, TileId,
};
use crate::diagnostics::Problem;

use super::budget::Budget;
use super::expander::Expander;
use super::layout::{NONE, OFF};
use super::legality::{GOAL, LEGAL};
use super::level::Level;
use super::program::{Actions, KOp};

/// Boards with more cells than this skip the relaxation lints: setting the level up for
/// them would cost as much as a search.
pub const MAX_RELAX_CELLS: usize = 1 << 16;

/// Units of work (relaxed ops run, cells a slide crosses) the relaxation may spend on one
/// level; past it the relaxation lints of that level are not reported.
pub const MAX_WORK: u64 = 4_000_000;

/// Rounds of the fixpoint of what a level can hold before every move left is taken as
/// possible (see [`Analysis`]).
const MAX_ROUNDS: usize = 64;

/// A goal condition out of reach in a level, for explaining "no solution".
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutOfReach {
    /// The goal condition, as the rules say it (`box on goal`, `count(peg) == 1`).
    pub goal: String,
    /// The piece that cannot meet it, when it is one piece's place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<String>,
    /// That piece's start cell, (row, column).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<[usize; 2]>,
    /// A sentence saying why: `even moving alone, box (3,4) can reach no cell of goal`.
    pub text: String,
}

/// The lints of `level` under `model`, in a fixed order: moves that never apply, goals
/// that never hold, slides that run off the board, goal pieces out of reach. `inline` is
/// the level's index among the file's levels when it is written in the `.puz` file, so
/// that warnings can point at its text.
///
/// A level that says `expect none` is written to have no solution: the warnings that
/// prove it has none (`goal_never_holds`, `goal_out_of_reach`) are left out for it.
pub fn lint_level(model: &Model, level: &Level, inline: Option<usize>) -> Vec<Problem> {
    let a = Analysis::new(model, level);
    let text = inline.and_then(|i| model.levels.get(i));
    let mut out = a.move_lints();
    out.extend(a.goal_lints(text));
    if let Some(relax) = Relaxed::new(&a) {
        out.extend(relax.lints(&a, text));
    }
    if text.is_some_and(|t| t.expect == Some(Expect::Unsolvable)) {
        out.retain(|p| {
            !matches!(
                p,
                Problem::GoalNeverHolds { .. } | Problem::GoalOutOfReach { .. }
            )
        });
    }
    out
}

/// The goal conditions of `level` that are out of reach even in the relaxation: goals that
/// can never hold, and goal pieces that can reach no place meeting their goal moving
/// alone. Empty when every condition is within reach on its own (the pieces then block
/// one another, or the conditions exclude one another).
pub fn out_of_reach(model: &Model, level: &Level) -> Vec<OutOfReach> {
    let a = Analysis::new(model, level);
    let mut out = vec![];
    for (g, why) in a.goals_never_holding() {
        let text = match g {
            GoalRef::Picture(..) => format!("the goal picture can never hold: {why}"),
            _ => format!("`{}` can never hold: {why}", g.text(model)),
        };
        out.push(OutOfReach {
            text,
            goal: g.text(model),
            piece: None,
            from: None,
        });
    }
    if let Some(relax) = Relaxed::new(&a) {
        for s in relax.stranded(&a) {
            let name = model.pieces[s.kind].name.clone();
            out.push(OutOfReach {
                text: format!(
                    "even moving alone, {name} ({},{}) can reach no {}",
                    s.row, s.col, s.what
                ),
                goal: s.goal,
                piece: Some(name),
                from: Some([s.row, s.col]),
            });
        }
    }
    out
}

/// A goal condition: one `piece on place` entry or one of the rest, or the picture.
#[derive(Clone, Copy, Debug)]
enum GoalRef<'m> {
    /// `model.goal[i]`.
    On(usize, &'m GoalCond),
    /// `model.goal_rest[i]`.
    Rest(usize, &'m Cond),
    /// The level's goal picture, at the cell (row, column) that cannot end as drawn.
    Picture(usize, usize),
}

impl GoalRef<'_> {
    /// The condition as the rules say it.
    fn text(&self, model: &Model) -> String {
        match self {
            GoalRef::On(_, g) => goal_cond_text(model, g),
            GoalRef::Rest(_, c) => cond_text(model, c),
            GoalRef::Picture(..) => "the goal picture".to_string(),
        }
    }
}

/// An inclusive range of values a quantity can take in play.
type Range = (i64, i64);

/// What a level can hold in play: the level's start plus what the moves that can apply
/// bring (an over-approximation).
struct Analysis<'m> {
    model: &'m Model,
    level: &'m Level,
    /// Per kind: copies at the start.
    start: Vec<i64>,
    /// Per kind: room for copies (as the layout gives it).
    room: Vec<i64>,
    /// Per kind: some possible move removes a copy.
    removable: Vec<bool>,
    /// Per kind: some possible move creates a copy.
    creatable: Vec<bool>,
    /// Per tile: cells holding it at the start.
    tile_count: Vec<i64>,
    /// Per tile: some board cell may hold it in play.
    tiles: Vec<bool>,
    /// Tile changes possible moves make: (from, to).
    changes: Vec<(TileId, TileId)>,
    /// Per mark: cells carrying it.
    mark_count: Vec<i64>,
    /// Per counter: the values it may take.
    counters: Vec<Range>,
    /// Per move: it may apply.
    possible: Vec<bool>,
    /// Some possible move breaks tiles.
    breaks: bool,
}

impl<'m> Analysis<'m> {
    fn new(model: &'m Model, level: &'m Level) -> Self {
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
                    format!("`{name}` is always on {} cells (no move changes that)", r.0)
                } else {
                    format!("`{name}` is on between {} and {} cells", r.0, r.1)
                };
                (r, text)
            }
            Subject::Mark(m) => {
                let n = self.mark_count[m.index()];
                let name = &self.model.marks[m.index()].name;
                ((n, n), format!("mark `{name}` is on {n} cells"))
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
            Cond::At { .. } | Cond::On { .. } => None,
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
    fn move_lints(&self) -> Vec<Problem> {
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
    fn goals_never_holding(&self) -> Vec<(GoalRef<'m>, String)> {
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
                            "the level always has at least {need} `{}` but only {cells} cells of `{}`",
                            self.piece_name(k),
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
    fn goal_lints(&self, text: Option<&LevelText>) -> Vec<Problem> {
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

/// `spans[i]`, or an empty span at the start when the model has none (a model built
/// without its source).
fn span_at(spans: &[SourceSpan], i: usize) -> SourceSpan {
    spans.get(i).copied().unwrap_or_else(|| (0, 0).into())
}

fn place_name(model: &Model, p: Place) -> &str {
    match p {
        Place::Tile(t) => &model.tiles[t.index()].name,
        Place::Mark(m) => &model.marks[m.index()].name,
    }
}

fn subject_name(model: &Model, s: Subject) -> &str {
    match s {
        Subject::Piece(k) => &model.pieces[k.index()].name,
        Subject::Tile(t) => &model.tiles[t.index()].name,
        Subject::Mark(m) => &model.marks[m.index()].name,
    }
}

/// `block.stand on target`.
fn goal_cond_text(model: &Model, g: &GoalCond) -> String {
    let piece = &model.pieces[g.piece.index()];
    let pose = g.pose.map_or(String::new(), |q| {
        format!(".{}", piece.poses[q.index()].name)
    });
    format!("{}{pose} on {}", piece.name, place_name(model, g.on))
}

/// A step as written: `d`, `-2n`.
fn step_text(model: &Model, s: &Step) -> String {
    let dir = s.fixed.map_or("d", |d| model.dirs[d.index()].name.as_str());
    let times = if s.times == 1 {
        String::new()
    } else {
        s.times.to_string()
    };
    format!("{times}{dir}")
}

/// A goal's condition as written (piece names for anchors, `(r, c)` for cells).
fn cond_text(model: &Model, c: &Cond) -> String {
    let group = |c: &Cond| match c {
        Cond::And(_) | Cond::Or(_) => format!("({})", cond_text(model, c)),
        _ => cond_text(model, c),
    };
    match c {
        Cond::At { subject, cell, .. } => {
            let mut at = match cell.base {
                Base::Piece(k, _) => model.pieces[k.index()].name.clone(),
                Base::Abs(r, col) => format!("({r}, {col})"),
                Base::Param | Base::Var(_) => "c".to_string(),
            };
            for s in &cell.steps {
                at += if s.negate { " - " } else { " + " };
                at += &step_text(model, s);
            }
            format!("{} at {at}", subject_name(model, *subject))
        }
        Cond::On {
            piece, pose, place, ..
        } => goal_cond_text(
            model,
            &GoalCond {
                piece: *piece,
                pose: *pose,
                on: *place,
            },
        ),
        Cond::Count { what, op, value } => {
            format!(
                "count({}) {} {value}",
                subject_name(model, *what),
                op.text()
            )
        }
        Cond::Counter { id, op, value } => format!(
            "{} {} {value}",
            model.counters[*id as usize].name,
            op.text()
        ),
        Cond::Not(inner) => format!("not {}", group(inner)),
        Cond::And(parts) => parts.iter().map(group).collect::<Vec<_>>().join(" and "),
        Cond::Or(parts) => parts.iter().map(group).collect::<Vec<_>>().join(" or "),
    }
}

/// The span of board cell (`row`, `col`) in an inline level's text, or the whole text.
fn cell_span(text: &LevelText, row: usize, col: usize) -> SourceSpan {
    grid_cell_span(
        &text.rows,
        &text.row_starts,
        text.span,
        text.form,
        (row, col),
    )
}

/// The span of cell (`row`, `col`) of a grid written as `rows` (the source offset of each
/// row's first cell in `starts`), or `whole`.
fn grid_cell_span(
    rows: &[String],
    starts: &[u32],
    whole: SourceSpan,
    form: crate::compile::GridForm,
    (row, col): (usize, usize),
) -> SourceSpan {
    let (Some(line), Some(&start)) = (rows.get(row), starts.get(row)) else {
        return whole;
    };
    let found = match form {
        crate::compile::GridForm::Chars => line
            .char_indices()
            .nth(col)
            .map(|(o, ch)| (o, ch.len_utf8())),
        crate::compile::GridForm::Ints => {
            let mut tokens = line
                .char_indices()
                .filter(|&(o, ch)| {
                    !ch.is_whitespace()
                        && line[..o]
                            .chars()
                            .next_back()
                            .is_none_or(char::is_whitespace)
                })
                .map(|(o, _)| o);
            tokens.nth(col).map(|o| {
                let len = line[o..]
                    .find(char::is_whitespace)
                    .unwrap_or(line.len() - o);
                (o, len)
            })
        }
    };
    found.map_or(whole, |(o, len)| (start as usize + o, len).into())
}

/// The op with index `at` in `walk_ops` order of a lowered program (lowering keeps the
/// shape of the program, so the indices of its `Op`s apply).
fn kop_at(ops: &[KOp], mut at: usize) -> Option<&KOp> {
    for op in ops {
        if at == 0 {
            return Some(op);
        }
        at -= 1;
        let nested: Vec<&[KOp]> = match op {
            KOp::If { then, els, .. } => vec![then, els],
            KOp::ForCells { body, .. } => vec![body],
            _ => vec![],
        };
        for block in nested {
            let size = kop_size(block);
            if at < size {
                return kop_at(block, at);
            }
            at -= size;
        }
    }
    None
}

/// How many ops a lowered block holds, nested ones included.
fn kop_size(ops: &[KOp]) -> usize {
    ops.iter()
        .map(|op| {
            1 + match op {
                KOp::If { then, els, .. } => kop_size(then) + kop_size(els),
                KOp::ForCells { body, .. } => kop_size(body),
                _ => 0,
            }
        })
        .sum()
}

/// One step of a move's relaxed program for one piece kind.
enum Relax {
    /// An op on the kind itself, relaxed by [`Expander::relax_op`] (or, for slides, by
    /// [`Relaxed::slide`]).
    Op(KOp),
    /// An op that may or may not act on the relaxed copy (through an `as` name).
    Maybe(KOp),
    /// Either branch.
    Branch(Vec<Relax>, Vec<Relax>),
    /// The body, run one to `n` times.
    Repeat(usize, Vec<Relax>),
}

/// The relaxed program of `ops` for kind `k`: the ops that can move it, with everything
/// else (tests, tiles, counters, other pieces) dropped.
fn relax_program(ops: &[KOp], k: usize, repeat: usize) -> Vec<Relax> {
    let mut out = vec![];
    for op in ops {
        let with_var = |op: &KOp| {
            let mut own = op.clone();
            match &mut own {
                KOp::Shift { var, kind, .. }
                | KOp::Swap { var, kind, .. }
                | KOp::Turn { var, kind, .. }
                | KOp::Slide { var, kind, .. } => *var = *kind,
                _ => {}
            }
            own
        };
        match op {
            KOp::Shift { var, kind, .. }
            | KOp::Turn { var, kind, .. }
            | KOp::Slide { var, kind, .. }
                if *kind == k =>
            {
                out.push(if var == kind {
                    Relax::Op(op.clone())
                } else {
                    Relax::Maybe(with_var(op))
                });
            }
            KOp::Swap { var, kind, .. } => {
                if *kind == k && var == kind {
                    out.push(Relax::Op(op.clone()));
                } else if *kind == k {
                    // Through an `as` name it may move this copy, or push it back.
                    out.push(Relax::Branch(
                        vec![Relax::Op(op.clone())],
                        vec![Relax::Maybe(with_var(op))],
                    ));
                } else {
                    // Another piece's swap may push this one back.
                    out.push(Relax::Op(op.clone()));
                }
            }
            KOp::If { then, els, .. } => {
                let (a, b) = (
                    relax_program(then, k, repeat),
                    relax_program(els, k, repeat),
                );
                if !a.is_empty() || !b.is_empty() {
                    out.push(Relax::Branch(a, b));
                }
            }
            KOp::ForCells { body, .. } => {
                let body = relax_program(body, k, repeat);
                if !body.is_empty() {
                    out.push(Relax::Repeat(repeat, body));
                }
            }
            _ => {}
        }
    }
    out
}

/// A goal piece that cannot reach its goal moving alone.
struct Stranded {
    kind: usize,
    row: usize,
    col: usize,
    /// The goal conditions on its kind, as written.
    goal: String,
    /// What it cannot reach: `cell of goal`, `place where block.stand is on target`.
    what: String,
    /// The first goal condition on its kind.
    first: usize,
}

/// The level set up for the relaxation: where each piece kind can go alone.
struct Relaxed<'m> {
    exp: Expander<'m>,
    /// Per kind: per move, its relaxed program (empty when it cannot move the kind).
    programs: Vec<Vec<Vec<Relax>>>,
    /// Work left.
    work: std::cell::Cell<u64>,
}

impl<'m> Relaxed<'m> {
    /// Sets up the level, unless it is too large (then the relaxation lints are skipped).
    fn new(a: &Analysis<'m>) -> Option<Self> {
        let b = &a.level.board;
        if b.rows.saturating_mul(b.cols) > MAX_RELAX_CELLS {
            return None;
        }
        let exp = Expander::new(a.model, a.level.clone(), &Budget::default()).ok()?;
        let repeat = a
            .model
            .pieces
            .iter()
            .flat_map(|p| p.poses.iter().map(|q| q.cells.len()))
            .max()
            .unwrap_or(1);
        let programs = (0..a.model.pieces.len())
            .map(|k| {
                exp.prog
                    .moves
                    .iter()
                    .enumerate()
                    .map(|(mi, ops)| {
                        if a.possible[mi] {
                            relax_program(ops, k, repeat)
                        } else {
                            vec![]
                        }
                    })
                    .collect()
            })
            .collect();
        Some(Relaxed {
            exp,
            programs,
            work: std::cell::Cell::new(MAX_WORK),
        })
    }

    /// Takes `n` units of work; false when the budget is spent.
    fn spend(&self, n: u64) -> bool {
        let left = self.work.get();
        self.work.set(left.saturating_sub(n));
        left >= n
    }

    /// The directions a move's actions are played in (per-cell moves: one).
    fn dirs(&self, mi: usize) -> Vec<usize> {
        match &self.exp.prog.actions[mi] {
            Actions::Dirs(ds) => ds.clone(),
            Actions::Cells => vec![0],
        }
    }

    /// Runs a relaxed program from every place of `cands`.
    fn run(
        &self,
        k: usize,
        prog: &[Relax],
        cands: Vec<(usize, usize)>,
        d: usize,
    ) -> Vec<(usize, usize)> {
        let mut cur = cands;
        for r in prog {
            let mut next = vec![];
            match r {
                Relax::Op(op) => self.op(k, op, &cur, d, &mut next),
                Relax::Maybe(op) => {
                    next.extend_from_slice(&cur);
                    self.op(k, op, &cur, d, &mut next);
                }
                Relax::Branch(a, b) => {
                    next = self.run(k, a, cur.clone(), d);
                    next.extend(self.run(k, b, cur, d));
                }
                Relax::Repeat(n, body) => {
                    let mut at = cur;
                    for _ in 0..*n {
                        at = self.run(k, body, at, d);
                        next.extend_from_slice(&at);
                    }
                }
            }
            next.sort_unstable();
            next.dedup();
            cur = next;
        }
        cur
    }

    /// One relaxed op from every place of `cur`.
    fn op(
        &self,
        k: usize,
        op: &KOp,
        cur: &[(usize, usize)],
        d: usize,
        next: &mut Vec<(usize, usize)>,
    ) {
        let mut work = 0;
        for &at in cur {
            match op {
                KOp::Slide { delta, rules, .. } => {
                    let v = self.exp.lay.resolve(*delta, d);
                    self.slide(k, at, v, rules, next, &mut work);
                }
                _ => self.exp.relax_op(k, op, at, d, next, &mut work),
            }
        }
        self.spend(work);
    }

    /// Whether a rule about `tile` may fire at padded cell `p`: always on static cells
    /// holding it, maybe on cells whose tile changes.
    fn tile_may(&self, p: usize, tile: TileId) -> (bool, bool) {
        let lay = &self.exp.lay;
        if lay.ptile[p] == OFF {
            (false, false)
        } else if lay.pmut[p] != NONE {
            (true, false)
        } else {
            let here = lay.ptile[p] == tile.0;
            (here, here)
        }
    }

    /// Whether padded cell `p` may be (`.0`) or surely is (`.1`) on `place`.
    fn place_may(&self, p: usize, place: Place) -> (bool, bool) {
        match place {
            Place::Tile(t) => self.tile_may(p, t),
            Place::Mark(m) => {
                let on = self.exp.lay.pmarks[p] >> m.0 & 1 == 1;
                (on, on)
            }
        }
    }

    /// The relaxed slide of kind `k` from (`a`, `pose`) by `v` per step: every place it
    /// may stop at. A rule about a piece may fire anywhere, one about a changing tile
    /// may or may not fire; the slide ends where a rule surely stops it or the place is
    /// illegal.
    fn slide(
        &self,
        k: usize,
        (a, pose): (usize, usize),
        v: isize,
        rules: &[SlideRule],
        next: &mut Vec<(usize, usize)>,
        work: &mut u64,
    ) {
        let lay = &self.exp.lay;
        let flags = &self.exp.flags[k];
        let bits = lay.slots[k].bits;
        if v == 0 {
            return; // a slide that never moves never ends: the engine fails it
        }
        let may_block = rules
            .iter()
            .any(|r| matches!(r.event, SlideEvent::BeforePiece(_)));
        let mut at = a;
        for _ in 0..lay.ptile.len() {
            *work += 1;
            let nxt = (at as isize + v) as usize;
            let off = lay.ptile[nxt] == OFF;
            // Rules about the cell ahead, in order: the first that surely fires ends the
            // slide; those that may fire add a stop.
            let mut ended = false;
            for r in rules {
                let (may, sure) = match r.event {
                    SlideEvent::OffBoard => (off, off),
                    SlideEvent::BeforeTile(t) if !off => self.tile_may(nxt, t),
                    SlideEvent::BeforePiece(_) if !off => (true, false),
                    _ => (false, false),
                };
                if may && r.stop && !r.lose {
                    next.push((at, pose));
                }
                if sure && (r.stop || r.lose) {
                    ended = true;
                    break;
                }
            }
            if ended || off {
                return;
            }
            at = nxt;
            if flags.get(at << bits | pose).is_none_or(|f| f & LEGAL == 0) {
                return;
            }
            if may_block {
                next.push((at, pose));
            }
            for r in rules {
                if let SlideEvent::Into(place) = r.event {
                    let (may, sure) = self.place_may(at, place);
                    if may && r.stop && !r.lose {
                        next.push((at, pose));
                    }
                    if sure && (r.stop || r.lose) {
                        return;
                    }
                }
            }
        }
    }

    /// Places of kind `k` reachable alone from `from`; stops early at the first place
    /// `stop` accepts (returned as `Ok(true)`). `Err(())` when the work budget ran out.
    fn search(
        &self,
        k: usize,
        from: &[u32],
        stop: impl Fn(u32) -> bool,
    ) -> Result<(bool, Vec<u32>), ()> {
        let flags = &self.exp.flags[k];
        let bits = self.exp.lay.slots[k].bits;
        let mut seen = vec![false; flags.len()];
        let mut queue: VecDeque<u32> = VecDeque::new();
        let mut order = vec![];
        for &w in from {
            if (w as usize) < seen.len() && !seen[w as usize] {
                seen[w as usize] = true;
                queue.push_back(w);
            }
        }
        let dirs: Vec<Vec<usize>> = (0..self.programs[k].len())
            .map(|mi| self.dirs(mi))
            .collect();
        let mut buf: Vec<(usize, usize)> = vec![];
        while let Some(w) = queue.pop_front() {
            order.push(w);
            if stop(w) {
                return Ok((true, order));
            }
            let place = (w as usize >> bits, w as usize & ((1 << bits) - 1));
            for (mi, prog) in self.programs[k].iter().enumerate() {
                if prog.is_empty() {
                    continue;
                }
                for &d in &dirs[mi] {
                    if !self.spend(1) {
                        return Err(());
                    }
                    // One plain op (most moves) runs without the program's buffers.
                    let to_places = match prog.as_slice() {
                        [Relax::Op(op)] => {
                            let mut out = std::mem::take(&mut buf);
                            out.clear();
                            self.op(k, op, &[place], d, &mut out);
                            out
                        }
                        _ => self.run(k, prog, vec![place], d),
                    };
                    for &(a, p) in &to_places {
                        let to = a << bits | p;
                        if to < seen.len() && !seen[to] && flags[to] & LEGAL != 0 {
                            seen[to] = true;
                            queue.push_back(to as u32);
                        }
                    }
                    buf = to_places;
                }
            }
            if self.work.get() == 0 {
                return Err(());
            }
        }
        Ok((false, order))
    }

    /// The start word of every instance of kind `k`, with its board cell.
    fn starts(&self, a: &Analysis, k: usize) -> Vec<(u32, u32)> {
        let lay = &self.exp.lay;
        let bits = lay.slots[k].bits;
        a.level
            .instances
            .iter()
            .filter(|i| i.piece.index() == k)
            .map(|i| (lay.to_padded(i.cell) << bits | i.pose.0 as u32, i.cell))
            .collect()
    }

    /// Goal pieces that cannot reach their goal moving alone. Kinds that moves remove or
    /// create are left out: a removed copy meets `piece on place` by being gone.
    fn stranded(&self, a: &Analysis) -> Vec<Stranded> {
        let model = a.model;
        let cols = a.level.board.cols.max(1);
        let mut out = vec![];
        let mut done = vec![false; model.pieces.len()];
        let never = a.goals_never_holding();
        for (i, g) in model.goal.iter().enumerate() {
            let k = g.piece.index();
            if std::mem::replace(&mut done[k], true) || a.removable[k] || a.creatable[k] {
                continue;
            }
            // A condition that can never hold is reported as such.
            if never
                .iter()
                .any(|(r, _)| matches!(r, GoalRef::On(_, c) if c.piece.index() == k))
            {
                continue;
            }
            let flags = &self.exp.flags[k];
            let conds: Vec<&GoalCond> =
                model.goal.iter().filter(|c| c.piece.index() == k).collect();
            let goal = conds
                .iter()
                .map(|c| goal_cond_text(model, c))
                .collect::<Vec<_>>()
                .join(" and ");
            let what = match conds.as_slice() {
                [c] if c.pose.is_none() => format!("cell of {}", place_name(model, c.on)),
                _ => format!("place where {goal}"),
            };
            for (w, cell) in self.starts(a, k) {
                let hit = |x: u32| flags[x as usize] & (GOAL | LEGAL) == GOAL | LEGAL;
                match self.search(k, &[w], hit) {
                    Ok((false, _)) => out.push(Stranded {
                        kind: k,
                        row: cell as usize / cols,
                        col: cell as usize % cols,
                        goal: goal.clone(),
                        what: what.clone(),
                        first: i,
                    }),
                    Ok((true, _)) => {}
                    Err(()) => return out,
                }
            }
        }
        out
    }

    /// Warnings from the relaxation: slides off the board, goal pieces out of reach.
    fn lints(&self, a: &Analysis, text: Option<&LevelText>) -> Vec<Problem> {
        let mut out = self.slide_lints(a);
        let model = a.model;
        for s in self.stranded(a) {
            out.push(Problem::GoalOutOfReach {
                piece: model.pieces[s.kind].name.clone(),
                row: s.row as u32,
                col: s.col as u32,
                level: a.level.name.clone(),
                span: span_at(&model.spans.goal, s.first),
                why: format!("`{}` can reach no {}", model.pieces[s.kind].name, s.what),
                start: text.map(|t| cell_span(t, s.row, s.col)),
            });
        }
        out
    }

    /// Slides with no `off board` rule that can run off the board from a place their
    /// piece reaches alone. Only the engine's `off board` event sees the edge: an
    /// `outside` tile is not a `before` event there.
    fn slide_lints(&self, a: &Analysis) -> Vec<Problem> {
        let model = a.model;
        let lay = &self.exp.lay;
        let cols = a.level.board.cols.max(1);
        let mut reach: HashMap<usize, Option<Vec<u32>>> = HashMap::new();
        let mut out = vec![];
        for (mi, m) in model.moves.iter().enumerate() {
            if !a.possible[mi] {
                continue;
            }
            let mut slides = vec![];
            let mut at = 0;
            crate::compile::walk_ops(&m.ops, &mut |op| {
                if let Op::Slide { piece, rules, .. } = op {
                    if !rules.iter().any(|r| r.event == SlideEvent::OffBoard) {
                        slides.push((at, piece.index(), rules.clone()));
                    }
                }
                at += 1;
            });
            for (at, k, rules) in slides {
                if a.start[k] == 0 {
                    continue;
                }
                let places = reach.entry(k).or_insert_with(|| {
                    let from: Vec<u32> = self.starts(a, k).into_iter().map(|s| s.0).collect();
                    self.search(k, &from, |_| false).ok().map(|r| r.1)
                });
                let Some(places) = places else { continue };
                let bits = lay.slots[k].bits;
                let Some(KOp::Slide { delta, .. }) = kop_at(&self.exp.prog.moves[mi], at) else {
                    continue;
                };
                let delta = *delta;
                let found = places.iter().find_map(|&w| {
                    let (anchor, pose) = (w as usize >> bits, w as usize & ((1 << bits) - 1));
                    self.dirs(mi).into_iter().find_map(|d| {
                        let v = lay.resolve(delta, d);
                        self.runs_off(k, (anchor, pose), v, &rules)
                            .then_some((anchor, d))
                    })
                });
                if let Some((anchor, d)) = found {
                    let Ok(cell) = lay.board_cells.binary_search(&(anchor as u32)) else {
                        continue;
                    };
                    let (r, c) = (cell / cols, cell % cols);
                    let dir = if matches!(self.exp.prog.actions[mi], Actions::Cells) {
                        String::new()
                    } else {
                        format!(" going {}", model.dirs[d].name)
                    };
                    let outside = model.outside.map_or(String::new(), |t| {
                        format!(
                            " (the `outside` tile `{}` is not a `before` event at the edge)",
                            model.tiles[t.index()].name
                        )
                    });
                    out.push(Problem::SlideOffBoard {
                        piece: model.pieces[k].name.clone(),
                        level: a.level.name.clone(),
                        span: model
                            .spans
                            .ops
                            .get(mi)
                            .map_or_else(|| span_at(&model.spans.moves, mi), |o| span_at(o, at)),
                        why: format!("from ({r},{c}){dir}, `{}` reaches the edge", model.pieces[k].name),
                        help: format!("the move then fails without a word{outside}; add `off board: stop` to stop at the edge, or `off board: lose` to say the throw is lost"),
                    });
                }
            }
        }
        out
    }

    /// Whether the slide of kind `k` from (`a`, `pose`) by `v` may reach the edge with no
    /// rule stopping it first (rules about pieces and changing tiles assumed not to fire).
    fn runs_off(&self, k: usize, (a, pose): (usize, usize), v: isize, rules: &[SlideRule]) -> bool {
        let lay = &self.exp.lay;
        let flags = &self.exp.flags[k];
        let bits = lay.slots[k].bits;
        if v == 0 {
            return false;
        }
        let mut at = a;
        for _ in 0..lay.ptile.len() {
            if !self.spend(1) {
                return false;
            }
            let nxt = (at as isize + v) as usize;
            let off = lay.ptile[nxt] == OFF;
            for r in rules {
                let sure = match r.event {
                    SlideEvent::BeforeTile(t) if !off => self.tile_may(nxt, t).1,
                    _ => false,
                };
                if sure && (r.stop || r.lose) {
                    return false;
                }
            }
            if off {
                return true;
            }
            at = nxt;
            if flags.get(at << bits | pose).is_none_or(|f| f & LEGAL == 0) {
                return false;
            }
            for r in rules {
                if let SlideEvent::Into(place) = r.event {
                    if self.place_may(at, place).1 && (r.stop || r.lose) {
                        return false;
                    }
                }
            }
        }
        false
    }
}
