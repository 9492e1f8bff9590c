//! The compiled op program: every `compile::Op` of a move lowered to a [`KOp`] for this
//! level's padded grid, with everything each kind of op means to the engine side by side:
//! its lowering, its reach, its execution on a state, and its relaxation for the heuristic.
//! A new move statement is added here (see the module header of `engine`).

use crate::compile::{
    AssignOp, Base, Cell, CmpOp, Cond, Model, Op, Param, Place, SlideEvent, SlideRule, Step,
    Subject, TilePlace,
};

use super::expander::Expander;
use super::layout::{Layout, ABSENT, NONE, OFF};

/// A step resolved for the padded grid.
#[derive(Clone, Copy, Debug)]
pub(super) enum Delta {
    /// The move's direction times `mult` (negative: reversed).
    Param { mult: i32 },
    /// A fixed linear delta and its (row, column) step.
    Fixed(isize, (i32, i32)),
}

/// A cell resolved for the padded grid: a base plus a fixed delta plus a multiple of the
/// move's direction.
#[derive(Clone, Copy, Debug)]
pub(super) struct KCell {
    pub(super) base: KBase,
    pub(super) fixed: isize,
    pub(super) mult: i32,
}

/// Where a resolved cell starts.
#[derive(Clone, Copy, Debug)]
pub(super) enum KBase {
    /// The anchor of the copy bound to this variable.
    Var(usize),
    /// The move's cell.
    Param,
    /// A `for` loop's cell, this many levels out.
    Loop(usize),
    /// An absolute padded cell (`None`: off the board).
    Abs(Option<usize>),
}

/// A condition resolved for the padded grid.
#[derive(Clone, Debug)]
pub(super) enum KCond {
    At {
        subject: Subject,
        /// Only a copy in this pose counts (`disk.small at CELL`).
        pose: Option<usize>,
        /// Only the copy of this variable counts (`over at CELL`, an `as` name).
        of: Option<usize>,
        cell: KCell,
        /// The variable a piece found there is bound to.
        bind: Option<usize>,
    },
    On {
        var: usize,
        kind: usize,
        pose: Option<usize>,
        place: Place,
    },
    CountPieces {
        kind: usize,
        op: CmpOp,
        value: i64,
    },
    CountTiles {
        tile: u16,
        op: CmpOp,
        value: i64,
    },
    Const(bool),
    Counter {
        word: usize,
        op: CmpOp,
        value: i64,
    },
    /// `piece.attr OP rhs`: attributes of the copies' poses.
    Attr {
        left: KAttr,
        op: CmpOp,
        right: KAttrRhs,
    },
    Not(Box<KCond>),
    And(Vec<KCond>),
    Or(Vec<KCond>),
}

/// A piece's attribute, resolved: its variable, kind and attribute.
#[derive(Clone, Copy, Debug)]
pub(super) struct KAttr {
    pub(super) var: usize,
    pub(super) kind: usize,
    pub(super) attr: usize,
}

/// What an attribute is compared with, resolved.
#[derive(Clone, Copy, Debug)]
pub(super) enum KAttrRhs {
    Value(i64),
    Attr(KAttr),
}

/// Which cells a tile change touches, resolved.
#[derive(Clone, Debug)]
pub(super) enum KPlace {
    At(KCell),
    All,
    Mark(u16),
}

/// A move op with names and offsets resolved for this level's grid. `var` is the piece
/// variable acted on: a kind's own copy (`var == kind`) or an alias (`var >= kinds`).
#[derive(Clone, Debug)]
pub(super) enum KOp {
    /// Continue only if `subject` is (`want`) or is not (`!want`) at the cell `delta` from
    /// kind `kind`'s anchor; binds an anonymous piece found there.
    Test {
        subject: Subject,
        kind: usize,
        delta: Option<Delta>,
        want: bool,
    },
    /// Move a piece one step (every copy with `each`).
    Shift {
        var: usize,
        kind: usize,
        delta: Delta,
        each: bool,
        clash: bool,
    },
    /// Move a piece one step, trading places with whatever piece is there.
    Swap {
        var: usize,
        kind: usize,
        delta: Delta,
        clash: bool,
    },
    /// `table[pose * dirs + dir]`: new pose and linear anchor delta.
    Turn {
        var: usize,
        kind: usize,
        table: Vec<Option<(u32, isize)>>,
        clash: bool,
    },
    /// Move a piece step by step until a rule stops it (every copy with `each`).
    Slide {
        var: usize,
        kind: usize,
        delta: Delta,
        rules: Vec<SlideRule>,
        each: bool,
    },
    /// A general condition.
    Check { cond: KCond, want: bool },
    /// The piece leaves the board.
    Remove { var: usize },
    /// A new copy.
    Create {
        kind: usize,
        pose: u32,
        cell: KCell,
        clash: bool,
    },
    /// A tile change.
    Change {
        from: u16,
        to: u16,
        toggle: bool,
        place: KPlace,
    },
    /// A counter update.
    Count {
        word: usize,
        max: u32,
        op: AssignOp,
        value: i64,
    },
    /// Conditional effects.
    If {
        cond: KCond,
        then: Vec<KOp>,
        els: Vec<KOp>,
    },
    /// The body per cell of a piece; the `as` names bound in the body (`fresh`) are
    /// bound afresh in every iteration.
    ForCells {
        var: usize,
        body: Vec<KOp>,
        fresh: Vec<usize>,
    },
}

/// A move whose program only shifts and turns one piece kind, with no tests: each
/// successor depends on one copy's place alone, so it runs without the general machinery
/// (once per copy).
#[derive(Clone, Debug)]
pub(super) struct LocalMove {
    /// The kind's first slot.
    pub(crate) slot: usize,
    /// The kind's copies (slots `slot..slot + count`).
    pub(crate) count: usize,
    pub(crate) kind: usize,
    steps: Vec<KOp>,
    /// For one-step programs: per `pose * dirs + dir`, the new pose and anchor delta.
    pub(crate) single: Option<Vec<Option<(u32, isize)>>>,
    /// For one-step programs on states of several words, once the flag tables exist
    /// (`Expander::step_tables`): per `word * dirs + dir`, the word after the step, or
    /// [`NO_STEP`] when the step leaves the board, reaches a place no pose may take or
    /// changes nothing; [`STEP_LIVE`] is set when the new place needs the in-play
    /// legality check. Empty when the table would be too large.
    pub(crate) step: Vec<u32>,
    /// Per `pose * dirs + dir`: the range of `enter` listing the cells the step newly
    /// covers, as deltas from the new anchor (the only cells another piece can block).
    pub(crate) enter_at: Vec<(u32, u32)>,
    pub(crate) enter: Vec<isize>,
}

/// A step that is not a move (see [`LocalMove::step`]).
pub(super) const NO_STEP: u32 = u32::MAX;
/// The bit of a [`LocalMove::step`] entry whose new place has changeable cells.
pub(super) const STEP_LIVE: u32 = 1 << 31;

/// What a move's actions range over, for this level.
#[derive(Clone, Debug)]
pub(super) enum Actions {
    /// These direction indices.
    Dirs(Vec<usize>),
    /// Every board cell (the action number is the board cell's index).
    Cells,
}

