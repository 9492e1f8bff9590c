//! Lowering a move's program for one level: every `compile::Op` to a [`KOp`] on the padded
//! grid ([`Program::new`]), with what is read off the ops beside it: an op's reach (how
//! wide the padding must be), the kinds a program acts on before a test binds them, which
//! statements may make copies share a cell, and a move's local and flip forms.

use crate::compile::{Base, Cell, Cond, Model, Op, Param, Step, Subject, TilePlace};

use super::super::layout::{Layout, NONE, OFF};
use super::{
    Actions, Delta, Flips, KAttr, KAttrRhs, KBase, KCell, KCond, KOp, KPlace, LocalMove, Program,
    Runs,
};

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
        let local: Vec<Option<LocalMove>> = moves
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
        let flips: Vec<Option<Flips>> = moves
            .iter()
            .zip(&actions)
            .map(|(ops, acts)| flip_form(model, lay, ops, acts))
            .collect();
        let free_kinds: Vec<Vec<u16>> = model.moves.iter().map(|m| free_kinds(&m.ops)).collect();
        let poses: Vec<usize> = model.pieces.iter().map(|p| p.poses.len()).collect();
        let guarded = (0..moves.len())
            .map(|mi| {
                let plain = local[mi].is_some() || flips[mi].is_some();
                let (ops, free, acts) = (&moves[mi], &free_kinds[mi], &actions[mi]);
                (!plain)
                    .then(|| super::guard::guarded_local(lay, kinds, &poses, ops, free, acts))
                    .flatten()
            })
            .collect();
        let guarded_flips = (0..moves.len())
            .map(|mi| {
                (flips[mi].is_none())
                    .then(|| super::guard::guarded_flips(lay, &moves[mi], &actions[mi]))
                    .flatten()
            })
            .collect();
        Program {
            runs: std::sync::Arc::new(Runs {
                moves,
                free_kinds,
                actions,
            }),
            local,
            flips,
            guarded,
            guarded_flips,
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
    pub(in crate::engine) fn resolve_rc(&self, delta: Delta, d: usize) -> (i32, i32) {
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

    pub(in crate::engine) fn cond(&self, c: &Cond, kinds: usize) -> KCond {
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
pub(in crate::engine) fn op_reach(op: &Op, model: &Model, see: &mut impl FnMut(i32, i32)) {
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