/// What runs a move's program: per move, its ops, the piece kinds acted on before a
/// test binds them, and what its actions range over.
#[derive(Debug)]
pub(super) struct Runs {
    pub(crate) moves: Vec<Vec<KOp>>,
    pub(crate) free_kinds: Vec<Vec<u16>>,
    pub(crate) actions: Vec<Actions>,
}

/// Every move's program, lowered for one level.
pub(super) struct Program {
    /// Per move: its ops, the kinds they act on freely and the actions it ranges over
    /// (shared, so an expansion holds them while it borrows the expander mutably).
    pub(crate) runs: std::sync::Arc<Runs>,
    /// Per move: its local form, when it has one.
    pub(crate) local: Vec<Option<LocalMove>>,
    /// Piece variables: kinds, then the most aliases any move has.
    pub(crate) vars: usize,
    /// Per move: its flip form, when it has one.
    pub(crate) flips: Vec<Option<Flips>>,
}

/// A move whose program only toggles the two tiles every changeable cell holds, at cells
/// fixed relative to the move's cell or direction, on a level where no piece can be
/// affected: each action flips fixed bits of the state, so it is a lookup and an XOR.
#[derive(Clone, Debug)]
pub(super) struct Flips {
    /// Per action number (board cell, or direction): the (word, mask) pairs it flips.
    pub(crate) masks: Vec<Vec<(u32, u32)>>,
}

/// The flip form of a move, when it has one.
fn flip_form(model: &Model, lay: &Layout, ops: &[KOp], actions: &Actions) -> Option<Flips> {
    let (a, b) = lay.two_tiles()?;
    if !lay.slot_kind.is_empty() || ops.is_empty() {
        return None;
    }
    let cells: Vec<KCell> = ops
        .iter()
        .map(|op| match op {
            KOp::Change {
                from,
                to,
                toggle: true,
                place: KPlace::At(c),
            } if matches!(c.base, KBase::Param) && c.mult == 0 && {
                let pair = [*from, *to];
                pair.contains(&a.0) && pair.contains(&b.0)
            } =>
            {
                Some(*c)
            }
            _ => None,
        })
        .collect::<Option<_>>()?;
    let _ = model;
    let params: Vec<usize> = match actions {
        Actions::Cells => lay.board_cells.iter().map(|&p| p as usize).collect(),
        Actions::Dirs(_) => return None,
    };
    let masks = params
        .iter()
        .map(|&p| {
            let mut m: Vec<(u32, u32)> = vec![];
            for c in &cells {
                let q = p as isize + c.fixed;
                if q < 0 || q as usize >= lay.ptile.len() || lay.ptile[q as usize] == OFF {
                    continue;
                }
                let i = lay.pmut[q as usize];
                if i == NONE {
                    continue;
                }
                let Some((w, bit)) = lay.toggle_bit(i as usize) else {
                    continue;
                };
                match m.iter_mut().find(|(x, _)| *x == w) {
                    Some(e) => e.1 ^= bit,
                    None => m.push((w, bit)),
                }
            }
            m.retain(|&(_, bit)| bit != 0);
            m
        })
        .collect();
    Some(Flips { masks })
}

impl Program {
    /// Lowers every move of `model` for the grid of `lay`.
    pub fn new(model: &Model, lay: &Layout) -> Program {
        let kinds = model.pieces.len();
        let moves: Vec<Vec<KOp>> = model
            .moves
            .iter()
            .map(|m| {
                let mut ops: Vec<KOp> = m.ops.iter().map(|op| KOp::lower(op, lay, kinds)).collect();
                mark_clashes(&mut ops, false);
                ops
            })
            .collect();
        let local = moves
            .iter()
            .zip(&model.moves)
            .map(|(ops, m)| match m.param {
                Param::Dirs(_) => local_form(model, lay, ops),
                Param::Cell => None,
            })
            .collect();
        let actions: Vec<Actions> = model
            .moves
            .iter()
            .map(|m| match &m.param {
                Param::Dirs(ds) => Actions::Dirs(ds.iter().map(|d| d.index()).collect()),
                Param::Cell => Actions::Cells,
            })
            .collect();
        let flips = moves
            .iter()
            .zip(&actions)
            .map(|(ops, acts)| flip_form(model, lay, ops, acts))
            .collect();
        Program {
            runs: std::sync::Arc::new(Runs {
                moves,
                free_kinds: model.moves.iter().map(|m| free_kinds(&m.ops)).collect(),
                actions,
            }),
            local,
            flips,
            vars: kinds
                + model
                    .moves
                    .iter()
                    .map(|m| m.aliases.len())
                    .max()
                    .unwrap_or(0),
        }
    }
}

impl Layout {
    /// A step as a delta on this grid.
    fn delta(&self, step: Step) -> Delta {
        let times = step.times * if step.negate { -1 } else { 1 };
        match step.fixed {
            None => Delta::Param { mult: times },
            Some(d) => {
                let (dr, dc) = self.dir_rc[d.index()];
                Delta::Fixed(
                    self.dir_delta[d.index()] * times as isize,
                    (dr * times, dc * times),
                )
            }
        }
    }

    /// The linear delta of `delta` when the move goes in direction `d`.
    #[inline]
    pub fn resolve(&self, delta: Delta, d: usize) -> isize {
        match delta {
            Delta::Param { mult } => self.dir_delta[d] * mult as isize,
            Delta::Fixed(v, _) => v,
        }
    }

    /// The (row, column) step of `delta` in direction `d`.
    fn resolve_rc(&self, delta: Delta, d: usize) -> (i32, i32) {
        match delta {
            Delta::Param { mult } => {
                let (dr, dc) = self.dir_rc.get(d).copied().unwrap_or((0, 0));
                (dr * mult, dc * mult)
            }
            Delta::Fixed(_, rc) => rc,
        }
    }

    /// A cell expression on this grid.
    fn cell(&self, c: &Cell, kinds: usize) -> KCell {
        let base = match c.base {
            Base::Piece(k, alias) => KBase::Var(var_of(k.index(), alias, kinds)),
            Base::Param => KBase::Param,
            Base::Var(depth) => KBase::Loop(depth as usize),
            Base::Abs(r, col) => {
                let (rows, cols) = self.size();
                let r = if r < 0 {
                    rows as i64 + r as i64
                } else {
                    r as i64
                };
                let col = if col < 0 {
                    cols as i64 + col as i64
                } else {
                    col as i64
                };
                KBase::Abs(
                    (r >= 0 && col >= 0 && (r as usize) < rows && (col as usize) < cols).then(
                        || self.to_padded((r as usize * cols + col as usize) as u32) as usize,
                    ),
                )
            }
        };
        let mut fixed = 0isize;
        let mut mult = 0i32;
        for st in &c.steps {
            match self.delta(*st) {
                Delta::Param { mult: m } => mult += m,
                Delta::Fixed(v, _) => fixed += v,
            }
        }
        KCell { base, fixed, mult }
    }

    pub(super) fn cond(&self, c: &Cond, kinds: usize) -> KCond {
        match c {
            Cond::At {
                subject,
                pose,
                of,
                cell,
                bind,
            } => KCond::At {
                subject: *subject,
                pose: pose.map(|p| p.index()),
                of: of.map(|a| kinds + a as usize),
                cell: self.cell(cell, kinds),
                bind: bind.map(|(k, a)| var_of(k.index(), a, kinds)),
            },
            Cond::On {
                piece,
                alias,
                pose,
                place,
            } => KCond::On {
                var: var_of(piece.index(), *alias, kinds),
                kind: piece.index(),
                pose: pose.map(|p| p.index()),
                place: *place,
            },
            Cond::Count { what, op, value } => match what {
                Subject::Piece(k) => KCond::CountPieces {
                    kind: k.index(),
                    op: *op,
                    value: *value,
                },
                Subject::Tile(t) => KCond::CountTiles {
                    tile: t.0,
                    op: *op,
                    value: *value,
                },
                Subject::Mark(m) => {
                    let n = self
                        .board_cells
                        .iter()
                        .filter(|&&p| self.pmarks[p as usize] >> m.0 & 1 == 1)
                        .count();
                    KCond::Const(op.holds(n as i64, *value))
                }
            },
            Cond::Counter { id, op, value } => KCond::Counter {
                word: self.counters_at + *id as usize,
                op: *op,
                value: *value,
            },
            Cond::Attr { left, op, right } => {
                let of = |a: &crate::compile::AttrOf| KAttr {
                    var: var_of(a.piece.index(), a.alias, kinds),
                    kind: a.piece.index(),
                    attr: a.attr as usize,
                };
                KCond::Attr {
                    left: of(left),
                    op: *op,
                    right: match right {
                        crate::compile::AttrRhs::Value(v) => KAttrRhs::Value(*v),
                        crate::compile::AttrRhs::Attr(a) => KAttrRhs::Attr(of(a)),
                    },
                }
            }
            Cond::Not(inner) => KCond::Not(Box::new(self.cond(inner, kinds))),
            Cond::And(parts) => KCond::And(parts.iter().map(|p| self.cond(p, kinds)).collect()),
            Cond::Or(parts) => KCond::Or(parts.iter().map(|p| self.cond(p, kinds)).collect()),
        }
    }
}

/// Whether `op` (or an op nested in it) moves or creates a piece.
fn moves_piece(op: &KOp) -> bool {
    match op {
        KOp::Shift { .. }
        | KOp::Swap { .. }
        | KOp::Turn { .. }
        | KOp::Slide { .. }
        | KOp::Create { .. } => true,
        KOp::If { then, els, .. } => then.iter().chain(els).any(moves_piece),
        KOp::ForCells { body, .. } => body.iter().any(moves_piece),
        KOp::Test { .. }
        | KOp::Check { .. }
        | KOp::Remove { .. }
        | KOp::Change { .. }
        | KOp::Count { .. } => false,
    }
}

/// Sets `clash` on every statement of `ops` that moves or creates a piece when another
/// such statement may run after it (`after`: one may run after `ops`): it then records
/// the copies sharing a cell (see `Scratch::clash`). After the last one the end-of-move
/// overlap check says the same, so it needs none.
fn mark_clashes(ops: &mut [KOp], after: bool) {
    let mut later = after;
    for op in ops.iter_mut().rev() {
        let moves = moves_piece(op);
        match op {
            KOp::If { then, els, .. } => {
                mark_clashes(then, later);
                mark_clashes(els, later);
            }
            KOp::ForCells { body, .. } => {
                // The next iteration runs the body again.
                let again = later || body.iter().any(moves_piece);
                mark_clashes(body, again);
            }
            KOp::Shift { clash, .. }
            | KOp::Swap { clash, .. }
            | KOp::Turn { clash, .. }
            | KOp::Create { clash, .. } => *clash = later,
            _ => {}
        }
        later |= moves;
    }
}

/// The alias variables (`as` names) that conditions in `ops` bind, nested ones included.
fn aliases_bound(ops: &[KOp], kinds: usize, out: &mut Vec<usize>) {
    fn cond(c: &KCond, kinds: usize, out: &mut Vec<usize>) {
        match c {
            KCond::At { bind: Some(v), .. } if *v >= kinds && !out.contains(v) => out.push(*v),
            KCond::Not(inner) => cond(inner, kinds, out),
            KCond::And(parts) | KCond::Or(parts) => {
                for p in parts {
                    cond(p, kinds, out);
                }
            }
            _ => {}
        }
    }
    for op in ops {
        match op {
            KOp::Check { cond: c, .. } => cond(c, kinds, out),
            KOp::If { cond: c, then, els } => {
                cond(c, kinds, out);
                aliases_bound(then, kinds, out);
                aliases_bound(els, kinds, out);
            }
            KOp::ForCells { body, .. } => aliases_bound(body, kinds, out),
            _ => {}
        }
    }
}

/// `left OP right`, where `value` reads an attribute; false when a piece is missing.
pub(super) fn compare_attrs(
    left: Option<i64>,
    op: CmpOp,
    right: &KAttrRhs,
    value: impl Fn(&KAttr) -> Option<i64>,
) -> bool {
    let r = match right {
        KAttrRhs::Value(v) => Some(*v),
        KAttrRhs::Attr(a) => value(a),
    };
    match (left, r) {
        (Some(l), Some(r)) => op.holds(l, r),
        _ => false,
    }
}

/// The variable index of a kind's own copy or of an alias.
fn var_of(kind: usize, alias: Option<u16>, kinds: usize) -> usize {
    alias.map_or(kind, |a| kinds + a as usize)
}

impl KOp {
    /// Lowers one op for the grid of `lay`.
    fn lower(op: &Op, lay: &Layout, kinds: usize) -> KOp {
        let lower_all = |ops: &[Op]| ops.iter().map(|o| KOp::lower(o, lay, kinds)).collect();
        match op {
            Op::Test {
                subject,
                cell,
                want,
            } => KOp::Test {
                subject: *subject,
                kind: cell.piece.index(),
                delta: cell.step.map(|s| lay.delta(s)),
                want: *want,
            },
            Op::Shift {
                piece,
                step,
                alias,
                each,
            } => KOp::Shift {
                var: var_of(piece.index(), *alias, kinds),
                kind: piece.index(),
                delta: lay.delta(*step),
                each: *each,
                clash: false,
            },
            Op::Swap { piece, step, alias } => KOp::Swap {
                var: var_of(piece.index(), *alias, kinds),
                kind: piece.index(),
                delta: lay.delta(*step),
                clash: false,
            },
            Op::Turn {
                piece,
                table,
                alias,
            } => KOp::Turn {
                var: var_of(piece.index(), *alias, kinds),
                kind: piece.index(),
                table: table
                    .iter()
                    .map(|e| e.map(|(p, dr, dc)| (p.0 as u32, lay.lin(dr, dc))))
                    .collect(),
                clash: false,
            },
            Op::Slide {
                piece,
                step,
                rules,
                alias,
                each,
            } => KOp::Slide {
                var: var_of(piece.index(), *alias, kinds),
                kind: piece.index(),
                delta: lay.delta(*step),
                rules: rules.clone(),
                each: *each,
            },
            Op::Check { cond, want } => KOp::Check {
                cond: lay.cond(cond, kinds),
                want: *want,
            },
            Op::Remove { piece, alias } => KOp::Remove {
                var: var_of(piece.index(), *alias, kinds),
            },
            Op::Create { piece, pose, cell } => KOp::Create {
                kind: piece.index(),
                pose: pose.0 as u32,
                cell: lay.cell(cell, kinds),
                clash: false,
            },
            Op::Change {
                from,
                to,
                toggle,
                place,
            } => KOp::Change {
                from: from.0,
                to: to.0,
                toggle: *toggle,
                place: match place {
                    TilePlace::At(c) => KPlace::At(lay.cell(c, kinds)),
                    TilePlace::All => KPlace::All,
                    TilePlace::Mark(m) => KPlace::Mark(m.0),
                },
            },
            Op::Count { id, op, value } => KOp::Count {
                word: lay.counters_at + *id as usize,
                max: lay.counter_max[*id as usize],
                op: *op,
                value: *value,
            },
            Op::If { cond, then, els } => KOp::If {
                cond: lay.cond(cond, kinds),
                then: lower_all(then),
                els: lower_all(els),
            },
            Op::ForCells { piece, alias, body } => {
                let body: Vec<KOp> = lower_all(body);
                let mut fresh = vec![];
                aliases_bound(&body, kinds, &mut fresh);
                KOp::ForCells {
                    var: var_of(piece.index(), *alias, kinds),
                    body,
                    fresh,
                }
            }
        }
    }
}

/// Reports to `see` every (row, column) offset `op` moves a piece by or looks at beyond
/// its footprint, so the padded grid is wide enough for it.
pub(super) fn op_reach(op: &Op, model: &Model, see: &mut impl FnMut(i32, i32)) {
    let step_rc = |s: &Step| -> (i32, i32) {
        let (dr, dc) = match s.fixed {
            Some(d) => (model.dirs[d.index()].dr, model.dirs[d.index()].dc),
            None => model
                .dirs
                .iter()
                .fold((0, 0), |(r, c), d| (r.max(d.dr.abs()), c.max(d.dc.abs()))),
        };
        (dr.abs() * s.times, dc.abs() * s.times)
    };
    let cell = |c: &Cell, see: &mut dyn FnMut(i32, i32)| {
        let (mut r, mut k) = (0, 0);
        for s in &c.steps {
            let (dr, dc) = step_rc(s);
            r += dr;
            k += dc;
        }
        see(r, k);
    };
    fn cond_cells(c: &Cond, f: &mut dyn FnMut(&Cell)) {
        match c {
            Cond::At { cell, .. } => f(cell),
            Cond::Attr { .. } => {}
            Cond::Not(inner) => cond_cells(inner, f),
            Cond::And(parts) | Cond::Or(parts) => {
                for p in parts {
                    cond_cells(p, f);
                }
            }
            Cond::On { .. } | Cond::Count { .. } | Cond::Counter { .. } => {}
        }
    }
    match op {
        Op::Turn { table, .. } => {
            for &(_, dr, dc) in table.iter().flatten() {
                see(dr, dc);
            }
        }
        Op::Test { cell: c, .. } => {
            if let Some(s) = &c.step {
                let (dr, dc) = step_rc(s);
                see(dr, dc);
            }
        }
        Op::Shift { step, .. } | Op::Swap { step, .. } | Op::Slide { step, .. } => {
            let (dr, dc) = step_rc(step);
            see(dr, dc);
        }
        Op::Check { cond, .. } | Op::If { cond, .. } => {
            cond_cells(cond, &mut |c| cell(c, see));
        }
        Op::Create { cell: c, .. } => cell(c, see),
        Op::Change {
            place: TilePlace::At(c),
            ..
        } => cell(c, see),
        Op::Change { .. } | Op::Remove { .. } | Op::Count { .. } | Op::ForCells { .. } => {}
    }
}

/// Piece kinds a program acts on before a `require KIND at ...` binds them.
fn free_kinds(ops: &[Op]) -> Vec<u16> {
    let mut bound: Vec<u16> = vec![];
    let mut free: Vec<u16> = vec![];
    free_walk(ops, &mut bound, &mut free);
    free
}

fn free_walk(ops: &[Op], bound: &mut Vec<u16>, free: &mut Vec<u16>) {
    fn actor(k: u16, bound: &[u16], free: &mut Vec<u16>) {
        if !bound.contains(&k) && !free.contains(&k) {
            free.push(k);
        }
    }
    fn cell_actor(c: &Cell, bound: &[u16], free: &mut Vec<u16>) {
        if let Base::Piece(k, None) = c.base {
            actor(k.0, bound, free);
        }
    }
    fn cond_walk(c: &Cond, bind: bool, bound: &mut Vec<u16>, free: &mut Vec<u16>) {
        match c {
            Cond::At {
                subject,
                cell,
                bind: b,
                ..
            } => {
                cell_actor(cell, bound, free);
                if let (Subject::Piece(p), true, Some((_, None))) = (subject, bind, b) {
                    if !free.contains(&p.0) && !bound.contains(&p.0) {
                        bound.push(p.0);
                    }
                }
            }
            Cond::Attr { left, right, .. } => {
                for a in std::iter::once(left).chain(match right {
                    crate::compile::AttrRhs::Attr(r) => Some(r),
                    crate::compile::AttrRhs::Value(_) => None,
                }) {
                    if a.alias.is_none() {
                        actor(a.piece.0, bound, free);
                    }
                }
            }
            Cond::Not(inner) => cond_walk(inner, false, bound, free),
            Cond::And(parts) => {
                for p in parts {
                    cond_walk(p, bind, bound, free);
                }
            }
            Cond::Or(parts) => {
                for p in parts {
                    cond_walk(p, false, bound, free);
                }
            }
            Cond::On { .. } | Cond::Count { .. } | Cond::Counter { .. } => {}
        }
    }
    for op in ops {
        match op {
            Op::Test {
                subject,
                cell,
                want,
            } => {
                actor(cell.piece.0, bound, free);
                if let (Subject::Piece(p), true) = (subject, want) {
                    if !free.contains(&p.0) {
                        bound.push(p.0);
                    }
                }
            }
            Op::Shift {
                piece,
                alias: None,
                each: false,
                ..
            }
            | Op::Swap {
                piece, alias: None, ..
            }
            | Op::Turn {
                piece, alias: None, ..
            }
            | Op::Slide {
                piece,
                alias: None,
                each: false,
                ..
            }
            | Op::Remove {
                piece, alias: None, ..
            }
            | Op::ForCells {
                piece, alias: None, ..
            } => actor(piece.0, bound, free),
            Op::Shift { .. }
            | Op::Swap { .. }
            | Op::Turn { .. }
            | Op::Slide { .. }
            | Op::Remove { .. }
            | Op::ForCells { .. }
            | Op::Count { .. } => {}
            Op::Check { cond, want } => cond_walk(cond, *want, bound, free),
            Op::Create { cell, .. } => cell_actor(cell, bound, free),
            Op::Change { place, .. } => {
                if let TilePlace::At(c) = place {
                    cell_actor(c, bound, free);
                }
            }
            Op::If { cond, .. } => cond_walk(cond, true, bound, free),
        }
        if let Op::ForCells { body, .. } = op {
            free_walk(body, bound, free);
        }
        if let Op::If { then, els, .. } = op {
            let mut b1 = bound.clone();
            free_walk(then, &mut b1, free);
            let mut b2 = bound.clone();
            free_walk(els, &mut b2, free);
        }
    }
}

/// The local form of a program, when it only shifts and turns one single-instance piece.
fn local_form(model: &Model, lay: &Layout, ops: &[KOp]) -> Option<LocalMove> {
    // Several steps may pass the piece through another one on the way, which the local
    // form (one look at where it ends) cannot see: only a piece alone may take them.
    if ops.len() > 1 && lay.slot_kind.len() > 1 {
        return None;
    }
    let mut kind = None;
    for op in ops {
        let k = match op {
            KOp::Shift {
                var,
                kind,
                each: false,
                ..
            }
            | KOp::Turn { var, kind, .. }
                if var == kind =>
            {
                *kind
            }
            _ => return None,
        };
        if kind.is_some_and(|x| x != k) {
            return None;
        }
        kind = Some(k);
    }
    let kind = kind?;
    let nd = lay.dir_delta.len();
    let np = model.pieces[kind].poses.len();
    let single = match ops {
        [KOp::Turn { table, .. }] => Some(table.clone()),
        [KOp::Shift { delta, .. }] => Some(
            (0..np * nd)
                .map(|i| Some(((i / nd) as u32, lay.resolve(*delta, i % nd))))
                .collect(),
        ),
        _ => None,
    };
    (lay.slots[kind].count >= 1).then(|| LocalMove {
        slot: lay.slots[kind].start,
        count: lay.slots[kind].count,
        kind,
        steps: ops.to_vec(),
        single,
        step: vec![],
        enter_at: vec![],
        enter: vec![],
    })
}

impl Expander<'_> {
    /// Whether a slide's event about the cell ahead (`next`, off the board when `off`)
    /// fires; `into` events are about the cell entered and never fire here.
    #[inline]
    pub(super) fn fires_ahead(&self, event: SlideEvent, next: usize, off: bool) -> bool {
        match event {
            SlideEvent::OffBoard => off,
            // Beyond the board every cell is the `outside` tile, if one is declared.
            SlideEvent::BeforeTile(t) => self.lay.tile_at(&self.sc.cur, next) == Some(t),
            SlideEvent::BeforePiece(p) => {
                !off && self
                    .lay
                    .instance_at(&self.sc.cur, p.index(), next)
                    .is_some()
            }
            SlideEvent::Into(_) => false,
        }
    }

    /// Runs a local move: the new word of its slot, or `None`.
    #[inline]
    pub(super) fn run_local(&self, s: &[u32], m: &LocalMove, slot: usize, d: usize) -> Option<u32> {
        let lay = &self.lay;
        if s[slot] == ABSENT {
            return None;
        }
        let bits = lay.slots[m.kind].bits;
        let mut a = (s[slot] >> bits) as usize;
        let mut pose = (s[slot] & ((1 << bits) - 1)) as usize;
        for st in &m.steps {
            match st {
                KOp::Shift { delta, .. } => a = (a as isize + lay.resolve(*delta, d)) as usize,
                KOp::Turn { table, .. } => {
                    let (p, v) = table[pose * lay.dir_delta.len() + d]?;
                    a = (a as isize + v) as usize;
                    pose = p as usize;
                }
                _ => unreachable!("local moves only shift and turn"),
            }
            if lay.ptile[a] == OFF {
                return None;
            }
        }
        let w = (a as u32) << bits | pose as u32;
        if !self.word_may_be_legal(m.kind, w) {
            return None;
        }
        Some(w)
    }

    /// The padded cell a goal's cell names in `s`: an absolute cell, or steps from the
    /// first copy of a piece on the board.
    pub(super) fn goal_cell(&self, s: &[u32], c: &KCell) -> Option<usize> {
        let base = match c.base {
            KBase::Abs(p) => p?,
            KBase::Var(v) => {
                let sl = self.lay.slots.get(v)?;
                let slot = (sl.start..sl.start + sl.count).find(|&slot| s[slot] != ABSENT)?;
                self.lay.anchor(s, slot).0
            }
            KBase::Param | KBase::Loop(_) => return None,
        };
        let p = base as isize + c.fixed;
        (p >= 0 && (p as usize) < self.lay.ptile.len()).then_some(p as usize)
    }

    /// The padded cell a resolved cell names now, or `None` (unbound, absent or off the
    /// padded grid).
    #[inline]
    fn cell_at(&self, c: &KCell, d: usize) -> Option<usize> {
        let base = match c.base {
            KBase::Var(v) => {
                let slot = self.bound_slot(v)?;
                if self.sc.cur[slot] == ABSENT {
                    return None;
                }
                self.lay.anchor(&self.sc.cur, slot).0
            }
            KBase::Param => self.sc.param,
            KBase::Loop(depth) => *self.sc.loops.iter().rev().nth(depth)?,
            KBase::Abs(p) => p?,
        };
        let extra = if c.mult != 0 {
            self.lay.dir_delta.get(d).copied().unwrap_or(0) * c.mult as isize
        } else {
            0
        };
        let p = base as isize + c.fixed + extra;
        (p >= 0 && (p as usize) < self.lay.ptile.len()).then_some(p as usize)
    }

    /// An `if` condition: binds what it finds when it holds; when it fails, the copies
    /// it bound on the way are unbound again (the `else` branch and what follows see the
    /// bindings from before it).
    pub(super) fn try_cond(&mut self, cond: &KCond, d: usize) -> bool {
        let mark = self.sc.saved.len();
        let held = self.sc.held.len();
        self.sc.saved.extend_from_slice(&self.sc.bound);
        let ok = self.eval(cond, d, true);
        if !ok {
            let n = self.sc.bound.len();
            for i in 0..n {
                self.sc.bound[i] = self.sc.saved[mark + i];
            }
            self.sc.held.truncate(held);
        }
        self.sc.saved.truncate(mark);
        ok
    }

    /// Attribute `a` of the copy in `slot` of state `s` (its pose's value), if present.
    pub(super) fn attr_of(&self, s: &[u32], slot: usize, a: &KAttr) -> Option<i64> {
        if s.get(slot).is_none_or(|&w| w == ABSENT) {
            return None;
        }
        let (_, pose) = self.lay.anchor(s, slot);
        *self.model.pieces[a.kind].poses[pose].values.get(a.attr)?
    }

    /// A binding `require` found copy `found` of kind `k`: binds it when the kind has no
    /// bound copy yet, and marks the kind's copy as held by its name, so a later `as`
    /// looks for another one.
    fn hold(&mut self, k: usize, found: usize) {
        let slot = match self.bound_slot(k) {
            Some(b) => b,
            None => {
                self.sc.bound[k] = found as u32;
                found
            }
        };
        if !self.sc.held.contains(&(slot as u32)) {
            self.sc.held.push(slot as u32);
        }
    }

    /// Evaluates a condition in the scratch state; binds pieces found when `bind` holds.
    pub(super) fn eval(&mut self, c: &KCond, d: usize, bind: bool) -> bool {
        match c {
            KCond::At {
                subject,
                pose,
                of,
                cell,
                bind: var,
            } => {
                let Some(p) = self.cell_at(cell, d) else {
                    return false;
                };
                if let Some(v) = of {
                    // `over at CELL`: that very copy covers the cell.
                    return self.bound_slot(*v).is_some_and(|slot| {
                        self.lay.covers(&self.sc.cur, slot, p)
                            && pose.is_none_or(|q| self.lay.anchor(&self.sc.cur, slot).1 == q)
                    });
                }
                let lay = &self.lay;
                match *subject {
                    Subject::Tile(t) => lay.tile_at(&self.sc.cur, p) == Some(t),
                    Subject::Mark(m) => lay.pmarks[p] >> m.0 & 1 == 1,
                    Subject::Piece(pk) => {
                        let k = pk.index();
                        if lay.ptile[p] == OFF {
                            return false;
                        }
                        let kinds = self.model.pieces.len();
                        match var {
                            // An alias: a copy no name holds yet (not an earlier alias,
                            // nor the copy of a kind the move acts on or has bound; a
                            // kind's only copy is not held just because it is alone).
                            Some(v) if *v >= kinds => {
                                let sl = &lay.slots[k];
                                let found = (sl.start..sl.start + sl.count).find(|&slot| {
                                    lay.covers(&self.sc.cur, slot, p)
                                        && pose
                                            .is_none_or(|q| lay.anchor(&self.sc.cur, slot).1 == q)
                                        && !self.sc.bound[kinds..].contains(&(slot as u32))
                                        && !self.sc.held.contains(&(slot as u32))
                                });
                                match found {
                                    Some(slot) => {
                                        if bind {
                                            self.sc.bound[*v] = slot as u32;
                                        }
                                        true
                                    }
                                    None => false,
                                }
                            }
                            // Any copy of the kind there, the move's own included; a
                            // binding `require` binds the copy found when none is bound.
                            _ => match lay.instance_in_pose(&self.sc.cur, k, p, *pose) {
                                Some(found) => {
                                    if bind && var.is_some() {
                                        self.hold(k, found);
                                    }
                                    true
                                }
                                None => false,
                            },
                        }
                    }
                }
            }
            KCond::On {
                var,
                kind,
                pose,
                place,
            } => {
                let lay = &self.lay;
                let check = |slot: usize| {
                    let (a, q) = lay.anchor(&self.sc.cur, slot);
                    pose.is_none_or(|want| want == q)
                        && lay.foot[*kind][q].iter().all(|&dl| {
                            lay.on_place(&self.sc.cur, (a as isize + dl) as usize, *place)
                        })
                };
                match self.bound_slot(*var) {
                    Some(slot) => self.sc.cur[slot] != ABSENT && check(slot),
                    // Every copy; a named piece off the board is on nothing (as in a
                    // goal), an anonymous kind with none left meets it vacuously.
                    None => {
                        let sl = &lay.slots[*kind];
                        let anonymous = self.model.pieces[*kind].anonymous;
                        (sl.start..sl.start + sl.count).all(|slot| {
                            if self.sc.cur[slot] == ABSENT {
                                anonymous
                            } else {
                                check(slot)
                            }
                        })
                    }
                }
            }
            KCond::CountPieces { kind, op, value } => {
                let sl = &self.lay.slots[*kind];
                let n = self.sc.cur[sl.start..sl.start + sl.count]
                    .iter()
                    .filter(|&&w| w != ABSENT)
                    .count();
                op.holds(n as i64, *value)
            }
            KCond::CountTiles { tile, op, value } => {
                op.holds(self.lay.count_tile(&self.sc.cur, *tile) as i64, *value)
            }
            KCond::Const(b) => *b,
            KCond::Counter { word, op, value } => op.holds(self.sc.cur[*word] as i64, *value),
            KCond::Attr { left, op, right } => {
                let value = |a: &KAttr| {
                    let slot = self.bound_slot(a.var)?;
                    self.attr_of(&self.sc.cur, slot, a)
                };
                compare_attrs(value(left), *op, right, value)
            }
            KCond::Not(inner) => !self.eval(inner, d, false),
            KCond::And(parts) => parts.iter().all(|p| self.eval(p, d, bind)),
            KCond::Or(parts) => parts.iter().any(|p| self.eval(p, d, false)),
        }
    }

    /// The slots `each` visits: every copy of `kind` on the board, the farthest along
    /// `(dr, dc)` first (ties in slot order).
    fn each_order(&self, kind: usize, (dr, dc): (i32, i32)) -> Vec<usize> {
        let lay = &self.lay;
        let sl = &lay.slots[kind];
        let mut slots: Vec<usize> = (sl.start..sl.start + sl.count)
            .filter(|&slot| self.sc.cur[slot] != ABSENT)
            .collect();
        let key = |slot: usize| {
            let (a, _) = lay.anchor(&self.sc.cur, slot);
            let (r, c) = lay.row_col(a);
            -(r as i64 * dr as i64 + c as i64 * dc as i64)
        };
        slots.sort_by_key(|&slot| key(slot));
        slots
    }

    /// Runs a block of ops; false when one fails.
    fn ops(&mut self, ops: &[KOp], d: usize) -> bool {
        ops.iter().all(|op| self.op(op, d))
    }

    /// Applies one op to `self.sc.cur`; false when the move cannot go on.
    #[inline(always)]
    pub(super) fn op(&mut self, op: &KOp, d: usize) -> bool {
        match op {
            KOp::Test {
                subject,
                kind,
                delta,
                want,
            } => {
                // A cell counted from a copy that is not there names nothing: the
                // condition is false, so a `require` fails and a `forbid` passes.
                let Some(slot) = self.bound_slot(*kind) else {
                    return !*want;
                };
                if self.sc.cur[slot] == ABSENT {
                    return !*want;
                }
                let lay = &self.lay;
                let (a, _) = lay.anchor(&self.sc.cur, slot);
                let p = (a as isize + delta.map_or(0, |x| lay.resolve(x, d))) as usize;
                let holds = match *subject {
                    Subject::Tile(t) => lay.tile_at(&self.sc.cur, p) == Some(t),
                    Subject::Mark(m) => lay.pmarks[p] >> m.0 & 1 == 1,
                    // Any copy of the kind there, the move's own included; `require`
                    // binds the copy found when none is bound.
                    Subject::Piece(pk) => {
                        let k = pk.index();
                        if lay.ptile[p] == OFF {
                            false
                        } else if let Some(found) = lay.instance_at(&self.sc.cur, k, p) {
                            if *want {
                                self.hold(k, found);
                            }
                            true
                        } else {
                            false
                        }
                    }
                };
                holds == *want
            }
            KOp::Shift {
                var,
                kind,
                delta,
                each,
                clash,
            } => {
                if *each {
                    let order = self.each_order(*kind, self.lay.resolve_rc(*delta, d));
                    let v = self.lay.resolve(*delta, d);
                    // Copies move one after another, the farthest first, all by the
                    // same step: a one-cell copy never lands on another copy of its
                    // kind (that one was ahead, and moved first), so only a later
                    // statement makes its clashes matter; wider copies may overlap
                    // an unmoved one on the way.
                    let wide = self.lay.foot[*kind].iter().any(|f| f.len() > 1);
                    return order.into_iter().all(|slot| {
                        let ok = self.shift_slot(slot, v);
                        if ok && (*clash || wide) {
                            self.note_clashes(Some(slot));
                        }
                        ok
                    });
                }
                let Some(slot) = self.bound_slot(*var) else {
                    return false;
                };
                let v = self.lay.resolve(*delta, d);
                let ok = self.shift_slot(slot, v);
                if ok && *clash {
                    self.note_clashes(Some(slot));
                }
                ok
            }
            KOp::Swap {
                var, delta, clash, ..
            } => {
                let Some(slot) = self.bound_slot(*var) else {
                    return false;
                };
                if self.sc.cur[slot] == ABSENT {
                    return false;
                }
                let (a, pose) = self.lay.anchor(&self.sc.cur, slot);
                let v = self.lay.resolve(*delta, d);
                let to = (a as isize + v) as usize;
                if self.lay.ptile[to] == OFF {
                    return false;
                }
                let displaced = self.lay.any_instance_at(&self.sc.cur, to, slot);
                if let Some(other) = displaced {
                    let (oa, opose) = self.lay.anchor(&self.sc.cur, other);
                    let back = (oa as isize - v) as usize;
                    if self.lay.ptile[back] == OFF {
                        return false;
                    }
                    self.set_place(other, back, opose);
                }
                self.set_place(slot, to, pose);
                // Both have moved: only now can they be told to share a cell or not.
                if *clash {
                    self.note_clashes(Some(slot));
                    self.note_clashes(displaced);
                }
                true
            }
            KOp::Turn {
                var, table, clash, ..
            } => {
                let Some(slot) = self.bound_slot(*var) else {
                    return false;
                };
                if self.sc.cur[slot] == ABSENT {
                    return false;
                }
                let (a, pose) = self.lay.anchor(&self.sc.cur, slot);
                let Some((to_pose, v)) = table[pose * self.lay.dir_delta.len() + d] else {
                    return false;
                };
                let to = (a as isize + v) as usize;
                if self.lay.ptile[to] == OFF {
                    return false;
                }
                self.set_place(slot, to, to_pose as usize);
                if *clash {
                    self.note_clashes(Some(slot));
                }
                true
            }
            KOp::Slide {
                var,
                kind,
                delta,
                rules,
                each,
            } => {
                let v = self.lay.resolve(*delta, d);
                if *each {
                    let order = self.each_order(*kind, self.lay.resolve_rc(*delta, d));
                    return order.into_iter().all(|slot| self.slide(slot, v, rules));
                }
                let Some(slot) = self.bound_slot(*var) else {
                    return false;
                };
                if self.sc.cur[slot] == ABSENT {
                    return false;
                }
                self.slide(slot, v, rules)
            }
            KOp::Check { .. }
            | KOp::Remove { .. }
            | KOp::Create { .. }
            | KOp::Change { .. }
            | KOp::Count { .. }
            | KOp::If { .. }
            | KOp::ForCells { .. } => self.op_general(op, d),
        }
    }

    /// The ops beyond the seed mechanics, kept out of [`Expander::op`] so that the seed
    /// ops stay small enough to inline into the run loop.
    #[inline(never)]
    fn op_general(&mut self, op: &KOp, d: usize) -> bool {
        match op {
            KOp::Check { cond, want } => self.eval(cond, d, *want) == *want,
            KOp::Remove { var } => {
                let Some(slot) = self.bound_slot(*var) else {
                    return false;
                };
                if self.sc.cur[slot] == ABSENT {
                    return false;
                }
                self.sc.cur[slot] = ABSENT;
                true
            }
            KOp::Create {
                kind,
                pose,
                cell,
                clash,
            } => {
                let Some(p) = self.cell_at(cell, d) else {
                    return false;
                };
                if self.lay.ptile[p] == OFF {
                    return false;
                }
                let sl = &self.lay.slots[*kind];
                let Some(slot) =
                    (sl.start..sl.start + sl.count).find(|&slot| self.sc.cur[slot] == ABSENT)
                else {
                    return false;
                };
                self.set_place(slot, p, *pose as usize);
                if *clash {
                    self.note_clashes(Some(slot));
                }
                true
            }
            KOp::Change {
                from,
                to,
                toggle,
                place,
            } => {
                match place {
                    KPlace::At(c) => {
                        if let Some(p) = self.cell_at(c, d) {
                            self.change_cell(p, *from, *to, *toggle);
                        }
                    }
                    KPlace::All | KPlace::Mark(_) => {
                        for i in 0..self.lay.mut_cells.len() {
                            let p = self.lay.mut_cells[i] as usize;
                            if let KPlace::Mark(m) = place {
                                if self.lay.pmarks[p] >> m & 1 == 0 {
                                    continue;
                                }
                            }
                            self.change_cell(p, *from, *to, *toggle);
                        }
                    }
                }
                true
            }
            KOp::Count {
                word,
                max,
                op,
                value,
            } => {
                let cur = self.sc.cur[*word] as i64;
                let next = match op {
                    AssignOp::Add => cur + value,
                    AssignOp::Sub => cur - value,
                    AssignOp::Set => *value,
                };
                if !(0..=*max as i64).contains(&next) {
                    return false;
                }
                self.sc.cur[*word] = next as u32;
                true
            }
            KOp::If { cond, then, els } => {
                if self.try_cond(cond, d) {
                    self.ops(then, d)
                } else {
                    self.ops(els, d)
                }
            }
            KOp::ForCells { var, body, fresh } => {
                let Some(slot) = self.bound_slot(*var) else {
                    return false;
                };
                if self.sc.cur[slot] == ABSENT {
                    return false;
                }
                let k = self.lay.slot_kind[slot] as usize;
                let (a, pose) = self.lay.anchor(&self.sc.cur, slot);
                let cells: Vec<usize> = self.lay.foot[k][pose]
                    .iter()
                    .map(|&dl| (a as isize + dl) as usize)
                    .collect();
                for p in cells {
                    for &v in fresh {
                        self.sc.bound[v] = NONE;
                    }
                    self.sc.loops.push(p);
                    let ok = self.ops(body, d);
                    self.sc.loops.pop();
                    if !ok {
                        return false;
                    }
                }
                true
            }
            KOp::Test { .. }
            | KOp::Shift { .. }
            | KOp::Swap { .. }
            | KOp::Turn { .. }
            | KOp::Slide { .. } => unreachable!("Expander::op runs the seed ops itself"),
        }
    }

    /// Records every copy sharing a cell with the copy in `slot` now (see
    /// `Scratch::clash`).
    fn note_clashes(&mut self, slot: Option<usize>) {
        let Some(a) = slot else {
            return;
        };
        if self.sc.cur[a] == ABSENT {
            return;
        }
        for b in 0..self.lay.slot_kind.len() {
            if b == a || self.sc.cur[b] == ABSENT || !self.overlap_pair(&self.sc.cur, a, b) {
                continue;
            }
            let pair = (a.min(b) as u32, a.max(b) as u32);
            if !self.sc.clash.contains(&pair) {
                self.sc.clash.push(pair);
            }
        }
    }

    /// A pair of copies that shared a cell during the run and are both still on the
    /// board: the move is refused (pieces may not pass through each other).
    pub(super) fn passed_through(&self) -> Option<(usize, usize)> {
        self.sc
            .clash
            .iter()
            .find(|&&(a, b)| self.sc.cur[a as usize] != ABSENT && self.sc.cur[b as usize] != ABSENT)
            .map(|&(a, b)| (a as usize, b as usize))
    }

    /// Moves `slot` by `v`; false when it would leave the padded board.
    fn shift_slot(&mut self, slot: usize, v: isize) -> bool {
        if self.sc.cur[slot] == ABSENT {
            return false;
        }
        let (a, pose) = self.lay.anchor(&self.sc.cur, slot);
        let to = (a as isize + v) as usize;
        if to >= self.lay.ptile.len() || self.lay.ptile[to] == OFF {
            return false;
        }
        self.set_place(slot, to, pose);
        true
    }

    /// Changes the tile at `p` from `from` to `to` (and back, for a toggle).
    fn change_cell(&mut self, p: usize, from: u16, to: u16, toggle: bool) {
        let Some(t) = self.lay.tile_at(&self.sc.cur, p) else {
            return;
        };
        if self.lay.ptile[p] == OFF {
            return;
        }
        let new = if t.0 == from {
            to
        } else if toggle && t.0 == to {
            from
        } else {
            return;
        };
        self.lay
            .set_tile(&mut self.sc.cur, p, crate::compile::TileId(new));
        self.sc.retiled = true;
    }

    /// Slides `slot` by `v` per step until an event stops it; works on `self.sc.cur`.
    fn slide(&mut self, slot: usize, v: isize, rules: &[SlideRule]) -> bool {
        let limit = self.lay.ptile.len();
        for _ in 0..limit {
            let (a, pose) = self.lay.anchor(&self.sc.cur, slot);
            let next = (a as isize + v) as usize;
            let off = self.lay.ptile[next] == OFF;
            // Events about the cell ahead, in declaration order.
            for r in rules {
                if !self.fires_ahead(r.event, next, off) {
                    continue;
                }
                if r.lose {
                    return false;
                }
                if r.brk && self.lay.pmut[next] != NONE {
                    self.lay.break_tile(&mut self.sc.cur, next);
                    self.sc.retiled = true;
                }
                if r.stop {
                    return true;
                }
            }
            if off {
                return false;
            }
            self.set_place(slot, next, pose);
            if !self.slot_legal(&self.sc.cur, slot) || self.overlaps_any(&self.sc.cur, slot) {
                return false;
            }
            for r in rules {
                if let SlideEvent::Into(place) = r.event {
                    if self.lay.on_place(&self.sc.cur, next, place) {
                        if r.lose {
                            return false;
                        }
                        if r.stop {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Relaxation of one op for kind `k` alone on the board: pushes into `next` every
    /// (anchor, pose) an instance at (`a`, `pose`) may be at after `op` in direction `d`.
    /// Ops on other pieces and all tests are ignored, a swap by another piece may or may
    /// not displace it, and a slide may stop at any cell where a piece could block. Adds
    /// the cells it looked at to `work`.
    pub(super) fn relax_op(
        &self,
        k: usize,
        op: &KOp,
        (a, pose): (usize, usize),
        d: usize,
        next: &mut Vec<(usize, usize)>,
        work: &mut u64,
    ) {
        let lay = &self.lay;
        *work += 1;
        match op {
            KOp::Test { .. } => next.push((a, pose)),
            KOp::Shift {
                kind, delta, var, ..
            }
            | KOp::Swap {
                kind, delta, var, ..
            } if *kind == k && var == kind => {
                if lay.slots[k].count > 1 {
                    next.push((a, pose)); // the op may move another instance
                }
                let to = (a as isize + lay.resolve(*delta, d)) as usize;
                if lay.ptile[to] != OFF {
                    next.push((to, pose));
                }
            }
            KOp::Swap { delta, .. } => {
                next.push((a, pose));
                let back = (a as isize - lay.resolve(*delta, d)) as usize;
                if lay.ptile[back] != OFF {
                    next.push((back, pose));
                }
            }
            KOp::Turn {
                kind, table, var, ..
            } if *kind == k && var == kind => {
                if let Some((p, v)) = table[pose * lay.dir_delta.len() + d] {
                    let to = (a as isize + v) as usize;
                    if lay.ptile[to] != OFF {
                        next.push((to, p as usize));
                    }
                }
            }
            KOp::Slide {
                kind,
                delta,
                rules,
                var,
                ..
            } if *kind == k && var == kind => {
                let v = lay.resolve(*delta, d);
                let may_block = rules
                    .iter()
                    .any(|r| matches!(r.event, SlideEvent::BeforePiece(_)));
                let mut at = a;
                for _ in 0..lay.ptile.len() {
                    *work += 1;
                    let nxt = (at as isize + v) as usize;
                    let off = lay.ptile[nxt] == OFF;
                    let mut stop = false;
                    let mut lost = false;
                    for r in rules {
                        let fires = match r.event {
                            SlideEvent::OffBoard => off,
                            SlideEvent::BeforeTile(t) => {
                                if off {
                                    lay.outside() == Some(t)
                                } else {
                                    lay.ptile[nxt] == t.0
                                }
                            }
                            _ => false,
                        };
                        if fires {
                            lost |= r.lose;
                            stop |= r.stop;
                            if r.lose || r.stop {
                                break;
                            }
                        }
                    }
                    if lost {
                        break;
                    }
                    if stop {
                        next.push((at, pose));
                        break;
                    }
                    if off {
                        break;
                    }
                    at = nxt;
                    if may_block {
                        next.push((at, pose));
                    }
                    let into = rules.iter().any(|r| match r.event {
                        SlideEvent::Into(p) => r.stop && lay.on_place(&[], at, p),
                        _ => false,
                    });
                    if into {
                        next.push((at, pose));
                        break;
                    }
                }
            }
            KOp::Shift { .. }
            | KOp::Turn { .. }
            | KOp::Slide { .. }
            | KOp::Check { .. }
            | KOp::Remove { .. }
            | KOp::Create { .. }
            | KOp::Change { .. }
            | KOp::Count { .. }
            | KOp::If { .. }
            | KOp::ForCells { .. } => next.push((a, pose)),
        }
    }
}
